/* grid/grid-sgr-bytes.c: SGR straight from the sequence's bytes (vt_sink.csi_bytes), for colour-per-cell
 * output, where the parsed form costs more than the sequence itself: tables of the SGRs seen (by their
 * bytes), colour forms and plain SGRs decoded from the bytes, and the character after the sequence taken
 * with it. Does exactly what grid-sgr.c does with the parsed sequence.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-sgr.h"

/* The frequent SGRs' functions (colours, one-code SGRs with the cell after them, long plain SGRs up to their
 * decode: ~3.7 KiB) in one page (GRID_PAGE) */
GRID_PAGE_BEGIN("sgr");
#if defined(__GNUC__) && defined(__ELF__) && defined(__x86_64__)
/* the AVX-512 colour decode's section (grid-sgr-512.h) between the two pages, no alignment of its own: after
 * the frequent SGRs' functions, before the next page, so that it moves no function an emulated guest runs
 * within its page (appended after the long SGRs' page, it moved the style collector's functions across a
 * page boundary: guest csi +0.09 %) */
__asm__(".section .text.kf_sgr512,\"ax\",@progbits\n\t.previous");
#endif
/* (the long plain SGRs' decode follows in a page of its own: grid-sgr-long.c, the next file linked) */

#include "grid/grid-sgr-color.h"

static inline __attribute__((always_inline)) bool sgr_color_xform(const uint8_t *s, unsigned n,
								   struct sgr_xform *x)
{
	uint64_t h;
	uint32_t color;
	if (!sgr_color_decode(s, n, &h, &color))
		return false;
	/* fg and bg both: set says which one counts (no branch on it) */
	x->fg = color;
	x->bg = color;
	x->ul_color = 0;
	x->attr_and = 0xffff;
	x->attr_or = 0;
	x->set = (uint8_t)HEAD_SET(h);
	x->underline = 0;
	return true;
}

/* Such an SGR into x as the parsed form would give (x untouched when false) */
static inline __attribute__((always_inline)) bool sgr_plain_xform(const uint8_t *s, unsigned n,
								   struct sgr_xform *x)
{
	uint8_t pad[36];
	struct plain_src p;
	if (n == 3 && s[0] == '4' && s[1] == ':' && s[2] - (unsigned)'0' <= GRID_UNDERLINE_DASHED) {
		/* "4:0".."4:5", an underline style (csi's "N:N" SGRs): kept in the memo as the others, not
		 * declined to the parser's generic path every time (grid-sgr.c's sgr_one: x_underline) */
		*x = (struct sgr_xform){.attr_and = 0xffff, .set = X_UNDERLINE, .underline = (uint8_t)(s[2] - '0')};
		return true;
	}
	if (!plain_fields(s, n, pad, &p))
		return false;
	*x = (struct sgr_xform){.attr_and = 0xffff};
	sgr_plain_from(x, &p, true);
	return true;
}

/* The cell printers of with_cell: out of line and returning the count they are given, so that
 * grid__csi_bytes_sgr ends in a jump to them and saves no registers on its other paths. */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t cell_ascii(struct grid *g, const uint8_t *c, size_t ret)
{
	grid__print_ascii(g, c, 1);
	return ret;
}

GRID_PAGE("sgr") __attribute__((noinline)) static size_t cell_cp(struct grid *g, uint32_t cp, size_t ret)
{
	grid__print(g, &cp, 1);
	return ret;
}

/* A sequence s[0..n) (n <= 28: the bytes looked at lie in the 32 readable ones) done, and the character alone
 * after it taken as the parser would print it next (vt_sink.csi_bytes): one printable ASCII byte, or one
 * valid 3-byte UTF-8 character, followed by a C0 control (the next sequence's ESC): a colour-per-cell
 * program's cell, without a return to the parser's loop. Returns the bytes taken. */
static inline size_t with_cell(struct grid *g, const uint8_t *s, size_t n)
{
	const uint8_t *c = s + n;
	uint32_t b = c[0];
	if (b - 0x20u < 0x5fu && c[1] < 0x20)
		return cell_ascii(g, c, n + 1);
	if (b - 0xe0u < 0x10u && c[3] < 0x20) {
		/* the parser's checks: continuation bytes, not overlong, not a surrogate */
		uint32_t c1 = c[1] ^ 0x80u, c2 = c[2] ^ 0x80u, cp = (b & 0x0fu) << 12 | c1 << 6 | c2;
		if ((c1 | c2) < 0x40 && cp >= 0x800 && cp - 0xd800 >= 0x800)
			return cell_cp(g, cp, n + 3);
	}
	return n;
}

