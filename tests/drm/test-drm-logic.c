/* tests/drm/test-drm-logic.c: the parts of drm/ that need no hardware: damage regions, the union of damage
 * over a buffer's age, mode parsing and choice, property lookup by name. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"

static int failures;

static bool covers(const struct drm_region *rg, int32_t x, int32_t y)
{
	if (rg->full)
		return true;
	for (unsigned i = 0; i < rg->n; i++)
		if (x >= rg->r[i].x && x < rg->r[i].x + rg->r[i].w && y >= rg->r[i].y && y < rg->r[i].y + rg->r[i].h)
			return true;
	return false;
}

static void test_region(void)
{
	struct drm_region rg;

	drm_region_clear(&rg);
	CHECK(drm_region_empty(&rg));
	/* Stacked rows of the same width merge into one band. */
	drm_region_add(&rg, (struct drm_box){0, 0, 100, 16});
	drm_region_add(&rg, (struct drm_box){0, 16, 100, 16});
	CHECK(rg.n == 1 && rg.r[0].h == 32);
	/* A disjoint row stays apart; empty boxes are ignored. */
	drm_region_add(&rg, (struct drm_box){0, 64, 100, 16});
	drm_region_add(&rg, (struct drm_box){5, 5, 0, 10});
	CHECK(rg.n == 2);
	CHECK(drm_region_area(&rg) == 100 * 48);
	/* An overlapping box merges and pulls in what it now touches. */
	drm_region_add(&rg, (struct drm_box){10, 20, 20, 50});
	CHECK(rg.n == 1 && rg.r[0].y == 0 && rg.r[0].h == 80);

	/* Never more than DRM_REGION_MAX boxes, and nothing added is ever lost. */
	drm_region_clear(&rg);
	for (int i = 0; i < 100; i++)
		drm_region_add(&rg, (struct drm_box){(i * 37) % 500, i * 20, 3, 3});
	CHECK(rg.n <= DRM_REGION_MAX);
	for (int i = 0; i < 100; i++)
		CHECK(covers(&rg, (i * 37) % 500 + 1, i * 20 + 1));

	/* Clipping. */
	drm_region_clear(&rg);
	drm_region_add(&rg, (struct drm_box){-10, -10, 30, 30});
	drm_region_add(&rg, (struct drm_box){200, 200, 30, 30});
	drm_region_clip(&rg, 100, 100);
	CHECK(rg.n == 1 && rg.r[0].x == 0 && rg.r[0].y == 0 && rg.r[0].w == 20 && rg.r[0].h == 20);
	drm_region_set_full(&rg);
	drm_region_clip(&rg, 640, 480);
	CHECK(!rg.full && rg.n == 1 && rg.r[0].w == 640 && rg.r[0].h == 480);
}

static struct drm_region row(int32_t y)
{
	struct drm_region rg;

	drm_region_clear(&rg);
	drm_region_add(&rg, (struct drm_box){0, y * 16, 640, 16});
	return rg;
}

static void test_buffer_age(void)
{
	struct drm_damage_ring ring;
	struct drm_region cur = row(9), u;

	drm_damage_ring_reset(&ring);
	/* Age 0: contents unknown. */
	drm_damage_ring_union(&ring, 0, &cur, &u);
	CHECK(u.full);
	/* Frames 1..3 damaged rows 1, 2, 3. */
	for (int y = 1; y <= 3; y++) {
		struct drm_region f = row(y);
		drm_damage_ring_push(&ring, &f);
	}
	/* Age 1: the buffer shows the newest frame: only the current damage. */
	drm_damage_ring_union(&ring, 1, &cur, &u);
	CHECK(covers(&u, 0, 9 * 16) && !covers(&u, 0, 3 * 16) && !covers(&u, 0, 2 * 16));
	/* Age 2 (double buffering): plus the last frame's damage, not older. */
	drm_damage_ring_union(&ring, 2, &cur, &u);
	CHECK(covers(&u, 0, 9 * 16) && covers(&u, 0, 3 * 16) && !covers(&u, 0, 2 * 16));
	/* Age 3: plus the two last frames. */
	drm_damage_ring_union(&ring, 3, &cur, &u);
	CHECK(covers(&u, 0, 3 * 16) && covers(&u, 0, 2 * 16) && !covers(&u, 0, 1 * 16));
	/* Older than the frames pushed so far: full. */
	drm_damage_ring_union(&ring, 5, &cur, &u);
	CHECK(u.full);
	/* Older than the history: full. */
	for (int y = 4; y <= 10; y++) {
		struct drm_region f = row(y);
		drm_damage_ring_push(&ring, &f);
	}
	drm_damage_ring_union(&ring, DRM_DAMAGE_HISTORY + 1, &cur, &u);
	CHECK(!u.full);
	drm_damage_ring_union(&ring, DRM_DAMAGE_HISTORY + 2, &cur, &u);
	CHECK(u.full);
	/* A full frame in the history makes every buffer that predates it full. */
	struct drm_region full;
	drm_region_set_full(&full);
	drm_damage_ring_push(&ring, &full);
	drm_damage_ring_union(&ring, 1, &cur, &u);
	CHECK(!u.full);
	drm_damage_ring_union(&ring, 2, &cur, &u);
	CHECK(u.full);
}

