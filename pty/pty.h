/* pty/pty.h: the login program on a pseudo-terminal.
 *
 * A struct pty owns one child at a time: pty_spawn() opens a new master (posix_openpt), forks, and runs the
 * program as the leader of a new session with the slave as its controlling terminal and as fds 0, 1, 2 (every
 * other descriptor closed, signal mask and dispositions reset, working directory "/"), its line discipline set
 * for UTF-8 (IUTF8) and its erase character to pty_config.erase.
 *
 * The master is non-blocking. pty/ never waits: the program's event loop watches pty_fd() for input (and for
 * output while pty_write_pending()), and pty_pidfd() for the child's exit. Reading hands the child's bytes to
 * the output callback in chunks of up to 64 KiB, until EAGAIN or a budget. Writing goes through one
 * bounded queue that keeps the order of everything written (keys, pastes, replies): write_queue_max bounds it,
 * and a paste written with pty_write_bulk() may take it further, up to the hard bound write_bulk_max.
 *
 * pty/ knows nothing about terminals; it logs through the handler given to pty_set_log_handler().
 * Every function returns 0 (or a count) on success and -errno for OS failures.
 */
#ifndef PTY_PTY_H
#define PTY_PTY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Log priorities are syslog's (3 error, 4 warning, 5 notice, 6 info, 7 debug); file and line are where in
 * pty/ the message comes from (static strings). NULL (the default) drops every message. The handler is
 * process-wide. */
typedef void (*pty_log_handler)(int prio, const char *file, int line, const char *fmt, va_list ap);
void pty_set_log_handler(pty_log_handler handler);

/* Raises this process's soft limit of open descriptors (RLIMIT_NOFILE) to its hard limit, as systemd advises
 * for programs that need many and never use select() (pty/ and its users poll): every input device, the PTY,
 * DRM or fbdev, timers and signals are descriptors, and 1024 is the usual soft limit. Each child spawned
 * afterwards is given back the soft limit of the first call before its exec. Process-wide; call once at
 * start, before any pty_spawn. Returns 0 (also when there was nothing to raise) or -errno. */
int pty_raise_fd_limit(void);

/* Default size bound of the write queue. */
#define PTY_WRITE_QUEUE_DEFAULT (4u << 20)
/* The read buffer: one read(2) asks for all of it (or, when reads are gathered, what is left of it). The
 * kernel hands out at most a few KiB per read on a PTY, but a buffer smaller than what is queued would cost a
 * wake-up per leftover byte. */
#define PTY_READ_CHUNK (64u << 10)

struct pty_config {
	/* The program and its arguments, NULL-terminated; NULL means { "/bin/login", "-p", NULL }. argv[0] is
	 * searched in PATH when it has no '/'. Not copied: must stay valid while the pty exists. */
	const char *const *argv;
	const char *term;       /* TERM; NULL = "xterm-256color". Not copied. */
	const char *colorterm;  /* COLORTERM; NULL = "truecolor"; "" = leave it unset. Not copied. */
	const char *seat;       /* XDG_SEAT, or NULL to leave it unset. Not copied. */
	const char *vtnr;       /* XDG_VTNR, or NULL. Not copied. */
	/* Start from a clean environment (only PATH, LANG and the variables above), like kmscon --reset-env.
	 * false: inherit ours and override the variables above. */
	bool reset_env;
	size_t write_queue_max; /* 0 = PTY_WRITE_QUEUE_DEFAULT */
	/* The queue's hard bound (pty_write_bulk): what it may hold with a paste in it, for a paste larger than
	 * write_queue_max that is then written as the child reads. Below write_queue_max (0 included) it is
	 * write_queue_max: no write passes that. */
	size_t write_bulk_max;
	uint16_t cols, rows;    /* initial window size in cells; 0 = 80x24 */
	uint16_t xpixel, ypixel; /* initial window size in pixels, 0 if unknown */
	bool no_pidfd;           /* do not open a pidfd (tests of the SIGCHLD fallback) */
	/* The slave's erase character (stty erase, VERASE): what the terminal's Backspace sends, so that it
	 * erases in canonical mode; 0 = the kernel's default, DEL (0x7f). */
	unsigned char erase;
	/* Gather consecutive reads before handing them to the output callback (see pty_read): PTY_GATHER_AUTO
	 * (0, the default) does so when only one CPU is online, PTY_GATHER_ON always; PTY_GATHER_OFF and any
	 * other value never. */
	int gather;
	/* Measure the thread's CPU time in a sample of the read(2) calls (pty_get_read_cpu), for benchmarks. Off
	 * by default: the CPU clock is a system call, and in a guest under TCG the clocks read per wake-up cost
	 * more than the parse of an ascii flood's wake-up (docs/benchmarks.md, issue 5, session 51). */
	bool sample_read_cpu;
};
#define PTY_GATHER_AUTO 0
#define PTY_GATHER_ON 1
#define PTY_GATHER_OFF (-1)

