/* tests/input/test-compose.c: dead keys, the Compose key and the locale's compose table, and a second layout,
 * with real xkbcommon, the installed xkb-data and the system's compose tables (/usr/share/X11/locale). */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon-keysyms.h>

#include "input/input.h"
#include "tests/kf-check.h"

static int failures, checks;

/* CHECK, counted: the before -> after numbers of a fix are "failed of checks". */
#define TRY(...)                                                                                           \
	do {                                                                                               \
		checks++;                                                                                  \
		CHECK(__VA_ARGS__);                                                                        \
	} while (0)

struct rec {
	struct input_key_event last;
	int keys;
	uint64_t deadline;
};

static int warnings;
static char log_text[4096];

static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)file;
	(void)line;
	if (prio <= 4)
		warnings++;
	size_t n = strlen(log_text);
	if (n + 16 < sizeof(log_text)) { /* room for the "<p> " before the text */
		n += (size_t)snprintf(log_text + n, sizeof(log_text) - n - 1, "<%d> ", prio);
		vsnprintf(log_text + n, sizeof(log_text) - n - 1, fmt, ap);
		strcat(log_text, "\n");
	}
}

static void on_key(void *ctx, const struct input_key_event *ev)
{
	struct rec *r = ctx;
	r->last = *ev;
	r->keys++;
}

static void on_arm(void *ctx, uint64_t deadline)
{
	((struct rec *)ctx)->deadline = deadline;
}

static const struct input_callbacks cbs = {.key = on_key, .arm_timer = on_arm};

/* A config that reads no keymap from this machine. */
static struct input_config isolated(const char *layout, const char *variant, const char *options)
{
	return (struct input_config){.etc_default_keyboard = "/nonexistent", .etc_vconsole = "/nonexistent",
				     .no_environment = true, .locale = "en_US.UTF-8", .layout = layout,
				     .variant = variant, .options = options};
}

static void key(struct input *in, uint32_t code, bool down)
{
	input_inject_key(in, code, down, 1000);
}

/* The press event of code (released after it). */
static struct input_key_event press(struct input *in, struct rec *r, uint32_t code)
{
	key(in, code, true);
	struct input_key_event ev = r->last;
	key(in, code, false);
	return ev;
}

