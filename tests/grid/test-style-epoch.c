/* tests/grid/test-style-epoch.c: the style cache (grid-internal.h, grid__cache_hit) outlives a collection
 * (grid__collect no longer clears it): an entry made before a collection must then miss, because the
 * collection may have freed its id and a later style taken it. A small pool of colours printed over and over
 * (their entries stay in the cache), the screen erased (the pool's ids die), a collection, then fresh colours
 * (which take the freed ids) and the pool again: each cell must look as in a grid fed the same bytes without
 * the explicit collections. Without the epoch in the check, pool colours hit their stale entries and show a
 * fresh colour's look. */
#include <stdint.h>

#include "harness.h"
#include "grid/grid-internal.h"

static uint64_t rng = 0x853c49e6748fea9bull;

static uint32_t rnd(uint32_t n)
{
	return t_rnd(&rng, n);
}

static void feed2(struct t_term *a, struct t_term *b, const char *s)
{
	t_feed(a, s);
	t_feed(b, s);
}

static void test_epoch(int cols, int rows, int pool_n, int rounds, uint32_t seed)
{
	rng ^= seed * 0x9e3779b97f4a7c15ull;
	struct t_term *ta = t_new(cols, rows, 0), *tb = t_new(cols, rows, 0);
	uint32_t pool[64];
	for (int i = 0; i < pool_n; i++)
		pool[i] = rnd(1u << 24);
	char buf[256];
	uint32_t fresh = 1;
	size_t diff = 0, cells = 0;
	for (int round = 0; round < rounds; round++) {
		/* the pool (and the erase style of its backgrounds, grid-edit.c) fill the cache */
		for (int i = 0; i < cols * rows / 2; i++) {
			const uint32_t c = pool[rnd((uint32_t)pool_n)];
			snprintf(buf, sizeof(buf), "\033[%u;%uH\033[0;38;2;%u;%u;%u;48;5;%u%sm%c", 1 + rnd((uint32_t)rows),
				 1 + rnd((uint32_t)cols), c >> 16, c >> 8 & 255, c & 255, c & 15, rnd(2) ? ";1" : "",
				 'a' + (int)rnd(26));
			feed2(ta, tb, buf);
		}
		/* all dead but a few cells; the pen is the default style */
		feed2(ta, tb, "\033[m\033[2J");
		grid__collect(ta->g);
		/* fresh colours take the freed ids, then the pool again */
		for (int i = 0; i < pool_n * 2; i++, fresh++) {
			snprintf(buf, sizeof(buf), "\033[%u;%uH\033[0;38;2;%u;%u;%um%c", 1 + rnd((uint32_t)rows),
				 1 + rnd((uint32_t)cols), 255 - (seed & 255), fresh >> 8 & 255, fresh & 255, 'A' + i % 26);
			feed2(ta, tb, buf);
			const uint32_t c = pool[rnd((uint32_t)pool_n)];
			snprintf(buf, sizeof(buf), "\033[%u;%uH\033[0;38;2;%u;%u;%u;48;5;%u%sm%c\033[K",
				 1 + rnd((uint32_t)rows), 1 + rnd((uint32_t)cols), c >> 16, c >> 8 & 255, c & 255,
				 c & 15, rnd(2) ? ";1" : "", 'a' + (int)rnd(26));
			feed2(ta, tb, buf);
		}
		for (int y = 0; y < rows; y++) {
			const struct grid_cell *ra = grid_row(ta->g, y), *rb = grid_row(tb->g, y);
			for (int x = 0; x < cols; x++, cells++)
				diff += ra[x].cp != rb[x].cp || !t_same_style(ta->g, &ra[x], tb->g, &rb[x]);
		}
	}
	CHECK(diff == 0, "%dx%d pool %d: %zu of %zu cells differ from the grid without collections", cols, rows,
	      pool_n, diff, cells);
	t_free(ta);
	t_free(tb);
}

int main(void)
{
	test_epoch(40, 12, 8, 300, 1); /* past 256 collections: the generation wraps, the cache is cleared */
	test_epoch(80, 24, 32, 40, 2);
	test_epoch(132, 43, 64, 40, 3);
	return t_done("grid-style-epoch");
}
