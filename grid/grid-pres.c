/* grid/grid-pres.c: the VT320/VT420 presentation state reports: DECRQPSR (CSI Ps $ w) answered with
 * DECCIR (Ps 1: the cursor's position, rendition, flags and character sets) or DECTABSR (Ps 2: the
 * tab stops), and DECRSPS (DCS Ps $ t data ST), which takes such a report back.
 *
 * References: the VT420 Programmer Reference Manual (DECRQPSR, DECCIR, DECTABSR, DECRSPS); xterm
 * 379 as measured with tests/tools/xterm-replies.py and xterm-diff.py (docs/conformance.md,
 * "Presentation state reports"). Not on any bulk path: one request or restore at a time. The
 * restore reads the parser's string in place with bounded numbers and allocates nothing; a
 * malformed field ends it, what came before it applied (as in xterm). */
#include <stdio.h>
#include <string.h>

#include "grid/grid-internal.h"

/* DECCIR: DCS 1 $ u Pr;Pc;Pp;Srend;Satt;Sflag;Pgl;Pgr;Scss;Sdesig ST. The position counts from the
 * screen's corner whatever the origin mode (xterm); Srend 0x40 + bold 1, underline 2, blink 4,
 * reverse 8 (the other SGR attributes have no bit); Satt 0x40 + 1 in DEC's protection mode (xterm
 * 379: set by any DECSCA, not by SPA, ended by DECSTR; not the attribute DECSCA 1 gives the
 * characters to come); Sflag 0x40 + origin 1, SS2 2, SS3 4, pending wrap 8; Scss 0x40 + a bit for
 * each of G0..G3 holding a 96-character set (xterm 379 always sends O, all four). */
static void cursor_report(struct grid *g)
{
	const struct grid_style *p = &g->pen;
	int rend = 0x40 | (p->attrs & GRID_ATTR_BOLD ? 1 : 0) |
		   (p->underline == GRID_UNDERLINE_SINGLE ? 2 : 0) |
		   (p->attrs & GRID_ATTR_BLINK ? 4 : 0) | (p->attrs & GRID_ATTR_REVERSE ? 8 : 0);
	int flags = 0x40 | (g->origin ? 1 : 0) | (g->single_shift == 2 ? 2 : 0) |
		    (g->single_shift == 3 ? 4 : 0) | (g->wrap_pending ? 8 : 0);
	int scss = 0x40;
	char desig[9] = "", name[3];
	for (int n = 0; n < 4; n++) {
		if (g->charsets[n] == CHARSET_LATIN1)
			scss |= 1 << n;
		grid__charset_name(g->charsets[n], name);
		strcat(desig, name);
	}
	grid__reply(g, "\033P1$u%d;%d;1;%c;%c;%c;%d;%d;%c;%s\033\\", g->cy + 1, g->cx + 1, rend,
		    !g->protect_off && !g->iso_protect ? 'A' : '@', flags, g->gl, g->gr, scss,
		    desig);
}

/* DECTABSR: DCS 2 $ u Pc/Pc... ST, the stops from column 1 to one past the last column (xterm 379
 * keeps stops past the screen's edge and reports that one: 1/9/.../73/81 at 80 columns). */
static void tabs_report(struct grid *g)
{
	char buf[GRID_MAX_DIM / 8 * 5 + 64];
	size_t n = 0, stops = 0;
	const int end = grid__min(g->cols + 1, GRID_MAX_DIM);
	for (int x = 0; x < end; x++) {
		if (!g->tabs[x])
			continue;
		/* stops closer than every 8 columns at 4096 columns: the report ends early */
		if (n + 8 > sizeof(buf))
			break;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d", n ? "/" : "", x + 1);
		stops++;
	}
	/* grid_work: a stop's number costs about 64 cells of a fill (40 ns): with a stop at every column 5 bytes
	 * asked for 213 at 212 columns, and 256 KiB of them took 0.4 s (1.5 s at 1000 columns, 650 stops) */
	grid__work(g, 64u * stops + (uint64_t)end / 8u);
	grid__reply(g, "\033P2$u%.*s\033\\", (int)n, buf);
}

void grid__request_pres(struct grid *g, int ps)
{
	if (ps == 1)
		cursor_report(g);
	else if (ps == 2)
		tabs_report(g);
}

/* ------------------------------------------------------------------------------------------
 * DECRSPS */

/* A reader of one report's fields: a position in s[0..len) and what ends a field. */
struct fields {
	const char *s, *end;
	char sep;
};

/* The next field as a decimal number (digits only, at least one, 0..max); -1 when it is not one.
 * Digits followed by something else than the separator are taken, and the fields after them are not
 * (xterm 379 restores the row of "3:4"). */
static int field_num(struct fields *f, int max)
{
	int v = 0;
	const char *p = f->s;
	while (p < f->end && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v > max)
			return -1; /* also bounds v: never more than max * 10 + 9 */
	}
	if (p == f->s)
		return -1;
	if (p < f->end && *p != f->sep)
		f->s = f->end;
	else
		f->s = p < f->end ? p + 1 : p;
	return v;
}

