/* grid/grid-cluster.c: the cluster table. A grapheme cluster of more than one code point (a character
 * with combining marks, a ZWJ sequence, a flag) is stored once here (interned) and a cell holding it has
 * GRID_CP_CLUSTER | its index. Entries, hash index and used marks share one block; unused entries are
 * collected with the styles (grid-style.c, grid__collect), and the table is bounded by CLUSTER_MAX. An ASCII
 * character with one or two marks U+0300..U+036F takes no entry: it is held in the cell (CLUSTER_DIRECT,
 * grid-internal.h). The printer's join of a code point to the cell printed last (grid__cluster_attach) is
 * here too.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

static uint32_t cluster_hash(const uint32_t *cp, uint32_t n)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < n; i++)
		h = (h ^ cp[i]) * 16777619u;
	return h ^ (h >> 15);
}

/* The hash index is two arrays of hash_cap slots: a tag byte per slot (0 = empty, else the hash's top byte,
 * made non-zero) and the entry's index (16 bits). A probe reads the tags alone, 128 KiB at CLUSTER_MAX,
 * which mostly stay in the L2 cache while a flood of marked characters interns one new cluster after the
 * other; the index (and then the entry, 64 bytes in megabytes: a miss) is read only when a tag agrees. With
 * one 32-bit word per slot (tag and index together, 512 KiB) each new cluster cost a miss on its slot. */
_Static_assert(CLUSTER_MAX <= 65536, "an entry's index fits 16 bits");

static inline uint8_t slot_tag(uint32_t hv)
{
	uint8_t tag = (uint8_t)(hv >> 24);
	return tag ? tag : 1;
}

/* The table's arrays (entries, hash, used marks) share one block. A block of 1 MiB or more is a mapping
 * of whole huge pages (grid__map: prefaulted, one fault per 2 MiB), up to 6 MiB at CLUSTER_MAX; smaller
 * ones come from the heap. On the heap, the last doublings' pages (4.6 MiB at CLUSTER_MAX) were faulted in
 * one by one, ~1300 faults per long unicode flood at 17-47 us each in a VM. */
#define CLUSTER_MAP_MIN ((size_t)1 << 20)
#define CLUSTER_HUGE ((size_t)2 << 20)

static size_t cluster_block_bytes(uint32_t cap)
{
	size_t b = (size_t)cap * (sizeof(struct cluster) + 2 * (sizeof(uint16_t) + 1) + 1);
	return b >= CLUSTER_MAP_MIN ? (b + CLUSTER_HUGE - 1) & ~(CLUSTER_HUGE - 1) : b;
}

static void cluster_block_free(struct cluster *c, uint32_t cap)
{
	if (cluster_block_bytes(cap) >= CLUSTER_MAP_MIN)
		grid__unmap(c, cluster_block_bytes(cap));
	else
		free(c);
}

void grid__cluster_finish(struct grid *g)
{
	if (g->cl.cap)
		cluster_block_free(g->cl.c, g->cl.cap);
}

/* Puts the live entries into the hash index, which is empty. */
static void cluster_index(struct cluster_table *t)
{
	for (uint32_t i = 0; i < t->cap; i++) {
		if (!t->used[i])
			continue;
		uint32_t hv = cluster_hash(t->c[i].cp, t->c[i].n), h = hv & (t->hash_cap - 1);
		while (t->tag[h])
			h = (h + 1) & (t->hash_cap - 1);
		t->tag[h] = slot_tag(hv);
		t->idx[h] = (uint16_t)i;
	}
}

void grid__cluster_reindex(struct grid *g)
{
	memset(g->cl.tag, 0, g->cl.hash_cap); /* the indexes of empty slots are never read */
	cluster_index(&g->cl);
}

