/* tests/render/test-notice.c: the transient notice drawn over the grid (kf_render_set_notice: a paste or keys
 * refused while a program runs, session.h's notice callback).
 *
 * Frames are made as the frame loop makes them (kmscon-felis/output.c: kf_render_collect_damage, then
 * kf_render_paint of the damage into a canvas that keeps the last picture). The notice's frame must equal,
 * pixel for pixel, a screen painted whole by another renderer whose grid holds the notice's text in reverse
 * video where it is drawn (the look of the default colours swapped), the rest of the screen untouched; and the
 * frame after it goes must equal the screen painted without it: the cells under it come back from the grid,
 * which the notice never changed. A frame while it stays repaints nothing; with none, nothing either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"
#include "../kf-check.h"
#include "frames.h"

static int failures;

/* The picture of g with text written over row y from column 0 in reverse video (what the notice looks like),
 * the cursor as it is unless it lies under the text. */
static uint32_t *reference_with(struct grid *g, int y, const char *text, int w, int h)
{
	struct grid *copy = grid_create(&(struct grid_config){.cols = grid_cols(g), .rows = grid_rows(g)}, NULL, NULL);
	static char seq[8192];
	struct grid_cursor cur;
	if (!copy)
		abort();
	/* the same screen: row by row from g's cells (plain ASCII, no styles in these screens but row 1's SGR) */
	for (int row = 0; row < grid_rows(g); row++) {
		const struct grid_cell *c = grid_row(g, row);
		int n = snprintf(seq, sizeof(seq), "\x1b[%d;1H", row + 1);
		for (int x = 0; x < grid_cols(g); x++) {
			const struct grid_style *st = grid_style(g, c[x].style);
			n += snprintf(seq + n, sizeof(seq) - (size_t)n, "\x1b[0;%sm%c",
				      st && st->fg == GRID_COLOR_PALETTE(1) ? "31" : "", c[x].cp ? (char)c[x].cp : ' ');
		}
		grid_feed(copy, (const uint8_t *)seq, (size_t)n);
	}
	int n = snprintf(seq, sizeof(seq), "\x1b[%d;1H\x1b[0;7m%s\x1b[m", y + 1, text);
	grid_feed(copy, (const uint8_t *)seq, (size_t)n);
	grid_get_cursor(g, &cur);
	n = cur.y == y && cur.x < (int)strlen(text) ? snprintf(seq, sizeof(seq), "\x1b[?25l")
						    : snprintf(seq, sizeof(seq), "\x1b[%d;%dH", cur.y + 1, cur.x + 1);
	grid_feed(copy, (const uint8_t *)seq, (size_t)n);
	uint32_t *px = reference(copy, false, w, h);
	grid_destroy(copy);
	return px;
}

#define COLS 30
#define ROWS 4

