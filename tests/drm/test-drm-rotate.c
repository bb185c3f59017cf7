/* tests/drm/test-drm-rotate.c: display rotation in drm/: the box transform from canvas (logical) coordinates
 * to a dumb buffer's, the rotating copy of canvas damage (every rotation, random sizes and boxes, pixel for
 * pixel against a naive per-pixel reference written here from the definition), the transformed damage clips
 * and buffer-age union of drm_output_paint, and the canvas taking the rotated size of the output. Uses fake
 * buffers in ordinary memory: no DRM device needed.
 *
 * The definition (fbcon's rotate=N): right (1) turns the picture 90 degrees clockwise on the panel, so the
 * canvas' top-left pixel lands at the buffer's top-right; inverted (2) turns it 180 degrees; left (3) 90
 * degrees counter-clockwise (top-left to bottom-left).
 *
 * With --bench [FRAMES [ROTATION]]: the time of a full 1024x768 frame copied plainly (row memcpy) and rotated
 * each way (only ROTATION, 1 to 3, when given: for callgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"

static int failures;

static uint32_t rnd_state = 12345;
static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* Where canvas pixel (x, y) goes in a bw x bh buffer, straight from the definition above. */
static void naive_map(enum drm_rotation r, int32_t x, int32_t y, uint32_t bw, uint32_t bh, int32_t *px, int32_t *py)
{
	switch (r) {
	case DRM_ROTATE_NORMAL:
		*px = x, *py = y;
		break;
	case DRM_ROTATE_RIGHT: /* the canvas' left column becomes the buffer's top row, read right to left */
		*px = (int32_t)bw - 1 - y, *py = x;
		break;
	case DRM_ROTATE_INVERTED:
		*px = (int32_t)bw - 1 - x, *py = (int32_t)bh - 1 - y;
		break;
	case DRM_ROTATE_LEFT:
		*px = y, *py = (int32_t)bh - 1 - x;
		break;
	}
}

static const char *const names[] = {"normal", "right", "inverted", "left"};

/* The corners of the canvas land where the definition says (checks the reference itself on a 4x3 canvas shown on
 * a 3x4 buffer). */
static void test_reference(void)
{
	int32_t px, py;

	naive_map(DRM_ROTATE_RIGHT, 0, 0, 3, 4, &px, &py);
	CHECK(px == 2 && py == 0); /* top-left to top-right */
	naive_map(DRM_ROTATE_RIGHT, 3, 0, 3, 4, &px, &py);
	CHECK(px == 2 && py == 3); /* top-right to bottom-right */
	naive_map(DRM_ROTATE_LEFT, 0, 0, 3, 4, &px, &py);
	CHECK(px == 0 && py == 3); /* top-left to bottom-left */
	naive_map(DRM_ROTATE_INVERTED, 0, 0, 4, 3, &px, &py);
	CHECK(px == 3 && py == 2);
}

static void test_size(void)
{
	uint32_t w, h;

	drm_rotate_size(DRM_ROTATE_NORMAL, 1024, 768, &w, &h);
	CHECK(w == 1024 && h == 768);
	drm_rotate_size(DRM_ROTATE_RIGHT, 1024, 768, &w, &h);
	CHECK(w == 768 && h == 1024);
	drm_rotate_size(DRM_ROTATE_INVERTED, 1024, 768, &w, &h);
	CHECK(w == 1024 && h == 768);
	drm_rotate_size(DRM_ROTATE_LEFT, 1024, 768, &w, &h);
	CHECK(w == 768 && h == 1024);
}

/* One random case: a canvas of lw x lh shown on a buffer of bw x bh (at least the rotated canvas), a random box
 * of the canvas copied; every buffer pixel must equal the reference's. */
