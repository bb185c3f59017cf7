/* grid/grid-utf8-marks.h: a combining mark on a cell, the cheap ways (grid-utf8.c's text loop): the direct
 * clusters (an ASCII character with one or two marks U+0300..U+036F, computed without a memory read:
 * CLUSTER_DIRECT, grid-internal.h) and the cache of recent (cell content, mark) pairs' cluster ids; what both
 * miss goes to grid__attach_mark. Only for grid-utf8.c, which includes it once, where these stood: static
 * inline functions of its loop, apart to keep grid-utf8.c under ~800 lines; the code is what it was in one file.
 */
#ifndef GRID_UTF8_MARKS_H
#define GRID_UTF8_MARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "grid/grid-print.h"

/* The cluster cache's set for (cell content, mark). */
static inline struct cluster_cache_entry *cache_set(struct grid *g, uint32_t base, uint32_t cp)
{
	return g->cl.cache[((base * 0x9e3779b1u) ^ (cp * 0x85ebca6bu)) >> (32 - CLUSTER_CACHE_BITS)];
}

/* The cached cluster id + 1 of (cell content, mark) in set e, or 0. */
static inline uint32_t cache_find(struct cluster_cache_entry *e, uint32_t base, uint32_t cp)
{
	if (e[0].base == base && e[0].mark == cp)
		return e[0].id;
	if (e[1].base == base && e[1].mark == cp) {
		struct cluster_cache_entry t = e[1];
		e[1] = e[0];
		e[0] = t;
		return t.id;
	}
	return 0;
}

/* The direct pair slot of (cell content base, mark cp), or CLUSTER_AM_SLOTS when the pair is not of its kind (an
 * ASCII character and a mark U+0300..U+036F). One branch for both ranges, not two. */
static inline uint32_t am_slot(uint32_t base, uint32_t cp)
{
	uint32_t b = base - CLUSTER_AM_BASE, m = cp - CLUSTER_AM_MARK;
	return ((b < CLUSTER_AM_SLOTS / CLUSTER_AM_MARKS) & (m < CLUSTER_AM_MARKS)) ? b * CLUSTER_AM_MARKS + m
										      : CLUSTER_AM_SLOTS;
}

/* The direct cluster (CLUSTER_DIRECT, grid-internal.h) of cell content base and the mark cp: base an ASCII
 * character (a pair) or a direct pair (a triple), cp U+0300..U+036F; else 0. No memory read. */
static inline uint32_t mark_direct(uint32_t base, uint32_t cp)
{
	const uint32_t slot = am_slot(base, cp), m = cp - CLUSTER_AM_MARK;
	if (slot < CLUSTER_AM_SLOTS)
		return GRID_CP_CLUSTER | CLUSTER_DIRECT | CLUSTER_DIRECT_PAIR | slot;
	const uint32_t pair = GRID_CP_CLUSTER | CLUSTER_DIRECT | CLUSTER_DIRECT_PAIR;
	if ((base & ~(CLUSTER_DIRECT_PAIR - 1)) == pair && m < CLUSTER_AM_MARKS)
		return GRID_CP_CLUSTER | CLUSTER_DIRECT | ((base & (CLUSTER_DIRECT_PAIR - 1)) * CLUSTER_AM_MARKS + m);
	return 0;
}

/* The cluster cache's answer for (cell content, mark), inline for the text loop: true when it had one and
 * the cell now holds the cluster. */
static inline bool mark_cached(struct grid *g, struct grid_cell *c, uint32_t cp)
{
	uint32_t base = c->cp;
	const uint32_t d = mark_direct(base, cp);
	if (d) {
		c->cp = d;
		return true;
	}
	uint32_t hit = cache_find(cache_set(g, base, cp), base, cp);
	if (!hit)
		return false;
	c->cp = GRID_CP_CLUSTER | (hit - 1);
	return true;
}

/* A combining mark cp on the last character the text loop wrote (o[-1], or o[-2] when that is wide) */
static inline void mark_on_last(struct grid *g, struct grid_cell *o, uint32_t cp)
{
	struct grid_cell *base = o - 1 - (o[-1].width == 0);
	if (!mark_cached(g, base, cp))
		grid__attach_mark(g, base, cp);
}

#endif
