/* tests/kmscon-felis/test-input-glue.c: the input glue with a real grid, real xkbcommon and the real
 * clipboard file: keys to PTY bytes under the application's modes, the grabs (scrollback, zoom, VT, paste),
 * selection by mouse (drag, double and triple click, Shift+click), copy on select, middle-click paste, the
 * wheel in the scrollback. Mouse reports (and the wheel's arrows with DECSET 1007) are in
 * test-input-reports.c; the configured keymap, repeat and compose in test-input-config.c. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#include "glue-harness.h"

static void test_keys(struct app *a, struct input *in)
{
	key(in, KEY_L);
	key(in, KEY_S);
	key(in, KEY_ENTER);
	CHECK(sent(a, "ls\r"), "typing");
	CHECK(a->activity > 0, "input counts as activity (DPMS)");
	key(in, KEY_UP);
	CHECK(sent(a, "\033[A"), "Up");
	/* Modes the application sets (fed to the grid first) and what a key sends under them. */
	static const struct {
		const char *mode;
		uint32_t code;
		const char *want, *what;
	} moded[] = {
		{"\033[?1h", KEY_UP, "\033OA", "Up with DECCKM set by the application"},
		{"\033[?1l\033[>1u", KEY_ESC, "\033[27u", "Escape with kitty flags pushed by the application"},
		{"\033[<u", KEY_ESC, "\033", "Escape after the pop"},
		{"", KEY_BACKSPACE, "\x7f", "Backspace is DEL by default"},
		{"\033[?67h", KEY_BACKSPACE, "\b", "Backspace is BS once the application sets DECBKM"},
		{"\033[?67l", KEY_BACKSPACE, "\x7f", "and DEL again after DECRST 67"},
	};
	for (size_t i = 0; i < sizeof(moded) / sizeof(moded[0]); i++) {
		feed(a, moded[i].mode);
		key(in, moded[i].code);
		CHECK(sent(a, moded[i].want), "%s", moded[i].what);
	}
	/* The number pad under an application that asked for kitty's disambiguation (fish 4, neovim): with
	 * NumLock on its digits and operators type themselves, as the main keys do; without it the keys are
	 * the keypad's own (kitty's "non text keypad keys"). */
	feed(a, "\033[>1u");
	key(in, KEY_NUMLOCK);
	key(in, KEY_KP1);
	key(in, KEY_KP0);
	key(in, KEY_KPPLUS);
	CHECK(sent(a, "10+"), "NumLock KP1 KP0 KP+ under kitty flag 1");
	key(in, KEY_NUMLOCK);
	key(in, KEY_KP1);
	CHECK(sent(a, "\033[57424u"), "KP1 (KP_End) without NumLock under kitty flag 1");
	feed(a, "\033[<u");
	/* Flags 1, 8 and 16: every key an escape code, with the text it types for the application to insert. */
	feed(a, "\033[>25u");
	key(in, KEY_NUMLOCK);
	a->n_out = 0;
	key(in, KEY_KP7);
	CHECK(sent(a, "\033[57406;129;55u"), "NumLock KP7 under kitty flags 1+8+16 carries its text");
	key(in, KEY_NUMLOCK);
	feed(a, "\033[<u");
	a->n_out = 0;
	with(in, KEY_LEFTCTRL, KEY_EQUAL);
	CHECK(a->zoom == 1 && a->n_out == 0, "Ctrl+= zooms in, sends nothing");
	with(in, KEY_LEFTCTRL, KEY_MINUS);
	CHECK(a->zoom == -1, "Ctrl+- zooms out");
	with(in, KEY_LEFTCTRL, KEY_0);
	CHECK(a->zoom == 99, "Ctrl+0 resets");
	input_inject_key(in, KEY_LEFTCTRL, true, 1);
	input_inject_key(in, KEY_LEFTALT, true, 1);
	key(in, KEY_F3);
	input_inject_key(in, KEY_LEFTALT, false, 1);
	input_inject_key(in, KEY_LEFTCTRL, false, 1);
	CHECK(a->vt == 3 && a->n_out == 0, "Ctrl+Alt+F3 switches VT (%d)", a->vt);
}

