/* grid/grid-history.c: storage of the scrollback's lines.
 *
 * A line leaving the top of the screen is copied, trimmed to its written cells, into chunks of memory used
 * as a FIFO: lines are appended at the head and die oldest first (the ring recycles the oldest scrollback
 * line, or a chunk is needed again). The screen keeps its own rows-many full lines, which stay in the cache;
 * a flood therefore writes only the written part of each line into sequential memory instead of touching
 * whole cold rows (with 10000 lines of 212 columns that was 25 MB of memory traffic per pass).
 *
 * Lines that are all ASCII of width 1 in one style, with no link or mark (most of a text flood), are packed:
 * one byte per cell plus the style in the header (LINE_PACKED; read through grid__line_cell or
 * grid__line_read). A screen row printed as such from column 0 says so itself (LINE_ASCII, kept by
 * print_ascii with a copy of the row's bytes, dropped by every other writer): it is packed by copying those
 * bytes (grid__hist_text), whatever its length, with no pass over its cells (which, for a row printed from
 * column 0 in one style, were never written: LINE_LAZY, and then the recycled row needs no clear either).
 * Other rows of 16 cells or more are checked and packed from their cells (pack_ascii); rows of such ASCII in
 * several styles get a style per cell after their bytes (LINE_STYLED, 3 bytes a cell instead of 12: an
 * escape-heavy flood's lines). A chunk is reused as soon as every line in it has
 * left the scrollback, so a flood of packed lines (~1 MB for 10000 lines) cycles through a few chunks that
 * stay in the caches instead of 25 MB of fresh memory.
 * Memory stays bounded: at most enough chunks for sb_max full lines, plus two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

/* a scrolled line's copy into the history (grid__hist_copy and the packers it calls, ~3.4 KiB) in one page
 * (GRID_PAGE): where other files' code moved pack_ascii_sse2 across a page, every scrolled line cost an
 * emulated guest two TB look-ups more */
GRID_PAGE_BEGIN("hist");

/* Chunks of 2 MiB (huge pages: a handful of faults for a whole scrollback) when the scrollback can fill 8
 * of them, else 512 KiB, so a small scrollback does not keep megabytes it cannot use. */
#define HIST_CHUNK_SMALL ((size_t)512 << 10)
#define HIST_CHUNK_HUGE ((size_t)2 << 20)
/* shorter lines are stored whole: checking and packing them costs more instructions than the few bytes it
 * saves are worth */
#ifndef PACK_MIN
#define PACK_MIN 16
#endif

/* lines in full as whole 64-byte lines of memory (copy_whole; set by hist_init) */
static bool hist_whole;

/* Lines are handed out from the start: the chunk holds lines while used is not 0 (a line's padding is
 * taken only with the line), and last_abs is then meaningful. */
struct hist_chunk {
	char *mem;
	size_t used;       /* bytes handed out */
	size_t end;        /* bytes populated (chunk_grow): the lines' room, up to hist_chunk */
	uint64_t last_abs; /* absolute number of the newest line in it (lines die oldest first) */
};
_Static_assert(sizeof(struct hist_chunk) == 32, "a chunk's index stays a shift");

/* A fresh small chunk is populated this far, then doubled as lines reach its end (chunk_grow). */
#define HIST_POPULATE_FIRST ((size_t)64 << 10)

static size_t line_bytes(int ncells)
{
	return (sizeof(struct line) + (size_t)ncells * sizeof(struct grid_cell) + 15) & ~(size_t)15;
}

void grid__hist_finish(struct screen *s)
{
	for (size_t i = 0; i < s->hist_n; i++)
		grid__unmap(s->hist[i].mem, s->hist_chunk);
	free(s->hist);
	s->hist = NULL;
	s->hist_n = s->hist_max = s->hist_head = 0;
}

/* The scrollback emptied (ED 3, RIS, a push out of memory): its chunks go back to the system but the head,
 * kept empty for the lines that come next. A console that once held 10,000 long lines kept them all (~25 MB
 * at 212 columns) for good; keeping one spares a `clear` (which sends ED 3) after a few lines a map and a
 * fault of a fresh chunk. Rare: never on the path of a scrolled line. */
void grid__hist_reset(struct screen *s)
{
	if (s->hist_n) {
		struct hist_chunk keep = s->hist[s->hist_head];
		for (size_t i = 0; i < s->hist_n; i++)
			if (i != s->hist_head)
				grid__unmap(s->hist[i].mem, s->hist_chunk);
		s->hist[0] = (struct hist_chunk){.mem = keep.mem, .end = keep.end};
		s->hist_n = 1;
	}
	s->hist_head = 0;
}

/* The oldest scrollback lines live in the chunk about to be reused: every line up to its newest leaves
 * the scrollback (the scrollback holds lines [abs_top - sb_n, abs_top)). */
static void evict_chunk(struct screen *s, struct hist_chunk *c)
{
	if (c->used) {
		uint64_t oldest_kept = c->last_abs + 1;
		if (s->abs_top < oldest_kept)
			s->sb_n = 0;
		else if (s->abs_top - oldest_kept < s->sb_n)
			s->sb_n = (size_t)(s->abs_top - oldest_kept);
	}
	c->used = 0;
}

