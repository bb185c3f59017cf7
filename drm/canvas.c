/* drm/canvas.c: the canvas the program paints (the smallest output's size, turned by the rotation), and what
 * follows when no canvas, or no mode, can be had: outputs fall back to another mode of their connector. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drm/drm-internal.h"

int drm_backend_resize_canvas(struct drm_backend *b, uint32_t w, uint32_t h)
{
	free(b->canvas.pixels);
	memset(&b->canvas, 0, sizeof(b->canvas));
	if (w == 0 || h == 0)
		return 0;
	/* The stride is 32-bit and the pixels one allocation: a size past either is refused, not wrapped. */
	if (w > UINT32_MAX / 4 || (uint64_t)w * h > SIZE_MAX / 4)
		return -ENOMEM;
	if (!b->direct) {
		b->canvas.pixels = calloc((size_t)w * h, 4);
		if (!b->canvas.pixels)
			return -ENOMEM;
	}
	b->canvas.width = w;
	b->canvas.height = h;
	b->canvas.stride = w * 4;
	return 0;
}

/* No w x h canvas could be allocated: the outputs of that size go to a smaller mode (at the next dispatch, which
 * their card's retry brings), rather than a 0x0 canvas and nothing shown until a hotplug. */
static void canvas_refused(struct drm_backend *b, uint32_t w, uint32_t h)
{
	bool any = false;

	for (unsigned c = 0; c < b->n_cards; c++) {
		struct drm_card *card = b->cards[c];

		for (unsigned i = 0; i < card->n_outputs; i++) {
			struct drm_output *out = card->outputs[i];
			uint32_t ow, oh;

			drm_rotate_size(b->cfg.rotation, out->mode.hdisplay, out->mode.vdisplay, &ow, &oh);
			if (ow != w && oh != h)
				continue;
			out->mode_refused = out->canvas_refused = true;
			card->retry_ns = drm_now_ns() + DRM_BUSY_RETRY_NS;
			any = true;
		}
	}
	drm_err("cannot allocate a %ux%u canvas%s", w, h, any ? ": falling back to a smaller mode" : "");
}

/* The canvas is as large as the smallest output (turned by the rotation). Called after outputs change, and with
 * force after the rotation changed: every buffer is repainted even when the size stays (normal to inverted). */
