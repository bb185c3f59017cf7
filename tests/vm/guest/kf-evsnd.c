/* tests/vm/guest/kf-evsnd.c: prints "<CLOCK_MONOTONIC usec> <code> <value>" for every sound event (EV_SND) of the
 * "PC Speaker" input device (module pcspkr), the device the kernel's console tone (KDMKTONE, kd_mksound) goes to.
 * Usage: kf-evsnd [/dev/input/eventN]; without a node it finds the PC Speaker's among /dev/input/event*. Its
 * first line is "node PATH", or it exits 1 with "no PC Speaker" when there is none.
 *
 * The kernel hands a device's events to evdev only at a SYN_REPORT (or once 8 are queued), and nothing sends
 * one after a tone: kd_mksound injects EV_SND SND_TONE alone (drivers/tty/vt/keyboard.c), and
 * input_handle_event queues it without a flush (INPUT_PASS_TO_ALL, no INPUT_FLUSH). So every 5 ms this writes a
 * SYN_REPORT to the node, which flushes what is queued (a lone SYN_REPORT passes nothing): an event's time is
 * when it was flushed, at most 5 ms late. Runs until killed. Used by tests/vm/t-bell.py. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int open_speaker(const char *path)
{
	char name[128] = "";
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, EVIOCGNAME(sizeof(name)), name) < 0 || strcmp(name, "PC Speaker")) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	char path[300];
	int fd = -1, clk = CLOCK_MONOTONIC;

	if (argc > 1) {
		snprintf(path, sizeof(path), "%s", argv[1]);
		fd = open_speaker(path);
	} else {
		DIR *d = opendir("/dev/input");
		struct dirent *e;
		while (d && fd < 0 && (e = readdir(d))) {
			if (strncmp(e->d_name, "event", 5))
				continue;
			snprintf(path, sizeof(path), "/dev/input/%s", e->d_name);
			fd = open_speaker(path);
		}
		if (d)
			closedir(d);
	}
	if (fd < 0 || ioctl(fd, EVIOCSCLOCKID, &clk) < 0) {
		printf("no PC Speaker\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("node %s\n", path);
	for (;;) {
		struct input_event ev, syn = {.type = EV_SYN, .code = SYN_REPORT};
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (write(fd, &syn, sizeof(syn)) != (ssize_t)sizeof(syn)) {
			printf("write: %s\n", strerror(errno));
			return 1;
		}
		while (read(fd, &ev, sizeof(ev)) == (ssize_t)sizeof(ev))
			if (ev.type == EV_SND)
				printf("%lld %u %d\n", (long long)ev.input_event_sec * 1000000LL + ev.input_event_usec,
				       ev.code, ev.value);
		poll(&p, 1, 5);
	}
}
