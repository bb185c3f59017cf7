/* tests/grid/test-sgr.c: the SGR paths that act on a sequence's bytes (grid-sgr-bytes.c) against the
 * parser's general path. Each stream is fed once whole (the parser hands SGRs to grid's csi_bytes) and once a
 * byte at a time (the parser's table machine and the parsed form, grid-sgr.c), and the screens must agree
 * cell by cell: code points and every field of the styles. SGR semantics: xterm ctlseqs ("CSI Pm m") and
 * ITU T.416 for the colon forms. */
#include <stddef.h>
#include <stdio.h>

#include "decline.h"
#include "grid/grid-internal.h"
#include "grid/grid-sgr.h"
#include "harness.h"
#include "vt/vt.h"

#define COLS 40
#define ROWS 6

static int diff_screens(struct t_term *a, struct t_term *b)
{
	int bad = 0;
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	bad += ca.x != cb.x || ca.y != cb.y;
	for (int y = 0; y < ROWS; y++) {
		const struct grid_cell *p = grid_row(a->g, y), *q = grid_row(b->g, y);
		for (int x = 0; x < COLS; x++) {
			const struct grid_style *s = grid_style(a->g, p[x].style), *t = grid_style(b->g, q[x].style);
			if (p[x].cp != q[x].cp || s->fg != t->fg || s->bg != t->bg || s->ul_color != t->ul_color ||
			    s->attrs != t->attrs || s->underline != t->underline)
				bad++;
		}
	}
	return bad;
}

/* buf[0..n) whole to a, a byte at a time to b; 40 blanks and CR after it, so that every sequence in it has
 * the 32 readable bytes the bulk path wants */
static void feed_both(struct t_term *a, struct t_term *b, const char *s)
{
	char buf[700];
	int n = snprintf(buf, sizeof(buf), "%s%s", s, "                                        \r");
	grid_feed(a->g, (const uint8_t *)buf, (size_t)n);
	for (int i = 0; i < n; i++)
		grid_feed(b->g, (const uint8_t *)buf + i, 1);
}

/* Fresh colours and fresh long plain SGRs until grid's bulk path decodes both without its tables
 * (grid.sgr_color_misses, grid.sgr_long_misses). */
static void prime(struct t_term *t, uint32_t seed)
{
	for (int i = 0; i < 200; i++) {
		seed = seed * 1103515245u + 12345u;
		t_feedf(t, "\033[38;2;%u;%u;%umx\033[1;3;4;38;5;%u;48;2;%u;%u;%umy%40s\r", seed >> 24, seed >> 16 & 255,
			seed >> 8 & 255, seed >> 20 & 255, seed >> 12 & 255, seed & 255, seed >> 4 & 255, "");
	}
}

/* Two fresh terminals for a differential check (a fed one way, b the other), both primed with seed unless
 * it is 0 (the pen cache and the tables then hold what a busy screen left there). */
static void pair_new(struct t_term **a, struct t_term **b, uint32_t seed)
{
	*a = t_new(COLS, ROWS, 0);
	*b = t_new(COLS, ROWS, 0);
	/* b's SGRs parsed the general way (tests/grid/decline.h says why) */
	vt_parser_set_csi_bytes((*b)->g->parser, 'm', t_csi_declined);
	if (seed) {
		prime(*a, seed);
		prime(*b, seed);
	}
}

/* SGRs of at most two bytes before 'm' take sgr_tiny (a code from the table, no lookup): every such
 * parameter string over digits, separators, a private marker, an intermediate and a control, after a pen
 * with colours and attributes set (and an erase in its background), with and without the tables bypassed,
 * then a cell after it and an erase (in the background colour the SGR may have set; the padding after it
 * goes to the last row). */
static void test_tiny(void)
{
	static const char alpha[] = "0123456789;:?< \x08";
	const int na = (int)sizeof(alpha) - 1;
	int bad = 0;
	for (int mode = 0; mode < 2; mode++) {
		struct t_term *a, *b;
		pair_new(&a, &b, mode ? 1 : 0);
		if (mode)
			CHECK(a->g->sgr_color_misses >= 64 && a->g->sgr_long_misses >= 64, "tables not bypassed: %u %u",
			      a->g->sgr_color_misses, a->g->sgr_long_misses);
		for (int k = -1; k < na * (na + 1); k++) {
			char p[3] = {0};
			if (k >= 0 && k < na) {
				p[0] = alpha[k];
			} else if (k >= na) {
				p[0] = alpha[k / na - 1];
				p[1] = alpha[k % na];
			}
			char s[160];
			snprintf(s, sizeof(s),
				 "\033[H\033[0;1;3;7;21;53;38;5;%d;48;2;1;2;3;58;5;9m\033[K\033[%smx\033[K\033[%sm"
				 "\xe2\x96\x80\033[%smyz\033[K\033[%d;1H",
				 k & 255, p, p, p, ROWS);
			feed_both(a, b, s);
			bad += diff_screens(a, b);
		}
		t_free(a);
		t_free(b);
	}
	CHECK(bad == 0, "%d cells differ after short SGRs", bad);
}

/* Plain SGRs of 16 to 31 bytes, with the long table bypassed (sgr_long_direct, one in 16 sampled through
 * the table) and not: codes that do nothing, colours with out-of-range values (256, 99999), missing
 * components at the end, empty parameters, more than 16 parameters, 4- and 5-digit numbers. */
