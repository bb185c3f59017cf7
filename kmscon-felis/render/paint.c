/* kmscon-felis/render/paint.c: the cell painter.
 *
 * Cells are painted one damaged row span at a time: background, glyph (clipped to its cell or
 * cells, so a cell never paints into a neighbour), decorations, cursor, then the part of the mouse
 * pointer over the span. Because every pixel of a cell depends only on that cell (and the
 * cursor/pointer, whose moves collect_damage turns into damage), painting only the damaged cells
 * gives exactly the pixels of a full repaint.
 *
 * XRGB8888 targets are painted in place when the span lies inside the target; RGB565 targets and
 * spans that need clipping are painted into a scratch strip first and then converted/copied
 * (paint-out.c, with the list of changed rectangles).
 *
 * The fills of one colour (backgrounds, blank runs, margins) are in paint-fill.h, included below
 * where they were once written here: static functions of this one file, inlined as before. The
 * frame's palette is palette.c's (kf_palette_frame), a cluster's code points compose.c's
 * (kf_cluster_cps): out-of-line functions already, called once a frame and once a cluster.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include "kmscon-felis/render/render-internal.h"

/* Colours of one cell, resolved once per style run. */
struct look {
	uint32_t fg, bg, ul;
	uint16_t attrs;
	uint8_t underline;
	unsigned glyph_style;
	bool hide_glyph;
	bool reversed; /* SGR 7 or the selection's highlight swapped fg and bg (the cursor's colour follows it) */
};


static uint32_t color(const uint32_t *pal, uint32_t c, uint32_t dflt)
{
	switch (GRID_COLOR_KIND(c)) {
	case GRID_COLOR_KIND_PALETTE:
		return pal[c & 0xff];
	case GRID_COLOR_KIND_RGB:
		return c & 0xffffff;
	default:
		return dflt;
	}
}

static void resolve(const struct kf_render *r, const struct kf_render_source *s,
		    const struct grid_style *st, bool selected, struct look *l)
{
	const uint32_t *pal = r->eff;
	uint32_t dfg = pal[256], dbg = pal[257];
	if (s->reverse_video) {
		uint32_t t = dfg;
		dfg = dbg;
		dbg = t;
	}
	static const struct grid_style plain = {0};
	if (!st)
		st = &plain;
	/* Bold in one of the eight basic colours is its bright one (8-15), as the kernel's console, kmscon and
	 * xterm (boldColors) draw it: `ls --color` directories (01;34) are bright blue on every console a user
	 * comes from, and dark blue on black is hard to read. Before the reverse swap, as xterm does it. */
	uint32_t fgc = st->fg;
	if ((st->attrs & GRID_ATTR_BOLD) && (fgc & ~7u) == GRID_COLOR_PALETTE(0))
		fgc += 8;
	l->fg = color(pal, fgc, dfg);
	l->bg = color(pal, st->bg, dbg);
	l->attrs = st->attrs;
	l->underline = st->underline;
	l->reversed = !!(st->attrs & GRID_ATTR_REVERSE) != selected;
	if (l->reversed) {
		uint32_t t = l->fg;
		l->fg = l->bg;
		l->bg = t;
	}
	if (st->attrs & GRID_ATTR_DIM)
		l->fg = kf_blend(l->fg, l->bg, 128);
	l->ul = GRID_COLOR_KIND(st->ul_color) == GRID_COLOR_KIND_DEFAULT
		    ? l->fg
		    : color(pal, st->ul_color, l->fg);
	l->glyph_style = (st->attrs & GRID_ATTR_BOLD ? KF_GLYPH_BOLD : 0) |
			 (st->attrs & GRID_ATTR_ITALIC ? KF_GLYPH_ITALIC : 0);
	l->hide_glyph =
	    (st->attrs & GRID_ATTR_INVISIBLE) || ((st->attrs & GRID_ATTR_BLINK) && !r->blink_on);
}

/* Whether the decorations of a cell whose glyph is hidden (l->hide_glyph) go with it: blinking text in
 * its hidden phase. Concealed text (SGR 8) keeps them, as xterm writes it: blanks in the same
 * attributes, so an underlined concealed field still shows. */
static inline bool lines_hidden(const struct kf_render *r, const struct look *l)
{
	return (l->attrs & GRID_ATTR_BLINK) && !r->blink_on;
}

#include "kmscon-felis/render/paint-fill.h"

void kf_paint_fill_rect(struct kf_strip *o, int x, int y, int w, int h, uint32_t c)
{
	fill_rect(o, x, y, w, h, c);
}

static bool cursor_here(const struct kf_render *r, const struct kf_render_source *s, int x, int y,
			int cells)
{
	const struct grid_cursor *c = &s->cursor;
	return c->visible && c->y == y && c->x >= x && c->x < x + cells &&
	       (!c->blink || r->blink_on);
}

