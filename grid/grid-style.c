/* grid/grid-style.c: style interning and the collection of unused styles, clusters and links (SGR itself,
 * which sets the pen, is in grid-sgr.c).
 *
 * The pen is resolved to a style id lazily, once per change, at the first print after it (so a run of SGRs
 * costs one lookup). Lookups go through a direct-mapped cache of recent pens, then an open-addressing table.
 * Unused ids are collected by a mark-and-sweep over all cells when the table reaches its threshold; the next
 * threshold leaves headroom proportional to the cells scanned, so a flood of fresh styles costs amortised
 * O(1) per style and never thrashes. When the table is mostly live, the oldest history lines give up their
 * styles (grid-evict.c); when the screens alone fill it, new pens fall back to the nearest already-known
 * style (the default), keeping memory bounded.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-intern.h"
#include "grid/grid-internal.h"

/* the pen's look-up and interning (~1.6 KiB, after every SGR that is followed by text) in one page
 * (GRID_PAGE) */
GRID_PAGE_BEGIN("style");


/* m: grid__key_mix of the style's hash */
static void hash_insert(struct style_table *t, uint32_t id, uint64_t m)
{
	uint32_t h = (uint32_t)m & (t->hash_cap - 1);
	while (t->hash[h])
		h = (h + 1) & (t->hash_cap - 1);
	t->hash[h] = grid__key_tag(m) | id;
}

static uint64_t style_mix(const struct grid_style *s)
{
	uint64_t a, b;
	grid__style_key(s, &a, &b);
	return grid__key_mix(grid__key_hash(a, b));
}

/* The table has its full size from the start (STYLE_MAX + 1 ids, an index of twice as many places, of which
 * index_rebuild uses what the next threshold needs): calloc hands out untouched zero pages, so the memory
 * grows with the ids used, and a flood of new styles never stops to grow and rehash. */
int grid__styles_init(struct grid *g)
{
	struct style_table *t = &g->st;
	t->cap = STYLE_MAX + 1;
	t->hash_cap = STYLE_INDEX_MIN;
	t->styles = calloc(t->cap, sizeof(*t->styles));
	t->used = calloc(t->cap, 1);
	t->hash = calloc(2 * t->cap, sizeof(*t->hash));
	if (!t->styles || !t->used || !t->hash)
		return -1;
	t->used[0] = 1;
	/* reserved (GRID_STYLE_NONE): the allocator skips it, and the sweep reaches only ids below the
	 * high-water mark, which it never is; counted as live, as id 0 is (a full table is count == cap) */
	t->used[GRID_STYLE_NONE] = 1;
	t->count = 2;
	t->next_free = 1;
	t->hw = 1;
	t->gc_at = 4096;
	t->fresh_below = 0; /* (grid__intern_fresh_run) */
	t->epoch = 1;
	g->cl.gc_at = 4096;
	return 0;
}

void grid__styles_finish(struct grid *g)
{
	free(g->st.styles);
	free(g->st.used);
	free(g->st.hash);
	grid__cluster_finish(g);
}

/* Before a new id is taken: a collection when due. Returns false when no id is free (the table is full of
 * live styles). The index may have been rebuilt. */
static bool make_room(struct grid *g)
{
	struct style_table *t = &g->st;
	if (t->count >= t->gc_at) {
		if (t->gc_wait == 0 || grid__gc_stale(g))
			grid__collect(g);
		else
			t->gc_wait--;
	}
	return t->count < t->cap;
}



/* intern_slow's insertion when a collection is due or the table is full (make_room): apart, so that the
 * common insertion makes no call and needs no stack frame. */
GRID_PAGE("style")
__attribute__((noinline)) uint16_t grid__intern_room(struct grid *g, uint64_t a, uint64_t b, uint64_t h)
{
	struct style_table *t = &g->st;
	if (!make_room(g))
		return 0; /* full of live styles: the default stands in */
	const uint64_t m = grid__key_mix(h);
	const uint32_t mask = t->hash_cap - 1; /* the index may have been rebuilt: find the empty place again */
	uint32_t i = (uint32_t)m & mask;
	while (t->hash[i])
		i = (i + 1) & mask;
	const uint32_t id = grid__style_insert_at(t, i, grid__key_tag(m), a, b);
	return id ? grid__cache_put(t, a, b, h, id) : 0;
}


