/* grid/grid-link.c: hyperlinks (OSC 8): the table of links the cells refer to by id, its index and its sweep.
 *
 * Reference: https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda ("OSC 8 ; params ; URI ST";
 * params are key=value pairs separated by ':', of which only id= is defined; an empty URI ends the link).
 * Deviations:
 * - Two links without an id= and with the same URI share one id, where the gist makes each OSC 8 without an id
 *   a link of its own. The id only groups cells for highlighting under the pointer, which this terminal does
 *   not do; sharing keeps a listing that names one URI many times (ls --hyperlink in a loop) to one entry.
 * - A URI or id longer than LINK_URI_MAX bytes is not applied, and ends the open link (VTE's caps are 2,083
 *   and 250 bytes); so does an OSC 8 past the parser's string cap (1 MiB), which the parser drops whole
 *   (grid__link_dropped).
 * Bytes outside printable ASCII in a URI are kept as sent; the gist asks programs to percent-encode them.
 */
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

void grid__links_finish(struct grid *g)
{
	struct link_table *t = &g->links;
	/* each array on its own: a table whose allocation failed part way has some (table_alloc) */
	for (uint32_t i = 0; t->uri && i < LINK_MAX; i++)
		free(t->uri[i]);
	for (uint32_t i = 0; t->key && i < LINK_MAX; i++)
		free(t->key[i]);
	free(t->uri);
	free(t->key);
	free(t->used);
	free(t->hash);
	free(t->index);
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

/* Enters id at the end of its hash's probe sequence in the index (which has room: twice LINK_MAX slots). */
static void index_put(struct link_table *t, uint32_t id)
{
	uint32_t i = t->hash[id] & (LINK_INDEX - 1);
	while (t->index[i])
		i = (i + 1) & (LINK_INDEX - 1);
	t->index[i] = (uint16_t)id;
}

/* After the sweep freed ids: the index made again from the live ones (open addressing has no removal
 * without tombstones; LINK_MAX entries cost less than the sweep's scan of the cells that came before) */
static void index_rebuild(struct link_table *t)
{
	memset(t->index, 0, LINK_INDEX * sizeof(*t->index));
	for (uint32_t i = 1; i < LINK_MAX; i++)
		if (t->uri[i])
			index_put(t, i);
	t->next_free = 1;
}

void grid__links_sweep(struct grid *g)
{
	struct link_table *t = &g->links;
	for (uint32_t i = 1; i < LINK_MAX; i++) {
		if (t->uri[i] && !t->used[i] && i != g->link) {
			free(t->uri[i]);
			free(t->key[i]);
			t->uri[i] = NULL;
			t->key[i] = NULL;
			t->count--;
		}
	}
	index_rebuild(t);
}

/* The id of the link (uri, key) with hash hv, or 0 when there is none. */
static uint32_t find(const struct link_table *t, uint32_t hv, const char *uri, size_t ulen, const char *key,
		     size_t klen)
{
	for (uint32_t i = hv & (LINK_INDEX - 1), id; (id = t->index[i]) != 0; i = (i + 1) & (LINK_INDEX - 1)) {
		if (t->hash[id] == hv && strlen(t->uri[id]) == ulen && !memcmp(t->uri[id], uri, ulen) &&
		    (key ? t->key[id] && strlen(t->key[id]) == klen && !memcmp(t->key[id], key, klen) : !t->key[id]))
			return id;
	}
	return 0;
}

/* A free id (the sweep frees them, so the ones below next_free are taken), or 0. */
static uint32_t take_free(struct link_table *t)
{
	while (t->next_free < LINK_MAX && t->uri[t->next_free])
		t->next_free++;
	return t->next_free < LINK_MAX ? t->next_free : 0;
}

static bool table_alloc(struct grid *g)
{
	struct link_table *t = &g->links;
	t->uri = calloc(LINK_MAX, sizeof(*t->uri));
	t->key = calloc(LINK_MAX, sizeof(*t->key));
	t->used = calloc(LINK_MAX, 1);
	t->hash = calloc(LINK_MAX, sizeof(*t->hash));
	t->index = calloc(LINK_INDEX, sizeof(*t->index));
	t->next_free = 1;
	if (!t->uri || !t->key || !t->used || !t->hash || !t->index) {
		grid__links_finish(g);
		return false;
	}
	return true;
}

/* OSC 8 ; params ; uri: s[0..len) is "params ; uri" */
void grid__osc_link(struct grid *g, const char *s, size_t len)
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
	if (!t->uri && !table_alloc(g))
		return;
	uint32_t hv = 2166136261u;
	for (size_t i = 0; i < ulen; i++)
		hv = (hv ^ (uint8_t)uri[i]) * 16777619u;
	for (size_t i = 0; i < klen; i++)
		hv = (hv ^ (uint8_t)key[i]) * 16777619u;
	uint32_t id = find(t, hv, uri, ulen, key, klen);
	if (id) {
		g->link = (uint16_t)id;
		return;
	}
	if (!(id = take_free(t))) {
		g->link = 0;
		/* a collection scans every cell: when the last one found the table full of live links, the
		 * next one waits for as many new links, which meanwhile go unlinked */
		if (t->gc_wait && !grid__gc_stale(g)) {
			t->gc_wait--;
			return;
		}
		grid__collect(g);
		if (LINK_MAX - 1 - t->count < LINK_MAX / 4)
			t->gc_wait = LINK_MAX;
		if (!(id = take_free(t)))
			return;
	}
	t->uri[id] = dup_n(uri, ulen);
	t->key[id] = key ? dup_n(key, klen) : NULL;
	if (!t->uri[id] || (key && !t->key[id])) {
		free(t->uri[id]);
		free(t->key[id]);
		t->uri[id] = t->key[id] = NULL;
		g->link = 0; /* out of memory: the text goes unlinked, not under the link before */
		return;
	}
	t->count++;
	t->hash[id] = hv;
	index_put(t, id);
	g->link = (uint16_t)id;
}

void grid__link_dropped(struct grid *g)
{
	/* an OSC 8 over the parser's cap ends the open link, as one whose URI is over LINK_URI_MAX does: the
	 * text after it is not the earlier link's */
	enum vt_string_kind kind;
	uint8_t head[2];
	if (vt_parser_string_dropped(g->parser, &kind, head) && kind == VT_STRING_OSC && head[0] == '8' &&
	    head[1] == ';')
		g->link = 0;
}

const char *grid_link_uri(const struct grid *g, uint16_t link)
{
	if (!link || link >= LINK_MAX || !g->links.uri)
		return NULL;
	return g->links.uri[link];
}

const char *grid_link_id(const struct grid *g, uint16_t link)
{
	if (!link || link >= LINK_MAX || !g->links.key)
		return NULL;
	return g->links.key[link];
}
