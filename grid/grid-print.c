/* grid/grid-print.c: writing printable characters into the grid, joining clusters, charsets and REP.
 *
 * The ASCII path writes a whole run into the row per call: margins, insert mode, charset, width and the pen
 * are decided once per run (or once per row segment), not per character. Deferred autowrap as in xterm and
 * DEC STD 070: printing into the last column leaves the cursor there with a pending wrap; the next printable
 * character wraps first and marks the row soft-wrapped.
 *
 * Combining marks and the code points that continue a grapheme cluster (vt_grapheme_break: ZWJ sequences,
 * VS16, regional-indicator pairs) join the character printed just before, if the cursor still sits right
 * after it (as in libvterm; xterm 379 puts one after a cursor move on the character under the cursor, a
 * divergence docs/conformance.md lists; the join is grid__cluster_attach, grid-cluster.c). A cluster is stored
 * once in the cluster table (grid-cluster.c); a cell holding one has GRID_CP_CLUSTER | index. A cluster keeps
 * at most CLUSTER_MAX_CPS code points: further marks are dropped, so endless marks on one cell stay bounded.
 */
#include <stddef.h>
#include <string.h>

#include "grid/grid-intern.h"
#include "grid/grid-print.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* the ASCII text path's functions (~3.9 KiB, with the pen's cache and a fresh pen's id inline:
 * print_ascii_run, ascii_styled, ascii_place, ascii_start and the AVX2 writers of runs under 32 cells) in one
 * page (GRID_PAGE); the run over the right edge, a run meeting a deferred row (ascii_meet), a run's pen past
 * the cache (ascii_pen_slow) and the one cell after a colour change (put_one_dirty: doom_fire's, called mostly
 * from grid__print, which is in no page, with its pen_miss), in one of their own */
GRID_PAGE_BEGIN("print");
GRID_PAGE_BEGIN("print_rows");

/* grid__index, its step within the screen inline (csi's wraps: a call, its return and a TB look-up saved) */
static inline __attribute__((always_inline)) void wrap_step(struct grid *g)
{
	if (g->cy != g->bottom)
		g->cy += g->cy < g->rows - 1;
	else
		grid__index(g);
}

/* The wrap indexes from the column it wraps at, then goes to the left margin (xterm's WrapLine): wrapping
 * right of the right margin (DECLRMM) at the bottom margin scrolls nothing, the cursor being outside the
 * margins there. The column wrapped at is never left of the left margin. */
void grid__do_wrap(struct grid *g)
{
	/* the row's line goes on: a selection holding it holds another text now (its line end gone) */
	if (unlikely(g->sel.active))
		grid__select_touch(g, g->cy, g->cy);
	/* (only the flag: a LINE_LAZY row may stay so) */
	grid__line_raw(g, g->cy)->flags |= LINE_WRAPPED;
	g->wrap_pending = false;
	wrap_step(g);
	g->cx = g->left;
}

/* ------------------------------------------------------------------------------------------- print */

static void insert_blanks(struct grid *g, struct line *l, int x, int right, int n)
{
	l->flags &= ~LINE_ASCII;
	grid__fix_wide(g, l, x, right + 1);
	if (right + 1 - x > n)
		memmove(&l->cells[x + n], &l->cells[x], (size_t)(right + 1 - x - n) * sizeof(struct grid_cell));
	grid__fix_wide(g, l, right + 1, right + 1);
	l->used = (uint16_t)g->cols;
	if (l->cells[right].width == 2)
		l->cells[right].cp = 0, l->cells[right].width = 1;
	/* right + 1 too: the right half of a wide character the margin cut, blanked above (ICH's damage has it) */
	grid__damage(g, g->cy, x, right + 2);
}

/* The right edge the printer writes up to (grid__right_limit), on a double row its half (grid-dbl.h). */
static inline int print_right(const struct grid *g)
{
	const int right = grid__right_limit(g);
	return unlikely(g->dbl_any) ? grid__dbl_right(g, right) : right;
}

