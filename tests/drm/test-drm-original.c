/* tests/drm/test-drm-original.c: use-original-mode without a device. The choice over a connector's mode list and
 * the mode its CRTC drove at start (drm_mode_select: the original wins over the preferred mode, --mode wins over
 * the original, a mode the connector does not list is shown as the CRTC had it), the card's choice per connector
 * with the line saying why it falls back to the preferred mode (no CRTC, no valid mode, connected after start),
 * and which outputs keep their mode at a rescan (a VT switch back keeps the mode chosen at start). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"

static int failures;

/* A mode with made-up but consistent timings: the same size at another clock or total is another mode. */
static drmModeModeInfo mk(uint16_t w, uint16_t h, uint32_t clock_khz, uint16_t htotal, uint32_t type)
{
	drmModeModeInfo m;

	memset(&m, 0, sizeof(m));
	m.hdisplay = w;
	m.hsync_start = (uint16_t)(w + 16);
	m.hsync_end = (uint16_t)(w + 48);
	m.htotal = htotal;
	m.vdisplay = h;
	m.vsync_start = (uint16_t)(h + 3);
	m.vsync_end = (uint16_t)(h + 7);
	m.vtotal = (uint16_t)(h + 25);
	m.clock = clock_khz;
	m.type = type;
	snprintf(m.name, sizeof(m.name), "%ux%u", w, h);
	return m;
}

/* What the CRTC reports for a listed mode: the same timings, its own type bits and maybe another name. */
static drmModeModeInfo as_crtc(drmModeModeInfo m)
{
	m.type = 0;
	snprintf(m.name, sizeof(m.name), "crtc");
	return m;
}

static void test_mode_same(void)
{
	drmModeModeInfo a = mk(800, 600, 40000, 1056, DRM_MODE_TYPE_DRIVER), b = as_crtc(a);

	CHECK(drm_mode_same(&a, &b));
	b = a;
	b.clock = 40001;
	CHECK(!drm_mode_same(&a, &b));
	b = a;
	b.vsync_start++;
	CHECK(!drm_mode_same(&a, &b));
	b = a;
	b.hskew = 1;
	CHECK(!drm_mode_same(&a, &b));
	b = a;
	b.flags = DRM_MODE_FLAG_INTERLACE;
	CHECK(!drm_mode_same(&a, &b));
	/* The aspect ratio is a label of the mode (an HDMI code), not a timing. */
	b = a;
	b.flags = DRM_MODE_FLAG_PIC_AR_4_3;
	CHECK(drm_mode_same(&a, &b));
}

static void test_mode_usable(void)
{
	drmModeModeInfo m = mk(800, 600, 40000, 1056, 0), z;

	memset(&z, 0, sizeof(z));
	CHECK(drm_mode_usable(&m));
	CHECK(!drm_mode_usable(&z));
	m.clock = 0;
	CHECK(!drm_mode_usable(&m));
	m = mk(0, 600, 40000, 100, 0);
	CHECK(!drm_mode_usable(&m));
	m = mk(800, 0, 40000, 1056, 0);
	CHECK(!drm_mode_usable(&m));
	m = mk(20000, 600, 40000, 30000, 0);
	CHECK(!drm_mode_usable(&m));
	m = mk(16384, 16384, 900000, 17000, 0);
	CHECK(drm_mode_usable(&m));
}

