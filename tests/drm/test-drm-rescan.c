/* tests/drm/test-drm-rescan.c: the mode a display shows across rescans (a hotplug uevent, the switch back to the VT:
 * drm_backend_resume), atomic and legacy, when it is not the preferred one: asked for with --mode, or kept with
 * use-original-mode, and after a fallback from either. The kernel is stood in for at libdrm's boundary
 * (tests/drm/stand-in-kernel.h); everything else is drm/'s own code.
 *
 * What a user saw: a display kept at its original mode that once fell back (the kernel refused the mode for a
 * while: a link trained low, a VT switch race) came back at the next rescan on the connector's preferred mode, not
 * the mode it was started on; on legacy, with no test commit, at every rescan. */
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

static const uint16_t widths[3] = {64, 48, 32}; /* 64 preferred */

enum how { ASKED, KEPT };

/* A card of one display at 48 (asked for, or kept from start), shown. Returns the memfd. */
static int start(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic, enum how how)
{
	int fd;

	b->cfg.mode_width = b->cfg.mode_height = how == ASKED ? 48 : 0;
	b->cfg.use_original_mode = how == KEPT;
	fd = memfd_card(b, card, outs, atomic, widths, 0);
	card->n_outputs = 0;
	card->originals_read = how == KEPT;
	card->n_originals = how == KEPT;
	card->originals[0] = (struct drm_card_original){.conn_id = 300, .valid = true, .mode = fake_modes[1]};
	b->iface.outputs_changed = on_changed;
	{
		int err;

		CHECK(drm_card_scan(card, &err) && card->n_outputs == 1);
	}
	drm_backend_update_canvas(b);
	return fd;
}

static void finish(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, int fd)
{
	scanned_card_free(b, card, outs, fd);
	b->cfg.mode_width = b->cfg.mode_height = 0;
	b->cfg.use_original_mode = false;
	refuse_w = 0;
}

/* Both ways of a rescan: a hotplug uevent's (the card's scan, the canvas after it) and the switch back to the VT. */
static void rescan(struct drm_backend *b, struct drm_card *card, bool vt)
{
	int err;

	if (vt) {
		drm_backend_suspend(b);
		drm_backend_resume(b);
	} else if (drm_card_scan(card, &err)) {
		drm_backend_update_canvas(b);
	}
	/* an output made again inside the resume lacks its connector's properties (the memfd has none) until settle
	 * sets them: its first modeset fails, and the card's retry comes a second later */
	settle(b, card, 2500);
}

/* 48 refused at the first modeset (refuse_w stays set): the display falls back to the preferred 64. */
static void fall_back(struct drm_backend *b, struct drm_card *card)
{
	refuse_w = 48;
	settle(b, card, 1000);
	CHECK(card->outputs[0]->mode.hdisplay == 64 && card->outputs[0]->mode_source == DRM_SOURCE_FALLBACK);
}

static const char *const hows[] = {"--mode 48x48", "use-original-mode (48)"};

/* Shown at 48, rescanned both ways: still 48. */
static void test_kept(struct drm_backend *b, bool atomic, enum how how)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = start(b, &card, outs, atomic, how);

	settle(b, &card, 1000);
	CHECK(card.outputs[0]->mode.hdisplay == 48 && card.outputs[0]->current);
	rescan(b, &card, false);
	rescan(b, &card, true);
	printf("%s, %s: mode after a hotplug and a VT switch %u (want 48)\n", atomic ? "atomic" : "legacy", hows[how],
	       card.outputs[0]->mode.hdisplay);
	CHECK(card.outputs[0]->mode.hdisplay == 48 && card.outputs[0]->current && !card.needs_modeset);
	finish(b, &card, outs, fd);
}

/* 48 refused at the first modeset: the display falls back (to the preferred 64); the refusal ends, and the next
 * rescan brings 48 back, both ways; and stays at it at the rescans after that. */
