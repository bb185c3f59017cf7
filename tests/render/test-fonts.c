/* tests/render/test-fonts.c: font files: PSF fonts (plain and gzip, PSF1 and PSF2), every console
 * font Debian ships, bad input (missing, corrupt or truncated fonts, absurd sizes), and styles
 * synthesised from a face's outlines (from the regular face, or the bold one slanted for bold
 * italic). */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_OUTLINE_H

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static char tmpdir[] = "/tmp/kf-render-test-XXXXXX";

/* --- PSF fonts --- */

static size_t make_psf2(uint8_t *buf, bool with_table)
{
	uint32_t hdr[8] = {0x864ab572u, 0, 32, with_table, kf_builtin_font_count, 16, 16, 8};
	memcpy(buf, hdr, 32);
	size_t n = 32;
	for (unsigned i = 0; i < kf_builtin_font_count; i++, n += 16)
		memcpy(buf + n, kf_builtin_font_bits[i], 16);
	for (unsigned i = 0; with_table && i < kf_builtin_font_count; i++) {
		uint32_t cp = kf_builtin_font_cps[i];
		if (cp < 0x80) {
			buf[n++] = (uint8_t)cp;
		} else if (cp < 0x800) {
			buf[n++] = (uint8_t)(0xc0 | cp >> 6);
			buf[n++] = (uint8_t)(0x80 | (cp & 0x3f));
		}
		if (cp == 'A') { /* a sequence entry must be ignored */
			buf[n++] = 0xfe;
			buf[n++] = 'Q';
		}
		buf[n++] = 0xff;
	}
	return n;
}

static void write_file(const char *path, const uint8_t *d, size_t n, bool gz)
{
	if (gz) {
		gzFile f = gzopen(path, "wb");
		gzwrite(f, d, (unsigned)n);
		gzclose(f);
	} else {
		FILE *f = fopen(path, "wb");
		fwrite(d, 1, n, f);
		fclose(f);
	}
}

static void glyph_bits(struct kf_render *r, uint32_t cp, uint8_t *out, size_t n)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, 0, 1);
	memset(out, 0, n);
	if (g->kind == KF_GLYPH_ALPHA)
		memcpy(out, g->data, n);
}

static void test_psf(void)
{
	static uint8_t buf[64 * 1024];
	char path[256];
	struct kf_render *ref, *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &ref) == 0);
	uint8_t a[128], b[128];
	for (int variant = 0; variant < 4; variant++) {
		bool gz = variant & 1, psf1 = variant & 2;
		size_t n;
		if (psf1) {
			/* PSF1: 256 glyphs of the first 256 of our font, with a UCS-2 table */
			buf[0] = 0x36, buf[1] = 0x04, buf[2] = 0x02, buf[3] = 16;
			n = 4;
			for (unsigned i = 0; i < 256; i++, n += 16)
				memcpy(buf + n,
				       kf_builtin_font_bits[i < kf_builtin_font_count ? i : 0], 16);
			for (unsigned i = 0; i < 256; i++) {
				uint32_t cp =
				    i < kf_builtin_font_count ? kf_builtin_font_cps[i] : 0xe000 + i;
				buf[n++] = (uint8_t)cp, buf[n++] = (uint8_t)(cp >> 8);
				buf[n++] = 0xff, buf[n++] = 0xff;
			}
		} else {
			n = make_psf2(buf, true);
		}
		snprintf(path, sizeof(path), "%s/font%d.psf%s", tmpdir, variant, gz ? ".gz" : "");
		write_file(path, buf, n, gz);
		cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_PSF, .font_file = path};
		int ret = kf_render_create(&cfg, &r);
		CHECK(ret == 0);
		if (ret)
			continue;
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		CHECK(cw == 8 && ch == 16);
		for (const char *s = "AZaz09~"; *s; s++) {
			glyph_bits(ref, (uint32_t)*s, a, sizeof(a));
			glyph_bits(r, (uint32_t)*s, b, sizeof(b));
			CHECK(!memcmp(a, b, sizeof(a)));
		}
		glyph_bits(ref, 0xe9, a, sizeof(a));
		glyph_bits(r, 0xe9, b, sizeof(b));
		CHECK(!memcmp(a, b, sizeof(a)));
		CHECK(kf_render_glyph(r, 0x4e00, 0, 1)->missing);
		CHECK(kf_render_glyph(r, 'Q', 0, 1)->kind == KF_GLYPH_ALPHA);
		/* zoom scales the bitmap: the x2 glyph is the x1 glyph with doubled pixels */
		glyph_bits(r, 'R', a, sizeof(a));
		CHECK(kf_render_set_scale(r, 2) == 0);
		const struct kf_glyph *g = kf_render_glyph(r, 'R', 0, 1);
		kf_render_cell_size(r, &cw, &ch);
		CHECK(cw == 16 && ch == 32 && g->w == 16 && g->h == 32);
		int bad = 0;
		for (int y = 0; y < 32; y++)
			for (int x = 0; x < 16; x++)
				bad += ((const uint8_t *)g->data)[y * 16 + x] !=
				       a[(y / 2) * 8 + x / 2];
		CHECK(bad == 0);
		CHECK(kf_render_set_scale(r, 0) == -EINVAL && kf_render_set_scale(r, 9) == -EINVAL);
		kf_render_destroy(r);
	}
	/* without a Unicode table glyph i is code point i */
	size_t n = make_psf2(buf, false);
	snprintf(path, sizeof(path), "%s/notable.psf", tmpdir);
	write_file(path, buf, n, false);
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_PSF, .font_file = path};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (r) {
		glyph_bits(ref, ' ' + 1, a, sizeof(a)); /* glyph index 1 is '!' in our table */
		glyph_bits(r, 1, b, sizeof(b));
		CHECK(!memcmp(a, b, sizeof(a)));
		kf_render_destroy(r);
	}
	kf_render_destroy(ref);
}

