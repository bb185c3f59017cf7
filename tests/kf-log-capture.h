/* tests/kf-log-capture.h: a module log handler (input_set_log_handler, pty_set_log_handler: the same
 * signature) that keeps every message, one a line, up to the buffer, so that a test can look for a warning
 * among them. Clear with logbuf[0] = 0. Include once per test file. */
#ifndef KF_TESTS_LOG_CAPTURE_H
#define KF_TESTS_LOG_CAPTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char logbuf[16384];

static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	size_t n = strlen(logbuf);
	(void)prio, (void)file, (void)line;
	if (n + 2 < sizeof(logbuf)) {
		vsnprintf(logbuf + n, sizeof(logbuf) - n - 1, fmt, ap);
		strcat(logbuf, "\n");
	}
}

#endif
