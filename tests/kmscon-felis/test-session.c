/* tests/kmscon-felis/test-session.c: the session (loop + pty + grid) with real children: a hang-up, keys
 * refused, window size on resize, the backspace setting, the reading's CPU time split, the read pause after a
 * trickle, what counts as output. Respawn, its back-off and notices: test-session-respawn.c. */
#include "kmscon-felis/session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/screen-text.h"

#include "session-harness.h"

/* The session's wake-ups that read (its output, a hang-up) so far. */
static uint64_t wakeups(const struct kf_session *s)
{
	struct kf_session_stats st;
	kf_session_stats(s, &st);
	return st.wakeups;
}

/* Runs the loop until the session has woken to read more than `than` times, until the CLOCK_MONOTONIC time
 * `until_ns` at most; true once it has. After a child's last output is on the screen, the next wake-up is its
 * hang-up: the test knows the session saw it, instead of guessing how long that takes. */
static bool run_until_wakeup(struct kf_loop *loop, const struct kf_session *s, uint64_t than, uint64_t until_ns)
{
	while (wakeups(s) <= than && kf_loop_now_ns() < until_ns)
		run_for(loop, 10);
	return wakeups(s) > than;
}

/* A child that closes every descriptor of its terminal and opens it again (and keeps it open), as login(1) does
 * around vhangup() before it asks for the password: what it writes after that is shown. Files order it: the child
 * closes once the test has counted the wake-ups after "BEFORE" (closed on its own, a busy test saw the hang-up
 * with "BEFORE"), says so, and opens the terminal again once the test has seen the session wake to it. */
