/* tests/input/test-keymap-reload.c: a new keymap and repeat put in use while keys are held (a configuration
 * reload: input_keymap_new, input_keymap_use), with real xkbcommon and xkb-data; keys are fed with
 * input_inject_key as libinput would deliver them. Also the hostile cases: a keymap file whose Num Lock is
 * another real modifier than the old keymap's, a layout switch (Shift+Alt) held across the change. */
#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon-keysyms.h>
#include <xkbcommon/xkbcommon.h>

#include "tests/kf-check.h"
#include "input/input.h"

static int failures;

struct rec {
	struct input_key_event last;
	int keys;
	int releases;
	uint64_t deadline;
};

static char log_buf[8192];

static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	size_t n = strlen(log_buf);
	(void)prio;
	(void)file;
	(void)line;
	if (n + 2 >= sizeof(log_buf))
		return;
	vsnprintf(log_buf + n, sizeof(log_buf) - n - 1, fmt, ap);
	strcat(log_buf, "\n");
}

static void on_key(void *ctx, const struct input_key_event *ev)
{
	struct rec *r = ctx;
	r->last = *ev;
	r->keys++;
	r->releases += ev->action == INPUT_KEY_RELEASE;
}

static void on_arm(void *ctx, uint64_t deadline)
{
	struct rec *r = ctx;
	r->deadline = deadline;
}

static const struct input_callbacks cbs = {.key = on_key, .arm_timer = on_arm};

static struct input_config isolated(const char *layout)
{
	return (struct input_config){.layout = layout, .etc_default_keyboard = "/nonexistent",
				     .etc_vconsole = "/nonexistent", .no_environment = true, .locale = "C"};
}

static struct input_key_event press(struct input *in, struct rec *r, uint32_t code)
{
	struct input_key_event ev;
	input_inject_key(in, code, true, 1000);
	ev = r->last;
	input_inject_key(in, code, false, 1001);
	return ev;
}

static void tap(struct input *in, uint32_t code)
{
	input_inject_key(in, code, true, 1000);
	input_inject_key(in, code, false, 1001);
}

/* Compiles cfg and puts it in use; returns input_keymap_new's result. */
static int reload(struct input *in, const struct input_config *cfg, bool keymap)
{
	struct input_keymap *km = NULL;
	int r = input_keymap_new(in, cfg, keymap, &km);
	if (r == 0)
		input_keymap_use(in, km);
	else
		CHECK(km == NULL, "nothing handed out on failure");
	return r;
}

/* The same key code types y, then z once de is in use; the name follows. */
static void test_us_to_de(void)
{
	struct input_config cfg = isolated("us");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	CHECK(press(in, &r, KEY_Y).cp == 'y', "us: Y types y");
	cfg = isolated("de");
	CHECK(reload(in, &cfg, true) == 0, "de compiles");
	struct input_key_event ev = press(in, &r, KEY_Y);
	CHECK(ev.cp == 'z' && ev.base == 'y', "de after the reload: Y types %u (base %u)", ev.cp, ev.base);
	CHECK(!strcmp(input_keymap_name(in), "de"), "name: %s", input_keymap_name(in));
	cfg = isolated("us");
	cfg.variant = "dvorak";
	CHECK(reload(in, &cfg, true) == 0, "us(dvorak) compiles");
	CHECK(press(in, &r, KEY_Y).cp == 'f' && !strcmp(input_keymap_name(in), "us(dvorak)"),
	      "dvorak: Y types f (%s)", input_keymap_name(in));
	input_destroy(in);
}

