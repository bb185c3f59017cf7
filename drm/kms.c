/* drm/kms.c: commits. Atomic: a TEST_ONLY commit before every modeset, then non-blocking commits with
 * page-flip events; the kernel sends one event per CRTC in the commit, carrying our commit number in user_data.
 * Legacy (no atomic, or forced): drmModeSetCrtc for modesets, drmModePageFlip for flips.
 *
 * A commit that requests events must not contain a CRTC that stays off: the kernel rejects it (there would be
 * no event). A CRTC enters the commit when we set one of its properties, or a plane's or connector's that is
 * attached to it. So we read ACTIVE first and only touch unused CRTCs that are on, with their planes and
 * connectors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "drm/drm-internal.h"

/* An atomic request with a sticky error: add everything, check once at commit. */
struct atomic {
	drmModeAtomicReq *req;
	int err;
};

static void atomic_add(struct atomic *a, uint32_t obj, uint32_t prop, uint64_t val)
{
	if (a->err)
		return;
	if (!prop) {
		a->err = -ENOENT;
		return;
	}
	int r = drmModeAtomicAddProperty(a->req, obj, prop, val);
	if (r < 0)
		a->err = r;
}

static int atomic_commit(struct atomic *a, struct drm_card *card, uint32_t flags, uint64_t seq)
{
	if (a->err)
		return a->err;
	if (drmModeAtomicCommit(card->fd, a->req, flags, (void *)(uintptr_t)seq) < 0)
		return -errno;
	return 0;
}

/* EACCES from a commit: the card's fd is not DRM master. The seat took master away for a VT switch before our
 * disable handler ran (seatd drops it from its own process at once; libseat's builtin backend from inside a
 * libseat call of our enable handler, when the switch away comes while it reopens the input devices): not the
 * modeset's fault, and the resume that follows the next enable does it again. Said at info level, once until
 * a modeset succeeds; a refusal for another reason after it is still said as an error. While the display is ours
 * (our VT in front) it is another master's hold instead (drm/master.c), said there if it lasts. */
static bool not_master(struct drm_card *card, int ret)
{
	if (ret != -EACCES)
		return false;
	if (!card->not_master && drm_display_ours(card->b))
		drm_debug("%s: not DRM master while our VT is in front: asking for it shortly", card->path);
	else if (!card->not_master)
		drm_info("%s: not DRM master (the seat is switching away): the modeset waits for the seat to come back",
			 card->path);
	card->not_master = true;
	return true;
}

/* ENODEV from a commit: the card is being unplugged (every ioctl answers so until the "remove" uevent is read and
 * closes it: hotplug.c). Not a display refused nor a modeset that failed: said once at info level, no output
 * marked rejected, and the card waits for the uevent (backend.c kick: DRM_GONE_RETRY_NS). Each display was "not
 * shown; the other outputs are" (an error) and marked refused, and the card retried each second. */
static bool going_away(struct drm_card *card, int ret)
{
	if (ret != -ENODEV)
		return false;
	if (!card->going_away)
		drm_info("%s: the card is going away (%s): waiting for its removal", card->path, strerror(-ret));
	card->going_away = true;
	return true;
}

static const struct drm_card_plane *card_plane(const struct drm_card *card, uint32_t id)
{
	for (unsigned i = 0; i < card->n_planes; i++)
		if (card->planes[i].id == id)
			return &card->planes[i];
	return NULL;
}

static struct drm_output *output_of_crtc(const struct drm_card *card, uint32_t crtc_id)
{
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->crtc_id == crtc_id && !card->outputs[i]->failed)
			return card->outputs[i];
	return NULL;
}

/* The plane state of an output showing its pending buffer; with damage clips as a blob (*blob, freed by the
 * caller after the commit: the kernel keeps its own reference). */
