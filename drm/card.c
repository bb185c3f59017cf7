/* drm/card.c: one DRM card: capabilities, CRTCs and planes with their property ids, and the choice of
 * connector, CRTC and primary plane for every connected connector. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>

#include "drm/drm-internal.h"

static int card_load_planes(struct drm_card *card)
{
	drmModePlaneRes *pres = drmModeGetPlaneResources(card->fd);
	int ret = 0;

	if (!pres)
		return -errno;
	card->planes = calloc(pres->count_planes ? pres->count_planes : 1, sizeof(*card->planes));
	if (!card->planes) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < pres->count_planes; i++) {
		drmModePlane *p = drmModeGetPlane(card->fd, pres->planes[i]);
		struct drm_card_plane *cp = &card->planes[card->n_planes];
		uint64_t values[PLANE__COUNT];

		if (!p)
			continue;
		cp->id = p->plane_id;
		cp->possible_crtcs = p->possible_crtcs;
		for (uint32_t f = 0; f < p->count_formats; f++)
			if (p->formats[f] == DRM_FORMAT_XRGB8888)
				cp->xrgb8888 = true;
		drmModeFreePlane(p);
		if (drm_props_lookup(card->fd, cp->id, DRM_MODE_OBJECT_PLANE, drm_plane_prop_names, PLANE__COUNT,
				     cp->props, values) < 0)
			continue;
		cp->type = values[PLANE_TYPE];
		card->n_planes++;
	}
out:
	drmModeFreePlaneResources(pres);
	return ret;
}

static int card_load_crtcs(struct drm_card *card, const drmModeRes *res)
{
	card->crtcs = calloc(res->count_crtcs ? (size_t)res->count_crtcs : 1, sizeof(*card->crtcs));
	if (!card->crtcs)
		return -ENOMEM;
	for (int i = 0; i < res->count_crtcs; i++) {
		struct drm_card_crtc *c = &card->crtcs[i];

		c->id = res->crtcs[i];
		if (card->atomic)
			drm_props_lookup(card->fd, c->id, DRM_MODE_OBJECT_CRTC, drm_crtc_prop_names, CRTC__COUNT,
					 c->props, NULL);
	}
	card->n_crtcs = (unsigned)res->count_crtcs;
	return 0;
}

static void card_setup_caps(struct drm_card *card)
{
	uint64_t cap = 0;
	const struct drm_backend_cfg_view *cfg = drm_backend_cfg(card->b);

	if (drmSetClientCap(card->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) < 0)
		drm_warn("%s: no universal planes (%s)", card->path, strerror(errno));
	card->atomic = !cfg->force_legacy && drmSetClientCap(card->fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	if (drmGetCap(card->fd, DRM_CAP_DUMB_PREFER_SHADOW, &cap) == 0)
		card->prefer_shadow = cap != 0;
}

/* use-original-mode: what drives each connector now, before any commit of ours. drmModeGetCrtc gives an atomic
 * driver's state too (the CRTC's MODE_ID blob, mode_valid = enabled), so one path serves both APIs; the
 * connector is read without a probe (drmModeGetConnectorCurrent): only its encoder is needed, and the scan
 * probes it right after. */
static void card_read_originals(struct drm_card *card, const drmModeRes *res)
{
	const size_t max = sizeof(card->originals) / sizeof(card->originals[0]);

	card->originals_read = true;
	for (int c = 0; c < res->count_connectors && card->n_originals < max; c++) {
		drmModeConnector *conn = drmModeGetConnectorCurrent(card->fd, res->connectors[c]);
		drmModeEncoder *enc = conn && conn->encoder_id ? drmModeGetEncoder(card->fd, conn->encoder_id) : NULL;
		drmModeCrtc *crtc = enc && enc->crtc_id ? drmModeGetCrtc(card->fd, enc->crtc_id) : NULL;
		struct drm_card_original *o;

		if (!conn)
			continue;
		o = &card->originals[card->n_originals++];
		*o = (struct drm_card_original){.conn_id = conn->connector_id, .why = "no CRTC drives it"};
		if (crtc && crtc->mode_valid && drm_mode_usable(&crtc->mode)) {
			o->valid = true;
			o->mode = crtc->mode;
			drm_debug("%s: connector %u driven at %ux%u by CRTC %u", card->path, o->conn_id,
				  o->mode.hdisplay, o->mode.vdisplay, crtc->crtc_id);
		} else if (crtc) {
			o->why = "its CRTC has no valid mode";
		}
		drmModeFreeCrtc(crtc);
		drmModeFreeEncoder(enc);
		drmModeFreeConnector(conn);
	}
}