static void one_copy(enum drm_rotation r, int iter)
{
	uint32_t lw = 1 + rnd(90), lh = 1 + rnd(90), rw, rh;

	drm_rotate_size(r, lw, lh, &rw, &rh);
	uint32_t bw = rw + rnd(5), bh = rh + rnd(5);
	uint32_t sstride = lw + rnd(3), bstride = bw + rnd(3); /* in pixels; padding must stay untouched */
	uint32_t *src = malloc((size_t)sstride * lh * 4), *dst = malloc((size_t)bstride * bh * 4);
	uint32_t *ref = malloc((size_t)bstride * bh * 4);
	struct drm_box box;

	for (size_t i = 0; i < (size_t)sstride * lh; i++)
		src[i] = (uint32_t)i * 2654435761u;
	for (size_t i = 0; i < (size_t)bstride * bh; i++)
		dst[i] = ref[i] = 0xdeadbeef;
	box.x = (int32_t)rnd(lw);
	box.y = (int32_t)rnd(lh);
	box.w = 1 + (int32_t)rnd(lw - (uint32_t)box.x);
	box.h = 1 + (int32_t)rnd(lh - (uint32_t)box.y);
	if (iter % 7 == 0)
		box = (struct drm_box){0, 0, (int32_t)lw, (int32_t)lh};
	for (int32_t y = box.y; y < box.y + box.h; y++) {
		for (int32_t x = box.x; x < box.x + box.w; x++) {
			int32_t px, py;

			naive_map(r, x, y, bw, bh, &px, &py);
			ref[(size_t)py * bstride + (size_t)px] = src[(size_t)y * sstride + (size_t)x];
		}
	}
	uint64_t n = drm_rotate_copy(r, (uint8_t *)dst, bstride * 4, bw, bh, src, sstride * 4, box);
	CHECK(n == (uint64_t)box.w * (uint64_t)box.h);
	size_t bad = 0, first = 0;
	for (size_t i = 0; i < (size_t)bstride * bh; i++)
		if (dst[i] != ref[i] && !bad++)
			first = i;
	if (bad)
		fprintf(stderr, "%s: canvas %ux%u on buffer %ux%u, box %d,%d %dx%d: %zu pixels differ, first at %zu,%zu\n",
			names[r], lw, lh, bw, bh, box.x, box.y, box.w, box.h, bad, first % bstride, first / bstride);
	CHECK(bad == 0);

	/* The box transform is the bounding box of the mapped pixels. */
	struct drm_box t = drm_rotate_box(r, box, bw, bh);
	int32_t x0, y0, x1, y1;
	naive_map(r, box.x, box.y, bw, bh, &x0, &y0);
	naive_map(r, box.x + box.w - 1, box.y + box.h - 1, bw, bh, &x1, &y1);
	CHECK(t.x == (x0 < x1 ? x0 : x1) && t.y == (y0 < y1 ? y0 : y1));
	CHECK(t.x + t.w - 1 == (x0 > x1 ? x0 : x1) && t.y + t.h - 1 == (y0 > y1 ? y0 : y1));
	free(src);
	free(dst);
	free(ref);
}

static void test_copy(void)
{
	for (int r = 0; r < 4; r++)
		for (int i = 0; i < 300; i++)
			one_copy((enum drm_rotation)r, i);
}

/* A region transformed box by box; a full region stays full. */
static void test_region(void)
{
	struct drm_region rg;

	drm_region_clear(&rg);
	drm_region_add(&rg, (struct drm_box){10, 20, 30, 5});
	drm_region_add(&rg, (struct drm_box){0, 100, 8, 16});
	drm_rotate_region(DRM_ROTATE_RIGHT, &rg, 600, 800);
	CHECK(rg.n == 2 && !rg.full);
	/* x' = bw - y - h, y' = x, w' = h, h' = w */
	CHECK(rg.r[0].x == 600 - 20 - 5 && rg.r[0].y == 10 && rg.r[0].w == 5 && rg.r[0].h == 30);
	CHECK(rg.r[1].x == 600 - 100 - 16 && rg.r[1].y == 0 && rg.r[1].w == 16 && rg.r[1].h == 8);
	drm_region_set_full(&rg);
	drm_rotate_region(DRM_ROTATE_LEFT, &rg, 600, 800);
	CHECK(rg.full);
}