/* c[a] = blend(bg, fg, a) for a in 1..254. Each channel of blend is (bg * (255 - a) + fg * a + 128)
 * >> 8 = (bg * 255 + 128 + a * (fg - bg)) >> 8, a sum within [0, 2^16) at every a: so blue and red
 * are kept in one 32-bit word 16 bits apart (the word's value is exactly blue + red * 2^16 whatever
 * the steps' signs, since both sums stay in range) and green in another, each stepped by one add
 * per entry, and the pixel is (br >> 8 & 0x00ff00ff) | (g & 0xff00). In 32-bit lanes GCC
 * vectorises it into adds, a shift, masks and an or, four entries a step: an emulator (TCG)
 * translates all of these inline, where the 64-bit form's 64-to-32-bit narrowing (shufps) was a
 * helper call, three per four entries; the guest's profile of csi had this table at a quarter of
 * the paint's samples (docs/benchmarks.md, issue 5 session 24). A pair of colours seen for the
 * first time costs a table (the escape-heavy floods bring ~50 a frame). */
__attribute__((noinline)) static void lut_build(uint32_t *c, uint32_t fg, uint32_t bg)
{
	uint32_t b0 = bg & 0xff, g0 = bg >> 8 & 0xff, r0 = bg >> 16 & 0xff;
	uint32_t b1 = fg & 0xff, g1 = fg >> 8 & 0xff, r1 = fg >> 16 & 0xff;
	/* unsigned wrap-around: the steps may be negative, the sums never leave their fields */
	uint32_t br = (b0 * 255 + 128) | (r0 * 255 + 128) << 16, g = g0 * 255 + 128;
	uint32_t step_br = (b1 - b0) + (r1 - r0) * 65536u, step_g = g1 - g0;
	for (unsigned a = 1; a < 255; a++) {
		br += step_br;
		g += step_g;
		c[a] = (br >> 8 & 0x00ff00ffu) | (g & 0xff00u);
	}
}

/* The blend table of fg over bg, built when missing: the look-up inlined into compose (once a
 * separate function, a call and return per composed cell under TCG cost more than the look-up),
 * the build not. */
static inline __attribute__((always_inline)) const uint32_t *lut_for(struct kf_render *r,
								    uint32_t fg, uint32_t bg)
{
	unsigned h = (fg * 2654435761u ^ bg * 40503u) >> 28;
	if (!r->lut[h].valid || r->lut[h].fg != fg || r->lut[h].bg != bg) {
		lut_build(r->lut[h].c, fg, bg);
		r->lut[h].c[0] = bg;
		r->lut[h].c[255] = fg;
		r->lut[h].fg = fg;
		r->lut[h].bg = bg;
		r->lut[h].valid = true;
	}
	return r->lut[h].c;
}

/* Two pixels in one 8-byte store. */
static void put2(uint32_t *p, uint32_t a, uint32_t b)
{
	uint64_t v = a | (uint64_t)b << 32;
	memcpy(p, &v, 8);
}

/* Two pixels through the blend table lut from the low two coverage bytes of *v, then the next two
 * bytes brought down (*v >>= 16). On x86 the empty asm keeps the shifted word in a register whose
 * second byte is addressable (a, b, c or d: constraint Q), so each byte is one movzbl (of %dl,
 * then %dh, say): left to itself GCC takes every byte from the unshifted word by a copy, a shift
 * and a movzbl, 23 instructions for a 10-pixel row's bytes instead of 13 (compose's ink rows are
 * ~a third of a csi frame's paint; docs/benchmarks.md, issue 5 session 25). */
static inline __attribute__((always_inline)) void put2_lut(uint32_t *p, uint64_t *v,
							   const uint32_t *lut)
{
	uint64_t x = *v;
#if defined(__x86_64__) || defined(__i386__)
	__asm__("" : "+Q"(x));
#endif
	put2(p, lut[x & 0xff], lut[x >> 8 & 0xff]);
	*v = x >> 16;
}

/* A row of coverage m (w bytes) through the blend table lut into p. The coverage is read 8 bytes
 * at a time and the pixels are stored in pairs: a quarter of the memory accesses of a byte and a
 * pixel at a time, which is what costs most where each access is emulated. */
static void compose_lut_row(uint32_t *p, const uint8_t *m, int w, const uint32_t *lut)
{
	int i = 0;
	for (; i + 8 <= w; i += 8) {
		uint64_t v;
		memcpy(&v, m + i, 8);
		for (int k = 0; k < 8; k += 2)
			put2_lut(p + i + k, &v, lut);
	}
	for (; i + 2 <= w; i += 2)
		put2(p + i, lut[m[i]], lut[m[i + 1]]);
	if (i < w)
		p[i] = lut[m[i]];
}