static int cluster_grow(struct cluster_table *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 256;
	if (cap > CLUSTER_MAX)
		cap = CLUSTER_MAX;
	if (cap <= t->cap)
		return -1;
	size_t bytes = cluster_block_bytes(cap), old_bytes = t->cap ? cluster_block_bytes(t->cap) : 0;
	struct cluster *c = NULL;
	uint16_t *idx;
	uint8_t *tag, *used;
	/* A mapped table grows by moving its pages (grid__remap): the entries stay in place, and the new index
	 * and marks start past the old block (cap entries fill at least the old block), in fresh zeroed memory.
	 * The old index and marks left among the new entries are never read: an entry is read only once used. */
	if (old_bytes >= CLUSTER_MAP_MIN && (size_t)cap * sizeof(*c) >= old_bytes)
		c = grid__remap(t->c, old_bytes, bytes);
	if (c) {
		const size_t used_at = (size_t)((uint8_t *)t->used - (uint8_t *)t->c);
		idx = (uint16_t *)(void *)(c + cap);
		tag = (uint8_t *)(idx + 2 * (size_t)cap);
		used = tag + 2 * (size_t)cap;
		memcpy(used, (uint8_t *)c + used_at, t->cap);
	} else if (bytes >= CLUSTER_MAP_MIN) {
		c = grid__map(bytes); /* zeroed: the hash empty, no entry used */
		if (!c)
			return -1;
		idx = (uint16_t *)(void *)(c + cap);
		tag = (uint8_t *)(idx + 2 * (size_t)cap);
		used = tag + 2 * (size_t)cap;
		memcpy(c, t->c, (size_t)t->cap * sizeof(*c));
		memcpy(used, t->used, t->cap);
		cluster_block_free(t->c, t->cap);
	} else {
		/* realloc keeps the entries where they are (a large block is moved by its pages, not copied);
		 * the marks move up behind the larger hash, which starts empty */
		size_t used_at = (size_t)t->cap * (sizeof(*c) + 2 * (sizeof(*idx) + 1));
		c = realloc(t->c, bytes);
		if (!c)
			return -1;
		idx = (uint16_t *)(void *)(c + cap);
		tag = (uint8_t *)(idx + 2 * (size_t)cap);
		used = tag + 2 * (size_t)cap;
		memmove(used, (uint8_t *)c + used_at, t->cap);
		memset(used + t->cap, 0, cap - t->cap);
		memset(tag, 0, 2 * (size_t)cap);
	}
	t->c = c;
	t->used = used;
	t->idx = idx;
	t->tag = tag;
	t->hash_cap = cap * 2;
	t->cap = cap;
	cluster_index(t);
	return 0;
}

int grid__cluster_intern(struct grid *g, const uint32_t *cp, uint32_t n)
{
	struct cluster_table *t = &g->cl;
	if (n == 0 || n > CLUSTER_MAX_CPS)
		return -1;
	uint32_t hv = cluster_hash(cp, n);
	const uint8_t tag = slot_tag(hv);
	if (t->hash_cap) {
		uint8_t s;
		for (uint32_t h = hv & (t->hash_cap - 1); (s = t->tag[h]) != 0; h = (h + 1) & (t->hash_cap - 1)) {
			if (s != tag)
				continue;
			const struct cluster *c = &t->c[t->idx[h]];
			if (c->n != n || c->cp[0] != cp[0])
				continue;
			uint32_t k = 1;
			while (k < n && c->cp[k] == cp[k])
				k++;
			if (k == n)
				return (int)t->idx[h];
		}
	}
	if (t->count >= t->gc_at && t->count > 0) {
		if (t->gc_wait == 0 || grid__gc_stale(g))
			grid__collect(g);
		else
			t->gc_wait--;
	}
	if (t->count >= t->cap && cluster_grow(t) < 0)
		return -1;
	while (t->next_free < t->cap && t->used[t->next_free])
		t->next_free++;
	if (t->next_free >= t->cap)
		return -1;
	uint32_t i = t->next_free++;
	t->used[i] = 1;
	t->count++;
	t->c[i].n = n;
	memcpy(t->c[i].cp, cp, sizeof(t->c[i].cp)); /* all CLUSTER_MAX_CPS: a fixed size, no call */
	uint32_t h = hv & (t->hash_cap - 1);
	while (t->tag[h])
		h = (h + 1) & (t->hash_cap - 1);
	t->tag[h] = tag;
	t->idx[h] = (uint16_t)i;
	return (int)i;
}

