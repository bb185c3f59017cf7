/* grid/grid-tabs.c: the default tab stops (RIS, DECST8C), the cursor's moves along its row by tab stops (HT,
 * CHT, CBT), by BS and by CUB under reverse wraparound, and DECALN's screen of E's. Out of grid-edit.c (cursor
 * motion, scrolling, erase) for its size; none of these is on a bulk path: the parser calls them one control or
 * sequence at a time.
 *
 * Reference: xterm's ctlseqs and the VT510 manual, as grid-edit.c; the xterm.js test numbers below are the
 * cases that settled xterm's behaviour where the manuals are silent. */
#include "grid/grid-internal.h"

void grid__tabs_reset(struct grid *g)
{
	for (int x = 0; x < GRID_MAX_DIM; x++)
		g->tabs[x] = x % 8 == 0; /* column 1 too, as xterm (DECTABSR reports it; no move stops there) */
}

void grid__tab(struct grid *g, int n)
{
	/* the right margin, or the screen's last column for a cursor right of the margin (docs/conformance.md) */
	int lim = grid__right_limit(g);
	if (unlikely(g->dbl_any) && grid__dbl_cursor_row(g)) {
		/* a double row's half (xterm's TabNext: LineMaxCol), which takes a cursor past it back to it */
		lim = grid__min(lim, grid__dbl_max(g));
		if (g->cx > lim) {
			g->cx = lim;
			return;
		}
	}
	while (n-- > 0 && g->cx < lim) {
		int x = g->cx + 1;
		while (x < lim && !g->tabs[x])
			x++;
		g->cx = x;
	}
	/* xterm keeps a pending wrap across HT/CHT (xterm.js t0080, t0083) */
}

void grid__backtab(struct grid *g, int n)
{
	/* column 1, margins or not (VT510 CBT); the left margin only in origin mode (xterm's TabToPrevStop), which
	 * also takes a cursor left of it (DECRC brings one there) to it */
	int lim = g->origin ? g->left : 0;
	if (g->cx < lim) {
		g->cx = lim;
		return;
	}
	while (n-- > 0 && g->cx > lim) {
		int x = g->cx - 1;
		while (x > lim && !g->tabs[x])
			x--;
		g->cx = x;
	}
	/* and across CBT (xterm.js t0084) */
}

void grid__backspace(struct grid *g)
{
	if (unlikely(g->reverse_wrap)) {
		grid__cursor_back_rev(g, 1);
		return;
	}
	g->wrap_pending = false;
	if (g->cx > grid__left_limit(g))
		g->cx--;
}

/* BS and CUB n under reverse wraparound, as xterm's CursorBack since its 2023 revision, only with DECAWM: a
 * pending wrap takes the first step (the cursor stays on the last column for it); at the left margin (column
 * 1 when the cursor is left of it) a step goes to the right margin of the row above. With mode 45 only when
 * that row wrapped into this one ("movement within the current (wrapped) line"), never above the top margin;
 * with mode 1045 (what mode 45 did before 2023) to any row, and from the top margin to the bottom one.
 * Differences from xterm, kept on purpose: xterm's pending wrap takes two steps of a CUB of 2 or more (its
 * loop counts it twice); under mode 45 a cursor above the top margin moves down to it there, and under 1045
 * one on the screen's top row above the region goes to row -1 (reading outside the screen); here the pending
 * wrap is one step and both cursors stay on their row. */
void grid__cursor_back_rev(struct grid *g, int n)
{
	if (!g->autowrap) {
		g->wrap_pending = false;
		g->cx = grid__max(g->cx - n, grid__left_limit(g));
		return;
	}
	const bool ext = g->reverse_wrap & REVERSE_WRAP_EXT;
	const int left = grid__left_limit(g);
	int x = g->cx, y = g->cy;
	if (g->wrap_pending)
		n--;
	g->wrap_pending = false;
	while (n > 0) {
		if (x > left) {
			int step = grid__min(n, x - left);
			x -= step;
			n -= step;
			continue;
		}
		if (ext && y == g->top)
			y = g->bottom;
		else if (ext ? y > 0 : (y > g->top && grid__line_raw(g, y - 1)->flags & LINE_WRAPPED))
			y--;
		else
			break;
		x = g->right;
		n--;
	}
	g->cx = x;
	g->cy = y;
}

void grid__decaln(struct grid *g)
{
	/* origin mode ends (DEC STD 070's DECALN, as xterm 379 does), so home is the screen's corner; DECLRMM
	 * stays */
	g->origin = false;
	g->top = 0;
	g->bottom = g->rows - 1;
	g->left = 0;
	g->right = g->cols - 1;
	grid__text_gate(g);
	grid__work(g, (uint64_t)g->rows * (uint64_t)g->cols); /* grid_work */
	for (int y = 0; y < g->rows; y++) {
		struct line *l = grid__line(g, y);
		l->flags = 0;
		l->used = (uint16_t)g->cols;
		for (int x = 0; x < g->cols; x++)
			l->cells[x] = (struct grid_cell){.cp = 'E', .style = 0, .link = 0, .width = 1, .flags = 0};
	}
	if (g->dbl_any)
		grid__dbl_recount(g); /* the rows are single again (l->flags), as in xterm */
	if (g->sel.active)
		grid_select_clear(g);
	grid__damage_rows(g, 0, g->rows - 1);
	grid__goto(g, 0, 0);
	/* the pen keeps its colours but loses bold, underline, reverse and the rest, as in xterm (ghostty
	 * documents the same for DEC STD 070); DECSCA's protection stays. The memoized SGR that made the pen
	 * must not learn this one as its result. */
	g->pen.attrs = 0;
	g->pen.underline = GRID_UNDERLINE_NONE;
	g->pen_dirty = true;
	g->pen_from = NULL;
}
