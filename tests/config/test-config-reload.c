/* tests/config/test-config-reload.c: kf_config_reload (SIGHUP; kmscon-felis/config-reload.c).
 *
 * The configuration read again into a second struct: live keys take their new values and are listed; other
 * changed keys keep the old value, moved from the old struct so the running program's pointers into it (the
 * login's argv, TERM) stay valid; a bad file leaves everything as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"
#include "../kf-capture.h"
#include "../kf-check.h"

static int failures;
static char dir[] = "/tmp/kf-reload-XXXXXX";

static void write_conf(const char *text)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
		printf("cannot write %s\n", path);
		exit(1);
	}
}

static void test_reload(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, "--silent", NULL};
	struct kf_config cur, next;
	char applied[128];

	write_conf("palette=default\nterm=xterm-256color\nlogin=/bin/sh -l\nbell=audible\n");
	CHECK(kf_config_parse(&cur, 4, argv) == 0, "start");
	char *term = cur.term, **login = cur.login_argv;

	/* palette and bell change live; term, login and sb-size keep the old values, the same pointers */
	write_conf("palette=nord\nterm=vt100\nlogin=/bin/bash\nbell=none\nsb-size=5\ngrab-paste=<Ctrl>v\n");
	CHECK(kf_config_reload(&cur, &next, 4, argv, applied, sizeof(applied)) == 0, "reload");
	CHECK(!strcmp(applied, "bell, grab-paste, palette"), "applied '%s'", applied);
	CHECK(next.palette == KF_PALETTE_NORD && next.bell == KF_BELL_NONE, "live keys new");
	CHECK(next.term == term && !strcmp(next.term, "xterm-256color"), "term kept: %s", next.term);
	CHECK(next.login_argv == login && !strcmp(next.login_argv[0], "/bin/sh") && next.login_custom,
	      "login kept: %s", next.login_argv[0]);
	CHECK(next.sb_size == 10000, "sb-size kept: %u", next.sb_size);
	CHECK(!strcmp(cur.term, "vt100"), "the new term is left in cur, to be freed: %s", cur.term);
	kf_config_finish(&cur);
	cur = next;

	/* a bad value anywhere: an error, next finished, cur as it was */
	write_conf("palette=solarized\nbell=bogus\n");
	CHECK(kf_config_reload(&cur, &next, 4, argv, applied, sizeof(applied)) == -EINVAL, "bad file refused");
	CHECK(cur.palette == KF_PALETTE_NORD && cur.term == term && next.term == NULL, "nothing changed");

	/* nothing changed: nothing applied */
	write_conf("palette=nord\nterm=xterm-256color\nlogin=/bin/sh -l\nbell=none\ngrab-paste=<Ctrl>v\n");
	CHECK(kf_config_reload(&cur, &next, 4, argv, applied, sizeof(applied)) == 0 && !applied[0],
	      "unchanged: '%s'", applied);
	kf_config_finish(&cur);
	kf_config_finish(&next);
}

/* A broken file on reload does not change the log level either: the first pass over the command line set it
 * before the file was read (kf_config_parse). */
static void test_bad_keeps_level(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};
	struct kf_config cur, next;
	char applied[64];

	write_conf("verbose\n");
	CHECK(kf_config_parse(&cur, 3, argv) == 0 && kf_log_get_level() == KF_LOG_INFO, "verbose from the file");
	write_conf("verbose\nfont-size=0\n");
	CHECK(kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied)) == -EINVAL, "bad file refused");
	CHECK(kf_log_get_level() == KF_LOG_INFO, "level after a refused reload: %d", (int)kf_log_get_level());
	kf_config_finish(&cur);
	kf_log_set_level(KF_LOG_ERR);
}

/* A reload the program cannot apply (a font that does not open, a keymap that does not compile) is undone:
 * cur gets back every value and pointer it had (the session holds the login's argv and TERM: finishing next
 * as it was freed them), next is finished, and the level the new file set is the old one again. */
