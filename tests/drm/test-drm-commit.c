/* tests/drm/test-drm-commit.c: modesets the kernel refuses in part, on a card of several outputs. The kernel is
 * stood in for at libdrm's boundary (tests/drm/stand-in-kernel.h, the linker's --wrap): the atomic commit sees the
 * properties drm/ put in the request and refuses more than two active CRTCs (a GPU with two PLLs, or a link
 * without the bandwidth for a third display), drmModeSetCrtc refuses a chosen CRTC; property blobs are counted.
 * Everything else is drm/'s own code with buffers in ordinary memory (no DRM device needed).

 *
 * What a user saw: a third monitor the GPU cannot drive beside the other two made the test commit fail for the
 * whole card, so every monitor stayed dark (retried each second, for ever); with the legacy API the outputs after
 * the refused one were never set up, and the error was logbuf again each second. */
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

/* Three outputs, the kernel takes two: those two are shown, the third is left out (not pending, its CRTC not
 * asked for), said once; a later modeset (an unblank, a hotplug) tries it again without saying it again. */
static void test_atomic_partial(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, true);
	logbuf[0] = '\0';
	int ret = drm_card_modeset(&card);
	CHECK(ret == 0);
	CHECK(commits == 1);
	CHECK(!outs[0].failed && !outs[1].failed && outs[2].failed);
	CHECK(outs[0].inflight && outs[1].inflight && !outs[2].inflight);
	CHECK(!outs[2].pending && !outs[2].queued);
	CHECK(!card.needs_modeset);
	CHECK(count(logbuf, "DP-3") == 1);
	/* The flips complete; the next modeset (unblank) tries all three again. */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 100);
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && outs[2].failed && !outs[0].failed && !outs[1].failed);
	CHECK(count(logbuf, "DP-3") == 1);
	/* The kernel takes all three now (a monitor unplugged elsewhere freed the bandwidth). */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 101);
	max_active = 3;
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && !outs[2].failed && outs[2].inflight);
	/* No output at all can be shown: the modeset fails as before (retried later), nothing is left pending. */
	for (int i = 0; i < 3; i++)
		drm_output_flip_done(&outs[i], 102);
	max_active = 0;
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) < 0 && card.needs_modeset);
	for (int i = 0; i < 3; i++)
		CHECK(!outs[i].pending && !outs[i].inflight);
	max_active = 2;
	CHECK(blobs_live == 3);
	free_card(&card, outs);
	CHECK(blobs_live == 0);
}

/* Legacy: drmModeSetCrtc refuses the second output: the first and the third are shown, the second is left out
 * (its CRTC turned off), said once; the card is not set up again every second. */
static void test_legacy_partial(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, false);
	refuse_crtc = 101;
	logbuf[0] = '\0';
	setcrtcs = 0;
	CHECK(drm_card_modeset(&card) == 0);
	CHECK(!outs[0].failed && outs[1].failed && !outs[2].failed);
	CHECK(!outs[1].pending && outs[0].current && outs[2].current);
	CHECK(!card.needs_modeset);
	CHECK(count(logbuf, "DP-2") == 1);
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && outs[1].failed);
	CHECK(count(logbuf, "DP-2") == 1);
	refuse_crtc = 0;
	free_card(&card, outs);
}

/* Runs the backend's loop for ns, the flips of out (when not NULL) completing as a vblank would. Returns the
 * wake-ups. */
static int dispatch_for(struct drm_backend *b, int64_t ns, struct drm_output *out)
{
	const int64_t end = drm_now_ns() + ns;
	int wakeups = 0;

	while (drm_now_ns() < end) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		wakeups += poll(&p, 1, 10) > 0;
		drm_backend_dispatch(b);
		if (out && out->inflight)
			drm_output_flip_done(out, 101);
	}
	return wakeups; /* the times the backend's fd woke the loop */
}

/* The second buffer cannot be made (the GPU's memory is full): the frame waits, the creation is tried again a
 * second later and said once, not every 20 ms (the busy retry: 50 errors a second in the journal). */
