/* tests/drm/stand-in-kernel.h: the kernel stood in for at libdrm's boundary, for the tests of drm/ that need
 * what a virtual GPU never does (a refused commit, mode, DPMS off, buffer or allocation). Wrapped with the linker's
 * --wrap (tests/drm/meson.build): the atomic commit sees the properties drm/ put in the request and refuses more
 * than max_active active CRTCs, a mode refuse_w wide, a DPMS off (refuse_blank), every commit on refuse_fd, every
 * commit after alive_commits (ENODEV: the card unplugged);
 * drmModeSetCrtc refuses refuse_crtc or a mode refuse_w wide; a legacy DPMS off of refuse_dpms_conn is refused
 * (dpms_of holds the others'); property blobs are counted; dumb buffers are made
 * (dumb_ok, on a memfd) or not; connectors (fake_conns, with fake_modes) are made up; calloc of refuse_alloc bytes
 * fails; the connectors' encoders (any CRTC, or those of fake_enc_crtcs) too. DRM master: while not_master_fd is the
 * fd's, its commits and drmModeSetCrtc get EACCES, and drmSetMaster is refused with EBUSY master_busy more times
 * (another master holds the card: a compositor, the last instance's seat helper) before it makes the fd master.
 * Everything else is drm/'s own code.
 * Included by one file of each test program, after failures and kf-check-plain.h; helpers a program does not use
 * are static inline (no unused warnings). */
#ifndef KF_TESTS_DRM_STAND_IN_KERNEL_H
#define KF_TESTS_DRM_STAND_IN_KERNEL_H

/* ---- the stand-in kernel ---- */
#define ACTIVE_PROP 901 /* every CRTC's ACTIVE */
#define MODE_PROP 902   /* every CRTC's MODE_ID */
static struct prop_set {
	uint32_t obj, prop;
	uint64_t val;
} props[256];
static int n_props;
static unsigned max_active = 2;   /* commits with more active CRTCs are refused */
static uint32_t refuse_crtc;      /* drmModeSetCrtc refuses this CRTC ... */
static int refuse_crtc_errno = EINVAL; /* ... with this errno (EACCES: the VT was switched away meanwhile) */
static int refuse_fd = -100;      /* every atomic commit on this fd is refused (a card that cannot show) */
static int refuse_blank;          /* commits without events (DPMS off) are refused with this errno */
static unsigned refuse_w;         /* modes this wide are refused (atomic MODE_ID blobs, drmModeSetCrtc) */
static uint16_t blob_w[64];       /* the width of the mode each blob holds, by id */
static int commits, tests, setcrtcs, blobs_live, next_blob = 500;
/* Atomic commits (tests too) the card answers before it is unplugged; every one after fails with ENODEV, as the
 * kernel's answer for a device gone until its "remove" uevent is read. -1: never unplugged. */
static int alive_commits = -1;
/* The fd that is not DRM master (-100: none), how many more drmSetMaster calls the other master's hold refuses, and
 * the calls seen. */
static int not_master_fd = -100;
static int master_busy;
static int set_masters;

int __wrap_drmSetMaster(int fd);
int __wrap_drmSetMaster(int fd)
{
	set_masters++;
	if (fd == not_master_fd && master_busy > 0) {
		master_busy--;
		errno = EBUSY;
		return -1;
	}
	if (fd == not_master_fd)
		not_master_fd = -100;
	return 0;
}

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
	if (alive_commits == 0) {
		errno = ENODEV;
		return -1;
	}
	if (alive_commits > 0)
		alive_commits--;
	if (fd == not_master_fd) {
		errno = EACCES;
		return -1;
	}
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

/* The framebuffer each CRTC (by id from 100) scans out after the last drmModeSetCrtc; 0: off. */
static uint32_t fb_of_crtc[3];

