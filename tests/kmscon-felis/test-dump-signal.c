/* tests/kmscon-felis/test-dump-signal.c: --dump-screen into a FIFO, and a stop signal (SIGINT) that comes at the
 * worst moment: just before the open(2) that waits for a reader, or just before a write(2) the reader does not
 * take. A live test (live-dump_fifo_no_reader) sends the signal once the program says it waits, which
 * lands inside the wait nearly always; a CI run under ASan once landed it just before, and the program waited
 * on until SIGKILL (the handler's flag was checked before open(2), and nothing checked it after). Here the
 * signal is made to land there: open(2) and write(2) are wrapped (-Wl,--wrap) to raise it just before the real
 * call, which then runs: the FIFO, its reader and the kernel's wait are real. Each case runs in a child with
 * an alarm, so a hang is reported as such. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/headless.h"
#include "kmscon-felis/screen-text.h"
#include "tests/kf-alarm.h"
#include "tests/kf-check.h"

static int failures;

/* open64: what open(2) is with 64-bit file offsets (meson's default) */
int __real_open64(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static const char *signal_at_open; /* a blocking open of this path raises SIGINT first */
static ino_t signal_at_write;      /* the first write to this FIFO raises SIGINT first */
static int fifo_writes;

int __wrap_open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
	va_end(ap);
	if (signal_at_open && strcmp(path, signal_at_open) == 0 && !(flags & O_NONBLOCK))
		raise(SIGINT);
	return __real_open64(path, flags, mode);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	struct stat st;
	if (signal_at_write && fstat(fd, &st) == 0 && st.st_ino == signal_at_write && ++fifo_writes == 1)
		raise(SIGINT);
	return __real_write(fd, buf, n);
}

/* A screen of cols x rows 'x's (its text is (cols + 1) x rows bytes). */
static struct grid *screen(int cols, int rows)
{
	struct grid_config gc = {.cols = cols, .rows = rows, .scrollback = 0};
	struct grid *g = grid_create(&gc, NULL, NULL);
	size_t n = (size_t)cols * (size_t)rows;
	char *x = malloc(n);
	memset(x, 'x', n);
	grid_feed(g, (const uint8_t *)x, n);
	free(x);
	return g;
}

static char *text_of(const struct grid *g, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	kf_screen_text(g, m);
	fclose(m);
	return buf;
}

/* Runs fn in a child with the stop signals blocked (as main() has them for its signalfd); returns what it
 * exited with, or -1 when it hung (killed by the alarm). */
static int in_child(const char *what, int (*fn)(const char *), const char *arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t stop;
		sigemptyset(&stop);
		sigaddset(&stop, SIGINT);
		sigaddset(&stop, SIGTERM);
		sigaddset(&stop, SIGHUP);
		sigprocmask(SIG_BLOCK, &stop, NULL);
		kf_alarm(10);
		_exit(fn(arg));
	}
	int st;
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%s: killed by signal %d%s\n", what, WTERMSIG(st),
			WTERMSIG(st) == SIGALRM ? " (the alarm: it hung)" : "");
		return -1;
	}
	return WEXITSTATUS(st);
}

/* A FIFO nobody reads, SIGINT just before the open(2) that waits: -EINTR, not a wait for good. */
static int signal_before_open(const char *fifo)
{
	struct grid *g = screen(20, 3);
	signal_at_open = fifo;
	int r = kf_headless_dump_file(g, fifo);
	grid_destroy(g);
	fprintf(stderr, "signal before open: %d (%s)\n", r, strerror(-r));
	return r == -EINTR ? 0 : 1;
}

/* A FIFO whose reader takes nothing, SIGINT just before the write (120 KB: the pipe takes 64 KiB, and a
 * blocking write to a pipe waits until all is taken): -EINTR, not a wait for good. */
static int signal_before_write(const char *fifo)
{
	int rd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* held, never read */
	struct stat st;
	fstat(rd, &st);
	signal_at_write = st.st_ino;
	struct grid *g = screen(400, 300); /* 120300 bytes */
	int r = kf_headless_dump_file(g, fifo);
	grid_destroy(g);
	fprintf(stderr, "signal before a write: %d (%s) after %d writes\n", r, strerror(-r), fifo_writes);
	return r == -EINTR && fifo_writes == 1 ? 0 : 1;
}

/* A reader that reads: the whole screen reaches it, and the stop signals are as they were (blocked, not
 * caught): a SIGINT now is pending for the loop's signalfd, not lost to a handler. */
static int fifo_read(const char *fifo)
{
	struct grid *g = screen(400, 300);
	size_t len;
	char *want = text_of(g, &len);
	pid_t reader = fork();
	if (reader == 0) {
		int fd = open(fifo, O_RDONLY);
		char *buf = malloc(len + 1);
		size_t got = 0;
		ssize_t n;
		while ((n = read(fd, buf + got, len + 1 - got)) > 0)
			got += (size_t)n;
		_exit(got == len && memcmp(buf, want, len) == 0 ? 0 : 1);
	}
	int r = kf_headless_dump_file(g, fifo);
	int st;
	waitpid(reader, &st, 0);
	struct sigaction sa;
	sigaction(SIGINT, NULL, &sa);
	raise(SIGINT);
	sigset_t pending;
	sigpending(&pending);
	grid_destroy(g);
	free(want);
	fprintf(stderr, "a reader: %d, the reader %s\n", r, WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "got it" : "did not");
	return r == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && sa.sa_handler == SIG_DFL &&
			       sigismember(&pending, SIGINT)
		       ? 0
		       : 1;
}

/* A file: a stop signal pending before the dump does not cut it (it waits its turn for the loop). */
static int file_with_signal_pending(const char *path)
{
	struct grid *g = screen(80, 24);
	size_t len;
	char *want = text_of(g, &len);
	raise(SIGTERM);
	int r = kf_headless_dump_file(g, path);
	char *got = calloc(1, len + 2);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(got, 1, len + 1, f) : 0;
	if (f)
		fclose(f);
	int ok = r == 0 && n == len && memcmp(got, want, len) == 0;
	grid_destroy(g);
	free(want);
	free(got);
	return ok ? 0 : 1;
}

static int full_disk(const char *path)
{
	struct grid *g = screen(400, 300);
	int r = kf_headless_dump_file(g, path);
	grid_destroy(g);
	return r == -ENOSPC ? 0 : 1;
}

int main(void)
{
	char dir[] = "/tmp/kf-dump-XXXXXX", fifo[64], file[64];
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(file, sizeof(file), "%s/screen.txt", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	CHECK(in_child("before open", signal_before_open, fifo) == 0,
	      "SIGINT just before the open that waits for a reader did not end the dump with EINTR");
	CHECK(in_child("before a write", signal_before_write, fifo) == 0,
	      "SIGINT just before a write the reader does not take did not end the dump with EINTR");
	CHECK(in_child("a reader", fifo_read, fifo) == 0, "the dump into a FIFO with a reader");
	CHECK(in_child("a file", file_with_signal_pending, file) == 0,
	      "the dump into a file with SIGTERM pending was not whole");
	CHECK(in_child("/dev/full", full_disk, "/dev/full") == 0, "the dump to /dev/full did not say ENOSPC");
	unlink(fifo);
	unlink(file);
	rmdir(dir);
	return failures ? 1 : 0;
}
