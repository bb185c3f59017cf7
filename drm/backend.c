/* drm/backend.c: the cards of a seat, the canvas they all show, the udev monitor for hotplug, and one timer
 * for the flip watchdog, frame pacing, retries and DPMS. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <fcntl.h>

#include "drm/drm-internal.h"

/* Sentinels in epoll data: anything else is a struct drm_card. */
static char tag_timer;
char drm_tag_udev;

const struct drm_backend_cfg_view *drm_backend_cfg(const struct drm_backend *b)
{
	return &b->cfg;
}

int drm_backend_open_device(struct drm_backend *b, const char *path)
{
	if (b->iface.open_device)
		return b->iface.open_device(path, b->ud);
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

void drm_backend_close_device(struct drm_backend *b, int fd)
{
	if (fd < 0)
		return;
	if (b->iface.close_device)
		b->iface.close_device(fd, b->ud);
	else
		close(fd);
}

void drm_backend_get_canvas_internal(const struct drm_backend *b, struct drm_canvas *c)
{
	*c = b->canvas;
}

bool drm_backend_is_direct(const struct drm_backend *b)
{
	return b->direct;
}

static void update_timer(struct drm_backend *b);

/* Direct mode: the one output. */
static struct drm_output *direct_output(const struct drm_backend *b)
{
	for (unsigned c = 0; c < b->n_cards; c++)
		if (b->cards[c]->n_outputs == 1)
			return b->cards[c]->outputs[0];
	return NULL;
}

void drm_backend_get_size(const struct drm_backend *b, uint32_t *width, uint32_t *height)
{
	*width = b->canvas.width;
	*height = b->canvas.height;
}

void drm_backend_get_canvas(struct drm_backend *b, struct drm_canvas *canvas)
{
	drm_backend_prepare_canvas(b, canvas, NULL, 0);
}

void drm_backend_prepare_canvas(struct drm_backend *b, struct drm_canvas *canvas, const struct drm_box *cover,
				size_t n_cover)
{
	struct drm_output *out;

	*canvas = b->canvas;
	if (!b->direct || !canvas->width)
		return;
	/* Nothing to paint into while the seat or DPMS has the display (the buffers may be gone). */
	out = direct_output(b);
	if (!out || !drm_backend_active(b)) {
		canvas->pixels = NULL;
		return;
	}
	canvas->pixels = NULL;
	if (drm_output_buffers_init(out) == 0)
		canvas->pixels = drm_output_prepare(out, &canvas->stride, cover, n_cover);
	/* No buffer could be made (the GPU's memory is full): the program is told to paint again at the card's
	 * retry, a second later, as a shadow copy would be; nothing else would wake it before the next key. */
	if (!canvas->pixels && out->buffer_failed) {
		int64_t *retry = &out->card->retry_ns, when = drm_now_ns() + DRM_RETRY_NS;

		if (!*retry || *retry > when)
			*retry = when;
		update_timer(b);
	}
}

void drm_backend_prepare_buffers(struct drm_backend *b)
{
	struct drm_output *out = b->direct ? direct_output(b) : NULL;

	if (out && drm_backend_active(b) && out->bufs[0].map)
		(void)drm_output_buffers_prepare(out);
}

uint64_t drm_backend_next_seq(struct drm_backend *b)
{
	return ++b->seq;
}

void drm_backend_count(struct drm_backend *b, int what, uint64_t n)
{
	switch (what) {
	case DRM_COUNT_COMMIT:
		b->stats.commits += n;
		break;
	case DRM_COUNT_MODESET:
		b->stats.modesets += n;
		break;
	case DRM_COUNT_FLIP:
		b->stats.flips += n;
		break;
	case DRM_COUNT_WATCHDOG:
		b->stats.watchdog_fires += n;
		break;
	case DRM_COUNT_FAST:
		b->stats.fast_flips += n;
		break;
	case DRM_COUNT_PIXELS:
		b->stats.pixels_copied += n;
		break;
	}
}

bool drm_backend_active(const struct drm_backend *b)
{
	return !b->suspended && !b->blanked;
}

static void arm_timer(struct drm_backend *b, int64_t when)
{
	struct itimerspec its = {0};

	if (when == b->armed_ns)
		return;
	if (when) {
		its.it_value.tv_sec = when / 1000000000;
		its.it_value.tv_nsec = when % 1000000000;
	}
	if (timerfd_settime(b->timerfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		b->armed_ns = when;
}

/* The earliest of every deadline. Re-arming only when it moves earlier keeps the common case (a frame per
 * keystroke pushes the DPMS deadline) free of syscalls: a timer that fires early just re-arms. */
static void update_timer(struct drm_backend *b)
{
	int64_t when = 0, now = drm_now_ns();

	if (b->n_later)
		when = b->later_ns;

#define EARLIER(t) when = (when == 0 || ((t) && (t) < when)) ? (t) : when
	/* Once blanking waits for a flip, the deadline is in the past: the flip event or the watchdog wakes the
	 * loop instead, or the timer would fire at once until then. */
	if (b->dpms_timeout_s && !b->blanked && !b->blank_pending && !b->suspended && b->canvas.width)
		EARLIER(b->last_activity_ns + (int64_t)b->dpms_timeout_s * 1000000000);
	for (unsigned c = 0; c < b->n_cards; c++) {
		EARLIER(b->cards[c]->retry_ns);
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++) {
			const struct drm_output *out = b->cards[c]->outputs[i];

			/* Not while the card waits for its own retry (kick passes the card over until then; its time
			 * is there already): a time in the past fired the timer at once, over and over. */
			if (out->buffer_retry_ns && drm_backend_active(b) && out->buffer_retry_ns >= b->cards[c]->retry_ns)
				EARLIER(out->buffer_retry_ns);
			if (out->inflight)
				EARLIER(out->inflight_deadline_ns);
			else if (out->fake_vblank && out->next_frame_ns > now)
				/* Wake the loop when the pacing delay ends, even if nothing is dirty yet: the
				 * program may hold damage until drm_backend_can_render says yes. */
				EARLIER(out->next_frame_ns);
		}
	}
	if (b->fb && b->fb->inflight)
		EARLIER(b->fb->flip_ns);
	if (b->fb && b->fb->stale) /* kick found its mode changed inside a present: the dispatch opens it again */
		EARLIER(now);
#undef EARLIER
	if (when == 0 || b->armed_ns == 0 || when < b->armed_ns)
		arm_timer(b, when);
}

/* Which of card's outputs are not left out (a bit each). */
static uint32_t live_outputs(const struct drm_card *card)
{
	uint32_t mask = 0;

	for (unsigned i = 0; i < card->n_outputs; i++)
		mask |= (uint32_t)!card->outputs[i]->failed << i;
	return mask;
}

/* An output left out of the last modeset because its first dumb buffer could not be made (the GPU's memory full
 * for a moment) has one tried again each second, as a frame's buffer is (kick); once made, a modeset shows it.
 * It was tried only at the next hotplug, unblank or resume: the monitor stayed dark until then
 * (tests/drm/test-drm-commit.c test_modeset_buffer_retry). Returns true when a modeset should show one now. */
static bool buffers_back(struct drm_card *card, int64_t now)
{
	bool back = false;

	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];

		if (!out->buffer_retry_ns || now < out->buffer_retry_ns)
			continue;
		out->buffer_retry_ns = 0;
		if (!out->failed)
			continue;
		if (drm_output_buffers_init(out) == 0)
			back = true;
		else
			out->buffer_retry_ns = now + DRM_RETRY_NS;
	}
	return back;
}

