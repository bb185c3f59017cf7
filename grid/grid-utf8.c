/* grid/grid-utf8.c: UTF-8 text decoded by grid/ while it writes the cells (vt_sink.print_utf8).
 *
 * The parser offers the bytes from a UTF-8 lead byte on; plain characters (a cluster boundary before and
 * after each) and the Extend characters on them (combining marks, VS16, emoji modifiers) are decoded,
 * looked up and stored in one loop per row segment, with the per-row questions (margins, pen, wide
 * characters cut in half, damage) answered once per segment. Everything else (ZWJ sequences, flags,
 * Hangul, controls, invalid bytes) is left to the parser, which hands it to grid__print as code points.
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-print.h"

/* put_text's loop in a page of its own (GRID_PAGE): straddling one, it cost the guest's unicode parse ~20%. The
 * marks' attach shares its page; grid__print_utf8 and the end of a row segment have one of their own (a
 * guest's TB look-ups: docs/benchmarks.md, issue 2, session 10). */
GRID_PAGE_BEGIN("utf8");
GRID_PAGE_BEGIN("utf8_seg");

/* The Grapheme_Cluster_Break class ZWJ in a property byte (bits 2-5, vt_char_props) */
#define VT_PROP_ZWJ_CLASS (5u << 2)

/* the direct clusters and the cluster cache: cache_set, cache_find, am_slot, mark_direct, mark_cached,
 * mark_on_last */
#include "grid/grid-utf8-marks.h"

/* attach() for the run path: appends the combining mark cp to cell c (written by this run, so the cursor
 * is right after it). The cluster ids of recent (cell content, mark) pairs are cached, so a mark that was
 * seen on the same base before costs no interning. */
GRID_PAGE("utf8") void grid__attach_mark(struct grid *g, struct grid_cell *c, uint32_t cp)
{
	uint32_t base = c->cp;
	const uint32_t d = mark_direct(base, cp);
	if (d) {
		c->cp = d;
		return;
	}
	uint32_t hit = cache_find(cache_set(g, base, cp), base, cp);
	if (hit) {
		c->cp = GRID_CP_CLUSTER | (hit - 1);
		return;
	}
	uint32_t buf[CLUSTER_MAX_CPS] = {0};
	uint32_t n;
	if (base & GRID_CP_CLUSTER) {
		/* grid__cluster(), inline for the table's entries; the code points copied whole (a fixed size: no
		 * call) */
		uint32_t i = base & ~GRID_CP_CLUSTER;
		struct cluster tmp;
		const struct cluster *cl = i & CLUSTER_DIRECT ? grid__cluster(g, base, &tmp)
				   : i < g->cl.cap && g->cl.used[i] ? &g->cl.c[i]
								      : NULL;
		if (!cl)
			return;
		n = cl->n;
		memcpy(buf, cl->cp, sizeof(buf));
	} else {
		buf[0] = base;
		n = 1;
	}
	if (n >= CLUSTER_MAX_CPS)
		return; /* dropped: a cluster has a hard cap */
	buf[n++] = cp;
	int id = grid__cluster_intern(g, buf, n);
	if (id < 0) {
#if !defined(NDEBUG)
		g->joins_dropped++; /* (put_utf8's check) */
#endif
		return;
	}
	/* after intern: a collection inside it may have dropped pairs from the cache */
	struct cluster_cache_entry *e = cache_set(g, base, cp);
	/* a pair on a cluster (a second mark) recurs far less often than one on a character: it takes the older
	 * way only, and moves to the newer one when it is found again */
	if (!(base & GRID_CP_CLUSTER))
		e[1] = e[0];
	e[base & GRID_CP_CLUSTER ? 1 : 0] = (struct cluster_cache_entry){.base = base, .mark = cp, .id = (uint32_t)id + 1};
	c->cp = GRID_CP_CLUSTER | (uint32_t)id;
}

/* The end of a row segment written by print_run or put_utf8 from column x0 to x (exclusive; the last
 * character has width lastw, the last code point taken was last): half of a wide character left on either
 * side is blanked, then damage, the cursor (a pending wrap when the segment reached the right limit) and
 * what the next character may join. Inline in put_utf8 (once a line of non-ASCII text: the call, its stack
 * argument and its six saved registers were ~25 instructions of ~60), called by print_run. */
