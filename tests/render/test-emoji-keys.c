/* tests/render/test-emoji-keys.c: the glyph of an emoji sequence (compose.c, kf_shape_cluster) is its own:
 * a cluster whose code points hash as another sequence's did is never drawn as that one.
 *
 * A sequence's glyph was cached under a 31-bit FNV-1a hash of its code points in place of a code point, so
 * two clusters alike in those bits shared a glyph: a program could print the flag of Germany, then a cluster
 * made to collide with it (the two regional indicators, a mark and two code points solved for, as here), and
 * the second showed as the flag. Clusters the font has no single glyph for must be drawn as before (not
 * shaped), whatever came before them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

#define EMOJI "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

/* The key's hash the sequences were cached under (compose.c before): FNV-1a over the code points. */
static uint32_t fnv(const uint32_t *cps, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ cps[i]) * 16777619u;
	return h;
}

/* b[0..4) followed by two code points that make fnv(b, 6) agree with want in its low 31 bits: the fifth
 * counted up from x0, the sixth solved for (below U+110000). */
static void collide(uint32_t *b, uint32_t want, uint32_t x0)
{
	uint32_t inv = 16777619u; /* the FNV prime's inverse mod 2^32 (Newton's iteration) */
	for (int i = 0; i < 5; i++)
		inv *= 2 - 16777619u * inv;
	for (uint32_t x = x0;; x++) {
		b[4] = x;
		const uint32_t h5 = fnv(b, 5), y = ((want * inv) ^ h5) & 0x7fffffffu;
		if (y < 0x110000) {
			b[5] = y;
			return;
		}
	}
}

/* kf_shape_cluster of a copy of cps: the code points left, the first of them in *first. */
static size_t shape(struct kf_render *r, const uint32_t *cps, size_t n, uint32_t *first)
{
	uint32_t c[KF_CELL_CPS];
	memcpy(c, cps, n * sizeof(*c));
	const size_t left = kf_shape_cluster(r, c, n, 0, 2);
	*first = c[0];
	return left;
}

int main(void)
{
	struct kf_render *r = NULL;
	if (access(EMOJI, R_OK) != 0 ||
	    kf_render_create(&(struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 20}, &r)) {
		printf("FAIL: no Noto Color Emoji or no DejaVu Sans Mono (tools/install-deps.sh installs both)\n");
		return 1;
	}
	static const uint32_t de[] = {0x1f1e9, 0x1f1ea}, us[] = {0x1f1fa, 0x1f1f8};
	uint32_t cp_de, cp_us, cp_b;
	CHECK(shape(r, de, 2, &cp_de) == 1 && (cp_de & KF_SEQ_CP));
	CHECK(shape(r, us, 2, &cp_us) == 1 && (cp_us & KF_SEQ_CP) && cp_us != cp_de);
	/* the flag of Germany, a combining acute and two code points that collide with it; the font has no one
	 * glyph for that (HarfBuzz gives the flag and the rest) */
	uint32_t x = 0x302;
	for (int k = 0; k < 3; k++) {
		uint32_t b[6] = {0x1f1e9, 0x1f1ea, 0x301, 0x300};
		collide(b, fnv(de, 2), x);
		x = b[4] + 1; /* the next one another cluster */
		CHECK((fnv(b, 6) & 0x7fffffff) == (fnv(de, 2) & 0x7fffffff));
		const size_t left = shape(r, b, 6, &cp_b);
		printf("U+1F1E9 U+1F1EA U+0301 U+0300 U+%04X U+%04X (its hash the flag's): %zu code points left%s\n",
		       b[4], b[5], left, left == 1 && cp_b == cp_de ? ", drawn as the flag of Germany" : "");
		CHECK(left == 6 && cp_b == b[0]);
		/* the flags are still theirs */
		CHECK(shape(r, de, 2, &cp_de) == 1 && (cp_de & KF_SEQ_CP));
		const struct kf_glyph *g = kf_render_glyph(r, cp_de, 0, 2);
		CHECK(!g->missing && g->kind == KF_GLYPH_COLOR);
	}
	/* many distinct sequences (the table of sequences is bounded: ASan and valgrind see a leak or
	 * overrun), then the flags again, each its own glyph */
	for (uint32_t i = 0; i < 5000; i++) {
		const uint32_t s[] = {0x1f466 + i % 4, 0x200d, 0x1f400 + i % 600, 0x200d, 0x1f680 + i / 600};
		shape(r, s, 5, &cp_b);
	}
	uint32_t again;
	CHECK(shape(r, us, 2, &again) == 1 && (again & KF_SEQ_CP));
	CHECK(shape(r, de, 2, &again) == 1 && (again & KF_SEQ_CP));
	kf_render_destroy(r);
	return check_finish(NULL);
}
