/* tests/pty/test-pty.c: pty/ alone, with real PTYs and real children: the child's start (environment,
 * terminal, descriptors), reading its output to the last byte, hang-up and respawn. The write queue's bounds
 * and memory are in test-pty-queue.c.
 *
 * Children are this executable run again with a mode argument (so they can inspect what they inherited),
 * /bin/cat and /bin/sh. Every wait has a deadline; kf_alarm() guards against a hang anywhere.
 */
#include "pty/pty.h"
#include "pty-harness.h"
#include "tests/kf-alarm.h"
#include "pty-sink.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>


static char self[4096];

/* ---------------------------------------------------------------------------------------------- children */

static int child_env(void)
{
	int open_fds = 0;
	for (int fd = 3; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			open_fds++;
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	struct sigaction sa;
	sigaction(SIGTERM, NULL, &sa);
	struct winsize ws = {0};
	ioctl(0, TIOCGWINSZ, &ws);
	char cwd[256] = "";
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "?");
	const char *term = getenv("TERM"), *ct = getenv("COLORTERM"), *home = getenv("KF_TEST_LEAK");
	printf("FDS=%d TTY=%d,%d,%d SID=%d PGRP=%d\r\n", open_fds, isatty(0), isatty(1), isatty(2),
	       getsid(0) == getpid(), tcgetpgrp(0) == getpid());
	printf("TERM=%s COLORTERM=%s LEAK=%s CWD=%s\r\n", term ? term : "-", ct ? ct : "-", home ? home : "-",
	       cwd);
	printf("MASK=%d DFL=%d WS=%dx%d/%dx%d\r\n", sigismember(&mask, SIGTERM) || sigismember(&mask, SIGCHLD),
	       sa.sa_handler == SIG_DFL, ws.ws_col, ws.ws_row, ws.ws_xpixel, ws.ws_ypixel);
	const char *path = getenv("PATH"), *lang = getenv("LANG");
	printf("PATH=%s LANG=%s\r\n", path ? path : "-", lang ? lang : "-");
	/* The service's own variables (systemd's notify, socket activation and watchdog) that reached us. */
	static const char *const svc[] = {"NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
					  "WATCHDOG_USEC", "WATCHDOG_PID", NULL};
	printf("SVC=");
	for (int i = 0; svc[i]; i++)
		if (getenv(svc[i]))
			printf("%s,", svc[i]);
	printf("-\r\n");
	/* The size variables of the terminal we were started from: they override the window size (TIOCGWINSZ) in
	 * ncurses, readline and Python, so a program drew at that size on a screen of another and ignored resizes. */
	static const char *const size_vars[] = {"COLUMNS", "LINES", "TERMCAP", NULL};
	printf("SIZEVARS=");
	for (int i = 0; size_vars[i]; i++)
		if (getenv(size_vars[i]))
			printf("%s,", size_vars[i]);
	printf("-\r\n");
	fflush(stdout);
	return 3;
}

static int child_last_line(void)
{
	/* Many lines and then the one that must not be lost; exit at once without waiting for the reader. */
	for (int i = 0; i < 2000; i++)
		printf("line %d of the burst\n", i);
	printf("THE LAST LINE\n");
	fflush(stdout);
	_exit(0);
}

/* BURST_LEN bytes of burst_byte(i), no newline (so the line discipline's output processing leaves them as
 * they are), then exit: fewer bytes than the kernel holds between the two ends (a pty's 8 KiB flip buffer
 * and the line discipline's 4 KiB), so the child is gone before the reader starts. */
#define BURST_LEN 10000
static char burst_byte(size_t i)
{
	return (char)('!' + (i * 7 + i / 91) % 90);
}

static int child_burst(void)
{
	static char buf[BURST_LEN];
	for (size_t i = 0; i < BURST_LEN; i++)
		buf[i] = burst_byte(i);
	for (size_t off = 0; off < BURST_LEN;) {
		ssize_t n = write(1, buf + off, BURST_LEN - off);
		if (n <= 0)
			return 1;
		off += (size_t)n;
	}
	_exit(0);
}