/* A page is the screen's height, as kmscon's grab-page-up scrolls (tsm_screen_sb_page_up: size_y lines), foot's
 * scrollback-up-page and xterm's scroll-back(1,page): it was a line less, the last line shown coming back at the
 * bottom of the next page. */
static void test_scrollback(struct app *a, struct input *in)
{
	char line[32];

	for (int i = 0; i < 100; i++) {
		snprintf(line, sizeof(line), "line %d\r\n", i);
		feed(a, line);
	}
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	CHECK(grid_view_offset(a->grid) == 24 && a->n_out == 0, "Shift+PgUp scrolls a page (24 rows) back: %d",
	      grid_view_offset(a->grid));
	with(in, KEY_LEFTSHIFT, KEY_UP);
	CHECK(grid_view_offset(a->grid) == 25, "Shift+Up one line more");
	with(in, KEY_LEFTSHIFT, KEY_DOWN);
	CHECK(grid_view_offset(a->grid) == 24, "Shift+Down one line less");
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	with(in, KEY_LEFTSHIFT, KEY_PAGEDOWN);
	CHECK(grid_view_offset(a->grid) == 24, "Shift+PgDown a page forward: %d", grid_view_offset(a->grid));
	key(in, KEY_X);
	CHECK(grid_view_offset(a->grid) == 0 && sent(a, "x"), "a key returns to the bottom and is sent");
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	CHECK(a->redraws > 0, "scrolling asks for a frame");
	wheel(in, -2);
	CHECK(grid_view_offset(a->grid) == 24 + 6, "wheel up 2 notches: 6 lines (%d)", grid_view_offset(a->grid));
	wheel(in, 1);
	CHECK(grid_view_offset(a->grid) == 24 + 3, "wheel down");
}

/* A key the terminal keeps is kept whole: with the kitty keyboard protocol's event types (flag 2), the release
 * of Shift+PageUp went to the application, which never had the press, and, being a key sent, took the view back
 * to the bottom at once: the scrollback could not be read under such an application. A Ctrl+Alt+Fn VT switch and
 * the zoom keys likewise. */
static void test_grab_release_kept(struct app *a, struct input *in)
{
	feed(a, "\033[>2u");
	a->n_out = 0;
	grid_view_scroll(a->grid, -1000);
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	CHECK(grid_view_offset(a->grid) == 24, "Shift+PgUp under kitty flag 2: the view stays back (%d)",
	      grid_view_offset(a->grid));
	CHECK(sent(a, ""), "nothing of Shift+PgUp is sent");
	with(in, KEY_LEFTCTRL, KEY_EQUAL);
	CHECK(sent(a, ""), "nothing of Ctrl+= is sent");
	/* a key held across the grab's press: its own release still goes */
	input_inject_key(in, KEY_A, true, 1);
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	input_inject_key(in, KEY_A, false, 2);
	CHECK(sent(a, "a"), "a key's press around a grab (plain text has no release under flag 2 alone)");
	/* PageUp held with Shift, then Shift let go: its repeats and release stay with the grab */
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	input_inject_key(in, KEY_PAGEUP, true, 1);
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	input_inject_key(in, KEY_PAGEUP, false, 3);
	CHECK(sent(a, ""), "a grabbed key's release after its modifier's");
	/* a key's release is its own again once it was pressed for the application */
	key(in, KEY_PAGEUP);
	CHECK(sent(a, "\033[5~\033[5;1:3~"), "PageUp alone, press and release");
	/* Up held for the application, then Shift: its repeats are Shift+Up, a scroll as in xterm, but its release
	 * is the application's, which had its press: the release was kept and the application saw Up held for good */
	grid_view_scroll(a->grid, -1000);
	input_inject_key(in, KEY_UP, true, 1000000);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1100000);
	input_timer_expired(in, 1300000);
	input_inject_key(in, KEY_UP, false, 1350000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1400000);
	CHECK(grid_view_offset(a->grid) == 1, "Up repeating with Shift added scrolls (%d)", grid_view_offset(a->grid));
	CHECK(sent(a, "\033[A\033[1;2:3A"), "and Up's release (Shift held) goes with its press");
	grid_view_scroll(a->grid, -1000);
	/* with flag 8 the modifiers alone are keys too: letting go of Shift leaves the view back */
	feed(a, "\033[=10u");
	grid_view_scroll(a->grid, -1000);
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	CHECK(grid_view_offset(a->grid) == 24, "kitty flags 2+8: the view stays back (%d)", grid_view_offset(a->grid));
	CHECK(sent(a, "\033[57441;2u\033[57441;1:3u"), "only Shift is sent");
	/* a key let go after the view went back is no typing (kitty and xterm scroll on a press): a fast typist's
	 * last letter, still down at Shift+PageUp, took the view back to the bottom as it came up */
	grid_view_scroll(a->grid, -1000);
	input_inject_key(in, KEY_A, true, 1);
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	input_inject_key(in, KEY_A, false, 4);
	CHECK(grid_view_offset(a->grid) == 24, "kitty flags 2+8: a release leaves the view back (%d)",
	      grid_view_offset(a->grid));
	CHECK(sent(a, "\033[97u\033[57441;2u\033[57441;1:3u\033[97;1:3u"), "the release is sent");
	feed(a, "\033[<u");
	a->n_out = 0;
	grid_view_scroll(a->grid, -1000);
}

