/* tests/drm/test-drm-assign.c: which CRTC and primary plane each connected connector gets (drm/card.c's scan),
 * with the encoders' and planes' possible_crtcs masks of real hardware: a connector one CRTC can drive beside one
 * any CRTC can, a primary plane that can go on two CRTCs beside one that cannot. The kernel is stood in for at
 * libdrm's boundary (tests/drm/stand-in-kernel.h); everything else is drm/'s own code.
 *
 * What a user saw: each connector took the first free CRTC its encoders allowed, in connector order, so a monitor
 * on a connector with a single possible CRTC stayed dark ("no free CRTC") when another connector had taken that
 * CRTC although it could have used another. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"
#include "tests/kf-log-capture.h"

static int failures;

#include "tests/drm/stand-in-kernel.h"

/* A card of n CRTCs (100 + i) and one primary plane per CRTC (200 + i, on that CRTC only), no outputs yet, no
 * device; connectors 300.. (fake_conns) with one 64x64 mode. */
static void bare_card(struct drm_backend *b, struct drm_card *card, unsigned n, bool atomic)
{
	*card = (struct drm_card){.b = b, .fd = -1, .atomic = atomic, .n_crtcs = n, .n_planes = n, .crtcs = crtcs,
				  .planes = planes, .needs_modeset = true};
	for (unsigned i = 0; i < n; i++) {
		crtcs[i] = (struct drm_card_crtc){.id = 100 + i};
		planes[i] = (struct drm_card_plane){.id = 200 + i, .possible_crtcs = 1u << i, .xrgb8888 = true,
						    .type = DRM_PLANE_TYPE_PRIMARY};
	}
	fake_modes[0] = mode_of(64, DRM_MODE_TYPE_PREFERRED);
	n_fake_modes = 1;
	memset(fake_enc_crtcs, 0, sizeof(fake_enc_crtcs));
	memset(fake_enc_crtc, 0, sizeof(fake_enc_crtc));
	memset(fake_enc_of, 0, sizeof(fake_enc_of));
	fake_unplugged = 0;
	logbuf[0] = '\0';
}

static void bare_card_free(struct drm_card *card)
{
	for (unsigned i = 0; i < card->n_outputs; i++)
		drm_output_destroy(card->outputs[i]);
	card->n_outputs = 0;
	fake_conns = n_fake_modes = 0;
	memset(fake_enc_crtcs, 0, sizeof(fake_enc_crtcs));
	memset(fake_enc_crtc, 0, sizeof(fake_enc_crtc));
	memset(fake_enc_of, 0, sizeof(fake_enc_of));
	fake_unplugged = 0;
}

static const struct drm_output *output_of(const struct drm_card *card, uint32_t conn_id)
{
	for (unsigned i = 0; i < card->n_outputs; i++)
		if (card->outputs[i]->conn_id == conn_id)
			return card->outputs[i];
	return NULL;
}

/* The CRTC id connector conn_id is shown on, 0 when it is not. */
static uint32_t crtc_of(const struct drm_card *card, uint32_t conn_id)
{
	const struct drm_output *out = output_of(card, conn_id);

	return out ? out->crtc_id : 0;
}

/* Every output on a distinct CRTC its encoder allows, crtc_index and crtc_id agreeing, and (atomic) on a distinct
 * primary plane whose possible_crtcs includes that CRTC. */
static bool consistent(const struct drm_card *card)
{
	for (unsigned i = 0; i < card->n_outputs; i++) {
		const struct drm_output *out = card->outputs[i];
		uint32_t mask = fake_enc_crtcs[out->conn_id - 300] ? fake_enc_crtcs[out->conn_id - 300] : 7;
		bool plane_ok = !card->atomic;

		if (out->crtc_index >= card->n_crtcs || card->crtcs[out->crtc_index].id != out->crtc_id ||
		    !(mask & (1u << out->crtc_index)))
			return false;
		for (unsigned p = 0; p < card->n_planes; p++)
			if (card->planes[p].id == out->plane_id)
				plane_ok = card->planes[p].possible_crtcs & (1u << out->crtc_index);
		if (!plane_ok)
			return false;
		for (unsigned j = 0; j < i; j++)
			if (card->outputs[j]->crtc_id == out->crtc_id ||
			    (card->atomic && card->outputs[j]->plane_id == out->plane_id))
				return false;
	}
	return true;
}

