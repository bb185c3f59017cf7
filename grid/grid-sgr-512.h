/* grid/grid-sgr-512.h: sgr_color_decode for CPUs with AVX-512 (BW, VL) and BMI2, included by grid-sgr-color.h
 * (which has color_head, the HEAD_ macros and digit_mask): the palette, direct and ITU forms in one path with
 * no branch on which, the three numbers by one shuffle and one multiply-add.
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
 * number's digits right-aligned in its first three bytes as positions in the tail less its length len (added
 * back by the decode; 0x80: a zero, which stays >= 0x80 with len added); and the index of each valid
 * (boundaries, palette) = bits 0-11, 12 (0xff: none), the boundaries being the separators and the place before
 * the tail within 12 bytes of its end, bit 12 - d at d bytes before the end (see color_tail_512). Made by
 * color_512_init (~10 KiB, of which the 68 shuffles and a few hundred indices in use). */
static uint8_t color_512_shuf[128][16] __attribute__((aligned(16)));
static uint8_t color_512_key[8192];

/* A field that ends e bytes before the tail's end, of l digits, into out[0..4) (right-aligned in the first
 * three) */
GRID_PAGE("sgr512") static void color_512_field(uint8_t *out, unsigned e, unsigned l)
{
	for (unsigned k = 0; k < 3; k++)
		out[k] = k + l >= 3 ? (uint8_t)(k - 3 - e) : 0x80;
	out[3] = 0x80;
}

GRID_PAGE("sgr512") static void color_512_init(void)
{
	memset(color_512_shuf, 0x80, sizeof(color_512_shuf));
	memset(color_512_key, 0xff, sizeof(color_512_key));
	for (unsigned i = 0; i < 64; i++) {
		const unsigned l0 = i & 3, l1 = i >> 2 & 3, l2 = i >> 4 & 3;
		/* an empty number: no key (the general path's, as color_tail's) */
		if (!l0 || !l1 || !l2)
			continue;
		const unsigned dr = l0 + l1 + l2 + 3; /* the boundary before r: at most 12 */
		color_512_field(color_512_shuf[i], 0, l2);
		color_512_field(color_512_shuf[i] + 4, l2 + 1, l1);
		color_512_field(color_512_shuf[i] + 8, l1 + l2 + 2, l0);
		const unsigned key = 1u << (12 - (l2 + 1)) | 1u << (12 - (l1 + l2 + 2)) | 1u << (12 - dr);
		color_512_key[key] = (uint8_t)i;
		/* the ITU form: the place before its Pi (of lp digits) within the 12 bytes as well */
		for (unsigned d = dr + 1; d <= 12; d++)
			color_512_key[key | 1u << (12 - d)] = (uint8_t)i;
	}
	for (unsigned l = 1; l < 4; l++) {
		/* palette: n alone at the end */
		color_512_field(color_512_shuf[64 + 16 * l], 0, l);
		color_512_key[1u << (12 - (l + 1)) | 1u << 12] = (uint8_t)(64 + 16 * l);
	}
}

/* sgr_color_decode's result for the SGR s[0..n) (s[0..32) readable) whose head color_head has matched (the
 * caller's test), by masks and look-ups; the head's bytes read again from s (nothing kept for them). The tail
 * t[0..len) (len = n - 5) then: digits and the head's separator only (len <= 16); palette: no separator, 1 to
 * 3 digits; direct: two separators, or three in the ':' form (the first number, Pi, then not used); each
 * number of 1 to 3 digits (the key's table: an empty one is left to the general path, as color_tail leaves it)
 * and below 256.
 *
 * The numbers are placed from the tail's end: the last three fields are r, g, b whether or not a Pi comes
 * before them, so that the ITU form needs no shift by its first separator's place before the table's look-up
 * (that shift and the first separator's tzcnt were on the path to the colour). */
__attribute__((target("avx512f,avx512bw,avx512vl,bmi,bmi2,sse4.1,ssse3"), always_inline)) static inline bool
color_tail_512(const uint8_t *s, unsigned n, uint32_t *out)
{
	/* the vector constants: '0', 10 (':' less '0'), 11 (';'); read through an opaque pointer (as loads: GCC
	 * otherwise builds each from a general register); then the multipliers of the digits, and the numbers'
	 * low bytes then their high bytes (not through the pointer: it then need not be kept to the end) */
	static const uint8_t kc[3][16] __attribute__((aligned(16))) = {
		{'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'},
		{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10},
		{11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11},
	};
	static const uint8_t mul[16] __attribute__((aligned(16))) = {100, 10, 1, 0, 100, 10, 1, 0,
								      100, 10, 1, 0, 100, 10, 1, 0};
	static const uint8_t gather[16] __attribute__((aligned(16))) = {
		0, 4, 8, 0x80, 1, 5, 9, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
	const uint8_t *k = &kc[0][0];
	__asm__("" : "+r"(k));
#define KC(i) _mm_load_si128((const __m128i *)(const void *)(k + 16 * (i)))
	/* '5' or '2', ';' or ':' */
	const unsigned len = n - 5, pal = s[3] & 1u, semi = s[2] & 1u;
	/* the tail less '0': digits 0..9, ':' 10, ';' 11 */
	const __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + 5)), KC(0));
	/* the head's separator; none counted in the palette form (any there is then not a digit: bad); both
	 * masks cut to the tail by a bzhi each (a mask of the tail would be kept in a register a call saves) */
	const unsigned sep = _bzhi_u32(_mm_cmpeq_epi8_mask(d, KC(1 + semi)) & (pal - 1u), len);
	unsigned bad = _bzhi_u32(~(_mm_cmplt_epu8_mask(d, KC(1)) | sep), len);
	/* a third separator: the ITU form (':' only); a fourth: none */
	const unsigned s2 = _blsr_u32(_blsr_u32(sep));
	bad |= s2 & (s2 - 1u + semi);
	/* the boundaries (separators at p, the tail's start at -1) d = len - p bytes before the end, d 1..12, at
	 * bit 12 - d (len <= 23 here: n <= 28): the key within the table (a field longer than 3 digits leaves
	 * a pattern of none) */
	const unsigned bnd = ((sep << 1 | 1u) << ((27u - len) & 31)) >> 16;
	const unsigned idx = color_512_key[(bnd & 0xfff) | pal << 12];
	bad |= idx >> 7;
	const __m128i ctl = _mm_add_epi8(_mm_load_si128((const __m128i *)(const void *)color_512_shuf[idx & 127]),
					 _mm_set1_epi8((char)len));
	const __m128i x = _mm_shuffle_epi8(d, ctl);
	/* (100 a + 10 b, c) as words, then a + b + c in each number's low word (at most 999) */
	const __m128i w = _mm_maddubs_epi16(x, _mm_load_si128((const __m128i *)(const void *)mul));
	const __m128i v = _mm_add_epi16(w, _mm_srli_epi32(w, 16));
	/* b | g << 8 | r << 16, and their high bytes (0 when below 256) from bit 32 on */
	const uint64_t q = (uint64_t)_mm_cvtsi128_si64(_mm_shuffle_epi8(v, _mm_load_si128((const __m128i *)(const void *)gather)));
	/* the colour's kind from the row (palette rows from 64 on), where pal would be kept in a register */
	*out = (uint32_t)q | (0x02000000u >> (idx >> 6 & 1));
	return ((q >> 32) | bad) == 0;
#undef KC
}
#endif
