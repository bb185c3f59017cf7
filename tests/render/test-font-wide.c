/* tests/render/test-font-wide.c: a glyph larger than its cells is fitted into them, not cut off.
 *
 * One whose advance is wider than its cells (a proportional font's W, a fallback's ligature such as
 * U+FB03 beside DejaVu Sans Mono) is narrowed into them, not cut at both sides. It was centred on its cells and clipped: of 'W' here, a frame 18 pixels wide in a 10-pixel cell,
 * only the top and bottom bars' middle showed; of U+FB03 (DejaVu Sans, 17 pixels at 16) "ff" without
 * the i. The font is made here (make-wide-glyph-font.py, python3-fonttools: tools/install-deps.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

static char tmpdir[] = "/tmp/kf-font-wide-XXXXXX";

/* g's coverage at column x of row y (0 outside or for an empty glyph). */
static int ink(const struct kf_glyph *g, int x, int y)
{
	if (g->kind != KF_GLYPH_ALPHA || x < 0 || x >= g->w || y < g->y0 || y >= g->y1)
		return 0;
	return ((const uint8_t *)g->data)[(size_t)y * g->w + x];
}

/* Ink somewhere in columns [x0, x1) of row y. */
static bool ink_in(const struct kf_glyph *g, int x0, int x1, int y)
{
	for (int x = x0; x < x1; x++)
		if (ink(g, x, y))
			return true;
	return false;
}

/* The frame 'W' in cells cells of style: both side bars and the hollow between them on its middle row. */
static void check_frame(struct kf_render *r, unsigned style, int cells, int baseline)
{
	const struct kf_glyph *g = kf_render_glyph(r, 'W', style, cells);
	const int y = baseline - 6, w = g->w;
	printf("W style %u in %d cell(s), row %d:", style, cells, y);
	for (int x = 0; x < w; x++)
		printf(" %3d", ink(g, x, y));
	printf("\n");
	CHECK(!g->missing && g->kind == KF_GLYPH_ALPHA && w == cells * 10);
	CHECK(ink_in(g, 0, 3, y));      /* the left bar */
	CHECK(ink_in(g, w - 3, w, y));  /* the right bar */
	CHECK(!ink_in(g, 4, w - 4, y)); /* the inside */
}

static void test_wide(struct kf_render *r)
{
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	CHECK(cw == 10);
	check_frame(r, 0, 1, r->font->baseline);
	check_frame(r, KF_GLYPH_BOLD, 1, r->font->baseline);
	check_frame(r, KF_GLYPH_ITALIC, 1, r->font->baseline);
	check_frame(r, 0, 2, r->font->baseline); /* two cells hold it as it is */
	/* a glyph as wide as its cell is left as it was: 'A', a box over columns 1 to 8 */
	const struct kf_glyph *a = kf_render_glyph(r, 'A', 0, 1);
	const int y = r->font->baseline - 6;
	CHECK(!ink(a, 0, y) && ink(a, 1, y) == 255 && ink(a, 8, y) == 255 && !ink(a, 9, y));
}

/* Rows [y0, y1) of g hold ink in columns [x0, x1). */
static bool rows_inked(const struct kf_glyph *g, int x0, int x1, int y0, int y1)
{
	for (int y = y0; y < y1; y++)
		if (!ink_in(g, x0, x1, y))
			return false;
	return true;
}

/* One taller than the cell: DejaVu Sans Mono has no Vietnamese capital with two marks, and DejaVu Sans's,
 * the fallback's, reach 3 or 4 pixels above the cell at 16 px. The cell's top cut the upper mark off:
 * Ấ Ầ Ẩ Ẫ all showed as Â. Here U+1EA4 is a letter and a mark wholly above the cell: lowered into it
 * (scaled about the baseline), the mark shows over the letter, a blank row between them. A glyph past both
 * the top and the bottom (U+23AE, made to join the rows above and below) is left as the font sets it. */
static void test_tall(struct kf_render *r)
{
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	CHECK(ch == 16 && r->font->baseline == 13);
	for (unsigned style = 0; style < 4; style++) {
		const struct kf_glyph *g = kf_render_glyph(r, 0x1ea4, style, 1);
		printf("U+1EA4 style %u, ink rows:", style);
		for (int y = 0; y < ch; y++)
			printf("%s", ink_in(g, 0, cw, y) ? "#" : ".");
		printf("\n");
		CHECK(!g->missing && g->kind == KF_GLYPH_ALPHA);
		CHECK(ink_in(g, 0, cw, 0) && ink_in(g, 0, cw, 1)); /* the mark */
		CHECK(!rows_inked(g, 0, cw, 0, 13));              /* a blank row between */
		CHECK(rows_inked(g, 0, cw, 8, 13));               /* the letter, down to the baseline */
	}
	const struct kf_glyph *j = kf_render_glyph(r, 0x23ae, 0, 1);
	CHECK(!j->missing && rows_inked(j, 4, 6, 0, ch));
}

int main(int argc, char **argv)
{
	if (argc < 2 || !mkdtemp(tmpdir))
		return 1;
	char font[300];
	snprintf(font, sizeof(font), "%s/wide.ttf", tmpdir);
	if (!make_test_font(argv[1], font)) {
		rmdir(tmpdir);
		return 77;
	}
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = font, .font_size = 16};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (r) {
		test_wide(r);
		test_tall(r);
		kf_render_destroy(r);
	}
	unlink(font);
	return check_finish(tmpdir);
}
