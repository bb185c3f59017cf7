/* kmscon-felis/session.c: see session.h; what goes to the child is in session-write.c. */
#define LOG_TAG "session"
#include "kmscon-felis/session.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "grid/grid.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/issue.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/session-internal.h"
#include "pty/pty.h"

/* Output left in the master when the child exits is parsed before acting, up to this much and this many
 * wake-ups' work (kf_session_config.work_budget): a grandchild that keeps the slave open and floods must not
 * keep us draining forever (64 MiB of REP took minutes; 256 budgets of 2 Mi cells are 0.3-0.5 s here). The
 * child's own last output is what the kernel holds, some tens of KiB: the bytes past that come from a grandchild,
 * and 64 MiB of a sequence that does no counted work but ~0.1 us a byte (OSC 104) took 7 s here; 4 MiB ~0.5 s. */
#define EXIT_DRAIN_MAX (4u << 20)
#define EXIT_DRAIN_BUDGETS 256u
#define HANGUP_TIMEOUT_MS 500
/* A wake-up that emptied the PTY after fewer bytes than this found a child writing more slowly than we parse
 * (a trickle): with a read pause configured (kf_session_config.read_pause_ns; off by default, for benchmark
 * comparisons) the master is then left unwatched for it, so that the child's next writes gather and one
 * wake-up reads them, instead of one wake-up (an epoll_wait, the reads, the read that finds nothing, a switch
 * each way) per few hundred bytes. The PTY holds only 12-20 KiB before
 * the writer blocks (Linux 6.1: 12288 bytes in 64 KiB writes, 19600 in 100-byte ones), so a pause must end
 * before that fills: a pause that gathered less than this (at most TRICKLE_MAX per read pause) left the writer
 * room; a child that writes faster reads more than this at once and is not paused. */
#define TRICKLE_MAX (8u << 10)


static void pty_log_handler_fn(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	kf_log_vmsg((enum kf_log_level)prio, "pty", file, line, fmt, ap);
}

/* ------------------------------------------------------------------------------------- grid callbacks */

static void on_bell(void *ud)
{
	struct kf_session *s = ud;
	if (s->cb.bell)
		s->cb.bell(s->ud);
}

static void on_title(void *ud, const char *utf8)
{
	struct kf_session *s = ud;
	if (s->cb.title)
		s->cb.title(s->ud, utf8);
}

/* The pending OSC 52 copy to the clipboard (on_clipboard). */
static void clip_flush(struct kf_session *s)
{
	uint8_t *d = s->clip;
	if (!d)
		return;
	s->clip = NULL;
	s->cb.clipboard(s->ud, s->clip_targets, d, s->clip_len);
	free(d);
}

/* Only the last copy of a wake-up goes to the clipboard, at its end (read_output) or before a query: each copy
 * was a file written and renamed at once (clipboard.c), and 256 KiB of short copies were 21,845 of them in one
 * wake-up, 0.57 s on tmpfs, 3.1 s on ext4, keys and frames waiting (tests/kmscon-felis/test-session-clip.c).
 * The copy kept is at most the grid's decoded copy (3/4 of the parser's 1 MiB string cap). */
static void on_clipboard(void *ud, const char *targets, const uint8_t *data, size_t len)
{
	struct kf_session *s = ud;
	/* A file must not fill the user's clipboard: the next paste, perhaps into a root shell, would type it. */
	if (s->in_banner) {
		s->banner_clips++;
		return;
	}
	if (!s->cb.clipboard)
		return;
	uint8_t *d = realloc(s->clip, len ? len : 1);
	if (!d) { /* no room to keep it: the earlier copy and this one go now, in their order */
		clip_flush(s);
		s->cb.clipboard(s->ud, targets, data, len);
		return;
	}
	memcpy(d, data, len);
	s->clip = d;
	s->clip_len = len;
	snprintf(s->clip_targets, sizeof(s->clip_targets), "%s", targets);
}

static int on_clipboard_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	struct kf_session *s = ud;
	if (s->in_banner) /* (its answer would be dropped: not even read) */
		return -EPERM;
	clip_flush(s); /* the copy before the query is what it sees */
	int r = s->cb.clipboard_get ? s->cb.clipboard_get(s->ud, targets, data, len) : -ENOTSUP;
	s->clip_answer = r == 0; /* its answer is the grid's next reply (queue_reply) */
	return r;
}

