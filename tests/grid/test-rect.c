/* tests/grid/test-rect.c: DECRQCRA (CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y -> DCS Pid ! ~ XXXX ST).
 * Reference: xterm ctlseqs (DECRQCRA) and xterm's default checksum (screen.c xtermCheckRect, checksumExtension
 * 0): the low byte of each character, video attributes added, blanks trimmed but the first cell, negated, 16
 * bits. The expected values are xterm 379's, measured with tests/tools/xterm-replies.py (session 43; the
 * earlier ones, worked out by hand from xterm's source of a later patch, differed for non-ASCII characters,
 * protection, invisible text and a blank first cell). */
#include "harness.h"

/* Sends the request and checks the whole reply. */
static void expect(struct t_term *t, const char *req, const char *want, int line)
{
	t->reply_len = 0;
	t->reply[0] = 0;
	t_feedf(t, "\033[%s*y", req);
	t_checks++;
	if (strcmp(t->reply, want) != 0) {
		t_fails++;
		fprintf(stderr, "%s:%d: FAIL DECRQCRA %s: got \\e%s want \\e%s\n", __FILE__, line, req,
			t->reply[0] ? t->reply + 1 : "", want + 1);
	}
}
#define EXPECT(t, req, want) expect(t, req, want, __LINE__)

/* A stream fed, then a request and its reply, step after step. */
struct step {
	const char *feed, *req, *want;
};

static void expect_steps(struct t_term *t, const struct step *s, size_t n, int line)
{
	for (size_t i = 0; i < n; i++) {
		t_feed(t, s[i].feed);
		expect(t, s[i].req, s[i].want, line);
	}
}
#define EXPECT_STEPS(t, s) expect_steps(t, s, sizeof(s) / sizeof(s[0]), __LINE__)

static void test_cells(void)
{
	struct t_term *t = t_new(20, 6, 0);
	/* nothing written anywhere: the first cell counts as a space, the other blanks are trimmed */
	EXPECT(t, "1;1;1;1;6;20", "\033P1!~FFE0\033\\");
	/* one cell, as esctest reads the screen: 0x10000 - 'A' */
	t_feed(t, "ABC");
	EXPECT(t, "7;1;1;1;1;1", "\033P7!~FFBF\033\\");
	/* a row: -(0x41 + 0x42 + 0x43) */
	EXPECT(t, "2;1;1;1;1;20", "\033P2!~FF3A\033\\");
	/* a printed space counts, an erased cell does not: "a b" = 0xe3, then b erased = 0x81 (xterm 379
	 * counts an ECH-erased cell as a space, 0xa1: a divergence kept, docs/conformance.md) */
	t_feed(t, "\033[2;1Ha b");
	EXPECT(t, "3;1;2;1;2;20", "\033P3!~FF1D\033\\");
	t_feed(t, "\033[2;3H\033[X");
	EXPECT(t, "3;1;2;1;2;20", "\033P3!~FF7F\033\\");
	/* attributes: bold+underline a = 0xf1, inverse+blink space = 0x80, invisible+protected b = 0x20 (a
	 * space; neither adds a weight), red c = 0x63 (colours do not count), italic/strike/dim/double underline
	 * d = 0x64: 0x258 */
	t_feed(t, "\033[3;1H\033[1;4ma\033[0;7;5m \033[0;8m\033[1\"qb\033[0\"q\033[0;31mc\033[0;3;9;2;21md\033[m");
	EXPECT(t, "4;1;3;1;3;20", "\033P4!~FDA8\033\\");
	/* low bytes: wide U+6A4B = 0x4b and 0xff (its right half), e-acute = 0xe9, euro U+20AC = 0xac, DEC
	 * graphics 'q' (stored as U+2500) = 0: 0x2df */
	t_feed(t, "\033[4;1H\xe6\xa9\x8b\xc3\xa9\xe2\x82\xac\033(0q\033(B");
	EXPECT(t, "5;1;4;1;4;20", "\033P5!~FD21\033\\");
	/* an invisible character counts as a space with its other attributes (bold, underline, blink, inverse:
	 * 0x110), an invisible wide character's right half as a blank (trimmed unless first) */
	static const struct step hidden[] = {
		{"\033[5;1H\033[8;1;4;5;7ma\033[m", "6;1;5;1;5;1", "\033P6!~FEF0\033\\"},
		{"\033[5;1H\033[8;4m\xe4\xb8\xadx\033[m", "6;1;5;1;5;3", "\033P6!~FFA0\033\\"},
		{"", "6;1;5;2;5;3", "\033P6!~FFB0\033\\"},
	};
	EXPECT_STEPS(t, hidden);
	t_free(t);
}