/* After a modeset: the outputs it left out for want of a buffer are tried again in a second; not one the kernel
 * refused (its buffer_failed can be a later buffer's, from a frame: trying it each second was a modeset, and its
 * log line, each second). */
static void arm_buffer_retry(struct drm_card *card, int ret, int64_t now)
{
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];
		bool want = ret == 0 && out->failed && out->buffer_failed && !out->rejected;

		out->buffer_retry_ns = want ? now + DRM_RETRY_NS : 0;
	}
}

/* Whether an output of card has a mode refused and another to fall back to: the dispatch that moves it there
 * (drm_backend_fall_back_modes) comes shortly, not a second later. */
static bool falls_back(const struct drm_card *card)
{
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->mode_refused && !card->outputs[i]->fallback_spent)
			return true;
	return false;
}

/* Commits what can be committed now: pending modesets, then flips of dirty outputs that can take a frame. A card
 * that failed waits for its own retry time: the other cards' frames do not (a monitor another GPU could not set
 * up held the laptop's panel to one frame a second). */
static void kick(struct drm_backend *b)
{
	int64_t now = drm_now_ns();
	bool active = drm_backend_active(b);

	if (active)
		drm_fallback_kick(b, now);
	for (unsigned c = 0; c < b->n_cards; c++) {
		struct drm_card *card = b->cards[c];
		int64_t *retry = &card->retry_ns;
		int ret;

		if (*retry && now < *retry)
			continue;
		/* Cleared even when inactive: a retry time left in the past would re-fire the timer at once. */
		*retry = 0;
		if (!active || card->n_outputs == 0)
			continue;
		if (buffers_back(card, now))
			card->needs_modeset = true;
		if (card->needs_modeset) {
			uint32_t before = live_outputs(card);

			if (!drm_master_take(card, now))
				continue; /* another master holds it: asked again at the retry (drm/master.c) */
			ret = drm_card_modeset(card);
			if (ret == -ENODEV)
				*retry = now + DRM_GONE_RETRY_NS; /* unplugged: its "remove" uevent closes it */
			else if (ret == -EACCES && drm_master_wait(card, now))
				; /* not master while our VT is in front: master asked for at the retry */
			else if (ret < 0)
				*retry = now + (ret == -EBUSY || falls_back(card) ? DRM_BUSY_RETRY_NS : DRM_RETRY_NS);
			if (ret != -EBUSY)
				arm_buffer_retry(card, ret, now);
			/* An output left out, or shown again: the canvas follows at the next dispatch (not here: a
			 * present may have called, in the middle of the program's frame). */
			b->canvas_recheck |= live_outputs(card) != before;
			continue;
		}
		for (unsigned i = 0; i < card->n_outputs; i++) {
			struct drm_output *out = card->outputs[i];

			if (!out->dirty || !drm_output_can_take_frame(out, now))
				continue;
			ret = drm_output_flip(out);
			/* No memory for a buffer is no reason for a modeset, nor for trying 50 times a second. */
			if (ret == -ENOMEM)
				*retry = now + DRM_RETRY_NS;
			else if (ret == -EBUSY)
				*retry = now + DRM_BUSY_RETRY_NS;
			else if (ret == -ENODEV)
				card->needs_modeset = true, *retry = now + DRM_GONE_RETRY_NS;
			else if (ret < 0)
				card->needs_modeset = true, *retry = now + DRM_BUSY_RETRY_NS;
		}
	}
}

