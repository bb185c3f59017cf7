/* kmscon-felis/render/paint-out.c: what paint.c's rows do after painting: the list of rectangles
 * the paint changed (for FB_DAMAGE_CLIPS), the scratch strip of clipped and RGB565 rows, and its
 * copy into the target.
 *
 * Each runs once per painted row, not per cell, and none is inlined into paint_row (whose page
 * must stay small, see paint.c): out of paint.c they cost the same call they did as its noinline
 * functions, and keep paint.c under the project's file length.
 */
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

void kf_paint_add_rect(struct kf_paint_rects *rs, int x, int y, int w, int h)
{
	if (!rs->max || w <= 0 || h <= 0)
		return;
	if (rs->n) {
		struct kf_render_rect *p = &rs->r[rs->n - 1];
		if (p->x == x && p->w == w && p->y + p->h == y) {
			p->h += h;
			return;
		}
	}
	if (rs->n < rs->max) {
		rs->r[rs->n++] = (struct kf_render_rect){x, y, w, h};
		return;
	}
	/* out of rectangles: the last one grows to cover this one too (more pixels flushed, none
	 * missed) */
	struct kf_render_rect *p = &rs->r[rs->n - 1];
	int x1 = p->x + p->w > x + w ? p->x + p->w : x + w,
	    y1 = p->y + p->h > y + h ? p->y + p->h : y + h;
	p->x = p->x < x ? p->x : x;
	p->y = p->y < y ? p->y : y;
	p->w = x1 - p->x;
	p->h = y1 - p->y;
}

uint32_t *kf_paint_scratch(struct kf_render *r, size_t pixels)
{
	if (pixels > r->scratch_len) {
		uint32_t *n = realloc(r->scratch, pixels * sizeof(*n));
		if (!n)
			return NULL;
		r->scratch = n;
		r->scratch_len = pixels;
	}
	return r->scratch;
}

void kf_paint_copy_out(const struct kf_render_target *t, const struct kf_strip *o, int px, int py,
		       int cw, int ch)
{
	for (int j = 0; j < ch; j++) {
		uint8_t *line = (uint8_t *)t->data + (size_t)(py + j) * t->stride;
		const uint32_t *src = o->px + (size_t)j * o->pitch;
		if (t->format == KF_RENDER_XRGB8888) {
			memcpy((uint32_t *)line + px, src, (size_t)cw * 4);
		} else {
			uint16_t *d = (uint16_t *)line + px;
			for (int i = 0; i < cw; i++)
				d[i] = kf_to565(src[i]);
		}
	}
}

/* The paint entries' check of a target, and its margins' fill (here for paint.c's length) */
bool kf_paint_target_ok(const struct kf_render_target *t)
{
	int bpp = t->format == KF_RENDER_RGB565 ? 2 : 4;
	return t->data && t->width > 0 && t->height > 0 && t->stride >= t->width * bpp &&
	       (t->format == KF_RENDER_XRGB8888 || t->format == KF_RENDER_RGB565) &&
	       t->stride % bpp == 0;
}

void kf_paint_fill_target(const struct kf_render_target *t, int x, int y, int w, int h, uint32_t c)
{
	int x1 = x + w < t->width ? x + w : t->width, y1 = y + h < t->height ? y + h : t->height;
	if (t->format == KF_RENDER_XRGB8888) {
		/* in one call (fill_rect): the right margin is a few pixels of every one of the
		 * target's rows, and a full repaint fills it each frame */
		struct kf_strip o = {(uint32_t *)t->data, (size_t)t->stride / 4};
		kf_paint_fill_rect(&o, x, y, x1 - x, y1 - y, c);
		return;
	}
	for (int j = y; j < y1; j++) {
		uint16_t *line = (uint16_t *)(void *)((uint8_t *)t->data + (size_t)j * t->stride);
		for (int i = x; i < x1; i++)
			line[i] = kf_to565(c);
	}
}