int drm_card_open(struct drm_backend *b, const char *path, dev_t devnum, struct drm_card **out)
{
	struct drm_card *card = calloc(1, sizeof(*card));
	drmModeRes *res = NULL;
	uint64_t cap = 0;
	int ret;

	if (!card)
		return -ENOMEM;
	card->b = b;
	card->devnum = devnum;
	snprintf(card->path, sizeof(card->path), "%s", path);
	drm_debug("%s: opening", path);
	card->fd = drm_backend_open_device(b, path);
	if (card->fd < 0) {
		ret = card->fd;
		/* ENODEV right after a hotplug is normal, and EPERM is the seat that disabled us (switched away
		 * while we started): the caller tries again (the resume after the next enable, for EPERM). */
		b->seat_refused = ret == -EPERM;
		if (ret == -EPERM)
			drm_info("%s: not opened, the seat is not ours (a VT switch away): opened when it is back", path);
		else
			drm_log(ret == -ENODEV || ret == -ENOENT ? 6 : 3, "%s: cannot open: %s", path, strerror(-ret));
		goto err_free;
	}
	if (drmGetCap(card->fd, DRM_CAP_DUMB_BUFFER, &cap) < 0 || !cap) {
		drm_info("%s: no dumb buffers, not a display card", path);
		ret = -ENODEV;
		goto err_close;
	}
	b->seat_refused = false;
	drm_debug("%s: opened", path);
	card_setup_caps(card);
	res = drmModeGetResources(card->fd);
	if (!res) {
		ret = -errno ? -errno : -ENODEV;
		drm_info("%s: no KMS resources (%s)", path, strerror(-ret));
		goto err_close;
	}
	ret = card_load_crtcs(card, res);
	if (ret < 0)
		goto err_res;
	ret = card_load_planes(card);
	if (ret < 0)
		goto err_res;
	/* While the seat is not ours (a card opened late, on a retry) the CRTCs show another master's choice. */
	if (drm_backend_cfg(b)->use_original_mode && !b->suspended)
		card_read_originals(card, res);
	drmModeFreeResources(res);
	card->needs_modeset = true;
	drm_info("%s: %s API, %u CRTCs, %u planes, %s", path, card->atomic ? "atomic" : "legacy",
		 card->n_crtcs, card->n_planes, card->prefer_shadow ? "prefers shadow" : "no shadow preference");
	*out = card;
	return 0;

err_res:
	drmModeFreeResources(res);
err_close:
	free(card->planes);
	free(card->crtcs);
	drm_backend_close_device(b, card->fd);
err_free:
	free(card);
	return ret;
}

void drm_card_close(struct drm_card *card)
{
	if (!card)
		return;
	for (unsigned i = 0; i < card->n_outputs; i++)
		drm_output_destroy(card->outputs[i]);
	drm_backend_close_device(card->b, card->fd);
	drmModeAtomicFree(card->flip_req);
	free(card->planes);
	free(card->crtcs);
	free(card);
}

/* The encoders of the connectors being given CRTCs (drm_assign), each read once. */
struct enc_table {
	unsigned n;
	uint32_t id[DRM_ASSIGN_MAX_ENCODERS], crtcs[DRM_ASSIGN_MAX_ENCODERS], crtc_id[DRM_ASSIGN_MAX_ENCODERS];
};

