/* tests/grid/test-history-wide.c: the scrollback's 4-byte form of lines that are not ASCII (LINE_WIDE,
 * grid/grid-history.c's pack_wide, read through grid__line_cell). Random lines of wide characters, combining
 * marks (clusters held in the cell and in the table), emoji sequences, in one style, a style per cell (ids
 * up to past 0x8000), with links or selected cells (which must stay whole), of every length: each line's
 * cells are taken from the screen just before it scrolls out and must read back the same (grid_scrollback_row,
 * grid_row while scrolled back), also after a collection of the tables (the clusters of packed lines stay
 * live) and after reflows, against a grid that held the same output on its screen (no scrollback). */
#include <stdint.h>

#include "harness.h"
#include "grid/grid-internal.h"

#define COLS 40
#define ROWS 4
#define SB 2400
#define MAXCP 8

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	return t_rnd(&rng, n);
}

/* a cell as it was on the screen: its fields, its code points, its style's values */
struct snap {
	struct grid_cell c[COLS];
	uint32_t cps[COLS][MAXCP];
	uint8_t ncp[COLS];
	struct grid_style st[COLS];
	bool selected, linked, wide; /* what the line held (wide: text other than ASCII) */
};
static struct snap snaps[SB];
static int nsnaps;

/* everything fed, for the reference grid */
static char stream[4 << 20];
static size_t stream_n;

static void feed(struct t_term *t, const char *s)
{
	size_t n = strlen(s);
	if (stream_n + n <= sizeof(stream)) {
		memcpy(stream + stream_n, s, n);
		stream_n += n;
	}
	t_feed(t, s);
}

