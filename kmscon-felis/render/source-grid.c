/* kmscon-felis/render/source-grid.c: a kf_render_source reading a grid (kept apart so that tests
 * painting hand-built screens need not link grid/). */
#include <string.h>

#include "kmscon-felis/render/render.h"

static const struct grid_cell *row_cb(void *ud, int y)
{
	return grid_row(ud, y);
}

static const struct grid_style *style_cb(void *ud, uint16_t id)
{
	return grid_style(ud, id);
}

static size_t cps_cb(void *ud, const struct grid_cell *c, uint32_t *out, size_t cap)
{
	return grid_cell_codepoints(ud, c, out, cap);
}

static bool damage_cb(void *ud, int y, int *x0, int *x1)
{
	return grid_row_damage(ud, y, x0, x1);
}

/* The palette every grid starts with (and returns to on OSC 104/110/111/112 and RIS), read once
 * from a fresh grid so it stays whatever grid/ defines. */
static const uint32_t *grid_base_palette(void)
{
	static uint32_t base[259];
	static bool done;
	if (!done) {
		struct grid_config cfg = {.cols = 1, .rows = 1, .scrollback = 0};
		struct grid *g = grid_create(&cfg, NULL, NULL);
		if (!g)
			return NULL;
		memcpy(base, grid_palette(g), sizeof(base));
		grid_destroy(g);
		done = true;
	}
	return base;
}

void kf_render_source_from_grid(struct kf_render_source *src, const struct grid *g)
{
	struct grid_modes m;
	grid_get_modes(g, &m);
	*src = (struct kf_render_source){
	    .cols = grid_cols(g),
	    .rows = grid_rows(g),
	    .ud = (void *)g,
	    .row = row_cb,
	    .style = style_cb,
	    .codepoints = cps_cb,
	    .row_damage = damage_cb,
	    .palette = grid_palette(g),
	    .palette_base = grid_base_palette(),
	    .reverse_video = m.reverse_video,
	};
	grid_get_cursor(g, &src->cursor);
}
