/* tests/grid/test-utf8-split.c: UTF-8 text fed whole against the same bytes fed one at a time.
 *
 * grid-utf8.c decodes text of four bytes or more while it writes the cells (vt_sink.print_utf8); a feed of
 * one byte leaves every character to the parser's byte machine and grid__print. Random mixes of valid
 * characters of every length (ASCII, two-byte letters and marks, three-byte wide and narrow ones, emoji with
 * VS16, modifiers and ZWJ) and invalid bytes (lone continuations, truncated sequences, overlong forms,
 * surrogates, C1 controls, bytes above U+10FFFF: U+FFFD per maximal subpart) must give the same cells,
 * clusters, cursor and wrap flags both ways, on a row wide enough for long runs and on narrow ones (wide
 * characters at the edge), and when the whole text is cut into two feeds at every position. The fixed pieces
 * include the edges of put_text's asm paths for three- and four-byte characters (grid-utf8-asm.h). */
#include "harness.h"
#include "vt/vt.h"

static uint32_t seed = 11;
static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

/* One random piece of text at out (room for 8 bytes); returns its length. */
static int piece(char *out)
{
	static const char *const fixed[] = {
		"\xcc\x81", "\xcd\xaf", "\xcd\xb0", "\xd2\x83", "\xe2\x80\x8d", "\xef\xb8\x8f", "\xf0\x9f\x98\x80",
		"\xf0\x9f\x8f\xbd", "\xf0\x9f\x91\xa9", "\xe2\x9d\xa4", "\xe3\x82\x99", "\xe3\x82\x97", "\xe4\xb7\x80",
		"\xea\xb0\x80", "\xc2\xad", "\xc2\x85", "\xed\xa0\x80", "\xe0\x80\xaf", "\xc0\xaf", "\xc1\xbf",
		"\xf4\x90\x80\x80", "\xf8\x88\x80\x80", "\xe4\xb8", "\xf0\x9f\x98", "\x80", "\xbf", "\xff", "\xfe",
		"\r\n", "\r", "\b", "\t", "\x7f", " ", "\xe9\xbf\xbf", "\xe4\xb8\x80", "\xe3\x81\x80", "\xe3\x83\xbf",
		/* the edges of put_text's CJK loop (U+4E00..U+9FFF in the asm): just outside, bad continuations
		 * in either byte, a mark on a CJK character */
		"\xe4\xb7\xbf", "\xea\x80\x80", "\xe5\x41\x80", "\xe5\x80\xc0", "\xe9\xbf\x7f", "\xe4\xb8\xad\xcc\x81",
		"\xe6\x96\x87\xe5\xad\x97",
		/* and of its four-byte path: an overlong form, a wide one that is no emoji (U+20000), a narrow
		 * one (U+10000), bad continuations, an emoji with a modifier */
		"\xf0\x8f\xbf\xbf", "\xf0\xa0\x80\x80", "\xf0\x90\x80\x80", "\xf0\x9f\x98\x41", "\xf0\x41\x98\x80",
		"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbb",
	};
	uint32_t cp;
	switch (rnd(10)) {
	case 0:
	case 1: /* printable ASCII */
		out[0] = (char)(0x20 + rnd(0x5f));
		return 1;
	case 2:
	case 3: /* any two-byte character U+0080..U+07FF */
		cp = 0x80 + rnd(0x780);
		break;
	case 4:
	case 5: /* a three-byte character, mostly CJK and kana */
		cp = rnd(3) ? 0x3000 + rnd(0x7000) : 0x800 + rnd(0xf800);
		if (cp - 0xd800 < 0x800)
			cp = 0x4e00;
		break;
	case 6: /* a lead byte of any length with random continuations */ {
		int n = 1 + (int)rnd(3);
		out[0] = (char)(0xc0 + rnd(0x40));
		for (int i = 1; i <= n; i++)
			out[i] = (char)(rnd(4) ? 0x80 + rnd(0x40) : rnd(0x100));
		return n + 1;
	}
	default:
		return (int)strlen(strcpy(out, fixed[rnd(sizeof(fixed) / sizeof(fixed[0]))]));
	}
	return (int)vt_utf8_encode(cp, out);
}

