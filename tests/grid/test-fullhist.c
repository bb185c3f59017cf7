/* tests/grid/test-fullhist.c: the interned tables (styles, clusters, links) under a FULL history and long
 * floods of fresh entries. A full history changes the tables' thresholds (a collection scans ~2.1 M cells at
 * 212 x 82 with 10,000 lines, so the headroom it asks for exceeds the tables' ids) and holds entries live
 * long after they were written: the screen and the recent history must keep exactly what was written
 * (colour, underline colour, link, cluster text), a documented fallback at a cap with everything live must
 * never show a WRONG entry (only the default style, no link, the base character), and once the entries die
 * (the history turned over, or ED 3) new ones must be taken at once. Every grid is 212 x 82 with 10,000 lines:
 * the thresholds' logic depends on the cells a collection scans (style_headroom, full_threshold), and only a
 * history this large makes the headroom exceed the ids. */
#include "harness.h"
#include "grid/grid-internal.h"

enum { COLS = 212, ROWS = 82, SB = 10000 };

enum {
	F_FG = 1,      /* a fresh truecolour foreground per cell */
	F_UL = 2,      /* a fresh underline colour (SGR 4 and 58:2) per cell */
	F_LINK = 4,    /* a fresh link per line */
	F_CLUSTER = 8, /* a fresh cluster (a Latin letter with two marks, interned) per cell */
};

static uint32_t v_rgb(uint32_t v)
{
	return GRID_COLOR_RGB(v & 255, (v >> 8) & 255, (v >> 16) & 255);
}

/* cell x of line j: the value v = j * COLS + x decides its colours and cluster */
static size_t put_cell(char *p, uint32_t v, int flags)
{
	size_t k = 0;
	if (flags & F_FG)
		k += (size_t)sprintf(p + k, "\033[38;2;%u;%u;%um", v & 255, (v >> 8) & 255, (v >> 16) & 255);
	if (flags & F_UL)
		k += (size_t)sprintf(p + k, "\033[4;58:2::%u:%u:%um", (v >> 16) & 255, v & 255, (v >> 8) & 255);
	if (flags & F_CLUSTER) {
		k += vt_utf8_encode(0x100 + v % 128, p + k);
		k += vt_utf8_encode(0x300 + (v / 128) % 112, p + k);
		k += vt_utf8_encode(0x300 + (v / (128 * 112)) % 112, p + k);
	} else
		p[k++] = 'x';
	return k;
}

/* Writes lines [j0, j1) of the flood, each ending in CR LF (into the history once the screen is full). */
static void flood_lines(struct t_term *t, uint32_t j0, uint32_t j1, int flags)
{
	static char buf[COLS * 96 + 256];
	for (uint32_t j = j0; j < j1; j++) {
		size_t k = 0;
		if (flags & F_LINK)
			k += (size_t)sprintf(buf + k, "\033]8;;http://kf/%u\033\\", j);
		for (int x = 0; x < COLS; x++)
			k += put_cell(buf + k, j * COLS + (uint32_t)x, flags);
		k += (size_t)sprintf(buf + k, "\033[m\033]8;;\033\\\r\n");
		grid_feed(t->g, (const uint8_t *)buf, k);
	}
}

/* Line `back` from the bottom (1 = the last line written, which sits above the cursor's empty row): a copy of
 * its cells (a scrollback row is valid only until the next read). */
static int line_back(struct t_term *t, int back, struct grid_cell *out)
{
	const struct grid *g = t->g;
	if (back < ROWS) {
		memcpy(out, grid_row(g, ROWS - 1 - back), COLS * sizeof(*out));
		return COLS;
	}
	size_t sb = grid_scrollback_lines(g), i = (size_t)(back - ROWS);
	if (i >= sb)
		return -1;
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(g, sb - 1 - i, &len);
	memcpy(out, c, (size_t)len * sizeof(*out));
	return len;
}

struct verdict {
	int exact, fallback, wrong; /* cells as written, in a documented fallback, and anything else */
};