bool drm_backend_can_render(const struct drm_backend *b)
{
	int64_t now = 0;

	if (!drm_backend_active(b) || !b->canvas.width)
		return false;
	if (b->fb)
		return !b->fb->inflight && !b->fb->stale;
	for (unsigned c = 0; c < b->n_cards; c++) {
		const struct drm_card *card = b->cards[c];

		for (unsigned i = 0; i < card->n_outputs; i++) {
			const struct drm_output *out = card->outputs[i];

			if (out->failed || out->inflight)
				continue;
			if (!out->fake_vblank)
				return true;
			if (!now)
				now = drm_now_ns();
			if (now >= out->next_frame_ns)
				return true;
		}
	}
	return false;
}

bool drm_backend_drop_flip_event(struct drm_backend *b)
{
	return ++b->flip_events == b->drop_flip_event;
}

void drm_backend_frame_ready(struct drm_backend *b)
{
	if (b->iface.frame_ready && drm_backend_can_render(b))
		b->iface.frame_ready(b->ud);
}

static void mark_all(struct drm_backend *b, const struct drm_region *rg)
{
	if (b->fb) {
		drm_region_add_region(&b->fb->damage, rg);
		b->fb->dirty = true;
	}
	for (unsigned c = 0; c < b->n_cards; c++) {
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++) {
			struct drm_output *out = b->cards[c]->outputs[i];

			drm_region_add_region(&out->damage, rg);
			out->dirty = true;
		}
	}
}

