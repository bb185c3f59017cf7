/* tests/grid/test-select.c: selection by cell, word and line; UTF-8 extraction with soft wraps joined and
 * trailing blanks trimmed; GRID_CELL_SELECTED on the cells; tracking through scrolling. */
#include <sys/resource.h>

#include "harness.h"

#define sel t_sel
#define marks t_marks

/* A region from the top row scrolls its lines into the history and the rows below it stay, but their
 * absolute line numbers move on by one: a selection there was left pointing at the region's new blank row
 * (its text gone from the selection) and its marks stayed on the status row after the clear, highlighted for
 * good. It goes, as any selection whose text changes. One inside the region follows its text. */
static void test_below_top_region(void)
{
	struct t_term *t = t_new(10, 5, 20);
	t_feed(t, "a\r\nb\r\nc\r\nd\r\nSTATUS\033[1;4r\033[4;1H");
	grid_select_start(t->g, 0, 4, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "STATUS\n") == 0, "status: %s", sel(t));
	t_feed(t, "\n");
	CHECK_ROW(t, 4, "STATUS");
	CHECK(!grid_has_selection(t->g), "kept: %s", sel(t));
	CHECK(!(grid_row(t->g, 4)[0].flags & GRID_CELL_SELECTED), "status row still marked");
	grid_select_clear(t->g);
	CHECK(!(grid_row(t->g, 4)[0].flags & GRID_CELL_SELECTED), "status row marked after the clear");
	grid_select_start(t->g, 0, 1, GRID_SELECT_LINE);
	t_feed(t, "\n");
	CHECK(grid_has_selection(t->g) && strcmp(sel(t), "c\n") == 0, "in the region: %s", sel(t));
	CHECK(grid_row(t->g, 0)[0].flags & GRID_CELL_SELECTED, "mark moved with its row");
	t_free(t);
}

/* A wide character that did not fit at the end of a row went to the next one, leaving the row's last cell
 * blank: that blank is no text of the line ("abcd 中e" was copied), on the screen or in the history. */
static void test_wide_wrap_blank(void)
{
	struct t_term *t = t_new(5, 3, 20);
	t_feed(t, "abcd\xe4\xb8\xad" "e");
	CHECK_ROW(t, 0, "abcd");
	CHECK(grid_row_wrapped(t->g, 0), "soft wrap");
	/* to the cell after the text: one further, the line end would come too (test_drag_past_line_end) */
	grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 3, 1);
	CHECK(strcmp(sel(t), "abcd\xe4\xb8\xad" "e") == 0, "screen: [%s]", sel(t));
	grid_select_clear(t->g);
	t_feed(t, "\r\n\n\n");
	CHECK(grid_view_scroll(t->g, 2) == 2, "scrolled back");
	CHECK_ROW(t, 0, "abcd");
	grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 3, 1);
	CHECK(strcmp(sel(t), "abcd\xe4\xb8\xad" "e") == 0, "history: [%s]", sel(t));
	t_free(t);
}

/* A word of wide characters is selected whole, from either half of any of them (a right half's cell is blank:
 * the word stopped at every character, "中文字" gave "文") */
static void test_word_wide(void)
{
	struct t_term *t = t_new(20, 3, 20);
	t_feed(t, "ab \xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97 cd");
	for (int x = 3; x <= 8; x++) {
		grid_select_start(t->g, x, 0, GRID_SELECT_WORD);
		CHECK(strcmp(sel(t), "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97") == 0, "from column %d: [%s]", x, sel(t));
	}
	t_free(t);
}

/* A word or a line that wrapped is one unit, whichever of its rows is clicked, also from the history (a
 * wrapped URL gave "http:/" or "om/x"), as xterm.js and kitty select it; a hard line end still ends both. */
static void test_units_across_wraps(void)
{
	struct t_term *t = t_new(10, 6, 20);
	t_feed(t, "see http://example.com/x ok\r\nnext");
	CHECK_ROW(t, 0, "see http:/");
	CHECK_ROW(t, 1, "/example.c");
	for (int y = 0; y < 3; y++) {
		grid_select_start(t->g, y == 0 ? 6 : 2, y, GRID_SELECT_WORD);
		CHECK(strcmp(sel(t), "http://example.com/x") == 0, "word from row %d: [%s]", y, sel(t));
		grid_select_start(t->g, 1, y, GRID_SELECT_LINE);
		CHECK(strcmp(sel(t), "see http://example.com/x ok\n") == 0, "line from row %d: [%s]", y, sel(t));
	}
	grid_select_start(t->g, 1, 3, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "next\n") == 0, "a line on its own: [%s]", sel(t));
	grid_select_start(t->g, 6, 2, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "ok") == 0, "a word that does not wrap: [%s]", sel(t));
	/* a wide character's early wrap leaves a blank that is no end of the word (a fullwidth letter: a word
	 * character, where CJK ideographs are a class of their own) */
	t_feed(t, "\r\nabcdefghi\xef\xbc\xa1" "z");
	CHECK_ROW(t, 4, "abcdefghi");
	grid_select_start(t->g, 0, 4, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "over the wide wrap: [%s]", sel(t));
	grid_select_start(t->g, 2, 5, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "back over the wide wrap: [%s]", sel(t));
	/* rows in the history */
	t_feed(t, "\r\n\n\n\n");
	CHECK(grid_view_scroll(t->g, 4) == 4, "scrolled back");
	CHECK_ROW(t, 1, "/example.c");
	grid_select_start(t->g, 3, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "http://example.com/x") == 0, "word in the history: [%s]", sel(t));
	t_free(t);
	/* the wide character's early wrap in the history, which keeps a row's written cells only: the blank it
	 * left is past them, and ended the word there ("abcdefghi", then "Ａz") */
	t = t_new(10, 3, 20);
	t_feed(t, "abcdefghi\xef\xbc\xa1" "z\r\n\n\n");
	CHECK(grid_view_scroll(t->g, 2) == 2, "scrolled back 2");
	CHECK_ROW(t, 0, "abcdefghi");
	grid_select_start(t->g, 0, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "over the wide wrap in the history: [%s]", sel(t));
	grid_select_start(t->g, 2, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "abcdefghi\xef\xbc\xa1" "z") == 0, "back over the wide wrap in the history: [%s]",
	      sel(t));
	t_free(t);
}

