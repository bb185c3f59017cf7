/* tests/service/kf-floor.c: the floors of the start-up benchmark (issue 7): what exec -> READY=1 costs in the
 * guest before any of our code runs. Started by kf-notify-run like kmscon-felis (servicevm.py --floors).
 *
 *   kf-floor              sends READY=1 at once (exec and, for a dynamic build, the dynamic linker alone)
 *   kf-floor modeset      opens /dev/dri/card0, looks up the connector, CRTC and primary plane and their
 *                         properties, creates and maps one dumb buffer, fills it, then one TEST_ONLY commit and
 *                         one non-blocking modeset commit with a page-flip event (the commit kmscon-felis makes
 *                         for its first frame); READY=1 once the event arrives
 *   kf-floor flip         the same, but when the CRTC already scans out the mode (fbcon's) the commit only sets
 *                         the plane (no ALLOW_MODESET); falls back to the modeset otherwise
 *   kf-floor-libseat seat the least a console that takes its seat through libseat must do: open the seat
 *                         (libseat picks the backend, as for kmscon-felis: in the guest its builtin one), wait
 *                         for it to be enabled, open the card through libseat_open_device, then the modeset of
 *                         `modeset`; only in the build with libseat (KF_FLOOR_SEAT)
 * After READY=1 the program waits for SIGTERM (the frame stays on screen until kf-notify-run stops it).
 *
 * Built twice: kf-floor-static (static, libc and libdrm inside) and kf-floor-linked (dynamic, with the
 * DT_NEEDED list of kmscon-felis, see meson.build), so the difference between the two is the cost of loading
 * our libraries.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef KF_FLOOR_SEAT
#include <libseat.h>
#endif
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static void notify_ready(const char *status)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char msg[256];
	int fd;

	if (!path || path[0] != '/' || strlen(path) >= sizeof(a.sun_path))
		return;
	memcpy(a.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	snprintf(msg, sizeof(msg), "READY=1\nSTATUS=%s", status);
	sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&a, sizeof(a));
	close(fd);
}

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name, uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;

	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (p && strcmp(p->name, name) == 0) {
			id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

static void flip_handler(int fd, unsigned seq, unsigned sec, unsigned usec, void *ud)
{
	*(int *)ud = 1;
}

static int fail(const char *what)
{
	fprintf(stderr, "kf-floor: %s: %s\n", what, strerror(errno));
	return 1;
}

/* fd: the card, or -1 to open it here. */
static int show_frame(int fd, int only_flip)
{
	if (fd < 0)
		fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	drmModeRes *res;
	drmModeConnector *conn = NULL;
	drmModePlaneRes *pres;
	uint32_t crtc = 0, plane = 0, blob = 0, handle, stride, fb;
	unsigned crtc_index = 0;
	uint64_t size, offset, mode_now = 0, type = 0;
	drmModeAtomicReq *req;
	uint8_t *map;

	if (fd < 0)
		return fail("open /dev/dri/card0");
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) < 0 ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) < 0)
		return fail("atomic");
	res = drmModeGetResources(fd);
	if (!res)
		return fail("resources");
	for (int i = 0; i < res->count_connectors && !conn; i++) {
		conn = drmModeGetConnector(fd, res->connectors[i]);
		if (conn && (conn->connection != DRM_MODE_CONNECTED || !conn->count_modes)) {
			drmModeFreeConnector(conn);
			conn = NULL;
		}
	}
	if (!conn)
		return fail("no connected connector");
	crtc = res->crtcs[0];
	pres = drmModeGetPlaneResources(fd);
	for (uint32_t i = 0; pres && i < pres->count_planes && !plane; i++) {
		drmModePlane *p = drmModeGetPlane(fd, pres->planes[i]);

		if (p && (p->possible_crtcs & (1u << crtc_index)) &&
		    prop_id(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) && type == DRM_PLANE_TYPE_PRIMARY)
			plane = p->plane_id;
		drmModeFreePlane(p);
	}
	if (!plane)
		return fail("no primary plane");
	const drmModeModeInfo *mode = &conn->modes[0];
	for (int i = 0; i < conn->count_modes; i++)
		if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) {
			mode = &conn->modes[i];
			break;
		}
	uint32_t w = mode->hdisplay, h = mode->vdisplay;
	if (drmModeCreateDumbBuffer(fd, w, h, 32, 0, &handle, &stride, &size) < 0)
		return fail("dumb buffer");
	uint32_t handles[4] = {handle}, pitches[4] = {stride}, offsets[4] = {0};
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &fb, 0) < 0)
		return fail("AddFB2");
	if (drmModeMapDumbBuffer(fd, handle, &offset) < 0)
		return fail("map");
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
	if (map == MAP_FAILED)
		return fail("mmap");
	memset(map, 0x30, size); /* not black: a frame someone could see */

	uint32_t p_fb = prop_id(fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", NULL);
	uint32_t p_crtc = prop_id(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", NULL);
	const char *geo[] = {"SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"};
	uint64_t geo_val[] = {0, 0, (uint64_t)w << 16, (uint64_t)h << 16, 0, 0, w, h};
	uint32_t c_mode = prop_id(fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", &mode_now);
	uint32_t c_active = prop_id(fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", NULL);
	uint32_t k_crtc = prop_id(fd, conn->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL);
	int modeset = 1;

	if (only_flip && mode_now) {
		drmModePropertyBlobRes *b = drmModeGetPropertyBlob(fd, (uint32_t)mode_now);

		if (b && b->length == sizeof(*mode) && memcmp(b->data, mode, sizeof(*mode)) == 0)
			modeset = 0;
		drmModeFreePropertyBlob(b);
	}
	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, plane, p_fb, fb);
	drmModeAtomicAddProperty(req, plane, p_crtc, crtc);
	for (int i = 0; i < 8; i++)
		drmModeAtomicAddProperty(req, plane, prop_id(fd, plane, DRM_MODE_OBJECT_PLANE, geo[i], NULL),
					 geo_val[i]);
	if (modeset) {
		if (drmModeCreatePropertyBlob(fd, mode, sizeof(*mode), &blob) < 0)
			return fail("mode blob");
		drmModeAtomicAddProperty(req, conn->connector_id, k_crtc, crtc);
		drmModeAtomicAddProperty(req, crtc, c_mode, blob);
		drmModeAtomicAddProperty(req, crtc, c_active, 1);
	}
	uint32_t flags = modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0;
	if (drmModeAtomicCommit(fd, req, flags | DRM_MODE_ATOMIC_TEST_ONLY, NULL) < 0)
		return fail("TEST_ONLY commit");
	int flipped = 0;
	if (drmModeAtomicCommit(fd, req, flags | DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT, &flipped) < 0)
		return fail("commit");
	drmEventContext ctx = {.version = 2, .page_flip_handler = flip_handler};
	while (!flipped) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (poll(&p, 1, 5000) <= 0)
			return fail("no flip event");
		drmHandleEvent(fd, &ctx);
	}
	char status[96];
	snprintf(status, sizeof(status), "%ux%u %s", w, h, modeset ? "modeset" : "plane flip");
	notify_ready(status);
	for (;;)
		pause(); /* keep the frame until SIGTERM */
}

#ifdef KF_FLOOR_SEAT
static void seat_enabled(struct libseat *seat, void *ud)
{
	(void)seat;
	*(int *)ud = 1;
}

static void seat_disabled(struct libseat *seat, void *ud)
{
	(void)ud;
	libseat_disable_seat(seat);
}

static int seat_frame(void)
{
	int enabled = 0, dev_fd = -1;
	struct libseat_seat_listener listener = {.enable_seat = seat_enabled, .disable_seat = seat_disabled};
	struct libseat *seat = libseat_open_seat(&listener, &enabled);

	if (!seat)
		return fail("libseat_open_seat");
	while (!enabled)
		if (libseat_dispatch(seat, 5000) < 0)
			return fail("libseat_dispatch");
	if (libseat_open_device(seat, "/dev/dri/card0", &dev_fd) < 0)
		return fail("libseat_open_device /dev/dri/card0");
	return show_frame(dev_fd, 0);
}
#endif

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "modeset") == 0)
		return show_frame(-1, 0);
	if (argc > 1 && strcmp(argv[1], "flip") == 0)
		return show_frame(-1, 1);
#ifdef KF_FLOOR_SEAT
	if (argc > 1 && strcmp(argv[1], "seat") == 0)
		return seat_frame();
#endif
	notify_ready("nothing");
	return 0;
}
