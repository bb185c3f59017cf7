/* tests/render/test-golden.c: fixed screens rendered and compared with golden images.
 *
 * Built-in font: pixel for pixel. DejaVu Sans Mono 16 px (through fontconfig, with fallback to Noto
 * Color Emoji): within a tolerance, since FreeType versions rasterise slightly differently. Usage:
 * test-golden GOLDEN_DIR. Regenerate: KF_GOLDEN_UPDATE=1 test-golden GOLDEN_DIR (then look at
 * them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"

static int failures;

#define ST(...) screen_style(s, (struct grid_style){__VA_ARGS__})
#define PAL(n) GRID_COLOR_PALETTE(n)
#define RGB(r, g, b) GRID_COLOR_RGB(r, g, b)

static struct screen *screen_sgr(void)
{
	struct screen *s = screen_create(40, 12);
	int x = screen_text(s, 0, 0, "plain ", 0);
	x = screen_text(s, x, 0, "Bold ", ST(.attrs = GRID_ATTR_BOLD));
	x = screen_text(s, x, 0, "Dim ", ST(.attrs = GRID_ATTR_DIM));
	x = screen_text(s, x, 0, "Italic ", ST(.attrs = GRID_ATTR_ITALIC));
	screen_text(s, x, 0, "BoldItal", ST(.attrs = GRID_ATTR_BOLD | GRID_ATTR_ITALIC));
	x = screen_text(s, 0, 1, "single", ST(.underline = GRID_UNDERLINE_SINGLE));
	x = screen_text(s, x + 1, 1, "double", ST(.underline = GRID_UNDERLINE_DOUBLE));
	x = screen_text(s, x + 1, 1, "curly",
			ST(.underline = GRID_UNDERLINE_CURLY, .ul_color = PAL(9)));
	x = screen_text(s, x + 1, 1, "dotted", ST(.underline = GRID_UNDERLINE_DOTTED));
	screen_text(s, x + 1, 1, "dashed",
		    ST(.underline = GRID_UNDERLINE_DASHED, .ul_color = RGB(0, 200, 255)));
	x = screen_text(s, 0, 2, "strike", ST(.attrs = GRID_ATTR_STRIKE));
	x = screen_text(s, x + 1, 2, "overline", ST(.attrs = GRID_ATTR_OVERLINE));
	x = screen_text(s, x + 1, 2, "reverse", ST(.attrs = GRID_ATTR_REVERSE));
	x = screen_text(s, x + 1, 2, "[", 0);
	x = screen_text(s, x, 2, "invis", ST(.attrs = GRID_ATTR_INVISIBLE, .bg = PAL(4)));
	x = screen_text(s, x, 2, "]", 0);
	screen_text(s, x + 1, 2, "blink", ST(.attrs = GRID_ATTR_BLINK));
	for (int i = 0; i < 16; i++) {
		char t[2] = {"0123456789abcdef"[i], 0};
		screen_text(s, i, 3, t, ST(.fg = PAL(i)));
		screen_text(s, 20 + i, 3, t, ST(.fg = PAL(i < 8 ? 15 : 0), .bg = PAL(i)));
	}
	for (int i = 0; i < 40; i++) {
		screen_put(s, i, 4, ' ', ST(.bg = PAL(16 + i * 6)), 1);
		screen_put(s, i, 5, 0x2580,
			   ST(.fg = PAL(232 + i * 24 / 40), .bg = RGB(i * 6, 255 - i * 6, 128)), 1);
	}
	screen_text(s, 0, 6,
		    "Latin-1: \xc3\xa0\xc3\xa9\xc3\xae\xc3\xb5\xc3\xbc \xc3\x86\xc3\x98\xc3\x9f "
		    "\xc2\xbf\xc2\xa1 "
		    "\xc2\xa9\xc2\xae\xc2\xb1 \xc3\x87\xc3\xb1\xc3\x85\xc2\xbd\xc2\xa7",
		    0);
	screen_text(s, 0, 7, "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", 0);
	screen_text(s, 0, 8, "ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789", 0);
	screen_text(s, 0, 9, "abcdefghijklmnopqrstuvwxyz", 0);
	screen_text(s, 0, 10, "The quick brown fox jumps over the lazy", ST(.fg = PAL(10)));
	screen_text(s, 0, 11,
		    "dog. Bold dim:", ST(.attrs = GRID_ATTR_BOLD | GRID_ATTR_DIM, .fg = PAL(11)));
	return s;
}

static struct screen *screen_box(void)
{
	struct screen *s = screen_create(32, 12);
	for (int i = 0; i < 128; i++)
		screen_put(s, i % 32, i / 32, 0x2500 + (uint32_t)i, 0, 1);
	for (int i = 0; i < 32; i++)
		screen_put(s, i, 4, 0x2580 + (uint32_t)i, 0, 1);
	for (int i = 0; i < 32; i++)
		screen_put(s, i, 5, 0x2800 + (uint32_t)(i * 8 + i / 4), 0, 1);
	screen_text(
	    s, 0, 6,
	    "\xe2\x95\x94\xe2\x95\x90\xe2\x95\xa6\xe2\x95\x90\xe2\x95\x97 \xe2\x94\x8f\xe2\x94\x81"
	    "\xe2\x94\xb3\xe2\x94\x81\xe2\x94\x93 "
	    "\xe2\x95\xad\xe2\x94\x80\xe2\x94\xac\xe2\x94\x80\xe2\x95\xae",
	    0);
	screen_text(
	    s, 0, 7,
	    "\xe2\x95\xa0\xe2\x95\x90\xe2\x95\xac\xe2\x95\x90\xe2\x95\xa3 \xe2\x94\xa3\xe2\x94\x81"
	    "\xe2\x95\x8b\xe2\x94\x81\xe2\x94\xab "
	    "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\xbc\xe2\x94\x80\xe2\x94\xa4",
	    0);
	screen_text(
	    s, 0, 8,
	    "\xe2\x95\x9a\xe2\x95\x90\xe2\x95\xa9\xe2\x95\x90\xe2\x95\x9d \xe2\x94\x97\xe2\x94\x81"
	    "\xe2\x94\xbb\xe2\x94\x81\xe2\x94\x9b "
	    "\xe2\x95\xb0\xe2\x94\x80\xe2\x94\xb4\xe2\x94\x80\xe2\x95\xaf",
	    0);
	uint16_t pl = ST(.fg = PAL(4), .bg = PAL(2));
	screen_text(s, 0, 9, " main ", ST(.fg = PAL(15), .bg = PAL(4)));
	screen_put(s, 6, 9, 0xe0b0, pl, 1);
	screen_text(s, 7, 9, " x ", ST(.fg = PAL(0), .bg = PAL(2)));
	screen_put(s, 10, 9, 0xe0b1, ST(.fg = PAL(0), .bg = PAL(2)), 1);
	screen_put(s, 12, 9, 0xe0b3, 0, 1);
	screen_put(s, 13, 9, 0xe0b2, ST(.fg = PAL(5)), 1);
	screen_text(s, 14, 9, " ok ", ST(.fg = PAL(15), .bg = PAL(5)));
	for (int i = 0; i < 32; i++) {
		screen_put(s, i, 10, 0x2588 - (uint32_t)(i % 8), ST(.fg = PAL(6)), 1);
		screen_put(s, i, 11, i % 3 ? 0x2592 : 0x2591, ST(.fg = PAL(3), .bg = PAL(1)), 1);
	}
	return s;
}

static struct screen *screen_wide_text(void)
{
	struct screen *s = screen_create(24, 4);
	screen_text(s, 0, 0,
		    "ab\xe6\xbc\xa2\xe5\xad\x97"
		    "cd|",
		    0); /* CJK, 2 cells each */
	screen_text(s, 0, 1, "x\xf0\x9f\x98\x80y\xf0\x9f\x90\x88z\xe2\x9c\x93|",
		    0); /* emoji + U+2713 */
	screen_text(s, 0, 2, "\xef\xbc\xa1\xef\xbc\xa2|",
		    ST(.attrs = GRID_ATTR_REVERSE)); /* fullwidth A B */
	screen_text(s, 0, 3, "e\xcc\x81 \xe4\xb8\x80\xe4\xb8\x80 \xf0\x9f\x8c\x8d|",
		    ST(.fg = PAL(3)));
	/* U+2764 is a text heart; with VS16 it asks for the colour emoji */
	screen_text(s, 16, 0, "\xe2\x9d\xa4 \xe2\x9d\xa4\xef\xb8\x8f|", 0);
	return s;
}