static void update_canvas(struct drm_backend *b, bool force)
{
	static const char *const rotations[] = {"", ", turned right", ", inverted", ", turned left"};
	uint32_t w = 0, h = 0, lw = 0, lh = 0;
	unsigned n = 0, live = 0;
	bool shadow = b->cfg.force_shadow, direct, replaced = b->outputs_destroyed != b->outputs_destroyed_seen;

	/* The size of the outputs shown: one left out of the last modeset (the kernel refused it beside the others,
	 * no buffer) does not count, as if unplugged, unless none is shown. Only a single output, left out or not,
	 * can be painted directly (direct_output). */
	for (unsigned c = 0; c < b->n_cards; c++) {
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++) {
			const struct drm_output *out = b->cards[c]->outputs[i];
			uint32_t ow, oh;

			drm_rotate_size(b->cfg.rotation, out->mode.hdisplay, out->mode.vdisplay, &ow, &oh);
			w = n == 0 || ow < w ? ow : w;
			h = n == 0 || oh < h ? oh : h;
			if (!out->failed) {
				lw = live == 0 || ow < lw ? ow : lw;
				lh = live == 0 || oh < lh ? oh : lh;
				live++;
			}
			shadow |= b->cards[c]->prefer_shadow;
			n++;
		}
	}
	if (live)
		w = lw, h = lh;
	/* No DRM output: the framebuffer fallback, if there is one (always a canvas in ordinary memory: the
	 * mapping is never read). Another fbdev of the same size is still a new picture to paint. */
	force |= drm_fallback_update(b, n);
	if (b->fb) {
		drm_rotate_size(b->cfg.rotation, b->fb->width, b->fb->height, &w, &h);
		shadow = true;
		n = 1;
	}
	/* Clones share one picture: only a single output can be painted directly; and a turned one never (its
	 * copy into the buffer turns the pixels). */
	direct = n == 1 && !shadow && b->cfg.rotation == DRM_ROTATE_NORMAL;
	b->stats.outputs = n;
	if (n == 0 && !b->waiting_logged && b->seat_refused && !b->n_cards) {
		drm_info("no display yet: the seat is switching away; it is opened when the VT is back");
		b->waiting_logged = true;
	} else if (n == 0 && !b->waiting_logged) {
		drm_warn("no usable display: %s; waiting for a card or a monitor to appear",
			 b->cfg.force_fbdev ? "drm=off and no framebuffer device"
			 : b->n_cards	    ? "no connected connector can be driven"
					    : "no DRM card with KMS on this seat and no framebuffer device");
		b->waiting_logged = true;
	}
	if (n)
		b->waiting_logged = false;
	b->outputs_destroyed_seen = b->outputs_destroyed;
	if (w == b->canvas.width && h == b->canvas.height && direct == b->direct && !force) {
		/* The same size, but an output was replaced (a mode of the same size, a cable moved): painted
		 * directly, the new output's buffers hold nothing the program painted, so it must repaint all. */
		if (replaced && n && b->iface.outputs_changed && !b->creating)
			b->iface.outputs_changed(b->ud);
		return;
	}
	b->direct = direct;
	if (drm_backend_resize_canvas(b, w, h) < 0)
		canvas_refused(b, w, h);
	drm_info("canvas %ux%u on %u output(s)%s%s", b->canvas.width, b->canvas.height, n,
		 direct ? ", painted directly into the dumb buffers (no shadow preference)" : "",
		 rotations[b->cfg.rotation & 3]);
	/* Every buffer must be cleared outside the new canvas and repainted. */
	if (b->fb) {
		drm_region_set_full(&b->fb->damage);
		b->fb->dirty = true;
	}
	for (unsigned c = 0; c < b->n_cards; c++) {
		for (unsigned i = 0; i < b->cards[c]->n_outputs; i++) {
			struct drm_output *out = b->cards[c]->outputs[i];

			for (int k = 0; k < DRM_BUFFERS; k++)
				out->bufs[k].frame = 0;
			out->prepared = NULL;
			drm_region_set_full(&out->damage);
			out->dirty = true;
		}
	}
	if (b->iface.outputs_changed && !b->creating)
		b->iface.outputs_changed(b->ud);
}

void drm_backend_update_canvas(struct drm_backend *b)
{
	update_canvas(b, false);
}

void drm_backend_set_rotation(struct drm_backend *b, enum drm_rotation rotation)
{
	if ((unsigned)rotation > DRM_ROTATE_LEFT || rotation == b->cfg.rotation)
		return;
	b->cfg.rotation = rotation;
	/* As a hotplug: a new canvas, every buffer repainted, the program told (it repaints and presents, which
	 * commits). */
	update_canvas(b, true);
}

enum drm_rotation drm_backend_get_rotation(const struct drm_backend *b)
{
	return b->cfg.rotation;
}

/* Outputs whose mode could not be shown go to their next mode (card.c drm_output_fall_back): here, where the
 * canvas follows at once, never inside a present (the program may be painting the old canvas). The card tries
 * again shortly. */
void drm_backend_fall_back_modes(struct drm_backend *b)
{
	for (unsigned c = 0; c < b->n_cards; c++) {
		struct drm_card *card = b->cards[c];

		for (unsigned i = 0; i < card->n_outputs; i++) {
			if (!card->outputs[i]->mode_refused || !drm_output_fall_back(card->outputs[i]))
				continue;
			b->canvas_recheck = true;
			card->retry_ns = drm_now_ns() + DRM_BUSY_RETRY_NS;
		}
	}
}
