/* tests/render/test-font-italic.c: a synthesised italic keeps its glyphs in the cell. A font with
 * no italic face (a --font-file, or a family installed without its oblique) draws italic as its
 * upright outline slanted (kf_ft_shear: x += 0.21875 y). Slanted about the baseline, a glyph's top
 * moved right by a fifth of its height and the cell's right edge cut it (the top of W, M, the
 * right stems of H, N, the bar of T at every size in DejaVu Sans Mono: the cell is barely wider
 * than the letters). The renderer slants about the middle of the face's line (ascent to descent)
 * and keeps the slanted glyph within the cell as the synthesised bold does (kf_ft_slant, moved or
 * narrowed): each glyph of printable ASCII and Latin-1, italic and bold italic, 6-40 px, must show
 * all the ink of its slanted outline (even where the upright glyph does not: _ at some sizes),
 * still lean as much as the shear makes it (I | T), and keep most of the ink the plain shear gives
 * it. --plain measures what the cell shows of the plain shear instead (reported, not checked). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static const char *const dir = "/usr/share/fonts/truetype/dejavu/";

struct tally {
	int glyphs, cut, thin, upright;
	double lost, narrowed; /* pixels' worth of ink: lost to the cell's edges, to narrowing */
};

/* The loaded glyph as the renderer synthesises it in r's cell (fb: thickened, fi: slanted; plain:
 * slanted by the bare shear about the baseline instead), rendered; its ink, or -1. */
static long reference(struct kf_render *r, FT_Face face, int size, bool fb, bool fi, bool plain)
{
	int cw = r->cell_w, adv = (int)((face->glyph->advance.x + 32) >> 6);
	long off = adv > 0 && adv < cw ? (cw - adv) / 2 : adv > cw ? -((adv - cw) / 2) : 0;
	FT_Outline *o = &face->glyph->outline;
	if (fb)
		kf_ft_embolden(o, size, -off * 64, (cw - off) * 64);
	if (fi && plain)
		kf_ft_shear(o->points, o->n_points);
	else if (fi) /* about the middle of the face's ascent and descent */
		kf_ft_slant(o, (face->size->metrics.ascender + face->size->metrics.descender) / 2,
			    -off * 64, (cw - off) * 64);
	if (FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
		return -1;
	const FT_Bitmap *bm = &face->glyph->bitmap;
	long s = 0;
	for (unsigned y = 0; y < bm->rows; y++)
		s += alpha_ink(bm->buffer + (size_t)y * (size_t)bm->pitch, bm->width);
	return s;
}

/* The ink of face's glyph of cp synthesised as style's (fb, fi) whole, and (*drawn) in r's cell. */
static long glyph(struct kf_render *r, FT_Face face, int size, uint32_t cp, unsigned style, bool fb,
		  bool fi, bool plain, long *drawn)
{
	*drawn = 0;
	if (FT_Load_Char(face, cp, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT))
		return -1;
	long whole = reference(r, face, size, fb, fi, plain);
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	if (g->kind == KF_GLYPH_ALPHA)
		*drawn = alpha_ink(g->data, (size_t)g->w * g->h);
	return whole;
}

/* How far right the top inked row of r's glyph lies from its bottom one (centres of ink, pixels),
 * and the rows between them (*rows). */
static double lean(struct kf_render *r, uint32_t cp, unsigned style, int *rows)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	double top = NAN, bottom = NAN;
	int y0 = -1, y1 = -1;
	for (int y = 0; g->kind == KF_GLYPH_ALPHA && y < g->h; y++) {
		const uint8_t *p = (const uint8_t *)g->data + (size_t)y * g->w;
		long s = alpha_ink(p, (size_t)g->w), m = 0;
		if (!s)
			continue;
		for (int x = 0; x < g->w; x++)
			m += (long)x * p[x];
		if (y0 < 0)
			y0 = y, top = (double)m / s;
		y1 = y, bottom = (double)m / s;
	}
	*rows = y1 - y0;
	return top - bottom;
}

