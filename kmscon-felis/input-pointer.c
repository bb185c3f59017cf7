/* kmscon-felis/input-pointer.c: pointer events to the application (mouse reports) or to the terminal itself
 * (selection, paste, the wheel over the scrollback); split from input-glue.c, whose struct it shares through
 * input-glue-internal.h. */
#define LOG_TAG "input"

#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "input/input.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-glue-internal.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/mouse.h"
#include "vt/vt.h"

/* Wheel notches scroll this many lines of scrollback (xterm and most terminals use 3-5). */
#define WHEEL_LINES 3
/* The most steps one wheel event makes on one axis, as input/ bounds devices (INPUT_SCROLL_STEPS_MAX):
 * input_inject_pointer passes any int, and negating or multiplying INT_MIN is undefined. */
#define WHEEL_STEPS_MAX 32
/* A selection dragged against the top or bottom edge scrolls this often, one line at first and twice as many
 * every second it stays there (up to 32 lines), so that a long history is crossed in seconds. */
#define EDGE_SCROLL_NS 40000000u
#define EDGE_TICKS_PER_DOUBLING 25

static int xterm_button(uint32_t b)
{
	switch (b) {
	case BTN_LEFT: return 0;
	case BTN_MIDDLE: return 1;
	case BTN_RIGHT: return 2;
	case BTN_SIDE: return 8;
	case BTN_EXTRA: return 9;
	case BTN_FORWARD: return 10;
	case BTN_BACK: return 11;
	default: return -1;
	}
}

static void pointer_cell(struct kf_input_glue *g, int *col, int *row)
{
	struct grid *gr = kf_glue_grid(g);
	int cw = g->cell_w > 0 ? g->cell_w : 8, ch = g->cell_h > 0 ? g->cell_h : 16;

	*col = (int)g->px / cw;
	*row = (int)g->py / ch;
	if (gr) {
		if (*col >= grid_cols(gr))
			*col = grid_cols(gr) - 1;
		if (*row >= grid_rows(gr))
			*row = grid_rows(gr) - 1;
	}
}

/* The pointer's pixel on the cells (the strip narrower than a cell past the last one counts as the last one, as
 * pointer_cell counts it), for SGR-Pixels. */
static void pointer_pixel(struct kf_input_glue *g, int *x, int *y)
{
	struct grid *gr = kf_glue_grid(g);
	int cw = g->cell_w > 0 ? g->cell_w : 8, ch = g->cell_h > 0 ? g->cell_h : 16;

	*x = (int)g->px;
	*y = (int)g->py;
	if (gr) {
		if (*x >= grid_cols(gr) * cw)
			*x = grid_cols(gr) * cw - 1;
		if (*y >= grid_rows(gr) * ch)
			*y = grid_rows(gr) * ch - 1;
	}
}

static struct kf_click_pos click_pos(struct kf_input_glue *g)
{
	struct kf_click_pos at = {.x = (int)g->px, .y = (int)g->py};

	pointer_cell(g, &at.col, &at.row);
	return at;
}

/* Sends a mouse report when the application asked for them and Shift is not held. Returns true if the
 * event belongs to the application (even when this mode does not report this particular event). */
static bool report(struct kf_input_glue *g, enum kf_mouse_action action, int button, unsigned mods)
{
	struct grid *gr = kf_glue_grid(g);
	struct grid_modes m;
	struct kf_mouse_report r = {.action = action, .button = button, .mods = mods,
				    .any_button_held = g->buttons_held != 0};
	uint8_t buf[48];
	size_t n;

	/* Shift takes the pointer for the console, but not from under a button whose press the application had: it
	 * would hold that button for good (xterm 379 keeps even that motion and release back) */
	bool app_drag = action == KF_MOUSE_MOTION ? g->app_held != 0
			: action == KF_MOUSE_RELEASE && button < 12 && (g->app_held >> button & 1);
	if (!gr || ((mods & INPUT_MOD_SHIFT) && !app_drag))
		return false;
	grid_get_modes(gr, &m);
	if (m.mouse == GRID_MOUSE_NONE)
		return false;
	pointer_cell(g, &r.col, &r.row);
	pointer_pixel(g, &r.x, &r.y);
	/* SGR-Pixels reports motion at every pixel, as xterm (its mouse_row and mouse_col are pixels then) */
	bool pixels = m.mouse_encoding == GRID_MOUSE_ENC_SGR_PIXELS;
	int at_col = pixels ? r.x : r.col, at_row = pixels ? r.y : r.row;
	int last = kf_mouse_last_cell(m.mouse_encoding);
	/* past the encoding's reach every cell is sent alike: moving there is no move (xterm's MouseLimit) */
	if (at_col > last)
		at_col = last;
	if (at_row > last)
		at_row = last;
	if (action == KF_MOUSE_MOTION) {
		if (at_col == g->last_col && at_row == g->last_row)
			return true;
		/* the lowest button held, as xterm's FirstBitN; 3 for none */
		r.button = 3;
		for (int b = 0; b < 12; b++) {
			if (g->buttons_held & 1u << b) {
				r.button = b;
				break;
			}
		}
	}
	n = kf_mouse_encode(m.mouse, m.mouse_encoding, &r, buf, sizeof(buf));
	/* Only a report sent moves the last place: motion this mode keeps quiet (no button held in 1002) must
	 * not hide the next move inside that cell from a mode that reports it (1003), as in xterm. */
	if (n) {
		g->last_col = at_col;
		g->last_row = at_row;
	}
	kf_glue_send(g, buf, n);
	return true;
}