int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode);
int __wrap_drmModeSetCrtc(int fd, uint32_t crtc, uint32_t fb, uint32_t x, uint32_t y, uint32_t *conns, int n,
			  drmModeModeInfoPtr mode)
{
	(void)fd, (void)x, (void)y, (void)conns, (void)n, (void)mode;
	setcrtcs++;
	if (fd == not_master_fd) {
		errno = EACCES;
		return -1;
	}
	if ((crtc == refuse_crtc || (refuse_w && mode && mode->hdisplay == refuse_w)) && fb) {
		errno = crtc == refuse_crtc ? refuse_crtc_errno : EINVAL;
		return -1;
	}
	if (crtc >= 100 && crtc < 103)
		fb_of_crtc[crtc - 100] = fb;
	return 0;
}

/* Legacy DPMS: each connector's value (by id from 300), and the one connector whose DPMS off is refused. */
static uint64_t dpms_of[3];
static uint32_t refuse_dpms_conn;

int __wrap_drmModeConnectorSetProperty(int fd, uint32_t conn, uint32_t prop, uint64_t val);
int __wrap_drmModeConnectorSetProperty(int fd, uint32_t conn, uint32_t prop, uint64_t val)
{
	(void)fd, (void)prop;
	if (conn == refuse_dpms_conn && val == DRM_MODE_DPMS_OFF) {
		errno = EINVAL;
		return -1;
	}
	if (conn >= 300 && conn < 303)
		dpms_of[conn - 300] = val;
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
/* Connector 300+i: the CRTCs its one encoder can drive (a mask of CRTC indices; 0: any of three), the CRTC that
 * encoder drives now (0: none; fbcon's, or ours), and whether it is unplugged (fake_unplugged, a mask of i). */
static uint32_t fake_enc_crtcs[8], fake_enc_crtc[8], fake_unplugged;
/* Connector 300+i's one encoder is 600 + fake_enc_of[i] - 1 when set (connectors that share an encoder: a DVI-I
 * port's analog half and a VGA port on one DAC), else its own, 600 + i. */
static unsigned fake_enc_of[8];
static int probes; /* drmModeGetConnector calls on them: each is a probe (an EDID read) on real hardware */
/* How many of fake_modes connector 300+i lists (the first ones); 0: all n_fake_modes. */
static int n_fake_modes_of[8];

/* A connector besides fake_conns' (0: none), from 1000 on: a DP MST dock's, made anew with a new id at each
 * replug. Its properties are made up (CRTC_ID, 903, off); each lookup of them by name (drmModeGetProperty, what
 * drm_props_lookup asks for each property) is counted. */
static uint32_t extra_conn;
static int prop_lookups;

drmModeObjectPropertiesPtr __real_drmModeObjectGetProperties(int fd, uint32_t obj, uint32_t type);
drmModeObjectPropertiesPtr __wrap_drmModeObjectGetProperties(int fd, uint32_t obj, uint32_t type);
drmModeObjectPropertiesPtr __wrap_drmModeObjectGetProperties(int fd, uint32_t obj, uint32_t type)
{
	drmModeObjectProperties *p;

	if (type != DRM_MODE_OBJECT_CONNECTOR || obj < 1000)
		return __real_drmModeObjectGetProperties(fd, obj, type);
	p = calloc(1, sizeof(*p));
	p->props = calloc(1, sizeof(*p->props));
	p->prop_values = calloc(1, sizeof(*p->prop_values));
	p->props[0] = 903;
	p->count_props = 1;
	return p;
}

drmModePropertyPtr __real_drmModeGetProperty(int fd, uint32_t id);
drmModePropertyPtr __wrap_drmModeGetProperty(int fd, uint32_t id);
drmModePropertyPtr __wrap_drmModeGetProperty(int fd, uint32_t id)
{
	drmModePropertyRes *p;

	if (id != 903)
		return __real_drmModeGetProperty(fd, id);
	prop_lookups++;
	p = calloc(1, sizeof(*p));
	p->prop_id = id;
	snprintf(p->name, sizeof(p->name), "CRTC_ID");
	return p;
}

drmModeResPtr __real_drmModeGetResources(int fd);
drmModeResPtr __wrap_drmModeGetResources(int fd);
drmModeResPtr __wrap_drmModeGetResources(int fd)
{
	drmModeRes *r;

	if (!fake_conns)
		return __real_drmModeGetResources(fd);
	r = calloc(1, sizeof(*r));
	r->connectors = calloc((size_t)fake_conns + 1, sizeof(uint32_t));
	r->count_connectors = fake_conns;
	for (int i = 0; i < fake_conns; i++)
		r->connectors[i] = 300 + (uint32_t)i;
	if (extra_conn)
		r->connectors[r->count_connectors++] = extra_conn;
	return r;
}

drmModeConnectorPtr __real_drmModeGetConnector(int fd, uint32_t id);
drmModeConnectorPtr __wrap_drmModeGetConnector(int fd, uint32_t id);
drmModeConnectorPtr __wrap_drmModeGetConnector(int fd, uint32_t id)
{
	drmModeConnector *c;

	if (!fake_conns)
		return __real_drmModeGetConnector(fd, id);
	probes++;
	c = calloc(1, sizeof(*c));
	c->connector_id = id;
	c->connector_type = DRM_MODE_CONNECTOR_DisplayPort;
	c->connector_type_id = id - 299;
	c->connection = id - 300 < 32 && (fake_unplugged >> (id - 300) & 1) ? DRM_MODE_DISCONNECTED
									       : DRM_MODE_CONNECTED;
	uint32_t enc = id - 300 < 8 && fake_enc_of[id - 300] ? 600 + fake_enc_of[id - 300] - 1 : id + 300;

	if (id - 300 < 8 && fake_enc_crtc[id - 300])
		c->encoder_id = enc;
	if (n_fake_modes) {
		int n = id - 300 < 8 && n_fake_modes_of[id - 300] ? n_fake_modes_of[id - 300] : n_fake_modes;

		c->modes = calloc((size_t)n, sizeof(*c->modes));
		memcpy(c->modes, fake_modes, (size_t)n * sizeof(*c->modes));
		c->count_modes = n;
	}
	/* one encoder (600 + the connector's index, or fake_enc_of's), for any CRTC: the card's scan can make an
	 * output of it */
	c->encoders = calloc(1, sizeof(uint32_t));
	c->encoders[0] = enc;
	c->count_encoders = 1;
	return c;
}

drmModeEncoderPtr __real_drmModeGetEncoder(int fd, uint32_t id);
drmModeEncoderPtr __wrap_drmModeGetEncoder(int fd, uint32_t id);
drmModeEncoderPtr __wrap_drmModeGetEncoder(int fd, uint32_t id)
{
	drmModeEncoder *e;

	if (!fake_conns)
		return __real_drmModeGetEncoder(fd, id);
	e = calloc(1, sizeof(*e));
	e->encoder_id = id;
	e->possible_crtcs = 7;
	if (id - 600 < 8) {
		e->possible_crtcs = fake_enc_crtcs[id - 600] ? fake_enc_crtcs[id - 600] : 7;
		e->crtc_id = fake_enc_crtc[id - 600];
	}
	return e;
}

/* ---- a card of three outputs ---- */
/* What a user sees in the journal by default: info and above. */
static inline void on_log_info(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	if (prio <= 6)
		on_log(prio, file, line, fmt, ap);
}

static inline int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static struct drm_card_crtc crtcs[3];
static struct drm_card_plane planes[3];

static inline void make_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic)
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
static inline void free_card(struct drm_card *card, struct drm_output *outs)
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