static inline __attribute__((always_inline)) void end_run(struct grid *g, struct line *l, int x0, uint32_t x,
							  uint32_t lastw, bool fix_left, uint32_t last)
{
	struct grid_cell *c = l->cells;
	const int right = grid__right_limit(g);
	l->flags &= ~LINE_ASCII;
	if (fix_left)
		grid__orphan_blank(g, &c[x0 - 1]);
	if ((int)x < g->cols && c[x].width == 0)
		grid__orphan_blank(g, &c[x]);
	grid__line_touch(l, (int)x);
	if (unlikely(g->sel.active))
		grid__select_touch(g, g->cy, g->cy);
	grid__damage_inline(g, g->cy, x0 - 1, (int)x + 1);
	g->last_x = (int)(x - lastw);
	g->last_y = g->cy;
	g->last_w = (int)lastw;
	g->gb_prev = last;
	g->gb_state = 0;
	g->last_cp = last;
	if ((int)x > right) {
		g->cx = right;
		g->wrap_pending = true; /* with or without autowrap (grid-internal.h) */
	} else {
		g->cx = (int)x;
	}
}

GRID_PAGE("utf8_seg") void grid__end_run(struct grid *g, struct line *l, int x0, uint32_t x, uint32_t lastw,
					 bool fix_left, uint32_t last)
{
	end_run(g, l, x0, x, lastw, fix_left, last);
}

/* For the text loop, before it attaches a ZWJ (or an emoji right after such a ZWJ) to the cell content
 * base, which was written by the same run: -1 when base is a full cluster (the code-point path then takes
 * it: what a full cluster drops still counts for the segmentation, see put_utf8), else whether the cluster
 * ends "ExtPict Extend*" (vt_grapheme_break's state before a ZWJ that lets an emoji after it join, GB11).
 * The cluster holds every code point of its run (none was dropped), so its content decides. */
#if defined(__GNUC__)
__attribute__((noinline)) GRID_PAGE("utf8")
#endif
static int emoji_join_state(const struct grid *g, uint32_t base)
{
	if (!(base & GRID_CP_CLUSTER))
		return (vt_char_props(base) & VT_PROP_EXTPICT) != 0;
	struct cluster tmp;
	const struct cluster *cl = grid__cluster(g, base, &tmp);
	if (!cl || cl->n >= CLUSTER_MAX_CPS)
		return -1;
	for (uint32_t i = cl->n; i-- > 0;) {
		unsigned pr = vt_char_props(cl->cp[i]);
		if (pr & VT_PROP_EXTPICT)
			return 1;
		if ((pr & 0x3cu) != (VT_PROP_MARK & 0x3cu))
			return 0;
	}
	return 0;
}

/* A wide character's two cells: {cp, style, link} and the rest (its width word, the second cell, a blank
 * of width 0 in the same style) as two stores; tail is wide_tail(hi). */
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef __m128i wide_tail_t;
static inline wide_tail_t wide_tail(uint64_t hi)
{
	_Static_assert(sizeof(struct grid_cell) == 12, "the tail is cell 0's last 4 bytes and cell 1");
	return _mm_set_epi64x((long long)(hi >> 32), 2);
}
static inline void put_wide(struct grid_cell *o, uint32_t cp, uint64_t hi, wide_tail_t tail)
{
	uint64_t a = cp | hi;
	memcpy(o, &a, 8);
	_mm_storeu_si128((__m128i *)(void *)((unsigned char *)o + 8), tail);
}
#else
typedef int wide_tail_t;
static inline wide_tail_t wide_tail(uint64_t hi)
{
	(void)hi;
	return 0;
}
static inline void put_wide(struct grid_cell *o, uint32_t cp, uint64_t hi, wide_tail_t tail)
{
	(void)tail;
	grid__put_cell(o, cp, hi, 2);
	grid__put_cell(o + 1, 0, hi, 0);
}
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define PUT_TEXT_ASM 1
#include "grid/grid-utf8-asm.h"
#else
/* The index into vt_utf8_pairs of the two bytes at p: ((b - 0xc0) << 8 | the next byte) when the first, b, is
 * 0xc1 or above, else b; *bp = b. For put_text's C loop (the x86-64 one is asm; its earlier asm form, a `rol`
 * and a `cmov`, and why: docs/benchmarks.md, issue 2, sessions 10-11). */
