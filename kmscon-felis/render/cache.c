/* kmscon-felis/render/cache.c: the glyph cache.
 *
 * A fixed array of entries (the capacity bounds memory: at most capacity glyphs of at most 2 cells
 * x 4 bytes per pixel) indexed by an open-addressing hash table with linear probing and
 * backward-shift deletion. A hit is a hash, a few probes and setting a reference bit: no
 * allocation, no list splicing. When full, the clock hand sweeps the entries, clearing reference
 * bits, and evicts the first entry not used since the last sweep (second-chance/CLOCK); the
 * victim's pixel buffer is reused when it is large enough.
 *
 * Also the storage of the pre-composed cells (paint.c looks them up).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

#define EMPTY UINT32_MAX

struct entry {
	uint64_t key;
	struct kf_glyph glyph;
	size_t bytes; /* allocated size of glyph.data */
	bool used, ref;
};

struct kf_cache {
	struct entry *entries;
	size_t capacity, count, hand;
	uint32_t *table; /* entry index or EMPTY */
	size_t mask;
	uint64_t hits, misses, evictions;
};

static size_t slot_of(const struct kf_cache *c, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & c->mask;
}

int kf_cache_create(size_t capacity, struct kf_cache **out)
{
	if (!capacity || capacity > (1u << 24))
		return -EINVAL;
	struct kf_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	size_t tsize = 16;
	while (tsize < capacity * 2)
		tsize *= 2;
	c->capacity = capacity;
	c->mask = tsize - 1;
	c->entries = calloc(capacity, sizeof(*c->entries));
	c->table = malloc(tsize * sizeof(*c->table));
	if (!c->entries || !c->table) {
		kf_cache_destroy(c);
		return -ENOMEM;
	}
	memset(c->table, 0xff, tsize * sizeof(*c->table));
	*out = c;
	return 0;
}

void kf_cache_destroy(struct kf_cache *c)
{
	if (!c)
		return;
	if (c->entries)
		for (size_t i = 0; i < c->capacity; i++)
			free(c->entries[i].glyph.data);
	free(c->entries);
	free(c->table);
	free(c);
}

struct kf_glyph *kf_cache_find(struct kf_cache *c, uint64_t key)
{
	for (size_t s = slot_of(c, key);; s = (s + 1) & c->mask) {
		uint32_t i = c->table[s];
		if (i == EMPTY)
			break;
		if (c->entries[i].key == key) {
			c->entries[i].ref = true;
			c->hits++;
			return &c->entries[i].glyph;
		}
	}
	c->misses++;
	return NULL;
}

/* Removes the table slot of entry i, shifting later members of the probe run back (no tombstones).
 */
static void table_remove(struct kf_cache *c, uint32_t i)
{
	size_t s = slot_of(c, c->entries[i].key);
	while (c->table[s] != i)
		s = (s + 1) & c->mask;
	c->table[s] = EMPTY;
	for (size_t n = (s + 1) & c->mask; c->table[n] != EMPTY; n = (n + 1) & c->mask) {
		size_t home = slot_of(c, c->entries[c->table[n]].key);
		/* move n into the hole at s unless its home lies cyclically in (s, n] */
		bool stays = s <= n ? (home > s && home <= n) : (home > s || home <= n);
		if (!stays) {
			c->table[s] = c->table[n];
			c->table[n] = EMPTY;
			s = n;
		}
	}
}

static uint32_t pick_slot(struct kf_cache *c)
{
	if (c->count < c->capacity)
		return (uint32_t)c->count++;
	for (;;) {
		struct entry *e = &c->entries[c->hand];
		uint32_t i = (uint32_t)c->hand;
		c->hand = (c->hand + 1) % c->capacity;
		if (!e->used)
			return i; /* left over by a failed allocation */
		if (e->ref) {
			e->ref = false;
			continue;
		}
		table_remove(c, i);
		e->used = false;
		c->evictions++;
		return i;
	}
}

