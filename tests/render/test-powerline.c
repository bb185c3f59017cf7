/* tests/render/test-powerline.c: the Powerline extra separators U+E0B4-E0BF (shell prompts such as
 * starship and powerlevel10k) drawn by code, checked against the ideal shapes (Nerd Fonts'
 * powerline-extra-symbols): half discs, corner triangles and their thin outlines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

static uint8_t *draw(uint32_t cp, int w, int h)
{
	uint8_t *m = calloc((size_t)w * h, 1);
	kf_procedural_draw(cp, m, w, h);
	return m;
}

/* The ideal solid shapes, in pixel coordinates of a w x h cell. */
static bool ideal(uint32_t cp, double x, double y, int w, int h)
{
	switch (cp) {
	case 0xe0b4: /* half disc, flat side left */
	case 0xe0b6: /* flat side right */ {
		double u = (cp == 0xe0b4 ? x : w - x) / w, v = (y - h / 2.0) / (h / 2.0);
		return u >= 0 && u * u + v * v <= 1;
	}
	case 0xe0b8: /* lower left triangle: below the diagonal from top left to bottom right */
		return y / h >= x / w;
	case 0xe0ba: /* lower right */
		return y / h >= 1 - x / w;
	case 0xe0bc: /* upper left */
		return x / w + y / h <= 1;
	case 0xe0be: /* upper right */
		return y / h <= x / w;
	}
	return false;
}

/* Fraction of pixel (px, py) inside the ideal shape, on a 17 x 17 grid including the corners. */
static double ideal_cover(uint32_t cp, int px, int py, int w, int h)
{
	int n = 0;
	for (int sy = 0; sy <= 16; sy++)
		for (int sx = 0; sx <= 16; sx++)
			n += ideal(cp, px + sx / 16.0, py + sy / 16.0, w, h);
	return n / 289.0;
}

/* The solid glyphs: every pixel wholly inside the ideal shape fully inked, every pixel wholly
 * outside it blank, the total ink the shape's area, and the flat edges (the ones meeting the
 * neighbouring cell of the same colour) as covered as the shape covers them, less one of 4x4
 * samples: a shape inset from the edge leaves a seam of half-covered pixels. */
static int check_solid(uint32_t cp, int w, int h)
{
	uint8_t *m = draw(cp, w, h);
	int bad = 0;
	double ink = 0, area = 0;
	bool left = cp == 0xe0b4 || cp == 0xe0b8 || cp == 0xe0bc;
	bool top = cp == 0xe0bc || cp == 0xe0be, bottom = cp == 0xe0b8 || cp == 0xe0ba;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			double cov = ideal_cover(cp, x, y, w, h);
			uint8_t a = m[y * w + x];
			ink += a / 255.0;
			area += cov;
			bool edge =
			    x == (left ? 0 : w - 1) || (top && y == 0) || (bottom && y == h - 1);
			if ((cov == 1 && a != 255) || (cov == 0 && a != 0) ||
			    (edge && a < 255 * (cov - 0.125))) {
				if (bad++ < 2)
					printf("FAIL U+%04X %dx%d pixel %d,%d: %d, ideal cover "
					       "%.2f\n",
					       cp, w, h, x, y, a, cov);
			}
		}
	}
	if (fabs(ink - area) > 1 + 0.03 * area && bad++ < 2)
		printf("FAIL U+%04X %dx%d: ink %.1f px, shape %.1f px\n", cp, w, h, ink, area);
	free(m);
	return bad;
}

/* The thin half circles: an arc inside the half disc's outline, continuous from the top to the
 * bottom edge, nothing outside the disc or deep inside it (so open on the flat side, like
 * U+E0B1). */
static int check_arc(uint32_t cp, int w, int h)
{
	uint32_t solid = cp - 1;
	uint8_t *m = draw(cp, w, h);
	int bad = 0;
	double d = (h + 8) / 17 + 1.5; /* more than a light stroke */
	for (int y = 0; y < h; y++) {
		int inked = 0;
		for (int x = 0; x < w; x++) {
			uint8_t a = m[y * w + x];
			inked += a >= 128;
			bool out = ideal_cover(solid, x, y, w, h) == 0;
			/* wholly inside the half disc shrunk by d on every side */
			bool deep = true;
			for (int c = 0; c < 4 && deep; c++) {
				double cx = x + (c & 1), cy = y + (c >> 1);
				double u = (cp == 0xe0b5 ? cx : w - cx) / (w - d);
				double v = (cy - h / 2.0) / (h / 2.0 - d);
				deep = u * u + v * v <= 1;
			}
			if ((out || deep) && a != 0) {
				if (bad++ < 2)
					printf("FAIL U+%04X %dx%d pixel %d,%d: %d where the "
					       "arc is not\n",
					       cp, w, h, x, y, a);
			}
		}
		if (!inked && bad++ < 2)
			printf("FAIL U+%04X %dx%d: row %d has no ink, the arc is broken\n", cp, w,
			       h, y);
	}
	free(m);
	return bad;
}

/* b is a (left-right) mirror image of a, or an exact copy when copy is set. */
static int check_same(uint32_t a, uint32_t b, bool copy, int w, int h)
{
	uint8_t *ma = draw(a, w, h), *mb = draw(b, w, h);
	int diff = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			diff += ma[y * w + x] != mb[y * w + (copy ? x : w - 1 - x)];
	if (diff)
		printf("FAIL U+%04X %dx%d: %d pixels unlike U+%04X%s\n", b, w, h, diff, a,
		       copy ? "" : " mirrored");
	free(ma);
	free(mb);
	return diff != 0;
}

static void test_powerline_extra(void)
{
	for (uint32_t cp = 0xe0b0; cp <= 0xe0bf; cp++)
		CHECK(kf_procedural_has(cp));
	int bad = 0;
	for (int w = 5; w <= 24; w++) {
		for (int h = w * 3 / 2; h <= w * 13 / 5; h++) {
			for (uint32_t cp = 0xe0b4; cp <= 0xe0be; cp += 2)
				if (cp != 0xe0b6)
					bad += check_solid(cp, w, h);
			bad += check_arc(0xe0b5, w, h);
			bad += check_same(0xe0b4, 0xe0b6, false, w, h);
			bad += check_same(0xe0b5, 0xe0b7, false, w, h);
			bad += check_same(0xe0b8, 0xe0ba, false, w, h);
			bad += check_same(0xe0bc, 0xe0be, false, w, h);
			/* the slants are the box-drawing diagonals, so they line up with them */
			bad += check_same(0x2572, 0xe0b9, true, w, h);
			bad += check_same(0x2572, 0xe0bf, true, w, h);
			bad += check_same(0x2571, 0xe0bb, true, w, h);
			bad += check_same(0x2571, 0xe0bd, true, w, h);
		}
	}
	CHECK(bad == 0);
}

int main(void)
{
	test_powerline_extra();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
