/* tests/drm/test-drm-fbdev-mode.c: the framebuffer fallback when the fb's mode changes under us while we show it
 * (fbset typed in our own console, a driver changing it): the kernel is stood in for at the fb ioctls (the linker's
 * --wrap=ioctl: FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO of the device answer the mode below); the device is a
 * memfd opened by its /proc/self/fd path, mapped as drm/fbdev.c maps a framebuffer. Everything else is drm/'s own
 * code.
 *
 * What a user saw: the mode was read again only at the switch back to the VT, so after fbset we kept writing the old
 * geometry (the old line length: a picture sheared, and past the visible area of a smaller mode) until a VT switch. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"
#include "tests/kf-log-capture.h"

static int failures;

#define MEM_BYTES (64 * 48 * 4)

static ino_t fake_ino;            /* the memfd standing in for /dev/fb9 */
static unsigned fake_w = 64, fake_h = 48, fake_bpp = 32; /* its mode now (fbset changes it) */
static int mode_reads;            /* FBIOGET_VSCREENINFO calls on it */
static int fake_power = FB_BLANK_UNBLANK; /* the panel's power as the last FBIOBLANK left it */

static bool is_fake(int fd)
{
	struct stat st;

	return fake_ino && fstat(fd, &st) == 0 && st.st_ino == fake_ino;
}

int __real_ioctl(int fd, unsigned long req, void *arg);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!is_fake(fd))
		return __real_ioctl(fd, req, arg);
	if (req == FBIOGET_VSCREENINFO) {
		struct fb_var_screeninfo *v = arg;

		mode_reads++;
		memset(v, 0, sizeof(*v));
		v->xres = v->xres_virtual = fake_w;
		v->yres = v->yres_virtual = fake_h;
		v->bits_per_pixel = fake_bpp;
		if (fake_bpp == 16) { /* RGB565 */
			v->red = (struct fb_bitfield){11, 5, 0};
			v->green = (struct fb_bitfield){5, 6, 0};
			v->blue = (struct fb_bitfield){0, 5, 0};
		} else {
			v->red = (struct fb_bitfield){16, 8, 0};
			v->green = (struct fb_bitfield){8, 8, 0};
			v->blue = (struct fb_bitfield){0, 8, 0};
		}
		return 0;
	}
	if (req == FBIOGET_FSCREENINFO) {
		struct fb_fix_screeninfo *fix = arg;

		memset(fix, 0, sizeof(*fix));
		snprintf(fix->id, sizeof(fix->id), "fake fb");
		fix->type = FB_TYPE_PACKED_PIXELS;
		fix->visual = FB_VISUAL_TRUECOLOR;
		fix->smem_len = MEM_BYTES;
		fix->line_length = fake_w * (fake_bpp >= 8 ? fake_bpp / 8 : 1);
		return 0;
	}
	if (req == FBIOBLANK) /* (its argument is the level itself, not a pointer) */
		fake_power = (int)(intptr_t)arg;
	return 0; /* the rest: done */
}

static int changes;
static void on_changed(void *ud)
{
	(void)ud;
	changes++;
}

/* Presents a full frame of colour px and dispatches, as the program's loop does when the backend's fd is readable,
 * until its refresh passed (at most 200 ms). */
static void frame(struct drm_backend *b, uint32_t px)
{
	struct drm_canvas c;

	drm_backend_get_canvas(b, &c);
	for (uint32_t y = 0; c.pixels && y < c.height; y++)
		for (uint32_t x = 0; x < c.width; x++)
			c.pixels[y * (c.stride / 4) + x] = px;
	drm_backend_present(b, NULL, 0, true);
	for (int i = 0; i < 20; i++) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		if (poll(&p, 1, drm_backend_can_render(b) ? 0 : 10) > 0)
			drm_backend_dispatch(b);
		else if (drm_backend_can_render(b))
			break;
	}
}

/* Shown at 64x48; fbset makes it 32x48 (its lines half as long). The next frame is not written at the old
 * geometry: the fb is opened again, the canvas becomes 32x48 (the program told), and that frame lands at the new
 * line length. */
