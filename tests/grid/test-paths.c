/* tests/grid/test-paths.c: grid's fast paths give what its general ones give. The parser's SGR memo, SGR's
 * colour forms and table-driven plain loop, and the bulk parser's csi_bytes each take a shortcut past the
 * general code (sgr_one, the parser's table machine and parsed form); random streams of the shapes they take
 * and of near misses they must leave alone are fed both ways and must leave the same cells, pens and cursor.
 * The reference for the differential tests is the general path (decline.h). */
#include <stddef.h>
#include <stdio.h>

#include "decline.h"
#include "harness.h"

/* SGR sequences the parser has seen before reach grid/ with a seq_id and are applied from a memo of what
 * they do to the pen: a long stream of relative and absolute SGRs (bold on/off, underline styles, colour
 * forms, resets) fed whole (memo in use) must leave exactly the cells it leaves fed one byte at a time
 * (no memo), and the styles must be what the last SGRs asked for. */
static void test_sgr_memo(void)
{
	static const char *const units[] = {
		"\033[1m", "\033[22m", "\033[3m", "\033[23m", "\033[4m", "\033[4:3m", "\033[24m", "\033[7m",
		"\033[27m", "\033[0m", "\033[m", "\033[31m", "\033[39m", "\033[42m", "\033[49m", "\033[95m",
		"\033[38;5;100m", "\033[48;5;200m", "\033[38;2;1;2;3m", "\033[48:2::4:5:6m", "\033[58:5:9m",
		"\033[59m", "\033[1;3;4;38;5;35;48;2;13;137;44m", "\033[38;5;102;48;5;253;1;3;4m", "\033[21m",
		"\033[38;2;300;2;3m", "\033[53m", "\033[55m", "\033[2;9m", "\033[29m", "x", "y", "\xe2\x96\x80",
		"\r\n", "\033[H", "\033[5;7H",
	};
	const size_t nu = sizeof(units) / sizeof(units[0]);
	static char buf[200000];
	size_t len = 0;
	uint32_t r = 99;
	while (len < sizeof(buf) - 64) {
		r = r * 1103515245u + 12345u;
		const char *u = units[(r >> 16) % nu];
		memcpy(buf + len, u, strlen(u));
		len += strlen(u);
	}
	struct t_term *a = t_new(40, 20, 0), *b = t_new(40, 20, 0);
	t_decline_csi_bytes(b);
	grid_feed(a->g, (const uint8_t *)buf, len);
	for (size_t i = 0; i < len; i++)
		grid_feed(b->g, (const uint8_t *)buf + i, 1);
	int diff = 0, styled = 0;
	for (int y = 0; y < 20; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		for (int x = 0; x < 40; x++) {
			const struct grid_style *sa = grid_style(a->g, ra[x].style), *sb = grid_style(b->g, rb[x].style);
			if (ra[x].cp != rb[x].cp || memcmp(sa, sb, offsetof(struct grid_style, underline) + 1))
				diff++;
			styled += ra[x].style != 0;
		}
	}
	CHECK(diff == 0 && styled > 20, "%d cells differ, %d styled", diff, styled);
	t_free(a);
	t_free(b);

	/* a memoized relative SGR applies to whatever the pen is now */
	struct t_term *t = t_new(80, 4, 0);
	for (int k = 0; k < 3; k++)
		t_feed(t, "\033[0;31mA\033[1mB\033[0;42mC\033[1mD\033[22mE\033[4:3m\033[38;2;1;2;3mF\033[0mG"
			  "\033[1m\033[3mH\r\n");
	const struct grid_cell *row = grid_row(t->g, 2);
	const struct grid_style *st[8];
	for (int x = 0; x < 8; x++)
		st[x] = grid_style(t->g, row[x].style);
	CHECK(st[1]->fg == GRID_COLOR_PALETTE(1) && (st[1]->attrs & GRID_ATTR_BOLD), "B red bold");
	CHECK(st[3]->fg == GRID_COLOR_DEFAULT && st[3]->bg == GRID_COLOR_PALETTE(2) &&
		      (st[3]->attrs & GRID_ATTR_BOLD), "D bold on green");
	CHECK(!(st[4]->attrs & GRID_ATTR_BOLD) && st[4]->bg == GRID_COLOR_PALETTE(2), "E not bold");
	CHECK(st[5]->underline == GRID_UNDERLINE_CURLY && st[5]->fg == GRID_COLOR_RGB(1, 2, 3) &&
		      st[5]->bg == GRID_COLOR_PALETTE(2), "F curly rgb on green");
	CHECK(row[6].style == 0, "G default");
	CHECK(st[7]->attrs == (GRID_ATTR_BOLD | GRID_ATTR_ITALIC), "H bold italic: %x", st[7]->attrs);
	t_free(t);
}

