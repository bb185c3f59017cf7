/* kmscon-felis/render/notice.c: the transient notice drawn over the grid (kf_render_set_notice).
 *
 * It is painted as cells, not as an overlay of pixels: while it is shown the frame reads its source through a
 * copy (kf_render_notice_source) whose notice row is the source's row with the notice's cells over its first
 * ones, each a plain one-cell character of the default style marked selected (the painter's reverse of the
 * default colours). Glyphs, scale, palette, DECSCNM, the visual bell, the canvas's rotation (drm/ turns the
 * painted picture) and damage all work on it as on any cell, and the paint path needs no branch of its own. The
 * source's cells are never written: when the notice goes its cells are damaged and painted from the source. */
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

void kf_render_set_notice(struct kf_render *r, const char *text)
{
	char t[KF_RENDER_NOTICE_MAX + 2];
	int n = 0;

	for (; text && text[n] && n < KF_RENDER_NOTICE_MAX; n++) {
		const unsigned char c = (unsigned char)text[n];
		t[n + 1] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (!n) {
		if (r->notice.len) {
			r->notice.len = 0;
			r->notice.gen++;
		}
		return;
	}
	t[0] = t[n + 1] = ' ';
	/* the same text again (a refusal repeated) changes nothing on the screen: no damage */
	if (r->notice.len == n + 2 && !memcmp(r->notice.text, t, (size_t)n + 2))
		return;
	if (!r->notice.len)
		r->notice.row = -1;
	memcpy(r->notice.text, t, (size_t)n + 2);
	r->notice.len = n + 2;
	r->notice.gen++;
}

int kf_render_notice_cells(const struct kf_render *r, const struct kf_render_source *s, int *row)
{
	*row = r->notice.row < s->rows ? r->notice.row : s->rows - 1;
	if (!r->notice.len || *row < 0) {
		*row = -1;
		return 0;
	}
	return r->notice.len < s->cols ? r->notice.len : s->cols;
}

static const struct grid_cell *notice_row(void *ud, int y)
{
	const struct kf_notice_source *ns = ud;
	const struct grid_cell *in = ns->in->row(ns->in->ud, y);
	if (y != ns->row)
		return in;
	struct grid_cell *c = ns->r->notice.cells;
	memcpy(c, in, (size_t)ns->in->cols * sizeof(*c));
	for (int x = 0; x < ns->n; x++)
		c[x] = (struct grid_cell){.cp = (unsigned char)ns->r->notice.text[x], .width = 1,
					  .flags = GRID_CELL_SELECTED};
	return c;
}

static const struct grid_style *notice_style(void *ud, uint16_t id)
{
	const struct kf_notice_source *ns = ud;
	return ns->in->style(ns->in->ud, id);
}

static size_t notice_cps(void *ud, const struct grid_cell *c, uint32_t *out, size_t cap)
{
	const struct kf_notice_source *ns = ud;
	return ns->in->codepoints(ns->in->ud, c, out, cap);
}

static bool notice_damage(void *ud, int y, int *x0, int *x1)
{
	const struct kf_notice_source *ns = ud;
	return ns->in->row_damage(ns->in->ud, y, x0, x1);
}

/* The notice is drawn at the single size over a double-width or double-height row. */
static int notice_size(void *ud, int y)
{
	const struct kf_notice_source *ns = ud;
	return y == ns->row ? 0 : ns->in->row_size(ns->in->ud, y);
}

const struct kf_render_source *kf_render_notice_source(struct kf_render *r, const struct kf_render_source *s,
						       struct kf_notice_source *tmp)
{
	if (s->rows < 1 || s->cols < 1)
		return s;
	if (r->notice.row < 0)
		r->notice.row = s->cursor.y == 0 && s->rows > 1 ? s->rows - 1 : 0;
	if (r->notice.cap < s->cols) {
		struct grid_cell *c = realloc(r->notice.cells, (size_t)s->cols * sizeof(*c));
		if (!c)
			return s;
		r->notice.cells = c;
		r->notice.cap = s->cols;
	}
	*tmp = (struct kf_notice_source){.s = *s, .in = s, .r = r};
	tmp->n = kf_render_notice_cells(r, s, &tmp->row);
	tmp->s.ud = tmp;
	tmp->s.row = notice_row;
	tmp->s.style = s->style ? notice_style : NULL;
	tmp->s.codepoints = s->codepoints ? notice_cps : NULL;
	tmp->s.row_damage = s->row_damage ? notice_damage : NULL;
	tmp->s.row_size = s->row_size ? notice_size : NULL;
	if (s->cursor.y == tmp->row && s->cursor.x < tmp->n)
		tmp->s.cursor.visible = false;
	return &tmp->s;
}