/* Every console font Debian ships (console-setup-linux) loads, or fails with a clean error, and
 * renders. */
static void test_real_psf(void)
{
	const char *dir = "/usr/share/consolefonts";
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "ls %s 2>/dev/null", dir);
	FILE *ls = popen(cmd, "r");
	char name[256];
	int loaded = 0, refused = 0;
	while (ls && fgets(name, sizeof(name), ls)) {
		name[strcspn(name, "\n")] = 0;
		if (!strstr(name, ".psf"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		struct kf_render *r = NULL;
		struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF, .font_file = path};
		int ret = kf_render_create(&cfg, &r);
		if (ret) {
			CHECK(ret == -EBADMSG);
			refused++;
			continue;
		}
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		CHECK(cw >= 4 && cw <= 64 && ch >= 6 && ch <= 128);
		const struct kf_glyph *g =
		    kf_render_glyph(r, 'A', KF_GLYPH_BOLD | KF_GLYPH_ITALIC, 1);
		CHECK(g->w == cw && g->h == ch);
		kf_render_glyph(r, 0x4e00, 0, 2);
		loaded++;
		kf_render_destroy(r);
	}
	if (ls)
		pclose(ls);
	printf("real PSF fonts: %d loaded, %d refused\n", loaded, refused);
	CHECK(loaded >= 100); /* console-setup-linux is in tools/install-deps.sh */
	/* a known one: Lat2-Terminus16 is 8x16 with a Unicode table (e acute mapped, CJK missing)
	 */
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF,
				       .font_file =
					   "/usr/share/consolefonts/Lat2-Terminus16.psf.gz"};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (r) {
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		CHECK(cw == 8 && ch == 16);
		CHECK(!kf_render_glyph(r, 0xe9, 0, 1)->missing);
		CHECK(kf_render_glyph(r, 'A', 0, 1)->kind == KF_GLYPH_ALPHA);
		CHECK(kf_render_glyph(r, 0x4e00, 0, 2)->missing);
		kf_render_destroy(r);
	}
}

/* --- bad input --- */

static int create_psf_from(const uint8_t *d, size_t n)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/bad.psf", tmpdir);
	write_file(path, d, n, false);
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF, .font_file = path};
	int ret = kf_render_create(&cfg, &r);
	kf_render_destroy(r);
	return ret;
}