/* us(intl): the apostrophe key is dead_acute. */
static void test_dead_keys(void)
{
	struct input_config cfg = isolated("us", "intl", NULL);
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_key_event ev;

	TRY(in != NULL, "us(intl) compiles");
	if (!in)
		return;
	ev = press(in, &r, KEY_APOSTROPHE);
	TRY(ev.composing && ev.keysym == XKB_KEY_dead_acute && !ev.utf8[0], "dead_acute starts a sequence");
	ev = press(in, &r, KEY_E);
	TRY(!ev.composing && !strcmp(ev.utf8, "\xc3\xa9") && ev.cp == 0xe9, "dead_acute e: '%s'", ev.utf8);
	/* dead key and space: the accent itself (us(intl)'s table gives the apostrophe it replaces) */
	press(in, &r, KEY_APOSTROPHE);
	ev = press(in, &r, KEY_SPACE);
	TRY(!ev.composing && !strcmp(ev.utf8, "'"), "dead_acute space: '%s'", ev.utf8);
	/* twice: the spacing accent */
	press(in, &r, KEY_APOSTROPHE);
	ev = press(in, &r, KEY_APOSTROPHE);
	TRY(!ev.composing && ev.cp == 0xb4, "dead_acute dead_acute: U+%04X", ev.cp);
	/* Shift during the sequence: the capital */
	press(in, &r, KEY_APOSTROPHE);
	key(in, KEY_LEFTSHIFT, true);
	ev = press(in, &r, KEY_E);
	key(in, KEY_LEFTSHIFT, false);
	TRY(!ev.composing && !strcmp(ev.utf8, "\xc3\x89"), "dead_acute Shift+e: '%s'", ev.utf8);
	/* A key no sequence goes on with (xkbcommon: cancelled): swallowed, as libX11's filter discards it; the
	 * next key is itself. xterm 379 under us(intl), measured: dead_acute e, dead_acute q, x, dead_acute Escape,
	 * y, dead_acute space, z sent "é" "x" "y" "'" "z" (q and Escape swallowed). */
	press(in, &r, KEY_APOSTROPHE);
	ev = press(in, &r, KEY_Q);
	TRY(ev.composing && !ev.utf8[0] && !ev.cp, "dead_acute q: q swallowed (%u '%s')", ev.cp, ev.utf8);
	ev = press(in, &r, KEY_E);
	TRY(!ev.composing && ev.cp == 'e', "then e is e (%u)", ev.cp);
	/* Escape ends the sequence the same way */
	press(in, &r, KEY_APOSTROPHE);
	ev = press(in, &r, KEY_ESC);
	TRY(ev.composing, "dead_acute Escape: swallowed");
	ev = press(in, &r, KEY_E);
	TRY(ev.cp == 'e', "then e (%u)", ev.cp);
	/* A held dead key does not repeat (a repeat would type nothing and feed the sequence again); the key that
	 * finishes the sequence repeats as itself, as X's autorepeat feeds each repeat afresh. */
	r.deadline = 0;
	key(in, KEY_APOSTROPHE, true);
	TRY(r.deadline == 0, "a dead key arms no repeat (%llu)", (unsigned long long)r.deadline);
	int keys = r.keys;
	input_timer_expired(in, 5000000);
	TRY(r.keys == keys, "no repeat of a held dead key");
	key(in, KEY_APOSTROPHE, false);
	key(in, KEY_E, true);
	TRY(r.last.cp == 0xe9 && r.deadline == 251000, "e after it: é, repeat armed (%llu)",
	    (unsigned long long)r.deadline);
	input_timer_expired(in, 251000);
	TRY(r.last.action == INPUT_KEY_REPEAT && r.last.cp == 'e' && !r.last.composing, "its repeat: e (%u)",
	    r.last.cp);
	key(in, KEY_E, false);
	input_destroy(in);
}

