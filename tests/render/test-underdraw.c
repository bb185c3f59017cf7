/* tests/render/test-underdraw.c: damage-only painting never leaves stale pixels.
 *
 * A hand-built screen is mutated at random (text, wide characters and their halves, combining
 * marks, styles with every attribute, selection, cursor moves and shapes, blink phase, pointer
 * moves, reverse video); after every chunk the damage is collected (kf_render_collect_damage) and
 * only it is painted into a persistent buffer, which must equal a full repaint, pixel for pixel, in
 * XRGB8888 and RGB565, with the built-in font, with it zoomed, and with DejaVu Sans Mono. The
 * grid-driven variant (random byte streams through grid_feed) is test-underdraw-grid.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"

static uint32_t rng = 12345;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static const uint32_t chars[] = {'a',	 'W',	 'g',	 '_',	 ' ',	  0,
				 0xe9,	 0x2500, 0x253c, 0x2588, 0x2591,  0x28ff,
				 0xe0b0, 0x256d, 0x2571, 0x4e00, 0x1f600, 0x10fffd};

static struct grid_style random_style(void)
{
	struct grid_style st = {0};
	uint32_t k = rnd(4);
	st.fg = k == 0	 ? 0
		: k == 1 ? GRID_COLOR_PALETTE(rnd(256))
			 : GRID_COLOR_RGB(rnd(256), rnd(256), rnd(256));
	k = rnd(4);
	st.bg = k < 2	 ? 0
		: k == 2 ? GRID_COLOR_PALETTE(rnd(256))
			 : GRID_COLOR_RGB(rnd(256), rnd(256), rnd(256));
	st.attrs = (uint16_t)(rnd(4) ? 0 : rnd(256));
	st.underline = (uint8_t)(rnd(3) ? 0 : rnd(6));
	st.ul_color = rnd(2) ? 0 : GRID_COLOR_PALETTE(rnd(16));
	return st;
}

static void mutate(struct screen *s, struct kf_render *r)
{
	int x = (int)rnd((uint32_t)s->cols), y = (int)rnd((uint32_t)s->rows);
	switch (rnd(10)) {
	case 0:
	case 1:
	case 2:
	case 3: {
		uint32_t cp = chars[rnd(sizeof(chars) / sizeof(chars[0]))];
		uint16_t st = s->nstyles < SCREEN_MAX_STYLES - 1
				  ? screen_style(s, random_style())
				  : (uint16_t)rnd((uint32_t)s->nstyles);
		if (screen_wide(cp) && x + 1 < s->cols) {
			screen_put(s, x, y, cp, st, 2);
			screen_put(s, x + 1, y, 0, st, 0);
		} else {
			/* may leave an orphaned right half behind: the renderer must cope */
			screen_put(s, x, y, screen_wide(cp) ? 'x' : cp, st, 1);
		}
		if (!rnd(4))
			s->marks[(size_t)y * s->cols + x] = 0x301;
		break;
	}
	case 4:
		s->cells[(size_t)y * s->cols + x].flags ^= GRID_CELL_SELECTED;
		screen_put(s, x, y, s->cells[(size_t)y * s->cols + x].cp,
			   s->cells[(size_t)y * s->cols + x].style,
			   s->cells[(size_t)y * s->cols + x].width);
		break;
	case 5:
		s->src.cursor.x = x;
		s->src.cursor.y = y;
		s->src.cursor.visible = rnd(5) != 0;
		s->src.cursor.shape = (enum grid_cursor_shape)rnd(3);
		s->src.cursor.blink = rnd(2);
		break;
	case 6:
		kf_render_set_blink(r, rnd(2));
		break;
	case 7:
		kf_render_set_pointer(r, rnd(4) != 0, (int)rnd(400) - 20, (int)rnd(300) - 20);
		break;
	case 8:
		if (!rnd(8))
			s->src.reverse_video = !s->src.reverse_video;
		break;
	default:
		break;
	}
}

static int run(const char *name, struct kf_render *r, enum kf_render_format fmt, int steps)
{
	struct screen *s = screen_create(23, 9);
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int w = s->cols * cw + 3, h = s->rows * ch + 2, bpp = fmt == KF_RENDER_RGB565 ? 2 : 4;
	int stride = (w + 5) * bpp;
	uint8_t *inc = calloc((size_t)stride, (size_t)h), *full = calloc((size_t)stride, (size_t)h);
	struct kf_render_target ti = {inc, w, h, stride, fmt}, tf = {full, w, h, stride, fmt};
	struct kf_render_damage d;
	kf_render_damage_init(&d, s->cols, s->rows);
	kf_render_paint_full(r, &s->src, &ti, NULL, 0);
	kf_render_collect_damage(r, &s->src, &d); /* first call: everything */
	screen_damage_clear(s);
	int bad_steps = 0;
	long painted = 0, total = 0;
	for (int step = 0; step < steps; step++) {
		int n = 1 + (int)rnd(6);
		for (int k = 0; k < n; k++)
			mutate(s, r);
		kf_render_damage_clear(&d);
		kf_render_collect_damage(r, &s->src, &d);
		screen_damage_clear(s);
		for (int y = 0; y < d.rows; y++)
			if (d.x0[y] < d.x1[y])
				painted += d.x1[y] - d.x0[y];
		total += s->cols * s->rows;
		if (kf_render_paint(r, &s->src, &d, &ti, NULL, 0) < 0) {
			bad_steps++;
			continue;
		}
		kf_render_paint_full(r, &s->src, &tf, NULL, 0);
		if (memcmp(inc, full, (size_t)stride * h)) {
			if (!bad_steps)
				printf("FAIL %s: step %d: damage-only painting differs from a full "
				       "repaint\n",
				       name, step);
			bad_steps++;
			memcpy(inc, full,
			       (size_t)stride *
				   h); /* resynchronise to count later failures separately */
		}
	}
	printf("%s %s: %d steps, %d mismatches, damage covered %.1f%% of the cells\n",
	       bad_steps ? "FAIL" : "ok", name, steps, bad_steps, 100.0 * painted / (double)total);
	kf_render_set_pointer(r, false, 0, 0);
	kf_render_damage_finish(&d);
	free(inc);
	free(full);
	screen_destroy(s);
	return bad_steps != 0;
}

int main(void)
{
	int failures = 0;
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	if (kf_render_create(&cfg, &r))
		return 1;
	failures += run("builtin-xrgb", r, KF_RENDER_XRGB8888, 1500);
	failures += run("builtin-rgb565", r, KF_RENDER_RGB565, 500);
	kf_render_set_scale(r, 2);
	failures += run("builtin-x2", r, KF_RENDER_XRGB8888, 300);
	kf_render_destroy(r);
	cfg = (struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 16};
	if (kf_render_create(&cfg, &r))
		return 1;
	failures += run("dejavu-xrgb", r, KF_RENDER_XRGB8888, 800);
	kf_render_destroy(r);
	return failures ? 1 : 0;
}
