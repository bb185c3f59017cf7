/* grid/grid-erase.c: erase of cells, lines and the display (ED, EL, ECH, DECSED, DECSEL), with EL's byte
 * handler (the rest of the cursor's editing: grid-edit.c; characters: grid-shift.c).
 *
 * Reference: xterm's ctlseqs (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html) and the VT510 manual
 * (https://vt100.net/docs/vt510-rm/). Deliberate choices:
 * - Erased cells take the pen's background colour only (xterm's back-colour erase).
 * - DECSED and DECSEL leave what DECSCA 1 protected, wide characters cut by an edge included (xterm 379).
 */

#include "grid/grid-csi-num.h"
#include "grid/grid-intern.h"
#include "grid/grid-internal.h"

/* an EL's functions in one page (GRID_PAGE): grid__erase_cells straddled one, and EL jumps to it */
GRID_PAGE_BEGIN("erase");

/* grid__erase_style inline, with the interning too: an EL after a fresh background colour would otherwise
 * call grid-style.c (two to three TB look-ups of an emulated guest) */
static inline __attribute__((always_inline)) uint16_t erase_id(struct grid *g)
{
	if (likely(!g->erase_dirty))
		return g->erase_id;
	struct grid_style s = {0};
	s.bg = g->pen.bg;
	uint64_t a, b;
	grid__style_key(&s, &a, &b);
	struct style_table *t = &g->st;
	const uint64_t h = grid__key_hash(a, b);
	const uint32_t slot = grid__cache_slot(h);
	const uint16_t id = likely(!grid__cache_skip(g, a, b) && t->cache[slot].a == a && t->cache[slot].b == b)
				    ? (uint16_t)t->cache[slot].id
				    : grid__intern_miss(g, a, b, h);
	g->erase_id = id;
	g->erase_dirty = false;
	return id;
}

/* The fill an erase leaves to its caller (f->c NULL: none): EL's handler ends in a jump to it
 * (grid__clear_cells_ret), so that the fill's return is the handler's, one TB look-up of an emulated guest
 * fewer per EL. */
struct erase_fill {
	struct grid_cell *c;
	int n;
	uint16_t style;
};

/* erase_cells' results with f (EL's handler): the erase is done or left in *f, or the caller takes the
 * row's deferred blanks (grid__stale_erase, el_stale), or grid__erase_cells' general way */
enum { ERASE_DONE, ERASE_STALE, ERASE_GENERAL };

/* An erase's end on row y (l), after its cells: the soft wrap, the selection and the damage */
static inline __attribute__((always_inline)) void erase_done(struct grid *g, struct line *l, int y, int x0, int x1,
							     bool sel)
{
	/* a mask, not a branch: x1 follows EL's mode (el_erase), and no branch on the mode precedes it */
	l->flags &= (uint16_t)~((LINE_WRAPPED | LINE_WIDE_WRAP) & -(unsigned)(x1 == g->cols));
	if (sel && g->sel.active)
		grid__select_touch(g, y, y);
	/* inline: a call to grid.c and its return cost an emulated guest two look-ups per erase */
	grid__damage_inline(g, y, x0 - 1, x1 + 1);
}

static inline bool protected_cell(struct grid *g, const struct grid_cell *c)
{
	return grid_style(g, c->style)->attrs & GRID_ATTR_PROTECTED;
}

/* DECSED's and DECSEL's erase of cells [x0, x1) of a row: the cells DECSCA 1 did not protect become blanks in
 * the erase style es, as ED's and EL's do (xterm 379, measured with tests/tools/xterm-diff.py --attrs: the
 * pen's background, no attributes; cases decsed-erase-style*), the protected ones stay as they are. Out of
 * line: the plain erases do not carry it. */
static __attribute__((noinline, cold)) void erase_unprotected(struct grid *g, struct line *l, int x0, int x1,
							    uint16_t es)
{
	/* a wide character cut by either edge goes whole, as ED's (the half outside a blank in the erase style),
	 * unless it is protected: then both halves stay (xterm 379, measured) */
	if (grid__inner_col(x0, g->cols) && l->cells[x0].width == 0 && !protected_cell(g, &l->cells[x0 - 1]))
		x0--;
	if (grid__inner_col(x1, g->cols) && l->cells[x1].width == 0 && !protected_cell(g, &l->cells[x1 - 1]))
		x1++;
	for (int x = x0; x < x1;) {
		if (protected_cell(g, &l->cells[x])) {
			x++;
			continue;
		}
		int e = x + 1;
		while (e < x1 && !protected_cell(g, &l->cells[e]))
			e++;
		grid__clear_cells(&l->cells[x], e - x, es);
		x = e;
	}
	/* a coloured blank is text to keep (the default ones past used are blanks already) */
	if (es)
		grid__line_touch(l, x1);
}

/* grid__erase_cells' body, inline in EL's handler too (el_erase); with f, a plain erase's fill is stored in *f
 * for the caller to do after it (the rest of the erase reads no cell), not done here, and the erase makes no
 * call: the caller has resolved the erase style, and an erase's deferred row (LINE_STALE), another deferred
 * row (LINE_LAZY) or an active selection returns before anything is written, for the caller to go on (see
 * ERASE_DONE) with no register saved on the common way. */
