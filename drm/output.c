/* drm/output.c: an output's dumb buffers, the slots they move through (pending, queued, current) and the
 * copy of canvas damage into them.
 *
 * Shadow mode: dumb buffers are usually write-combined or uncached: we only ever write them, row by row with
 * memcpy from the cached canvas, and only the union of damage over the buffer's age. A turned display
 * (drm_backend_set_rotation) is always in shadow mode: the copy turns the pixels (rotate.c).
 * Direct mode (no shadow preference: the buffers are ordinary cached memory): the program paints into a buffer
 * itself; before that the buffer catches up with the newest frame by copying, from the buffer showing it, what
 * changed since it was shown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>

#include "drm/drm-internal.h"

#define WATCHDOG_NS (1000LL * 1000000)

static void buffer_finish(struct drm_output *out, struct drm_buffer *buf)
{
	int fd = out->card->fd;

	if (buf->map)
		munmap(buf->map, buf->size);
	if (buf->fb_id)
		drmModeRmFB(fd, buf->fb_id);
	if (buf->handle)
		drmModeDestroyDumbBuffer(fd, buf->handle);
	memset(buf, 0, sizeof(*buf));
}

static int buffer_init(struct drm_output *out, struct drm_buffer *buf)
{
	int fd = out->card->fd;
	uint32_t w = out->mode.hdisplay, h = out->mode.vdisplay;
	uint32_t handles[4] = {0}, pitches[4] = {0}, offsets[4] = {0};
	uint64_t offset;
	/* Said once until a buffer is made: the frame is tried again each second (backend.c kick). */
	int ret, prio = out->buffer_failed ? 7 : 3;

	ret = drmModeCreateDumbBuffer(fd, w, h, 32, 0, &buf->handle, &buf->stride, &buf->size);
	if (ret < 0) {
		drm_log(prio, "%s: cannot create a %ux%u dumb buffer: %s", out->name, w, h, strerror(-ret));
		out->buffer_failed = true;
		return ret;
	}
	buf->width = w;
	buf->height = h;
	/* What the copies and the program write is stride x height from the map, a row of w pixels each: a pitch or
	 * size the driver got wrong (or one past the address space) must not become a write past the mapping. */
	if (buf->stride < (uint64_t)w * 4 || buf->size < (uint64_t)buf->stride * h || buf->size > SIZE_MAX) {
		drm_log(prio, "%s: the driver's %ux%u dumb buffer is too small or too large (pitch %u, %llu bytes)",
			out->name, w, h, buf->stride, (unsigned long long)buf->size);
		ret = -ENOMEM;
		goto err;
	}
	handles[0] = buf->handle;
	pitches[0] = buf->stride;
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &buf->fb_id, 0) < 0) {
		ret = -errno;
		buf->fb_id = 0;
		drm_log(prio, "%s: cannot add a framebuffer: %s", out->name, strerror(-ret));
		goto err;
	}
	ret = drmModeMapDumbBuffer(fd, buf->handle, &offset);
	if (ret < 0) {
		drm_log(prio, "%s: cannot map a dumb buffer: %s", out->name, strerror(-ret));
		goto err;
	}
	buf->map = mmap(NULL, buf->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
	if (buf->map == MAP_FAILED) {
		ret = -errno;
		buf->map = NULL;
		drm_log(prio, "%s: cannot mmap a dumb buffer: %s", out->name, strerror(-ret));
		goto err;
	}
	buf->frame = 0;
	out->buffer_failed = false;
	drm_debug("%s: dumb buffer %ux%u created and mapped (fb %u)", out->name, w, h, buf->fb_id);
	return 0;
err:
	out->buffer_failed = true;
	buffer_finish(out, buf);
	return ret;
}

int drm_output_test_mode(struct drm_output *out, const drmModeModeInfo *m)
{
	drmModeModeInfo shown = out->mode;
	bool failed = out->buffer_failed;
	struct drm_buffer tmp = {0};
	int ret;

	if (!out->card->atomic)
		return 0;
	out->mode = *m;
	out->buffer_failed = true; /* a buffer not made for a test is no error to say */
	ret = buffer_init(out, &tmp);
	if (ret == 0)
		ret = drm_card_test_output(out->card, out, &tmp);
	buffer_finish(out, &tmp); /* never on screen: removing its framebuffer turns nothing off */
	out->mode = shown;
	out->buffer_failed = failed;
	return ret;
}

/* Only the first buffer: the others are created when a frame finds every buffer busy (free_buffer), i.e. after
 * the first frame is on screen. Creating, mapping and (for the program) touching a 3 MB buffer took part of the
 * time before the first frame in the TCG guest, for a buffer that frame does not use. */
