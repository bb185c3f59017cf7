/* tests/grid/test-style-sweep.c: the style collection's sweep and index rebuild (grid-style.c, sixteen ids at a
 * time) against what they must leave, computed here from the cells: after grid__collect, exactly the ids in a
 * cell (and the pen's and the erase style's when cached) are live, the count, the high-water mark and the
 * lowest free id agree, GRID_STYLE_NONE stays reserved, and the index holds each live style once, where a
 * probe from its hash finds it. Screens of fresh colours over random ranges of allocated but unused ids, up to
 * the last group of the table (the sweep's partial group next to GRID_STYLE_NONE). */
#include <stdint.h>

#include "harness.h"
#include "grid/grid-intern.h"
#include "grid/grid-internal.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	return t_rnd(&rng, n);
}

static uint8_t live[STYLE_MAX + 1];

/* Whether id is in the index at a place its hash's probe reaches (before an empty place); how often */
static int index_finds(const struct style_table *t, uint32_t id)
{
	uint64_t a, b;
	grid__style_key(&t->styles[id], &a, &b);
	const uint64_t m = grid__key_mix(grid__key_hash(a, b));
	const uint32_t mask = t->hash_cap - 1;
	int found = 0;
	for (uint32_t i = (uint32_t)m & mask, e; (e = t->hash[i]) != 0; i = (i + 1) & mask)
		found += e == (grid__key_tag(m) | id);
	return found;
}

/* Ids [from, to) taken as if by pens never printed: dead at the next collection */
static void take_unused(struct style_table *t, uint32_t from, uint32_t to, uint32_t salt)
{
	for (uint32_t id = from; id < to; id++) {
		if (t->used[id] || rnd(4) == 0)
			continue;
		t->used[id] = 1;
		t->count++;
		t->styles[id] = (struct grid_style){.fg = GRID_COLOR_RGB(id & 255, id >> 8, salt & 255), .bg = 0x02000001};
	}
	if (to > t->hw)
		t->hw = to;
}

static void check_after(struct t_term *tt, uint32_t old_hw, const char *what)
{
	struct grid *g = tt->g;
	struct style_table *t = &g->st;
	memset(live, 0, sizeof(live));
	live[0] = live[GRID_STYLE_NONE] = 1;
	for (int y = 0; y < g->rows; y++)
		for (int x = 0; x < g->cols; x++)
			live[grid_row(g, y)[x].style] = 1;
	if (!g->pen_dirty)
		live[g->pen_id] = 1;
	if (!g->erase_dirty)
		live[g->erase_id] = 1;
	uint32_t count = 0, hw = 1, first_dead = old_hw, wrong = 0, unindexed = 0;
	for (uint32_t id = 0; id <= STYLE_MAX; id++) {
		count += live[id];
		wrong += t->used[id] != live[id];
		if (live[id] && id != GRID_STYLE_NONE)
			hw = id + 1;
		if (!live[id] && id > 0 && id < first_dead)
			first_dead = id;
		if (id > 0 && id < GRID_STYLE_NONE)
			unindexed += index_finds(t, id) != live[id];
	}
	const uint32_t next_free = first_dead < hw ? first_dead : hw;
	CHECK(wrong == 0 && t->used[GRID_STYLE_NONE] == 1, "%s: %u ids marked wrong, NONE %u", what, wrong,
	      t->used[GRID_STYLE_NONE]);
	CHECK(t->count == count && t->hw == hw && t->next_free == next_free,
	      "%s: count %u (want %u), hw %u (%u), next_free %u (%u)", what, t->count, count, t->hw, hw, t->next_free,
	      next_free);
	CHECK(unindexed == 0, "%s: %u ids indexed wrong (not once when live, or when dead)", what, unindexed);
}

/* A screen of fresh colours (each write a new style), part of it overwritten by plain text, over random
 * ranges of unused ids, collected; then again, the ranges reaching the table's last ids. */
static void test_sweep_random(void)
{
	char what[64];
	for (int round = 0; round < 24; round++) {
		struct t_term *tt = t_new(64 + (int)rnd(160), 10 + (int)rnd(60), 0);
		struct grid *g = tt->g;
		const int cells = g->cols * g->rows;
		for (int pass = 0; pass < 3; pass++) {
			const int writes = (int)rnd((uint32_t)cells * 2);
			for (int i = 0; i < writes; i++) {
				const int c = (int)rnd((uint32_t)cells);
				t_feedf(tt, "\033[%d;%dH\033[38;2;%d;%d;%dm\033[48;5;%dm%c", 1 + c / g->cols, 1 + c % g->cols,
					(int)rnd(256), (int)rnd(256), round * 8 + pass, (int)rnd(256),
					"xyz"[rnd(3)]);
			}
			/* plain text over a band of rows: their styles die */
			t_feedf(tt, "\033[m\033[%dH\033[%dM", 1 + (int)rnd((uint32_t)g->rows), 1 + (int)rnd(8));
			if (rnd(2))
				t_feed(tt, "\033[31mq"); /* a pen and an erase style in use, cached or not */
			struct style_table *t = &g->st;
			/* unused ids above the used ones, sometimes up to the last group (GRID_STYLE_NONE's) */
			const uint32_t top = rnd(3) == 0 ? GRID_STYLE_NONE - rnd(40) : t->hw + rnd(5000);
			take_unused(t, 1, top > GRID_STYLE_NONE ? GRID_STYLE_NONE : top, (uint32_t)(round * 3 + pass));
			const uint32_t old_hw = t->hw;
			grid__collect(g);
			snprintf(what, sizeof(what), "round %d pass %d (%dx%d, hw %u)", round, pass, g->cols, g->rows,
				 old_hw);
			check_after(tt, old_hw, what);
		}
		t_free(tt);
	}
}

int main(void)
{
	test_sweep_random();
	return t_done("grid-style-sweep");
}