/* A line selection (triple click) takes the line's end with it, as xterm's does (its cutNewline resource, true by
 * default): pasted, the line is a whole line again, its Enter included. A line that wrapped ends once, after its
 * last row; the cursor's line ends there too, as in xterm. A selection of cells takes the line ends inside it only. */
static void test_line_newline(void)
{
	struct t_term *t = t_new(10, 5, 20);
	t_feed(t, "see http://example.com/x ok\r\nnext\r\nlast");
	grid_select_start(t->g, 1, 3, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "next\n") == 0, "a line: [%s]", sel(t));
	grid_select_start(t->g, 1, 1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "see http://example.com/x ok\n") == 0, "a wrapped line: [%s]", sel(t));
	grid_select_extend(t->g, 0, 3);
	CHECK(strcmp(sel(t), "see http://example.com/x ok\nnext\n") == 0, "two lines: [%s]", sel(t));
	grid_select_start(t->g, 1, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 3, 3);
	CHECK(strcmp(sel(t), "ee http://example.com/x ok\nnext") == 0, "cells: [%s]", sel(t));
	t_feed(t, "\r\n0123456789ab");
	grid_select_start(t->g, 0, 3, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "0123456789ab\n") == 0, "the cursor's line: [%s]", sel(t));
	t_free(t);
}

/* CSI 3 J erases the history and leaves the screen as it is (xterm): a selection of text on the screen stays,
 * marks and all (printf '\e[3J', or a program that empties only the history, dropped a selection still there to
 * see and copy); one that reaches into the erased history goes with it. */
static void test_erase_history_keeps_screen(void)
{
	struct t_term *t = t_new(10, 3, 20);
	t_feed(t, "old1\r\nold2\r\nold3\r\nfoo bar\r\nbaz");
	CHECK(grid_scrollback_lines(t->g) == 2, "history %zu", (size_t)grid_scrollback_lines(t->g));
	grid_select_start(t->g, 1, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "foo") == 0, "selected: [%s]", sel(t));
	t_feed(t, "\033[3J");
	CHECK(grid_scrollback_lines(t->g) == 0, "history erased");
	CHECK(grid_has_selection(t->g) && strcmp(sel(t), "foo") == 0, "on the screen: [%s]", sel(t));
	CHECK(marks(t) == 3, "%d cells marked", marks(t));
	t_feed(t, "\r\nmore\r\nlines\r\n");
	CHECK(grid_view_scroll(t->g, 1) == 1, "scrolled back");
	grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 3, 1);
	CHECK(strcmp(sel(t), "baz\nmore") == 0, "from the history: [%s]", sel(t));
	t_feed(t, "\033[3J");
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "a selection in the erased history stays: [%s]", sel(t));
	t_free(t);
}

/* The word selected by a double click at each case's column of a 20-column row holding text. */
struct word_case {
	int x;
	const char *want;
};

static void words_on_row(const char *text, const struct word_case *cases)
{
	struct t_term *t = t_new(20, 3, 20);
	t_feed(t, text);
	for (; cases->want; cases++) {
		grid_select_start(t->g, cases->x, 0, GRID_SELECT_WORD);
		CHECK(strcmp(sel(t), cases->want) == 0, "column %d of \"%s\": [%s], not [%s]", cases->x, text, sel(t),
		      cases->want);
	}
	t_free(t);
}

/* xterm 379's default word classes past Latin-1 (grid-select.c classes[], measured on xterm 379 by double
 * clicks on each unit below, the selection pasted back: every one gave the text here). Every code point past
 * U+00FF but general punctuation was a word character: "ab中文cd" was one word, and "a€b←c" too. */