GRID_PAGE("style")
__attribute__((noinline)) static uint16_t intern_slow(struct grid *g, uint64_t a, uint64_t b, uint64_t h)
{
	return grid__intern_probe_as(g, a, b, h, false); /* (the erase style's: no fresh styles taken here) */
}

static inline uint16_t intern_key(struct grid *g, uint64_t a, uint64_t b)
{
	struct style_table *t = &g->st;
	const uint64_t h = grid__key_hash(a, b);
	const uint32_t slot = grid__cache_slot(h);
	if (likely(t->cache[slot].a == a && t->cache[slot].b == b))
		return (uint16_t)t->cache[slot].id;
	return intern_slow(g, a, b, h);
}

GRID_PAGE("style") uint16_t grid__pen_id_slow(struct grid *g, uint64_t a, uint64_t b, uint64_t h)
{
	return grid__pen_learn(g, grid__intern_probe(g, a, b, h));
}

GRID_PAGE("style") uint16_t grid__erase_style(struct grid *g)
{
	if (g->erase_dirty) {
		struct grid_style s = {0};
		s.bg = g->pen.bg;
		uint64_t a, b;
		grid__style_key(&s, &a, &b);
		g->erase_id = intern_key(g, a, b);
		g->erase_dirty = false;
	}
	return g->erase_id;
}

/* (cold: the rectangle functions' styles, grid-rect-edit.c) */
uint16_t grid__style_intern(struct grid *g, const struct grid_style *s)
{
	uint64_t a, b;
	grid__style_key(s, &a, &b);
	return intern_key(g, a, b);
}

/* (cold: outside the style page; the erase style is nearly always resolved already) */
__attribute__((cold, noinline)) void grid__orphan_blank(struct grid *g, struct grid_cell *c)
{
	/* (its selection flag stays) */
	c->cp = 0;
	c->style = grid__erase_style(g);
	c->link = 0;
	c->width = 1;
}

/* ------------------------------------------------------------------------------------- collection */

/* Marks the styles, clusters and links of cells [0, n) one by one (clusters only when with_clusters). */
static void mark_cells(struct grid *g, const struct grid_cell *cells, int n, bool with_clusters)
{
	/* locals: stores through uint8_t may alias anything, the loop would reload them. A cell's style is live
	 * (1, or 3 once marked): the mark is a plain store, not a read-modify-write, so that a run of cells
	 * in one style does not wait for each store to reach the next load of the same byte. */
	uint8_t *used = g->st.used;
	for (int x = 0; x < n; x++)
		used[cells[x].style] = 3;
	/* clusters and links only once there are any (most screens have neither): a loop of one store */
	if (!g->cl.cap && !g->links.used)
		return;
	for (int x = 0; x < n; x++) {
		const struct grid_cell *c = &cells[x];
		if (with_clusters && c->cp & GRID_CP_CLUSTER) {
			uint32_t i = c->cp & ~GRID_CP_CLUSTER;
			if (i < g->cl.cap)
				g->cl.used[i] |= 2;
		}
		if (c->link && c->link < LINK_MAX && g->links.used)
			g->links.used[c->link] = 1;
	}
}

#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* mark_cells for a line of cells in either form, 4 cells (3 vectors of 32-bit words: cp, style | link << 16,
 * width | flags << 8, cp, ...) per step: the clusters are found by the sign bits of the cp words, and
 * whether every cell has the style of cell 0 and no link by xoring the words with what they would be then,
 * ORed up per vector phase and masked once at the end. Then the line marks one style (most lines are in
 * one style); otherwise its styles and links are marked one by one after all. */
/* Whether the style words ORed up in a0..a2 (masked by m0..m2) are all zero. */
static inline bool style_fits(__m128i a0, __m128i a1, __m128i a2, __m128i m0, __m128i m1, __m128i m2)
{
	__m128i bad = _mm_or_si128(_mm_and_si128(a0, m0), _mm_or_si128(_mm_and_si128(a1, m1), _mm_and_si128(a2, m2)));
	return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
}