static void test_mode_select(void)
{
	drmModeModeInfo modes[] = {
		mk(1920, 1080, 148500, 2200, DRM_MODE_TYPE_DRIVER),
		mk(1024, 768, 65000, 1344, DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED),
		mk(800, 600, 40000, 1056, DRM_MODE_TYPE_DRIVER),
		/* video=800x600 on the kernel command line: the same size with other timings, added by the kernel */
		mk(800, 600, 38250, 1024, DRM_MODE_TYPE_USERDEF),
		mk(800, 600, 40000, 1056, DRM_MODE_TYPE_DRIVER), /* a duplicate: the first is taken */
	};
	drmModeModeInfo orig;

	/* Option off (no original): the preferred mode, as before. */
	CHECK(drm_mode_select(modes, 5, 0, 0, NULL) == 1);
	/* The CRTC's mode, found among the connector's by its timings (not its size only). */
	orig = as_crtc(modes[3]);
	CHECK(drm_mode_select(modes, 5, 0, 0, &orig) == 3);
	orig = as_crtc(modes[2]);
	CHECK(drm_mode_select(modes, 5, 0, 0, &orig) == 2);
	orig = as_crtc(modes[1]);
	CHECK(drm_mode_select(modes, 5, 0, 0, &orig) == 1);
	/* Not listed (a size the connector does not list, or a listed size with other timings): the CRTC's own. */
	orig = mk(1280, 720, 74250, 1650, 0);
	CHECK(drm_mode_select(modes, 5, 0, 0, &orig) == DRM_SELECT_ORIGINAL);
	orig = as_crtc(modes[2]);
	orig.clock = 39000;
	CHECK(drm_mode_select(modes, 5, 0, 0, &orig) == DRM_SELECT_ORIGINAL);
	/* A connector without modes that a CRTC drives: that mode works. Without it nothing does. */
	CHECK(drm_mode_select(modes, 0, 0, 0, &orig) == DRM_SELECT_ORIGINAL);
	CHECK(drm_mode_select(modes, 0, 0, 0, NULL) == -1);
	/* --mode wins over the original mode, and is not replaced by it when missing. */
	orig = as_crtc(modes[3]);
	CHECK(drm_mode_select(modes, 5, 1920, 1080, &orig) == 0);
	CHECK(drm_mode_select(modes, 5, 800, 600, &orig) == 2);
	CHECK(drm_mode_select(modes, 5, 1280, 720, &orig) == -1);
}

/* Every message drm/ logged, one per line. */
static char logged[4096];

static void log_handler(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	size_t len = strlen(logged);

	(void)prio;
	(void)file;
	(void)line;
	if (len + 2 < sizeof(logged)) {
		vsnprintf(logged + len, sizeof(logged) - len - 1, fmt, ap);
		strcat(logged, "\n");
	}
}

static int choose(struct drm_card *card, drmModeConnector *conn, drmModeModeInfo *m)
{
	int err = 0, src;

	logged[0] = '\0';
	src = drm_card_choose_mode(card, conn, "[CONNECTOR:test]", m, &err);
	CHECK(err == 0 || src == -1);
	return src;
}

/* A card without a device, of a backend with use-original-mode on, and a connector's modes: 1024x768 preferred
 * (QEMU's EDID), 800x600 as video=800x600 adds it, 1280x720. */
static struct drm_backend b;
static struct drm_card card;
static drmModeModeInfo modes[3];

static void setup(void)
{
	memset(&b, 0, sizeof(b));
	memset(&card, 0, sizeof(card));
	card.b = &b;
	card.fd = -1;
	b.cfg.use_original_mode = true;
	modes[0] = mk(1024, 768, 65000, 1344, DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED);
	modes[1] = mk(800, 600, 38250, 1024, DRM_MODE_TYPE_USERDEF);
	modes[2] = mk(1280, 720, 74250, 1650, DRM_MODE_TYPE_DRIVER);
}