static void test_show_and_go(void)
{
	struct kf_render *r = builtin_render();
	struct canvas c = {0};
	int cw, ch;
	struct grid *g = grid_create(&(struct grid_config){.cols = COLS, .rows = ROWS}, NULL, NULL);
	static const char text[] = "abcdefghijklmnopqrstuvwxyz0123\r\n\x1b[31mred\x1b[m line two\r\nthird$ ";

	if (!g)
		abort();
	grid_feed(g, (const uint8_t *)text, sizeof(text) - 1);
	kf_render_cell_size(r, &cw, &ch);
	canvas_init(&c, COLS, ROWS, COLS * cw + 3, ROWS * ch + 2);
	uint32_t *normal = reference(g, false, c.w, c.h);
	frame(r, g, &c);
	CHECK(!differ(c.px, normal, c.w, c.h), "the first frame is the screen");
	int n = frame(r, g, &c);
	CHECK(n == 0, "no notice, nothing changed: %d cells repainted", n);

	/* the cursor is on row 2: the notice goes on the top row */
	kf_render_set_notice(r, "refused!");
	n = frame(r, g, &c);
	uint32_t *with = reference_with(g, 0, " refused! ", c.w, c.h);
	int d = differ(c.px, with, c.w, c.h), changed = differ(c.px, normal, c.w, c.h);
	printf("notice shown: %d cells repainted, %d pixels off the expected picture, %d pixels differ from the "
	       "screen\n", n, d, changed);
	CHECK(n > 0 && n <= COLS && !d, "the notice's frame: %d cells, %d pixels off", n, d);
	CHECK(changed > 10 * cw * ch / 2, "the notice changes the picture (%d pixels)", changed);
	n = frame(r, g, &c);
	CHECK(n == 0, "a frame while the notice stays repaints %d cells", n);

	/* output under and beside the notice goes to the grid; the notice stays over it */
	grid_feed(g, (const uint8_t *)"\x1b[1;3HZZ\x1b[1;20HYY\x1b[3;8H", 22);
	frame(r, g, &c);
	free(with);
	with = reference_with(g, 0, " refused! ", c.w, c.h);
	d = differ(c.px, with, c.w, c.h);
	CHECK(!d, "output during the notice: %d pixels off", d);

	kf_render_set_notice(r, NULL);
	n = frame(r, g, &c);
	free(normal);
	normal = reference(g, false, c.w, c.h);
	d = differ(c.px, normal, c.w, c.h);
	printf("notice gone: %d cells repainted, %d pixels off the screen painted without it\n", n, d);
	CHECK(n > 0 && n <= COLS && !d, "after the notice: %d cells, %d pixels off", n, d);
	n = frame(r, g, &c);
	CHECK(n == 0, "and then nothing: %d cells", n);

	/* the cursor on the top row: the notice goes on the bottom row, so that the line being typed shows */
	grid_feed(g, (const uint8_t *)"\x1b[1;5H", 6);
	frame(r, g, &c);
	kf_render_set_notice(r, "keys\tdropped\x7f");
	frame(r, g, &c);
	free(with);
	with = reference_with(g, ROWS - 1, " keys?dropped? ", c.w, c.h);
	d = differ(c.px, with, c.w, c.h);
	CHECK(!d, "the cursor on the top row: the notice at the bottom, controls as '?': %d pixels off", d);
	/* the cursor moves under it: hidden there, shown again when the notice goes */
	grid_feed(g, (const uint8_t *)"\x1b[4;2H", 6);
	frame(r, g, &c);
	free(with);
	with = reference_with(g, ROWS - 1, " keys?dropped? ", c.w, c.h);
	d = differ(c.px, with, c.w, c.h);
	CHECK(!d, "the cursor under the notice: %d pixels off", d);
	kf_render_set_notice(r, "");
	frame(r, g, &c);
	free(normal);
	normal = reference(g, false, c.w, c.h);
	d = differ(c.px, normal, c.w, c.h);
	CHECK(!d, "after it, the cursor and the row are back: %d pixels off", d);

	free(normal);
	free(with);
	canvas_finish(&c);
	kf_render_destroy(r);
	grid_destroy(g);
}

/* A text past KF_RENDER_NOTICE_MAX is cut there, on a screen wide enough to show more. */
static void test_bound(void)
{
	const int cols = KF_RENDER_NOTICE_MAX + 40;
	struct kf_render *r = builtin_render();
	struct canvas c = {0};
	int cw, ch;
	struct grid *g = grid_create(&(struct grid_config){.cols = cols, .rows = 2}, NULL, NULL);
	static char text[4096], cut[KF_RENDER_NOTICE_MAX + 3];

	if (!g)
		abort();
	grid_feed(g, (const uint8_t *)"\r\n$ ", 4);
	kf_render_cell_size(r, &cw, &ch);
	canvas_init(&c, cols, 2, cols * cw, 2 * ch);
	frame(r, g, &c);
	memset(text, 'x', sizeof(text) - 1);
	kf_render_set_notice(r, text);
	int n = frame(r, g, &c);
	memset(cut, 'x', sizeof(cut) - 1);
	cut[0] = cut[KF_RENDER_NOTICE_MAX + 1] = ' ';
	uint32_t *with = reference_with(g, 0, cut, c.w, c.h);
	int d = differ(c.px, with, c.w, c.h);
	printf("a notice of %zu bytes: %d cells repainted, %d pixels off %d bytes shown\n", strlen(text), n, d,
	       KF_RENDER_NOTICE_MAX);
	CHECK(!d && n <= KF_RENDER_NOTICE_MAX + 4, "the notice is cut at KF_RENDER_NOTICE_MAX: %d cells, %d pixels off",
	      n, d);
	free(with);
	canvas_finish(&c);
	kf_render_destroy(r);
	grid_destroy(g);
}

/* The picture of g with the notice text over it, painted whole by a fresh renderer (the frame loop's partial frames
 * must come to the same picture). */
static uint32_t *reference_notice(struct grid *g, const char *text, int w, int h)
{
	struct kf_render *r = builtin_render();
	struct canvas c = {0};
	kf_render_set_notice(r, text);
	canvas_init(&c, grid_cols(g), grid_rows(g), w, h);
	frame(r, g, &c);
	kf_render_destroy(r);
	kf_render_damage_finish(&c.d);
	return c.px;
}

/* Screens whose notice row is special: double width, double height, a wide character under the notice's end, and
 * reverse video switched while it is shown. Each notice frame equals the same screen with the notice painted
 * whole; after it goes, the screen painted without it. */
