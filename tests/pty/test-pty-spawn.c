/* tests/pty/test-pty-spawn.c: pty_spawn with a program that cannot be run: the child's report of its exec (also
 * from a process started with its standard descriptors closed); the child's closing of our descriptors on
 * kernels without close_range(2). */
#include "pty/pty-internal.h"
#include "pty-harness.h"
#include "tests/kf-alarm.h"
#include "pty-sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* The messages of test_exec_failure_logged: "cannot run" ones at error level (the last one kept), and at debug
 * level. */
static int exec_errors, exec_debugs;
static char exec_message[512];

static void exec_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	char msg[512];
	(void)file;
	(void)line;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!strstr(msg, "cannot run"))
		return;
	if (prio == 3 && ++exec_errors)
		snprintf(exec_message, sizeof(exec_message), "%s", msg);
	exec_debugs += prio == 7;
}

/* A program that cannot be run (a typo in login=) is logged, with the reason, once per streak of respawns: the
 * reason went only to the terminal, the log said "exited with status 127" and nothing else, and headless
 * (whose screen nobody sees until the dump) said nothing at all. The child still tells the terminal and exits
 * with 127. */
static void test_exec_failure_logged(void)
{
	char path[] = "/tmp/kf-pty-exec-XXXXXX";
	int tfd = mkstemp(path);
	CHECK(tfd >= 0);
	close(tfd);
	unlink(path);
	const char *argv[] = {path, "arg", NULL};
	struct pty_config cfg = {.argv = argv, .reset_env = true};
	struct pty *pty = pty_create(&cfg, NULL, NULL);
	int fds = count_fds();
	pty_set_log_handler(exec_log);
	for (int i = 0; i < 3; i++) {
		CHECK(pty_spawn(pty) == 0);
		CHECK(reap_wait(pty, 5000) == 127);
		pty_hangup(pty, 100);
	}
	char want[600];
	snprintf(want, sizeof(want), "cannot run %s: No such file or directory", path);
	CHECK(exec_errors == 1 && exec_debugs == 2 && strstr(exec_message, want));
	if (exec_errors != 1 || exec_debugs != 2 || !strstr(exec_message, want))
		fprintf(stderr, "exec failures: %d errors, %d debug; first: '%s'\n", exec_errors, exec_debugs,
			exec_message);
	/* The program there and run ends the streak: the next failure is an error again. */
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	chmod(path, 0700);
	CHECK(pty_spawn(pty) == 0 && reap_wait(pty, 5000) == 0);
	pty_hangup(pty, 100);
	unlink(path);
	CHECK(pty_spawn(pty) == 0 && reap_wait(pty, 5000) == 127);
	CHECK(exec_errors == 2);
	pty_hangup(pty, 100);
	pty_destroy(pty);
	/* A name longer than a log line is cut, and the reason still said after it. */
	static char long_name[5001];
	memset(long_name, 'a', sizeof(long_name) - 1);
	const char *long_argv[] = {long_name, NULL};
	pty = pty_create(&(struct pty_config){.argv = long_argv, .reset_env = true}, NULL, NULL);
	CHECK(pty_spawn(pty) == 0 && reap_wait(pty, 5000) == 127);
	CHECK(exec_errors == 3 && strlen(exec_message) < 300 && strstr(exec_message, "...: File name too long"));
	pty_destroy(pty);
	pty_set_log_handler(NULL);
	CHECK(count_fds() == fds);
}

