/* kmscon-felis/input-glue.c: key and pointer events to the session, the view and the seat (input-glue.h). */
#define LOG_TAG "input"

#include "kmscon-felis/input-glue.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon-keysyms.h>

#include "grid/grid.h"
#include "input/input.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-keys.h"
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

struct kf_input_glue {
	struct kf_loop *loop;
	const struct kf_config *cfg;
	struct kf_input_glue_ops ops;
	void *ud;
	struct input *in;
	struct kf_source *src;
	struct kf_timer *repeat;
	unsigned dispatch_failures; /* libinput dispatches failed in a row, said at the first and its count after */
	struct kf_timer *edge;   /* armed while a selection is dragged against the top or bottom edge */
	unsigned edge_ticks;     /* edge scrolls since the drag reached the edge */
	/* Keys whose press the terminal kept (a grab, a VT switch), a bit per evdev code: set by that press,
	 * cleared by the release, which is kept too (the kitty protocol's event types would send it). */
	uint64_t grabbed[(KEY_MAX + 64) / 64];
	/* Keys whose press went to the application since the seat was last ours, a bit per evdev code: a release
	 * of any other key is dropped (see unpaired_release). */
	uint64_t down[(KEY_MAX + 64) / 64];

	int width, height, cell_w, cell_h;
	double px, py;           /* pointer position in pixels */
	bool pointer_shown;
	unsigned buttons_held;   /* bit per xterm button held: 0..2 and the extra ones, 8..11 */
	/* The buttons held whose press the application had: their drag and release are its own, Shift or not.
	 * Set by a press reported, cleared by any release of it and by a VT switch away. */
	unsigned app_held;
	bool selecting;          /* a button held for a selection drag: the left (select_button 0) or the right (2) */
	int select_button;
	/* A single click's cell: the drag's selection starts there once the pointer leaves it (a click without
	 * a drag selects nothing). Set by the press, cleared by the drag's start or the release. */
	bool drag_pending;
	int press_col, press_row;
	uint64_t press_line;     /* the line pressed (grid_line_at): output may scroll it before the drag starts */
	/* The middle button's press was ours (not reported): its release pastes, as xterm's <Btn2Up>. Set by
	 * that press, cleared by any release of it (reported or not) and by a VT switch away. */
	bool paste_armed;
	/* The right button's press was ours (xterm's start-extend, with a selection or not): its release is
	 * ours too, as the left button's, even once the application asks for reports. Set by that press,
	 * cleared by any press or release of it and by a VT switch away. */
	bool extend_armed;
	struct kf_clicks clicks;
	/* The last reported cell (its pixel under SGR-Pixels), to report motion only when it changes (xterm). */
	int last_col, last_row;
};

static struct grid *grid_of(struct kf_input_glue *g)
{
	return g->ops.grid ? g->ops.grid(g->ud) : NULL;
}

static void send(struct kf_input_glue *g, const void *data, size_t len)
{
	if (len && g->ops.write && g->ops.write(g->ud, data, len) < 0)
		log_debug("a key was dropped: the PTY write queue is full");
}

static void redraw(struct kf_input_glue *g)
{
	if (g->ops.redraw)
		g->ops.redraw(g->ud);
}

static void scroll_view(struct kf_input_glue *g, int delta)
{
	struct grid *gr = grid_of(g);

	if (!gr)
		return;
	int before = grid_view_offset(gr);
	if (grid_view_scroll(gr, delta) != before)
		redraw(g);
}

static void paste_clipboard(struct kf_input_glue *g)
{
	struct grid *gr = grid_of(g);
	char *text = NULL;
	size_t len = 0;

	if (kf_clipboard_get(&text, &len) == 0 && len && g->ops.paste) {
		/* the view's offset is read only from a grid there is (the session may have none yet) */
		if (gr)
			scroll_view(g, -grid_view_offset(gr));
		g->ops.paste(g->ud, text, len);
	}
	free(text);
}

