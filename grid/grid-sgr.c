/* grid/grid-sgr.c: SGR ("CSI Pm m"), from the parsed parameters and straight from the sequence's bytes.
 *
 * SGR follows xterm's ctlseqs and ITU T.416 for the colon forms: 38:2:Pi:r:g:b (colour space id, possibly
 * empty, as in `38:2::r:g:b`), 38:2:r:g:b (the common short form), 38:5:n, and the semicolon forms 38;2;r;g;b
 * and 38;5;n. 4:0..4:5 select underline styles (kitty/VTE); 58/59 the underline colour. An SGR only changes
 * the pen; grid-style.c turns the pen into a style id at the next print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

static inline int param(const struct vt_csi *csi, unsigned i)
{
	int v = i < csi->n_params ? csi->params[i] : 0;
	return v < 0 ? 0 : v;
}

/* subs: the sequence has sub-parameters at all; callers pass a constant so the common case (none) gets a
 * loop without the checks. */
#define is_sub(csi, i) (subs && (i) < (csi)->n_params && (i) < 32 && ((csi)->sub_mask >> (i) & 1u))

/* Parses the colour after 38/48/58 at index i; returns the index of the next parameter. *ok is false when
 * the colour is malformed (then nothing changes, as in xterm). */
static inline __attribute__((always_inline)) unsigned ext_color(const struct vt_csi *csi, unsigned i,
								 uint32_t *out, bool *ok, bool subs)
{
	unsigned n = csi->n_params;
	*ok = false;
	if (is_sub(csi, i + 1)) {
		/* colon form: everything up to the next non-sub parameter belongs to this colour */
		unsigned j = i + 1;
		while (j < n && is_sub(csi, j))
			j++;
		unsigned subs = j - (i + 1);
		int kind = param(csi, i + 1);
		if (kind == 5 && subs >= 2) {
			*out = GRID_COLOR_PALETTE(param(csi, i + 2));
			*ok = param(csi, i + 2) < 256;
		} else if (kind == 2 && subs >= 4) {
			unsigned b = subs >= 5 ? i + 3 : i + 2; /* 38:2:Pi:r:g:b or 38:2:r:g:b */
			*out = GRID_COLOR_RGB(param(csi, b), param(csi, b + 1), param(csi, b + 2));
			*ok = param(csi, b) < 256 && param(csi, b + 1) < 256 && param(csi, b + 2) < 256;
		} else if (kind == 2 && subs == 3) {
			*out = GRID_COLOR_RGB(0, 0, 0);
			*ok = false;
		}
		return j;
	}
	if (i + 1 >= n)
		return n;
	int kind = param(csi, i + 1);
	if (kind == 5) {
		if (i + 2 >= n)
			return n;
		*out = GRID_COLOR_PALETTE(param(csi, i + 2));
		*ok = param(csi, i + 2) < 256;
		return i + 3;
	}
	if (kind == 2) {
		if (i + 4 >= n)
			return n;
		*out = GRID_COLOR_RGB(param(csi, i + 2), param(csi, i + 3), param(csi, i + 4));
		*ok = param(csi, i + 2) < 256 && param(csi, i + 3) < 256 && param(csi, i + 4) < 256;
		return i + 5;
	}
	return i + 2;
}

/* What one SGR sequence does to the pen, whatever the pen was: attrs become (attrs & attr_and) | attr_or,
 * and the fields flagged in set take the values here. A sequence is parsed into this once; the parser's
 * seq_id lets a repeated sequence skip the parsing (grid.sgr_memo). */
enum {
	X_FG = 1 << 0,
	X_BG = 1 << 1,
	X_UL = 1 << 2,        /* underline colour */
	X_UNDERLINE = 1 << 3, /* underline style */
};

static inline void x_attr_on(struct sgr_xform *x, uint16_t a)
{
	x->attr_or |= a;
}

static inline void x_attr_off(struct sgr_xform *x, uint16_t a)
{
	x->attr_and &= (uint16_t)~a;
	x->attr_or &= (uint16_t)~a;
}

static inline void x_underline(struct sgr_xform *x, unsigned u)
{
	x->set |= X_UNDERLINE;
	x->underline = (uint8_t)u;
}

static inline void x_reset(struct sgr_xform *x)
{
	*x = (struct sgr_xform){.set = X_FG | X_BG | X_UL | X_UNDERLINE};
}

