/* input/input.h: keyboards and pointers on a seat.
 *
 * libinput (udev backend) finds the seat's evdev devices and opens them through callbacks the program
 * provides (libseat owns the device fds); xkbcommon turns key codes into keysyms and text with the
 * configured keymap, compose sequences and locks; key repeat is done here in software on a timer the
 * program arms; Caps/Num/Scroll Lock LEDs follow the keyboard state. The result is a stream of key and
 * pointer events for the program. Nothing here knows about terminals.
 *
 * Everything runs on the caller's thread: input_dispatch() when the fd from input_get_fd() is readable,
 * input_timer_expired() when the deadline passed to the arm_timer callback is reached.
 */
#ifndef INPUT_INPUT_H
#define INPUT_INPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Modifier bits of key and pointer events (the same bits as the kitty keyboard protocol). */
enum input_mod {
	INPUT_MOD_SHIFT = 1 << 0,
	INPUT_MOD_ALT = 1 << 1,
	INPUT_MOD_CTRL = 1 << 2,
	INPUT_MOD_SUPER = 1 << 3,
	INPUT_MOD_HYPER = 1 << 4,
	INPUT_MOD_META = 1 << 5,
	INPUT_MOD_CAPS = 1 << 6,
	INPUT_MOD_NUM = 1 << 7,
};

enum input_key_action {
	INPUT_KEY_PRESS = 1,
	INPUT_KEY_REPEAT = 2,
	INPUT_KEY_RELEASE = 3,
};

/* Room for the text of one key event: a compose result can be a whole string, and xkbcommon (1.5) refuses
 * the strings of a compose file from 255 bytes on, so that any result it gives fits with its NUL. */
#define INPUT_UTF8_MAX 256

/* Why a release was made up by libinput rather than made by the user: its device went away while the key or
 * button was held, and libinput releases what was held on it. */
enum input_gone {
	INPUT_GONE_NOT = 0,   /* the user let go */
	INPUT_GONE_UNPLUGGED, /* the device is no more (unplugged) */
	/* The seat took the device back: a VT switch away. seatd and libseat's builtin backend revoke the fds
	 * before our disable handler runs (libinput then removes the devices), or our own suspend closed them. */
	INPUT_GONE_SEAT,
};

struct input_key_event {
	uint64_t time_usec;          /* the kernel's event time (CLOCK_MONOTONIC); for repeats the timer's */
	uint32_t keycode;            /* evdev code (KEY_A = 30) */
	uint32_t keysym;             /* xkb keysym with the current modifiers and layout (XKB_KEY_*) */
	enum input_key_action action;
	unsigned mods;               /* enum input_mod bits in effect for this key (after locks) */
	uint32_t cp;                 /* the character the key types with the current modifiers, before the Ctrl
				      * transformation ('A' for Ctrl+Shift+a); 0 when none. A finished compose
				      * sequence puts its first character here. */
	uint32_t unshifted;          /* the character of the key at shift level 1 of the current layout */
	uint32_t base;               /* the character of the same physical key in the US layout (Ctrl+С: 'c') */
	char utf8[INPUT_UTF8_MAX];   /* the text to type, NUL-terminated: cp as UTF-8, or a whole compose result */
	bool composing;              /* a dead key or compose sequence is in progress: type nothing */
	enum input_gone gone;        /* a release only */
};

enum input_pointer_type {
	INPUT_POINTER_MOTION,          /* dx, dy in screen pixels (accelerated) */
	INPUT_POINTER_MOTION_ABSOLUTE, /* x, y in 0..1 of the output (tablets, QEMU's usb-tablet) */
	INPUT_POINTER_BUTTON,          /* button (BTN_LEFT...), pressed; also tap-to-click */
	INPUT_POINTER_SCROLL,          /* steps_v/steps_h: whole wheel notches or touchpad-scroll lines */
};

struct input_pointer_event {
	enum input_pointer_type type;
	uint64_t time_usec;
	double dx, dy;
	double x, y;
	uint32_t button;
	bool pressed;
	int steps_v, steps_h;        /* positive: down / right; at most 32 either way from a device */
	unsigned mods;               /* keyboard modifiers held (Shift+click extends a selection) */
	enum input_gone gone;        /* a button's release only */
};

