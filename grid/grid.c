/* grid/grid.c: creation, the ring of lines, damage, the viewport and the read-side API.
 *
 * The other grid-*.c files hold the sequence semantics; see grid-internal.h for the data layout.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
#endif

#include "grid/grid-internal.h"

#ifndef KF_GRID_VERSION
#define KF_GRID_VERSION "0.1.0"
#endif

#define DEFAULT_SCROLLBACK 10000

/* a screen line: its cells, then its text bytes (line.text) with room for whole vectors */
static size_t line_size(int cols)
{
	return ((sizeof(struct line) + (size_t)cols * sizeof(struct grid_cell) + 15) & ~(size_t)15) +
	       (((size_t)cols + 15) & ~(size_t)15);
}

/* Fresh slab memory was just zeroed by the kernel and is not in the cache: filling it with blanks through
 * the cache would read every line from memory first (a cold scrollback's first pass cost more than the
 * whole rest of a flood). Streaming stores write it without reading it. */
static void fill_fresh(struct grid_cell *c, int n)
{
	int i = 0;
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* a blank cell is the 32-bit words 0, 0, 1 (cp, style|link, width=1): 4 cells are 3 vectors */
	const __m128i v0 = _mm_set_epi32(0, 1, 0, 0), v1 = _mm_set_epi32(0, 0, 1, 0),
		      v2 = _mm_set_epi32(1, 0, 0, 1);
	__m128i *p = (__m128i *)(void *)c;
	for (; i + 4 <= n; i += 4, p += 3) {
		_mm_stream_si128(p, v0);
		_mm_stream_si128(p + 1, v1);
		_mm_stream_si128(p + 2, v2);
	}
	_mm_sfence();
#endif
	if (i < n)
		grid__clear_cells(c + i, n - i, 0);
}

/* Line memory comes in slabs: a scrollback filling up allocates a few large blocks, not one block per
 * line, and blocks of 2 MiB or more are mapped with transparent huge pages allowed, so the first pass
 * through 10000 lines of scrollback costs a handful of page faults instead of thousands (they dominate
 * the cost of a flood in a VM otherwise). */
#define SLAB_BYTES ((size_t)2 << 20)

struct slab {
	struct slab *next;
	size_t bytes;
	bool mapped;
	max_align_t align[];
};

/* Writes every page of [p, p + len) so no later store faults: one madvise where the kernel has
 * MADV_POPULATE_WRITE (5.14), else a store per page. MAP_POPULATE is not used: it populates the mapping
 * before MADV_HUGEPAGE can apply, with 4 KiB pages (one fault each, 17-47 us in a VM). */
static void prefault(char *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (madvise(p, len, MADV_POPULATE_WRITE) == 0)
		return;
#endif
	for (size_t i = 0; i < len; i += 4096)
		((volatile char *)p)[i] = 0;
}

/* Maps len bytes, not yet populated. A multiple of 2 MiB is aligned to 2 MiB (over-allocate by one huge page,
 * give back the ends) so it can be backed by huge pages; smaller blocks are mapped as they are. */
static char *map_block(size_t len)
{
	const bool huge = (len & (SLAB_BYTES - 1)) == 0;
	const size_t extra = huge ? SLAB_BYTES : 0;
	char *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	char *a = p;
	if (huge) {
		a = (char *)(((uintptr_t)p + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1));
		size_t head = (size_t)(a - p);
		if (head)
			munmap(p, head);
		if (extra - head)
			munmap(a + len, extra - head);
		madvise(a, len, MADV_HUGEPAGE);
	}
	return a;
}

void *grid__map(size_t len)
{
	char *a = map_block(len);
	if (a)
		prefault(a, len);
	return a;
}

void *grid__map_lazy(size_t len)
{
	return map_block(len);
}

void grid__populate(void *p, size_t len)
{
	prefault(p, len);
}

void *grid__remap(void *old, size_t old_len, size_t len)
{
	/* The old pages move (page table entries, a huge page at a time) to the start of a new aligned block,
	 * and only the rest is populated: a fresh block would be zeroed whole and then copied into, and in a
	 * TCG guest the kernel zeroes at 15-20 ms per MiB (docs/benchmarks.md, issue 5, session 10). */
	char *a = map_block(len);
	if (!a)
		return NULL;
	if (mremap(old, old_len, old_len, MREMAP_MAYMOVE | MREMAP_FIXED, a) == MAP_FAILED) {
		munmap(a, len);
		return NULL;
	}
	prefault(a + old_len, len - old_len);
	return a;
}