const struct cluster *grid__cluster(const struct grid *g, uint32_t cp, struct cluster *tmp)
{
	uint32_t i = cp & ~GRID_CP_CLUSTER;
	if (i & CLUSTER_DIRECT) {
		const uint32_t v = i & ~CLUSTER_DIRECT, two = v & CLUSTER_DIRECT_PAIR;
		const uint32_t pair = two ? v & ~CLUSTER_DIRECT_PAIR : v / CLUSTER_AM_MARKS;
		if (pair >= CLUSTER_AM_SLOTS)
			return NULL;
		memset(tmp, 0, sizeof(*tmp));
		tmp->n = two ? 2 : 3;
		tmp->cp[0] = CLUSTER_AM_BASE + pair / CLUSTER_AM_MARKS;
		tmp->cp[1] = CLUSTER_AM_MARK + pair % CLUSTER_AM_MARKS;
		if (!two)
			tmp->cp[2] = CLUSTER_AM_MARK + v % CLUSTER_AM_MARKS;
		return tmp;
	}
	if (i >= g->cl.cap || !g->cl.used[i])
		return NULL;
	return &g->cl.c[i];
}

/* The printer's join (grid-print.c: combining marks and the code points that continue a grapheme cluster),
 * out of its file: no bulk path reaches it. */
bool grid__cluster_attach(struct grid *g, uint32_t cp)
{
	if (g->last_x < 0 || g->last_y != g->cy)
		return false;
	int expect = g->last_x + g->last_w;
	/* Right after it, or still on it when it ended at the right edge (wrap pending, or no autowrap) */
	bool at_edge = g->cx == expect - 1 &&
		       (g->wrap_pending || (!g->autowrap && g->cx == grid__right_limit(g)));
	if (!(g->cx == expect || at_edge))
		return false;
	struct grid_cell *c = &grid__line(g, g->last_y)->cells[g->last_x];
	if (c->cp == 0 || c->width == 0)
		return false;
	uint32_t buf[CLUSTER_MAX_CPS] = {0}; /* whole: grid__cluster_intern copies all of it */
	uint32_t n;
	if (c->cp & GRID_CP_CLUSTER) {
		struct cluster tmp;
		const struct cluster *cl = grid__cluster(g, c->cp, &tmp);
		if (!cl)
			return true;
		n = cl->n;
		memcpy(buf, cl->cp, n * sizeof(*buf));
	} else {
		buf[0] = c->cp;
		n = 1;
	}
	g->gb_prev = cp;
	if (n >= CLUSTER_MAX_CPS)
		return true; /* dropped: a cluster has a hard cap */
	buf[n++] = cp;
	int id = grid__cluster_intern(g, buf, n);
	if (id < 0)
		return true;
	/* the character's text changes: a selection holding its row goes, as it does when one is printed there
	 * (xterm's combining path keeps it, highlighting text that is not the text it copied) */
	if (g->sel.active)
		grid__select_touch(g, g->last_y, g->last_y);
	/* the collection inside intern may not move cells, so c is still valid */
	c->cp = GRID_CP_CLUSTER | (uint32_t)id;
	grid__line(g, g->last_y)->flags &= ~LINE_ASCII;
	grid__damage(g, g->last_y, g->last_x, g->last_x + c->width);
	return true;
}

uint32_t grid__cluster_rep_base(const struct grid *g)
{
	if (g->last_x < 0 || g->last_y != g->cy)
		return 0;
	const struct grid_cell *c = &grid__line(g, g->last_y)->cells[g->last_x];
	if (!(c->cp & GRID_CP_CLUSTER) || c->width == 0)
		return c->width ? c->cp : 0;
	struct cluster tmp;
	const struct cluster *cl = grid__cluster(g, c->cp, &tmp);
	for (uint32_t i = cl ? cl->n : 0; i-- > 0;)
		if (vt_char_width(cl->cp[i]) > 0)
			return cl->cp[i];
	return 0;
}
