/* tests/kmscon-felis/test-zoom.c: a zoom (grab-zoom-in/out/reset, kmscon-felis/console.c kf_console_rescale)
 * and a display's new size (kf_console_fit_session) with a grid that cannot take the new size. The zoom ignored
 * the grid's failure and told the renderer and the pointer the new size while the grid kept the old one, so the
 * screen was drawn at a size the grid was not; a display that changed size did the same to the pointer.
 * Linked with -Wl,--wrap=calloc: fail_calloc makes every calloc fail (grid_resize's first allocation is one). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/console.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/render/render.h"
#include "kmscon-felis/session.h"
#include "tests/kf-capture.h"
#include "tests/kf-check.h"

static int failures;
static bool fail_calloc;

void *__real_calloc(size_t n, size_t m);
void *__wrap_calloc(size_t n, size_t m);

void *__wrap_calloc(size_t n, size_t m)
{
	return fail_calloc ? NULL : __real_calloc(n, m);
}

/* The window size the child sees: TIOCGWINSZ on its terminal (its standard input, once it has one). */
static int child_winsize(struct kf_session *s, struct winsize *ws)
{
	char path[64];
	int r = -1;
	snprintf(path, sizeof(path), "/proc/%d/fd/0", kf_session_child_pid(s));
	for (int i = 0; i < 200 && r < 0; i++) {
		int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		r = fd < 0 ? -1 : ioctl(fd, TIOCGWINSZ, ws);
		if (fd >= 0)
			close(fd);
		if (r < 0)
			usleep(10000);
	}
	return r;
}

/* A font that does not fit the display it meets (font-size=400 on a small screen; a display plugged in smaller
 * than the one the zoom was chosen on; a first display found after the font was set without one): it used to be
 * taken, 0 columns, and the grid was never resized to the display. kf_render_fit: the zoom back to x1, then the
 * default size, then the built-in font, each said in a warning. */
static void test_fit(void)
{
	struct kf_render_config builtin = {.engine = KF_RENDER_ENGINE_BUILTIN, .scale = 4};
	struct kf_render_config big = {.font_name = "monospace", .font_size = 300};
	struct kf_render *r = NULL;
	int cw, ch;

	CHECK(kf_render_create(&builtin, &r) == 0, "renderer");
	if (!r)
		return;
	capture_begin();
	int ret = kf_render_fit(r, 100, 50);
	const char *log = capture_end();
	kf_render_cell_size(r, &cw, &ch);
	CHECK(ret == 0 && kf_render_get_scale(r) == 1 && cw == 8 && ch == 16,
	      "x4 cells on a 100x50 screen: %d, x%d, cells %dx%d (want x1, 8x16)", ret, kf_render_get_scale(r), cw, ch);
	CHECK(strstr(log, "warning") && strstr(log, "zoom x1"), "said: '%s'", log);
	capture_begin();
	ret = kf_render_fit(r, 100, 50);
	log = capture_end();
	CHECK(ret == 0 && !log[0], "cells that fit: %d, nothing changed or said: '%s'", ret, log);
	capture_begin();
	ret = kf_render_fit(r, 4, 4);
	log = capture_end();
	CHECK(ret == -ERANGE && strstr(log, "error"), "a 4x4 pixel screen: %d (want -ERANGE), '%s'", ret, log);
	kf_render_destroy(r);

	/* FreeType at 300 px: the default 16 px instead (a host without fonts gets the built-in font) */
	CHECK(kf_render_create(&big, &r) == 0, "renderer at 300 px");
	if (!r)
		return;
	bool ft = kf_render_get_engine(r) == KF_RENDER_ENGINE_FREETYPE;
	capture_begin();
	ret = kf_render_fit(r, 640, 200);
	log = capture_end();
	kf_render_cell_size(r, &cw, &ch);
	CHECK(ret == 0 && cw > 0 && ch > 0 && cw <= 640 / 20 && ch <= 200 / 5,
	      "300 px on a 640x200 screen: %d, cells %dx%d", ret, cw, ch);
	if (ft)
		CHECK(strstr(log, "font-size 16") && kf_render_get_engine(r) == KF_RENDER_ENGINE_FREETYPE,
		      "FreeType: the default size, said: '%s'", log);
	else
		printf("no FreeType font on this host: the default size not tested\n");
	kf_render_destroy(r);
}