static void add_plane(struct atomic *a, struct drm_output *out, const struct drm_region *clips,
		      uint32_t *blob)
{
	const struct drm_card_plane *p = card_plane(out->card, out->plane_id);
	struct drm_buffer *buf = out->pending;
	uint32_t w = out->mode.hdisplay, h = out->mode.vdisplay;

	if (!p) {
		a->err = -ENOENT;
		return;
	}
	atomic_add(a, p->id, p->props[PLANE_FB_ID], buf->fb_id);
	atomic_add(a, p->id, p->props[PLANE_CRTC_ID], out->crtc_id);
	atomic_add(a, p->id, p->props[PLANE_SRC_X], 0);
	atomic_add(a, p->id, p->props[PLANE_SRC_Y], 0);
	atomic_add(a, p->id, p->props[PLANE_SRC_W], (uint64_t)w << 16);
	atomic_add(a, p->id, p->props[PLANE_SRC_H], (uint64_t)h << 16);
	atomic_add(a, p->id, p->props[PLANE_CRTC_X], 0);
	atomic_add(a, p->id, p->props[PLANE_CRTC_Y], 0);
	atomic_add(a, p->id, p->props[PLANE_CRTC_W], w);
	atomic_add(a, p->id, p->props[PLANE_CRTC_H], h);
	/* No clips means the whole plane: a full frame (every frame of a flood) needs no blob. */
	if (clips && clips->n && p->props[PLANE_FB_DAMAGE_CLIPS] &&
	    !(clips->n == 1 && clips->r[0].x == 0 && clips->r[0].y == 0 && clips->r[0].w >= (int32_t)w &&
	      clips->r[0].h >= (int32_t)h)) {
		struct drm_mode_rect rects[DRM_REGION_MAX];

		for (unsigned i = 0; i < clips->n; i++)
			rects[i] = (struct drm_mode_rect){clips->r[i].x, clips->r[i].y,
							  clips->r[i].x + clips->r[i].w,
							  clips->r[i].y + clips->r[i].h};
		if (drmModeCreatePropertyBlob(out->card->fd, rects, sizeof(rects[0]) * clips->n, blob) == 0)
			atomic_add(a, p->id, p->props[PLANE_FB_DAMAGE_CLIPS], *blob);
	}
}

static uint32_t conn_crtc_prop(struct drm_card *card, uint32_t conn_id)
{
	uint32_t id = 0;

	for (unsigned i = 0; i < card->n_conns; i++)
		if (card->conns[i].id == conn_id)
			return card->conns[i].crtc_prop;
	drm_props_lookup(card->fd, conn_id, DRM_MODE_OBJECT_CONNECTOR, &drm_conn_prop_names[CONN_CRTC_ID], 1, &id,
			 NULL);
	if (card->n_conns < sizeof(card->conns) / sizeof(card->conns[0]))
		card->conns[card->n_conns++] = (struct drm_card_conn){conn_id, id};
	return id;
}

/* Forgets the CRTC_ID property of connectors gone from res: a DP MST dock makes its connectors anew, with new ids,
 * at each replug; kept, they filled the list and every modeset looked the newcomers up again. */
static void forget_gone_conns(struct drm_card *card, const drmModeRes *res)
{
	for (unsigned i = card->n_conns; i-- > 0;) {
		int k = 0;

		while (k < res->count_connectors && res->connectors[k] != card->conns[i].id)
			k++;
		if (k == res->count_connectors)
			card->conns[i] = card->conns[--card->n_conns];
	}
}