static void test_bad_input(void)
{
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF,
				       .font_file = "/nonexistent/font.psf"};
	CHECK(kf_render_create(&cfg, &r) == -ENOENT && !r);
	cfg.font_file = NULL;
	CHECK(kf_render_create(&cfg, &r) == -EINVAL);
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE,
					.font_file = "/nonexistent/x.ttf"};
	CHECK(kf_render_create(&cfg, &r) == -ENOENT);
	/* A FIFO (nobody writes) or a directory as the font file, with either engine: refused at once. The FIFO
	 * made open(2) wait for a writer for ever, and the console never started; a directory was "cannot read
	 * PSF font: Bad message". */
	char fifo[300];
	snprintf(fifo, sizeof(fifo), "%s/font-fifo", tmpdir);
	CHECK(mkfifo(fifo, 0600) == 0);
	for (int e = 0; e < 2; e++) {
		enum kf_render_engine engine = e ? KF_RENDER_ENGINE_FREETYPE : KF_RENDER_ENGINE_PSF;
		cfg = (struct kf_render_config){.engine = engine, .font_file = fifo};
		CHECK(kf_render_create(&cfg, &r) == -EINVAL && !r);
		cfg.font_file = tmpdir;
		CHECK(kf_render_create(&cfg, &r) == -EISDIR && !r);
	}
	unlink(fifo);
	static uint8_t buf[64 * 1024];
	CHECK(create_psf_from(buf, 0) == -EBADMSG);
	memcpy(buf, "garbage that is not a font at all", 33);
	CHECK(create_psf_from(buf, 33) == -EBADMSG);
	size_t n = make_psf2(buf, true);
	CHECK(create_psf_from(buf, 100) == -EBADMSG); /* truncated glyphs */
	uint32_t huge = 0x7fffffff;
	memcpy(buf + 16, &huge, 4); /* absurd glyph count */
	CHECK(create_psf_from(buf, n) == -EBADMSG);
	n = make_psf2(buf, true);
	memcpy(buf + 20, &huge, 4); /* charsize mismatch */
	CHECK(create_psf_from(buf, n) == -EBADMSG);
	n = make_psf2(buf, true);
	uint32_t zero = 0;
	memcpy(buf + 28, &zero, 4); /* zero width */
	CHECK(create_psf_from(buf, n) == -EBADMSG);
	/* a corrupt Unicode table is tolerated (bytes skipped), never read past the end */
	n = make_psf2(buf, true);
	memset(buf + 32 + kf_builtin_font_count * 16, 0xc3, n - 32 - kf_builtin_font_count * 16);
	CHECK(create_psf_from(buf, n) == 0);
	/* FreeType on a file that is not a font */
	char path[256];
	snprintf(path, sizeof(path), "%s/bad.psf", tmpdir);
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path};
	CHECK(kf_render_create(&cfg, &r) == -EBADMSG);
	/* a real font cut short or with corrupted tables: an error or boxes, never a crash */
	FILE *ttf = fopen("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "rb");
	static uint8_t font[400 * 1024];
	size_t flen = ttf ? fread(font, 1, sizeof(font), ttf) : 0;
	if (ttf)
		fclose(ttf);
	CHECK(flen > 100000);
	for (int variant = 0; variant < 6 && flen; variant++) {
		size_t len = variant < 3 ? flen / (size_t)(2 << variant) : flen;
		if (variant >= 3) {
			uint32_t seed = (uint32_t)variant;
			for (int k = 0; k < 2000; k++) {
				seed = seed * 1103515245u + 12345u;
				font[(seed >> 8) % len] ^= (uint8_t)(seed >> 24);
			}
		}
		snprintf(path, sizeof(path), "%s/broken%d.ttf", tmpdir, variant);
		write_file(path, font, len, false);
		cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE,
						.font_file = path};
		int ret = kf_render_create(&cfg, &r);
		CHECK(ret == 0 || ret == -EBADMSG || ret == -EINVAL);
		if (ret)
			continue;
		for (uint32_t cp = 0x20; cp < 0x300; cp += 3)
			kf_render_glyph(r, cp, cp % 4, 1);
		kf_render_destroy(r);
	}
	/* sizes */
	cfg = (struct kf_render_config){.font_size = -1};
	CHECK(kf_render_create(&cfg, &r) == -EINVAL);
	cfg.font_size = 100000;
	CHECK(kf_render_create(&cfg, &r) == -EINVAL);
	cfg = (struct kf_render_config){.scale = 50};
	CHECK(kf_render_create(&cfg, &r) == -EINVAL);
	cfg = (struct kf_render_config){.engine = (enum kf_render_engine)42};
	CHECK(kf_render_create(&cfg, &r) == -EINVAL);
	/* tiny and large FreeType sizes work and keep glyphs inside their cells */
	for (int size = 1; size <= 200; size = size * 3 + 1) {
		cfg = (struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = size};
		CHECK(kf_render_create(&cfg, &r) == 0);
		if (!r)
			continue;
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		CHECK(cw >= 1 && ch >= 1);
		const struct kf_glyph *g =
		    kf_render_glyph(r, 'W', KF_GLYPH_BOLD | KF_GLYPH_ITALIC, 1);
		CHECK(g->w == cw && g->h == ch);
		kf_render_destroy(r);
	}
	/* an unknown family still gives a font (fontconfig's best match), never a crash */
	cfg = (struct kf_render_config){.font_name = "No Such Font Family 12345"};
	CHECK(kf_render_create(&cfg, &r) == 0);
	kf_render_destroy(r);
	/* a glyph no font has: the replacement box, which has ink */
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	const struct kf_glyph *g = kf_render_glyph(r, 0x10fffd, 0, 1);
	CHECK(g->missing && g->kind == KF_GLYPH_ALPHA && g->y1 > g->y0);
	g = kf_render_glyph(r, 0x4e00, 0, 2);
	CHECK(g->missing && g->w == 16);
	/* bad targets */
	struct screen *s = screen_create(4, 2);
	uint32_t px[64 * 32];
	struct kf_render_target t = {px, 64, 32, 63 * 4, KF_RENDER_XRGB8888};
	CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) == -EINVAL);
	t.stride = 64 * 4;
	t.data = NULL;
	CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) == -EINVAL);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* --- synthesised styles --- */

