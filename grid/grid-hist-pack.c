/* grid/grid-hist-pack.c: the scrollback's 4-byte form of a line (LINE_WIDE, grid-internal.h), for lines that
 * are not ASCII of width 1 (which grid-history.c packs into a byte a cell): any code points, wide characters
 * and clusters, as long as no cell has a link or flags. A cell becomes its cp with its width in bits 24-25,
 * 4 bytes of fresh memory instead of 12: the unicode workload's scrollback of 13 chunks of 512 KiB in a
 * guest (each zeroed by its emulated kernel at 5-20 ms per MiB, docs/benchmarks.md, issue 5) and a third of
 * the full copy's streaming stores on the host. Called by grid__hist_copy for the lines it does not pack
 * as ASCII; a line that does not fit is copied whole there.
 *
 * Only on CPUs with AVX-512 (the packer is AVX2; AVX-512F stands for "vector permutes are cheap here"): on
 * this session's Zen 4 host the pass costs less than the 8 bytes a cell it does not stream (unicode +2 % by
 * time, docs/benchmarks.md, issue 2, session 19), while on session 15's host the same form lost 4-7 %, and
 * under QEMU's TCG (the guests of issue 5: `-cpu max`, AVX2 but no AVX-512) each permutation is
 * a helper call: +43 % of the emulated core's instructions on unicode against ~900 fewer page faults.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

_Static_assert(sizeof(struct grid_cell) == 12 && offsetof(struct grid_cell, style) == 4 &&
		       offsetof(struct grid_cell, link) == 6 && offsetof(struct grid_cell, width) == 8 &&
		       offsetof(struct grid_cell, flags) == 9,
	       "cell layout: 3 words, cp, style | link << 16, width | flags << 8 | padding << 16");

/* What must be 0 in each word of a cell that fits, once its style word is xored with the line's: cp bits
 * 24-25 (the width's place), the link, a width above 3 and the flags (not the padding). */
#define BAD_CP ((int)LINE_WIDE_WMASK)
#define BAD_SL ((int)0xffff0000u)
#define BAD_WF 0xfffc
/* and the style */
#define STY 0xffff

/* The cells from x on (at most 3 of them) into out's vector at x / 4, zero after them; bad and sdiff get
 * what does not fit and the styles' differences from st. */
static inline __attribute__((always_inline)) void tail_cells(const struct grid_cell *c, int x, int n, uint32_t *out,
							     uint32_t st, uint32_t *bad, uint32_t *sdiff)
{
	union {
#if defined(__SSE2__)
		__m128i v;
#endif
		uint32_t w[4];
	} t;
	memset(&t, 0, sizeof(t));
	for (int i = 0; x + i < n; i++) {
		const struct grid_cell *e = &c[x + i];
		*bad |= (e->cp & LINE_WIDE_WMASK) | e->link | e->flags | (e->width & ~3u);
		*sdiff |= e->style ^ st;
		t.w[i] = e->cp | (uint32_t)e->width << LINE_WIDE_SHIFT;
	}
#if defined(__SSE2__)
	_mm_stream_si128((__m128i *)(void *)(out + x), t.v);
#else
	memcpy(out + x, t.w, sizeof(t.w));
#endif
}

#if defined(__SSE2__)
/* Whether the words ORed up in a0..a2 masked by m0..m2 are all zero. */
static inline bool all_zero(__m128i a0, __m128i a1, __m128i a2, __m128i m0, __m128i m1, __m128i m2)
{
	const __m128i v = _mm_or_si128(_mm_and_si128(a0, m0), _mm_or_si128(_mm_and_si128(a1, m1), _mm_and_si128(a2, m2)));
	return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) == 0xffff;
}

/* 4 cells at p (3 vectors of their words: cp, style | link << 16, width | flags << 8 | padding << 16, cp, ...)
 * into 4 words at d; their words xored with e* (the line's style in the style words) ORed into a*. */