/* Turns off what we do not use: CRTCs that are on, planes on them or on ours, connectors on them or on ours. */
static void add_disable_unused(struct atomic *a, struct drm_card *card)
{
	bool off[32] = {false};
	drmModeRes *res;

	for (unsigned i = 0; i < card->n_crtcs && i < 32; i++) {
		struct drm_card_crtc *c = &card->crtcs[i];
		uint64_t active = 0;

		if (output_of_crtc(card, c->id))
			continue;
		if (drm_prop_value(card->fd, c->id, DRM_MODE_OBJECT_CRTC, c->props[CRTC_ACTIVE], &active) < 0 ||
		    !active)
			continue;
		atomic_add(a, c->id, c->props[CRTC_ACTIVE], 0);
		atomic_add(a, c->id, c->props[CRTC_MODE_ID], 0);
		off[i] = true;
		drm_debug("%s: disabling unused [CRTC:%u]", card->path, c->id);
	}
	for (unsigned i = 0; i < card->n_planes; i++) {
		const struct drm_card_plane *p = &card->planes[i];
		uint64_t crtc = 0;
		bool ours = false;

		for (unsigned o = 0; o < card->n_outputs; o++)
			ours |= card->outputs[o]->plane_id == p->id && !card->outputs[o]->failed;
		if (ours || drm_prop_value(card->fd, p->id, DRM_MODE_OBJECT_PLANE, p->props[PLANE_CRTC_ID], &crtc) < 0)
			continue;
		for (unsigned ci = 0; ci < card->n_crtcs && ci < 32; ci++) {
			if (crtc && card->crtcs[ci].id == crtc && (off[ci] || output_of_crtc(card, (uint32_t)crtc))) {
				atomic_add(a, p->id, p->props[PLANE_FB_ID], 0);
				atomic_add(a, p->id, p->props[PLANE_CRTC_ID], 0);
			}
		}
	}
	res = drmModeGetResources(card->fd);
	if (res)
		forget_gone_conns(card, res);
	for (int i = 0; res && i < res->count_connectors; i++) {
		uint32_t id = res->connectors[i], prop = conn_crtc_prop(card, id);
		uint64_t crtc = 0;
		bool ours = false;

		for (unsigned o = 0; o < card->n_outputs; o++)
			ours |= card->outputs[o]->conn_id == id && !card->outputs[o]->failed;
		if (ours || !prop || drm_prop_value(card->fd, id, DRM_MODE_OBJECT_CONNECTOR, prop, &crtc) < 0 || !crtc)
			continue;
		for (unsigned ci = 0; ci < card->n_crtcs && ci < 32; ci++)
			if (card->crtcs[ci].id == crtc && (off[ci] || output_of_crtc(card, (uint32_t)crtc)))
				atomic_add(a, id, prop, 0);
	}
	drmModeFreeResources(res);
}

/* The modeset of every output not marked failed, the rest turned off, into a new request (a->req NULL: -ENOMEM). */
static void build_modeset(struct drm_card *card, struct atomic *a)
{
	a->req = drmModeAtomicAlloc();
	a->err = a->req ? 0 : -ENOMEM;
	for (unsigned i = 0; i < card->n_outputs && !a->err; i++) {
		struct drm_output *out = card->outputs[i];
		struct drm_card_crtc *c = &card->crtcs[out->crtc_index];

		if (out->failed)
			continue;
		if (!out->mode_blob &&
		    drmModeCreatePropertyBlob(card->fd, &out->mode, sizeof(out->mode), &out->mode_blob) < 0) {
			a->err = -errno;
			break;
		}
		atomic_add(a, out->conn_id, out->conn_props[CONN_CRTC_ID], out->crtc_id);
		atomic_add(a, c->id, c->props[CRTC_MODE_ID], out->mode_blob);
		atomic_add(a, c->id, c->props[CRTC_ACTIVE], 1);
		add_plane(a, out, NULL, NULL);
	}
	if (!a->err)
		add_disable_unused(a, card);
}

static int test_modeset(struct drm_card *card)
{
	struct atomic a;
	int ret;

	build_modeset(card, &a);
	ret = atomic_commit(&a, card, DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, 0);
	drmModeAtomicFree(a.req);
	return ret;
}