struct pty_callbacks {
	/* The child's output, in order. data is owned by pty/ and valid only during the call. Called from
	 * pty_read() only. */
	void (*output)(void *ud, const uint8_t *data, size_t len);
	/* The write queue became non-empty (true) or empty (false): watch pty_fd() for writability only while
	 * true. Called from pty_write()/pty_flush()/pty_hangup(). May be NULL. */
	void (*want_write)(void *ud, bool on);
};

struct pty;

/* Creates a pty without a child. cfg and cb are copied (the strings cfg points to are not); ud is passed to
 * every callback and not owned. Returns NULL on allocation failure. */
struct pty *pty_create(const struct pty_config *cfg, const struct pty_callbacks *cb, void *ud);
/* Hangs up and reaps the child if one runs (pty_hangup), frees everything. Accepts NULL. */
void pty_destroy(struct pty *pty);

/* Spawns the child on a new master. Fails with -EBUSY while a child runs (call pty_hangup first). SIGCHLD
 * ignored (SIG_IGN, perhaps as this process was started) or with SA_NOCLDWAIT would have the kernel reap the child
 * and lose its status: it is set back to the default first (process-wide, logged). Failing
 * to exec is not an error here: the child prints why on the terminal and exits with status 127, and pty_reap
 * logs why once the child has exited (pty_spawn does not wait for the child's exec: an exec that hangs, a login
 * on a dead NFS server, would hang the caller with it). Of a streak of failures (a caller that retries), of either
 * kind, only the first is logged as an error, the others at debug level. */
int pty_spawn(struct pty *pty);
/* The erase character (pty_config.erase) the next pty_spawn gives its child's terminal; a child that runs keeps
 * its own (it may have read or changed it). */
void pty_set_erase(struct pty *pty, unsigned char erase);

/* The master (-1 without one), the child's pid (0 without one) and a pidfd for it (-1 when the kernel has
 * no pidfd_open: then watch SIGCHLD and call pty_reap). Owned by the pty, valid until the next
 * pty_spawn()/pty_hangup()/pty_destroy(). */
int pty_fd(const struct pty *pty);
pid_t pty_pid(const struct pty *pty);
int pty_pidfd(const struct pty *pty);

/* Reads until EAGAIN or until at least budget bytes were read (0 = no budget), handing the bytes to the output
 * callback in order; nothing is held back past the return. Each read's bytes go to the callback before the
 * next read, except when gathering (pty_config.gather): then consecutive reads fill PTY_READ_CHUNK first.
 * Returns 0 when drained (EAGAIN), 1 when the budget ran out with more possibly pending (the loop will report
 * the fd readable again), -EIO when every slave descriptor is closed (the remaining output has been delivered;
 * more comes only if the child opens its terminal again, as login(1) does around vhangup()), or another
 * -errno. The kernel can report the hang-up while the child's last output is still on its way, so the hang-up
 * counts once two reads in a row report it (pty_get_early_hangups). */
int pty_read(struct pty *pty, size_t budget);
/* Called from the output callback: the pty_read that called it returns 1 after the callback, before its next
 * read(2), so the buffer the callback was given is not overwritten (the callback keeps what it did not use).
 * For a reader that bounds its work, not its bytes (the session: grid_work). */
void pty_read_stop(struct pty *pty);

/* Queues data for the child (after anything already queued) and writes as much as the PTY takes now.
 * All or nothing: when it does not fit in the queue, nothing is queued and -ENOBUFS is returned; -ENOMEM when
 * the queue cannot grow for it, nothing written either (room is made before the PTY is given any of it).
 * -ENOTCONN without a child or after hang-up (data dropped). Does not take ownership of data.
 * An error (-EIO) is returned only when none of data was written: after part of it went, the rest is queued
 * and 0 returned, the error coming again at pty_flush, so a caller that tries again never repeats bytes.
 * The queue's bound is write_queue_max, or write_bulk_max while bytes of a bulk write are still queued: what
 * is written after a paste (keys typed meanwhile, replies) waits behind it instead of being refused. */
