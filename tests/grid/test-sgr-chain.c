/* tests/grid/test-sgr-chain.c: SGRs one right after another (and what breaks a run of them) fed whole, a byte
 * at a time, and cut into two feeds at every position.
 *
 * grid-sgr-bytes.c takes SGRs from their bytes (vt_sink.csi_bytes, only for sequences whose "ESC [" and the 32
 * bytes after lie in the feed) and the character alone after one; a feed of one byte leaves everything to the
 * parser's table machine and grid-sgr.c. Runs of SGRs of every form the bytes path decodes (one-code, 256-colour
 * and truecolour in ';' and ':' forms, long combined ones), broken up by what must go the parser's way (C0
 * controls, CAN and SUB inside a sequence, a private marker, intermediates, an ESC or a UTF-8 byte inside, more
 * than 32 bytes of parameters, finals other than 'm', values out of range), with cells and text between some
 * of them, must leave the same cells, styles, cursor and pen all three ways, and the parser in the same state
 * (a probe fed after the stream must land the same). Each cut feed is copied into a buffer of its own
 * followed by bytes of other SGRs, so that a path reading or taking bytes past the end of its feed shows. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "decline.h"
#include "grid/grid-internal.h"
#include "harness.h"
#include "vt/vt.h"

#define COLS 48
#define ROWS 5

static uint32_t seed = 7;
static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

/* One random SGR body (before 'm') of the forms the bytes path takes */
static int sgr_body(char *o)
{
	static const char *const tiny[] = {"", "0", "1", "22", "3", "23", "4", "24", "7", "27", "4:3", "39", "49", "9"};
	unsigned c = rnd(9);
	switch (c) {
	case 0:
	case 1:
		return sprintf(o, "%s", tiny[rnd(sizeof(tiny) / sizeof(tiny[0]))]);
	case 2:
		return sprintf(o, "%u;5;%u", rnd(2) ? 38u : 48u, rnd(256));
	case 3:
		return sprintf(o, "%u:5:%u", rnd(2) ? 38u : 48u, rnd(256));
	case 4:
		return sprintf(o, "%u;2;%u;%u;%u", rnd(2) ? 38u : 48u, rnd(256), rnd(256), rnd(256));
	case 5:
		return sprintf(o, "%u:2:%s%u:%u:%u", rnd(2) ? 38u : 48u, rnd(2) ? ":" : "", rnd(256), rnd(256), rnd(256));
	case 6:
		return sprintf(o, "1;3;4;38;5;%u;48;2;%u;%u;%u", rnd(256), rnd(256), rnd(256), rnd(256));
	case 7:
		return sprintf(o, "58;2;%u;%u;%u;4:%u", rnd(256), rnd(256), rnd(256), rnd(6));
	default:
		return sprintf(o, "%u;%u", rnd(110), rnd(110));
	}
}

/* One piece of the stream at o (room for 80 bytes): mostly a well-formed SGR, else something that breaks a
 * run of them or goes the parser's way */
