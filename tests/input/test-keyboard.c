/* tests/input/test-keyboard.c: keymaps, compose, repeat and LEDs with real xkbcommon and xkb-data
 * (no devices: keys are fed with input_inject_key as libinput would deliver them). */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon-keysyms.h>
#include <xkbcommon/xkbcommon.h>

#include "tests/kf-check.h"
#include "input/input.h"

static int failures;

struct rec {
	struct input_key_event last;
	int keys;
	uint64_t deadline;
	int arms;
};

static char last_log[8192];

/* Keeps every message (up to the buffer) so a test can look for a warning among them. */
static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	size_t n = strlen(last_log);
	if (n + 2 >= sizeof(last_log))
		return;
	vsnprintf(last_log + n, sizeof(last_log) - n - 1, fmt, ap);
	strcat(last_log, "\n");
}

static void on_key(void *ctx, const struct input_key_event *ev)
{
	struct rec *r = ctx;
	r->last = *ev;
	r->keys++;
}

static void on_arm(void *ctx, uint64_t deadline)
{
	struct rec *r = ctx;
	r->deadline = deadline;
	r->arms++;
}

static const struct input_callbacks cbs = {.key = on_key, .arm_timer = on_arm};

/* A config that reads nothing from this machine unless the test asks. */
static struct input_config isolated(void)
{
	return (struct input_config){.etc_default_keyboard = "/nonexistent", .etc_vconsole = "/nonexistent",
				     .no_environment = true, .locale = "C"};
}

static void tap(struct input *in, uint32_t code)
{
	input_inject_key(in, code, true, 1000);
	input_inject_key(in, code, false, 1001);
}

/* Presses code and returns the press event (the release is sent after, so state stays clean). */
static struct input_key_event press(struct input *in, struct rec *r, uint32_t code)
{
	struct input_key_event ev;
	input_inject_key(in, code, true, 1000);
	ev = r->last;
	input_inject_key(in, code, false, 1001);
	return ev;
}

static void test_us(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_key_event ev;

	CHECK(in, "create");
	CHECK(!strcmp(input_keymap_name(in), "us"), "name %s", input_keymap_name(in));
	ev = press(in, &r, KEY_A);
	CHECK(ev.cp == 'a' && !strcmp(ev.utf8, "a") && ev.unshifted == 'a' && ev.base == 'a' && !ev.mods,
	      "a: cp %u mods %u", ev.cp, ev.mods);
	CHECK(ev.action == INPUT_KEY_PRESS && ev.keycode == KEY_A && ev.keysym == XKB_KEY_a, "a event");
	CHECK(r.last.action == INPUT_KEY_RELEASE, "release delivered");
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	CHECK(r.last.mods == INPUT_MOD_SHIFT, "shift press carries shift: %u", r.last.mods);
	ev = press(in, &r, KEY_A);
	CHECK(ev.cp == 'A' && ev.unshifted == 'a' && ev.mods == INPUT_MOD_SHIFT, "Shift+a: %u", ev.cp);
	input_inject_key(in, KEY_LEFTCTRL, true, 2);
	ev = press(in, &r, KEY_A);
	CHECK(ev.cp == 'A' && ev.mods == (INPUT_MOD_SHIFT | INPUT_MOD_CTRL), "Ctrl+Shift+a untransformed %u",
	      ev.cp);
	input_inject_key(in, KEY_LEFTCTRL, false, 3);
	input_inject_key(in, KEY_LEFTSHIFT, false, 3);
	input_inject_key(in, KEY_LEFTALT, true, 2);
	ev = press(in, &r, KEY_X);
	CHECK(ev.cp == 'x' && ev.mods == INPUT_MOD_ALT, "Alt+x mods %u", ev.mods);
	input_inject_key(in, KEY_LEFTALT, false, 3);
	ev = press(in, &r, KEY_ENTER);
	CHECK(ev.keysym == XKB_KEY_Return && ev.cp == 0 && !ev.utf8[0], "Enter has no text");
	ev = press(in, &r, KEY_2);
	CHECK(ev.cp == '2', "2");
	/* Hostile key codes are ignored, not passed to xkbcommon. */
	int before = r.keys;
	input_inject_key(in, 0xffffffffu, true, 5);
	CHECK(r.keys == before, "huge keycode ignored");
	input_destroy(in);
	input_destroy(NULL);
}