struct kf_glyph *kf_cache_insert(struct kf_cache *c, uint64_t key, size_t bytes)
{
	uint32_t i = pick_slot(c);
	struct entry *e = &c->entries[i];
	if (e->bytes < bytes || !e->glyph.data) {
		void *d = malloc(bytes ? bytes : 1);
		if (!d) {
			/* leave the slot unused but counted; it is handed out again next time */
			e->used = false;
			return NULL;
		}
		free(e->glyph.data);
		e->glyph.data = d;
		e->bytes = bytes;
	}
	memset(e->glyph.data, 0, bytes);
	e->key = key;
	e->used = true;
	e->ref = true;
	size_t s = slot_of(c, key);
	while (c->table[s] != EMPTY)
		s = (s + 1) & c->mask;
	c->table[s] = i;
	return &e->glyph;
}

void kf_cache_flush(struct kf_cache *c)
{
	memset(c->table, 0xff, (c->mask + 1) * sizeof(*c->table));
	for (size_t i = 0; i < c->count; i++) {
		c->entries[i].used = false;
		c->entries[i].ref = false;
	}
	c->count = 0;
	c->hand = 0;
}

void kf_cache_stats(const struct kf_cache *c, struct kf_render_stats *out)
{
	out->glyphs = c->count;
	out->capacity = c->capacity;
	out->hits = c->hits;
	out->misses = c->misses;
	out->evictions = c->evictions;
}

/* --- pre-composed cells: their storage --- */

/* At most this many bytes of pre-composed cells (both planes: one and two cells wide), and at most
 * 1 << CELL_BITS_MAX slots: a screen of text uses a few hundred (glyph, colours) combinations. The
 * wide plane's pages are touched only by wide glyphs. */
#define CELL_BUDGET (6u << 20)
#define CELL_BITS_MAX 10

void kf_render_cells_finish(struct kf_render *r)
{
	free(r->cells.px);
	free(r->cells.wide);
	free(r->cells.tags);
	free(r->cells.mru);
	free(r->cells.seen);
	free(r->cells.px_at);
	r->cells.px = NULL;
	r->cells.wide = NULL;
	r->cells.tags = NULL;
	r->cells.mru = NULL;
	r->cells.seen = NULL;
	r->cells.px_at = NULL;
	r->cells.px_used = 0;
	r->cells.bits = 0;
}

/* (Re)sizes the slots for the current cell size; false when there are none. Allocates only when
 * the cell size changed (or the last allocation failed); a new epoch (scale, palette: the glyphs
 * may differ) only empties the slots. */
bool kf_render_cells_ready(struct kf_render *r)
{
	if (r->cells.cell_w == r->cell_w && r->cells.cell_h == r->cell_h) {
		if (r->cells.epoch != r->epoch && r->cells.bits)
			memset(r->cells.tags, 0, ((size_t)1 << r->cells.bits) * sizeof(*r->cells.tags));
		if (r->cells.epoch == r->epoch || r->cells.bits) {
			r->cells.epoch = r->epoch;
			return r->cells.bits != 0;
		}
	}
	kf_render_cells_finish(r);
	r->cells.cell_w = r->cell_w;
	r->cells.cell_h = r->cell_h;
	r->cells.epoch = r->epoch;
	size_t slot = (size_t)r->cell_w * r->cell_h; /* one cell; a wide slot is two */
	unsigned bits = CELL_BITS_MAX;
	while (bits > 4 && ((size_t)1 << bits) * 3 * slot * 4 > CELL_BUDGET)
		bits--;
	if (!slot || ((size_t)1 << bits) * 3 * slot * 4 > CELL_BUDGET)
		return false;
	r->cells.px = malloc(((size_t)1 << bits) * slot * 4);
	r->cells.wide = malloc(((size_t)1 << bits) * 2 * slot * 4);
	r->cells.tags = calloc((size_t)1 << bits, sizeof(*r->cells.tags));
	r->cells.mru = calloc((size_t)1 << (bits - 1), 1);
	r->cells.seen = calloc((size_t)1 << bits, sizeof(*r->cells.seen));
	r->cells.px_at = calloc((size_t)1 << bits, sizeof(*r->cells.px_at));
	_Static_assert(CELL_BITS_MAX <= 16, "px_at holds a place + 1 in 16 bits");
	if (!r->cells.px || !r->cells.wide || !r->cells.tags || !r->cells.mru || !r->cells.seen ||
	    !r->cells.px_at) {
		kf_render_cells_finish(r);
		return false;
	}
	r->cells.bits = bits;
	r->cells.slot_px = slot;
	return true;
}
