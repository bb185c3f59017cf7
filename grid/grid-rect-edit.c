/* grid/grid-rect-edit.c: the VT420 rectangular area functions that change the screen.
 *
 *   DECCRA  CSI Pts ; Pls ; Pbs ; Prs ; Pps ; Ptd ; Pld ; Ppd $ v   copy a rectangle
 *   DECFRA  CSI Pch ; Pt ; Pl ; Pb ; Pr $ x                          fill it with a character
 *   DECERA  CSI Pt ; Pl ; Pb ; Pr $ z                                erase it
 *   DECSERA CSI Pt ; Pl ; Pb ; Pr $ {                                erase its unprotected characters
 *   DECCARA CSI Pt ; Pl ; Pb ; Pr ; Ps... $ r                        set or clear attributes in it
 *   DECRARA CSI Pt ; Pl ; Pb ; Pr ; Ps... $ t                        reverse attributes in it
 *   DECSACE CSI Ps * x                          DECCARA/DECRARA's extent: 2 the rectangle, else a stream
 *                                               (an omitted Ps changes nothing, as in xterm 379)
 *
 * Reference: DEC's VT510 manual and xterm's ctlseqs; where they leave something open, xterm 379 at its
 * default VT420 level, as tests/tools/xterm-diff.py measures it (the rect-* families and --attrs):
 * - the rectangle (grid__rect_parse): 1-based and inclusive; an omitted or 0 edge takes its default (the
 *   first or last row or column); in origin mode (DECOM) it counts from the margins' top-left corner and is
 *   clipped to the margins, else to the screen. A rectangle that starts below or right of that area, or
 *   whose top is below its bottom or left right of its right, does nothing.
 * - none of them moves the cursor or ends a pending wrap.
 * - DECFRA's character is taken as it comes, not through the character set in GL (xterm: `\e(0` and 113
 *   fill with 'q'); one without a width of 1 (controls, DEL, C1, combining marks), a surrogate and U+xFFFE/
 *   U+xFFFF are refused. A wide one is
 *   refused too: xterm puts one in each cell, each overlapping the next.
 * - DECFRA and DECERA write with the pen's rendition (but invisibility: SGR 8 is not taken) and protection
 *   (DECSCA); they keep the cells' colours unless the pen has a colour, then its foreground and background. DECERA writes spaces: the cells
 *   count as written for DECRQCRA (xterm), protected or not.
 * - DECSERA writes spaces over the unprotected cells, their attributes and colours kept; the protected ones
 *   only in DEC's protection mode (out of it and in ISO protection's mode, all cells).
 * - DECCARA and DECRARA change bold (1), underline (4), blink (5) and inverse (7); DECCARA's 0 clears
 *   those four, 22, 24, 25 and 27 one each. Anything else is ignored (xterm 379: invisible too).
 * - a wide character cut by the rectangle's left or right edge is blanked whole (both halves become
 *   spaces in their own style), as xterm does for DECFRA, DECERA, DECCRA's target and DECSERA (which
 *   leaves a protected one whole).
 */
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"
#include "grid/grid-rect.h"

static int rect_arg(const struct vt_csi *csi, unsigned i)
{
	int v = i < csi->n_params ? csi->params[i] : VT_PARAM_DEFAULT;
	return v <= 0 ? 0 : grid__min(v, GRID_MAX_DIM + 1);
}

void grid__rect_area(const struct grid *g, struct grid_rect *a)
{
	if (g->origin)
		*a = (struct grid_rect){g->top, g->left, g->bottom, g->right};
	else
		*a = (struct grid_rect){0, 0, g->rows - 1, g->cols - 1};
}

bool grid__rect_parse(const struct grid *g, const struct vt_csi *csi, unsigned first, struct grid_rect *r)
{
	struct grid_rect a;
	grid__rect_area(g, &a);
	int min_y = a.y0, max_y = a.y1, min_x = a.x0, max_x = a.x1;
	int t = rect_arg(csi, first), l = rect_arg(csi, first + 1);
	int b = rect_arg(csi, first + 2), rt = rect_arg(csi, first + 3);
	r->y0 = min_y + (t ? t : 1) - 1;
	r->x0 = min_x + (l ? l : 1) - 1;
	r->y1 = b ? grid__min(min_y + b - 1, max_y) : max_y;
	r->x1 = rt ? grid__min(min_x + rt - 1, max_x) : max_x;
	return r->y0 <= r->y1 && r->x0 <= r->x1;
}

