/* kmscon-felis/render/paint-dbl.c: rows of double-width and double-height characters (DECDWL, DECDHL:
 * grid_row_size).
 *
 * A double row shows its cells [0, (cols - 1) / 2] at twice the cell width. It is painted as any row is
 * (paint.c's paint_row, untouched: its page and its per-cell loop stay as they are) into a strip of single
 * cells, then widened two pixels for one into the target; a double-height row's top or bottom half also
 * doubles each pixel row of the upper or lower half of the strip. Glyphs, backgrounds, underlines and the
 * other lines, the cursor and the selection are all in the strip, so they all come out scaled; the mouse
 * pointer is drawn afterwards, at its own size. Once per double row painted: such rows are rare (vttest's
 * banners), and a plain pixel doubling is all they need.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "kmscon-felis/render/render-internal.h"

/* The source of the strip: row y of the real source as its only row. */
struct one_row {
	const struct kf_render_source *s;
	int y;
};

static const struct grid_cell *one_row_cells(void *ud, int y)
{
	const struct one_row *o = ud;
	(void)y;
	return o->s->row(o->s->ud, o->y);
}

static const struct grid_style *one_row_style(void *ud, uint16_t id)
{
	const struct one_row *o = ud;
	return o->s->style ? o->s->style(o->s->ud, id) : NULL;
}

static size_t one_row_cps(void *ud, const struct grid_cell *c, uint32_t *out, size_t cap)
{
	const struct one_row *o = ud;
	if (o->s->codepoints)
		return o->s->codepoints(o->s->ud, c, out, cap);
	if (cap > 0)
		out[0] = c->cp;
	return c->cp != 0;
}

int kf_paint_row_dbl(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		     int y, int size, struct kf_paint_rects *rs)
{
	const int cw = r->cell_w, ch = r->cell_h;
	const int py = y * ch;
	if (py >= t->height)
		return 0;
	/* the cells shown, and one more: a wide character on the last of them (written before the row became
	 * double) is painted whole into the strip, which it would otherwise overrun */
	const int n = (s->cols - 1) / 2 + 1;
	const int ns = n + 1 < s->cols ? n + 1 : s->cols;
	const int sw = ns * cw;		 /* the strip of single cells */
	const int ow = s->cols * cw;	 /* the row on the screen: 2 * n cells, cut at the grid's edge */
	const int vw = ow < t->width ? ow : t->width, vh = py + ch > t->height ? t->height - py : ch;
	uint32_t *mem = kf_paint_scratch(r, (size_t)(sw + ow) * (size_t)ch);
	if (!mem)
		return -ENOMEM;
	uint32_t *strip = mem, *out = mem + (size_t)sw * (size_t)ch;

	struct one_row one = {s, y};
	struct kf_render_source s1 = *s;
	s1.cols = ns;
	s1.rows = 1;
	s1.ud = &one;
	s1.row = one_row_cells;
	s1.style = one_row_style;
	s1.codepoints = one_row_cps;
	s1.row_size = NULL;
	s1.cursor.y = s->cursor.y == y ? 0 : -1;
	struct kf_render_target t1 = {strip, sw, ch, sw * 4, KF_RENDER_XRGB8888};
	struct kf_paint_rects none = {NULL, 0, 0};
	/* the pointer goes over the widened row, at its own size */
	const bool pointer = r->pointer_visible;
	r->pointer_visible = false;
	int ret = kf_paint_row_cells(r, &s1, &t1, 0, 0, ns, &none);
	r->pointer_visible = pointer;
	if (ret)
		return ret;

	for (int j = 0; j < ch; j++) {
		/* a double-height half: the upper or the lower half of the strip, each pixel row twice */
		const int sj = size == GRID_LINE_DOUBLE_TOP ? j / 2 : size == GRID_LINE_DOUBLE_BOTTOM ? (ch + j) / 2 : j;
		const uint32_t *src = strip + (size_t)sj * (size_t)sw;
		uint32_t *dst = out + (size_t)j * (size_t)ow;
		for (int i = 0; i < ow; i++)
			dst[i] = src[i / 2];
	}
	struct kf_strip o = {out, (size_t)ow};
	kf_paint_pointer(r, &o, 0, py, ow);
	kf_paint_copy_out(t, &o, 0, py, vw, vh);
	kf_paint_add_rect(rs, 0, py, vw, vh);
	return 0;
}