static inline uint64_t pair_index(const uint8_t *p, uint64_t *bp)
{
	uint64_t b = p[0];
	*bp = b;
	return b >= 0xc1 ? (b << 8 | p[1]) - 0xc000u : b;
}

/* The entry of vt_utf8_pairs at k in *e, and whether it is > 0 (a plain character of width 1), for the C loop. */
static inline bool pair_entry(uint64_t k, int32_t *e)
{
	*e = vt_utf8_pairs[k];
	return *e > 0;
}
#endif

/* *e &= 0x7ff; whether that left 0. The flag of the `and` itself, so that it costs no `test` (compilers make
 * one of the C form). */
static inline bool mark_bits(uint32_t *e)
{
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
	bool z;
	__asm__("andl $0x7ff, %[e]" : [e] "+r"(*e), "=@ccz"(z));
	return z;
#else
	*e &= 0x7ffu;
	return *e == 0;
#endif
}

/* A cell of width 1 in the style and link of lo ((hi >> 32) | 1 << 32: the cell's bytes 4-11) */
static inline void put_narrow(struct grid_cell *o, uint32_t cp, uint64_t lo)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(o, &cp, 4);
	memcpy((unsigned char *)o + 4, &lo, 8);
#else
	grid__put_cell(o, cp, lo << 32, 1);
#endif
}

/* The property byte of a code point >= U+0800 known to be below U+110000: the two-level table. */
static inline unsigned uprop_hi(uint32_t cp)
{
	return vt_uprop_blocks[vt_uprop_index[cp >> VT_UPROP_SHIFT]][cp & ((1u << VT_UPROP_SHIFT) - 1)];
}

/* What put_text returns: the first byte not taken, the cell after the last one written. */
struct text_end {
	const uint8_t *p;
	struct grid_cell *o;
};

/* The inner loop of put_utf8: decodes and writes the characters from p on while they are plain (Grapheme
 * class Other, width 1 or 2) and fit before cell oend, from cell o on, and attaches the characters of
 * class Extend (combining marks, VS16, emoji modifiers) to the one before; the character at p is known
 * to be plain and to fit. pend: the end of the bytes with 4 readable bytes after them. Returns the first byte not
 * taken and the cell after the last one written, as a pair in two registers (six arguments, all in
 * registers: a seventh went by the stack, and the column back through memory). Out of line so its values stay
 * in registers.
 *
 * Words of different scripts alternate within a line, and Latin words mix ASCII and two-byte letters at
 * random, so a loop per kind would leave its loop (a mispredicted branch) at nearly every change. One loop
 * takes printable ASCII, plain two-byte characters of width 1 (Latin, Greek, Cyrillic) and the combining
 * marks on them alike, from one table entry per character (vt_utf8_pairs) without a branch on the kind (on
 * x86-64 its asm also takes the three-byte wide words, CJK and kana, that come between); a
 * loop takes three-byte characters of width 2 (CJK and kana), and `have` takes one character of any other
 * kind (four-byte ones, emoji, width-1 three-byte ones) decoded by `other`. The per-kind ASCII and
 * two-byte loops remain for the last cells of a row. CJK Unified Ideographs skip the table. The decoder
 * checks only what the property table does not answer: what vt_utf8_char() refuses that gets through here
 * (C1 controls as UTF-8) has a property byte that is neither plain nor Extend (tests/vt/unicode.c checks
 * it). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
GRID_PAGE("utf8") static struct text_end put_text(struct grid *g, struct grid_cell *o, struct grid_cell *const oend,
						 const uint8_t *p, const uint8_t *pend, uint64_t hi)
{
	struct grid_cell *const oend2 = oend - 1;
	uint32_t b = p[0], c1, c2, cp, props;
	unsigned len;
	/* the character after a ZWJ that follows "ExtPict Extend*": an emoji there joins the cluster (GB11) */
	const uint8_t *zwj_end = NULL, *plim;
	const wide_tail_t tail = wide_tail(hi);
	const uint64_t lo = hi >> 32 | (uint64_t)1 << 32;
	/* the bytes the loop for one- and two-byte characters may take: no character takes more cells than
	 * bytes, so it needs no cell test of its own while p is below this */
	plim = (size_t)(pend - p) < (size_t)(oend - o) ? pend : p + (oend - o);
