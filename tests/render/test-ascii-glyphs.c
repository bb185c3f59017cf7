/* tests/render/test-ascii-glyphs.c: the painter's table of one-cell ASCII glyphs (render-internal.h,
 * ascii_glyph), which composes cells without asking the glyph cache: it names only glyphs the cache
 * still holds, so a repaint after the cache evicted and reused every entry paints the same pixels,
 * and a repaint of cells composed in place (underlined: never pre-composed) makes no cache look-up. */
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

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

int main(void)
{
	test_evicted();
	test_no_lookup();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