static inline __attribute__((always_inline)) int erase_cells(struct grid *g, int y, int x0, int x1, bool selective,
							     struct erase_fill *f)
{
	if (x0 >= x1)
		return ERASE_DONE;
	/* (the early way out reads only used and the flags: a deferred row, LINE_LAZY, stays so) */
	struct line *l = grid__line_raw(g, y);
	uint16_t es = f ? g->erase_id : erase_id(g);
	if (f && unlikely(g->sel.active))
		return ERASE_GENERAL;
	if (!selective && es == 0 && x0 >= l->used && !g->sel.active) {
		/* Already default blanks: nothing to draw again. Shells erase below the cursor (ED 0) on every
		 * Backspace; damaging the blank rows under the prompt would repaint most of the screen per key. */
		if (x1 == g->cols)
			l->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP);
		return ERASE_DONE;
	}
	/* an erase's deferred row: its blanks and this erase stored once (out of this page) */
	if (unlikely(l->flags & LINE_STALE) && !selective) {
		if (f)
			return ERASE_STALE;
		grid__stale_erase(g, l, x0, x1, es, 0);
		goto done;
	}
	if (!f)
		grid__line_ready(l);
	else if (unlikely(l->flags & LINE_LAZY))
		return ERASE_GENERAL;
	if (selective) {
		l->flags &= ~LINE_ASCII;
		erase_unprotected(g, l, x0, x1, es);
		goto done;
	}
	grid__fix_wide_edges(l, g->cols, x0, x1, es);
	/* the cells before x0 keep their text: only an erase to the end in default blanks leaves a LINE_ASCII
	 * line so (its used mark moves back to x0) */
	if (es || x1 != g->cols || x0 > l->used)
		l->flags &= ~LINE_ASCII;
	struct erase_fill e = {&l->cells[x0], x1 - x0, es};
	if (es) {
		grid__line_touch(l, x1);
	} else if (x1 == g->cols) {
		/* [used, cols) are default blanks already */
		e.n = l->used - x0;
		l->used = (uint16_t)x0;
	}
	if (f)
		*f = e;
	else
		grid__clear_cells(e.c, e.n, e.style);
done:
	erase_done(g, l, y, x0, x1, !f);
	return ERASE_DONE;
}

GRID_PAGE("erase") void grid__erase_cells(struct grid *g, int y, int x0, int x1, bool selective)
{
	erase_cells(g, y, x0, x1, selective, NULL);
}

/* Whole rows [y0, y1) erased: with a coloured background, the rows after the first are filled straight (no
 * per-row checks: the first row resolved the erase style, and a whole row has no wide character cut in half). */
static void erase_rows(struct grid *g, int y0, int y1, bool selective)
{
	if (y0 >= y1)
		return;
	/* grid_work: a blank row costs a test, a written one a clear of its cells; the text it held was counted
	 * (or paid for by its bytes) when written, so a row is a thirty-second of a fill (measured: 0.4 us for
	 * ED 0 at the home of a blank 212x82 screen) */
	g->work += (uint64_t)(y1 - y0) * (uint64_t)g->cols / 32u; /* not grid__work: see there */
	grid__erase_cells(g, y0, 0, g->cols, selective);
	uint16_t es = g->erase_id; /* resolved by the call above */
	if (selective || es == 0 || g->sel.active) {
		for (int y = y0 + 1; y < y1; y++)
			grid__erase_cells(g, y, 0, g->cols, selective);
		return;
	}
	grid__clear_rows(g, y0 + 1, y1, es);
}

/* Modes 0..2 end a pending wrap; 3 and an unknown mode leave it (xterm: only its screen erases ResetWrap) */
void grid__erase_display(struct grid *g, int mode, bool selective)
{
	if ((unsigned)mode <= 2)
		g->wrap_pending = false;
	switch (mode) {
	case 0:
		grid__erase_cells(g, g->cy, g->cx, g->cols, selective);
		erase_rows(g, g->cy + 1, g->rows, selective);
		break;
	case 1:
		erase_rows(g, 0, g->cy, selective);
		grid__erase_cells(g, g->cy, 0, g->cx + 1, selective);
		break;
	case 2:
		erase_rows(g, 0, g->rows, selective);
		break;
	case 3: {
		/* xterm: erase saved lines; the screen stays. They are the primary screen's, erased from the
		 * alternate screen too (xterm's savedlines = 0 whichever is shown); DECSED 3 erases none. */
		struct screen *s = &g->primary;
		if (selective)
			break;
		/* only a selection reaching into the history goes (before its lines do, to unmark them): the
		 * screen's text and line numbers stay */
		if (g->sel.active && !g->sel.on_alt && g->sel.y0 < s->abs_top)
			grid_select_clear(g);
		s->sb_n = 0;
		grid__hist_reset(s);
		grid__gc_unwait(g); /* the entries that filled the tables may have been the history's */
		if (g->view_offset) {
			g->view_offset = 0;
			grid_damage_all(g);
		}
		break;
	}
	default:
		break;
	}
}

