/* tests/grid/test-print.c: the run paths of printing against the character-at-a-time path.
 *
 * grid-print.c writes runs of characters (plain ASCII, runs of code points with their combining marks) in
 * bulk and falls back to one character at a time for everything else; with a charset other than ASCII
 * designated, every character takes the slow path. So the same random text fed to two grids, one with the
 * UK set in G0 (which only maps '#', never generated here), must give the same cells, clusters, cursor and
 * soft-wrap flags: wide characters at the last column, combining marks, ZWJ and flag sequences, emoji
 * modifiers, Hangul, SpacingMarks, Prepend, REP and a colour per character included. */
#include "harness.h"
#include "vt/vt.h"

struct piece {
	const char *s;
	int weight;
};

/* UTF-8 pieces the random text is made of */
static const struct piece pieces[] = {
	{"a", 30}, {"Z", 10}, {" ", 15}, {"\xc3\xa9", 8},                  /* e acute */
	{"\xce\xb1", 8},                                                   /* alpha */
	{"\xd0\x96", 8},                                                   /* Cyrillic Zhe */
	{"\xe4\xb8\xad", 10},                                              /* CJK, wide */
	{"\xe3\x81\x82", 4},                                               /* hiragana, wide */
	{"\xcc\x81", 10},                                                  /* combining acute */
	{"\xcc\x88", 5},                                                   /* combining diaeresis */
	{"\xd2\x83", 2},                                                   /* Cyrillic combining titlo */
	{"\xd6\x91", 2},                                                   /* Hebrew accent */
	{"\xe2\x80\x8d", 4},                                               /* ZWJ */
	{"\xef\xb8\x8f", 4},                                               /* VS16 */
	{"\xe2\x9d\xa4", 3},                                               /* heart, width 1 */
	{"\xf0\x9f\x98\x80", 6},                                           /* emoji, wide */
	{"\xf0\x9f\x91\xa9", 3},                                           /* woman */
	{"\xf0\x9f\x8f\xbd", 3},                                           /* skin tone modifier */
	{"\xf0\x9f\x87\xa9", 3}, {"\xf0\x9f\x87\xaa", 3},                  /* regional indicators D, E */
	{"\xe1\x84\x80", 2}, {"\xe1\x85\xa1", 2}, {"\xe1\x86\xa8", 2},    /* Hangul L, V, T */
	{"\xea\xb0\x80", 3},                                               /* Hangul LV syllable */
	{"\xe0\xa4\x95", 3}, {"\xe0\xa4\xbe", 3},                          /* Devanagari KA, sign AA */
	{"\xd8\x80", 1},                                                   /* Arabic number sign (Prepend) */
	{"\xe2\x80\x8b", 1},                                               /* zero width space */
	{"\xc2\xad", 1},                                                   /* soft hyphen */
	{"\xef\xbd\xb6", 2}, {"\xef\xbe\x9e", 2},                          /* halfwidth KA, sound mark */
	{"\xef\xbf\xbd", 1},                                               /* U+FFFD */
	{"\xe2\x82\xac", 2}, {"\xc2\xa9", 1},                          /* euro (3 bytes, width 1), (c) */
	{"\xed\xa0\x80", 1}, {"\xc2\x85", 1}, {"\xe0\x80\xaf", 1},     /* surrogate, C1 NEL, overlong */
	{"\xc0\xaf", 1}, {"\xe4\xb8", 1}, {"\x80", 1},                  /* overlong, truncated, lone */
	{"\xc1\xbf", 1}, {"\xc0", 1}, {"\xc3", 1}, {"\xdf", 1},              /* overlong, lone leads */
	{"\xdf\xbf", 1}, {"\xcd\xaf", 2}, {"\xcd\xb0", 1}, {"\xc2\xa0", 1}, /* U+07FF, U+036F, U+0370, NBSP */
	{"\xf4\x90\x80\x80", 1}, {"\xf8\x88\x80\x80", 1},              /* above U+10FFFF, 5-byte lead */
	{"\r\n", 3}, {"\r", 1}, {"\b", 1}, {"\t", 1},
	{"\033[3b", 1},                                                    /* REP */
	{"\033[H", 1}, {"\033[7G", 1}, {"\033[2C", 1}, {"\033[1m", 1}, {"\033[m", 1}, {"\033[3;9r", 1},
	{"\033[r", 1},
	/* a colour before a lone character: the one-cell path with a pen to intern (grid__print, put_one_dirty) */
	{"\033[31m", 2}, {"\033[38;2;9;8;7m", 2}, {"\033[48;2;1;2;3m", 2}, {"\033[38;5;200m\xe2\x96\x80", 2},
};

