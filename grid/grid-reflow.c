/* grid/grid-reflow.c: resize with reflow of soft-wrapped lines.
 *
 * The primary screen and its scrollback are cut into logical lines (rows joined by their soft-wrap flag),
 * each re-wrapped at the new width; a wide character that no longer fits at the end of a row moves to the
 * next one. On a one-column screen a wide character is kept in a narrow cell (none can show it; printing one
 * there writes nothing) and takes its two columns back when the screen is wider again. The cursor keeps its offset inside its logical line, so it stays on its character, and so does the
 * cursor the primary screen saved (DECSC, 1048, 1049). The screen's top row stays the top (where its first
 * character went) unless the later of the cursor row and the last non-blank row no longer fits below it; then
 * rows leave at the top into the scrollback (as libvterm does), but never the cursor's own: rows below it that
 * still do not fit are cut (xterm and alacritty cut every row below the cursor that does not fit). Growing
 * taller by n rows brings n scrollback rows back down, as xterm's ScreenResize.
 * The alternate screen is not reflowed (full-screen programs redraw on SIGWINCH): rows are cut or padded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

/* The rows laid out: each is built in cur, a row of the new width, and kept as a copy of its written cells
 * only, so that a resize to a wide screen takes memory and time for the text, not for every scrollback line
 * at the new width (a full-width row per line was 490 MiB and 4 s for 10000 lines at 4096 columns). */
struct out {
	struct line **v;
	size_t base, n, cap; /* kept rows are v[base .. n) */
	size_t dropped;      /* kept rows freed from the front: absolute index of v[base] */
	size_t keep;         /* at most this many rows are worth keeping */
	/* rows from this absolute index on are past the screen's bottom with the cursor's row at its top (set
	 * once the cursor is placed): laid out, for the saved cursor's place, but not kept */
	size_t limit;
	bool cursor;      /* cms[0] is the cursor (else the maps hold no cursor to keep) */
	size_t count;     /* rows begun: cur is row count - 1 */
	struct line *cur; /* the row being laid out, cols cells, blank from w on */
	int w;
	int cols, rows;
	bool failed;
};

/* rounded up to 16 bytes like every line: grid__hist_copy copies whole vectors */
static size_t line_size(int ncells)
{
	return (sizeof(struct line) + (size_t)ncells * sizeof(struct grid_cell) + 15) & ~(size_t)15;
}

static bool cell_blank(const struct grid_cell *c)
{
	return c->cp == 0 && c->style == 0 && c->width == 1;
}

/* The absolute index of the row being laid out. */
static size_t out_row(const struct out *o)
{
	return o->count - 1;
}

/* Keeps cells [0, n) of row c as the newest row (the oldest goes past o->keep). */
static void out_keep(struct out *o, const struct line *c, int n)
{
	if (o->n - o->base >= o->keep + 1) {
		free(o->v[o->base]);
		o->v[o->base++] = NULL;
		o->dropped++;
	}
	if (o->n == o->cap) {
		if (o->base > 0) {
			memmove(o->v, o->v + o->base, (o->n - o->base) * sizeof(*o->v));
			o->n -= o->base;
			o->base = 0;
		}
		if (o->n == o->cap) {
			size_t cap = o->cap ? o->cap * 2 : 64;
			struct line **v = realloc(o->v, cap * sizeof(*v));
			if (!v) {
				o->failed = true;
				return;
			}
			o->v = v;
			o->cap = cap;
		}
	}
	struct line *l = malloc(line_size(n));
	if (!l) {
		o->failed = true;
		return;
	}
	l->flags = c->flags & (LINE_WRAPPED | LINE_WIDE_WRAP | LINE_DBL_MASK);
	l->used = (uint16_t)n;
	l->ncells = (uint16_t)n;
	l->pstyle = 0;
	l->text = NULL;
	memcpy(l->cells, c->cells, (size_t)n * sizeof(struct grid_cell));
	o->v[o->n++] = l;
}

/* Ends the row being laid out: kept (its cells up to the last one that is not blank) unless past o->limit;
 * cur is blank again. */