/* 0 when entry e's key is k, else not: the words' differences or'ed, no branch per word */
static inline uint64_t long_key_diff(const struct sgr_long_memo *e, const uint64_t *k)
{
	return (e->key[0] ^ k[0]) | (e->key[1] ^ k[1]) | (e->key[2] ^ k[2]) | (e->key[3] ^ k[3]);
}

/* with_cell reached by a jump: its caller then keeps no registers for it */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t with_cell_out(struct grid *g, const uint8_t *s, size_t n)
{
	return with_cell(g, s, n);
}

/* Colour SGRs mostly not found in the tables (fresh colours, as a random-colour stream or a long gradient)
 * are decoded straight away, without a lookup or an entry: both cost more than the decode when little
 * repeats. grid.sgr_color_misses counts the colour SGRs not found (and, past this many, also those decoded
 * straight away); from this many on, one colour SGR in 256 still goes through the tables, and each one found
 * there divides the count by 16, so that lookups come back when colours repeat (the found ones themselves
 * cost nothing more; a quarter would leave a count of 256 at 64, still bypassing). A sampled SGR costs its
 * lookup and a new entry in tables gone cold, ~200 ns against ~25 ns for the decode (perf: one in 64 was
 * 1.3 % of csi's time, one in 16 3 %); a count of 10^6 still falls below this in 4 found ones.
 * (SGR_BYPASS_AFTER is in grid-internal.h: the style interning reads the same state, grid__cache_bypass.) */

/* While the colour SGRs bypass the tables (a sampled one not found, sgr_color_sampled), the parser's SGR entry
 * on AVX-512 CPUs is csi_bytes_sgr_512 (see the end of this file), which goes back itself once the count is
 * below SGR_BYPASS_AFTER again. Set on the sampled path (1 colour SGR in 256), not on every one. */
#if defined(HAVE_SGR_512)
static bool sgr_512;
static size_t csi_bytes_sgr_512(void *ctx, const uint8_t *s, size_t n);
#endif

/* A new entry of grid.sgr_bytes or grid.sgr_long: its key k[0..nk), its id, and the SGR (whose change x
 * holds) kept and applied. Returns what grid__csi_bytes_sgr returns for the SGR s[0..n]. */
static inline __attribute__((always_inline)) size_t memo_new(struct grid *g, unsigned n, struct sgr_memo *m,
							      uint64_t *key, const uint64_t *k, unsigned nk, bool plain,
							      const struct sgr_xform *x)
{
	for (unsigned i = 0; i < nk; i++)
		key[i] = k[i];
	m->id = ++g->sgr_bytes_ids;
	m->epoch = 0;
	sgr_change_of(x, &m->c);
	m->sets_bg = x->set & X_BG;
	if (!plain)
		g->sgr_color_misses++;
	else if (nk == 4)
		g->sgr_long_misses++;
	sgr_change_apply(g, &m->c, m->sets_bg);
	g->pen_from = m;
	g->last_cp = 0;
	return n + 1;
}

/* An SGR not in grid.sgr_bytes (nk 2) or grid.sgr_long (nk 4): kept in m with the key k[0..nk), or left to
 * the parser (returns 0). color: colour forms only, plain: anything else only. */
static inline __attribute__((always_inline)) size_t sgr_bytes_miss(struct grid *g, const uint8_t *s,
								    unsigned n, struct sgr_memo *m, uint64_t *key,
								    const uint64_t *k, unsigned nk, bool plain)
{
	struct sgr_xform x;
	if (!plain) {
		if (!sgr_color_xform(s, n, &x))
			return 0;
	} else if (!sgr_plain_xform(s, n, &x)) {
		return 0;
	}
	return memo_new(g, n, m, key, k, nk, plain, &x);
}

/* The plain SGRs of sgr_short_miss and sgr_long_miss: out of line and reached by a jump, so that the colour
 * forms' path saves no registers. */
