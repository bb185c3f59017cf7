/* tests/drm/test-drm-commit.c: modesets the kernel refuses in part, on a card of several outputs. The kernel is
 * stood in for at libdrm's boundary (the linker's --wrap, tests/drm/meson.build): the atomic commit sees the
 * properties drm/ put in the request and refuses more than two active CRTCs (a GPU with two PLLs, or a link
 * without the bandwidth for a third display), drmModeSetCrtc refuses a chosen CRTC; property blobs are counted.
 * Everything else is drm/'s own code with buffers in ordinary memory (no DRM device needed).
 *
 * Also what else the kernel or the driver may refuse that a virtual GPU never does: DPMS off, a mode (kept,
 * asked for or preferred) with a single display, a canvas's memory, a dumb buffer's (direct mode too), a pitch.
 *
 * What a user saw: a third monitor the GPU cannot drive beside the other two made the test commit fail for the
 * whole card, so every monitor stayed dark (retried each second, for ever); with the legacy API the outputs after
 * the refused one were never set up, and the error was logbuf again each second. */
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

/* ---- the stand-in kernel ---- */
#define ACTIVE_PROP 901 /* every CRTC's ACTIVE */
#define MODE_PROP 902   /* every CRTC's MODE_ID */
static struct prop_set {
	uint32_t obj, prop;
	uint64_t val;
} props[256];
static int n_props;
static unsigned max_active = 2;   /* commits with more active CRTCs are refused */
static uint32_t refuse_crtc;      /* drmModeSetCrtc refuses this CRTC */
static int refuse_fd = -100;      /* every atomic commit on this fd is refused (a card that cannot show) */
static int refuse_blank;          /* commits without events (DPMS off) are refused with this errno */
static unsigned refuse_w;         /* modes this wide are refused (atomic MODE_ID blobs, drmModeSetCrtc) */
static uint16_t blob_w[64];       /* the width of the mode each blob holds, by id */
static int commits, tests, setcrtcs, blobs_live, next_blob = 500;

drmModeAtomicReqPtr __real_drmModeAtomicAlloc(void);
drmModeAtomicReqPtr __wrap_drmModeAtomicAlloc(void);
drmModeAtomicReqPtr __wrap_drmModeAtomicAlloc(void)
{
	n_props = 0;
	return __real_drmModeAtomicAlloc();
}

void __real_drmModeAtomicSetCursor(drmModeAtomicReqPtr req, int cursor);
void __wrap_drmModeAtomicSetCursor(drmModeAtomicReqPtr req, int cursor);
void __wrap_drmModeAtomicSetCursor(drmModeAtomicReqPtr req, int cursor)
{
	n_props = cursor;
	__real_drmModeAtomicSetCursor(req, cursor);
}

int __real_drmModeAtomicAddProperty(drmModeAtomicReqPtr req, uint32_t obj, uint32_t prop, uint64_t val);
int __wrap_drmModeAtomicAddProperty(drmModeAtomicReqPtr req, uint32_t obj, uint32_t prop, uint64_t val);
int __wrap_drmModeAtomicAddProperty(drmModeAtomicReqPtr req, uint32_t obj, uint32_t prop, uint64_t val)
{
	if (n_props < 256)
		props[n_props++] = (struct prop_set){obj, prop, val};
	return __real_drmModeAtomicAddProperty(req, obj, prop, val);
}

