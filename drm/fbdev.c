/* drm/fbdev.c: one Linux framebuffer device (/dev/fbN), shown when there is no DRM output (fallback.c decides
 * when): opened through the seat if it takes it, mapped, and written with the canvas' damage.
 *
 * Kernel ABI: include/uapi/linux/fb.h (FBIOGET_VSCREENINFO, FBIOGET_FSCREENINFO, FBIOBLANK). The mapping is
 * only ever written, never read: vesafb and efifb map the aperture write-combined, and some drivers uncached,
 * where a read costs a bus round trip. So there is no double buffering and no buffer age: each frame copies
 * exactly the damage since the last one, converting each row into ordinary memory first and writing it with
 * one memcpy. The fb has no page-flip event: a frame is "flipped" one refresh after it was copied (the
 * backend's timer), which keeps the frame loop at one frame per refresh as on DRM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drm/drm-internal.h"

/* Why fb cannot be used: while drm_fbdev_open runs, into its caller's buffer (fallback.c logs it, once per
 * device and reason); afterwards (drm_fbdev_check at resume) logged at once. */
__attribute__((format(printf, 2, 3))) static void refuse(struct drm_fbdev *fb, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fb->why ? fb->why : line, fb->why ? fb->why_size : sizeof(line), fmt, ap);
	va_end(ap);
	if (!fb->why)
		drm_err("%s", line);
}

/* The mode of fd, and whether we can show it (why not, refused). */
static int read_mode(struct drm_fbdev *fb, struct fb_var_screeninfo *v, struct fb_fix_screeninfo *fix)
{
	char why[128];
	int ret;

	if (ioctl(fb->fd, FBIOGET_FSCREENINFO, fix) < 0 || ioctl(fb->fd, FBIOGET_VSCREENINFO, v) < 0) {
		ret = -errno;
		refuse(fb, "%s: cannot read the mode: %s", fb->path, strerror(-ret));
		return ret;
	}
	if (v->xres == 0 || v->yres == 0 || v->xres > 16384 || v->yres > 16384) {
		refuse(fb, "%s: unusable size %ux%u (driver bug)", fb->path, v->xres, v->yres);
		return -EINVAL;
	}
	ret = drm_fb_format_from_var(v, fix, &fb->format, why, sizeof(why));
	if (ret < 0)
		refuse(fb, "%s (%s): cannot show this framebuffer: %s", fb->path, fb->id, why);
	return ret;
}

/* Maps the visible area: from the page holding its first pixel to the end of its last row. */
static int map_visible(struct drm_fbdev *fb, const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *fix)
{
	struct drm_fb_layout l;
	char why[160];
	void *p;

	if (drm_fb_layout(v, fix, fb->format.bytes, (uint64_t)sysconf(_SC_PAGESIZE), &l, why, sizeof(why)) < 0) {
		refuse(fb, "%s: %s (driver bug)", fb->path, why);
		return -EINVAL;
	}
	p = mmap(NULL, (size_t)l.size, PROT_READ | PROT_WRITE, MAP_SHARED, fb->fd, (off_t)l.offset);
	if (p == MAP_FAILED) {
		int ret = -errno;
		refuse(fb, "%s: cannot map %llu bytes: %s", fb->path, (unsigned long long)l.size, strerror(-ret));
		return ret;
	}
	fb->map = p;
	fb->map_size = (size_t)l.size;
	fb->visible = fb->map + l.visible;
	fb->layout = l;
	fb->width = v->xres;
	fb->height = v->yres;
	fb->line_length = l.line;
	return 0;
}

/* The seat's callback first (logind takes any device of the seat; seatd only DRM and evdev nodes), then
 * open(2): we run as root, and the seat's VT switching stops our writes anyway (suspend). */
static int open_node(struct drm_backend *b, struct drm_fbdev *fb)
{
	int fd = -ENOTSUP;

	if (b->iface.open_device) {
		fd = b->iface.open_device(fb->path, b->ud);
		if (fd >= 0) {
			fb->via_seat = true;
			return fd;
		}
	}
	int direct = open(fb->path, O_RDWR | O_CLOEXEC);
	if (direct < 0) {
		int ret = -errno;
		refuse(fb, "%s: cannot open: %s (through the seat: %s)", fb->path, strerror(-ret),
		       b->iface.open_device ? strerror(-fd) : "no seat");
		return ret;
	}
	/* -ENOTSUP: the seat's known refusal (seatd, builtin), said by it at debug level; anything else is news */
	if (b->iface.open_device)
		drm_log(fd == -ENOTSUP ? 7 : 6, "%s: the seat does not hand out framebuffers (%s): opened directly",
			fb->path, strerror(-fd));
	return direct;
}