/* The VT shown now, for "next/previous VT" (sysfs; 0 when the kernel has no VTs). */
static int active_vt(void)
{
	char buf[16] = {0};
	int fd = open("/sys/class/tty/tty0/active", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 3 && !strncmp(buf, "tty", 3) ? atoi(buf + 3) : 0;
}

static void switch_vt(struct kf_input_glue *g, int n)
{
	if (g->ops.switch_vt && n >= 1 && n <= 63)
		g->ops.switch_vt(g->ud, n);
}

/* The bit of ev's key in grabbed, or NULL for a code past KEY_MAX. */
/* ev's key in a set of evdev codes (grabbed, down): its word and bit, or NULL for a code past KEY_MAX. */
static uint64_t *key_word(uint64_t *set, const struct input_key_event *ev, uint64_t *bit)
{
	*bit = 1ull << (ev->keycode % 64);
	return ev->keycode <= KEY_MAX ? &set[ev->keycode / 64] : NULL;
}

/* A press or repeat of a key the terminal keeps for itself: does what it is for. Returns true when it was one. */
static bool handle_grabs(struct kf_input_glue *g, const struct input_key_event *ev)
{
	const struct kf_config *c = g->cfg;
	struct grid *gr = grid_of(g);
	/* a page is the screen's height, as kmscon's (tsm_screen_sb_page_up), foot's and xterm's "page" unit */
	int page = gr ? grid_rows(gr) : 1;
	int vt = kf_key_vt_switch(ev);

	if (vt) {
		switch_vt(g, vt);
		return true;
	}
	if (kf_grab_match(&c->grab_scroll_up, ev))
		scroll_view(g, 1);
	else if (kf_grab_match(&c->grab_scroll_down, ev))
		scroll_view(g, -1);
	else if (kf_grab_match(&c->grab_page_up, ev))
		scroll_view(g, page);
	else if (kf_grab_match(&c->grab_page_down, ev))
		scroll_view(g, -page);
	else if (kf_grab_match(&c->grab_zoom_in, ev) && g->ops.zoom)
		g->ops.zoom(g->ud, 1);
	else if (kf_grab_match(&c->grab_zoom_out, ev) && g->ops.zoom)
		g->ops.zoom(g->ud, -1);
	else if (kf_grab_match(&c->grab_zoom_reset, ev) && g->ops.zoom)
		g->ops.zoom(g->ud, 0);
	else if (kf_grab_match(&c->grab_session_next, ev))
		switch_vt(g, active_vt() + 1);
	else if (kf_grab_match(&c->grab_session_prev, ev))
		switch_vt(g, active_vt() - 1);
	else if (kf_grab_match(&c->grab_paste, ev))
		paste_clipboard(g);
	else if (kf_grab_match(&c->grab_rotate_cw, ev) && g->ops.rotate)
		g->ops.rotate(g->ud, 1);
	else if (kf_grab_match(&c->grab_rotate_ccw, ev) && g->ops.rotate)
		g->ops.rotate(g->ud, -1);
	else
		return false;
	return true;
}

/* The keys the terminal keeps for itself, press, repeats and release (the kitty protocol's event types would
 * send the application a repeat or a release of a press it never had). Returns true when ev was one of them. */
static bool kept_key(struct kf_input_glue *g, const struct input_key_event *ev)
{
	uint64_t bit, *w = key_word(g->grabbed, ev, &bit);
	bool kept = w && (*w & bit);

	if (ev->action == INPUT_KEY_RELEASE) {
		if (w)
			*w &= ~bit;
		return kept;
	}
	/* A repeat goes on with the grab, if its modifiers still match; a new press starts afresh. Only the press
	 * decides whose the release is: a key held for the application whose repeats became a grab (Shift
	 * pressed under a repeating Up: xterm scrolls) still has its release sent, the application having had
	 * its press. */
	if (ev->action == INPUT_KEY_PRESS)
		kept = false;
	bool grab = handle_grabs(g, ev);
	if (w && ev->action == INPUT_KEY_PRESS)
		*w = grab ? *w | bit : *w & ~bit;
	return grab || kept;
}

/* A release of a key whose press the application did not have since the seat was last ours: chiefly those
 * libinput synthesizes for the keys held at a VT switch away, which the kitty protocol's event types (flag 2)
 * would send as real releases (kitty drops its focus-change releases too), or a key let go on another VT.
 * Notes the presses. Returns true when ev is such a release, to be dropped. */
static bool unpaired_release(struct kf_input_glue *g, const struct input_key_event *ev)
{
	uint64_t bit, *w = key_word(g->down, ev, &bit);
	bool had = w && (*w & bit);

	if (!w)
		return false;
	if (ev->action != INPUT_KEY_RELEASE) {
		*w |= bit;
		return false;
	}
	*w &= ~bit;
	return !had;
}

static void key_modes(struct kf_input_glue *g, struct grid_modes *m)
{
	struct grid *gr = grid_of(g);

	memset(m, 0, sizeof(*m));
	/* --backspace-delete is DECBKM's power-on state, given to the grid by the session; the application
	 * may change it (DECSET/DECRST 67), as in xterm. */
	m->keys.backspace_sends_bs = !g->cfg->backspace_delete;
	if (gr)
		grid_get_modes(gr, m);
	/* A console has no 8-bit Meta input: Alt always prefixes ESC. */
	m->keys.alt_sends_escape = true;
}

static bool single_code_point(const char *utf8)
{
	size_t n = strlen(utf8);
	unsigned char c = (unsigned char)utf8[0];

	return n == 0 || n == (size_t)(c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4);
}

static void on_key(void *ud, const struct input_key_event *ev)
{
	struct kf_input_glue *g = ud;
	struct grid_modes m;
	struct vt_key_event vk;
	uint8_t buf[INPUT_UTF8_MAX + 1]; /* ESC and a whole compose result; more than any encoded key needs */
	size_t n = 0;

	/* A key that types text is logged without its code or keysym: --debug logs go to the journal and into bug
	 * reports, and the keys typed at a login prompt are a password (tests/kmscon-felis/test-input-keylog.c).
	 * The keys that type nothing (arrows, function keys, modifiers) keep both, which a keymap problem needs. */
	const char *act = ev->action == INPUT_KEY_PRESS ? "down" : ev->action == INPUT_KEY_RELEASE ? "up" : "repeat";
	if (ev->cp || ev->utf8[0] || ev->composing)
		log_debug("key (types text) %s mods 0x%x (event time %llu us)", act, ev->mods,
			  (unsigned long long)ev->time_usec);
	else
		log_debug("key %u %s sym 0x%x mods 0x%x (event time %llu us)", ev->keycode, act, ev->keysym, ev->mods,
			  (unsigned long long)ev->time_usec);
	if (g->ops.activity)
		g->ops.activity(g->ud);
	if (kept_key(g, ev))
		return;
	/* A dead key, or the key that broke a compose sequence: it types nothing, whatever key it is (libX11's
	 * compose filter swallows it too: a Backspace taking back a dead key must not delete a character). Before
	 * unpaired_release notes the press, so that its release (kitty's event types) is not sent either. */
	if (ev->composing || unpaired_release(g, ev))
		return;
	if (ev->action != INPUT_KEY_RELEASE && g->pointer_shown && g->ops.pointer) {
		g->pointer_shown = false;
		g->ops.pointer(g->ud, false, (int)g->px, (int)g->py);
	}
	if (!kf_key_translate(ev, &vk))
		return;
	key_modes(g, &m);
	/* The kitty protocol also sends text as text, except with Ctrl, Alt or Super held and under its flag 8
	 * (every key an escape code): those events the encoder writes, with the first character. */
	bool as_text = !m.keys.kitty_flags ||
		       (!(m.keys.kitty_flags & 8) && !(ev->mods & ~(INPUT_MOD_SHIFT | INPUT_MOD_CAPS | INPUT_MOD_NUM)));
	if (vk.key == VT_KEY_NONE && !single_code_point(ev->utf8) && as_text && ev->action != INPUT_KEY_RELEASE) {
		/* A compose sequence, or a keymap level of several keysyms, that gives several characters: typed as
		 * they are (a release types nothing: the encoder has its event, if any). */
		if ((ev->mods & INPUT_MOD_ALT) && sizeof(buf) > strlen(ev->utf8) + 1)
			buf[n++] = 0x1b;
		memcpy(buf + n, ev->utf8, strlen(ev->utf8));
		n += strlen(ev->utf8);
	} else {
		n = vt_key_encode(&vk, &m.keys, buf, sizeof(buf));
	}
	if (!n)
		return;
	/* A modifier or lock key alone is no typing (the kitty protocol's flag 8 sends them): the Shift let go
	 * after Shift+PageUp must leave the view where it went. Nor is a release (its event types, flag 2): xterm
	 * and kitty go back to the bottom on a press (a repeat is one in xterm). */
	bool typing = ev->action != INPUT_KEY_RELEASE && (vk.key < VT_KEY_SCROLL_LOCK || vk.key > VT_KEY_LAST_MODIFIER_);
	if (typing && grid_of(g) && grid_view_offset(grid_of(g)))
		scroll_view(g, -grid_view_offset(grid_of(g)));
	send(g, buf, n);
}

/* ------------------------------------------------------------------------------------------ pointer */

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
	struct grid *gr = grid_of(g);
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
	struct grid *gr = grid_of(g);
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
	struct grid *gr = grid_of(g);
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
	send(g, buf, n);
	return true;
}

