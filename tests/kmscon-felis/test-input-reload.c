/* tests/kmscon-felis/test-input-reload.c: the keyboard keys of a configuration reload reach the input glue, as
 * reload.c's kf_reload_on_timer drives it (kf_config_reload, kf_input_glue_keymap_prepare, the struct replaced,
 * kf_input_glue_keymap_done), with real xkbcommon: xkb-layout=us then de types z on the Y key; a layout that
 * does not compile is refused with its key and value named and nothing changes; a repeat-only change keeps the
 * keymap; a keymap file is compiled. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon.h>

static int failures;

#include "glue-harness.h"

static char dir[] = "/tmp/kf-input-reload-XXXXXX";
static char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};

static void write_conf(const char *text)
{
	conf_write(dir, text);
}

/* The configuration file becomes text and is reloaded as reload.c does it; returns the prepare's result (the
 * reload undone when it failed) and the keys applied in applied. log receives what was logged meanwhile. */
static int reload(struct kf_input_glue *g, struct kf_config *cfg, const char *text, char *applied, char *log,
		  size_t log_cap)
{
	char path[96];
	struct kf_config next;
	struct input_keymap *km = NULL;

	snprintf(path, sizeof(path), "%s/log", dir);
	write_conf(text);
	int saved = stderr_to(path);
	int r = kf_config_reload(cfg, &next, 3, argv, applied, 512);
	if (r == 0) {
		r = kf_input_glue_keymap_prepare(g, cfg, &next, &km);
		if (r < 0) {
			CHECK(km == NULL, "nothing to use after a failure");
			kf_config_reload_cancel(cfg, &next);
		} else {
			kf_config_finish(cfg);
			*cfg = next;
			kf_input_glue_keymap_done(g, km, true);
		}
	}
	stderr_back(saved, path, log, log_cap);
	return r;
}