static void test_de_and_ru(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;
	struct input_key_event ev;

	cfg.layout = "de";
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de"), "de name");
	ev = press(in, &r, KEY_Y);
	CHECK(ev.cp == 'z' && ev.base == 'y', "de: Y key types z (%u, base %u)", ev.cp, ev.base);
	ev = press(in, &r, KEY_Z);
	CHECK(ev.cp == 'y', "de: Z key types y");
	ev = press(in, &r, KEY_SEMICOLON);
	CHECK(ev.cp == 0xf6 && !strcmp(ev.utf8, "\xc3\xb6"), "de: o umlaut %u", ev.cp);
	input_inject_key(in, KEY_RIGHTALT, true, 1);
	ev = press(in, &r, KEY_Q);
	CHECK(ev.cp == '@' && !(ev.mods & INPUT_MOD_ALT), "de: AltGr+q is @ without Alt (%u, %u)", ev.cp,
	      ev.mods);
	input_inject_key(in, KEY_RIGHTALT, false, 2);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	ev = press(in, &r, KEY_7);
	CHECK(ev.cp == '/', "de: Shift+7 is /");
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	input_destroy(in);

	cfg.layout = "ru";
	in = input_create(&cfg, &cbs, &r);
	ev = press(in, &r, KEY_C);
	CHECK(ev.cp == 0x441 && ev.unshifted == 0x441 && ev.base == 'c', "ru: es %u base %u", ev.cp, ev.base);
	input_destroy(in);
}

static void test_bad_layout(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;

	input_set_log_handler(on_log);
	last_log[0] = 0;
	cfg.layout = "no-such-layout";
	in = input_create(&cfg, &cbs, &r);
	CHECK(in, "a bad layout still gives a keyboard");
	CHECK(in && !strcmp(input_keymap_name(in), "us"), "falls back to us: %s", input_keymap_name(in));
	CHECK(strstr(last_log, "layout='no-such-layout'") && strstr(last_log, "using the 'us' layout"),
	      "clear warning: %s", last_log);
	CHECK(strstr(last_log, "symbols/no-such-layout"), "xkbcommon's reason is logged through us");
	CHECK(in && press(in, &r, KEY_Y).cp == 'y', "us Y");
	input_destroy(in);

	cfg = isolated();
	cfg.keymap_file = "/nonexistent/keymap.xkb";
	last_log[0] = 0;
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "us"), "missing keymap file -> us");
	CHECK(strstr(last_log, "/nonexistent/keymap.xkb"), "names the file: %s", last_log);
	input_destroy(in);

	/* A FIFO nobody writes as the keymap file or the compose file: the keyboard comes up without them (us,
	 * the locale's compose table) and the log says why. fopen(3) waited for a writer for ever, and the
	 * console never took keys. */
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "/tmp/kf-test-input-fifo-%d", (int)getpid());
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
	cfg = isolated();
	cfg.keymap_file = fifo;
	cfg.compose_file = fifo;
	last_log[0] = 0;
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "us"), "a FIFO as the keymap file -> us");
	CHECK(strstr(last_log, fifo) && strstr(last_log, "not a file"), "names the FIFO: %s", last_log);
	input_destroy(in);
	unlink(fifo);
	input_set_log_handler(NULL);
}

static char tmp_paths[8][64];
static int n_tmp;

static char *write_tmp(const char *content)
{
	char *p = tmp_paths[n_tmp++ % 8];
	int fd;

	if (p[0])
		unlink(p);

	snprintf(p, 64, "/tmp/kf-test-input-XXXXXX");
	fd = mkstemp(p);
	if (fd < 0 || write(fd, content, strlen(content)) != (ssize_t)strlen(content))
		abort();
	close(fd);
	return p;
}