static void test_rectangles(void)
{
	struct t_term *t = t_new(10, 5, 0);
	/* DECALN fills 50 cells with 'E' (0x45 * 50 = 0xd7a); one cell is then 'X' (0xd8d) */
	t_feed(t, "\033#8\033[2;2HX");
	/* defaults: the whole screen, an omitted Pid is 0; 0 is the default for the edges too */
	EXPECT(t, "", "\033P0!~F273\033\\");
	EXPECT(t, "9;1;0;0;0;0", "\033P9!~F273\033\\");
	/* the page is ignored (one page); Pid and Pp alone are not the rectangle's corner (xterm's quirk) */
	EXPECT(t, "9;7", "\033P9!~F273\033\\");
	/* edges beyond the screen are clamped; a huge value does not overflow */
	EXPECT(t, "1;1;1;1;99;65535", "\033P1!~F273\033\\");
	EXPECT(t, "1;1;5;10;99999999999;99", "\033P1!~FFBB\033\\");
	/* an empty rectangle still gets an answer, 0000 */
	EXPECT(t, "1;1;3;1;2;10", "\033P1!~0000\033\\");
	EXPECT(t, "1;1;1;5;5;4", "\033P1!~0000\033\\");
	/* a top or left edge past the screen is an empty rectangle, not clamped to the last row or column (xterm
	 * 379, measured with tests/tools/xterm-replies.py --crandom in session 47: `\e#8\e[1;1;9;1;9;20*y` on
	 * 8 rows answers 0000, as do a left edge of 21 on 20 columns and both in origin mode; the bottom and
	 * right edges are clamped), as the rectangle editing functions take it */
	EXPECT(t, "1;1;6;1;6;10", "\033P1!~0000\033\\");
	EXPECT(t, "1;1;1;11;5;11", "\033P1!~0000\033\\");
	EXPECT(t, "1;1;99999999999;1;99;99", "\033P1!~0000\033\\");
	/* origin mode: coordinates from the margins' corner, clamped to the margins (rows 2-3, cols 2-4) */
	t_feed(t, "\033[?69h\033[2;3r\033[2;4s\033[?6h");
	EXPECT(t, "1;1;1;1;1;1", "\033P1!~FFA8\033\\");
	/* the region: X + 5 E = 0x1b1 */
	EXPECT(t, "1;1", "\033P1!~FE4F\033\\");
	EXPECT(t, "1;1;1;1;99;99", "\033P1!~FE4F\033\\");
	/* past the margins' bottom row or right column (rows 2-3, cols 2-4): empty, as past the screen */
	EXPECT(t, "1;1;3;1;3;3", "\033P1!~0000\033\\");
	EXPECT(t, "1;1;1;4;2;4", "\033P1!~0000\033\\");
	/* without origin mode the same parameters are the screen's */
	t_feed(t, "\033[?6l");
	EXPECT(t, "1;1;1;1;1;1", "\033P1!~FFBB\033\\");
	/* the alternate screen is what is shown: its own cells */
	t_feed(t, "\033[?1049h\033[Hz");
	EXPECT(t, "1", "\033P1!~FF86\033\\");
	t_feed(t, "\033[?1049l");
	EXPECT(t, "1", "\033P1!~F273\033\\");
	t_free(t);
}

