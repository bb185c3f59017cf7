/* kmscon-felis/render/font-ft-bound.c: a FreeType glyph's bitmap: its largest size, and its
 * rasterisation.
 *
 * A glyph's bitmap is the box of its outline (or, for a bitmap strike, the size its table gives),
 * which the font sets: up to 65,535 x 65,535 pixels (4 GiB of grey) before FreeType itself refuses
 * (its smooth renderer allocates and zeroes the whole box). A hostile or broken font, one that
 * fontconfig picks as a fallback as much as one given by font-file=, could so make a console
 * allocate gigabytes for one character. Of a glyph only what falls in its cells is drawn (place()
 * in font-ft.c clips), so a box larger than GLYPH_CELLS times the cells' larger side, at most
 * GLYPH_MAX_PX, is refused before it is rasterised: the glyph is drawn as the missing-glyph box,
 * which says something is wrong, where a clipped corner of a giant glyph would only look like ink.
 * Real glyphs stay well inside: a wide glyph in one cell is about two cells, ligature-like ones
 * (U+FDFD) about four ems, the bound at least 4 cell heights (~5 ems). Colour emoji strikes (136 x
 * 128 pixels, scaled into the cell later) are bitmaps: they meet only the hard cap. */
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

#define GLYPH_CELLS 4	  /* times the larger side of the glyph's cells */
#define GLYPH_MIN_PX 64	  /* tiny sizes: hinting may round a glyph past a 2-pixel cell */
#define GLYPH_MAX_PX 2048 /* a side, whatever the size: 4 MiB of grey */
#define LOG_MAX 16	  /* glyphs logged per font: a font of giant glyphs logs no flood */

/* Grows *buf to n bytes (contents not kept). */
void *kf_ft_grow(void **buf, size_t *cap, size_t n)
{
	if (n > *cap) {
		void *p = realloc(*buf, n);
		if (!p)
			return NULL;
		*buf = p;
		*cap = n;
	}
	return *buf;
}

/* Rasterises o (moved: translated into the bitmap) into bm, whose buffer is *buf (grown as
 * needed, reused across glyphs), exactly as FT_Glyph_To_Bitmap(FT_RENDER_MODE_NORMAL, no origin)
 * does through the smooth renderer (ft_smooth_render after ft_glyphslot_preset_bitmap, FreeType
 * 2.12): the box is the control box widened to whole pixels, the outline is translated so its
 * bottom left is the bitmap's, and the rasteriser writes into a zeroed grey bitmap of that box.
 * Without the glyph object FreeType would allocate and free (its copy of the outline, the
 * bitmap glyph and its buffer), which under an emulator is a few thousand look-ups a glyph
 * (docs/benchmarks.md, issue 5 session 29). *left and *top are the bitmap's bearings. Returns 0,
 * or -ENOENT where FreeType would fail or takes another path (overlapping contours are
 * oversampled by ft_smooth_raster_overlap): the caller then uses FT_Glyph_To_Bitmap.
 * tests/render/test-fonts.c compares the two. */
int kf_ft_outline_bitmap(FT_Library lib, FT_Outline *o, void **buf, size_t *cap, FT_Bitmap *bm,
			 int *left, int *top)
{
	if (o->flags & FT_OUTLINE_OVERLAP)
		return -ENOENT;
	FT_BBox cb;
	FT_Outline_Get_CBox(o, &cb);
	FT_Pos x0 = cb.xMin >> 6, y0 = cb.yMin >> 6;
	FT_Pos x1 = (cb.xMax + 63) >> 6, y1 = (cb.yMax + 63) >> 6;
	if (x0 < -0x8000 || x1 > 0x7fff || y0 < -0x8000 || y1 > 0x7fff)
		return -ENOENT;
	*bm = (FT_Bitmap){.rows = (unsigned)(y1 - y0),
			  .width = (unsigned)(x1 - x0),
			  .pitch = (int)(x1 - x0),
			  .num_grays = 256,
			  .pixel_mode = FT_PIXEL_MODE_GRAY};
	*left = (int)x0;
	*top = (int)y1;
	if (!bm->rows || !bm->width)
		return 0;
	size_t n = (size_t)bm->rows * bm->width;
	if (!kf_ft_grow(buf, cap, n))
		return -ENOENT;
	bm->buffer = *buf;
	memset(bm->buffer, 0, n);
	FT_Outline_Translate(o, -x0 * 64, -y0 * 64);
	return FT_Outline_Get_Bitmap(lib, o, bm) ? -ENOENT : 0;
}

