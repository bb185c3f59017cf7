/* tests/kmscon-felis/test-zoom.c: a zoom (grab-zoom-in/out/reset, kmscon-felis/console.c kf_console_rescale)
 * with a grid that cannot take the new size. The zoom ignored the grid's failure and told the renderer and the
 * pointer the new size while the grid kept the old one, so the screen was drawn at a size the grid was not.
 * Linked with -Wl,--wrap=calloc: fail_calloc makes every calloc fail (grid_resize's first allocation is one). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "grid/grid.h"
#include "kmscon-felis/console.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/render/render.h"
#include "kmscon-felis/session.h"
#include "tests/kf-check.h"

static int failures;
static bool fail_calloc;

void *__real_calloc(size_t n, size_t m);
void *__wrap_calloc(size_t n, size_t m);

void *__wrap_calloc(size_t n, size_t m)
{
	return fail_calloc ? NULL : __real_calloc(n, m);
}

int main(void)
{
	const char *argv[] = {"sh", "-c", "sleep 30", NULL};
	struct kf_render_config rc = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_loop *loop = kf_loop_create();
	struct kf_render *render = NULL;
	struct kf_session *s = NULL;
	int cw, ch, cols, rows, ncw, nch, r;

	CHECK(loop && kf_render_create(&rc, &render) == 0, "loop and renderer");
	if (failures)
		return 1;
	kf_render_cell_size(render, &cw, &ch);
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 80, .rows = 30,
					.cell_width = cw, .cell_height = ch};
	CHECK(kf_session_create(loop, &cfg, NULL, NULL, &s) == 0, "session");
	if (failures)
		return 1;
	struct grid *g = kf_session_grid(s);

	/* out of memory: the renderer keeps its scale, the grid its size */
	fail_calloc = true;
	r = kf_console_rescale(render, s, 2, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	fail_calloc = false;
	CHECK(r == -ENOMEM, "a failed zoom must fail: %d", r);
	CHECK(kf_render_get_scale(render) == 1, "the renderer's scale after a failed zoom: x%d, want x1",
	      kf_render_get_scale(render));
	CHECK(grid_cols(g) == 80 && grid_rows(g) == 30, "grid %dx%d", grid_cols(g), grid_rows(g));

	/* with memory, the zoom goes through everywhere */
	r = kf_console_rescale(render, s, 2, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && cols == 40 && rows == 15 && ncw == 2 * cw && nch == 2 * ch, "zoom x2: %d, %dx%d of %dx%d",
	      r, cols, rows, ncw, nch);
	CHECK(kf_render_get_scale(render) == 2, "scale x%d", kf_render_get_scale(render));
	CHECK(grid_cols(g) == 40 && grid_rows(g) == 15, "grid %dx%d", grid_cols(g), grid_rows(g));

	kf_session_destroy(s);
	kf_render_destroy(render);
	kf_loop_destroy(loop);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