int pty_write(struct pty *pty, const void *data, size_t len);
/* pty_write for a paste: the queue may hold up to write_bulk_max with it (the hard bound), whatever
 * write_queue_max is, and its bytes go to the child as it reads. All or nothing as pty_write: a paste that
 * would pass the hard bound is refused whole (-ENOBUFS), nothing of it queued or written. */
int pty_write_bulk(struct pty *pty, const void *data, size_t len);
/* Writes queued bytes until the PTY stops taking them. Call when pty_fd() is writable. Returns 0, or -EIO
 * when the slave side is gone (the queue is discarded). */
int pty_flush(struct pty *pty);
/* Bytes queued, and how many more pty_write() and pty_write_bulk() take now. */
size_t pty_write_pending(const struct pty *pty);
size_t pty_write_room(const struct pty *pty);
size_t pty_write_bulk_room(const struct pty *pty);

/* Window size: TIOCSWINSZ on the master (the kernel sends SIGWINCH to the foreground process group). Kept
 * for the next spawn too. */
int pty_resize(struct pty *pty, uint16_t cols, uint16_t rows, uint16_t xpixel, uint16_t ypixel);

/* Collects the child's exit status without blocking. Returns 1 and sets *status (a wait(2) status) when
 * the child has exited, 0 when it still runs, -ECHILD without a child. A child someone else reaped (SIGCHLD
 * set to be ignored after the spawn: the kernel reaps it) has exited too, its status lost: 1, with an exit
 * status of PTY_STATUS_LOST (logged). The master stays open so that the
 * remaining output can still be read: call pty_hangup() after draining it. The child stays a zombie until then
 * (its pidfd stays readable), so that no other process can take its number before pty_hangup signals its
 * process group. */
#define PTY_STATUS_LOST 255
int pty_reap(struct pty *pty, int *status);

/* Ends the session: SIGHUP (and SIGCONT) to the child's process group, closes the master (the kernel hangs
 * up the slave), and reaps the child, waiting at most timeout_ms before SIGKILL, then at most
 * PTY_KILL_WAIT_MS more. A child still not reapable then (uninterruptible sleep on a dead NFS mount, a
 * tracer holding its zombie) is logged and left behind: up to PTY_STALE_MAX of them are reaped without
 * blocking by later pty_spawn/pty_reap/pty_hangup calls (a later SIGCHLD or pidfd wake-up that calls
 * pty_reap does it), never mistaken for the current child. Returns within timeout_ms + PTY_KILL_WAIT_MS
 * whatever the child does. No-op without a child or master. */
#define PTY_KILL_WAIT_MS 1000u
#define PTY_STALE_MAX 8u
void pty_hangup(struct pty *pty, int timeout_ms);

/* How long to wait before respawning, in milliseconds, given the last child's life: 0 after a child that
 * lived at least PTY_QUICK_EXIT_MS; after consecutive quick exits 100 ms doubling up to PTY_BACKOFF_MAX_MS,
 * so a login that fails at once does not spin. Valid after pty_reap() returned 1. */
#define PTY_QUICK_EXIT_MS 1000u
#define PTY_BACKOFF_MAX_MS 10000u
unsigned pty_respawn_delay_ms(const struct pty *pty);

/* Totals since pty_create(), over every child: successful read(2) calls on the master and bytes read. */
void pty_get_stats(const struct pty *pty, uint64_t *reads, uint64_t *bytes);
/* How many times the output callback was given bytes (fewer than the reads when they are gathered). */
uint64_t pty_get_outputs(const struct pty *pty);

/* How many times a read reported the hang-up and the next one still returned output (see pty_read). */
uint64_t pty_get_early_hangups(const struct pty *pty);

/* The calling thread's CPU time in the master's read(2) calls (for benchmarks), measured on one call in
 * PTY_READ_CPU_SAMPLE when pty_config.sample_read_cpu is set (none otherwise), since reading the thread's CPU
 * clock is a system call itself: every read(2) call so
 * far (those that found nothing or were interrupted included), how many were measured, and their CPU time.
 * The total is about sampled_ns * calls / sampled. */
#define PTY_READ_CPU_SAMPLE 16u
void pty_get_read_cpu(const struct pty *pty, uint64_t *calls, uint64_t *sampled, uint64_t *sampled_ns);

/* Converts a wait(2) status to a shell-style exit code: the exit status, or 128 + signal number. */
int pty_exit_code(int status);

#endif
