/* kmscon-felis/render/font-strike.c: a glyph of a bitmap strike placed in its cells, and bold and italic
 * synthesised on it, for font-ft.c.
 *
 * A strike's glyph is drawn pixel for pixel where it fits its cells. A fallback font of strikes (X11's PCF fonts
 * where fontconfig lets bitmap fonts in) may be larger than the cell: it was cut at the cells' edges, and
 * ClearlyU's U+13A0 (10 pixels wide) in DejaVu Sans Mono's 7-pixel cell at 12 px lost its right side, reading
 * as another letter. Its ink is moved into the cells, and box-filtered down to their width or height where it
 * is wider or taller (kf_strike_place); an outline is fitted before it is rasterised (font-metrics.c).
 *
 * A FreeType font of bitmaps only (X11's BDF and PCF fonts, OTB files: font-file=) has no outline for the
 * synthesis of font-metrics.c to thicken or shear: its bold and italic were the regular glyph, and bold text
 * (ls --color's directories, a shell's prompt) looked like the rest. They are made here on the placed glyph,
 * as font-bitmap.c makes a PSF font's: bold ORs each row with itself moved a pixel right, italic moves each
 * row right by a pixel every four rows above the baseline (left below it). Both stay in the glyph's cells and
 * lose no ink: a bold glyph whose ink reaches the right edge moves a pixel left first where the left edge has
 * room (else its column past the edge is cut, as nothing can show it); an italic too wide for that slope
 * leans by less, and one too wide for any stays upright. Once per glyph, not per frame.
 *
 * The zoom of such a font: it was opened again at the zoomed size, where FreeType picked the strike it had,
 * and the cells stayed as they were (the zoom key did nothing). It is zoomed as a PSF font is, the renderer's
 * cells scaled and each glyph drawn at its size, then magnified (kf_strike_render_scaled); where the font has
 * a larger strike (Terminus's OTB has nine, 12 to 32 pixels), at that strike magnified less (kf_strike_zoom).
 */
#include <errno.h>
#include <ft2build.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include FT_FREETYPE_H

#include "kmscon-felis/render/render-internal.h"

/* bm's coverage at column x of row y (mono or grey). */
static int coverage(const FT_Bitmap *bm, int x, int y)
{
	const uint8_t *row = bm->buffer + (long)y * bm->pitch;
	return bm->pixel_mode == FT_PIXEL_MODE_MONO ? ((row[x / 8] >> (7 - x % 8)) & 1) * 255 : row[x];
}

/* The box of bm's ink, [x0, x1) x [y0, y1); false for none. */
static bool ink_box(const FT_Bitmap *bm, int *x0, int *y0, int *x1, int *y1)
{
	*x0 = *y0 = INT_MAX;
	*x1 = *y1 = INT_MIN;
	for (int y = 0; y < (int)bm->rows; y++)
		for (int x = 0; x < (int)bm->width; x++)
			if (coverage(bm, x, y)) {
				*x0 = x < *x0 ? x : *x0;
				*x1 = x + 1 > *x1 ? x + 1 : *x1;
				*y0 = y < *y0 ? y : *y0;
				*y1 = y + 1 > *y1 ? y + 1 : *y1;
			}
	return *x1 > *x0;
}

/* Of source length n scaled to d (d <= n), how much of source pixel s falls in destination pixel i, in
 * units of 1/d of a source pixel: destination i covers [i * n, (i + 1) * n), source s [s * d, (s + 1) * d). */
static int64_t overlap(int i, int s, int n, int d)
{
	const int64_t lo = (int64_t)i * n > (int64_t)s * d ? (int64_t)i * n : (int64_t)s * d;
	const int64_t hi = (int64_t)(i + 1) * n < (int64_t)(s + 1) * d ? (int64_t)(i + 1) * n : (int64_t)(s + 1) * d;
	return hi > lo ? hi - lo : 0;
}

void kf_strike_place(const FT_Bitmap *bm, int left, int top, struct kf_glyph *out)
{
	int x0, y0, x1, y1;
	if (!ink_box(bm, &x0, &y0, &x1, &y1) ||
	    (left + x0 >= 0 && left + x1 <= out->w && top + y0 >= 0 && top + y1 <= out->h)) {
		kf_ft_copy_gray(bm, left, top, out);
		return;
	}
	/* the ink's size in out, and where it goes: as near as it can to where the strike sets it */
	const int iw = x1 - x0, ih = y1 - y0;
	const int dw = iw < out->w ? iw : out->w, dh = ih < out->h ? ih : out->h;
	int dx = left + x0, dy = top + y0;
	dx = dx < 0 ? 0 : dx > out->w - dw ? out->w - dw : dx;
	dy = dy < 0 ? 0 : dy > out->h - dh ? out->h - dh : dy;
	uint8_t *d = out->data;
	for (int y = 0; y < dh; y++)
		for (int x = 0; x < dw; x++) {
			/* the source pixels under destination (x, y), weighted by how much of each it covers */
			int64_t sum = 0;
			for (int sy = y * ih / dh; sy < ih && (long)sy * dh < (long)(y + 1) * ih; sy++)
				for (int sx = x * iw / dw; sx < iw && (long)sx * dw < (long)(x + 1) * iw; sx++)
					sum += coverage(bm, x0 + sx, y0 + sy) * overlap(x, sx, iw, dw) *
					       overlap(y, sy, ih, dh);
			d[(size_t)(dy + y) * out->w + dx + x] = (uint8_t)(sum / ((int64_t)iw * ih));
		}
	out->kind = KF_GLYPH_ALPHA;
}

