/* input/keyboard.c: xkbcommon keymap, compose, software key repeat and lock LEDs.
 *
 * Where the keymap comes from, first match wins: the configured names or keymap file (kmscon's --xkb-*
 * options), XKB_DEFAULT_* (read by xkbcommon itself when no name is given), /etc/default/keyboard
 * (Debian's XKBMODEL/XKBLAYOUT/XKBVARIANT/XKBOPTIONS), /etc/vconsole.conf (systemd's, same variable names),
 * then xkbcommon's built-in default ("us"). A keymap that does not compile falls back to "us" with a warning
 * naming what failed, so a typo in a layout never leaves the console without a keyboard.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon-names.h>

#include "input/input-internal.h"

#define DEFAULT_REPEAT_DELAY_MS 250
/* Milliseconds between two repeats when the caller gives 0 (50 repeats/s); the program always passes its
 * --xkb-repeat-rate (default 50 ms, 20 repeats/s, as kmscon). */
#define DEFAULT_REPEAT_INTERVAL_MS 20
/* Lines longer than this in /etc/default/keyboard are not variable assignments we care about. */
#define ETC_LINE_MAX 512

struct names {
	char model[128], layout[128], variant[128], options[256];
};

static bool set(const char *s)
{
	return s && *s;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

/* Parses one "KEY=value" line of a shell-style file (optionally quoted, "#" comments). */
static void parse_assignment(char *line, struct names *n)
{
	static const struct {
		const char *key;
		size_t off, cap;
	} keys[] = {
		{"XKBMODEL", offsetof(struct names, model), sizeof(((struct names *)0)->model)},
		{"XKBLAYOUT", offsetof(struct names, layout), sizeof(((struct names *)0)->layout)},
		{"XKBVARIANT", offsetof(struct names, variant), sizeof(((struct names *)0)->variant)},
		{"XKBOPTIONS", offsetof(struct names, options), sizeof(((struct names *)0)->options)},
	};
	char *p = line, *eq, *v, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "export ", 7))
		p += 7;
	eq = strchr(p, '=');
	if (!eq || *p == '#')
		return;
	*eq = 0;
	v = eq + 1;
	end = v + strcspn(v, "\r\n");
	*end = 0;
	if ((*v == '"' || *v == '\'') && end > v + 1 && end[-1] == *v) {
		v++;
		end[-1] = 0;
	} else {
		v[strcspn(v, " \t#")] = 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strcmp(p, keys[i].key))
			copy_name((char *)n + keys[i].off, keys[i].cap, v);
	}
}

/* fopen(path, "re") for a regular file only, else NULL with errno EISDIR (a directory) or EINVAL (a FIFO, a device,
 * a socket): a FIFO nobody writes made fopen wait for a writer for ever, and the console never took keys. */
static FILE *open_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK); /* no effect on a regular file's reads */
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = err;
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* Why open_file failed, in words. */
static const char *open_error(int err)
{
	return err == EINVAL ? "not a file (a FIFO, a device or a socket)" : strerror(err);
}

/* Reads the XKB* variables of a shell-style file. Returns true when it set a layout. */
static bool read_etc_file(const char *path, struct names *n)
{
	char line[ETC_LINE_MAX];
	bool truncated = false;
	FILE *f = open_file(path);

	if (!f)
		return false;
	memset(n, 0, sizeof(*n));
	while (fgets(line, sizeof(line), f)) {
		bool whole = strchr(line, '\n') != NULL;
		/* The tail of an over-long line is not a new assignment. */
		if (!truncated)
			parse_assignment(line, n);
		truncated = !whole;
	}
	fclose(f);
	if (set(n->layout))
		input_log(6, "keymap from %s: layout '%s'", path, n->layout);
	return set(n->layout);
}

static struct xkb_keymap *compile_names(struct xkb_context *ctx, const struct names *n)
{
	struct xkb_rule_names rn = {
		.model = set(n->model) ? n->model : NULL,
		.layout = set(n->layout) ? n->layout : NULL,
		.variant = set(n->variant) ? n->variant : NULL,
		.options = set(n->options) ? n->options : NULL,
	};
	return xkb_keymap_new_from_names(ctx, &rn, XKB_KEYMAP_COMPILE_NO_FLAGS);
}