/* A layout that does not compile changes nothing: the old keymap, its name and the repeat stay. */
static void test_broken(void)
{
	struct input_config cfg = isolated("de");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_keymap *km = (struct input_keymap *)&r;

	log_buf[0] = 0;
	cfg = isolated("no-such-layout");
	cfg.repeat_delay_ms = 900;
	CHECK(input_keymap_new(in, &cfg, true, &km) == -EINVAL && km == NULL, "refused");
	CHECK(strstr(log_buf, "symbols/no-such-layout"), "xkbcommon's reason is logged: %s", log_buf);
	CHECK(!strstr(log_buf, "using the 'us' layout"), "no fallback at a reload: %s", log_buf);
	CHECK(press(in, &r, KEY_Y).cp == 'z' && !strcmp(input_keymap_name(in), "de"), "de stays");
	input_inject_key(in, KEY_A, true, 1000000);
	CHECK(r.deadline == 1250000, "old repeat delay stays: %llu", (unsigned long long)r.deadline);
	input_inject_key(in, KEY_A, false, 1000001);

	cfg = isolated(NULL);
	cfg.keymap_file = "/nonexistent/keymap.xkb";
	log_buf[0] = 0;
	CHECK(input_keymap_new(in, &cfg, true, &km) < 0 && km == NULL, "a missing keymap file is refused");
	CHECK(strstr(log_buf, "/nonexistent/keymap.xkb"), "names the file: %s", log_buf);
	char path[] = "/tmp/kf-test-keymap-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, "xkb_keymap { nonsense", 21) == 21, "temp file");
	close(fd);
	cfg.keymap_file = path;
	CHECK(input_keymap_new(in, &cfg, true, &km) == -EINVAL && km == NULL, "a broken keymap file is refused");
	CHECK(press(in, &r, KEY_Y).cp == 'z' && !strcmp(input_keymap_name(in), "de"), "de still");
	unlink(path);
	input_destroy(in);
}

/* A Shift held across the reload still counts until it is released; Caps and Num Lock and their LEDs stay;
 * the locked layout goes back to the first of the new keymap. */
static void test_mods(void)
{
	struct input_config cfg = isolated("us");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	cfg = isolated("de");
	CHECK(reload(in, &cfg, true) == 0, "de");
	struct input_key_event ev = press(in, &r, KEY_Y);
	CHECK(ev.cp == 'Z' && (ev.mods & INPUT_MOD_SHIFT), "held Shift: %u mods %#x", ev.cp, ev.mods);
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	CHECK(press(in, &r, KEY_Y).cp == 'z', "Shift released");

	tap(in, KEY_CAPSLOCK);
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 3, "Num+Caps LEDs: %u", input_leds(in));
	cfg = isolated("us");
	CHECK(reload(in, &cfg, true) == 0, "us");
	ev = press(in, &r, KEY_Y);
	CHECK(ev.cp == 'Y' && (ev.mods & INPUT_MOD_CAPS) && (ev.mods & INPUT_MOD_NUM), "locks kept: %u %#x", ev.cp,
	      ev.mods);
	CHECK(input_leds(in) == 3, "LEDs kept: %u", input_leds(in));
	CHECK(press(in, &r, KEY_KP1).cp == '1', "Num Lock works");
	tap(in, KEY_CAPSLOCK);
	CHECK(input_leds(in) == 1 && press(in, &r, KEY_Y).cp == 'y', "Caps off again");
	tap(in, KEY_NUMLOCK);

	/* A Caps Lock held across the reload (us to de: the same keymap would not be swapped) does at its
	 * release what it would have done without: pressed to turn Caps on, it stays on; pressed to turn it
	 * off, it goes off. */
	input_inject_key(in, KEY_CAPSLOCK, true, 1);
	cfg = isolated("de");
	CHECK(reload(in, &cfg, true) == 0, "de");
	input_inject_key(in, KEY_CAPSLOCK, false, 2);
	CHECK(input_leds(in) == 2 && press(in, &r, KEY_Y).cp == 'Z', "Caps on: LEDs %u", input_leds(in));
	input_inject_key(in, KEY_CAPSLOCK, true, 3);
	CHECK(input_leds(in) == 2, "Caps still on while its key is down (it unlocks at the release)");
	cfg = isolated("us");
	CHECK(reload(in, &cfg, true) == 0, "us");
	CHECK(input_leds(in) == 2, "Caps on across the reload: LEDs %u", input_leds(in));
	input_inject_key(in, KEY_CAPSLOCK, false, 4);
	struct input_key_event y = press(in, &r, KEY_Y);
	CHECK(input_leds(in) == 0 && y.cp == 'y', "Caps off at its release: LEDs %u, Y types %c", input_leds(in),
	      (char)y.cp);
	tap(in, KEY_CAPSLOCK);
	CHECK(input_leds(in) == 2, "and on again");
	tap(in, KEY_CAPSLOCK);
	CHECK(input_leds(in) == 0, "and off");

	/* Two layouts, the second locked (Shift+Alt... here: grp:caps_toggle): the new keymap starts on its first. */
	cfg = isolated("us,de");
	cfg.options = "grp:caps_toggle";
	CHECK(reload(in, &cfg, true) == 0, "us,de");
	tap(in, KEY_CAPSLOCK);
	CHECK(press(in, &r, KEY_Y).cp == 'z', "second layout locked");
	cfg.layout = "de,us";
	CHECK(reload(in, &cfg, true) == 0, "de,us");
	CHECK(press(in, &r, KEY_Y).cp == 'z', "the first layout of the new keymap");
	input_destroy(in);
}

