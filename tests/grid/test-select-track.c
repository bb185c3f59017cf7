/* tests/grid/test-select-track.c: a selection while the text under it changes without printing over it (a mark
 * joining a selected character, a row made double or single, the screen switched under a drag) and its copy
 * from history rows the reflow laid out. Each case: the selection keeps the text it showed, or it goes. */
#include "harness.h"

#define sel t_sel
#define marks t_marks

/* A press on one screen, then the other screen entered or left (DECSET 1049) before the drag starts: the line
 * pressed is not on display any more, and its number counts the other screen's lines. The drag selected the
 * row of that number on the screen now shown ("a1" for a press on "p1"). Nothing is selected there; back on
 * the screen pressed, the line is the one pressed. */
static void test_start_line_other_screen(void)
{
	struct t_term *t = t_new(10, 3, 20);
	t_feed(t, "p0\r\np1\r\np2");
	const uint64_t p1 = grid_line_at(t->g, 1);
	t_feed(t, "\033[?1049h\033[Ha0\r\na1\r\na2");
	grid_select_start_line(t->g, 0, p1, GRID_SELECT_LINE);
	grid_select_extend(t->g, 1, 2);
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "a primary line on the alternate screen: [%s] %d cells",
	      sel(t), marks(t));
	const uint64_t a2 = grid_line_at(t->g, 2);
	t_feed(t, "\033[?1049l");
	grid_select_start_line(t->g, 0, a2, GRID_SELECT_LINE);
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "an alternate line on the primary screen: [%s] %d cells",
	      sel(t), marks(t));
	grid_select_start_line(t->g, 0, p1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "p1\n") == 0, "back on the primary screen, the line pressed: [%s]", sel(t));
	/* the alternate screen's own lines still select there, after it scrolled */
	t_feed(t, "\033[?1049h\033[Hx0\r\nx1\r\nx2");
	const uint64_t x1 = grid_line_at(t->g, 1);
	t_feed(t, "\r\nx3");
	grid_select_start_line(t->g, 0, x1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "x1\n") == 0, "on the alternate screen, scrolled: [%s]", sel(t));
	t_free(t);
}

/* DECDWL/DECDHL/DECSWL on a row the selection holds: the row's cells show at another place (twice as wide, or
 * past the half not at all), so what is highlighted is no longer what was selected. Cells 12..15 of a
 * 20-column row stayed selected, out of sight, their copy empty; cells selected on a double row stayed
 * selected, half as wide, when it became single. The selection goes, as when text is written under it; a
 * size change of another row leaves it. */
static void test_line_size_under_selection(void)
{
	static const char *const sizes[] = {"\033#6", "\033#3", "\033#4"};
	for (int k = 0; k < 3; k++) {
		struct t_term *t = t_new(20, 3, 20);
		t_feed(t, "0123456789abcdefghij\r\nnext");
		grid_select_start(t->g, 12, 0, GRID_SELECT_CELL);
		grid_select_extend(t->g, 15, 0);
		CHECK(strcmp(sel(t), "cdef") == 0, "selected: [%s]", sel(t));
		t_feedf(t, "\033[2H%s", sizes[k]);
		CHECK(strcmp(sel(t), "cdef") == 0, "another row made double (%d): [%s]", k, sel(t));
		t_feedf(t, "\033[1H%s", sizes[k]);
		CHECK(!grid_has_selection(t->g) && marks(t) == 0, "its row made double (%d): [%s] %d cells", k, sel(t),
		      marks(t));
		grid_select_start(t->g, 4, 0, GRID_SELECT_CELL);
		grid_select_extend(t->g, 9, 0);
		CHECK(strcmp(sel(t), "234") == 0, "on the double row: [%s]", sel(t));
		t_feed(t, "\033#5");
		CHECK(!grid_has_selection(t->g) && marks(t) == 0, "its row made single (%d): [%s] %d cells", k, sel(t),
		      marks(t));
		t_free(t);
	}
	/* the same size again changes nothing: the selection stays */
	struct t_term *t = t_new(20, 3, 20);
	t_feed(t, "\033#6abcdef");
	grid_select_start(t->g, 2, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 7, 0);
	t_feed(t, "\033#6");
	CHECK(strcmp(sel(t), "bcd") == 0, "the size it had: [%s]", sel(t));
	t_free(t);
}