int drm_card_test_output(struct drm_card *card, struct drm_output *out, struct drm_buffer *buf)
{
	struct drm_buffer *pending[DRM_MAX_OUTPUTS];
	bool failed[DRM_MAX_OUTPUTS];
	uint32_t blob = out->mode_blob;
	int ret;

	/* The others as they are on screen; one with nothing on screen is left out of the test. */
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *o = card->outputs[i];

		pending[i] = o->pending;
		failed[i] = o->failed;
		if (o == out)
			o->pending = buf, o->failed = false;
		else if (!o->pending)
			o->pending = o->current;
		o->failed |= !o->pending;
	}
	out->mode_blob = 0; /* a blob of the mode tried */
	ret = test_modeset(card);
	if (out->mode_blob)
		drmModeDestroyPropertyBlob(card->fd, out->mode_blob);
	out->mode_blob = blob;
	for (unsigned i = 0; i < card->n_outputs; i++) {
		card->outputs[i]->pending = pending[i];
		card->outputs[i]->failed = failed[i];
	}
	return ret;
}

/* An output the kernel would not show (legacy: drmModeSetCrtc refused it; atomic: not beside the outputs before
 * it) is left out of this modeset: not shown, its CRTC off, nothing pending. Said once until it is shown again;
 * every later modeset (hotplug, unblank, resume) tries it again. EACCES and ENODEV (the card unplugged: going_away)
 * are no refusal of the display. EACCES: the VT was
 * switched away between two outputs (the seat took the DRM master), and the modeset on the way back shows it;
 * marked rejected, it lost the buffer retry (arm_buffer_retry) if its buffer then failed. */
static void leave_out(struct drm_output *out, const char *why, int err)
{
	if (err == -EACCES)
		drm_debug("%s: [CRTC:%u] %s (%s): the VT was switched away", out->name, out->crtc_id, why,
			  strerror(-err));
	else if (!going_away(out->card, err) && !out->rejected)
		drm_err("%s: [CRTC:%u] %s (%s): not shown; the other outputs are", out->name, out->crtc_id, why,
			strerror(-err));
	out->rejected |= err != -EACCES && err != -ENODEV;
	out->failed = true;
	drm_output_commit_failed(out);
}

/* The test commit of all outputs failed (a GPU without the clocks or the bandwidth for one more display): the
 * outputs are added one at a time in connector order, and one the kernel refuses beside those before it is left
 * out, so the others still show. Returns 0 when some output is left, else err (every output as it was). */
static int leave_out_refused(struct drm_card *card, int err)
{
	bool live[DRM_MAX_OUTPUTS];
	int errs[DRM_MAX_OUTPUTS] = {0};
	unsigned kept = 0;

	for (unsigned i = 0; i < card->n_outputs; i++) {
		live[i] = !card->outputs[i]->failed;
		card->outputs[i]->failed = true;
	}
	for (unsigned i = 0; i < card->n_outputs; i++) {
		if (!live[i])
			continue;
		card->outputs[i]->failed = false;
		errs[i] = test_modeset(card);
		if (errs[i] == -ENODEV) {
			/* unplugged meanwhile: no display is refused, every output as it was */
			for (unsigned k = 0; k < card->n_outputs; k++)
				card->outputs[k]->failed = !live[k];
			return -ENODEV;
		}
		if (errs[i] == 0)
			kept++;
		else
			card->outputs[i]->failed = true;
	}
	for (unsigned i = 0; i < card->n_outputs; i++) {
		if (!live[i])
			continue;
		if (!kept)
			card->outputs[i]->failed = false;
		else if (errs[i] < 0)
			leave_out(card->outputs[i], "the kernel refuses this display beside the others", errs[i]);
	}
	return kept ? 0 : err;
}

