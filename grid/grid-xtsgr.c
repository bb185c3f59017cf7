/* grid/grid-xtsgr.c: xterm's SGR stack and SGR report (cold: reached from grid-csi.c's rare sequences).
 *
 * XTPUSHSGR `CSI Pm # {` (alias `CSI Pm # p`) saves the pen's video attributes and colours; XTPOPSGR
 * `CSI # }` (alias `CSI # q`) puts back what the matching push saved. Prompts and libraries use the pair to
 * draw in their own colours and leave the application's pen as they found it. ctlseqs names the parts a push
 * may save by their SGR numbers: 1 bold, 2 faint, 3 italic, 4 underline, 5 blink, 7 inverse, 8 invisible,
 * 9 crossed-out, 21 double underline, 30 foreground, 31 background (10 and 11 are their older numbers); no
 * parameter saves everything; the stack has 10 levels. As xterm 379 does (tests/tools/xterm-replies.py,
 * family xtsgr-*, session 48):
 * - a pop restores only the parts its push named; the others keep what was set since. A single parameter
 *   left empty (`CSI # {`) is everything, any other list names what it names: `CSI ; # {` and `CSI 0 # {`
 *   push a level that restores nothing. Numbers that name no part are ignored.
 * - pushes past the 10th are counted and save nothing: their pops restore nothing, the 10 saved pens come
 *   back after them (15 pushes, then 5 pops that change nothing). A pop with nothing pushed does nothing.
 * - one stack for both screens, apart from DECSC/DECRC; DECSTR keeps it. DECSCA's protection is not part of
 *   it. A sequence with a sub-parameter (':') or a private marker is ignored.
 * Not as xterm (docs/conformance.md): RIS empties the stack (xterm's keeps it); single and double underline
 *   are one attribute here, so a pop of one of them alone keeps a double underline set since; a pop of
 *   everything also restores overline, the underline style and colour, which xterm 379 has not (the
 *   underline colour comes back with 4 or 21 too).
 *
 * XTREPORTSGR `CSI Pt ; Pl ; Pb ; Pr # |` answers the SGR the cells of the rectangle have in common, as
 * `CSI 0 ; Ps ... m` (xterm 379's form and order: 1 4 5 7 2 3 9 21, the foreground, the background; a
 * colour as 30-37, 90-97 or 40-47, 100-107 for palette entries 0-15, else `38:5:n`, `38:2::r:g:b`). The
 * rectangle is read as DECCRA's and DECRQCRA's (grid__rect_parse: origin mode, defaults, clipping); an empty
 * one answers `CSI 0 m`. A colour is common when every cell has it; underlined cells in different styles
 * have 4 in common. Reported here and not by xterm 379: invisible (8, after 7), the underline styles in
 * 4's place (`4:3`), overline (53, after 21) and the underline colour (`58:5:n`, `58:2::r:g:b`, last). An
 * erased cell keeps the pen's background only (xterm: its foreground too), and a basic colour is reported
 * as it was set (xterm reports SGR 31 written in bold as 91), as for DECRQSS.
 */
#include <stdio.h>

#include "grid/grid-internal.h"
#include "grid/grid-rect.h"

#define PART(n) (1u << (n))
#define PARTS_ALL UINT32_MAX

/* The attributes a push names one by one, by their SGR numbers */
static const struct {
	uint8_t sgr;
	uint16_t attr;
} named[] = {
	{1, GRID_ATTR_BOLD},  {2, GRID_ATTR_DIM},	{3, GRID_ATTR_ITALIC},	   {5, GRID_ATTR_BLINK},
	{7, GRID_ATTR_REVERSE}, {8, GRID_ATTR_INVISIBLE}, {9, GRID_ATTR_STRIKE},
};

static void push(struct grid *g, const struct vt_csi *csi)
{
	uint32_t parts = 0;
	if (csi->n_params == 0 || (csi->n_params == 1 && csi->params[0] == VT_PARAM_DEFAULT)) {
		parts = PARTS_ALL;
	} else {
		for (unsigned i = 0; i < csi->n_params; i++) {
			int v = csi->params[i];
			if (v == 10 || v == 11)
				v += 20; /* the foreground's and background's first numbers */
			if (v > 0 && v < 32)
				parts |= PART(v);
		}
	}
	if (g->sgr_depth < SGR_STACK_MAX)
		g->sgr_stack[g->sgr_depth] = (struct sgr_saved){g->pen, parts};
	if (g->sgr_depth < UINT32_MAX)
		g->sgr_depth++;
}

/* The underline parts of saved put back into p: 4 (single, or a style) and 21 (double) are two attributes in
 * xterm, one value here, where a double one shows when both are set (as SGR 4;21 gives) */
static void pop_underline(struct grid_style *p, const struct sgr_saved *saved)
{
	bool single = saved->parts & PART(4), dbl = saved->parts & PART(21);
	uint8_t was = saved->pen.underline;
	if (single && dbl)
		p->underline = was;
	else if (single && p->underline != GRID_UNDERLINE_DOUBLE)
		p->underline = was == GRID_UNDERLINE_DOUBLE ? GRID_UNDERLINE_NONE : was;
	else if (dbl && was == GRID_UNDERLINE_DOUBLE)
		p->underline = GRID_UNDERLINE_DOUBLE;
	else if (dbl && p->underline == GRID_UNDERLINE_DOUBLE)
		p->underline = GRID_UNDERLINE_NONE;
	if (single || dbl)
		p->ul_color = saved->pen.ul_color;
}

