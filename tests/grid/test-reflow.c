/* tests/grid/test-reflow.c: resize with reflow of soft-wrapped lines (the behaviour libvterm's
 * t/69screen_reflow.test and t/63screen_resize.test check), the cursor kept on its character, the cursor
 * line never lost when shrinking, and the alternate screen left unreflowed. */
#include "harness.h"

static void test_reflow_wider_narrower(void)
{
	struct t_term *t = t_new(10, 5, 100);
	t_feed(t, "AAAAAAAAAAAA");
	CHECK_ROW(t, 0, "AAAAAAAAAA");
	CHECK_ROW(t, 1, "AA");
	CHECK_CURSOR(t, 2, 1);
	grid_resize(t->g, 15, 5);
	CHECK_ROW(t, 0, "AAAAAAAAAAAA");
	CHECK_ROW(t, 1, "");
	CHECK(!grid_row_wrapped(t->g, 0), "joined");
	CHECK_CURSOR(t, 12, 0);
	grid_resize(t->g, 5, 5);
	CHECK_ROW(t, 0, "AAAAA");
	CHECK_ROW(t, 2, "AA");
	CHECK(grid_row_wrapped(t->g, 0) && grid_row_wrapped(t->g, 1), "wrapped");
	CHECK_CURSOR(t, 2, 2);
	/* typing continues where the cursor was */
	t_feed(t, "B");
	CHECK_ROW(t, 2, "AAB");
	t_free(t);
}

static void test_wide_reflow(void)
{
	struct t_term *t = t_new(6, 3, 10);
	t_feed(t, "ab\xe4\xb8\xad\xe6\x96\x87x");
	CHECK_ROW(t, 0, "ab\xe4\xb8\xad\xe6\x96\x87");
	grid_resize(t->g, 5, 3);
	/* the second wide character no longer fits: it moves to the next row */
	CHECK_ROW(t, 0, "ab\xe4\xb8\xad");
	CHECK_ROW(t, 1, "\xe6\x96\x87x");
	CHECK_CURSOR(t, 3, 1);
	t_free(t);
}

static void test_shrink_keeps_cursor_line(void)
{
	struct t_term *t = t_new(20, 10, 100);
	t_feed(t, "top\033[8;1Hline 8\r\nprompt$ ");
	grid_resize(t->g, 20, 4);
	CHECK_CURSOR(t, 8, 3);
	CHECK_ROW(t, 3, "prompt$ ");
	CHECK_ROW(t, 2, "line 8");
	/* the rows that left went into the scrollback */
	CHECK(grid_scrollback_lines(t->g) == 5, "scrollback %zu", grid_scrollback_lines(t->g));
	/* growing brings them back */
	grid_resize(t->g, 20, 10);
	CHECK_ROW(t, 0, "top");
	CHECK_CURSOR(t, 8, 8);
	/* shrinking with blanks below the cursor just truncates */
	t_feed(t, "\033[2J\033[Hhello");
	size_t sb = grid_scrollback_lines(t->g);
	grid_resize(t->g, 20, 3);
	CHECK_ROW(t, 0, "hello");
	CHECK_CURSOR(t, 5, 0);
	CHECK(grid_scrollback_lines(t->g) == sb, "no push");
	t_free(t);
}

static void test_alt_not_reflowed(void)
{
	struct t_term *t = t_new(10, 4, 10);
	t_feed(t, "0123456789ab\033[?1049h\033[Hxxxxxxxxxyy");
	grid_resize(t->g, 5, 4);
	CHECK_ROW(t, 0, "xxxxx");
	CHECK_ROW(t, 1, "y");
	t_feed(t, "\033[?1049l");
	CHECK_ROW(t, 0, "01234");
	CHECK_ROW(t, 1, "56789");
	CHECK_ROW(t, 2, "ab");
	t_free(t);
}

/* A pending wrap saved by 1049 goes through a resize on the alternate screen as the cursor's own does on the
 * primary one: widened, the cursor is after its character, not on it (the next character overwrote the
 * last one of the line: "012345678X"); narrowed to the line's length, the wrap is still pending. */
