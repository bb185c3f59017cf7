/* grid/grid-sgr-long.c: the long plain SGRs (17 to 31 bytes, csi's "1;3;4;38;5;n;48;2;r;g;b") decoded and
 * applied straight from their bytes while they keep missing grid.sgr_long (grid-sgr-bytes.c's tables decide
 * when). Separate from grid-sgr-bytes.c for the files' size (under ~800 lines), and because it is a path of
 * its own: its own code tables (long_codes) and its own page (.text.kf_sgr_long), which the link places
 * right after grid-sgr-bytes.c's pages (the next file in meson.build: keep it there, an emulated guest's
 * count moves with where functions lie in their pages).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-sgr.h"

#if defined(GRID_SGR_LONG_512)
/* grid__sgr_long_direct_512 in the AVX-512 section between grid-sgr-bytes.c's page and this file's (named
 * here before this file's page: the link puts it right after grid-sgr-bytes.c's part of that section, in
 * the free end of the page before this one, and moves no function an emulated guest runs) */
__asm__(".section .text.kf_sgr512,\"ax\",@progbits\n\t.previous");
#endif

/* The long plain SGRs' decode (~1.2 KiB: in the frequent SGRs' page it straddled a page, 5 look-ups per SGR)
 * in a page of its own */
GRID_PAGE_BEGIN("sgr_long");

/* sgr_long_direct's codes 0..127 of grid__sgr_codes as masks of the pen's two words (pen = (pen & and) | or,
 * as sgr_tiny's), array by array: one base register and a displacement per array, no multiply or add per
 * code; ext: the field (F_FG, F_BG, F_UL) of a code that takes its colour from the parameters after it (38, 48,
 * 58, which change nothing by their masks), else 0. Made by long_codes_init (at the end of this file). */
static struct {
	uint64_t and0[128], and1[128], or0[128], or1[128];
	/* ext[LONG_END]: the end of the fields (not 0, so that the field loop tests one thing per code) */
	uint8_t ext[129];
} long_codes;

/* The code after the last field (long_vals.code[32], the bit 32 of the ends) */
#define LONG_END 128

/* The pen's words without field F_FG, F_BG or F_UL (where a colour of ext goes), by field */
_Static_assert(offsetof(struct grid_style, bg) == 4 && offsetof(struct grid_style, ul_color) == 8 &&
		       offsetof(struct grid_style, attrs) == 12 && offsetof(struct grid_style, underline) == 14,
	       "the pen's layout");
static const uint64_t long_keep[2][4] = {
	{~0ull, 0xffffffff00000000ull, 0x00000000ffffffffull, ~0ull},
	{~0ull, ~0ull, ~0ull, 0xffffffff00000000ull},
};

/* The pen's two words in general registers, not one vector (GCC's choice otherwise): an emulated guest
 * (QEMU's TCG, issue 5) runs each vector operation as a helper call */
#if defined(__GNUC__) && !defined(__clang__)
#define SGR_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define SGR_NO_SLP
#endif

/* A colour of ext field f (F_FG, F_BG, F_UL) into the pen's words p0, p1, through the field's mask (as
 * (p ^ w) & keep ^ w, p1 first: GCC's form of (p & keep) | (w & ~keep) took two register moves more per
 * colour) */
static inline __attribute__((always_inline)) void long_color(uint64_t *p0, uint64_t *p1, unsigned f, uint32_t color)
{
	const uint64_t w = color * 0x100000001ull;
	*p1 = ((*p1 ^ w) & long_keep[1][f]) ^ w;
	*p0 = ((*p0 ^ w) & long_keep[0][f]) ^ w;
}

/* The pen's words p0, p1 stored, and what every SGR leaves (bg: the pen's background before) */
static inline __attribute__((always_inline)) size_t long_done(struct grid *g, uint64_t p0, uint64_t p1, uint32_t bg,
							       unsigned n)
{
	struct grid_style *pen = &g->pen;
	memcpy(pen, &p0, 8);
	memcpy((char *)pen + 8, &p1, 8);
	g->erase_dirty |= pen->bg != bg;
	g->pen_dirty = true;
	g->pen_from = NULL;
	g->last_cp = 0;
	return n + 1;
}

/* Every field's number of a plain SGR by the field's end e (each ';' and n): lo[e] + 100 * hi[e], lo the
 * field's last two digits as a number, hi the two before them (0 for a field of two digits or fewer, an
 * empty field 0 in both), code[e] that number clamped to 127 */
