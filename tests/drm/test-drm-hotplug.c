/* tests/drm/test-drm-hotplug.c: bursts of udev events (drm/hotplug.c drm_hotplug_dispatch): a dock, or a connector
 * whose cable is loose, sends "change" uevents by the dozen, each of which made the card's scan probe every
 * connector again (an EDID read each, in the event loop). The kernel is stood in for at libdrm's boundary
 * (tests/drm/stand-in-kernel.h) and the udev monitor at libudev's (a queue of made-up events, below; every
 * other udev device goes to the real libudev). */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"
#include "tests/kf-log-capture.h"

static int failures;

#include "tests/drm/stand-in-kernel.h"

/* ---- the udev monitor stood in for ---- */
struct fake_dev {
	const char *action, *sysname;
	dev_t devnum;
	const char *connector, *property; /* CONNECTOR= and PROPERTY= of a "change" (NULL: none) */
};
static struct fake_dev queue[32];
static unsigned n_queued, next_queued;
/* The monitor's socket overflowed (the kernel dropped uevents): the next receive fails with ENOBUFS, once, as
 * recvmsg on a netlink socket does. */
static bool overflow;

static bool fake(struct udev_device *d)
{
	return (void *)d >= (void *)queue && (void *)d < (void *)(queue + 32);
}

struct udev_device *__real_udev_monitor_receive_device(struct udev_monitor *m);
struct udev_device *__wrap_udev_monitor_receive_device(struct udev_monitor *m);
struct udev_device *__wrap_udev_monitor_receive_device(struct udev_monitor *m)
{
	if (overflow) {
		overflow = false;
		errno = ENOBUFS;
		return NULL;
	}
	if (next_queued < n_queued)
		return (struct udev_device *)&queue[next_queued++];
	if (n_queued)
		return NULL;
	return __real_udev_monitor_receive_device(m);
}

#define FAKE_GETTER(type, name, expr)                                                                 \
	type __real_udev_device_get_##name(struct udev_device *d);                                   \
	type __wrap_udev_device_get_##name(struct udev_device *d);                                   \
	type __wrap_udev_device_get_##name(struct udev_device *d)                                    \
	{                                                                                             \
		const struct fake_dev *f = (const struct fake_dev *)d;                                \
		(void)f;                                                                              \
		return fake(d) ? (expr) : __real_udev_device_get_##name(d);                           \
	}
FAKE_GETTER(const char *, action, f->action)
FAKE_GETTER(const char *, subsystem, "drm")
FAKE_GETTER(const char *, sysname, f->sysname)
FAKE_GETTER(const char *, devnode, "/dev/dri/card7")
FAKE_GETTER(const char *, syspath, "/sys/devices/fake/drm/card7")
FAKE_GETTER(dev_t, devnum, f->devnum)

const char *__real_udev_device_get_property_value(struct udev_device *d, const char *key);
const char *__wrap_udev_device_get_property_value(struct udev_device *d, const char *key);
const char *__wrap_udev_device_get_property_value(struct udev_device *d, const char *key)
{
	const struct fake_dev *f = (const struct fake_dev *)d;

	if (!fake(d))
		return __real_udev_device_get_property_value(d, key);
	return strcmp(key, "CONNECTOR") == 0 ? f->connector : strcmp(key, "PROPERTY") == 0 ? f->property : NULL;
}

struct udev_device *__real_udev_device_unref(struct udev_device *d);
struct udev_device *__wrap_udev_device_unref(struct udev_device *d);
struct udev_device *__wrap_udev_device_unref(struct udev_device *d)
{
	return fake(d) ? NULL : __real_udev_device_unref(d);
}

/* The device behind this fd is gone (unplugged): every ioctl answers ENODEV. */
static int dead_fd = -100;