static void pop(struct grid *g)
{
	if (!g->sgr_depth)
		return;
	uint32_t d = --g->sgr_depth;
	if (d >= SGR_STACK_MAX)
		return; /* a push past the stack's room saved nothing */
	const struct sgr_saved *saved = &g->sgr_stack[d];
	struct grid_style *p = &g->pen;
	if (saved->parts == PARTS_ALL) {
		*p = saved->pen;
	} else {
		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (saved->parts & PART(named[i].sgr))
				p->attrs = (uint16_t)((p->attrs & ~named[i].attr) | (saved->pen.attrs & named[i].attr));
		pop_underline(p, saved);
		if (saved->parts & PART(30))
			p->fg = saved->pen.fg;
		if (saved->parts & PART(31))
			p->bg = saved->pen.bg;
	}
	/* the pen changed outside SGR: its id and the erase style are found again, and the memoized SGR that
	 * made the pen before must not learn this one as its result */
	g->pen_dirty = true;
	g->pen_from = NULL;
	g->erase_dirty = true;
}

/* ";Ps" for colour c as xterm 379 reports it (base 38, 48 or 58); nothing for the default */
static int report_color(char *buf, size_t cap, uint32_t c, int base)
{
	unsigned v = c & 0xffffffu;
	if (GRID_COLOR_KIND(c) == GRID_COLOR_KIND_RGB)
		return snprintf(buf, cap, ";%d:2::%u:%u:%u", base, v >> 16, v >> 8 & 0xff, v & 0xff);
	if (GRID_COLOR_KIND(c) != GRID_COLOR_KIND_PALETTE)
		return 0;
	if (base != 58 && v < 16) /* 30-37, 90-97; 40-47, 100-107 */
		return snprintf(buf, cap, ";%u", v < 8 ? (unsigned)base - 8 + v : (base == 38 ? 90u : 100u) + v - 8);
	return snprintf(buf, cap, ";%d:5:%u", base, v);
}

static bool underlined(uint8_t u)
{
	return u != GRID_UNDERLINE_NONE && u != GRID_UNDERLINE_DOUBLE;
}

static void report(struct grid *g, const struct vt_csi *csi)
{
	struct grid_rect r;
	char buf[160];
	size_t n = 0;
	buf[0] = '\0';
	if (grid__rect_parse(g, csi, 0, &r)) {
		/* grid_work: twice the cells it reads (measured against DECRQCRA's four: 3.5 ns a cell on a screen
		 * of alternating styles, 0.7 ns on one style, DECRQCRA 6.5 ns; 20,000 reports of 240x67 took 1.1 s
		 * uncounted, so a flood of these 4-byte sequences held the session's loop for seconds a read) */
		grid__work(g, 2u * (uint64_t)(r.y1 - r.y0 + 1) * (uint64_t)(r.x1 - r.x0 + 1));
		/* what every cell has: the first cell's style, narrowed by the others (a run of one style once) */
		struct grid_style c = *grid_style(g, grid__line(g, r.y0)->cells[r.x0].style);
		bool all_underlined = underlined(c.underline);
		uint16_t last = UINT16_MAX;
		for (int y = r.y0; y <= r.y1; y++) {
			const struct grid_cell *cells = grid__line(g, y)->cells;
			for (int x = r.x0; x <= r.x1; x++) {
				if (cells[x].style == last)
					continue;
				last = cells[x].style;
				const struct grid_style *s = grid_style(g, last);
				c.attrs &= s->attrs;
				all_underlined = all_underlined && underlined(s->underline);
				if (s->underline != c.underline)
					c.underline = all_underlined ? GRID_UNDERLINE_SINGLE : GRID_UNDERLINE_NONE;
				if (s->fg != c.fg)
					c.fg = GRID_COLOR_DEFAULT;
				if (s->bg != c.bg)
					c.bg = GRID_COLOR_DEFAULT;
				if (s->ul_color != c.ul_color)
					c.ul_color = GRID_COLOR_DEFAULT;
			}
		}
		static const struct {
			uint16_t attr; /* 0: the underline, in its place */
			const char *s;
		} order[] = {
			{GRID_ATTR_BOLD, ";1"},	  {0, NULL},		  {GRID_ATTR_BLINK, ";5"}, {GRID_ATTR_REVERSE, ";7"},
			{GRID_ATTR_INVISIBLE, ";8"}, {GRID_ATTR_DIM, ";2"},	  {GRID_ATTR_ITALIC, ";3"}, {GRID_ATTR_STRIKE, ";9"},
		};
		const size_t cap = sizeof(buf);
		for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			if (order[i].s && (c.attrs & order[i].attr))
				n += (size_t)snprintf(buf + n, cap - n, "%s", order[i].s);
			else if (!order[i].s && c.underline == GRID_UNDERLINE_SINGLE)
				n += (size_t)snprintf(buf + n, cap - n, ";4");
			else if (!order[i].s && underlined(c.underline))
				n += (size_t)snprintf(buf + n, cap - n, ";4:%u", c.underline);
		}
		if (c.underline == GRID_UNDERLINE_DOUBLE)
			n += (size_t)snprintf(buf + n, cap - n, ";21");
		if (c.attrs & GRID_ATTR_OVERLINE)
			n += (size_t)snprintf(buf + n, cap - n, ";53");
		n += (size_t)report_color(buf + n, cap - n, c.fg, 38);
		n += (size_t)report_color(buf + n, cap - n, c.bg, 48);
		n += (size_t)report_color(buf + n, cap - n, c.ul_color, 58);
	}
	grid__reply(g, "\033[0%sm", buf);
}

bool grid__xtsgr_csi(struct grid *g, const struct vt_csi *csi)
{
	switch (csi->final) {
	case '{':
	case 'p':
		if (!csi->sub_mask)
			push(g, csi);
		return true;
	case '}':
	case 'q':
		if (!csi->sub_mask)
			pop(g);
		return true;
	case '|':
		if (!csi->sub_mask)
			report(g, csi);
		return true;
	default:
		return false;
	}
}
