/* tests/grid/test-style-holders.c: a collection of styles (grid__collect: mark, sweep, index rebuild,
 * eviction) frees only ids nothing holds. Every holder filled with styles of its own: the primary screen,
 * its history, the alternate screen (hidden and shown), deferred erased rows (LINE_STALE), erased cells'
 * background, the saved cursor's pen (DECSC), the pen and the memoized SGRs; then fresh colours written
 * over one scratch cell until several collections have run and reused the freed ids. A live id freed and
 * reused shows as a cell whose style changed. */
#include <stdint.h>

#include "harness.h"
#include "grid/grid-internal.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	return t_rnd(&rng, n);
}

struct look {
	uint32_t cp, fg, bg, ul;
	uint16_t attrs;
	uint8_t underline;
};

/* (fields compared, not bytes: the padding is not set) */
static bool same(const struct look *a, const struct look *b)
{
	return a->cp == b->cp && a->fg == b->fg && a->bg == b->bg && a->ul == b->ul && a->attrs == b->attrs &&
	       a->underline == b->underline;
}

struct snap {
	struct look *c;
	size_t n, cap;
};

static void put(struct snap *s, const struct grid *g, const struct grid_cell *c)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->c = realloc(s->c, s->cap * sizeof(*s->c));
	}
	const struct grid_style *st = grid_style(g, c->style);
	s->c[s->n++] = (struct look){c->cp, st->fg, st->bg, st->ul_color, st->attrs, st->underline};
}

/* The looks of every cell held: the history, the screen shown (but its scratch cell), the other screen */
static void snapshot(struct t_term *tt, struct snap *s)
{
	struct grid *g = tt->g;
	s->n = 0;
	for (size_t i = 0; i < grid_scrollback_lines(g); i++) {
		int len;
		const struct grid_cell *r = grid_scrollback_row(g, i, &len);
		for (int x = 0; x < len; x++)
			put(s, g, &r[x]);
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int y = 0; y < grid_rows(g); y++) {
			const struct grid_cell *r = grid_row(g, y);
			for (int x = pass == 0 && y == 0; x < grid_cols(g); x++)
				put(s, g, &r[x]);
		}
		t_feed(tt, pass == 0 ? "\033[?47h" : "\033[?47l"); /* the alternate screen (not cleared) */
	}
}

/* Fresh colours printed at the scratch cell (1,1) of the primary screen (the cursor moved: not DECSC's) */
static void flood(struct t_term *tt, int n, uint32_t salt)
{
	for (int i = 0; i < n; i++)
		t_feedf(tt, "\033[1;1H\033[38;2;%u;%u;%um\033[48;2;%u;%u;%umx", salt & 255, (unsigned)i & 255,
			((unsigned)i >> 8) & 255, (unsigned)i & 255, salt >> 8 & 255, 7u);
}

static void colours(struct t_term *tt, int n)
{
	for (int i = 0; i < n; i++)
		t_feedf(tt, "\033[38;2;%u;%u;%u;48;5;%u;%s%c", rnd(256), rnd(256), rnd(256), rnd(256),
			rnd(2) ? "4:3m" : "1m", 'a' + (int)rnd(26));
}

/* a and b the same but for history cells given up by eviction (grid-evict.c: the default style) */
static void compare(struct t_term *tt, const struct snap *pa, const struct snap *pb, const char *what)
{
	struct grid *g = tt->g;
	const struct snap a = *pa, b = *pb;
	const int cols = grid_cols(g), rows = grid_rows(g);
	const size_t sb = grid_scrollback_lines(g);
	/* (a history line given up by eviction, grid-evict.c, has the default style: counted apart) */
	size_t diff = 0, first = 0, evicted = 0, hist = 0;
	for (size_t i = 0; i < grid_scrollback_lines(g); i++) {
		int len;
		grid_scrollback_row(g, i, &len);
		hist += (size_t)len;
	}
	for (size_t i = 0; i < a.n && i < b.n; i++) {
		if (same(&a.c[i], &b.c[i]))
			continue;
		if (i < hist && b.c[i].cp == a.c[i].cp && !b.c[i].fg && !b.c[i].bg && !b.c[i].ul && !b.c[i].attrs &&
		    !b.c[i].underline)
			evicted++;
		else if (!diff++)
			first = i;
	}
	CHECK(a.n == b.n && diff == 0,
	      "%s %dx%d sb %zu: %zu of %zu cells (%zu) changed (%zu evicted), the first %zu (fg %08x -> %08x)", what, cols,
	      rows, sb, diff, a.n, b.n, evicted, first, diff ? a.c[first].fg : 0, diff ? b.c[first].fg : 0);
	if (evicted)
		printf("%s %dx%d sb %zu: %zu history cells given up\n", what, cols, rows, sb, evicted);
}