/* The next field as one character in 0x40..0x4f (DEC's bit fields): its low 4 bits, else -1 */
static int field_bits(struct fields *f)
{
	if (f->s >= f->end || (*f->s & 0xf0) != 0x40 || (f->s + 1 < f->end && f->s[1] != f->sep))
		return -1;
	int v = *f->s & 0x0f;
	f->s += f->s + 1 < f->end ? 2 : 1;
	return v;
}

/* The designators, G0 first: each a final, or a prefix (% " &) and a final, with no separator; Scss
 * says which are 96-character sets. One that is not known designates ASCII: a restore sets a
 * definite state, and xterm 379, which sends Scss O (all 96) for its 94-character sets, takes every
 * designator back as ASCII (vttest restores its reports, B for each set). */
static void restore_charsets(struct grid *g, struct fields *f, int scss)
{
	const char *p = f->s;
	for (int n = 0; n < 4 && p < f->end && *p != f->sep; n++) {
		uint8_t prefix = 0;
		if (*p == '%' || *p == '"' || *p == '&') {
			prefix = (uint8_t)*p++;
			if (p >= f->end || *p == f->sep)
				break;
		}
		/* G0 never holds a 96-character set (VT420 manual; nor is there an ESC , here) */
		uint8_t cs = grid__charset_for(prefix, (uint8_t)*p++, n > 0 && (scss & (1 << n)));
		g->charsets[n] = cs == CHARSET_NONE ? CHARSET_ASCII : cs;
	}
}

/* DECRSPS 1: a DECCIR report, its fields taken in order, each as soon as it is read (xterm 379: a
 * row that fits moves the cursor even when the column after it does not). The Scss field is only
 * read for the designators after it. */
static void restore_cursor_info(struct grid *g, const char *s, size_t len)
{
	struct fields f = {s, s + len, ';'};
	int v;
	if ((v = field_num(&f, g->rows)) < 1)
		return;
	g->cy = v - 1;
	g->wrap_pending = g->wrap_pending && g->cx == grid__right_limit(g);
	if ((v = field_num(&f, g->cols)) < 1)
		return;
	g->cx = v - 1;
	g->wrap_pending = g->wrap_pending && g->cx == grid__right_limit(g);
	if (field_num(&f, 1) != 1) /* the page: a console has one */
		return;
	if ((v = field_bits(&f)) < 0)
		return;
	g->pen.attrs &= (uint16_t) ~(GRID_ATTR_BOLD | GRID_ATTR_BLINK | GRID_ATTR_REVERSE);
	g->pen.attrs |= (uint16_t)((v & 1 ? GRID_ATTR_BOLD : 0) | (v & 4 ? GRID_ATTR_BLINK : 0) |
				   (v & 8 ? GRID_ATTR_REVERSE : 0));
	if (v & 2)
		g->pen.underline = GRID_UNDERLINE_SINGLE;
	else if (g->pen.underline == GRID_UNDERLINE_SINGLE)
		g->pen.underline =
		    GRID_UNDERLINE_NONE; /* the other styles have no bit (xterm keeps its double) */
	g->pen_dirty = true;
	g->pen_from = NULL;
	/* Satt: DEC's protection mode on or off, the attribute of the characters to come left as it
	 * is (xterm 379: vttest's "Selective erase, should be blank" after restoring Satt A) */
	if ((v = field_bits(&f)) < 0 || v > 1)
		return;
	g->protect_off = v == 0;
	grid__iso_protect_mode(g, false);
	if ((v = field_bits(&f)) < 0)
		return;
	g->origin = v & 1;
	g->single_shift = v & 4 ? 3 : v & 2 ? 2 : 0;
	/* a wrap pends only at the right margin here (grid__restore_cursor): xterm keeps the flag
	 * anywhere */
	g->wrap_pending = (v & 8) && g->cx == grid__right_limit(g);
	grid__print_mode(g);
	if ((v = field_num(&f, 3)) < 0)
		return;
	g->gl = (uint8_t)v;
	grid__print_mode(g);
	if ((v = field_num(&f, 3)) < 0)
		return;
	g->gr = (uint8_t)v;
	if ((v = field_bits(&f)) < 0)
		return;
	restore_charsets(g, &f, v);
	grid__print_mode(g);
}

/* DECRSPS 2: a DECTABSR report: every stop cleared, then the ones listed set, up to the first that
 * is not a column from 1 to one past the last (xterm 379; it also stops after 26, which is not
 * followed here). */
static void restore_tabs(struct grid *g, const char *s, size_t len)
{
	struct fields f = {s, s + len, '/'};
	memset(g->tabs, 0, GRID_MAX_DIM);
	const int max = grid__min(g->cols + 1, GRID_MAX_DIM);
	int v;
	while (f.s < f.end && (v = field_num(&f, max)) >= 1)
		g->tabs[v - 1] = 1;
}

void grid__restore_pres(struct grid *g, int ps, const char *s, size_t len)
{
	if (ps == 1)
		restore_cursor_info(g, s, len);
	else if (ps == 2)
		restore_tabs(g, s, len);
}