static void sizes(const char *file, unsigned style, bool plain, struct tally *t, int *printed)
{
	char path[256];
	snprintf(path, sizeof(path), "%s%s", dir, file);
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib) || FT_New_Face(lib, path, 0, &face)) {
		printf("FAIL %s not opened\n", path);
		failures++;
		return;
	}
	for (int size = 6; size <= 40; size++) {
		struct kf_render_config fc = {.font_file = path, .font_size = size};
		struct kf_render *r;
		if (kf_render_create(&fc, &r) < 0) {
			printf("FAIL %s at %d px\n", file, size);
			failures++;
			break;
		}
		FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size);
		bool fb = false, fi = false, ub = false, ui;
		kf_font_ft_style(r->font, style, &fb, &fi);
		kf_font_ft_style(r->font, style & ~KF_GLYPH_ITALIC, &ub, &ui);
		if (!fi)
			printf("FAIL %s at %d px: italic not synthesised\n", file, size),
			    failures++;
		for (uint32_t cp = 0x21; cp <= 0xff; cp++) {
			if (cp >= 0x7f && cp <= 0xa0)
				continue;
			long ud, ui_ = glyph(r, face, size, cp, style & ~KF_GLYPH_ITALIC, ub, false,
					     plain, &ud);
			long d, whole = glyph(r, face, size, cp, style, fb, fi, plain, &d);
			long pd, pw = glyph(r, face, size, cp, style, fb, fi, true, &pd);
			if (ui_ <= 0 || whole <= 0)
				continue;
			t->glyphs++;
			/* the upright glyph cut itself (_ at some sizes): its italic is not */
			t->upright += ui_ - ud >= 255;
			t->lost += (double)(whole - d) / 255;
			t->narrowed += (double)(pw - whole) / 255;
			/* a pixel's worth of the slanted glyph's ink not drawn */
			if (whole - d >= 255) {
				t->cut++;
				if ((*printed)++ < 12)
					printf("FAIL %s%s U+%04X at %d px in a %d-pixel wide cell: "
					       "%.1f of %.1f pixels of ink not drawn\n",
					       style & KF_GLYPH_BOLD ? "bold " : "", file, cp, size,
					       r->cell_w, (whole - d) / 255.0, whole / 255.0);
			}
			/* narrowed to fit, a glyph keeps at least two thirds of its ink (/, the
			 * widest slanted, three quarters at most sizes) */
			if (3 * whole < 2 * pw) {
				t->thin++;
				if ((*printed)++ < 12)
					printf(
					    "FAIL %s%s U+%04X at %d px: %.1f of the shear's %.1f "
					    "pixels of ink\n",
					    style & KF_GLYPH_BOLD ? "bold " : "", file, cp, size,
					    whole / 255.0, pw / 255.0);
			}
		}
		/* the upright strokes lean as the shear makes them, give or take a pixel */
		for (const char *c = "I|T"; size >= 9 && *c; c++) {
			int rows;
			double l = lean(r, (uint32_t)*c, style, &rows);
			if (!(l >= 0.21875 * rows - 1.0))
				printf("FAIL %s%s '%c' at %d px leans %.2f pixels over %d rows\n",
				       style & KF_GLYPH_BOLD ? "bold " : "", file, *c, size, l,
				       rows),
				    failures++;
		}
		kf_render_destroy(r);
	}
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
}

/* The x of the centre of r's glyph of cp in style's ink (pixels), or NAN. */
static double centre_x(struct kf_render *r, uint32_t cp, unsigned style)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	long s = 0, m = 0;
	for (int i = 0; g->kind == KF_GLYPH_ALPHA && i < g->w * g->h; i++) {
		s += ((const uint8_t *)g->data)[i];
		m += (long)(i % g->w) * ((const uint8_t *)g->data)[i];
	}
	return s ? (double)m / s : NAN;
}

/* A proportional font's combining marks hang left of their origin with no advance (DejaVu Sans's
 * U+0301 lies from -0.16 to -0.04 em), and font-ft.c's place() centres them in the cell: slanted,
 * they are centred the same, not moved into the cell's left edge by the fit (U+0332 reaches 0.005
 * em past its origin). */
static void marks(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%sDejaVuSans.ttf", dir);
	if (access(path, R_OK)) {
		printf("no %s: hanging marks not checked\n", path);
		return;
	}
	static const uint32_t cps[] = {0x301, 0x308, 0x332, 0x20d7};
	int n = 0;
	for (int size = 10; size <= 30; size += 4) {
		struct kf_render_config fc = {.font_file = path, .font_size = size};
		struct kf_render *r;
		if (kf_render_create(&fc, &r) < 0) {
			printf("FAIL %s at %d px\n", path, size);
			failures++;
			return;
		}
		for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++, n++) {
			double up = centre_x(r, cps[i], 0),
			       it = centre_x(r, cps[i], KF_GLYPH_ITALIC);
			if (!(fabs(it - up) <= 1.0))
				printf("FAIL italic U+%04X at %d px centred at %.1f, upright at "
				       "%.1f\n",
				       cps[i], size, it, up),
				    failures++;
		}
		kf_render_destroy(r);
	}
	printf("hanging marks: %d, italic centred as upright\n", n);
}