int __real_drmGetCap(int fd, uint64_t cap, uint64_t *value);
int __wrap_drmGetCap(int fd, uint64_t cap, uint64_t *value);
int __wrap_drmGetCap(int fd, uint64_t cap, uint64_t *value)
{
	if (fd == dead_fd) {
		errno = ENODEV;
		return -1;
	}
	return __real_drmGetCap(fd, cap, value);
}

static void uevent(const char *action)
{
	queue[n_queued++] = (struct fake_dev){action, "card7", makedev(226, 7), NULL, NULL};
}

/* The kernel's "change" for one connector (CONNECTOR=), or for one of its properties (PROPERTY= too). */
static void connector_uevent(const char *conn, const char *prop)
{
	queue[n_queued++] = (struct fake_dev){"change", "card7", makedev(226, 7), conn, prop};
}

/* A card (card7) on the heap, as drm_card_open makes one (the hotplug path may close it), of one CRTC and plane;
 * its connectors are the stand-in's fake_conns, each with one mode. */
static struct drm_card *heap_card(struct drm_backend *b)
{
	struct drm_card *card = calloc(1, sizeof(*card));

	card->b = b;
	card->fd = -1;
	card->devnum = makedev(226, 7);
	card->atomic = true;
	snprintf(card->path, sizeof(card->path), "/dev/dri/card7");
	card->crtcs = calloc(1, sizeof(*card->crtcs));
	card->planes = calloc(1, sizeof(*card->planes));
	card->crtcs[0] = (struct drm_card_crtc){.id = 100};
	card->planes[0] = (struct drm_card_plane){.id = 200, .possible_crtcs = 1, .xrgb8888 = true,
						  .type = DRM_PLANE_TYPE_PRIMARY};
	card->n_crtcs = card->n_planes = 1;
	fake_modes[0] = mode_of(64, DRM_MODE_TYPE_PREFERRED);
	n_fake_modes = 1;
	b->cards[b->n_cards++] = card;
	return card;
}

static void dispatch_queued(struct drm_backend *b)
{
	next_queued = 0;
	drm_hotplug_dispatch(b);
	n_queued = next_queued = 0;
}

/* Twelve "change" uevents of one card in a burst: the card is scanned once (its one connector probed once), not
 * twelve times. */
static void test_burst_scanned_once(struct drm_backend *b)
{
	struct drm_card *card = heap_card(b);
	int err;

	fake_conns = 1;
	CHECK(drm_card_scan(card, &err) && card->n_outputs == 1);
	for (int i = 0; i < 12; i++)
		uevent("change");
	probes = 0;
	dispatch_queued(b);
	printf("12 change uevents in a burst: %d probes (want 1)\n", probes);
	CHECK(probes == 1 && card->n_outputs == 1);
	/* a second connector plugged meanwhile is still found (one CRTC: said, not shown) */
	fake_conns = 2;
	uevent("change");
	uevent("change");
	probes = 0;
	dispatch_queued(b);
	CHECK(probes == 2 && card->n_outputs == 1);
	fake_conns = 0;
	drm_hotplug_remove_card(b, 0);
}

/* "change" then "remove" of the card in one burst: removed, and not scanned after (it is freed). */
static void test_change_then_remove(struct drm_backend *b)
{
	struct drm_card *card = heap_card(b);
	int err;

	fake_conns = 1;
	CHECK(drm_card_scan(card, &err) && card->n_outputs == 1);
	uevent("change");
	uevent("remove");
	uevent("change");
	probes = 0;
	dispatch_queued(b);
	CHECK(b->n_cards == 0 && probes == 0);
	b->n_later = 0; /* the last "change": a card not open, to be opened later */
	fake_conns = 0;
	drm_backend_update_canvas(b);
}

/* An "add" uevent for a card we hold: the device was removed and added again (a GPU re-plugged, a driver rebound)
 * and its "remove" was missed (the udev monitor's buffer overflowed under a burst): the card held is a dead fd.
 * It is closed and the new one opened (later, as any card announced). It was ignored: the display stayed dark,
 * the dead card retried each second, until the program was restarted. An "add" for a card that is still there
 * (udevadm trigger --action=add at boot) changes nothing. */
