/* tests/render/test-render.c: unit tests of the renderer: procedural glyph joins, block tiling,
 * glyph cache bounds, palettes, damage helpers, FreeType fallback and colour emoji,
 * RGB565 and strides. PSF fonts and bad font files: test-fonts.c; runs of blanks and
 * pre-composed cells: test-runs.c. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

/* --- procedural glyphs --- */

static uint8_t *draw(uint32_t cp, int w, int h)
{
	uint8_t *m = calloc((size_t)w * h, 1);
	kf_procedural_draw(cp, m, w, h);
	return m;
}

/* ink (>= 128) of column x or row y as a bit string */
static void column(const uint8_t *m, int w, int h, int x, char *out)
{
	for (int y = 0; y < h; y++)
		out[y] = m[y * w + x] >= 128 ? '#' : '.';
	out[h] = 0;
}

static void row(const uint8_t *m, int w, int y, char *out)
{
	for (int x = 0; x < w; x++)
		out[x] = m[y * w + x] >= 128 ? '#' : '.';
	out[w] = 0;
}

/* Every arm that leaves a cell edge must continue exactly the line of the plain glyph of the same
 * weight in the neighbouring cell: same pixel rows at the left/right edges, same columns at the
 * top/bottom edges. */
static void test_box_joins(void)
{
	static const uint32_t plain_h[4] = {0, 0x2500, 0x2501, 0x2550},
			      plain_v[4] = {0, 0x2502, 0x2503, 0x2551};
	int checked = 0;
	/* every cell shape a terminal font gives: heights from 1.5 to 2.6 widths */
	for (int w = 5; w <= 24; w++) {
		for (int h = w * 3 / 2; h <= w * 13 / 5; h++) {
			char a[64], b[64];
			for (uint32_t cp = 0x2500; cp <= 0x257f; cp++) {
				const char *arms = kf_procedural_box_arms(cp);
				if (!arms)
					continue;
				uint8_t *m = draw(cp, w, h);
				int up = arms[0] - '0', right = arms[1] - '0', down = arms[2] - '0',
				    left = arms[3] - '0';
				if (right) {
					uint8_t *p = draw(plain_h[right], w, h);
					column(m, w, h, w - 1, a);
					column(p, w, h, 0, b);
					if (strcmp(a, b))
						printf("FAIL U+%04X right arm at %dx%d: %s vs %s\n",
						       cp, w, h, a, b),
						    failures++;
					free(p);
				}
				if (left) {
					uint8_t *p = draw(plain_h[left], w, h);
					column(m, w, h, 0, a);
					column(p, w, h, w - 1, b);
					if (strcmp(a, b))
						printf("FAIL U+%04X left arm at %dx%d: %s vs %s\n",
						       cp, w, h, a, b),
						    failures++;
					free(p);
				}
				if (up) {
					uint8_t *p = draw(plain_v[up], w, h);
					row(m, w, 0, a);
					row(p, w, h - 1, b);
					if (strcmp(a, b))
						printf("FAIL U+%04X up arm at %dx%d: %s vs %s\n",
						       cp, w, h, a, b),
						    failures++;
					free(p);
				}
				if (down) {
					uint8_t *p = draw(plain_v[down], w, h);
					row(m, w, h - 1, a);
					row(p, w, 0, b);
					if (strcmp(a, b))
						printf("FAIL U+%04X down arm at %dx%d: %s vs %s\n",
						       cp, w, h, a, b),
						    failures++;
					free(p);
				}
				/* an edge without an arm stays empty (no stray pixels into the
				 * neighbour's line) */
				if (!right) {
					column(m, w, h, w - 1, a);
					CHECK(!strchr(a, '#'));
				}
				free(m);
				checked++;
			}
		}
	}
	printf("box joins: %d glyph/size combinations checked\n", checked);
}

/* Pieces of ink (>= 128) joined side by side: a glyph's strokes that meet count once. */
static int ink_pieces(const uint8_t *m, int w, int h)
{
	int n = 0, *stack = malloc(sizeof(int) * (size_t)w * h);
	uint8_t *seen = calloc((size_t)w * h, 1);
	for (int i = 0; i < w * h; i++) {
		if (m[i] < 128 || seen[i])
			continue;
		n++;
		int sp = 0;
		stack[sp++] = i;
		seen[i] = 1;
		while (sp) {
			int k = stack[--sp], x = k % w, y = k / w;
			int nb[4] = {x > 0 ? k - 1 : -1, x < w - 1 ? k + 1 : -1, y > 0 ? k - w : -1,
				     y < h - 1 ? k + w : -1};
			for (int j = 0; j < 4; j++)
				if (nb[j] >= 0 && m[nb[j]] >= 128 && !seen[nb[j]]) {
					seen[nb[j]] = 1;
					stack[sp++] = nb[j];
				}
		}
	}
	free(seen);
	free(stack);
	return n;
}

