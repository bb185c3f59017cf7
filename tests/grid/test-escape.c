/* tests/grid/test-escape.c: the escape-heavy fast paths against the general ones.
 *
 * grid/ takes cursor moves and erases straight from their bytes (vt_sink.csi_bytes_final, grid-csi.c) and
 * writes a run of text that fits before the right edge in one segment (grid-print.c). Fed one byte at a
 * time, the same stream goes through the parser's table machine, the parsed CSI and the per-segment print
 * loop instead; fed in random chunks, sequences are split at every place. Random streams of the sequences
 * those paths take and of their near misses (empty, huge, extra or missing parameters, private markers,
 * intermediates, colons, C0 controls, CAN/SUB and DEL inside a sequence, bytes >= 0x80), text hitting the
 * right margin with and without autowrap, wide characters under the cursor and at run edges, scroll and
 * left/right margins, origin mode, insert mode, a designated charset and an active selection must leave
 * the same screens, cursors and wrap flags all three ways.
 */
#include "harness.h"
#include "vt/vt.h"

static uint32_t rng = 12345;

static unsigned rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

/* A parameter: mostly small, sometimes empty, 0, zero-padded, 4-5 digits or absurdly long. */
static int param(char *o, size_t cap)
{
	switch (rnd(12)) {
	case 0: return 0;
	case 1: return snprintf(o, cap, "0");
	case 2: return snprintf(o, cap, "00%u", rnd(30));
	case 3: return snprintf(o, cap, "%u", 1000 + rnd(9000));
	case 4: return snprintf(o, cap, "%u", 10000 + rnd(90000));
	case 5: return snprintf(o, cap, "99999999999999999999");
	default: return snprintf(o, cap, "%u", 1 + rnd(rnd(2) ? 12 : 90));
	}
}