static void out_end_row(struct out *o)
{
	struct line *c = o->cur;
	int n = o->w;
	while (n > 0 && cell_blank(&c->cells[n - 1]))
		n--;
	if (out_row(o) < o->limit)
		out_keep(o, c, n);
	grid__clear_cells(c->cells, o->w, 0);
	c->flags = 0;
	o->w = 0;
}

/* Begins a new row, ending the one before. Returns it (o->cur), or NULL out of memory. */
static struct line *out_add(struct out *o)
{
	if (!o->cur) {
		o->cur = malloc(line_size(o->cols));
		if (!o->cur) {
			o->failed = true;
			return NULL;
		}
		o->cur->flags = 0;
		o->cur->used = o->cur->ncells = (uint16_t)o->cols;
		o->cur->pstyle = 0;
		o->cur->text = NULL;
		grid__clear_cells(o->cur->cells, o->cols, 0);
	}
	if (o->count > 0)
		out_end_row(o);
	o->count++;
	return o->failed ? NULL : o->cur;
}

/* The rows kept, from the first not freed: o->dropped + (o->n - o->base) of them. */
static void out_finish(struct out *o)
{
	if (o->count > 0 && !o->failed)
		out_end_row(o);
}

static void out_free(struct out *o)
{
	for (size_t i = o->base; i < o->n; i++)
		free(o->v[i]);
	free(o->v);
	free(o->cur);
}

static int trimmed_len(const struct line *l, int cols)
{
	int n = l->ncells < cols ? l->ncells : cols;
	while (n > 0) {
		struct grid_cell c = grid__line_cell(l, n - 1);
		if (!cell_blank(&c))
			break;
		n--;
	}
	return n;
}

/* A cursor taken through the layout: the cursor itself, the one the primary screen saved (DECSC, 1048,
 * 1049), which restored must land on the same character, and the view's top row when it is scrolled back. */
struct cursor_map {
	size_t phys;   /* old physical row (index from the oldest scrollback row) */
	long off;      /* old offset inside the logical line, set when its line starts */
	size_t row;    /* result: absolute output row */
	int col;
	bool found, pending;
};

/* cms[k] was just placed: the cursor's row (k 0) must stay on the screen, rows a screen below it need not be
 * kept. */
static void out_placed(struct out *o, const struct cursor_map *cms, int k)
{
	if (k == 0 && o->cursor)
		o->limit = cms[0].row + (size_t)o->rows;
}

/* Places cursor cm, which sits after the content of its logical line (end_off: the content's old length, col:
 * where it ends on the last new row, row). */
static void place_after(struct cursor_map *cm, long end_off, int col, int ncols, size_t row)
{
	long extra = cm->off - end_off;
	if (extra == 0 && col == ncols) {
		/* right after a row that ends at the edge: the wrap is pending, as it would be had the line
		 * been written at this width (on the last character, the next one overwrote it) */
		cm->col = ncols - 1;
		cm->pending = true;
	} else {
		long pos = col + extra;
		if (pos >= ncols) {
			pos = ncols - 1;
		}
		cm->col = (int)pos;
		cm->pending = false;
	}
	cm->found = true;
	cm->row = row;
}

/* Whether cell content cp is a wide character (a cluster's width is its first code point's, as printed). A
 * one-column screen keeps one in a narrow cell, as it cannot show it: laid out again on a wider one, it takes
 * its two columns back. */
static bool char_wide(const struct grid *g, uint32_t cp)
{
	struct cluster tmp;
	if (cp & GRID_CP_CLUSTER) {
		const struct cluster *cl = grid__cluster(g, cp, &tmp);
		if (!cl || cl->n == 0)
			return false;
		cp = cl->cp[0];
	}
	return vt_char_width(cp) == 2;
}