static void print_one(struct grid *g, uint32_t cp, int w, uint16_t style)
{
	if (g->wrap_pending && g->autowrap)
		grid__do_wrap(g);
	int right = print_right(g);
	int left = grid__left_limit(g);
	/* past a double row's half (CUP can put the cursor there): xterm 379 writes nothing and the cursor stays */
	if (unlikely(g->cx > right))
		return;
	if (w == 2 && g->cx == right) {
		if (right == left)
			return; /* a one-column line cannot hold it */
		if (!g->autowrap) {
			/* xterm's dotext writes nothing, leaves the cursor there and ends a pending wrap (do_wrap):
			 * with DECAWM set again the next character overwrites the last column (case
			 * wide-nowrap-ends-wrap) */
			g->wrap_pending = false;
			return;
		}
		grid__line_raw(g, g->cy)->flags |= LINE_WIDE_WRAP;
		grid__do_wrap(g);
		right = print_right(g);
		if (unlikely(g->dbl_any) && g->cx + 1 > right)
			return; /* a one-column half (a double row of a 1- or 2-column screen) cannot hold it */
	}
	struct line *l = grid__line(g, g->cy);
	int x = g->cx;
	/* before insert mode moves the cells: the selection's marks are cleared where it lies, and would move
	 * with them */
	if (g->sel.active)
		grid__select_touch(g, g->cy, g->cy);
	/* insert mode makes room only inside the left/right margins; outside them the character overwrites
	 * (xterm's InsertChar does nothing there) */
	if (g->insert && x >= g->left && x <= g->right)
		insert_blanks(g, l, x, grid__right_limit(g), w);
	grid__fix_wide(g, l, x, x + w);
	grid__line_touch(l, x + w);
	l->flags &= ~LINE_ASCII;
	l->cells[x] = (struct grid_cell){.cp = cp, .style = style, .link = g->link, .width = (uint8_t)w};
	if (w == 2)
		l->cells[x + 1] = (struct grid_cell){.cp = 0, .style = style, .link = g->link, .width = 0};
	grid__damage(g, g->cy, x - 1, x + w + 1);
	g->last_x = x;
	g->last_y = g->cy;
	g->last_w = w;
	g->gb_prev = cp;
	g->gb_state = 0;
	if (x + w > right) {
		g->cx = right;
		g->wrap_pending = true; /* with or without autowrap (grid-internal.h) */
	} else {
		g->cx = x + w;
	}
}

/* The inner loop of print_run: writes cps[i..n) from cell *xp on while they are plain and fit before
 * column lim; cps[i] is known to be plain and to fit. Returns the index of the first code point not
 * written; *xp is the column after the last one written, *lastw its width. Out of line: inlined into
 * print_cps its few values no longer stay in registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t put_plain(struct grid_cell *c, uint32_t *xp, uint32_t lim, const uint32_t *cps, size_t i,
			       size_t n, uint64_t hi, uint32_t *lastw)
{
	struct grid_cell *p = c + *xp, *const end = c + lim;
	uint32_t cp = cps[i], w = vt_char_plain_width(cp);
	for (;;) {
		grid__put_cell(p, cp, hi, w);
		if (w == 2)
			grid__put_cell(p + 1, 0, hi, 0);
		p += w;
		if (++i == n)
			break;
		cp = cps[i];
		w = vt_char_plain_width(cp);
		if (w == 0 || p + w > end)
			break;
	}
	*xp = (uint32_t)(p - c);
	*lastw = vt_char_plain_width(cps[i - 1]);
	return i;
}

/* The run path for code points: writes as many as fit on the cursor's row without a wrap, with the
 * per-row questions answered once. It takes plain characters (vt_char_plain_width: a cluster boundary
 * before and after each) and combining marks (zero-width Extend) on a plain base that is not an emoji
 * (whose cluster rules, GB11, need the segmentation state); anything else ends the run. Returns how many
 * code points were consumed (0: the first one needs print_one or attach). Only with no charset mapping
 * and no insert mode. */
static size_t print_run(struct grid *g, const uint32_t *cps, size_t n, uint16_t style)
{
	if (g->wrap_pending)
		return 0;
	uint32_t cp = cps[0];
	uint32_t w = vt_char_plain_width(cp);
	if (w == 0)
		return 0;
	if (g->last_x >= 0 && grid__may_join(g->gb_prev, cp)) {
		/* only the slow path may change the segmentation state */
		uint32_t st = g->gb_state;
		if (!vt_grapheme_break(g->gb_prev, cp, &st))
			return 0;
	}
	const int right = print_right(g), x0 = g->cx;
	if (x0 + (int)w > right + 1)
		return 0;
	struct line *l = grid__line(g, g->cy);
	struct grid_cell *c = l->cells;
	const bool fix_left = x0 > 0 && c[x0].width == 0;
	const uint64_t hi = (uint64_t)style << 32 | (uint64_t)g->link << 48;
	const uint32_t lim = (uint32_t)right + 1;
	uint32_t x = (uint32_t)x0, lastw;
	size_t i = 0;
	for (;;) {
		i = put_plain(c, &x, lim, cps, i, n, hi, &lastw);
		if (i == n)
			break;
		/* cps[i] is not plain, or does not fit. Combining marks (non-spacing, Extend) on a base that
		 * is no emoji are attached here. */
		uint32_t next = cps[i];
		if (vt_char_props(next) != VT_PROP_MARK || vt_char_props(cps[i - 1]) & VT_PROP_EXTPICT)
			break;
		do {
			grid__attach_mark(g, &c[x - lastw], next);
			if (++i == n)
				break;
			next = cps[i];
		} while (vt_char_props(next) == VT_PROP_MARK);
		if (i == n)
			break;
		w = vt_char_plain_width(next);
		if (w == 0 || x + w > lim)
			break;
	}
	grid__end_run(g, l, x0, x, lastw, fix_left, cps[i - 1]);
	if (unlikely((int)x > right)) {
		/* a double row's half reached (end_run knows the row's edge only) */
		g->cx = right;
		g->wrap_pending = true;
	}
	return i;
}

