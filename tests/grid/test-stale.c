/* tests/grid/test-stale.c: an ED's whole rows in a colour store one cell each: the row is deferred (LINE_STALE
 * with LINE_LAZY, grid/grid-internal.h), its blank in cell 0 over cells that still hold what was there before,
 * and stored when something reads or writes it. Every reader must see the cells an eager erase would have
 * stored, and the damage must be the eager erase's. (Only on large screens by default: the tests set
 * grid.stale_any_size.)
 *
 * test_random: random streams of coloured erases, cursor moves, text (wide characters too), scrolls into the
 * scrollback, insertions and deletions, fed to a terminal that is not read in between (its rows stay
 * deferred) and to one whose rows are all read after every byte (each row is stored at once, what an eager
 * erase did); screen, scrollback, damage, wrap flags, cursor and selected text must be the same, also after
 * resizes. The other tests check the cells themselves against what an eager erase stores.
 */
#include "harness.h"

#include "grid/grid-internal.h"

/* a terminal whose erases defer their rows at any size (grid.stale_any_size: the tests' screens are small) */
static struct t_term *stale_new(int cols, int rows, size_t sb)
{
	struct t_term *t = t_new(cols, rows, sb);
	t->g->stale_any_size = true;
	return t;
}

static uint32_t rng = 4242;
static unsigned rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static const char *pieces[] = {
	"\033[44m", "\033[41m", "\033[48;2;1;2;3m", "\033[m", "\033[0;46;1m", "\033[42m", "\033[J", "\033[1J",
	"\033[2J", "\033[K", "\033[1K", "\033[2K", "\033[3X", "\033[2@", "\033[3P", "\033[2L", "\033[M", "\033[S",
	"\033[T", "\033[?2J", "\033[?1K", "\r\n", "\n", "\n\n\n", "\r", "\b", "\t", "ab", "hello world", "x",
	"\xe4\xb8\xad\xe6\x96\x87", "e\xcc\x81", "\033[5b", "\033[3C", "\033[2;9r", "\033[r", "\033[?1049h",
	"\033[?1049l", "\033#8", "\033[4h", "\033[4l", "\033[1\"q", "\033[0\"q", "\033M",
	"0123456789012345678901234567890123456789",
};

static bool same_style(const struct grid *ga, uint16_t a, const struct grid *gb, uint16_t b)
{
	const struct grid_style *sa = grid_style(ga, a), *sb = grid_style(gb, b);
	return sa->fg == sb->fg && sa->bg == sb->bg && sa->attrs == sb->attrs && sa->underline == sb->underline;
}

static bool same_cell(const struct grid *ga, const struct grid_cell *a, const struct grid *gb,
		      const struct grid_cell *b)
{
	return t_same_cp(ga, a, gb, b) && a->width == b->width && a->link == b->link && a->flags == b->flags &&
	       same_style(ga, a->style, gb, b->style);
}

