/* tests/bench/bench-main.c: feeds a workload file to one terminal core (bench.h) and reports either MB/s
 * (--time: the median of --runs runs, 5 by default, each on a fresh terminal, after --warmup untimed ones)
 * or, for callgrind, one pass over a slice (--slice BYTES) inside feed_all(), which run-core-bench counts
 * with --toggle-collect=feed_all. run-core-bench runs each peer one timed run at a time, alternating them,
 * so that the host's drift (a shared, noisy machine) reaches every peer alike; the untimed warm-up gives
 * that lone run the warm allocator and caches the later runs of a series have.
 *
 * --min-time S feeds the file again, to the same terminal, until the run has taken at least S seconds:
 * the rate of a long-lived terminal, whose later passes find the history full (10,000 lines whose styles
 * every collection of the style table marks), not of a fresh one. On csi ours is ~11 % slower so
 * (callgrind: the second pass of the 16 MB file +3.7 % instructions, mark_screen 3.2x); libtsm's rate
 * does not move. The figure is the fresh run's; this one is for comparison.
 *
 * usage: bench-X --cols C --rows R --scrollback N (--time [--runs N] [--warmup N] [--min-time S] |
 *        --slice BYTES) FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define CHUNK 65536 /* what the terminal reads from its PTY at a time */
#define RUNS_MAX 64
/* A timed run stops after this long even if the file is not done (the slow peers take minutes). */
#define RUN_BUDGET_S 2.0

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Feeds [0, len) in CHUNK pieces; stops early when the budget is spent (budget 0: never). Returns the
 * number of bytes fed. Not inlined: callgrind counts exactly this function. */
__attribute__((noinline)) size_t feed_all(void *t, const uint8_t *d, size_t len, double budget);
__attribute__((noinline)) size_t feed_all(void *t, const uint8_t *d, size_t len, double budget)
{
	double t0 = budget > 0 ? now() : 0;
	size_t i = 0;
	while (i < len) {
		size_t n = len - i < CHUNK ? len - i : CHUNK;
		bench_harness.feed(t, d + i, n);
		i += n;
		if (budget > 0 && (i & (CHUNK * 16 - 1)) == 0 && now() - t0 > budget)
			break;
	}
	return i;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cols = 212, rows = 82, sb = 10000;
	size_t slice = 0;
	int timed = 0, runs = 5, warmup = 0;
	double min_time = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cols") && i + 1 < argc)
			cols = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--rows") && i + 1 < argc)
			rows = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--scrollback") && i + 1 < argc)
			sb = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--slice") && i + 1 < argc)
			slice = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--time"))
			timed = 1;
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
			warmup = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--min-time") && i + 1 < argc)
			min_time = atof(argv[++i]);
		else
			path = argv[i];
	}
	if (!path || (!timed && !slice) || runs < 1 || runs > RUNS_MAX || warmup < 0 || warmup > RUNS_MAX ||
	    !(min_time >= 0 && min_time < RUN_BUDGET_S)) {
		fprintf(stderr,
			"usage: %s [--cols C] [--rows R] [--scrollback N] (--time [--runs 1..%d] [--warmup 0..%d] "
			"[--min-time 0..2] | --slice BYTES) FILE\n",
			argv[0], RUNS_MAX, RUNS_MAX);
		return 2;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	size_t len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *d = malloc(len ? len : 1);
	if (!d || fread(d, 1, len, f) != len) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 1;
	}
	fclose(f);

	if (!timed) {
		void *t = bench_harness.create(cols, rows, sb);
		if (!t)
			return 1;
		size_t n = feed_all(t, d, slice < len ? slice : len, 0);
		bench_harness.destroy(t);
		printf("%s fed %zu bytes\n", bench_harness.name, n);
		free(d);
		return 0;
	}
	double mbs[RUNS_MAX];
	for (int r = -warmup; r < runs; r++) {
		void *t = bench_harness.create(cols, rows, sb);
		if (!t)
			return 1;
		double t0 = now(), dt = 0;
		size_t n = 0;
		do {
			double left = RUN_BUDGET_S - (now() - t0);
			if (left <= 0)
				break;
			size_t k = feed_all(t, d, len, left);
			n += k;
			dt = now() - t0;
			if (k < len)
				break; /* the budget ran out inside the file */
		} while (dt < min_time);
		bench_harness.destroy(t);
		if (r >= 0)
			mbs[r] = (double)n / dt / 1e6;
	}
	qsort(mbs, (size_t)runs, sizeof(mbs[0]), cmp_double);
	/* the median; of an even count, the mean of the middle two */
	printf("%.2f\n", runs % 2 ? mbs[runs / 2] : (mbs[runs / 2 - 1] + mbs[runs / 2]) / 2);
	free(d);
	return 0;
}
