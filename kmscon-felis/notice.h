/* kmscon-felis/notice.h: how long a notice over the screen (a paste or keys refused while a program runs:
 * session.h's notice callback) stays, and how often its text may change, as the frame loop (output.c) decides
 * it; the clock is given by the caller, so tests need no waiting. The renderer draws it (kf_render_set_notice).
 *
 *  - It is shown at once and goes KF_NOTICE_SHOW_NS after the last time it was asked for: a refusal repeated (a
 *    user pasting again into a program that reads nothing) keeps it up, and it goes a few seconds after the
 *    refusals stop. Not at the next key: the keys are what is being refused, and the notice about them would
 *    go with the first of them.
 *  - The same text asked again changes nothing on the screen. A different text (another count of bytes, keys
 *    after a paste) replaces it at most once per KF_NOTICE_GAP_NS; asked sooner, the latest is kept and shown
 *    when that time has passed. A flood of refusals thus repaints the notice's row at most once a second.
 */
#ifndef KF_NOTICE_H
#define KF_NOTICE_H

#include <stdbool.h>
#include <stdint.h>

#define KF_NOTICE_SHOW_NS (5000ull * 1000000)
#define KF_NOTICE_GAP_NS (1000ull * 1000000)
/* Text longer than this is cut (the renderer cuts at KF_RENDER_NOTICE_MAX, which is more). */
#define KF_NOTICE_TEXT_MAX 160

struct kf_notice {
	bool on;                             /* text is shown */
	bool pending;                        /* next waits for the gap to pass */
	char text[KF_NOTICE_TEXT_MAX + 1];   /* shown */
	char next[KF_NOTICE_TEXT_MAX + 1];   /* asked during the gap: shown at changed_ns + KF_NOTICE_GAP_NS */
	uint64_t changed_ns;                 /* CLOCK_MONOTONIC when the shown text was set */
	uint64_t off_ns;                     /* when it goes */
};

enum kf_notice_change {
	KF_NOTICE_SAME = 0, /* nothing to draw */
	KF_NOTICE_TEXT,     /* n->text is the text to show now */
	KF_NOTICE_GONE,     /* remove it */
};

/* Nothing shown, no timer. */
void kf_notice_init(struct kf_notice *n);
/* text (not kept; cut at KF_NOTICE_TEXT_MAX bytes) asked for at now: KF_NOTICE_TEXT when the caller must show
 * n->text now, else KF_NOTICE_SAME (the same text, or a new one kept for later). */
enum kf_notice_change kf_notice_ask(struct kf_notice *n, const char *text, uint64_t now);
/* When the caller's timer must fire next; 0: none (nothing shown). */
uint64_t kf_notice_due(const struct kf_notice *n);
/* The caller's timer fired at now: KF_NOTICE_TEXT (a kept text is due), KF_NOTICE_GONE, or KF_NOTICE_SAME
 * (early: wait for kf_notice_due again). */
enum kf_notice_change kf_notice_expire(struct kf_notice *n, uint64_t now);

#endif
