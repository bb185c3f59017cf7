/* tests/render/test-ascii-glyphs.c: the painter's table of one-cell ASCII glyphs (render-internal.h,
 * ascii_glyph), which composes cells without asking the glyph cache: it names only glyphs the cache
 * still holds, so a repaint after the cache evicted and reused every entry paints the same pixels,
 * and a repaint of cells composed in place (underlined: never pre-composed) makes no cache look-up. */
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"
#include "shot.h"

/* Underlined ASCII in a few colours and styles: every cell is composed (glyph and underline) at
 * every paint. */
static struct screen *underlined_screen(void)
{
	enum { COLS = 24, ROWS = 4 };
	struct screen *s = screen_create(COLS, ROWS);
	static const char *const rows[ROWS] = {"The quick brown fox jum", "ps over the lazy dog 01",
					       "23456789 !\"#$%&'()*+,-./", "ABCDEFGHIJKLMNOPQRSTUVW"};
	for (int y = 0; y < ROWS; y++) {
		struct grid_style look = {.fg = GRID_COLOR_PALETTE(1 + y),
					  .underline = GRID_UNDERLINE_SINGLE,
					  .attrs = y == 1 ? GRID_ATTR_BOLD : 0};
		screen_text(s, 0, y, rows[y], screen_style(s, look));
	}
	return s;
}

static void test_evicted(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN, .cache_glyphs = 64};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	struct screen *s = underlined_screen();
	int w, h;
	uint32_t *a = screen_render(r, s, &w, &h);
	/* every entry evicted and reused by a Braille glyph (each has other pixels) */
	for (uint32_t cp = 0x2801; cp < 0x2900; cp++)
		kf_render_glyph(r, cp, 0, 1);
	struct kf_render_stats st;
	kf_render_get_stats(r, &st);
	CHECK(st.evictions >= 255 - 64);
	uint32_t *b = screen_render(r, s, &w, &h);
	CHECK(a && b && !memcmp(a, b, (size_t)w * h * 4));
	free(a);
	free(b);
	screen_destroy(s);
	kf_render_destroy(r);
}

