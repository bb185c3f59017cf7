/* tests/drm/test-drm-slots.c: an output's buffers moving through the slots (pending, queued, current), buffer
 * age deciding what is repainted, a failed commit forgetting the buffer's contents, and frame pacing for drivers
 * without vblank; in direct mode (no canvas in ordinary memory), a buffer catching up with the newest frame
 * before the program paints into it. Uses fake buffers in ordinary memory: no DRM device needed. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"

static int failures;

static bool covers(const struct drm_region *rg, int32_t x, int32_t y)
{
	for (unsigned i = 0; i < rg->n; i++)
		if (x >= rg->r[i].x && x < rg->r[i].x + rg->r[i].w && y >= rg->r[i].y && y < rg->r[i].y + rg->r[i].h)
			return true;
	return false;
}

static void damage(struct drm_output *out, struct drm_box box)
{
	drm_region_add(&out->damage, box);
	out->dirty = true;
}

/* An output of a card without a device: two 64x64 buffers in ordinary memory, filled with 0xaa. */
/* The kernel stood in for at one call (the linker's --wrap): a CRTC turned off (no mode), the legacy DPMS off of a fake
 * connector, which has no DPMS property (kms.c drm_card_set_active), is taken; a mode fails as the real call does
 * on the fake card's fd -1. */
int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode);
int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode)
{
	(void)fd, (void)crtc, (void)fb, (void)x, (void)y, (void)conns;
	if (n == 0 && !mode)
		return 0;
	errno = EBADF;
	return -1;
}

static void fake_output(struct drm_backend *b, struct drm_card *card, struct drm_output *out)
{
	card->b = b;
	card->fd = -1;
	out->card = card;
	out->period_ns = 16666667;
	for (int i = 0; i < DRM_BUFFERS; i++) {
		out->bufs[i] = (struct drm_buffer){.width = 64, .height = 64, .stride = 256, .size = 256 * 64};
		out->bufs[i].map = malloc(out->bufs[i].size);
		memset(out->bufs[i].map, 0xaa, out->bufs[i].size);
	}
	drm_region_set_full(&out->damage);
}

#define PX(buf, x, y) (((uint32_t *)(buf)->map)[(y) * 64 + (x)])

/* Direct mode: the program paints into the prepared buffer; before that the buffer gets, from the buffer on
 * screen, exactly the damage of the frames it missed. */
static void test_direct(struct drm_backend *b)
{
	struct drm_card card = {0};
	struct drm_output out = {0};
	struct drm_region clips;
	uint32_t stride, *px;

	b->direct = true;
	fake_output(b, &card, &out);

	/* Frame 1: no buffer holds a frame: black, everything sent. */
	px = drm_output_prepare(&out, &stride, NULL, 0);
	CHECK(px == (uint32_t *)out.bufs[0].map && stride == 256 && px[0] == 0);
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == px); /* the same buffer until it is committed */
	PX(&out.bufs[0], 1, 1) = 0x111111;
	CHECK(drm_output_paint(&out, true, &clips) == 0 && out.pending == &out.bufs[0]);
	CHECK(clips.n == 1 && clips.r[0].w == 64 && clips.r[0].h == 64);
	drm_output_commit_done(&out, 1);
	CHECK(!out.prepared);
	drm_output_flip_done(&out, 100);

	/* Frame 2: the other buffer (never shown) gets all of frame 1, then the program's damage. */
	px = drm_output_prepare(&out, &stride, NULL, 0);
	CHECK(px == (uint32_t *)out.bufs[1].map && PX(&out.bufs[1], 1, 1) == 0x111111 && PX(&out.bufs[1], 9, 9) == 0);
	PX(&out.bufs[1], 5, 40) = 0x222222;
	damage(&out, (struct drm_box){0, 40, 64, 8});
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[1]);
	drm_output_commit_done(&out, 2);
	drm_output_flip_done(&out, 101);

	/* Frame 3 into buffer 0 (age 2): frame 2's damage is copied from buffer 1, nothing else. */
	PX(&out.bufs[0], 30, 2) = 0x777777;
	PX(&out.bufs[1], 30, 2) = 0x666666; /* outside every damage: must not be copied */
	px = drm_output_prepare(&out, &stride, NULL, 0);
	CHECK(px == (uint32_t *)out.bufs[0].map);
	CHECK(PX(&out.bufs[0], 5, 40) == 0x222222 && PX(&out.bufs[0], 30, 2) == 0x777777);
	PX(&out.bufs[0], 1, 50) = 0x333333;
	damage(&out, (struct drm_box){0, 48, 8, 8});
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	CHECK(covers(&clips, 1, 49) && covers(&clips, 30, 44) && !covers(&clips, 30, 2) && !covers(&clips, 30, 20));

	/* The commit fails: what the program painted stays in the prepared buffer, sent whole next time. */
	drm_output_commit_failed(&out);
	CHECK(!out.pending && out.prepared == &out.bufs[0] && out.dirty);
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == (uint32_t *)out.bufs[0].map && PX(&out.bufs[0], 1, 50) == 0x333333);
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	CHECK(clips.n == 1 && clips.r[0].w == 64 && clips.r[0].h == 64);
	drm_output_commit_done(&out, 3);

	/* A commit in flight and a buffer on screen: nothing to paint into. */
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == NULL);
	drm_output_flip_done(&out, 102);
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == (uint32_t *)out.bufs[1].map);
	CHECK(PX(&out.bufs[1], 1, 50) == 0x333333 && PX(&out.bufs[1], 30, 2) == 0x666666);

	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	b->direct = false;
}