/* A font file alone has no styled siblings: italic and bold italic are sheared (and emboldened)
 * from the regular face. Printable ASCII's second synthesised style comes from the outline kept at
 * the first load (font-ft.c); it must give the pixels a fresh load gives. Two renderers, the
 * styles asked for in opposite orders: each style is loaded fresh in one and from the kept outline
 * in the other. */
static void test_synthesised(void)
{
	struct kf_render_config fc = {.font_file =
					  "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"};
	struct kf_render *a, *b;
	if (kf_render_create(&fc, &a) < 0) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	CHECK(kf_render_create(&fc, &b) == 0);
	const unsigned bi = KF_GLYPH_BOLD | KF_GLYPH_ITALIC;
	int differ = 0, inked = 0, sheared = 0;
	for (uint32_t cp = 0x21; b && cp < 0x7f; cp++) {
		const struct kf_glyph *ga[2], *gb[2];
		ga[0] = kf_render_glyph(a, cp, KF_GLYPH_ITALIC, 1);
		ga[1] = kf_render_glyph(a, cp, bi, 1);
		gb[1] = kf_render_glyph(b, cp, bi, 1);
		gb[0] = kf_render_glyph(b, cp, KF_GLYPH_ITALIC, 1);
		for (int i = 0; i < 2; i++) {
			size_t n = (size_t)ga[i]->w * ga[i]->h;
			differ += ga[i]->kind != gb[i]->kind || ga[i]->y0 != gb[i]->y0 ||
				  ga[i]->y1 != gb[i]->y1 || ga[i]->w != gb[i]->w ||
				  memcmp(ga[i]->data, gb[i]->data, n);
			inked += ga[i]->kind == KF_GLYPH_ALPHA;
		}
		const struct kf_glyph *reg = kf_render_glyph(b, cp, 0, 1);
		sheared += memcmp(reg->data, gb[0]->data, (size_t)reg->w * reg->h) != 0;
	}
	CHECK(differ == 0);
	CHECK(inked == 2 * 94);
	/* the italic is not the regular glyph ('-', '=' and the like may be) */
	CHECK(sheared >= 90);
	kf_render_destroy(a);
	kf_render_destroy(b);
}

/* The printable ASCII glyphs of style s in a and b that differ (a glyph buffer each), lined up at
 * their baselines: a font with a synthesised bold has a taller cell (its thickened accents). */
static int glyphs_differ(struct kf_font *a, struct kf_font *b, unsigned s)
{
	int n = 0, w = 2 * a->cell_w, ha = a->cell_h, hb = b->cell_h;
	int d = b->baseline - a->baseline; /* b's row of a's row y: y + d */
	uint32_t *da = calloc((size_t)w * ha, 4), *db = calloc((size_t)w * hb, 4);
	for (uint32_t cp = 0x21; da && db && cp < 0x7f; cp++) {
		struct kf_glyph ga = {.w = (uint16_t)w, .h = (uint16_t)ha, .data = da};
		struct kf_glyph gb = {.w = (uint16_t)w, .h = (uint16_t)hb, .data = db};
		int ra = a->render(a, cp, s, 1, &ga), rb = b->render(b, cp, s, 1, &gb);
		int bad = ra < 0 || rb < 0 || a->cell_w != b->cell_w;
		for (int y = -hb; !bad && y < ha + hb; y++) {
			/* alpha glyphs: a byte a pixel */
			static const uint8_t none[256];
			const uint8_t *pa = y >= 0 && y < ha ? (uint8_t *)da + (size_t)y * w : none;
			const uint8_t *pb =
			    y + d >= 0 && y + d < hb ? (uint8_t *)db + (size_t)(y + d) * w : none;
			bad = w > 256 || memcmp(pa, pb, (size_t)w) != 0;
		}
		n += bad;
	}
	free(da);
	free(db);
	return n;
}