#define FAKE_W 40
#define FAKE_H 64

/* An output of a card without a device: FAKE_W x FAKE_H buffers in ordinary memory. */
static void fake_output(struct drm_backend *b, struct drm_card *card, struct drm_output *out)
{
	card->b = b;
	card->fd = -1;
	out->card = card;
	out->period_ns = 16666667;
	out->mode.hdisplay = FAKE_W;
	out->mode.vdisplay = FAKE_H;
	for (int i = 0; i < DRM_BUFFERS; i++) {
		out->bufs[i] = (struct drm_buffer){.width = FAKE_W, .height = FAKE_H, .stride = FAKE_W * 4,
						   .size = FAKE_W * 4 * FAKE_H};
		out->bufs[i].map = malloc(out->bufs[i].size);
		memset(out->bufs[i].map, 0xaa, out->bufs[i].size);
	}
	drm_region_set_full(&out->damage);
}

static bool covers(const struct drm_region *rg, int32_t x, int32_t y)
{
	for (unsigned i = 0; i < rg->n; i++)
		if (x >= rg->r[i].x && x < rg->r[i].x + rg->r[i].w && y >= rg->r[i].y && y < rg->r[i].y + rg->r[i].h)
			return true;
	return false;
}

/* drm_output_paint on a rotated backend: the canvas is the output turned (64x40 for a 40x64 panel turned right),
 * in ordinary memory; what is copied lands rotated, the clips sent with the commit and the damage a buffer of age
 * 2 catches up with are in the buffer's coordinates. */
