/* tests/pty/test-pty-spawn-locked.c: the child of pty_spawn, between fork and exec, calls only async-signal-safe
 * functions, so that a lock another thread of ours held at the fork cannot stop it (since the keymap's compile
 * moved to a worker thread, the program is multi-threaded at times). And the program it runs is found on PATH as
 * execvp(3) found it, now that the search is prepared before the fork. */
#include "pty/pty-internal.h"
#include "pty-harness.h"
#include "pty-sink.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static char logged[512];

static void keep_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	char msg[512];
	(void)file;
	(void)line;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (prio <= 3)
		snprintf(logged, sizeof(logged), "%s", msg);
}

static bool has_newline(struct sink *s)
{
	return s->data && strchr(s->data, '\n');
}

/* Spawns argv (PATH as given, or the default of a clean environment), returns its exit code and what it wrote. */
static int run(const char *const *argv, const char *path, struct sink *term)
{
	if (path)
		setenv("PATH", path, 1);
	struct pty_callbacks cb = {.output = on_output};
	struct pty *pty = pty_create(&(struct pty_config){.argv = argv, .reset_env = !path}, &cb, term);
	logged[0] = 0;
	int code = pty && pty_spawn(pty) == 0 ? 0 : -2;
	if (code == 0) {
		pump(pty, 5000, NULL, term);
		code = reap_wait(pty, 5000);
	}
	pty_destroy(pty);
	return code;
}

/* The search of PATH, done by execvp in the child before, now prepared by the parent: the same outcomes. */
static void test_path_search(char *dir)
{
	char file[600], path[1300];
	const char *const found[] = {"true", NULL};
	struct sink term = {0};
	CHECK(run(found, NULL, &term) == 0); /* the default PATH of a clean environment */
	const char *const missing[] = {"kf-no-such-login", NULL};
	CHECK(run(missing, NULL, &term) == 127);
	CHECK(strstr(logged, "cannot run kf-no-such-login: No such file or directory") != NULL);
	/* Not executable in the first directory, run from the second; not executable anywhere: EACCES. */
	snprintf(file, sizeof(file), "%s/kf-script", dir);
	FILE *f = fopen(file, "w");
	fputs("exit 7\n", f); /* no #!: execvp ran it with /bin/sh (ENOEXEC) */
	fclose(f);
	chmod(file, 0600);
	const char *const script[] = {"kf-script", NULL};
	snprintf(path, sizeof(path), "%s:/nonexistent:/usr/bin:/bin", dir);
	CHECK(run(script, path, &term) == 127);
	printf("not executable: '%s'\n", logged);
	CHECK(strstr(logged, "cannot run kf-script: Permission denied") != NULL);
	chmod(file, 0700);
	CHECK(run(script, path, &term) == 7);
	const char *const by_path[] = {file, NULL};
	CHECK(run(by_path, path, &term) == 7);
	free(term.data);
	unlink(file);
}

static atomic_int locker_tid, locker_done;

/* Takes glibc's setlocale lock (as writer) and blocks holding it: the locale's files are FIFOs nobody writes. */
static void *locker(void *arg)
{
	(void)arg;
	locker_tid = (int)syscall(SYS_gettid);
	setlocale(LC_ALL, "xx_YY.UTF-8");
	locker_done = 1;
	return NULL;
}

/* The thread blocked in openat(2) on one of the FIFOs, or not within ms. */
static bool locker_blocked(int ms)
{
	char p[64], b[64];
	for (uint64_t end = ms_now() + (uint64_t)ms; ms_now() < end; usleep(1000)) {
		if (!locker_tid)
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%d/syscall", (int)locker_tid);
		FILE *f = fopen(p, "r");
		bool in_open = f && fgets(b, sizeof(b), f) && !strncmp(b, "257 ", 4);
		if (f)
			fclose(f);
		if (in_open)
			return true;
	}
	return false;
}

static const char *const categories[] = {"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
					  "LC_MESSAGES", "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE",
					  "LC_MEASUREMENT", "LC_IDENTIFICATION"};

/* A program that cannot be run, spawned while another thread holds the lock strerror(3) takes (glibc's
 * dcgettext waits for setlocale): the child said why with strerror between fork and exec, and hung there for
 * ever, holding the console's terminal, instead of saying it and exiting with 127. */
static void test_failure_under_lock(char *dir)
{
	char loc[600], fifo[700];
	snprintf(loc, sizeof(loc), "%s/xx_YY.UTF-8", dir);
	CHECK(mkdir(loc, 0700) == 0);
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++) {
		snprintf(fifo, sizeof(fifo), "%s/%s", loc, categories[i]);
		CHECK(mkfifo(fifo, 0600) == 0);
	}
	setenv("LOCPATH", dir, 1);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, locker, NULL) == 0);
	if (!locker_blocked(10000)) {
		printf("SKIP: setlocale did not block on the FIFO (not glibc?)\n");
		return;
	}
	const char *const argv[] = {"/nonexistent/kf-login", NULL};
	struct sink term = {0};
	struct pty_callbacks cb = {.output = on_output};
	/* no pidfd: on a kernel without pidfd_open (or under valgrind) its log's strerror waited for the thread */
	struct pty *pty = pty_create(&(struct pty_config){.argv = argv, .reset_env = true, .no_pidfd = true}, &cb,
				     &term);
	CHECK(pty_spawn(pty) == 0);
	pid_t pid = pty_pid(pty);
	pump(pty, 5000, has_newline, &term); /* hang guard: the child writes at once or never */
	siginfo_t si = {0};
	for (uint64_t end = ms_now() + 5000; !si.si_pid && ms_now() < end; usleep(1000))
		waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
	bool exited = si.si_pid == pid;
	printf("under the lock: the child %s; the terminal said '%s'\n", exited ? "exited" : "hung",
	       term.data ? term.data : "");
	CHECK(exited);
	CHECK(term.data && !strcmp(term.data, "kmscon-felis: cannot run /nonexistent/kf-login: No such file or "
					      "directory\r\n"));
	if (!exited)
		kill(pid, SIGKILL);
	/* Let the thread go before this process's own strerror (the log of the report) waits for it too. */
	for (uint64_t end = ms_now() + 10000; !locker_done && ms_now() < end; usleep(1000)) {
		for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++) {
			snprintf(fifo, sizeof(fifo), "%s/%s", loc, categories[i]);
			int w = open(fifo, O_WRONLY | O_NONBLOCK);
			if (w >= 0)
				close(w);
		}
	}
	CHECK(locker_done);
	pthread_join(t, NULL);
	CHECK(reap_wait(pty, 5000) == (exited ? 127 : 137));
	CHECK(strstr(logged, "cannot run /nonexistent/kf-login: No such file or directory") != NULL || !exited);
	pty_destroy(pty);
	free(term.data);
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++) {
		snprintf(fifo, sizeof(fifo), "%s/%s", loc, categories[i]);
		unlink(fifo);
	}
	rmdir(loc);
}

int main(void)
{
	char dir[] = "/tmp/kf-spawn-locked-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	pty_set_log_handler(keep_log);
	test_path_search(dir);
	/* after a first spawn, as the program's first login comes before its first reload's worker thread */
	test_failure_under_lock(dir);
	rmdir(dir);
	return failures ? 1 : 0;
}
