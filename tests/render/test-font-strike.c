/* tests/render/test-font-strike.c: FreeType fonts of bitmap strikes only (X11 BDF and PCF fonts, as
 * font-file=): bold and italic synthesised on their glyphs as on a PSF font's, inside the cell, no ink lost.
 * Outline fonts' synthesis: test-font-synth.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static char tmpdir[] = "/tmp/kf-render-test-XXXXXX";

/* The glyphs of the test's 8x16 BDF font of printable ASCII (ascent 12): a stem in column 2 from row 1 to the
 * baseline with a bar to column 5 in row 6, but 'M' (the whole width, rows 1-11) and 'i' (a stem in the last
 * column). */
static uint8_t strike_bits(uint32_t c, int y)
{
	if (y < 1 || y > 11)
		return 0;
	return c == 'M' ? 0xff : c == 'i' ? 0x01 : y == 6 ? 0x3c : 0x20;
}

/* Row y's ink of g (a copy: the next look-up may evict g): its count of inked pixels, and first and last
 * column (-1 for none). */
struct row_ink {
	int n, x0, x1;
};

static void glyph_rows(struct kf_render *r, uint32_t cp, unsigned style, struct row_ink *rows, int h, int *w)
{
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	*w = g->w;
	for (int y = 0; y < h; y++) {
		rows[y] = (struct row_ink){0, -1, -1};
		if (g->kind != KF_GLYPH_ALPHA || y < g->y0 || y >= g->y1 || y >= g->h)
			continue;
		const uint8_t *m = (const uint8_t *)g->data + (size_t)y * g->w;
		for (int x = 0; x < g->w; x++)
			if (m[x] >= 128) {
				rows[y].n++;
				rows[y].x1 = x;
				if (rows[y].x0 < 0)
					rows[y].x0 = x;
			}
	}
}

/* Every printable ASCII glyph of the font in file: bold has every row's ink of the regular glyph and more
 * (the same where the glyph fills the cell's width), italic every row's ink count and, where the glyph has
 * rows of ink far enough apart, its top row right of its bottom one. Returns the letters (of 52) whose bold
 * differs from the regular glyph and those whose italic does. Before: bold and italic were the regular
 * glyph (synthesis worked on outlines only). */
static void check_font(const char *file, int *bold_differs, int *italic_differs)
{
	*bold_differs = *italic_differs = 0;
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = file};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	int cw, ch, w;
	kf_render_cell_size(r, &cw, &ch);
	struct row_ink *plain = calloc((size_t)ch, sizeof(*plain)), *st = calloc((size_t)ch, sizeof(*st));
	for (uint32_t c = 0x21; c < 0x7f && plain && st; c++) {
		const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
		glyph_rows(r, c, 0, plain, ch, &w);
		glyph_rows(r, c, KF_GLYPH_BOLD, st, ch, &w);
		bool differs = false, kept = w == cw;
		for (int y = 0; y < ch; y++) {
			/* every inked column of the regular row is inked in bold; the row's ink grows by a
			 * pixel unless it reaches both sides of the cell */
			kept &= st[y].n >= plain[y].n && (plain[y].n == 0 || (st[y].x0 <= plain[y].x0 + 1 &&
									   st[y].x1 >= plain[y].x1));
			differs |= st[y].n != plain[y].n;
		}
		if (!kept)
			printf("  %s: bold U+%04X lost ink of the regular glyph\n", file, c);
		CHECK(kept);
		*bold_differs += letter && differs;
		glyph_rows(r, c, KF_GLYPH_ITALIC, st, ch, &w);
		int top = -1, bottom = -1;
		differs = false, kept = w == cw;
		for (int y = 0; y < ch; y++) {
			kept &= st[y].n == plain[y].n;
			differs |= st[y].x0 != plain[y].x0;
			if (plain[y].n)
				bottom = y, top = top < 0 ? y : top;
		}
		if (!kept)
			printf("  %s: italic U+%04X lost ink of the regular glyph\n", file, c);
		CHECK(kept);
		/* leans right: the top row's ink starts right of the bottom row's (relative to upright) */
		if (differs && bottom - top >= 8)
			CHECK(st[top].x0 - plain[top].x0 > st[bottom].x0 - plain[bottom].x0);
		*italic_differs += letter && differs;
	}
	free(plain);
	free(st);
	kf_render_destroy(r);
}

