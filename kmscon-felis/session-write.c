/* kmscon-felis/session-write.c: what goes to the child (see session.h): keys, pastes and the grid's replies, in
 * one write queue (pty/), with what a full queue dropped counted and said. */
#define LOG_TAG "session"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/session-internal.h"
#include "kmscon-felis/session-paste.h"
#include "pty/pty.h"


/* How many replies and keys a full queue cost, once the burst is over (the queue took a write again, or
 * emptied): the warnings at its start said only that some were dropped, and a child that asks and does not
 * read (a program waiting on a DA answer that never comes), or a user who stopped typing, left no count. */
void kf_session_report_dropped(struct kf_session *s)
{
	if (s->dropped_replies)
		log_notice("write queue: %u replies to the child were dropped", s->dropped_replies);
	if (s->dropped_keys > 1) /* one is the warning's */
		log_notice("write queue: %u key writes were dropped", s->dropped_keys);
	s->dropped_replies = s->dropped_keys = 0;
}

/* A refusal the user caused and should see while a program runs (session.h, the notice callback): logged at
 * warning level and handed to the display, which draws it over the screen. Never fed to the grid: the program's
 * cursor, pen and parser state are its own (a line fed there moved its cursor, turned its reverse video off,
 * and vanished into a string it had left open). */
__attribute__((format(printf, 3, 4))) static void refusal_at(struct kf_session *s, int line, const char *fmt, ...)
{
	char text[KF_SESSION_NOTICE_MAX + 1];
	va_list ap;
	int n = snprintf(text, sizeof(text), "kmscon-felis: ");
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	kf_log_msg(KF_LOG_WARN, LOG_TAG, __FILE__, line, "%s", text + n); /* the caller's line */
	if (s->cb.notice)
		s->cb.notice(s->ud, text);
}
#define refusal(s, ...) refusal_at(s, __LINE__, __VA_ARGS__)

/* Everything for the child goes through here, in one queue (order kept), so that what replies hold of it is
 * known (queue_reply). */
static int queue_write(struct kf_session *s, const void *data, size_t len, bool bulk)
{
	int r = bulk ? pty_write_bulk(s->pty, data, len) : pty_write(s->pty, data, len);
	if (r == 0)
		s->queued_total += len;
	return r;
}

/* Bytes the write queue took from us that the child has been given, or that the queue dropped. */
static uint64_t queue_sent(const struct kf_session *s)
{
	return s->queued_total - pty_write_pending(s->pty);
}

/* A reply queued only while replies then hold at most reply_max of the queue (REPLY_QUEUE_MAX): -ENOBUFS past
 * it. The answer to an OSC 52 query (--clipboard-read: the clipboard in base64, up to megabytes) is not counted
 * there, as a paste is not: it goes within the queue's own bound, one at a time (a second one while the first
 * is still queued is dropped), so that a child asking for it again and again without reading cannot fill the
 * queue with copies. */
static int queue_reply(struct kf_session *s, const void *data, size_t len)
{
	const bool clip = s->clip_answer;
	s->clip_answer = false;
	if (queue_sent(s) >= s->reply_end)
		s->reply_queued = 0; /* the child was given the last reply */
	if (clip ? queue_sent(s) < s->clip_end : len > s->reply_max - s->reply_queued)
		return -ENOBUFS;
	int r = queue_write(s, data, len, false);
	if (r == 0 && clip) {
		s->clip_end = s->queued_total;
	} else if (r == 0) {
		s->reply_end = s->queued_total;
		s->reply_queued += len;
	}
	return r;
}

void kf_session_reply(void *ud, const uint8_t *data, size_t len)
{
	struct kf_session *s = ud;
	/* The answer to a query in the banner would reach the login as typed text ("^[[?62;22c" at login:): the
	 * child asked nothing. */
	if (s->in_banner) {
		s->banner_replies++;
		return;
	}
	int r = queue_reply(s, data, len);
	if (r == -ENOBUFS && s->dropped_replies++ == 0)
		log_warn("write queue full (replies: %zu bytes, at most %zu): dropping a %zu-byte reply to the child",
			 s->reply_queued, s->reply_max, len);
	else if (r == 0)
		kf_session_report_dropped(s);
}

/* ----------------------------------------------------------------------------------- towards the child */

int kf_session_write(struct kf_session *s, const void *data, size_t len)
{
	/* Logged here, once per burst, at a level shown by default: a key lost without a word looks like a
	 * broken keyboard, and one line per key would flood the journal while the child reads nothing. */
	int r = queue_write(s, data, len, false);
	if (r == -ENOBUFS && s->dropped_keys++ == 0)
		refusal(s, "write queue full (%zu bytes the program has not read): dropping keys until it reads",
			kf_session_write_pending(s));
	else if (r == 0)
		kf_session_report_dropped(s);
	return r;
}

size_t kf_session_write_room(const struct kf_session *s)
{
	if (pty_fd(s->pty) < 0)
		return 0;
	return pty_write_room(s->pty);
}

size_t kf_session_write_pending(const struct kf_session *s)
{
	return pty_write_pending(s->pty);
}

int kf_session_paste(struct kf_session *s, const void *data, size_t len)
{
	struct grid_modes m;
	grid_get_modes(s->grid, &m);
	size_t extra = m.bracketed_paste ? KF_PASTE_MARKS_LEN : 0;
	if (pty_fd(s->pty) < 0) {
		/* between a child's exit and the next (a back-off of up to 10 s): said, as any refused paste */
		refusal(s, "paste of %zu bytes refused: no program runs now (it is started again)", len);
		return -ENOTCONN;
	}
	/* A paste may take the write queue past write-queue-size, up to PASTE_EXTRA more (pty_write_bulk), and goes
	 * as the child reads: refused only when the queue would then pass that bound. */
	const size_t room = pty_write_bulk_room(s->pty);
	if (len > room || extra > room - len) { /* not len + extra > room: that sum can wrap */
		refusal(s, "paste of %zu bytes refused: the program has not read the %zu bytes before it yet", len,
			kf_session_write_pending(s));
		return -ENOBUFS;
	}
	uint8_t *buf;
	size_t n;
	if (kf_paste_build(pty_fd(s->pty), m.bracketed_paste, data, len, &buf, &n) < 0) {
		refusal(s, "paste of %zu bytes refused: out of memory", len);
		return -ENOMEM;
	}
	if (n > room) { /* invalid UTF-8 grows: each U+FFFD is three bytes */
		free(buf);
		refusal(s, "paste of %zu bytes refused: the program has not read the %zu bytes before it yet", len,
			kf_session_write_pending(s));
		return -ENOBUFS;
	}
	int r = queue_write(s, buf, n, true);
	if (r < 0)
		refusal(s, "paste of %zu bytes refused: %s", len, strerror(-r));
	free(buf);
	return r;
}

void kf_session_set_focus(struct kf_session *s, bool focused)
{
	struct grid_modes m;

	if (s->unfocused == !focused)
		return;
	s->unfocused = !focused;
	grid_get_modes(s->grid, &m);
	/* a report, queued as the terminal's other replies are */
	if (m.focus_events && pty_fd(s->pty) >= 0)
		kf_session_reply(s, (const uint8_t *)(focused ? "\033[I" : "\033[O"), 3);
}