/* The index of encoder id in t (read when new), or -1 when it cannot be read or t is full. */
static int enc_index(const struct drm_card *card, struct enc_table *t, uint32_t id)
{
	drmModeEncoder *enc;

	for (unsigned e = 0; e < t->n; e++)
		if (t->id[e] == id)
			return (int)e;
	if (t->n == DRM_ASSIGN_MAX_ENCODERS || !(enc = drmModeGetEncoder(card->fd, id)))
		return -1;
	t->id[t->n] = id;
	t->crtcs[t->n] = enc->possible_crtcs;
	t->crtc_id[t->n] = enc->crtc_id;
	drmModeFreeEncoder(enc);
	return (int)t->n++;
}

/* A connector's encoders (ids, n of them) as indices in t, into a->encoders, and into a->crtcs the CRTC indices
 * they can drive; a->prefer_crtc: the index of the CRTC its encoder now (cur, 0: none) drives (fbcon's, another
 * master's, ours), or -1. */
static void conn_encoders(const struct drm_card *card, struct enc_table *t, const uint32_t *ids, unsigned n,
			  uint32_t cur, struct drm_assign_conn *a)
{
	a->crtcs = a->encoders = 0;
	a->prefer_crtc = -1;
	for (unsigned i = 0; i < n; i++) {
		int e = enc_index(card, t, ids[i]);

		if (e < 0)
			continue;
		a->encoders |= 1u << e;
		a->crtcs |= t->crtcs[e];
		for (unsigned k = 0; k < card->n_crtcs && k < 32; k++)
			if (cur == ids[i] && t->crtc_id[e] && card->crtcs[k].id == t->crtc_id[e] && (t->crtcs[e] >> k & 1))
				a->prefer_crtc = (int)k;
	}
}

/* The mode conn's CRTC drove when the card was opened, or NULL with *why saying why there is none. */
static const drmModeModeInfo *original_mode(const struct drm_card *card, uint32_t conn_id, const char **why)
{
	if (card->originals_done) {
		*why = "connected after start";
		return NULL;
	}
	if (!card->originals_read) {
		*why = "the card was opened while the seat was another's";
		return NULL;
	}
	for (unsigned i = 0; i < card->n_originals; i++) {
		if (card->originals[i].conn_id != conn_id)
			continue;
		*why = card->originals[i].why;
		return card->originals[i].valid ? &card->originals[i].mode : NULL;
	}
	*why = "not read at start";
	return NULL;
}

/* A preferred mode passed over because no buffer or canvas can be made for it (a DisplayID's near 65535x65535):
 * said, with the mode taken instead. */
static void huge_preferred(const struct drm_card *card, const drmModeConnector *conn, const char *name,
			   const drmModeModeInfo *taken)
{
	for (int i = 0; i < conn->count_modes; i++) {
		const drmModeModeInfo *m = &conn->modes[i];

		if ((m->type & DRM_MODE_TYPE_PREFERRED) && (m->hdisplay > 16384 || m->vdisplay > 16384)) {
			drm_log(card->quiet ? 7 : 3, "%s: its preferred mode %ux%u cannot be shown (at most 16384x16384); "
				"%ux%u instead", name, m->hdisplay, m->vdisplay, taken->hdisplay, taken->vdisplay);
			return;
		}
	}
}