/* A combining mark (or a code point that continues the cluster) joins the character printed last: when that
 * character is selected, the selection's text changes under it as when a character is printed on its row,
 * which clears it (xterm clears on a write to a selected row). It stayed, highlighting "ć" where "c" had been
 * selected (and copied). A mark joining a character on a row the selection does not hold leaves it. */
static void test_mark_joins_selected(void)
{
	struct t_term *t = t_new(10, 3, 20);
	t_feed(t, "xy\r\nabc");
	grid_select_start(t->g, 2, 1, GRID_SELECT_CELL);
	CHECK(strcmp(sel(t), "c") == 0, "selected: [%s]", sel(t));
	t_feed(t, "\xcc\x81");
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "a mark joined it: [%s] %d cells", sel(t), marks(t));
	/* at the right edge, the wrap pending; and onto a wide character whose right half ends the selection */
	t_feed(t, "\033[2;1H\033[2K0123456789");
	grid_select_start(t->g, 8, 1, GRID_SELECT_CELL);
	grid_select_extend(t->g, 9, 1);
	t_feed(t, "\xcc\x81");
	CHECK(!grid_has_selection(t->g), "a mark at the edge: [%s]", sel(t));
	t_feed(t, "\033[3;1Ha\xe4\xb8\xad");
	grid_select_start(t->g, 0, 2, GRID_SELECT_CELL);
	grid_select_extend(t->g, 2, 2);
	CHECK(strcmp(sel(t), "a\xe4\xb8\xad") == 0, "wide: [%s]", sel(t));
	t_feed(t, "\xe2\x83\x9d");
	CHECK(!grid_has_selection(t->g), "a mark on the wide character: [%s]", sel(t));
	/* a mark on another row */
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	t_feed(t, "\xcc\x81");
	CHECK(strcmp(sel(t), "xy\n") == 0, "a mark on another row: [%s]", sel(t));
	t_free(t);
}

/* A line laid out again by a resize while it is in the history keeps only its cells up to its last text: a
 * cell skipped by the cursor (CUF) that the new width puts at the end of a wrapped row is past them. The copy
 * of the wrapped row stopped at its cells and lost that blank ("ab" CUF "cd" copied as "abcd"; random lines
 * of letters, spaces, skipped cells and wide characters lost one in 6 of 100 resizes); as on the screen, the
 * row goes on to its end. */
static void test_history_reflow_blank(void)
{
	struct t_term *t = t_new(4, 2, 20);
	t_feed(t, "ab\033[Ccd\r\n\n\n");
	CHECK(grid_resize(t->g, 3, 2) == 0, "resized");
	CHECK(grid_view_scroll(t->g, 3) == 3, "scrolled back");
	CHECK_ROW(t, 0, "ab");
	CHECK(grid_row_wrapped(t->g, 0), "row 0 wraps");
	CHECK_ROW(t, 1, "cd");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "ab cd\n") == 0, "a line: [%s]", sel(t));
	grid_select_start(t->g, 1, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 0, 1);
	CHECK(strcmp(sel(t), "b c") == 0, "cells across the wrap: [%s]", sel(t));
	t_free(t);
}

/* A cell skipped by the cursor before a wide character, put by a narrower width at the end of a row with the
 * wide character starting the next: a blank at a row's end before a wide character was taken for the blank a
 * wide character leaves when it wraps early (no text), so the copy lost it ("abck" CUF "中" copied as
 * "abck中") and the next resize joined the two ("abck中" on a wide row). The row now says whether it wrapped
 * early: that blank alone goes, whether printing or the reflow left it, on the screen or in the history. */