static inline __attribute__((always_inline)) unsigned sgr_one(struct sgr_xform *x, const struct vt_csi *csi,
							       unsigned i, bool subs)
{
	int v = param(csi, i);
	unsigned next = i + 1;
	uint32_t color;
	bool ok;
	switch (v) {
	case 0: x_reset(x); break;
	case 1: x_attr_on(x, GRID_ATTR_BOLD); break;
	case 2: x_attr_on(x, GRID_ATTR_DIM); break;
	case 3: x_attr_on(x, GRID_ATTR_ITALIC); break;
	case 4:
		if (is_sub(csi, i + 1)) {
			int u = param(csi, i + 1);
			if (u <= GRID_UNDERLINE_DASHED)
				x_underline(x, (unsigned)u);
		} else {
			x_underline(x, GRID_UNDERLINE_SINGLE);
		}
		break;
	case 5: case 6: x_attr_on(x, GRID_ATTR_BLINK); break;
	case 7: x_attr_on(x, GRID_ATTR_REVERSE); break;
	case 8: x_attr_on(x, GRID_ATTR_INVISIBLE); break;
	case 9: x_attr_on(x, GRID_ATTR_STRIKE); break;
	case 21: x_underline(x, GRID_UNDERLINE_DOUBLE); break;
	case 22: x_attr_off(x, GRID_ATTR_BOLD | GRID_ATTR_DIM); break;
	case 23: x_attr_off(x, GRID_ATTR_ITALIC); break;
	case 24: x_underline(x, GRID_UNDERLINE_NONE); break;
	case 25: x_attr_off(x, GRID_ATTR_BLINK); break;
	case 27: x_attr_off(x, GRID_ATTR_REVERSE); break;
	case 28: x_attr_off(x, GRID_ATTR_INVISIBLE); break;
	case 29: x_attr_off(x, GRID_ATTR_STRIKE); break;
	case 30: case 31: case 32: case 33: case 34: case 35: case 36: case 37:
		x->set |= X_FG;
		x->fg = GRID_COLOR_PALETTE(v - 30);
		break;
	case 38: case 48: case 58:
		next = ext_color(csi, i, &color, &ok, subs);
		if (ok) {
			if (v == 38) {
				x->set |= X_FG;
				x->fg = color;
			} else if (v == 48) {
				x->set |= X_BG;
				x->bg = color;
			} else {
				x->set |= X_UL;
				x->ul_color = color;
			}
		}
		return next;
	case 39: x->set |= X_FG; x->fg = GRID_COLOR_DEFAULT; break;
	case 40: case 41: case 42: case 43: case 44: case 45: case 46: case 47:
		x->set |= X_BG;
		x->bg = GRID_COLOR_PALETTE(v - 40);
		break;
	case 49: x->set |= X_BG; x->bg = GRID_COLOR_DEFAULT; break;
	case 53: x_attr_on(x, GRID_ATTR_OVERLINE); break;
	case 55: x_attr_off(x, GRID_ATTR_OVERLINE); break;
	case 59: x->set |= X_UL; x->ul_color = GRID_COLOR_DEFAULT; break;
	case 90: case 91: case 92: case 93: case 94: case 95: case 96: case 97:
		x->set |= X_FG;
		x->fg = GRID_COLOR_PALETTE(v - 90 + 8);
		break;
	case 100: case 101: case 102: case 103: case 104: case 105: case 106: case 107:
		x->set |= X_BG;
		x->bg = GRID_COLOR_PALETTE(v - 100 + 8);
		break;
	default: break;
	}
	/* sub-parameters of anything else are skipped with it */
	while (is_sub(csi, next))
		next++;
	return next;
}

/* What each SGR code without sub-parameters does, for sgr_plain: attributes cleared and set, and one field of
 * the pen given a value (F_EXT: the colour in the following parameters goes to field val). Codes from 128
 * on, and those not listed, do nothing (as in sgr_one). */