static struct xkb_keymap *compile_file(struct input_kbd *k, const char *path)
{
	struct xkb_keymap *km;
	FILE *f = open_file(path);
	int r;

	if (!f) {
		input_log(4, "cannot open keymap file %s: %s; using the 'us' layout", path, open_error(errno));
		return NULL;
	}
	r = input_try_keymap_file(k->ctx, path);
	if (r < 0) {
		input_log(4, "keymap file %s %s; using the 'us' layout", path,
			  r == -EINVAL	  ? "does not compile (in at most " INPUT_STR(INPUT_KEYMAP_TRY_MEM_MB) " MiB)"
			  : r == -ETIMEDOUT ? "does not compile in " INPUT_STR(INPUT_KEYMAP_TRY_MS) " ms"
					    : "does not compile in " INPUT_STR(INPUT_KEYMAP_TRY_MEM_MB)
					      " MiB (or crashed xkbcommon)");
		fclose(f);
		return NULL;
	}
	km = xkb_keymap_new_from_file(k->ctx, f, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
	fclose(f);
	if (!km)
		input_log(4, "keymap file %s does not compile; using the 'us' layout", path);
	else
		snprintf(k->name, sizeof(k->name), "file:%.240s", path);
	return km;
}

static void describe(struct input_kbd *k, const struct names *n)
{
	const char *layout = set(n->layout) ? n->layout : getenv("XKB_DEFAULT_LAYOUT");

	snprintf(k->name, sizeof(k->name), "%.120s%s%.120s%s", set(layout) ? layout : "us",
		 set(n->variant) ? "(" : "", set(n->variant) ? n->variant : "", set(n->variant) ? ")" : "");
}

static struct xkb_keymap *load_keymap(struct input_kbd *k, const struct input_config *cfg)
{
	struct names n = {0};
	struct xkb_keymap *km = NULL;
	const char *kb = cfg->etc_default_keyboard ? cfg->etc_default_keyboard : "/etc/default/keyboard";
	const char *vc = cfg->etc_vconsole ? cfg->etc_vconsole : "/etc/vconsole.conf";
	bool from_env = !cfg->no_environment &&
			(set(getenv("XKB_DEFAULT_LAYOUT")) || set(getenv("XKB_DEFAULT_MODEL")) ||
			 set(getenv("XKB_DEFAULT_VARIANT")) || set(getenv("XKB_DEFAULT_OPTIONS")));

	if (set(cfg->keymap_file)) {
		km = compile_file(k, cfg->keymap_file);
		if (km)
			return km;
		copy_name(n.layout, sizeof(n.layout), "us");
	} else if (set(cfg->model) || set(cfg->layout) || set(cfg->variant) || set(cfg->options)) {
		copy_name(n.model, sizeof(n.model), cfg->model);
		copy_name(n.layout, sizeof(n.layout), cfg->layout);
		copy_name(n.variant, sizeof(n.variant), cfg->variant);
		copy_name(n.options, sizeof(n.options), cfg->options);
	} else if (!from_env && !read_etc_file(kb, &n) && !read_etc_file(vc, &n)) {
		memset(&n, 0, sizeof(n));
	}
	if (!km) {
		km = compile_names(k->ctx, &n);
		describe(k, &n);
	}
	if (!km) {
		input_log(4, "keymap model='%s' layout='%s' variant='%s' options='%s' does not compile; "
			  "using the 'us' layout", n.model, n.layout, n.variant, n.options);
		memset(&n, 0, sizeof(n));
		copy_name(n.layout, sizeof(n.layout), "us");
		km = compile_names(k->ctx, &n);
		describe(k, &n);
	}
	return km;
}

static const char *locale_name(const struct input_config *cfg)
{
	static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};

	if (set(cfg->locale))
		return cfg->locale;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		if (set(v))
			return v;
	}
	return "C";
}