static void copy_selection(struct kf_input_glue *g)
{
	struct grid *gr = kf_glue_grid(g);
	size_t len = 0;
	char *text;

	if (!gr || !grid_has_selection(gr))
		return;
	/* Taken only as far as the clipboard holds: a selection of the whole history was built whole first (29
	 * bytes a cell of marked letters: 62 MB at 10,000 lines of 212 cells) and then cut to the clipboard. */
	bool cut = false;
	text = grid_selection_text_max(gr, KF_CLIPBOARD_MAX, &len, &cut);
	if (cut)
		log_warn("selection longer than the clipboard's %u bytes: copied up to there", KF_CLIPBOARD_MAX);
	if (text && len)
		kf_clipboard_set(text, len);
	free(text);
}

static void local_button(struct kf_input_glue *g, const struct input_pointer_event *pe, int button)
{
	static const enum grid_select_mode by_clicks[4] = {GRID_SELECT_CELL, GRID_SELECT_CELL, GRID_SELECT_WORD,
							   GRID_SELECT_LINE};
	struct grid *gr = kf_glue_grid(g);
	int col, row;

	if (!gr)
		return;
	pointer_cell(g, &col, &row);
	/* every button counts: a press of another one between two left clicks makes the second a single one */
	int clicks = pe->pressed ? kf_clicks_press(&g->clicks, pe->time_usec, button, click_pos(g)) : 0;
	if (button == 1) {
		if (!pe->pressed && g->paste_armed)
			kf_glue_paste(g);
		g->paste_armed = pe->pressed;
	} else if (button == 0 && pe->pressed) {
		/* Shift+click extends only where Shift means nothing else: over an application that takes the mouse
		 * it is what takes the pointer back (report), and there a Shift+drag is a new selection, as xterm's
		 * Shift+Btn1Down (select-start), foot's and kitty's; extending is then Shift+right click. */
		struct grid_modes m;
		grid_get_modes(gr, &m);
		if ((pe->mods & INPUT_MOD_SHIFT) && m.mouse == GRID_MOUSE_NONE && grid_has_selection(gr) &&
		    clicks == 1) {
			grid_select_adjust(gr, col, row);
		} else if (clicks == 1) {
			/* Only a drag selects: a plain click must not copy the character under it over the
			 * clipboard (xterm and foot leave it alone). It clears the highlight, as theirs does. */
			grid_select_clear(gr);
			g->drag_pending = true;
			g->press_col = col;
			g->press_row = row;
			g->press_line = grid_line_at(gr, row);
		} else {
			grid_select_start(gr, col, row, by_clicks[clicks]);
		}
		g->selecting = true;
		g->select_button = 0;
		kf_glue_redraw(g);
		/* A double or triple click selects at once: copy it now. */
		if (clicks > 1)
			copy_selection(g);
	} else if (!pe->pressed && g->selecting && button == g->select_button) {
		g->selecting = false;
		g->drag_pending = false;
		copy_selection(g);
	} else if (button == 2 && pe->pressed && grid_has_selection(gr)) {
		/* as xterm's start-extend: the end moves here, then with the pointer until the release */
		grid_select_adjust(gr, col, row);
		g->selecting = true;
		g->select_button = 2;
		copy_selection(g);
		kf_glue_redraw(g);
	}
}

/* One wheel press per step (at most 16, so a touchpad flick stays short): button back for steps < 0, fwd
 * otherwise. Returns true when the application takes the wheel. */