static void test_sources(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;
	char big[2048];

	/* Debian's /etc/default/keyboard, with comments, quotes and an over-long line. */
	memset(big, 'x', sizeof(big));
	memcpy(big, "# ", 2);
	memcpy(big + sizeof(big) - 20, "XKBLAYOUT=ru\n", 14);
	cfg.etc_default_keyboard = write_tmp("# KEYBOARD CONFIGURATION FILE\nXKBMODEL=\"pc105\"\n"
					     "XKBLAYOUT=\"de\"\nXKBVARIANT=\"\"\nXKBOPTIONS=\"\"\n"
					     "BACKSPACE=\"guess\"\n");
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de"), "default/keyboard: %s", input_keymap_name(in));
	input_destroy(in);

	char *longline = write_tmp(big);
	cfg.etc_default_keyboard = longline;
	cfg.etc_vconsole = write_tmp("KEYMAP=fr\nXKBLAYOUT=fr # french\n");
	in = input_create(&cfg, &cbs, &r);
	/* The tail of the long comment line is not an assignment; vconsole.conf is used instead. */
	CHECK(in && !strcmp(input_keymap_name(in), "fr"), "vconsole: %s", input_keymap_name(in));
	CHECK(in && press(in, &r, KEY_Q).cp == 'a', "fr: Q key types a");
	input_destroy(in);

	/* A quoted value with a comment or blanks after it, as a shell reads it: the quotes kept made the layout
	 * '"de"', which fell back to us. */
	cfg = isolated();
	cfg.etc_default_keyboard = write_tmp("XKBLAYOUT=\"de\" # German\nXKBVARIANT='nodeadkeys'  \n"
					     "XKBOPTIONS=\"ctrl:nocaps\"\t\n");
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de(nodeadkeys)"), "quoted values with a comment or blanks after "
	      "them: %s", in ? input_keymap_name(in) : "");
	input_destroy(in);

	/* XKB_DEFAULT_* beats the /etc files, and explicit names beat both. */
	cfg.no_environment = false;
	setenv("XKB_DEFAULT_LAYOUT", "ru", 1);
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "ru"), "env: %s", input_keymap_name(in));
	input_destroy(in);
	cfg.layout = "de";
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de"), "names over env: %s", input_keymap_name(in));
	input_destroy(in);
	unsetenv("XKB_DEFAULT_LAYOUT");

	/* --xkb-keymap: a compiled keymap file. */
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names de = {.layout = "de"};
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, &de, 0);
	char *text = xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1);
	cfg = isolated();
	cfg.keymap_file = write_tmp(text);
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strncmp(input_keymap_name(in), "file:", 5), "keymap file: %s", input_keymap_name(in));
	CHECK(in && press(in, &r, KEY_Y).cp == 'z', "keymap file is de");
	input_destroy(in);
	free(text);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
}

