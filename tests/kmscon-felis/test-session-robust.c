/* tests/kmscon-felis/test-session-robust.c: the session (loop + pty + grid) with real children, against what a
 * child or the process's state can do to it: a flood of queries from a child that does not read (the user's keys
 * must still get through), SIGCHLD ignored after the child started (its exit must still be seen, once), and a
 * first start that fails (tried again as later ones are). */
#include "kmscon-felis/session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kmscon-felis/loop.h"

#include "session-harness.h"

/* A child that asks and never reads (cat of a file full of status requests, DSR 5, whose 4-byte answers fill
 * the queue to its last byte) fills the write queue with the
 * answers; the user's keys, Ctrl+C among them, must still be taken, and reach the child once it reads. Replies
 * shared the keys' bound: the flood took it all and every key was refused until the child read. */
static void test_keys_after_reply_flood(void)
{
	enum { REQUESTS = 60000, QUEUE = 64 << 10 };
	char got_path[200], go[200], cmd[2048];
	snprintf(got_path, sizeof(got_path), "%s/got-keys", tmpdir);
	snprintf(go, sizeof(go), "%s/go-keys", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "stty raw -echo; yes \"$(printf '\\033[5n')\" | head -n %d | tr -d '\\n'; echo SENT; "
		 "while [ ! -e %s ]; do sleep 0.02; done; IFS= read -r -d Z x; printf %%s \"$x\" > %s.part; "
		 "mv %s.part %s; exec sleep 60",
		 REQUESTS, go, got_path, got_path, got_path);
	const char *argv[] = {"bash", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5,
					.write_queue_max = QUEUE};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 1000 && !strstr(screen(s), "SENT"); i++)
		run_for(c.loop, 10);
	const size_t pending = kf_session_write_pending(s);
	/* the key at once, with the child still not reading: no retry */
	const int key = kf_session_write(s, "Z", 1);
	touch(go);
	const bool got = run_until_file(c.loop, got_path, 10000);
	static char text[REQUESTS * 16];
	read_text(got_path, text, sizeof(text));
	printf("reply flood: %zu bytes queued (queue %d), the key %s (%s), the child got it: %s (%zu bytes of "
	       "replies before it)\n",
	       pending, QUEUE, key == 0 ? "taken" : "refused", strerror(-key), got ? "yes" : "no", strlen(text));
	CHECK(pending > 0 && pending <= QUEUE);
	CHECK(key == 0);
	CHECK(got);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* SIGCHLD set to be ignored after the child started (a library of ours, a handler that changed it): the kernel
 * reaps the child itself and its status is lost. The exit must still end the session (the login started again
 * here), without spinning: the pidfd stayed readable and watched, the reap found no child, and the loop woke for
 * ever at full CPU with nothing started again. Counted in the loop's wake-ups (run_counting: a spinning loop's
 * CPU time on a loaded host is its small share of a core), over 5 s at most (the second run is due at ~0.3 s: a
 * hang guard). */
static void test_sigchld_ignored_later(void)
{
	char runs[256], cmd[512];
	snprintf(runs, sizeof(runs), "%s/runs", tmpdir);
	snprintf(cmd, sizeof(cmd), "echo run >> %s; sleep 0.2; exit 3", runs);
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 40, .rows = 5};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGCHLD, &ign, &old);
	int woken = 0;
	for (int i = 0; i < 500 && count_lines(runs) < 2; i++) /* the first ends at 0.2 s, +0.1 s back-off */
		woken += run_counting(c.loop, 10);
	const int n = count_lines(runs);
	sigaction(SIGCHLD, &old, NULL);
	printf("SIGCHLD ignored after the start: %d run(s) of the login, %d wake-ups meanwhile\n", n, woken);
	CHECK(n >= 2);
	CHECK(woken < 50);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* The first start of a login that respawns fails (no descriptor for the PTY: as a full pts table or a fork's
 * EAGAIN): tried again every second as a later start's failure is, the reason on the screen, and the login
 * runs once the cause is gone. The first failure was returned to the program, which exited. */
static void test_first_start_retried(void)
{
	const char *argv[] = {"sh", "-c", "printf 'login: '; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .defer_start = true,
					.cols = 80, .rows = 5};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	struct rlimit saved;
	getrlimit(RLIMIT_NOFILE, &saved);
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the lowest free descriptor */
	close(fd);
	setrlimit(RLIMIT_NOFILE, &(struct rlimit){.rlim_cur = (rlim_t)fd, .rlim_max = saved.rlim_max});
	const int r = kf_session_start(s);
	setrlimit(RLIMIT_NOFILE, &saved);
	char first[256];
	snprintf(first, sizeof(first), "%s", screen(s));
	for (int i = 0; i < 300 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	for (char *p = first; *p; p++)
		*p = *p == '\n' ? '|' : *p;
	printf("first start with no descriptor free: %d (%s); the screen said '%s'; the login runs later: %s\n", r,
	       strerror(-r), first, strstr(screen(s), "login:") ? "yes" : "no");
	CHECK(r == 0);
	CHECK(strstr(first, "cannot start") != NULL);
	CHECK(strstr(screen(s), "login:") != NULL);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_keys_after_reply_flood();
	test_sigchld_ignored_later();
	test_first_start_retried();
	return session_tests_end();
}