static bool report_wheel(struct kf_input_glue *g, int steps, int back, int fwd, unsigned mods)
{
	for (int i = 0; i < abs(steps) && i < 16; i++) {
		if (!report(g, KF_MOUSE_PRESS, steps < 0 ? back : fwd, mods))
			return false;
	}
	return steps != 0;
}

static int clamp_steps(int steps)
{
	return steps < -WHEEL_STEPS_MAX ? -WHEEL_STEPS_MAX : steps > WHEEL_STEPS_MAX ? WHEEL_STEPS_MAX : steps;
}

static void wheel(struct kf_input_glue *g, const struct input_pointer_event *pe)
{
	struct grid *gr = kf_glue_grid(g);
	struct grid_modes m;
	/* natural-scrolling inverts the steps before anything reads them, so that the content follows the
	 * fingers wherever the wheel acts: the view, the reports an application scrolls by, its arrow keys
	 * (as libinput's own natural scrolling would for every program) */
	const int dir = g->cfg->natural_scrolling ? -1 : 1;
	int steps = dir * clamp_steps(pe->steps_v);

	if (!gr)
		return;
	/* xterm's buttons 4/5 are the wheel up/down and 6/7 left/right (tilt wheels, touchpads); only the
	 * vertical wheel has a local use. */
	bool v = report_wheel(g, steps, 4, 5, pe->mods);
	bool h = report_wheel(g, dir * clamp_steps(pe->steps_h), 6, 7, pe->mods);
	if (v || h || !steps)
		return;
	grid_get_modes(gr, &m);
	if (m.alt_screen && m.alternate_scroll) {
		/* DECSET 1007: the wheel is arrow keys for pagers and editors on the alternate screen. */
		struct vt_key_event k = {.key = steps < 0 ? VT_KEY_UP : VT_KEY_DOWN, .action = VT_KEY_PRESS};
		uint8_t buf[16];
		size_t n = vt_key_encode(&k, &m.keys, buf, sizeof(buf));
		for (int i = 0; i < abs(steps) * WHEEL_LINES && i < 64; i++)
			kf_glue_send(g, buf, n);
		return;
	}
	kf_glue_scroll_view(g, -steps * WHEEL_LINES);
}

static void move_pointer(struct kf_input_glue *g, const struct input_pointer_event *pe)
{
	if (pe->type == INPUT_POINTER_MOTION) {
		g->px += pe->dx;
		g->py += pe->dy;
	} else {
		double x, y;
		int pw = 0, ph = 0;

		/* across the panel as mounted: where the turned picture shows under it (mouse.h); the picture, not the
		 * cells, spans the device (the clamp below keeps the pointer on the cells) */
		kf_pointer_unrotate(g->ops.rotation ? g->ops.rotation(g->ud) : 0, pe->x, pe->y, &x, &y);
		if (g->ops.picture_size)
			g->ops.picture_size(g->ud, &pw, &ph);
		g->px = x * (pw > 0 && ph > 0 ? pw : g->width);
		g->py = y * (pw > 0 && ph > 0 ? ph : g->height);
	}
	g->pointer_shown = true;
	kf_glue_clamp_pointer(g);
}

void kf_glue_clamp_pointer(struct kf_input_glue *g)
{
	if (g->px < 0)
		g->px = 0;
	if (g->py < 0)
		g->py = 0;
	if (g->width > 0 && g->px > g->width - 1)
		g->px = g->width - 1;
	if (g->height > 0 && g->py > g->height - 1)
		g->py = g->height - 1;
	if (g->pointer_shown && g->ops.pointer)
		g->ops.pointer(g->ud, true, (int)g->px, (int)g->py);
}

/* -1 or +1 while a selection drag holds the pointer on the screen's top or bottom pixel row, else 0. A console's
 * pointer cannot leave the screen as a window's leaves the window (where xterm and foot scroll), so the outermost
 * row stands for "beyond". A press still in its cell is no drag yet: a click there scrolls nothing. */
static int drag_edge(const struct kf_input_glue *g)
{
	if (!g->selecting || g->drag_pending || g->height <= 0)
		return 0;
	return g->py <= 0 ? -1 : g->py >= g->height - 1 ? 1 : 0;
}

static void extend_to_pointer(struct kf_input_glue *g)
{
	int col, row;

	pointer_cell(g, &col, &row);
	grid_select_extend(kf_glue_grid(g), col, row);
	kf_glue_redraw(g);
}

/* One line further into the history (top) or back (bottom) and the selection with it; not re-armed at either
 * end of the scrollback, once the pointer leaves the edge or the button is up. */
