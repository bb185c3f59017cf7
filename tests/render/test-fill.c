/* tests/render/test-fill.c: the painter's fills of one colour (paint-fill.h, through
 * kf_paint_fill_rect): every width from 0 to 80 pixels (the scalar tail, the one to four 16-byte
 * stores of rows of 4 to 16 pixels, the 32-byte stores above 16 where the CPU has AVX, the last
 * store overlapping the one before), at several offsets and heights, in a strip whose rows are
 * further apart than they are filled: exactly the rectangle takes the colour, every pixel around
 * it (the row before and after, the columns either side) keeps what it had. And the runs of blanks
 * those fills paint (paint.c's blank_run_end, which reads a cell's style, hyperlink id, width and
 * flags as one word). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static void test_fill_rect(void)
{
	enum { PITCH = 101, ROWS = 8, MAXW = 80 };
	static const int xs[] = {0, 1, 3, 4, 7, 13};
	static const int hs[] = {0, 1, 2, 5};
	uint32_t *px = malloc(sizeof(*px) * PITCH * ROWS);
	CHECK(px != NULL);
	if (!px)
		return;
	struct kf_strip o = {px, PITCH};
	int bad = 0;
	for (int w = 0; w <= MAXW; w++)
		for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
			for (size_t k = 0; k < sizeof(hs) / sizeof(hs[0]); k++) {
				int x = xs[i], y = 1, h = hs[k];
				for (int j = 0; j < PITCH * ROWS; j++)
					px[j] = 0x01010101u * (uint32_t)(j % 251);
				uint32_t c = 0xff000000u | (uint32_t)(w * 2654435761u >> 8);
				kf_paint_fill_rect(&o, x, y, w, h, c);
				for (int r = 0; r < ROWS; r++)
					for (int col = 0; col < PITCH; col++) {
						int j = r * PITCH + col;
						bool in = r >= y && r < y + h && col >= x && col < x + w;
						bad += px[j] != (in ? c : 0x01010101u * (uint32_t)(j % 251));
					}
			}
	CHECK(bad == 0);
	free(px);
}

/* The screen of test_blank_run_word: two rows of blanks (code points 0 and ' '), with a blank of
 * another style, a selected one, a wide pair and an orphaned right half in the run. */
static struct screen *blank_rows(int cols)
{
	struct screen *s = screen_create(cols, 2);
	uint16_t red = screen_style(s, (struct grid_style){.bg = GRID_COLOR_PALETTE(1)});
	uint16_t blue = screen_style(s, (struct grid_style){.bg = GRID_COLOR_PALETTE(4)});
	for (int y = 0; y < 2; y++) {
		for (int x = 0; x < cols; x++)
			screen_put(s, x, y, x % 3 ? ' ' : 0, x >= 40 && x < 44 ? blue : red, 1);
		struct grid_cell *row = s->cells + (size_t)y * cols;
		row[20].flags |= GRID_CELL_SELECTED;
		row[30].width = 2;
		row[31].width = 0;
		row[50].width = 0;
	}
	return s;
}

/* A row of blanks whose cells carry hyperlink ids, flag bits other than the selection's and
 * garbage in their padding is painted exactly as the same row without them, in the same runs
 * (blank_run_end masks those out of the word it compares): the same pixels, and as many cells
 * copied pre-composed instead of filled. */
static void test_blank_run_word(void)
{
	enum { COLS = 60 };
	uint32_t *px[2];
	uint64_t copied[2];
	int w = 0, h = 0, cw = 0, ch = 0;
	for (int k = 0; k < 2; k++) {
		struct kf_render *r;
		struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
		CHECK(kf_render_create(&cfg, &r) == 0);
		struct screen *s = blank_rows(COLS);
		struct grid_cell *row = s->cells + COLS;
		for (int x = 0; k && x < COLS; x++) {
			row[x].link = (uint16_t)(x * 977 + 1);
			row[x].flags |= 0xfe;
			/* the padding after flags, where a compiler may leave anything */
			unsigned char *b = (unsigned char *)&row[x];
			memset(b + offsetof(struct grid_cell, flags) + 1, 0xa5,
			       sizeof(struct grid_cell) - offsetof(struct grid_cell, flags) - 1);
		}
		px[k] = screen_render(r, s, &w, &h);
		kf_render_cell_size(r, &cw, &ch);
		copied[k] = r->cells.hits + r->cells.misses;
		screen_destroy(s);
		kf_render_destroy(r);
	}
	CHECK(px[0] && px[1] && w >= COLS * cw && h >= 2 * ch);
	CHECK(copied[0] == copied[1]);
	int bad = 0;
	for (int j = 0; px[0] && px[1] && j < 2 * ch; j++)
		bad += memcmp(px[0] + (size_t)j * w, px[1] + (size_t)j * w,
			      (size_t)COLS * cw * sizeof(*px[0])) != 0;
	CHECK(bad == 0);
	free(px[0]);
	free(px[1]);
}

int main(void)
{
	test_fill_rect();
	test_blank_run_word();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
