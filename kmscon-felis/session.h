/* kmscon-felis/session.h: one terminal session: the login on a PTY, wired to a grid, on the event loop.
 *
 *   child output --pty_read (budget per wake-up)--> grid_feed --> damage (the frame loop renders it)
 *   keys, pastes (kf_session_write/paste) --+
 *   replies from the grid (DA, CPR, ...)  --+--> the pty's one bounded write queue --> child
 *
 * The PTY master is a KF_PRIO_PTY source, so input and page flips are served first in every wake-up; reading
 * stops after a budget of bytes, or of grid_work (session-feed.h), and the loop comes back for the rest
 * (level-triggered; the rest of a chunk the work budget stopped is held and fed at the next iteration). The
 * child's exit (pidfd, or SIGCHLD without pidfd support) is handled only after every byte it wrote has been parsed; then the login is
 * respawned (with back-off after quick exits, a line on the screen saying so) on a grid reset as by RIS when the
 * back-off ends, or, with respawn off (--oneshot), the exited callback runs. With kf_session_config.issue, every
 * start of a child puts the issue banner (issue.h) on the grid first: its queries unanswered, its OSC 52 writes
 * ignored, and the modes that would change what the child reads put back after it (session.c banner_epilogue).
 */
#ifndef KF_SESSION_H
#define KF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kf_loop;
struct grid;

struct kf_session_config {
	/* NULL-terminated argv, NULL = "/bin/login -p". Not copied: must outlive the session. */
	const char *const *argv;
	const char *term;       /* NULL = xterm-256color; not copied */
	const char *seat;       /* XDG_SEAT for the child, or NULL; not copied */
	const char *vtnr;       /* XDG_VTNR for the child, or NULL; not copied */
	bool reset_env;
	bool respawn;           /* false: --oneshot */
	size_t write_queue_max; /* 0 = 4 MiB */
	size_t scrollback;      /* lines */
	int cols, rows;         /* initial grid size */
	int cell_width, cell_height; /* pixels per cell, 0 if unknown (headless) */
	/* The display's colours for the grid (grid_config.colors: 256 + foreground + background), so that
	 * OSC 4/10/11 queries report what is painted; NULL = xterm's. Read at creation only. */
	const uint32_t *colors;
	bool backspace_sends_bs; /* DECBKM's power-on state (grid_config.backspace_sends_bs) */
	bool clipboard_read;    /* answer OSC 52 queries through clipboard_get (grid_config.allow_clipboard_read) */
	size_t read_budget;     /* bytes parsed per wake-up before yielding; 0 = KF_SESSION_READ_BUDGET */
	/* grid_work per wake-up before yielding, whatever the bytes (session-feed.h); 0 = KF_SESSION_WORK_BUDGET */
	uint64_t work_budget;
	/* How long the master stays unwatched after a wake-up that emptied it having read only a trickle (session.c,
	 * TRICKLE_MAX); 0 = never (the default: the master is drained until EAGAIN and watched again at once, the
	 * design of docs/architecture.md; a pause only saves wake-ups on the instruction clock, docs/benchmarks.md
	 * issue 5 session 12). For benchmark comparisons. */
	uint64_t read_pause_ns;
	/* Measure where the reading goes (kf_session_stats' times; KMSCON_FELIS_PROFILE): clocks read per
	 * wake-up and per chunk. Off, those times stay 0 and only the counters count. For benchmarks. */
	bool profile;
	bool no_pidfd;          /* watch SIGCHLD instead of a pidfd (tests of the fallback) */
	bool defer_start;       /* spawn the child only in kf_session_start (the console: after its first frame) */
	/* The /etc/issue banner (issue.h), fed to the grid each time a child is started, before it can print anything:
	 * on the screen, not written to the PTY, so the child never reads it as input and a full PTY loses none. */
	bool issue;
	const char *issue_path; /* issue-path; NULL: agetty's search. Not copied */
	const char *issue_tty;  /* \l: the VT's name ("tty3"); NULL: the PTY's ("pts/2"). Not copied */
};

/* Enough to keep a flood's wake-up rate low (a few hundred per second at parser speed) while a key or a
 * page flip never waits more than about a millisecond behind it. */
#define KF_SESSION_READ_BUDGET (256u << 10)
/* The same for the sequences whose work is out of proportion to their bytes (grid_work, in cells of a fill): 2 Mi
 * cells is 1-2 ms of REP, DECALN, DECFRA, DECERA or DECRQCRA on the development host, less than 256 KiB of text
 * (~3 ms); 256 KiB of REP took 1.3 s (docs/architecture.md, session and PTY). */
#define KF_SESSION_WORK_BUDGET (2u << 20)

