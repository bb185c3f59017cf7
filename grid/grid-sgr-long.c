/* grid/grid-sgr-long.c: the long plain SGRs (17 to 31 bytes, csi's "1;3;4;38;5;n;48;2;r;g;b") decoded and
 * applied straight from their bytes while they keep missing grid.sgr_long (grid-sgr-bytes.c's tables decide
 * when). Separate from grid-sgr-bytes.c for the files' size (under ~800 lines), and because it is a path of
 * its own: its own code tables (long_codes) and its own page (.text.kf_sgr_long), which the link places
 * right after grid-sgr-bytes.c's pages (the next file in meson.build: keep it there, an emulated guest's
 * count moves with where functions lie in their pages).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid-sgr.h"

/* The long plain SGRs' decode (~1.2 KiB: in the frequent SGRs' page it straddled a page, 5 look-ups per SGR)
 * in a page of its own */
GRID_PAGE_BEGIN("sgr_long");

/* sgr_long_direct's codes 0..127 of grid__sgr_codes as masks of the pen's two words (pen = (pen & and) | or,
 * as sgr_tiny's), array by array: one base register and a displacement per array, no multiply or add per
 * code; ext: the field (F_FG, F_BG, F_UL) of a code that takes its colour from the parameters after it (38, 48,
 * 58, which change nothing by their masks), else 0. Made by long_codes_init (at the end of this file). */
static struct {
	uint64_t and0[128], and1[128], or0[128], or1[128];
	uint8_t ext[128];
} long_codes;

/* The pen's words without field F_FG, F_BG or F_UL (where a colour of ext goes), by field */
_Static_assert(offsetof(struct grid_style, bg) == 4 && offsetof(struct grid_style, ul_color) == 8 &&
		       offsetof(struct grid_style, attrs) == 12 && offsetof(struct grid_style, underline) == 14,
	       "the pen's layout");
static const uint64_t long_keep[2][4] = {
	{~0ull, 0xffffffff00000000ull, 0x00000000ffffffffull, ~0ull},
	{~0ull, ~0ull, ~0ull, 0xffffffff00000000ull},
};

/* The pen's two words in general registers, not one vector (GCC's choice otherwise): an emulated guest
 * (QEMU's TCG, issue 5) runs each vector operation as a helper call */
#if defined(__GNUC__) && !defined(__clang__)
#define SGR_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define SGR_NO_SLP
#endif

/* A plain SGR of 17 bytes or more (not a colour form) once such SGRs keep missing grid.sgr_long (a
 * stream of fresh "1;3;4;38;5;n;48;2;r;g;b"): decoded and applied without the lookup and the entry, as
 * sgr_color_direct does with colours; one in 256 still goes through the table, and one found there
 * divides grid.sgr_long_misses by 16. Returns 0 for what sgr_plain_xform does not take (the parser's). */
