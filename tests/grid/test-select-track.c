/* tests/grid/test-select-track.c: a selection while the text under it changes without printing over it (a mark
 * joining a selected character, a row made double or single, the screen switched under a drag) and its copy
 * from history rows the reflow laid out. Each case: the selection keeps the text it showed, or it goes. */
#include "harness.h"

#define sel t_sel
#define marks t_marks

/* A press on one screen, then the other screen entered or left (DECSET 1049) before the drag starts: the line
 * pressed is not on display any more, and its number counts the other screen's lines. The drag selected the
 * row of that number on the screen now shown ("a1" for a press on "p1"). Nothing is selected there; back on
 * the screen pressed, the line is the one pressed. */
static void test_start_line_other_screen(void)
{
	struct t_term *t = t_new(10, 3, 20);
	t_feed(t, "p0\r\np1\r\np2");
	const uint64_t p1 = grid_line_at(t->g, 1);
	t_feed(t, "\033[?1049h\033[Ha0\r\na1\r\na2");
	grid_select_start_line(t->g, 0, p1, GRID_SELECT_LINE);
	grid_select_extend(t->g, 1, 2);
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "a primary line on the alternate screen: [%s] %d cells",
	      sel(t), marks(t));
	const uint64_t a2 = grid_line_at(t->g, 2);
	t_feed(t, "\033[?1049l");
	grid_select_start_line(t->g, 0, a2, GRID_SELECT_LINE);
	CHECK(!grid_has_selection(t->g) && marks(t) == 0, "an alternate line on the primary screen: [%s] %d cells",
	      sel(t), marks(t));
	grid_select_start_line(t->g, 0, p1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "p1\n") == 0, "back on the primary screen, the line pressed: [%s]", sel(t));
	/* the alternate screen's own lines still select there, after it scrolled */
	t_feed(t, "\033[?1049h\033[Hx0\r\nx1\r\nx2");
	const uint64_t x1 = grid_line_at(t->g, 1);
	t_feed(t, "\r\nx3");
	grid_select_start_line(t->g, 0, x1, GRID_SELECT_LINE);
	CHECK(strcmp(sel(t), "x1\n") == 0, "on the alternate screen, scrolled: [%s]", sel(t));
	t_free(t);
}

int main(void)
{
	test_start_line_other_screen();
	return t_done("grid-select-track");
}
