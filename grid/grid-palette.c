/* grid/grid-palette.c: the palette and the OSC functions that set, query and reset it (OSC 4, 104, 10-12,
 * 110-112), with the colour specifications they take; grid-osc.c dispatches to them.
 *
 * Colour specifications are the X11 forms xterm accepts: rgb:h/h/h with 1-4 hex digits per channel, #rgb,
 * #rrggbb, #rrrgggbbb, #rrrrggggbbbb, rgbi:f/f/f with intensities from 0 to 1 and the X11 colour names
 * (grid-colornames.c). A reply ends with the terminator its query ended with, BEL or ST, as in xterm.
 */
#include <stdio.h>
#include <string.h>

#include "grid/grid-internal.h"
#include "grid/grid-palette.h"

/* ---------------------------------------------------------------------------------------- palette */

static uint32_t default_color(int i)
{
	static const uint32_t base[16] = {
		0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
		0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
	};
	if (i < 16)
		return base[i];
	if (i < 232) {
		static const uint8_t lv[6] = {0, 95, 135, 175, 215, 255};
		int v = i - 16;
		return (uint32_t)lv[v / 36] << 16 | (uint32_t)lv[v / 6 % 6] << 8 | lv[v % 6];
	}
	if (i < 256) {
		uint32_t v = (uint32_t)(8 + 10 * (i - 232));
		return v << 16 | v << 8 | v;
	}
	if (i == 257)
		return 0x000000; /* default background */
	return 0xe5e5e5;         /* default foreground and cursor */
}

void grid__palette_init(struct grid *g, const uint32_t *colors)
{
	for (int i = 0; i < 259; i++)
		g->palette_defaults[i] = colors && i < 258 ? colors[i] & 0xffffffu : default_color(i);
	if (colors)
		g->palette_defaults[258] = g->palette_defaults[256]; /* xterm: the cursor takes the foreground */
}

const uint32_t *grid_palette_defaults(const struct grid *g)
{
	return g->palette_defaults;
}

static bool child_set(const struct grid *g, int idx)
{
	return g->palette_set[idx / 8] >> (idx % 8) & 1;
}

/* Entry idx of the palette to c, the child's colour (OSC 4, 10, 11, 12). */
static void set_entry(struct grid *g, int idx, uint32_t c)
{
	g->palette[idx] = c;
	g->palette_set[idx / 8] |= (uint8_t)(1u << (idx % 8));
	grid_damage_all(g);
}

void grid_set_palette_defaults(struct grid *g, const uint32_t *colors)
{
	grid__palette_init(g, colors);
	for (int i = 0; i < 259; i++)
		if (!child_set(g, i))
			g->palette[i] = g->palette_defaults[i];
	grid_damage_all(g);
}

void grid__palette_reset(struct grid *g, int idx)
{
	if (idx < 0) {
		memcpy(g->palette, g->palette_defaults, sizeof(g->palette));
		memset(g->palette_set, 0, sizeof(g->palette_set));
	} else if (idx < 259) {
		g->palette[idx] = g->palette_defaults[idx];
		g->palette_set[idx / 8] &= (uint8_t)~(1u << (idx % 8));
	}
	grid_damage_all(g);
}

int grid__hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* n hex digits scaled to 8 bits. */
static int hex_channel(const char *s, size_t n)
{
	if (n < 1 || n > 4)
		return -1;
	unsigned v = 0;
	for (size_t i = 0; i < n; i++) {
		int h = grid__hexval(s[i]);
		if (h < 0)
			return -1;
		v = v << 4 | (unsigned)h;
	}
	unsigned max = (1u << (4 * n)) - 1;
	return (int)((v * 255 + max / 2) / max);
}

/* One number of an rgbi: spec as Xlib's sscanf("%lf") reads it: spaces, a sign, digits around the decimal
 * point, an exponent. *p moves past it; false when there are no digits. */