static int present(struct drm_backend *b, const struct drm_box *damage, size_t n_damage, bool full, bool activity)
{
	struct drm_region rg;

	drm_region_clear(&rg);
	if (full)
		drm_region_set_full(&rg);
	for (size_t i = 0; i < n_damage && !full; i++)
		drm_region_add(&rg, damage[i]);
	drm_region_clip(&rg, (int32_t)b->canvas.width, (int32_t)b->canvas.height);
	b->stats.presents++;
	if (activity && !b->blanked)
		b->last_activity_ns = drm_now_ns();
	if (drm_region_empty(&rg))
		return 0;
	mark_all(b, &rg);
	kick(b);
	update_timer(b);
	return 0;
}

int drm_backend_present(struct drm_backend *b, const struct drm_box *damage, size_t n_damage, bool full)
{
	return present(b, damage, n_damage, full, true);
}

int drm_backend_present_idle(struct drm_backend *b, const struct drm_box *damage, size_t n_damage, bool full)
{
	return present(b, damage, n_damage, full, false);
}

int drm_backend_scan(struct drm_backend *b, bool *changed)
{
	bool asked = false;
	int first_err = 0;

	for (unsigned c = 0; c < b->n_cards; c++) {
		int err = 0;

		*changed |= drm_card_scan(b->cards[c], &err);
		if (err && !first_err)
			first_err = err;
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++)
			asked |= b->cards[c]->outputs[i]->mode_source == DRM_SOURCE_ASKED;
	}
	/* A display without --mode's WxH shows its preferred mode (said, with its modes): two different monitors,
	 * the others show WxH. Offered by none, the mode is a mistake (a typo, the wrong monitor's size): an error
	 * at start, each display's modes listed above. */
	if (first_err != -EINVAL)
		return first_err;
	if (asked)
		return 0;
	drm_err("mode %ux%u is offered by no connected display (their modes are listed above)", b->cfg.mode_width,
		b->cfg.mode_height);
	return -EINVAL;
}