dispatch:
	if (b < 0xe0u)
		goto mixed;
lead3:
	c1 = p[1] - 0x80u;
	if (b - 0xe0u < 0x10u)
		goto three;
	goto other;
mixed:
	if (p >= plim) {
		/* plim is behind: the characters since took more bytes than cells */
		plim = (size_t)(pend - p) < (size_t)(oend - o) ? pend : p + (oend - o);
		if (p >= plim)
			goto slow;
	}
	/* one- and two-byte characters alike: the table entry (vt_utf8_pairs) is the code point when plain and
	 * of width 1, so ASCII and Latin, Greek or Cyrillic letters mixed in a word take no branch on their
	 * kind */
#if defined(PUT_TEXT_ASM)
	/* one asm loop (grid-utf8-asm.h: put_pairs_asm; why it is shaped so, there) */
	for (;;) {
		uint64_t k, bb;
		int32_t e;
		put_pairs_asm(&p, &o, &k, &bb, lo, plim, tail);
		e = utf8_pairs_le[k];
		if (e > 0) {
			/* plain, at plim; or a Greek letter U+0370..U+037F after the mark test */
			put_narrow(o++, (uint32_t)e, lo);
		} else {
			/* a combining mark's entry is its code point (U+0080..U+07FF) - 0x8000: never 0 in the
			 * low 11 bits, so the mask that takes the code point also tells it from an entry of 0 */
			uint32_t mark = (uint32_t)e;
			if (mark_bits(&mark)) {
				p -= 1 + bb;
				b = p[0];
				if (b >= 0xe0u)
					goto lead3;
				/* the CR at the end of a line: out without slow's tests */
				if (b < 0x20u)
					goto out;
				goto slow;
			}
			/* a combining mark: straight to its base */
			mark_on_last(g, o, mark);
		}
		if (p >= plim)
			break;
	}
#else
	for (;;) {
		uint64_t bb;
		int32_t e;
		if (unlikely(!pair_entry(pair_index(p, &bb), &e))) {
			/* a combining mark's entry is its code point (U+0080..U+07FF) - 0x8000: never 0 in the
			 * low 11 bits, so the mask that takes the code point also tells it from an entry of 0 */
			uint32_t mark = (uint32_t)e;
			if (mark_bits(&mark)) {
				b = (uint32_t)bb;
				if (b >= 0xe0u)
					goto lead3;
				goto slow;
			}
			/* a combining mark: straight to its base */
			mark_on_last(g, o, mark);
		} else {
			put_narrow(o++, (uint32_t)e, lo);
		}
		p += 1 + (bb >> 7);
		if (p >= plim)
			break;
	}
#endif
	if (p >= pend)
		goto out;
	b = p[0];
	goto mixed;
slow:
	/* the row's last cells, and what the table does not take: a character at a time below */
	if (b - 0x20u < 0x5fu)
		goto ascii;
not_ascii:
	c1 = p[1] - 0x80u; /* continuation bytes are 0x80..0xbf: their payload; anything else wraps to >= 0x40 */
	if (b - 0xc2u < 0x1eu)
		goto two;
	if (b - 0xe0u < 0x10u)
		goto three;
	goto other;
ascii:
	for (;;) {
		if (unlikely(o >= oend))
			goto out;
		grid__put_cell(o++, b, hi, 1);
		if (unlikely(++p >= pend))
			goto out;
		b = p[0];
		if (b - 0x20u >= 0x5fu)
			goto not_ascii;
	}
two:
	for (;;) {
		if (c1 >= 0x40)
			goto out;
		cp = (b - 0xc0u) << 6 | c1;
		props = vt_uprop_low[cp];
		len = 2;
		if (props != 1 || o >= oend) {
			/* a combining mark (U+0300..U+036F and the like) straight to its base */
			if (props == VT_PROP_MARK)
				goto attach;
			goto have;
		}
		grid__put_cell(o++, cp, hi, 1);
		if (unlikely((p += 2) >= pend))
			goto out;
		b = p[0];
		c1 = p[1] - 0x80u;
		if (b - 0xc2u >= 0x1eu)
			goto dispatch;
	}
