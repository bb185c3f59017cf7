/* tests/grid/test-history.c: the scrollback's storage (grid/grid-history.c). Lines of one style in ASCII are
 * kept packed (a byte per cell); every reader must see exactly the cells that scrolled out: grid_row while
 * scrolled back, grid_scrollback_row, the selection (marks and text), reflow on resize and the collection of
 * unused styles. Mixed lines next to them are stored whole and must read the same way. */
#include "harness.h"

static char *sel(struct t_term *t)
{
	static char buf[4096];
	char *s = grid_selection_text(t->g, NULL);
	snprintf(buf, sizeof(buf), "%s", s ? s : "(null)");
	free(s);
	return buf;
}

static const char *sb_text(struct t_term *t, size_t i)
{
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
	return c ? t_cells_text(t->g, c, len) : "(null)";
}

static void copy_text(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Line i of the test text: 20..59 characters, so long enough to be packed. */
static const char *line_text(int i)
{
	static char buf[80];
	int n = 20 + (i * 7) % 40;
	for (int k = 0; k < n; k++)
		buf[k] = (char)('!' + (i * 13 + k) % 90);
	buf[n] = '\0';
	return buf;
}

static void test_readers(void)
{
	struct t_term *t = t_new(64, 4, 100);
	/* 0: red, packed; 1: default, packed; 2: two styles, whole; 3: non-ASCII, whole; 4: blank; 5: red */
	t_feed(t, "\033[31mthe quick brown fox jumps\033[m\r\n");
	t_feed(t, "over the lazy dog, twenty-five+\r\n");
	t_feed(t, "plain then \033[1mbold text here\033[m\r\n");
	t_feed(t, "caf\xc3\xa9 au lait, one more line\r\n");
	t_feed(t, "\r\n");
	t_feed(t, "\033[31m0123456789abcdefghij\033[m\r\n");
	t_feed(t, "\033[4;1H\r\n\r\n\r\n");
	CHECK(grid_scrollback_lines(t->g) == 6, "scrollback %zu", grid_scrollback_lines(t->g));
	static const char *want[] = {"the quick brown fox jumps", "over the lazy dog, twenty-five+",
				     "plain then bold text here", "caf\xc3\xa9 au lait, one more line", "",
				     "0123456789abcdefghij"};
	for (size_t i = 0; i < 6; i++)
		CHECK(strcmp(sb_text(t, i), want[i]) == 0, "scrollback %zu: \"%s\"", i, sb_text(t, i));
	int len;
	const struct grid_cell *c = grid_scrollback_row(t->g, 0, &len);
	CHECK(len == 25, "len %d", len);
	const struct grid_style *st = grid_style(t->g, c[3].style);
	CHECK(st->fg == GRID_COLOR_PALETTE(1), "red kept: %08x", st->fg);
	CHECK(c[3].width == 1 && c[3].link == 0 && c[3].flags == 0 && c[3].cp == ' ', "cell fields");
	c = grid_scrollback_row(t->g, 1, &len);
	CHECK(c[0].style == 0 && c[0].cp == 'o', "default style");
	c = grid_scrollback_row(t->g, 2, &len);
	CHECK(c[0].style == 0 && (grid_style(t->g, c[11].style)->attrs & GRID_ATTR_BOLD), "mixed styles");

	/* scrolled back: grid_row shows the same cells, blanks after them */
	CHECK(grid_view_scroll(t->g, 6) == 6, "view");
	CHECK_ROW(t, 0, "the quick brown fox jumps");
	CHECK_ROW(t, 1, "over the lazy dog, twenty-five+");
	CHECK_ROW(t, 3, "caf\xc3\xa9 au lait, one more line");
	const struct grid_cell *r = grid_row(t->g, 0);
	CHECK(r[40].cp == 0 && r[40].style == 0 && r[40].width == 1, "blank after the line");
	CHECK(grid_style(t->g, r[0].style)->fg == GRID_COLOR_PALETTE(1), "red in the view");

	/* a selection across packed and whole lines: text and marks */
	grid_select_start(t->g, 4, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, 4, 2);
	CHECK(strcmp(sel(t), "quick brown fox jumps\nover the lazy dog, twenty-five+\nplain") == 0, "sel: %s",
	      sel(t));
	r = grid_row(t->g, 0);
	CHECK(!(r[3].flags & GRID_CELL_SELECTED) && (r[4].flags & GRID_CELL_SELECTED) &&
		      (r[24].flags & GRID_CELL_SELECTED),
	      "marks on a packed line");
	r = grid_row(t->g, 1);
	CHECK((r[0].flags & GRID_CELL_SELECTED) && (r[30].flags & GRID_CELL_SELECTED), "whole packed line marked");
	c = grid_scrollback_row(t->g, 1, &len);
	CHECK(c[5].flags & GRID_CELL_SELECTED, "marks through grid_scrollback_row");
	grid_select_start(t->g, 10, 1, GRID_SELECT_WORD);
	CHECK(strcmp(sel(t), "lazy") == 0, "word in a packed line: %s", sel(t));
	grid_select_clear(t->g);
	r = grid_row(t->g, 1);
	CHECK(!(r[6].flags & GRID_CELL_SELECTED), "marks gone");
	grid_view_scroll(t->g, -100);

	/* many new styles force collections: the styles of packed lines stay alive */
	for (int i = 0; i < 5000; i++)
		t_feedf(t, "\033[1;1H\033[38;2;%d;%d;1mx", i & 255, i >> 8);
	t_feed(t, "\033[m");
	c = grid_scrollback_row(t->g, 5, &len);
	CHECK(grid_style(t->g, c[0].style)->fg == GRID_COLOR_PALETTE(1), "red survives collection: %08x",
	      grid_style(t->g, c[0].style)->fg);
	t_free(t);
}

/* Reflow reads packed lines: long soft-wrapped lines narrowed and widened again come back unchanged. */
static void test_reflow(void)
{
	struct t_term *t = t_new(40, 5, 200);
	char all[40][80];
	for (int i = 0; i < 40; i++) {
		snprintf(all[i], sizeof(all[i]), "%s", line_text(i));
		t_feedf(t, "\033[3%dm%s\033[m\r\n", i % 2 ? 2 : 9, all[i]);
	}
	CHECK(grid_resize(t->g, 17, 5) == 0, "narrow");
	CHECK(grid_resize(t->g, 70, 6) == 0, "wide");
	/* the scrollback followed by the screen holds the newest original lines, in order, one per row */
	static char seq[64][80];
	int k = 0;
	size_t n = grid_scrollback_lines(t->g);
	for (size_t i = 0; i < n && k < 64; i++)
		copy_text(seq[k++], sizeof(seq[0]), sb_text(t, i));
	for (int y = 0; y < grid_rows(t->g) && k < 64; y++)
		copy_text(seq[k++], sizeof(seq[0]), t_row(t, y));
	while (k > 0 && seq[k - 1][0] == '\0')
		k--;
	CHECK(n >= 30 && k <= 40, "scrollback %zu, %d lines", n, k);
	for (int i = 0; i < k && k <= 40; i++)
		CHECK(strcmp(seq[i], all[40 - k + i]) == 0, "line %d: \"%s\" want \"%s\"", i, seq[i], all[40 - k + i]);
	/* styles came through: green on the odd lines, default on the even ones */
	for (size_t i = 0; i < n && k <= 40; i++) {
		int len, orig = 40 - k + (int)i;
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		uint32_t fg = grid_style(t->g, c[0].style)->fg;
		CHECK(fg == (orig % 2 ? GRID_COLOR_PALETTE(2) : GRID_COLOR_DEFAULT), "line %zu fg %08x", i, fg);
	}
	t_free(t);
}

/* A flood through a full scrollback: the scrollback always holds exactly the last lines, in order. */
static void test_flood(void)
{
	struct t_term *t = t_new(80, 10, 300);
	for (int i = 0; i < 20000; i++) {
		if (i % 5 == 3)
			t_feedf(t, "\033[3%dm%s\033[m\xe2\x94\x80\r\n", i % 8, line_text(i));
		else
			t_feedf(t, "%s\r\n", line_text(i));
	}
	CHECK(grid_scrollback_lines(t->g) == 300, "scrollback %zu", grid_scrollback_lines(t->g));
	for (size_t i = 0; i < 300; i++) {
		int k = 20000 - 9 - 300 + (int)i;
		char want[96];
		snprintf(want, sizeof(want), "%s%s", line_text(k), k % 5 == 3 ? "\xe2\x94\x80" : "");
		const char *got = sb_text(t, i);
		CHECK(strcmp(got, want) == 0, "line %zu: \"%s\" want \"%s\"", i, got, want);
	}
	t_free(t);
}

/* One cell that does not fit (a non-ASCII character, another style, a link) at every position of lines of
 * 16..40 cells: the line is stored whole and reads back exactly, as do the packed lines around it. */
static void test_misfit_positions(void)
{
	struct t_term *t = t_new(50, 3, 1200);
	static const char *odd[] = {"\xc3\xa9", "\033[1mB\033[m", "\033]8;;http://x/\033\\L\033]8;;\033\\"};
	static const char *odd_text[] = {"\xc3\xa9", "B", "L"};
	size_t lines = 0;
	for (int len = 16; len <= 40; len += 3)
		for (int pos = -1; pos < len; pos++)
			for (int k = 0; k < 3; k++, lines++) {
				for (int x = 0; x < len; x++)
					if (x == pos)
						t_feed(t, odd[k]);
					else
						t_feedf(t, "%c", 'a' + (x + len) % 26);
				t_feed(t, "\r\n");
			}
	size_t n = grid_scrollback_lines(t->g);
	CHECK(n == lines - 2, "scrollback %zu of %zu", n, lines);
	size_t i = 0;
	for (int len = 16; len <= 40; len += 3)
		for (int pos = -1; pos < len; pos++)
			for (int k = 0; k < 3 && i < n; k++, i++) {
				char want[128];
				size_t w = 0;
				for (int x = 0; x < len; x++) {
					const char *o = x == pos ? odd_text[k] : NULL;
					if (o) {
						memcpy(want + w, o, strlen(o));
						w += strlen(o);
					} else {
						want[w++] = (char)('a' + (x + len) % 26);
					}
				}
				want[w] = '\0';
				CHECK(strcmp(sb_text(t, i), want) == 0, "len %d pos %d kind %d: \"%s\"", len, pos, k,
				      sb_text(t, i));
				int cl;
				const struct grid_cell *c = grid_scrollback_row(t->g, i, &cl);
				if (pos >= 0 && k == 1)
					CHECK(grid_style(t->g, c[pos].style)->attrs & GRID_ATTR_BOLD, "bold at %d", pos);
				if (pos >= 0 && k == 2)
					CHECK(c[pos].link != 0 && c[(pos + 1) % len].link == 0, "link at %d", pos);
			}
	t_free(t);
}

/* Lines stored whole of every length from 1 to 212 cells, each cell a different code point (Cyrillic letters,
 * which are not packed): every cell reads back. The copy streams whole vectors, its last 128 bytes ending at
 * the line's end over what its loop copied, and starts a line 16 bytes later for 32-byte alignment: a
 * vector left out or misplaced at any length shows as a wrong cell. */
static void test_copy_lengths(void)
{
	struct t_term *t = t_new(212, 2, 300);
	for (int len = 1; len <= 212; len++) {
		for (int x = 0; x < len; x++) {
			const uint32_t cp = 0x410 + (uint32_t)(x * 7 + len) % 64;
			t_feedf(t, "%c%c", 0xc0 | (int)(cp >> 6), 0x80 | (int)(cp & 0x3f));
		}
		t_feed(t, "\r\n");
	}
	CHECK(grid_scrollback_lines(t->g) == 211, "scrollback %zu", grid_scrollback_lines(t->g));
	for (int len = 1; len <= 211; len++) {
		int n = -1;
		const struct grid_cell *c = grid_scrollback_row(t->g, (size_t)len - 1, &n);
		CHECK(c && n == len, "len %d: %d cells", len, n);
		for (int x = 0; c && x < n; x++)
			CHECK(c[x].cp == 0x410 + (uint32_t)(x * 7 + len) % 64 && c[x].width == 1 && c[x].style == 0,
			      "len %d cell %d: U+%04X width %u", len, x, c[x].cp, c[x].width);
	}
	t_free(t);
}

/* Cell x of line i of test_whole_cycles: a wide character first, then Cyrillic letters (not packed). */
static uint32_t cycle_cp(int i, int x)
{
	return x == 0 ? 0x4e00 + (uint32_t)i % 50 : 0x410 + (uint32_t)(x * 5 + i) % 64;
}

/* Lines stored whole, 2 to 99 cells (with AVX-512 every length takes copy_whole, a line of up to 4 cells
 * its first store alone), through many cycles of a small scrollback's chunks: where a copy starts each line
 * on a 64-byte boundary and fills up its last 64 bytes, or falls back to the 16-byte layout at a chunk's
 * end, and where chunks are reused, the scrollback still holds exactly its newest lines, every cell as it
 * was printed (the wide character's right half included). */
static void test_whole_cycles(void)
{
	struct t_term *t = t_new(100, 2, 300);
	const int lines = 3000;
	for (int i = 0; i < lines; i++) {
		const int len = 2 + (i * 13) % 98;
		t_feedf(t, "%c%c%c", 0xe0 | (int)(cycle_cp(i, 0) >> 12), 0x80 | (int)(cycle_cp(i, 0) >> 6 & 0x3f),
			0x80 | (int)(cycle_cp(i, 0) & 0x3f));
		for (int x = 2; x < len; x++)
			t_feedf(t, "%c%c", 0xc0 | (int)(cycle_cp(i, x) >> 6), 0x80 | (int)(cycle_cp(i, x) & 0x3f));
		t_feed(t, "\r\n");
	}
	const size_t sb = grid_scrollback_lines(t->g);
	CHECK(sb == 300, "scrollback %zu", sb);
	/* the screen's 2 rows: the last line and the empty one after it */
	for (size_t k = 0; k < sb; k++) {
		const int i = lines - 1 - (int)sb + (int)k;
		const int len = 2 + (i * 13) % 98;
		int n = -1;
		const struct grid_cell *c = grid_scrollback_row(t->g, k, &n);
		CHECK(c && n == len, "line %d: %d cells, not %d", i, n, len);
		for (int x = 0; c && x < n && x < len; x++) {
			const uint32_t cp = x == 1 ? 0 : cycle_cp(i, x);
			const unsigned w = x == 0 ? 2 : x == 1 ? 0 : 1;
			CHECK(c[x].cp == cp && c[x].width == w && c[x].style == 0 && c[x].link == 0,
			      "line %d cell %d: U+%04X width %u", i, x, c[x].cp, c[x].width);
		}
	}
	t_free(t);
}

/* Whether scrollback line k reads as the screen row w did (its first len cells; the line holds at least so
 * many). */
static bool sb_line_is(struct t_term *t, size_t k, const struct grid_cell *w, int len)
{
	int n = -1;
	const struct grid_cell *c = grid_scrollback_row(t->g, k, &n);
	if (!c || n < len)
		return false;
	for (int x = 0; x < len; x++)
		if (c[x].cp != w[x].cp || c[x].width != w[x].width || c[x].style != w[x].style || c[x].link != w[x].link)
			return false;
	return true;
}

/* Rows of text printed from column 0 (kept as bytes: grid__hist_push_ascii, or grid__hist_text where a
 * line feed in a blue erase colour or a row of over 96 cells leaves it to push_line) of every length 0..100
 * through several cycles of the scrollback's chunks (20000 lines of ~70 bytes through two of 512 KiB): a
 * copy that writes a vector short or long, or places a line wrongly at a chunk's end or in a reused chunk,
 * shows. After every line feed the two newest scrollback lines read as the screen showed them, and at the end
 * the whole scrollback does. */
static void test_text_cycles(void)
{
	enum { COLS = 100, SB = 300, LINES = 20000 };
	struct t_term *t = t_new(COLS, 2, SB);
	struct grid_cell(*want)[COLS] = calloc(LINES, sizeof(*want));
	CHECK(want != NULL, "calloc");
	if (!want)
		return;
	/* row 0 blank, the cursor on row 1: each line feed pushes the line before */
	t_feed(t, "\n");
	int bad = -1;
	for (int i = 0; i < LINES; i++) {
		const int len = (i * 13) % (COLS + 1);
		const bool blue = i % 5 == 2;
		/* fed at once: a feed of a line's text is what print_ascii keeps as bytes */
		char text[COLS + 1];
		for (int x = 0; x < len; x++)
			text[x] = (char)('!' + (x * 7 + i) % 94);
		text[len] = '\0';
		t_feed(t, text);
		memcpy(want[i], grid_row(t->g, 1), sizeof(want[i]));
		t_feed(t, blue ? "\033[44m\r\n\033[49m" : "\r\n");
		/* the newest line is line i - 1, the one before i - 2 */
		const size_t sb = grid_scrollback_lines(t->g);
		for (int d = 1; d <= 2 && bad < 0; d++)
			if (i - d >= 0 && (size_t)d <= sb && !sb_line_is(t, sb - (size_t)d, want[i - d], (i - d) * 13 % (COLS + 1)))
				bad = i - d;
	}
	CHECK(bad < 0, "line %d (%d cells) reads back wrong", bad, bad * 13 % (COLS + 1));
	const size_t sb = grid_scrollback_lines(t->g);
	CHECK(sb == SB, "scrollback %zu", sb);
	for (size_t k = 0; k < sb; k++) {
		const int i = LINES - 1 - (int)sb + (int)k;
		CHECK(sb_line_is(t, k, want[i], i * 13 % (COLS + 1)), "line %d (%d cells) at %zu reads back wrong", i,
		      i * 13 % (COLS + 1), k);
	}
	free(want);
	t_free(t);
}

/* Lines of every length 0..cols of four kinds, each read back from the scrollback as the screen showed it
 * (code point, width, style, link of every cell): ASCII in one style after an erase of the cell behind it (not
 * the printer's text-byte path: pack_ascii's bytes), ASCII in runs of styles (pack_ascii's bytes and
 * pack_styles), the same with a non-ASCII last cell, and with a wide character in the middle (stored whole).
 * Every length puts the packers' overlapping last step at another place. */
static void test_pack_lengths(void)
{
	enum { COLS = 100, KINDS = 4 };
	struct t_term *t = t_new(COLS, 2, 1000);
	struct grid_cell(*want)[COLS] = calloc((size_t)(COLS + 1) * KINDS, sizeof(*want));
	int lens[(COLS + 1) * KINDS];
	CHECK(want != NULL, "calloc");
	if (!want)
		return;
	/* row 0 blank, the cursor on row 1: each line feed then pushes the line before */
	t_feed(t, "\n");
	int k = 0;
	for (int len = 0; len <= COLS; len++)
		for (int kind = 0; kind < KINDS; kind++, k++) {
			for (int x = 0; x < len; x++) {
				if (kind > 0 && x % 3 == 0)
					t_feedf(t, "\033[%d;%dm", 31 + (x / 3 + len) % 7, x % 2 ? 1 : 22);
				if (kind == 2 && x == len - 1)
					t_feed(t, "\xc3\xa9");
				else if (kind == 3 && x == len / 2 && x + 1 < len)
					t_feed(t, "\xe4\xb8\x80"), x++;
				else
					t_feedf(t, "%c", '!' + (x * 7 + len) % 94);
			}
			if (kind == 0 && len < COLS)
				t_feed(t, "\033[X");
			t_feed(t, "\033[m");
			memcpy(want[k], grid_row(t->g, 1), sizeof(want[k]));
			lens[k] = len;
			t_feed(t, "\r\n");
		}
	t_feed(t, "\r\n");
	CHECK(grid_scrollback_lines(t->g) == (size_t)k + 1, "scrollback %zu of %d", grid_scrollback_lines(t->g),
	      k + 1);
	for (int i = 0; i < k; i++) {
		int n = -1;
		const struct grid_cell *c = grid_scrollback_row(t->g, (size_t)i + 1, &n);
		CHECK(c != NULL, "line %d missing", i);
		for (int x = 0; c && x < COLS; x++) {
			const struct grid_cell w = want[i][x];
			const struct grid_cell g = x < n ? c[x] : (struct grid_cell){.width = 1};
			CHECK(g.cp == w.cp && g.width == w.width && g.style == w.style && g.link == w.link,
			      "len %d kind %d cell %d: U+%04X width %u style %u, want U+%04X width %u style %u",
			      lens[i], i % KINDS, x, g.cp, g.width, g.style, w.cp, w.width, w.style);
		}
	}
	free(want);
	t_free(t);
}

/* The styles of packed lines in many styles survive collections of the style table, run by run: lines of
 * 16..79 cells (the marking's vector steps and its tail), runs of 1..9 cells each in a colour of its own,
 * then 20000 fresh colours printed on the screen (collections that free and reuse every id not marked).
 * A run whose style was missed would show a colour of the flood. */
static void test_styled_runs_collected(void)
{
	enum { N = 200 };
	struct t_term *t = t_new(80, 4, N);
	unsigned seed = 12345, k = 0;
	for (int i = 0; i < N + 3; i++) {
		int len = 16 + i % 64, x = 0;
		while (x < len) {
			seed = seed * 1103515245u + 12345u;
			int run = 1 + (int)(seed >> 16) % 9;
			k++;
			t_feedf(t, "\033[38;2;%u;%u;%um", k >> 16, (k >> 8) & 255, k & 255);
			for (int j = 0; j < run && x < len; j++, x++)
				t_feedf(t, "%c", 'a' + (i + x) % 26);
		}
		t_feed(t, "\033[m\r\n");
	}
	for (int i = 0; i < 20000; i++)
		t_feedf(t, "\033[4;1H\033[38;2;%d;%d;200mx", i & 255, i >> 8);
	t_feed(t, "\033[m");
	/* the same runs again, from the same seed */
	seed = 12345;
	k = 0;
	int bad = 0;
	for (int i = 0; i < N + 3; i++) {
		int len = 16 + i % 64, x = 0, n;
		const struct grid_cell *c = i < N ? grid_scrollback_row(t->g, (size_t)i, &n) : NULL;
		while (x < len) {
			seed = seed * 1103515245u + 12345u;
			int run = 1 + (int)(seed >> 16) % 9;
			k++;
			for (int j = 0; j < run && x < len; j++, x++) {
				if (!c)
					continue;
				uint32_t fg = grid_style(t->g, c[x].style)->fg;
				if (fg != GRID_COLOR_RGB(k >> 16, (k >> 8) & 255, k & 255) && bad++ < 3)
					CHECK(0, "scrollback line %d cell %d: fg %08x, want run %u's", i, x, fg, k);
			}
		}
	}
	CHECK(bad == 0, "%d cells lost their colour to a collection", bad);
	t_free(t);
}

int main(void)
{
	test_styled_runs_collected();
	test_pack_lengths();
	test_copy_lengths();
	test_whole_cycles();
	test_text_cycles();
	test_readers();
	test_reflow();
	test_flood();
	test_misfit_positions();
	return t_done("grid-history");
}