/* A key held across the reload stops repeating; its release is sent once, described as its press was (the
 * kitty protocol pairs them by key); the next press repeats with the new delay. */
static void test_held_key(void)
{
	struct input_config cfg = isolated("us");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	input_inject_key(in, KEY_Y, true, 1000000);
	CHECK(r.deadline == 1250000, "repeat armed");
	cfg = isolated("de");
	cfg.repeat_delay_ms = 600;
	CHECK(reload(in, &cfg, true) == 0, "de");
	CHECK(r.deadline == 0, "repeat stopped by the new keymap: %llu", (unsigned long long)r.deadline);
	r.keys = 0;
	input_timer_expired(in, 1250000);
	input_timer_expired(in, 9000000);
	CHECK(r.keys == 0, "no repeat after the reload: %d", r.keys);
	input_inject_key(in, KEY_Y, false, 2000000);
	CHECK(r.keys == 1 && r.releases == 1 && r.last.action == INPUT_KEY_RELEASE, "one release");
	CHECK(r.last.keysym == XKB_KEY_y && r.last.unshifted == 'y', "the release is y's, as its press: %#x %u",
	      r.last.keysym, r.last.unshifted);
	input_inject_key(in, KEY_Y, true, 3000000);
	CHECK(r.last.cp == 'z' && r.deadline == 3600000, "new press: %u, repeat at %llu", r.last.cp,
	      (unsigned long long)r.deadline);
	input_timer_expired(in, 3600000);
	CHECK(r.last.action == INPUT_KEY_REPEAT && r.last.cp == 'z', "repeats z");
	input_inject_key(in, KEY_Y, false, 3700000);
	CHECK(r.last.action == INPUT_KEY_RELEASE && r.last.keysym == XKB_KEY_z, "a later release is the new key's");

	/* More keys held than the reload remembers (INPUT_HELD_MAX): each is released once, the first ones (in
	 * key code order) described with the old keymap, the others with the new; nothing overflows. */
	uint32_t held[64];
	int n = 0;
	for (uint32_t code = KEY_1; code <= KEY_0; code++)
		held[n++] = code;
	for (uint32_t code = KEY_Q; code <= KEY_P; code++)
		held[n++] = code;
	for (uint32_t code = KEY_F1; code <= KEY_F10; code++)
		held[n++] = code;
	for (uint32_t code = KEY_F13; code <= KEY_F24; code++)
		held[n++] = code;
	held[n++] = KEY_F11;
	held[n++] = KEY_F12;
	CHECK(n == 44 && n > INPUT_HELD_MAX, "44 keys held");
	for (int i = 0; i < n; i++)
		input_inject_key(in, held[i], true, 4000000);
	cfg = isolated("us");
	CHECK(reload(in, &cfg, true) == 0, "us");
	r.releases = 0;
	for (int i = 0; i < n; i++) {
		input_inject_key(in, held[i], false, 5000000);
		if (held[i] == KEY_Y)
			CHECK(r.last.keysym == XKB_KEY_z, "Y held under de is released as z: %#x", r.last.keysym);
	}
	CHECK(r.releases == n, "every release once: %d", r.releases);
	CHECK(press(in, &r, KEY_Y).cp == 'y', "us now");
	input_destroy(in);
}

/* Only the repeat changed: the keymap stays, a repeat in progress goes on and takes the new interval from
 * its next repeat; a delay of UINT32_MAX (off) stops it. */