/* An update's end in the child's output: the feed stops after it only when a frame can show it now (session-feed.h);
 * always set, for without it grid_feed_bounded always stops there. */
static bool on_sync_end(void *ud)
{
	struct kf_session *s = ud;
	return kf_feed_update_end(&s->feed);
}

/* -------------------------------------------------------------------------------------- pty callbacks */

static void on_output(void *ud, const uint8_t *data, size_t len)
{
	struct kf_session *s = ud;
	if (kf_feed_data(&s->feed, data, len))
		pty_read_stop(s->pty);
}

/* The master's epoll events: input unless a read pause holds it (a hang-up is reported regardless), output
 * while the write queue holds any; only changes while the slave is closed (level-triggered, its hang-up would
 * be reported on every wake-up; the next write to a reopened slave wakes the master). */
static void update_events(struct kf_session *s)
{
	if (s->master)
		kf_source_set_events(s->master, (s->paused || s->feed.held_len ? 0 : EPOLLIN) |
							(s->want_write ? EPOLLOUT : 0) |
							(s->hung_up ? EPOLLET : 0));
}

static void on_want_write(void *ud, bool on)
{
	struct kf_session *s = ud;
	s->want_write = on;
	update_events(s);
	if (!on)
		kf_session_report_dropped(s);
}

/* ------------------------------------------------------------------------------------------ lifecycle */

static void drop_sources(struct kf_session *s)
{
	s->paused = false;
	s->hung_up = false;
	s->feed.held_len = 0; /* fed by child_exited; else (a read error) nothing would read after it */
	if (s->resume)
		kf_timer_disarm(s->resume);
	kf_source_remove(s->master);
	s->master = NULL;
	kf_source_remove(s->pidfd);
	s->pidfd = NULL;
}

/* Returns pty_read's result: 1 when a budget (bytes or work) ended it with more perhaps to come, 0 at EAGAIN,
 * -errno (-EIO: the slave is closed); 1 too when the held bytes were not all fed (the master not read). */
static int read_feed(struct kf_session *s, size_t budget)
{
	/* The clocks only when profiling (kf_session_config.profile): per wake-up they are two system calls and
	 * two vDSO reads, which in a TCG guest cost ~15 % of an ascii flood's CPU (docs/benchmarks.md). */
	const bool prof = s->cfg.profile;
	uint64_t t0 = prof ? kf_loop_now_ns() : 0, c0 = prof ? kf_thread_cpu_ns() : 0, n0, n1, calls;
	const bool held = s->feed.held_len > 0;
	kf_feed_begin(&s->feed);
	/* what the budget left last time first; the master only once it is all fed (the order) */
	const bool read_now = kf_feed_held(&s->feed);
	pty_get_stats(s->pty, &calls, &n0);
	int r = read_now ? pty_read(s->pty, budget) : 1;
	pty_get_stats(s->pty, &calls, &n1);
	s->wakeups++;
	if (prof) {
		s->read_ns += kf_loop_now_ns() - t0;
		s->read_cpu_ns += kf_thread_cpu_ns() - c0;
	}
	/* only bytes are output (the view goes back to the bottom on it, as xterm's scrollTtyOutput on a read of
	 * bytes): not a hang-up, nor the empty read that ends a read pause */
	if (s->cb.output && (n1 > n0 || held))
		s->cb.output(s->ud);
	if (held != (s->feed.held_len > 0))
		update_events(s);
	if (s->feed.held_len) /* back at the next iteration, after its input and frame (r is 1: no pause below) */
		kf_timer_arm(s->resume, 0, 0);
	if (!read_now)
		return r; /* the master was not read: its state (hang-up, pause) is as it was */
	if (r == -EIO || r >= 0) {
		/* -EIO: every slave fd is closed, but that need not be the end: the child can open its terminal
		 * again (login(1) closes its descriptors and calls vhangup() before it opens the terminal again to
		 * ask for the password; unwatched, the master never showed what came after). The master stays
		 * watched, edge-triggered while the slave is closed; the child's exit (pidfd) ends the session.
		 * A read pause ends here too: edge-triggered, only input can wake the loop for the reopened
		 * terminal's output, and a pause left on kept input unwatched for good. */
		const bool unpause = r == -EIO && s->paused;
		if (unpause) {
			s->paused = false;
			kf_timer_disarm(s->resume);
		}
		if ((r == -EIO) != s->hung_up || unpause) {
			s->hung_up = r == -EIO;
			update_events(s);
		}
		if (r == -EIO)
			return r;
	} else if (r != -EINTR) {
		log_warn("reading the PTY: %s", strerror(-r));
		kf_source_remove(s->master);
		s->master = NULL;
		return r;
	}
	/* Drained after a few bytes: pause (or keep pausing) while the child trickles; anything else (the
	 * budget ran out, or nothing came) watches the master again. */
	bool pause = r == 0 && n1 > n0 && n1 - n0 < TRICKLE_MAX && s->cfg.read_pause_ns && s->master;
	if (pause) {
		s->pauses += !s->paused;
		kf_timer_arm(s->resume, s->cfg.read_pause_ns, 0);
	}
	if (pause != s->paused) {
		s->paused = pause;
		update_events(s);
	}
	return r;
}