static void test_cancel(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};
	struct kf_config cur, next;
	char applied[128];

	write_conf("palette=default\nterm=xterm-256color\nlogin=/bin/sh -l\nxkb-layout=us\n");
	CHECK(kf_config_parse(&cur, 3, argv) == 0 && kf_log_get_level() == KF_LOG_NOTICE, "start");
	char *term = cur.term, **login = cur.login_argv, *layout = cur.xkb_layout;

	write_conf("palette=nord\nterm=vt100\nlogin=/bin/bash\nxkb-layout=de\ndebug\n");
	CHECK(kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied)) == 0, "reload");
	CHECK(!strcmp(applied, "debug, xkb-layout, palette"), "applied '%s'", applied);
	CHECK(kf_log_get_level() == KF_LOG_DEBUG, "the new file's level");
	kf_config_reload_cancel(&cur, &next);
	CHECK(cur.term == term && !strcmp(term, "xterm-256color"), "term back: %s", cur.term);
	CHECK(cur.login_argv == login && !strcmp(login[0], "/bin/sh"), "login back: %s", cur.login_argv[0]);
	CHECK(cur.xkb_layout == layout && !strcmp(layout, "us") && cur.palette == KF_PALETTE_DEFAULT,
	      "live keys back: %s", cur.xkb_layout);
	CHECK(next.term == NULL && next.login_argv == NULL, "next finished");
	CHECK(kf_log_get_level() == KF_LOG_NOTICE, "level back: %d", (int)kf_log_get_level());
	kf_config_finish(&cur);
	kf_log_set_level(KF_LOG_ERR);
}

/* A string longer than kf_opt_format's buffer (a font-file path of 300 bytes) that changed only past it: still
 * a change. It compared equal, so the renderer kept the old font while the configuration named the new one. */
static void test_long_value(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, "--silent", NULL};
	struct kf_config cur, next;
	char applied[128], path[320], text[400];

	memset(path, 'd', sizeof(path));
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	snprintf(text, sizeof(text), "font-file=%s\n", path);
	write_conf(text);
	CHECK(kf_config_parse(&cur, 4, argv) == 0, "start");
	path[sizeof(path) - 2] = 'e';
	snprintf(text, sizeof(text), "font-file=%s\n", path);
	write_conf(text);
	CHECK(kf_config_reload(&cur, &next, 4, argv, applied, sizeof(applied)) == 0 && !strcmp(applied, "font-file"),
	      "a font-file changed at byte %zu: applied '%s', want 'font-file'", sizeof(path) - 2, applied);
	CHECK(next.font_file && next.font_file[sizeof(path) - 2] == 'e', "the new font-file");
	kf_config_finish(&cur);
	kf_config_finish(&next);
}

/* The reload after one that warned, with nothing changed since: next becomes the configuration in force, and
 * reading again says nothing (the warning is once). Finishes both. */
static void again_quiet(struct kf_config *cur, struct kf_config *next, char **argv, const char *what)
{
	char applied[128];
	kf_config_finish(cur);
	*cur = *next;
	capture_begin();
	int r = kf_config_reload(cur, next, 3, argv, applied, sizeof(applied));
	const char *log = capture_end();
	CHECK(r == 0 && !applied[0] && !log[0], "%s: %d, applied '%s', log '%s' (want nothing)", what, r,
	      r == 0 ? applied : "", log);
	kf_config_finish(cur);
	if (r == 0)
		kf_config_finish(next);
	kf_log_set_level(KF_LOG_ERR);
}

/* The file deleted between two reads: every key it set goes back to its default, which an admin must see
 * (it was a debug line), at warning level and once, not again at the next reload that finds no file. */