/* A single line meeting a double one, as the Unicode charts and the fonts draw it (mc's panels are
 * framed in these): at a corner (╓ ╖ ╙ ╜ ╒ ╕ ╘ ╛) the single line reaches across both strokes of
 * the double one, so the glyph is one piece; at a T (╟ ╢ ╤ ╧) it stops at the near stroke, so
 * nothing lies between the two strokes, which stay apart (two pieces). From 3 px wide (tiny fonts,
 * zoomed out; test-box-tiny.c checks their joins there). */
static void test_box_double_single(void)
{
	static const uint32_t corners[] = {0x2552, 0x2553, 0x2555, 0x2556,
					   0x2558, 0x2559, 0x255b, 0x255c};
	static const uint32_t tees[] = {0x255f, 0x2562, 0x2564, 0x2567};
	int bad = 0;
	for (int w = 3; w <= 24; w++) {
		for (int h = w * 3 / 2; h <= w * 13 / 5; h++) {
			for (size_t i = 0; i < sizeof(corners) / sizeof(corners[0]); i++) {
				uint8_t *m = draw(corners[i], w, h);
				int n = ink_pieces(m, w, h);
				if (n != 1 && bad++ < 8)
					printf("FAIL U+%04X at %dx%d: %d pieces, not 1\n",
					       corners[i], w, h, n);
				free(m);
			}
			for (size_t i = 0; i < sizeof(tees) / sizeof(tees[0]); i++) {
				uint8_t *m = draw(tees[i], w, h);
				bool vert = tees[i] == 0x255f || tees[i] == 0x2562; /* ╟ ╢ */
				/* the double line's strokes, from the plain ═ or ║ */
				uint8_t *p = draw(vert ? 0x2551 : 0x2550, w, h);
				char a[64], b[64];
				if (vert)
					row(p, w, 0, b);
				else
					column(p, w, h, 0, b);
				/* between the strokes: after the first ink, before the next */
				int len = vert ? w : h, s0 = 0, s1;
				while (s0 < len && b[s0] != '#')
					s0++;
				while (s0 < len && b[s0] == '#')
					s0++;
				for (s1 = s0; s1 < len && b[s1] != '#'; s1++)
					;
				int stray = 0;
				for (int k = 0; k < (vert ? h : w); k++) {
					if (vert)
						row(m, w, k, a);
					else
						column(m, w, h, k, a);
					for (int j = s0; j < s1; j++)
						stray += a[j] == '#';
				}
				int n = ink_pieces(m, w, h);
				if ((stray || n != 2) && bad++ < 8)
					printf("FAIL U+%04X at %dx%d: %d pixels between the double "
					       "strokes, %d pieces\n",
					       tees[i], w, h, stray, n);
				free(p);
				free(m);
			}
		}
	}
	CHECK(bad == 0);
}

/* The rounded corners (tmux popups, fzf, lazygit) meet the straight lines pixel for pixel: the
 * column or row an arm leaves by holds exactly the coverage of the plain line's (anti-aliasing of
 * the arc there shows as a fainter pixel and a ghost beside it, a seam), and the edges without an
 * arm hold nothing. From 3 px wide, where the radius is a pixel. */
static void test_box_arcs(void)
{
	int bad = 0;
	for (int w = 3; w <= 24; w++) {
		for (int h = w * 3 / 2; h <= w * 13 / 5; h++) {
			uint8_t *hl = draw(0x2500, w, h), *vl = draw(0x2502, w, h);
			for (uint32_t cp = 0x256d; cp <= 0x2570; cp++) {
				uint8_t *m = draw(cp, w, h);
				bool right = cp == 0x256d || cp == 0x2570, down = cp <= 0x256e;
				int ex = right ? w - 1 : 0, ey = down ? h - 1 : 0;
				int diff = 0;
				for (int y = 0; y < h; y++) {
					diff += m[y * w + ex] != hl[y * w + ex];
					diff += m[y * w + (w - 1 - ex)] != 0;
				}
				for (int x = 0; x < w; x++) {
					diff += m[ey * w + x] != vl[ey * w + x];
					diff += m[(h - 1 - ey) * w + x] != 0;
				}
				if (diff && bad++ < 8)
					printf("FAIL U+%04X at %dx%d: %d edge pixels unlike the "
					       "lines'\n",
					       cp, w, h, diff);
				free(m);
			}
			free(hl);
			free(vl);
		}
	}
	CHECK(bad == 0);
}