/* XTCHECKSUM (CSI Ps # y) selects xterm's other variants: 1 positive, 2 no attributes, 4 no trimming (cells
 * never written count as spaces, combining marks count), 8 cells never written count as spaces but are
 * trimmed (only the first cell keeps one), 4 and 8 together cells never written count nothing, 16 whole
 * code points. RIS goes back to DEC's (0). */
static void test_variants(void)
{
	struct t_term *t = t_new(10, 3, 0);
	/* a, (nothing), bold b, (nothing), e + U+0301, nothing up to the edge */
	t_feed(t, "a\033[C\033[1mb\033[m\033[Ce\xcc\x81\r\n\xc3\xa9\xe2\x82\xac\xe6\xa9\x8b");
	EXPECT(t, "1;1;1;1;1;10", "\033P1!~FE58\033\\"); /* -(0x61 + 0xe2 + 0x65) */
	t_feed(t, "\033[1#y");
	EXPECT(t, "1;1;1;1;1;10", "\033P1!~01A8\033\\");
	t_feed(t, "\033[3#y");
	EXPECT(t, "1;1;1;1;1;10", "\033P1!~0128\033\\"); /* bold not added */
	/* no trimming: 7 blank cells as spaces, the mark U+0301 counts */
	t_feed(t, "\033[5#y");
	EXPECT(t, "1;1;1;1;1;10", "\033P1!~0589\033\\");
	/* blanks as spaces, trimmed: only a blank first cell counts */
	t_feed(t, "\033[9#y");
	EXPECT(t, "1;1;1;2;1;3", "\033P1!~0102\033\\");
	/* the same without 8: xterm 379 counts a blank first cell anyway */
	t_feed(t, "\033[1#y");
	EXPECT(t, "1;1;1;2;1;3", "\033P1!~0102\033\\");
	/* whole code points: e-acute 0xe9, euro 0x20ac, U+6A4B, its right half 0xffff (xterm's placeholder there,
	 * whole too: xterm 379 answers 8BDF, measured with tests/tools/xterm-replies.py in session 47); low
	 * bytes: 0xe9 + 0xac + 0x4b + 0xff */
	EXPECT(t, "1;1;2;1;2;10", "\033P1!~02DF\033\\");
	t_feed(t, "\033[17#y");
	EXPECT(t, "1;1;2;1;2;10", "\033P1!~8BDF\033\\");
	/* 4 and 8 together: cells never written count nothing, blank or not in the middle (xterm 379, session 47:
	 * `a\e[C\e[1mb\e[m\e[Cq\e[12#y\e[1;1;1;1;1;10*y` answers FE4C, a + bold b + q) */
	static const struct step notrim_drawn[] = {
		{"\033[3;1Ha\033[C\033[1mb\033[m\033[Cq\033[12#y", "1;1;3;1;3;10", "\033P1!~FE4C\033\\"},
		{"", "1;1;3;2;3;10", "\033P1!~FEAD\033\\"},
		{"\033[13#y", "1;1;3;6;3;10", "\033P1!~0000\033\\"},
	};
	EXPECT_STEPS(t, notrim_drawn);
	/* RIS and an omitted parameter: DEC's again */
	t_feed(t, "\033c\033[1#yA\033[#y");
	EXPECT(t, "1;1;1;1;1;1", "\033P1!~FFBF\033\\");
	t_feed(t, "\033[1#y\033cA");
	EXPECT(t, "1;1;1;1;1;1", "\033P1!~FFBF\033\\");
	t_free(t);
}