int drm_card_choose_mode(const struct drm_card *card, const drmModeConnector *conn, const char *name,
			 drmModeModeInfo *mode, int *err)
{
	const struct drm_backend_cfg_view *cfg = drm_backend_cfg(card->b);
	const drmModeModeInfo *orig = NULL;
	const char *why = NULL;
	char list[512];
	int mi;

	/* --mode wins: drm_backend_create said so once. */
	if (cfg->use_original_mode && !cfg->mode_width)
		orig = original_mode(card, conn->connector_id, &why);
	mi = drm_mode_select(conn->modes, conn->count_modes, cfg->mode_width, cfg->mode_height, orig);
	if (mi == DRM_SELECT_ORIGINAL) {
		*mode = *orig;
		return DRM_SOURCE_KEPT_UNLISTED;
	}
	if (mi >= 0) {
		*mode = conn->modes[mi];
		if (orig)
			return DRM_SOURCE_KEPT;
		if (!cfg->mode_width)
			huge_preferred(card, conn, name, mode);
		if (why)
			drm_notice("%s: no original mode to keep (%s); preferred mode", name, why);
		return cfg->mode_width ? DRM_SOURCE_ASKED : DRM_SOURCE_PREFERRED;
	}
	/* No modes at all (an EDID not read yet, a KVM switched away) says nothing about --mode: the connector is
	 * skipped and the others still used; with none left the backend waits for hotplug. */
	if (conn->count_modes == 0) {
		drm_log(card->quiet ? 7 : 4, "%s: connected but has no modes; not used", name);
		return -1;
	}
	drm_mode_list(conn->modes, conn->count_modes, list, sizeof(list));
	if (!cfg->mode_width) {
		drm_log(card->quiet ? 7 : 3, "%s: no mode of this display can be shown (each past 16384x16384): %s; "
			"not used", name, list);
		return -1;
	}
	/* --mode's WxH is not among this display's modes: its preferred mode instead, said with the list (a user
	 * with two different monitors: the others show WxH). -EINVAL tells the backend, for which a mode no
	 * display offers is an error at start (drm_backend_scan). */
	*err = -EINVAL;
	mi = drm_mode_choose(conn->modes, conn->count_modes, 0, 0);
	if (mi < 0) {
		drm_log(card->quiet ? 7 : 3, "%s: mode %ux%u is not supported; available modes: %s; none can be shown "
			"(each past 16384x16384): not used", name, cfg->mode_width, cfg->mode_height, list);
		return -1;
	}
	*mode = conn->modes[mi];
	drm_log(card->quiet ? 7 : 4, "%s: mode %ux%u is not supported; available modes: %s; its preferred mode "
		"%ux%u instead", name, cfg->mode_width, cfg->mode_height, list, mode->hdisplay, mode->vdisplay);
	return DRM_SOURCE_PREFERRED;
}

/* A new output of conn (named name) at mode (from src) on CRTC index ci and plane plane_id (0 on legacy cards), or
 * NULL without memory. Does not take ownership of conn. */
static struct drm_output *output_create(struct drm_card *card, const drmModeConnector *conn, const char *name,
					const drmModeModeInfo *mode, int src, uint32_t crtcs, unsigned ci,
					uint32_t plane_id)
{
	struct drm_output *out = calloc(1, sizeof(*out));

	if (!out)
		return NULL;
	out->card = card;
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->conn_id = conn->connector_id;
	out->possible_crtcs = crtcs;
	for (int e = 0; e < conn->count_encoders && out->n_enc_ids < DRM_OUTPUT_MAX_ENCODERS; e++)
		out->enc_ids[out->n_enc_ids++] = conn->encoders[e];
	out->crtc_index = ci;
	out->crtc_id = card->crtcs[ci].id;
	out->plane_id = plane_id;
	out->mode = *mode;
	out->mode_source = (uint8_t)src;
	out->refresh_mhz = drm_mode_refresh_mhz(&out->mode);
	out->period_ns = drm_mode_period_ns(&out->mode);
	drm_props_lookup(card->fd, out->conn_id, DRM_MODE_OBJECT_CONNECTOR, drm_conn_prop_names, CONN__COUNT,
			 out->conn_props, NULL);
	drm_damage_ring_reset(&out->history);
	drm_region_set_full(&out->damage);
	out->dirty = true;
	static const char *const sources[] = {"preferred", "asked for", "kept from start",
					      "kept from start, not among the connector's modes", "fallback"};
	drm_info("%s: [CRTC:%u] [PLANE:%u] mode %ux%u@%u.%03u (%s)", name, out->crtc_id, out->plane_id,
		 out->mode.hdisplay, out->mode.vdisplay, out->refresh_mhz / 1000, out->refresh_mhz % 1000,
		 sources[out->mode_source % 5]);
	return out;
}

/* The connected connectors that could not be used, so that why is said once, not at every rescan (each hotplug
 * uevent, each switch back to the VT): forgotten when one is used or seen disconnected. Bounded: the oldest goes
 * for a new one. */
static bool unusable_find(const struct drm_card *card, uint32_t id, unsigned *at)
{
	for (unsigned i = 0; i < card->n_unusable; i++) {
		if (card->unusable[i] == id) {
			*at = i;
			return true;
		}
	}
	return false;
}

