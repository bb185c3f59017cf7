/* kmscon-felis/render/decor.c: what the painter (paint.c) draws over a cell's glyph: underlines,
 * the cursor's underline and bar shapes, and the mouse pointer. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

/* The top row of the curly underline at pixel column x. */
static int curly_y_at(const struct kf_render *r, int x, int amp, int top)
{
	int t = r->ul_thick, h = r->cell_h;
	double ph = 2 * M_PI * x / (r->cell_w > 3 ? r->cell_w : 4);
	int yy = top + (int)lround(amp * (1 - sin(ph)) / 2.0 * 2) - amp / 2;
	if (yy < 0)
		yy = 0;
	if (yy + t > h)
		yy = h - t;
	return yy;
}

/* curly_y_at, remembered per column (KF_CURLY_COLS of them) for the current metrics: a sine per
 * pixel column and frame is a large part of painting curly underlines, and costs far more where
 * floating point is slow. The same function computes every entry, so the pixels are the same.
 * Returns the table (entries UINT16_MAX until computed), valid for this amp and top, or NULL when
 * it cannot be allocated. Once per underline, not per column: the metrics' five compares per column
 * were most of a curly underline's instructions, and under TCG each one ends a translated block
 * (docs/benchmarks.md, issue 5 session 25). */
static uint16_t *curly_table(struct kf_render *r, int amp, int top)
{
	if (!r->curly.y || r->curly.cell_w != r->cell_w || r->curly.cell_h != r->cell_h ||
	    r->curly.thick != r->ul_thick || r->curly.amp != amp || r->curly.top != top) {
		if (!r->curly.y)
			r->curly.y = malloc(KF_CURLY_COLS * sizeof(*r->curly.y));
		if (!r->curly.y)
			return NULL;
		memset(r->curly.y, 0xff, KF_CURLY_COLS * sizeof(*r->curly.y));
		r->curly.cell_w = r->cell_w;
		r->curly.cell_h = r->cell_h;
		r->curly.thick = r->ul_thick;
		r->curly.amp = amp;
		r->curly.top = top;
	}
	return r->curly.y;
}

/* The top row of the curly underline at pixel column x, from table cy (curly_table's, or NULL). */
static int curly_y(const struct kf_render *r, uint16_t *cy, int x, int amp, int top)
{
	if (!cy || x < 0 || x >= KF_CURLY_COLS)
		return curly_y_at(r, x, amp, top);
	if (cy[x] == UINT16_MAX)
		cy[x] = (uint16_t)curly_y_at(r, x, amp, top);
	return cy[x];
}

/* Underline styles; patterns use the absolute pixel column so they continue across cells. Aligned
 * so that its ~1.4 KiB never straddle a page: at 0x7c30-0x8185 in bench-render each curly underline
 * jumped across the boundary and back, two look-ups of the next block per call under TCG. */
__attribute__((aligned(2048))) void kf_paint_underline(struct kf_render *r, struct kf_strip *o, int x, int w, int absx, uint8_t kind,
		      uint32_t c)
{
	int t = r->ul_thick, y = r->ul_pos, h = r->cell_h;
	switch (kind) {
	case GRID_UNDERLINE_SINGLE:
		kf_paint_fill_rect(o, x, y, w, t, c);
		break;
	case GRID_UNDERLINE_DOUBLE: /* where: render.c, update_metrics */
		kf_paint_fill_rect(o, x, r->ul_double[0], w, t, c);
		kf_paint_fill_rect(o, x, r->ul_double[1], w, t, c);
		break;
	case GRID_UNDERLINE_CURLY: {
		int amp = (h - y - t) < t + 1 ? (h - y - t) : t + 1;
		if (amp < 1)
			amp = 1;
		int top = y + amp > h - t ? h - t : y;
		/* an underline on the cell's last rows (X11's 7x14, DejaVu Sans Mono at 6-8 px) leaves the wave no
		 * row below it: it was a straight line there, the single underline's; it rises from it instead */
		if (top >= h - t)
			top = h - t - 1 > 0 ? h - t - 1 : 0;
		uint16_t *cy = curly_table(r, amp, top);
		/* t pixels of each column stored here: a call (and return) per column cost more than
		 * its stores, most of all where returns are emulated. t >= 1 (render.c) is tested once,
		 * and each column's rows counted down to 0: the exit test (sub, jne) QEMU's TCG runs
		 * inline, where a for loop's entry test per column (test, jle) was a helper call
		 * computing all the flags (docs/benchmarks.md, issue 5 session 43) */
		if (t < 1)
			break;
		for (int i = 0; i < w; i++) {
			uint32_t *p = o->px + (size_t)curly_y(r, cy, absx + i, amp, top) * o->pitch + x + i;
			unsigned j = (unsigned)t;
			do {
				*p = c;
				p += o->pitch;
			} while (--j);
		}
		break;
	}
	case GRID_UNDERLINE_DOTTED:
		for (int i = 0; i < w; i++)
			if ((absx + i) / t % 2 == 0)
				kf_paint_fill_rect(o, x + i, y, 1, t, c);
		break;
	case GRID_UNDERLINE_DASHED: {
		int len = r->cell_w / 3 > 2 ? r->cell_w / 3 : 2;
		for (int i = 0; i < w; i++)
			if ((absx + i) / len % 2 == 0)
				kf_paint_fill_rect(o, x + i, y, 1, t, c);
		break;
	}
	default:
		break;
	}
}