static void test_repeat_only(void)
{
	struct input_config cfg = isolated("de");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	input_inject_key(in, KEY_Y, true, 1000000);
	input_timer_expired(in, 1250000);
	CHECK(r.deadline == 1270000, "old interval");
	cfg.repeat_delay_ms = 400;
	cfg.repeat_interval_ms = 100;
	CHECK(reload(in, &cfg, false) == 0, "repeat only");
	CHECK(r.deadline == 1270000, "the armed repeat keeps its time: %llu", (unsigned long long)r.deadline);
	input_timer_expired(in, 1270000);
	CHECK(r.last.action == INPUT_KEY_REPEAT && r.last.cp == 'z', "still repeating z");
	CHECK(r.deadline == 1370000, "new interval: %llu", (unsigned long long)r.deadline);
	input_inject_key(in, KEY_Y, false, 1300000);
	input_inject_key(in, KEY_Y, true, 2000000);
	CHECK(r.deadline == 2400000, "new delay: %llu", (unsigned long long)r.deadline);
	cfg.repeat_delay_ms = UINT32_MAX;
	CHECK(reload(in, &cfg, false) == 0, "repeat off");
	CHECK(r.deadline == 0, "repeat stopped");
	input_inject_key(in, KEY_Y, false, 2100000);
	input_inject_key(in, KEY_Y, true, 2200000);
	CHECK(r.deadline == 0, "no repeat");
	input_inject_key(in, KEY_Y, false, 2300000);
	input_destroy(in);
}

/* A dead key pressed before the reload: the sequence is dropped, the next key types itself (de to at, both with
 * a dead acute). The same keymap compiled again (de, de) is no change: the sequence goes on. */
static void test_compose(void)
{
	struct input_config cfg = isolated("de");
	struct rec r = {0};
	struct input *in;

	cfg.locale = "en_US.UTF-8";
	in = input_create(&cfg, &cbs, &r);
	CHECK(press(in, &r, KEY_EQUAL).composing, "dead acute composes");
	cfg.layout = "at";
	CHECK(reload(in, &cfg, true) == 0, "at");
	struct input_key_event ev = press(in, &r, KEY_E);
	CHECK(!ev.composing && ev.cp == 'e', "e after the reload: %u", ev.cp);
	tap(in, KEY_EQUAL);
	CHECK(press(in, &r, KEY_E).cp == 0xe9, "compose works after the reload");

	struct input_keymap *km = NULL;
	tap(in, KEY_EQUAL);
	CHECK(input_keymap_new(in, &cfg, true, &km) == 0 && km && !input_keymap_changes(km), "at again: the same");
	if (km)
		input_keymap_use(in, km);
	CHECK(press(in, &r, KEY_E).cp == 0xe9, "the same keymap: the dead key still composes");
	input_destroy(in);
}

/* Writes layout's keymap as xkbcommon writes it to path, with the text from replaced by to (when not NULL). */
static void write_keymap(const char *path, const char *layout, const char *from, const char *to)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names names = {.layout = layout};
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	char *text = km ? xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	char *at = text && from ? strstr(text, from) : NULL;
	FILE *f = fopen(path, "w");

	if (!text || (from && !at) || !f)
		abort();
	if (at) {
		*at = 0;
		fprintf(f, "%s%s%s", text, to, at + strlen(from));
	} else {
		fputs(text, f);
	}
	if (fclose(f) != 0)
		abort();
	free(text);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
}

/* The old keymap has Num Lock on Mod2, the new one (a keymap file) on Mod3: the lock kept is Num Lock, not
 * whatever the new keymap put on Mod2. */