static void test_word_classes(void)
{
	/* CJK ideographs (U+3300..U+9FFF, U+F900..U+FAFF), hiragana and katakana are classes apart from words: "ab中文cd" was one word */
	static const struct word_case c0[] = {{0, "ab"}, {2, "\xe4\xb8\xad\xe6\x96\x87"}, {3, "\xe4\xb8\xad\xe6\x96\x87"}, {6, "cd"}, {8, "\xe3\x81\x82\xe3\x81\x84"}, {9, "\xe3\x81\x82\xe3\x81\x84"}, {12, "x"}, {-1, NULL}};
	words_on_row("ab\xe4\xb8\xad\xe6\x96\x87" "cd\xe3\x81\x82\xe3\x81\x84x", c0);
	/* katakana, hangul syllables (U+AC00..U+D7A3), hiragana and CJK ideographs are four classes */
	static const struct word_case c1[] = {{0, "\xe3\x82\xa2\xe3\x82\xa4\xe3\x83\xbc"}, {1, "\xe3\x82\xa2\xe3\x82\xa4\xe3\x83\xbc"}, {6, "\xed\x95\x9c\xea\xb8\x80"}, {7, "\xed\x95\x9c\xea\xb8\x80"}, {10, "\xe3\x81\x82"}, {12, "\xe4\xb8\xad\xe8\xb1\x88"}, {13, "\xe4\xb8\xad\xe8\xb1\x88"}, {-1, NULL}};
	words_on_row("\xe3\x82\xa2\xe3\x82\xa4\xe3\x83\xbc\xed\x95\x9c\xea\xb8\x80\xe3\x81\x82\xe4\xb8\xad\xe8\xb1\x88", c1);
	/* superscripts U+2070..U+207F and subscripts U+2080..U+208F are a class each; U+2090..U+27FF (currency, arrows, box drawing, blocks) each code point a class of its own */
	static const struct word_case c2[] = {{0, "a"}, {1, "\xe2\x82\xac"}, {2, "\xe2\x82\xb9"}, {3, "b"}, {4, "\xe2\x86\x90"}, {5, "\xe2\x86\x92"}, {6, "\xe2\x81\xb0\xe2\x81\xbf"}, {8, "\xe2\x82\x80\xe2\x82\x89"}, {10, "\xe2\x82\x90"}, {11, "\xe2\x94\x80"}, {12, "\xe2\x94\x82"}, {13, "\xe2\x96\x88"}, {14, "z"}, {-1, NULL}};
	words_on_row("a\xe2\x82\xac\xe2\x82\xb9" "b\xe2\x86\x90\xe2\x86\x92\xe2\x81\xb0\xe2\x81\xbf\xe2\x82\x80\xe2\x82\x89\xe2\x82\x90\xe2\x94\x80\xe2\x94\x82\xe2\x96\x88z", c2);
	/* fullwidth punctuation, ideographic punctuation U+3001..U+3020 and the small forms each a class of their own, fullwidth letters and digits words; from U+FFE0 each code point a class of its own (CJK extension B too) */
	static const struct word_case c3[] = {{0, "\xef\xbd\x81\xef\xbc\x90"}, {4, "\xef\xbc\x81"}, {6, "\xe3\x80\x81"}, {8, "\xe3\x80\x82"}, {10, "\xef\xb9\x90"}, {12, "\xf0\x9f\x98\x80"}, {14, "\xf0\xa0\x80\x80"}, {16, "\xe4\xb8\xad"}, {-1, NULL}};
	words_on_row("\xef\xbd\x81\xef\xbc\x90\xef\xbc\x81\xe3\x80\x81\xe3\x80\x82\xef\xb9\x90\xf0\x9f\x98\x80\xf0\xa0\x80\x80\xe4\xb8\xad", c3);
	/* Greek and Armenian punctuation (U+037E, U+0387, U+055A..U+055F, U+0589) each a class of its own; what xterm 379 leaves as words: Braille, bopomofo, Hangul compatibility jamo, Yi, Hebrew and Arabic punctuation */
	static const struct word_case c4[] = {{0, "a"}, {1, ";"}, {2, "\xc2\xb7"}, {3, "b"}, {4, "\xd5\x9a"}, {5, "\xd5\x9b"}, {6, "c"}, {7, "\xd6\x89"}, {8, "\xe2\xa0\x81\xe3\x84\x85\xe3\x84\xb1\xea\x80\x80\xd8\x8c\xd7\x83"}, {-1, NULL}};
	words_on_row("a;\xc2\xb7" "b\xd5\x9a\xd5\x9b" "c\xd6\x89\xe2\xa0\x81\xe3\x84\x85\xe3\x84\xb1\xea\x80\x80\xd8\x8c\xd7\x83", c4);
}

/* A double click on a blank selects the run of blanks around it, as xterm's character classes (blanks are one
 * class) and foot do: it selected that one cell. Blanks printed or left by cursor motion alike, joined across
 * a soft wrap as words are; past the end of a line's text the run reaches the row's end, and its copy has no
 * trailing blanks (nothing), as any line's. Blanks inside a line's text are kept in a copy, as xterm keeps
 * them: only those after its last text go. */