static void print_cps(struct grid *g, const uint32_t *cps, size_t n)
{
	uint16_t style = grid__cur_style(g);
	const bool runs = g->charsets[g->gl] == CHARSET_ASCII && !g->insert;
	for (size_t i = 0; i < n; i++) {
		if (runs && !g->single_shift) {
			size_t k = print_run(g, cps + i, n - i, style);
			i += k;
			if (i >= n)
				break;
		}
		uint32_t cp = cps[i];
		if (cp < 0x7f) {
			uint8_t cs = g->charsets[g->gl];
			if (unlikely(g->single_shift)) {
				cs = g->charsets[g->single_shift];
				g->single_shift = 0;
				grid__print_mode(g);
			}
			if (cs != CHARSET_ASCII)
				cp = grid__map_charset(cs, cp);
		} else if (unlikely(g->single_shift) && vt_char_width(cp) > 0) {
			/* the shift is for the next character with a width: a combining mark joins the one before
			 * it and leaves the shift pending (xterm) */
			g->single_shift = 0;
			grid__print_mode(g);
		}
		int w = vt_char_width(cp);
		if (w <= 0) {
			/* a mark leaves REP as it found it: disarmed after a control (xterm 379: `a CSI 31 m`,
			 * a mark, then REP repeats nothing), armed to repeat the character it joins otherwise */
			if (g->last_cp)
				g->last_cp = cps[i];
			if (cp >= 0x20) {
				/* Zero-width code points never break (GB9), but the segmentation state must see
				 * them: GB11 joins an emoji after "ExtPict Extend* ZWJ". */
				(void)vt_grapheme_break(g->gb_prev, cp, &g->gb_state);
				grid__cluster_attach(g, cp);
			}
			continue;
		}
		/* as received: REP maps it through GL again (xterm), so that a single shift applies once */
		g->last_cp = cps[i];
		if (g->last_x >= 0 && grid__may_join(g->gb_prev, cp) &&
		    !vt_grapheme_break(g->gb_prev, cp, &g->gb_state) && grid__cluster_attach(g, cp))
			continue;
		print_one(g, cp, w, style);
	}
}

/* The one-cell path of grid__print and grid__print_ascii: a single-width character cp that joins nothing
 * before it, with no wrap pending, no charset mapping, no insert mode and no selection (the callers check
 * those), in the pen's style (interned: style). When the cursor is not at the right edge and not on half of
 * a wide character it is one cell store and the bookkeeping here; returns false (nothing done) otherwise. */
static inline bool put_one(struct grid *g, uint32_t cp, uint16_t style)
{
	int x = g->cx, y = g->cy;
	struct line *l = grid__line_raw(g, y);
	struct grid_cell *c = &l->cells[x];
	/* x >= grid__right_limit(g), tested as one compare where the cursor is left of the right margin (the
	 * limit is the margin when x is not past it, the screen's edge when it is). A row that keeps its text
	 * (LINE_ASCII, maybe with its cells deferred: LINE_LAZY) goes the callers' general way, which writes
	 * the cells and drops the text: one test instead of clearing the flag here, and no call (which would
	 * cost this path a stack frame). */
	if (unlikely(x >= g->right && (x == g->right || x >= g->cols - 1)) || unlikely(l->flags & (LINE_ASCII | LINE_LAZY)))
		return false;
	if (unlikely(c[0].width != 1 || c[1].width == 0))
		return false;
	grid__put_cell(c, cp, (uint64_t)style << 32 | (uint64_t)g->link << 48, 1);
	grid__line_touch(l, x + 1);
	/* x + 2 <= cols: x is left of the right limit, which is at most cols - 1 */
	grid__damage_within(g, y, x - 1, x + 2);
	g->cx = x + 1;
	g->last_cp = g->gb_prev = cp;
	g->last_x = x;
	g->last_y = y;
	g->last_w = 1;
	g->gb_state = 0;
	return true;
}

