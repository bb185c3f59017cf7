/* grid/grid-sgr-512.h: sgr_color_decode for CPUs with AVX-512 (BW, VL) and BMI2, included by grid-sgr-color.h
 * (which has color_head, the HEAD_ macros and digit_mask): the palette, direct and ITU forms in one path with
 * no branch on which, the three numbers by one shuffle and two multiply-adds.
 *
 * Why: csi's colour SGRs come in random order (38;5;n, 38;2;r;g;b, 38:2::r:g:b, ...): the branch on the
 * palette form and the one on the ITU form were ~40 k of its ~355 k mispredictions per 2 MiB in
 * cachegrind's model, and the same stream with those kinds sorted (nothing else changed) ran 2-4.5 % faster
 * on this host (docs/benchmarks.md, issue 2, session 23). In scalar code the one path costs the palette form
 * ~60 instructions more (session 21: no faster), and in an emulated guest (QEMU's TCG, issue 5) each vector
 * operation is a helper call: so only where AVX-512 is (neither valgrind nor the guests of issue 5 have it,
 * whose counts are unchanged). */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_SGR_512 1

/* The shuffles by (l0, l1, l2, palette) = index bits 0-1, 2-3, 4-5, 6: bytes 0..3 b, 4..7 g, 8..11 r, each
 * number's digits right-aligned in its first three bytes as positions in the tail after st (0x80: a zero);
 * and the index of each valid (separators, length, palette) = bits 0-7, 8-11, 12 (0xff: none). Made by
 * color_512_init (~10 KiB, of which the 68 shuffles and 68 indices in use). */
static uint8_t color_512_shuf[128][16] __attribute__((aligned(16)));
static uint8_t color_512_key[8192];

/* A field at p of l digits into out[0..4) (right-aligned in the first three) */
GRID_PAGE("sgr512") static void color_512_field(uint8_t *out, unsigned p, unsigned l)
{
	for (unsigned k = 0; k < 3; k++)
		out[k] = k + l >= 3 ? (uint8_t)(p + l + k - 3) : 0x80;
	out[3] = 0x80;
}

GRID_PAGE("sgr512") static void color_512_init(void)
{
	memset(color_512_shuf, 0x80, sizeof(color_512_shuf));
	memset(color_512_key, 0xff, sizeof(color_512_key));
	for (unsigned i = 0; i < 64; i++) {
		const unsigned l0 = i & 3, l1 = i >> 2 & 3, l2 = i >> 4 & 3;
		color_512_field(color_512_shuf[i], l0 + l1 + 2, l2);
		color_512_field(color_512_shuf[i] + 4, l0 + 1, l1);
		color_512_field(color_512_shuf[i] + 8, 0, l0);
		color_512_key[(1u << l0 | 1u << (l0 + l1 + 1)) | (l0 + l1 + l2 + 2) << 8] = (uint8_t)i;
	}
	for (unsigned l = 0; l < 4; l++) {
		/* palette: n alone at 0 */
		color_512_field(color_512_shuf[64 + 16 * l], 0, l);
		color_512_key[l << 8 | 1u << 12] = (uint8_t)(64 + 16 * l);
	}
}

/* sgr_color_decode's result for the SGR s[0..n) (s[0..32) readable) whose head h color_head has matched (the
 * caller's test, before any register is saved for this), by masks and look-ups. The tail t[0..len) (len = n - 5)
 * then: digits and the head's separator only (len <= 15); palette: no separator, len <= 3; direct: two
 * separators, or three in the ':' form (the first number, Pi, dropped by starting after it: st); each number of
 * at most 3 digits (the key's table) and below 256. */
__attribute__((target("avx512f,avx512bw,avx512vl,bmi,bmi2,sse4.1,ssse3"), always_inline)) static inline bool
color_tail_512(const uint8_t *s, unsigned n, uint64_t h, uint32_t *out)
{
	/* the vector constants: '0', 10 (':' less '0'), 11 (';'), the multipliers of the digits, 1 as words;
	 * read through an opaque pointer (as loads: GCC otherwise builds each from a general register) */
	static const uint8_t kc[5][16] __attribute__((aligned(16))) = {
		{'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'},
		{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10},
		{11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11},
		{100, 10, 1, 0, 100, 10, 1, 0, 100, 10, 1, 0, 100, 10, 1, 0},
		{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0},
	};
	const uint8_t *k = &kc[0][0];
	__asm__("" : "+r"(k));
#define KC(i) _mm_load_si128((const __m128i *)(const void *)(k + 16 * (i)))
	const unsigned len = n - 5, pal = (unsigned)HEAD_PAL(h), semi = (unsigned)(h >> 16 & 1);
	/* the tail less '0': digits 0..9, ':' 10, ';' 11 */
	const __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + 5)), KC(0));
	const unsigned lim = _bzhi_u32(~0u, len);
	/* the head's separator; none counted in the palette form (any there is then not a digit: bad) */
	const unsigned sep = _mm_cmpeq_epi8_mask(d, KC(1 + semi)) & lim & (pal - 1u);
	unsigned bad = ((_mm_cmplt_epu8_mask(d, KC(1)) | sep) & lim) ^ lim;
	/* a third separator: the ITU form (':' only), Pi dropped by starting after it (st); a fourth: none */
	const unsigned s2 = _blsr_u32(_blsr_u32(sep));
	bad |= s2 & ((s2 - 1u) | (0u - semi));
	const unsigned st = (_tzcnt_u32(sep) + 1u) & (0u - (unsigned)(s2 != 0));
	const unsigned sm = sep >> st;
	/* the key within the table (past it: bad already by the separators' places; a tail of 16 bytes or more
	 * after st here, as the key keeps its length in 4 bits: "38;5;0000000000000001" would read as an
	 * empty palette number) */
	bad |= sm >> 8 | (len - st) >> 4;
	const unsigned idx = color_512_key[(sm & 255) | ((len - st) & 15) << 8 | pal << 12];
	bad |= idx >> 7;
	const __m128i ctl = _mm_add_epi8(_mm_load_si128((const __m128i *)(const void *)color_512_shuf[idx & 127]),
					 _mm_set1_epi8((char)st));
	const __m128i x = _mm_shuffle_epi8(d, ctl);
	const __m128i w = _mm_maddubs_epi16(x, KC(3));
	const __m128i v = _mm_madd_epi16(w, KC(4));
	const uint64_t q = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi32(v, v)); /* b | g << 16 | r << 32 */
	*out = (uint32_t)_pext_u64(q, 0xff00ff00ffull) | (0x02000000u >> pal);
	return ((q & 0xff00ff00ff00ull) | bad) == 0;
#undef KC
}
#endif
