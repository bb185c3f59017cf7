/* tests/vt/unicode.c: widths of known characters, and UAX #29's own GraphemeBreakTest.txt when the
 * unicode-data package is installed (UCD_DIR, default /usr/share/unicode; skipped otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/vt.h"

static int failures;

static void width(uint32_t cp, int want)
{
	int got = vt_char_width(cp);
	if (got != want) {
		fprintf(stderr, "width U+%04X: got %d want %d\n", (unsigned)cp, got, want);
		failures++;
	}
}

static void widths(void)
{
	width('A', 1);
	width(' ', 1);
	width(0x00, 0);
	width(0x1b, 0);
	width(0x7f, 0);
	width(0x9b, 0);
	width(0xa0, 1);     /* NO-BREAK SPACE */
	width(0xad, 1);     /* SOFT HYPHEN: shown */
	width(0xe9, 1);     /* é */
	width(0x0301, 0);   /* COMBINING ACUTE ACCENT (Mn) */
	width(0x20dd, 0);   /* COMBINING ENCLOSING CIRCLE (Me) */
	width(0x200b, 0);   /* ZERO WIDTH SPACE */
	width(0x200d, 0);   /* ZERO WIDTH JOINER (Cf) */
	width(0xfe0f, 0);   /* VARIATION SELECTOR-16 */
	width(0x1160, 0);   /* HANGUL JUNGSEONG FILLER */
	width(0x1100, 2);   /* HANGUL CHOSEONG KIYEOK */
	width(0xac00, 2);   /* HANGUL SYLLABLE GA */
	width(0x4e00, 2);   /* CJK */
	width(0x3400, 2);   /* CJK extension A */
	width(0x9fff, 2);   /* unassigned in the CJK block: W by default */
	width(0x3000, 2);   /* IDEOGRAPHIC SPACE (F) */
	width(0xff21, 2);   /* FULLWIDTH A */
	width(0xff61, 1);   /* HALFWIDTH IDEOGRAPHIC FULL STOP */
	width(0x1f600, 2);  /* GRINNING FACE (Emoji_Presentation) */
	width(0x1f1e6, 2);  /* REGIONAL INDICATOR A */
	width(0x2764, 1);   /* HEAVY BLACK HEART: text presentation by default */
	width(0x231a, 2);   /* WATCH: emoji presentation */
	width(0x20000, 2);  /* CJK extension B */
	width(0x2fffd, 2);
	width(0xe000, 1);   /* private use */
	width(0x0378, 1);   /* unassigned */
	width(0xe0001, 0);  /* LANGUAGE TAG */
	width(0x10ffff, 1);
	width(0x110000, 1); /* out of range: like U+FFFD */
	width(0xfffd, 1);
	width(0x0903, 1);   /* DEVANAGARI SIGN VISARGA (Mc): spacing */
	/* Format characters with a glyph, as glibc's wcwidth() and xterm count them: the prepended
	 * concatenation marks (drawn under or over the digits after them) and the Hangul fillers, which are
	 * default-ignorable but letters (Lo) with an East Asian width. */
	width(0x0600, 1);   /* ARABIC NUMBER SIGN */
	width(0x06dd, 1);   /* ARABIC END OF AYAH */
	width(0x070f, 1);   /* SYRIAC ABBREVIATION MARK */
	width(0x110bd, 1);  /* KAITHI NUMBER SIGN */
	width(0x115f, 2);   /* HANGUL CHOSEONG FILLER (W) */
	width(0x3164, 2);   /* HANGUL FILLER (W) */
	width(0xffa0, 1);   /* HALFWIDTH HANGUL FILLER (H) */
	width(0x2060, 0);   /* WORD JOINER: default-ignorable format characters stay zero */
	width(0x180e, 0);   /* MONGOLIAN VOWEL SEPARATOR (Cf) */
	/* East Asian width A and N in Unicode 15.0, but wide in glibc's wcwidth() and xterm 379, which
	 * programs (nano, readline) count with: drawn narrow, the rest of their line was two columns off. */
	width(0x3247, 2);   /* CIRCLED IDEOGRAPH KOTO (W), the neighbour */
	width(0x3248, 2);   /* CIRCLED NUMBER TEN ON BLACK SQUARE (A) */
	width(0x324f, 2);   /* CIRCLED NUMBER EIGHTY ON BLACK SQUARE (A) */
	width(0x3250, 2);   /* PARTNERSHIP SIGN (W), the neighbour */
	width(0x4dbf, 2);   /* CJK extension A, the neighbour */
	width(0x4dc0, 2);   /* HEXAGRAM FOR THE CREATIVE HEAVEN (N; W from Unicode 16.0) */
	width(0x4dff, 2);   /* HEXAGRAM FOR BEFORE COMPLETION */
}