static void test_long_plain(void)
{
	static const char *const pool[] = {"1", "3", "4", "22", "0", "", "38;5;7", "48;5;256", "38;2;1;2;3",
					   "48;2;255;0;99999", "58;5;1", "38;2;9", "48;5", "39", "49", "107", "128",
					   "9999", "00001", "24", "10", "38;7;1", "97", "59", "53;55"};
	const unsigned np = sizeof(pool) / sizeof(pool[0]);
	int bad = 0, tried = 0;
	for (int mode = 0; mode < 2; mode++) {
		struct t_term *a, *b;
		pair_new(&a, &b, mode ? 2u : 0);
		uint32_t r = 3;
		for (int k = 0; k < 6000; k++) {
			char x[160];
			size_t len = 0;
			r = r * 1103515245u + 12345u;
			unsigned n = 2 + (r >> 16) % 12;
			for (unsigned i = 0; i < n && len < 100; i++) {
				r = r * 1103515245u + 12345u;
				len += (size_t)snprintf(x + len, sizeof(x) - len, "%s%s", i ? ";" : "", pool[(r >> 12) % np]);
			}
			if (len < 16 || len > 31)
				continue;
			tried++;
			char s[600];
			/* fresh, then (tables in use) again: found in the table */
			/* then an erase in the background colour, and the padding on the last row */
			if (mode)
				snprintf(s, sizeof(s), "\033[H\033[0;38;5;1;4m\033[K\033[%smA\033[K\033[%d;1H", x, ROWS);
			else
				snprintf(s, sizeof(s), "\033[H\033[0;38;5;1;4m\033[%smA\033[0m\033[%smB\033[%smC\033[K\033[%d;1H",
					 x, x, x, ROWS);
			feed_both(a, b, s);
			bad += diff_screens(a, b);
		}
		if (mode)
			CHECK(a->g->sgr_long_misses >= 64, "long table not bypassed: %u", a->g->sgr_long_misses);
		t_free(a);
		t_free(b);
	}
	CHECK(tried > 1000, "only %d long SGRs tried", tried);
	CHECK(bad == 0, "%d cells differ after long plain SGRs", bad);
}

/* Entries of the byte tables that set one colour alone (colour forms and plain SGRs such as "31;32" or
 * "48;5;1;49") and the rest (with attributes, both colours, the underline colour) are applied as masks of
 * the pen's two words (sgr_change), which must keep what each leaves alone. A colour-per-cell stream of
 * few colours (found in the tables) mixed with them, whole and split at every byte. */
/* csi's "1;3;4;38;5;n;48;2;r;g;b" (grid-sgr-long.c's csi_combo reads it by its shape) and near misses of
 * it, once the long SGRs bypass their table: hostile numbers (empty, leading zeros, above 255, 4 to 16
 * digits), parts changed (a colon, another kind, a code above 127, a field more or less, a trailing ';'),
 * after pens that the codes 1, 3, 4 and the colours partly overwrite */