static void test_card_choose(void)
{
	drmModeConnector conn = {.connection = DRM_MODE_CONNECTED, .modes = modes, .count_modes = 2};
	drmModeModeInfo m;

	setup();
	drm_set_log_handler(log_handler);
	/* What drm_card_open read: connector 10 driven at 800x600 (fbcon after video=800x600), 11 at a mode it
	 * does not list, 12 by no CRTC, 13 by a CRTC without a valid mode; 14 was not read. */
	card.originals[0] = (struct drm_card_original){.conn_id = 10, .valid = true, .mode = as_crtc(modes[1])};
	card.originals[1] = (struct drm_card_original){.conn_id = 11, .valid = true,
						       .mode = mk(1280, 720, 74250, 1650, 0)};
	card.originals[2] = (struct drm_card_original){.conn_id = 12, .why = "no CRTC drives it"};
	card.originals[3] = (struct drm_card_original){.conn_id = 13, .why = "its CRTC has no valid mode"};
	card.n_originals = 4;
	card.originals_read = true;

	conn.connector_id = 10;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_KEPT);
	/* The listed mode (its type bits and name), not the CRTC's copy. */
	CHECK(m.hdisplay == 800 && m.clock == 38250 && (m.type & DRM_MODE_TYPE_USERDEF) && !strcmp(m.name, "800x600"));
	conn.connector_id = 11;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_KEPT_UNLISTED);
	CHECK(m.hdisplay == 1280 && m.vdisplay == 720 && m.clock == 74250);
	/* No original: the preferred mode, with a line that says why. */
	conn.connector_id = 12;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && m.hdisplay == 1024);
	CHECK(strstr(logged, "[CONNECTOR:test]") && strstr(logged, "no CRTC drives it") &&
	      strstr(logged, "preferred mode"));
	conn.connector_id = 13;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && strstr(logged, "its CRTC has no valid mode"));
	conn.connector_id = 14;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && strstr(logged, "preferred mode"));
	/* Opened while another master had the display (a retry while the VT is away): nothing was read. */
	card.originals_read = false;
	conn.connector_id = 10;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && strstr(logged, "while the seat was another's"));
	card.originals_read = true;
	/* Driven at start but without modes (no EDID): the CRTC's mode works; without an original it is skipped. */
	conn.connector_id = 11;
	conn.count_modes = 0;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_KEPT_UNLISTED && m.hdisplay == 1280);
	conn.connector_id = 12;
	CHECK(choose(&card, &conn, &m) == -1);
	conn.count_modes = 2;

	/* --mode wins (no fallback line per connector: the backend said it once). */
	b.cfg.mode_width = 1024;
	b.cfg.mode_height = 768;
	conn.connector_id = 10;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_ASKED && m.hdisplay == 1024);
	b.cfg.mode_width = b.cfg.mode_height = 0;

	/* Option off: the preferred mode and not a word about originals. */
	b.cfg.use_original_mode = false;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && m.hdisplay == 1024 && !strstr(logged, "original"));
	b.cfg.use_original_mode = true;

	/* After the card's first scan, a connector (re)connected has no mode of its own: preferred. */
	card.originals_done = true;
	CHECK(choose(&card, &conn, &m) == DRM_SOURCE_PREFERRED && m.hdisplay == 1024);
	CHECK(strstr(logged, "connected after start") && strstr(logged, "preferred mode"));
	drm_set_log_handler(NULL);
}

static void test_keeps_mode(void)
{
	drmModeConnector conn = {.connection = DRM_MODE_CONNECTED, .modes = modes, .count_modes = 3};
	struct drm_output out = {.card = &card};

	setup();
	/* Kept at start: stays at a rescan (resume after a VT switch: whatever the other master left). */
	out.mode = modes[1];
	out.mode_source = DRM_SOURCE_KEPT;
	CHECK(drm_output_keeps_mode(&out, &conn));
	/* ... until the connector no longer lists it (another monitor on that connector). */
	conn.count_modes = 1;
	CHECK(!drm_output_keeps_mode(&out, &conn));
	/* A connector listing no modes for a moment (an EDID not read at this probe, a KVM switched away): kept, as a
	 * mode asked for is; it was dropped, and came back on the preferred mode ("connected after start"). */
	conn.count_modes = 0;
	CHECK(drm_output_keeps_mode(&out, &conn));
	out.mode_source = DRM_SOURCE_FALLBACK;
	CHECK(drm_output_keeps_mode(&out, &conn));
	out.mode_source = DRM_SOURCE_KEPT;
	conn.count_modes = 1;
	/* A mode it never listed stays while connected. */
	out.mode = mk(1920, 1200, 154000, 2080, 0);
	out.mode_source = DRM_SOURCE_KEPT_UNLISTED;
	CHECK(drm_output_keeps_mode(&out, &conn));
	conn.count_modes = 3;
	/* The preferred mode follows the connector's preferred mode, as before. */
	out.mode = modes[0];
	out.mode_source = DRM_SOURCE_PREFERRED;
	CHECK(drm_output_keeps_mode(&out, &conn));
	modes[0].type = DRM_MODE_TYPE_DRIVER;
	modes[2].type |= DRM_MODE_TYPE_PREFERRED;
	CHECK(!drm_output_keeps_mode(&out, &conn));
}

int main(void)
{
	test_mode_same();
	test_mode_usable();
	test_mode_select();
	test_card_choose();
	test_keeps_mode();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
