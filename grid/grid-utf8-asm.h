/* grid/grid-utf8-asm.h: put_text's loop for one- and two-byte characters on x86-64 with GCC or clang (grid-utf8.c
 * keeps a C loop for other targets): its table and the asm. Only for grid-utf8.c, which includes it once, after
 * grid-print.h (the cluster constants the asm's mark_direct builds on). Apart from grid-utf8.c to keep files
 * under ~800 lines; always inline, so the code is what it was in one file.
 */
#ifndef GRID_UTF8_ASM_H
#define GRID_UTF8_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-print.h"
#include "vt/vt.h"

/* put_text's asm loop's table: vt_utf8_pairs indexed by the two bytes as a little-endian load gives them (b | next
 * << 8), ASCII's entries repeated for every next byte: no byte swap, no offset, no `cmov` (three instructions a
 * character fewer than pair_index: they pay for the early mark test). 128 KiB of BSS. */
static int16_t utf8_pairs_le[0x10000];

__attribute__((constructor)) static void utf8_pairs_le_fill(void)
{
	/* vt_utf8_pairs is 0 for b 0x80..0xc0, leads 0xe0 and above and second bytes outside 0x80..0xbf (a
	 * constructor runs in every process: ~20 k instructions, not the ~90 k of copying all) */
	for (uint32_t n = 0; n < 0x100u; n++)
		memcpy(&utf8_pairs_le[n << 8], vt_utf8_pairs, 0x80u * sizeof(vt_utf8_pairs[0]));
	for (uint32_t b = 0xc1u; b < 0xe0u; b++)
		for (uint32_t n = 0x80u; n < 0xc0u; n++)
			utf8_pairs_le[n << 8 | b] = vt_utf8_pairs[(b - 0xc0u) << 8 | n];
}

/* The AVX-512 block for runs of wide three-byte characters (CJK Unified Ideographs U+4E00..U+9FFF, hiragana
 * U+3041..U+3096, katakana U+30A1..U+30FA: all plain and of width 2, tests/grid/test-utf8-cjk-block.c checks
 * that against the property table), taken at the asm's label 12 when cjk_block is set: up to 8 characters
 * (24 bytes) decoded and written as 16 cells without a branch per character, the run's end found by a mask
 * (tzcnt), not by a mispredicted loop exit. Its constants: the byte permutation that puts character j's three
 * bytes in 32-bit lane j, the three lane permutations that spread 8 code points and the pen (the tail: lanes
 * 16..19 = {2, 0, style | link << 16, 0}) over 48 lanes of cells {cp, pen, 2}, {0, pen, 0}, and the masks and
 * ranges as 32-bit words. */
struct cjk_block_consts {
	uint8_t pidx[32];
	uint32_t cells[3][16];
	uint32_t lead_mask, lead_val, m_a, m_b, m_c, cjk_lo, cjk_n, hira_lo, hira_n, kata_lo, kata_n;
	/* the mark block's (the asm's label 30, taken after the step attached a mark when cjk_block is set): up
	 * to 16 bytes of printable ASCII and marks U+0300..U+036F each right after an ASCII letter. Its byte
	 * constants (-0x20, 0x5f: printable ASCII; 0xcc, 0xcd: a mark's lead; 0x80 and 0xb0: its second byte),
	 * the permutation that puts bytes i..i+2 in lane i, the three that spread 16 code points and {pen, 1}
	 * over 48 lanes of narrow cells, and 32-bit words */
	uint32_t pad[1];
	uint8_t by_m20[32], by_5f[32], by_cc[32], by_cd[32], by_80[32], by_b0[32];
	uint8_t pidx3[64];
	uint32_t ncells[3][16];
	uint32_t c0c0, ff, m7c0, m3f, x70, cl;
};
_Static_assert(offsetof(struct cjk_block_consts, cells) == 32 && offsetof(struct cjk_block_consts, lead_mask) == 224 &&
		       offsetof(struct cjk_block_consts, kata_n) == 264 && offsetof(struct cjk_block_consts, by_m20) == 272 &&
		       offsetof(struct cjk_block_consts, pidx3) == 464 && offsetof(struct cjk_block_consts, ncells) == 528 &&
		       offsetof(struct cjk_block_consts, c0c0) == 720 && offsetof(struct cjk_block_consts, cl) == 740,
	       "the asm's offsets into cjk_c");
