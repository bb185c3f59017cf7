/* tests/render/test-dbl.c: rows of double-width and double-height characters (DECDWL ESC # 6, DECDHL
 * ESC # 3 / ESC # 4) as the user sees them, pixel by pixel.
 *
 * Each screen is fed to the real grid and painted as the frame loop and kmscon-felis-replay --png paint
 * (kf_render_source_from_grid). A double row's cell x is its single-size look widened: pixel (i, j) of the
 * double row equals pixel (i / 2, j) of the same text on a single row (the glyph, its background, the
 * underline, the cursor, the selection); a double-height row shows the top half (rows j / 2) or the bottom
 * half (rows (ch + j) / 2) of it, doubled both ways. Checked with the built-in font (exact pixels) and
 * DejaVu Sans Mono (antialiased), on XRGB8888 and RGB565 targets, also for a grid of odd width (the last
 * double cell cut at the edge) and a wide character left on the half's last cell. Italic on double rows
 * keeps every pixel of the upright glyph (the built-in font and Terminus). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "shot.h"
#include "grid/grid.h"
#include "kmscon-felis/render/render.h"

#define MONO "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

/* The screen of a cols x rows grid after bytes (selection: cells [sx0, sx1] of row sy, sx0 < 0 for none),
 * painted whole into a target of exactly the grid's size. */
static struct shot paint_sel(struct kf_render *r, int cols, int rows, const char *bytes, int sy, int sx0, int sx1)
{
	struct grid *g = grid_create(&(struct grid_config){.cols = cols, .rows = rows}, NULL, NULL);
	if (!g)
		abort();
	grid_feed(g, (const uint8_t *)bytes, strlen(bytes));
	if (sx0 >= 0) {
		grid_select_start(g, sx0, sy, GRID_SELECT_CELL);
		grid_select_extend(g, sx1, sy);
	}
	struct shot s = shot_of_grid(r, g);
	grid_destroy(g);
	return s;
}

static struct shot paint(struct kf_render *r, int cols, int rows, const char *bytes)
{
	return paint_sel(r, cols, rows, bytes, 0, -1, -1);
}

static uint32_t at(const struct shot *s, int x, int y)
{
	return s->px[(size_t)y * s->w + x];
}

/* Pixels of the double row dy of d, over [0, w) pixels, that are not single row sy of s widened (and for a
 * double-height half, heightened): 0 when every one is. */
static int widened(const struct shot *d, int dy, const struct shot *s, int sy, int w, int size)
{
	int bad = 0;
	for (int j = 0; j < d->ch; j++) {
		int sj = size == GRID_LINE_DOUBLE_TOP ? j / 2 : size == GRID_LINE_DOUBLE_BOTTOM ? (d->ch + j) / 2 : j;
		for (int i = 0; i < w; i++)
			bad += at(d, i, dy * d->ch + j) != at(s, i / 2, sy * s->ch + sj);
	}
	return bad;
}

/* The ink's columns in row j of cell span [x0, x1) of a shot (fg differs from the pixel at the span's
 * top-left, a background pixel): the width of the first run of ink from the left. */
static int first_stem(const struct shot *s, int y, int j, int x0, int x1)
{
	uint32_t bg = at(s, x0, y * s->ch);
	int i = x0;
	while (i < x1 && at(s, i, y * s->ch + j) == bg)
		i++;
	int k = i;
	while (k < x1 && at(s, k, y * s->ch + j) != bg)
		k++;
	return k - i;
}

static int ink_in(const struct shot *s, int y, int x0, int x1)
{
	uint32_t bg = at(s, x0, y * s->ch);
	int n = 0;
	for (int j = 0; j < s->ch; j++)
		for (int i = x0; i < x1; i++)
			n += at(s, i, y * s->ch + j) != bg;
	return n;
}

