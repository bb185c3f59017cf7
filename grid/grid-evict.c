/* grid/grid-evict.c: when the screens and the history hold nearly as many distinct entries as a table has
 * ids (styles 65,535, clusters 65,536, links 1,023: a full history of 10,000 lines at 212 columns holds 2.1 M
 * cells), the oldest history lines give theirs up (their cells take the default style, the cluster's base
 * character, no link) so that new output keeps its own. Before, the collection found the table full of live
 * entries and every new one fell back until the next collection (133,000 new pens, 530,000 clusters or 1,024
 * links later): the newest output lost its colours, marks and links while lines 10,000 lines up kept theirs.
 * Called by grid__collect (grid-style.c) after its marks, rarely: only when a table is mostly live.
 */
#include <string.h>

#include "grid/grid-internal.h"

/* Marks style id live (bit 2 of its byte); returns 1 when it was not marked yet. */
static inline uint32_t mark1(uint8_t *used, uint16_t id)
{
	const uint32_t n = !(used[id] & 2);
	used[id] |= 2;
	return n;
}

/* Marks the entries of kind k of line l (used: that table's marks); returns how many were not marked yet. */
static uint32_t count_line(const struct grid *g, enum grid_evict k, uint8_t *used, const struct line *l)
{
	uint32_t n = 0;
	/* an erase's deferred row is cell 0's blank throughout (no cluster, no link): its other cells hold the
	 * erased content, dead (as in grid-style.c's mark_line) */
	if (l->flags & LINE_STALE)
		return k == EVICT_STYLES ? mark1(used, l->cells[0].style) : 0;
	if (k == EVICT_STYLES) {
		if (l->flags & LINE_PACKED) {
			if (!(l->flags & LINE_STYLED))
				return mark1(used, l->pstyle);
			const uint16_t *st = grid__line_styles(l);
			for (int x = 0; x < l->ncells; x++)
				n += mark1(used, st[x]);
			return n;
		}
		if (l->flags & LINE_LAZY)
			n += mark1(used, l->pstyle);
		for (int x = 0; x < l->ncells; x++)
			n += mark1(used, l->cells[x].style);
		return n;
	}
	if (l->flags & LINE_PACKED) /* (no clusters, no links) */
		return 0;
	for (int x = 0; x < l->ncells; x++) {
		const struct grid_cell *c = &l->cells[x];
		if (k == EVICT_LINKS) {
			if (c->link && c->link < LINK_MAX)
				n += mark1(used, c->link);
		} else if (c->cp & GRID_CP_CLUSTER && (c->cp & ~GRID_CP_CLUSTER) < g->cl.cap)
			n += mark1(used, (uint16_t)(c->cp & ~GRID_CP_CLUSTER));
	}
	return n;
}

/* The entries of kind k of line l that are not marked: the default style, the cluster's base character (as
 * when a mark finds no room), no link. */
static void drop_line(const struct grid *g, enum grid_evict k, const uint8_t *used, struct line *l)
{
	if (k == EVICT_STYLES) {
		if (l->flags & LINE_PACKED) {
			if (l->flags & LINE_STYLED) {
				uint16_t *st = (uint16_t *)(void *)((uint8_t *)(void *)l->cells + ((l->ncells + 15) & ~15));
				for (int x = 0; x < l->ncells; x++)
					if (!(used[st[x]] & 2))
						st[x] = 0;
			} else if (!(used[l->pstyle] & 2))
				l->pstyle = 0;
			return;
		}
		if (!(used[l->pstyle] & 2))
			l->pstyle = 0;
		for (int x = 0; x < l->ncells; x++)
			if (!(used[l->cells[x].style] & 2))
				l->cells[x].style = 0;
		return;
	}
	if (l->flags & LINE_PACKED)
		return;
	for (int x = 0; x < l->ncells; x++) {
		struct grid_cell *c = &l->cells[x];
		if (k == EVICT_LINKS) {
			if (c->link && c->link < LINK_MAX && !(used[c->link] & 2))
				c->link = 0;
			continue;
		}
		const uint32_t i = c->cp & ~GRID_CP_CLUSTER;
		if (c->cp & GRID_CP_CLUSTER && i < g->cl.cap && !(used[i] & 2))
			c->cp = g->cl.c[i].cp[0];
	}
}

static struct line *ring_line(const struct screen *s, size_t i)
{
	return s->ring[(s->top + s->cap - s->sb_n + i) % s->cap];
}

/* After grid__collect's sweep of a table (its marks: 1 for a live entry, 0 for a free one; links: all 0):
 * marks the entries of both screens, of the history lines on display while the view is scrolled back, and
 * those held elsewhere (the pens, the current link), then the history's lines' from the newest until `budget`
 * entries are marked; the older lines' other entries are given up. Returns whether any line was changed: then
 * the marks (bit 2) are for the caller's sweep; otherwise they are cleared again (links: left as marked, all
 * live). */
bool grid__evict(struct grid *g, enum grid_evict k, uint32_t budget)
{
	uint8_t *used = k == EVICT_STYLES ? g->st.used : k == EVICT_CLUSTERS ? g->cl.used : g->links.used;
	const uint32_t n_ids = k == EVICT_STYLES ? g->st.hw : k == EVICT_CLUSTERS ? g->cl.cap : LINK_MAX;
	struct screen *s = &g->primary;
	uint32_t live = 0;
	if (k == EVICT_STYLES) {
		live += mark1(used, 0);
		if (!g->pen_dirty)
			live += mark1(used, g->pen_id);
		if (!g->erase_dirty)
			live += mark1(used, g->erase_id);
	} else if (k == EVICT_LINKS && g->link)
		live += mark1(used, g->link);
	for (size_t i = 0; i < (size_t)g->rows + g->alt.sb_n; i++) {
		const struct line *l = ring_line(&g->alt, i);
		if (l)
			live += count_line(g, k, used, l);
	}
	for (size_t i = s->sb_n; i < s->sb_n + (size_t)g->rows; i++) {
		const struct line *l = ring_line(s, i);
		if (l)
			live += count_line(g, k, used, l);
	}
	/* the history lines on display while the view is scrolled back: the user is reading them (a selection
	 * dragged there keeps the view while output arrives), so they keep theirs as the screens do */
	if (g->scr == s && g->view_offset && g->view_offset <= s->sb_n) {
		const size_t first = s->sb_n - g->view_offset;
		for (size_t i = first; i < s->sb_n && i < first + (size_t)g->rows; i++) {
			const struct line *l = ring_line(s, i);
			if (l)
				live += count_line(g, k, used, l);
		}
	}
	size_t keep = 0; /* history lines kept whole, from the newest */
	for (; keep < s->sb_n && live < budget; keep++) {
		const struct line *l = ring_line(s, s->sb_n - 1 - keep);
		if (l)
			live += count_line(g, k, used, l);
	}
	if (keep == s->sb_n) {
		/* the screens and the whole history fit: nothing to give up (the table is full of live entries,
		 * most of them on the screens: new ones fall back, grid-style.c) */
		if (k != EVICT_LINKS)
			for (uint32_t i = 0; i < n_ids; i++)
				used[i] &= 1;
		return false;
	}
	for (size_t i = 0; i < s->sb_n - keep; i++) {
		struct line *l = ring_line(s, i);
		if (l)
			drop_line(g, k, used, l);
	}
	if (g->view_offset)
		grid_damage_all(g); /* the lines shown may be among them */
	return true;
}
