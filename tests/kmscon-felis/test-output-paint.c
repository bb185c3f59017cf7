/* tests/kmscon-felis/test-output-paint.c: a frame whose painting fails (kmscon-felis/output.c render_frame). The
 * program's output runs on a real loop with the real renderer; drm/ is stood in for at link time
 * (tests/kmscon-felis/meson.build): a 320x200 canvas in memory that can always take a frame, and a record of what
 * was promised (drm_backend_prepare_canvas's cover) and presented. The painter is the real one, made to fail with
 * ENOMEM when a test asks (kf_render_paint and kf_render_paint_full wrapped), as a glyph cache out of memory does.
 *
 * When painted directly, what a frame promises to repaint is not caught up with the newest frame in the buffer
 * (drm.h): a failed paint leaves those boxes with an older frame's pixels, so presenting the frame shows them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drm/drm.h"
#include "grid/grid.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/output.h"
#include "kmscon-felis/render/render.h"
#include "../kf-check.h"

static int failures;

#define MS 1000000ull
#define W 320
#define H 200

static uint32_t pixels[W * H];
static int presents, paints, fails_left;
static bool last_full;

void __wrap_drm_backend_get_size(const struct drm_backend *b, uint32_t *width, uint32_t *height);
void __wrap_drm_backend_get_size(const struct drm_backend *b, uint32_t *width, uint32_t *height)
{
	*width = W;
	*height = H;
}

bool __wrap_drm_backend_can_render(const struct drm_backend *b);
bool __wrap_drm_backend_can_render(const struct drm_backend *b)
{
	return true;
}

void __wrap_drm_backend_prepare_canvas(struct drm_backend *b, struct drm_canvas *c, const struct drm_box *cover,
				       size_t n_cover);
void __wrap_drm_backend_prepare_canvas(struct drm_backend *b, struct drm_canvas *c, const struct drm_box *cover,
				       size_t n_cover)
{
	*c = (struct drm_canvas){pixels, W, H, W * 4};
}

static int present(bool full)
{
	presents++;
	last_full = full;
	return 0;
}

int __wrap_drm_backend_present(struct drm_backend *b, const struct drm_box *d, size_t n, bool full);
int __wrap_drm_backend_present(struct drm_backend *b, const struct drm_box *d, size_t n, bool full)
{
	return present(full);
}

int __wrap_drm_backend_present_idle(struct drm_backend *b, const struct drm_box *d, size_t n, bool full);
int __wrap_drm_backend_present_idle(struct drm_backend *b, const struct drm_box *d, size_t n, bool full)
{
	return present(full);
}

int __real_kf_render_paint(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_damage *d,
			   const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects);
int __wrap_kf_render_paint(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_damage *d,
			   const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects);
int __wrap_kf_render_paint(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_damage *d,
			   const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects)
{
	paints++;
	if (fails_left > 0) {
		fails_left--;
		return -ENOMEM;
	}
	return __real_kf_render_paint(r, s, d, t, rects, max_rects);
}

int __real_kf_render_paint_full(struct kf_render *r, const struct kf_render_source *s,
				const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects);
int __wrap_kf_render_paint_full(struct kf_render *r, const struct kf_render_source *s,
				const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects);
int __wrap_kf_render_paint_full(struct kf_render *r, const struct kf_render_source *s,
				const struct kf_render_target *t, struct kf_render_rect *rects, int max_rects)
{
	paints++;
	if (fails_left > 0) {
		fails_left--;
		return -ENOMEM;
	}
	return __real_kf_render_paint_full(r, s, t, rects, max_rects);
}

/* Runs the loop for ms milliseconds. */
static void run_ms(struct kf_loop *loop, int ms)
{
	for (uint64_t end = kf_loop_now_ns() + (uint64_t)ms * MS, now; (now = kf_loop_now_ns()) < end;)
		kf_loop_dispatch(loop, (int)((end - now + MS - 1) / MS));
}

static void test_failed_paint(void)
{
	struct kf_render_config rc = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_output_config oc = {.seat = "seat-kf-test-none"};
	struct grid_config gc = {.cols = 40, .rows = 10};
	struct kf_render *render = NULL;
	struct kf_output *out = NULL;
	struct kf_loop *loop = kf_loop_create();
	struct grid *g;

	CHECK(loop && kf_render_create(&rc, &render) == 0, "loop and renderer");
	CHECK(kf_output_create(loop, render, &oc, NULL, NULL, &out) == 0, "output");
	if (failures)
		return;
	g = grid_create(&gc, NULL, NULL);
	kf_output_set_grid(out, g);
	kf_loop_dispatch(loop, 0);
	CHECK(presents == 1 && last_full, "the first frame: %d presented (full %d)", presents, last_full);

	/* A damaged cell whose paint fails: nothing is presented (its box would show an older frame's pixels). */
	presents = paints = 0;
	fails_left = 1;
	grid_feed(g, (const uint8_t *)"x", 1);
	for (int i = 0; i < 100 && !paints; i++) /* after the first frame's pacing */
		kf_loop_dispatch(loop, 1);
	CHECK(paints == 1 && fails_left == 0, "the paint was tried (%d)", paints);
	CHECK(presents == 0, "a failed paint presented %d frames (full %d)", presents, last_full);
	/* The next frame repaints everything and presents it, without anything new in the grid: the damage is not
	 * lost. */
	run_ms(loop, 300);
	CHECK(presents == 1 && last_full, "after the failure: %d frames presented (full %d), want 1 full", presents,
	      last_full);
	CHECK(grid_row(g, 0)[0].cp == 'x', "the grid kept its text");
	uint32_t bg = pixels[W * H - 1];
	int lit = 0;
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 8; x++)
			lit += pixels[y * W + x] != bg;
	CHECK(lit > 0, "the x was painted in the repaint (%d pixels not background)", lit);

	/* A paint that fails every time is retried at a bounded rate (without a present no flip paces it). */
	presents = paints = 0;
	fails_left = 1000000;
	grid_feed(g, (const uint8_t *)"y", 1);
	run_ms(loop, 500);
	CHECK(presents == 0 && paints >= 2 && paints <= 7, "failing for 500 ms: %d paints, %d presents", paints,
	      presents);
	fails_left = 0;
	run_ms(loop, 300);
	CHECK(presents == 1 && last_full, "memory back: %d presents (full %d)", presents, last_full);

	kf_output_set_grid(out, NULL);
	kf_output_destroy(out);
	grid_destroy(g);
	kf_render_destroy(render);
	kf_loop_destroy(loop);
}

int main(void)
{
	test_failed_paint();
	return failures ? 1 : 0;
}
