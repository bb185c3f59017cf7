/* kmscon-felis/blink.c: see blink.h. */
#include "kmscon-felis/blink.h"

#include "grid/grid.h"

void kf_blink_init(struct kf_blink *b)
{
	*b = (struct kf_blink){.on = true};
}

bool kf_blink_update(struct kf_blink *b, bool needed, uint64_t now)
{
	bool was = b->on;

	if (needed == (b->due_ns != 0))
		return false;
	b->on = true;
	b->due_ns = b->flip_ns = needed ? now + KF_BLINK_ON_NS : 0;
	return !was;
}

bool kf_blink_reset(struct kf_blink *b, uint64_t now)
{
	if (!b->due_ns)
		return false;
	b->flip_ns = now + KF_BLINK_ON_NS;
	if (b->on)
		return false; /* due_ns stays: kf_blink_expire moves it on */
	b->on = true;
	b->due_ns = b->flip_ns;
	return true;
}

bool kf_blink_expire(struct kf_blink *b, uint64_t now)
{
	if (!b->due_ns)
		return false;
	if (now < b->flip_ns) {
		/* Early (a reset pushed the flip later) or a spurious wake-up. */
		b->due_ns = b->flip_ns;
		return false;
	}
	b->on = !b->on;
	/* From the intended flip time, not from now, so a late wake-up does not stretch the period; but never into
	 * the past after a long stall. */
	b->flip_ns += b->on ? KF_BLINK_ON_NS : KF_BLINK_OFF_NS;
	if (b->flip_ns <= now)
		b->flip_ns = now + (b->on ? KF_BLINK_ON_NS : KF_BLINK_OFF_NS);
	b->due_ns = b->flip_ns;
	return true;
}

bool kf_blink_row(const struct grid *g, int y)
{
	const struct grid_cell *row = grid_row(g, y);
	int cols = grid_cols(g);
	uint16_t last = 0; /* the default style never blinks */

	/* Runs of one style are the rule: one lookup per run. */
	for (int x = 0; x < cols; x++) {
		if (row[x].style == last)
			continue;
		last = row[x].style;
		const struct grid_style *st = grid_style(g, last);
		if (st && (st->attrs & GRID_ATTR_BLINK))
			return true;
	}
	return false;
}