/* Row y ready to be written in place: deferred cells stored, its text bytes no longer its content, the
 * selection (whose marks are in the cells) dropped where it lies. */
static struct line *row_for_write(struct grid *g, int y, int x1)
{
	struct line *l = grid__line(g, y);
	l->flags &= ~LINE_ASCII;
	grid__line_touch(l, x1);
	return l;
}

/* A wide character cut by a rectangle's edge at x (its left edge, or one past its right one) loses both
 * halves: each becomes a written space in its own style (xterm's Clear1Cell). */
static void cut_wide(struct grid *g, struct line *l, int x, bool selective)
{
	if (!grid__inner_col(x, g->cols) || l->cells[x].width != 0)
		return;
	/* DECSERA in DEC's protection mode leaves a protected one whole (xterm) */
	if (selective && grid_style(g, l->cells[x].style)->attrs & GRID_ATTR_PROTECTED)
		return;
	for (int k = x - 1; k <= x; k++) {
		l->cells[k].cp = ' ';
		l->cells[k].width = 1;
		l->cells[k].link = 0;
	}
}

static void rect_begin(struct grid *g, const struct grid_rect *r)
{
	grid__work(g, (uint64_t)(r->y1 - r->y0 + 1) * (uint64_t)(r->x1 - r->x0 + 1)); /* grid_work */
	if (g->sel.active)
		grid__select_touch(g, r->y0, r->y1);
}

static void rect_end(struct grid *g, const struct grid_rect *r)
{
	for (int y = r->y0; y <= r->y1; y++)
		grid__damage(g, y, r->x0 - 1, r->x1 + 2);
}

/* The style id a rectangle's last cell had and the id it became: one interning per run of cells that share a
 * style, not one per cell (an id is only reused after a collection: the epoch). */
struct restyle {
	uint16_t old, id;
	uint32_t epoch;
	bool valid;
};

static bool restyle_hit(const struct grid *g, const struct restyle *m, uint16_t old)
{
	return m->valid && m->old == old && m->epoch == g->st.epoch;
}

static void restyle_put(struct grid *g, struct restyle *m, uint16_t old, const struct grid_style *s)
{
	m->old = old;
	m->id = grid__style_intern(g, s);
	m->epoch = g->st.epoch;
	m->valid = true;
}

/* The style a fill gives a cell of style id: the pen's rendition and protection, the cell's colours unless
 * the pen has one (xterm's ScrnFillRectangle keeps the colours when the pen has none). */
static struct grid_style fill_style(const struct grid *g, uint16_t id)
{
	struct grid_style s = g->pen;
	s.attrs &= (uint16_t)~GRID_ATTR_INVISIBLE; /* xterm 379 fills visibly under SGR 8 */
	if (g->protect)
		s.attrs |= GRID_ATTR_PROTECTED;
	if (s.fg == GRID_COLOR_DEFAULT && s.bg == GRID_COLOR_DEFAULT) {
		const struct grid_style *old = grid_style(g, id);
		s.fg = old->fg;
		s.bg = old->bg;
	}
	return s;
}

/* Cells of the rectangle written with character cp (DECFRA, DECERA). */
static void fill_rect(struct grid *g, const struct grid_rect *r, uint32_t cp, uint16_t link)
{
	rect_begin(g, r);
	struct restyle m = {0};
	for (int y = r->y0; y <= r->y1; y++) {
		struct line *l = row_for_write(g, y, r->x1 + 1);
		cut_wide(g, l, r->x0, false);
		cut_wide(g, l, r->x1 + 1, false);
		for (int x = r->x0; x <= r->x1; x++) {
			struct grid_cell *c = &l->cells[x];
			if (!restyle_hit(g, &m, c->style)) {
				struct grid_style s = fill_style(g, c->style);
				restyle_put(g, &m, c->style, &s);
			}
			c->cp = cp;
			c->width = 1;
			c->link = link;
			c->style = m.id;
		}
	}
	rect_end(g, r);
}