static void print_ascii_run(struct grid *g, const uint8_t *s, size_t n);

/* grid__pen_id_slow's fresh styles for put_one_dirty, in its page: a fresh colour's cell would otherwise call
 * grid-style.c, and that call's return cost an emulated guest a TB look-up more (GRID_PAGE); the index's probe
 * jumps there (the page has no room for it) */
GRID_PAGE("print_rows") __attribute__((noinline)) static uint16_t pen_miss(struct grid *g, uint64_t a, uint64_t b,
									   uint64_t h)
{
	struct style_table *t = &g->st;
	if (grid__intern_fresh(t, a, b))
		return grid__pen_learn(g, grid__fresh_take(g, a, b, h));
	return grid__pen_id_slow(g, a, b, h);
}

/* put_one when the pen changed since its style was last interned (a colour per cell): the interning call
 * out of line, so that the callers' common path calls nothing and saves no registers. Falls back to the
 * general paths as the callers would (they intern the pen first too). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
GRID_PAGE("print_rows") static void put_one_dirty(struct grid *g, uint32_t cp)
{
	uint16_t style = grid__pen_id_via(g, pen_miss);
	if (put_one(g, cp, style))
		return;
	if (cp < 0x80) {
		uint8_t b = (uint8_t)cp;
		print_ascii_run(g, &b, 1);
	} else {
		print_cps(g, &cp, 1);
	}
}

/* Whether cp is plain and one column wide (vt_char_plain_width). Box drawing and block elements
 * (U+2500..U+259F: text UIs' frames, bars and half-block art) all are (tests/grid/test-print.c checks it
 * against the table): no table lookup for them. */
static inline bool plain_width1(uint32_t cp)
{
	return cp - 0x2500u < 0xa0u || vt_char_plain_width(cp) == 1;
}

void grid__print(void *ctx, const uint32_t *cp, size_t n)
{
	struct grid *g = ctx;
	if (n == 1 && plain_width1(cp[0]) &&
	    likely(!g->wrap_pending && !g->print_mapped && !g->sel.active &&
		   !(g->last_x >= 0 && grid__may_join_cell(g->gb_prev, cp[0])))) {
		/* One plain single-width character between escape sequences (grid__print_ascii's one-character
		 * path for the rest of Unicode): not at the right edge, not over half of a wide character and
		 * not joining the character before it, it is one cell store. */
		if (unlikely(g->pen_dirty)) {
			put_one_dirty(g, cp[0]);
			return;
		}
		if (put_one(g, cp[0], g->pen_id))
			return;
	}
	print_cps(g, cp, n);
}

#include "grid/grid-write.h"

/* the rows' text and deferred cells: text_copy, text_start, lazy_start, lazy_more, lazy_put */
#include "grid/grid-print-text.h"

/* Out of the print pages: called once for a row that a reader or another writer reaches while its cells
 * are deferred (LINE_LAZY), which in a flood is the rare row that is not only printed and pushed. */
void grid__line_materialise(struct line *l)
{
	const unsigned f = l->flags;
	l->flags &= (uint16_t)~(LINE_LAZY | LINE_STALE);
	if (f & LINE_STALE) {
		/* an erase's row (grid__clear_rows): every cell the blank of cell 0 */
		grid__clear_cells(l->cells, l->ncells, l->cells[0].style);
		return;
	}
	if (l->used)
		write_ascii(l->cells, l->text, l->used, l->pstyle, 0);
}

/* print_ascii_run with a charset mapping, a single shift or insert mode: through the general path. */
__attribute__((noinline)) static void print_ascii_mapped(struct grid *g, const uint8_t *s, size_t n)
{
	/* only a double row once on the screen, none now (it scrolled away): the fast paths again */
	if (g->dbl_any && !grid__dbl_cursor_row(g) && !g->insert && !g->single_shift &&
	    g->charsets[g->gl] == CHARSET_ASCII) {
		grid__dbl_recount(g);
		if (!g->print_mapped) {
			print_ascii_run(g, s, n);
			return;
		}
	}
	uint32_t buf[256];
	while (n > 0) {
		size_t k = n < 256 ? n : 256;
		for (size_t i = 0; i < k; i++)
			buf[i] = s[i];
		print_cps(g, buf, k);
		s += k;
		n -= k;
	}
}

