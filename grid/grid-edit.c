/* grid/grid-edit.c: cursor motion, scrolling, insert and delete of lines (erase: grid-erase.c; characters:
 * grid-shift.c).
 *
 * Reference: xterm's ctlseqs (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html) and the VT510 manual
 * (https://vt100.net/docs/vt510-rm/). Deliberate choices:
 * - Lines scrolled off the top of a region that starts at the top row of the primary screen go into the
 *   scrollback (xterm does this with any bottom margin); a region that starts lower never feeds it.
 * - Lines scrolled in and inserted take the pen's background colour only (xterm's back-colour erase).
 */
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

/* a line feed's (grid__newline, grid__index, screen_step, push_line): they jump to one another */
GRID_PAGE_BEGIN("step");

static inline __attribute__((always_inline)) void clear_line(struct grid *g, struct line *l)
{
	/* once per scrolled line: the erase style is nearly always resolved already */
	uint16_t style = likely(!g->erase_dirty) ? g->erase_id : grid__erase_style(g);
#if defined(GRID_HAVE_FILL_SSE)
	/* a line of a flood: its written cells rounded up to 16 default blanks (cells [used, ncells) are
	 * blank already), no tail; a short one is twelve stores and no call */
	if (style == 0 && l->used <= 16 && l->ncells >= 16) {
		grid__clear_blanks16(l->cells, 16);
		l->flags = 0;
		l->used = 0;
		return;
	}
	const int n16 = (l->used + 15) & ~15;
	if (style == 0 && n16 <= l->ncells) {
		grid__clear_blanks16(l->cells, n16);
		l->flags = 0;
		l->used = 0;
		return;
	}
#endif
	grid__line_clear(l, g->cols, style);
}

/* Rotates screen rows [y0, y1] of the active screen up by n (row y gets row y + n) with three reversals. */
static void reverse_slots(struct screen *s, int rows, size_t a, size_t b)
{
	(void)rows;
	while (a < b) {
		size_t ia = (s->top + a) % s->cap, ib = (s->top + b) % s->cap;
		struct line *t = s->ring[ia];
		s->ring[ia] = s->ring[ib];
		s->ring[ib] = t;
		a++;
		b--;
	}
}

static void rotate_up(struct grid *g, int y0, int y1, int n)
{
	struct screen *s = g->scr;
	if (n <= 0 || n > y1 - y0)
		return;
	size_t i0 = s->top + (size_t)y0, i1 = s->top + (size_t)y1;
	if (i0 >= s->cap)
		i0 -= s->cap;
	if (i1 >= s->cap)
		i1 -= s->cap;
	if (i0 <= i1 && n <= 16) {
		/* the usual case: the rows sit contiguously in the ring, so this is one pointer memmove */
		struct line *tmp[16];
		memcpy(tmp, &s->ring[i0], (size_t)n * sizeof(*tmp));
		memmove(&s->ring[i0], &s->ring[i0 + (size_t)n], (i1 - i0 + 1 - (size_t)n) * sizeof(*tmp));
		memcpy(&s->ring[i1 + 1 - (size_t)n], tmp, (size_t)n * sizeof(*tmp));
		return;
	}
	const size_t k = (size_t)(y1 - y0 + 1 - n); /* the same as a rotation down by k */
	if (i0 <= i1 && k <= 16) {
		/* SD, IL and RI at the top margin (grid__scroll_down: up by the region less the rows that come in):
		 * one pointer memmove the other way; the three reversals below cost 0.47 us for SD 1 at 212x82,
		 * 8 us at 1000x1000, more than the rest of the scroll */
		struct line *tmp[16];
		memcpy(tmp, &s->ring[i1 + 1 - k], k * sizeof(*tmp));
		memmove(&s->ring[i0 + k], &s->ring[i0], (i1 - i0 + 1 - k) * sizeof(*tmp));
		memcpy(&s->ring[i0], tmp, k * sizeof(*tmp));
		return;
	}
	reverse_slots(s, g->rows, (size_t)y0, (size_t)(y0 + n - 1));
	reverse_slots(s, g->rows, (size_t)(y0 + n), (size_t)y1);
	reverse_slots(s, g->rows, (size_t)y0, (size_t)y1);
}

/* Scrolls rows [top, bottom] of the active screen up by n (row y gets row y + n; the n rows that come in at
 * the bottom are the ones that left, still to be cleared) by stepping the ring's top by n and putting back
 * the few rows outside the region: O(rows outside) pointer moves instead of rotate_up's O(region). Only where
 * the ring has room after the screen that holds no scrollback: the alternate screen (its ring is the screen)
 * and a primary screen whose scrollback is still empty; elsewhere the step would move the scrollback.
 * Returns false when it does not apply. */