/* The same for a mask of only 0 and 255: fg where it is set, bg elsewhere. */
static void compose_mono_row(uint32_t *p, const uint8_t *m, int w, uint32_t fg, uint32_t bg)
{
	int i = 0;
	for (; i + 8 <= w; i += 8) {
		uint64_t v;
		memcpy(&v, m + i, 8);
		for (int k = 0; k < 8; k += 2, v >>= 16)
			put2(p + i + k, v & 0xff ? fg : bg, v & 0xff00 ? fg : bg);
	}
	for (; i + 2 <= w; i += 2)
		put2(p + i, m[i] ? fg : bg, m[i + 1] ? fg : bg);
	if (i < w)
		p[i] = m[i] ? fg : bg;
}

/* compose for a glyph with partial coverage 10 pixels wide (DejaVu Sans Mono at 16 px, the
 * console's usual font): every row's loads and stores of constant size, without the inner loops
 * of compose_lut_row and fill_rect's calls for the rows above and below the ink. An escape-heavy
 * flood composes ~1000 such cells a frame, most of them in a colour pair they are the only cell
 * of (docs/benchmarks.md, issue 5 session 11). */
static void compose_w10(uint32_t *p, size_t pitch, int h, const struct kf_glyph *g,
			const uint32_t *lut, uint32_t bg)
{
	const uint8_t *m = (const uint8_t *)g->data + (size_t)g->y0 * 10;
	/* the bounds in locals: the stores may alias g as far as GCC knows, and it reloaded them on
	 * every row */
	const int y0 = g->y0, y1 = g->y1;
	int y = 0;
	for (; y < y0; y++, p += pitch)
		fill_narrow(p, 10, bg);
	for (; y < y1; y++, p += pitch, m += 10) {
		uint64_t v, t = 0;
		memcpy(&v, m, 8);
		memcpy(&t, m + 8, 2);
		put2_lut(p, &v, lut);
		put2_lut(p + 2, &v, lut);
		put2_lut(p + 4, &v, lut);
		put2_lut(p + 6, &v, lut);
		put2_lut(p + 8, &t, lut);
	}
	for (; y < h; y++, p += pitch)
		fill_narrow(p, 10, bg);
}

/* Background and the first glyph in one pass, blending against the known background: the target is
 * written once and never read (dumb buffers may be write-combined, where reads are very slow). Aligned
 * to a page so that its ~2.2 KiB never straddle two: at 0x9c40-0xa4c7 (bench-render) and
 * 0x40c40-0x414c7 (kmscon-felis) every call jumped across the boundary and back, two look-ups of the
 * next block under TCG besides the call's and the return's (docs/benchmarks.md, issue 5 session 18).
 * The padding fills the gap paint_row's own alignment leaves, so nothing after paint_row moves. */
__attribute__((aligned(4096))) static void compose(struct kf_render *r, struct kf_strip *o, int x, int w, int h,
		    const struct kf_glyph *g, uint32_t fg, uint32_t bg)
{
	if (!g || g->kind == KF_GLYPH_EMPTY) {
		fill_rect(o, x, 0, w, h, bg);
		return;
	}
	if (w == 10 && g->w == 10 && g->kind == KF_GLYPH_ALPHA && g->aa) {
		compose_w10(o->px + x, o->pitch, h, g, lut_for(r, fg, bg), bg);
		return;
	}
	fill_rect(o, x, 0, w, g->y0, bg);
	fill_rect(o, x, g->y1, w, h - g->y1, bg);
	/* a blend table only pays for glyphs with partial coverage; 0/255 masks pick fg or bg
	 * directly */
	const uint32_t *lut = g->kind == KF_GLYPH_ALPHA && g->aa ? lut_for(r, fg, bg) : NULL;
	for (int y = g->y0; y < g->y1; y++) {
		uint32_t *p = o->px + (size_t)y * o->pitch + x;
		if (g->kind == KF_GLYPH_ALPHA) {
			const uint8_t *m = (const uint8_t *)g->data + (size_t)y * g->w;
			if (lut)
				compose_lut_row(p, m, w, lut);
			else
				compose_mono_row(p, m, w, fg, bg);
		} else {
			const uint32_t *m = (const uint32_t *)g->data + (size_t)y * g->w;
			for (int i = 0; i < w; i++)
				p[i] = bg;
			kf_paint_blit_color_row(p, m, w);
		}
	}
}

/* kf_render_glyph, for one-cell ASCII from the glyphs it last found in its cache without a call
 * (render-internal.h, ascii_glyph). */
static inline const struct kf_glyph *glyph_of(struct kf_render *r, uint32_t cp, unsigned gs,
					      int cells)
{
	/* likely: GCC otherwise put the table's load in paint_row's other page, two look-ups of the
	 * next block per composed cell under TCG */
	if (__builtin_expect(cells == 1 && cp < 128 && gs < 4 && r->ascii_gen == r->glyph_gen &&
				     r->ascii_glyph[gs][cp] != NULL,
			     1))
		return r->ascii_glyph[gs][cp];
	return kf_render_glyph(r, cp, gs, cells);
}

