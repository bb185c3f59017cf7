/* tests/grid/test-view.c: the scrolled-back view under what can happen while it is scrolled back (found sound,
 * kept as a test). Random steps on a small grid: lines of output, the view moved by lines and pages, ED 3, RIS,
 * SU, a region's scroll, the alternate screen (1049, 47), resizes, selections started, extended and cleared,
 * double-size rows, wide characters, links and floods of fresh styles (their collections spare the history
 * lines on display). After each step: the view's offset lies within the history there is (none on the
 * alternate screen), every cell that changed since the last snapshot lies in a damaged span of its row (the
 * view moved by one line or by a page is repainted whole), and output that only scrolls keeps a view wholly in
 * the history on the same text unless it reached the oldest line there is (the history full: it clamps). With
 * no scrollback, a scrollback of 2 lines that is always full, and 30 and 200 lines. And a selection's highlight,
 * read through the view at every offset, is its text's (test_highlight_follows). */
#include "harness.h"

static uint32_t rng;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

/* cells changed outside their row's damage (a resize must damage every row whole) */
static int undamaged(const struct t_shadow *s, struct grid *g)
{
	int bad = 0, x0, x1;
	if (grid_cols(g) != s->cols || grid_rows(g) != s->rows) {
		for (int y = 0; y < grid_rows(g); y++)
			bad += !grid_row_damage(g, y, &x0, &x1) || x0 != 0 || x1 != grid_cols(g);
		return bad;
	}
	for (int y = 0; y < s->rows; y++) {
		const struct grid_cell *r = grid_row(g, y);
		const bool d = grid_row_damage(g, y, &x0, &x1);
		for (int x = 0; x < s->cols; x++) {
			const struct grid_cell *o = &s->c[(size_t)y * (size_t)s->cols + (size_t)x];
			if (r[x].cp == o->cp && r[x].flags == o->flags && r[x].width == o->width && r[x].style == o->style)
				continue;
			bad += !d || x < x0 || x >= x1;
		}
	}
	return bad;
}

static void row_text(struct grid *g, int y, char *out)
{
	const struct grid_cell *r = grid_row(g, y);
	for (int x = 0; x < grid_cols(g); x++)
		out[x] = r[x].cp > 32 && r[x].cp < 127 ? (char)r[x].cp : r[x].cp ? '?' : ' ';
	out[grid_cols(g)] = 0;
}

static const char *const pieces[] = {
	"\xe4\xb8\xad\xe6\x96\x87", "e\xcc\x81", "\033#6", "\033#3", "\033#4", "\033#5", "\033[5;1H\033#6wide\r\n",
	"\033[1;1H\033#6top", "\033[7m\033[5mbl\033[m", "\033]8;;http://x\033\\link\033]8;;\033\\", "\033[2;1H\033[L",
	"\033[3M", "\033[1T", "\033#8", "\033[2J", "\033[?47h", "\033[?47l",
};