static const struct cjk_block_consts cjk_c __attribute__((aligned(64))) = {
	.pidx = {0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12, 12, 13, 14, 15, 15, 16, 17, 18, 18, 19, 20, 21, 21, 22, 23, 23},
#define LANES16(F, t)                                                                                                  \
	{F(16 * (t) + 0), F(16 * (t) + 1), F(16 * (t) + 2), F(16 * (t) + 3), F(16 * (t) + 4), F(16 * (t) + 5),          \
	 F(16 * (t) + 6), F(16 * (t) + 7), F(16 * (t) + 8), F(16 * (t) + 9), F(16 * (t) + 10), F(16 * (t) + 11),        \
	 F(16 * (t) + 12), F(16 * (t) + 13), F(16 * (t) + 14), F(16 * (t) + 15)}
	/* word g of the cells: a code point's lane, else the tail's {2, 0, pen} */
#define CJK_CELL(g) ((g) % 6 == 0 ? (g) / 6 : (g) % 6 == 1 || (g) % 6 == 4 ? 18u : (g) % 6 == 2 ? 16u : 17u)
	.cells = {LANES16(CJK_CELL, 0), LANES16(CJK_CELL, 1), LANES16(CJK_CELL, 2)},
#undef CJK_CELL
	.lead_mask = 0x00c0c0f0u,
	.lead_val = 0x008080e0u,
	.m_a = 0x0fu,
	.m_b = 0x3f00u,
	.m_c = 0x3f0000u,
	.cjk_lo = 0x4e00u,
	.cjk_n = 0xa000u - 0x4e00u,
	.hira_lo = 0x3041u,
	.hira_n = 0x3097u - 0x3041u,
	.kata_lo = 0x30a1u,
	.kata_n = 0x30fbu - 0x30a1u,
#define B32(v) {v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v}
	.by_m20 = B32(0xe0),
	.by_5f = B32(0x5f),
	.by_cc = B32(0xcc),
	.by_cd = B32(0xcd),
	.by_80 = B32(0x80),
	.by_b0 = B32(0xb0),
#undef B32
#define P3(i) (i), (i) + 1, (i) + 2, (i) + 2
	.pidx3 = {P3(0), P3(1), P3(2), P3(3), P3(4), P3(5), P3(6), P3(7),
		  P3(8), P3(9), P3(10), P3(11), P3(12), P3(13), P3(14), P3(15)},
#undef P3
	/* word g of narrow cells: a code point's lane, else {pen, 1} (lo's two halves) */
#define N_CELL(g) ((g) % 3 == 0 ? (g) / 3 : (g) % 3 == 1 ? 16u : 17u)
	.ncells = {LANES16(N_CELL, 0), LANES16(N_CELL, 1), LANES16(N_CELL, 2)},
#undef N_CELL
#undef LANES16
	.c0c0 = 0xc0c0c0c0u,
	.ff = 0xffu,
	.m7c0 = 0x7c0u,
	.m3f = 0x3fu,
	.x70 = 0x70u,
	/* a direct cluster of base b and mark m: (b - 0x20) * 0x70 + m - 0x300 - 0x3fe00000, as b * 0x70 + m + cl */
	.cl = 0xc01fef00u,
};

/* Whether the asm takes the blocks (AVX-512 F, BW, VL, DQ and VBMI, BMI1, BMI2 and POPCNT). Only such CPUs were timed
 * (docs/benchmarks.md, issue 2, session 53 "uni"); emulators that lack AVX-512 (QEMU's TCG, valgrind) keep the
 * scalar loop. The block uses zmm16-19 and k1-k5 only, which code compiled without AVX-512 never holds a value
 * in (all of them are call-clobbered), so the asm needs not declare them. */
