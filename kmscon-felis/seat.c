/* kmscon-felis/seat.c: libseat on the event loop, device fds, VT choice and switching. */
#define LOG_TAG "seat"

#include "kmscon-felis/seat.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/vt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libseat.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"

#define ACTIVE_VT_PATH "/sys/class/tty/tty0/active"
/* Queued enable/disable events: each handler runs a few libseat calls, each of which may bring one. */
#define SEAT_EVENTS_MAX 16
/* The character major of /dev/fbN (the kernel's FB_MAJOR, include/uapi/linux/major.h). */
#define FB_MAJOR_NUM 29
/* What seatd (and libseat's builtin backend, seatd's code in process) says when asked for a node that is not
 * DRM, evdev or wscons: seatd/seat.c seat_open_device, with ENOENT. */
#define SEATD_REFUSAL "is not a supported device type"
/* And when asked for any device once it has disabled us (EPERM): a switch away came while our enable handler
 * reopens the input devices; the disable that follows closes them again, the next enable opens them. */
#define SEATD_INACTIVE "client is not active"
/* And when its drmSetMaster on our card fails (EBUSY: another master holds it, the last instance's seat helper
 * not yet gone): the fd is ours all the same, and drm/master.c asks for master itself and says so. */
#define SEATD_NO_MASTER "Could not make device fd drm master"

struct device {
	int fd;
	int id; /* libseat's device id */
};

struct kf_seat {
	struct kf_loop *loop;
	struct kf_seat_iface iface;
	void *ud;
	struct kf_seat_config cfg;
	struct libseat *seat;
	struct kf_source *seat_src;
	int active_vt_fd;             /* sysfs tty0/active while waiting for our VT, else -1 */
	int vt;                       /* the VT the seat is bound to (--vt, or the one in front at the open); 0: none */
	struct kf_source *active_vt_src;
	bool active;
	/* A VT switch asked for from a key handler runs on the next loop iteration: a key can arrive while
	 * libinput resumes inside enable_seat, and libseat (builtin) reverts a switch requested from within
	 * its own enable callback. */
	struct kf_timer *switch_timer;
	int pending_vt;
	/* libseat's enable/disable events, run in order from the loop, never from inside a libseat call: libseat
	 * runs queued events at the end of libseat_open_device/close_device too, i.e. from inside libinput (an
	 * enable that opens the input devices, a hot-plugged device) or from inside our own handlers. */
	bool events[SEAT_EVENTS_MAX]; /* true: enable */
	unsigned n_events;
	bool running;                 /* run_events is on the stack */
	struct kf_timer *events_timer;
	/* The seat refuses framebuffer nodes: its backend is seatd or builtin (our choice or the admin's), or it
	 * refused one already. fbdev.c then opens them itself, as root: not asked again, nothing logged above
	 * debug for what is expected. */
	bool no_fb;
	struct device *devs;
	unsigned n_devs, cap_devs;
};

static void libseat_log(enum libseat_log_level level, const char *fmt, va_list ap)
{
	char line[512];

	/* libseat is told to send everything (open_seat): its debug lines stop here unless --debug is in force
	 * now, which a reload may have changed; not formatted, as libseat did not send them before. */
	if (level >= LIBSEAT_LOG_LEVEL_DEBUG && kf_log_get_level() < KF_LOG_DEBUG)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = 0;
	/* Its refusal of a framebuffer node, which we open ourselves then (kf_seat_open_device), or of a device
	 * while a switch away is under way, and the line builtin's server half adds right after either ("Could
	 * not open device: ..."): expected, not errors. Nor is master refused (SEATD_NO_MASTER), said by drm/. */
	static bool refused;
	bool refusal = strstr(line, SEATD_REFUSAL) || strstr(line, SEATD_INACTIVE);
	bool quiet = refusal || (refused && strstr(line, "Could not open device")) || strstr(line, SEATD_NO_MASTER);
	refused = refusal;
	if (quiet)
		level = LIBSEAT_LOG_LEVEL_DEBUG;
	kf_log_msg(level == LIBSEAT_LOG_LEVEL_ERROR  ? KF_LOG_ERR
		   : level == LIBSEAT_LOG_LEVEL_INFO ? KF_LOG_INFO
						     : KF_LOG_DEBUG,
		   "libseat", __FILE__, __LINE__, "%s", line);
}

static void do_enable(struct kf_seat *s)
{
	log_info("seat %s enabled", libseat_seat_name(s->seat));
	s->active = true;
	if (s->iface.enable)
		s->iface.enable(s->ud);
}

static void do_disable(struct kf_seat *s)
{
	log_info("seat %s disabled (VT switch away)", libseat_seat_name(s->seat));
	s->active = false;
	/* Stop committing and suspend input first: libseat revokes the fds once we acknowledge. */
	if (s->iface.disable)
		s->iface.disable(s->ud);
	if (libseat_disable_seat(s->seat) < 0)
		log_err("acknowledging the seat switch failed: %s", strerror(errno));
}

