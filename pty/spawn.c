/* pty/spawn.c: opening a master and starting the child on its slave. See pty.h. */
#include "pty/pty-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

extern char **environ;

void pty_env_free(char **env)
{
	if (!env)
		return;
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
}

/* Appends or replaces NAME=value. */
static int env_set(char ***env, size_t *n, const char *name, const char *value)
{
	size_t nl = strlen(name);
	char *s = malloc(nl + strlen(value) + 2);
	if (!s)
		return -ENOMEM;
	sprintf(s, "%s=%s", name, value);
	for (size_t i = 0; i < *n; i++) {
		if (!strncmp((*env)[i], name, nl) && (*env)[i][nl] == '=') {
			free((*env)[i]);
			(*env)[i] = s;
			return 0;
		}
	}
	char **ne = realloc(*env, (*n + 2) * sizeof(*ne));
	if (!ne) {
		free(s);
		return -ENOMEM;
	}
	ne[(*n)++] = s;
	ne[*n] = NULL;
	*env = ne;
	return 0;
}

static void env_unset(char **env, size_t *n, const char *name)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < *n; i++) {
		if (!strncmp(env[i], name, nl) && env[i][nl] == '=') {
			free(env[i]);
			memmove(&env[i], &env[i + 1], (*n - i) * sizeof(*env));
			(*n)--;
			return;
		}
	}
}

/* The child's environment, built before fork so that the child only calls async-signal-safe functions.
 * A clean environment keeps PATH (a fixed default, as login(1) resets it anyway) and the locale, which is
 * system configuration rather than anything of ours. */
char **pty_env_build(const struct pty_config *cfg)
{
	char **env = calloc(1, sizeof(*env));
	size_t n = 0;
	int r = 0;
	if (!env)
		return NULL;
	if (cfg->reset_env) {
		const char *lang = getenv("LANG");
		r |= env_set(&env, &n, "PATH", DEFAULT_PATH);
		if (lang)
			r |= env_set(&env, &n, "LANG", lang);
	} else {
		for (char **e = environ; e && *e && !r; e++) {
			const char *eq = strchr(*e, '=');
			if (!eq)
				continue;
			char name[256];
			size_t nl = (size_t)(eq - *e);
			if (nl == 0 || nl >= sizeof(name))
				continue;
			/* Our own service's variables must not leak into the login: systemd's notify socket,
			 * socket activation (LISTEN_FDS, _PID, _FDNAMES) and watchdog (WATCHDOG_USEC, _PID). */
			if ((nl == 13 && !strncmp(*e, "NOTIFY_SOCKET", nl)) || !strncmp(*e, "LISTEN_", 7) ||
			    !strncmp(*e, "WATCHDOG_", 9))
				continue;
			/* Nor the size of the terminal we were started from: COLUMNS and LINES override the window
			 * size (TIOCGWINSZ) in ncurses, readline and Python, and TERMCAP holds one too; a program drew
			 * at that size on a screen of another and ignored every resize (st and xterm drop them). */
			if ((nl == 7 && (!strncmp(*e, "COLUMNS", nl) || !strncmp(*e, "TERMCAP", nl))) ||
			    (nl == 5 && !strncmp(*e, "LINES", nl)))
				continue;
			memcpy(name, *e, nl);
			name[nl] = 0;
			r |= env_set(&env, &n, name, eq + 1);
		}
	}
	r |= env_set(&env, &n, "TERM", cfg->term ? cfg->term : "xterm-256color");
	if (!cfg->colorterm || cfg->colorterm[0])
		r |= env_set(&env, &n, "COLORTERM", cfg->colorterm ? cfg->colorterm : "truecolor");
	else
		env_unset(env, &n, "COLORTERM");
	if (cfg->seat)
		r |= env_set(&env, &n, "XDG_SEAT", cfg->seat);
	if (cfg->vtnr)
		r |= env_set(&env, &n, "XDG_VTNR", cfg->vtnr);
	if (r) {
		pty_env_free(env);
		return NULL;
	}
	return env;
}