__attribute__((noinline)) static size_t sgr_short_plain(struct grid *g, const uint8_t *s, unsigned n,
							 struct sgr_bytes_memo *e, uint64_t k0, uint64_t k1)
{
	const uint64_t k[2] = {k0, k1};
	return sgr_bytes_miss(g, s, n, &e->m, e->key, k, 2, true);
}

__attribute__((noinline)) static size_t sgr_long_plain(struct grid *g, const uint8_t *s, unsigned n,
							struct sgr_long_memo *e, const uint64_t *k)
{
	return sgr_bytes_miss(g, s, n, &e->m, e->key, k, 4, true);
}

__attribute__((noinline)) static size_t sgr_short_miss(struct grid *g, const uint8_t *s, unsigned n,
							struct sgr_bytes_memo *e, uint64_t k0, uint64_t k1)
{
	const uint64_t k[2] = {k0, k1};
	size_t r = sgr_bytes_miss(g, s, n, &e->m, e->key, k, 2, false);
	return r ? r : sgr_short_plain(g, s, n, e, k0, k1);
}

__attribute__((noinline)) static size_t sgr_long_miss(struct grid *g, const uint8_t *s, unsigned n,
						       struct sgr_long_memo *e, const uint64_t *k)
{
	size_t r = sgr_bytes_miss(g, s, n, &e->m, e->key, k, 4, false);
	return r ? r : sgr_long_plain(g, s, n, e, k);
}

/* A found SGR: what grid__sgr does for a memoized sequence (the change of the pen, and the pen's id when it
 * gives the pen it gave last time). */
static inline void sgr_memo_hit(struct grid *g, struct sgr_memo *m)
{
	sgr_change_apply(g, &m->c, m->sets_bg);
	g->pen_from = m;
	g->last_cp = 0;
	if (m->epoch == g->st.epoch && m->protect == g->protect && pen_same(&m->pen, &g->pen)) {
		g->pen_id = m->pen_id;
		g->pen_dirty = false;
	}
}

/* sgr_memo_hit for grid.sgr_bytes' entries (the short SGRs: a colour per cell, doom_fire's): whether the pen
 * is the one the entry gave last time without a branch. A fire's next cell keeps its entry's pen about as
 * often as not (that branch was 20.6 k of doom_fire's 116 k mispredictions per 2 MiB in cachegrind's model;
 * 94.8 k without it; doom_fire +4 % MB/s for +0.75 % instructions). The id is stored either way: it counts
 * only while pen_dirty is false. grid.sgr_long keeps the branch (dense_cells' SGRs give the same pen every
 * time, which the branch predicts). GCC makes one vector of the pen's two words here; a scalar form
 * measured no faster on the host and no different in the guest's csi (docs/benchmarks.md, session 18). */
static inline void sgr_memo_hit_sel(struct grid *g, struct sgr_memo *m)
{
	uint64_t p0, p1, q0, q1;
	memcpy(&p0, &g->pen, 8);
	memcpy(&p1, (const char *)&g->pen + 8, 8);
	p0 = (p0 & m->c.keep[0]) | m->c.val[0];
	p1 = (p1 & m->c.keep[1]) | m->c.val[1];
	memcpy(&g->pen, &p0, 8);
	memcpy((char *)&g->pen + 8, &p1, 8);
	g->erase_dirty |= m->sets_bg;
	g->pen_from = m;
	g->last_cp = 0;
	memcpy(&q0, &m->pen, 8);
	memcpy(&q1, (const char *)&m->pen + 8, 8);
	const uint64_t d = (p0 ^ q0) | (p1 ^ q1) | (uint64_t)(m->epoch ^ g->st.epoch) |
			   (uint64_t)(m->protect ^ g->protect);
	g->pen_id = m->pen_id;
	g->pen_dirty = d != 0;
}

/* (aligned: the masks' 8- and 16-byte loads from it then never split a cache line) */
static const uint8_t ones[48] __attribute__((aligned(64))) = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* An SGR of 17 to 31 bytes before its 'm' (s[0..32) readable), such as "38;5;n;48;5;n;1;3;4" or
 * "38:2::r:g:b": looked up by its 32 bytes in grid.sgr_long as grid__csi_bytes_sgr looks up shorter ones.
 * plain: known not to be a colour form (a new one goes straight to sgr_long_plain); known: its change
 * when already decoded (a new one takes it without decoding again), or NULL. */
