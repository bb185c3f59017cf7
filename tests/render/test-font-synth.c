/* tests/render/test-font-synth.c: FreeType faces: styles synthesised from a face's outlines (from the
 * regular face, or the bold one slanted for bold italic; sheared and emboldened outlines drawn as
 * FreeType draws them), and a glyph's placement in its cell (baseline, centring, clipping, every
 * Latin-1 letter whole). PSF fonts and bad font files: test-fonts.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_OUTLINE_H

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

/* font_in's fontconfig directories (test_bold_slanted) */
static char tmpdir[] = "/tmp/kf-render-test-XXXXXX";

/* A font file alone has no styled siblings: italic and bold italic are sheared (and emboldened)
 * from the regular face. Printable ASCII's second synthesised style comes from the outline kept at
 * the first load (font-ft.c); it must give the pixels a fresh load gives. Two renderers, the
 * styles asked for in opposite orders: each style is loaded fresh in one and from the kept outline
 * in the other. */
static void test_synthesised(void)
{
	struct kf_render_config fc = {.font_file =
					  "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"};
	struct kf_render *a, *b;
	if (kf_render_create(&fc, &a) < 0) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	CHECK(kf_render_create(&fc, &b) == 0);
	const unsigned bi = KF_GLYPH_BOLD | KF_GLYPH_ITALIC;
	int differ = 0, inked = 0, sheared = 0;
	for (uint32_t cp = 0x21; b && cp < 0x7f; cp++) {
		const struct kf_glyph *ga[2], *gb[2];
		ga[0] = kf_render_glyph(a, cp, KF_GLYPH_ITALIC, 1);
		ga[1] = kf_render_glyph(a, cp, bi, 1);
		gb[1] = kf_render_glyph(b, cp, bi, 1);
		gb[0] = kf_render_glyph(b, cp, KF_GLYPH_ITALIC, 1);
		for (int i = 0; i < 2; i++) {
			size_t n = (size_t)ga[i]->w * ga[i]->h;
			differ += ga[i]->kind != gb[i]->kind || ga[i]->y0 != gb[i]->y0 ||
				  ga[i]->y1 != gb[i]->y1 || ga[i]->w != gb[i]->w ||
				  memcmp(ga[i]->data, gb[i]->data, n);
			inked += ga[i]->kind == KF_GLYPH_ALPHA;
		}
		const struct kf_glyph *reg = kf_render_glyph(b, cp, 0, 1);
		sheared += memcmp(reg->data, gb[0]->data, (size_t)reg->w * reg->h) != 0;
	}
	CHECK(differ == 0);
	CHECK(inked == 2 * 94);
	/* the italic is not the regular glyph ('-', '=' and the like may be) */
	CHECK(sheared >= 90);
	kf_render_destroy(a);
	kf_render_destroy(b);
}

/* The printable ASCII glyphs of style s in a and b that differ (a glyph buffer each), lined up at
 * their baselines: a font with a synthesised bold has a taller cell (its thickened accents). */
static int glyphs_differ(struct kf_font *a, struct kf_font *b, unsigned s)
{
	int n = 0, w = 2 * a->cell_w, ha = a->cell_h, hb = b->cell_h;
	int d = b->baseline - a->baseline; /* b's row of a's row y: y + d */
	uint32_t *da = calloc((size_t)w * ha, 4), *db = calloc((size_t)w * hb, 4);
	for (uint32_t cp = 0x21; da && db && cp < 0x7f; cp++) {
		struct kf_glyph ga = {.w = (uint16_t)w, .h = (uint16_t)ha, .data = da};
		struct kf_glyph gb = {.w = (uint16_t)w, .h = (uint16_t)hb, .data = db};
		int ra = a->render(a, cp, s, 1, &ga), rb = b->render(b, cp, s, 1, &gb);
		int bad = ra < 0 || rb < 0 || a->cell_w != b->cell_w;
		for (int y = -hb; !bad && y < ha + hb; y++) {
			/* alpha glyphs: a byte a pixel */
			static const uint8_t none[256];
			const uint8_t *pa = y >= 0 && y < ha ? (uint8_t *)da + (size_t)y * w : none;
			const uint8_t *pb =
			    y + d >= 0 && y + d < hb ? (uint8_t *)db + (size_t)(y + d) * w : none;
			bad = w > 256 || memcmp(pa, pb, (size_t)w) != 0;
		}
		n += bad;
	}
	free(da);
	free(db);
	return n;
}