struct kf_session_callbacks {
	/* The child exited, its output is parsed, and respawn is off: code is its exit status, or 128 + the
	 * signal that killed it. The session stays usable for reading the grid. */
	void (*exited)(void *ud, int code);
	/* Output was parsed into the grid (called once per batch, not per byte). May be NULL: the frame loop can
	 * instead check grid_is_damaged() in a prepare hook. */
	void (*output)(void *ud);
	void (*bell)(void *ud);
	void (*title)(void *ud, const char *utf8);
	/* OSC 52 from the child: selection names and decoded data, valid during the call. Only the last copy of a
	 * wake-up's output, whatever selections it names (the program has one clipboard), at the wake-up's end or
	 * before an OSC 52 query (a flood of copies is one write of the clipboard, not thousands). May be NULL. */
	void (*clipboard)(void *ud, const char *targets, const uint8_t *data, size_t len);
	/* An OSC 52 query, only with kf_session_config.clipboard_read: grid_callbacks.clipboard_get. May be NULL. */
	int (*clipboard_get)(void *ud, const char *targets, uint8_t **data, size_t *len);
	/* Something the user did was refused while a program runs (a paste past the queue's bound, out of memory
	 * or not written; keys dropped by a full queue, once per burst): text is one line of printable ASCII
	 * ("kmscon-felis: ..."), valid during the call, for the display to show over the screen
	 * (kf_output_show_notice). Never written to the grid: the program's cursor, pen and parser state are its
	 * own. It is logged too. May be NULL. */
	void (*notice)(void *ud, const char *text);
	/* Whether the display could show a frame now, one that the frame loop renders at its next run (output.h
	 * kf_output_claim_frame: a display lit and ours, no flip in flight, not paced off), and none was claimed
	 * since the last frame. Asked at the end of a synchronized update (DECRST 2026) in the child's output: true
	 * ends the wake-up's reading there, so that the frame shows the update whole (session-feed.h); it must say
	 * true at most once per frame, for every stop costs a loop iteration. A frame not taken at that iteration
	 * (the grid still damaged at the next wake-up: the loop had a flip's event to dispatch first) gets the next
	 * one too: that wake-up feeds nothing. NULL (headless, no frames): the reading goes on through updates'
	 * ends, ended by its budgets only. */
	bool (*frame_ready)(void *ud);
	/* A new child is about to start after the last one exited (respawn), each attempt, after the terminal's
	 * reset: what the last login left half done on the keyboard (a dead key) must not reach the next. Not for
	 * the first child. May be NULL. */
	void (*new_login)(void *ud);
};
/* The longest text the notice callback is given, in bytes (longer ones are cut). */
#define KF_SESSION_NOTICE_MAX 160

struct kf_session;

/* The read pause of KMSCON_FELIS_READ_PAUSE_US (kf_session_config.read_pause_ns): s is microseconds, decimal
 * digits only, at most KF_SESSION_READ_PAUSE_MAX_US (0 = none). Returns 0 and sets *ns, or -EINVAL for anything
 * else (empty, signs, other characters, too large), leaving *ns alone. */
#define KF_SESSION_READ_PAUSE_MAX_US 1000000u
int kf_session_parse_read_pause(const char *s, uint64_t *ns);

/* Creates the grid and spawns the child (unless cfg->defer_start; as kf_session_start). loop is not owned and must
 * outlive the session; cfg and cb are copied (not the strings). Returns 0 and *out, or -errno (logged). */
int kf_session_create(struct kf_loop *loop, const struct kf_session_config *cfg,
		      const struct kf_session_callbacks *cb, void *ud, struct kf_session **out);
/* Spawns the child of a session created with defer_start; nothing if it was started. Returns 0 or -errno
 * (logged). With cfg->respawn a failed start is not returned: it is tried again every second, the reason on
 * the screen, as when a later start fails. */
int kf_session_start(struct kf_session *s);
/* Hangs up the child (SIGHUP to its session, reaped, no zombie), frees everything. Accepts NULL. */
void kf_session_destroy(struct kf_session *s);

/* The grid, owned by the session; valid until kf_session_destroy(). */
struct grid *kf_session_grid(struct kf_session *s);
/* A new backspace_sends_bs (a reloaded backspace-delete), for the next login: the terminal's DECBKM at its reset
 * before the next child and that child's erase character (stty erase) go together. A child that runs keeps the
 * pair it was given (Backspace would no longer erase at its prompt), even across its own RIS; before the first
 * child it applies at once. */
void kf_session_set_backspace(struct kf_session *s, bool sends_bs);

/* Keystroke bytes (already encoded by the key encoder) for the child. Queued after everything written
 * before. Returns 0, -ENOBUFS when the queue is full (the key is dropped; logged and told through the notice
 * callback once per burst), or
 * -ENOTCONN between a child's exit and its respawn. Does not take ownership of data. While a paste is in the
 * queue, keys (and replies) may fill it to the paste's bound (kf_session_paste): they wait behind the paste. */