int drm_fbdev_open(struct drm_backend *b, const char *node, const char *sysname, dev_t devnum, char *why,
		   size_t why_size, struct drm_fbdev **out)
{
	struct drm_fbdev *fb = calloc(1, sizeof(*fb));
	struct fb_var_screeninfo v;
	struct fb_fix_screeninfo fix;
	char fmt[64];
	int ret;

	snprintf(why, why_size, "%s: out of memory", node);
	if (!fb)
		return -ENOMEM;
	fb->fd = -1;
	fb->devnum = devnum;
	fb->why = why;
	fb->why_size = why_size;
	snprintf(fb->path, sizeof(fb->path), "%s", node);
	snprintf(fb->sysname, sizeof(fb->sysname), "%s", sysname);
	fb->rl = (struct drm_ratelimit){.interval_ns = 5000000000LL, .burst = 3};
	ret = open_node(b, fb);
	if (ret < 0)
		goto err;
	fb->fd = ret;
	/* fix.id is 16 bytes, not always terminated */
	if (ioctl(fb->fd, FBIOGET_FSCREENINFO, &fix) == 0)
		snprintf(fb->id, sizeof(fb->id), "%.16s", fix.id);
	ret = read_mode(fb, &v, &fix);
	if (ret < 0)
		goto err;
	ret = map_visible(fb, &v, &fix);
	if (ret < 0)
		goto err;
	fb->row = malloc((size_t)fb->width * 4);
	if (!fb->row) {
		ret = -ENOMEM;
		goto err;
	}
	fb->refresh_mhz = drm_fb_refresh_mhz(&v);
	fb->period_ns = 1000000000000LL / fb->refresh_mhz;
	fb->blank_ok = true;
	/* Whoever had it last may have left it powered down (we, before a restart, blanked; another program): we
	 * take it as on, so nothing would ever power it up again. Not through drm_fbdev_set_blank: a driver
	 * without FBIOBLANK is said at the first blank. */
	(void)ioctl(fb->fd, FBIOBLANK, FB_BLANK_UNBLANK);
	drm_region_set_full(&fb->damage);
	fb->dirty = true;
	drm_fb_format_name(&fb->format, fmt, sizeof(fmt));
	drm_info("%s (%s): %ux%u, %s, line %u bytes, %u.%02u Hz%s", fb->path, fb->id, fb->width, fb->height, fmt,
		 fb->line_length, fb->refresh_mhz / 1000, fb->refresh_mhz % 1000 / 10,
		 fb->refresh_mhz == DRM_FB_DEFAULT_MHZ ? " (assumed: no timings)" : "");
	fb->why = NULL; /* the caller's buffer: not kept */
	fb->why_size = 0;
	*out = fb;
	return 0;
err:
	drm_fbdev_close(b, fb);
	return ret;
}

void drm_fbdev_close(struct drm_backend *b, struct drm_fbdev *fb)
{
	if (!fb)
		return;
	drm_fbdev_power_up(fb);
	if (fb->map)
		munmap(fb->map, fb->map_size);
	if (fb->fd >= 0 && fb->via_seat)
		drm_backend_close_device(b, fb->fd);
	else if (fb->fd >= 0)
		close(fb->fd);
	free(fb->row);
	free(fb->turned);
	free(fb);
}

/* Writes rows of w pixels of src (stride src_stride bytes) at x, y of the fb. */
static void write_box(struct drm_fbdev *fb, const uint32_t *src, uint32_t src_stride, struct drm_box bx)
{
	uint32_t bytes = fb->format.bytes;

	for (int32_t y = bx.y; y < bx.y + bx.h; y++) {
		const uint32_t *s = (const uint32_t *)((const uint8_t *)src + (size_t)y * src_stride) + bx.x;
		uint8_t *d = fb->visible + (size_t)y * fb->line_length + (size_t)bx.x * bytes;

		if (fb->format.xrgb8888) {
			memcpy(d, s, (size_t)bx.w * 4);
			continue;
		}
		drm_fb_convert_row(&fb->format, fb->row, s, (uint32_t)bx.w);
		memcpy(d, fb->row, (size_t)bx.w * bytes);
	}
}

