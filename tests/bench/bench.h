/* tests/bench/bench.h: one terminal core under measurement. bench-main.c drives it; each harness file
 * (ours, libtsm, libvterm) fills this in. Not a test: see tests/bench/run-core-bench. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

struct bench_harness {
	const char *name;
	/* A terminal of cols x rows with sb lines of scrollback, in its power-on state; NULL on failure. */
	void *(*create)(int cols, int rows, int sb);
	/* Bytes as read from a PTY (the harness may be handed any split). */
	void (*feed)(void *t, const uint8_t *data, size_t len);
	void (*destroy)(void *t);
};

extern const struct bench_harness bench_harness;

#endif
