/* grid/grid-osc.c: OSC and DCS strings: titles, the palette and its queries, hyperlinks, the clipboard,
 * DECRQSS; the title stack.
 *
 * References: xterm ctlseqs "Operating System Commands", "DCS $ q Pt ST" and "DCS + q Pt ST"; OSC 8 hyperlinks
 * (https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda). Colour specifications are the X11
 * forms xterm accepts: rgb:h/h/h with 1-4 hex digits per channel, #rgb, #rrggbb, #rrrgggbbb,
 * #rrrrggggbbbb, rgbi:f/f/f with intensities from 0 to 1 and the X11 colour names (grid-colornames.c). A
 * reply ends with the terminator its query ended with, BEL or ST, as in xterm.
 * OSC 52 queries get no answer unless allowed (grid_config.allow_clipboard_read): grid/ holds no clipboard, so
 * its contents come from the clipboard_get callback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

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

void grid_set_palette_defaults(struct grid *g, const uint32_t *colors)
{
	uint32_t old[259];
	memcpy(old, g->palette_defaults, sizeof(old));
	grid__palette_init(g, colors);
	for (int i = 0; i < 259; i++)
		if (g->palette[i] == old[i])
			g->palette[i] = g->palette_defaults[i];
	grid_damage_all(g);
}

void grid__palette_reset(struct grid *g, int idx)
{
	if (idx < 0) {
		memcpy(g->palette, g->palette_defaults, sizeof(g->palette));
	} else if (idx < 259) {
		g->palette[idx] = g->palette_defaults[idx];
	}
	grid_damage_all(g);
}

static int hexval(char c)
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
		int h = hexval(s[i]);
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
				raw = raw << 4 | (unsigned)hexval(s[1 + (size_t)i * n + k]);
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

/* OSC 104 [; c ...]: the colours listed, up to the first item that is not a number alone (xterm's
 * ResetAnsiColorRequest); an index past the palette is skipped. None listed is all of them. */
static void osc_palette_reset(struct grid *g, const char *s, size_t len)
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
			grid__palette_reset(g, idx);
		p = q + 1;
	}
}

/* OSC 4 ; c ; spec [; c ; spec ...], spec a colour or "?" */
static void osc_palette(struct grid *g, const char *s, size_t len)
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
			reply_color(g, pre, g->palette[idx]);
		} else if (parse_color(v, (size_t)(ve - v), &c)) {
			g->palette[idx] = c;
			grid_damage_all(g);
		} else {
			return;
		}
		p = ve + 1;
	}
}

/* OSC 10/11/12 ; spec [; spec ...]: each further spec moves to the next of fg, bg, cursor. */
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

static void osc_dynamic(struct grid *g, int which, const char *s, size_t len)
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
			g->palette[dynamic_slot(g, which)] = c;
			grid_damage_all(g);
		}
		which++;
		p = q + 1;
	}
}

/* ------------------------------------------------------------------------------------------- titles */

/* The length of the valid UTF-8 character at s[0..n), or 0: overlong forms, surrogates and code points past
 * U+10FFFF are not valid (Unicode 15.0 table 3-7). */
static size_t utf8_valid(const uint8_t *s, size_t n)
{
	uint8_t b = s[0];
	if (b < 0x80)
		return 1;
	size_t k = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
	if (k == 0 || n < k)
		return 0;
	/* the second byte's range depends on the first */
	uint8_t lo = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80;
	uint8_t hi = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	return k;
}

static void set_title(struct grid *g, const char *s, size_t len)
{
	/* xterm ignores a title of 1024 bytes or more as not plausible: the title shown stays, where a cut one
	 * would show wrong text */
	if (len >= TITLE_MAX)
		return;
	/* a title is shown, logged and written into JSON: like xterm (ChangeGroup), each byte that is not part
	 * of a printable character (controls, DEL, invalid UTF-8) becomes '?' */
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		size_t k = utf8_valid((const uint8_t *)s + i, len - i);
		if (k == 0 || (k == 1 && ((uint8_t)s[i] < 0x20 || s[i] == 0x7f))) {
			g->title[n++] = '?';
			i++;
			continue;
		}
		memcpy(g->title + n, s + i, k);
		n += k;
		i += k;
	}
	g->title[n] = '\0';
	if (g->cb.title)
		g->cb.title(g->ud, g->title);
}