/* A font of fontconfig's that finds the faces in dir (symlinks to DejaVu Sans Mono's files). */
static struct kf_font *font_in(const char *dir, const char *const *files, int nfiles)
{
	char path[512], conf[512];
	snprintf(path, sizeof(path), "%s/fc", dir);
	CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof(path), "%s/fonts", dir);
	CHECK(mkdir(path, 0755) == 0);
	for (int i = 0; i < nfiles; i++) {
		snprintf(path, sizeof(path), "%s/fonts/%s", dir, strrchr(files[i], '/') + 1);
		CHECK(symlink(files[i], path) == 0);
	}
	snprintf(conf, sizeof(conf), "%s/fonts.conf", dir);
	FILE *fc = fopen(conf, "w");
	fprintf(fc, "<?xml version=\"1.0\"?><fontconfig><dir>%s/fonts</dir><cachedir>%s/fc</cachedir>"
		    "</fontconfig>\n", dir, dir);
	fclose(fc);
	setenv("FONTCONFIG_FILE", conf, 1);
	struct kf_font *f = NULL;
	CHECK(FcInitReinitialize() && kf_font_ft_create("DejaVu Sans Mono", NULL, 16, &f) == 0);
	return f;
}

/* Bold italic where fontconfig has a bold face but no bold italic one (Debian's fonts-dejavu-core:
 * DejaVu Sans Mono and its Bold, no Oblique faces) is the bold face slanted, not the regular face
 * emboldened and slanted; a regular face alone still gets both synthesised. */