static inline __attribute__((always_inline)) void group4(const __m128i *p, __m128i *d, __m128i e0, __m128i e1,
							 __m128i e2, __m128i *a0, __m128i *a1, __m128i *a2)
{
	const __m128i v0 = _mm_loadu_si128(p), v1 = _mm_loadu_si128(p + 1), v2 = _mm_loadu_si128(p + 2);
	*a0 = _mm_or_si128(*a0, _mm_xor_si128(v0, e0));
	*a1 = _mm_or_si128(*a1, _mm_xor_si128(v1, e1));
	*a2 = _mm_or_si128(*a2, _mm_xor_si128(v2, e2));
	const __m128 f0 = _mm_castsi128_ps(v0), f1 = _mm_castsi128_ps(v1), f2 = _mm_castsi128_ps(v2);
	/* the cp words sit at v0[0], v0[3], v1[2], v2[1]; the width words at v0[2], v1[1], v2[0], v2[3] */
	const __m128 t = _mm_shuffle_ps(f1, f2, _MM_SHUFFLE(1, 1, 2, 2));
	const __m128i cp = _mm_castps_si128(_mm_shuffle_ps(f0, t, _MM_SHUFFLE(2, 0, 3, 0)));
	const __m128 u = _mm_shuffle_ps(f0, f1, _MM_SHUFFLE(1, 1, 2, 2));
	const __m128i w = _mm_castps_si128(_mm_shuffle_ps(u, f2, _MM_SHUFFLE(3, 0, 2, 0)));
	/* (a width that fits is below 4: the shift keeps its byte alone, in bits 24-25) */
	_mm_stream_si128(d, _mm_or_si128(cp, _mm_slli_epi32(w, LINE_WIDE_SHIFT)));
}
#endif

#if defined(__GNUC__) && defined(__x86_64__) && defined(__SSE2__)
#define HAVE_WIDE_AVX2 1
#include <immintrin.h>

/* Whether the words ORed up in a0..a2 masked by m0..m2 are all zero (AVX2). */
__attribute__((target("avx2"))) static inline bool all_zero8(__m256i a0, __m256i a1, __m256i a2, __m256i m0,
							      __m256i m1, __m256i m2)
{
	const __m256i v = _mm256_or_si256(_mm256_and_si256(a0, m0),
					  _mm256_or_si256(_mm256_and_si256(a1, m1), _mm256_and_si256(a2, m2)));
	return _mm256_testz_si256(v, v);
}

/* The permutations that gather 8 cells' cp and width words from their 3 vectors. */
struct perm8 {
	__m256i c0, c1, c2, w0, w1, w2;
};