/* CSI 22 ; which t. A console has no icon name: which 1 (the icon name alone, xterm's ewPushTitle) takes a
 * slot that holds no title, so that pushes and pops still pair up. */
void grid__title_push(struct grid *g, int which)
{
	if (g->title_depth == TITLE_STACK_MAX) {
		free(g->title_stack[0]);
		memmove(g->title_stack, g->title_stack + 1, sizeof(g->title_stack[0]) * (TITLE_STACK_MAX - 1));
		g->title_depth--;
	}
	char *t = NULL;
	if (which != 1 && !(t = strdup(g->title)))
		return;
	g->title_stack[g->title_depth++] = t;
}

/* CSI 23 ; which t: which 1 restores the icon name alone and leaves the title, as does a slot pushed with
 * which 1 (xterm ignores the empty title it would restore). */
void grid__title_pop(struct grid *g, int which)
{
	if (g->title_depth == 0)
		return;
	char *t = g->title_stack[--g->title_depth];
	if (t && which != 1)
		set_title(g, t, strlen(t));
	free(t);
}

void grid__titles_finish(struct grid *g)
{
	while (g->title_depth > 0)
		free(g->title_stack[--g->title_depth]);
}

/* ---------------------------------------------------------------------------------------- links */

void grid__links_finish(struct grid *g)
{
	struct link_table *t = &g->links;
	if (t->uri) {
		for (uint32_t i = 0; i < LINK_MAX; i++) {
			free(t->uri[i]);
			free(t->key[i]);
		}
	}
	free(t->uri);
	free(t->key);
	free(t->used);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* OSC 8 ; params ; uri */
static void osc_link(struct grid *g, const char *s, size_t len)
{
	struct link_table *t = &g->links;
	const char *semi = memchr(s, ';', len);
	if (!semi)
		return;
	const char *uri = semi + 1;
	size_t ulen = len - (size_t)(uri - s);
	if (ulen == 0 || ulen > LINK_URI_MAX) {
		g->link = 0;
		return;
	}
	/* the id= parameter makes separate runs one link */
	const char *key = NULL;
	size_t klen = 0;
	for (const char *p = s; p < semi;) {
		const char *e = memchr(p, ':', (size_t)(semi - p));
		if (!e)
			e = semi;
		if (e - p > 3 && !memcmp(p, "id=", 3)) {
			key = p + 3;
			klen = (size_t)(e - p - 3);
		}
		p = e + 1;
	}
	/* an id is held as long as its link, like the URI: one past the URI's cap is not applied either (1,023
	 * links with ids of up to the parser's 1 MiB would hold 1 GiB) */
	if (klen > LINK_URI_MAX) {
		g->link = 0;
		return;
	}
	if (!t->uri) {
		t->uri = calloc(LINK_MAX, sizeof(*t->uri));
		t->key = calloc(LINK_MAX, sizeof(*t->key));
		t->used = calloc(LINK_MAX, 1);
		t->hash = calloc(LINK_MAX, sizeof(*t->hash));
		if (!t->uri || !t->key || !t->used || !t->hash) {
			grid__links_finish(g);
			return;
		}
	}
	uint32_t hv = 2166136261u;
	for (size_t i = 0; i < ulen; i++)
		hv = (hv ^ (uint8_t)uri[i]) * 16777619u;
	for (size_t i = 0; i < klen; i++)
		hv = (hv ^ (uint8_t)key[i]) * 16777619u;
	uint32_t free_id = 0;
	for (uint32_t i = 1; i < LINK_MAX; i++) {
		if (!t->uri[i]) {
			if (!free_id)
				free_id = i;
			continue;
		}
		if (t->hash[i] == hv && strlen(t->uri[i]) == ulen && !memcmp(t->uri[i], uri, ulen) &&
		    (key ? t->key[i] && strlen(t->key[i]) == klen && !memcmp(t->key[i], key, klen) : !t->key[i])) {
			g->link = (uint16_t)i;
			return;
		}
	}
	if (!free_id) {
		g->link = 0;
		/* a collection scans every cell: when the last one found the table full of live links, the
		 * next one waits for as many new links, which meanwhile go unlinked */
		if (t->gc_wait && !grid__gc_stale(g)) {
			t->gc_wait--;
			return;
		}
		grid__collect(g);
		uint32_t n_free = 0;
		for (uint32_t i = 1; i < LINK_MAX; i++) {
			if (!t->uri[i]) {
				n_free++;
				if (!free_id)
					free_id = i;
			}
		}
		if (n_free < LINK_MAX / 4)
			t->gc_wait = LINK_MAX;
		if (!free_id)
			return;
	}
	t->uri[free_id] = dup_n(uri, ulen);
	t->key[free_id] = key ? dup_n(key, klen) : NULL;
	if (!t->uri[free_id]) {
		free(t->key[free_id]);
		t->key[free_id] = NULL;
		return;
	}
	t->count++;
	t->hash[free_id] = hv;
	g->link = (uint16_t)free_id;
}

const char *grid_link_uri(const struct grid *g, uint16_t link)
{
	if (!link || link >= LINK_MAX || !g->links.uri)
		return NULL;
	return g->links.uri[link];
}

/* ------------------------------------------------------------------------------------ clipboard */

static int b64val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* OSC 52 ; targets ; ? : the clipboard's contents, base64, after the targets asked for, ending as the query did
 * (xterm: "the terminal replies with the selection data"). Only when allowed (--clipboard-read): any program
 * on the terminal, ssh sessions included, could read what was copied. A reply larger than the write queue is
 * dropped there (logged), as any reply. */
static void clipboard_reply(struct grid *g, const char *targets)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (!g->allow_clipboard_read || !g->cb.clipboard_get || !g->cb.reply ||
	    g->cb.clipboard_get(g->ud, targets, &data, &len) < 0)
		return;
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *end = vt_parser_string_bel(g->parser) ? "\a" : "\033\\";
	size_t tl = strlen(targets), el = strlen(end);
	char *out = malloc(5 + tl + 1 + (len + 2) / 3 * 4 + el);
	if (out) {
		size_t n = (size_t)sprintf(out, "\033]52;%s;", targets);
		for (size_t i = 0; i < len; i += 3) {
			uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0) |
				     (i + 2 < len ? data[i + 2] : 0);
			out[n++] = alphabet[v >> 18];
			out[n++] = alphabet[v >> 12 & 63];
			out[n++] = i + 1 < len ? alphabet[v >> 6 & 63] : '=';
			out[n++] = i + 2 < len ? alphabet[v & 63] : '=';
		}
		memcpy(out + n, end, el);
		g->cb.reply(g->ud, (const uint8_t *)out, n + el);
		free(out);
	}
	free(data);
}