/* --- pre-composed cells --- */

/* kf_render_cells_ready without a call in the common case (nothing changed since the last cell). */
static bool cells_ready(struct kf_render *r)
{
	if (r->cells.epoch == r->epoch && r->cells.cell_w == r->cell_w && r->cells.cell_h == r->cell_h)
		return r->cells.bits != 0;
	return kf_render_cells_ready(r);
}

/* Copies a pre-composed cell (w x h, packed) to dst. A row is a few dozen bytes: a memcpy call per
 * row costs more than the copy, so the usual widths get copies of constant size (a few moves). The
 * console's usual width (10: DejaVu Sans Mono at 16 px) is tested before the switch, whose jump table
 * QEMU's TCG runs as a look-up of the next block (~70 host instructions), and the rows end where src
 * reaches end (cmp, jb: inline there; a count's entry test, test and jle, is a helper call computing
 * all the flags; docs/benchmarks.md, issue 5 session 43). */
__attribute__((noinline)) static void copy_cell(uint32_t *dst, size_t pitch, const uint32_t *src, int w,
						int h)
{
	const uint32_t *const end = src + (ptrdiff_t)h * w;
#define COPY_ROWS(n)                                                                               \
	for (; src < end; dst += pitch, src += n)                                                  \
		memcpy(dst, src, n * 4);                                                           \
	return;
#define COPY_W(n)                                                                                  \
	case n:                                                                                    \
		COPY_ROWS(n)
	if (w == 10) {
		COPY_ROWS(10)
	}
	switch (w) {
		COPY_W(6) COPY_W(7) COPY_W(8) COPY_W(9) COPY_W(11) COPY_W(12) COPY_W(13)
		COPY_W(14) COPY_W(16) COPY_W(18) COPY_W(20) COPY_W(22) COPY_W(24) COPY_W(26)
		COPY_W(28)
	default:
		for (int y = 0; y < h; y++, dst += pitch, src += w)
			memcpy(dst, src, (size_t)w * 4);
	}
#undef COPY_W
#undef COPY_ROWS
}

/* Slot i's pixels for a glyph cells wide (the key of a slot's glyph says its width); a one-cell
 * slot has its place in px from the time it was first filled (cell_place). */
static inline uint32_t *cell_slot(struct kf_render *r, size_t i, int cells)
{
	const size_t n = r->cells.slot_px;
	return cells == 1 ? r->cells.px + (size_t)(r->cells.px_at[i] - 1) * n : r->cells.wide + i * 2 * n;
}

/* Slot i about to be filled with a glyph cells wide: a one-cell slot gets the next place of px the
 * first time (px_used never passes the slots' number: each slot takes one place, for good). */
static inline void cell_place(struct kf_render *r, size_t i, int cells)
{
	if (cells == 1 && !r->cells.px_at[i])
		r->cells.px_at[i] = (uint16_t)++r->cells.px_used;
}

/* The pre-composed pixels (w = cells * cell_w wide, cell_h high, packed) of the glyph of key in fg
 * over bg, composed on a miss; NULL on the first miss of those three (the caller composes the cell
 * in place): only a cell seen before takes a slot. */
__attribute__((noinline)) static const uint32_t *cell_pixels(struct kf_render *r, uint64_t key,
							     uint32_t cp, unsigned gs, int cells,
							     int w, uint32_t fg, uint32_t bg)
{
	const struct kf_glyph *g = NULL;
	for (;;) {
		uint64_t h = (key ^ (uint64_t)fg << 29 ^ (uint64_t)bg * 0x2545f491u) *
			     0x9e3779b97f4a7c15ull;
		/* two-way sets: the other slot of the pair is looked at too, and a miss replaces the
		 * one used less recently (CJK, Greek and Latin glyphs in a few colours collided in
		 * one slot each) */
		size_t i = (size_t)(h >> (64 - r->cells.bits)) & ~(size_t)1;
		for (size_t k = 0; k < 2; k++) {
			const struct kf_cell_tag *t = &r->cells.tags[i + k];
			if (t->key == key && t->fg == fg && t->bg == bg) {
				r->cells.hits++;
				r->cells.mru[i / 2] = (uint8_t)k;
				return cell_slot(r, i + k, cells);
			}
		}
		if (!g && cp)
			g = glyph_of(r, cp, gs, cells);
		if (g && g->missing && key != KF_MISSING_KEY(cells)) {
			/* the box of a glyph the fonts lack may be composed in these colours already */
			key = KF_MISSING_KEY(cells);
			continue;
		}
		r->cells.misses++;
		/* A direct-mapped table of the misses' hashes, placed by the bits of h below the set's
		 * (a product's high bits: its low ones do not depend on the colours): a second miss
		 * finds its own check word there, unless another miss took the place in between (then
		 * it is composed in place once more, which is what a miss costs anyway, less the copy).
		 * A check word that matches by chance only admits a cell early. */
		const unsigned b = r->cells.bits;
		uint32_t *seen = &r->cells.seen[(size_t)(h >> (64 - 2 * b)) & (((size_t)1 << b) - 1)];
		const uint32_t check = (uint32_t)(h >> 32) | 1;
		if (*seen != check) {
			*seen = check;
			return NULL;
		}
		i += !r->cells.mru[i / 2];
		r->cells.mru[i / 2] = (uint8_t)(i & 1);
		cell_place(r, i, cells);
		uint32_t *px = cell_slot(r, i, cells);
		struct kf_strip o = {px, (size_t)w};
		compose(r, &o, 0, w, r->cell_h, g, fg, bg);
		r->cells.tags[i] = (struct kf_cell_tag){key, fg, bg};
		return px;
	}
}

