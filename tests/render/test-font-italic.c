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
 * it. --plain measures what the cell shows of the plain shear instead (reported, not checked).
 * The bitmap fonts' italic (bitmap()) keeps every pixel of the upright glyph, a row moved whole
 * (--psf FILE... checks those fonts alone). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The bitmap fonts' synthesised italic (font-bitmap.c) moves each row of the upright glyph whole, a
 * pixel right every four rows above the baseline (the full shear); a glyph too wide for its cell
 * once so slanted lost its right edge (M W, in bold most capitals of Terminus). */
struct bm_tally {
	int n, cut, wide, leaner, upright;
};

/* Whether row y of it (w pixels wide) is row y of up moved whole by *t columns: every ink pixel of
 * up drawn, no other pixel but those of the bold column the upright's cell cut ([cut, cut + s) of
 * up's columns, s the scale). *t is INT_MIN for an empty row. */
static bool row_moved(const uint8_t *up, const uint8_t *it, int w, int y, int cut, int s, int *t)
{
	const uint8_t *u = up + (size_t)y * w, *i = it + (size_t)y * w;
	int u0 = 0, i0 = 0;
	while (u0 < w && !u[u0])
		u0++;
	while (i0 < w && !i[i0])
		i0++;
	*t = INT_MIN;
	if (u0 == w || i0 == w)
		return u0 == i0;
	*t = i0 - u0;
	for (int x = 0; x < w; x++) {
		int sx = x - *t;
		if (u[x] && (x + *t < 0 || x + *t >= w))
			return false;
		if (!i[x] != !(sx >= 0 && sx < w && u[sx]) && !(i[x] && sx >= cut && sx < cut + s))
			return false;
	}
	return true;
}

/* The columns the full shear moves pixel row y of a glyph at scale s right by. */
static int full_shift(const struct kf_render *r, int y)
{
	return r->scale * ((r->font->baseline - y / r->scale) / 4);
}

/* The width of upright glyph up (w x h) with its ink rows above the baseline moved one pixel right
 * in their upper half, the least lean a glyph too wide for the full shear can show. */
static int half_lean_width(const struct kf_render *r, const uint8_t *up, int w, int h)
{
	int s = r->scale, base = r->font->baseline, top = -1, bottom = -1, lo = INT_MAX,
	    hi = INT_MIN;
	for (int y = 0; y < h && y / s < base; y++)
		if (alpha_ink(up + (size_t)y * w, (size_t)w))
			top = top < 0 ? y / s : top, bottom = y / s;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int sy = y / s,
			    m = sy <= bottom && (bottom - sy) * 2 / (bottom - top + 1) >= 1 ? s : 0;
			if (up[(size_t)y * w + x])
				lo = x + m < lo ? x + m : lo, hi = x + m > hi ? x + m : hi;
		}
	return hi - lo + 1;
}