static void test_selection(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world\r\nsecond line");
	/* Drag from (0,0) to (4,0): "hello", copied on release. */
	point(in, 0, 0);
	CHECK(a->pointer_visible, "moving the mouse shows the pointer");
	button(in, BTN_LEFT, true, 1000000);
	point(in, 4, 0);
	button(in, BTN_LEFT, false, 1100000);
	CHECK(!strcmp(clipboard(), "hello"), "drag copies: '%s'", clipboard());
	key(in, KEY_A);
	CHECK(!a->pointer_visible && sent(a, "a"), "typing hides the pointer");
	/* Double click on "world", triple click for the line. */
	click(in, BTN_LEFT, 8, 0, 5000000);
	click(in, BTN_LEFT, 8, 0, 5200000);
	CHECK(!strcmp(clipboard(), "world"), "double click: '%s'", clipboard());
	click(in, BTN_LEFT, 8, 0, 5400000);
	CHECK(!strcmp(clipboard(), "hello world\n"), "triple click: '%s'", clipboard());
	/* Shift+click extends a selection. */
	click(in, BTN_LEFT, 0, 0, 9000000);
	point(in, 2, 0);
	button(in, BTN_LEFT, true, 9100000);
	point(in, 4, 0);
	button(in, BTN_LEFT, false, 9200000);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_LEFT, 5, 1, 9900000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(!strcmp(clipboard(), "llo world\nsecond"), "Shift+click extends: '%s'", clipboard());
	/* Middle click and Shift+Insert paste the clipboard. */
	click(in, BTN_MIDDLE, 0, 0, 20000000);
	CHECK(!strcmp(a->pasted, "llo world\nsecond"), "middle click pastes: '%s'", a->pasted);
	kf_clipboard_set("from tty3", 9);
	with(in, KEY_LEFTSHIFT, KEY_INSERT);
	CHECK(!strcmp(a->pasted, "from tty3"), "Shift+Insert pastes what another instance copied");
	CHECK(a->n_out == 0, "pasting writes nothing by itself (the session wraps it)");
}

/* A click without a drag selects nothing and keeps the clipboard (xterm, foot): a single click marked the cell
 * under the pointer and copied its character over what was copied before, so the next middle click pasted one
 * letter. It clears the highlight of the last selection. A drag still selects from the cell pressed. */
static void test_plain_click(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world");
	kf_clipboard_set("kept", 4);
	click(in, BTN_LEFT, 1, 0, 50000000);
	CHECK(!grid_has_selection(a->grid), "a plain click selects nothing");
	CHECK(!strcmp(clipboard(), "kept"), "a plain click keeps the clipboard: '%s'", clipboard());
	point(in, 6, 0);
	button(in, BTN_LEFT, true, 51000000);
	point(in, 10, 0);
	button(in, BTN_LEFT, false, 51100000);
	CHECK(!strcmp(clipboard(), "world"), "drag: '%s'", clipboard());
	click(in, BTN_LEFT, 2, 0, 52000000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "world"),
	      "a click clears the highlight, the clipboard stays: '%s'", clipboard());
	/* A pointer moved inside the pressed cell is no drag either. */
	point(in, 3, 0);
	button(in, BTN_LEFT, true, 53000000);
	struct input_pointer_event nudge = {.type = INPUT_POINTER_MOTION, .dx = 2};
	input_inject_pointer(in, &nudge);
	button(in, BTN_LEFT, false, 53100000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "world"), "a nudge within the cell: '%s'",
	      clipboard());
}