/* The head chunk c, whose populated part cannot take bytes more, populated further: to twice its part, at
 * least to the line and the 96 bytes copy_whole may want after it. Populated whole when mapped, a chunk was
 * zeroed by the kernel before its first line (in a TCG guest a byte at a time, 8-9 us a page:
 * docs/benchmarks.md, issue 5, session 31), and a scrollback that ended in the middle of its newest chunk
 * paid for the rest: csi's 4 MB in the guest's bench used 50 KB of its third 512 KiB chunk (session 45).
 * Returns false when the chunk cannot take the line at all. */
static bool chunk_grow(struct screen *s, struct hist_chunk *c, size_t bytes)
{
	if (c->used + bytes > s->hist_chunk)
		return false;
	size_t end = c->end ? 2 * (size_t)c->end : HIST_POPULATE_FIRST;
	const size_t want = (c->used + bytes + 96 + 4095) & ~(size_t)4095;
	if (end < want)
		end = want;
	if (end > s->hist_chunk)
		end = s->hist_chunk;
	grid__populate(c->mem + c->end, end - c->end);
	c->end = end;
	return true;
}

/* chunk_for past its common case */
__attribute__((noinline)) static struct hist_chunk *chunk_next(struct screen *s, size_t bytes)
{
	if (s->hist_max == 0) {
		/* each line may start 16 bytes later (copy_avx's alignment), or up to 48 bytes later and end on a
		 * 64-byte boundary (copy_whole) */
		size_t total = s->sb_max * (hist_whole ? ((line_bytes(s->line_cols) + 63) & ~(size_t)63) + 48
							: line_bytes(s->line_cols) + 16);
		s->hist_chunk = total >= 8 * HIST_CHUNK_HUGE ? HIST_CHUNK_HUGE : HIST_CHUNK_SMALL;
		s->hist_max = total / s->hist_chunk + 2;
		s->hist = calloc(s->hist_max, sizeof(*s->hist));
		if (!s->hist) {
			s->hist_max = 0;
			return NULL;
		}
	}
	struct hist_chunk *c = s->hist_n ? &s->hist[s->hist_head] : NULL;
	if (c && (c->used + bytes <= c->end || chunk_grow(s, c, bytes)))
		return c;
	/* chunks in cyclic order after the head run oldest to newest: the next one is the oldest. Reuse it as
	 * soon as every line in it has left the scrollback, so a flood cycles through little more memory than
	 * the scrollback holds (it stays in the caches); add a chunk only while the oldest still holds lines */
	size_t next = s->hist_n ? (s->hist_head + 1) % s->hist_n : 0;
	c = s->hist_n ? &s->hist[next] : NULL;
	bool dead = c && next != s->hist_head && (!c->used || c->last_abs < s->abs_top - s->sb_n);
	if (!dead && s->hist_n < s->hist_max) {
		/* a huge-page chunk whole (its first write faults in all of it anyway), a small one in parts */
		const bool huge = s->hist_chunk == HIST_CHUNK_HUGE;
		char *mem = huge ? grid__map(s->hist_chunk) : grid__map_lazy(s->hist_chunk);
		if (!mem)
			return NULL;
		next = s->hist_n ? s->hist_head + 1 : 0;
		memmove(&s->hist[next + 1], &s->hist[next], (s->hist_n - next) * sizeof(*s->hist));
		s->hist[next] = (struct hist_chunk){.mem = mem, .end = huge ? s->hist_chunk : 0};
		s->hist_n++;
	}
	s->hist_head = next;
	c = &s->hist[next];
	if (c->used)
		evict_chunk(s, c);
	if (bytes > c->end && !chunk_grow(s, c, bytes))
		return NULL;
	return c;
}

/* The chunk a line of bytes goes to: the head, while it has room. */
static inline __attribute__((always_inline)) struct hist_chunk *chunk_for(struct screen *s, size_t bytes)
{
	if (likely(s->hist_n)) {
		struct hist_chunk *c = &s->hist[s->hist_head];
		if (c->used + bytes <= c->end)
			return c;
	}
	return chunk_next(s, bytes);
}

/* Copies with streaming stores: the destination was last written a whole scrollback ago and is not in
 * the cache; ordinary stores would read it from memory first. Lines and their cells are 16-byte aligned
 * and their sizes rounded up to 16 bytes, so whole vectors are copied. */
static inline __attribute__((always_inline)) void copy_stream(void *dst, const void *src, size_t bytes)
{
#if defined(__SSE2__)
	__m128i *d = dst;
	const __m128i *sp = src;
	size_t n = bytes / 16, i = 0;
	/* four vectors per step: the loop's own instructions were as many as the copy's */
	for (; i + 4 <= n; i += 4) {
		__m128i a = _mm_load_si128(sp + i), b = _mm_load_si128(sp + i + 1),
			c = _mm_load_si128(sp + i + 2), e = _mm_load_si128(sp + i + 3);
		_mm_stream_si128(d + i, a);
		_mm_stream_si128(d + i + 1, b);
		_mm_stream_si128(d + i + 2, c);
		_mm_stream_si128(d + i + 3, e);
	}
	for (; i < n; i++)
		_mm_stream_si128(d + i, _mm_load_si128(sp + i));
#else
	memcpy(dst, src, bytes);
#endif
}

