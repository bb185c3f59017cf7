/* drm/fallback.c: when the display is a framebuffer device (fbdev) instead of DRM, and which one.
 *
 * DRM first: an fbdev is shown only while no DRM card of the seat drives an output. That is the case on a kernel
 * without a DRM driver for the GPU, or booted with `nomodeset` (Debian 12's 6.1 kernel has no simpledrm but
 * efifb, vesafb and simplefb: /dev/fb0 is all there is). Of the fbdevs, the lowest fbN that is not a DRM
 * driver's fbdev emulation (drm_fb_is_drm_emulation): showing an emulation while DRM works would only add a copy
 * and lose page flips. With drm=off (force_fbdev) no card is opened and emulations count too.
 * When a DRM output appears (the real driver loads: it removes the firmware framebuffer first, and the udev
 * "remove" of that fbN closes it here before the card opens) the backend moves to DRM; when our fbN is removed,
 * it is closed and another is looked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm/drm-internal.h"

#define MAX_FBS 8

struct fb_node {
	char node[32], sysname[16];
	dev_t devnum;
};

static bool our_fb(const struct drm_backend *b, struct udev_device *dev)
{
	const char *name = udev_device_get_sysname(dev), *seat;

	if (!name || strncmp(name, "fb", 2) != 0 || !name[2] || !udev_device_get_devnode(dev))
		return false;
	seat = udev_device_get_property_value(dev, "ID_SEAT");
	return strcmp(seat ? seat : "seat0", b->seat) == 0;
}

static size_t list_fbs(struct drm_backend *b, struct drm_fb_candidate *c, struct fb_node *nodes)
{
	struct udev_enumerate *en = udev_enumerate_new(b->udev);
	struct udev_list_entry *e;
	size_t n = 0;

	if (!en)
		return 0;
	udev_enumerate_add_match_subsystem(en, "graphics");
	udev_enumerate_add_match_sysname(en, "fb[0-9]*");
	udev_enumerate_scan_devices(en);
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en))
	{
		struct udev_device *dev = udev_device_new_from_syspath(b->udev, udev_list_entry_get_name(e));
		char drm_dir[300];
		const char *id;

		if (dev && our_fb(b, dev) && n < MAX_FBS) {
			id = udev_device_get_sysattr_value(dev, "name");
			snprintf(drm_dir, sizeof(drm_dir), "%s/device/drm", udev_device_get_syspath(dev));
			c[n].num = (unsigned)strtoul(udev_device_get_sysname(dev) + 2, NULL, 10);
			snprintf(c[n].id, sizeof(c[n].id), "%s", id ? id : "");
			c[n].drm_dir = access(drm_dir, F_OK) == 0;
			snprintf(nodes[n].node, sizeof(nodes[n].node), "%s", udev_device_get_devnode(dev));
			snprintf(nodes[n].sysname, sizeof(nodes[n].sysname), "%s", udev_device_get_sysname(dev));
			nodes[n].devnum = udev_device_get_devnum(dev);
			if (!b->cfg.force_fbdev && drm_fb_is_drm_emulation(c[n].id, c[n].drm_dir))
				drm_debug("%s (%s): a DRM driver's fbdev emulation: not used while DRM is on",
					  nodes[n].node, c[n].id);
			n++;
		}
		udev_device_unref(dev);
	}
	udev_enumerate_unref(en);
	return n;
}

/* Opens the first usable fbdev; one that fails is passed over for the next. */
static bool open_first(struct drm_backend *b)
{
	struct drm_fb_candidate c[MAX_FBS];
	struct fb_node nodes[MAX_FBS];
	size_t n = list_fbs(b, c, nodes);
	int i;

	while ((i = drm_fb_pick(c, n, b->cfg.force_fbdev)) >= 0) {
		const struct fb_node *f = &nodes[i];
		char why[256];

		if (drm_fbdev_open(b, f->node, f->sysname, f->devnum, why, sizeof(why), &b->fb) < 0) {
			/* Tried again at each uevent while there is no DRM output: said once per device and reason. */
			if (drm_fb_refusal_new(&b->fb_refusals, f->devnum, why))
				drm_err("%s", why);
			else
				drm_debug("%s (again)", why);
		} else {
			drm_fb_refusal_forget(&b->fb_refusals, f->devnum);
			/* A drmfb whose id does not say so (cut at 15 characters): the directory did. */
			if (!b->cfg.force_fbdev && drm_fb_is_drm_emulation(b->fb->id, false)) {
				drm_fbdev_close(b, b->fb);
				b->fb = NULL;
			} else {
				drm_notice("%s: showing the framebuffer %s (%s)",
					   b->cfg.force_fbdev ? "drm=off" : "no usable DRM display",
					   b->fb->path, b->fb->id);
				if (b->cfg.mode_width)
					drm_info("mode %ux%u asked for: a framebuffer device keeps its mode (%ux%u)",
						 b->cfg.mode_width, b->cfg.mode_height, b->fb->width, b->fb->height);
				b->fb_none_logged = false;
				return true;
			}
		}
		c[i] = c[n - 1];
		nodes[i] = nodes[n - 1];
		n--;
	}
	if (!b->fb_none_logged)
		drm_info("%s", b->cfg.force_fbdev ? "drm=off: no usable framebuffer device (/dev/fbN)"
						  : "no usable framebuffer device (/dev/fbN) either (DRM drivers' fbdev "
						    "emulations are not used while DRM is on)");
	b->fb_none_logged = true;
	return false;
}