/* The rarer parts of paint_cell, out of paint_row's pages: inlined, they made paint_row span two
 * 4 KiB pages, and its per-cell loop jumped between them (under TCG a jump to another page is a
 * look-up of the next block; docs/benchmarks.md, issue 5 session 18). A cluster's code points are
 * compose.c's (kf_cluster_cps). */

/* Paints one cell (or a wide pair) at strip x with its resolved look l. */
static void paint_cell(struct kf_render *r, const struct kf_render_source *s, struct kf_strip *o,
		       int x, int col, int y, const struct grid_cell *c, int cells, struct look l)
{
	int w = cells * r->cell_w;
	bool cur = cursor_here(r, s, col, y, cells);
	uint32_t cur_color = __builtin_expect(cur, 0) ? kf_cursor_color(r, s, l.fg, l.bg, l.reversed) : 0;
	if (cur && s->cursor.shape == GRID_CURSOR_BLOCK) {
		uint32_t t = l.fg;
		l.fg = l.bg;
		l.bg = cur_color;
		if (l.ul == t)
			l.ul = l.fg;
	}
	uint32_t cps[KF_CELL_CPS];
	size_t n = 0;
	unsigned gs = l.glyph_style;
	if (!l.hide_glyph && c->cp) {
		n = 1;
		cps[0] = c->cp;
		if (c->cp & GRID_CP_CLUSTER)
			n = kf_cluster_cps(r, s, c, cps, &gs, cells);
	}
	/* The common cell, a glyph (or nothing) over its background: copied pre-composed. */
	bool plain = n <= 1 && !cur &&
		     ((l.hide_glyph && lines_hidden(r, &l)) ||
		      (!l.underline && !(l.attrs & (GRID_ATTR_STRIKE | GRID_ATTR_OVERLINE))));
	if (plain && cells_ready(r)) {
		uint32_t cp = n ? cps[0] : 0;
		uint64_t key = kf_glyph_key(cp, cp ? gs : 0, cells);
		/* every glyph the fonts lack looks the same: one pre-composed box per colour pair */
		if (cp && r->missing_keys && kf_render_known_missing(r, key))
			key = KF_MISSING_KEY(cells);
		const uint32_t *px = cell_pixels(r, key, cp, gs, cells, w, l.fg, l.bg);
		if (px) {
			copy_cell(o->px + x, o->pitch, px, w, r->cell_h);
			return;
		}
	}
	compose(r, o, x, w, r->cell_h, n ? glyph_of(r, cps[0], gs, cells) : NULL, l.fg, l.bg);
	if (n > 1)
		kf_paint_marks(r, o, x, cps, n, l.glyph_style, cells, l.fg);
	if (!l.hide_glyph || !lines_hidden(r, &l)) {
		int absx = col * r->cell_w;
		/* the plain underline here, not two calls away in decor.c: the escape-heavy floods
		 * underline ~500 cells a frame, and each return costs TCG a look-up */
		if (l.underline == GRID_UNDERLINE_SINGLE)
			fill_rect(o, x, r->ul_pos, w, r->ul_thick, l.ul);
		else if (l.underline)
			kf_paint_underline(r, o, x, w, absx, l.underline, l.ul);
		if (l.attrs & (GRID_ATTR_STRIKE | GRID_ATTR_OVERLINE))
			kf_paint_lines(r, o, x, w, l.attrs, l.fg);
	}
	if (cur && s->cursor.shape != GRID_CURSOR_BLOCK)
		kf_paint_cursor(r, s, o, x, w, cur_color);
}

/* Runs of blanks shorter than this are copied pre-composed like any cell: a fill pays for itself
 * from about three cells on. */
#define BLANK_RUN_MIN 3
_Static_assert(BLANK_RUN_MIN == 3, "paint_hits looks two cells ahead for a run of blanks");

