/* kmscon-felis/headless.c: see headless.h. */
#define LOG_TAG "headless"
#include "kmscon-felis/headless.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/screen-text.h"
#include "kmscon-felis/session.h"

/* One read from the FIFO at most. */
#define FIFO_CHUNK (64u << 10)
/* Input the terminal refused with EIO is tried again this often, for up to 5 s (struct kf_headless, held). */
#define FIFO_RETRY_MS 10u
#define FIFO_RETRY_MAX 500u

struct kf_headless {
	struct kf_loop *loop;
	struct kf_session *session;
	int fifo;                 /* -1 without --input-fifo */
	struct kf_source *src;
	struct kf_hook *prepare;
	bool paused;              /* FIFO not watched: the write queue is too full, or held bytes wait */
	/* Bytes read from the FIFO that the terminal refused with EIO (held: the first held bytes of buf), tried
	 * again every FIFO_RETRY_MS by retry, FIFO_RETRY_MAX times at most. A kernel that refuses writes to a master
	 * whose slave is closed does so while login(1) closes its terminal around vhangup() to open it again: they
	 * were dropped, and a test's input typed at the login prompt vanished. */
	size_t held;
	unsigned retries;
	struct kf_timer *retry;
	uint8_t buf[FIFO_CHUNK];
};

/* How much one read may take from the FIFO now, 0 = none: a whole chunk while it fits in the write queue,
 * else, once the queue has emptied, as much as fits. Waiting for a chunk's room alone never ended with a queue
 * smaller than a chunk (--write-queue-size takes 4K and up): the FIFO was never read. Waiting for the queue to
 * empty before a smaller read keeps the wake-ups few while the child reads slowly. No room (no child) is 0. */
static size_t fifo_take(const struct kf_headless *h)
{
	size_t room = kf_session_write_room(h->session);
	if (room >= FIFO_CHUNK)
		return FIFO_CHUNK;
	return kf_session_write_pending(h->session) ? 0 : room;
}

static void on_fifo(void *ud, int fd, uint32_t events)
{
	struct kf_headless *h = ud;
	size_t take = fifo_take(h);
	if (!take) {
		h->paused = true;
		kf_source_set_events(h->src, 0);
		return;
	}
	ssize_t n = read(fd, h->buf, take);
	if (n <= 0)
		return;
	int r = kf_session_write(h->session, h->buf, (size_t)n);
	if (r == -EIO) {
		log_info("the terminal refuses input for now (closed by the program?): keeping %zd bytes, trying again",
			 n);
		h->held = (size_t)n;
		h->retries = 0;
		h->paused = true;
		kf_source_set_events(h->src, 0);
		kf_timer_arm(h->retry, FIFO_RETRY_MS * 1000000ull, 0);
	} else if (r < 0) {
		log_warn("dropping %zd input bytes: %s", n, strerror(-r));
	}
}

static void on_retry(void *ud, struct kf_timer *t)
{
	struct kf_headless *h = ud;
	int r = kf_session_write(h->session, h->buf, h->held);
	if (r == -EIO && ++h->retries < FIFO_RETRY_MAX) {
		kf_timer_arm(t, FIFO_RETRY_MS * 1000000ull, 0);
		return;
	}
	if (r < 0)
		log_warn("dropping %zu input bytes: %s (after %u tries)", h->held, strerror(-r), h->retries + 1);
	h->held = 0; /* on_prepare watches the FIFO again */
}

/* Runs before every sleep: resume reading the FIFO once the child has taken enough. */
static void on_prepare(void *ud)
{
	struct kf_headless *h = ud;
	if (h->paused && !h->held && fifo_take(h)) {
		h->paused = false;
		kf_source_set_events(h->src, EPOLLIN);
	}
}