static inline __attribute__((always_inline)) size_t sgr_bytes_long_t(struct grid *g, const uint8_t *s,
								      unsigned n, bool plain,
								      const struct sgr_xform *known)
{
	/* the bytes after the 'm' masked off: those from 16 on by a sliding window of ones */
	uint64_t k[4], t[2];
	memcpy(k, s, 32);
	memcpy(t, ones + 48 - n, 16);
	k[2] &= t[0];
	k[3] &= t[1];
	/* first the place that followed the last one found: colour-per-cell output draws its cells in the
	 * order it drew them before (dense_cells' SGRs one after the other), and the compare with that entry
	 * does not wait for the hash */
	const size_t last = g->sgr_long_last, p = g->sgr_long_next[last];
	if (likely(long_key_diff(&g->sgr_long[p], k) == 0)) {
		g->sgr_long_last = (uint16_t)p;
		sgr_memo_hit(g, &g->sgr_long[p].m);
		return n < 28 ? with_cell(g, s, n + 1) : n + 1;
	}
	_Static_assert(SGR_LONG_SLOTS == 512, "the slot is the top 9 bits");
	uint64_t h = ((k[0] ^ k[2]) * 0x9e3779b97f4a7c15ull) ^ ((k[1] ^ k[3]) * 0xc2b2ae3d27d4eb4full);
	const size_t i1 = h >> 55, i2 = h >> 46 & (SGR_LONG_SLOTS - 1);
	struct sgr_long_memo *e1 = &g->sgr_long[i1], *e2 = &g->sgr_long[i2];
	/* both places compared, the found one taken without a branch: which of the two holds an SGR follows
	 * no order a predictor learns (the first-place test was mispredicted 0.5 times per SGR on
	 * dense_cells, 78 % of its mispredictions). An empty entry's key is zero, which no SGR's is. */
	const uint64_t d1 = long_key_diff(e1, k), d2 = long_key_diff(e2, k);
	/* i1 or i2 by a mask (GCC makes a branch of a conditional here) */
	struct sgr_long_memo *e = &g->sgr_long[i1 ^ ((i1 ^ i2) & (0 - (size_t)(d1 != 0)))];
	/* the place found (or taken) follows the last one */
	const size_t i = (size_t)(e - g->sgr_long);
	g->sgr_long_next[last] = (uint16_t)i;
	g->sgr_long_last = (uint16_t)i;
	/* found in neither: one test (the top bit of x | -x is x != 0; a && makes two branches, the second
	 * as unpredictable as the first) */
	if (unlikely(((d1 | (0 - d1)) & (d2 | (0 - d2))) >> 63)) {
		e = e2->m.id < e1->m.id ? e2 : e1;
		g->sgr_long_next[last] = (uint16_t)(e - g->sgr_long);
		g->sgr_long_last = (uint16_t)(e - g->sgr_long);
		if (known)
			return memo_new(g, n, &e->m, e->key, k, 4, false, known);
		return plain ? sgr_long_plain(g, s, n, e, k) : sgr_long_miss(g, s, n, e, k);
	}
	sgr_memo_hit(g, &e->m);
	return n < 28 ? with_cell(g, s, n + 1) : n + 1;
}

__attribute__((noinline)) static size_t sgr_bytes_long(struct grid *g, const uint8_t *s, unsigned n)
{
	return sgr_bytes_long_t(g, s, n, false, NULL);
}

/* (also sgr_long_direct's sampled SGRs) */
__attribute__((noinline)) size_t grid__sgr_bytes_long_plain(struct grid *g, const uint8_t *s, unsigned n)
{
	return sgr_bytes_long_t(g, s, n, true, NULL);
}

