/* tests/render/test-font-fit.c: the cell of a FreeType font holds the letters of the bold it
 * synthesises. A font with no bold face (a --font-file, or fontconfig with a lone regular face)
 * draws bold as its regular outline thickened by a twentieth of the size, at least half a pixel
 * (kmscon-felis(1)), which lifts an accent by half that: measured on the regular face only, the
 * cell's top cut the accents of bold É Å Ñ Ö. Each Latin-1 letter is thickened here as FreeType
 * does it for that strength and its bitmap must lie within the cell, and each of its inked rows
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

static const char *const regular = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

static long ink(const uint8_t *p, size_t n)
{
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
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
		FT_Outline_Embolden(&face->glyph->outline, size * 64 / 20 > 32 ? size * 64 / 20 : 32);
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
			if (!ink(bm->buffer + (size_t)y * (size_t)bm->pitch, bm->width))
				continue;
			lost += cy < 0 || cy >= r->cell_h || g->kind != KF_GLYPH_ALPHA ||
				cy >= g->h || !ink((const uint8_t *)g->data + (size_t)cy * g->w, g->w);
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

/* The same font through fontconfig with the regular face alone installed (a family without its
 * bold): bold is synthesised there too, and the cell, on a cache miss and on a hit, is the one of
 * the font file. */
static void lone_face(const int *cell_h)
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
		struct kf_render_config fc = {.font_file = regular, .font_size = size};
		struct kf_render *r;
		if (kf_render_create(&fc, &r) < 0) {
			CHECK(!"DejaVuSansMono.ttf at this size");
			break;
		}
		bool fb = false, fi;
		CHECK(kf_font_ft_style(r->font, KF_GLYPH_BOLD, &fb, &fi) && fb);
		bad += clipped(r, face, size, &printed);
		cell_h[size] = r->cell_h;
		kf_render_destroy(r);
	}
	if (bad)
		printf("FAIL %d synthesised bold letters clipped\n", bad);
	CHECK(bad == 0);
	lone_face(cell_h);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