/* compose:ralt: Right Alt is Multi_key; sequences of the locale's table. */
static void test_compose_key(void)
{
	struct input_config cfg = isolated("us", NULL, "compose:ralt");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_key_event ev;

	TRY(in != NULL, "us with compose:ralt compiles");
	if (!in)
		return;
	ev = press(in, &r, KEY_RIGHTALT);
	TRY(ev.keysym == XKB_KEY_Multi_key && ev.composing, "Right Alt is Compose (%#x)", ev.keysym);
	ev = press(in, &r, KEY_O);
	TRY(ev.composing, "Compose o: in progress");
	ev = press(in, &r, KEY_C);
	TRY(!strcmp(ev.utf8, "\xc2\xa9"), "Compose o c: '%s'", ev.utf8);
	press(in, &r, KEY_RIGHTALT);
	key(in, KEY_LEFTSHIFT, true);
	press(in, &r, KEY_A);
	ev = press(in, &r, KEY_E);
	key(in, KEY_LEFTSHIFT, false);
	TRY(!strcmp(ev.utf8, "\xc3\x86"), "Compose A E: '%s'", ev.utf8);
	/* A key repeating when Compose is pressed stops: its repeats would type in the middle of the sequence. */
	key(in, KEY_X, true);
	TRY(r.deadline != 0, "x repeats");
	key(in, KEY_RIGHTALT, true);
	TRY(r.deadline == 0, "Compose stops it (%llu)", (unsigned long long)r.deadline);
	key(in, KEY_RIGHTALT, false);
	key(in, KEY_X, false);
	/* Ctrl+key in the middle: itself, and the sequence ends */
	press(in, &r, KEY_O);
	press(in, &r, KEY_RIGHTALT);
	press(in, &r, KEY_O);
	key(in, KEY_LEFTCTRL, true);
	ev = press(in, &r, KEY_C);
	key(in, KEY_LEFTCTRL, false);
	TRY(!ev.composing && ev.keysym == XKB_KEY_c && (ev.mods & INPUT_MOD_CTRL), "Compose o Ctrl+c: Ctrl+c (%#x)",
	    ev.keysym);
	ev = press(in, &r, KEY_C);
	TRY(ev.cp == 'c', "then c (%u)", ev.cp);
	/* a configuration reload with another keymap in the middle: the sequence is gone */
	press(in, &r, KEY_RIGHTALT);
	press(in, &r, KEY_O);
	struct input_config de = isolated("de", NULL, "compose:ralt");
	struct input_keymap *km = NULL;
	TRY(input_keymap_new(in, &de, true, &km) == 0 && km && input_keymap_changes(km), "de compiles");
	if (km)
		input_keymap_use(in, km);
	ev = press(in, &r, KEY_C);
	TRY(!ev.composing && ev.cp == 'c', "Compose o, reload, c: c (%u '%s')", ev.cp, ev.utf8);
	/* input_end_sequence (a new login): the sequence ends, a held Shift still counts */
	press(in, &r, KEY_RIGHTALT);
	key(in, KEY_LEFTSHIFT, true);
	press(in, &r, KEY_O);
	input_end_sequence(in);
	ev = press(in, &r, KEY_C);
	key(in, KEY_LEFTSHIFT, false);
	TRY(!ev.composing && ev.cp == 'C', "Compose Shift+o, end, Shift+c: C (%u '%s')", ev.cp, ev.utf8);
	/* and a VT switch */
	press(in, &r, KEY_RIGHTALT);
	press(in, &r, KEY_O);
	input_suspend(in);
	input_resume(in);
	ev = press(in, &r, KEY_C);
	TRY(!ev.composing && ev.cp == 'c', "Compose o, VT switch, c: c (%u '%s')", ev.cp, ev.utf8);
	input_destroy(in);
}

/* us,ru with Alt+Shift: the group follows, the text with it; the US key stays the base key (Ctrl+С is ^C,
 * kitty's base-layout key); grp_led:scroll lights Scroll Lock for the second group. */
static void test_second_layout(void)
{
	struct input_config cfg = isolated("us,ru", NULL, "grp:alt_shift_toggle,grp_led:scroll");
	struct rec r = {0};
	struct input *in = input_create(&cfg, &cbs, &r);
	struct input_key_event ev;

	TRY(in != NULL, "us,ru compiles");
	if (!in)
		return;
	ev = press(in, &r, KEY_C);
	TRY(ev.cp == 'c' && ev.base == 'c' && input_leds(in) == 0, "us: c (%u), LEDs %#x", ev.cp, input_leds(in));
	key(in, KEY_LEFTALT, true);
	key(in, KEY_LEFTSHIFT, true);
	key(in, KEY_LEFTSHIFT, false);
	key(in, KEY_LEFTALT, false);
	ev = press(in, &r, KEY_C);
	TRY(ev.cp == 0x441 && !strcmp(ev.utf8, "\xd1\x81") && ev.unshifted == 0x441 && ev.base == 'c',
	    "ru: es (U+%04X), base %c", ev.cp, ev.base);
	TRY(input_leds(in) == 4, "Scroll Lock LED for the second group: %#x", input_leds(in));
	key(in, KEY_LEFTCTRL, true);
	ev = press(in, &r, KEY_C);
	key(in, KEY_LEFTCTRL, false);
	TRY(ev.base == 'c' && (ev.mods & INPUT_MOD_CTRL), "Ctrl+es: base c");
	key(in, KEY_LEFTSHIFT, true);
	ev = press(in, &r, KEY_C);
	key(in, KEY_LEFTSHIFT, false);
	TRY(ev.cp == 0x421 && ev.unshifted == 0x441 && ev.base == 'c', "Shift: capital ES (U+%04X)", ev.cp);
	/* a VT switch keeps the group (a lock, like Caps Lock) */
	input_suspend(in);
	input_resume(in);
	ev = press(in, &r, KEY_C);
	TRY(ev.cp == 0x441 && input_leds(in) == 4, "after a VT switch: still ru (U+%04X)", ev.cp);
	key(in, KEY_LEFTALT, true);
	key(in, KEY_LEFTSHIFT, true);
	key(in, KEY_LEFTSHIFT, false);
	key(in, KEY_LEFTALT, false);
	ev = press(in, &r, KEY_C);
	TRY(ev.cp == 'c' && input_leds(in) == 0, "back to us: c (%u), LEDs %#x", ev.cp, input_leds(in));
	input_destroy(in);
}

