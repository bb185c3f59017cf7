/* tests/kmscon-felis/test-seat-log.c: libseat's messages follow the log level in force, also after a reload
 * changed it (kmscon-felis/seat.c).
 *
 * libseat filters its messages itself by the level it was given, once, when the seat opens: a reload to debug
 * never saw libseat's debug lines. There is no seat here (and libseat's builtin backend, the one backend that
 * writes debug lines without a seat manager, takes over the VT as root), so libseat's two setters are replaced
 * by this file's (the program's own definitions win over the shared library's): they record the handler and
 * level seat.c gives, and libseat_says() delivers a message as libseat does, only at or below that level. The
 * seat itself fails to open (LIBSEAT_BACKEND names no backend), after seat.c set both. */
#include <errno.h>
#include <libseat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/seat.h"
#include "../kf-capture.h"
#include "../kf-check.h"

static int failures;

static libseat_log_func handler;
static enum libseat_log_level given = LIBSEAT_LOG_LEVEL_SILENT;

void libseat_set_log_handler(libseat_log_func h)
{
	handler = h;
}

void libseat_set_log_level(enum libseat_log_level level)
{
	given = level;
}

/* What libseat's log.c does with a message: dropped above the level it was given. */
static void libseat_says(enum libseat_log_level level, const char *fmt, ...)
{
	va_list ap;
	if (!handler || level > given)
		return;
	va_start(ap, fmt);
	handler(level, fmt, ap);
	va_end(ap);
}

static void nothing(void *ud)
{
	(void)ud;
}

int main(void)
{
	struct kf_loop *loop = kf_loop_create();
	struct kf_seat_config cfg = {0};
	struct kf_seat_iface iface = {.enable = nothing, .disable = nothing};
	struct kf_seat *seat;

	kf_log_init();
	kf_log_set_level(KF_LOG_NOTICE); /* as at start without --debug */
	setenv("LIBSEAT_BACKEND", "kf-test-no-such-backend", 1);
	capture_begin();
	int r = kf_seat_create(loop, &cfg, &iface, NULL, &seat);
	capture_end();
	CHECK(r < 0 && handler, "no seat here (%d), the handler set: %d", r, handler != NULL);

	/* a reload to debug: libseat's debug lines now show */
	kf_log_set_level(KF_LOG_DEBUG);
	capture_begin();
	libseat_says(LIBSEAT_LOG_LEVEL_DEBUG, "[seatd/seat.c:%d] debug line", 1);
	const char *log = capture_end();
	CHECK(strstr(log, "debug line") && strstr(log, "libseat"), "debug after a reload to debug: log '%s'", log);

	/* and back to notice: not the debug or info lines, still the errors */
	kf_log_set_level(KF_LOG_NOTICE);
	capture_begin();
	libseat_says(LIBSEAT_LOG_LEVEL_DEBUG, "debug again");
	libseat_says(LIBSEAT_LOG_LEVEL_INFO, "info line");
	libseat_says(LIBSEAT_LOG_LEVEL_ERROR, "error line");
	log = capture_end();
	CHECK(!strstr(log, "debug again") && !strstr(log, "info line") && strstr(log, "error line"),
	      "at notice: only the error, log '%s'", log);
	kf_loop_destroy(loop);
	return failures ? 1 : 0;
}