int main(void)
{
	const char *argv[] = {"sh", "-c", "sleep 30", NULL};
	struct kf_render_config rc = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_loop *loop = kf_loop_create();
	struct kf_render *render = NULL;
	struct kf_session *s = NULL;
	int cw, ch, cols, rows, ncw, nch, r;

	test_fit();
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

	/* Cells larger than the screen (a zoom, or a reloaded font, too big for it): refused, the renderer back at
	 * the scale in force and the grid at its size. It used to be taken with 0 columns: the renderer drew the
	 * big cells over a grid that kept the old size, and the next zoom out started from the refused one. */
	r = kf_console_rescale(render, s, 4, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && cols == 20 && rows == 7, "zoom x4: %d, %dx%d", r, cols, rows);
	r = kf_console_rescale(render, s, 2, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && cols == 40 && rows == 15, "back to x2: %d, %dx%d", r, cols, rows);
	r = kf_console_rescale(render, s, 3, 2 * cw, 3 * ch, &cols, &rows, &ncw, &nch);
	CHECK(r == -ERANGE, "cells of %dx%d on a %dx%d screen: %d, want -ERANGE", 3 * cw, 3 * ch, 2 * cw, 3 * ch, r);
	CHECK(kf_render_get_scale(render) == 2, "the renderer's scale after a zoom past the screen: x%d, want x2",
	      kf_render_get_scale(render));
	CHECK(grid_cols(g) == 40 && grid_rows(g) == 15, "grid %dx%d", grid_cols(g), grid_rows(g));
	/* The same refusal again (the zoom key held: it repeats 20 times a second) is logged once, not at every
	 * repeat; a refusal on another screen size, or after a zoom that went through, is logged again. */
	capture_begin();
	for (int i = 0; i < 5; i++)
		kf_console_rescale(render, s, 3, 2 * cw, 3 * ch, &cols, &rows, &ncw, &nch);
	const char *log = capture_end();
	CHECK(!strstr(log, "do not fit"), "the same refusal 5 times more: logged again:\n%s", log);
	capture_begin();
	r = kf_console_rescale(render, s, 3, 2 * cw, 4 * ch, &cols, &rows, &ncw, &nch);
	log = capture_end();
	CHECK(r == -ERANGE && strstr(log, "do not fit"), "a refusal on another screen: %d, logged: %s", r, log);
	r = kf_console_rescale(render, s, 2, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	capture_begin();
	r = kf_console_rescale(render, s, 3, 2 * cw, 4 * ch, &cols, &rows, &ncw, &nch);
	log = capture_end();
	CHECK(r == -ERANGE && strstr(log, "do not fit"), "a refusal after a zoom that went through: %d, logged: %s",
	      r, log);
	CHECK(kf_render_get_scale(render) == 2 && grid_cols(g) == 40 && grid_rows(g) == 15, "still x%d, %dx%d",
	      kf_render_get_scale(render), grid_cols(g), grid_rows(g));
	/* one cell wide and high is a screen: taken */
	r = kf_console_rescale(render, s, 1, cw, ch, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && cols == 1 && rows == 1 && grid_cols(g) == 1 && grid_rows(g) == 1, "1x1: %d, grid %dx%d", r,
	      grid_cols(g), grid_rows(g));
	/* no display (0x0 pixels): nothing to fit, the grid keeps its size until there is one */
	r = kf_console_rescale(render, s, 2, 0, 0, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && kf_render_get_scale(render) == 2 && grid_cols(g) == 1, "no display: %d, x%d, grid %dx%d", r,
	      kf_render_get_scale(render), grid_cols(g), grid_rows(g));
	r = kf_console_rescale(render, s, 2, 80 * cw, 30 * ch, &cols, &rows, &ncw, &nch);
	CHECK(r == 0 && cols == 40 && rows == 15, "x2 again: %d, %dx%d", r, cols, rows);

	/* A display plugged in that fits 100x40 cells, out of memory: the grid and the child stay at 40x15, and so
	 * must the pointer's range (the console is told what the grid has). */
	struct winsize ws = {0};
	cols = 100;
	rows = 40;
	fail_calloc = true;
	kf_console_fit_session(s, &cols, &rows, ncw, nch);
	fail_calloc = false;
	CHECK(grid_cols(g) == 40 && grid_rows(g) == 15, "grid %dx%d", grid_cols(g), grid_rows(g));
	CHECK(cols == 40 && rows == 15, "the console is told %dx%d while the grid is %dx%d", cols, rows,
	      grid_cols(g), grid_rows(g));
	CHECK(child_winsize(s, &ws) == 0 && ws.ws_col == 40 && ws.ws_row == 15, "the child is told %dx%d",
	      ws.ws_col, ws.ws_row);

	/* with memory, the display's size goes through */
	cols = 100;
	rows = 40;
	kf_console_fit_session(s, &cols, &rows, ncw, nch);
	CHECK(cols == 100 && rows == 40 && grid_cols(g) == 100 && grid_rows(g) == 40, "fit: %dx%d, grid %dx%d",
	      cols, rows, grid_cols(g), grid_rows(g));
	CHECK(child_winsize(s, &ws) == 0 && ws.ws_col == 100 && ws.ws_row == 40, "the child is told %dx%d",
	      ws.ws_col, ws.ws_row);

	kf_session_destroy(s);
	kf_render_destroy(render);
	kf_loop_destroy(loop);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