static void test_no_second_buffer(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];

	one_shown(b, &card, outs);
	free(out->bufs[1].map);
	out->bufs[1] = (struct drm_buffer){0};
	logbuf[0] = '\0';
	dumb_creates = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	dispatch_for(b, 300000000, NULL);
	CHECK(dumb_creates >= 1 && dumb_creates <= 2);
	CHECK(count(logbuf, "dumb buffer") == 1);
	CHECK(out->current == &out->bufs[0] && !out->pending && !out->inflight);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Two outputs, the second's first dumb buffer cannot be made at the modeset (the GPU's memory full for a moment):
 * the first is shown, and the second's buffer is tried again each second, as a frame's is, not only at the next
 * hotplug or unblank (that monitor stayed dark for good). */
static void test_modeset_buffer_retry(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[1];

	make_card(b, &card, outs, true);
	card.n_outputs = 2;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(out->bufs[k].map);
		out->bufs[k] = (struct drm_buffer){0};
	}
	b->cards[b->n_cards++] = &card;
	logbuf[0] = '\0';
	dumb_creates = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	CHECK(!outs[0].failed && out->failed && dumb_creates == 1);
	drm_output_flip_done(&outs[0], 100);
	dispatch_for(b, 1300000000, &outs[0]);
	CHECK(dumb_creates == 2);
	if (dumb_creates != 2)
		fprintf(stderr, "dumb buffers tried %d times in 1.3 s\n", dumb_creates);
	CHECK(count(logbuf, "dumb buffer") == 1);
	CHECK(!outs[0].failed && out->failed);
	/* The card waits for its own retry (a frame's buffer, another second) past the output's: the timer must not
	 * fire at once over and over until then (a spin of the loop at 100 % CPU). */
	card.retry_ns = drm_now_ns() + 600000000;
	out->buffer_retry_ns = drm_now_ns() + 100000000;
	int wakeups = dispatch_for(b, 500000000, NULL);
	CHECK(wakeups < 10 && dumb_creates == 2);
	if (wakeups >= 10)
		fprintf(stderr, "%d wake-ups in 0.5 s waiting for the card's retry\n", wakeups);
	dispatch_for(b, 200000000, NULL); /* the card's retry came: the buffer is tried then */
	CHECK(dumb_creates == 3);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Two cards: the second's modeset fails every time (a GPU that cannot drive the monitor on it). The first card's
 * frames must not wait for the second's retry: they waited up to a second each (one frame a second on the
 * laptop's own panel while a monitor on the other GPU could not be set up). */
static void test_card_retry_apart(struct drm_backend *b)
{
	struct drm_card good, bad;
	struct drm_output good_outs[3], bad_outs[3];
	struct drm_box box = {0, 0, 8, 8};

	make_card(b, &good, good_outs, true);
	good.n_outputs = 1;
	good.needs_modeset = false;
	good_outs[0].bufs[0].frame = good_outs[0].frame = 1;
	good_outs[0].current = &good_outs[0].bufs[0];
	make_card(b, &bad, bad_outs, true);
	bad.n_outputs = 1;
	bad.fd = refuse_fd = -2;
	b->cards[b->n_cards++] = &good;
	b->cards[b->n_cards++] = &bad;
	CHECK(drm_backend_present(b, &box, 1, false) == 0);
	CHECK(good_outs[0].inflight && bad.needs_modeset);
	drm_output_flip_done(&good_outs[0], 100); /* its event (a real vblank: no pacing) */
	CHECK(drm_backend_present(b, &box, 1, false) == 0);
	CHECK(good_outs[0].inflight);
	refuse_fd = -100;
	b->n_cards = 0;
	free_card(&good, good_outs);
	free_card(&bad, bad_outs);
}

/* The buffers of a 32x32 output, each ending just before a page the test makes unreadable: a copy past them
 * faults. */
static void small_guarded(struct drm_output *out, uint8_t **maps, size_t page)
{
	out->mode.hdisplay = out->mode.vdisplay = 32;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		struct drm_buffer *buf = &out->bufs[k];

		maps[k] = mmap(NULL, page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (maps[k] == MAP_FAILED)
			abort();
		mprotect(maps[k] + page * 2, page, PROT_NONE);
		free(buf->map);
		buf->width = buf->height = 32;
		buf->stride = 128;
		buf->size = 128 * 32;
		buf->map = maps[k] + page * 2 - buf->size;
	}
}