/* dead_acute c under de: ć in the en_US.UTF-8 table, ç in pt_BR.UTF-8's; "" when nothing was typed. */
static const char *acute_c(const char *locale)
{
	static char out[INPUT_UTF8_MAX];
	struct input_config cfg = isolated("de", NULL, NULL);
	struct rec r = {0};

	cfg.locale = locale;
	struct input *in = input_create(&cfg, &cbs, &r);
	if (!in)
		return "(no input)";
	press(in, &r, KEY_EQUAL);
	struct input_key_event ev = press(in, &r, KEY_C);
	snprintf(out, sizeof(out), "%s", ev.composing ? "" : ev.utf8);
	input_destroy(in);
	return out;
}

static void test_locale(void)
{
	/* which variable names the locale: LC_ALL, LC_CTYPE, LANG, the first set and not empty (as xkbcommon's
	 * documentation does it) */
	static const struct {
		const char *all, *ctype, *lang, *want;
	} env[] = {
		{NULL, NULL, "pt_BR.UTF-8", "\xc3\xa7"},
		{NULL, "en_US.UTF-8", "pt_BR.UTF-8", "\xc4\x87"},
		{"pt_BR.UTF-8", "en_US.UTF-8", NULL, "\xc3\xa7"},
		{"", "pt_BR.UTF-8", "en_US.UTF-8", "\xc3\xa7"},
		{NULL, NULL, NULL, "\xc4\x87"}, /* C: xkbcommon's en_US.UTF-8 */
	};
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		const char *vals[3] = {env[i].all, env[i].ctype, env[i].lang};
		const char *names[3] = {"LC_ALL", "LC_CTYPE", "LANG"};
		for (int j = 0; j < 3; j++) {
			if (vals[j])
				setenv(names[j], vals[j], 1);
			else
				unsetenv(names[j]);
		}
		const char *got = acute_c(NULL);
		TRY(!strcmp(got, env[i].want), "LC_ALL=%s LC_CTYPE=%s LANG=%s: '%s', want '%s'",
		    env[i].all ? env[i].all : "(unset)", env[i].ctype ? env[i].ctype : "(unset)",
		    env[i].lang ? env[i].lang : "(unset)", got, env[i].want);
	}
	unsetenv("LC_ALL");
	unsetenv("LC_CTYPE");
	unsetenv("LANG");

	/* A legacy locale names a Latin-1 table, which xkbcommon refuses (13 errors): the terminal is UTF-8, so
	 * its UTF-8 twin is taken; a locale with no table at all takes C's. Dead keys worked in none of them. */
	static const struct {
		const char *locale, *want;
		int warnings; /* xkbcommon's "failed to expand %L" and its parse error */
	} legacy[] = {
		{"pt_BR", "\xc3\xa7", 0},
		{"pt_BR.ISO-8859-1", "\xc3\xa7", 0},
		{"pt_BR@euro", "\xc3\xa7", 0},
		{"de_DE@euro", "\xc4\x87", 0},
		{"xx_YY.UTF-8", "\xc4\x87", 2},
		{"en_US.utf8", "\xc4\x87", 0},
	};
	for (size_t i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
		warnings = 0;
		log_text[0] = 0;
		const char *got = acute_c(legacy[i].locale);
		TRY(!strcmp(got, legacy[i].want) && warnings == legacy[i].warnings,
		    "locale %s: '%s', want '%s'; %d warnings:\n%s", legacy[i].locale, got, legacy[i].want, warnings,
		    log_text);
	}
}

