/* grid/grid-intern.h: a style's interning past the cache (grid-style.c), inline also in the pages of the
 * paths that meet fresh colours (GRID_PAGE: grid-erase.c's EL, grid-print.c's text after an SGR), where a
 * call to grid-style.c and its return would cost an emulated guest two TB look-ups. */
#ifndef GRID_INTERN_H
#define GRID_INTERN_H

#include "grid/grid-internal.h"

static inline bool grid__key_eq(const struct grid_style *s, uint64_t a, uint64_t b)
{
	uint64_t x, y;
	memcpy(&x, s, 8);
	memcpy(&y, (const char *)s + 8, 8);
	return ((x ^ a) | (y ^ b)) == 0;
}

static inline uint64_t grid__key_mix(uint64_t h)
{
	h ^= h >> 29;
	return h ^ (h >> 32);
}

/* An index entry: the id (never 0: the default style is not indexed) in the low 16 bits, 16 bits of the
 * mixed hash above it, so that a probe compares a style only when the tags agree. 0 = empty. */
static inline uint32_t grid__key_tag(uint64_t m)
{
	return (uint32_t)(m >> 48) << 16;
}

/* Takes a free id for the style (a, b). Returns the id, or 0 when none is free. always_inline: GCC otherwise
 * kept one copy out of line, outside the erase page, which EL after a fresh colour called (an emulated guest's
 * two TB look-ups per such EL). */
static inline __attribute__((always_inline)) uint32_t grid__style_take(struct style_table *t, uint64_t a, uint64_t b)
{
	/* in locals: t->used's byte stores may alias t as far as the compiler knows, which made it store
	 * next_free on every step and test it against cap twice (a fresh pen per text run in csi) */
	const uint32_t cap = t->cap;
	uint8_t *used = t->used;
	uint32_t id = t->next_free;
	if (id >= cap)
		return 0;
	while (used[id])
		if (++id >= cap) {
			t->next_free = id;
			return 0;
		}
	t->next_free = id + 1;
	if (id >= t->hw)
		t->hw = id + 1;
	used[id] = 1;
	t->count++;
	memcpy(&t->styles[id], &a, 8);
	memcpy((char *)&t->styles[id] + 8, &b, 8);
	return id;
}

/* grid__style_take, and the id indexed at the empty place i */
static inline uint32_t grid__style_insert_at(struct style_table *t, uint32_t i, uint32_t tag, uint64_t a, uint64_t b)
{
	const uint32_t id = grid__style_take(t, a, b);
	if (id)
		t->hash[i] = tag | id;
	return id;
}

static inline uint16_t grid__cache_put(struct style_table *t, uint64_t a, uint64_t b, uint64_t h, uint32_t id)
{
	const uint32_t slot = grid__cache_slot(h);
	t->cache[slot].a = a;
	t->cache[slot].b = b;
	t->cache[slot].id = id;
	return (uint16_t)id;
}

/* Whether the style (a, b), which the cache does not know, takes an id without the index's probe: the output
 * makes a fresh style per run of text (t->fresh, the index's misses since its last hit, reached
 * STYLE_FRESH_BYPASS), no collection is due (an id is free: grid__style_take cannot fail) and it is not the
 * default style. The index's place for a new style is read once per style at a random place of up to 256
 * KiB, a load that misses the cache more often than not; the style stays out of the index until the next
 * collection indexes it, and should it come back before, it takes a second id (its cells compare and render
 * the same: ids are not compared across grids, and only the default style's is fixed). One insertion in 256
 * still probes, to notice styles coming back (such a probe misses the cache twice, index and style: ~120 ns
 * against a few for the insertion; one in 64 was 1.6 % of csi's time). */
static inline bool grid__intern_fresh(const struct style_table *t, uint64_t a, uint64_t b)
{
	return t->fresh >= STYLE_FRESH_BYPASS && (uint8_t)t->count && t->count < t->gc_at && (a | b);
}

/* grid__intern_fresh for the text paths (a fresh pen per text run in csi): its tests of count, (uint8_t)count
 * != 0 and count < gc_at, as one compare against a bound they held at (fresh_below: the next multiple of 256
 * at or after the count it was made at, at most gc_at). count only grows until a collection, which zeroes
 * the bound (gc_at new), so the bound holds only counts that pass both; past it, the tests themselves,
 * which make it again (twice per 256 fresh styles). print_ascii_run's only: in EL's path its growth
 * overflowed the erase page, in pen_miss's it moved the code after the print_rows page (an emulated guest's
 * TB look-ups: sgr_bytes_long away from its callees' page). */
