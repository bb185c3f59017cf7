/* kmscon-felis/render/procedural.c: glyphs drawn from geometry instead of a font.
 *
 * Box drawing (U+2500-257F), block elements (U+2580-259F), Braille (U+2800-28FF) and the Powerline
 * separators and their extras (U+E0B0-E0BF) are drawn at the exact cell size so that neighbouring
 * cells join without gaps or overlaps at every size: every line that leaves a cell edge is centred
 * on the same pixel column/row in every glyph, and fractional blocks round their boundaries the
 * same way everywhere. Curves and diagonals are anti-aliased by 4x4 supersampling. The Powerline
 * symbols U+E0A0-E0A3 are drawn here too, but only for fonts that lack them.
 */
#include <math.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

struct canvas {
	uint8_t *m;
	int w, h;
};

static void fill(struct canvas *c, int x0, int y0, int x1, int y1, uint8_t a)
{
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > c->w)
		x1 = c->w;
	if (y1 > c->h)
		y1 = c->h;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			if (c->m[y * c->w + x] < a)
				c->m[y * c->w + x] = a;
}

/* Line thickness: light strokes grow by one pixel per ~16 pixels of cell height; heavy ones are
 * wider. */
static int light_t(const struct canvas *c)
{
	int len = c->h < 2 * c->w ? c->h : 2 * c->w; /* narrow cells get thinner lines */
	int t = (len + 8) / 17;
	return t < 1 ? 1 : t;
}

static int heavy_t(const struct canvas *c)
{
	return light_t(c) * 2 + 1;
}

/* Start of a stroke of thickness t centred on the cell's middle column/row: identical in every
 * glyph, so lines meet across cells. */
static int mid(int len, int t)
{
	return (len - t) / 2;
}

/* Arm weights: 0 none, 1 light, 2 heavy, 3 double; order up, right, down, left. */
enum { UP, RIGHT, DOWN, LEFT };

/* U+2500..U+257F: four digits URDL, or "" for the glyphs drawn by special code. */
/* clang-format off */
static const char *const box_arms[128] = {
	"0101", "0202", "1010", "2020", "", "", "", "", "", "", "", "", "0110", "0210", "0120", "0220",
	"0011", "0012", "0021", "0022", "1100", "1200", "2100", "2200", "1001", "1002", "2001", "2002",
	"1110", "1210", "2110", "1120", "2120", "2210", "1220", "2220", "1011", "1012", "2011", "1021",
	"2021", "2012", "1022", "2022", "0111", "0112", "0211", "0212", "0121", "0122", "0221", "0222",
	"1101", "1102", "1201", "1202", "2101", "2102", "2201", "2202", "1111", "1112", "1211", "1212",
	"2111", "1121", "2121", "2112", "2211", "1122", "1221", "2212", "1222", "2122", "2221", "2222",
	"", "", "", "", "0303", "3030", "0310", "0130", "0330", "0013", "0031", "0033",
	"1300", "3100", "3300", "1003", "3001", "3003", "1310", "3130", "3330", "1013", "3031", "3033",
	"0313", "0131", "0333", "1303", "3101", "3303", "1313", "3131", "3333", "", "", "", "", "", "",
	"", "0001", "1000", "0100", "0010", "0002", "2000", "0200", "0020", "0201", "1020", "0102", "2010",
};
/* clang-format on */

/* Draws a double arm: two light strokes at +-g around the centre line. Each stroke stops where the
 * double lines of the perpendicular arms need it: at the inner corner when the double arm on its
 * own side exists, at the outer corner when only the opposite side has one, else at the centre
 * (meeting a single line or the opposite arm). */
/* Offset of the two strokes of a double line from the centre stroke, across a dimension of len
 * pixels: a stroke's width apart, reduced until both strokes stay off the cell edges. 0 where
 * the cell has no room for two strokes and a gap (a 2-pixel cell, --font-size 4): the double line
 * is then the light one, in its place. It was one stroke beside the light line's column (1 px:
 * none at all), which ║ and │ above one another showed as a jog. */
static int double_gap(const struct canvas *c, int len)
{
	int t = light_t(c), g = t + (t + 1) / 2, cen = mid(len, t);
	while (g > 1 && (cen - g < 1 || cen + g + t > len - 1))
		g--;
	return cen - g < 0 || cen + g + t > len || 2 * g - t < 1 ? 0 : g;
}

