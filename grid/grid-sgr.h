/* grid/grid-sgr.h: what grid-sgr.c (SGR from the parsed parameters) and grid-sgr-bytes.c (SGR straight from
 * the sequence's bytes) share: the change an SGR makes to the pen, the table of plain SGR codes and the loop
 * over them, applying a change to the pen. Internal to grid/. */
#ifndef GRID_SGR_H
#define GRID_SGR_H

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

/* What one SGR sequence does to the pen, whatever the pen was: attrs become (attrs & attr_and) | attr_or,
 * and the fields flagged in set take the values here. A sequence is parsed into this once; the parser's
 * seq_id lets a repeated sequence skip the parsing (grid.sgr_memo). */
enum {
	X_FG = 1 << 0,
	X_BG = 1 << 1,
	X_UL = 1 << 2,        /* underline colour */
	X_UNDERLINE = 1 << 3, /* underline style */
};

/* What each SGR code without sub-parameters does, for sgr_plain: attributes cleared and set, and one field of
 * the pen given a value (F_EXT: the colour in the following parameters goes to field val). Codes from 128
 * on, and those not listed, do nothing (as in sgr_one). */
enum { F_NONE, F_FG, F_BG, F_UL, F_US, F_EXT, F_RESET };
struct sgr_code {
	uint32_t val;
	uint16_t clear, on;
	uint8_t field;
};
extern const struct sgr_code grid__sgr_codes[128];

/* The value of the len (0 to 4) digits s[st..st + len), 0 for none (SGR reads an empty parameter as 0), from
 * one 4-byte load (s[st..st + 4) readable): the digits less '0' moved to the top of the word (digits_top: a
 * multiply by a power of 256 from a table, one instruction, where a shift by 32 - 8 * len takes four), then
 * pairs, then the two pairs combined (digits_join). */
static inline uint32_t digits_top(const uint8_t *s, unsigned len)
{
	static const uint32_t to_top[5] = {0, 1u << 24, 1u << 16, 1u << 8, 1};
	uint32_t w;
	memcpy(&w, s, 4);
	return (w ^ 0x30303030u) * to_top[len];
}

/* digits_top's word (each of its bytes 0..9) as a number: pairs, then the two pairs combined */
static inline uint32_t digits_join(uint32_t x)
{
	x = (x * 10 + (x >> 8)) & 0x00ff00ffu;
	return (x * (1u + (100u << 16))) >> 16;
}

static inline uint32_t digits_at(const uint8_t *s, unsigned st, unsigned len)
{
	return digits_join(digits_top(s + st, len));
}

/* The parameters of a plain SGR, one after the other: parsed ones (v[0..n), VT_PARAM_DEFAULT or
 * 0..VT_PARAM_MAX), or straight from the bytes of the sequence (s: digits and ';', no number longer than 4
 * digits, s[0..end + 4) readable; ends: a bit per field's end, each ';' and the end). */
struct plain_src {
	const int32_t *v;
	const uint8_t *s;
	uint32_t ends;
	unsigned i, n; /* the next parameter (v) or the start of the next field (s) */
};

/* At least k parameters left (bytes: constant; the compiler makes two versions of sgr_plain_from) */
static inline __attribute__((always_inline)) bool src_has(const struct plain_src *p, bool bytes, unsigned k)
{
	if (!bytes)
		return p->i + k <= p->n;
	uint32_t t = p->ends;
	for (unsigned j = 1; j < k; j++)
		t &= t - 1;
	return t != 0;
}

/* The next parameter, an empty one (VT_PARAM_DEFAULT, or no digits) as empty: 0 for an SGR code (what every
 * code makes of it), 256 for a part of a colour (38;5;n, 38;2;r;g;b: out of range, so the colour is dropped,
 * as xterm drops it; conformance case sgr-empty-color) */
static inline __attribute__((always_inline)) uint32_t src_take(struct plain_src *p, bool bytes, uint32_t empty)
{
	if (!bytes) {
		int32_t c = p->v[p->i++];
		return c < 0 ? empty : (uint32_t)c;
	}
	unsigned e = (unsigned)__builtin_ctz(p->ends);
	p->ends &= p->ends - 1;
	uint32_t c = digits_at(p->s, p->i, e - p->i) | (e == p->i ? empty : 0);
	p->i = e + 1;
	return c;
}
#define src_next(p, bytes) src_take(p, bytes, 0)
#define src_part(p, bytes) src_take(p, bytes, 256)

/* What sgr_plain_run works on: the fields by F_* (f[F_NONE] takes the writes of codes that set none), the
 * attributes as and/or masks, and which fields were set (the last two only when tracked). */
struct plain_state {
	uint32_t f[5];
	unsigned set;
	uint16_t and_, or_;
};

/* sgr_one's loop over parameters without sub-parameters, from the table above: one load and a few stores per
 * code instead of a jump through a switch. track: keep and_ and set (a change of any pen, sgr_xform);
 * without it, or_ and f are the pen's own attributes and fields, changed in place. */