static void osc_clipboard(struct grid *g, const char *s, size_t len)
{
	const char *semi = memchr(s, ';', len);
	if (!semi)
		return;
	/* the selections named, each once: s, p, q, c and cut buffers 0-7 (xterm's ManipulateSelectionData
	 * skips any other byte, and sets nothing when none is left); none named is "s0" */
	static const char known[] = "spqc01234567";
	char targets[sizeof(known)];
	size_t tl = 0;
	for (const char *t = s; t < semi; t++) {
		if (*t && strchr(known, *t) && !memchr(targets, *t, tl))
			targets[tl++] = *t;
	}
	targets[tl] = '\0';
	if (semi == s)
		memcpy(targets, "s0", 3);
	else if (tl == 0)
		return;
	const uint8_t *d = (const uint8_t *)semi + 1;
	size_t dl = len - (size_t)(d - (const uint8_t *)s);
	if (dl == 1 && d[0] == '?') {
		clipboard_reply(g, targets);
		return;
	}
	if (!g->cb.clipboard)
		return;
	uint8_t *out = malloc(dl / 4 * 3 + 3);
	if (!out)
		return;
	size_t n = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < dl; i++) {
		/* a byte outside the alphabet (a space, '=') is skipped, as xterm's AppendToSelectionBuffer does */
		int v = b64val(d[i]);
		if (v < 0)
			continue;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	g->cb.clipboard(g->ud, targets, out, n);
	free(out);
}