static void unusable_set(struct drm_card *card, uint32_t id, bool unusable)
{
	const unsigned max = sizeof(card->unusable) / sizeof(card->unusable[0]);
	unsigned at;

	if (unusable_find(card, id, &at) == unusable)
		return;
	if (!unusable) {
		card->unusable[at] = card->unusable[--card->n_unusable];
		return;
	}
	if (card->n_unusable == max)
		memmove(&card->unusable[0], &card->unusable[1], --card->n_unusable * sizeof(card->unusable[0]));
	card->unusable[card->n_unusable++] = id;
}

bool drm_output_keeps_mode(const struct drm_output *out, const drmModeConnector *conn)
{
	const struct drm_backend_cfg_view *cfg = drm_backend_cfg(out->card->b);
	const drmModeModeInfo *shown = &out->mode;
	int mi;

	if (out->mode_source == DRM_SOURCE_KEPT_UNLISTED)
		return true;
	if (out->mode_source == DRM_SOURCE_KEPT || out->mode_source == DRM_SOURCE_FALLBACK) {
		/* No modes at this probe (an EDID not read, a KVM switched away): keep what works, as for a mode asked
		 * for. Dropped, the output came back at the preferred mode: the original is known at the first scan
		 * only. */
		if (conn->count_modes == 0)
			return true;
		for (int i = 0; i < conn->count_modes; i++)
			if (drm_mode_same(&conn->modes[i], shown))
				return true;
		return false;
	}
	mi = drm_mode_choose(conn->modes, conn->count_modes, cfg->mode_width, cfg->mode_height);
	if (mi < 0)
		return true; /* keep what works */
	return conn->modes[mi].hdisplay == shown->hdisplay && conn->modes[mi].vdisplay == shown->vdisplay &&
	       conn->modes[mi].clock == shown->clock;
}