/* Runs the queued events in order. Not re-entered: an event that comes during a handler (a disable while
 * the enable handler opens the input devices: a quick switch back) waits for it to finish. Before this,
 * such a disable ran inside the enable handler, which then finished as if enabled: the display committed
 * without being DRM master ("flip failed: Permission denied") and, the instance believing itself active,
 * the next enable did not resume its input (its VT shown, no keyboard; see docs/seat.md). */
static void run_events(struct kf_seat *s)
{
	if (s->running || !s->seat)
		return;
	s->running = true;
	while (s->n_events) {
		bool enable = s->events[0];
		memmove(s->events, s->events + 1, --s->n_events * sizeof(s->events[0]));
		if (enable)
			do_enable(s);
		else
			do_disable(s);
	}
	s->running = false;
}

static void events_due(void *ud, struct kf_timer *t)
{
	run_events(ud);
}

static void queue_event(struct kf_seat *s, bool enable)
{
	if (s->n_events == SEAT_EVENTS_MAX) {
		log_err("too many seat events queued; dropping the %s", enable ? "enable" : "disable");
		return;
	}
	s->events[s->n_events++] = enable;
	/* From inside a libseat call: run from the loop's next iteration (seat_readable and open_seat run
	 * them at once after their own libseat_dispatch). */
	if (s->events_timer)
		kf_timer_arm(s->events_timer, 0, 0);
}

static void enable_seat(struct libseat *ls, void *userdata)
{
	queue_event(userdata, true);
}

static void disable_seat(struct libseat *ls, void *userdata)
{
	queue_event(userdata, false);
}

static const struct libseat_seat_listener listener = {
	.enable_seat = enable_seat,
	.disable_seat = disable_seat,
};

static void seat_readable(void *ud, int fd, uint32_t events)
{
	struct kf_seat *s = ud;

	if (libseat_dispatch(s->seat, 0) < 0) {
		log_err("libseat dispatch failed: %s; the seat is gone, quitting", strerror(errno));
		kf_loop_quit(s->loop, 1);
		return;
	}
	run_events(s);
}

/* Whether this process runs inside a logind session: systemd puts session processes in a
 * "session-<id>.scope" cgroup; a system service (our unit, which has no PAMName=) is not. */
static bool in_logind_session(void)
{
	char line[1024];
	bool found = false;
	FILE *f;

	if (getenv("XDG_SESSION_ID"))
		return true;
	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "/session-");
		found = p && strstr(p, ".scope");
	}
	fclose(f);
	return found;
}

/* libseat's logind backend, outside a session, falls back to the user's "display session" and would
 * activate and take control of it (root logged in on another VT, for instance). So outside a session we
 * let libseat choose only between seatd and builtin; LIBSEAT_BACKEND set by the admin always wins. See
 * docs/seat.md. */
static bool choose_backend(void)
{
	const char *sock = getenv("SEATD_SOCK");

	if (getenv("LIBSEAT_BACKEND") || in_logind_session())
		return false;
	if (access(sock && *sock ? sock : "/run/seatd.sock", F_OK) == 0)
		setenv("LIBSEAT_BACKEND", "seatd", 1);
	else
		setenv("LIBSEAT_BACKEND", "builtin", 1);
	log_info("not in a logind session: libseat backend %s", getenv("LIBSEAT_BACKEND"));
	return true;
}

static int wait_for_vt(struct kf_seat *s);
static int read_active_vt(int fd);

/* The VT in front now (sysfs tty0/active), or -1 (no VTs: a seat without them, a kernel without VT support). */
static int front_vt(void)
{
	int fd = open(ACTIVE_VT_PATH, O_RDONLY | O_CLOEXEC), vt;

	if (fd < 0)
		return -1;
	vt = read_active_vt(fd);
	close(fd);
	return vt;
}

/* seatd and its builtin backend bind a client to the VT in front when it joins the seat (seatd/seat.c
 * seat_add_client: cur_vt), not to the one it wants. A switch between our look at tty0/active and that moment
 * (a quick Ctrl+Alt+F2 then F3, a busy seatd) gave us the other VT: its screen (a getty's text console taken
 * to graphics mode, our console drawn there) and its keyboard (switched off), with ours still waiting. Once
 * joined on our VT, the one in front cannot leave it before we acknowledge the release (VT_PROCESS), which
 * only our loop does: a VT other than ours in front right after the open is not ours. */
static bool opened_elsewhere(const struct kf_seat *s, bool vt_bound, int *active)
{
	if (!vt_bound)
		return false;
	*active = front_vt();
	return s->cfg.vt > 0 && *active > 0 && *active != s->cfg.vt;
}

