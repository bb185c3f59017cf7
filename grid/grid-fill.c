/* grid/grid-fill.c: blank cells, the stores behind every erase and scroll (grid__clear_cells) and an
 * erase's whole coloured rows (grid__clear_rows). A blank cell is the 32-bit words 0 (cp), style (link 0)
 * and 1 (width 1, flags and padding 0): four cells are three 16-byte vectors, eight three 32-byte ones, and
 * since all cells are the same, any run's remainder is its last four or eight cells stored again.
 */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "grid/grid-internal.h"

/* the fills in one page (GRID_PAGE): an erase calls grid__clear_cells, which jumps to the AVX fills; across
 * a page each such jump and the return would cost an emulated guest a TB look-up more */
GRID_PAGE_BEGIN("fill");

#if defined(GRID_HAVE_FILL_AVX)
/* The least n that grid__clear_cells fills with AVX, coloured blanks and default ones (INT_MAX without AVX),
 * and whether the AVX fills hand over to fill_avx512: set once (fill_init). A compare with fill_min_* stands
 * where a compare with a constant and the CPU check were, so that fill_512's test in the AVX fills costs an
 * emulated guest (AVX, no AVX-512: its count is issue 5's figure) no instruction more. */
static int fill_min_color = INT_MAX, fill_min_blank = INT_MAX;
static bool fill_512;
static size_t fill_avx512(struct grid_cell *c, int n, uint16_t style, size_t ret);

/* eight default blanks (style 0): grid-internal.h's GRID_BLANK_X0..2 twice over */
#define BLANK_Y0 _mm256_set_epi32(0, 0, 1, 0, 0, 1, 0, 0)
#define BLANK_Y1 _mm256_set_epi32(0, 1, 0, 0, 1, 0, 0, 1)
#define BLANK_Y2 _mm256_set_epi32(1, 0, 0, 1, 0, 0, 1, 0)
/* the style words of eight blanks (all bits set: a mask for the broadcast style) */
#define STYLE_Y0 _mm256_castsi256_ps(_mm256_set_epi32(-1, 0, 0, -1, 0, 0, -1, 0))
#define STYLE_Y1 _mm256_castsi256_ps(_mm256_set_epi32(0, 0, -1, 0, 0, -1, 0, 0))
#define STYLE_Y2 _mm256_castsi256_ps(_mm256_set_epi32(0, -1, 0, 0, -1, 0, 0, -1))

/* grid__clear_cells' fill with 32-byte stores, on CPUs with AVX (checked at run time: the build's baseline
 * ISA is SSE2): eight cells are three vectors. All cells are the same, so any eight consecutive cells are the
 * same three vectors (fill_avx_cells stores some twice). The style is broadcast from memory (vbroadcastss): a
 * broadcast from a register (vpermilps, vinsertf128) saved the stack's realignment, ~5 host instructions a
 * fill, but cost the TCG guest's csi 0.26 M emulated instructions more (session 19). */
__attribute__((target("avx"), always_inline)) static inline void fill_avx_vectors(uint16_t style, __m256i *v)
{
	/* a blank cell is the 32-bit words 0 (cp), style (link 0), 1 (width 1, flags and padding 0): the
	 * style broadcast, masked to its words and ORed into the default blank's vectors (AVX has no 256-bit
	 * integer ops, but the float AND and OR move the bits as they are). Not a blend (vblendps), which is as
	 * many instructions (a load of the blank, the blend; here an AND and an OR from memory) but which QEMU's
	 * TCG (the VM guests of issue 5) runs as a helper call of ~60 instructions, three per coloured fill
	 * (docs/benchmarks.md, issue 5, session 42). */
	const float fs = ((union {
				 uint32_t u;
				 float f;
			 }){.u = style})
				 .f;
	const __m256 s = _mm256_set1_ps(fs);
	v[0] = _mm256_castps_si256(_mm256_or_ps(_mm256_castsi256_ps(BLANK_Y0), _mm256_and_ps(s, STYLE_Y0)));
	v[1] = _mm256_castps_si256(_mm256_or_ps(_mm256_castsi256_ps(BLANK_Y1), _mm256_and_ps(s, STYLE_Y1)));
	v[2] = _mm256_castps_si256(_mm256_or_ps(_mm256_castsi256_ps(BLANK_Y2), _mm256_and_ps(s, STYLE_Y2)));
}

/* eight cells (three 32-byte stores) from c on */
__attribute__((target("avx"), always_inline)) static inline void store8_avx(struct grid_cell *c, __m256i v0, __m256i v1,
									 __m256i v2)
{
	__m256i *p = (__m256i *)(void *)c;
	_mm256_storeu_si256(p, v0);
	_mm256_storeu_si256(p + 1, v1);
	_mm256_storeu_si256(p + 2, v2);
}

