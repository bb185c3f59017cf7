/* kmscon-felis/render/font-metrics.c: the cell height that holds the letters of a FreeType face
 * (font-ft.c's metrics).
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
#include <stdint.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include "kmscon-felis/render/render-internal.h"

void kf_ft_letters_fit(struct FT_FaceRec_ *face, int size, bool letters_only, int *asc, int *desc)
{
	static const uint8_t tall[] = {0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc7, 0xd1, 0xd2,
				       0xd3, 0xd4, 0xd5, 0xd6, 0xd9, 0xda, 0xdb, 0xdc, 0xdd,
				       0xfe, 0xff, 'g',	 'j',  'p',  'q',  'y',	 '_',  '|'};
	int top = *asc, bottom = *desc;
	size_t n = sizeof(tall) - (letters_only ? 2 : 0); /* without '_' and '|' */
	for (size_t i = 0; i < n && FT_IS_SCALABLE(face); i++) {
		FT_UInt gi =
		    FT_Get_Char_Index(face, tall[i]); /* not .notdef for a letter it lacks */
		if (!gi || FT_Load_Glyph(face, gi, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) ||
		    face->glyph->format != FT_GLYPH_FORMAT_OUTLINE)
			continue;
		FT_BBox b;
		FT_Outline_Get_CBox(&face->glyph->outline, &b);
		int t = (int)((b.yMax + 63) >> 6), d = (int)(-(b.yMin & ~63) >> 6);
		/* a font with some odd glyph among these keeps its spacing */
		if ((t > top ? t : top) + (d > bottom ? d : bottom) - *asc - *desc > size / 4)
			continue;
		top = t > top ? t : top;
		bottom = d > bottom ? d : bottom;
	}
	*asc = top;
	*desc = bottom;
}