int drm_output_buffers_init(struct drm_output *out)
{
	for (int i = 0; i < DRM_BUFFERS; i++)
		if (out->bufs[i].map)
			return 0;
	return buffer_init(out, &out->bufs[0]);
}

/* After the first frame, when nothing waits: the other buffers, which the first frames of output (a flood's, often)
 * would otherwise create, and a write to each of their pages, so those frames take no page fault either (in the
 * TCG guest the creation and the 768 faults of a 3 MB buffer cost about as much as painting several frames). */
int drm_output_buffers_prepare(struct drm_output *out)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0)
		page = 4096;
	for (int i = 0; i < DRM_BUFFERS; i++) {
		struct drm_buffer *buf = &out->bufs[i];
		int ret;

		if (buf->map)
			continue;
		ret = buffer_init(out, buf);
		if (ret < 0)
			return ret;
		/* a new dumb buffer is zeroed: writing a zero changes nothing */
		for (size_t off = 0; off < buf->size; off += (size_t)page)
			((volatile uint8_t *)buf->map)[off] = 0;
	}
	return 0;
}

void drm_output_buffers_finish(struct drm_output *out)
{
	for (int i = 0; i < DRM_BUFFERS; i++)
		buffer_finish(out, &out->bufs[i]);
	out->pending = out->queued = out->current = out->prepared = NULL;
}

void drm_output_destroy(struct drm_output *out)
{
	if (!out)
		return;
	drm_output_buffers_finish(out);
	if (out->mode_blob)
		drmModeDestroyPropertyBlob(out->card->fd, out->mode_blob);
	out->card->b->outputs_destroyed++;
	free(out);
}

/* A buffer that is neither on screen, nor queued, nor pending; a new one when every buffer there is is busy
 * (see drm_output_buffers_init). NULL when there is none (*err -EBUSY), or a new one cannot be made (*err -ENOMEM;
 * logged by buffer_init). */
static struct drm_buffer *free_buffer(struct drm_output *out, int *err)
{
	*err = -EBUSY;
	for (int i = 0; i < DRM_BUFFERS; i++) {
		struct drm_buffer *buf = &out->bufs[i];

		if (buf->map && buf != out->queued && buf != out->current && buf != out->pending)
			return buf;
	}
	for (int i = 0; i < DRM_BUFFERS; i++) {
		if (out->bufs[i].map)
			continue;
		if (buffer_init(out, &out->bufs[i]) == 0)
			return &out->bufs[i];
		*err = -ENOMEM;
		return NULL;
	}
	return NULL;
}

uint64_t drm_copy_plain(uint8_t *dst, uint32_t dst_stride, const struct drm_canvas *c, const struct drm_region *rg)
{
	uint64_t pixels = 0;

	for (unsigned i = 0; i < rg->n; i++) {
		const struct drm_box *r = &rg->r[i];
		const uint8_t *src = (const uint8_t *)c->pixels + (size_t)r->y * c->stride + (size_t)r->x * 4;
		uint8_t *d = dst + (size_t)r->y * dst_stride + (size_t)r->x * 4;

		for (int32_t y = 0; y < r->h; y++) {
			memcpy(d, src, (size_t)r->w * 4);
			src += c->stride;
			d += dst_stride;
		}
		pixels += (uint64_t)r->w * (uint64_t)r->h;
	}
	return pixels;
}

/* The damage rg of canvas c into buf: plainly, or turned (rotate.c). */
static uint64_t copy_rects(struct drm_buffer *buf, const struct drm_canvas *c, const struct drm_region *rg,
			   enum drm_rotation rot)
{
	uint64_t pixels = 0;

	if (rot == DRM_ROTATE_NORMAL)
		return drm_copy_plain(buf->map, buf->stride, c, rg);
	for (unsigned i = 0; i < rg->n; i++)
		pixels += drm_rotate_copy(rot, buf->map, buf->stride, buf->width, buf->height, c->pixels, c->stride,
					  rg->r[i]);
	return pixels;
}

/* Direct mode: the buffer holding the newest committed frame, other than `not`; NULL when there is none. */
static struct drm_buffer *newest_buffer(struct drm_output *out, const struct drm_buffer *not)
{
	for (int i = 0; i < DRM_BUFFERS; i++) {
		struct drm_buffer *b = &out->bufs[i];

		if (b != not && b->map && b->frame && b->frame == out->frame)
			return b;
	}
	return NULL;
}

