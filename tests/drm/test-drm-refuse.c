/* tests/drm/test-drm-refuse.c: what the kernel or the driver may refuse that a virtual GPU never does, each a
 * display that stayed dark or frozen: a DPMS off (marked blanked, a frozen picture until a key), a single
 * display's mode (retried each second for ever), a canvas's memory (a 0x0 canvas), a buffer in direct mode (the
 * program not told to paint again), a driver's pitch short of a row (written past the mapping). The kernel is
 * stood in for at libdrm's boundary (tests/drm/stand-in-kernel.h); everything else is drm/'s own code. */
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

/* The DPMS-off commit is refused (a driver that cannot turn the CRTC off now): the display stays lit, so it must
 * stay live. It was marked blanked: nothing repainted, a frozen picture until a key. Said once, tried again at the
 * next timeout. */
static void test_blank_refused(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];

	one_shown(b, &card, outs);
	out->dirty = false;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	logbuf[0] = '\0';
	refuse_blank = EINVAL;
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b));
	CHECK(drm_backend_can_render(b));
	CHECK(count(logbuf, "DPMS") == 1);
	struct drm_box box = {0, 0, 8, 8};
	CHECK(drm_backend_present(b, &box, 1, false) == 0 && out->inflight);
	drm_output_flip_done(out, 100);
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b) && count(logbuf, "DPMS") == 1);
	/* Taken now: blanked, and said so. */
	refuse_blank = 0;
	drm_backend_set_blank(b, true);
	CHECK(drm_backend_is_blanked(b) && !drm_backend_can_render(b));
	drm_backend_set_blank(b, false);
	drm_output_flip_done(out, 101);
	/* EBUSY (a commit still in the hardware): not said, tried again at the DPMS deadline 20 ms on. */
	drm_backend_set_dpms_timeout(b, 600);
	refuse_blank = EBUSY;
	logbuf[0] = '\0';
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b) && !strstr(logbuf, "DPMS"));
	refuse_blank = 0;
	for (int64_t end = drm_now_ns() + 500000000; drm_now_ns() < end && !drm_backend_is_blanked(b);) {
		dispatch_woken(b, 10);
		if (out->inflight)
			drm_output_flip_done(out, 102);
	}
	CHECK(drm_backend_is_blanked(b));
	drm_backend_set_dpms_timeout(b, 0);
	drm_backend_set_blank(b, false);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* A legacy card of two displays, both shown (frame 1 on screen), registered with the backend, a 64x64 canvas;
 * DPMS_PROP: their connectors' DPMS property id, 0 for none. */
static void two_shown_legacy(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, uint32_t dpms_prop)
{
	make_card(b, card, outs, false);
	card->n_outputs = 2;
	card->needs_modeset = false;
	for (int i = 0; i < 2; i++) {
		outs[i].conn_props[CONN_DPMS] = dpms_prop;
		outs[i].bufs[0].frame = outs[i].frame = 1;
		outs[i].current = &outs[i].bufs[0];
		outs[i].dirty = false;
		dpms_of[i] = DRM_MODE_DPMS_ON;
		fb_of_crtc[i] = outs[i].bufs[0].fb_id;
	}
	b->cards[b->n_cards++] = card;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
}

/* Legacy, two displays, the driver turns the first off and refuses the second (its DPMS property): the card is not
 * blanked, so the first must be lit again. It was left dark (DPMS off) while the backend went on as if live: half
 * the screens black until the next modeset (a hotplug or a VT switch; a key does nothing, nothing is blanked). */
