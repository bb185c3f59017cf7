/* tests/kmscon-felis/test-input-buttons.c: mouse reports tools/coverage found no test reaching (docs/coverage.md):
 * the forward and back buttons, the pointer held on the screen by relative motion past its edges, and the strip
 * past the last whole cell (the UTF-8 encoding past column 223: test-input-reports.c's test_far_motion); and
 * (session 54) the grab-session-next/prev shortcuts and a paste of an empty clipboard. The real input/ module
 * and input glue, as in test-input-glue.c. */
#include <stdbool.h>

static int failures;
#include "glue-harness.h"

static void rel(struct input *in, double dx, double dy)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION, .dx = dx, .dy = dy};
	input_inject_pointer(in, &pe);
}

/* X's buttons 10 and 11 (BTN_FORWARD, BTN_BACK) are xterm's 10 and 11, codes 130 and 131 (ctlseqs: "buttons 8
 * through 11 ... 128 added"); 130 measured in xterm 379 with tests/tools/xterm-mouse.py (*-click10, 16 cases
 * alike; Xvfb's pointer has no button 11) */
static void test_forward_back(struct app *a, struct input *in)
{
	feed(a, "\033[?1000h\033[?1006h");
	click(in, BTN_FORWARD, 2, 1, 10000000);
	CHECK(sent(a, "\033[<130;3;2M\033[<130;3;2m"), "forward button");
	click(in, BTN_BACK, 2, 1, 11000000);
	CHECK(sent(a, "\033[<131;3;2M\033[<131;3;2m"), "back button");
	feed(a, "\033[?1006l");
	click(in, BTN_FORWARD, 2, 1, 12000000);
	CHECK(sent(a, "\033[M\242#\"\033[M##\""), "forward button, default encoding");
	feed(a, "\033[?1000l");
}

/* Relative motion (a mouse, a touchpad) stops at the screen's edges: the pointer pushed far past the left and top
 * edges is on the first cell, and one cell's motion back takes it to the second (had it gone on past the edge,
 * the way back would be as long). Past the right and bottom edges it is on the last cell. */
static void test_relative_edges(struct app *a, struct input *in)
{
	feed(a, "\033[?1000h\033[?1006h");
	point(in, 5, 5);
	rel(in, -5000, -5000);
	button(in, BTN_LEFT, true, 30000000);
	button(in, BTN_LEFT, false, 30001000);
	CHECK(sent(a, "\033[<0;1;1M\033[<0;1;1m"), "past the top left corner");
	rel(in, 10, 20);
	button(in, BTN_LEFT, true, 31000000);
	button(in, BTN_LEFT, false, 31001000);
	CHECK(sent(a, "\033[<0;2;2M\033[<0;2;2m"), "one cell back from the corner");
	rel(in, 5000, 5000);
	button(in, BTN_LEFT, true, 32000000);
	button(in, BTN_LEFT, false, 32001000);
	CHECK(sent(a, "\033[<0;80;24M\033[<0;80;24m"), "past the bottom right corner");
	feed(a, "\033[?1000l\033[?1006l");
}

/* The cells' area shrinks under the pointer (a smaller mode at a hotplug, a zoom, a turn): the pointer comes back onto
 * it at once, drawn there, and the next move starts from there. It stayed where it was, drawn off the cells (off
 * the screen after a smaller mode) until a move, and a move back of less than the lost area did not move it. */
static void test_shrink_under_pointer(struct app *a, struct input *in, struct kf_input_glue *g)
{
	point(in, 79, 23);
	CHECK(a->pointer_visible && a->pointer_x == 795 && a->pointer_y == 470, "pointer at %d,%d", a->pointer_x,
	      a->pointer_y);
	CHECK(grid_resize(a->grid, 40, 12) == 0, "grid 40x12");
	kf_input_glue_set_geometry(g, 400, 240, 10, 20);
	CHECK(a->pointer_visible && a->pointer_x == 399 && a->pointer_y == 239,
	      "after the shrink, drawn on the last pixel of the cells: %d,%d", a->pointer_x, a->pointer_y);
	feed(a, "\033[?1000h\033[?1006h");
	rel(in, -10, -20);
	button(in, BTN_LEFT, true, 50000000);
	button(in, BTN_LEFT, false, 50001000);
	CHECK(sent(a, "\033[<0;39;11M\033[<0;39;11m"), "a cell up and left of the corner after the shrink");
	feed(a, "\033[?1000l\033[?1006l");
	CHECK(grid_resize(a->grid, 80, 24) == 0, "grid 80x24 again");
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
}

