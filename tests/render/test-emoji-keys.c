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

/* The place of r->seqs a sequence had (compose.c before: one for each hash). */
static unsigned place(const uint32_t *cps, size_t n)
{
	const uint32_t h = fnv(cps, n);
	return (h ^ h >> 16) & (KF_SEQ_SLOTS - 1);
}

/* Two flags of the same place in the table of sequences, alternating as on a screen that shows both, each
 * paint: each keeps its glyph, no sequence shaped or glyph rasterised again after the first of each. Before:
 * each took the place from the other, a new id every time, shaped and rasterised again at every paint. */
static void alternating_flags(struct kf_render *r)
{
	static const char codes[] = "DEUSFRGBITESJPCNBRINCAAUMXRUKRNLSENOFIDKPLPTGRTRARCLCOPEZAEGNGKEILSAAEIRIQ"
				    "PKBDIDMYTHVNPHNZIEATCHBECZHUROBGUAHRRSSKSILTLVEEISLUMTCY";
	const size_t nc = sizeof(codes) / 2;
	uint32_t a[2] = {0}, b[2] = {0};
	for (size_t i = 0; i < nc && !b[0]; i++)
		for (size_t j = i + 1; j < nc && !b[0]; j++) {
			const uint32_t x[2] = {0x1f1e6 + (uint32_t)(codes[2 * i] - 'A'),
					       0x1f1e6 + (uint32_t)(codes[2 * i + 1] - 'A')};
			const uint32_t y[2] = {0x1f1e6 + (uint32_t)(codes[2 * j] - 'A'),
					       0x1f1e6 + (uint32_t)(codes[2 * j + 1] - 'A')};
			if (place(x, 2) == place(y, 2))
				memcpy(a, x, sizeof(a)), memcpy(b, y, sizeof(b));
		}
	CHECK(b[0] != 0);
	if (!b[0])
		return;
	uint32_t cp_a0 = 0, cp_b0 = 0, cp_a = 0, cp_b = 0;
	CHECK(shape(r, a, 2, &cp_a0) == 1 && shape(r, b, 2, &cp_b0) == 1);
	kf_render_glyph(r, cp_a0, 0, 2);
	kf_render_glyph(r, cp_b0, 0, 2);
	struct kf_render_stats st0, st1;
	kf_render_get_stats(r, &st0);
	int new_ids = 0;
	for (int k = 0; k < 10; k++) {
		CHECK(shape(r, a, 2, &cp_a) == 1 && shape(r, b, 2, &cp_b) == 1);
		new_ids += (cp_a != cp_a0) + (cp_b != cp_b0);
		kf_render_glyph(r, cp_a, 0, 2);
		kf_render_glyph(r, cp_b, 0, 2);
	}
	kf_render_get_stats(r, &st1);
	printf("flags U+%04X U+%04X and U+%04X U+%04X (one place), alternating 10 times: %d new ids, %llu glyph cache "
	       "misses\n", a[0], a[1], b[0], b[1], new_ids, (unsigned long long)(st1.misses - st0.misses));
	CHECK(new_ids == 0 && st1.misses == st0.misses);
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
	alternating_flags(r);
	uint32_t again;
	CHECK(shape(r, us, 2, &again) == 1 && (again & KF_SEQ_CP));
	CHECK(shape(r, de, 2, &again) == 1 && (again & KF_SEQ_CP));
	kf_render_destroy(r);
	return check_finish(NULL);
}
