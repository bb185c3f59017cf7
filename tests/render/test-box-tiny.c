/* tests/render/test-box-tiny.c: box drawing in cells 2-8 pixels wide (tiny fonts, zoomed out):
 * the light, heavy and double lines and their joins (─ │ ┼ ═ ║ ╬, the single-double mixes ╒ ╓ ╞ ╟
 * ╪ ╫..., the half lines ╴ ╸ ╼...) meet their neighbours. test-render.c's test_box_joins asks the column an arm leaves by to equal
 * the plain line's; in so narrow a cell a double vertical line has its strokes on the cell's edges
 * (3 px: stroke, gap, stroke) and the vertical stroke of a 4-pixel cell's ║ is its first column, so
 * here an edge must hold every pixel of the plain line it joins, and any other ink on it must be a
 * vertical stroke of the glyph's own, running along the edge to the top or the bottom (a heavy
 * stroke is 3 px, the whole width of a 3-pixel cell). A heavy half line ╺ ╼ started at the edge
 * it must not reach: the middle of 3 px in 4 is the first column. A 2-pixel cell has no room for a
 * double line's two strokes and gap: it is the light line there (straight()). */
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

/* Pixel i (0..n) of the glyph's edge: column x (vertical) or row y, as ink (>= 128) or not. */
static bool ink(const uint8_t *m, int w, bool col, int at, int i)
{
	return m[col ? i * w + at : at * w + i] >= 128;
}

/* Ink on m's edge (col: column at, else row at) either on the plain line p's edge (pat) or in a
 * run along the edge that reaches one end of it (a stroke of the glyph's own crossing the edge's
 * length), and every pixel of p's there. along: the glyph has arms at the ends of the edge. */
static const char *edge_wrong(const uint8_t *m, const uint8_t *p, int w, int h, bool col, int at,
			      int pat, bool along)
{
	int n = col ? h : w;
	for (int i = 0; i < n; i++) {
		bool want = p && ink(p, w, col, pat, i);
		if (want && !ink(m, w, col, at, i))
			return "the line's pixel missing";
		if (want || !ink(m, w, col, at, i))
			continue;
		/* ink not on the line: a run of ink to an end of the edge, from an arm there */
		int a = i, b = i;
		while (a > 0 && ink(m, w, col, at, a - 1))
			a--;
		while (b < n - 1 && ink(m, w, col, at, b + 1))
			b++;
		if (!along || (a != 0 && b != n - 1))
			return "stray ink";
	}
	return NULL;
}

/* Runs of ink across the middle of the straight line cp (vertical: along the middle row) drawn
 * w x h, the widest run's length in *thick and the first run's start in *at. */
static int runs(uint32_t cp, bool vertical, int w, int h, int *thick, int *at)
{
	uint8_t *m = draw(cp, w, h);
	int n = 0, len = 0;
	*thick = *at = 0;
	for (int i = 0, run = 0; i < (vertical ? w : h); i++) {
		bool on = ink(m, w, !vertical, vertical ? h / 2 : w / 2, i);
		run = on ? run + 1 : 0;
		if (run == 1 && !n++)
			*at = i;
		if (run > len)
			len = run;
	}
	*thick = len;
	free(m);
	return n;
}

/* The straight lines at every cell 1-8 px wide (and 2-20 high): a double line (║ ═) is two strokes
 * with a gap where the cell has the 3 pixels for it, and where it has not (a 2-pixel cell,
 * --font-size 4) it is the light line, in its place, rather than one stroke beside it (or none
 * at 1 px); a heavy line (┃ ━) is at least as thick as the light one, thicker where the cell has
 * room for it. */
static int straight(void)
{
	int bad = 0;
	for (int w = 1; w <= 8; w++) {
		for (int h = w * 3 / 2 > 2 ? w * 3 / 2 : 2; h <= w * 13 / 5; h++) {
			for (int v = 0; v < 2; v++) {
				int len = v ? w : h, lt, lat, dt, dat, ht, hat;
				const uint32_t light = v ? 0x2502 : 0x2500, heavy = v ? 0x2503 : 0x2501,
					       dbl = v ? 0x2551 : 0x2550;
				runs(light, v, w, h, &lt, &lat);
				int strokes = runs(dbl, v, w, h, &dt, &dat);
				runs(heavy, v, w, h, &ht, &hat);
				const char *why = NULL;
				if (len >= 3 && strokes != 2)
					why = "a double line not two strokes with a gap";
				else if (len < 3 && (strokes != 1 || dat != lat || dt != lt))
					why = "a double line with no room not the light line";
				else if (ht < lt || (ht == lt && len >= lt + 2))
					why = "a heavy line no thicker than the light one";
				if (why && bad++ < 12)
					printf("FAIL U+%04X at %dx%d: %s (%d strokes; light %d px at %d, "
					       "double's first %d px at %d, heavy %d px)\n",
					       dbl, w, h, why, strokes, lt, lat, dt, dat, ht);
			}
		}
	}
	return bad;
}

int main(void)
{
	static const uint32_t plain_h[4] = {0, 0x2500, 0x2501, 0x2550},
			      plain_v[4] = {0, 0x2502, 0x2503, 0x2551};
	int checked = 0, bad = 0;
	for (int w = 2; w <= 8; w++) {
		for (int h = w * 3 / 2; h <= w * 13 / 5; h++) {
			for (uint32_t cp = 0x2500; cp <= 0x257f; cp++) {
				const char *arms = kf_procedural_box_arms(cp);
				if (!arms)
					continue;
				int up = arms[0] - '0', right = arms[1] - '0', down = arms[2] - '0',
				    left = arms[3] - '0';
				uint8_t *m = draw(cp, w, h);
				uint8_t *ph[2] = {draw(plain_h[right], w, h), draw(plain_h[left], w, h)};
				uint8_t *pv[2] = {draw(plain_v[up], w, h), draw(plain_v[down], w, h)};
				const struct {
					const char *side, *why;
				} e[4] = {
				    {"right", edge_wrong(m, right ? ph[0] : NULL, w, h, true, w - 1, 0,
							 up || down)},
				    {"left", edge_wrong(m, left ? ph[1] : NULL, w, h, true, 0, w - 1,
							up || down)},
				    {"top", edge_wrong(m, up ? pv[0] : NULL, w, h, false, 0, h - 1,
						       left || right)},
				    {"bottom", edge_wrong(m, down ? pv[1] : NULL, w, h, false, h - 1, 0,
							  left || right)},
				};
				for (int k = 0; k < 4; k++)
					if (e[k].why && bad++ < 12)
						printf("FAIL U+%04X at %dx%d, %s edge: %s\n", cp, w, h,
						       e[k].side, e[k].why);
				free(m);
				for (int k = 0; k < 2; k++) {
					free(ph[k]);
					free(pv[k]);
				}
				checked++;
			}
		}
	}
	printf("tiny box joins: %d glyph/size combinations checked\n", checked);
	CHECK(bad == 0);
	CHECK(straight() == 0);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