/* Checks cell c against value v: what the flood wrote, or a documented fallback (no colour, no link, the
 * base letter alone), or wrong. */
static void check_cell(const struct grid *g, const struct grid_cell *c, uint32_t v, uint32_t j, int flags,
		       struct verdict *r)
{
	bool fb = false;
	const struct grid_style *s = grid_style(g, c->style);
	if (flags & F_FG) {
		if (c->style == 0)
			fb = true;
		else if (s->fg != v_rgb(v)) {
			r->wrong++;
			return;
		}
	}
	if (flags & F_UL) {
		if (c->style == 0)
			fb = true;
		else if (s->ul_color != GRID_COLOR_RGB((v >> 16) & 255, v & 255, (v >> 8) & 255) ||
			 s->underline != GRID_UNDERLINE_SINGLE) {
			r->wrong++;
			return;
		}
	}
	if (flags & F_LINK) {
		char want[64];
		snprintf(want, sizeof(want), "http://kf/%u", j);
		const char *u = grid_link_uri(g, c->link);
		if (!c->link)
			fb = true;
		else if (!u || strcmp(u, want) != 0) {
			r->wrong++;
			return;
		}
	}
	uint32_t cp[16];
	size_t n = grid_cell_codepoints(g, c, cp, 16);
	if (flags & F_CLUSTER) {
		/* a mark that finds the table full is dropped from its cell (grid-cluster.c): the base with a
		 * subsequence of the marks is the fallback */
		const uint32_t m[2] = {0x300 + (v / 128) % 112, 0x300 + (v / (128 * 112)) % 112};
		bool sub = n >= 1 && n <= 3 && cp[0] == 0x100 + v % 128;
		for (size_t i = 1, k = 0; sub && i < n; i++, k++) {
			while (k < 2 && m[k] != cp[i])
				k++;
			sub = k < 2;
		}
		if (!sub) {
			r->wrong++;
			return;
		}
		if (n < 3)
			fb = true;
	} else if (n != 1 || cp[0] != 'x') {
		r->wrong++;
		return;
	}
	if (fb)
		r->fallback++;
	else
		r->exact++;
}

/* Checks the last `lines` lines written, the last of them line j_last. */
static struct verdict check_lines(struct t_term *t, uint32_t j_last, int lines, int flags)
{
	static struct grid_cell cells[COLS];
	struct verdict r = {0};
	for (int back = 1; back <= lines; back++) {
		const uint32_t j = j_last + 1 - (uint32_t)back;
		int n = line_back(t, back, cells);
		if (n != COLS) {
			r.wrong += COLS;
			continue;
		}
		for (int x = 0; x < COLS; x++)
			check_cell(t->g, &cells[x], j * COLS + (uint32_t)x, j, flags, &r);
	}
	return r;
}

static struct t_term *full_term(void)
{
	struct t_term *t = t_new(COLS, ROWS, SB);
	for (int i = 0; i < SB + 100; i++)
		t_feed(t, "plain line\r\n");
	CHECK(grid_scrollback_lines(t->g) == SB, "history %zu", grid_scrollback_lines(t->g));
	return t;
}

static void check_bounded(const struct grid *g, const char *what)
{
	CHECK(g->st.count <= STYLE_MAX + 1 && g->st.cap == STYLE_MAX + 1, "%s: styles %u of %u", what, g->st.count,
	      g->st.cap);
	CHECK(g->cl.count <= CLUSTER_MAX && g->cl.cap <= CLUSTER_MAX, "%s: clusters %u of %u", what, g->cl.count,
	      g->cl.cap);
	CHECK(g->links.count < LINK_MAX, "%s: links %u", what, g->links.count);
}

/* Fresh cells over the screen by CUP (the old ones die as they are overwritten): n cells, cell i at screen
 * position i % (COLS * ROWS), value base + i. Then checks the screen: each cell holds what its last write put. */
