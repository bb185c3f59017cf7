/* tests/vm/guest/kf-evtime.c: prints "<CLOCK_MONOTONIC usec> <code> <value>" for every key event of an evdev
 * node, with the kernel's own event timestamps (the ones libinput hands to kmscon-felis). Used by
 * tests/vm/bench-latency.py to measure key-to-screen latency. Usage: kf-evtime /dev/input/eventN
 *
 * It runs as SCHED_IDLE: it reads the same node as the program measured, and the guest has one CPU, so at
 * normal priority the kernel often ran it first on every key (0.4-0.5 ms of each measured latency). */
#include <fcntl.h>
#include <sched.h>
#include <linux/input.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct input_event ev;
	int clk = CLOCK_MONOTONIC;
	int fd = argc > 1 ? open(argv[1], O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0 || ioctl(fd, EVIOCSCLOCKID, &clk) < 0) {
		perror("kf-evtime");
		return 1;
	}
	struct sched_param sp = {0};
	if (sched_setscheduler(0, SCHED_IDLE, &sp) < 0)
		perror("kf-evtime: SCHED_IDLE");
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (read(fd, &ev, sizeof(ev)) == (ssize_t)sizeof(ev)) {
		if (ev.type == EV_KEY)
			printf("%lld %u %d\n", (long long)ev.input_event_sec * 1000000LL + ev.input_event_usec,
			       ev.code, ev.value);
	}
	return 0;
}