enum { F_NONE, F_FG, F_BG, F_UL, F_US, F_EXT, F_RESET };
struct sgr_code {
	uint32_t val;
	uint16_t clear, on;
	uint8_t field;
};
#define C_ON(a) {.on = (a)}
#define C_OFF(a) {.clear = (a)}
#define C_SET(f, v) {.field = (f), .val = (v)}
/* eight palette colours from k for field f (30-37, 40-47, 90-97, 100-107) */
#define C_PAL8(f, k)                                                                                                \
	C_SET(f, GRID_COLOR_PALETTE(k)), C_SET(f, GRID_COLOR_PALETTE(k + 1)), C_SET(f, GRID_COLOR_PALETTE(k + 2)), \
		C_SET(f, GRID_COLOR_PALETTE(k + 3)), C_SET(f, GRID_COLOR_PALETTE(k + 4)),                          \
		C_SET(f, GRID_COLOR_PALETTE(k + 5)), C_SET(f, GRID_COLOR_PALETTE(k + 6)),                          \
		C_SET(f, GRID_COLOR_PALETTE(k + 7))
static const struct sgr_code sgr_codes[128] = {
	[0] = {.field = F_RESET},
	[1] = C_ON(GRID_ATTR_BOLD),
	[2] = C_ON(GRID_ATTR_DIM),
	[3] = C_ON(GRID_ATTR_ITALIC),
	[4] = C_SET(F_US, GRID_UNDERLINE_SINGLE),
	[5] = C_ON(GRID_ATTR_BLINK),
	[6] = C_ON(GRID_ATTR_BLINK),
	[7] = C_ON(GRID_ATTR_REVERSE),
	[8] = C_ON(GRID_ATTR_INVISIBLE),
	[9] = C_ON(GRID_ATTR_STRIKE),
	[21] = C_SET(F_US, GRID_UNDERLINE_DOUBLE),
	[22] = C_OFF(GRID_ATTR_BOLD | GRID_ATTR_DIM),
	[23] = C_OFF(GRID_ATTR_ITALIC),
	[24] = C_SET(F_US, GRID_UNDERLINE_NONE),
	[25] = C_OFF(GRID_ATTR_BLINK),
	[27] = C_OFF(GRID_ATTR_REVERSE),
	[28] = C_OFF(GRID_ATTR_INVISIBLE),
	[29] = C_OFF(GRID_ATTR_STRIKE),
	[30] = C_PAL8(F_FG, 0),
	[38] = C_SET(F_EXT, F_FG),
	[39] = C_SET(F_FG, GRID_COLOR_DEFAULT),
	[40] = C_PAL8(F_BG, 0),
	[48] = C_SET(F_EXT, F_BG),
	[49] = C_SET(F_BG, GRID_COLOR_DEFAULT),
	[53] = C_ON(GRID_ATTR_OVERLINE),
	[55] = C_OFF(GRID_ATTR_OVERLINE),
	[58] = C_SET(F_EXT, F_UL),
	[59] = C_SET(F_UL, GRID_COLOR_DEFAULT),
	[90] = C_PAL8(F_FG, 8),
	[100] = C_PAL8(F_BG, 8),
};

/* The value of the len (0 to 4) digits s[st..st + len), 0 for none (SGR reads an empty parameter as 0), from
 * one 4-byte load (s[st..st + 4) readable): the digits moved to the top of the word, then pairs, then the
 * two pairs combined. */