static uint32_t seed = 7;
static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static int compare(struct t_term *a, struct t_term *b, int round)
{
	int cols = grid_cols(a->g), rows = grid_rows(a->g);
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	CHECK(ca.x == cb.x && ca.y == cb.y, "round %d: cursor %d,%d vs %d,%d", round, ca.x, ca.y, cb.x, cb.y);
	CHECK(grid_scrollback_lines(a->g) == grid_scrollback_lines(b->g), "round %d: scrollback", round);
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		CHECK(grid_row_wrapped(a->g, y) == grid_row_wrapped(b->g, y), "round %d row %d: wrap flag", round, y);
		for (int x = 0; x < cols; x++) {
			/* the styles as resolved: the two paths may intern them in a different order */
			bool same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width &&
				    t_same_style(a->g, &ra[x], b->g, &rb[x]);
			CHECK(same, "round %d row %d col %d: run path \"%s\"", round, y, x, t_row(a, y));
			if (!same) {
				fprintf(stderr, "  char path \"%s\"\n", t_row(b, y));
				return 1;
			}
		}
	}
	return 0;
}

/* Resets both terminals, feeds buf to a in two reads split at cut (the fused paths) and to b whole after
 * ESC ( A (a charset that keeps text on the character-at-a-time path), and compares them: nonzero when
 * they differ. */
static int split_vs_reference(struct t_term *a, struct t_term *b, const char *buf, int len, int cut)
{
	t_feed(a, "\033c");
	t_feed(b, "\033c\033(A");
	grid_feed(a->g, (const uint8_t *)buf, (size_t)cut);
	grid_feed(a->g, (const uint8_t *)buf + cut, (size_t)(len - cut));
	t_feed(b, buf);
	return compare(a, b, cut);
}

static void test_random_text(void)
{
	int total = 0;
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
		total += pieces[i].weight;
	static char buf[4096], all[8 * 4097];
	for (int round = 0; round < 400; round++) {
		int cols = 3 + (int)rnd(30), rows = 2 + (int)rnd(5);
		struct t_term *a = t_new(cols, rows, 20), *b = t_new(cols, rows, 20);
		t_feed(b, "\033(A");
		if (rnd(4) == 0) {
			t_feed(a, "\033[?7l");
			t_feed(b, "\033[?7l");
		}
		size_t all_len = 0;
		for (int chunk = 0; chunk < 8; chunk++) {
			size_t len = 0;
			int n = 1 + (int)rnd(200);
			for (int k = 0; k < n; k++) {
				int r = (int)rnd((uint32_t)total);
				size_t p = 0;
				while (r >= pieces[p].weight)
					r -= pieces[p++].weight;
				size_t pl = strlen(pieces[p].s);
				if (len + pl >= sizeof(buf))
					break;
				memcpy(buf + len, pieces[p].s, pl);
				len += pl;
			}
			memcpy(all + all_len, buf, len);
			all_len += len;
			all[all_len++] = '|'; /* chunk boundary, in the dump */
			grid_feed(a->g, (const uint8_t *)buf, len);
			grid_feed(b->g, (const uint8_t *)buf, len);
			if (compare(a, b, round)) {
				fprintf(stderr, "  %dx%d, input of the round:", cols, rows);
				for (size_t k = 0; k < all_len; k++)
					fprintf(stderr, (unsigned char)all[k] >= 0x20 && all[k] < 0x7f ? "%c" : "\\x%02x",
						(unsigned char)all[k]);
				fputc('\n', stderr);
				round = 400, chunk = 8;
			}
		}
		t_free(a);
		t_free(b);
	}
}