int __wrap_drmModeAtomicCommit(int fd, drmModeAtomicReqPtr req, uint32_t flags, void *ud);
int __wrap_drmModeAtomicCommit(int fd, drmModeAtomicReqPtr req, uint32_t flags, void *ud)
{
	unsigned active = 0;

	(void)fd, (void)req, (void)ud;
	for (int i = 0; i < n_props; i++) {
		active += props[i].prop == ACTIVE_PROP && props[i].val == 1;
		if (props[i].prop == MODE_PROP && props[i].val && refuse_w && blob_w[props[i].val % 64] == refuse_w)
			active = 1000;
	}
	if (flags & DRM_MODE_ATOMIC_TEST_ONLY)
		tests++;
	else
		commits++;
	if (refuse_blank && !(flags & (DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT))) {
		errno = refuse_blank;
		return -1;
	}
	if (active > max_active || fd == refuse_fd) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int __wrap_drmModeCreatePropertyBlob(int fd, const void *data, size_t size, uint32_t *id);
int __wrap_drmModeCreatePropertyBlob(int fd, const void *data, size_t size, uint32_t *id)
{
	(void)fd;
	*id = (uint32_t)next_blob++;
	blob_w[*id % 64] = size == sizeof(drmModeModeInfo) ? ((const drmModeModeInfo *)data)->hdisplay : 0;
	blobs_live++;
	return 0;
}

int __wrap_drmModeDestroyPropertyBlob(int fd, uint32_t id);
int __wrap_drmModeDestroyPropertyBlob(int fd, uint32_t id)
{
	(void)fd, (void)id;
	blobs_live--;
	return 0;
}

int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode);
int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode)
{
	(void)fd, (void)fb, (void)x, (void)y, (void)conns, (void)n, (void)mode;
	setcrtcs++;
	if ((crtc == refuse_crtc || (refuse_w && mode && mode->hdisplay == refuse_w)) && fb) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int dumb_creates;
static bool dumb_ok; /* dumb buffers are made (else the GPU's memory is full) */
static uint32_t short_pitch; /* bytes the driver's pitch falls short of a row */

int __wrap_drmModeCreateDumbBuffer(int fd, uint32_t w, uint32_t h, uint32_t bpp, uint32_t flags, uint32_t *handle,
				   uint32_t *pitch, uint64_t *size);
int __wrap_drmModeCreateDumbBuffer(int fd, uint32_t w, uint32_t h, uint32_t bpp, uint32_t flags, uint32_t *handle,
				   uint32_t *pitch, uint64_t *size)
{
	(void)fd, (void)bpp, (void)flags;
	dumb_creates++;
	if (!dumb_ok)
		return -ENOMEM;
	*handle = 1;
	*pitch = w * 4 - short_pitch;
	*size = (uint64_t)*pitch * h;
	return 0;
}

/* With dumb_ok the card's fd is a memfd: every buffer maps its first pages. */
int __wrap_drmModeAddFB2(int fd, uint32_t w, uint32_t h, uint32_t format, const uint32_t handles[4],
			 const uint32_t pitches[4], const uint32_t offsets[4], uint32_t *fb, uint32_t flags);
int __wrap_drmModeAddFB2(int fd, uint32_t w, uint32_t h, uint32_t format, const uint32_t handles[4],
			 const uint32_t pitches[4], const uint32_t offsets[4], uint32_t *fb, uint32_t flags)
{
	(void)fd, (void)w, (void)h, (void)format, (void)handles, (void)pitches, (void)offsets, (void)flags;
	*fb = 700;
	return 0;
}

int __wrap_drmModeMapDumbBuffer(int fd, uint32_t handle, uint64_t *offset);
int __wrap_drmModeMapDumbBuffer(int fd, uint32_t handle, uint64_t *offset)
{
	(void)fd, (void)handle;
	*offset = 0;
	return 0;
}

/* A card's connectors for drm_card_scan: fake_conns ids from 300 on, connected, without modes (a dock's DP port
 * with nothing behind it, an EDID not read). 0: the real calls. */
static int fake_conns;
static drmModeModeInfo fake_modes[4]; /* their modes */
static int n_fake_modes;

drmModeResPtr __real_drmModeGetResources(int fd);
drmModeResPtr __wrap_drmModeGetResources(int fd);
drmModeResPtr __wrap_drmModeGetResources(int fd)
{
	drmModeRes *r;

	if (!fake_conns)
		return __real_drmModeGetResources(fd);
	r = calloc(1, sizeof(*r));
	r->connectors = calloc((size_t)fake_conns, sizeof(uint32_t));
	r->count_connectors = fake_conns;
	for (int i = 0; i < fake_conns; i++)
		r->connectors[i] = 300 + (uint32_t)i;
	return r;
}

drmModeConnectorPtr __real_drmModeGetConnector(int fd, uint32_t id);
drmModeConnectorPtr __wrap_drmModeGetConnector(int fd, uint32_t id);
drmModeConnectorPtr __wrap_drmModeGetConnector(int fd, uint32_t id)
{
	drmModeConnector *c;

	if (!fake_conns)
		return __real_drmModeGetConnector(fd, id);
	c = calloc(1, sizeof(*c));
	c->connector_id = id;
	c->connector_type = DRM_MODE_CONNECTOR_DisplayPort;
	c->connector_type_id = id - 299;
	c->connection = DRM_MODE_CONNECTED;
	if (n_fake_modes) {
		c->modes = calloc((size_t)n_fake_modes, sizeof(*c->modes));
		memcpy(c->modes, fake_modes, (size_t)n_fake_modes * sizeof(*c->modes));
		c->count_modes = n_fake_modes;
	}
	return c;
}

/* ---- a card of three outputs ---- */
/* What a user sees in the journal by default: info and above. */
static void on_log_info(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	if (prio <= 6)
		on_log(prio, file, line, fmt, ap);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static struct drm_card_crtc crtcs[3];
static struct drm_card_plane planes[3];

static void make_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic)
{
	*card = (struct drm_card){.b = b, .fd = -1, .atomic = atomic, .n_crtcs = 3, .n_planes = 3, .crtcs = crtcs,
				  .planes = planes, .needs_modeset = true};
	for (unsigned i = 0; i < 3; i++) {
		struct drm_output *out = &outs[i];

		crtcs[i] = (struct drm_card_crtc){.id = 100 + i, .props = {[CRTC_ACTIVE] = ACTIVE_PROP,
									  [CRTC_MODE_ID] = MODE_PROP}};
		planes[i] = (struct drm_card_plane){.id = 200 + i, .possible_crtcs = 1u << i, .xrgb8888 = true,
						    .type = DRM_PLANE_TYPE_PRIMARY};
		for (unsigned p = 1; p < PLANE__COUNT; p++)
			planes[i].props[p] = 910 + p;
		*out = (struct drm_output){.card = card, .conn_id = 300 + i, .crtc_id = 100 + i, .crtc_index = i,
					   .plane_id = 200 + i, .period_ns = 16666667};
		snprintf(out->name, sizeof(out->name), "[CONNECTOR:%u:DP-%u]", 300 + i, i + 1);
		out->mode.hdisplay = out->mode.vdisplay = 64;
		out->conn_props[CONN_CRTC_ID] = 903;
		for (int k = 0; k < DRM_BUFFERS; k++) {
			out->bufs[k] = (struct drm_buffer){.width = 64, .height = 64, .stride = 256, .size = 256 * 64,
							   .fb_id = 400 + 10 * i + (uint32_t)k};
			out->bufs[k].map = calloc(1, out->bufs[k].size);
		}
		drm_region_set_full(&out->damage);
		out->dirty = true;
		card->outputs[card->n_outputs++] = out;
	}
}

/* Frees what make_card made (all three outputs, also those a test took off the card) and the card's flip
 * request. */
static void free_card(struct drm_card *card, struct drm_output *outs)
{
	for (unsigned i = 0; i < 3; i++) {
		struct drm_output *out = &outs[i];

		for (int k = 0; k < DRM_BUFFERS; k++)
			free(out->bufs[k].map);
		if (out->mode_blob)
			drmModeDestroyPropertyBlob(card->fd, out->mode_blob);
	}
	drmModeAtomicFree(card->flip_req);
}

/* Three outputs, the kernel takes two: those two are shown, the third is left out (not pending, its CRTC not
 * asked for), said once; a later modeset (an unblank, a hotplug) tries it again without saying it again. */
static void test_atomic_partial(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, true);
	logbuf[0] = '\0';
	int ret = drm_card_modeset(&card);
	CHECK(ret == 0);
	CHECK(commits == 1);
	CHECK(!outs[0].failed && !outs[1].failed && outs[2].failed);
	CHECK(outs[0].inflight && outs[1].inflight && !outs[2].inflight);
	CHECK(!outs[2].pending && !outs[2].queued);
	CHECK(!card.needs_modeset);
	CHECK(count(logbuf, "DP-3") == 1);
	/* The flips complete; the next modeset (unblank) tries all three again. */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 100);
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && outs[2].failed && !outs[0].failed && !outs[1].failed);
	CHECK(count(logbuf, "DP-3") == 1);
	/* The kernel takes all three now (a monitor unplugged elsewhere freed the bandwidth). */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 101);
	max_active = 3;
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && !outs[2].failed && outs[2].inflight);
	/* No output at all can be shown: the modeset fails as before (retried later), nothing is left pending. */
	for (int i = 0; i < 3; i++)
		drm_output_flip_done(&outs[i], 102);
	max_active = 0;
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) < 0 && card.needs_modeset);
	for (int i = 0; i < 3; i++)
		CHECK(!outs[i].pending && !outs[i].inflight);
	max_active = 2;
	CHECK(blobs_live == 3);
	free_card(&card, outs);
	CHECK(blobs_live == 0);
}