static inline uint32_t digits_at(const uint8_t *s, unsigned st, unsigned len)
{
	uint32_t w;
	memcpy(&w, s + st, 4);
	uint32_t x = (uint32_t)((uint64_t)(w ^ 0x30303030u) << (32 - 8 * len));
	x = (x * 10 + (x >> 8)) & 0x00ff00ffu;
	return (x * (1u + (100u << 16))) >> 16;
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

/* The next parameter, a default one as 0 (what every SGR code and colour makes of it) */
static inline __attribute__((always_inline)) uint32_t src_next(struct plain_src *p, bool bytes)
{
	if (!bytes) {
		int32_t c = p->v[p->i++];
		return c < 0 ? 0 : (uint32_t)c;
	}
	unsigned e = (unsigned)__builtin_ctz(p->ends);
	p->ends &= p->ends - 1;
	uint32_t c = digits_at(p->s, p->i, e - p->i);
	p->i = e + 1;
	return c;
}

/* sgr_one's loop over parameters without sub-parameters, from the table above: one load and a few stores per
 * code instead of a jump through a switch. */
static inline __attribute__((always_inline)) void sgr_plain_from(struct sgr_xform *x, struct plain_src *p,
								  bool bytes)
{
	/* the fields by F_*: f[F_NONE] takes the writes of codes that set none */
	uint32_t f[5] = {0, x->fg, x->bg, x->ul_color, x->underline};
	unsigned set = x->set;
	uint16_t and_ = x->attr_and, or_ = x->attr_or;
	while (src_has(p, bytes, 1)) {
		uint32_t c = src_next(p, bytes);
		const struct sgr_code *e = &sgr_codes[c > 127 ? 127 : c];
		if (likely(e->field < F_EXT)) {
			and_ &= (uint16_t)~e->clear;
			or_ = (uint16_t)((or_ & ~e->clear) | e->on);
			f[e->field] = e->val;
			set |= (1u << e->field) >> 1; /* F_FG..F_US are X_FG..X_UNDERLINE */
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
			uint32_t k = src_next(p, bytes);
			color = GRID_COLOR_PALETTE(k);
			ok = k < 256;
		} else if (kind == 2) {
			if (!src_has(p, bytes, 3))
				break;
			uint32_t r = src_next(p, bytes), g = src_next(p, bytes), b = src_next(p, bytes);
			color = GRID_COLOR_RGB(r, g, b);
			ok = (r | g | b) < 256;
		} else {
			continue;
		}
		if (ok) {
			f[e->val] = color;
			set |= 1u << (e->val - 1);
		}
	}
	x->fg = f[F_FG];
	x->bg = f[F_BG];
	x->ul_color = f[F_UL];
	x->underline = (uint8_t)f[F_US];
	x->set = (uint8_t)set;
	x->attr_and = and_;
	x->attr_or = or_;
}

static void sgr_plain(struct sgr_xform *x, const int32_t *v, unsigned n)
{
	struct plain_src p = {.v = v, .n = n};
	sgr_plain_from(x, &p, false);
}

/* The shapes truecolour and 256-colour programs send per cell (38;2;r;g;b, 48;5;n, ...), without the
 * general loop. Returns false for anything else. */
static inline bool sgr_build_color(const struct vt_csi *csi, struct sgr_xform *x)
{
	const int32_t *v = csi->params;
	if (v[0] != 38 && v[0] != 48)
		return false;
	/* the colon forms as ext_color reads them: 38:2:r:g:b, 38:2:Pi:r:g:b (Pi ignored), 38:5:n */
	unsigned n = csi->n_params, sub = csi->sub_mask, k = 2;
	if (n == 6 && sub == 0x3eu && v[1] == 2)
		k = 3;
	else if (sub != 0 && sub != (uint32_t)((1ull << n) - 2))
		return false;
	uint32_t color;
	if (n - k == 3 && v[1] == 2) {
		if ((uint32_t)v[k] > 255 || (uint32_t)v[k + 1] > 255 || (uint32_t)v[k + 2] > 255)
			return false;
		color = GRID_COLOR_RGB(v[k], v[k + 1], v[k + 2]);
	} else if (n == 3 && v[1] == 5) {
		if ((uint32_t)v[2] > 255)
			return false;
		color = GRID_COLOR_PALETTE(v[2]);
	} else {
		return false;
	}
	if (v[0] == 38) {
		x->set = X_FG;
		x->fg = color;
	} else {
		x->set = X_BG;
		x->bg = color;
	}
	return true;
}

static void sgr_build(const struct vt_csi *csi, struct sgr_xform *x)
{
	*x = (struct sgr_xform){.attr_and = 0xffff};
	if (csi->n_params >= 3 && sgr_build_color(csi, x))
		return;
	if (csi->n_params == 0) {
		x_reset(x);
	} else if (!csi->sub_mask) {
		sgr_plain(x, csi->params, csi->n_params);
	} else {
		for (unsigned i = 0; i < csi->n_params;)
			i = sgr_one(x, csi, i, true);
	}
}

static inline void sgr_apply(struct grid *g, const struct sgr_xform *x)
{
	struct grid_style *p = &g->pen;
	unsigned set = x->set;
	p->attrs = (uint16_t)((p->attrs & x->attr_and) | x->attr_or);
	if (set & X_FG)
		p->fg = x->fg;
	if (set & X_BG) {
		p->bg = x->bg;
		g->erase_dirty = true;
	}
	if (unlikely(set & (X_UL | X_UNDERLINE))) {
		if (set & X_UL)
			p->ul_color = x->ul_color;
		if (set & X_UNDERLINE)
			p->underline = x->underline;
	}
	g->pen_dirty = true;
}

/* An SGR not in the memo (or not memoizable: seq_id 0). Out of line, so that grid__sgr's path for
 * memoized sequences needs no saved registers. */
__attribute__((noinline)) static void sgr_miss(struct grid *g, const struct vt_csi *csi, struct sgr_memo *m)
{
	g->pen_from = NULL;
	if (csi->seq_id) {
		m->id = csi->seq_id;
		m->epoch = 0;
		sgr_build(csi, &m->x);
		sgr_apply(g, &m->x);
		g->pen_from = m;
		return;
	}
	struct sgr_xform x;
	sgr_build(csi, &x);
	sgr_apply(g, &x);
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

void grid__sgr(struct grid *g, const struct vt_csi *csi)
{
	struct sgr_memo *m = &g->sgr_memo[csi->seq_id & (SGR_MEMO_SIZE - 1)];
	if (unlikely(m->id != csi->seq_id || !csi->seq_id)) {
		sgr_miss(g, csi, m);
		return;
	}
	sgr_apply(g, &m->x);
	g->pen_from = m;
	if (m->epoch == g->st.epoch && m->protect == g->protect && pen_same(&m->pen, &g->pen)) {
		g->pen_id = m->pen_id;
		g->pen_dirty = false;
	}
}

/* The head of a colour SGR in s[0..5) (s[0..8) readable): "38;2;", "38;5;", "48;2;", "48;5;" or the same
 * with ':'. The multiplier sends the eight to the eight places of the table (one multiply and one compare,
 * no branch per byte: the kinds of colour SGR come in no predictable order). Returns the five bytes as a
 * word (see the HEAD_ macros), or 0 for anything else. */
static inline uint64_t color_head(const uint8_t *s)
{
	static const uint64_t heads[8] = {
		0x3a323a3833ull, 0x3b353b3834ull, 0x3b323b3834ull, 0x3a353a3834ull, /* 38:2: 48;5; 48;2; 48:5: */
		0x3a323a3834ull, 0x3b353b3833ull, 0x3b323b3833ull, 0x3a353a3833ull, /* 48:2: 38;5; 38;2; 38:5: */
	};
	uint64_t w;
	memcpy(&w, s, 8);
	w &= 0xffffffffffull;
	return heads[(w * 0x78f845f57b3120dfull) >> 61] == w ? w : 0;
}
#define HEAD_SET(h) (X_FG << ((h) >> 2 & 1))  /* '3' or '4' */
#define HEAD_PAL(h) ((h) >> 24 & 1)           /* '5' or '2' */
#define HEAD_COLON(h) (!((h) >> 16 & 1))      /* ':' or ';' */

/* The colour after color_head's "38;2;" or "38;5;" (pal) in s[0..n) (n < 32, s[0..n + 4) readable): dig
 * has a bit per digit of s[0..n), sm one per byte equal to the head's separator (colon: ':'). "r;g;b" (or
 * ":Pi:r:g:b" in the colon form, Pi empty or digits and ignored) or "n", each number empty (0) or of 1 to 3
 * digits and below 256: what ext_color makes a colour of. Returns false for anything else. */
static inline __attribute__((always_inline)) bool color_tail(const uint8_t *s, unsigned n, unsigned dig,
							     unsigned sm, bool pal, bool colon, uint32_t *out)
{
	const unsigned lim = (1u << n) - 1;
	if (((dig | sm) & lim) != lim)
		return false;
	sm &= lim & ~0x1fu; /* the separators after "38;2;" */
	if (pal) {
		if (sm || n - 5 > 3)
			return false;
		uint32_t c = digits_at(s, 5, n - 5);
		*out = GRID_COLOR_PALETTE(c);
		return c < 256;
	}
	/* r;g;b: two separators; Pi:r:g:b (colon form only): three, Pi ignored */
	unsigned e0 = (unsigned)__builtin_ctz(sm | 1u << 31), st = 5;
	sm &= sm - 1;
	unsigned e1 = (unsigned)__builtin_ctz(sm | 1u << 31);
	sm &= sm - 1;
	if (sm) {
		if (!colon || (sm & (sm - 1)))
			return false;
		st = e0 + 1, e0 = e1, e1 = (unsigned)__builtin_ctz(sm);
	}
	unsigned l0 = e0 - st, l1 = e1 - e0 - 1, l2 = n - e1 - 1;
	if (e1 >= n || (l0 | l1 | l2) > 3)
		return false;
	uint32_t r = digits_at(s, st, l0), g = digits_at(s, e0 + 1, l1), b = digits_at(s, e1 + 1, l2);
	*out = GRID_COLOR_RGB(r, g, b);
	return (r | g | b) < 256;
}

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

/* The colour forms of color_head/color_tail (38;2;r;g;b, 38:2:r:g:b, 38:2:Pi:r:g:b, 38;5;n, 38:5:n, 48
 * alike) in the SGR s[0..n) (n < 32, s[0..32) readable), as the parsed form would give them: x is written
 * only when this returns true. Numbers of 1 to 3 digits (or empty); anything else is left to sgr_plain_xform
 * (which reads 4-digit ones) or the parser. */
static inline __attribute__((always_inline)) bool sgr_color_xform(const uint8_t *s, unsigned n,
								   struct sgr_xform *x)
{
	uint64_t h = color_head(s);
	if (!h || n > 28) /* 28: a number's load s[st..st + 4) stays in the 32 bytes */
		return false;
	unsigned dig, semi, colon;
	uint32_t color;
	classify(s, n, &dig, &semi, &colon);
	bool c = HEAD_COLON(h);
	if (!color_tail(s, n, dig, c ? colon : semi, HEAD_PAL(h), c, &color))
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

/* The SGR s[0..n) (n < 32, s[0..32) readable) when its parameters are digits and ';' only, each number of at
 * most 4 digits, into x as the parsed form would give. False for anything else: sub-parameters, longer
 * numbers (the parser clamps them), markers, intermediates, controls. */
static bool sgr_plain_xform(const uint8_t *s, unsigned n, struct sgr_xform *x)
{
	unsigned dig, semi, colon;
	classify(s, n, &dig, &semi, &colon);
	if ((dig | semi) != (1u << n) - 1 || (dig & dig >> 1 & dig >> 2 & dig >> 3 & dig >> 4))
		return false;
	uint8_t pad[36];
	if (n > 28) {
		/* a number's 4-byte load at s[st], st <= n, stays in a copy with 4 more bytes */
		memcpy(pad, s, 32);
		memset(pad + 32, 0, 4);
		s = pad;
	}
	*x = (struct sgr_xform){.attr_and = 0xffff};
	struct plain_src p = {.s = s, .ends = semi | 1u << n};
	sgr_plain_from(x, &p, true);
	return true;
}

/* The cell printers of with_cell: out of line and returning the count they are given, so that
 * grid__csi_bytes ends in a jump to them and saves no registers on its other paths. */
__attribute__((noinline)) static size_t cell_ascii(struct grid *g, const uint8_t *c, size_t ret)
{
	grid__print_ascii(g, c, 1);
	return ret;
}

__attribute__((noinline)) static size_t cell_cp(struct grid *g, uint32_t cp, size_t ret)
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

/* A new entry of grid.sgr_bytes or grid.sgr_long: its key k[0..nk), its id, and the SGR (whose change m->x
 * holds) applied. Returns what grid__csi_bytes returns for the SGR s[0..n]. */
static inline __attribute__((always_inline)) size_t memo_new(struct grid *g, unsigned n, struct sgr_memo *m,
							      uint64_t *key, const uint64_t *k, unsigned nk, bool plain)
{
	for (unsigned i = 0; i < nk; i++)
		key[i] = k[i];
	m->id = ++g->sgr_bytes_ids;
	m->epoch = 0;
	if (!plain)
		g->sgr_color_misses++;
	sgr_apply(g, &m->x);
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
	if (!plain) {
		if (!sgr_color_xform(s, n, &m->x))
			return 0;
	} else {
		struct sgr_xform x;
		if (!sgr_plain_xform(s, n, &x))
			return 0;
		m->x = x;
	}
	return memo_new(g, n, m, key, k, nk, plain);
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
	sgr_apply(g, &m->x);
	g->pen_from = m;
	g->last_cp = 0;
	if (m->epoch == g->st.epoch && m->protect == g->protect && pen_same(&m->pen, &g->pen)) {
		g->pen_id = m->pen_id;
		g->pen_dirty = false;
	}
}

/* Colour SGRs mostly not found in the tables (fresh colours, as a random-colour stream or a long gradient)
 * are decoded straight away, without a lookup or an entry: both cost more than the decode when little
 * repeats. grid.sgr_color_misses counts the colour SGRs not found (and, past this many, also those decoded
 * straight away); from this many on, one colour SGR in 16 still goes through the tables, and each one found
 * there quarters the count, so that lookups come back when colours repeat (the found ones themselves cost
 * nothing more). */
#define SGR_BYPASS_AFTER 64u

static const uint8_t ones[48] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* An SGR of 16 to 31 bytes before its 'm' (s[0..32) readable), such as "38;5;n;48;5;n;1;3;4" or
 * "38:2::r:g:b": looked up by its 32 bytes in grid.sgr_long as grid__csi_bytes looks up shorter ones. */
__attribute__((noinline)) static size_t sgr_bytes_long(struct grid *g, const uint8_t *s, unsigned n)
{
	/* the bytes after the 'm' masked off: those from 16 on by a sliding window of ones */
	uint64_t k[4], t[2];
	memcpy(k, s, 32);
	memcpy(t, ones + 48 - n, 16);
	k[2] &= t[0];
	k[3] &= t[1];
	_Static_assert(SGR_LONG_SLOTS == 256, "the slot is the top 8 bits");
	uint64_t h = ((k[0] ^ k[2]) * 0x9e3779b97f4a7c15ull) ^ ((k[1] ^ k[3]) * 0xc2b2ae3d27d4eb4full);
	struct sgr_long_memo *e = &g->sgr_long[h >> 56];
	if (e->key[0] != k[0] || e->key[1] != k[1] || e->key[2] != k[2] || e->key[3] != k[3] || !e->m.id) {
		struct sgr_long_memo *e2 = &g->sgr_long[h >> 48 & (SGR_LONG_SLOTS - 1)];
		if (e2->key[0] != k[0] || e2->key[1] != k[1] || e2->key[2] != k[2] || e2->key[3] != k[3] ||
		    !e2->m.id) {
			e = e2->m.id < e->m.id ? e2 : e;
			return sgr_long_miss(g, s, n, e, k);
		}
		e = e2;
	}
	sgr_memo_hit(g, &e->m);
	return n < 28 ? with_cell(g, s, n + 1) : n + 1;
}

/* The SGRs of colour-per-cell output, found by their bytes in a small table in front of the parser: a
 * repeated one costs a hash and a compare, then what grid__sgr does for a memoized sequence; a new one of the
 * shapes sgr_bytes_xform takes is built from its bytes, not from the parser's general form. */
static inline __attribute__((always_inline)) size_t sgr_bytes_lookup(struct grid *g, const uint8_t *s, size_t n)
{
	if (unlikely(n >= 16))
		return sgr_bytes_long(g, s, (unsigned)n);
	uint64_t k[2];
#if defined(__SSE2__) && defined(__GNUC__)
	__m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)s),
				  _mm_loadu_si128((const __m128i *)(const void *)(ones + 32 - n)));
	k[0] = (uint64_t)_mm_cvtsi128_si64(v);
	k[1] = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
#else
	uint8_t b[16];
	for (unsigned i = 0; i < 16; i++)
		b[i] = s[i] & ones[32 - n + i];
	memcpy(k, b, 16);
#endif
	_Static_assert(SGR_BYTES_SLOTS == 256, "the slot is the top 8 bits");
	uint64_t h = (k[0] * 0x9e3779b97f4a7c15ull) ^ (k[1] * 0xc2b2ae3d27d4eb4full);
	/* two places (as the parser's memo): a new SGR replaces the older entry of the two */
	struct sgr_bytes_memo *e = &g->sgr_bytes[h >> 56];
	if (unlikely(e->key[0] != k[0] || e->key[1] != k[1] || !e->m.id)) {
		struct sgr_bytes_memo *e2 = &g->sgr_bytes[h >> 48 & (SGR_BYTES_SLOTS - 1)];
		if (e2->key[0] != k[0] || e2->key[1] != k[1] || !e2->m.id) {
			e = e2->m.id < e->m.id ? e2 : e;
			return sgr_short_miss(g, s, (unsigned)n, e, k[0], k[1]);
		}
		e = e2;
	}
	sgr_memo_hit(g, &e->m);
	return with_cell(g, s, n + 1);
}

