/* input/input.c: libinput on the seat (udev backend), devices and pointer events.
 *
 * libinput opens every evdev node through open_restricted, which we forward to the program (libseat owns
 * the fds, so a VT switch revokes them). Keys from several keyboards are merged with libinput's seat-wide
 * key count, as weston does: a key held on two keyboards is one press and one release.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libinput.h>
#include <libudev.h>

#include "input/input-internal.h"

/* Touchpad and continuous scrolling: pixels per emitted line step (libinput's "wheel-equivalent" is
 * about 15 degrees, 10-15 px of finger motion on most touchpads). */
#define SCROLL_PX_PER_STEP 15.0

static void (*log_handler)(int prio, const char *file, int line, const char *fmt, va_list ap);

void input_set_log_handler(void (*handler)(int prio, const char *file, int line, const char *fmt, va_list ap))
{
	log_handler = handler;
}

/* input_log_capture: set on a worker thread only */
static _Thread_local struct input_log_buf *log_capture;

void input_log_capture(struct input_log_buf *b)
{
	log_capture = b;
}

void input_log_replay(const struct input_log_buf *b)
{
	unsigned i = 0;
	for (const char *line = b->text, *nl; i < b->n && (nl = strchr(line, '\n')); line = nl + 1, i++)
		input_log_at(line[0] - '0', b->at[i].file, b->at[i].line, "%.*s", (int)(nl - line - 1), line + 1);
	if (b->dropped)
		input_log(4, "%u more messages of the keymap's compile not logged", b->dropped);
}