/* Connector A (300) can use CRTC 0 or 1, connector B (301) only CRTC 0: both are shown (A on CRTC 1). Before, A
 * took CRTC 0 and B stayed dark. */
static void test_constrained(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 2, atomic);
	fake_conns = 2;
	fake_enc_crtcs[0] = 3;
	fake_enc_crtcs[1] = 1;
	CHECK(drm_card_scan(&card, &err) && err == 0);
	printf("%s: A on CRTC %u (want 101), B on CRTC %u (want 100), outputs %u (want 2)\n",
	       atomic ? "atomic" : "legacy", crtc_of(&card, 300), crtc_of(&card, 301), card.n_outputs);
	CHECK(card.n_outputs == 2 && crtc_of(&card, 300) == 101 && crtc_of(&card, 301) == 100 && consistent(&card));
	CHECK(!strstr(logbuf, "no free CRTC"));
	/* A rescan (a hotplug uevent, the switch back to the VT) moves nothing. */
	card.needs_modeset = false;
	for (int i = 0; i < 3; i++)
		CHECK(!drm_card_scan(&card, &err));
	CHECK(crtc_of(&card, 300) == 101 && crtc_of(&card, 301) == 100 && !card.needs_modeset);
	bare_card_free(&card);
}

/* A primary plane that can go on CRTC 0 or 1 (200) and one only on CRTC 0 (201): two displays are shown, each on a
 * plane whose possible_crtcs holds its CRTC. Before, the first display took CRTC 0 with plane 200, and CRTC 1 had
 * no plane left. */
static void test_plane_masks(struct drm_backend *b)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 2, true);
	planes[0].possible_crtcs = 3;
	planes[1].possible_crtcs = 1;
	fake_conns = 2;
	CHECK(drm_card_scan(&card, &err));
	printf("planes 200 on {0,1}, 201 on {0}: outputs %u (want 2)\n", card.n_outputs);
	CHECK(card.n_outputs == 2 && consistent(&card));
	CHECK(output_of(&card, 300) && output_of(&card, 301));
	bare_card_free(&card);
	/* A plane on CRTC 1 only, none on CRTC 0: one display (on CRTC 1), the other said once. */
	bare_card(b, &card, 2, true);
	planes[0].possible_crtcs = 2;
	planes[1].possible_crtcs = 2;
	planes[1].type = DRM_PLANE_TYPE_OVERLAY;
	fake_conns = 2;
	CHECK(drm_card_scan(&card, &err));
	CHECK(card.n_outputs == 1 && consistent(&card) && card.outputs[0]->crtc_id == 101);
	CHECK(count(logbuf, "DP-2") == 1 && strstr(logbuf, "no free CRTC"));
	drm_card_scan(&card, &err);
	CHECK(count(logbuf, "DP-2") == 1);
	planes[1].type = DRM_PLANE_TYPE_PRIMARY;
	bare_card_free(&card);
}

/* Hotplug: a third display that can use only the CRTC a shown one holds, while that one can use another: the shown
 * one moves (said), the new one is shown; a display that cannot be fitted in never takes a shown one's CRTC. */
