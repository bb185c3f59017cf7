/* kmscon-felis/notify.h: telling systemd the truth about our state (Type=notify, WatchdogSec=).
 *
 * Our own few lines over the NOTIFY_SOCKET datagram socket instead of libsystemd's sd_notify(): the protocol is
 * one sendto() of "KEY=VALUE\n" lines (documented as stable in sd_notify(3)), and linking libsystemd would add
 * ~1 MiB of mappings and its compression and crypto libraries to every console's start-up and PSS, and to the
 * initramfs/VM guest, for one call.
 *
 * Use from the program (main.c / the event loop):
 *   kf_notify_init() first thing (it also removes NOTIFY_SOCKET and WATCHDOG_* from our environment so the
 *   login and the user's shell never talk to systemd in our name);
 *   kf_notify_first_frame(mode, font) from the page-flip handler of every frame, or at least the first one
 *   (drm backend; only the first call sends READY=1 + STATUS=, later calls are free), or kf_notify_ready()
 *   when the headless session has started; kf_notify_waiting_vt() before that while the VT is not in front;
 *   kf_notify_status() when the mode or font changes; kf_notify_stopping() on shutdown;
 *   kf_notify_watchdog_start(loop) once the loop exists: when systemd asked for a watchdog (WatchdogSec=), a
 *   loop timer sends WATCHDOG=1 every half period; the ping comes from the loop itself, so a hung or spinning
 *   loop gets us restarted.
 * Every function is a no-op returning 0 when not started by systemd with NOTIFY_SOCKET. Never blocks.
 */
#ifndef KF_NOTIFY_H
#define KF_NOTIFY_H

#include <stdint.h>

/* Reads and unsets NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID. Returns 0 (also without a socket) or -errno
 * when the socket cannot be created or the address is invalid (logged; notifications are then disabled). */
int kf_notify_init(void);
/* Closes the socket. */
void kf_notify_finish(void);
/* READY=1 plus STATUS=status (status may be NULL; not retained). Returns 0 or -errno. */
int kf_notify_ready(const char *status);
/* READY=1 with STATUS="<mode>, font <font>" the first time it is called; later calls send nothing unless the
 * mode or font text changed (then only STATUS=). Strings not retained; either may be NULL. Returns 0 or -errno. */
int kf_notify_first_frame(const char *mode, const char *font);
/* READY=1 with STATUS="waiting for VT <vt> to become active" ("its VT" for vt 0) when nothing sent READY=1
 * yet: the program is up but its VT is not in front (--no-activate-vt, or switched away before the first
 * frame), which can last any time; systemd's TimeoutStartSec= must not kill it for that. The first frame
 * then only updates STATUS=. Returns 0 or -errno. */
int kf_notify_waiting_vt(int vt);
/* RELOADING=1 with MONOTONIC_USEC= (the configuration is being read again, SIGHUP); kf_notify_ready(NULL)
 * says it is done. Returns 0 or -errno. */
int kf_notify_reloading(void);
/* STATUS=... (printf format). Returns 0 or -errno. */
int kf_notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* WATCHDOG=1. Returns 0 or -errno. */
int kf_notify_watchdog(void);
/* STOPPING=1. Returns 0 or -errno. */
int kf_notify_stopping(void);
/* The watchdog interval systemd asked for in microseconds, 0 when there is none (or it is for another PID). */
uint64_t kf_notify_watchdog_usec(void);
struct kf_loop;
struct kf_timer;
/* Adds a timer to loop that sends WATCHDOG=1 every half of kf_notify_watchdog_usec(). Returns the timer (owned
 * by the loop, remove with kf_timer_remove()), or NULL when there is no watchdog or on allocation failure. */
struct kf_timer *kf_notify_watchdog_start(struct kf_loop *loop);
/* Sends raw "KEY=VALUE\n..." text (not retained). Returns 0, -errno, or 0 without a socket. */
int kf_notify_send(const char *text);

#endif