static int atomic_modeset(struct drm_card *card, uint64_t seq)
{
	struct atomic a;
	unsigned live = 0;
	int ret;

	for (unsigned i = 0; i < card->n_outputs; i++)
		live += !card->outputs[i]->failed;
	ret = test_modeset(card);
	if (ret < 0 && ret != -ENOMEM && ret != -ENODEV && live > 1)
		ret = leave_out_refused(card, ret);
	if (ret < 0 && (not_master(card, ret) || going_away(card, ret)))
		return ret;
	if (ret < 0) {
		if (!card->modeset_failed)
			drm_err("%s: the kernel rejected our modeset in a test commit: %s", card->path,
				strerror(-ret));
		card->modeset_failed = true;
		return ret;
	}
	build_modeset(card, &a);
	ret = atomic_commit(&a, card,
			    DRM_MODE_ATOMIC_ALLOW_MODESET | DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT,
			    seq);
	/* (EBUSY: a commit of ours still in flight, tried again shortly; anything else is retried each second and
	 * said once) */
	if (ret < 0 && (not_master(card, ret) || going_away(card, ret))) {
		drmModeAtomicFree(a.req);
		return ret;
	}
	if (ret < 0 && ret != -EBUSY && !card->modeset_failed)
		drm_err("%s: modeset commit failed after a successful test: %s", card->path, strerror(-ret));
	if (ret < 0 && ret != -EBUSY)
		card->modeset_failed = true;
	drmModeAtomicFree(a.req);
	return ret;
}

static int legacy_modeset(struct drm_card *card)
{
	bool tried[DRM_MAX_OUTPUTS] = {false};
	int errs[DRM_MAX_OUTPUTS] = {0};
	unsigned shown = 0;
	int ret = 0;

	for (unsigned i = 0; i < card->n_crtcs; i++) {
		drmModeCrtc *crtc;

		if (output_of_crtc(card, card->crtcs[i].id))
			continue;
		crtc = drmModeGetCrtc(card->fd, card->crtcs[i].id);
		if (crtc && crtc->buffer_id) {
			drm_debug("%s: disabling unused [CRTC:%u]", card->path, crtc->crtc_id);
			drmModeSetCrtc(card->fd, crtc->crtc_id, 0, 0, 0, NULL, 0, NULL);
		}
		drmModeFreeCrtc(crtc);
	}
	/* Each CRTC on its own: one the driver refuses (a mode it cannot drive beside the others) leaves the others
	 * shown. */
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];

		if (out->failed)
			continue;
		tried[i] = true;
		if (drmModeSetCrtc(card->fd, out->crtc_id, out->pending->fb_id, 0, 0, &out->conn_id, 1,
				   &out->mode) < 0) {
			errs[i] = ret = -errno;
			out->failed = true;
			drmModeSetCrtc(card->fd, out->crtc_id, 0, 0, 0, NULL, 0, NULL);
			continue;
		}
		shown++;
		if (out->conn_props[CONN_DPMS])
			drmModeConnectorSetProperty(card->fd, out->conn_id, out->conn_props[CONN_DPMS],
						    DRM_MODE_DPMS_ON);
	}
	if (shown) {
		for (unsigned i = 0; i < card->n_outputs; i++)
			if (errs[i] < 0)
				leave_out(card->outputs[i], "drmModeSetCrtc failed", errs[i]);
		return 0;
	}
	/* None shown: the outputs tried are tried again at the retry (the caller falls back to another mode for
	 * them); not one left out before for want of a buffer, whose mode was never tried. Said once, as the
	 * atomic test commit is: there are no others shown. */
	for (unsigned i = 0; i < card->n_outputs; i++)
		card->outputs[i]->failed = !tried[i];
	if (ret < 0 && (not_master(card, ret) || going_away(card, ret)))
		return ret;
	if (ret < 0 && !card->modeset_failed)
		drm_err("%s: drmModeSetCrtc failed for every output: %s", card->path, strerror(-ret));
	card->modeset_failed = true;
	return ret < 0 ? ret : -ENODEV;
}

