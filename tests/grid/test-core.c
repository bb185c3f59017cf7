/* tests/grid/test-core.c: printing, autowrap, cursor motion, erase, scrolling and the scrollback.
 * Expected behaviour: xterm ctlseqs (invisible-island.net/xterm/ctlseqs/ctlseqs.html), VT510 manual
 * (vt100.net/docs/vt510-rm/), DEC STD 070 for deferred autowrap. The fast paths' agreement with the general ones
 * (SGR memo, colour forms, plain SGRs, csi_bytes) is in test-paths.c. */
#include <stdio.h>

#include "harness.h"

static void test_print_wrap(void)
{
	struct t_term *t = t_new(10, 4, 100);
	t_feed(t, "hello");
	CHECK_ROW(t, 0, "hello");
	CHECK_CURSOR(t, 5, 0);
	/* DEC STD 070: the 10th char leaves the cursor on the last column, wrap pending */
	t_feed(t, "\r0123456789");
	CHECK_CURSOR(t, 9, 0);
	CHECK(!grid_row_wrapped(t->g, 0), "no wrap yet");
	t_feed(t, "X");
	CHECK_ROW(t, 0, "0123456789");
	CHECK_ROW(t, 1, "X");
	CHECK(grid_row_wrapped(t->g, 0), "soft wrap flag");
	CHECK_CURSOR(t, 1, 1);
	/* a control between clears nothing but CR cancels the pending wrap */
	t_feed(t, "\r\n0123456789\rY");
	CHECK_ROW(t, 2, "Y123456789");
	CHECK(!grid_row_wrapped(t->g, 2), "CR cancels the pending wrap");
	/* DECAWM off: the last column is overwritten */
	t_feed(t, "\033[?7l\r\n0123456789abc");
	CHECK_ROW(t, 3, "012345678c");
	t_free(t);
}

/* xterm's dotext arms its wrap flag whenever a write reaches the right margin, DECAWM set or not, and the
 * next character decides (with DECAWM it wraps first); DECAWM itself leaves the flag alone. An application
 * that turns autowrap off to write the last column and on again gets its next character on the next row. */
static void test_decawm_toggle(void)
{
	struct t_term *t = t_new(10, 5, 0);
	t_feed(t, "\033[1;10H\033[?7lp\033[?7hq");
	CHECK_ROW(t, 0, "         p");
	CHECK_ROW(t, 1, "q");
	CHECK_CURSOR(t, 1, 1);
	/* a wrap pending when DECAWM is reset and set again */
	t_feed(t, "\033[3;10Hr\033[?7l\033[?7hs");
	CHECK_ROW(t, 2, "         r");
	CHECK_ROW(t, 3, "s");
	/* without DECAWM the armed flag only lets the next character overwrite the last column */
	t_feed(t, "\033[?7l\033[5;9Hxyz");
	CHECK_ROW(t, 4, "        xz");
	CHECK_CURSOR(t, 9, 4);
	t_free(t);
}

static void test_wide_and_combining(void)
{
	struct t_term *t = t_new(6, 3, 0);
	/* a wide character at the last column wraps (xterm) */
	t_feed(t, "abcde\xe4\xb8\xad");
	CHECK_ROW(t, 0, "abcde");
	CHECK_ROW(t, 1, "\xe4\xb8\xad");
	CHECK_CURSOR(t, 2, 1);
	const struct grid_cell *r = grid_row(t->g, 1);
	CHECK(r[0].width == 2 && r[1].width == 0, "wide cell halves %d %d", r[0].width, r[1].width);
	/* combining marks stay on their base */
	t_feed(t, "\r\ne\xcc\x81x");
	CHECK_ROW(t, 2, "e\xcc\x81x");
	CHECK_CURSOR(t, 2, 2);
	/* overwriting half of a wide char blanks the other half */
	t_feed(t, "\033[2;2Hz");
	CHECK_ROW(t, 1, " z");
	t_free(t);
}

