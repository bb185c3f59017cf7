/* grid/grid-osc.c: OSC and DCS strings: titles, the clipboard, DECRQSS, XTGETTCAP; the title stack. The
 * palette's OSC functions (4, 104, 10-12, 110-112) are in grid-palette.c, hyperlinks (OSC 8) in grid-link.c.
 *
 * References: xterm ctlseqs "Operating System Commands", "DCS $ q Pt ST" and "DCS + q Pt ST". A reply ends with the terminator its
 * query ended with, BEL or ST, as in xterm.
 * OSC 52 queries get no answer unless allowed (grid_config.allow_clipboard_read): grid/ holds no clipboard, so
 * its contents come from the clipboard_get callback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"
#include "grid/grid-palette.h"

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
	/* out of memory, the slot is taken all the same, holding no title: its pop must not restore an older push's */
	char *t = which != 1 ? strdup(g->title) : NULL;
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
	/* grid_work: twice the bytes read, copied and encoded (about 2 ns a byte, 1.3 times DECRQCRA's unit): a
	 * 9-byte query answered with a large clipboard is work out of proportion to its bytes (36 KiB of them
	 * with 700 KB in the clipboard took 5.9 s, uncounted, the session's loop held all along) */
	grid__work(g, 2u * (uint64_t)len);
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
	/* the controls in the data skipped (base64 wrapped in lines, as GNU base64 writes it): a "?" alone asks */
	size_t q = 0, other = 0;
	for (size_t i = 0; i < dl; i++) {
		if (d[i] == '?')
			q++;
		else if (d[i] >= 0x20 && d[i] != 0x7f)
			other++;
	}
	if (q == 1 && other == 0) {
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
		if (grid__hexval(hex[i]) < 0)
			return false;
	}
	out[0] = '\0';
	if (n / 2 >= cap)
		return true;
	for (size_t i = 0; i < n; i += 2)
		out[i / 2] = (char)(grid__hexval(hex[i]) << 4 | grid__hexval(hex[i + 1]));
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

/* Whether s[0..n) holds a C0 control or DEL (what the parser keeps of them inside an OSC). */
static bool has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if ((uint8_t)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	}
	return false;
}

static void osc(struct grid *g, const char *s, size_t len)
{
	/* The text is read as xterm 379's do_osc reads it, as a C string: a NUL ends it (the parser keeps the
	 * controls of an OSC, NULs too) */
	const char *nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t)(nul - s);
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
	/* A control in the text (xterm ctlseqs: the text is printable; ECMA-48 8.3.89 allows format effectors
	 * only) makes the OSC malformed, and xterm ignores it whole: a colour query "?" with a line feed after it
	 * is no query, an OSC 4 list with one in its middle sets and answers nothing. Titles keep their text, the
	 * control shown as '?' (set_title); OSC 52 skips them, as the base64 it carries may be wrapped in lines
	 * (docs/conformance.md). */
	if (num != 0 && num != 1 && num != 2 && num != 52 && has_control(arg, alen))
		return;
	switch (num) {
	case 0:
	case 2:
		if (has_arg)
			set_title(g, arg, alen);
		break;
	case 4: grid__osc_palette(g, arg, alen); break;
	case 8: grid__osc_link(g, arg, alen); break;
	case 10: case 11: case 12:
		if (has_arg)
			grid__osc_dynamic(g, num, arg, alen);
		break;
	case 52: osc_clipboard(g, arg, alen); break;
	case 104: grid__osc_palette_reset(g, arg, alen); break;
	case 110: case 111: case 112:
		/* these take no data: with some the sequence is malformed and ignored (xterm's do_osc) */
		if (alen == 0)
			grid__osc_dynamic_reset(g, num - 100);
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
	} else if (kind == VT_STRING_DCS && memchr(data, '\0', len)) {
		/* xterm 379's do_dcs ignores a DCS holding a NUL (it reads the text as a C string and checks that
		 * the string is whole): "DCS $ q NUL m ST" and "DCS $ q m NUL ST" get no reply, a DECRSPS with one
		 * restores nothing. Other controls and DEL stay in the data, which then names nothing known. */
		return;
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
	} else if (kind == VT_STRING_DCS && hdr && hdr->n_intermediates > 0 && hdr->intermediates[0] == '$' &&
		   !hdr->private_marker && hdr->n_params == 0) {
		/* a text that starts with '$' and is no DECRQSS: xterm 379's do_dcs answers a CAN alone ("DCS $ p",
		 * "DCS $ t" without its parameter, "DCS $ ! q"), which ends a program's wait for a reply at once */
		grid__reply(g, "\030");
	}
}