/* Copies rows [y0, y1) of box r from src to buf, except what the boxes of cover overlapping those rows cover.
 * The caller splits r into bands where the set of covering boxes does not change, so the gaps are found once per
 * band. Returns the pixels copied. */
static uint64_t copy_band(struct drm_buffer *buf, const struct drm_buffer *src, const struct drm_box *r, int32_t y0,
			  int32_t y1, const struct drm_box *cover, size_t n_cover)
{
	int32_t x = r->x, end = r->x + r->w;
	uint64_t pixels = 0;

	while (x < end) {
		int32_t gap_end = end;
		bool covered = false;

		for (size_t i = 0; i < n_cover; i++) {
			const struct drm_box *c = &cover[i];

			if (c->y > y0 || c->y + c->h < y1 || c->x + c->w <= x)
				continue;
			if (c->x <= x) {
				x = c->x + c->w;
				covered = true;
				break;
			}
			if (c->x < gap_end)
				gap_end = c->x;
		}
		if (covered)
			continue;
		for (int32_t y = y0; y < y1; y++) {
			size_t off = (size_t)y * buf->stride + (size_t)x * 4;
			memcpy(buf->map + off, src->map + off, (size_t)(gap_end - x) * 4);
		}
		pixels += (uint64_t)(gap_end - x) * (uint64_t)(y1 - y0);
		x = gap_end;
	}
	return pixels;
}

/* Copies box r from src to buf, except what cover covers. */
static uint64_t copy_uncovered(struct drm_buffer *buf, const struct drm_buffer *src, const struct drm_box *r,
			       const struct drm_box *cover, size_t n_cover)
{
	int32_t y = r->y, bottom = r->y + r->h;
	uint64_t pixels = 0;

	while (y < bottom) {
		/* The band ends where some cover box starts or ends. */
		int32_t next = bottom;

		for (size_t i = 0; i < n_cover; i++) {
			int32_t top = cover[i].y, low = cover[i].y + cover[i].h;

			if (top > y && top < next)
				next = top;
			if (low > y && low < next)
				next = low;
		}
		pixels += copy_band(buf, src, r, y, next, cover, n_cover);
		y = next;
	}
	return pixels;
}

/* Direct mode: brings buf up to the newest frame: what changed since it was last shown, copied from the buffer
 * that shows the newest frame (reading it is cheap: the driver does not prefer a shadow), or black when no
 * buffer holds a frame (the program repaints everything then: new buffers come with outputs_changed). What the
 * program promised to repaint (cover) is not copied: under a flood every frame repaints the whole screen, and
 * copying the previous frame first would double the memory traffic of a frame. */
static void catch_up(struct drm_output *out, struct drm_buffer *buf, const struct drm_box *cover, size_t n_cover)
{
	struct drm_buffer *src = newest_buffer(out, buf);
	struct drm_region none, todo;
	uint64_t age = buf->frame ? out->frame + 1 - buf->frame : 0;
	uint64_t pixels = 0;

	drm_region_clear(&none);
	drm_damage_ring_union(&out->history, age, &none, &todo);
	drm_region_clip(&todo, (int32_t)buf->width, (int32_t)buf->height);
	if (drm_region_empty(&todo))
		return;
	if (!src) {
		/* The first frame repaints everything: clearing the buffer first would only cost a pass over 3 MB
		 * (and its page faults) before it. */
		if (!(n_cover == 1 && cover[0].x <= 0 && cover[0].y <= 0 &&
		      (int64_t)cover[0].x + cover[0].w >= (int64_t)buf->width &&
		      (int64_t)cover[0].y + cover[0].h >= (int64_t)buf->height))
			memset(buf->map, 0, buf->size);
		return;
	}
	for (unsigned i = 0; i < todo.n; i++)
		pixels += copy_uncovered(buf, src, &todo.r[i], cover, n_cover);
	drm_backend_count(out->card->b, DRM_COUNT_PIXELS, pixels);
}

uint32_t *drm_output_prepare(struct drm_output *out, uint32_t *stride, const struct drm_box *cover, size_t n_cover)
{
	if (!out->prepared) {
		int err;
		struct drm_buffer *buf = free_buffer(out, &err);

		if (!buf)
			return NULL;
		catch_up(out, buf, cover, n_cover);
		out->prepared = buf;
	}
	*stride = out->prepared->stride;
	return (uint32_t *)out->prepared->map;
}