static inline bool grid__intern_fresh_run(struct style_table *t, uint64_t a, uint64_t b)
{
	if (t->fresh < STYLE_FRESH_BYPASS)
		return false;
	const uint32_t c = t->count;
	if (unlikely(c >= t->fresh_below)) {
		if (!(uint8_t)c || c >= t->gc_at)
			return false;
		const uint32_t m = (c + 255u) & ~255u;
		t->fresh_below = m < t->gc_at ? m : t->gc_at;
	}
	return (a | b) != 0;
}

/* Whether a pen past the SGR tables takes its id without the style cache (grid__intern_fresh permitting):
 * while the colour SGRs bypass their tables (SGR_BYPASS_AFTER: few colours repeat), a dirty pen and the
 * erase style are new more often than not (csi: 25 k of 30 k text runs, 7.5 k of 9.6 k ELs per 2 MiB).
 * The cache's slot is a random place of its 24 KiB, a load that missed the L1 cache on most of them (22 k
 * and 7.6 k), and its hit-or-miss branch waited for it; the styles so taken get no cache entry either.
 * One that does come back takes a second id, as under grid__intern_fresh (the tables, once colours repeat,
 * end the bypass and learn the pens' ids); the ids stay bounded as the fresh ones are (the collections). */
static inline bool grid__cache_bypass(const struct grid *g)
{
	return g->sgr_color_misses >= SGR_BYPASS_AFTER;
}

/* grid__cache_bypass for the style (a, b), but not for the default style: that one is in the cache (its
 * zeroed entries map the key 0 to id 0), and past it the index's probe would look for it in vain */
static inline bool grid__cache_skip(const struct grid *g, uint64_t a, uint64_t b)
{
	return grid__cache_bypass(g) && (a | b);
}

/* A fresh style's id (grid__intern_fresh said so), entered in the cache unless grid__cache_bypass: the
 * entry's slot, a random line of the cache, would be written for a style that is not coming back. */
static inline __attribute__((always_inline)) uint16_t grid__fresh_take(struct grid *g, uint64_t a, uint64_t b,
								uint64_t h)
{
	struct style_table *t = &g->st;
	const uint32_t id = grid__style_take(t, a, b);
	if (!grid__cache_bypass(g))
		grid__cache_put(t, a, b, h, id);
	return (uint16_t)id;
}

/* the insertion when a collection is due or the table is full (grid-style.c) */
uint16_t grid__intern_room(struct grid *g, uint64_t a, uint64_t b, uint64_t h);

/* The table behind the cache: a new pen (colourful output makes one per run of text) costs one probe
 * sequence that compares tags, then the insertion at the empty place it ended at. Out of line: the cache
 * answers most lookups. h: grid__key_hash(a, b). */
static inline __attribute__((always_inline)) uint16_t grid__intern_probe_as(struct grid *g, uint64_t a, uint64_t b,
								    uint64_t h, bool track)
{
	struct style_table *t = &g->st;
	const uint64_t m = grid__key_mix(h);
	const uint32_t tag = grid__key_tag(m);
	const uint32_t mask = t->hash_cap - 1;
	uint32_t i = (uint32_t)m & mask, e;
	for (; (e = t->hash[i]) != 0; i = (i + 1) & mask)
		if ((e & 0xffff0000u) == tag && grid__key_eq(&t->styles[e & 0xffffu], a, b)) {
			if (track)
				t->fresh = 0;
			return grid__cache_put(t, a, b, h, e & 0xffffu);
		}
	if ((a | b) == 0)
		return 0;
	if (track)
		t->fresh++;
	if (unlikely(t->count >= t->gc_at || t->count >= t->cap))
		return grid__intern_room(g, a, b, h);
	const uint32_t id = grid__style_insert_at(t, i, tag, a, b);
	return id ? grid__cache_put(t, a, b, h, id) : 0;
}

/* the probe counting its misses in t->fresh (reset by a hit): grid__intern_fresh's condition */
static inline __attribute__((always_inline)) uint16_t grid__intern_probe(struct grid *g, uint64_t a, uint64_t b,
								 uint64_t h)
{
	return grid__intern_probe_as(g, a, b, h, true);
}

/* grid__intern_probe, or a fresh style's id without it (grid__intern_fresh) */
static inline __attribute__((always_inline)) uint16_t grid__intern_miss(struct grid *g, uint64_t a, uint64_t b,
								uint64_t h)
{
	struct style_table *t = &g->st;
	if (grid__intern_fresh(t, a, b))
		return grid__fresh_take(g, a, b, h);
	return grid__intern_probe(g, a, b, h);
}

#endif
