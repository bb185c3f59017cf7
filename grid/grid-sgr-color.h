/* grid/grid-sgr-color.h: the colour SGRs' decode from their bytes ("38;5;n", "48;2;r;g;b", "38:2::r:g:b", ...),
 * included by grid-sgr-bytes.c only (which has the tables and the paths that apply the colour): the head of
 * the eight forms, the tail's classification, the numbers, and (grid-sgr-512.h) the AVX-512 decode. Kept
 * apart so that each file stays under ~800 lines. */
#ifndef GRID_SGR_COLOR_H
#define GRID_SGR_COLOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-sgr.h"

/* The head of a colour SGR in s[0..5) (s[0..8) readable): "38;2;", "38;5;", "48;2;", "48;5;" or the same
 * with ':'. The multiplier sends the eight to the eight places of the table (one multiply and one compare,
 * no branch per byte: the kinds of colour SGR come in no predictable order). Whether it is one; the five
 * bytes as a word in *head (see the HEAD_ macros) either way. */
static inline bool color_head(const uint8_t *s, uint64_t *head)
{
	static const uint64_t heads[8] = {
		0x3a323a3833ull, 0x3b353b3834ull, 0x3b323b3834ull, 0x3a353a3834ull, /* 38:2: 48;5; 48;2; 48:5: */
		0x3a323a3834ull, 0x3b353b3833ull, 0x3b323b3833ull, 0x3a353a3833ull, /* 48:2: 38;5; 38;2; 38:5: */
	};
	uint64_t w;
	memcpy(&w, s, 8);
	w &= 0xffffffffffull;
	*head = w;
	return heads[(w * 0x78f845f57b3120dfull) >> 61] == w;
}

/* color_head for sgr_color_direct: the five bytes at the top of the word (a shift, where the mask of the low
 * five takes a 10-byte move of a constant and an and); its bits below by the HT_ macros */
static inline bool color_head_top(const uint8_t *s, uint64_t *head)
{
	static const uint64_t heads[8] = {
		0x3b353b3834ull << 24, 0x3b323b3833ull << 24, 0x3b353b3833ull << 24, 0x3a323a3834ull << 24,
		0x3a353a3834ull << 24, 0x3a323a3833ull << 24, 0x3a353a3833ull << 24, 0x3b323b3834ull << 24,
	};
	uint64_t w;
	memcpy(&w, s, 8);
	w <<= 24;
	*head = w;
	return heads[(w * 0x677f6cbdcc22af59ull) >> 61] == w;
}
/* the palette form's '5' (odd) or the direct one's '2' read again from the SGR: a test of bit 48 of the word
 * is a bt, whose flags QEMU's TCG (issue 5's guests) computes through a helper call (guest csi +0.9 %) */
#define HT_PAL(s) ((s)[3] & 1)
#define HT_SEMI16(h) ((unsigned)((h) >> 36 & 16)) /* ';': 16, ':': 0 */

#define HEAD_SET(h) (X_FG << ((h) >> 2 & 1))  /* '3' or '4' */
#define HEAD_PAL(h) ((h) >> 24 & 1)           /* '5' or '2' */
#define HEAD_COLON(h) (!((h) >> 16 & 1))      /* ':' or ';' */

#if defined(__SSE2__) && defined(__GNUC__)
#include "grid/grid-sgr-512.h"
#endif

/* The colour forms (38;2;r;g;b, 38:2:r:g:b, 38:2:Pi:r:g:b, 38;5;n, 38:5:n, 48 alike) in the SGR s[0..n)
 * (s[0..32) readable), as the parsed form would give them: numbers of 1 to 4 digits (not empty), the tail
 * after the head at most 15 bytes; anything else is left to sgr_plain_xform (which reads 4-digit ones) or
 * the parser. First the head (color_head, into *head) and the tail's bytes: digits and the head's separator
 * only, a bit per separator in *sm. The tail is one vector: the whole SGR in one or two (by its length, which
 * came in no order a predictor learns: 12.7 k mispredictions on csi's 2 MiB) cost more. */
static inline __attribute__((always_inline)) bool color_scan_tail(const uint8_t *s, unsigned n, unsigned semi,
								   unsigned *sm)
{
	const unsigned len = n - 5; /* the tail's bytes */
	const uint8_t *t = s + 5;
#if defined(__SSE2__) && defined(__GNUC__)
	const unsigned lim = (1u << len) - 1; /* (n < 32 here: sgr_bytes_long_t's at most) */
	/* by the separator's low bit (':' 0x3a, ';' 0x3b), an offset into the table without a compare. (One range
	 * test after the ';' form's bytes xor'ed with 1, which swaps ':' and ';', took 113 k instructions fewer on
	 * csi's 2 MiB but cost the emulated guest 401 k more: docs/benchmarks.md, session 28 "colour".) */
	static const char seps[2][16] = {
		{':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':', ':'},
		{';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';'},
	};
	_Static_assert(sizeof(seps[0]) == 16, "a row is 16 bytes: semi is 0 or 16");
	const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)t);
	const unsigned dig = digit_mask(a);
	const __m128i sv = _mm_loadu_si128((const __m128i *)(const void *)(&seps[0][0] + semi));
	const unsigned sep = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, sv));
	/* a tail of 16 bytes or more (lim's bit 15 set) left to the general path, as the compare of len with
	 * 15 did in two instructions more */
	if (((dig | sep) & lim & 0x7fffu) != lim)
		return false;
	*sm = sep & lim;
	return true;
