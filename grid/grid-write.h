/* grid/grid-write.h: the cells of a run of printable ASCII written into a row (write_ascii and its writers
 * by length and CPU). Only for grid-print.c, which includes it where these functions belong in its page
 * sections (GRID_PAGE "print" and "print_rows"): static functions, defined once.
 */
#ifndef GRID_WRITE_H
#define GRID_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-internal.h"

#if defined(__GNUC__) && defined(__x86_64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_WRITE_AVX 1
#include <immintrin.h>
/* write_ascii's bulk on CPUs with AVX (checked at run time: the build's baseline ISA is SSE2; AVX for
 * pshufb, and for its three-operand forms, which need no register copies): 16 bytes
 * become 16 cells (12 vectors), each vector one pshufb of the bytes (placing the code points, zeroing the
 * rest) ORed with the constant words (style | link << 16, width 1). 4 cells are 3 vectors, so the 4
 * groups differ only in a 4-byte shift of the source. Returns the cells done, a multiple of 16. */
__attribute__((target("avx"))) static size_t write_ascii16(unsigned char *p, const uint8_t *s, size_t k,
							    uint32_t sl)
{
	const __m128i m0 = _mm_setr_epi8(0, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 1,
					 -128, -128, -128),
		      m1 = _mm_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128, 2, -128, -128, -128, -128,
					 -128, -128, -128),
		      m2 = _mm_setr_epi8(-128, -128, -128, -128, 3, -128, -128, -128, -128, -128, -128, -128, -128,
					 -128, -128, -128);
	const int w = (int)sl;
	const __m128i k0 = _mm_set_epi32(0, 1, w, 0), k1 = _mm_set_epi32(w, 0, 1, w), k2 = _mm_set_epi32(1, w, 0, 1);
	size_t i = 0;
	for (; i + 16 <= k; i += 16, p += 192) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i *o = (__m128i *)(void *)p;
		for (int g = 0; g < 4; g++, o += 3) {
			_mm_storeu_si128(o, _mm_or_si128(_mm_shuffle_epi8(b, m0), k0));
			_mm_storeu_si128(o + 1, _mm_or_si128(_mm_shuffle_epi8(b, m1), k1));
			_mm_storeu_si128(o + 2, _mm_or_si128(_mm_shuffle_epi8(b, m2), k2));
			b = _mm_srli_si128(b, 4);
		}
	}
	return i;
}

/* write_ascii16 on CPUs with AVX2 (checked at run time), 8 cells (3 vectors) from 8 bytes: the bytes
 * zero-extended to 8 code point lanes, two sources of 8 lanes made of them and the constant words (style |
 * link << 16, width 1), and one vpermd per vector from a source. No byte shuffle: as fast on hardware as
 * the 32-byte pshufb it replaced (broadcast, 6 pshufb, one byte shift per 16 cells), and emulators (QEMU's
 * TCG) run pshufb and the 32-byte shift as costly helper calls (docs/benchmarks.md, issue 5, session 7). */
__attribute__((target("avx2"))) static inline void write8_avx2(unsigned char *p, __m128i bytes, uint32_t sl)
{
	const int w = (int)sl;
	const __m256i z = _mm256_cvtepu8_epi32(bytes);
	/* s0 = {cp0 .. cp5, sl, 1}, s1 = {sl, 1, cp2 .. cp7} */
	const __m256i s0 = _mm256_or_si256(_mm256_and_si256(z, _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0)),
					   _mm256_setr_epi32(0, 0, 0, 0, 0, 0, w, 1)),
		      s1 = _mm256_or_si256(_mm256_and_si256(z, _mm256_setr_epi32(0, 0, -1, -1, -1, -1, -1, -1)),
					   _mm256_setr_epi32(w, 1, 0, 0, 0, 0, 0, 0));
	__m256i *o = (__m256i *)(void *)p;
	_mm256_storeu_si256(o, _mm256_permutevar8x32_epi32(s0, _mm256_setr_epi32(0, 6, 7, 1, 6, 7, 2, 6)));
	_mm256_storeu_si256(o + 1, _mm256_permutevar8x32_epi32(s0, _mm256_setr_epi32(7, 3, 6, 7, 4, 6, 7, 5)));
	_mm256_storeu_si256(o + 2, _mm256_permutevar8x32_epi32(s1, _mm256_setr_epi32(0, 1, 6, 0, 1, 7, 0, 1)));
}

