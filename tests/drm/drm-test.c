/* tests/drm/drm-test.c: drm/ on a real kernel DRM device (run inside the QEMU guest by tests/vm/run).
 *
 *   drm-test smoke            first frame, then a 2 s flood of partial frames: checks that flips never exceed
 *                             one per refresh, that the display keeps updating, no watchdog fired
 *   drm-test run SECONDS      shows the colour-bar pattern (tests/drm/pattern.py draws the same) and repaints a
 *                             moving band 20 times a second; prints "EVENT ..." on every output change
 *                             (hotplug) with the open fds and the mappings of /dev/dri nodes, STATS on SIGUSR1 and
 *                             at the end; exits on SIGTERM or after SECONDS;
 *                             SIGUSR2 counts as input (wakes a blanked display)
 *
 * Set KMSCON_FELIS_DRM_LEGACY=1 for the legacy API, DRM_TEST_DPMS=N for --dpms-timeout=N, DRM_TEST_MODE=WxH
 * for --mode. Exits 77 when there is no /dev/dri/card*.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "drm/drm.h"

static struct drm_backend *backend;
static bool changed;

static void log_handler(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	if (prio > 6 && !getenv("DRM_TEST_DEBUG"))
		return;
	fprintf(stderr, "drm<%d>: ", prio);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the DIR's own fd */
}

/* Mappings of DRM device nodes (dumb buffers): none may be left once every card is gone. */
static int count_dri_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "/dev/dri/") != NULL;
	fclose(f);
	return n;
}

static bool have_card(void)
{
	DIR *d = opendir("/dev/dri");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d)))
		found |= strncmp(e->d_name, "card", 4) == 0;
	closedir(d);
	return found;
}

/* Colour bars with a white border: the same picture as tests/drm/pattern.py. */
static void paint_pattern(const struct drm_canvas *c)
{
	static const uint32_t bars[8] = {0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
					 0xff00ff, 0xff0000, 0x0000ff, 0x000000};

	for (uint32_t y = 0; y < c->height; y++) {
		uint32_t *row = (uint32_t *)((uint8_t *)c->pixels + (size_t)y * c->stride);

		for (uint32_t x = 0; x < c->width; x++) {
			bool border = x == 0 || y == 0 || x == c->width - 1 || y == c->height - 1;
			row[x] = border ? 0xffffff : bars[x * 8 / c->width];
		}
	}
}

/* A 16-pixel band at row y (frame-dependent colour): a partial update. */
static struct drm_box paint_band(const struct drm_canvas *c, uint32_t frame)
{
	uint32_t y0 = (frame * 16) % (c->height > 32 ? c->height - 16 : 1);
	uint32_t colour = (frame * 0x10101u) & 0xffffff;

	for (uint32_t y = y0; y < y0 + 16 && y < c->height; y++) {
		uint32_t *row = (uint32_t *)((uint8_t *)c->pixels + (size_t)y * c->stride);
		for (uint32_t x = 0; x < c->width; x++)
			row[x] = colour;
	}
	return (struct drm_box){0, (int32_t)y0, (int32_t)c->width, 16};
}

static void print_stats(const char *what)
{
	struct drm_backend_stats s;

	drm_backend_get_stats(backend, &s);
	printf("%s cards=%u outputs=%u commits=%llu modesets=%llu flips=%llu presents=%llu watchdog=%llu "
	       "fast_flips=%llu refresh_mhz=%u legacy=%d fds=%d\n",
	       what, s.cards, s.outputs, (unsigned long long)s.commits, (unsigned long long)s.modesets,
	       (unsigned long long)s.flips, (unsigned long long)s.presents, (unsigned long long)s.watchdog_fires,
	       (unsigned long long)s.fast_flips, s.refresh_mhz, s.legacy, count_fds());
	fflush(stdout);
}

static void on_outputs_changed(void *ud)
{
	struct drm_canvas c;

	drm_backend_get_canvas(backend, &c);
	changed = true;
	printf("EVENT canvas=%ux%u fds=%d maps=%d\n", c.width, c.height, count_fds(), count_dri_maps());
	fflush(stdout);
}

/* Dispatches for up to timeout seconds, or until the backend can render when want_render. */
static void pump(double timeout, bool want_render)
{
	double end = now_s() + timeout;

	while (now_s() < end) {
		struct pollfd p = {drm_backend_get_fd(backend), POLLIN, 0};
		if (want_render && drm_backend_can_render(backend))
			return;
		int ms = (int)((end - now_s()) * 1000) + 1;
		if (poll(&p, 1, ms > 50 ? 50 : ms) > 0)
			drm_backend_dispatch(backend);
	}
}