/* The built-in 8x16 font's italic (a PSF font's too: psf, or NULL) shears each row right by
 * (baseline
 * - y) / 4 pixels (font-bitmap.c): the letters that fill the width (J Ñ Æ © %, in bold most) lost
 * their top right to the cell's edge. Every glyph whose slanted rows fit the cell's width shows all
 * of its upright pixels (a row only moves), italic and bold italic; the ones too wide once slanted
 * (M W) are counted. */
static void bitmap(const char *psf)
{
	struct kf_render_config fc = {
	    .engine = psf ? KF_RENDER_ENGINE_PSF : KF_RENDER_ENGINE_BUILTIN, .font_file = psf};
	struct kf_render *r;
	if (psf && access(psf, R_OK)) {
		printf("no %s: not checked\n", psf);
		return;
	}
	if (kf_render_create(&fc, &r) < 0) {
		printf("FAIL the font %s\n", psf ? psf : "built in");
		failures++;
		return;
	}
	int n = 0, cut = 0, wide = 0;
	for (unsigned b = 0; b < 2; b++)
		for (uint32_t cp = 0x21; cp <= 0xff; cp++) {
			if (cp >= 0x7f && cp <= 0xa0)
				continue;
			unsigned bold = b ? KF_GLYPH_BOLD : 0;
			const struct kf_glyph *g = kf_render_glyph(r, cp, bold, 1);
			if (g->kind != KF_GLYPH_ALPHA)
				continue;
			int lo = g->w, hi = -1;
			for (int y = 0; y < g->h; y++)
				for (int x = 0; x < g->w; x++) {
					int s = x + (r->font->baseline - y) / 4;
					if (((const uint8_t *)g->data)[y * g->w + x])
						lo = s < lo ? s : lo, hi = s > hi ? s : hi;
				}
			long up = alpha_ink(g->data, (size_t)g->w * g->h);
			g = kf_render_glyph(r, cp, bold | KF_GLYPH_ITALIC, 1);
			long it =
			    g->kind == KF_GLYPH_ALPHA ? alpha_ink(g->data, (size_t)g->w * g->h) : 0;
			n++;
			wide += hi - lo >= r->cell_w;
			if (hi - lo < r->cell_w && it != up) {
				cut++;
				printf("FAIL %s %sitalic U+%04X: %ld of %ld pixels drawn\n",
				       psf ? psf : "built-in", b ? "bold " : "", cp, it / 255,
				       up / 255);
			}
		}
	printf("%s: %d glyphs italic and bold italic, %d cut, %d too wide once slanted\n",
	       psf ? psf : "built-in font", n, cut, wide);
	failures += cut;
	kf_render_destroy(r);
}

int main(int argc, char **argv)
{
	/* --plain: the measure against the bare shear (what the cell shows of it), reported, not
	 * checked */
	bool plain = argc > 1 && !strcmp(argv[1], "--plain");
	static const char *const files[] = {"DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"};
	char path[256];
	snprintf(path, sizeof(path), "%s%s", dir, files[0]);
	if (access(path, R_OK)) {
		printf("SKIP: no DejaVu Sans Mono\n");
		return 77;
	}
	int printed = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		for (unsigned b = 0; b < 2; b++) {
			unsigned style = KF_GLYPH_ITALIC | (b ? KF_GLYPH_BOLD : 0);
			struct tally t = {0};
			sizes(files[i], style, plain, &t, &printed);
			printf(
			    "%s%s italic, 6-40 px: %d glyphs, %d cut (%.0f pixels of ink lost to "
			    "the cell's edges), %d narrowed below 2/3 (%.0f pixels narrowed "
			    "away), %d upright glyphs cut themselves\n",
			    files[i], b ? " bold" : "", t.glyphs, t.cut, t.lost, t.thin, t.narrowed,
			    t.upright);
			if (!plain)
				failures += t.cut + t.thin;
		}
	}
	if (!plain)
		marks(), bitmap(NULL), bitmap("/usr/share/consolefonts/Lat2-Terminus16.psf.gz");
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