static void load_compose(struct input_kbd *k, const struct input_config *cfg)
{
	const char *locale = locale_name(cfg);

	if (set(cfg->compose_file)) {
		FILE *f = open_file(cfg->compose_file);
		int err = f ? 0 : errno;
		if (f) {
			k->compose_table = xkb_compose_table_new_from_file(
				k->ctx, f, locale, XKB_COMPOSE_FORMAT_TEXT_V1, XKB_COMPOSE_COMPILE_NO_FLAGS);
			fclose(f);
		}
		if (!k->compose_table)
			input_log(4, "compose file %s cannot be loaded%s%s; using the locale's", cfg->compose_file,
				  err ? ": " : "", err ? open_error(err) : "");
	}
	if (!k->compose_table)
		k->compose_table = xkb_compose_table_new_from_locale(k->ctx, locale,
								     XKB_COMPOSE_COMPILE_NO_FLAGS);
	if (!k->compose_table) {
		input_log(6, "no compose table for locale '%s': dead keys and Compose do nothing", locale);
		return;
	}
	k->compose = xkb_compose_state_new(k->compose_table, XKB_COMPOSE_STATE_NO_FLAGS);
}

static void index_mods(struct input_kbd *k)
{
	static const char *const mod_names[8] = {XKB_MOD_NAME_SHIFT, XKB_MOD_NAME_ALT, XKB_MOD_NAME_CTRL,
						 XKB_MOD_NAME_LOGO, NULL, NULL, XKB_MOD_NAME_CAPS,
						 XKB_MOD_NAME_NUM};
	static const char *const led_names[3] = {XKB_LED_NAME_NUM, XKB_LED_NAME_CAPS, XKB_LED_NAME_SCROLL};

	for (int i = 0; i < 8; i++)
		k->mod_idx[i] = mod_names[i] ? xkb_keymap_mod_get_index(k->keymap, mod_names[i])
					     : XKB_MOD_INVALID;
	for (int i = 0; i < 3; i++)
		k->led_idx[i] = xkb_keymap_led_get_index(k->keymap, led_names[i]);
}

static void xkb_log(struct xkb_context *ctx, enum xkb_log_level level, const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	input_log(input_xkb_prio(level), "xkbcommon: %s", line);
}

int input_kbd_init(struct input_kbd *k, const struct input_config *cfg)
{
	struct xkb_rule_names us = {.layout = "us"};
	unsigned delay = cfg->repeat_delay_ms ? cfg->repeat_delay_ms : DEFAULT_REPEAT_DELAY_MS;
	unsigned interval = cfg->repeat_interval_ms ? cfg->repeat_interval_ms : DEFAULT_REPEAT_INTERVAL_MS;

	memset(k, 0, sizeof(*k));
	k->ctx = xkb_context_new(cfg->no_environment ? XKB_CONTEXT_NO_ENVIRONMENT_NAMES
						      : XKB_CONTEXT_NO_FLAGS);
	if (!k->ctx)
		return -ENOMEM;
	xkb_context_set_log_fn(k->ctx, xkb_log);
	k->keymap = load_keymap(k, cfg);
	k->us_keymap = xkb_keymap_new_from_names(k->ctx, &us, XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!k->keymap || !k->us_keymap) {
		input_log(3, "no keymap compiles, not even 'us': is xkb-data installed?");
		input_kbd_finish(k);
		return -ENOENT;
	}
	k->state = xkb_state_new(k->keymap);
	if (!k->state) {
		input_kbd_finish(k);
		return -ENOMEM;
	}
	index_mods(k);
	load_compose(k, cfg);
	k->repeat_delay_usec = (uint64_t)delay * 1000;
	k->repeat_interval_usec = (uint64_t)interval * 1000;
	if (cfg->repeat_delay_ms == UINT32_MAX) {
		k->repeat_delay_usec = 0; /* repeat off */
		input_log(6, "keymap %s, no key repeat", k->name);
	} else {
		input_log(6, "keymap %s, repeat after %u ms every %u ms", k->name, delay, interval);
	}
	return 0;
}

void input_kbd_finish(struct input_kbd *k)
{
	xkb_compose_state_unref(k->compose);
	xkb_compose_table_unref(k->compose_table);
	xkb_state_unref(k->state);
	xkb_keymap_unref(k->us_keymap);
	xkb_keymap_unref(k->keymap);
	xkb_context_unref(k->ctx);
	memset(k, 0, sizeof(*k));
}