static void test_long_combo(void)
{
	static const char *const num[] = {"", "0", "7", "99", "255", "256", "0255", "00001", "001", "9999",
					  "65535", "1234567890123456", "000", "1000"};
	static const char *const head[] = {"1;3;4;38;5;", "1;3;4;38;5;", "1;3;4;38;5;", "1;3;4;38:5;",
					   "1;3;4;38;2;", "1;3;4;38;6;", "1;3;4;48;5;", "1;3;4;38;5:"};
	static const char *const mid[] = {";48;2;", ";48;2;", ";48;2;", ";48;5;", ";38;2;", ";48;3;", ";48:2;",
					  ";200;", ";4;2;", ";48;2;;"};
	static const char *const tail[] = {"", "", "", "", ";", ";1", ";128", ":1", ";;"};
	static const char *const pre[] = {"0;38;5;1;4", "0;2;21;48;2;1;2;3", "0;22;23;24;58;5;9", "7;9;4:3",
					  "0"};
	const unsigned nn = sizeof(num) / sizeof(num[0]);
	int bad = 0, tried = 0, shaped = 0;
	struct t_term *a, *b;
	pair_new(&a, &b, 5u);
	uint32_t r = 11;
	for (int k = 0; k < 20000; k++) {
		char x[200];
		unsigned v[8];
		for (unsigned i = 0; i < 8; i++) {
			r = r * 1103515245u + 12345u;
			v[i] = (r >> 12) % 64;
		}
		/* mostly the exact shape with small numbers, so that the bypass stays on */
		const bool exact = v[5] < 48;
		const char *h = exact ? head[0] : head[v[5] % 8], *m = exact ? mid[0] : mid[v[6] % 10],
			   *tl = exact ? tail[0] : tail[v[7] % 9];
		const char *n0 = num[v[0] % nn], *n1 = num[v[1] % nn], *n2 = num[v[2] % nn], *n3 = num[v[3] % nn];
		char small[4][8];
		if (v[4] < 40) {
			snprintf(small[0], 8, "%u", (r >> 3) & 255);
			snprintf(small[1], 8, "%u", (r >> 11) & 255);
			snprintf(small[2], 8, "%u", (r >> 19) & 255);
			snprintf(small[3], 8, "%u", (r >> 24) & 255);
			n0 = small[0], n1 = small[1], n2 = small[2], n3 = small[3];
		}
		int len = snprintf(x, sizeof(x), "%s%s%s%s;%s;%s%s", h, n0, m, n1, n2, n3, tl);
		if (len < 17 || len > 31)
			continue;
		tried++;
		shaped += exact;
		char s[600];
		snprintf(s, sizeof(s), "[H[%sm[K[%smA[K[%d;1H", pre[v[4] % 5], x, ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	CHECK(a->g->sgr_long_misses >= 64, "long table not bypassed: %u", a->g->sgr_long_misses);
	t_free(a);
	t_free(b);
	CHECK(tried > 5000 && shaped > 3000, "only %d long SGRs tried, %d of the shape", tried, shaped);
	CHECK(bad == 0, "%d cells differ after csi's long SGRs and near misses", bad);
}

static void test_one_color(void)
{
	static const char *const sgr[] = {"48;2;7;7;7", "38;2;223;87;7", "48;5;200", "38:5:1", "31;32",
					  "48;5;1;49", "38;2;1;2;3;39", "1;31", "0;48;5;3", "58;5;4", "31;42",
					  "38:2::1:2:3", "4;38;5;9", "48;5;300",
					  /* fresh colours: the tables bypassed, one in 16 entered (sgr_color_sampled) */
					  "38;2;%u;%u;%u", "48:2:%u:%u:%u", "48:2::%u:%u:%u", "38;2;%u;%u;%u"};
	const unsigned ns = sizeof(sgr) / sizeof(sgr[0]);
	struct t_term *a = t_new(COLS, ROWS, 0), *b = t_new(COLS, ROWS, 0);
	uint32_t r = 9;
	int bad = 0;
	for (int k = 0; k < 3000; k++) {
		char s[400] = "\033[H";
		size_t len = 3;
		for (int j = 0; j < 6; j++) {
			r = r * 1103515245u + 12345u;
			/* a blank, a half block, or an erase to the end of the line (in the background colour) */
			const char *cell = (r >> 8) & 1 ? " " : (r >> 9) & 1 ? "\xe2\x96\x80" : "\033[K";
			char one[40];
			snprintf(one, sizeof(one), sgr[(r >> 12) % ns], r >> 24, r >> 16 & 255, (r >> 10) % 300);
			len += (size_t)snprintf(s + len, sizeof(s) - len, "\033[%sm%s", one, cell);
		}
		/* the padding after it goes to the last row, so that erased cells stay */
		len += (size_t)snprintf(s + len, sizeof(s) - len, "\033[%d;1H", ROWS);
		if (k % 64 == 0) {
			/* the same stream split in two at every byte, against the byte-at-a-time grid */
			struct t_term *c = t_new(COLS, ROWS, 0), *d = t_new(COLS, ROWS, 0);
			for (size_t cut = 1; cut < len; cut++) {
				char buf[512];
				int n = snprintf(buf, sizeof(buf), "%s%40s\r", s, "");
				grid_feed(c->g, (const uint8_t *)buf, cut);
				grid_feed(c->g, (const uint8_t *)buf + cut, (size_t)n - cut);
				for (int i = 0; i < n; i++)
					grid_feed(d->g, (const uint8_t *)buf + i, 1);
				bad += diff_screens(c, d);
			}
			t_free(c);
			t_free(d);
		}
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	CHECK(bad == 0, "%d cells differ after one-colour SGRs", bad);
	t_free(a);
	t_free(b);
}

/* An SGR at the very end of what is fed (fewer than 32 bytes after it: the parser's own path, with the
 * tables bypassed) and the rest arriving later, against the same SGR with room after it (the bulk path):
 * the same first cell. */
static void test_at_end(void)
{
	static const char *const sgr[] = {"1;3;4;38;5;7;48;2;1;2;3", "38;2;1;2;3", "22", "", "48:2::9:8:7", "31;32"};
	int bad = 0;
	for (unsigned i = 0; i < sizeof(sgr) / sizeof(sgr[0]); i++) {
		struct t_term *a, *b;
		pair_new(&a, &b, 4);
		t_feedf(a, "\033[H\033[%sm", sgr[i]);
		t_feed(a, "x");
		t_feedf(b, "\033[H\033[%smx%40s", sgr[i], "");
		const struct grid_style *s = grid_style(a->g, grid_row(a->g, 0)[0].style);
		const struct grid_style *t = grid_style(b->g, grid_row(b->g, 0)[0].style);
		bad += grid_row(a->g, 0)[0].cp != 'x' || grid_row(b->g, 0)[0].cp != 'x' || s->fg != t->fg ||
		       s->bg != t->bg || s->attrs != t->attrs || s->underline != t->underline;
		t_free(a);
		t_free(b);
	}
	CHECK(bad == 0, "%d SGRs at the end of the input differ", bad);
}

/* The colour forms' decode from the bytes (38;2;r;g;b, 38:2:r:g:b, 38:2:Pi:r:g:b, 38;5;n, 38:5:n, 48 alike)
 * and its near misses: 0 to 5 numbers (Pi among them) of 0 to 5 digits (255, 256, 999, 0255, 00255), the
 * other separator or a stray byte inside, tails of 14 to 17 bytes around the decode's one vector; with the
 * tables in use and bypassed (each decoded straight away), then a cell, a half block and an erase in the
 * background colour. */
static void test_color_tails(void)
{
	static const char *const nums[] = {"", "0", "7", "42", "255", "256", "999", "0255", "1000", "09", "100",
					   "00001", "00255"};
	static const char stray[] = "?<! \x08;:";
	const unsigned nn = sizeof(nums) / sizeof(nums[0]);
	int bad = 0;
	for (int mode = 0; mode < 2; mode++) {
		struct t_term *a, *b;
		pair_new(&a, &b, mode ? 5u : 0);
		uint32_t r = 17;
		for (int k = 0; k < 12000; k++) {
			r = r * 1103515245u + 12345u;
			const char sep = (r >> 8) & 1 ? ':' : ';', other = sep == ':' ? ';' : ':';
			const char kind = (r >> 9) & 7 ? ((r >> 12) & 1 ? '2' : '5') : '3';
			char x[80];
			int len = snprintf(x, sizeof(x), "%c8%c%c", (r >> 10) & 1 ? '3' : '4', sep, kind);
			/* the palette's one number, or three (four: Pi first), sometimes one more or less */
			unsigned fields = kind == '5' ? 1 : 3 + ((r >> 13) & 1);
			if (((r >> 14) & 7) == 0)
				fields = (fields + (r >> 17) % 3 + 4) % 6;
			for (unsigned f = 0; f < fields; f++) {
				r = r * 1103515245u + 12345u;
				const char c = ((r >> 4) & 31) == 0 ? other : sep;
				len += snprintf(x + len, sizeof(x) - (size_t)len, "%c%s", c, nums[(r >> 8) % nn]);
				if (((r >> 20) & 63) == 0)
					x[len++] = stray[(r >> 26) % (sizeof(stray) - 1)];
				x[len] = 0;
			}
			/* bypassed: kept so, though the few colours here come back and would end it */
			if (mode)
				a->g->sgr_color_misses = 1u << 20;
			char s[300];
			snprintf(s, sizeof(s), "\033[H\033[0;95;104m\033[%smA\033[%sm\xe2\x96\x80\033[K\033[%d;1H", x, x,
				 ROWS);
			feed_both(a, b, s);
			bad += diff_screens(a, b);
		}
		if (mode)
			CHECK(a->g->sgr_color_misses >= 64, "colour tables not bypassed: %u", a->g->sgr_color_misses);
		t_free(a);
		t_free(b);
	}
	CHECK(bad == 0, "%d cells differ after colour forms and their near misses", bad);
}

/* Once bypassed, one fresh colour SGR in 256 (fed with 40 bytes after it: the parser's bulk path) and one
 * fresh long plain SGR in 256 still go through the tables (a new entry each: grid.sgr_bytes_ids), the rest are
 * decoded straight away: a sampled one costs a lookup and an entry in cold tables, several times the decode.
 * Colours that come back end the bypass: each one found divides the count by 16, so that it falls below 64
 * (one found at 256 would leave 64 after a quarter, still bypassing: doom_fire's palette then stayed on the
 * decode, +32 % instructions). */
static void test_sampling(void)
{
	struct t_term *t = t_new(COLS, ROWS, 0);
	prime(t, 7);
	uint32_t seed = 99, ids = t->g->sgr_bytes_ids;
	for (int i = 0; i < 6400; i++) {
		seed = seed * 1103515245u + 12345u;
		t_feedf(t, "\033[48;2;%u;%u;%umx%40s\r", seed >> 24, seed >> 16 & 255, seed >> 8 & 255, "");
	}
	const uint32_t colours = t->g->sgr_bytes_ids - ids;
	ids = t->g->sgr_bytes_ids;
	for (int i = 0; i < 6400; i++) {
		seed = seed * 1103515245u + 12345u;
		t_feedf(t, "\033[1;3;4;38;5;%u;48;2;%u;%u;%umy%40s\r", seed >> 24, seed >> 16 & 255, seed >> 8 & 255,
			seed & 255, "");
	}
	const uint32_t longs = t->g->sgr_bytes_ids - ids;
	CHECK(colours >= 20 && colours <= 30 && longs >= 20 && longs <= 30,
	      "entries for 6400 fresh colours %u, long SGRs %u (one in 256: 25)", colours, longs);
	/* four colours over and over (a palette animation): the tables come back */
	for (int i = 0; i < 2000; i++)
		t_feedf(t, "\033[38;5;%dmx%40s\r", 196 + (i & 3), "");
	CHECK(t->g->sgr_color_misses < 64, "colours back: %u misses", t->g->sgr_color_misses);
	/* and four long SGRs, the colour tables kept bypassed (with them in use, long SGRs are looked up) */
	t->g->sgr_color_misses = 1u << 20;
	for (int i = 0; i < 2000; i++)
		t_feedf(t, "\033[1;3;4;38;5;%d;48;2;1;2;3my%40s\r", 196 + (i & 3), "");
	CHECK(t->g->sgr_long_misses < 64, "long SGRs back: %u misses", t->g->sgr_long_misses);
	t_free(t);
}

/* "4:0".."4:5" (underline styles; csi's "N:N" SGRs) from their bytes: the first one a new entry of grid.sgr_bytes,
 * the same again found there (no new entry), the pen's style what the parsed form gives; "4:6" and up are
 * the parser's (the parsed form ignores them). Each fed with 40 bytes after it (the parser's bulk path). */
static void test_underline_styles(void)
{
	struct t_term *t = t_new(COLS, ROWS, 0);
	for (unsigned u = 0; u <= 7; u++) {
		const uint32_t ids = t->g->sgr_bytes_ids;
		t_feedf(t, "\033[4:%umx%40s\r", u, "");
		const uint32_t first = t->g->sgr_bytes_ids - ids;
		t_feedf(t, "\033[4:%umy%40s\r", u, "");
		const uint32_t again = t->g->sgr_bytes_ids - ids;
		const unsigned want = u <= GRID_UNDERLINE_DASHED ? u : GRID_UNDERLINE_DASHED;
		CHECK(first == (u <= GRID_UNDERLINE_DASHED) && again == first && t->g->pen.underline == want,
		      "4:%u: %u new entries, %u after a second one, underline %u (want %u)", u, first, again,
		      t->g->pen.underline, want);
	}
	t_free(t);
}

/* grid.sgr_long's guess of the next SGR (the one found after the last one, last time): a cycle of long SGRs
 * learnt, then twins of them that differ only in their last bytes (the key's last word) where the guess
 * names the learnt one, the cycle backwards, and twins and originals mixed, whole and a byte at a time. */
static void test_long_guess(void)
{
	int bad = 0;
	for (int mode = 0; mode < 2; mode++) {
		struct t_term *a, *b;
		pair_new(&a, &b, 0);
		for (int round = 0; round < 12; round++) {
			char s[600];
			size_t len = (size_t)snprintf(s, sizeof(s), "\033[H");
			for (int i = 0; i < 8; i++) {
				/* rounds 0-3 learn the cycle; then twins (";23" for ";21") at every other cell or all,
				 * and the order backwards */
				const int k = round >= 8 ? 7 - i : i;
				const bool twin = round >= 4 && (round & 1 ? 1 : (i & 1) == mode);
				len += (size_t)snprintf(s + len, sizeof(s) - len, "\033[38;5;1%02d;48;5;2%02d;1;3;4;%sm%c", k,
							k, twin ? "23" : "21", 'a' + k);
			}
			snprintf(s + len, sizeof(s) - len, "\033[0m\033[K\033[%d;1H", ROWS);
			feed_both(a, b, s);
			bad += diff_screens(a, b);
		}
		t_free(a);
		t_free(b);
	}
	CHECK(bad == 0, "%d cells differ after long SGRs in a learnt order", bad);
}

/* The direct colours' three numbers (rgb_at: r's and g's digits in one 64-bit word) in the colour forms
 * and inside long SGRs (sgr_long_direct), every other one with the tables bypassed: numbers of 0 to 4 digits
 * around 255/256 (a number's high byte, each half's top bits), leading zeros, the Pi form; then the palette
 * form's tail (pal_tail's digit test on a word) with every byte value at each of its three places. */
static void test_rgb_pal_fields(void)
{
	static const char *const nums[] = {"", "0", "9", "10", "99", "100", "255", "256", "511", "999",
					   "0255", "0256", "1000", "9999"};
	const unsigned nn = sizeof(nums) / sizeof(nums[0]);
	struct t_term *a, *b;
	pair_new(&a, &b, 6);
	int bad = 0;
	uint32_t r = 23;
	char x[120], s[300];
	for (int k = 0; k < 16000; k++) {
		r = r * 1103515245u + 12345u;
		const char *n0 = nums[(r >> 8) % nn], *n1 = nums[(r >> 12) % nn], *n2 = nums[(r >> 16) % nn];
		const char fb = (r >> 24) & 1 ? '3' : '4';
		if ((r >> 20 & 3) == 0)
			snprintf(x, sizeof(x), "%c8;2;%s;%s;%s", fb, n0, n1, n2);
		else if ((r >> 20 & 3) == 1)
			snprintf(x, sizeof(x), "%c8:2:%s:%s:%s:%s", fb, nums[(r >> 4) % 3], n0, n1, n2);
		else if ((r >> 20 & 3) == 2)
			snprintf(x, sizeof(x), "1;3;4;38;5;7;%c8;2;%s;%s;%s", fb, n0, n1, n2);
		else
			snprintf(x, sizeof(x), "22;%c8;2;%s;%s;%s;24;1", fb, n0, n1, n2);
		a->g->sgr_color_misses = a->g->sgr_long_misses = k & 1 ? 1u << 20 : 0;
		snprintf(s, sizeof(s), "\033[H\033[0;95;104m\033[%smA\033[K\033[%d;1H", x, ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	for (unsigned i = 0; i < 2 * 255 * 6; i++) {
		/* byte c at place at of a tail of len bytes: (1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2) */
		static const uint8_t lens[6] = {1, 2, 2, 3, 3, 3}, ats[6] = {0, 0, 1, 0, 1, 2};
		const unsigned c = 1 + i / 12 % 255, j = i % 6;
		char tail[4] = "123";
		tail[ats[j]] = (char)c;
		tail[lens[j]] = 0;
		a->g->sgr_color_misses = i / 6 & 1 ? 1u << 20 : 0;
		snprintf(s, sizeof(s), "\033[H\033[0m\033[%c8;5;%smA\033[K\030\033[%d;1H", c & 1 ? '3' : '4', tail,
			 ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	t_free(a);
	t_free(b);
	CHECK(bad == 0, "%d cells differ after direct and palette colours' numbers", bad);
}

/* The colour decode of CPUs with AVX-512 (grid-sgr-512.h: palette, direct and ITU forms in one path, the
 * numbers' places from a table by the separators and the length; the parser's SGR entry while the colour
 * tables are bypassed, so the primed terminals of the tests above check it against the parser's path on such a
 * host), and its edges with the tables bypassed (primed: the entry taken): separators past the table's
 * eight places, long Pi, separators in the palette form, tails of 15 and 16 bytes, empty numbers, the other
 * separator, four separators, a byte that is neither. */
static void test_color_512(void)
{
	static const char *const sgr[] = {
		"38;2;1;23456789;3", "38;2;1;2;345678", "38;2;12345678;1;2", "38:2:12345678:1:2:3",
		"38:2:123456789012:1:2", "38:2:1234567890:1:2:3", "48;5;1;2", "48:5:1:2", "48:5:1;2", "38;5;",
		"38;5;;", "38;2;;;", "38:2::::", "38:2:::::", "38;2;255;255;255", "38:2::255:255:255",
		"38:2:255:255:255:255", "38:2:1:255:255:2555", "38;2;1;2;3;4", "38;2;1:2;3", "38;2;1;2:3",
		"48:2:1;2:3", "38;2;001;002;003", "38;2;1;2;3\x7f", "38;2;1;2;/", "38;5;25/", "38;5;2:5",
		"38;2;256;0;0", "38;2;0;0;256", "38:2::0:256:0", "38;5;256", "38;5;0255", "48;2;9;99;999",
		"38:2:0000000:1:2:3", "48:2::1:2", "48:2:1:2", "38;2;1;2", "38;2;1", "38;2", "38;5",
		"38;2;;;;", "38;2;1;;3", "38;2;;2;", "38:2:1::3", "38:2::1::3", "38;2;12;345;6",
		"38;5;000000000000001", "38;2;1;2;0000000003",
		"38;2;0000000001;2;3", "38:2:0000000001:2:3", "38:2:00000000:1:2:3", "38:2:0000000000:1:2:3",
		"38:2:000000000:001:002:003", "38;5;00000000000000001", "38;2;1;2;3;;;;;;;;;;;;", "38:5:7",
		"48:2:1:2:3", "48:2::::", "38;2;0;0;0", "38;2;00;1;255", "38;5;00", "38;5;1", "48;5;12", "48;5;123",
		"38;5;0000000000000001", "48;5;0000000000000255", "38;5;0000000000000000", "48:5:0000000000000007",
	};
	struct t_term *a, *b;
	pair_new(&a, &b, 8);
	int bad = 0;
	char s[200];
	for (unsigned i = 0; i < 2 * sizeof(sgr) / sizeof(sgr[0]); i++) {
		/* odd i: the tables bypassed and the AVX-512 entry taken by the fresh colour before the SGR (the
		 * 256th miss is sampled: not found, it sets the entry) */
		a->g->sgr_color_misses = i & 1 ? (1u << 20) - 1 : 0;
		snprintf(s, sizeof(s), "\033[H\033[0;95;104m\033[48;2;%u;%u;251m\033[%smA\033[K\033[%d;1H", i & 255,
			 i >> 8, sgr[i / 2], ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	t_free(a);
	t_free(b);
	CHECK(bad == 0, "%d cells differ after the AVX-512 decode's edges", bad);
}

/* The colour SGRs' AVX-512 decode (color_tail_512) with the tables bypassed, on random tails after each of
 * the eight heads: fields of 0 to 5 digits (leading zeros, numbers up to 999 and 99999) joined by the head's
 * separator, the other one or a stray byte, 1 to 6 fields, tails of 0 to 22 bytes; against the parser's
 * byte-at-a-time path (test_color_512 has the chosen edges). */
static void test_color_random(void)
{
	static const char *const heads[] = {"38;2;", "38;5;", "48;2;", "48;5;", "38:2:", "38:5:", "48:2:", "48:5:"};
	struct t_term *a, *b;
	pair_new(&a, &b, 10u);
	int bad = 0;
	uint32_t r = 29;
	for (int k = 0; k < 6000; k++) {
		char x[64];
		r = r * 1103515245u + 12345u;
		const unsigned hd = (r >> 8) & 7, nf = 1 + (r >> 12) % 6;
		int len = snprintf(x, sizeof(x), "%s", heads[hd]);
		const char sep = heads[hd][2];
		for (unsigned i = 0; i < nf && len < 40; i++) {
			r = r * 1103515245u + 12345u;
			const unsigned q = (r >> 8) % 16;
			if (i)
				x[len++] = (r >> 20) % 23 == 0 ? (sep == ';' ? ':' : ';') : (r >> 20) % 29 == 0 ? '/' : sep;
			if (q < 2) /* empty */
				continue;
			if (q < 4)
				len += snprintf(x + len, sizeof(x) - (size_t)len, "%0*u", 1 + (int)((r >> 16) % 5),
						(r >> 4) % 300);
			else if (q < 5)
				len += snprintf(x + len, sizeof(x) - (size_t)len, "%u", (r >> 4) % 100000);
			else
				len += snprintf(x + len, sizeof(x) - (size_t)len, "%u", (r >> 4) % (q < 12 ? 256 : 1000));
		}
		x[len] = 0;
		if (len > 27)
			continue;
		char s[200];
		/* the fresh colour before x is the 256th colour miss: sampled, not found, it sets the AVX-512
		 * entry (as in test_color_512) */
		a->g->sgr_color_misses = (1u << 20) - 1;
		snprintf(s, sizeof(s), "\033[H\033[0;95;104m\033[48;2;%d;%d;250m\033[%smA\033[K\033[%d;1H", k & 255,
			 k >> 8, x, ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	t_free(a);
	t_free(b);
	CHECK(bad == 0, "%d cells differ after random colour SGRs (AVX-512 decode)", bad);
}

/* The long plain SGRs' AVX-512 decode (grid-sgr-long.c's grid__sgr_long_direct_512: every number at once, on
 * CPUs with VBMI and VBMI2; elsewhere, and with scalar set, these run grid__sgr_long_direct) with both tables
 * bypassed (the AVX-512 colour entry taken): random SGRs of 17 to 31 bytes from codes, colours with missing,
 * empty, overlong and out-of-range parts, kinds in leading zeros ("0005", "0002"), 5-digit numbers,
 * sub-parameters, more than 16 fields (all empty), exactly 16, and a byte that is neither digit nor separator;
 * after pens that each partly overwrites. */
static void test_long_512(bool scalar)
{
#if defined(GRID_SGR_LONG_512)
	const bool had = grid__sgr_long_512;
	if (scalar)
		grid__sgr_long_512 = false;
#else
	(void)scalar;
#endif
	static const char *const pool[] = {"",	   "0",	   "1",	    "2",    "3",    "4",    "5",	   "7",	   "9",
					   "22",   "24",   "38",    "48",   "58",   "39",   "49",   "59",  "53",  "107",
					   "127",  "128",  "255",   "256",  "999",  "9999", "0005", "0002", "00038",
					   "12345", "00001", "38;5", "48;2", "38;2;1;2", "58;5;", "1:2", "4:3", "38:5:9",
					   "2/",   "0;0"};
	static const char *const fixed[] = {";;;;;;;;;;;;;;;;;", ";;;;;;;;;;;;;;;;;;;;;;;;;;;;;;",
					    "1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1", "1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;",
					    "38;5;1;38;5;2;38;5;3;38;5;4", "48;2;1;2;3;48;2;4;5;6;38;5", "38;2;;;;48;5;;58;2;;;",
					    "0;38;5;255;48;2;255;255;255", "1;3;4;38;5;256;48;2;0;0;256", "1;3;4;38;5;7;48;2;1;2"};
	const unsigned np = sizeof(pool) / sizeof(pool[0]), nfix = sizeof(fixed) / sizeof(fixed[0]);
	static const char *const pre[] = {"0;38;5;1;4", "0;2;21;48;2;1;2;3", "0;22;23;24;58;5;9", "7;9;4:3", "0"};
	int bad = 0, tried = 0;
	struct t_term *a, *b;
	pair_new(&a, &b, 9u);
	uint32_t r = 17;
	for (int k = 0; k < 12000; k++) {
		char x[200];
		int len = 0;
		r = r * 1103515245u + 12345u;
		if ((r >> 8) % 16 == 0) {
			len = snprintf(x, sizeof(x), "%s", fixed[(r >> 12) % nfix]);
		} else {
			const unsigned n = 3 + (r >> 16) % 14;
			for (unsigned i = 0; i < n && len < 40; i++) {
				r = r * 1103515245u + 12345u;
				const unsigned q = (r >> 12) % (np + 8);
				char num[8];
				if (q >= np)
					snprintf(num, sizeof(num), "%u", (r >> 20) % 300);
				len += snprintf(x + len, sizeof(x) - (size_t)len, "%s%s", i ? ";" : "",
						q >= np ? num : pool[q]);
			}
		}
		if (len < 17 || len > 31)
			continue;
		tried++;
		char s[600];
		/* the fresh colour before x is the 256th colour miss: sampled, not found, it sets the AVX-512
		 * entry (as in test_color_512) */
		a->g->sgr_color_misses = (1u << 20) - 1;
		a->g->sgr_long_misses = 1u << 20;
		snprintf(s, sizeof(s), "\033[H\033[%sm\033[K\033[48;2;%d;%d;252m\033[%smA\033[K\033[%d;1H",
			 pre[(r >> 4) % 5], k & 255, k >> 8, x, ROWS);
		feed_both(a, b, s);
		bad += diff_screens(a, b);
	}
	t_free(a);
	t_free(b);
#if defined(GRID_SGR_LONG_512)
	grid__sgr_long_512 = had;
#endif
	CHECK(tried > 3000, "only %d long SGRs tried", tried);
	CHECK(bad == 0, "%d cells differ after long plain SGRs (%s decode)", bad, scalar ? "scalar" : "AVX-512");
}

/* While the colour SGRs bypass their tables, a dirty pen and the erase style take fresh ids without the
 * style cache's probe (grid__cache_bypass). A stream of text runs and ELs under pens that are fresh,
 * repeated (one of the last 16: it takes a second id) or the default, over palette and direct colours, fed
 * whole to a primed terminal (the bypass) and a byte at a time to an unprimed one (the cache and the index,
 * no bypass): the screens must agree cell by cell, and the bypassed pens must have left no cache entry. */
static void test_cache_bypass(void)
{
	struct t_term *a, *b;
	pair_new(&a, &b, 0);
	prime(a, 5);
	t_feed(a, "\033[0m\033[2J\033[H");
	t_feed(b, "\033[0m\033[2J\033[H");
	int bad = 0, bypassed = 0, cached = 0, direct = 0;
	uint32_t r = 11, old[16][2] = {{0}};
	for (int k = 0; k < 4000; k++) {
		r = r * 1103515245u + 12345u;
		const unsigned kind = r >> 28, y = 1 + (r >> 8) % ROWS, x = 1 + (r >> 4) % COLS;
		uint32_t fg = r * 2654435761u >> 8, bg = (r ^ 0x5bd1e995u) * 2246822519u >> 8;
		if (kind < 4) {
			fg = old[kind][0];
			bg = old[kind][1];
		} else {
			old[r >> 24 & 15][0] = fg;
			old[r >> 24 & 15][1] = bg;
		}
		char sgr[64], s[200];
		if (kind == 4)
			snprintf(sgr, sizeof(sgr), "0");
		else if (kind < 10)
			/* as one SGR (sgr_long's) or as two colour SGRs (sgr_color_direct's) */
			snprintf(sgr, sizeof(sgr), "38;2;%u;%u;%u%s48;2;%u;%u;%u", fg >> 16, fg >> 8 & 255, fg & 255,
				 kind & 1 ? ";" : "m\033[", bg >> 16, bg >> 8 & 255, bg & 255);
		else
			snprintf(sgr, sizeof(sgr), "38;5;%u;48;%s%u", fg & 255, kind & 1 ? "2;1;2;" : "5;",
				 bg & 255);
		snprintf(s, sizeof(s), "\033[%u;%uH\033[%sm%.*s\033[%uK", y, x, sgr, 1 + (int)(r >> 2 & 3), "abcd",
			 r >> 12 & 3);
		b->g->sgr_color_misses = 0; /* (the reference: every pen through the cache) */
		feed_both(a, b, s);
		bypassed += a->g->sgr_color_misses >= 64 && b->g->sgr_color_misses < 64;
		bad += diff_screens(a, b);
		if (kind >= 5 && kind < 10 && !a->g->pen_dirty) {
			uint64_t k0, k1;
			const uint64_t h = grid__pen_key(a->g, &k0, &k1);
			const uint32_t slot = grid__cache_slot(h);
			cached += a->g->st.cache[slot].a == k0 && a->g->st.cache[slot].b == k1;
			direct++;
		}
	}
	CHECK(bad == 0, "%d cells differ with fresh pens and erase styles bypassing the style cache", bad);
	CHECK(bypassed == 4000, "the tables bypassed in %d of 4000 steps", bypassed);
	/* (those that probe the index, grid__intern_fresh, enter the cache: one insertion in 256, and the 16
	 * after a pen seen before; 8 of 1,216 here, and without the bypass 1,215) */
	CHECK(direct > 1000 && cached * 16 < direct, "%d of %d fresh direct pens in the style cache", cached,
	      direct);
	t_free(a);
	t_free(b);
}

/* Every colour form with one byte of its tail replaced, dropped or doubled, at each place (the first and the
 * last byte of the tail included): the other separator, a stray byte next to the range '0'..';' ('/', '<'),
 * a digit, a byte with the top bit; with the tables bypassed on the scalar decode (sgr_color_direct: one
 * range test for digits and separators, the ITU form out of line) and, on AVX-512 CPUs, on
 * color_tail_512; against the parser's general path. */
static void test_color_edits(void)
{
	static const char *const base[] = {"38;2;1;22;255", "48:2::1:22:255", "38:2:7:1:22:255", "38;5;200",
					   "48:5:7", "38;2;;;", "38:2:::", "38:2::::", "48;2;0;10;100"};
	static const char subst[] = ":;/<09\xb5";
	struct t_term *a, *b;
	pair_new(&a, &b, 12u);
	int bad = 0, k = 0;
	for (int mode = 0; mode < 2; mode++)
		for (unsigned i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
			const size_t n = strlen(base[i]);
			for (size_t p = 5; p <= n; p++)
				for (unsigned e = 0; e < sizeof(subst) + 1; e++) {
					char x[40], s[200];
					if (e < sizeof(subst) - 1 && p < n) /* replaced */
						snprintf(x, sizeof(x), "%.*s%c%s", (int)p, base[i], subst[e], base[i] + p + 1);
					else if (e == sizeof(subst) - 1 && p < n) /* dropped */
						snprintf(x, sizeof(x), "%.*s%s", (int)p, base[i], base[i] + p + 1);
					else if (e == sizeof(subst) && p < n) /* doubled */
						snprintf(x, sizeof(x), "%.*s%s", (int)p + 1, base[i], base[i] + p);
					else if (p == n && e < sizeof(subst) - 1) /* one more at the end */
						snprintf(x, sizeof(x), "%s%c", base[i], subst[e]);
					else
						continue;
					/* mode 0: scalar (the count's low byte never 0 here); mode 1: the fresh colour
					 * before x sampled, which takes the AVX-512 entry where there is one */
					a->g->sgr_color_misses = mode ? (1u << 20) - 1 : 1u << 20;
					snprintf(s, sizeof(s), "\033[H\033[0;95;104m\033[48;2;%d;%d;252m\033[%smA\033[K\033[%d;1H",
						 k & 255, k >> 8 & 255, x, ROWS);
					k++;
					feed_both(a, b, s);
					bad += diff_screens(a, b);
				}
		}
	t_free(a);
	t_free(b);
	CHECK(bad == 0, "%d cells differ after colour forms with a byte replaced, dropped or doubled", bad);
}

int main(void)
{
	/* both copies of the parser's feed loop (the AVX2 one where the CPU has it: vt__no_avx2) */
	for (int base = 0; base < 2; base++) {
		vt__no_avx2 = base;
		test_tiny();
		test_long_plain();
		test_long_combo();
		test_one_color();
		test_at_end();
		test_color_tails();
		test_long_guess();
		test_rgb_pal_fields();
		test_underline_styles();
		test_color_512();
		test_color_random();
		test_color_edits();
		test_long_512(false);
		test_long_512(true);
	}
	test_sampling();
	test_cache_bypass();
	return t_done("grid-sgr");
}