/* Everything a reader sees of the two alike; 0 when so. The lazy side's rows are read (stored) here. */
static int compare(struct t_term *a, struct t_term *b, int iter)
{
	struct grid *ga = a->g, *gb = b->g;
	int bad = 0;
	const int cols = grid_cols(ga), rows = grid_rows(ga);
	if (cols != grid_cols(gb) || rows != grid_rows(gb))
		return 1;
	/* the damage first: reading rows must not change it */
	for (int y = 0; y < rows; y++) {
		int ax0 = 0, ax1 = 0, bx0 = 0, bx1 = 0;
		bool da = grid_row_damage(ga, y, &ax0, &ax1), db = grid_row_damage(gb, y, &bx0, &bx1);
		if (da != db || (da && (ax0 != bx0 || ax1 != bx1))) {
			if (bad < 3)
				fprintf(stderr, "iter %d: row %d damage %d [%d,%d) vs %d [%d,%d)\n", iter, y, da, ax0, ax1,
					db, bx0, bx1);
			bad++;
		}
	}
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *ca = grid_row(ga, y), *cb = grid_row(gb, y);
		for (int x = 0; x < cols; x++)
			if (!same_cell(ga, &ca[x], gb, &cb[x])) {
				if (bad < 3)
					fprintf(stderr, "iter %d: row %d cell %d: %#x/%u/%u vs %#x/%u/%u\n", iter, y, x,
						ca[x].cp, ca[x].width, ca[x].style, cb[x].cp, cb[x].width, cb[x].style);
				bad++;
				break;
			}
		bad += grid_row_wrapped(ga, y) != grid_row_wrapped(gb, y);
	}
	size_t n = grid_scrollback_lines(ga);
	if (n != grid_scrollback_lines(gb))
		return bad + 1;
	for (size_t i = 0; i < n; i++) {
		int la = 0, lb = 0;
		static struct grid_cell keep[512];
		const struct grid_cell *ca = grid_scrollback_row(ga, i, &la);
		memcpy(keep, ca, (size_t)la * sizeof(*ca)); /* the next call may reuse the buffer */
		const struct grid_cell *cb = grid_scrollback_row(gb, i, &lb);
		bool eq = la == lb;
		for (int x = 0; eq && x < la; x++)
			eq = same_cell(ga, &keep[x], gb, &cb[x]);
		if (!eq && bad < 3)
			fprintf(stderr, "iter %d: scrollback line %zu (%d vs %d cells)\n", iter, i, la, lb);
		bad += !eq;
	}
	struct grid_cursor cua, cub;
	grid_get_cursor(ga, &cua);
	grid_get_cursor(gb, &cub);
	bad += cua.x != cub.x || cua.y != cub.y;
	size_t sa = 0, sb = 0;
	char *ta = grid_selection_text(ga, &sa), *tb = grid_selection_text(gb, &sb);
	bad += (ta == NULL) != (tb == NULL) || sa != sb || (sa && memcmp(ta, tb, sa) != 0);
	free(ta);
	free(tb);
	return bad;
}

static void read_all(struct t_term *t)
{
	for (int y = 0; y < grid_rows(t->g); y++)
		(void)grid_row(t->g, y);
}

static void test_random(int cols, int rows, int iters)
{
	struct t_term *lazy = stale_new(cols, rows, 30), *eager = stale_new(cols, rows, 30);
	int bad = 0;
	char buf[64];
	for (int it = 0; it < iters && bad == 0; it++) {
		const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
		if (rnd(3) == 0) {
			snprintf(buf, sizeof(buf), "\033[%u;%uH", rnd((unsigned)rows) + 1, rnd((unsigned)cols) + 1);
			p = buf;
		}
		t_feed(lazy, p);
		for (const char *q = p; *q; q++) {
			grid_feed(eager->g, (const uint8_t *)q, 1);
			read_all(eager);
		}
		if (rnd(40) == 0) {
			/* a selection over the lazy side's unread rows */
			int x = (int)rnd((unsigned)cols), y = (int)rnd((unsigned)rows);
			struct t_term *both[2] = {lazy, eager};
			for (int i = 0; i < 2; i++) {
				grid_select_start(both[i]->g, x, y, GRID_SELECT_CELL);
				grid_select_extend(both[i]->g, cols - 1, (y + 2) % rows);
			}
		}
		if (rnd(10) == 0) {
			bad += compare(lazy, eager, it);
			grid_damage_clear(lazy->g);
			grid_damage_clear(eager->g);
			grid_select_clear(lazy->g);
			grid_select_clear(eager->g);
		}
		if (rnd(150) == 0) {
			/* a resize (the primary screen reflows) with the lazy side's rows unread */
			int c = 8 + (int)rnd(60), r = 3 + (int)rnd(20);
			grid_resize(lazy->g, c, r);
			grid_resize(eager->g, c, r);
			cols = c;
			rows = r;
			bad += compare(lazy, eager, it);
		}
	}
	bad += compare(lazy, eager, iters);
	CHECK(bad == 0, "random %dx%d: %d differences between unread and read-at-once rows", cols, rows, bad);
	t_free(lazy);
	t_free(eager);
}

static uint32_t bg_of(struct t_term *t, const struct grid_cell *c)
{
	return grid_style(t->g, c->style)->bg;
}

/* Cells [x0, x1) of row y: blanks (cp 0, width 1, no link or flags) with background bg. */
static bool blanks(struct t_term *t, const struct grid_cell *c, int x0, int x1, uint32_t bg)
{
	for (int x = x0; x < x1; x++)
		if (c[x].cp != 0 || c[x].width != 1 || c[x].link != 0 || c[x].flags != 0 || bg_of(t, &c[x]) != bg)
			return false;
	return true;
}

