/* tests/grid/test-history-text.c: a row of plain ASCII printed from column 0 keeps its text as bytes
 * (LINE_ASCII, grid/grid-internal.h), and the scrollback takes such a row as a copy of those bytes without
 * reading its cells. Every other writer of the row must drop that state: here each one changes such a row,
 * the row scrolls into the scrollback, and its cells there must be the ones the screen showed. (Builds
 * with assertions also check the state itself after every grid_feed and at every push, and abort.)
 */
#include "harness.h"

#define COLS 24
#define ROWS 3
#define BASE "ABCDEFGHIJKLMNOPQRSTU" /* 21 cells of row 0, printed from column 0 */

struct row {
	struct grid_cell c[COLS];
};

static void snap(struct t_term *t, int y, struct row *r)
{
	memcpy(r->c, grid_row(t->g, y), sizeof(r->c));
}

/* Whether scrollback line i reads as r: code point, width, style and link of every cell (the cells
 * after a scrollback line's written part read as default blanks, as they are on the screen). */
static bool same(struct t_term *t, size_t i, const struct row *r, int *at)
{
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
	if (!c)
		return *at = -2, false;
	for (int x = 0; x < COLS; x++) {
		struct grid_cell want = r->c[x], got = x < len ? c[x] : (struct grid_cell){.width = 1};
		if (got.cp != want.cp || got.width != want.width || got.style != want.style || got.link != want.link)
			return *at = x, false;
	}
	return true;
}

/* Rows [0, keep) scroll into the (empty) scrollback, one line feed each: they must read there as they did
 * on the screen. */
static void check_push(struct t_term *t, const char *name, int keep)
{
	struct row r[ROWS];
	for (int y = 0; y < keep; y++)
		snap(t, y, &r[y]);
	t_feed(t, "\033[3;1H");
	for (int y = 0; y < keep; y++)
		t_feed(t, "\n");
	CHECK(grid_scrollback_lines(t->g) == (size_t)keep, "%s: scrollback %zu", name, grid_scrollback_lines(t->g));
	for (int y = 0; y < keep; y++) {
		int at = -1;
		CHECK(same(t, (size_t)y, &r[y], &at), "%s: scrollback line %d differs from the screen at cell %d", name,
		      y, at);
	}
}

/* The base row, then mod, then check_push. */
static void check_mod(const char *name, const char *mod, int keep)
{
	struct t_term *t = t_new(COLS, ROWS, 50);
	t_feed(t, BASE);
	t_feed(t, mod);
	/* back to plain modes (the line feeds must only scroll) */
	t_feed(t, "\033[4l\033(B\033[r\033[m\033]8;;\033\\");
	check_push(t, name, keep);
	t_free(t);
}