/* Runs GraphemeBreakTest.txt: "÷ 0020 × 0308 ÷ 0020 ÷ # ÷ [0.2] SPACE (Other) × [9.0] ..." lines. The
 * comment names the rule that decided each position: where it is GB9a or GB9b ([9.1], [9.2]), which
 * vt_grapheme_break leaves out (legacy clusters there, see vt/unicode.c), a break is expected instead; and
 * where it is GB9 ([9.0]) for an Extend character with a width, unless the cluster so far is "ExtPict
 * Extend*" (an emoji modifier on an emoji), or GB6 ([6.0]) for a choseong or a syllable (all wide). */
static int grapheme_test(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/auxiliary/GraphemeBreakTest.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("SKIP: %s not found\n", path);
		return 0;
	}
	char line[4096];
	int n = 0, bad = 0;
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		bool legacy[64] = {false}, gb6[64] = {false};
		if (hash) {
			*hash = 0;
			/* the rules in order: [0.2] at the start, then one per position between code points */
			size_t r = 0;
			for (const char *p = strchr(hash + 1, '['); p; p = strchr(p + 1, '['), r++)
				if (r < 64) {
					legacy[r] = !strncmp(p, "[9.1]", 5) || !strncmp(p, "[9.2]", 5);
					gb6[r] = !strncmp(p, "[6.0]", 5);
				}
		}
		uint32_t cps[64];
		bool brk[64];
		size_t k = 0;
		char *save = NULL;
		for (char *tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(tok, "\xc3\xb7") || !strcmp(tok, "\xc3\x97")) {
				if (k > 0 && k < 64)
					brk[k] = tok[1] == '\xb7' || legacy[k];
				continue;
			}
			if (k < 64)
				cps[k++] = (uint32_t)strtoul(tok, NULL, 16);
		}
		if (k < 2)
			continue;
		n++;
		/* the Extend characters with a width, with the breaks expected so far */
		bool ep_ext = vt_char_props(cps[0]) & VT_PROP_EXTPICT;
		for (size_t i = 1; i < k; i++) {
			unsigned pr = vt_char_props(cps[i]);
			bool extend = (pr & 0x3cu) == (VT_PROP_MARK & 0x3cu);
			if (gb6[i] && (pr & 3u))
				brk[i] = true;
			if (extend && (pr & 3u) && !brk[i] && !ep_ext)
				brk[i] = true;
			ep_ext = (pr & VT_PROP_EXTPICT) || (ep_ext && extend && !brk[i]);
		}
		uint32_t st = 0;
		for (size_t i = 1; i < k; i++) {
			bool got = vt_grapheme_break(cps[i - 1], cps[i], &st);
			if (got != brk[i]) {
				if (bad < 10)
					fprintf(stderr, "GraphemeBreakTest line %d: break before position %zu: got %d\n",
						n, i, got);
				bad++;
				break;
			}
		}
	}
	fclose(f);
	printf("GraphemeBreakTest.txt: %d of %d lines pass\n", n - bad, n);
	if (n == 0)
		bad++;
	return bad;
}

/* Resetting the state to 0 after each break gives the same boundaries. */
static void reset_after_break(void)
{
	const uint32_t s[] = {0x1f1e6, 0x1f1e7, 0x1f1e8, 0x1f1e9, 0x1f1ea, 0x1f469, 0x200d, 0x1f4bb, 'a', 0x301,
			      0x1f1e6};
	const bool want[] = {false, false, true, false, true, true, false, false, true, false, true};
	uint32_t st = 0;
	for (size_t i = 1; i < sizeof(s) / sizeof(s[0]); i++) {
		bool b = vt_grapheme_break(s[i - 1], s[i], &st);
		if (b != want[i]) {
			fprintf(stderr, "reset-after-break: position %zu got %d\n", i, b);
			failures++;
		}
		if (b)
			st = 0;
	}
}

/* vt_utf8_char against the code point it should decode and vt_char_props: every code point encoded in
 * UTF-8 (C0, DEL, C1 and surrogates must be refused), then overlong, truncated and out-of-range forms. */