/* Complementary blocks cover every pixel exactly once, at every size. */
static void test_block_tiling(void)
{
	static const uint32_t pairs[][2] = {{0x2580, 0x2584}, {0x258c, 0x2590}, {0x2594, 0x2587},
					    {0x2589, 0x2595}, {0x2598, 0x259f}, {0x259a, 0x259e},
					    {0x2596, 0x259c}, {0x2597, 0x259b}};
	for (int w = 3; w <= 20; w++) {
		for (int h = 5; h <= 40; h += 3) {
			for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
				uint8_t *a = draw(pairs[i][0], w, h), *b = draw(pairs[i][1], w, h);
				int bad = 0;
				for (int k = 0; k < w * h; k++)
					bad += (a[k] == 255) == (b[k] == 255);
				if (bad)
					printf("FAIL U+%04X + U+%04X at %dx%d: %d pixels not "
					       "covered once\n",
					       pairs[i][0], pairs[i][1], w, h, bad),
					    failures++;
				free(a);
				free(b);
			}
			uint8_t *f = draw(0x2588, w, h);
			int full = 0;
			for (int k = 0; k < w * h; k++)
				full += f[k] == 255;
			CHECK(full == w * h);
			free(f);
		}
	}
	/* Braille: every dot pattern distinct, blank pattern empty */
	uint8_t *blank = draw(0x2800, 8, 16), *all = draw(0x28ff, 8, 16);
	int n0 = 0, n1 = 0;
	for (int k = 0; k < 128; k++) {
		n0 += blank[k] != 0;
		n1 += all[k] != 0;
	}
	CHECK(n0 == 0 && n1 >= 8);
	free(blank);
	free(all);
}

/* --- cache --- */

static void test_cache(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN, .cache_glyphs = 64};
	CHECK(kf_render_create(&cfg, &r) == 0);
	for (uint32_t cp = 0x2800; cp < 0x2900; cp++)
		kf_render_glyph(r, cp, 0, 1);
	struct kf_render_stats st;
	kf_render_get_stats(r, &st);
	CHECK(st.glyphs <= 64 && st.capacity == 64);
	CHECK(st.evictions >= 256 - 64);
	/* every glyph returned is the right one even after evictions */
	for (uint32_t cp = 0x2800; cp < 0x2900; cp += 7) {
		const struct kf_glyph *g = kf_render_glyph(r, cp, 0, 1);
		uint8_t *ref = draw(cp, 8, 16);
		CHECK(g->kind == (cp == 0x2800 ? KF_GLYPH_EMPTY : KF_GLYPH_ALPHA));
		if (g->kind == KF_GLYPH_ALPHA)
			CHECK(!memcmp(g->data, ref, 128));
		free(ref);
	}
	/* hits allocate nothing */
	for (uint32_t cp = 'a'; cp <= 'z'; cp++)
		kf_render_glyph(r, cp, 0, 1);
#if !defined(__SANITIZE_ADDRESS__)
	struct mallinfo2 before = mallinfo2();
	kf_render_get_stats(r, &st);
	uint64_t hits = st.hits;
	for (int k = 0; k < 1000; k++)
		for (uint32_t cp = 'a'; cp <= 'z'; cp++)
			kf_render_glyph(r, cp, 0, 1);
	struct mallinfo2 after = mallinfo2();
	kf_render_get_stats(r, &st);
	CHECK(st.hits - hits == 26000);
	CHECK(before.uordblks == after.uordblks);
#endif
	kf_render_destroy(r);
}

/* Pre-composed cells and glyphs the fonts lack: a repaint after the glyph cache evicted everything
 * gives the same pixels; two different missing characters in the same colours look the same; a
 * repaint allocates nothing. */