static void put_utf8(char *b, size_t *n, uint32_t cp)
{
	if (cp < 0x80) {
		b[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		b[(*n)++] = (char)(0xc0 | cp >> 6);
		b[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		b[(*n)++] = (char)(0xe0 | cp >> 12);
		b[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		b[(*n)++] = (char)(0xf0 | cp >> 18);
		b[(*n)++] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

enum mode { M_PLAIN, M_LINE_STYLE, M_CELL_STYLES, M_TRUECOLOR, M_LINK, M_SELECT, M_NMODES };

/* A random line of up to COLS columns (mark: a second set of combining marks, for new clusters). */
static void make_line(char *b, size_t *n, enum mode m, int tc, int mark)
{
	int cols = m == M_TRUECOLOR ? COLS : (int)rnd(COLS + 1), col = 0;
	if (m == M_LINE_STYLE)
		*n += (size_t)sprintf(b + *n, "\033[%dm", 31 + (int)rnd(7));
	if (m == M_LINK)
		*n += (size_t)sprintf(b + *n, "\033]8;;http://example.com/%d\033\\", (int)rnd(5));
	while (col < cols) {
		if (m == M_CELL_STYLES && rnd(3) == 0)
			*n += (size_t)sprintf(b + *n, "\033[%d;%dm", 30 + (int)rnd(8), 40 + (int)rnd(9));
		if (m == M_TRUECOLOR)
			*n += (size_t)sprintf(b + *n, "\033[38;2;%d;%d;%dm", tc >> 16 & 255, tc >> 8 & 255, tc & 255), tc++;
		const uint32_t k = rnd(9);
		const bool two = k == 2 || k == 6;
		if (two && col + 2 > cols) {
			put_utf8(b, n, 'x');
			col++;
			continue;
		}
		switch (k) {
		case 0: put_utf8(b, n, 'a' + rnd(26)); break;
		case 1: put_utf8(b, n, 0x3b1 + rnd(25)); break;                      /* Greek */
		case 2: put_utf8(b, n, 0x4e00 + rnd(2000)); break;                   /* CJK, width 2 */
		case 3: /* ASCII and a mark: held in the cell */
			put_utf8(b, n, 'a' + rnd(26));
			put_utf8(b, n, 0x300 + rnd(0x70));
			break;
		case 4: /* ASCII and two marks: held in the cell */
			put_utf8(b, n, 'a' + rnd(26));
			put_utf8(b, n, 0x300 + rnd(0x70));
			put_utf8(b, n, 0x300 + rnd(0x70));
			break;
		case 5: /* Cyrillic and a mark: the cluster table */
			put_utf8(b, n, 0x430 + rnd(32));
			put_utf8(b, n, (uint32_t)(mark ? 0x1dc0 + rnd(0x30) : 0x300 + rnd(0x70)));
			break;
		case 6: /* an emoji sequence, width 2 */
			put_utf8(b, n, 0x1f468 + rnd(2));
			put_utf8(b, n, 0x200d);
			put_utf8(b, n, 0x1f4bb + rnd(3));
			break;
		default: put_utf8(b, n, 0x430 + rnd(32)); break; /* Cyrillic */
		}
		col += two ? 2 : 1;
	}
	if (m == M_LINK)
		*n += (size_t)sprintf(b + *n, "\033]8;;\033\\");
	*n += (size_t)sprintf(b + *n, "\033[m");
}

static void take(struct snap *s, const struct grid *g, const struct grid_cell *c)
{
	bool wide = false;
	for (int x = 0; x < COLS; x++) {
		s->c[x] = c[x];
		s->ncp[x] = (uint8_t)grid_cell_codepoints(g, &c[x], s->cps[x], MAXCP);
		s->st[x] = *grid_style(g, c[x].style);
		wide |= c[x].cp >= 0x80;
	}
	s->wide = wide;
}

/* Whether cells c[0, len) (blanks after them) read what s held (marks: compare the selection's too). */
static int same(const struct grid *g, const struct snap *s, const struct grid_cell *c, int len, bool marks, int *at)
{
	for (int x = 0; x < COLS; x++) {
		static const struct grid_cell blank = {.cp = 0, .style = 0, .link = 0, .width = 1, .flags = 0};
		const struct grid_cell a = s->c[x], b = x < len ? c[x] : blank;
		if (x >= len) {
			/* the reader trims trailing cells of code point 0 in style 0 (whatever their width or link) */
			if (a.cp || a.style) {
				*at = x;
				return 0;
			}
			continue;
		}
		uint32_t cps[MAXCP];
		const size_t k = grid_cell_codepoints(g, &b, cps, MAXCP);
		const uint8_t fm = marks ? 0xff : (uint8_t)~GRID_CELL_SELECTED;
		if (a.cp != b.cp || a.style != b.style || a.link != b.link || a.width != b.width ||
		    (a.flags & fm) != (b.flags & fm) || k != s->ncp[x] || memcmp(cps, s->cps[x], k * 4) ||
		    !t_same_style_values(&s->st[x], grid_style(g, b.style))) {
			*at = x;
			if (getenv("T_DEBUG"))
				fprintf(stderr, "cell %d: want cp %x style %u link %u width %u flags %u, got %x %u %u %u %u\n", x,
					a.cp, a.style, a.link, a.width, a.flags, b.cp, b.style, b.link, b.width, b.flags);
			return 0;
		}
	}
	return 1;
}

/* Scrollback line i's storage (0 = oldest). */
static const struct line *stored(const struct grid *g, size_t i)
{
	const struct screen *s = &g->primary;
	return s->ring[(s->top + s->cap - s->sb_n + i) % s->cap];
}

/* Whether the stored line l holds exactly s's cells (grid__line_cell, every field; the selection's marks aside,
 * which packed lines leave to the reader), default blanks past its cells. */
static int stored_same(const struct line *l, const struct snap *s, int *at)
{
	for (int x = 0; x < COLS; x++) {
		const struct grid_cell a = s->c[x];
		const struct grid_cell b = x < l->ncells ? grid__line_cell(l, x)
							 : (struct grid_cell){.cp = 0, .style = 0, .link = 0, .width = 1};
		if (a.cp != b.cp || a.style != b.style || a.link != b.link || a.width != b.width ||
		    ((a.flags ^ b.flags) & ~GRID_CELL_SELECTED)) {
			*at = x;
			return 0;
		}
	}
	return 1;
}

static int n_wide, n_wide_styled, n_high;

/* Feeds lines in random modes (truecolor: that many lines of fresh colours first), taking row 0 before
 * each scroll. */
static void fill(struct t_term *t, int lines, int truecolor, int mark)
{
	static char b[8192];
	static int tc = 0x010000;
	for (int i = 0; i < lines && nsnaps < SB; i++) {
		static enum mode modes[ROWS]; /* of the last ROWS lines fed: row 0 is the one fed ROWS - 1 before */
		static int fed;
		enum mode m = i < truecolor ? M_TRUECOLOR : (enum mode)rnd(M_NMODES);
		if (m == M_TRUECOLOR && i >= truecolor)
			m = M_PLAIN;
		modes[fed++ % ROWS] = m;
		const enum mode m0 = modes[fed % ROWS];
		size_t n = 0;
		make_line(b, &n, m, tc, mark);
		if (m == M_TRUECOLOR)
			tc += COLS;
		b[n] = '\0';
		feed(t, b);
		struct grid_cursor cur;
		grid_get_cursor(t->g, &cur);
		if (cur.y == ROWS - 1) {
			if (m0 == M_SELECT) {
				grid_select_start(t->g, (int)rnd(COLS), 0, GRID_SELECT_CELL);
				grid_select_extend(t->g, COLS - 1, 0);
			}
			struct snap *s = &snaps[nsnaps];
			take(s, t->g, grid_row(t->g, 0));
			s->selected = m0 == M_SELECT;
			s->linked = m0 == M_LINK;
			feed(t, "\r\n");
			int len, at = -1;
			const struct grid_cell *c = grid_scrollback_row(t->g, (size_t)nsnaps, &len);
			CHECK(c && same(t->g, s, c, len, true, &at), "line %d (mode %d) at once: cell %d", nsnaps, m0, at);
			const struct line *l = stored(t->g, (size_t)nsnaps);
			CHECK(stored_same(l, s, &at), "line %d (mode %d) stored: cell %d", nsnaps, m0, at);
			/* the 4-byte form for lines of other text but those with links or marks */
			if (s->wide && !s->selected && !s->linked && l->ncells >= 16)
				CHECK(l->flags & LINE_WIDE, "line %d (mode %d, %d cells) not packed", nsnaps, m0, l->ncells);
			if (s->selected || s->linked)
				CHECK(!(l->flags & LINE_WIDE) || !s->wide || len == 0, "line %d (mode %d) packed", nsnaps, m0);
			n_wide += (l->flags & LINE_WIDE) != 0;
			n_wide_styled += (l->flags & (LINE_WIDE | LINE_STYLED)) == (LINE_WIDE | LINE_STYLED);
			for (int x = 0; x < len; x++)
				if (l->flags & LINE_WIDE && c[x].style >= 0x8000) {
					n_high++;
					break;
				}
			nsnaps++;
			grid_select_clear(t->g);
		} else {
			feed(t, "\r\n");
		}
	}
}

static void check_all(struct t_term *t, const char *when)
{
	int bad = 0;
	for (int i = 0; i < nsnaps; i++) {
		int len, at = -1;
		const struct grid_cell *c = grid_scrollback_row(t->g, (size_t)i, &len);
		if (!c || !same(t->g, &snaps[i], c, len, false, &at) || !stored_same(stored(t->g, (size_t)i), &snaps[i], &at)) {
			if (bad++ < 5)
				CHECK(0, "%s: line %d differs at cell %d", when, i, at);
		}
	}
	CHECK(bad == 0, "%s: %d lines differ", when, bad);
	/* the view shows them too: the oldest ROWS lines scrolled back */
	grid_view_scroll(t->g, nsnaps);
	for (int y = 0; y < ROWS && y < nsnaps; y++) {
		int at = -1;
		CHECK(same(t->g, &snaps[y], grid_row(t->g, y), COLS, false, &at), "%s: view row %d cell %d", when, y, at);
	}
	grid_view_scroll(t->g, -nsnaps);
}

/* Row d above the cursor of t's screen, counting into the scrollback (NULL past the oldest). */
static const struct grid_cell *row_above(struct t_term *t, int d, int *len)
{
	struct grid_cursor cur;
	grid_get_cursor(t->g, &cur);
	*len = grid_cols(t->g);
	if (d <= cur.y)
		return grid_row(t->g, cur.y - d);
	size_t sb = grid_scrollback_lines(t->g), k = (size_t)(d - cur.y);
	return k > sb ? NULL : grid_scrollback_row(t->g, sb - k, len);
}

/* After a resize of both: t's rows (scrollback included) against ref's (all on its screen), from the cursor up. */
static void check_reflow(struct t_term *t, struct t_term *ref, int cols)
{
	CHECK(grid_resize(t->g, cols, ROWS) == 0 && grid_resize(ref->g, cols, grid_rows(ref->g)) == 0, "resize %d", cols);
	/* up to a few rows short of the oldest either holds (where the one cut a logical line, the other may not) */
	struct grid_cursor ca_, cb_;
	grid_get_cursor(t->g, &ca_);
	grid_get_cursor(ref->g, &cb_);
	const size_t avail_t = grid_scrollback_lines(t->g) + (size_t)ca_.y + 1,
		     avail_ref = grid_scrollback_lines(ref->g) + (size_t)cb_.y + 1;
	const int rows = (int)(avail_t < avail_ref ? avail_t : avail_ref) - 4;
	int d = 0, bad = 0;
	for (; d < rows; d++) {
		int la, lb;
		const struct grid_cell *a = row_above(t, d, &la);
		if (!a)
			break;
		static struct grid_cell ca[GRID_MAX_DIM];
		memcpy(ca, a, (size_t)la * sizeof(*a));
		const struct grid_cell *b = row_above(ref, d, &lb);
		if (!b)
			break;
		for (int x = 0; x < cols; x++) {
			static const struct grid_cell blank = {.cp = 0, .style = 0, .link = 0, .width = 1, .flags = 0};
			const struct grid_cell *p = x < la ? &ca[x] : &blank, *q = x < lb ? &b[x] : &blank;
			/* (cells a reader trimmed as blanks: their width is not known) */
			const bool trimmed = x >= la || x >= lb;
			if (!t_same_cp(t->g, p, ref->g, q) || (!trimmed && p->width != q->width) ||
			    !t_same_style(t->g, p, ref->g, q)) {
				if (bad++ < 5) {
					CHECK(0, "reflow to %d: row %d above the cursor, cell %d", cols, d, x);
					if (getenv("T_DEBUG"))
						fprintf(stderr, "  %x/%u/%u vs %x/%u/%u (%s)\n", p->cp, p->width, p->style, q->cp,
							q->width, q->style, t_same_cp(t->g, p, ref->g, q) ? "same cp" : "cp differs");
				}
				break;
			}
		}
	}
	CHECK(bad == 0 && d > 500, "reflow to %d: %d rows compared, %d differ", cols, d, bad);
}

/* The packer (AVX2) on random cells, against the rule: what it returns and, when the cells fit, each word
 * (cp | width << 24, for cells [0, n)). */
static void test_packers(void)
{
	static struct grid_cell c[300];
	static uint32_t out[320] __attribute__((aligned(32)));
	int tried = 0, fits = 0;
	for (int round = 0; round < 20000; round++) {
		const int n = 4 + (int)rnd(200), avail = n + (int)rnd(12);
		const uint16_t st = rnd(3) ? 0 : (uint16_t)(1 + rnd(0xfffe));
		const uint32_t odd = rnd(4); /* 0: one cell that does not fit (somewhere), 1: styles vary */
		for (int x = 0; x < avail; x++) {
			const uint32_t k = rnd(5);
			c[x] = (struct grid_cell){.cp = k == 0 ? rnd(0x80) : k == 1 ? rnd(0x110000) : k == 2 ? GRID_CP_CLUSTER | rnd(CLUSTER_MAX)
						  : k == 3 ? GRID_CP_CLUSTER | CLUSTER_DIRECT | rnd(2 * CLUSTER_DIRECT_PAIR) : 0,
						  .style = st, .width = (uint8_t)rnd(3)};
			/* (so may the padding: 2 bytes after flags) */
			((uint8_t *)&c[x])[10] = (uint8_t)rnd(256);
			((uint8_t *)&c[x])[11] = (uint8_t)rnd(256);
			/* (the cells past n may hold anything) */
			if (x >= n)
				memset(&c[x], (int)rnd(256), sizeof(c[x]));
		}
		if (odd == 0) {
			struct grid_cell *e = &c[rnd((uint32_t)n)];
			switch (rnd(5)) {
			case 0: e->link = (uint16_t)(1 + rnd(1000)); break;
			case 1: e->flags = GRID_CELL_SELECTED; break;
			case 2: e->width = (uint8_t)(4 + rnd(250)); break;
			case 3: e->cp |= 1u << (24 + rnd(2)); break;
			default: e->style ^= (uint16_t)(1 + rnd(0xffff)); break; /* styles vary only */
			}
		} else if (odd == 1) {
			c[rnd((uint32_t)n)].style = (uint16_t)rnd(0x10000);
		}
		uint32_t bad = 0, sdiff = 0;
		for (int x = 0; x < n; x++) {
			bad |= (c[x].cp & LINE_WIDE_WMASK) | c[x].link | c[x].flags | (c[x].width & ~3u);
			sdiff |= c[x].style ^ c[0].style;
		}
		const int want = bad ? GRID_PACK_MISFIT : sdiff ? GRID_PACK_STYLES : GRID_PACK_FITS;
		const int got = grid__hist_pack_wide(c, n, avail, out);
		tried++;
		CHECK(got == want, "n %d: %d, want %d", n, got, want);
		if (got != GRID_PACK_MISFIT) {
			fits++;
			for (int x = 0; x < n; x++)
				if (out[x] != (c[x].cp | (uint32_t)c[x].width << LINE_WIDE_SHIFT)) {
					CHECK(0, "n %d: word %d %08x, cell %08x width %u", n, x, out[x], c[x].cp, c[x].width);
					break;
				}
		}
	}
	CHECK(fits > 1000, "%d tried, %d fit", tried, fits);
}

int main(void)
{
	/* the form is used on CPUs with AVX-512 only (grid-hist-pack.c); tested wherever the packer runs */
	if (grid__hist_wide_cpu() < 1) {
		fprintf(stderr, "grid-history-wide: no AVX2, skipped\n");
		return 77;
	}
	grid__hist_wide = 2;
	test_packers();
	struct t_term *t = t_new(COLS, ROWS, SB);
	/* fresh colours first: the styles of the later lines pass 0x8000 */
	fill(t, 1200, 1150, 0);
	fill(t, 500, 0, 0);
	CHECK(n_wide > 500 && n_wide_styled > 300 && n_high > 20, "coverage: %d wide lines, %d with styles, %d past 0x8000",
	      n_wide, n_wide_styled, n_high);
	check_all(t, "filled");
	/* a collection: the clusters (and styles) of the packed lines stay live; new clusters then take the ids
	 * of those it freed */
	grid__collect(t->g);
	fill(t, 400, 0, 1);
	check_all(t, "after a collection");

	/* reflow: against a grid that held the same output on its screen */
	struct t_term *ref = t_new(COLS, SB + 100, 0);
	grid_feed(ref->g, (const uint8_t *)stream, stream_n);
	check_reflow(t, ref, COLS);
	check_reflow(t, ref, 29);
	check_reflow(t, ref, 57);
	t_free(ref);
	t_free(t);
	return t_done("grid-history-wide");
}
