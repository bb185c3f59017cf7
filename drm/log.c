/* drm/log.c: the log handler the program gives drm/, and a rate limit for messages that can repeat per frame. */
#include <stdio.h>
#include <time.h>

#include "drm/drm-internal.h"

static void (*log_handler)(int prio, const char *file, int line, const char *fmt, va_list ap);

void drm_set_log_handler(void (*handler)(int prio, const char *file, int line, const char *fmt, va_list ap))
{
	log_handler = handler;
}

void drm_log_at(int prio, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (!log_handler)
		return;
	va_start(ap, fmt);
	log_handler(prio, file, line, fmt, ap);
	va_end(ap);
}

int64_t drm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool drm_ratelimit_pass(struct drm_ratelimit *rl, int64_t now_ns)
{
	if (rl->interval_ns == 0) {
		rl->interval_ns = 10 * 1000000000LL;
		rl->burst = 5;
	}
	if (rl->start_ns == 0 || now_ns - rl->start_ns >= rl->interval_ns) {
		if (rl->suppressed)
			drm_warn("%u similar messages suppressed", rl->suppressed);
		rl->start_ns = now_ns;
		rl->count = 0;
		rl->suppressed = 0;
	}
	if (rl->count < rl->burst) {
		rl->count++;
		return true;
	}
	rl->suppressed++;
	return false;
}