static void test_no_lookup(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	struct screen *s = underlined_screen();
	int w, h;
	uint32_t *a = screen_render(r, s, &w, &h);
	uint32_t *b = screen_render(r, s, &w, &h);
	struct kf_render_stats st0, st1;
	kf_render_get_stats(r, &st0);
	uint32_t *c = screen_render(r, s, &w, &h);
	kf_render_get_stats(r, &st1);
	CHECK(st1.hits == st0.hits && st1.misses == st0.misses);
	CHECK(a && b && c && !memcmp(a, c, (size_t)w * h * 4) && !memcmp(b, c, (size_t)w * h * 4));
	/* a new cache (another scale) empties the table: the glyphs are asked for again */
	CHECK(kf_render_set_scale(r, 2) == 0);
	uint32_t *d = screen_render(r, s, &w, &h);
	kf_render_get_stats(r, &st1);
	CHECK(d && st1.misses > 0);
	free(a);
	free(b);
	free(c);
	free(d);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* Every style of glyph and decoration next to each other: ASCII in the four faces, underlines of each
 * kind, strike-through, reverse, wide CJK and a combining mark beside ASCII, glyphs the font lacks. */
static struct screen *mixed_screen(void)
{
	enum { COLS = 30, ROWS = 8 };
	struct screen *s = screen_create(COLS, ROWS);
	for (int y = 0; y < ROWS; y++) {
		struct grid_style look = {.fg = GRID_COLOR_PALETTE(1 + y), .bg = GRID_COLOR_PALETTE(8 + y % 3),
					  .underline = (uint8_t)(y % 6), .ul_color = GRID_COLOR_RGB(10, 200, 30),
					  .attrs = (uint16_t)((y & 1 ? GRID_ATTR_BOLD : 0) | (y & 2 ? GRID_ATTR_ITALIC : 0) |
							      (y == 4 ? GRID_ATTR_REVERSE : 0) |
							      (y == 5 ? GRID_ATTR_STRIKE : 0))};
		int x = screen_text(s, 0, y, "Ag{|}~ 09", screen_style(s, look));
		x = screen_text(s, x, y, "\xe6\xbc\xa2" "a", screen_style(s, look));
		x = screen_text(s, x, y, "\xea\xaf\x83Mq", 0); /* a Hangul syllable the built-in font lacks */
		screen_text(s, x, y, "Wp_", screen_style(s, (struct grid_style){.attrs = (uint16_t)(y & 3)}));
	}
	screen_put(s, 20, 3, 'e', 0, 1);
	s->marks[3 * COLS + 20] = 0x301;
	return s;
}

/* A renderer whose table of ASCII glyphs lived through floods that evicted every entry, and scale
 * changes (a new cache each), paints what a new renderer paints. */
static void test_against_fresh(enum kf_render_engine engine)
{
	struct kf_render_config cfg = {.engine = engine, .font_name = "DejaVu Sans Mono", .cache_glyphs = 64};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	CHECK(kf_render_get_engine(r) == engine);
	struct screen *s = mixed_screen();
	static const int scales[] = {1, 2, 1, 3, 3, 1, 2, 2};
	for (unsigned step = 0; step < sizeof(scales) / sizeof(scales[0]); step++) {
		CHECK(kf_render_set_scale(r, scales[step]) == 0);
		int w, h, fw, fh;
		uint32_t *a = screen_render(r, s, &w, &h);
		free(a);
		/* a flood of other glyphs (Braille: each different) between two paints, on odd steps */
		for (uint32_t cp = 0x2801; step & 1 && cp < 0x2801 + 100 + 40 * step; cp++)
			kf_render_glyph(r, cp, step & 3, 1);
		a = screen_render(r, s, &w, &h);
		struct kf_render_config fc = cfg;
		fc.scale = scales[step];
		struct kf_render *f;
		CHECK(kf_render_create(&fc, &f) == 0);
		uint32_t *b = f ? screen_render(f, s, &fw, &fh) : NULL;
		size_t diff = 0;
		for (size_t i = 0; b && fw == w && fh == h && i < (size_t)w * h; i++)
			diff += a[i] != b[i];
		CHECK(b && fw == w && fh == h && diff == 0);
		if (diff)
			printf("step %u (scale %d): %zu pixels differ from a new renderer's\n", step, scales[step],
			       diff);
		free(a);
		free(b);
		kf_render_destroy(f);
	}
	screen_destroy(s);
	kf_render_destroy(r);
}

/* A mark over a composite (á + U+0308) is drawn after two more look-ups (kf_paint_marks: the composite and
 * its plain letter, to stack the mark above the accent): with the glyph cache full and its clock hand on the
 * mark's entry, the plain letter's insertion evicted the mark and reused its entry, and the letter 'a' was
 * drawn over á where the diaeresis belonged. */
static void test_mark_evicted(void)
{
	struct kf_render_config cfg = {.font_name = "DejaVu Sans Mono", .font_size = 20, .cache_glyphs = 64};
	struct kf_render *r, *f;
	if (kf_render_create(&cfg, &r))
		return;
	if (kf_render_get_engine(r) != KF_RENDER_ENGINE_FREETYPE) {
		printf("SKIP mark evicted: no DejaVu Sans Mono\n");
		kf_render_destroy(r);
		return;
	}
	CHECK(kf_render_create(&cfg, &f) == 0);
	/* a full cache, every entry just used, the hand at entry 0: the mark's */
	kf_render_glyph(r, 0x308, 0, 1);
	for (uint32_t cp = 0x2801; cp < 0x2801 + 62; cp++)
		kf_render_glyph(r, cp, 0, 1);
	kf_render_glyph(r, 0xe1, 0, 1);
	struct kf_render_stats st;
	kf_render_get_stats(r, &st);
	CHECK(st.glyphs == 64 && st.capacity == 64 && st.evictions == 0);
	struct grid *g = grid_create(&(struct grid_config){.cols = 2, .rows = 1}, NULL, NULL);
	static const char text[] = "\x1b[?25l\xc3\xa1\xcc\x88"; /* á + U+0308, the cursor hidden */
	grid_feed(g, (const uint8_t *)text, sizeof(text) - 1);
	struct shot a = shot_of_grid(r, g), b = shot_of_grid(f, g);
	size_t diff = 0;
	for (size_t i = 0; a.w == b.w && a.h == b.h && i < (size_t)a.w * a.h; i++)
		diff += a.px[i] != b.px[i];
	CHECK(a.w == b.w && a.h == b.h && diff == 0);
	if (diff)
		printf("mark evicted: %zu pixels differ from a new renderer's\n", diff);
	free(a.px);
	free(b.px);
	grid_destroy(g);
	kf_render_destroy(f);
	kf_render_destroy(r);
}

/* The cache's floor (CACHE_MIN_GLYPHS, 4: a huge font keeps no more) must hold every glyph a cell looks up before
 * it draws them: a cell's glyph, a mark's over a composite (the composite's and the plain letter's too), a wide
 * glyph, a fallback's, a missing one's box. Random screens of those, with underlines and the cursor over them,
 * painted by a renderer of 4 glyphs (every cell evicts) and by one of 4096, twice each: the same pixels. */
static void test_floor(unsigned engine)
{
	struct kf_render_config small = {.engine = engine, .font_name = "DejaVu Sans Mono", .font_size = 18,
					 .cache_glyphs = 4},
				big = small;
	big.cache_glyphs = 4096;
	struct kf_render *r, *f;
	if (kf_render_create(&small, &r))
		return;
	CHECK(kf_render_create(&big, &f) == 0);
	struct kf_render_stats st;
	kf_render_get_stats(r, &st);
	CHECK(st.capacity == 4);
	static const char *const pieces[] = {
		"a", "\xc3\xa1\xcc\x88", "e\xcc\x81\xcc\x82", "\xc3\xa9\xcc\xa3\xcc\x88", "\xe4\xb8\x80",
		"\xef\xbc\xa1", "\xf0\x9f\x98\x80", "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", "\xc7\x84",
		"\xd9\x9a", "\xe2\xa0\x81", "\xee\x80\x80", "\xf0\x9d\x95\xab", "\x1b[4m", "\x1b[9m", "\x1b[53m",
		"\x1b[3m", "\x1b[1m", "\x1b[0m", "\x1b[4:3m", "\x1b[31m", "\x1b[7m", " ", "\r\n", "\x1b[3 q",
		"\x1b[5 q", "\x1b[1 q", "\xe2\x94\x80", "o\xcc\x9b\xcc\x81", "A\xcc\x8a\xcc\x81",
	};
	uint64_t seed = 4;
	size_t bad = 0;
	for (int round = 0; round < 40; round++) {
		struct grid *g = grid_create(&(struct grid_config){.cols = 16, .rows = 5}, NULL, NULL);
		for (int i = 0; i < 120; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			const char *p = pieces[(seed >> 11) % (sizeof(pieces) / sizeof(pieces[0]))];
			grid_feed(g, (const uint8_t *)p, strlen(p));
		}
		for (int pass = 0; pass < 2; pass++) {
			struct shot a = shot_of_grid(r, g), b = shot_of_grid(f, g);
			size_t diff = 0;
			for (size_t i = 0; a.w == b.w && a.h == b.h && i < (size_t)a.w * a.h; i++)
				diff += a.px[i] != b.px[i];
			CHECK(a.w == b.w && a.h == b.h);
			if (diff && !bad++)
				printf("engine %u round %d pass %d: %zu pixels differ with a cache of 4 glyphs\n", engine,
				       round, pass, diff);
			free(a.px);
			free(b.px);
		}
		grid_destroy(g);
	}
	CHECK(bad == 0);
	kf_render_get_stats(r, &st);
	CHECK(st.evictions > 1000);
	printf("cache of 4 (engine %u): %llu evictions, %zu screens differ\n", engine, (unsigned long long)st.evictions,
	       bad);
	kf_render_destroy(f);
	kf_render_destroy(r);
}

int main(void)
{
	test_floor(KF_RENDER_ENGINE_BUILTIN);
	test_floor(KF_RENDER_ENGINE_FREETYPE);
	test_mark_evicted();
	test_evicted();
	test_no_lookup();
	test_against_fresh(KF_RENDER_ENGINE_BUILTIN);
	test_against_fresh(KF_RENDER_ENGINE_FREETYPE);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
