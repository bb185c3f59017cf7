/* grid/grid-iso-protect.c: ISO protection, ECMA-48's protected areas: SPA (ESC V, C1 0x96) starts writing
 * protected characters and EPA (ESC W, 0x97) ends it; while the terminal is in this mode ED, EL and ECH
 * erase only the characters that are not protected, the others keep their text, attributes and colours.
 * DEC's own protection (DECSCA 1) marks the characters with the same attribute, but only DECSED, DECSEL and
 * DECSERA honour it; any DECSCA (0, 2 and past 2 too, measured) puts the terminal back in that mode (ED, EL
 * and ECH then erase everything), and so do DECSTR and RIS. That is xterm 379's model (one protection attribute, one mode set by whichever
 * of SPA and DECSCA came last), measured with tests/tools/xterm-diff.py; xterm ignores ECMA-48's ERM (mode
 * 6) here too, and so do we. vttest's "Test Protected-Areas (SPA)" (menu 11.7.1) draws its box with it.
 *
 * Nothing of this is on the erases' bulk paths: while the mode is on, the parser's handlers of ED and EL from
 * their bytes (grid__csi_bytes_final) are replaced by one that declines every sequence, so that ED and EL come
 * through grid__csi's dispatch, which sends them here (as it sends ECH); the mode's end puts them back.
 * A file of its own, last in the library, so that the other functions keep their places in their pages. */
#include "grid/grid-internal.h"

void grid__iso_protect_mode(struct grid *g, bool on)
{
	if (g->iso_protect == on)
		return;
	g->iso_protect = on;
	grid__csi_bytes_update(g);
}

void grid__spa(struct grid *g, bool start)
{
	g->protect = start;
	g->pen_dirty = true;
	if (start) {
		grid__iso_protect_mode(g, true);
		g->protect_off = false;
	}
}

static bool is_protected(const struct grid *g, const struct grid_cell *c)
{
	return (grid_style(g, c->style)->attrs & GRID_ATTR_PROTECTED) != 0;
}

/* Cells [x0, x1) of row y erased as a plain erase does (the background colour, a wide character cut at an
 * edge), run by run between the protected ones; the row's wrap ends as with the plain erase (wrap_end) */
static void erase_span(struct grid *g, int y, int x0, int x1, bool wrap_end)
{
	int x = x0;
	while (x < x1) {
		if (is_protected(g, &grid__line(g, y)->cells[x])) {
			x++;
			continue;
		}
		int e = x + 1;
		while (e < x1 && !is_protected(g, &grid__line(g, y)->cells[e]))
			e++;
		grid__erase_cells(g, y, x, e, false);
		x = e;
	}
	if (wrap_end)
		grid__line_raw(g, y)->flags &= (uint16_t)~(LINE_WRAPPED | LINE_WIDE_WRAP);
}

void grid__iso_erase(struct grid *g, uint8_t final, int v)
{
	const int cols = g->cols;
	switch (final) {
	case 'J':
		if ((unsigned)v > 2) {
			grid__erase_display(g, v, false); /* 3: the scrollback, which has no protection */
			return;
		}
		g->wrap_pending = false;
		for (int y = 0; y < g->rows; y++) {
			if ((v == 0 && y < g->cy) || (v == 1 && y > g->cy))
				continue;
			const int x0 = v == 0 && y == g->cy ? g->cx : 0;
			const int x1 = v == 1 && y == g->cy ? g->cx + 1 : cols;
			erase_span(g, y, x0, x1, x1 == cols);
		}
		return;
	case 'K':
		if ((unsigned)v > 2)
			return; /* a pending wrap kept, as grid__erase_line */
		g->wrap_pending = false;
		const int x1 = v == 1 ? g->cx + 1 : cols;
		erase_span(g, g->cy, v == 0 ? g->cx : 0, x1, x1 == cols);
		return;
	case 'X':
		/* ECH: v the count; the row's wrap ends whatever the extent, as grid__erase_chars */
		g->wrap_pending = false;
		erase_span(g, g->cy, g->cx, grid__min(g->cx + grid__max(v, 1), cols), true);
		return;
	default:
		return;
	}
}