/* Re-wraps old rows [i, j] (one logical line) into o, placing the cursors cms[0, ncm) that are on them. */
static void layout_line(struct out *o, const struct grid *g, int ocols, size_t first, size_t i, size_t j,
			struct cursor_map *cms, int ncm)
{
	const struct screen *s = &g->primary;
	int ncols = o->cols;
	struct line *dst = out_add(o);
	if (!dst)
		return;
	/* double rows (joined only with rows of their size: reflow_primary) are laid out at the new half, each
	 * of their rows double, so that their text stays in sight; their cells past the old half, which were not
	 * shown, go. Offsets keep the old rows' stride (ocols), as the cursors' do. */
	const unsigned dbl = s->ring[(first + i) % s->cap]->flags & LINE_DBL_MASK;
	const int ow = dbl ? (ocols - 1) / 2 + 1 : ocols;
	if (dbl) {
		ncols = (ncols - 1) / 2 + 1;
		dst->flags |= (uint16_t)dbl;
	}
	int col = 0;
	bool has_cur[4] = {false, false, false, false};
	for (int k = 0; k < ncm; k++)
		has_cur[k] = cms[k].phys >= i && cms[k].phys <= j;
	long end_off = 0;
	/* the offset of a blank dropped below, where a cursor on it goes to the character after it (the text's
	 * next place; it matches no cell, and placed after the line's end it would land inside the text) */
	long gap = -1;
	for (size_t r = i; r <= j; r++) {
		const struct line *l = s->ring[(first + r) % s->cap];
		int n = r == j ? trimmed_len(l, ow) : ow;
		long row_gap = -1;
		if (r < j && n > 0 && l->flags & LINE_WIDE_WRAP && (n > l->ncells || grid__line_cell(l, n - 1).cp == 0)) {
			const struct line *next = s->ring[(first + r + 1) % s->cap];
			if (next->ncells > 0 && grid__line_cell(next, 0).width == 2) {
				n--; /* the blank left behind by a wide character that wrapped early */
				row_gap = (long)(r - i) * ocols + n;
			}
		}
		static const struct grid_cell blank = {.cp = 0, .style = 0, .link = 0, .width = 1, .flags = 0};
		for (int x = 0; x < n; x++) {
			struct grid_cell cv = x < l->ncells ? grid__line_cell(l, x) : blank;
			const struct grid_cell *c = &cv;
			if (c->width == 0)
				continue;
			int w = c->width == 2 && ncols >= 2 ? 2 : 1;
			if (unlikely(ocols == 1) && ncols >= 2 && c->width == 1 && char_wide(g, c->cp))
				w = 2;
			if (col + w > ncols) {
				/* a wide character that does not fit in the last column leaves it blank (print_one) */
				dst->flags |= col < ncols ? LINE_WRAPPED | LINE_WIDE_WRAP : LINE_WRAPPED;
				dst = out_add(o);
				if (!dst)
					return;
				dst->flags |= (uint16_t)dbl;
				col = 0;
			}
			long off = (long)(r - i) * ocols + x;
			for (int k = 0; k < ncm; k++) {
				struct cursor_map *cm = &cms[k];
				if (has_cur[k] && !cm->found &&
				    (off == cm->off || (c->width == 2 && off + 1 == cm->off) || cm->off == gap)) {
					cm->found = true;
					cm->row = out_row(o);
					/* on a right half, on the right half still (unless it is a narrow cell now) */
					cm->col = col + (off + 1 == cm->off ? w - 1 : 0);
					cm->pending = false;
					out_placed(o, cms, k);
				}
			}
			gap = -1;
			dst->cells[col] = *c;
			dst->cells[col].flags = 0;
			if (w == 2) {
				dst->cells[col].width = 2;
				dst->cells[col + 1] = *c;
				dst->cells[col + 1].cp = 0;
				dst->cells[col + 1].width = 0;
			} else {
				dst->cells[col].width = 1;
			}
			col += w;
			o->w = col;
		}
		end_off = (long)(r - i) * ocols + n;
		if (row_gap >= 0)
			gap = row_gap;
	}
	for (int k = 0; k < ncm; k++) {
		if (has_cur[k] && !cms[k].found) {
			/* the cursor sits after the content: keep its distance, on the same row */
			place_after(&cms[k], end_off, col, ncols, out_row(o));
			out_placed(o, cms, k);
		}
	}
}

/* Builds the new primary screen into ns; cx, cy and pending are the cursors [0, n), in and out: [0] the
 * cursor, whose row is kept, [1] the saved one, left as it is where it is below the rows kept. *view, in and
 * out, is the view's offset into the scrollback: a user reading it keeps their place, the row at the view's top
 * laid out with the rest (as far up as the new scrollback reaches). */