static void test_cursor_moves(void)
{
	struct t_term *t = t_new(20, 10, 0);
	t_feed(t, "\033[5;7H");
	CHECK_CURSOR(t, 6, 4);
	t_feed(t, "\033[2A\033[3C");
	CHECK_CURSOR(t, 9, 2);
	t_feed(t, "\033[100B\033[100D");
	CHECK_CURSOR(t, 0, 9);
	t_feed(t, "\033[3;4f\033[2E");
	CHECK_CURSOR(t, 0, 4);
	t_feed(t, "\033[5G\033[2F");
	CHECK_CURSOR(t, 0, 2);
	t_feed(t, "\033[7d\033[9`");
	CHECK_CURSOR(t, 8, 6);
	t_feed(t, "\033[2a\033[e");
	CHECK_CURSOR(t, 10, 7);
	/* HT to default stops every 8 columns, CBT back, CHT forward */
	t_feed(t, "\r\t");
	CHECK_CURSOR(t, 8, 7);
	t_feed(t, "\033[2I");
	CHECK_CURSOR(t, 19, 7);
	t_feed(t, "\033[Z");
	CHECK_CURSOR(t, 16, 7);
	/* TBC 3 clears all stops: HT goes to the last column */
	t_feed(t, "\033[3g\r\t");
	CHECK_CURSOR(t, 19, 7);
	t_feed(t, "\r\033[5C\033H\r\t");
	CHECK_CURSOR(t, 5, 7);
	/* BS stops at column 0 */
	t_feed(t, "\r\b\b");
	CHECK_CURSOR(t, 0, 7);
	t_free(t);
}

static void test_erase(void)
{
	struct t_term *t = t_new(10, 4, 0);
	t_feed(t, "0123456789\r\nabcdefghij\r\nABCDEFGHIJ\r\nklmnopqrst");
	t_feed(t, "\033[2;5H\033[K");
	CHECK_ROW(t, 1, "abcd");
	t_feed(t, "\033[1;5H\033[1K");
	CHECK_ROW(t, 0, "     56789");
	t_feed(t, "\033[3;3H\033[2X");
	CHECK_ROW(t, 2, "AB  EFGHIJ");
	t_feed(t, "\033[3;3H\033[2P");
	CHECK_ROW(t, 2, "ABEFGHIJ");
	t_feed(t, "\033[3;1H\033[3@");
	CHECK_ROW(t, 2, "   ABEFGHI");
	t_feed(t, "\033[3;5H\033[J");
	CHECK_ROW(t, 2, "   A");
	CHECK_ROW(t, 3, "");
	CHECK_ROW(t, 0, "     56789");
	t_feed(t, "\033[1;7H\033[1J");
	CHECK_ROW(t, 0, "       789");
	t_feed(t, "\033[2J");
	CHECK_ROW(t, 0, "");
	t_free(t);
}

/* Erasing with a coloured background (xterm's BCE: erased cells take the pen's background) against a model
 * of the screen, over random EL/ED/ECH at random places: the straight fills of rows and runs of every length
 * (a width that is no multiple of 4 or 16 leaves tails). */