/* sgr_bytes_lookup's SGR k0, k1 (hash h) not in its first place: in the second, or new */
static inline __attribute__((always_inline)) size_t sgr_bytes_second_t(struct grid *g, const uint8_t *s, size_t n,
									bool plain, const struct sgr_xform *known,
									uint64_t k0, uint64_t k1, uint64_t h)
{
	struct sgr_bytes_memo *e = &g->sgr_bytes[h >> 55];
	struct sgr_bytes_memo *e2 = &g->sgr_bytes[h >> 46 & (SGR_BYTES_SLOTS - 1)];
	if (e2->key[0] != k0 || e2->key[1] != k1) {
		e = e2->m.id < e->m.id ? e2 : e;
		const uint64_t k[2] = {k0, k1};
		if (known)
			return memo_new(g, (unsigned)n, &e->m, e->key, k, 2, false, known);
		return plain ? sgr_short_plain(g, s, (unsigned)n, e, k0, k1)
			     : sgr_short_miss(g, s, (unsigned)n, e, k0, k1);
	}
	sgr_memo_hit_sel(g, &e2->m);
	return with_cell(g, s, n + 1);
}

/* sgr_bytes_second_t for grid__csi_bytes_sgr, out of line and reached by a jump: the first place's hit path
 * then keeps what it needs in registers a call may clobber and saves none (it pushed three) */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t sgr_bytes_second(struct grid *g, const uint8_t *s, size_t n,
									   uint64_t k0, uint64_t k1, uint64_t h)
{
	return sgr_bytes_second_t(g, s, n, false, NULL, k0, k1, h);
}

/* The SGRs of colour-per-cell output, found by their bytes in a small table in front of the parser: a
 * repeated one costs a hash and a compare, then what grid__sgr does for a memoized sequence; a new one of the
 * shapes sgr_bytes_xform takes is built from its bytes, not from the parser's general form. */
/* plain: known not to be a colour form (a new one goes straight to the plain SGRs' path); known: as in
 * sgr_bytes_long_t */
static inline __attribute__((always_inline)) size_t sgr_bytes_lookup(struct grid *g, const uint8_t *s, size_t n,
								      bool plain, const struct sgr_xform *known)
{
	/* up to 16 bytes here, the key the whole vector: "48;2;255;255;255" (a fire's white, 4 % of doom_fire's
	 * SGRs) went the 32-byte way, whose guess of the next SGR missed there */
	if (unlikely(n > 16)) {
		if (known)
			return sgr_bytes_long_t(g, s, (unsigned)n, false, known);
		if (!plain)
			return sgr_bytes_long(g, s, (unsigned)n);
		if (g->sgr_long_misses >= SGR_BYPASS_AFTER)
			return grid__sgr_long_direct(g, s, (unsigned)n);
		return grid__sgr_bytes_long_plain(g, s, (unsigned)n);
	}
	/* the key as two 8-byte loads, each and'ed with its mask: the lookup's address (and whatever waits on the
	 * entry: the pen's check, the printer's branch on it) comes a few cycles sooner than through a vector's
	 * and and its moves to the general registers */
	uint64_t k[2], m0, m1;
	memcpy(&k[0], s, 8);
	memcpy(&k[1], s + 8, 8);
	memcpy(&m0, ones + 32 - n, 8);
	memcpy(&m1, ones + 40 - n, 8);
	k[0] &= m0;
	k[1] &= m1;
	_Static_assert(SGR_BYTES_SLOTS == 512, "the slot is the top 9 bits");
	uint64_t h = (k[0] * 0x9e3779b97f4a7c15ull) ^ (k[1] * 0xc2b2ae3d27d4eb4full);
	/* two places (as the parser's memo): a new SGR replaces the older entry of the two. An empty place's
	 * key is 0 (the grid is allocated zeroed and entries are only replaced), which no SGR's is: its first
	 * byte is a parameter byte, 0x30..0x3f */
	struct sgr_bytes_memo *e = &g->sgr_bytes[h >> 55];
	if (unlikely(e->key[0] != k[0] || e->key[1] != k[1])) {
		if (!plain && !known)
			return sgr_bytes_second(g, s, n, k[0], k[1], h);
		return sgr_bytes_second_t(g, s, n, plain, known, k[0], k[1], h);
	}
	sgr_memo_hit_sel(g, &e->m);
	return with_cell(g, s, n + 1);
}

/* sgr_bytes_lookup for sgr_color_direct's SGRs that are not colour forms, reached by a jump */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t sgr_bytes_sampled(struct grid *g, const uint8_t *s, size_t n)
{
	return sgr_bytes_lookup(g, s, n, true, NULL);
}

/* The colour SGR in 256 that sgr_color_direct still looks up (its colour and head already decoded): found
 * (the count of misses did not move), it divides the count by 16. */