int pty_open_master(char *slave, size_t slave_len)
{
	int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (grantpt(fd) < 0 || unlockpt(fd) < 0 || ptsname_r(fd, slave, slave_len) != 0) {
		int r = -errno;
		close(fd);
		return r ? r : -EIO;
	}
	/* O_NONBLOCK at open is honoured by Linux, but make sure on every libc. */
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		int r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

int pty_init_termios(int master, unsigned char erase)
{
	struct termios t;
	/* On Linux the master's termios requests act on the slave's settings, which the child then finds. */
	if (tcgetattr(master, &t) < 0)
		return -errno;
	/* What the terminal reads and sends is UTF-8: in canonical mode the line discipline then erases a whole
	 * character, not its last byte (the kernel's console sets it in UTF-8 mode, as do xterm and tmux). */
	t.c_iflag |= IUTF8;
	if (erase)
		t.c_cc[VERASE] = erase;
	if (tcsetattr(master, TCSANOW, &t) < 0)
		return -errno;
	return 0;
}

/* The descriptors /proc/self/fd lists from first on, but keep, closed; false when it cannot be read (no /proc),
 * with what was listed so far closed. getdents64 straight into the stack: nothing allocates between fork and
 * exec. The directory's offsets are descriptor numbers, so closing what one read returned skips nothing in the
 * next. */
/* A record of getdents64(2), as the kernel lays it out (struct linux_dirent64): libcs differ in whether and
 * under which feature macros they declare struct dirent64. */
struct kernel_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static bool close_listed(int first, int keep, long *calls)
{
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	++*calls;
	if (dir < 0)
		return false;
	_Alignas(struct kernel_dirent64) char buf[4096];
	long n;
	while (++*calls, (n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const struct kernel_dirent64 *e = (const struct kernel_dirent64 *)(buf + off);
			off += e->d_reclen;
			int fd = 0;
			const char *c = e->d_name;
			for (; *c >= '0' && *c <= '9' && fd < 0x7fffffff / 10; c++)
				fd = fd * 10 + (*c - '0');
			if (c == e->d_name || *c || fd < first || fd == keep || fd == dir)
				continue;
			close(fd);
			++*calls;
		}
	}
	close(dir);
	++*calls;
	return n == 0;
}

/* Without /proc: poll(2) marks each number of a block that is not open with POLLNVAL, so one call tells a
 * thousand apart and only the open ones are closed, where a close() for each number up to the limit would make
 * a million calls under a raised one. */
static void close_polled(int first, int keep, long *calls)
{
	struct rlimit lim;
	long max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 0x7fffffff ? (long)lim.rlim_cur : 65536;
	struct pollfd set[1024];
	for (long base = first; base < max; base += 1024) {
		int n = max - base < 1024 ? (int)(max - base) : 1024;
		for (int i = 0; i < n; i++)
			set[i] = (struct pollfd){.fd = (int)(base + i)};
		bool known = (++*calls, poll(set, (nfds_t)n, 0) >= 0);
		for (int i = 0; i < n; i++) {
			if (set[i].fd != keep && (!known || !(set[i].revents & POLLNVAL))) {
				close(set[i].fd);
				++*calls;
			}
		}
	}
}

long pty_close_from(int first, int keep, unsigned flags)
{
	long calls = 0;
#ifdef SYS_close_range
	if (!(flags & PTY_CLOSE_NO_RANGE)) {
		bool ok = keep <= first || (++calls, syscall(SYS_close_range, (unsigned)first, keep - 1u, 0) == 0);
		unsigned from = keep >= first ? (unsigned)keep + 1 : (unsigned)first;
		if (ok && (++calls, syscall(SYS_close_range, from, ~0u, 0) == 0))
			return calls;
	}
#endif
	if ((flags & PTY_CLOSE_NO_PROC) || !close_listed(first, keep, &calls))
		close_polled(first, keep, &calls);
	return calls;
}

/* The soft limit of descriptors this process was started with, given back to the children (set by
 * pty_raise_fd_limit, once, before any child). */
static struct rlimit child_nofile;
static bool child_nofile_set;

int pty_raise_fd_limit(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) < 0)
		return -errno;
	if (!child_nofile_set) {
		child_nofile = lim;
		child_nofile_set = true;
	}
	if (lim.rlim_cur >= lim.rlim_max)
		return 0;
	rlim_t from = lim.rlim_cur;
	lim.rlim_cur = lim.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &lim) < 0) {
		int err = errno;
		pty_log(7, "cannot raise the limit of open files: %s", strerror(err));
		return -err;
	}
	pty_log(7, "limit of open files raised from %llu to %llu (children get %llu)", (unsigned long long)from,
		(unsigned long long)lim.rlim_cur, (unsigned long long)child_nofile.rlim_cur);
	return 0;
}

