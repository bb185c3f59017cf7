/* tests/kmscon-felis/test-session-view.c: the scrolled-back view under a real child's output through a PTY (the
 * session's reads, their budgets and held bytes). The output callback does what the input glue's does
 * (kf_input_glue_output): the view back to the bottom, but while the button of a selection is held (here a
 * flag). Held, the view stays on the text it shows, and a selection made there on its text, while lines come;
 * once the history is full and that text leaves it, the view stops at the oldest line there is and the
 * selection goes; let go, the next output brings the view back to the bottom. With no scrollback there is no
 * view to move. (Found sound, kept as a test.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"

#include "session-harness.h"

static bool held;

static void on_output(void *ud)
{
	struct kf_session *s = *(struct kf_session **)ud;
	struct grid *g = s ? kf_session_grid(s) : NULL;
	if (g && !held)
		grid_view_scroll(g, -grid_view_offset(g));
}

static void on_exited_quiet(void *ud, int code)
{
	(void)ud;
	(void)code;
}

/* The screen's own rows as text whatever the view shows (the view put back as it was: no output comes between) */
static const char *bottom(struct kf_session *s)
{
	struct grid *g = kf_session_grid(s);
	const int off = grid_view_offset(g);
	grid_view_scroll(g, -off);
	const char *text = screen(s);
	grid_view_scroll(g, off);
	return text;
}

static bool run_until_bottom(struct kf_loop *loop, struct kf_session *s, const char *mark)
{
	for (int waited = 0; !strstr(bottom(s), mark) && waited < 10000; waited += 10)
		run_for(loop, 10);
	return strstr(bottom(s), mark) != NULL;
}

static char *selection(struct kf_session *s)
{
	size_t len;
	return grid_selection_text(kf_session_grid(s), &len);
}

static void test_held_view(void)
{
	char script[2048], go[3][256];
	for (int i = 0; i < 3; i++)
		snprintf(go[i], sizeof(go[i]), "%s/go%d", tmpdir, i + 1);
	/* 60 lines, then 10 more, then 230 more (a history of 50 lines overflows), then a last one: each batch once
	 * the test says so */
	snprintf(script, sizeof(script),
		 "n() { while [ $i -lt $1 ]; do echo \"line $i\"; i=$((i + 1)); done; }; i=0; n 60; echo READY1; "
		 "while [ ! -e %s ]; do sleep 0.01; done; n 70; echo READY2; "
		 "while [ ! -e %s ]; do sleep 0.01; done; n 300; echo READY3; "
		 "while [ ! -e %s ]; do sleep 0.01; done; echo LAST; exec sleep 60",
		 go[0], go[1], go[2]);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct kf_loop *loop = kf_loop_create();
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 30, .rows = 5, .scrollback = 50};
	struct kf_session *s = NULL;
	struct kf_session_callbacks cb = {.exited = on_exited_quiet, .output = on_output};
	CHECK(kf_session_create(loop, &cfg, &cb, &s, &s) == 0);
	if (!s)
		return;
	struct grid *g = kf_session_grid(s);
	CHECK(run_until_bottom(loop, s, "READY1"));
	CHECK(grid_view_scroll(g, 20) == 20);
	char shown[4096];
	snprintf(shown, sizeof(shown), "%s", screen(s));
	grid_select_start(g, 0, 1, GRID_SELECT_CELL);
	grid_select_extend(g, 6, 2);
	char *sel0 = selection(s);
	printf("scrolled back 20: view '%s', selection '%s'\n", shown, sel0 ? sel0 : "");
	CHECK(sel0 && !strncmp(sel0, "line ", 5) && strchr(sel0, '\n'));

	/* held: 11 lines come (10 and READY2), the view rides on them */
	held = true;
	touch(go[0]);
	CHECK(run_until_bottom(loop, s, "READY2"));
	char *sel1 = selection(s);
	printf("held, 11 lines later: offset %d of %zu, view %s, selection %s\n", grid_view_offset(g),
	       grid_scrollback_lines(g), strcmp(screen(s), shown) ? "MOVED" : "the same",
	       sel1 && sel0 && !strcmp(sel1, sel0) ? "the same" : "CHANGED");
	CHECK(grid_view_offset(g) == 31 && !strcmp(screen(s), shown));
	CHECK(sel1 && sel0 && !strcmp(sel1, sel0));
	free(sel1);

	/* held: 231 lines more, the history of 50 overflows: the view stops at its oldest line, the selection's
	 * text left the history and the selection with it */
	touch(go[1]);
	CHECK(run_until_bottom(loop, s, "READY3"));
	int len;
	const struct grid_cell *oldest = grid_scrollback_row(g, 0, &len);
	const struct grid_cell *top = grid_row(g, 0);
	bool same = oldest && len > 0;
	for (int x = 0; same && x < len; x++)
		same = oldest[x].cp == top[x].cp;
	printf("held, history overflowed: offset %d of %zu, top row the oldest line: %s, selection %s\n",
	       grid_view_offset(g), grid_scrollback_lines(g), same ? "yes" : "no",
	       grid_has_selection(g) ? "kept" : "gone");
	CHECK(grid_scrollback_lines(g) == 50 && grid_view_offset(g) == 50 && same);
	CHECK(!grid_has_selection(g));

	/* let go: the next output takes the view back to the bottom */
	held = false;
	touch(go[2]);
	CHECK(run_until_bottom(loop, s, "LAST"));
	printf("let go, output: offset %d\n", grid_view_offset(g));
	CHECK(grid_view_offset(g) == 0 && strstr(screen(s), "LAST"));
	free(sel0);
	kf_session_destroy(s);
	kf_loop_destroy(loop);
}

/* No scrollback: nothing to scroll back to, output or not */
static void test_no_scrollback(void)
{
	const char *argv[] = {"sh", "-c", "seq 1 20; echo DONE; exec sleep 60", NULL};
	struct kf_loop *loop = kf_loop_create();
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 30, .rows = 5, .scrollback = 0};
	struct kf_session *s = NULL;
	struct kf_session_callbacks cb = {.exited = on_exited_quiet, .output = on_output};
	CHECK(kf_session_create(loop, &cfg, &cb, &s, &s) == 0);
	if (!s)
		return;
	CHECK(run_until_bottom(loop, s, "DONE"));
	CHECK(grid_scrollback_lines(kf_session_grid(s)) == 0 && grid_view_scroll(kf_session_grid(s), 5) == 0);
	kf_session_destroy(s);
	kf_loop_destroy(loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_held_view();
	test_no_scrollback();
	return session_tests_end();
}