/* The colour forms SGR reads without its general loop (38/48 with ;2;r;g;b, :2:r:g:b, :2:Pi:r:g:b, ;5;n,
 * :5:n, valid or not) give the pen the general loop gives: the same sequence after "22;" (a no-op on the
 * default pen) takes the general loop. */
static void test_sgr_color_forms(void)
{
	static const char *const forms[] = {
		"%d;2;%d;%d;%d", "%d:2:%d:%d:%d", "%d:2::%d:%d:%d", "%d:2:7:%d:%d:%d", "%d;5;%d", "%d:5:%d",
		"%d:2:%d:%d", "%d;2;%d;%d", "%d;2:%d:%d:%d", "%d:2:%d::%d", "%d:5:%d:%d", "%d:3:%d:%d:%d",
		/* 32 parameters with sub-parameters (the fuzzer found a shift by 32 here) */
		"%d:2:%d:%d:%d;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0",
	};
	const int nf = (int)(sizeof(forms) / sizeof(forms[0]));
	struct t_term *t = t_new(4, 2, 0);
	uint32_t r = 5;
	int bad = 0;
	for (int k = 0; k < 4000; k++) {
		r = r * 1103515245u + 12345u;
		int v[3];
		for (int j = 0; j < 3; j++)
			v[j] = (int)((r >> (5 + 8 * j)) % 300); /* some above 255: invalid */
		char sgr[128];
		snprintf(sgr, sizeof(sgr), forms[(r >> 3) % (unsigned)nf], (r & 1) ? 38 : 48, v[0], v[1], v[2]);
		t_feedf(t, "\033[H\033[0;95;104m\033[%smA\033[0;95;104m\033[22;%smB", sgr, sgr);
		const struct grid_cell *row = grid_row(t->g, 0);
		const struct grid_style *a = grid_style(t->g, row[0].style), *b = grid_style(t->g, row[1].style);
		if (a->fg != b->fg || a->bg != b->bg || a->attrs != b->attrs)
			bad++;
	}
	CHECK(bad == 0, "%d colour forms differ from the general loop", bad);
	t_free(t);
}

/* SGRs without sub-parameters take a table-driven loop (sgr_plain in grid-sgr.c); with a sub-parameter
 * anywhere they take the general one (sgr_one). Random plain sequences, once as they are and once after
 * "10:0" (code 10 does nothing, its sub-parameter is skipped), must give the same pen, whatever the codes,
 * empty or large values, and incomplete colours. */