/* ----------------------------------------------------------------------------------------- DECRQSS */

static void decrqss(struct grid *g, const char *s, size_t len)
{
	char buf[256];
	int n = -1;
	if (len == 1 && s[0] == 'm') {
		n = grid__sgr_string(g, buf, sizeof(buf) - 1);
		buf[n++] = 'm';
	} else if (len == 1 && s[0] == 'r') {
		n = snprintf(buf, sizeof(buf), "%d;%dr", g->top + 1, g->bottom + 1);
	} else if (len == 1 && s[0] == 's') {
		n = snprintf(buf, sizeof(buf), "%d;%ds", g->left + 1, g->right + 1);
	} else if (len == 1 && s[0] == 't') {
		n = snprintf(buf, sizeof(buf), "%dt", g->rows); /* DECSLPP: a page is the screen */
	} else if (len == 2 && s[0] == '$' && s[1] == '|') {
		n = snprintf(buf, sizeof(buf), "%d$|", g->cols); /* DECSCPP */
	} else if (len == 2 && s[0] == '*' && s[1] == '|') {
		n = snprintf(buf, sizeof(buf), "%d*|", g->rows); /* DECSNLS */
	} else if (len == 2 && s[0] == ' ' && s[1] == 'q') {
		int v = g->cursor_shape == GRID_CURSOR_BLOCK ? 1 : g->cursor_shape == GRID_CURSOR_UNDERLINE ? 3 : 5;
		n = snprintf(buf, sizeof(buf), "%d q", v + !g->cursor_blink);
	} else if (len == 2 && s[0] == '"' && s[1] == 'p') {
		/* the level DA1 claims; ";1": replies use 7-bit controls (xterm: ";0" after S8C1T) */
		n = snprintf(buf, sizeof(buf), "%d;1\"p", GRID_CONFORMANCE_LEVEL);
	} else if (len == 2 && s[0] == '"' && s[1] == 'q') {
		/* protected or not, as xterm reports it (DECSCA 2 is "not protected", like 0) */
		n = snprintf(buf, sizeof(buf), "%d\"q", g->protect ? 1 : 0);
	}
	if (n < 0) {
		grid__reply(g, "\033P0$r\033\\");
		return;
	}
	buf[n] = '\0';
	grid__reply(g, "\033P1$r%s\033\\", buf);
}

/* --------------------------------------------------------------------------------------- XTGETTCAP */

/* The hex-encoded capability name hex[0..n) decoded into out (size cap; "" when it is longer), or false if
 * it is not hex. */
static bool unhex(const char *hex, size_t n, char *out, size_t cap)
{
	if (n == 0 || n % 2)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (hexval(hex[i]) < 0)
			return false;
	}
	out[0] = '\0';
	if (n / 2 >= cap)
		return true;
	for (size_t i = 0; i < n; i += 2)
		out[i / 2] = (char)(hexval(hex[i]) << 4 | hexval(hex[i + 1]));
	out[n / 2] = '\0';
	return true;
}

/* The value of capability name for XTGETTCAP, or NULL when it is not known; num is room for a number. */
static const char *tcap_value(const struct grid *g, const char *name, char num[8])
{
	if (!strcmp(name, "TN") || !strcmp(name, "name"))
		return g->term_name;
	if (!strcmp(name, "Co") || !strcmp(name, "colors")) {
		snprintf(num, 8, "%d", 256);
		return num;
	}
	return NULL;
}

/* DCS + q name;name... ST, each name hex-encoded. Answered as xterm answers: one reply, "1" when the first
 * name is known, each known name echoed with "=" and its value in upper-case hex; the first unknown name is
 * echoed and ends the reply ("0" when it comes first), and one that is not hex ends it bare. Only the
 * terminal's name (TN, name) and colour count (Co, colors) are known: the key strings xterm also reports are
 * not (docs/conformance.md); an application refused one keeps to its terminfo entry. */