/* Any n >= 8 cells: 32 per loop step, then the remaining 0-31 as two overlapping runs of 16 (17-31 left), of
 * eight (9-16) or the last eight (1-8): all cells are the same, so cells stored twice do no harm. Against
 * eight per loop step and the last eight: no loop after the 32s, no remainder arithmetic, at most two
 * branches (csi: ~25 instructions fewer per coloured EL; docs/benchmarks.md, issue 2, session 19). */
__attribute__((target("avx"), always_inline)) static inline void fill_avx_cells(struct grid_cell *c, int n,
										 __m256i v0, __m256i v1, __m256i v2)
{
	const unsigned n32 = (unsigned)n & ~31u, left = (unsigned)n & 31u;
	for (struct grid_cell *p = c, *const end = c + n32; p != end; p += 32) {
		grid__store16_avx((__m256i *)(void *)p, v0, v1, v2);
		grid__store16_avx((__m256i *)(void *)(p + 16), v0, v1, v2);
	}
	struct grid_cell *const rest = c + n32, *const end = c + n;
	if (left > 16) {
		grid__store16_avx((__m256i *)(void *)rest, v0, v1, v2);
		grid__store16_avx((__m256i *)(void *)(end - 16), v0, v1, v2);
	} else if (left > 8) {
		store8_avx(rest, v0, v1, v2);
		store8_avx(end - 8, v0, v1, v2);
	} else if (left) {
		store8_avx(end - 8, v0, v1, v2);
	}
}

GRID_PAGE("fill") __attribute__((target("avx"))) static size_t fill_avx(struct grid_cell *c, int n, uint16_t style,
									  size_t ret)
{
	if (fill_512)
		return fill_avx512(c, n, style, ret);
	__m256i v[3];
	fill_avx_vectors(style, v);
	fill_avx_cells(c, n, v[0], v[1], v[2]);
	/* (no _mm256_zeroupper(): the compiler puts a vzeroupper before each return, and it was there twice) */
	return ret;
}

/* default blanks need no set-up: the constant vectors, for a flood's recycled rows (grid__clear_blanks16,
 * a multiple of 16 cells: no remainder to check) and grid__clear_cells' long runs of style 0 (any n >= 8) */
GRID_PAGE("fill") __attribute__((target("avx"))) void grid__clear_blanks_avx(struct grid_cell *c, int n16)
{
	grid__blanks_avx_body(c, n16);
}

/* any n >= 8 default blanks */
GRID_PAGE("fill") __attribute__((target("avx"))) static size_t fill_avx_blanks(struct grid_cell *c, int n, size_t ret)
{
	if (fill_512)
		return fill_avx512(c, n, 0, ret);
	fill_avx_cells(c, n, BLANK_Y0, BLANK_Y1, BLANK_Y2);
	return ret;
}

/* grid__clear_rows with AVX: the vectors built once for all the rows, no call per row. cols >= 8. */
GRID_PAGE("fill") __attribute__((target("avx"))) static void clear_rows_avx(struct grid *g, int y0, int y1, uint16_t style)
{
	__m256i v[3];
	fill_avx_vectors(style, v);
	const int cols = g->cols;
	for (int y = y0; y < y1; y++) {
		struct line *l = grid__line_raw(g, y); /* all its cells written below */
		fill_avx_cells(l->cells, cols, v[0], v[1], v[2]);
		l->used = (uint16_t)cols;
		l->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP | LINE_ASCII | LINE_LAZY | LINE_STALE);
	}
	_mm256_zeroupper();
	/* whole rows: one range for all (grid__damage_rows), not a row's span each */
	if (y0 < y1)
		grid__damage_rows(g, y0, y1 - 1);
}
#endif

#if defined(GRID_HAVE_FILL_SSE)
/* Any n >= 4 cells: the sixteens (grid__fill_sse16), then four at a time, and a remainder is the last four
 * cells stored again. */
static inline void fill_sse(struct grid_cell *c, int n, __m128i v0, __m128i v1, __m128i v2)
{
	int i = n & ~15;
	grid__fill_sse16(c, i, v0, v1, v2);
	__m128i *p = (__m128i *)(void *)(c + i);
	for (; i + 4 <= n; i += 4, p += 3) {
		_mm_storeu_si128(p, v0);
		_mm_storeu_si128(p + 1, v1);
		_mm_storeu_si128(p + 2, v2);
	}
	if (i < n) {
		p = (__m128i *)(void *)(c + n - 4);
		_mm_storeu_si128(p, v0);
		_mm_storeu_si128(p + 1, v1);
		_mm_storeu_si128(p + 2, v2);
	}
}
#endif

