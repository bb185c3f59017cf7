/* grid/grid-dbl.h: double-width and double-height lines (DECDWL, DECDHL, DECSWL), included by grid-internal.h.
 *
 * A line's size is two bits of its flags (LINE_DBL_MASK), so that it moves with the line through the ring's
 * rotations (scrolls, IL/DL, SU/SD), into the scrollback and back (the copies keep the flags), as xterm keeps
 * it in its line data. On a double line the cursor writes only columns [0, grid__dbl_max]: xterm 379's
 * LineMaxCol, (cols - 1) / 2. The cells after them are kept (DECSWL shows them again, as in xterm).
 *
 * The print paths see a double line through grid.print_mapped: grid.dbl_any (some row of either screen may be
 * double) sends every character through the general path (print_cps), which asks grid__dbl_right for the
 * cursor's row; the ASCII and UTF-8 fast paths are unchanged and never meet a double row.
 */
#ifndef GRID_GRID_DBL_H
#define GRID_GRID_DBL_H

#define LINE_DBL_SHIFT 7
#define LINE_DBL_MASK 0x180u /* the line's size: GRID_LINE_* << LINE_DBL_SHIFT */
_Static_assert((LINE_DBL_MASK & (LINE_WRAPPED | LINE_PACKED | LINE_UNPACKABLE | LINE_ASCII | LINE_LAZY | LINE_STALE |
				  LINE_STYLED | LINE_WIDE_WRAP)) == 0,
	       "the line size's bits are free");

/* The last column the cursor writes on a double line (xterm's LineMaxCol). */
static inline int grid__dbl_max(const struct grid *g)
{
	return (g->cols - 1) / 2;
}

/* ESC # 3, 4, 5, 6: the cursor's row becomes size (enum grid_line_size). */
void grid__line_size(struct grid *g, unsigned size);
/* The print paths' right limit right (grid__right_limit) on the cursor's row: its half when it is double. Only
 * called while grid.dbl_any. */
int grid__dbl_right(const struct grid *g, int right);
/* Whether the cursor's row is double. */
bool grid__dbl_cursor_row(const struct grid *g);
/* Sets grid.dbl_any, print_mapped with it, and the parser's CUF handler (grid-csi.c). */
void grid__dbl_set(struct grid *g, bool any);
/* grid.dbl_any again from the rows of both screens (and print_mapped with it). */
void grid__dbl_recount(struct grid *g);
/* ED mode's rows back to single size (xterm: the rows it clears whole), before the erase. */
void grid__dbl_erase(struct grid *g, int mode);
/* Every row of the active screen back to single size (DECSET 69: xterm's xterm_ResetDouble). */
void grid__dbl_reset(struct grid *g);

#endif