static int reflow_primary(struct grid *g, struct screen *ns, int ncols, int nrows, int *cx, int *cy,
			  bool *pending, int n, size_t *view)
{
	const struct screen *s = &g->primary;
	int ocols = g->cols, orows = g->rows;
	size_t first = s->top + s->cap - s->sb_n; /* ring index of the oldest row */
	int last = *cy;
	for (int y = orows - 1; y > last; y--) {
		if (trimmed_len(s->ring[(s->top + (size_t)y) % s->cap], ocols) > 0) {
			last = y;
			break;
		}
	}
	size_t nphys = s->sb_n + (size_t)last + 1;
	struct cursor_map cm[4];
	for (int k = 0; k < n; k++)
		cm[k] = (struct cursor_map){.phys = s->sb_n + (size_t)cy[k], .pending = pending[k]};
	/* the view's top row, as a cursor at its start (one past those given: out_placed keeps [0]'s row) */
	const bool has_view = *view > 0 && n > 0;
	int nv = n + has_view;
	if (has_view) {
		cm[n] = (struct cursor_map){.phys = s->sb_n - *view};
		cx[n] = 0;
		pending[n] = false;
	}
	/* and the screen's top row, which stays the top where the rows below it fit */
	const int ktop = nv++;
	cm[ktop] = (struct cursor_map){.phys = s->sb_n};
	cx[ktop] = 0;
	pending[ktop] = false;
	struct out o = {.cols = ncols, .rows = nrows, .keep = s->sb_max + (size_t)nrows, .limit = SIZE_MAX,
			.cursor = n > 0};
	for (size_t i = 0; i < nphys && !o.failed;) {
		size_t j = i;
		/* rows of one size only: a double row's text is laid out at its half's width (layout_line) */
		const unsigned dbl = s->ring[(first + i) % s->cap]->flags & LINE_DBL_MASK;
		while (j < nphys - 1 && (s->ring[(first + j) % s->cap]->flags & LINE_WRAPPED) &&
		       (s->ring[(first + j + 1) % s->cap]->flags & LINE_DBL_MASK) == dbl)
			j++;
		for (int k = 0; k < nv; k++)
			if (cm[k].phys >= i && cm[k].phys <= j)
				cm[k].off = (long)(cm[k].phys - i) * ocols + cx[k] + (pending[k] ? 1 : 0);
		layout_line(&o, g, ocols, first, i, j, cm, nv);
		i = j + 1;
	}
	out_finish(&o);
	if (o.failed) {
		out_free(&o);
		return -ENOMEM;
	}
	size_t total = o.dropped + (o.n - o.base);
	/* The rows kept end at the cursor's or the last text's (o.limit cuts the rest). A screen they filled to
	 * its last row ends there again (a grow pulls rows back, a narrower one pushes them up). Else rows were
	 * blank below them (after `clear`, the prompt on the top row): the top row stays, less the rows a taller
	 * screen pulls back (xterm's ScreenResize), unless the rows then no longer fit. Neither is past the
	 * cursor's row (o.limit, and the old top is not below it). Without a cursor to keep (the alternate screen
	 * of 47, 1047) the last rows of text stay. */
	size_t s0 = total > (size_t)nrows ? total - (size_t)nrows : 0;
	const size_t grow = nrows > orows ? (size_t)(nrows - orows) : 0;
	const size_t top = cm[ktop].found ? cm[ktop].row : 0;
	if (n > 0 && last < orows - 1 && top > grow && top - grow > s0)
		s0 = top - grow;
	size_t sb0 = s0 > s->sb_max ? s0 - s->sb_max : 0;
	if (sb0 < o.dropped)
		sb0 = o.dropped;
	memset(ns, 0, sizeof(*ns));
	ns->sb_max = s->sb_max;
	ns->cap = (size_t)nrows + s->sb_max;
	ns->line_cols = ncols;
	ns->ring = calloc(ns->cap, sizeof(*ns->ring));
	if (!ns->ring) {
		out_free(&o);
		return -ENOMEM;
	}
	ns->sb_n = s0 - sb0;
	ns->top = ns->sb_n;
	/* Absolute line numbers go on from the oldest line kept, so abs_top >= sb_n always holds (the
	 * selection's arithmetic relies on it): reflow may push screen lines into the scrollback. */
	ns->abs_top = s->abs_top - s->sb_n + sb0 + ns->sb_n;
	size_t a = sb0;
	for (size_t y = 0; y < ns->sb_n + (size_t)nrows; y++, a++) {
		struct line *src = a < total ? o.v[o.base + (a - o.dropped)] : NULL, *l;
		if (y < ns->sb_n) {
			l = grid__hist_copy(ns, src, ncols, ns->abs_top - ns->sb_n + y);
		} else {
			l = grid__screen_line(ns);
			if (l && src) {
				memcpy(l->cells, src->cells, (size_t)src->ncells * sizeof(struct grid_cell));
				l->flags = src->flags & (LINE_WRAPPED | LINE_WIDE_WRAP | LINE_DBL_MASK);
				l->used = (uint16_t)ncols;
			}
		}
		if (!l) {
			out_free(&o);
			grid__screen_finish(ns);
			return -ENOMEM;
		}
		ns->ring[y] = l;
	}
	out_free(&o);
	for (int k = 0; k < n; k++) {
		if (k > 0 && !cm[k].found)
			continue;
		long cr = cm[k].found ? (long)cm[k].row - (long)s0 : 0;
		cy[k] = (int)(cr < 0 ? 0 : cr >= nrows ? nrows - 1 : cr);
		cx[k] = cm[k].found ? grid__clamp(cm[k].col, 0, ncols - 1) : 0;
		pending[k] = cm[k].found && cm[k].pending && cr >= 0 && cr < nrows;
	}
	if (has_view) {
		size_t top = cm[n].found ? cm[n].row : 0;
		*view = top >= s0 ? 0 : s0 - top < ns->sb_n ? s0 - top : ns->sb_n;
	}
	return 0;
}

