/* grid/grid-print.h: what grid-print.c (code points, ASCII, REP) and grid-utf8.c (UTF-8 text decoded while
 * it is written) share. Internal to grid/. */
#ifndef GRID_GRID_PRINT_H
#define GRID_GRID_PRINT_H

#include <string.h>

#include "grid/grid-internal.h"

/* cp (below 0x7f) as charset cs (CHARSET_*) shows it (the DEC Special Graphics, DEC Supplemental and DEC
 * Technical tables in grid-charset.c; ISO Latin-1 Supplemental is Latin-1's upper half) */
extern const uint16_t grid__dec_graphics[32];
extern const uint16_t grid__dec_technical[94];
uint32_t grid__dec_supplemental(uint32_t cp);
static inline uint32_t grid__map_charset(uint8_t cs, uint32_t cp)
{
	if (cs == CHARSET_DEC_GRAPHICS && cp >= 0x5f && cp <= 0x7e)
		return grid__dec_graphics[cp - 0x5f];
	if (cs == CHARSET_UK && cp == '#')
		return 0x00a3;
	if (cs == CHARSET_DEC_SUPPLEMENTAL || cs == CHARSET_DEC_SUPP_GRAPHIC)
		return grid__dec_supplemental(cp);
	if (cs == CHARSET_LATIN1 && cp >= 0x20)
		return cp + 0x80; /* a 96-character set: space is its first character, NBSP (xterm) */
	if (cs == CHARSET_DEC_TECHNICAL && cp >= 0x21)
		return grid__dec_technical[cp - 0x21];
	return cp;
}

static inline uint16_t grid__cur_style(struct grid *g)
{
	return likely(!g->pen_dirty) ? g->pen_id : grid__pen_id(g);
}

/* Scripts with SpacingMark, Prepend or Hangul jamo (UAX #29 GB6-9b), as a chain of range tests ordered
 * so that Latin, CJK and emoji leave early. */
static inline bool grid__complex_script(uint32_t c)
{
	if (c < 0x600)
		return false;
	if (c < 0x1200)
		return true;
	if (c < 0x1700)
		return false;
	if (c < 0x1d00)
		return true;
	if (c < 0xa800)
		return false;
	if (c < 0xd800)
		return true;
	if (c < 0xff9e)
		return false;
	if (c < 0xffa0)
		return true;
	if (c < 0x11000)
		return false;
	if (c < 0x12000)
		return true;
	return (c >= 0x16f00 && c < 0x17000) || (c >= 0x1d100 && c < 0x1d200);
}

/* grid__may_join past its quick no (grid__plain_stretch). */
static inline bool grid__may_join_rest(uint32_t prev, uint32_t cp)
{
	return prev == 0x200d || (cp >= 0x1f1e6 && cp <= 0x1f1ff) || (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
	       grid__complex_script(cp) || grid__complex_script(prev);
}

/* The quick no of grid__may_join for one code point: below the first complex script, or in the plain
 * stretch from Phonetic Extensions to CJK (punctuation, symbols, box drawing and blocks, ideographs:
 * per-cell colour art) other than ZWJ; none of the cases of grid__may_join_rest holds for a pair of them. */
static inline unsigned grid__plain_stretch(uint32_t c)
{
	return (c < 0x600) | ((c - 0x1d00u < 0xa800u - 0x1d00u) & (c != 0x200d));
}

/* Whether cp may continue the cluster ending in prev (cp has a width): only then is vt_grapheme_break
 * asked. The cases UAX #29 joins are ZWJ sequences (GB11), regional-indicator pairs (GB12/13), Extend
 * characters with a width (emoji modifiers, halfwidth sound marks), and Hangul syllables (GB6-8), the last
 * only in the scripts listed in grid__complex_script(). Those scripts' SpacingMarks and Prepend are asked
 * about too, though vt_grapheme_break never joins them (it leaves GB9a/b out: vt/unicode.c). */
static inline bool grid__may_join(uint32_t prev, uint32_t cp)
{
	/* grid__plain_stretch of both, with branches: the run paths meet one script at a time */
	if ((cp < 0x600 || (cp - 0x1d00u < 0xa800u - 0x1d00u && cp != 0x200d)) &&
	    (prev < 0x600 || (prev - 0x1d00u < 0xa800u - 0x1d00u && prev != 0x200d)))
		return false;
	return grid__may_join_rest(prev, cp);
}

/* grid__may_join for the one-cell paths: both quick tests always made (bitwise), since one-cell printers
 * alternate between such ranges (a space, a block element) and per-test branches would be mispredicted. */
static inline bool grid__may_join_cell(uint32_t prev, uint32_t cp)
{
	if (grid__plain_stretch(cp) & grid__plain_stretch(prev))
		return false;
	return grid__may_join_rest(prev, cp);
}

/* Stores a cell: {cp, style, link} as one 64-bit word (hi holds style and link, see write_ascii) and
 * {width, flags = 0, pad} as one 32-bit word. */
static inline void grid__put_cell(struct grid_cell *c, uint32_t cp, uint64_t hi, uint32_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t a = cp | hi;
	memcpy(c, &a, 8);
	memcpy((unsigned char *)c + 8, &w, 4);
#else
	*c = (struct grid_cell){.cp = cp, .style = (uint16_t)(hi >> 32), .link = (uint16_t)(hi >> 48),
				.width = (uint8_t)w};
#endif
}

/* Wraps to the next row (deferred autowrap): marks the cursor's row soft-wrapped (grid-print.c). */
void grid__do_wrap(struct grid *g);
/* grid-utf8.c: appends the combining mark cp to cell c of the cursor's row, through the cluster cache;
 * c points into the grid's cells (not owned). */
void grid__attach_mark(struct grid *g, struct grid_cell *c, uint32_t cp);
/* grid-utf8.c: the end of a row segment written from column x0 to x, see there. l is the cursor's row. */
void grid__end_run(struct grid *g, struct line *l, int x0, uint32_t x, uint32_t lastw, bool fix_left,
		   uint32_t last);

#endif