struct long_vals {
	_Alignas(16) uint8_t before[16]; /* zeros: hi's loads start two bytes before lo */
	uint8_t lo[32];
	_Alignas(16) uint8_t hi[32];
	_Alignas(16) uint8_t code[48]; /* and code[32]: LONG_END */
};

/* The place of *ends' lowest bit (*ends not 0: the field that ends there, at most n < 32, or 32: LONG_END),
 * that bit cleared.
 * By tzcnt's 32-bit form, whose result the CPU zero-extends, and the clear right after it: GCC's
 * __builtin_ctz took two instructions more per field (a xor to break tzcnt's false dependency, a movslq of
 * its int), and in an emulated guest (QEMU's TCG) a flags-setting instruction whose flags are not
 * overwritten before the next load has its flags computed and stored (loads may fault). */
static inline __attribute__((always_inline)) size_t long_pop(uint64_t *ends)
{
#if defined(__x86_64__) && defined(__GNUC__)
	uint64_t e, t;
	__asm__("tzcnt %2, %0\n\tlea -1(%2), %1\n\tand %1, %2" : "=&r"(e), "=&r"(t), "+r"(*ends) : : "cc");
	return (size_t)e;
#else
	const size_t e = (size_t)__builtin_ctzll(*ends);
	*ends &= *ends - 1;
	return e;
#endif
}

/* The number of the field that ends at e (long_val), and the same clamped to 127 (long_codes' index) */
static inline __attribute__((always_inline)) uint32_t long_val(const struct long_vals *v, size_t e)
{
	return v->lo[e] + 100u * v->hi[e];
}

static inline __attribute__((always_inline)) uint32_t long_code(const struct long_vals *v, size_t e)
{
	return v->code[e];
}

/* The SGR s[0..n) (16 < n < 32, s[0..32) readable) when it is plain (digits and ';' only, no number of five
 * digits or more, as plain_fields takes): its numbers into v (struct long_vals) and its fields' ends (a bit
 * at each ';' and at n) into *ends, true. Every place's number at once, without a branch per field's length
 * (no run of five digits: four are all a number can have): at each place e, lo = the digit at e - 1 plus ten
 * times that at e - 2 (a ';' there adds 0) where e - 1 is a digit, hi = lo at e - 2 where e - 1 and e - 2
 * are digits. Where a loop per field branched on its digit count (csi's long SGRs: 11 fields of 1 to 3 digits
 * in no order a predictor learns: ~1.25 mispredictions an SGR in valgrind's model) and read each number by a
 * 4-byte load (a padded copy of the SGRs over 28 bytes). */
static inline __attribute__((always_inline)) bool long_fields(const uint8_t *s, unsigned n, struct long_vals *v,
							      uint64_t *ends)
{
	const uint32_t lim = (1u << n) - 1;
	uint32_t dig, semi;
#if defined(__SSE2__) && defined(__GNUC__)
	const __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)s);
	const __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
	/* digits as digit_mask finds them, kept as byte masks */
	const __m128i m0 = _mm_cmplt_epi8(_mm_add_epi8(a0, _mm_set1_epi8((char)0x50)), _mm_set1_epi8((char)(0x80 + 10)));
	const __m128i m1 = _mm_cmplt_epi8(_mm_add_epi8(a1, _mm_set1_epi8((char)0x50)), _mm_set1_epi8((char)(0x80 + 10)));
	dig = ((uint32_t)_mm_movemask_epi8(m0) | (uint32_t)_mm_movemask_epi8(m1) << 16) & lim;
	semi = (byte_mask(a0, ';') | byte_mask(a1, ';') << 16) & lim;
#else
	dig = semi = 0;
	for (unsigned k = 0; k < n; k++) {
		dig |= (uint32_t)((unsigned)s[k] - '0' < 10) << k;
		semi |= (uint32_t)(s[k] == ';') << k;
	}