static void test_blank_refused_legacy_partial(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	two_shown_legacy(b, &card, outs, 904);
	logbuf[0] = '\0';
	refuse_dpms_conn = 301;
	drm_backend_set_blank(b, true);
	printf("legacy DPMS off refused on the second display: blanked %d, DPMS of the first %llu, of the second %llu "
	       "(want 0, %d, %d)\n",
	       drm_backend_is_blanked(b), (unsigned long long)dpms_of[0], (unsigned long long)dpms_of[1],
	       DRM_MODE_DPMS_ON, DRM_MODE_DPMS_ON);
	CHECK(!drm_backend_is_blanked(b) && drm_backend_can_render(b));
	CHECK(dpms_of[0] == DRM_MODE_DPMS_ON && dpms_of[1] == DRM_MODE_DPMS_ON);
	CHECK(count(logbuf, "DPMS") == 1);
	/* Taken by both: blanked, both off; and both on again with the unblank. */
	refuse_dpms_conn = 0;
	drm_backend_set_blank(b, true);
	CHECK(drm_backend_is_blanked(b) && dpms_of[0] == DRM_MODE_DPMS_OFF && dpms_of[1] == DRM_MODE_DPMS_OFF);
	drm_backend_set_blank(b, false);
	CHECK(!drm_backend_is_blanked(b) && dpms_of[0] == DRM_MODE_DPMS_ON && dpms_of[1] == DRM_MODE_DPMS_ON);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Legacy, two displays whose connectors have no DPMS property (its lookup failed; a driver without it): the DPMS
 * off was taken as done with nothing turned off, so the displays stayed lit with the last frame frozen (nothing is
 * painted while blanked) until a key. Each CRTC is turned off instead, and the unblank's modeset lights it. */
static void test_blank_legacy_no_dpms_property(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	two_shown_legacy(b, &card, outs, 0);
	drm_backend_set_blank(b, true);
	printf("legacy blank without a DPMS property: blanked %d, CRTCs scanning out fb %u and %u (want 1, 0 and 0)\n",
	       drm_backend_is_blanked(b), fb_of_crtc[0], fb_of_crtc[1]);
	CHECK(drm_backend_is_blanked(b));
	CHECK(fb_of_crtc[0] == 0 && fb_of_crtc[1] == 0);
	drm_backend_set_blank(b, false);
	printf("and unblanked: CRTCs scanning out fb %u and %u (want both set)\n", fb_of_crtc[0], fb_of_crtc[1]);
	CHECK(!drm_backend_is_blanked(b) && fb_of_crtc[0] != 0 && fb_of_crtc[1] != 0);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Legacy, two displays: the first's CRTC refused, the second without a buffer (left out before the modeset). Nothing
 * is shown; the first's mode is to fall back, not the second's, which was never tried: it went to another mode
 * (its mode_refused set with the first's), and the log said "the other outputs are" shown when none was. */
static void test_legacy_none_shown(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, false);
	card.n_outputs = 2;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(outs[1].bufs[k].map);
		outs[1].bufs[k] = (struct drm_buffer){0};
	}
	dumb_ok = false;
	refuse_crtc = 100;
	logbuf[0] = '\0';
	int ret = drm_card_modeset(&card);
	printf("legacy, first CRTC refused, second without a buffer: %d (want %d); mode refused: first %d, second %d "
	       "(want 1, 0)\n", ret, -EINVAL, outs[0].mode_refused, outs[1].mode_refused);
	CHECK(ret == -EINVAL && outs[0].mode_refused && !outs[1].mode_refused && outs[1].failed);
	CHECK(!strstr(logbuf, "the other outputs") && count(logbuf, "drmModeSetCrtc") == 1);
	/* the same again (the card's retry): not said again */
	CHECK(drm_card_modeset(&card) == -EINVAL && count(logbuf, "drmModeSetCrtc") == 1);
	refuse_crtc = 0;
	outs[0].mode_refused = false;
	free_card(&card, outs);
}

/* Legacy, two displays, the second's drmModeSetCrtc fails with EACCES: the VT was switched away between the two
 * (the seat took the DRM master), no refusal of the display. It was marked rejected as if the kernel had refused
 * it, and that stayed while it was not shown: back on the VT, with no buffer for it (the GPU's memory full), it got
 * no retry of its buffer a second later, dark until a hotplug or the next VT switch. */
static void test_left_out_eacces(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, false);
	card.n_outputs = 2;
	b->cards[b->n_cards++] = &card;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	refuse_crtc = 101;
	refuse_crtc_errno = EACCES;
	logbuf[0] = '\0';
	CHECK(drm_card_modeset(&card) == 0 && outs[1].failed);
	refuse_crtc = 0;
	refuse_crtc_errno = EINVAL;
	printf("legacy, second CRTC EACCES (VT switched away): rejected %d (want 0); said as refused %d (want 0)\n",
	       outs[1].rejected, count(logbuf, "the other outputs are"));
	CHECK(!outs[1].rejected && !strstr(logbuf, "the other outputs are"));
	/* Back on the VT: the modeset again, no buffer for the second; its buffer is tried again a second later. */
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(outs[1].bufs[k].map);
		outs[1].bufs[k] = (struct drm_buffer){0};
	}
	dumb_ok = false;
	card.needs_modeset = true;
	drm_backend_dispatch(b);
	printf("  back on the VT, no buffer for the second: modeset %d, its buffer retry armed %d (want 0, 1)\n",
	       card.needs_modeset, outs[1].buffer_retry_ns != 0);
	CHECK(!card.needs_modeset && outs[1].failed && outs[1].buffer_failed && outs[1].buffer_retry_ns != 0);
	outs[1].buffer_retry_ns = 0;
	b->n_cards = 0;
	drm_backend_update_canvas(b);
	free_card(&card, outs);
}