/* Every scroll clears a row, and every erase (EL/ED/ECH/...) clears cells: default blanks are constant
 * vectors (the same as grid__clear_blanks16's for a scroll's recycled rows), inline up to 64 cells; longer
 * runs and blanks of another style go 32 cells (twelve 32-byte stores) per loop step where the CPU has AVX,
 * sixteen (twelve 16-byte stores) otherwise. (Not memcpy from a run of blanks: for rows, the copy is inlined
 * as rep movsq.) */
GRID_PAGE("fill") size_t grid__clear_cells_ret(struct grid_cell *c, int n, uint16_t style, size_t ret)
{
#if defined(GRID_HAVE_FILL_AVX)
	/* coloured blanks first (EL's and ED's after a background colour): two tests before the jump */
	if (style != 0 && n >= fill_min_color) {
		return fill_avx(c, n, style, ret);
	}
#endif
#if defined(GRID_HAVE_FILL_SSE)
	if (n >= 4) {
		if (style == 0) {
#if defined(GRID_HAVE_FILL_AVX)
			if (n >= fill_min_blank) {
				return fill_avx_blanks(c, n, ret);
			}
#endif
			/* short runs: constant vectors, inline */
			fill_sse(c, n, GRID_BLANK_X0, GRID_BLANK_X1, GRID_BLANK_X2);
			return ret;
		}
		/* a blank cell is the 32-bit words 0, style (link 0), 1 (width 1, flags and padding 0) */
		const int s = style;
		fill_sse(c, n, _mm_set_epi32(0, 1, s, 0), _mm_set_epi32(s, 0, 1, s), _mm_set_epi32(1, s, 0, 1));
		return ret;
	}
#endif
	for (int i = 0; i < n; i++)
		c[i] = (struct grid_cell){.cp = 0, .style = style, .link = 0, .width = 1, .flags = 0};
	return ret;
}

/* grid__clear_rows where the printer checks LINE_LAZY (grid.text_from 0): each row deferred (LINE_STALE), one
 * cell stored instead of cols: most of an ED's rows are erased again or pushed before anything reads them,
 * and a row that is read or written is stored then (grid__line_materialise). */
GRID_PAGE("fill") static void stale_rows(struct grid *g, int y0, int y1, uint16_t style)
{
	const int cols = g->cols;
	for (int y = y0; y < y1; y++) {
		struct line *l = grid__line_raw(g, y);
		l->cells[0] = (struct grid_cell){.cp = 0, .style = style, .link = 0, .width = 1, .flags = 0};
		l->flags = (uint16_t)((l->flags & ~(LINE_WRAPPED | LINE_WIDE_WRAP | LINE_ASCII)) | LINE_LAZY | LINE_STALE);
		l->used = (uint16_t)cols;
		l->pstyle = GRID_STYLE_NONE;
	}
	grid__damage_rows(g, y0, y1 - 1);
}

GRID_PAGE("fill") void grid__clear_rows(struct grid *g, int y0, int y1, uint16_t style)
{
	if (g->text_from == 0 && y0 < y1 && (g->rows * g->cols >= (int)GRID_STALE_MIN_CELLS || g->stale_any_size)) {
		stale_rows(g, y0, y1, style);
		return;
	}
#if defined(GRID_HAVE_FILL_AVX)
	if (g->cols >= 8 && __builtin_cpu_supports("avx")) {
		clear_rows_avx(g, y0, y1, style);
		return;
	}
#endif
	for (int y = y0; y < y1; y++) {
		struct line *l = grid__line_raw(g, y); /* all its cells written below */
		grid__clear_cells(l->cells, g->cols, style);
		l->used = (uint16_t)g->cols;
		l->flags &= ~(LINE_WRAPPED | LINE_WIDE_WRAP | LINE_ASCII | LINE_LAZY | LINE_STALE);
		grid__damage(g, y, 0, g->cols);
	}
}

/* Cells [x0, x1) of an erase's deferred row (LINE_STALE: cell 0's blank throughout) erased (not selectively)
 * in style, and its other cells stored with cell 0's blank: each cell once. grid__line_ready stored the whole
 * row first and the erase its span again (~0.5 % of csi's time: docs/benchmarks.md, issue 2, session 17).
 * The row is then as the eager erase leaves it; the caller clears the soft wrap and marks the damage. */
__attribute__((noinline)) size_t grid__stale_erase(struct grid *g, struct line *l, int x0, int x1, uint16_t style,
						   size_t ret)
{
	const int cols = g->cols;
	const uint16_t old = l->cells[0].style;
	if (x0 > 1)
		grid__clear_cells(&l->cells[1], x0 - 1, old); /* (cell 0 is the blank already) */
	if (x1 < cols)
		grid__clear_cells(&l->cells[x1], cols - x1, old);
	grid__clear_cells(&l->cells[x0], x1 - x0, style);
	l->flags &= (uint16_t)~(LINE_LAZY | LINE_STALE);
	/* default blanks to the end: the used mark at x0 (the rule of used), as the eager erase leaves it */
	if (x1 == cols && style == 0)
		l->used = (uint16_t)x0;
	return ret;
}