/* sgr_bytes_lookup for sgr_color_direct, reached by a jump */
__attribute__((noinline)) static size_t sgr_bytes_sampled(struct grid *g, const uint8_t *s, size_t n)
{
	return sgr_bytes_lookup(g, s, n);
}

/* The colour SGR in 16 that sgr_color_direct still looks up: found (the count of misses did not move),
 * it quarters the count. */
__attribute__((noinline)) static size_t sgr_color_sampled(struct grid *g, const uint8_t *s, size_t n)
{
	uint32_t before = g->sgr_color_misses;
	size_t r = sgr_bytes_lookup(g, s, n);
	if (g->sgr_color_misses == before)
		g->sgr_color_misses /= 4;
	return r;
}

/* A colour SGR s[0..n] (n before the 'm') decoded and applied without the tables; anything else through
 * sgr_bytes_lookup, and one colour SGR in 16 through sgr_color_sampled. */
__attribute__((noinline)) static size_t sgr_color_direct(struct grid *g, const uint8_t *s, size_t n)
{
	struct sgr_xform x;
	if (!sgr_color_xform(s, (unsigned)n, &x))
		return sgr_bytes_sampled(g, s, n);
	if ((++g->sgr_color_misses & 15) == 0)
		return sgr_color_sampled(g, s, n);
	sgr_apply(g, &x);
	g->pen_from = NULL;
	g->last_cp = 0;
	return n + 1;
}

