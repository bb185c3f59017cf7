/* input/input-internal.h: what input.c (libinput, devices, pointer) and keyboard.c (xkbcommon) share. */
#ifndef INPUT_INPUT_INTERNAL_H
#define INPUT_INPUT_INTERNAL_H

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <sys/stat.h>

#include <xkbcommon/xkbcommon-compose.h>
#include <xkbcommon/xkbcommon.h>

#include "input/input.h"

struct libinput;
struct udev;

/* One open libinput device, in a singly linked list owned by struct input. */
struct input_dev {
	struct input_dev *next;
	struct libinput_device *dev; /* a reference we hold (libinput_device_ref) */
	char node[64];               /* its device node ("/dev/input/event3"), "" if unknown */
	bool keyboard;
	bool pointer;
	/* Set when libinput closes its fd (the device is being removed): the releases it makes now are its own. */
	enum input_gone gone;
};

/* The fds libinput has open (open_restricted) with their nodes, so that close_restricted, which gets the fd
 * alone, can tell which device is going away. A device past INPUT_FDS_MAX is not told so. */
#define INPUT_FDS_MAX 64

/* A keymap file as stat(2) saw it when it was compiled: a later reload of a file with the same identity (device,
 * inode, size, modification and change times) gets the same verdict without compiling it again, which for a
 * costly file took seconds of the loop at every reload (tests/kmscon-felis/test-reload-stall.c). Only a file that
 * includes nothing is so remembered: the files an include names may have changed. valid false: none. */
struct input_file_id {
	bool valid;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim, ctim;
};

struct input_kbd {
	struct xkb_context *ctx;
	struct xkb_keymap *keymap;
	struct xkb_state *state;
	struct xkb_keymap *us_keymap; /* for the "base layout key" of non-Latin layouts */
	struct xkb_compose_table *compose_table; /* NULL when the locale has none */
	struct xkb_compose_state *compose;
	xkb_mod_index_t mod_idx[8];  /* per enum input_mod bit; XKB_MOD_INVALID when absent */
	xkb_led_index_t led_idx[3];  /* Num, Caps, Scroll */
	unsigned leds;               /* last LED bits pushed to the devices */
	char name[256];              /* input_keymap_name() */
	bool long_text_said;         /* a text cut to INPUT_UTF8_MAX was logged (trim_torn_utf8) */

	/* Keys down in the xkb state, a bit per evdev code up to KEY_MAX: set by a press, cleared by its
	 * release or a suspend. A new keymap (input_keymap_use) presses them again into its state. */
	uint64_t held[KEY_CNT / 64];
	/* The locked real modifiers just before each key's last press: a new keymap presses a held lock key
	 * again with them, so that its release does what it would have (Caps Lock pressed to turn it off goes
	 * off at the release). */
	uint8_t locked_at_press[KEY_CNT];
	/* The keys held when the keymap last changed, described under the keymap they were pressed with: their
	 * release is described so (an application pairs a release with its press by key). Set by
	 * input_keymap_use, an entry cleared by that key's release or press, all by a suspend. */
	struct input_held_key {
		uint32_t keycode, keysym, cp, unshifted, base;
	} before[INPUT_HELD_MAX];
	unsigned n_before;

	/* Software repeat: set on a press of a repeating key, cleared by its release, another press,
	 * or a suspend. */
	uint32_t repeat_key;         /* evdev code, 0 = none */
	uint64_t repeat_next_usec;
	uint64_t repeat_delay_usec;
	uint64_t repeat_interval_usec;

	/* The keymap file the keymap in use was compiled from (set at start and by input_keymap_use; invalid for
	 * names), and the last keymap file that did not compile with why (file_refused_err; set by a compile that
	 * failed), both read by input_keymap_new. */
	struct input_file_id file_in_use, file_refused;
	int file_refused_err;
};

/* Modifier keys held when a keyboard was opened (a VT switch with Ctrl+Alt still down): pressed into the
 * xkb state from the kernel's key state, since libinput reports neither their press nor their release. */
#define INPUT_SEEDS_MAX 8

