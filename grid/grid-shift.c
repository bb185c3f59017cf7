/* grid/grid-shift.c: characters inserted and deleted within the rows: ICH, DCH, DECIC/DECDC and SL/SR.
 *
 * Reference: xterm's ctlseqs (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html). The cells right of the
 * cursor (or of the left margin) move within the left/right margins, and what comes in is blanked in the erase
 * style; a wide character cut by either edge is blanked whole. Apart from grid-edit.c and grid-erase.c, whose
 * line feed and EL paths are hot and kept in pages of their own: these are cold, called only from grid-csi.c's
 * dispatch, and share nothing static with either.
 */
#include <string.h>

#include "grid/grid-internal.h"

/* ICH (insert) and DCH: the cells from the cursor to the right margin move n columns right or left within the
 * row, and n blanks in the erase style come in behind them; a wide character cut at the cursor, at the margin or
 * where the moved block ends is blanked whole. The caller has checked the margins. */
static void shift_in_row(struct grid *g, int n, bool insert)
{
	struct line *l = grid__line(g, g->cy);
	int x = g->cx, end = g->right + 1;
	n = grid__clamp(n, 1, end - x);
	/* before the cells move: the selection's marks are cleared where it lies, and would move with them */
	if (g->sel.active)
		grid__select_touch(g, g->cy, g->cy);
	grid__split_wide(g, l, x, end);
	int cut = insert ? end - n : x + n;
	grid__fix_wide(g, l, cut, cut);
	l->flags &= ~LINE_ASCII;
	if (insert) {
		memmove(&l->cells[x + n], &l->cells[x], (size_t)(end - x - n) * sizeof(struct grid_cell));
		grid__clear_cells(&l->cells[x], n, grid__erase_style(g));
	} else {
		memmove(&l->cells[x], &l->cells[x + n], (size_t)(end - x - n) * sizeof(struct grid_cell));
		grid__clear_cells(&l->cells[end - n], n, grid__erase_style(g));
		/* a deletion ends the row's wrap, as ECH's does (xterm 379: its DCH, DECDC and SL leave the rows two
		 * lines, margins or not): kept, a copy or a wider screen joined the next row on behind the blanks */
		l->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP);
	}
	l->used = (uint16_t)g->cols;
	grid__damage(g, g->cy, x - 1, end + 1);
}

void grid__insert_chars(struct grid *g, int n)
{
	g->wrap_pending = false;
	if (grid__in_lr_margins(g))
		shift_in_row(g, n, true);
}

/* outside the margins DCH, IL and DL do nothing, a pending wrap kept (xterm returns before its ResetWrap) */
void grid__delete_chars(struct grid *g, int n)
{
	if (!grid__in_lr_margins(g))
		return;
	g->wrap_pending = false;
	shift_in_row(g, n, false);
}

/* DECIC/DECDC (x0 = cursor column) and SL/SR (x0 = left margin): shift columns [x0, right] of the rows
 * of the scroll region by n, right (insert) or left (delete), blanking what comes in. */
void grid__shift_cols(struct grid *g, int x0, int n, bool right)
{
	int end = g->right + 1;
	/* xterm ignores them while the cursor is outside the scroll region, its left/right margins too (xterm.js
	 * t600-t603; xterm's xtermColScroll): SL and SR start at the left margin whatever the cursor's column */
	if (x0 < g->left || x0 >= end || n <= 0 || g->cy < g->top || g->cy > g->bottom || g->cx < g->left ||
	    g->cx >= end)
		return;
	n = grid__min(n, end - x0);
	/* before the cells move (as in grid__insert_chars) */
	if (g->sel.active)
		grid__select_touch(g, g->top, g->bottom);
	uint16_t es = grid__erase_style(g);
	/* grid_work: a memmove of the region's rows, about an eighth of a fill's cost a cell (measured) */
	grid__work(g, (uint64_t)(g->bottom - g->top + 1) * (uint64_t)(end - x0) / 8u);
	for (int y = g->top; y <= g->bottom; y++) {
		struct line *l = grid__line(g, y);
		grid__split_wide(g, l, x0, end);
		struct grid_cell *c = l->cells;
		l->used = (uint16_t)g->cols;
		l->flags &= ~LINE_ASCII;
		if (right) {
			memmove(&c[x0 + n], &c[x0], (size_t)(end - x0 - n) * sizeof(*c));
			grid__clear_cells(&c[x0], n, es);
		} else {
			memmove(&c[x0], &c[x0 + n], (size_t)(end - x0 - n) * sizeof(*c));
			grid__clear_cells(&c[end - n], n, es);
			l->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP); /* as DCH's (shift_in_row) */
		}
		if (c[end - 1].width == 2)
			grid__clear_cells(&c[end - 1], 1, c[end - 1].style);
		/* a right half moved to x0 alone: a blank in the erase style, as xterm leaves it */
		if (c[x0].width == 0)
			grid__clear_cells(&c[x0], 1, es);
	}
	grid__damage_rows(g, g->top, g->bottom);
}