static bool scan_float(const char **p, const char *end, char point, double *out)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
		s++;
	bool neg = s < end && *s == '-';
	if (s < end && (*s == '+' || *s == '-'))
		s++;
	double v = 0, unit = 1;
	bool digits = false, frac = false;
	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9') {
			if (frac)
				v += (*s - '0') * (unit /= 10);
			else
				v = v * 10 + (*s - '0');
			digits = true;
		} else if (*s == point && !frac) {
			frac = true;
		} else {
			break;
		}
	}
	if (!digits)
		return false;
	const char *e = s < end && (*s | 0x20) == 'e' ? s + 1 : end;
	bool eneg = e < end && *e == '-';
	if (e < end && (*e == '+' || *e == '-'))
		e++;
	if (e < end && *e >= '0' && *e <= '9') {
		/* past 10^400 a double is 0 or infinite: the bound keeps a hostile exponent's loop short */
		int x = 0;
		for (; e < end && *e >= '0' && *e <= '9'; e++)
			x = x * 10 + (*e - '0') > 400 ? 400 : x * 10 + (*e - '0');
		for (; x > 0; x--)
			v = eneg ? v / 10 : v * 10;
		s = e;
	}
	*out = neg ? -v : v;
	*p = s;
	return true;
}

/* rgbi:r/g/b, s past the prefix: three intensities from 0 to 1 (Xlib's XcmsLRGB_RGBi_ParseString, which
 * ignores what follows the third and tries ',' for the decimal point when '.' fails). Scaled straight to
 * 0-255: Xlib would gamma-correct them for the X screen (docs/conformance.md). */
static bool parse_rgbi(const char *s, const char *end, int ch[3])
{
	for (int attempt = 0; attempt < 2; attempt++) {
		const char *p = s;
		double v[3];
		int i = 0;
		for (; i < 3 && scan_float(&p, end, attempt ? ',' : '.', &v[i]); i++) {
			if (i < 2 && (p == end || *p++ != '/'))
				break;
		}
		if (i < 3)
			continue;
		for (i = 0; i < 3; i++) {
			if (!(v[i] >= 0 && v[i] <= 1))
				return false;
			ch[i] = (int)(v[i] * 255 + 0.5);
		}
		return true;
	}
	return false;
}

static bool parse_color(const char *s, size_t len, uint32_t *out)
{
	int ch[3];
	if (len > 5 && (s[0] | 0x20) == 'r' && (s[1] | 0x20) == 'g' && (s[2] | 0x20) == 'b' && (s[3] | 0x20) == 'i' &&
	    s[4] == ':') {
		if (!parse_rgbi(s + 5, s + len, ch))
			return false;
		*out = (uint32_t)ch[0] << 16 | (uint32_t)ch[1] << 8 | (uint32_t)ch[2];
		return true;
	}
	/* the prefix in any case: XParseColor lowers the spec first */
	if (len > 4 && (s[0] | 0x20) == 'r' && (s[1] | 0x20) == 'g' && (s[2] | 0x20) == 'b' && s[3] == ':') {
		const char *p = s + 4, *end = s + len;
		for (int i = 0; i < 3; i++) {
			const char *q = p;
			while (q < end && *q != '/')
				q++;
			if ((i < 2) != (q < end))
				return false;
			ch[i] = hex_channel(p, (size_t)(q - p));
			if (ch[i] < 0)
				return false;
			p = q + 1;
		}
	} else if (len > 1 && s[0] == '#' && (len - 1) % 3 == 0 && len <= 13) {
		size_t n = (len - 1) / 3;
		for (int i = 0; i < 3; i++) {
			/* #rgb forms are the high bits of each channel, not scaled */
			int v = hex_channel(s + 1 + (size_t)i * n, n);
			if (v < 0)
				return false;
			unsigned raw = 0;
			for (size_t k = 0; k < n; k++)
				raw = raw << 4 | (unsigned)grid__hexval(s[1 + (size_t)i * n + k]);
			ch[i] = (int)(n == 1 ? raw << 4 : raw >> (4 * n - 8));
		}
	} else {
		return grid__color_name(s, len, out);
	}
	*out = (uint32_t)ch[0] << 16 | (uint32_t)ch[1] << 8 | (uint32_t)ch[2];
	return true;
}

static void reply_color(struct grid *g, const char *prefix, uint32_t c)
{
	unsigned r = c >> 16 & 0xff, gr = c >> 8 & 0xff, b = c & 0xff;
	const char *end = vt_parser_string_bel(g->parser) ? "\a" : "\033\\";
	grid__reply(g, "\033]%srgb:%02x%02x/%02x%02x/%02x%02x%s", prefix, r, r, gr, gr, b, b, end);
}

/* A colour index at p as C's strtol reads it: spaces and a sign, then digits (clamped past the palette);
 * -1 when negative. *after is where the digits end, NULL when there are none. */