/* How far apart two colours are: the sum of the channels' differences. */
static unsigned color_distance(uint32_t a, uint32_t b)
{
	unsigned d = 0;
	for (int k = 0; k < 24; k += 8) {
		int x = (int)(a >> k & 0xff) - (int)(b >> k & 0xff);
		d += (unsigned)(x < 0 ? -x : x);
	}
	return d;
}

/* The cursor's colour without OSC 12, as xterm 379 paints it (cursorColor defaults to the foreground;
 * measured pixel by pixel, tests/render/test-cursor.c test_cursor_colors): a bar or an underline is the
 * default foreground as painted (under DECSCNM the palette's background); a block is the default
 * foreground over any text colour (it took the text's colour here: a red letter under a red block,
 * its ink the cell's background), the default background over reversed text (SGR 7; a selection's
 * highlight is taken as SGR 7 is, as xterm's ReverseOrHilite does, not measured), and, under DECSCNM,
 * the text's colour. */
static uint32_t default_cursor_color(const struct kf_render *r, const struct kf_render_source *s, uint32_t fg,
				     bool reversed)
{
	if (s->cursor.shape != GRID_CURSOR_BLOCK)
		return s->reverse_video ? r->eff[257] : r->eff[256];
	if (s->reverse_video)
		return fg;
	return reversed ? r->eff[257] : r->eff[256];
}

/* As xterm keeps its cursor visible (charproc.c, ShowCursor and set_cursor_outline_gc): a cursor
 * colour that is the cell's background gives way to the cell's text colour, and text in its own
 * background colour (SGR 31;41, a blank in SGR 30;40) to the default foreground or background,
 * whichever lies farther from it (xterm compares the two pixel values as numbers; the channels'
 * distance picks the same for the usual palettes and is not fooled by one bright channel). xterm
 * tests the cursor colour against the default background for its block; any cell's background is
 * tested here, for every shape, so that a block in OSC 12's colour does not vanish on a cell of
 * that colour either (nor the default block on SGR 30;47, which xterm paints all in 47's grey). Out
 * of paint.c's paint_row, which calls it only for the cursor's cell. */
__attribute__((noinline)) uint32_t kf_cursor_color(const struct kf_render *r,
						   const struct kf_render_source *s, uint32_t fg,
						   uint32_t bg, bool reversed)
{
	uint32_t c = r->cursor_color ? r->eff[258] : default_cursor_color(r, s, fg, reversed);
	if (c != bg)
		return c;
	if (fg != bg)
		return fg;
	uint32_t dfg = r->eff[256], dbg = r->eff[257];
	if (s->reverse_video) {
		uint32_t t = dfg;
		dfg = dbg;
		dbg = t;
	}
	return color_distance(bg, dfg) >= color_distance(bg, dbg) ? dfg : dbg;
}