/* Emoji sequences through the fused UTF-8 path (grid-utf8.c attaches VS16 and emoji modifiers itself and
 * hands the ZWJ to the code-point path, which must still know that the cluster began with an emoji,
 * UAX #29 GB11): each sequence is one cell on both grids, with all its code points. */
static void test_emoji_sequences(void)
{
	static const struct {
		const char *s;
		size_t ncp;
	} seqs[] = {
		{"\xf0\x9f\x8f\xb3\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x8c\x88", 4}, /* rainbow flag: VS16 then ZWJ */
		{"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd", 2},                         /* thumbs up, medium skin tone */
		{"\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d\xf0\x9f\x92\xbb", 4}, /* tone then ZWJ */
		{"\xe2\x9d\xa4\xef\xb8\x8f", 2},                                 /* heart, VS16 */
	};
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		struct t_term *a = t_new(20, 3, 0), *b = t_new(20, 3, 0);
		t_feed(b, "\033(A");
		char buf[64];
		snprintf(buf, sizeof(buf), "ab%s x\r\n", seqs[i].s);
		t_feed(a, buf);
		t_feed(b, buf);
		uint32_t cps[16];
		size_t n = grid_cell_codepoints(a->g, &grid_row(a->g, 0)[2], cps, 16);
		CHECK(n == seqs[i].ncp, "sequence %zu: %zu code points in the cell, want %zu", i, n, seqs[i].ncp);
		compare(a, b, (int)i);
		t_free(a);
		t_free(b);
	}
}

/* A spacing mark (Devanagari vowel sign I, Thai SARA AM), the letter after a Prepend with a width (Malayalam
 * dot reph) and an Extend character with a width not on an emoji (a halfwidth sound mark, a Bengali vowel
 * sign, a skin-tone modifier after a letter) take a cell of their own, as in xterm and as wcwidth() counts
 * them: UAX #29's legacy grapheme clusters there. Joined to the cell before (GB9a, GB9b) they took no column: "हिन्दी" took 3 columns where
 * the application (and xterm) counts 5, so the text after it came two columns left of where the application
 * put it, and the vowel signs were not drawn. Both print paths. */