static void test_holders(int cols, int rows, size_t sb, uint32_t seed)
{
	rng ^= seed * 0x9e3779b97f4a7c15ull;
	struct t_term *tt = t_new(cols, rows, sb);
	struct grid *g = tt->g;
	/* history and a screen of colours */
	for (int y = 0; y < rows * 3; y++) {
		colours(tt, cols / 2 + (int)rnd((uint32_t)cols / 2));
		t_feed(tt, "\033[m\r\n");
	}
	/* erased rows in a background of their own (deferred), an erase style still cached */
	t_feedf(tt, "\033[%dH\033[48;2;1;2;3m\033[J\033[%dH", rows - 2, rows - 4);
	colours(tt, cols / 3);
	t_feed(tt, "\033[48;2;9;8;7m\033[K");
	/* the saved cursor's pen: a colour no cell has */
	t_feed(tt, "\033[0;38;2;201;202;203;48;2;204;205;206;3m\0337\033[m");
	/* the alternate screen, kept through 47 (not cleared), hidden again */
	t_feed(tt, "\033[?47h\033[H");
	for (int y = 0; y < rows - 1; y++) {
		colours(tt, cols - 1);
		t_feed(tt, "\r\n");
	}
	t_feed(tt, "\033[?47l");
	/* the pen: a memoized SGR's pen, printed once */
	t_feed(tt, "\033[38;2;77;66;55mP\033[m");
	struct snap a = {0}, b = {0};
	snapshot(tt, &a);
	const uint32_t epoch = g->st.epoch;
	flood(tt, 70000, seed);
	CHECK(g->st.epoch - epoch >= 2, "%dx%d: only %u collections", cols, rows, g->st.epoch - epoch);
	snapshot(tt, &b);
	compare(tt, &a, &b, "colours");
	/* the saved pen, and the memoized SGR again */
	t_feed(tt, "\0338Q\033[38;2;77;66;55mR");
	grid_feed(g, (const uint8_t *)"", 0);
	struct grid_cursor cur;
	grid_get_cursor(g, &cur);
	const struct grid_cell *r = grid_row(g, cur.y);
	const struct grid_style *q = grid_style(g, r[cur.x - 2].style), *p = grid_style(g, r[cur.x - 1].style);
	CHECK(r[cur.x - 2].cp == 'Q' && q->fg == GRID_COLOR_RGB(201, 202, 203) && q->bg == GRID_COLOR_RGB(204, 205, 206) &&
		      q->attrs == GRID_ATTR_ITALIC,
	      "%dx%d: DECRC's pen fg %08x bg %08x attrs %x", cols, rows, q->fg, q->bg, q->attrs);
	CHECK(r[cur.x - 1].cp == 'R' && p->fg == GRID_COLOR_RGB(77, 66, 55) && p->bg == GRID_COLOR_RGB(204, 205, 206) &&
		      p->attrs == GRID_ATTR_ITALIC,
	      "%dx%d: the memoized SGR's pen fg %08x bg %08x", cols, rows, p->fg, p->bg);
	/* reflowed to another width, then fresh clusters (base and two marks) in fresh colours at the scratch
	 * cell: collections from the cluster table's side too (grid__cluster_intern) */
	t_feed(tt, "\033[m");
	CHECK(grid_resize(g, cols + 7, rows - 3) == 0, "resize");
	snapshot(tt, &a);
	const uint32_t epoch2 = g->st.epoch;
	for (int i = 0; i < 20000; i++) {
		const unsigned m1 = 0x300 + (unsigned)i % 112, m2 = 0x300 + (unsigned)i / 112 % 112;
		t_feedf(tt, "\033[1;1H\033[38;2;%u;%u;9mx%c%c%c%c", (unsigned)i & 255, (unsigned)i >> 8 & 255,
			0xc0 | m1 >> 6, 0x80 | (m1 & 63), 0xc0 | m2 >> 6, 0x80 | (m2 & 63));
	}
	CHECK(g->st.epoch - epoch2 >= 1, "%dx%d: only %u collections", cols, rows, g->st.epoch - epoch2);
	snapshot(tt, &b);
	compare(tt, &a, &b, "clusters");
	free(a.c);
	free(b.c);
	t_free(tt);
}

int main(void)
{
	test_holders(80, 24, 1000, 1);
	test_holders(212, 82, 10000, 2);
	test_holders(37, 13, 0, 3);
	test_holders(250, 100, 3000, 4);
	return t_done("grid-style-holders");
}