int kf_session_write(struct kf_session *s, const void *data, size_t len);
/* How many bytes kf_session_write() accepts now, and how many wait for the child in the write queue. */
size_t kf_session_write_room(const struct kf_session *s);
size_t kf_session_write_pending(const struct kf_session *s);

/* A paste: its control characters that would act as keys (xterm's default disallowedPasteControls: NUL, BS, ENQ,
 * EOT, ESC, DEL and the line discipline's special characters) and C1 controls (raw 0x80..0x9F outside a UTF-8
 * character, U+0080..U+009F) sent as spaces, bytes of no UTF-8 character as U+FFFD (one per maximal subpart, as
 * vt/parser.c decodes output), then wrapped in bracketed-paste marks
 * when the child enabled DECSET 2004 (end marks inside the text are taken out by kf_session_paste_filter too, so a
 * paste cannot end its own brackets), else with its line ends made carriage returns (kf_session_paste_newlines).
 * It may take the write queue past write_queue_max, up to a clipboard's worth (KF_CLIPBOARD_MAX) with its marks
 * and 64 KiB more (4 MiB + 12 bytes: the queue's hard bound, pty_write_bulk), and is written as the child reads,
 * the keys and replies written after it after it. All or nothing: when it would pass that bound, nothing is
 * sent (the bound holds for the bytes sent, U+FFFD's three included), the notice callback tells the user (drawn
 * over the screen, not written to it) and -ENOBUFS is returned; -ENOMEM when the filtered copy cannot be made,
 * -ENOTCONN between a child's exit and the next (both told the same way). Does not take ownership of data. */
int kf_session_paste(struct kf_session *s, const void *data, size_t len);
/* The text of a paste the child did not ask to have bracketed, its line ends as the Enter key sends them: "\r\n"
 * and "\n" become "\r". Writes to out (room for len bytes; may be in itself) and returns the length. */
size_t kf_session_paste_newlines(uint8_t *out, const uint8_t *in, size_t len);
/* The text of a bracketed paste with every end mark (ESC [ 2 0 1 ~) taken out until none is left: one that only
 * forms once an inner one is gone ("ESC[20" "ESC[201~" "1~") goes too. Writes to out (room for len bytes; may be
 * in itself) and returns the length. The result never holds an end mark; text without one is left as it is. */
size_t kf_session_paste_filter(uint8_t *out, const uint8_t *in, size_t len);

/* Whether the session is in front (its VT shown, the seat ours): while the child asked for focus reports (DECSET
 * 1004), a change sends CSI I (focused) or CSI O. A session starts focused. */
void kf_session_set_focus(struct kf_session *s, bool focused);

/* Resizes the grid (reflow) and tells the child (TIOCSWINSZ with pixel sizes; SIGWINCH). cell_width and
 * cell_height may be 0 when unknown. Returns 0 or -errno. */
int kf_session_resize(struct kf_session *s, int cols, int rows, int cell_width, int cell_height);

/* Output read from the PTY since the session started: read(2) calls and bytes, wake-ups that read, and, only
 * with kf_session_config.profile (0 otherwise), the
 * CLOCK_MONOTONIC time spent reading (parsing included) and parsing alone, and the same two in the thread's
 * CPU time (for benchmarks): read_sys_cpu_ns is the read(2) calls' part of read_cpu_ns, estimated from a
 * sample of the calls (pty_get_read_cpu), and parse_cpu_ns the rest. */
struct kf_session_stats {
	uint64_t reads, bytes, wakeups;
	uint64_t outputs;       /* chunks handed to the parser (consecutive reads gathered into one) */
	uint64_t pauses;        /* read pauses started (kf_session_config.read_pause_ns) */
	uint64_t read_ns, parse_ns;
	uint64_t read_cpu_ns, parse_cpu_ns, read_sys_cpu_ns;
	uint64_t work_stops;    /* wake-ups that the work budget ended (kf_session_config.work_budget) */
	uint64_t update_stops;  /* wake-ups that an update's end ended (the frame_ready callback said yes) */
	uint64_t exit_drops;    /* child exits whose drain of the master a bound (work or bytes) cut (output dropped) */
	uint64_t trims;         /* times the heap's free pages were given back, TRIM_DELAY after a resize */
};
void kf_session_stats(const struct kf_session *s, struct kf_session_stats *st);

/* Gives the heap's free pages back (malloc_trim) 1 s after the last call: after what frees megabytes at once, a
 * reload (its keymap compile's garbage, a font's caches). A resize to a new size calls it itself. Accepts NULL. */
void kf_session_trim_soon(struct kf_session *s);

/* The child's pid, 0 between an exit and the respawn. */
int kf_session_child_pid(const struct kf_session *s);

#endif
