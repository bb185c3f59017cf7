/* drm/hotplug.c: the seat's cards through udev: enumeration at start, cards added and removed, connector
 * changes (HOTPLUG=1 "change" uevents), and cards the kernel announces before they can be opened. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <libudev.h>
#include <xf86drm.h>

#include "drm/drm-internal.h"


/* A card of our seat: sysname "cardN" (not renderD*, not card0-HDMI-A-1 connector devices) with a node. */
static bool udev_is_our_card(const struct drm_backend *b, struct udev_device *dev)
{
	const char *name = udev_device_get_sysname(dev), *seat;

	if (b->cfg.force_fbdev || !name || strncmp(name, "card", 4) != 0 || !name[4])
		return false;
	for (const char *p = name + 4; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	if (!udev_device_get_devnode(dev))
		return false;
	seat = udev_device_get_property_value(dev, "ID_SEAT");
	return strcmp(seat ? seat : "seat0", b->seat) == 0;
}

static int find_card(const struct drm_backend *b, dev_t devnum)
{
	for (unsigned c = 0; c < b->n_cards; c++)
		if (b->cards[c]->devnum == devnum)
			return (int)c;
	return -1;
}

void drm_hotplug_remove_card(struct drm_backend *b, unsigned idx)
{
	struct drm_card *card = b->cards[idx];

	epoll_ctl(b->epfd, EPOLL_CTL_DEL, card->fd, NULL);
	drm_info("%s: removed", card->path);
	b->cards[idx] = b->cards[--b->n_cards];
	drm_card_close(card);
}

static void forget_later(struct drm_backend *b, const char *syspath)
{
	for (unsigned i = 0; i < b->n_later; i++) {
		if (strcmp(b->later[i].syspath, syspath) == 0) {
			b->later[i] = b->later[--b->n_later];
			return;
		}
	}
}

static void open_later(struct drm_backend *b, const char *syspath)
{
	unsigned i;

	for (i = 0; i < b->n_later; i++)
		if (strcmp(b->later[i].syspath, syspath) == 0)
			break;
	if (i == b->n_later) {
		if (b->n_later == DRM_MAX_CARDS || strlen(syspath) >= sizeof(b->later[0].syspath))
			return;
		snprintf(b->later[i].syspath, sizeof(b->later[i].syspath), "%s", syspath);
		b->later[i].attempts = 0;
		b->n_later++;
	}
	if (++b->later[i].attempts > DRM_OPEN_ATTEMPTS) {
		drm_warn("%s: still cannot open the card; giving up until its next uevent", syspath);
		b->later[i] = b->later[--b->n_later];
		return;
	}
	b->later_ns = drm_now_ns() + DRM_OPEN_RETRY_NS;
}

static void add_card(struct drm_backend *b, struct udev_device *dev);

/* Tries the cards that could not be opened yet again. */
void drm_hotplug_retry(struct drm_backend *b, int64_t now)
{
	char paths[DRM_MAX_CARDS][256];
	unsigned n = b->n_later;

	if (!n || now < b->later_ns)
		return;
	for (unsigned i = 0; i < n; i++)
		memcpy(paths[i], b->later[i].syspath, sizeof(paths[i]));
	for (unsigned i = 0; i < n; i++) {
		struct udev_device *dev = udev_device_new_from_syspath(b->udev, paths[i]);
		int err;

		if (!dev || !udev_is_our_card(b, dev)) {
			forget_later(b, paths[i]);
		} else {
			add_card(b, dev);
			int idx = find_card(b, udev_device_get_devnum(dev));
			if (idx >= 0)
				drm_card_scan(b->cards[idx], &err);
		}
		udev_device_unref(dev);
	}
	drm_backend_update_canvas(b);
}

static void add_card(struct drm_backend *b, struct udev_device *dev)
{
	const char *node = udev_device_get_devnode(dev);
	dev_t devnum = udev_device_get_devnum(dev);
	struct drm_card *card = NULL;
	int ret = -EEXIST; /* already open */

	if (find_card(b, devnum) < 0 && b->n_cards == DRM_MAX_CARDS)
		drm_warn("%s: more than %d cards; ignored", node, DRM_MAX_CARDS);
	else if (find_card(b, devnum) < 0)
		ret = drm_card_open(b, node, devnum, &card);
	if (ret == -ENODEV || ret == -ENOENT || ret == -EACCES || ret == -EPERM || ret == -EBUSY) {
		open_later(b, udev_device_get_syspath(dev));
		return;
	}
	/* Every other way out takes the card off the retry list: left there after an error that is not
	 * retried, its retry time in the past would have the loop wake at once, for ever. */
	forget_later(b, udev_device_get_syspath(dev));
	if (ret < 0)
		return;
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = card};
	if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, card->fd, &ev) < 0) {
		drm_err("%s: epoll: %s", node, strerror(errno));
		drm_card_close(card);
		return;
	}
	b->cards[b->n_cards++] = card;
}