void grid__unmap(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

static struct slab *slab_new(size_t bytes)
{
	struct slab *sl;
	if (bytes >= SLAB_BYTES / 2) {
		size_t len = (bytes + SLAB_BYTES - 1) & ~(SLAB_BYTES - 1);
		sl = grid__map(len);
		if (!sl)
			return NULL;
		sl->bytes = len;
		sl->mapped = true;
	} else {
		sl = malloc(bytes);
		if (!sl)
			return NULL;
		sl->bytes = bytes;
		sl->mapped = false;
	}
	return sl;
}

struct line *grid__screen_line(struct screen *s)
{
	size_t lsz = line_size(s->line_cols);
	if (s->slab_left == 0) {
		/* Screen lines are only the screen's rows (scrollback lines are copies in history chunks): a
		 * slab sized for the whole ring (rows + scrollback) would be a 2 MiB huge page, populated, for
		 * the 40 lines of an idle console. */
		size_t rows = s->cap - s->sb_max;
		size_t want = rows > s->allocated ? rows - s->allocated : 1;
		size_t per = (SLAB_BYTES - sizeof(struct slab)) / lsz;
		if (per < 16)
			per = 16;
		if (want > per)
			want = per;
		struct slab *sl = slab_new(sizeof(struct slab) + want * lsz);
		if (!sl)
			return NULL;
		sl->next = s->slabs;
		s->slabs = sl;
		s->slab_next = (char *)sl->align;
		s->slab_left = (sl->bytes - sizeof(struct slab)) / lsz;
	}
	struct line *l = (struct line *)s->slab_next;
	s->slab_next += lsz;
	s->slab_left--;
	s->allocated++;
	l->flags = 0;
	l->used = 0;
	l->ncells = (uint16_t)s->line_cols;
	l->text = (uint8_t *)(void *)(l->cells + s->line_cols);
	fill_fresh(l->cells, s->line_cols);
	return l;
}

void grid__line_clear(struct line *l, int cols, uint16_t style)
{
	l->flags = 0;
	if (style == 0) {
		grid__clear_cells(l->cells, l->used, 0);
		l->used = 0;
	} else {
		grid__clear_cells(l->cells, cols, style);
		l->used = (uint16_t)cols;
	}
}

void grid__text_gate(struct grid *g)
{
	const int from = g->scr == &g->primary && g->primary.sb_max > 0 && g->top == 0 ? 0 : INT_MAX;
	if (from != 0) {
		/* the printer does not clear the flag: no row of the screen shown may keep it (rows of the other
		 * one are not printed to while this one is shown) */
		const struct screen *s = g->scr;
		for (int y = 0; y < g->rows; y++)
			grid__line_ready(s->ring[(s->top + (size_t)y) % s->cap])->flags &= ~LINE_ASCII;
	}
	g->text_from = from;
}

struct line *grid__ring_line(const struct screen *s, size_t slot)
{
	struct line *l = s->ring[slot % s->cap];
	return l ? grid__line_ready(l) : NULL;
}


int grid__screen_init(struct screen *s, int rows, int cols, size_t sb_max)
{
	memset(s, 0, sizeof(*s));
	s->sb_max = sb_max;
	s->cap = (size_t)rows + sb_max;
	s->line_cols = cols;
	s->ring = calloc(s->cap, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	for (int y = 0; y < rows; y++) {
		s->ring[y] = grid__screen_line(s);
		if (!s->ring[y]) {
			grid__screen_finish(s);
			return -ENOMEM;
		}
	}
	return 0;
}

void grid__screen_finish(struct screen *s)
{
	grid__hist_finish(s);
	while (s->slabs) {
		struct slab *sl = s->slabs;
		s->slabs = sl->next;
		if (sl->mapped)
			munmap(sl, sl->bytes);
		else
			free(sl);
	}
	free(s->ring);
	memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------------------------------ damage */

void grid__damage(struct grid *g, int y, int x0, int x1)
{
	grid__damage_inline(g, y, x0, x1);
}

void grid__damage_rows(struct grid *g, int y0, int y1)
{
	g->damaged = true;
	if (g->damage_all)
		return;
	y0 += (int)g->view_offset;
	y1 += (int)g->view_offset;
	if (y1 >= g->rows)
		y1 = g->rows - 1;
	if (y0 > y1)
		return;
	if (g->dmg_y1 >= g->dmg_y0 && (y1 + 1 < g->dmg_y0 || y0 > g->dmg_y1 + 1)) {
		/* a second, disjoint range: the old one goes into the per-row spans */
		for (int y = g->dmg_y0; y <= g->dmg_y1; y++) {
			g->dmg_x0[y] = 0;
			g->dmg_x1[y] = (uint16_t)g->cols;
		}
		g->dmg_y0 = y0;
		g->dmg_y1 = y1;
		return;
	}
	if (g->dmg_y1 < g->dmg_y0) {
		g->dmg_y0 = y0;
		g->dmg_y1 = y1;
		return;
	}
	g->dmg_y0 = grid__min(g->dmg_y0, y0);
	g->dmg_y1 = grid__max(g->dmg_y1, y1);
}

bool grid_row_damage(const struct grid *g, int y, int *x0, int *x1)
{
	if (y < 0 || y >= g->rows)
		return false;
	if (g->damage_all) {
		*x0 = 0;
		*x1 = g->cols;
		return true;
	}
	if (y >= g->dmg_y0 && y <= g->dmg_y1) {
		*x0 = 0;
		*x1 = g->cols;
		return true;
	}
	if (g->dmg_x1[y] == 0)
		return false;
	*x0 = g->dmg_x0[y];
	*x1 = g->dmg_x1[y];
	return true;
}

void grid_damage_clear(struct grid *g)
{
	memset(g->dmg_x1, 0, sizeof(*g->dmg_x1) * (size_t)g->rows);
	g->dmg_y0 = 0;
	g->dmg_y1 = -1;
	g->damage_all = false;
	g->damaged = false;
	g->dmg_cx = g->cx;
	g->dmg_cy = g->cy;
	g->dmg_cvis = g->cursor_visible;
}

void grid_damage_all(struct grid *g)
{
	g->damage_all = true;
	g->damaged = true;
}

bool grid_is_damaged(const struct grid *g)
{
	return g->damaged || g->cx != g->dmg_cx || g->cy != g->dmg_cy || g->cursor_visible != g->dmg_cvis;
}

/* ----------------------------------------------------------------------------------------- replies */

/* A reply goes whole or not at all: one cut short would leave the child's parser inside a string that never
 * ends (a DCS without its ST). The replies that can pass the stack buffer (XTGETTCAP's, bounded by its own
 * buffer; XTVERSION with a long configured text) are formatted again on the heap. */
void grid__reply(struct grid *g, const char *fmt, ...)
{
	char buf[512], *p = buf;
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && g->cb.reply && (size_t)n >= sizeof(buf)) {
		p = malloc((size_t)n + 1);
		if (p && vsnprintf(p, (size_t)n + 1, fmt, again) != n) {
			free(p);
			p = NULL;
		}
	}
	va_end(again);
	if (n <= 0 || !g->cb.reply || !p)
		return;
	g->cb.reply(g->ud, (const uint8_t *)p, (size_t)n);
	if (p != buf)
		free(p);
}

/* ------------------------------------------------------------------------------------ create/reset */

void grid__reset_state(struct grid *g, bool hard)
{
	if (hard)
		grid__work(g, (uint64_t)g->rows * (uint64_t)g->cols); /* RIS clears both screens (grid_work) */
	memset(&g->pen, 0, sizeof(g->pen));
	g->pen_dirty = true;
	g->erase_dirty = true;
	g->protect = false;
	grid__iso_protect_mode(g, false);
	g->protect_off = true;
	g->link = 0;
	memset(g->charsets, CHARSET_ASCII, sizeof(g->charsets));
	g->gl = 0;
	g->gr = 2;
	g->single_shift = 0;
	g->top = 0;
	g->bottom = g->rows - 1;
	g->left = 0;
	g->right = g->cols - 1;
	grid__text_gate(g);
	g->lr_mode = false;
	g->origin = false;
	g->insert = false;
	grid__print_mode(g);
	g->autowrap = true;
	g->reverse_wrap = 0;
	g->cursor_visible = true;
	g->modes.keys.cursor_keys_app = false;
	g->modes.keys.keypad_app = false;
	g->modes.keys.modify_other_keys = 0; /* DECSTR too, as in xterm 379 */
	g->saved[0].valid = false;
	g->saved[1].valid = false;
	/* DECSTR too: xterm 379's soft reset gives the power-on cursor back (a steady block), as RIS does */
	if (g->cursor_blink || g->cursor_shape != GRID_CURSOR_BLOCK)
		g->damaged = true;
	g->cursor_blink = false;
	g->cursor_shape = GRID_CURSOR_BLOCK;
	if (!hard)
		return;
	g->checksum_ext = 0;
	g->decsace = 0;
	g->sgr_depth = 0; /* DECSTR keeps XTPUSHSGR's stack (xterm 379); xterm's RIS does too, ours not */
	g->bell_hz = GRID_BELL_PITCH_HZ; /* the Linux console's reset_terminal() does the same */
	g->bell_ms = GRID_BELL_DURATION_MS;
	g->last_cp = 0;
	g->last_x = g->last_y = -1;
	g->wrap_pending = false;
	memset(&g->modes, 0, sizeof(g->modes));
	g->modes.keys.alt_sends_escape = true;
	g->modes.keys.backspace_sends_bs = g->backspace_bs_default;
	memset(g->kitty_depth, 0, sizeof(g->kitty_depth));
	memset(g->kitty_stack, 0, sizeof(g->kitty_stack));
	grid__tabs_reset(g);
	grid__palette_reset(g, -1);
	g->title[0] = '\0';
	grid__titles_finish(g);
}

static int alloc_per_size(struct grid *g, int cols, int rows)
{
	g->tabs = calloc(GRID_MAX_DIM, 1);
	g->dmg_x0 = calloc((size_t)rows, sizeof(*g->dmg_x0));
	g->dmg_x1 = calloc((size_t)rows, sizeof(*g->dmg_x1));
	g->view_buf = calloc((size_t)(rows + 1) * (size_t)cols, sizeof(*g->view_buf));
	return g->tabs && g->dmg_x0 && g->dmg_x1 && g->view_buf ? 0 : -ENOMEM;
}

struct grid *grid_create(const struct grid_config *cfg, const struct grid_callbacks *cb, void *ud)
{
	static const struct vt_sink sink = {
		.print_ascii = grid__print_ascii,
		.print = grid__print,
		.print_utf8 = grid__print_utf8,
		.execute = grid__execute_c0,
		.esc = grid__esc,
		.csi = grid__csi,
		.csi_bytes_final = grid__csi_bytes_final,
		.string = grid__string,
		.nothing = grid__nothing,
		.execute_in_seq = grid__execute_in_seq,
	};
	struct grid *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->work_end = UINT64_MAX; /* (grid_feed_bounded's only) */
	g->dmg_y1 = -1;
	int cols = cfg ? grid__clamp(cfg->cols, 1, GRID_MAX_DIM) : 80;
	int rows = cfg ? grid__clamp(cfg->rows, 1, GRID_MAX_DIM) : 24;
	size_t sb = cfg ? cfg->scrollback : DEFAULT_SCROLLBACK;
	if (sb > 1000000)
		sb = 1000000;
	if (cb)
		g->cb = *cb;
	g->ud = ud;
	g->cols = cols;
	g->rows = rows;
	if (cfg) {
		g->cell_width = cfg->cell_width;
		g->cell_height = cfg->cell_height;
		g->allow_clipboard_read = cfg->allow_clipboard_read;
		g->backspace_bs_default = cfg->backspace_sends_bs;
	}
	grid__palette_init(g, cfg ? cfg->colors : NULL);
	const char *ver = cfg && cfg->xtversion ? cfg->xtversion : "kmscon-felis(" KF_GRID_VERSION ")";
	g->xtversion = strdup(ver);
	g->term_name = strdup(cfg && cfg->term_name ? cfg->term_name : "xterm-256color");
	if (!g->xtversion || !g->term_name || alloc_per_size(g, cols, rows) < 0)
		goto fail;
	if (grid__screen_init(&g->primary, rows, cols, sb) < 0)
		goto fail;
	if (grid__screen_init(&g->alt, rows, cols, 0) < 0)
		goto fail;
	g->scr = &g->primary;
	grid__text_gate(g);
	if (grid__styles_init(g) < 0)
		goto fail;
	g->parser = vt_parser_create(&sink, g, NULL);
	if (!g->parser)
		goto fail;
	grid__reset_state(g, true);
	grid_damage_all(g);
	return g;
fail:
	grid_destroy(g);
	return NULL;
}

void grid_destroy(struct grid *g)
{
	if (!g)
		return;
	vt_parser_destroy(g->parser);
	grid__styles_finish(g);
	grid__links_finish(g);
	grid__titles_finish(g);
	grid__screen_finish(&g->primary);
	grid__screen_finish(&g->alt);
	free(g->tabs);
	free(g->dmg_x0);
	free(g->dmg_x1);
	free(g->view_buf);
	free(g->xtversion);
	free(g->term_name);
	free(g);
}

static void clear_screen_lines(struct grid *g, struct screen *s)
{
	for (int y = 0; y < g->rows; y++) {
		struct line *l = s->ring[(s->top + (size_t)y) % s->cap];
		grid__line_clear(l, g->cols, 0);
	}
}

void grid_set_backspace_default(struct grid *g, bool sends_bs)
{
	g->backspace_bs_default = sends_bs;
}

void grid_reset(struct grid *g)
{
	vt_parser_reset(g->parser);
	grid_select_clear(g);
	if (g->scr == &g->alt)
		g->scr = &g->primary;
	grid__reset_state(g, true);
	clear_screen_lines(g, &g->primary);
	clear_screen_lines(g, &g->alt);
	grid__dbl_recount(g); /* the rows are single again (grid__line_clear) */
	g->primary.sb_n = 0; /* a hard reset forgets the history too (VTE, alacritty) */
	grid__hist_reset(&g->primary);
	grid__gc_unwait(g);
	g->cx = g->cy = 0;
	g->view_offset = 0;
	grid_damage_all(g);
}

void grid_set_cell_size(struct grid *g, int cell_width, int cell_height)
{
	g->cell_width = cell_width;
	g->cell_height = cell_height;
}

int grid_resize(struct grid *g, int cols, int rows)
{
	if (cols < 1 || rows < 1 || cols > GRID_MAX_DIM || rows > GRID_MAX_DIM)
		return -EINVAL;
	if (cols == g->cols && rows == g->rows)
		return 0;
	uint16_t *x0 = calloc((size_t)rows, sizeof(*x0));
	uint16_t *x1 = calloc((size_t)rows, sizeof(*x1));
	struct grid_cell *vb = calloc((size_t)(rows + 1) * (size_t)cols, sizeof(*vb));
	if (!x0 || !x1 || !vb)
		goto nomem;
	grid_select_clear(g);
	if (grid__reflow(g, cols, rows) < 0)
		goto nomem;
	free(g->dmg_x0);
	free(g->dmg_x1);
	g->dmg_x0 = x0;
	g->dmg_x1 = x1;
	g->dmg_y0 = 0;
	g->dmg_y1 = -1;
	free(g->view_buf);
	g->view_buf = vb;
	/* the margins go to the whole screen and origin mode off, as xterm's ScreenResize does (DECLRMM stays) */
	g->top = 0;
	g->bottom = rows - 1;
	g->left = 0;
	g->right = cols - 1;
	g->origin = false;
	grid__text_gate(g);
	g->saved[1].x = grid__min(g->saved[1].x, cols - 1);
	g->saved[1].y = grid__min(g->saved[1].y, rows - 1);
	g->saved[0].x = grid__min(g->saved[0].x, cols - 1);
	g->saved[0].y = grid__min(g->saved[0].y, rows - 1);
	grid__dbl_recount(g);
	grid_damage_all(g);
	return 0;
nomem:
	free(vb);
	free(x0);
	free(x1);
	return -ENOMEM;
}

/* ------------------------------------------------------------------------------------------- reads */

uint64_t grid_work(const struct grid *g)
{
	return g->work;
}

uint64_t grid_sync_ends(const struct grid *g)
{
	return g->sync_ends;
}

int grid_cols(const struct grid *g)
{
	return g->cols;
}

int grid_rows(const struct grid *g)
{
	return g->rows;
}

void grid_get_cursor(const struct grid *g, struct grid_cursor *out)
{
	out->x = g->cx;
	out->y = g->cy + (int)g->view_offset;
	out->visible = g->cursor_visible && out->y < g->rows;
	out->blink = g->cursor_blink;
	out->shape = g->cursor_shape;
}

void grid_get_modes(const struct grid *g, struct grid_modes *out)
{
	*out = g->modes;
	out->alt_screen = g->scr == &g->alt;
}

const uint32_t *grid_palette(const struct grid *g)
{
	return g->palette;
}

const char *grid_title(const struct grid *g)
{
	return g->title;
}

/* Display row y's line, as it is (a screen row may be LINE_LAZY). */
static const struct line *view_line_raw(const struct grid *g, int y)
{
	const struct screen *s = g->scr;
	size_t i = s->top + s->cap - g->view_offset + (size_t)y;
	return s->ring[i % s->cap];
}

/* Display row y's line with its cells written: a deferred screen row (LINE_LAZY) is written in place, once
 * (the grid is the caller's const, its rows are not: reading them is when their cells are due). */
static const struct line *view_line(const struct grid *g, int y)
{
	const struct line *l = view_line_raw(g, y);
	if (unlikely(l->flags & LINE_LAZY))
		grid__line_materialise((struct line *)l);
	return l;
}

const struct grid_cell *grid__line_read(const struct grid *g, const struct line *l, uint64_t abs,
					struct grid_cell *buf)
{
	if (!(l->flags & LINE_PACKED))
		return l->cells;
	grid__hist_expand(l, buf);
	grid__select_apply(g, abs, buf, l->ncells);
	return buf;
}

const struct grid_cell *grid_row(const struct grid *g, int y)
{
	if (y < 0 || y >= g->rows)
		return NULL;
	const struct line *l = view_line(g, y);
	if (l->ncells >= g->cols && !(l->flags & LINE_PACKED))
		return l->cells;
	/* a scrollback line keeps only its written cells, maybe packed: expand it for the reader */
	struct grid_cell *row = &g->view_buf[(size_t)y * (size_t)g->cols];
	uint64_t abs = g->scr->abs_top - g->view_offset + (uint64_t)y;
	const struct grid_cell *c = grid__line_read(g, l, abs, row);
	if (c != row)
		memcpy(row, c, (size_t)l->ncells * sizeof(*row));
	if (l->ncells < g->cols) {
		grid__clear_cells(row + l->ncells, g->cols - l->ncells, 0);
		/* the selection goes on over the row's blank rest, as it does on a screen row */
		grid__select_apply(g, abs, row, g->cols);
	}
	return row;
}

bool grid_row_wrapped(const struct grid *g, int y)
{
	if (y < 0 || y >= g->rows)
		return false;
	return view_line_raw(g, y)->flags & LINE_WRAPPED;
}

const struct grid_style *grid_style(const struct grid *g, uint16_t id)
{
	if (id >= g->st.cap || !g->st.used[id])
		return &g->st.styles[0];
	return &g->st.styles[id];
}

size_t grid_cell_codepoints(const struct grid *g, const struct grid_cell *c, uint32_t *out, size_t cap)
{
	if (c->cp == 0 || c->width == 0)
		return 0;
	if (!(c->cp & GRID_CP_CLUSTER)) {
		if (cap > 0)
			out[0] = c->cp;
		return 1;
	}
	struct cluster tmp;
	const struct cluster *cl = grid__cluster(g, c->cp, &tmp);
	if (!cl)
		return 0;
	for (size_t i = 0; i < cl->n && i < cap; i++)
		out[i] = cl->cp[i];
	return cl->n;
}

int grid_view_scroll(struct grid *g, int delta)
{
	if (g->scr == &g->alt)
		return 0;
	long long off = (long long)g->view_offset + delta;
	if (off < 0)
		off = 0;
	if ((size_t)off > g->primary.sb_n)
		off = (long long)g->primary.sb_n;
	if ((size_t)off != g->view_offset) {
		g->view_offset = (size_t)off;
		grid_damage_all(g);
	}
	return (int)g->view_offset;
}

int grid_view_offset(const struct grid *g)
{
	return (int)g->view_offset;
}

size_t grid_scrollback_lines(const struct grid *g)
{
	return g->primary.sb_n;
}

const struct grid_cell *grid_scrollback_row(const struct grid *g, size_t i, int *len)
{
	const struct screen *s = &g->primary;
	if (i >= s->sb_n)
		return NULL;
	const struct line *l = s->ring[(s->top + s->cap - s->sb_n + i) % s->cap];
	/* packed lines are expanded into the spare row after the view's */
	const struct grid_cell *c = grid__line_read(g, l, s->abs_top - s->sb_n + i,
						    &g->view_buf[(size_t)g->rows * (size_t)g->cols]);
	int n = grid__min(l->ncells, g->cols);
	/* a wide character's right half (cp 0, width 0) is not a blank: a line ending in one keeps it */
	while (n > 0 && c[n - 1].cp == 0 && c[n - 1].style == 0 && c[n - 1].width == 1)
		n--;
	if (len)
		*len = n;
	return c;
}