/* returns whether the step was output that only scrolls the screen (what the view must ride on) */
static bool step(struct t_term *t, unsigned *line)
{
	struct grid *g = t->g;
	const uint32_t k = rnd(40);
	if (k < 14) {
		t_feedf(t, "\033[3%um%u\033[m\r\n", rnd(8), (*line)++);
		return true;
	}
	if (k < 18)
		grid_view_scroll(g, rnd(4) ? (int)rnd(13) - 6 : (rnd(2) ? 1 : -1) * grid_rows(g));
	else if (k < 19)
		t_feed(t, "\033[3J");
	else if (k < 20)
		t_feed(t, rnd(5) ? "\033[2S" : "\033c");
	else if (k < 21)
		t_feed(t, "\033[?1049h");
	else if (k < 23)
		t_feed(t, "\033[?1049l");
	else if (k < 24)
		grid_resize(g, 10 + (int)rnd(20), 3 + (int)rnd(8));
	else if (k < 27)
		grid_select_start(g, (int)rnd((uint32_t)grid_cols(g)), (int)rnd((uint32_t)grid_rows(g)),
				  (enum grid_select_mode)rnd(3));
	else if (k < 30)
		grid_select_extend(g, (int)rnd((uint32_t)grid_cols(g)), (int)rnd((uint32_t)grid_rows(g)));
	else if (k < 31)
		grid_select_clear(g);
	else if (k < 33)
		t_feed(t, "\033[2;4r\033[4;1H\n\n\033[r\033[99;1H"); /* a region's lines go, not into the history */
	else if (k < 38)
		t_feed(t, pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))]);
	else if (k < 39 && rnd(4) == 0) {
		for (int i = 0; i < 300; i++)
			t_feedf(t, "\033[38;2;%u;%u;%umS", rnd(256), rnd(256), rnd(256));
		t_feed(t, "\033[m\r\n");
	} else {
		t_feed(t, "\033[1;1Hxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\033[99;1H\r\n");
	}
	return false;
}

static void run(size_t sb, uint32_t seed, int iters)
{
	struct t_term *t = t_new(20, 6, sb);
	struct t_shadow sh = {0};
	char before[16][64], now[64];
	unsigned line = 0;
	int bad_damage = 0, bad_offset = 0, bad_text = 0;
	rng = seed;
	grid_damage_clear(t->g);
	t_snap(&sh, t->g);
	for (int it = 0; it < iters; it++) {
		const int rows = grid_rows(t->g), off0 = grid_view_offset(t->g);
		for (int y = 0; y < rows; y++)
			row_text(t->g, y, before[y]);
		const bool output = step(t, &line);
		const int off = grid_view_offset(t->g);
		struct grid_modes m;
		grid_get_modes(t->g, &m);
		if (off < 0 || (size_t)off > grid_scrollback_lines(t->g) || (m.alt_screen && off)) {
			if (bad_offset++ < 3)
				fprintf(stderr, "sb %zu step %d: offset %d of %zu lines, alt %d\n", sb, it, off,
					grid_scrollback_lines(t->g), m.alt_screen);
		}
		if (output && off0 >= rows && (size_t)off < grid_scrollback_lines(t->g)) {
			for (int y = 0; y < rows; y++) {
				row_text(t->g, y, now);
				if (strcmp(now, before[y]) && bad_text++ < 3)
					fprintf(stderr, "sb %zu step %d: row %d '%s' -> '%s' (offset %d -> %d)\n", sb,
						it, y, before[y], now, off0, off);
			}
		}
		bad_damage += undamaged(&sh, t->g);
		if (rnd(2) == 0) {
			grid_damage_clear(t->g);
			t_snap(&sh, t->g);
		}
	}
	printf("scrollback %zu, seed %u: %d steps, %d cells changed without damage, %d offsets out of range, %d "
	       "views moved off their text\n",
	       sb, seed, iters, bad_damage, bad_offset, bad_text);
	CHECK(bad_damage == 0 && bad_offset == 0 && bad_text == 0, "scrollback %zu seed %u", sb, seed);
	free(sh.c);
	t_free(t);
}

/* The printable characters highlighted as the display shows them, from the oldest history line to the screen's
 * last row: the view moved to each line of the history in turn (row 0 of the display then shows it), then to
 * the bottom for the screen's rows; only the cells a row shows (a double row: its half, the last cell of an
 * odd width included, xterm's LineMaxCol). The view is put back. */