void input_log_at(int prio, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (log_capture) {
		struct input_log_buf *b = log_capture;
		size_t room = sizeof(b->text) - b->len;
		int n = snprintf(b->text + b->len, room, "%d", prio);
		int m = n > 0 && (size_t)n < room ? vsnprintf(b->text + b->len + n, room - (size_t)n, fmt, ap) : -1;
		/* whole lines only, with their newline (a message with one of its own is cut there) */
		if (m >= 0 && (size_t)(n + m) + 1 < room && b->n < INPUT_LOG_BUF_MAX) {
			char *text = b->text + b->len;
			text[strcspn(text, "\n")] = 0;
			b->len += strlen(text);
			b->text[b->len++] = '\n';
			b->text[b->len] = 0;
			b->at[b->n].file = file;
			b->at[b->n++].line = line;
		} else {
			b->text[b->len] = 0;
			b->dropped++;
		}
	} else if (log_handler) {
		log_handler(prio, file, line, fmt, ap);
	} else {
		fprintf(stderr, "input: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

/* Puts a freshly opened evdev fd on CLOCK_MONOTONIC (libinput's clock) with an empty queue, at once.
 *
 * A new evdev client starts on CLOCK_REALTIME, and the kernel's EVIOCSCLOCKID, when it changes the clock of
 * a client whose queue is not empty, flushes the queue and queues a SYN_DROPPED (evdev_set_clk_type). libinput
 * sets the clock only after its own drain and libevdev's dozens of ioctls (milliseconds under TCG), so a key
 * event in between (the release ending the Ctrl+Alt+Fn that brought us here) left a SYN_DROPPED on the fd. It
 * is read with the next key, and libevdev then syncs: its EVIOCGKEY drops every key event queued until
 * libinput reads the fd and reports only the difference in key state. A whole Ctrl+Alt+Fn typed while the
 * instance was busy with its modeset came out as "Alt down" (seen in the VM, docs/seat.md, "The fifth cause").
 * Draining and setting the clock here, two syscalls apart, makes libinput's own EVIOCSCLOCKID a no-op. The
 * events drained are the ones libinput drains anyway: their key state is read at libevdev's setup. */
static void settle_evdev_fd(int fd, const char *path)
{
	struct input_event evs[16];
	int clock = CLOCK_MONOTONIC;
	struct pollfd p = {.fd = fd, .events = POLLIN};

	/* poll first: the seat may hand out a blocking fd. Bounded: a device cannot outrun 64 reads here. */
	for (int i = 0; i < 64 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN); i++) {
		if (read(fd, evs, sizeof(evs)) <= 0)
			break;
	}
	if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0)
		input_log(7, "cannot set the clock of %s: %s", path, strerror(errno));
}

static int open_restricted(const char *path, int flags, void *user_data)
{
	struct input *in = user_data;
	int fd;

	if (!in->cb.open_device)
		return -ENODEV;
	fd = in->cb.open_device(in->ctx, path, flags);
	/* EPERM: the seat disabled us while libinput reopens its devices (a quick switch away, docs/seat.md) */
	if (fd < 0)
		input_log(fd == -EPERM ? 7 : 4, "cannot open %s through the seat: %s", path, strerror(-fd));
	else
		settle_evdev_fd(fd, path);
	if (fd >= 0 && in->n_fds < INPUT_FDS_MAX && strlen(path) < sizeof(in->fds[0].node)) {
		in->fds[in->n_fds].fd = fd;
		memcpy(in->fds[in->n_fds++].node, path, strlen(path) + 1);
	}
	return fd;
}

/* Why the device at node is going away, its fd being closed by libinput: the seat took it back when the device
 * is still there (our own suspend, or a revoke), else it was unplugged. A dead evdev device refuses to open
 * (ENODEV) even while its node is still in /dev, which libinput's read of ENODEV may come before; a live one
 * opens, or refuses us by permission only (not root). The fd is closed at once and never read. */
static enum input_gone why_gone(const struct input *in, const char *node)
{
	if (in->suspended)
		return INPUT_GONE_SEAT;
	int fd = open(node, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return INPUT_GONE_SEAT;
	}
	return errno == EACCES || errno == EPERM ? INPUT_GONE_SEAT : INPUT_GONE_UNPLUGGED;
}

/* libinput closes a device's fd when it removes the device (unplugged, its fd revoked by the seat, or all of
 * them at a suspend), after it has queued the releases of the keys and buttons held on it and before we read
 * those: the device is marked gone, with why, so that they can be told from the user's. */
static void mark_gone(struct input *in, int fd)
{
	for (unsigned i = 0; i < in->n_fds; i++) {
		if (in->fds[i].fd != fd)
			continue;
		for (struct input_dev *d = in->devs; d; d = d->next) {
			if (!d->gone && !strcmp(d->node, in->fds[i].node))
				d->gone = why_gone(in, d->node);
		}
		in->fds[i] = in->fds[--in->n_fds];
		return;
	}
}

static void close_restricted(int fd, void *user_data)
{
	struct input *in = user_data;

	mark_gone(in, fd);
	if (in->cb.close_device)
		in->cb.close_device(in->ctx, fd);
}

static const uint32_t seed_keys[] = {KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTALT,  KEY_RIGHTALT,
				     KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_LEFTMETA, KEY_RIGHTMETA};

#define N_SEED_KEYS (sizeof(seed_keys) / sizeof(seed_keys[0]))

/* Which of seed_keys the kernel says are down on the keyboard only, or on any open keyboard when only is
 * NULL (bit i: seed_keys[i]).
 *
 * Never asked on the fd libinput reads: EVIOCGKEY also drops the key events queued on the fd it is asked on
 * (the kernel's evdev_handle_get_val flushes them, since the caller has the state now), so a key pressed
 * just before the ioctl never reached libinput (seen in the VM: Ctrl+Alt+F2 typed while a keyboard was being
 * added arrived as Ctrl alone). A private, short-lived fd of the same node has its own queue; it is opened
 * only while the seat is ours (a key event or a device just added), never read, and closed at once. Without
 * the right to open the node (not root), nothing is seeded. */
static uint8_t held_modifiers(const struct input *in, const struct input_dev *only)
{
	unsigned long bits[KEY_MAX / (8 * sizeof(unsigned long)) + 1];
	const unsigned w = 8 * sizeof(unsigned long);
	uint8_t held = 0;

	for (const struct input_dev *d = in->devs; d; d = d->next) {
		if (!d->keyboard || !d->node[0] || (only && d != only))
			continue;
		int fd = open(d->node, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			input_log(7, "cannot open %s for its key state: %s", d->node, strerror(errno));
			continue;
		}
		memset(bits, 0, sizeof(bits));
		int r = ioctl(fd, EVIOCGKEY(sizeof(bits)), bits);
		close(fd);
		if (r < 0)
			continue;
		for (size_t i = 0; i < N_SEED_KEYS; i++)
			if ((bits[seed_keys[i] / w] >> (seed_keys[i] % w)) & 1)
				held |= (uint8_t)(1u << i);
	}
	return held;
}

static bool is_held(uint8_t held, uint32_t key)
{
	for (size_t i = 0; i < N_SEED_KEYS; i++)
		if (seed_keys[i] == key)
			return (held >> i) & 1;
	return false;
}

/* Modifiers the kernel reports down but libinput never reported pressed are pressed into the xkb state
 * ("seeded"). Two cases: a keyboard opened while modifiers are held (Ctrl+Alt still down from the
 * Ctrl+Alt+Fn that brought us here: libinput reports no press for them, so the next F1 would be a plain
 * F1), and a press lost in an evdev buffer overrun (SYN_DROPPED: libinput resynchronises its state without
 * telling us of the keys that went down), seen in the VM right after a VT switch. The first reads the
 * keyboard only, the second every keyboard (only NULL). why names the case for the debug log. */
static void seed_held_modifiers(struct input *in, const struct input_dev *only, const char *why)
{
	uint8_t held = 0;
	bool read = false;

	for (size_t i = 0; i < N_SEED_KEYS; i++) {
		uint32_t key = seed_keys[i];
		bool seeded = (in->mods_down >> i) & 1;
		for (unsigned j = 0; j < in->n_seeds; j++)
			seeded |= in->seeds[j] == key;
		if (seeded || in->n_seeds >= INPUT_SEEDS_MAX)
			continue;
		if (!read) {
			held = held_modifiers(in, only);
			read = true;
		}
		if (!((held >> i) & 1))
			continue;
		in->seeds[in->n_seeds++] = key;
		xkb_state_update_key(in->kbd.state, key + 8, XKB_KEY_DOWN);
		input_log(7, "key %u held, its press not reported (%s): counted as pressed", key, why);
	}
}

/* Keeps mods_down in step with libinput's reports; returns false when key is no modifier of seed_keys. */
static bool track_modifier(struct input *in, uint32_t key, bool pressed, uint32_t count)
{
	for (size_t i = 0; i < N_SEED_KEYS; i++) {
		if (seed_keys[i] != key)
			continue;
		if (pressed && count == 1)
			in->mods_down |= (uint8_t)(1u << i);
		else if (!pressed && count == 0)
			in->mods_down &= (uint8_t)~(1u << i);
		return true;
	}
	return false;
}

/* Before a key or pointer event: releases (in xkb) the seeded modifiers the kernel no longer reports down,
 * and the one a key event is about (libinput now reports that key itself). */
static void sync_seeds(struct input *in, uint32_t key)
{
	uint8_t held = held_modifiers(in, NULL);

	for (unsigned j = 0; j < in->n_seeds;) {
		if (in->seeds[j] == key || !is_held(held, in->seeds[j])) {
			xkb_state_update_key(in->kbd.state, in->seeds[j] + 8, XKB_KEY_UP);
			in->seeds[j] = in->seeds[--in->n_seeds];
			continue;
		}
		j++;
	}
}

void input_sync_seeds(struct input *in)
{
	if (in->n_seeds)
		sync_seeds(in, 0);
}

static const struct libinput_interface li_iface = {
	.open_restricted = open_restricted,
	.close_restricted = close_restricted,
};

static void li_log(struct libinput *li, enum libinput_log_priority p, const char *fmt, va_list ap)
{
	int prio = p == LIBINPUT_LOG_PRIORITY_ERROR ? 3 : p == LIBINPUT_LOG_PRIORITY_INFO ? 6 : 7;
	char line[512];

	/* libinput's lines end in '\n'; ours do not. */
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	/* libinput says so only in its log: the kernel dropped events (a client buffer overrun). */
	if (strstr(line, "SYN_DROPPED")) {
		struct input *in = libinput_get_user_data(li);
		if (in)
			in->overrun = true;
	}
	input_log(prio, "libinput: %s", line);
}

struct input *input_create(const struct input_config *cfg, const struct input_callbacks *cb, void *ctx)
{
	struct input *in = calloc(1, sizeof(*in));
	static const struct input_config defaults;

	if (!in)
		return NULL;
	in->cb = *cb;
	in->ctx = ctx;
	if (input_kbd_init(&in->kbd, cfg ? cfg : &defaults) < 0) {
		free(in);
		return NULL;
	}
	return in;
}

void input_destroy(struct input *in)
{
	struct input_dev *d, *next;

	if (!in)
		return;
	for (d = in->devs; d; d = next) {
		next = d->next;
		libinput_device_unref(d->dev);
		free(d);
	}
	in->devs = NULL; /* close_restricted (mark_gone) reads the list */
	if (in->li)
		libinput_unref(in->li); /* closes the devices through close_restricted */
	if (in->udev)
		udev_unref(in->udev);
	input_kbd_finish(&in->kbd);
	free(in);
}

int input_start(struct input *in, const char *seat)
{
	int r;

	if (in->li)
		return -EALREADY;
	in->udev = udev_new();
	if (!in->udev)
		return -ENOMEM;
	in->li = libinput_udev_create_context(&li_iface, in, in->udev);
	if (!in->li) {
		r = -ENOMEM;
		goto err_udev;
	}
	libinput_log_set_handler(in->li, li_log);
	libinput_log_set_priority(in->li, LIBINPUT_LOG_PRIORITY_INFO);
	if (libinput_udev_assign_seat(in->li, seat ? seat : "seat0") < 0) {
		input_log(3, "libinput cannot use seat %s (is udev running and its database populated?)",
			  seat ? seat : "seat0");
		r = -EIO;
		goto err_li;
	}
	return input_dispatch(in);

err_li:
	libinput_unref(in->li);
	in->li = NULL;
err_udev:
	udev_unref(in->udev);
	in->udev = NULL;
	return r;
}

int input_get_fd(const struct input *in)
{
	return in->li ? libinput_get_fd(in->li) : -1;
}

void input_update_leds(struct input *in, struct libinput_device *dev)
{
	unsigned leds = input_leds(in);

	if (dev) {
		libinput_device_led_update(dev, (enum libinput_led)leds);
		return;
	}
	if (leds == in->kbd.leds)
		return;
	in->kbd.leds = leds;
	for (struct input_dev *d = in->devs; d; d = d->next) {
		if (d->keyboard)
			libinput_device_led_update(d->dev, (enum libinput_led)leds);
	}
}

static void device_added(struct input *in, struct libinput_device *dev)
{
	struct input_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return;
	d->dev = libinput_device_ref(dev);
	struct udev_device *ud = libinput_device_get_udev_device(dev);
	const char *node = ud ? udev_device_get_devnode(ud) : NULL;
	if (node && strlen(node) < sizeof(d->node))
		memcpy(d->node, node, strlen(node) + 1);
	if (ud)
		udev_device_unref(ud);
	d->keyboard = libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD);
	d->pointer = libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER);
	/* Touchpads: tap to click (off by default in libinput); two-finger scrolling is libinput's default. */
	if (libinput_device_config_tap_get_finger_count(dev) > 0)
		libinput_device_config_tap_set_enabled(dev, LIBINPUT_CONFIG_TAP_ENABLED);
	if (d->keyboard)
		input_update_leds(in, dev);
	input_dev_add(in, d, libinput_device_get_name(dev));
	input_log(6, "device added: %s%s%s", libinput_device_get_name(dev), d->keyboard ? " (keyboard)" : "",
		  d->pointer ? " (pointer)" : "");
}