static void test_mode_parse(void)
{
	uint32_t w = 0, h = 0;

	CHECK(drm_mode_parse("1024x768", &w, &h) == 0 && w == 1024 && h == 768);
	CHECK(drm_mode_parse("1x1", &w, &h) == 0 && w == 1 && h == 1);
	const char *bad[] = {"", "x", "1024", "1024x", "x768", "1024X768", "1024x768x", " 1024x768", "-1x5",
			     "0x768", "1024x0", "99999x768", "1024x768 ", "+5x5", "5x+5", "18446744073709551617x1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(drm_mode_parse(bad[i], &w, &h) == -EINVAL);
	CHECK(drm_mode_parse(NULL, &w, &h) == -EINVAL);
}

static drmModeModeInfo mk(uint16_t w, uint16_t h, uint32_t clock_khz, uint32_t type, uint32_t flags)
{
	drmModeModeInfo m;

	memset(&m, 0, sizeof(m));
	m.hdisplay = w;
	m.vdisplay = h;
	m.htotal = (uint16_t)(w + 100);
	m.vtotal = (uint16_t)(h + 20);
	m.clock = clock_khz;
	m.type = type;
	m.flags = flags;
	return m;
}

static void test_mode_choose(void)
{
	drmModeModeInfo modes[] = {
		mk(1920, 1080, 148500, DRM_MODE_TYPE_DRIVER, 0),
		mk(1024, 768, 65000, DRM_MODE_TYPE_PREFERRED, 0),
		mk(800, 600, 40000, 0, DRM_MODE_FLAG_INTERLACE),
		mk(800, 600, 40000, 0, 0),
		mk(800, 600, 50000, 0, 0),
		mk(1024, 768, 75000, 0, 0),
	};
	char list[64];

	CHECK(drm_mode_choose(modes, 6, 0, 0) == 1);         /* preferred */
	CHECK(drm_mode_choose(modes, 1, 0, 0) == 0);         /* first when none preferred */
	CHECK(drm_mode_choose(modes, 6, 1024, 768) == 1);    /* preferred beats faster */
	CHECK(drm_mode_choose(modes, 6, 800, 600) == 4);     /* progressive, then highest refresh */
	CHECK(drm_mode_choose(modes, 6, 1920, 1080) == 0);
	CHECK(drm_mode_choose(modes, 6, 1280, 720) == -1);   /* unsupported */
	CHECK(drm_mode_choose(modes, 0, 0, 0) == -1);
	drm_mode_list(modes, 6, list, sizeof(list));
	CHECK(strcmp(list, "1920x1080 1024x768 800x600") == 0);
	drm_mode_list(modes, 6, list, 12); /* truncated at a whole entry */
	CHECK(strcmp(list, "1920x1080") == 0);
	/* 65 MHz over 1124 x 788 = 73.387 Hz */
	CHECK(drm_mode_refresh_mhz(&modes[1]) == 73387);
}

/* A DisplayID may list a mode near 65535x65535 as preferred: no buffer or canvas can be made for it (the canvas
 * was left 0x0, nothing shown). The first usable mode is taken instead; with none usable, none. */
static void test_mode_choose_huge(void)
{
	drmModeModeInfo modes[] = {
		mk(65535, 65535, 148500, DRM_MODE_TYPE_PREFERRED, 0),
		mk(20000, 1080, 148500, 0, 0),
		mk(1024, 768, 65000, 0, 0),
	};

	CHECK(drm_mode_choose(modes, 3, 0, 0) == 2);
	CHECK(drm_mode_choose(modes, 2, 0, 0) == -1);
	CHECK(drm_mode_choose(modes, 3, 65535, 65535) == -1);
}

/* A mode the kernel refuses: the next one to try is the preferred mode, then the others in the kernel's order,
 * never the refused one again, none that is not usable; below max_area when it is not 0 (a canvas that could not
 * be allocated). */
static void test_mode_fallback(void)
{
	drmModeModeInfo modes[] = {
		mk(1920, 1080, 148500, 0, 0),
		mk(65535, 65535, 148500, 0, 0),
		mk(1024, 768, 65000, DRM_MODE_TYPE_PREFERRED, 0),
		mk(800, 600, 40000, 0, 0),
	};
	drmModeModeInfo refused[2] = {modes[0], modes[0]};
	unsigned next = 0;

	CHECK(drm_mode_fallback(modes, 4, &next, refused, 2, 0) == 2);
	refused[1] = modes[2];
	CHECK(drm_mode_fallback(modes, 4, &next, refused, 2, 0) == 3); /* 1920x1080 was refused first */
	refused[1] = modes[3];
	CHECK(drm_mode_fallback(modes, 4, &next, refused, 2, 0) == -1);
	next = 0;
	refused[0] = refused[1] = modes[2];
	CHECK(drm_mode_fallback(modes, 4, &next, refused, 2, 0) == 0); /* the preferred one refused first */
	refused[1] = modes[0];
	CHECK(drm_mode_fallback(modes, 4, &next, refused, 2, 0) == 3);
	next = 0;
	CHECK(drm_mode_fallback(modes, 4, &next, modes, 1, 1024 * 768) == 3);
}

/* Timings from a hostile or broken EDID (the kernel only refuses a clock of 0; virtio-gpu takes any mode the host
 * describes): the refresh saturates instead of wrapping, and the pacing of drivers without vblank (one frame per
 * refresh period) stays between 1 ms and 50 ms. A 10 kHz pixel clock (EDID's smallest) at 1024x768 is 11 mHz: one
 * frame every 91 s, the display frozen. */
static void test_mode_period(void)
{
	drmModeModeInfo slow = mk(1024, 768, 10, DRM_MODE_TYPE_PREFERRED, 0);
	drmModeModeInfo fast = mk(1, 1, 4000000000u, DRM_MODE_TYPE_PREFERRED, 0);
	drmModeModeInfo none = mk(1024, 768, 0, 0, 0);
	drmModeModeInfo normal = mk(1024, 768, 65000, 0, 0);

	CHECK(drm_mode_refresh_mhz(&slow) == 11);
	CHECK(drm_mode_refresh_mhz(&fast) == UINT32_MAX); /* 1.9e12 mHz: wrapped to 1.8e9 before */
	CHECK(drm_mode_period_ns(&slow) == 50000000);
	CHECK(drm_mode_period_ns(&fast) == 1000000);
	CHECK(drm_mode_period_ns(&none) == 16666667);
	CHECK(drm_mode_period_ns(&normal) == 1000000000000LL / 73387);
}

static void test_props_match(void)
{
	const char *names[] = {"type", NULL, "FB_ID", "CRTC_ID", "FB_DAMAGE_CLIPS"};
	const uint32_t ids[] = {7, 8, 9, 10, 11};
	const char *wanted[] = {"CRTC_ID", "FB_ID", "IN_FENCE_FD", "type"};
	uint32_t out[4];

	drm_props_match(wanted, 4, names, ids, 5, out);
	CHECK(out[0] == 10 && out[1] == 9 && out[2] == 0 && out[3] == 7);
}

/* The last message drm/ logged, with the place it names (log_handler). */
static char logged[256], logged_file[128];
static int logged_line;

static void log_handler(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)prio;
	vsnprintf(logged, sizeof(logged), fmt, ap);
	snprintf(logged_file, sizeof(logged_file), "%s", file ? file : "");
	logged_line = line;
}

/* The burst passes, the rest is counted, and the count is logged when the interval ends: a message of drm/ that
 * names the place in drm/ that logged it (every line of drm/ read "[drm:0]"). */
static void test_ratelimit(void)
{
	struct drm_ratelimit rl = {0};
	unsigned passed = 0;

	drm_set_log_handler(log_handler);
	for (int i = 0; i < 100; i++)
		passed += drm_ratelimit_pass(&rl, 1000 + i);
	CHECK(passed == 5);
	CHECK(drm_ratelimit_pass(&rl, 1000 + 11 * 1000000000LL));
	CHECK(!strcmp(logged, "95 similar messages suppressed"));
	const char *base = strrchr(logged_file, '/');
	CHECK(!strcmp(base ? base + 1 : logged_file, "log.c") && logged_line > 0);
	drm_set_log_handler(NULL);
}

int main(void)
{
	test_region();
	test_buffer_age();
	test_mode_parse();
	test_mode_choose();
	test_mode_choose_huge();
	test_mode_fallback();
	test_mode_period();
	test_props_match();
	test_ratelimit();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