/* A screen whose width and height are no whole number of cells (805x485 pixels, 80x24 cells of 10x20): the strip
 * past the last cell is the last cell, as in SGR-Pixels the last pixel of the cells. */
static void test_partial_cell_strip(struct app *a, struct input *in, struct kf_input_glue *g)
{
	kf_input_glue_set_geometry(g, 805, 485, 10, 20);
	feed(a, "\033[?1000h\033[?1006h");
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = 1.0, .y = 1.0};
	input_inject_pointer(in, &pe);
	button(in, BTN_LEFT, true, 40000000);
	button(in, BTN_LEFT, false, 40001000);
	CHECK(sent(a, "\033[<0;80;24M\033[<0;80;24m"), "the strip past the last cell");
	feed(a, "\033[?1016h");
	button(in, BTN_LEFT, true, 41000000);
	button(in, BTN_LEFT, false, 41001000);
	CHECK(sent(a, "\033[<0;800;480M\033[<0;800;480m"), "SGR-Pixels: the cells' last pixel");
	feed(a, "\033[?1016l\033[?1000l\033[?1006l");
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
}

/* With an application taking the mouse, Shift only takes the pointer back for the console, as in xterm (its
 * Shift+Btn1Down is select-start whatever the mouse mode), foot and kitty: a Shift+drag starts a new selection,
 * and extending is the right button's (Shift+right click). A second Shift+drag moved the end of the first
 * selection and copied both words and all between them ("hello world" where "world" was dragged over). */
