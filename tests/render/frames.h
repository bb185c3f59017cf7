/* tests/render/frames.h: frames made as the frame loop makes them (kmscon-felis/output.c:
 * kf_render_collect_damage, then kf_render_paint of the damage into a canvas that keeps the last picture), and
 * the whole screen painted by a fresh renderer to compare them with: what test-flash.c and test-notice.c share.
 * Include once per test file; aborts when something cannot be made (tests only). */
#ifndef KF_TEST_RENDER_FRAMES_H
#define KF_TEST_RENDER_FRAMES_H

#include <stdlib.h>

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"

struct canvas {
	uint32_t *px;
	int w, h;
	struct kf_render_damage d;
};

/* A canvas of w x h pixels for a grid of cols x rows, black. */
static inline void canvas_init(struct canvas *c, int cols, int rows, int w, int h)
{
	c->w = w;
	c->h = h;
	c->px = calloc((size_t)w * h, 4);
	if (!c->px || kf_render_damage_init(&c->d, cols, rows) < 0)
		abort();
}

static inline void canvas_finish(struct canvas *c)
{
	free(c->px);
	kf_render_damage_finish(&c->d);
}

/* One frame of the frame loop: returns how many cells were damaged. */
static inline int frame(struct kf_render *r, struct grid *g, struct canvas *c)
{
	struct kf_render_source src;
	struct kf_render_target t = {c->px, c->w, c->h, c->w * 4, KF_RENDER_XRGB8888};
	int n = 0;

	kf_render_source_from_grid(&src, g);
	kf_render_damage_clear(&c->d);
	kf_render_collect_damage(r, &src, &c->d);
	grid_damage_clear(g);
	for (int y = 0; y < c->d.rows; y++)
		n += c->d.x1[y] > c->d.x0[y] ? c->d.x1[y] - c->d.x0[y] : 0;
	if (n && kf_render_paint(r, &src, &c->d, &t, NULL, 0) < 0)
		abort();
	return n;
}

static inline struct kf_render *builtin_render(void)
{
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, &r))
		abort();
	return r;
}

/* The picture of g with DECSCNM set to reverse, painted whole by a fresh renderer (margins included). */
static inline uint32_t *reference(struct grid *g, bool reverse, int w, int h)
{
	struct kf_render *r = builtin_render();
	struct kf_render_source src;
	uint32_t *px = calloc((size_t)w * h, 4);
	if (!px)
		abort();
	kf_render_source_from_grid(&src, g);
	src.reverse_video = reverse;
	struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
	if (kf_render_paint_full(r, &src, &t, NULL, 0) < 0)
		abort();
	kf_render_destroy(r);
	return px;
}

static inline int differ(const uint32_t *a, const uint32_t *b, int w, int h)
{
	int n = 0;
	for (int i = 0; i < w * h; i++)
		n += a[i] != b[i];
	return n;
}

#endif
