/* tests/grid/test-dbl.c: double-width and double-height lines (DECDWL ESC # 6, DECDHL ESC # 3 / # 4, DECSWL
 * ESC # 5) through the public API: the row's size (grid_row_size) on the screen, in the scrollback and through
 * a resize; the printer's paths (ASCII runs, single characters, UTF-8, REP) on a double row and back on single
 * rows once the double ones are gone; selection; and hostile input (every row double, then tiny and huge
 * sizes, one-column screens, margins, the rectangle functions, wide characters at the half). The behaviour
 * itself is xterm 379's as measured (tests/conformance/cases/dbl-*.case). */
#include "harness.h"

#define sel t_sel

#define CHECK_SIZE(t, y, want)                                                                             \
	CHECK(grid_row_size((t)->g, y) == (want), "row %d size %d want %d", y, (int)grid_row_size((t)->g, y), \
	      (int)(want))

/* Each sequence sets the cursor's row's size; the half is (cols - 1) / 2 + 1 columns for every printer path:
 * a run of ASCII, one character per feed, UTF-8 text and a character through the code-point path. */
static void test_sizes_and_half(void)
{
	struct t_term *t = t_new(20, 6, 0);
	t_feed(t, "\033#6\r\n\033#3\r\n\033#4\r\n\033#6\033#5");
	CHECK_SIZE(t, 0, GRID_LINE_DOUBLE_WIDTH);
	CHECK_SIZE(t, 1, GRID_LINE_DOUBLE_TOP);
	CHECK_SIZE(t, 2, GRID_LINE_DOUBLE_BOTTOM);
	CHECK_SIZE(t, 3, GRID_LINE_SINGLE);
	CHECK_SIZE(t, -1, GRID_LINE_SINGLE);
	CHECK_SIZE(t, 6, GRID_LINE_SINGLE);
	t_free(t);

	static const char *const text[] = {"ABCDEFGHIJKLM", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
							  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"};
	for (int k = 0; k < 2; k++) {
		for (int onebyone = 0; onebyone < 2; onebyone++) {
			t = t_new(20, 4, 0);
			t_feed(t, "\033#6");
			if (onebyone)
				t_feed_bytes(t->g, text[k], strlen(text[k]));
			else
				t_feed(t, text[k]);
			CHECK_ROW(t, 0, k ? "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
					  : "ABCDEFGHIJ");
			CHECK_ROW(t, 1, k ? "\xc3\xa9\xc3\xa9\xc3\xa9" : "KLM");
			CHECK_CURSOR(t, 3, 1);
			t_free(t);
		}
	}
	/* the pending wrap at the half's last column, and DECAWM off overwriting it */
	t = t_new(20, 4, 0);
	t_feed(t, "\033#6ABCDEFGHIJ");
	CHECK_CURSOR(t, 9, 0);
	t_feed(t, "\033[6n");
	CHECK_REPLY(t, "\033[1;10R");
	t_feed(t, "\033[?7lXYZ");
	CHECK_ROW(t, 0, "ABCDEFGHIZ");
	t_free(t);
}

/* Past the half (CUP and CHA go there): nothing is written and the cursor stays; DECSWL shows the cells past
 * the half again, as xterm keeps them. */
static void test_past_half(void)
{
	struct t_term *t = t_new(20, 3, 0);
	t_feed(t, "abcdefghijklmnopqrst\r\n\033[1;15H\033#6");
	CHECK_CURSOR(t, 10, 0);
	t_feed(t, "\033[1;15HXY\xc3\xa9\xe4\xb8\xad\033[2b");
	CHECK_CURSOR(t, 14, 0);
	CHECK_ROW(t, 0, "abcdefghijklmnopqrst");
	t_feed(t, "\033#5");
	CHECK_SIZE(t, 0, GRID_LINE_SINGLE);
	CHECK_ROW(t, 0, "abcdefghijklmnopqrst");
	t_free(t);
}

/* A row's size moves with it into the scrollback and shows there when the view is scrolled back; the double
 * row gone from the screen, the printer's fast paths write full rows again. */
static void test_scrollback_and_after(void)
{
	struct t_term *t = t_new(20, 3, 100);
	t_feed(t, "\033#6dbl\r\n");
	for (int i = 0; i < 5; i++)
		t_feedf(t, "line %d\r\n", i);
	CHECK_SIZE(t, 0, GRID_LINE_SINGLE);
	CHECK(grid_view_scroll(t->g, 4) == 4, "view");
	CHECK_SIZE(t, 0, GRID_LINE_DOUBLE_WIDTH);
	CHECK_ROW(t, 0, "dbl");
	CHECK_SIZE(t, 1, GRID_LINE_SINGLE);
	grid_view_scroll(t->g, -4);
	t_feed(t, "ABCDEFGHIJKLMNOPQRSTU");
	CHECK_ROW(t, 1, "ABCDEFGHIJKLMNOPQRST");
	CHECK_ROW(t, 2, "U");
	t_free(t);

	/* with a double row still on the screen, single rows elsewhere keep their full width */
	t = t_new(20, 4, 0);
	t_feed(t, "\033#6top\r\nABCDEFGHIJKLMNOPQRSTU");
	CHECK_ROW(t, 1, "ABCDEFGHIJKLMNOPQRST");
	CHECK_ROW(t, 2, "U");
	CHECK_SIZE(t, 0, GRID_LINE_DOUBLE_WIDTH);
	t_free(t);
}

/* Resize: a double row is a logical line of its own, laid out at the new half, each of its rows double; the
 * cells past its old half (not shown) go. Single rows reflow as before. */
static void test_resize(void)
{
	struct t_term *t = t_new(40, 5, 100);
	t_feed(t, "abcdefghijklmnopqrstuvwxyz\033#6\r\n\033#6Hello World\r\nplain");
	CHECK(grid_resize(t->g, 20, 5) == 0, "resize");
	/* the first row's 20 shown cells of 26 (its half at 40 columns), at the new half of 10 */
	CHECK_ROW(t, 0, "abcdefghij");
	CHECK_ROW(t, 1, "klmnopqrst");
	CHECK_ROW(t, 2, "Hello Worl");
	CHECK_ROW(t, 3, "d");
	for (int y = 0; y < 4; y++)
		CHECK_SIZE(t, y, GRID_LINE_DOUBLE_WIDTH);
	CHECK_ROW(t, 4, "plain");
	CHECK_SIZE(t, 4, GRID_LINE_SINGLE);
	CHECK_CURSOR(t, 5, 4);
	CHECK(grid_resize(t->g, 80, 5) == 0, "resize");
	CHECK_ROW(t, 0, "abcdefghijklmnopqrst");
	CHECK_ROW(t, 1, "Hello World");
	CHECK_SIZE(t, 0, GRID_LINE_DOUBLE_WIDTH);
	CHECK_SIZE(t, 1, GRID_LINE_DOUBLE_WIDTH);
	CHECK_ROW(t, 2, "plain");
	CHECK_SIZE(t, 2, GRID_LINE_SINGLE);
	CHECK_CURSOR(t, 5, 2);
	t_free(t);
}

/* The selection takes display columns: on a double row a cell is two of them. Its text is the characters
 * once, the row's half only. */
static void test_selection(void)
{
	struct t_term *t = t_new(20, 3, 0);
	t_feed(t, "abcdefghijklmnopqrst\033#6\r\n\033#6Hello");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	grid_select_extend(t->g, 19, 1);
	CHECK(strcmp(sel(t), "abcdefghij\nHello\n") == 0, "line selection: \"%s\"", sel(t));
	/* columns 2..5 of the display are cells 1..2 */
	grid_select_start(t->g, 2, 1, GRID_SELECT_CELL);
	grid_select_extend(t->g, 5, 1);
	CHECK(strcmp(sel(t), "el") == 0, "cell selection: \"%s\"", sel(t));
	t_free(t);
}

/* Hostile input: every row double, then sizes down to 1x1 and up to 1000x1000; one- and two-column screens
 * (a half of one column, no room for a wide character); margins; the rectangle functions across double rows;
 * wide characters at the half's edge; REP past the half and huge below a scroll region. Never a crash (the
 * ASan build runs this), and the cells as xterm's rules give them. */
static void test_hostile(void)
{
	struct t_term *t = t_new(80, 24, 50);
	for (int y = 0; y < 24; y++)
		t_feedf(t, "\033[%d;1H\033#%c%s", y + 1, "346"[y % 3], "wide\xe4\xb8\xad\xe4\xb8\xadtext and more text here 0123456789");
	CHECK(grid_resize(t->g, 1, 1) == 0, "1x1");
	t_feed(t, "AB\xe4\xb8\xad\033#6C\xe4\xb8\xad\033[5b\033#3\033[?69h\033[1;1s\033#6x");
	CHECK(grid_resize(t->g, 1000, 1000) == 0, "1000x1000");
	for (int y = 0; y < 1000; y += 7)
		t_feedf(t, "\033[%d;1H\033#6\033[999C\xe4\xb8\xadZ\033[1000GQ\t\tW", y + 1);
	t_feed(t, "\033[1;1;1000;1000$z\033[2;1;40;999;5;1;1$v\033[1;1;999;999$x");
	CHECK(grid_resize(t->g, 3, 2) == 0, "3x2");
	t_feed(t, "\033[?69l\033[2J\033[H\033#6");
	CHECK_CURSOR(t, 0, 0);
	t_feed(t, "ab");
	CHECK_ROW(t, 0, "ab");
	CHECK_CURSOR(t, 1, 0);
	t_free(t);

	/* a one-column screen: the half is one column; a wide character fits nowhere */
	t = t_new(1, 3, 0);
	t_feed(t, "\033#6A\xe4\xb8\xad");
	CHECK_ROW(t, 0, "A");
	t_feed(t, "B");
	CHECK_ROW(t, 1, "B");
	t_free(t);
	/* two columns: a one-column half */
	t = t_new(2, 3, 0);
	t_feed(t, "\033#6\xe4\xb8\xad" "AB");
	CHECK_ROW(t, 0, "A");
	CHECK_ROW(t, 1, "B");
	t_free(t);

	/* a wide character at the half's last column wraps; insert mode on the row */
	t = t_new(20, 4, 0);
	t_feed(t, "\033#6ABCDEFGHI\xe4\xb8\xad" "X\r\n\033#6\033[4h\xe4\xb8\xad\xe4\xb8\xad\033[1G\xe4\xb8\xad");
	CHECK_ROW(t, 0, "ABCDEFGHI");
	CHECK_ROW(t, 1, "\xe4\xb8\xadX");
	CHECK_ROW(t, 2, "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad");
	t_free(t);

	/* rectangle functions over double rows act on the cells, the half or not (xterm 379: DECFRA there fills
	 * all 20, which DECSWL shows) */
	t = t_new(20, 4, 0);
	t_feed(t, "\033#6\033[2;1H\033#6\033[1;1;2;20$z\033[35;1;1;2;20$x\033[1;1;1;20;2;3;1$v");
	CHECK_ROW(t, 0, "####################");
	CHECK_ROW(t, 2, "####################");
	t_feed(t, "\033#5");
	CHECK_ROW(t, 0, "####################");
	t_free(t);

	/* REP: within the half, and huge with the cursor on a double row below the scroll region (the rows do
	 * not scroll there: every repeat overwrites that row's half) */
	t = t_new(10, 5, 0);
	struct t_term *u = t_new(10, 5, 0);
	/* the count clamps at 65535 (VT_PARAM_MAX): the same as 86 characters written one by one */
	t_feed(t, "\033[1;3r\033[5;1H\033#6x\033[2147483647b");
	t_feed(u, "\033[1;3r\033[5;1H\033#6");
	for (int i = 0; i < 86; i++)
		t_feed(u, "x");
	CHECK_ROW(t, 4, "xxxxx");
	struct grid_cursor ct, cu;
	grid_get_cursor(t->g, &ct);
	grid_get_cursor(u->g, &cu);
	CHECK(ct.x == cu.x && ct.y == cu.y && ct.x == 1, "REP cursor %d,%d, written %d,%d", ct.x, ct.y, cu.x, cu.y);
	t_free(u);
	t_free(t);
}

/* Random streams of the sequences that meet double rows, with resizes between them: the cursor stays on the
 * screen, every row has grid_cols() readable cells and a size the API knows (the ASan build reads them all). */
static void test_random(void)
{
	static const char *const ops[] = {
		"\033#6", "\033#3", "\033#4", "\033#5", "\033#8", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "x", "\xe4\xb8\xad",
		"\xc3\xa9\xcc\x81", "\033[5C", "\033[99C", "\033[3D", "\t", "\033[2I", "\b", "\r\n", "\n", "\033M",
		"\033[2@", "\033[3P", "\033[4X", "\033[K", "\033[1K", "\033[2K", "\033[J", "\033[1J", "\033[2J",
		"\033[?J", "\033[2L", "\033[2M", "\033[S", "\033[T", "\033[?69h", "\033[?69l", "\033[2;5s",
		"\033[2;4r", "\033[r", "\033[4h", "\033[4l", "\033[?7l", "\033[?7h", "\033[1049h", "\033[1049l",
		"\033[9b", "\0339", "\0336", "\033[1;1;3;30$z", "\033[35;1;2;4;40$x", "\033[1;1;3;9;2;2;1$v",
		"\033[2'}", "\033[2'~", "\033[2 @", "\033[2 A", "\033[!p", "\0337", "\0338", "\033[?6h", "\033[?6l",
	};
	const int nops = (int)(sizeof(ops) / sizeof(ops[0]));
	unsigned seed = 12345;
	for (int round = 0; round < 300; round++) {
		struct t_term *t = t_new(1 + (int)(seed % 30), 1 + (int)(seed / 7 % 8), 20);
		for (int k = 0; k < 120; k++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			if (r % 41 == 0) {
				grid_resize(t->g, 1 + (int)(r / 41 % 40), 1 + (int)(r / 1681 % 10));
			} else if (r % 5 == 0) {
				t_feedf(t, "\033[%u;%uH", r / 5 % 12 + 1, r / 60 % 45 + 1);
			} else {
				t_feed(t, ops[r / 5 % (unsigned)nops]);
			}
			struct grid_cursor c;
			grid_get_cursor(t->g, &c);
			const int cols = grid_cols(t->g), rows = grid_rows(t->g);
			if (c.x < 0 || c.x >= cols || c.y < 0 || c.y >= rows) {
				CHECK(0, "round %d step %d: cursor %d,%d on %dx%d", round, k, c.x, c.y, cols, rows);
				break;
			}
		}
		const int cols = grid_cols(t->g);
		for (int y = 0; y < grid_rows(t->g); y++) {
			const struct grid_cell *row = grid_row(t->g, y);
			unsigned sum = 0;
			for (int x = 0; x < cols; x++)
				sum += row[x].width;
			CHECK(sum <= 2u * (unsigned)cols && (unsigned)grid_row_size(t->g, y) <= GRID_LINE_DOUBLE_BOTTOM,
			      "round %d row %d", round, y);
		}
		grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
		grid_select_extend(t->g, cols - 1, grid_rows(t->g) - 1);
		free(grid_selection_text(t->g, NULL));
		t_free(t);
	}
}

int main(void)
{
	test_random();
	test_sizes_and_half();
	test_past_half();
	test_scrollback_and_after();
	test_resize();
	test_selection();
	test_hostile();
	return t_done("grid-dbl");
}
