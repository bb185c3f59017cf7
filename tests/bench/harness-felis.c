/* tests/bench/harness-felis.c: our core (vt/ + grid/) for bench-main.c. */
#include "bench.h"
#include "grid/grid.h"

static void *create(int cols, int rows, int sb)
{
	struct grid_config cfg = {.cols = cols, .rows = rows, .scrollback = (size_t)sb};
	return grid_create(&cfg, NULL, NULL);
}

static void feed(void *t, const uint8_t *d, size_t n)
{
	grid_feed(t, d, n);
}

static void destroy(void *t)
{
	grid_destroy(t);
}

const struct bench_harness bench_harness = {"kmscon-felis", create, feed, destroy};