static void copy_selection(struct kf_input_glue *g)
{
	struct grid *gr = grid_of(g);
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
	struct grid *gr = grid_of(g);
	int col, row;

	if (!gr)
		return;
	pointer_cell(g, &col, &row);
	/* every button counts: a press of another one between two left clicks makes the second a single one */
	int clicks = pe->pressed ? kf_clicks_press(&g->clicks, pe->time_usec, button, click_pos(g)) : 0;
	if (button == 1) {
		if (!pe->pressed && g->paste_armed)
			paste_clipboard(g);
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
		redraw(g);
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
		redraw(g);
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
	struct grid *gr = grid_of(g);
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
			send(g, buf, n);
		return;
	}
	scroll_view(g, -steps * WHEEL_LINES);
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
	if (g->px < 0)
		g->px = 0;
	if (g->py < 0)
		g->py = 0;
	if (g->width > 0 && g->px > g->width - 1)
		g->px = g->width - 1;
	if (g->height > 0 && g->py > g->height - 1)
		g->py = g->height - 1;
	g->pointer_shown = true;
	if (g->ops.pointer)
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
	grid_select_extend(grid_of(g), col, row);
	redraw(g);
}

/* One line further into the history (top) or back (bottom) and the selection with it; not re-armed at either
 * end of the scrollback, once the pointer leaves the edge or the button is up. */