/* Legacy: drmModeSetCrtc refuses the second output: the first and the third are shown, the second is left out
 * (its CRTC turned off), said once; the card is not set up again every second. */
static void test_legacy_partial(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];

	make_card(b, &card, outs, false);
	refuse_crtc = 101;
	logbuf[0] = '\0';
	setcrtcs = 0;
	CHECK(drm_card_modeset(&card) == 0);
	CHECK(!outs[0].failed && outs[1].failed && !outs[2].failed);
	CHECK(!outs[1].pending && outs[0].current && outs[2].current);
	CHECK(!card.needs_modeset);
	CHECK(count(logbuf, "DP-2") == 1);
	card.needs_modeset = true;
	CHECK(drm_card_modeset(&card) == 0 && outs[1].failed);
	CHECK(count(logbuf, "DP-2") == 1);
	refuse_crtc = 0;
	free_card(&card, outs);
}

/* Runs the backend's loop for ns, the flips of out (when not NULL) completing as a vblank would. Returns the
 * wake-ups. */
static int dispatch_for(struct drm_backend *b, int64_t ns, struct drm_output *out)
{
	const int64_t end = drm_now_ns() + ns;
	int wakeups = 0;

	while (drm_now_ns() < end) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		wakeups += poll(&p, 1, 10) > 0;
		drm_backend_dispatch(b);
		if (out && out->inflight)
			drm_output_flip_done(out, 101);
	}
	return wakeups; /* the times the backend's fd woke the loop */
}