/* write8_avx2 for short runs (under 32 cells: escape-heavy output's words and fields), without lane shuffles or
 * variable shifts. The 24 dwords of 8 cells are, vector by vector, {c0, w, 1, c1, w, 1, c2, w}, {1, c3, w, 1, c4, w, 1,
 * c5}, {w, 1, c6, w, 1, c7, w, 1} (c the code points, w the style word: style | link << 16). A vector's code points all
 * lie in one 4-byte group of the text, broadcast to every dword (c0..c3, c3..c6, c4..c7: loads within the 8 bytes); a
 * multiply by a power of two per dword (vpmulld) lifts the dword's byte to its top, 0 empties the constant dwords, and
 * one shift by 24 brings the byte down alone; the constant dwords are ORed in (k0..k2, write_short_avx2). As many
 * instructions as the form it replaced (a broadcast, two 64-bit shifts, three vpsrlvq and masks), four more than
 * write8_avx2 (so long runs keep that), and QEMU's TCG (the VM guests of issue 5) runs vpmulld and the shift inline
 * where each vpsrlvq (like vpermd and vpmovzxbd, which write8_avx2 takes for long runs) is a helper call of ~40
 * instructions: the guest's csi -1.8 %. vpmulld has a longer latency on Intel cores (10 cycles), but no store waits on
 * another vector's (docs/benchmarks.md, issue 5, session 42).
 */
__attribute__((target("avx2"))) static inline void write8_short(unsigned char *p, const uint8_t *s, __m256i m0,
								__m256i m1, __m256i m2, __m256i k0, __m256i k1,
								__m256i k2)
{
	uint32_t a, b, d;
	memcpy(&a, s, 4);
	memcpy(&b, s + 3, 4);
	memcpy(&d, s + 4, 4);
	const __m256i o0 = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)a), m0), 24),
		      o1 = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)b), m1), 24),
		      o2 = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)d), m2), 24);
	__m256i *o = (__m256i *)(void *)p;
	_mm256_storeu_si256(o, _mm256_or_si256(o0, k0));
	_mm256_storeu_si256(o + 1, _mm256_or_si256(o1, k1));
	_mm256_storeu_si256(o + 2, _mm256_or_si256(o2, k2));
}

/* The least run write_ascii writes with vectors: 16 with AVX (write_ascii16) or AVX2, 1 where write_short_512
 * takes the runs under 32 (CPUs with AVX-512); SIZE_MAX without AVX. Set once (write_init), with which of the
 * AVX2 writers (AVX2 without AVX-512) or the AVX-512 one the CPU takes. One compare with it stands where the
 * compare with 16 was, and one test of write_avx2 where the CPU check was: an emulated guest (AVX2, no
 * AVX-512: issue 5's figure) runs no instruction more for the AVX-512 path. */
static size_t write_min = SIZE_MAX;
static bool write_avx2, write_512;
/* The runs write_short_512 takes, tested first of those of write_min or more where write_ascii_by's
 * direct_512 asks (ascii_styled's runs between escape sequences): k < 32 with AVX-512, none (0) without. On
 * those CPUs such a run reaches it by one jump, not through write_other and its two tests (~6 instructions
 * and a second jump per run); elsewhere it is one compare more per run of write_min (16) or more, none for
 * the shorter ones. Only there: in the "print_rows" page's copies the test pushed put_one_dirty across the
 * page's end (an emulated guest's TB look-ups +0.6 %). */
static size_t write_512_below;

