/* tests/kmscon-felis/session-harness.h: what the session's tests share (test-session.c, test-paste.c): the
 * check macro, a temporary directory, a loop run with a deadline, the screen as text, and file helpers.
 * Include once per test file; the helpers are static inline so a file need not use them all. */
#ifndef KF_TESTS_SESSION_HARNESS_H
#define KF_TESTS_SESSION_HARNESS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/loop.h"
#include "kmscon-felis/screen-text.h"
#include "kmscon-felis/session.h"
#include "tests/kf-alarm.h"
#include "tests/kf-check-plain.h"

static int failures;

static char tmpdir[] = "/tmp/kf-session-XXXXXX";

struct ctx {
	struct kf_loop *loop;
	int exit_code;
	bool exited;
};

static inline void on_exited(void *ud, int code)
{
	struct ctx *c = ud;
	c->exited = true;
	c->exit_code = code;
	kf_loop_quit(c->loop, code);
}

static inline void on_deadline(void *ud, struct kf_timer *t)
{
	kf_loop_quit(ud, -ETIMEDOUT);
}

/* Runs the loop for ms of real time; returns how many of its iterations something woke (returned before their
 * timeout). A count, not the CPU time taken: a loop spinning on a loaded host gets a small share of a core (so
 * its CPU time looks idle) but still returns thousands of times. */
static inline int run_counting(struct kf_loop *loop, int ms)
{
	int n = 0;
	for (uint64_t end = kf_loop_now_ns() + (uint64_t)ms * 1000000u, now = kf_loop_now_ns(); now < end;
	     now = kf_loop_now_ns()) {
		kf_loop_dispatch(loop, (int)((end - now + 999999u) / 1000000u));
		n += kf_loop_now_ns() < end;
	}
	return n;
}

/* Runs the loop until quit or ms pass. */
static inline int run_for(struct kf_loop *loop, int ms)
{
	struct kf_timer *t = kf_loop_add_timer(loop, on_deadline, loop);
	kf_timer_arm(t, (uint64_t)ms * 1000000u, 0);
	int r = kf_loop_run(loop);
	kf_timer_remove(t);
	return r;
}

/* The screen as text (the headless dump), in a static buffer. */
static inline const char *screen(struct kf_session *s)
{
	static char buf[1 << 16];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	kf_screen_text(kf_session_grid(s), f);
	long n = ftell(f);
	fclose(f);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static inline int count_lines(const char *path)
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

/* The file at path as a string (empty when missing), at most cap - 1 bytes. */
static inline void read_text(const char *path, char *buf, size_t cap)
{
	size_t n = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, cap - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/* An empty file at path: the go-ahead a test's child waits for */
static inline void touch(const char *path)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
}

static inline bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Runs the loop until the file at path exists, for up to ms of loop time; true once it does. What a child hands
 * the test goes whole: written to path.part, then renamed, so that a test reads it once it exists and not after
 * a guess of how long the child takes (a child late on a busy machine left the file short). */
static inline bool run_until_file(struct kf_loop *loop, const char *path, int ms)
{
	for (int waited = 0; !file_exists(path) && waited < ms; waited += 10)
		run_for(loop, 10);
	return file_exists(path);
}

/* The start and the end of a test file's main: a minute's alarm (a hung child must not hang the suite) and the
 * temporary directory; then the directory removed and the exit status (1 when a check failed). */
static inline int session_tests_begin(void)
{
	kf_alarm(60);
	return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int session_tests_end(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		failures++;
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}

#endif