/* A line's header written as two words, h (flags, used, ncells, pstyle) and 0 (text), not a struct built on
 * the stack (see grid__hist_copy). */
static inline __attribute__((always_inline)) void header_store(struct line *l, uint64_t h)
{
	const uint64_t z = 0;
	memcpy(l, &h, 8);
	memcpy((char *)l + 8, &z, 8);
}

/* The same streamed, as copy_stream's stores are. */
static inline __attribute__((always_inline)) void header_stream(struct line *l, uint64_t h)
{
#if defined(__SSE2__) && defined(__x86_64__)
	_mm_stream_si128((__m128i *)(void *)l, _mm_set_epi64x(0, (long long)h));
#else
	header_store(l, h);
#endif
}

#if defined(__GNUC__) && defined(__x86_64__) && defined(__SSE2__)
#define HAVE_COPY_AVX 1
#include <immintrin.h>
/* copy_stream on CPUs with AVX (checked at run time: the build's baseline ISA is SSE2) for a destination
 * aligned to 32 bytes: half as many streaming stores (a 32-byte one needs that alignment). Returns ret, so
 * that grid__hist_copy jumps to it last: its return, a TB look-up of an emulated guest (QEMU's TCG) per
 * scrolled line of non-ASCII text, is saved. */
GRID_PAGE("hist") __attribute__((target("avx"))) static uintptr_t copy_stream_avx(void *dst, const void *src, size_t bytes,
										  uintptr_t ret)
{
	/* (its callers' lines are longer: the loop's first test then goes, as when the bound was a constant) */
	if (bytes < 256)
		__builtin_unreachable();
	__m256i *d = dst;
	const __m256i *sp = src;
	size_t n = bytes / 32, i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256i a = _mm256_loadu_si256(sp + i), b = _mm256_loadu_si256(sp + i + 1),
			c = _mm256_loadu_si256(sp + i + 2), e = _mm256_loadu_si256(sp + i + 3);
		_mm256_stream_si256(d + i, a);
		_mm256_stream_si256(d + i + 1, b);
		_mm256_stream_si256(d + i + 2, c);
		_mm256_stream_si256(d + i + 3, e);
	}
	for (; i < n; i++)
		_mm256_stream_si256(d + i, _mm256_loadu_si256(sp + i));
	if (bytes & 16)
		_mm_stream_si128((__m128i *)(void *)(d + n), _mm_loadu_si128((const __m128i *)(const void *)(sp + n)));
	return ret;
}
#endif

#if defined(HAVE_COPY_AVX)
/* grid__hist_copy copies a line in full with copy_stream_avx from this many bytes: with AVX 384 (shorter
 * lines' few vectors cost less inline than the call), never without; with AVX-512 16, every line, through
 * copy_whole (the plain copies only at a chunk's end). One compare with a variable where
 * __builtin_cpu_supports and a constant were two: the test of hist_whole after it costs an emulated guest
 * nothing (its unicode -0.026 %). */
static size_t hist_avx_min = SIZE_MAX;

__attribute__((constructor)) static void hist_init(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx"))
		hist_avx_min = 384;
	hist_whole = __builtin_cpu_supports("avx512f");
	/* copy_whole takes lines of any length */
	if (hist_whole)
		hist_avx_min = 16;
}

/* A line of bytes (header h, cells sc; bytes >= 16, a multiple of 16) copied into chunk c as whole 64-byte lines of memory: the
 * line starts on one and its last is filled up with zeros, so that no line of memory is left part-written by
 * streaming stores (the next scrollback line, which used to fill it, comes a whole row of printing later,
 * when the core may have written the part it had out to memory as such): the copy's share of unicode's time
 * 12.0 % -> 10.7 % by perf, unicode 1-4 % faster (docs/benchmarks.md, issue 2, session 22). Taken only on
 * CPUs with AVX-512 (hist_whole), the only kind it was timed on; the zeros and the padding are instructions
 * more (unicode +1.7 % under valgrind when it is taken with plain AVX), so on CPUs where no one has shown it
 * faster the plain copy stays. The gate says which CPUs it was measured on, not whether an emulator runs us
 * (emulators without AVX-512 get the plain copy as every such CPU does); it is also what the copy's 64-byte
 * vectors and masks need (AVX-512F). Out of the "hist" page, which a guest runs. The caller checks the room
 * (96 bytes more than the line). */
