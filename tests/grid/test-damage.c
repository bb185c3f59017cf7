/* tests/grid/test-damage.c: damage never underdraws. Random streams of prints, controls, CSI edits, scroll
 * regions, SGR and resizes go through grid_feed; after each chunk every cell that differs from a shadow copy
 * taken at the last grid_damage_clear() must lie in a damaged span of its row. */
#include "harness.h"

static uint32_t rng = 12345;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static const char *pieces[] = {
	"\r\n", "\n", "\r", "\b", "\t", "\033[H", "\033[2J", "\033[K", "\033[1K", "\033[2K", "\033[J", "\033[1J",
	"\033[3L", "\033[2M", "\033[4@", "\033[3P", "\033[5X", "\033[2S", "\033[3T", "\033M", "\033D", "\033E",
	"\033[5;10r", "\033[r", "\033[?69h\033[3;20s", "\033[?69l", "\033[?6h", "\033[?6l", "\033[31;42m", "\033[0m",
	"\033[7m", "\033[48;2;1;2;3m", "\033[?7l", "\033[?7h", "\033[4h", "\033[4l", "\033[10b", "\033#8",
	"\033[?1049h", "\033[?1049l", "\033[2 @", "\033[2 A", "\033[2'}", "\033[2'~", "\033[?5h", "\033[?5l",
	"\xe4\xb8\xad\xe6\x96\x87", "e\xcc\x81", "\xf0\x9f\x91\x8d", "abcdefghij", "0123456789012345678901234567",
	"\033[?2J", "\033[1\"q", "\033[0\"q",
};

static char fed[512];
static size_t fed_n;

static void feed(struct t_term *t, const char *s)
{
	size_t n = strlen(s);
	if (fed_n + n < sizeof(fed)) {
		memcpy(fed + fed_n, s, n);
		fed_n += n;
		fed[fed_n] = 0;
	}
	t_feed(t, s);
}

static void random_cup(char *buf, size_t cap)
{
	snprintf(buf, cap, "\033[%u;%uH", rnd(14) + 1, rnd(34) + 1);
}

/* margins and the VT420 rectangle functions at random places (xterm ctlseqs: DECSTBM, DECSLRM, DECCRA, DECFRA,
 * DECERA, DECSERA, DECCARA, DECRARA): their edges cut wide characters the fixed pieces never reach */
static void random_area(char *buf, size_t cap)
{
	const unsigned t = rnd(14) + 1, l = rnd(34) + 1, b = rnd(14) + 1, r = rnd(34) + 1;
	switch (rnd(6)) {
	case 0: snprintf(buf, cap, "\033[%u;%ur", t, b); break;
	case 1: snprintf(buf, cap, "\033[?69h\033[%u;%us", l, r); break;
	case 2: snprintf(buf, cap, "\033[%u;%u;%u;%u;1;%u;%u;1$v", t, l, b, r, rnd(14) + 1, rnd(34) + 1); break;
	case 3: snprintf(buf, cap, "\033[%u;%u;%u;%u;%u$x", 'A' + rnd(3), t, l, b, r); break;
	case 4: snprintf(buf, cap, "\033[%u;%u;%u;%u$%c", t, l, b, r, rnd(2) ? 'z' : '{'); break;
	default: snprintf(buf, cap, "\033[%u;%u;%u;%u;%u$%c", t, l, b, r, rnd(8), rnd(2) ? 'r' : 't'); break;
	}
}

static int check(struct t_shadow *s, struct grid *g, int iter)
{
	int bad = 0;
	if (grid_cols(g) != s->cols || grid_rows(g) != s->rows) {
		/* a resize damages everything */
		for (int y = 0; y < grid_rows(g); y++) {
			int x0, x1;
			if (!grid_row_damage(g, y, &x0, &x1) || x0 != 0 || x1 != grid_cols(g))
				bad++;
		}
		return bad;
	}
	for (int y = 0; y < s->rows; y++) {
		const struct grid_cell *r = grid_row(g, y);
		int x0 = 0, x1 = 0;
		bool d = grid_row_damage(g, y, &x0, &x1);
		for (int x = 0; x < s->cols; x++) {
			if (!memcmp(&r[x], &s->c[(size_t)y * (size_t)s->cols + (size_t)x], sizeof(r[x])))
				continue;
			if (!d || x < x0 || x >= x1) {
				if (bad++ < 3)
					fprintf(stderr, "iter %d: cell %d,%d changed outside damage [%d,%d) d=%d\n", iter,
						x, y, x0, x1, d);
			}
		}
	}
	return bad;
}