static void test_erase_bce(void)
{
	enum { W = 37, H = 7 };
	struct t_term *t = t_new(W, H, 0);
	uint32_t cp[H][W] = {{0}}, bg[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bg[y][x] = GRID_COLOR_DEFAULT;
	uint32_t r = 7;
	int bad = 0;
	for (int step = 0; step < 3000; step++) {
		r = r * 1103515245u + 12345u;
		int x = (int)(r >> 8) % W, y = (int)(r >> 20) % H, c = (int)(r >> 4) % 4, op = (int)(r >> 27) % 10;
		uint32_t col = c == 3 ? GRID_COLOR_DEFAULT : GRID_COLOR_PALETTE(c + 1);
		t_feedf(t, "\033[%d;%dH\033[%sm", y + 1, x + 1, c == 3 ? "49" : c == 0 ? "41" : c == 1 ? "42" : "43");
		int y0 = y, y1 = y, x0 = x, x1 = x; /* erased: [x0 of y0 .. x1 of y1], inclusive */
		switch (op) {
		case 0: t_feed(t, "\033[K"); x1 = W - 1; break;
		case 1: t_feed(t, "\033[1K"); x0 = 0; break;
		case 2: t_feed(t, "\033[2K"); x0 = 0, x1 = W - 1; break;
		case 3: t_feed(t, "\033[J"); x1 = W - 1, y1 = H - 1; break;
		case 4: t_feed(t, "\033[1J"); x0 = 0, y0 = 0; break;
		case 5:
			/* rarely: it erases everything */
			y0 = -1;
			if (step % 7 == 0) {
				t_feed(t, "\033[2J");
				x0 = 0, y0 = 0, x1 = W - 1, y1 = H - 1;
			}
			break;
		case 6: {
			int n = (int)(r % 40);
			t_feedf(t, "\033[%dX", n);
			x1 = x + (n ? n : 1) - 1;
			if (x1 > W - 1)
				x1 = W - 1;
			break;
		}
		default: {
			/* text in the pen's colours, up to the end of the row */
			int n = 1 + (int)(r % 20);
			if (n > W - x)
				n = W - x;
			for (int k = 0; k < n; k++) {
				t_feedf(t, "%c", 'a' + k);
				cp[y][x + k] = (uint32_t)('a' + k);
				bg[y][x + k] = col;
			}
			y0 = -1;
			break;
		}
		}
		for (int yy = y0; y0 >= 0 && yy <= y1; yy++)
			for (int xx = yy == y0 ? x0 : 0; xx <= (yy == y1 ? x1 : W - 1); xx++)
				cp[yy][xx] = 0, bg[yy][xx] = col;
		for (int yy = 0; yy < H; yy++) {
			const struct grid_cell *row = grid_row(t->g, yy);
			for (int xx = 0; xx < W; xx++) {
				const struct grid_cell *e = &row[xx];
				if (e->cp != cp[yy][xx] || grid_style(t->g, e->style)->bg != bg[yy][xx] || e->width != 1 ||
				    e->link || e->flags)
					bad++;
			}
		}
	}
	CHECK(bad == 0, "%d cells differ from the model", bad);
	t_free(t);
}

/* Line feeds at the bottom margin of regions of every placement (rows above and below, the region starting
 * at the top row or lower), against a model of the screen: lines of every length up to the width, each in
 * one of a few backgrounds (the new bottom row takes the pen's, xterm's BCE), far more scrolls than the ring
 * has slots. The widths take every way of blanking a recycled row (16 cells, 16 per step, 32-byte stores
 * from 48 cells on, the general fill). */
static void test_region_model(void)
{
	for (int wi = 0; wi < 3; wi++) {
		const int W = wi == 2 ? 100 : wi ? 40 : 12, H = 9;
		struct t_term *t = t_new(W, H, 25);
		uint32_t cp[9][100], bg[9][100];
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				cp[y][x] = 0, bg[y][x] = GRID_COLOR_DEFAULT;
		uint32_t r = 11;
		int bad = 0;
		for (int round = 0; round < 40; round++) {
			r = r * 1103515245u + 12345u;
			int top = (int)(r >> 8) % 4, bottom = H - 1 - (int)(r >> 12) % 4;
			t_feedf(t, "\033[%d;%dr\033[%d;1H", top + 1, bottom + 1, bottom + 1);
			for (int line = 0; line < 30; line++) {
				r = r * 1103515245u + 12345u;
				int c = (int)(r >> 4) % 4, n = (int)(r >> 16) % (W + 1);
				uint32_t col = c == 3 ? GRID_COLOR_DEFAULT : GRID_COLOR_PALETTE(c + 1);
				t_feedf(t, "\033[%sm\n\r", c == 3 ? "49" : c == 0 ? "41" : c == 1 ? "42" : "43");
				for (int y = top; y < bottom; y++)
					for (int x = 0; x < W; x++)
						cp[y][x] = cp[y + 1][x], bg[y][x] = bg[y + 1][x];
				for (int x = 0; x < W; x++)
					cp[bottom][x] = 0, bg[bottom][x] = col;
				/* the text stops short of the last column: no wrap pending */
				for (int x = 0; x < n && x < W - 1; x++) {
					t_feedf(t, "%c", 'A' + (line + x) % 26);
					cp[bottom][x] = (uint32_t)('A' + (line + x) % 26);
				}
				for (int y = 0; y < H; y++) {
					const struct grid_cell *row = grid_row(t->g, y);
					for (int x = 0; x < W; x++)
						if (row[x].cp != cp[y][x] || grid_style(t->g, row[x].style)->bg != bg[y][x] ||
						    row[x].width != 1 || row[x].link || row[x].flags)
							bad++;
				}
			}
		}
		CHECK(bad == 0, "width %d: %d cells differ from the model", W, bad);
		t_free(t);
	}
}

static void test_scroll_and_scrollback(void)
{
	struct t_term *t = t_new(5, 3, 4);
	for (int i = 0; i < 10; i++)
		t_feedf(t, "L%d\r\n", i);
	CHECK_ROW(t, 0, "L8");
	CHECK_ROW(t, 1, "L9");
	CHECK_ROW(t, 2, "");
	/* the scrollback is bounded by the configuration */
	CHECK(grid_scrollback_lines(t->g) == 4, "scrollback %zu", grid_scrollback_lines(t->g));
	int len;
	const struct grid_cell *c = grid_scrollback_row(t->g, 0, &len);
	CHECK(c && strcmp(t_cells_text(t->g, c, len), "L4") == 0, "oldest %s", c ? t_cells_text(t->g, c, len) : "");
	c = grid_scrollback_row(t->g, 3, &len);
	CHECK(c && strcmp(t_cells_text(t->g, c, len), "L7") == 0, "newest");
	/* viewport */
	CHECK(grid_view_scroll(t->g, 2) == 2, "view");
	CHECK_ROW(t, 0, "L6");
	CHECK(grid_view_scroll(t->g, 100) == 4, "view clamp");
	CHECK_ROW(t, 0, "L4");
	CHECK(grid_view_scroll(t->g, -100) == 0, "view bottom");
	/* ED 3 clears the scrollback only */
	t_feed(t, "\033[3J");
	CHECK(grid_scrollback_lines(t->g) == 0, "ED 3");
	CHECK_ROW(t, 0, "L8");
	/* ED 3 from the alternate screen erases the primary's history too, as xterm 379's (its saved lines are
	 * the normal screen's whichever is shown: `printf '\e[?1049h\e[3J\e[?1049l'` leaves none); here it did
	 * nothing. DECSED 3 (CSI ? 3 J) erases none, on either screen, as in xterm. */
	for (int i = 0; i < 6; i++)
		t_feedf(t, "M%d\r\n", i);
	CHECK(grid_scrollback_lines(t->g) == 4, "scrollback %zu", grid_scrollback_lines(t->g));
	t_feed(t, "\033[?1049h\033[?3J");
	CHECK(grid_scrollback_lines(t->g) == 4, "DECSED 3 on the alternate screen: %zu", grid_scrollback_lines(t->g));
	t_feed(t, "\033[3J\033[?1049l");
	CHECK(grid_scrollback_lines(t->g) == 0, "ED 3 on the alternate screen: %zu", grid_scrollback_lines(t->g));
	CHECK_ROW(t, 0, "M4");
	CHECK(grid_view_scroll(t->g, 3) == 0, "nothing to scroll back to");
	/* DL on the top row of the whole screen moves the lines below up and keeps no deleted line (an edit,
	 * not a scroll; docs/conformance.md: xterm 379 sometimes keeps them) */
	t_feed(t, "\033[2J\033[HD1\r\nD2\r\nD3\033[H\033[2M");
	CHECK(grid_scrollback_lines(t->g) == 0, "DL at the top put %zu lines in the scrollback",
	      grid_scrollback_lines(t->g));
	CHECK_ROW(t, 0, "D3");
	t_free(t);
}

/* Region scrolls step the ring where no scrollback sits after the screen (alternate screen, empty
 * scrollback): many more scrolls than the ring has slots keep the fixed rows, the region's order, and a
 * scrollback that fills later holds exactly the lines that left the top of the whole screen. */
static void test_region_ring(void)
{
	struct t_term *t = t_new(6, 8, 20);
	for (int alt = 0; alt < 2; alt++) {
		if (alt)
			t_feed(t, "\033[?1049h");
		t_feed(t, "\033[r\033[2J\033[HTOP\033[8;1HBOT\033[2;7r\033[7;1H");
		for (int i = 0; i < 75; i++)
			t_feedf(t, "\r\nR%d", i);
		CHECK_ROW(t, 0, "TOP");
		CHECK_ROW(t, 7, "BOT");
		for (int y = 1; y <= 6; y++) {
			char want[16];
			snprintf(want, sizeof(want), "R%d", 75 - 7 + y);
			CHECK_ROW(t, y, want);
		}
		CHECK(grid_scrollback_lines(t->g) == 0, "alt %d: region scroll kept out: %zu", alt,
		      grid_scrollback_lines(t->g));
		/* two rows above and one below, scrolled by 3 at once (SU) */
		t_feed(t, "\033[3;7r\033[3S");
		CHECK_ROW(t, 0, "TOP");
		CHECK_ROW(t, 1, "R69");
		CHECK_ROW(t, 2, "R73");
		CHECK_ROW(t, 3, "R74");
		CHECK_ROW(t, 4, "");
		CHECK_ROW(t, 6, "");
		CHECK_ROW(t, 7, "BOT");
	}
	/* back on the primary screen (its rows as left), then whole-screen scrolls fill the scrollback */
	t_feed(t, "\033[?1049l\033[r\033[8;1H");
	for (int i = 0; i < 10; i++)
		t_feedf(t, "\r\nS%d", i);
	CHECK(grid_scrollback_lines(t->g) == 10, "scrollback %zu", grid_scrollback_lines(t->g));
	const char *want[] = {"TOP", "R69", "R73", "R74", "", "", "", "BOT", "S0", "S1"};
	for (size_t i = 0; i < 10; i++) {
		int len;
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		const char *got = c ? t_cells_text(t->g, c, len) : "(null)";
		CHECK(strcmp(got, want[i]) == 0, "scrollback %zu: got \"%s\" want \"%s\"", i, got, want[i]);
	}
	CHECK_ROW(t, 7, "S9");
	t_free(t);
}

static void test_scroll_regions(void)
{
	struct t_term *t = t_new(5, 5, 10);
	t_feed(t, "A\r\nB\r\nC\r\nD\r\nE");
	/* DECSTBM 2..4, cursor homes; LF at the bottom margin scrolls the region only */
	t_feed(t, "\033[2;4r");
	CHECK_CURSOR(t, 0, 0);
	t_feed(t, "\033[4;1H\nX");
	CHECK_ROW(t, 0, "A");
	CHECK_ROW(t, 1, "C");
	CHECK_ROW(t, 2, "D");
	CHECK_ROW(t, 3, "X");
	CHECK_ROW(t, 4, "E");
	/* lines scrolled inside a region not starting at the top never reach the scrollback */
	CHECK(grid_scrollback_lines(t->g) == 0, "region scroll kept out of the scrollback");
	/* RI at the top margin scrolls down */
	t_feed(t, "\033[2;1H\033M");
	CHECK_ROW(t, 1, "");
	CHECK_ROW(t, 2, "C");
	CHECK_ROW(t, 3, "D");
	CHECK_ROW(t, 4, "E");
	/* SU / SD */
	t_feed(t, "\033[S");
	CHECK_ROW(t, 1, "C");
	CHECK_ROW(t, 3, "");
	t_feed(t, "\033[2T");
	CHECK_ROW(t, 1, "");
	CHECK_ROW(t, 3, "C");
	/* IL / DL inside the region */
	t_feed(t, "\033[r\033[2J\033[H1\r\n2\r\n3\r\n4\r\n5\033[2;4r\033[2;1H\033[L");
	CHECK_ROW(t, 1, "");
	CHECK_ROW(t, 2, "2");
	CHECK_ROW(t, 3, "3");
	CHECK_ROW(t, 4, "5");
	t_feed(t, "\033[M\033[M");
	CHECK_ROW(t, 1, "3");
	CHECK_ROW(t, 2, "");
	CHECK_ROW(t, 4, "5");
	/* a region starting at the top row feeds the scrollback (xterm) */
	t_feed(t, "\033[r\033[2J\033[H1\r\n2\r\n3\r\n4\r\n5\033[1;3r\033[3;1H\n");
	CHECK(grid_scrollback_lines(t->g) == 1, "top region feeds scrollback %zu", grid_scrollback_lines(t->g));
	CHECK_ROW(t, 0, "2");
	CHECK_ROW(t, 1, "3");
	CHECK_ROW(t, 2, "");
	CHECK_ROW(t, 3, "4");
	CHECK_ROW(t, 4, "5");
	t_free(t);
}

static void test_lr_margins(void)
{
	struct t_term *t = t_new(10, 3, 0);
	t_feed(t, "0123456789\r\nabcdefghij\r\nABCDEFGHIJ");
	/* DECLRMM + DECSLRM 3..6; printing wraps at the right margin back to the left margin */
	t_feed(t, "\033[?69h\033[3;6s\033[1;3HWXYZQ");
	CHECK_ROW(t, 0, "01WXYZ6789");
	CHECK_ROW(t, 1, "abQdefghij");
	/* scrolling up inside the margins moves only those columns */
	t_feed(t, "\033[3;3H\033[S");
	CHECK_ROW(t, 0, "01Qdef6789");
	CHECK_ROW(t, 2, "AB    GHIJ");
	t_feed(t, "\033[?69l");
	t_free(t);
}

static void test_rep(void)
{
	struct t_term *t = t_new(10, 3, 0);
	/* REP with nothing printed before is a no-op */
	t_feed(t, "\033[5b");
	CHECK_ROW(t, 0, "");
	CHECK_CURSOR(t, 0, 0);
	t_feed(t, "a\033[3b");
	CHECK_ROW(t, 0, "aaaa");
	/* a huge count is bounded: it fills and scrolls, the cursor ends where it would */
	t_feed(t, "\033[H\033[2J\033[3;1Hx\033[2147483647b");
	CHECK_ROW(t, 0, "xxxxxxxxxx");
	CHECK_ROW(t, 1, "xxxxxxxxxx");
	CHECK_ROW(t, 2, "xxxxxx"); /* 1 + 65535 (the parser clamp) = 65536 = 6 mod 10 */
	CHECK_CURSOR(t, 6, 2);
	t_free(t);
}

/* REP after a character with combining marks repeats the character, without the marks, as xterm does: the
 * marks are no graphic characters of their own (they were taken as the character to repeat, and a mark
 * repeated joins nothing: "é CSI 2 b" showed "é"). The last character of an emoji sequence is repeated. */
static void test_rep_after_marks(void)
{
	static const struct {
		const char *in, *row;
	} cases[] = {
	    {"e\xcc\x81\033[2b|", "e\xcc\x81" "ee|"},
	    {"xe\xcc\x81\xcc\x82\033[2b|", "xe\xcc\x81\xcc\x82" "ee|"},
	    {"\xe4\xb8\xad\xcc\x81\033[2b|", "\xe4\xb8\xad\xcc\x81\xe4\xb8\xad\xe4\xb8\xad|"},
	    {"\xd0\xb0\xd2\x83\033[b|", "\xd0\xb0\xd2\x83\xd0\xb0|"},
	    {"\xe2\x9d\xa4\xef\xb8\x8f\033[b|", "\xe2\x9d\xa4\xef\xb8\x8f\xe2\x9d\xa4|"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int split = 0; split < 2; split++) {
			struct t_term *t = t_new(12, 2, 0);
			/* split: the base in a feed of its own, the marks and REP in the next */
			const char *in = cases[i].in;
			size_t base = split ? strcspn(in, "\xcc\xd2\xef") : 0;
			if (base) {
				char head[16] = {0};
				memcpy(head, in, base < sizeof(head) - 1 ? base : sizeof(head) - 1);
				t_feed(t, head);
			}
			t_feed(t, in + base);
			CHECK(strcmp(t_row(t, 0), cases[i].row) == 0, "case %zu%s: row \"%s\", want \"%s\"", i,
			      split ? " (split)" : "", t_row(t, 0), cases[i].row);
			t_free(t);
		}
}

static void test_charsets(void)
{
	struct t_term *t = t_new(10, 2, 0);
	/* ESC ( 0: DEC special graphics; SO/SI switch G1 */
	t_feed(t, "\033(0qx\033(B q");
	CHECK_ROW(t, 0, "\xe2\x94\x80\xe2\x94\x82 q");
	t_feed(t, "\r\n\033)0a\016q\017q");
	CHECK_ROW(t, 1, "a\xe2\x94\x80q");
	/* UK: # is a pound sign; SS2 for one character from G2 */
	t_feed(t, "\033[H\033[2K\033(A#\033(B#\033*0\033Nqq");
	CHECK_ROW(t, 0, "\xc2\xa3#\xe2\x94\x80q");
	t_free(t);
}

/* ESC ( < (and ) * +): DEC Supplemental, the VT220's 94-character set of accented letters and signs, as
 * xterm 379 shows it: GL's 0x21..0x7e as Latin-1's 0xa1..0xfe, except OE, oe, Y and y with diaeresis and the
 * currency sign where DEC put them, and U+2E2E for the positions DEC left empty */
static void test_dec_supplemental(void)
{
	struct t_term *t = t_new(20, 2, 0);
	t_feed(t, "\033(<!#$(Wa}\033(B!");
	CHECK_ROW(t, 0, "\xc2\xa1\xc2\xa3\xe2\xb8\xae\xc2\xa4\xc5\x92\xc3\xa1\xc3\xbf!");
	t_feed(t, "\r\n\033)<a\016 ]^w~\017a");
	/* its space is NBSP, as Latin-1's (xterm 379) */
	CHECK_ROW(t, 1, "a\xc2\xa0\xc5\xb8\xe2\xb8\xae\xc5\x93\xe2\xb8\xae" "a");
	t_free(t);
}

/* Every change of GL, a charset, the single shift or insert mode, each followed by a run of text and by one
 * character: the text paths test one byte kept by those changes (grid.print_mapped), not the fields */
static void test_print_mode(void)
{
#define H "\xe2\x94\x80" /* U+2500, DEC graphics' q */
	struct t_term *t = t_new(10, 4, 0);
	/* LS2 (ESC n) then LS0 (SI) */
	t_feed(t, "\033*0\033nqq\033[5Gq\017qq\033[9Gq");
	CHECK_ROW(t, 0, H H "  " H "qq q");
	/* SS2 and SS3: one character each, then runs and single characters in GL again */
	t_feed(t, "\033[2;1H\033+0\033Nqq\033Oq\033[6Gqq\033[9Gq");
	CHECK_ROW(t, 1, H "q" H "  qq q");
	/* DECSC with G0 mapped, DECRC after G0 was reset */
	t_feed(t, "\033[3;1H\033(0\0337\033(Bq\033[3;8Hqq\0338qq\033[6Gq");
	CHECK_ROW(t, 2, H H "   " H " qq");
	/* insert mode on and off */
	t_feed(t, "\033(B\033[4;1Hxy\033[4;1H\033[4hab\033[3Gc\033[4l\033[1Gd\033[2Gef");
	CHECK_ROW(t, 3, "defxy");
	/* RIS with G0 mapped and insert mode on */
	t_feed(t, "\033(0\033[4h\033cqq\033[5Gq");
	CHECK_ROW(t, 0, "qq  q");
	t_free(t);
	/* DECRC without a save resets the charsets */
	t = t_new(10, 2, 0);
	t_feed(t, "\033(0\033[2;5H\0338qq\033[5Gq");
	CHECK_ROW(t, 0, "qq  q");
	t_free(t);
#undef H
}

static void test_save_restore(void)
{
	struct t_term *t = t_new(10, 5, 0);
	t_feed(t, "\033[3;4H\033[1m\0337\033[H\033[0mx\0338y");
	CHECK_CURSOR(t, 4, 2);
	const struct grid_cell *r = grid_row(t->g, 2);
	CHECK(grid_style(t->g, r[3].style)->attrs & GRID_ATTR_BOLD, "DECRC restores the pen");
	t_feed(t, "\033[5;5H\033[s\033[H\033[u");
	CHECK_CURSOR(t, 4, 4);
	/* origin mode: CUP relative to the region */
	t_feed(t, "\033[2;4r\033[?6h\033[1;1Hz");
	CHECK_ROW(t, 1, "z");
	t_feed(t, "\033[10;1H");
	CHECK_CURSOR(t, 0, 3);
	t_feed(t, "\033[?6l\033[r");
	/* DECALN */
	t_feed(t, "\033#8");
	CHECK_ROW(t, 4, "EEEEEEEEEE");
	CHECK_CURSOR(t, 0, 0);
	t_free(t);
}

/* DECALN leaves the pen's colours but not its other attributes (xterm: the character written after
 * ESC # 8 with a reverse, bold, underlined pen is plain, in the pen's colours); its E's are plain. The same
 * SGR again afterwards (from the parser's memo: seen before) sets them all again. */
static void test_decaln_pen(void)
{
	struct t_term *t = t_new(10, 3, 0);
	const char *sgr = "\033[1;3;4;7;9;31;44m";
	t_feedf(t, "%sa%s\033#8x\033[2;1H%sy", sgr, sgr, sgr);
	const struct grid_style *x = grid_style(t->g, grid_row(t->g, 0)[0].style);
	CHECK(x->attrs == 0 && x->underline == GRID_UNDERLINE_NONE, "after DECALN: attrs %#x underline %u", x->attrs,
	      x->underline);
	CHECK(x->fg == GRID_COLOR_PALETTE(1) && x->bg == GRID_COLOR_PALETTE(4), "after DECALN: fg %#x bg %#x", x->fg,
	      x->bg);
	CHECK(grid_row(t->g, 0)[1].style == 0, "the E's are plain");
	const struct grid_style *y = grid_style(t->g, grid_row(t->g, 1)[0].style);
	CHECK((y->attrs & (GRID_ATTR_BOLD | GRID_ATTR_REVERSE)) == (GRID_ATTR_BOLD | GRID_ATTR_REVERSE) &&
		      y->underline == GRID_UNDERLINE_SINGLE,
	      "the SGR again: attrs %#x underline %u", y->attrs, y->underline);
	t_free(t);
}

int main(void)
{
	test_print_wrap();
	test_decawm_toggle();
	test_wide_and_combining();
	test_cursor_moves();
	test_erase();
	test_erase_bce();
	test_scroll_and_scrollback();
	test_scroll_regions();
	test_region_ring();
	test_region_model();
	test_lr_margins();
	test_rep();
	test_rep_after_marks();
	test_charsets();
	test_dec_supplemental();
	test_print_mode();
	test_save_restore();
	test_decaln_pen();
	return t_done("grid-core");
}