static void test_word_blanks(void)
{
	struct t_term *t = t_new(12, 4, 20);
	t_feed(t, "ab   cd ef\r\nab\033[3Ccd\r\nxy");
	for (int x = 2; x <= 4; x++) {
		grid_select_start(t->g, x, 0, GRID_SELECT_WORD);
		CHECK(strcmp(sel(t), "   ") == 0 && marks(t) == 3, "printed blanks from column %d: [%s] %d cells", x,
		      sel(t), marks(t));
		grid_select_start(t->g, x, 1, GRID_SELECT_WORD);
		CHECK(strcmp(sel(t), "   ") == 0 && marks(t) == 3, "skipped blanks from column %d: [%s] %d cells", x,
		      sel(t), marks(t));
	}
	grid_select_start(t->g, 0, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "ab") == 0, "a word stops at blanks: [%s]", sel(t));
	grid_select_start(t->g, 6, 2, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "") == 0 && marks(t) == 10, "past the text: [%s] %d cells", sel(t), marks(t));
	grid_select_start(t->g, 10, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "") == 0 && marks(t) == 2, "past the text after a word: [%s] %d cells", sel(t),
	      marks(t));
	t_free(t);

	/* Unicode's blanks are blanks (xterm's BLANK class: U+2000..U+200A, the ideographic space U+3000): "中　文"
	 * was one word */
	static const struct word_case spaces[] = {{0, "\xe4\xb8\xad"}, {3, "\xe3\x80\x80"}, {7, "a"},
						   {8, "\xe2\x80\x83\xe2\x80\x82"}, {-1, NULL}};
	words_on_row("\xe4\xb8\xad\xe3\x80\x80\xe6\x96\x87 a\xe2\x80\x83\xe2\x80\x82" "b", spaces);
	/* A run of one punctuation character is one unit, as in xterm (each is a class of its own there): a double
	 * click on "((((" or on a ";;" took one character; different ones stay apart. */
	static const struct word_case punct[] = {{3, "(((("}, {6, "))"}, {10, ";;"}, {13, "\""}, {-1, NULL}};
	words_on_row("f((((x)) a;; \"'b", punct);
	/* both ends of U+2000..U+200A are blanks (xterm's BLANK class): the hair space U+200A inside "a b" was a
	 * word character, which joined the two words */
	static const struct word_case ends[] = {{0, "a"}, {1, "\xe2\x80\x8a"}, {2, "b"}, {3, "\xe2\x80\x80"},
						 {4, "c"}, {-1, NULL}};
	words_on_row("a\xe2\x80\x8a" "b\xe2\x80\x80" "c", ends);
	/* the comma is a class of its own, as xterm's charClass table has it: "a,,b" is three units */
	static const struct word_case comma[] = {{0, "a"}, {1, ",,"}, {3, "b"}, {-1, NULL}};
	words_on_row("a,,b", comma);
	/* a character with marks is of its base character's class, as in xterm (which classes a cell by its base):
	 * a space or a bracket carrying a mark was a word character, which joined "a" and "b" into one word */
	static const struct word_case marked[] = {{0, "a"}, {1, " \xcc\x81"}, {2, "b"}, {4, "((\xcc\x81("}, {6, "x"},
						   {-1, NULL}};
	words_on_row("a \xcc\x81" "b((\xcc\x81(x", marked);

	/* xterm's default classes from U+0080 up: Latin-1 punctuation and symbols (U+00A0..U+00BF, NBSP too, and
	 * the signs x and / of U+00D7, U+00F7) and general punctuation (U+200B..U+206F) are each a class of their
	 * own, Latin-1 letters and others word characters: every code point from U+0080 was a word character, and
	 * "«ab»" or "a—b" was one word */
	static const struct word_case latin1[] = {{0, "\xc2\xab"}, {1, "\x61\x62"}, {3, "\xc2\xbb"}, {5, "\xc2\xbf"}, {6, "\x78"}, {7, "\xc3\x97"}, {8, "\x79"}, {9, "\xc3\xb7"}, {10, "\x7a\xc3\xa9"}, {13, "\xc2\xa1"}, {14, "\xc2\xa7\xc2\xa7"}, {16, "\xc2\xb6"}, {17, "\xc2\xb7"}, {18, "\xc2\xa0"}, {19, "\x71"}, {-1, NULL}};
	words_on_row("\xc2\xab\x61\x62\xc2\xbb\x20\xc2\xbf\x78\xc3\x97\x79\xc3\xb7\x7a\xc3\xa9\x20\xc2\xa1\xc2\xa7\xc2\xa7\xc2\xb6\xc2\xb7\xc2\xa0\x71", latin1);
	static const struct word_case general[] = {{0, "\x61"}, {1, "\xe2\x80\x94"}, {2, "\x62"}, {3, "\xe2\x80\xa6\xe2\x80\xa6"}, {5, "\x63"}, {6, "\xe2\x80\x98"}, {7, "\x64\xc5\x82"}, {9, "\xe2\x80\x99"}, {11, "\xe2\x80\xba"}, {12, "\x78"}, {-1, NULL}};
	words_on_row("\x61\xe2\x80\x94\x62\xe2\x80\xa6\xe2\x80\xa6\x63\xe2\x80\x98\x64\xc5\x82\xe2\x80\x99\x20\xe2\x80\xba\x78", general);

	/* The same in the history, where a line keeps only its written cells: the rest of the row showed no
	 * highlight (a line selection there stopped at the text, a double click past it showed nothing). */
	t = t_new(10, 3, 20);
	t_feed(t, "ab\r\ncd\r\n\n\n\n");
	CHECK(grid_view_scroll(t->g, 3) == 3, "scrolled back");
	CHECK_ROW(t, 0, "ab");
	grid_select_start(t->g, 5, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "") == 0 && marks(t) == 8, "past the text in the history: [%s] %d cells", sel(t),
	      marks(t));
	grid_select_start(t->g, 0, 1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "cd\n") == 0 && marks(t) == 10, "a line in the history: [%s] %d cells", sel(t),
	      marks(t));
	t_free(t);

	t = t_new(10, 4, 20);
	t_feed(t, "abcdefgh    ij");
	CHECK(grid_row_wrapped(t->g, 0), "soft wrap");
	grid_select_start(t->g, 1, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "    ") == 0 && marks(t) == 4, "blanks across the wrap, from below: [%s] %d cells",
	      sel(t), marks(t));
	grid_select_start(t->g, 8, 0, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "    ") == 0 && marks(t) == 4, "blanks across the wrap, from above: [%s] %d cells",
	      sel(t), marks(t));
	t_free(t);
}

/* A selection of cells x0..x1 of row y of a 10x4 screen of digits, then seq: the selection is gone and so is
 * every mark (edits that move cells, ICH, DCH, DECIC, DECDC, SL, SR and DL at the top row, cleared the
 * selection after moving them, and the marks moved out of its cells stayed on screen as a highlight). */
static void moved_marks(const char *seq, int x0, int x1, int y)
{
	struct t_term *t = t_new(10, 4, 20);
	t_feed(t, "0123456789abcdefghijABCDEFGHIJklmnopqrst");
	grid_select_start(t->g, x0, y, GRID_SELECT_CELL);
	grid_select_extend(t->g, x1, y + 1);
	CHECK(marks(t) == 10 - x0 + x1 + 1, "%s: selected %d", seq, marks(t));
	t_feed(t, seq);
	CHECK(!grid_has_selection(t->g), "%s: cleared", seq);
	CHECK(marks(t) == 0, "%s: %d cells still marked", seq, marks(t));
	t_free(t);
}

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Copying a selection of the whole history (2,000 lines of 212 cells, each a letter and 14 marks: 29 bytes of
 * text a cell, 12.3 MB) with the clipboard's bound stops at it (cut where a code point ends, the cut said), and
 * the copy's memory stays near the bound: the text was built whole first (peak 16 MiB and more, with its
 * doubling) to be cut to the clipboard's size afterwards; at 10,000 lines of 4-byte marks, 127 MB. */