static void utf8_char(void)
{
	uint8_t b[8];
	for (uint32_t c = 0; c < 0x110000; c++) {
		memset(b, 0, sizeof(b));
		unsigned n;
		if (c < 0x80)
			b[0] = (uint8_t)c, n = 1;
		else if (c < 0x800)
			b[0] = (uint8_t)(0xc0 | c >> 6), b[1] = (uint8_t)(0x80 | (c & 0x3f)), n = 2;
		else if (c < 0x10000)
			b[0] = (uint8_t)(0xe0 | c >> 12), b[1] = (uint8_t)(0x80 | (c >> 6 & 0x3f)),
			b[2] = (uint8_t)(0x80 | (c & 0x3f)), n = 3;
		else
			b[0] = (uint8_t)(0xf0 | c >> 18), b[1] = (uint8_t)(0x80 | (c >> 12 & 0x3f)),
			b[2] = (uint8_t)(0x80 | (c >> 6 & 0x3f)), b[3] = (uint8_t)(0x80 | (c & 0x3f)), n = 4;
		bool ok = c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && !(c >= 0xd800 && c < 0xe000);
		uint32_t cp = 0;
		unsigned props = 99, len = vt_utf8_char(b, &cp, &props);
		if (ok ? (len != n || cp != c || props != vt_char_props(c)) : (len != 0 || props != 0)) {
			fprintf(stderr, "vt_utf8_char U+%04X: len %u cp %04X props %u\n", (unsigned)c, len,
				(unsigned)cp, props);
			failures++;
			return;
		}
		if (n > 1) {
			b[n - 1] = 0x20; /* truncated */
			if (vt_utf8_char(b, &cp, &props) != 0) {
				fprintf(stderr, "vt_utf8_char U+%04X truncated: decoded\n", (unsigned)c);
				failures++;
				return;
			}
		}
	}
	/* grid-utf8.c leaves C1 controls decoded from UTF-8 to the property table: neither plain nor Extend */
	for (uint32_t c = 0x80; c < 0xa0; c++) {
		unsigned pr = vt_char_props(c);
		if ((pr & 0x3fu) - 1 < 2 || (pr & 0x7cu) == (VT_PROP_MARK & 0x3cu)) {
			fprintf(stderr, "U+%04X: props %#x read as printable\n", (unsigned)c, pr);
			failures++;
		}
	}
	static const uint8_t bad[][4] = {{0xc0, 0x80}, {0xc1, 0xbf}, {0xe0, 0x9f, 0xbf}, {0xf0, 0x8f, 0xbf, 0xbf},
					 {0xf4, 0x90, 0x80, 0x80}, {0xf5, 0x80, 0x80, 0x80}, {0xf8, 0x88, 0x80, 0x80},
					 {0x80, 0x80}, {0xbf}, {0xff}, {0xfe}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t cp;
		unsigned props;
		if (vt_utf8_char(bad[i], &cp, &props) != 0) {
			fprintf(stderr, "vt_utf8_char: invalid form %zu decoded\n", i);
			failures++;
		}
	}
}

/* vt_utf8_pairs against vt_utf8_char for every first byte and every next byte: what the table takes is exactly
 * the one- or two-byte characters vt_utf8_char decodes to property 1 (plain, width 1) or VT_PROP_MARK, over
 * the whole table (rows 0x20..0x3f, the leads 0xe0..0xff, must be 0). */
static void utf8_pairs(void)
{
	for (uint32_t b = 0; b < 0x100; b++) {
		for (uint32_t t = 0; t < 0x100; t++) {
			const uint8_t s[4] = {(uint8_t)b, (uint8_t)t, 0x20, 0x20};
			uint32_t cp = 0;
			unsigned props = 0, len = vt_utf8_char(s, &cp, &props);
			int want = 0;
			if (len == 1 + (b >= 0x80) && props == 1)
				want = (int)cp;
			else if (len == 2 && props == VT_PROP_MARK)
				want = (int)cp - 0x8000;
			/* the loop's index: the single byte unless b is 0xc1 or above */
			uint32_t i = b >= 0xc1 ? (b - 0xc0u) << 8 | t : b;
			if (vt_utf8_pairs[i] != want) {
				fprintf(stderr, "vt_utf8_pairs %02x %02x: %d, want %d\n", (unsigned)b, (unsigned)t,
					vt_utf8_pairs[i], want);
				failures++;
				return;
			}
		}
	}
}

/* The ranges that grid-utf8-asm.h's AVX-512 block takes without the property table: CJK Unified Ideographs
 * U+4E00..U+9FFF, hiragana U+3041..U+3096 and katakana U+30A1..U+30FA must all be plain (class Other, not
 * Extended_Pictographic) and of width 2, property 2 and nothing else. */
static void wide_block_ranges(void)
{
	static const uint32_t r[][2] = {{0x4e00, 0x9fff}, {0x3041, 0x3096}, {0x30a1, 0x30fa}};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		for (uint32_t c = r[i][0]; c <= r[i][1]; c++) {
			if (vt_char_props(c) != 2) {
				fprintf(stderr, "U+%04X: props %#x, the wide block takes it as 2\n", (unsigned)c,
					vt_char_props(c));
				failures++;
				return;
			}
		}
	}
}

int main(void)
{
	const char *dir = getenv("UCD_DIR");
	widths();
	reset_after_break();
	utf8_char();
	utf8_pairs();
	wide_block_ranges();
	failures += grapheme_test(dir ? dir : "/usr/share/unicode");
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