static void test_hotplug_moves(struct drm_backend *b)
{
	struct drm_card card;
	const struct drm_output *a;
	int err;

	bare_card(b, &card, 3, true);
	fake_conns = 2;
	fake_enc_crtcs[0] = 6; /* A: CRTC 1 or 2 */
	fake_enc_crtcs[1] = 1; /* B: CRTC 0 */
	CHECK(drm_card_scan(&card, &err) && card.n_outputs == 2 && consistent(&card));
	a = output_of(&card, 300);
	CHECK(a && a->crtc_id == 101);
	card.needs_modeset = false;
	fake_conns = 3;
	fake_enc_crtcs[2] = 2; /* C: CRTC 1 */
	CHECK(drm_card_scan(&card, &err));
	printf("hotplug of C (CRTC 1 only): A on %u (want 102), B on %u (want 100), C on %u (want 101)\n",
	       crtc_of(&card, 300), crtc_of(&card, 301), crtc_of(&card, 302));
	CHECK(card.n_outputs == 3 && consistent(&card) && output_of(&card, 300) == a);
	CHECK(crtc_of(&card, 300) == 102 && crtc_of(&card, 301) == 100 && crtc_of(&card, 302) == 101);
	CHECK(card.needs_modeset && strstr(logbuf, "moves to [CRTC:102]"));
	/* D can only use CRTC 0, which B holds and B can use no other: B stays, D is dark (said once). */
	fake_conns = 4;
	fake_enc_crtcs[3] = 1;
	card.needs_modeset = false;
	CHECK(!drm_card_scan(&card, &err) && !drm_card_scan(&card, &err));
	CHECK(crtc_of(&card, 301) == 100 && !output_of(&card, 303) && count(logbuf, "DP-4") == 1);
	CHECK(!card.needs_modeset);
	/* B unplugged: D gets CRTC 0; nothing else moves. */
	fake_unplugged = 1u << 1;
	CHECK(drm_card_scan(&card, &err));
	CHECK(crtc_of(&card, 303) == 100 && crtc_of(&card, 300) == 102 && crtc_of(&card, 302) == 101);
	CHECK(consistent(&card));
	bare_card_free(&card);
}

/* More displays than CRTCs: the first ones (connector order) are shown; the others, said once, wait; one
 * unplugged frees its CRTC for a waiting one, and no shown one moves. The CRTC the kernel drives a connector with
 * at start (fbcon's) is kept when free. */
static void test_more_displays(struct drm_backend *b)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 2, false);
	fake_conns = 3;
	fake_enc_crtc[0] = 101; /* fbcon drives A with CRTC 1 */
	CHECK(drm_card_scan(&card, &err) && card.n_outputs == 2 && consistent(&card));
	CHECK(crtc_of(&card, 300) == 101 && crtc_of(&card, 301) == 100 && !output_of(&card, 302));
	CHECK(count(logbuf, "DP-3") == 1);
	fake_unplugged = 1u << 0;
	CHECK(drm_card_scan(&card, &err));
	CHECK(crtc_of(&card, 301) == 100 && crtc_of(&card, 302) == 101 && consistent(&card));
	bare_card_free(&card);
}

/* A shown display on a CRTC its mask does not hold (the masks say it cannot be shown so, but it is): it stays
 * there, and no new display is given its CRTC. */
static void test_pinned(struct drm_backend *b)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 2, true);
	fake_conns = 1;
	CHECK(drm_card_scan(&card, &err) && card.n_outputs == 1 && crtc_of(&card, 300) == 100);
	fake_enc_crtcs[0] = 2; /* its encoder's mask, read at each assignment, now says CRTC 1 only */
	fake_conns = 2;
	fake_enc_crtcs[1] = 1; /* B: CRTC 0 only, A's */
	drm_card_scan(&card, &err);
	CHECK(crtc_of(&card, 300) == 100 && card.outputs[0]->plane_id == 200 && !output_of(&card, 301));
	bare_card_free(&card);
}

/* A rescan (each hotplug uevent, which a dock sends by the dozen) probes each connector once: a probe of a
 * connected connector reads its EDID (tens of ms over DDC or DP AUX), in the event loop. A shown display's
 * connector was probed twice, once to see that it is still there and again in the look for new ones. */
