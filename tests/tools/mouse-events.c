/* tests/tools/mouse-events.c: the input glue's mouse reports for a script of pointer events, for
 * tests/tools/xterm-mouse.py (a developer tool: built, not installed, not a test).
 *
 * The events go through the real input/ module (input_inject_key, input_inject_pointer) into the real
 * kmscon-felis/input-glue.c and its grid, as libinput's would on a console; what the glue writes to the child
 * is printed. One command per line on stdin:
 *   INIT cols rows cell_w cell_h   a new grid and glue (the screen is exactly the text area)
 *   FEED hex                       bytes for the grid (the modes of a case)
 *   AT x y                         the pointer to pixel (x, y), as an absolute device puts it
 *   KEY shift|alt|ctrl 1|0         a modifier pressed or released
 *   BTN n 1|0                      X button n (1 left, 2 middle, 3 right, 8/9 back/forward) pressed or released
 *   WHEEL v h                      wheel steps (v > 0 down, h > 0 right)
 *   OUT                            prints the bytes written since the last OUT, as hex ("-" for none)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
/* the tests' application standing in for the console: its grid, and what the glue writes (app.out) */
#include "tests/kmscon-felis/glue-harness.h"

static uint32_t modifier_key(const char *name)
{
	if (!strcmp(name, "shift"))
		return KEY_LEFTSHIFT;
	if (!strcmp(name, "alt"))
		return KEY_LEFTALT;
	if (!strcmp(name, "ctrl"))
		return KEY_LEFTCTRL;
	return 0;
}

static uint32_t button_code(int n)
{
	/* X's numbers of the evdev buttons (xf86-input-evdev, libinput): 8 and 9 back and forward as the side
	 * and extra buttons, 10 and 11 forward and back */
	static const uint32_t codes[] = {0,	   BTN_LEFT, BTN_MIDDLE, BTN_RIGHT,   0,       0, 0,
					 0,	   BTN_SIDE, BTN_EXTRA,	 BTN_FORWARD, BTN_BACK};
	return n > 0 && n < (int)(sizeof(codes) / sizeof(codes[0])) ? codes[n] : 0;
}

static void feed_hex(struct grid *g, const char *hex)
{
	unsigned char buf[4096];
	size_t n = 0;
	unsigned v;

	while (n < sizeof(buf) && sscanf(hex, "%2x", &v) == 1) {
		buf[n++] = (unsigned char)v;
		hex += 2;
	}
	grid_feed(g, buf, n);
}

int main(void)
{
	char dir[] = "/tmp/kf-mouse-events-XXXXXX";
	struct kf_loop *loop = kf_loop_create();
	struct kf_input_glue *g = NULL;
	struct kf_config cfg;
	struct app a = {0};
	char line[16384], word[32], arg[16000];
	int w = 0, h = 0, x, y, n, on;
	uint64_t t = 1000000;

	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", dir, 1);
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	kf_config_init(&cfg);
	while (fgets(line, sizeof(line), stdin)) {
		struct input *in = g ? kf_input_glue_input(g) : NULL;

		t += 1000;
		if (sscanf(line, "%31s", word) != 1)
			continue;
		if (!strcmp(word, "INIT")) {
			int cols, rows, cw, ch;
			if (sscanf(line, "INIT %d %d %d %d", &cols, &rows, &cw, &ch) != 4)
				return 2;
			kf_input_glue_destroy(g);
			grid_destroy(a.grid);
			struct grid_config gc = {.cols = cols, .rows = rows, .scrollback = 100};
			a.grid = grid_create(&gc, NULL, NULL);
			if (!a.grid || kf_input_glue_create(loop, &cfg, &ops, &a, &g) < 0)
				return 1;
			w = cols * cw;
			h = rows * ch;
			kf_input_glue_set_geometry(g, w, h, cw, ch);
			a.n_out = 0;
		} else if (!in) {
			return 2;
		} else if (!strcmp(word, "FEED") && sscanf(line, "FEED %15999s", arg) == 1) {
			feed_hex(a.grid, arg);
		} else if (!strcmp(word, "AT") && sscanf(line, "AT %d %d", &x, &y) == 2) {
			/* the centre of pixel (x, y) on a device whose range is the screen */
			struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .time_usec = t,
							  .x = (x + 0.5) / w, .y = (y + 0.5) / h};
			input_inject_pointer(in, &pe);
		} else if (!strcmp(word, "KEY") && sscanf(line, "KEY %31s %d", arg, &on) == 2) {
			input_inject_key(in, modifier_key(arg), on, t);
		} else if (!strcmp(word, "BTN") && sscanf(line, "BTN %d %d", &n, &on) == 2) {
			struct input_pointer_event pe = {.type = INPUT_POINTER_BUTTON, .time_usec = t,
							  .button = button_code(n), .pressed = on};
			input_inject_pointer(in, &pe);
		} else if (!strcmp(word, "WHEEL") && sscanf(line, "WHEEL %d %d", &x, &y) == 2) {
			struct input_pointer_event pe = {.type = INPUT_POINTER_SCROLL, .time_usec = t, .steps_v = x,
							  .steps_h = y};
			input_inject_pointer(in, &pe);
		} else if (!strcmp(word, "OUT")) {
			if (!a.n_out)
				printf("-");
			for (size_t i = 0; i < a.n_out; i++)
				printf("%02x", (unsigned char)a.out[i]);
			printf("\n");
			fflush(stdout);
			a.n_out = 0;
		} else {
			fprintf(stderr, "mouse-events: bad line: %s", line);
			return 2;
		}
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	/* the clipboard's folder (a middle click pastes from it) */
	snprintf(line, sizeof(line), "rm -rf %s", dir);
	return system(line) ? 1 : 0;
}