/* The line feed at the bottom of a full-width region that starts below the top row, its scrollback still empty
 * (region_step's shortcut): the region's every row is damaged, its bottom row too, which came in blank (session
 * 55's mutation audit: the bottom row left out passed every test, and the screen kept showing the text the
 * row had before, as a status line in less or vim above the last row would). */
static void test_region_line_feed(void)
{
	struct t_term *t = t_new(20, 10, 100);
	for (int y = 1; y <= 10; y++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "\033[%d;1Hrow%d", y, y);
		t_feed(t, buf);
	}
	t_feed(t, "\033[2;9r\033[9;1H");
	grid_damage_clear(t->g);
	t_feed(t, "\n");
	int x0, x1;
	for (int y = 1; y <= 8; y++)
		CHECK(grid_row_damage(t->g, y, &x0, &x1) && x0 == 0 && x1 == 20, "region row %d damaged [%d,%d)", y, x0,
		      x1);
	CHECK(!grid_row_damage(t->g, 0, &x0, &x1) && !grid_row_damage(t->g, 9, &x0, &x1), "rows outside clean");
	CHECK(grid_row(t->g, 8)[0].cp == 0 && grid_row(t->g, 7)[0].cp == 'r', "the region scrolled");
	t_free(t);
}

/* Rows damaged while the view is scrolled back: a range is moved down by the view's offset and cut at the last
 * row shown. A region at the screen's bottom moved down by one reached one row past the screen without the cut,
 * and the next, disjoint range put the old one into the per-row spans, writing one entry past the damage
 * arrays (session 55's mutation audit, D04: "y1 > g->rows" passed every test; this one fails under the ASan
 * build with it, as a heap-buffer-overflow in grid__damage_rows). */
static void test_damage_scrolled_view(void)
{
	struct t_term *t = t_new(10, 6, 100);
	for (int i = 0; i < 20; i++)
		t_feed(t, "line\r\n");
	CHECK(grid_view_scroll(t->g, 1) == 1, "view scrolled back by one");
	grid_damage_clear(t->g);
	t_feed(t, "\033[5;6r\033[6;1H\n");        /* screen rows 4..5: view rows 5..6, cut to 5 */
	t_feed(t, "\033[2;3r\033[3;1H\n");        /* screen rows 1..2: view rows 2..3, disjoint */
	int x0, x1;
	for (int y = 0; y < 6; y++) {
		const bool want = y == 2 || y == 3 || y == 5;
		CHECK(grid_row_damage(t->g, y, &x0, &x1) == want && (!want || (x0 == 0 && x1 == 10)),
		      "view row %d damaged: %d", y, want);
	}
	t_free(t);
}

/* An erase of whole rows in a colour on a screen narrower than 8 columns (the per-row loop, not the vector
 * one, whatever the CPU: every screen on a CPU without AVX): each row damaged from column 0 (session 55's
 * mutation audit: from column 1 passed every test). */
static void test_narrow_erase(void)
{
	struct t_term *t = t_new(6, 4, 0);
	t_feed(t, "abcdef\r\nabcdef\r\nabcdef\r\nabcdef");
	grid_damage_clear(t->g);
	t_feed(t, "\033[44m\033[2J");
	int x0, x1;
	for (int y = 0; y < 4; y++)
		CHECK(grid_row_damage(t->g, y, &x0, &x1) && x0 == 0 && x1 == 6, "row %d damaged [%d,%d)", y, x0, x1);
	t_free(t);
}

/* Insert mode inside DECSLRM margins (xterm ctlseqs: IRM, "CSI Pl ; Pr s" DECSLRM; ECMA-48 8.3.64 IRM): the
 * character written shifts the cells up to the right margin, and a wide character the margin cuts in half,
 * its right half just outside, is blanked whole, as ICH blanks it. The blanked right half must be damaged: it
 * was not, and the display kept showing it. Each case by one write and by a run (the ASCII run path too). */