static void fill_chars(struct grid *g, const struct vt_csi *csi)
{
	int v = csi->n_params ? csi->params[0] : VT_PARAM_DEFAULT;
	struct grid_rect r;
	/* a surrogate is no character, and U+FFFE/U+FFFF (where a number past 65535 ends: the parser's clamp)
	 * are none a program means: each would fill the screen with text that is not valid UTF-8 or not text */
	bool none = (v >= 0xd800 && v <= 0xdfff) || (v & 0xfffe) == 0xfffe;
	if (v <= 0 || v > 0x10ffff || none || vt_char_width((uint32_t)v) != 1 || !grid__rect_parse(g, csi, 1, &r))
		return;
	fill_rect(g, &r, (uint32_t)v, g->link);
}

static void erase_rect(struct grid *g, const struct vt_csi *csi, bool selective)
{
	struct grid_rect r;
	if (!grid__rect_parse(g, csi, 0, &r))
		return;
	if (!selective) {
		fill_rect(g, &r, ' ', 0);
		return;
	}
	/* the protected characters stay only in DEC's protection mode: in ISO protection's (SPA) and with
	 * protection off (after DECSTR, until a DECSCA) xterm 379's DECSERA erases them too, and a protected wide
	 * character cut by an edge as any other (case decsera-protect-modes) */
	const bool keep = !g->iso_protect && !g->protect_off;
	rect_begin(g, &r);
	for (int y = r.y0; y <= r.y1; y++) {
		struct line *l = row_for_write(g, y, r.x1 + 1);
		cut_wide(g, l, r.x0, keep);
		cut_wide(g, l, r.x1 + 1, keep);
		for (int x = r.x0; x <= r.x1; x++) {
			struct grid_cell *c = &l->cells[x];
			if (keep && grid_style(g, c->style)->attrs & GRID_ATTR_PROTECTED)
				continue;
			c->cp = ' ';
			c->width = 1;
			c->link = 0;
		}
	}
	rect_end(g, &r);
}

/* DECCARA's and DECRARA's attribute changes as masks: set, clear and toggle (underline apart: GRID_ATTR_* has
 * no bit for it). An underline of another style (double, curly) is left alone, as xterm keeps its double
 * underline apart from the single one these change. */
struct attr_change {
	uint16_t set, clear, flip;
	int8_t ul; /* 1 set, -1 clear, 2 toggle, 0 leave */
};

static bool attr_change(const struct vt_csi *csi, bool reverse, struct attr_change *a)
{
	static const uint16_t four = GRID_ATTR_BOLD | GRID_ATTR_BLINK | GRID_ATTR_REVERSE;
	*a = (struct attr_change){0};
	bool any = false;
	for (unsigned i = 4; i < csi->n_params; i++) {
		int p = csi->params[i] == VT_PARAM_DEFAULT ? 0 : csi->params[i];
		uint16_t bit = p % 20 == 1 ? GRID_ATTR_BOLD : p % 20 == 5 ? GRID_ATTR_BLINK
			     : p % 20 == 7 ? GRID_ATTR_REVERSE : 0;
		bool ul = p % 20 == 4;
		if (reverse) {
			if (p >= 20 || !(bit || ul))
				continue;
			a->flip ^= bit;
			if (ul)
				a->ul = a->ul == 2 ? 0 : 2;
		} else if (p == 0) {
			a->set = a->flip = 0;
			a->clear = four;
			a->ul = -1;
		} else if (p < 20 && (bit || ul)) {
			a->set |= bit;
			a->clear &= (uint16_t)~bit;
			if (ul)
				a->ul = 1;
		} else if (p > 20 && p < 30 && (bit || ul)) {
			a->clear |= bit;
			a->set &= (uint16_t)~bit;
			if (ul)
				a->ul = -1;
		} else {
			continue;
		}
		any = true;
	}
	return any;
}

static void apply_attrs(struct grid_style *s, const struct attr_change *a)
{
	s->attrs = (uint16_t)(((s->attrs & ~a->clear) | a->set) ^ a->flip);
	bool none = s->underline == GRID_UNDERLINE_NONE, single = s->underline == GRID_UNDERLINE_SINGLE;
	if ((a->ul == 1 && none) || (a->ul == 2 && none))
		s->underline = GRID_UNDERLINE_SINGLE;
	else if ((a->ul == -1 || a->ul == 2) && single)
		s->underline = GRID_UNDERLINE_NONE;
}

