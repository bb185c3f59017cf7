/* tests/tools/key-bytes.c: the bytes kmscon-felis sends for a key, for tests/tools/xterm-keys.py (a developer
 * tool, built but neither installed nor run by the test suite).
 *
 * Reads lines "MODES COMBO" from stdin and writes one line per input: the bytes as hex ("" for none), or
 * "vt N" for a VT switch. MODES is "-" or a comma list of ckm (DECCKM), kpam (DECKPAM), bs (DECBKM set:
 * Backspace sends ^H), mok1 / mok2 (modifyOtherKeys), lnm (newline mode), numlock. COMBO is xdotool's
 * syntax: modifiers (shift, ctrl, alt, super) and an X keysym name joined by '+' ("ctrl+shift+Up").
 *
 * The key goes the program's way: its evdev code (the key whose first level is that keysym in the layout: US,
 * or the one the first argument names) pressed with the modifier keys through input/ (real xkbcommon), then
 * kf_key_translate and vt_key_encode, as kmscon-felis/input-glue.c does. A keysym no key of the layout has
 * (F13..F24) is handed to kf_key_translate as such, with the modifiers given. */
#include <linux/input-event-codes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xkbcommon/xkbcommon.h>

#include "input/input.h"
#include "kmscon-felis/input-keys.h"
#include "vt/vt.h"

struct sink {
	struct vt_key_modes modes;
	uint8_t out[256];
	size_t n;
	int vt;
};

/* What on_key in input-glue.c does with a single-code-point key (Alt always prefixes ESC there). */
static void on_key(void *ctx, const struct input_key_event *ev)
{
	struct sink *s = ctx;
	struct vt_key_event vk;

	if (kf_key_vt_switch(ev)) {
		s->vt = kf_key_vt_switch(ev);
		return;
	}
	if (kf_key_translate(ev, &vk))
		s->n += vt_key_encode(&vk, &s->modes, s->out + s->n, sizeof(s->out) - s->n);
}

static const struct input_callbacks cbs = {.key = on_key};

/* input/'s messages (the keymap's name) would mix with the answers' lines on a terminal: errors only. */
static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)file;
	(void)line;
	if (prio <= 4) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
}

static const struct {
	const char *name;
	uint32_t code;
	unsigned mod;
} mods[] = {
	{"shift", KEY_LEFTSHIFT, VT_MOD_SHIFT},
	{"ctrl", KEY_LEFTCTRL, VT_MOD_CTRL},
	{"alt", KEY_LEFTALT, VT_MOD_ALT},
	{"super", KEY_LEFTMETA, VT_MOD_SUPER},
};

/* The evdev code of the key whose level 1 is sym in the keymap, or 0. */
static uint32_t find_key(struct xkb_keymap *km, xkb_keysym_t sym)
{
	for (xkb_keycode_t kc = xkb_keymap_min_keycode(km); kc <= xkb_keymap_max_keycode(km); kc++) {
		const xkb_keysym_t *syms;
		if (xkb_keymap_key_get_syms_by_level(km, kc, 0, 0, &syms) == 1 && syms[0] == sym)
			return kc - 8;
	}
	return 0;
}

static void apply_modes(struct sink *s, char *list, bool *numlock)
{
	memset(&s->modes, 0, sizeof(s->modes));
	s->modes.alt_sends_escape = true;
	*numlock = false;
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		if (!strcmp(t, "ckm"))
			s->modes.cursor_keys_app = true;
		else if (!strcmp(t, "kpam"))
			s->modes.keypad_app = true;
		else if (!strcmp(t, "bs"))
			s->modes.backspace_sends_bs = true;
		else if (!strcmp(t, "mok1"))
			s->modes.modify_other_keys = 1;
		else if (!strcmp(t, "mok2"))
			s->modes.modify_other_keys = 2;
		else if (!strcmp(t, "lnm"))
			s->modes.newline_mode = true;
		else if (!strcmp(t, "numlock"))
			*numlock = true;
	}
}

static void one(struct input *in, struct xkb_keymap *km, struct sink *s, char *modes, char *combo)
{
	uint32_t held[4];
	unsigned n_held = 0, bits = 0;
	bool numlock;
	char *name = combo, *plus;

	apply_modes(s, modes, &numlock);
	s->n = 0;
	s->vt = 0;
	while ((plus = strchr(name, '+')) && plus[1]) {
		*plus = 0;
		for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
			if (!strcmp(name, mods[i].name) && n_held < 4) {
				held[n_held++] = mods[i].code;
				bits |= mods[i].mod;
			}
		}
		name = plus + 1;
	}
	xkb_keysym_t sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
	uint32_t code = sym == XKB_KEY_NoSymbol ? 0 : find_key(km, sym);

	if (code) {
		if (numlock) {
			input_inject_key(in, KEY_NUMLOCK, true, 1);
			input_inject_key(in, KEY_NUMLOCK, false, 1);
		}
		for (unsigned i = 0; i < n_held; i++)
			input_inject_key(in, held[i], true, 1);
		input_inject_key(in, code, true, 2);
		input_inject_key(in, code, false, 2);
		for (unsigned i = n_held; i-- > 0;)
			input_inject_key(in, held[i], false, 3);
		if (numlock) {
			input_inject_key(in, KEY_NUMLOCK, true, 4);
			input_inject_key(in, KEY_NUMLOCK, false, 4);
		}
	} else if (sym != XKB_KEY_NoSymbol) {
		struct input_key_event ev = {.keysym = sym, .action = INPUT_KEY_PRESS,
					     .mods = bits | (numlock ? VT_MOD_NUM : 0)};
		on_key(s, &ev);
	} else {
		printf("unknown keysym %s\n", name);
		return;
	}
	if (s->vt) {
		printf("vt %d\n", s->vt);
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		printf("%02x", s->out[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	/* the layout both sides use: xterm-keys.py --layout sets the X server's with setxkbmap */
	const char *layout = argc > 1 ? argv[1] : "us";
	struct input_config cfg = {.layout = layout, .etc_default_keyboard = "/nonexistent",
				   .etc_vconsole = "/nonexistent", .no_environment = true, .locale = "C"};
	struct xkb_rule_names names = {.layout = layout};
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_keymap *km = ctx ? xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	struct sink s;
	struct input *in;
	char line[512];

	input_set_log_handler(on_log);
	in = input_create(&cfg, &cbs, &s);

	if (!km || !in) {
		fprintf(stderr, "key-bytes: no keymap for layout %s (xkb-data missing?)\n", layout);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *modes = strtok(line, " \n"), *combo = strtok(NULL, " \n");
		if (!modes || !combo) {
			putchar('\n');
			continue;
		}
		/* strtok is used again on the modes: keep the combo apart */
		char c[256];
		snprintf(c, sizeof(c), "%s", combo);
		one(in, km, &s, modes, c);
		fflush(stdout);
	}
	input_destroy(in);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
	return 0;
}