static void small_unguard(struct drm_output *out, uint8_t **maps, size_t page)
{
	for (int k = 0; k < DRM_BUFFERS; k++) {
		munmap(maps[k], page * 3);
		out->bufs[k].map = NULL;
	}
}

/* Clone mode with the smallest display left out (the kernel refuses it beside the others): the canvas follows
 * the displays shown, as it would if that one were unplugged; it stayed at the left-out one's size, a corner of
 * the others. Tried again at the next modeset and taken: the canvas shrinks back. That modeset paints the small
 * display while the canvas is still the others' size: the copy stays inside its buffer (it wrote the canvas's rows
 * and columns past it: a 1920x1080 picture into a 1024x768 dumb buffer, past the end of its mapping). */
static void test_canvas_without_left_out(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_canvas c;
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *maps[DRM_BUFFERS];

	make_card(b, &card, outs, true);
	small_guarded(&outs[2], maps, page);
	b->cards[b->n_cards++] = &card;
	b->iface.outputs_changed = on_changed;
	drm_backend_update_canvas(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 32 && c.height == 32 && !b->direct);
	changes = 0;
	outs[2].buffer_failed = true; /* a frame's buffer once could not be made: no reason to retry a refused one */
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	CHECK(outs[2].failed && !outs[0].failed && !outs[2].buffer_retry_ns);
	drm_backend_dispatch(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64 && c.height == 64 && changes == 1 && !b->direct);
	/* Taken at the next modeset (an unblank): 32x32 again. */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 100);
	max_active = 3;
	card.needs_modeset = true;
	drm_backend_dispatch(b);
	CHECK(!outs[2].failed);
	drm_backend_dispatch(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 32 && c.height == 32 && changes == 2);
	max_active = 2;
	b->iface.outputs_changed = NULL;
	b->n_cards = 0;
	small_unguard(&outs[2], maps, page);
	free_card(&card, outs);
	drm_backend_update_canvas(b);
}

/* A connected connector that cannot be used is said once, not at every rescan (each hotplug uevent, which docks
 * send by the dozen, and each switch back to the VT). */
static void test_unusable_said_once(struct drm_backend *b)
{
	struct drm_card card = {.b = b, .fd = -1, .atomic = true};
	int err;

	fake_conns = 2;
	logbuf[0] = '\0';
	for (int i = 0; i < 3; i++)
		CHECK(!drm_card_scan(&card, &err) && card.n_outputs == 0);
	CHECK(count(logbuf, "DP-1") == 1 && count(logbuf, "DP-2") == 1);
	fake_conns = 0;
}

/* A DP MST dock makes its connectors anew, with new ids, at each replug: 40 came and went. The CRTC_ID property of
 * each connector is looked up once and kept; the 32 kept were never forgotten, so once full every modeset looked
 * the properties of the newcomers up again (a GETPROPERTY ioctl per property of the connector). */
static void test_conn_props_forget_gone(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, true);
	max_active = 3;
	fake_conns = 3; /* 300..302: the card's own outputs */
	for (uint32_t i = 0; i < 40; i++) {
		extra_conn = 1000 + i;
		card.needs_modeset = true;
		CHECK(drm_card_modeset(&card) == 0);
		for (int o = 0; o < 3; o++)
			drm_output_flip_done(&outs[o], 200 + i);
	}
	prop_lookups = 0;
	for (int i = 0; i < 5; i++) {
		card.needs_modeset = true;
		CHECK(drm_card_modeset(&card) == 0);
		for (int o = 0; o < 3; o++)
			drm_output_flip_done(&outs[o], 300 + (uint64_t)i);
	}
	printf("5 modesets after 40 MST connectors came and went: %d property lookups (want 0), %u kept (want 4)\n",
	       prop_lookups, card.n_conns);
	CHECK(prop_lookups == 0 && card.n_conns == 4);
	extra_conn = 0;
	fake_conns = 0;
	max_active = 2;
	free_card(&card, outs);
}

