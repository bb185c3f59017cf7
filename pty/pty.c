/* pty/pty.c: the child's lifecycle, reading, the bounded write queue. See pty.h. */
#include "pty/pty-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* The write queue starts this small (a key or a reply) and grows by doubling up to its bound (write_queue_max,
 * write_bulk_max with a paste in it); it is freed again whenever it empties, so a big paste does not keep its
 * memory. Room is made before a write reaches the PTY (queue_write), so a block this small may stay after a
 * write the PTY took whole; a larger one does not. */
#define QUEUE_MIN (4u << 10)
/* A queue larger than this lives in a mapping of its own (mmap, grown by mremap, unmapped when it empties),
 * not in malloc's heap. glibc raises its mmap threshold to the size of each large block freed, so after one
 * paste the next queue grew inside the heap, where realloc copies: its 2 -> 4 MiB step held both blocks
 * resident, and the heap kept the freed one (live-paste_deadlock, under load: peak RSS 7 MiB above the idle
 * program's, with a 4 MiB bound). A mapping grows by moving its pages, and its memory is given back when
 * it is unmapped, whatever malloc's state. */
#define QUEUE_MAP_MIN (64u << 10)

/* Gathering stops when less than a read's worth (the line discipline's 4 KiB) of rbuf is left. */
#define PTY_GATHER_ROOM (4u << 10)

static void queue_free(uint8_t *buf, size_t cap);
static void reap_stale(struct pty *pty);

struct pty {
	struct pty_config cfg;
	struct pty_callbacks cb;
	void *ud;

	int master;       /* -1 when closed */
	pid_t pid;        /* 0 when no child (never spawned, or reaped and hung up) */
	int pidfd;        /* -1 without */
	bool reaped;      /* pty_reap() collected the status; the zombie and pid are kept until pty_hangup() */
	/* pty_reap() found no child to wait for: the kernel reaped it itself (SIGCHLD set to be ignored, or
	 * SA_NOCLDWAIT, after the spawn) or another waiter took it. Its number may be another process's now:
	 * pty_hangup signals nothing (closing the master still hangs up the terminal's session). */
	bool gone;
	/* Children pty_hangup() killed but could not reap within PTY_KILL_WAIT_MS (uninterruptible sleep, or a
	 * tracer holding the zombie): set by pty_hangup, reaped without blocking at every later pty_spawn,
	 * pty_reap and pty_hangup (reap_stale). Never signalled again, so a pid the kernel reuses is safe. */
	pid_t stale[PTY_STALE_MAX];
	unsigned n_stale;
	uint64_t spawn_ms; /* CLOCK_MONOTONIC at the last spawn */
	unsigned quick_exits; /* consecutive children that lived < PTY_QUICK_EXIT_MS */
	unsigned delay_ms;    /* set by pty_reap() */
	bool spawn_failing;   /* the last pty_spawn() failed: its failure is logged once per streak */
	bool exec_failing;    /* the last child could not run the program: logged once per streak too */
	int report;           /* the child's exec report (exec_report), read once it has exited; -1 without */
	char report_program[204]; /* whose exec it reports, its name cut to a log line's room ("%.200s...") */
	struct winsize ws;
	uint64_t stat_reads, stat_bytes; /* pty_get_stats() */
	uint64_t stat_outputs; /* pty_get_outputs() */
	uint64_t stat_early_hups; /* pty_get_early_hangups() */
	bool gather;           /* pty_config.gather resolved */
	bool stop;             /* pty_read_stop() was called during this pty_read */
	uint64_t stat_calls, stat_sampled, stat_sampled_ns; /* pty_get_read_cpu() */

	/* Write queue: bytes [head, head + len) of buf are pending; cap <= cfg.write_bulk_max. */
	uint8_t *buf;
	size_t head, len, cap;
	/* The first bulk_left queued bytes hold the end of the last bulk write: set by pty_write_bulk, counted
	 * down as bytes go to the child, 0 once the paste is written (and when the queue is cleared). While it is
	 * not 0 the queue's bound is write_bulk_max for every write (queue_limit), so that nothing written after
	 * a paste is refused for the paste's sake. */
	size_t bulk_left;
	bool nomem; /* the last write was refused for want of memory: logged once per streak */

