/* kmscon-felis/input-glue.c: key events to the session, the view and the seat, and the input module's loop plumbing
 * (input-glue.h); pointer events are input-pointer.c's. */
#define LOG_TAG "input"

#include "kmscon-felis/input-glue.h"
#include "kmscon-felis/input-glue-internal.h"

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

struct grid *kf_glue_grid(struct kf_input_glue *g)
{
	return g->ops.grid ? g->ops.grid(g->ud) : NULL;
}

void kf_glue_send(struct kf_input_glue *g, const void *data, size_t len)
{
	if (len && g->ops.write && g->ops.write(g->ud, data, len) < 0)
		log_debug("a key was dropped: the PTY write queue is full");
}

void kf_glue_redraw(struct kf_input_glue *g)
{
	if (g->ops.redraw)
		g->ops.redraw(g->ud);
}

void kf_glue_scroll_view(struct kf_input_glue *g, int delta)
{
	struct grid *gr = kf_glue_grid(g);

	if (!gr)
		return;
	int before = grid_view_offset(gr);
	if (grid_view_scroll(gr, delta) != before)
		kf_glue_redraw(g);
}

void kf_glue_paste(struct kf_input_glue *g)
{
	struct grid *gr = kf_glue_grid(g);
	char *text = NULL;
	size_t len = 0;

	if (kf_clipboard_get(&text, &len) == 0 && len && g->ops.paste) {
		/* the view's offset is read only from a grid there is (the session may have none yet) */
		if (gr)
			kf_glue_scroll_view(g, -grid_view_offset(gr));
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
	struct grid *gr = kf_glue_grid(g);
	/* a page is the screen's height, as kmscon's (tsm_screen_sb_page_up), foot's and xterm's "page" unit */
	int page = gr ? grid_rows(gr) : 1;
	int vt = kf_key_vt_switch(ev);

	if (vt) {
		switch_vt(g, vt);
		return true;
	}
	if (kf_grab_match(&c->grab_scroll_up, ev))
		kf_glue_scroll_view(g, 1);
	else if (kf_grab_match(&c->grab_scroll_down, ev))
		kf_glue_scroll_view(g, -1);
	else if (kf_grab_match(&c->grab_page_up, ev))
		kf_glue_scroll_view(g, page);
	else if (kf_grab_match(&c->grab_page_down, ev))
		kf_glue_scroll_view(g, -page);
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
		kf_glue_paste(g);
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
	struct grid *gr = kf_glue_grid(g);

	memset(m, 0, sizeof(*m));
	/* --backspace-delete is DECBKM's power-on state, given to the grid by the session (a reload: from the next
	 * login, kf_session_set_backspace); the application may change it (DECSET/DECRST 67), as in xterm. The
	 * grid's mode decides; the configuration only without a grid. */
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
	/* The release libinput makes as the seat takes the keyboard back (a VT switch away) is dropped as those of
	 * our suspend are (kf_input_glue_suspend): seatd and libseat's builtin backend revoke the fds before our
	 * disable handler runs, so under the kitty protocol's event types the keys held at a switch had their
	 * releases sent (console-kitty-release-away). A keyboard unplugged is no focus change: its releases are. */
	if (ev->action == INPUT_KEY_RELEASE && ev->gone == INPUT_GONE_SEAT) {
		uint64_t bit, *d = key_word(g->down, ev, &bit), *k = key_word(g->grabbed, ev, &bit);
		if (d)
			*d &= ~bit;
		if (k)
			*k &= ~bit;
		return;
	}
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
	if (typing && kf_glue_grid(g) && grid_view_offset(kf_glue_grid(g)))
		kf_glue_scroll_view(g, -grid_view_offset(kf_glue_grid(g)));
	kf_glue_send(g, buf, n);
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
	struct input_callbacks cb = {.key = on_key, .pointer = kf_glue_on_pointer, .open_device = open_device,
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
	g->edge = kf_loop_add_timer(loop, kf_glue_edge_scroll, g);
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
	kf_input_glue_keymap_cancel(g); /* the worker's keymap is compared with in's at its end */
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
	kf_glue_forget_buttons(g);
}

void kf_input_glue_new_login(struct kf_input_glue *g)
{
	input_end_sequence(g->in);
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
	/* a smaller area (a mode of a new display, a zoom, a turn) must not leave the pointer drawn off it, nor
	 * swallow the first move back */
	kf_glue_clamp_pointer(g);
}

void kf_input_glue_output(struct kf_input_glue *g)
{
	struct grid *gr = kf_glue_grid(g);

	/* not from under a press or a selection being dragged in the history: its end would jump to the bottom,
	 * or the drag would start on another line than the one pressed */
	if (gr && grid_view_offset(gr) && !g->selecting)
		kf_glue_scroll_view(g, -grid_view_offset(gr));
}

struct input *kf_input_glue_input(struct kf_input_glue *g)
{
	return g->in;
}
