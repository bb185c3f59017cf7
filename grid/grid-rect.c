/* grid/grid-rect.c: DECRQCRA, the checksum of a rectangular area.
 *
 * `CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y` asks for a checksum of the cells in rows Pt..Pb, columns Pl..Pr
 * (1-based, inclusive); the terminal answers `DCS Pid ! ~ XXXX ST` (DECCKSR), four upper-case hex digits.
 * Test suites (esctest, vttest) read the screen back through it, one cell at a time.
 *
 * DEC's manuals (VT420/VT510 DECRQCRA) do not define the sum, so xterm is the reference: xterm 379 at its
 * default (`checksumExtension` 0), as tests/tools/xterm-replies.py measures it (UTF-8 mode):
 * - every cell counts, a cell nothing was written to (or erased since: our cp 0) as a space; blanks (spaces
 *   without attributes nothing was written to) are trimmed, except the rectangle's first cell, which always
 *   counts: an empty screen answers FFE0. A printed space counts (0x20).
 * - a character counts as the low byte of its code point ('é' U+00E9 counts 0xe9, '€' U+20AC 0xac, DEC
 *   special graphics, stored as Unicode, U+2500 0); a wide character's right half counts 0xff (xterm's
 *   placeholder there); combining marks do not count. An invisible (SGR 8) character counts as a space, and
 *   an invisible wide character's right half as a blank.
 * - each counted cell adds its video attributes: underline 0x10 (xterm's single underline: not double),
 *   inverse 0x20, blink 0x40, bold 0x80. Colours, protection (DECSCA) and invisibility do not count.
 * - the total is negated and reported modulo 2^16.
 * Not followed (docs/conformance.md): xterm precomposes a base and a combining mark into one character as
 * they come, from a table of its own with gaps (e U+0301 counts as U+00E9, 0xe9; a U+0323 U+0302 stops at
 * U+1EA1); the cells ECH, EL 1, ED 1, ICH and DECIC blank count as spaces there, ours are erased (cp 0), and
 * so do the cells any erase blanks while the pen has a colour and those DECCRA copies from blanks.
 * The page Pp is ignored, as xterm ignores it: there is one page, the screen on display (the alternate one
 * when it is active), never the scrollback. The rectangle is always read from the third parameter on, as
 * DEC's format has it (xterm, given only Pid and Pp, reads them as Pt and Pl: it skips the first two
 * parameters only when there are more than two).
 *
 * XTCHECKSUM (`CSI Ps # y`, xterm) selects xterm's other variants, bit by bit (see CS_* below); RIS returns
 * to DEC's.
 *
 * The rectangle: an omitted or 0 edge takes its default (first row/column, last row/column); in origin mode
 * (DECOM) the coordinates count from the top-left margin and the bottom and right edges are clipped to the
 * margins, else to the screen; a top or left edge past them, or top > bottom or left > right, makes an empty
 * rectangle, which sums to 0 and is answered all the same (xterm 379 answers 0000; grid__rect_parse, as for
 * DECFRA and the others).
 */
#include "grid/grid-internal.h"
#include "grid/grid-rect.h"

static unsigned attr_weight(const struct grid_style *s)
{
	unsigned w = 0;
	if (s->underline != GRID_UNDERLINE_NONE && s->underline != GRID_UNDERLINE_DOUBLE)
		w += 0x10;
	if (s->attrs & GRID_ATTR_REVERSE)
		w += 0x20;
	if (s->attrs & GRID_ATTR_BLINK)
		w += 0x40;
	if (s->attrs & GRID_ATTR_BOLD)
		w += 0x80;
	return w;
}

/* XTCHECKSUM bits (xterm's checksumExtension): each one leaves out a part of DEC's calculation. */
enum {
	CS_POSITIVE = 1, /* do not negate */
	CS_ATTRIBS = 2,  /* do not add the video attributes */
	CS_NOTRIM = 4,   /* count blanks: cells nothing was written to count as spaces, marks count */
	CS_DRAWN = 8,    /* cells nothing was written to count as spaces, trimmed: xterm 379 does so anyway;
	                  * with CS_NOTRIM they count nothing */
	CS_BYTE = 16,    /* the code point itself, not its low byte (a right half 0xffff); marks do not count */
};

