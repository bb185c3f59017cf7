/* tests/kmscon-felis/test-session.c: the session (loop + pty + grid) with real children: respawn and
 * back-off, a refused paste and its visible notice, bracketed paste, controls in a paste, window size on resize,
 * the reading's CPU time split, the read pause after a trickle, what counts as output. */
#include "kmscon-felis/session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/screen-text.h"

static int failures;
#define CHECK(cond)                                                                               \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                               \
		}                                                                                 \
	} while (0)

static char tmpdir[] = "/tmp/kf-session-XXXXXX";

static bool file_exists(const char *path);
static void read_text(const char *path, char *buf, size_t cap);

struct ctx {
	struct kf_loop *loop;
	int exit_code;
	bool exited;
};

static void on_exited(void *ud, int code)
{
	struct ctx *c = ud;
	c->exited = true;
	c->exit_code = code;
	kf_loop_quit(c->loop, code);
}

static void on_deadline(void *ud, struct kf_timer *t)
{
	kf_loop_quit(ud, -ETIMEDOUT);
}

/* Runs the loop until quit or ms pass. */
static int run_for(struct kf_loop *loop, int ms)
{
	struct kf_timer *t = kf_loop_add_timer(loop, on_deadline, loop);
	kf_timer_arm(t, (uint64_t)ms * 1000000u, 0);
	int r = kf_loop_run(loop);
	kf_timer_remove(t);
	return r;
}