/* XTCHECKSUM 16 (whole code points) keeps DEC's reading of invisible text: an invisible character counts as a
 * space with its attributes, an invisible wide character's right half as a blank (xterm 379, measured with
 * tests/tools/xterm-replies.py in session 47: the stream below answers 00A0, 00C0 and 00E0; they counted
 * the characters themselves, 00E4 and 666A), a right half nothing under 4 and 8 (it counted a space). */
static void test_variants_hidden(void)
{
	struct t_term *t = t_new(10, 2, 0);
	static const struct step hidden[] = {
		{"\033[1;8md\033[m\033[8m\xe6\x96\x87\033[m\033[17#y", "1;1;1;1;1;1", "\033P1!~00A0\033\\"},
		{"", "1;1;1;1;1;3", "\033P1!~00C0\033\\"}, /* the right half trimmed */
		{"\033[21#y", "1;1;1;1;1;3", "\033P1!~00E0\033\\"}, /* and counted without trimming */
		/* but nothing with 4 and 8 together, as a cell never written (xterm: 00C0 for both) */
		{"\033[13#y", "1;1;1;1;1;3", "\033P1!~00C0\033\\"},
		{"\033[29#y", "1;1;1;1;1;4", "\033P1!~00C0\033\\"},
	};
	EXPECT_STEPS(t, hidden);
	t_free(t);
}

/* The rectangle functions (grid-rect-edit.c) given hostile parameters: rectangles outside the screen,
 * upside down, of huge or overflowing numbers, fill characters that are no character, a 1x1 screen. Each
 * either does nothing or is clipped to the screen; nothing is written outside it (ASan watches the cells). */
