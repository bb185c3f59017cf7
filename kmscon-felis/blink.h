/* kmscon-felis/blink.h: the blink phase of SGR 5/6 text and blinking cursors (DECSCUSR 0/1/3/5, DECSET 12).
 *
 * One phase drives both, as the renderer has one (kf_render_set_blink): shown for KF_BLINK_ON_NS, hidden for
 * KF_BLINK_OFF_NS, xterm's cursorOnTime/cursorOffTime defaults (600/300 ms). The frame loop (output.c) owns
 * the timer; this is the decision logic, clock given by the caller so tests need no waiting:
 *  - the phase runs only while something that blinks is on the shown display (a visible blinking cursor, a
 *    cell with the blink attribute) and the display is lit (not blanked by DPMS, the VT not switched away);
 *    otherwise it stops, shown, so an idle console with a steady cursor has no timer and no wake-ups;
 *  - kf_blink_reset (typing, a blinking cursor that moved) shows the phase again and restarts its full shown
 *    time, as xterm and most terminals do, so the cursor never vanishes while one types. It re-arms nothing
 *    while the phase is shown: the timer fires at its old deadline and is moved to the new one then
 *    (kf_blink_expire), so output that moves the cursor on every read costs no timerfd syscall.
 */
#ifndef KF_BLINK_H
#define KF_BLINK_H

#include <stdbool.h>
#include <stdint.h>

struct grid;

#define KF_BLINK_ON_NS (600ull * 1000000)
#define KF_BLINK_OFF_NS (300ull * 1000000)

struct kf_blink {
	bool on;          /* the phase: true = blinking things are shown */
	uint64_t due_ns;  /* when the caller's timer must fire (CLOCK_MONOTONIC); 0 = stopped, no timer */
	uint64_t flip_ns; /* when the phase flips; later than due_ns after a reset while shown */
};

/* A stopped, shown phase. */
void kf_blink_init(struct kf_blink *b);
/* needed: something blinks on the lit display now. Starts the phase (shown, flip after KF_BLINK_ON_NS) or
 * stops it (shown, due_ns 0). Returns true when the phase changed (the caller repaints). */
bool kf_blink_update(struct kf_blink *b, bool needed, uint64_t now);
/* Typing, or a blinking cursor moved: shown, next flip KF_BLINK_ON_NS from now. Nothing while stopped. Returns
 * true when the phase changed. */
bool kf_blink_reset(struct kf_blink *b, uint64_t now);
/* The timer fired at now: flips the phase if its time has come and sets the next due_ns. Returns true when the
 * phase changed. */
bool kf_blink_expire(struct kf_blink *b, uint64_t now);

/* Whether row y of what g displays has a cell that the blink shows and hides: the blink attribute on a glyph (not a
 * plain blank, not concealed) or with a line (underline, strikethrough, overline). Does not take ownership of g. */
bool kf_blink_row(const struct grid *g, int y);

#endif
