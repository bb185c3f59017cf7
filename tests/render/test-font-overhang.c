/* tests/render/test-font-overhang.c: a glyph whose ink reaches past its cells, though its advance does
 * not, is fitted into them, not cut off; so is a glyph of a bitmap strike larger than its cells.
 *
 * Outlines: DejaVu Sans Mono's long arrows (U+27F5-27F7) advance one cell and hang a pixel or two past
 * both sides of it (at 32 px U+27F5's tip is two columns left of the cell), Greek capitals with a
 * breathing or tonos hang theirs up to half a cell left; the cell cut that ink off: U+27F5 lost the tip
 * of its head. Here (make-wide-glyph-font.py) U+27F5 and U+27F6 advance 10 and reach from -3 to 13, a
 * bar for a head at one end.
 *
 * Bitmap strikes (X11's PCF and BDF fonts, a fallback for what the main font lacks where fontconfig
 * lets bitmap fonts in): a glyph was placed as the strike sets it and cut at the cells' edges: ClearlyU's
 * U+13A0 (10 pixels wide) in DejaVu Sans Mono's 7-pixel cell at 12 px lost its right side. Here a BDF
 * font made by the test serves U+13A0-13A2 beside the fontTools font. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

static char tmpdir[] = "/tmp/kf-font-overhang-XXXXXX";

/* g's coverage at column x of row y (0 outside or for an empty glyph). */
static int ink(const struct kf_glyph *g, int x, int y)
{
	if (g->kind != KF_GLYPH_ALPHA || x < 0 || x >= g->w || y < 0 || y >= g->h)
		return 0;
	return ((const uint8_t *)g->data)[(size_t)y * g->w + x];
}

/* The most ink in columns [x0, x1) of rows [y0, y1). */
static int ink_max(const struct kf_glyph *g, int x0, int x1, int y0, int y1)
{
	int m = 0;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			m = ink(g, x, y) > m ? ink(g, x, y) : m;
	return m;
}

static void dump(const char *what, const struct kf_glyph *g)
{
	printf("%s (%dx%d):\n", what, g->w, g->h);
	for (int y = 0; y < g->h; y++) {
		printf("  ");
		for (int x = 0; x < g->w; x++)
			putchar(ink(g, x, y) >= 128 ? '#' : ink(g, x, y) ? '.' : ' ');
		printf("|\n");
	}
}

/* f's glyph of cp in buf (cells cells wide); false when the font has none. */
static bool render(struct kf_font *f, uint32_t cp, unsigned style, int cells, struct kf_glyph *g, uint32_t *buf)
{
	*g = (struct kf_glyph){.cells = (uint8_t)cells, .w = (uint16_t)(cells * f->cell_w), .h = (uint16_t)f->cell_h,
			       .data = buf};
	return f->render(f, cp, style, 1, g) == 0;
}

/* The long arrows in each style: the head's bar (rows 3-10 above the baseline) whole at its end of the
 * cell, the shaft (rows 5-6 above) across the cell, nothing between the bar's rows off the shaft but the bar. */
static void test_arrows(struct kf_font *f, uint32_t *buf)
{
	const int b = f->baseline, w = f->cell_w;
	for (unsigned style = 0; style < 4; style++)
		for (int right = 0; right < 2; right++) {
			struct kf_glyph g;
			char what[64];
			snprintf(what, sizeof(what), "U+%04X style %u", right ? 0x27f6 : 0x27f5, style);
			CHECK(render(f, right ? 0x27f6 : 0x27f5, style, 1, &g, buf));
			dump(what, &g);
			/* the bar: ink at its top and bottom rows near its end, none in the cell's middle there */
			const int x0 = right ? w - 3 : 0, x1 = right ? w : 3;
			CHECK(ink_max(&g, x0, x1, b - 10, b - 9) >= 128);
			CHECK(ink_max(&g, x0, x1, b - 3, b - 2) >= 128);
			CHECK(ink_max(&g, 4, w - 4, b - 10, b - 9) == 0);
			/* the shaft, from edge to edge (slanted, its ends are cut at a slope) */
			const int edge = style & KF_GLYPH_ITALIC ? 1 : 128;
			CHECK(ink_max(&g, 0, 1, b - 7, b - 5) >= edge && ink_max(&g, w - 1, w, b - 7, b - 5) >= edge);
		}
}

/* The BDF font (a strike of 16 pixels, 13 above the baseline and 3 below, as the fontTools font's
 * cell): U+13A0 a frame 14 wide and 12 high, bars 2 thick; U+13A1 a frame 6 wide from 4 below the
 * baseline to 16 above; U+13A2 a block 6 x 8 from column 2, which fits as the strike sets it. */