static void test_edit_hostile(void)
{
	static const char *const nothing[] = {
		"\033[88;5;1;4;10$x",           /* top below the screen */
		"\033[88;1;11;4;12$x",          /* left right of it */
		"\033[88;3;1;2;10$x",           /* top below bottom */
		"\033[88;1;5;4;4$x",            /* left right of right */
		"\033[88;99999999999;1;1;1$x", /* a number past int: clamped, then outside */
		"\033[0;1;1;4;10$x",            /* no character */
		"\033[27;1;1;4;10$x",           /* a control */
		"\033[127;1;1;4;10$x",          /* DEL */
		"\033[155;1;1;4;10$x",          /* a C1 control */
		"\033[769;1;1;4;10$x",          /* a combining mark, U+0301 */
		"\033[55296;1;1;4;10$x",        /* a surrogate, U+D800 */
		"\033[1114112;1;1;4;10$x",      /* past U+10FFFF (clamped to 65535 by the parser) */
		"\033[65535;1;1;4;10$x\033[65534;1;1;4;10$x", /* U+FFFF, U+FFFE: not characters */
		"\033[4294967384;1;1;4;10$x",   /* 2^32 + 'X': no wrap to 'X' */
		"\033[20013;1;1;4;10$x",        /* a wide character, U+4E2D */
		"\033[5;1;9;9$z\033[1;11;4;10${", /* DECERA, DECSERA outside */
		"\033[1;1;4;10;1;5;1$v",        /* DECCRA to a row below the screen */
		"\033[1;1;4;10;1;1;4294967295$v", /* ... to a column past it */
		"\033[5;1;4;10;1;1;1$v",        /* ... from outside */
		"\033[1;1;4;10;99;99$r\033[1;1;4;10$r", /* DECCARA with nothing it knows, with no attribute */
		"\033[9;1;4;10;1$r\033[1;1;4;10;8;30;99999$t", /* outside; nothing DECRARA knows */
		"\033[1;1;4;10$w\033[1;1;4;10$y\033[?1;1;4;10$x\033[1;1;4;10 x", /* other finals and forms */
	};
	for (size_t i = 0; i < sizeof(nothing) / sizeof(nothing[0]); i++) {
		struct t_term *t = t_new(10, 4, 0);
		t_feed(t, "ABCDEFGHIJ\r\nKLMNOPQRST\r\nUVWXYZ\r\n\xe4\xb8\xad\xe6\x96\x87\033[2;3H");
		t_feed(t, nothing[i]);
		CHECK_ROW(t, 0, "ABCDEFGHIJ");
		CHECK_ROW(t, 1, "KLMNOPQRST");
		CHECK_ROW(t, 2, "UVWXYZ");
		CHECK_ROW(t, 3, "\xe4\xb8\xad\xe6\x96\x87");
		CHECK(grid_row(t->g, 0)[0].style == 0 && grid_row(t->g, 1)[9].style == 0,
		      "case %zu: attributes changed", i);
		CHECK_CURSOR(t, 2, 1);
		t_free(t);
	}
	/* huge bottom and right edges are clipped to the screen, the copy to what fits */
	struct t_term *t = t_new(10, 4, 0);
	t_feed(t, "ABCDEFGHIJ\r\nKLMNOPQRST\033[88;2;8;99999999999;4294967295$x");
	CHECK_ROW(t, 0, "ABCDEFGHIJ");
	CHECK_ROW(t, 1, "KLMNOPQXXX");
	CHECK_ROW(t, 3, "       XXX");
	t_feed(t, "\033[1;1;99999;99999;1;3;6$v");
	CHECK_ROW(t, 2, "     ABCDE");
	CHECK_ROW(t, 3, "     KLMNO");
	/* the clipped copy leaves the destination rows' other cells alone, colours too (DEC clips the copy;
	 * xterm 379 changes the first cells' background there: docs/conformance.md) */
	t_feed(t, "\033[1;1H\033[42mAB\033[m\033[2;1;2;8;1;1;9$v");
	CHECK_ROW(t, 0, "ABCDEFGHKL");
	for (int x = 0; x < 2; x++)
		CHECK(grid_style(t->g, grid_row(t->g, 0)[x].style)->bg == GRID_COLOR_PALETTE(2),
		      "column %d lost its background after a clipped copy", x);
	t_feed(t, "\033[1;1;65535;65535;1;5;1;1;7;22;24;25;27;1;4;5;7;0;1;4;5;7;1$r");
	CHECK(grid_style(t->g, grid_row(t->g, 3)[9].style)->attrs & GRID_ATTR_BOLD, "bold after 24 parameters");
	t_free(t);
	/* a 1x1 screen: each function on its only cell, then past it */
	t = t_new(1, 1, 0);
	t_feed(t, "A\033[88;1;1;1;1$x\033[1;1;1;1;1;1;1$v\033[1;1;9;9;1$r\033[1;1;9;9;7$t\033[2;2;2;2$z");
	CHECK_ROW(t, 0, "X");
	t_feed(t, "\033[1;1;1;1${\033[89;1;1;2;2$x");
	CHECK_ROW(t, 0, "Y");
	t_free(t);
}

/* grid_work (grid.h): what the sequences that cost more than their bytes count, at 10x4; text, line feeds and
 * cursor moves count nothing (the session's work budget per wake-up) */