__attribute__((noinline)) static size_t sgr_color_sampled(struct grid *g, const uint8_t *s, size_t n, uint64_t h,
							   uint32_t color)
{
	const struct sgr_xform x = {.fg = color, .bg = color, .attr_and = 0xffff, .set = (uint8_t)HEAD_SET(h)};
	uint32_t before = g->sgr_color_misses;
	size_t r = sgr_bytes_lookup(g, s, n, false, &x);
	if (g->sgr_color_misses == before)
		g->sgr_color_misses /= 16;
#if defined(HAVE_SGR_512)
	else if (sgr_512)
		vt_parser_set_csi_bytes(g->parser, 'm', csi_bytes_sgr_512);
#endif
	return r;
}

/* The work after the decode of sgr_color_direct, sgr_color_itu and sgr_color_direct_512: one colour SGR in 256
 * through sgr_color_sampled, the others applied, with the head read again from s (its first byte's bit 2 for fg
 * or bg): the decodes then keep no head in a register, and save none of their own */
static inline __attribute__((always_inline)) size_t color_direct_apply_s(struct grid *g, const uint8_t *s, size_t n,
									  uint32_t color)
{
	/* one in 256 (the count's low byte 0 after the add): on x86-64 an add to memory and a test of its low
	 * byte there, where GCC makes of the C a load, an add, a store and a test (two instructions more per
	 * colour SGR) */
	bool sample;
#if defined(__GNUC__) && defined(__x86_64__)
	__asm__("addl $1, %0\n\ttestb $0xff, %0" : "+m"(g->sgr_color_misses), "=@ccz"(sample));
#else
	sample = (++g->sgr_color_misses & 255) == 0;
#endif
	if (unlikely(sample)) {
		uint64_t h;
		memcpy(&h, s, 8);
		return sgr_color_sampled(g, s, n, h & 0xffffffffffull, color);
	}
	_Static_assert(offsetof(struct grid_style, fg) == 0 && offsetof(struct grid_style, bg) == 4, "pen layout");
	size_t off = s[0] & 4u;
	/* (opaque: GCC otherwise ands the byte twice, once for the place and once for the flag's setne) */
	__asm__("" : "+r"(off));
	memcpy((char *)&g->pen + off, &color, 4);
	g->erase_dirty |= off != 0;
	g->pen_dirty = true;
	g->pen_from = NULL;
	g->last_cp = 0;
	return n + 1;
}

/* The r;g;b of the tail t[0..len) whose first two separators are at e0 < e1, the rest of color_tail (Pi
 * already dropped before t) */
static inline __attribute__((always_inline)) bool rgb_tail(const uint8_t *t, unsigned len, unsigned e0, unsigned e1,
							   uint32_t *out)
{
	/* fewer than two separators: e1 is 31 (none past the tail), so l1 is 16 or more; an empty number (each
	 * length less one wraps) to the general path, 1 to 4 digits taken, as color_tail's */
	const unsigned m0 = e0 - 1, m1 = e1 - e0 - 2, m2 = len - e1 - 2;
	if ((m0 | m1 | m2) > 3)
		return false;
	return rgb_at(t, 0, m0, e0 + 1, m1, e1 + 1, m2, out);
}

/* sgr_color_direct's SGRs with a third separator (the first two at e0 < e1, sm: the third and later ones): the
 * ITU form "38:2:Pi:r:g:b" (':' only, exactly three) or nothing, out of line so that the other forms keep no
 * start of r in a register. The ':' form told by the head's separator byte (s[2]), not by a head kept for it. */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t sgr_color_itu(struct grid *g, const uint8_t *s, size_t n,
									unsigned e0, unsigned e1, unsigned sm)
{
	uint32_t color;
	const unsigned st = e0 + 1, e2 = (unsigned)__builtin_ctz(sm);
	if (s[2] != ':' || (sm & (sm - 1)) || !rgb_tail(s + 5 + st, (unsigned)n - 5 - st, e1 - st, e2 - st, &color))
		return sgr_bytes_sampled(g, s, n);
	return color_direct_apply_s(g, s, n, color);
}