/* The second buffer cannot be made (the GPU's memory is full): the frame waits, the creation is tried again a
 * second later and said once, not every 20 ms (the busy retry: 50 errors a second in the journal). */
static void test_no_second_buffer(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];

	make_card(b, &card, outs, true);
	card.n_outputs = 1;
	card.needs_modeset = false;
	free(out->bufs[1].map);
	out->bufs[1] = (struct drm_buffer){0};
	out->bufs[0].frame = out->frame = 1;
	out->current = &out->bufs[0];
	b->cards[b->n_cards++] = &card;
	logbuf[0] = '\0';
	dumb_creates = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	dispatch_for(b, 300000000, NULL);
	CHECK(dumb_creates >= 1 && dumb_creates <= 2);
	CHECK(count(logbuf, "dumb buffer") == 1);
	CHECK(out->current == &out->bufs[0] && !out->pending && !out->inflight);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Two outputs, the second's first dumb buffer cannot be made at the modeset (the GPU's memory full for a moment):
 * the first is shown, and the second's buffer is tried again each second, as a frame's is, not only at the next
 * hotplug or unblank (that monitor stayed dark for good). */
static void test_modeset_buffer_retry(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[1];

	make_card(b, &card, outs, true);
	card.n_outputs = 2;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(out->bufs[k].map);
		out->bufs[k] = (struct drm_buffer){0};
	}
	b->cards[b->n_cards++] = &card;
	logbuf[0] = '\0';
	dumb_creates = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	CHECK(!outs[0].failed && out->failed && dumb_creates == 1);
	drm_output_flip_done(&outs[0], 100);
	dispatch_for(b, 1300000000, &outs[0]);
	CHECK(dumb_creates == 2);
	if (dumb_creates != 2)
		fprintf(stderr, "dumb buffers tried %d times in 1.3 s\n", dumb_creates);
	CHECK(count(logbuf, "dumb buffer") == 1);
	CHECK(!outs[0].failed && out->failed);
	/* The card waits for its own retry (a frame's buffer, another second) past the output's: the timer must not
	 * fire at once over and over until then (a spin of the loop at 100 % CPU). */
	card.retry_ns = drm_now_ns() + 600000000;
	out->buffer_retry_ns = drm_now_ns() + 100000000;
	int wakeups = dispatch_for(b, 500000000, NULL);
	CHECK(wakeups < 10 && dumb_creates == 2);
	if (wakeups >= 10)
		fprintf(stderr, "%d wake-ups in 0.5 s waiting for the card's retry\n", wakeups);
	dispatch_for(b, 200000000, NULL); /* the card's retry came: the buffer is tried then */
	CHECK(dumb_creates == 3);
	b->n_cards = 0;
	free_card(&card, outs);
}