static int changes;

static inline void on_changed(void *ud)
{
	(void)ud;
	changes++;
}

static inline drmModeModeInfo mode_of(uint16_t w, uint32_t type)
{
	return (drmModeModeInfo){.hdisplay = w, .vdisplay = w, .htotal = w + 16, .vtotal = w + 4, .clock = 5000,
				 .type = type};
}

/* A card of one output whose buffers are made (on a memfd) and whose connector lists modes a, b, c (a preferred),
 * showing mode shown; registered with the backend. Returns the memfd. */
static inline int memfd_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, bool atomic,
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
static inline void memfd_card_free(struct drm_backend *b, struct drm_card *card, struct drm_output *outs, int fd)
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

/* make_card with one output, shown (its first buffer on screen, frame 1), registered with the backend. */
static inline void one_shown(struct drm_backend *b, struct drm_card *card, struct drm_output *outs)
{
	make_card(b, card, outs, true);
	card->n_outputs = 1;
	card->needs_modeset = false;
	outs[0].bufs[0].frame = outs[0].frame = 1;
	outs[0].current = &outs[0].bufs[0];
	b->cards[b->n_cards++] = card;
}

/* The backend the tests run on, logging what a user sees in the journal by default; NULL when it cannot be made
 * (said). */
static inline struct drm_backend *stand_in_backend(void)
{
	struct drm_backend_config cfg = {0};
	struct drm_backend *b;
	int ret;

	drm_set_log_handler(on_log_info);
	ret = drm_backend_create(&b, &cfg, NULL, NULL);
	if (ret < 0) {
		fprintf(stderr, "drm_backend_create: %s\n", strerror(-ret));
		return NULL;
	}
	return b;
}

