/* tests/grid/test-lazy.c: a row of plain ASCII printed from column 0 where rows reach the scrollback keeps
 * only its text, its cells written when something else reaches them (LINE_LAZY, grid/grid-internal.h). Here
 * each editing operation, reading path and screen change meets such rows, and the result must be the one of
 * a terminal fed the same bytes one at a time (whose one-character path writes every cell at once): every
 * cell of the screen and the scrollback, the wrap flags, the cursor, the replies and the selected text.
 * The rows are not read before the operation (grid_row writes deferred cells itself). Builds with
 * assertions also check the state after every grid_feed (grid__text_check) and abort where it does not hold.
 */
#include "harness.h"

#define COLS 40
#define ROWS 6
#define SB 50

/* Rows 0-2 lazy (the first in bold), row 3 partly written with the cursor at its end. */
#define SETUP "plain text of the first row\r\n" \
	      "\033[1mthe second row, in bold\033[m\r\n" \
	      "third row: a bit longer than others\r\n" \
	      "fourth lin"

enum extra { NONE, RESIZE_SMALL, RESIZE_BIG, VIEW, SELECT };

struct op {
	const char *name;
	const char *bytes;
	enum extra extra;
};

static const struct op ops[] = {
	{"nothing", "", NONE},
	{"ICH", "\033[1;3H\033[2@", NONE},
	{"DCH", "\033[2;5H\033[3P", NONE},
	{"ECH", "\033[1;4H\033[5X", NONE},
	{"EL 0", "\033[2;6H\033[K", NONE},
	{"EL 0 past the text", "\033[1;35H\033[K", NONE},
	{"EL 1", "\033[2;6H\033[1K", NONE},
	{"EL 2", "\033[3;2H\033[2K", NONE},
	{"EL 0 in red", "\033[41m\033[1;10H\033[K\033[m", NONE},
	{"ED 0", "\033[2;3H\033[J", NONE},
	{"ED 1", "\033[2;3H\033[1J", NONE},
	{"ED 2", "\033[2J", NONE},
	{"ED 2 in blue", "\033[44m\033[2J\033[m", NONE},
	{"DECSED", "\033[1;1H\033[?2J", NONE},
	{"IL", "\033[2;1H\033[L", NONE},
	{"DL", "\033[1;1H\033[2M", NONE},
	{"DECALN", "\033#8", NONE},
	{"scroll region", "\033[2;4r\033[4;1H\n\n\033[r", NONE},
	{"SU", "\033[2S", NONE},
	{"SD", "\033[1T", NONE},
	{"left and right margins", "\033[?69h\033[3;20s\033[1;3H\033[2@\033[s\033[?69l", NONE},
	{"one char", "\033[1;5HZ", NONE},
	{"one char in green", "\033[1;5H\033[32mZ\033[m", NONE},
	{"one char past the text", "\033[1;33HZ", NONE},
	{"one non-ASCII char", "\033[1;5H\xc3\xa9", NONE},
	{"run inside, same style", "\033[1;3Hxyz", NONE},
	{"run inside, bold", "\033[1;3H\033[1mxyz\033[m", NONE},
	{"run after the text", "\033[1;28Habc", NONE},
	{"run past the text", "\033[1;33Habc", NONE},
	{"run continuing row 3", "e: fifth", NONE},
	{"shorter run from column 0", "\033[1;1Hab", NONE},
	{"shorter bold run from column 0", "\033[1;1H\033[1mab\033[m", NONE},
	{"longer run from column 0, bold", "\033[2;1H\033[1mABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\033[m", NONE},
	{"combining mark", "\xcc\x81", NONE},
	{"wide char", "\033[2;3H\xe4\xb8\xad", NONE},
	{"wrap", "e: and now a run that goes over the right edge", NONE},
	{"tab", "\033[1;1H\tT", NONE},
	{"backspace", "\b\bXY", NONE},
	{"REP", "\033[1;3Hq\033[5b", NONE},
	{"insert mode", "\033[4h\033[1;3Hins\033[4l", NONE},
	{"top margin", "\033[2;5r\033[1;3Hx\033[r", NONE},
	{"alternate screen", "\033[?1049halt text\r\n\033[?1049l", NONE},
	{"checksum", "\033[1;1;1;1;6;40*y", NONE},
	{"hyperlink", "\033]8;;http://x\033\\\033[1;3Hlink\033]8;;\033\\", NONE},
	{"DECCOLM", "\033[?40h\033[?3h", NONE},
	{"RIS", "\033c", NONE},
	{"scroll into the scrollback", "\n\n\n\n\n\n\n", NONE},
	{"resize smaller", "", RESIZE_SMALL},
	{"resize larger", "", RESIZE_BIG},
	{"scrolled back", "\n\n\n", VIEW},
	{"selection", "", SELECT},
};

struct side {
	struct t_term *t;
	char *sel;
	size_t sel_len;
};

static void run_op(struct side *s, const struct op *op)
{
	struct grid *g = s->t->g;
	t_feed(s->t, op->bytes);
	switch (op->extra) {
	case RESIZE_SMALL:
		grid_resize(g, 25, 5);
		break;
	case RESIZE_BIG:
		grid_resize(g, 60, 9);
		break;
	case VIEW:
		grid_view_scroll(g, 2);
		break;
	case SELECT:
		grid_select_start(g, 3, 0, GRID_SELECT_CELL);
		grid_select_extend(g, 10, 2);
		s->sel = grid_selection_text(g, &s->sel_len);
		break;
	case NONE:
		break;
	}
}