__attribute__((noinline, target("avx512f"))) static struct line *copy_whole(struct hist_chunk *c, uint64_t h,
									  const struct grid_cell *sc, size_t bytes)
{
	c->used += (size_t)-c->used & 63;
	struct line *l = (struct line *)(c->mem + c->used);
	/* one 64-byte store per line of memory, the first and the last from masked loads (what lies outside the
	 * mask reads as zeros and is never touched): the header and 48 bytes of cells, then whole blocks, then
	 * the rest with the zeros after it. The 16-byte header, a loop of 32-byte stores with a loop for its
	 * remainder, a 16-byte tail and a loop of zeros had three to four exits that vary with the line's
	 * length, about two mispredicted branches a line (docs/benchmarks.md, issue 2, session 25 "uni"). */
	const char *src = (const char *)sc + 48;
	char *dst = (char *)l + 64;
	/* bytes is a multiple of 16, 16 or more: a line of up to 4 cells is the first store alone */
	const __mmask16 m0 = bytes < 64 ? (__mmask16)(0xfff0u & 0xffffu >> (16 - bytes / 4)) : (__mmask16)0xfff0u;
	__m512i v = _mm512_maskz_loadu_epi32(m0, (const char *)sc - 16);
	_mm512_stream_si512((void *)l, _mm512_mask_mov_epi64(v, 1, _mm512_set1_epi64((long long)h)));
	c->used += (bytes + 63) & ~(size_t)63;
	if (bytes <= 64)
		return l;
	size_t left = bytes - 64;
	for (; left > 64; left -= 64, src += 64, dst += 64)
		_mm512_stream_si512((void *)dst, _mm512_loadu_si512((const void *)src));
	_mm512_stream_si512((void *)dst, _mm512_maskz_loadu_epi32((__mmask16)(0xffffu >> (16 - left / 4)), src));
	return l;
}
#endif

#if defined(__SSE2__)
struct pack_acc {
	__m128i e0, e1, e2; /* what the words of 4 fitting cells are */
	__m128i a0, a1, a2; /* ORed differences */
};

/* Checks 4 cells (3 vectors of 32-bit words: cp, style|link<<16, width|flags<<8|pad<<16, cp, ...) into the
 * accumulators: xors and ORs only, which QEMU's TCG runs inline, where each shuffle or pack is a call of a
 * helper (docs/benchmarks.md, issue 5, session 25) */
static inline void pack_group(const __m128i *p, struct pack_acc *a)
{
	a->a0 = _mm_or_si128(a->a0, _mm_xor_si128(_mm_loadu_si128(p), a->e0));
	a->a1 = _mm_or_si128(a->a1, _mm_xor_si128(_mm_loadu_si128(p + 1), a->e1));
	a->a2 = _mm_or_si128(a->a2, _mm_xor_si128(_mm_loadu_si128(p + 2), a->e2));
}

/* Whether every cell checked into a so far fits (m0..m2 mask the bits that must match per vector phase). */
static inline bool pack_fits(const struct pack_acc *a, __m128i m0, __m128i m1, __m128i m2)
{
	__m128i bad = _mm_or_si128(_mm_and_si128(a->a0, m0),
				   _mm_or_si128(_mm_and_si128(a->a1, m1), _mm_and_si128(a->a2, m2)));
	return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
}

/* The low bytes of the code points of cells [0, k) into out: one scalar load and store a cell (a shuffle and
 * pack of pack_group's vectors is a TCG helper call each, and costs natively about as much); the empty asm
 * keeps the compiler from vectorizing it back into shuffles */
static inline __attribute__((always_inline)) void pack_bytes(const struct grid_cell *c, size_t k, uint8_t *out)
{
	for (size_t i = 0; i < k; i++) {
		uint32_t b = c[i].cp;
		__asm__("" : "+r"(b));
		out[i] = (uint8_t)b;
	}
}
#endif

/* What pack_ascii found: the cells do not fit a packed line, fit one (one style), or fit but for their styles
 * (LINE_STYLED: their bytes are written, their styles are for pack_styles). */
enum { PACK_MISFIT = 0, PACK_FITS = 1, PACK_STYLES = 2 };

/* Packs cells [0, n) into one byte each when they are all ASCII of width 1 with one style and no link or
 * flags (the bulk of a text flood's lines); returns PACK_STYLES when only their styles differ (an
 * escape-heavy flood's lines, whatever their ids: pack_styles copies 16 bits each) and PACK_MISFIT, with out
 * partly written, otherwise. (Styles below 0x8000 only, a limit from an earlier signed pack, kept the lines
 * of a long-lived terminal whole once its history held more than 32768 styles: 12 bytes a cell, read cell
 * by cell at every collection of the styles.) */