static void test_slave_reopened(void)
{
	char close_path[256], closed_path[256], go_path[256], script[1024];
	snprintf(close_path, sizeof(close_path), "%s/slave-close", tmpdir);
	snprintf(closed_path, sizeof(closed_path), "%s/slave-closed", tmpdir);
	snprintf(go_path, sizeof(go_path), "%s/slave-reopen", tmpdir);
	snprintf(script, sizeof(script), "echo BEFORE; while [ ! -e %s ]; do sleep 0.01; done; exec 0<&- 1>&- 2>&-;"
		 " touch %s; while [ ! -e %s ]; do sleep 0.01; done; exec 0<>/dev/tty 1>&0 2>&0; echo REOPENED;"
		 " exec sleep 60", close_path, closed_path, go_path);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	/* Also with a read pause (kf_session_config.read_pause_ns): "BEFORE" is a trickle that starts one, the
	 * hang-up comes during it (3 s, for a busy host), and the terminal is opened again after its end. The pause
	 * outlived the hang-up, the master stayed unwatched for input, and "REOPENED" never showed. */
	const uint64_t pause_ns = 3000000000u;
	for (int pause = 0; pause < 2; pause++) {
		unlink(close_path);
		unlink(closed_path);
		unlink(go_path);
		cfg.read_pause_ns = pause ? pause_ns : 0;
		CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
		for (int i = 0; i < 300 && !strstr(screen(s), "BEFORE"); i++)
			run_for(c.loop, 10);
		const uint64_t t_before = kf_loop_now_ns(), w_before = wakeups(s);
		CHECK(strstr(screen(s), "BEFORE"));
		struct kf_session_stats st;
		kf_session_stats(s, &st);
		CHECK(!pause || st.pauses == 1);
		touch(close_path);
		bool closed = run_until_file(c.loop, closed_path, 3000);
		bool seen = run_until_wakeup(c.loop, s, w_before, kf_loop_now_ns() + 3000000000u);
		const uint64_t t_seen = kf_loop_now_ns();
		if (!closed || !seen || (pause && t_seen - t_before >= pause_ns))
			printf("read pause %d: child closed its terminal: %s; session woke to it: %s, %llu ms after "
			       "BEFORE\n", pause, closed ? "yes" : "no", seen ? "yes" : "no",
			       (unsigned long long)((t_seen - t_before) / 1000000u));
		CHECK(closed && seen);
		CHECK(!pause || t_seen - t_before < pause_ns);
		if (pause) /* past the pause's end, the terminal still closed */
			run_for(c.loop, (int)((t_before + pause_ns - kf_loop_now_ns()) / 1000000u) + 100);
		touch(go_path);
		for (int i = 0; i < 300 && !strstr(screen(s), "REOPENED"); i++)
			run_for(c.loop, 10);
		CHECK(strstr(screen(s), "BEFORE\nREOPENED"));
		if (!strstr(screen(s), "BEFORE\nREOPENED"))
			printf("read pause %d: screen \"%s\"\n", pause, screen(s));
		CHECK(!c.exited);
		kf_session_destroy(s);
	}
	cfg.read_pause_ns = 0;
	/* While the slave stays closed, its hang-up does not wake the loop again and again: counted over 300 ms
	 * from the first wake-up to it (the child closes before it writes anything). */
	unlink(closed_path);
	snprintf(script, sizeof(script), "exec 0<&- 1>&- 2>&-; touch %s; exec sleep 60", closed_path);
	const char *closed[] = {"sh", "-c", script, NULL};
	cfg.argv = closed;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	CHECK(run_until_file(c.loop, closed_path, 3000));
	CHECK(run_until_wakeup(c.loop, s, 0, kf_loop_now_ns() + 3000000000u));
	const uint64_t w0 = wakeups(s);
	run_for(c.loop, 300);
	printf("slave closed for 300 ms after its hang-up was seen: %llu wake-ups more\n",
	       (unsigned long long)(wakeups(s) - w0));
	CHECK(w0 >= 1 && wakeups(s) - w0 <= 5 && !c.exited);
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
 * read jumped away under the user. The child closes its terminal once told to (a file), after the view is
 * scrolled, and says when it has (another); the view is looked at once the session has woken to the hang-up:
 * looked at after a fixed 500 ms, a child late to close had not hung up yet, and the check held vacuously. */
static void test_no_output_keeps_view(void)
{
	char go_path[256], closed_path[256], script[768];
	snprintf(go_path, sizeof(go_path), "%s/view-go", tmpdir);
	snprintf(closed_path, sizeof(closed_path), "%s/view-closed", tmpdir);
	snprintf(script, sizeof(script),
		 "seq 1 20; while [ ! -e %s ]; do sleep 0.01; done; exec 0<&- 1>&- 2>&-; touch %s; exec sleep 60",
		 go_path, closed_path);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct kf_loop *loop = kf_loop_create();
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5, .scrollback = 100};
	struct kf_session *s = NULL;
	struct kf_session_callbacks cb = {.exited = on_exited_quiet, .output = on_output_bottom};
	CHECK(kf_session_create(loop, &cfg, &cb, &s, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "20\n"); i++)
		run_for(loop, 10);
	CHECK(strstr(screen(s), "20\n"));
	CHECK(grid_view_scroll(kf_session_grid(s), 5) == 5);
	const uint64_t w0 = wakeups(s);
	touch(go_path);
	const bool closed = run_until_file(loop, closed_path, 3000);
	const bool seen = run_until_wakeup(loop, s, w0, kf_loop_now_ns() + 3000000000u);
	run_for(loop, 50); /* and any wake-up that would come right after it */
	printf("child closed its terminal: %s; session woke to it: %s; view offset %d\n", closed ? "yes" : "no",
	       seen ? "yes" : "no", grid_view_offset(kf_session_grid(s)));
	CHECK(closed && seen);
	CHECK(grid_view_offset(kf_session_grid(s)) == 5);
	kf_session_destroy(s);
	kf_loop_destroy(loop);
}

/* Keys typed while the child reads nothing: once the write queue is full they are refused, and the log says
 * so once per burst, and how many once the child has read (at the default level: a key lost without a word
 * looks like a broken keyboard). */