three:
	for (;;) {
		c2 = p[2] - 0x80u;
		cp = (b & 0x0fu) << 12 | c1 << 6 | c2;
		if (likely(cp - 0x4e00u < 0xa000u - 0x4e00u) && (c1 | c2) < 0x40) {
			/* CJK Unified Ideographs: all wide, class Other, not pictographic */
			props = 2;
			len = 3;
			goto cjk;
		}
		/* not overlong (< U+0800), not a surrogate (the table gives those width 1) */
		if ((c1 | c2) >= 0x40 || cp < 0x800 || cp >> 11 == 0xd800u >> 11)
			goto out;
		props = uprop_hi(cp);
		len = 3;
		if (props != 2)
			goto have;
cjk:
		if (o >= oend2)
			goto have;
		put_wide(o, cp, hi, tail);
		o += 2;
		if (unlikely((p += 3) >= pend))
			goto out;
		b = p[0];
		c1 = p[1] - 0x80u;
		if (b - 0xe0u >= 0x10u) {
			/* a branch of its own: after CJK comes mostly a space */
			if (likely(b < 0xe0u))
				goto mixed;
			goto other;
		}
	}
other:
	if (b - 0xf0u >= 0x05u)
		goto out;
	c2 = p[2] - 0x80u;
	uint32_t c3 = p[3] - 0x80u;
	cp = (b & 0x07u) << 18 | c1 << 12 | c2 << 6 | c3;
	/* U+10000..U+10FFFF only: rejects overlong forms and what lies above */
	if ((c1 | c2 | c3) >= 0x40 || cp - 0x10000u >= 0x100000u)
		goto out;
	props = uprop_hi(cp);
	len = 4;
have:
	/* one character of any kind: cp, props, len */
	if ((props & 0x3fu) - 1u < 2u) {
		uint32_t w = props & 0x3fu;
		if (unlikely(p == zwj_end) && (props & VT_PROP_EXTPICT))
			goto join;
		if (o + w > oend)
			goto out;
		if (w == 2)
			put_wide(o, cp, hi, tail);
		else
			grid__put_cell(o, cp, hi, 1);
		o += w;
	} else {
		/* Extend (GB9: never a break before it): combining marks, VS16, emoji modifiers, halfwidth
		 * sound marks; the base is the last character written (the first one always is). One with a
		 * width joins only an emoji (vt_grapheme_break): else the code-point path gives it its cells */
		if ((props & 0x7cu) == (VT_PROP_MARK & 0x3cu)) {
			if (unlikely(props & 3u) && emoji_join_state(g, o[-1 - (o[-1].width == 0)].cp) <= 0)
				goto out;
		} else {
			if ((props & 0x7cu) != VT_PROP_ZWJ_CLASS)
				goto out;
			/* ZWJ: attached as Extend is (GB9); whether an emoji after it joins too depends on
			 * what the cluster ends with */
			int st = emoji_join_state(g, o[-1 - (o[-1].width == 0)].cp);
			if (st < 0)
				goto out;
			if (st)
				zwj_end = p + len;
		}
		goto attach;
	}
	goto next;
join:
	/* an emoji after "ExtPict Extend* ZWJ" (GB11): part of that cluster, when it has room */
	if (emoji_join_state(g, o[-1 - (o[-1].width == 0)].cp) < 0)
		goto out;
attach: {
	struct grid_cell *base = o - 1 - (o[-1].width == 0);
	if (!mark_cached(g, base, cp))
		grid__attach_mark(g, base, cp);
}
next:
	if (unlikely((p += len) >= pend))
		goto out;
	b = p[0];
	goto dispatch;
out:
	return (struct text_end){.p = p, .o = o};
}

/* The last code point of the valid UTF-8 (or ASCII) that ends right before p. */
static uint32_t last_cp(const uint8_t *p)
{
	if (p[-1] < 0x80)
		return p[-1];
	if (p[-2] >= 0xc0)
		return (p[-2] & 0x1fu) << 6 | (p[-1] & 0x3fu);
	if (p[-3] >= 0xc0)
		return (p[-3] & 0x0fu) << 12 | (p[-2] & 0x3fu) << 6 | (p[-1] & 0x3fu);
	return (p[-4] & 0x07u) << 18 | (p[-3] & 0x3fu) << 12 | (p[-2] & 0x3fu) << 6 | (p[-1] & 0x3fu);
}