/* A font of fontconfig's that finds the faces in dir (symlinks to DejaVu Sans Mono's files). */
static struct kf_font *font_in(const char *dir, const char *const *files, int nfiles)
{
	char path[512], conf[512];
	snprintf(path, sizeof(path), "%s/fc", dir);
	CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof(path), "%s/fonts", dir);
	CHECK(mkdir(path, 0755) == 0);
	for (int i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/fonts/%s", dir, strrchr(files[i], '/') + 1);
		CHECK(symlink(files[i], path) == 0);
	}
	snprintf(conf, sizeof(conf), "%s/fonts.conf", dir);
	FILE *fc = fopen(conf, "w");
	fprintf(fc, "<?xml version=\"1.0\"?><fontconfig><dir>%s/fonts</dir><cachedir>%s/fc</cachedir>"
		    "</fontconfig>\n", dir, dir);
	fclose(fc);
	setenv("FONTCONFIG_FILE", conf, 1);
	struct kf_font *f = NULL;
	CHECK(FcInitReinitialize() && kf_font_ft_create("DejaVu Sans Mono", NULL, 16, &f) == 0);
	return f;
}

/* Bold italic where fontconfig has a bold face but no bold italic one (Debian's fonts-dejavu-core:
 * DejaVu Sans Mono and its Bold, no Oblique faces) is the bold face slanted, not the regular face
 * emboldened and slanted; a regular face alone still gets both synthesised. */
