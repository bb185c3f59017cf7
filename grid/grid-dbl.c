/* grid/grid-dbl.c: double-width and double-height lines (DECDWL ESC # 6, DECDHL ESC # 3 / ESC # 4, DECSWL
 * ESC # 5). See grid-dbl.h for how a line keeps its size and how the printer finds it.
 *
 * Reference: the VT510 manual (vt100.net/docs/vt510-rm/DECDWL, DECDHL, DECSWL) and xterm 379 as measured with
 * tests/tools/xterm-diff.py (tests/conformance/cases/dbl-*.case): the cursor's row changes size; the cursor
 * keeps its column unless it lies past the half (xterm then puts it at cols / 2); ED's rows other than the
 * cursor's (and the cursor's when ED erases the whole screen), DECALN, RIS and DECSET 69 make rows single
 * again, EL and DECSTR do not; with DECLRMM set the sequences
 * do nothing (xterm's repaint_line).
 */
#include "grid/grid-internal.h"

void grid__line_size(struct grid *g, unsigned size)
{
	if (g->lr_mode || size > GRID_LINE_DOUBLE_BOTTOM)
		return;
	struct line *l = grid__line_raw(g, g->cy);
	const unsigned f = (unsigned)size << LINE_DBL_SHIFT;
	if ((l->flags & LINE_DBL_MASK) == f)
		return;
	/* its cells show elsewhere now (twice as wide, past the half not at all): what the selection highlighted
	 * and copied is not what it shows, so it goes, as when text is written on the row (xterm keeps its
	 * cells selected, out of sight past the half) */
	if (g->sel.active)
		grid__select_touch(g, g->cy, g->cy);
	l->flags = (uint16_t)((l->flags & ~LINE_DBL_MASK) | f);
	if (size != GRID_LINE_SINGLE) {
		if (g->cx > g->cols / 2)
			g->cx = g->cols / 2;
		grid__dbl_set(g, true);
	}
	grid__damage(g, g->cy, 0, g->cols);
}

bool grid__dbl_cursor_row(const struct grid *g)
{
	return (grid__line_raw(g, g->cy)->flags & LINE_DBL_MASK) != 0;
}

int grid__dbl_right(const struct grid *g, int right)
{
	if (!grid__dbl_cursor_row(g))
		return right;
	return grid__min(right, grid__dbl_max(g));
}

static bool screen_has_dbl(const struct grid *g, const struct screen *s)
{
	for (int y = 0; y < g->rows; y++) {
		size_t i = s->top + (size_t)y;
		if (i >= s->cap)
			i -= s->cap;
		if (s->ring[i] && s->ring[i]->flags & LINE_DBL_MASK)
			return true;
	}
	return false;
}

void grid__dbl_recount(struct grid *g)
{
	grid__dbl_set(g, screen_has_dbl(g, &g->primary) || screen_has_dbl(g, &g->alt));
}

static void rows_single(struct grid *g, int y0, int y1)
{
	for (int y = y0; y < y1; y++) {
		struct line *l = grid__line_raw(g, y);
		if (l->flags & LINE_DBL_MASK) {
			if (g->sel.active) /* as grid__line_size */
				grid__select_touch(g, y, y);
			l->flags &= (uint16_t)~LINE_DBL_MASK;
			grid__damage(g, y, 0, g->cols);
		}
	}
}

void grid__dbl_erase(struct grid *g, int mode)
{
	switch (mode) {
	/* the cursor's row only when the erase is the whole screen's (measured: ED 0 from the home position, ED 1
	 * from the last column of the last row; from column 1 of another row ED 0 keeps it) */
	case 0: rows_single(g, g->cx == 0 && g->cy == 0 ? 0 : g->cy + 1, g->rows); break;
	case 1: rows_single(g, 0, g->cy == g->rows - 1 && g->cx == g->cols - 1 ? g->rows : g->cy); break;
	case 2: rows_single(g, 0, g->rows); break;
	default: return;
	}
	grid__dbl_recount(g);
}

void grid__dbl_reset(struct grid *g)
{
	rows_single(g, 0, g->rows);
	grid__dbl_recount(g);
}

enum grid_line_size grid_row_size(const struct grid *g, int y)
{
	if (y < 0 || y >= g->rows)
		return GRID_LINE_SINGLE;
	const struct screen *s = g->scr;
	size_t i = s->top + s->cap - g->view_offset + (size_t)y;
	return (enum grid_line_size)((s->ring[i % s->cap]->flags & LINE_DBL_MASK) >> LINE_DBL_SHIFT);
}