/* Fills w x cell_h pixels at strip x with c. */
static void fill_span(struct kf_render *r, struct kf_strip *o, int x, int w, uint32_t c)
{
	fill_rect(o, x, 0, w, r->cell_h, c);
}

_Static_assert(offsetof(struct grid_cell, style) == 4 && offsetof(struct grid_cell, width) == 8 &&
		       offsetof(struct grid_cell, flags) == 9 && sizeof(struct grid_cell) >= 12 &&
		       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "blank_run_end reads style, width and flags as one little-endian word");

/* A cell that shows nothing but its background when its look has no decoration (the cursor
 * aside). */
static bool is_blank_cell(const struct grid_cell *c)
{
	return (c->cp == 0 || c->cp == ' ') && c->width == 1;
}

/* Where the run of blanks in style (selected or not) from x on ends, before x1 and the cursor's cell.
 * A function of its own, not inlined into paint_row: the loop then sits in one place, not split
 * across paint_row's two pages (two look-ups of the next block per blank cell under TCG); a call and
 * a return per run instead (docs/benchmarks.md, issue 5 session 18). */
__attribute__((noinline)) static int blank_run_end(const struct grid_cell *row, int x, int x1,
						   int cur_x, uint16_t style, int sel)
{
	/* the cursor's cell ends a run as x1 does: one bound to test per cell, not two */
	if (cur_x >= x && cur_x < x1)
		x1 = cur_x;
	/* style, width and the selection bit are in the 8 bytes after cp (with the hyperlink id,
	 * the other flags and the padding, masked out): one load and one compare for the three, 9
	 * instructions a blank cell where there were 16 (a blank run is most of a screen's cells,
	 * every frame of a flood; docs/benchmarks.md, issue 5 session 25) */
	const uint64_t mask = 0xffffu | (uint64_t)0xff << 32 | (uint64_t)GRID_CELL_SELECTED << 40;
	const uint64_t want = style | (uint64_t)1 << 32 | (uint64_t)(sel != 0) << 40;
	for (; x < x1; x++) {
		uint64_t k;
		memcpy(&k, (const unsigned char *)&row[x] + offsetof(struct grid_cell, style), 8);
		/* cp 0 or ' ', the cells is_blank_cell takes */
		if ((row[x].cp | 0x20) != 0x20 || (k & mask) != want)
			break;
	}
	return x;
}

/* The pre-composed cell of key (a one-cell glyph's) in fg over bg, or NULL when it is not there
 * (cell_pixels' look-up without the miss). */
static inline const uint32_t *cell_hit(struct kf_render *r, uint64_t key, uint32_t fg, uint32_t bg)
{
	uint64_t h = (key ^ (uint64_t)fg << 29 ^ (uint64_t)bg * 0x2545f491u) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> (64 - r->cells.bits)) & ~(size_t)1;
	for (size_t k = 0; k < 2; k++) {
		const struct kf_cell_tag *t = &r->cells.tags[i + k];
		if (t->key == key && t->fg == fg && t->bg == bg) {
			r->cells.hits++;
			r->cells.mru[i / 2] = (uint8_t)k;
			return cell_slot(r, i + k, 1);
		}
	}
	return NULL;
}

/* Whether cell b shows what cell a shows (code point, style, width, selection). */
static inline bool same_cell(const struct grid_cell *a, const struct grid_cell *b)
{
	return a->cp == b->cp && a->style == b->style && a->width == b->width &&
	       a->flags == b->flags;
}

/* Paints cells x, x + 1, ... of row while each is a one-cell glyph or lone blank of style (not
 * selected: sel false) in the plain look l whose pre-composed cell is there: the pixels
 * paint_cell would copy. Returns the first cell it did not paint (x when none). The common cell
 * of a screen of text, in a loop that makes no call and no indirect jump, in one function of at
 * most 2 KiB aligned to 2 KiB (never across a 4 KiB page): under an emulator (TCG) a return, an
 * indirect jump (a switch's table) and a jump to another 4 KiB code page each cost a look-up of
 * the next translated block, several times the cost of copying the cell. */