void kf_glue_edge_scroll(void *ud, struct kf_timer *t)
{
	struct kf_input_glue *g = ud;
	struct grid *gr = kf_glue_grid(g);
	int edge = drag_edge(g);

	if (!gr || !edge || !grid_has_selection(gr))
		return;
	int before = grid_view_offset(gr), shift = (int)(g->edge_ticks++ / EDGE_TICKS_PER_DOUBLING);
	kf_glue_scroll_view(g, -edge * (1 << (shift < 5 ? shift : 5)));
	if (grid_view_offset(gr) == before)
		return;
	extend_to_pointer(g);
	kf_timer_arm(t, EDGE_SCROLL_NS, 0);
}

void kf_glue_on_pointer(void *ud, const struct input_pointer_event *pe)
{
	struct kf_input_glue *g = ud;
	int button;

	if (g->ops.activity)
		g->ops.activity(g->ud);
	if (!g->cfg->mouse)
		return;
	switch (pe->type) {
	case INPUT_POINTER_MOTION:
	case INPUT_POINTER_MOTION_ABSOLUTE:
		move_pointer(g, pe);
		kf_clicks_motion(&g->clicks, click_pos(g));
		/* a drag that began as a selection stays one to its release, Shift held or not (xterm) */
		if (!g->selecting && report(g, KF_MOUSE_MOTION, 3, pe->mods))
			return;
		if (g->selecting && kf_glue_grid(g)) {
			int col, row;

			pointer_cell(g, &col, &row);
			if (g->drag_pending && col == g->press_col && row == g->press_row)
				return;
			if (g->drag_pending)
				grid_select_start_line(kf_glue_grid(g), g->press_col, g->press_line, GRID_SELECT_CELL);
			g->drag_pending = false;
			extend_to_pointer(g);
			if (drag_edge(g) && !kf_timer_armed(g->edge)) {
				g->edge_ticks = 0;
				kf_timer_arm(g->edge, EDGE_SCROLL_NS, 0);
			}
		}
		return;
	case INPUT_POINTER_BUTTON:
		button = xterm_button(pe->button);
		if (button < 0)
			return;
		if (pe->pressed)
			g->buttons_held |= 1u << button;
		else
			g->buttons_held &= ~(1u << button);
		/* The middle button's release pastes only when the user let go of it here: not the one libinput makes
		 * up as its mouse goes (unplugged, or taken back by the seat at a VT switch away, before our disable
		 * handler runs), which pasted the clipboard into the shell of a VT no longer shown. A button the
		 * application had still gets its release reported, and a selection drag ends as at a release. */
		if (button == 1 && pe->gone)
			g->paste_armed = false;
		bool ours = !pe->pressed && ((g->selecting && button == g->select_button) ||
					     (button == 2 && g->extend_armed));
		if (button == 2)
			g->extend_armed = false;
		bool reported = !ours && report(g, pe->pressed ? KF_MOUSE_PRESS : KF_MOUSE_RELEASE, button, pe->mods);
		if (pe->pressed && reported)
			g->app_held |= 1u << button;
		else
			g->app_held &= ~(1u << button);
		if (reported) {
			/* a press and release on both sides of reporting (Shift on one only) is no click of ours */
			if (button == 1)
				g->paste_armed = false;
			return;
		}
		if (button == 2 && pe->pressed)
			g->extend_armed = true;
		local_button(g, pe, button);
		return;
	case INPUT_POINTER_SCROLL:
		wheel(g, pe);
		return;
	}
}

void kf_input_glue_config_changed(struct kf_input_glue *g)
{
	if (g->cfg->mouse)
		return;
	/* kf_glue_on_pointer ignores every pointer event from now on: nothing would take the arrow away before
	 * the next key press, nor release what is held (the edge timer stops with selecting) */
	if (g->pointer_shown && g->ops.pointer)
		g->ops.pointer(g->ud, false, (int)g->px, (int)g->py);
	g->pointer_shown = false;
	/* A press the application was told of gets its release now: the real one will be ignored, and an
	 * application left mid-drag (a visual selection in vim, a window being moved) stays so for good. As
	 * libinput's releases on a VT switch away, lowest button first. */
	for (int b = 0; b < 12; b++) {
		if (!(g->app_held >> b & 1))
			continue;
		g->buttons_held &= ~(1u << b);
		report(g, KF_MOUSE_RELEASE, b, 0);
		g->app_held &= ~(1u << b);
	}
	kf_glue_forget_buttons(g);
}

void kf_glue_forget_buttons(struct kf_input_glue *g)
{
	g->buttons_held = 0;
	g->app_held = 0;
	g->selecting = false;
	g->drag_pending = false;
	g->paste_armed = false;
	g->extend_armed = false;
}