/* acute_c("en_US.UTF-8") in a child bounded to 5 s: "(hung)" when it did not finish; *warns its warnings. */
static const char *acute_c_bounded(int *warns)
{
	static char out[INPUT_UTF8_MAX + 16];
	int fds[2];

	out[0] = 0;
	*warns = -1;
	if (pipe(fds) < 0)
		return "(no pipe)";
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		alarm(5);
		warnings = 0;
		const char *got = acute_c("en_US.UTF-8");
		dprintf(fds[1], "%d %s", warnings, got);
		_exit(0);
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t r;
	while (pid > 0 && n + 1 < sizeof(out) && (r = read(fds[0], out + n, sizeof(out) - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = 0;
	close(fds[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid <= 0 || !WIFEXITED(status) || !n)
		return "(hung)";
	char *sp = strchr(out, ' ');
	*warns = atoi(out);
	return sp ? sp + 1 : "";
}

/* The user's compose file, found as xkbcommon finds it (XCOMPOSEFILE, $XDG_CONFIG_HOME/XCompose,
 * ~/.config/XCompose, ~/.XCompose), is read as xkb-compose-file is: bounded, regular files only. xkbcommon
 * opened it with fopen(3): a FIFO there held the keyboard's start for ever (no keys at all). */
static void test_user_file(void)
{
	char dir[] = "/tmp/kf-compose-XXXXXX", path[128], fifo[128];
	int warns;

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/XCompose", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	FILE *f = fopen(path, "w");
	if (!f || mkfifo(fifo, 0600) < 0)
		abort();
	fputs("include \"%L\"\n<dead_acute> <c> : \"X\"\n", f);
	fclose(f);
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", dir, 1);

	setenv("XCOMPOSEFILE", path, 1);
	const char *got = acute_c_bounded(&warns);
	TRY(!strcmp(got, "X") && !warns, "XCOMPOSEFILE: its sequence: '%s' (%d warnings)", got, warns);
	setenv("XCOMPOSEFILE", fifo, 1);
	got = acute_c_bounded(&warns);
	TRY(!strcmp(got, "\xc4\x87") && warns == 2, "XCOMPOSEFILE a FIFO: the locale's table, its warnings: '%s' (%d)",
	    got, warns);
	unsetenv("XCOMPOSEFILE");
	char dot[160];
	snprintf(dot, sizeof(dot), "%s/.XCompose", dir);
	if (symlink(fifo, dot) < 0)
		abort();
	got = acute_c_bounded(&warns);
	TRY(!strcmp(got, "\xc4\x87") && warns == 2, "~/.XCompose a FIFO: the locale's table, its warnings: '%s' (%d)",
	    got, warns);
	unlink(dot);
	if (symlink(path, dot) < 0)
		abort();
	got = acute_c_bounded(&warns);
	TRY(!strcmp(got, "X") && !warns, "~/.XCompose: its sequence: '%s' (%d warnings)", got, warns);

	unlink(dot);
	unlink(fifo);
	unlink(path);
	rmdir(dir);
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	free(home);
}

int main(void)
{
	input_set_log_handler(on_log);
	test_dead_keys();
	test_compose_key();
	test_second_layout();
	test_locale();
	test_user_file();
	if (failures)
		fprintf(stderr, "%d of %d compose checks failed\n", failures, checks);
	else
		printf("all %d compose checks passed\n", checks);
	return failures ? 1 : 0;
}
