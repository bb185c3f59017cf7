/* kf-touchpad: a multi-touch clickpad in the guest through uinput, for tests of libinput's touchpad handling
 * (tap to click, two-finger scrolling). QEMU has no touchpad device: its pointers are relative mice and
 * absolute tablets (see tests/vm/README.md), so the kernel device is made here, with the capabilities of a
 * laptop clickpad (MT slots, BTN_TOOL_FINGER..TRIPLETAP, INPUT_PROP_POINTER|BUTTONPAD, a resolution), which
 * udev tags ID_INPUT_TOUCHPAD and libinput drives with its touchpad code, as its own test suite does.
 *
 *   kf-touchpad [--wait S | --go FILE] ACTION...
 *       Creates the device, waits S seconds (default 3) for udev and the program's libinput to add it, or,
 *       with --go, until FILE exists (the test creates it once the program's log says it took the device:
 *       a fixed time is too short on a loaded host; at most 10 minutes), runs the actions in order, waits
 *       1 s and removes the device. Actions:
 *         tap             one finger down and up within 50 ms, no motion (libinput: a left click)
 *         scroll-down N   two fingers moving down together by N steps of 1 mm, 10 ms apart
 *         scroll-up N     the same, moving up
 *         move DX DY      one finger moving by DX, DY mm in 10 steps
 *         sleep MS
 *       Prints "ok" at the end.
 */
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define RES 40 /* units per mm */
#define W (100 * RES)
#define H (60 * RES)

static int fd = -1;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void ev(int type, int code, int value)
{
	struct input_event e = {.type = (unsigned short)type, .code = (unsigned short)code, .value = value};

	if (write(fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		die("write");
}

static void syn(void)
{
	ev(EV_SYN, SYN_REPORT, 0);
}

static void msleep(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

static void abs_axis(int code, int max)
{
	struct uinput_abs_setup a = {.code = (unsigned short)code,
				     .absinfo = {.minimum = 0, .maximum = max, .resolution = RES}};

	if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &a) < 0)
		die("UI_ABS_SETUP");
}

static void create(void)
{
	static const int keys[] = {BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP};
	struct uinput_setup us = {.id = {.bustype = BUS_I2C, .vendor = 0x06cb, .product = 0x7e7e}};

	fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("/dev/uinput");
	strcpy(us.name, "kf-touchpad test clickpad");
	if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 ||
	    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_POINTER) < 0 || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_BUTTONPAD) < 0)
		die("uinput bits");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (ioctl(fd, UI_SET_KEYBIT, keys[i]) < 0)
			die("UI_SET_KEYBIT");
	abs_axis(ABS_X, W);
	abs_axis(ABS_Y, H);
	abs_axis(ABS_MT_POSITION_X, W);
	abs_axis(ABS_MT_POSITION_Y, H);
	struct uinput_abs_setup slot = {.code = ABS_MT_SLOT, .absinfo = {.maximum = 4}};
	struct uinput_abs_setup id = {.code = ABS_MT_TRACKING_ID, .absinfo = {.maximum = 65535}};
	if (ioctl(fd, UI_SET_ABSBIT, ABS_MT_SLOT) < 0 || ioctl(fd, UI_ABS_SETUP, &slot) < 0 ||
	    ioctl(fd, UI_SET_ABSBIT, ABS_MT_TRACKING_ID) < 0 || ioctl(fd, UI_ABS_SETUP, &id) < 0)
		die("MT setup");
	if (ioctl(fd, UI_DEV_SETUP, &us) < 0 || ioctl(fd, UI_DEV_CREATE) < 0)
		die("UI_DEV_CREATE");
}

static int tracking = 1;

/* Puts n fingers (1 or 2) down at (x, y) mm, the second 20 mm to the right. */
static void down(int n, int x, int y)
{
	for (int i = 0; i < n; i++) {
		ev(EV_ABS, ABS_MT_SLOT, i);
		ev(EV_ABS, ABS_MT_TRACKING_ID, tracking++);
		ev(EV_ABS, ABS_MT_POSITION_X, (x + 20 * i) * RES);
		ev(EV_ABS, ABS_MT_POSITION_Y, y * RES);
	}
	ev(EV_KEY, BTN_TOUCH, 1);
	ev(EV_KEY, n == 1 ? BTN_TOOL_FINGER : BTN_TOOL_DOUBLETAP, 1);
	ev(EV_ABS, ABS_X, x * RES);
	ev(EV_ABS, ABS_Y, y * RES);
	syn();
}

/* Moves the n fingers to (x, y) (in 1/RES mm units), the second 20 mm to the right. */
static void motion(int n, int x, int y)
{
	for (int i = 0; i < n; i++) {
		ev(EV_ABS, ABS_MT_SLOT, i);
		ev(EV_ABS, ABS_MT_POSITION_X, x + 20 * RES * i);
		ev(EV_ABS, ABS_MT_POSITION_Y, y);
	}
	ev(EV_ABS, ABS_X, x);
	ev(EV_ABS, ABS_Y, y);
	syn();
}

static void up(int n)
{
	for (int i = 0; i < n; i++) {
		ev(EV_ABS, ABS_MT_SLOT, i);
		ev(EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	ev(EV_KEY, BTN_TOUCH, 0);
	ev(EV_KEY, n == 1 ? BTN_TOOL_FINGER : BTN_TOOL_DOUBLETAP, 0);
	syn();
}

static void drag(int n, int dx_mm, int dy_mm, int steps)
{
	int x0 = 30, y0 = dy_mm < 0 ? 50 : 10;

	down(n, x0, y0);
	msleep(10);
	for (int s = 1; s <= steps; s++) {
		motion(n, x0 * RES + dx_mm * RES * s / steps, y0 * RES + dy_mm * RES * s / steps);
		msleep(10);
	}
	up(n);
}

int main(int argc, char **argv)
{
	int wait_s = 3, i = 1;
	const char *go = NULL;

	if (argc > 2 && !strcmp(argv[1], "--wait")) {
		wait_s = atoi(argv[2]);
		i = 3;
	} else if (argc > 2 && !strcmp(argv[1], "--go")) {
		go = argv[2];
		i = 3;
	}
	create();
	if (go) {
		for (int t = 0; access(go, F_OK) != 0; t++) {
			if (t == 60000) {
				fprintf(stderr, "kf-touchpad: %s did not appear in 10 minutes\n", go);
				return 1;
			}
			msleep(10);
		}
	} else
		sleep((unsigned)wait_s);
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "tap")) {
			down(1, 50, 30);
			msleep(40);
			up(1);
			msleep(400); /* libinput's tap timeout, then the click */
		} else if (!strcmp(argv[i], "scroll-down") && i + 1 < argc) {
			int n = atoi(argv[++i]);
			drag(2, 0, n, n);
		} else if (!strcmp(argv[i], "scroll-up") && i + 1 < argc) {
			int n = atoi(argv[++i]);
			drag(2, 0, -n, n);
		} else if (!strcmp(argv[i], "move") && i + 2 < argc) {
			drag(1, atoi(argv[i + 1]), atoi(argv[i + 2]), 10);
			i += 2;
		} else if (!strcmp(argv[i], "sleep") && i + 1 < argc) {
			msleep(atoi(argv[++i]));
		} else {
			fprintf(stderr, "kf-touchpad: unknown action %s\n", argv[i]);
			return 2;
		}
		msleep(100);
	}
	sleep(1);
	ioctl(fd, UI_DEV_DESTROY);
	close(fd);
	puts("ok");
	return 0;
}
