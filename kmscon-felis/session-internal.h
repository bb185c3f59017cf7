/* kmscon-felis/session-internal.h: the session's state, shared by session.c (the child's lifecycle, its output)
 * and session-write.c (what goes to the child: keys, pastes, replies). Not part of session.h. */
#ifndef KF_SESSION_INTERNAL_H
#define KF_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/session-feed.h"
#include "kmscon-felis/session.h"

/* How far a paste may take the write queue beyond write-queue-size (pty_config.write_bulk_max, the queue's hard
 * bound): a whole clipboard with its bracketed-paste marks, whatever the queue's size (write-queue-size takes 4
 * KiB), and room for the keys typed after it (4 MiB + 12 bytes in all). */
#define PASTE_EXTRA (KF_CLIPBOARD_MAX + 12u + (64u << 10))
/* The most of the write queue that replies (DA, DSR, colour queries, focus reports) may hold: a quarter of it, and
 * never more than this, so that the user's keys always have the rest. They shared the queue's whole bound, and a
 * child that asks without reading (cat of a file full of ESC[5n) filled it with answers: every key, Ctrl+C too,
 * was refused until it read. A program that asks and then reads needs far less (the answers to all 256 OSC 4
 * colour queries are ~8 KiB); what passes the bound is dropped and counted, as xterm's answers to a child that
 * does not read are lost too. The answer to an OSC 52 query is not counted (session-write.c queue_reply). */
#define REPLY_QUEUE_MAX (64u << 10)

struct kf_session {
	struct kf_loop *loop;
	struct kf_session_config cfg;
	struct kf_session_callbacks cb;
	void *ud;

	struct grid *grid;
	struct pty *pty;
	struct kf_source *master; /* the PTY master; NULL once it hung up or between children */
	struct kf_source *pidfd;  /* NULL without a child or without pidfd support */
	struct kf_source *sigchld; /* fallback when the kernel has no pidfd_open */
	struct kf_timer *respawn;
	struct kf_timer *resume;  /* ends a read pause */
	bool paused;              /* the master is not watched for input until resume fires */
	/* The child's output fed within a work budget per wake-up (session-feed.h): while it holds bytes the
	 * master is not read (they come first) nor watched for input, and resume fires at the next iteration. */
	struct kf_feed feed;
	bool want_write;          /* the write queue is not empty: the master is watched for output */
	bool hung_up;             /* the last read found every slave descriptor closed: edge-triggered until a
				   * read finds the slave open again (read_output) */
	bool started; /* the first child was spawned */
	/* kf_session_set_backspace's value, pending until the next child (apply_backspace) */
	bool backspace_next;
	unsigned start_failures;  /* on_respawn's failed starts in a row, logged once per streak */
	unsigned quick_exits;     /* children in a row that exited soon after their start, logged once per streak */
	bool unfocused;           /* another VT is in front (kf_session_set_focus), for DECSET 1004's reports */
	unsigned dropped_replies; /* replies lost to a full queue, logged once per burst */
	unsigned dropped_keys;    /* kf_session_write calls refused by a full queue, logged once per burst */
	uint64_t exit_drops;      /* exit drains that the work bound cut short (child_exited) */
	/* What replies hold of the write queue (queue_reply): every byte the queue took from us since the start
	 * (those the child has been given are queued_total - pty_write_pending), queued_total after the last reply
	 * it took, and the reply bytes it took since it last held none (an upper bound of what it holds: it
	 * drops to 0 once the child has been given the last reply). */
	uint64_t queued_total, reply_end;
	size_t reply_queued;
	size_t reply_max;         /* REPLY_QUEUE_MAX, or a quarter of a smaller queue */
	/* The grid's next reply is its answer to an OSC 52 query: set by on_clipboard_get when it hands out the
	 * clipboard, cleared by the reply; and queued_total after the last such answer (queue_reply). */
	bool clip_answer;
	uint64_t clip_end;
	/* Set by show_issue while it feeds the banner to the grid (synchronously: nothing else runs meanwhile):
	 * the grid's replies and clipboard requests then come from the banner, not from the child. */
	bool in_banner;
	unsigned banner_replies, banner_clips; /* what in_banner dropped, logged once per banner (show_issue) */
	uint64_t wakeups;         /* read_output calls */
	uint64_t pauses;          /* read pauses started */
	uint64_t read_ns;         /* CLOCK_MONOTONIC time in read_output, parsing included */
	uint64_t read_cpu_ns;     /* read_ns in this thread's CPU time */
	struct kf_timer *trim;    /* gives the heap's free pages back once resizes settle (kf_session_resize) */
	uint64_t trims;
	/* The wake-up's last OSC 52 copy, handed to cb.clipboard at the wake-up's end or before a query (clip_flush):
	 * malloc'd while pending (at most the grid's decoded copy, 3/4 of the parser's string cap), else NULL. */
	uint8_t *clip;
	size_t clip_len;
	char clip_targets[16];
};

/* The grid's reply callback (session-write.c): a reply queued for the child within its bound (REPLY_QUEUE_MAX),
 * dropped and counted past it; dropped while the issue banner is fed (in_banner). ud is the session. */
void kf_session_reply(void *ud, const uint8_t *data, size_t len);
/* Logs how many replies and keys a full queue dropped since the last count, if any (the burst is over: the queue
 * took a write, or emptied). */
void kf_session_report_dropped(struct kf_session *s);

#endif
