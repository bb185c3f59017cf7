/* kmscon-felis/render/font-metrics.c: the cell height that holds the letters of a FreeType face
 * (font-ft.c's metrics), and the cell's size and underline from it.
 *
 * The rounded ascender and descender do not always hold the hinted letters: at 15 or 17 px DejaVu
 * Sans Mono's accented capitals reach a pixel above, which the cell's edge cut off (the accents of
 * É, Å, Ñ all but vanished). The cell grows to hold the letters of Latin-1 that reach highest (each
 * accent over a flat and a round capital; an accent is as high over the other bases) and lowest.
 * font-ft.c measures the bold face too, on its letters only: its '|' and '_' reach a pixel below
 * the regular ones at 12, 15, 16, 32 and 40 px in DejaVu Sans Mono Bold, and a cell a pixel taller
 * at the common 16 px (two rows fewer on a 1080-line screen) for a bar's last pixel is a poor
 * trade; its accented capitals reach a pixel above at 10, 17, 18, 26 and 40 px, and lost the top
 * of their accents.
 */
#include <ft2build.h>
#include <stdbool.h>
#include <stdint.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

/* The extent of the letters among tall[] (and '_', '|' unless letters_only), each also thickened
 * by bold (26.6; 0: not). */
static void fit(struct FT_FaceRec_ *face, int size, bool letters_only, long bold, int *asc,
		int *desc)
{
	static const uint8_t tall[] = {0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc7, 0xd1, 0xd2,
				       0xd3, 0xd4, 0xd5, 0xd6, 0xd9, 0xda, 0xdb, 0xdc, 0xdd,
				       0xfe, 0xff, 'g',	 'j',  'p',  'q',  'y',	 '_',  '|'};
	const size_t letters = sizeof(tall) - 2;
	int top = *asc, bottom = *desc;
	size_t n = letters_only ? letters : sizeof(tall);
	for (size_t i = 0; i < n && FT_IS_SCALABLE(face); i++) {
		FT_UInt gi =
		    FT_Get_Char_Index(face, tall[i]); /* not .notdef for a letter it lacks */
		if (!gi || FT_Load_Glyph(face, gi, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) ||
		    face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
			continue;
		/* the plain letter, then (a letter, for a synthesised bold) thickened */
		for (int pass = 0; pass < (bold && i < letters ? 2 : 1); pass++) {
			if (pass)
				FT_Outline_Embolden(&face->glyph->outline, bold);
			FT_BBox b;
			FT_Outline_Get_CBox(&face->glyph->outline, &b);
			int t = (int)((b.yMax + 63) >> 6), d = (int)(-(b.yMin & ~63) >> 6);
			/* a font with some odd glyph among these keeps its spacing */
			if ((t > top ? t : top) + (d > bottom ? d : bottom) - *asc - *desc >
			    size / 4)
				continue;
			top = t > top ? t : top;
			bottom = d > bottom ? d : bottom;
		}
	}
	*asc = top;
	*desc = bottom;
}

void kf_ft_letters_fit(struct FT_FaceRec_ *face, int size, bool letters_only, int *asc, int *desc)
{
	fit(face, size, letters_only, 0, asc, desc);
}

void kf_ft_letters_fit_bold(struct FT_FaceRec_ *face, int size, int *asc, int *desc)
{
	fit(face, size, false, kf_ft_bold_strength(size), asc, desc);
}

/* The cell's size, baseline and underline of a font whose letters need asc and desc
 * (kf_ft_letters_fit): the width of 'M', and FreeType's underline moved down into the cell. */
void kf_ft_cell_metrics(struct FT_FaceRec_ *face, int size, int asc, int desc, struct kf_font *base)
{
	const FT_Size_Metrics *m = &face->size->metrics;
	int w = 0;
	if (!FT_Load_Char(face, 'M', FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT))
		w = (int)((face->glyph->advance.x + 32) >> 6);
	if (w <= 0)
		w = (int)((m->max_advance + 63) >> 6);
	if (w <= 0)
		w = size / 2 > 0 ? size / 2 : 1;
	/* a broken font must not make cells (and so every cached glyph) absurdly large */
	if (asc + desc <= 0 || asc < 0 || desc < 0 || asc + desc > 4 * size + 4) {
		log_warn("font metrics out of range (ascender %d, descender %d at %d px): using "
			 "defaults",
			 asc, desc, size);
		asc = size;
		desc = size / 4;
	}
	if (w > 2 * size + 2)
		w = size / 2 > 0 ? size / 2 : 1;
	base->cell_w = w;
	base->cell_h = asc + desc;
	base->baseline = asc;
	int thick = 1, pos = asc + 1;
	if (FT_IS_SCALABLE(face)) {
		thick = (int)((FT_MulFix(face->underline_thickness, m->y_scale) + 32) >> 6);
		pos = asc - (int)((FT_MulFix(face->underline_position, m->y_scale) + 32) >> 6);
	}
	if (thick < 1)
		thick = 1;
	if (pos < asc + 1)
		pos = asc + 1;
	if (pos + thick > base->cell_h)
		pos = base->cell_h - thick;
	base->ul_pos = pos;
	base->ul_thick = thick;
}

/* Moves o's points (its box b) right by dx and into x from lo to hi (26.6), where it is wider,
 * narrowed to it (x only, which light hinting leaves on no grid). A glyph whose upright outline
 * (box r) reaches past lo or hi may reach as far. */
static void keep_within(struct FT_Outline_ *o, const FT_BBox *r, FT_BBox b, FT_Pos dx, long lo,
			long hi)
{
	lo = r->xMin < lo ? r->xMin : lo;
	hi = r->xMax > hi ? r->xMax : hi;
	b.xMin += dx;
	b.xMax += dx;
	FT_Vector *p = o->points;
	if (b.xMax - b.xMin <= hi - lo || b.xMax <= b.xMin) {
		dx += b.xMax > hi ? hi - b.xMax : b.xMin < lo ? lo - b.xMin : 0;
		for (int i = 0; dx && i < o->n_points; i++)
			p[i].x += dx;
		return;
	}
	for (int i = 0; i < o->n_points; i++)
		p[i].x =
		    lo + (FT_Pos)((int64_t)(p[i].x + dx - b.xMin) * (hi - lo) / (b.xMax - b.xMin));
}

/* FT_Outline_Embolden keeps a letter's left edge and moves its right one out by the whole strength
 * (and its top up by it): a letter that fills the cell's width (m M W @ at most sizes, in DejaVu
 * Sans Mono) had its thickened right stem cut by the cell's edge, up to two pixels' worth of ink at
 * 7 or 9 px. Such a letter is moved left where the cell has room for it there, else narrowed
 * (x only, which light hinting leaves on no grid) to the width the regular letter may use: its
 * stems stay thicker, its counters narrower, as a designed bold's are. A letter that reaches
 * past the cell in the regular face (_ at some sizes) may reach as far in bold, no farther. */
void kf_ft_embolden(struct FT_Outline_ *o, int size, long lo, long hi)
{
	FT_BBox r, b;
	FT_Outline_Get_CBox(o, &r);
	FT_Outline_Embolden(o, kf_ft_bold_strength(size));
	FT_Outline_Get_CBox(o, &b);
	keep_within(o, &r, b, 0, lo, hi);
}

/* The italic's shear, x += y * 0x3800 / 0x10000 rounded half away from zero, which is exactly what
 * FT_Outline_Transform does with the matrix {0x10000, 0x3800, 0, 0x10000} (FT_MulFix leaves x and
 * y as they are for the 0x10000s and the 0) but inline: FreeType makes two calls a point and four
 * to FT_MulFix, each return a look-up of the next block under an emulator (TCG), ~40 000 for the
 * ~190 italic ASCII glyphs an escape-heavy flood first shows (docs/benchmarks.md, issue 5 session
 * 29). tests/render/test-fonts.c compares the two. */
void kf_ft_shear(FT_Vector *p, int n)
{
	for (int i = 0; i < n; i++) {
		int64_t ab = (int64_t)p[i].y * 0x3800;
		p[i].x += ab >= 0 ? (FT_Pos)((ab + 0x8000) >> 16) : -(FT_Pos)((-ab + 0x8000) >> 16);
	}
}

/* Slanted about the baseline (kf_ft_shear), a glyph's top moves right by a fifth of its height:
 * past the cell's right edge in DejaVu Sans Mono, whose letters fill most of the cell's width (M W
 * H N O @ at every size, bold all but i l and the like), which cut their top right. Slanted about
 * the middle of the face's line, yc (DejaVu Sans Mono Oblique turns about half its cap height,
 * near it), a glyph leans both ways as a designed oblique does; one still wider than the cell
 * (M W m, bold ones) is moved or narrowed into it as kf_ft_embolden does. */
void kf_ft_slant(struct FT_Outline_ *o, long yc, long lo, long hi)
{
	FT_BBox r, b;
	FT_Outline_Get_CBox(o, &r);
	kf_ft_shear(o->points, o->n_points);
	FT_Outline_Get_CBox(o, &b);
	/* a glyph mostly left of its cell: a mark hanging over the glyph before it (DejaVu Sans's
	 * have no advance), which font-ft.c's place() centres: slanted only */
	bool hangs = r.xMin + r.xMax < 2 * lo;
	/* what the shear moves the middle row by, the rounding as kf_ft_shear's */
	int64_t ab = (int64_t)yc * 0x3800;
	FT_Pos mid = ab >= 0 ? (FT_Pos)((ab + 0x8000) >> 16) : -(FT_Pos)((-ab + 0x8000) >> 16);
	/* within the cell itself, even where the upright glyph reaches past its side: by a sliver
	 * there (bold A at 9 px, _), by a whole slanted stroke here */
	r.xMin = hangs ? b.xMin - mid : lo;
	r.xMax = hangs ? b.xMax - mid : hi;
	keep_within(o, &r, b, -mid, r.xMin, r.xMax);
}

int kf_ft_centring(int adv, int w)
{
	return adv > 0 && adv < w ? (w - adv) / 2 : adv > w ? -((adv - w) / 2) : 0;
}

long kf_ft_narrow(struct FT_Outline_ *o, long advance, int w)
{
	if (w <= 0 || advance < (long)w * 64 + 32)
		return advance;
	FT_Matrix m = {(FT_Fixed)(((int64_t)w * 64 << 16) / advance), 0, 0, 0x10000};
	FT_Outline_Transform(o, &m);
	return (long)w * 64;
}

long kf_ft_fit_width(struct FT_Outline_ *o, long advance, int w, bool mark)
{
	advance = kf_ft_narrow(o, advance, w);
	if (w <= 0 || mark)
		return advance;
	/* the cells in the outline's units: place() moves the glyph right by the centring */
	const long off = kf_ft_centring((int)((advance + 32) >> 6), w);
	const FT_BBox cells = {.xMin = -off * 64, .xMax = (w - off) * 64};
	FT_BBox b;
	FT_Outline_Get_CBox(o, &b);
	/* up to half a pixel past a side is the advance's rounding (DejaVu Sans Mono's 1233 units are 14.45
	 * pixels at 24 px, its cell 14) or a glyph made to join its neighbours (U+2500, U+0640: 20 units past
	 * each side): what the cell cuts is a faint column, and the glyph is left as it is */
	if (b.xMin >= cells.xMin - 32 && b.xMax <= cells.xMax + 32)
		return advance;
	keep_within(o, &cells, b, 0, cells.xMin, cells.xMax);
	return advance;
}

void kf_ft_fit_height(struct FT_Outline_ *o, int above, int below)
{
	FT_BBox b;
	FT_Outline_Get_CBox(o, &b);
	const FT_Pos top = (FT_Pos)above * 64, bottom = -(FT_Pos)below * 64;
	const bool over = b.yMax > top + 32, under = b.yMin < bottom - 32;
	if (over == under)
		return;
	FT_Vector *p = o->points;
	for (int i = 0; i < o->n_points; i++)
		if (over && p[i].y > 0)
			p[i].y = (FT_Pos)((int64_t)p[i].y * top / b.yMax);
		else if (under && p[i].y < 0)
			p[i].y = (FT_Pos)((int64_t)p[i].y * bottom / b.yMin);
}