int kf_headless_create(struct kf_loop *loop, struct kf_session *session, const char *input_fifo,
		       struct kf_headless **out)
{
	int r;
	struct kf_headless *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->loop = loop;
	h->session = session;
	h->fifo = -1;
	if (input_fifo && input_fifo[0]) {
		/* Read-write: we hold a writer ourselves, so the FIFO never reports end-of-file (and never HUP)
		 * when a test's writer closes it; the next writer just continues the stream. */
		h->fifo = open(input_fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (h->fifo < 0) {
			r = -errno;
			log_err("cannot open the input FIFO %s: %s", input_fifo, strerror(-r));
			goto fail;
		}
		/* A regular file or a device epoll cannot watch would fail below as "Operation not permitted". */
		struct stat st;
		if (fstat(h->fifo, &st) < 0 || !S_ISFIFO(st.st_mode)) {
			r = -EINVAL;
			log_err("the input FIFO %s is not a FIFO (create it with mkfifo)", input_fifo);
			goto fail;
		}
		h->src = kf_loop_add_fd(loop, h->fifo, EPOLLIN, KF_PRIO_INPUT, on_fifo, h);
		h->prepare = kf_loop_add_prepare(loop, on_prepare, h);
		h->retry = kf_loop_add_timer(loop, on_retry, h);
		if (!h->src || !h->prepare || !h->retry) {
			r = -errno;
			log_err("cannot watch the input FIFO: %s", strerror(-r));
			goto fail;
		}
	}
	*out = h;
	return 0;

fail:
	kf_headless_destroy(h);
	return r;
}

void kf_headless_destroy(struct kf_headless *h)
{
	if (!h)
		return;
	kf_hook_remove(h->prepare);
	kf_timer_remove(h->retry);
	kf_source_remove(h->src);
	if (h->fifo >= 0)
		close(h->fifo);
	free(h);
}

int kf_headless_dump_check(const char *path)
{
	int r = kf_screen_text_path_check(path);
	if (r < 0)
		log_err("cannot write the screen to %s: %s", path, strerror(-r));
	return r;
}

/* The stop signals main() reads from its signalfd (blocked meanwhile), which must still end a dump that waits. */
static const int stop_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define N_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* A stop signal jumps out of the one stretch where the dump may wait for good: an open(2) of a FIFO that waits
 * for a reader, a write(2) the reader does not take. The signals are unblocked only there, and the stretch calls
 * nothing but open, write and close, which a jump may leave. A flag set by the handler and checked before
 * open(2) lost a signal taken between the check and the call: open waited on, and only SIGKILL ended the program
 * (a CI run, live-dump_fifo_no_reader under ASan; tests/kmscon-felis/test-dump-signal.c makes it certain). */
static sigjmp_buf stop_jump;
static volatile sig_atomic_t stop_armed;
static volatile int dump_fd = -1;      /* what the jump leaves open */
static volatile int dump_step;         /* where a signal stopped the dump, for the message */
enum { STEP_OPEN, STEP_READER, STEP_WRITE };

static void on_stop_signal(int sig)
{
	(void)sig;
	if (stop_armed) {
		stop_armed = 0;
		siglongjmp(stop_jump, 1);
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR) /* a signal other than the stop signals (they jump) */
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes text into a file that may wait (a FIFO, a terminal, a device): fd is open already, or -1 when path is
 * to be opened in the stretch (a FIFO without a reader yet, a device whose open may wait). Returns 0 or -errno;
 * -EINTR when a stop signal came, with dump_step saying where. */
static int write_waiting(const char *path, int fd, bool fifo, const char *text, size_t len)
{
	sigset_t stop;
	sigemptyset(&stop);
	for (size_t i = 0; i < N_STOP_SIGNALS; i++)
		sigaddset(&stop, stop_signals[i]);
	dump_fd = fd;
	dump_step = fd >= 0 ? STEP_WRITE : fifo ? STEP_READER : STEP_OPEN;
	if (sigsetjmp(stop_jump, 1)) { /* the mask is blocked again (saved at the sigsetjmp) */
		if (dump_fd >= 0)
			close(dump_fd);
		dump_fd = -1;
		return -EINTR;
	}
	int r = 0;
	stop_armed = 1;
	sigprocmask(SIG_UNBLOCK, &stop, NULL); /* a signal pending already is taken here */
	if (dump_fd < 0) {
		/* a signal between open's return and the store leaves the descriptor open: the program is ending */
		dump_fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (dump_fd < 0)
			r = -errno;
	}
	if (!r) {
		dump_step = STEP_WRITE;
		r = write_all(dump_fd, text, len);
	}
	sigprocmask(SIG_BLOCK, &stop, NULL);
	stop_armed = 0;
	if (dump_fd >= 0 && close(dump_fd) < 0 && !r)
		r = -errno;
	dump_fd = -1;
	return r;
}

/* Writes text into the file at path. A FIFO nobody reads makes open(2) wait for a reader (and a reader that
 * stops reading makes write(2) wait): said so, and a stop signal gives up. A FIFO with a reader is opened once,
 * and kept: a first open to look, closed again, was the end of the dump to a reader already waiting. */
static int write_dump(const char *path, const char *text, size_t len)
{
	struct stat st;
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) { /* a file: no wait, and a stop signal waits its turn */
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
		if (fd < 0)
			return -errno;
		int r = write_all(fd, text, len);
		if (close(fd) < 0 && !r)
			r = -errno;
		return r;
	}
	int fd = -1;
	if (S_ISFIFO(st.st_mode)) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 && errno != ENXIO)
			return -errno;
		if (fd < 0)
			log_notice("waiting for a reader of the FIFO %s to write the screen into (SIGTERM or SIGINT gives "
				   "up)", path);
		int fl = fd < 0 ? 0 : fcntl(fd, F_GETFL);
		if (fl < 0 || (fd >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)) {
			int e = errno;
			close(fd);
			return -e;
		}
	}
	return write_waiting(path, fd, S_ISFIFO(st.st_mode), text, len);
}

int kf_headless_dump_file(const struct grid *g, const char *path)
{
	/* The text in memory first: the writes may be jumped out of, which stdio's must not be (its lock and buffer
	 * would be left mid-call). It is as large as the screen: rows x cols characters. */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int r = m ? kf_screen_text(g, m) : -errno;
	if (m && fclose(m) != 0 && !r)
		r = -errno;
	if (r < 0) {
		free(text);
		log_err("cannot write the screen to %s: %s", path, strerror(-r));
		return r;
	}
	/* The stop signals are blocked for the loop's signalfd: caught here instead (no SA_RESTART), so that SIGTERM
	 * ends a dump into a FIFO without a reader. It did nothing (blocked): only SIGKILL ended it. */
	struct sigaction sa = {.sa_handler = on_stop_signal}, old[N_STOP_SIGNALS];
	for (size_t i = 0; i < N_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &old[i]);
	r = write_dump(path, text, len);
	for (size_t i = 0; i < N_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
	free(text);
	if (r == -EINTR)
		log_err("cannot write the screen to %s: stopped by a signal %s", path,
			dump_step == STEP_READER ? "while waiting for a reader"
			: dump_step == STEP_WRITE ? "while the reader took no more" : "while opening it");
	else if (r < 0)
		log_err("cannot write the screen to %s: %s", path, strerror(-r));
	return r;
}