static struct verdict flood_screen(struct t_term *t, uint32_t base, int n, int flags)
{
	static char buf[256];
	const int area = COLS * ROWS;
	for (int i = 0; i < n; i++) {
		const int c = i % area;
		size_t k = (size_t)sprintf(buf, "\033[%d;%dH", 1 + c / COLS, 1 + c % COLS);
		if (flags & F_LINK)
			k += (size_t)sprintf(buf + k, "\033]8;;http://kf/%u\033\\", base + (uint32_t)i);
		k += put_cell(buf + k, base + (uint32_t)i, flags);
		grid_feed(t->g, (const uint8_t *)buf, k);
	}
	struct verdict r = {0};
	for (int c = 0; c < area; c++) {
		const int i = n - 1 - ((n - 1 - c) % area);
		check_cell(t->g, &grid_row(t->g, c / COLS)[c % COLS], base + (uint32_t)i, base + (uint32_t)i, flags, &r);
	}
	return r;
}

#define CHECK_EXACT(r, n, what)                                                                            \
	CHECK((r).wrong == 0 && (r).exact == (n), "%s: %d exact, %d fallback, %d wrong of %d (styles %u wait %u, " \
	      "clusters %u wait %u, links %u wait %u)", what, (r).exact, (r).fallback, (r).wrong, (n),          \
	      t->g->st.count, t->g->st.gc_wait, t->g->cl.count, t->g->cl.gc_wait, t->g->links.count,            \
	      t->g->links.gc_wait)

/* A screen overwritten with fresh underline colours and foregrounds, a fresh link per cell, and fresh
 * clusters, over a full history: 200,000 cells (three times the styles' and clusters' ids, 200 times the
 * links'), the old ones dead as soon as overwritten: the screen keeps every one exactly. */
static void test_screen_flood(void)
{
	struct t_term *t = full_term();
	struct verdict r = flood_screen(t, 0, 200000, F_FG | F_UL);
	CHECK_EXACT(r, COLS * ROWS, "fg+ul over the screen");
	r = flood_screen(t, 1000000, 200000, F_FG | F_CLUSTER);
	CHECK_EXACT(r, COLS * ROWS, "fg+clusters over the screen");
	check_bounded(t->g, "screen flood");
	t_free(t);
	/* links: one per cell, 20,000 (the table's ids are 1,023; the screen holds 17,384 cells, so most are
	 * live: the documented fallback is no link, never a wrong one) */
	t = full_term();
	r = flood_screen(t, 0, 20000, F_LINK);
	CHECK(r.wrong == 0, "links over the screen: %d wrong", r.wrong);
	check_bounded(t->g, "link flood");
	t_free(t);
}

/* Fills a table with live entries: `lines` lines of fresh entries scrolled into the full history (styles:
 * 320 lines are 67,840 colours, more than the ids; clusters the same; links one per line). */
static struct t_term *full_table(int flags, uint32_t lines)
{
	struct t_term *t = full_term();
	flood_lines(t, 0, lines, flags);
	return t;
}

/* After a table was full of live entries (the collections then wait), the entries die: ED 3 clears the
 * history, or 10,100 plain lines turn it over. The next fresh entries must be taken at once, not fall back
 * for the rest of the wait (up to 133,000 colours, 530,000 clusters or 1,024 links). */
static void test_wait_ends(int flags, uint32_t lines, const char *what)
{
	for (int how = 0; how < 2; how++) {
		struct t_term *t = full_table(flags, lines);
		struct verdict hard = check_lines(t, lines - 1, (int)lines, flags);
		CHECK(hard.wrong == 0, "%s: %d wrong cells at the cap", what, hard.wrong);
		if (how == 0)
			t_feedf(t, "\033[3J\033[H\033[2J\033[%dH", ROWS); /* (the lines then scroll up from the bottom) */
		else
			for (int i = 0; i < SB + ROWS; i++)
				t_feed(t, "plain line\r\n");
		flood_lines(t, 100000, 100040, flags);
		struct verdict r = check_lines(t, 100039, 40, flags);
		char w[96];
		snprintf(w, sizeof(w), "%s after %s", what, how ? "the history turned over" : "ED 3");
		CHECK_EXACT(r, 40 * COLS, w);
		check_bounded(t->g, w);
		t_free(t);
	}
}