static inline __attribute__((always_inline)) int pack_ascii(const struct grid_cell *c, int n, uint8_t *out)
{
	const uint32_t st = c[0].style;
	int x = 0;
#if defined(__SSE2__)
	/* a cell fits when cp < 0x80, style|link == st and width|flags == 1: the words are xored with what
	 * they should be and ORed up per vector phase, then masked once at the end */
	struct pack_acc a = {
		.e0 = _mm_set_epi32(0, 1, (int)st, 0),
		.e1 = _mm_set_epi32((int)st, 0, 1, (int)st),
		.e2 = _mm_set_epi32(1, (int)st, 0, 1),
		.a0 = _mm_setzero_si128(),
		.a1 = _mm_setzero_si128(),
		.a2 = _mm_setzero_si128(),
	};
	const __m128i *p = (const __m128i *)(const void *)c;
	const __m128i m0 = _mm_set_epi32(~0x7f, 0xffff, -1, ~0x7f), m1 = _mm_set_epi32(-1, ~0x7f, 0xffff, -1),
		      m2 = _mm_set_epi32(0xffff, -1, ~0x7f, 0xffff);
	/* the same but for the style (the word's low half: any difference from st): only the link must be 0 */
	const int sk = (int)0xffff0000u;
	const __m128i s0 = _mm_set_epi32(~0x7f, 0xffff, sk, ~0x7f), s1 = _mm_set_epi32(sk, ~0x7f, 0xffff, sk),
		      s2 = _mm_set_epi32(0xffff, sk, ~0x7f, 0xffff);
	if (n >= 4) {
		for (; x + 16 <= n; x += 16, p += 12) {
			pack_group(p, &a);
			pack_group(p + 3, &a);
			pack_group(p + 6, &a);
			pack_group(p + 9, &a);
			pack_bytes(c + x, 16, out + x);
			/* text that is not ASCII mostly shows so early: no need to read on */
			if (x == 0 && !pack_fits(&a, m0, m1, m2) && !pack_fits(&a, s0, s1, s2))
				return PACK_MISFIT;
		}
		/* then groups of 4, the last one ending at n (overlapping the one before: the layout of 4 cells
		 * in 3 vectors does not depend on where they start) */
		for (; x < n; x += 4, p += 3) {
			if (x + 4 > n) {
				x = n - 4;
				p = (const __m128i *)(const void *)(c + x);
			}
			pack_group(p, &a);
			pack_bytes(c + x, 4, out + x);
		}
		if (!pack_fits(&a, m0, m1, m2))
			return pack_fits(&a, s0, s1, s2) ? PACK_STYLES : PACK_MISFIT;
		return PACK_FITS;
	}
#endif
	uint32_t bad1 = 0, bad2 = 0;
	for (; x < n; x++) {
		bad1 |= c[x].cp >> 7 | c[x].link | (c[x].width ^ 1u) | c[x].flags;
		bad2 |= c[x].style ^ st;
		out[x] = (uint8_t)c[x].cp;
	}
	return bad1 ? PACK_MISFIT : !bad2 ? PACK_FITS : PACK_STYLES;
}

#if defined(__GNUC__) && defined(__x86_64__) && defined(__SSE2__)
#define HAVE_PACK_AVX 1
/* pack_ascii compiled for CPUs with AVX (checked at run time: the build's baseline ISA is SSE2): the same
 * vector code in three-operand form, without the register copies SSE2 needs (a quarter fewer
 * instructions). Out of the "hist" page, which grid__newline_deferred's copy of grid__hist_copy's body
 * needed: a guest's jump here is a TB look-up per packed line (~650 per 4 MiB of csi), where unicode saves
 * one per line (~49 k). */
__attribute__((target("avx"), noinline)) static int pack_ascii_avx(const struct grid_cell *c, int n, uint8_t *out)
{
	return pack_ascii(c, n, out);
}
#endif

/* pack_ascii for CPUs without AVX, out of the "hist" page */
__attribute__((noinline)) static int pack_ascii_base(const struct grid_cell *c, int n, uint8_t *out)
{
	return pack_ascii(c, n, out);
}

GRID_PAGE("hist") __attribute__((noinline)) static int pack_ascii_sse2(const struct grid_cell *c, int n, uint8_t *out)
{
#if defined(HAVE_PACK_AVX)
	if (__builtin_cpu_supports("avx"))
		return pack_ascii_avx(c, n, out);
#endif
	return pack_ascii_base(c, n, out);
}

/* pack_styles' copy of k styles: one scalar load and store each; the empty asm keeps the compiler from
 * vectorizing it back into shuffles */
static inline __attribute__((always_inline)) void styles_put(const struct grid_cell *c, size_t k, uint16_t *st)
{
	for (size_t i = 0; i < k; i++) {
		uint32_t s = c[i].style;
		__asm__("" : "+r"(s));
		st[i] = (uint16_t)s;
	}
}

/* The styles of cells [0, n) (n >= 8: pack_ascii said PACK_STYLES) into 16 bits each at st:
 * one scalar load and store a cell, 16 or 8 a step, the last step ending at n (shuffles and packs of vectors
 * are a TCG helper call each, and save little natively). Ordinary stores, as the packed bytes before them.
 * Out of the "hist" page: it runs only for such lines, and its two look-ups cost little beside its pass. */
_Static_assert(PACK_MIN >= 8, "pack_styles' last step of 8 cells needs lines of 8 cells or more");
__attribute__((noinline)) static void pack_styles(const struct grid_cell *c, int n, uint16_t *st)
{
	size_t x = 0;
	for (; x + 16 <= (size_t)n; x += 16)
		styles_put(c + x, 16, st + x);
	for (; x + 8 <= (size_t)n; x += 8)
		styles_put(c + x, 8, st + x);
	if (x < (size_t)n)
		styles_put(c + n - 8, 8, st + n - 8);
}

#if defined(GRID_TEXT_CHECK)
/* The LINE_ASCII invariant of screen line l (grid-internal.h): pack_ascii must take its cells (in its style)
 * and give its text bytes. Aborts with the line's state when it does not hold. */