static void mark_line_cells(struct grid *g, const struct grid_cell *cells, int n)
{
	_Static_assert(sizeof(struct grid_cell) == 12 && offsetof(struct grid_cell, style) == 4 &&
			       offsetof(struct grid_cell, link) == 6,
		       "cell layout");
	const int n4 = n & ~3, st = cells[0].style;
	const __m128i e0 = _mm_set_epi32(0, 0, st, 0), e1 = _mm_set_epi32(st, 0, 0, st),
		      e2 = _mm_set_epi32(0, st, 0, 0);
	const __m128i *p = (const __m128i *)(const void *)cells;
	__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0;
	uint8_t *const cl_used = g->cl.used;
	const uint32_t cl_cap = g->cl.cap;
	const __m128i m0 = _mm_set_epi32(0, 0, -1, 0), m1 = _mm_set_epi32(-1, 0, 0, -1),
		      m2 = _mm_set_epi32(0, -1, 0, 0);
	for (int x = 0; x < n4; x += 4, p += 3) {
		__m128i v0 = _mm_loadu_si128(p), v1 = _mm_loadu_si128(p + 1), v2 = _mm_loadu_si128(p + 2);
		a0 = _mm_or_si128(a0, _mm_xor_si128(v0, e0));
		a1 = _mm_or_si128(a1, _mm_xor_si128(v1, e1));
		a2 = _mm_or_si128(a2, _mm_xor_si128(v2, e2));
		if (x == 4 && !style_fits(a0, a1, a2, m0, m1, m2)) {
			/* styles vary already (a screen of colours): one by one, as the loop would do at its end */
			mark_cells(g, cells, n, true);
			return;
		}
		/* the cp words sit at v0[0], v0[3], v1[2], v2[1] */
		__m128 t = _mm_shuffle_ps(_mm_castsi128_ps(v1), _mm_castsi128_ps(v2), _MM_SHUFFLE(1, 1, 2, 2));
		int m = _mm_movemask_ps(_mm_shuffle_ps(_mm_castsi128_ps(v0), t, _MM_SHUFFLE(2, 0, 3, 0)));
		for (; m; m &= m - 1) {
			uint32_t i = cells[x + __builtin_ctz((unsigned)m)].cp & ~GRID_CP_CLUSTER;
			if (i < cl_cap)
				cl_used[i] |= 2;
		}
	}
	if (style_fits(a0, a1, a2, m0, m1, m2) && cells[0].link == 0) {
		g->st.used[st] |= 2;
		mark_cells(g, cells + n4, n - n4, true);
	} else {
		mark_cells(g, cells, n4, false);
		mark_cells(g, cells + n4, n - n4, true);
	}
}
#endif

/* The styles of a LINE_STYLED line (n cells, at least PACK_MIN when it was packed): a plain
 * store of 3 (as mark_cells: no read-modify-write, which made each cell wait for the store of the cell
 * before it) where a cell's style differs from the one before it, eight cells compared at a time (SSE2).
 * A line holds a few runs (~4 of 212 cells in a long-lived terminal's csi history, whose marking was ~10 %
 * of its instructions when each cell was stored). */
static void mark_styled(uint8_t *used, const uint16_t *st, int n)
{
	if (n < 1)
		return;
	used[st[0]] = 3;
	int x = 1;
#if defined(__SSE2__)
	for (; x + 8 <= n; x += 8) {
		const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(st + x));
		const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(st + x - 1));
		/* one bit per cell (the low byte's) whose style is not the one before it */
		unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(a, b)) & 0x5555u;
		for (; m; m &= m - 1)
			used[st[x + (int)(__builtin_ctz(m) >> 1)]] = 3;
	}
#endif
	for (; x < n; x++)
		used[st[x]] = 3;
}

static void mark_line(struct grid *g, const struct line *l)
{
	if (l->flags & LINE_PACKED) {
		if (l->flags & LINE_STYLED)
			mark_styled(g->st.used, grid__line_styles(l), l->ncells);
		else
			g->st.used[l->pstyle] |= 2;
		return;
	}
	if (l->flags & LINE_LAZY) {
		/* an erase's deferred row (LINE_STALE) is cell 0's blank throughout: its other cells still hold
		 * the erased content, whose styles, clusters and links must die with it as after an eager erase
		 * (kept live, a cleared screen of colours or links filled the tables: new ones fell back) */
		if (l->flags & LINE_STALE) {
			g->st.used[l->cells[0].style] |= 2;
			return;
		}
		/* a deferred text row's style is in its header only (its cells are default blanks) */
		g->st.used[l->pstyle] |= 2;
	}
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* (without clusters or links mark_cells is one store per cell already) */
	if (l->ncells >= 4 && (g->cl.cap || g->links.used)) {
		mark_line_cells(g, l->cells, l->ncells);
		return;
	}
#endif
	mark_cells(g, l->cells, l->ncells, true);
}