#define RING_FIX_MAX 16
static bool ring_region_up(struct grid *g, int top, int bottom, int n)
{
	struct screen *s = g->scr;
	int below = g->rows - 1 - bottom;
	if (top + n + below > RING_FIX_MAX || top + below >= bottom - top + 1 - n)
		return false;
	if (s->cap != (size_t)g->rows && (s->sb_n != 0 || s->cap - (size_t)g->rows < (size_t)n))
		return false;
	struct line *keep[RING_FIX_MAX];
	int k = 0;
	for (int y = 0; y < top + n; y++)
		keep[k++] = grid__line(g, y);
	for (int y = bottom + 1; y < g->rows; y++)
		keep[k++] = grid__line(g, y);
	s->top = (s->top + (size_t)n) % s->cap;
	k = 0;
	for (int y = 0; y < top; y++)
		s->ring[(s->top + (size_t)y) % s->cap] = keep[k++];
	for (int y = bottom - n + 1; y < g->rows; y++)
		s->ring[(s->top + (size_t)y) % s->cap] = keep[k++];
	return true;
}

/* Moves screen row 0 into the scrollback (or drops it when there is none) and brings in a blank row at the
 * bottom: one index rotation. Returns false when no line could be allocated for the scrollback. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
GRID_PAGE("step") static bool push_line(struct grid *g)
{
	clear_line(g, grid__push_row(g, true));
	grid__push_view(g);
	return true;
}

static void scroll_cols_up(struct grid *g, int top, int bottom, int n)
{
	int x0 = g->left, w = g->right - g->left + 1;
	uint16_t es = grid__erase_style(g);
	for (int y = top; y <= bottom; y++) {
		struct line *dst = grid__line(g, y);
		grid__split_wide(g, dst, x0, x0 + w);
		dst->used = (uint16_t)g->cols;
		dst->flags &= ~LINE_ASCII;
		if (y + n <= bottom) {
			struct line *src = grid__line(g, y + n);
			grid__split_wide(g, src, x0, x0 + w);
			memcpy(&dst->cells[x0], &src->cells[x0], (size_t)w * sizeof(struct grid_cell));
		} else {
			grid__clear_cells(&dst->cells[x0], w, es);
		}
	}
}

static void scroll_cols_down(struct grid *g, int top, int bottom, int n)
{
	int x0 = g->left, w = g->right - g->left + 1;
	uint16_t es = grid__erase_style(g);
	for (int y = bottom; y >= top; y--) {
		struct line *dst = grid__line(g, y);
		grid__split_wide(g, dst, x0, x0 + w);
		dst->used = (uint16_t)g->cols;
		dst->flags &= ~LINE_ASCII;
		if (y - n >= top) {
			struct line *src = grid__line(g, y - n);
			grid__split_wide(g, src, x0, x0 + w);
			memcpy(&dst->cells[x0], &src->cells[x0], (size_t)w * sizeof(struct grid_cell));
		} else {
			grid__clear_cells(&dst->cells[x0], w, es);
		}
	}
}

void grid__scroll_work(struct grid *g, int top, int bottom, int n)
{
	const int h = bottom - top + 1;
	if (n <= 0 || h <= 0)
		return;
	/* full-width rows are blanked (and pushed to the history) at about an eighth of a fill's cost a cell
	 * (measured at 212x82: 1.6 us for SU 82); within left and right margins the scroll counts itself
	 * (margin_scroll_work), whatever called it */
	if (g->left == 0 && g->right == g->cols - 1)
		grid__work(g, (uint64_t)(n < h ? n : h) * (uint64_t)g->cols / 8u);
}

/* grid_work of a scroll within left and right margins: every cell of the region is copied, at about a third of
 * a fill's cost a cell (3.4 us for SU 82 at 212x82 with DECSLRM), by SU, SD, IL, DL and RI and by the line
 * feed, IND and NEL at the bottom margin too (3 us each there, 200 us at 1000x1000: 256 KiB of IND took a
 * wake-up of 0.4 s uncounted), and 5 cells a row besides: each row's split of wide characters and flags cost
 * 3.1 ns whatever its width (release, 1000 rows: 3.5 us for 2 columns, 23 for 100, 197 for 999), and narrow
 * margins made that most of it (2 columns were counted 0.7 cells a row for 3.5 ns). Not on the text flood's line
 * feed: full-width margins never come here. */