/* ------------------------------------------------------------------------------------------------- tests */

static void test_child_environment(void)
{
	const char *argv[] = {self, "child-env", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .term = "kf-test-term", .reset_env = true,
				 .cols = 100, .rows = 30, .xpixel = 800, .ypixel = 480};
	setenv("KF_TEST_LEAK", "leaked", 1);
	char *const old_path = strdup(getenv("PATH") ? getenv("PATH") : "/bin:/usr/bin");
	setenv("LANG", "kf_TEST.UTF-8", 1);
	setenv("PATH", "/kf-test-path:/bin:/usr/bin", 1);
	/* An fd without CLOEXEC that the child must not inherit. */
	int leak = open("/dev/null", O_RDONLY);
	struct pty *pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	CHECK(pty_spawn(pty) == -EBUSY);
	CHECK(pump(pty, 5000, NULL, &s) == -EIO);
	CHECK(reap_wait(pty, 5000) == 3);
	const char *o = s.data ? s.data : "";
	CHECK(strstr(o, "FDS=0 TTY=1,1,1 SID=1 PGRP=1"));
	CHECK(strstr(o, "TERM=kf-test-term COLORTERM=truecolor LEAK=- CWD=/"));
	CHECK(strstr(o, "MASK=0 DFL=1 WS=100x30/800x480"));
	/* the clean environment's own two (kmscon-felis.conf(5), reset-env) */
	CHECK(strstr(o, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=kf_TEST.UTF-8"));
	if (failures)
		fprintf(stderr, "child said:\n%s\n", o);
	pty_destroy(pty);

	/* Without reset_env our environment is inherited, with TERM/COLORTERM overridden. */
	free(s.data);
	memset(&s, 0, sizeof(s));
	cfg.reset_env = false;
	cfg.term = NULL;
	cfg.colorterm = "24bit";
	/* ... minus our service's NOTIFY_SOCKET, LISTEN_* and WATCHDOG_* (docs/architecture.md): LISTEN_FDNAMES,
	 * which systemd sets with LISTEN_FDS, reached the login. */
	setenv("NOTIFY_SOCKET", "/run/kf-test", 1);
	setenv("LISTEN_FDS", "1", 1);
	setenv("LISTEN_PID", "1", 1);
	setenv("LISTEN_FDNAMES", "kf-test", 1);
	setenv("WATCHDOG_USEC", "1", 1);
	setenv("WATCHDOG_PID", "1", 1);
	/* ... and minus the size of the terminal we were started from (COLUMNS, LINES, TERMCAP; st, neovim's
	 * terminal and xterm drop them too): tput cols said 33 on a 100-column screen. */
	setenv("COLUMNS", "33", 1);
	setenv("LINES", "7", 1);
	setenv("TERMCAP", "kf-test:co#33:li#7:", 1);
	pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	pump(pty, 5000, NULL, &s);
	CHECK(s.data && strstr(s.data, "TERM=xterm-256color COLORTERM=24bit LEAK=leaked"));
	CHECK(s.data && strstr(s.data, "PATH=/kf-test-path:/bin:/usr/bin LANG=kf_TEST.UTF-8"));
	CHECK(s.data && strstr(s.data, "SVC=-\r"));
	CHECK(s.data && strstr(s.data, "SIZEVARS=-\r"));
	if (failures)
		fprintf(stderr, "child said:\n%s\n", s.data ? s.data : "");
	unsetenv("NOTIFY_SOCKET");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDNAMES");
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	unsetenv("COLUMNS");
	unsetenv("LINES");
	unsetenv("TERMCAP");
	setenv("PATH", old_path, 1);
	free(old_path);
	pty_destroy(pty);
	free(s.data);
	close(leak);
}

static bool has_two_hellos(struct sink *s)
{
	const char *a = s->data ? strstr(s->data, "hello") : NULL;
	return a && strstr(a + 1, "hello");
}

static void test_echo(void)
{
	const char *argv[] = {"cat", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct pty *pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	CHECK(pty_write(pty, "hello\n", 6) == 0);
	pump(pty, 5000, has_two_hellos, &s);
	/* The line discipline's echo, then cat's copy. */
	CHECK(has_two_hellos(&s));
	pty_destroy(pty);
	free(s.data);
}

static bool has_ready(struct sink *s)
{
	return s->data && strchr(s->data, 'R');
}

static bool has_line(struct sink *s)
{
	return s->data && strchr(s->data, ']');
}

/* What a shell's read(1) gets in the terminal's cooked mode (as at a login prompt) when typed is typed, as
 * "[line]" in *out (owned by the caller), echo off. */
static void cooked_line(const struct pty_config *base, const char *typed, char **out)
{
	const char *argv[] = {"sh", "-c", "stty -echo; printf R; IFS= read -r l; printf '[%s]' \"$l\"", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = *base;
	cfg.argv = argv;
	cfg.reset_env = true;
	struct pty *pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	pump(pty, 5000, has_ready, &s);
	CHECK(pty_write(pty, typed, strlen(typed)) == 0);
	pump(pty, 5000, has_line, &s);
	pty_destroy(pty);
	const char *l = s.data ? strchr(s.data, '[') : NULL;
	*out = strdup(l ? l : "(nothing)");
	free(s.data);
}

/* The terminal is UTF-8, so the line discipline is told (IUTF8, as the kernel's console and xterm do): Backspace
 * after a non-ASCII character at a cooked-mode prompt (login:, read, cat) takes the whole character back, not
 * only its last byte, which left the program a broken one ("é", Backspace, "a" read as "\xc3a"). */
static void test_cooked_utf8_erase(void)
{
	struct pty_config cfg = {0};
	char *got;
	cooked_line(&cfg, "x\xc3\xa9\x7f" "a\r", &got);
	CHECK(!strcmp(got, "[xa]"));
	if (strcmp(got, "[xa]"))
		fprintf(stderr, "typed x, e acute, Backspace, a: read got %s\n", got);
	free(got);
}


/* Services master and pidfd like a session: on the child's exit, reap, then drain what is left. */
static int run_to_exit(struct pty *pty, struct sink *s)
{
	int code = -1;
	uint64_t end = ms_now() + 5000;
	while (ms_now() < end) {
		struct pollfd pfd[2] = {{.fd = pty_fd(pty), .events = POLLIN}, {.fd = pty_pidfd(pty), .events = POLLIN}};
		poll(pfd, 2, 50);
		if (pfd[0].revents & (POLLIN | POLLHUP))
			pty_read(pty, 4096);
		int st;
		if (pty_reap(pty, &st) == 1) {
			code = pty_exit_code(st);
			break;
		}
	}
	CHECK(pty_read(pty, 0) == -EIO);
	(void)s;
	return code;
}

static void test_last_line(void)
{
	const char *argv[] = {self, "child-last-line", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	for (int round = 0; round < 20; round++) {
		struct pty *pty = pty_create(&cfg, &cb, &s);
		s.len = 0;
		CHECK(pty_spawn(pty) == 0);
		CHECK(pty_pidfd(pty) >= 0);
		CHECK(run_to_exit(pty, &s) == 0);
		CHECK(s.data && s.len > 15 && !strcmp(s.data + s.len - 15, "THE LAST LINE\r\n"));
		pty_destroy(pty);
	}
	free(s.data);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* pty_get_read_cpu: every read(2) call is counted, the one that found nothing included, and with
 * sample_read_cpu one in PTY_READ_CPU_SAMPLE is timed in the thread's CPU time, from the first; without it
 * (the default) none is, so that reading costs no clock system calls. */
static void test_read_cpu(bool sample)
{
	const char *argv[] = {self, "child-last-line", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true, .sample_read_cpu = sample};
	struct pty *pty = pty_create(&cfg, &cb, &s);
	uint64_t calls, sampled, ns, reads, bytes;
	pty_get_read_cpu(pty, &calls, &sampled, &ns);
	CHECK(calls == 0 && sampled == 0 && ns == 0);
	CHECK(pty_spawn(pty) == 0);
	uint64_t cpu0 = thread_cpu_ns(), ended = 0; /* pty_read calls that ended on a read of nothing */
	uint64_t end = ms_now() + 10000;
	int r = 0;
	while (r != -EIO && ms_now() < end) {
		struct pollfd pfd = {.fd = pty_fd(pty), .events = POLLIN};
		poll(&pfd, 1, 50);
		if (pfd.revents & (POLLIN | POLLHUP)) {
			r = pty_read(pty, 0); /* no budget: each call ends on EAGAIN or the hang-up */
			ended++;
		}
	}
	uint64_t cpu = thread_cpu_ns() - cpu0;
	CHECK(r == -EIO);
	pty_get_stats(pty, &reads, &bytes);
	pty_get_read_cpu(pty, &calls, &sampled, &ns);
	CHECK(reads > 1 && bytes > 40000);
	/* every read that found nothing ended a pty_read call, but for the hang-up's: it is read twice, and
	 * once more for each early report (pty_read) */
	CHECK(calls == reads + ended + 1 + pty_get_early_hangups(pty));
	if (sample) {
		CHECK(sampled == (calls + PTY_READ_CPU_SAMPLE - 1) / PTY_READ_CPU_SAMPLE);
		CHECK(ns > 0 && ns <= cpu);
	} else {
		CHECK(sampled == 0 && ns == 0);
	}
	CHECK(reap_wait(pty, 5000) == 0);
	pty_destroy(pty);
	free(s.data);
}

/* Gathering (pty_config.gather): with the child's whole output waiting in the kernel, one pty_read hands it
 * all out in one callback when gathering (the reads fill the buffer first), one callback per read when not;
 * either way every byte arrives, in order, before the hang-up is reported. */
static void test_gather(int mode)
{
	const char *argv[] = {self, "child-burst", NULL};
	static char expect[BURST_LEN];
	for (size_t i = 0; i < BURST_LEN; i++)
		expect[i] = burst_byte(i);
	struct sink s = {.expect = expect, .expect_len = BURST_LEN};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true, .gather = mode};
	struct pty *pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	/* the child has written everything and exited; the master stays open until pty_hangup */
	CHECK(reap_wait(pty, 5000) == 0);
	uint64_t reads, bytes, outputs0 = pty_get_outputs(pty);
	int r = pty_read(pty, 0);
	CHECK(r == -EIO);
	pty_get_stats(pty, &reads, &bytes);
	uint64_t outputs = pty_get_outputs(pty) - outputs0;
	CHECK(!s.mismatch && s.len == BURST_LEN && bytes == BURST_LEN);
	CHECK(reads >= BURST_LEN / 4096); /* the line discipline hands out at most 4 KiB a read */
	if (mode == PTY_GATHER_ON)
		CHECK(outputs == 1);
	else
		CHECK(outputs == reads);
	pty_destroy(pty);
}

/* pty_read_stop from the output callback (the session's work budget): the pty_read returns 1 after that one
 * callback, before another read(2), and the next calls go on where it stopped, gathering or not: every byte in
 * order, one callback per call, then the hang-up. */
static struct pty *stop_pty;

static void on_output_stop(void *ud, const uint8_t *data, size_t len)
{
	on_output(ud, data, len);
	pty_read_stop(stop_pty);
}

static void test_read_stop(int mode)
{
	const char *argv[] = {self, "child-burst", NULL};
	static char expect[BURST_LEN];
	for (size_t i = 0; i < BURST_LEN; i++)
		expect[i] = burst_byte(i);
	struct sink s = {.expect = expect, .expect_len = BURST_LEN};
	struct pty_callbacks cb = {.output = on_output_stop};
	struct pty_config cfg = {.argv = argv, .reset_env = true, .gather = mode};
	stop_pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(stop_pty) == 0);
	CHECK(reap_wait(stop_pty, 5000) == 0);
	int r, calls = 0;
	bool one_each = true;
	do {
		uint64_t outputs0 = pty_get_outputs(stop_pty);
		r = pty_read(stop_pty, 0);
		if (r == 1 && pty_get_outputs(stop_pty) - outputs0 != 1)
			one_each = false;
	} while (r == 1 && ++calls < 1000);
	CHECK(r == -EIO);
	CHECK(one_each);
	CHECK(calls >= 1);
	CHECK(!s.mismatch && s.len == BURST_LEN);
	pty_destroy(stop_pty);
}

/* The kernel's early hang-up (pty_read): n_tty_read can report EIO while the child's last writes wait for
 * the flush worker. With the reader and the child on one CPU the child's writes and exit often fall between
 * the reader's wait for the worker and its test of the closed flag: before pty_read read once more, this
 * test found 8, 10 and 12 short rounds of 1500 in three runs (session 32). Every round must deliver every
 * byte. */
#define EXIT_RACE_LINES 20
#define EXIT_RACE_STR_(x) #x
#define EXIT_RACE_STR(x) EXIT_RACE_STR_(x)
#define EXIT_RACE_LINE "0123456789abcdef"
static void test_exit_race(void)
{
	cpu_set_t old, one;
	CHECK(sched_getaffinity(0, sizeof(old), &old) == 0);
	int cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu >= 0 ? cpu : 0, &one);
	CHECK(sched_setaffinity(0, sizeof(one), &one) == 0); /* the children inherit it */
	/* a line per write(2) (dash's echo), then exit at once; a shell, not this program: under ASan that
	 * starts ~30 ms slower, and 1500 rounds took 52 s */
	const char *argv[] = {"sh", "-c",
			      "i=0; while [ $i -lt " EXIT_RACE_STR(EXIT_RACE_LINES) " ]; do echo " EXIT_RACE_LINE
			      "; i=$((i+1)); done",
			      NULL};
	/* the line discipline turns each "\n" into "\r\n" */
	const size_t want = EXIT_RACE_LINES * (sizeof(EXIT_RACE_LINE) - 1 + 2);
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	const int rounds = 1500;
	int short_rounds = 0;
	uint64_t early = 0;
	for (int round = 0; round < rounds; round++) {
		struct sink s = {0};
		struct pty *pty = pty_create(&cfg, &cb, &s);
		CHECK(pty_spawn(pty) == 0);
		int r = pump(pty, 5000, NULL, &s);
		if (r != -EIO || s.len != want) {
			if (short_rounds++ < 3)
				fprintf(stderr, "exit race: round %d got %zu of %zu bytes (pty_read %d)\n", round, s.len,
					want, r);
		}
		CHECK(reap_wait(pty, 5000) == 0);
		early += pty_get_early_hangups(pty);
		pty_destroy(pty);
		free(s.data);
	}
	CHECK(sched_setaffinity(0, sizeof(old), &old) == 0);
	fprintf(stderr, "exit race: %d rounds on CPU %d, %d short, %llu early hang-ups read past\n", rounds, cpu,
		short_rounds, (unsigned long long)early);
	CHECK(short_rounds == 0);
}

static void test_backoff(void)
{
	const char *argv[] = {"false", NULL};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct pty *pty = pty_create(&cfg, NULL, NULL);
	unsigned expect[] = {100, 200, 400, 800, 1600, 3200, 6400, 10000, 10000};
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		CHECK(pty_spawn(pty) == 0);
		CHECK(reap_wait(pty, 5000) == 1);
		CHECK(pty_respawn_delay_ms(pty) == expect[i]);
		pty_hangup(pty, 100);
	}
	/* A child that lives long enough resets the back-off. */
	const char *slow[] = {"sleep", "1.05", NULL};
	cfg.argv = slow;
	struct pty *p2 = pty_create(&cfg, NULL, NULL);
	CHECK(pty_spawn(p2) == 0);
	CHECK(reap_wait(p2, 5000) == 0);
	CHECK(pty_respawn_delay_ms(p2) == 0);
	pty_destroy(p2);
	pty_destroy(pty);
}


/* Whether the process pid is gone (or a zombie: dead, its parent not yet told). */
static bool process_gone(int pid)
{
	char path[64], text[512] = "";
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	const char *paren = strrchr(text, ')'); /* the state follows the command name */
	return paren && paren[1] == ' ' && paren[2] == 'Z';
}

static void test_hangup_no_leaks(void)
{
	int fds = count_fds();
	/* A session that ignores SIGHUP and has a background job: hang-up must still end and reap it. The
	 * child shows its job's pid once both are so (the trap set, the job started): after a fixed 100 ms, a
	 * child not yet there died of the SIGHUP, and the escalation to SIGKILL went untested. */
	const char *argv[] = {"sh", "-c", "trap '' HUP; sleep 60 & echo \"[$!]\"; exec sleep 60", NULL};
	struct sink s = {0};
	struct pty_callbacks cb = {.output = on_output};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct pty *pty = pty_create(&cfg, &cb, &s);
	CHECK(pty_spawn(pty) == 0);
	pump(pty, 5000, has_line, &s);
	const char *open_bracket = s.data ? strchr(s.data, '[') : NULL;
	const int job = open_bracket ? atoi(open_bracket + 1) : 0;
	CHECK(job > 0 && !process_gone(job));
	CHECK(pty_resize(pty, 132, 43, 1056, 688) == 0);
	struct winsize ws;
	CHECK(ioctl(pty_fd(pty), TIOCGWINSZ, &ws) == 0 && ws.ws_col == 132 && ws.ws_row == 43 &&
	      ws.ws_xpixel == 1056 && ws.ws_ypixel == 688);
	pid_t pid = pty_pid(pty);
	uint64_t t0 = ms_now();
	pty_hangup(pty, 200);
	const uint64_t took = ms_now() - t0;
	/* the child ignored the SIGHUP for the 200 ms given, then the SIGKILL ended it */
	if (took < 190 || took >= 3000)
		printf("hang-up of a child that ignores SIGHUP took %llu ms (want 200 to 3000)\n",
		       (unsigned long long)took);
	CHECK(took >= 190 && took < 3000);
	CHECK(pty_fd(pty) == -1 && pty_pid(pty) == 0);
	CHECK(kill(pid, 0) < 0 && errno == ESRCH);
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
	/* and its background job, no child of ours (init reaps it) */
	for (uint64_t end = ms_now() + 2000; job > 0 && !process_gone(job) && ms_now() < end;)
		usleep(5000);
	if (job > 0 && !process_gone(job))
		printf("the background job %d outlived the hang-up\n", job);
	CHECK(job > 0 && process_gone(job));
	free(s.data);
	CHECK(pty_write(pty, "x", 1) == -ENOTCONN);
	pty_destroy(pty);
	pty_destroy(NULL);
	CHECK(count_fds() == fds);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child-env"))
		return child_env();
	if (argc > 1 && !strcmp(argv[1], "child-last-line"))
		return child_last_line();
	if (argc > 1 && !strcmp(argv[1], "child-burst"))
		return child_burst();
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	kf_alarm(120);
	signal(SIGPIPE, SIG_IGN);

	test_child_environment();
	test_echo();
	test_cooked_utf8_erase();
	test_last_line();
	test_read_cpu(true);
	test_read_cpu(false);
	test_gather(PTY_GATHER_ON);
	test_gather(PTY_GATHER_OFF);
	test_gather(42); /* not a mode: no gathering */
	test_read_stop(PTY_GATHER_ON);
	test_read_stop(PTY_GATHER_OFF);
	test_exit_race();
	test_backoff();
	test_hangup_no_leaks();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