static void test_spacing_marks(void)
{
	static const struct {
		const char *s, *what;
		int x;	      /* the cursor's column after "a", s and "|" */
		uint32_t cp2; /* cell at (2: after "a" and the first letter) */
		int at;
	} cases[] = {
	    {"\xe0\xa4\x95\xe0\xa4\xbf", "KA, vowel sign I", 4, 0x93f, 2},
	    {"\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d\xe0\xa4\xa6\xe0\xa5\x80", "Hindi", 7, 0x93f, 2},
	    {"\xe0\xb8\x81\xe0\xb8\xb3", "Thai KO KAI, SARA AM", 4, 0xe33, 2},
	    {"\xe0\xb5\x8e\xe0\xb4\x95", "Malayalam dot reph (Prepend), KA", 4, 0xd15, 2},
	    /* a prepended concatenation mark has a width: it took none, and the digit joined the cell of the
	     * "a" before it */
	    {"\xd8\x80\xd9\xa1", "Arabic number sign (Prepend), digit", 4, 0x661, 2},
	    {"\xd8\x80" "1", "Arabic number sign, ASCII digit", 4, '1', 2},
	    /* Extend characters with a width: only an emoji modifier on an emoji joins it */
	    {"\xef\xbd\xb6\xef\xbe\x9e", "halfwidth KA, voiced sound mark", 4, 0xff9e, 2},
	    {"\xe0\xa6\x95\xe0\xa6\xbe", "Bengali KA, vowel sign AA (Extend)", 4, 0x9be, 2},
	    {"x\xf0\x9f\x8f\xbb", "x, skin tone modifier", 5, 0x1f3fb, 2},
	    /* a Hangul choseong before a syllable or another choseong: both wide */
	    {"\xe1\x84\x80\xea\xb0\x80", "choseong KIYEOK, syllable GA", 6, 0xac00, 3},
	    {"\xe1\x84\x80\xe1\x84\x80\xe1\x85\xa1", "two choseong KIYEOK, jungseong A", 6, 0x1100, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int slow = 0; slow < 2; slow++) {
			struct t_term *a = t_new(20, 3, 0);
			if (slow)
				t_feed(a, "\033(A");
			char buf[64];
			snprintf(buf, sizeof(buf), "a%s|", cases[i].s);
			t_feed(a, buf);
			struct grid_cursor c;
			grid_get_cursor(a->g, &c);
			uint32_t cps[16];
			const int at = cases[i].at;
			size_t n = grid_cell_codepoints(a->g, &grid_row(a->g, 0)[at], cps, 16);
			CHECK(c.x == cases[i].x && n == 1 && cps[0] == cases[i].cp2,
			      "%s%s: cursor at %d (want %d), cell %d holds %zu code points from U+%04X \"%s\"",
			      cases[i].what, slow ? " (code-point path)" : "", c.x, cases[i].x, at, n,
			      (unsigned)cps[0], t_row(a, 0));
			t_free(a);
		}
}

/* ZWJ sequences joined by the fused UTF-8 path itself (grid-utf8.c: a ZWJ attached as Extend is, an emoji
 * right after "ExtPict Extend* ZWJ" attached too, GB11; a full cluster left to the code-point path): every
 * sequence at every column near the right edge, with autowrap on and off, fed whole and split in two at
 * every byte, against the character-at-a-time path. Chains longer than a cluster's cap (CLUSTER_MAX_CPS,
 * 15) must drop the same code points and leave the same segmentation state (the emoji after them). */
static void test_zwj_sequences(void)
{
#define E "\xf0\x9f\x98\x80" /* grinning face, wide */
#define Z "\xe2\x80\x8d"     /* ZWJ */
#define M "\xcc\x81"         /* combining acute */
	static const char *const seqs[] = {
		"\xf0\x9f\x91\xa8" Z "\xf0\x9f\x91\xa9" Z "\xf0\x9f\x91\xa7", /* family */
		"a" Z E, E Z "a", E Z Z E, E "\xf0\x9f\x8f\xbd" Z E, E M Z E, "\xc2\xa9" Z E,
		"\xe2\x9d\xa4" Z "\xf0\x9f\x94\xa5", "\xe2\x9d\xa4\xef\xb8\x8f" Z E, E Z "\xc2\xa9" Z E,
		E Z E Z E Z E Z E Z E Z E Z E Z E Z E Z E, /* 21 code points */
		E M M M M M M M M M M M M Z E,             /* the ZWJ is the 15th */
		E M M M M M M M M M M M M M Z E Z E,       /* the ZWJ is the 16th */
		E M M M M M M M M M M M Z E E Z E,        /* the emoji after the ZWJ is the 15th */
		E Z E M Z "\xe4\xb8\xad" Z E "\xc3\xa9" Z Z E,
	};
#undef E
#undef Z
#undef M
	int bad = 0;
	/* two grids for all (a fresh grid per case costs more than the case; RIS between cases) */
	struct t_term *a = t_new(10, 4, 10), *b = t_new(10, 4, 10);
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]) && !bad; i++) {
		for (int col = 4; col < 10 && !bad; col++) {
			for (int wrap = 0; wrap < 2 && !bad; wrap++) {
				char buf[256];
				int len = snprintf(buf, sizeof(buf), "\033[?7%c\033[1;%dHx\xc3\xa9%s%s\xce\xb1 b\r\n",
						   wrap ? 'h' : 'l', col, seqs[i], seqs[i]);
				for (int cut = 0; cut <= len && !bad; cut++) {
					bad = split_vs_reference(a, b, buf, len, cut);
					if (bad)
						fprintf(stderr, "  sequence %zu, column %d, autowrap %d, cut at %d\n", i, col,
							wrap, cut);
				}
			}
		}
	}
	t_free(a);
	t_free(b);
}

