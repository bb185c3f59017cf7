/* kmscon-felis/render/paint-fill.h: pixels of one colour stored in bulk (SSE2 stores, AVX ones
 * where the CPU has them): the backgrounds of paint.c's cells and blank runs, the target's margins.
 * A topic of its own (the fills read nothing but the colour), kept out of paint.c's length. Only
 * for paint.c, which includes it once where these were written before: static functions, so the
 * painter's loops inline them exactly as they did.
 */
#ifndef KF_RENDER_PAINT_FILL_H
#define KF_RENDER_PAINT_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include "kmscon-felis/render/render-internal.h"

#ifdef __SSE2__
/* h rows (pitch pixels apart) of n >= 8 pixels of c at p in 32-byte stores (the last one of a row
 * may overlap the one before): half the stores of 16-byte ones, and where each store is emulated
 * (a guest's soft MMU probes its TLB per access, whatever the width) about half the cost. All the
 * rows in one call: a blank run is a cell high, and a call and return per row cost more than a
 * row's stores under TCG. */
__attribute__((target("avx"), noinline)) static void fill_rows_avx(uint32_t *p, size_t pitch, int n,
								   int h, uint32_t c)
{
	__m256i v = _mm256_set1_epi32((int)c);
	for (int j = 0; j < h; j++, p += pitch) {
		int i = 0;
		for (; i + 32 <= n; i += 32) {
			_mm256_storeu_si256((__m256i *)(void *)(p + i), v);
			_mm256_storeu_si256((__m256i *)(void *)(p + i + 8), v);
			_mm256_storeu_si256((__m256i *)(void *)(p + i + 16), v);
			_mm256_storeu_si256((__m256i *)(void *)(p + i + 24), v);
		}
		for (; i + 8 <= n; i += 8)
			_mm256_storeu_si256((__m256i *)(void *)(p + i), v);
		if (i < n)
			_mm256_storeu_si256((__m256i *)(void *)(p + n - 8), v);
	}
}
#endif

#ifdef __SSE2__
/* c in all four lanes. _mm_set1_epi32 is a pshufd, which QEMU's TCG (issue 5's guest) runs as a helper
 * call (~30 host instructions with the call); c twice in a 64-bit word (the 8-byte stores' value),
 * moved in by movq and copied to the high half by movlhps, is as many instructions here and all of
 * them inline there (two 8-byte moves each). An escape-heavy flood composes ~800 cells a frame,
 * each with two fills of rows above and below its glyph (docs/benchmarks.md, issue 5 session 43). */
static inline __attribute__((always_inline)) __m128i fill_bcast(uint32_t c)
{
#ifdef __x86_64__
	const __m128 q = _mm_castsi128_ps(_mm_cvtsi64_si128((long long)(c | (uint64_t)c << 32)));
	return _mm_castps_si128(_mm_movelh_ps(q, q));
#else
	return _mm_set1_epi32((int)c);
#endif
}
#endif

/* Stores n pixels of c at p: 16 bytes per store (8 without SSE2), and nothing is read. Copying a
 * row of the colour instead reads as many bytes as it writes, and where every memory access is
 * costly (an emulated guest's soft MMU) the reads cost as much as the writes. */
static inline __attribute__((always_inline)) void fill_narrow(uint32_t *p, int n, uint32_t c)
{
	int i = 0;
#ifdef __SSE2__
	__m128i v4 = fill_bcast(c);
	for (; i + 16 <= n; i += 16) {
		_mm_storeu_si128((__m128i *)(void *)(p + i), v4);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 4), v4);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 8), v4);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 12), v4);
	}
	for (; i + 4 <= n; i += 4)
		_mm_storeu_si128((__m128i *)(void *)(p + i), v4);
#endif
	uint64_t v2 = c | (uint64_t)c << 32;
	for (; i + 2 <= n; i += 2)
		memcpy(p + i, &v2, 8);
	if (i < n)
		p[i] = c;
}

/* fill_rect stores 32 bytes at a time where the CPU has AVX, in rows of more than FILL_AVX_MIN
 * pixels. */
#define FILL_AVX_MIN 16

#ifdef __SSE2__
/* h rows (pitch pixels apart) of 4 <= n <= 16 pixels of c at p: one to four 16-byte stores a row,
 * the last ending at the row's end (it may overlap the one before), their number chosen once for
 * all the rows. fill_narrow's loops decide per row and per store, a conditional branch each, and
 * under an emulator (TCG) each one ends a translated block: a 4-pixel row (the right margin of a
 * 1024-pixel screen of 10-pixel cells, every row of every full repaint) went through six blocks, a
 * 10-pixel one (an underline, a cell's rows above and below its glyph) through eight; here a row is
 * one block (docs/benchmarks.md, issue 5 session 24). */
static inline __attribute__((always_inline)) void fill_rows_16(uint32_t *p, size_t pitch, int n,
							       int h, uint32_t c)
{
	__m128i v = fill_bcast(c);
	uint32_t *e = p + n - 4;
	/* the rows end where p reaches stop (none when h <= 0): a pointer compare, which QEMU's TCG
	 * tests inline, where the entry test of a count of rows (test, jle) was a helper call computing
	 * all the flags (docs/benchmarks.md, issue 5 session 43) */
	uint32_t *const stop = p + (ptrdiff_t)h * (ptrdiff_t)pitch;
	if (n <= 4) {
		for (; p < stop; p += pitch)
			_mm_storeu_si128((__m128i *)(void *)p, v);
	} else if (n <= 8) {
		for (; p < stop; p += pitch, e += pitch) {
			_mm_storeu_si128((__m128i *)(void *)p, v);
			_mm_storeu_si128((__m128i *)(void *)e, v);
		}
	} else if (n <= 12) {
		for (; p < stop; p += pitch, e += pitch) {
			_mm_storeu_si128((__m128i *)(void *)p, v);
			_mm_storeu_si128((__m128i *)(void *)(p + 4), v);
			_mm_storeu_si128((__m128i *)(void *)e, v);
		}
	} else {
		for (; p < stop; p += pitch, e += pitch) {
			_mm_storeu_si128((__m128i *)(void *)p, v);
			_mm_storeu_si128((__m128i *)(void *)(p + 4), v);
			_mm_storeu_si128((__m128i *)(void *)(p + 8), v);
			_mm_storeu_si128((__m128i *)(void *)e, v);
		}
	}
}
#endif

/* A rectangle in one call: a cell's rows above and below its glyph, or a blank run, are a few
 * dozen bytes each, and a call and return per row cost more than its stores where returns are
 * emulated (TCG looks the return address up, ~70 host instructions). */
__attribute__((noinline)) static void fill_rect(struct kf_strip *o, int x, int y, int w, int h,
						uint32_t c)
{
	uint32_t *p = o->px + (size_t)y * o->pitch + x;
#ifdef __SSE2__
	if (w > FILL_AVX_MIN && __builtin_cpu_supports("avx")) {
		fill_rows_avx(p, o->pitch, w, h, c);
		return;
	}
	if (w >= 4 && w <= 16) {
		fill_rows_16(p, o->pitch, w, h, c);
		return;
	}
#endif
	for (int j = 0; j < h; j++, p += o->pitch)
		fill_narrow(p, w, c);
}

#endif