/* The segmentation state (vt_grapheme_break) after the cluster in cell content cp, when it begins with an
 * emoji (then a ZWJ and another emoji may still join it, GB11); else 0, which says the same as the
 * state derived from its last code point alone. A direct cluster begins with an ASCII character, never
 * Extended_Pictographic: 0 without decoding it. */
static uint32_t cluster_state(const struct grid *g, uint32_t cp)
{
	_Static_assert(CLUSTER_AM_BASE >= 0x20u && CLUSTER_AM_BASE + CLUSTER_AM_SLOTS / CLUSTER_AM_MARKS <= 0x80u,
		       "direct clusters' bases are ASCII");
	if ((cp & (GRID_CP_CLUSTER | CLUSTER_DIRECT)) == (GRID_CP_CLUSTER | CLUSTER_DIRECT))
		return 0;
	struct cluster tmp;
	const struct cluster *cl = (cp & GRID_CP_CLUSTER) ? grid__cluster(g, cp, &tmp) : NULL;
	if (!cl || !(vt_char_props(cl->cp[0]) & VT_PROP_EXTPICT))
		return 0;
	uint32_t st = 0;
	for (uint32_t i = 1; i < cl->n; i++)
		(void)vt_grapheme_break(cl->cp[i - 1], cl->cp[i], &st);
	return st;
}

/* Cells [x, end) of c blanked (default blanks), where end - x is small (what the next line leaves of the line
 * before it on a recycled row): eight cells (six vectors) a step by a pointer (an index cost three `lea`s a
 * step), then four, the last four ending at end. */
static inline void blank_rest(struct grid_cell *c, uint32_t x, uint32_t end)
{
#if defined(GRID_HAVE_FILL_SSE)
	if (x + 4 <= end) {
		struct grid_cell *q = c + x, *const e = c + end;
		for (; e - q > 8; q += 8) {
			grid__fill4_blanks(q);
			grid__fill4_blanks(q + 4);
		}
		if (e - q > 4)
			grid__fill4_blanks(q);
		grid__fill4_blanks(e - 4);
		return;
	}
#endif
	for (; x < end; x++)
		c[x] = (struct grid_cell){.cp = 0, .style = 0, .link = 0, .width = 1, .flags = 0};
}

/* The row segment of grid__print_utf8: print_run over UTF-8 bytes, decoded as they are stored. The
 * character at p is plain, joins nothing before it and fits at the cursor, which has no wrap pending;
 * pend: the end of the bytes that have 4 readable bytes. stale: cells [0, stale) of the row still hold a
 * line pushed to the scrollback (grid__newline_deferred; then the cursor is at column 0): those the text
 * does not cover are blanked. Returns the first byte not consumed. */
static const uint8_t *put_utf8(struct grid *g, const uint8_t *p, const uint8_t *pend, uint32_t stale)
{
	const int right = grid__right_limit(g), x0 = g->cx;
	struct line *l = grid__line(g, g->cy);
	struct grid_cell *c = l->cells;
	/* x0 != 0, not x0 > 0 (the cursor is never left of 0): a signed test after `test` costs an emulated guest
	 * a call of TCG's flag helper (docs/benchmarks.md, issue 2, session 10) */
	const bool fix_left = x0 != 0 && c[x0].width == 0;
	const uint64_t hi = (uint64_t)grid__cur_style(g) << 32 | (uint64_t)g->link << 48;
	uint32_t x = (uint32_t)x0;
	const uint8_t *const p0 = p;
	const struct text_end te = put_text(g, c + x, c + right + 1, p, pend, hi);
	p = te.p;
	x = (uint32_t)(te.o - c);
	/* before grid__end_run, which reads the cell after the text */
	if (stale > x)
		blank_rest(c, x, stale);
	/* a hint for the scrollback: not worth a packing attempt when not ASCII alone (fewer cells than
	 * bytes) */
	if ((size_t)(p - p0) != x - (uint32_t)x0)
		l->flags |= LINE_UNPACKABLE;
	/* the last cell written holds the last character; the last code point taken is its content unless
	 * that is a cluster (then a mark or more came after it): a test on the cell, right after writing it,
	 * instead of last_cp's branches on the last character's length (ASCII, a letter, CJK or an emoji
	 * ends a line about as often: ~1 mispredict a line) */
	uint32_t lastw = 1u + (c[x - 1].width == 0);
#if defined(__GNUC__)
	/* a value, not a branch: whether a line ends with a wide character is a coin toss (~0.35 mispredicts
	 * a line) */
	__asm__("" : "+r"(lastw));
#endif
	const uint32_t lc = c[x - lastw].cp;
	const bool cluster = lc & GRID_CP_CLUSTER;
	const uint32_t last = likely(!cluster) ? lc : last_cp(p);
	/* or what joined the cell was dropped, out of memory (grid__attach_mark): the cell holds its base alone,
	 * which REP repeats and the next mark joins (the code-point path's last_cp would be the mark, which REP
	 * resolves to the same base; only a ZWJ sequence's segmentation right after it may differ) */
	assert(last == last_cp(p) || (!cluster && g->joins_dropped));
	end_run(g, l, x0, x, lastw, fix_left, last);
	/* after an Extend or a ZWJ the state depends on more than the last code point (after an emoji that
	 * joined a cluster it does not: "ExtPict", as derived from the emoji alone). Only a cluster can end so:
	 * a cell of its own holds a plain character (class Other), for which end_run's state 0 is right, with
	 * no look-up of its properties (~0.4 mispredicted branches a line on whether it is >= U+0800). */
	if (unlikely(cluster)) {
		unsigned lp = vt_char_props(last) & 0x3cu;
		if (lp == (VT_PROP_MARK & 0x3cu) || lp == VT_PROP_ZWJ_CLASS)
			g->gb_state = cluster_state(g, lc);
	}
	return p;
}

