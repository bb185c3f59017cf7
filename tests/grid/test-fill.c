/* tests/grid/test-fill.c: grid__clear_cells (grid/grid-fill.c) stores exactly n blanks of the style, from any
 * cell on, and nothing before or after them: every length 0-300 (each path: the scalar cells, the SSE fills,
 * the AVX fills' 8-15, 16-31 and 32-and-more forms, whose last 8/16/32 cells are stored again over the ones
 * before, and on CPUs with AVX-512 the aligned 64-byte fill with its masked first and last blocks), at offsets
 * 0-15 (12 bytes a cell: the run's start at each of the 16 words of a 64-byte line, every phase of the
 * AVX-512 fill), default blanks and other styles (0xffff too: the style's bits broadcast into the vectors
 * must not spill into the cp or width words). Then ELs through the terminal: in colour at every width, and of
 * every form from every column of a row of wide characters (the halves an erase cuts off), and the style of the
 * half a write, an erase or ICH/DCH leaves alone (the erase style). */
#include "harness.h"

#include "grid/grid-internal.h"

enum { MAXN = 300, GUARD = 40 };

static struct grid_cell buf[GUARD + 16 + MAXN + GUARD];

static const struct grid_cell junk = {.cp = 0x41424344u, .style = 0x5a5a, .link = 0x3c3c, .width = 7, .flags = 0x99};

static bool cell_is(const struct grid_cell *c, const struct grid_cell *want)
{
	return c->cp == want->cp && c->style == want->style && c->link == want->link && c->width == want->width &&
	       c->flags == want->flags;
}

static void test_lengths(uint16_t style)
{
	const struct grid_cell blank = {.cp = 0, .style = style, .link = 0, .width = 1, .flags = 0};
	for (int off = 0; off < 16; off++) {
		for (int n = 0; n <= MAXN; n++) {
			const int n_all = (int)(sizeof(buf) / sizeof(buf[0]));
			for (int i = 0; i < n_all; i++)
				buf[i] = junk;
			grid__clear_cells(&buf[GUARD + off], n, style);
			int bad = -1;
			for (int i = 0; i < n_all && bad < 0; i++) {
				const bool in = i >= GUARD + off && i < GUARD + off + n;
				if (!cell_is(&buf[i], in ? &blank : &junk))
					bad = i;
			}
			CHECK(bad < 0, "style %u offset %d n %d: cell %d (run %d..%d)", style, off, n, bad, GUARD + off,
			      GUARD + off + n);
		}
	}
}

/* an EL in a colour through the terminal: cells [cx, cols) of any width take the erase's style (the fills of
 * csi's coloured ELs), the cells before keep their text */
static void test_el_widths(void)
{
	for (int cols = 8; cols <= 80; cols += 3) {
		for (int cx = 0; cx < cols; cx += 5) {
			struct t_term *t = t_new(cols, 3, 0);
			char s[64];
			t_feed(t, "\033[1;1H");
			for (int i = 0; i < cols; i++)
				t_feed(t, "x");
			snprintf(s, sizeof(s), "\033[1;%dH\033[41m\033[K\033[0m", cx + 1);
			t_feed(t, s);
			const struct grid_cell *row = grid_row(t->g, 0);
			int bad = -1;
			for (int x = 0; x < cols && bad < 0; x++) {
				const bool erased = x >= cx;
				const struct grid_style *st = grid_style(t->g, row[x].style);
				if (erased ? row[x].cp != 0 || row[x].width != 1 || st->bg != GRID_COLOR_PALETTE(1) : row[x].cp != 'x')
					bad = x;
			}
			CHECK(bad < 0, "cols %d cx %d: cell %d", cols, cx, bad);
			t_free(t);
		}
	}
}

/* EL 0, 1 and 2 from every column of a row of wide characters (grid__fix_wide_edges): a character the erase
 * cuts in half loses its other half (a blank), the others stay whole; at the row's edges nothing is cut */
static void test_el_wide_edges(void)
{
	enum { C = 11 };
	for (int mode = 0; mode < 3; mode++) {
		for (int cx = 0; cx < C; cx++) {
			struct t_term *t = t_new(C, 2, 0);
			char s[64];
			t_feed(t, "\033[1;1H\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xadz");
			snprintf(s, sizeof(s), "\033[1;%dH\033[41m\033[%dK\033[0m", cx + 1, mode);
			t_feed(t, s);
			const int x0 = mode == 0 ? cx : 0, x1 = mode == 1 ? cx + 1 : C;
			const struct grid_cell *row = grid_row(t->g, 0);
			int bad = -1;
			for (int x = 0; x < C && bad < 0; x++) {
				const bool erased = x >= x0 && x < x1;
				const int pair = x & ~1; /* the wide character over cells pair, pair + 1 (z at 10) */
				const bool cut = x < 10 && !erased && ((pair >= x0 && pair < x1) || (pair + 1 >= x0 && pair + 1 < x1));
				bool ok;
				if (erased || cut)
					ok = row[x].cp == 0 && row[x].width == 1;
				else if (x == 10)
					ok = row[x].cp == 'z' && row[x].width == 1;
				else
					ok = x == pair ? row[x].cp == 0x4e2d && row[x].width == 2 : row[x].width == 0;
				if (!ok)
					bad = x;
			}
			CHECK(bad < 0, "EL %d at column %d: cell %d (%#x width %u)", mode, cx, bad, bad >= 0 ? row[bad].cp : 0,
			      bad >= 0 ? row[bad].width : 0);
			t_free(t);
		}
	}
}

/* The half of a wide character that a write, an erase or ICH/DCH leaves alone is a blank in the erase style
 * (the pen's background, nothing else), as in xterm: not a blank in the character's own reverse video. Every
 * blank left on the row must be so. */
static void test_orphan_style(void)
{
	static const char *const ops[] = {"x", "\033[X", "\033[K", "\033[1K", "\033[@", "\033[P", "\033[2P"};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (int col = 2; col <= 4; col++) {
			struct t_term *t = t_new(12, 2, 0);
			/* 中文字 in reverse red and a row full of text after it (DCH brings in no blank but its own),
			 * then a pen of bold, underline and a green background */
			t_feedf(t, "\033[7;31m\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97zzzzzz\033[0;1;4;42m\033[1;%dH%s",
				col, ops[i]);
			const struct grid_cell *row = grid_row(t->g, 0);
			for (int x = 0; x < 12; x++) {
				if (row[x].cp != 0 || row[x].width != 1) /* (a right half has cp 0 too) */
					continue;
				const struct grid_style *st = grid_style(t->g, row[x].style);
				CHECK(st->attrs == 0 && st->underline == GRID_UNDERLINE_NONE && st->fg == GRID_COLOR_DEFAULT &&
					      st->bg == GRID_COLOR_PALETTE(2),
				      "%s at column %d: blank %d attrs %#x underline %u fg %#x bg %#x", ops[i] + (ops[i][0] == 27),
				      col, x, st->attrs, st->underline, st->fg, st->bg);
			}
			t_free(t);
		}
	}
}

int main(void)
{
	test_orphan_style();
	test_el_wide_edges();
	test_lengths(0);
	test_lengths(1);
	test_lengths(0x1234);
	test_lengths(0xffff);
	test_el_widths();
	return t_done("grid-fill");
}