int kf_ft_glyph_max_side(int out_w, int out_h)
{
	long side = (long)GLYPH_CELLS * (out_w > out_h ? out_w : out_h);
	return side < GLYPH_MIN_PX ? GLYPH_MIN_PX : side > GLYPH_MAX_PX ? GLYPH_MAX_PX : (int)side;
}

bool kf_ft_glyph_fits(struct FT_FaceRec_ *face, const struct FT_GlyphSlotRec_ *slot,
		      const struct FT_Outline_ *o, uint32_t cp, int out_w, int out_h,
		      unsigned *logged)
{
	long w, h;
	int max = GLYPH_MAX_PX;
	if (o) {
		/* the box kf_ft_outline_bitmap and FreeType's smooth renderer give the bitmap */
		FT_BBox cb;
		FT_Outline_Get_CBox(o, &cb);
		w = ((cb.xMax + 63) >> 6) - (cb.xMin >> 6);
		h = ((cb.yMax + 63) >> 6) - (cb.yMin >> 6);
		max = kf_ft_glyph_max_side(out_w, out_h);
	} else {
		w = slot->bitmap.width;
		h = slot->bitmap.rows;
	}
	if (w <= max && h <= max)
		return true;
	if (*logged < LOG_MAX) {
		const FT_UInt gi = FT_Get_Char_Index(face, cp);
		log_warn("%s %s: glyph %u (U+%04X) is %ldx%ld pixels, more than %dx%d (%d times "
			 "the cell): drawn as "
			 "the missing-glyph box%s",
			 face->family_name ? face->family_name : "(unnamed font)",
			 face->style_name ? face->style_name : "", gi, (unsigned)cp, w, h, max, max,
			 GLYPH_CELLS,
			 ++*logged == LOG_MAX ? " (further ones of this font not logged)" : "");
	}
	return false;
}

/* Copies a grey or mono bitmap into out (zeroed by the caller) at left, top, clipped to out. A
 * grey row's visible part is one memcpy: a glyph is rasterised once per first sight (hundreds in
 * a screen of mixed scripts), and a clip test per pixel cost about as much as FreeType's own
 * placing of the outline (docs/benchmarks.md, issue 5 session 11). No pointer before the row's first
 * visible column is formed (row + left, left < 0, was undefined behaviour: test-font-open.c). */
void kf_ft_copy_gray(const FT_Bitmap *bm, int left, int top, struct kf_glyph *out)
{
	uint8_t *d = out->data;
	int x0 = left < 0 ? -left : 0, x1 = (int)bm->width;
	if (left + x1 > out->w)
		x1 = out->w - left;
	for (unsigned y = 0; y < bm->rows && x0 < x1; y++) {
		int ty = top + (int)y;
		if (ty < 0 || ty >= out->h)
			continue;
		const uint8_t *src = bm->buffer + (long)y * bm->pitch;
		uint8_t *p = d + (size_t)ty * out->w + (left + x0);
		if (bm->pixel_mode != FT_PIXEL_MODE_MONO) {
			memcpy(p, src + x0, (size_t)(x1 - x0));
			continue;
		}
		for (int x = x0; x < x1; x++)
			p[x - x0] = ((src[x / 8] >> (7 - x % 8)) & 1) * 255;
	}
	out->kind = KF_GLYPH_ALPHA;
}