static void test_work(void)
{
	static const struct {
		const char *seq;
		uint64_t work;
	} cases[] = {
		{"text\r\nmore text\n\n\n\n\033[H\033[2;3H\033[1m", 0},
		{"x\033[25b", 25},                   /* REP: the characters written */
		{"\033#8", 40},                      /* DECALN: the screen */
		{"\033[88;2;2;3;5$x", 8},            /* DECFRA: its rectangle */
		{"\033[$z", 40},                     /* DECERA, the whole screen */
		{"\033[1;1;2;2;1;3;3$v", 4},         /* DECCRA */
		{"\033[1;1;1;1;4;10*y", 160},        /* DECRQCRA: four times the cells it sums */
		{"\033[#|", 80},                     /* XTREPORTSGR: twice the cells it reads, the screen */
		{"\033[1;1;2;3#|", 12},              /* XTREPORTSGR of 2 x 3 cells */
		{"\033[5;1;1;1#|", 0},               /* XTREPORTSGR of an empty rectangle */
		{"\033[2S", 2},                      /* SU 2: an eighth of 2 rows of 10 (20 / 8) */
		{"\033[4T", 5},                      /* SD 4: 40 / 8 */
		{"\033[3;1H\033[9L", 2},            /* IL at row 3: 2 rows (20 / 8) */
		{"\033[H\033[2J", 1},               /* ED 2: 4 rows of 10, a thirty-second */
		{"\033[H\033M", 5},                 /* RI at the top: the region's 4 rows (40 / 8) */
		{"\033[H\033['}", 5},               /* DECIC 1 at column 1: the region's 40 cells / 8 */
		{"\033c", 40},                       /* RIS: the screen */
		/* within left and right margins every cell of the region is copied, a third of a fill's cost a
		 * cell, and 5 cells a row, whatever scrolls it: LF, IND and NEL at the bottom too (4 rows of 8:
		 * 32 / 3 + 4 x 5) */
		{"\033[?69h\033[2;9s\033[4;5H\n", 30},
		{"\033[?69h\033[2;9s\033[4;5H\033D", 30},
		{"\033[?69h\033[2;9s\033[4;5H\033E", 30},
		{"\033[?69h\033[2;9s\033[1;5H\033M", 30}, /* RI at the top: the same rows */
		{"\033[?69h\033[2;9s\033[2S", 30},          /* SU: counted once */
		{"\033[2$w", 129},                   /* DECTABSR: 64 per stop (1, 9), a scan of 11 columns / 8 */
		{"\033[?1049h\033[?1049l\033[?47h", 3}, /* a screen switch: the screen's rows, as ED (40 / 32) */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t_term *t = t_new(10, 4, 100);
		uint64_t w0 = grid_work(t->g);
		t_feed(t, cases[i].seq);
		uint64_t w = grid_work(t->g) - w0;
		CHECK(w == cases[i].work, "case %zu: grid_work %llu, want %llu", i, (unsigned long long)w,
		      (unsigned long long)cases[i].work);
		t_free(t);
	}
}

/* grid_feed_bounded (the session's feed within its work budget): a random stream of text, the parser's fast-path
 * sequences (SGR, CUP, EL, ED), counted ones (REP, DECFRA, DECALN, SU, IND within margins, DECRQCRA), replies and
 * UTF-8, cut into chunks as a PTY hands them out, each chunk fed again from wherever a call stopped with budgets of
 * 1 to 100 cells, leaves what one grid_feed of the stream leaves: rows, cursor, replies, grid_work. A call that
 * stops has spent its budget, and none returns 0 bytes while there are bytes. */