/* The alternate screen: rows cut or padded; rows leave at the top if the cursor would fall off. */
static int resize_alt(struct grid *g, struct screen *ns, int ncols, int nrows, int *cy)
{
	const struct screen *s = &g->alt;
	if (grid__screen_init(ns, nrows, ncols, 0) < 0)
		return -ENOMEM;
	int shift = *cy >= nrows ? *cy - nrows + 1 : 0;
	int w = grid__min(ncols, g->cols);
	for (int y = 0; y < nrows && y + shift < g->rows; y++) {
		const struct line *src = s->ring[(s->top + (size_t)(y + shift)) % s->cap];
		struct line *dst = ns->ring[y];
		memcpy(dst->cells, src->cells, (size_t)w * sizeof(struct grid_cell));
		dst->used = (uint16_t)ncols;
		dst->flags = src->flags & LINE_DBL_MASK;
		if (w < g->cols && dst->cells[w - 1].width == 2)
			dst->cells[w - 1] = (struct grid_cell){.cp = 0, .style = 0, .width = 1};
		for (int x = 0; x < w; x++)
			dst->cells[x].flags = 0;
	}
	*cy -= shift;
	return 0;
}

/* The character printed last, which a combining mark that comes next joins (grid__cluster_attach), after the
 * resize: the one the cursor still follows on its row (under it at a pending wrap, or at the edge without
 * DECAWM: on), which on the alternate screen, not laid out again, is the same cell (old_x) or none. None when
 * nothing was just printed there (was). */
static void last_printed(struct grid *g, bool was, bool on, int old_x, bool on_alt)
{
	g->last_x = g->last_y = -1;
	if (!was)
		return;
	int x = g->wrap_pending || (on && !g->autowrap) ? g->cx : g->cx - 1;
	const struct grid_cell *c = x >= 0 ? &grid__line(g, g->cy)->cells[x] : NULL;
	if (c && c->width == 0 && x > 0)
		c = &grid__line(g, g->cy)->cells[--x];
	if (!c || c->cp == 0 || c->width == 0 || (on_alt && x != old_x))
		return;
	g->last_x = x;
	g->last_y = g->cy;
	g->last_w = c->width;
}