#endif
	/* a run of five digits: two runs of two, two apart, and one more (as plain_fields); an empty field (an
	 * end at 0 or right after another end): left to the general path, where an empty part of a colour drops
	 * the colour and an empty code is 0 (one test for both) */
	const uint32_t d2 = dig & dig >> 1, d4 = d2 & d2 >> 2, e = semi | 1u << n;
	if ((dig | semi) != lim || (d4 & dig >> 4) || (e & (e << 1 | 1u)))
		return false;
	/* each ';', n, and 32: the end (LONG_END), so that the field loop needs no test of the ends per code
	 * (in an emulated guest, QEMU's TCG, every branch ends a translated block) */
	*ends = (semi | 1u << n) | 1ull << 32;
	v->code[32] = LONG_END;
#if defined(__SSE2__) && defined(__GNUC__)
	/* the bytes one and two places before each place e by loads from a copy after two ';', the numbers
	 * two places before by loads from lo's store after two zeros: not byte shifts of the vectors (an
	 * emulated guest, QEMU's TCG, runs those as a helper call each; a load runs inline) */
	_Alignas(16) uint8_t b[48];
	memcpy(b + 14, ";;", 2);
	_mm_store_si128((__m128i *)(void *)(b + 16), a0);
	_mm_store_si128((__m128i *)(void *)(b + 32), a1);
	const __m128i c30 = _mm_set1_epi8(0x30), c10 = _mm_set1_epi8(10), zero = _mm_setzero_si128();
/* the byte k places before each place, as its digit's value: every byte read for a place e <= n is a digit
 * (0..9) or a ';' (11) (checked above; the places after n are never read), so one signed compare tells them
 * apart */
#define LONG_AT(k) _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(b + 16 - (k))), c30)
/* ten times x (x at most 9: the words' shift moves no bit across a byte) */
#define LONG_TEN(x) _mm_add_epi8(_mm_add_epi8(x, x), _mm_slli_epi16(_mm_add_epi8(x, x), 2))
	/* lo: the digit at e - 1 and ten times that at e - 2 (0 at a ';'), where e - 1 is a digit */
	const __m128i x10 = LONG_AT(1), x11 = LONG_AT(-15), x20 = LONG_AT(2), x21 = LONG_AT(-14);
	const __m128i m10 = _mm_cmplt_epi8(x10, c10), m11 = _mm_cmplt_epi8(x11, c10);
	const __m128i m20 = _mm_cmplt_epi8(x20, c10), m21 = _mm_cmplt_epi8(x21, c10);
	const __m128i lo0 = _mm_and_si128(_mm_add_epi8(x10, LONG_TEN(_mm_and_si128(x20, m20))), m10);
	const __m128i lo1 = _mm_and_si128(_mm_add_epi8(x11, LONG_TEN(_mm_and_si128(x21, m21))), m11);
	_mm_store_si128((__m128i *)(void *)v->before, zero);
	_mm_store_si128((__m128i *)(void *)v->lo, lo0);
	_mm_store_si128((__m128i *)(void *)(v->lo + 16), lo1);
	/* hi: lo two places before (the two digits before those: 0 unless e - 3 is a digit), where e - 1 and
	 * e - 2 are digits */
	const __m128i hi0 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(v->lo - 2)),
					  _mm_and_si128(m10, m20));
	const __m128i hi1 = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(v->lo + 14)),
					  _mm_and_si128(m11, m21));
	_mm_store_si128((__m128i *)(void *)v->hi, hi0);
	_mm_store_si128((__m128i *)(void *)(v->hi + 16), hi1);
	/* the codes: lo for hi 0, lo + 100 (at most 199) for hi 1, 255 for more; then at most 127 */
#define LONG_CODE(lo, hi)                                                                                        \
	_mm_min_epu8(_mm_or_si128(_mm_add_epi8(lo, _mm_andnot_si128(_mm_cmpeq_epi8(hi, zero), _mm_set1_epi8(100))), \
				  _mm_cmpgt_epi8(hi, _mm_set1_epi8(1))),                                          \
		     _mm_set1_epi8(127))
	_mm_store_si128((__m128i *)(void *)v->code, LONG_CODE(lo0, hi0));
	_mm_store_si128((__m128i *)(void *)(v->code + 16), LONG_CODE(lo1, hi1));