static int compare(struct t_term *a, struct t_term *b, const char *what)
{
	int cols = grid_cols(a->g), rows = grid_rows(a->g);
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	CHECK(ca.x == cb.x && ca.y == cb.y, "%s: cursor %d,%d vs %d,%d", what, ca.x, ca.y, cb.x, cb.y);
	if (ca.x != cb.x || ca.y != cb.y)
		return 1;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		CHECK(grid_row_wrapped(a->g, y) == grid_row_wrapped(b->g, y), "%s row %d: wrap flag", what, y);
		for (int x = 0; x < cols; x++) {
			bool same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width &&
				    ra[x].style == rb[x].style;
			CHECK(same, "%s row %d col %d: whole \"%s\"", what, y, x, t_row(a, y));
			if (!same) {
				fprintf(stderr, "  bytewise \"%s\"\n", t_row(b, y));
				return 1;
			}
		}
	}
	return 0;
}

/* buf fed to a in two feeds cut at cut, to b a byte at a time; nonzero when they differ */
static int whole_vs_bytes(struct t_term *a, struct t_term *b, const char *buf, int len, int cut)
{
	t_feed(a, "\033c");
	t_feed(b, "\033c");
	grid_feed(a->g, (const uint8_t *)buf, (size_t)cut);
	grid_feed(a->g, (const uint8_t *)buf + cut, (size_t)(len - cut));
	for (int k = 0; k < len; k++)
		grid_feed(b->g, (const uint8_t *)buf + k, 1);
	char what[32];
	snprintf(what, sizeof(what), "cut %d", cut);
	if (compare(a, b, what)) {
		t_dump(buf, len);
		return 1;
	}
	return 0;
}

/* Long random texts, mostly of what a row of text is made of, on wide and narrow grids */
static void test_random_mixes(void)
{
	static char buf[8192];
	for (int round = 0; round < 300; round++) {
		int cols = round % 3 ? 40 + (int)rnd(200) : 3 + (int)rnd(30), rows = 2 + (int)rnd(6);
		struct t_term *a = t_new(cols, rows, 50), *b = t_new(cols, rows, 50);
		int len = 0, n = 1 + (int)rnd(600);
		for (int k = 0; k < n && len < (int)sizeof(buf) - 8; k++) {
			/* runs of plain letters of one script or mixed, as words are */
			if (rnd(3) == 0) {
				static const char *const runs[] = {"\xc3\xa9", "\xce\xb1", "\xd0\x96", "\xe4\xb8\xad", "\xe3\x81\x82", "a"};
				const char *r = runs[rnd(6)];
				for (int m = (int)rnd(12); m-- > 0 && len < (int)sizeof(buf) - 8;)
					len += (int)strlen(strcpy(buf + len, r));
			} else {
				len += piece(buf + len);
			}
		}
		int cut = (int)rnd((uint32_t)len + 1);
		if (whole_vs_bytes(a, b, buf, len, cut))
			round = 300;
		t_free(a);
		t_free(b);
	}
}

/* Shorter texts cut at every position */
static void test_every_cut(void)
{
	char buf[256];
	struct t_term *a = t_new(60, 4, 10), *b = t_new(60, 4, 10);
	int bad = 0;
	for (int round = 0; round < 60 && !bad; round++) {
		int len = 0;
		while (len < 120)
			len += piece(buf + len);
		for (int cut = 0; cut <= len && !bad; cut++)
			bad = whole_vs_bytes(a, b, buf, len, cut);
	}
	t_free(a);
	t_free(b);
}

/* The scrollback of a and b the same, line by line; nonzero when not */
static int compare_history(struct t_term *a, struct t_term *b)
{
	size_t n = grid_scrollback_lines(a->g);
	CHECK(n == grid_scrollback_lines(b->g), "scrollback lines %zu vs %zu", n, grid_scrollback_lines(b->g));
	if (n != grid_scrollback_lines(b->g))
		return 1;
	static struct grid_cell ra[512];
	for (size_t i = 0; i < n; i++) {
		int la = 0, lb = 0;
		const struct grid_cell *r = grid_scrollback_row(a->g, i, &la);
		memcpy(ra, r, (size_t)la * sizeof(ra[0]));
		const struct grid_cell *rb = grid_scrollback_row(b->g, i, &lb);
		CHECK(la == lb, "scrollback line %zu: %d vs %d cells", i, la, lb);
		if (la != lb)
			return 1;
		for (int x = 0; x < la; x++) {
			bool same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width &&
				    ra[x].style == rb[x].style;
			CHECK(same, "scrollback line %zu col %d", i, x);
			if (!same)
				return 1;
		}
	}
	return 0;
}