/* A colour SGR s[0..n] (n before the 'm') decoded and applied without the tables; anything else through
 * sgr_bytes_lookup, and one colour SGR in 256 through sgr_color_sampled. sgr_color_decode's steps, written out
 * so that nothing is kept in a register that a call would have to save (the CPUs without AVX-512 and the
 * emulated guests of issue 5 run this; docs/benchmarks.md, session 28 "colour"). */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t sgr_color_direct(struct grid *g, const uint8_t *s, size_t n)
{
	uint64_t h;
	uint32_t color;
	if (!color_head_top(s, &h))
		return sgr_bytes_sampled(g, s, n);
	if (HT_PAL(s)) {
		if (!pal_tail(s + 5, (unsigned)n - 5, &color))
			return sgr_bytes_sampled(g, s, n);
	} else {
		unsigned sm;
		if (!color_scan_tail(s, (unsigned)n, HT_SEMI16(h), &sm))
			return sgr_bytes_sampled(g, s, n);
		const unsigned e0 = (unsigned)__builtin_ctz(sm | 1u << 31);
		sm &= sm - 1;
		const unsigned e1 = (unsigned)__builtin_ctz(sm | 1u << 31);
		sm &= sm - 1;
		if (unlikely(sm))
			return sgr_color_itu(g, s, n, e0, e1, sm);
		if (!rgb_tail(s + 5, (unsigned)n - 5, e0, e1, &color))
			return sgr_bytes_sampled(g, s, n);
	}
	return color_direct_apply_s(g, s, n, color);
}

/* sgr_tiny's codes 0..99 (grid__sgr_codes) as masks of the whole pen: pen = (pen & and) | or, no branch on
 * which field the code sets (csi's toggles, "1", "22", "4", "0", ..., come in no order a predictor learns: its
 * switch was mispredicted ~14 k times per 2 MiB); bg: the code sets the background. Made once from
 * grid__sgr_codes, padding bytes 0 in both masks. */
struct tiny_code {
	struct grid_style and_, or_;
};
static struct tiny_code tiny_codes[100];
static bool tiny_bg[100];

__attribute__((constructor)) static void tiny_codes_init(void)
{
	for (unsigned c = 0; c < 100; c++) {
		const struct sgr_code *e = &grid__sgr_codes[c];
		struct tiny_code *t = &tiny_codes[c];
		memset(t, 0, sizeof(*t));
		t->and_.fg = t->and_.bg = t->and_.ul_color = 0xffffffffu;
		t->and_.attrs = (uint16_t)~e->clear;
		t->and_.underline = 0xff;
		t->or_.attrs = e->on;
		switch (e->field) {
		case F_FG: t->and_.fg = 0, t->or_.fg = e->val; break;
		case F_BG: t->and_.bg = 0, t->or_.bg = e->val, tiny_bg[c] = true; break;
		case F_UL: t->and_.ul_color = 0, t->or_.ul_color = e->val; break;
		case F_US: t->and_.underline = 0, t->or_.underline = (uint8_t)e->val; break;
		case F_RESET: memset(&t->and_, 0, sizeof(t->and_)), tiny_bg[c] = true; break;
		default: break; /* 38, 48, 58 without their colour: nothing */
		}
	}
}

/* An SGR of at most two digits ("", "0", "1", "22", "39", ...: one code) applied straight from the code
 * table, without a lookup: cheaper than a hash and a compare, and the pen's id is then found in the
 * style cache. Anything else of two bytes ("4:", "?1") goes to sgr_bytes_lookup. */
GRID_PAGE("sgr") __attribute__((noinline)) static size_t sgr_tiny(struct grid *g, const uint8_t *s, size_t n)
{
	/* the digits at the top of a 16-bit word (none: 0, the code of an empty SGR), each below 10 */
	static const uint32_t to_top[3] = {0, 1u << 8, 1}; /* as digits_at's */
	uint32_t w = ((((uint32_t)s[0] | (uint32_t)s[1] << 8) ^ 0x3030u) * to_top[n]) & 0xffffu;
	if ((w | (w + 0x7676u)) & 0x8080u)
		return sgr_bytes_lookup(g, s, n, false, NULL);
	const unsigned c = (w >> 8) + 10 * (w & 0xffu);
	const struct tiny_code *t = &tiny_codes[c];
	_Static_assert(sizeof(struct grid_style) == 16, "the pen in one vector");
#if defined(__SSE2__) && defined(__GNUC__)
	__m128i p = _mm_loadu_si128((const __m128i *)(const void *)&g->pen);
	p = _mm_and_si128(p, _mm_loadu_si128((const __m128i *)(const void *)&t->and_));
	p = _mm_or_si128(p, _mm_loadu_si128((const __m128i *)(const void *)&t->or_));
	_mm_storeu_si128((__m128i *)(void *)&g->pen, p);
#else
	uint64_t p[2], a[2], o[2];
	memcpy(p, &g->pen, 16);
	memcpy(a, &t->and_, 16);
	memcpy(o, &t->or_, 16);
	p[0] = (p[0] & a[0]) | o[0];
	p[1] = (p[1] & a[1]) | o[1];
	memcpy(&g->pen, p, 16);
#endif
	g->erase_dirty |= tiny_bg[c];
	g->pen_dirty = true;
	g->pen_from = NULL;
	g->last_cp = 0;
	return with_cell_out(g, s, n + 1);
}