static int readies;

static void on_frame_ready(void *ud)
{
	struct drm_canvas c;

	readies++;
	drm_backend_prepare_canvas(ud, &c, NULL, 0);
}

/* Direct mode, the buffer to paint into cannot be made (the GPU's memory is full): the program is told to paint
 * again on the card's retry timer, a second later. Nothing woke it but the next key or output: a dark or frozen
 * display until then. */
static void test_direct_no_buffer(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_canvas c;
	int64_t end;

	make_card(b, &card, outs, true);
	card.n_outputs = 1;
	card.needs_modeset = false;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(outs[0].bufs[k].map);
		outs[0].bufs[k] = (struct drm_buffer){0};
	}
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	CHECK(b->direct && b->canvas.width == 64);
	/* As after the program's last frame: nothing waits to be shown, no timer of an earlier test left. */
	outs[0].dirty = false;
	drm_region_clear(&outs[0].damage);
	for (int i = 0; i < 3; i++)
		drm_backend_dispatch(b);
	dumb_creates = readies = 0;
	logbuf[0] = '\0';
	drm_backend_prepare_canvas(b, &c, NULL, 0);
	CHECK(!c.pixels && dumb_creates == 1);
	b->iface.frame_ready = on_frame_ready;
	b->ud = b;
	end = drm_now_ns() + 1500000000;
	while (drm_now_ns() < end && readies == 0) {
		dispatch_woken(b, 50);
	}
	CHECK(readies >= 1 && dumb_creates >= 2 && dumb_creates <= 3);
	CHECK(count(logbuf, "dumb buffer") == 1);
	b->iface.frame_ready = NULL;
	b->n_cards = 0;
	drm_backend_update_canvas(b);
	free_card(&card, outs);
}

/* A single display whose mode the kernel refuses (a mode kept with use-original-mode, or --mode): the preferred
 * mode is tried instead, said once, and the canvas follows; it was retried every second for ever, the display
 * dark. Atomic and legacy. */
static void test_single_mode_refused(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];
	struct drm_canvas c;
	int64_t end;
	int fd = memfd_card(b, &card, outs, atomic, (const uint16_t[3]){48, 64, 32}, 1);

	out->mode_source = DRM_SOURCE_KEPT;
	refuse_w = 64;
	b->iface.outputs_changed = on_changed;
	drm_backend_update_canvas(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64);
	changes = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	end = drm_now_ns() + 1000000000;
	while (drm_now_ns() < end && !out->current && !out->inflight) {
		dispatch_woken(b, 10);
		if (changes)
			drm_backend_present(b, NULL, 0, true);
	}
	CHECK(out->mode.hdisplay == 48 && (out->current || out->inflight) && !card.needs_modeset);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 48 && changes >= 1);
	CHECK(count(logbuf, "refuses") == 1);
	/* the display refused is the only one: no "the other outputs are" shown (legacy said it) */
	CHECK(!strstr(logbuf, "the other outputs"));
	refuse_w = 0;
	memfd_card_free(b, &card, outs, fd);
}

/* The preferred mode refused for a while (a DP link trained at a lower rate): the display falls back to the next
 * mode, and a later hotplug uevent (or the switch back to the VT: the same rescan) tries the preferred mode again
 * with a test commit, going back to it when the kernel takes it. It stayed on the lower mode until unplugged; a
 * test refused leaves the fallback as it is (no modeset). */