static void test_feed_bounded(void)
{
	static const char *const pieces[] = {
		"hello ", "wide \xe4\xb8\x80 e\xcc\x81 ", "\r\n", "\033[1;31m", "\033[0m", "\033[3;7H", "\033[K",
		"\033[2K", "\033[J", "\033[1J", "x\033[40b", "\033[65;2;2;4;9$x", "\033#8", "\033[2S", "\033[c",
		"\033[1;1;1;1;4;10*y", "\033[?69h\033[2;9s\033[6;5H\033D\033D\033[?69l", "\033]2;t\007", "\033[2;5r",
		"\033[r", "\033[5@", "\033[3P", "\0337", "\0338",
	};
	uint64_t seed = 52;
	for (int round = 0; round < 20; round++) {
		char stream[6000];
		size_t len = 0;
		while (len < sizeof(stream) - 64) {
			const char *p = pieces[t_rnd(&seed, sizeof(pieces) / sizeof(pieces[0]))];
			memcpy(stream + len, p, strlen(p));
			len += strlen(p);
		}
		struct t_term *ref = t_new(10, 6, 50), *t = t_new(10, 6, 50);
		grid_feed(ref->g, (const uint8_t *)stream, len);
		unsigned stops = 0;
		for (size_t at = 0; at < len;) {
			const size_t r = 1 + t_rnd(&seed, 300), chunk = r < len - at ? r : len - at;
			for (size_t off = 0; off < chunk;) {
				const uint64_t end = grid_work(t->g) + 1 + t_rnd(&seed, 100);
				const size_t n = grid_feed_bounded(t->g, (const uint8_t *)stream + at + off, chunk - off, end);
				CHECK(n > 0 && n <= chunk - off, "round %d: fed %zu of %zu", round, n, chunk - off);
				if (n == 0 || n > chunk - off)
					break;
				CHECK(n == chunk - off || grid_work(t->g) >= end, "round %d: stopped before its end", round);
				stops += n < chunk - off;
				off += n;
			}
			at += chunk;
		}
		CHECK(stops > 20, "round %d: %u stops", round, stops);
		for (int y = 0; y < 6; y++) {
			static char want[16384]; /* t_row's buffer is that size: the copy can never be cut */
			snprintf(want, sizeof(want), "%s", t_row(ref, y));
			CHECK(strcmp(t_row(t, y), want) == 0, "round %d row %d: \"%s\" want \"%s\"", round, y, t_row(t, y),
			      want);
		}
		struct grid_cursor a, b;
		grid_get_cursor(ref->g, &a);
		grid_get_cursor(t->g, &b);
		CHECK(a.x == b.x && a.y == b.y, "round %d: cursor %d,%d want %d,%d", round, b.x, b.y, a.x, a.y);
		CHECK(strcmp(ref->reply, t->reply) == 0, "round %d: replies differ", round);
		CHECK(grid_work(ref->g) == grid_work(t->g), "round %d: grid_work %llu want %llu", round,
		      (unsigned long long)grid_work(t->g), (unsigned long long)grid_work(ref->g));
		t_free(ref);
		t_free(t);
	}
}

/* A line feed (a C0 control, executed inside the parser's ground-state loop, which vt_parser_stop does not break)
 * at the bottom of DECSLRM margins copies the region's every cell: 4 KiB of them at 1000x1000 took 800 ms in one
 * bounded feed. grid_feed_bounded feeds them one at a time while such margins are set, from the sequence that sets
 * them on: a budget of one cell stops after the first line feed, whether the margins were set before the feed or
 * in it; the rest, fed bounded call after call, leaves the screen of one grid_feed. */
static void test_feed_bounded_margins(void)
{
	static const char head[] = "\033[?69h\033[2;59s\033[40;5H"; /* margins 2..59, the cursor at the bottom */
	char buf[sizeof(head) - 1 + 4096];
	memcpy(buf, head, sizeof(head) - 1);
	memset(buf + sizeof(head) - 1, '\n', 4096);
	static const char again[] = "\033[r\033[2;59s\033[40;5Hx"; /* margins set again halfway */
	memcpy(buf + 2000, again, sizeof(again) - 1);
	for (int in_feed = 0; in_feed < 2; in_feed++) {
		struct t_term *t = t_new(60, 40, 100), *ref = t_new(60, 40, 100);
		t_feed(t, "\033#8");
		t_feed(ref, "\033#8");
		grid_feed(ref->g, (const uint8_t *)buf, sizeof(buf));
		size_t off = in_feed ? 0 : sizeof(head) - 1, calls = 0, first = 0;
		if (!in_feed)
			grid_feed(t->g, (const uint8_t *)buf, off);
		while (off < sizeof(buf) && calls++ < 10000) {
			const size_t n = grid_feed_bounded(t->g, (const uint8_t *)buf + off, sizeof(buf) - off,
							   grid_work(t->g) + 1);
			first = calls == 1 ? n : first;
			CHECK(n > 0, "case %d: a bounded feed fed nothing", in_feed);
			if (!n)
				break;
			off += n;
		}
		/* the set-up and one line feed, or one line feed */
		const size_t at_most = in_feed ? sizeof(head) : 1;
		CHECK(first <= at_most, "case %d: the first bounded feed fed %zu bytes, want at most %zu", in_feed, first,
		      at_most);
		CHECK(calls > 2000, "case %d: %zu calls", in_feed, calls);
		for (int y = 0; y < 40; y++) {
			static char want[16384]; /* t_row's buffer is that size: the copy can never be cut */
			snprintf(want, sizeof(want), "%s", t_row(ref, y));
			CHECK(strcmp(t_row(t, y), want) == 0, "case %d row %d: \"%s\" want \"%s\"", in_feed, y,
			      t_row(t, y), want);
		}
		t_free(t);
		t_free(ref);
	}
}