int drm_backend_create(struct drm_backend **out, const struct drm_backend_config *cfg,
		       const struct drm_backend_iface *iface, void *ud)
{
	struct drm_backend *b = calloc(1, sizeof(*b));
	const char *env = getenv("KMSCON_FELIS_DRM_LEGACY");
	const char *shadow = getenv("KMSCON_FELIS_DRM_SHADOW");
	const char *drop = getenv("KMSCON_FELIS_DRM_DROP_FLIP_EVENT");
	bool changed = false;
	int ret;

	if (!b)
		return -ENOMEM;
	b->cfg.mode_width = cfg->mode_width;
	b->cfg.mode_height = cfg->mode_height;
	b->cfg.use_original_mode = cfg->use_original_mode;
	if (cfg->use_original_mode && cfg->mode_width)
		drm_info("mode %ux%u asked for: it wins over use-original-mode", cfg->mode_width, cfg->mode_height);
	b->cfg.rotation = (unsigned)cfg->rotation <= DRM_ROTATE_LEFT ? cfg->rotation : DRM_ROTATE_NORMAL;
	b->cfg.force_legacy = cfg->force_legacy || (env && strcmp(env, "1") == 0);
	b->cfg.force_shadow = shadow && strcmp(shadow, "1") == 0;
	b->cfg.force_fbdev = cfg->force_fbdev;
	if (cfg->force_fbdev)
		drm_info("drm=off: no DRM card is used; showing a framebuffer device");
	b->dpms_timeout_s = cfg->dpms_timeout_s;
	if (drop)
		b->drop_flip_event = strtoull(drop, NULL, 10);
	snprintf(b->seat, sizeof(b->seat), "%s", cfg->seat ? cfg->seat : "seat0");
	if (iface)
		b->iface = *iface;
	b->ud = ud;
	b->last_activity_ns = drm_now_ns();
	b->creating = true;
	b->timerfd = -1;
	b->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (b->epfd < 0) {
		ret = -errno;
		goto err;
	}
	b->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (b->timerfd < 0) {
		ret = -errno;
		goto err;
	}
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &tag_timer};
	if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, b->timerfd, &ev) < 0) {
		ret = -errno;
		goto err;
	}
	ret = drm_hotplug_init(b);
	if (ret < 0)
		goto err;
	ret = drm_backend_scan(b, &changed);
	if (ret < 0)
		goto err;
	drm_backend_update_canvas(b);
	b->creating = false;
	/* No commit yet: the first modeset shows the program's first frame (drm_backend_present), not a black
	 * one that would cost a full commit and a refresh before it. */
	update_timer(b);
	*out = b;
	return 0;
err:
	drm_backend_destroy(b);
	return ret;
}

void drm_backend_destroy(struct drm_backend *b)
{
	if (!b)
		return;
	while (b->n_cards)
		drm_hotplug_remove_card(b, 0);
	drm_fallback_finish(b);
	drm_hotplug_finish(b);
	if (b->timerfd >= 0)
		close(b->timerfd);
	if (b->epfd >= 0)
		close(b->epfd);
	free(b->canvas.pixels);
	free(b);
}

int drm_backend_get_fd(const struct drm_backend *b)
{
	return b->epfd;
}

static void watchdog(struct drm_backend *b, int64_t now)
{
	for (unsigned c = 0; c < b->n_cards; c++) {
		struct drm_card *card = b->cards[c];

		for (unsigned i = 0; i < card->n_outputs; i++) {
			struct drm_output *out = card->outputs[i];

			if (!out->inflight || now < out->inflight_deadline_ns)
				continue;
			if (drm_ratelimit_pass(&out->rl, now))
				drm_warn("%s: [CRTC:%u] no page-flip event after 1 s (kernel or driver bug); "
					 "recovering with a modeset",
					 out->name, out->crtc_id);
			drm_output_flip_done(out, DRM_SEQ_SYNTHETIC);
			b->stats.watchdog_fires++;
			card->needs_modeset = true;
		}
	}
}

static void dpms_check(struct drm_backend *b, int64_t now)
{
	if (!b->dpms_timeout_s || b->blanked || b->suspended || !b->canvas.width)
		return;
	if (now - b->last_activity_ns < (int64_t)b->dpms_timeout_s * 1000000000)
		return;
	drm_backend_set_blank(b, true);
}

