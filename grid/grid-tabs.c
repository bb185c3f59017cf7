/* grid/grid-tabs.c: the default tab stops (RIS, DECST8C), the cursor's moves along its row by tab stops (HT,
 * CHT, CBT) and by BS, and DECALN's screen of E's. Out of grid-edit.c (cursor motion, scrolling, erase) for its
 * size; none of these is on a bulk path: the parser calls them one control or sequence at a time.
 *
 * Reference: xterm's ctlseqs and the VT510 manual, as grid-edit.c; the xterm.js test numbers below are the
 * cases that settled xterm's behaviour where the manuals are silent. */
#include "grid/grid-internal.h"

void grid__tabs_reset(struct grid *g)
{
	for (int x = 0; x < g->cols; x++)
		g->tabs[x] = x % 8 == 0 && x != 0;
}

void grid__tab(struct grid *g, int n)
{
	int lim = grid__right_limit(g);
	if (g->cx > lim)
		lim = g->cols - 1;
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
	/* column 1, margins or not (VT510 CBT); the left margin only in origin mode (xterm's TabToPrevStop) */
	int lim = g->origin ? grid__left_limit(g) : 0;
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
	int lim = grid__left_limit(g);
	if (g->wrap_pending) {
		g->wrap_pending = false;
		if (g->reverse_wrap)
			return;
	}
	if (g->cx > lim) {
		g->cx--;
	} else if (g->reverse_wrap && g->autowrap) {
		if (g->cy > g->top || (g->cy > 0 && g->cy < g->top)) {
			g->cy--;
			g->cx = g->right;
		} else if (g->cy == g->top) {
			g->cy = g->bottom;
			g->cx = g->right;
		}
	}
}

void grid__decaln(struct grid *g)
{
	g->top = 0;
	g->bottom = g->rows - 1;
	g->left = 0;
	g->right = g->cols - 1;
	grid__text_gate(g);
	for (int y = 0; y < g->rows; y++) {
		struct line *l = grid__line(g, y);
		l->flags = 0;
		l->used = (uint16_t)g->cols;
		for (int x = 0; x < g->cols; x++)
			l->cells[x] = (struct grid_cell){.cp = 'E', .style = 0, .link = 0, .width = 1, .flags = 0};
	}
	if (g->sel.active)
		grid_select_clear(g);
	grid__damage_rows(g, 0, g->rows - 1);
	grid__goto(g, 0, 0);
}