size_t grid__csi_bytes(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	if (s[n - 1] != 'm')
		return grid__csi_bytes_moves(g, s, n);
	n--; /* the bytes before 'm' */
	if (unlikely(g->sgr_color_misses >= SGR_BYPASS_AFTER))
		return sgr_color_direct(g, s, n);
	return sgr_bytes_lookup(g, s, n);
}

static int color_sgr(char *buf, size_t cap, uint32_t c, int base)
{
	uint32_t v = c & 0xffffffu;
	switch (GRID_COLOR_KIND(c)) {
	case GRID_COLOR_KIND_PALETTE:
		if (v < 8 && base != 58)
			return snprintf(buf, cap, ";%u", (unsigned)(base - 8 + (int)v));
		if (v < 16 && base != 58)
			return snprintf(buf, cap, ";%u", (unsigned)(base == 38 ? 90 : 100) + v - 8);
		return snprintf(buf, cap, ";%d:5:%u", base, v);
	case GRID_COLOR_KIND_RGB:
		return snprintf(buf, cap, ";%d:2:%u:%u:%u", base, v >> 16, v >> 8 & 0xff, v & 0xff);
	default:
		return 0;
	}
}

/* The pen as SGR parameters (DECRQSS "m"), e.g. "1;31" ("0" for the default pen), in the form libvterm and
 * xterm answer with (colon forms for indexed and direct colours). Returns the length. */