static void test_paint(enum drm_rotation r)
{
	struct drm_backend_config cfg = {.rotation = r};
	struct drm_backend *b;
	struct drm_card card = {0};
	struct drm_output out = {0};
	struct drm_region clips;
	struct drm_canvas c;
	uint32_t lw, lh;

	if (drm_backend_create(&b, &cfg, NULL, NULL) < 0) {
		failures++;
		return;
	}
	CHECK(drm_backend_get_rotation(b) == r);
	fake_output(b, &card, &out);
	card.prefer_shadow = true; /* normal rotation too: a canvas in ordinary memory */
	card.n_outputs = 1;
	card.outputs[0] = &out;
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	drm_rotate_size(r, FAKE_W, FAKE_H, &lw, &lh);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == lw && c.height == lh && c.pixels && !drm_backend_is_direct(b));

	/* Frame 1 and 2: each buffer whole. */
	for (uint32_t i = 0; i < c.width * c.height; i++)
		c.pixels[i] = 0x10000 + i;
	CHECK(drm_output_paint(&out, false, &clips) == 0);
	drm_output_commit_done(&out, 1);
	drm_output_flip_done(&out, 100);
	drm_region_add(&out.damage, (struct drm_box){0, 0, 1, 1});
	out.dirty = true;
	CHECK(drm_output_paint(&out, false, &clips) == 0);
	drm_output_commit_done(&out, 2);
	drm_output_flip_done(&out, 101);
	for (int k = 0; k < 2; k++) {
		const uint32_t *m = (const uint32_t *)out.bufs[k].map;
		size_t bad = 0;

		for (int32_t y = 0; y < (int32_t)lh; y++) {
			for (int32_t x = 0; x < (int32_t)lw; x++) {
				int32_t px, py;

				naive_map(r, x, y, FAKE_W, FAKE_H, &px, &py);
				bad += m[py * FAKE_W + px] != c.pixels[y * (int32_t)lw + x];
			}
		}
		CHECK(bad == 0);
	}

	/* Frame 3 into buffer 0 (age 2): a box of this frame plus frame 2's pixel 0,0, in buffer coordinates. */
	struct drm_box box = {3, 5, 4, 2};
	int32_t px, py, qx, qy;
	c.pixels[5 * lw + 3] = 0xabcdef;
	c.pixels[1 * lw + 20] = 0x123456; /* outside every damage: not copied */
	drm_region_add(&out.damage, box);
	out.dirty = true;
	CHECK(drm_output_paint(&out, false, &clips) == 0 && out.pending == &out.bufs[0]);
	naive_map(r, 3, 5, FAKE_W, FAKE_H, &px, &py);
	CHECK(((uint32_t *)out.bufs[0].map)[py * FAKE_W + px] == 0xabcdef);
	naive_map(r, 20, 1, FAKE_W, FAKE_H, &qx, &qy);
	CHECK(((uint32_t *)out.bufs[0].map)[qy * FAKE_W + qx] != 0x123456);
	/* clips: exactly the transformed boxes */
	CHECK(covers(&clips, px, py) && !covers(&clips, qx, qy));
	naive_map(r, 0, 0, FAKE_W, FAKE_H, &px, &py);
	CHECK(covers(&clips, px, py));
	naive_map(r, 6, 6, FAKE_W, FAKE_H, &px, &py);
	CHECK(covers(&clips, px, py));
	CHECK(drm_region_area(&clips) == 1 + 8);
	for (unsigned i = 0; i < clips.n; i++)
		CHECK(clips.r[i].x >= 0 && clips.r[i].y >= 0 && clips.r[i].x + clips.r[i].w <= FAKE_W &&
		      clips.r[i].y + clips.r[i].h <= FAKE_H);
	drm_output_commit_done(&out, 3);
	drm_output_flip_done(&out, 102);

	/* Turning at run time: the canvas takes the new size, every buffer is repainted whole. */
	enum drm_rotation next = (enum drm_rotation)((r + 1) % 4);
	drm_backend_set_rotation(b, next);
	drm_rotate_size(next, FAKE_W, FAKE_H, &lw, &lh);
	drm_backend_get_canvas(b, &c);
	CHECK(drm_backend_get_rotation(b) == next && c.width == lw && c.height == lh);
	CHECK(out.bufs[0].frame == 0 && out.bufs[1].frame == 0 && out.damage.full && out.dirty);

	b->n_cards = 0;
	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	drm_backend_destroy(b);
}

static int changed_calls;

static void on_changed(void *ud)
{
	changed_calls++;
}

/* A turn that keeps the size (normal to inverted, right to left) still repaints every buffer and tells the
 * program, which must repaint everything: the canvas keeps its size but the buffers hold the old orientation. */
static void test_same_size(void)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend_iface iface = {.outputs_changed = on_changed};
	struct drm_backend *b;
	struct drm_card card = {0};
	struct drm_output out = {0};
	struct drm_region clips;

	if (drm_backend_create(&b, &cfg, &iface, NULL) < 0) {
		failures++;
		return;
	}
	fake_output(b, &card, &out);
	card.prefer_shadow = true;
	card.n_outputs = 1;
	card.outputs[0] = &out;
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	for (int k = 0; k < 2; k++) {
		CHECK(drm_output_paint(&out, false, &clips) == 0);
		drm_output_commit_done(&out, (uint64_t)k + 1);
		drm_output_flip_done(&out, 100 + (unsigned)k);
	}
	changed_calls = 0;
	drm_backend_set_rotation(b, DRM_ROTATE_INVERTED);
	CHECK(changed_calls == 1 && b->canvas.width == FAKE_W && b->canvas.height == FAKE_H);
	CHECK(out.bufs[0].frame == 0 && out.bufs[1].frame == 0 && out.damage.full && out.dirty);
	drm_backend_set_rotation(b, DRM_ROTATE_INVERTED); /* no change: nothing happens */
	CHECK(changed_calls == 1);
	drm_backend_set_rotation(b, (enum drm_rotation)7); /* not a rotation: ignored */
	CHECK(changed_calls == 1 && drm_backend_get_rotation(b) == DRM_ROTATE_INVERTED);
	b->n_cards = 0;
	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	drm_backend_destroy(b);
}