#undef LONG_AT
#undef LONG_TEN
#undef LONG_CODE
#else
	v->lo[0] = v->hi[0] = v->code[0] = 0;
	unsigned before = 0; /* D[k - 1] */
	for (unsigned k = 0; k < n; k++) {
		const bool d = dig >> k & 1;
		const unsigned dv = d ? s[k] - (unsigned)'0' : 0;
		v->lo[k + 1] = d ? (uint8_t)(dv + 10 * before) : 0;
		v->hi[k + 1] = d && k >= 2 && (dig >> (k - 1) & 1) ? v->lo[k - 1] : 0;
		const unsigned x = v->lo[k + 1] + 100u * v->hi[k + 1];
		v->code[k + 1] = (uint8_t)(x > 127 ? 127 : x);
		before = dv;
	}
#endif
	return true;
}

/* A plain SGR of 17 bytes or more (not a colour form) once such SGRs keep missing grid.sgr_long (a
 * stream of fresh "1;3;4;38;5;n;48;2;r;g;b"): decoded and applied without the lookup and the entry, as
 * sgr_color_direct does with colours; one in 256 still goes through the table, and one found there
 * divides grid.sgr_long_misses by 16. Returns 0 for what sgr_plain_xform does not take (the parser's). */
GRID_PAGE("sgr_long") SGR_NO_SLP
__attribute__((noinline)) size_t grid__sgr_long_direct(struct grid *g, const uint8_t *s, unsigned n)
{
	if ((++g->sgr_long_misses & 255) == 0) {
		uint32_t before = g->sgr_long_misses;
		size_t r = grid__sgr_bytes_long_plain(g, s, n);
		if (g->sgr_long_misses == before)
			g->sgr_long_misses /= 16;
		return r;
	}
	struct long_vals v;
	uint64_t ends;
	if (!long_fields(s, n, &v, &ends))
		return 0;
	/* the pen changed in place, as two words: a code is its masks (long_codes), a colour is stored
	 * through its field's mask; where sgr_plain_run kept the fields and the attributes' masks apart
	 * (csi's "1;3;4;38;5;n;48;2;r;g;b": 9.8 k per 2 MiB) */
	struct grid_style *pen = &g->pen;
	const uint32_t bg = pen->bg;
	uint64_t p0, p1;
	memcpy(&p0, pen, 8);
	memcpy(&p1, (const char *)pen + 8, 8);
	for (;;) {
		const uint32_t c = long_code(&v, long_pop(&ends));
		const unsigned f = long_codes.ext[c];
		if (likely(!f)) {
			p0 = (p0 & long_codes.and0[c]) | long_codes.or0[c];
			p1 = (p1 & long_codes.and1[c]) | long_codes.or1[c];
			continue;
		}
		/* 38, 48, 58 as ext_color reads them (sgr_plain_run's): ;5;n or ;2;r;g;b, a missing part ends
		 * the sequence, another kind is skipped alone; LONG_END (no field left) ends it too */
		if (!(uint32_t)ends)
			break;
		/* (its code: 5 and 2 are what their numbers are) */
		const uint32_t kind = long_code(&v, long_pop(&ends));
		uint32_t color;
		bool ok;
		if (kind == 5) {
			if (!(uint32_t)ends)
				break;
			const uint32_t k = long_val(&v, long_pop(&ends));
			/* (the kinds' bits or'ed in without masks: a value of 256 or more is not stored) */
			color = 0x01000000u | k;
			ok = k < 256;
		} else if (kind == 2) {
			const uint32_t t1 = (uint32_t)ends & ((uint32_t)ends - 1);
			if (!(t1 & (t1 - 1)))
				break;
			const uint32_t r = long_val(&v, long_pop(&ends));
			const uint32_t gr = long_val(&v, long_pop(&ends));
			const uint32_t b = long_val(&v, long_pop(&ends));
			color = 0x02000000u | r << 16 | gr << 8 | b;
			ok = (r | gr | b) < 256;
		} else {
			continue;
		}
		if (ok)
			long_color(&p0, &p1, f, color);
	}
	return long_done(g, p0, p1, bg, n);
}

#if defined(GRID_SGR_LONG_512)
bool grid__sgr_long_512;

/* The numbers of the plain SGR s[0..n) (n < 32, s[0..32) readable) all at once, each in a 32-bit word of
 * v[0..*nf): the fields' ends (each ';' and n) as byte indices by one compress, each field's last four
 * places by a permute (those before its start zeroed), the digits joined by two multiply-adds; each also
 * clamped to 127 in code[0..*nf) (the codes' table index). Where
 * plain_fields' path reads each number by a branch on its digit count and a 4-byte load (csi's long SGRs:
 * 11 fields, their digit counts in no order a predictor learns). 1: done; 0: not a plain SGR (what
 * plain_fields refuses); 2: more than 16 fields. */
