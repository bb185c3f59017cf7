/* tests/pty/pty-harness.h: what the pty tests share (test-pty.c, test-pty-queue.c, test-pty-spawn.c): the
 * check macro, the monotonic clock, waiting for the child's exit, counting our descriptors. Include once per
 * test file. */
#ifndef KF_TESTS_PTY_HARNESS_H
#define KF_TESTS_PTY_HARNESS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "pty/pty.h"
#include "tests/kf-check-plain.h"

static int failures;

static inline uint64_t ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The child's exit code once it exited within ms (polling pty_reap), or -1. */
static inline int reap_wait(struct pty *pty, int ms)
{
	int st = -1;
	uint64_t end = ms_now() + (uint64_t)ms;
	while (ms_now() < end) {
		if (pty_reap(pty, &st) == 1)
			return pty_exit_code(st);
		usleep(5000);
	}
	return -1;
}

/* How many descriptors this process has open (with the directory's own and . and ..). */
static inline int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

#endif