static void double_arm(struct canvas *c, const int *arm, int dir)
{
	int t = light_t(c);
	bool horiz = dir == LEFT || dir == RIGHT;
	int len = horiz ? c->w : c->h, cen = mid(len, t);
	int plen = horiz ? c->h : c->w, pcen = mid(plen, t);
	int g = double_gap(c, plen); /* this arm's strokes */
	int pg = double_gap(c, len); /* the perpendicular double strokes */
	int neg = horiz ? arm[UP] : arm[LEFT], pos = horiz ? arm[DOWN] : arm[RIGHT];
	for (int side = -1; side <= 1; side += 2) {
		int near = side < 0 ? neg : pos, far = side < 0 ? pos : neg;
		int o = near == 3 ? pg : far == 3 ? -pg : 0;
		int a = 0, b = len;
		if (dir == LEFT || dir == UP)
			b = cen + t - o;
		else
			a = cen + o;
		int p0 = pcen + side * g;
		if (horiz)
			fill(c, a, p0, b, p0 + t, 255);
		else
			fill(c, p0, a, p0 + t, b, 255);
	}
}

static int arm_t(const struct canvas *c, int weight)
{
	return weight == 2 ? heavy_t(c) : weight ? light_t(c) : 0;
}

/* A single or heavy arm. It reaches across the widest perpendicular stroke so junctions have no
 * notch; a double perpendicular line counts as light (the single line runs through, the double
 * strokes stop at it). */
static void single_arm(struct canvas *c, const int *arm, int d)
{
	bool horiz = d == LEFT || d == RIGHT;
	int t = arm_t(c, arm[d]);
	int p1 = horiz ? arm[UP] : arm[LEFT], p2 = horiz ? arm[DOWN] : arm[RIGHT];
	int t1 = arm_t(c, p1 == 3 ? 1 : p1), t2 = arm_t(c, p2 == 3 ? 1 : p2);
	int pt = t1 > t2 ? t1 : t2;
	int len = horiz ? c->w : c->h;
	bool lone = !pt; /* no line across: ─ ━, and the half lines ╴ ╸ ╼ ... */
	if (!pt)
		pt = t;
	int a = mid(len, pt), b = a + pt;
	if ((p1 == 3 || p2 == 3) && !arm[(d + 2) % 4]) {
		/* A single line ending at a double one (the arm opposite is absent): at a T (╟ ╤,
		 * the double line on both sides) it stops at the near stroke, not in the gap
		 * between the strokes; at a corner (╓ ╒) it reaches across the far stroke, which
		 * would otherwise stand apart. Where it goes on (╫ ╪) it crosses both, from the
		 * centre. */
		int lt = light_t(c), cen = mid(len, lt), g = double_gap(c, len);
		bool tee = p1 == 3 && p2 == 3;
		if (d == RIGHT || d == DOWN)
			a = tee ? cen + g : cen - g;
		else
			b = tee ? cen - g + lt : cen + g + lt;
	}
	if (d == LEFT || d == UP)
		a = 0;
	else
		b = len;
	/* A heavy half line (╸ ╺, or ╼ ╾ with a light half) in a cell of 3 or 4 px: the middle of its
	 * 3-pixel stroke starts at the cell's edge, and it reached the edge it must not, a stub into
	 * the neighbour's cell (or, past a light half, a thick end on the light line's edge). */
	if (lone && arm[(d + 2) % 4] < arm[d]) {
		if ((d == LEFT || d == UP) && b > len - 1)
			b = len - 1;
		else if ((d == RIGHT || d == DOWN) && a < 1)
			a = 1;
	}
	if (horiz)
		fill(c, a, mid(c->h, t), b, mid(c->h, t) + t, 255);
	else
		fill(c, mid(c->w, t), a, mid(c->w, t) + t, b, 255);
}

static void box_lines(struct canvas *c, const char *spec)
{
	int arm[4];
	for (int i = 0; i < 4; i++)
		arm[i] = spec[i] - '0';
	for (int d = 0; d < 4; d++) {
		if (arm[d] == 3)
			double_arm(c, arm, d);
		else if (arm[d])
			single_arm(c, arm, d);
	}
}