static void test_alt_saved_pending_wrap(void)
{
	struct t_term *t = t_new(10, 4, 10);
	t_feed(t, "0123456789\033[?1049h");
	grid_resize(t->g, 20, 4);
	t_feed(t, "\033[?1049lX");
	CHECK_ROW(t, 0, "0123456789X");
	CHECK_CURSOR(t, 11, 0);
	t_free(t);
	t = t_new(10, 4, 10);
	t_feed(t, "0123456789\033[?1049h");
	grid_resize(t->g, 5, 4);
	t_feed(t, "\033[?1049lX");
	CHECK_ROW(t, 0, "01234");
	CHECK_ROW(t, 1, "56789");
	CHECK_ROW(t, 2, "X");
	CHECK_CURSOR(t, 1, 2);
	t_free(t);
}

/* A cursor right after a line that now ends exactly at the right edge is at a pending wrap, as it would be had
 * the line been written at that width: it was put on the line's last character, which the next one
 * overwrote ("deX", the shell's line and the screen then differing). */
static void test_cursor_after_exact_fit(void)
{
	struct t_term *t = t_new(10, 4, 10);
	t_feed(t, "abcdef");
	grid_resize(t->g, 3, 4);
	CHECK_ROW(t, 0, "abc");
	CHECK_ROW(t, 1, "def");
	CHECK_CURSOR(t, 2, 1);
	t_feed(t, "X");
	CHECK_ROW(t, 1, "def");
	CHECK_ROW(t, 2, "X");
	CHECK_CURSOR(t, 1, 2);
	t_free(t);
}

/* The cursor DECSC or 1048 saved on the primary screen stays on its character through a reflow, as the
 * cursor does (and 1049's, test_alt_saved_pending_wrap): it kept its old row and column, and restored, it
 * wrote on a blank row below the line it was saved on. */
static void test_saved_cursor_reflowed(void)
{
	static const char *const save[] = {"\0337", "\033[?1048h"}, *const restore[] = {"\0338", "\033[?1048l"};
	for (int k = 0; k < 2; k++) {
		struct t_term *t = t_new(10, 4, 10);
		t_feedf(t, "0123456789abc%s\r\nnext", save[k]);
		grid_resize(t->g, 20, 4);
		t_feedf(t, "%sX", restore[k]);
		CHECK_ROW(t, 0, "0123456789abcX");
		CHECK_ROW(t, 1, "next");
		CHECK_CURSOR(t, 14, 0);
		grid_resize(t->g, 5, 4);
		t_feedf(t, "\033[H%s%sY", save[k], restore[k]);
		CHECK_ROW(t, 0, "Y1234");
		t_feedf(t, "\033[3;4H%s", save[k]);
		grid_resize(t->g, 7, 4);
		t_feedf(t, "%sZ", restore[k]);
		CHECK_ROW(t, 0, "Y123456");
		CHECK_ROW(t, 1, "789abcZ");
		t_free(t);
	}
	/* saved at a pending wrap: DECRC brings the wrap back (as xterm's), so through a resize the saved cursor
	 * goes as the cursor does (test_cursor_after_exact_fit) and 1049's (test_alt_saved_pending_wrap): after its
	 * character on a wider screen, still pending at the same width. It was restored on the line's last
	 * character, which the next one overwrote (a height alone changed: xterm 379 wraps, here `012345678X`). */
	static const struct {
		int cols, rows;
		const char *row0, *row1;
	} pend[] = {{20, 4, "0123456789X", ""}, {10, 5, "0123456789", "X"}, {5, 4, "01234", "56789"}};
	for (size_t i = 0; i < sizeof(pend) / sizeof(pend[0]); i++) {
		struct t_term *t = t_new(10, 4, 10);
		t_feed(t, "0123456789\0337\r\n\nnext");
		grid_resize(t->g, pend[i].cols, pend[i].rows);
		t_feed(t, "\0338X");
		CHECK(!strcmp(t_row(t, 0), pend[i].row0), "%dx%d: row 0 '%s', want '%s'", pend[i].cols, pend[i].rows,
		      t_row(t, 0), pend[i].row0);
		CHECK(!strcmp(t_row(t, 1), pend[i].row1), "%dx%d: row 1 '%s', want '%s'", pend[i].cols, pend[i].rows,
		      t_row(t, 1), pend[i].row1);
		t_free(t);
	}
}