static void margin_scroll_work(struct grid *g, int top, int bottom)
{
	const uint64_t rows = (uint64_t)(bottom - top + 1);
	grid__work(g, rows * (uint64_t)(g->right - g->left + 1) / 3u + rows * 5u);
}

void grid__scroll_up(struct grid *g, int top, int bottom, int n)
{
	int h = bottom - top + 1;
	if (n <= 0 || h <= 0)
		return;
	if (n > h)
		n = h;
	g->last_x = g->last_y = -1;
	/* a partial scroll changes the text under a selection; a full one only moves it */
	if (g->sel.active) {
		if (top != 0 || g->scr->sb_max == 0 || g->left != 0 || g->right != g->cols - 1)
			grid__select_touch(g, top, bottom);
		else if (bottom < g->rows - 1)
			/* a region from the top pushes into the history: the rows below it stay where they are,
			 * but the line numbers the selection holds move on under them (it pointed at the region's
			 * new blank row, and its marks stayed on the rows below after it was cleared) */
			grid__select_touch(g, bottom + 1, g->rows - 1);
	}
	if (g->left != 0 || g->right != g->cols - 1) {
		margin_scroll_work(g, top, bottom);
		scroll_cols_up(g, top, bottom, n);
		grid__damage_rows(g, top, bottom);
		return;
	}
	struct screen *s = g->scr;
	if (top == 0 && (bottom == g->rows - 1 || s->sb_max > 0)) {
		int pushed = 0;
		while (pushed < n && push_line(g))
			pushed++;
		if (pushed > 0) {
			/* rows below the region moved up with the rotation: put them back under the blanks */
			if (bottom < g->rows - 1)
				rotate_up(g, bottom - pushed + 1, g->rows - 1, g->rows - 1 - bottom);
			if (g->sel.active)
				grid__select_scrolled(g);
			g->damage_all = true;
			g->damaged = true;
			n -= pushed;
			if (n == 0)
				return;
		}
	}
	if (!ring_region_up(g, top, bottom, n))
		rotate_up(g, top, bottom, n);
	for (int y = bottom - n + 1; y <= bottom; y++)
		clear_line(g, grid__line(g, y));
	if (g->damage_all || (g->view_offset == 0 && g->dmg_y0 <= top && g->dmg_y1 >= bottom)) {
		/* a flood in one region: its rows are damaged already (grid__damage_rows would change nothing) */
		g->damaged = true;
		return;
	}
	grid__damage_rows(g, top, bottom);
}

void grid__scroll_down(struct grid *g, int top, int bottom, int n)
{
	int h = bottom - top + 1;
	if (n <= 0 || h <= 0)
		return;
	if (n > h)
		n = h;
	g->last_x = g->last_y = -1;
	if (g->sel.active)
		grid__select_touch(g, top, bottom);
	if (g->left != 0 || g->right != g->cols - 1) {
		margin_scroll_work(g, top, bottom);
		scroll_cols_down(g, top, bottom, n);
	} else {
		rotate_up(g, top, bottom, h - n);
		for (int y = top; y < top + n; y++)
			clear_line(g, grid__line(g, y));
	}
	grid__damage_rows(g, top, bottom);
}

/* grid__scroll_up(g, g->top, g->bottom, 1) for a full-width region that does not start at the top row (so
 * nothing enters the scrollback), where ring_region_up would step the ring and the screen's slots do not
 * wrap around the ring's end: the line feed at the bottom margin of a region flood. The region's rows keep
 * their slots; the row leaving at the top becomes the blank bottom row, and only the few rows outside the
 * region move one slot. Same result as grid__scroll_up, which it calls where it does not apply (a tail
 * call, so that grid__index needs no frame). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void region_step(struct grid *g)
{
	struct screen *s = g->scr;
	const int top = g->top, bottom = g->bottom, rows = g->rows;
	if (top == 0 || g->left != 0 || g->right != g->cols - 1 || g->sel.active)
		goto general;
	/* ring_region_up's conditions for n = 1 */
	if (top + rows - bottom > RING_FIX_MAX || top + rows - 1 - bottom >= bottom - top)
		goto general;
	if ((s->cap != (size_t)rows && s->sb_n != 0) || s->top + (size_t)rows >= s->cap)
		goto general;
	/* the rows down to the region's first move down a slot, its first row comes out; then it goes in after
	 * the region's last row, whose followers move down a slot (the last into the slot after the screen, a
	 * free one). Loops carrying the row moved, as a memmove call costs more than the few rows. */
	struct line **r = s->ring + s->top, *carry = r[0];
	for (int y = 1; y <= top; y++) {
		struct line *next = r[y];
		r[y] = carry;
		carry = next;
	}
	struct line *out = carry;
	for (int y = bottom + 1; y <= rows; y++) {
		struct line *next = r[y];
		r[y] = carry;
		carry = next;
	}
	s->top++;
	g->last_x = g->last_y = -1;
	clear_line(g, out);
	if (g->damage_all || (g->view_offset == 0 && g->dmg_y0 <= top && g->dmg_y1 >= bottom))
		g->damaged = true;
	else
		grid__damage_rows(g, top, bottom);
	return;