/* Whether card's device is gone (unplugged: every ioctl answers ENODEV). */
static bool card_gone(const struct drm_card *card)
{
	uint64_t cap;

	return drmGetCap(card->fd, DRM_CAP_DUMB_BUFFER, &cap) < 0 && errno == ENODEV;
}

/* The cards a burst of "change" uevents names, scanned once each after the burst: a dock, or a loose cable, sends
 * them by the dozen, and each scan probes every connector (an EDID read each, in the event loop). By device
 * number: a "remove" in the same burst takes the card away (its index changes, its memory is freed). */
static void scan_changed(struct drm_backend *b, const dev_t *devs, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int idx = find_card(b, devs[i]), err;

		if (idx >= 0 && drm_card_scan(b->cards[idx], &err))
			b->cards[idx]->needs_modeset = true;
	}
}

/* The monitor's socket overflowed (a burst the loop did not read in time: the kernel dropped uevents): what they
 * said is not known. A "change" lost leaves a display plugged meanwhile dark, a "remove" lost a dead card held, an
 * "add" lost a card never opened: each card held is scanned as if a "change" came for it (added to changed, once)
 * or closed when its device is gone, and the seat's cards not held are opened later as announced. */
static void recover_lost(struct drm_backend *b, dev_t *changed, unsigned *n_changed)
{
	struct udev_enumerate *en = udev_enumerate_new(b->udev);
	struct udev_list_entry *e;

	drm_notice("udev: events lost (the monitor's buffer overflowed): scanning every card again");
	for (unsigned c = b->n_cards; c-- > 0;) {
		unsigned k = 0;

		if (card_gone(b->cards[c])) {
			drm_hotplug_remove_card(b, c);
			continue;
		}
		while (k < *n_changed && changed[k] != b->cards[c]->devnum)
			k++;
		if (k == *n_changed && *n_changed < DRM_MAX_CARDS && !b->suspended)
			changed[(*n_changed)++] = b->cards[c]->devnum;
	}
	if (!en)
		return;
	udev_enumerate_add_match_subsystem(en, "drm");
	udev_enumerate_add_match_sysname(en, "card[0-9]*");
	udev_enumerate_scan_devices(en);
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en))
	{
		struct udev_device *dev = udev_device_new_from_syspath(b->udev, udev_list_entry_get_name(e));

		if (dev && udev_is_our_card(b, dev) && find_card(b, udev_device_get_devnum(dev)) < 0)
			open_later(b, udev_device_get_syspath(dev));
		udev_device_unref(dev);
	}
	udev_enumerate_unref(en);
}

