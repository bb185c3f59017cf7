/* grid/grid-fill.h: blank cells written in bulk: grid-fill.c's declarations and the SSE2/AVX stores that its
 * callers inline (the erases of grid-erase.c, the scrolls of grid-edit.c, the scrollback's copies in
 * grid-history.c, grid.c, grid-utf8.c). Kept apart from grid-internal.h, which includes it, because these need nothing of the grid's
 * state but the cell layout; the stores stay static inline (always_inline) so that each caller keeps its copy
 * in its own page (GRID_PAGE).
 */
#ifndef GRID_GRID_FILL_H
#define GRID_GRID_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "grid/grid.h"

/* grid-fill.c: n blank cells of style (cp 0, width 1, no link or flags) from c on; returns ret, so that a
 * handler whose last act is the fill (EL's, which returns its length to the parser) jumps to it: its own
 * return, a TB look-up of an emulated guest (QEMU's TCG) per EL, is saved */
size_t grid__clear_cells_ret(struct grid_cell *c, int n, uint16_t style, size_t ret);

static inline void grid__clear_cells(struct grid_cell *c, int n, uint16_t style)
{
	(void)grid__clear_cells_ret(c, n, style, 0);
}
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GRID_HAVE_FILL_SSE 1
#if defined(__GNUC__) && defined(__x86_64__)
#define GRID_HAVE_FILL_AVX 1
/* grid-fill.c: n16 default blanks (a multiple of 16) with 32-byte stores; only where the CPU has AVX */
void grid__clear_blanks_avx(struct grid_cell *c, int n16);
#include <immintrin.h>
/* 16 cells of three repeating vectors (four cells are v0 v1 v2): six 32-byte stores */
__attribute__((target("avx"), always_inline)) static inline void grid__store16_avx(__m256i *p, __m256i v0, __m256i v1,
										    __m256i v2)
{
	_mm256_storeu_si256(p, v0);
	_mm256_storeu_si256(p + 1, v1);
	_mm256_storeu_si256(p + 2, v2);
	_mm256_storeu_si256(p + 3, v0);
	_mm256_storeu_si256(p + 4, v1);
	_mm256_storeu_si256(p + 5, v2);
}
/* grid__clear_blanks_avx's loop, for its copies in the pages of their callers (grid-history.c: for QEMU's
 * TCG, a jump to another page is a TB look-up). n16 >= 0, a multiple of 16. */
__attribute__((target("avx"), always_inline)) static inline void grid__blanks_avx_body(struct grid_cell *c, int n16)
{
	/* eight default blanks (style 0): GRID_BLANK_X0..2 below twice over */
	const __m256i y0 = _mm256_set_epi32(0, 0, 1, 0, 0, 1, 0, 0), y1 = _mm256_set_epi32(0, 1, 0, 0, 1, 0, 0, 1),
		      y2 = _mm256_set_epi32(1, 0, 0, 1, 0, 0, 1, 0);
	__m256i *p = (__m256i *)(void *)c;
	/* to an end pointer: the first test is then p != end, where n16 > 0 is a signed branch after `test`
	 * that costs QEMU's TCG a call of its flag helper, once per recycled row of an ASCII flood */
	for (__m256i *const end = p + (size_t)(unsigned)n16 / 16 * 6; p != end; p += 6)
		grid__store16_avx(p, y0, y1, y2);
}
#endif
#include <emmintrin.h>
/* Four cells are the three vectors v0, v1, v2 (from any cell on: all cells are the same). Inline: a scroll's
 * recycled row of a flood (clear_line in grid-edit.c) is 16 cells, twelve stores and no call. n16 is a
 * multiple of 16. */
static inline __attribute__((always_inline)) void grid__fill_sse16(struct grid_cell *c, int n16, __m128i v0,
								   __m128i v1, __m128i v2)
{
	__m128i *p = (__m128i *)(void *)c;
	for (int i = 0; i < n16; i += 16, p += 12) {
		for (int j = 0; j < 12; j += 3) {
			_mm_storeu_si128(p + j, v0);
			_mm_storeu_si128(p + j + 1, v1);
			_mm_storeu_si128(p + j + 2, v2);
		}
	}
}

/* four default blanks (style 0): the 32-bit words 0 (cp), 0 (style, link), 1 (width 1, flags, padding 0) */
#define GRID_BLANK_X0 _mm_set_epi32(0, 1, 0, 0)
#define GRID_BLANK_X1 _mm_set_epi32(0, 0, 1, 0)
#define GRID_BLANK_X2 _mm_set_epi32(1, 0, 0, 1)

/* four default blanks from c on (three 16-byte stores) */
static inline __attribute__((always_inline)) void grid__fill4_blanks(struct grid_cell *c)
{
	__m128i *p = (__m128i *)(void *)c;
	_mm_storeu_si128(p, GRID_BLANK_X0);
	_mm_storeu_si128(p + 1, GRID_BLANK_X1);
	_mm_storeu_si128(p + 2, GRID_BLANK_X2);
}

/* n16 default blanks (a multiple of 16: a recycled row's written cells rounded up), the erase of nearly
 * every scroll: constant vectors, 32-byte stores from 48 cells on where the CPU has AVX (checked at run
 * time: the build's baseline ISA is SSE2). */
static inline __attribute__((always_inline)) void grid__clear_blanks16_by(struct grid_cell *c, int n16,
									    void (*avx)(struct grid_cell *, int))
{
#if defined(GRID_HAVE_FILL_AVX)
	if (n16 >= 48 && __builtin_cpu_supports("avx")) {
		avx(c, n16);
		return;
	}
#else
	(void)avx;
#endif
	grid__fill_sse16(c, n16, GRID_BLANK_X0, GRID_BLANK_X1, GRID_BLANK_X2);
}

static inline __attribute__((always_inline)) void grid__clear_blanks16(struct grid_cell *c, int n16)
{
#if defined(GRID_HAVE_FILL_AVX)
	grid__clear_blanks16_by(c, n16, grid__clear_blanks_avx);
#else
	grid__clear_blanks16_by(c, n16, NULL);
#endif
}

#endif

#endif
