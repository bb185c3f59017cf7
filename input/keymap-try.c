/* input/keymap-try.c: a keymap file is compiled first in a child process with bounded memory and time.
 *
 * xkbcommon trusts a keymap file: it allocates every key up to the highest keycode the file declares, so
 * keycode 20000000 cost 1 GB and 9 s, 200000000 10 GB and 150 s, and 4294967294 made it abort() (1.5's
 * assertion in darray.h), taking the console with it: a typo or a hostile --xkb-keymap left the machine
 * without a console. The child gets INPUT_KEYMAP_TRY_MEM_MB more data memory (RLIMIT_DATA, not RLIMIT_AS:
 * under AddressSanitizer the address space is terabytes of shadow already) and INPUT_KEYMAP_TRY_MS. Only a
 * file the child compiled is compiled again in this process (about 10 ms for a real keymap). When the child
 * found the file wrong, its xkbcommon messages come back through a pipe (at most TRY_LOG_MAX bytes, so the
 * child never blocks on a full pipe) and are logged here: a keymap that failed for want of memory is not
 * compiled again without the bound. Nor is one whose keycodes go past INPUT_KEYCODE_MAX: it fitted the bounds, and
 * compiling it again here held the loop as long again (keycode 1,000,000: seconds) for keys no keyboard sends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "input/input-internal.h"

#define TRY_LOG_MAX 4096

/* The child's end of the pipe and what it wrote: the child's only state. */
static int try_log_fd = -1;
static size_t try_log_len;

/* In the child: one line per message, its priority first ("4syntax error"). */
static void try_log(struct xkb_context *ctx, enum xkb_log_level level, const char *fmt, va_list ap)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "%d", input_xkb_prio(level));

	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	line[strcspn(line, "\n")] = 0;
	size_t len = strlen(line);
	if (try_log_len + len + 1 > TRY_LOG_MAX)
		return;
	line[len++] = '\n';
	if (write(try_log_fd, line, len) == (ssize_t)len)
		try_log_len += len;
}

/* In the child: the pipe's end as descriptor 3, /dev/null as 0, 1 and 2, every other descriptor closed. A fork
 * without exec kept copies of all of ours (close-on-exec does nothing here) for as long as the child ran, up to
 * INPUT_KEYMAP_TRY_MS and for good when it is stuck reading a dead NFS mount: a console's PTY master among them,
 * so that a login whose terminal we closed saw its hang-up only once the child went
 * (tests/input/test-keymap-file.c), and the input devices, whose grabs and revocations go with the last copy.
 * 0 to 2 too: in a program started with them closed, they can be any of ours. Returns the pipe's end. */
static int child_fds(int log_fd)
{
	int fd = fcntl(log_fd, F_DUPFD, 3);
	int null = open("/dev/null", O_RDWR);

	/* (stderr to /dev/null also silences xkbcommon's assertion message: the parent says what went wrong) */
	for (int i = 0; i <= 2 && null >= 0; i++)
		dup2(null, i);
	if (fd < 0 || dup2(fd, 3) < 0)
		_exit(2); /* no verdict: the parent compiles the file itself, as without fork */
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4u, ~0u, 0u) == 0)
		return 3;
#endif
	/* Before Linux 5.9: those /proc lists (a close() for each number up to a raised limit is a million calls:
	 * docs/architecture.md, the table of bounds); without /proc, each number up to the limit. */
	DIR *d = opendir("/proc/self/fd");
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			int n = atoi(e->d_name);
			if (n > 3 && n != dirfd(d))
				close(n);
		}
		closedir(d);
		return 3;
	}
	for (long i = 4, max = sysconf(_SC_OPEN_MAX); i < max; i++)
		close((int)i);
	return 3;
}

/* This process's data memory in kB, which the child starts with (0 when unknown: no bound). Read before the fork,
 * so that the child makes no stdio calls of ours (see try_child). */
static unsigned long data_kb(void)
{
	char line[128];
	unsigned long kb = 0;
	FILE *st = fopen("/proc/self/status", "re");

	while (st && fgets(line, sizeof(line), st) && sscanf(line, "VmData: %lu kB", &kb) != 1)
		;
	if (st)
		fclose(st);
	return kb;
}