static void test_bold_slanted(void)
{
	const char *const files[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
				     "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"};
	if (access(files[0], R_OK) || access(files[1], R_OK)) {
		printf("SKIP bold slanted: no DejaVu Sans Mono Bold\n");
		return;
	}
	char dir[2][300];
	struct kf_font *two, *two2 = NULL, *one, *file;
	for (int i = 0; i < 2; i++)
		snprintf(dir[i], sizeof(dir[i]), "%s/fc%d", tmpdir, i);
	CHECK(mkdir(dir[0], 0755) == 0 && mkdir(dir[1], 0755) == 0);
	two = font_in(dir[0], files, 2);
	CHECK(kf_font_ft_create("DejaVu Sans Mono", NULL, 16, &two2) == 0);
	one = font_in(dir[1], files, 1);
	unsetenv("FONTCONFIG_FILE");
	FcInitReinitialize();
	CHECK(kf_font_ft_create(NULL, files[0], 16, &file) == 0);
	if (!two || !two2 || !one || !file)
		return;
	/* Bold italic from the bold face's kept outline (two2 loaded every bold glyph first) is the
	 * fresh load's (two has loaded nothing). */
	CHECK(glyphs_differ(two2, two2, KF_GLYPH_BOLD) == 0);
	CHECK(glyphs_differ(two, two2, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) == 0);
	/* name of the face, fake bold, fake italic, per style (0 regular .. 3 bold italic) */
	const struct {
		struct kf_font *f;
		const char *face[4];
	} want[] = {{two, {"Book", "Bold", "Book", "Bold"}}, {one, {"Book", "Book", "Book", "Book"}},
		    {file, {"Book", "Book", "Book", "Book"}}};
	const bool fake[3][4][2] = {{{0, 0}, {0, 0}, {0, 1}, {0, 1}},
				    {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
				    {{0, 0}, {1, 0}, {0, 1}, {1, 1}}};
	for (int i = 0; i < 3; i++)
		for (unsigned s = 0; s < 4; s++) {
			bool fb, fi;
			const char *name = kf_font_ft_style(want[i].f, s, &fb, &fi);
			bool ok = name && !strcmp(name, want[i].face[s]) && fb == fake[i][s][0] &&
				  fi == fake[i][s][1];
			CHECK(ok);
			if (!ok)
				printf("font %d style %u: %s%s%s\n", i, s, name ? name : "(none)",
				       fb ? " +bold" : "", fi ? " +italic" : "");
		}
	/* the same synthesis from fontconfig's lone regular face as from the file; the bold face
	 * slanted is another glyph, and so is the bold one upright */
	CHECK(glyphs_differ(one, file, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) == 0);
	CHECK(glyphs_differ(two, file, KF_GLYPH_ITALIC) == 0);
	CHECK(glyphs_differ(two, file, KF_GLYPH_BOLD | KF_GLYPH_ITALIC) >= 80);
	int upright = 0, w = 2 * two->cell_w, h = two->cell_h;
	uint8_t *a = calloc((size_t)w * h, 4), *b = calloc((size_t)w * h, 4);
	for (uint32_t cp = 'a'; a && b && cp <= 'z'; cp++) {
		struct kf_glyph ga = {.w = (uint16_t)w, .h = (uint16_t)h, .data = a};
		struct kf_glyph gb = {.w = (uint16_t)w, .h = (uint16_t)h, .data = b};
		two->render(two, cp, KF_GLYPH_BOLD, 1, &ga);
		two->render(two, cp, KF_GLYPH_BOLD | KF_GLYPH_ITALIC, 1, &gb);
		upright += !memcmp(a, b, (size_t)w * h);
	}
	CHECK(a && b && upright == 0);
	free(a);
	free(b);
	two->destroy(two);
	two2->destroy(two2);
	one->destroy(one);
	file->destroy(file);
}

/* A glyph of a FreeType face is its bitmap placed at the face's baseline, the advance centred in
 * the cell, clipped to the cell, nothing else inked; its ink rows are the first and last rows
 * with ink and it says partial coverage exactly when a byte is neither 0 nor 255. Checked against
 * FreeType's own bitmap for glyphs of several scripts, some wider than the cell or reaching below
 * it. */
static void test_placed(void)
{
	const char *path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
	struct kf_render_config fc = {.font_file = path, .font_size = 16};
	struct kf_render *r;
	FT_Library lib;
	FT_Face face;
	if (kf_render_create(&fc, &r) < 0 || FT_Init_FreeType(&lib)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	CHECK(FT_New_Face(lib, path, 0, &face) == 0 && FT_Set_Pixel_Sizes(face, 0, 16) == 0);
	static const uint32_t cps[] = {'a', 'g', 'j', 'M', 'W', '@', '|', '_', '.', '-', 0xe9, 0xc5,
				       0x11f, 0x416, 0x429, 0x3bb, 0x3a9, 0x3b6, 0x2014, 0x300, 0x132,
				       0x10f, 0x1d9, 0x2de};
	int bad = 0, wrong_rows = 0, wrong_aa = 0, clipped = 0, inked = 0;
	for (size_t n = 0; n < sizeof(cps) / sizeof(cps[0]); n++) {
		const struct kf_glyph *g = kf_render_glyph(r, cps[n], 0, 1);
		/* the outline moved or narrowed into the cell where it reaches past its side by more than
		 * half a pixel (kf_ft_fit_width: U+02DE hangs 3 pixels left, U+010F's caron 0.6 right) */
		CHECK(FT_Load_Char(face, cps[n], FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) == 0);
		const FT_Pos fitted = kf_ft_fit_width(&face->glyph->outline, face->glyph->advance.x, g->w,
						      vt_char_props(cps[n]) == VT_PROP_MARK);
		CHECK(FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) == 0);
		const FT_Bitmap *bm = &face->glyph->bitmap;
		int w = g->w, h = g->h, adv = (int)((fitted + 32) >> 6);
		int left = face->glyph->bitmap_left + (adv > 0 && adv < w ? (w - adv) / 2 : 0) -
			   (adv > w ? (adv - w) / 2 : 0);
		int top = r->font->baseline - face->glyph->bitmap_top;
		uint8_t *want = calloc((size_t)w * h, 1);
		for (int y = 0; y < (int)bm->rows; y++)
			for (int x = 0; x < (int)bm->width; x++) {
				int tx = left + x, ty = top + y;
				uint8_t v = bm->buffer[y * bm->pitch + x];
				if (tx >= 0 && tx < w && ty >= 0 && ty < h)
					want[ty * w + tx] = v;
				else
					clipped += v != 0;
			}
		int y0 = h, y1 = 0;
		bool aa = false;
		for (int i = 0; i < w * h; i++) {
			if (want[i] && i / w < y0)
				y0 = i / w;
			if (want[i])
				y1 = i / w + 1;
			aa |= want[i] && want[i] != 255;
		}
		const uint8_t *got = g->data;
		if (y0 >= y1) {
			bad += g->kind != KF_GLYPH_EMPTY;
		} else {
			inked++;
			bad += g->kind != KF_GLYPH_ALPHA || memcmp(got, want, (size_t)w * h) != 0;
			wrong_rows += g->y0 != y0 || g->y1 != y1;
			wrong_aa += g->aa != aa;
		}
		free(want);
	}
	CHECK(bad == 0 && wrong_rows == 0 && wrong_aa == 0);
	CHECK(inked == (int)(sizeof(cps) / sizeof(cps[0])));
	CHECK(clipped > 0); /* some ink lies outside the cell (and is left out) */
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	kf_render_destroy(r);
}

/* Every Latin-1 letter fits its cell whole at every size: an accented capital (É Å Ñ) or a
 * descender that reached a pixel beyond the face's rounded ascender or descender lost it to the
 * cell's edge, and at 15 or 17 px the accents of French, Spanish and Nordic capitals all but
 * vanished. */
static void test_latin1_fits(void)
{
	const char *path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib) || FT_New_Face(lib, path, 0, &face)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		return;
	}
	int bad = 0;
	for (int size = 8; size <= 40; size++) {
		struct kf_render_config fc = {.font_file = path, .font_size = size};
		struct kf_render *r;
		if (kf_render_create(&fc, &r) < 0 || FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size)) {
			CHECK(!"DejaVuSansMono.ttf at this size");
			break;
		}
		for (uint32_t cp = 'A'; cp <= 0xff; cp++) {
			bool letter = (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
			if (!letter && (cp < 0xc0 || cp == 0xd7 || cp == 0xf7))
				continue;
			if (FT_Load_Char(face, cp, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) ||
			    FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
				continue;
			int top = r->font->baseline - face->glyph->bitmap_top;
			int bottom = top + (int)face->glyph->bitmap.rows;
			if ((top < 0 || bottom > r->cell_h) && bad++ < 8)
				printf("FAIL U+%04X at %d px: rows %d..%d of a %d-pixel cell\n", cp,
				       size, top, bottom - 1, r->cell_h);
		}
		kf_render_destroy(r);
	}
	CHECK(bad == 0);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
}

