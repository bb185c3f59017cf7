/* tests/input/input-probe.c: the seat and input stack without a display, for the VM tests.
 *
 * Opens the seat with libseat (kf_seat), starts libinput on it (input/), and prints one line per event on
 * stdout: "KEY <hex bytes the key encoder sends>" for every key that sends something, "VT <n>" for a
 * Ctrl+Alt+Fn request (which it performs), "PTR ..." for pointer events, "ENABLED <open fds>" /
 * "DISABLED" for seat changes and "DEVICES <keyboards> <pointers>" when the device set changes. A VM test
 * types with QEMU's sendkey and reads these lines.
 *
 * Usage: kf-input-probe [--vt N] [--switchvt] [--layout L] [--variant V]
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "kmscon-felis/input-keys.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/seat.h"
#include "vt/vt.h"

struct probe {
	struct kf_loop *loop;
	struct kf_seat *seat;
	struct input *in;
	struct kf_timer *repeat;
	struct kf_source *in_src;
	unsigned kbds, ptrs;
};

static unsigned count_fds(void)
{
	unsigned n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own fd */
}

static void report_devices(struct probe *p)
{
	unsigned k = input_keyboard_count(p->in), m = input_pointer_count(p->in);

	if (k != p->kbds || m != p->ptrs) {
		p->kbds = k;
		p->ptrs = m;
		printf("DEVICES %u %u\n", k, m);
		fflush(stdout);
	}
}

static void on_key(void *ud, const struct input_key_event *ev)
{
	struct probe *p = ud;
	struct vt_key_modes modes = {.alt_sends_escape = true};
	struct vt_key_event vk;
	uint8_t buf[64];
	size_t n;
	int vt = kf_key_vt_switch(ev);

	if (vt) {
		printf("VT %d\n", vt);
		fflush(stdout);
		kf_seat_switch_vt(p->seat, vt);
		return;
	}
	if (!kf_key_translate(ev, &vk))
		return;
	n = vt_key_encode(&vk, &modes, buf, sizeof(buf));
	if (!n)
		return;
	printf("KEY ");
	for (size_t i = 0; i < n; i++)
		printf("%02x", buf[i]);
	printf(" %llu\n", (unsigned long long)ev->time_usec);
	fflush(stdout);
}

static void on_pointer(void *ud, const struct input_pointer_event *pe)
{
	switch (pe->type) {
	case INPUT_POINTER_MOTION:
		printf("PTR motion %.1f %.1f\n", pe->dx, pe->dy);
		break;
	case INPUT_POINTER_MOTION_ABSOLUTE:
		printf("PTR abs %.3f %.3f\n", pe->x, pe->y);
		break;
	case INPUT_POINTER_BUTTON:
		printf("PTR button %#x %d\n", pe->button, pe->pressed);
		break;
	case INPUT_POINTER_SCROLL:
		printf("PTR scroll %d %d\n", pe->steps_v, pe->steps_h);
		break;
	}
	fflush(stdout);
}

static int open_dev(void *ud, const char *path, int flags)
{
	struct probe *p = ud;
	return kf_seat_open_device(p->seat, path);
}

static void close_dev(void *ud, int fd)
{
	struct probe *p = ud;
	kf_seat_close_device(p->seat, fd);
}

static void arm(void *ud, uint64_t deadline_usec)
{
	struct probe *p = ud;
	uint64_t now = kf_loop_now_ns() / 1000;

	if (!deadline_usec)
		kf_timer_disarm(p->repeat);
	else
		kf_timer_arm(p->repeat, deadline_usec > now ? (deadline_usec - now) * 1000 : 0, 0);
}

static void repeat_fired(void *ud, struct kf_timer *t)
{
	struct probe *p = ud;
	input_timer_expired(p->in, kf_loop_now_ns() / 1000);
}

static void input_readable(void *ud, int fd, uint32_t events)
{
	struct probe *p = ud;
	input_dispatch(p->in);
	report_devices(p);
}

static void seat_enable(void *ud)
{
	struct probe *p = ud;

	if (!p->in_src) {
		if (input_start(p->in, kf_seat_name(p->seat)) < 0) {
			fprintf(stderr, "input_start failed\n");
			kf_loop_quit(p->loop, 1);
			return;
		}
		p->in_src = kf_loop_add_fd(p->loop, input_get_fd(p->in), EPOLLIN, KF_PRIO_INPUT, input_readable, p);
	} else {
		input_resume(p->in);
	}
	report_devices(p);
	printf("ENABLED %u\n", count_fds());
	fflush(stdout);
}

static void seat_disable(void *ud)
{
	struct probe *p = ud;

	input_suspend(p->in);
	printf("DISABLED\n");
	fflush(stdout);
}

static void on_term(void *ud, int signo)
{
	struct probe *p = ud;
	kf_loop_quit(p->loop, 0);
}

int main(int argc, char **argv)
{
	struct probe p = {0};
	struct input_config ic = {0};
	struct kf_seat_config sc = {0};
	struct input_callbacks cb = {.key = on_key, .pointer = on_pointer, .open_device = open_dev,
				     .close_device = close_dev, .arm_timer = arm};
	struct kf_seat_iface si = {.enable = seat_enable, .disable = seat_disable};
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--vt") && i + 1 < argc)
			sc.vt = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--switchvt"))
			sc.switchvt = sc.activate_vt = true; /* the program's defaults: activate, keys switch */
		else if (!strcmp(argv[i], "--layout") && i + 1 < argc)
			ic.layout = argv[++i];
		else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
			ic.variant = argv[++i];
	}
	kf_log_init();
	kf_log_set_level(KF_LOG_INFO);
	p.loop = kf_loop_create();
	if (!p.loop)
		return 1;
	kf_loop_add_signal(p.loop, SIGTERM, on_term, &p);
	kf_loop_add_signal(p.loop, SIGINT, on_term, &p);
	p.repeat = kf_loop_add_timer(p.loop, repeat_fired, &p);
	p.in = input_create(&ic, &cb, &p);
	if (!p.in)
		return 1;
	printf("KEYMAP %s\n", input_keymap_name(p.in));
	fflush(stdout);
	r = kf_seat_create(p.loop, &sc, &si, &p, &p.seat);
	if (r < 0)
		return 1;
	r = kf_loop_run(p.loop);
	kf_source_remove(p.in_src);
	input_destroy(p.in);
	kf_seat_destroy(p.seat);
	kf_loop_destroy(p.loop);
	return r < 0 ? 1 : r;
}