static unsigned char_value(const struct grid *g, const struct grid_cell *c, unsigned mode, unsigned *marks)
{
	uint32_t cp = c->cp;
	*marks = 0;
	if (cp & GRID_CP_CLUSTER) {
		struct cluster tmp;
		const struct cluster *cl = grid__cluster(g, cp, &tmp);
		cp = cl && cl->n ? cl->cp[0] : 0x1b;
		for (uint32_t i = 1; cl && i < cl->n; i++)
			*marks += cl->cp[i];
	}
	if (mode & CS_BYTE)
		return c->width == 0 ? 0xffff : cp; /* a right half: xterm's placeholder there, whole */
	return c->width == 0 ? 0xff : cp & 0xff;
}

/* The 16-bit checksum of screen rows y0..y1, columns x0..x1 (0-based, inclusive, inside the screen), as
 * xterm's xtermCheckRect computes it for checksumExtension mode (0 = DEC's). */
static unsigned rect_checksum(const struct grid *g, int y0, int x0, int y1, int x1, unsigned mode)
{
	unsigned total = 0, trimmed = 0, embedded = 0;
	bool first = true;
	for (int y = y0; y <= y1; y++) {
		const struct line *l = grid__line(g, y);
		for (int x = x0; x <= x1; x++) {
			const struct grid_cell *c = &l->cells[x];
			const struct grid_style *st = grid_style(g, c->style);
			bool drawn = c->cp != 0 || c->width == 0; /* else never written, or erased */
			/* (whole code points or not: xterm 379 reads invisible text as blanks under XTCHECKSUM 16 too) */
			bool hidden = drawn && (st->attrs & GRID_ATTR_INVISIBLE);
			unsigned marks = 0;
			unsigned ch = drawn && !hidden ? char_value(g, c, mode, &marks) : ' ';
			if (hidden && c->width == 0)
				drawn = false; /* an invisible wide character's right half: a blank */
			else if (!(mode & CS_ATTRIBS))
				ch += attr_weight(st);
			/* a blank counts as a space, but nothing with 4 and 8 together (xterm 379 measured) */
			if (!drawn && (mode & (CS_NOTRIM | CS_DRAWN)) == (CS_NOTRIM | CS_DRAWN))
				ch = 0;
			/* trimming drops blanks (a space with no attributes nothing was written to), except the
			 * rectangle's first cell */
			if (first || ch != ' ' || drawn) {
				trimmed += ch + embedded;
				embedded = 0;
			} else if (mode & CS_NOTRIM) {
				embedded += ch;
			}
			total += ch;
			if (!(mode & CS_BYTE))
				total += marks; /* xterm counts marks in the untrimmed sum only */
			first = (mode & CS_NOTRIM) != 0;
		}
		if (!(mode & CS_NOTRIM)) {
			embedded = 0;
			first = false;
		}
	}
	unsigned sum = mode & CS_NOTRIM ? total : trimmed;
	return (mode & CS_POSITIVE ? sum : 0u - sum) & 0xffffu;
}

void grid__request_checksum(struct grid *g, const struct vt_csi *csi)
{
	/* read as the rectangle editing functions read theirs: a top or left edge past the area leaves it empty
	 * (xterm 379 answers 0000 there), the bottom and right edges are clipped to it */
	struct grid_rect r;
	unsigned sum = 0;
	if (grid__rect_parse(g, csi, 2, &r)) {
		/* grid_work: about four times a fill's work per cell (measured: 1.4 s per 256 KiB of DECRQCRA
		 * over 212x82, 0.45 s of DECFRA) */
		grid__work(g, 4u * (uint64_t)(r.y1 - r.y0 + 1) * (uint64_t)(r.x1 - r.x0 + 1));
		sum = rect_checksum(g, r.y0, r.x0, r.y1, r.x1, g->checksum_ext);
	}
	/* an omitted Pid is 0, DEC's default for a numeric parameter (xterm would echo its internal -1) */
	int pid = csi->n_params && csi->params[0] != VT_PARAM_DEFAULT ? csi->params[0] : 0;
	grid__reply(g, "\033P%d!~%04X\033\\", pid, sum);
}

void grid__select_checksum(struct grid *g, const struct vt_csi *csi)
{
	int v = csi->n_params ? csi->params[0] : 0;
	g->checksum_ext = (uint8_t)(v > 0 ? v & 0x1f : 0);
}
