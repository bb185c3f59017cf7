/* kmscon-felis/render/source-grid.c: a kf_render_source reading a grid (kept apart so that tests
 * painting hand-built screens need not link grid/). */
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

static int size_cb(void *ud, int y)
{
	return (int)grid_row_size(ud, y);
}

static bool damage_cb(void *ud, int y, int *x0, int *x1)
{
	return grid_row_damage(ud, y, x0, x1);
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
	    .row_size = size_cb,
	    .palette = grid_palette(g),
	    /* the colours the grid started with (and returns to on OSC 104/110/111/112 and RIS) */
	    .palette_base = grid_palette_defaults(g),
	    .reverse_video = m.reverse_video,
	};
	grid_get_cursor(g, &src->cursor);
}