/* Two cards: the second's modeset fails every time (a GPU that cannot drive the monitor on it). The first card's
 * frames must not wait for the second's retry: they waited up to a second each (one frame a second on the
 * laptop's own panel while a monitor on the other GPU could not be set up). */
static void test_card_retry_apart(struct drm_backend *b)
{
	struct drm_card good, bad;
	struct drm_output good_outs[3], bad_outs[3];
	struct drm_box box = {0, 0, 8, 8};

	make_card(b, &good, good_outs, true);
	good.n_outputs = 1;
	good.needs_modeset = false;
	good_outs[0].bufs[0].frame = good_outs[0].frame = 1;
	good_outs[0].current = &good_outs[0].bufs[0];
	make_card(b, &bad, bad_outs, true);
	bad.n_outputs = 1;
	bad.fd = refuse_fd = -2;
	b->cards[b->n_cards++] = &good;
	b->cards[b->n_cards++] = &bad;
	CHECK(drm_backend_present(b, &box, 1, false) == 0);
	CHECK(good_outs[0].inflight && bad.needs_modeset);
	drm_output_flip_done(&good_outs[0], 100); /* its event (a real vblank: no pacing) */
	CHECK(drm_backend_present(b, &box, 1, false) == 0);
	CHECK(good_outs[0].inflight);
	refuse_fd = -100;
	b->n_cards = 0;
	free_card(&good, good_outs);
	free_card(&bad, bad_outs);
}

static int changes;

static void on_changed(void *ud)
{
	(void)ud;
	changes++;
}

/* The buffers of a 32x32 output, each ending just before a page the test makes unreadable: a copy past them
 * faults. */
static void small_guarded(struct drm_output *out, uint8_t **maps, size_t page)
{
	out->mode.hdisplay = out->mode.vdisplay = 32;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		struct drm_buffer *buf = &out->bufs[k];

		maps[k] = mmap(NULL, page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (maps[k] == MAP_FAILED)
			abort();
		mprotect(maps[k] + page * 2, page, PROT_NONE);
		free(buf->map);
		buf->width = buf->height = 32;
		buf->stride = 128;
		buf->size = 128 * 32;
		buf->map = maps[k] + page * 2 - buf->size;
	}
}

static void small_unguard(struct drm_output *out, uint8_t **maps, size_t page)
{
	for (int k = 0; k < DRM_BUFFERS; k++) {
		munmap(maps[k], page * 3);
		out->bufs[k].map = NULL;
	}
}

/* Clone mode with the smallest display left out (the kernel refuses it beside the others): the canvas follows
 * the displays shown, as it would if that one were unplugged; it stayed at the left-out one's size, a corner of
 * the others. Tried again at the next modeset and taken: the canvas shrinks back. That modeset paints the small
 * display while the canvas is still the others' size: the copy stays inside its buffer (it wrote the canvas's rows
 * and columns past it: a 1920x1080 picture into a 1024x768 dumb buffer, past the end of its mapping). */