bool drm_fallback_update(struct drm_backend *b, unsigned drm_outputs)
{
	if (b->fb && drm_outputs) {
		drm_notice("a DRM display appeared: leaving the framebuffer %s", b->fb->path);
		drm_fallback_finish(b);
		return true;
	}
	if (b->fb || drm_outputs || b->suspended)
		return false;
	return open_first(b);
}

void drm_fallback_uevent(struct drm_backend *b, struct udev_device *dev)
{
	const char *action = udev_device_get_action(dev);

	if (!action || !our_fb(b, dev))
		return;
	drm_debug("udev: %s %s", action, udev_device_get_sysname(dev));
	/* Another device, or the same one again: its refusal is news. A "change" is not (udevadm trigger). */
	if (strcmp(action, "add") == 0 || strcmp(action, "remove") == 0)
		drm_fb_refusal_forget(&b->fb_refusals, udev_device_get_devnum(dev));
	if (strcmp(action, "remove") == 0 && b->fb && udev_device_get_devnum(dev) == b->fb->devnum) {
		drm_notice("%s: removed: closing it", b->fb->path);
		drm_fallback_finish(b);
	}
	/* the caller updates the canvas, which looks for another fbdev */
}

void drm_fallback_finish(struct drm_backend *b)
{
	drm_fbdev_close(b, b->fb);
	b->fb = NULL;
}

void drm_fallback_kick(struct drm_backend *b, int64_t now)
{
	struct drm_fbdev *fb = b->fb;
	struct drm_canvas c;

	if (!fb || !fb->dirty || fb->inflight || !drm_backend_active(b))
		return;
	/* The mode changed under us (fbset typed in our own console, a driver's change): a copy at the old geometry
	 * shears the picture and writes past a smaller mode's visible area. It was read again only at the switch
	 * back to the VT. Two ioctls a frame, at most one frame a refresh. */
	if (fb->stale || drm_fbdev_check(fb) != 0) {
		fb->stale = true;
		return;
	}
	drm_backend_get_canvas_internal(b, &c);
	drm_backend_count(b, DRM_COUNT_PIXELS, drm_fbdev_copy(fb, &c, b->cfg.rotation, now));
	drm_backend_count(b, DRM_COUNT_COMMIT, 1);
}

bool drm_fallback_reopen(struct drm_backend *b)
{
	struct drm_fbdev *old = b->fb;
	char path[sizeof(old->path)], sysname[sizeof(old->sysname)], why[256], was[48], now[48];
	uint32_t w, h;
	dev_t devnum;

	if (!old || !old->stale)
		return false;
	snprintf(path, sizeof(path), "%s", old->path);
	snprintf(sysname, sizeof(sysname), "%s", old->sysname);
	devnum = old->devnum;
	w = old->width, h = old->height;
	drm_fb_format_name(&old->format, was, sizeof(was));
	/* Closed first: a seat (logind) hands a device out once at a time. */
	drm_fallback_finish(b);
	if (drm_fbdev_open(b, path, sysname, devnum, why, sizeof(why), &b->fb) < 0) {
		b->fb = NULL;
		drm_notice("%s: its mode changed while shown and it cannot be shown now: %s", path, why);
		return true;
	}
	/* the format too: a change of depth alone read "64x48, now 64x48" */
	drm_fb_format_name(&b->fb->format, now, sizeof(now));
	drm_notice("%s: its mode changed while shown (%ux%u %s, now %ux%u %s): opened again", path, w, h, was,
		   b->fb->width, b->fb->height, now);
	return true;
}

void drm_fallback_timer(struct drm_backend *b, int64_t now)
{
	/* The refresh after a copy passed: what the page-flip event is on DRM (the first frame counts as shown,
	 * the frame loop may paint the next). */
	if (!b->fb || !b->fb->inflight || now < b->fb->flip_ns)
		return;
	b->fb->inflight = false;
	drm_backend_count(b, DRM_COUNT_FLIP, 1);
}