__attribute__((noinline, aligned(2048))) static int
paint_hits(struct kf_render *r, const struct grid_cell *row, struct kf_strip *o, int x, int x0,
	   int x1, int cur_x, uint16_t style, bool sel, const struct look *l)
{
	const int cw = r->cell_w, ch = r->cell_h;
	const size_t pitch = o->pitch;
	for (; x < x1 && x != cur_x; x++) {
		const struct grid_cell *c = &row[x];
		if (c->width != 1 || c->style != style || !!(c->flags & GRID_CELL_SELECTED) != sel ||
		    (c->cp & GRID_CP_CLUSTER))
			break;
		/* a blank is copied like a glyph (the space between two words), unless a run of
		 * blanks that paint_span fills starts here (two more cells like it, neither under
		 * the cursor; a run this misses is only copied instead of filled) */
		if ((c->cp == 0 || c->cp == ' ') && x + BLANK_RUN_MIN <= x1 &&
		    (unsigned)(cur_x - x - 1) >= 2 && same_cell(c, c + 1) && same_cell(c, c + 2))
			break;
		uint32_t cp = l->hide_glyph ? 0 : c->cp;
		uint64_t key = kf_glyph_key(cp, cp ? l->glyph_style : 0, 1);
		if (cp && r->missing_keys && r->missing_keys[kf_missing_slot(key)] == key)
			key = KF_MISSING_KEY(1);
		const uint32_t *src = cell_hit(r, key, l->fg, l->bg);
		if (!src)
			break;
		uint32_t *dst = o->px + (size_t)(x - x0) * cw;
		if (cw == 10) {
			for (int j = 0; j < ch; j++, dst += pitch, src += 10)
				memcpy(dst, src, 40);
		} else if (cw == 8) {
			for (int j = 0; j < ch; j++, dst += pitch, src += 8)
				memcpy(dst, src, 32);
		} else {
			for (int j = 0; j < ch; j++, dst += pitch, src += cw)
				memcpy(dst, src, (size_t)cw * 4);
		}
	}
	return x;
}

static void paint_span(struct kf_render *r, const struct kf_render_source *s, struct kf_strip *o,
		       int y, int x0, int x1)
{
	const struct grid_cell *row = s->row(s->ud, y);
	/* runs of cells share a style: resolve it once per run */
	int last_style = -1, last_sel = -1;
	struct look l = {0};
	bool blank_plain = false;
	/* the cursor's cell is never part of a run of blanks */
	int cur_x = cursor_here(r, s, s->cursor.x, y, 1) ? s->cursor.x : -1;
	for (int x = x0; x < x1;) {
		struct grid_cell c = row[x];
		int cells = c.width == 2 && x + 1 < s->cols && row[x + 1].width == 0 ? 2 : 1;
		if (c.width == 0) {
			/* an orphaned right half (or a span starting on one): a blank in its own
			 * colours */
			c.cp = 0;
			c.width = 1;
		}
		int sel = !!(c.flags & GRID_CELL_SELECTED);
		if (c.style != last_style || sel != last_sel) {
			resolve(r, s, s->style ? s->style(s->ud, c.style) : NULL, sel, &l);
			last_style = c.style;
			last_sel = sel;
			blank_plain = (l.hide_glyph && lines_hidden(r, &l)) ||
				      (!l.underline &&
				       !(l.attrs & (GRID_ATTR_STRIKE | GRID_ATTR_OVERLINE)));
		}
		if (blank_plain && is_blank_cell(&row[x]) && x != cur_x) {
			/* A run of blanks in one look (most of a screen of text: the ends of lines) is its
			 * background, the pixels paint_cell would copy cell by cell: one fill. */
			int e = blank_run_end(row, x + 1, x1, cur_x, c.style, sel);
			if (e - x >= BLANK_RUN_MIN) {
				fill_span(r, o, (x - x0) * r->cell_w, (e - x) * r->cell_w, l.bg);
				x = e;
				continue;
			}
		}
		if (blank_plain && cells_ready(r)) {
			int e = paint_hits(r, row, o, x, x0, x1, cur_x, c.style, sel, &l);
			if (e > x) {
				x = e;
				continue;
			}
		}
		paint_cell(r, s, o, (x - x0) * r->cell_w, x, y, row[x].width == 0 ? &c : &row[x],
			   cells, l);
		x += cells;
	}
}

/* Paints cells [x0, x1) of row y and copies them into the target. Returns -ENOMEM or 0. Aligned to
 * a page, and under 4 KiB with what it inlines (paint_span, paint_cell): under TCG a jump to another
 * page is a look-up of the next block (docs/benchmarks.md, issue 5 sessions 9 and 18). At ~8 KiB its
 * per-cell loop jumped between two pages, two look-ups per blank cell of a run and per composed
 * cell; so the rarer and the larger parts (clusters, marks, strikethrough, the pre-composed cells'
 * look-up and copy, the scan of a blank run, the scratch path) are functions of their own: a call
 * and a return where they run, nothing where they do not. Keep its per-cell loop in the first page
 * (objdump -d): since concealed text keeps its lines it is 0x107c bytes (GCC 12, release), and what
 * lies past 0x1000 runs once per row at most (the copy-out call, parts of the widening of the span
 * at its left end, a source without styles, -ENOMEM). */