static void test_reflow_blank_before_wide(void)
{
	struct t_term *t = t_new(8, 4, 20);
	t_feed(t, "abck\033[C\xef\xbc\xa1\r\nabcd\xef\xbc\xa1");
	CHECK(grid_resize(t->g, 5, 4) == 0, "resized to 5");
	CHECK_ROW(t, 0, "abck");
	CHECK_ROW(t, 1, "\xef\xbc\xa1");
	CHECK_ROW(t, 2, "abcd");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "abck \xef\xbc\xa1\n") == 0, "a skipped cell at the row's end: [%s]", sel(t));
	grid_select_start(t->g, 0, 2, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "abcd\xef\xbc\xa1\n") == 0, "the reflow's early wrap: [%s]", sel(t));
	grid_select_start(t->g, 0, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abck") == 0, "the word ends at the skipped cell: [%s]", sel(t));
	grid_select_start(t->g, 0, 2, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcd\xef\xbc\xa1") == 0, "the word goes on over the early wrap: [%s]", sel(t));
	CHECK(grid_resize(t->g, 8, 4) == 0, "resized to 8");
	CHECK_ROW(t, 0, "abck \xef\xbc\xa1");
	CHECK_ROW(t, 1, "abcd\xef\xbc\xa1");
	/* in the history, laid out there */
	t_feed(t, "\r\n\n\n\n");
	CHECK(grid_resize(t->g, 5, 4) == 0, "resized to 5 again");
	CHECK(grid_view_scroll(t->g, 4) == 4, "scrolled back");
	CHECK_ROW(t, 0, "abck");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "abck \xef\xbc\xa1\n") == 0, "in the history: [%s]", sel(t));
	grid_select_start(t->g, 0, 2, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "abcd\xef\xbc\xa1\n") == 0, "the early wrap in the history: [%s]", sel(t));
	grid_view_scroll(t->g, -4);
	CHECK(grid_resize(t->g, 8, 4) == 0, "resized to 8 again");
	CHECK(grid_view_scroll(t->g, 3) > 0, "scrolled back again");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	grid_select_extend(t->g, 0, 1);
	CHECK(strcmp(sel(t), "abck \xef\xbc\xa1\nabcd\xef\xbc\xa1\n") == 0, "wide again: [%s]", sel(t));
	t_free(t);
}

/* On a double-width row a wide character wraps early at the row's half, where its blank is left: that blank is
 * no text there either (it was looked for in the row's last column, so "abcdefghi" ESC # 6 then "Ａz" was
 * copied as "abcdefghi Ａz" and a double click took "abcdefghi" alone). */
static void test_double_row_wide_wrap(void)
{
	struct t_term *t = t_new(20, 3, 20);
	t_feed(t, "\033#6abcdefghi\xef\xbc\xa1" "z");
	CHECK_ROW(t, 0, "abcdefghi");
	CHECK(grid_row_wrapped(t->g, 0), "row 0 wraps");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z\n") == 0, "a line: [%s]", sel(t));
	grid_select_start(t->g, 0, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "a word: [%s]", sel(t));
	grid_select_start(t->g, 0, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "a word from below: [%s]", sel(t));
	t_free(t);
}

/* A selected row that the next character wraps (its line goes on to the next row: its end is no end any
 * more) changes what the selection holds: a triple-clicked "abcde" copied as "abcde\n" became "abcde" when
 * "f" followed, highlighting only half of its line. It goes, as when text is written on the row, whichever
 * printer wraps (ASCII, other code points, a wide character, one that wraps early); a selection of another
 * row stays. */
static void test_wrap_of_selected_row(void)
{
	static const char *const next[] = {"f", "fgh", "\xc3\xa9", "\xe4\xb8\xad", "\033[?7l\033[?7hf"};
	for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++) {
		for (int early = 0; early < 2; early++) {
			struct t_term *t = t_new(5, 4, 20);
			t_feed(t, "xy\r\n\r\nzz\033[1;1H");
			t_feed(t, early ? "abcd" : "abcde");
			grid_select_start(t->g, 0, 2, GRID_SELECT_LINE);
			grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
			CHECK(strcmp(sel(t), early ? "abcd\n" : "abcde\n") == 0, "selected: [%s]", sel(t));
			t_feed(t, early ? "\xe4\xb8\xad" : next[i]);
			CHECK(!grid_has_selection(t->g) && marks(t) == 0, "%s after %s: [%s] %d cells",
			      early ? "an early wrap" : next[i], early ? "abcd" : "abcde", sel(t), marks(t));
			t_free(t);
		}
	}
	struct t_term *t = t_new(5, 4, 20);
	t_feed(t, "xy\r\n\r\nabcde");
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	t_feed(t, "f");
	CHECK(strcmp(sel(t), "xy\n") == 0, "another row's wrap: [%s]", sel(t));
	t_free(t);
}

/* The text of the whole scrollback and screen as a line selection copies it, line ends at its end trimmed. */
static void copy_all(struct t_term *t, char *out, size_t cap)
{
	grid_select_start_line(t->g, 0, 0, GRID_SELECT_LINE);
	grid_select_extend(t->g, grid_cols(t->g) - 1, grid_rows(t->g) - 1);
	size_t n = 0;
	char *s = grid_selection_text(t->g, &n);
	while (s && n > 0 && s[n - 1] == '\n')
		n--;
	snprintf(out, cap, "%.*s", s ? (int)n : 6, s ? s : "(null)");
	free(s);
}

