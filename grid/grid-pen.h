/* grid/grid-pen.h: the pen as a style id, inline (style keys, the style cache's slot, the pen's id): the print
 * and erase paths ask for it after every SGR and inline it into their own pages. Only for grid-internal.h,
 * which includes it where struct grid is complete; apart from it to keep files under ~800 lines.
 */
#ifndef GRID_GRID_PEN_H
#define GRID_GRID_PEN_H

/* A style as two words: its 16 bytes with the padding byte cleared (styles[] holds exactly these bytes, so
 * a stored style compares as two loads). The default style is all zero: key (0, 0). */
_Static_assert(sizeof(struct grid_style) == 16, "a style is two 64-bit words");
_Static_assert(offsetof(struct grid_style, underline) == 14, "the last byte of a style is padding");
static inline void grid__style_key(const struct grid_style *s, uint64_t *a, uint64_t *b)
{
	static const uint8_t keep[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0}; /* all but byte 15 */
	uint64_t m;
	memcpy(&m, keep, 8);
	memcpy(a, s, 8);
	memcpy(b, (const char *)s + 8, 8);
	*b &= m;
}

/* One multiply-xor per key: the cache slot is its top bits, the index place and the tag come from it
 * further mixed (grid-style.c). */
static inline uint64_t grid__key_hash(uint64_t a, uint64_t b)
{
	return (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full);
}

/* The direct-mapped cache in front of the table: keyed by the style's two words, so a hit is a multiply and
 * two compares. An entry holds the id itself: the zeroed cache maps key (0, 0) to id 0, which is right. */
static inline uint32_t grid__cache_slot(uint64_t h)
{
	_Static_assert(PEN_CACHE_SIZE == 1024, "the slot is the top 10 bits");
	return (uint32_t)(h >> 54);
}

/* The pen's id once known: kept in the grid, and learnt by the memoized SGR that made the pen */
static inline uint16_t grid__pen_learn(struct grid *g, uint16_t id)
{
	g->pen_id = id;
	g->pen_dirty = false;
	struct sgr_memo *m = g->pen_from;
	if (m && id) {
		/* not 0: that may be the stand-in of a full table */
		m->pen = g->pen;
		m->pen_id = id;
		m->protect = g->protect;
		m->epoch = g->st.epoch;
	}
	return id;
}

/* The pen as a style's key (a, b), with DECSCA's protection */
static inline __attribute__((always_inline)) void grid__pen_words(const struct grid *g, uint64_t *a, uint64_t *b)
{
	struct grid_style s = g->pen;
	if (g->protect)
		s.attrs |= GRID_ATTR_PROTECTED;
	grid__style_key(&s, a, b);
}

/* grid__pen_words, returning the key's hash (grid__key_hash) */
static inline __attribute__((always_inline)) uint64_t grid__pen_key(const struct grid *g, uint64_t *a, uint64_t *b)
{
	grid__pen_words(g, a, b);
	return grid__key_hash(*a, *b);
}

/* grid__pen_id past the style cache (grid-style.c): the index's probe (grid__intern_probe; the paths that
 * meet fresh styles take those without it first: grid__intern_fresh) */
uint16_t grid__pen_id_slow(struct grid *g, uint64_t a, uint64_t b, uint64_t h);

/* The pen's style id: the cache's slot inline here, in the print paths that ask after every SGR (a call to
 * grid-style.c and its return cost an emulated guest two TB look-ups per text run: GRID_PAGE); past the cache,
 * slow (a constant: grid__pen_id_slow, or a copy in the caller's page). */
static inline __attribute__((always_inline)) uint16_t
grid__pen_id_via(struct grid *g, uint16_t (*slow)(struct grid *, uint64_t, uint64_t, uint64_t))
{
	if (g->pen_dirty) {
		uint64_t a, b;
		const uint64_t h = grid__pen_key(g, &a, &b);
		struct style_table *t = &g->st;
		const uint32_t slot = grid__cache_slot(h);
		if (unlikely(t->cache[slot].a != a || t->cache[slot].b != b))
			return slow(g, a, b, h);
		/* the id in a local: m may alias g as far as the compiler knows, g->pen_id would be loaded again */
		return grid__pen_learn(g, (uint16_t)t->cache[slot].id);
	}
	return g->pen_id;
}

static inline uint16_t grid__pen_id(struct grid *g)
{
	return grid__pen_id_via(g, grid__pen_id_slow);
}

#endif