/* kf_ft_shear (font-ft.c's italic) moves every point where FT_Outline_Transform with the shear
 * matrix does: the points of every printable ASCII outline of DejaVu Sans Mono at sizes 6 to 48,
 * hinted and not, plain and emboldened, and coordinates -70000..70000 (ties of the rounding, y a
 * multiple of 16, of both signs among them). */
static int shear_differs(FT_Library lib, const FT_Outline *src)
{
	FT_Outline a, b;
	if (FT_Outline_New(lib, (FT_UInt)src->n_points, src->n_contours, &a))
		return 1;
	if (FT_Outline_New(lib, (FT_UInt)src->n_points, src->n_contours, &b)) {
		FT_Outline_Done(lib, &a);
		return 1;
	}
	FT_Outline_Copy(src, &a);
	FT_Outline_Copy(src, &b);
	FT_Matrix m = {0x10000, 0x3800, 0, 0x10000};
	FT_Outline_Transform(&a, &m);
	kf_ft_shear(b.points, b.n_points);
	int bad = 0;
	for (int i = 0; i < src->n_points; i++)
		bad += a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y;
	FT_Outline_Done(lib, &a);
	FT_Outline_Done(lib, &b);
	return bad;
}

static void test_shear(void)
{
	FT_Library lib;
	FT_Face face;
	if (FT_Init_FreeType(&lib)) {
		CHECK(!"FreeType starts");
		return;
	}
	if (FT_New_Face(lib, "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 0, &face)) {
		CHECK(!"DejaVuSansMono.ttf opens");
		FT_Done_FreeType(lib);
		return;
	}
	int bad = 0, points = 0;
	for (int size = 6; size <= 48; size += 3)
		for (int hint = 0; hint < 2; hint++)
			for (uint32_t cp = 0x21; cp < 0x7f; cp++) {
				FT_Int32 flags = hint ? FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT
						      : FT_LOAD_NO_HINTING;
				if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size) ||
				    FT_Load_Char(face, cp, flags)) {
					bad++;
					continue;
				}
				FT_Outline *o = &face->glyph->outline;
				bad += shear_differs(lib, o);
				FT_Outline_Embolden(o, size * 64 / 20 > 32 ? size * 64 / 20 : 32);
				bad += shear_differs(lib, o);
				points += 2 * o->n_points;
			}
	FT_Outline o;
	CHECK(FT_Outline_New(lib, 20000, 1, &o) == 0);
	for (int y0 = -70000; y0 < 70000; y0 += 20000) {
		for (int i = 0; i < 20000; i++)
			o.points[i] = (FT_Vector){(FT_Pos)(i * 7919 % 20011) - 10000, y0 + i};
		o.contours[0] = 19999;
		bad += shear_differs(lib, &o);
		points += 20000;
	}
	FT_Outline_Done(lib, &o);
	CHECK(bad == 0 && points > 100000);
	if (bad)
		printf("shear: %d outlines differ from FT_Outline_Transform's\n", bad);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
}

