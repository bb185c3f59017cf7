/* tests/kmscon-felis/test-input-rotate.c: the pointer on a turned display (rotate=right|inverted|left) and the
 * rotation shortcuts.
 *
 * The picture is turned to stand upright for whoever looks at the panel as it is mounted, so:
 *  - a device mapped onto the panel (a touchscreen, a tablet, QEMU's tablet) gives positions across the panel
 *    as mounted: they are turned into the picture's, and a press lands on the cell drawn under it;
 *  - relative motion (a mouse on the desk) moves the pointer as the user sees the picture: to the right is to
 *    the right of the upright text, whatever the panel's mounting (as X and Wayland compositors do).
 * The app stands in for the console: 80x24 cells of 10x20 pixels, an 800x480 picture, shown on a panel of 480x800
 * turned right or left, 800x480 inverted. */
#include "kmscon-felis/mouse.h"

static int failures;

#include "glue-harness.h"

static int rotation, rotated;

static int op_rotation(void *ud)
{
	return rotation;
}

static void op_rotate(void *ud, int step)
{
	rotated += step;
}

/* A press of the left button where the panel (as mounted, pw x ph pixels) is touched at (px, py). */
static void touch(struct input *in, int px, int py, int pw, int ph, uint64_t t)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = (px + 0.5) / pw,
					  .y = (py + 0.5) / ph};

	input_inject_pointer(in, &pe);
	button(in, BTN_LEFT, true, t);
	button(in, BTN_LEFT, false, t + 1000);
}

/* Points of the panel as mounted (u, v) and where the turned picture shows there (x, y). */
static void test_unrotate(void)
{
	static const struct {
		int rot;
		double u, v, x, y;
		const char *what;
	} cases[] = {
		{0, 0.25, 0.75, 0.25, 0.75, "normal"},
		{1, 1.0, 0.0, 0.0, 0.0, "right: the panel's top-right shows the picture's top-left"},
		{1, 0.25, 0.75, 0.75, 0.75, "right"},
		{2, 0.25, 0.75, 0.75, 0.25, "inverted"},
		{3, 0.0, 1.0, 0.0, 0.0, "left: the panel's bottom-left shows the picture's top-left"},
		{3, 0.25, 0.75, 0.25, 0.25, "left"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double x, y;

		kf_pointer_unrotate(cases[i].rot, cases[i].u, cases[i].v, &x, &y);
		CHECK(x == cases[i].x && y == cases[i].y, "%s: %g %g", cases[i].what, x, y);
	}
}

static int picture_w, picture_h;

static void op_picture_size(void *ud, int *width, int *height)
{
	*width = picture_w;
	*height = picture_h;
}

/* A picture the cells do not fill (809x499 pixels, 80x24 cells of 10x20: a strip of 9 pixels right of them and
 * 19 below): a touch spans the picture, not the cells, and lands on the cell drawn under it. Scaled to the
 * cells' 800x480, a touch on the last row's middle landed on the row above (the error grows towards the far
 * edges, up to the strip's width). The strip itself is the last cell, as the pointer stays on the cells. */
static void test_picture_larger(struct app *a, struct input *in)
{
	static const struct {
		int rot, px, py, pw, ph;
		const char *want;
	} cases[] = {
		{0, 795, 470, 809, 499, "\033[<0;80;24M\033[<0;80;24m"},
		{1, 498 - 470, 795, 499, 809, "\033[<0;80;24M\033[<0;80;24m"},
		{0, 805, 495, 809, 499, "\033[<0;80;24M\033[<0;80;24m"},
		{0, 405, 245, 809, 499, "\033[<0;41;13M\033[<0;41;13m"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rotation = cases[i].rot;
		picture_w = cases[i].rot & 1 ? cases[i].ph : cases[i].pw;
		picture_h = cases[i].rot & 1 ? cases[i].pw : cases[i].ph;
		touch(in, cases[i].px, cases[i].py, cases[i].pw, cases[i].ph, 20000000u + 1000000u * (uint64_t)i);
		CHECK(sent(a, cases[i].want), "picture %dx%d, rotation %d: touched at %d,%d", picture_w, picture_h,
		      cases[i].rot, cases[i].px, cases[i].py);
	}
	rotation = 0;
	picture_w = picture_h = 0;
}

int main(void)
{
	char dir[] = "/tmp/kf-rot-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 100};
	struct kf_input_glue_ops o = ops;
	struct kf_input_glue *g = NULL;
	char want[64];

	test_unrotate();
	o.rotation = op_rotation;
	o.rotate = op_rotate;
	o.picture_size = op_picture_size;
	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", dir, 1);
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(a.grid && kf_input_glue_create(loop, &cfg, &o, &a, &g) == 0, "create");
	if (!g)
		return 1;
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
	struct input *in = kf_input_glue_input(g);
	feed(&a, "\033[?1000h\033[?1006h");

	/* Picture pixel (x, y) = (235, 130), cell 23,6, as each rotation shows it on the panel. */
	static const struct {
		int rot, px, py, pw, ph;
	} cases[] = {
		{0, 235, 130, 800, 480},
		{1, 479 - 130, 235, 480, 800}, /* right: (x, y) on the panel at (pw - 1 - y, x) */
		{2, 799 - 235, 479 - 130, 800, 480},
		{3, 130, 799 - 235, 480, 800}, /* left: at (y, ph - 1 - x) */
	};
	for (int i = 0; i < 4; i++) {
		rotation = cases[i].rot;
		touch(in, cases[i].px, cases[i].py, cases[i].pw, cases[i].ph, 1000000u * (uint64_t)(i + 1));
		snprintf(want, sizeof(want), "\033[<0;24;7M\033[<0;24;7m");
		CHECK(sent(&a, want), "rotation %d: the press lands on cell 23,6", cases[i].rot);
	}

	/* Relative motion on a turned display: right is right of the upright picture. */
	rotation = 1;
	touch(in, 479 - 130, 235, 480, 800, 9000000);
	a.n_out = 0;
	struct input_pointer_event m = {.type = INPUT_POINTER_MOTION, .dx = 30, .dy = 40};
	input_inject_pointer(in, &m);
	button(in, BTN_LEFT, true, 9500000);
	CHECK(sent(&a, "\033[<0;27;9M"), "relative motion: 3 cells right, 2 down");
	button(in, BTN_LEFT, false, 9600000);
	a.n_out = 0;

	test_picture_larger(&a, in);

	/* The shortcuts, kmscon's defaults: <Logo>plus (<Logo>equal on a US keyboard) and <Logo>minus. */
	with(in, KEY_LEFTMETA, KEY_EQUAL);
	CHECK(rotated == 1 && a.n_out == 0, "Logo+= turns clockwise: %d", rotated);
	with(in, KEY_LEFTMETA, KEY_MINUS);
	with(in, KEY_LEFTMETA, KEY_MINUS);
	CHECK(rotated == -1 && a.n_out == 0, "Logo+- turns counter-clockwise: %d", rotated);

	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input-rotate");
}