int main(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24};
	struct app a = {0};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char applied[512], log[4096], file[128], text[256];

	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	write_conf("xkb-layout=us\n");
	CHECK(kf_config_parse(&cfg, 3, argv) == 0, "start");
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create");
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);
	key(in, KEY_Y);
	CHECK(sent(&a, "y"), "us: y");

	/* Shift held across the reload: still Shift; the release of the held key is not a stray one. */
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	CHECK(reload(g, &cfg, "xkb-layout=de\n", applied, log, sizeof(log)) == 0, "de: %s", log);
	CHECK(!strcmp(applied, "xkb-layout"), "applied '%s'", applied);
	key(in, KEY_Y);
	CHECK(sent(&a, "Z"), "de with Shift held: Z");
	input_inject_key(in, KEY_LEFTSHIFT, false, 2);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "de: z");
	CHECK(!strcmp(input_keymap_name(in), "de"), "keymap %s", input_keymap_name(in));

	/* Broken: the keymap stays, the whole reload is undone (the palette too), the log names key and value. */
	CHECK(reload(g, &cfg, "xkb-layout=no-such-layout\npalette=solarized\n", applied, log, sizeof(log)) ==
		      -EINVAL, "a layout that does not compile is refused");
	CHECK(strstr(log, "xkb-layout=no-such-layout") && strstr(log, "does not compile"), "the log: %s", log);
	CHECK(!strcmp(cfg.xkb_layout, "de") && cfg.palette == KF_PALETTE_DEFAULT, "the old configuration: %s",
	      cfg.xkb_layout);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "still de");

	/* Repeat only: the keymap stays (no compile), the delay applies to the next press; 0 = no repeat. */
	CHECK(reload(g, &cfg, "xkb-layout=de\nxkb-repeat-delay=0\n", applied, log, sizeof(log)) == 0, "repeat");
	CHECK(!strcmp(applied, "xkb-repeat-delay"), "applied '%s'", applied);
	CHECK(!strstr(log, "keymap de,"), "not compiled again: %s", log);
	input_inject_key(in, KEY_A, true, 1000000);
	input_timer_expired(in, 2000000);
	input_inject_key(in, KEY_A, false, 2100000);
	CHECK(sent(&a, "a"), "no repeat");

	/* Nothing changed: nothing to do. */
	struct kf_config next;
	struct input_keymap *km = (struct input_keymap *)&a;
	write_conf("xkb-layout=de\nxkb-repeat-delay=0\n");
	CHECK(kf_config_reload(&cfg, &next, 3, argv, applied, sizeof(applied)) == 0 && !applied[0], "unchanged");
	CHECK(kf_input_glue_keymap_prepare(g, &cfg, &next, &km) == 0 && km == NULL, "no keymap to use");
	kf_config_reload_cancel(&cfg, &next);

	/* A keymap file (de's) after us; one that does not exist is refused naming it. */
	CHECK(reload(g, &cfg, "xkb-layout=us\n", applied, log, sizeof(log)) == 0, "us");
	snprintf(file, sizeof(file), "%s/de.xkb", dir);
	write_keymap_file(file, "de", NULL);
	snprintf(text, sizeof(text), "xkb-keymap=%s\n", file);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0, "keymap file: %s", log);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "the file's keymap: z");
	snprintf(text, sizeof(text), "xkb-keymap=%s/nonexistent.xkb\n", dir);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) < 0, "a missing keymap file is refused");
	CHECK(strstr(log, "xkb-keymap=") && strstr(log, "nonexistent.xkb"), "names it: %s", log);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "still the file's keymap");

	/* The kitty protocol's event types, every key an escape code (flags 1+2+8): Y held across us to de sends nothing at the reload and one
	 * release, y's (the application pairs it with its press); the next press is z's. */
	CHECK(reload(g, &cfg, "xkb-layout=us\n", applied, log, sizeof(log)) == 0, "us for kitty");
	feed(&a, "\033[>11u");
	input_inject_key(in, KEY_Y, true, 10);
	CHECK(sent(&a, "\033[121u"), "kitty: y's press");
	CHECK(reload(g, &cfg, "xkb-layout=de\n", applied, log, sizeof(log)) == 0, "de with Y held");
	CHECK(sent(&a, ""), "nothing sent by the reload");
	input_inject_key(in, KEY_Y, false, 11);
	CHECK(sent(&a, "\033[121;1:3u"), "kitty: one release, y's");
	input_inject_key(in, KEY_Y, true, 12);
	input_inject_key(in, KEY_Y, false, 13);
	CHECK(sent(&a, "\033[122u\033[122;1:3u"), "kitty: z pressed and released");
	feed(&a, "\033[<u");

	/* The same file edited in place (us's now), the configuration unchanged: `systemctl reload` takes it. */
	CHECK(reload(g, &cfg, "xkb-layout=us\n", applied, log, sizeof(log)) == 0, "us");
	snprintf(text, sizeof(text), "xkb-keymap=%s\n", file);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0, "keymap file: %s", log);
	write_keymap_file(file, "us", NULL);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0 && !applied[0], "no key changed: %s", applied);
	key(in, KEY_Y);
	CHECK(sent(&a, "y"), "the file edited in place is read again: y");
	CHECK(strstr(log, "the keymap changed"), "and said: %s", log);
	/* Compiled again, the same: not swapped (a dead key half typed is kept). */
	write_keymap_file(file, "de", NULL);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0, "de's again");
	key(in, KEY_EQUAL);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0 && !strstr(log, "keymap"), "unchanged: %s", log);
	key(in, KEY_E);
	CHECK(sent(&a, "\xc3\xa9"), "the dead key typed before it still composes: e acute");
	/* Edited into one that does not compile, no key changed: the keymap stays, the rest of the file applies. */
	FILE *f = fopen(file, "w");
	CHECK(f && fputs("xkb_keymap { nonsense", f) >= 0 && fclose(f) == 0, "broken file");
	snprintf(text, sizeof(text), "xkb-keymap=%s/de.xkb\npalette=solarized\n", dir);
	CHECK(reload(g, &cfg, text, applied, log, sizeof(log)) == 0 && cfg.palette == KF_PALETTE_SOLARIZED,
	      "the palette applies: %s", log);
	CHECK(strstr(log, "does not compile") && strstr(log, "de.xkb"), "the broken file is named: %s", log);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "the keymap in use stays");
	/* XKB_DEFAULT_LAYOUT read again with no xkb key set. */
	CHECK(reload(g, &cfg, "", applied, log, sizeof(log)) == 0, "no xkb key: %s", log);
	key(in, KEY_Y);
	CHECK(sent(&a, "y"), "XKB_DEFAULT_LAYOUT=us: y");
	setenv("XKB_DEFAULT_LAYOUT", "de", 1);
	CHECK(reload(g, &cfg, "", applied, log, sizeof(log)) == 0, "XKB_DEFAULT_LAYOUT=de: %s", log);
	key(in, KEY_Y);
	CHECK(sent(&a, "z"), "XKB_DEFAULT_LAYOUT=de: z");

	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	snprintf(text, sizeof(text), "rm -rf '%s'", dir);
	if (system(text) != 0)
		failures++;
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