unsigned input_kbd_mods(const struct input_kbd *k)
{
	unsigned mods = 0;

	if (!k->state)
		return 0;
	for (int i = 0; i < 8; i++) {
		if (k->mod_idx[i] != XKB_MOD_INVALID &&
		    xkb_state_mod_index_is_active(k->state, k->mod_idx[i], XKB_STATE_MODS_EFFECTIVE) > 0)
			mods |= 1u << i;
	}
	return mods;
}

static uint32_t level1_cp(struct xkb_keymap *km, xkb_keycode_t kc, xkb_layout_index_t layout)
{
	const xkb_keysym_t *syms;
	int n = xkb_keymap_key_get_syms_by_level(km, kc, layout, 0, &syms);

	return n == 1 ? xkb_keysym_to_utf32(syms[0]) : 0;
}

/* Fills everything but action and time from the current state (call before updating it for a press). */
static void describe_key(struct input_kbd *k, uint32_t keycode, struct input_key_event *ev)
{
	xkb_keycode_t kc = keycode + 8; /* evdev to XKB key codes */
	xkb_layout_index_t layout = xkb_state_key_get_layout(k->state, kc);

	ev->keycode = keycode;
	ev->keysym = xkb_state_key_get_one_sym(k->state, kc);
	ev->cp = xkb_keysym_to_utf32(ev->keysym);
	if (ev->cp < 0x20 || ev->cp == 0x7f)
		ev->cp = 0; /* Return, Tab, BackSpace, Escape: keys, not text */
	ev->unshifted = layout == XKB_LAYOUT_INVALID ? 0 : level1_cp(k->keymap, kc, layout);
	ev->base = level1_cp(k->us_keymap, kc, 0);
	ev->utf8[0] = 0;
	if (ev->cp)
		xkb_keysym_to_utf8(ev->keysym, ev->utf8, sizeof(ev->utf8)); /* the text of cp, NUL-terminated */
}

/* A compose result longer than INPUT_UTF8_MAX (an xkbcommon that takes longer strings than 1.5 did) was cut
 * by xkbcommon wherever the buffer ended: the application gets the whole characters, not a torn one. */
static void trim_torn_utf8(char *s)
{
	size_t n = strlen(s), start = n;

	while (start > 0 && ((unsigned char)s[start - 1] & 0xc0) == 0x80)
		start--;
	if (start > 0) {
		unsigned char lead = (unsigned char)s[start - 1];
		size_t len = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (n - (start - 1) < len)
			s[start - 1] = 0;
	}
	input_log(4, "a compose result is longer than %d bytes: typed cut to %zu", INPUT_UTF8_MAX - 1, strlen(s));
}

/* Dead keys and Compose: returns true when the key is swallowed by a sequence in progress. */
static bool compose_key(struct input_kbd *k, struct input_key_event *ev)
{
	if (!k->compose || xkb_compose_state_feed(k->compose, ev->keysym) != XKB_COMPOSE_FEED_ACCEPTED)
		return false;
	switch (xkb_compose_state_get_status(k->compose)) {
	case XKB_COMPOSE_COMPOSING:
		ev->composing = true;
		ev->cp = 0;
		ev->utf8[0] = 0;
		return true;
	case XKB_COMPOSE_COMPOSED: {
		xkb_keysym_t sym = xkb_compose_state_get_one_sym(k->compose);
		if (xkb_compose_state_get_utf8(k->compose, ev->utf8, sizeof(ev->utf8)) >= (int)sizeof(ev->utf8))
			trim_torn_utf8(ev->utf8);
		if (sym != XKB_KEY_NoSymbol)
			ev->keysym = sym;
		ev->cp = 0;
		if (ev->utf8[0]) {
			/* The first code point, for the key encoder (compose results are short UTF-8). */
			const unsigned char *u = (const unsigned char *)ev->utf8;
			uint32_t cp = u[0];
			int extra = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : cp >= 0xc0 ? 1 : 0;
			cp &= extra ? (0x3fu >> extra) : 0x7fu;
			for (int i = 1; i <= extra && u[i]; i++)
				cp = cp << 6 | (u[i] & 0x3f);
			ev->cp = cp;
		}
		xkb_compose_state_reset(k->compose);
		return false;
	}
	case XKB_COMPOSE_CANCELLED:
		/* The key that broke the sequence types nothing (as in X clients). */
		xkb_compose_state_reset(k->compose);
		ev->composing = true;
		ev->cp = 0;
		ev->utf8[0] = 0;
		return true;
	case XKB_COMPOSE_NOTHING:
	default:
		return false;
	}
}