/* The columns row y moves right by at slope 1/d about the baseline (d > g->h: none). */
static int row_shift(int y, int baseline, int d)
{
	return (baseline - y) / d;
}

/* The ink's first and last column over all rows, each row moved by row_shift at slope 1/d; false for none. */
static bool ink_extent(const struct kf_glyph *g, int baseline, int d, int *x0, int *x1)
{
	const uint8_t *m = g->data;
	*x0 = INT_MAX;
	*x1 = INT_MIN;
	for (int y = 0; y < g->h; y++) {
		const uint8_t *row = m + (size_t)y * g->w;
		int a = 0, b = g->w - 1;
		while (a < g->w && !row[a])
			a++;
		if (a == g->w)
			continue;
		while (!row[b])
			b--;
		const int s = row_shift(y, baseline, d);
		*x0 = a + s < *x0 ? a + s : *x0;
		*x1 = b + s > *x1 ? b + s : *x1;
	}
	return *x1 >= *x0;
}

/* Moves row (w bytes) right by dx (left when negative); what it leaves is cleared. Nothing falls off: the
 * callers keep the ink within the row. */
static void move_row(uint8_t *row, int w, int dx)
{
	if (dx >= w || dx <= -w) /* (an empty row far from the baseline) */
		memset(row, 0, (size_t)w);
	else if (dx > 0) {
		memmove(row + dx, row, (size_t)(w - dx));
		memset(row, 0, (size_t)dx);
	} else if (dx < 0) {
		memmove(row, row - dx, (size_t)(w + dx));
		memset(row + w + dx, 0, (size_t)-dx);
	}
}

static void embolden(struct kf_glyph *g)
{
	int x0, x1;
	if (!ink_extent(g, 0, INT_MAX, &x0, &x1))
		return;
	const bool left = x1 == g->w - 1 && x0 > 0;
	for (int y = 0; y < g->h; y++) {
		uint8_t *row = (uint8_t *)g->data + (size_t)y * g->w;
		if (left)
			move_row(row, g->w, -1);
		for (int x = g->w - 1; x > 0; x--)
			row[x] = row[x] > row[x - 1] ? row[x] : row[x - 1];
	}
}

static void slant(struct kf_glyph *g, int baseline)
{
	int x0, x1, d = 4;
	/* the steepest slope of 1/4, 1/5, 1/6, 1/8, ... that keeps the ink within the glyph's width */
	for (; d <= g->h; d += d < 6 ? 1 : d / 2)
		if (ink_extent(g, baseline, d, &x0, &x1) && x1 - x0 < g->w)
			break;
	if (d > g->h || !ink_extent(g, baseline, d, &x0, &x1))
		return;
	/* into the cells: right as far as the left edge needs, or left as far as the right edge needs */
	const int dx = x0 < 0 ? -x0 : x1 >= g->w ? g->w - 1 - x1 : 0;
	for (int y = 0; y < g->h; y++)
		move_row((uint8_t *)g->data + (size_t)y * g->w, g->w, row_shift(y, baseline, d) + dx);
}

void kf_strike_synthesise(struct kf_glyph *g, int baseline, bool bold, bool italic)
{
	if (g->kind != KF_GLYPH_ALPHA || g->w <= 0 || g->h <= 0)
		return;
	if (bold)
		embolden(g);
	if (italic)
		slant(g, baseline);
}

int kf_strike_render_scaled(struct kf_font *f, uint32_t cp, unsigned style, int scale, struct kf_glyph *out)
{
	struct kf_glyph g = {.kind = KF_GLYPH_ALPHA, .cells = out->cells, .w = (uint16_t)(out->w / scale),
			     .h = (uint16_t)(out->h / scale)};
	/* once per glyph (the cache keeps it): an allocation is nothing beside FreeType's load */
	g.data = malloc((size_t)g.w * g.h * 4 + 1);
	if (!g.data)
		return -ENOMEM;
	int ret = f->render(f, cp, style, 1, &g);
	out->kind = g.kind;
	if (!ret && g.kind != KF_GLYPH_EMPTY) {
		const size_t px = g.kind == KF_GLYPH_COLOR ? 4 : 1;
		uint8_t *d = out->data;
		for (int y = 0; y < out->h; y++, d += (size_t)out->w * px) {
			const uint8_t *s = (const uint8_t *)g.data + (size_t)(y / scale) * g.w * px;
			if (y % scale) { /* a row the one above repeats */
				memcpy(d, d - (size_t)out->w * px, (size_t)out->w * px);
				continue;
			}
			for (int x = 0; x < out->w; x++)
				memcpy(d + (size_t)x * px, s + (size_t)(x / scale) * px, px);
		}
	}
	free(g.data);
	return ret;
}

int kf_strike_zoom(const int *heights, int n, int size, int scale, int *mag)
{
	int cur = 0, best = -1, best_m = scale;
	for (int i = 1; i < n; i++) /* the strike set_size chose at size: the closest */
		if (abs(heights[i] - size) < abs(heights[cur] - size))
			cur = i;
	const int target = n > 0 ? heights[cur] * scale : 0;
	for (int i = 0; i < n; i++) {
		const int h = heights[i], m = h > 0 ? target / h : 0;
		const int bh = best < 0 ? 0 : heights[best];
		if (m >= 1 && (h * m > bh * best_m || (h * m == bh * best_m && h > bh)))
			best = i, best_m = m;
	}
	*mag = scale;
	if (best < 0)
		return size;
	*mag = best_m;
	return heights[best];
}