/* Shift+click and right click move the end of the selection nearer to the pointer, as in xterm and foot: a
 * click before the start extends the start and keeps the end (it kept the anchor, the start, and dropped the
 * end: "llo" Shift+clicked at "h" gave "hel"). */
static void test_extend_before(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world");
	point(in, 2, 0);
	button(in, BTN_LEFT, true, 60000000);
	point(in, 4, 0);
	button(in, BTN_LEFT, false, 60100000);
	CHECK(!strcmp(clipboard(), "llo"), "drag: '%s'", clipboard());
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_LEFT, 0, 0, 61000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(!strcmp(clipboard(), "hello"), "Shift+click before the start: '%s'", clipboard());
	click(in, BTN_RIGHT, 10, 0, 62000000);
	CHECK(!strcmp(clipboard(), "hello world"), "right click after the end: '%s'", clipboard());
	click(in, BTN_RIGHT, 3, 0, 63000000);
	CHECK(!strcmp(clipboard(), "lo world"), "right click inside, nearer the start: '%s'", clipboard());
	click(in, BTN_RIGHT, 8, 0, 64000000);
	CHECK(!strcmp(clipboard(), "lo wor"), "right click inside, nearer the end: '%s'", clipboard());
	/* a right drag takes that end along to its release, as xterm's (Btn3Motion: select-extend); the end
	 * stayed where the press put it */
	point(in, 8, 0);
	button(in, BTN_RIGHT, true, 64500000);
	point(in, 10, 0);
	button(in, BTN_RIGHT, false, 64600000);
	CHECK(!strcmp(clipboard(), "lo world"), "right drag after the end: '%s'", clipboard());
	point(in, 0, 0);
	char *text = grid_selection_text(a->grid, NULL);
	CHECK(text && !strcmp(text, "lo world"), "released: the pointer moves it no more: '%s'", text ? text : "");
	free(text);
	/* A word selection extended before its start keeps whole words. */
	click(in, BTN_LEFT, 8, 0, 65000000);
	click(in, BTN_LEFT, 8, 0, 65200000);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_LEFT, 2, 0, 66000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	CHECK(!strcmp(clipboard(), "hello world"), "Shift+click before a word: '%s'", clipboard());
}

/* The pointer at pixel (x, y) of the 800x480 screen. */
static void point_px(struct input *in, int x, int y)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = x / 800.0, .y = y / 480.0};
	input_inject_pointer(in, &pe);
}

static void run_loop(struct kf_loop *loop, int ms)
{
	uint64_t end = kf_loop_now_ns() + (uint64_t)ms * 1000000u;
	while (kf_loop_now_ns() < end)
		kf_loop_dispatch(loop, 10);
}

/* A selection dragged against the top or bottom edge of the screen scrolls the view into the history and back
 * (as xterm and foot scroll when the pointer leaves the window: on a console the pointer stops at the edge), and
 * stops at either end; output arriving meanwhile does not pull the view from under the drag. The selection could
 * not be longer than a screen, and a drag in the history jumped to the bottom with the next output. */
