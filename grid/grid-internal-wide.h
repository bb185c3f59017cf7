/* grid/grid-internal-wide.h: wide characters cut in half by a write, an erase or a move: the tests of the
 * column and the blanking of the half left behind. Not a public header; only grid-internal.h includes it, where
 * these inline helpers stood (after struct grid and the damage helpers they build on). Apart from
 * grid-internal.h to keep it under ~800 lines; static inline and included by the same files, so the code
 * compiled from it is what it was.
 */
#ifndef GRID_GRID_INTERNAL_WIDE_H
#define GRID_GRID_INTERNAL_WIDE_H

/* 0 < x < cols as one unsigned compare: one branch, and an emulated guest (QEMU 7.2's TCG) evaluates it inline,
 * where the `x > 0` of `test; jle` costs it a call computing every flag (~25 emulator instructions) */
static inline bool grid__inner_col(int x, int cols)
{
	return (unsigned)x - 1u < (unsigned)cols - 1u;
}

/* A wide character's half that a write, an erase or a move of the other half leaves alone: a blank in the
 * erase style, as xterm leaves it (a blank of the background colour erase, not in the character's colours or
 * reverse video). Cold and out of line: a cut wide character is rare (grid-edit.c). */
void grid__orphan_blank(struct grid *g, struct grid_cell *c);

/* Before cells [x0, x1) of l are overwritten: a wide character cut in half loses its other half. */
static inline void grid__fix_wide(struct grid *g, struct line *l, int x0, int x1)
{
	if (grid__inner_col(x0, g->cols) && l->cells[x0].width == 0)
		grid__orphan_blank(g, &l->cells[x0 - 1]);
	if (grid__inner_col(x1, g->cols) && l->cells[x1].width == 0)
		grid__orphan_blank(g, &l->cells[x1]);
}

/* Before cells [x0, x1) of l move, within the row or to another one: a wide character cut by either edge is
 * blanked whole, both halves (xterm: "If we shift part of a multi-column character, fill the rest of it with
 * blanks"). grid__fix_wide blanks only the half outside, right for cells overwritten in place; the half inside
 * would move alone, a wide cell without its right half or a right half without its left. */
static inline void grid__split_wide(struct grid *g, struct line *l, int x0, int x1)
{
	struct grid_cell *c = l->cells;
	for (int k = 0; k < 2; k++) {
		int x = k ? x1 : x0;
		if (grid__inner_col(x, g->cols) && c[x].width == 0) {
			grid__orphan_blank(g, &c[x - 1]);
			grid__orphan_blank(g, &c[x]);
		}
	}
}

/* grid__fix_wide for an erase (grid-erase.c's erase_cells): the width tested first, at column 0 for an edge
 * (cell 0 is never a right half). A cut wide character is rare, where whether x0 and x1 are edges varies with
 * each EL's form: csi's simulated mispredictions in EL's handler -21 %, host time +1.5-2.5 %, guest emulated
 * instructions -0.16 % (docs/benchmarks.md, issue 2, session 22). */
static inline void grid__fix_wide_edges(struct line *l, int cols, int x0, int x1, uint16_t es)
{
	x0 &= -(int)grid__inner_col(x0, cols);
	x1 &= -(int)grid__inner_col(x1, cols);
	/* the blank in the erase style es (grid__orphan_blank's, resolved by the caller: no call here, which
	 * would make EL's handler save registers on every EL) */
	if (unlikely(l->cells[x0].width == 0) && x0) {
		l->cells[x0 - 1].cp = 0;
		l->cells[x0 - 1].width = 1;
		l->cells[x0 - 1].link = 0;
		l->cells[x0 - 1].style = es;
	}
	if (unlikely(l->cells[x1].width == 0) && x1) {
		l->cells[x1].cp = 0;
		l->cells[x1].width = 1;
		l->cells[x1].link = 0;
		l->cells[x1].style = es;
	}
}

#endif