static size_t mark_screen(struct grid *g, const struct screen *s)
{
	size_t n = (size_t)g->rows + s->sb_n;
	for (size_t i = 0; i < n; i++) {
		const struct line *l = s->ring[(s->top + s->cap - s->sb_n + i) % s->cap];
		if (l)
			mark_line(g, l);
	}
	return n * (size_t)g->cols;
}

static uint32_t sweep(uint8_t *used, uint32_t cap, uint32_t *next_free)
{
	uint32_t live = 0;
	*next_free = cap;
	for (uint32_t i = 0; i < cap; i++) {
		if (used[i] & 2) {
			used[i] = 1;
			live++;
		} else {
			used[i] = 0;
			if (i < *next_free)
				*next_free = i;
		}
	}
	return live;
}

/* Zeroes the index, or the pen cache (n words, a multiple of 16) with plain vector stores: glibc's memset
 * clears a buffer this large with rep stosb, which is as fast but counts as one instruction per byte in
 * callgrind, the benchmark's measure, and which QEMU's TCG (the VM guests of issue 5) runs one byte per
 * step of a translated block (the pen cache's 24 KiB at each collection: docs/benchmarks.md, issue 5,
 * session 42). */
static void zero_index(uint32_t *p, size_t n)
{
#if defined(__SSE2__)
	const __m128i z = _mm_setzero_si128();
	for (size_t i = 0; i < n; i += 16) {
		_mm_storeu_si128((__m128i *)(void *)(p + i), z);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 4), z);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 8), z);
		_mm_storeu_si128((__m128i *)(void *)(p + i + 12), z);
	}
#else
	memset(p, 0, n * sizeof(*p));
#endif
}

#if defined(__SSE2__)
/* 16 bytes of ones then 16 of zeros: from lanes + 16 - n, a mask of the first n bytes of a vector */
static const uint8_t lanes[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
#endif

/* The sweep of the styles: only ids below the high-water mark were used since the last collection. The
 * index is rebuilt afterwards (index_rebuild), at the size the next threshold needs. Sixteen ids at a time
 * (SSE2): a byte per id whose "marked" bit decided a branch each, as random as which runs of text are still
 * on the screen (with tens of thousands of ids per collection, most of csi's time in grid__collect). */
static void sweep_styles(struct style_table *t)
{
	uint8_t *used = t->used;
	const uint32_t top = t->hw;
	uint32_t live = 1, hw = 1, next_free = top; /* GRID_STYLE_NONE; id 0 is live and counted below */
	used[0] = 2;
#if defined(__SSE2__)
	const __m128i two = _mm_set1_epi8(2), one = _mm_set1_epi8(1);
	for (uint32_t i = 0; i < top; i += 16) {
		/* the ids of this group below top (the bytes past it stay: GRID_STYLE_NONE's among them) */
		const uint32_t n = top - i < 16 ? top - i : 16;
		const __m128i in = _mm_loadu_si128((const __m128i *)(const void *)(lanes + 16 - n));
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(used + i));
		const __m128i l = _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(v, two), two), in);
		const __m128i nv = _mm_and_si128(l, one);
		_mm_storeu_si128((__m128i *)(void *)(used + i), _mm_or_si128(nv, _mm_andnot_si128(in, v)));
		const __m128i sum = _mm_sad_epu8(nv, _mm_setzero_si128());
		live += (uint32_t)_mm_cvtsi128_si32(sum) + (uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
		const unsigned lm = (unsigned)_mm_movemask_epi8(l), dm = ~lm & ((1u << n) - 1);
		if (lm)
			hw = i + 32 - (uint32_t)__builtin_clz(lm);
		if (dm && next_free == top)
			next_free = i + (uint32_t)__builtin_ctz(dm);
	}
#else
	for (uint32_t i = 0; i < top; i++) {
		if (used[i] & 2) {
			used[i] = 1;
			live++;
			hw = i + 1;
		} else {
			used[i] = 0;
			if (i < next_free)
				next_free = i;
		}
	}
#endif
	t->count = live;
	t->hw = hw;
	t->next_free = next_free > hw ? hw : next_free;
}