static void test_drag_edges(struct app *a, struct input *in, struct kf_input_glue *g, struct kf_loop *loop)
{
	char line[32], *text;
	size_t len;

	feed(a, "\033[H\033[2J");
	for (int i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "%sedge %d", i ? "\r\n" : "", i);
		feed(a, line);
	}
	kf_input_glue_output(g);
	/* rows 0..23 show "edge 36".."edge 59": the drag starts at "edge 46" */
	point(in, 0, 10);
	button(in, BTN_LEFT, true, 70000000);
	point(in, 3, 5);
	point_px(in, 5, 0);
	run_loop(loop, 300);
	int off = grid_view_offset(a->grid);
	CHECK(off >= 3, "dragged against the top: the view scrolls back (%d lines)", off);
	feed(a, "\r\nnew output");
	kf_input_glue_output(g);
	CHECK(grid_view_offset(a->grid) >= off, "output leaves the view of a drag (%d)", grid_view_offset(a->grid));
	run_loop(loop, 4000);
	off = grid_view_offset(a->grid);
	CHECK(off == (int)grid_scrollback_lines(a->grid), "up to the oldest line: %d of %zu", off,
	      grid_scrollback_lines(a->grid));
	int redraws = a->redraws;
	run_loop(loop, 200);
	CHECK(a->redraws == redraws && grid_view_offset(a->grid) == off, "and stops there");
	text = grid_selection_text(a->grid, &len);
	CHECK(text && strstr(text, "\nedge 0\nedge 1\n"), "the selection reaches it: '%.20s'", text ? text : "");
	free(text);
	point_px(in, 5, 479);
	run_loop(loop, 4000);
	CHECK(grid_view_offset(a->grid) == 0, "against the bottom: back down (%d)", grid_view_offset(a->grid));
	button(in, BTN_LEFT, false, 80000000);
	text = clipboard();
	CHECK(!strncmp(text, "edge 46\n", 8) && strstr(text, "edge 59\nn") && text[strlen(text) - 1] == 'n',
	      "copied: '%s'", text);
	/* Without a drag the edge scrolls nothing. */
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	off = grid_view_offset(a->grid);
	point_px(in, 5, 0);
	run_loop(loop, 200);
	CHECK(grid_view_offset(a->grid) == off, "the pointer alone at the edge: %d", grid_view_offset(a->grid));
	kf_input_glue_output(g);
}

/* A press on a line of the history holds the view until its release, as a drag does: output that came before
 * the pointer left the pressed cell took the view to the bottom, and the drag then started on whatever line
 * was shown there, not on the one pressed. */
static void test_press_holds_view(struct app *a, struct input *in, struct kf_input_glue *g)
{
	char line[32];

	feed(a, "\033[H\033[2J");
	for (int i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "%shold %d", i ? "\r\n" : "", i);
		feed(a, line);
	}
	kf_input_glue_output(g);
	with(in, KEY_LEFTSHIFT, KEY_PAGEUP);
	CHECK(grid_view_offset(a->grid) == 24, "a page back (%d)", grid_view_offset(a->grid));
	/* rows 0..23 show "hold 12".."hold 35": press on "hold 19" */
	point(in, 0, 7);
	button(in, BTN_LEFT, true, 110000000);
	feed(a, "\r\nnew");
	kf_input_glue_output(g);
	CHECK(grid_view_offset(a->grid) == 25, "output under the press keeps the view on its lines (%d)",
	      grid_view_offset(a->grid));
	point(in, 6, 8);
	button(in, BTN_LEFT, false, 110100000);
	CHECK(!strcmp(clipboard(), "hold 19\nhold 20"), "the drag starts on the line pressed: '%s'", clipboard());
	feed(a, "\r\nmore");
	kf_input_glue_output(g);
	CHECK(grid_view_offset(a->grid) == 0, "released: output returns to the bottom (%d)", grid_view_offset(a->grid));
}

/* A double click is a second press of the same button near the first (its cell, or a few pixels from it: a press
 * on a cell's edge may land next door) within the interval, with the pointer kept near in between. Only the cell
 * was compared, so a click, a trip elsewhere and a click back on the cell counted as a double click and selected
 * a word (and copied it over the clipboard); so did a drag ending back on the cell it started from, and a press of
 * another button in between did not break the sequence either. */
