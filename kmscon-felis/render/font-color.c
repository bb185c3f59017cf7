/* kmscon-felis/render/font-color.c: colour emoji glyphs for font-ft.c: a colour bitmap scaled into
 * the glyph's cells, and the one glyph a colour font draws for an emoji sequence.
 *
 * An emoji ZWJ sequence (U+1F469 U+200D U+1F4BB), a flag (two regional indicators), an emoji with a
 * skin tone modifier and a keycap (U+0031 U+FE0F U+20E3) are each one glyph of a colour emoji font,
 * reached through the font's GSUB ligatures, which FreeType does not apply. HarfBuzz shapes them;
 * only such clusters are shaped (compose.c picks them), never plain text.
 */
#include <errno.h>
#include <ft2build.h>
#include <hb-ft.h>
#include <hb.h>
#include <stdlib.h>
#include FT_FREETYPE_H

#include "kmscon-felis/render/render-internal.h"

void kf_ft_copy_color(const FT_Bitmap *bm, struct kf_glyph *out)
{
	int bw = (int)bm->width, bh = (int)bm->rows;
	if (bw <= 0 || bh <= 0)
		return;
	double sc =
	    (double)out->w / bw < (double)out->h / bh ? (double)out->w / bw : (double)out->h / bh;
	int dw = (int)(bw * sc), dh = (int)(bh * sc);
	if (dw < 1)
		dw = 1;
	if (dh < 1)
		dh = 1;
	int ox = (out->w - dw) / 2, oy = (out->h - dh) / 2;
	uint32_t *d = out->data;
	for (int y = 0; y < dh; y++) {
		int sy0 = y * bh / dh, sy1 = (y + 1) * bh / dh;
		if (sy1 <= sy0)
			sy1 = sy0 + 1;
		for (int x = 0; x < dw; x++) {
			int sx0 = x * bw / dw, sx1 = (x + 1) * bw / dw;
			if (sx1 <= sx0)
				sx1 = sx0 + 1;
			uint32_t acc[4] = {0, 0, 0, 0}, n = 0;
			for (int sy = sy0; sy < sy1 && sy < bh; sy++) {
				const uint8_t *s = bm->buffer + (long)sy * bm->pitch;
				for (int sx = sx0; sx < sx1 && sx < bw; sx++, n++)
					for (int k = 0; k < 4; k++)
						acc[k] += s[sx * 4 + k];
			}
			if (!n)
				continue;
			/* BGRA in memory -> 0xAARRGGBB */
			d[(size_t)(y + oy) * out->w + x + ox] = (acc[3] / n) << 24 |
								(acc[2] / n) << 16 |
								(acc[1] / n) << 8 | acc[0] / n;
		}
	}
	out->kind = KF_GLYPH_COLOR;
}

/* HarfBuzz's view of one FreeType face, kept: building it reads the face's cmap and GSUB. */
struct kf_shaper {
	FT_Face face;
	hb_font_t *font;
	hb_buffer_t *buf;
};

void kf_shaper_destroy(struct kf_shaper *s)
{
	if (!s)
		return;
	hb_buffer_destroy(s->buf);
	hb_font_destroy(s->font);
	free(s);
}

int kf_shape_one(struct kf_shaper **sp, FT_Face face, const uint32_t *cps, size_t n, unsigned *gi)
{
	struct kf_shaper *s = *sp;
	if (s && s->face != face) {
		kf_shaper_destroy(s);
		*sp = s = NULL;
	}
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
		/* the face's tables through FreeType, shaped by HarfBuzz's own OpenType code (no
		 * FreeType glyph loading: only the glyph indices are wanted) */
		hb_face_t *hf = hb_ft_face_create_referenced(face);
		s->face = face;
		s->font = hb_font_create(hf);
		hb_face_destroy(hf);
		s->buf = hb_buffer_create();
		if (!hb_buffer_allocation_successful(s->buf)) {
			kf_shaper_destroy(s);
			return -ENOMEM;
		}
		*sp = s;
	}
	hb_buffer_clear_contents(s->buf);
	/* U+FE0F and the like would be left as invisible glyphs of their own */
	hb_buffer_set_flags(s->buf, HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES);
	hb_buffer_add_utf32(s->buf, cps, (int)n, 0, (int)n);
	hb_buffer_guess_segment_properties(s->buf);
	hb_shape(s->font, s->buf, NULL, 0);
	unsigned count;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(s->buf, &count);
	if (count != 1 || !info[0].codepoint)
		return -ENOENT;
	*gi = info[0].codepoint;
	return 0;
}