/* Direct mode with a promise: what the program will repaint (cover) is not copied, everything else the buffer
 * missed is, including the gaps left and right of a cover box and the rows above and below it. */
static void test_direct_cover(struct drm_backend *b)
{
	struct drm_card card = {0};
	struct drm_output out = {0};
	struct drm_region clips;
	const struct drm_box cover[] = {{8, 16, 32, 16}, {0, 40, 64, 8}, {40, 16, 8, 4}};
	uint32_t stride;

	b->direct = true;
	fake_output(b, &card, &out);
	/* Frame 1 into buffer 0, frame 2 (everything damaged) into buffer 1. */
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == (uint32_t *)out.bufs[0].map);
	CHECK(drm_output_paint(&out, true, &clips) == 0);
	drm_output_commit_done(&out, 1);
	drm_output_flip_done(&out, 100);
	CHECK(drm_output_prepare(&out, &stride, NULL, 0) == (uint32_t *)out.bufs[1].map);
	for (int i = 0; i < 64 * 64; i++)
		((uint32_t *)out.bufs[1].map)[i] = 0x222222;
	drm_region_set_full(&out.damage);
	CHECK(drm_output_paint(&out, true, &clips) == 0);
	drm_output_commit_done(&out, 2);
	drm_output_flip_done(&out, 101);

	/* Frame 3 into buffer 0 (age 2, frame 2 damaged everything): only what cover leaves out is copied. */
	for (int i = 0; i < 64 * 64; i++)
		((uint32_t *)out.bufs[0].map)[i] = 0x111111;
	uint64_t copied = out.card->b->stats.pixels_copied;
	CHECK(drm_output_prepare(&out, &stride, cover, 3) == (uint32_t *)out.bufs[0].map);
	for (int y = 0; y < 64; y++) {
		for (int x = 0; x < 64; x++) {
			bool in = false;
			for (int k = 0; k < 3; k++)
				in |= x >= cover[k].x && x < cover[k].x + cover[k].w && y >= cover[k].y &&
				      y < cover[k].y + cover[k].h;
			if (PX(&out.bufs[0], x, y) != (in ? 0x111111u : 0x222222u)) {
				fprintf(stderr, "pixel %d,%d: %06x\n", x, y, PX(&out.bufs[0], x, y));
				failures++;
				y = 64;
				break;
			}
		}
	}
	CHECK(out.card->b->stats.pixels_copied - copied == 64 * 64 - 32 * 16 - 64 * 8 - 8 * 4);
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	drm_output_commit_done(&out, 3);

	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	b->direct = false;
}


/* A modeset put off because one output's flip is in flight (a monitor plugged in during a flip of a clone) must
 * leave every output as it was: a buffer left pending was never free again, so the retry found no buffer for the
 * other output, marked it failed and turned its CRTC off (a monitor went dark for good). */