__attribute__((target(LONG_512_TARGET), always_inline)) static inline unsigned
long_fields_512(const uint8_t *s, unsigned n, uint32_t v[18], uint8_t code[16], unsigned *nf)
{
	/* constants loaded through an opaque pointer (GCC otherwise builds each from a general register) */
	static const uint8_t kc[4][64] __attribute__((aligned(64))) = {
		/* byte j: field j / 4's end (compressed byte j / 4) */
		{0,  0,	 0,  0,	 1,  1,	 1,  1,	 2,  2,	 2,  2,	 3,  3,	 3,  3,	 4,  4,	 4,  4,	 5,  5,
		 5,  5,	 6,  6,	 6,  6,	 7,  7,	 7,  7,	 8,  8,	 8,  8,	 9,  9,	 9,  9,	 10, 10,
		 10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15},
		/* byte j: the end before field j / 4 (its start less one; field 0's: masked off below) */
		{0,  0,	 0,  0,	 0,  0,	 0,  0,	 1,  1,	 1,  1,	 2,  2,	 2,  2,	 3,  3,	 3,  3,	 4,  4,
		 4,  4,	 5,  5,	 5,  5,	 6,  6,	 6,  6,	 7,  7,	 7,  7,	 8,  8,	 8,  8,	 9,  9,	 9,  9,
		 10, 10, 10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14},
		/* byte j: its place in the field's four, from the end (-4..-1) */
		{0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff,
		 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff,
		 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff,
		 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff},
		/* the byte indices 0..31 (compressed by the ends), then the digits' multipliers 10, 1 */
		{0,  1,	 2,  3,	 4,  5,	 6,  7,	 8,  9,	 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,
		 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1,	 10, 1},
	};
	const uint8_t *k = &kc[0][0];
	__asm__("" : "+r"(k));
	const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)s);
	const __m256i d = _mm256_sub_epi8(a, _mm256_set1_epi8('0'));
	const uint32_t lim = _bzhi_u32(~0u, n);
	const uint32_t dig = _mm256_cmplt_epu8_mask(d, _mm256_set1_epi8(10)) & lim;
	const uint32_t semi = _mm256_cmpeq_epi8_mask(a, _mm256_set1_epi8(';')) & lim;
	/* as long_fields: digits and ';' only, no run of five digits, no empty field */
	const uint32_t d2 = dig & dig >> 1, d4 = d2 & d2 >> 2, ends = semi | 1u << n;
	if ((dig | semi) != lim || (d4 & dig >> 4) || (ends & (ends << 1 | 1u)))
		return 0;
	*nf = (unsigned)__builtin_popcount(ends);
	if (*nf > 16)
		return 2;
	const __m512i ki = _mm512_load_si512((const void *)(k + 192));
	const __m512i e = _mm512_castsi256_si512(_mm256_maskz_compress_epi8(ends, _mm512_castsi512_si256(ki)));
	/* each field's end, and its start (the end before, plus one; field 0's 0), in every byte of its word */
	const __m512i eb = _mm512_permutexvar_epi8(_mm512_load_si512((const void *)k), e);
	const __m512i sb = _mm512_maskz_permutexvar_epi8(~0xfull, _mm512_load_si512((const void *)(k + 64)),
							 _mm512_add_epi8(e, _mm512_set1_epi8(1)));
	/* the field's last four places (negative ones before its start too) */
	const __m512i pos = _mm512_add_epi8(eb, _mm512_load_si512((const void *)(k + 128)));
	const __mmask64 in = _mm512_cmpge_epi8_mask(pos, sb);
	const __m512i x = _mm512_maskz_permutexvar_epi8(in, pos, _mm512_castsi256_si512(d));
	/* thousands * 10 + hundreds, tens * 10 + units as words, then those by 100 and 1 */
	const __m128i m10 = _mm_load_si128((const __m128i *)(const void *)(k + 224));
	const __m512i w = _mm512_maddubs_epi16(x, _mm512_broadcast_i32x4(m10));
	const __m512i num = _mm512_madd_epi16(w, _mm512_set1_epi32(0x00010064));
	_mm512_storeu_si512((void *)v, num);
	v[16] = v[17] = 0;
	/* and as codes, clamped to 127 as the loop above clamps them (one byte each) */
	_mm_storeu_si128((__m128i *)(void *)code, _mm512_cvtepi32_epi8(_mm512_min_epu32(num, _mm512_set1_epi32(127))));
	return 1;
}