/* A wake-up's reading (read_feed), its last OSC 52 copy then handed on. */
static int read_output(struct kf_session *s, size_t budget)
{
	int r = read_feed(s, budget);
	clip_flush(s);
	return r;
}

int kf_session_parse_read_pause(const char *s, uint64_t *ns)
{
	uint64_t us = 0;
	if (!s || !*s)
		return -EINVAL;
	/* by hand, not strtoul: that takes signs and spaces, and wraps or saturates what is too long */
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		us = us * 10 + (uint64_t)(*s - '0');
		if (us > KF_SESSION_READ_PAUSE_MAX_US)
			return -EINVAL;
	}
	*ns = us * 1000u;
	return 0;
}

/* A new grid width reflows the whole history (scrollback lines, megabytes) into new lines and frees the old
 * ones; a reload frees a font's caches. glibc gives back only the free space at the top of its heap, so the freed
 * copy stayed resident wherever a live line sat above it: 6.7 MB of a 10000-line history after each zoom (a 10 MB
 * process back to 3.4 MB with the trim). A reload's keymap compile (on the worker, in the same arena) leaves
 * megabytes of its parse freed too: the VM test reload-storm saw the RSS after a storm of reloads anywhere
 * between 13 and 23 MB, and fail its bound at random (part of that spread, 4-10 MB, was khugepaged collapsing the
 * heap's sparse 2 MB ranges into huge pages: the test now turns transparent huge pages off). malloc_trim gives
 * back every whole free page, but the next reflow then faults them in again (a resize 10 ms -> 60 ms on the
 * host), so it waits until the resizes and reloads settle (kf_session_trim_soon): a burst of zooms or reloads
 * pays once. */
#define TRIM_DELAY_NS (1000u * 1000u * 1000u)

static void on_trim(void *ud, struct kf_timer *t)
{
	struct kf_session *s = ud;
	(void)t;
	malloc_trim(0);
	s->trims++;
}

void kf_session_trim_soon(struct kf_session *s)
{
	if (s)
		kf_timer_arm(s->trim, TRIM_DELAY_NS, 0); /* re-armed: after the last of a burst */
}

static void on_resume(void *ud, struct kf_timer *t)
{
	struct kf_session *s = ud;
	/* Read what gathered during the pause at once: read_output pauses again or watches the master. Or feed
	 * what the work budget held back, and then read. */
	if (s->master && (s->paused || s->feed.held_len))
		read_output(s, s->cfg.read_budget);
}

/* A line under the screen's text saying why no program is there to read keys (show_exit_notice, on_respawn). The
 * parser is brought to its ground state first and the pen to its defaults (CAN ends a string the child left open;
 * DECSTR undoes conceal, a line-drawing set, an origin mode or margins), so that the line is shown and readable
 * whatever the child left; the reset before the next login clears it. */
