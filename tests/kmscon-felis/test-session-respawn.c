/* tests/kmscon-felis/test-session-respawn.c: the session's respawn with real children, out of test-session.c
 * for its length: the back-off of quick exits and its one journal line, the power-on terminal a new login
 * gets, the issue banner before each start, the notices on the screen (exit status, signal, a start that
 * failed) and the failed starts logged once, and no descriptor kept from one child to the next. */
#include "kmscon-felis/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/screen-text.h"

#include "session-harness.h"

/* The number of times needle occurs in text. */
static int count_in(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static int new_logins;

static void on_new_login(void *ud)
{
	(void)ud;
	new_logins++;
}

static void test_respawn_backoff(void)
{
	char log[256], script[512], errlog[256], text[8192];
	snprintf(log, sizeof(log), "%s/runs", tmpdir);
	snprintf(errlog, sizeof(errlog), "%s/backoff-stderr", tmpdir);
	snprintf(script, sizeof(script), "echo run >> %s; exit 3", log);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 40, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	fflush(stderr);
	int saved = dup(2), fd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	dup2(fd, 2);
	close(fd);
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	/* Quick exits are respawned after 0.1, 0.2, 0.4, 0.8 s...: about 5 runs in 1.7 s, not hundreds. */
	CHECK(run_for(c.loop, 1700) == -ETIMEDOUT);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	int runs = count_lines(log);
	read_text(errlog, text, sizeof(text));
	printf("quick exits in 1.7 s: %d runs; logged:\n%s", runs, text);
	CHECK(runs >= 3 && runs <= 7);
	CHECK(!c.exited);
	/* The journal hears of the streak once, as of a login that cannot be started: at the back-off's 10 s, a
	 * notice per exit was 8640 lines a day for a login broken for good (its screen says so every time). */
	CHECK(count_in(text, "soon after it started") == 1);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A respawned login starts on a terminal in its power-on state: the last child left the parser inside an OSC
 * string, the cursor hidden, bracketed paste and mouse reporting on, conceal and the DEC graphics set, and its
 * text on the screen and in the scrollback. */
static void test_respawn_reset(void)
{
	char mark[256], script[768];
	snprintf(mark, sizeof(mark), "%s/first-done", tmpdir);
	snprintf(script, sizeof(script),
		 "if [ -e %s ]; then printf 'login: '; exec sleep 60; fi; touch %s; seq 1 20; echo FIRST SESSION;"
		 " printf '\033[?25l\033[?2004h\033[?1000h\033[8m\033(0\033]0;no end'",
		 mark, mark);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 40, .rows = 5,
					.scrollback = 100};
	struct kf_session_callbacks cb = {.exited = on_exited, .new_login = on_new_login};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	CHECK(strstr(screen(s), "login:"));
	CHECK(!strstr(screen(s), "FIRST SESSION"));
	struct grid *g = kf_session_grid(s);
	struct grid_modes m;
	struct grid_cursor cur;
	grid_get_modes(g, &m);
	grid_get_cursor(g, &cur);
	CHECK(cur.visible && !m.bracketed_paste && m.mouse == GRID_MOUSE_NONE);
	CHECK(grid_scrollback_lines(g) == 0);
	/* and the keyboard is told (a half-typed dead key ends): once, for the one respawn, not the first start */
	CHECK(new_logins == 1);
	CHECK(!c.exited);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* The screen when it first showed the session's notice of an exit, and of a login that could not start
 * (test_respawn_notice). The first notice takes the descriptors away, so that the next start fails; the
 * second gives them back. */
static char notice_screen[1 << 16], start_screen[1 << 16]; /* as large as screen()'s text */
static struct kf_session *notice_session;
static struct rlimit saved_nofile;

static void on_output_notice(void *ud)
{
	const char *text = screen(notice_session);
	if (!notice_screen[0] && strstr(text, "kmscon-felis:")) {
		snprintf(notice_screen, sizeof(notice_screen), "%s", text);
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the lowest free descriptor */
		close(fd);
		getrlimit(RLIMIT_NOFILE, &saved_nofile);
		setrlimit(RLIMIT_NOFILE, &(struct rlimit){.rlim_cur = (rlim_t)fd, .rlim_max = saved_nofile.rlim_max});
	} else if (!start_screen[0] && strstr(text, "cannot start")) {
		snprintf(start_screen, sizeof(start_screen), "%s", text);
		setrlimit(RLIMIT_NOFILE, &saved_nofile);
	}
}

/* A login that exits soon after it starts is respawned after a back-off (0.1 s, then longer, up to 10 s), during
 * which keys go nowhere: the screen says so, under the last output, with the exit status and the delay. The
 * notice is readable whatever state the child left (a string not ended, conceal, the DEC graphics set). It was
 * missing: the screen showed the dead child's last output, and typed keys vanished without a word. A login that
 * cannot be started (no descriptors left for a PTY) is tried again every second: the screen said nothing either,
 * blank after the reset. */
static void test_respawn_notice(void)
{
	char mark[256], script[768];
	snprintf(mark, sizeof(mark), "%s/notice-done", tmpdir);
	snprintf(script, sizeof(script),
		 "if [ -e %s ]; then printf 'login: '; exec sleep 60; fi; touch %s; echo LAST WORDS;"
		 " printf '\033[8m\033(0\033]0;no end'; exit 3", mark, mark);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 80, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited, .output = on_output_notice};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	notice_session = s;
	for (int i = 0; i < 300 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	printf("screen during the back-off:\n%s", notice_screen);
	CHECK(strstr(notice_screen, "LAST WORDS"));
	CHECK(strstr(notice_screen, "[kmscon-felis: sh exited with status 3; starting it again in 0.1 s]"));
	printf("screen after a failed start:\n%s", start_screen);
	CHECK(strstr(start_screen, "[kmscon-felis: cannot start sh: Too many open files; trying again in 1 s]"));
	/* the new login starts on a clean screen */
	CHECK(strstr(screen(s), "login:") && !strstr(screen(s), "kmscon-felis:"));
	CHECK(!c.exited);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A login killed by a signal soon after it starts: the notice says which signal (tools/coverage: no test had a
 * login die of one). */
static void test_respawn_signal_notice(void)
{
	char mark[256], script[768];
	snprintf(mark, sizeof(mark), "%s/signal-done", tmpdir);
	snprintf(script, sizeof(script), "if [ -e %s ]; then printf 'login: '; exec sleep 60; fi; touch %s; kill -TERM $$",
		 mark, mark);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 80, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	bool seen = false;
	for (int i = 0; i < 300 && !strstr(screen(s), "login:"); i++) {
		run_for(c.loop, 10);
		seen = seen || strstr(screen(s), "[kmscon-felis: sh was killed by signal 15; starting it again in 0.1 s]");
	}
	CHECK(seen);
	CHECK(strstr(screen(s), "login:") && !c.exited);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* test_respawn_failures_logged: the failed starts seen so far; the third gives the descriptors back. */
static int start_failures;

static void on_output_failures(void *ud)
{
	const char *text = screen(notice_session);
	if (!notice_screen[0] && strstr(text, "kmscon-felis:")) {
		notice_screen[0] = 1;
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the lowest free descriptor */
		close(fd);
		getrlimit(RLIMIT_NOFILE, &saved_nofile);
		setrlimit(RLIMIT_NOFILE, &(struct rlimit){.rlim_cur = (rlim_t)fd, .rlim_max = saved_nofile.rlim_max});
	} else if (strstr(text, "cannot start") && ++start_failures == 3) {
		setrlimit(RLIMIT_NOFILE, &saved_nofile);
	}
}

/* A login that cannot be started is tried again every second, with the reason on the screen each time; the
 * journal gets one line for the whole streak of failures, and one when a start works again. It got an error
 * line every second, for as long as the failure lasted (a full pts table overnight: 86400 lines a day). */
static void test_respawn_failures_logged(void)
{
	char mark[256], script[768], log[256], text[4096];
	snprintf(mark, sizeof(mark), "%s/failures-done", tmpdir);
	snprintf(log, sizeof(log), "%s/failures-stderr", tmpdir);
	snprintf(script, sizeof(script), "if [ -e %s ]; then printf 'login: '; exec sleep 60; fi; touch %s; exit 3",
		 mark, mark);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 80, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited, .output = on_output_failures};
	struct kf_session *s = NULL;
	notice_screen[0] = 0;
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	dup2(fd, 2);
	close(fd);
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	notice_session = s;
	for (int i = 0; i < 500 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	read_text(log, text, sizeof(text));
	printf("%d failed starts, logged:\n%s", start_failures, text);
	CHECK(start_failures == 3);
	CHECK(strstr(screen(s), "login:"));
	const char *first = strstr(text, "cannot start the login");
	CHECK(first && !strstr(first + 1, "cannot start the login"));
	const char *pty_first = strstr(text, "cannot open a PTY master");
	CHECK(pty_first && !strstr(pty_first + 1, "cannot open a PTY master"));
	CHECK(strstr(text, "started again after 3 failed attempts"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* Respawns keep no descriptor of a child before (its master, pidfd, the pipe its exec reports through), with a
 * program that runs and exits and with one that cannot be run: between children (waiting for the back-off)
 * the count is the same each time. */
static void test_respawn_no_leak(void)
{
	char log[256], script[512];
	snprintf(log, sizeof(log), "%s/leak-runs", tmpdir);
	snprintf(script, sizeof(script), "echo run >> %s", log);
	const char *runs[] = {"sh", "-c", script, NULL}, *missing[] = {"/nonexistent/login", NULL};
	const char *const *argvs[] = {runs, missing};
	for (int a = 0; a < 2; a++) {
		struct ctx c = {.loop = kf_loop_create()};
		struct kf_session_config cfg = {.argv = argvs[a], .reset_env = true, .respawn = true, .cols = 80,
						.rows = 5};
		struct kf_session_callbacks cb = {.exited = on_exited};
		struct kf_session *s = NULL;
		CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
		int lo = 1 << 30, hi = -1;
		/* quick exits are started again after 0.1, 0.2, 0.4, 0.8 s: five starts in 1.6 s */
		for (int i = 0; i < 160; i++) {
			run_for(c.loop, 10);
			if (!kf_session_child_pid(s)) {
				int n = open_fds();
				lo = n < lo ? n : lo;
				hi = n > hi ? n : hi;
			}
		}
		int starts = a ? 0 : count_lines(log);
		printf("respawns of %s: %d runs, %d to %d descriptors between them\n", argvs[a][0], starts, lo, hi);
		CHECK(lo == hi && !c.exited);
		CHECK(a ? strstr(screen(s), "exited with status 127") != NULL : starts >= 4);
		kf_session_destroy(s);
		kf_loop_destroy(c.loop);
	}
}

/* The issue banner (issue.h) is on the screen before each child's output, again after a respawn on the reset
 * screen, with \\l the name given (a VT's) and its line ends as CR LF. */
static void test_issue_each_start(void)
{
	char mark[256], script[600], banner[256];
	snprintf(mark, sizeof(mark), "%s/issue-first", tmpdir);
	snprintf(banner, sizeof(banner), "%s/banner", tmpdir);
	FILE *f = fopen(banner, "w");
	fputs("BANNER \\l\nline two\n", f);
	fclose(f);
	snprintf(script, sizeof(script),
		 "if [ -e %s ]; then printf 'login: '; exec sleep 60; fi; touch %s; echo FIRST; sleep 0.2", mark, mark);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 40, .rows = 6,
					.issue = true, .issue_path = banner, .issue_tty = "tty9"};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "FIRST"); i++)
		run_for(c.loop, 10);
	printf("issue, first start:\n%s", screen(s));
	CHECK(!strncmp(screen(s), "BANNER tty9\nline two\nFIRST\n", 27));
	for (int i = 0; i < 300 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	printf("issue, after the respawn:\n%s", screen(s));
	CHECK(!strncmp(screen(s), "BANNER tty9\nline two\nlogin:\n", 28));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_respawn_backoff();
	test_respawn_reset();
	test_issue_each_start();
	test_respawn_notice();
	test_respawn_signal_notice();
	test_respawn_failures_logged();
	test_respawn_no_leak();
	return session_tests_end();
}