static void test_copy_bounded(void)
{
	enum { COLS = 212, ROWS = 24, SB = 2000, MAX = 1 << 20 };
	struct t_term *t = t_new(COLS, ROWS, SB);
	static char line[COLS * 29 + 3];
	size_t k = 0;
	for (int x = 0; x < COLS; x++) {
		line[k++] = 'a';
		for (int m = 0; m < 14; m++)
			k += vt_utf8_encode(0x301 + (uint32_t)m, line + k);
	}
	line[k++] = '\r', line[k++] = '\n', line[k] = 0;
	for (int i = 0; i < SB + ROWS; i++)
		t_feed(t, line);
	grid_view_scroll(t->g, SB);
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	grid_view_scroll(t->g, -SB);
	grid_select_extend(t->g, COLS - 1, ROWS - 1);
	const long before = peak_kb();
	size_t len = 0;
	bool cut = false;
	char *text = grid_selection_text_max(t->g, MAX, &len, &cut);
	const long grew = peak_kb() - before;
	printf("copy of the whole history, bound %d: %zu bytes, cut %d, peak grew %ld KiB\n", MAX, len, cut, grew);
	CHECK(text && cut && len <= MAX && len > MAX - 64 && text[len] == 0, "copy: %zu bytes, cut %d", len, cut);
	/* the cut falls after a whole code point, and what comes before it is the text */
	CHECK(text && (text[len - 1] & 0xc0) != 0xc0 && !memcmp(text, line, 64), "cut text");
	/* 1 MiB here; under ASan 3.4 MiB, its quarantine keeping the doubling's freed blocks (the unbounded copy grew
	 * by 13 MiB) */
	CHECK(grew < 4 * 1024, "peak grew by %ld KiB for a %d-byte copy", grew, MAX);
	free(text);
	/* no bound: the text whole, not cut */
	text = grid_selection_text_max(t->g, (size_t)-1, &len, &cut);
	CHECK(text && !cut && len > (size_t)(SB + ROWS - 2) * COLS * 29, "whole: %zu bytes", len);
	free(text);
	t_free(t);
}

/* A selection started on a line numbered before output scrolled it (grid_line_at, grid_select_start_line: the
 * input glue's press, then a drag): on that line, on display or in the history; a line scrolled out of the
 * history gives the oldest held; a double-width line takes display columns, as grid_select_start. */
static void test_start_line(void)
{
	struct t_term *t = t_new(10, 3, 2);
	t_feed(t, "aa\r\nbb\r\ncc");
	const uint64_t a = grid_line_at(t->g, 0), c = grid_line_at(t->g, 2);
	t_feed(t, "\r\ndd\r\nee");
	grid_select_start_line(t->g, 0, c, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "cc\n") == 0, "on display, two rows up: [%s]", sel(t));
	grid_select_start_line(t->g, 1, a, GRID_SELECT_CELL);
	grid_select_extend(t->g, 0, 0);
	CHECK(strcmp(sel(t), "a\nbb\nc") == 0, "in the history, to the view's top row: [%s]", sel(t));
	t_feed(t, "\r\nff");
	grid_select_start_line(t->g, 0, a, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "bb\n") == 0, "scrolled out of the history: the oldest held [%s]", sel(t));
	grid_select_start_line(t->g, 0, c + 100, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "ff\n") == 0, "past the screen: its last line [%s]", sel(t));
	t_feed(t, "\r\n\033#6wxyz");
	grid_select_start_line(t->g, 4, grid_line_at(t->g, 2), GRID_SELECT_CELL);
	grid_select_extend(t->g, 7, 2);
	CHECK(strcmp(sel(t), "yz") == 0, "double width: display columns [%s]", sel(t));
	t_free(t);
}

/* A soft wrap joins a word only when the word goes on across it: a row that ends in a blank, or a next row
 * that starts with one, ends the word at the wrap (found unreached by tools/coverage, session 54: only words
 * that did go on were tested). A run of one of the punctuation characters that are classes of their own
 * (brackets, quotes; '-' is a word character here, as '/' and ':' are, so that a path or a URL is one word) is
 * one unit across the wrap too, and ends where another class starts. A drag from a wide character's right half
 * to another's left half takes both whole characters. */
static void test_word_ends_at_wrap(void)
{
	struct t_term *t = t_new(5, 8, 20);
	t_feed(t, "abcd ef\r\nab cd ef\r\nab(((x\r\nabc((((x");
	CHECK_ROW(t, 0, "abcd ");
	CHECK_ROW(t, 1, "ef");
	CHECK(grid_row_wrapped(t->g, 0), "row 0 wraps");
	grid_select_start(t->g, 0, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "ef") == 0, "after a row that ends in a blank: [%s]", sel(t));
	CHECK_ROW(t, 2, "ab cd");
	CHECK_ROW(t, 3, " ef");
	grid_select_start(t->g, 3, 2, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "cd") == 0, "before a row that starts with a blank: [%s]", sel(t));
	CHECK_ROW(t, 4, "ab(((");
	CHECK_ROW(t, 5, "x");
	grid_select_start(t->g, 0, 5, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "x") == 0, "a word after a punctuation run that wrapped: [%s]", sel(t));
	grid_select_start(t->g, 3, 4, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "(((") == 0, "the punctuation run before the wrap: [%s]", sel(t));
	CHECK_ROW(t, 6, "abc((");
	CHECK_ROW(t, 7, "((x");
	grid_select_start(t->g, 1, 7, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "((((") == 0, "a punctuation run across the wrap: [%s]", sel(t));
	t_free(t);
	t = t_new(10, 2, 0);
	t_feed(t, "a\xe4\xb8\xad" "b\xe6\x96\x87" "c");
	grid_select_start(t->g, 2, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 4, 0);
	CHECK(strcmp(sel(t), "\xe4\xb8\xad" "b\xe6\x96\x87") == 0, "right half to left half: [%s]", sel(t));
	t_free(t);
}

/* s with its line ends shown as \n, in a static buffer */
static const char *shown(const char *s)
{
	static char buf[256];
	size_t n = 0;
	for (; s && *s && n + 3 < sizeof(buf); s++) {
		if (*s == '\n')
			buf[n++] = '\\';
		buf[n++] = *s == '\n' ? 'n' : *s;
	}
	buf[n] = 0;
	return s ? buf : "(none)";
}

/* The highlighted cells of the rows on display, as "row:first-last" runs (GRID_CELL_SELECTED of every cell),
 * "" when none, in a static buffer. */
