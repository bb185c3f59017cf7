/* tests/pty/test-pty-spawn.c: pty_spawn with a program that cannot be run: the child's report of its exec. */
#include "pty/pty.h"
#include "pty-harness.h"
#include "tests/kf-alarm.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int main(void)
{
	kf_alarm(60);
	test_exec_failure_logged();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