general:
	grid__scroll_up(g, top, bottom, 1);
}

/* grid__scroll_up(g, 0, bottom, 1) at the line feed of a text flood: with full-width margins, the whole
 * screen and no selection, one push_line and the whole screen damaged, without the general path's set-up;
 * otherwise grid__scroll_up itself. Void and called last (as region_step): grid__index and grid__newline
 * jump to it with no frame of their own, the flood's line feed being three calls deep. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
GRID_PAGE("step") static void screen_step(struct grid *g)
{
	if (g->bottom != g->rows - 1 || g->left != 0 || g->right != g->cols - 1 || g->sel.active) {
		grid__scroll_up(g, 0, g->bottom, 1);
		return;
	}
	g->last_x = g->last_y = -1;
	g->damage_all = true;
	g->damaged = true;
#if defined(GRID_HAVE_FILL_SSE)
	struct screen *s = g->scr;
	struct line *l = s->ring[s->top];
	if (likely(l->flags & LINE_ASCII) && s->sb_max > 0 && g->view_offset == 0 && likely(!g->erase_dirty) &&
	    g->erase_id == 0 && ((l->used + 15) & ~15) <= l->ncells) {
		/* a text flood's line: copy, ring step and clear in one function, jumped to last */
		size_t slot = s->top + (size_t)g->rows;
		if (slot >= s->cap)
			slot -= s->cap;
		grid__hist_push_ascii(s, l, slot, g->cols);
		return;
	}
#endif
	/* out of line: the common path above then needs no frame */
	push_line(g);
}

GRID_PAGE("step") void grid__index(struct grid *g)
{
	if (g->cy == g->bottom) {
		if (g->cx >= g->left && g->cx <= g->right) {
			if (g->top == 0)
				screen_step(g);
			else
				region_step(g);
		}
	} else if (g->cy < g->rows - 1) {
		g->cy++;
	}
}

void grid__reverse_index(struct grid *g)
{
	if (g->cy == g->top) {
		if (g->cx >= g->left && g->cx <= g->right) {
			/* grid_work: the rotation moves every row of the region (0.7 us at 212x82, measured) */
			grid__scroll_work(g, g->top, g->bottom, g->bottom - g->top + 1);
			grid__scroll_down(g, g->top, g->bottom, 1);
		}
	} else if (g->cy > 0) {
		g->cy--;
	}
}

GRID_PAGE("step") void grid__newline(struct grid *g)
{
	g->wrap_pending = false;
	if (likely(!g->modes.keys.newline_mode)) {
		/* the index last: a jump, with no frame kept for the test after it */
		grid__index(g);
		return;
	}
	grid__index(g);
	g->cx = grid__cr_col(g);
}

/* The parser's execute (grid.c's sink): CR and LF, a text flood's two controls a line, here in the line
 * feed's page, so that LF's jump to grid__newline stays in it (for QEMU's TCG a jump to another page, as
 * from grid__execute in grid-csi.c, is a TB look-up of ~70 instructions: once a line of the guest's ascii
 * workload); the other controls go on to grid__execute. */
GRID_PAGE("step") void grid__execute_c0(void *ctx, uint8_t c)
{
	struct grid *g = ctx;
	if (c == 0x0d) {
		g->last_cp = 0;
		g->cx = grid__cr_col(g);
		g->wrap_pending = false;
		return;
	}
	if (c == 0x0a) {
		g->last_cp = 0;
		grid__newline(g);
		return;
	}
	grid__execute(ctx, c);
}

void grid__goto(struct grid *g, int x, int y)
{
	g->cx = grid__clamp(x, 0, g->cols - 1);
	g->cy = grid__clamp(y, 0, g->rows - 1);
	g->wrap_pending = false;
}

void grid__goto_origin(struct grid *g, int x, int y)
{
	if (!g->origin) {
		grid__goto(g, x, y);
		return;
	}
	g->cx = grid__clamp(x + g->left, g->left, g->right);
	g->cy = grid__clamp(y + g->top, g->top, g->bottom);
	g->wrap_pending = false;
}

/* ---------------------------------------------------------------------------- insert/delete lines */