static void test_add_while_held(struct drm_backend *b)
{
	struct drm_card *card = heap_card(b);

	uevent("add");
	dispatch_queued(b);
	CHECK(b->n_cards == 1 && b->cards[0] == card && b->n_later == 0);
	card->fd = dead_fd = 1000; /* not open: closing it again is harmless */
	uevent("add");
	dispatch_queued(b);
	printf("add uevent for a held card whose device is gone: cards %u (want 0), to open later %u (want 1)\n",
	       b->n_cards, b->n_later);
	CHECK(b->n_cards == 0 && b->n_later == 1);
	b->n_later = 0;
	if (b->n_cards)
		drm_hotplug_remove_card(b, 0);
	drm_backend_update_canvas(b);
}

/* The udev monitor's socket overflowed under a burst (ENOBUFS): the "change" of a display plugged meanwhile was
 * lost, and so was the "remove" of a card unplugged meanwhile. Every card is scanned again as if a "change" came
 * for it, and a card whose device is gone is closed. The overflow was taken for the end of the queue: the display
 * stayed dark until the next uevent or VT switch, the dead card held. */
static void test_overflow_rescans(struct drm_backend *b)
{
	struct drm_card *card = heap_card(b);
	int err;

	fake_conns = 1;
	fake_unplugged = 1;
	drm_card_scan(card, &err);
	CHECK(card->n_outputs == 0);
	card->needs_modeset = false;
	fake_unplugged = 0; /* plugged; its "change" lost */
	overflow = true;
	dispatch_queued(b);
	printf("uevents lost (ENOBUFS) while a display was plugged: outputs %u (want 1), modeset %d (want 1)\n",
	       card->n_outputs, card->needs_modeset);
	CHECK(card->n_outputs == 1 && card->needs_modeset && !overflow);
	card->fd = dead_fd = 1001; /* unplugged; its "remove" lost */
	overflow = true;
	dispatch_queued(b);
	printf("uevents lost (ENOBUFS) while the card was unplugged: cards %u (want 0)\n", b->n_cards);
	CHECK(b->n_cards == 0);
	if (b->n_cards)
		drm_hotplug_remove_card(b, 0);
	b->n_later = 0;
	fake_conns = 0;
	drm_backend_update_canvas(b);
}

/* Legacy, a display on a fallback mode whose refused mode is not tried again while its modes stay the same
 * (refused_modes_set; each try blanked the screen: test-drm-rescan test_legacy_no_retry_per_burst). A "change"
 * uevent naming its connector (CONNECTOR=300: the monitor unplugged and plugged again, the same EDID, both before
 * the loop read them) has the scan after the burst try it again (test-drm-rescan test_legacy_replug); one for
 * another connector, a property's (PROPERTY=, HDCP) or the card's alone (a dock's chatter) does not. */
static void test_connector_uevent(struct drm_backend *b)
{
	struct drm_card *card = heap_card(b);
	int err;

	fake_conns = 1;
	CHECK(drm_card_scan(card, &err) && card->n_outputs == 1);
	card->outputs[0]->refused_modes_set = true;
	uevent("change");
	connector_uevent("301", NULL);
	connector_uevent("300", "77");
	dispatch_queued(b);
	CHECK(card->outputs[0]->refused_modes_set);
	connector_uevent("300", NULL);
	connector_uevent("300", NULL);
	dispatch_queued(b);
	printf("change uevents with CONNECTOR=300: its display's refused mode to try again %d (want 1)\n",
	       !card->outputs[0]->refused_modes_set);
	CHECK(!card->outputs[0]->refused_modes_set);
	fake_conns = 0;
	drm_hotplug_remove_card(b, 0);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	test_burst_scanned_once(b);
	test_change_then_remove(b);
	test_add_while_held(b);
	test_overflow_rescans(b);
	test_connector_uevent(b);
	return stand_in_end(b);
}