static int piece(char *o)
{
	int n = 0;
	unsigned k = rnd(24);
	if (k < 14) { /* a well-formed SGR */
		n = sprintf(o, "\033[");
		n += sgr_body(o + n);
		o[n++] = 'm';
		return n;
	}
	n = sprintf(o, "\033[");
	switch (k) {
	case 14: /* a C0 control, CAN or SUB inside */ {
		static const char ctl[] = {'\n', '\r', '\b', '\t', 0x18, 0x1a, 0x07, 0x00};
		n += sgr_body(o + n);
		int at = 2 + (int)rnd((uint32_t)n - 1);
		memmove(o + at + 1, o + at, (size_t)(n - at));
		o[at] = ctl[rnd(sizeof(ctl))];
		n++;
		o[n++] = 'm';
		return n;
	}
	case 15: /* a private marker or an intermediate */
		n += sprintf(o + n, rnd(2) ? "?%u" : "%u ", rnd(30));
		o[n++] = rnd(2) ? 'm' : 'q';
		return n;
	case 16: /* more than 32 bytes of parameters, or more parameters than the parser keeps */
		for (int i = 0, m = 12 + (int)rnd(12); i < m; i++)
			n += sprintf(o + n, "%u;", rnd(2) ? 1u : 38u);
		o[n++] = 'm';
		return n;
	case 17: /* an ESC or a UTF-8 byte inside: the sequence abandoned */
		n += sgr_body(o + n);
		n += sprintf(o + n, rnd(2) ? "\033[%um" : "\xc3\xa9%u", rnd(10));
		return n;
	case 18: /* another final */
		n += sprintf(o + n, "%s", (const char *[]){"2C", "K", "1;5H", "3D", "2K", "B"}[rnd(6)]);
		return n;
	case 19: /* values out of range or missing */
		n += sprintf(o + n, "%s", (const char *[]){"38;5;300m", "38;2;1;2m", "48:2:1m", "38;5m", "38m"}[rnd(5)]);
		return n;
	case 20: /* a cell: ASCII or a 3-byte character */
		return sprintf(o, "%s", (const char *[]){"x", "#", "\xe2\x96\x80", "\xe4\xb8\xad"}[rnd(4)]);
	case 21: /* text */
		return sprintf(o, "%.*s", 1 + (int)rnd(12), "abcdefghijklmnop");
	case 22:
		return sprintf(o, "\r\n");
	default: /* a CSI or ESC cut short by a C0 or another ESC */
		return sprintf(o, "%s", (const char *[]){"\033[1;\033[4m", "\033\033[7m", "\033[38;5\r;2m"}[rnd(3)]);
	}
}

static int compare(struct t_term *a, struct t_term *b, const char *what)
{
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	CHECK(ca.x == cb.x && ca.y == cb.y, "%s: cursor %d,%d vs %d,%d", what, ca.x, ca.y, cb.x, cb.y);
	const struct grid_style *pa = &a->g->pen, *pb = &b->g->pen;
	bool pen = t_same_style_values(pa, pb);
	CHECK(pen, "%s: pen fg %x/%x bg %x/%x attrs %x/%x", what, pa->fg, pb->fg, pa->bg, pb->bg, pa->attrs, pb->attrs);
	if (ca.x != cb.x || ca.y != cb.y || !pen)
		return 1;
	for (int y = 0; y < ROWS; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		for (int x = 0; x < COLS; x++) {
			bool same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && t_same_style(a->g, &ra[x], b->g, &rb[x]);
			CHECK(same, "%s row %d col %d: \"%s\"", what, y, x, t_row(a, y));
			if (!same)
				return 1;
		}
	}
	return 0;
}

/* The bytes after a cut feed in its buffer: what completes a sequence cut short ("7;1m"), SGRs and cells,
 * which nothing may take */
static const char poison[] = "7;1mZ\033[1;4;7m\033[38;5;1mZ\033[48;2;9;9;9m\033[5mQ\033[3m\033[41m\033[m";

/* A probe fed after the stream: a parser left in another state takes it otherwise */
static const char probe[] = "1;2mP\033[4mQ\r\n";

/* buf fed to a in two feeds cut at cut (-1: whole, in the buffer itself), to b a byte at a time; nonzero
 * when they differ */
static int fed_vs_bytes(struct t_term *a, struct t_term *b, const char *buf, int len, int cut)
{
	static const struct t_split sp = {poison, probe, sizeof(poison), sizeof(probe) - 1, compare, false};
	t_decline_csi_bytes(b);
	return t_split_vs_bytes(&sp, a, b, buf, len, cut);
}

/* Fresh colours and long SGRs until the bytes path decodes them without its tables (grid.sgr_color_misses,
 * grid.sgr_long_misses), or nothing (the tables on) */