/* Whether kf_ft_outline_bitmap (font-ft.c's render of a kept outline into its own buffer) gives a
 * bitmap other than FT_Glyph_To_Bitmap's for the slot's glyph with the given synthesis: box,
 * bearings and every pixel. */
static int outline_bitmap_differs(FT_Library lib, FT_GlyphSlot slot, int size, bool fb, bool fi,
				  void **buf, size_t *cap)
{
	FT_Glyph a, b;
	if (FT_Get_Glyph(slot, &a))
		return 1;
	if (FT_Glyph_Copy(a, &b)) {
		FT_Done_Glyph(a);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		FT_Outline *o = &((FT_OutlineGlyph)(k ? b : a))->outline;
		if (fb)
			FT_Outline_Embolden(o, size * 64 / 20 > 32 ? size * 64 / 20 : 32);
		if (fi)
			kf_ft_shear(o->points, o->n_points);
	}
	FT_Bitmap bm;
	int left, top, bad = 1;
	if (!kf_ft_outline_bitmap(lib, &((FT_OutlineGlyph)b)->outline, buf, cap, &bm, &left, &top) &&
	    !FT_Glyph_To_Bitmap(&a, FT_RENDER_MODE_NORMAL, NULL, 1)) {
		const FT_BitmapGlyph g = (FT_BitmapGlyph)a;
		bad = g->left != left || g->top != top || g->bitmap.rows != bm.rows ||
		      g->bitmap.width != bm.width || g->bitmap.pixel_mode != bm.pixel_mode ||
		      bm.rows * bm.width == 0;
		for (unsigned y = 0; !bad && y < bm.rows; y++)
			bad = memcmp(g->bitmap.buffer + (long)y * g->bitmap.pitch,
				     bm.buffer + (long)y * bm.pitch, bm.width) != 0;
	}
	FT_Done_Glyph(a);
	FT_Done_Glyph(b);
	return bad;
}

/* Every printable ASCII glyph of DejaVu Sans Mono's faces (the guest's fonts-dejavu-core has the
 * first two; the host's fonts-dejavu-extra the obliques) in the four syntheses (none, bold,
 * italic, both) at sizes 6-40, hinted as ft_render loads them and unhinted: kf_ft_outline_bitmap
 * draws FT_Glyph_To_Bitmap's bitmap, the buffer reused from glyph to glyph. */
static void test_outline_bitmap(void)
{
	static const char *const files[] = {
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
	    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf"};
	FT_Library lib;
	if (FT_Init_FreeType(&lib)) {
		CHECK(!"FreeType starts");
		return;
	}
	void *buf = NULL;
	size_t cap = 0;
	int bad = 0, glyphs = 0, faces = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FT_Face face;
		if (FT_New_Face(lib, files[i], 0, &face)) {
			CHECK(i >= 2); /* the obliques are optional (fonts-dejavu-extra) */
			continue;
		}
		faces++;
		for (int size = 6; size <= 40; size += 2)
			for (int hint = 0; hint < 2; hint++)
				for (uint32_t cp = 0x21; cp < 0x7f; cp++)
					for (int syn = 0; syn < 4; syn++) {
						FT_Int32 flags = hint ? FT_LOAD_DEFAULT |
									    FT_LOAD_TARGET_LIGHT
								      : FT_LOAD_NO_HINTING;
						if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size) ||
						    FT_Load_Char(face, cp, flags)) {
							bad++;
							continue;
						}
						bad += outline_bitmap_differs(lib, face->glyph, size,
									      syn & 1, syn & 2,
									      &buf, &cap);
						glyphs++;
					}
		FT_Done_Face(face);
	}
	CHECK(faces >= 2 && bad == 0 && glyphs >= 2 * 18 * 2 * 94 * 4);
	if (bad)
		printf("outline bitmap: %d of %d glyphs differ from FT_Glyph_To_Bitmap's\n", bad,
		       glyphs);
	free(buf);
	FT_Done_FreeType(lib);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_synthesised();
	test_shear();
	test_outline_bitmap();
	test_placed();
	test_latin1_fits();
	test_bold_slanted();
	return check_finish(tmpdir);
}