static int open_seat(struct kf_seat *s)
{
	bool chosen = choose_backend();
	int fd, err, active = 0;

	libseat_set_log_handler(libseat_log);
	/* Everything: libseat_log() drops what the level in force does not show. Given the level of the moment,
	 * libseat kept it, and a reload to debug (SIGHUP) never saw its debug lines. */
	libseat_set_log_level(LIBSEAT_LOG_LEVEL_DEBUG);
	s->seat = libseat_open_seat(&listener, s);
	err = errno;
	const char *backend = getenv("LIBSEAT_BACKEND");
	s->no_fb = backend && (!strcmp(backend, "seatd") || !strcmp(backend, "builtin"));
	/* Our choice is ours: the login and a compositor the user starts pick their own backend. */
	if (chosen)
		unsetenv("LIBSEAT_BACKEND");
	if (!s->seat) {
		log_err("cannot open the seat through libseat: %s (is seatd running, or are we root for the "
			"builtin backend?)", strerror(err));
		return err ? -err : -EIO;
	}
	if (opened_elsewhere(s, s->no_fb, &active)) {
		/* Closing gives that VT back in text mode with its keyboard (seatd's vt_close). */
		log_notice("VT %d left the front while the seat opened, and libseat gave us VT %d: giving it back, "
			   "waiting for VT %d again", s->cfg.vt, active, s->cfg.vt);
		libseat_close_seat(s->seat);
		s->seat = NULL;
		s->n_events = 0;
		return wait_for_vt(s);
	}
	/* seatd and builtin bind us to the VT in front now (--vt's, checked above); logind to our session's. */
	s->vt = s->cfg.vt > 0 ? s->cfg.vt : s->no_fb ? active : 0;
	fd = libseat_get_fd(s->seat);
	s->seat_src = kf_loop_add_fd(s->loop, fd, EPOLLIN, KF_PRIO_INPUT, seat_readable, s);
	if (!s->seat_src)
		return -errno;
	log_notice("seat %s opened", libseat_seat_name(s->seat));
	/* The first enable_seat is usually queued already: handle it now rather than on the next wake-up. */
	if (libseat_dispatch(s->seat, 0) < 0)
		return -errno;
	run_events(s);
	return 0;
}

/* The number in "ttyN" of /sys/class/tty/tty0/active, read again from the start. */
static int read_active_vt(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 3)
		return -1;
	buf[n] = 0;
	return strncmp(buf, "tty", 3) ? -1 : atoi(buf + 3);
}

static void stop_waiting(struct kf_seat *s)
{
	kf_source_remove(s->active_vt_src);
	s->active_vt_src = NULL;
	if (s->active_vt_fd >= 0)
		close(s->active_vt_fd);
	s->active_vt_fd = -1;
}

/* sysfs attributes wake pollers with POLLPRI|POLLERR when they change. */
static void active_vt_changed(void *ud, int fd, uint32_t events)
{
	struct kf_seat *s = ud;

	if (read_active_vt(fd) != s->cfg.vt)
		return;
	stop_waiting(s);
	log_info("VT %d is active: taking the seat", s->cfg.vt);
	if (open_seat(s) < 0)
		kf_loop_quit(s->loop, 1);
}

/* Waits (from the loop) until our VT is in front, then opens the seat (active_vt_changed). */
static int wait_for_vt(struct kf_seat *s)
{
	if (s->active_vt_fd < 0)
		s->active_vt_fd = open(ACTIVE_VT_PATH, O_RDONLY | O_CLOEXEC);
	if (s->active_vt_fd < 0)
		return -errno;
	log_notice("waiting for VT %d to become active", s->cfg.vt);
	s->active_vt_src = kf_loop_add_fd(s->loop, s->active_vt_fd, EPOLLPRI | EPOLLERR, KF_PRIO_INPUT,
					  active_vt_changed, s);
	if (!s->active_vt_src)
		return -errno;
	/* (the switch back may have come already: its wake-up was before this fd was watched) */
	if (read_active_vt(s->active_vt_fd) == s->cfg.vt)
		active_vt_changed(s, s->active_vt_fd, 0);
	return 0;
}

static void activate_vt(int n)
{
	int fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		log_warn("cannot open /dev/tty0 to activate VT %d: %s", n, strerror(errno));
		return;
	}
	if (ioctl(fd, VT_ACTIVATE, n) < 0)
		log_warn("activating VT %d failed: %s", n, strerror(errno));
	close(fd);
}

