/* tests/service/kf-notify-run.c: plays systemd's part of Type=notify for one program, for the VM test and the
 * start-up benchmark.
 *
 *   kf-notify-run [-t SECONDS] [-p MS] [-w USEC] [-k] [-f COMM] -- PROGRAM [ARGS...]
 *
 * Binds a datagram socket, starts PROGRAM with NOTIFY_SOCKET pointing at it, and prints one line per event,
 * times in microseconds since just before exec:
 *   T0 <us>                 (CLOCK_MONOTONIC of that moment, to place the program's --debug start-up timeline)
 *   MSG <us> <pid> <payload with \n shown as |>
 *   STATE <line>            (when READY=1 arrives: /sys/kernel/debug/dri/0/state, read while the sender is
 *                            stopped with SIGSTOP, so it shows exactly what was on screen when READY=1 was sent)
 *   PSS <kB> <when>         (-p MS: the sender's PSS from /proc/PID/smaps_rollup, at READY and MS later)
 *   EXIT <status>           (the program ended, or was stopped with SIGTERM)
 *   TIMEOUT                 (no READY=1 within -t SECONDS, default 30)
 * -w USEC: set WATCHDOG_USEC=USEC and WATCHDOG_PID for the program, as WatchdogSec= does (the WATCHDOG=1
 *          pings then show up as MSG lines).
 * -k: after READY=1 (and the -p measurement), stop the program with SIGTERM and exit.
 * -f COMM: for programs without Type=notify (kmscon): polls /sys/kernel/debug/dri/0/state every 5 ms until a
 *          plane on a CRTC scans out a framebuffer allocated by a process named COMM, prints
 *            FRAME <us>
 *          and from then on treats that moment as READY=1 (-p, -k). The polling costs the guest some CPU.
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

/* True when a plane on a CRTC scans out a framebuffer that a process named comm allocated. */
static bool frame_shown(const char *comm)
{
	char line[256], want[128];
	bool on_crtc = false, has_fb = false, found = false;
	FILE *f = fopen("/sys/kernel/debug/dri/0/state", "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "allocated by = %s\n", comm);
	while (!found && fgets(line, sizeof(line), f)) {
		const char *s = line + strspn(line, "\t ");
		if (strncmp(line, "plane[", 6) == 0)
			on_crtc = has_fb = false;
		else if (strncmp(s, "crtc=", 5) == 0 && line[0] == '\t' && line[1] != '\t')
			on_crtc = strncmp(s, "crtc=(null)", 11) != 0;
		else if (strncmp(s, "fb=", 3) == 0 && line[1] != '\t')
			has_fb = atoi(s + 3) > 0;
		else if (strcmp(s, want) == 0)
			found = on_crtc && has_fb;
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	int timeout_s = 30, pss_ms = -1, opt;
	const char *watchdog = NULL, *frame_comm = NULL;
	bool kill_after = false;
	while ((opt = getopt(argc, argv, "t:p:w:kf:")) != -1) {
		if (opt == 't')
			timeout_s = atoi(optarg);
		else if (opt == 'p')
			pss_ms = atoi(optarg);
		else if (opt == 'w')
			watchdog = optarg;
		else if (opt == 'k')
			kill_after = true;
		else if (opt == 'f')
			frame_comm = optarg;
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
	printf("T0 %lld\n", t0);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		if (watchdog) {
			char pid[32];
			snprintf(pid, sizeof(pid), "%d", (int)getpid());
			setenv("WATCHDOG_USEC", watchdog, 1);
			setenv("WATCHDOG_PID", pid, 1);
		}
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	bool ready = false;
	long long deadline = t0 + (long long)timeout_s * 1000000, t_ready = 0;
	pid_t sender = 0;
	int status = -1;
	for (;;) {
		long long now = now_us();
		/* After READY=1: keep printing messages for -p MS, then measure PSS again and stop if -k. */
		long long until = ready ? t_ready + (pss_ms > 0 ? pss_ms : 0) * 1000ll : deadline;
		if (now >= until) {
			if (!ready) {
				printf("TIMEOUT\n");
				break;
			}
			if (pss_ms >= 0 && sender > 0)
				print_pss(sender, "later");
			if (kill_after)
				break;
			until = deadline = now + 3600ll * 1000000; /* then until the program exits */
			pss_ms = -1;
			t_ready = now;
		}
		long long left = (until - now) / 1000;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int step = frame_comm && !ready ? 5 : 200;
		int r = poll(&p, 1, (int)(left > step ? step : left < 1 ? 1 : left));
		if (frame_comm && !ready && frame_shown(frame_comm)) {
			t_ready = now_us();
			ready = true;
			sender = child;
			printf("FRAME %lld\n", t_ready - t0);
			if (pss_ms >= 0)
				print_pss(child, "ready");
			fflush(stdout);
		}
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
		pid_t from = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS)
				from = ((struct ucred *)(void *)CMSG_DATA(c))->pid;
		bool is_ready = !ready && !frame_comm && strstr(buf, "READY=1") != NULL;
		/* Freeze the sender first: what is on screen now is what was there when it said READY=1. */
		if (is_ready && from > 0)
			kill(from, SIGSTOP);
		for (char *c = buf; *c; c++)
			if (*c == '\n')
				*c = '|';
		printf("MSG %lld %d %s\n", t - t0, (int)from, buf);
		if (is_ready) {
			ready = true;
			t_ready = t;
			sender = from;
			print_file("STATE", "/sys/kernel/debug/dri/0/state");
			if (from > 0) {
				print_pss(from, "ready");
				kill(from, SIGCONT);
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
