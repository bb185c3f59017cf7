/* tests/kmscon-felis/test-input-reports.c: mouse reports through the input glue with a real grid and the real
 * input/ module, as in test-input-glue.c (out of it for its length): the encodings (default, UTF-8, SGR,
 * SGR-Pixels) and modes (1000, 1002, 1003), the Shift bypass, the wheel reported or sent as arrows with DECSET
 * 1007, the columns past 223, drags with extra buttons, and a press that stays ours when reporting begins.
 * More reports tools/coverage found unreached: test-input-buttons.c. */
#include <stdlib.h>
#include <string.h>

static int failures;

#include "glue-harness.h"

static void test_mouse_reports(struct app *a, struct input *in)
{
	feed(a, "\033[?1000h\033[?1006h");
	click(in, BTN_LEFT, 2, 1, 30000000);
	CHECK(sent(a, "\033[<0;3;2M\033[<0;3;2m"), "SGR press and release");
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_LEFT, 2, 1, 31000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(a->n_out == 0, "Shift bypasses reporting");
	wheel(in, 1);
	CHECK(sent(a, "\033[<65;3;2M"), "wheel down reported");
	/* Horizontal wheel (tilt wheel, two-finger touchpad scroll): xterm's buttons 6 and 7, codes 66 and 67. */
	hwheel(in, -1);
	CHECK(sent(a, "\033[<66;3;2M"), "wheel left reported");
	hwheel(in, 2);
	CHECK(sent(a, "\033[<67;3;2M\033[<67;3;2M"), "wheel right reported, once per step");
	feed(a, "\033[?1002h");
	point(in, 2, 1);
	button(in, BTN_LEFT, true, 32000000);
	point(in, 3, 1);
	button(in, BTN_LEFT, false, 32100000);
	CHECK(sent(a, "\033[<0;3;2M\033[<32;4;2M\033[<0;4;2m"), "1002 drag");
	/* a double-width row (ESC # 6): the display column, as xterm 379 reports it (xterm-mouse.py dbl-) */
	feed(a, "\033[2;1H\033#6");
	click(in, BTN_LEFT, 5, 1, 32200000);
	CHECK(sent(a, "\033[<0;6;2M\033[<0;6;2m"), "display column on a double-width row");
	feed(a, "\033#5");
	feed(a, "\033[?1002l\033[?1006l\033[?1000l");
	click(in, BTN_LEFT, 0, 0, 40000000);
	CHECK(a->n_out == 0, "reporting off again");
	/* The alternate screen with DECSET 1007: the wheel sends cursor keys. */
	feed(a, "\033[?1049h\033[?1007h");
	wheel(in, -1);
	CHECK(sent(a, "\033[A\033[A\033[A"), "wheel up on the alternate screen");
	feed(a, "\033[?1h");
	wheel(in, 1);
	CHECK(sent(a, "\033OB\033OB\033OB"), "honours DECCKM");
	feed(a, "\033[?1007l");
	wheel(in, 1);
	CHECK(a->n_out == 0, "without 1007 nothing is sent");
	feed(a, "\033[?1049l");
}

/* SGR-Pixels (DECSET 1016, xterm ctlseqs "SGR-Pixels"): the SGR report with the pointer's pixel on the text area
 * (1-based, as xterm's EmitMousePosition sends it) instead of its cell, and motion reported at every pixel that
 * changes. The mode was unknown: an application that asked for it (after 1006, as termenv and notcurses do) read
 * the cell numbers as pixels and put every click in the top-left corner. */
static void test_sgr_pixels(struct app *a, struct input *in)
{
	struct input_pointer_event nudge = {.type = INPUT_POINTER_MOTION, .dx = 1};

	feed(a, "\033[?1002h\033[?1006h\033[?1016h");
	a->n_out = 0;
	point(in, 2, 1);
	button(in, BTN_LEFT, true, 120000000);
	input_inject_pointer(in, &nudge);
	button(in, BTN_LEFT, false, 120100000);
	CHECK(sent(a, "\033[<0;26;31M\033[<32;27;31M\033[<0;27;31m"), "press, a pixel's drag, release in pixels");
	wheel(in, -1);
	CHECK(sent(a, "\033[<64;27;31M"), "the wheel in pixels");
	/* a reset of 1016 ends it alone: the cells are back, in the default encoding, as in xterm */
	feed(a, "\033[?1016l");
	click(in, BTN_LEFT, 2, 1, 121000000);
	CHECK(sent(a, "\033[M #\"\033[M##\""), "1016 reset: the default encoding");
	feed(a, "\033[?1002l\033[?1006l");
	a->n_out = 0;
}

/* Motion the mode does not report (no button held in 1000 or 1002) is not the last report: an application that
 * then asks for any-event tracking (1003, as for hover) hears of the pointer's next move even inside the same
 * cell, as xterm tells it (EditorButton keeps the cell of the last report sent; tests/tools/xterm-mouse.py,
 * far-1003-*-motion). It heard nothing until the pointer left the cell. */
static void test_unreported_motion(struct app *a, struct input *in)
{
	struct input_pointer_event nudge = {.type = INPUT_POINTER_MOTION, .dx = 1};

	feed(a, "\033[?1002h\033[?1006h");
	point(in, 5, 1);
	point(in, 6, 2);
	CHECK(sent(a, ""), "no motion without a button in 1002");
	feed(a, "\033[?1003h");
	input_inject_pointer(in, &nudge);
	CHECK(sent(a, "\033[<35;7;3M"), "1003: the first move, inside the cell");
	input_inject_pointer(in, &nudge);
	CHECK(sent(a, ""), "then no repeat inside the cell");
	feed(a, "\033[?1003l\033[?1006l");
}