static void test_rows(void)
{
	static const struct {
		const char *name, *screen, *during;
	} cases[] = {
		{"double-width row", "\x1b#6WIDE ROW TEXT\r\nline two\r\nline three\x1b[3;5H", ""},
		{"double-height rows", "\x1b#3TALL TEXT\r\n\x1b#4TALL TEXT\r\nline three\x1b[3;5H", ""},
		{"a wide character under its end", "abcdefgh\xe4\xb8\xad\xe6\x96\x87xyz\r\nline two\x1b[3;5H", ""},
		{"DECSCNM while shown", "first row\r\nline two\x1b[3;5H", "\x1b[?5h"},
		{"a double-width row appears under it", "first row\r\nline two\x1b[3;5H", "\x1b[1;1H\x1b#6\x1b[3;5H"},
		{"the alternate screen while shown", "first row\r\nline two\x1b[3;5H",
		 "\x1b[?1049h\x1b[2J\x1b[1;1Halt\x1b#6\x1b[3;5H"},
	};
	const char *text = "refused!!";

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_render *r = builtin_render();
		struct canvas c = {0};
		int cw, ch, d;
		struct grid *g = grid_create(&(struct grid_config){.cols = COLS, .rows = ROWS}, NULL, NULL);
		if (!g)
			abort();
		grid_feed(g, (const uint8_t *)cases[i].screen, strlen(cases[i].screen));
		kf_render_cell_size(r, &cw, &ch);
		canvas_init(&c, COLS, ROWS, COLS * cw + 3, ROWS * ch + 2);
		frame(r, g, &c);
		kf_render_set_notice(r, text);
		frame(r, g, &c);
		grid_feed(g, (const uint8_t *)cases[i].during, strlen(cases[i].during));
		frame(r, g, &c);
		uint32_t *with = reference_notice(g, text, c.w, c.h);
		d = differ(c.px, with, c.w, c.h);
		CHECK(!d, "%s: the notice's frame is %d pixels off the screen painted whole with it", cases[i].name, d);
		kf_render_set_notice(r, NULL);
		frame(r, g, &c);
		struct grid_modes m;
		grid_get_modes(g, &m);
		uint32_t *normal = reference(g, m.reverse_video, c.w, c.h);
		int e = differ(c.px, normal, c.w, c.h);
		CHECK(!e, "%s: after the notice %d pixels are off the screen painted without it", cases[i].name, e);
		printf("%s: %d pixels off with the notice, %d after it\n", cases[i].name, d, e);
		free(with);
		free(normal);
		canvas_finish(&c);
		kf_render_destroy(r);
		grid_destroy(g);
	}
}

/* The grid shrinks while the notice is shown (a zoom or a turned display: fewer columns than the notice, and its
 * row gone), then grows back: each frame is the screen painted whole, with the notice and without it. */
static void test_resize(void)
{
	struct kf_render *r = builtin_render();
	struct canvas c = {0};
	int cw, ch;
	struct grid *g = grid_create(&(struct grid_config){.cols = COLS, .rows = ROWS}, NULL, NULL);
	const char *text = "refused!!";
	static const int sizes[][3] = {{8, 2, 1}, {COLS, ROWS, 1}, {5, 1, 1}, {5, 1, 0}, {COLS, ROWS, 0}};
	if (!g)
		abort();
	const char *screen = "row one\r\nrow two\r\nrow three\r\nrow four\x1b[1;3H";
	grid_feed(g, (const uint8_t *)screen, strlen(screen));
	kf_render_cell_size(r, &cw, &ch);
	canvas_init(&c, COLS, ROWS, COLS * cw, ROWS * ch);
	frame(r, g, &c);
	kf_render_set_notice(r, text);
	frame(r, g, &c);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (!sizes[i][2])
			kf_render_set_notice(r, NULL);
		CHECK(grid_resize(g, sizes[i][0], sizes[i][1]) == 0, "resize");
		kf_render_damage_finish(&c.d);
		if (kf_render_damage_init(&c.d, sizes[i][0], sizes[i][1]) < 0)
			abort();
		frame(r, g, &c);
		uint32_t *want = sizes[i][2] ? reference_notice(g, text, c.w, c.h) : reference(g, false, c.w, c.h);
		int d = differ(c.px, want, c.w, c.h);
		CHECK(!d, "%dx%d %s the notice: %d pixels off", sizes[i][0], sizes[i][1], sizes[i][2] ? "with" : "after", d);
		printf("resized to %dx%d %s the notice: %d pixels off\n", sizes[i][0], sizes[i][1],
		       sizes[i][2] ? "with" : "after", d);
		free(want);
	}
	canvas_finish(&c);
	kf_render_destroy(r);
	grid_destroy(g);
}

int main(void)
{
	test_show_and_go();
	test_bound();
	test_rows();
	test_resize();
	return failures ? 1 : 0;
}