static void test_sgr_plain(void)
{
	static const int pool[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 21, 22, 23, 24, 25, 27, 28,  29,
				   30, 37, 38, 38, 38, 39, 40, 47, 48, 48, 48, 49, 53, 55, 58, 58, 59, 90, 97,
				   100, 107, 2,  5,  255, 256, 300, -1, 1000, 65535, 128, 127};
	const unsigned np = sizeof(pool) / sizeof(pool[0]);
	struct t_term *t = t_new(4, 2, 0);
	uint32_t r = 11;
	int bad = 0;
	for (int k = 0; k < 20000; k++) {
		char x[256];
		size_t len = 0;
		r = r * 1103515245u + 12345u;
		unsigned n = 1 + (r >> 16) % 14;
		for (unsigned i = 0; i < n; i++) {
			r = r * 1103515245u + 12345u;
			int v = pool[(r >> 12) % np];
			if (i)
				x[len++] = ';';
			if (v >= 0)
				len += (size_t)snprintf(x + len, sizeof(x) - len, "%d", v);
		}
		x[len] = 0;
		t_feedf(t, "\033[H\033[0m\033[%smA\033[0m\033[10:0;%smB", x, x);
		const struct grid_cell *row = grid_row(t->g, 0);
		const struct grid_style *a = grid_style(t->g, row[0].style), *b = grid_style(t->g, row[1].style);
		if (a->fg != b->fg || a->bg != b->bg || a->ul_color != b->ul_color || a->attrs != b->attrs ||
		    a->underline != b->underline)
			bad++;
	}
	CHECK(bad == 0, "%d plain SGRs differ from the general loop", bad);
	t_free(t);
}

/* The bulk parser hands short CSI sequences and SGR colours to grid's csi_bytes, which acts on their bytes;
 * the same bytes fed one at a time go through the parser's table machine and the parsed form. Random
 * sequences of the shapes csi_bytes takes, and near misses it must leave alone (colons in the wrong place,
 * empty or long numbers, values above 255, markers, intermediates), must give the same screen both ways. */