void input_dev_add(struct input *in, struct input_dev *d, const char *name)
{
	d->next = in->devs;
	in->devs = d;
	/* Its own keys only: what the others held when they were added is seeded already, and what went down
	 * on them since, libinput reported (mods_down). Reading every keyboard here made n keyboards cost
	 * n(n+1)/2 opens at start. */
	if (d->keyboard)
		seed_held_modifiers(in, d, name);
}

static void device_removed(struct input *in, struct libinput_device *dev)
{
	for (struct input_dev **p = &in->devs; *p; p = &(*p)->next) {
		struct input_dev *d = *p;
		if (d->dev != dev)
			continue;
		*p = d->next;
		input_log(6, "device removed: %s", libinput_device_get_name(dev));
		libinput_device_unref(d->dev);
		free(d);
		return;
	}
}

static enum input_gone device_gone(const struct input *in, struct libinput_device *dev)
{
	for (const struct input_dev *d = in->devs; d; d = d->next) {
		if (d->dev == dev)
			return d->gone;
	}
	return INPUT_GONE_NOT;
}

static void emit_pointer(struct input *in, struct input_pointer_event *pe)
{
	/* Modifiers seeded as held (Ctrl+Alt of the Ctrl+Alt+Fn that brought us back) and let go before any
	 * other key: libinput reports no release for them, so without this the clicks and wheel steps until the
	 * next key would carry them (a Ctrl+Alt click reported to the application). Opens the keyboards' nodes
	 * only while a seed is left, i.e. until the kernel says the keys are up. */
	if (in->n_seeds)
		sync_seeds(in, 0);
	pe->mods = input_kbd_mods(&in->kbd);
	if (in->cb.pointer)
		in->cb.pointer(in->ctx, pe);
}