struct input {
	struct input_callbacks cb;
	uint32_t seeds[INPUT_SEEDS_MAX]; /* evdev codes */
	unsigned n_seeds;
	uint8_t mods_down; /* bit i: seed_keys[i] pressed as libinput reported it */
	bool overrun;      /* libinput logged SYN_DROPPED: check for lost modifier presses at the next key press */
	void *ctx;
	struct input_kbd kbd;
	struct udev *udev;
	struct libinput *li;
	struct input_dev *devs;
	struct {
		int fd;
		char node[64];
	} fds[INPUT_FDS_MAX];
	unsigned n_fds;
	enum input_gone key_gone; /* of the key event being handled (input_kbd_key reads it) */
	bool suspended;
	/* Touchpad scrolling arrives in pixels: kept here until it makes a whole line. */
	double scroll_acc_v, scroll_acc_h;
	double wheel_acc_v, wheel_acc_h; /* high-resolution wheels: 120 per notch */
};

/* Links d (takes ownership) into in's device list and, for a keyboard, presses into the xkb state the
 * modifiers it holds that libinput will not report (name, the device's, for the debug log). */
void input_dev_add(struct input *in, struct input_dev *d, const char *name);

/* Releases (in xkb) the seeded modifiers the kernel no longer reports down: libinput reports no release of
 * them, so each event that reads the modifiers checks first (a key, a pointer event, a repeat). Opens the
 * keyboards' nodes only while a seed is left. */
void input_sync_seeds(struct input *in);

/* The most scroll steps one event makes on one axis. A fast spin of a free-wheeling mouse wheel or a
 * flick on a touchpad makes a few per event; a device reporting more is broken or hostile. */
#define INPUT_SCROLL_STEPS_MAX 32

/* Adds the delta v (in device units, unit of them per step) to the remainder *acc and returns the whole
 * steps made, |steps| <= INPUT_SCROLL_STEPS_MAX, keeping |*acc| < unit. A NaN or infinite v (or *acc) counts
 * as no motion; steps beyond the bound are dropped, not kept for the next event. acc is owned by the
 * caller. */
int input_scroll_steps(double *acc, double v, double unit);