/* Any run of k < 32 cells with AVX-512 (BW, VL): the bytes by one masked load, zero-extended to 16 code point
 * lanes twice, and each vector of cells one vpermt2d of them and the constant words (style | link << 16, 1),
 * stored with a mask of the run's words: no loop and no branch on k (csi's text runs of 1 to 24 cells come
 * in no order a predictor learns: write_words' two loops and write_ascii's k >= 16 took ~28 k, 28 k and 30 k
 * of valgrind's simulated mispredictions per 4 MiB of csi). csi +9-13 % and scrolling_region +31 % by
 * thread CPU on a Xeon with AVX-512 (docs/benchmarks.md, issue 2, session 21). */
static const int32_t write512_idx[3][16] = {
#define I(d) ((d) % 3 == 0 ? (d) / 3 : 16 + (d) % 3 - 1)
	{I(0), I(1), I(2), I(3), I(4), I(5), I(6), I(7), I(8), I(9), I(10), I(11), I(12), I(13), I(14), I(15)},
	{I(16), I(17), I(18), I(19), I(20), I(21), I(22), I(23), I(24), I(25), I(26), I(27), I(28), I(29), I(30),
	 I(31)},
	{I(32), I(33), I(34), I(35), I(36), I(37), I(38), I(39), I(40), I(41), I(42), I(43), I(44), I(45), I(46),
	 I(47)},
#undef I
};

/* (in no page: only CPUs with AVX-512 run it, and neither QEMU's TCG nor valgrind has it, so no emulated
 * guest pays a TB look-up for reaching it; the "print" page's room went to ascii_place's split) */
__attribute__((target("avx512f,avx512bw,avx512vl,bmi2"), noinline)) static void write_short_512(unsigned char *p,
												 const uint8_t *s, size_t k,
												 uint32_t sl)
{
	const __m256i b = _mm256_maskz_loadu_epi8(_bzhi_u32(~0u, (unsigned)k), s);
	const __m512i lo = _mm512_cvtepu8_epi32(_mm256_castsi256_si128(b)),
		      hi = _mm512_cvtepu8_epi32(_mm256_extracti128_si256(b, 1));
	/* lanes 16 and 17 of vpermt2d's table: the style word and the width word */
	const __m512i w = _mm512_set1_epi64((long long)((uint64_t)sl | 1ull << 32));
	const __m512i i0 = _mm512_loadu_si512(write512_idx[0]), i1 = _mm512_loadu_si512(write512_idx[1]),
		      i2 = _mm512_loadu_si512(write512_idx[2]);
	/* a bit per word of the run: 3k < 96, in m0 and m1 */
	const unsigned words = 3 * (unsigned)k, over = words > 64 ? words - 64 : 0;
	const uint64_t m0 = _bzhi_u64(~0ull, words), m1 = _bzhi_u32(~0u, over); /* (bzhi keeps all from 64 on) */
	_mm512_mask_storeu_epi32(p, (__mmask16)m0, _mm512_permutex2var_epi32(lo, i0, w));
	_mm512_mask_storeu_epi32(p + 64, (__mmask16)(m0 >> 16), _mm512_permutex2var_epi32(lo, i1, w));
	_mm512_mask_storeu_epi32(p + 128, (__mmask16)(m0 >> 32), _mm512_permutex2var_epi32(lo, i2, w));
	_mm512_mask_storeu_epi32(p + 192, (__mmask16)(m0 >> 48), _mm512_permutex2var_epi32(hi, i0, w));
	_mm512_mask_storeu_epi32(p + 256, (__mmask16)m1, _mm512_permutex2var_epi32(hi, i1, w));
	_mm512_mask_storeu_epi32(p + 320, (__mmask16)(m1 >> 16), _mm512_permutex2var_epi32(hi, i2, w));
}

/* A run of 16 <= k < 32 cells by write8_short: 8 cells per step, the rest as the last 8 cells again. The
 * constant words from the style word broadcast, by masks and ORs (no lane inserts: fewer instructions than
 * building them lane by lane, which a run of 2-4 steps would feel). */