/* What strerror(3) says of each errno below REASONS, made by the parent at its first spawn: strerror is not
 * async-signal-safe (glibc's waits for a setlocale in progress, in another thread, and so for ever in a child
 * forked meanwhile: tests/pty/test-pty-spawn-locked.c). This process never changes its locale, so once is enough. */
#define REASONS 256
static const char *reasons[REASONS];
static bool reasons_made;

static void reasons_make(void)
{
	if (reasons_made)
		return;
	for (int e = 1; e < REASONS; e++)
		reasons[e] = strdup(strerror(e)); /* NULL: the child says "Unknown error N" */
	reasons_made = true;
}

void pty_exec_free(struct pty_exec *x)
{
	if (x->paths)
		for (char **p = x->paths; *p; p++)
			free(*p);
	free(x->paths);
	free(x->sh_argv);
	x->paths = NULL;
	x->sh_argv = NULL;
}

/* The candidates execvp(3) tries, in its order: argv[0] when it has a '/', else each directory of the child's
 * PATH (glibc's "/bin:/usr/bin" without one; an empty one is the directory the child is in, "/"). */
int pty_exec_prepare(struct pty_exec *x, const char *const *argv, char **env)
{
	const char *file = argv[0], *path = "/bin:/usr/bin";
	size_t argc = 0, n = 1;

	reasons_make();
	*x = (struct pty_exec){.argv = argv, .env = env, .report = -1};
	while (argv[argc])
		argc++;
	for (char **e = env; *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	bool search = file[0] && !strchr(file, '/');
	for (const char *c = path; search && *c; c++)
		n += *c == ':';
	x->paths = calloc(n + 1, sizeof(*x->paths));
	x->sh_argv = calloc(argc + 2, sizeof(*x->sh_argv));
	if (!x->paths || !x->sh_argv)
		goto fail;
	x->sh_argv[0] = "/bin/sh";
	for (size_t i = 1; i < argc; i++)
		x->sh_argv[i + 1] = argv[i];
	if (!file[0])
		return 0; /* execvp's ENOENT: no candidate */
	if (!search) {
		x->paths[0] = strdup(file);
		return x->paths[0] ? 0 : (pty_exec_free(x), -ENOMEM);
	}
	size_t i = 0;
	for (const char *dir = path;; dir++) {
		const char *end = strchrnul(dir, ':');
		size_t dl = (size_t)(end - dir);
		char *p = malloc(dl + strlen(file) + 2);
		if (!p)
			goto fail;
		/* "dir/file", or "file" alone for an empty dir */
		sprintf(p, "%.*s%s%s", (int)dl, dir, dl ? "/" : "", file);
		x->paths[i++] = p;
		if (!*end)
			break;
		dir = end;
	}
	return 0;
fail:
	pty_exec_free(x);
	return -ENOMEM;
}

/* Writes s to stderr; async-signal-safe. */
static void say(const char *s)
{
	ssize_t w = write(2, s, strlen(s));
	(void)w;
}

__attribute__((noreturn)) static void child_fail(const char *what, const char *arg, int err)
{
	/* Runs between fork and exec: write(2) alone, the reason from the parent's table (reasons_make). */
	char unknown[32] = "Unknown error ", digits[12];
	const char *reason = err > 0 && err < REASONS ? reasons[err] : NULL;
	if (!reason) {
		size_t d = sizeof(digits);
		unsigned u = err < 0 ? -(unsigned)err : (unsigned)err;
		digits[--d] = 0;
		do
			digits[--d] = (char)('0' + u % 10);
		while ((u /= 10) && d > 1);
		if (err < 0)
			digits[--d] = '-';
		memcpy(unknown + 14, digits + d, sizeof(digits) - d);
		reason = unknown;
	}
	/* "\n": the terminal's ONLCR (on, as the kernel sets a new PTY) makes it "\r\n"; a "\r\n" came out "\r\r\n".
	 * Before the terminal is fds 0-2 (setsid, open, TIOCSCTTY failed) this goes to our own stderr, a file or the
	 * journal, where "\n" is right too. */
	const char *parts[] = {"kmscon-felis: ", what, arg ? " " : "", arg ? arg : "", ": ", reason, "\n"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		say(parts[i]);
	_exit(127);
}

/* execvp(3)'s search over the candidates the parent made (execvp itself reads the environment and may
 * allocate): a file without #! (ENOEXEC) run by /bin/sh; past a directory where it is missing or not
 * executable to the next; EACCES if it was found but never run. Returns the errno. */
static int exec_search(const struct pty_exec *x)
{
	bool eacces = false;
	int err = ENOENT;
	for (char **p = x->paths; *p; p++) {
		execve(*p, (char *const *)x->argv, x->env);
		err = errno;
		if (err == ENOEXEC) {
			x->sh_argv[1] = *p;
			execve(x->sh_argv[0], (char *const *)x->sh_argv, x->env);
			err = errno;
		}
		if (err == EACCES)
			eacces = true;
		else if (err != ENOENT && err != ESTALE && err != ENOTDIR && err != ENODEV && err != ETIMEDOUT)
			return err;
	}
	return eacces ? EACCES : err;
}

/* Runs in the child after fork: never returns. Async-signal-safe calls only (the program may have other threads,
 * whose locks stay taken in the child); everything else was made by the parent (pty_exec_prepare). */
void pty_child_exec(const char *slave, const struct pty_exec *x)
{
	int report = x->report;
	/* The handlers first, with the mask still ours: a signal sent to the child before this point (it is
	 * pending, blocked) would otherwise run our handler in the child at the unblocking
	 * (tests/pty/test-pty-exec-held.c). */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigset_t all;
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	if (setsid() < 0)
		child_fail("setsid", NULL, errno);
	int fd = open(slave, O_RDWR);
	if (fd < 0)
		child_fail("open", slave, errno);
	/* Opening the slave as a session leader already made it the controlling terminal on Linux; say so
	 * explicitly for the BSD semantics and to fail loudly if it did not happen. */
	if (ioctl(fd, TIOCSCTTY, 0) < 0)
		child_fail("TIOCSCTTY", slave, errno);
	/* The report pipe out of the way of the terminal's numbers first: in a program started with 0, 1 or 2
	 * closed, it can have one of them, and the dup2 below closed it (the errno went to the terminal as raw
	 * bytes, the log said nothing; tests/pty/test-pty-spawn.c). Without a number free above them, no report. */
	if (report >= 0 && report <= 2)
		report = fcntl(report, F_DUPFD_CLOEXEC, 3);
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		child_fail("dup2", slave, errno);
	pty_close_from(3, report, 0);
	/* After pty_close_from, whose poll(2) fallback must reach the descriptors above the original limit: the limit
	 * this process was started with, so that a program using select() (FD_SETSIZE, 1024) gets no
	 * descriptor it cannot watch. Lowering a soft limit cannot fail. */
	if (child_nofile_set)
		setrlimit(RLIMIT_NOFILE, &child_nofile);
	if (chdir("/") < 0)
		child_fail("chdir", "/", errno);
	environ = x->env;
	int err = exec_search(x);
	if (report >= 0) {
		ssize_t w = write(report, &err, sizeof(err));
		(void)w;
	}
	child_fail("cannot run", x->argv[0], err);
}