static void test_bold_slanted(void)
{
	const char *const files[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
				     "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"};
	if (access(files[0], R_OK) || access(files[1], R_OK)) {
		printf("SKIP bold slanted: no DejaVu Sans Mono Bold\n");
		return;
	}
	char dir[2][300];
	struct kf_font *two, *two2 = NULL, *one, *file;
	for (int i = 0; i < 2; i++)
		snprintf(dir[i], sizeof(dir[i]), "%s/fc%d", tmpdir, i);
	CHECK(mkdir(dir[0], 0755) == 0 && mkdir(dir[1], 0755) == 0);
	two = font_in(dir[0], files, 2);
	CHECK(kf_font_ft_create("DejaVu Sans Mono", NULL, 16, &two2) == 0);
	one = font_in(dir[1], files, 1);
	unsetenv("FONTCONFIG_FILE");
	FcInitReinitialize();
	CHECK(kf_font_ft_create(NULL, files[0], 16, &file) == 0);
	if (!two || !two2 || !one || !file)
		return;
	/* Bold italic from the bold face's kept outline (two2 loaded every bold glyph first) is the
	 * fresh load's (two has loaded nothing). */
	CHECK(glyphs_differ(two2, two2, KF_GLYPH_BOLD) == 0);
	CHECK(glyphs_differ(two, two2, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) == 0);
	/* name of the face, fake bold, fake italic, per style (0 regular .. 3 bold italic) */
	const struct {
		struct kf_font *f;
		const char *face[4];
	} want[] = {{two, {"Book", "Bold", "Book", "Bold"}}, {one, {"Book", "Book", "Book", "Book"}},
		    {file, {"Book", "Book", "Book", "Book"}}};
	const bool fake[3][4][2] = {{{0, 0}, {0, 0}, {0, 1}, {0, 1}},
				    {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
				    {{0, 0}, {1, 0}, {0, 1}, {1, 1}}};
	for (int i = 0; i < 3; i++)
		for (unsigned s = 0; s < 4; s++) {
			bool fb, fi;
			const char *name = kf_font_ft_style(want[i].f, s, &fb, &fi);
			bool ok = name && !strcmp(name, want[i].face[s]) && fb == fake[i][s][0] &&
				  fi == fake[i][s][1];
			CHECK(ok);
			if (!ok)
				printf("font %d style %u: %s%s%s\n", i, s, name ? name : "(none)",
				       fb ? " +bold" : "", fi ? " +italic" : "");
		}
	/* the same synthesis from fontconfig's lone regular face as from the file; the bold face
	 * slanted is another glyph, and so is the bold one upright */
	CHECK(glyphs_differ(one, file, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) == 0);
	CHECK(glyphs_differ(two, file, KF_GLYPH_ITALIC) == 0);
	CHECK(glyphs_differ(two, file, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) >= 80);
	int upright = 0, w = 2 * two->cell_w, h = two->cell_h;
	uint8_t *a = calloc((size_t)w * h, 4), *b = calloc((size_t)w * h, 4);
	for (uint32_t cp = 'a'; a && b && cp <= 'z'; cp++) {
		struct kf_glyph ga = {.w = (uint16_t)w, .h = (uint16_t)h, .data = a};
		struct kf_glyph gb = {.w = (uint16_t)w, .h = (uint16_t)h, .data = b};
		two->render(two, cp, KF_GLYPH_BOLD, 1, &ga);
		two->render(two, cp, KF_GLYPH_BOLD | KF_GLYPH_ITALIC, 1, &gb);
		upright += !memcmp(a, b, (size_t)w * h);
	}
	CHECK(a && b && upright == 0);
	free(a);
	free(b);
	two->destroy(two);
	two2->destroy(two2);
	one->destroy(one);
	file->destroy(file);
}

/* A glyph of a FreeType face is its bitmap placed at the face's baseline, the advance centred in
 * the cell, clipped to the cell, nothing else inked; its ink rows are the first and last rows
 * with ink and it says partial coverage exactly when a byte is neither 0 nor 255. Checked against
 * FreeType's own bitmap for glyphs of several scripts, some wider than the cell or reaching below
 * it. */
static void test_placed(void)
{
	const char *path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
	struct kf_render_config fc = {.font_file = path, .font_size = 16};
	struct kf_render *r;
	FT_Library lib;
	FT_Face face;
	if (kf_render_create(&fc, &r) < 0 || FT_Init_FreeType(&lib)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	CHECK(FT_New_Face(lib, path, 0, &face) == 0 && FT_Set_Pixel_Sizes(face, 0, 16) == 0);
	static const uint32_t cps[] = {'a', 'g', 'j', 'M', 'W', '@', '|', '_', '.', '-', 0xe9, 0xc5,
				       0x11f, 0x416, 0x429, 0x3bb, 0x3a9, 0x3b6, 0x2014, 0x300, 0x132,
				       0x10f, 0x1d9, 0x2de};
	int bad = 0, wrong_rows = 0, wrong_aa = 0, clipped = 0, inked = 0;
	for (size_t n = 0; n < sizeof(cps) / sizeof(cps[0]); n++) {
		const struct kf_glyph *g = kf_render_glyph(r, cps[n], 0, 1);
		CHECK(FT_Load_Char(face, cps[n], FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) == 0 &&
		      FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) == 0);
		const FT_Bitmap *bm = &face->glyph->bitmap;
		int w = g->w, h = g->h, adv = (int)((face->glyph->advance.x + 32) >> 6);
		int left = face->glyph->bitmap_left + (adv > 0 && adv < w ? (w - adv) / 2 : 0) -
			   (adv > w ? (adv - w) / 2 : 0);
		int top = r->font->baseline - face->glyph->bitmap_top;
		uint8_t *want = calloc((size_t)w * h, 1);
		for (int y = 0; y < (int)bm->rows; y++)
			for (int x = 0; x < (int)bm->width; x++) {
				int tx = left + x, ty = top + y;
				uint8_t v = bm->buffer[y * bm->pitch + x];
				if (tx >= 0 && tx < w && ty >= 0 && ty < h)
					want[ty * w + tx] = v;
				else
					clipped += v != 0;
			}
		int y0 = h, y1 = 0;
		bool aa = false;
		for (int i = 0; i < w * h; i++) {
			if (want[i] && i / w < y0)
				y0 = i / w;
			if (want[i])
				y1 = i / w + 1;
			aa |= want[i] && want[i] != 255;
		}
		const uint8_t *got = g->data;
		if (y0 >= y1) {
			bad += g->kind != KF_GLYPH_EMPTY;
		} else {
			inked++;
			bad += g->kind != KF_GLYPH_ALPHA || memcmp(got, want, (size_t)w * h) != 0;
			wrong_rows += g->y0 != y0 || g->y1 != y1;
			wrong_aa += g->aa != aa;
		}
		free(want);
	}
	CHECK(bad == 0 && wrong_rows == 0 && wrong_aa == 0);
	CHECK(inked == (int)(sizeof(cps) / sizeof(cps[0])));
	CHECK(clipped > 0); /* some ink lies outside the cell (and is left out) */
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	kf_render_destroy(r);
}

/* Every Latin-1 letter fits its cell whole at every size: an accented capital (É Å Ñ) or a
 * descender that reached a pixel beyond the face's rounded ascender or descender lost it to the
 * cell's edge, and at 15 or 17 px the accents of French, Spanish and Nordic capitals all but
 * vanished. */
static void test_latin1_fits(void)
{
	const char *path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib) || FT_New_Face(lib, path, 0, &face)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	int bad = 0;
	for (int size = 8; size <= 40; size++) {
		struct kf_render_config fc = {.font_file = path, .font_size = size};
		struct kf_render *r;
		if (kf_render_create(&fc, &r) < 0 || FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size)) {
			CHECK(!"DejaVuSansMono.ttf at this size");
			break;
		}
		for (uint32_t cp = 'A'; cp <= 0xff; cp++) {
			bool letter = (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
			if (!letter && (cp < 0xc0 || cp == 0xd7 || cp == 0xf7))
				continue;
			if (FT_Load_Char(face, cp, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) ||
			    FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
				continue;
			int top = r->font->baseline - face->glyph->bitmap_top;
			int bottom = top + (int)face->glyph->bitmap.rows;
			if ((top < 0 || bottom > r->cell_h) && bad++ < 8)
				printf("FAIL U+%04X at %d px: rows %d..%d of a %d-pixel cell\n", cp,
				       size, top, bottom - 1, r->cell_h);
		}
		kf_render_destroy(r);
	}
	CHECK(bad == 0);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
}

/* kf_ft_shear (font-ft.c's italic) moves every point where FT_Outline_Transform with the shear
 * matrix does: the points of every printable ASCII outline of DejaVu Sans Mono at sizes 6 to 48,
 * hinted and not, plain and emboldened, and coordinates -70000..70000 (ties of the rounding, y a
 * multiple of 16, of both signs among them). */
static int shear_differs(FT_Library lib, const FT_Outline *src)
{
	FT_Outline a, b;
	if (FT_Outline_New(lib, (FT_UInt)src->n_points, src->n_contours, &a))
		return 1;
	if (FT_Outline_New(lib, (FT_UInt)src->n_points, src->n_contours, &b)) {
		FT_Outline_Done(lib, &a);
		return 1;
	}
	FT_Outline_Copy(src, &a);
	FT_Outline_Copy(src, &b);
	FT_Matrix m = {0x10000, 0x3800, 0, 0x10000};
	FT_Outline_Transform(&a, &m);
	kf_ft_shear(b.points, b.n_points);
	int bad = 0;
	for (int i = 0; i < src->n_points; i++)
		bad += a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y;
	FT_Outline_Done(lib, &a);
	FT_Outline_Done(lib, &b);
	return bad;
}

static void test_shear(void)
{
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib)) {
		CHECK(!"FreeType starts");
		return;
	}
	if (FT_New_Face(lib, "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 0, &face)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		FT_Done_FreeType(lib);
		return;
	}
	int bad = 0, points = 0;
	for (int size = 6; size <= 48; size += 3)
		for (int hint = 0; hint < 2; hint++)
			for (uint32_t cp = 0x21; cp < 0x7f; cp++) {
				FT_Int32 flags = hint ? FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT
						      : FT_LOAD_NO_HINTING;
				if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size) ||
				    FT_Load_Char(face, cp, flags)) {
					bad++;
					continue;
				}
				FT_Outline *o = &face->glyph->outline;
				bad += shear_differs(lib, o);
				FT_Outline_Embolden(o, size * 64 / 20 > 32 ? size * 64 / 20 : 32);
				bad += shear_differs(lib, o);
				points += 2 * o->n_points;
			}
	FT_Outline o;
	CHECK(FT_Outline_New(lib, 20000, 1, &o) == 0);
	for (int y0 = -70000; y0 < 70000; y0 += 20000) {
		for (int i = 0; i < 20000; i++)
			o.points[i] = (FT_Vector){(FT_Pos)(i * 7919 % 20011) - 10000, y0 + i};
		o.contours[0] = 19999;
		bad += shear_differs(lib, &o);
		points += 20000;
	}
	FT_Outline_Done(lib, &o);
	CHECK(bad == 0 && points > 100000);
	if (bad)
		printf("shear: %d outlines differ from FT_Outline_Transform's\n", bad);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
}