static void test_shift_drag_new(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world\033[?1002h\033[?1006h");
	a->n_out = 0;
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	point(in, 0, 0);
	button(in, BTN_LEFT, true, 50000000);
	point(in, 4, 0);
	button(in, BTN_LEFT, false, 50100000);
	CHECK(!strcmp(clipboard(), "hello"), "first Shift+drag: '%s'", clipboard());
	point(in, 6, 0);
	button(in, BTN_LEFT, true, 51000000);
	point(in, 10, 0);
	button(in, BTN_LEFT, false, 51100000);
	CHECK(!strcmp(clipboard(), "world"), "a second Shift+drag selects anew: '%s'", clipboard());
	click(in, BTN_RIGHT, 0, 0, 52000000);
	CHECK(!strcmp(clipboard(), "hello world"), "Shift+right click extends: '%s'", clipboard());
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(sent(a, ""), "none of it is reported");
	feed(a, "\033[?1002l\033[?1006l");
}

/* The converse of test-input-glue.c's test_shift_drag_kept: a drag whose press the application had stays the
 * application's to its release, Shift pressed during it or not. Shift took the motion and the release for the
 * console (as xterm 379 does), which had nothing to do with them, and the application was left holding the
 * button until its next press. */
static void test_app_drag_kept(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world\033[?1002h\033[?1006h");
	kf_clipboard_set("kept", 4);
	a->n_out = 0;
	point(in, 0, 0);
	button(in, BTN_LEFT, true, 60000000);
	CHECK(sent(a, "\033[<0;1;1M"), "the press is reported");
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	point(in, 2, 0);
	button(in, BTN_LEFT, false, 60100000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(sent(a, "\033[<36;3;1M\033[<4;3;1m"), "the drag and its release with Shift are reported");
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "kept"), "nothing selected: '%s'", clipboard());
	/* once the button is up, Shift is the console's again */
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	point(in, 6, 0);
	button(in, BTN_LEFT, true, 61000000);
	point(in, 10, 0);
	button(in, BTN_LEFT, false, 61100000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(sent(a, "") && !strcmp(clipboard(), "world"), "then a Shift+drag selects: '%s'", clipboard());
	feed(a, "\033[?1002l\033[?1006l");
}

/* A drag starts on the line pressed, wherever output has scrolled it before the pointer left the pressed cell
 * (xterm's select-start anchors at the press, and its anchor scrolls with the text): the start was taken from
 * the pressed row when the drag began, on the line output had moved there ("line 2" pressed, a line of output,
 * and the copy began on "line 3"). */
static void test_press_then_output(struct app *a, struct input *in)
{
	char line[16];
	feed(a, "\033[H\033[2J");
	for (int i = 0; i < 24; i++) {
		snprintf(line, sizeof(line), "%sline %d", i ? "\r\n" : "", i);
		feed(a, line);
	}
	point(in, 0, 2);
	button(in, BTN_LEFT, true, 70000000);
	feed(a, "\r\nline 24");
	point(in, 5, 2);
	button(in, BTN_LEFT, false, 70100000);
	CHECK(!strcmp(clipboard(), "line 2\nline 3"), "press on line 2, output, drag: '%s'", clipboard());
	/* scrolled out of the view's top: the start stays on it, in the history */
	point(in, 0, 0);
	button(in, BTN_LEFT, true, 71000000);
	feed(a, "\r\nline 25\r\nline 26");
	point(in, 5, 1);
	button(in, BTN_LEFT, false, 71100000);
	CHECK(!strcmp(clipboard(), "line 1\nline 2\nline 3\nline 4"), "pressed line scrolled out: '%s'",
	      clipboard());
}

/* The VT in front as sysfs tells it (what the glue reads), 0 without VTs. */
static int front_vt(void)
{
	char buf[16] = {0};
	FILE *f = fopen("/sys/class/tty/tty0/active", "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return n > 3 && !strncmp(buf, "tty", 3) ? atoi(buf + 3) : 0;
}

static void ctrl_logo(struct input *in, uint32_t code)
{
	input_inject_key(in, KEY_LEFTCTRL, true, 1);
	input_inject_key(in, KEY_LEFTMETA, true, 1);
	key(in, code);
	input_inject_key(in, KEY_LEFTMETA, false, 1);
	input_inject_key(in, KEY_LEFTCTRL, false, 1);
}

/* grab-session-next and grab-session-prev (man kmscon-felis.conf: Ctrl+Logo+Right and Left by default) switch to
 * the VT after and before the one in front, within the kernel's 1..63, and send nothing to the program; a paste
 * (Shift+Insert) of an empty clipboard pastes nothing. */
static void test_session_grabs(struct app *a, struct input *in)
{
	const int vt = front_vt();
	a->vt = -1;
	a->n_out = 0;
	ctrl_logo(in, KEY_RIGHT);
	CHECK(a->vt == (vt < 63 ? vt + 1 : -1) && a->n_out == 0, "Ctrl+Logo+Right from VT %d: VT %d, %zu bytes sent",
	      vt, a->vt, a->n_out);
	a->vt = -1;
	ctrl_logo(in, KEY_LEFT);
	CHECK(a->vt == (vt > 1 ? vt - 1 : -1) && a->n_out == 0, "Ctrl+Logo+Left from VT %d: VT %d, %zu bytes sent",
	      vt, a->vt, a->n_out);
	CHECK(kf_clipboard_set("", 0) == 0, "empty clipboard");
	strcpy(a->pasted, "-");
	with(in, KEY_LEFTSHIFT, KEY_INSERT);
	CHECK(!strcmp(a->pasted, "-") && a->n_out == 0, "Shift+Insert with an empty clipboard: pasted '%s', sent %zu",
	      a->pasted, a->n_out);
}

int main(void)
{
	char dir[] = "/tmp/kf-buttons-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 100};
	struct kf_input_glue *g = glue_setup(loop, dir, &cfg, &a, &gc);
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);
	test_forward_back(&a, in);
	test_relative_edges(&a, in);
	test_partial_cell_strip(&a, in, g);
	test_shrink_under_pointer(&a, in, g);
	test_shift_drag_new(&a, in);
	test_app_drag_kept(&a, in);
	test_press_then_output(&a, in);
	test_session_grabs(&a, in);
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input buttons");
}