/* Lines of fresh entries of every kind at once scrolling into a full history past the tables' caps with
 * everything live (700 lines: 148,400 styles and clusters, 700 links; then 1,500 lines of links alone): the
 * oldest history lines give theirs up (grid-evict.c), the newest keep theirs exactly (the last 150 lines:
 * the collections keep the newest 3/4 of the ids, 49,152 styles and clusters, 511 links), nothing is wrong,
 * and the tables stay at their caps. Before grid-evict.c the newest lines were the ones to fall back. */
static void test_cap_all_live(void)
{
	struct t_term *t = full_term();
	const int f = F_FG | F_UL | F_LINK | F_CLUSTER;
	flood_lines(t, 0, 700, f);
	struct verdict r = check_lines(t, 699, 700, f);
	CHECK(r.wrong == 0 && r.exact >= 150 * COLS, "at the caps: %d exact, %d fallback, %d wrong", r.exact,
	      r.fallback, r.wrong);
	r = check_lines(t, 699, 150, f);
	CHECK_EXACT(r, 150 * COLS, "the newest lines at the caps");
	check_bounded(t->g, "at the caps");
	t_free(t);
	t = full_term();
	flood_lines(t, 0, 1500, F_LINK);
	r = check_lines(t, 1499, 1500, F_LINK);
	CHECK(r.wrong == 0, "links at the cap: %d wrong", r.wrong);
	r = check_lines(t, 1499, 300, F_LINK);
	CHECK_EXACT(r, 300 * COLS, "the newest lines at the links' cap");
	check_bounded(t->g, "links at the cap");
	t_free(t);
}

/* Six fresh colours per line, 25,000 lines (150,000 styles, the history alone holding ~60,500 live: more
 * than 7/8 of the ids): every line keeps its colours when written (checked as it lands on the screen's
 * last row). Before grid-evict.c, 9,241 of the 25,000 lines came out in the default style (the table full
 * of the history's styles, new pens waiting 133,000 misses). */
static void test_styles_steady(void)
{
	struct t_term *t = full_term();
	static char buf[4096];
	uint32_t v = 0;
	int lost = 0;
	for (int j = 0; j < 25000; j++) {
		size_t k = 0;
		for (int r = 0; r < 6; r++, v++) {
			k += (size_t)sprintf(buf + k, "\033[38;2;%u;%u;%um", v & 255, (v >> 8) & 255, (v >> 16) & 255);
			memset(buf + k, 'a', COLS / 6);
			k += COLS / 6;
		}
		k += (size_t)sprintf(buf + k, "\033[m\r\n");
		grid_feed(t->g, (const uint8_t *)buf, k);
		const struct grid_cell *c = grid_row(t->g, ROWS - 2);
		for (int r = 0; r < 6; r++)
			if (grid_style(t->g, c[r * (COLS / 6)].style)->fg != v_rgb(v - 6 + (uint32_t)r)) {
				lost++;
				break;
			}
	}
	CHECK(lost == 0, "%d of 25000 lines without their colours (styles %u, wait %u)", lost, t->g->st.count,
	      t->g->st.gc_wait);
	check_bounded(t->g, "steady colours");
	t_free(t);
}

/* The alternate screen over a full history holding live entries of every kind (150 lines: 31,800 styles and
 * clusters, 150 links): 200,000 fresh colours there keep theirs exactly (the collections mark both screens),
 * and back on the primary screen its recent lines are intact. */
static void test_alt_screen(void)
{
	struct t_term *t = full_term();
	const int f = F_FG | F_UL | F_LINK | F_CLUSTER;
	flood_lines(t, 0, 150, f);
	t_feed(t, "\033[?1049h");
	struct verdict r = flood_screen(t, 5000000, 200000, F_FG | F_UL);
	CHECK_EXACT(r, COLS * ROWS, "the alternate screen");
	t_feed(t, "\033[?1049l");
	r = check_lines(t, 149, 150, f);
	CHECK_EXACT(r, 150 * COLS, "the primary screen after the alternate one");
	check_bounded(t->g, "alternate screen");
	t_free(t);
}