struct input_config {
	/* Keymap names (kmscon's --xkb-model/layout/variant/options); NULL or "" = not given. When all are
	 * unset and keymap_file is NULL, XKB_DEFAULT_*, then etc_default_keyboard, then etc_vconsole are read. */
	const char *model, *layout, *variant, *options;
	const char *keymap_file;       /* --xkb-keymap: a compiled keymap in text format v1 */
	const char *compose_file;      /* --xkb-compose-file; NULL = from the locale */
	const char *locale;            /* NULL = LC_ALL, LC_CTYPE or LANG, else "C" */
	unsigned repeat_delay_ms;      /* 0 = 250; UINT32_MAX turns repeat off */
	unsigned repeat_interval_ms;   /* ms between two repeats (kmscon's --xkb-repeat-rate, whose default 50 ms
					* is 20 repeats/s); 0 = 20 ms, i.e. 50 repeats/s */
	const char *etc_default_keyboard; /* NULL = /etc/default/keyboard (tests point elsewhere) */
	const char *etc_vconsole;      /* NULL = /etc/vconsole.conf */
	bool no_environment;           /* ignore XKB_DEFAULT_* (tests) */
};

struct input_callbacks {
	void (*key)(void *ctx, const struct input_key_event *ev);
	void (*pointer)(void *ctx, const struct input_pointer_event *ev);
	/* Opens an evdev node for libinput (through the seat); returns an fd or -errno. */
	int (*open_device)(void *ctx, const char *path, int flags);
	void (*close_device)(void *ctx, int fd);
	/* Arms the one repeat timer at an absolute CLOCK_MONOTONIC time in microseconds; 0 disarms. */
	void (*arm_timer)(void *ctx, uint64_t deadline_usec);
};

struct input;

/* Log handler for every message of this module (prio as syslog: 3 err, 4 warning, 6 info, 7 debug); file and
 * line are where in input/ the message comes from (static strings; libinput's and xkbcommon's messages name
 * the place that passes them on). NULL restores the default (stderr). */
void input_set_log_handler(void (*handler)(int prio, const char *file, int line, const char *fmt, va_list ap));

/* Compiles the keymap (a bad one falls back to "us" with a warning) and loads compose tables; no devices
 * yet. cfg's strings are copied; cb is copied and ctx (not owned) must outlive the object. Returns NULL on
 * failure (not even "us" compiles: xkb-data missing). */
struct input *input_create(const struct input_config *cfg, const struct input_callbacks *cb, void *ctx);
/* Accepts NULL. Closes every device through close_device. */
void input_destroy(struct input *in);

/* Starts libinput's udev backend on the named seat ("seat0"); devices are opened through open_device,
 * now and when hot-plugged. Returns 0 or -errno. */
int input_start(struct input *in, const char *seat);
/* libinput's fd (readable when events wait), or -1 before input_start. */
int input_get_fd(const struct input *in);
/* Reads and handles every pending event. Returns 0 or -errno. */
int input_dispatch(struct input *in);
/* The seat went away (VT switch): libinput closes its devices; held keys are released, repeat stops. */
void input_suspend(struct input *in);
/* Ends a dead-key or compose sequence in progress, its keys typing nothing (a new login starts: the last one's
 * half sequence must not finish in it). Held keys, locks and repeat stay. */
void input_end_sequence(struct input *in);
/* The seat came back: libinput reopens the devices. Returns 0 or -errno. */
int input_resume(struct input *in);

/* The repeat timer fired (now_usec: CLOCK_MONOTONIC). Emits a repeat if it is due and re-arms. */
void input_timer_expired(struct input *in, uint64_t now_usec);

/* Feeds one key as if a keyboard sent it (evdev code, pressed or released): unit tests, and keys the
 * program synthesises. */
void input_inject_key(struct input *in, uint32_t keycode, bool pressed, uint64_t time_usec);

/* Feeds one pointer event as if a device sent it (tests); mods is filled from the keyboard state. */
void input_inject_pointer(struct input *in, const struct input_pointer_event *ev);