GRID_PAGE("sgr_long") SGR_NO_SLP
__attribute__((noinline)) size_t grid__sgr_long_direct(struct grid *g, const uint8_t *s, unsigned n)
{
	if ((++g->sgr_long_misses & 255) == 0) {
		uint32_t before = g->sgr_long_misses;
		size_t r = grid__sgr_bytes_long_plain(g, s, n);
		if (g->sgr_long_misses == before)
			g->sgr_long_misses /= 16;
		return r;
	}
	uint8_t pad[36];
	struct plain_src p;
	if (!plain_fields(s, n, pad, &p))
		return 0;
	/* the pen changed in place, as two words: a code is its masks (long_codes), a colour is stored
	 * through its field's mask; where sgr_plain_run kept the fields and the attributes' masks apart
	 * (csi's "1;3;4;38;5;n;48;2;r;g;b": 9.8 k per 2 MiB) */
	struct grid_style *pen = &g->pen;
	const uint32_t bg = pen->bg;
	uint64_t p0, p1;
	memcpy(&p0, pen, 8);
	memcpy(&p1, (const char *)pen + 8, 8);
	while (src_has(&p, true, 1)) {
		/* a one-digit code (csi's "1;3;4;...") by its byte: no number to read, nothing to clamp */
		const unsigned e = (unsigned)__builtin_ctz(p.ends);
		uint32_t c;
		if (e == p.i + 1) {
			c = p.s[p.i] - (uint32_t)'0';
		} else if (e == p.i + 2) {
			/* two digits (38, 48): from their bytes as well, below 100 */
			c = p.s[p.i] * 10u + p.s[p.i + 1] - 11u * '0';
		} else {
			c = digits_at(p.s, p.i, e - p.i);
			c = c > 127 ? 127 : c;
		}
		p.ends &= p.ends - 1;
		p.i = e + 1;
		const unsigned f = long_codes.ext[c];
		if (likely(!f)) {
			p0 = (p0 & long_codes.and0[c]) | long_codes.or0[c];
			p1 = (p1 & long_codes.and1[c]) | long_codes.or1[c];
			continue;
		}
		/* 38, 48, 58 as ext_color reads them (sgr_plain_run's): ;5;n or ;2;r;g;b, a missing part ends
		 * the sequence, another kind is skipped alone */
		if (!src_has(&p, true, 1))
			break;
		/* the kind, "5" or "2" in a field of its own: its byte (no number to read) */
		uint32_t kind, color;
		if ((unsigned)__builtin_ctz(p.ends) == p.i + 1) {
			kind = p.s[p.i] - (uint32_t)'0';
			p.ends &= p.ends - 1;
			p.i += 2;
		} else {
			kind = src_next(&p, true);
		}
		bool ok;
		if (kind == 5) {
			if (!src_has(&p, true, 1))
				break;
			uint32_t k = src_next(&p, true);
			color = GRID_COLOR_PALETTE(k);
			ok = k < 256;
		} else if (kind == 2) {
			if (!src_has(&p, true, 3))
				break;
			uint32_t r = src_next(&p, true), gr = src_next(&p, true), b = src_next(&p, true);
			color = GRID_COLOR_RGB(r, gr, b);
			ok = (r | gr | b) < 256;
		} else {
			continue;
		}
		if (ok) {
			const uint64_t w = color * 0x100000001ull;
			p0 = (p0 & long_keep[0][f]) | (w & ~long_keep[0][f]);
			p1 = (p1 & long_keep[1][f]) | (w & ~long_keep[1][f]);
		}
	}
	memcpy(pen, &p0, 8);
	memcpy((char *)pen + 8, &p1, 8);
	g->erase_dirty |= pen->bg != bg;
	g->pen_dirty = true;
	g->pen_from = NULL;
	g->last_cp = 0;
	return n + 1;
}

/* long_codes made once from grid__sgr_codes, padding bytes 0 in both masks. In this page, after
 * sgr_long_direct (the page's free end), not among the start-up code: the constructors' size moves every
 * function after them, and an emulated guest's count (issue 5) moves with where functions lie in their pages. */
GRID_PAGE("sgr_long") __attribute__((constructor)) static void long_codes_init(void)
{
	for (unsigned c = 0; c < 128; c++) {
		const struct sgr_code *e = &grid__sgr_codes[c];
		const uint64_t val = e->val;
		uint64_t a0 = ~0ull, a1 = 0x00ffffffffffffffull & ~((uint64_t)e->clear << 32), o0 = 0,
			 o1 = (uint64_t)e->on << 32;
		switch (e->field) {
		case F_FG: a0 = 0xffffffff00000000ull, o0 = val; break;
		case F_BG: a0 = 0x00000000ffffffffull, o0 = val << 32; break;
		case F_UL: a1 &= 0xffffffff00000000ull, o1 |= val; break;
		case F_US: a1 &= ~(0xffull << 48), o1 |= val << 48; break;
		case F_RESET: a0 = a1 = 0; break;
		case F_EXT: long_codes.ext[c] = (uint8_t)val; break;
		default: break;
		}
		long_codes.and0[c] = a0, long_codes.and1[c] = a1;
		long_codes.or0[c] = o0, long_codes.or1[c] = o1;
	}
}
