/* kmscon-felis/loop.c: see loop.h. */
#include "kmscon-felis/loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 64

enum source_kind {
	SOURCE_FD,
	SOURCE_SIGNAL,
};

struct kf_source {
	struct kf_loop *loop;
	struct kf_source *next; /* loop->sources */
	enum source_kind kind;
	bool dead;              /* removed; freed after the current dispatch */
	/* SOURCE_FD */
	int fd;
	uint32_t events;
	enum kf_prio prio;
	kf_fd_fn fn;
	/* SOURCE_SIGNAL */
	int signo;
	kf_signal_fn sig_fn;
	void *ud;
};

struct kf_timer {
	struct kf_loop *loop;
	struct kf_timer *next;
	uint64_t deadline;     /* CLOCK_MONOTONIC ns; 0 = disarmed */
	uint64_t interval;
	uint64_t armed_serial; /* loop->timer_serial when armed: a timer armed during a dispatch waits for the
				* next one, so a callback re-arming with delay 0 cannot loop forever */
	bool dead;
	kf_timer_fn fn;
	void *ud;
};

struct kf_hook {
	struct kf_loop *loop;
	struct kf_hook *next;
	bool dead;
	kf_hook_fn fn;
	void *ud;
};

struct kf_loop {
	int epfd;
	struct kf_source *sources;
	struct kf_timer *timers;
	struct kf_hook *hooks;
	bool garbage;          /* something is dead and waits to be freed */

	int tfd;               /* the one timerfd */
	struct kf_source *tsrc;
	bool timers_dirty;     /* re-arm tfd before the next wait */
	uint64_t tfd_deadline; /* what tfd is armed for (0 = disarmed) */
	uint64_t timer_serial;

	int sfd;               /* the signalfd, -1 until the first signal source */
	struct kf_source *ssrc;
	sigset_t sigmask;      /* signals routed to sfd */
	sigset_t saved_mask;   /* the thread's mask before we blocked anything */

	bool quit;
	int quit_code;
};

uint64_t kf_loop_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t kf_thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_timerfd(void *ud, int fd, uint32_t events);

/* Takes the pending instances of set's signals, which are blocked, before they are unblocked: one that came after
 * the loop's last read of its signalfd was otherwise taken with its default action at the unblocking, which for
 * SIGHUP, SIGUSR1 or SIGRTMIN+1 ends the process (a SIGHUP during the shutdown a SIGTERM started killed the
 * program: exit status 129, not 0; tests/kmscon-felis/test-loop.c, live stop_then_hup). Nobody handles it any
 * more: it is dropped. */
static void discard_pending(const sigset_t *set)
{
	const struct timespec now = {0, 0};
	while (sigtimedwait(set, NULL, &now) > 0)
		;
}

struct kf_loop *kf_loop_create(void)
{
	struct kf_loop *loop = calloc(1, sizeof(*loop));
	if (!loop)
		return NULL;
	loop->sfd = -1;
	loop->tfd = -1;
	sigemptyset(&loop->sigmask);
	sigprocmask(SIG_SETMASK, NULL, &loop->saved_mask);
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0)
		goto fail;
	loop->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (loop->tfd < 0)
		goto fail;
	loop->tsrc = kf_loop_add_fd(loop, loop->tfd, EPOLLIN, KF_PRIO_TIMER, on_timerfd, loop);
	if (!loop->tsrc)
		goto fail;
	return loop;

fail:;
	int e = errno;
	kf_loop_destroy(loop);
	errno = e;
	return NULL;
}

static void collect_garbage(struct kf_loop *loop)
{
	if (!loop->garbage)
		return;
	loop->garbage = false;
	for (struct kf_source **p = &loop->sources; *p;) {
		struct kf_source *s = *p;
		if (s->dead) {
			*p = s->next;
			free(s);
		} else {
			p = &s->next;
		}
	}
	for (struct kf_timer **p = &loop->timers; *p;) {
		struct kf_timer *t = *p;
		if (t->dead) {
			*p = t->next;
			free(t);
		} else {
			p = &t->next;
		}
	}
	for (struct kf_hook **p = &loop->hooks; *p;) {
		struct kf_hook *h = *p;
		if (h->dead) {
			*p = h->next;
			free(h);
		} else {
			p = &h->next;
		}
	}
}

void kf_loop_destroy(struct kf_loop *loop)
{
	if (!loop)
		return;
	for (struct kf_source *s = loop->sources; s; s = s->next)
		s->dead = true;
	for (struct kf_timer *t = loop->timers; t; t = t->next)
		t->dead = true;
	for (struct kf_hook *h = loop->hooks; h; h = h->next)
		h->dead = true;
	loop->garbage = true;
	collect_garbage(loop);
	if (loop->sfd >= 0) {
		close(loop->sfd);
		/* only those the restored mask unblocks: one blocked before the loop stays the caller's */
		sigset_t drop = loop->sigmask;
		for (int sig = 1; sig < NSIG; sig++)
			if (sigismember(&loop->saved_mask, sig) == 1)
				sigdelset(&drop, sig);
		discard_pending(&drop);
		sigprocmask(SIG_SETMASK, &loop->saved_mask, NULL);
	}
	if (loop->tfd >= 0)
		close(loop->tfd);
	if (loop->epfd >= 0)
		close(loop->epfd);
	free(loop);
}