/* The screen as text (the headless dump), in a static buffer. */
static const char *screen(struct kf_session *s)
{
	static char buf[1 << 16];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	kf_screen_text(kf_session_grid(s), f);
	long n = ftell(f);
	fclose(f);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, ch;
	if (!f)
		return 0;
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

static void test_respawn_backoff(void)
{
	char log[256], script[512];
	snprintf(log, sizeof(log), "%s/runs", tmpdir);
	snprintf(script, sizeof(script), "echo run >> %s", log);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 40, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	/* Quick exits are respawned after 0.1, 0.2, 0.4, 0.8 s...: about 5 runs in 1.7 s, not hundreds. */
	CHECK(run_for(c.loop, 1700) == -ETIMEDOUT);
	int runs = count_lines(log);
	printf("quick exits in 1.7 s: %d runs\n", runs);
	CHECK(runs >= 3 && runs <= 7);
	CHECK(!c.exited);
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
	struct kf_session_callbacks cb = {.exited = on_exited};
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

/* A child that closes every descriptor of its terminal and opens it again (and keeps it open), as login(1) does
 * around vhangup() before it asks for the password: what it writes after that is shown. */
static void test_slave_reopened(void)
{
	const char *argv[] = {"sh", "-c", "echo BEFORE; sleep 0.05; exec 0<&- 1>&- 2>&-; sleep 0.3;"
			      " exec 0<>/dev/tty 1>&0 2>&0; echo REOPENED; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	/* Also with a read pause (kf_session_config.read_pause_ns): "BEFORE" is a trickle that starts one, and the
	 * hang-up comes during it. The pause outlived the hang-up, the master stayed unwatched for input, and
	 * "REOPENED" never showed. */
	for (int pause = 0; pause < 2; pause++) {
		cfg.read_pause_ns = pause ? 200000000u : 0;
		CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
		for (int i = 0; i < 300 && !strstr(screen(s), "REOPENED"); i++)
			run_for(c.loop, 10);
		CHECK(strstr(screen(s), "BEFORE\nREOPENED"));
		if (!strstr(screen(s), "BEFORE\nREOPENED"))
			printf("read pause %d ms: screen \"%s\"\n", pause ? 200 : 0, screen(s));
		CHECK(!c.exited);
		kf_session_destroy(s);
	}
	cfg.read_pause_ns = 0;
	/* While the slave stays closed, its hang-up does not wake the loop again and again. */
	const char *closed[] = {"sh", "-c", "exec 0<&- 1>&- 2>&-; exec sleep 60", NULL};
	cfg.argv = closed;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	run_for(c.loop, 300);
	struct kf_session_stats st;
	kf_session_stats(s, &st);
	printf("slave closed for 300 ms: %llu wake-ups\n", (unsigned long long)st.wakeups);
	CHECK(st.wakeups <= 5 && !c.exited);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* The output callback as the console has it: the view back at the bottom (kf_input_glue_output). */
static void on_output_bottom(void *ud)
{
	struct kf_session *s = *(struct kf_session **)ud;
	struct grid *g = s ? kf_session_grid(s) : NULL;
	if (g)
		grid_view_scroll(g, -grid_view_offset(g));
}

static void on_exited_quiet(void *ud, int code)
{
	(void)ud;
	(void)code;
}

/* Output takes the view back to the bottom, as xterm's scrollTtyOutput, but only output: the hang-up of a child
 * that closed its terminal (login(1) around vhangup(), a daemon detaching) read no byte, and the history being
 * read jumped away under the user. */
static void test_no_output_keeps_view(void)
{
	const char *argv[] = {"sh", "-c", "seq 1 20; sleep 0.2; exec 0<&- 1>&- 2>&-; exec sleep 60", NULL};
	struct kf_loop *loop = kf_loop_create();
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5, .scrollback = 100};
	struct kf_session *s = NULL;
	struct kf_session_callbacks cb = {.exited = on_exited_quiet, .output = on_output_bottom};
	CHECK(kf_session_create(loop, &cfg, &cb, &s, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "20\n"); i++)
		run_for(loop, 10);
	CHECK(grid_view_scroll(kf_session_grid(s), 5) == 5);
	run_for(loop, 500);
	struct kf_session_stats st;
	kf_session_stats(s, &st);
	if (grid_view_offset(kf_session_grid(s)) != 5)
		printf("view offset %d after the hang-up (%llu wake-ups)\n", grid_view_offset(kf_session_grid(s)),
		       (unsigned long long)st.wakeups);
	CHECK(grid_view_offset(kf_session_grid(s)) == 5);
	kf_session_destroy(s);
	kf_loop_destroy(loop);
}

/* The file at path as a string (empty when missing), at most cap - 1 bytes. */
static void read_text(const char *path, char *buf, size_t cap)
{
	size_t n = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, cap - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/* Keys typed while the child reads nothing: once the write queue is full they are refused, and the log says
 * so once per burst (at the default level: a key lost without a word looks like a broken keyboard). */
static void test_keys_dropped_logged(void)
{
	char log[256], text[4096];
	snprintf(log, sizeof(log), "%s/stderr", tmpdir);
	const char *argv[] = {"sh", "-c", "stty raw -echo; echo READY; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5,
					.write_queue_max = 4096};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "READY"); i++)
		run_for(c.loop, 10);
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	int refused = 0;
	for (int i = 0; i < 8000; i++) /* 256 KiB: more than the kernel's buffers and the queue hold */
		refused += kf_session_write(s, "0123456789abcdef0123456789abcdef", 32) == -ENOBUFS;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	read_text(log, text, sizeof(text));
	int lines = count_lines(log);
	printf("%d keys refused, logged in %d line(s): %s", refused, lines, text);
	CHECK(refused > 0 && lines == 1 && strstr(text, "warning") && strstr(text, "dropping"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A session running argv (not copied: it must outlive the session), with a write queue of queue bytes (0: the
 * default), once the child has turned bracketed paste on. */
static struct kf_session *bracketed_child(struct ctx *c, const char *const *argv, size_t queue)
{
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 100, .rows = 10,
					.write_queue_max = queue};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c->loop, &cfg, &cb, c, &s) == 0);
	struct grid_modes m = {0};
	for (int i = 0; s && i < 50; i++) {
		run_for(c->loop, 50);
		grid_get_modes(kf_session_grid(s), &m);
		if (m.bracketed_paste)
			break;
	}
	CHECK(m.bracketed_paste);
	return s;
}

static void test_oneshot_and_paste(void)
{
	/* A child that reads nothing (after the first bytes typed): a paste bigger than the queue waits for it
	 * (test_paste_streamed), but one more than a clipboard's worth beyond what it has read is refused whole, with
	 * a notice. */
	char got[256], script[512];
	snprintf(got, sizeof(got), "%s/pasted", tmpdir);
	snprintf(script, sizeof(script),
		 "stty raw -echo; printf '\\033[?2004h'; head -c 42 > %s; exec sleep 60", got);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 64u << 10);
	/* End marks inside a bracketed paste, even one that their removal would form from the bytes around it
	 * ("\033[20" + "1~"), end nothing: their ESCs go as spaces (kf_session_paste_filter, which would take
	 * them out, is tested alone below): the child reads one bracketed paste, then the typed z's. */
	CHECK(kf_session_paste(s, "ab\033[201~12\033[20\033[201~1~", 22) == 0);
	CHECK(kf_session_write(s, "zzzzzzzz", 8) == 0);
	run_for(c.loop, 500);
	char buf[64];
	read_text(got, buf, sizeof(buf));
	CHECK(!strcmp(buf, "\033[200~ab [201~12 [20 [201~1~\033[201~zzzzzzzz"));
	char *big = calloc(1, KF_CLIPBOARD_MAX);
	CHECK(big != NULL);
	if (big) {
		memset(big, 'p', KF_CLIPBOARD_MAX);
		CHECK(kf_session_paste(s, big, KF_CLIPBOARD_MAX) == 0);
		CHECK(kf_session_paste(s, big, 300000) == -ENOBUFS);
		CHECK(strstr(screen(s), "paste of 300000 bytes refused"));
		/* Fits: accepted whole. */
		CHECK(kf_session_paste(s, big, 1000) == 0);
		/* Keys are refused once the queue and what waits behind it are full, never block. */
		int r = 0;
		for (int i = 0; i < 200 && r == 0; i++)
			r = kf_session_write(s, big, 4096);
		CHECK(r == -ENOBUFS);
		CHECK(kf_session_write_room(s) < 4096);
	}
	free(big);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* The largest clipboard (a selection is cut to KF_CLIPBOARD_MAX) pastes whole into the default write queue,
 * bracketed paste marks and all: the cap was the queue's size, so with the marks it could never fit, and the
 * paste was refused with "paste of 4194304 bytes refused: only 4194304 bytes fit". */
static void test_paste_largest_clipboard(void)
{
	const char *argv[] = {"sh", "-c", "printf '\\033[?2004h'; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 0);
	char *big = malloc(KF_CLIPBOARD_MAX);
	CHECK(big != NULL);
	if (big) {
		memset(big, 'q', KF_CLIPBOARD_MAX);
		int r = kf_session_paste(s, big, KF_CLIPBOARD_MAX);
		CHECK(r == 0);
		if (r)
			printf("largest clipboard paste: %d, screen: %s\n", r, screen(s));
	}
	free(big);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A paste bigger than the write queue (write-queue-size, 64 KiB here) is written out as the child reads it, in
 * order, the keys typed after it after it: it was refused whole ("paste of 300000 bytes refused: only 65536 bytes
 * fit"), though it was well within a clipboard's size. */
static void test_paste_streamed(void)
{
	enum { N = 300000, WANT = 6 + N + 6 + 2 };
	char got[64], script[512];
	snprintf(got, sizeof(got), "%s/streamed", tmpdir);
	snprintf(script, sizeof(script), "stty raw -echo; printf '\\033[?2004h'; head -c %d > %s.part; mv %s.part %s;"
		 " exec sleep 60", WANT, got, got, got);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 64u << 10);
	char *text = malloc(N), *buf = malloc(WANT + 1);
	for (int i = 0; i < N; i++)
		text[i] = (char)('a' + i % 26);
	int r = kf_session_paste(s, text, N);
	if (r)
		printf("a paste of %d bytes into a 64 KiB queue: %d, screen: %s\n", N, r, screen(s));
	CHECK(r == 0);
	CHECK(kf_session_write(s, "zz", 2) == 0);
	struct stat st;
	for (int i = 0; i < 100 && stat(got, &st) < 0; i++)
		run_for(c.loop, 50);
	read_text(got, buf, WANT + 1);
	CHECK(strlen(buf) == WANT && !memcmp(buf, "\033[200~", 6) && !memcmp(buf + 6, text, N) &&
	      !memcmp(buf + 6 + N, "\033[201~zz", 8));
	free(text);
	free(buf);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* kf_session_paste_filter over every string of up to 9 bytes from the end mark's bytes and one other (8^9 would
 * be too many: a random sample of 200,000, plus each length's all-mark and nested cases): the output never holds
 * an end mark, filtering it again changes nothing, and a string without a mark comes out as it went in. */
static bool has_mark(const uint8_t *p, size_t n)
{
	return memmem(p, n, "\033[201~", 6) != NULL;
}

static void test_paste_filter(void)
{
	static const uint8_t alpha[] = {0x1b, '[', '2', '0', '1', '~', 'x'};
	uint8_t in[64], out[64], again[64];
	uint32_t rng = 12345;
	int bad = 0;
	for (int k = 0; k < 200000; k++) {
		size_t len = 0;
		rng = rng * 1103515245u + 12345u;
		const size_t want = (rng >> 16) % 40;
		while (len < want) {
			rng = rng * 1103515245u + 12345u;
			/* mostly whole marks and parts of them, so that nesting is common */
			if ((rng >> 16) % 4 == 0 && len + 6 <= want) {
				memcpy(in + len, "\033[201~", 6);
				len += 6;
			} else {
				in[len++] = alpha[(rng >> 16) % sizeof(alpha)];
			}
		}
		const size_t n = kf_session_paste_filter(out, in, len);
		const size_t n2 = kf_session_paste_filter(again, out, n);
		bad += n > len || has_mark(out, n) || n2 != n || memcmp(again, out, n) != 0 ||
		       (!has_mark(in, len) && (n != len || memcmp(out, in, len) != 0));
	}
	CHECK(bad == 0);
	const uint8_t nested[] = "a\033[2\033[20\033[201~1~01~b";
	size_t n = kf_session_paste_filter(out, nested, sizeof(nested) - 1);
	CHECK(n == 2 && out[0] == 'a' && out[1] == 'b');
	/* in place */
	memcpy(in, "x\033[201~y", 8);
	CHECK(kf_session_paste_filter(in, in, 8) == 2 && in[0] == 'x' && in[1] == 'y');
}

/* A session whose child, in raw mode without echo and without bracketed paste, writes to path the first n bytes it
 * reads (stty first: in cooked mode the line discipline would turn "\r" back into "\n"). argv is static. */
static struct kf_session *raw_reader(struct ctx *c, const char *path, int n)
{
	static char script[512];
	static const char *argv[] = {"sh", "-c", script, NULL};
	snprintf(script, sizeof(script), "stty raw -echo; printf RAW; head -c %d > %s; exec sleep 60", n, path);
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 80, .rows = 10};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c->loop, &cfg, &cb, c, &s) == 0);
	for (int i = 0; s && i < 100 && !strstr(screen(s), "RAW"); i++)
		run_for(c->loop, 50);
	CHECK(s && strstr(screen(s), "RAW"));
	return s;
}

/* Without brackets a paste's line ends reach the child as Enter sends them: "\n" and "\r\n" as "\r", a lone
 * "\r" as it is; in place too. Then through a real PTY, to a child in raw mode that did not ask for brackets. */
static void test_paste_newlines(void)
{
	uint8_t out[32], in[32];
	const char *t = "a\nb\r\nc\rd\n\ne\r\r\n";
	size_t n = kf_session_paste_newlines(out, (const uint8_t *)t, strlen(t));
	CHECK(n == 12 && !memcmp(out, "a\rb\rc\rd\r\re\r\r", 12));
	memcpy(in, t, strlen(t));
	n = kf_session_paste_newlines(in, in, strlen(t));
	CHECK(n == 12 && !memcmp(in, "a\rb\rc\rd\r\re\r\r", 12));

	char got[256];
	snprintf(got, sizeof(got), "%s/pasted-nl", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 8);
	CHECK(kf_session_paste(s, "l1\nl2\r\nl3", 10) == 0);
	run_for(c.loop, 500);
	char buf[64];
	read_text(got, buf, sizeof(buf));
	CHECK(!strcmp(buf, "l1\rl2\rl3"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A pasted control character is sent as a space, as xterm sends the ones of its disallowedPasteControls default
 * (BS, DEL, ENQ, EOT, ESC, NUL and the line discipline's special characters, "STTY"), bracketed or not: a pasted
 * ESC would begin a key's sequence and a ^C interrupt the program as if typed. TAB and the line ends are the text's
 * own; other controls (^A) pass, as in xterm. In a bracketed paste the ESC of an end mark goes too, so the text
 * cannot end the paste. */
static void test_paste_controls(void)
{
	char got[256], script[512], buf[64];
	snprintf(got, sizeof(got), "%s/pasted-ctl", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 16);
	CHECK(kf_session_paste(s, "a\003b\033[Ac\177\000d\te\001\010\032\n", 16) == 0);
	run_for(c.loop, 500);
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "a b [Ac  d\te\001  \r"))
		printf("unbracketed paste of controls reached the child as \"%s\"\n", buf);
	CHECK(!strcmp(buf, "a b [Ac  d\te\001  \r"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);

	/* the special characters are the terminal's, read when pasting: with the interrupt moved to q, a ^C is no
	 * key to fear and passes, and q, no control, is text as ever */
	snprintf(script, sizeof(script),
		 "stty raw -echo intr q; printf '\\033[?2004h'; head -c 22 > %s; exec sleep 60", got);
	const char *argv2[] = {"sh", "-c", script, NULL};
	c = (struct ctx){.loop = kf_loop_create()};
	s = bracketed_child(&c, argv2, 0);
	CHECK(kf_session_paste(s, "x\033[201~\003yq", 10) == 0);
	run_for(c.loop, 500);
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "\033[200~x [201~\003yq\033[201~")) {
		printf("bracketed paste of controls reached the child as:");
		for (char *q = buf; *q; q++)
			printf(" %02x", (unsigned char)*q);
		printf("\n");
	}
	CHECK(!strcmp(buf, "\033[200~x [201~\003yq\033[201~"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* Focus reports (DECSET 1004): a console's focus is its VT in front, so leaving it (the seat disabled) sends CSI O
 * and coming back CSI I, only while the child asked for them and only on a change. */
static void test_focus_reports(void)
{
	char got[256], buf[64];
	snprintf(got, sizeof(got), "%s/focus", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 8);
	kf_session_set_focus(s, false); /* not asked for: nothing */
	kf_session_set_focus(s, true);
	grid_feed(kf_session_grid(s), (const uint8_t *)"\033[?1004h", 8);
	kf_session_set_focus(s, false);
	kf_session_set_focus(s, false); /* no change */
	kf_session_set_focus(s, true);
	CHECK(kf_session_write(s, "zz", 2) == 0);
	run_for(c.loop, 500);
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "\033[O\033[Izz"))
		printf("focus changes reached the child as \"%s\"\n", buf + (buf[0] == '\033'));
	CHECK(!strcmp(buf, "\033[O\033[Izz"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

static void test_resize_and_status(void)
{
	/* The child reports its window size after SIGWINCH, then exits with a status. */
	const char *argv[] = {"sh", "-c", "trap 'stty size; exit 5' WINCH; stty size; while :; do sleep 0.05; done",
			      NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 80, .rows = 24,
					.cell_width = 8, .cell_height = 16};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	run_for(c.loop, 300);
	CHECK(strstr(screen(s), "24 80"));
	CHECK(kf_session_resize(s, 100, 30, 8, 16) == 0);
	CHECK(run_for(c.loop, 5000) == 5);
	CHECK(c.exited && c.exit_code == 5);
	CHECK(strstr(screen(s), "30 100"));
	CHECK(kf_session_child_pid(s) == 0);
	CHECK(kf_session_write(s, "x", 1) == -ENOTCONN);
	kf_session_destroy(s);
	kf_session_destroy(NULL);
	kf_loop_destroy(c.loop);
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}

/* Backspace erases at a cooked-mode prompt (login:, read, cat) with either backspace-delete setting: the terminal's
 * erase character (stty erase) is what Backspace sends, as xterm (backarrowKeyIsErase) and kmscon set it. With
 * no-backspace-delete Backspace sends ^H and the erase character stayed DEL: "ab", Backspace, "c" was read as
 * "ab\bc". */
static void test_backspace_erases(void)
{
	for (int bs = 0; bs < 2; bs++) {
		char got[128], script[640], text[64];
		snprintf(got, sizeof(got), "%s/erase-%d", tmpdir, bs);
		snprintf(script, sizeof(script),
			 "stty -echo; printf R; IFS= read -r l; printf '%%s' \"$l\" > %s.part; mv %s.part %s; exec sleep 60",
			 got, got, got);
		const char *argv[] = {"sh", "-c", script, NULL};
		struct ctx c = {.loop = kf_loop_create()};
		struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5,
						.backspace_sends_bs = bs};
		struct kf_session *s = NULL;
		CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
		for (int i = 0; i < 100 && !strstr(screen(s), "R"); i++)
			run_for(c.loop, 20);
		CHECK(kf_session_write(s, bs ? "ab\010c\r" : "ab\177c\r", 5) == 0);
		for (int i = 0; i < 100 && !file_exists(got); i++)
			run_for(c.loop, 20);
		read_text(got, text, sizeof(text));
		CHECK(!strcmp(text, "ac"));
		if (strcmp(text, "ac"))
			printf("backspace sends %s: read got \"%s\"\n", bs ? "^H" : "DEL", text);
		kf_session_destroy(s);
		kf_loop_destroy(c.loop);
	}
}

/* Without a pidfd the exit comes through SIGCHLD; the last output is still parsed first. */
static void test_sigchld_fallback(void)
{
	const char *argv[] = {"sh", "-c", "seq 1 3000; echo LAST; exit 9", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5, .no_pidfd = true};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	CHECK(run_for(c.loop, 10000) == 9);
	CHECK(c.exited && c.exit_code == 9);
	CHECK(strstr(screen(s), "3000\nLAST\n"));
	/* The reading's CPU time splits into its read(2) calls (estimated from a sample of them) and the rest,
	 * the parse. */
	struct kf_session_stats st;
	kf_session_stats(s, &st);
	CHECK(st.reads > 0 && st.bytes > 14000 && st.wakeups > 0);
	CHECK(st.read_sys_cpu_ns > 0 && st.read_sys_cpu_ns <= st.read_cpu_ns);
	CHECK(st.parse_cpu_ns + st.read_sys_cpu_ns == st.read_cpu_ns);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* With a read pause configured, a wake-up that empties the PTY after a few bytes leaves the master unwatched
 * for the pause: what the child writes meanwhile waits until the pause ends, then comes in one batch. Without
 * one (pause_ms 0: the default, the immediate drain of docs/architecture.md) the next write is read at once. */
static void test_read_pause(uint64_t pause_ms)
{
	char wrote[256], script[512];
	snprintf(wrote, sizeof(wrote), "%s/wrote-b", tmpdir);
	snprintf(script, sizeof(script), "stty -echo; printf A; read x; printf B; : > %s; exec sleep 60", wrote);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 20, .rows = 3,
					.read_pause_ns = pause_ms * 1000000u};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	struct timespec t0, t1;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	for (int i = 0; i < 500 && !strchr(screen(s), 'A'); i++)
		run_for(c.loop, 10);
	/* The wake-up that read "A" emptied the master: the pause started then, at most 10 ms ago. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(strchr(screen(s), 'A'));
	CHECK(kf_session_write(s, "\n", 1) == 0);
	for (int i = 0; i < 1000 && !file_exists(wrote); i++)
		usleep(1000);
	CHECK(file_exists(wrote)); /* "B" is in the master now */
	run_for(c.loop, 50);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	printf("read pause %llu ms: \"B\" waiting %ld ms after \"A\"\n", (unsigned long long)pause_ms, ms);
	struct kf_session_stats st;
	if (pause_ms == 0) {
		/* read by the wake-up its write caused, within the 50 ms just run */
		CHECK(strchr(screen(s), 'B'));
		kf_session_stats(s, &st);
		CHECK(st.pauses == 0);
	} else {
		CHECK(ms < (long)pause_ms - 500); /* still inside the pause: otherwise the next check proves nothing */
		CHECK(!strchr(screen(s), 'B'));
		run_for(c.loop, (int)pause_ms + 500);
		CHECK(strchr(screen(s), 'B'));
		kf_session_stats(s, &st);
		CHECK(st.pauses >= 1);
	}
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* KMSCON_FELIS_READ_PAUSE_US: decimal microseconds up to a second; anything else is refused whole. */
static void test_parse_read_pause(void)
{
	uint64_t ns = 7;
	CHECK(kf_session_parse_read_pause("0", &ns) == 0 && ns == 0);
	CHECK(kf_session_parse_read_pause("1000", &ns) == 0 && ns == 1000000u);
	CHECK(kf_session_parse_read_pause("1000000", &ns) == 0 && ns == 1000000000u);
	const char *bad[] = {"", "1000001", "99999999999999999999", "18446744073709551616", "-5", "+5", " 5", "5 ",
			     "1e3", "0x10", "abc", "5ms"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ns = 7;
		CHECK(kf_session_parse_read_pause(bad[i], &ns) == -EINVAL && ns == 7);
	}
	CHECK(kf_session_parse_read_pause(NULL, &ns) == -EINVAL);
}

int main(void)
{
	alarm(60);
	if (!mkdtemp(tmpdir))
		return 1;
	test_respawn_backoff();
	test_respawn_reset();
	test_respawn_notice();
	test_respawn_failures_logged();
	test_slave_reopened();
	test_no_output_keeps_view();
	test_keys_dropped_logged();
	test_oneshot_and_paste();
	test_paste_largest_clipboard();
	test_paste_streamed();
	test_paste_filter();
	test_paste_newlines();
	test_paste_controls();
	test_focus_reports();
	test_resize_and_status();
	test_backspace_erases();
	test_sigchld_fallback();
	test_parse_read_pause();
	test_read_pause(3000);
	test_read_pause(0);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		failures++;
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