static inline __attribute__((always_inline)) void sgr_plain_run(struct plain_state *st, struct plain_src *p,
								 bool bytes, bool track)
{
	uint32_t *f = st->f;
	unsigned set = st->set;
	uint16_t and_ = st->and_, or_ = st->or_;
	while (src_has(p, bytes, 1)) {
		uint32_t c = src_next(p, bytes);
		const struct sgr_code *e = &grid__sgr_codes[c > 127 ? 127 : c];
		if (likely(e->field < F_EXT)) {
			if (track) {
				and_ &= (uint16_t)~e->clear;
				set |= (1u << e->field) >> 1; /* F_FG..F_US are X_FG..X_UNDERLINE */
			}
			or_ = (uint16_t)((or_ & ~e->clear) | e->on);
			f[e->field] = e->val;
			continue;
		}
		if (e->field == F_RESET) {
			and_ = or_ = 0;
			f[F_FG] = f[F_BG] = f[F_UL] = f[F_US] = 0;
			set = X_FG | X_BG | X_UL | X_UNDERLINE;
			continue;
		}
		/* 38, 48, 58 as ext_color reads them: ;5;n or ;2;r;g;b, a missing part ends the sequence */
		if (!src_has(p, bytes, 1))
			break;
		uint32_t kind = src_next(p, bytes), color;
		bool ok;
		if (kind == 5) {
			if (!src_has(p, bytes, 1))
				break;
			uint32_t k = src_part(p, bytes);
			color = GRID_COLOR_PALETTE(k);
			ok = k < 256;
		} else if (kind == 2) {
			if (!src_has(p, bytes, 3))
				break;
			uint32_t r = src_part(p, bytes), g = src_part(p, bytes), b = src_part(p, bytes);
			color = GRID_COLOR_RGB(r, g, b);
			ok = (r | g | b) < 256;
		} else {
			continue;
		}
		if (ok) {
			f[e->val] = color;
			if (track)
				set |= 1u << (e->val - 1);
		}
	}
	st->set = set;
	st->and_ = and_;
	st->or_ = or_;
}

/* The change of the pen the parameters make, into x */
static inline __attribute__((always_inline)) void sgr_plain_from(struct sgr_xform *x, struct plain_src *p,
								  bool bytes)
{
	struct plain_state st = {{0, x->fg, x->bg, x->ul_color, x->underline}, x->set, x->attr_and, x->attr_or};
	sgr_plain_run(&st, p, bytes, true);
	x->fg = st.f[F_FG];
	x->bg = st.f[F_BG];
	x->ul_color = st.f[F_UL];
	x->underline = (uint8_t)st.f[F_US];
	x->set = (uint8_t)st.set;
	x->attr_and = st.and_;
	x->attr_or = st.or_;
}

/* x as kept: the masks of its fields, built once per memo entry */
_Static_assert(offsetof(struct grid_style, bg) == 4 && offsetof(struct grid_style, ul_color) == 8 &&
		       offsetof(struct grid_style, attrs) == 12 && offsetof(struct grid_style, underline) == 14,
	       "the pen's two words");
static inline void sgr_change_of(const struct sgr_xform *x, struct sgr_change *c)
{
	const uint64_t set = x->set;
	/* all ones in the bits of each field x sets */
	const uint64_t s0 = ((0 - (set & X_FG)) & 0xffffffffull) | (0 - (set >> 1 & 1)) << 32;
	const uint64_t s1 = ((0 - (set >> 2 & 1)) & 0xffffffffull) | ((0 - (set >> 3 & 1)) & 0xff) << 48;
	c->keep[0] = ~s0;
	c->val[0] = ((uint64_t)x->fg | (uint64_t)x->bg << 32) & s0;
	c->keep[1] = ~s1 & ~((uint64_t)(uint16_t)~x->attr_and << 32);
	c->val[1] = (((uint64_t)x->ul_color | (uint64_t)x->underline << 48) & s1) | (uint64_t)x->attr_or << 32;
}

/* c applied to the pen as its two 8-byte words, without a branch on which fields it sets (colour-per-cell
 * output changes fg, bg or both in no order a predictor learns): pen_same's and grid__pen_id's 8-byte loads
 * of the words right after then take them from the store buffer, where after field-wide stores (4, 2 and 1
 * bytes) they waited for the stores to reach the cache (store-to-load forwarding fails on a load that spans
 * several stores or part of one): a third of dense_cells' time in sgr_bytes_long went to that wait. */
static inline void sgr_change_apply(struct grid *g, const struct sgr_change *c, bool sets_bg)
{
	uint64_t p0, p1;
	memcpy(&p0, &g->pen, 8);
	memcpy(&p1, (const char *)&g->pen + 8, 8);
	p0 = (p0 & c->keep[0]) | c->val[0];
	p1 = (p1 & c->keep[1]) | c->val[1];
	memcpy(&g->pen, &p0, 8);
	memcpy((char *)&g->pen + 8, &p1, 8);
	g->erase_dirty |= sets_bg;
	g->pen_dirty = true;
}