int grid__reflow(struct grid *g, int cols, int rows)
{
	/* a character was just printed, right before the cursor or under it (a pending wrap, or no DECAWM) */
	const bool printed_on = g->last_x >= 0 && g->last_y == g->cy && g->cx == g->last_x + g->last_w - 1 &&
				(g->wrap_pending || (!g->autowrap && g->cx == grid__right_limit(g)));
	const bool printed = printed_on || (g->last_x >= 0 && g->last_y == g->cy && g->cx == g->last_x + g->last_w);
	const int printed_x = g->last_x;
	bool on_alt = g->scr == &g->alt;
	struct saved_cursor *sv = &g->saved[0];
	/* The primary's cursors: on the alternate screen only the one 1049 saved, its pending wrap too (the
	 * layout puts a pending cursor after its character, and leaving 1049 brings the wrap back only where it
	 * still is pending); on the primary one the cursor, then the one DECSC or 1048 saved, whose pending wrap
	 * DECRC brings back as well (xterm), so it goes the same way. On the alternate screen with none saved (47,
	 * 1047), no row of the primary one has to stay: its last rows of text do. */
	int n = on_alt ? sv->valid : 1 + sv->valid;
	int pcx[4] = {g->cx, sv->x, 0, 0}, pcy[4] = {g->cy, sv->y, 0, 0};
	/* with DECAWM reset the cursor at the edge is on its character, which the next one overwrites: laid out
	 * there, its wrap kept pending below only while it is still at the edge (for DECAWM set again) */
	bool pend[4] = {g->wrap_pending && g->autowrap, sv->valid && sv->wrap_pending, false, false};
	size_t view = on_alt ? 0 : g->view_offset;
	if (on_alt) {
		pcx[0] = sv->valid ? sv->x : 0;
		pcy[0] = sv->valid ? sv->y : 0;
		pend[0] = sv->valid && sv->wrap_pending;
	}
	int acy = on_alt ? g->cy : 0;
	/* the layout reads the old rows' cells: deferred ones (LINE_LAZY) get them first */
	for (int y = 0; y < g->rows; y++) {
		grid__line_ready(g->primary.ring[(g->primary.top + (size_t)y) % g->primary.cap]);
		grid__line_ready(g->alt.ring[(g->alt.top + (size_t)y) % g->alt.cap]);
	}
	struct screen np, na;
	int r = reflow_primary(g, &np, cols, rows, pcx, pcy, pend, n, &view);
	if (r < 0)
		return r;
	r = resize_alt(g, &na, cols, rows, &acy);
	if (r < 0) {
		grid__screen_finish(&np);
		return r;
	}
	grid__screen_finish(&g->primary);
	grid__screen_finish(&g->alt);
	g->primary = np;
	g->alt = na;
	g->scr = on_alt ? &g->alt : &g->primary;
	g->cols = cols;
	g->rows = rows;
	g->view_offset = view;
	/* the saved cursor where the layout placed it (grid_resize clamps one it did not) */
	const int k = on_alt ? 0 : 1;
	sv->x = pcx[k];
	sv->y = pcy[k];
	sv->wrap_pending = pend[k];
	if (on_alt) {
		/* the alternate screen's own saved cursor goes up with the rows that left at the top (grid_resize
		 * clamps it to the screen) */
		g->saved[1].y = grid__max(g->saved[1].y - (g->cy - acy), 0);
		g->cx = grid__min(g->cx, cols - 1);
		g->cy = acy;
		/* a pending wrap stays while the cursor is still at the edge (xterm keeps it); on a wider screen,
		 * or from a right margin (DECSLRM, reset here), the cursor is inside the row: none is pending */
		g->wrap_pending = g->wrap_pending && g->cx == cols - 1;
	} else {
		g->wrap_pending = pend[0] || (g->wrap_pending && !g->autowrap && pcx[0] == cols - 1);
		g->cx = pcx[0];
		g->cy = pcy[0];
	}
	last_printed(g, printed, printed_on, printed_x, on_alt);
	return 0;
}
