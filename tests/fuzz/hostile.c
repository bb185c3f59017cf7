/* tests/fuzz/hostile.c: hostile input against the terminal core, each scenario in its own child process
 * with a time limit, reporting the child's peak RSS. Prints "PASS name (peak RSS N MiB, T s)" or
 * "FAIL name (...)" per scenario (the format of a tests/run-all stage); exits 1 if any failed.
 *
 * The bound: peak RSS of a scenario stays under LIMIT_MIB. The grid itself is allowed what its
 * configuration says (a 1000x1000 screen with scrollback is tens of MiB); what must not happen is growth
 * with the size of the input. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grid/grid.h"

#define LIMIT_MIB 256
#define TIME_LIMIT_S 60

static uint8_t chunk[65536];

static struct grid *make(int cols, int rows, size_t sb)
{
	struct grid_config cfg = {.cols = cols, .rows = rows, .scrollback = sb};
	struct grid *g = grid_create(&cfg, NULL, NULL);
	if (!g)
		exit(3);
	return g;
}

static void feed_str(struct grid *g, const char *s)
{
	grid_feed(g, (const uint8_t *)s, strlen(s));
}

/* Feeds total bytes made of unit repeated. */
static void feed_repeat(struct grid *g, const char *unit, size_t total)
{
	size_t ul = strlen(unit), fill = sizeof(chunk) - sizeof(chunk) % ul;
	for (size_t i = 0; i < fill; i++)
		chunk[i] = (uint8_t)unit[i % ul];
	for (size_t done = 0; done < total; done += fill)
		grid_feed(g, chunk, fill);
}

static void many_params(void)
{
	struct grid *g = make(80, 24, 1000);
	for (int i = 0; i < 10; i++) {
		feed_str(g, "\x1b[");
		feed_repeat(g, "1;", 2000000); /* 10^6 parameters */
		feed_str(g, "m");
		feed_str(g, "\x1b[38:2:");
		feed_repeat(g, "9:", 2000000);
		feed_str(g, "mx");
	}
	grid_destroy(g);
}

static void endless_osc(void)
{
	struct grid *g = make(80, 24, 1000);
	feed_str(g, "\x1b]0;");
	feed_repeat(g, "title", 512u << 20); /* 512 MiB, never terminated */
	feed_str(g, "\x07" "\x1bP1$q");
	feed_repeat(g, "m", 256u << 20);
	feed_str(g, "\x1b\\" "\x1b_");
	feed_repeat(g, "G", 256u << 20);
	/* DECRSPS (grid-pres.c) read in place: endless digits and stops, within the string cap and past it */
	feed_str(g, "\x1b\\" "\x1bP1$t");
	feed_repeat(g, "9", 1u << 20);
	feed_str(g, "\x1b\\" "\x1bP2$t");
	feed_repeat(g, "1/", 1000000); /* 10^6 bytes: inside the cap */
	feed_str(g, "\x1b\\" "\x1bP2$t");
	feed_repeat(g, "7/", 64u << 20);
	grid_destroy(g);
}

static void rep_huge(void)
{
	struct grid *g = make(200, 60, 10000);
	for (int i = 0; i < 100; i++)
		feed_str(g, "x\x1b[2147483648b\x1b[99999999999b\x1b[2147483647b");
	grid_destroy(g);
}

static void resize_extremes(void)
{
	struct grid *g = make(80, 24, 10000);
	for (int i = 0; i < 20; i++) {
		feed_repeat(g, "hello wide \xe4\xb8\xad combining e\xcc\x81 \x1b[1;31mred\x1b[0m ", 200000);
		if (grid_resize(g, 1, 1) != 0)
			exit(4);
		feed_str(g, "\xe4\xb8\xad" "abc\r\n");
		if (grid_resize(g, 1000, 1000) != 0)
			exit(4);
		feed_repeat(g, "0123456789", 100000);
		if (grid_resize(g, 80, 24) != 0)
			exit(4);
	}
	grid_destroy(g);
}

static void many_styles_titles_clusters(void)
{
	struct grid *g = make(200, 50, 10000);
	char buf[256];
	for (unsigned i = 0; i < 2000000; i++) {
		int n = snprintf(buf, sizeof(buf), "\x1b[38;2;%u;%u;%um\x1b[48;2;%u;%u;%umx", i & 255, i >> 8 & 255,
				 i >> 16 & 255, i >> 3 & 255, i >> 11 & 255, i >> 19 & 255);
		grid_feed(g, (const uint8_t *)buf, (size_t)n);
		if (i % 64 == 0) {
			n = snprintf(buf, sizeof(buf), "\x1b[22t\x1b]0;title %u\x07", i);
			grid_feed(g, (const uint8_t *)buf, (size_t)n);
		}
		if (i % 8 == 0) {
			n = snprintf(buf, sizeof(buf), "%c\xcc\x81\xcc%c", 'a' + i % 26, 0x80 + (int)(i % 48));
			grid_feed(g, (const uint8_t *)buf, (size_t)n);
		}
	}
	grid_destroy(g);
}

/* 125000 distinct OSC 8 hyperlinks, one per 16 cells, with 10000 lines of scrollback. */
static void many_links(void)
{
	struct grid *g = make(200, 50, 10000);
	char buf[256];
	for (unsigned i = 0; i < 125000; i++) {
		int n = snprintf(buf, sizeof(buf), "\x1b]8;;http://example.com/%u\x1b\\L\x1b]8;;\x1b\\xxxxxxxxxxxxxxx", i);
		grid_feed(g, (const uint8_t *)buf, (size_t)n);
	}
	grid_destroy(g);
}

static void endless_combining(void)
{
	struct grid *g = make(80, 24, 1000);
	feed_str(g, "e");
	feed_repeat(g, "\xcc\x81", 64u << 20);
	feed_str(g, "\xf0\x9f\x91\xa9");
	feed_repeat(g, "\xe2\x80\x8d\xf0\x9f\x92\xbb", 64u << 20);
	grid_destroy(g);
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{"hostile-10^6-params", many_params},
	{"hostile-endless-strings", endless_osc},
	{"hostile-rep-2^31", rep_huge},
	{"hostile-resize-1x1-1000x1000", resize_extremes},
	{"hostile-2M-styles-titles-clusters", many_styles_titles_clusters},
	{"hostile-125k-distinct-links", many_links},
	{"hostile-endless-combining", endless_combining},
};

int main(void)
{
	int failed = 0;
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid_t pid = fork();
		if (pid == 0) {
			alarm(TIME_LIMIT_S);
			scenarios[i].fn();
			_exit(0);
		}
		int status = 0;
		struct rusage ru = {0};
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
			perror("fork/wait");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		double mib = (double)ru.ru_maxrss / 1024.0;
		const char *why = "";
		if (WIFSIGNALED(status))
			why = WTERMSIG(status) == SIGALRM ? ", timed out" : ", crashed";
		else if (WEXITSTATUS(status) != 0)
			why = ", failed";
		else if (mib > LIMIT_MIB)
			why = ", over the bound";
		bool ok = !*why;
		printf("%s %s (peak RSS %.1f MiB, bound %d MiB, %.1f s%s)\n", ok ? "PASS" : "FAIL", scenarios[i].name,
		       mib, LIMIT_MIB, secs, why);
		fflush(stdout);
		failed += !ok;
	}
	return failed ? 1 : 0;
}