/* ------------------------------------------------------------------------------------------- fd sources */

struct kf_source *kf_loop_add_fd(struct kf_loop *loop, int fd, uint32_t events, enum kf_prio prio,
				 kf_fd_fn fn, void *ud)
{
	struct kf_source *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	*s = (struct kf_source){.loop = loop, .kind = SOURCE_FD, .fd = fd, .events = events, .prio = prio,
				.fn = fn, .ud = ud};
	struct epoll_event ev = {.events = events, .data.ptr = s};
	if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int e = errno;
		free(s);
		errno = e;
		return NULL;
	}
	s->next = loop->sources;
	loop->sources = s;
	return s;
}

int kf_source_set_events(struct kf_source *s, uint32_t events)
{
	if (s->kind != SOURCE_FD || s->dead)
		return -EINVAL;
	if (s->events == events)
		return 0;
	struct epoll_event ev = {.events = events, .data.ptr = s};
	if (epoll_ctl(s->loop->epfd, EPOLL_CTL_MOD, s->fd, &ev) < 0)
		return -errno;
	s->events = events;
	return 0;
}

uint32_t kf_source_events(const struct kf_source *s)
{
	return s->events;
}

static void update_signalfd(struct kf_loop *loop);

void kf_source_remove(struct kf_source *s)
{
	if (!s || s->dead)
		return;
	s->dead = true;
	s->loop->garbage = true;
	if (s->kind == SOURCE_FD) {
		epoll_ctl(s->loop->epfd, EPOLL_CTL_DEL, s->fd, NULL);
		return;
	}
	/* Keep the signal blocked and routed while another handler still wants it. */
	for (struct kf_source *o = s->loop->sources; o; o = o->next)
		if (!o->dead && o->kind == SOURCE_SIGNAL && o->signo == s->signo)
			return;
	sigdelset(&s->loop->sigmask, s->signo);
	update_signalfd(s->loop);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, s->signo);
	if (!sigismember(&s->loop->saved_mask, s->signo)) {
		discard_pending(&one);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
	}
}

/* ---------------------------------------------------------------------------------------------- signals */

static void on_signalfd(void *ud, int fd, uint32_t events)
{
	struct kf_loop *loop = ud;
	struct signalfd_siginfo si[16];
	for (;;) {
		ssize_t n = read(fd, si, sizeof(si));
		if (n < (ssize_t)sizeof(si[0]))
			return;
		for (size_t i = 0; i < (size_t)n / sizeof(si[0]); i++) {
			for (struct kf_source *s = loop->sources; s; s = s->next)
				if (!s->dead && s->kind == SOURCE_SIGNAL && s->signo == (int)si[i].ssi_signo)
					s->sig_fn(s->ud, s->signo);
		}
	}
}

static void update_signalfd(struct kf_loop *loop)
{
	if (loop->sfd >= 0)
		signalfd(loop->sfd, &loop->sigmask, SFD_NONBLOCK | SFD_CLOEXEC);
}

struct kf_source *kf_loop_add_signal(struct kf_loop *loop, int signo, kf_signal_fn fn, void *ud)
{
	struct kf_source *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	*s = (struct kf_source){.loop = loop, .kind = SOURCE_SIGNAL, .fd = -1, .signo = signo, .sig_fn = fn,
				.ud = ud};
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, signo);
	/* another source of the same signal: already blocked and routed */
	bool routed = sigismember(&loop->sigmask, signo) == 1;
	sigaddset(&loop->sigmask, signo);
	if (!routed && sigprocmask(SIG_BLOCK, &one, NULL) < 0)
		goto fail;
	if (loop->sfd < 0) {
		loop->sfd = signalfd(-1, &loop->sigmask, SFD_NONBLOCK | SFD_CLOEXEC);
		if (loop->sfd < 0)
			goto fail;
		loop->ssrc = kf_loop_add_fd(loop, loop->sfd, EPOLLIN, KF_PRIO_SIGNAL, on_signalfd, loop);
		if (!loop->ssrc) {
			/* (a signalfd nobody reads: the next signal source would take it as watched) */
			int e = errno;
			close(loop->sfd);
			loop->sfd = -1;
			errno = e;
			goto fail;
		}
	} else if (signalfd(loop->sfd, &loop->sigmask, SFD_NONBLOCK | SFD_CLOEXEC) < 0) {
		goto fail;
	}
	s->next = loop->sources;
	loop->sources = s;
	return s;

fail:;
	/* The signal as it was: it stayed blocked with nobody to read it (SIGTERM: the program stoppable by SIGKILL
	 * only) and in the mask later signalfds took (tests/kmscon-felis/test-loop.c test_signal_add_fails). */
	int e = errno;
	if (!routed) {
		sigdelset(&loop->sigmask, signo);
		update_signalfd(loop);
		if (!sigismember(&loop->saved_mask, signo))
			sigprocmask(SIG_UNBLOCK, &one, NULL);
	}
	free(s);
	errno = e;
	return NULL;
}