static bool write_bdf(const char *path)
{
	FILE *o = fopen(path, "w");
	if (!o)
		return false;
	fprintf(o, "STARTFONT 2.1\nFONT -test-strike-medium-r-normal--16-160-75-75-c-140-iso10646-1\n"
		   "SIZE 16 75 75\nFONTBOUNDINGBOX 14 20 0 -4\nSTARTPROPERTIES 6\nFAMILY_NAME \"Strike Test\"\n"
		   "PIXEL_SIZE 16\nFONT_ASCENT 13\nFONT_DESCENT 3\nCHARSET_REGISTRY \"ISO10646\"\n"
		   "CHARSET_ENCODING \"1\"\nENDPROPERTIES\nCHARS 3\n");
	fprintf(o, "STARTCHAR wide\nENCODING 5024\nSWIDTH 875 0\nDWIDTH 14 0\nBBX 14 12 0 0\nBITMAP\n");
	for (int y = 0; y < 12; y++)
		fprintf(o, "%s\n", y < 2 || y >= 10 ? "FFFC" : "C00C");
	fprintf(o, "ENDCHAR\nSTARTCHAR tall\nENCODING 5025\nSWIDTH 625 0\nDWIDTH 10 0\nBBX 6 20 2 -4\nBITMAP\n");
	for (int y = 0; y < 20; y++)
		fprintf(o, "%s\n", y < 2 || y >= 18 ? "FC" : "84");
	fprintf(o, "ENDCHAR\nSTARTCHAR fits\nENCODING 5026\nSWIDTH 625 0\nDWIDTH 10 0\nBBX 6 8 2 0\nBITMAP\n");
	for (int y = 0; y < 8; y++)
		fprintf(o, "FC\n");
	fprintf(o, "ENDCHAR\nENDFONT\n");
	return fclose(o) == 0;
}

static void test_strike(struct kf_font *f, uint32_t *buf)
{
	const int b = f->baseline, w = f->cell_w, h = f->cell_h;
	struct kf_glyph g;
	CHECK(w == 10 && h == 16 && b == 13);
	/* wider than the cell: both side bars, hollow between, on a middle row; top and bottom bars whole */
	CHECK(render(f, 0x13a0, 0, 1, &g, buf));
	dump("U+13A0 (strike, 14 wide)", &g);
	CHECK(ink_max(&g, 0, 2, b - 6, b - 5) >= 128);
	CHECK(ink_max(&g, w - 2, w, b - 6, b - 5) >= 128);
	CHECK(ink_max(&g, 3, w - 3, b - 6, b - 5) == 0);
	CHECK(ink_max(&g, 0, 1, b - 12, b - 11) >= 128 && ink_max(&g, w - 1, w, b - 12, b - 11) >= 128);
	/* taller than the cell: its top and bottom bars inside, hollow between */
	CHECK(render(f, 0x13a1, 0, 1, &g, buf));
	dump("U+13A1 (strike, 20 high)", &g);
	CHECK(ink_max(&g, 3, 7, 0, 3) >= 128 && ink_max(&g, 3, 7, h - 3, h) >= 128);
	CHECK(ink_max(&g, 3, 7, 4, h - 4) == 0);
	CHECK(ink_max(&g, 2, 3, b - 6, b - 5) >= 128 && ink_max(&g, 7, 8, b - 6, b - 5) >= 128);
	/* one that fits: pixel for pixel where the strike sets it */
	CHECK(render(f, 0x13a2, 0, 1, &g, buf));
	dump("U+13A2 (strike, fits)", &g);
	int off = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			off += ink(&g, x, y) != (x >= 2 && x < 8 && y >= b - 8 && y < b ? 255 : 0);
	CHECK(off == 0);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !mkdtemp(tmpdir))
		return 1;
	char path[400], conf[400];
	snprintf(path, sizeof(path), "%s/fonts", tmpdir);
	CHECK(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/fonts/wide.ttf", tmpdir);
	if (!make_test_font(argv[1], path)) {
		check_finish(tmpdir);
		return 77;
	}
	snprintf(path, sizeof(path), "%s/fonts/strike.bdf", tmpdir);
	CHECK(write_bdf(path));
	/* fontconfig sees the two fonts only, bitmap fonts not refused (Debian's 70-no-bitmaps.conf is not read) */
	snprintf(conf, sizeof(conf), "%s/fonts.conf", tmpdir);
	FILE *fc = fopen(conf, "w");
	CHECK(fc != NULL);
	if (fc) {
		fprintf(fc, "<?xml version=\"1.0\"?><fontconfig><dir>%s/fonts</dir><cachedir>%s/fc</cachedir>"
			    "</fontconfig>\n", tmpdir, tmpdir);
		fclose(fc);
	}
	setenv("FONTCONFIG_FILE", conf, 1);
	struct kf_font *f = NULL;
	uint32_t *buf = calloc(2 * 64 * 64, 4);
	CHECK(buf && FcInitReinitialize() && kf_font_ft_create("Wide Glyph Test", NULL, 16, &f) == 0);
	if (f && buf) {
		test_arrows(f, buf);
		test_strike(f, buf);
	}
	if (f)
		f->destroy(f);
	free(buf);
	FcFini();
	return check_finish(tmpdir);
}
