/* tests/render/test-font-open.c: FreeType fonts at the edges of what they are given: a glyph whose bitmap
 * starts left of its cell (BDF fonts the test writes), and fontconfig fallbacks whose files no longer open. */
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "kmscon-felis/render/render.h"
#include "check.h"
#include "tests/kf-capture.h"
#include "bdf.h"

static char tmpdir[] = "/tmp/kf-font-open-XXXXXX";

/* '(' starts 3 columns left of its cell, '[' 6, ')' 9 (wholly outside); the rest a stem in column 2. */
static uint8_t clip_bits(uint32_t cp)
{
	return cp == '(' ? 0xff : cp == '[' ? 0xc3 : cp == ')' ? 0xff : 0x20;
}

static int clip_xoff(uint32_t cp)
{
	return cp == '(' ? -3 : cp == '[' ? -6 : cp == ')' ? -9 : 0;
}

/* The glyphs of a font whose bitmaps start left of the cell (FreeType's bitmap_left < 0): moved into the cell
 * whole (kf_strike_place), no longer clipped to the part inside it. copy_gray once formed a pointer that far
 * before the row's start (undefined behaviour even when only the part inside was written). */
static void test_left_clip(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/clip.bdf", tmpdir);
	uint32_t ascii[94];
	for (int i = 0; i < 94; i++)
		ascii[i] = 0x21 + (uint32_t)i;
	write_bdf(path, "Clip", ascii, 94, clip_bits, clip_xoff);
	struct kf_font *f = NULL;
	CHECK(kf_font_ft_create(NULL, path, 16, &f) == 0);
	if (!f)
		return;
	CHECK(f->cell_w == 8 && f->cell_h == 16);
	static const struct {
		uint32_t cp;
		uint8_t row; /* the cell's columns 0-7 inked in rows 1-11, MSB column 0 */
	} want[] = {{'(', 0xff}, {'[', 0xc3}, {')', 0xff}, {'H', 0x20}};
	uint8_t *buf = calloc((size_t)f->cell_w * f->cell_h, 4);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]) && buf; i++) {
		struct kf_glyph g = {.w = (uint16_t)f->cell_w, .h = (uint16_t)f->cell_h, .data = buf};
		int ret = f->render(f, want[i].cp, 0, 1, &g);
		int bad = 0;
		for (int y = 0; y < g.h; y++)
			for (int x = 0; x < g.w; x++) {
				const bool ink = buf[y * g.w + x] >= 128;
				/* the bitmap's top at the cell's (ascent 12 both) */
				const bool expect = y >= 1 && y <= 11 && (want[i].row >> (7 - x) & 1);
				bad += ink != expect;
			}
		printf("'%c' (bitmap %d columns left of the cell): ret %d, %d pixels not the bitmap's moved in\n",
		       want[i].cp, -clip_xoff(want[i].cp), ret, bad);
		CHECK(ret == 0 && g.kind == KF_GLYPH_ALPHA && bad == 0);
	}
	free(buf);
	f->destroy(f);
}

#define NBAD 20
#define FIRST_BAD 0x4e00
#define GOOD_CP 0x4e40

/* A primary family and NBAD + 1 fallbacks, each with one character of its own: the first NBAD fallbacks'
 * files are broken once fontconfig has read them (a font removed or replaced while the terminal runs,
 * fontconfig's list out of date). Every character of a broken font is missing, and the last fallback's is
 * still drawn. Before: each broken font took one of the 16 fallback places; after 16 of them no fallback
 * opened at all. */
static void test_broken_fallbacks(void)
{
	char dir[300], path[400];
	if (!bdf_fonts_dir(tmpdir, dir, sizeof(dir)))
		return;
	for (int k = 0; k <= NBAD; k++) {
		const uint32_t cp = k < NBAD ? FIRST_BAD + (uint32_t)k : GOOD_CP;
		char family[32];
		snprintf(family, sizeof(family), k < NBAD ? "Bad%02d" : "Good", k);
		snprintf(path, sizeof(path), "%s/%s.bdf", dir, family);
		write_bdf(path, family, &cp, 1, bdf_stem, NULL);
	}
	if (!bdf_fontconfig_use(tmpdir, dir))
		return;
	/* fontconfig has read them: now break the files in place (not their directory, which it would read
	 * again) */
	for (int k = 0; k < NBAD; k++) {
		snprintf(path, sizeof(path), "%s/Bad%02d.bdf", dir, k);
		FILE *b = fopen(path, "w");
		CHECK(b && fputs("not a font\n", b) >= 0);
		if (b)
			fclose(b);
	}
	struct kf_font *f = NULL;
	CHECK(kf_font_ft_create("Prim", NULL, 16, &f) == 0);
	if (!f)
		return;
	uint8_t *buf = calloc((size_t)f->cell_w * f->cell_h, 4);
	int found = 0;
	for (int k = 0; k < NBAD && buf; k++) {
		struct kf_glyph g = {.w = (uint16_t)f->cell_w, .h = (uint16_t)f->cell_h, .data = buf};
		found += f->render(f, FIRST_BAD + (uint32_t)k, 0, 1, &g) == 0;
	}
	struct kf_glyph g = {.w = (uint16_t)f->cell_w, .h = (uint16_t)f->cell_h, .data = buf};
	const int ret = buf ? f->render(f, GOOD_CP, 0, 1, &g) : -ENOMEM;
	printf("%d broken fallbacks: %d of their characters drawn; then U+%04X of a good fallback: %s\n", NBAD, found,
	       GOOD_CP, ret == 0 ? "drawn" : "missing");
	CHECK(found == 0 && ret == 0);
	free(buf);
	f->destroy(f);
	unsetenv("FONTCONFIG_FILE");
	FcInitReinitialize();
}