/* FNV-1a over conn's modes: whether the list changed since a fallback (legacy). */
static uint32_t modes_hash(const drmModeConnector *conn)
{
	const unsigned char *p = (const unsigned char *)conn->modes;
	uint32_t h = 2166136261u;

	for (size_t i = 0; conn->count_modes > 0 && i < (size_t)conn->count_modes * sizeof(*conn->modes); i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* out to mode m: new buffers and mode blob, the whole picture to paint, a modeset. */
static void set_mode(struct drm_output *out, const drmModeModeInfo *m, uint8_t source)
{
	struct drm_card *card = out->card;

	drm_output_buffers_finish(out);
	if (out->mode_blob)
		drmModeDestroyPropertyBlob(card->fd, out->mode_blob);
	out->mode_blob = 0;
	out->mode = *m;
	out->mode_source = source;
	out->canvas_refused = false;
	out->failed = false;
	out->refresh_mhz = drm_mode_refresh_mhz(&out->mode);
	out->period_ns = drm_mode_period_ns(&out->mode);
	drm_damage_ring_reset(&out->history);
	drm_region_set_full(&out->damage);
	out->dirty = true;
	/* New buffers: painted directly, the program must repaint all even at the same canvas size. */
	card->b->outputs_destroyed++;
	card->needs_modeset = true;
}

bool drm_output_fall_back(struct drm_output *out)
{
	struct drm_card *card = out->card;
	drmModeConnector *conn;
	drmModeModeInfo refused[2], m;
	uint64_t max_area = out->canvas_refused ? (uint64_t)out->mode.hdisplay * out->mode.vdisplay : 0;
	int mi = -1;

	if (out->inflight)
		return false; /* its buffers are the kernel's until the event: the next dispatch */
	if (out->fallback_next == 0 && !out->fallback_spent) {
		out->first_mode = out->mode;
		out->first_source = out->mode_source;
	}
	refused[0] = out->first_mode;
	refused[1] = out->mode;
	out->mode_refused = false;
	conn = drmModeGetConnector(card->fd, out->conn_id);
	if (conn)
		mi = drm_mode_fallback(conn->modes, conn->count_modes, &out->fallback_next, refused, 2, max_area);
	if (mi < 0) {
		/* Back to the first mode, the best one, tried each second: the refusals may have been for a while
		 * (a link trained low, a busy GPU); staying on the last mode tried kept the smallest, often. */
		bool back = !drm_mode_same(&out->mode, &out->first_mode);

		if (!out->fallback_spent)
			drm_err("%s: no other mode to fall back to; %ux%u is tried again each second", out->name,
				out->first_mode.hdisplay, out->first_mode.vdisplay);
		out->fallback_spent = true;
		out->canvas_refused = false;
		drmModeFreeConnector(conn);
		if (back)
			set_mode(out, &out->first_mode, out->first_source);
		return back;
	}
	/* Said as an error when the mode was asked for (--mode): the display shows, on another mode. */
	drm_log(out->mode_source == DRM_SOURCE_ASKED ? 3 : 4, "%s: %s %ux%u%s; falling back to %ux%u", out->name,
		out->canvas_refused ? "no canvas can be allocated for" : "the kernel refuses mode", out->mode.hdisplay,
		out->mode.vdisplay, out->mode_source == DRM_SOURCE_ASKED ? " (asked for with --mode)" : "",
		conn->modes[mi].hdisplay, conn->modes[mi].vdisplay);
	m = conn->modes[mi];
	out->refused_modes = modes_hash(conn);
	out->refused_modes_set = !card->atomic;
	drmModeFreeConnector(conn);
	set_mode(out, &m, DRM_SOURCE_FALLBACK);
	return true;
}

static bool listed(const drmModeConnector *conn, const drmModeModeInfo *m)
{
	for (int i = 0; i < conn->count_modes; i++)
		if (drm_mode_same(&conn->modes[i], m))
			return true;
	return false;
}

/* out shows a fallback mode: at a rescan (a hotplug uevent, the switch back to the VT) the mode it would be given
 * now is tried with a test commit, and taken when the kernel accepts it: a refusal for a while (a DP link trained
 * at a lower rate) kept the lower mode until the display was unplugged. That mode is --mode's or the preferred
 * one, or with use-original-mode the one kept from start (first_mode, while the connector lists it): asked of
 * drm_card_choose_mode, which knows the originals at the card's first scan only, it was the preferred one. Taken in
 * place (the output keeps its CRTC and where its mode came from); refused, nothing changes on screen. Legacy KMS
 * has no test: taken, and the modeset falls back again if the kernel refuses it, the screen blank a moment; so
 * only when the connector's modes changed since the fallback, or after the switch back to the VT
 * (refused_modes): it was at every hotplug burst. Returns true when the mode changed. */
static bool chosen_mode_back(struct drm_output *out, const drmModeConnector *conn)
{
	drmModeModeInfo m;
	int err = 0, src;

	if (out->mode_source != DRM_SOURCE_FALLBACK || out->inflight)
		return false;
	if (out->refused_modes_set && modes_hash(conn) == out->refused_modes)
		return false;
	out->refused_modes_set = false;
	if (out->first_source == DRM_SOURCE_KEPT_UNLISTED ||
	    (out->first_source == DRM_SOURCE_KEPT && listed(conn, &out->first_mode))) {
		m = out->first_mode;
		src = out->first_source;
	} else {
		out->card->quiet = true;
		src = drm_card_choose_mode(out->card, conn, out->name, &m, &err);
		out->card->quiet = false;
	}
	if (src < 0 || drm_mode_same(&m, &out->mode) || drm_output_test_mode(out, &m) < 0)
		return false;
	drm_info("%s: mode %ux%u accepted again (a test commit): leaving the fallback %ux%u", out->name, m.hdisplay,
		 m.vdisplay, out->mode.hdisplay, out->mode.vdisplay);
	set_mode(out, &m, (uint8_t)src);
	out->fallback_next = 0;
	out->fallback_spent = false;
	return true;
}

void drm_card_connector_event(struct drm_card *card, uint32_t conn_id)
{
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->conn_id == conn_id)
			card->outputs[i]->refused_modes_set = false;
}

/* A connected connector without an output, with the mode it would show, waiting for a CRTC (drm_card_scan). */
struct fresh {
	drmModeConnector *conn;
	char name[40];
	drmModeModeInfo mode;
	int src;
	bool quiet; /* said unusable before: said again only at debug level */
};

/* Connector id of res that is connected and has no output yet, with its mode (said when it has none), into *f;
 * false when there is nothing to show on it (conn freed). */
static bool fresh_connector(struct drm_card *card, uint32_t id, struct fresh *f, int *err)
{
	drmModeConnector *conn;
	const char *type;
	unsigned at;

	/* A shown display's connector was probed a moment ago (drm_card_scan): a probe reads the EDID. */
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->conn_id == id)
			return false;
	conn = drmModeGetConnector(card->fd, id);
	if (!conn)
		return false;
	if (conn->connection != DRM_MODE_CONNECTED) {
		unusable_set(card, id, false);
		goto none;
	}
	type = drmModeGetConnectorTypeName(conn->connector_type);
	snprintf(f->name, sizeof(f->name), "[CONNECTOR:%u:%s-%u]", id, type ? type : "Unknown",
		 conn->connector_type_id);
	f->quiet = card->quiet = unusable_find(card, id, &at);
	f->src = drm_card_choose_mode(card, conn, f->name, &f->mode, err);
	card->quiet = false;
	if (f->src < 0) {
		unusable_set(card, id, true);
		goto none;
	}
	f->conn = conn;
	return true;
none:
	drmModeFreeConnector(conn);
	return false;
}