/* Dashed lines: n dashes per cell, each centred in its 1/n of the cell, so dashes continue across
 * cells. */
static void dashes(struct canvas *c, bool horiz, bool heavy, int n)
{
	int t = heavy ? heavy_t(c) : light_t(c);
	int len = horiz ? c->w : c->h;
	for (int i = 0; i < n; i++) {
		int a = len * i / n, b = len * (i + 1) / n;
		int gap = (b - a) / 3;
		if (gap < 1 && b - a > 1)
			gap = 1;
		a += gap / 2;
		b -= gap - gap / 2;
		if (horiz)
			fill(c, a, mid(c->h, t), b, mid(c->h, t) + t, 255);
		else
			fill(c, mid(c->w, t), a, mid(c->w, t) + t, b, 255);
	}
}

/* Supersampled coverage of a shape given as an inside test on pixel coordinates. */
typedef bool (*inside_fn)(double x, double y, const double *p);

static void aa_shape(struct canvas *c, inside_fn in, const double *p)
{
	for (int y = 0; y < c->h; y++) {
		for (int x = 0; x < c->w; x++) {
			int n = 0;
			for (int sy = 0; sy < 4; sy++)
				for (int sx = 0; sx < 4; sx++)
					n += in(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4, p);
			uint8_t a = (uint8_t)(n * 255 / 16);
			if (c->m[y * c->w + x] < a)
				c->m[y * c->w + x] = a;
		}
	}
}

/* p: cx, cy (circle centre), r, half thickness, quadrant signs qx, qy */
static bool in_arc(double x, double y, const double *p)
{
	double dx = x - p[0], dy = y - p[1];
	if (dx * p[4] < 0 || dy * p[5] < 0)
		return false;
	double d = sqrt(dx * dx + dy * dy);
	return fabs(d - p[2]) <= p[3];
}

/* p: x0, y0, x1, y1, half thickness */
static bool in_segment(double x, double y, const double *p)
{
	double vx = p[2] - p[0], vy = p[3] - p[1];
	double l2 = vx * vx + vy * vy;
	double u = ((x - p[0]) * vx + (y - p[1]) * vy) / l2;
	if (u < 0)
		u = 0;
	if (u > 1)
		u = 1;
	double dx = x - (p[0] + u * vx), dy = y - (p[1] + u * vy);
	return dx * dx + dy * dy <= p[4] * p[4];
}

/* Rounded corners U+256D-2570: straight lines from the edges into a quarter circle that meets them
 * tangentially, centred on the same stroke centre lines as the straight box glyphs. */
static void arc(struct canvas *c, uint32_t cp)
{
	int t = light_t(c);
	double lx = mid(c->w, t) + t / 2.0, ly = mid(c->h, t) + t / 2.0; /* centre lines */
	/* The radius leaves the straight parts at least half a pixel before the cell's edges, on
	 * the narrower side of the centre lines too (the middle of an even cell is off centre): an
	 * arc reaching into the edge's column or row anti-aliased it unlike the line it meets
	 * there, a fainter pixel with a ghost beside it at every join. */
	double r = lx < c->w - lx ? lx : c->w - lx;
	if (ly < r)
		r = ly;
	if (c->h - ly < r)
		r = c->h - ly;
	r = r > 1.5 ? r - 0.5 : 1;
	int sx = (cp == 0x256d || cp == 0x2570) ? 1 : -1; /* the horizontal arm goes right */
	int sy = (cp == 0x256d || cp == 0x256e) ? 1 : -1; /* the vertical arm goes down */
	double p[6] = {lx + sx * r, ly + sy * r, r, t / 2.0, -sx, -sy};
	aa_shape(c, in_arc, p);
	/* straight parts from the end of the arc to the edges */
	int hx0 = (int)(sx > 0 ? lx + r : 0), hx1 = (int)(sx > 0 ? c->w : lx - r + 0.999);
	fill(c, hx0, mid(c->h, t), hx1, mid(c->h, t) + t, 255);
	int vy0 = (int)(sy > 0 ? ly + r : 0), vy1 = (int)(sy > 0 ? c->h : ly - r + 0.999);
	fill(c, mid(c->w, t), vy0, mid(c->w, t) + t, vy1, 255);
	/* In a cell 3 or 4 px wide the radius is a pixel and the ring's anti-aliasing reached into
	 * the column (or row) an arm leaves by: a faint pixel beside the line, a ghost at the join.
	 * The edges hold the lines' pixels only (at larger sizes they already do). */
	int ex = sx > 0 ? c->w - 1 : 0, ey = sy > 0 ? c->h - 1 : 0;
	for (int y = 0; y < c->h; y++)
		if (y < mid(c->h, t) || y >= mid(c->h, t) + t)
			c->m[y * c->w + ex] = 0;
	for (int x = 0; x < c->w; x++)
		if (x < mid(c->w, t) || x >= mid(c->w, t) + t)
			c->m[ey * c->w + x] = 0;
}