static void stop_repeat(struct input *in)
{
	if (!in->kbd.repeat_key)
		return;
	in->kbd.repeat_key = 0;
	if (in->cb.arm_timer)
		in->cb.arm_timer(in->ctx, 0);
}

void input_kbd_key(struct input *in, uint32_t keycode, bool pressed, uint64_t time_usec)
{
	struct input_kbd *k = &in->kbd;
	struct input_key_event ev = {.time_usec = time_usec};
	xkb_keycode_t kc = keycode + 8;

	if (keycode > 0xffff)
		return;
	describe_key(k, keycode, &ev);
	ev.action = pressed ? INPUT_KEY_PRESS : INPUT_KEY_RELEASE;
	if (pressed)
		compose_key(k, &ev);
	xkb_state_update_key(k->state, kc, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	/* After the update, so a modifier key's own press carries its modifier (kitty reports it so). */
	ev.mods = input_kbd_mods(k);
	if (pressed && k->repeat_delay_usec && xkb_keymap_key_repeats(k->keymap, kc) && !ev.composing) {
		k->repeat_key = keycode;
		k->repeat_next_usec = time_usec + k->repeat_delay_usec;
		if (in->cb.arm_timer)
			in->cb.arm_timer(in->ctx, k->repeat_next_usec);
	} else if (pressed ? xkb_keymap_key_repeats(k->keymap, kc) : keycode == k->repeat_key) {
		stop_repeat(in);
	}
	input_update_leds(in, NULL);
	if (in->cb.key)
		in->cb.key(in->ctx, &ev);
}

void input_timer_expired(struct input *in, uint64_t now_usec)
{
	struct input_kbd *k = &in->kbd;
	struct input_key_event ev = {0};

	if (!k->repeat_key || now_usec < k->repeat_next_usec) {
		if (k->repeat_key && in->cb.arm_timer)
			in->cb.arm_timer(in->ctx, k->repeat_next_usec);
		return;
	}
	describe_key(k, k->repeat_key, &ev);
	ev.time_usec = k->repeat_next_usec;
	ev.action = INPUT_KEY_REPEAT;
	ev.mods = input_kbd_mods(k);
	/* A late wake-up (loop busy, machine suspended) repeats once, not a burst of the missed ones. */
	k->repeat_next_usec += k->repeat_interval_usec;
	if (k->repeat_next_usec <= now_usec)
		k->repeat_next_usec = now_usec + k->repeat_interval_usec;
	if (in->cb.arm_timer)
		in->cb.arm_timer(in->ctx, k->repeat_next_usec);
	if (in->cb.key)
		in->cb.key(in->ctx, &ev);
}

void input_kbd_reset(struct input *in)
{
	struct input_kbd *k = &in->kbd;
	xkb_mod_mask_t locked = xkb_state_serialize_mods(k->state, XKB_STATE_MODS_LOCKED);
	xkb_layout_index_t group = xkb_state_serialize_layout(k->state, XKB_STATE_LAYOUT_LOCKED);
	struct xkb_state *fresh = xkb_state_new(k->keymap);

	stop_repeat(in);
	if (k->compose)
		xkb_compose_state_reset(k->compose);
	if (!fresh)
		return;
	xkb_state_update_mask(fresh, 0, 0, locked, 0, 0, group);
	xkb_state_unref(k->state);
	k->state = fresh;
}

unsigned input_leds(const struct input *in)
{
	const struct input_kbd *k = &in->kbd;
	unsigned leds = 0;

	for (int i = 0; i < 3; i++) {
		if (k->led_idx[i] != XKB_LED_INVALID && xkb_state_led_index_is_active(k->state, k->led_idx[i]) > 0)
			leds |= 1u << i;
	}
	return leds;
}

const char *input_keymap_name(const struct input *in)
{
	return in->kbd.name;
}