static void test_cells_and_missing(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN, .cache_glyphs = 64};
	CHECK(kf_render_create(&cfg, &r) == 0);
	struct screen *s = screen_create(8, 2);
	uint16_t red = screen_style(s, (struct grid_style){.fg = GRID_COLOR_PALETTE(1)});
	screen_text(s, 0, 0, "ab", 0);
	screen_put(s, 2, 0, 0x10fff0, 0, 1);
	screen_put(s, 3, 0, 0x10fff1, 0, 1);
	screen_put(s, 4, 0, 0x10fff2, red, 1);
	screen_text(s, 0, 1, "ab", red);
	screen_put(s, 2, 1, 0x10fff3, 0, 1);
	int w, h;
	uint32_t *a = screen_render(r, s, &w, &h);
	for (uint32_t cp = 0x2800; cp < 0x2900; cp++) /* evict every glyph */
		kf_render_glyph(r, cp, 0, 1);
	uint32_t *b = screen_render(r, s, &w, &h);
	CHECK(a && b && !memcmp(a, b, (size_t)w * h * 4));
	/* cells 2, 3 (row 0) and 2 (row 1): the same box in the same colours; cell 4 another colour */
	bool same = true, differs = false;
	for (int y = 0; y < 16; y++) {
		const uint32_t *p0 = b + (size_t)y * w, *p1 = b + (size_t)(16 + y) * w;
		same &= !memcmp(p0 + 16, p0 + 24, 32) && !memcmp(p0 + 16, p1 + 16, 32);
		differs |= memcmp(p0 + 16, p0 + 32, 32) != 0;
	}
	CHECK(same && differs);
	CHECK(kf_render_glyph(r, 0x10fff0, 0, 1)->missing);
	/* a repaint (all hits) allocates nothing */
	uint32_t *px = calloc((size_t)w * h, 4);
	struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
	CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) >= 0);
#if !defined(__SANITIZE_ADDRESS__)
	struct mallinfo2 before = mallinfo2();
	for (int k = 0; k < 10; k++)
		CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) >= 0);
	struct mallinfo2 after = mallinfo2();
	CHECK(before.uordblks == after.uordblks);
#endif
	CHECK(!memcmp(px, b, (size_t)w * h * 4));
	free(px);
	free(a);
	free(b);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* kf_render_prepare_fonts rasterises printable ASCII in the regular and bold styles (later look-ups
 * hit) and changes nothing shown: a repaint of a screen painted before it gives the same pixels. */