void input_log_at(int prio, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define input_log(prio, ...) input_log_at(prio, __FILE__, __LINE__, __VA_ARGS__)

/* The syslog priority of an xkbcommon message of that level. */
static inline int input_xkb_prio(enum xkb_log_level level)
{
	return level <= XKB_LOG_LEVEL_ERROR ? 4 : level <= XKB_LOG_LEVEL_WARNING ? 6 : 7;
}

/* What compiling a keymap file may cost (input_try_keymap_file): a full evdev keymap takes about 10 ms and
 * 3 MiB. */
#define INPUT_KEYMAP_TRY_MS 3000
#define INPUT_KEYMAP_TRY_MEM_MB 256
/* The highest XKB keycode a keymap file may declare: evdev's codes go to KEY_MAX (0x2ff), and input_kbd_key takes
 * up to 0xffff, xkb's 0xffff + 8. */
#define INPUT_KEYCODE_MAX (0xffffu + 8)
#define INPUT_STR_(x) #x
#define INPUT_STR(x) INPUT_STR_(x)

/* Compiles the keymap file at path in a child process with bounds (keymap-try.c). Returns 0 when it
 * compiles there (compile it here), -EINVAL when it does not (xkbcommon's reasons are logged), -ENOMEM
 * when the child reached the memory bound or crashed, -ETIMEDOUT when it ran out of time. ctx is not
 * owned; the child uses its copy. */
int input_try_keymap_file(struct xkb_context *ctx, const char *path);

/* What input_load_keymap needs of the environment (XKB_DEFAULT_*), read by input_keymap_env_read on the loop's
 * thread: a compile on the worker (keymap-async.c) must not call getenv, which a setenv on another thread makes
 * undefined. Nothing when cfg->no_environment. */
struct input_keymap_env {
	bool names;	  /* one of XKB_DEFAULT_LAYOUT, _MODEL, _VARIANT and _OPTIONS is set: no /etc file read */
	char layout[121]; /* XKB_DEFAULT_LAYOUT, as much as the keymap's name shows; "" when unset */
};
void input_keymap_env_read(const struct input_config *cfg, struct input_keymap_env *env);
/* The keymap cfg asks for (input/keymap-load.c), with env for what it leaves to the environment, named in name
 * (256 bytes: "layout(variant)" or "file:PATH"). Not strict (at start), one that does not compile falls back to
 * "us"; strict (a reload), it is NULL with *err set (-EINVAL, -ETIMEDOUT, -ENOMEM, or open's -errno) and the
 * reason logged. *err is left alone when cfg's keymap compiles. *file (not NULL) is the identity of cfg's keymap
 * file when it opened and includes nothing, compiled or not; else not valid. */
struct xkb_keymap *input_load_keymap(struct xkb_context *ctx, const struct input_config *cfg,
				     const struct input_keymap_env *env, char *name, bool strict, int *err,
				     struct input_file_id *file);
/* The identity of the file at path now (stat(2): false when there is none), and whether two are the same file
 * unchanged (false when either is not valid). */
bool input_file_id_of(const char *path, struct input_file_id *id);
bool input_file_id_same(const struct input_file_id *a, const struct input_file_id *b);
/* fopen(path, "re") for a regular file only, else NULL with errno EISDIR (a directory) or EINVAL (a FIFO, a
 * device, a socket); input_open_error says why in words. */
FILE *input_open_file(const char *path);
const char *input_open_error(int err);
/* The compose table of the file at path and the files it includes, read through input_open_file, max bytes in
 * all (input/compose-load.c); NULL with the reason logged. */
struct xkb_compose_table *input_compose_from_file(struct xkb_context *ctx, const char *path, const char *locale,
						  size_t max);
/* The user's compose file where xkbcommon's xkb_compose_table_new_from_locale looks for it: $XCOMPOSEFILE,
 * $XDG_CONFIG_HOME/XCompose (an absolute one) or ~/.config/XCompose, ~/.XCompose; the first that exists, in path
 * (cap bytes), else false. xkbcommon opens it with fopen(3) and no bound; read through input_compose_from_file
 * instead. */
#define INPUT_COMPOSE_PATH_MAX 4096
bool input_compose_user_file(char *path, size_t cap);
/* The compose table of locale alone (xkbcommon's "%L": /usr/share/X11/locale's), never the user's file; NULL when
 * the locale has none (xkbcommon says so). */
struct xkb_compose_table *input_compose_of_locale(struct xkb_context *ctx, const char *locale);

/* input_keymap_new in three steps, so that the compile can run on another thread (keymap-async.c). begin (the
 * loop's thread: it reads in's memo): a new *out with cfg's repeat; returns 1 when that settles it (no keymap
 * asked, or the keymap file in use unchanged), a negative error when the memo refuses it (*out NULL), 0 when the
 * keymap is to be compiled, by input_load_keymap(strict) in a context of input_keymap_context's (its own per
 * thread: xkbcommon's contexts are not thread-safe). end (the loop's thread again) takes compiled (or NULL with
 * err) and its name and file, and finishes as input_keymap_new. */
int input_keymap_begin(struct input *in, const struct input_config *cfg, bool keymap, struct input_keymap **out);
struct xkb_context *input_keymap_context(const struct input_config *cfg);
int input_keymap_end(struct input *in, struct input_keymap *km, struct xkb_keymap *compiled, const char *name,
		     const struct input_file_id *file, int err, struct input_keymap **out);
/* The messages input_log makes on the calling thread go to b (lines of "PRIO text\n", at most its size, and
 * where each was made, at most INPUT_LOG_BUF_MAX; the rest counted in dropped) instead of the handler, until
 * called with NULL: a worker thread's messages, logged by the loop's thread (input_log_replay) with the file and
 * line that made them, since the program's log handler is the loop's only. */
#define INPUT_LOG_BUF_MAX 128
struct input_log_buf {
	char text[8192];
	size_t len;
	unsigned n, dropped;
	struct {
		const char *file; /* __FILE__: a static string */
		int line;
	} at[INPUT_LOG_BUF_MAX];
};
void input_log_capture(struct input_log_buf *b);
void input_log_replay(const struct input_log_buf *b);

int input_kbd_init(struct input_kbd *k, const struct input_config *cfg);
void input_kbd_finish(struct input_kbd *k);
/* Handles a key from any keyboard of the seat (already merged across devices). */
void input_kbd_key(struct input *in, uint32_t keycode, bool pressed, uint64_t time_usec);
/* Forgets held keys and latched modifiers (locks stay), stops repeat. */
void input_kbd_reset(struct input *in);
/* enum input_mod bits in effect now. */
unsigned input_kbd_mods(const struct input_kbd *k);
/* Pushes the LED state to one device (a new keyboard) or, with dev NULL, to all keyboards if changed. */
void input_update_leds(struct input *in, struct libinput_device *dev);

#endif