/* Random lines of letters, printed spaces, cells skipped by CUF and wide characters, printed at one width and
 * resized twice: each time the copy of everything is the text printed (found 6 of 100 losing a blank, 5 of
 * 20,000 after the history fix, before LINE_WIDE_WRAP). A CUF at the last two columns would not skip a cell
 * (it stops at the margin, or leaves a blank where a wide character's early wrap leaves one): a space there. */
static void test_reflow_copy_random(void)
{
	int bad = 0;
	for (unsigned seed = 1; seed <= 3000; seed++) {
		srand(seed);
		const int w = 2 + rand() % 12, rows = 3 + rand() % 5;
		struct t_term *t = t_new(w, rows, 200);
		char want[4096], got[4096];
		size_t k = 0;
		for (int l = 1 + rand() % 6; l > 0; l--) {
			/* the line's characters: a wide one (W), a space, a cell to skip (_) or a letter; none of the
			 * blanks after its last text (a copy has none there) */
			char line[32];
			int n = rand() % 30;
			for (int i = 0; i < n; i++) {
				const int r = rand() % 10;
				line[i] = r < 3 ? 'W' : r < 4 ? ' ' : r < 5 ? '_' : (char)('a' + rand() % 26);
			}
			while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '_'))
				n--;
			for (int i = 0; i < n; i++) {
				struct grid_cursor c;
				grid_get_cursor(t->g, &c);
				if (line[i] == 'W') {
					t_feed(t, "\xe4\xb8\xad");
					memcpy(want + k, "\xe4\xb8\xad", 3);
					k += 3;
				} else if (line[i] == ' ' || line[i] == '_') {
					t_feed(t, line[i] == '_' && c.x < w - 2 ? "\033[C" : " ");
					want[k++] = ' ';
				} else {
					grid_feed(t->g, (const uint8_t *)line + i, 1);
					want[k++] = line[i];
				}
			}
			t_feed(t, "\r\n");
			want[k++] = '\n';
		}
		while (k > 0 && want[k - 1] == '\n')
			k--;
		want[k] = '\0';
		for (int step = 0; step < 3; step++) {
			if (step > 0)
				grid_resize(t->g, 2 + rand() % 12, rows);
			copy_all(t, got, sizeof(got));
			if (strcmp(got, want) != 0 && bad++ < 3)
				CHECK(false, "seed %u, width %d, resize %d: [%s], not [%s]", seed, grid_cols(t->g), step, got,
				      want);
		}
		t_free(t);
	}
	CHECK(bad == 0, "%d copies differ", bad);
}

/* A selection whose first lines leave a full history (output while it is made or after) keeps the part that is
 * left, from column 0 of the oldest line, as xterm 379 trims its own (measured: -sl 20, a selection from column
 * 2 of a line, 21 more lines, then a right click extends it: it starts at the next line's column 0); it goes
 * once its last line has gone too. It was cleared at its first line's drop, and a drag whose press line
 * scrolled out under a flood copied nothing. */