static void edge_scroll(void *ud, struct kf_timer *t)
{
	struct kf_input_glue *g = ud;
	struct grid *gr = grid_of(g);
	int edge = drag_edge(g);

	if (!gr || !edge || !grid_has_selection(gr))
		return;
	int before = grid_view_offset(gr), shift = (int)(g->edge_ticks++ / EDGE_TICKS_PER_DOUBLING);
	scroll_view(g, -edge * (1 << (shift < 5 ? shift : 5)));
	if (grid_view_offset(gr) == before)
		return;
	extend_to_pointer(g);
	kf_timer_arm(t, EDGE_SCROLL_NS, 0);
}

static void on_pointer(void *ud, const struct input_pointer_event *pe)
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
		if (g->selecting && grid_of(g)) {
			int col, row;

			pointer_cell(g, &col, &row);
			if (g->drag_pending && col == g->press_col && row == g->press_row)
				return;
			if (g->drag_pending)
				grid_select_start_line(grid_of(g), g->press_col, g->press_line, GRID_SELECT_CELL);
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

/* ------------------------------------------------------------------------------------ loop plumbing */

static void input_readable(void *ud, int fd, uint32_t events)
{
	struct kf_input_glue *g = ud;

	/* its fd stays readable while dispatching fails: said once with the reason, not at every wake-up */
	int r = input_dispatch(g->in);
	if (r < 0 && g->dispatch_failures++ == 0)
		log_warn("libinput dispatch failed: %s (said once while it lasts)", strerror(-r));
	if (r >= 0 && g->dispatch_failures) {
		log_notice("libinput dispatch works again after %u failures", g->dispatch_failures);
		g->dispatch_failures = 0;
	}
}

static void repeat_fired(void *ud, struct kf_timer *t)
{
	struct kf_input_glue *g = ud;

	input_timer_expired(g->in, kf_loop_now_ns() / 1000);
}

static void arm_repeat(void *ud, uint64_t deadline_usec)
{
	struct kf_input_glue *g = ud;
	uint64_t now = kf_loop_now_ns() / 1000;

	if (!deadline_usec)
		kf_timer_disarm(g->repeat);
	else
		kf_timer_arm(g->repeat, deadline_usec > now ? (deadline_usec - now) * 1000 : 0, 0);
}

static int open_device(void *ud, const char *path, int flags)
{
	struct kf_input_glue *g = ud;

	return g->ops.open_device ? g->ops.open_device(g->ud, path, flags) : -ENODEV;
}

static void close_device(void *ud, int fd)
{
	struct kf_input_glue *g = ud;

	if (g->ops.close_device)
		g->ops.close_device(g->ud, fd);
	else
		close(fd);
}

static void input_log_handler(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	kf_log_vmsg((enum kf_log_level)prio, "input", file, line, fmt, ap);
}

int kf_input_glue_create(struct kf_loop *loop, const struct kf_config *cfg, const struct kf_input_glue_ops *ops,
			 void *ud, struct kf_input_glue **out)
{
	struct kf_input_glue *g = calloc(1, sizeof(*g));
	struct input_config ic;
	struct input_callbacks cb = {.key = on_key, .pointer = on_pointer, .open_device = open_device,
				     .close_device = close_device, .arm_timer = arm_repeat};

	if (!g)
		return -ENOMEM;
	g->loop = loop;
	g->cfg = cfg;
	g->ops = *ops;
	g->ud = ud;
	g->last_col = g->last_row = -1;
	input_set_log_handler(input_log_handler);
	g->repeat = kf_loop_add_timer(loop, repeat_fired, g);
	g->edge = kf_loop_add_timer(loop, edge_scroll, g);
	if (!g->repeat || !g->edge)
		goto err;
	kf_input_config_of(cfg, &ic);
	g->in = input_create(&ic, &cb, g);
	if (!g->in)
		goto err;
	log_notice("keymap %s", input_keymap_name(g->in));
	*out = g;
	return 0;
err:
	kf_input_glue_destroy(g);
	return -ENOMEM;
}

void kf_input_glue_destroy(struct kf_input_glue *g)
{
	if (!g)
		return;
	kf_source_remove(g->src);
	input_destroy(g->in);
	kf_timer_remove(g->repeat);
	kf_timer_remove(g->edge);
	free(g);
}

int kf_input_glue_start(struct kf_input_glue *g, const char *seat)
{
	int r = input_start(g->in, seat);

	if (r < 0) {
		log_err("cannot start libinput on %s: %s", seat ? seat : "seat0", strerror(-r));
		return r;
	}
	g->src = kf_loop_add_fd(g->loop, input_get_fd(g->in), EPOLLIN, KF_PRIO_INPUT, input_readable, g);
	if (!g->src)
		return -errno;
	log_info("%u keyboards, %u pointers", input_keyboard_count(g->in), input_pointer_count(g->in));
	return 0;
}

void kf_input_glue_suspend(struct kf_input_glue *g)
{
	/* before libinput's releases of the keys held, which input_suspend delivers */
	memset(g->down, 0, sizeof(g->down));
	input_suspend(g->in);
	/* releases of keys held now come on another VT, or never */
	memset(g->grabbed, 0, sizeof(g->grabbed));
	g->buttons_held = 0;
	g->app_held = 0;
	g->selecting = false;
	g->drag_pending = false;
	g->paste_armed = false;
	g->extend_armed = false;
}

void kf_input_glue_resume(struct kf_input_glue *g)
{
	if (input_resume(g->in) < 0)
		log_warn("libinput did not resume: no keyboard until the next VT switch");
}

void kf_input_glue_set_geometry(struct kf_input_glue *g, int width, int height, int cell_width, int cell_height)
{
	g->width = width;
	g->height = height;
	g->cell_w = cell_width;
	g->cell_h = cell_height;
}

void kf_input_glue_output(struct kf_input_glue *g)
{
	struct grid *gr = grid_of(g);

	/* not from under a press or a selection being dragged in the history: its end would jump to the bottom,
	 * or the drag would start on another line than the one pressed */
	if (gr && grid_view_offset(gr) && !g->selecting)
		scroll_view(g, -grid_view_offset(gr));
}

struct input *kf_input_glue_input(struct kf_input_glue *g)
{
	return g->in;
}