static void test_compose(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;
	struct input_key_event ev;

	cfg.layout = "de";
	cfg.locale = "en_US.UTF-8";
	in = input_create(&cfg, &cbs, &r);
	/* de: the key left of Backspace is dead_acute; then e gives é. */
	ev = press(in, &r, KEY_EQUAL);
	CHECK(ev.composing && !ev.utf8[0], "dead key composes");
	ev = press(in, &r, KEY_E);
	CHECK(!ev.composing && ev.cp == 0xe9 && !strcmp(ev.utf8, "\xc3\xa9"), "dead_acute e: %u '%s'", ev.cp,
	      ev.utf8);
	ev = press(in, &r, KEY_E);
	CHECK(ev.cp == 'e', "then plain e");
	/* Ctrl+C after a dead key is Ctrl+C (it was c acute), and ends the sequence */
	tap(in, KEY_EQUAL);
	input_inject_key(in, KEY_LEFTCTRL, true, 1000);
	ev = press(in, &r, KEY_C);
	input_inject_key(in, KEY_LEFTCTRL, false, 1000);
	CHECK(!ev.composing && ev.keysym == XKB_KEY_c && ev.cp == 'c', "dead_acute, Ctrl+C: %#x %u", ev.keysym, ev.cp);
	ev = press(in, &r, KEY_E);
	CHECK(!ev.composing && ev.cp == 'e', "the sequence ended: e (%u)", ev.cp);
	/* A VT switch (the seat taken away and given back) in the middle ends the sequence: e is e again. */
	tap(in, KEY_EQUAL);
	input_suspend(in);
	CHECK(input_resume(in) == 0, "resume");
	ev = press(in, &r, KEY_E);
	CHECK(!ev.composing && ev.cp == 'e' && !strcmp(ev.utf8, "e"), "dead_acute, VT switch, e: %u '%s'", ev.cp,
	      ev.utf8);
	input_destroy(in);

	cfg.compose_file = write_tmp("<dead_acute> <e> : \"\xe2\x82\xac\xe2\x82\xac\"\n");
	in = input_create(&cfg, &cbs, &r);
	tap(in, KEY_EQUAL);
	ev = press(in, &r, KEY_E);
	CHECK(ev.cp == 0x20ac && !strcmp(ev.utf8, "\xe2\x82\xac\xe2\x82\xac"), "override file: %u '%s'",
	      ev.cp, ev.utf8);
	input_destroy(in);

	/* The longest result xkbcommon takes (254 bytes; it refuses longer strings): 84 euro signs, 252 bytes,
	 * came out as the first 31 bytes, the last a torn character (invalid UTF-8 for the application). */
	char file[400] = "<dead_acute> <e> : \"", want[300] = "";
	for (int i = 0; i < 84; i++)
		strcat(want, "\xe2\x82\xac");
	strcat(strcat(file, want), "\"\n");
	cfg.compose_file = write_tmp(file);
	in = input_create(&cfg, &cbs, &r);
	tap(in, KEY_EQUAL);
	ev = press(in, &r, KEY_E);
	CHECK(ev.cp == 0x20ac && !strcmp(ev.utf8, want), "a 252-byte result: %zu bytes, last 0x%02x", strlen(ev.utf8),
	      strlen(ev.utf8) ? (unsigned char)ev.utf8[strlen(ev.utf8) - 1] : 0);
	input_destroy(in);

	/* A compose file past 16 MiB (32 times the largest the locales ship) is not read: xkbcommon compiles one
	 * in the loop at start with no bound, 12.5 s and 446 MB for 450 MB of sequences, and the keyboard
	 * waited for it. The locale's is used, with a warning naming the size. */
	size_t big = (16u << 20) + 4096, line = strlen("# filler line of a compose file\n");
	char *text = malloc(big + 64);
	if (!text)
		abort();
	strcpy(text, "<dead_acute> <e> : \"\xe2\x82\xac\"\n");
	for (size_t n = strlen(text); n + line < big; n += line)
		memcpy(text + n, "# filler line of a compose file\n", line + 1);
	cfg.compose_file = write_tmp(text);
	free(text);
	in = input_create(&cfg, &cbs, &r);
	tap(in, KEY_EQUAL);
	ev = press(in, &r, KEY_E);
	CHECK(ev.cp == 0xe9, "a compose file past 16 MiB: the locale's dead_acute e (%u '%s')", ev.cp, ev.utf8);
	input_destroy(in);
	unlink(cfg.compose_file);
}

