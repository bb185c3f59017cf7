/* kmscon-felis/render/damage.c: damage rectangles per row, and what changed since the last paint
 * (kf_render_collect_damage: the grid's row damage plus cursor, blink, pointer and palette changes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

int kf_render_damage_init(struct kf_render_damage *d, int cols, int rows)
{
	memset(d, 0, sizeof(*d));
	if (cols < 1 || rows < 1 || cols > GRID_MAX_DIM || rows > GRID_MAX_DIM)
		return -EINVAL;
	d->x0 = calloc((size_t)rows, sizeof(int));
	d->x1 = calloc((size_t)rows, sizeof(int));
	if (!d->x0 || !d->x1) {
		kf_render_damage_finish(d);
		return -ENOMEM;
	}
	d->cols = cols;
	d->rows = rows;
	return 0;
}

void kf_render_damage_finish(struct kf_render_damage *d)
{
	free(d->x0);
	free(d->x1);
	memset(d, 0, sizeof(*d));
}

void kf_render_damage_clear(struct kf_render_damage *d)
{
	for (int y = 0; y < d->rows; y++)
		d->x0[y] = d->x1[y] = 0;
}

void kf_render_damage_add(struct kf_render_damage *d, int y, int x0, int x1)
{
	if (y < 0 || y >= d->rows)
		return;
	if (x0 < 0)
		x0 = 0;
	if (x1 > d->cols)
		x1 = d->cols;
	if (x0 >= x1)
		return;
	if (d->x0[y] >= d->x1[y]) {
		d->x0[y] = x0;
		d->x1[y] = x1;
		return;
	}
	if (x0 < d->x0[y])
		d->x0[y] = x0;
	if (x1 > d->x1[y])
		d->x1[y] = x1;
}

void kf_render_damage_all(struct kf_render_damage *d)
{
	for (int y = 0; y < d->rows; y++) {
		d->x0[y] = 0;
		d->x1[y] = d->cols;
	}
}

void kf_render_damage_union(struct kf_render_damage *d, const struct kf_render_damage *o)
{
	if (o->rows != d->rows || o->cols != d->cols) {
		kf_render_damage_all(d);
		return;
	}
	for (int y = 0; y < d->rows; y++)
		kf_render_damage_add(d, y, o->x0[y], o->x1[y]);
}

bool kf_render_damage_empty(const struct kf_render_damage *d)
{
	for (int y = 0; y < d->rows; y++)
		if (d->x0[y] < d->x1[y])
			return false;
	return true;
}

static uint32_t palette_hash(const uint32_t *p)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < 259; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void damage_cursor(struct kf_render_damage *d, const struct grid_cursor *c)
{
	/* one cell either side: the cursor may sit on either half of a wide character */
	kf_render_damage_add(d, c->y, c->x - 1, c->x + 2);
}

static void damage_pointer(const struct kf_render *r, struct kf_render_damage *d, int x, int y)
{
	int px, py, w, h;
	kf_render_pointer_box(r, &px, &py, &w, &h);
	px = x;
	py = y;
	if (r->cell_w <= 0 || r->cell_h <= 0 || px + w <= 0 || py + h <= 0)
		return;
	int c0 = px < 0 ? 0 : px / r->cell_w, c1 = (px + w - 1) / r->cell_w + 1;
	int r0 = py < 0 ? 0 : py / r->cell_h, r1 = (py + h - 1) / r->cell_h + 1;
	for (int row = r0; row < r1; row++)
		kf_render_damage_add(d, row, c0, c1);
}

static void damage_blinking(const struct kf_render_source *s, struct kf_render_damage *d)
{
	if (!s->style)
		return;
	for (int y = 0; y < s->rows; y++) {
		const struct grid_cell *row = s->row(s->ud, y);
		for (int x = 0; x < s->cols; x++) {
			const struct grid_style *st = s->style(s->ud, row[x].style);
			if (st && (st->attrs & GRID_ATTR_BLINK))
				kf_render_damage_add(d, y, x, x + 1);
		}
	}
}

/* The notice came, changed or went: its cells (and the one after, which may be the right half of a wide
 * character whose left half it covers) are painted again, from the source once it has gone. Over a double-width
 * or double-height row the notice's row is painted at the single size (notice.c): all of it, or the doubled
 * picture of its other cells would stay beside the notice's (a double row is painted whole when it comes back). */
static void damage_notice(struct kf_render *r, const struct kf_render_source *src, struct kf_render_damage *d)
{
	int nrow, ncells = kf_render_notice_cells(r, src, &nrow);
	if (r->seen.notice_gen != r->notice.gen || r->seen.notice_row != nrow || r->seen.notice_cells != ncells) {
		if (r->seen.notice_cells)
			kf_render_damage_add(d, r->seen.notice_row, 0, r->seen.notice_cells + 1);
		if (ncells)
			kf_render_damage_add(d, nrow, 0,
					     src->row_size && src->row_size(src->ud, nrow) ? src->cols : ncells + 1);
	}
	r->seen.notice_gen = r->notice.gen;
	r->seen.notice_row = nrow;
	r->seen.notice_cells = ncells;
}

void kf_render_collect_damage(struct kf_render *r, const struct kf_render_source *src,
			      struct kf_render_damage *d)
{
	struct kf_frame_source tmp;
	const struct kf_render_source *s = kf_render_frame_source(r, src, &tmp);
	uint32_t ph = s->palette ? palette_hash(s->palette) : 0;
	bool all = !r->seen.valid || r->seen.epoch != r->epoch || r->seen.cols != s->cols ||
		   r->seen.rows != s->rows || r->seen.reverse_video != s->reverse_video ||
		   r->seen.palette_ptr != s->palette || r->seen.palette_hash != ph ||
		   !s->row_damage;
	if (all) {
		kf_render_damage_all(d);
	} else {
		for (int y = 0; y < s->rows; y++) {
			int x0, x1;
			if (s->row_damage(s->ud, y, &x0, &x1))
				kf_render_damage_add(d, y, x0, x1);
		}
		const struct grid_cursor *o = &r->seen.cursor, *c = &s->cursor;
		bool blink_flip = r->seen.blink_on != r->blink_on;
		if (o->x != c->x || o->y != c->y || o->visible != c->visible ||
		    o->shape != c->shape || o->blink != c->blink ||
		    (blink_flip && (o->blink || c->blink))) {
			damage_cursor(d, o);
			damage_cursor(d, c);
		}
		if (blink_flip)
			damage_blinking(s, d);
		if (r->seen.pointer_visible != r->pointer_visible ||
		    r->seen.pointer_x != r->pointer_x || r->seen.pointer_y != r->pointer_y) {
			if (r->seen.pointer_visible)
				damage_pointer(r, d, r->seen.pointer_x, r->seen.pointer_y);
			if (r->pointer_visible)
				damage_pointer(r, d, r->pointer_x, r->pointer_y);
		}
	}
	/* (no notice shown, none before: one test) */
	if (__builtin_expect(r->notice.len || r->seen.notice_cells || r->seen.notice_gen != r->notice.gen, 0))
		damage_notice(r, src, d);
	r->seen.valid = true;
	r->seen.epoch = r->epoch;
	r->seen.cols = s->cols;
	r->seen.rows = s->rows;
	r->seen.cursor = s->cursor;
	r->seen.blink_on = r->blink_on;
	r->seen.reverse_video = s->reverse_video;
	r->seen.pointer_visible = r->pointer_visible;
	r->seen.pointer_x = r->pointer_x;
	r->seen.pointer_y = r->pointer_y;
	r->seen.palette_ptr = s->palette;
	r->seen.palette_hash = ph;
}