/* Wheels report 120 per notch (finer on high-resolution wheels); touchpads and trackpoints report pixels.
 * Both become whole steps here (input_scroll_steps: bounded, whatever the device reports), the remainder
 * kept for the next event. */
static void handle_scroll(struct input *in, struct libinput_event_pointer *p, enum libinput_event_type t)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_SCROLL,
					 .time_usec = libinput_event_pointer_get_time_usec(p)};
	static const enum libinput_pointer_axis axes[2] = {LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL,
							   LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL};

	for (int i = 0; i < 2; i++) {
		int *steps = i ? &pe.steps_h : &pe.steps_v;
		if (!libinput_event_pointer_has_axis(p, axes[i]))
			continue;
		if (t == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL) {
			double *acc = i ? &in->wheel_acc_h : &in->wheel_acc_v;
			*steps = input_scroll_steps(acc, libinput_event_pointer_get_scroll_value_v120(p, axes[i]),
						    120.0);
		} else {
			double *acc = i ? &in->scroll_acc_h : &in->scroll_acc_v;
			double v = libinput_event_pointer_get_scroll_value(p, axes[i]);
			if (v == 0.0) { /* a finger lifted: scrolling stopped, forget the remainder */
				*acc = 0;
				continue;
			}
			*steps = input_scroll_steps(acc, v, SCROLL_PX_PER_STEP);
		}
	}
	if (pe.steps_v || pe.steps_h)
		emit_pointer(in, &pe);
}