/* A fork without exec, made on the keymap's worker thread (keymap-async.c) while the loop's thread runs: unlike
 * pty/spawn.c's child, this one cannot keep to async-signal-safe calls, since compiling is xkbcommon's malloc,
 * stdio and string formatting (and our try_log's vsnprintf). It relies on what glibc's and musl's fork(2) make
 * safe in the child of a threaded process (malloc's arenas and the list of open FILEs, their locks taken
 * across the fork), and on the compile taking no lock the loop's thread may hold at the fork (localtime_r's
 * time zone in issue-expand.c, the resolver's for its \O): a lock another thread held stays taken for ever in
 * the child. Nothing here calls setlocale or textdomain, whose lock a strerror in a message would wait on
 * (tests/pty/test-pty-spawn-locked.c). A hang there anyway ends at INPUT_KEYMAP_TRY_MS with the file refused,
 * not the console stuck. Exec'ing a helper would lift this; what can be made before the fork is (the data
 * limit, data_kb). */
static void try_child(struct xkb_context *ctx, const char *path, int log_fd, unsigned long data_kb)
{
	log_fd = child_fds(log_fd);
	if (data_kb) {
		rlim_t lim = (rlim_t)data_kb * 1024 + ((rlim_t)INPUT_KEYMAP_TRY_MEM_MB << 20);
		setrlimit(RLIMIT_DATA, &(struct rlimit){lim, lim});
	}
	try_log_fd = log_fd;
	xkb_context_set_log_fn(ctx, try_log);
	FILE *f = fopen(path, "re");
	struct xkb_keymap *km = f ? xkb_keymap_new_from_file(ctx, f, XKB_KEYMAP_FORMAT_TEXT_V1,
							   XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	if (km && xkb_keymap_max_keycode(km) > INPUT_KEYCODE_MAX) {
		char line[160];
		int n = snprintf(line, sizeof(line), "4keymap file declares keycode %u, past the highest a key sends (%u)\n",
				 xkb_keymap_max_keycode(km), INPUT_KEYCODE_MAX);
		if (n > 0 && write(log_fd, line, (size_t)n) == n)
			try_log_len += (size_t)n;
		_exit(1);
	}
	_exit(km ? 0 : 1);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Logs what the child wrote (whole lines only). */
static void log_child_messages(int fd)
{
	char buf[TRY_LOG_MAX + 1];
	ssize_t n = read(fd, buf, TRY_LOG_MAX);

	buf[n > 0 ? n : 0] = 0;
	for (char *line = buf, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		if (line[0] >= '0' && line[0] <= '7')
			input_log(line[0] - '0', "xkbcommon: %s", line + 1);
	}
}

int input_try_keymap_file(struct xkb_context *ctx, const char *path)
{
	int st = 0, p[2];
	uint64_t end = mono_ms() + INPUT_KEYMAP_TRY_MS;

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0) {
		input_log(6, "pipe to try the keymap file: %s; compiling it here", strerror(errno));
		return 0;
	}
	unsigned long kb = data_kb();
	pid_t pid = fork();
	if (pid < 0) {
		input_log(6, "fork to try the keymap file: %s; compiling it here", strerror(errno));
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0)
		try_child(ctx, path, p[1], kb);
	close(p[1]);
	int r = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			goto out; /* reaped by someone else: no verdict, as without fork */
		if (mono_ms() >= end) {
			kill(pid, SIGKILL);
			/* Killed in user space it goes at once; reading a dead NFS mount it may not: not waited for. */
			for (end += 1000; waitpid(pid, NULL, WNOHANG) == 0 && mono_ms() < end;)
				nanosleep(&(struct timespec){0, 1000000}, NULL);
			r = -ETIMEDOUT;
			goto out;
		}
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 2) {
		input_log(6, "no descriptor for the child that tries the keymap file; compiling it here");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 1) {
		log_child_messages(p[0]);
		r = -EINVAL;
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		r = -ENOMEM;
	}
out:
	close(p[0]);
	return r;
}