/* CR LF between lines of text, done by the fused UTF-8 path itself when more mixed text follows (the
 * parser's execute() otherwise): lines of Greek, CJK at the last column, marks right after the CR LF,
 * ASCII-led lines with and without other text in their first 16 bytes, pure ASCII lines, under scroll
 * regions, left/right margins, origin mode, LNM and autowrap off, fed whole and split at every byte,
 * against the character-at-a-time path. */
static void test_line_ends(void)
{
	static const char *const lines[] = {
		"\xce\xb1\xce\xb2 \xe4\xb8\xad\xe4\xb8\xad", "\xcc\x81x\xcc\x88y", "ab \xd0\x96\xd0\x96",
		"abcdefghijklmnopq\xc3\xa9", "plain ascii", "", "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad",
		"\xf0\x9f\x98\x80\xe2\x80\x8d\xf0\x9f\x98\x80", "\xc3\xa9\033[1m\xc3\xa9\033[m", "\xe2\x80\x8d\xc3\xa9",
	};
	static const char *const modes[] = {
		"", "\033[2;4r", "\033[2;4r\033[?6h", "\033[?69h\033[2;7s", "\033[?69h\033[3;9s\033[2;4r", "\033[20h",
		"\033[?7l", "\033[3;1H\033[2;3r",
	};
	int bad = 0;
	struct t_term *a = t_new(10, 5, 10), *b = t_new(10, 5, 10);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]) && !bad; m++) {
		for (int start = 0; start < 6 && !bad; start++) {
			char buf[1024];
			int len = snprintf(buf, sizeof(buf), "%s\033[%d;%dH", modes[m], 1 + start % 5, 1 + start % 7);
			for (int k = 0; k < 14; k++)
				len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s\r\n",
						lines[(size_t)(k * 7 + start) % (sizeof(lines) / sizeof(lines[0]))]);
			for (int cut = 0; cut <= len && !bad; cut++) {
				bad = split_vs_reference(a, b, buf, len, cut);
				size_t sb = grid_scrollback_lines(a->g);
				for (size_t i = 0; i < sb && !bad; i++) {
					/* the lines in the scrollback too */
					int la, lb;
					const struct grid_cell *ra = grid_scrollback_row(a->g, i, &la);
					uint32_t ta[64], tb[64];
					size_t na = 0, nb = 0;
					for (int x = 0; x < la; x++)
						na += grid_cell_codepoints(a->g, &ra[x], ta + na, 4);
					const struct grid_cell *rb = grid_scrollback_row(b->g, i, &lb);
					for (int x = 0; x < lb; x++)
						nb += grid_cell_codepoints(b->g, &rb[x], tb + nb, 4);
					bad = na != nb || memcmp(ta, tb, na * sizeof(*ta));
					CHECK(!bad, "scrollback line %zu differs", i);
				}
				if (bad)
					fprintf(stderr, "  mode %zu, start %d, cut at %d\n", m, start, cut);
			}
		}
	}
	t_free(a);
	t_free(b);
}

/* Runs of printable ASCII of every length from 1 to 75 at columns 0 to 19, in the default style, a
 * style and a hyperlink, on a fresh row (the run ends the row's written part: the short-run path) and over
 * a row already written further (the bulk path): the vector writers (16 and 8 cells per step, the last
 * step overlapping; on CPUs with AVX-512 any run under 32 by masked stores) against the character-at-a-time
 * path, with distinct bytes so that a cell written
 * from the wrong byte shows. */
