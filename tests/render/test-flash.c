/* tests/render/test-flash.c: the visual bell's pixels (kf_render_set_flash, bell=visual).
 *
 * Frames are made as the frame loop makes them (kmscon-felis/output.c: kf_render_collect_damage, then
 * kf_render_paint of the damage into a canvas that keeps the last picture), and compared with the same screen
 * under DECSCNM painted whole by another renderer: the flash is the whole screen, margins included, as DECSCNM
 * shows it (xterm's visual bell inverts the whole window), and the frame after it is the normal picture again,
 * pixel for pixel. A frame while the flash stays on repaints nothing (no per-frame cost beyond the two). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"
#include "../kf-check.h"
#include "frames.h"

static int failures;

#define COLS 20
#define ROWS 4

static void run(bool decscnm)
{
	const char *what = decscnm ? "under DECSCNM" : "normal screen";
	struct kf_render *r;
	struct canvas c = {0};
	int cw, ch;
	struct grid *g = grid_create(&(struct grid_config){.cols = COLS, .rows = ROWS}, NULL, NULL);
	static const char text[] = "\x1b[31mred\x1b[m plain\r\n\x1b[44mblue\x1b[m \x1b[7mreverse\x1b[m";

	if (!g)
		abort();
	r = builtin_render();
	grid_feed(g, (const uint8_t *)text, sizeof(text) - 1);
	if (decscnm)
		grid_feed(g, (const uint8_t *)"\x1b[?5h", 5);
	kf_render_cell_size(r, &cw, &ch);
	/* a canvas larger than the grid: the margins right and below flash too */
	canvas_init(&c, COLS, ROWS, COLS * cw + 7, ROWS * ch + 5);
	uint32_t *normal = reference(g, decscnm, c.w, c.h), *inverted = reference(g, !decscnm, c.w, c.h);

	frame(r, g, &c);
	CHECK(!differ(c.px, normal, c.w, c.h), "%s: the first frame is the screen", what);
	CHECK(differ(normal, inverted, c.w, c.h) > c.w * c.h / 2, "%s: DECSCNM changes most pixels", what);
	/* the background (a blank cell, the margin) takes the foreground's colour and back */
	uint32_t bg = normal[(size_t)(ch * 3 + 1) * c.w + c.w - 1];

	kf_render_set_flash(r, true);
	int n = frame(r, g, &c);
	CHECK(n == COLS * ROWS, "%s: the flash damages every cell (%d)", what, n);
	int d = differ(c.px, inverted, c.w, c.h);
	CHECK(!d, "%s: the flash frame differs from the screen inverted in %d pixels", what, d);
	CHECK(c.px[(size_t)(c.h - 1) * c.w + c.w - 1] != bg, "%s: the margin flashes too (%06x)", what,
	      c.px[(size_t)(c.h - 1) * c.w + c.w - 1]);
	n = frame(r, g, &c);
	CHECK(n == 0, "%s: a frame while the flash stays repaints %d cells", what, n);

	kf_render_set_flash(r, false);
	n = frame(r, g, &c);
	d = differ(c.px, normal, c.w, c.h);
	CHECK(n == COLS * ROWS && !d, "%s: after the flash: %d cells repainted, %d pixels off the screen", what, n, d);

	/* output during the flash is painted inverted, and the end shows it normal */
	kf_render_set_flash(r, true);
	frame(r, g, &c);
	grid_feed(g, (const uint8_t *)"\x1b[4;1Hnew", 7);
	frame(r, g, &c);
	free(inverted);
	inverted = reference(g, !decscnm, c.w, c.h);
	CHECK(!differ(c.px, inverted, c.w, c.h), "%s: output during the flash is painted inverted", what);
	kf_render_set_flash(r, false);
	frame(r, g, &c);
	free(normal);
	normal = reference(g, decscnm, c.w, c.h);
	CHECK(!differ(c.px, normal, c.w, c.h), "%s: and normal after it", what);

	free(normal);
	free(inverted);
	canvas_finish(&c);
	kf_render_destroy(r);
	grid_destroy(g);
}

int main(void)
{
	run(false);
	run(true);
	return failures ? 1 : 0;
}