/* print_ascii_run's run over the right edge or after a pending wrap: row segment by row segment. */
GRID_PAGE("print_rows")
__attribute__((noinline)) static void print_ascii_rows(struct grid *g, const uint8_t *s, size_t n, uint16_t style,
						       uint16_t link)
{
	struct line *l;
	if (g->wrap_pending && g->autowrap) {
		l = grid__line_raw(g, g->cy);
		g->wrap_pending = false;
		goto wrap;
	}
	for (;;) {
		int right = grid__right_limit(g);
		int x = g->cx;
		l = grid__line_raw(g, g->cy);
		size_t room = (size_t)(right + 1 - x);
		size_t k = n < room ? n : room;
		struct grid_cell *c = &l->cells[x];
		/* column 0 as ascii_start (a flood's rows text alone); not an erase's row (k == used == ncells passes) */
		if ((x | g->text_from) == 0 && lazy_start(l, k, style, link) && !(l->flags & LINE_STALE)) {
			lazy_put(l, 0, s, k, style);
		} else {
			grid__line_ready(l);
			grid__fix_wide(g, l, x, x + (int)k);
			if (x >= g->text_from) {
				if (x == 0)
					text_start(l, s, k, style, link);
				else
					l->flags &= ~LINE_ASCII;
			}
			grid__line_touch(l, x + (int)k);
			write_ascii_by(c, s, k, style, link, true, false);
		}
		if (unlikely(g->sel.active))
			grid__select_touch(g, g->cy, g->cy);
		/* inline: grid.c's call and return cost an emulated guest two TB look-ups per row segment */
		grid__damage_inline(g, g->cy, x - 1, x + (int)k + 1);
		s += k;
		n -= k;
		g->last_y = g->cy;
		if (k < room) {
			g->last_x = (g->cx = x + (int)k) - 1;
			return;
		}
		g->cx = g->last_x = right;
		if (n == 0 || !g->autowrap) {
			/* without autowrap the rest lands on the last column: only its last byte stays (its cell on a
			 * row of cells: a lazy row's stay blank) */
			if (n > 0) {
				l->text[x + (int)k - 1] = s[n - 1];
				if (!(l->flags & LINE_LAZY))
					c[k - 1].cp = s[n - 1];
			}
			g->wrap_pending = true;
			return;
		}
		/* grid__do_wrap's at once when more follows: the pending flag not stored and tested, the row at hand */
	wrap:
		/* as grid__do_wrap: the index from the column wrapped at, then the left margin */
		if (unlikely(g->sel.active))
			grid__select_touch(g, g->cy, g->cy);
		l->flags |= LINE_WRAPPED;
		wrap_step(g);
		g->cx = g->left;
	}
}

/* The cells of ascii_styled's run [x, x + n) on row l, its text decided (the row not LINE_LAZY): the wide
 * characters it splits fixed (narrow: it splits none, known or checked by the caller), the extent and the
 * cells. */
static inline __attribute__((always_inline)) void ascii_cells(struct grid *g, struct line *l, const uint8_t *s,
							      size_t n, uint16_t style, int x, bool direct_512,
							      bool narrow)
{
	const int x1 = x + (int)n;
	/* grid__fix_wide, where x1 > 0 is known (n > 0); x != 0, not x > 0 (the column is never negative): after a
	 * test, QEMU's TCG decides a signed jump in a helper call, ~47 emulated instructions per run (guest csi
	 * -0.32 %; docs/benchmarks.md, issue 5, session 24) */
	struct grid_cell *c = l->cells;
	if (!narrow && x != 0 && c[x].width == 0)
		grid__orphan_blank(g, &c[x - 1]);
	if (!narrow && x1 < g->cols && c[x1].width == 0)
		grid__orphan_blank(g, &c[x1]);
	grid__line_touch(l, x1);
	write_ascii_by(&c[x], s, n, style, g->link, false, direct_512);
}

/* ascii_place's run that splits a wide character at an edge: rare, in no page */
__attribute__((noinline)) static void ascii_wide(struct grid *g, struct line *l, const uint8_t *s, size_t n,
						 uint16_t style, int x)
{
	ascii_cells(g, l, s, n, style, x, false, false);
}

/* ascii_styled's run from column x on a row whose cells are deferred (LINE_LAZY) and that the run may not
 * keep so: the cells written first. In the rows' page: ~5 k of csi's 30 k runs per 2 MiB. */
