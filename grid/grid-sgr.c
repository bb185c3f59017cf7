/* grid/grid-sgr.c: SGR ("CSI Pm m") from the parsed parameters, and the pen as SGR (DECRQSS); the same
 * straight from the sequence's bytes is in grid-sgr-bytes.c.
 *
 * SGR follows xterm's ctlseqs and ITU T.416 for the colon forms: 38:2:Pi:r:g:b (colour space id, possibly
 * empty, as in `38:2::r:g:b`), 38:2:r:g:b (the common short form), 38:5:n, and the semicolon forms 38;2;r;g;b
 * and 38;5;n. 4:0..4:5 select underline styles (kitty/VTE); 58/59 the underline colour. An SGR only changes
 * the pen; grid-style.c turns the pen into a style id at the next print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-sgr.h"

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
	/* the semicolon forms: an empty part (VT_PARAM_DEFAULT, -1: out of range as unsigned) drops the colour,
	 * as in xterm, where the colon forms read it as 0 (conformance case sgr-empty-color) */
	const int32_t *v = csi->params;
	int kind = param(csi, i + 1);
	if (kind == 5) {
		if (i + 2 >= n)
			return n;
		*out = GRID_COLOR_PALETTE(param(csi, i + 2));
		*ok = (uint32_t)v[i + 2] < 256;
		return i + 3;
	}
	if (kind == 2) {
		if (i + 4 >= n)
			return n;
		*out = GRID_COLOR_RGB(param(csi, i + 2), param(csi, i + 3), param(csi, i + 4));
		*ok = ((uint32_t)v[i + 2] | (uint32_t)v[i + 3] | (uint32_t)v[i + 4]) < 256;
		return i + 5;
	}
	return i + 2;
}

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

#define C_ON(a) {.on = (a)}
#define C_OFF(a) {.clear = (a)}
#define C_SET(f, v) {.field = (f), .val = (v)}
/* eight palette colours from k for field f (30-37, 40-47, 90-97, 100-107) */
#define C_PAL8(f, k)                                                                                                \
	C_SET(f, GRID_COLOR_PALETTE(k)), C_SET(f, GRID_COLOR_PALETTE(k + 1)), C_SET(f, GRID_COLOR_PALETTE(k + 2)), \
		C_SET(f, GRID_COLOR_PALETTE(k + 3)), C_SET(f, GRID_COLOR_PALETTE(k + 4)),                          \
		C_SET(f, GRID_COLOR_PALETTE(k + 5)), C_SET(f, GRID_COLOR_PALETTE(k + 6)),                          \
		C_SET(f, GRID_COLOR_PALETTE(k + 7))
const struct sgr_code grid__sgr_codes[128] = {
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

/* An SGR not in the memo (or not memoizable: seq_id 0). Out of line, so that grid__sgr's path for
 * memoized sequences needs no saved registers. */
__attribute__((noinline)) static void sgr_miss(struct grid *g, const struct vt_csi *csi, struct sgr_memo *m)
{
	g->pen_from = NULL;
	if (csi->seq_id) {
		m->id = csi->seq_id;
		m->epoch = 0;
		struct sgr_xform x;
		sgr_build(csi, &x);
		sgr_change_of(&x, &m->c);
		m->sets_bg = x.set & X_BG;
		sgr_change_apply(g, &m->c, m->sets_bg);
		g->pen_from = m;
		return;
	}
	struct sgr_xform x;
	sgr_build(csi, &x);
	sgr_apply(g, &x);
}

void grid__sgr(struct grid *g, const struct vt_csi *csi)
{
	struct sgr_memo *m = &g->sgr_memo[csi->seq_id & (SGR_MEMO_SIZE - 1)];
	if (unlikely(m->id != csi->seq_id || !csi->seq_id)) {
		sgr_miss(g, csi, m);
		return;
	}
	sgr_change_apply(g, &m->c, m->sets_bg);
	g->pen_from = m;
	if (m->epoch == g->st.epoch && m->protect == g->protect && pen_same(&m->pen, &g->pen)) {
		g->pen_id = m->pen_id;
		g->pen_dirty = false;
	}
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