void kf_paint_cursor(struct kf_render *r, const struct kf_render_source *s, struct kf_strip *o, int x,
		   int w, uint32_t c)
{
	int t = r->line_thick < 1 ? 1 : r->line_thick;
	/* two lines thick, within the cell (a cell one pixel wide or high: a font with absurd metrics) */
	int th = 2 * t < r->cell_h ? 2 * t : r->cell_h, tw = 2 * t < w ? 2 * t : w;
	switch (s->cursor.shape) {
	case GRID_CURSOR_UNDERLINE:
		kf_paint_fill_rect(o, x, r->cell_h - th, w, th, c);
		break;
	case GRID_CURSOR_BAR:
		kf_paint_fill_rect(o, x, 0, tw, r->cell_h, c);
		break;
	default:
		break;
	}
}

/* The pointer arrow: 'X' outline (black), 'o' fill (white); its tip is the top-left pixel. */
static const char *const arrow[] = {
    "X..........", "XX.........", "XoX........", "XooX.......", "XoooX......", "XooooX.....",
    "XoooooX....", "XooooooX...", "XoooooooX..", "XooooooooX.", "XoooooXXXXX", "XooXooX....",
    "XoX.XooX...", "XX..XooX...", "X....XooX..", ".....XooX..", "......XX...",
};
#define ARROW_W 11
#define ARROW_H 17

void kf_render_pointer_box(const struct kf_render *r, int *x, int *y, int *w, int *h)
{
	*x = r->pointer_x;
	*y = r->pointer_y;
	*w = ARROW_W * r->scale;
	*h = ARROW_H * r->scale;
}

/* Draws the part of the pointer inside strip pixels [sx0, sx0 + sw) x [sy0, sy0 + cell_h). */
void kf_paint_pointer(struct kf_render *r, struct kf_strip *o, int sx0, int sy0, int sw)
{
	if (!r->pointer_visible)
		return;
	int s = r->scale;
	for (int j = 0; j < ARROW_H * s; j++) {
		int py = r->pointer_y + j - sy0;
		if (py < 0 || py >= r->cell_h)
			continue;
		for (int i = 0; i < ARROW_W * s; i++) {
			int px = r->pointer_x + i - sx0;
			char ch = arrow[j / s][i / s];
			if (px < 0 || px >= sw || ch == '.')
				continue;
			o->px[(size_t)py * o->pitch + px] = ch == 'X' ? 0x000000 : 0xffffff;
		}
	}
}

/* --- the rarer parts of a cell, kept out of paint.c's paint_row (see kf_paint_marks) --- */

/* Premultiplied colour over the destination: out = src + dst * (1 - a). */
void kf_paint_blit_color_row(uint32_t *p, const uint32_t *m, int w)
{
	for (int i = 0; i < w; i++) {
		uint32_t sp = m[i];
		unsigned a = sp >> 24;
		if (a == 255) {
			p[i] = sp & 0xffffff;
		} else if (a) {
			uint32_t d = kf_blend(p[i], 0, a);
			uint32_t rb = (d & 0xff00ff) + (sp & 0xff00ff);
			uint32_t gg = (d & 0xff00) + (sp & 0xff00);
			if (rb & 0x1000000)
				rb |= 0xff0000;
			if (rb & 0x100)
				rb |= 0xff;
			if (gg & 0x10000)
				gg |= 0xff00;
			p[i] = (rb & 0xff00ff) | (gg & 0xff00);
		}
	}
}

/* g at strip x, raised by up rows (<= g->y0: a stacked mark, kf_paint_marks) */
static void blit(struct kf_strip *o, int x, const struct kf_glyph *g, uint32_t fg, int up)
{
	if (g->kind == KF_GLYPH_ALPHA) {
		const uint8_t *m = g->data;
		for (int y = g->y0; y < g->y1; y++) {
			uint32_t *p = o->px + (size_t)(y - up) * o->pitch + x;
			const uint8_t *mr = m + (size_t)y * g->w;
			for (int i = 0; i < g->w; i++) {
				unsigned a = mr[i];
				if (a == 255)
					p[i] = fg;
				else if (a)
					p[i] = kf_blend(p[i], fg, a);
			}
		}
	} else if (g->kind == KF_GLYPH_COLOR) {
		const uint32_t *m = g->data;
		for (int y = g->y0; y < g->y1; y++)
			kf_paint_blit_color_row(o->px + (size_t)y * o->pitch + x, m + (size_t)y * g->w,
						g->w);
	}
}