static void change_attrs(struct grid *g, const struct vt_csi *csi, bool reverse)
{
	struct grid_rect r;
	struct attr_change a;
	if (!grid__rect_parse(g, csi, 0, &r) || !attr_change(csi, reverse, &a))
		return;
	rect_begin(g, &r);
	struct grid_rect area;
	grid__rect_area(g, &area);
	int min_x = area.x0, max_x = area.x1;
	struct restyle m = {0};
	for (int y = r.y0; y <= r.y1; y++) {
		/* a stream (DECSACE 0, 1): from the first cell to the last as text runs, the rows between whole */
		int x0 = g->decsace == 2 || y == r.y0 ? r.x0 : min_x;
		int x1 = g->decsace == 2 || y == r.y1 ? r.x1 : max_x;
		struct line *l = row_for_write(g, y, x1 + 1);
		for (int x = x0; x <= x1; x++) {
			struct grid_cell *c = &l->cells[x];
			if (!restyle_hit(g, &m, c->style)) {
				struct grid_style s = *grid_style(g, c->style);
				apply_attrs(&s, &a);
				restyle_put(g, &m, c->style, &s);
			}
			c->style = m.id;
		}
		grid__damage(g, y, x0, x1 + 1);
	}
}

/* DECCRA: row by row, in the order that reads every source row before it is written (down: from the
 * bottom), each row's cells read whole before any is written, so that source and target may overlap. The target is
 * clipped to the screen (the margins in origin mode). */
static void copy_rect(struct grid *g, const struct vt_csi *csi)
{
	struct grid_rect src, dst;
	if (!grid__rect_parse(g, csi, 0, &src))
		return;
	/* the target's corner: parameters 6 and 7 (after the source's page), its size the source's */
	struct grid_rect area;
	grid__rect_area(g, &area);
	int max_y = area.y1, max_x = area.x1;
	int t = rect_arg(csi, 5), l = rect_arg(csi, 6);
	dst.y0 = area.y0 + (t ? t : 1) - 1;
	dst.x0 = area.x0 + (l ? l : 1) - 1;
	if (dst.y0 > max_y || dst.x0 > max_x)
		return;
	int h = grid__min(src.y1 - src.y0, max_y - dst.y0) + 1, w = grid__min(src.x1 - src.x0, max_x - dst.x0) + 1;
	dst.y1 = dst.y0 + h - 1;
	dst.x1 = dst.x0 + w - 1;
	/* one row's cells at a time: a wide character the target's edges cut is blanked before they land */
	struct grid_cell *row = malloc((size_t)w * sizeof(*row));
	if (!row)
		return;
	rect_begin(g, &dst);
	bool down = dst.y0 > src.y0;
	for (int i = 0; i < h; i++) {
		int y = down ? h - 1 - i : i;
		memcpy(row, &grid__line(g, src.y0 + y)->cells[src.x0], (size_t)w * sizeof(*row));
		struct line *dl = row_for_write(g, dst.y0 + y, dst.x1 + 1);
		cut_wide(g, dl, dst.x0, false);
		cut_wide(g, dl, dst.x1 + 1, false);
		/* a wide character the source's edges cut comes over as a space in its style */
		if (row[0].width == 0)
			row[0].cp = ' ', row[0].width = 1;
		if (row[w - 1].width == 2)
			row[w - 1].cp = ' ', row[w - 1].width = 1;
		for (int x = 0; x < w; x++)
			row[x].flags &= (uint8_t)~GRID_CELL_SELECTED;
		memcpy(&dl->cells[dst.x0], row, (size_t)w * sizeof(*row));
	}
	free(row);
	rect_end(g, &dst);
}

bool grid__rect_csi(struct grid *g, const struct vt_csi *csi, uint8_t inter, uint8_t final)
{
	if (inter == '*' && final == 'x') {
		/* 2 the rectangle, any other value a stream; no parameter at all changes nothing (xterm 379) */
		if (csi->n_params)
			g->decsace = csi->params[0] == 2 ? 2 : 0;
		return true;
	}
	if (inter != '$')
		return false;
	switch (final) {
	case 'v': copy_rect(g, csi); return true;
	case 'x': fill_chars(g, csi); return true;
	case 'z': erase_rect(g, csi, false); return true;
	case '{': erase_rect(g, csi, true); return true;
	case 'r': change_attrs(g, csi, false); return true;
	case 't': change_attrs(g, csi, true); return true;
	default: return false;
	}
}
