/* tests/grid/test-tabs.c: what tab stops leave behind them, each case as xterm 379 shows it (measured by
 * helper charsets with tests/tools/xterm-drag.py for the copies; for the resizes xterm under Xvfb with
 * allowWindowOps, resized by CSI 8 ; rows ; cols t, its DECTABSR read back after each):
 * the columns HT skips copy as spaces, a pending wrap kept across HT still joins the two rows, the stops do not
 * depend on the screen's width or on which screen is shown, and DECSC/DECRC leave them alone. The moves
 * themselves are in tests/conformance/cases/tabs*.case and test-margins.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A drag over columns HT skipped copies one space each, as xterm 379 does (its cells hold nothing, as
 * here): "a\tb\tc" dragged past its end gives "a       b       c" and the line end; a stop past the text
 * copies nothing (trailing blanks go, "abc\t" then "def" gives "abc\ndef") */
static void test_copy_spaces(void)
{
	static const struct {
		const char *text;
		int x0, y0, x1, y1;
		const char *want;
	} cases[] = {
		{"a\tb\tc", 0, 0, 30, 0, "a       b       c\n"},	/* xterm "a       b       c\r" */
		{"a\tb", 2, 0, 30, 0, "      b\n"},		/* "      b\r" */
		{"abc\t\r\ndef", 0, 0, 5, 1, "abc\ndef\n"},	/* "abc\rdef\r" */
		{"a\t\tb", 0, 0, 30, 0, "a               b\n"}, /* "a               b\r" */
		{"\tb", 0, 0, 30, 0, "        b\n"},		/* "        b\r" */
		{"abcdefghij\ra\tb", 0, 0, 30, 0, "abcdefghbj\n"}, /* HT writes nothing: "abcdefghbj\r" */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t_term *t = t_new(40, 3, 0);
		t_feed(t, cases[i].text);
		grid_select_start(t->g, cases[i].x0, cases[i].y0, GRID_SELECT_CELL);
		grid_select_extend(t->g, cases[i].x1, cases[i].y1);
		const char *got = t_sel(t);
		CHECK(strcmp(got, cases[i].want) == 0, "case %zu: [%s] want [%s]", i, got, cases[i].want);
		t_free(t);
	}
}

/* HT keeps a pending wrap (the cursor stays in the last column): the character after it wraps, and the row
 * is a soft-wrapped one, copied joined to the next (xterm 379: "...xa\tX" copies "xaX"). A wrap that came
 * before the HT joins the rows too, the HT's columns as spaces ("...xab\tX" copies "xab       X"). */
static void test_wrap_joins(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "xxxxxxxxxxxxxxxxxxxa\tX");
	CHECK_ROW(t, 1, "X");
	grid_select_start(t->g, 15, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 12, 1);
	CHECK(strcmp(t_sel(t), "xxxxaX\n") == 0, "pending wrap: [%s]", t_sel(t));
	grid_select_clear(t->g);
	t_feed(t, "\033[2J\033[Hxxxxxxxxxxxxxxxxxxxab\tX");
	CHECK_ROW(t, 1, "b       X");
	grid_select_start(t->g, 15, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 12, 1);
	CHECK(strcmp(t_sel(t), "xxxxab       X\n") == 0, "wrapped before: [%s]", t_sel(t));
	t_free(t);
}

/* The stops are one set of columns, whatever the width (xterm 379's DECTABSR: 1/9/17 at 20 columns,
 * 1/9/17/25/33/41 after a resize to 40 with no other change; an HTS in column 30 at 40 columns is there again
 * after 20 and 40; TBC 3 at 40, a resize to 20 and an HTS in column 5 give 5 alone at 40) */
static void test_resize_report(void)
{
	/* each step: a resize (0: none), then a stream, then DECTABSR's answer */
	static const struct {
		int cols;
		const char *feed, *want;
	} steps[] = {
		{0, "", "1/9/17"},
		{40, "", "1/9/17/25/33/41"},
		{40, "\033[1;30H\033H", "1/9/17/25/30/33/41"},
		{20, "", "1/9/17"},
		{40, "\033[3g", ""},
		{20, "\033[1;5H\033H", "5"},
		{40, "", "5"},
		{0, "\033[!p", "5"}, /* DECSTR leaves them (xterm 379: 5 before and after) */
	};
	struct t_term *t = t_new(20, 4, 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].cols)
			grid_resize(t->g, steps[i].cols, 4);
		t_feedf(t, "%s\033[2$w", steps[i].feed);
		char want[64];
		snprintf(want, sizeof(want), "\033P2$u%s\033\\", steps[i].want);
		CHECK(strcmp(t->reply, want) == 0, "step %zu: reply \"%s\"", i, t->reply + 1);
		t->reply_len = 0;
		t->reply[0] = '\0';
	}
	t_free(t);
}

/* Both screens share the stops (xterm 379: TBC 3 or HTS on the alternate screen holds on the main one), and
 * DECSC/DECRC do not save them (`ESC 7`, TBC 3, `ESC 8`: no stop) */
static void test_shared_not_saved(void)
{
	struct t_term *t = t_new(20, 4, 0);
	t_feed(t, "\033[?1049h\033[3g\033[1;5H\033H\033[?1049l\r\tX");
	CHECK_ROW(t, 0, "    X");
	t_feed(t, "\033[1;9H\033H\0337\033[3g\0338\r\n\tY");
	CHECK_ROW(t, 1, "                   Y");
	t_free(t);
}

int main(void)
{
	test_copy_spaces();
	test_wrap_joins();
	test_resize_report();
	test_shared_not_saved();
	return t_done("grid-tabs");
}