void drm_hotplug_dispatch(struct drm_backend *b)
{
	struct udev_device *dev;
	dev_t changed[DRM_MAX_CARDS];
	unsigned n_changed = 0, overflows = 0;

	/* NULL ends the queue, but for ENOBUFS: the socket overflowed, said once, the uevents after it still queued.
	 * errno cleared first: not every libudev sets it on each NULL. Bounded: a monitor that kept saying it
	 * would hold the loop. */
	for (;;) {
		errno = 0;
		dev = udev_monitor_receive_device(b->mon);
		if (!dev && errno == ENOBUFS && overflows < 4) {
			if (!overflows++)
				recover_lost(b, changed, &n_changed);
			continue;
		}
		if (!dev)
			break;
		const char *action = udev_device_get_action(dev);
		const char *subsystem = udev_device_get_subsystem(dev);
		int idx;

		if (subsystem && strcmp(subsystem, "graphics") == 0) {
			drm_fallback_uevent(b, dev);
			udev_device_unref(dev);
			drm_backend_update_canvas(b);
			continue;
		}
		if (!action || !udev_is_our_card(b, dev)) {
			udev_device_unref(dev);
			continue;
		}
		idx = find_card(b, udev_device_get_devnum(dev));
		drm_debug("udev: %s %s", action, udev_device_get_sysname(dev));
		if ((strcmp(action, "add") == 0 || strcmp(action, "change") == 0) && idx < 0) {
			/* The kernel announces the card while its driver is still setting up (fbdev emulation
			 * does its own modeset then): open it a moment later. */
			open_later(b, udev_device_get_syspath(dev));
		} else if (strcmp(action, "add") == 0 && card_gone(b->cards[idx])) {
			/* Removed and added again (a GPU re-plugged, a driver rebound) and the "remove" missed (the
			 * monitor's buffer overflowed): the card held is a dead fd. An "add" for a card that is still
			 * there (udevadm trigger --action=add at boot) changes nothing. */
			drm_notice("%s: added again while we held it (its removal was missed): opening it again",
				   b->cards[idx]->path);
			drm_hotplug_remove_card(b, (unsigned)idx);
			open_later(b, udev_device_get_syspath(dev));
		} else if (strcmp(action, "remove") == 0) {
			forget_later(b, udev_device_get_syspath(dev));
			if (idx >= 0)
				drm_hotplug_remove_card(b, (unsigned)idx);
		} else if (strcmp(action, "change") == 0 && idx >= 0 && !b->suspended) {
			const char *conn = udev_device_get_property_value(dev, "CONNECTOR");
			unsigned k = 0;

			/* one connector's status or EDID changed; a PROPERTY= event is a property's (HDCP) */
			if (conn && !udev_device_get_property_value(dev, "PROPERTY"))
				drm_card_connector_event(b->cards[idx], (uint32_t)strtoul(conn, NULL, 10));

			while (k < n_changed && changed[k] != b->cards[idx]->devnum)
				k++;
			if (k == n_changed && n_changed < DRM_MAX_CARDS)
				changed[n_changed++] = b->cards[idx]->devnum;
		}
		udev_device_unref(dev);
		drm_backend_update_canvas(b);
	}
	scan_changed(b, changed, n_changed);
	if (n_changed)
		drm_backend_update_canvas(b);
}

int drm_hotplug_enumerate(struct drm_backend *b)
{
	struct udev_enumerate *en = udev_enumerate_new(b->udev);
	struct udev_list_entry *e;

	if (!en)
		return -ENOMEM;
	udev_enumerate_add_match_subsystem(en, "drm");
	udev_enumerate_add_match_sysname(en, "card[0-9]*");
	udev_enumerate_scan_devices(en);
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en))
	{
		struct udev_device *dev = udev_device_new_from_syspath(b->udev, udev_list_entry_get_name(e));

		if (dev && udev_is_our_card(b, dev))
			add_card(b, dev);
		udev_device_unref(dev);
	}
	udev_enumerate_unref(en);
	return 0;
}

int drm_hotplug_init(struct drm_backend *b)
{
	/* Without udevd (a bare initramfs) listen to the kernel's own uevents; devtmpfs provides the nodes. */
	const char *source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";

	b->udev = udev_new();
	if (!b->udev)
		return -ENOMEM;
	b->mon = udev_monitor_new_from_netlink(b->udev, source);
	/* graphics: the fbN devices of the framebuffer fallback (fallback.c) */
	if (!b->mon || udev_monitor_filter_add_match_subsystem_devtype(b->mon, "drm", NULL) < 0 ||
	    udev_monitor_filter_add_match_subsystem_devtype(b->mon, "graphics", NULL) < 0 ||
	    udev_monitor_enable_receiving(b->mon) < 0) {
		drm_err("cannot listen to %s events for hotplug", source);
		return -EIO;
	}
	int fd = udev_monitor_get_fd(b->mon);
	drm_debug("listening to %s events; enumerating the seat's cards", source);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &drm_tag_udev};
	if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	return drm_hotplug_enumerate(b);
}

void drm_hotplug_finish(struct drm_backend *b)
{
	if (b->mon)
		udev_monitor_unref(b->mon);
	if (b->udev)
		udev_unref(b->udev);
	b->mon = NULL;
	b->udev = NULL;
}