/* Whether kf_ft_outline_bitmap (font-ft.c's render of a kept outline into its own buffer) gives a
 * bitmap other than FT_Glyph_To_Bitmap's for the slot's glyph with the given synthesis: box,
 * bearings and every pixel. */
static int outline_bitmap_differs(FT_Library lib, FT_GlyphSlot slot, int size, bool fb, bool fi,
				  void **buf, size_t *cap)
{
	FT_Glyph a, b;
	if (FT_Get_Glyph(slot, &a))
		return 1;
	if (FT_Glyph_Copy(a, &b)) {
		FT_Done_Glyph(a);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		FT_Outline *o = &((FT_OutlineGlyph)(k ? b : a))->outline;
		if (fb)
			FT_Outline_Embolden(o, size * 64 / 20 > 32 ? size * 64 / 20 : 32);
		if (fi)
			kf_ft_shear(o->points, o->n_points);
	}
	FT_Bitmap bm;
	int left, top, bad = 1;
	if (!kf_ft_outline_bitmap(lib, &((FT_OutlineGlyph)b)->outline, buf, cap, &bm, &left, &top) &&
	    !FT_Glyph_To_Bitmap(&a, FT_RENDER_MODE_NORMAL, NULL, 1)) {
		const FT_BitmapGlyph g = (FT_BitmapGlyph)a;
		bad = g->left != left || g->top != top || g->bitmap.rows != bm.rows ||
		      g->bitmap.width != bm.width || g->bitmap.pixel_mode != bm.pixel_mode ||
		      bm.rows * bm.width == 0;
		for (unsigned y = 0; !bad && y < bm.rows; y++)
			bad = memcmp(g->bitmap.buffer + (long)y * g->bitmap.pitch,
				     bm.buffer + (long)y * bm.pitch, bm.width) != 0;
	}
	FT_Done_Glyph(a);
	FT_Done_Glyph(b);
	return bad;
}