	uint8_t rbuf[PTY_READ_CHUNK];
};

static pty_log_handler log_handler;

void pty_set_log_handler(pty_log_handler handler)
{
	log_handler = handler;
}

void pty_log_at(int prio, const char *file, int line, const char *fmt, ...)
{
	if (!log_handler)
		return;
	va_list ap;
	va_start(ap, fmt);
	log_handler(prio, file, line, fmt, ap);
	va_end(ap);
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct pty *pty_create(const struct pty_config *cfg, const struct pty_callbacks *cb, void *ud)
{
	struct pty *pty = calloc(1, sizeof(*pty));
	if (!pty)
		return NULL;
	if (cfg)
		pty->cfg = *cfg;
	if (!pty->cfg.write_queue_max)
		pty->cfg.write_queue_max = PTY_WRITE_QUEUE_DEFAULT;
	if (pty->cfg.write_bulk_max < pty->cfg.write_queue_max)
		pty->cfg.write_bulk_max = pty->cfg.write_queue_max;
	if (cb)
		pty->cb = *cb;
	pty->ud = ud;
	pty->master = -1;
	pty->pidfd = -1;
	pty->report = -1;
	pty->ws.ws_col = pty->cfg.cols ? pty->cfg.cols : 80;
	pty->ws.ws_row = pty->cfg.rows ? pty->cfg.rows : 24;
	pty->ws.ws_xpixel = pty->cfg.xpixel;
	pty->ws.ws_ypixel = pty->cfg.ypixel;
	pty->gather = pty->cfg.gather == PTY_GATHER_ON ||
		      (pty->cfg.gather == PTY_GATHER_AUTO && sysconf(_SC_NPROCESSORS_ONLN) == 1);
	return pty;
}

void pty_destroy(struct pty *pty)
{
	if (!pty)
		return;
	pty_hangup(pty, 500);
	queue_free(pty->buf, pty->cap);
	free(pty);
}

int pty_fd(const struct pty *pty)
{
	return pty->master;
}

pid_t pty_pid(const struct pty *pty)
{
	return pty->pid;
}

int pty_pidfd(const struct pty *pty)
{
	return pty->pidfd;
}

/* Reads the child's report (pty_child_exec), once the child has exited (pty_reap), so never waiting: end of
 * file when its exec worked (the pipe is close-on-exec), its errno when the exec failed. Read at the spawn, it
 * waited for the child's exec, and an exec that hangs (a login on a dead NFS server or an automount that does
 * not answer) froze the console with it (tests/pty/test-pty-exec-held.c). A failure is logged once per streak
 * (a login respawned every 10 s must not fill the journal). Closes the pipe. */
static void exec_report(struct pty *pty)
{
	if (pty->report < 0)
		return;
	int err = 0;
	ssize_t n;
	while ((n = read(pty->report, &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(pty->report);
	pty->report = -1;
	if (n != (ssize_t)sizeof(err)) {
		pty->exec_failing = false;
		return;
	}
	/* the name cut, so that the reason after it stays within the log's line */
	pty_log(pty->exec_failing ? 7 : 3, "cannot run %s: %s", pty->report_program, strerror(err));
	pty->exec_failing = true;
}

/* Makes sure this process can wait for its children. SIGCHLD ignored (SIG_IGN, which exec(2) keeps: a launcher
 * that does not want to wait for its own children passes it on) or SA_NOCLDWAIT has the kernel reap every child
 * as it exits: waitpid() then says ECHILD, the exit status is lost, and the pidfd stays readable for good, so a
 * loop watching it woke at once for ever (the program spun at 100 % CPU and never started the login again;
 * tests/pty/test-pty-wait.c). Set to the default (nothing happens on SIGCHLD) before the child exists; a
 * handler of the caller's own is kept, without SA_NOCLDWAIT (which exec(2) does not keep: only this process can
 * have set it). Process-wide, like the limit of open files. */
static void allow_wait(void)
{
	struct sigaction sa;
	if (sigaction(SIGCHLD, NULL, &sa) < 0 || (sa.sa_handler != SIG_IGN && !(sa.sa_flags & SA_NOCLDWAIT)))
		return;
	const bool ignored = sa.sa_handler == SIG_IGN;
	if (ignored)
		sa.sa_handler = SIG_DFL;
	sa.sa_flags &= ~SA_NOCLDWAIT;
	if (sigaction(SIGCHLD, &sa, NULL) < 0) {
		pty_log(3, "SIGCHLD is %s and cannot be reset (%s): the child's exit cannot be waited for",
			ignored ? "ignored" : "set with SA_NOCLDWAIT", strerror(errno));
		return;
	}
	pty_log(6, "SIGCHLD was %s: set back to the default, so that the child's exit can be waited for",
		ignored ? "ignored (as the program was started)" : "set with SA_NOCLDWAIT");
}

int pty_spawn(struct pty *pty)
{
	static const char *const login[] = {"/bin/login", "-p", NULL};
	const char *const *argv = pty->cfg.argv && pty->cfg.argv[0] ? pty->cfg.argv : login;
	char slave[128];
	int r;

	if (pty->pid || pty->master >= 0)
		return -EBUSY;
	reap_stale(pty);
	allow_wait();
	char **env = pty_env_build(&pty->cfg);
	struct pty_exec x;
	if (!env)
		return -ENOMEM;
	if (pty_exec_prepare(&x, argv, env) < 0) {
		pty_env_free(env);
		return -ENOMEM;
	}
	/* A caller that retries a failing spawn (every second, for as long as the pts table is full) must not
	 * fill the journal: its failures are logged once per streak, at debug level after the first. */
	const int fail_prio = pty->spawn_failing ? 7 : 3;
	int fd = pty_open_master(slave, sizeof(slave));
	if (fd < 0) {
		r = fd;
		pty_log(fail_prio, "cannot open a PTY master: %s", strerror(-r));
		goto out_env;
	}
	if (ioctl(fd, TIOCSWINSZ, &pty->ws) < 0)
		pty_log(4, "TIOCSWINSZ on %s: %s", slave, strerror(errno));
	r = pty_init_termios(fd, pty->cfg.erase);
	if (r < 0)
		pty_log(4, "setting the termios of %s: %s", slave, strerror(-r));

	/* The child tells through this pipe why it could not run the program (a typo in login=): the log said only
	 * "exited with status 127", the reason was on the terminal alone. No pipe, no report: the child still
	 * says it on the terminal. */
	int report[2];
	if (pipe2(report, O_CLOEXEC | O_NONBLOCK) < 0)
		report[0] = report[1] = -1;
	pid_t pid = fork();
	if (pid < 0) {
		r = -errno;
		pty_log(fail_prio, "fork: %s", strerror(-r));
		if (report[0] >= 0) {
			close(report[0]);
			close(report[1]);
		}
		goto out_fd;
	}
	if (pid == 0) {
		x.report = report[1];
		pty_child_exec(slave, &x);
	}
	if (report[0] >= 0)
		close(report[1]);
	pty->report = report[0];
	/* copied: the caller may change its argv (a reload of login=) before this child exits */
	snprintf(pty->report_program, sizeof(pty->report_program), "%.200s%s", argv[0],
		 strlen(argv[0]) > 200 ? "..." : "");

	pty->master = fd;
	pty->pid = pid;
	pty->reaped = false;
	pty->spawn_ms = now_ms();
#ifdef SYS_pidfd_open
	pty->pidfd = pty->cfg.no_pidfd ? -1 : (int)syscall(SYS_pidfd_open, pid, 0);
	if (pty->pidfd < 0 && !pty->cfg.no_pidfd) {
		pty_log(6, "pidfd_open: %s; falling back to SIGCHLD", strerror(errno));
		pty->pidfd = -1;
	}
#endif
	pty_log(6, "started %s (pid %d) on %s", argv[0], (int)pid, slave);
	pty->spawn_failing = false;
	pty_exec_free(&x);
	pty_env_free(env);
	return 0;

out_fd:
	close(fd);
out_env:
	pty->spawn_failing = true;
	pty_exec_free(&x);
	pty_env_free(env);
	return r;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The *have bytes gathered in rbuf to the output callback. */
static void hand_out(struct pty *pty, size_t *have)
{
	pty->stat_outputs++;
	if (pty->cb.output)
		pty->cb.output(pty->ud, pty->rbuf, *have);
	*have = 0;
}

int pty_read(struct pty *pty, size_t budget)
{
	size_t total = 0;
	if (pty->master < 0)
		return -ENOTCONN;
	/* Each chunk goes to the output callback straight after its read(2), before the next read. One read
	 * returns at most what the line discipline holds (N_TTY_BUF_SIZE, 4 KiB); the read that empties it
	 * kicks the kernel's flush worker, and a read that finds it empty waits for that worker to refill it
	 * (n_tty_read -> flush_work). Reading again at once (gathering reads before parsing) therefore sleeps
	 * once per 4 KiB; parsing first gives the worker and the child that time to refill, so the next read
	 * finds data waiting (docs/benchmarks.md, "PTY path, headless", session 6).
	 * With one CPU the worker cannot run beside the parse: it takes the CPU from us at the end of the read
	 * that woke it, and the child after it, so the next read finds data either way and every 4 KiB costs a
	 * switch away and back. There the reads are gathered (pty->gather) and parsed in one call per
	 * PTY_READ_CHUNK: the parse then starts cold (an emptied TLB, in a guest under TCG also the emulator's
	 * jump cache) once per 64 KiB instead of once per read (docs/benchmarks.md, issue 5, session 30). */
	pty->stop = false;
	size_t have = 0; /* bytes gathered in rbuf, not yet handed out */
	bool hup_once = false; /* the last read reported the hang-up: one more read confirms it */
	for (;;) {
		/* The read(2) calls have a steady cost (a 4 KiB copy, the worker's kick, a switch away and back),
		 * unlike the parse between them (a chunk that maps fresh memory costs milliseconds), so a sample
		 * of them estimates their total well; the parse is then the rest of the reading time. */
		bool sample = pty->stat_calls++ % PTY_READ_CPU_SAMPLE == 0 && pty->cfg.sample_read_cpu;
		uint64_t c0 = sample ? thread_cpu_ns() : 0;
		ssize_t n = read(pty->master, pty->rbuf + have, sizeof(pty->rbuf) - have);
		const int err = n < 0 ? errno : 0; /* the output callback below may change errno */
		if (sample) {
			pty->stat_sampled++;
			pty->stat_sampled_ns += thread_cpu_ns() - c0;
		}
		if (n > 0) {
			if (hup_once)
				pty->stat_early_hups++;
			hup_once = false;
			pty->stat_reads++;
			pty->stat_bytes += (uint64_t)n;
			total += (size_t)n;
			have += (size_t)n;
			if (pty->gather && sizeof(pty->rbuf) - have >= PTY_GATHER_ROOM && !(budget && total >= budget))
				continue;
			hand_out(pty, &have);
			if ((budget && total >= budget) || pty->stop)
				return 1;
			continue;
		}
		if (have) {
			hand_out(pty, &have); /* before EAGAIN, EINTR, the hang-up or an error is acted on */
			if (pty->stop)
				return 1; /* what this read found (EAGAIN, the hang-up) the next pty_read finds again */
		}
		if (err == EINTR)
			continue;
		if (err == EAGAIN)
			return 0;
		/* 0 or EIO: the last slave descriptor was closed, but a first report can come with output still on
		 * its way. n_tty_read waits for the flush worker (flush_work), finds the line discipline still
		 * empty and only then tests TTY_OTHER_CLOSED: when the child writes (queueing the worker) and
		 * exits between the two, the read says EIO while the worker has the child's last bytes. Those
		 * were queued before the close we saw, so the next read's flush_work waits for them: a second
		 * report in a row is the end. With reader and child on one CPU, a child that writes 20 lines and
		 * exits lost output in 8-12 of 1500 runs with one read, none with the second (test_exit_race in
		 * tests/pty/test-pty.c). */
		if (n == 0 || err == EIO) {
			if (!hup_once) {
				hup_once = true;
				continue;
			}
			return -EIO;
		}
		return -err;
	}
}

void pty_read_stop(struct pty *pty)
{
	pty->stop = true;
}

/* The queue's block of cap bytes (QUEUE_MAP_MIN above) released. */
static void queue_free(uint8_t *buf, size_t cap)
{
	if (cap > QUEUE_MAP_MIN)
		munmap(buf, cap);
	else
		free(buf);
}

/* The queue's block grown from old to cap bytes (old < cap), its first len bytes kept; NULL on failure, the
 * old block then left as it was. */
static uint8_t *queue_grow(uint8_t *buf, size_t old, size_t cap, size_t len)
{
	if (cap <= QUEUE_MAP_MIN)
		return realloc(buf, cap);
	void *p;
	if (old > QUEUE_MAP_MIN) {
		p = mremap(buf, old, cap, MREMAP_MAYMOVE);
		return p == MAP_FAILED ? NULL : p;
	}
	p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (len)
		memcpy(p, buf, len);
	free(buf);
	return p;
}

static void queue_clear(struct pty *pty)
{
	bool had = pty->len > 0;
	queue_free(pty->buf, pty->cap);
	pty->buf = NULL;
	pty->head = pty->len = pty->cap = pty->bulk_left = 0;
	if (had && pty->cb.want_write)
		pty->cb.want_write(pty->ud, false);
}

/* The queue's bound for a plain (!bulk) or bulk write now. */
static size_t queue_limit(const struct pty *pty, bool bulk)
{
	return bulk || pty->bulk_left ? pty->cfg.write_bulk_max : pty->cfg.write_queue_max;
}

/* How many more bytes a write takes now: after a paste, keys can fill the queue past write_queue_max, and when
 * the paste is written they are still queued, more than a plain write's bound. */
static size_t queue_room(const struct pty *pty, bool bulk)
{
	const size_t limit = queue_limit(pty, bulk);
	return pty->len < limit ? limit - pty->len : 0;
}

/* Makes room for n more bytes at the tail, within limit; the caller checked the bound. */
static int queue_reserve(struct pty *pty, size_t n, size_t limit)
{
	size_t need = pty->len + n;
	if (pty->head + need <= pty->cap)
		return 0;
	if (need <= pty->cap) {
		memmove(pty->buf, pty->buf + pty->head, pty->len);
		pty->head = 0;
		return 0;
	}
	size_t cap = pty->cap ? pty->cap : QUEUE_MIN;
	while (cap < need)
		cap *= 2;
	if (cap > limit)
		cap = limit;
	/* A large queue grows by moving its pages (queue_grow), so the old and the new block are never
	 * resident together (a doubling to 4 MiB peaked at 6 MiB). On failure the queue is left as it was, its
	 * bytes moved to the front. */
	if (pty->head) {
		memmove(pty->buf, pty->buf + pty->head, pty->len);
		pty->head = 0;
	}
	uint8_t *nb = queue_grow(pty->buf, pty->cap, cap, pty->len);
	if (!nb)
		return -ENOMEM;
	pty->buf = nb;
	pty->cap = cap;
	return 0;
}

/* Writes from p until the PTY takes no more; returns bytes written or -errno (not -EAGAIN). An error after some
 * bytes went is not returned with them: the count is, and the error comes again at the next write (the rest is
 * queued, pty_flush meets it). -EIO alone said nothing of the part written, and a caller trying again sent it
 * twice (kmscon-felis --input-fifo duplicated typed input). */
static ssize_t write_some(struct pty *pty, const uint8_t *p, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(pty->master, p + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (done)
			break;
		return n < 0 ? -errno : -EIO;
	}
	return (ssize_t)done;
}

/* pty_write and pty_write_bulk. */
static int queue_write(struct pty *pty, const void *data, size_t len, bool bulk)
{
	const uint8_t *p = data;
	if (pty->master < 0)
		return -ENOTCONN;
	if (len > queue_room(pty, bulk))
		return -ENOBUFS;
	if (len == 0)
		return 0;
	/* Room for all of it first: what the PTY takes at once cannot be taken back, so a queue that could not
	 * grow for the rest afterwards (no memory) cut the write, and a paste reached the child without its end
	 * (its bracketed-paste end mark lost: every key after it was pasted text to the child). */
	int r = queue_reserve(pty, len, queue_limit(pty, bulk));
	if (r < 0) {
		/* once per streak: a child asking for replies without end would otherwise log each one */
		pty_log(pty->nomem ? 7 : 4, "write queue: no memory for %zu more bytes; the write is refused", len);
		pty->nomem = true;
		return r;
	}
	pty->nomem = false;
	if (pty->len == 0) {
		/* Keys and replies usually fit at once: no queue, no wake-up for writability. */
		ssize_t n = write_some(pty, p, len);
		if (n < 0)
			pty_log(6, "write to the PTY: %s", strerror((int)-n));
		else
			p += n, len -= (size_t)n;
		if (n < 0 || len == 0) {
			/* the room made for a paste is not kept when nothing is queued in it (a key's is) */
			if (pty->cap > QUEUE_MIN)
				queue_clear(pty);
			return n < 0 ? (int)n : 0;
		}
	}
	bool was_empty = pty->len == 0;
	memcpy(pty->buf + pty->head + pty->len, p, len);
	pty->len += len;
	if (bulk)
		pty->bulk_left = pty->len;
	if (was_empty && pty->cb.want_write)
		pty->cb.want_write(pty->ud, true);
	return 0;
}

int pty_write(struct pty *pty, const void *data, size_t len)
{
	return queue_write(pty, data, len, false);
}

int pty_write_bulk(struct pty *pty, const void *data, size_t len)
{
	return queue_write(pty, data, len, true);
}

int pty_flush(struct pty *pty)
{
	if (pty->master < 0 || pty->len == 0)
		return 0;
	ssize_t n = write_some(pty, pty->buf + pty->head, pty->len);
	if (n < 0) {
		pty_log(6, "write to the PTY: %s; dropping %zu queued bytes", strerror((int)-n), pty->len);
		queue_clear(pty);
		return (int)n;
	}
	pty->head += (size_t)n;
	pty->len -= (size_t)n;
	pty->bulk_left = pty->bulk_left > (size_t)n ? pty->bulk_left - (size_t)n : 0;
	if (pty->len == 0) {
		/* queue_clear says so only for a queue it empties itself: this one is empty already, and a caller
		 * still watching for writability would be woken at once, for ever (the program's loop spun) */
		queue_clear(pty);
		if (pty->cb.want_write)
			pty->cb.want_write(pty->ud, false);
	}
	return 0;
}

size_t pty_write_pending(const struct pty *pty)
{
	return pty->len;
}

size_t pty_write_room(const struct pty *pty)
{
	return queue_room(pty, false);
}

size_t pty_write_bulk_room(const struct pty *pty)
{
	return queue_room(pty, true);
}

int pty_resize(struct pty *pty, uint16_t cols, uint16_t rows, uint16_t xpixel, uint16_t ypixel)
{
	pty->ws.ws_col = cols;
	pty->ws.ws_row = rows;
	pty->ws.ws_xpixel = xpixel;
	pty->ws.ws_ypixel = ypixel;
	if (pty->master >= 0 && ioctl(pty->master, TIOCSWINSZ, &pty->ws) < 0)
		return -errno;
	return 0;
}

static void note_exit(struct pty *pty)
{
	uint64_t lived = now_ms() - pty->spawn_ms;
	if (lived >= PTY_QUICK_EXIT_MS) {
		pty->quick_exits = 0;
		pty->delay_ms = 0;
		return;
	}
	pty->quick_exits++;
	unsigned shift = pty->quick_exits - 1 < 16 ? pty->quick_exits - 1 : 16;
	uint64_t d = 100ull << shift;
	pty->delay_ms = d > PTY_BACKOFF_MAX_MS ? PTY_BACKOFF_MAX_MS : (unsigned)d;
}

/* The wait(2) status that waitid's report of an exit stands for. */
static int wait_status(const siginfo_t *si)
{
	if (si->si_code == CLD_EXITED)
		return (si->si_status & 0xff) << 8;
	return (si->si_status & 0x7f) | (si->si_code == CLD_DUMPED ? 0x80 : 0);
}

int pty_reap(struct pty *pty, int *status)
{
	reap_stale(pty);
	if (!pty->pid)
		return -ECHILD;
	if (pty->reaped)
		return -ECHILD;
	/* WNOWAIT: the status is taken, the zombie left; pty_hangup reaps it. Until then its number is still the
	 * child's: once reaped, a process started before the hang-up (the session first parses the child's last
	 * output, up to 0.5 s) could be given it and lead a process group of that number (any daemon calls
	 * setsid), and the hang-up's SIGHUP and SIGCONT to the child's group went to it (tests/pty/test-pty-wait.c). */
	siginfo_t si;
	si.si_pid = 0;
	int st;
	if (waitid(P_PID, (id_t)pty->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno != ECHILD)
			return errno == EINTR ? 0 : -errno;
		/* Gone, its status with it: reported as an exit with PTY_STATUS_LOST. Returning -ECHILD left the
		 * caller watching a pidfd that stays readable for good: its loop spun at full CPU and never started
		 * the login again (tests/kmscon-felis/test-session-robust.c). */
		pty_log(4, "child %d was reaped by someone else (SIGCHLD ignored or SA_NOCLDWAIT set since it "
			   "started?): its exit status is lost", (int)pty->pid);
		pty->gone = true;
		st = PTY_STATUS_LOST << 8;
	} else if (si.si_pid == 0) {
		return 0;
	} else {
		st = wait_status(&si);
	}
	pty->reaped = true;
	exec_report(pty);
	note_exit(pty);
	if (status)
		*status = st;
	pty_log(6, "child %d exited with status %d", (int)pty->pid, pty_exit_code(st));
	return 1;
}

/* Waits for the child for at most timeout_ms, on its pidfd when there is one. The pidfd is readable once
 * the child has exited, which is not always once it can be reaped (a tracer gets its zombie first): after
 * one wake-up that reaps nothing, the wait goes on in 10 ms sleeps rather than spinning on poll. */
static bool wait_child(struct pty *pty, int timeout_ms)
{
	int st;
	bool pidfd_ready = false;
	uint64_t end = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		pid_t r = waitpid(pty->pid, &st, WNOHANG);
		if (r == pty->pid || (r < 0 && errno != EINTR))
			return true;
		uint64_t now = now_ms();
		if (now >= end)
			return false;
		int left = (int)(end - now);
		if (pty->pidfd >= 0 && !pidfd_ready) {
			struct pollfd pfd = {.fd = pty->pidfd, .events = POLLIN};
			pidfd_ready = poll(&pfd, 1, left) > 0;
		} else {
			struct timespec ts = {0, 10 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
}

/* Reaps, without blocking, the children an earlier pty_hangup() had to leave behind. */
static void reap_stale(struct pty *pty)
{
	for (unsigned i = 0; i < pty->n_stale;) {
		pid_t r = waitpid(pty->stale[i], NULL, WNOHANG);
		if (r == 0 || (r < 0 && errno == EINTR)) {
			i++;
			continue;
		}
		pty_log(6, "child %d, killed earlier, reaped at last", (int)pty->stale[i]);
		pty->stale[i] = pty->stale[--pty->n_stale];
	}
}

/* The child was sent SIGKILL and did not go in PTY_KILL_WAIT_MS: it sleeps uninterruptibly in the kernel
 * (a dead NFS server, a hung device) or a tracer holds its zombie. Waiting longer could hang the program's
 * shutdown for ever; the pid is kept to be reaped later (reap_stale), while there is room. */
static void leave_child(struct pty *pty)
{
	reap_stale(pty);
	if (pty->n_stale < PTY_STALE_MAX) {
		pty->stale[pty->n_stale++] = pty->pid;
		pty_log(3, "child %d could not be reaped %u ms after SIGKILL (stuck in the kernel?); left behind, "
			   "reaped when it goes", (int)pty->pid, PTY_KILL_WAIT_MS);
	} else {
		pty_log(3, "child %d could not be reaped %u ms after SIGKILL (stuck in the kernel?); %u others are "
			   "left already: it stays a zombie until the program exits",
			(int)pty->pid, PTY_KILL_WAIT_MS, PTY_STALE_MAX);
	}
}

void pty_hangup(struct pty *pty, int timeout_ms)
{
	reap_stale(pty);
	queue_clear(pty);
	if (pty->pid && !pty->gone) {
		/* The child leads its own session and process group: signal all of it, including what it left
		 * running after its own exit (the kernel does not reuse a pid while it names a group, nor while the
		 * child is a zombie: pty_reap leaves it one, reaped below). */
		kill(-pty->pid, SIGHUP);
		kill(-pty->pid, SIGCONT);
	}
	if (pty->master >= 0) {
		close(pty->master);
		pty->master = -1;
	}
	/* the zombie pty_reap left, reaped at once (or, should it not be yet, by a later reap_stale) */
	if (pty->pid && pty->reaped && waitpid(pty->pid, NULL, WNOHANG) == 0 && pty->n_stale < PTY_STALE_MAX)
		pty->stale[pty->n_stale++] = pty->pid;
	if (pty->pid && !pty->reaped && !wait_child(pty, timeout_ms)) {
		pty_log(4, "child %d ignored SIGHUP for %d ms; killing it", (int)pty->pid, timeout_ms);
		kill(-pty->pid, SIGKILL);
		kill(pty->pid, SIGKILL);
		if (!wait_child(pty, PTY_KILL_WAIT_MS))
			leave_child(pty);
	}
	if (pty->pidfd >= 0)
		close(pty->pidfd);
	pty->pidfd = -1;
	if (pty->report >= 0) { /* a child that did not exit by itself: its exec worked or is stuck */
		close(pty->report);
		pty->report = -1;
	}
	pty->pid = 0;
	pty->reaped = false;
	pty->gone = false;
}

void pty_set_erase(struct pty *pty, unsigned char erase)
{
	pty->cfg.erase = erase;
}

unsigned pty_respawn_delay_ms(const struct pty *pty)
{
	return pty->delay_ms;
}

uint64_t pty_get_outputs(const struct pty *pty)
{
	return pty->stat_outputs;
}

uint64_t pty_get_early_hangups(const struct pty *pty)
{
	return pty->stat_early_hups;
}

void pty_get_stats(const struct pty *pty, uint64_t *reads, uint64_t *bytes)
{
	*reads = pty->stat_reads;
	*bytes = pty->stat_bytes;
}

void pty_get_read_cpu(const struct pty *pty, uint64_t *calls, uint64_t *sampled, uint64_t *sampled_ns)
{
	*calls = pty->stat_calls;
	*sampled = pty->stat_sampled;
	*sampled_ns = pty->stat_sampled_ns;
}

int pty_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