static void test_click_counting(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world");
	kf_clipboard_set("kept", 4);
	click(in, BTN_LEFT, 8, 0, 90000000);
	point(in, 30, 5);
	click(in, BTN_LEFT, 8, 0, 90200000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "kept"),
	      "click, away and back, click: two single clicks: '%s'", clipboard());
	/* a drag from the cell and back to it between the presses */
	point(in, 8, 0);
	button(in, BTN_LEFT, true, 91000000);
	point(in, 10, 0);
	point(in, 8, 0);
	button(in, BTN_LEFT, false, 91100000);
	CHECK(!strcmp(clipboard(), "r"), "the drag selects the cell: '%s'", clipboard());
	click(in, BTN_LEFT, 8, 0, 91200000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "r"), "a click after a drag back: '%s'",
	      clipboard());
	/* a double click, then away and back: the third press starts again */
	click(in, BTN_LEFT, 8, 0, 92000000);
	click(in, BTN_LEFT, 8, 0, 92200000);
	CHECK(!strcmp(clipboard(), "world"), "double click: '%s'", clipboard());
	point(in, 40, 10);
	click(in, BTN_LEFT, 8, 0, 92400000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "world"),
	      "away and back before the third: a single click: '%s'", clipboard());
	/* another button between two presses of the left one */
	kf_clipboard_set("kept", 4);
	click(in, BTN_LEFT, 8, 0, 93000000);
	click(in, BTN_RIGHT, 8, 0, 93100000);
	click(in, BTN_LEFT, 8, 0, 93200000);
	CHECK(!grid_has_selection(a->grid) && !strcmp(clipboard(), "kept"), "left, right, left: '%s'",
	      clipboard());
	/* two pixels apart across the edge of cells 8 and 9: a double click all the same */
	grid_select_clear(a->grid);
	kf_clipboard_set("kept", 4);
	point_px(in, 89, 10);
	button(in, BTN_LEFT, true, 94000000);
	button(in, BTN_LEFT, false, 94001000);
	point_px(in, 91, 10);
	button(in, BTN_LEFT, true, 94200000);
	button(in, BTN_LEFT, false, 94201000);
	CHECK(!strcmp(clipboard(), "world"), "a double click across a cell edge: '%s'", clipboard());
	/* and a triple click still is one */
	click(in, BTN_LEFT, 2, 0, 95000000);
	click(in, BTN_LEFT, 2, 0, 95200000);
	click(in, BTN_LEFT, 2, 0, 95400000);
	CHECK(!strcmp(clipboard(), "hello world\n"), "triple click: '%s'", clipboard());
	grid_select_clear(a->grid);
}

/* A drag that started as a selection (Shift held over an application that takes the mouse) stays one until its
 * release, as in xterm (its select-extend and select-end work on the selection while one is being made): Shift
 * let go before the button sent the rest of the drag and the release to the application, which never had the
 * press, and the selection went on following the pointer with no button held once the application let go of
 * the mouse. */
static void test_shift_drag_kept(struct app *a, struct input *in)
{
	feed(a, "\033[H\033[2Jhello world\033[?1002h\033[?1006h");
	a->n_out = 0;
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	point(in, 0, 0);
	button(in, BTN_LEFT, true, 100000000);
	point(in, 2, 0);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	point(in, 4, 0);
	button(in, BTN_LEFT, false, 100100000);
	CHECK(sent(a, ""), "the drag and its release are not reported");
	CHECK(!strcmp(clipboard(), "hello"), "the selection follows to the release: '%s'", clipboard());
	feed(a, "\033[?1002l\033[?1006l");
	point(in, 10, 0);
	char *text = grid_selection_text(a->grid, NULL);
	CHECK(text && !strcmp(text, "hello"), "released: the pointer moves the selection no more: '%s'",
	      text ? text : "");
	free(text);
	click(in, BTN_LEFT, 3, 0, 101000000);
	CHECK(!grid_has_selection(a->grid), "a click clears it");
}

/* The input's suspend and resume (VT switch away and back) write nothing to the child, also with DECSET 1004 on:
 * the focus reports (CSI O, CSI I) come from the session, which the console tells of the seat's disable and
 * enable (kf_session_set_focus; tests/kmscon-felis/test-paste.c, test_focus_reports), once each. */
static void test_no_focus_reports(struct app *a, struct kf_input_glue *g)
{
	struct input *in = kf_input_glue_input(g);
	feed(a, "\033[?1004h");
	a->n_out = 0;
	kf_input_glue_suspend(g);
	kf_input_glue_resume(g);
	kf_input_glue_suspend(g);
	kf_input_glue_resume(g);
	CHECK(a->n_out == 0, "no focus report on suspend/resume (%zu bytes: '%.*s')", a->n_out, (int)a->n_out,
	      a->out);
	key(in, KEY_A);
	CHECK(sent(a, "a"), "keys after resume");
	feed(a, "\033[?1004l");
}