static void test_keys_dropped_logged(void)
{
	char log[256], text[4096], go[256], cmd[512], want[64];
	snprintf(log, sizeof(log), "%s/stderr", tmpdir);
	snprintf(go, sizeof(go), "%s/go-keys", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "stty raw -echo; echo READY; while [ ! -e %s ]; do sleep 0.02; done; exec cat >/dev/null", go);
	const char *argv[] = {"sh", "-c", cmd, NULL};
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
	int lines = count_lines(log);
	/* then the child reads, with nothing typed since: the count comes once the queue is empty (it came only
	 * with the next key taken, and the last burst before the user gave up left no number) */
	FILE *f = fopen(go, "w");
	if (f)
		fclose(f);
	for (int i = 0; i < 500 && kf_session_write_pending(s); i++)
		run_for(c.loop, 10);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	read_text(log, text, sizeof(text));
	printf("%d keys refused, logged in %d line(s) meanwhile, %zu bytes pending after the child read: %s", refused,
	       lines, kf_session_write_pending(s), text);
	CHECK(refused > 0 && lines == 1 && strstr(text, "warning") && strstr(text, "dropping"));
	snprintf(want, sizeof(want), ": %d key writes were dropped", refused);
	CHECK(kf_session_write_pending(s) == 0 && strstr(text, want));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* Replies to a child that asks and does not read (20,000 DA1 requests, then it reads): the write queue stays within
 * its bound, each reply goes whole or not at all, and none is lost without a word: the log warns once while they
 * are dropped and, once the queue has emptied, says how many were, so that the replies the child got and those
 * the log counts add up to the requests. */
static void test_replies_dropped_counted(void)
{
	enum { REQUESTS = 20000, QUEUE = 4096 };
	char log[256], text[4096], got_path[256], go[256], cmd[1024];
	snprintf(log, sizeof(log), "%s/stderr-replies", tmpdir);
	snprintf(got_path, sizeof(got_path), "%s/got", tmpdir);
	snprintf(go, sizeof(go), "%s/go", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "stty raw -echo; yes \"$(printf '\\033[c')\" | head -n %d | tr -d '\\n'; echo SENT; "
		 "while [ ! -e %s ]; do sleep 0.02; done; IFS= read -r -d Z x; printf %%s \"$x\" > %s; echo DONE; "
		 "exec sleep 60",
		 REQUESTS, go, got_path);
	const char *argv[] = {"bash", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5,
					.write_queue_max = QUEUE};
	struct kf_session *s = NULL;
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 1000 && !strstr(screen(s), "SENT"); i++)
		run_for(c.loop, 10);
	const size_t pending = kf_session_write_pending(s);
	fflush(stderr);
	const int lines = count_lines(log);
	FILE *f = fopen(go, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	/* the end mark goes behind the replies, in the same queue */
	for (int i = 0; i < 500 && kf_session_write(s, "Z", 1) == -ENOBUFS; i++)
		run_for(c.loop, 10);
	for (int i = 0; i < 1000 && !strstr(screen(s), "DONE"); i++)
		run_for(c.loop, 10);
	run_for(c.loop, 50);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	static char got[REQUESTS * 16];
	read_text(got_path, got, sizeof(got));
	static const char da1[] = "\033[?62;22c";
	size_t replies = 0, len = strlen(got);
	for (const char *p = got; (p = strstr(p, da1)); p += sizeof(da1) - 1)
		replies++;
	read_text(log, text, sizeof(text));
	/* A burst is one warning at its start and one count at its end. The kernel's flush worker can make room
	 * while the child still does not read (moving bytes from the PTY's flip buffer into the line discipline),
	 * so the queue may take a reply between two drops: a burst ends there, and a new one starts with its own
	 * warning. Every count is summed. */
	unsigned long dropped = 0;
	int warned = 0, counts = 0;
	for (const char *w = text; (w = strstr(w, "dropping a 9-byte reply")); w++)
		warned++;
	for (const char *n = text; (n = strstr(n, "replies to the child were dropped")); n++) {
		const char *d = n;
		while (d > text && d[-1] != ':')
			d--;
		dropped += strtoul(d, NULL, 10);
		counts++;
	}
	printf("replies: %zu KiB pending at most %d, %zu of %d received whole (%zu bytes), %lu counted as dropped "
	       "in %d burst(s), %d warning(s), %d log line(s) while the child did not read; log: %s",
	       pending >> 10, QUEUE, replies, REQUESTS, len, dropped, counts, warned, lines, text);
	CHECK(pending <= QUEUE);
	/* bounded logging: a warning and a count a burst, not a line a drop */
	CHECK(warned >= 1 && counts == warned && lines <= 2 * warned);
	CHECK(len == replies * (sizeof(da1) - 1) && replies > 0 && replies < REQUESTS);
	CHECK(replies + dropped == REQUESTS);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* Once the child has read what had to wait in the write queue, the loop is idle again: the master was left
 * watched for writability with the queue empty, and the program spun on a core from the first paste or fast
 * typing on (210 of 300 ticks over 3 idle seconds). Counted in the loop's wake-ups (run_counting), not its CPU
 * time (under 100 ms of 500 until session 57), which a loaded host's spinning loop stayed under. */
static void test_idle_after_queue(void)
{
	/* The child reads once told to (a file): after a fixed 0.3 s, a test late to write (0.4 s) found the child
	 * reading already, and the 256 KiB went straight through with nothing queued (10 times in 10). */
	char go[256], cmd[512];
	snprintf(go, sizeof(go), "%s/go-idle", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "stty raw -echo; echo READY; while [ ! -e %s ]; do sleep 0.02; done; exec cat >/dev/null", go);
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5,
					.write_queue_max = 1u << 20};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "READY"); i++)
		run_for(c.loop, 10);
	static char keys[256 << 10];
	memset(keys, 'k', sizeof(keys));
	CHECK(kf_session_write(s, keys, sizeof(keys)) == 0 && kf_session_write_pending(s) > 0);
	FILE *f = fopen(go, "w");
	if (f)
		fclose(f);
	for (int i = 0; i < 500 && kf_session_write_pending(s); i++)
		run_for(c.loop, 10);
	const int woken = run_counting(c.loop, 500);
	printf("idle after the queue drained: %zu bytes pending, %d wake-ups in 500 ms\n",
	       kf_session_write_pending(s), woken);
	CHECK(kf_session_write_pending(s) == 0 && woken <= 5);
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
	/* until the first size shows (its trap is set then): a fixed 300 ms was too short for a child started late
	 * on a busy machine, and a resize before the trap was ignored by the shell, which then never exited */
	for (int i = 0; i < 500 && !strstr(screen(s), "24 80"); i++)
		run_for(c.loop, 10);
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
static void test_sigchld_fallback(bool profile)
{
	const char *argv[] = {"sh", "-c", "seq 1 3000; echo LAST; exit 9", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5, .no_pidfd = true,
					.profile = profile};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	CHECK(run_for(c.loop, 10000) == 9);
	CHECK(c.exited && c.exit_code == 9);
	CHECK(strstr(screen(s), "3000\nLAST\n"));
	/* Profiling, the reading's CPU time splits into its read(2) calls (estimated from a sample of them) and
	 * the rest, the parse; otherwise no clock is read and only the counters count. */
	struct kf_session_stats st;
	kf_session_stats(s, &st);
	CHECK(st.reads > 0 && st.bytes > 14000 && st.wakeups > 0);
	if (profile) {
		CHECK(st.read_sys_cpu_ns > 0 && st.read_sys_cpu_ns <= st.read_cpu_ns);
		CHECK(st.parse_cpu_ns + st.read_sys_cpu_ns == st.read_cpu_ns);
		CHECK(st.read_ns >= st.parse_ns && st.parse_ns > 0);
	} else {
		CHECK(!st.read_ns && !st.parse_ns && !st.read_cpu_ns && !st.parse_cpu_ns && !st.read_sys_cpu_ns);
	}
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
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
	if (session_tests_begin() < 0)
		return 1;
	test_slave_reopened();
	test_no_output_keeps_view();
	test_keys_dropped_logged();
	test_replies_dropped_counted();
	test_idle_after_queue();
	test_resize_and_status();
	test_backspace_erases();
	test_sigchld_fallback(true);
	test_sigchld_fallback(false);
	test_parse_read_pause();
	test_read_pause(3000);
	test_read_pause(0);
	return session_tests_end();
}