static void show_notice(struct kf_session *s, const char *text)
{
	static const char ground[] = "\030\033[!p\033[?7h"; /* CAN, DECSTR, autowrap on for a long name */
	struct grid_cursor cur;
	char msg[512];

	grid_feed(s->grid, (const uint8_t *)ground, sizeof(ground) - 1);
	grid_get_cursor(s->grid, &cur);
	int n = snprintf(msg, sizeof(msg), "%s\033[7m[kmscon-felis: %s]\033[27m", cur.x ? "\r\n" : "", text);
	grid_feed(s->grid, (const uint8_t *)msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	if (s->cb.output)
		s->cb.output(s->ud);
}

static const char *program_name(const struct kf_session *s)
{
	return s->cfg.argv && s->cfg.argv[0] ? s->cfg.argv[0] : "/bin/login";
}

/* Between a login that exited soon after it started and the next one, the back-off: keys go nowhere, and the
 * dead child's last output alone would look like a hung login. */
static void show_exit_notice(struct kf_session *s, int status, unsigned delay_ms)
{
	char how[64], when[32], text[400];

	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with status %d", pty_exit_code(status));
	if (delay_ms % 1000)
		snprintf(when, sizeof(when), "%u.%u s", delay_ms / 1000, delay_ms % 1000 / 100);
	else
		snprintf(when, sizeof(when), "%u s", delay_ms / 1000);
	snprintf(text, sizeof(text), "%.200s %s; starting it again in %s", program_name(s), how, when);
	show_notice(s, text);
}

static void child_exited(struct kf_session *s, int status)
{
	/* Everything the child wrote before exiting is in the master already: parse it before anything
	 * else, so that its last lines are on the screen. */
	const uint64_t budget = s->feed.budget;
	s->feed.budget = budget * EXIT_DRAIN_BUDGETS;
	/* (no frame comes between: an update's end must not cut the drain) */
	s->feed.whole_updates = false;
	/* 1: a bound (work or bytes) ended the drain, the master perhaps not empty; 0: emptied; -EIO: closed */
	const int r = s->master ? read_output(s, EXIT_DRAIN_MAX) : 0;
	s->feed.budget = budget;
	s->feed.whole_updates = true;
	/* What that left (held, or still in the master) is dropped, said, and not fed to the next login's screen */
	if (r == 1 || s->feed.held_len) {
		log_notice("the program exited; its output was cut after %u wake-ups' work or %u MiB (%zu bytes held, "
			   "and what the terminal still had, dropped)", EXIT_DRAIN_BUDGETS, EXIT_DRAIN_MAX >> 20,
			   s->feed.held_len);
		s->feed.held_len = 0;
		s->exit_drops++;
	}
	/* What it was given and did not read goes nowhere (the next login must not get it): said, as refused
	 * keys and replies are, so that a paste that vanished with its program leaves a trace. */
	const size_t unread = pty_write_pending(s->pty);
	if (unread)
		log_notice("the program exited with %zu bytes for it still in the write queue: dropped", unread);
	drop_sources(s);
	pty_hangup(s->pty, HANGUP_TIMEOUT_MS);
	int code = pty_exit_code(status);
	if (!s->cfg.respawn) {
		log_info("the program exited with status %d", code);
		if (s->cb.exited)
			s->cb.exited(s->ud, code);
		return;
	}
	unsigned delay = pty_respawn_delay_ms(s->pty);
	if (delay) {
		/* Once per streak, as a login that cannot be started: at the back-off's 10 s a notice each time was
		 * 8640 lines a day for a login broken for good. The screen says it every time. */
		if (s->quick_exits++ == 0)
			log_notice("the login exited with status %d soon after it started; respawning in %u ms (longer "
				   "each time, up to %u s, while it keeps doing so: those at debug level)", code, delay,
				   PTY_BACKOFF_MAX_MS / 1000);
		else
			log_debug("the login exited with status %d soon after it started, %u times in a row; "
				  "respawning in %u ms", code, s->quick_exits, delay);
		show_exit_notice(s, status, delay);
	} else {
		if (s->quick_exits)
			log_notice("the login ran for a second or more, after %u quick exits in a row", s->quick_exits);
		s->quick_exits = 0;
		log_info("the login exited with status %d; respawning", code);
	}
	kf_timer_arm(s->respawn, (uint64_t)delay * 1000000u, 0);
}

static void on_master(void *ud, int fd, uint32_t events)
{
	struct kf_session *s = ud;
	if (events & EPOLLOUT && pty_flush(s->pty) < 0) {
		s->want_write = false;
		update_events(s);
	}
	/* while bytes are held (unwatched for input, a hang-up is still reported) the resume timer feeds them: one
	 * budget an iteration */
	if (events & (EPOLLIN | EPOLLHUP | EPOLLERR) && !s->feed.held_len)
		read_output(s, s->cfg.read_budget);
}

static void check_child(struct kf_session *s)
{
	int status;
	if (pty_reap(s->pty, &status) == 1)
		child_exited(s, status);
}

static void on_sigchld(void *ud, int signo)
{
	struct kf_session *s = ud;
	if (pty_pid(s->pty))
		check_child(s);
}

static void on_pidfd(void *ud, int fd, uint32_t events)
{
	struct kf_session *s = ud;
	int status;
	const int r = pty_reap(s->pty, &status);
	if (r == 1) {
		child_exited(s, status);
		return;
	}
	if (r != 0)
		return;
	/* Readable (the child has exited) and nothing to reap: a tracer (strace -p, gdb) holds its zombie, and
	 * the pidfd stays readable until it lets go: watched, the loop spun at full CPU all that time. The zombie
	 * is ours once the tracer waits for it or goes, and the kernel then sends us SIGCHLD: wait for that. */
	if (!s->sigchld)
		s->sigchld = kf_loop_add_signal(s->loop, SIGCHLD, on_sigchld, s);
	if (!s->sigchld) {
		/* (the pidfd stays: spinning until the tracer lets go is better than never noticing the exit) */
		log_warn("the child %d exited but cannot be reaped yet, and SIGCHLD cannot be watched: %s",
			 (int)pty_pid(s->pty), strerror(errno ? errno : ENOMEM));
		return;
	}
	log_info("the child %d exited, held by a tracer: its status is taken when the tracer lets go",
		 (int)pty_pid(s->pty));
	kf_source_remove(s->pidfd);
	s->pidfd = NULL;
	/* The tracer may have let go before SIGCHLD was routed to the loop. */
	check_child(s);
}

/* What a banner leaves behind that would change what the login reads, hide its prompt or garble its output is
 * put back to the power-on state after it (the man page's issue, docs/architecture.md): a sequence or string
 * left open (CAN ends it; it would swallow "login: "), a character set other than ASCII in G0..G3 (G2 and G3 too:
 * a single shift left pending, ESC N, takes the login's first character from them, and no control cancels it),
 * insert mode (the login's output would push the line right), autowrap off (its long lines would pile up in
 * the last column; readline counts on the wrap), a hidden cursor, the key encodings
 * (DECCKM, DECKPAM, LNM, modifyOtherKeys, the kitty flags of both screens, DECBKM as configured, Alt as ESC),
 * mouse reporting, focus reports, alternate scroll, bracketed paste and a synchronized-output hold. What it
 * shows stays: its text, colours, attributes, palette, reverse video, scroll region, and the screen it is on. */
static void banner_epilogue(struct kf_session *s)
{
	char seq[256];
	struct grid_modes m;
	grid_get_modes(s->grid, &m);
	snprintf(seq, sizeof(seq),
		 "\030\017\033(B\033)B\033*B\033+B\033[?7;25h\033>\033[4;20l\033[>4m\033[?67%c\033[?1036h"
		 "\033[?1;9;1000;1002;1003;1004;1005;1006;1007;1015;1016;2004;2026l%s\033[<255u",
		 s->cfg.backspace_sends_bs ? 'h' : 'l',
		 /* the kitty flags are kept per screen: the normal screen's too, without clearing the other */
		 m.alt_screen ? "\033[?47l\033[<255u\033[?47h" : "");
	grid_feed(s->grid, (const uint8_t *)seq, strlen(seq));
}

/* The banner goes to the grid, not to the PTY: the child cannot read it as typed input, and a PTY that is full
 * (a child that does not read) loses none of it. It is parsed before anything the child wrote, which is read
 * only once the loop runs again. Its queries go unanswered and its clipboard writes are ignored (in_banner),
 * and banner_epilogue puts back the modes it must not leave to the login. */
static void show_issue(struct kf_session *s)
{
	char pts[64], *text = NULL, *crlf;
	size_t len, n;
	const char *tty = s->cfg.issue_tty;
	if (!tty)
		tty = ptsname_r(pty_fd(s->pty), pts, sizeof(pts)) == 0 ? (strncmp(pts, "/dev/", 5) ? pts : pts + 5)
									: "";
	struct kf_issue_opts o = {.path = s->cfg.issue_path, .tty = tty, .tty_fd = pty_fd(s->pty)};
	if (kf_issue_build(&o, &text, &len) < 0 || !len) {
		free(text);
		return;
	}
	crlf = kf_issue_crlf(text, len, &n);
	free(text);
	if (!crlf)
		return;
	s->in_banner = true;
	s->banner_replies = s->banner_clips = 0;
	grid_feed(s->grid, (const uint8_t *)crlf, n);
	banner_epilogue(s);
	s->in_banner = false;
	/* once per banner, not per sequence: 64 KiB of them would be thousands of lines at each start */
	if (s->banner_clips)
		log_notice("issue banner: its %u OSC 52 clipboard writes were ignored", s->banner_clips);
	if (s->banner_replies)
		log_debug("issue banner: the answers to its %u queries were dropped", s->banner_replies);
	free(crlf);
	if (s->cb.output)
		s->cb.output(s->ud);
}

static int start_child(struct kf_session *s)
{
	int r = pty_spawn(s->pty);
	if (r < 0)
		return r;
	if (s->cfg.issue)
		show_issue(s);
	s->master = kf_loop_add_fd(s->loop, pty_fd(s->pty), EPOLLIN, KF_PRIO_PTY, on_master, s);
	if (!s->master)
		goto fail;
	if (pty_pidfd(s->pty) >= 0) {
		s->pidfd = kf_loop_add_fd(s->loop, pty_pidfd(s->pty), EPOLLIN, KF_PRIO_DEFAULT, on_pidfd, s);
		if (!s->pidfd)
			goto fail;
	} else if (!s->sigchld) {
		s->sigchld = kf_loop_add_signal(s->loop, SIGCHLD, on_sigchld, s);
		if (!s->sigchld)
			goto fail;
		/* The child may have exited before SIGCHLD was routed to the loop. */
		check_child(s);
	}
	return 0;

fail:
	r = -errno;
	drop_sources(s);
	pty_hangup(s->pty, HANGUP_TIMEOUT_MS);
	return r;
}

/* A start that failed (a full pts table, fork's EAGAIN, no descriptor left): tried again in a second, with the
 * reason on the screen. None of these failures is for good (a login that does not exist is the child's exit
 * with status 127, and its back-off), so the first start is tried again too (kf_session_start), as a later one. */
static void start_failed(struct kf_session *s, int r)
{
	char text[300];
	/* The journal gets the streak, not every retry (a full pts table can last for hours); the screen is reset
	 * before every attempt, so its notice is drawn every time. */
	if (s->start_failures++ == 0)
		log_err("cannot start the login: %s; retrying every second", strerror(-r));
	/* else the screen stays blank after the reset, and keys go nowhere without a word */
	snprintf(text, sizeof(text), "cannot start %.200s: %s; trying again in 1 s", program_name(s), strerror(-r));
	show_notice(s, text);
	kf_timer_arm(s->respawn, 1000000000u, 0);
}

/* kf_session_set_backspace's value given to the grid's reset and the PTY's next child, which come next: the
 * pair a login is given (DECBKM and VERASE) changes only between two logins. */
static void apply_backspace(struct kf_session *s)
{
	s->cfg.backspace_sends_bs = s->backspace_next; /* (banner_epilogue's DECBKM) */
	grid_set_backspace_default(s->grid, s->backspace_next);
	pty_set_erase(s->pty, s->backspace_next ? 0x08 : 0x7f);
}

void kf_session_set_backspace(struct kf_session *s, bool sends_bs)
{
	s->backspace_next = sends_bs;
	if (s->started)
		return; /* on_respawn */
	apply_backspace(s);
	/* no child yet to have set DECBKM: the mode in force is the power-on one */
	grid_feed(s->grid, (const uint8_t *)(sends_bs ? "\033[?67h" : "\033[?67l"), 7);
}

static void on_respawn(void *ud, struct kf_timer *t)
{
	struct kf_session *s = ud;
	apply_backspace(s);
	/* The new login gets a terminal in its power-on state, as kmscon (a hard reset before each child) and
	 * the kernel console (systemd deallocates a getty's VT) give it: the last child can leave the parser
	 * inside a string that would swallow the new prompt, the cursor hidden, conceal or the DEC graphics set
	 * on, mouse reporting and bracketed paste on (clicks and pastes reaching login as escape sequences),
	 * and its session's text in the scrollback for the next user. Done here and not at the exit, so that
	 * the last output stays on the screen during the back-off. */
	grid_reset(s->grid);
	if (s->cb.new_login)
		s->cb.new_login(s->ud);
	if (s->cb.output)
		s->cb.output(s->ud);
	int r = start_child(s);
	if (r < 0) {
		start_failed(s, r);
	} else if (s->start_failures) {
		log_notice("the login started again after %u failed attempts", s->start_failures);
		s->start_failures = 0;
	}
}

int kf_session_create(struct kf_loop *loop, const struct kf_session_config *cfg,
		      const struct kf_session_callbacks *cb, void *ud, struct kf_session **out)
{
	int r = -ENOMEM;
	struct kf_session *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->loop = loop;
	s->cfg = *cfg;
	s->backspace_next = cfg->backspace_sends_bs;
	if (!s->cfg.read_budget)
		s->cfg.read_budget = KF_SESSION_READ_BUDGET;
	if (!s->cfg.work_budget)
		s->cfg.work_budget = KF_SESSION_WORK_BUDGET;
	if (cb)
		s->cb = *cb;
	s->ud = ud;
	pty_set_log_handler(pty_log_handler_fn);

	struct grid_config gc = {.cols = cfg->cols, .rows = cfg->rows, .scrollback = cfg->scrollback,
				 .cell_width = cfg->cell_width, .cell_height = cfg->cell_height,
				 .colors = cfg->colors, .backspace_sends_bs = cfg->backspace_sends_bs,
				 .term_name = cfg->term, .allow_clipboard_read = cfg->clipboard_read};
	struct grid_callbacks gcb = {.reply = kf_session_reply, .bell = on_bell, .title = on_title,
				    .clipboard = on_clipboard, .clipboard_get = on_clipboard_get, .sync_end = on_sync_end};
	s->grid = grid_create(&gc, &gcb, s);
	if (!s->grid || kf_feed_init(&s->feed, s->grid, s->cfg.work_budget, cfg->profile) < 0)
		goto fail;
	s->feed.frame_ready = s->cb.frame_ready;
	s->feed.frame_ud = ud;
	struct pty_config pc = {
		.argv = cfg->argv, .term = cfg->term, .seat = cfg->seat, .vtnr = cfg->vtnr,
		.reset_env = cfg->reset_env, .write_queue_max = cfg->write_queue_max,
		.write_bulk_max = (cfg->write_queue_max ? cfg->write_queue_max : PTY_WRITE_QUEUE_DEFAULT) + PASTE_EXTRA,
		.no_pidfd = cfg->no_pidfd,
		/* Backspace erases at a cooked-mode prompt (as xterm's backarrowKeyIsErase and kmscon set it) */
		.erase = cfg->backspace_sends_bs ? 0x08 : 0x7f,
		.cols = (uint16_t)grid_cols(s->grid), .rows = (uint16_t)grid_rows(s->grid),
		.xpixel = (uint16_t)(grid_cols(s->grid) * cfg->cell_width),
		.ypixel = (uint16_t)(grid_rows(s->grid) * cfg->cell_height),
		.sample_read_cpu = cfg->profile,
	};
	struct pty_callbacks pcb = {.output = on_output, .want_write = on_want_write};
	s->pty = pty_create(&pc, &pcb, s);
	const size_t queue_max = cfg->write_queue_max ? cfg->write_queue_max : PTY_WRITE_QUEUE_DEFAULT;
	s->reply_max = queue_max / 4 < REPLY_QUEUE_MAX ? queue_max / 4 : REPLY_QUEUE_MAX;
	s->respawn = kf_loop_add_timer(loop, on_respawn, s);
	s->resume = kf_loop_add_timer(loop, on_resume, s);
	s->trim = kf_loop_add_timer(loop, on_trim, s);
	if (!s->pty || !s->respawn || !s->resume || !s->trim)
		goto fail;
	if (!cfg->defer_start) {
		r = kf_session_start(s);
		if (r < 0)
			goto fail;
	}
	*out = s;
	return 0;

fail:
	kf_session_destroy(s);
	return r;
}

int kf_session_start(struct kf_session *s)
{
	if (s->started)
		return 0;
	int r = start_child(s);
	if (r < 0 && !s->cfg.respawn) {
		log_err("cannot start %s: %s", program_name(s), strerror(-r));
		return r;
	}
	s->started = true;
	if (r < 0)
		start_failed(s, r);
	return 0;
}

void kf_session_destroy(struct kf_session *s)
{
	if (!s)
		return;
	drop_sources(s);
	kf_source_remove(s->sigchld);
	kf_timer_remove(s->respawn);
	kf_timer_remove(s->resume);
	kf_timer_remove(s->trim);
	pty_destroy(s->pty);
	grid_destroy(s->grid);
	kf_feed_finish(&s->feed);
	free(s->clip); /* (none: read_output hands it on) */
	free(s);
}

struct grid *kf_session_grid(struct kf_session *s)
{
	return s->grid;
}

void kf_session_stats(const struct kf_session *s, struct kf_session_stats *st)
{
	pty_get_stats(s->pty, &st->reads, &st->bytes);
	st->outputs = pty_get_outputs(s->pty);
	st->wakeups = s->wakeups;
	st->pauses = s->pauses;
	st->read_ns = s->read_ns;
	st->parse_ns = s->feed.parse_ns;
	st->work_stops = s->feed.stops;
	st->update_stops = s->feed.update_stops;
	st->exit_drops = s->exit_drops;
	st->trims = s->trims;
	st->read_cpu_ns = s->read_cpu_ns;
	/* The parse in CPU time is what the reading cost beyond its read(2) calls. It used to be sampled on one
	 * chunk in 16 and scaled, but a chunk's parse is heavy-tailed (the chunk that maps a scrollback chunk
	 * or grows the cluster table pays for zeroing megabytes in the kernel): in the guest that estimate was
	 * off by -35% to +40% against measuring every chunk, and the "reading" left over by it varied 3x between
	 * workloads with the same read(2) calls (docs/benchmarks.md, issue 5, session 10). */
	uint64_t calls, sampled, sampled_ns;
	pty_get_read_cpu(s->pty, &calls, &sampled, &sampled_ns);
	uint64_t sys = sampled ? (uint64_t)((double)sampled_ns * (double)calls / (double)sampled) : 0;
	st->read_sys_cpu_ns = sys < st->read_cpu_ns ? sys : st->read_cpu_ns;
	st->parse_cpu_ns = st->read_cpu_ns - st->read_sys_cpu_ns;
}

int kf_session_child_pid(const struct kf_session *s)
{
	return (int)pty_pid(s->pty);
}

int kf_session_resize(struct kf_session *s, int cols, int rows, int cell_width, int cell_height)
{
	const int old_cols = grid_cols(s->grid), old_rows = grid_rows(s->grid);
	int r = grid_resize(s->grid, cols, rows);
	if (r < 0)
		return r;
	if (grid_cols(s->grid) != old_cols || grid_rows(s->grid) != old_rows)
		kf_session_trim_soon(s);
	grid_set_cell_size(s->grid, cell_width, cell_height);
	cols = grid_cols(s->grid);
	rows = grid_rows(s->grid);
	return pty_resize(s->pty, (uint16_t)cols, (uint16_t)rows, (uint16_t)(cols * cell_width),
			  (uint16_t)(rows * cell_height));
}