/* Every printable ASCII glyph of DejaVu Sans Mono's faces (the guest's fonts-dejavu-core has the
 * first two; the host's fonts-dejavu-extra the obliques) in the four syntheses (none, bold,
 * italic, both) at sizes 6-40, hinted as ft_render loads them and unhinted: kf_ft_outline_bitmap
 * draws FT_Glyph_To_Bitmap's bitmap, the buffer reused from glyph to glyph. */
static void test_outline_bitmap(void)
{
	static const char *const files[] = {
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf"};
	FT_Library lib;
	if (FT_Init_FreeType(&lib)) {
		CHECK(!"FreeType starts");
		return;
	}
	void *buf = NULL;
	size_t cap = 0;
	int bad = 0, glyphs = 0, faces = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FT_Face face;
		if (FT_New_Face(lib, files[i], 0, &face)) {
			CHECK(i >= 2); /* the obliques are optional (fonts-dejavu-extra) */
			continue;
		}
		faces++;
		for (int size = 6; size <= 40; size += 2)
			for (int hint = 0; hint < 2; hint++)
				for (uint32_t cp = 0x21; cp < 0x7f; cp++)
					for (int syn = 0; syn < 4; syn++) {
						FT_Int32 flags = hint ? FT_LOAD_DEFAULT |
									    FT_LOAD_TARGET_LIGHT
								      : FT_LOAD_NO_HINTING;
						if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size) ||
						    FT_Load_Char(face, cp, flags)) {
							bad++;
							continue;
						}
						bad += outline_bitmap_differs(lib, face->glyph, size,
									      syn & 1, syn & 2,
									      &buf, &cap);
						glyphs++;
					}
		FT_Done_Face(face);
	}
	CHECK(faces >= 2 && bad == 0 && glyphs >= 2 * 18 * 2 * 94 * 4);
	if (bad)
		printf("outline bitmap: %d of %d glyphs differ from FT_Glyph_To_Bitmap's\n", bad,
		       glyphs);
	free(buf);
	FT_Done_FreeType(lib);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_psf();
	test_real_psf();
	test_bad_input();
	test_synthesised();
	test_shear();
	test_outline_bitmap();
	test_placed();
	test_latin1_fits();
	test_bold_slanted();
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		printf("warning: could not remove %s\n", tmpdir);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