/* EL mode's cells [*x0, *x1) on the cursor's row; false for an unknown mode */
static inline bool erase_line_span(const struct grid *g, int mode, int *x0, int *x1)
{
	switch (mode) {
	case 0: *x0 = g->cx, *x1 = g->cols; return true;
	case 1: *x0 = 0, *x1 = g->cx + 1; return true;
	case 2: *x0 = 0, *x1 = g->cols; return true;
	default: return false;
	}
}

/* an unknown mode leaves a pending wrap as it was (xterm) */
GRID_PAGE("erase") void grid__erase_line(struct grid *g, int mode, bool selective)
{
	int x0, x1;
	if (!erase_line_span(g, mode, &x0, &x1))
		return;
	g->wrap_pending = false;
	grid__erase_cells(g, g->cy, x0, x1, selective);
}

/* EL's erase on the general way (grid__erase_cells): a deferred row or an active selection */
GRID_PAGE("erase") __attribute__((noinline)) static size_t el_general(struct grid *g, int x0, int x1, size_t n)
{
	grid__erase_cells(g, g->cy, x0, x1, false);
	return n;
}

/* EL on an erase's deferred row (ERASE_STALE): the row's end first, then the cells (a jump). Out of the erase
 * page, which it would outgrow: deferred rows are only on large screens (GRID_STALE_MIN_CELLS), not the
 * emulated guest's. */
__attribute__((noinline)) static size_t el_stale(struct grid *g, int x0, int x1, size_t n)
{
	struct line *l = grid__line_raw(g, g->cy);
	erase_done(g, l, g->cy, x0, x1, false);
	return grid__stale_erase(g, l, x0, x1, g->erase_id, n);
}

/* EL mode v (0, 1 or 2) once the erase style is resolved: the erase inline and no call, only jumps (to the
 * fill, to el_general), so that no register is saved on its way; the erase style's interning (a fresh id,
 * with a collection behind it) made the handler push six (docs/benchmarks.md, issue 2, session 27) */
GRID_PAGE("erase") __attribute__((noinline)) static size_t el_erase(struct grid *g, int v, size_t n)
{
	/* erase_line_span's cells for a known mode, by masks (GCC: sbb, cmov): csi's EL modes come in no order,
	 * and the switch's branches were 0.7 simulated mispredictions an EL */
	const int cx = g->cx, cols = g->cols;
	const int x0 = cx & -(int)(v == 0), x1 = cols + ((cx + 1 - cols) & -(int)(v == 1));
	struct erase_fill f = {NULL, 0, 0};
	const int r = erase_cells(g, g->cy, x0, x1, false, &f);
	if (f.c)
		return grid__clear_cells_ret(f.c, f.n, f.style, n);
	if (unlikely(r != ERASE_DONE))
		return r == ERASE_STALE ? el_stale(g, x0, x1, n) : el_general(g, x0, x1, n);
	return n;
}

/* an EL after a background colour, its erase style resolved (interned) first: by erase_id where the style
 * is not fresh */
GRID_PAGE("erase") __attribute__((noinline)) static size_t el_dirty_intern(struct grid *g, int v, size_t n)
{
	erase_id(g);
	return el_erase(g, v, n);
}

/* ... and erase_id's most common case, a fresh id past the cache (grid__cache_skip and grid__intern_fresh:
 * csi's 7.5 k of 9.6 k such ELs), here without a call, so that no register is saved on its way either */
GRID_PAGE("erase") __attribute__((noinline)) static size_t el_dirty(struct grid *g, int v, size_t n)
{
	struct grid_style s = {0};
	s.bg = g->pen.bg;
	uint64_t a, b;
	grid__style_key(&s, &a, &b);
	if (unlikely(!grid__cache_skip(g, a, b) || !grid__intern_fresh(&g->st, a, b)))
		return el_dirty_intern(g, v, n);
	g->erase_id = (uint16_t)grid__style_take(&g->st, a, b);
	g->erase_dirty = false;
	return el_erase(g, v, n);
}

/* EL from its bytes (vt_sink.csi_bytes_final, see grid-csi.c): here, with the erase inline, so that the
 * emulated guest's EL is the parser's call, the jump to the fill and its return, no other calls between pages
 * (GRID_PAGE); el_dirty and el_erase are jumps in this page */
GRID_PAGE("erase") size_t grid__csi_bytes_el(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	const int v = num_one(s, n);
	if (v < 0)
		return 0;
	g->last_cp = 0;
	if ((unsigned)v > 2)
		return n; /* a pending wrap kept, as grid__erase_line */
	g->wrap_pending = false;
	if (unlikely(g->erase_dirty))
		return el_dirty(g, v, n);
	return el_erase(g, v, n);
}

void grid__erase_chars(struct grid *g, int n)
{
	g->wrap_pending = false;
	int x1 = grid__min(g->cx + grid__max(n, 1), g->cols);
	grid__erase_cells(g, g->cy, g->cx, x1, false);
	/* xterm's ECH is its EL 0 (ClearRight) with a count: the row's wrap ends, whatever the extent */
	grid__line_raw(g, g->cy)->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP);
}
