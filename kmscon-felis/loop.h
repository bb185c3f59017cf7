/* kmscon-felis/loop.h: the program's one event loop (epoll).
 *
 * Why our own and not sd-event: the loop is small (fds, one timerfd, one signalfd, prepare hooks), and we
 * need two things sd-event does not give cheaply: a per-wake-up order by priority across all ready fds (a
 * key must never wait behind a PTY flood, page-flip events come before PTY output), and fd sources that stay
 * registered for their whole life with EPOLLOUT switched by a single EPOLL_CTL_MOD. It also keeps libsystemd
 * off the hot path and out of the tests.
 *
 * How one iteration runs (kf_loop_dispatch):
 *  1. prepare hooks, in registration order (the frame loop renders here, once per iteration, after all the
 *     input of the previous wake-up has been parsed);
 *  2. the timerfd is re-armed if timers changed (one syscall per iteration at most);
 *  3. epoll_wait (no timeout unless asked; an idle program sleeps here with no wake-ups);
 *  4. ready sources are dispatched by priority (KF_PRIO_INPUT first), each at most once. A PTY handler must
 *     bound the work it does per call (a read budget); level-triggered epoll reports it again next time, so
 *     nothing is starved and nothing is lost.
 *  5. sources removed during the iteration are freed.
 *
 * Handlers never block. Any source may be removed from any callback, including itself; its callback is not
 * called after removal. Nothing runs in signal handler context: signals arrive through a signalfd.
 * Everything here is single-threaded.
 */
#ifndef KF_LOOP_H
#define KF_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>

/* Lower runs first within one wake-up. */
enum kf_prio {
	KF_PRIO_INPUT = 0,   /* evdev/libinput, libseat, the headless input FIFO */
	KF_PRIO_FLIP = 1,    /* DRM page-flip events, udev hotplug */
	KF_PRIO_TIMER = 2,   /* the loop's timerfd (key repeat, blink, back-off, watchdogs) */
	KF_PRIO_SIGNAL = 3,  /* the loop's signalfd */
	KF_PRIO_DEFAULT = 4, /* child exit (pidfd) and anything else */
	KF_PRIO_PTY = 5,     /* PTY master: output from the child, bounded per wake-up */
};

struct kf_loop;
struct kf_source;
struct kf_timer;
struct kf_hook;

/* events: EPOLLIN/EPOLLOUT/EPOLLERR/EPOLLHUP bits that are ready. */
typedef void (*kf_fd_fn)(void *ud, int fd, uint32_t events);
typedef void (*kf_timer_fn)(void *ud, struct kf_timer *timer);
typedef void (*kf_signal_fn)(void *ud, int signo);
typedef void (*kf_hook_fn)(void *ud);

/* Returns NULL on failure (errno set). */
struct kf_loop *kf_loop_create(void);
/* Frees every source, timer and hook still registered (their callbacks are not called), restores the
 * signal mask; a routed signal still pending, that the restored mask would unblock, is dropped (not acted on
 * with its default action). Does not close fds given to kf_loop_add_fd. Accepts NULL. */
void kf_loop_destroy(struct kf_loop *loop);

/* Runs iterations until kf_loop_quit() (also one called before the run), then clears the quit request so
 * the loop can run again. Returns the code given to kf_loop_quit, or -errno on failure of epoll_wait. */
int kf_loop_run(struct kf_loop *loop);
/* One iteration; timeout_ms < 0 waits for an event. Returns 0 or -errno. */
int kf_loop_dispatch(struct kf_loop *loop, int timeout_ms);
/* Makes kf_loop_run return code after the current iteration; the first request wins. */
void kf_loop_quit(struct kf_loop *loop, int code);
bool kf_loop_quitting(const struct kf_loop *loop);

/* Watches fd (level-triggered) for events (EPOLLIN/EPOLLOUT; 0 = registered but only HUP/ERR reported; with
 * EPOLLET only changes are, e.g. for a hang-up that would otherwise be reported on every wake-up).
 * Does not take ownership of fd: the caller closes it after kf_source_remove(). Returns NULL on failure
 * (errno set). The source is owned by the loop; valid until kf_source_remove() or kf_loop_destroy(). */
struct kf_source *kf_loop_add_fd(struct kf_loop *loop, int fd, uint32_t events, enum kf_prio prio,
				 kf_fd_fn fn, void *ud);
/* Changes the watched events with one EPOLL_CTL_MOD, only when they differ. Returns 0 or -errno. */
int kf_source_set_events(struct kf_source *src, uint32_t events);
uint32_t kf_source_events(const struct kf_source *src);
/* Unregisters at once (EPOLL_CTL_DEL: the caller may close the fd right after); freed after the current
 * dispatch. Accepts NULL. */
void kf_source_remove(struct kf_source *src);

/* Timers share one timerfd (CLOCK_MONOTONIC). A new timer is disarmed. Owned by the loop; valid until
 * kf_timer_remove() or kf_loop_destroy(). Returns NULL on allocation failure. */
struct kf_timer *kf_loop_add_timer(struct kf_loop *loop, kf_timer_fn fn, void *ud);
/* Arms: first expiry after delay_ns (0 = at the next iteration), then every interval_ns (0 = once).
 * Re-arming replaces the previous setting. A timer is disarmed (or moved to its next interval) before its
 * callback runs, so the callback may re-arm or remove it, or any other timer. */
void kf_timer_arm(struct kf_timer *timer, uint64_t delay_ns, uint64_t interval_ns);
void kf_timer_disarm(struct kf_timer *timer);
bool kf_timer_armed(const struct kf_timer *timer);
/* Accepts NULL. */
void kf_timer_remove(struct kf_timer *timer);

/* Blocks signo and delivers it through the loop's signalfd. Several handlers for one signal are all called.
 * Returned handle: remove with kf_source_remove(), which unblocks signo with its last handler (unless it was
 * blocked before), dropping an instance still pending. Returns NULL on failure (errno set), signo then left as it
 * was (blocked or not, routed to the signalfd or not). */
struct kf_source *kf_loop_add_signal(struct kf_loop *loop, int signo, kf_signal_fn fn, void *ud);

/* A callback run at the start of every iteration, before the loop sleeps. Keep it cheap when there is
 * nothing to do: it runs on every wake-up. Owned by the loop; remove with kf_hook_remove(). */
struct kf_hook *kf_loop_add_prepare(struct kf_loop *loop, kf_hook_fn fn, void *ud);
/* Accepts NULL. */
void kf_hook_remove(struct kf_hook *hook);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t kf_loop_now_ns(void);
/* CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID) in ns, 0 if unavailable: the profile counters and
 * the frame pacing measure work with it, since CLOCK_MONOTONIC also counts the time other processes (the child
 * writing its output) ran in between. */
uint64_t kf_thread_cpu_ns(void);

#endif