__attribute__((aligned(4096))) static int
paint_row(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
	  int y, int x0, int x1, struct kf_paint_rects *rs)
{
	/* A wide character's look depends on its right half and an orphaned right half on its left
	 * neighbour, and erasing one half of a wide character changes the other: widen the span by
	 * one cell each side (cheap) so both halves are always painted together, even when the
	 * damage names one. */
	const struct grid_cell *row = s->row(s->ud, y);
	if (x0 > 0)
		x0--;
	if (x1 < s->cols)
		x1++;
	if (x0 > 0 && row[x0].width == 0 && row[x0 - 1].width == 2)
		x0--;
	if (x1 < s->cols && row[x1 - 1].width == 2 && row[x1].width == 0)
		x1++;
	int px = x0 * r->cell_w, py = y * r->cell_h, pw = (x1 - x0) * r->cell_w, ph = r->cell_h;
	if (px >= t->width || py >= t->height)
		return 0;
	int cw = px + pw > t->width ? t->width - px : pw,
	    ch = py + ph > t->height ? t->height - py : ph;
	struct kf_strip o;
	bool direct = t->format == KF_RENDER_XRGB8888 && cw == pw && ch == ph;
	if (direct) {
		o.pitch = (size_t)t->stride / 4;
		o.px = (uint32_t *)((uint8_t *)t->data + (size_t)py * t->stride) + px;
	} else {
		o.pitch = (size_t)pw;
		o.px = kf_paint_scratch(r, (size_t)pw * ph);
		if (!o.px)
			return -ENOMEM;
	}
	paint_span(r, s, &o, y, x0, x1);
	kf_paint_pointer(r, &o, px, py, pw);
	if (!direct)
		kf_paint_copy_out(t, &o, px, py, cw, ch);
	kf_paint_add_rect(rs, px, py, cw, ch);
	return 0;
}

int kf_paint_row_cells(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		       int y, int x0, int x1, struct kf_paint_rects *rs)
{
	return paint_row(r, s, t, y, x0, x1, rs);
}

/* Row y from column x0 to x1 (a double row whole: paint-dbl.c), after the frame's palette
 * (kf_palette_frame): the two paint entries' common steps */
static int frame_row(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t, int y,
		     int x0, int x1, struct kf_paint_rects *rs)
{
	const int size = s->row_size ? s->row_size(s->ud, y) : 0;
	return size ? kf_paint_row_dbl(r, s, t, y, size, rs) : paint_row(r, s, t, y, x0, x1, rs);
}

static int paint_full(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		      struct kf_render_rect *rects, int max_rects);

int kf_render_paint(struct kf_render *r, const struct kf_render_source *src,
		    const struct kf_render_damage *d, const struct kf_render_target *t,
		    struct kf_render_rect *rects, int max_rects)
{
	struct kf_frame_source tmp;
	const struct kf_render_source *s = kf_render_frame_source(r, src, &tmp);
	if (!kf_paint_target_ok(t) || !s->row || d->rows != s->rows || d->cols != s->cols || max_rects < 0)
		return -EINVAL;
	kf_palette_frame(r, s);
	struct kf_paint_rects rs = {rects, 0, rects ? max_rects : 0};
	bool all = true;
	for (int y = 0; y < s->rows && all; y++)
		all = d->x0[y] == 0 && d->x1[y] == s->cols;
	/* everything damaged (palette, reverse video, zoom, size): the margins may have changed
	 * colour too */
	if (all)
		return paint_full(r, s, t, rects, max_rects);
	for (int y = 0; y < s->rows; y++) {
		if (d->x0[y] >= d->x1[y])
			continue;
		int ret = frame_row(r, s, t, y, d->x0[y], d->x1[y], &rs);
		if (ret)
			return ret;
	}
	return rs.n;
}

int kf_render_paint_full(struct kf_render *r, const struct kf_render_source *s,
			 const struct kf_render_target *t, struct kf_render_rect *rects,
			 int max_rects)
{
	struct kf_frame_source tmp;
	return paint_full(r, kf_render_frame_source(r, s, &tmp), t, rects, max_rects);
}

/* kf_render_paint_full of the source the frame paints (kf_render_frame_source's already). */
static int paint_full(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		      struct kf_render_rect *rects, int max_rects)
{
	if (!kf_paint_target_ok(t) || !s->row || max_rects < 0)
		return -EINVAL;
	kf_palette_frame(r, s);
	struct kf_paint_rects rs = {NULL, 0, 0};
	for (int y = 0; y < s->rows; y++) {
		int ret = frame_row(r, s, t, y, 0, s->cols, &rs);
		if (ret)
			return ret;
	}
	uint32_t bg = s->reverse_video ? r->eff[256] : r->eff[257];
	int gw = s->cols * r->cell_w, gh = s->rows * r->cell_h;
	if (gw < t->width)
		kf_paint_fill_target(t, gw, 0, t->width - gw, t->height, bg);
	if (gh < t->height)
		kf_paint_fill_target(t, 0, gh, gw < t->width ? gw : t->width, t->height - gh, bg);
	if (rects && max_rects > 0) {
		rects[0] = (struct kf_render_rect){0, 0, t->width, t->height};
		return 1;
	}
	return 0;
}