/* The 8 words (cp | width << 24) of the 8 cells in v0..v2. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
words8(__m256i v0, __m256i v1, __m256i v2, const struct perm8 *pm)
{
	const __m256i cp = _mm256_blend_epi32(_mm256_blend_epi32(_mm256_permutevar8x32_epi32(v0, pm->c0),
								 _mm256_permutevar8x32_epi32(v1, pm->c1), 0x38),
					      _mm256_permutevar8x32_epi32(v2, pm->c2), 0xc0);
	const __m256i w = _mm256_blend_epi32(_mm256_blend_epi32(_mm256_permutevar8x32_epi32(v0, pm->w0),
								_mm256_permutevar8x32_epi32(v1, pm->w1), 0x1c),
					     _mm256_permutevar8x32_epi32(v2, pm->w2), 0xe0);
	return _mm256_or_si256(cp, _mm256_slli_epi32(w, LINE_WIDE_SHIFT));
}

/* pack_wide 8 cells a step (3 vectors of 256 bits: 24 words, cell k's at 3k, 3k + 1, 3k + 2): the cp and width
 * words gathered by a lane-crossing permutation of each vector and two blends, where SSE2 needs two
 * shuffles per 4 cells for each. No early way out for a line that does not fit (links, marks: rare): the
 * check in the loop kept copies of the accumulators (4 instructions a step). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) int
pack_wide_avx2_body(const struct grid_cell *c, int n, int avail, uint32_t *out, const bool zero)
{
	const int st = zero ? 0 : c[0].style;
	/* the style words: 1, 4, 7 | 10, 13 | 16, 19, 22 */
	const __m256i e0 = _mm256_setr_epi32(0, st, 0, 0, st, 0, 0, st), e1 = _mm256_setr_epi32(0, 0, st, 0, 0, st, 0, 0),
		      e2 = _mm256_setr_epi32(st, 0, 0, st, 0, 0, st, 0);
	const __m256i m0 = _mm256_setr_epi32(BAD_CP, BAD_SL, BAD_WF, BAD_CP, BAD_SL, BAD_WF, BAD_CP, BAD_SL),
		      m1 = _mm256_setr_epi32(BAD_WF, BAD_CP, BAD_SL, BAD_WF, BAD_CP, BAD_SL, BAD_WF, BAD_CP),
		      m2 = _mm256_setr_epi32(BAD_SL, BAD_WF, BAD_CP, BAD_SL, BAD_WF, BAD_CP, BAD_SL, BAD_WF);
	/* cp words 0, 3, 6 | 9, 12, 15 | 18, 21; width words 2, 5 | 8, 11, 14 | 17, 20, 23 (w1's go to places 2, 3,
	 * 4: its index 0 there is word 8, the first) */
	const struct perm8 pm = {
		.c0 = _mm256_setr_epi32(0, 3, 6, 0, 0, 0, 0, 0),
		.c1 = _mm256_setr_epi32(0, 0, 0, 1, 4, 7, 0, 0),
		.c2 = _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 2, 5),
		.w0 = _mm256_setr_epi32(2, 5, 0, 0, 0, 0, 0, 0),
		.w1 = _mm256_setr_epi32(0, 0, 0, 3, 6, 0, 0, 0),
		.w2 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 4, 7),
	};
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0;
	const __m256i *p = (const __m256i *)(const void *)c;
	__m128i *d = (__m128i *)(void *)out;
	int x = 0;
	for (; x + 8 <= n; x += 8, p += 3, d += 2) {
		const __m256i v0 = _mm256_loadu_si256(p), v1 = _mm256_loadu_si256(p + 1), v2 = _mm256_loadu_si256(p + 2);
		/* (in style 0, the line's most common, the style words need no xor: 3 instructions and 3
		 * registers less, which the loop spilled) */
		a0 = _mm256_or_si256(a0, zero ? v0 : _mm256_xor_si256(v0, e0));
		a1 = _mm256_or_si256(a1, zero ? v1 : _mm256_xor_si256(v1, e1));
		a2 = _mm256_or_si256(a2, zero ? v2 : _mm256_xor_si256(v2, e2));
		const __m256i r = words8(v0, v1, v2, &pm);
		/* out is 16-byte aligned only (a 32-byte streaming store needs 32) */
		_mm_stream_si128(d, _mm256_castsi256_si128(r));
		_mm_stream_si128(d + 1, _mm256_extracti128_si256(r, 1));
	}
	/* the last 1 to 7 cells as a step of 8 when the cells after them may be read (avail): their words
	 * past the line are left out of the checks, and stored only up to the vector of the last cell (the
	 * room for the line's full form takes them); the step and its look at the vectors of fewer cells
	 * were ~20 % of the packer's instructions */
	if (x < n && x + 8 <= avail) {
		const __m256i v0 = _mm256_loadu_si256(p), v1 = _mm256_loadu_si256(p + 1), v2 = _mm256_loadu_si256(p + 2);
		const __m256i k = _mm256_set1_epi32(3 * (n - x));
		const __m256i in0 = _mm256_cmpgt_epi32(k, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
			      in1 = _mm256_cmpgt_epi32(k, _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15)),
			      in2 = _mm256_cmpgt_epi32(k, _mm256_setr_epi32(16, 17, 18, 19, 20, 21, 22, 23));
		a0 = _mm256_or_si256(a0, _mm256_and_si256(in0, zero ? v0 : _mm256_xor_si256(v0, e0)));
		a1 = _mm256_or_si256(a1, _mm256_and_si256(in1, zero ? v1 : _mm256_xor_si256(v1, e1)));
		a2 = _mm256_or_si256(a2, _mm256_and_si256(in2, zero ? v2 : _mm256_xor_si256(v2, e2)));
		const __m256i r = words8(v0, v1, v2, &pm);
		_mm_stream_si128(d, _mm256_castsi256_si128(r));
		if (n - x > 4)
			_mm_stream_si128(d + 1, _mm256_extracti128_si256(r, 1));
		x = n;
	}
	if (!all_zero8(a0, a1, a2, m0, m1, m2))
		return GRID_PACK_MISFIT;
	const int s = STY;
	uint32_t bad = 0, sdiff = !all_zero8(a0, a1, a2, _mm256_setr_epi32(0, s, 0, 0, s, 0, 0, s),
					     _mm256_setr_epi32(0, 0, s, 0, 0, s, 0, 0), _mm256_setr_epi32(s, 0, 0, s, 0, 0, s, 0));
	/* the last 0 to 7 cells: a group of 4 as pack_wide's, then one by one */
	if (x + 4 <= n) {
		const __m128i f0 = _mm_set_epi32(0, 0, st, 0), f1 = _mm_set_epi32(st, 0, 0, st), f2 = _mm_set_epi32(0, st, 0, 0);
		__m128i b0 = _mm_setzero_si128(), b1 = b0, b2 = b0;
		group4((const __m128i *)(const void *)(c + x), d, f0, f1, f2, &b0, &b1, &b2);
		if (!all_zero(b0, b1, b2, _mm_set_epi32(BAD_CP, BAD_WF, BAD_SL, BAD_CP),
			      _mm_set_epi32(BAD_SL, BAD_CP, BAD_WF, BAD_SL), _mm_set_epi32(BAD_WF, BAD_SL, BAD_CP, BAD_WF)))
			return GRID_PACK_MISFIT;
		sdiff |= !all_zero(b0, b1, b2, _mm_set_epi32(0, 0, STY, 0), _mm_set_epi32(STY, 0, 0, STY),
				   _mm_set_epi32(0, STY, 0, 0));
		x += 4;
	}
	if (x < n)
		tail_cells(c, x, n, out, (uint32_t)st, &bad, &sdiff);
	return bad ? GRID_PACK_MISFIT : sdiff ? GRID_PACK_STYLES : GRID_PACK_FITS;
}