/* What a test's forked process (pid) sent back through the pipe p, len bytes into r; it must then exit with 0. */
static void take_report(int p[2], pid_t pid, void *r, size_t len)
{
	close(p[1]);
	CHECK(read(p[0], r, len) == (ssize_t)len);
	close(p[0]);
	int st = -1;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* What the process of test_exec_failure_std_closed sends back. */
struct std_closed_report {
	int master, code, errors;
	char message[256], terminal[256];
};

/* The same failure in a program started with its standard descriptors closed (a service or script that
 * closed them): the master and the child's report pipe take numbers 0 to 2, and the child's dup2 of the
 * terminal onto 0, 1 and 2 closed its end of the pipe. The log then said nothing of why, and the errno meant
 * for the pipe went to the terminal as four raw bytes before the child's message. */
static void test_exec_failure_std_closed(void)
{
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		int out = fcntl(p[1], F_DUPFD_CLOEXEC, 100);
		close(p[0]);
		close(p[1]);
		close(0);
		close(1);
		close(2);
		struct std_closed_report r = {0};
		const char *argv[] = {"/nonexistent/kf-login", NULL};
		struct sink term = {0};
		struct pty_callbacks cb = {.output = on_output};
		struct pty *pty = pty_create(&(struct pty_config){.argv = argv, .reset_env = true}, &cb, &term);
		exec_errors = 0;
		exec_message[0] = 0;
		pty_set_log_handler(exec_log);
		r.code = pty && pty_spawn(pty) == 0 ? 0 : -1;
		r.master = pty_fd(pty);
		if (r.code == 0) {
			pump(pty, 5000, NULL, &term);
			r.code = reap_wait(pty, 5000);
		}
		r.errors = exec_errors;
		snprintf(r.message, sizeof(r.message), "%.200s", exec_message);
		if (term.data)
			snprintf(r.terminal, sizeof(r.terminal), "%.200s", term.data);
		pty_destroy(pty);
		_exit(write(out, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
	}
	struct std_closed_report r = {0};
	take_report(p, pid, &r, sizeof(r));
	printf("standard descriptors closed: master %d, the child exited with %d, %d errors logged ('%s'), the "
	       "terminal said '%s'\n", r.master, r.code, r.errors, r.message, r.terminal);
	CHECK(r.master <= 2); /* the case at hand */
	CHECK(r.code == 127);
	CHECK(r.errors == 1 && strstr(r.message, "cannot run /nonexistent/kf-login: No such file or directory"));
	CHECK(!strncmp(r.terminal, "kmscon-felis: cannot run /nonexistent/kf-login", 46));
	/* one line end, as the terminal's ONLCR makes it of "\n": the message's own "\r\n" came out "\r\r\n" */
	const char *end = strstr(r.terminal, "directory");
	printf("the message ends in %s\n", !end ? "?" : !strcmp(end, "directory\r\n") ? "CR LF" :
					 !strcmp(end, "directory\r\r\n") ? "CR CR LF" : "something else");
	CHECK(end && !strcmp(end, "directory\r\n"));
}

/* Descriptors from 3 on open in this process, but keep and the directory's own. */
static int open_above(int keep)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		int fd = atoi(e->d_name);
		n += e->d_name[0] != '.' && fd >= 3 && fd != keep && fd != dirfd(d);
	}
	closedir(d);
	return n;
}

/* What a child of test_close_from sends back through the descriptor it kept. */
struct close_report {
	long calls, limit, us;
	int open_before, open_after;
};

/* pty_close_from on the paths of a kernel before 5.9 (no close_range), with and without /proc, in a child
 * whose limit is raised to the hard one as pty_raise_fd_limit raises ours (as root, first to the kernel's cap,
 * fs.nr_open: 1,048,576 by default, the limit of a service with LimitNOFILE=infinity). Their loop used to
 * close each number up to the limit: a million close() calls for each child started. */
static void test_close_from(void)
{
	static const struct {
		unsigned flags;
		const char *name;
	} modes[] = {
		{0, "close_range"},
		{PTY_CLOSE_NO_RANGE, "/proc/self/fd"},
		{PTY_CLOSE_NO_RANGE | PTY_CLOSE_NO_PROC, "neither"},
	};
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		int p[2];
		CHECK(pipe(p) == 0);
		pid_t pid = fork();
		if (pid == 0) {
			close(p[0]);
			FILE *f = fopen("/proc/sys/fs/nr_open", "r");
			long cap = 0;
			if (f && fscanf(f, "%ld", &cap) == 1 && cap > 0)
				setrlimit(RLIMIT_NOFILE, &(struct rlimit){(rlim_t)cap, (rlim_t)cap});
			if (f)
				fclose(f);
			pty_raise_fd_limit();
			struct rlimit lim;
			getrlimit(RLIMIT_NOFILE, &lim);
			/* descriptors scattered up to the limit's last: low, past select()'s 1024, the highest */
			long at[] = {40, 41, 1023, 1024, 4000, (long)lim.rlim_cur / 2, (long)lim.rlim_cur - 1};
			for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
				dup2(p[1], (int)at[i]);
			/* and a run of them that /proc/self/fd lists in several reads, closed between them */
			for (int fd = 100; fd < 400; fd++)
				dup2(p[1], fd);
			struct close_report r = {.limit = (long)lim.rlim_cur, .open_before = open_above(p[1])};
			struct timespec a, b;
			clock_gettime(CLOCK_MONOTONIC, &a);
			r.calls = pty_close_from(3, p[1], modes[m].flags);
			clock_gettime(CLOCK_MONOTONIC, &b);
			r.us = (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000;
			r.open_after = open_above(p[1]);
			_exit(write(p[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
		}
		struct close_report r = {0};
		take_report(p, pid, &r, sizeof(r));
		fprintf(stderr, "close_from by %s: %ld system calls in %ld us for %d descriptors, limit %ld; %d left\n",
			modes[m].name, r.calls, r.us, r.open_before, r.limit, r.open_after);
		CHECK(r.open_before >= 300 && r.open_after == 0);
		/* with /proc: one close a descriptor, a few to read the directory; without it, one poll(2) a
		 * thousand numbers */
		long bound = r.open_before + 8 + (modes[m].flags & PTY_CLOSE_NO_PROC ? r.limit / 512 : 0);
		CHECK(r.calls <= bound);
	}
}

int main(void)
{
	kf_alarm(60);
	test_close_from();
	test_exec_failure_logged();
	test_exec_failure_std_closed();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