GRID_PAGE("sgr") size_t grid__csi_bytes_sgr(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	n--; /* the bytes before 'm' */
	if (n <= 2)
		return sgr_tiny(g, s, n);
	if (unlikely(g->sgr_color_misses >= SGR_BYPASS_AFTER))
		return sgr_color_direct(g, s, n);
	return sgr_bytes_lookup(g, s, n, false, NULL);
}

#if defined(HAVE_SGR_512)
/* sgr_color_direct with color_tail_512 (the head tested by csi_bytes_sgr_512), and the parser's SGR entry while
 * the colour tables are bypassed (set by sgr_color_sampled): the SGRs of the tables (doom_fire's, dense_cells')
 * stay on grid__csi_bytes_sgr itself (with the entry a copy of it for all SGRs they were 2-4 % slower). In a
 * section of their own between the two pages above (no function an emulated guest runs moves within its page). */
GRID_PAGE("sgr512") __attribute__((target("avx512f,avx512bw,avx512vl,bmi,bmi2,sse4.1,ssse3"), noinline)) static size_t
sgr_color_direct_512(struct grid *g, const uint8_t *s, size_t n)
{
	uint32_t color;
	if (!color_tail_512(s, (unsigned)n, &color))
		return sgr_bytes_sampled(g, s, n);
	return color_direct_apply_s(g, s, n, color);
}

/* The tables' entry back (colours found again: sgr_color_sampled, or a reset), out of line: the entry's
 * other paths then save no registers */
GRID_PAGE("sgr512") __attribute__((noinline)) static size_t sgr_512_leave(struct grid *g, const uint8_t *s, size_t n)
{
	vt_parser_set_csi_bytes(g->parser, 'm', grid__csi_bytes_sgr);
	return grid__csi_bytes_sgr(g, s, n);
}

/* The SGRs that are not colour forms: the long plain ones (sgr_bytes_lookup's choice for them, without its
 * call), the others through sgr_bytes_sampled */
GRID_PAGE("sgr512") static inline size_t sgr_other_512(struct grid *g, const uint8_t *s, size_t n)
{
#if defined(GRID_SGR_LONG_512)
	if (n > 16 && g->sgr_long_misses >= SGR_BYPASS_AFTER && grid__sgr_long_512)
		return grid__sgr_long_direct_512(g, s, (unsigned)n);
#endif
	return sgr_bytes_sampled(g, s, n);
}

/* The colour head tested here, before sgr_color_direct_512 is called: the SGRs that are not colour
 * forms (csi's long ones, "4:3", ...) go on without that */
GRID_PAGE("sgr512") static size_t csi_bytes_sgr_512(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	if (unlikely(g->sgr_color_misses < SGR_BYPASS_AFTER))
		return sgr_512_leave(g, s, n);
	n--;
	if (n <= 2)
		return sgr_tiny(g, s, n);
	uint64_t h;
	if (!color_head(s, &h))
		return sgr_other_512(g, s, n);
	return sgr_color_direct_512(g, s, n);
}

GRID_PAGE("sgr512") __attribute__((constructor)) static void sgr_512_init(void)
{
	if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
	    __builtin_cpu_supports("bmi2")) {
		color_512_init();
		sgr_512 = true;
#if defined(GRID_SGR_LONG_512)
		grid__sgr_long_512 = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
#endif
	}
}
#endif
