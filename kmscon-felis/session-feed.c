/* kmscon-felis/session-feed.c: see session-feed.h. */
#include "kmscon-felis/session-feed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/loop.h"
#include "pty/pty.h"

/* The longest feed: grid_feed_bounded stops after the sequence that spent the budget, except inside a run of the
 * parser's fast path (text, cursor moves, SGR, EL and ED, whose work per byte is small: ED counts a thirty-second of
 * its rows), which a slice ends. One read's worth (the line discipline hands out 4 KiB a read): text is fed in as
 * many grid_feed calls as before on a machine of several CPUs. 1 KiB cost the ascii flood 40 % in the default
 * (debugoptimized) build, where every feed of 64 bytes or more checks the screen's rows (GRID_TEXT_CHECK,
 * grid-hist.h): 6 us a feed at 212x82. */
#define FEED_SLICE_MAX 4096u

int kf_feed_init(struct kf_feed *f, struct grid *grid, uint64_t budget, bool profile)
{
	memset(f, 0, sizeof(*f));
	f->held = malloc(PTY_READ_CHUNK);
	if (!f->held)
		return -ENOMEM;
	f->grid = grid;
	f->budget = budget;
	f->profile = profile;
	f->whole_updates = true;
	return 0;
}

void kf_feed_finish(struct kf_feed *f)
{
	free(f->held);
	f->held = NULL;
	f->held_len = 0;
}

void kf_feed_begin(struct kf_feed *f)
{
	f->end = grid_work(f->grid) + f->budget;
	/* The last wake-up ended at an update's end, and the frame that was to show it is not taken yet (the grid still
	 * damaged: the frame loop had to dispatch the flip's event first, kf_output_claim_frame): this wake-up feeds
	 * nothing, so that the frame loop takes it at this iteration, whole. Once: then the feed goes on whatever. */
	f->update_end = f->update_end && !f->waited && f->whole_updates && grid_is_damaged(f->grid);
	f->waited = f->update_end;
}

static size_t feed_slice(struct kf_feed *f, const uint8_t *data, size_t len)
{
	if (!f->profile)
		return grid_feed_bounded(f->grid, data, len, f->end);
	uint64_t t0 = kf_loop_now_ns();
	const size_t n = grid_feed_bounded(f->grid, data, len, f->end);
	f->parse_ns += kf_loop_now_ns() - t0;
	return n;
}

/* Feeds data until the budget runs out (or an update's end ends the wake-up); returns the bytes fed. */
static size_t feed_bounded(struct kf_feed *f, const uint8_t *data, size_t len)
{
	size_t done = 0;
	while (done < len && !kf_feed_spent(f)) {
		const size_t k = len - done < FEED_SLICE_MAX ? len - done : FEED_SLICE_MAX;
		done += feed_slice(f, data + done, k);
	}
	return done;
}

/* The work budget only (the statistics' stops) */
static bool work_spent(const struct kf_feed *f)
{
	return grid_work(f->grid) >= f->end;
}

bool kf_feed_update_end(struct kf_feed *f)
{
	/* Otherwise (headless, a flip in flight, the frame paced off, a frame already claimed, the exit drain) the feed
	 * goes on: a stop would cost a loop iteration and show nothing */
	if (!f->whole_updates || !f->frame_ready || !f->frame_ready(f->frame_ud))
		return false;
	f->update_end = true;
	f->update_stops++;
	return true;
}

bool kf_feed_spent(const struct kf_feed *f)
{
	return work_spent(f) || f->update_end;
}

bool kf_feed_data(struct kf_feed *f, const uint8_t *data, size_t len)
{
	const size_t done = feed_bounded(f, data, len);
	if (done < len) {
		/* the caller's buffer is reused by the next read: keep the rest (len <= PTY_READ_CHUNK) */
		memcpy(f->held, data + done, len - done);
		f->held_off = 0;
		f->held_len = len - done;
	}
	const bool stop = done < len || kf_feed_spent(f);
	f->stops += stop && work_spent(f);
	return stop;
}

bool kf_feed_held(struct kf_feed *f)
{
	if (!f->held_len)
		return true;
	const size_t done = feed_bounded(f, f->held + f->held_off, f->held_len);
	f->held_off += done;
	f->held_len -= done;
	if (f->held_len && work_spent(f))
		f->stops++;
	return f->held_len == 0;
}