/* out moves to CRTC index ci (and plane plane_id) so that another display can be shown. A flip in flight is
 * counted as done: its event comes for the CRTC it leaves. */
static void move_output(struct drm_output *out, unsigned ci, uint32_t plane_id)
{
	struct drm_card *card = out->card;

	if (out->crtc_index == ci && out->plane_id == plane_id)
		return;
	if (out->inflight)
		drm_output_flip_done(out, DRM_SEQ_SYNTHETIC);
	drm_info("%s: moves to [CRTC:%u] [PLANE:%u] from [CRTC:%u] [PLANE:%u], so that another display can be shown",
		 out->name, card->crtcs[ci].id, plane_id, out->crtc_id, out->plane_id);
	out->crtc_index = ci;
	out->crtc_id = card->crtcs[ci].id;
	out->plane_id = plane_id;
	card->needs_modeset = true;
}

/* The card's primary planes that take XRGB8888 (atomic): their indices in card->planes and their masks. */
static unsigned usable_planes(const struct drm_card *card, unsigned idx[DRM_ASSIGN_MAX_PLANES],
			      uint32_t crtcs[DRM_ASSIGN_MAX_PLANES])
{
	unsigned n = 0;

	for (unsigned i = 0; card->atomic && i < card->n_planes && n < DRM_ASSIGN_MAX_PLANES; i++) {
		if (card->planes[i].type != DRM_PLANE_TYPE_PRIMARY || !card->planes[i].xrgb8888)
			continue;
		idx[n] = i;
		crtcs[n++] = card->planes[i].possible_crtcs;
	}
	return n;
}

/* Outputs for the connected connectors without one (fresh, n_fresh): CRTCs and planes for all of them and those
 * shown (drm_assign), shown ones moved where that serves one more. Frees their connectors. Returns true when an
 * output was made. */