/* Past column 223 the default encoding sends every cell as the same past-end marker (a 0 byte): a drag there is
 * one place, reported once, as in xterm (its EditorButton clamps to MouseLimit before it compares with the last
 * report; tests/tools/xterm-mouse.py, far-1002-def-drag). Every cell crossed sent the same report again. In
 * SGR the cells are told apart, and each is reported. */
/* The pointer at the centre of cell (col, 1) of a 3000x480 screen. */
static void point_far(struct input *in, int col)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = (col * 10 + 5) / 3000.0,
					  .y = 30 / 480.0};
	input_inject_pointer(in, &pe);
}

static void test_far_motion(struct app *a, struct input *in, struct kf_input_glue *g)
{
	static const char want[] = "\033[M \376\"\033[M@\377\"\033[M@\0\"\033[M#\0\"";
	static const int cols[] = {222, 223, 224, 250, 299};
	struct grid_config gc = {.cols = 300, .rows = 24, .scrollback = 10};
	struct grid *saved = a->grid;

	a->grid = grid_create(&gc, NULL, NULL);
	kf_input_glue_set_geometry(g, 3000, 480, 10, 20);
	feed(a, "\033[?1002h");
	point_far(in, 221);
	button(in, BTN_LEFT, true, 130000000);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		point_far(in, cols[i]);
	button(in, BTN_LEFT, false, 130100000);
	CHECK(a->n_out == sizeof(want) - 1 && !memcmp(a->out, want, a->n_out),
	      "a drag past column 223: each place once (%zu bytes, %zu wanted)", a->n_out, sizeof(want) - 1);
	a->n_out = 0;
	feed(a, "\033[?1006h");
	button(in, BTN_LEFT, true, 131000000);
	point_far(in, 250);
	button(in, BTN_LEFT, false, 131100000);
	CHECK(sent(a, "\033[<0;300;2M\033[<32;251;2M\033[<0;251;2m"), "SGR: each cell");
	/* UTF-8 (1005): 32 + the column as a character, as xterm 379 sends it (far-1002-1005-drag) */
	feed(a, "\033[?1006l\033[?1005h");
	point_far(in, 221);
	button(in, BTN_LEFT, true, 132000000);
	point_far(in, 299);
	button(in, BTN_LEFT, false, 132100000);
	CHECK(sent(a, "\033[M \xc3\xbe\"\033[M@\xc5\x8c\"\033[M#\xc5\x8c\""), "1005 past column 223");
	feed(a, "\033[?1002l\033[?1005l");
	grid_destroy(a->grid);
	a->grid = saved;
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
}

/* A drag with an extra button (back, forward: codes 128 and 129) is button motion like any other, as in xterm
 * (EditorButton keeps every button pressed in mouse_button; tests/tools/xterm-mouse.py, *-drag8): 1002 sent
 * no motion at all, and 1003 sent it as motion with no button held. */
static void test_extra_button_drag(struct app *a, struct input *in)
{
	feed(a, "\033[?1002h\033[?1006h");
	point(in, 2, 1);
	button(in, BTN_SIDE, true, 140000000);
	point(in, 3, 1);
	button(in, BTN_SIDE, false, 140100000);
	CHECK(sent(a, "\033[<128;3;2M\033[<160;4;2M\033[<128;4;2m"), "1002: a drag with the back button");
	feed(a, "\033[?1003h");
	button(in, BTN_LEFT, true, 141000000);
	button(in, BTN_EXTRA, true, 141100000);
	point(in, 4, 1);
	button(in, BTN_LEFT, false, 141200000);
	point(in, 5, 1);
	button(in, BTN_EXTRA, false, 141300000);
	CHECK(sent(a, "\033[<0;4;2M\033[<129;4;2M\033[<32;5;2M\033[<0;5;2m\033[<161;6;2M\033[<129;6;2m"),
	      "1003: the lowest button held");
	feed(a, "\033[?1003l\033[?1006l");
}

/* A right-button press that was ours (no mouse mode yet: xterm's start-extend) keeps its release ours when the
 * application turns reporting on in between, as the left button's does: xterm sends nothing for it
 * (tests/tools/xterm-mouse.py, switch-1000-on-before-release3). The application got the release of a press it
 * never saw. The middle and extra buttons' releases are reported, as in xterm. */
static void test_right_release_kept(struct app *a, struct input *in)
{
	grid_select_clear(a->grid); /* nothing to extend: the press is ours all the same */
	feed(a, "\033[?1006h");
	point(in, 2, 1);
	button(in, BTN_RIGHT, true, 150000000);
	feed(a, "\033[?1000h");
	button(in, BTN_RIGHT, false, 150100000);
	CHECK(sent(a, ""), "the right button's release after reporting began");
	click(in, BTN_RIGHT, 2, 1, 151000000);
	CHECK(sent(a, "\033[<2;3;2M\033[<2;3;2m"), "then a right click is reported");
	feed(a, "\033[?1000l");
	button(in, BTN_SIDE, true, 152000000);
	feed(a, "\033[?1000h");
	button(in, BTN_SIDE, false, 152100000);
	CHECK(sent(a, "\033[<128;3;2m"), "the back button's release is reported");
	feed(a, "\033[?1000l\033[?1006l");
}

int main(void)
{
	char dir[] = "/tmp/kf-reports-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 1000};
	struct kf_input_glue *g = glue_setup(loop, dir, &cfg, &a, &gc);
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);
	test_mouse_reports(&a, in);
	test_sgr_pixels(&a, in);
	test_unreported_motion(&a, in);
	test_far_motion(&a, in, g);
	test_extra_button_drag(&a, in);
	test_right_release_kept(&a, in);
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input reports");
}
