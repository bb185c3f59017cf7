/* vt/parser-scan.h: the ground state's byte scans of vt/parser.c (its only includer, after HAVE_FEED_AVX2):
 * the end of a printable ASCII run, 8 and 32 bytes at a time, and the AVX2 copies of the 32-byte scans and of
 * final_in_32 (parser-internal.h) for feed_avx2. Apart so that parser.c stays a readable size; static, so the
 * code is what it was when they were written inline there. */
#ifndef VT_PARSER_SCAN_H
#define VT_PARSER_SCAN_H

#include <stdint.h>
#include <string.h>

#include "vt/parser-internal.h"

/* Bit 7 of byte k is set when byte k of v is not printable ASCII. Only the lowest flagged byte is exact
 * (borrows and carries move upwards, and only out of bytes that are flagged themselves). */
static inline uint64_t nonprint_mask(uint64_t v, uint64_t ones, uint64_t spaces)
{
	const uint64_t highs = 0x8080808080808080ull;
	uint64_t below = (v - spaces) & ~v;
	uint64_t del_or_high = (v + ones) | v;
	return (below | del_or_high) & highs;
}

static size_t scan_printable(const uint8_t *d, size_t i, size_t n)
{
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the constants made here, where they are used: the compiler otherwise keeps one in a register across the
	 * whole feed loop (this loop is its rare case, the last bytes of a feed), and the loop then keeps len or
	 * bulk_end on the stack: one load more per escape sequence */
	uint64_t ones = 0x0101010101010101ull, spaces = 0x2020202020202020ull;
	__asm__ volatile("" : "+r"(ones), "+r"(spaces));
	while (n - i >= 8) {
		uint64_t v;
		memcpy(&v, d + i, 8);
		uint64_t m = nonprint_mask(v, ones, spaces);
		if (m)
			return i + ((unsigned)__builtin_ctzll(m) >> 3);
		i += 8;
	}
#endif
	while (i < n && d[i] >= 0x20 && d[i] < 0x7f)
		i++;
	return i;
}

/* scan_printable for the text between escape sequences (a word, a cell, a line's rest): 32 bytes per step,
 * as two 16-byte compares, so that a run shorter than 32 bytes takes no loop at all (escape-heavy output's
 * runs come in every length, which the 8-byte loop's exit mispredicts). The first byte of q..end that is not
 * printable, or end: by pointers, as the feed loop walks (it then keeps neither data nor len for the scan). */
static inline const uint8_t *scan_printable_32(const uint8_t *q, const uint8_t *end)
{
#if defined(__SSE2__) && defined(__GNUC__)
	__m128i lo = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f);
	/* loaded here, not hoisted into the caller's loop: there they would be reloaded after every call */
	__asm__ volatile("" : "+x"(lo), "+x"(del));
	while ((size_t)(end - q) >= 32) {
		/* printable: above 0x1f as a signed byte (so not 0x80..0xff), and not DEL */
		const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)q),
			      b = _mm_loadu_si128((const __m128i *)(const void *)(q + 16));
		const unsigned ma = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(a, del),
										   _mm_cmpgt_epi8(a, lo))),
			       mb = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(b, del),
										   _mm_cmpgt_epi8(b, lo)));
		const unsigned stop = ~(ma | mb << 16);
		if (stop)
			return q + (unsigned)__builtin_ctz(stop);
		q += 32;
	}
#endif
	return q + scan_printable(q, 0, (size_t)(end - q));
}

#if defined(HAVE_FEED_AVX2)
/* final_in_32 for feed_avx2 (CPUs with AVX2 and BMI1): the 32 bytes in one compare, and no branch on where the
 * final lies (escape-heavy output's sequences end before or after byte 16 in no order a predictor learns:
 * ~21 k mispredictions per 2 MiB of csi with the two 16-byte halves); tzcnt gives 32 for none, so 33. In asm, with
 * the upper halves cleared right after (SSE code follows in the sink): written with intrinsics, the whole
 * loop becomes AVX code and the compiler clears them before every call it makes (a vzeroupper per text
 * run and control as well: +0.5% instructions on scrolling). As many instructions as final_in_32's first
 * half, with the caller's. */
static inline size_t final_in_32_avx2(const uint8_t *s)
{
	static const uint8_t lo[32] = {
		0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f,
		0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f,
	};
	uint64_t f; /* written as 32 bits, which clears the upper ones: no zero extension needed */
	/* bytes 0x40..0x7f: above 0x3f as signed bytes */
	__asm__("vmovdqu %1, %%ymm0\n\t"
		"vpcmpgtb %2, %%ymm0, %%ymm0\n\t"
		"vpmovmskb %%ymm0, %k0\n\t"
		"vzeroupper\n\t"
		"tzcnt %k0, %k0\n\t"
		"inc %k0"
		: "=r"(f)
		: "m"(*(const uint8_t(*)[32])(const void *)s), "m"(lo)
		: "xmm0", "cc");
	return f;
}

/* scan_printable_32 for feed_avx2: the 32 bytes in one compare, printable being (b + 1) above 0x20 as a signed
 * byte (0x7f and 0x80..0xff wrap to 0x80..0x00, the controls stay below 0x21): an add and a compare where the
 * two 16-byte halves took two loads, two compares and an andnot each. In asm, for the reason final_in_32_avx2
 * gives, but the upper halves left dirty: the caller clears them (vzeroupper below, or final_in_32_avx2 when a
 * CSI follows the text) before any call. One vzeroupper a text run, not one per 32 bytes and a second one
 * for the CSI after it: under QEMU's TCG each is 16 stores (~17 instructions of the host's). */
static inline const uint8_t *scan_printable_32_avx2(const uint8_t *q, const uint8_t *end)
{
	static const uint8_t one[32] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	};
	static const uint8_t bar[32] = {
		0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
		0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	};
	while ((size_t)(end - q) >= 32) {
		uint32_t m;
		__asm__("vmovdqu %1, %%ymm0\n\t"
			"vpaddb %2, %%ymm0, %%ymm0\n\t"
			"vpcmpgtb %3, %%ymm0, %%ymm0\n\t"
			"vpmovmskb %%ymm0, %0"
			: "=r"(m)
			: "m"(*(const uint8_t(*)[32])(const void *)q), "m"(one), "m"(bar)
			: "xmm0");
		if (~m)
			return q + (unsigned)__builtin_ctz(~m);
		q += 32;
	}
	return q + scan_printable(q, 0, (size_t)(end - q));
}

/* The clearing after scan_printable_32_avx2 where no final_in_32_avx2 follows. */
static inline void vzeroupper(void)
{
	__asm__ volatile("vzeroupper" ::: "xmm0");
}
#endif

/* feed_base's clearing: its scans are SSE2 code. */
static inline void no_clean(void)
{
}

#endif