static void test_modeset_busy(struct drm_backend *b)
{
	struct drm_card card = {0};
	struct drm_output a = {0}, o2 = {0};

	fake_output(b, &card, &a);
	fake_output(b, &card, &o2);
	card.outputs[0] = &a;
	card.outputs[1] = &o2;
	card.n_outputs = 2;
	card.needs_modeset = true;
	a.current = &a.bufs[0];
	a.bufs[0].frame = 1;
	a.frame = 1;
	o2.current = &o2.bufs[0];
	o2.queued = &o2.bufs[1];
	o2.inflight = true;
	o2.inflight_seq = 7;
	CHECK(drm_card_modeset(&card) == -EBUSY);
	CHECK(!a.pending && !o2.pending && !a.failed && card.needs_modeset);
	/* The flip completes; the retry paints both (the commit itself fails: there is no device). */
	drm_output_flip_done(&o2, 100);
	CHECK(drm_card_modeset(&card) < 0);
	CHECK(!a.failed && !o2.failed && !a.pending && !o2.pending);
	for (int i = 0; i < DRM_BUFFERS; i++) {
		free(a.bufs[i].map);
		free(o2.bufs[i].map);
	}
}


static int outputs_changed;

static void on_outputs_changed(void *ud)
{
	(void)ud;
	outputs_changed++;
}

static struct drm_output *sized_output(struct drm_card *card, uint16_t w, uint16_t h, uint32_t clock)
{
	struct drm_output *out = calloc(1, sizeof(*out));

	out->card = card;
	out->mode.hdisplay = w;
	out->mode.vdisplay = h;
	out->mode.clock = clock;
	return out;
}

/* An output replaced by one of the same size (the monitor's preferred mode changed only its refresh rate, or the
 * cable moved to another connector) has new, empty buffers: when painted directly, the program must be told to
 * repaint all of it, or the console came back black but for what changed later. */
static void test_replaced_same_size(struct drm_backend *b)
{
	struct drm_card card = {.b = b, .fd = -1};

	b->iface.outputs_changed = on_outputs_changed;
	card.outputs[card.n_outputs++] = sized_output(&card, 64, 48, 25000);
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	CHECK(outputs_changed == 1 && b->direct && b->canvas.width == 64 && b->canvas.height == 48);
	/* What drm_card_scan does when the chosen mode changes. */
	drm_output_destroy(card.outputs[0]);
	card.outputs[0] = sized_output(&card, 64, 48, 31500);
	drm_backend_update_canvas(b);
	CHECK(outputs_changed == 2);
	/* Nothing changed: no callback. */
	drm_backend_update_canvas(b);
	CHECK(outputs_changed == 2);
	drm_output_destroy(card.outputs[0]);
	b->n_cards = 0;
	b->iface.outputs_changed = NULL;
	drm_backend_update_canvas(b);
}

/* A connected connector without modes is skipped, not an error: the others are still used (without --mode the
 * program refused to start when one monitor had no EDID). --mode missing from a connector's modes is said to the
 * backend (-EINVAL), the connector shown at its preferred mode. */
static void test_conn_without_modes(struct drm_backend *b)
{
	struct drm_card card = {.b = b, .fd = -1};
	drmModeModeInfo modes[2] = {{.hdisplay = 1024, .vdisplay = 768, .type = DRM_MODE_TYPE_PREFERRED},
				    {.hdisplay = 800, .vdisplay = 600}};
	drmModeConnector empty = {.connection = DRM_MODE_CONNECTED}, full = empty;
	drmModeModeInfo m;
	int err = 0;

	full.modes = modes;
	full.count_modes = 2;
	CHECK(drm_card_choose_mode(&card, &empty, "empty", &m, &err) == -1 && err == 0);
	CHECK(drm_card_choose_mode(&card, &full, "full", &m, &err) == DRM_SOURCE_PREFERRED && m.hdisplay == 1024);
	b->cfg.mode_width = 800;
	b->cfg.mode_height = 600;
	err = 0;
	CHECK(drm_card_choose_mode(&card, &empty, "empty", &m, &err) == -1 && err == 0);
	CHECK(drm_card_choose_mode(&card, &full, "full", &m, &err) == DRM_SOURCE_ASKED && m.hdisplay == 800);
	b->cfg.mode_width = 1280;
	b->cfg.mode_height = 720;
	err = 0;
	/* --mode missing: the preferred mode instead, -EINVAL for the backend (an error at start when no display has
	 * it: test-drm-rescan test_mode_missing_on_one) */
	CHECK(drm_card_choose_mode(&card, &full, "full", &m, &err) == DRM_SOURCE_PREFERRED && m.hdisplay == 1024 &&
	      err == -EINVAL);
	b->cfg.mode_width = b->cfg.mode_height = 0;
}

static bool loop_fd_ready(struct drm_backend *b)
{
	struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

	return poll(&p, 1, 0) > 0;
}