static const char *lit(struct t_term *t)
{
	static char buf[512];
	size_t n = 0;
	buf[0] = '\0';
	for (int y = 0; y < grid_rows(t->g); y++) {
		const struct grid_cell *row = grid_row(t->g, y);
		for (int x = 0; x < grid_cols(t->g) && n < sizeof(buf); x++) {
			if (!(row[x].flags & GRID_CELL_SELECTED) || (x > 0 && row[x - 1].flags & GRID_CELL_SELECTED))
				continue;
			int e = x;
			while (e + 1 < grid_cols(t->g) && row[e + 1].flags & GRID_CELL_SELECTED)
				e++;
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d:%d-%d", n ? " " : "", y, x, e);
		}
	}
	return buf;
}

/* A drag past the end of a row's text: xterm (379, measured with tests/tools/xterm-drag.py: the drag made with
 * xdotool under Xvfb, the selection pasted back) takes an end of the selection further right than the cell just
 * after the text as the start of the next row (its okPosition), on every row but the screen's last. The later end
 * there takes the row's line end with it ("abc" dragged over and past its end copies "abc\n", pasted a whole line
 * again); the earlier end there takes nothing of its row, not even the line end. The line end went missing and
 * a drag started past a row's end copied an empty first line. Each case: rows, the press and the pointer's
 * cells, what is copied here (the cell under the pointer included) and, in the comment, xterm's copy (which
 * leaves the cell under the pointer out).
 *
 * The highlight follows (xterm-drag.py --highlight, the screen captured before the paste): the later end's row
 * is highlighted to its right edge, the earlier end's not at all; it stopped at the pointer's cell on the one
 * and began at the press on the other. Each case's last field is the highlight here, "row:first-last" (a
 * 20-column screen); xterm's, on its 200 columns, in the comment after the copy, where it differs otherwise
 * than by the cell under the pointer (xterm's highlight leaves it out as its copy does). */
