/* grid/grid-hist.h: (included by grid-internal.h only) the grid's anonymous memory (grid.c) and the copies
 * of lines in the scrollback (grid-history.c): their functions, and the two inline ones the scroll path
 * takes without a call. Split from grid-internal.h to keep it under ~800 lines. */
#ifndef GRID_GRID_HIST_H
#define GRID_GRID_HIST_H

/* grid.c: prefaulted, 2 MiB aligned anonymous memory (huge pages where bytes is a multiple of 2 MiB); bytes a
 * multiple of the page size; NULL on failure */
void *grid__map(size_t bytes);
/* The same mapped but not populated: pages are zeroed as they are first written (or by grid__populate) */
void *grid__map_lazy(size_t bytes);
/* Populates [p, p + bytes) of a grid__map_lazy block (page multiples), so no later store there faults */
void grid__populate(void *p, size_t bytes);
/* Grows a grid__map block of old_bytes to bytes (more), keeping its contents at the start of the result and
 * populating the rest (zeroed); NULL on failure, the old block then untouched. */
void *grid__remap(void *old, size_t old_bytes, size_t bytes);
void grid__unmap(void *p, size_t bytes);

/* grid-history.c: copies of the lines in the scrollback, owned by the screen */
/* abs: the line's absolute number (screen row 0 has s->abs_top). */
struct line *grid__hist_copy(struct screen *s, const struct line *src, int ncells, uint64_t abs);
/* grid__hist_copy for a LINE_ASCII line (the caller checks). */
struct line *grid__hist_text(struct screen *s, const struct line *src, int ncells, uint64_t abs);
/* push_line for a LINE_ASCII screen row 0 (l) in default blanks with the screen not scrolled back (the caller
 * checks; slot: the ring slot after the screen). */
void grid__hist_push_ascii(struct screen *s, struct line *l, size_t slot, int ncells);
/* Builds with assertions check the LINE_ASCII invariant (see there) of every line the scrollback takes and of
 * every screen row after grid_feed (grid.c), aborting where it does not hold. */
#if !defined(NDEBUG)
#define GRID_TEXT_CHECK 1
void grid__text_check_line(const struct line *l, const char *where);
void grid__text_check(const struct grid *g);
#endif
/* Orders the streaming stores of the copies before anything else (end of grid_feed). Inline: once per feed, a
 * call to it was a jump to another page, and in a TCG guest each feed (a 4 KiB read) pays for every page it
 * touches after the context switch to its writer flushed QEMU's TLB. */
static inline __attribute__((always_inline)) void grid__hist_fence(void)
{
#if defined(GRID_HAVE_FILL_SSE)
	_mm_sfence();
#endif
}
/* Writes the l->ncells cells of a LINE_PACKED line to out. */
void grid__hist_expand(const struct line *l, struct grid_cell *out);
/* The cells of line l for reading: l->cells, or for a packed line its expansion into buf (>= l->ncells
 * cells, owned by the caller), carrying the selection's marks (abs: the line's absolute number). */
const struct grid_cell *grid__line_read(const struct grid *g, const struct line *l, uint64_t abs,
					struct grid_cell *buf);
void grid__hist_reset(struct screen *s);
/* A push's hand-over (push_line, grid__hist_push_ascii): screen row 0's copy c (NULL: out of memory) takes
 * its slot as the scrollback's newest line, the row itself the slot after the screen (slot). */
static inline __attribute__((always_inline)) void grid__hist_take(struct screen *s, struct line *l, size_t slot,
								  struct line *c)
{
	if (likely(c)) {
		s->ring[s->top] = c;
		s->sb_n++;
	} else {
		/* out of memory: forget the scrollback rather than the screen */
		grid__hist_reset(s);
		s->sb_n = 0;
	}
	s->ring[slot] = l;
}
void grid__hist_finish(struct screen *s);

#endif
