/* tests/render/shot.h: a grid's screen painted as the frame loop paints it (kf_render_source_from_grid,
 * kf_render_paint_full) into memory, for the tests that look at the pixels of what the real grid hands over. */
#ifndef KF_TEST_RENDER_SHOT_H
#define KF_TEST_RENDER_SHOT_H

#include <stdlib.h>

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"

struct shot {
	uint32_t *px; /* w x h, XRGB8888, owned (free()) */
	int w, h, cw, ch;
};

/* Paints the whole screen of g with r into a target of exactly the grid's size; aborts when it cannot. */
static inline struct shot shot_of_grid(struct kf_render *r, const struct grid *g)
{
	struct shot s = {0};
	kf_render_cell_size(r, &s.cw, &s.ch);
	s.w = grid_cols(g) * s.cw;
	s.h = grid_rows(g) * s.ch;
	s.px = calloc((size_t)s.w * s.h, 4);
	if (!s.px)
		abort();
	struct kf_render_source src;
	kf_render_source_from_grid(&src, g);
	struct kf_render_target t = {s.px, s.w, s.h, s.w * 4, KF_RENDER_XRGB8888};
	if (kf_render_paint_full(r, &src, &t, NULL, 0) < 0)
		abort();
	return s;
}

#endif