#else
	if (len > 15)
		return false;
	const unsigned lim = (1u << len) - 1;
	const bool colon = !semi;
	unsigned dig = 0, sep = 0;
	for (unsigned k = 0; k < len; k++) {
		dig |= (unsigned)((unsigned)t[k] - '0' < 10) << k;
		sep |= (unsigned)(t[k] == (colon ? ':' : ';')) << k;
	}
	*sm = sep & lim;
	return ((dig | sep) & lim) == lim;
#endif
}

static inline __attribute__((always_inline)) bool color_scan(const uint8_t *s, unsigned n, uint64_t *head,
							      unsigned *sm)
{
	uint64_t h;
	if (!color_head(s, &h))
		return false;
	*head = h;
	return color_scan_tail(s, n, (unsigned)(h >> 12 & 16), sm);
}

/* digits_top of a number of m + 1 digits (m 0..3): its callers have the length less one (to test 1 to 4 in one
 * compare), and the one is then in the table's address, not an instruction */
static inline uint32_t digits_top_m1(const uint8_t *s, unsigned m)
{
	static const uint32_t to_top[4] = {1u << 24, 1u << 16, 1u << 8, 1};
	uint32_t w;
	memcpy(&w, s, 4);
	return (w ^ 0x30303030u) * to_top[m];
}

/* The colour r;g;b of the numbers t[a..a + la + 1), t[b..b + lb + 1), t[c..c + lc + 1) (la, lb, lc: each
 * number's digits less one, 0..3; t[x..x + 4) readable); whether all are below 256 (*out meant only then).
 * As digits_at, r's and g's words in one 64-bit word whose steps make both at once (no carry crosses a half:
 * r in bits 16..31, g in 48..63; exact for 4 digits too, each pair's sum then at most 99 as with 3). */
static inline __attribute__((always_inline)) bool rgb_at(const uint8_t *t, unsigned a, unsigned la, unsigned b,
							  unsigned lb, unsigned c, unsigned lc, uint32_t *out)
{
	uint64_t x = (uint64_t)digits_top_m1(t + a, la) | (uint64_t)digits_top_m1(t + b, lb) << 32;
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
	x *= 1u + (100u << 16);
	/* b as digits_join's product, b in bits 16..31 as r: its bits 24..31 tested with r's, one mask */
	uint32_t bp = digits_top_m1(t + c, lc);
	bp = ((bp * 10 + (bp >> 8)) & 0x00ff00ffu) * (1u + (100u << 16));
	*out = 0x02000000u | ((uint32_t)x & 0x00ff0000u) | ((uint32_t)(x >> 40) & 0xff00u) | bp >> 16;
	return ((x | bp) & 0xff000000ff000000ull) == 0;
}

/* The direct colour after the head from the tail t[0..len) (digits and separators, a bit per separator in
 * sm): "r;g;b" (or ":Pi:r:g:b" in the colon form, Pi empty or digits and ignored), each number of 1 to 4
 * digits and below 256: what ext_color makes a colour of. Returns false for anything else, an empty number
 * too: the ';' form then sets no colour and the ':' form reads it as 0 (xterm's rules, conformance case
 * sgr-empty-color), which the general path tells apart; here one test for both forms. */
static inline __attribute__((always_inline)) bool color_tail(const uint8_t *t, unsigned len, unsigned sm,
							      bool colon, uint32_t *out)
{
	/* r;g;b: two separators; Pi:r:g:b (colon form only): three, Pi ignored */
	unsigned e0 = (unsigned)__builtin_ctz(sm | 1u << 31), st = 0;
	sm &= sm - 1;
	unsigned e1 = (unsigned)__builtin_ctz(sm | 1u << 31);
	sm &= sm - 1;
	if (sm) {
		if (!colon || (sm & (sm - 1)))
			return false;
		st = e0 + 1, e0 = e1, e1 = (unsigned)__builtin_ctz(sm);
	}
	/* fewer than two separators: e1 is 31 (sm holds none past the tail), so l1 is 16 or more; each length
	 * less one, so that an empty number wraps to the top (1 to 4 digits: rgb_at's sums are exact for 4) */
	const unsigned m0 = e0 - st - 1, m1 = e1 - e0 - 2, m2 = len - e1 - 2;
	if ((m0 | m1 | m2) > 3)
		return false;
	return rgb_at(t, st, m0, e0 + 1, m1, e1 + 1, m2, out);
}

/* The palette form's tail t[0..len) ("n": 1 to 4 digits, below 256: an empty one is color_tail's case;
 * t[0..4) readable) without color_scan's
 * vector (~30 instructions less): the digits at the top of a word (digits_top), each byte then
 * below 10 (b ^ '0' < 10 only for '0'..'9'; a byte of 0x8a or more carries, but has its top bit set). */
static inline __attribute__((always_inline)) bool pal_tail(const uint8_t *t, unsigned len, uint32_t *out)
{
	if (len - 1 > 3)
		return false;
	const uint32_t x = digits_top(t, len);
	const uint32_t bad = (x | (x + 0x76767676u)) & 0x80808080u;
	const uint32_t c = digits_join(x);
	*out = 0x01000000u | c; /* GRID_COLOR_PALETTE(c) when c < 256, the only case taken */
	return (bad | c >> 8) == 0;
}

/* The colour of such an SGR, and its head in *head: false for anything else. The palette form by pal_tail,
 * the direct one by color_scan's vector. */
static inline __attribute__((always_inline)) bool sgr_color_decode(const uint8_t *s, unsigned n, uint64_t *head,
								    uint32_t *out)
{
	unsigned sm;
	uint64_t h;
	if (!color_head(s, &h))
		return false;
	*head = h;
	if (HEAD_PAL(h))
		return pal_tail(s + 5, n - 5, out);
	if (!color_scan(s, n, head, &sm))
		return false;
	return color_tail(s + 5, n - 5, sm, HEAD_COLON(*head), out);
}

#endif