GRID_PAGE("print_rows") __attribute__((noinline)) static void ascii_meet(struct grid *g, struct line *l,
									 const uint8_t *s, size_t n, uint16_t style,
									 int x)
{
	grid__line_materialise(l);
	if (x == 0)
		text_start(l, s, n, style, g->link);
	else
		l->flags &= ~LINE_ASCII;
	/* a deferred row's cells are all of width 1 once written (LINE_LAZY, LINE_STALE: the text and default
	 * blanks, or an erase's blanks), so the run splits no wide character: its edge cells' width bytes are not
	 * read. They had just been stored by the row's fill (64-byte stores), which a load cannot be forwarded
	 * from: on the AVX-512 host three quarters of ascii_meet's samples sat on those two loads. */
	ascii_cells(g, l, s, n, style, x, false, true);
}

/* ascii_start's run that cuts a wide character at its end, its text started: rare, in no page. The pen's id
 * read here again, not passed: an argument made ascii_start widen it on every run. */
__attribute__((noinline)) static void ascii_start_wide(struct grid *g, struct line *l, const uint8_t *s, size_t n)
{
	ascii_cells(g, l, s, n, g->pen_id, 0, false, false);
}

/* ascii_styled's run from column 0 on a row that may reach the scrollback (grid.text_from 0), the cursor and
 * the damage done: kept as text alone (LINE_LAZY) when lazy_start allows, or with its text (text_start) and its
 * cells */
GRID_PAGE("print") __attribute__((noinline)) static void ascii_start(struct grid *g, const uint8_t *s, size_t n)
{
	/* the pen's id, resolved by the caller (grid__pen_learn) */
	const uint16_t style = g->pen_id;
	struct line *l = grid__line_raw(g, g->cy);
	if (lazy_start(l, n, style, g->link)) {
		lazy_put(l, 0, s, n, style);
		return;
	}
	if (unlikely(l->flags & LINE_LAZY)) {
		ascii_meet(g, l, s, n, style, 0);
		return;
	}
	/* a wide character the run's end cuts: apart (its blank's erase style is a call, which would make every
	 * run here save registers) */
	text_start(l, s, n, style, g->link);
	if (unlikely((int)n < g->cols && l->cells[n].width == 0)) {
		ascii_start_wide(g, l, s, n);
		return;
	}
	ascii_cells(g, l, s, n, style, 0, true, true);
}

/* ascii_place's run from column x > 0 on a row whose cells are deferred (LINE_LAZY): into its text when
 * lazy_more allows, or the cells written first (ascii_meet) */
GRID_PAGE("print") __attribute__((noinline)) static void ascii_more(struct grid *g, struct line *l, const uint8_t *s,
								    size_t n, uint16_t style, int x)
{
	if (lazy_more(l, x, style, g->link)) {
		lazy_put(l, x, s, n, style);
		return;
	}
	ascii_meet(g, l, s, n, style, x);
}

/* ascii_styled's run [x, x + n) on the cursor's row (not from column 0 of a row that may reach the scrollback:
 * ascii_start), the cursor and the damage done: the row's text decided and the cells written. Every call it
 * makes is a tail call, and the paths that copy text (from column 0, onto a deferred row) and a run splitting a
 * wide character go to functions of their own: csi's common run (x > 0 on a row of cells) then needs no
 * callee-saved register (ascii_styled saved and restored three on every run). */
GRID_PAGE("print") __attribute__((noinline)) static void ascii_place(struct grid *g, const uint8_t *s, size_t n, int x)
{
	/* the pen's id, resolved by the caller (grid__pen_learn) */
	const uint16_t style = g->pen_id;
	struct line *l = grid__line_raw(g, g->cy);
	if (x >= g->text_from) {
		/* rows may reach the scrollback (grid.text_from; x > 0: the caller sent column 0 to ascii_start): a
		 * flood's row keeps only its text (LINE_LAZY), its cells written when something else reaches them */
		if (unlikely(l->flags & LINE_LAZY)) {
			ascii_more(g, l, s, n, style, x);
			return;
		}
		l->flags &= ~LINE_ASCII;
	}
	const struct grid_cell *c = l->cells;
	const int x1 = x + (int)n;
	if (unlikely((x != 0 && c[x].width == 0) || (x1 < g->cols && c[x1].width == 0))) {
		ascii_wide(g, l, s, n, style, x);
		return;
	}
	ascii_cells(g, l, s, n, style, x, true, true);
}

/* ascii_styled's run after the damage: from column 0 of a row that may reach the scrollback (x == 0 and
 * text_from 0, which is 0 or INT_MAX: one OR) to ascii_start, else to ascii_place */
