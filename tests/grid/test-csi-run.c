/* tests/grid/test-csi-run.c: runs of CSI sequences of mixed kinds (and text between them) fed whole, cut into
 * two feeds at every position, and a byte at a time.
 *
 * The parser hands sequences whose "ESC [" and the 33 bytes after lie in the feed to the grid's handlers by
 * final byte (vt_sink.csi_bytes_final), and when another "ESC [" follows one (after a sequence or a run of
 * text), it finds the next one's length and final byte before calling the handler of this one (csi_run in
 * vt/parser.c); a feed of one byte leaves everything to the table machine. Random streams of the kinds the
 * handlers take (cursor moves, CUP, ED, EL, SGR) back to back, the kinds they decline (numbers of 5 digits and
 * more, ':', private markers, intermediates), other CSIs (scroll margins, origin mode, insert and delete,
 * reports with replies, the alternate screen), sequences cut by C0 controls, CAN, SUB, ESC or a UTF-8 byte,
 * more than 16 parameters or 32 bytes, huge numbers, OSC and DCS strings, ESC sequences and RIS, must leave the
 * same cells, styles, wrap flags, cursor, pen, modes, title and replies all three ways, and the parser in the
 * same state (a probe after the stream). Each cut feed lies in a buffer of its own followed by other
 * sequences, so that a path reading or taking bytes past its feed shows. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "decline.h"
#include "grid/grid-internal.h"
#include "harness.h"
#include "vt/vt.h"

#define COLS 30
#define ROWS 7

static uint64_t rnd_state = 17;
static uint32_t rnd(uint32_t n)
{
	return t_rnd(&rnd_state, n);
}

/* A number for a move: mostly small, sometimes 0, missing, of 4 or 5+ digits */
static int num(char *o)
{
	switch (rnd(8)) {
	case 0:
		return 0;
	case 1:
		return sprintf(o, "%u", rnd(10000));
	case 2:
		return sprintf(o, "%u", 10000 + rnd(1u << 30));
	case 3:
		return sprintf(o, "0%u", rnd(40));
	default:
		return sprintf(o, "%u", rnd(40));
	}
}

/* A CSI the grid's bytes handlers take (mostly), at o; returns its length */
static int handled(char *o)
{
	int n = sprintf(o, "\033[");
	switch (rnd(8)) {
	case 0:
	case 1:
		n += num(o + n);
		o[n++] = "ABCD"[rnd(4)];
		return n;
	case 2:
	case 3: /* CUP: "", "r", "r;c", ";c", "r;" */
		if (rnd(4))
			n += num(o + n);
		if (rnd(4))
			o[n++] = ';';
		if (rnd(4))
			n += num(o + n);
		if (!rnd(8)) /* a third number, or a second ';' at the end ("r;c;", "r;;") */
			o[n++] = ';', n += rnd(2) ? num(o + n) : 0;
		o[n++] = 'H';
		return n;
	case 4:
		n += sprintf(o + n, "%s", (const char *[]){"", "0", "1", "2", "3", "00"}[rnd(6)]);
		o[n++] = 'J';
		return n;
	case 5:
		n += sprintf(o + n, "%s", (const char *[]){"", "0", "1", "2", "0002", "12345"}[rnd(6)]);
		o[n++] = 'K';
		return n;
	default: /* SGR */
		n += sprintf(o + n, "%s",
			     (const char *[]){"", "0", "1", "7", "31", "42", "38;5;200", "48;2;1;2;3", "38:5:9", "1;4;41",
					      "27"}[rnd(11)]);
		o[n++] = 'm';
		return n;
	}
}

/* Anything else, at o (room for 120 bytes); returns its length */
static int other(char *o)
{
	static const char *const fixed[] = {
		"\033[2;5r", "\033[r", "\033[?6h", "\033[?6l", "\033[?7l", "\033[?7h", "\033[3L", "\033[2M",
		"\033[4@", "\033[3P", "\033[5X", "\033[2S", "\033[T", "\033[7G", "\033[3d", "\033[6n", "\033[c",
		"\033[>c", "\033[?7$p", "\033[2b", "\033[s", "\033[u", "\033[?25l", "\033[?25h", "\033[3 q",
		"\033[?1049h", "\033[?1049l", "\033[?2004h", "\033[4h", "\033[4l", "\033[?5H", "\033[1 H",
		"\033[1:2H", "\033[2;3;4H", "\033[>4;2m", "\033[?1m", "\033[1$K", "\033[?2J", "\033[!p",
		"\033]0;title\007", "\033]2;name\033\\", "\033P$qm\033\\", "\033P$qr\033\\", "\033]0;cut\030",
		"\0337", "\0338", "\033D", "\033M", "\033E", "\033(0q\033(B", "\033#8", "\033c", "\033[5\nC",
		"\033[2\rH", "\033[3\bD", "\033[1;\033[4m", "\033\033[7m", "\033[2\030H", "\033[1\032K", "\033[\xc3\xa9H",
		"\033[12\x7fH", "\033[99999999999C", "\033[4294967297;4294967298H", "\033[", "\033", "\033[?",
	};
	char *s = o;
	switch (rnd(6)) {
	case 0: /* more than 16 parameters, or more than 32 bytes of them */ {
		int n = sprintf(o, "\033[");
		for (int i = 0, m = 10 + (int)rnd(14); i < m; i++)
			n += sprintf(o + n, "%u;", rnd(3));
		o[n++] = "HmKC"[rnd(4)];
		return n;
	}
	case 1: /* text */
		return sprintf(o, "%.*s", 1 + (int)rnd(COLS + 4), "the quick brown fox jumps over the lazy dog");
	case 2:
		return sprintf(o, "%s", (const char *[]){"x", "\xe4\xb8\xad", "\r\n", "\n", "\b", "\t", "\r"}[rnd(7)]);
	default:
		return sprintf(s, "%s", fixed[rnd(sizeof(fixed) / sizeof(fixed[0]))]);
	}
}