static struct screen *screen_cursor(enum grid_cursor_shape shape)
{
	struct screen *s = screen_create(12, 3);
	screen_text(s, 0, 0, "$ ls -l", 0);
	screen_text(s, 0, 1, "selected", 0);
	screen_text(s, 0, 2, "wide:\xe6\xbc\xa2", ST(.fg = PAL(2)));
	for (int x = 2; x < 6; x++)
		s->cells[1 * s->cols + x].flags |= GRID_CELL_SELECTED;
	s->src.cursor = (struct grid_cursor){.x = 5, .y = 0, .visible = true, .shape = shape};
	if (shape == GRID_CURSOR_BAR)
		s->src.cursor =
		    (struct grid_cursor){.x = 5, .y = 2, .visible = true, .shape = shape};
	return s;
}

static void compare(const char *dir, const char *name, struct kf_render *r, struct screen *s,
		    int tolerance)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	int w, h, gw, gh;
	uint32_t *px = screen_render(r, s, &w, &h);
	if (getenv("KF_GOLDEN_UPDATE")) {
		int ret = kf_render_write_png(path, px, w, h, w * 4);
		printf("%s %s (%dx%d)\n", ret ? "FAILED writing" : "wrote", path, w, h);
		failures += ret != 0;
		free(px);
		return;
	}
	uint32_t *g = png_read_xrgb(path, &gw, &gh);
	if (!g) {
		printf("FAIL %s: cannot read %s\n", name, path);
		failures++;
		free(px);
		return;
	}
	long bad = 0;
	if (gw != w || gh != h) {
		printf("FAIL %s: size %dx%d, golden %dx%d\n", name, w, h, gw, gh);
		failures++;
	} else {
		for (long i = 0; i < (long)w * h; i++) {
			int worst = 0;
			for (int k = 0; k < 24; k += 8) {
				int d = abs((int)(px[i] >> k & 0xff) - (int)(g[i] >> k & 0xff));
				worst = d > worst ? d : worst;
			}
			bad += tolerance ? worst > 96 : worst != 0;
		}
		/* tolerance: at most 1% of the pixels may differ noticeably */
		long allowed = tolerance ? (long)w * h / 100 : 0;
		printf("%s %s: %ld of %ld pixels differ (allowed %ld)\n",
		       bad > allowed ? "FAIL" : "ok", name, bad, (long)w * h, allowed);
		if (bad > allowed) {
			failures++;
			snprintf(path, sizeof(path), "%s.actual.png", name);
			kf_render_write_png(path, px, w, h, w * 4);
			printf("  actual image written to %s\n", path);
		}
	}
	free(g);
	free(px);
}

