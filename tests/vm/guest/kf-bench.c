/* kf-bench: the guest side of tests/vm/bench (built static by vmlib.py, installed as /usr/bin/kf-bench).
 *
 *   kf-bench drain -- PROGRAM [ARGS...]
 *       A bare terminal: runs PROGRAM on a new PTY and only reads the PTY (poll, read until EAGAIN), answering
 *       the cursor-position query (ESC [ 6 n) with ESC [ 1 ; 1 R. The floor of the kernel and the writer.
 *       Exits with PROGRAM's status once it has exited and the PTY is drained.
 *   kf-bench floor MS -- PROGRAM [ARGS...]
 *       The floor of reading the PTY: runs PROGRAM on a new PTY and only reads it, 4 KiB at a time (the most
 *       the kernel's n_tty hands out per read) until EAGAIN, then sleeps MS milliseconds, so that every wake-up
 *       finds as much as the kernel's buffers hold. No poll(2), no scan of the bytes: its CPU time is what any
 *       terminal pays just to take the bytes out of the PTY. Exits like drain.
 *   kf-bench run FILE RESULT [GO]
 *       The program the terminal runs: waits for the file GO (if given) to exist, copies FILE to stdout in
 *       64 KiB writes (what cat does), then writes "wall_ns user_us sys_us bytes" to RESULT (atomically,
 *       through RESULT.tmp) and sleeps until killed, so the terminal stays up to be measured.
 *   kf-bench cpu PID
 *       Prints the CPU time of process PID (all its threads, user and system) in microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Opens a PTY and runs ARGV on its slave end; returns the master (non-blocking) or -1. */
static int spawn_on_pty(char **argv, pid_t *pidp)
{
	int master;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
		perror("kf-bench: posix_openpt");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("kf-bench: fork");
		return -1;
	}
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0)
			_exit(126);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		execvp(argv[0], argv);
		_exit(127);
	}
	fcntl(master, F_SETFL, O_NONBLOCK);
	*pidp = pid;
	return master;
}

static int cmd_drain(char **argv)
{
	static const char query[] = "\033[6n";
	static char buf[65536];
	size_t matched = 0;
	int status = 0, master, child_done = 0;
	pid_t pid;

	master = spawn_on_pty(argv, &pid);
	if (master < 0)
		return 1;
	for (;;) {
		struct pollfd pfd = {.fd = master, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, child_done ? 0 : 100) < 0 && errno != EINTR)
			break;
		for (;;) {
			n = read(master, buf, sizeof(buf));
			if (n <= 0)
				break;
			for (ssize_t i = 0; i < n; i++) {
				matched = buf[i] == query[matched] ? matched + 1 : (buf[i] == query[0] ? 1 : 0);
				if (matched == sizeof(query) - 1) {
					write_all(master, "\033[1;1R", 6);
					matched = 0;
				}
			}
		}
		if (n < 0 && errno == EIO)
			break; /* every slave fd closed */
		if (!child_done && waitpid(pid, &status, WNOHANG) == pid)
			child_done = 1;
		else if (child_done && n <= 0)
			break;
	}
	if (!child_done)
		waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int cmd_floor(long ms, char **argv)
{
	static char buf[4096];
	struct timespec nap = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L};
	int status = 0, master;
	pid_t pid;

	master = spawn_on_pty(argv, &pid);
	if (master < 0)
		return 1;
	for (;;) {
		ssize_t n;

		do
			n = read(master, buf, sizeof(buf));
		while (n > 0);
		if (n < 0 && errno == EIO)
			break; /* every slave fd closed */
		if (waitpid(pid, &status, WNOHANG) == pid) {
			while (read(master, buf, sizeof(buf)) > 0)
				;
			return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		}
		nanosleep(&nap, NULL);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int cmd_run(const char *file, const char *result, const char *go)
{
	static char buf[65536];
	long long t0, t1, bytes = 0;
	struct rusage ru;
	char tmp[4096];
	FILE *f;
	int fd;

	while (go && access(go, F_OK) != 0)
		usleep(10000);
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	t0 = now_ns();
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		if (write_all(1, buf, (size_t)n) < 0)
			break;
		bytes += n;
	}
	t1 = now_ns();
	close(fd);
	getrusage(RUSAGE_SELF, &ru);
	snprintf(tmp, sizeof(tmp), "%s.tmp", result);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%lld %lld %lld %lld\n", t1 - t0, (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
		(long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, bytes);
	fclose(f);
	rename(tmp, result);
	for (;;)
		pause();
}

/* The process's CPU time in microseconds: its CPU-time clock (clock_getcpuclockid), the scheduler's sum of
 * every thread's run time, exited threads included, to the nanosecond. /proc/PID/stat's utime + stime is
 * the same total cut to whole ticks (10 ms) in each field: on a 0.25 s measurement that was up to +-20 ms
 * (8 %) of noise per repetition. The stat file remains the fallback. */
static int cmd_cpu(const char *pid)
{
	char path[64], line[4096];
	unsigned long long ut, st;
	struct timespec ts;
	clockid_t clk;
	FILE *f;
	char *p;

	if (clock_getcpuclockid((pid_t)atol(pid), &clk) == 0 && clock_gettime(clk, &ts) == 0) {
		printf("%llu\n", (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		perror(path);
		return 1;
	}
	fclose(f);
	/* Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15. */
	p = strrchr(line, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return 1;
	printf("%llu\n", (ut + st) * 1000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "drain") == 0 && strcmp(argv[2], "--") == 0)
		return cmd_drain(argv + 3);
	if (argc >= 5 && strcmp(argv[1], "floor") == 0 && strcmp(argv[3], "--") == 0)
		return cmd_floor(atol(argv[2]), argv + 4);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "run") == 0)
		return cmd_run(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc == 3 && strcmp(argv[1], "cpu") == 0)
		return cmd_cpu(argv[2]);
	fprintf(stderr, "usage: kf-bench drain -- PROGRAM [ARGS...] | floor MS -- PROGRAM [ARGS...] | run FILE RESULT [GO] | cpu PID\n");
	return 2;
}