void grid__text_check_line(const struct line *l, const char *where)
{
	if (!(l->flags & LINE_ASCII))
		return;
	int bad = -1;
	if (l->flags & LINE_LAZY) {
		/* the text is the content and every cell a default blank */
		for (int x = 0; x < l->ncells && bad < 0; x++) {
			const struct grid_cell c = l->cells[x];
			if (c.cp || c.style || c.link || c.width != 1 || c.flags)
				bad = x;
		}
		for (int x = 0; x < l->used && bad < 0; x++)
			if (l->text[x] >= 0x80)
				bad = x;
		if (bad >= 0) {
			fprintf(stderr, "grid: LINE_LAZY line (%s) does not hold at cell %d of %d\n", where, bad, l->used);
			abort();
		}
		return;
	}
	/* (no heap: tests count the allocations of a flood) */
	uint8_t p[512];
	for (int x = 0; x < l->used && bad < 0; x += (int)sizeof(p)) {
		int k = l->used - x < (int)sizeof(p) ? l->used - x : (int)sizeof(p);
		if (l->cells[x].style != l->pstyle || pack_ascii(l->cells + x, k, p) != PACK_FITS ||
		    memcmp(p, l->text + x, (size_t)k))
			bad = x;
	}
	if (bad >= 0) {
		fprintf(stderr, "grid: LINE_ASCII line (%s) does not hold from cell %d of %d (pstyle %u)\n", where, bad,
			l->used, l->pstyle);
		abort();
	}
}

void grid__text_check(const struct grid *g)
{
	const struct screen *scr[2] = {&g->primary, &g->alt};
	for (int i = 0; i < 2; i++) {
		for (int y = 0; y < g->rows; y++) {
			const struct line *l = scr[i]->ring[(scr[i]->top + (size_t)y) % scr[i]->cap];
			grid__text_check_line(l, "screen");
			/* while the printer does not clear the flag, no row of the shown screen has it */
			if (g->text_from != 0 && scr[i] == g->scr && l->flags & LINE_ASCII) {
				fprintf(stderr, "grid: LINE_ASCII row %d while grid.text_from is %d\n", y, g->text_from);
				abort();
			}
		}
	}
}
#endif

/* grid__hist_text's copy into chunk c, which has room for bytes more. */
static inline __attribute__((always_inline)) struct line *text_put(struct hist_chunk *c, const struct line *src,
								   int n, size_t bytes, uint64_t abs)
{
#if defined(GRID_TEXT_CHECK)
	grid__text_check_line(src, "push");
#endif
	struct line *l = (struct line *)(c->mem + c->used);
	/* the header as two words (a struct built on the stack first was copied through memory) */
	_Static_assert(offsetof(struct line, used) == 2 && offsetof(struct line, ncells) == 4 &&
			       offsetof(struct line, pstyle) == 6 && offsetof(struct line, text) == 8,
		       "line header layout");
	const uint64_t h = ((src->flags & ~(LINE_ASCII | LINE_LAZY)) | LINE_PACKED) | (uint64_t)n << 16 |
			   (uint64_t)n << 32 | (uint64_t)src->pstyle << 48;
	const uint8_t *t = src->text;
#if defined(__SSE2__)
	/* what an ordinary store told the compiler: the copy is made (the caller's path for a failed one goes) */
	if (!l)
		__builtin_unreachable();
	/* streaming stores: the chunk's lines were last written a scrollback ago (a flood cycles through more
	 * chunks than the caches hold), and ordinary stores read every line of them from memory first */
	_mm_stream_si128((__m128i *)(void *)l, _mm_set_epi64x(0, (long long)h));
	/* unsigned (size_t): the first test is n != 0, where n > 0 is a signed branch after `test` that costs
	 * QEMU's TCG a call of its flag helper; the text's place from l (an instruction fewer per line) */
	for (size_t i = 0; i < (size_t)n; i += 16)
		_mm_stream_si128((__m128i *)(void *)((char *)l + sizeof(*l) + i),
				 _mm_loadu_si128((const __m128i *)(const void *)(t + i)));
#else
	header_store(l, h);
	memcpy(l->cells, t, (size_t)n);
#endif
	c->used += bytes;
	c->last_abs = abs;
	return l;
}

/* grid__hist_text when the head chunk is full: out of line, so that the common path saves no registers */
GRID_PAGE("hist") __attribute__((noinline)) static struct line *text_next(struct screen *s, const struct line *src,
									 int n, size_t bytes, uint64_t abs)
{
	struct hist_chunk *c = chunk_next(s, bytes);
	return c ? text_put(c, src, n, bytes, abs) : NULL;
}

/* grid__hist_copy of a LINE_ASCII screen line: its cells packed from its text bytes (line.text), which the
 * printer kept, with no pass over the cells. Whole vectors from both (room for them on either side). */
GRID_PAGE("hist") struct line *grid__hist_text(struct screen *s, const struct line *src, int ncells, uint64_t abs)
{
	const int n = src->used < ncells ? src->used : ncells;
	const size_t bytes = (sizeof(struct line) + (size_t)n + 15) & ~(size_t)15;
	if (likely(s->hist_n)) {
		struct hist_chunk *c = &s->hist[s->hist_head];
		if (c->used + bytes <= c->end)
			return text_put(c, src, n, bytes, abs);
	}
	return text_next(s, src, n, bytes, abs);
}

#if defined(GRID_HAVE_FILL_AVX)
/* grid__clear_blanks_avx in this page: grid__hist_push_ascii jumps to it once a line of a text flood, and
 * across pages (to grid-fill.c's) that jump is a TB look-up for QEMU's TCG (docs/benchmarks.md, issue 5,
 * session 11) */
