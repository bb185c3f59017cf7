/* kmscon-felis/log.c: see log.h. */
#include "kmscon-felis/log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static enum kf_log_level max_level = KF_LOG_NOTICE;
static bool journal;
static long long main_us; /* CLOCK_MONOTONIC at kf_log_init */
static bool phases_done;

static long long monotonic_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void kf_log_set_level(enum kf_log_level level)
{
	max_level = level;
}

enum kf_log_level kf_log_get_level(void)
{
	return max_level;
}

void kf_log_init(void)
{
	/* systemd sets JOURNAL_STREAM=dev:ino of the stream it connected; only trust it if stderr is still that
	 * stream (a child's redirect would otherwise inherit the prefixes). */
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	journal = false;
	main_us = monotonic_us();
	if (js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0)
		journal = (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void kf_log_vmsg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt,
		 va_list ap)
{
	if (level > max_level)
		return;
	int saved = errno;
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	static const char *const names[] = {"", "", "", "error", "warning", "notice", "info", "debug"};
	if (journal) {
		fprintf(stderr, "<%d>[%s:%d] %s: %s\n", (int)level, base, line, tag, buf);
	} else if (max_level >= KF_LOG_DEBUG) {
		/* Debug logs of two instances (a VT switch) are read side by side: CLOCK_MONOTONIC, as the
		 * kernel's and libinput's event times. */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "%lld.%06ld %s: %s: [%s:%d] %s\n", (long long)ts.tv_sec, ts.tv_nsec / 1000, tag,
			names[level], base, line, buf);
	} else
		fprintf(stderr, "%s: %s: [%s:%d] %s\n", tag, names[level], base, line, buf);
	errno = saved;
}

void kf_log_msg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_log_vmsg(level, tag, file, line, fmt, ap);
	va_end(ap);
}

void kf_log_phase(const char *what)
{
	if (phases_done || max_level < KF_LOG_DEBUG)
		return;
	long long t = monotonic_us(), d = t - main_us;
	kf_log_msg(KF_LOG_DEBUG, "startup", __FILE__, __LINE__, "%s at %lld.%03lld ms (+%lld.%03lld ms since main)",
		   what, t / 1000, t % 1000, d / 1000, d % 1000);
}

void kf_log_phase_end(void)
{
	phases_done = true;
}
