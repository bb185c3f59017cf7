/* tests/kmscon-felis/test-reload-live.c: the live keys of a configuration reload (config-reload.c live_keys) that
 * reload.c leaves to the session and the input glue really change what they do, with the real configuration
 * code (kf_config_reload, the struct replaced at the same address as reload.c does), a real session (a login on
 * a PTY, respawned) and real xkbcommon:
 *
 * - backspace-delete: a login keeps the pair it was given, the byte Backspace sends and its tty's erase character
 *   (stty erase), even across its own RIS; the next login gets the new pair. Before, the reload logged
 *   "applied backspace-delete" and nothing changed: the key followed the grid's DECBKM, fixed at its creation,
 *   and every child got the old VERASE.
 * - mouse, natural-scrolling and the grabs: read through the configuration per event (the next event obeys).
 * - verbose/debug/silent: the log level. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon.h>

static int failures;

#include "glue-harness.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/session.h"
#include "tests/kf-alarm.h"

static char dir[] = "/tmp/kf-reload-live-XXXXXX";
static char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};

static void write_conf(const char *text)
{
	conf_write(dir, text);
}

/* The file becomes text and is reloaded as reload.c does it (no keymap key changes here); returns
 * kf_config_reload's result, the keys applied in applied. */
static int reload(struct kf_config *cfg, const char *text, char *applied)
{
	struct kf_config next;
	write_conf(text);
	int r = kf_config_reload(cfg, &next, 3, argv, applied, 512);
	if (r == 0) {
		kf_config_finish(cfg);
		*cfg = next; /* same address: the glue keeps its pointer */
	}
	return r;
}

/* Runs the loop until path exists (the child writes path.part and renames it), up to ~20 s of waits. */
static bool wait_file(struct kf_loop *loop, const char *path)
{
	struct stat st;
	for (int i = 0; i < 2000 && stat(path, &st) != 0; i++)
		kf_loop_dispatch(loop, 10);
	return stat(path, &st) == 0;
}

/* What login n's `stty -a` said of erase ("erase = ^?"), "" if nothing. */
static void erase_of(int n, char *buf, size_t cap)
{
	char path[96];
	snprintf(path, sizeof(path), "%s/erase%d", dir, n);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)cap, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* Each login: numbered (dir/n), its erase character written where the test reads it, then it waits for a line. */
static const char script[] =
	"d=$0; n=$(($(cat $d/n 2>/dev/null || echo 0) + 1)); echo $n > $d/n; "
	"stty -a | tr ';' '\\n' | sed -n 's/^ *erase = //p' > $d/erase$n.part; mv $d/erase$n.part $d/erase$n; read x";