#if defined(GRID_HAVE_FILL_AVX)
/* fill_avx on CPUs with AVX-512 (BW for byte masks): 64-byte stores aligned to 64, so that no store crosses a
 * cache line (of fill_avx's 32-byte stores over 12-byte cells, one in two crossed one). The blocks' word i is
 * the cell's word (16 j + i - d) mod 3 for block j (d: the words of the first block before c); 16 is 1 mod 3,
 * so block j is the pattern started at word (j - d) mod 3: three vectors in turn. The first block and the
 * last three are stored with byte masks: no cell outside c[0..n) is written, and the end needs no branch.
 * fill_avx's share of csi's time went from ~10 % to ~7 % (docs/benchmarks.md, issue 2, session 21). */
static const int32_t fill512_words[5][16] = {
#define W(k) {((0 + k) % 3 == 2), ((1 + k) % 3 == 2), ((2 + k) % 3 == 2), ((3 + k) % 3 == 2), ((4 + k) % 3 == 2), \
	((5 + k) % 3 == 2), ((6 + k) % 3 == 2), ((7 + k) % 3 == 2), ((8 + k) % 3 == 2), ((9 + k) % 3 == 2), \
	((10 + k) % 3 == 2), ((11 + k) % 3 == 2), ((12 + k) % 3 == 2), ((13 + k) % 3 == 2), ((14 + k) % 3 == 2), \
	((15 + k) % 3 == 2)}
	W(0), W(1), W(2), W(0), W(1),
#undef W
};
/* the style's words of each: word i where (i + k) mod 3 is 1 */
static const uint16_t fill512_style[5] = {0x2492, 0x9249, 0x4924, 0x2492, 0x9249};
/* the first block's pattern by d, the words before c: (-d) mod 3 */
static const uint8_t fill512_phase[16] = {0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0};

GRID_PAGE("fill") __attribute__((target("avx512f,avx512bw,bmi2"))) static size_t fill_avx512(struct grid_cell *c, int n,
											     uint16_t style, size_t ret)
{
	char *const b = (char *)c, *const e = b + 12 * (size_t)n;
	char *p = (char *)((uintptr_t)b & ~(uintptr_t)63);
	const unsigned k = fill512_phase[(unsigned)(b - p) / 4];
	const __m512i v0 = _mm512_mask_set1_epi32(_mm512_loadu_si512(fill512_words[k]), fill512_style[k], style);
	const __m512i v1 = _mm512_mask_set1_epi32(_mm512_loadu_si512(fill512_words[k + 1]), fill512_style[k + 1], style);
	const __m512i v2 = _mm512_mask_set1_epi32(_mm512_loadu_si512(fill512_words[k + 2]), fill512_style[k + 2], style);
	__mmask64 m = ~0ull << (b - p);
	if (e - p > 192) {
		/* the first block masked (the cells before c kept), the others plain aligned stores: no mask kept live
		 * across the loop */
		_mm512_mask_storeu_epi8(p, m, v0);
		_mm512_store_si512(p + 64, v1);
		_mm512_store_si512(p + 128, v2);
		m = ~0ull;
		for (p += 192; e - p > 192; p += 192) {
			_mm512_store_si512(p, v0);
			_mm512_store_si512(p + 64, v1);
			_mm512_store_si512(p + 128, v2);
		}
	}
	/* 1..192 bytes left: bzhi keeps all 64 bits for a count of 64 or more, none for 0 */
	const long left = e - p, l1 = left > 64 ? left - 64 : 0, l2 = left > 128 ? left - 128 : 0;
	_mm512_mask_storeu_epi8(p, m & _bzhi_u64(~0ull, (unsigned)left), v0);
	_mm512_mask_storeu_epi8(p + 64, _bzhi_u64(~0ull, (unsigned)l1), v1);
	_mm512_mask_storeu_epi8(p + 128, _bzhi_u64(~0ull, (unsigned)l2), v2);
	return ret;
}

/* in the fill page, as fill_avx512 (the page's functions all still fit in its 4 KiB: no TB look-up more for an
 * emulated guest) */
GRID_PAGE("fill") __attribute__((constructor)) static void fill_init(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx")) {
		fill_min_color = 8;
		fill_min_blank = 65;
		fill_512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
			   __builtin_cpu_supports("bmi2");
	}
}
#endif
