/* tests/kf-failalloc.h: allocation failures injected into a test executable, and a sweep over them.
 *
 * The executable is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=mmap,
 * --wrap=mmap64,--wrap=mremap,--wrap=munmap (and --wrap=asprintf where the code uses it), so that the calls
 * the statically linked libraries under test make come here first: the production code is not changed for
 * this. While fa_armed, every call counts; the fa_at-th fails (ENOMEM), and with fa_rest every one after it.
 * mmap'ed bytes are counted (fa_mapped) for a leak check of mappings, which LeakSanitizer does not see.
 *
 * fa_sweep runs a scenario once with memory to spare (how many calls it makes: total), then again in a
 * child process for each N in 1..total, failing the Nth call, then every call from the Nth: a crash is
 * counted, not fatal. A child is ok when it neither crashed (a signal, a sanitizer's report) nor leaked
 * (LeakSanitizer, in the ASan build) nor failed a check (the scenario's return). Included by one file of an
 * executable (the wrappers are its definitions).
 */
#ifndef KF_TESTS_FAILALLOC_H
#define KF_TESTS_FAILALLOC_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__real_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__real_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__real_mremap(void *old, size_t old_len, size_t len, int flags, ...);
int __real_munmap(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void *__wrap_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__wrap_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__wrap_mremap(void *old, size_t old_len, size_t len, int flags, ...);
int __wrap_munmap(void *p, size_t n);
int __wrap_asprintf(char **out, const char *fmt, ...);

/* LeakSanitizer's check, present in the ASan build only */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static bool fa_armed;           /* the allocation calls are counted, and fail as fa_at and fa_rest say */
static unsigned long fa_calls;  /* allocation calls counted while armed */
static unsigned long fa_at;     /* 1-based: the call that fails; 0 none */
static bool fa_rest;            /* and every call after it */
static unsigned long fa_failed; /* calls failed so far */
static long long fa_mapped;     /* bytes mapped by mmap and mremap less those munmap gave back */

/* Whether this allocation call fails */
static bool fa_inject(void)
{
	if (!fa_armed)
		return false;
	fa_calls++;
	if (fa_at && (fa_calls == fa_at || (fa_rest && fa_calls > fa_at))) {
		fa_failed++;
		return true;
	}
	return false;
}

void *__wrap_malloc(size_t n)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strdup(s);
}

void *__wrap_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	void *p = __real_mmap(a, n, prot, flags, fd, off);
	if (p != MAP_FAILED)
		fa_mapped += (long long)n;
	return p;
}

/* with _FILE_OFFSET_BITS=64 (meson's default) the grid's mmap calls are mmap64's */
void *__wrap_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	void *p = __real_mmap64(a, n, prot, flags, fd, off);
	if (p != MAP_FAILED)
		fa_mapped += (long long)n;
	return p;
}

/* The grid's mremap moves old's pages onto a block it mapped (MREMAP_FIXED), whose bytes are counted: the
 * old range goes away. Without MREMAP_FIXED it grows or shrinks in place or moves. */
void *__wrap_mremap(void *old, size_t old_len, size_t len, int flags, ...)
{
	void *to = NULL;
	if (flags & MREMAP_FIXED) {
		va_list ap;
		va_start(ap, flags);
		to = va_arg(ap, void *);
		va_end(ap);
	}
	if (fa_inject()) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	void *p = __real_mremap(old, old_len, len, flags, to);
	if (p != MAP_FAILED)
		fa_mapped += (flags & MREMAP_FIXED) ? -(long long)old_len : (long long)len - (long long)old_len;
	return p;
}

int __wrap_munmap(void *p, size_t n)
{
	int r = __real_munmap(p, n);
	if (r == 0)
		fa_mapped -= (long long)n;
	return r;
}

/* (the libc's vasprintf allocates inside libc, where no wrapper sees it: the whole call is one) */
int __wrap_asprintf(char **out, const char *fmt, ...)
{
	if (fa_inject()) {
		errno = ENOMEM;
		return -1;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

enum fa_outcome { FA_OK, FA_CRASHED, FA_LEAKED, FA_BROKE, FA_OUTCOMES };

/* One run in a child process: run returns how many of its checks failed */
static enum fa_outcome fa_child(int (*run)(void), unsigned long at, bool rest, bool verbose)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		if (!verbose) {
			int fd = open("/dev/null", O_WRONLY);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		fa_at = at;
		fa_rest = rest;
		int fails = run();
		if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check())
			_exit(FA_LEAKED);
		_exit(fails ? FA_BROKE : FA_OK);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		exit(1);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) >= FA_OUTCOMES)
		return FA_CRASHED;
	return (enum fa_outcome)WEXITSTATUS(st);
}

/* The sweep of scenario name (KF_FAILALLOC_VERBOSE=1 in the environment: each N not ok named, with its
 * output). Returns how many runs were not ok, -1 when the run with no failure was not. */
static long fa_sweep(const char *name, int (*run)(void))
{
	const bool verbose = getenv("KF_FAILALLOC_VERBOSE") != NULL;
	static const char *const names[] = {"ok", "crashed", "leaked", "broke a check"};
	fa_at = 0;
	if (run() != 0) {
		printf("%s: its checks fail with no allocation failing\n", name);
		return -1;
	}
	const unsigned long total = fa_calls;
	printf("%s: %lu allocation calls\n", name, total);
	long bad = 0;
	for (int rest = 0; rest < 2; rest++) {
		unsigned long count[FA_OUTCOMES] = {0};
		for (unsigned long at = 1; at <= total; at++) {
			enum fa_outcome o = fa_child(run, at, rest, verbose);
			count[o]++;
			if (o != FA_OK && verbose)
				fprintf(stderr, "%s, N=%lu%s: %s\n", name, at, rest ? " and after" : "", names[o]);
		}
		printf("  failing %s: %lu ok, %lu crashed, %lu leaked, %lu broke a check\n",
		       rest ? "every allocation from the Nth" : "the Nth allocation", count[FA_OK], count[FA_CRASHED],
		       count[FA_LEAKED], count[FA_BROKE]);
		bad += (long)(total - count[FA_OK]);
	}
	fflush(stdout);
	return bad;
}

#endif