/* What a user sees as errors (priority 3 and below), counted; the rest as on_log_info. */
static int errors_said;

static void on_log_errors(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	errors_said += prio <= 3;
	on_log_info(prio, file, line, fmt, ap);
}

/* The card is unplugged in the middle of a modeset (three displays, the kernel takes two: the outputs are being
 * tested one at a time): every commit answers ENODEV until the "remove" uevent is read. That is the card going
 * away, not a display refused: said once at info level, no display marked refused (rejected: it would not be
 * tried again as a refused one), and the card waits for the uevent, not retried each second with an error each
 * time. Before, the displays tested after the unplug were "not shown; the other outputs are" (errors) and
 * marked refused, and the modeset's commit said another error. */
static void test_card_going_away(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_box box = {0, 0, 8, 8};

	make_card(b, &card, outs, true);
	drm_set_log_handler(on_log_errors);
	logbuf[0] = '\0';
	errors_said = 0;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	alive_commits = 2; /* the test of all three (refused: EINVAL), the first alone (taken), then unplugged */
	b->cards[b->n_cards++] = &card;
	const int64_t t0 = drm_now_ns();
	CHECK(drm_backend_present(b, &box, 1, true) == 0);
	printf("card unplugged mid-modeset: %d errors said, \"not shown\" %d times, refused %d %d %d, retry in %lld "
	       "ms\n", errors_said, count(logbuf, "not shown"), outs[0].rejected, outs[1].rejected, outs[2].rejected,
	       card.retry_ns ? (long long)(card.retry_ns - t0) / 1000000 : -1);
	CHECK(errors_said == 0 && count(logbuf, "not shown") == 0);
	CHECK(!outs[0].rejected && !outs[1].rejected && !outs[2].rejected);
	CHECK(count(logbuf, "going away") == 1);
	CHECK(card.needs_modeset && card.retry_ns - t0 > 5 * DRM_RETRY_NS);
	/* Shown again (it was not unplugged after all), then a flip meets the unplug: said once more (once per run
	 * of ENODEV, as not_master), not as a failed flip, and the card waits as above. */
	alive_commits = -1;
	card.retry_ns = 0;
	CHECK(drm_backend_present(b, &box, 1, true) == 0 && !card.needs_modeset);
	for (int i = 0; i < 3; i++)
		if (outs[i].inflight)
			drm_output_flip_done(&outs[i], 100);
	card.retry_ns = 0;
	alive_commits = 0;
	errors_said = 0;
	for (int i = 0; i < 3; i++)
		outs[i].last_flip_ns = 0;
	CHECK(drm_backend_present(b, &box, 1, false) == 0);
	printf("a flip after the unplug: %d errors said, \"going away\" %d times\n", errors_said,
	       count(logbuf, "going away"));
	CHECK(errors_said == 0 && count(logbuf, "going away") == 2 && count(logbuf, "flip failed") == 0);
	CHECK(card.needs_modeset && card.retry_ns - drm_now_ns() > 5 * DRM_RETRY_NS);
	alive_commits = -1;
	b->n_cards = 0;
	free_card(&card, outs);

	/* Legacy: drmModeSetCrtc answers ENODEV for the second display (unplugged between two CRTCs): not refused. */
	make_card(b, &card, outs, false);
	refuse_crtc = 101;
	refuse_crtc_errno = ENODEV;
	logbuf[0] = '\0';
	errors_said = 0;
	CHECK(drm_card_modeset(&card) == 0 && outs[1].failed && !outs[1].rejected);
	CHECK(errors_said == 0 && count(logbuf, "going away") == 1 && count(logbuf, "not shown") == 0);
	refuse_crtc = 0;
	refuse_crtc_errno = EINVAL;
	drm_set_log_handler(on_log_info);
	free_card(&card, outs);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	test_atomic_partial(b);
	test_legacy_partial(b);
	test_no_second_buffer(b);
	test_modeset_buffer_retry(b);
	test_card_retry_apart(b);
	test_canvas_without_left_out(b);
	test_unusable_said_once(b);
	test_conn_props_forget_gone(b);
	test_card_going_away(b);
	return stand_in_end(b);
}