/* A combining mark of any script, as the grid decides what joins a cell (vt_char_props: zero width,
 * Extend, not pictographic), so Arabic, Hebrew, Cyrillic... marks are drawn too. Variation selectors
 * and the tags of plane 14 are Extend as well but only choose how the base looks: not drawn. */
static bool is_mark(uint32_t cp)
{
	return vt_char_props(cp) == VT_PROP_MARK && !(cp >= 0xfe00 && cp <= 0xfe0f) &&
	       cp < 0xe0000;
}

/* A cluster's combining marks over its first glyph. Here, not inlined into paint.c's paint_row:
 * inlined, these parts made paint_row span two 4 KiB pages and its per-cell loop jump between them,
 * a look-up of the next block per jump under TCG (docs/benchmarks.md, issue 5 session 18).
 * Marks above the letter are stacked: each one after the first above mark, or after a composite
 * whose accent is above its letter (a + U+0301 drawn as á), is raised until a blank row separates
 * it from the ink above the letter so far, as far as the cell's top allows. A font's mark-to-mark
 * positioning (GPOS mkmk) stacks them so; DejaVu Sans Mono has none, and every mark was drawn where
 * it sits over a bare small letter: the diaeresis of a + U+0301 + U+0308 on the acute, a second
 * circumflex on the first. Marks below the letter, and the first above it, stay as the font put them
 * (a horn, an ogonek touch their letter by design). */
void kf_paint_marks(struct kf_render *r, struct kf_strip *o, int x, const uint32_t *cps, size_t n,
		    unsigned style, int cells, uint32_t fg)
{
	int top = INT_MAX; /* the highest row of ink above the letter so far (INT_MAX: none yet) */
	bool above = false; /* an above mark was met (top then says where the ink above ends) */
	for (size_t i = 1; i < n; i++) {
		if (!is_mark(cps[i]))
			continue;
		const struct kf_glyph *g = kf_render_glyph(r, cps[i], style, cells);
		if (g->missing) /* a mark the fonts lack is dropped, not boxed */
			continue;
		int up = 0;
		if (g->kind == KF_GLYPH_ALPHA && g->y1 <= r->font->baseline && g->y0 < g->y1) {
			uint32_t plain = above ? 0 : kf_compose_base(cps[0]);
			if (plain) { /* the composite's accent: its ink above the plain letter's */
				/* Each look-up may evict the glyph the one before it returned (a full cache whose
				 * clock hand is on its entry): c's ink is read before b is looked up, and g is
				 * looked up again after b (a hit, unless b's insertion took its entry; the
				 * letter was then drawn in the mark's place). */
				const struct kf_glyph *c = kf_render_glyph(r, cps[0], style, cells);
				int c_y0 = c->kind == KF_GLYPH_ALPHA ? c->y0 : INT_MAX;
				const struct kf_glyph *b = kf_render_glyph(r, plain, style, cells);
				if (!b->missing && b->kind == KF_GLYPH_ALPHA && c_y0 < b->y0)
					top = c_y0;
				g = kf_render_glyph(r, cps[i], style, cells);
			}
			above = true;
			if (top != INT_MAX && g->y1 + 1 > top)
				up = g->y1 + 1 - top < g->y0 ? g->y1 + 1 - top : g->y0;
			top = g->y0 - up < top ? g->y0 - up : top;
		}
		blit(o, x, g, fg, up);
	}
}

/* Strikethrough and overline (here for the same reason). */
void kf_paint_lines(struct kf_render *r, struct kf_strip *o, int x, int w, uint16_t attrs, uint32_t fg)
{
	int t = r->line_thick;
	if (attrs & GRID_ATTR_STRIKE)
		kf_paint_fill_rect(o, x, r->cell_h * 9 / 16 - t / 2, w, t, fg);
	if (attrs & GRID_ATTR_OVERLINE)
		kf_paint_fill_rect(o, x, 0, w, t, fg);
}