int grid__sgr_string(const struct grid *g, char *buf, size_t cap)
{
	static const struct {
		uint16_t attr;
		const char *s;
	} map[] = {
		{GRID_ATTR_BOLD, ";1"},    {GRID_ATTR_DIM, ";2"},       {GRID_ATTR_ITALIC, ";3"},
		{GRID_ATTR_BLINK, ";5"},   {GRID_ATTR_REVERSE, ";7"},   {GRID_ATTR_INVISIBLE, ";8"},
		{GRID_ATTR_STRIKE, ";9"},  {GRID_ATTR_OVERLINE, ";53"},
	};
	char tmp[256];
	const size_t tc = sizeof(tmp);
	const struct grid_style *p = &g->pen;
	size_t n = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (p->attrs & map[i].attr)
			n += (size_t)snprintf(tmp + n, tc - n, "%s", map[i].s);
	if (p->underline == GRID_UNDERLINE_SINGLE)
		n += (size_t)snprintf(tmp + n, tc - n, ";4");
	else if (p->underline == GRID_UNDERLINE_DOUBLE)
		n += (size_t)snprintf(tmp + n, tc - n, ";21");
	else if (p->underline)
		n += (size_t)snprintf(tmp + n, tc - n, ";4:%u", p->underline);
	n += (size_t)color_sgr(tmp + n, tc - n, p->fg, 38);
	n += (size_t)color_sgr(tmp + n, tc - n, p->bg, 48);
	n += (size_t)color_sgr(tmp + n, tc - n, p->ul_color, 58);
	return snprintf(buf, cap, "%s", n ? tmp + 1 : "0");
}
