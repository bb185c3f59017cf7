/* tests/render/test-fonts.c: font files: PSF fonts (plain and gzip, PSF1 and PSF2), every console
 * font Debian ships, bad input (missing, corrupt or truncated fonts, absurd sizes). Styles
 * synthesised from a FreeType face's outlines and its glyphs' placement: test-font-synth.c. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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
	/* the zoomed size within what kf_render_set_scale and kf_render_set_font allow (1024 px): 512 px at x8
	 * asked for cells of ~2,500x4,900 pixels, accepted at creation though no later call could reach it */
	const int zoomed[][3] = {{512, 8, -EINVAL}, {129, 8, -EINVAL}, {513, 2, -EINVAL}, {128, 8, 0}, {512, 2, 0}};
	for (size_t i = 0; i < sizeof(zoomed) / sizeof(zoomed[0]); i++) {
		cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN, .font_size = zoomed[i][0],
						.scale = zoomed[i][1]};
		r = NULL;
		const int ret = kf_render_create(&cfg, &r);
		CHECK(ret == zoomed[i][2]);
		if (ret != zoomed[i][2])
			fprintf(stderr, "  font size %d at x%d: %d, want %d\n", zoomed[i][0], zoomed[i][1], ret,
				zoomed[i][2]);
		CHECK(!ret == !!r);
		kf_render_destroy(r);
	}
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

/* --- fonts without the letters of ASCII --- */

/* The glyphs of test_no_letters' BDF fonts: boxes. */
static uint8_t box_bits(uint32_t cp, int y)
{
	(void)cp;
	return y == 2 || y == 13 ? 0xff : 0x81;
}

/* kf_render_create of font file path with engine, and what it logged (in logged). */
static int create_logged(enum kf_render_engine engine, const char *path, char *logged, size_t n)
{
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = engine, .font_file = path};
	const int token = stderr_capture_begin();
	int ret = kf_render_create(&cfg, &r);
	stderr_capture_end(token, logged, n);
	kf_render_destroy(r);
	return ret;
}

/* A font file that draws no letter of ASCII is refused with an error that says so, as a file that is no font
 * is: a FreeType font for another encoding than Unicode (an X11 ISO8859-2 bitmap font: FreeType gives it no
 * Unicode map), a font of a few symbols (a colour emoji font: its digits only), a PSF font whose Unicode table
 * maps no letter. Each was taken, and every letter of the console was the missing-glyph box, nothing logged.
 * A reload to one keeps the old font. The same fonts with the letters load. */
static void test_no_letters(void)
{
	uint32_t ascii[95], l2[97], boxes[] = {0x2500, 0x2502, 0x250c};
	for (int i = 0; i < 95; i++)
		ascii[i] = 0x20 + (uint32_t)i;
	memcpy(l2, ascii, sizeof(ascii));
	l2[95] = 0xa1, l2[96] = 0xb1;
	char path[256], logged[4096];
	struct {
		const char *name, *registry, *encoding;
		const uint32_t *cps;
		int n, want;
	} bdf[] = {
	    {"latin2.bdf", "ISO8859", "2", l2, 97, -EBADMSG},
	    {"boxes.bdf", "ISO10646", "1", boxes, 3, -EBADMSG},
	    {"ascii.bdf", "ISO10646", "1", ascii, 95, 0},
	};
	for (size_t i = 0; i < sizeof(bdf) / sizeof(bdf[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, bdf[i].name);
		bdf_write(path, bdf[i].registry, bdf[i].encoding, 12, 4, bdf[i].cps, bdf[i].n, box_bits);
		const int ret = create_logged(KF_RENDER_ENGINE_FREETYPE, path, logged, sizeof(logged));
		const bool said = strstr(logged, "no letter") != NULL;
		printf("FreeType font %s: %d (want %d)%s\n", bdf[i].name, ret, bdf[i].want,
		       said ? ", \"no letter\" logged" : "");
		CHECK(ret == bdf[i].want && said == (bdf[i].want != 0));
	}
	const char *emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
	if (access(emoji, R_OK) == 0) {
		const int ret = create_logged(KF_RENDER_ENGINE_FREETYPE, emoji, logged, sizeof(logged));
		printf("FreeType font NotoColorEmoji.ttf: %d (want %d)\n", ret, -EBADMSG);
		CHECK(ret == -EBADMSG && strstr(logged, "no letter"));
	}
	/* PSF2: the built-in font's glyphs, its Unicode table mapping box drawing only (then also 'A') */
	static uint8_t buf[64 * 1024];
	for (int with_a = 0; with_a < 2; with_a++) {
		size_t n = make_psf2(buf, false);
		buf[12] = 1; /* has a table */
		for (unsigned g = 0; g < kf_builtin_font_count; g++) {
			const uint32_t cp = g == 0 ? 0x2500 : g == 1 ? 0x2502 : g == 2 && with_a ? 'A' : 0;
			if (cp >= 0x800) {
				buf[n++] = (uint8_t)(0xe0 | cp >> 12);
				buf[n++] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (uint8_t)(0x80 | (cp & 0x3f));
			} else if (cp) {
				buf[n++] = (uint8_t)cp;
			}
			buf[n++] = 0xff;
		}
		snprintf(path, sizeof(path), "%s/boxes%d.psf", tmpdir, with_a);
		write_file(path, buf, n, false);
		const int ret = create_logged(KF_RENDER_ENGINE_PSF, path, logged, sizeof(logged));
		printf("PSF font %s 'A': %d\n", with_a ? "with" : "without", ret);
		CHECK(with_a ? ret == 0 : ret == -EBADMSG && strstr(logged, "no letter"));
	}
	/* a reload to such a font: refused, the old one stays as it was */
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	snprintf(path, sizeof(path), "%s/latin2.bdf", tmpdir);
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path};
	const int token = stderr_capture_begin();
	const int ret = kf_render_set_font(r, &cfg);
	stderr_capture_end(token, logged, sizeof(logged));
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	const struct kf_glyph *g = kf_render_glyph(r, 'A', 0, 1);
	CHECK(ret == -EBADMSG && kf_render_get_engine(r) == KF_RENDER_ENGINE_BUILTIN && cw == 8 && ch == 16 &&
	      !g->missing && g->kind == KF_GLYPH_ALPHA);
	kf_render_destroy(r);
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
	test_no_letters();
	return check_finish(tmpdir);
}