/* The index holds at most gc_at ids until the next collection (a table waiting for one, gc_wait, has the
 * whole id range as its threshold): its places are the power of two at least twice that, so that a new
 * pen's probe (a fresh colour is found nowhere) reads from an index a fraction of the full one's 512 KiB,
 * which stays in the cache instead of missing it once per new style. The threshold then grows to what
 * that index holds at half load: the room costs nothing more, and the collections come less often. The
 * live ids found sixteen at a time (SSE2), by their bits, not a branch per id. */
static void index_rebuild(struct style_table *t)
{
	uint32_t n = STYLE_INDEX_MIN;
	while (n < 2 * t->gc_at && n < 2 * t->cap)
		n *= 2;
	if (!t->gc_wait)
		t->gc_at = n / 2;
	t->hash_cap = n;
	zero_index(t->hash, n);
#if defined(__SSE2__)
	/* In batches: the live ids' mixes first, each one's place in the index fetched ahead, then the
	 * insertions, so that the index's random places (up to 512 KiB) are loaded together, not one miss
	 * after the other. */
	const __m128i z = _mm_setzero_si128();
	uint64_t mix[64];
	uint32_t ids[64], nb = 0;
	for (uint32_t i = 0; i < t->hw; i += 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t->used + i));
		const uint32_t k = t->hw - i < 16 ? t->hw - i : 16;
		/* id 0 (the default style) is not indexed */
		unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) & ((1u << k) - 1) & (i ? ~0u : ~1u);
		/* the styles four groups ahead (16 of 16 bytes: four lines), read in order but missing the cache */
		if (i + 80 <= t->cap)
			for (uint32_t l = 0; l < 4; l++)
				__builtin_prefetch(&t->styles[i + 64 + 4 * l]);
		for (; m; m &= m - 1) {
			const uint32_t id = i + (uint32_t)__builtin_ctz(m);
			ids[nb] = id;
			mix[nb] = style_mix(&t->styles[id]);
			__builtin_prefetch(&t->hash[(uint32_t)mix[nb] & (n - 1)], 1);
			nb++;
		}
		if (nb > 64 - 16 || i + 16 >= t->hw) {
			for (uint32_t j = 0; j < nb; j++)
				hash_insert(t, ids[j], mix[j]);
			nb = 0;
		}
	}
#else
	for (uint32_t i = 1; i < t->hw; i++)
		if (t->used[i])
			hash_insert(t, i, style_mix(&t->styles[i]));
#endif
}

/* The next collection runs after a headroom of new entries proportional to the cells a collection scans
 * (so its cost is amortised over at least cells/4 allocations: with cells/16 and at least 1024, a
 * screen of fresh truecolour cells spent more on marking than on parsing). When the table cannot give that
 * much room, the collection waits for as many misses instead, during which new pens fall back. */
static uint32_t next_threshold(uint32_t live, size_t headroom, uint32_t max, uint32_t *wait)
{
	if (headroom < 4096)
		headroom = 4096;
	size_t at = live + headroom;
	*wait = at > max ? (uint32_t)headroom : 0;
	return at > max ? max : (uint32_t)at;
}

/* The styles' headroom: a quarter of the cells up to 16384 new styles; above, no more than the marking
 * costs per new style allows (cells/16, about what a style's miss costs), because a larger table's index
 * (index_rebuild) leaves the cache: then every fresh colour's probe misses it. */
static size_t style_headroom(size_t cells)
{
	if (cells / 4 <= 16384)
		return cells / 4;
	return cells / 16 > 16384 ? cells / 16 : 16384;
}

/* next_threshold for a table of max ids: when it cannot give the full headroom but a collection left at
 * least an eighth of it free, the next one runs as soon as it is full again (its cost is then spread over
 * at least max / 8 new entries); only a table still mostly live waits, as next_threshold says. A long flood
 * of fresh entries (most of them dead, scrolled out of the history) otherwise filled the table and then
 * dropped every new one for the whole headroom: clusters lost their marks, and with a full history (2 M
 * cells, a headroom of 133 k styles) fresh colours fell back to the default style for 133 k runs. */
static uint32_t full_threshold(uint32_t live, size_t headroom, uint32_t max, uint32_t *wait)
{
	uint32_t at = next_threshold(live, headroom, max, wait);
	if (*wait && max - live >= max / 8)
		*wait = 0;
	return at;
}