/* One item of the stream appended at o (cap bytes of room), returns its length. */
static size_t item(char *o, size_t cap)
{
	static const char finals[] = "ABCDHJKfGd@PXEF";
	static const char *const odd[] = {
		"?", ">", " ", "!", ":", ";;", "\x18", "\x1a", "\x7f", "\x08", "\r", "\n", "\x0b", "\xc3\xa9", "\x1b[",
	};
	static const char *const words[] = {
		"x", "ab", "hello", "0123456789", "abcdefghijklmnopqrstuvwxyz", "\xe4\xb8\xad", "a\344\270\255b",
		"e\xcc\x81", "\xe2\x96\x80", "The quick brown fox jumps over the lazy dog", "~!@#$%^&*()_+{}|:<>?",
		/* DEL, a C0 control and UTF-8 at places of the parser's 32-byte text scan */
		"0123456789abcdefghij\x7fxyz", "0123456789abcdefghijklmnopqrstu\x01vw",
		"0123456789abcdefghijklmnopqrstuv\xc3\xa9", "0123456789abcdef\x7f",
	};
	static const char *const modes[] = {
		"\033[?6h", "\033[?6l", "\033[?7l", "\033[?7h", "\033[4h", "\033[4l", "\033(0", "\033(B",
		"\033[3;9r", "\033[r", "\033[?69h\033[5;30s", "\033[?69l", "\033[?69h\033[s", "\033[2;20r\033[?6h",
		/* every other change of what GL maps: shifts, single shifts, saved and reset charsets, screens */
		"\033)0\016", "\017", "\033*0\033N", "\033+0\033O", "\033*0\033n", "\033o", "\0337", "\0338",
		"\033[!p", "\033[?1049h", "\033[?1049l", "\033(A",
	};
	size_t k = 0;
	unsigned kind = rnd(100);
	if (kind < 40) {
		/* a move or erase, sometimes a near miss */
		k += (size_t)snprintf(o, cap, "\033[");
		unsigned np = rnd(4);
		if (rnd(16) == 0)
			k += (size_t)snprintf(o + k, cap - k, "%s", odd[rnd(sizeof(odd) / sizeof(odd[0]))]);
		for (unsigned i = 0; i < np; i++) {
			if (i)
				o[k++] = rnd(20) ? ';' : ':';
			k += (size_t)param(o + k, cap - k);
			if (rnd(24) == 0)
				k += (size_t)snprintf(o + k, cap - k, "%s", odd[rnd(sizeof(odd) / sizeof(odd[0]))]);
		}
		o[k++] = finals[rnd(rnd(3) ? 7 : sizeof(finals) - 1)];
	} else if (kind < 75) {
		/* text: letters up to a screen width and more, words with wide and combining characters */
		if (rnd(3)) {
			unsigned n = 1 + rnd(rnd(4) ? 24 : 90);
			for (unsigned i = 0; i < n; i++)
				o[k++] = (char)('a' + rnd(26));
		} else {
			k += (size_t)snprintf(o, cap, "%s", words[rnd(sizeof(words) / sizeof(words[0]))]);
		}
	} else if (kind < 88) {
		/* colours (an erase takes the background) and attributes */
		static const char *const sgr[] = {"\033[48;2;%u;1;2m", "\033[38;5;%um", "\033[%um", "\033[0m",
						  "\033[4%u;1m", "\033[1;3;4;38;5;%u;48;2;1;2;3m"};
		k += (size_t)snprintf(o, cap, sgr[rnd(6)], rnd(8));
	} else if (kind < 95) {
		static const char *const c0[] = {"\r\n", "\r", "\n", "\b", "\t", "\b\b\b"};
		k += (size_t)snprintf(o, cap, "%s", c0[rnd(6)]);
	} else if (kind < 97) {
		k += (size_t)snprintf(o, cap, "%s", modes[rnd(sizeof(modes) / sizeof(modes[0]))]);
	} else {
		/* sequences whose handlers change the parser's or grid's state (reset, conformance level,
		 * C1 form of replies, 80/132 columns, a size request), replies, back-to-back runs of CSIs
		 * (the parser may find the next one's length and final before the current one's call), a
		 * CSI of 32 and of 33 bytes, more than 16 parameters */
		static const char *const state[] = {
			"\033[!p", "\033[62;1\"p", "\033[61\"p", "\033[64;2\"p", "\033 G", "\033 F", "\033c",
			"\033[6n", "\033[c", "\033[>c", "\033[?40h\033[?3h", "\033[?3l", "\033[8;20;70t", "\033[5b",
			"\033[?1049h\033[2;3Hx\033[K\033[?1049l", "\033[A\033[B\033[C\033[D\033[2K\033[3G\033[1;1H",
			"\033[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20m",
			"\033[01;02;03;04;05;06;07;08;09;10;11;12;1H", "\033[01;02;03;04;05;06;07;08;09;10;11;12;13H",
			"\033[5;5H\033[?25l\033[?25h\033[6n\033[3;3H\033[5n", "\033[2J\033[H\033[0K\033[!p\033[2;2H",
			"\033[38:2::1:2:3m\033[12X\033[2@\033[3P\033[L\033[M", "\033[?6h\033[1;1H\033[?6l\033[24;80H",
			"\033[1$p\033[?1$p\033[>0q\033[18t\033[14t", "\033[?1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18h",
		};
		k += (size_t)snprintf(o, cap, "%s", state[rnd(sizeof(state) / sizeof(state[0]))]);
	}
	return k;
}

static int compare(struct t_term *a, struct t_term *b, const char *what, int block)
{
	int bad = 0, cols = grid_cols(a->g), rows = grid_rows(a->g);
	if (grid_cols(b->g) != cols || grid_rows(b->g) != rows) {
		fprintf(stderr, "block %d, %s: size %dx%d vs %dx%d\n", block, what, cols, rows, grid_cols(b->g),
			grid_rows(b->g));
		return 1;
	}
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	if (ca.x != cb.x || ca.y != cb.y) {
		fprintf(stderr, "block %d, %s: cursor %d,%d vs %d,%d\n", block, what, ca.x, ca.y, cb.x, cb.y);
		bad++;
	}
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *p = grid_row(a->g, y), *q = grid_row(b->g, y);
		bad += grid_row_wrapped(a->g, y) != grid_row_wrapped(b->g, y);
		for (int x = 0; x < cols; x++) {
			const struct grid_style *sp = grid_style(a->g, p[x].style), *sq = grid_style(b->g, q[x].style);
			if (!t_same_cp(a->g, &p[x], b->g, &q[x]) || p[x].width != q[x].width || sp->fg != sq->fg || sp->bg != sq->bg ||
			    sp->attrs != sq->attrs) {
				if (bad < 4)
					fprintf(stderr, "block %d, %s: cell %d,%d %x/%d vs %x/%d\n", block, what, x, y,
						p[x].cp, p[x].width, q[x].cp, q[x].width);
				bad++;
			}
		}
	}
	return bad;
}