static void xtgettcap(struct grid *g, const char *s, size_t len)
{
	char out[512];
	size_t n = 0;
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *q = memchr(p, ';', (size_t)(end - p));
		if (!q)
			q = end;
		char name[32], num[8];
		size_t hl = (size_t)(q - p);
		if (!unhex(p, hl, name, sizeof(name)))
			break;
		const char *val = tcap_value(g, name, num);
		size_t need = 1 + hl + (val ? 1 + 2 * strlen(val) : 0);
		if (n + 3 + need >= sizeof(out))
			break;
		if (n == 0)
			n = (size_t)snprintf(out, sizeof(out), "%c+r", val ? '1' : '0');
		else
			out[n++] = ';';
		memcpy(out + n, p, hl);
		n += hl;
		if (!val)
			break;
		out[n++] = '=';
		for (const char *v = val; *v; v++)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%02X", (unsigned)(uint8_t)*v);
		p = q + 1;
	}
	if (n == 0)
		n = (size_t)snprintf(out, sizeof(out), "0+r");
	grid__reply(g, "\033P%.*s\033\\", (int)n, out);
}

/* ------------------------------------------------------------------------------------------ entry */

static void osc(struct grid *g, const char *s, size_t len)
{
	int num = 0;
	size_t i = 0;
	while (i < len && s[i] >= '0' && s[i] <= '9' && num < 100000)
		num = num * 10 + (s[i++] - '0');
	/* no digits is code 0, as in xterm (do_osc's mode starts at 0): OSC ; Pt sets the title. Anything but
	 * ';' after the code makes the string malformed, and xterm ignores it: OSC 104x resets nothing. */
	if (i < len && s[i] != ';')
		return;
	const char *arg = i < len ? s + i + 1 : s + len;
	size_t alen = (size_t)(s + len - arg);
	bool has_arg = i < len;
	switch (num) {
	case 0:
	case 2:
		if (has_arg)
			set_title(g, arg, alen);
		break;
	case 4: osc_palette(g, arg, alen); break;
	case 8: osc_link(g, arg, alen); break;
	case 10: case 11: case 12:
		if (has_arg)
			osc_dynamic(g, num, arg, alen);
		break;
	case 52: osc_clipboard(g, arg, alen); break;
	case 104: osc_palette_reset(g, arg, alen); break;
	case 110: case 111: case 112:
		/* these take no data: with some the sequence is malformed and ignored (xterm's do_osc) */
		if (alen == 0)
			grid__palette_reset(g, dynamic_slot(g, num - 100));
		break;
	default: break; /* 1 (icon name), 7 (cwd) and others: nothing to show on a console */
	}
}

void grid__string(void *ctx, enum vt_string_kind kind, const struct vt_csi *hdr, const uint8_t *data,
		  size_t len)
{
	struct grid *g = ctx;
	g->last_cp = 0;
	if (kind == VT_STRING_OSC) {
		osc(g, (const char *)data, len);
	} else if (kind == VT_STRING_DCS && hdr && hdr->final == 'q' && hdr->n_intermediates == 1 &&
		   hdr->intermediates[0] == '$' && !hdr->private_marker && hdr->n_params == 0) {
		/* with parameter bytes ("DCS 1 $ q", even "0" or ";") it is no DECRQSS: xterm 379 answers nothing */
		decrqss(g, (const char *)data, len);
	} else if (kind == VT_STRING_DCS && hdr && hdr->final == 'q' && hdr->n_intermediates == 1 &&
		   hdr->intermediates[0] == '+' && !hdr->private_marker) {
		xtgettcap(g, (const char *)data, len);
	} else if (kind == VT_STRING_DCS && hdr && hdr->final == 't' && hdr->n_intermediates == 1 &&
		   hdr->intermediates[0] == '$' && !hdr->private_marker && hdr->n_params == 1) {
		grid__restore_pres(g, hdr->params[0], (const char *)data, len); /* DECRSPS */
	}
}