__attribute__((target("avx2"), noinline)) static int pack_wide_avx2(const struct grid_cell *c, int n, int avail,
								     uint32_t *out)
{
	return pack_wide_avx2_body(c, n, avail, out, false);
}

__attribute__((target("avx2"), noinline)) static int pack_wide_avx2_0(const struct grid_cell *c, int n, int avail,
								       uint32_t *out)
{
	return pack_wide_avx2_body(c, n, avail, out, true);
}
#endif

uint8_t grid__hist_wide;

int grid__hist_wide_cpu(void)
{
#if defined(HAVE_WIDE_AVX2)
	if (__builtin_cpu_supports("avx2"))
		return __builtin_cpu_supports("avx512f") ? 2 : 1;
#endif
	return 0;
}

int grid__hist_pack_wide(const struct grid_cell *c, int n, int avail, uint32_t *out)
{
#if defined(HAVE_WIDE_AVX2)
	return c[0].style ? pack_wide_avx2(c, n, avail, out) : pack_wide_avx2_0(c, n, avail, out);
#else
	(void)c, (void)n, (void)avail, (void)out;
	return GRID_PACK_MISFIT;
#endif
}

/* The styles of a PACK_STYLES line (lines of other text in several styles, which are rare): one by one. */
void grid__hist_wide_styles(const struct grid_cell *c, int n, uint16_t *st)
{
	for (int x = 0; x < n; x++)
		st[x] = c[x].style;
}