static void diagonal(struct canvas *c, bool rising)
{
	double ht = light_t(c) / 2.0 + 0.25;
	double p[5] = {0, rising ? c->h : 0, c->w, rising ? 0 : c->h, ht};
	aa_shape(c, in_segment, p);
}

static void box_drawing(struct canvas *c, uint32_t cp)
{
	unsigned i = cp - 0x2500;
	if (box_arms[i][0]) {
		box_lines(c, box_arms[i]);
		return;
	}
	switch (cp) {
	case 0x2504:
		dashes(c, true, false, 3);
		break;
	case 0x2505:
		dashes(c, true, true, 3);
		break;
	case 0x2506:
		dashes(c, false, false, 3);
		break;
	case 0x2507:
		dashes(c, false, true, 3);
		break;
	case 0x2508:
		dashes(c, true, false, 4);
		break;
	case 0x2509:
		dashes(c, true, true, 4);
		break;
	case 0x250a:
		dashes(c, false, false, 4);
		break;
	case 0x250b:
		dashes(c, false, true, 4);
		break;
	case 0x254c:
		dashes(c, true, false, 2);
		break;
	case 0x254d:
		dashes(c, true, true, 2);
		break;
	case 0x254e:
		dashes(c, false, false, 2);
		break;
	case 0x254f:
		dashes(c, false, true, 2);
		break;
	case 0x256d:
	case 0x256e:
	case 0x256f:
	case 0x2570:
		arc(c, cp);
		break;
	case 0x2571:
		diagonal(c, true);
		break;
	case 0x2572:
		diagonal(c, false);
		break;
	case 0x2573:
		diagonal(c, true);
		diagonal(c, false);
		break;
	default:
		break;
	}
}

/* Block boundaries: row where the lower n/8 starts and column where the left n/8 ends, rounded the
 * same way for every glyph so complementary blocks (upper half + lower half, left 7/8 + right 1/8)
 * tile exactly. */
static int lower_start(const struct canvas *c, int n)
{
	return c->h - (c->h * n + 4) / 8;
}

static int left_end(const struct canvas *c, int n)
{
	return (c->w * n + 4) / 8;
}

static void quadrants(struct canvas *c, unsigned bits)
{
	int mx = left_end(c, 4), my = lower_start(c, 4);
	if (bits & 1)
		fill(c, 0, 0, mx, my, 255); /* upper left */
	if (bits & 2)
		fill(c, mx, 0, c->w, my, 255); /* upper right */
	if (bits & 4)
		fill(c, 0, my, mx, c->h, 255); /* lower left */
	if (bits & 8)
		fill(c, mx, my, c->w, c->h, 255); /* lower right */
}

static void block(struct canvas *c, uint32_t cp)
{
	static const uint8_t quads[] = {
	    [0x96 - 0x96] = 4,	       [0x97 - 0x96] = 8,     [0x98 - 0x96] = 1,
	    [0x99 - 0x96] = 1 | 4 | 8, [0x9a - 0x96] = 1 | 8, [0x9b - 0x96] = 1 | 2 | 4,
	    [0x9c - 0x96] = 1 | 2 | 8, [0x9d - 0x96] = 2,     [0x9e - 0x96] = 2 | 4,
	    [0x9f - 0x96] = 2 | 4 | 8,
	};
	unsigned lo = cp & 0xff;
	if (lo == 0x80) {
		fill(c, 0, 0, c->w, lower_start(c, 4), 255);
	} else if (lo >= 0x81 && lo <= 0x88) { /* lower n/8 */
		fill(c, 0, lower_start(c, (int)lo - 0x80), c->w, c->h, 255);
	} else if (lo >= 0x89 && lo <= 0x8f) { /* left n/8 */
		fill(c, 0, 0, left_end(c, 0x90 - (int)lo), c->h, 255);
	} else if (lo == 0x90) {
		fill(c, left_end(c, 4), 0, c->w, c->h, 255);
	} else if (lo >= 0x91 &&
		   lo <= 0x93) { /* shades: flat coverage, so they tile without a seam */
		fill(c, 0, 0, c->w, c->h, (uint8_t)(64 * (lo - 0x90)));
	} else if (lo == 0x94) {
		fill(c, 0, 0, c->w, lower_start(c, 7), 255);
	} else if (lo == 0x95) {
		fill(c, left_end(c, 7), 0, c->w, c->h, 255);
	} else if (lo >= 0x96) {
		quadrants(c, quads[lo - 0x96]);
	}
}