static void test_backspace(struct kf_loop *loop)
{
	struct kf_config cfg;
	struct app a = {0};
	struct kf_input_glue *g = NULL;
	struct kf_session *s = NULL;
	char applied[512], e[64], path[96];
	const char *child[] = {"sh", "-c", script, dir, NULL};

	write_conf("backspace-delete=on\n");
	CHECK(kf_config_parse(&cfg, 3, argv) == 0, "start");
	struct kf_session_config sc = {.argv = child, .reset_env = true, .respawn = true, .cols = 80, .rows = 24,
				       .backspace_sends_bs = !cfg.backspace_delete}; /* as main.c */
	CHECK(kf_session_create(loop, &sc, NULL, NULL, &s) == 0, "session");
	if (!s)
		return;
	a.grid = kf_session_grid(s);
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "glue");
	if (!g)
		return;
	struct input *in = kf_input_glue_input(g);
	snprintf(path, sizeof(path), "%s/erase1", dir);
	CHECK(wait_file(loop, path), "the first login ran");
	erase_of(1, e, sizeof(e));
	key(in, KEY_BACKSPACE);
	CHECK(!strcmp(e, "^?") && sent(&a, "\x7f"), "first login: erase %s, Backspace DEL", e);

	CHECK(reload(&cfg, "backspace-delete=off\n", applied) == 0 && !strcmp(applied, "backspace-delete"),
	      "applied '%s'", applied);
	kf_session_set_backspace(s, !cfg.backspace_delete); /* reload.c reload_apply */
	key(in, KEY_BACKSPACE);
	CHECK(sent(&a, "\x7f"), "the running login keeps its pair: DEL, as its erase");
	feed(&a, "\033c"); /* its RIS: the power-on state of its own terminal */
	key(in, KEY_BACKSPACE);
	CHECK(sent(&a, "\x7f"), "and after its own RIS");

	CHECK(kf_session_write(s, "\n", 1) == 0, "the login ends");
	snprintf(path, sizeof(path), "%s/erase2", dir);
	CHECK(wait_file(loop, path), "the next login ran");
	erase_of(2, e, sizeof(e));
	key(in, KEY_BACKSPACE);
	CHECK(!strcmp(e, "^H") && sent(&a, "\b"), "next login: erase %s, Backspace ^H", e);
	feed(&a, "\033[?67l"); /* the application's DECBKM still rules */
	key(in, KEY_BACKSPACE);
	CHECK(sent(&a, "\x7f"), "DECRST 67: DEL");
	feed(&a, "\033c");
	key(in, KEY_BACKSPACE);
	CHECK(sent(&a, "\b"), "its RIS: the new power-on state, ^H");

	/* back on: the login after gets DEL and ^? again */
	CHECK(reload(&cfg, "backspace-delete=on\n", applied) == 0, "on again");
	kf_session_set_backspace(s, !cfg.backspace_delete);
	CHECK(kf_session_write(s, "\n", 1) == 0, "the second login ends");
	snprintf(path, sizeof(path), "%s/erase3", dir);
	CHECK(wait_file(loop, path), "the third login ran");
	erase_of(3, e, sizeof(e));
	key(in, KEY_BACKSPACE);
	CHECK(!strcmp(e, "^?") && sent(&a, "\x7f"), "third login: erase %s, Backspace DEL", e);

	kf_input_glue_destroy(g);
	kf_session_destroy(s);
	kf_config_finish(&cfg);
	for (int i = 0; i <= 3; i++) { /* the next test's logins count from 1 again */
		snprintf(path, sizeof(path), i ? "%s/erase%d" : "%s/n", dir, i);
		unlink(path);
	}
}

/* A reload before the first login (the console starts it after its first frame, defer_start): it gets the new
 * pair at once. */
static void test_backspace_before_start(struct kf_loop *loop)
{
	struct app a = {0};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	struct kf_session *s = NULL;
	char e[64], path[96];
	const char *child[] = {"sh", "-c", script, dir, NULL};
	struct kf_session_config sc = {.argv = child, .reset_env = true, .respawn = false, .cols = 80, .rows = 24,
				       .defer_start = true};

	kf_config_init(&cfg);
	CHECK(kf_session_create(loop, &sc, NULL, NULL, &s) == 0, "deferred session");
	if (!s)
		return;
	a.grid = kf_session_grid(s);
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "glue");
	kf_session_set_backspace(s, true);
	CHECK(kf_session_start(s) == 0, "start");
	snprintf(path, sizeof(path), "%s/erase1", dir);
	CHECK(wait_file(loop, path), "the login ran");
	erase_of(1, e, sizeof(e));
	if (g) {
		key(kf_input_glue_input(g), KEY_BACKSPACE);
		CHECK(!strcmp(e, "^H") && sent(&a, "\b"), "first login after the reload: erase %s, ^H", e);
	}
	kf_input_glue_destroy(g);
	kf_session_destroy(s);
	kf_config_finish(&cfg);
}