static inline void sgr_apply(struct grid *g, const struct sgr_xform *x)
{
	struct sgr_change c;
	sgr_change_of(x, &c);
	sgr_change_apply(g, &c, x->set & X_BG);
}

_Static_assert(sizeof(struct sgr_memo) == 64, "memo entry layout");
_Static_assert(sizeof(struct grid_style) == 16, "pen_same compares 16 bytes");

static inline bool pen_same(const struct grid_style *a, const struct grid_style *b)
{
	/* all 16 bytes: padding that differs only makes a false miss, then the pen is interned */
	uint64_t a0, a1, b0, b1;
	memcpy(&a0, a, 8);
	memcpy(&a1, (const char *)a + 8, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, (const char *)b + 8, 8);
	return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/* The SGR bytes' classification, shared by grid-sgr-bytes.c and grid-sgr-long.c */
#if defined(__SSE2__) && defined(__GNUC__)
/* Bit k set when byte k of v is a digit: v - '0' below 10, as a signed compare after moving the range to the
 * bottom. */
static inline unsigned digit_mask(__m128i v)
{
	return (unsigned)_mm_movemask_epi8(
		_mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)0x50)), _mm_set1_epi8((char)(0x80 + 10))));
}

static inline unsigned byte_mask(__m128i v, char c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}
#endif


/* The bytes s[0..n) (n < 32, s[0..32) readable) as a bit per digit, ';' and ':'. The second vector only
 * for 16 bytes or more. */
static inline __attribute__((always_inline)) void classify(const uint8_t *s, unsigned n, unsigned *dig,
							   unsigned *semi, unsigned *colon)
{
	const unsigned lim = (1u << n) - 1;
#if defined(__SSE2__) && defined(__GNUC__)
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
	unsigned d = digit_mask(a), sc = byte_mask(a, ';'), c = byte_mask(a, ':');
	if (n >= 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
		d |= digit_mask(b) << 16;
		sc |= byte_mask(b, ';') << 16;
		c |= byte_mask(b, ':') << 16;
	}
#else
	unsigned d = 0, sc = 0, c = 0;
	for (unsigned k = 0; k < n; k++) {
		d |= (unsigned)((unsigned)s[k] - '0' < 10) << k;
		sc |= (unsigned)(s[k] == ';') << k;
		c |= (unsigned)(s[k] == ':') << k;
	}
#endif
	*dig = d & lim, *semi = sc & lim, *colon = c & lim;
}

/* The SGR s[0..n) (n < 32, s[0..32) readable) when its parameters are digits and ';' only, each number of at
 * most 4 digits: its parameters for sgr_plain_run (s itself, or a copy in pad with room for the numbers'
 * loads), true. False for anything else: sub-parameters, longer numbers (the parser clamps them), markers,
 * intermediates, controls. */
static inline __attribute__((always_inline)) bool plain_fields(const uint8_t *s, unsigned n, uint8_t pad[36],
								struct plain_src *p)
{
	unsigned dig, semi, colon;
	classify(s, n, &dig, &semi, &colon);
	/* a run of five digits: two runs of two, two apart, and one more (5 operations, not 8) */
	const unsigned d2 = dig & dig >> 1, d4 = d2 & d2 >> 2;
	if ((dig | semi) != (1u << n) - 1 || (d4 & dig >> 4))
		return false;
	if (n > 28) {
		/* a number's 4-byte load at s[st], st <= n, stays in a copy with 4 more bytes */
		memcpy(pad, s, 32);
		memset(pad + 32, 0, 4);
		s = pad;
	}
	*p = (struct plain_src){.s = s, .ends = semi | 1u << n};
	return true;
}

/* grid-sgr-long.c: a plain SGR of 17 to 31 bytes decoded and applied without grid.sgr_long (s[0..32)
 * readable, n before the 'm'); and grid-sgr-bytes.c's path through that table for the plain SGRs it samples */
size_t grid__sgr_long_direct(struct grid *g, const uint8_t *s, unsigned n);
size_t grid__sgr_bytes_long_plain(struct grid *g, const uint8_t *s, unsigned n);

/* grid__sgr_long_direct with every number read at once by AVX-512 VBMI/VBMI2 (grid-sgr-long.c), taken by
 * grid-sgr-bytes.c's AVX-512 colour entry where grid__sgr_long_512 is set (by the CPU, at start-up) */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__) && defined(__ELF__)
#include <immintrin.h>
#define GRID_SGR_LONG_512 1
#define LONG_512_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt"
extern bool grid__sgr_long_512;
size_t grid__sgr_long_direct_512(struct grid *g, const uint8_t *s, unsigned n);
#endif

#endif