/* Braille: 2 columns x 4 rows of dots; dot n of the pattern is bit n-1. */
static void braille(struct canvas *c, uint32_t cp)
{
	static const uint8_t col[8] = {0, 0, 0, 1, 1, 1, 0, 1};
	static const uint8_t row[8] = {0, 1, 2, 0, 1, 2, 3, 3};
	unsigned bits = cp - 0x2800;
	int d = c->w / 4 < c->h / 8 ? c->w / 4 : c->h / 8;
	if (d < 1)
		d = 1;
	for (int i = 0; i < 8; i++) {
		if (!(bits & (1u << i)))
			continue;
		int cx = c->w * (2 * col[i] + 1) / 4, cy = c->h * (2 * row[i] + 1) / 8;
		fill(c, cx - d / 2, cy - d / 2, cx - d / 2 + d, cy - d / 2 + d, 255);
	}
}

/* p: orientation (1 = points right), solid (1) or outline half thickness */
static bool in_powerline(double x, double y, const double *p)
{
	double w = p[2], h = p[3];
	double u = p[0] > 0 ? x / w : 1 - x / w; /* 0 at the flat side, 1 at the tip */
	double v = fabs(y / h - 0.5) * 2;	 /* 0 in the middle, 1 at the top/bottom */
	if (p[1] == 0)
		return u + v <= 1.0;
	/* outline: distance to the edge u + v = 1 in pixels */
	double d = fabs((1.0 - u - v)) * (w * h / 2) / sqrt(w * w + h * h / 4);
	return d <= p[1] && u <= 1.0;
}

static void powerline(struct canvas *c, uint32_t cp)
{
	double p[4] = {(cp == 0xe0b0 || cp == 0xe0b1) ? 1 : -1, 0, c->w, c->h};
	if (cp == 0xe0b1 || cp == 0xe0b3)
		p[1] = light_t(c) / 2.0 + 0.25;
	aa_shape(c, in_powerline, p);
}

/* The Powerline extras' half discs U+E0B4-E0B7: half an ellipse as wide as the cell and as high,
 * so the flat side fills the cell's edge (joining the next cell's background) and the bulge just
 * touches the far edge. p: w, h, flat side (1 = left), outline thickness (0: solid). Mirrored
 * glyphs take their coordinate from the far edge (w - x), exact in binary, so they are pixel for
 * pixel mirror images. */
static bool in_half_disc(double x, double y, const double *p)
{
	double X = (p[2] > 0 ? x : p[0] - x) / p[0], Y = (y - p[1] / 2) / (p[1] / 2);
	double g = sqrt(X * X + Y * Y);
	if (g > 1.0)
		return false;
	if (p[3] == 0)
		return true;
	/* the outline lies inside the disc, so it ends at the cell's corners like U+E0B1 does:
	 * distance to the ellipse to first order, (1 - g) / |grad g| */
	double gx = X / p[0], gy = Y / (p[1] / 2), grad = sqrt(gx * gx + gy * gy);
	return g > 0 && (1.0 - g) * g <= p[3] * grad;
}

/* The corner triangles U+E0B8/BA/BC/BE: the half of the cell on one side of a corner-to-corner
 * diagonal. p: w, h, right (1: the right angle is at the right), top (1: at the top). */
static bool in_corner_triangle(double x, double y, const double *p)
{
	double u = p[2] > 0 ? p[0] - x : x, v = p[3] > 0 ? p[1] - y : y;
	/* lower left in the flipped coordinates: below the diagonal, v/h >= u/w */
	return v * p[0] >= u * p[1];
}

