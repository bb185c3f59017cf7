/* grid/grid-print-text.h: the printer's side of a row's text (LINE_ASCII: its bytes kept for the
 * scrollback) and of a row whose cells are deferred (LINE_LAZY: the text alone, its cells written when one
 * reads them, grid__line_materialise). Only for grid-print.c, which includes it once, where these stood: static
 * always-inline functions for its ASCII paths, apart to keep grid-print.c under ~800 lines; the code is what it
 * was in one file.
 */
#ifndef GRID_PRINT_TEXT_H
#define GRID_PRINT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grid/grid-internal.h"

/* Copies n bytes of text to t (a line's text from column 0: room for whole vectors up to the line's
 * width rounded up to 16), reading only s[0, n): 16 bytes at a time, the last 16 overlapping the ones
 * before; shorter runs as two overlapping words. */
static inline __attribute__((always_inline)) void text_copy(uint8_t *t, const uint8_t *s, size_t n)
{
#if defined(__SSE2__)
	if (n >= 16) {
		for (size_t i = 0; i + 16 < n; i += 16)
			_mm_storeu_si128((__m128i *)(void *)(t + i), _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
		_mm_storeu_si128((__m128i *)(void *)(t + n - 16),
				 _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16)));
		return;
	}
#endif
	if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(t, &a, 8);
		memcpy(t + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(t, &a, 4);
		memcpy(t + n - 4, &b, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			t[i] = s[i];
	}
}

/* Before n ASCII cells in style (and link) are written to line l from column 0, with l->used still the
 * line's extent before them: the line is LINE_ASCII afterwards when it was blank past them (a line of a text
 * flood, its first run after the erase), or was LINE_ASCII in this style already, and has no link; then its
 * text bytes get the run's, for the scrollback (grid__hist_text). A run from any other column clears the
 * flag instead (the caller), where a run from column 0 is nearly always a fresh line. */
static inline __attribute__((always_inline)) void text_start(struct line *l, const uint8_t *s, size_t n,
							     uint16_t style, uint16_t link)
{
	const unsigned f = l->flags;
	if (link == 0 && (n >= l->used || (f & LINE_ASCII && l->pstyle == style))) {
		l->flags = (uint16_t)(f | LINE_ASCII);
		l->pstyle = style;
		text_copy(l->text, s, n);
	} else {
		l->flags = (uint16_t)(f & ~LINE_ASCII);
	}
}

/* print_ascii_run's run of n bytes from column 0 on a row that may reach the scrollback: whether it can go
 * into the row's text alone, its cells deferred (LINE_LAZY). So on a row with nothing written (used == 0: all
 * its cells are default blanks), or on a lazy row that the run covers or that has its style; never with a
 * link (a lazy row has none). */
static inline __attribute__((always_inline)) bool lazy_start(const struct line *l, size_t n, uint16_t style,
							     uint16_t link)
{
	return link == 0 && (l->used == 0 || (l->flags & LINE_LAZY && ((size_t)l->used <= n || l->pstyle == style)));
}

/* The same from column x > 0 (cursor motion within a flood's line): only on a lazy row in the run's style
 * that it continues or overwrites (x <= used). */
static inline __attribute__((always_inline)) bool lazy_more(const struct line *l, int x, uint16_t style,
							    uint16_t link)
{
	return link == 0 && x <= l->used && l->pstyle == style;
}

/* The run into the text of a row that lazy_start or lazy_more allowed. */
static inline __attribute__((always_inline)) void lazy_put(struct line *l, int x, const uint8_t *s, size_t n,
							   uint16_t style)
{
	l->flags |= LINE_ASCII | LINE_LAZY;
	l->pstyle = style;
	text_copy(l->text + x, s, n);
	grid__line_touch(l, x + (int)n);
}

#endif