void grid__insert_lines(struct grid *g, int n)
{
	if (g->cy < g->top || g->cy > g->bottom || !grid__in_lr_margins(g))
		return;
	g->wrap_pending = false;
	grid__scroll_work(g, g->cy, g->bottom, n);
	grid__scroll_down(g, g->cy, g->bottom, grid__max(n, 1));
	g->cx = g->left;
}

void grid__delete_lines(struct grid *g, int n)
{
	if (g->cy < g->top || g->cy > g->bottom || !grid__in_lr_margins(g))
		return;
	g->wrap_pending = false;
	/* never into the scrollback: a region starting at the cursor row is not the screen's top */
	int h = g->bottom - g->cy + 1;
	n = grid__clamp(n, 1, h);
	grid__scroll_work(g, g->cy, g->bottom, n);
	struct screen *s = g->scr;
	size_t sb = s->sb_max;
	s->sb_max = 0;
	if (g->cy == 0 && g->bottom == g->rows - 1 && g->left == 0 && g->right == g->cols - 1) {
		/* before the rows move: the selection's marks are cleared on the lines it names, and the rows
		 * moved up would keep theirs */
		if (g->sel.active)
			grid__select_touch(g, 0, g->rows - 1);
		/* the ring rotation would push into the scrollback; rotate the slots instead */
		rotate_up(g, 0, g->rows - 1, n);
		for (int y = g->rows - n; y < g->rows; y++) {
			grid__line_clear(grid__line(g, y), g->cols, grid__erase_style(g));
		}
		grid__damage_rows(g, 0, g->rows - 1);
	} else {
		grid__scroll_up(g, g->cy, g->bottom, n);
	}
	s->sb_max = sb;
	g->cx = g->left;
}

/* The bytes up to and with the first line feed, VT or FF in d[0..n) (all n without one). */
static size_t to_line_feed(const uint8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] - 0x0au < 3u)
			return i + 1;
	return n;
}

/* Not in the "step" page: the session's feed (grid_feed's is the benchmarks' and the replay's). A line feed is
 * executed inside the parser's ground-state loop, which vt_parser_stop does not break (a test there costs the
 * text flood: ascii +0.5 % under callgrind); at the bottom of DECSLRM margins it copies the region's every cell
 * (200 us at 1000x1000), so while such margins are set the bytes go to the parser one line feed at a time, and
 * the budget is looked at between them. set_lr_margins stops the feed when it sets them. Text is printed in that
 * loop too, and its wrap at the bottom of the margins is the same scroll: at most the margins' width of bytes
 * goes at a time then, one wrap at most (1000x1000, margins 1;2: one bounded 4 KiB of text 11 ms whatever the
 * budget before, 2,048 wraps). */
size_t grid_feed_bounded(struct grid *g, const uint8_t *data, size_t len, uint64_t work_end)
{
	g->work_end = work_end;
	size_t n = 0;
	do {
		size_t k = len - n;
		if (g->left != 0 || g->right != g->cols - 1) {
			const size_t w = (size_t)(g->right - g->left + 1);
			k = to_line_feed(data + n, k < w ? k : w);
		}
		const size_t r = vt_parser_feed(g->parser, data + n, k);
		n += r;
		/* none when the feed's first event spent the budget before any byte of its own: a UTF-8 sequence the
		 * last feed left unfinished, ended by this one's first byte, prints its U+FFFD here, and that print's
		 * wrap may scroll DECSLRM margins (tests/grid/test-feed-stop.c); grid_work is then at work_end */
		if (!r)
			break;
	} while (n < len && g->work < g->work_end); /* (0 after a synchronized update's end) */
	g->work_end = UINT64_MAX;
	grid__hist_fence();
#if defined(GRID_TEXT_CHECK)
	if (n >= 64 || (++g->text_checks & 63) == 0)
		grid__text_check(g);
#endif
	return n;
}

/* In the "step" page, which every feed of escape-heavy output or text reaches (a line feed): in a TCG guest a
 * feed is a 4 KiB read, after which QEMU's TLB is empty (the switch to the writer flushed it), and grid.c's
 * page held nothing else a feed runs (docs/benchmarks.md, issue 5, session 25). */
GRID_PAGE("step") void grid_feed(struct grid *g, const uint8_t *data, size_t len)
{
	vt_parser_feed(g->parser, data, len);
	grid__hist_fence();
#if defined(GRID_TEXT_CHECK)
	/* every screen row after a feed of some length, after one in 64 short ones (tests that feed a byte
	 * at a time would take minutes under the sanitizers otherwise) */
	if (len >= 64 || (++g->text_checks & 63) == 0)
		grid__text_check(g);
#endif
}