static void test_canvas_without_left_out(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_canvas c;
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *maps[DRM_BUFFERS];

	make_card(b, &card, outs, true);
	small_guarded(&outs[2], maps, page);
	b->cards[b->n_cards++] = &card;
	b->iface.outputs_changed = on_changed;
	drm_backend_update_canvas(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 32 && c.height == 32 && !b->direct);
	changes = 0;
	outs[2].buffer_failed = true; /* a frame's buffer once could not be made: no reason to retry a refused one */
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	CHECK(outs[2].failed && !outs[0].failed && !outs[2].buffer_retry_ns);
	drm_backend_dispatch(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64 && c.height == 64 && changes == 1 && !b->direct);
	/* Taken at the next modeset (an unblank): 32x32 again. */
	for (int i = 0; i < 2; i++)
		drm_output_flip_done(&outs[i], 100);
	max_active = 3;
	card.needs_modeset = true;
	drm_backend_dispatch(b);
	CHECK(!outs[2].failed);
	drm_backend_dispatch(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 32 && c.height == 32 && changes == 2);
	max_active = 2;
	b->iface.outputs_changed = NULL;
	b->n_cards = 0;
	small_unguard(&outs[2], maps, page);
	free_card(&card, outs);
	drm_backend_update_canvas(b);
}

/* A connected connector that cannot be used is said once, not at every rescan (each hotplug uevent, which docks
 * send by the dozen, and each switch back to the VT). */
static void test_unusable_said_once(struct drm_backend *b)
{
	struct drm_card card = {.b = b, .fd = -1, .atomic = true};
	int err;

	fake_conns = 2;
	logbuf[0] = '\0';
	for (int i = 0; i < 3; i++)
		CHECK(!drm_card_scan(&card, &err) && card.n_outputs == 0);
	CHECK(count(logbuf, "DP-1") == 1 && count(logbuf, "DP-2") == 1);
	fake_conns = 0;
}

/* The DPMS-off commit is refused (a driver that cannot turn the CRTC off now): the display stays lit, so it must
 * stay live. It was marked blanked: nothing repainted, a frozen picture until a key. Said once, tried again at the
 * next timeout. */
static void test_blank_refused(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];

	make_card(b, &card, outs, true);
	card.n_outputs = 1;
	card.needs_modeset = false;
	out->bufs[0].frame = out->frame = 1;
	out->current = &out->bufs[0];
	out->dirty = false;
	b->cards[b->n_cards++] = &card;
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	logbuf[0] = '\0';
	refuse_blank = EINVAL;
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b));
	CHECK(drm_backend_can_render(b));
	CHECK(count(logbuf, "DPMS") == 1);
	struct drm_box box = {0, 0, 8, 8};
	CHECK(drm_backend_present(b, &box, 1, false) == 0 && out->inflight);
	drm_output_flip_done(out, 100);
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b) && count(logbuf, "DPMS") == 1);
	/* Taken now: blanked, and said so. */
	refuse_blank = 0;
	drm_backend_set_blank(b, true);
	CHECK(drm_backend_is_blanked(b) && !drm_backend_can_render(b));
	drm_backend_set_blank(b, false);
	drm_output_flip_done(out, 101);
	/* EBUSY (a commit still in the hardware): not said, tried again at the DPMS deadline 20 ms on. */
	drm_backend_set_dpms_timeout(b, 600);
	refuse_blank = EBUSY;
	logbuf[0] = '\0';
	drm_backend_set_blank(b, true);
	CHECK(!drm_backend_is_blanked(b) && !strstr(logbuf, "DPMS"));
	refuse_blank = 0;
	for (int64_t end = drm_now_ns() + 500000000; drm_now_ns() < end && !drm_backend_is_blanked(b);) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		poll(&p, 1, 10);
		drm_backend_dispatch(b);
		if (out->inflight)
			drm_output_flip_done(out, 102);
	}
	CHECK(drm_backend_is_blanked(b));
	drm_backend_set_dpms_timeout(b, 0);
	drm_backend_set_blank(b, false);
	b->n_cards = 0;
	free_card(&card, outs);
}