int drm_card_modeset(struct drm_card *card)
{
	uint64_t seq = drm_backend_next_seq(card->b);
	unsigned shown = 0;
	int ret = 0;

	/* All outputs first: an output painted before finding another's flip in flight would keep its buffer
	 * pending, never free again. */
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->inflight)
			return -EBUSY;
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];
		struct drm_region clips;

		out->failed = drm_output_buffers_init(out) < 0;
		if (out->failed || drm_output_paint(out, true, &clips) < 0) {
			out->failed = true;
			continue;
		}
		shown++;
	}
	/* No buffer for any output (logged by buffer_init): a commit without a CRTC asking for events is refused. */
	if (!shown)
		return -ENOMEM;
	if (card->atomic)
		ret = atomic_modeset(card, seq);
	else
		ret = legacy_modeset(card);
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];

		if (out->failed)
			continue;
		if (ret < 0) {
			/* Nothing could be shown, for a reason the mode may be (not a commit in flight, not a lack
			 * of memory, not the seat's): the next dispatch tries the next mode (drm_output_fall_back). */
			out->mode_refused |= ret == -EINVAL || ret == -ERANGE || ret == -ENOSPC || ret == -E2BIG;
			drm_output_commit_failed(out);
			continue;
		}
		drm_output_commit_done(out, seq);
		if (!card->atomic)
			drm_output_flip_done(out, DRM_SEQ_SYNTHETIC); /* drmModeSetCrtc returns once the mode is set */
	}
	if (ret < 0)
		return ret;
	shown = 0;
	for (unsigned i = 0; i < card->n_outputs; i++) {
		shown += !card->outputs[i]->failed;
		if (card->outputs[i]->failed)
			continue;
		card->outputs[i]->rejected = false;
		/* Its first mode shown again after every fallback was used up: a later refusal walks them again. */
		if (card->outputs[i]->fallback_spent &&
		    drm_mode_same(&card->outputs[i]->mode, &card->outputs[i]->first_mode))
			card->outputs[i]->fallback_spent = false, card->outputs[i]->fallback_next = 0;
	}
	card->needs_modeset = false;
	card->modeset_failed = false;
	card->not_master = false;
	card->going_away = false;
	drm_backend_count(card->b, DRM_COUNT_MODESET, 1);
	drm_backend_count(card->b, DRM_COUNT_COMMIT, 1);
	drm_info("%s: modeset with %u output(s)%s", card->path, shown, card->atomic ? "" : " (legacy)");
	return 0;
}

int drm_output_flip(struct drm_output *out)
{
	struct drm_card *card = out->card;
	uint64_t seq = drm_backend_next_seq(card->b);
	struct drm_region clips;
	uint32_t blob = 0;
	int ret;

	ret = drm_output_paint(out, false, &clips);
	if (ret < 0)
		return ret;
	if (card->atomic) {
		struct atomic a = {card->flip_req ? card->flip_req : drmModeAtomicAlloc(), 0};

		if (!a.req) {
			drm_output_commit_failed(out);
			return -ENOMEM;
		}
		card->flip_req = a.req;
		drmModeAtomicSetCursor(a.req, 0);
		add_plane(&a, out, &clips, &blob);
		ret = atomic_commit(&a, card, DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT, seq);
		if (blob)
			drmModeDestroyPropertyBlob(card->fd, blob);
	} else {
		ret = drmModePageFlip(card->fd, out->crtc_id, out->pending->fb_id, DRM_MODE_PAGE_FLIP_EVENT,
				      (void *)(uintptr_t)seq) < 0
			      ? -errno
			      : 0;
	}
	if (ret < 0) {
		drm_output_commit_failed(out);
		/* EACCES: master gone before our disable handler ran (not_master); the resume repaints all */
		if (ret == -EACCES)
			drm_debug("%s: [CRTC:%u] flip refused: not DRM master (a VT switch away)", out->name,
				  out->crtc_id);
		else if (going_away(card, ret))
			;
		else if (ret != -EBUSY && drm_ratelimit_pass(&out->rl, drm_now_ns()))
			drm_warn("%s: [CRTC:%u] flip failed: %s", out->name, out->crtc_id, strerror(-ret));
		return ret;
	}
	drm_output_commit_done(out, seq);
	drm_backend_count(card->b, DRM_COUNT_COMMIT, 1);
	return 0;
}

/* DPMS off: a non-blocking commit without events, only while nothing is in flight (the caller checks); a
 * commit right after it may see EBUSY and is retried. On is a full modeset. Returns 0 or the (first) error: a
 * refused DPMS off leaves every display of the card lit (backend.c blank_cards), legacy too. */
