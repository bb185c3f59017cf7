/* tests/render/test-font-fit.c: the cell of a FreeType font holds the letters of the bold it
 * synthesises. A font with no bold face (a --font-file, or fontconfig with a lone regular face)
 * draws bold as its regular outline thickened by a twentieth of the size, at least half a pixel
 * (kmscon-felis(1)), which lifts an accent by as much: measured on the regular face only, the
 * cell's top cut the accents of bold É Å Ñ Ö. Each Latin-1 letter is thickened here as the
 * renderer does (kf_ft_embolden) and its bitmap must lie within the cell, and each of its inked rows
 * must be inked in the renderer's own bold glyph (no row lost to the cell's edge). The same font
 * found by fontconfig as a lone face has the same cells, from the font cache too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static const char *const regular = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
static const char *const oblique_file = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf";

/* The loaded glyph of face thickened as the renderer's synthesised bold (kf_ft_embolden) in a cell
 * cw pixels wide, where it is centred as font-ft.c's place() centres it, after the renderer's fitting of
 * the upright outline into the cell (kf_ft_fit_width: DejaVu Sans Mono Oblique's A reaches a pixel past
 * the cell's right side at 18 px, and its bold no farther). */
static void thicken(FT_Face face, int cw, int size)
{
	const FT_Pos fitted = kf_ft_fit_width(&face->glyph->outline, face->glyph->advance.x, cw, false);
	const int off = kf_ft_centring((int)((fitted + 32) >> 6), cw);
	kf_ft_embolden(&face->glyph->outline, size, -off * 64L, (cw - off) * 64L);
}