GRID_PAGE("print")
__attribute__((target("avx2"))) static void write_short_avx2(unsigned char *p, const uint8_t *s, size_t k, uint32_t sl)
{
	const long long w_hi = (long long)0xffffffff00000000ull, w_lo = 0xffffffff, one = 1, one_hi = 1LL << 32;
	const __m256i w = _mm256_set1_epi32((int)sl);
	const __m256i k0 = _mm256_or_si256(_mm256_and_si256(w, _mm256_setr_epi64x(w_hi, 0, w_lo, w_hi)),
					   _mm256_setr_epi64x(0, one, one_hi, 0)),
		      k1 = _mm256_or_si256(_mm256_and_si256(w, _mm256_setr_epi64x(0, w_lo, w_hi, 0)),
					   _mm256_setr_epi64x(one, one_hi, 0, one)),
		      k2 = _mm256_or_si256(_mm256_and_si256(w, _mm256_setr_epi64x(w_lo, w_hi, 0, w_lo)),
					   _mm256_setr_epi64x(one_hi, 0, one, one_hi));
	/* the multipliers: byte j of a dword's group to its top by 1 << (24 - 8j) (write8_short) */
	const __m256i m0 = _mm256_setr_epi32(1 << 24, 0, 0, 1 << 16, 0, 0, 1 << 8, 0),
		      m1 = _mm256_setr_epi32(0, 1 << 24, 0, 0, 1 << 16, 0, 0, 1 << 8),
		      m2 = _mm256_setr_epi32(0, 0, 1 << 8, 0, 0, 1, 0, 0);
	/* 16 <= k < 32 (write_ascii_by): two steps, a third from 24 cells on, the rest as the last 8 cells
	 * again; no loop, and the multipliers stay in registers for the last step */
	write8_short(p, s, m0, m1, m2, k0, k1, k2);
	write8_short(p + 96, s + 8, m0, m1, m2, k0, k1, k2);
	if (k >= 24)
		write8_short(p + 192, s + 16, m0, m1, m2, k0, k1, k2);
	if (k & 7)
		write8_short(p + (k - 8) * 12, s + k - 8, m0, m1, m2, k0, k1, k2);
}

/* A run of k >= 16 cells on CPUs with AVX2: 8 cells per step, the rest as the last 8 cells again
 * (overlapping the cells before it, rewritten with the same values), in one call. Runs under 16 are stored
 * as words by write_ascii: as few instructions on the host, and far cheaper in an emulator (QEMU's TCG runs
 * each vpermd as a helper call of ~67 instructions; docs/benchmarks.md, issue 2, session 8); runs under 32
 * by write_short_avx2. In print_ascii_rows' page (its long rows are the callers): with write_short_avx2 the
 * "print" page would overflow, and a TB look-up per call cost the guest more (issue 5, session 14). */
GRID_PAGE("print_rows")
__attribute__((target("avx2"))) static void write_run_avx2(unsigned char *p, const uint8_t *s, size_t k, uint32_t sl)
{
	size_t i = 0;
	for (; i + 8 <= k; i += 8)
		write8_avx2(p + i * 12, _mm_loadl_epi64((const __m128i *)(const void *)(s + i)), sl);
	if (i < k)
		write8_avx2(p + (k - 8) * 12, _mm_loadl_epi64((const __m128i *)(const void *)(s + k - 8)), sl);
}

