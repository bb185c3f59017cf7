/* input/keyboard.c: xkbcommon keymap, compose, software key repeat and lock LEDs. Where the keymap comes from:
 * input/keymap-load.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <xkbcommon/xkbcommon-names.h>

#include "input/input-internal.h"

#define DEFAULT_REPEAT_DELAY_MS 250
/* Milliseconds between two repeats when the caller gives 0 (50 repeats/s); the program always passes its
 * --xkb-repeat-rate (default 50 ms, 20 repeats/s, as kmscon). */
#define DEFAULT_REPEAT_INTERVAL_MS 20

static bool set(const char *s)
{
	return s && *s;
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

/* The largest compose file read, with the files it includes: 32 times the largest the locales ship (en_US.UTF-8,
 * 500 KB). xkbcommon compiles one in this process with no bound of its own (450 MB of sequences: 12.5 s and
 * 446 MB, the keyboard waiting). */
#define COMPOSE_FILE_MAX (16u << 20)

/* Whether the codeset of locale (after its '.', up to an '@') is UTF-8. */
static bool utf8_codeset(const char *locale)
{
	const char *dot = strchr(locale, '.');
	size_t n = dot ? strcspn(dot + 1, "@") : 0;

	return (n == 5 && !strncasecmp(dot + 1, "utf-8", 5)) || (n == 4 && !strncasecmp(dot + 1, "utf8", 4));
}

/* The name of locale's UTF-8 form, in buf (cap bytes): the terminal takes and sends UTF-8 whatever the locale's
 * codeset, and xkbcommon (1.5) reads UTF-8 tables only. A legacy locale (de_DE, de_DE@euro, de_DE.ISO-8859-1)
 * named a Latin-1 table that xkbcommon refused with 13 errors, and no dead key worked: its UTF-8 twin is taken
 * instead, without the modifier (de_DE.UTF-8; @euro says nothing in UTF-8). C and POSIX are xkbcommon's
 * (en_US.UTF-8). */
static const char *utf8_locale(const char *locale, char *buf, size_t cap)
{
	int lang = (int)strcspn(locale, ".@");

	if (!strcmp(locale, "C") || !strcmp(locale, "POSIX") || utf8_codeset(locale) || lang > 64)
		return locale; /* (no locale name is that long: xkbcommon finds no table) */
	snprintf(buf, cap, "%.*s.UTF-8", lang, locale);
	input_log(6, "locale '%s' is not UTF-8: the compose tables of %s are used", locale, buf);
	return buf;
}

static void load_compose(struct input_kbd *k, const struct input_config *cfg)
{
	char buf[80], user[INPUT_COMPOSE_PATH_MAX];
	const char *locale = utf8_locale(locale_name(cfg), buf, sizeof(buf));
	/* xb-compose-file, else the user's file as xkbcommon would find it, but bounded as the first */
	const char *file = set(cfg->compose_file)		       ? cfg->compose_file
			   : input_compose_user_file(user, sizeof(user)) ? user
									 : NULL;

	if (file) {
		k->compose_table = input_compose_from_file(k->ctx, file, locale, COMPOSE_FILE_MAX);
		if (!k->compose_table)
			input_log(4, "compose file %s cannot be loaded; using the locale's", file);
	}
	if (!k->compose_table)
		k->compose_table = input_compose_of_locale(k->ctx, locale);
	if (!k->compose_table && strcmp(locale, "C")) {
		/* a locale xkbcommon has no table for (not in compose.dir): the generic one, not no dead keys */
		input_log(6, "no compose table for locale '%s': the C locale's (en_US.UTF-8) is used", locale);
		k->compose_table = input_compose_of_locale(k->ctx, "C");
	}
	if (!k->compose_table) {
		input_log(6, "no compose table for locale '%s': dead keys and Compose do nothing", locale);
		return;
	}
	k->compose = xkb_compose_state_new(k->compose_table, XKB_COMPOSE_STATE_NO_FLAGS);
}

/* The real modifiers (bits 0-7) that modifier i of scratch's keymap stands for: itself for a real one, its
 * mapping for a virtual one (NumLock is Mod2 in most keymaps, another in some). scratch: any state of it. */
static xkb_mod_mask_t real_mods_of(struct xkb_state *scratch, xkb_mod_index_t i)
{
	xkb_state_update_mask(scratch, 0, 0, 1u << i, 0, 0, 0);
	return xkb_state_serialize_mods(scratch, XKB_STATE_MODS_LOCKED) & 0xff;
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
	/* Num Lock is the real modifier of the NumLock virtual one: Mod2 in most keymaps, not in all (a keymap
	 * file may put it on Mod3; the events then said no Num Lock while it was on). */
	xkb_mod_index_t nl = xkb_keymap_mod_get_index(k->keymap, "NumLock");
	struct xkb_state *scratch = nl != XKB_MOD_INVALID && nl < 32 ? xkb_state_new(k->keymap) : NULL;
	if (scratch) {
		xkb_mod_mask_t m = real_mods_of(scratch, nl);
		if (m && !(m & (m - 1)))
			k->mod_idx[7] = (xkb_mod_index_t)__builtin_ctz(m);
		xkb_state_unref(scratch);
	}
}

static void xkb_log(struct xkb_context *ctx, enum xkb_log_level level, const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	input_log(input_xkb_prio(level), "xkbcommon: %s", line);
}

/* cfg's repeat in microseconds; a delay of 0 is no repeat. */
static void repeat_of(const struct input_config *cfg, uint64_t *delay_usec, uint64_t *interval_usec)
{
	unsigned delay = cfg->repeat_delay_ms ? cfg->repeat_delay_ms : DEFAULT_REPEAT_DELAY_MS;
	unsigned interval = cfg->repeat_interval_ms ? cfg->repeat_interval_ms : DEFAULT_REPEAT_INTERVAL_MS;

	*delay_usec = cfg->repeat_delay_ms == UINT32_MAX ? 0 : (uint64_t)delay * 1000;
	*interval_usec = (uint64_t)interval * 1000;
}

static void log_keymap(const struct input_kbd *k)
{
	if (!k->repeat_delay_usec)
		input_log(6, "keymap %s, no key repeat", k->name);
	else
		input_log(6, "keymap %s, repeat after %u ms every %u ms", k->name,
			  (unsigned)(k->repeat_delay_usec / 1000), (unsigned)(k->repeat_interval_usec / 1000));
}

int input_kbd_init(struct input_kbd *k, const struct input_config *cfg)
{
	struct xkb_rule_names us = {.layout = "us"};
	struct input_file_id file;
	int err = 0;

	memset(k, 0, sizeof(*k));
	k->ctx = xkb_context_new(cfg->no_environment ? XKB_CONTEXT_NO_ENVIRONMENT_NAMES
						      : XKB_CONTEXT_NO_FLAGS);
	if (!k->ctx)
		return -ENOMEM;
	xkb_context_set_log_fn(k->ctx, xkb_log);
	struct input_keymap_env env;
	input_keymap_env_read(cfg, &env);
	k->keymap = input_load_keymap(k->ctx, cfg, &env, k->name, false, &err, &file);
	if (err) {
		k->file_refused = file; /* "us" was taken for it */
		k->file_refused_err = err;
	} else {
		k->file_in_use = file;
	}
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
	repeat_of(cfg, &k->repeat_delay_usec, &k->repeat_interval_usec);
	log_keymap(k);
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

/* A text longer than INPUT_UTF8_MAX (a compose result of an xkbcommon that takes longer strings than 1.5 did, a
 * keymap level of many keysyms) was cut by xkbcommon wherever the buffer ended: the application gets the whole
 * characters, not a torn one. Said once per keyboard: the same key held repeats 50 times a second. */
static void trim_torn_utf8(struct input_kbd *k, char *s)
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
	if (!k->long_text_said)
		input_log(4, "a compose result or a key's text is longer than %d bytes: typed cut to %zu (said once)",
			  INPUT_UTF8_MAX - 1, strlen(s));
	k->long_text_said = true;
}

/* The first code point of a UTF-8 text xkbcommon wrote (valid UTF-8), 0 for an empty one. */
static uint32_t first_cp(const char *utf8)
{
	const unsigned char *u = (const unsigned char *)utf8;
	uint32_t cp = u[0];
	int extra = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : cp >= 0xc0 ? 1 : 0;

	cp &= extra ? (0x3fu >> extra) : 0x7fu;
	for (int i = 1; i <= extra && u[i]; i++)
		cp = cp << 6 | (u[i] & 0x3f);
	return cp;
}

/* Fills everything but action and time from the current state (call before updating it for a press). */
static void describe_key(struct input_kbd *k, uint32_t keycode, struct input_key_event *ev)
{
	xkb_keycode_t kc = keycode + 8; /* evdev to XKB key codes */
	xkb_layout_index_t layout = xkb_state_key_get_layout(k->state, kc);
	const xkb_keysym_t *syms;

	ev->keycode = keycode;
	ev->keysym = xkb_state_key_get_one_sym(k->state, kc);
	ev->cp = xkb_keysym_to_utf32(ev->keysym);
	if (ev->cp < 0x20 || ev->cp == 0x7f)
		ev->cp = 0; /* Return, Tab, BackSpace, Escape: keys, not text */
	ev->unshifted = layout == XKB_LAYOUT_INVALID ? 0 : level1_cp(k->keymap, kc, layout);
	ev->base = level1_cp(k->us_keymap, kc, 0);
	ev->utf8[0] = 0;
	if (ev->cp) {
		xkb_keysym_to_utf8(ev->keysym, ev->utf8, sizeof(ev->utf8)); /* the text of cp, NUL-terminated */
	} else if (ev->keysym == XKB_KEY_NoSymbol && xkb_state_key_get_syms(k->state, kc, &syms) > 1) {
		/* A level of several keysyms has no one keysym: it types the text of them all, as xkbcommon writes
		 * it (its Ctrl transformation is for a single keysym only), typed whole as a compose result is. */
		if (xkb_state_key_get_utf8(k->state, kc, ev->utf8, sizeof(ev->utf8)) >= (int)sizeof(ev->utf8))
			trim_torn_utf8(k, ev->utf8);
		ev->cp = first_cp(ev->utf8);
		if (ev->cp < 0x20 || ev->cp == 0x7f) {
			ev->cp = 0;
			ev->utf8[0] = 0;
		}
	}
}

/* Dead keys and Compose: returns true when the key is swallowed by a sequence in progress. A key pressed with
 * Ctrl or Super held is a command, not text: it is not fed, and ends a sequence in progress (a dead key typed by
 * mistake made the Ctrl+C after it a c acute, and ate a Ctrl+D that ended no sequence), as GTK's compose leaves
 * such keys alone. Alt still composes (Meta and the result: ESC before it). Call before the key's own press is
 * in the state (the modifiers read are those held for it). */
static bool compose_key(struct input_kbd *k, struct input_key_event *ev)
{
	if (!k->compose)
		return false;
	if (input_kbd_mods(k) & (INPUT_MOD_CTRL | INPUT_MOD_SUPER)) {
		/* a modifier key (Alt pressed after Ctrl) is ignored by the feed and changes nothing; any other key
		 * fed is taken back at once */
		if (xkb_compose_state_feed(k->compose, ev->keysym) != XKB_COMPOSE_FEED_IGNORED)
			xkb_compose_state_reset(k->compose);
		return false;
	}
	if (xkb_compose_state_feed(k->compose, ev->keysym) != XKB_COMPOSE_FEED_ACCEPTED)
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
			trim_torn_utf8(k, ev->utf8);
		if (sym != XKB_KEY_NoSymbol)
			ev->keysym = sym;
		ev->cp = first_cp(ev->utf8); /* the first code point, for the key encoder */
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

static bool is_held(const struct input_kbd *k, uint32_t keycode)
{
	return keycode < KEY_CNT && ((k->held[keycode / 64] >> (keycode % 64)) & 1);
}

static void set_held(struct input_kbd *k, uint32_t keycode, bool down)
{
	if (keycode >= KEY_CNT)
		return;
	if (down)
		k->held[keycode / 64] |= 1ull << (keycode % 64);
	else
		k->held[keycode / 64] &= ~(1ull << (keycode % 64));
}

/* The entry of keycode in k->before, taken out of it (into *out, when not NULL); false when there is none. */
static bool take_before(struct input_kbd *k, uint32_t keycode, struct input_held_key *out)
{
	for (unsigned i = 0; i < k->n_before; i++) {
		if (k->before[i].keycode != keycode)
			continue;
		if (out)
			*out = k->before[i];
		k->before[i] = k->before[--k->n_before];
		return true;
	}
	return false;
}

/* A release of a key held across a keymap change: described as it was under the keymap it was pressed with. */
static void describe_before(struct input_kbd *k, uint32_t keycode, struct input_key_event *ev)
{
	struct input_held_key h;

	if (!take_before(k, keycode, &h))
		return;
	ev->keysym = h.keysym;
	ev->cp = h.cp;
	ev->unshifted = h.unshifted;
	ev->base = h.base;
	ev->utf8[0] = 0;
	if (ev->cp)
		xkb_keysym_to_utf8(ev->keysym, ev->utf8, sizeof(ev->utf8));
}

void input_kbd_key(struct input *in, uint32_t keycode, bool pressed, uint64_t time_usec)
{
	struct input_kbd *k = &in->kbd;
	struct input_key_event ev = {.time_usec = time_usec};
	xkb_keycode_t kc = keycode + 8;

	if (keycode > 0xffff)
		return;
	describe_key(k, keycode, &ev);
	if (pressed)
		take_before(k, keycode, NULL);
	else
		describe_before(k, keycode, &ev);
	set_held(k, keycode, pressed);
	if (pressed && keycode < KEY_CNT)
		k->locked_at_press[keycode] = (uint8_t)xkb_state_serialize_mods(k->state, XKB_STATE_MODS_LOCKED);
	ev.action = pressed ? INPUT_KEY_PRESS : INPUT_KEY_RELEASE;
	ev.gone = pressed ? INPUT_GONE_NOT : in->key_gone;
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
	/* A seeded Ctrl let go while the key repeats (the Ctrl+Alt+F1 that brought us back): libinput reports no
	 * release of it, so without this every repeat carried it until the key's release. */
	input_sync_seeds(in);
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
	memset(k->held, 0, sizeof(k->held));
	k->n_before = 0;
	if (!fresh)
		return;
	xkb_state_update_mask(fresh, 0, 0, locked, 0, 0, group);
	xkb_state_unref(k->state);
	k->state = fresh;
}

void input_end_sequence(struct input *in)
{
	if (in->kbd.compose)
		xkb_compose_state_reset(in->kbd.compose);
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

/* ------------------------------------------------------------------------------ a new keymap (reload) */

struct input_keymap {
	struct xkb_keymap *keymap; /* NULL: the repeat only */
	struct xkb_state *state;   /* made here, so that input_keymap_use cannot fail */
	struct input_file_id file; /* the keymap file it is (or the keymap in use is the same as), for file_in_use */
	char name[256];
	uint64_t repeat_delay_usec, repeat_interval_usec;
};

/* Whether a and b are the same keymap, by their text form (xkbcommon writes a compiled keymap out whole and in
 * a fixed order: two compiles of the same source give the same text). */
static bool same_keymap(struct xkb_keymap *a, struct xkb_keymap *b)
{
	/* keymaps of different key ranges or counts differ: told without writing out a keymap of a million keys
	 * (seconds) */
	if (xkb_keymap_min_keycode(a) != xkb_keymap_min_keycode(b) ||
	    xkb_keymap_max_keycode(a) != xkb_keymap_max_keycode(b) ||
	    xkb_keymap_num_layouts(a) != xkb_keymap_num_layouts(b) || xkb_keymap_num_mods(a) != xkb_keymap_num_mods(b))
		return false;
	char *ta = xkb_keymap_get_as_string(a, XKB_KEYMAP_FORMAT_TEXT_V1);
	char *tb = ta ? xkb_keymap_get_as_string(b, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	bool same = tb && !strcmp(ta, tb);

	free(ta);
	free(tb);
	return same;
}

struct xkb_context *input_keymap_context(const struct input_config *cfg)
{
	struct xkb_context *ctx = xkb_context_new(cfg->no_environment ? XKB_CONTEXT_NO_ENVIRONMENT_NAMES
								       : XKB_CONTEXT_NO_FLAGS);
	if (ctx)
		xkb_context_set_log_fn(ctx, xkb_log);
	return ctx;
}

int input_keymap_begin(struct input *in, const struct input_config *cfg, bool keymap, struct input_keymap **out)
{
	struct input_keymap *km = calloc(1, sizeof(*km));

	*out = NULL;
	if (!km)
		return -ENOMEM;
	repeat_of(cfg, &km->repeat_delay_usec, &km->repeat_interval_usec);
	*out = km;
	if (!keymap)
		return 1;
	if (in && cfg->keymap_file && *cfg->keymap_file) {
		/* a keymap file unchanged since it was last compiled here: the same verdict, at once */
		struct input_file_id now;
		input_file_id_of(cfg->keymap_file, &now);
		if (input_file_id_same(&now, &in->kbd.file_in_use)) {
			km->file = now;
			snprintf(km->name, sizeof(km->name), "file:%.240s", cfg->keymap_file);
			return 1;
		}
		if (input_file_id_same(&now, &in->kbd.file_refused)) {
			input_log(4, "keymap file %s is unchanged since it did not compile (%s): not tried again until "
				  "it changes", cfg->keymap_file, in->kbd.file_refused_err == -EINVAL ? "the reason was "
				  "logged then" : strerror(-in->kbd.file_refused_err));
			free(km);
			*out = NULL;
			return in->kbd.file_refused_err;
		}
	}
	return 0;
}

int input_keymap_end(struct input *in, struct input_keymap *km, struct xkb_keymap *compiled, const char *name,
		     const struct input_file_id *file, int err, struct input_keymap **out)
{
	*out = NULL;
	km->keymap = compiled;
	km->file = *file;
	snprintf(km->name, sizeof(km->name), "%s", name);
	if (!compiled && in && file->valid) {
		in->kbd.file_refused = *file;
		in->kbd.file_refused_err = err;
	}
	if (compiled && in && same_keymap(compiled, in->kbd.keymap)) {
		xkb_keymap_unref(km->keymap);
		km->keymap = NULL; /* the name may still change: "de" and a file of de's keymap */
		*out = km;
		return 0;
	}
	km->state = compiled ? xkb_state_new(compiled) : NULL;
	if (!km->state) {
		input_keymap_free(km);
		return compiled ? -ENOMEM : err;
	}
	*out = km;
	return 0;
}

int input_keymap_new(struct input *in, const struct input_config *cfg, bool keymap, struct input_keymap **out)
{
	struct input_keymap *km;
	struct input_file_id file = {0};
	char name[256] = "";
	int err = -ENOMEM;
	int r = input_keymap_begin(in, cfg, keymap, &km);

	if (r != 0) {
		*out = km;
		return r < 0 ? r : 0;
	}
	struct input_keymap_env env;
	input_keymap_env_read(cfg, &env);
	struct xkb_context *ctx = in ? xkb_context_ref(in->kbd.ctx) : input_keymap_context(cfg);
	struct xkb_keymap *compiled = ctx ? input_load_keymap(ctx, cfg, &env, name, true, &err, &file) : NULL;
	xkb_context_unref(ctx); /* the keymap holds its own reference */
	return input_keymap_end(in, km, compiled, name, &file, err, out);
}

bool input_keymap_changes(const struct input_keymap *km)
{
	return km->keymap != NULL;
}

void input_keymap_free(struct input_keymap *km)
{
	if (!km)
		return;
	xkb_state_unref(km->state);
	xkb_keymap_unref(km->keymap);
	free(km);
}

/* The keys held now, described with the keymap in use, into k->before: those already there (held across an
 * earlier change) keep the description of their press. */
static void remember_held(struct input_kbd *k)
{
	struct input_held_key keep[INPUT_HELD_MAX];
	unsigned n = 0;

	for (uint32_t code = 0; code < KEY_CNT && n < INPUT_HELD_MAX; code++) {
		struct input_key_event ev;
		if (!is_held(k, code))
			continue;
		if (take_before(k, code, &keep[n])) {
			n++;
			continue;
		}
		describe_key(k, code, &ev);
		keep[n++] = (struct input_held_key){code, ev.keysym, ev.cp, ev.unshifted, ev.base};
	}
	memcpy(k->before, keep, n * sizeof(keep[0]));
	k->n_before = n;
}


/* Locked real modifiers of one keymap (scratch_from: a state of it) as real modifiers of another (scratch_to). A
 * virtual modifier whose real modifiers are all locked (Num Lock: Mod2 in the old keymap) is kept by its name,
 * on whatever real modifiers the new keymap gives it (Mod3 in a keymap file), not on the old one's: Mod2 locked
 * in that keymap is no Num Lock (the LED went off and the keypad typed no digits). The other real modifiers
 * (Lock: Caps Lock) are kept by their name. Only real bits: a virtual bit left in the locked mask stays after
 * its key unlocks it. */
static xkb_mod_mask_t map_locked(struct xkb_state *scratch_from, struct xkb_state *scratch_to, xkb_mod_mask_t locked)
{
	struct xkb_keymap *from = xkb_state_get_keymap(scratch_from), *to = xkb_state_get_keymap(scratch_to);
	xkb_mod_mask_t covered = 0, mask = 0;

	locked &= 0xff;
	for (xkb_mod_index_t i = 8; i < xkb_keymap_num_mods(from) && i < 32; i++) {
		xkb_mod_mask_t m = real_mods_of(scratch_from, i);
		xkb_mod_index_t j = xkb_keymap_mod_get_index(to, xkb_keymap_mod_get_name(from, i));
		if (!m || (m & ~locked))
			continue;
		covered |= m;
		if (j != XKB_MOD_INVALID && j < 32)
			mask |= real_mods_of(scratch_to, j);
	}
	for (xkb_mod_index_t i = 0; i < 8 && i < xkb_keymap_num_mods(from); i++) {
		if (!(((locked & ~covered) >> i) & 1))
			continue;
		xkb_mod_index_t j = xkb_keymap_mod_get_index(to, xkb_keymap_mod_get_name(from, i));
		if (j < 8)
			mask |= 1u << j;
	}
	return mask;
}

/* Sets fresh's locked modifiers to locked, the rest as it is; the locked layout is the first. */
static void set_locked(struct xkb_state *fresh, xkb_mod_mask_t locked)
{
	xkb_state_update_mask(fresh, xkb_state_serialize_mods(fresh, XKB_STATE_MODS_DEPRESSED),
			      xkb_state_serialize_mods(fresh, XKB_STATE_MODS_LATCHED), locked,
			      xkb_state_serialize_layout(fresh, XKB_STATE_LAYOUT_DEPRESSED),
			      xkb_state_serialize_layout(fresh, XKB_STATE_LAYOUT_LATCHED), 0);
}

/* The keys held (and the seeded modifiers) pressed again into the new state, so that a Shift still down
 * counts, each with the locks it was pressed under: a lock key's release then does what it would have done
 * (xkbcommon unlocks at the release what was locked at the press). Then the locks of the old state. The locked
 * layout is the first: a held Shift+Alt of grp:alt_shift_toggle, pressed again here, switched it once more. */
static void carry_state(struct input *in, struct xkb_state *fresh)
{
	struct input_kbd *k = &in->kbd;
	struct xkb_state *sf = xkb_state_new(k->keymap), *st = xkb_state_new(xkb_state_get_keymap(fresh));

	for (uint32_t code = 0; code < KEY_CNT; code++) {
		if (!is_held(k, code))
			continue;
		if (sf && st) {
			xkb_mod_mask_t at_press = map_locked(sf, st, k->locked_at_press[code]);
			set_locked(fresh, at_press);
			k->locked_at_press[code] = (uint8_t)at_press; /* for a later change, in the new keymap's terms */
		}
		xkb_state_update_key(fresh, code + 8, XKB_KEY_DOWN);
	}
	for (unsigned j = 0; j < in->n_seeds; j++) {
		if (!is_held(k, in->seeds[j]))
			xkb_state_update_key(fresh, in->seeds[j] + 8, XKB_KEY_DOWN);
	}
	set_locked(fresh, sf && st ? map_locked(sf, st, xkb_state_serialize_mods(k->state, XKB_STATE_MODS_LOCKED))
				   : 0);
	xkb_state_unref(sf);
	xkb_state_unref(st);
}

void input_keymap_use(struct input *in, struct input_keymap *km)
{
	struct input_kbd *k = &in->kbd;

	k->repeat_delay_usec = km->repeat_delay_usec;
	k->repeat_interval_usec = km->repeat_interval_usec;
	if (!k->repeat_delay_usec)
		stop_repeat(in);
	if (km->keymap) {
		/* The repeating key would go on as another character, or as the old one on the new keymap. */
		stop_repeat(in);
		if (k->compose)
			xkb_compose_state_reset(k->compose); /* its keysyms came from the old keymap */
		remember_held(k);
		carry_state(in, km->state);
		xkb_state_unref(k->state);
		xkb_keymap_unref(k->keymap);
		k->state = km->state;
		k->keymap = km->keymap;
		km->state = NULL;
		km->keymap = NULL;
		memcpy(k->name, km->name, sizeof(k->name));
		index_mods(k);
		input_update_leds(in, NULL);
	} else if (km->name[0]) {
		memcpy(k->name, km->name, sizeof(k->name)); /* the same keymap under another name */
	}
	if (km->keymap || km->name[0])
		k->file_in_use = km->file;
	log_keymap(k);
	input_keymap_free(km);
}