static void test_streams(int cols, int rows, int blocks)
{
	struct t_term *whole = t_new(cols, rows, 50), *bytes = t_new(cols, rows, 50), *chunks = t_new(cols, rows, 50);
	int bad = 0;
	static char buf[16384];
	for (int blk = 0; blk < blocks; blk++) {
		size_t n = 0;
		int items = 1 + (int)rnd(200);
		for (int i = 0; i < items && n + 512 < sizeof(buf); i++)
			n += item(buf + n, sizeof(buf) - n);
		grid_feed(whole->g, (const uint8_t *)buf, n);
		for (size_t i = 0; i < n; i++)
			grid_feed(bytes->g, (const uint8_t *)buf + i, 1);
		for (size_t i = 0; i < n;) {
			size_t k = 1 + rnd(rnd(2) ? 8 : 80);
			if (k > n - i)
				k = n - i;
			grid_feed(chunks->g, (const uint8_t *)buf + i, k);
			i += k;
		}
		bad += compare(whole, bytes, "whole vs bytes", blk);
		bad += compare(whole, chunks, "whole vs chunks", blk);
		/* the same replies (DSR, DA, DECRQM, size reports) in the same form (7- or 8-bit C1) */
		for (int i = 0; i < 2; i++) {
			struct t_term *t = i ? chunks : bytes;
			if (t->reply_len != whole->reply_len || memcmp(t->reply, whole->reply, t->reply_len)) {
				fprintf(stderr, "block %d: replies differ (%zu vs %zu bytes)\n", blk, whole->reply_len,
					t->reply_len);
				bad++;
			}
			t->reply_len = 0;
		}
		whole->reply_len = 0;
		/* now and then a selection, on all three */
		if (rnd(8) == 0) {
			int x = (int)rnd((unsigned)cols), y = (int)rnd((unsigned)rows);
			struct t_term *t[3] = {whole, bytes, chunks};
			for (int i = 0; i < 3; i++) {
				if (grid_has_selection(t[i]->g)) {
					grid_select_clear(t[i]->g);
				} else {
					grid_select_start(t[i]->g, x, y, GRID_SELECT_CELL);
					grid_select_extend(t[i]->g, cols - 1, y);
				}
			}
		}
		if (bad > 20)
			break;
	}
	CHECK(bad == 0, "%dx%d: %d differences between whole, byte-by-byte and chunked feeding", cols, rows, bad);
	t_free(whole);
	t_free(bytes);
	t_free(chunks);
}

/* The number parser of the moves (4 digits at once) at its edges, against the values the parser gives. */
static void test_move_numbers(void)
{
	static const char *const seqs[] = {
		"\033[0005;0012H", "\033[9999;9999H", "\033[10000;1H", "\033[1;10000H", "\033[;H", "\033[;7H",
		"\033[7;H", "\033[7H", "\033[H", "\033[1;2;3H", "\033[1:2H", "\033[?5H", "\033[5 H", "\033[5\x18H",
		"\033[5\x1a;3H", "\033[5\x7f;3H", "\033[5\x08;3H", "\033[0C", "\033[C", "\033[0000C", "\033[12345C",
		"\033[9/C", "\033[9:C", "\033[;C", "\033[1;C", "\033[3K", "\033[0001K", "\033[2J", "\033[\xc3\xa9H",
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		struct t_term *a = t_new(80, 24, 0), *b = t_new(80, 24, 0);
		char s[128];
		/* text before and after so that every erase and move shows; padding for the bulk path */
		int n = snprintf(s, sizeof(s), "\033[10;10H\033[41mabcdefghij%sXY                                    ",
				 seqs[i]);
		grid_feed(a->g, (const uint8_t *)s, (size_t)n);
		for (int k = 0; k < n; k++)
			grid_feed(b->g, (const uint8_t *)s + k, 1);
		int d = compare(a, b, seqs[i] + 1, (int)i);
		if (d)
			fprintf(stderr, "sequence %zu differs\n", i);
		bad += d;
		t_free(a);
		t_free(b);
	}
	CHECK(bad == 0, "%d cells differ on the move numbers' edges", bad);
}

int main(void)
{
	/* both copies of the parser's feed loop (the AVX2 one where the CPU has it: vt__no_avx2) */
	for (int base = 0; base < 2; base++) {
		vt__no_avx2 = base;
		test_move_numbers();
		test_streams(80, 24, 3000);
		test_streams(212, 10, 1000);
		test_streams(7, 5, 2000);
	}
	return t_done("grid-escape");
}