/* The zoom of a font of bitmap strikes: its cells and glyphs magnified pixel by pixel, as a PSF font's (the
 * renderer, at creation too, and back to x1). Before: a zoom opened the font again at the zoomed size,
 * FreeType picked the one strike it has, and cells and glyphs stayed as they were: the zoom key did nothing. */
static void check_zoom(const char *file)
{
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = file};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	int cw, ch, w, h;
	kf_render_cell_size(r, &cw, &ch);
	static const uint32_t cps[] = {'H', 'g', '@', 'W'};
	uint8_t *one = calloc((size_t)cw * ch, 4 * sizeof(cps) / sizeof(cps[0]));
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]) && one; i++) {
		const struct kf_glyph *g = kf_render_glyph(r, cps[i], KF_GLYPH_BOLD * (i & 1), 1);
		if (g->kind == KF_GLYPH_ALPHA)
			memcpy(one + i * (size_t)cw * ch, g->data, (size_t)cw * ch);
	}
	for (int scale = 2; scale <= 4 && one; scale++) {
		kf_render_destroy(r);
		r = NULL;
		/* a zoom (kf_render_set_scale) and a renderer created zoomed */
		for (int created = 0; created < 2; created++) {
			if (created) {
				kf_render_destroy(r);
				cfg.scale = scale;
				CHECK(kf_render_create(&cfg, &r) == 0);
				cfg.scale = 0;
			} else {
				CHECK(kf_render_create(&cfg, &r) == 0);
				CHECK(r && kf_render_set_scale(r, scale) == 0);
			}
			if (!r)
				return;
			kf_render_cell_size(r, &w, &h);
			int bad = 0;
			for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]) && w == cw * scale && h == ch * scale; i++) {
				const struct kf_glyph *g = kf_render_glyph(r, cps[i], KF_GLYPH_BOLD * (i & 1), 1);
				const uint8_t *m = one + i * (size_t)cw * ch;
				for (int y = 0; y < h; y++)
					for (int x = 0; x < w; x++) {
						const uint8_t px = g->kind == KF_GLYPH_ALPHA ? ((uint8_t *)g->data)[y * w + x] : 0;
						bad += px != m[(y / scale) * cw + x / scale];
					}
			}
			printf("%s %s x%d: cells %dx%d (x1 %dx%d), %d pixels not the x1 glyphs magnified\n", file,
			       created ? "created" : "zoomed", scale, w, h, cw, ch, bad);
			CHECK(w == cw * scale && h == ch * scale && !bad);
		}
	}
	CHECK(kf_render_set_scale(r, 1) == 0);
	kf_render_cell_size(r, &w, &h);
	CHECK(w == cw && h == ch);
	free(one);
	kf_render_destroy(r);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[300];
	snprintf(path, sizeof(path), "%s/strike.bdf", tmpdir);
	uint32_t ascii[94];
	for (int i = 0; i < 94; i++)
		ascii[i] = 0x21 + (uint32_t)i;
	bdf_write(path, "ISO10646", "1", 12, 4, ascii, 94, strike_bits);
	int bold, italic;
	check_font(path, &bold, &italic);
	printf("strike.bdf: bold differs in %d of 52 letters, italic in %d\n", bold, italic);
	/* all but M, which fills the cell (bold cannot widen it; its italic leans less, or not at all) */
	CHECK(bold >= 51 && italic >= 50);
	check_zoom(path);
	/* X11's own bitmap fonts, where installed (xfonts-base) */
	static const char *const x11[] = {"/usr/share/fonts/X11/misc/7x14.pcf.gz",
					  "/usr/share/fonts/X11/misc/6x13.pcf.gz",
					  "/usr/share/fonts/X11/misc/9x18.pcf.gz"};
	for (size_t i = 0; i < sizeof(x11) / sizeof(x11[0]); i++) {
		if (access(x11[i], R_OK) != 0) {
			printf("%s: not installed\n", x11[i]);
			continue;
		}
		check_font(x11[i], &bold, &italic);
		printf("%s: bold differs in %d of 52 letters, italic in %d\n", x11[i], bold, italic);
		CHECK(bold == 52 && italic >= 40);
		check_zoom(x11[i]);
	}
	return check_finish(tmpdir);
}
