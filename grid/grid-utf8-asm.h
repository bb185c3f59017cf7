/* grid/grid-utf8-asm.h: put_text's loop for one- and two-byte characters on x86-64 with GCC or clang (grid-utf8.c
 * keeps a C loop for other targets): its table and the asm. Only for grid-utf8.c, which includes it once, after
 * grid-print.h (the cluster constants the asm's mark_direct builds on). Apart from grid-utf8.c to keep files
 * under ~800 lines; always inline, so the code is what it was in one file.
 */
#ifndef GRID_UTF8_ASM_H
#define GRID_UTF8_ASM_H

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
		"je 12b\n\t"
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
		"jmp 0b\n"
		"9:\n\t"
		"addq $2, %[p]\n\t"
		"movl $1, %k[b]\n\t"
		"jmp 3f\n"
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
		  [hi] "rm"(lo << 32), [tail] "x"(tail), [ui] "r"(vt_uprop_index), [ub] "r"(vt_uprop_blocks)
		: "cc", "memory");
	(void)w;
	(void)x;
	(void)e;
	*pp = p;
	*po = o;
	*kp = k;
	*bbp = bb;
}

#endif