static void test_repeat(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	input_inject_key(in, KEY_A, true, 1000000);
	CHECK(r.deadline == 1250000, "delay 250 ms: %llu", (unsigned long long)r.deadline);
	r.keys = 0;
	input_timer_expired(in, 1249999);
	CHECK(r.keys == 0 && r.deadline == 1250000, "early wake-up repeats nothing");
	input_timer_expired(in, 1250000);
	CHECK(r.keys == 1 && r.last.action == INPUT_KEY_REPEAT && r.last.cp == 'a', "first repeat");
	CHECK(r.deadline == 1270000, "rate 50/s: %llu", (unsigned long long)r.deadline);
	input_timer_expired(in, 1270000);
	CHECK(r.keys == 2 && r.deadline == 1290000, "second repeat");
	input_timer_expired(in, 9000000);
	CHECK(r.keys == 3 && r.deadline == 9020000, "late wake-up: one repeat, no burst");
	/* Shift held during repeat changes the repeated character. */
	input_inject_key(in, KEY_LEFTSHIFT, true, 9010000);
	input_timer_expired(in, 9020000);
	CHECK(r.last.cp == 'A' && r.last.action == INPUT_KEY_REPEAT, "Shift+repeat %u", r.last.cp);
	input_inject_key(in, KEY_LEFTSHIFT, false, 9030000);
	input_inject_key(in, KEY_A, false, 9030000);
	CHECK(r.deadline == 0, "release disarms");
	r.keys = 0;
	input_timer_expired(in, 9999999);
	CHECK(r.keys == 0, "no repeat after release");
	/* Modifiers do not repeat; a second key takes over the repeat. */
	r.arms = 0;
	input_inject_key(in, KEY_LEFTCTRL, true, 1);
	CHECK(r.arms == 0, "ctrl does not repeat");
	input_inject_key(in, KEY_LEFTCTRL, false, 2);
	input_inject_key(in, KEY_A, true, 100);
	input_inject_key(in, KEY_B, true, 200);
	input_inject_key(in, KEY_A, false, 300);
	CHECK(r.deadline == 250200, "B repeats after A's release: %llu", (unsigned long long)r.deadline);
	input_timer_expired(in, 250200);
	CHECK(r.last.cp == 'b', "repeats b");
	input_inject_key(in, KEY_B, false, 400);
	input_destroy(in);

	cfg.repeat_delay_ms = 500;
	cfg.repeat_interval_ms = 100;
	in = input_create(&cfg, &cbs, &r);
	input_inject_key(in, KEY_A, true, 1000000);
	CHECK(r.deadline == 1500000, "custom delay");
	input_timer_expired(in, 1500000);
	CHECK(r.deadline == 1600000, "custom rate");
	input_suspend(in);
	CHECK(r.deadline == 0, "suspend stops repeat");
	input_destroy(in);
}

static void test_locks(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_key_event ev;

	CHECK(input_leds(in) == 0, "no LEDs");
	tap(in, KEY_CAPSLOCK);
	CHECK(input_leds(in) == 2, "Caps LED: %u", input_leds(in));
	ev = press(in, &r, KEY_A);
	CHECK(ev.cp == 'A' && (ev.mods & INPUT_MOD_CAPS), "Caps a");
	ev = press(in, &r, KEY_KP1);
	CHECK(ev.keysym == XKB_KEY_KP_End && ev.cp == 0, "KP1 without NumLock: %#x", ev.keysym);
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 3, "Num+Caps LEDs: %u", input_leds(in));
	ev = press(in, &r, KEY_KP1);
	CHECK(ev.keysym == XKB_KEY_KP_1 && ev.cp == '1' && (ev.mods & INPUT_MOD_NUM), "KP1 with NumLock");
	/* A suspend forgets held keys but keeps the locks. */
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	input_suspend(in);
	CHECK(input_resume(in) == 0, "resume without libinput");
	ev = press(in, &r, KEY_B);
	CHECK(ev.cp == 'B' && !(ev.mods & INPUT_MOD_SHIFT) && (ev.mods & INPUT_MOD_CAPS),
	      "after suspend: shift gone, caps kept (%u, %u)", ev.cp, ev.mods);
	CHECK(input_leds(in) == 3, "LEDs kept");
	tap(in, KEY_CAPSLOCK);
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 0, "LEDs off");
	CHECK(input_get_fd(in) == -1 && input_keyboard_count(in) == 0, "no libinput yet");
	input_destroy(in);
}

/* A long option list is used whole: the last of 281 bytes of options (ctrl:nocaps after 18 grp_led:scroll) makes
 * Caps Lock a Control key, given as a name or in /etc/default/keyboard. Names were cut to 255 bytes (127 for the
 * others) without a word, and the options past that were lost. */
static void test_long_names(void)
{
	char options[300] = "", line[400];
	struct rec r = {0};
	struct input_key_event ev;

	for (int i = 0; i < 18; i++)
		strcat(options, "grp_led:scroll,");
	strcat(options, "ctrl:nocaps");
	snprintf(line, sizeof(line), "XKBLAYOUT=us\nXKBOPTIONS=\"%s\"\n", options);
	for (int from_file = 0; from_file < 2; from_file++) {
		struct input_config cfg = isolated();
		if (from_file)
			cfg.etc_default_keyboard = write_tmp(line);
		else
			cfg.options = options;
		struct input *in = input_create(&cfg, &cbs, &r);
		if (!in) {
			CHECK(in, "a keyboard");
			continue;
		}
		input_inject_key(in, KEY_CAPSLOCK, true, 1);
		ev = press(in, &r, KEY_C);
		input_inject_key(in, KEY_CAPSLOCK, false, 2);
		CHECK((ev.mods & INPUT_MOD_CTRL) && !(ev.mods & INPUT_MOD_CAPS), "%zu bytes of options %s: Caps is Ctrl "
		      "(mods %#x)", strlen(options), from_file ? "in /etc/default/keyboard" : "as a name", ev.mods);
		input_destroy(in);
	}
}