static void shown_marks(struct grid *g, char *out, size_t cap)
{
	struct grid_modes m;
	grid_get_modes(g, &m);
	const int off = grid_view_offset(g);
	size_t n = 0;
	for (long o = m.alt_screen ? 0 : (long)grid_scrollback_lines(g); o >= 0; o--) {
		grid_view_scroll(g, -grid_view_offset(g));
		grid_view_scroll(g, (int)o);
		for (int y = 0; y < (o ? 1 : grid_rows(g)); y++) {
			const struct grid_cell *c = grid_row(g, y);
			const int w = grid_row_size(g, y) ? (grid_cols(g) + 1) / 2 : grid_cols(g);
			for (int x = 0; x < w; x++)
				if ((c[x].flags & GRID_CELL_SELECTED) && c[x].cp > 32 && c[x].cp < 127 && n + 1 < cap)
					out[n++] = (char)c[x].cp;
		}
	}
	out[n] = 0;
	grid_view_scroll(g, -grid_view_offset(g));
	grid_view_scroll(g, off);
}

/* A selection's highlight follows its text wherever the view goes: after each step (lines, some double or
 * wide, of output; the view moved; selections started, extended, adjusted, cleared; resizes; ED 3; the
 * alternate screen; SU; a write and ED 2 on the screen), the characters highlighted through the view are the
 * selection's own (its text's printable characters), and none is highlighted without a selection. */
static void test_highlight_follows(void)
{
	int bad = 0, steps = 0;
	static char marks[1 << 16], text[1 << 16];
	for (uint32_t seed = 1; seed <= 40; seed++) {
		static const size_t sbs[] = {0, 3, 20, 100};
		const size_t sb = sbs[seed % 4];
		struct t_term *t = t_new(16, 5, sb);
		unsigned line = 0;
		rng = seed;
		for (int it = 0; it < 1500 && !bad; it++, steps++) {
			const uint32_t k = rnd(30);
			const int x = (int)rnd(16), y = (int)rnd(5);
			if (k < 10) {
				static const char *const forms[] = {"\033#6w%u %u\r\n", "w%u \xe4\xb8\xad%u\r\n", "w%u %u\r\n"};
				t_feedf(t, forms[rnd(3)], line, line);
				line++;
			} else if (k < 13) {
				grid_view_scroll(t->g, (int)rnd(11) - 5);
			} else if (k < 16) {
				grid_select_start(t->g, x, y, (enum grid_select_mode)rnd(3));
			} else if (k < 19) {
				grid_select_extend(t->g, x, y);
			} else if (k < 20) {
				grid_select_adjust(t->g, x, y);
			} else if (k < 22) {
				grid_select_clear(t->g);
			} else if (k < 24) {
				grid_resize(t->g, 8 + (int)rnd(12), 3 + (int)rnd(6));
			} else {
				static const char *const other[] = {"\033[3J", "\033[?1049h", "\033[?1049l", "\033[2S",
								    "\033[1;1Hover\033[99;1H", "\033[2J"};
				t_feed(t, other[k - 24]);
			}
			shown_marks(t->g, marks, sizeof(marks));
			size_t len = 0, n = 0;
			char *sel = grid_has_selection(t->g) ? grid_selection_text(t->g, &len) : NULL;
			for (size_t i = 0; i < len && n + 1 < sizeof(text); i++)
				if (sel[i] > 32 && sel[i] < 127)
					text[n++] = sel[i];
			text[n] = 0;
			free(sel);
			if (strcmp(marks, text) && bad++ < 3)
				fprintf(stderr, "seed %u step %d: highlighted '%.40s', selected '%.40s' (offset %d)\n",
					seed, it, marks, text, grid_view_offset(t->g));
		}
		t_free(t);
	}
	printf("highlight through the view: %d steps, %d differ from the selection\n", steps, bad);
	CHECK(bad == 0, "%d highlights differ", bad);
}

int main(void)
{
	static const size_t sbs[] = {0, 2, 30, 200};
	for (size_t i = 0; i < sizeof(sbs) / sizeof(sbs[0]); i++)
		for (uint32_t seed = 1; seed <= 2; seed++)
			run(sbs[i], seed, 20000);
	test_highlight_follows();
	printf("%d checks, %d failed\n", t_checks, t_fails);
	return t_fails != 0;
}