static bool cjk_block;

__attribute__((constructor)) static void cjk_block_init(void)
{
	__builtin_cpu_init();
	cjk_block = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
		    __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("bmi") &&
		    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}

/* One asm loop, two conditional branches a character (a TCG translation block each in the guests, as the C
 * loop): the early mark test on the lead byte (0xcc/0xcd: U+0300..U+037F) before the table's load, so a
 * combining mark's mispredicted branch resolves with the byte's load, not ~6 cycles later with the
 * entry's (the marks were ~14 % of unicode's time); then one test for "plain and p < plim" (the entry made
 * 0 at plim). Host +4-5 % unicode time, guest +0.4 % (docs/benchmarks.md, issue 2, session 20 "uni2"). It
 * leaves with p past the character, k its index and bb = b >> 7.
 *
 * In front of it (2:), while p is 4 bytes or more before plim, two characters a step from one 4-byte load:
 * a character at a time, the next one's address waits for this one's lead byte (a load, a shift, an add:
 * ~7 cycles a character on the Intel host of session 21), which is what that loop ran at; the step's
 * address is p + 2 + B1 + (B0 & B2) (Bi: bit 7 of byte i; true once both characters are known plain,
 * so the first one's second byte is a continuation when B0 is set), ~8 cycles for two. Its exits: 6 and 7
 * leave as the loop below does (p past the character, its k and bb), with the first character written
 * for 7; 8 and 11 take a combining mark U+0300..U+036F on a narrow ASCII character or on a pair of
 * that kind right here, as mark_direct would (the C path's ~25 instructions and a re-entry were as many
 * as the step's for two characters), and anything else there leaves by 9. The cell before is this run's
 * (the first character is plain), so it needs no width test: a wide character's right half holds 0,
 * neither kind of base. Its signed tests are `cmp $0`, not `test` (after `test`, TCG computes the flags
 * in a helper: +5 % of the guest's unicode instructions). Host +4-5 % unicode time
 * (docs/benchmarks.md, issue 2, session 21 "uni").
 *
 * Exits 6 and 7 first ask (13) whether the character is three bytes with two continuations; then 12 takes
 * it when it is plain and wide (CJK Unified Ideographs U+4E00..U+9FFF by their range, the rest such as
 * kana by the property table: props 2), one a step while p is 4 bytes before plim (3 bytes, 2 cells:
 * plim's bound holds), and goes back to the step at 2 after the word: a CJK or kana word costs no
 * leave and re-entry (put_text's C dispatch, ~40 instructions and 1-3 mispredicted branches a word:
 * unicode -2.7 % instructions, docs/benchmarks.md, issue 2, session 22 "uni"). What it does not take (an
 * overlong form, a surrogate, a narrow or non-Other character, the end of plim) leaves by 14 as 6
 * did. */
_Static_assert(CLUSTER_AM_MARK == 0x300u && CLUSTER_AM_MARKS == 0x70u && CLUSTER_AM_BASE == 0x20u &&
		       CLUSTER_AM_SLOTS / CLUSTER_AM_MARKS == 0x60u &&
		       (GRID_CP_CLUSTER | CLUSTER_DIRECT | CLUSTER_DIRECT_PAIR) == 0xc0200000u &&
		       (GRID_CP_CLUSTER | CLUSTER_DIRECT) == 0xc0000000u && CLUSTER_DIRECT_PAIR == 0x200000u &&
		       sizeof(struct grid_cell) == 12,
	       "the asm's mark_direct and cell offsets");
