/* kmscon-felis/session-feed.c: see session-feed.h. */
#include "kmscon-felis/session-feed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/loop.h"
#include "pty/pty.h"

/* The largest slice: the work one slice can do past the budget is at most this many bytes at the densest
 * sequence's work per byte (REP: 65535 cells in 9 bytes, ~20 ms per 4 KiB at 212x82 on the development host),
 * once after a stretch of text (a slice that did work makes the next ones smaller). One read's worth (the line
 * discipline hands out 4 KiB a read): text is fed in as many grid_feed calls as before on a machine of several
 * CPUs. 1 KiB cost the ascii flood 40 % in the default (debugoptimized) build, where every feed of 64 bytes or
 * more checks the screen's rows (GRID_TEXT_CHECK, grid-hist.h): 6 us a feed at 212x82. */
#define FEED_SLICE_MAX 4096u
/* The smallest: about one of the densest sequences (REP is 9 bytes, DECRQCRA 8). */
#define FEED_SLICE_MIN 16u

int kf_feed_init(struct kf_feed *f, struct grid *grid, uint64_t budget, bool profile)
{
	memset(f, 0, sizeof(*f));
	f->held = malloc(PTY_READ_CHUNK);
	if (!f->held)
		return -ENOMEM;
	f->grid = grid;
	f->budget = budget;
	f->profile = profile;
	f->slice = FEED_SLICE_MAX;
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
}

static void feed_slice(struct kf_feed *f, const uint8_t *data, size_t len)
{
	if (!f->profile) {
		grid_feed(f->grid, data, len);
		return;
	}
	uint64_t t0 = kf_loop_now_ns();
	grid_feed(f->grid, data, len);
	f->parse_ns += kf_loop_now_ns() - t0;
}

/* Feeds data until the budget runs out; returns the bytes fed. */
static size_t feed_bounded(struct kf_feed *f, const uint8_t *data, size_t len)
{
	size_t done = 0;
	while (done < len) {
		const uint64_t w0 = grid_work(f->grid);
		if (w0 >= f->end)
			break;
		size_t k = len - done < f->slice ? len - done : f->slice;
		feed_slice(f, data + done, k);
		done += k;
		const uint64_t w = grid_work(f->grid) - w0;
		/* the next slice at this density: a quarter of the budget's work; twice as long after one that
		 * did none */
		uint64_t next = w ? (uint64_t)k * (f->budget / 4) / w : (uint64_t)f->slice * 2;
		f->slice = next > FEED_SLICE_MAX ? FEED_SLICE_MAX : next < FEED_SLICE_MIN ? FEED_SLICE_MIN : (size_t)next;
	}
	return done;
}

bool kf_feed_spent(const struct kf_feed *f)
{
	return grid_work(f->grid) >= f->end;
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
	f->stops += stop;
	return stop;
}

bool kf_feed_held(struct kf_feed *f)
{
	if (!f->held_len)
		return true;
	const size_t done = feed_bounded(f, f->held + f->held_off, f->held_len);
	f->held_off += done;
	f->held_len -= done;
	if (f->held_len)
		f->stops++;
	return f->held_len == 0;
}