/* kf_render_fit with a font of one bitmap strike at font-size 40 whose 16x24 cells do not fit a 10-pixel wide
 * display: font-size 16 (the default) would give the same strike, so that step is not taken (nor said); the
 * built-in font is. Before: "font-size 16 (the default) instead", a warning of a change that changed nothing. */
static void test_fit_strike(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/big.bdf", tmpdir);
	uint32_t ascii[94];
	for (int i = 0; i < 94; i++)
		ascii[i] = 0x21 + (uint32_t)i;
	write_bdf_size(path, "Big", 16, 24, ascii, 94, bdf_stem, NULL);
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path, .font_size = 40};
	struct kf_render *r = NULL;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	CHECK(cw == 16 && ch == 24);
	capture_begin();
	const int ret = kf_render_fit(r, 10, 100);
	const char *log = capture_end();
	int cw2, ch2;
	kf_render_cell_size(r, &cw2, &ch2);
	printf("16x24 strike at font-size 40 on a 10x100 display: %d, cells %dx%d, said:\n%s", ret, cw2, ch2, log);
	CHECK(ret == 0 && cw2 == 8 && ch2 == 16 && strstr(log, "built-in") && !strstr(log, "font-size 16"));
	kf_render_destroy(r);
}

/* The glyph scratch buffer after a zoom x8 of the built-in font back to x1: no larger than a wide glyph at x1
 * (8x16 cells: 1 KiB). Before: it kept the x8 size (a wide glyph, 64 KiB; megabytes after a huge font). */
static void test_scratch_shrinks(void)
{
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_render *r = NULL;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	CHECK(kf_render_set_scale(r, 8) == 0);
	kf_render_glyph(r, 0x4e00, 0, 2);
	const size_t zoomed = r->glyph_scratch_len;
	CHECK(kf_render_set_scale(r, 1) == 0);
	kf_render_glyph(r, 'B', 0, 1);
	kf_render_glyph(r, 0x4e01, 0, 2);
	printf("glyph scratch: %zu bytes at x8, %zu after x1 again (a wide glyph at x1: %d)\n", zoomed,
	       r->glyph_scratch_len, 8 * 2 * 16 * 4);
	CHECK(zoomed >= 64 * 2 * 128 * 4 && r->glyph_scratch_len <= 8 * 2 * 16 * 4);
	kf_render_destroy(r);
}

/* The ink of glyph cp (style 0, one cell) at r's size into buf (w * h bytes, 1 for ink); false if not alpha. */
static bool glyph_ink(struct kf_render *r, uint32_t cp, uint8_t *buf, int w, int h)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, 0, 1);
	if (g->kind != KF_GLYPH_ALPHA || g->w != w || g->h != h)
		return false;
	for (int i = 0; i < w * h; i++)
		buf[i] = ((const uint8_t *)g->data)[i] >= 128;
	return true;
}

/* Terminus's OTB (fonts-terminus-otb: strikes of 12 to 32 pixels) at font-size 16 zoomed: x2 draws with its own
 * 32-pixel strike, x3 with its 24-pixel one doubled (48 pixels, as the 16-pixel one tripled, from the larger
 * strike); the cells and every pixel of 'g', '@', 'W' those of the font opened at that size, magnified. Before:
 * the 16-pixel strike magnified, whatever other strikes the font has. */
static void test_zoom_strikes(void)
{
	static const char file[] = "/usr/share/fonts/opentype/terminus/terminus-normal.otb";
	if (access(file, R_OK) != 0) {
		printf("%s: not installed (fonts-terminus-otb), zoom to its strikes not tested\n", file);
		return;
	}
	static const struct {
		int scale, strike, mag;
	} cases[] = {{2, 32, 1}, {3, 24, 2}};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = file, .font_size = 16};
		struct kf_render *r = NULL, *s = NULL;
		CHECK(kf_render_create(&cfg, &r) == 0 && r && kf_render_set_scale(r, cases[c].scale) == 0);
		cfg.font_size = cases[c].strike;
		CHECK(kf_render_create(&cfg, &s) == 0);
		if (!r || !s)
			return;
		int w, h, sw, sh, m = cases[c].mag, bad = 0;
		kf_render_cell_size(r, &w, &h);
		kf_render_cell_size(s, &sw, &sh);
		uint8_t *zoomed = calloc((size_t)w * h, 1), *strike = calloc((size_t)sw * sh, 1);
		static const uint32_t cps[] = {'g', '@', 'W'};
		for (size_t i = 0; i < 3 && zoomed && strike && w == sw * m && h == sh * m; i++) {
			CHECK(glyph_ink(r, cps[i], zoomed, w, h) && glyph_ink(s, cps[i], strike, sw, sh));
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					bad += zoomed[y * w + x] != strike[(y / m) * sw + x / m];
		}
		printf("terminus 16 px x%d: cells %dx%d, the %d-px strike's %dx%d x%d; %d pixels of g@W not that "
		       "strike magnified\n", cases[c].scale, w, h, cases[c].strike, sw, sh, m, bad);
		CHECK(w == sw * m && h == sh * m && bad == 0);
		free(zoomed);
		free(strike);
		kf_render_destroy(r);
		kf_render_destroy(s);
	}
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_left_clip();
	test_broken_fallbacks();
	test_fit_strike();
	test_scratch_shrinks();
	test_zoom_strikes();
	return check_finish(tmpdir);
}