static void test_file_gone(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};
	struct kf_config cur, next;
	char applied[128], path[64];

	write_conf("palette=nord\n");
	CHECK(kf_config_parse(&cur, 3, argv) == 0 && cur.palette == KF_PALETTE_NORD, "start");
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	unlink(path);
	capture_begin();
	int r = kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied));
	const char *log = capture_end();
	CHECK(r == 0 && next.palette == KF_PALETTE_DEFAULT && !strcmp(applied, "palette"),
	      "no file: %d, the default palette, applied '%s'", r, applied);
	CHECK(strstr(log, "warning") && strstr(log, path) &&
		      strstr(log, "gone: the defaults and the command line apply"),
	      "the file gone: want a warning naming %s, log '%s'", path, log);
	again_quiet(&cur, &next, argv, "still no file");
}

/* The file emptied between two reads (a writer caught between its truncation and its first write, `> file`): an
 * empty file is a valid one, so the defaults apply, but an admin must be told as for a file gone; it was said
 * nowhere. Once: the next reload of the same empty file says nothing. */
static void test_file_emptied(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};
	struct kf_config cur, next;
	char applied[128];

	write_conf("palette=nord\n");
	CHECK(kf_config_parse(&cur, 3, argv) == 0 && cur.palette == KF_PALETTE_NORD, "start");
	write_conf("");
	capture_begin();
	int r = kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied));
	const char *log = capture_end();
	CHECK(r == 0 && next.palette == KF_PALETTE_DEFAULT, "empty file: %d, the default palette", r);
	CHECK(strstr(log, "warning") && strstr(log, "kmscon-felis.conf is empty: the defaults and the command line "
						   "apply"),
	      "the file emptied: want a warning, log '%s'", log);
	again_quiet(&cur, &next, argv, "still empty");
}

/* backspace-delete is the next login's (reload.c): with --oneshot none follows the one that runs, so it is not
 * reported as applied (it said so while nothing changed) but named as such; with a next login it is applied. */
static void test_next_login(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, "--oneshot", NULL};
	struct kf_config cur, next;
	char applied[128];

	write_conf("backspace-delete=on\n");
	CHECK(kf_config_parse(&cur, 4, argv) == 0, "start");
	write_conf("backspace-delete=off\n");
	capture_begin();
	int r = kf_config_reload(&cur, &next, 4, argv, applied, sizeof(applied));
	const char *log = capture_end();
	CHECK(r == 0 && !applied[0] && !next.backspace_delete, "--oneshot: %d, applied '%s'", r, applied);
	CHECK(strstr(log, "backspace-delete: applies from the next login, and none follows this one (--oneshot)"),
	      "--oneshot: the notice, log '%s'", log);
	kf_config_finish(&cur);
	cur = next;
	cur.oneshot = false; /* as without --oneshot: a next login takes it */
	write_conf("backspace-delete=on\n");
	r = kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied));
	CHECK(r == 0 && !strcmp(applied, "backspace-delete") && next.backspace_delete, "respawn: applied '%s'",
	      applied);
	kf_config_finish(&cur);
	kf_config_finish(&next);
}

static void test_live_keys(void)
{
	CHECK(kf_config_key_is_live("palette-red") && kf_config_key_is_live("grab-zoom-in") &&
		      kf_config_key_is_live("font-size") && kf_config_key_is_live("mouse") &&
		      kf_config_key_is_live("xkb-layout") && kf_config_key_is_live("xkb-keymap") &&
		      kf_config_key_is_live("xkb-repeat-rate"),
	      "live keys");
	CHECK(!kf_config_key_is_live("backend") && !kf_config_key_is_live("vt") && !kf_config_key_is_live("term") &&
		      !kf_config_key_is_live("xkb-compose-file") && !kf_config_key_is_live("sb-size") &&
		      !kf_config_key_is_live("palettes") && !kf_config_key_is_live("login"),
	      "restart-only keys");
}

int main(void)
{
	kf_log_init();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_reload();
	test_cancel();
	test_live_keys();
	test_bad_keeps_level();
	test_long_value();
	test_file_gone();
	test_file_emptied();
	test_next_login();
	char path[64];
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	unlink(path);
	rmdir(dir);
	if (failures)
		printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