static bool same_cell(struct grid_cell a, struct grid_cell b)
{
	return a.cp == b.cp && a.width == b.width && a.style == b.style && a.link == b.link && a.flags == b.flags;
}

/* Everything a reader sees of the two terminals alike. */
static void compare(const char *name, struct side *a, struct side *b)
{
	struct grid *ga = a->t->g, *gb = b->t->g;
	const int cols = grid_cols(ga), rows = grid_rows(ga);
	CHECK(cols == grid_cols(gb) && rows == grid_rows(gb), "%s: size", name);
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *ca = grid_row(ga, y), *cb = grid_row(gb, y);
		for (int x = 0; x < cols; x++)
			if (!same_cell(ca[x], cb[x])) {
				CHECK(false, "%s: row %d cell %d: %#x/%u/%u vs %#x/%u/%u", name, y, x, ca[x].cp, ca[x].width,
				      ca[x].style, cb[x].cp, cb[x].width, cb[x].style);
				break;
			}
		CHECK(grid_row_wrapped(ga, y) == grid_row_wrapped(gb, y), "%s: row %d wrap flag", name, y);
	}
	size_t n = grid_scrollback_lines(ga);
	CHECK(n == grid_scrollback_lines(gb), "%s: scrollback %zu vs %zu", name, n, grid_scrollback_lines(gb));
	for (size_t i = 0; i < n && i < grid_scrollback_lines(gb); i++) {
		int la = 0, lb = 0;
		const struct grid_cell *ca = grid_scrollback_row(ga, i, &la);
		struct grid_cell keep[64];
		memcpy(keep, ca, (size_t)la * sizeof(*ca)); /* the next call may reuse the buffer */
		const struct grid_cell *cb = grid_scrollback_row(gb, i, &lb);
		bool eq = la == lb;
		for (int x = 0; eq && x < la; x++)
			eq = same_cell(keep[x], cb[x]);
		CHECK(eq, "%s: scrollback line %zu (%d vs %d cells)", name, i, la, lb);
	}
	struct grid_cursor cua, cub;
	grid_get_cursor(ga, &cua);
	grid_get_cursor(gb, &cub);
	CHECK(cua.x == cub.x && cua.y == cub.y, "%s: cursor %d,%d vs %d,%d", name, cua.x, cua.y, cub.x, cub.y);
	CHECK(strcmp(a->t->reply, b->t->reply) == 0, "%s: replies '%s' vs '%s'", name, a->t->reply, b->t->reply);
	CHECK(a->sel_len == b->sel_len && (!a->sel_len || memcmp(a->sel, b->sel, a->sel_len) == 0),
	      "%s: selected text", name);
}

static void test_ops(void)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct side a = {.t = t_new(COLS, ROWS, SB)}, b = {.t = t_new(COLS, ROWS, SB)};
		/* a: the setup in runs (deferred rows); b: one byte per feed (cells written at once) */
		t_feed(a.t, SETUP);
		for (const char *p = SETUP; *p; p++)
			grid_feed(b.t->g, (const uint8_t *)p, 1);
		run_op(&a, &ops[i]);
		run_op(&b, &ops[i]);
		compare(ops[i].name, &a, &b);
		free(a.sel);
		free(b.sel);
		t_free(a.t);
		t_free(b.t);
	}
}

/* A flood of rows through the screen, with the reads of a renderer between some of them: the rows it read
 * (written in place) and the ones it did not must reach the scrollback alike. */
static void test_flood(void)
{
	struct side a = {.t = t_new(COLS, ROWS, SB)}, b = {.t = t_new(COLS, ROWS, SB)};
	char line[64];
	for (int i = 0; i < 40; i++) {
		int n = snprintf(line, sizeof(line), "%s line %d %.*s\r\n", i % 3 ? "flood" : "\033[1mbold\033[m", i,
				 i % 17, "abcdefghijklmnopqrstuvwxyz");
		t_feed(a.t, line);
		for (int k = 0; k < n; k++)
			grid_feed(b.t->g, (const uint8_t *)line + k, 1);
		if (i % 7 == 0)
			(void)grid_row(a.t->g, i % ROWS);
	}
	compare("flood", &a, &b);
	t_free(a.t);
	t_free(b.t);
}

/* A collection of unused styles while a row in an uncommon style (red on blue, italic) has its cells
 * deferred: its style lives in the row's header only, and must survive (a freed id would be reused by the
 * fresh colours that follow). */
static void test_collect(void)
{
	struct t_term *t = t_new(COLS, ROWS, SB);
	t_feed(t, "\033[3;31;44mstyled row\033[m\r\n");
	char buf[64];
	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof(buf), "\033[5;1H\033[38;2;%d;%d;%dmX", i & 255, (i >> 8) & 255, 7);
		t_feed(t, buf);
	}
	t_feed(t, "\033[m");
	const struct grid_cell *c = grid_row(t->g, 0);
	const struct grid_style *st = grid_style(t->g, c[0].style);
	CHECK(c[0].cp == 's' && st->attrs == GRID_ATTR_ITALIC && st->fg == GRID_COLOR_PALETTE(1) &&
		      st->bg == GRID_COLOR_PALETTE(4),
	      "collect: row 0 reads '%c' in attrs %#x fg %#x bg %#x", (int)c[0].cp, st->attrs, st->fg, st->bg);
	t_free(t);
}

int main(void)
{
	test_ops();
	test_flood();
	test_collect();
	return t_done("grid-lazy");
}