/* Direct mode: commits the prepared buffer (or a free one caught up with the newest frame). */
static int paint_direct(struct drm_output *out, bool full, struct drm_region *clips)
{
	struct drm_buffer *buf = out->prepared;
	uint64_t age;

	if (!buf) {
		uint32_t stride;
		if (!drm_output_prepare(out, &stride, NULL, 0))
			return out->buffer_failed ? -ENOMEM : -EBUSY;
		buf = out->prepared;
	}
	age = buf->frame ? out->frame + 1 - buf->frame : 0;
	drm_damage_ring_union(&out->history, age, &out->damage, clips);
	if (full || buf->frame == 0)
		drm_region_set_full(clips);
	drm_region_clip(clips, (int32_t)buf->width, (int32_t)buf->height);
	buf->frame = 0;
	out->pending = buf;
	return 0;
}

int drm_output_paint(struct drm_output *out, bool full, struct drm_region *clips)
{
	struct drm_buffer *buf;
	struct drm_canvas c;
	struct drm_region todo;
	enum drm_rotation rot;
	uint64_t age;
	uint32_t bw, bh;
	int err;

	if (drm_backend_is_direct(out->card->b))
		return paint_direct(out, full, clips);
	buf = free_buffer(out, &err);
	if (!buf)
		return err;
	drm_backend_get_canvas_internal(out->card->b, &c);
	rot = drm_backend_cfg(out->card->b)->rotation;
	age = buf->frame ? out->frame + 1 - buf->frame : 0;
	/* Damage and its history are in canvas coordinates; turned, only the clips need the buffer's. */
	drm_damage_ring_union(&out->history, age, &out->damage, &todo);
	if (full || buf->frame == 0)
		drm_region_set_full(&todo);
	drm_region_clip(&todo, (int32_t)c.width, (int32_t)c.height);
	/* And to the buffer: the canvas follows the outputs shown, so one left out of the last modeset (the kernel
	 * refused it beside the others) can be smaller than the canvas when the next modeset paints it; the copy
	 * wrote past its mapping (tests/drm/test-drm-commit.c test_left_out_painted_within). */
	drm_rotate_size(rot, buf->width, buf->height, &bw, &bh);
	drm_region_clip(&todo, (int32_t)bw, (int32_t)bh);
	if (buf->frame == 0) {
		/* Contents unknown: black outside the canvas, and the whole buffer goes to the kernel. */
		memset(buf->map, 0, buf->size);
		drm_region_set_full(clips);
		drm_region_clip(clips, (int32_t)buf->width, (int32_t)buf->height);
	} else {
		*clips = todo;
		if (rot != DRM_ROTATE_NORMAL)
			drm_rotate_region(rot, clips, buf->width, buf->height);
	}
	if (c.pixels)
		drm_backend_count(out->card->b, DRM_COUNT_PIXELS, copy_rects(buf, &c, &todo, rot));
	/* Its old contents are gone: if the commit fails it must not count as showing its old frame. */
	buf->frame = 0;
	out->pending = buf;
	return 0;
}

void drm_output_commit_done(struct drm_output *out, uint64_t seq)
{
	drm_damage_ring_push(&out->history, &out->damage);
	out->frame++;
	if (out->pending) {
		out->pending->frame = out->frame;
		out->queued = out->pending;
		out->pending = NULL;
	}
	out->prepared = NULL;
	drm_region_clear(&out->damage);
	out->dirty = false;
	out->inflight = true;
	out->inflight_seq = seq;
	out->inflight_deadline_ns = drm_now_ns() + WATCHDOG_NS;
}

void drm_output_commit_failed(struct drm_output *out)
{
	out->pending = NULL;
}

void drm_output_flip_done(struct drm_output *out, unsigned int sequence)
{
	int64_t now = drm_now_ns();

	if (!out->inflight)
		return;
	if (out->queued) {
		out->current = out->queued;
		out->queued = NULL;
	}
	out->inflight = false;
	/* Drivers without vblank interrupts (virtio-gpu, bochs, simpledrm) send the event as soon as the commit is
	 * done, with sequence 0: we pace those ourselves to at most one frame per refresh. */
	out->fake_vblank = sequence == 0 || sequence == DRM_SEQ_SYNTHETIC;
	if (out->last_flip_ns && now - out->last_flip_ns < out->period_ns * 3 / 4)
		drm_backend_count(out->card->b, DRM_COUNT_FAST, 1);
	out->last_flip_ns = now;
	out->next_frame_ns = now + out->period_ns - out->period_ns / 32;
	drm_backend_count(out->card->b, DRM_COUNT_FLIP, 1);
}

bool drm_output_can_take_frame(const struct drm_output *out, int64_t now)
{
	return !out->failed && !out->inflight && (!out->fake_vblank || now >= out->next_frame_ns);
}
