/* tests/service/kf-notify-run.c: plays systemd's part of Type=notify for one program, for the VM test and the
 * start-up benchmark.
 *
 *   kf-notify-run [-t SECONDS] [-p MS] [-k] -- PROGRAM [ARGS...]
 *
 * Binds a datagram socket, starts PROGRAM with NOTIFY_SOCKET pointing at it, and prints one line per event,
 * times in microseconds since just before exec:
 *   MSG <us> <pid> <payload with \n shown as |>
 *   STATE <line>            (when READY=1 arrives: /sys/kernel/debug/dri/0/state, read while the sender is
 *                            stopped with SIGSTOP, so it shows exactly what was on screen when READY=1 was sent)
 *   PSS <kB> <when>         (-p MS: the sender's PSS from /proc/PID/smaps_rollup, at READY and MS later)
 *   EXIT <status>           (the program ended, or was stopped with SIGTERM)
 *   TIMEOUT                 (no READY=1 within -t SECONDS, default 30)
 * -k: after READY=1 (and the -p measurement), stop the program with SIGTERM and exit.
 * Exit status 0 when READY=1 arrived, 1 otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void print_file(const char *tag, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("%s (cannot read %s: %s)\n", tag, path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("%s %s", tag, line);
	fclose(f);
}

static void print_pss(pid_t pid, const char *when)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long kb;
		if (sscanf(line, "Pss: %ld kB", &kb) == 1)
			printf("PSS %ld %s\n", kb, when);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	int timeout_s = 30, pss_ms = -1, opt;
	bool kill_after = false;
	while ((opt = getopt(argc, argv, "t:p:k")) != -1) {
		if (opt == 't')
			timeout_s = atoi(optarg);
		else if (opt == 'p')
			pss_ms = atoi(optarg);
		else if (opt == 'k')
			kill_after = true;
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: kf-notify-run [-t S] [-p MS] [-k] -- PROGRAM [ARGS...]\n");
		return 2;
	}
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "/tmp/kf-notify-%d.sock", (int)getpid());
	unlink(a.sun_path);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), one = 1;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		perror("kf-notify-run: socket");
		return 2;
	}
	setenv("NOTIFY_SOCKET", a.sun_path, 1);
	fflush(stdout);
	long long t0 = now_us();
	pid_t child = fork();
	if (child == 0) {
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	bool ready = false;
	long long deadline = t0 + (long long)timeout_s * 1000000;
	int status = -1;
	while (!ready || !kill_after) {
		long long left = (deadline - now_us()) / 1000;
		if (!ready && left <= 0) {
			printf("TIMEOUT\n");
			break;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, ready ? 200 : (int)(left > 200 ? 200 : left));
		/* Messages first: a program that says READY=1 and exits at once must not lose its message. */
		if (r <= 0) {
			if (waitpid(child, &status, WNOHANG) == child) {
				printf("EXIT %d\n",
				       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
				child = -1;
				break;
			}
			continue;
		}
		char buf[4096], cbuf[CMSG_SPACE(sizeof(struct ucred))];
		struct iovec iov = {buf, sizeof(buf) - 1};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				   .msg_controllen = sizeof(cbuf)};
		ssize_t n = recvmsg(fd, &m, 0);
		long long t = now_us();
		if (n < 0)
			continue;
		buf[n] = '\0';
		pid_t sender = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
				sender = ((struct ucred *)(void *)CMSG_DATA(c))->pid;
		bool is_ready = strstr(buf, "READY=1") != NULL;
		/* Freeze the sender first: what is on screen now is what was there when it said READY=1. */
		if (is_ready && sender > 0)
			kill(sender, SIGSTOP);
		for (char *s = buf; *s; s++)
			if (*s == '\n')
				*s = '|';
		printf("MSG %lld %d %s\n", t - t0, (int)sender, buf);
		if (is_ready && !ready) {
			ready = true;
			print_file("STATE", "/sys/kernel/debug/dri/0/state");
			if (sender > 0) {
				print_pss(sender, "ready");
				kill(sender, SIGCONT);
			}
			if (pss_ms >= 0 && sender > 0) {
				usleep((useconds_t)pss_ms * 1000);
				print_pss(sender, "later");
			}
		}
		fflush(stdout);
	}
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		printf("EXIT %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	unlink(a.sun_path);
	return ready ? 0 : 1;
}