static void test_ascii_runs(void)
{
	static const char *const pre[] = {"", "\033[1;31m", "\033]8;;http://example.com/\033\\"};
	int bad = 0;
	for (size_t p = 0; p < sizeof(pre) / sizeof(pre[0]) && !bad; p++) {
		for (int x0 = 0; x0 < 20 && !bad; x0++) {
			struct t_term *a = t_new(100, 3, 0), *b = t_new(100, 3, 0);
			for (int len = 1; len <= 75 && !bad; len++) {
				char run[80];
				for (int i = 0; i < len; i++)
					run[i] = (char)(0x21 + (i * 37 + len) % 94);
				for (int i = 0; i < len; i++)
					run[i] = run[i] == '#' ? '_' : run[i]; /* the UK set maps only '#' */
				run[len] = 0;
				for (int g = 0; g < 2; g++) {
					struct t_term *t = g ? b : a;
					t_feed(t, g ? "\033c\033(A" : "\033c"); /* a fresh screen: RIS */
					t_feed(t, pre[p]);
					t_feedf(t, "\033[1;%dH%s\033[2;1H", x0 + 1,  run);
					for (int i = 0; i < 98; i++)
						t_feed(t, "~");
					t_feedf(t, "\033[2;%dH%s", x0 + 1, run);
				}
				bad = compare(a, b, len);
				for (int y = 0; y < 2 && !bad; y++) {
					const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
					for (int x = 0; x < 100; x++)
						if (ra[x].link != rb[x].link || ra[x].flags != rb[x].flags) {
							CHECK(0, "prefix %zu, column %d, length %d: cell %d,%d link or flags",
							      p, x0, len, x, y);
							bad = 1;
							break;
						}
				}
				if (bad)
					fprintf(stderr, "  prefix %zu, column %d, length %d\n", p, x0, len);
			}
			t_free(a);
			t_free(b);
		}
	}
}

/* grid__print's one-cell path takes box drawing and block elements as plain and one column wide without
 * the table: the table must agree. */
static void test_box_drawing_width(void)
{
	for (uint32_t cp = 0x2500; cp < 0x25a0; cp++)
		CHECK(vt_char_plain_width(cp) == 1, "U+%04X: plain width %u", (unsigned)cp, vt_char_plain_width(cp));
}

/* grid-utf8.c takes one- and two-byte characters from a table indexed by a byte and the next one: every
 * first byte from 0x80 on with every next byte, between Latin letters and with a two-byte letter before
 * (so the table's loop meets it), at 7 columns (the pair also at the row's end), against the character
 * path. */
static void test_byte_pairs(void)
{
	struct t_term *a = t_new(7, 3, 0), *b = t_new(7, 3, 0);
	int bad = 0;
	for (uint32_t b0 = 0x80; b0 < 0x100 && !bad; b0++) {
		for (uint32_t b1 = 0; b1 < 0x100 && !bad; b1++) {
			if (b1 == 0x1b || b1 == 0 || b1 == '#')
				continue; /* an escape sequence, the end of the string, the UK set's one change */
			for (int pre = 0; pre < 2 && !bad; pre++) {
				char buf[32];
				int len = snprintf(buf, sizeof(buf), "%s\xc3\xa9%c%c\xce\xb1x\xcc\x81yz\xd0\x96",
						   pre ? "abcd" : "a", (char)b0, (char)b1);
				bad = split_vs_reference(a, b, buf, len, len);
				if (bad)
					fprintf(stderr, "  bytes %02x %02x, prefix %d\n", (unsigned)b0, (unsigned)b1, pre);
			}
		}
	}
	t_free(a);
	t_free(b);
}

int main(void)
{
	test_box_drawing_width();
	test_byte_pairs();
	test_ascii_runs();
	test_emoji_sequences();
	test_spacing_marks();
	test_zwj_sequences();
	test_line_ends();
	test_random_text();
	return t_done("grid-print");
}