static inline __attribute__((always_inline)) void ascii_go(struct grid *g, const uint8_t *s, size_t n, int x)
{
	if ((x | g->text_from) == 0)
		ascii_start(g, s, n);
	else
		ascii_place(g, s, n, x);
}

/* ascii_styled's damage when it is kept per row (not all: a renderer took the last frame's), then the run. Out
 * of ascii_styled: the row's update needs registers that, inline, it saved and restored on every run (six
 * instructions a run where the whole screen is damaged already). grid__damage_inline's work without its
 * damage_all test (the caller's), x from the cursor the caller stored (x + n) and the row's two places in
 * locals, so that the update needs no callee-saved register either (a row's x1 is 0 while it has no damage,
 * below any run's). */
GRID_PAGE("print") __attribute__((noinline)) static void ascii_damage(struct grid *g, const uint8_t *s, size_t n)
{
	{
		const int x1 = g->cx, x = x1 - (int)n;
		g->damaged = true;
		/* damage is kept per row of the display: while scrolled back, screen row y shows further down */
		const int y = g->cy + (int)g->view_offset;
		if (y < g->rows) {
			const int c0 = x - (x != 0), c1 = x1 + 1 < g->cols ? x1 + 1 : g->cols;
			uint16_t *const d1 = g->dmg_x1 + y, *const d0 = g->dmg_x0 + y;
			const int e1 = *d1;
			if (e1 == 0 || c0 < *d0)
				*d0 = (uint16_t)c0;
			if (c1 > e1)
				*d1 = (uint16_t)c1;
		}
	}
	ascii_go(g, s, n, g->cx - (int)n);
}

/* print_ascii_run's run in the style (interned) once its first character joins nothing before it. Every call
 * it makes is a tail call (print_ascii_rows, ascii_damage, ascii_place), so that it needs few registers:
 * csi's short runs between escape sequences paid ~19 instructions a run for the prologue and epilogue of a
 * function that called on its own paths. */
GRID_PAGE("print") __attribute__((noinline)) static void ascii_styled(struct grid *g, const uint8_t *s, size_t n)
{
	g->last_cp = g->gb_prev = s[n - 1];
	g->gb_state = 0;
	g->last_w = 1;
	/* here, apart from last_x: stored together they took a vector register's round trip (print_ascii_rows
	 * stores it again for its rows) */
	g->last_y = g->cy;
	const int x = g->cx;
	/* (a selection goes the general way too: grid__select_touch is a call) */
	if (unlikely(g->wrap_pending || g->sel.active) || (size_t)(grid__right_limit(g) - x) < n) {
		print_ascii_rows(g, s, n, g->pen_id, g->link);
		return;
	}
	/* The whole run before the right edge, no wrap (the text between escape sequences): one segment, the
	 * bookkeeping first and the cells last, so that nothing is needed after writing them (a tail call). */
	const int x1 = x + (int)n;
	g->cx = x1;
	g->last_x = x1 - 1;
	if (unlikely(!g->damage_all)) {
		ascii_damage(g, s, n);
		return;
	}
	g->damaged = true;
	ascii_go(g, s, n, x);
}

/* print_ascii_run's pen past the style cache (pen_miss: fresh, or through the index's probe), then the run */
GRID_PAGE("print_rows") __attribute__((noinline)) static void ascii_pen_slow(struct grid *g, const uint8_t *s,
									     size_t n, uint64_t a, uint64_t b, uint64_t h)
{
	pen_miss(g, a, b, h);
	ascii_styled(g, s, n);
}

/* print_ascii_run whose first character may join the cluster before it (grid__may_join_cell says so after a
 * complex script's character; vt_grapheme_break, which leaves GB9b out, joins none) */
__attribute__((noinline)) static void print_ascii_joined(struct grid *g, const uint8_t *s, size_t n)
{
	uint32_t cp = s[0];
	print_cps(g, &cp, 1);
	if (n > 1)
		print_ascii_run(g, s + 1, n - 1);
}

/* A run of printable ASCII. Out of line: grid__print_ascii's path for a single character then needs no
 * stack frame. */