int drm_card_set_active(struct drm_card *card, bool active)
{
	int ret = 0;

	if (!card->atomic) {
		/* One connector at a time: an off the driver refuses for one stops there and lights again those turned
		 * off before it, so that the card is off or on as a whole, as an atomic commit is (blank_cards takes
		 * a refused card as still lit; one of its displays left dark was half the screens black). */
		unsigned done = card->n_outputs;
		bool crtc_off = false;

		for (unsigned i = 0; i < card->n_outputs; i++) {
			struct drm_output *out = card->outputs[i];

			if (out->failed)
				continue;
			/* Without a DPMS property (its lookup failed) the CRTC goes off itself: taken as done, the
			 * display stayed lit with a frozen picture. On again is the unblank's modeset. */
			if (!out->conn_props[CONN_DPMS]) {
				if (active || drmModeSetCrtc(card->fd, out->crtc_id, 0, 0, 0, NULL, 0, NULL) == 0) {
					crtc_off |= !active;
					continue;
				}
			} else if (drmModeConnectorSetProperty(card->fd, out->conn_id, out->conn_props[CONN_DPMS],
							       active ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF) == 0) {
				continue;
			}
			if (!ret)
				ret = -errno;
			if (!active) {
				done = i;
				break;
			}
		}
		for (unsigned i = 0; ret < 0 && !active && i < done; i++) {
			struct drm_output *out = card->outputs[i];

			if (out->conn_props[CONN_DPMS] && !out->failed)
				drmModeConnectorSetProperty(card->fd, out->conn_id, out->conn_props[CONN_DPMS],
							    DRM_MODE_DPMS_ON);
		}
		/* a CRTC turned off above comes back only with a modeset */
		if (ret < 0 && crtc_off)
			card->needs_modeset = true;
		return ret;
	}
	struct atomic a = {drmModeAtomicAlloc(), 0};
	if (!a.req)
		return -ENOMEM;
	for (unsigned i = 0; i < card->n_outputs; i++) {
		struct drm_output *out = card->outputs[i];

		if (!out->failed)
			atomic_add(&a, out->crtc_id, card->crtcs[out->crtc_index].props[CRTC_ACTIVE], active);
	}
	ret = atomic_commit(&a, card, DRM_MODE_ATOMIC_ALLOW_MODESET | DRM_MODE_ATOMIC_NONBLOCK, 0);
	drmModeAtomicFree(a.req);
	return ret;
}

static void page_flip_handler(int fd, unsigned int sequence, unsigned int tv_sec, unsigned int tv_usec,
			      unsigned int crtc_id, void *user_data);

/* drmHandleEvent gives the handler no context but user_data, which carries the commit number: the card being
 * dispatched is kept here (one thread, no re-entry). */
static struct drm_card *dispatching;

static void page_flip_handler(int fd, unsigned int sequence, unsigned int tv_sec, unsigned int tv_usec,
			      unsigned int crtc_id, void *user_data)
{
	struct drm_output *out = dispatching ? output_of_crtc(dispatching, crtc_id) : NULL;

	if (!out || !out->inflight || out->inflight_seq != (uint64_t)(uintptr_t)user_data)
		return; /* an unused CRTC being disabled, or a commit we gave up on */
	if (drm_backend_drop_flip_event(dispatching->b)) {
		drm_warn("%s: [CRTC:%u] dropping this page-flip event (fault injection, "
			 "KMSCON_FELIS_DRM_DROP_FLIP_EVENT)", out->name, out->crtc_id);
		return;
	}
	drm_output_flip_done(out, sequence);
}

void drm_card_handle_events(struct drm_card *card)
{
	drmEventContext ctx = {
		.version = 3,
		.page_flip_handler2 = page_flip_handler,
	};

	dispatching = card;
	if (drmHandleEvent(card->fd, &ctx) < 0 && errno != EAGAIN)
		drm_debug("%s: reading events: %s", card->path, strerror(errno));
	dispatching = NULL;
}