static bool assign_and_create(struct drm_card *card, struct fresh *fresh, unsigned n_fresh)
{
	struct drm_assign_conn a[DRM_MAX_OUTPUTS];
	unsigned pidx[DRM_ASSIGN_MAX_PLANES], n = card->n_outputs, np;
	uint32_t pcrtcs[DRM_ASSIGN_MAX_PLANES];
	struct enc_table encs = {0};
	bool changed = false;

	if (!n_fresh)
		return false; /* nothing new: nothing moves */
	np = usable_planes(card, pidx, pcrtcs);
	for (unsigned i = 0; i < n; i++) {
		const struct drm_output *out = card->outputs[i];

		a[i] = (struct drm_assign_conn){.keep_crtc = (int)out->crtc_index, .keep_plane = -1};
		conn_encoders(card, &encs, out->enc_ids, out->n_enc_ids, 0, &a[i]);
		a[i].crtcs = out->possible_crtcs;
		for (unsigned p = 0; p < np; p++)
			if (card->planes[pidx[p]].id == out->plane_id)
				a[i].keep_plane = (int)p;
	}
	for (unsigned f = 0; f < n_fresh; f++) {
		a[n + f] = (struct drm_assign_conn){.keep_crtc = -1, .keep_plane = -1};
		conn_encoders(card, &encs, fresh[f].conn->encoders,
			      fresh[f].conn->count_encoders > 0 ? (unsigned)fresh[f].conn->count_encoders : 0,
			      fresh[f].conn->encoder_id, &a[n + f]);
	}
	drm_assign(a, n + n_fresh, card->n_crtcs, encs.crtcs, encs.n, pcrtcs, np, card->atomic);
	/* plane indices to plane ids (0: none, legacy) */
	for (unsigned i = 0; i < n + n_fresh; i++)
		a[i].plane = a[i].plane >= 0 ? (int)card->planes[pidx[a[i].plane]].id
					     : i < n ? (int)card->outputs[i]->plane_id : 0;
	for (unsigned i = 0; i < n; i++)
		if (a[i].crtc >= 0) /* always: a shown output keeps a CRTC */
			move_output(card->outputs[i], (unsigned)a[i].crtc, (uint32_t)a[i].plane);
	for (unsigned f = 0; f < n_fresh; f++) {
		const struct drm_assign_conn *fa = &a[n + f];
		struct fresh *fr = &fresh[f];
		struct drm_output *out = NULL;

		if (fa->crtc < 0)
			drm_log(fr->quiet ? 7 : 4, "%s: no free CRTC with a primary plane; not used", fr->name);
		else
			out = output_create(card, fr->conn, fr->name, &fr->mode, fr->src, fa->crtcs,
					    (unsigned)fa->crtc, (uint32_t)fa->plane);
		unusable_set(card, fr->conn->connector_id, !out);
		if (out) {
			card->outputs[card->n_outputs++] = out;
			changed = true;
		}
		drmModeFreeConnector(fr->conn);
	}
	return changed;
}

bool drm_card_scan(struct drm_card *card, int *err)
{
	drmModeRes *res = drmModeGetResources(card->fd);
	struct fresh fresh[DRM_MAX_OUTPUTS];
	uint32_t gone[DRM_MAX_OUTPUTS]; /* connectors of outputs seen disconnected: not probed again */
	unsigned n_fresh = 0, n_gone = 0;
	bool changed = false;

	*err = 0;
	if (!res) {
		drm_warn("%s: cannot read resources: %s", card->path, strerror(errno));
		return false;
	}
	/* Drop outputs that went away first, so that new ones can take their CRTCs. */
	for (unsigned i = 0; i < card->n_outputs;) {
		struct drm_output *out = card->outputs[i];
		drmModeConnector *conn = drmModeGetConnector(card->fd, out->conn_id);
		bool keep = conn && conn->connection == DRM_MODE_CONNECTED;
		bool same_mode = keep && drm_output_keeps_mode(out, conn);

		if (same_mode)
			changed |= chosen_mode_back(out, conn);
		drmModeFreeConnector(conn);
		if (keep && same_mode) {
			i++;
			continue;
		}
		drm_info("%s: %s", out->name, keep ? "mode changed" : "disconnected");
		if (!keep)
			gone[n_gone++] = out->conn_id;
		drm_output_destroy(card->outputs[i]);
		card->outputs[i] = card->outputs[--card->n_outputs];
		changed = true;
	}
	for (int c = 0; c < res->count_connectors && card->n_outputs + n_fresh < DRM_MAX_OUTPUTS; c++) {
		bool seen_gone = false;

		for (unsigned g = 0; g < n_gone; g++)
			seen_gone |= gone[g] == res->connectors[c];
		if (!seen_gone)
			n_fresh += fresh_connector(card, res->connectors[c], &fresh[n_fresh], err);
	}
	changed |= assign_and_create(card, fresh, n_fresh);
	drmModeFreeResources(res);
	card->originals_done = true;
	if (changed)
		card->needs_modeset = true;
	return changed;
}