/* Checks the italic of cp (bold: bold italic) cells wide against its upright glyph. */
static void bm_glyph(struct kf_render *r, const char *font, uint32_t cp, unsigned bold, int cells,
		     struct bm_tally *t)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, bold, cells);
	if (g->kind != KF_GLYPH_ALPHA || g->missing) /* (Terminus has no U+00A2: the box) */
		return;
	const int w = g->w, h = g->h, s = r->scale, fw = r->font->cell_w;
	const int cut =
	    ((w / s - fw) / 2 + fw) * s; /* the upright's loop stops before bold's column */
	uint8_t *up = malloc((size_t)w * h);
	if (!up)
		abort();
	memcpy(up, g->data, (size_t)w * h);
	long ink = alpha_ink(up, (size_t)w * h);
	g = kf_render_glyph(r, cp, bold | KF_GLYPH_ITALIC, cells);
	const uint8_t *it = g->kind == KF_GLYPH_ALPHA && g->w == w && g->h == h ? g->data : NULL;
	bool moved = it != NULL, back = false, full = true;
	int top = INT_MIN, bottom = INT_MIN, y0 = -1, prev = INT_MAX, lo = INT_MAX, hi = INT_MIN;
	for (int y = 0; it && y < h; y++) {
		int m;
		moved &= row_moved(up, it, w, y, cut, s, &m);
		if (m == INT_MIN)
			continue;
		if (y0 < 0)
			y0 = y, top = m;
		back |= m > prev;
		prev = bottom = m;
		full &= m - full_shift(r, y) == top - full_shift(r, y0);
		for (int x = 0; x < w; x++)
			if (up[(size_t)y * w + x]) {
				int sx = x + full_shift(r, y);
				lo = sx < lo ? sx : lo, hi = sx > hi ? sx : hi;
			}
	}
	const char *how = cells == 2 ? " two cells wide" : s > 1 ? " at scale 2" : "";
	t->n++;
	if (!moved) {
		t->cut++;
		printf("FAIL %s %sitalic U+%04X%s: %ld of %ld pixels drawn\n", font,
		       bold ? "bold " : "", cp, how, it ? alpha_ink(it, (size_t)w * h) / 255 : 0,
		       ink / 255);
	} else if (back) {
		t->cut++;
		printf("FAIL %s %sitalic U+%04X%s leans back\n", font, bold ? "bold " : "", cp,
		       how);
	} else if (hi - lo < w && !full) {
		/* the slanted rows fit: the look italic has had, unchanged */
		t->cut++;
		printf("FAIL %s %sitalic U+%04X%s: not the full shear\n", font, bold ? "bold " : "",
		       cp, how);
	} else if (hi - lo >= w) {
		t->wide++;
		t->leaner += top > bottom;
		t->upright += top == bottom;
		if (top == bottom && half_lean_width(r, up, w, h) <= w) {
			t->cut++;
			printf("FAIL %s %sitalic U+%04X%s: upright, though a pixel's lean fits\n",
			       font, bold ? "bold " : "", cp, how);
		} else if (top == bottom && !*how) {
			printf("  %s %sitalic U+%04X%s: no column to lean in, upright\n", font,
			       bold ? "bold " : "", cp, how);
		}
	}
	free(up);
}

/* The built-in 8x16 font's italic (a PSF font's too: psf, or NULL): every glyph of printable ASCII
 * and Latin-1, italic and bold italic, is its upright (bold) glyph with each row moved whole, none
 * lost at the cell's edge and none leaning back; those whose slanted rows fit are the full shear
 * (moved left where the cell has room), the others lean as far as the cell lets them (at least a
 * pixel where their upper half moved a pixel fits). In a cell, two cells (a wide character) and at
 * scale 2. */
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
	const char *font = !psf ? "built-in" : strrchr(psf, '/') ? strrchr(psf, '/') + 1 : psf;
	for (int pass = 0; pass < 3; pass++) {
		int cells = pass == 1 ? 2 : 1;
		if (pass == 2 && kf_render_set_scale(r, 2) < 0) {
			printf("FAIL %s: scale 2\n", font);
			failures++;
			break;
		}
		struct bm_tally t = {0};
		for (unsigned b = 0; b < 2; b++)
			for (uint32_t cp = 0x21; cp <= 0xff; cp++)
				if (cp < 0x7f || cp > 0xa0)
					bm_glyph(r, font, cp, b ? KF_GLYPH_BOLD : 0, cells, &t);
		static const char *const how[] = {"", " two cells wide", " at scale 2"};
		printf("%s%s: %d glyphs italic and bold italic, %d cut, %d too wide for the full "
		       "shear (%d leaning less, %d upright)\n",
		       font, how[pass], t.n, t.cut, t.wide, t.leaner, t.upright);
		failures += t.cut;
	}
	kf_render_destroy(r);
}

int main(int argc, char **argv)
{
	/* --plain: the measure against the bare shear (what the cell shows of it), reported, not
	 * checked */
	bool plain = argc > 1 && !strcmp(argv[1], "--plain");
	/* --psf FILE...: the bitmap check of those fonts only (all of /usr/share/consolefonts) */
	if (argc > 1 && !strcmp(argv[1], "--psf")) {
		for (int i = 2; i < argc; i++)
			bitmap(argv[i]);
		printf("%d failures\n", failures);
		return failures ? 1 : 0;
	}
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
		marks(), bitmap(NULL), bitmap("/usr/share/consolefonts/Lat2-Terminus16.psf.gz"),
		    /* tall (descenders lean left), and letters reaching the last column (bold's
		     * column cut) */
		    bitmap("/usr/share/consolefonts/Lat2-Terminus32x16.psf.gz"),
		    bitmap("/usr/share/consolefonts/Lat15-Fixed16.psf.gz");
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