static void prime(struct t_term *t, bool bypass)
{
	uint32_t s = 99;
	for (int i = 0; bypass && i < 200; i++) {
		s = s * 1103515245u + 12345u;
		t_feedf(t, "\033[38;2;%u;%u;%umx\033[1;3;4;38;5;%u;48;2;%u;%u;%umy%40s\r", s >> 24, s >> 16 & 255,
			s >> 8 & 255, s >> 20 & 255, s >> 12 & 255, s & 255, s >> 4 & 255, "");
	}
	t_feed(t, "\033[m\033[H\033[2J");
}

/* Long streams fed whole (with the padding after them in the same feed, so that the runs of SGRs lie in the
 * bulk path's reach), against a byte at a time */
static void test_whole(void)
{
	static char buf[4096];
	int bad = 0;
	for (int round = 0; round < 200 && !bad; round++) {
		struct t_term *a = t_new(COLS, ROWS, 20), *b = t_new(COLS, ROWS, 20);
		prime(a, round & 1);
		prime(b, round & 1);
		int len = 0;
		for (int n = 20 + (int)rnd(200); n-- > 0 && len < (int)sizeof(buf) - 200;)
			len += piece(buf + len);
		bad = fed_vs_bytes(a, b, buf, len, -1);
		t_free(a);
		t_free(b);
	}
}

/* Shorter streams cut into two feeds at every position */
static void test_every_cut(void)
{
	char buf[512];
	int bad = 0;
	for (int round = 0; round < 40 && !bad; round++) {
		int len = 0;
		while (len < 160)
			len += piece(buf + len);
		struct t_term *a = t_new(COLS, ROWS, 20), *b = t_new(COLS, ROWS, 20);
		prime(a, round & 1);
		prime(b, round & 1);
		for (int cut = 0; cut <= len && !bad; cut++) {
			/* the probe left both parsers in the ground state */
			t_feed(a, "\033[m\033[H\033[2J");
			t_feed(b, "\033[m\033[H\033[2J");
			bad = fed_vs_bytes(a, b, buf, len, cut);
		}
		t_free(a);
		t_free(b);
	}
}

/* Colour per cell from a few colours, as a fire's half blocks: a background SGR, then a space or a foreground
 * SGR and U+2580, screen after screen from the home position. The found SGRs give the pen their entry gave last
 * time about as often as not (its id then taken from the entry, without interning: grid-sgr-bytes.c's
 * sgr_memo_hit_sel); the cells must get the styles a byte at a time gives. */
static void test_few_colours(void)
{
	static char buf[16384];
	static const char *const rgb[] = {"7;7;7", "31;7;7", "223;87;7", "255;255;255", "191;167;39"};
	struct t_term *a = t_new(COLS, ROWS, 20), *b = t_new(COLS, ROWS, 20);
	int bad = 0;
	for (int round = 0; round < 20 && !bad; round++) {
		int len = sprintf(buf, "\033[H");
		for (int y = 0; y < ROWS; y++) {
			for (int x = 0; x < COLS; x++) {
				unsigned u = rnd(3 + (unsigned)round % 3), d = rnd(3 + (unsigned)round % 3);
				len += sprintf(buf + len, "\033[48;2;%sm", rgb[d]);
				if (u == d)
					buf[len++] = ' ';
				else
					len += sprintf(buf + len, "\033[38;2;%sm\xe2\x96\x80", rgb[u]);
			}
			if (y != ROWS - 1)
				len += sprintf(buf + len, "\r\n");
		}
		/* what the bulk path needs after the last sequence (33 bytes), and a line after the screen */
		len += sprintf(buf + len, "\033[m\r\n%40s", "");
		bad = fed_vs_bytes(a, b, buf, len, -1);
	}
	t_free(a);
	t_free(b);
}

int main(void)
{
	test_few_colours();
	test_whole();
	test_every_cut();
	return t_done("grid-sgr-chain");
}