static void test_back_after_fallback(struct drm_backend *b, bool atomic, enum how how, bool vt)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = start(b, &card, outs, atomic, how);

	fall_back(b, &card);
	refuse_w = 0;
	rescan(b, &card, vt);
	/* legacy has no test commit: a hotplug with the connector's modes unchanged does not try it (each try the
	 * kernel refused blanked the screen: test_legacy_no_retry_per_burst); the switch back to the VT does */
	unsigned want = atomic || vt ? 48 : 64;
	printf("%s, %s refused once: mode after the %s %u (want %u)\n", atomic ? "atomic" : "legacy", hows[how],
	       vt ? "switch back to the VT" : "hotplug", card.outputs[0]->mode.hdisplay, want);
	CHECK(card.outputs[0]->mode.hdisplay == want && card.outputs[0]->current && !card.needs_modeset);
	rescan(b, &card, !vt);
	rescan(b, &card, vt);
	CHECK(card.outputs[0]->mode.hdisplay == 48 && card.outputs[0]->current && !card.needs_modeset);
	finish(b, &card, outs, fd);
}

/* The connector lists no modes at one probe (an EDID not read, a KVM switched away), then its modes again: the
 * display stays at 48 throughout. Kept from start, it was dropped at the first rescan and made again at the
 * preferred mode ("connected after start") at the second. */
static void test_no_modes_moment(struct drm_backend *b, bool atomic, enum how how)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = start(b, &card, outs, atomic, how);

	settle(b, &card, 1000);
	n_fake_modes = 0;
	rescan(b, &card, false);
	CHECK(card.n_outputs == 1);
	n_fake_modes = 3;
	rescan(b, &card, false);
	printf("%s, %s, no modes at one probe: outputs %u, mode %u (want 1, 48)\n", atomic ? "atomic" : "legacy",
	       hows[how], card.n_outputs, card.n_outputs ? card.outputs[0]->mode.hdisplay : 0);
	CHECK(card.n_outputs == 1 && card.outputs[0]->mode.hdisplay == 48);
	if (card.n_outputs)
		finish(b, &card, outs, fd);
}

/* --mode 48x48 with two displays, the second of which lists only 64 (its preferred mode): the first shows 48, the
 * second its preferred 64 with a warning that lists its modes; the backend starts. Before, the second was not
 * used and the backend's start failed (-EINVAL): a user with two different monitors got no console at all. With
 * no display offering 48 the start still fails (a mode no display has is an error listing their modes); a display
 * without it connected later is shown at its preferred mode. */
static void test_mode_missing_on_one(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	struct drm_output outs[3];
	const struct drm_output *o1;
	bool changed = false;
	int ret, fd = memfd_card(b, &card, outs, atomic, widths, 0);

	card.n_outputs = 0;
	b->cfg.mode_width = b->cfg.mode_height = 48;
	fake_conns = 2;
	n_fake_modes_of[1] = 1;
	logbuf[0] = '\0';
	ret = drm_backend_scan(b, &changed);
	o1 = card.n_outputs == 2 ? card.outputs[1] : NULL;
	printf("%s, --mode 48x48, the second display lists only 64: start %d (want 0), outputs %u (want 2), second at "
	       "%u (want 64)\n", atomic ? "atomic" : "legacy", ret, card.n_outputs, o1 ? o1->mode.hdisplay : 0);
	CHECK(ret == 0 && changed && card.n_outputs == 2 && card.outputs[0]->mode.hdisplay == 48);
	CHECK(o1 && o1->conn_id == 301 && o1->mode.hdisplay == 64 && o1->mode_source == DRM_SOURCE_PREFERRED);
	CHECK(count(logbuf, "[CONNECTOR:301:DP-2]: mode 48x48 is not supported; available modes: 64x64; its "
			    "preferred mode 64x64 instead") == 1);
	/* kept at rescans, not said again */
	CHECK(!drm_backend_scan(b, &changed) && card.n_outputs == 2 && count(logbuf, "not supported") == 1);
	for (unsigned i = 0; i < card.n_outputs; i++)
		drm_output_destroy(card.outputs[i]);
	/* No display offers it: the start fails, as before. */
	card.n_outputs = 0;
	n_fake_modes_of[0] = 1;
	logbuf[0] = '\0';
	ret = drm_backend_scan(b, &changed);
	CHECK(ret == -EINVAL && strstr(logbuf, "mode 48x48 is offered by no connected display"));
	for (unsigned i = 0; i < card.n_outputs; i++)
		drm_output_destroy(card.outputs[i]);
	card.n_outputs = 0;
	n_fake_modes_of[0] = n_fake_modes_of[1] = 0;
	b->cfg.mode_width = b->cfg.mode_height = 0;
	memfd_card_free(b, &card, outs, fd);
}