/* ----------------------------------------------------------------------------------------------- timers */

struct kf_timer *kf_loop_add_timer(struct kf_loop *loop, kf_timer_fn fn, void *ud)
{
	struct kf_timer *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	*t = (struct kf_timer){.loop = loop, .fn = fn, .ud = ud, .next = loop->timers};
	loop->timers = t;
	return t;
}

void kf_timer_arm(struct kf_timer *t, uint64_t delay_ns, uint64_t interval_ns)
{
	if (t->dead)
		return;
	t->deadline = kf_loop_now_ns() + delay_ns;
	t->interval = interval_ns;
	t->armed_serial = t->loop->timer_serial;
	t->loop->timers_dirty = true;
}

void kf_timer_disarm(struct kf_timer *t)
{
	if (t->deadline)
		t->loop->timers_dirty = true;
	t->deadline = 0;
}

bool kf_timer_armed(const struct kf_timer *t)
{
	return t->deadline != 0;
}

void kf_timer_remove(struct kf_timer *t)
{
	if (!t || t->dead)
		return;
	kf_timer_disarm(t);
	t->dead = true;
	t->loop->garbage = true;
}

static void on_timerfd(void *ud, int fd, uint32_t events)
{
	struct kf_loop *loop = ud;
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		return;
	loop->tfd_deadline = 0;
	loop->timers_dirty = true;
	uint64_t serial = ++loop->timer_serial;
	uint64_t now = kf_loop_now_ns();
	/* Rescan from the head after each callback: it may have armed, disarmed or removed any timer. */
	for (;;) {
		struct kf_timer *due = NULL;
		for (struct kf_timer *t = loop->timers; t; t = t->next)
			if (!t->dead && t->deadline && t->deadline <= now && t->armed_serial < serial &&
			    (!due || t->deadline < due->deadline))
				due = t;
		if (!due)
			break;
		if (due->interval) {
			uint64_t missed = (now - due->deadline) / due->interval + 1;
			due->deadline += missed * due->interval;
		} else {
			due->deadline = 0;
		}
		due->fn(due->ud, due);
	}
}

static void program_timerfd(struct kf_loop *loop)
{
	if (!loop->timers_dirty)
		return;
	loop->timers_dirty = false;
	uint64_t next = 0;
	for (struct kf_timer *t = loop->timers; t; t = t->next)
		if (!t->dead && t->deadline && (!next || t->deadline < next))
			next = t->deadline;
	if (next == loop->tfd_deadline)
		return;
	struct itimerspec its = {
		.it_value = {.tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u)},
	};
	if (timerfd_settime(loop->tfd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		loop->tfd_deadline = next;
}

/* ------------------------------------------------------------------------------------------------ hooks */

struct kf_hook *kf_loop_add_prepare(struct kf_loop *loop, kf_hook_fn fn, void *ud)
{
	struct kf_hook *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	*h = (struct kf_hook){.loop = loop, .fn = fn, .ud = ud};
	struct kf_hook **p = &loop->hooks;
	while (*p)
		p = &(*p)->next;
	*p = h;
	return h;
}

void kf_hook_remove(struct kf_hook *h)
{
	if (!h || h->dead)
		return;
	h->dead = true;
	h->loop->garbage = true;
}

/* ------------------------------------------------------------------------------------------------- loop */

void kf_loop_quit(struct kf_loop *loop, int code)
{
	if (loop->quit)
		return;
	loop->quit = true;
	loop->quit_code = code;
}

bool kf_loop_quitting(const struct kf_loop *loop)
{
	return loop->quit;
}

int kf_loop_dispatch(struct kf_loop *loop, int timeout_ms)
{
	for (struct kf_hook *h = loop->hooks; h; h = h->next)
		if (!h->dead)
			h->fn(h->ud);
	program_timerfd(loop);

	struct epoll_event ev[MAX_EVENTS];
	int n = epoll_wait(loop->epfd, ev, MAX_EVENTS, loop->quit ? 0 : timeout_ms);
	if (n < 0) {
		int r = errno == EINTR ? 0 : -errno;
		collect_garbage(loop);
		return r;
	}
	/* Stable insertion sort by priority: n is small and mostly sorted already. */
	for (int i = 1; i < n; i++) {
		struct epoll_event e = ev[i];
		enum kf_prio p = ((struct kf_source *)e.data.ptr)->prio;
		int j = i;
		for (; j > 0 && ((struct kf_source *)ev[j - 1].data.ptr)->prio > p; j--)
			ev[j] = ev[j - 1];
		ev[j] = e;
	}
	for (int i = 0; i < n; i++) {
		struct kf_source *s = ev[i].data.ptr;
		if (!s->dead)
			s->fn(s->ud, s->fd, ev[i].events);
	}
	collect_garbage(loop);
	return 0;
}

int kf_loop_run(struct kf_loop *loop)
{
	while (!loop->quit) {
		int r = kf_loop_dispatch(loop, -1);
		if (r < 0)
			return r;
	}
	/* Cleared on the way out, so the loop can be run again (a quit before the run still counts). */
	loop->quit = false;
	return loop->quit_code;
}