/* A VT switch away releases the keys held (libinput's suspend synthesizes their releases, delivered during
 * input_suspend): under the kitty protocol's event types (flag 2) they reached the application as real releases,
 * where kitty drops such focus-change releases (glfw's fake_event_on_focus_change). Here the release comes after
 * the suspend, as a key let go on another VT and seen after the resume would: the application had no press of
 * that key since the switch, so no release either. */
static void test_suspend_releases(struct app *a, struct kf_input_glue *g)
{
	struct input *in = kf_input_glue_input(g);

	feed(a, "\033[>2u");
	a->n_out = 0;
	input_inject_key(in, KEY_UP, true, 1);
	CHECK(sent(a, "\033[A"), "Up pressed under kitty flag 2");
	kf_input_glue_suspend(g);
	input_inject_key(in, KEY_UP, false, 2);
	kf_input_glue_resume(g);
	input_inject_key(in, KEY_DOWN, false, 3);
	CHECK(sent(a, ""), "no release of a key held at the VT switch, nor of one never pressed here");
	key(in, KEY_UP);
	CHECK(sent(a, "\033[A\033[1;1:3A"), "after the resume a key has its press and release");
	feed(a, "\033[<u");
	a->n_out = 0;
}

/* The middle button pastes on its release, as xterm's <Btn2Up>: insert-selection: the paste came on the press,
 * so a middle button held (to drag, or pressed by mistake and moved off) had already pasted, and an
 * application's output between press and release came after it. Only a press and release both ours paste:
 * not one whose press went to the application (mouse reporting), nor one whose press or release alone had
 * Shift over reporting, nor a press whose release came on another VT. */