/* Lines of mixed text with runs of empty lines between them (grid__print_utf8 pushes an empty line after a
 * CR LF itself, blanking what the line before left on the recycled row), and what must not go that way: a
 * bare CR or LF, CR CR LF, a CR LF at the end of a feed, a scrolling region, a line of ASCII alone. Screen and
 * scrollback must be what the byte-at-a-time feed gives. */
static void test_empty_lines(void)
{
	static char buf[4096];
	static const char *const words[] = {"\xc3\xa9t\xc3\xa9", "\xce\xb1\xce\xb2", "\xe4\xb8\xad\xe6\x96\x87",
					    ("a\xcc\x81" "b"), "\xf0\x9f\x98\x80", "word", "\xd0\x96\xd0\xb8"};
	static const char *const ends[] = {"\r\n", "\r\n\r\n", "\r\n\r\n\r\n\r\n\r\n", "\r\n\r\n\r", "\r\r\n\r\n",
					   "\r\n\n\r\n", "\n\r\n\r\n", "\r\n\r\nascii only here\r\n"};
	for (int round = 0; round < 200; round++) {
		int cols = 10 + (int)rnd(60), rows = 2 + (int)rnd(5);
		struct t_term *a = t_new(cols, rows, 40), *b = t_new(cols, rows, 40);
		int len = 0;
		if (round % 7 == 3)
			len += (int)strlen(strcpy(buf, "\033[1;2r"));
		while (len < (int)sizeof(buf) - 200) {
			for (int w = (int)rnd(6); w-- > 0;) {
				len += (int)strlen(strcpy(buf + len, words[rnd(7)]));
				buf[len++] = ' ';
			}
			len += (int)strlen(strcpy(buf + len, ends[rnd(8)]));
		}
		t_feed(a, "\033c");
		t_feed(b, "\033c");
		int cut = (int)rnd((uint32_t)len + 1);
		grid_feed(a->g, (const uint8_t *)buf, (size_t)cut);
		grid_feed(a->g, (const uint8_t *)buf + cut, (size_t)(len - cut));
		for (int k = 0; k < len; k++)
			grid_feed(b->g, (const uint8_t *)buf + k, 1);
		if (compare(a, b, "empty lines") || compare_history(a, b))
			round = 200;
		t_free(a);
		t_free(b);
	}
}

/* Words of ASCII letters with combining marks U+0300..U+036F after about half of them (sometimes two, sometimes
 * a Greek letter U+0370..U+037F that only looks like one), as unicode.bin has them, with spaces, the odd two-byte
 * or CJK letter and row ends at every place: the AVX-512 block of grid-utf8-asm.h that takes such text after a
 * mark (16 bytes at a time, a mark's two bytes may straddle its end) against the byte machine. */
static void test_mark_words(void)
{
	static char buf[4096];
	for (int round = 0; round < 400; round++) {
		int cols = round % 2 ? 3 + (int)rnd(40) : 40 + (int)rnd(200), rows = 2 + (int)rnd(4);
		struct t_term *a = t_new(cols, rows, 20), *b = t_new(cols, rows, 20);
		int len = 0;
		while (len < (int)sizeof(buf) - 16) {
			uint32_t r = rnd(20);
			if (r < 12) {
				buf[len++] = (char)('a' + rnd(26));
				continue;
			}
			if (r < 17) {
				uint32_t cp = rnd(16) ? 0x300 + rnd(0x70) : 0x370 + rnd(0x10);
				len += (int)vt_utf8_encode(cp, buf + len);
				continue;
			}
			if (r < 19) {
				buf[len++] = ' ';
				continue;
			}
			len += (int)vt_utf8_encode(rnd(2) ? 0xe9 : 0x4e2d, buf + len);
		}
		int cut = (int)rnd((uint32_t)len + 1);
		if (whole_vs_bytes(a, b, buf, len, cut))
			round = 400;
		t_free(a);
		t_free(b);
	}
}

int main(void)
{
	test_random_mixes();
	test_every_cut();
	test_empty_lines();
	test_mark_words();
	return t_done("grid-utf8-split");
}