uint64_t drm_fbdev_copy(struct drm_fbdev *fb, const struct drm_canvas *c, enum drm_rotation r, int64_t now)
{
	struct drm_region rg = fb->damage;
	const uint32_t *src = c->pixels;
	uint32_t stride = c->stride;
	uint64_t px = 0;

	drm_region_clear(&fb->damage);
	fb->dirty = false;
	if (!c->pixels)
		return 0;
	drm_region_clip(&rg, (int32_t)c->width, (int32_t)c->height);
	if (r != DRM_ROTATE_NORMAL) {
		/* Turned and converted in two steps: rotate.c's tiles into ordinary memory, then rows out. */
		if (!fb->turned && !(fb->turned = calloc((size_t)fb->width * fb->height, 4))) {
			if (drm_ratelimit_pass(&fb->rl, now))
				drm_err("%s: no memory for the turned picture", fb->path);
			return 0;
		}
		for (unsigned i = 0; i < rg.n; i++)
			drm_rotate_copy(r, (uint8_t *)fb->turned, fb->width * 4, fb->width, fb->height, c->pixels,
					c->stride, rg.r[i]);
		drm_rotate_region(r, &rg, fb->width, fb->height);
		src = fb->turned;
		stride = fb->width * 4;
	}
	for (unsigned i = 0; i < rg.n; i++) {
		write_box(fb, src, stride, rg.r[i]);
		px += (uint64_t)rg.r[i].w * (uint64_t)rg.r[i].h;
	}
	fb->inflight = true;
	fb->flip_ns = now + fb->period_ns;
	return px;
}

int drm_fbdev_set_blank(struct drm_fbdev *fb, bool blank)
{
	/* Some drivers answer 1 for "not supported" (vesafb outside 8 bpp). */
	int ret = ioctl(fb->fd, FBIOBLANK, blank ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);

	if (ret == 0) {
		fb->powered_down = blank;
		return 0;
	}
	ret = ret < 0 ? -errno : -ENOTTY;
	if (blank && fb->blank_ok)
		drm_info("%s: FBIOBLANK not supported (%s): blanking paints black instead", fb->path,
			 strerror(-ret));
	fb->blank_ok = false;
	if (blank) {
		/* The next best thing to powering down: nothing lit (the picture comes back whole on unblank). */
		memset(fb->row, 0, (size_t)fb->width * fb->format.bytes);
		for (uint32_t y = 0; y < fb->height; y++)
			memcpy(fb->visible + (size_t)y * fb->line_length, fb->row, (size_t)fb->width * fb->format.bytes);
	}
	return ret;
}

void drm_fbdev_power_up(struct drm_fbdev *fb)
{
	if (!fb || !fb->powered_down)
		return;
	if (ioctl(fb->fd, FBIOBLANK, FB_BLANK_UNBLANK) < 0)
		drm_warn("%s: cannot power the display up again (FBIOBLANK: %s): it stays dark for the next VT",
			 fb->path, strerror(errno));
	fb->powered_down = false;
}

int drm_fbdev_check(struct drm_fbdev *fb)
{
	struct fb_var_screeninfo v;
	struct fb_fix_screeninfo fix;
	struct drm_fb_format f = fb->format;
	struct drm_fb_layout l;
	char why[160], refused[256];
	int ret;

	if (ioctl(fb->fd, FBIOGET_FSCREENINFO, &fix) < 0 || ioctl(fb->fd, FBIOGET_VSCREENINFO, &v) < 0)
		return -errno;
	/* Why a new mode cannot be shown is said by the caller's open of it (drm_fallback_reopen, the resume's
	 * open_first), not here too: it came twice, as an error and in the notice. */
	fb->why = refused;
	fb->why_size = sizeof(refused);
	ret = read_mode(fb, &v, &fix);
	fb->why = NULL;
	fb->why_size = 0;
	/* The same layout at the same place in the same memory: the mapping still shows it. */
	if (ret < 0 || v.xres != fb->width || v.yres != fb->height || memcmp(&f, &fb->format, sizeof(f)) != 0 ||
	    drm_fb_layout(&v, &fix, f.bytes, (uint64_t)sysconf(_SC_PAGESIZE), &l, why, sizeof(why)) < 0 ||
	    memcmp(&l, &fb->layout, sizeof(l)) != 0)
		ret = 1;
	/* fb->format stays the mapping's: read_mode wrote the new one there, and the notice of the change names
	 * the old */
	fb->format = f;
	return ret > 0 ? 1 : 0;
}