/* A keymap and key repeat compiled for input_keymap_use (a configuration reload), not yet in use. */
struct input_keymap;

/* The keys held at input_keymap_use whose release is described as their press was (with the old keymap): the
 * first ones in key code order; a release of any other is described with the new keymap. */
#define INPUT_HELD_MAX 32

/* Compiles cfg's keymap as input_create does (names, keymap_file in a bounded child, else XKB_DEFAULT_*,
 * etc_default_keyboard, etc_vconsole) but with no fallback to "us", and takes its repeat_delay_ms and
 * repeat_interval_ms; cfg's compose and locale are not read (the compose table stays). With keymap false only
 * the repeat is taken (the keymap in use stays). Changes nothing in in but the memo of the last keymap file that
 * did not compile: a keymap file unchanged since it was last compiled here (struct input_file_id; one without
 * "include") gets that verdict at once, the same keymap as the one in use or its refusal, logged. Returns 0 and *out (the caller owns it:
 * input_keymap_use or input_keymap_free), or -EINVAL when it does not compile (the reason logged, naming the
 * names or the file), -ENOMEM, -ETIMEDOUT (a keymap file over its time bound), or why the keymap file does not
 * open (-ENOENT...); *out is NULL then. cfg's strings are not kept. A keymap that compiles to the one in use
 * (the same text form) is not kept: input_keymap_use then changes only the repeat and the name, and nothing
 * held, locked or half composed is reset. in may be NULL (a check before the seat's input exists): the keymap is
 * compiled with a context of its own and compared with nothing; such a km is only for input_keymap_free. */
int input_keymap_new(struct input *in, const struct input_config *cfg, bool keymap, struct input_keymap **out);
/* input_keymap_new(in, cfg, true, out) with the compile on a thread of its own, so that the caller's loop runs
 * meanwhile (keymap-async.c). Returns 1 and *out when no compile is needed (the keymap file in use, unchanged),
 * a negative error as input_keymap_new's when it is refused at once (the memo), else 0 and *job: its fd
 * (input_keymap_job_fd) becomes readable when the compile is done, and input_keymap_finish then ends it as
 * input_keymap_new would (its result, *out, the messages logged). cfg's strings are copied. Every job started
 * must be finished (it waits for the thread: up to the bounded child's time for a keymap file); nothing in in
 * may change meanwhile but through the loop's thread. */
struct input_keymap_job;
int input_keymap_start(struct input *in, const struct input_config *cfg, struct input_keymap_job **job,
		       struct input_keymap **out);
int input_keymap_job_fd(const struct input_keymap_job *job);
int input_keymap_finish(struct input *in, struct input_keymap_job *job, struct input_keymap **out);
/* Whether km has a keymap other than the one in use (false: the repeat only, or the same keymap). */
bool input_keymap_changes(const struct input_keymap *km);
/* Puts km in use for every keyboard of the seat, those open and those added later; takes ownership. With a new
 * keymap: modifier keys held (Shift, Ctrl, AltGr) still count until released; Caps, Num and Scroll Lock stay
 * as they were (and so do the LEDs), on the modifier the new keymap gives them; a lock key held across it does
 * at its release what it would have done (Caps Lock pressed to turn it off goes off); latched modifiers, a
 * compose or dead-key sequence in progress and the locked layout (back to the first) are reset;
 * a key repeating stops (its release comes once, as usual); the release of a key held across it is
 * described as its press was (INPUT_HELD_MAX). The repeat delay and interval apply from the next repeat; a
 * repeat turned off stops one in progress. */
void input_keymap_use(struct input *in, struct input_keymap *km);
/* Accepts NULL. */
void input_keymap_free(struct input_keymap *km);

/* The keymap in use, as "layout(variant)" names or "file:PATH"; owned by in, valid until destroy. */
const char *input_keymap_name(const struct input *in);
/* Which lock LEDs are lit: bit 0 Num, bit 1 Caps, bit 2 Scroll (libinput's enum libinput_led). */
unsigned input_leds(const struct input *in);
/* Number of keyboards / pointers currently open. */
unsigned input_keyboard_count(const struct input *in);
unsigned input_pointer_count(const struct input *in);

#endif
