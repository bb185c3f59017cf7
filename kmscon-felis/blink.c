/* kmscon-felis/blink.c: see blink.h. */
#include "kmscon-felis/blink.h"

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"

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

/* What the hidden phase of a style's cells hides (the renderer's paint.c hides a blinking cell's glyph and its
 * lines, nothing else): */
enum blink_kind {
	BLINK_NOTHING, /* no blink, or concealed text without lines: the same picture in both phases */
	BLINK_GLYPHS,  /* the glyphs: a blank shows nothing to hide */
	BLINK_ALWAYS,  /* its lines (underline, strikethrough, overline), whatever the cell holds */
};

static enum blink_kind blink_kind(const struct grid_style *st)
{
	if (!st || !(st->attrs & GRID_ATTR_BLINK))
		return BLINK_NOTHING;
	if (st->underline || (st->attrs & (GRID_ATTR_STRIKE | GRID_ATTR_OVERLINE)))
		return BLINK_ALWAYS;
	return st->attrs & GRID_ATTR_INVISIBLE ? BLINK_NOTHING : BLINK_GLYPHS;
}

bool kf_blink_row(const struct grid *g, int y)
{
	const struct grid_cell *row = grid_row(g, y);
	int cols = grid_cols(g);
	uint16_t last = 0; /* the default style never blinks */
	enum blink_kind kind = BLINK_NOTHING;

	/* Runs of one style are the rule: one lookup per run. Blanks in a blinking pen (a padded field) look the
	 * same in both phases: they kept the timer running, 2.2 wake-ups a second, for nothing. Blanks are what the
	 * renderer draws empty (kf_render_cp_blank: U+3000 and the other spaces too, which counted as blinking
	 * here before), so a cell taken not to blink never shows a change. */
	for (int x = 0; x < cols; x++) {
		if (row[x].style != last) {
			last = row[x].style;
			kind = blink_kind(grid_style(g, last));
			if (kind == BLINK_ALWAYS)
				return true;
		}
		if (kind == BLINK_GLYPHS && !kf_render_cp_blank(row[x].cp))
			return true;
	}
	return false;
}