static void powerline_extra(struct canvas *c, uint32_t cp)
{
	switch (cp) {
	case 0xe0b4:
	case 0xe0b5:
	case 0xe0b6:
	case 0xe0b7: {
		double p[4] = {c->w, c->h, cp <= 0xe0b5 ? 1 : -1, 0};
		if (cp & 1)
			p[3] = light_t(c) + 0.5; /* as heavy as U+E0B1's stroke */
		aa_shape(c, in_half_disc, p);
		break;
	}
	case 0xe0b8:
	case 0xe0ba:
	case 0xe0bc:
	case 0xe0be: {
		double p[4] = {c->w, c->h, cp == 0xe0ba || cp == 0xe0be, cp >= 0xe0bc};
		aa_shape(c, in_corner_triangle, p);
		break;
	}
	case 0xe0b9:
	case 0xe0bf:
		diagonal(c, false); /* the triangles' slants: the box-drawing diagonals */
		break;
	default: /* U+E0BB, U+E0BD */
		diagonal(c, true);
		break;
	}
}

/* The Powerline symbols U+E0A0-E0A3 (branch, line number, padlock, column number), drawn only
 * where the fonts lack them (a font that has them keeps its design): most console fonts do, and a
 * prompt's branch then showed as a box. Drawn in the letters' part of the cell (a margin of an
 * eighth above and below), left-right symmetric where the symbol is, with the light stroke. */
struct icon {
	int x0, y0, x1, y1, t; /* the symbol's box and stroke */
};

static struct icon icon_box(const struct canvas *c)
{
	int mx = c->w / 8, my = c->h / 8;
	return (struct icon){mx, my, c->w - mx, c->h - my, light_t(c)};
}

/* One letter (L, N or C) in [x0, x1) x [y0, y1): the square letters of the Powerline font. */
static void letter(struct canvas *c, char l, int x0, int y0, int x1, int y1, int t)
{
	fill(c, x0, y0, x0 + t, y1, 255); /* every one has its left stroke */
	if (l == 'L' || l == 'C')
		fill(c, x0, y1 - t, x1, y1, 255);
	if (l == 'C')
		fill(c, x0, y0, x1, y0 + t, 255);
	if (l == 'N') {
		fill(c, x1 - t, y0, x1, y1, 255);
		double p[5] = {x0 + t / 2.0, y0 + t / 2.0, x1 - t / 2.0, y1 - t / 2.0, t / 2.0 + 0.25};
		aa_shape(c, in_segment, p);
	}
}

/* U+E0A1 LN, U+E0A3 CN: the two letters one above the other, each as wide as the symbol (side by
 * side they would be a pixel or two wide in a 6-pixel cell, and unreadable). */
static void two_letters(struct canvas *c, char a, char b)
{
	struct icon k = icon_box(c);
	int gap = (k.y1 - k.y0) >= 12 ? (k.y1 - k.y0) / 12 : 0, half = (k.y0 + k.y1) / 2;
	letter(c, a, k.x0, k.y0, k.x1, half - gap / 2, k.t);
	letter(c, b, k.x0, half + (gap - gap / 2), k.x1, k.y1, k.t);
}

/* p: centre x, the arch's centre y, radius (to the stroke's middle), half thickness, bottom y of
 * the legs. The padlock's shackle: a half ring, its legs straight down into the body. */
static bool in_shackle(double x, double y, const double *p)
{
	double dx = x - p[0], dy = y - p[1];
	if (y > p[4])
		return false;
	if (dy >= 0)
		return fabs(fabs(dx) - p[2]) <= p[3];
	return fabs(sqrt(dx * dx + dy * dy) - p[2]) <= p[3];
}

static void padlock(struct canvas *c)
{
	struct icon k = icon_box(c);
	int bw = k.x1 - k.x0, body = (k.y0 + k.y1) / 2; /* the body: the lower half */
	fill(c, k.x0, body, k.x1, k.y1, 255);
	/* the shackle's legs a fifth of the body in from its sides, at least a pixel apart */
	int in = bw / 5;
	if (bw - 2 * in - 2 * k.t < 1)
		in = (bw - 2 * k.t - 1) / 2 > 0 ? (bw - 2 * k.t - 1) / 2 : 0;
	double r = (bw - 2 * in - k.t) / 2.0, cx = c->w / 2.0;
	double p[5] = {cx, k.y0 + k.t / 2.0 + r, r, k.t / 2.0, body};
	if (p[1] > body - 1)
		p[1] = body - 1; /* a flat cell: a flatter arch, the legs still show */
	aa_shape(c, in_shackle, p);
}