static void test_history_drops_first_line(void)
{
	struct t_term *t = t_new(10, 3, 5);
	t_feed(t, "L0\r\nL1\r\nL2\r\nL3\r\nL4\r\nL5\r\nL6\r\nL7"); /* the history L0..L4 (full), the screen L5..L7 */
	grid_select_start(t->g, 1, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 1, 2);
	CHECK(strcmp(sel(t), "5\nL6\nL7") == 0, "selected: [%s]", sel(t));
	t_feed(t, "\r\nM0\r\nM1\r\nM2\r\nM3\r\nM4");
	CHECK(strcmp(sel(t), "5\nL6\nL7") == 0, "L5 the oldest line, still held: [%s]", sel(t));
	t_feed(t, "\r\nM5");
	CHECK(strcmp(sel(t), "L6\nL7") == 0, "L5 gone: the rest from L6's column 0: [%s]", sel(t));
	CHECK(grid_view_scroll(t->g, 5) == 5, "scrolled to the oldest line");
	/* L6's row whole (a middle line), L7's first two cells */
	CHECK(marks(t) == 12 && (grid_row(t->g, 0)[0].flags & GRID_CELL_SELECTED) &&
		      (grid_row(t->g, 1)[1].flags & GRID_CELL_SELECTED) &&
		      !(grid_row(t->g, 1)[2].flags & GRID_CELL_SELECTED),
	      "L6 and L7 highlighted: %d cells", marks(t));
	grid_view_scroll(t->g, -5);
	t_feed(t, "\r\nM6");
	CHECK(strcmp(sel(t), "L7") == 0, "L6 gone too: [%s]", sel(t));
	t_feed(t, "\r\nM7");
	CHECK(!grid_has_selection(t->g), "all of it gone: [%s]", sel(t));

	/* a drag in progress: its press line scrolls out, the drag goes on from what is left */
	t_feed(t, "\033[2J\033[3J\033[HL0\r\nL1\r\nL2\r\nL3\r\nL4\r\nL5\r\nL6\r\nL7");
	grid_select_start(t->g, 1, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 1, 1);
	t_feed(t, "\r\nM0\r\nM1\r\nM2\r\nM3\r\nM4\r\nM5");
	grid_select_extend(t->g, 1, 0);
	CHECK(strcmp(sel(t), "L6\nL7\nM0\nM1\nM2\nM3") == 0, "the drag after the flood: [%s]", sel(t));

	/* a press not yet dragged (kmscon-felis's glue keeps its line): the line gone, the oldest from column 0 */
	t_feed(t, "\033[2J\033[3J\033[HL0\r\nL1\r\nL2\r\nL3\r\nL4\r\nL5\r\nL6\r\nL7");
	const uint64_t l5 = grid_line_at(t->g, 0);
	t_feed(t, "\r\nM0\r\nM1\r\nM2\r\nM3\r\nM4\r\nM5");
	grid_select_start_line(t->g, 1, l5, GRID_SELECT_CELL);
	grid_select_extend(t->g, 1, 0);
	CHECK(strcmp(sel(t), "L6\nL7\nM0\nM1\nM2\nM3") == 0, "a press on a line gone: [%s]", sel(t));
	t_free(t);
}

/* A selection made anywhere (scrolled back or not, cells, word or line) while output scrolls the screen, a
 * region, the alternate screen in and out, the view, CSI 3 J, SD: at each step it holds the text it held, the end
 * of it that is left when a history of at most 5 lines drops its first lines, or it is gone; it never moves onto
 * other text. */
static void test_scroll_keeps_text_random(void)
{
	int bad = 0;
	for (unsigned seed = 1; seed <= 2000; seed++) {
		srand(seed);
		const int cols = 3 + rand() % 8, rows = 2 + rand() % 4;
		struct t_term *t = t_new(cols, rows, (size_t)(rand() % 6));
		for (int i = rand() % 20; i > 0; i--)
			t_feedf(t, "L%d%s", i, rand() % 3 ? "\r\n" : "");
		grid_view_scroll(t->g, rand() % 6);
		grid_select_start(t->g, rand() % cols, rand() % rows, (enum grid_select_mode)(rand() % 3));
		if (rand() % 2)
			grid_select_extend(t->g, rand() % cols, rand() % rows);
		char before[1024];
		snprintf(before, sizeof(before), "%s", sel(t));
		static const char *const steps[] = {"\033[S", "\033[2;3r\033[3H\n\033[r", "\033[?1049h\n\033[?1049l",
						    "\033[3J", "\033[T", "\r\n"};
		for (int i = rand() % 12; i > 0 && grid_has_selection(t->g); i--) {
			const int r = rand() % 8;
			if (r < 6)
				t_feedf(t, "\033[%dH%s", rows, steps[r]);
			else
				grid_view_scroll(t->g, rand() % 5 - 2);
			if (!grid_has_selection(t->g) || strcmp(sel(t), before) == 0)
				continue;
			/* its first lines dropped from the history: what is left of them, the old text's end */
			const char *now = sel(t);
			const size_t nb = strlen(before), nn = strlen(now);
			if (nn < nb && strcmp(before + nb - nn, now) == 0)
				snprintf(before, sizeof(before), "%s", now);
			else if (bad++ < 3)
				CHECK(false, "seed %u: [%s] became [%s]", seed, before, now);
		}
		t_free(t);
	}
	CHECK(bad == 0, "%d selections moved", bad);
}

int main(void)
{
	test_start_line_other_screen();
	test_line_size_under_selection();
	test_mark_joins_selected();
	test_history_reflow_blank();
	test_reflow_blank_before_wide();
	test_double_row_wide_wrap();
	test_wrap_of_selected_row();
	test_reflow_copy_random();
	test_history_drops_first_line();
	test_scroll_keeps_text_random();
	return t_done("grid-select-track");
}
