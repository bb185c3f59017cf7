/* tests/render/test-powerline.c: the Powerline extra separators U+E0B4-E0BF (shell prompts such as
 * starship and powerlevel10k) drawn by code, checked against the ideal shapes (Nerd Fonts'
 * powerline-extra-symbols): half discs, corner triangles and their thin outlines; and the symbols
 * U+E0A0-E0A3 (branch, LN, padlock, CN) drawn where the font lacks them, checked for the features
 * that make each one what it is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* --- the Powerline symbols U+E0A0-E0A3, drawn where the font lacks them --- */

static int at(const uint8_t *m, int w, int x, int y)
{
	return m[y * w + x];
}

/* The longest run of pixels >= 128 down column x. */
static int column_run(const uint8_t *m, int w, int h, int x, int y0, int y1)
{
	int best = 0, run = 0;
	for (int y = y0; y < y1 && y < h; y++) {
		run = at(m, w, x, y) >= 128 ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

/* Pixels >= 96 in one 8-connected piece (a flood fill from the first). */
static bool connected(const uint8_t *m, int w, int h)
{
	int n = w * h, total = 0, seen = 0, top = 0;
	int *stack = malloc(sizeof(int) * (size_t)n);
	uint8_t *done = calloc((size_t)n, 1);
	for (int i = 0; i < n; i++)
		if (m[i] >= 96 && !total++)
			stack[top++] = i, done[i] = 1;
	while (top) {
		int i = stack[--top], x = i % w, y = i / w;
		seen++;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) {
				int X = x + dx, Y = y + dy;
				if (X >= 0 && X < w && Y >= 0 && Y < h && !done[Y * w + X] &&
				    m[Y * w + X] >= 96)
					done[Y * w + X] = 1, stack[top++] = Y * w + X;
			}
	}
	free(stack);
	free(done);
	return total > 0 && seen == total;
}

/* The branch: a trunk down the left (a column of the left half inked over 60 % of the cell), the
 * branch's end up in the right half (ink there in the top third), nothing in the right half's
 * bottom fifth (the branch goes back into the trunk), all of it one piece. */
static const char *branch_wrong(const uint8_t *m, int w, int h)
{
	int trunk = 0, end = 0, low = 0;
	for (int x = 0; x < w / 2; x++) {
		int r = column_run(m, w, h, x, 0, h);
		trunk = r > trunk ? r : trunk;
	}
	for (int y = 0; y < h; y++)
		for (int x = (w + 1) / 2; x < w; x++) {
			end += y < h / 3 && at(m, w, x, y) >= 128;
			low += y >= h - h / 5 && at(m, w, x, y) >= 64;
		}
	if (trunk * 10 < h * 6)
		return "no trunk down the left";
	if (!end)
		return "no branch up on the right";
	if (low)
		return "ink at the bottom right";
	return connected(m, w, h) ? NULL : "not one piece";
}

/* The padlock: left-right symmetric; a body (rows inked across at least 60 % of the width) in the
 * lower half; above it a row with ink left and right of an empty middle (the shackle's hole), and
 * above that the middle inked (the shackle closes). */
static const char *padlock_wrong(const uint8_t *m, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (abs(at(m, w, x, y) - at(m, w, w - 1 - x, y)) > 16)
				return "not symmetric";
	int body = -1, bodyrows = 0;
	for (int y = h - 1; y >= h / 2; y--) {
		int n = 0;
		for (int x = 0; x < w; x++)
			n += at(m, w, x, y) >= 128;
		if (n * 10 >= w * 6)
			body = y, bodyrows++;
	}
	if (bodyrows * 5 < h)
		return "no body in the lower half";
	int hole = -1;
	for (int y = body - 1; y >= 0 && hole < 0; y--) {
		int mid = at(m, w, w / 2, y) > at(m, w, (w - 1) / 2, y) ? at(m, w, w / 2, y)
									 : at(m, w, (w - 1) / 2, y);
		int l = 0, r = 0;
		for (int x = 0; x < (w - 1) / 2; x++)
			l += at(m, w, x, y) >= 128;
		for (int x = w / 2 + 1; x < w; x++)
			r += at(m, w, x, y) >= 128;
		if (mid < 64 && l && r)
			hole = y;
	}
	if (hole < 0)
		return "no shackle with a hole over the body";
	for (int y = hole - 1; y >= 0; y--)
		if (at(m, w, w / 2, y) >= 128 && at(m, w, (w - 1) / 2, y) >= 128)
			return NULL;
	return "the shackle is open at the top";
}

/* One of the letters L, C, N in rows [y0, y1) of m: its ink's box, its left stroke over the box's
 * height, then L: the bottom across, the top right empty; C: the same and the top across, the
 * right side's middle empty; N: the right stroke too, ink between them, lower on the right. */
static const char *letter_wrong(const uint8_t *m, int w, int y0, int y1, char l)
{
	int bx0 = w, bx1 = -1, by0 = y1, by1 = -1;
	for (int y = y0; y < y1; y++)
		for (int x = 0; x < w; x++)
			if (at(m, w, x, y) >= 128) {
				bx0 = x < bx0 ? x : bx0, bx1 = x > bx1 ? x : bx1;
				by0 = y < by0 ? y : by0, by1 = y > by1 ? y : by1;
			}
	if (bx1 - bx0 < 2 || by1 - by0 < 2)
		return "no letter";
	int lh = by1 - by0 + 1, across_top = 0, across_bottom = 0;
	if (column_run(m, w, y1, bx0, by0, by1 + 1) < lh)
		return "no left stroke";
	for (int x = bx0; x <= bx1; x++) {
		across_top += at(m, w, x, by0) >= 128;
		across_bottom += at(m, w, x, by1) >= 128;
	}
	int bw = bx1 - bx0 + 1;
	if (l == 'L' || l == 'C') {
		if (across_bottom < bw)
			return "no bottom stroke";
		if (l == 'L' && at(m, w, bx1, by0) >= 64)
			return "ink at the top right";
		if (l == 'C' && across_top < bw)
			return "no top stroke";
		if (l == 'C' && at(m, w, bx1, (by0 + by1) / 2) >= 64)
			return "closed on the right";
		return NULL;
	}
	if (column_run(m, w, y1, bx1, by0, by1 + 1) < lh)
		return "no right stroke";
	double sx[2] = {0, 0}, sn[2] = {0, 0};
	for (int y = by0; y <= by1; y++)
		for (int x = bx0 + 1; x < bx1; x++) {
			int half = 2 * (y - by0) >= lh;
			sx[half] += x * at(m, w, x, y);
			sn[half] += at(m, w, x, y);
		}
	if (sn[0] + sn[1] < 128)
		return "no diagonal";
	if (lh >= 4 && bw >= 4 && sn[0] > 0 && sn[1] > 0 && sx[0] / sn[0] >= sx[1] / sn[1])
		return "the diagonal does not fall to the right";
	return NULL;
}

static int check_symbol(uint32_t cp, int w, int h)
{
	uint8_t *m = draw(cp, w, h);
	const char *why = NULL;
	if (cp == 0xe0a0)
		why = branch_wrong(m, w, h);
	else if (cp == 0xe0a2)
		why = padlock_wrong(m, w, h);
	else if (!(why = letter_wrong(m, w, 0, h / 2, cp == 0xe0a1 ? 'L' : 'C')))
		why = letter_wrong(m, w, h / 2, h, 'N');
	if (why) {
		printf("FAIL U+%04X %dx%d: %s\n", cp, w, h, why);
		for (int y = 0; y < h && h <= 16; y++) {
			for (int x = 0; x < w; x++)
				putchar(" .:*#"[at(m, w, x, y) * 5 / 256]);
			putchar('\n');
		}
	}
	free(m);
	return why != NULL;
}

/* Every cell from 6 to 40 pixels high, 2/5 to 3/5 as wide; and a renderer whose font lacks them
 * (the built-in one) draws these, not the missing-glyph box. */
static void test_powerline_symbols(void)
{
	int bad = 0;
	for (int h = 6; h <= 40; h++)
		for (int w = (2 * h + 4) / 5 > 3 ? (2 * h + 4) / 5 : 3; w <= (3 * h + 2) / 5; w++)
			for (uint32_t cp = 0xe0a0; cp <= 0xe0a3; cp++)
				if (check_symbol(cp, w, h) && ++bad > 12)
					goto out;
out:
	CHECK(bad == 0);
	struct kf_render_config fc = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_render *r;
	CHECK(kf_render_create(&fc, &r) == 0);
	for (uint32_t cp = 0xe0a0; r && cp <= 0xe0a3; cp++) {
		const struct kf_glyph *g = kf_render_glyph(r, cp, 0, 1);
		uint8_t *m = draw(cp, g->w, g->h);
		CHECK(!g->missing && g->kind == KF_GLYPH_ALPHA &&
		      !memcmp(g->data, m, (size_t)g->w * g->h));
		free(m);
	}
	if (r)
		kf_render_destroy(r);
}

int main(void)
{
	test_powerline_extra();
	test_powerline_symbols();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