static void test_numlock_moved(void)
{
	char path[] = "/tmp/kf-test-numlock-XXXXXX";
	int fd = mkstemp(path);
	struct input_config cfg = isolated("us");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);

	CHECK(fd >= 0, "temp file");
	close(fd);
	write_keymap(path, "us", "modifier_map Mod2 { <NMLK> };", "modifier_map Mod3 { <NMLK> };");
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 1 && press(in, &r, KEY_KP1).cp == '1', "us: Num Lock on");
	cfg = isolated(NULL);
	cfg.keymap_file = path;
	CHECK(reload(in, &cfg, true) == 0, "the keymap file with Num Lock on Mod3 compiles");
	CHECK(input_leds(in) == 1, "the Num Lock LED stays lit: LEDs %u", input_leds(in));
	struct input_key_event ev = press(in, &r, KEY_KP1);
	CHECK(ev.cp == '1', "the keypad still types digits: %u (keysym %#x)", ev.cp, ev.keysym);
	CHECK(ev.mods & INPUT_MOD_NUM, "the key events say Num Lock (its Mod3): mods %#x", ev.mods);
	tap(in, KEY_NUMLOCK);
	ev = press(in, &r, KEY_KP1);
	CHECK(input_leds(in) == 0 && ev.cp == 0 && ev.keysym == XKB_KEY_KP_End,
	      "Num Lock then turns off: LEDs %u, keysym %#x", input_leds(in), ev.keysym);
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 1 && press(in, &r, KEY_KP1).cp == '1', "and on");
	/* Back to us: Mod3 locked there would be nothing; Num Lock must stay. */
	cfg = isolated("us");
	CHECK(reload(in, &cfg, true) == 0, "us again");
	CHECK(input_leds(in) == 1 && press(in, &r, KEY_KP1).cp == '1', "us: Num Lock still on: LEDs %u",
	      input_leds(in));
	tap(in, KEY_NUMLOCK);
	CHECK(input_leds(in) == 0, "and off: LEDs %u", input_leds(in));
	unlink(path);
	input_destroy(in);
}

/* us,de with grp:alt_shift_toggle: Shift+Alt, still held at the change, switched to de before it. Pressing
 * the held keys into the new keymap's state must not switch its layout again: it starts on its first. */
static void test_group_keys_held(void)
{
	struct input_config cfg = isolated("us,de");
	struct rec r = {0};
	struct input *in;

	cfg.options = "grp:alt_shift_toggle";
	in = input_create(&cfg, &cbs, &r);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	input_inject_key(in, KEY_LEFTALT, true, 2);
	cfg.options = "grp:alt_shift_toggle,compose:ralt";
	CHECK(reload(in, &cfg, true) == 0, "us,de with another option");
	input_inject_key(in, KEY_LEFTALT, false, 3);
	input_inject_key(in, KEY_LEFTSHIFT, false, 4);
	struct input_key_event ev = press(in, &r, KEY_Y);
	CHECK(ev.cp == 'y', "the first layout (us) after the change: Y types %u", ev.cp);
	input_destroy(in);
}

/* A storm of changes (100, us and de by turns, every other one a keymap file, repeat changed too) with Shift
 * held throughout, a key held and repeating at each, a dead key half typed: each key pressed is released once,
 * nothing repeats after a change, the last keymap types (ASan: no leak, no use of a freed state). */
static void test_storm(void)
{
	char path[] = "/tmp/kf-test-storm-XXXXXX";
	int fd = mkstemp(path);
	struct input_config cfg = isolated("us");
	struct rec r = {0};
	struct input *in;

	CHECK(fd >= 0, "temp file");
	close(fd);
	write_keymap(path, "de", NULL, NULL);
	cfg.locale = "en_US.UTF-8";
	in = input_create(&cfg, &cbs, &r);
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 1000000 * (uint64_t)(i + 1);
		uint32_t code = KEY_A + (uint32_t)(i % 5);
		input_inject_key(in, code, true, t);
		input_timer_expired(in, t + 300000);
		if (i % 7 == 0)
			tap(in, KEY_EQUAL);
		cfg = isolated(i % 2 ? "us" : NULL);
		cfg.keymap_file = i % 2 ? NULL : path;
		cfg.repeat_delay_ms = 200 + (unsigned)i;
		CHECK(reload(in, &cfg, true) == 0, "change %d", i);
		r.keys = 0;
		input_timer_expired(in, t + 900000);
		CHECK(r.keys == 0, "change %d: nothing repeats after it (%d)", i, r.keys);
		r.releases = 0;
		input_inject_key(in, code, false, t + 950000);
		CHECK(r.releases == 1 && r.last.keycode == code, "change %d: one release", i);
	}
	input_inject_key(in, KEY_LEFTSHIFT, false, 999000000);
	CHECK(press(in, &r, KEY_Y).cp == 'y', "the last keymap (us): %u", r.last.cp);
	unlink(path);
	input_destroy(in);
}

