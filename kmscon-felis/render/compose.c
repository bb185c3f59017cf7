/* kmscon-felis/render/compose.c: a cluster's base and its combining marks as one precomposed glyph.
 *
 * Text in decomposed form (NFD: e + U+0301, as macOS names files; Hangul as conjoining jamo) reaches the
 * grid as a cluster. Drawn as its base with each mark's glyph over it (decor.c), it shows nothing of the
 * marks with a console font (the built-in and PSF fonts have no combining glyphs), marks for small letters
 * run into capitals, and the jamo after the first are not drawn at all. Where Unicode composes the base
 * with the marks after it (the primary composites of UAX #15, https://www.unicode.org/reports/tr15/, and
 * the Hangul syllables) and the fonts have the composite, that glyph is drawn instead.
 *
 * Deviation from NFC: the marks are composed in the order they came, from the first one on, and composing
 * stops at the first mark that does not compose (NFC would reorder the marks by combining class first, and
 * may compose a mark past one that does not block it). Every result is canonically equivalent to the
 * cluster: the marks that are left are drawn over the composite as before.
 *
 * Emoji sequences (kf_shape_cluster) are one glyph of the colour emoji font, found by shaping
 * (font-color.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/compose-table.h"
#include "kmscon-felis/render/render-internal.h"

/* Hangul syllables: UAX #15's arithmetic (Unicode chapter 3.12). */
enum {
	HANGUL_S = 0xac00,
	HANGUL_L = 0x1100,
	HANGUL_V = 0x1161,
	HANGUL_T = 0x11a7,
	HANGUL_LN = 19,
	HANGUL_VN = 21,
	HANGUL_TN = 28,
};