/* A stream of about len bytes at buf (room for len + 200): runs of handled sequences back to back, text
 * before some of them, the rest between the runs */
static int stream(char *buf, int len)
{
	int n = 0;
	while (n < len) {
		unsigned k = rnd(10);
		if (k < 5) {
			for (int m = 1 + (int)rnd(6); m-- > 0;)
				n += handled(buf + n);
		} else if (k < 7) {
			n += sprintf(buf + n, "%.*s", 1 + (int)rnd(8), "abcdefgh");
			n += handled(buf + n);
		} else {
			n += other(buf + n);
		}
	}
	return n;
}

static int compare(struct t_term *a, struct t_term *b, const char *what)
{
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	bool cur = t_same_cursor(a->g, b->g);
	CHECK(cur, "%s: cursor %d,%d vs %d,%d", what, ca.x, ca.y, cb.x, cb.y);
	const struct grid_style *pa = &a->g->pen, *pb = &b->g->pen;
	bool pen = t_same_style_values(pa, pb);
	CHECK(pen, "%s: pen fg %x/%x bg %x/%x attrs %x/%x", what, pa->fg, pb->fg, pa->bg, pb->bg, pa->attrs, pb->attrs);
	bool modes = t_same_modes(a->g, b->g);
	CHECK(modes, "%s: modes", what);
	CHECK(strcmp(a->reply, b->reply) == 0, "%s: replies \"%s\" vs \"%s\"", what, a->reply, b->reply);
	CHECK(strcmp(a->title, b->title) == 0, "%s: title \"%s\" vs \"%s\"", what, a->title, b->title);
	if (!cur || !pen || !modes || strcmp(a->reply, b->reply) || strcmp(a->title, b->title))
		return 1;
	for (int y = 0; y < ROWS; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		CHECK(grid_row_wrapped(a->g, y) == grid_row_wrapped(b->g, y), "%s row %d: wrap flag", what, y);
		for (int x = 0; x < COLS; x++) {
			bool same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width &&
				    t_same_style(a->g, &ra[x], b->g, &rb[x]);
			CHECK(same, "%s row %d col %d: \"%s\"", what, y, x, t_row(a, y));
			if (!same) {
				fprintf(stderr, "  bytewise \"%s\"\n", t_row(b, y));
				return 1;
			}
		}
	}
	CHECK(grid_scrollback_lines(a->g) == grid_scrollback_lines(b->g), "%s: scrollback %zu vs %zu", what,
	      grid_scrollback_lines(a->g), grid_scrollback_lines(b->g));
	return grid_scrollback_lines(a->g) != grid_scrollback_lines(b->g);
}

/* The bytes after a cut feed in its buffer: sequences of every handled kind, which nothing may take */
static const char poison[] = "5C\033[3;4H\033[2J\033[K\033[1;31mZ\033[2A\033[B\033[7mQ\033[H\033[m\033[9D\033[1K";

/* A probe fed after the stream: a parser left in another state takes it otherwise */
static const char probe[] = "\033\\\0302;3HP\033[4mQ\033[6n\r\n";

static void reset(struct t_term *t)
{
	t_feed(t, "\033c");
	t->reply_len = 0;
	t->reply[0] = '\0';
	t->title[0] = '\0';
}

/* buf fed to a whole (cut < 0) or in two feeds cut at cut, to b a byte at a time, after a reset of both;
 * nonzero when they differ */
static int fed_vs_bytes(struct t_term *a, struct t_term *b, const char *buf, int len, int cut)
{
	static const struct t_split sp = {poison, probe, sizeof(poison), sizeof(probe) - 1, compare, true};
	reset(a);
	reset(b);
	t_decline_csi_bytes(b);
	return t_split_vs_bytes(&sp, a, b, buf, len, cut);
}

/* Long streams fed whole */
static void test_whole(void)
{
	static char buf[8192];
	struct t_term *a = t_new(COLS, ROWS, 20), *b = t_new(COLS, ROWS, 20);
	for (int round = 0; round < 400; round++) {
		int len = stream(buf, 200 + (int)rnd(3000));
		if (fed_vs_bytes(a, b, buf, len, -1))
			break;
	}
	t_free(a);
	t_free(b);
}

/* Shorter streams cut into two feeds at every position */
static void test_every_cut(void)
{
	char buf[600];
	struct t_term *a = t_new(COLS, ROWS, 20), *b = t_new(COLS, ROWS, 20);
	int bad = 0;
	for (int round = 0; round < 40 && !bad; round++) {
		int len = stream(buf, 200);
		for (int cut = 0; cut <= len && !bad; cut++)
			bad = fed_vs_bytes(a, b, buf, len, cut);
	}
	t_free(a);
	t_free(b);
}

int main(void)
{
	test_whole();
	test_every_cut();
	return t_done("grid-csi-run");
}