/* A combining mark at the start of grid__print_utf8's text, on the character printed just before it (by
 * print_ascii, say: "n" then U+0359): attached as print_cps would (vt_grapheme_break never breaks before
 * Extend, GB9), when that character is plain and no emoji and the segmentation state knows nothing more
 * (then the state after the mark is the one derived from the mark alone, as 0 says), and the cursor is
 * right after it. Returns false, doing nothing, otherwise. Cold and out of line (rare), so that
 * grid__print_utf8's hot paths fit fewer code pages (a TB look-up per crossing in the TCG guests). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static bool lead_mark(struct grid *g, uint32_t cp)
{
	if (g->last_x < 0 || g->last_y != g->cy || g->wrap_pending || g->gb_state != 0 ||
	    g->cx != g->last_x + g->last_w)
		return false;
	unsigned bp = vt_char_props(g->gb_prev);
	if ((bp & 0x3fu) - 1 >= 2 || bp & VT_PROP_EXTPICT || g->gb_prev >= 0x110000)
		return false;
	struct line *l = grid__line(g, g->cy);
	struct grid_cell *c = &l->cells[g->last_x];
	if (c->cp == 0 || c->width == 0)
		return false;
	l->flags &= ~LINE_ASCII;
	grid__attach_mark(g, c, cp);
	g->gb_prev = cp;
	if (g->last_cp) /* REP stays disarmed after a control (grid__print) */
		g->last_cp = cp;
	grid__damage(g, g->cy, g->last_x, g->last_x + c->width);
	return true;
}

/* The marks after the one lead_mark took, on the same cell: p is past the first. Returns the first byte
 * after them. Cold and out of line, as lead_mark. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static const uint8_t *more_marks(struct grid *g, const uint8_t *p, const uint8_t *pend)
{
	struct grid_cell *c = &grid__line(g, g->cy)->cells[g->last_x];
	uint32_t cp;
	unsigned props, len;
	while (p < pend && (len = vt_utf8_char(p, &cp, &props)) && props == VT_PROP_MARK) {
		grid__attach_mark(g, c, cp);
		g->gb_prev = cp;
		if (g->last_cp)
			g->last_cp = cp;
		p += len;
	}
	return p;
}

/* Whether the text at q (up to end) has a byte >= 0x80 in its first 16 bytes: a line of mixed text, which
 * the loop here writes faster than the parser's hand-over to print_ascii and back would; a line of ASCII
 * alone is left to print_ascii's vector writer. */
static inline bool non_ascii_soon(const uint8_t *q, const uint8_t *end)
{
#if defined(__SSE2__)
	/* no test of q[0] alone first: whether the next line starts with ASCII is a coin toss */
	if (likely(end - q >= 16))
		return _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)q)) != 0;