static void test_prepare(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	struct screen *s = screen_create(12, 2);
	uint16_t red = screen_style(s, (struct grid_style){.fg = GRID_COLOR_PALETTE(1)});
	screen_text(s, 0, 0, "Hello, world", 0);
	screen_text(s, 0, 1, "~#@ abc", red);
	int w, h;
	uint32_t *a = screen_render(r, s, &w, &h);
	struct kf_render_stats st0, st1;
	kf_render_get_stats(r, &st0);
	kf_render_prepare_fonts(r);
	kf_render_get_stats(r, &st1);
	/* the screen's 14 printable glyphs and the space were there; the other 94 * 2 - 14 are new */
	CHECK(st0.glyphs == 15 && st1.glyphs == 15 + 188 - 14);
	CHECK(st1.misses - st0.misses == st1.glyphs - st0.glyphs);
	for (unsigned style = 0; style <= KF_GLYPH_BOLD; style += KF_GLYPH_BOLD)
		for (uint32_t cp = 0x21; cp < 0x7f; cp++)
			kf_render_glyph(r, cp, style, 1);
	kf_render_get_stats(r, &st0);
	CHECK(st0.misses == st1.misses && st0.hits == st1.hits + 188);
	CHECK(kf_render_glyph(r, 'A', KF_GLYPH_ITALIC, 1)); /* italic is not prepared */
	kf_render_get_stats(r, &st1);
	CHECK(st1.misses == st0.misses + 1);
	uint32_t *b = screen_render(r, s, &w, &h);
	CHECK(a && b && !memcmp(a, b, (size_t)w * h * 4));
	free(a);
	free(b);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* Every pixel of a glyph cell in a colour pair is the glyph's coverage a blended per channel as
 * (bg * (255 - a) + fg * a + 128) / 256 (bg where a is 0, fg where 255), for many colour pairs
 * (each builds a blend table) and glyphs of several scripts (each rasterised here first: its ink
 * rows and whether it has partial coverage are found from its bitmap). The coverage is read
 * from the whole glyph, so ink rows left out by the painter show. */
static void test_glyph_blend(void)
{
	struct kf_render_config cfg = {
	    .font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", .font_size = 16};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	static const uint32_t cps[] = {'a', 'g', 'M', 'W', '@', '|', '_', 0xe9, 0x416, 0x3bb,
				       0x3a9, 0x11f, 0x2591, 'Q', 'j', '%'};
	enum { COLS = 16, ROWS = 12 };
	struct screen *s = screen_create(COLS, ROWS);
	uint32_t seed = 7;
	for (int y = 0; y < ROWS; y++)
		for (int x = 0; x < COLS; x++) {
			uint32_t c[2];
			for (int k = 0; k < 2; k++) {
				seed = seed * 1103515245u + 12345u;
				c[k] = seed >> 8 & 0xffffff;
			}
			if ((x + y) % 5 == 0) /* channels far apart both ways */
				c[0] = 0xff00ff, c[1] = 0x00ff00;
			uint16_t st = screen_style(s, (struct grid_style){.fg = GRID_COLOR_RGB(c[0] >> 16, c[0] >> 8 & 0xff, c[0] & 0xff),
									  .bg = GRID_COLOR_RGB(c[1] >> 16, c[1] >> 8 & 0xff, c[1] & 0xff)});
			screen_put(s, x, y, cps[(x + y * 3) % 16], st, 1);
		}
	int cw, ch, w, h, bad = 0;
	kf_render_cell_size(r, &cw, &ch);
	for (int pass = 0; pass < 2; pass++) {
		unsigned bits = r->cells.bits;
		if (pass)
			r->cells.bits = 0; /* composed in place, not through the pre-composed cells */
		uint32_t *px = screen_render(r, s, &w, &h);
		r->cells.bits = bits;
		for (int y = 0; y < ROWS; y++)
			for (int x = 0; x < COLS; x++) {
				const struct grid_cell *c = &s->cells[y * COLS + x];
				const struct grid_style *st = &s->styles[c->style];
				uint32_t fg = st->fg & 0xffffff, bg = st->bg & 0xffffff;
				const struct kf_glyph *g = kf_render_glyph(r, c->cp, 0, 1);
				for (int j = 0; j < ch; j++)
					for (int i = 0; i < cw; i++) {
						unsigned a = g->kind == KF_GLYPH_ALPHA
								 ? ((const uint8_t *)g->data)[j * g->w + i]
								 : 0;
						uint32_t want = 0;
						for (int k = 0; k < 24; k += 8) {
							unsigned b = bg >> k & 0xff, f = fg >> k & 0xff;
							want |= (b * (255 - a) + f * a + 128) / 256 << k;
						}
						want = a == 0 ? bg : a == 255 ? fg : want;
						bad += px[(size_t)(y * ch + j) * w + x * cw + i] != want;
					}
			}
		CHECK(bad == 0);
		free(px);
	}
	screen_destroy(s);
	kf_render_destroy(r);
}

/* --- palettes and damage --- */

static void test_palette(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN, .palette = "solarized"};
	CHECK(kf_render_create(&cfg, &r) == 0);
	const uint32_t *p = kf_render_palette(r);
	CHECK(p[1] == 0xdc322f && p[256] == 0xeee8d5 && p[257] == 0x073642);
	CHECK(p[16] == 0x000000 && p[231] == 0xffffff && p[232] == 0x080808 && p[255] == 0xeeeeee);
	CHECK(p[16 + 36 + 6 + 1] == 0x5f5f5f);
	static const char *const names[] = {
	    "default",	       "legacy",	  "vga",	"nord",	       "solarized",
	    "solarized-black", "solarized-white", "soft-black", "base16-dark", "base16-light"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(kf_render_set_palette(r, names[i]) == 0);
	CHECK(kf_render_set_palette(r, "no-such") == -EINVAL);
	CHECK(kf_render_set_palette(r, "default") == 0 && p[1] == 0xcd0000 && p[257] == 0);
	CHECK(kf_render_set_palette_color(r, "light-red", "1,2,3") == 0 && p[9] == 0x010203);
	CHECK(kf_render_set_palette_color(r, "background", "255,255,255") == 0 &&
	      p[257] == 0xffffff);
	CHECK(kf_render_set_palette_color(r, "red", "256,0,0") == -EINVAL);
	CHECK(kf_render_set_palette_color(r, "red", "1,2") == -EINVAL);
	CHECK(kf_render_set_palette_color(r, "red", "1,2,3,4") == -EINVAL);
	CHECK(kf_render_set_palette_color(r, "red", "-1,2,3") == -EINVAL);
	CHECK(kf_render_set_palette_color(r, "purple", "1,2,3") == -EINVAL);
	uint32_t custom[18];
	for (int i = 0; i < 18; i++)
		custom[i] = 0x010101u * (uint32_t)i;
	kf_render_set_palette_colors(r, custom);
	CHECK(p[15] == 0x0f0f0f && p[256] == 0x101010 && p[257] == 0x111111 && p[16] == 0);
	kf_render_destroy(r);
	cfg.palette = "bogus";
	r = NULL;
	CHECK(kf_render_create(&cfg, &r) == -EINVAL && !r);
}

static void test_damage(void)
{
	struct kf_render_damage a, b;
	CHECK(kf_render_damage_init(&a, 10, 4) == 0 && kf_render_damage_init(&b, 10, 4) == 0);
	CHECK(kf_render_damage_empty(&a));
	kf_render_damage_add(&a, 1, 3, 5);
	kf_render_damage_add(&a, 1, 7, 20);
	kf_render_damage_add(&a, 9, 0, 1);
	kf_render_damage_add(&b, 2, -5, 2);
	CHECK(a.x0[1] == 3 && a.x1[1] == 10);
	kf_render_damage_union(&a, &b);
	CHECK(a.x0[2] == 0 && a.x1[2] == 2 && a.x0[0] >= a.x1[0]);
	kf_render_damage_clear(&a);
	CHECK(kf_render_damage_empty(&a));
	kf_render_damage_finish(&a);
	kf_render_damage_finish(&b);
	kf_render_damage_finish(&b); /* twice is fine */
	CHECK(kf_render_damage_init(&b, 0, 4) == -EINVAL && !b.x0);
}

/* --- FreeType: fallback and colour emoji --- */

static void test_freetype(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.font_name = "DejaVu Sans Mono", .font_size = 16};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	CHECK(cw == 10 && ch == 19);
	int cw2, ch2;
	const struct kf_glyph *g = kf_render_glyph(r, 0x1f600, 0, 2);
	CHECK(g->kind == KF_GLYPH_COLOR && !g->missing && g->w == 2 * cw);
	g = kf_render_glyph(r, 'A', 0, 1);
	CHECK(g->kind == KF_GLYPH_ALPHA && !g->missing);
	/* a character DejaVu Sans Mono lacks but DejaVu Sans has (U+2654 chess king) comes from a
	 * fallback */
	g = kf_render_glyph(r, 0x2654, 0, 1);
	CHECK(g->kind == KF_GLYPH_ALPHA && !g->missing);
	/* a 256-character page that no font has anything in is skipped whole (font-ft.c), but not a
	 * page whose characters only a fallback has: U+1400 is in no font here, U+1401 (Canadian
	 * syllabics) only in DejaVu Sans; U+4E00 and U+4E01 in none */
	CHECK(kf_render_glyph(r, 0x1400, 0, 1)->missing);
	g = kf_render_glyph(r, 0x1401, 0, 1);
	CHECK(g->kind == KF_GLYPH_ALPHA && !g->missing);
	CHECK(kf_render_glyph(r, 0x4e00, 0, 2)->missing &&
	      kf_render_glyph(r, 0x4e01, 0, 2)->missing);
	/* bold differs from regular */
	const struct kf_glyph *b = kf_render_glyph(r, 'm', KF_GLYPH_BOLD, 1);
	const struct kf_glyph *n = kf_render_glyph(r, 'm', 0, 1);
	CHECK(memcmp(b->data, n->data, (size_t)cw * ch));
	/* a font file has no styled siblings: bold and italic are synthesised (embolden, shear) */
	struct kf_render *rf;
	struct kf_render_config fc = {.font_file =
					  "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"};
	if (kf_render_create(&fc, &rf) == 0) {
		const struct kf_glyph *fr = kf_render_glyph(rf, 'l', 0, 1);
		size_t ink_r = 0, ink_b = 0;
		uint8_t reg[4096];
		memcpy(reg, fr->data, (size_t)fr->w * fr->h);
		for (int i = 0; i < fr->w * fr->h; i++)
			ink_r += reg[i];
		const struct kf_glyph *fb = kf_render_glyph(rf, 'l', KF_GLYPH_BOLD, 1);
		for (int i = 0; i < fb->w * fb->h; i++)
			ink_b += ((const uint8_t *)fb->data)[i];
		CHECK(ink_b > ink_r * 11 / 10); /* visibly heavier */
		const struct kf_glyph *fi = kf_render_glyph(rf, 'l', KF_GLYPH_ITALIC, 1);
		CHECK(memcmp(fi->data, reg, (size_t)fi->w * fi->h));
		/* no fallbacks: a page is skipped only when the face has nothing in it (U+0378 is
		 * unassigned, U+03B1 alpha is in the face, in the same page) */
		CHECK(kf_render_glyph(rf, 0x378, KF_GLYPH_ITALIC, 1)->missing);
		CHECK(!kf_render_glyph(rf, 0x3b1, KF_GLYPH_ITALIC, 1)->missing);
		CHECK(kf_render_glyph(rf, 0x4e00, 0, 2)->missing);
		kf_render_destroy(rf);
	} else {
		CHECK(!"DejaVuSansMono.ttf opens");
	}
	/* the cache is bounded in bytes too: at 8x zoom it keeps fewer glyphs */
	struct kf_render_stats st;
	CHECK(kf_render_set_scale(r, 8) == 0);
	kf_render_get_stats(r, &st);
	kf_render_cell_size(r, &cw2, &ch2);
	CHECK(st.capacity * 2 * (size_t)cw2 * ch2 * 4 <= (64u << 20) && st.capacity >= 64);
	CHECK(kf_render_set_scale(r, 1) == 0);
	kf_render_get_stats(r, &st);
	CHECK(st.capacity == 4096);
	/* zoom re-opens the face at twice the size */
	CHECK(kf_render_set_scale(r, 2) == 0);
	kf_render_cell_size(r, &cw2, &ch2);
	CHECK(cw2 >= 2 * cw - 1 && cw2 <= 2 * cw + 1 && ch2 >= 2 * ch - 2 && ch2 <= 2 * ch + 2);
	kf_render_destroy(r);
}