static int readies;

static void on_frame_ready(void *ud)
{
	struct drm_canvas c;

	readies++;
	drm_backend_prepare_canvas(ud, &c, NULL, 0);
}

/* Direct mode, the buffer to paint into cannot be made (the GPU's memory is full): the program is told to paint
 * again on the card's retry timer, a second later. Nothing woke it but the next key or output: a dark or frozen
 * display until then. */
static void test_direct_no_buffer(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_canvas c;
	int64_t end;

	make_card(b, &card, outs, true);
	card.n_outputs = 1;
	card.needs_modeset = false;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(outs[0].bufs[k].map);
		outs[0].bufs[k] = (struct drm_buffer){0};
	}
	b->cards[b->n_cards++] = &card;
	drm_backend_update_canvas(b);
	CHECK(b->direct && b->canvas.width == 64);
	dumb_creates = readies = 0;
	logbuf[0] = '\0';
	drm_backend_prepare_canvas(b, &c, NULL, 0);
	CHECK(!c.pixels && dumb_creates == 1);
	b->iface.frame_ready = on_frame_ready;
	b->ud = b;
	end = drm_now_ns() + 1500000000;
	while (drm_now_ns() < end && readies == 0) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		poll(&p, 1, 50);
		drm_backend_dispatch(b);
	}
	CHECK(readies >= 1 && dumb_creates >= 2 && dumb_creates <= 3);
	CHECK(count(logbuf, "dumb buffer") == 1);
	b->iface.frame_ready = NULL;
	b->n_cards = 0;
	drm_backend_update_canvas(b);
	free_card(&card, outs);
}

static drmModeModeInfo mode_of(uint16_t w, uint32_t type)
{
	return (drmModeModeInfo){.hdisplay = w, .vdisplay = w, .htotal = w + 16, .vtotal = w + 4, .clock = 5000,
				 .type = type};
}

/* A card of one output whose buffers are made (on a memfd) and whose connector lists modes a, b, c (a preferred),
 * showing mode shown; registered with the backend. Returns the memfd. */
static int memfd_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic,
		      const uint16_t w[3], unsigned shown)
{
	struct drm_output *out = &outs[0];
	int fd = memfd_create("dumb", 0);

	CHECK(fd >= 0 && ftruncate(fd, 1 << 20) == 0);
	make_card(b, card, outs, atomic);
	card->n_outputs = 1;
	card->fd = fd;
	for (int k = 0; k < DRM_BUFFERS; k++) {
		free(out->bufs[k].map);
		out->bufs[k] = (struct drm_buffer){0};
	}
	for (int i = 0; i < 3; i++)
		fake_modes[i] = mode_of(w[i], i == 0 ? DRM_MODE_TYPE_PREFERRED : 0);
	n_fake_modes = 3;
	fake_conns = 1;
	out->mode = fake_modes[shown];
	dumb_ok = true;
	b->cards[b->n_cards++] = card;
	logbuf[0] = '\0';
	return fd;
}

/* Undoes memfd_card. */
static void memfd_card_free(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, int fd)
{
	dumb_ok = false;
	fake_conns = n_fake_modes = 0;
	b->iface.outputs_changed = NULL;
	b->n_cards = 0;
	drm_output_buffers_finish(&outs[0]);
	drm_backend_update_canvas(b);
	free_card(card, outs);
	close(fd);
}

/* A single display whose mode the kernel refuses (a mode kept with use-original-mode, or --mode): the preferred
 * mode is tried instead, said once, and the canvas follows; it was retried every second for ever, the display
 * dark. Atomic and legacy. */
