/* kmscon-felis/session-feed.h: the child's output fed to the grid with a bound on the work of one wake-up, not
 * only on its bytes (session.c's read_output).
 *
 * A few bytes can cost a screenful or more (grid_work: REP, DECALN, the rectangle functions, DECRQCRA, RIS):
 * 256 KiB of "x ESC [ 65535 b" took 1.3 s to parse at 212x82, while keys, VT switches and frames waited. The
 * bytes are fed by grid_feed_bounded, which stops after the sequence that spent the budget (one sequence's work
 * past it at most: at 400x400 a 4 KiB slice of DECALN had been 90 ms, at 1000x1000 650 ms, when the budget was
 * looked at only between slices); the rest of the chunk is held here (at most one pty read's chunk,
 * PTY_READ_CHUNK) and fed first in the next wake-up: nothing lost, nothing reordered. Slices of at most
 * FEED_SLICE_MAX bytes end the runs of the parser's fast path, which the stop does not break (ED's small work).
 * The end of a synchronized update (DECRST 2026) ends the wake-up's feed as well when a frame could show it now
 * (grid_feed_bounded asks grid_callbacks.sync_end, which asks frame_ready, once per update's end; whole_updates):
 * the frame loop, which renders between two wake-ups, then sees the update whole; a drain that ended anywhere had
 * left it, under a flood of updates, inside the next one at almost every frame (held until the 150 ms timeout,
 * then torn). Only then: an iteration of the loop per update whatever the display (none headless, a flip in
 * flight) cost a flood of tiny updates 70-100 times its CPU (1 MB of "ESC[?2026h X ESC[?2026l": 62,000
 * wake-ups, 1.4 s), and frame_ready says yes at most once per frame.
 * Not a public module: session.c's, split out to keep that file's size. */
#ifndef KF_SESSION_FEED_H
#define KF_SESSION_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct grid;

struct kf_feed {
	struct grid *grid;
	uint8_t *held;            /* the rest of a chunk the budget stopped, PTY_READ_CHUNK bytes */
	size_t held_off, held_len;
	uint64_t budget;          /* grid_work per wake-up */
	uint64_t end;             /* grid_work at which this wake-up stops */
	bool whole_updates;       /* a synchronized update's end may stop the wake-up (true but in the exit drain) */
	/* Whether a frame could show the screen now (kf_session_callbacks.frame_ready, called with frame_ud); true
	 * makes the update that just ended end the wake-up. NULL (headless): never. */
	bool (*frame_ready)(void *ud);
	void *frame_ud;
	bool update_end;          /* an update's end ended this wake-up (or the last one: see kf_feed_begin) */
	bool waited;              /* this wake-up feeds nothing: it waits for that update's frame */
	uint64_t update_stops;    /* wake-ups an update's end ended */
	bool profile;             /* add grid_feed's time to parse_ns */
	uint64_t parse_ns;
	uint64_t stops;           /* wake-ups the budget ended */
};

/* grid is not owned and must outlive f. Returns 0 or -ENOMEM (the held buffer). */
int kf_feed_init(struct kf_feed *f, struct grid *grid, uint64_t budget, bool profile);
/* Frees the held buffer (what it still holds is dropped). Accepts a zeroed struct. */
void kf_feed_finish(struct kf_feed *f);
/* A new wake-up: the budget starts again. */
void kf_feed_begin(struct kf_feed *f);
/* Feeds data (at most PTY_READ_CHUNK bytes, while nothing is held) within the budget; what is left is copied
 * into the held buffer (data is not kept: the caller may reuse it). True when the budget ran out (the caller
 * stops reading). */
bool kf_feed_data(struct kf_feed *f, const uint8_t *data, size_t len);
/* Whether this wake-up's budget is spent, or a synchronized update's end ended it (the reading stops). */
bool kf_feed_spent(const struct kf_feed *f);
/* A synchronized update ended in a feed (grid_callbacks.sync_end): whether the wake-up ends right after it (a
 * frame could show it now: frame_ready said yes). */
bool kf_feed_update_end(struct kf_feed *f);
/* Feeds what is held within the budget. True when nothing is held any more. */
bool kf_feed_held(struct kf_feed *f);

#endif