static void test_font(const struct kf_render_config *cfg, const char *what)
{
	struct kf_render *r;
	if (kf_render_create(cfg, &r)) {
		printf("FAIL %s: no renderer\n", what);
		failures++;
		return;
	}
	/* A double-width 'H': ink in both halves of its two-cell span, stems twice as wide, and every pixel
	 * the single 'H' widened. The cursor is hidden here. */
	struct shot one = paint(r, 20, 2, "\x1b[?25lH"), dw = paint(r, 20, 2, "\x1b[?25l\x1b#6H");
	const int cw = one.cw, ch = one.ch;
	int b = widened(&dw, 0, &one, 0, 2 * cw, GRID_LINE_DOUBLE_WIDTH);
	if (b)
		printf("FAIL %s: double-width H: %d pixels differ from the single one widened\n", what, b);
	CHECK(b == 0);
	CHECK(ink_in(&dw, 0, 0, cw) > 0 && ink_in(&dw, 0, cw, 2 * cw) > 0);
	CHECK(ink_in(&dw, 0, 0, 2 * cw) == 2 * ink_in(&one, 0, 0, cw));
	const int stem1 = first_stem(&one, 0, ch / 2, 0, cw), stem2 = first_stem(&dw, 0, ch / 2, 0, 2 * cw);
	if (stem1 <= 0 || stem2 != 2 * stem1)
		printf("FAIL %s: stem %d px single, %d double\n", what, stem1, stem2);
	CHECK(stem1 > 0 && stem2 == 2 * stem1);
	free(one.px);
	free(dw.px);

	/* The top and bottom halves of a double-height 'H' are its upper and lower half at twice the size */
	one = paint(r, 20, 3, "\x1b[?25lH");
	dw = paint(r, 20, 3, "\x1b[?25l\x1b#3H\r\n\x1b#4H");
	b = widened(&dw, 0, &one, 0, 2 * cw, GRID_LINE_DOUBLE_TOP) +
	    widened(&dw, 1, &one, 0, 2 * cw, GRID_LINE_DOUBLE_BOTTOM);
	if (b)
		printf("FAIL %s: double-height H: %d pixels differ\n", what, b);
	CHECK(b == 0);
	CHECK(ink_in(&dw, 0, 0, 2 * cw) > 0 && ink_in(&dw, 1, 0, 2 * cw) > 0);
	free(one.px);
	free(dw.px);

	/* Background, underline, reverse, the cursor (a block on cell 3) and a selection (display columns
	 * 2..5: cells 1..2), all widened; the rest of the row (cells past the half) in the default background */
	one = paint_sel(r, 20, 2, "\x1b[41;4mAb\x1b[0;7mc\x1b[m d\x1b[1;4H", 0, 1, 2);
	dw = paint_sel(r, 20, 2, "\x1b#6\x1b[41;4mAb\x1b[0;7mc\x1b[m d\x1b[1;4H", 0, 2, 5);
	b = widened(&dw, 0, &one, 0, 20 * cw, GRID_LINE_DOUBLE_WIDTH);
	if (b)
		printf("FAIL %s: colours, underline, cursor, selection: %d pixels differ\n", what, b);
	CHECK(b == 0);
	free(one.px);
	free(dw.px);
	kf_render_destroy(r);
}

/* An odd width (the last double cell is cut at the grid's edge, nothing written past the target: the ASan
 * build) and a wide character on the half's last cell, written while the row was single: painted whole,
 * cut at the edge. Then RGB565: the same pixels in 16 bits. */
static void test_edges(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	if (kf_render_create(&cfg, &r)) {
		failures++;
		return;
	}
	struct shot one = paint(r, 21, 2, "\x1b[?25lABCDEFGHIJK"), dw = paint(r, 21, 2, "\x1b[?25l\x1b#6ABCDEFGHIJK");
	CHECK(widened(&dw, 0, &one, 0, 21 * one.cw, GRID_LINE_DOUBLE_WIDTH) == 0);
	free(one.px);
	free(dw.px);
	one = paint(r, 20, 2, "\x1b[?25l123456789\xe4\xb8\xad");
	dw = paint(r, 20, 2, "\x1b[?25l123456789\xe4\xb8\xad\x1b#6");
	CHECK(widened(&dw, 0, &one, 0, 20 * one.cw, GRID_LINE_DOUBLE_WIDTH) == 0);
	free(one.px);
	free(dw.px);

	/* tiny screens and a cursor past the half: painted within the target (ASan), the half's cells shown */
	static const struct {
		int cols;
		const char *in;
	} tiny[] = {{1, "\x1b#6X"}, {2, "\x1b#3\xe4\xb8\xad"}, {2, "\xe4\xb8\xad\x1b#4"}, {3, "\x1b#6ab\x1b[3G"},
		    {20, "\x1b#6\x1b[20G"}};
	for (size_t i = 0; i < sizeof(tiny) / sizeof(tiny[0]); i++) {
		one = paint(r, tiny[i].cols, 1, "");
		dw = paint(r, tiny[i].cols, 1, tiny[i].in);
		CHECK(dw.w == tiny[i].cols * dw.cw);
		free(one.px);
		free(dw.px);
	}
	one = paint(r, 1, 1, "\x1b[?25lX");
	dw = paint(r, 1, 1, "\x1b[?25l\x1b#6X");
	CHECK(widened(&dw, 0, &one, 0, one.cw, GRID_LINE_DOUBLE_WIDTH) == 0);
	free(one.px);
	free(dw.px);

	struct grid *g = grid_create(&(struct grid_config){.cols = 7, .rows = 2}, NULL, NULL);
	static const char in[] = "\x1b#6Hi\x1b[41mx";
	grid_feed(g, (const uint8_t *)in, sizeof(in) - 1);
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	const int w = 7 * cw, h = 2 * ch;
	uint32_t *p32 = calloc((size_t)w * h, 4);
	uint16_t *p16 = calloc((size_t)w * h, 2);
	struct kf_render_source src;
	kf_render_source_from_grid(&src, g);
	struct kf_render_target t32 = {p32, w, h, w * 4, KF_RENDER_XRGB8888}, t16 = {p16, w, h, w * 2, KF_RENDER_RGB565};
	CHECK(kf_render_paint_full(r, &src, &t32, NULL, 0) >= 0 && kf_render_paint_full(r, &src, &t16, NULL, 0) >= 0);
	int bad = 0;
	for (int i = 0; i < w * h; i++) {
		uint32_t c = p32[i];
		bad += p16[i] != (uint16_t)((c >> 8 & 0xf800) | (c >> 5 & 0x07e0) | (c >> 3 & 0x001f));
	}
	CHECK(bad == 0);
	free(p32);
	free(p16);
	grid_destroy(g);
	kf_render_destroy(r);
}

