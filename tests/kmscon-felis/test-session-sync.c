/* tests/kmscon-felis/test-session-sync.c: synchronized updates (DECSET 2026) reach the frame loop whole.
 *
 * The frame loop renders in a prepare hook, once per loop iteration, and holds the frame while the grid says
 * ESC[?2026h is in force (output.c sync_hold). A child that draws update after update, each inside
 * ESC[?2026h ... ESC[?2026l, as a TUI under load does, leaves the PTY full: a wake-up's drain (bounded by bytes and
 * work, not by the application's updates) used to end anywhere, almost always inside the next update, so the frame
 * loop saw ESC[?2026h in force at nearly every iteration and showed a screen only when its 150 ms hold timed out:
 * a torn one, half of one update over the rest of the last. The session stops a wake-up's feed right after an
 * update's end, so that the next iteration's frame loop sees it whole.
 *
 * Here a prepare hook stands in for the frame loop (real PTY, child, loop and grid): at every iteration where the
 * grid is not held it notes which complete update the screen shows, and whether the screen is a mix. */
#include "kmscon-felis/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/loop.h"

#include "session-harness.h"

#define COLS 100
#define ROWS 30
#define UPDATES 400
#define BLOCK 24 /* rows every update repaints */

static char path[300];

/* Update i: ESC[?2026h, then rows 1..BLOCK filled with the letter of i (row by row, so that a cut anywhere leaves
 * a mix), the update's number on the last row, ESC[?2026l. ~2.5 KiB: a drain of one wake-up takes many. */
static void write_stream(void)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	for (unsigned i = 0; i < UPDATES; i++) {
		const char letter = (char)('A' + i % 26);
		fputs("\033[?2026h", f);
		for (int y = 1; y <= BLOCK; y++) {
			fprintf(f, "\033[%d;1H", y);
			for (int x = 0; x < COLS; x++)
				fputc(letter, f);
		}
		fprintf(f, "\033[%d;1H%06u\033[?2026l", BLOCK + 1, i);
	}
	fclose(f);
}

struct watch {
	struct kf_session *s;
	unsigned prepares, held, seen, mixed, last;
	bool any;
};

/* The update the screen shows, or -1 for a mix (rows of different letters, or a number not the letters'). */
static int shown_update(struct grid *g)
{
	const struct grid_cell *r = grid_row(g, BLOCK);
	unsigned n = 0;
	for (int x = 0; x < 6; x++) {
		if (r[x].cp < '0' || r[x].cp > '9')
			return -1;
		n = n * 10 + (r[x].cp - '0');
	}
	const uint32_t letter = 'A' + n % 26;
	for (int y = 0; y < BLOCK; y++) {
		const struct grid_cell *c = grid_row(g, y);
		if (c[0].cp != letter || c[COLS - 1].cp != letter)
			return -1;
	}
	return (int)n;
}

static void on_prepare(void *ud)
{
	struct watch *w = ud;
	struct grid *g = kf_session_grid(w->s);
	struct grid_modes m;
	w->prepares++;
	if (!grid_is_damaged(g))
		return; /* nothing new for a frame */
	grid_get_modes(g, &m);
	if (m.synchronized) {
		w->held++;
		return;
	}
	/* what a frame would show now: the screen is "rendered" */
	const int u = shown_update(g);
	grid_damage_clear(g);
	if (u < 0) {
		/* before the first update the screen is blank: not a mix */
		w->mixed += w->any;
		return;
	}
	if (!w->any || (unsigned)u != w->last)
		w->seen++;
	w->any = true;
	w->last = (unsigned)u;
}

/* Every update, each ending in a frame loop iteration that sees it whole: before, a handful of the 400 (those
 * whose end happened to fall on the end of a drain). */
static void test_every_update_seen(void)
{
	write_stream();
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "stty -echo; cat %s; read x", path);
	const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .cols = COLS, .rows = ROWS, .scrollback = 100};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	struct watch w = {.s = s};
	struct kf_hook *h = kf_loop_add_prepare(c.loop, on_prepare, &w);
	/* until the last update is on the screen */
	for (int i = 0; i < 2000 && !(w.any && w.last == UPDATES - 1); i++)
		run_for(c.loop, 10);
	printf("%u updates: %u seen whole, %u mixed screens, %u iterations held, %u prepares\n", UPDATES, w.seen,
	       w.mixed, w.held, w.prepares);
	CHECK(w.any && w.last == UPDATES - 1);
	CHECK(w.mixed == 0);
	CHECK(w.seen == UPDATES);
	kf_session_write(s, (const uint8_t *)"\n", 1);
	run_for(c.loop, 5000);
	CHECK(c.exited && c.exit_code == 0);
	kf_hook_remove(h);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	kf_alarm(60);
	snprintf(path, sizeof(path), "%s/sync", tmpdir);
	test_every_update_seen();
	return session_tests_end();
}