static void test_middle_paste_on_release(struct app *a, struct input *in, struct kf_input_glue *g)
{
	kf_clipboard_set("mid", 3);
	a->pasted[0] = 0;
	point(in, 1, 1);
	button(in, BTN_MIDDLE, true, 60000000);
	CHECK(!a->pasted[0], "middle press: no paste yet ('%s')", a->pasted);
	button(in, BTN_MIDDLE, false, 60100000);
	CHECK(!strcmp(a->pasted, "mid"), "middle release pastes: '%s'", a->pasted);
	/* another button's release does not paste */
	a->pasted[0] = 0;
	button(in, BTN_MIDDLE, true, 61000000);
	button(in, BTN_RIGHT, true, 61100000);
	button(in, BTN_RIGHT, false, 61200000);
	CHECK(!a->pasted[0], "the right button's release: no paste ('%s')", a->pasted);
	button(in, BTN_MIDDLE, false, 61300000);
	CHECK(!strcmp(a->pasted, "mid"), "then the middle one's: '%s'", a->pasted);
	/* under mouse reporting the click is the application's */
	feed(a, "\033[?1000h\033[?1006h");
	a->n_out = 0;
	a->pasted[0] = 0;
	click(in, BTN_MIDDLE, 1, 1, 62000000);
	CHECK(sent(a, "\033[<1;2;2M\033[<1;2;2m") && !a->pasted[0], "reported middle click: no paste ('%s')",
	      a->pasted);
	/* Shift over reporting, press and release: ours */
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_MIDDLE, 1, 1, 63000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	CHECK(sent(a, "") && !strcmp(a->pasted, "mid"), "Shift+middle click pastes: '%s'", a->pasted);
	/* Shift on the press only: the release goes to the application, and nothing is pasted */
	a->pasted[0] = 0;
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	button(in, BTN_MIDDLE, true, 64000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	button(in, BTN_MIDDLE, false, 64100000);
	CHECK(sent(a, "\033[<1;2;2m") && !a->pasted[0], "Shift on the press only: no paste ('%s')", a->pasted);
	/* Shift on the release only: the press was the application's, and so is its release (with Shift's bit; it
	 * was kept back, and the application held the button for good) */
	a->pasted[0] = 0;
	button(in, BTN_MIDDLE, true, 65000000);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	button(in, BTN_MIDDLE, false, 65100000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	CHECK(sent(a, "\033[<1;2;2M\033[<5;2;2m") && !a->pasted[0], "Shift on the release only: no paste ('%s')",
	      a->pasted);
	feed(a, "\033[?1006l\033[?1000l");
	/* a press before a VT switch, its release after the return: not a click here */
	a->pasted[0] = 0;
	button(in, BTN_MIDDLE, true, 66000000);
	kf_input_glue_suspend(g);
	kf_input_glue_resume(g);
	button(in, BTN_MIDDLE, false, 66100000);
	CHECK(!a->pasted[0], "release after a VT switch: no paste ('%s')", a->pasted);
	/* The release libinput makes up as the mouse goes away (input/ marks it device_gone): unplugged, or its fd
	 * revoked by the seat at a VT switch away, which seatd and libseat's builtin backend do before our disable
	 * handler runs (seen in the VM: console-middle-away). The user let go of nothing here: no paste. */
	button(in, BTN_MIDDLE, true, 67000000);
	struct input_pointer_event gone = {.type = INPUT_POINTER_BUTTON, .button = BTN_MIDDLE, .time_usec = 67100000,
					   .gone = INPUT_GONE_UNPLUGGED};
	input_inject_pointer(in, &gone);
	CHECK(!a->pasted[0], "the middle release of a mouse gone away: no paste ('%s')", a->pasted);
	/* and under mouse reporting the application still gets the release of a press it had */
	feed(a, "\033[?1000h\033[?1006h");
	a->n_out = 0;
	button(in, BTN_MIDDLE, true, 68000000);
	input_inject_pointer(in, &gone);
	CHECK(sent(a, "\033[<1;2;2M\033[<1;2;2m"), "the application has the release of its press");
	feed(a, "\033[?1006l\033[?1000l");
	a->n_out = 0;
}

/* A paste while the session has no grid (ops.grid gives NULL: none yet, or gone) still goes to the session;
 * the view's offset was read from the missing grid before scroll_view's check for it, a NULL dereference. */
static void test_paste_without_grid(struct app *a, struct input *in)
{
	struct grid *saved = a->grid;
	a->grid = NULL;
	a->pasted[0] = 0;
	kf_clipboard_set("no grid", 7);
	with(in, KEY_LEFTSHIFT, KEY_INSERT);
	CHECK(!strcmp(a->pasted, "no grid"), "Shift+Insert without a grid: '%s'", a->pasted);
	a->grid = saved;
}

/* A new login (the session respawns its child) ends a dead-key sequence the last one left: its first key is
 * itself. Without the hook the dead acute typed before the last login ended made the next one's first e an é
 * (a login(1) that timed out at a dead key, the next user's name). de: the key left of Backspace is dead_acute. */
static void test_new_login(struct kf_loop *loop)
{
	struct app a = {0};
	struct kf_config cfg;
	struct grid_config gc = {.cols = 80, .rows = 24};
	struct kf_input_glue *g = NULL;

	setenv("XKB_DEFAULT_LAYOUT", "de", 1);
	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(a.grid && kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "de glue");
	if (g) {
		struct input *in = kf_input_glue_input(g);
		key(in, KEY_EQUAL);
		key(in, KEY_E);
		CHECK(sent(&a, "\xc3\xa9"), "dead_acute e: e acute");
		key(in, KEY_EQUAL);
		kf_input_glue_new_login(g);
		key(in, KEY_E);
		CHECK(sent(&a, "e"), "dead_acute, a new login, e: e");
		kf_input_glue_destroy(g);
	}
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
}

int main(void)
{
	char dir[] = "/tmp/kf-glue-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 1000};
	struct kf_input_glue *g = glue_setup(loop, dir, &cfg, &a, &gc);
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);
	test_keys(&a, in);
	test_scrollback(&a, in);
	test_grab_release_kept(&a, in);
	kf_input_glue_output(g);
	CHECK(grid_view_offset(a.grid) == 0, "output returns to the bottom");
	test_selection(&a, in);
	test_plain_click(&a, in);
	test_extend_before(&a, in);
	test_drag_edges(&a, in, g, loop);
	test_click_counting(&a, in);
	test_press_holds_view(&a, in, g);
	test_shift_drag_kept(&a, in);
	test_no_focus_reports(&a, g);
	test_suspend_releases(&a, g);
	test_paste_without_grid(&a, in);
	test_middle_paste_on_release(&a, in, g);
	test_new_login(loop);
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input glue");
}
