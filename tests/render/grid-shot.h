/* tests/render/grid-shot.h: the screen a new grid shows after a byte stream, painted (shot.h), and a cell's
 * changed pixels and colours in it; for test-attrs.c and test-cursor.c. */
#ifndef KF_TEST_RENDER_GRID_SHOT_H
#define KF_TEST_RENDER_GRID_SHOT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shot.h"

/* Paints the screen g shows after a reset (RIS) and bytes with r (the cursor hidden unless the stream
 * shows it again): a grid painted many times is made once (test_emoji_hostile's 2000 paints made a
 * grid each, and under ASan every one mapped and unmapped its memory: most of the test's time). */
static inline struct shot paint_in(struct kf_render *r, struct grid *g, const char *bytes)
{
	static const char reset_hide[] = "\x1b" "c\x1b[?25l";
	grid_feed(g, (const uint8_t *)reset_hide, sizeof(reset_hide) - 1);
	grid_feed(g, (const uint8_t *)bytes, strlen(bytes));
	return shot_of_grid(r, g);
}

static inline struct grid *new_grid(int cols, int rows)
{
	struct grid *g = grid_create(&(struct grid_config){.cols = cols, .rows = rows}, NULL, NULL);
	if (!g)
		abort();
	return g;
}

/* Paints the screen a new grid of cols x rows shows after bytes with r. */
static inline struct shot paint(struct kf_render *r, int cols, int rows, const char *bytes)
{
	struct grid *g = new_grid(cols, rows);
	struct shot s = paint_in(r, g, bytes);
	grid_destroy(g);
	return s;
}

/* Pixels of cell (x, y) (cells wide) that differ between a and b. */
static inline int cell_changed(const struct shot *a, const struct shot *b, int x, int y, int cells)
{
	int n = 0;
	for (int j = 0; j < a->ch; j++)
		for (int i = 0; i < cells * a->cw; i++) {
			size_t k = (size_t)(y * a->ch + j) * a->w + x * a->cw + i;
			n += a->px[k] != b->px[k];
		}
	return n;
}

/* The background (the cell's top left pixel) and the ink (the first other colour) of cell (x, y). */
static inline void cell_colors(const struct shot *s, int x, int y, uint32_t *bg, uint32_t *ink)
{
	const uint32_t *p = s->px + (size_t)y * s->ch * s->w + (size_t)x * s->cw;
	*bg = *ink = p[0];
	for (int j = 0; j < s->ch && *ink == *bg; j++)
		for (int i = 0; i < s->cw && *ink == *bg; i++)
			*ink = p[(size_t)j * s->w + i];
}

#endif
