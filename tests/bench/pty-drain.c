/* tests/bench/pty-drain.c: the kernel's floor for tests/bench/run-pty-bench.
 *
 * Runs a command on a PTY exactly as kmscon-felis does (pty/), reads the master with the same 64 KiB reads
 * until the child has exited and everything is read, and discards the bytes: no parsing, no grid. Prints
 * one line: "bytes reads wall_s user_s sys_s nvcsw nivcsw runq_ms" (CPU, context switches and time spent
 * waiting for a CPU, of this process only, not the child's; runq_ms -1 without /proc/self/schedstat).
 * usage: pty-drain CMD [ARGS...]
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "pty/pty.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The second field of /proc/self/schedstat (ns runnable but not running), in ms; -1 without it. */
static long runq_wait_ms(void)
{
	unsigned long long fields[2];
	FILE *f = fopen("/proc/self/schedstat", "re");
	if (!f)
		return -1;
	int n = fscanf(f, "%llu %llu", &fields[0], &fields[1]);
	fclose(f);
	return n == 2 ? (long)(fields[1] / 1000000) : -1;
}

static void discard(void *ud, const uint8_t *data, size_t len)
{
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: pty-drain CMD [ARGS...]\n");
		return 2;
	}
	struct pty_config cfg = {.argv = (const char *const *)argv + 1, .reset_env = true, .cols = 212,
				 .rows = 82};
	struct pty_callbacks cb = {.output = discard};
	struct pty *pty = pty_create(&cfg, &cb, NULL);
	double t0 = now_s();
	if (!pty || pty_spawn(pty) < 0)
		return 1;
	int status = 0;
	bool hup = false;
	for (;;) {
		struct pollfd pfd[2] = {{.fd = hup ? -1 : pty_fd(pty), .events = POLLIN},
					{.fd = pty_pidfd(pty), .events = POLLIN}};
		poll(pfd, 2, -1);
		if (pfd[0].revents && pty_read(pty, 0) == -EIO)
			hup = true;
		if (pfd[1].revents && pty_reap(pty, &status) == 1)
			break;
	}
	if (!hup)
		pty_read(pty, 0);
	double wall = now_s() - t0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint64_t reads, bytes;
	pty_get_stats(pty, &reads, &bytes);
	printf("%llu %llu %.6f %ld.%06ld %ld.%06ld %ld %ld %ld\n", (unsigned long long)bytes,
	       (unsigned long long)reads, wall, (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
	       (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_nvcsw, ru.ru_nivcsw, runq_wait_ms());
	pty_destroy(pty);
	return pty_exit_code(status);
}
