/* kmscon-felis/flash.h: how long the visual bell's flash (bell.h) stays on the display, as the frame loop
 * (output.c) decides it; the clock is given by the caller, so tests need no waiting.
 *
 * The bell asks for the flash on, then off KF_BELL_FLASH_NS (100 ms) later. But a frame shows it only when the
 * frame loop shows a frame, and under synchronized output (DECSET 2026) frames are held until the application
 * ends its update or 150 ms pass (output.c SYNC_TIMEOUT_NS): a flash asked on and off inside one hold was never
 * on the screen. The hold is kept (it spares the user the application's half-drawn screen, which a frame for
 * the flash would show, inverted); instead the flash lasts as long as it was asked for, counted from the first
 * frame that shows it:
 *  - asked off after a frame showed it: it goes off once it has been shown that long (a few ms after the ask
 *    without a hold, the frame being at most a refresh late);
 *  - asked off before any frame showed it, while a hold keeps frames back: it stays on, and the frame that
 *    shows it starts its time; if none comes (no display can take a frame) it goes off anyway once the hold's
 *    longest time and its own have passed;
 *  - asked off before any frame showed it and nothing holds frames back (no display, the VT away): at once, as
 *    asked, since there is nothing to wait for.
 */
#ifndef KF_FLASH_H
#define KF_FLASH_H

#include <stdbool.h>
#include <stdint.h>

struct kf_flash {
	bool on;           /* the renderer paints inverted */
	uint64_t asked_ns; /* CLOCK_MONOTONIC when it was asked on */
	uint64_t shown_ns; /* the first frame that showed it was presented then; 0: none yet */
	uint64_t len_ns;   /* asked off: how long it was asked on for; 0: not asked off yet */
	uint64_t due_ns;   /* asked off but still on: when it goes off (the caller's timer); 0: no timer */
};

/* Off, no timer. */
void kf_flash_init(struct kf_flash *f);
/* Asked on at now (again: its time starts over). */
void kf_flash_on(struct kf_flash *f, uint64_t now);
/* Asked off at now. hold_max_ns: the longest a hold in force now may keep frames back (0: no hold). Returns
 * true when it goes off now; false when it stays on until f->due_ns (kf_flash_shown may move it earlier or
 * later; kf_flash_expire then). Asked off again while it stays on: its time is the first off's. */
bool kf_flash_off(struct kf_flash *f, uint64_t now, uint64_t hold_max_ns);
/* A frame with the flash on was presented at now. Returns true when f->due_ns moved (the caller re-arms). */
bool kf_flash_shown(struct kf_flash *f, uint64_t now);
/* The caller's timer fired at now: true when the flash goes off now (else it waits for f->due_ns). */
bool kf_flash_expire(struct kf_flash *f, uint64_t now);

#endif