/* Text is printed inside the parser's ground-state loop too, and at the bottom of DECSLRM margins every wrap
 * scrolls the region as a line feed does: at 1000x1000 with margins 1;2 one bounded feed of 4 KiB of text (2,048
 * wraps) took 11 ms whatever the budget, and each such scroll's cost is mostly per row (3.5 us at 2 columns, the
 * count a third of the cells said 0.4). While margins are set grid_feed_bounded hands the parser at most the
 * margins' width of bytes at a time (one wrap at most), and a scroll within them counts 5 cells a row besides a
 * third of its cells: a budget of one cell stops after the first wrap; the rest, fed bounded call after call,
 * leaves the screen of one grid_feed. */
static void test_feed_bounded_wraps(void)
{
	static const char head[] = "\033[?69h\033[3;4s\033[40;3H"; /* margins 3..4 (2 columns), the bottom row */
	char buf[sizeof(head) - 1 + 4096];
	memcpy(buf, head, sizeof(head) - 1);
	for (size_t i = sizeof(head) - 1; i < sizeof(buf); i++)
		buf[i] = (char)('a' + i % 26);
	struct t_term *t = t_new(60, 40, 100), *ref = t_new(60, 40, 100);
	grid_feed(ref->g, (const uint8_t *)buf, sizeof(buf));
	size_t off = sizeof(head) - 1, calls = 0, most = 0;
	grid_feed(t->g, (const uint8_t *)buf, off);
	while (off < sizeof(buf) && calls++ < 10000) {
		const uint64_t w0 = grid_work(t->g);
		const size_t n = grid_feed_bounded(t->g, (const uint8_t *)buf + off, sizeof(buf) - off, w0 + 1);
		most = calls > 1 && n > most ? n : most; /* (the first: two characters to the margin, then the wrap) */
		CHECK(n > 0, "a bounded feed fed nothing");
		if (!n)
			break;
		off += n;
	}
	/* every feed after the first wrap: two characters, a wrap and its scroll of 40 rows */
	CHECK(most <= 2, "a bounded feed of text at the bottom of 2-column margins fed %zu bytes, want at most 2", most);
	CHECK(calls > 2000, "%zu calls", calls);
	const uint64_t per = grid_work(t->g) / 2048;
	CHECK(per >= 40 * 5, "a wrap's scroll of 40 rows of 2 columns counted %llu, want at least 200 (5 a row)",
	      (unsigned long long)per);
	for (int y = 0; y < 40; y++) {
		static char want[16384]; /* t_row's buffer is that size: the copy can never be cut */
		snprintf(want, sizeof(want), "%s", t_row(ref, y));
		CHECK(strcmp(t_row(t, y), want) == 0, "row %d: \"%s\" want \"%s\"", y, t_row(t, y), want);
	}
	t_free(t);
	t_free(ref);
}

int main(void)
{
	test_work();
	test_feed_bounded();
	test_feed_bounded_margins();
	test_feed_bounded_wraps();
	test_variants();
	test_variants_hidden();
	test_cells();
	test_rectangles();
	test_edit_hostile();
	return t_done("grid-rect");
}