static void test_mode_changed(struct drm_backend *b, int memfd)
{
	struct drm_canvas c;
	char node[64], why[256];
	uint32_t *mem;

	snprintf(node, sizeof(node), "/proc/self/fd/%d", memfd);
	CHECK(drm_fbdev_open(b, node, "fb9", makedev(29, 9), why, sizeof(why), &b->fb) == 0);
	drm_backend_update_canvas(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64 && c.height == 48);
	mem = mmap(NULL, MEM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	frame(b, 0x00ff0000);
	CHECK(mem[47 * 64 + 63] == 0x00ff0000);
	memset(mem, 0, MEM_BYTES);
	fake_w = 32; /* fbset -xres 32 */
	changes = 0;
	frame(b, 0x0000ff00);
	frame(b, 0x0000ff00);
	drm_backend_get_canvas(b, &c);
	printf("fb mode 64x48 -> 32x48 while shown: canvas %ux%u (want 32x48), outputs_changed %d (want 1), "
	       "written past the new mode's visible area: %s (want no)\n", c.width, c.height, changes,
	       mem[47 * 32 + 32] ? "yes" : "no");
	CHECK(c.width == 32 && c.height == 48 && changes == 1);
	/* the last pixel of the new mode at its line length; nothing past the visible area */
	CHECK(mem[47 * 32 + 31] == 0x0000ff00 && mem[47 * 32 + 32] == 0);
	CHECK(b->fb && b->fb->width == 32 && b->fb->line_length == 128);
	CHECK(strstr(logbuf, "mode changed"));
	/* the mode stays: nothing is opened again, the frames are copied */
	changes = 0;
	frame(b, 0x000000ff);
	CHECK(changes == 0 && mem[47 * 32 + 31] == 0x000000ff);
	munmap(mem, MEM_BYTES);
}

/* How often needle is in the log. */
static int log_count(const char *needle)
{
	int n = 0;

	for (const char *p = logbuf; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* fbset changes the depth while shown, the size kept. To 16 bpp: opened again, and the notice says what changed
 * (it said "32x48, now 32x48"). To 8 bpp, which cannot be shown: why, once (the check that found the change
 * logged it as an error, then the notice said it again). */
static void test_format_changed(struct drm_backend *b)
{
	logbuf[0] = 0;
	fake_bpp = 16;
	frame(b, 0x00ff0000);
	frame(b, 0x00ff0000);
	printf("fb 32 -> 16 bpp while shown: the notice names the formats: %s (want yes)\n",
	       strstr(logbuf, "XRGB8888, now 32x48 RGB565") ? "yes" : "no");
	CHECK(b->fb && b->fb->format.bytes == 2 && strstr(logbuf, "XRGB8888, now 32x48 RGB565"));
	logbuf[0] = 0;
	fake_bpp = 8;
	frame(b, 0x00ff0000);
	frame(b, 0x00ff0000);
	printf("fb 16 -> 8 bpp while shown: why it cannot be shown logged %d time(s) (want 1)\n",
	       log_count("8 bits per pixel"));
	CHECK(!b->fb && log_count("8 bits per pixel") == 1);
	fake_bpp = 32;
}

static const char *power(void)
{
	return fake_power == FB_BLANK_UNBLANK ? "on" : "powered down";
}

/* FBIOBLANK's powerdown lasts past us: the kernel's console does not power the panel up when the VT goes back to
 * text (fbcon thinks it never blanked: it ignores a blank while the VT is in graphics mode), nor does another
 * program, nor did we when we opened the fb again (a restart: we believed it on, so no key ever unblanked it). The
 * fb is powered up when it is opened, when the VT is given away while blanked, and when it is closed blanked. */
static void test_blank_handed_back(struct drm_backend *b, int memfd)
{
	char node[64], why[256];
	const char *at_open, *at_suspend, *at_close;

	snprintf(node, sizeof(node), "/proc/self/fd/%d", memfd);
	/* a previous instance ended while the display was blanked */
	drm_fallback_finish(b);
	fake_power = FB_BLANK_POWERDOWN;
	CHECK(drm_fbdev_open(b, node, "fb9", makedev(29, 9), why, sizeof(why), &b->fb) == 0);
	drm_backend_update_canvas(b);
	frame(b, 0x00ffffff);
	at_open = power();
	CHECK(fake_power == FB_BLANK_UNBLANK && !drm_backend_is_blanked(b));
	/* blanked by the DPMS timeout, then the VT is switched away (chvt, logind) */
	drm_backend_set_blank(b, true);
	CHECK(drm_backend_is_blanked(b) && fake_power == FB_BLANK_POWERDOWN);
	drm_backend_suspend(b);
	at_suspend = power();
	CHECK(fake_power == FB_BLANK_UNBLANK);
	drm_backend_resume(b);
	CHECK(fake_power == FB_BLANK_UNBLANK && !drm_backend_is_blanked(b));
	frame(b, 0x00ffffff);
	/* blanked, then closed (the program ends, a DRM display takes over) */
	drm_backend_set_blank(b, true);
	CHECK(fake_power == FB_BLANK_POWERDOWN);
	drm_fallback_finish(b);
	at_close = power();
	CHECK(fake_power == FB_BLANK_UNBLANK);
	printf("panel left powered down, then opened: %s (want on); blanked, then VT switched away: %s (want on); "
	       "blanked, then closed: %s (want on)\n", at_open, at_suspend, at_close);
}

int main(void)
{
	struct drm_backend_config cfg = {.force_fbdev = true};
	struct drm_backend_iface iface = {.outputs_changed = on_changed};
	struct drm_backend *b;
	struct stat st;
	int memfd = memfd_create("fb9", MFD_CLOEXEC), ret;

	drm_set_log_handler(on_log);
	if (memfd < 0 || ftruncate(memfd, MEM_BYTES) < 0 || fstat(memfd, &st) < 0)
		return 1;
	fake_ino = st.st_ino;
	ret = drm_backend_create(&b, &cfg, &iface, NULL);
	if (ret < 0) {
		fprintf(stderr, "drm_backend_create: %s\n", strerror(-ret));
		return 1;
	}
	test_mode_changed(b, memfd);
	test_format_changed(b);
	test_blank_handed_back(b, memfd);
	drm_backend_destroy(b);
	close(memfd);
	if (failures)
		fprintf(stderr, "%d check(s) failed\nlog:\n%s", failures, logbuf);
	return failures ? 1 : 0;
}
