/* kmscon-felis/seat.h: the seat, through libseat.
 *
 * libseat picks its backend (LIBSEAT_BACKEND, else seatd, logind, builtin: see docs/seat.md for why our
 * service must not run inside a logind session of its own). It opens every device fd the program needs (the
 * DRM card, the evdev nodes) so that a VT switch revokes them, and tells us when the seat goes away
 * (disable: we stop committing and suspend input, then acknowledge) and comes back (enable: resume, full
 * modeset).
 *
 * VT choice: libseat takes the seat on the VT that is active when it opens. With --vt=N and --activate-vt (the
 * default) we activate VT N first; with --vt=N and --no-activate-vt (the unit, as getty) we wait until someone
 * else activates VT N (sysfs tty0/active). kmscon's --no-switchvt did both that and locking Ctrl+Alt+Fn; here
 * --switchvt only decides the keys, so a unit can leave the screen alone and still let the user switch.
 */
#ifndef KF_SEAT_H
#define KF_SEAT_H

#include <stdbool.h>

struct kf_loop;
struct kf_seat;

struct kf_seat_iface {
	/* The seat is ours (at start and after every switch back): resume input, full modeset. */
	void (*enable)(void *ud);
	/* The seat is going away: stop committing, suspend input. kf_seat acknowledges after this returns. */
	void (*disable)(void *ud);
};

struct kf_seat_config {
	int vt;        /* 0: whatever VT is active */
	bool activate_vt; /* activate vt at start, else wait until it is active */
	bool switchvt;    /* false makes kf_seat_switch_vt() do nothing (the kiosk lock) */
};

/* Opens the seat (possibly after waiting for our VT: enable comes later then). The first enable may be
 * called before this returns; *out is already set then. loop is not owned and must outlive the seat; iface
 * is copied; ud is passed back. Returns 0 and *out, or -errno (logged; *out is NULL). */
int kf_seat_create(struct kf_loop *loop, const struct kf_seat_config *cfg, const struct kf_seat_iface *iface,
		   void *ud, struct kf_seat **out);
/* Closes every device still open and the seat. Accepts NULL. */
void kf_seat_destroy(struct kf_seat *seat);

/* Opens a device node through the seat. Returns the fd (owned by the caller until kf_seat_close_device) or
 * -errno (logged), -ENOTSUP without a word above debug for a framebuffer node the seat does not hand out
 * (seatd and builtin take DRM and evdev nodes only: the caller opens it itself). */
int kf_seat_open_device(struct kf_seat *seat, const char *path);
/* Gives back an fd from kf_seat_open_device and closes it. */
void kf_seat_close_device(struct kf_seat *seat, int fd);

/* Ctrl+Alt+Fn: asks the seat to switch to VT n (1..63) on the next loop iteration (never from inside a seat
 * callback). Does nothing with --no-switchvt or while the seat is not ours. Returns 0 or -errno. */
int kf_seat_switch_vt(struct kf_seat *seat, int n);

bool kf_seat_active(const struct kf_seat *seat);
/* Enabled, and our VT is the one in front (sysfs tty0/active; the seat's word alone where there is no VT): the
 * display is ours, and a card refusing DRM master is held by someone else, not being switched away (the seat drops
 * master, then the VT changes, then our disable handler runs). */
bool kf_seat_in_front(const struct kf_seat *seat);
/* libseat's seat name ("seat0"), or NULL before it opened. Owned by the seat. */
const char *kf_seat_name(const struct kf_seat *seat);
/* Devices currently open (tests: nothing may leak across VT switches). */
unsigned kf_seat_device_count(const struct kf_seat *seat);

#endif