/* kf_render_set_font (a configuration reload): the new font at the current zoom, or on failure the old one
 * untouched. */
static void test_set_font(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	int cw, ch;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	CHECK(kf_render_set_scale(r, 2) == 0);
	struct kf_render_config ft = {.font_name = "DejaVu Sans Mono", .font_size = 16};
	CHECK(kf_render_set_font(r, &ft) == 0);
	kf_render_cell_size(r, &cw, &ch);
	CHECK(kf_render_get_engine(r) == KF_RENDER_ENGINE_FREETYPE && kf_render_get_scale(r) == 2);
	CHECK(cw >= 19 && cw <= 21 && ch >= 36 && ch <= 40); /* 10x19 at 16 px, twice */
	CHECK(!kf_render_glyph(r, 'A', 0, 1)->missing);
	/* a font that cannot be opened, a bad size, PSF without a file: refused, the old font stays */
	struct kf_render_config bad[] = {
		{.engine = KF_RENDER_ENGINE_PSF, .font_file = "/nonexistent/font.psf"},
		{.engine = KF_RENDER_ENGINE_PSF},
		{.font_size = 100000},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int w, h;
		CHECK(kf_render_set_font(r, &bad[i]) < 0);
		kf_render_cell_size(r, &w, &h);
		CHECK(w == cw && h == ch && kf_render_get_engine(r) == KF_RENDER_ENGINE_FREETYPE);
		CHECK(!kf_render_glyph(r, 'B', 0, 1)->missing);
	}
	/* back to the bitmap font, scaled pixel by pixel */
	CHECK(kf_render_set_font(r, &cfg) == 0);
	kf_render_cell_size(r, &cw, &ch);
	CHECK(cw == 16 && ch == 32 && kf_render_get_engine(r) == KF_RENDER_ENGINE_BUILTIN);
	kf_render_destroy(r);
}