static void test_fallback_retried(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int err, fd = scanned_card(b, &card, outs, (const uint16_t[3]){64, 48, 32}, true);

	CHECK(card.outputs[0]->mode.hdisplay == 64);
	refuse_w = 64;
	settle(b, &card, 1000);
	CHECK(card.outputs[0]->mode.hdisplay == 48 && card.outputs[0]->current);
	/* a hotplug while the kernel still refuses it: only a test commit, the fallback stays */
	int commits0 = commits, tests0 = tests;
	uint64_t destroyed = b->outputs_destroyed;
	drm_card_scan(&card, &err);
	printf("preferred still refused at a hotplug: mode %u (want 48), test commits %d (want 1), commits %d, "
	       "outputs made again %u (want 0)\n", card.outputs[0]->mode.hdisplay, tests - tests0, commits - commits0,
	       (unsigned)(b->outputs_destroyed - destroyed));
	CHECK(card.outputs[0]->mode.hdisplay == 48 && tests - tests0 == 1 && commits == commits0 &&
	      b->outputs_destroyed == destroyed && !card.needs_modeset);
	/* taken again: the next hotplug goes back to it */
	refuse_w = 0;
	drm_card_scan(&card, &err);
	drm_backend_update_canvas(b); /* as the hotplug path does */
	settle(b, &card, 1000);
	printf("preferred taken again at a hotplug: mode %u (want 64)\n", card.outputs[0]->mode.hdisplay);
	CHECK(card.outputs[0]->mode.hdisplay == 64 && card.outputs[0]->current && !card.needs_modeset);
	struct drm_canvas c;
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64);
	scanned_card_free(b, &card, outs, fd);
}

/* Every mode refused (the card refuses every commit for a while): once the fallbacks are used up, the display goes
 * back to its first mode, tried each second, and shows it when the kernel takes it again. It stayed on the last
 * mode tried, often the smallest. */
static void test_fallback_spent(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = scanned_card(b, &card, outs, (const uint16_t[3]){64, 48, 32}, true);

	refuse_fd = fd;
	settle(b, &card, 300);
	printf("every mode refused: mode %u after the fallbacks (want 64), spent %d\n", card.outputs[0]->mode.hdisplay,
	       card.outputs[0]->fallback_spent);
	CHECK(card.outputs[0]->mode.hdisplay == 64 && card.outputs[0]->fallback_spent);
	CHECK(count(logbuf, "no other mode to fall back to") == 1);
	refuse_fd = -100;
	settle(b, &card, 1500);
	CHECK(card.outputs[0]->mode.hdisplay == 64 && card.outputs[0]->current && !card.needs_modeset);
	/* shown: a later refusal walks the modes again */
	CHECK(!card.outputs[0]->fallback_spent && card.outputs[0]->fallback_next == 0);
	scanned_card_free(b, &card, outs, fd);
}

/* No canvas can be allocated for the display's mode: it falls back to a smaller mode of its connector, said;
 * the canvas was left 0x0, nothing shown until a hotplug. */
static void test_canvas_refused(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];
	struct drm_canvas c;
	int64_t end;
	int fd = memfd_card(b, &card, outs, true, (const uint16_t[3]){64, 80, 48}, 0);

	card.prefer_shadow = true;
	refuse_alloc = 64 * 64 * 4;
	drm_backend_update_canvas(b);
	end = drm_now_ns() + 1000000000;
	for (drm_backend_get_canvas(b, &c); drm_now_ns() < end && !c.width; drm_backend_get_canvas(b, &c))
		dispatch_woken(b, 10);
	CHECK(c.width == 48 && c.pixels && out->mode.hdisplay == 48);
	CHECK(count(logbuf, "cannot allocate a 64x64 canvas") == 1);
	refuse_alloc = 0;
	memfd_card_free(b, &card, outs, fd);
}

/* A driver's dumb buffer whose pitch is shorter than a row of the mode: refused (said), not written past its
 * mapping row by row (the copies and the program write width * 4 bytes a row, height rows). */
static void test_short_pitch(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = memfd_card(b, &card, outs, true, (const uint16_t[3]){64, 48, 32}, 0);

	short_pitch = 4;
	CHECK(drm_output_buffers_init(&outs[0]) < 0 && !outs[0].bufs[0].map && outs[0].buffer_failed);
	CHECK(count(logbuf, "too small") == 1);
	short_pitch = 0;
	CHECK(drm_output_buffers_init(&outs[0]) == 0 && outs[0].bufs[0].map);
	memfd_card_free(b, &card, outs, fd);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	test_blank_refused(b);
	test_blank_refused_legacy_partial(b);
	test_blank_legacy_no_dpms_property(b);
	test_legacy_none_shown(b);
	test_left_out_eacces(b);
	test_direct_no_buffer(b);
	test_single_mode_refused(b, true);
	test_single_mode_refused(b, false);
	test_canvas_refused(b);
	test_fallback_retried(b);
	test_fallback_spent(b);
	test_short_pitch(b);
	return stand_in_end(b);
}