/* One asm string of ~7 KB: longer than the 4095 bytes ISO C requires a compiler to take, which clang's
 * -Wpedantic (-Woverlength-strings) says; GCC and clang take it whole. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
__attribute__((always_inline)) static inline void put_pairs_asm(const uint8_t **pp, struct grid_cell **po,
							     uint64_t *kp, uint64_t *bbp, uint64_t lo,
							     const uint8_t *plim, __m128i tail)
{
	const uint8_t *p = *pp;
	struct grid_cell *o = *po;
	uint64_t k, bb, w, x;
	int32_t e;
	__asm__("0:\n\t"
		"cmpq %[lim4], %[p]\n\t"
		"jae 5f\n"
		"2:\n\t"
		"movl (%[p]), %k[w]\n\t"
		"movzbl %b[w], %k[b]\n\t"
		"movzwl %w[w], %k[k]\n\t"
		"shrl $7, %k[b]\n\t"
		"leal -0xcc(%q[w]), %k[e]\n\t"
		"testb $0xfe, %b[e]\n\t"
		"je 8f\n\t"
		"movswl (%[t],%q[k],2), %k[e]\n\t"
		"cmpl $0, %k[e]\n\t"
		"jle 6f\n\t"
		"movl %k[e], (%[o])\n\t"
		"movq %[lo], 4(%[o])\n\t"
		"movzwl 1(%[p],%q[b]), %k[k]\n\t"
		"leal -0xcc(%q[k]), %k[e]\n\t"
		"testb $0xfe, %b[e]\n\t"
		"je 11f\n\t"
		"movswl (%[t],%q[k],2), %k[e]\n\t"
		"cmpl $0, %k[e]\n\t"
		"jle 7f\n\t"
		"movl %k[e], 12(%[o])\n\t"
		"movq %[lo], 16(%[o])\n\t"
		"addq $24, %[o]\n\t"
		"movl %k[w], %k[x]\n\t"
		"andl $0x800080, %k[x]\n\t"
		"btl $15, %k[w]\n\t"
		"adcq $2, %[p]\n\t"
		"cmpl $0x800080, %k[x]\n\t"
		"sbbq $-1, %[p]\n\t"
		"cmpq %[lim4], %[p]\n\t"
		"jb 2b\n\t"
		"jmp 5f\n"
		"7:\n\t"
		"addq $12, %[o]\n\t"
		"leaq 1(%[p],%q[b]), %[p]\n\t"
		"movl (%[p]), %k[w]\n"
		"6:\n\t"
		"movl %k[w], %k[x]\n\t"
		"andl $0xc0c0f0, %k[x]\n\t"
		"cmpl $0x8080e0, %k[x]\n\t"
		"je 12f\n\t"
		"movl %k[w], %k[x]\n\t"
		"andl $0xc0c0c0f8, %k[x]\n\t"
		"cmpl $0x808080f0, %k[x]\n\t"
		"je 16f\n"
		"13:\n\t"
		"movzbl %b[w], %k[b]\n\t"
		"shrl $7, %k[b]\n\t"
		"leaq 1(%[p],%q[b]), %[p]\n\t"
		"jmp 3f\n"
		"12:\n\t"
		"cmpb $0, %[vec]\n\t"
		"jne 20f\n"
		"21:\n\t"
		"cmpq %[lim4], %[p]\n\t"
		"jae 14f\n\t"
		"movl %k[w], %k[e]\n\t"
		"bswapl %k[e]\n\t"
		"shrl $8, %k[e]\n\t"
		"movl %k[e], %k[x]\n\t"
		"movl %k[e], %k[k]\n\t"
		"andl $0x3f, %k[e]\n\t"
		"shrl $4, %k[x]\n\t"
		"shrl $2, %k[k]\n\t"
		"andl $0xf000, %k[x]\n\t"
		"andl $0xfc0, %k[k]\n\t"
		"orl %k[x], %k[e]\n\t"
		"orl %k[k], %k[e]\n\t"
		"leal -0x4e00(%q[e]), %k[x]\n\t"
		"cmpl $0x5200, %k[x]\n\t"
		"jb 15f\n\t"
		"cmpl $0x800, %k[e]\n\t"
		"jb 14f\n\t"
		"movl %k[e], %k[x]\n\t"
		"shrl $7, %k[x]\n\t"
		"movzbl (%[ui],%q[x]), %k[x]\n\t"
		"shll $7, %k[x]\n\t"
		"movl %k[e], %k[k]\n\t"
		"andl $0x7f, %k[k]\n\t"
		"addq %[ub], %q[x]\n\t"
		"cmpb $2, (%q[x],%q[k])\n\t"
		"jne 14f\n"
		"15:\n\t"
		"orq %[hi], %q[e]\n\t"
		"movq %q[e], (%[o])\n\t"
		"movups %[tail], 8(%[o])\n\t"
		"addq $24, %[o]\n\t"
		"addq $3, %[p]\n\t"
		"cmpq %[lim4], %[p]\n\t"
		"jae 5f\n\t"
		"movl (%[p]), %k[w]\n\t"
		"movl %k[w], %k[x]\n\t"
		"andl $0xc0c0f0, %k[x]\n\t"
		"cmpl $0x8080e0, %k[x]\n\t"
		"je 21b\n\t"
		"jmp 2b\n"
		"16:\n\t"
		"cmpq %[lim4], %[p]\n\t"
		"jae 14f\n\t"
		"movl %k[w], %k[e]\n\t"
		"bswapl %k[e]\n\t"
		"movl %k[e], %k[x]\n\t"
		"movl %k[e], %k[k]\n\t"
		"shrl $6, %k[x]\n\t"
		"shrl $4, %k[k]\n\t"
		"andl $0x1c0000, %k[x]\n\t"
		"andl $0x3f000, %k[k]\n\t"
		"orl %k[k], %k[x]\n\t"
		"movl %k[e], %k[k]\n\t"
		"shrl $2, %k[k]\n\t"
		"andl $0x3f, %k[e]\n\t"
		"andl $0xfc0, %k[k]\n\t"
		"orl %k[x], %k[e]\n\t"
		"orl %k[k], %k[e]\n\t"
		"leal -0x10000(%q[e]), %k[x]\n\t"
		"cmpl $0xfffff, %k[x]\n\t"
		"ja 14f\n\t"
		"movl %k[e], %k[x]\n\t"
		"shrl $7, %k[x]\n\t"
		"movzbl (%[ui],%q[x]), %k[x]\n\t"
		"shll $7, %k[x]\n\t"
		"movl %k[e], %k[k]\n\t"
		"andl $0x7f, %k[k]\n\t"
		"addq %[ub], %q[x]\n\t"
		"movzbl (%q[x],%q[k]), %k[x]\n\t"
		"andl $0xbf, %k[x]\n\t"
		"cmpl $2, %k[x]\n\t"
		"jne 14f\n\t"
		"addq $1, %[p]\n\t"
		"jmp 15b\n"
		"14:\n\t"
		"movzwl %w[w], %k[k]\n\t"
		"jmp 13b\n"
		"11:\n\t"
		"addq $12, %[o]\n\t"
		"leaq 1(%[p],%q[b]), %[p]\n"
		"8:\n\t"
		"movswl (%[t],%q[k],2), %k[e]\n\t"
		"cmpl $0, %k[e]\n\t"
		"jge 9f\n\t"
		"andl $0x7ff, %k[e]\n\t"
		"subl $0x300, %k[e]\n\t"
		"cmpl $0x70, %k[e]\n\t"
		"jae 9f\n\t"

		"movl -12(%[o]), %k[x]\n\t"
		"leal -0x20(%q[x]), %k[w]\n\t"
		"cmpl $0x60, %k[w]\n\t"
		"jae 10f\n\t"
		"imull $0x70, %k[w], %k[w]\n\t"
		"leal -0x3fe00000(%q[w],%q[e]), %k[w]\n\t"
		"movl %k[w], -12(%[o])\n\t"
		"addq $2, %[p]\n\t"
		"cmpb $0, %[vec]\n\t"
		"je 0b\n"
		/* the mark block: printable ASCII and single marks on ASCII letters; L bytes taken (up to
		 * the first byte that is neither, a mark not right after a letter or one starting at byte
		 * 15); a letter's cell is its code point or, with a mark after it, their direct cluster */
		"30:\n\t"
		"movq %[lim], %q[x]\n\t"
		"subq %[p], %q[x]\n\t"
		"subq $1, %q[x]\n\t"
		"jle 0b\n\t"
		"movl $32, %k[k]\n\t"
		"cmpq %q[k], %q[x]\n\t"
		"cmovaq %q[k], %q[x]\n\t"
		"movq $-1, %q[k]\n\t"
		"bzhiq %q[x], %q[k], %q[k]\n\t"
		"kmovd %k[k], %%k1\n\t"
		"vmovdqu8 (%[p]), %%ymm16%{%%k1%}%{z%}\n\t"
		"vpaddb 272+%[cc], %%ymm16, %%ymm17\n\t"
		"vpcmpub $1, 304+%[cc], %%ymm17, %%k2\n\t"
		"vpcmpeqb 336+%[cc], %%ymm16, %%k3\n\t"
		"vpcmpeqb 368+%[cc], %%ymm16, %%k4\n\t"
		"vpandd 720+%[cc]%{1to8%}, %%ymm16, %%ymm17\n\t"
		"vpcmpeqb 400+%[cc], %%ymm17, %%k5\n\t"
		"vpcmpub $1, 432+%[cc], %%ymm16, %%k6\n\t"
		"kshiftrd $1, %%k6, %%k6\n\t"
		"kandd %%k4, %%k6, %%k4\n\t"
		"kord %%k3, %%k4, %%k3\n\t"
		"kshiftrd $1, %%k5, %%k5\n\t"
		"kandd %%k3, %%k5, %%k3\n\t"
		"kmovd %%k2, %k[e]\n\t"
		"kmovd %%k3, %k[w]\n\t"
		"leal (%q[e],%q[e]), %k[x]\n\t"
		"andl %k[w], %k[x]\n\t"
		"andl $0x7fff, %k[x]\n\t"
		"leal (%q[x],%q[x]), %k[k]\n\t"
		"orl %k[x], %k[k]\n\t"
		"orl %k[e], %k[k]\n\t"
		"notl %k[k]\n\t"
		"orl $0x10000, %k[k]\n\t"
		"tzcntl %k[k], %k[k]\n\t"
		"movl $-1, %k[w]\n\t"
		"bzhil %k[k], %k[w], %k[w]\n\t"
		"andl %k[w], %k[e]\n\t"
		"andl %k[w], %k[x]\n\t"
		"shrl $1, %k[x]\n\t"
		"kmovw %k[x], %%k2\n\t"
		"kmovw %k[e], %%k3\n\t"
		"popcntl %k[e], %k[e]\n\t"
		"addq %q[k], %[p]\n\t"
		"vmovdqu8 464+%[cc], %%zmm17\n\t"
		"vpermb %%zmm16, %%zmm17, %%zmm17\n\t"
		"vpandd 724+%[cc]%{1to16%}, %%zmm17, %%zmm18\n\t"
		"vpsrld $2, %%zmm17, %%zmm19\n\t"
		"vpandd 728+%[cc]%{1to16%}, %%zmm19, %%zmm19\n\t"
		"vpsrld $16, %%zmm17, %%zmm17\n\t"
		"vpandd 732+%[cc]%{1to16%}, %%zmm17, %%zmm17\n\t"
		"vpaddd %%zmm19, %%zmm17, %%zmm17\n\t"
		"vpmulld 736+%[cc]%{1to16%}, %%zmm18, %%zmm19\n\t"
		"vpaddd %%zmm19, %%zmm17, %%zmm17\n\t"
		"vpaddd 740+%[cc]%{1to16%}, %%zmm17, %%zmm18%{%%k2%}\n\t"
		"vpcompressd %%zmm18, %%zmm18%{%%k3%}%{z%}\n\t"
		"vmovq %[lo], %%xmm19\n\t"
		"leal (%q[e],%q[e],2), %k[x]\n\t"
		"movq $-1, %q[w]\n\t"
		"bzhiq %q[x], %q[w], %q[w]\n\t"
		"kmovq %q[w], %%k1\n\t"
		"vmovdqu32 528+%[cc], %%zmm17\n\t"
		"vpermi2d %%zmm19, %%zmm18, %%zmm17\n\t"
		"vmovdqu32 %%zmm17, (%[o])%{%%k1%}\n\t"
		"kshiftrq $16, %%k1, %%k2\n\t"
		"vmovdqu32 592+%[cc], %%zmm17\n\t"
		"vpermi2d %%zmm19, %%zmm18, %%zmm17\n\t"
		"vmovdqu32 %%zmm17, 64(%[o])%{%%k2%}\n\t"
		"kshiftrq $32, %%k1, %%k2\n\t"
		"vmovdqu32 656+%[cc], %%zmm17\n\t"
		"vpermi2d %%zmm19, %%zmm18, %%zmm17\n\t"
		"vmovdqu32 %%zmm17, 128(%[o])%{%%k2%}\n\t"
		"leaq (%[o],%q[x],4), %[o]\n\t"
		"jmp 0b\n"
		"10:\n\t"
		"movl %k[x], %k[w]\n\t"
		"andl $0xffe00000, %k[w]\n\t"
		"cmpl $0xc0200000, %k[w]\n\t"
		"jne 9f\n\t"
		"andl $0x1fffff, %k[x]\n\t"
		"imull $0x70, %k[x], %k[x]\n\t"
		"leal -0x40000000(%q[x],%q[e]), %k[x]\n\t"
		"movl %k[x], -12(%[o])\n\t"
		"addq $2, %[p]\n\t"
		"cmpb $0, %[vec]\n\t"
		"je 0b\n\t"
		"jmp 30b\n"
		"9:\n\t"
		"addq $2, %[p]\n\t"
		"movl $1, %k[b]\n\t"
		"jmp 3f\n"
		"20:\n\t"
		/* the block: characters that end before plim, at most 8 (24 bytes) */
		"movq %[lim], %q[x]\n\t"
		"subq %[p], %q[x]\n\t"
		"subq $1, %q[x]\n\t"
		"movl $24, %k[k]\n\t"
		"cmpq %q[k], %q[x]\n\t"
		"cmovaq %q[k], %q[x]\n\t"
		"movq $-1, %q[k]\n\t"
		"bzhiq %q[x], %q[k], %q[k]\n\t"
		"kmovd %k[k], %%k1\n\t"
		"vmovdqu8 (%[p]), %%ymm16%{%%k1%}%{z%}\n\t"
		"vmovdqu8 %[cc], %%ymm17\n\t"
		"vpermb %%ymm16, %%ymm17, %%ymm16\n\t"
		/* lane j: bytes 3j..3j+2; a lead E0..EF and two continuations */
		"vpandd 224+%[cc]%{1to8%}, %%ymm16, %%ymm17\n\t"
		"vpcmpeqd 228+%[cc]%{1to8%}, %%ymm17, %%k2\n\t"
		/* the code point */
		"vpandd 232+%[cc]%{1to8%}, %%ymm16, %%ymm17\n\t"
		"vpslld $12, %%ymm17, %%ymm17\n\t"
		"vpandd 236+%[cc]%{1to8%}, %%ymm16, %%ymm18\n\t"
		"vpsrld $2, %%ymm18, %%ymm18\n\t"
		"vpandd 240+%[cc]%{1to8%}, %%ymm16, %%ymm19\n\t"
		"vpsrld $16, %%ymm19, %%ymm19\n\t"
		"vpternlogd $0xfe, %%ymm19, %%ymm18, %%ymm17\n\t"
		/* CJK Unified Ideographs, hiragana or katakana */
		"vpsubd 244+%[cc]%{1to8%}, %%ymm17, %%ymm18\n\t"
		"vpcmpud $1, 248+%[cc]%{1to8%}, %%ymm18, %%k3%{%%k2%}\n\t"
		"vpsubd 252+%[cc]%{1to8%}, %%ymm17, %%ymm18\n\t"
		"vpcmpud $1, 256+%[cc]%{1to8%}, %%ymm18, %%k4%{%%k2%}\n\t"
		"vpsubd 260+%[cc]%{1to8%}, %%ymm17, %%ymm18\n\t"
		"vpcmpud $1, 264+%[cc]%{1to8%}, %%ymm18, %%k5%{%%k2%}\n\t"
		"korb %%k3, %%k4, %%k3\n\t"
		"korb %%k5, %%k3, %%k3\n\t"
		/* n: the characters before the first that is none of those */
		"kmovb %%k3, %k[e]\n\t"
		"notl %k[e]\n\t"
		"tzcntl %k[e], %k[e]\n\t"
		"cmpl $0, %k[e]\n\t"
		"je 21b\n\t"
		/* 6n words of cells, three masked stores */
		"leal (%q[e],%q[e],2), %k[k]\n\t"
		"leal (%q[k],%q[k]), %k[x]\n\t"
		"movq $-1, %q[w]\n\t"
		"bzhiq %q[x], %q[w], %q[w]\n\t"
		"kmovq %q[w], %%k1\n\t"
		"vmovdqu32 32+%[cc], %%zmm18\n\t"
		"vpermi2d %g[tail], %%zmm17, %%zmm18\n\t"
		"vmovdqu32 %%zmm18, (%[o])%{%%k1%}\n\t"
		"kshiftrq $16, %%k1, %%k2\n\t"
		"vmovdqu32 96+%[cc], %%zmm18\n\t"
		"vpermi2d %g[tail], %%zmm17, %%zmm18\n\t"
		"vmovdqu32 %%zmm18, 64(%[o])%{%%k2%}\n\t"
		"kshiftrq $32, %%k1, %%k2\n\t"
		"vmovdqu32 160+%[cc], %%zmm18\n\t"
		"vpermi2d %g[tail], %%zmm17, %%zmm18\n\t"
		"vmovdqu32 %%zmm18, 128(%[o])%{%%k2%}\n\t"
		"addq %q[k], %[p]\n\t"
		"leaq (%[o],%q[k],8), %[o]\n\t"
		"jmp 0b\n"
		"5:\n\t"
		"movzwl (%[p]), %k[k]\n\t"
		"movzbl (%[p]), %k[b]\n\t"
		"leal -0xcc(%q[b]), %k[e]\n\t"
		"shrl $7, %k[b]\n\t"
		"leaq 1(%[p],%q[b]), %[p]\n\t"
		"cmpl $1, %k[e]\n\t"
		"jbe 3f\n"
		"1:\n\t"
		"movswl (%[t],%q[k],2), %k[e]\n\t"
		"cmpq %[lim], %[p]\n\t"
		"cmovael %[z], %k[e]\n\t"
		"cmpl $0, %k[e]\n\t"
		"jle 3f\n\t"
		"movl %k[e], (%[o])\n\t"
		"movq %[lo], 4(%[o])\n\t"
		"addq $12, %[o]\n\t"
		"movzwl (%[p]), %k[k]\n\t"
		"movzbl (%[p]), %k[b]\n\t"
		"leal -0xcc(%q[b]), %k[e]\n\t"
		"shrl $7, %k[b]\n\t"
		"leaq 1(%[p],%q[b]), %[p]\n\t"
		"cmpl $1, %k[e]\n\t"
		"ja 1b\n"
		"3:"
		: [p] "+r"(p), [o] "+r"(o), [k] "=&r"(k), [b] "=&r"(bb), [e] "=&r"(e), [w] "=&r"(w), [x] "=&r"(x)
		: [lo] "r"(lo), [t] "r"(utf8_pairs_le), [lim] "r"(plim), [z] "r"(0), [lim4] "rm"((uintptr_t)plim - 4),
		  [hi] "rm"(lo << 32), [tail] "x"(tail), [ui] "r"(vt_uprop_index), [ub] "r"(vt_uprop_blocks),
		  [vec] "m"(cjk_block), [cc] "m"(cjk_c)
		: "cc", "memory");
	(void)w;
	(void)x;
	(void)e;
	*pp = p;
	*po = o;
	*kp = k;
	*bbp = bb;
}
#pragma GCC diagnostic pop

#endif