static void test_csi_bytes(void)
{
	static const char *const shapes[] = {
		"%d;2;%d;%d;%dm", "%d:2:%d:%d:%dm", "%d:2::%d:%d:%dm", "%d:2:%d:%d:%d:%dm", "%d;5;%dm", "%d:5:%dm",
		"%d;2;%d;%dm", "%d;2;;%d;%dm", "%d;2:%d:%d:%dm", "%d:2:%d;%d;%dm", "%d;5;%d;%dm", "%d;2;%d;%d;%d;1m",
		"%dm", "m", ";%dm", "%d;m", "%d:%dm", "?%dm", "%d %dm", "%d;%dH", "%dH", ";%dH", "%d;H", "H",
		"%dC", "%dA", "%dB", "%dD", "C", "%dK", "K", "%dJ", "%d;%d;%dH", "%d:%dC", "%d;%dC", "%dE",
		"0%d;00%dH", "%d%d%dC", "\x08%dC", "%d;2;%d;%d;%d\x7fm", "4%d:%dm", "%d;4;%dm",
		/* 16 to 31 bytes before 'm' (grid's long SGRs), and longer ones (the parser's) */
		"1;3;4;38;5;%d;48;2;%d;%d;%dm", "38;5;%d;48;5;%d;1;3;%dm", "%d;2;%d;%d;%d;22;23;24;25m",
		"%d;%d;%d;%d;7;27;53;55m", ";;;;;;;;;;;;;;;;%dm", "0000%d;00%d;1;3;4;5;6;7m",
		"1;2;3;4;5;6;7;8;9;21;22;%dm", "90;91;100;101;39;49;59;%d;%dm", "58;2;%d;%d;%d;58;5;%dm",
		"38;5;%d;38;2;1;2;3;%d;%dm", "38;7;%d;%d;1;1;1;1;1;1;1m", "1;3;4;7;9;21;22;38;2;%dm",
		"1;3;4;7;9;21;22;24;48;5m", "%d:2::%d:%d:%d;1;3;4m", "1;%d:2:%d:%d:%d;1;3m", "4:%d;1;3;4;5;6;7;8;9m",
		"1;3;4;38;5;%d;48;2;%d;%d;%d;1;3;4;5;7m", "1;3;?4;38;5;%d;48;2;%d;%d;%dm", "1;3;4;38;5;%d;48 %dm",
		"%d;2;%d;%d;%d;1;3;4;9;10000m", "1;1;1;1;1;1;1;1;1;1;1;1;1;1;%dm", "38;2;%d;%d;%d;%dm",
	};
	const int ns = (int)(sizeof(shapes) / sizeof(shapes[0]));
	struct t_term *whole = t_new(40, 12, 0), *bytes = t_new(40, 12, 0);
	uint32_t r = 7;
	int bad = 0;
	for (int k = 0; k < 20000; k++) {
		char seq[320] = "\033[";
		size_t len = 2;
		for (int j = 0; j < 4; j++) {
			r = r * 1103515245u + 12345u;
			int v[4];
			for (int q = 0; q < 4; q++) {
				uint32_t x = (r >> (3 + 7 * q)) & 0x7f;
				/* colours near 255, small cursor numbers, SGR codes, and now and then 4-5 digits */
				v[q] = (x & 3) == 0 ? (int)(x * 3) : (x & 3) == 1 ? (int)(x % 50) : (int)(x % 110);
			}
			if ((r & 0x3f) == 0)
				v[1] = 1234;
			if ((r & 0x3f) == 1)
				v[2] = 65536 + 12;
			int base = (r >> 30) & 1 ? 38 : 48;
			const char *shape = shapes[(r >> 9) % (unsigned)ns];
			if (shape[0] == '%' && (shape[2] == ';' || shape[2] == ':') && (shape[3] == '2' || shape[3] == '5'))
				v[0] = base; /* a colour form */
			len += (size_t)snprintf(seq + len, sizeof(seq) - len, shape, v[0], v[1], v[2], v[3]);
			/* the cell after it: ASCII or 3-byte UTF-8 alone before the next ESC is taken with the SGR
			 * (a wide one, one that joins the cell before, a surrogate, an overlong form, a 2-byte mark,
			 * a run of two) */
			static const char *const cells[] = {
				"x", "\xe2\x96\x80", "\xe4\xb8\xad", "\xe2\x80\x8d", "\xe0\xa4\x95\xe0\xa5\x8d",
				"\xed\xa0\x80", "\xe0\x80\xaf", "\xcc\x81", "xy", "\xef\xbf\xbd", "\xe2\x96",
			};
			const char *cell = cells[(r >> 20) % (sizeof(cells) / sizeof(cells[0]))];
			len += (size_t)snprintf(seq + len, sizeof(seq) - len, "%s\033[", cell);
		}
		seq[len - 2] = 0;
		/* 40 bytes of padding: the bulk path wants 32 readable bytes after ESC [ */
		char buf[400];
		int n = snprintf(buf, sizeof(buf), "%s%s", seq, "                                        \r");
		grid_feed(whole->g, (const uint8_t *)buf, (size_t)n);
		for (int q = 0; q < n; q++)
			grid_feed(bytes->g, (const uint8_t *)buf + q, 1);
		if (k % 16)
			continue;
		struct grid_cursor ca, cb;
		grid_get_cursor(whole->g, &ca);
		grid_get_cursor(bytes->g, &cb);
		bad += ca.x != cb.x || ca.y != cb.y;
		for (int y = 0; y < 12; y++) {
			const struct grid_cell *a = grid_row(whole->g, y), *b = grid_row(bytes->g, y);
			for (int x = 0; x < 40; x++) {
				const struct grid_style *sa = grid_style(whole->g, a[x].style);
				const struct grid_style *sb = grid_style(bytes->g, b[x].style);
				if (!t_same_cp(whole->g, &a[x], bytes->g, &b[x]) || sa->fg != sb->fg || sa->bg != sb->bg || sa->attrs != sb->attrs ||
				    sa->underline != sb->underline || sa->ul_color != sb->ul_color)
					bad++;
			}
		}
	}
	CHECK(bad == 0, "%d cells differ between the bulk path and byte-by-byte parsing", bad);
	t_free(whole);
	t_free(bytes);
}

int main(void)
{
	test_sgr_memo();
	test_sgr_color_forms();
	test_sgr_plain();
	test_csi_bytes();
	return t_done("grid-paths");
}