GRID_PAGE("hist") __attribute__((target("avx"))) static void hist_blanks_avx(struct grid_cell *c, int n16)
{
	grid__blanks_avx_body(c, n16);
}
#define HIST_BLANKS_AVX hist_blanks_avx
#else
#define HIST_BLANKS_AVX NULL
#endif

#if defined(GRID_HAVE_FILL_SSE)
/* grid__hist_push_ascii's end, once the copy h (NULL: out of memory) is made: the ring step, then the
 * row's clear to default blanks (clear_line's, cells [used, ncells) being blank already) */
static inline __attribute__((always_inline)) void push_ascii_end(struct screen *s, struct line *l, size_t slot,
								 struct line *h)
{
	grid__hist_take(s, l, slot, h);
	s->top = s->top + 1 == s->cap ? 0 : s->top + 1;
	s->abs_top++;
	const int used = l->used;
	const unsigned lazy = l->flags & LINE_LAZY;
	l->flags = 0;
	l->used = 0;
	/* a deferred row's cells were never written: default blanks already */
	if (lazy)
		return;
	if (used <= 16 && l->ncells >= 16) {
		grid__fill_sse16(l->cells, 16, GRID_BLANK_X0, GRID_BLANK_X1, GRID_BLANK_X2);
		return;
	}
	grid__clear_blanks16_by(l->cells, (used + 15) & ~15, HIST_BLANKS_AVX);
}

/* grid__hist_push_ascii when the head chunk is full: out of line, so that the common path saves no
 * registers, and out of the "hist" page (once a chunk), which it would push grid__hist_copy out of */
__attribute__((noinline)) static void push_ascii_next(struct screen *s, struct line *l, size_t slot, int n,
						      size_t bytes)
{
	if (s->sb_n == s->sb_max)
		s->sb_n--;
	push_ascii_end(s, l, slot, text_next(s, l, n, bytes, s->abs_top));
}

/* A full-screen line feed's push of screen row 0 (l) when it is LINE_ASCII, the screen has a scrollback, is
 * not scrolled back and erases in default blanks: push_line (grid-edit.c) with the row's text copied as
 * grid__hist_text does and the row cleared last, so that screen_step jumps here as its last step with no
 * frame of its own, and this needs none either (the clear of a long row is a jump too). slot: the ring
 * slot after the screen. The caller checks that the row's written cells rounded up to 16 fit it. */
GRID_PAGE("hist") void grid__hist_push_ascii(struct screen *s, struct line *l, size_t slot, int ncells)
{
	const int n = l->used < ncells ? l->used : ncells;
	const size_t bytes = (sizeof(struct line) + (size_t)n + 15) & ~(size_t)15;
	if (unlikely(!s->hist_n) || s->hist[s->hist_head].used + bytes > s->hist[s->hist_head].end) {
		push_ascii_next(s, l, slot, n, bytes);
		return;
	}
	/* the slot after the screen holds the oldest scrollback line once it is full: it dies */
	if (s->sb_n == s->sb_max)
		s->sb_n--;
	push_ascii_end(s, l, slot, text_put(&s->hist[s->hist_head], l, n, bytes, s->abs_top));
}
#endif

/* grid__hist_copy's streaming copy with AVX, when its caller jumps to it last (grid__newline_deferred): the
 * destination, the source and the bytes (0: none left to do) */
struct hist_tail {
	struct grid_cell *dst;
	const struct grid_cell *src;
	size_t bytes;
};

/* grid__hist_copy's body; with t, the streaming copy of a line in full form with AVX is described in *t for
 * the caller, not done (the rest is: the line is the chunk's, its header written) */