static void test_insert_wide_at_margin(void)
{
	static const char *const writes[] = {"k", "lqk", "\xe5\xad\x97", "\033[1;1Hlq\xe5\xad\x97"};
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		struct t_term *t = t_new(17, 3, 10);
		/* U+1F44D in columns 1-2, U+4E2D in 3-4, U+6587 in 5-6: the right margin (5) cuts U+6587 */
		t_feed(t, "\xf0\x9f\x91\x8d\xe4\xb8\xad\xe6\x96\x87\033[4h\033[?69h\033[3;5s\033[1;3H");
		struct t_shadow sh = {0};
		grid_damage_clear(t->g);
		t_snap(&sh, t->g);
		t_feed(t, writes[i]);
		CHECK(grid_row(t->g, 0)[5].cp == 0 && grid_row(t->g, 0)[5].width == 1, "write %zu: the right half blanked",
		      i);
		int bad = check(&sh, t->g, (int)i);
		CHECK(bad == 0, "write %zu: %d cells changed without damage", i, bad);
		free(sh.c);
		t_free(t);
	}
}

int main(void)
{
	test_region_line_feed();
	test_damage_scrolled_view();
	test_narrow_erase();
	test_insert_wide_at_margin();
	struct t_term *t = t_new(34, 14, 50);
	struct t_shadow sh = {0};
	grid_damage_clear(t->g);
	t_snap(&sh, t->g);
	int bad = 0;
	for (int iter = 0; iter < 20000 && bad == 0; iter++) {
		int n = (int)rnd(4) + 1;
		fed_n = 0;
		fed[0] = 0;
		for (int k = 0; k < n; k++) {
			char buf[64];
			const uint32_t kind = rnd(10);
			if (kind < 2) {
				random_cup(buf, sizeof(buf));
				feed(t, buf);
			} else if (kind == 2) {
				random_area(buf, sizeof(buf));
				feed(t, buf);
			} else {
				feed(t, pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))]);
			}
		}
		if (rnd(200) == 0)
			grid_resize(t->g, 20 + (int)rnd(20), 8 + (int)rnd(10));
		if (rnd(50) == 0)
			grid_view_scroll(t->g, (int)rnd(20) - 10);
		int b = check(&sh, t->g, iter);
		if (b) {
			fprintf(stderr, "after:");
			for (size_t i = 0; i < fed_n; i++)
				fprintf(stderr, fed[i] < 32 ? "\\x%02x" : "%c", (unsigned char)fed[i]);
			fprintf(stderr, "\n");
		}
		bad += b;
		if (rnd(3) == 0) {
			grid_damage_clear(t->g);
			t_snap(&sh, t->g);
		}
	}
	CHECK(bad == 0, "%d cells changed without damage", bad);
	/* a clear leaves nothing damaged, and printing damages exactly the written span */
	grid_view_scroll(t->g, -1000);
	t_feed(t, "\033[?1049l\033[r\033[?69l\033[?7h\033[4l\033[H");
	grid_damage_clear(t->g);
	int x0, x1;
	CHECK(!grid_row_damage(t->g, 3, &x0, &x1), "clean after clear");
	CHECK(!grid_is_damaged(t->g), "nothing damaged");
	t_feed(t, "\033[4;5Habc");
	CHECK(grid_row_damage(t->g, 3, &x0, &x1) && x0 <= 4 && x1 >= 7, "span %d %d", x0, x1);
	CHECK(!grid_row_damage(t->g, 2, &x0, &x1), "other rows clean");
	/* a shell's Backspace (BS, erase below: ED 0) under a prompt: the blank rows below are not damaged */
	t_feed(t, "\033[0m\033[2J\033[H/ # a");
	grid_damage_clear(t->g);
	t_feed(t, "\b\033[J");
	CHECK(grid_row_damage(t->g, 0, &x0, &x1) && x0 <= 4 && x1 >= 5, "prompt row span %d %d", x0, x1);
	for (int y = 1; y < grid_rows(t->g); y++)
		CHECK(!grid_row_damage(t->g, y, &x0, &x1), "blank row %d damaged by ED 0", y);
	CHECK(grid_row(t->g, 0)[4].cp == 0, "the erased cell is blank");
	/* a row with text is still erased and damaged */
	t_feed(t, "\033[3;1Hxyz\033[H");
	grid_damage_clear(t->g);
	t_feed(t, "\033[J");
	CHECK(grid_row_damage(t->g, 2, &x0, &x1) && x0 == 0 && x1 >= 3, "row with text damaged");
	CHECK(grid_row(t->g, 2)[1].cp == 0, "row with text erased");
	free(sh.c);
	t_free(t);
	return t_done("grid-damage");
}
