/* tests/pty/pty-sink.h: what the pty tests that read a child's output share (test-pty.c, test-pty-queue.c):
 * a sink the output callback fills or compares against what is expected, and pump(), which services the pty
 * like the program's loop does. Include after pty-harness.h, once per test file. */
#ifndef KF_TESTS_PTY_SINK_H
#define KF_TESTS_PTY_SINK_H

#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

struct sink {
	char *data;
	size_t len, cap;
	const char *expect; /* when set, compare against it instead of keeping */
	size_t expect_len;
	bool mismatch;
};

static inline void on_output(void *ud, const uint8_t *data, size_t len)
{
	struct sink *s = ud;
	if (s->expect) {
		if (s->len + len > s->expect_len || memcmp(s->expect + s->len, data, len))
			s->mismatch = true;
		s->len += len;
		return;
	}
	if (s->len + len + 1 > s->cap) {
		s->cap = (s->len + len + 1) * 2;
		s->data = realloc(s->data, s->cap);
	}
	memcpy(s->data + s->len, data, len);
	s->len += len;
	s->data[s->len] = 0;
}

/* Services the pty like the program's loop does until the master hangs up, done() holds, or ms pass.
 * Returns the last pty_read() result. */
static inline int pump(struct pty *pty, int ms, bool (*done)(struct sink *), struct sink *s)
{
	uint64_t end = ms_now() + (uint64_t)ms;
	int r = 0;
	while (ms_now() < end) {
		if (done && done(s))
			return r;
		struct pollfd pfd = {.fd = pty_fd(pty), .events = POLLIN};
		if (pty_write_pending(pty))
			pfd.events |= POLLOUT;
		poll(&pfd, 1, 50);
		if (pfd.revents & POLLOUT)
			pty_flush(pty);
		if (pfd.revents & (POLLIN | POLLHUP)) {
			r = pty_read(pty, 256 << 10);
			if (r < 0)
				return r;
		}
	}
	return r;
}

static inline void make_raw(struct pty *pty)
{
	/* On Linux, termios ioctls on the master act on the slave's settings. */
	struct termios t;
	CHECK(tcgetattr(pty_fd(pty), &t) == 0);
	cfmakeraw(&t);
	CHECK(tcsetattr(pty_fd(pty), TCSANOW, &t) == 0);
}

/* pump()'s done() for a sink that compares: every expected byte came. */
static inline bool all_echoed(struct sink *s)
{
	return s->len >= s->expect_len;
}

#endif