/* --- formats and strides --- */

static void test_formats(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	struct screen *s = screen_create(6, 2);
	screen_text(s, 0, 0, "Hi\xe2\x94\x80",
		    screen_style(s, (struct grid_style){.fg = GRID_COLOR_RGB(255, 0, 0)}));
	int w, h;
	uint32_t *ref = screen_render(r, s, &w, &h);
	/* XRGB with a padded stride and a target larger than the grid: margins get the background
	 */
	int tw = w + 5, th = h + 3, stride = (tw + 7) * 4;
	uint32_t *big = malloc((size_t)stride * th);
	memset(big, 0x55, (size_t)stride * th);
	struct kf_render_target t = {big, tw, th, stride, KF_RENDER_XRGB8888};
	struct kf_render_rect rc[4];
	CHECK(kf_render_paint_full(r, &s->src, &t, rc, 4) == 1);
	int bad = 0;
	for (int y = 0; y < th; y++)
		for (int x = 0; x < tw; x++) {
			uint32_t v = big[(size_t)y * (stride / 4) + x];
			bad += (x < w && y < h) ? v != ref[y * w + x] : v != 0;
		}
	CHECK(bad == 0);
	CHECK(big[stride / 4 - 1] == 0x55555555u); /* padding beyond width untouched */
	/* RGB565, and a target smaller than the grid (clipped) */
	uint16_t *p565 = malloc((size_t)w * h * 2);
	struct kf_render_target t5 = {p565, w - 3, h - 5, w * 2, KF_RENDER_RGB565};
	CHECK(kf_render_paint_full(r, &s->src, &t5, NULL, 0) == 0);
	bad = 0;
	for (int y = 0; y < h - 5; y++)
		for (int x = 0; x < w - 3; x++) {
			uint32_t c = ref[y * w + x];
			uint16_t e =
			    (uint16_t)((c >> 8 & 0xf800) | (c >> 5 & 0x07e0) | (c >> 3 & 0x1f));
			bad += p565[y * w + x] != e;
		}
	CHECK(bad == 0);
	/* damage rectangles: one damaged cell gives its rectangle */
	struct kf_render_damage d;
	kf_render_damage_init(&d, 6, 2);
	kf_render_damage_add(&d, 1, 2, 3);
	struct kf_render_target tr = {ref, w, h, w * 4, KF_RENDER_XRGB8888};
	CHECK(kf_render_paint(r, &s->src, &d, &tr, rc, 4) == 1);
	CHECK(rc[0].x == 8 && rc[0].y == 16 && rc[0].w == 24 &&
	      rc[0].h == 16); /* one cell each side */
	kf_render_damage_all(&d);
	CHECK(kf_render_paint(r, &s->src, &d, &tr, rc, 4) == 1 && rc[0].w == w && rc[0].h == h);
	CHECK(kf_render_paint(r, &s->src, &d, &tr, rc, 0) == 0);
	kf_render_damage_finish(&d);
	free(p565);
	free(big);
	free(ref);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* A character the style's face lacks is drawn from the first fallback in fontconfig's order that has it, whatever
 * came before: U+065A in italic (DejaVu Sans Mono Oblique lacks it) is DejaVu Sans Mono's, slanted; once U+01C4
 * (in none of the Mono faces) had opened DejaVu Sans, U+065A came from that proportional face instead, for as long
 * as the renderer lived, and a glyph evicted and drawn again could change its look. */
static void test_fallback_order(void)
{
	struct kf_render_config cfg = {.font_name = "DejaVu Sans Mono", .font_size = 16};
	struct kf_render *a, *b;
	if (kf_render_create(&cfg, &a))
		return;
	if (kf_render_get_engine(a) != KF_RENDER_ENGINE_FREETYPE || kf_render_create(&cfg, &b)) {
		printf("SKIP fallback order: no DejaVu Sans Mono\n");
		kf_render_destroy(a);
		return;
	}
	static const struct {
		uint32_t first, cp;
		unsigned style;
	} cases[] = {{0x1c4, 0x65a, KF_GLYPH_ITALIC}, {0x1c4, 0x65a, KF_GLYPH_ITALIC | KF_GLYPH_BOLD}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kf_glyph *ga = kf_render_glyph(a, cases[i].cp, cases[i].style, 1);
		kf_render_glyph(b, cases[i].first, 0, 1);
		const struct kf_glyph *gb = kf_render_glyph(b, cases[i].cp, cases[i].style, 1);
		long ink_a = alpha_ink(ga->data, (size_t)ga->w * ga->h), ink_b = alpha_ink(gb->data, (size_t)gb->w * gb->h);
		bool same = ga->kind == gb->kind && !ga->missing && !gb->missing && ga->w == gb->w && ga->h == gb->h &&
			    !memcmp(ga->data, gb->data, (size_t)ga->w * ga->h);
		CHECK(same);
		if (!same)
			printf("U+%04X style %u after U+%04X: ink %ld, %ld in a new renderer\n", (unsigned)cases[i].cp,
			       cases[i].style, (unsigned)cases[i].first, ink_b, ink_a);
	}
	kf_render_destroy(a);
	kf_render_destroy(b);
}

int main(void)
{
	test_fallback_order();
	test_box_joins();
	test_box_double_single();
	test_box_arcs();
	test_block_tiling();
	test_cache();
	test_cells_and_missing();
	test_prepare();
	test_glyph_blend();
	test_palette();
	test_damage();
	test_freetype();
	test_set_font();
	test_formats();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