#else
	(void)end;
#endif
	return q[0] >= 0x80;
}

/* The text PREFETCH_AHEAD bytes after p (two cache lines: a row segment of this path takes ~80 bytes on
 * average), asked for once a row segment. Text fed from a buffer that is not in the caches (a large feed:
 * the core benchmark's 16 MiB, read from memory) otherwise stalls put_text's loads at every new cache line:
 * the hardware's prefetch did not keep ahead of it with a scrollback's streaming stores going on (+12-19 %
 * MB/s on unicode, docs/benchmarks.md, issue 2, session 13). From a PTY the text is in the caches already
 * and this costs two instructions a row. The address is computed as an integer: it may lie past the end of
 * the text, which a prefetch never faults on. */
#define PREFETCH_AHEAD 2048u
static inline void prefetch_text(const uint8_t *p)
{
#if defined(__GNUC__)
	const uintptr_t a = (uintptr_t)p + PREFETCH_AHEAD;
	__builtin_prefetch((const void *)a);
	__builtin_prefetch((const void *)(a + 64));
#else
	(void)p;
#endif
}

/* vt_sink.print_utf8: UTF-8 text decoded and written in one pass, row segment by row segment, while it is
 * what print_run takes (plain characters and marks on them; a full row wraps here). Stops before anything
 * else and returns the bytes consumed; the parser decodes the rest and hands it to grid__print. */
GRID_PAGE("utf8_seg") size_t grid__print_utf8(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	if (n < 4 || g->print_mapped)
		return 0;
	const uint8_t *p = s, *const pend = s + n - 3;
	/* cells of the bottom row left to blank by a line feed here (grid__newline_deferred): the next row
	 * segment blanks what it does not write, or they are blanked on the way out */
	uint32_t stale = 0;
	while (p < pend) {
		uint32_t cp, w;
#if defined(PUT_TEXT_ASM)
		/* the first character, when plain, of width 1 and of one or two bytes, by put_text's table
		 * entry: one branch where vt_utf8_char takes two or three on the length, a coin toss at a row
		 * segment's start (~0.85 mispredicted a segment) */
		uint16_t k2;
		memcpy(&k2, p, sizeof(k2));
		const int32_t e0 = utf8_pairs_le[k2];
		if (e0 > 0) {
			cp = (uint32_t)e0;
			w = 1;
			goto plain;
		}
#endif
		unsigned props, len = vt_utf8_char(p, &cp, &props);
		if (!len)
			break;
		w = props & 0x3fu;
		if (w - 1 >= 2) {
			if (props != VT_PROP_MARK || !lead_mark(g, cp))
				break;
			p = more_marks(g, p + len, pend);
			continue;
		}
#if defined(PUT_TEXT_ASM)
	plain:
#endif
		if (g->last_x >= 0 && grid__may_join(g->gb_prev, cp)) {
			/* only the slow path may change the segmentation state */
			uint32_t st = g->gb_state;
			if (!vt_grapheme_break(g->gb_prev, cp, &st))
				break;
		}
		if (g->wrap_pending) {
			if (!g->autowrap)
				break;
			grid__do_wrap(g);
		}
		if (g->cx + (int)w > grid__right_limit(g) + 1)
			break;
		prefetch_text(p);
		p = put_utf8(g, p, pend, stale);
		stale = 0;
		/* the end of a line, CR LF, with more text after it: done here exactly as the parser would
		 * have it done (grid__execute's CR, then its LF), then on with that text (vt_sink.print_utf8
		 * allows this) */
		while (p + 2 < pend && p[0] == '\r' && p[1] == '\n' && non_ascii_soon(p + 2, pend + 3)) {
			/* an empty line (CR LF again): the row is blanked as on the way out, then pushed in
			 * turn, instead of a return to the parser and its CR and LF */
			if (unlikely(stale))
				blank_rest(grid__line_raw(g, g->cy)->cells, 0, stale);
			g->last_cp = 0;
			g->cx = grid__cr_col(g);
			g->wrap_pending = false;
			stale = (uint32_t)grid__newline_deferred(g);
			p += 2;
		}
	}
	if (unlikely(stale))
		blank_rest(grid__line_raw(g, g->cy)->cells, 0, stale);
	return (size_t)(p - s);
}