/* The DPMS deadline passing while a flip is in flight: blanking waits for the flip, and until then the loop's fd
 * must not be ready (the deadline in the past re-armed the timer at once: the loop spun until the flip event, up
 * to the watchdog's second when that event was lost). The display blanks as soon as the flip completes. */
static void test_blank_during_flip(struct drm_backend *b)
{
	struct drm_card card = {0};
	struct drm_output out = {0};

	fake_output(b, &card, &out);
	card.outputs[card.n_outputs++] = &out;
	b->cards[b->n_cards++] = &card;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	out.current = &out.bufs[0];
	drm_output_commit_done(&out, 1);
	b->dpms_timeout_s = 1;
	b->last_activity_ns = drm_now_ns() - 2000000000LL;
	/* What on_timer does when the DPMS deadline comes. */
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b));
	for (int i = 0; i < 3; i++) {
		CHECK(!loop_fd_ready(b));
		drm_backend_dispatch(b);
	}
	CHECK(!drm_backend_is_blanked(b));
	/* The flip event (what drm_card_handle_events does), then the dispatch that handled it. */
	drm_output_flip_done(&out, 100);
	drm_backend_dispatch(b);
	CHECK(drm_backend_is_blanked(b));
	drm_backend_notify_input(b);
	CHECK(!drm_backend_is_blanked(b));
	/* Input while blanking waits for a flip: no blanking when the flip completes. */
	out.inflight = false;
	drm_output_commit_done(&out, 2);
	b->last_activity_ns = drm_now_ns() - 2000000000LL;
	drm_backend_set_blank(b, true);
	drm_backend_notify_input(b);
	drm_output_flip_done(&out, 101);
	drm_backend_dispatch(b);
	CHECK(!drm_backend_is_blanked(b));
	b->dpms_timeout_s = 0;
	b->n_cards = 0;
	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
}

/* A frame that only flips the blink phase (drm_backend_present_idle) is not activity: under a blinking cursor
 * the display must still blank after --dpms-timeout, as the kernel's VT does. (Before the canvas exists: the
 * present itself then sends nothing.) */
static void test_idle_present(struct drm_backend *b)
{
	struct drm_box box = {0, 0, 8, 16};
	int64_t old = drm_now_ns() - 2000000000LL;

	b->last_activity_ns = old;
	drm_backend_present_idle(b, &box, 1, false);
	CHECK(b->last_activity_ns == old);
	drm_backend_present(b, &box, 1, false);
	CHECK(b->last_activity_ns > old);
}

/* --dpms-timeout changed while running (a configuration reload): the new timeout counts from the change, so a
 * shorter one does not blank a screen the user is looking at the moment it is set. */
static void test_dpms_set(struct drm_backend *b)
{
	int64_t before = drm_now_ns();

	b->last_activity_ns = before - 2000000000LL;
	drm_backend_set_dpms_timeout(b, 1);
	CHECK(b->dpms_timeout_s == 1 && b->last_activity_ns >= before);
	drm_backend_set_dpms_timeout(b, 0);
	CHECK(b->dpms_timeout_s == 0);
}

/* The largest --dpms-timeout (2^30 s, config.c's limit): in nanoseconds it must neither wrap nor land in the past.
 * The deadline is armed 2^30 s on; a second before it the loop does not blank, at it it does, and input wakes. */
static void test_dpms_largest(struct drm_backend *b)
{
	const int64_t largest = (int64_t)(1u << 30) * 1000000000;
	uint32_t w, h;

	drm_backend_get_size(b, &w, &h);
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	drm_backend_set_dpms_timeout(b, 1u << 30);
	printf("dpms-timeout 2^30 s: armed %+lld ns from the last activity (want %+lld)\n",
	       (long long)(b->armed_ns - b->last_activity_ns), (long long)largest);
	CHECK(b->armed_ns == b->last_activity_ns + largest && b->armed_ns > drm_now_ns());
	b->last_activity_ns = drm_now_ns() - largest + 1000000000;
	drm_backend_dispatch(b);
	CHECK(!drm_backend_is_blanked(b));
	b->last_activity_ns = drm_now_ns() - largest;
	drm_backend_set_dpms_timeout(b, 1u << 30); /* re-armed at the deadline, now in the past */
	b->last_activity_ns = drm_now_ns() - largest;
	b->armed_ns = 0;
	drm_backend_dispatch(b);
	CHECK(loop_fd_ready(b));
	drm_backend_dispatch(b);
	CHECK(drm_backend_is_blanked(b));
	drm_backend_notify_input(b);
	CHECK(!drm_backend_is_blanked(b));
	drm_backend_set_dpms_timeout(b, 0);
	CHECK(drm_backend_resize_canvas(b, w, h) == 0);
}

