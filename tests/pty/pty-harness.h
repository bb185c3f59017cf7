/* tests/pty/pty-harness.h: what the pty tests share (test-pty*.c): the check macro, the monotonic clock and the
 * CPU time, waiting for the child's exit, counting our descriptors. Include once per test file. */
#ifndef KF_TESTS_PTY_HARNESS_H
#define KF_TESTS_PTY_HARNESS_H

#include <dirent.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
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

/* The child's exit code once it exited within ms, or -1: woken by its pidfd when there is one (a poll every 5 ms
 * cost test_exit_race up to 5 ms a round, its child often not yet gone when its terminal hung up). */
static inline int reap_wait(struct pty *pty, int ms)
{
	int st = -1;
	uint64_t end = ms_now() + (uint64_t)ms;
	for (uint64_t now = ms_now(); now < end; now = ms_now()) {
		if (pty_reap(pty, &st) == 1)
			return pty_exit_code(st);
		struct pollfd pfd = {.fd = pty_pidfd(pty), .events = POLLIN};
		if (pfd.fd < 0 || poll(&pfd, 1, (int)(end - now)) < 0)
			usleep(5000);
	}
	return pty_reap(pty, &st) == 1 ? pty_exit_code(st) : -1;
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

/* This process's CPU time so far, in ms: that a wait waited and did not spin. */
static inline double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 + ru.ru_stime.tv_sec * 1e3 +
	       ru.ru_stime.tv_usec / 1e3;
}

#endif
