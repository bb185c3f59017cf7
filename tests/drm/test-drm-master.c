/* tests/drm/test-drm-master.c: a card that refuses us DRM master while the display is ours (the seat enabled, our
 * VT in front): another master holds it for a while (the last instance's seat helper, a child that outlives it by
 * a moment; a compositor; a second console on the same seat). The refusal was taken for a VT switch away, and the
 * display waited for a switch back that never came: dark for good. Now drmSetMaster is asked again, 50 ms after
 * the refusal and doubling to 1 s, and the display is shown once the holder lets go; while the VT is not ours in
 * front the card waits for the seat as before. The kernel is stood in for at libdrm's boundary
 * (tests/drm/stand-in-kernel.h); everything else is drm/'s own code. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"
#include "tests/kf-log-capture.h"

static int failures;

#include "tests/drm/stand-in-kernel.h"

static bool ours; /* what the program answers: the seat enabled and our VT in front */

static bool on_display_ours(void *ud)
{
	(void)ud;
	return ours;
}

/* settle (presents, dispatches as the program's loop does until the card is shown, for at most ms); returns the
 * milliseconds it took. */
static int run(struct drm_backend *b, struct drm_card *card, int ms)
{
	int64_t start = drm_now_ns();

	settle(b, card, ms);
	return (int)((drm_now_ns() - start) / 1000000);
}

/* A card of one output whose fd is not DRM master, drmSetMaster refused busy times, the display ours or not. Returns
 * the memfd. */
static int held_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic, int busy,
		     bool display_ours)
{
	int fd = memfd_card(b, card, outs, atomic, (const uint16_t[3]){64, 48, 32}, 0);

	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	ours = display_ours;
	not_master_fd = fd;
	master_busy = busy;
	set_masters = 0;
	return fd;
}

/* Held for three tries of drmSetMaster (about 350 ms), then let go: shown at the fourth, 750 ms after the first
 * refusal; the hold said once, its end once, no word of a switch away. */
static void test_held_then_free(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = held_card(b, &card, outs, atomic, 3, true);
	int ms = run(b, &card, 3000);
	printf("%s, master held for 3 tries while our VT is in front: shown %d after %d ms (want 1, 600-1300), "
	       "drmSetMaster %d times (want 4); said held %d, obtained %d, switching away %d (want 1, 1, 0)\n",
	       atomic ? "atomic" : "legacy", !card.needs_modeset, ms, set_masters,
	       count(logbuf, "held by another DRM master"), count(logbuf, "DRM master obtained"),
	       count(logbuf, "switching away"));
	CHECK(!card.needs_modeset && outs[0].current);
	CHECK(ms >= 600 && ms < 1300);
	CHECK(set_masters == 4);
	CHECK(count(logbuf, "held by another DRM master") == 1 && count(logbuf, "DRM master obtained") == 1);
	CHECK(count(logbuf, "switching away") == 0 && count(logbuf, "rejected") == 0 && count(logbuf, "failed") == 0);
	not_master_fd = -100;
	memfd_card_free(b, &card, outs, fd);
}

/* Held for good: the tries back off to one a second (50, 100, 200, 400, 800, 1000 ms: 6 in 3.2 s, not one every
 * 20 ms), the hold said once; let go, the display is shown within a second. */
static void test_backoff_bounded(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = held_card(b, &card, outs, true, 1000000, true);
	int ms;

	run(b, &card, 3200);
	printf("held for good: drmSetMaster %d times in 3.2 s (want 5-7), shown %d (want 0), said held %d (want 1)\n",
	       set_masters, !card.needs_modeset, count(logbuf, "held by another DRM master"));
	CHECK(set_masters >= 5 && set_masters <= 7);
	CHECK(card.needs_modeset && count(logbuf, "held by another DRM master") == 1);
	master_busy = 0;
	ms = run(b, &card, 2000);
	printf("  let go: shown %d after %d ms (want 1, < 1100)\n", !card.needs_modeset, ms);
	CHECK(!card.needs_modeset && ms < 1100 && count(logbuf, "DRM master obtained") == 1);
	not_master_fd = -100;
	memfd_card_free(b, &card, outs, fd);
}

/* The VT not ours in front (a switch away under way: the seat took master before our disable handler ran): master
 * is the seat's to give, never asked for (it would take it from the VT being switched to); the card waits for the
 * resume after the next enable, said as before. */
static void test_not_in_front(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = held_card(b, &card, outs, true, 0, false);

	run(b, &card, 500);
	printf("VT not in front: drmSetMaster %d times (want 0), shown %d (want 0), said switching away %d (want 1)\n",
	       set_masters, !card.needs_modeset, count(logbuf, "switching away"));
	CHECK(set_masters == 0 && card.needs_modeset && count(logbuf, "switching away") == 1);
	CHECK(count(logbuf, "held by another") == 0);
	not_master_fd = -100;
	memfd_card_free(b, &card, outs, fd);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	b->iface.display_ours = on_display_ours;
	test_held_then_free(b, true);
	test_held_then_free(b, false);
	test_backoff_bounded(b);
	test_not_in_front(b);
	return stand_in_end(b);
}