GRID_PAGE("print") __attribute__((noinline)) static void print_ascii_run(struct grid *g, const uint8_t *s, size_t n)
{
	if (unlikely(g->print_mapped)) {
		print_ascii_mapped(g, s, n);
		return;
	}
	if (n == 0)
		return;
	if (unlikely(g->gb_prev >= 0x600) && g->last_x >= 0 && grid__may_join_cell(g->gb_prev, s[0])) {
		print_ascii_joined(g, s, n);
		return;
	}
	if (likely(!g->pen_dirty)) {
		ascii_styled(g, s, n);
		return;
	}
	/* grid__pen_id_via, its miss a tail call. While the cache is bypassed (grid__cache_bypass) a fresh
	 * style's id is taken first, here: reached by a jump to a function of this page, as the cache's misses
	 * were (ascii_pen_miss), it cost ~14 instructions more per run; a second copy of the insertion here, for
	 * those misses, overflowed the page's 4 KiB (an emulated guest's TB look-up more per run), so they go to
	 * ascii_pen_slow's page now. */
	uint64_t a, b;
	grid__pen_words(g, &a, &b);
	struct style_table *t = &g->st;
	if (grid__cache_bypass(g) && grid__intern_fresh_run(t, a, b)) {
		grid__pen_learn(g, (uint16_t)grid__style_take(t, a, b));
		ascii_styled(g, s, n);
		return;
	}
	/* the hash after the fresh path, which needs none (GCC does not sink it: 5 instructions a fresh pen) */
	const uint64_t h = grid__key_hash(a, b);
	const uint32_t slot = grid__cache_slot(h);
	if (unlikely(t->cache[slot].a != a || t->cache[slot].b != b)) {
		ascii_pen_slow(g, s, n, a, b, h);
		return;
	}
	grid__pen_learn(g, (uint16_t)t->cache[slot].id);
	ascii_styled(g, s, n);
}

/* The hot path: printable ASCII from the parser. */
GRID_PAGE("print") void grid__print_ascii(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	if (n == 1 && likely(!g->wrap_pending && !g->print_mapped && !g->sel.active &&
			     !(g->gb_prev >= 0x600 && g->last_x >= 0 && grid__may_join_cell(g->gb_prev, s[0])))) {
		/* One character between escape sequences (a cell per SGR): not at the right edge, not over
		 * half of a wide character and not after a character it may join (a Prepend, which the run
		 * path asks about), it is one cell store and the bookkeeping below. */
		if (unlikely(g->pen_dirty)) {
			put_one_dirty(g, s[0]);
			return;
		}
		if (put_one(g, s[0], g->pen_id))
			return;
	}
	print_ascii_run(g, s, n);
}

void grid__rep(struct grid *g, int count)
{
	uint32_t cp = g->last_cp;
	if (cp == 0 || count <= 0)
		return;
	/* a combining mark (or VS16) was the last: the character it is on is repeated, without it (xterm) */
	if (cp >= 0x7f && vt_char_width(cp) <= 0 && (cp = grid__cluster_rep_base(g)) == 0)
		return;
	const bool ascii = cp < 0x7f && g->charsets[g->gl] == CHARSET_ASCII && !g->single_shift;
	int w = 1;
	if (!ascii) {
		if (cp < 0x7f)
			cp = grid__map_charset(g->charsets[g->gl], cp);
		w = vt_char_width(cp);
		if (w <= 0)
			return;
		if (w > 2)
			w = 2;
	}
	/* Past a screenful and a bit, and the scrollback's lines (a line scrolled off the screen goes there, as
	 * it would for the characters written one by one: xterm), every further line's worth only scrolls an
	 * identical line through: drop whole lines' worth, keeping the count modulo a line's repetitions so the
	 * cursor ends where it would. The parser's clamp (VT_PARAM_MAX) bounds the work. After
	 * the first row every line is the margins' width (a cursor right of the right margin runs to the
	 * screen's edge, then wraps to the left margin), and holds width / w characters (a wide one leaves an
	 * odd width's last column empty). The first row may be the screen's width: max covers it. */
	long per = (g->right - g->left + 1) / w;
	long max = (long)g->cols * (g->rows + 2 + (long)g->scr->sb_max);
	/* with double rows about, the line that repeats may be a double row's half (the cursor stuck below the
	 * scroll region on one): a period that both lengths divide */
	long period = unlikely(g->dbl_any) ? per * ((grid__dbl_max(g) + 1) / w) : per;
	if (period <= 0)
		period = 1; /* a wide character on a one-column line: nothing is written, the cursor stays */
	if (count > max)
		count = (int)(max + (count - max) % period);
	grid__work(g, (uint64_t)count); /* grid_work: a few bytes print up to VT_PARAM_MAX characters */
	if (ascii) {
		uint8_t buf[256];
		memset(buf, (int)cp, sizeof(buf));
		while (count > 0) {
			int k = count < 256 ? count : 256;
			grid__print_ascii(g, buf, (size_t)k);
			count -= k;
		}
		return;
	}
	uint16_t style = grid__cur_style(g);
	while (count-- > 0)
		print_one(g, cp, w, style);
}