static void run_set(const char *dir, const char *prefix, struct kf_render *r, int tolerance)
{
	char name[256];
	struct screen *s;
	s = screen_sgr();
	snprintf(name, sizeof(name), "%s-sgr", prefix);
	compare(dir, name, r, s, tolerance);
	kf_render_set_blink(r, false); /* the blink cell hides its text in the off phase */
	snprintf(name, sizeof(name), "%s-sgr-blinkoff", prefix);
	compare(dir, name, r, s, tolerance);
	kf_render_set_blink(r, true);
	screen_destroy(s);
	s = screen_box();
	snprintf(name, sizeof(name), "%s-box", prefix);
	compare(dir, name, r, s, tolerance);
	screen_destroy(s);
	s = screen_wide_text();
	snprintf(name, sizeof(name), "%s-wide", prefix);
	compare(dir, name, r, s, tolerance);
	screen_destroy(s);
	static const char *const shapes[] = {"block", "underline", "bar"};
	for (int i = 0; i < 3; i++) {
		s = screen_cursor((enum grid_cursor_shape)i);
		if (i == 0)
			kf_render_set_pointer(r, true, 70, 20);
		snprintf(name, sizeof(name), "%s-cursor-%s", prefix, shapes[i]);
		compare(dir, name, r, s, tolerance);
		kf_render_set_pointer(r, false, 0, 0);
		screen_destroy(s);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
		return 2;
	}
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	if (kf_render_create(&cfg, &r)) {
		printf("FAIL: built-in font\n");
		return 1;
	}
	run_set(argv[1], "builtin", r, 0);
	/* zoom: integer scaling of the bitmap font, box drawing still joined */
	kf_render_set_scale(r, 2);
	struct screen *s = screen_box();
	compare(argv[1], "builtin-box-x2", r, s, 0);
	screen_destroy(s);
	kf_render_destroy(r);

	/* a Debian console font through the PSF engine (console-setup-linux), pixel for pixel */
	cfg = (struct kf_render_config){.engine = KF_RENDER_ENGINE_PSF,
					.font_file =
					    "/usr/share/consolefonts/Lat2-Terminus16.psf.gz"};
	if (kf_render_create(&cfg, &r)) {
		printf("FAIL: Lat2-Terminus16.psf.gz (console-setup-linux installed?)\n");
		return 1;
	}
	s = screen_sgr();
	compare(argv[1], "psf-terminus-sgr", r, s, 0);
	screen_destroy(s);
	kf_render_destroy(r);

	cfg = (struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 16};
	if (kf_render_create(&cfg, &r) || kf_render_get_engine(r) != KF_RENDER_ENGINE_FREETYPE) {
		printf(
		    "FAIL: DejaVu Sans Mono through fontconfig (fonts-dejavu-core installed?)\n");
		return 1;
	}
	run_set(argv[1], "dejavu", r, 1);
	kf_render_destroy(r);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