/* A keymap level may hold several keysyms (xkbcommon's "{ a, b }"; a --xkb-keymap file, xkeyboard-config's
 * newer symbols): the key types them all, as xkbcommon's own xkb_state_key_get_utf8 gives them. It typed nothing
 * (xkb_state_key_get_one_sym is NoSymbol for such a level). Its repeats type them again; the level's other keys
 * and levels are as before. */
static void test_several_keysyms(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;
	struct input_key_event ev;
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names us = {.layout = "us"};
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, &us, 0);
	char *text = km ? xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	char *a = text ? strstr(text, "key <AC01>") : NULL, *end = a ? strchr(a, '\n') : NULL;
	char *edited = text ? malloc(strlen(text) + 64) : NULL;

	CHECK(end && edited, "the us keymap as text");
	if (!end || !edited)
		goto out;
	/* DEVANAGARI LETTER KA and SIGN VIRAMA on the A key's first level, a Cyrillic letter and a Latin one on its
	 * second */
	sprintf(edited, "%.*skey <AC01> { [ { U0915, U094D }, { U0416, Z } ] };%s", (int)(a - text), text, end);
	cfg.keymap_file = write_tmp(edited);
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strncmp(input_keymap_name(in), "file:", 5), "the keymap file is used: %s",
	      in ? input_keymap_name(in) : "");
	if (in) {
		ev = press(in, &r, KEY_A);
		CHECK(ev.cp == 0x915 && !strcmp(ev.utf8, "\xe0\xa4\x95\xe0\xa5\x8d"), "two keysyms: cp %#x '%s'", ev.cp,
		      ev.utf8);
		input_inject_key(in, KEY_LEFTSHIFT, true, 1);
		ev = press(in, &r, KEY_A);
		input_inject_key(in, KEY_LEFTSHIFT, false, 2);
		CHECK(ev.cp == 0x416 && !strcmp(ev.utf8, "\xd0\x96Z"), "Shift: cp %#x '%s'", ev.cp, ev.utf8);
		input_inject_key(in, KEY_A, true, 1000000);
		input_timer_expired(in, 1250000);
		CHECK(r.last.action == INPUT_KEY_REPEAT && r.last.cp == 0x915 &&
		      !strcmp(r.last.utf8, "\xe0\xa4\x95\xe0\xa5\x8d"), "its repeat: cp %#x '%s'", r.last.cp, r.last.utf8);
		input_inject_key(in, KEY_A, false, 1300000);
		ev = press(in, &r, KEY_S);
		CHECK(ev.cp == 's' && !strcmp(ev.utf8, "s"), "the S key: '%s'", ev.utf8);
	}
	input_destroy(in);

	/* A level of 100 euro signs (300 bytes) is typed cut to whole characters, and said once: a warning at
	 * every press and every repeat (50 a second) filled the journal while the key was held. */
	char *big = malloc(strlen(text) + 1024), *p;
	CHECK(big != NULL, "memory");
	if (!big)
		goto out;
	p = big + sprintf(big, "%.*skey <AC01> { [ { U20AC", (int)(a - text), text);
	for (int i = 1; i < 100; i++)
		p += sprintf(p, ", U20AC");
	sprintf(p, " } ] };%s", end);
	cfg.keymap_file = write_tmp(big);
	free(big);
	input_set_log_handler(on_log);
	last_log[0] = 0;
	in = input_create(&cfg, &cbs, &r);
	if (in) {
		for (int i = 0; i < 3; i++) {
			ev = press(in, &r, KEY_A);
			CHECK(ev.cp == 0x20ac && strlen(ev.utf8) == 255, "100 keysyms: %zu bytes", strlen(ev.utf8));
		}
		input_inject_key(in, KEY_A, true, 1000000);
		for (uint64_t t = 1250000; t < 1500000; t += 20000)
			input_timer_expired(in, t);
		input_inject_key(in, KEY_A, false, 1500000);
		int said = 0;
		for (const char *q = last_log; (q = strstr(q, "is longer than")); q++)
			said++;
		CHECK(said == 1, "a text longer than the limit said %d times in 4 presses and 13 repeats", said);
	}
	input_destroy(in);
	input_set_log_handler(NULL);