static int read_index(const char *p, const char *end, const char **after)
{
	while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
		p++;
	bool neg = p < end && *p == '-';
	if (p < end && (*p == '+' || *p == '-'))
		p++;
	int idx = 0;
	const char *d = p;
	for (; d < end && *d >= '0' && *d <= '9'; d++)
		idx = idx < 1000 ? idx * 10 + (*d - '0') : idx;
	*after = d > p ? d : NULL;
	return neg && idx > 0 ? -1 : idx;
}

/* The palette entry OSC 4 and 104 name by idx (0-255). Under reverse video (DECSCNM) the display paints black
 * and white (0 and 7), and bright black and bright white (8 and 15), each in the other's colour (render/palette.c
 * kf_palette_reverse), and OSC 4 and 104 name the colours painted, as in xterm 379, whose ReverseVideo swaps the
 * two entries: each addresses the other's, as OSC 10 and 11 do (dynamic_slot). */
static int ansi_slot(const struct grid *g, int idx)
{
	if (g->modes.reverse_video && idx < 16 && ((idx & 7) == 0 || (idx & 7) == 7))
		return idx ^ 7;
	return idx;
}

/* OSC 104 [; c ...]: the colours listed, up to the first item that is not a number alone (xterm's
 * ResetAnsiColorRequest); an index past the palette is skipped. None listed is all of them. */
void grid__osc_palette_reset(struct grid *g, const char *s, size_t len)
{
	if (len == 0) {
		for (int k = 0; k < 256; k++)
			grid__palette_reset(g, k);
		return;
	}
	for (const char *p = s, *end = s + len; p < end;) {
		const char *q;
		int idx = read_index(p, end, &q);
		if (!q || idx < 0 || (q < end && *q != ';'))
			return;
		if (idx < 256)
			grid__palette_reset(g, ansi_slot(g, idx));
		p = q + 1;
	}
}

/* OSC 4 ; c ; spec [; c ; spec ...], spec a colour or "?" */
void grid__osc_palette(struct grid *g, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *q = memchr(p, ';', (size_t)(end - p));
		if (!q)
			return;
		/* the index as xterm's atoi reads it: what follows the digits is ignored, none is 0 */
		const char *digits_end;
		int idx = read_index(p, q, &digits_end);
		const char *v = q + 1;
		const char *ve = memchr(v, ';', (size_t)(end - v));
		if (!ve)
			ve = end;
		/* an index past the palette, a negative one or a bad spec ends the list, as in xterm's ChangeAnsiColorRequest
		 * ("quit on any error"): the pairs before it stay applied */
		if (idx < 0 || idx >= 256)
			return;
		uint32_t c;
		if (ve - v == 1 && *v == '?') {
			char pre[16];
			snprintf(pre, sizeof(pre), "4;%d;", idx);
			reply_color(g, pre, g->palette[ansi_slot(g, idx)]);
		} else if (parse_color(v, (size_t)(ve - v), &c)) {
			set_entry(g, ansi_slot(g, idx), c);
		} else {
			return;
		}
		p = ve + 1;
	}
}

/* The palette slot OSC 10/11/12 (and 110/111/112) name. Under reverse video (DECSCNM) the display paints the
 * default text in the background colour and the default background in the foreground one, and OSC 10 and 11
 * name the colours painted, as in xterm 379: each addresses the other's slot. */
static int dynamic_slot(const struct grid *g, int which)
{
	if (g->modes.reverse_video && which < 12)
		return 256 + 11 - which;
	return 256 + which - 10;
}

static uint32_t dynamic_color(const struct grid *g, int which)
{
	/* a cursor of the default colour takes the text's (render/paint.c), reversed too */
	if (which == 12 && g->modes.reverse_video && g->palette[258] == g->palette_defaults[258])
		return g->palette[dynamic_slot(g, 10)];
	return g->palette[dynamic_slot(g, which)];
}

/* OSC 10/11/12 ; spec [; spec ...]: each further spec moves to the next of fg, bg, cursor. */
void grid__osc_dynamic(struct grid *g, int which, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	while (which <= 12 && p <= end) {
		const char *q = memchr(p, ';', (size_t)(end - p));
		if (!q)
			q = end;
		uint32_t c;
		if (q - p == 1 && *p == '?') {
			char pre[16];
			snprintf(pre, sizeof(pre), "%d;", which);
			reply_color(g, pre, dynamic_color(g, which));
		} else if (parse_color(p, (size_t)(q - p), &c)) {
			set_entry(g, dynamic_slot(g, which), c);
		}
		which++;
		p = q + 1;
	}
}

void grid__osc_dynamic_reset(struct grid *g, int which)
{
	grid__palette_reset(g, dynamic_slot(g, which));
}