/* The end of a test program: the backend destroyed, the failed checks and the log said; the exit status. */
static inline int stand_in_end(struct drm_backend *b)
{
	drm_backend_destroy(b);
	if (failures)
		fprintf(stderr, "%d check(s) failed\nlog:\n%s", failures, logbuf);
	return failures ? 1 : 0;
}

/* Waits up to ms for the backend's fd and dispatches only when woken, as the program's loop: what is to happen
 * later needs a timer armed. */
static inline void dispatch_woken(struct drm_backend *b, int ms)
{
	struct pollfd p = {drm_backend_get_fd(b), POLLIN, 0};

	if (poll(&p, 1, ms) > 0)
		drm_backend_dispatch(b);
}

/* Dispatches (presenting when the canvas changed) until out shows its mode (on screen or in flight) and the card
 * needs no modeset, for at most ms. */
static inline void settle(struct drm_backend *b, struct drm_card *card, int ms)
{
	int64_t end = drm_now_ns() + (int64_t)ms * 1000000;

	changes = 0;
	/* the card's scan made it (again) without its connector's properties: the memfd has none */
	card->outputs[0]->conn_props[CONN_CRTC_ID] = 903;
	drm_backend_present(b, NULL, 0, true);
	while (drm_now_ns() < end) {
		struct drm_output *out = card->outputs[0];

		if (out->inflight)
			drm_output_flip_done(out, 100);
		if (!card->needs_modeset && out->current && !out->mode_refused && !card->retry_ns)
			break;
		dispatch_woken(b, 5);
		if (changes) {
			changes = 0;
			drm_backend_present(b, NULL, 0, true);
		}
	}
}

/* A card of one output made by the card's own scan of a connector with modes w[0] (preferred), w[1], w[2] (the mode
 * chosen as the backend's configuration says): an output the scan may destroy and make again (memfd_card's is the
 * caller's). Returns the memfd. */
static inline int scanned_card(struct drm_backend *b, struct drm_card *card, struct drm_output *outs,
			       const uint16_t w[3], bool atomic)
{
	int err, fd = memfd_card(b, card, outs, atomic, w, 0);

	card->n_outputs = 0;
	b->iface.outputs_changed = on_changed;
	CHECK(drm_card_scan(card, &err) && card->n_outputs == 1);
	drm_backend_update_canvas(b);
	return fd;
}

static inline void scanned_card_free(struct drm_backend *b, struct drm_card *card, struct drm_output *outs,
				     int fd)
{
	drm_output_destroy(card->outputs[0]);
	card->n_outputs = 0;
	memfd_card_free(b, card, outs, fd);
}

#endif