/* ECH on a soft-wrapped row ends the wrap, wherever it erases (xterm's ClearRight, which ECH calls with its
 * count: "with the right part cleared, we can't be wrapping"), as EL 0 does: the rows are two lines from then
 * on, for a resize and for a selection. ECH short of the last column kept the rows joined, so widening the
 * screen pulled the next row's text up behind the erased cells. */
static void test_ech_ends_wrap(void)
{
	struct t_term *t = t_new(10, 4, 10);
	t_feed(t, "0123456789abc\033[1;4H\033[2X");
	CHECK(!grid_row_wrapped(t->g, 0), "row 0 still wrapped after ECH");
	grid_resize(t->g, 15, 4);
	CHECK_ROW(t, 0, "012  56789");
	CHECK_ROW(t, 1, "abc");
	t_free(t);
}

/* A deletion on a soft-wrapped row ends the wrap, as ECH's does: DCH, DECDC and SL move the row's cells left and
 * blank its end, and xterm 379 then copies the rows as two lines (measured by a drag over the rows, pasted back:
 * "abcdfghijklmnopqrst" CR "uv", with DECSLRM margins short of the last column too); DECDC and SL on every row
 * of the region they shift. The rows stayed joined, so a copy held the blank the deletion left ("...rst uv") and
 * a wider screen pulled the next row up behind it. ICH, DECIC and SR keep the wrap, in xterm as here. */
