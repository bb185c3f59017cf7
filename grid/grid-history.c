/* grid/grid-history.c: storage of the scrollback's lines.
 *
 * A line leaving the top of the screen is copied, trimmed to its written cells, into chunks of memory used
 * as a FIFO: lines are appended at the head and die oldest first (the ring recycles the oldest scrollback
 * line, or a chunk is needed again). The screen keeps its own rows-many full lines, which stay in the cache;
 * a flood therefore writes only the written part of each line into sequential memory instead of touching
 * whole cold rows (with 10000 lines of 212 columns that was 25 MB of memory traffic per pass).
 * Memory stays bounded: at most enough chunks for sb_max full lines, plus one.
 */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

#define HIST_CHUNK ((size_t)2 << 20)

struct hist_chunk {
	char *mem;
	size_t used;       /* bytes handed out */
	uint64_t last_abs; /* absolute number of the newest line in it (lines die oldest first) */
	bool any;
};

static size_t line_bytes(int ncells)
{
	return (sizeof(struct line) + (size_t)ncells * sizeof(struct grid_cell) + 15) & ~(size_t)15;
}

void grid__hist_finish(struct screen *s)
{
	for (size_t i = 0; i < s->hist_n; i++)
		grid__unmap(s->hist[i].mem, HIST_CHUNK);
	free(s->hist);
	s->hist = NULL;
	s->hist_n = s->hist_max = s->hist_head = 0;
}

void grid__hist_reset(struct screen *s)
{
	for (size_t i = 0; i < s->hist_n; i++) {
		s->hist[i].used = 0;
		s->hist[i].any = false;
	}
	s->hist_head = 0;
}

/* The oldest scrollback lines live in the chunk about to be reused: every line up to its newest leaves
 * the scrollback (the scrollback holds lines [abs_top - sb_n, abs_top)). */
static void evict_chunk(struct screen *s, struct hist_chunk *c)
{
	if (c->any) {
		uint64_t oldest_kept = c->last_abs + 1;
		if (s->abs_top < oldest_kept)
			s->sb_n = 0;
		else if (s->abs_top - oldest_kept < s->sb_n)
			s->sb_n = (size_t)(s->abs_top - oldest_kept);
	}
	c->used = 0;
	c->any = false;
}

static struct hist_chunk *chunk_for(struct screen *s, size_t bytes)
{
	if (s->hist_max == 0) {
		size_t total = s->sb_max * line_bytes(s->line_cols);
		s->hist_max = total / HIST_CHUNK + 2;
		s->hist = calloc(s->hist_max, sizeof(*s->hist));
		if (!s->hist) {
			s->hist_max = 0;
			return NULL;
		}
	}
	struct hist_chunk *c = s->hist_n ? &s->hist[s->hist_head] : NULL;
	if (c && c->used + bytes <= HIST_CHUNK)
		return c;
	size_t next = s->hist_n ? (s->hist_head + 1) % s->hist_max : 0;
	if (next >= s->hist_n) {
		char *mem = grid__map(HIST_CHUNK);
		if (!mem)
			return NULL;
		s->hist[s->hist_n++] = (struct hist_chunk){.mem = mem};
		next = s->hist_n - 1;
	}
	s->hist_head = next;
	c = &s->hist[next];
	if (c->any || c->used)
		evict_chunk(s, c);
	return c;
}

/* Copies with streaming stores: the destination was last written a whole scrollback ago and is not in
 * the cache; ordinary stores would read it from memory first. Lines and their cells are 16-byte aligned
 * and their sizes rounded up to 16 bytes, so whole vectors are copied. */
static void copy_stream(void *dst, const void *src, size_t bytes)
{
#if defined(__SSE2__)
	__m128i *d = dst;
	const __m128i *sp = src;
	for (size_t i = 0; i < bytes / 16; i++)
		_mm_stream_si128(d + i, _mm_load_si128(sp + i));
#else
	memcpy(dst, src, bytes);
#endif
}

struct line *grid__hist_copy(struct screen *s, const struct line *src, int ncells, uint64_t abs)
{
	int n = src->used < ncells ? src->used : ncells;
	size_t bytes = line_bytes(n);
	struct hist_chunk *c = chunk_for(s, bytes);
	if (!c)
		return NULL;
	struct line *l = (struct line *)(c->mem + c->used);
	c->used += bytes;
	c->last_abs = abs;
	c->any = true;
	struct line hdr = {.flags = src->flags, .used = (uint16_t)n, .ncells = (uint16_t)n,
			   .chunk = (uint32_t)(c - s->hist)};
	copy_stream(l, &hdr, sizeof(hdr));
	copy_stream(l->cells, src->cells, bytes - sizeof(hdr));
	return l;
}

void grid__hist_fence(void)
{
#if defined(__SSE2__)
	_mm_sfence();
#endif
}