#define BLUE GRID_COLOR_PALETTE(4)
#define RED GRID_COLOR_PALETTE(1)

/* Rows full of wide characters (their right halves width 0) and coloured text under the erase: the cells of
 * a deferred row hold them, and nothing may show through. */
static void fill_old(struct t_term *t, int rows)
{
	t_feed(t, "\033[H\033[42;1m");
	for (int y = 0; y < rows; y++)
		t_feedf(t, "\033[%d;1H%s", y + 1,
			"\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87"
			"\xe4\xb8\xad\xe6\x96\x87old text"); /* 28 cells: no row wraps */
	t_feed(t, "\033[m");
}

static void test_cells(void)
{
	enum { C = 40, R = 6 };
	struct t_term *t = stale_new(C, R, 20);
	/* ED 2 in blue, then text after a move: the cells before it are blue blanks (not the wide characters
	 * of a deferred row), the text's own and those after it as they should be */
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[m\033[1;4Hx\033[2;8H\033[41mab");
	const struct grid_cell *c = grid_row(t->g, 0);
	CHECK(blanks(t, c, 0, 3, BLUE) && c[3].cp == 'x' && c[3].width == 1 && bg_of(t, &c[3]) == 0 &&
		      blanks(t, c, 4, C, BLUE),
	      "ED 2 then a run: row 0 cells %#x/%u %#x %#x", c[0].cp, c[0].width, c[2].cp, c[4].cp);
	c = grid_row(t->g, 1);
	CHECK(blanks(t, c, 0, 7, BLUE) && c[7].cp == 'a' && bg_of(t, &c[7]) == RED && c[8].cp == 'b' &&
		      blanks(t, c, 9, C, BLUE),
	      "ED 2 then a coloured run: row 1");
	for (int y = 2; y < R; y++)
		CHECK(blanks(t, grid_row(t->g, y), 0, C, BLUE), "ED 2: row %d all blue blanks", y);

	/* EL 0 in red after text, EL 0 in another colour past the end of the text (the deferred row's cells
	 * before it keep their colour), EL 1 into a deferred row */
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[m\033[1;1Hab\033[41m\033[1;8H\033[K");
	c = grid_row(t->g, 0);
	CHECK(c[0].cp == 'a' && c[1].cp == 'b' && blanks(t, c, 2, 7, BLUE) && blanks(t, c, 7, C, RED),
	      "EL 0 past blue blanks: row 0");
	t_feed(t, "\033[2;1Hhello world\033[41m\033[2;7H\033[K\033[44m\033[3;1Hxy\033[m\033[3;10H\033[1K");
	c = grid_row(t->g, 1);
	CHECK(c[0].cp == 'h' && c[5].cp == ' ' &&
		      blanks(t, c, 6, C, RED),
	      "EL 0 in red inside text: row 1");
	c = grid_row(t->g, 2);
	CHECK(blanks(t, c, 0, 10, 0) && blanks(t, c, 10, C, BLUE), "EL 1 in default into a deferred blue row: row 2");

	/* ECH inside a deferred row, and the printer's single cell (put_one's path) on one */
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[4;1Habcdef\033[41m\033[4;3H\033[2X\033[m\033[4;10HZ\033[4;2HY");
	c = grid_row(t->g, 3);
	CHECK(c[0].cp == 'a' && c[1].cp == 'Y' && blanks(t, c, 2, 4, RED) && c[4].cp == 'e' && c[5].cp == 'f' &&
		      blanks(t, c, 6, 9, BLUE) && c[9].cp == 'Z' && bg_of(t, &c[9]) == 0 && blanks(t, c, 10, C, BLUE),
	      "ECH and single cells: row 3");
	t_free(t);
}

/* Deferred rows leave the screen: the scrollback holds their blue cells, and a resize
 * (reflow) and a selection read them too. */
static void test_readers(void)
{
	enum { C = 30, R = 5 };
	struct t_term *t = stale_new(C, R, 20);
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[1;1Hfirst\033[K\033[2;1Hsecond\033[5;1H\033[m\n\n\n");
	CHECK(grid_scrollback_lines(t->g) == 3, "scrollback %zu lines", grid_scrollback_lines(t->g));
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(t->g, 0, &len);
	CHECK(len == C && c[0].cp == 'f' && blanks(t, c, 5, C, BLUE), "scrollback line 0: %d cells", len);
	c = grid_scrollback_row(t->g, 2, &len);
	CHECK(len == C && blanks(t, c, 0, C, BLUE), "scrollback line 2 (never written): %d cells", len);
	/* the screen: rows 0-1 blue (rows 3-4 of the ED), rows 2-4 new in the default pen */
	c = grid_row(t->g, 1);
	CHECK(blanks(t, c, 0, C, BLUE), "screen row 1 blue");
	t_feed(t, "\033[44m\033[1;1H\033[2K\033[1;3Hsel\033[m");
	grid_select_start(t->g, 0, 0, GRID_SELECT_CELL);
	grid_select_extend(t->g, C - 1, 0);
	size_t n = 0;
	char *s = grid_selection_text(t->g, &n);
	/* (dragged past the text: its line end comes too, as in xterm; tests/grid/test-select.c) */
	CHECK(s && n == 6 && memcmp(s, "  sel\n", 6) == 0, "selection '%.*s'", (int)n, s ? s : "");
	free(s);
	grid_select_clear(t->g);
	t_feed(t, "\033[44m\033[3;1H\033[J\033[m");
	grid_resize(t->g, 20, 7);
	bool ok = true;
	for (int y = 0; y < grid_rows(t->g); y++) {
		c = grid_row(t->g, y);
		for (int x = 0; x < 20; x++)
			ok = ok && (c[x].cp != 0 || c[x].width == 1);
	}
	CHECK(ok, "after the reflow no cell of the screen is a stray right half");
	t_free(t);
}

/* The damage of erases on deferred rows is the eager erase's: the erased span and a cell more on the left. */
static void test_damage(void)
{
	enum { C = 30, R = 5 };
	struct t_term *t = stale_new(C, R, 20);
	t_feed(t, "\033[44m\033[2J");
	grid_damage_clear(t->g);
	int x0 = -1, x1 = -1;
	t_feed(t, "\033[2;10H\033[K");
	CHECK(grid_row_damage(t->g, 1, &x0, &x1) && x0 == 8 && x1 == C, "EL 0 on a deferred row: damage [%d,%d)", x0, x1);
	CHECK(!grid_row_damage(t->g, 0, &x0, &x1), "EL 0: row 0 clean");
	grid_damage_clear(t->g);
	t_feed(t, "\033[41m\033[3;6H\033[1K");
	CHECK(grid_row_damage(t->g, 2, &x0, &x1) && x0 == 0 && x1 == 7, "EL 1 into a deferred row: damage [%d,%d)", x0, x1);
	grid_damage_clear(t->g);
	t_feed(t, "\033[3;2H\033[J");
	CHECK(grid_row_damage(t->g, 2, &x0, &x1) && x0 == 0 && x1 == C, "ED 0: row 2 damage [%d,%d)", x0, x1);
	for (int y = 3; y < R; y++)
		CHECK(grid_row_damage(t->g, y, &x0, &x1) && x0 == 0 && x1 == C, "ED 0: row %d damage [%d,%d)", y, x0,
		      x1);
	CHECK(!grid_row_damage(t->g, 1, &x0, &x1), "ED 0: row 1 clean");
	t_free(t);
}

/* A collection of unused styles while a row is deferred: its style lives in the row's header only and
 * must survive (a freed id would be reused by the fresh colours that follow). */
static void test_collect(void)
{
	enum { C = 30, R = 5 };
	struct t_term *t = stale_new(C, R, 20);
	t_feed(t, "\033[48;2;9;8;7m\033[2J\033[m");
	for (int i = 0; i < 20000; i++)
		t_feedf(t, "\033[5;1H\033[48;2;%d;%d;%dmX", i & 255, (i >> 8) & 255, 1);
	t_feed(t, "\033[m");
	const struct grid_cell *c = grid_row(t->g, 2);
	CHECK(blanks(t, c, 0, C, GRID_COLOR_RGB(9, 8, 7)), "collect: row 2 bg %#x", bg_of(t, &c[0]));
	t_free(t);
}

/* Text in the erase's own style (the pen only a background: its style is the erase's) goes into a deferred
 * row's text, from column 0 (lazy_start) and after it (lazy_more): the text and the blanks around it are
 * the eager erase's; and such a row pushed to the scrollback keeps them. */
static void test_own_style(void)
{
	enum { C = 40, R = 6 };
	struct t_term *t = stale_new(C, R, 20);
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[3;1Habc\033[4;9Hxyz\033[5;30Hq\033[m");
	const struct grid_cell *c = grid_row(t->g, 2);
	CHECK(c[0].cp == 'a' && c[2].cp == 'c' && bg_of(t, &c[0]) == BLUE && c[0].width == 1 && blanks(t, c, 3, C, BLUE),
	      "own style from column 0: row 2 %#x %#x/%u", c[0].cp, c[3].cp, c[3].width);
	c = grid_row(t->g, 3);
	CHECK(blanks(t, c, 0, 8, BLUE) && c[8].cp == 'x' && c[10].cp == 'z' && bg_of(t, &c[9]) == BLUE &&
		      blanks(t, c, 11, C, BLUE),
	      "own style after column 0: row 3 %#x %#x", c[7].cp, c[8].cp);
	/* row 4 unread: scrolled into the scrollback (default erase: the push that clears the row itself) */
	t_feed(t, "\033[6;1H\n\n\n\n\n");
	int len = 0;
	c = grid_scrollback_row(t->g, 4, &len);
	CHECK(c && len == C && blanks(t, c, 0, 29, BLUE) && c[29].cp == 'q' && blanks(t, c, 30, C, BLUE),
	      "own style, pushed: %d cells", len);
	t_free(t);
}

/* Deferred rows pushed by line feeds in default blanks (at 32 columns a flood's text row would go
 * grid__hist_push_ascii's way, which skips a lazy row's clear): the scrollback holds their blanks, and the
 * recycled rows none of their old cells. */
static void test_push_recycled(void)
{
	enum { C = 32, R = 4 };
	struct t_term *t = stale_new(C, R, 20);
	fill_old(t, R);
	t_feed(t, "\033[41m\033[2J\033[m\033[4;1H\n\n\n");
	for (int y = 0; y < R; y++) {
		const struct grid_cell *c = grid_row(t->g, y);
		CHECK(y == 0 ? blanks(t, c, 0, C, RED) : blanks(t, c, 0, C, 0), "recycled row %d: %#x/%u bg %#x", y,
		      c[0].cp, c[0].width, bg_of(t, &c[0]));
	}
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(t->g, 1, &len);
	CHECK(c && len == C && blanks(t, c, 0, C, RED), "pushed deferred row: %d cells", len);
	t_free(t);

	/* the same through the UTF-8 printer's CR LF (grid__newline_deferred, which leaves a deferred row to
	 * push_line): the first three rows (the eager first row of the ED, two deferred ones) pushed red */
	t = stale_new(C, R, 20);
	fill_old(t, R);
	t_feed(t, "\033[41m\033[2J\033[m\033[4;1H");
	t_feed(t, "\xe4\xb8\xad\xe4\xb8\xad\r\n\xe4\xb8\xad\xe4\xb8\xad\r\n\xe4\xb8\xad\xe4\xb8\xad\r\n\xe4\xb8\xad\xe4\xb8\xad");
	CHECK(grid_scrollback_lines(t->g) == 3, "UTF-8 CR LF: %zu lines pushed", grid_scrollback_lines(t->g));
	for (size_t i = 0; i < grid_scrollback_lines(t->g); i++) {
		c = grid_scrollback_row(t->g, i, &len);
		CHECK(c && len == C && blanks(t, c, 0, C, RED),
		      "UTF-8 CR LF: scrollback line %zu: %d cells, %#x/%u", i, len, c ? c[0].cp : 0, c ? c[0].width : 0);
	}
	t_free(t);
}

/* An erased screen's styles and links die with the erase, as after an eager one: a deferred row's cells
 * after cell 0 still hold the erased content, which the collection must not keep live (it marks cell 0's
 * blank only). A screen of 1000 links (LINK_MAX 1024) erased, then 1000 new links: each new cell keeps its
 * link; 300 x 200 cells of fresh colours erased, then as many again (more than 7/8 of the 65,536 style ids
 * kept live would make the table wait, the new colours falling back to the default style). */
static void test_collect_erased(void)
{
	enum { C = 40, R = 30, N = 1000 };
	struct t_term *t = stale_new(C, R, 20);
	for (int pass = 0; pass < 2; pass++) {
		t_feed(t, "\033[44m\033[2J\033[m\033[H");
		for (int i = 0; i < N; i++)
			t_feedf(t, "\033]8;;http://kf/%d/%d\033\\x", pass, i);
		t_feed(t, "\033]8;;\033\\");
	}
	int wrong = 0;
	char want[64];
	for (int i = 0; i < N; i++) {
		const struct grid_cell *c = &grid_row(t->g, i / C)[i % C];
		snprintf(want, sizeof(want), "http://kf/1/%d", i);
		const char *u = grid_link_uri(t->g, c->link);
		wrong += !u || strcmp(u, want) != 0;
	}
	CHECK(wrong == 0, "links after an erased screen of links: %d of %d cells without theirs", wrong, N);
	t_free(t);

	enum { SC = 300, SR = 200 };
	t = stale_new(SC, SR, 20);
	char buf[64];
	for (int pass = 0; pass < 2; pass++) {
		t_feed(t, "\033[44m\033[2J\033[m\033[H");
		for (int i = 0; i < SC * SR; i++) {
			const int v = pass * SC * SR + i;
			snprintf(buf, sizeof(buf), "\033[38;2;%d;%d;%dmx", v & 255, (v >> 8) & 255, (v >> 16) & 255);
			t_feed(t, buf);
		}
	}
	wrong = 0;
	for (int i = 0; i < SC * SR - 1; i++) {
		const int v = SC * SR + i;
		wrong += grid_style(t->g, grid_row(t->g, i / SC)[i % SC].style)->fg !=
			 GRID_COLOR_RGB(v & 255, (v >> 8) & 255, (v >> 16) & 255);
	}
	CHECK(wrong == 0, "colours after an erased screen of colours: %d of %d cells without theirs", wrong, SC * SR - 1);
	t_free(t);
}

/* The same when a collection finds the links mostly live and the oldest history lines give theirs up
 * (grid__evict): the erased rows' old links are dead and must not count against the history's budget. 760
 * linked lines in the history, 250 links on the screen erased, then new links: an eager erase keeps the
 * history's newest ~500 lines' links (half the ids); counting the erased ones kept ~290. */
static void test_evict_erased(void)
{
	enum { C = 40, R = 30, H = 760, OLD = 250 };
	struct t_term *t = stale_new(C, R, 2000);
	for (int j = 0; j < H; j++)
		t_feedf(t, "\033]8;;http://kf/h/%d\033\\h\033]8;;\033\\\r\n", j);
	for (int j = 0; j < R; j++)
		t_feed(t, "\r\n");
	t_feed(t, "\033[H");
	for (int i = 0; i < OLD; i++)
		t_feedf(t, "\033]8;;http://kf/old/%d\033\\x", i);
	t_feed(t, "\033]8;;\033\\\033[44m\033[2J\033[m\033[21;1H");
	for (int i = 0; i < 100; i++)
		t_feedf(t, "\033]8;;http://kf/new/%d\033\\y", i);
	t_feed(t, "\033]8;;\033\\");
	/* from the newest history line back: the linked lines that kept their link, until the first that did not */
	const size_t sb = grid_scrollback_lines(t->g);
	int kept = 0, seen = 0, len = 0;
	char want[64];
	for (size_t i = sb; i-- > 0;) {
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		if (!c || c[0].cp != 'h')
			continue;
		snprintf(want, sizeof(want), "http://kf/h/%d", H - 1 - seen++);
		const char *u = grid_link_uri(t->g, c[0].link);
		if (!u || strcmp(u, want) != 0)
			break;
		kept++;
	}
	int wrong = 0;
	for (int i = 0; i < 100; i++) {
		snprintf(want, sizeof(want), "http://kf/new/%d", i);
		const char *u = grid_link_uri(t->g, grid_row(t->g, 20 + i / C)[i % C].link);
		wrong += !u || strcmp(u, want) != 0;
	}
	CHECK(seen > 0 && kept >= 450 && wrong == 0, "evicted links: the newest %d history lines kept theirs, %d new ones wrong",
	      kept, wrong);
	t_free(t);
}

/* The deferred row's pstyle (GRID_STYLE_NONE) is no pen's: with more live colours than ids, no cell gets it
 * (the printer would otherwise take a run in that pen into such a row's text). */
static void test_reserved_id(void)
{
	enum { C = 64, R = 4, SB = 1100 };
	struct t_term *t = stale_new(C, R, SB);
	char buf[64];
	for (int i = 0; i < C * (R + SB); i++) {
		snprintf(buf, sizeof(buf), "\033[48;2;%d;%d;%dm ", i & 255, (i >> 8) & 255, (i >> 16) & 255);
		t_feed(t, buf);
	}
	int hits = 0, len = 0;
	for (size_t i = 0; i < grid_scrollback_lines(t->g); i++) {
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		for (int x = 0; x < len; x++)
			hits += c[x].style == 65535;
	}
	for (int y = 0; y < R; y++)
		for (int x = 0; x < C; x++)
			hits += grid_row(t->g, y)[x].style == 65535;
	CHECK(hits == 0, "%d cells in style id 65535", hits);
	t_free(t);
}

/* Rows are deferred only on screens of GRID_STALE_MIN_CELLS cells or more (below, the eager fill is cheap and
 * most rows are written again anyway); the rows after the first of an ED in a colour are then LINE_STALE. */
static void test_size_gate(void)
{
	struct t_term *small = t_new(40, 8, 20), *big = t_new(128, 64, 20);
	t_feed(small, "\033[44m\033[2J");
	t_feed(big, "\033[44m\033[2J");
	CHECK(!(grid__line_raw(small->g, 3)->flags & LINE_STALE), "40x8: an ED's row is stored at once");
	CHECK(grid__line_raw(big->g, 3)->flags & LINE_STALE, "128x64: an ED's row is deferred");
	CHECK(blanks(big, grid_row(big->g, 3), 0, 128, BLUE), "128x64: the deferred row reads blue blanks");
	t_free(small);
	t_free(big);
}

/* Erases on a deferred row (grid__stale_erase: the row's blanks and the erase stored once, not the row and
 * then the erase): the cells on both sides keep the ED's colour, and an erase to the end in default blanks
 * leaves the row's used mark as the eager erase does (a second one finds nothing to damage). */
static void test_erase_on_stale(void)
{
	enum { C = 30, R = 5 };
	struct t_term *t = stale_new(C, R, 20);
	fill_old(t, R);
	t_feed(t, "\033[44m\033[2J\033[41m\033[2;10H\033[1K\033[3;5H\033[4X\033[4;12H\033[K\033[m\033[5;7H\033[K");
	const struct grid_cell *c = grid_row(t->g, 1);
	CHECK(blanks(t, c, 0, 10, RED) && blanks(t, c, 10, C, BLUE), "EL 1 on a deferred row: %#x %#x", bg_of(t, &c[9]),
	      bg_of(t, &c[10]));
	c = grid_row(t->g, 2);
	CHECK(blanks(t, c, 0, 4, BLUE) && blanks(t, c, 4, 8, RED) && blanks(t, c, 8, C, BLUE), "ECH on a deferred row");
	c = grid_row(t->g, 3);
	CHECK(blanks(t, c, 0, 11, BLUE) && blanks(t, c, 11, C, RED), "EL 0 on a deferred row");
	c = grid_row(t->g, 4);
	CHECK(blanks(t, c, 0, 6, BLUE) && blanks(t, c, 6, C, 0), "EL 0 in default blanks on a deferred row");
	grid_damage_clear(t->g);
	int x0 = -1, x1 = -1;
	t_feed(t, "\033[5;9H\033[K");
	CHECK(!grid_row_damage(t->g, 4, &x0, &x1), "EL 0 in default blanks again: damage [%d,%d)", x0, x1);
	t_free(t);
}

int main(void)
{
	test_erase_on_stale();
	test_size_gate();
	test_reserved_id();
	test_own_style();
	test_push_recycled();
	test_cells();
	test_readers();
	test_damage();
	test_collect();
	test_collect_erased();
	test_evict_erased();
	test_random(40, 8, 20000);
	test_random(13, 4, 20000);
	test_random(32, 5, 20000);
	return t_done("grid-stale");
}