static void on_timer(struct drm_backend *b)
{
	uint64_t expirations;
	int64_t now = drm_now_ns();

	if (read(b->timerfd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		drm_debug("timerfd: %s", strerror(errno));
	b->armed_ns = 0;
	drm_hotplug_retry(b, now);
	drm_fallback_timer(b, now);
	watchdog(b, now);
	dpms_check(b, now);
	kick(b);
}

static bool any_inflight(const struct drm_backend *b)
{
	for (unsigned c = 0; c < b->n_cards; c++)
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++)
			if (b->cards[c]->outputs[i]->inflight)
				return true;
	return false;
}

int drm_backend_dispatch(struct drm_backend *b)
{
	struct epoll_event evs[DRM_MAX_CARDS + 2];
	int n = epoll_wait(b->epfd, evs, DRM_MAX_CARDS + 2, 0);

	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	/* Page-flip events first, then hotplug (which may remove a card), then timers. */
	for (int i = 0; i < n; i++) {
		void *p = evs[i].data.ptr;

		if (p != &tag_timer && p != &drm_tag_udev)
			drm_card_handle_events(p);
	}
	for (int i = 0; i < n; i++)
		if (evs[i].data.ptr == &drm_tag_udev)
			drm_hotplug_dispatch(b);
	for (int i = 0; i < n; i++)
		if (evs[i].data.ptr == &tag_timer)
			on_timer(b);
	/* Before kick: a new flip would put blanking off again. */
	if (b->blank_pending && !any_inflight(b))
		drm_backend_set_blank(b, true);
	kick(b);
	drm_backend_fall_back_modes(b);
	if (drm_fallback_reopen(b))
		b->canvas_recheck = true;
	if (b->canvas_recheck) {
		b->canvas_recheck = false;
		drm_backend_update_canvas(b);
	}
	update_timer(b);
	drm_backend_frame_ready(b);
	return 0;
}

void drm_backend_notify_input(struct drm_backend *b)
{
	b->last_activity_ns = drm_now_ns();
	if (b->blanked || b->blank_pending)
		drm_backend_set_blank(b, false);
}

void drm_backend_set_dpms_timeout(struct drm_backend *b, unsigned seconds)
{
	b->dpms_timeout_s = seconds;
	b->last_activity_ns = drm_now_ns();
	update_timer(b);
}

/* DPMS off on every card. One that refuses (a driver that cannot turn its CRTC off now) is still lit: the display
 * stays live, not blanked, or it would show a frozen picture until a key. The cards that did go off come back
 * with a modeset; said once, tried again a timeout later. Returns 0 or the first error. */
static int blank_cards(struct drm_backend *b)
{
	uint32_t off = 0;
	int err = 0;
	const char *path = "";

	for (unsigned c = 0; c < b->n_cards; c++) {
		int ret = drm_card_set_active(b->cards[c], false);

		if (ret == 0)
			off |= 1u << c;
		else if (!err)
			err = ret, path = b->cards[c]->path;
	}
	if (!err) {
		b->blank_failed = false;
		return 0;
	}
	for (unsigned c = 0; c < b->n_cards; c++) {
		if (!(off & (1u << c)))
			continue;
		if (!b->cards[c]->atomic)
			drm_card_set_active(b->cards[c], true);
		b->cards[c]->needs_modeset = true;
	}
	/* EBUSY: a commit of ours still in the hardware; tried again shortly (the DPMS deadline moved to then). */
	if (err == -EBUSY) {
		b->last_activity_ns = drm_now_ns() + DRM_BUSY_RETRY_NS - (int64_t)b->dpms_timeout_s * 1000000000;
	} else {
		if (!b->blank_failed)
			drm_warn("%s: the kernel refused DPMS off (%s): the display stays on, tried again after the "
				 "next timeout",
				 path, strerror(-err));
		b->blank_failed = true;
		b->last_activity_ns = drm_now_ns();
	}
	kick(b);
	update_timer(b);
	return err;
}

void drm_backend_set_blank(struct drm_backend *b, bool blank)
{
	b->blank_pending = false;
	if (blank == b->blanked || b->suspended)
		return;
	if (blank) {
		if (any_inflight(b)) {
			/* Blank once the flip is done: drm_backend_dispatch calls again after its event. */
			b->blank_pending = true;
			update_timer(b);
			return;
		}
		if (blank_cards(b) < 0)
			return;
		if (b->fb)
			(void)drm_fbdev_set_blank(b->fb, true);
		b->blanked = true;
		drm_info("display blanked (DPMS off)");
		return;
	}
	b->blanked = false;
	b->last_activity_ns = drm_now_ns();
	for (unsigned c = 0; c < b->n_cards; c++) {
		if (!b->cards[c]->atomic)
			drm_card_set_active(b->cards[c], true);
		b->cards[c]->needs_modeset = true;
	}
	if (b->fb) {
		/* Without FBIOBLANK the picture was painted over with black. */
		(void)drm_fbdev_set_blank(b->fb, false);
		drm_region_set_full(&b->fb->damage);
		b->fb->dirty = true;
	}
	drm_info("display unblanked");
	kick(b);
	update_timer(b);
}

bool drm_backend_is_blanked(const struct drm_backend *b)
{
	return b->blanked;
}

void drm_backend_suspend(struct drm_backend *b)
{
	if (b->suspended)
		return;
	b->suspended = true;
	b->blank_pending = false; /* after resume the DPMS deadline decides again */
	if (b->fb) {
		b->fb->inflight = false;
		/* The VT's next owner gets the panel on (DRM needs nothing: its next master sets its own mode); we
		 * stay blanked, and resume powers it up for us anyway. */
		drm_fbdev_power_up(b->fb);
	}
	for (unsigned c = 0; c < b->n_cards; c++) {
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++) {
			struct drm_output *out = b->cards[c]->outputs[i];

			/* Its event may never come (no master): count the buffer as shown. */
			if (out->inflight)
				drm_output_flip_done(out, DRM_SEQ_SYNTHETIC);
		}
	}
	drm_info("display suspended");
}