/* The pixels of cells [x, x + n) of row y of s unlike the background of its last cell (empty: the
 * double-height row's bottom half starts with ink). */
static int ink_of(const struct shot *s, int y, int x, int n)
{
	uint32_t bg = at(s, s->w - 1, y * s->ch);
	int k = 0;
	for (int j = 0; j < s->ch; j++)
		for (int i = x; i < x + n; i++)
			k += at(s, i, y * s->ch + j) != bg;
	return k;
}

/* Italic on a double row (bitmap fonts): the double cell is the single italic glyph widened, so it keeps
 * every pixel of the upright glyph as the single one does (M and W, too wide for the full slant, lost
 * their top right; in Terminus most bold capitals): twice the single upright's ink on a double-width row,
 * four times over the two halves of a double-height one. */
static void test_italic(const struct kf_render_config *cfg, const char *what)
{
	struct kf_render *r;
	if (cfg->font_file && access(cfg->font_file, R_OK)) {
		printf("no %s: italic on double rows not checked\n", cfg->font_file);
		return;
	}
	if (kf_render_create(cfg, &r)) {
		printf("FAIL %s: no renderer\n", what);
		failures++;
		return;
	}
	static const char *const sgr[] = {"3", "1;3"};
	for (size_t i = 0; i < 2; i++) {
		char up[64], dw[64], dh[64];
		snprintf(up, sizeof(up), "\x1b[?25l\x1b[%smMWBR", i ? "1" : "0");
		snprintf(dw, sizeof(dw), "\x1b[?25l\x1b#6\x1b[%smMWBR", sgr[i]);
		snprintf(dh, sizeof(dh), "\x1b[?25l\x1b#3\x1b[%smMWBR\r\n\x1b#4\x1b[%smMWBR", sgr[i], sgr[i]);
		struct shot one = paint(r, 20, 2, up), w = paint(r, 20, 2, dw), h = paint(r, 20, 2, dh);
		const int cw = one.cw;
		for (int c = 0; c < 4; c++) {
			int u = ink_of(&one, 0, c * cw, cw), iw = ink_of(&w, 0, 2 * c * cw, 2 * cw),
			    ih = ink_of(&h, 0, 2 * c * cw, 2 * cw) + ink_of(&h, 1, 2 * c * cw, 2 * cw);
			if (iw != 2 * u || ih != 4 * u) {
				printf("FAIL %s: %s '%c' on a double-width row %d pixels, double-height %d, upright "
				       "%d\n",
				       what, i ? "bold italic" : "italic", "MWBR"[c], iw, ih, u);
				failures++;
			}
		}
		free(one.px);
		free(w.px);
		free(h.px);
	}
	kf_render_destroy(r);
}

int main(void)
{
	struct kf_render_config builtin = {.engine = KF_RENDER_ENGINE_BUILTIN};
	test_font(&builtin, "builtin");
	struct kf_render_config ft = {.font_file = MONO, .font_size = 20};
	test_font(&ft, "DejaVu Sans Mono 20");
	test_edges();
	test_italic(&builtin, "builtin");
	struct kf_render_config term = {.engine = KF_RENDER_ENGINE_PSF,
					.font_file = "/usr/share/consolefonts/Lat2-Terminus16.psf.gz"};
	test_italic(&term, "Terminus 16");
	printf("%s: render-dbl\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