/* The letters of Latin-1 whose synthesised bold does not fit the cell of r (printed, at most 8). */
static int clipped(struct kf_render *r, FT_Face face, int size, int *printed)
{
	int bad = 0;
	FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size);
	for (uint32_t cp = 'A'; cp <= 0xff; cp++) {
		bool letter = (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
		if (!letter && (cp < 0xc0 || cp == 0xd7 || cp == 0xf7))
			continue;
		if (FT_Load_Char(face, cp, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT))
			continue;
		thicken(face, r->cell_w, size);
		if (FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
			continue;
		const FT_Bitmap *bm = &face->glyph->bitmap;
		int top = r->font->baseline - face->glyph->bitmap_top;
		int bottom = top + (int)bm->rows;
		/* every row of the thickened letter has ink in the renderer's glyph, in the cell */
		const struct kf_glyph *g = kf_render_glyph(r, cp, KF_GLYPH_BOLD, 1);
		int lost = 0;
		for (int y = 0; y < (int)bm->rows; y++) {
			int cy = top + y;
			if (!alpha_ink(bm->buffer + (size_t)y * (size_t)bm->pitch, bm->width))
				continue;
			lost += cy < 0 || cy >= r->cell_h || g->kind != KF_GLYPH_ALPHA ||
				cy >= g->h ||
				!alpha_ink((const uint8_t *)g->data + (size_t)cy * g->w, g->w);
		}
		if (top < 0 || bottom > r->cell_h || lost) {
			bad++;
			if ((*printed)++ < 8)
				printf("FAIL bold U+%04X at %d px: rows %d..%d of a %d-pixel cell, %d "
				       "inked rows not drawn\n",
				       cp, size, top, bottom - 1, r->cell_h, lost);
		}
	}
	return bad;
}

/* A renderer of the font file (NULL: DejaVu Sans Mono from fontconfig) at size px (NULL: failed,
 * counted). */
static struct kf_render *at_size(const char *file, int size)
{
	struct kf_render_config fc = {
	    .font_file = file, .font_name = file ? NULL : "DejaVu Sans Mono", .font_size = size};
	struct kf_render *r;
	if (kf_render_create(&fc, &r) < 0) {
		printf("FAIL %s at %d px\n", file ? file : "fontconfig", size);
		failures++;
		return NULL;
	}
	return r;
}

/* The ink of the renderer's glyph of cp in style at size in r's cell, and of the whole glyph as
 * FreeType draws that outline thickened by kf_ft_embolden for the cell (*whole; the regular glyph
 * when !bold): what the cell does not show of it is the difference. */
static long drawn(struct kf_render *r, FT_Face face, int size, uint32_t cp, unsigned style,
		  long *whole)
{
	*whole = -1;
	if (FT_Load_Char(face, cp, FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT))
		return -1;
	if (style & KF_GLYPH_BOLD)
		thicken(face, r->cell_w, size);
	if (FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
		return -1;
	const FT_Bitmap *bm = &face->glyph->bitmap;
	*whole = 0;
	for (unsigned y = 0; y < bm->rows; y++)
		*whole += alpha_ink(bm->buffer + (size_t)y * (size_t)bm->pitch, bm->width);
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	return g->kind == KF_GLYPH_ALPHA ? alpha_ink(g->data, (size_t)g->w * g->h) : 0;
}

/* The synthesised bold's thickening widens a letter by the strength to the right (FreeType's
 * FT_Outline_Embolden keeps the left edge), and where the regular letter fills the cell's width
 * (m M W @ at most sizes) the cell's right edge cut the thickened right stem: each glyph of
 * printable ASCII and Latin-1 must show all of its bold's ink in the cell (where its regular glyph
 * does), and be bolder than the regular glyph. face is the font's face of the style italic (0, or
 * KF_GLYPH_ITALIC: bold italic synthesised on a real italic face). */
static int widths(const char *file, FT_Face face, unsigned italic, int *printed)
{
	int bad = 0, n = 0;
	for (int size = 6; size <= 40; size++) {
		struct kf_render *r = at_size(file, size);
		if (!r)
			break;
		FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size);
		bool fb = false, fi = true;
		if (!kf_font_ft_style(r->font, KF_GLYPH_BOLD | italic, &fb, &fi) || !fb || fi)
			printf("FAIL %d px: bold%s not synthesised on the face\n", size,
			       italic ? " italic" : ""),
			    failures++;
		for (uint32_t cp = 0x21; cp <= 0xff; cp++) {
			if (cp >= 0x7f && cp <= 0xa0)
				continue;
			long rw, bw, rg = drawn(r, face, size, cp, italic, &rw);
			long bg = drawn(r, face, size, cp, italic | KF_GLYPH_BOLD, &bw);
			if (rw <= 0)
				continue;
			n++;
			/* a pixel's worth of ink lost, where the regular glyph loses none */
			bool cut = bw - bg >= 255 && rw == rg;
			if (cut || bg <= rg) {
				bad++;
				if ((*printed)++ < 16)
					printf("FAIL bold U+%04X at %d px in a %d-pixel wide cell: %ld of "
					       "%ld ink not drawn (regular: %ld of %ld drawn)\n",
					       cp, size, r->cell_w, bw - bg, bw, rg, rw);
			}
		}
		kf_render_destroy(r);
	}
	printf("bold widths (%s): %d glyphs, 6-40 px\n",
	       file ? strrchr(file, '/') + 1 : "fontconfig, bold italic on the italic face", n);
	return bad;
}

/* The same font through fontconfig with the regular face alone installed (a family without its
 * bold): bold is synthesised there too, and the cell, on a cache miss and on a hit, is the one of
 * the font file. */
static void lone_face(const int *cell_h, FT_Face oblique, int *printed)
{
	char dir[] = "/tmp/kf-font-fit-XXXXXX", path[512];
	if (!mkdtemp(dir)) {
		CHECK(!"a temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/fonts", dir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/fonts/DejaVuSansMono.ttf", dir);
	CHECK(symlink(regular, path) == 0);
	snprintf(path, sizeof(path), "%s/fonts.conf", dir);
	FILE *fc = fopen(path, "w");
	if (!fc) {
		CHECK(!"fonts.conf written");
		return;
	}
	fprintf(fc, "<?xml version=\"1.0\"?><fontconfig><dir>%s/fonts</dir><cachedir>%s/fc</cachedir>"
		    "</fontconfig>\n", dir, dir);
	fclose(fc);
	setenv("FONTCONFIG_FILE", path, 1);
	setenv("KMSCON_FELIS_FONT_CACHE", dir, 1);
	CHECK(FcInitReinitialize());
	int made = 0;
	for (int size = 8; size <= 40; size++) {
		for (int i = 0; i < 2; i++) { /* a miss, then a hit */
			struct kf_font *f = NULL;
			bool fb = false, fi;
			if (kf_font_ft_create("DejaVu Sans Mono", NULL, size, &f)) {
				CHECK(!"DejaVu Sans Mono from fontconfig");
				return;
			}
			if (!kf_font_ft_style(f, KF_GLYPH_BOLD, &fb, &fi) || !fb)
				printf("FAIL %d px: fontconfig found a bold face\n", size), failures++;
			else if (f->cell_h != cell_h[size])
				printf("FAIL %d px (%s): a %d-pixel cell, the font file's is %d\n", size,
				       i ? "hit" : "miss", f->cell_h, cell_h[size]),
				    failures++;
			f->destroy(f);
			made++;
		}
	}
	printf("lone face: %d fonts, miss and hit\n", made);
	/* The family with its italic and no bold italic: bold italic is the italic face thickened
	 * (the font cache elsewhere: the choice saved above has no italic). */
	snprintf(path, sizeof(path), "%s/fonts/DejaVuSansMono-Oblique.ttf", dir);
	if (oblique && symlink(oblique_file, path) == 0) {
		snprintf(path, sizeof(path), "%s/italic", dir);
		CHECK(mkdir(path, 0755) == 0);
		setenv("KMSCON_FELIS_FONT_CACHE", path, 1);
		CHECK(FcInitReinitialize());
		int bad = widths(NULL, oblique, KF_GLYPH_ITALIC, printed);
		if (bad)
			printf("FAIL %d bold italic glyphs cut or not bolder\n", bad);
		CHECK(bad == 0);
	}
	unsetenv("FONTCONFIG_FILE");
	FcInitReinitialize();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("warning: could not remove %s\n", dir);
}

int main(void)
{
	FT_Library lib;
	FT_Face face;
	if (access(regular, R_OK) || FT_Init_FreeType(&lib) || FT_New_Face(lib, regular, 0, &face)) {
		printf("SKIP: no DejaVu Sans Mono\n");
		return 77;
	}
	int bad = 0, printed = 0, cell_h[41] = {0};
	for (int size = 8; size <= 40; size++) {
		struct kf_render *r = at_size(regular, size);
		if (!r)
			break;
		bool fb = false, fi;
		CHECK(kf_font_ft_style(r->font, KF_GLYPH_BOLD, &fb, &fi) && fb);
		bad += clipped(r, face, size, &printed);
		cell_h[size] = r->cell_h;
		kf_render_destroy(r);
	}
	if (bad)
		printf("FAIL %d synthesised bold letters clipped\n", bad);
	CHECK(bad == 0);
	printed = 0;
	bad = widths(regular, face, 0, &printed);
	/* bold on a real italic face (fontconfig's family with an italic but no bold italic, or
	 * the italic face as the font file) is the italic's outline thickened: the same */
	FT_Face oblique = NULL;
	if (!access(oblique_file, R_OK) && !FT_New_Face(lib, oblique_file, 0, &oblique))
		bad += widths(oblique_file, oblique, 0, &printed);
	else
		printf("no %s: bold on an italic face not checked\n", oblique_file);
	if (bad)
		printf("FAIL %d synthesised bold glyphs cut at the cell's sides or not bolder\n", bad);
	CHECK(bad == 0);
	lone_face(cell_h, oblique, &printed);
	if (oblique)
		FT_Done_Face(oblique);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