GRID_PAGE("print_rows") __attribute__((constructor)) static void write_init(void)
{
	__builtin_cpu_init();
	const bool avx2 = __builtin_cpu_supports("avx2");
	write_512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
	write_avx2 = avx2 && !write_512;
	write_512_below = write_512 ? 32 : 0;
	if (__builtin_cpu_supports("avx"))
		write_min = write_512 ? 1 : 16;
}
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* write_ascii's cells as words, four per iteration: for runs under 16 cells (and any run on a CPU without
 * AVX). Out of line, a tail call: inline, its loop's registers made print_ascii_run's common path save six
 * registers and spill (csi's text runs between escape sequences are ~15 cells). Inline in print_ascii_rows
 * (write_ascii_rows), which calls anyway: its call there, from the "print_rows" page to this one, and the
 * return cost an emulated guest (AVX2, no AVX-512) two TB look-ups per short row segment. */
static inline __attribute__((always_inline)) void write_words_body(unsigned char *p, const uint8_t *s, size_t k,
								   uint64_t hi)
{
	const uint32_t w1 = 1;
	size_t i = 0;
	for (; i + 4 <= k; i += 4, p += 48) {
		uint64_t a = s[i] | hi, b = s[i + 1] | hi, d = s[i + 2] | hi, e = s[i + 3] | hi;
		memcpy(p, &a, 8);
		memcpy(p + 8, &w1, 4);
		memcpy(p + 12, &b, 8);
		memcpy(p + 20, &w1, 4);
		memcpy(p + 24, &d, 8);
		memcpy(p + 32, &w1, 4);
		memcpy(p + 36, &e, 8);
		memcpy(p + 44, &w1, 4);
	}
	for (; i < k; i++, p += 12) {
		uint64_t a = s[i] | hi;
		memcpy(p, &a, 8);
		memcpy(p + 8, &w1, 4);
	}
}

GRID_PAGE("print") __attribute__((noinline)) static void write_words(unsigned char *p, const uint8_t *s, size_t k,
								      uint64_t hi)
{
	write_words_body(p, s, k, hi);
}
#endif

#if defined(HAVE_WRITE_AVX)
/* write_ascii's runs of k >= write_min on CPUs with AVX-512 (write_short_512 under 32 cells) or with AVX but
 * not AVX2 (write_ascii16): out of line, so that the AVX2 path inline in the printers stays as it was (in no
 * page, as write_short_512: an emulated guest with AVX2 never calls it) */
__attribute__((noinline)) static void write_other(unsigned char *p, const uint8_t *s, size_t k, uint32_t sl)
{
	if (write_512) {
		if (k < 32)
			write_short_512(p, s, k, sl);
		else
			write_run_avx2(p, s, k, sl);
		return;
	}
	size_t i = write_ascii16(p, s, k, sl);
	/* the rest as the last 16 cells again (the ones before it rewritten with the same values) */
	if (i < k)
		write_ascii16(p + (k - 16) * 12, s + k - 16, 16, sl);
}
#endif

/* Writes k ASCII cells. The cell is {cp, style, link, width = 1, flags = 0, pad}: on a little-endian
 * machine that is one 64-bit word (cp | style << 32 | link << 48) and one 32-bit word (1), stored
 * directly (write_words, or its body inline with words_inline; 8 cells per step with AVX2, 16 per pshufb
 * step with AVX). */
static inline __attribute__((always_inline)) void write_ascii_by(struct grid_cell *c, const uint8_t *s, size_t k,
								 uint16_t style, uint16_t link, bool words_inline,
								 bool direct_512)
{
	(void)direct_512; /* (used with AVX only) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(sizeof(struct grid_cell) == 12, "cell layout");
	_Static_assert(offsetof(struct grid_cell, style) == 4 && offsetof(struct grid_cell, link) == 6 &&
			       offsetof(struct grid_cell, width) == 8 && offsetof(struct grid_cell, flags) == 9,
		       "cell layout");
	unsigned char *p = (unsigned char *)c;
#if defined(HAVE_WRITE_AVX)
	if (k >= write_min) {
		const uint32_t sl = (uint32_t)style | (uint32_t)link << 16;
		if (direct_512 && k < write_512_below) {
			write_short_512(p, s, k, sl);
			return;
		}
		if (write_avx2) {
			if (k < 32)
				write_short_avx2(p, s, k, sl);
			else
				write_run_avx2(p, s, k, sl);
			return;
		}
		write_other(p, s, k, sl);
		return;
	}
#endif
	if (words_inline)
		write_words_body(p, s, k, (uint64_t)style << 32 | (uint64_t)link << 48);
	else
		write_words(p, s, k, (uint64_t)style << 32 | (uint64_t)link << 48);
#else
	(void)words_inline;
	struct grid_cell t = {.cp = 0, .style = style, .link = link, .width = 1, .flags = 0};
	for (size_t i = 0; i < k; i++) {
		t.cp = s[i];
		c[i] = t;
	}
#endif
}

static inline void write_ascii(struct grid_cell *c, const uint8_t *s, size_t k, uint16_t style, uint16_t link)
{
	write_ascii_by(c, s, k, style, link, false, false);
}

#endif