static void test_drag_past_line_end(void)
{
	static const struct {
		const char *text;
		int x0, y0, x1, y1;
		const char *want, *hl;
	} cases[] = {
		{"abc\r\ndefgh", 0, 0, 10, 0, "abc\n", "0:0-19"},                /* xterm "abc\n", 0:0-199 */
		{"abc\r\ndefgh", 0, 0, 3, 0, "abc", "0:0-3"},                    /* the cell after the text: "abc" */
		{"abc\r\ndefgh", 0, 0, 4, 0, "abc\n", "0:0-19"},                 /* "abc\n" */
		{"abc\r\ndefgh", 0, 0, 10, 1, "abc\ndefgh\n", "0:0-19 1:0-19"},  /* "abc\ndefgh\n" */
		{"abc\r\ndefgh", 1, 0, 5, 1, "bc\ndefgh", "0:1-19 1:0-5"},       /* "bc\ndefgh" */
		{"abc\r\ndefgh", 1, 0, 6, 1, "bc\ndefgh\n", "0:1-19 1:0-19"},    /* "bc\ndefgh\n" */
		{"abc\r\ndefgh", 5, 0, 2, 1, "def", "1:0-2"},                    /* "de": nothing of row 0 */
		{"abc\r\ndefgh", 4, 0, 2, 1, "def", "1:0-2"},                    /* "de" */
		/* "\nde": the cell after the text is on the row */
		{"abc\r\ndefgh", 3, 0, 2, 1, "\ndef", "0:3-19 1:0-2"},
		{"abc\r\ndefgh", 4, 1, 10, 0, "defgh", "1:0-4"},                 /* backwards: "defg" */
		{"abc\r\ndefgh", 4, 1, 3, 0, "\ndefgh", "0:3-19 1:0-4"},         /* "\ndefg" */
		{"abc\r\ndefgh", 10, 0, 1, 0, "bc\n", "0:1-19"},                 /* backwards on the row: "bc\n" */
		{"abc\r\ndefgh", 5, 0, 8, 0, "", ""},                            /* both ends past it: "", none */
		{"abc\r\ndefgh", 2, 1, 5, 0, "def", "1:0-2"},                    /* backwards from row 1: "de" */
		{"abc\r\ndefgh", 10, 1, 1, 0, "bc\ndefgh\n", "0:1-19 1:0-19"},   /* "bc\ndefgh\n" */
		{"abc\r\n\r\nxyz", 0, 0, 5, 1, "abc\n\n", "0:0-19 1:0-19"},      /* onto an empty row: "abc\n\n" */
		{"abc\r\n\r\nxyz", 5, 1, 1, 2, "xy", "2:0-1"},                   /* from an empty row: "x" */
		/* written blanks are text: "abc   \n"; the cell after them (xterm to column 5: "abc  ") */
		{"abc   \r\ndefgh", 0, 0, 7, 0, "abc   \n", "0:0-19"},
		{"abc   \r\ndefgh", 0, 0, 6, 0, "abc   ", "0:0-6"},
		/* the screen's last row keeps its ends where they are: "xyz", and "abc" + 6 line ends + "xyz"; its
		 * highlight stops at the pointer (xterm's 0:0-9 of a drag to column 10) */
		{"\033[8;1Hxyz\033[2;1Habc", 0, 7, 10, 7, "xyz", "7:0-10"},
		{"\033[8;1Hxyz\033[2;1Habc", 0, 1, 10, 7, "abc\n\n\n\n\n\nxyz",
		 "1:0-19 2:0-19 3:0-19 4:0-19 5:0-19 6:0-19 7:0-10"},
		{"\033[8;1Hxyz", 10, 7, 1, 7, "yz", "7:1-10"},                        /* "yz", 7:1-9 */
		{"\033[7;1Habc\r\ndefgh", 5, 6, 2, 7, "def", "7:0-2"},                /* "de" */
		{"\033[7;1Habc\r\ndefgh", 10, 7, 1, 6, "bc\ndefgh", "6:1-19 7:0-10"}, /* "bc\ndefgh", 6:1-199 7:0-9 */
		/* a row that wrapped: its line ends on the next row, past whose text the drag goes on */
		{"0123456789abcdefghijKL", 0, 0, 10, 1, "0123456789abcdefghijKL\n", "0:0-19 1:0-19"},
		{"0123456789abcdefghijKL", 0, 0, 2, 1, "0123456789abcdefghijKL", "0:0-19 1:0-2"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t_term *t = t_new(20, 8, 20);
		t_feed(t, cases[i].text);
		grid_select_start(t->g, cases[i].x0, cases[i].y0, GRID_SELECT_CELL);
		grid_select_extend(t->g, cases[i].x1, cases[i].y1);
		char *got = grid_selection_text(t->g, NULL);
		CHECK(got && strcmp(got, cases[i].want) == 0, "case %zu: %d,%d to %d,%d: [%s]", i, cases[i].x0,
		      cases[i].y0, cases[i].x1, cases[i].y1, shown(got));
		CHECK(strcmp(lit(t), cases[i].hl) == 0, "case %zu: %d,%d to %d,%d: highlight [%s], not [%s]", i,
		      cases[i].x0, cases[i].y0, cases[i].x1, cases[i].y1, lit(t), cases[i].hl);
		free(got);
		t_free(t);
	}

	/* Scrolled back, the row on display at the bottom is no longer the screen's last: its line end is taken
	 * (xterm's okPosition compares with the screen's last row, max_row, not the display's; not measured). */
	struct t_term *t = t_new(20, 4, 20);
	t_feed(t, "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix");
	CHECK(grid_view_scroll(t->g, 2) == 2, "scrolled back 2");
	grid_select_start(t->g, 0, 3, GRID_SELECT_CELL);
	grid_select_extend(t->g, 10, 3);
	CHECK(strcmp(sel(t), "four\n") == 0, "the bottom row on display, scrolled back: [%s]", shown(sel(t)));
	CHECK(strcmp(lit(t), "3:0-19") == 0, "its highlight: [%s]", lit(t));
	/* rows of the history (packed: grid__select_apply marks them as they are read) */
	grid_select_start(t->g, 5, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 10, 1);
	CHECK(strcmp(sel(t), "two\n") == 0, "in the history: [%s]", shown(sel(t)));
	CHECK(strcmp(lit(t), "1:0-19") == 0, "its highlight in the history: [%s]", lit(t));
	grid_view_scroll(t->g, -2);
	grid_select_start(t->g, 0, 3, GRID_SELECT_CELL);
	grid_select_extend(t->g, 10, 3);
	CHECK(strcmp(sel(t), "six") == 0, "the screen's last row: [%s]", shown(sel(t)));
	CHECK(strcmp(lit(t), "3:0-10") == 0, "its highlight: [%s]", lit(t));
	/* decided by the drag, as xterm's: output that scrolls the row up afterwards changes nothing of the copy */
	t_feed(t, "\r\nseven");
	CHECK(strcmp(sel(t), "six") == 0, "scrolled up after the drag: [%s]", shown(sel(t)));
	CHECK(strcmp(lit(t), "2:0-10") == 0, "its highlight scrolled up: [%s]", lit(t));
	/* the drag goes on after it: the row is no longer the last, and the highlight of the earlier decision goes */
	grid_select_extend(t->g, 12, 2);
	CHECK(strcmp(sel(t), "six\n") == 0, "dragged on, the row no longer last: [%s]", shown(sel(t)));
	CHECK(strcmp(lit(t), "2:0-19") == 0, "its highlight: [%s]", lit(t));
	grid_select_extend(t->g, 1, 2);
	CHECK(strcmp(sel(t), "si") == 0 && strcmp(lit(t), "2:0-1") == 0, "back into its text: [%s] [%s]",
	      shown(sel(t)), lit(t));
	t_free(t);
}

/* A drag whose end goes past a row's text and back, onto the next row and back, leaves the highlight of where
 * it is and nothing of where it was (xterm 379: from `a` to past the end of "abc" and back to `c`, the
 * highlight is 0..1, no more; measured as above). */
static void test_drag_highlight_follows(void)
{
	static const struct {
		int x, y;
		const char *want, *hl;
	} from_a[] = {
		{10, 0, "abc\n", "0:0-19"},         {2, 0, "abc", "0:0-2"},
		{10, 0, "abc\n", "0:0-19"},         {3, 0, "abc", "0:0-3"},
		{2, 1, "abc\ndef", "0:0-19 1:0-2"}, {10, 1, "abc\ndefgh\n", "0:0-19 1:0-19"},
		{10, 0, "abc\n", "0:0-19"},         {1, 0, "ab", "0:0-1"},
	}, from_past[] = {
		/* pressed past the end of "abc" */
		{2, 1, "def", "1:0-2"}, {8, 0, "", ""},           {1, 0, "bc\n", "0:1-19"},
		{2, 1, "def", "1:0-2"}, {10, 1, "defgh\n", "1:0-19"}, {5, 0, "", ""},
	};
	struct t_term *t = t_new(20, 8, 20);
	t_feed(t, "abc\r\ndefgh");
	grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
	for (size_t i = 0; i < sizeof(from_a) / sizeof(from_a[0]); i++) {
		grid_select_extend(t->g, from_a[i].x, from_a[i].y);
		CHECK(strcmp(sel(t), from_a[i].want) == 0 && strcmp(lit(t), from_a[i].hl) == 0,
		      "from a, step %zu to %d,%d: [%s] [%s], highlight wanted [%s]", i, from_a[i].x, from_a[i].y,
		      shown(sel(t)), lit(t), from_a[i].hl);
	}
	grid_select_start(t->g, 5, 0, GRID_SELECT_CELL);
	for (size_t i = 0; i < sizeof(from_past) / sizeof(from_past[0]); i++) {
		grid_select_extend(t->g, from_past[i].x, from_past[i].y);
		CHECK(strcmp(sel(t), from_past[i].want) == 0 && strcmp(lit(t), from_past[i].hl) == 0,
		      "from past the text, step %zu to %d,%d: [%s] [%s], highlight wanted [%s]", i, from_past[i].x,
		      from_past[i].y, shown(sel(t)), lit(t), from_past[i].hl);
	}
	grid_select_clear(t->g);
	CHECK(strcmp(lit(t), "") == 0, "cleared: [%s]", lit(t));
	t_free(t);
}

int main(void)
{
	test_start_line();
	test_word_ends_at_wrap();
	test_below_top_region();
	test_wide_wrap_blank();
	test_word_wide();
	test_units_across_wraps();
	test_word_blanks();
	test_word_classes();
	test_line_newline();
	test_erase_history_keeps_screen();
	test_copy_bounded();
	test_drag_past_line_end();
	test_drag_highlight_follows();
	struct t_term *t = t_new(10, 5, 20);
	t_feed(t, "hello world\xe4\xb8\xad!\r\nfoo bar\r\n");
	/* "hello worl" + "d中!" (soft-wrapped) */
	grid_select_start(t->g, 6, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 2, 1);
	CHECK(strcmp(sel(t), "world\xe4\xb8\xad") == 0, "cell: %s", sel(t));
	CHECK(grid_row(t->g, 0)[7].flags & GRID_CELL_SELECTED, "flag set");
	CHECK(!(grid_row(t->g, 0)[5].flags & GRID_CELL_SELECTED), "flag clear");
	grid_select_start(t->g, 1, 2, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "foo") == 0, "word: %s", sel(t));
	grid_select_start(t->g, 3, 0, GRID_SELECT_LINE);
	grid_select_extend(t->g, 0, 2);
	CHECK(strcmp(sel(t), "hello world\xe4\xb8\xad!\nfoo bar\n") == 0, "line: %s", sel(t));
	/* the selection follows its text into the scrollback */
	grid_select_start(t->g, 0, 2, GRID_SELECT_WORD);
	t_feed(t, "\033[5;1H\n\n");
	CHECK(grid_has_selection(t->g), "kept through scrolling");
	CHECK(strcmp(sel(t), "foo") == 0, "after scroll: %s", sel(t));
	CHECK(grid_row(t->g, 0)[0].flags & GRID_CELL_SELECTED, "flag moved with the row");
	/* overwriting selected text clears the selection */
	t_feed(t, "\033[1;1Hzzz");
	CHECK(!grid_has_selection(t->g), "cleared by output");
	CHECK(!(grid_row(t->g, 0)[1].flags & GRID_CELL_SELECTED), "flags cleared");
	CHECK(grid_selection_text(t->g, NULL) == NULL, "nothing selected");
	t_free(t);

	/* Scrolled back into the history, a selection's changes are damage on the rows on display that show
	 * them, and only there: the renderer paints nothing else (a display row once landed view-offset rows
	 * lower, off the display, and the highlight never appeared). */
	t = t_new(20, 4, 20);
	for (int i = 0; i < 8; i++) {
		char line[32];
		snprintf(line, sizeof(line), "line %d here\r\n", i);
		t_feed(t, line);
	}
	CHECK(grid_view_scroll(t->g, 3) == 3, "scrolled back 3");
	grid_damage_clear(t->g);
	grid_select_start(t->g, 6, 1, GRID_SELECT_WORD);
	int x0, x1, rows = 0;
	for (int y = 0; y < 4; y++)
		rows |= grid_row_damage(t->g, y, &x0, &x1) << y;
	CHECK(rows == 1 << 1, "word on display row 1: damaged rows %#x", rows);
	CHECK(grid_row(t->g, 1)[6].flags & GRID_CELL_SELECTED, "display row 1 shows it");
	grid_damage_clear(t->g);
	grid_select_extend(t->g, 3, 2);
	rows = 0;
	for (int y = 0; y < 4; y++)
		rows |= grid_row_damage(t->g, y, &x0, &x1) << y;
	CHECK(rows == (1 << 1 | 1 << 2), "extended to display row 2: damaged rows %#x", rows);
	grid_damage_clear(t->g);
	grid_select_clear(t->g);
	rows = 0;
	for (int y = 0; y < 4; y++)
		rows |= grid_row_damage(t->g, y, &x0, &x1) << y;
	CHECK(rows == (1 << 1 | 1 << 2), "cleared: damaged rows %#x", rows);
	CHECK(!(grid_row(t->g, 1)[6].flags & GRID_CELL_SELECTED), "highlight gone");
	t_free(t);

	moved_marks("\033[2;1H\033[3@", 2, 5, 0);      /* ICH: marks moved right */
	moved_marks("\033[1;1H\033[3P", 5, 8, 0);      /* DCH: marks moved left */
	moved_marks("\033[2;1H\033[3'}", 2, 5, 0);     /* DECIC */
	moved_marks("\033[1;1H\033[3'~", 5, 8, 0);     /* DECDC */
	moved_marks("\033[1;1H\033[3 @", 5, 8, 0);     /* SL */
	moved_marks("\033[1;1H\033[3 A", 2, 5, 0);     /* SR */
	moved_marks("\033[1;1H\033[M", 2, 5, 2);       /* DL at the top row: rows moved up */
	moved_marks("\033[4h\033[2;1Hxyz", 2, 5, 0);   /* IRM: printing moves the cells after it right */
	/* a region at the top pushes its rows into the scrollback while the rows below stay: a selection there
	 * named the lines above it after the scroll (their text copied, its marks left behind when cleared) */
	moved_marks("\033[1;2r\033[2;1H\n", 2, 5, 2);
	t = t_new(10, 4, 20);
	t_feed(t, "0123456789abcdefghijABCDEFGHIJklmnopqrst\033[1;2r\033[2;1H");
	/* (cells, not the line: the four rows are one soft-wrapped line, which a line selection takes whole) */
	grid_select_start(t->g, 0, 1, GRID_SELECT_CELL);
	grid_select_extend(t->g, 9, 1);
	t_feed(t, "\n");
	CHECK(strcmp(sel(t), "abcdefghij") == 0, "a selection inside the region moves with it: %s", sel(t));
	CHECK(grid_row(t->g, 0)[0].flags & GRID_CELL_SELECTED, "its marks moved up with it");
	t_free(t);
	return t_done("grid-select");
}