/* grid__sgr_long_direct on CPUs with AVX-512 VBMI and VBMI2 (grid__sgr_long_512), called by grid-sgr-bytes.c's
 * AVX-512 colour entry (neither valgrind nor an emulated guest runs it): the numbers by long_fields_512, then
 * the same codes and colours as the field loop above, from them. */
GRID_PAGE("sgr512") __attribute__((target(LONG_512_TARGET), noinline)) SGR_NO_SLP size_t
grid__sgr_long_direct_512(struct grid *g, const uint8_t *s, unsigned n)
{
	uint32_t v[18];
	uint8_t code[16];
	unsigned nf;
	/* not plain, more than 16 fields, or the one SGR in 256 that goes through grid.sgr_long (the count of
	 * misses about to reach a multiple of 256): grid__sgr_long_direct's, which counts it */
	if (long_fields_512(s, n, v, code, &nf) != 1 || ((g->sgr_long_misses + 1) & 255) == 0)
		return grid__sgr_long_direct(g, s, n);
	g->sgr_long_misses++;
	struct grid_style *pen = &g->pen;
	const uint32_t bg = pen->bg;
	uint64_t p0, p1;
	memcpy(&p0, pen, 8);
	memcpy(&p1, (const char *)pen + 8, 8);
	unsigned i = 0;
	while (i < nf) {
		const unsigned c = code[i++];
		const unsigned f = long_codes.ext[c];
		if (likely(!f)) {
			p0 = (p0 & long_codes.and0[c]) | long_codes.or0[c];
			p1 = (p1 & long_codes.and1[c]) | long_codes.or1[c];
			continue;
		}
		/* as the loop above: ;5;n or ;2;r;g;b, a missing part ends the sequence, another kind is
		 * skipped alone */
		if (i >= nf)
			break;
		const uint32_t kind = v[i++];
		if (kind != 5 && kind != 2)
			continue;
		/* the palette's number or r, g, b: the three words read either way (v[16], v[17] zero), the
		 * form chosen without a branch */
		const bool pal = kind == 5;
		const unsigned need = pal ? 1 : 3;
		if (i + need > nf)
			break;
		const uint32_t x0 = v[i], x1 = v[i + 1], x2 = v[i + 2];
		i += need;
		const uint32_t color = pal ? GRID_COLOR_PALETTE(x0) : GRID_COLOR_RGB(x0, x1, x2);
		if ((pal ? x0 : x0 | x1 | x2) < 256)
			long_color(&p0, &p1, f, color);
	}
	return long_done(g, p0, p1, bg, n);
}
#endif

/* long_codes made once from grid__sgr_codes, padding bytes 0 in both masks. In this page, after
 * sgr_long_direct (the page's free end), not among the start-up code: the constructors' size moves every
 * function after them, and an emulated guest's count (issue 5) moves with where functions lie in their pages. */
GRID_PAGE("sgr_long") __attribute__((constructor)) static void long_codes_init(void)
{
	long_codes.ext[LONG_END] = F_FG;
	for (unsigned c = 0; c < 128; c++) {
		const struct sgr_code *e = &grid__sgr_codes[c];
		const uint64_t val = e->val;
		uint64_t a0 = ~0ull, a1 = 0x00ffffffffffffffull & ~((uint64_t)e->clear << 32), o0 = 0,
			 o1 = (uint64_t)e->on << 32;
		switch (e->field) {
		case F_FG: a0 = 0xffffffff00000000ull, o0 = val; break;
		case F_BG: a0 = 0x00000000ffffffffull, o0 = val << 32; break;
		case F_UL: a1 &= 0xffffffff00000000ull, o1 |= val; break;
		case F_US: a1 &= ~(0xffull << 48), o1 |= val << 48; break;
		case F_RESET: a0 = a1 = 0; break;
		case F_EXT: long_codes.ext[c] = (uint8_t)val; break;
		default: break;
		}
		long_codes.and0[c] = a0, long_codes.and1[c] = a1;
		long_codes.or0[c] = o0, long_codes.or1[c] = o1;
	}
}