/* Normal rotation keeps the direct path: with one output on a card without a shadow preference the canvas is the
 * dumb buffer (no copy), and the same output turned gets a canvas in ordinary memory. */
static void test_direct_kept(void)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend *b;
	struct drm_card card = {0};
	struct drm_output out = {0};

	if (drm_backend_create(&b, &cfg, NULL, NULL) < 0) {
		failures++;
		return;
	}
	fake_output(b, &card, &out);
	card.n_outputs = 1;
	card.outputs[0] = &out;
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	CHECK(drm_backend_is_direct(b) && b->canvas.pixels == NULL);
	drm_backend_set_rotation(b, DRM_ROTATE_LEFT);
	CHECK(!drm_backend_is_direct(b) && b->canvas.pixels && b->canvas.width == FAKE_H);
	drm_backend_set_rotation(b, DRM_ROTATE_NORMAL);
	CHECK(drm_backend_is_direct(b) && b->canvas.width == FAKE_W);
	b->n_cards = 0;
	for (int i = 0; i < DRM_BUFFERS; i++)
		free(out.bufs[i].map);
	drm_backend_destroy(b);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A full 1024x768 frame: the plain copy (what normal rotation does, row by row) against each rotation (only
 * rotation `only` when it is 1 to 3, for callgrind). Each frame timed in thread CPU time; the minimum and the
 * median are printed (the machine is shared: the mean says more about the neighbours than about the copy). */
static int bench(int frames, int only)
{
	uint32_t w = 1024, h = 768;
	uint32_t *src = malloc((size_t)w * h * 4), *dst = malloc((size_t)w * h * 4);
	double *t = malloc(sizeof(*t) * (size_t)(frames > 0 ? frames : 1));
	struct drm_box all = {0, 0, (int32_t)w, (int32_t)h};
	struct drm_region rg = {.n = 1, .r = {all}};
	struct drm_canvas c = {src, w, h, w * 4};

	for (size_t i = 0; i < (size_t)w * h; i++)
		src[i] = (uint32_t)i;
	memset(dst, 0, (size_t)w * h * 4);
	for (int r = 0; r < 4; r++) {
		uint32_t lw, lh;

		if (only > 0 && r != only)
			continue;
		drm_rotate_size((enum drm_rotation)r, w, h, &lw, &lh);
		c.width = lw, c.height = lh, c.stride = lw * 4;
		rg.r[0] = (struct drm_box){0, 0, (int32_t)lw, (int32_t)lh};
		for (int f = 0; f < frames; f++) {
			double t0 = now_s();

			if (r == 0)
				drm_copy_plain((uint8_t *)dst, w * 4, &c, &rg);
			else
				drm_rotate_copy((enum drm_rotation)r, (uint8_t *)dst, w * 4, w, h, src, lw * 4, rg.r[0]);
			t[f] = now_s() - t0;
		}
		qsort(t, (size_t)frames, sizeof(*t), cmp_double);
		if (frames > 0)
			printf("%-8s %ux%u: min %.3f ms, median %.3f ms a frame (%d frames)\n", r == 0 ? "plain" : names[r],
			       w, h, t[0] * 1e3, t[frames / 2] * 1e3, frames);
	}
	free(t);
	free(src);
	free(dst);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench(argc > 2 ? atoi(argv[2]) : 200, argc > 3 ? atoi(argv[3]) : 0);
	test_reference();
	test_size();
	test_copy();
	test_region();
	for (int r = 0; r < 4; r++)
		test_paint((enum drm_rotation)r);
	test_direct_kept();
	test_same_size();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