/* Legacy (no test commit), 48 refused for good: the display falls back to 64. Each hotplug burst tried 48 again
 * (drmModeSetCrtc, refused: the CRTC turned off and set again at 64, the screen blank a moment each time); now only
 * when the connector's modes changed (a mode list another EDID gives) or at the switch back to the VT. */
static void test_legacy_no_retry_per_burst(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = start(b, &card, outs, false, ASKED);

	fall_back(b, &card);
	setcrtcs = 0;
	logbuf[0] = '\0';
	for (int i = 0; i < 5; i++)
		rescan(b, &card, false);
	printf("legacy, 48 refused, 5 hotplug bursts: %d SetCrtc, %d refusals said (want 0, 0)\n", setcrtcs,
	       count(logbuf, "falling back"));
	CHECK(setcrtcs == 0 && card.outputs[0]->mode.hdisplay == 64);
	/* the connector's modes change (another EDID read): 48 tried once more, refused, back to 64 */
	fake_modes[2] = mode_of(40, 0);
	logbuf[0] = '\0';
	rescan(b, &card, false);
	rescan(b, &card, false);
	printf("legacy, 48 refused, the modes changed, 2 bursts: %d refusals said (want 1)\n",
	       count(logbuf, "falling back"));
	CHECK(count(logbuf, "falling back") == 1 && card.outputs[0]->mode.hdisplay == 64);
	fake_modes[2] = mode_of(32, 0);
	finish(b, &card, outs, fd);
}

/* Legacy, 48 refused for a while (the display fell back to 64), then the monitor is unplugged and plugged again,
 * the same EDID (the same modes): it shows 48 again, as a display plugged anew does, whether the rescan saw it
 * disconnected in between or not (the replug came before the loop read the uevents: one rescan after both). */
static void test_legacy_replug(struct drm_backend *b, bool seen_unplugged)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = start(b, &card, outs, false, ASKED);

	fall_back(b, &card);
	refuse_w = 0;
	if (seen_unplugged) {
		int err;

		fake_unplugged = 1; /* its scan alone: nothing to settle */
		CHECK(drm_card_scan(&card, &err) && card.n_outputs == 0);
		drm_backend_update_canvas(b);
		fake_unplugged = 0;
	} else {
		drm_card_connector_event(&card, 300);
	}
	rescan(b, &card, false);
	printf("legacy, 48 refused once, the monitor re-plugged (%s): mode %u (want 48)\n",
	       seen_unplugged ? "seen unplugged" : "one rescan after both uevents",
	       card.n_outputs ? card.outputs[0]->mode.hdisplay : 0);
	CHECK(card.n_outputs == 1 && card.outputs[0]->mode.hdisplay == 48 && card.outputs[0]->current);
	finish(b, &card, outs, fd);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	for (int atomic = 1; atomic >= 0; atomic--) {
		for (int how = ASKED; how <= KEPT; how++) {
			test_kept(b, atomic, (enum how)how);
			test_back_after_fallback(b, atomic, (enum how)how, false);
			test_back_after_fallback(b, atomic, (enum how)how, true);
			test_no_modes_moment(b, atomic, (enum how)how);
		}
	}
	test_mode_missing_on_one(b, true);
	test_mode_missing_on_one(b, false);
	test_legacy_no_retry_per_burst(b);
	test_legacy_replug(b, true);
	test_legacy_replug(b, false);
	return stand_in_end(b);
}