static inline __attribute__((always_inline)) struct line *hist_copy(struct screen *s, const struct line *src,
								   int ncells, uint64_t abs, struct hist_tail *t)
{
	int n = src->used < ncells ? src->used : ncells;
	size_t bytes = line_bytes(n);
	struct hist_chunk *c = chunk_for(s, bytes);
	if (!c)
		return NULL;
	struct line *l = (struct line *)(c->mem + c->used);
	/* the header {flags, used, ncells, pstyle 0} and text NULL as two words, not a struct built on the stack:
	 * its 16-byte load from there waited for the stores of its four fields (no store forwarding into a
	 * wider load; ~1 % of unicode's time, docs/benchmarks.md, issue 2, session 14) */
	_Static_assert(sizeof(struct line) == 16 && offsetof(struct line, used) == 2 &&
			       offsetof(struct line, ncells) == 4 && offsetof(struct line, pstyle) == 6,
		       "line header layout");
	const uint64_t h = src->flags | (uint64_t)(uint16_t)n << 16 | (uint64_t)(uint16_t)n << 32;
	/* a line that starts with other text (most non-Latin text) is not tried: one load instead of a pass. The
	 * printer's hint first: whether a line starts with ASCII is a coin toss in mixed text, which is
	 * LINE_UNPACKABLE nearly always (a mispredicted branch every other line of unicode, session 14) */
	const struct grid_cell *sc = src->cells;
	uint8_t *const pb = (uint8_t *)(void *)l->cells;
	const size_t tb = ((size_t)n + 15) & ~(size_t)15;
	const int pack = !(src->flags & LINE_UNPACKABLE) && n >= PACK_MIN && sc[0].cp < 0x80 ? pack_ascii_sse2(sc, n, pb)
											     : PACK_MISFIT;
	if (pack == PACK_FITS) {
		/* packed in place (room for the full form was taken, the rest is given back): a packed
		 * scrollback is small enough to stay in the caches, so these are ordinary stores */
		header_store(l, h | LINE_PACKED | (uint64_t)src->cells[0].style << 48);
		bytes = sizeof(struct line) + tb;
	} else if (pack == PACK_STYLES) {
		/* the same with a style per cell (LINE_STYLED): 3 bytes a cell of fresh memory instead of 12,
		 * which in a TCG guest is zeroed at 5-20 ms per MiB (docs/benchmarks.md, issue 5, session 14) */
		pack_styles(sc, n, (uint16_t *)(void *)(pb + tb));
		header_store(l, h | LINE_PACKED | LINE_STYLED);
		bytes = (sizeof(struct line) + tb + 2 * (size_t)n + 15) & ~(size_t)15;
	} else {
#if defined(HAVE_COPY_AVX)
		/* with AVX-512 every line (hist_avx_min 16) while the chunk has room; at its end the copies below */
		if (bytes >= hist_avx_min && hist_whole && c->used + bytes + 96 <= c->end) {
			l = copy_whole(c, h, sc, bytes);
			goto done;
		}
		if (bytes >= 384 && bytes >= hist_avx_min &&
		    ((uintptr_t)l & 16 || c->used + bytes + 16 <= c->end)) {
			if (!((uintptr_t)l & 16)) {
				/* the chunk's lines are 16-byte aligned: start 16 bytes later (there is room), so that
				 * the cells are 32-byte aligned */
				c->used += 16;
				l = (struct line *)(c->mem + c->used);
			}
			header_stream(l, h);
			/* the chunk's bookkeeping first, the copy last (a tail call) */
			c->used += bytes;
			c->last_abs = abs;
			if (t) {
				*t = (struct hist_tail){l->cells, src->cells, bytes - sizeof(struct line)};
				return l;
			}
			return (struct line *)copy_stream_avx(l->cells, src->cells, bytes - sizeof(struct line),
							      (uintptr_t)l);
		} else
#endif
		{
			header_stream(l, h);
			copy_stream(l->cells, src->cells, bytes - sizeof(struct line));
		}
	}
	c->used += bytes;
done:
	c->last_abs = abs;
	return l;
}

GRID_PAGE("hist") struct line *grid__hist_copy(struct screen *s, const struct line *src, int ncells, uint64_t abs)
{
	return hist_copy(s, src, ncells, abs, NULL);
}

/* grid__newline for grid__print_utf8's CR LF (the cursor at column 0): in a text flood (screen_step's common
 * case, row 0 not LINE_ASCII, default blanks as the erase) row 0 goes to the scrollback as push_line has it
 * but its cells are not cleared. Returns how many cells from column 0 on still hold the pushed line (its
 * used cells: the rest are blank already), which the caller blanks before
 * anything else reads the row, now the bottom one: print_utf8 writes the next line over most of them and
 * blanks only the rest, where clear_line's stores of the whole span queued behind the scrollback's
 * streaming copy (docs/benchmarks.md, issue 2, session 14). Otherwise grid__newline, and 0. In this page,
 * with grid__hist_copy (grid-edit.c's "step" page had it): its call of the copy is then a chained jump for
 * an emulated guest (QEMU's TCG), not a TB look-up, once per scrolled line of unicode. */
GRID_PAGE("hist") size_t grid__newline_deferred(struct grid *g)
{
	struct screen *s = g->scr;
	struct line *l = s->ring[s->top];
	const size_t used = l->used;
	if (g->cy != g->bottom || g->top != 0 || g->bottom != g->rows - 1 || g->left != 0 ||
	    g->right != g->cols - 1 || g->sel.active || l->flags & (LINE_ASCII | LINE_LAZY) ||
	    (likely(!g->erase_dirty) ? g->erase_id : grid__erase_style(g)) != 0) {
		grid__newline(g);
		return 0;
	}
	/* grid__newline's (the new line mode's return to column 0 is where the cursor is already) */
	g->wrap_pending = false;
	/* screen_step's */
	g->last_x = g->last_y = -1;
	g->damage_all = true;
	g->damaged = true;
	/* grid__push_row's, with the copy of the row (read from its cells only) done last, a jump: its return is
	 * this one's (a TB look-up of an emulated guest less per line) */
	struct hist_tail t = {NULL, NULL, 0};
	if (s->sb_max > 0) {
		if (s->sb_n == s->sb_max)
			s->sb_n--;
		grid__push_ring(g, l, hist_copy(s, l, g->cols, s->abs_top, &t), true);
	} else {
		grid__push_ring(g, l, NULL, false);
	}
	l->flags = 0;
	l->used = 0;
	grid__push_view(g);
#if defined(HAVE_COPY_AVX)
	if (t.bytes)
		return copy_stream_avx(t.dst, t.src, t.bytes, (uintptr_t)used);
#endif
	return used;
}

/* A packed line's cells in full form (either packed form: grid__line_cell has the one rule for both). */
void grid__hist_expand(const struct line *l, struct grid_cell *out)
{
	for (int x = 0; x < l->ncells; x++)
		out[x] = grid__line_cell(l, x);
}