static void handle_pointer(struct input *in, struct libinput_event *ev, enum libinput_event_type t)
{
	struct libinput_event_pointer *p = libinput_event_get_pointer_event(ev);
	struct input_pointer_event pe = {.time_usec = libinput_event_pointer_get_time_usec(p)};

	switch (t) {
	case LIBINPUT_EVENT_POINTER_MOTION:
		pe.type = INPUT_POINTER_MOTION;
		pe.dx = libinput_event_pointer_get_dx(p);
		pe.dy = libinput_event_pointer_get_dy(p);
		break;
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
		pe.type = INPUT_POINTER_MOTION_ABSOLUTE;
		pe.x = libinput_event_pointer_get_absolute_x_transformed(p, 1 << 16) / (double)(1 << 16);
		pe.y = libinput_event_pointer_get_absolute_y_transformed(p, 1 << 16) / (double)(1 << 16);
		break;
	case LIBINPUT_EVENT_POINTER_BUTTON: {
		bool pressed = libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED;
		uint32_t count = libinput_event_pointer_get_seat_button_count(p);
		/* Seat-wide: only the first press and the last release of a button count. */
		if ((pressed && count != 1) || (!pressed && count != 0))
			return;
		pe.type = INPUT_POINTER_BUTTON;
		pe.button = libinput_event_pointer_get_button(p);
		pe.pressed = pressed;
		pe.gone = pressed ? INPUT_GONE_NOT : device_gone(in, libinput_event_get_device(ev));
		break;
	}
	default:
		handle_scroll(in, p, t);
		return;
	}
	emit_pointer(in, &pe);
}