/* Writes text to path (aborts on failure). */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

/* A keymap file unchanged since its last compile gets that verdict at once (tests/kmscon-felis/test-reload-stall.c
 * times it); one written since, or one that includes other files (which may have changed), is compiled again. */
static void test_file_memo(void)
{
	char dir[] = "/tmp/kf-keymap-memo-XXXXXX", file[96], sym[128], path[160];
	static const char keymap[] = "xkb_keymap { xkb_keycodes { include \"evdev\" }; xkb_types { include "
				     "\"complete\" }; xkb_compat { include \"complete\" }; xkb_symbols { include "
				     "\"pc+mine\" }; };\n";
	struct rec r = {0};

	if (!mkdtemp(dir))
		abort();
	snprintf(file, sizeof(file), "%s/km.xkb", dir);
	write_file(file, "xkb_keymap { this does not compile };\n");
	struct input_config cfg = isolated("us");
	struct input *in = input_create(&cfg, &cbs, &r);
	cfg.keymap_file = file;
	CHECK(reload(in, &cfg, true) == -EINVAL, "a broken file is refused");
	log_buf[0] = 0;
	CHECK(reload(in, &cfg, true) == -EINVAL, "the same broken file again: refused");
	CHECK(strstr(log_buf, "unchanged since it did not compile"), "said without compiling it: %s", log_buf);
	/* written again (an edit): tried again, and it compiles now */
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names de = {.layout = "de"};
	struct xkb_keymap *dekm = xkb_keymap_new_from_names(ctx, &de, 0);
	char *text = xkb_keymap_get_as_string(dekm, XKB_KEYMAP_FORMAT_TEXT_V1);
	write_file(file, text);
	free(text);
	xkb_keymap_unref(dekm);
	xkb_context_unref(ctx);
	CHECK(reload(in, &cfg, true) == 0, "the file edited into de's keymap applies");
	CHECK(press(in, &r, KEY_Y).cp == 'z', "de from the file: z");
	CHECK(reload(in, &cfg, true) == 0 && press(in, &r, KEY_Y).cp == 'z', "unchanged: the same keymap");
	input_destroy(in);

	/* a file with an include: $HOME/.xkb/symbols/mine (xkbcommon's include path) edited, the file not. In a child
	 * that ends with _exit: xkbcommon 1.5 loses the path it builds for each file found past the first include
	 * directory (vasprintf in its lookup), which LeakSanitizer would count against this test. */
	snprintf(sym, sizeof(sym), "%s/.xkb/symbols", dir);
	snprintf(path, sizeof(path), "mkdir -p %s", sym);
	if (system(path) != 0)
		abort();
	snprintf(path, sizeof(path), "%s/mine", sym);
	write_file(path, "default xkb_symbols \"basic\" { include \"us\" };\n");
	write_file(file, keymap);
	fflush(NULL);
	pid_t child = fork();
	if (child == 0) {
		int before = failures;
		setenv("HOME", dir, 1);
		in = input_create(&cfg, &cbs, &r);
		CHECK(in && !strncmp(input_keymap_name(in), "file:", 5), "the file with includes compiles: %s",
		      in ? input_keymap_name(in) : "-");
		CHECK(press(in, &r, KEY_Y).cp == 'y', "its symbols: us's y");
		write_file(path, "default xkb_symbols \"basic\" { include \"us\" key <AD06> { [ z, Z ] }; };\n");
		CHECK(reload(in, &cfg, true) == 0 && press(in, &r, KEY_Y).cp == 'z',
		      "the included file edited: compiled again, y is z now");
		input_destroy(in);
		fflush(NULL);
		_exit(failures > before ? 1 : 0);
	}
	int st = 0;
	CHECK(child > 0 && waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the include checks (in a child) passed");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		abort();
}

int main(void)
{
	input_set_log_handler(on_log);
	test_us_to_de();
	test_broken();
	test_mods();
	test_held_key();
	test_repeat_only();
	test_compose();
	test_numlock_moved();
	test_group_keys_held();
	test_storm();
	test_file_memo();
	if (failures)
		fprintf(stderr, "%d failures; log:\n%s", failures, log_buf);
	return failures ? 1 : 0;
}