/* The primary composite of a followed by b, or 0. */
static uint32_t compose_pair(uint32_t a, uint32_t b)
{
	if (a - HANGUL_L < HANGUL_LN && b - HANGUL_V < HANGUL_VN)
		return HANGUL_S + ((a - HANGUL_L) * HANGUL_VN + (b - HANGUL_V)) * HANGUL_TN;
	if (a - HANGUL_S < HANGUL_LN * HANGUL_VN * HANGUL_TN && (a - HANGUL_S) % HANGUL_TN == 0 &&
	    b - HANGUL_T - 1 < HANGUL_TN - 1)
		return a + (b - HANGUL_T);
	size_t lo = 0, hi = sizeof(compose_pairs) / sizeof(compose_pairs[0]);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const uint32_t *p = compose_pairs[mid];
		if (p[0] < a || (p[0] == a && p[1] < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sizeof(compose_pairs) / sizeof(compose_pairs[0]) && compose_pairs[lo][0] == a &&
	    compose_pairs[lo][1] == b)
		return compose_pairs[lo][2];
	return 0;
}

/* compose_pairs by composite: {composite, first}, sorted on first use (kf_compose_base) */
#define NPAIRS (sizeof(compose_pairs) / sizeof(compose_pairs[0]))
static uint32_t by_composite[NPAIRS][2];

static int cmp_composite(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

uint32_t kf_compose_base(uint32_t c)
{
	if (!by_composite[0][0]) {
		for (size_t i = 0; i < NPAIRS; i++) {
			by_composite[i][0] = compose_pairs[i][2];
			by_composite[i][1] = compose_pairs[i][0];
		}
		qsort(by_composite, NPAIRS, sizeof(by_composite[0]), cmp_composite);
	}
	size_t lo = 0, hi = NPAIRS;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_composite[mid][0] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < NPAIRS && by_composite[lo][0] == c ? by_composite[lo][1] : 0;
}

size_t kf_compose_cluster(struct kf_render *r, uint32_t *cps, size_t n, unsigned style, int cells)
{
	/* the longest composition from the base on whose glyph the fonts have: ỗ where the font has it,
	 * else ô with the tilde over it */
	uint32_t c = cps[0], best = cps[0];
	size_t k = 1, used = 1;
	for (; k < n; k++) {
		c = compose_pair(c, cps[k]);
		if (!c)
			break;
		if (!kf_render_glyph(r, c, style, cells)->missing) {
			best = c;
			used = k + 1;
		}
	}
	if (used == 1)
		return n;
	cps[0] = best;
	for (size_t i = used; i < n; i++)
		cps[i - used + 1] = cps[i];
	return n - used + 1;
}

/* Whether the colour emoji font draws the cluster as one glyph of its own (a GSUB ligature) rather
 * than as its first character: a ZWJ sequence, a flag (two regional indicators or a tag sequence),
 * an emoji with a skin tone modifier, a keycap. Other clusters (marks, VS16 alone) are not shaped. */
static bool is_emoji_sequence(const uint32_t *cps, size_t n)
{
	if (cps[0] - 0x1f1e6 < 26 && cps[1] - 0x1f1e6 < 26)
		return true;
	/* the marks of most clusters are below U+200D: one comparison each */
	for (size_t i = 1; i < n; i++)
		if (cps[i] >= 0x200d && (cps[i] == 0x200d || cps[i] == 0x20e3 ||
					 cps[i] - 0x1f3fb < 5 || cps[i] - 0xe0020 < 0x60))
			return true;
	return false;
}

/* The code point (KF_SEQ_CP | id) the glyph of the sequence cps[0..n) is cached under: its id in r->seqs, a
 * table of the sequences met, two places for each hash of their code points (the one used last first); a
 * sequence that takes a place from another gets a new id. With one place a hash, two sequences sharing it and
 * alternating on screen took it from each other at every paint, each time a new id: shaped and rasterised again
 * (tests/render/test-emoji-keys.c). The ids were the hash itself: two sequences alike in its 31 bits shared a glyph, and a
 * program could print a cluster made to collide with a flag it printed before, which then showed as that flag
 * (tests/render/test-emoji-keys.c). The glyph under a former id is never looked up again (the glyph cache evicts
 * it); ids come back after 2^31 new sequences, by when the caches have long let theirs go. false when the table
 * cannot be had (out of memory: the sequence is not shaped). */
static bool seq_key(struct kf_render *r, const uint32_t *cps, size_t n, uint32_t *cp)
{
	if (!r->seqs && !(r->seqs = calloc(KF_SEQ_SLOTS, sizeof(*r->seqs))))
		return false;
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ cps[i]) * 16777619u;
	struct kf_seq *e = &r->seqs[(h ^ h >> 16) & (KF_SEQ_SLOTS - 2)];
	if (e[0].id && e[0].n == n && !memcmp(e[0].cps, cps, n * sizeof(*cps))) {
		*cp = KF_SEQ_CP | e[0].id;
		return true;
	}
	if (e[1].id && e[1].n == n && !memcmp(e[1].cps, cps, n * sizeof(*cps))) {
		const struct kf_seq t = e[1];
		e[1] = e[0];
		e[0] = t;
	} else {
		e[1] = e[0]; /* the one used less recently goes */
		r->seq_next = r->seq_next < ~KF_SEQ_CP ? r->seq_next + 1 : 1;
		e[0].id = r->seq_next;
		e[0].n = (uint8_t)n;
		memcpy(e[0].cps, cps, n * sizeof(*cps));
	}
	*cp = KF_SEQ_CP | e[0].id;
	return true;
}

size_t kf_shape_cluster(struct kf_render *r, uint32_t *cps, size_t n, unsigned style, int cells)
{
	uint32_t cp;
	if ((style & KF_GLYPH_TEXT) || !r->font->render_seq || !is_emoji_sequence(cps, n) ||
	    !seq_key(r, cps, n, &cp))
		return n;
	/* a sequence the font has no glyph for is drawn as before (remembered as missing: without a
	 * colour font, every sequence is) */
	if (kf_render_known_missing(r, kf_glyph_key(cp, style, cells)))
		return n;
	for (size_t i = 0; i < n; i++)
		r->seq.cps[i] = cps[i];
	r->seq.n = n;
	r->seq.cp = cp;
	if (kf_render_glyph(r, cp, style, cells)->missing)
		return n;
	cps[0] = cp;
	return 1;
}

/* A cluster's code points into cps (at most KF_CELL_CPS), and the emoji or text style when one of them
 * asks for it (U+FE0F, U+FE0E); an emoji sequence the colour font has a glyph for as that one
 * (kf_shape_cluster), the base and the marks the fonts have a precomposed glyph of as that one
 * (kf_compose_cluster). paint.c's, out of line there too: only a cluster's cell calls it. */
size_t kf_cluster_cps(struct kf_render *r, const struct kf_render_source *s, const struct grid_cell *c,
		      uint32_t *cps, unsigned *gs, int cells)
{
	size_t n = 1;
	if (s->codepoints)
		n = s->codepoints(s->ud, c, cps, KF_CELL_CPS);
	else
		cps[0] = 0xfffd;
	bool whole = n <= KF_CELL_CPS; /* a longer sequence is not shaped from its first ones */
	if (n > KF_CELL_CPS)
		n = KF_CELL_CPS;
	for (size_t i = 1; i < n; i++)
		if (cps[i] == 0xfe0f)
			*gs |= KF_GLYPH_EMOJI;
		else if (cps[i] == 0xfe0e)
			*gs |= KF_GLYPH_TEXT;
	if (n > 1 && whole)
		n = kf_shape_cluster(r, cps, n, *gs, cells);
	return n > 1 ? kf_compose_cluster(r, cps, n, *gs, cells) : n;
}