void drm_backend_resume(struct drm_backend *b)
{
	bool changed = false;

	if (!b->suspended)
		return;
	b->suspended = false;
	for (unsigned c = 0; c < b->n_cards; c++) {
		b->cards[c]->retry_ns = 0;
		b->cards[c]->master_backoff_ns = 0; /* the seat made it master again, or the first modeset says */
		/* legacy: a refused mode is tried again at the switch back (card.c chosen_mode_back) */
		for (unsigned o = 0; o < b->cards[c]->n_outputs; o++)
			b->cards[c]->outputs[o]->refused_modes_set = false;
	}
	drm_hotplug_enumerate(b);
	drm_backend_scan(b, &changed);
	for (unsigned c = 0; c < b->n_cards; c++)
		b->cards[c]->needs_modeset = true;
	/* fbcon or another program drew on the framebuffer meanwhile, and may have changed its mode (fbset). */
	if (b->fb && drm_fbdev_check(b->fb) != 0) {
		drm_notice("%s: its mode changed or it is gone while we were away: opening it again", b->fb->path);
		drm_fallback_finish(b);
	}
	if (b->fb) {
		drm_region_set_full(&b->fb->damage);
		b->fb->dirty = true;
	}
	drm_backend_update_canvas(b);
	drm_info("display resumed");
	/* Getting the display back is the user's doing (a VT switch, often from a program or another seat's
	 * keyboard, so no input of ours says so): show it, as the kernel's console does on a switch, and start
	 * the DPMS timeout again, or the time spent away would blank it at once. */
	b->last_activity_ns = drm_now_ns();
	if (b->blanked)
		drm_backend_set_blank(b, false);
	kick(b);
	update_timer(b);
}

void drm_backend_get_stats(const struct drm_backend *b, struct drm_backend_stats *stats)
{
	*stats = b->stats;
	stats->cards = b->n_cards;
	stats->legacy = false;
	stats->refresh_mhz = 0;
	for (unsigned c = 0; c < b->n_cards; c++) {
		stats->legacy |= !b->cards[c]->atomic;
		if (!stats->refresh_mhz && b->cards[c]->n_outputs)
			stats->refresh_mhz = b->cards[c]->outputs[0]->refresh_mhz;
	}
	stats->fbdev = b->fb != NULL;
	if (b->fb)
		stats->refresh_mhz = b->fb->refresh_mhz;
}