/* U+E0A0: the version-control branch: a trunk on the left from top to bottom, a branch leaving it
 * below the middle up to the right, a node at each of the three ends. */
static void branch(struct canvas *c)
{
	struct icon k = icon_box(c);
	/* a node is wider than the stroke, at most a third of the symbol (the top two apart) */
	int bw = k.x1 - k.x0, t = k.t, d = t + 1 + bw / 8;
	if (d > bw / 3)
		d = bw / 3 > t ? bw / 3 : t;
	int tx = k.x0 + (d - t) / 2, bx = k.x1 - d + (d - t) / 2; /* the strokes' left columns */
	fill(c, tx, k.y0, tx + t, k.y1, 255);
	fill(c, k.x0, k.y0, k.x0 + d, k.y0 + d, 255);
	fill(c, k.x0, k.y1 - d, k.x0 + d, k.y1, 255);
	fill(c, k.x1 - d, k.y0, k.x1, k.y0 + d, 255);
	/* the branch: down from its node a little, then slanting into the trunk */
	int bend = k.y0 + (k.y1 - k.y0) / 3, join = k.y0 + (k.y1 - k.y0) * 2 / 3;
	fill(c, bx, k.y0, bx + t, bend, 255);
	double p[5] = {bx + t / 2.0, bend - 0.5, tx + t / 2.0, join, t / 2.0 + 0.25};
	aa_shape(c, in_segment, p);
}

static void powerline_symbol(struct canvas *c, uint32_t cp)
{
	if (cp == 0xe0a0)
		branch(c);
	else if (cp == 0xe0a1)
		two_letters(c, 'L', 'N');
	else if (cp == 0xe0a2)
		padlock(c);
	else
		two_letters(c, 'C', 'N');
}

bool kf_procedural_stands_in(uint32_t cp)
{
	return cp >= 0xe0a0 && cp <= 0xe0a3;
}

const char *kf_procedural_box_arms(uint32_t cp)
{
	if (cp < 0x2500 || cp > 0x257f || !box_arms[cp - 0x2500][0])
		return NULL;
	return box_arms[cp - 0x2500];
}

bool kf_procedural_has(uint32_t cp)
{
	return (cp >= 0x2500 && cp <= 0x259f) || (cp >= 0x2800 && cp <= 0x28ff) ||
	       (cp >= 0xe0b0 && cp <= 0xe0bf);
}

void kf_procedural_draw(uint32_t cp, uint8_t *mask, int w, int h)
{
	struct canvas c = {mask, w, h};
	if (cp >= 0x2500 && cp <= 0x257f)
		box_drawing(&c, cp);
	else if (cp >= 0x2580 && cp <= 0x259f)
		block(&c, cp);
	else if (cp >= 0x2800 && cp <= 0x28ff)
		braille(&c, cp);
	else if (cp >= 0xe0b0 && cp <= 0xe0b3)
		powerline(&c, cp);
	else if (cp >= 0xe0b4 && cp <= 0xe0bf)
		powerline_extra(&c, cp);
	else if (kf_procedural_stands_in(cp))
		powerline_symbol(&c, cp);
}

/* A hollow rectangle inset from the cell: visibly "something is here that we cannot show". */
void kf_procedural_missing(uint8_t *mask, int w, int h)
{
	struct canvas c = {mask, w, h};
	int t = light_t(&c);
	int x0 = w / 8 + (w >= 6), x1 = w - w / 8 - (w >= 6), y0 = h / 8, y1 = h - h / 8;
	if (x1 - x0 < 2 * t || y1 - y0 < 2 * t) {
		fill(&c, 0, 0, w, h, 255);
		return;
	}
	fill(&c, x0, y0, x1, y0 + t, 255);
	fill(&c, x0, y1 - t, x1, y1, 255);
	fill(&c, x0, y0, x0 + t, y1, 255);
	fill(&c, x1 - t, y0, x1, y1, 255);
}