/* A reflow of a full history whose recent lines hold styles, links and clusters (150 lines of 212 cells):
 * narrower (each line wraps in two) and back, the lines come back exactly. */
static void test_reflow(void)
{
	struct t_term *t = full_term();
	const int f = F_FG | F_UL | F_LINK | F_CLUSTER;
	flood_lines(t, 0, 150, f);
	CHECK(grid_resize(t->g, 150, ROWS) == 0, "resize to 150");
	CHECK(grid_resize(t->g, COLS, ROWS) == 0, "resize back");
	struct verdict r = check_lines(t, 149, 150, f);
	CHECK_EXACT(r, 150 * COLS, "after a reflow");
	CHECK(grid_scrollback_lines(t->g) <= SB, "history %zu", grid_scrollback_lines(t->g));
	check_bounded(t->g, "reflow");
	t_free(t);
}

/* A selection over a full history's recent lines of clusters (150 lines written, the first 82 of them
 * selected by line from the view scrolled back) gives their text exactly; one over the whole history and
 * screen (10,000 + 82 lines) gives every line. */
static void test_selection(void)
{
	struct t_term *t = full_term();
	flood_lines(t, 0, 150, F_FG | F_CLUSTER);
	/* line 0 is 150 lines up: scrollback line sb - 69, the top row with the view 69 lines back */
	CHECK(grid_view_scroll(t->g, 69) == 69, "view offset %d", grid_view_offset(t->g));
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	grid_select_extend(t->g, 0, ROWS - 1);
	size_t len = 0;
	char *text = grid_selection_text(t->g, &len);
	static char want[ROWS * (COLS * 6 + 1) + 1];
	size_t k = 0;
	for (uint32_t j = 0; j < ROWS; j++) {
		for (uint32_t x = 0; x < COLS; x++) {
			const uint32_t v = j * COLS + x;
			k += vt_utf8_encode(0x100 + v % 128, want + k);
			k += vt_utf8_encode(0x300 + (v / 128) % 112, want + k);
			k += vt_utf8_encode(0x300 + (v / (128 * 112)) % 112, want + k);
		}
		want[k++] = '\n';
	}
	want[k] = '\0';
	CHECK(text && (len == k || len == k - 1) && memcmp(text, want, len) == 0, "selection of %zu bytes, want %zu",
	      len, k);
	free(text);
	grid_select_clear(t->g);
	grid_view_scroll(t->g, SB);
	grid_select_start(t->g, 0, 0, GRID_SELECT_LINE);
	grid_view_scroll(t->g, -SB);
	grid_select_extend(t->g, COLS - 1, ROWS - 1);
	text = grid_selection_text(t->g, &len);
	size_t lines = 0;
	for (size_t i = 0; text && i < len; i++)
		lines += text[i] == '\n';
	CHECK(text && lines >= SB + ROWS - 2 && lines <= SB + ROWS, "whole selection: %zu bytes, %zu lines", len, lines);
	free(text);
	t_free(t);
}

/* The small bounded tables, flooded over a full history: the title stack keeps the newest 10 of 1,000 pushes
 * (in order), a title of TITLE_MAX bytes or more is ignored as in xterm (the title shown stays; a cut one
 * showed wrong text), and a link's URI of LINK_URI_MAX bytes is kept whole while one
 * byte more is not applied (its text stays). */