static void handle_event(struct input *in, struct libinput_event *ev)
{
	enum libinput_event_type t = libinput_event_get_type(ev);

	switch (t) {
	case LIBINPUT_EVENT_DEVICE_ADDED:
		device_added(in, libinput_event_get_device(ev));
		break;
	case LIBINPUT_EVENT_DEVICE_REMOVED:
		device_removed(in, libinput_event_get_device(ev));
		break;
	case LIBINPUT_EVENT_KEYBOARD_KEY: {
		struct libinput_event_keyboard *k = libinput_event_get_keyboard_event(ev);
		bool pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED;
		uint32_t count = libinput_event_keyboard_get_seat_key_count(k);
		uint32_t key = libinput_event_keyboard_get_key(k);
		if (in->n_seeds)
			sync_seeds(in, key);
		/* After an overrun, before the next press of another key: modifiers whose press was lost. */
		if (!track_modifier(in, key, pressed, count) && pressed && count == 1 && in->overrun) {
			in->overrun = false;
			seed_held_modifiers(in, NULL, "lost in an overrun"); /* which device overran is not said */
		}
		in->key_gone = pressed ? INPUT_GONE_NOT : device_gone(in, libinput_event_get_device(ev));
		if ((pressed && count == 1) || (!pressed && count == 0))
			input_kbd_key(in, libinput_event_keyboard_get_key(k), pressed,
				      libinput_event_keyboard_get_time_usec(k));
		in->key_gone = INPUT_GONE_NOT;
		break;
	}
	case LIBINPUT_EVENT_POINTER_MOTION:
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
	case LIBINPUT_EVENT_POINTER_BUTTON:
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		handle_pointer(in, ev, t);
		break;
	default:
		/* LIBINPUT_EVENT_POINTER_AXIS duplicates the SCROLL_* events (libinput >= 1.19); touch,
		 * tablet and gesture events have no use on a console yet. */
		break;
	}
}

int input_dispatch(struct input *in)
{
	struct libinput_event *ev;
	int r;

	if (!in->li)
		return 0;
	r = libinput_dispatch(in->li);
	if (r < 0)
		return r;
	while ((ev = libinput_get_event(in->li))) {
		handle_event(in, ev);
		libinput_event_destroy(ev);
	}
	return 0;
}

void input_suspend(struct input *in)
{
	if (in->suspended)
		return;
	in->suspended = true;
	if (in->li) {
		libinput_suspend(in->li);
		/* Drain the device-removed and key-release events libinput queued, then forget any state. */
		input_dispatch(in);
	}
	input_kbd_reset(in);
	in->n_seeds = 0; /* the fresh xkb state has no key down */
	in->mods_down = 0;
	in->overrun = false;
	in->scroll_acc_v = in->scroll_acc_h = 0;
	in->wheel_acc_v = in->wheel_acc_h = 0;
}

int input_resume(struct input *in)
{
	int r;

	if (!in->suspended)
		return 0;
	in->suspended = false;
	if (!in->li)
		return 0;
	r = libinput_resume(in->li);
	if (r < 0)
		return -EIO;
	in->kbd.leds = ~0u; /* push the lock LEDs again to the reopened keyboards */
	return input_dispatch(in);
}

void input_inject_key(struct input *in, uint32_t keycode, bool pressed, uint64_t time_usec)
{
	input_kbd_key(in, keycode, pressed, time_usec);
}

void input_inject_pointer(struct input *in, const struct input_pointer_event *ev)
{
	struct input_pointer_event pe = *ev;

	emit_pointer(in, &pe);
}

static unsigned count_devs(const struct input *in, bool keyboard)
{
	unsigned n = 0;

	for (const struct input_dev *d = in->devs; d; d = d->next)
		n += keyboard ? d->keyboard : d->pointer;
	return n;
}

unsigned input_keyboard_count(const struct input *in)
{
	return count_devs(in, true);
}

unsigned input_pointer_count(const struct input *in)
{
	return count_devs(in, false);
}