static void test_probes_per_scan(struct drm_backend *b)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 3, true);
	fake_conns = 3;
	CHECK(drm_card_scan(&card, &err) && card.n_outputs == 3);
	probes = 0;
	CHECK(!drm_card_scan(&card, &err));
	printf("rescan of 3 shown displays: %d probes (want 3)\n", probes);
	CHECK(probes == 3);
	/* one unplugged: still one probe per connector */
	fake_unplugged = 1u << 2;
	probes = 0;
	CHECK(drm_card_scan(&card, &err) && card.n_outputs == 2);
	CHECK(probes == 3);
	bare_card_free(&card);
}

/* Two connectors whose one encoder is the same (a DVI-I port's analog half and a VGA port on one DAC; TV-out
 * beside VGA): an encoder drives one connector at a time, so only one of them can be shown, whatever the CRTCs.
 * Both were given a CRTC and the modeset that routed both through the encoder failed (the kernel: "encoder in use"):
 * every display of the card dark. Now one is shown, the other said once (not at each rescan) and shown when the
 * first is unplugged; a third connector with an encoder of its own is shown beside. */
static void test_shared_encoder(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	int err;

	bare_card(b, &card, 3, atomic);
	fake_conns = 3;
	fake_enc_of[0] = fake_enc_of[1] = 1; /* A and B: encoder 600 */
	CHECK(drm_card_scan(&card, &err));
	printf("%s, A and B share an encoder, C has its own: outputs %u (want 2), A on %u, B on %u (want 0), C on %u\n",
	       atomic ? "atomic" : "legacy", card.n_outputs, crtc_of(&card, 300), crtc_of(&card, 301),
	       crtc_of(&card, 302));
	CHECK(card.n_outputs == 2 && consistent(&card) && crtc_of(&card, 300) && !crtc_of(&card, 301) &&
	      crtc_of(&card, 302));
	CHECK(count(logbuf, "DP-2") == 1);
	card.needs_modeset = false;
	CHECK(!drm_card_scan(&card, &err) && !card.needs_modeset && count(logbuf, "DP-2") == 1);
	/* A unplugged: its encoder is free, B is shown */
	fake_unplugged = 1u << 0;
	CHECK(drm_card_scan(&card, &err));
	CHECK(card.n_outputs == 2 && consistent(&card) && crtc_of(&card, 301) && crtc_of(&card, 302));
	bare_card_free(&card);
}

/* drm_assign on its own: connector 0 can use encoder 0 or 1, connector 1 only encoder 0; encoder 0 drives CRTC 0
 * or 1, encoder 1 only CRTC 1. Both are shown (0 through encoder 1 on CRTC 1, 1 through encoder 0 on CRTC 0); a
 * third connector on encoder 0 alone is not, although a CRTC (2) is free. */
static void test_assign_encoders(void)
{
	const uint32_t enc_crtcs[2] = {3, 2};
	struct drm_assign_conn a[3] = {
		{.crtcs = 3, .encoders = 3, .keep_crtc = -1, .keep_plane = -1, .prefer_crtc = -1},
		{.crtcs = 3, .encoders = 1, .keep_crtc = -1, .keep_plane = -1, .prefer_crtc = -1},
		{.crtcs = 7, .encoders = 1, .keep_crtc = -1, .keep_plane = -1, .prefer_crtc = -1},
	};
	unsigned n = drm_assign(a, 3, 3, enc_crtcs, 2, NULL, 0, false);

	printf("drm_assign, encoders {0,1} {0} {0}: %u assigned (want 2): CRTCs %d %d %d (want 1 0 -1)\n", n, a[0].crtc,
	       a[1].crtc, a[2].crtc);
	CHECK(n == 2 && a[0].crtc == 1 && a[1].crtc == 0 && a[2].crtc == -1);
}

int main(void)
{
	struct drm_backend *b = stand_in_backend();

	if (!b)
		return 1;
	test_constrained(b, true);
	test_constrained(b, false);
	test_plane_masks(b);
	test_hotplug_moves(b);
	test_more_displays(b);
	test_probes_per_scan(b);
	test_pinned(b);
	test_shared_encoder(b, true);
	test_shared_encoder(b, false);
	test_assign_encoders();
	return stand_in_end(b);
}