static void test_writers(void)
{
	static const struct {
		const char *name, *mod;
	} cases[] = {
		{"none", ""},
		{"one char, same style", "\033[1;5HX"},
		{"one char, red", "\033[1;5H\033[31mX"},
		{"one char after a tab", "\033[1;1H\tT"},
		{"one char after a backspace", "\033[1;22H\bq"},
		{"shorter run from column 0", "\033[1;1Hxyz"},
		{"shorter bold run from column 0", "\033[1;1H\033[1mxyz"},
		{"longer run from column 0", "\033[1;1Habcdefghijklmnopqrstuvw"},
		{"run from column 5", "\033[1;6Hzzzz"},
		{"two runs, two styles", "\033[1;1Habc\033[31mdef"},
		{"two runs, one style", "\033[1;1Habc\033[1;4Hdef"},
		{"ECH", "\033[1;3H\033[4X"},
		{"ECH in blue", "\033[1;3H\033[44m\033[4X"},
		{"ICH", "\033[1;3H\033[2@"},
		{"DCH", "\033[1;3H\033[2P"},
		{"EL 0", "\033[1;10H\033[K"},
		{"EL 0 then a run from column 0", "\033[1;10H\033[K\033[1;1Hxy"},
		{"EL 0 in blue", "\033[1;10H\033[44m\033[K"},
		{"EL 1", "\033[1;4H\033[1K"},
		{"EL 2", "\033[1;4H\033[2K"},
		{"EL 2 in blue, then a run from column 0", "\033[44m\033[2K\033[m\033[1;1Habc"},
		{"EL 2, then a run from column 5", "\033[2K\033[1;5Habc"},
		{"ED 0", "\033[1;5H\033[J"},
		{"ED 0 in blue", "\033[1;5H\033[44m\033[J"},
		{"ED 2 in blue", "\033[44m\033[2J"},
		{"DECSED", "\033[1;5H\033[?J"},
		{"combining mark on the last character", "\xcc\x81"},
		{"combining mark after a CUP", "\033[1;22H\xcc\x81"},
		{"wide character", "\033[1;3H\xe4\xb8\xad"},
		{"wide character from column 0", "\033[1;1H\xe4\xb8\xad"},
		{"Latin letter", "\033[1;3H\xc3\xa9"},
		{"Latin run from column 0", "\033[1;1H\xc3\xa9t\xc3\xa9 long enough"},
		{"emoji", "\033[1;3H\xf0\x9f\x98\x80"},
		{"REP", "\033[1;3Hx\033[5b"},
		{"hyperlink run from column 0", "\033]8;;http://x\033\\\033[1;1Hlink"},
		{"DECALN", "\033#8"},
		{"insert mode", "\033[4h\033[1;3Hxy"},
		{"insert mode from column 0", "\033[4h\033[1;1Hxy"},
		{"DEC graphics from column 0", "\033(0\033[1;1Hqqqq"},
		{"single shift from column 0", "\033*0\033N\033[1;1Hqqqq"},
		{"protected, then DECSEL", "\033[1;1H\033[1\"qab\033[0\"q\033[?2K"},
		{"SL", "\033[1;3H\033[2 @"},
		{"SR", "\033[1;3H\033[2 A"},
		{"DECIC", "\033[1;3H\033[2'}"},
		{"DECDC", "\033[1;3H\033[2'~"},
		{"IL", "\033[1;1H\033[L"},
		{"DL", "\033[1;1H\033[M"},
		{"RI", "\033[1;1H\033M"},
		{"SD", "\033[T"},
		{"SU in a region below", "\033[2;3r\033[S"},
		{"region from row 2, run from column 0 there", "\033[2;3r\033[2;1Hregion text\033[r\033[1;1Habc"},
		{"region from row 2, run on row 1", "\033[2;3r\033[1;1Habc"},
		{"left and right margins", "\033[?69h\033[3;10s\033[1;3Hxyz\033[?69l"},
		{"margins, scroll inside", "\033[?69h\033[3;10s\033[1;3r\033[1;3H\033[S\033[?69l"},
		{"alternate screen", "\033[?1049hother\033[1;1Hscreen text\033[?1049l"},
		{"alternate screen, DECSTBM there", "\033[?1049h\033[2;3r\033[?1049l\033[1;1Hxy"},
		{"no autowrap, over the edge", "\033[?7l\033[1;1Habcdefghijklmnopqrstuvwxyz\033[?7h"},
		{"soft reset", "\033[!pabc"},
		{"DECCOLM", "\033[?3h\033[1;1Habc"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_mod(cases[i].name, cases[i].mod, 1);
	/* a run over the right edge: both rows */
	check_mod("wrapped run", "\033[1;1Habcdefghijklmnopqrstuvwxyz0123", 2);
	check_mod("wrapped run, then a mark", "\033[1;1Habcdefghijklmnopqrstuvwxyz0123\xcc\x81", 2);
}

/* A selection marks cells of a row of text: it reads the same in the scrollback after a scroll. */
static void test_selection(void)
{
	struct t_term *t = t_new(COLS, ROWS, 50);
	t_feed(t, BASE);
	grid_select_start(t->g, 2, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 8, 0);
	check_push(t, "selection", 1);
	t_free(t);
}

/* Resizes rebuild the rows: text printed afterwards from column 0 still reads back. */
static void test_resize(void)
{
	struct t_term *t = t_new(COLS, ROWS, 50);
	t_feed(t, BASE);
	grid_resize(t->g, COLS - 4, ROWS);
	grid_resize(t->g, COLS, ROWS);
	t_feed(t, "\033[1;1Hxyz");
	check_push(t, "resizes", 1);
	t_free(t);
}

/* A line feed at the bottom of a flood takes a text row into the scrollback and brings it back, cleared, as
 * the new bottom row (grid__hist_push_ascii, or push_line where it does not apply: the view scrolled back,
 * an erase in a colour): rows of 0 to 80 cells, the scrollback line and the row after must read right. */
static void test_flood_rows(void)
{
	static const int lens[] = {0, 1, 5, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 79, 80};
	static const char *const modes[] = {"plain", "view scrolled back", "blue erase"};
	char text[81];
	for (int i = 0; i < 80; i++)
		text[i] = (char)('!' + (i * 7) % 90);
	text[80] = 0;
	for (int m = 0; m < 3; m++) {
		for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			const int n = lens[k];
			struct t_term *t = t_new(80, 3, 50);
			/* a screenful of long rows first, so that the recycled rows held text everywhere */
			t_feed(t, "\033[1;1H");
			for (int y = 0; y < 3; y++) {
				t_feed(t, text);
				t_feed(t, "\r\n");
			}
			/* row 0 printed from column 0 with n cells (n = 0: erased to the end, which keeps the
			 * row's text state with nothing written) */
			char buf[96];
			snprintf(buf, sizeof(buf), "\033[1;1H\033[2K%.*s", n, text);
			t_feed(t, buf);
			const size_t before = grid_scrollback_lines(t->g);
			if (m == 1)
				CHECK(grid_view_scroll(t->g, 1) == 1, "view"); /* the screenful scrolled a line */
			if (m == 2) /* the EL resolves the erase style, as a flood's first line feed in it would */
				t_feed(t, "\033[44m\033[3;1H\033[K");
			t_feed(t, "\033[3;1H\n");
			CHECK(grid_scrollback_lines(t->g) == before + 1, "%s, %d cells: scrollback %zu", modes[m], n,
			      grid_scrollback_lines(t->g));
			if (m == 1) {
				/* the view stays on the lines it showed: one further back */
				CHECK(grid_view_offset(t->g) == 2, "%s, %d cells: view offset %d", modes[m], n,
				      grid_view_offset(t->g));
				grid_view_scroll(t->g, -100);
			}
			/* the scrollback's newest line: the n cells and blanks */
			int len = 0, bad = -1;
			const struct grid_cell *h = grid_scrollback_row(t->g, before, &len);
			CHECK(h != NULL, "%s, %d cells: no scrollback line", modes[m], n);
			for (int x = 0; h && x < 80 && bad < 0; x++) {
				struct grid_cell got = x < len ? h[x] : (struct grid_cell){.width = 1};
				if (got.cp != (x < n ? (uint32_t)(unsigned char)text[x] : 0) || got.width != 1 ||
				    got.style != 0 || got.link != 0)
					bad = x;
			}
			CHECK(bad < 0, "%s, %d cells: the scrollback line differs at cell %d", modes[m], n, bad);
			/* the row that came in at the bottom: blanks, in the erase colour */
			const struct grid_cell *c = grid_row(t->g, 2);
			bad = -1;
			for (int x = 0; x < 80 && bad < 0; x++)
				if (c[x].cp != 0 || c[x].width != 1 || c[x].link != 0 ||
				    (m == 2) != (grid_style(t->g, c[x].style)->bg == GRID_COLOR_PALETTE(4)))
					bad = x;
			CHECK(bad < 0, "%s, %d cells: the new bottom row differs from blanks at cell %d", modes[m], n, bad);
			t_free(t);
		}
	}
}

int main(void)
{
	test_writers();
	test_selection();
	test_resize();
	test_flood_rows();
	return t_done("grid-history-text");
}