int kf_seat_create(struct kf_loop *loop, const struct kf_seat_config *cfg, const struct kf_seat_iface *iface,
		   void *ud, struct kf_seat **out)
{
	struct kf_seat *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -ENOMEM;
	s->loop = loop;
	s->iface = *iface;
	s->ud = ud;
	s->cfg = *cfg;
	s->active_vt_fd = -1;
	s->events_timer = kf_loop_add_timer(loop, events_due, s);
	if (!s->events_timer) {
		free(s);
		return -ENOMEM;
	}
	/* enable may run inside open_seat(), and the program's enable callback may use the seat. */
	*out = s;
	if (cfg->vt > 0) {
		s->active_vt_fd = open(ACTIVE_VT_PATH, O_RDONLY | O_CLOEXEC);
		if (cfg->activate_vt)
			activate_vt(cfg->vt);
	}
	if (s->active_vt_fd >= 0 && read_active_vt(s->active_vt_fd) != cfg->vt) {
		r = wait_for_vt(s);
		if (r < 0)
			goto err;
		return 0;
	}
	stop_waiting(s);
	r = open_seat(s);
	if (r < 0)
		goto err;
	return 0;

err:
	*out = NULL;
	kf_seat_destroy(s);
	return r;
}

void kf_seat_destroy(struct kf_seat *s)
{
	if (!s)
		return;
	stop_waiting(s);
	while (s->n_devs)
		kf_seat_close_device(s, s->devs[s->n_devs - 1].fd);
	free(s->devs);
	kf_timer_remove(s->switch_timer);
	kf_timer_remove(s->events_timer);
	kf_source_remove(s->seat_src);
	if (s->seat)
		libseat_close_seat(s->seat);
	free(s);
}

static bool is_fb_node(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == FB_MAJOR_NUM;
}

int kf_seat_open_device(struct kf_seat *s, const char *path)
{
	int fd = -1, id;

	if (!s->seat)
		return -ENODEV;
	if (s->n_devs == s->cap_devs) {
		unsigned cap = s->cap_devs ? s->cap_devs * 2 : 16;
		struct device *d = realloc(s->devs, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		s->devs = d;
		s->cap_devs = cap;
	}
	bool fb = is_fb_node(path);
	if (fb && s->no_fb) {
		log_debug("%s: the seat hands out no framebuffers (seatd, builtin): not asked", path);
		return -ENOTSUP;
	}
	id = libseat_open_device(s->seat, path, &fd);
	if (id < 0) {
		int r = -errno;
		if (fb && r == -ENOENT && access(path, F_OK) == 0) {
			/* seatd's refusal (SEATD_REFUSAL) behind a backend libseat chose itself */
			log_debug("%s: the seat does not hand out framebuffers: not asked again", path);
			s->no_fb = true;
			return -ENOTSUP;
		}
		if (r == -EPERM)
			log_debug("%s: not opened, the seat is not ours (a VT switch away)", path);
		else
			log_warn("cannot open %s through the seat: %s", path, strerror(errno));
		return r ? r : -EIO;
	}
	s->devs[s->n_devs++] = (struct device){.fd = fd, .id = id};
	log_debug("opened %s as fd %d (device %d)", path, fd, id);
	return fd;
}

void kf_seat_close_device(struct kf_seat *s, int fd)
{
	for (unsigned i = 0; i < s->n_devs; i++) {
		if (s->devs[i].fd != fd)
			continue;
		if (libseat_close_device(s->seat, s->devs[i].id) < 0)
			log_debug("libseat_close_device(%d): %s", s->devs[i].id, strerror(errno));
		close(fd);
		s->devs[i] = s->devs[--s->n_devs];
		return;
	}
	log_warn("closing fd %d that the seat did not open (our bug)", fd);
	close(fd);
}

static void switch_now(void *ud, struct kf_timer *t)
{
	struct kf_seat *s = ud;
	int n = s->pending_vt;

	s->pending_vt = 0;
	if (!n || !s->active)
		return;
	log_info("switching to VT %d", n);
	if (libseat_switch_session(s->seat, n) < 0)
		log_warn("switching to VT %d failed: %s", n, strerror(errno));
}

int kf_seat_switch_vt(struct kf_seat *s, int n)
{
	if (!s->cfg.switchvt || !s->seat || n < 1 || n > 63)
		return 0;
	if (!s->switch_timer) {
		s->switch_timer = kf_loop_add_timer(s->loop, switch_now, s);
		if (!s->switch_timer)
			return -ENOMEM;
	}
	s->pending_vt = n;
	kf_timer_arm(s->switch_timer, 0, 0);
	return 0;
}

bool kf_seat_active(const struct kf_seat *s)
{
	return s->active;
}

bool kf_seat_in_front(const struct kf_seat *s)
{
	int front;

	if (!s->active || s->vt <= 0)
		return s->active;
	front = front_vt();
	return front <= 0 || front == s->vt;
}

const char *kf_seat_name(const struct kf_seat *s)
{
	return s->seat ? libseat_seat_name(s->seat) : NULL;
}

unsigned kf_seat_device_count(const struct kf_seat *s)
{
	return s->n_devs;
}