/* The waits are counted in misses, which says nothing of the entries dying meanwhile: with a full history
 * (2.1 M cells: 133,000 misses for styles, 530,000 for clusters, 1,024 links) a table full of the history's
 * entries kept refusing new ones long after that history had scrolled away or been cleared. A turnover of
 * the lines held at the collection (rows + scrollback pushed) ends the wait: a collection then costs at
 * most one scan per that many lines. */
bool grid__gc_stale(const struct grid *g)
{
	const struct screen *s = &g->primary;
	/* (a reflow renumbers the lines, possibly below gc_abs: stale too) */
	return s->abs_top < g->gc_abs || s->abs_top - g->gc_abs >= (uint64_t)g->rows + s->sb_max;
}

void grid__gc_unwait(struct grid *g)
{
	g->links.gc_wait = 0;
	g->st.gc_wait = 0;
	g->cl.gc_wait = 0;
}

void grid__collect(struct grid *g)
{
	struct style_table *st = &g->st;
	struct cluster_table *cl = &g->cl;
	g->gc_abs = g->primary.abs_top;
	if (g->links.used)
		memset(g->links.used, 0, LINK_MAX);
	size_t cells = mark_screen(g, &g->primary) + mark_screen(g, &g->alt);
	st->used[0] |= 2;
	/* the pens in use stay: their ids are cached in the grid */
	if (!g->pen_dirty)
		st->used[g->pen_id] |= 2;
	if (!g->erase_dirty)
		st->used[g->erase_id] |= 2;
	sweep_styles(st);
	/* mostly live (the next collection would wait, full_threshold): the oldest history lines give up their
	 * styles down to 3/4 of the table (grid-evict.c), rather than new output its colours */
	if (st->count > (STYLE_MAX + 1) / 8 * 7 && grid__evict(g, EVICT_STYLES, (STYLE_MAX + 1) / 4 * 3))
		sweep_styles(st);
	_Static_assert(sizeof(st->cache) % 64 == 0, "zero_index stores 64 bytes a step");
	zero_index((uint32_t *)(void *)st->cache, sizeof(st->cache) / 4);
	st->fresh = 0; /* every live style is indexed again (index_rebuild): its probes are worth making */
	st->fresh_below = 0; /* count and gc_at new (grid__intern_fresh_run) */
	st->epoch++;
	/* When live styles fill most of the table (full_threshold), the next collection waits for a full
	 * headroom of attempts: meanwhile new pens fall back to the default style instead of sweeping again and
	 * again. */
	st->gc_at = full_threshold(st->count, style_headroom(cells), STYLE_MAX + 1, &st->gc_wait);
	index_rebuild(st);
	if (cl->cap) {
		cl->count = sweep(cl->used, cl->cap, &cl->next_free);
		if (cl->count > CLUSTER_MAX / 8 * 7 && grid__evict(g, EVICT_CLUSTERS, CLUSTER_MAX / 4 * 3))
			cl->count = sweep(cl->used, cl->cap, &cl->next_free);
		/* the cache keeps the pairs whose cluster and base (when a cluster) are still live: a freed id may
		 * be reused for another cluster */
		for (uint32_t i = 0; i < (1u << CLUSTER_CACHE_BITS) * 2; i++) {
			struct cluster_cache_entry *e = &cl->cache[i >> 1][i & 1];
			uint32_t b = e->base & ~GRID_CP_CLUSTER;
			if (e->id && (!cl->used[e->id - 1] || (e->base & GRID_CP_CLUSTER && (b >= cl->cap || !cl->used[b]))))
				*e = (struct cluster_cache_entry){0};
		}
		grid__cluster_reindex(g);
		cl->gc_at = full_threshold(cl->count, cells / 4, CLUSTER_MAX, &cl->gc_wait);
	}
	if (g->links.used) {
		uint32_t live = 0;
		for (uint32_t i = 1; i < LINK_MAX; i++)
			live += g->links.used[i] != 0;
		/* mostly live: the oldest history lines give up their links down to half the ids (grid-evict.c),
		 * rather than new output its links (osc_link's wait) */
		if (live > LINK_MAX / 4 * 3) {
			memset(g->links.used, 0, LINK_MAX);
			grid__evict(g, EVICT_LINKS, LINK_MAX / 2);
		}
		grid__links_sweep(g);
	}
}