out:
	free(edited);
	free(text);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
}

/* kmscon's --xkb-model, --xkb-variant and --xkb-options reach xkbcommon. */
static void test_names(void)
{
	struct input_config cfg = isolated();
	struct rec r = {0};
	struct input *in;
	struct input_key_event ev;

	/* de: the key left of 1 is a dead circumflex; de(nodeadkeys) types '^' at once. */
	cfg.layout = "de";
	in = input_create(&cfg, &cbs, &r);
	ev = press(in, &r, KEY_GRAVE);
	CHECK(ev.keysym == XKB_KEY_dead_circumflex && ev.cp == 0, "de: dead circumflex (%#x, %u)", ev.keysym,
	      ev.cp);
	input_destroy(in);
	cfg.variant = "nodeadkeys";
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de(nodeadkeys)"), "name %s", input_keymap_name(in));
	ev = press(in, &r, KEY_GRAVE);
	CHECK(ev.keysym == XKB_KEY_asciicircum && ev.cp == '^' && !strcmp(ev.utf8, "^"),
	      "de(nodeadkeys): ^ at once (%#x, %u)", ev.keysym, ev.cp);
	ev = press(in, &r, KEY_A);
	CHECK(ev.cp == 'a', "no compose pending after ^: %u", ev.cp);
	input_destroy(in);

	/* ctrl:nocaps: Caps Lock is a Control key (no lock, no LED). */
	cfg = isolated();
	cfg.options = "ctrl:nocaps";
	in = input_create(&cfg, &cbs, &r);
	input_inject_key(in, KEY_CAPSLOCK, true, 1);
	ev = press(in, &r, KEY_C);
	CHECK(ev.keysym == XKB_KEY_c && (ev.mods & INPUT_MOD_CTRL) && !(ev.mods & INPUT_MOD_CAPS),
	      "ctrl:nocaps: Caps+c is Ctrl+c (mods %u)", ev.mods);
	input_inject_key(in, KEY_CAPSLOCK, false, 2);
	ev = press(in, &r, KEY_C);
	CHECK(ev.cp == 'c' && !ev.mods && input_leds(in) == 0, "ctrl:nocaps: no lock (mods %u, leds %u)", ev.mods,
	      input_leds(in));
	input_destroy(in);

	/* The model: pc105 is accepted; chromebook's symbols turn F1 into Back (so the model is used). */
	cfg = isolated();
	cfg.model = "pc105";
	cfg.layout = "de";
	last_log[0] = '\0';
	in = input_create(&cfg, &cbs, &r);
	CHECK(in && !strcmp(input_keymap_name(in), "de") && !strstr(last_log, "does not compile"),
	      "pc105 de: %s %s", input_keymap_name(in), last_log);
	CHECK(press(in, &r, KEY_Y).cp == 'z' && press(in, &r, KEY_F1).keysym == XKB_KEY_F1, "pc105: de, F1");
	input_destroy(in);
	cfg.model = "chromebook";
	in = input_create(&cfg, &cbs, &r);
	ev = press(in, &r, KEY_F1);
	CHECK(ev.keysym == XKB_KEY_XF86Back, "chromebook: F1 is XF86Back (%#x)", ev.keysym);
	input_destroy(in);
}

int main(void)
{
	test_us();
	test_de_and_ru();
	test_bad_layout();
	test_sources();
	test_names();
	test_several_keysyms();
	test_long_names();
	test_compose();
	test_repeat();
	test_locks();
	for (int i = 0; i < 8; i++) {
		if (tmp_paths[i][0])
			unlink(tmp_paths[i]);
	}
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("all keyboard checks passed\n");
	return failures ? 1 : 0;
}