static int smoke(void)
{
	struct drm_backend_stats s0, s1;
	struct drm_canvas c;
	double t0, t1;
	uint32_t frame = 0;

	drm_backend_get_canvas(backend, &c);
	if (!c.pixels) {
		pump(3, false);
		drm_backend_get_canvas(backend, &c);
	}
	if (!c.pixels) {
		printf("FAIL no output\n");
		return 1;
	}
	paint_pattern(&c);
	drm_backend_present(backend, NULL, 0, true);
	pump(2, true);
	drm_backend_get_stats(backend, &s0);
	if (s0.flips < 1) {
		printf("FAIL first frame: no flip event\n");
		return 1;
	}
	/* Flood: present whenever the backend can take a frame, as fast as possible. */
	t0 = now_s();
	while (now_s() - t0 < 2.0) {
		/* Painted directly, each frame goes into another buffer: get the canvas again. */
		drm_backend_get_canvas(backend, &c);
		if (!c.pixels) {
			pump(0.5, true);
			continue;
		}
		struct drm_box box = paint_band(&c, frame++);
		drm_backend_present(backend, &box, 1, false);
		pump(0.5, true);
	}
	t1 = now_s();
	drm_backend_get_stats(backend, &s1);
	double secs = t1 - t0, hz = s1.refresh_mhz / 1000.0;
	double fps = (double)(s1.flips - s0.flips) / secs / (s1.outputs ? s1.outputs : 1);
	printf("drm-test: %.1f flips/s per output at %.3f Hz refresh, %llu fast flips, %llu watchdog, "
	       "%llu presents\n",
	       fps, hz, (unsigned long long)s1.fast_flips, (unsigned long long)s1.watchdog_fires,
	       (unsigned long long)(s1.presents - s0.presents));
	print_stats("STATS");
	int fail = 0;
	if (fps > hz * 1.02 + 1) {
		printf("FAIL more flips than refreshes\n");
		fail = 1;
	}
	if (fps < 5) {
		printf("FAIL the display stopped updating under a flood\n");
		fail = 1;
	}
	if (s1.fast_flips || s1.watchdog_fires) {
		printf("FAIL fast flips or watchdog\n");
		fail = 1;
	}
	return fail;
}

static int run(double seconds)
{
	sigset_t mask;
	struct drm_canvas c = {0};
	uint32_t frame = 0;
	double end = now_s() + seconds, next = 0;
	int sfd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	changed = true;
	print_stats("START");
	while (now_s() < end) {
		struct pollfd p[2] = {{drm_backend_get_fd(backend), POLLIN, 0}, {sfd, POLLIN, 0}};
		struct signalfd_siginfo si;

		if (poll(p, 2, 50) > 0) {
			if (p[0].revents)
				drm_backend_dispatch(backend);
			if (p[1].revents && read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGUSR2) {
					/* what the input glue does on a key press */
					drm_backend_notify_input(backend);
					continue;
				}
				if (si.ssi_signo != SIGUSR1)
					break;
				print_stats("STATS");
			}
		}
		if (changed) {
			drm_backend_get_canvas(backend, &c);
			/* No buffer free yet (painted directly, a commit in flight): paint once there is. */
			if (c.pixels) {
				paint_pattern(&c);
				drm_backend_present(backend, NULL, 0, true);
				changed = false;
			}
		} else if (c.width && getenv("DRM_TEST_ANIMATE") && now_s() >= next &&
			   drm_backend_can_render(backend)) {
			drm_backend_get_canvas(backend, &c);
			if (!c.pixels)
				continue;
			struct drm_box box = paint_band(&c, frame++);
			drm_backend_present(backend, &box, 1, false);
			next = now_s() + 0.05;
		}
	}
	print_stats("STATS");
	close(sfd);
	return 0;
}

int main(int argc, char **argv)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend_iface iface = {.outputs_changed = on_outputs_changed};
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: drm-test smoke | run SECONDS\n");
		return 2;
	}
	if (!have_card()) {
		printf("SKIP no /dev/dri/card*\n");
		return 77;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	drm_set_log_handler(log_handler);
	if (getenv("DRM_TEST_DPMS"))
		cfg.dpms_timeout_s = (unsigned)atoi(getenv("DRM_TEST_DPMS"));
	if (getenv("DRM_TEST_MODE") && drm_mode_parse(getenv("DRM_TEST_MODE"), &cfg.mode_width, &cfg.mode_height)) {
		fprintf(stderr, "bad DRM_TEST_MODE\n");
		return 2;
	}
	ret = drm_backend_create(&backend, &cfg, &iface, NULL);
	if (ret < 0) {
		printf("FAIL drm_backend_create: %s\n", strerror(-ret));
		return 1;
	}
	if (strcmp(argv[1], "smoke") == 0)
		ret = smoke();
	else if (strcmp(argv[1], "run") == 0 && argc > 2)
		ret = run(atof(argv[2]));
	else
		ret = 2;
	drm_backend_destroy(backend);
	printf("END fds=%d\n", count_fds());
	return ret;
}