/* mouse, natural-scrolling, a grab: the next event after the reload obeys the new value. */
static void test_per_event(struct kf_loop *loop)
{
	struct app a = {0};
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 100};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char applied[512], line[32];

	write_conf("");
	CHECK(kf_config_parse(&cfg, 3, argv) == 0, "start");
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "glue");
	if (!g || !a.grid)
		return;
	struct input *in = kf_input_glue_input(g);
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
	for (int i = 0; i < 60; i++) {
		snprintf(line, sizeof(line), "line %d\r\n", i);
		feed(&a, line);
	}

	wheel(in, -1);
	CHECK(grid_view_offset(a.grid) == 3, "a step up: 3 lines back (%d)", grid_view_offset(a.grid));
	CHECK(reload(&cfg, "natural-scrolling=on\n", applied) == 0 && !strcmp(applied, "natural-scrolling"),
	      "applied '%s'", applied);
	wheel(in, -1);
	CHECK(grid_view_offset(a.grid) == 0, "natural-scrolling: a step up goes forward (%d)",
	      grid_view_offset(a.grid));

	feed(&a, "\033[?1000h\033[?1006h");
	point(in, 2, 1);
	button(in, BTN_LEFT, true, 10);
	button(in, BTN_LEFT, false, 11);
	CHECK(sent(&a, "\033[<0;3;2M\033[<0;3;2m"), "mouse on: a click reported");
	CHECK(reload(&cfg, "natural-scrolling=on\nmouse=off\n", applied) == 0 && !strcmp(applied, "mouse"),
	      "applied '%s'", applied);
	button(in, BTN_LEFT, true, 12);
	button(in, BTN_LEFT, false, 13);
	wheel(in, 1);
	CHECK(sent(&a, ""), "mouse off: nothing reported");
	feed(&a, "\033[?1000l\033[?1006l");

	key(in, KEY_F12);
	a.n_out = 0;
	with(in, KEY_LEFTCTRL, KEY_EQUAL);
	CHECK(a.zoom == 1 && a.n_out == 0, "Ctrl+= zooms in (%d)", a.zoom);
	a.zoom = 0;
	CHECK(reload(&cfg, "natural-scrolling=on\nmouse=off\ngrab-zoom-in=<Ctrl>F12\n", applied) == 0 &&
		      !strcmp(applied, "grab-zoom-in"),
	      "applied '%s'", applied);
	with(in, KEY_LEFTCTRL, KEY_EQUAL);
	CHECK(a.zoom == 0 && a.n_out > 0, "Ctrl+= is the application's now (%d, %zu bytes)", a.zoom, a.n_out);
	a.n_out = 0;
	with(in, KEY_LEFTCTRL, KEY_F12);
	CHECK(a.zoom == 1 && a.n_out == 0, "Ctrl+F12 zooms in (%d)", a.zoom);

	/* the log level: kf_config_parse sets it (kf_config_reload), the reload's notice at the new one */
	CHECK(reload(&cfg, "natural-scrolling=on\nmouse=off\ngrab-zoom-in=<Ctrl>F12\ndebug=on\n", applied) == 0 &&
		      kf_log_get_level() == KF_LOG_DEBUG,
	      "debug: level %d ('%s')", (int)kf_log_get_level(), applied);
	CHECK(reload(&cfg, "natural-scrolling=on\nmouse=off\ngrab-zoom-in=<Ctrl>F12\nsilent=on\n", applied) == 0 &&
		      kf_log_get_level() < KF_LOG_NOTICE,
	      "silent: level %d ('%s')", (int)kf_log_get_level(), applied);

	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

int main(void)
{
	kf_alarm(60);
	struct kf_loop *loop = kf_loop_create();
	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	char clip[96];
	snprintf(clip, sizeof(clip), "%s/clip", dir);
	mkdir(clip, 0700);
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", clip, 1);
	test_backspace(loop);
	test_backspace_before_start(loop);
	test_per_event(loop);
	kf_loop_destroy(loop);
	return t_finish(dir, "reload-live");
}
