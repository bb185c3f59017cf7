/* vt/parser-string.c: OSC, DCS, APC, PM and SOS strings, collected up to the configured cap and delivered
 * whole when they end (see parser.c for the states that get here).
 */
#include "vt/parser-internal.h"

void vt__str_release(struct vt_parser *p)
{
	p->str_len = 0;
	p->str_drop = false;
	p->str_head[0] = p->str_head[1] = 0;
	if (p->str_alloc > STRING_KEEP) {
		free(p->str);
		p->str = NULL;
		p->str_alloc = 0;
	}
}

/* --------------------------------------------------------------------------------------- strings */

void vt__str_start(struct vt_parser *p, enum vt_string_kind kind)
{
	p->str_kind = kind;
	p->str_len = 0;
	p->str_drop = false;
	p->str_head[0] = p->str_head[1] = 0;
}

/* A string about to be dropped (s[0..n) its next bytes): its first two bytes kept for the sink
 * (vt_parser_string_dropped: an OSC 8 dropped so ends the open link, as a URI over its own cap does) */
static void keep_head(struct vt_parser *p, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < 2; i++)
		p->str_head[i] = i < p->str_len ? p->str[i] : i - p->str_len < n ? s[i - p->str_len] : 0;
}

static void str_put(struct vt_parser *p, const uint8_t *s, size_t n)
{
	if (p->str_drop)
		return;
	if (n > p->str_cap - p->str_len) {
		/* Over the cap: the string is dropped whole, and its memory given back now */
		keep_head(p, s, n);
		p->str_drop = true;
		p->str_len = 0;
		free(p->str);
		p->str = NULL;
		p->str_alloc = 0;
		return;
	}
	size_t need = p->str_len + n + 1;
	if (need > p->str_alloc) {
		size_t a = p->str_alloc ? p->str_alloc : 256;
		while (a < need)
			a *= 2;
		if (a > p->str_cap + 1)
			a = p->str_cap + 1;
		uint8_t *nb = realloc(p->str, a);
		if (!nb) {
			keep_head(p, s, n);
			p->str_drop = true;
			return;
		}
		p->str = nb;
		p->str_alloc = a;
	}
	memcpy(p->str + p->str_len, s, n);
	p->str_len += n;
}

void vt__str_end(struct vt_parser *p)
{
	if (!p->str_drop && p->sink.string) {
		static const uint8_t empty[1];
		const uint8_t *data = empty;
		if (p->str) {
			p->str[p->str_len] = 0;
			data = p->str;
		}
		p->sink.string(p->ctx, p->str_kind, p->str_kind == VT_STRING_DCS ? &p->csi : NULL, data,
			       p->str_len);
	} else if (p->str_drop && p->sink.nothing) {
		p->sink.nothing(p->ctx); /* a string dropped (malformed header, past the cap) did nothing */
	}
	vt__str_release(p);
}

bool vt_parser_string_bel(const struct vt_parser *p)
{
	return p->str_bel;
}

bool vt_parser_string_dropped(const struct vt_parser *p, enum vt_string_kind *kind, uint8_t head[2])
{
	if (!p->str_drop || !p->str_head[0])
		return false;
	*kind = p->str_kind;
	head[0] = p->str_head[0];
	head[1] = p->str_head[1];
	return true;
}

enum vt_string_kind vt__str_kind_of(uint8_t b)
{
	switch (b) {
	case ']': case 0x9d: return VT_STRING_OSC;
	case 'X': case 0x98: return VT_STRING_SOS;
	case '^': case 0x9e: return VT_STRING_PM;
	default: return VT_STRING_APC;
	}
}

/* String bytes from d[i] on that stay in the current state are appended in one go. */
size_t vt__put_run(struct vt_parser *p, const uint8_t *d, size_t i, size_t n)
{
	const uint8_t *row = p->trans[p->state];
	uint8_t same = row[d[i]];
	size_t s = i;
	while (++i < n && row[d[i]] == same)
		;
	str_put(p, d + s, i - s);
	return i;
}