int main(void)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend *b;
	struct drm_card card = {0};
	struct drm_output out = {0};
	struct drm_region clips;
	int ret = drm_backend_create(&b, &cfg, NULL, NULL);

	if (ret < 0) {
		fprintf(stderr, "drm_backend_create: %s\n", strerror(-ret));
		return 1;
	}
	test_idle_present(b);
	test_dpms_set(b);
	test_dpms_largest(b);
	CHECK(drm_backend_resize_canvas(b, 48, 64) == 0);
	fake_output(b, &card, &out);

	/* Frame 1: a buffer of unknown contents is cleared and sent whole. */
	CHECK(drm_output_can_take_frame(&out, drm_now_ns()));
	CHECK(drm_output_paint(&out, false, &clips) == 0);
	CHECK(out.pending == &out.bufs[0]);
	CHECK(out.bufs[0].map[0] == 0 && clips.n == 1 && clips.r[0].w == 64 && clips.r[0].h == 64);
	drm_output_commit_done(&out, 1);
	CHECK(out.queued == &out.bufs[0] && !out.pending && out.inflight && !out.dirty);
	CHECK(!drm_output_can_take_frame(&out, drm_now_ns()));
	drm_output_flip_done(&out, 100); /* a real vblank sequence: no self-pacing */
	CHECK(out.current == &out.bufs[0] && !out.queued && !out.inflight && !out.fake_vblank);
	CHECK(drm_output_can_take_frame(&out, drm_now_ns()));

	/* Frame 2: the other buffer (never painted: whole). */
	damage(&out, (struct drm_box){0, 16, 64, 16});
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[1]);
	drm_output_commit_done(&out, 2);
	drm_output_flip_done(&out, 101);
	CHECK(out.current == &out.bufs[1]);

	/* Frame 3 into buffer 0 (age 2): this frame's damage plus frame 2's, nothing else. */
	struct drm_canvas c;
	drm_backend_get_canvas(b, &c);
	c.pixels[50 * 48 + 5] = 0x123456; /* in this frame's damage */
	c.pixels[2 * 48 + 30] = 0x654321; /* outside all damage: must not be copied */
	((uint32_t *)out.bufs[0].map)[2 * 64 + 30] = 0x777777;
	damage(&out, (struct drm_box){0, 48, 8, 8});
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	CHECK(covers(&clips, 1, 49) && covers(&clips, 30, 20) && !covers(&clips, 30, 2) && !covers(&clips, 30, 40));
	CHECK(((uint32_t *)out.bufs[0].map)[50 * 64 + 5] == 0x123456);
	CHECK(((uint32_t *)out.bufs[0].map)[2 * 64 + 30] == 0x777777);

	/* The commit fails: the buffer's contents are forgotten, the damage kept. */
	drm_output_commit_failed(&out);
	CHECK(!out.pending && out.bufs[0].frame == 0 && out.dirty);
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	CHECK(clips.n == 1 && clips.r[0].w == 64 && clips.r[0].h == 64);
	drm_output_commit_done(&out, 3);

	/* Stale and early events: a flip event without a commit in flight changes nothing. */
	drm_output_flip_done(&out, 0);
	CHECK(out.current == &out.bufs[0] && out.fake_vblank);
	struct drm_buffer *cur = out.current;
	drm_output_flip_done(&out, 0);
	CHECK(out.current == cur);
	/* Without vblank (sequence 0) the next frame waits for one refresh. */
	int64_t now = drm_now_ns();
	CHECK(!drm_output_can_take_frame(&out, now));
	CHECK(drm_output_can_take_frame(&out, now + out.period_ns));
	/* Both buffers busy (one queued, one current): no buffer to paint. */
	damage(&out, (struct drm_box){0, 0, 1, 1});
	CHECK(drm_output_paint(&out, false, &clips) == 0);
	drm_output_commit_done(&out, 4);
	struct drm_region before = out.damage;
	CHECK(drm_output_paint(&out, false, &clips) == -EBUSY && !out.pending);
	CHECK(out.damage.n == before.n);

	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	test_direct(b);
	test_direct_cover(b);
	test_modeset_busy(b);
	test_replaced_same_size(b);
	test_conn_without_modes(b);
	test_blank_during_flip(b);
	drm_backend_destroy(b);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