static void test_delete_ends_wrap(void)
{
	static const struct {
		const char *seq;
		bool ends;
	} cases[] = {
		{"\033[1;5H\033[P", true},       {"\033[1;20H\033[5P", true},
		{"\033[1;5H\033[1'~", true},     {"\033[1;5H\033[1 @", true},
		{"\033[?69h\033[1;10s\033[1;5H\033[P\033[s\033[?69l", true},
		{"\033[1;5H\033[@", false},      {"\033[1;5H\033[1'}", false},
		{"\033[1;5H\033[1 A", false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t_term *t = t_new(20, 4, 10);
		t_feed(t, "abcdefghijklmnopqrstuv");
		CHECK(grid_row_wrapped(t->g, 0), "case %zu: not wrapped before", i);
		t_feed(t, cases[i].seq);
		CHECK(grid_row_wrapped(t->g, 0) == !cases[i].ends, "case %zu: wrapped %d after %s", i,
		      grid_row_wrapped(t->g, 0), cases[i].seq + 1);
		grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
		grid_select_extend(t->g, 5, 1);
		CHECK(!cases[i].ends || strchr(t_sel(t), '\n'), "case %zu: copied as one line [%s]", i, t_sel(t));
		t_free(t);
	}
	/* DECDC over a region of two wrapped rows: both end (the row above the region keeps its wrap) */
	struct t_term *t = t_new(20, 4, 10);
	t_feed(t, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\033[2;3r\033[2;5H\033[1'~\033[r");
	CHECK(grid_row_wrapped(t->g, 0), "row 0 (above the region) lost its wrap");
	CHECK(!grid_row_wrapped(t->g, 1) && !grid_row_wrapped(t->g, 2), "rows 1, 2 still wrapped after DECDC");
	grid_resize(t->g, 30, 4);
	CHECK_ROW(t, 1, "56789ABCD");
	CHECK_ROW(t, 2, "EFGHJK");
	t_free(t);
}

/* Shrinking keeps the cursor's line on the screen when the rows below it hold text too (a full-screen form,
 * or the cursor sent home over earlier output): rows leave at the top into the scrollback until the cursor's
 * row is the top one, and rows below it that still do not fit are cut (xterm and alacritty cut them all). The
 * rows pushed out took the cursor's row along, and the cursor stayed at the top on a row further down: the
 * next character overwrote another line. */
static void test_shrink_keeps_cursor_above_text(void)
{
	struct t_term *t = t_new(10, 8, 100);
	for (int i = 0; i < 8; i++)
		t_feedf(t, "\033[%d;1Hrow %d", i + 1, i);
	t_feed(t, "\033[2;3H");
	grid_resize(t->g, 10, 4);
	CHECK_CURSOR(t, 2, 0);
	CHECK_ROW(t, 0, "row 1");
	CHECK_ROW(t, 3, "row 4");
	CHECK(grid_scrollback_lines(t->g) == 1, "scrollback %zu", grid_scrollback_lines(t->g));
	t_feed(t, "X");
	CHECK_ROW(t, 0, "roX 1");
	/* the same where the rows below are one long wrapped line, with no scrollback to spill into */
	struct t_term *u = t_new(4, 6, 0);
	t_feed(u, "ab\r\ncdefghijklmnopqrst\033[1;2H");
	grid_resize(u->g, 2, 3);
	CHECK_CURSOR(u, 1, 0);
	CHECK_ROW(u, 0, "ab");
	CHECK_ROW(u, 1, "cd");
	t_free(u);
	t_free(t);
	/* on the alternate screen of 47 or 1047, which save no cursor, the primary screen keeps its last rows */
	static const char *const alt[] = {"47", "1047"};
	for (int k = 0; k < 2; k++) {
		t = t_new(10, 8, 100);
		t_feed(t, "row 0\r\nrow 1\r\nrow 2\r\nrow 3\r\nrow 4\r\n$ ");
		t_feedf(t, "\033[?%sh\033[Halt", alt[k]);
		grid_resize(t->g, 10, 4);
		t_feedf(t, "\033[?%sl", alt[k]);
		CHECK_ROW(t, 3, "$ ");
		CHECK_ROW(t, 0, "row 2");
		t_free(t);
	}
}

/* A cursor on the right half of a wide character stays on that half: what it writes then lands where it would
 * have without the resize (the wide character blanked, the text in its right column). It moved to the left
 * half, and the text landed a column early. */
static void test_cursor_on_wide_right_half(void)
{
	struct t_term *t = t_new(6, 4, 10);
	t_feed(t, "ab\xe4\xb8\xad" "cdefg\033[1;4H");
	grid_resize(t->g, 10, 4);
	CHECK_CURSOR(t, 3, 0);
	t_feed(t, "Z");
	CHECK_ROW(t, 0, "ab Zcdefg");
	t_feed(t, "\033[2J\033[Ha\xe4\xb8\xad\033[1;3H");
	grid_resize(t->g, 2, 4);
	/* the wide character went to the next row: the cursor with it, on its right half */
	CHECK_CURSOR(t, 1, 1);
	t_free(t);
}

/* The cursor saved on the alternate screen (DECSC there) moves up with the rows when a shrink makes them leave
 * at the top to keep the cursor on the screen, as the cursor does: DECRC brings it back to the row it was
 * saved on. It kept its old row, clamped to the last one, and the text went a row too low. */
static void test_alt_saved_cursor_shifted(void)
{
	struct t_term *t = t_new(10, 8, 10);
	t_feed(t, "\033[?1049h\033[7;3Hsaved\033[7;3H\0337\033[8;1Hbottom");
	grid_resize(t->g, 10, 4);
	CHECK_ROW(t, 2, "  saved");
	CHECK_ROW(t, 3, "bottom");
	t_feed(t, "\0338X");
	CHECK_ROW(t, 2, "  Xaved");
	CHECK_CURSOR(t, 3, 2);
	t_free(t);
}

/* A user reading the scrollback keeps their place through a resize (a zoom, a rotation, another monitor):
 * the line at the top of the view stays at the top, re-wrapped with the rest. Every resize took the view
 * back to the bottom. */
static void test_view_kept(void)
{
	struct t_term *t = t_new(10, 4, 100);
	char buf[16];
	for (int i = 0; i < 20; i++) {
		snprintf(buf, sizeof(buf), "%sline %02d", i ? "\r\n" : "", i);
		t_feed(t, buf);
	}
	grid_view_scroll(t->g, 10);
	CHECK_ROW(t, 0, "line 06");
	/* narrower: every line takes two rows, the view's top line stays on top */
	grid_resize(t->g, 5, 4);
	CHECK_ROW(t, 0, "line ");
	CHECK_ROW(t, 1, "06");
	CHECK_ROW(t, 2, "line ");
	CHECK_ROW(t, 3, "07");
	grid_resize(t->g, 10, 4);
	CHECK_ROW(t, 0, "line 06");
	/* taller: the rows come back from the scrollback, the view's top line stays */
	grid_resize(t->g, 10, 8);
	CHECK_ROW(t, 0, "line 06");
	CHECK_ROW(t, 7, "line 13");
	/* so far up that the new scrollback does not reach: as far up as it does */
	grid_view_scroll(t->g, 100);
	CHECK_ROW(t, 0, "line 00");
	grid_resize(t->g, 10, 12);
	CHECK_ROW(t, 0, "line 00");
	/* at the bottom, the view stays at the bottom */
	grid_view_scroll(t->g, -100);
	grid_resize(t->g, 10, 4);
	CHECK(grid_view_offset(t->g) == 0, "view offset %d", grid_view_offset(t->g));
	CHECK_ROW(t, 3, "line 19");
	t_free(t);
}

/* The alternate screen's pending wrap survives a resize that leaves the cursor on the last column, as xterm's
 * (ScreenResize keeps do_wrap): a full-screen program that wrote to the last column and is redrawing when the
 * rows change went on at the start of the next row in xterm; here its next character overwrote the last one. */
static void test_alt_pending_wrap_kept(void)
{
	struct t_term *t = t_new(10, 4, 10);
	t_feed(t, "\033[?1049h\033[2;1H0123456789");
	grid_resize(t->g, 10, 6);
	t_feed(t, "X");
	CHECK_ROW(t, 1, "0123456789");
	CHECK_ROW(t, 2, "X");
	/* narrower: the cursor is clamped to the new last column, the wrap still pending */
	t_feed(t, "\033[2;1H0123456789");
	grid_resize(t->g, 5, 6);
	t_feed(t, "Y");
	CHECK_ROW(t, 1, "01234");
	CHECK_ROW(t, 2, "Y");
	/* wider: the cursor is no longer at the edge, no wrap is pending (xterm's would be: docs/conformance.md) */
	t_feed(t, "\033[2;1H01234");
	grid_resize(t->g, 8, 6);
	t_feed(t, "Z");
	CHECK_ROW(t, 1, "0123Z");
	t_free(t);
}

/* Tab stops do not depend on the width, as xterm's (a fixed array of columns): a stop set, or stops cleared,
 * in columns a narrower screen cut are there again when it grows back. They came back as every 8. */
static void test_tabs_kept(void)
{
	struct t_term *t = t_new(20, 4, 10);
	t_feed(t, "\033[3g\033[1;16H\033H\r");
	grid_resize(t->g, 10, 4);
	grid_resize(t->g, 20, 4);
	t_feed(t, "\tX");
	CHECK_ROW(t, 0, "               X");
	/* all cleared on the narrow screen: none in the columns it did not have either */
	grid_resize(t->g, 10, 4);
	t_feed(t, "\033[3g\r\n");
	grid_resize(t->g, 20, 4);
	t_feed(t, "\tY");
	CHECK_CURSOR(t, 19, 1);
	/* RIS sets the default stops everywhere */
	grid_resize(t->g, 10, 4);
	t_feed(t, "\033c");
	grid_resize(t->g, 20, 4);
	t_feed(t, "\t\tZ");
	CHECK_ROW(t, 0, "                Z");
	t_free(t);
}

/* A wide character cannot be shown on a one-column screen (printing one there writes nothing), but it is
 * kept: laid out again at two columns or more it takes its two back. It stayed a narrow cell, so the next
 * character went into its right half's column and the text after it was a column off. */
static void test_wide_through_one_column(void)
{
	struct t_term *t = t_new(6, 4, 10);
	t_feed(t, "\xe4\xb8\xad");
	grid_resize(t->g, 1, 4);
	CHECK(grid_row(t->g, 0)[0].width == 1, "one column: width %d", grid_row(t->g, 0)[0].width);
	grid_resize(t->g, 6, 4);
	const struct grid_cell *c = grid_row(t->g, 0);
	CHECK(c[0].width == 2 && c[1].width == 0, "widened: widths %d %d, want 2 0", c[0].width, c[1].width);
	CHECK_CURSOR(t, 2, 0);
	t_feed(t, "x");
	CHECK_ROW(t, 0, "\xe4\xb8\xadx");
	/* a wide cluster (a base and a combining mark) too */
	t_feed(t, "\r\n\xe4\xb8\xad\xcc\x81");
	grid_resize(t->g, 1, 4);
	grid_resize(t->g, 6, 4);
	c = grid_row(t->g, 1);
	CHECK(c[0].width == 2 && c[1].width == 0, "cluster widened: widths %d %d", c[0].width, c[1].width);
	t_free(t);
}

/* A wide character that did not fit at the end of a row wrapped early and left a blank there; laid out wider,
 * the line has no blank before it (session 55's mutation audit: keeping the blank, a space inside the text after
 * every resize, passed every test). */
static void test_wide_early_wrap_blank_dropped(void)
{
	struct t_term *t = t_new(5, 3, 0);
	t_feed(t, "abcd\xe4\xb8\xad");
	CHECK(!strcmp(t_row(t, 0), "abcd") && !strcmp(t_row(t, 1), "\xe4\xb8\xad"), "early wrap: '%s' '%s'", t_row(t, 0),
	      t_row(t, 1));
	grid_resize(t->g, 10, 3);
	CHECK(!strcmp(t_row(t, 0), "abcd\xe4\xb8\xad"), "wider: '%s'", t_row(t, 0));
	/* a cursor on that blank goes to the wide character after it, the text's next place: it matched no cell,
	 * and put after the line's end by its distance from there it landed on the character before the blank,
	 * which the next one overwrote (abcX) */
	t_feed(t, "\033[2J\033[H");
	grid_resize(t->g, 5, 3);
	t_feed(t, "abcd\xe4\xb8\xad\033[1;5H");
	grid_resize(t->g, 10, 3);
	CHECK_CURSOR(t, 4, 0);
	t_free(t);
}

/* A resize keeps the screen's top row where it was unless the cursor would leave the screen (or text below it
 * would, test_shrink_keeps_cursor_above_text), and a taller screen brings back as many history rows as it grew
 * by, as xterm 379's ScreenResize (each screen below measured there: tests/tools has no resize case, xterm was
 * resized by XTWINOPS 8 under allowWindowOps). After `clear`, the prompt on the top row and the history above
 * it, the screen's bottom followed the last row of text or the cursor instead: a shrink pulled history rows
 * back onto the cleared screen and put the prompt on its last row, and a grow pulled rows down until the
 * prompt was on the last row. */
static void test_top_kept(void)
{
	struct t_term *t = t_new(20, 10, 100);
	for (int i = 0; i < 30; i++)
		t_feedf(t, "line %d\r\n", i);
	t_feed(t, "\033[2J\033[H$ ");
	size_t sb = grid_scrollback_lines(t->g);
	grid_resize(t->g, 20, 5);
	CHECK_ROW(t, 0, "$ ");
	CHECK_CURSOR(t, 2, 0);
	CHECK(grid_scrollback_lines(t->g) == sb, "shrunk: scrollback %zu, was %zu", grid_scrollback_lines(t->g), sb);
	/* taller by 5, then 5 more: 5 rows of the history come back each time */
	grid_resize(t->g, 20, 10);
	CHECK_ROW(t, 0, "line 16");
	CHECK_ROW(t, 5, "$ ");
	CHECK_CURSOR(t, 2, 5);
	grid_resize(t->g, 20, 15);
	CHECK_ROW(t, 0, "line 11");
	CHECK_ROW(t, 9, "line 20");
	CHECK_CURSOR(t, 2, 10);
	/* shorter by 5: the cursor's row would fall off, one row leaves at the top */
	grid_resize(t->g, 20, 10);
	CHECK_ROW(t, 0, "line 12");
	CHECK_CURSOR(t, 2, 9);
	/* narrower: the prompt's line stays on the top row, its rows fit below it */
	t_feed(t, "\033[2J\033[Hlong prompt line here$ ");
	grid_resize(t->g, 10, 10);
	CHECK_ROW(t, 0, "long promp");
	CHECK_ROW(t, 2, "e$ ");
	CHECK_CURSOR(t, 3, 2);
	grid_resize(t->g, 20, 10);
	CHECK_ROW(t, 0, "long prompt line her");
	CHECK_CURSOR(t, 3, 1);
	t_free(t);
}

/* With DECAWM reset the cursor at the right edge is on the last character, which the next one overwrites (the
 * wrap kept pending only for DECAWM set again, as xterm's do_wrap): a resize keeps it on that character. The
 * reflow took it for a pending wrap, after the character: widened, the next character went after it (xterm
 * 379: `01234567890123456789X`, here `012345678901234567899X`), narrowed, after it on the next row. */
static void test_nowrap_cursor_on_last(void)
{
	static const char text[] = "\033[?7l012345678901234567890123456789";
	struct t_term *t = t_new(21, 6, 10);
	t_feed(t, text);
	grid_resize(t->g, 26, 6);
	CHECK_CURSOR(t, 20, 0);
	t_feed(t, "X");
	CHECK_ROW(t, 0, "01234567890123456789X");
	t_free(t);
	t = t_new(21, 6, 10);
	t_feed(t, text);
	grid_resize(t->g, 16, 6);
	CHECK_CURSOR(t, 4, 1);
	t_feed(t, "X");
	CHECK_ROW(t, 0, "0123456789012345");
	CHECK_ROW(t, 1, "6789X");
	t_free(t);
	/* still at the edge (the same width): the wrap stays pending for DECAWM set again, as in xterm 379 */
	t = t_new(21, 6, 10);
	t_feed(t, text);
	grid_resize(t->g, 21, 4);
	t_feed(t, "\033[?7hX");
	CHECK_ROW(t, 0, "012345678901234567899");
	CHECK_ROW(t, 1, "X");
	t_free(t);
}

/* A combining mark that arrives after a resize (the child's output read in two parts, the resize between them)
 * joins the character before the cursor, as in xterm 379 (`abce`, a resize, U+0301: `abce\u0301`): the resize forgot
 * the character last printed and the mark was dropped. Through a reflow that moves it, at a pending wrap, and
 * on the alternate screen. */
static void test_mark_after_resize(void)
{
	struct t_term *t = t_new(20, 4, 10);
	t_feed(t, "abce");
	grid_resize(t->g, 30, 4);
	t_feed(t, "\xcc\x81");
	CHECK_ROW(t, 0, "abce\xcc\x81");
	/* moved by the reflow to the next row, then right after it */
	t_feed(t, "\r\n0123456789abcde");
	grid_resize(t->g, 12, 4);
	t_feed(t, "\xcc\x81");
	CHECK_ROW(t, 2, "cde\xcc\x81");
	/* at a pending wrap, and a wide character */
	t_feed(t, "\r\n0123456789a\xe4\xb8\xad");
	grid_resize(t->g, 13, 5);
	t_feed(t, "\xcc\x81");
	CHECK_ROW(t, 3, "0123456789a\xe4\xb8\xad\xcc\x81");
	t_feed(t, "\033[?1049h\033[Hxy");
	grid_resize(t->g, 20, 5);
	t_feed(t, "\xcc\x88");
	CHECK_ROW(t, 0, "xy\xcc\x88");
	t_free(t);
}

/* Every row of the history and the screen as text, each ending in '|' ('~' before it when soft-wrapped; the
 * history's rows do not say), the screen's blank rows at the bottom left out, and the cursor. */
static char *all_rows(struct t_term *t)
{
	size_t cap = 1 << 20, n = 0, sb = grid_scrollback_lines(t->g);
	char *o = malloc(cap);
	for (size_t i = 0; i < sb + (size_t)grid_rows(t->g) && n + 20000 < cap; i++) {
		int y = (int)(i - sb), len;
		const struct grid_cell *c = i < sb ? grid_scrollback_row(t->g, i, &len) : grid_row(t->g, y);
		n += (size_t)snprintf(o + n, cap - n, "%s%s|", t_cells_text(t->g, c, i < sb ? len : grid_cols(t->g)),
				      i >= sb && grid_row_wrapped(t->g, y) ? "~" : "");
	}
	while (n >= 2 && o[n - 1] == '|' && o[n - 2] == '|')
		n--;
	struct grid_cursor c;
	grid_get_cursor(t->g, &c);
	snprintf(o + n, cap - n, " cursor %d,%d", c.x, c.y);
	return o;
}

/* Random text (letters, spaces, wide characters, combining marks, colours, links, line ends) through 1 to 4
 * random resizes of 2 columns or more and back: every row and the cursor as they were, no text lost, doubled
 * or joined to another line (a history large enough for all of it). */
static void test_random_round_trips(void)
{
	static const char *const bits[] = {"a", "b", "c", " ", "\xe4\xb8\xad", "e\xcc\x81", "\r\n",
					   "\033[31mR\033[m", "\033]8;;http://x\033\\L\033]8;;\033\\"};
	int bad = 0;
	for (uint64_t it = 0; it < 400; it++) {
		uint64_t x = it * 1000003 + 1;
		const int cols = 2 + (int)t_rnd(&x, 30), rows = 1 + (int)t_rnd(&x, 8);
		struct t_term *t = t_new(cols, rows, 10000);
		for (int i = (int)t_rnd(&x, 200); i > 0; i--)
			t_feed(t, bits[t_rnd(&x, sizeof(bits) / sizeof(bits[0]))]);
		char *before = all_rows(t);
		for (int k = 1 + (int)t_rnd(&x, 4); k > 0; k--)
			grid_resize(t->g, 2 + (int)t_rnd(&x, 40), 1 + (int)t_rnd(&x, 10));
		grid_resize(t->g, cols, rows);
		char *after = all_rows(t);
		if (strcmp(before, after) && bad++ < 3)
			fprintf(stderr, "case %llu %dx%d:\n  before %s\n  after  %s\n", (unsigned long long)it, cols, rows,
				before, after);
		free(before);
		free(after);
		t_free(t);
	}
	CHECK(bad == 0, "%d of 400 round trips changed the text or the cursor", bad);
}

int main(void)
{
	test_ech_ends_wrap();
	test_delete_ends_wrap();
	test_reflow_wider_narrower();
	test_wide_reflow();
	test_shrink_keeps_cursor_line();
	test_shrink_keeps_cursor_above_text();
	test_alt_not_reflowed();
	test_alt_saved_pending_wrap();
	test_alt_saved_cursor_shifted();
	test_cursor_after_exact_fit();
	test_saved_cursor_reflowed();
	test_cursor_on_wide_right_half();
	test_view_kept();
	test_alt_pending_wrap_kept();
	test_tabs_kept();
	test_wide_through_one_column();
	test_wide_early_wrap_blank_dropped();
	test_top_kept();
	test_nowrap_cursor_on_last();
	test_mark_after_resize();
	test_random_round_trips();
	return t_done("grid-reflow");
}