static void test_single_mode_refused(struct drm_backend *b, bool atomic)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];
	struct drm_canvas c;
	int64_t end;
	int fd = memfd_card(b, &card, outs, atomic, (const uint16_t[3]){48, 64, 32}, 1);

	out->mode_source = DRM_SOURCE_KEPT;
	refuse_w = 64;
	b->iface.outputs_changed = on_changed;
	drm_backend_update_canvas(b);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 64);
	changes = 0;
	CHECK(drm_backend_present(b, NULL, 0, true) == 0);
	end = drm_now_ns() + 1000000000;
	while (drm_now_ns() < end && !out->current && !out->inflight) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		poll(&p, 1, 10);
		drm_backend_dispatch(b);
		if (changes)
			drm_backend_present(b, NULL, 0, true);
	}
	CHECK(out->mode.hdisplay == 48 && (out->current || out->inflight) && !card.needs_modeset);
	drm_backend_get_canvas(b, &c);
	CHECK(c.width == 48 && changes >= 1);
	CHECK(count(logbuf, "refuses") == 1);
	refuse_w = 0;
	memfd_card_free(b, &card, outs, fd);
}

/* calloc of exactly this many bytes fails (a canvas no memory is left for); 0: none. */
static size_t refuse_alloc;

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
	if (refuse_alloc && n * size == refuse_alloc)
		return NULL;
	return __real_calloc(n, size);
}

/* No canvas can be allocated for the display's mode: it falls back to a smaller mode of its connector, said;
 * the canvas was left 0x0, nothing shown until a hotplug. */
static void test_canvas_refused(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	struct drm_output *out = &outs[0];
	struct drm_canvas c;
	int64_t end;
	int fd = memfd_card(b, &card, outs, true, (const uint16_t[3]){64, 80, 48}, 0);

	card.prefer_shadow = true;
	refuse_alloc = 64 * 64 * 4;
	drm_backend_update_canvas(b);
	end = drm_now_ns() + 1000000000;
	for (drm_backend_get_canvas(b, &c); drm_now_ns() < end && !c.width; drm_backend_get_canvas(b, &c)) {
		struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

		poll(&p, 1, 10);
		drm_backend_dispatch(b);
	}
	CHECK(c.width == 48 && c.pixels && out->mode.hdisplay == 48);
	CHECK(count(logbuf, "cannot allocate a 64x64 canvas") == 1);
	refuse_alloc = 0;
	memfd_card_free(b, &card, outs, fd);
}

/* A driver's dumb buffer whose pitch is shorter than a row of the mode: refused (said), not written past its
 * mapping row by row (the copies and the program write width * 4 bytes a row, height rows). */
static void test_short_pitch(struct drm_backend *b)
{
	struct drm_card card;
	struct drm_output outs[3];
	int fd = memfd_card(b, &card, outs, true, (const uint16_t[3]){64, 48, 32}, 0);

	short_pitch = 4;
	CHECK(drm_output_buffers_init(&outs[0]) < 0 && !outs[0].bufs[0].map && outs[0].buffer_failed);
	CHECK(count(logbuf, "too small") == 1);
	short_pitch = 0;
	CHECK(drm_output_buffers_init(&outs[0]) == 0 && outs[0].bufs[0].map);
	memfd_card_free(b, &card, outs, fd);
}

int main(void)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend *b;
	int ret;

	drm_set_log_handler(on_log_info);
	ret = drm_backend_create(&b, &cfg, NULL, NULL);
	if (ret < 0) {
		fprintf(stderr, "drm_backend_create: %s\n", strerror(-ret));
		return 1;
	}
	CHECK(drm_backend_resize_canvas(b, 64, 64) == 0);
	test_atomic_partial(b);
	test_legacy_partial(b);
	test_no_second_buffer(b);
	test_modeset_buffer_retry(b);
	test_card_retry_apart(b);
	test_canvas_without_left_out(b);
	test_unusable_said_once(b);
	test_blank_refused(b);
	test_direct_no_buffer(b);
	test_single_mode_refused(b, true);
	test_single_mode_refused(b, false);
	test_canvas_refused(b);
	test_short_pitch(b);
	drm_backend_destroy(b);
	if (failures)
		fprintf(stderr, "%d check(s) failed\nlog:\n%s", failures, logbuf);
	return failures ? 1 : 0;
}