static void test_small_tables(void)
{
	struct t_term *t = full_term();
	for (int i = 0; i < 1000; i++)
		t_feedf(t, "\033]2;title %d\033\\\033[22t", i);
	bool order = true;
	for (int i = 999; i >= 990; i--) {
		char want[32];
		snprintf(want, sizeof(want), "title %d", i);
		t_feed(t, "\033]2;other\033\\\033[23t");
		order &= strcmp(grid_title(t->g), want) == 0;
	}
	t_feed(t, "\033]2;last\033\\\033[23t");
	CHECK(order && strcmp(grid_title(t->g), "last") == 0, "title stack: %s", grid_title(t->g));
	/* 1,022 ASCII bytes and two e with an acute accent (2 bytes each): past TITLE_MAX - 1 bytes */
	static char buf[8192];
	size_t k = (size_t)sprintf(buf, "\033]2;");
	memset(buf + k, 'a', TITLE_MAX - 2);
	k += TITLE_MAX - 2;
	k += (size_t)sprintf(buf + k, "\xc3\xa9\xc3\xa9\033\\");
	grid_feed(t->g, (const uint8_t *)buf, k);
	const char *title = grid_title(t->g);
	const size_t n = strlen(title);
	CHECK(strcmp(title, "last") == 0 && strcmp(t->title, "last") == 0, "long title: %zu bytes", n);
	for (int extra = 0; extra < 2; extra++) {
		k = (size_t)sprintf(buf, "\r\n\033]8;;http://");
		memset(buf + k, 'u', LINK_URI_MAX - 7 + (size_t)extra);
		k += LINK_URI_MAX - 7 + (size_t)extra;
		k += (size_t)sprintf(buf + k, "\033\\L\033]8;;\033\\");
		grid_feed(t->g, (const uint8_t *)buf, k);
		struct grid_cursor cur;
		grid_get_cursor(t->g, &cur);
		const struct grid_cell *c = &grid_row(t->g, cur.y)[0];
		const char *u = grid_link_uri(t->g, c->link);
		CHECK(c->cp == 'L' && (extra ? u == NULL : u && strlen(u) == LINK_URI_MAX), "URI of %u bytes: %zu",
		      LINK_URI_MAX + extra, u ? strlen(u) : 0);
	}
	t_free(t);
}

/* The lines on display while the view is scrolled back (a selection being dragged there keeps the view while
 * output arrives) are what the user is reading: when the tables are full and the oldest history lines give up
 * their entries (grid-evict.c), those keep theirs. They lost their colours, links and marks under the
 * user's eyes, though newer lines nobody looked at kept them. */
static void test_view_kept(void)
{
	const int f = F_FG | F_LINK | F_CLUSTER;
	struct t_term *t = full_term();
	flood_lines(t, 0, 200, f);
	struct verdict r = check_lines(t, 199, 200, f);
	CHECK_EXACT(r, 200 * COLS, "the flood below the caps");
	/* line 0 of the flood (200 lines back) on the top display row */
	const int view = 200 - (ROWS - 1);
	CHECK(grid_view_scroll(t->g, view) == view, "scrolled back %d", grid_view_offset(t->g));
	flood_lines(t, 200, 700, f);
	CHECK(grid_view_offset(t->g) == view + 500, "the view followed its lines: %d", grid_view_offset(t->g));
	r = (struct verdict){0};
	for (int y = 0; y < ROWS; y++) {
		const struct grid_cell *c = grid_row(t->g, y);
		for (int x = 0; x < COLS; x++)
			check_cell(t->g, &c[x], (uint32_t)y * COLS + (uint32_t)x, (uint32_t)y, f, &r);
	}
	CHECK_EXACT(r, COLS * ROWS, "the lines on display");
	grid_view_scroll(t->g, -SB);
	r = check_lines(t, 699, 150, f);
	CHECK_EXACT(r, 150 * COLS, "the newest lines");
	check_bounded(t->g, "view kept");
	t_free(t);
}

int main(void)
{
	test_screen_flood();
	test_wait_ends(F_FG, 320, "styles");
	test_wait_ends(F_FG | F_UL, 320, "ul styles");
	test_wait_ends(F_CLUSTER, 320, "clusters");
	test_wait_ends(F_LINK, 1100, "links");
	test_cap_all_live();
	test_view_kept();
	test_styles_steady();
	test_alt_screen();
	test_reflow();
	test_selection();
	test_small_tables();
	return t_done("grid-fullhist");
}
