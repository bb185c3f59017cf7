/* tests/grid/bench-feed.c: feeds workload files (../shared/bench/gen-workloads.py) through grid_feed in
 * 64 KiB chunks on a 212x82 grid with 10000 lines of scrollback, and prints MB/s (median and best of REPS
 * runs, default 3, at most 64; each run on a fresh grid; SB sets the scrollback lines; CPU time of the
 * thread, so other load on the machine counts less). A benchmark, not a test: run it by hand or under
 * callgrind with REPS=1. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "grid/grid.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int reps = getenv("REPS") ? atoi(getenv("REPS")) : 3;
	if (reps < 1)
		reps = 1;
	if (reps > 64)
		reps = 64;
	size_t sb = getenv("SB") ? (size_t)atol(getenv("SB")) : 10000;
	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		if (!f || fseek(f, 0, SEEK_END) < 0) {
			perror(argv[a]);
			return 1;
		}
		long n = ftell(f);
		rewind(f);
		unsigned char *b = malloc((size_t)n);
		if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[a]);
			return 1;
		}
		fclose(f);
		double times[64];
		for (int r = 0; r < reps; r++) {
			struct grid_config cfg = {.cols = 212, .rows = 82, .scrollback = sb};
			struct grid *g = grid_create(&cfg, NULL, NULL);
			double t0 = now();
			for (long o = 0; o < n; o += 65536)
				grid_feed(g, b + o, (size_t)(n - o < 65536 ? n - o : 65536));
			double t = now() - t0;
			/* insertion sort: times[0..r] ascending */
			int k = r;
			for (; k > 0 && times[k - 1] > t; k--)
				times[k] = times[k - 1];
			times[k] = t;
			grid_destroy(g);
		}
		double med = times[reps / 2], best = times[0];
		printf("%-40s %8.1f MB/s median (%.2f ns/byte), best %.1f MB/s, of %d\n", argv[a],
		       (double)n / med / 1e6, med * 1e9 / (double)n, (double)n / best / 1e6, reps);
		free(b);
	}
	return 0;
}
