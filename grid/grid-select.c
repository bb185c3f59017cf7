/* grid/grid-select.c: the selection (cell, word, line), kept in absolute line numbers so it follows the
 * text through scrolling, marked on cells (GRID_CELL_SELECTED) for the renderer, and extracted as UTF-8.
 *
 * As in xterm, changing text under the selection (printing, erasing, scrolling a region) clears it, and so
 * do a mark joining a character of its rows, a change of a row's size (grid-cluster.c, grid-dbl.c) and a wrap
 * from one of its rows onto the next (grid-print.c: its line end goes); lines
 * that scroll out of the scrollback take their part of it with them (grid__select_scrolled).
 */
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"

static struct screen *sel_screen(struct grid *g)
{
	return g->sel.on_alt ? &g->alt : &g->primary;
}

/* The line with absolute number a on screen s, or NULL when it is not held any more. */
static struct line *abs_line(const struct grid *g, const struct screen *s, uint64_t a)
{
	uint64_t oldest = s->abs_top - s->sb_n;
	if (a < oldest || a >= s->abs_top + (uint64_t)g->rows)
		return NULL;
	size_t i = s->top + s->cap - s->sb_n + (size_t)(a - oldest);
	/* its cells are read or marked: a deferred screen row (LINE_LAZY) gets them first */
	return grid__line_ready(s->ring[i % s->cap]);
}

static uint64_t display_to_abs(const struct grid *g, int y)
{
	const struct screen *s = g->scr;
	return s->abs_top - (s == &g->primary ? g->view_offset : 0) + (uint64_t)grid__clamp(y, 0, g->rows - 1);
}

static void damage_abs(struct grid *g, uint64_t a)
{
	struct screen *s = sel_screen(g);
	if (s != g->scr)
		return;
	const int off = s == &g->primary ? (int)g->view_offset : 0;
	const uint64_t top = s->abs_top - (uint64_t)off; /* the first line on display */
	/* grid__damage takes a row of the screen and adds the view's offset itself: a line of the history shown
	 * while scrolled back is a negative row there. (The display row passed as it was landed off rows too low,
	 * past the display, and a selection made while scrolled back changed no pixel until something else
	 * repainted its rows: tests/grid/test-select.c, tests/fuzz/fuzz-render.c.) */
	if (a >= top && a < top + (uint64_t)g->rows)
		grid__damage(g, (int)(a - top) - off, 0, g->cols);
}

/* The cells of line a that the selection highlights, first to last: false when none. A drag's end past its
 * row's text stands for the start of the next row, as in xterm (skip_y0, edge_y1; see grid__select_update): its
 * highlight, measured on xterm 379 (tests/tools/xterm-drag.py --highlight, docs/conformance.md), leaves the
 * earlier end's row out and takes the later end's row to its right edge, as the copy leaves that row's text out
 * and takes its line end. */
static bool marked_cells(const struct grid *g, uint64_t a, int *x0, int *x1)
{
	if (a < g->sel.y0 + g->sel.skip_y0 || a > g->sel.y1)
		return false; /* (both ends past the text of one row: no cell at all) */
	*x0 = a == g->sel.y0 ? g->sel.x0 : 0;
	*x1 = a == g->sel.y1 && !g->sel.edge_y1 ? g->sel.x1 : g->cols - 1;
	return true;
}

/* Puts GRID_CELL_SELECTED on the selection's cells, or takes it off every cell of its rows: the marks set are
 * always on those rows' cells, so none can stay behind whatever the flags that placed them were then (an end
 * that moved back into the text, output that changed which row is the screen's last). */
static void mark(struct grid *g, bool on)
{
	struct screen *s = sel_screen(g);
	for (uint64_t a = g->sel.y0; a <= g->sel.y1; a++) {
		struct line *l = abs_line(g, s, a);
		if (!l)
			continue;
		damage_abs(g, a);
		if (l->flags & LINE_PACKED)
			continue; /* no room for marks: grid__select_apply puts them on the expanded cells */
		int x0 = 0, x1 = l->ncells - 1;
		if (!on) {
			for (int x = x0; x <= x1; x++)
				l->cells[x].flags &= (uint8_t)~GRID_CELL_SELECTED;
			continue;
		}
		if (!marked_cells(g, a, &x0, &x1))
			continue;
		if (l->ncells == g->cols)
			grid__line_touch(l, x1 + 1);
		l->flags &= ~LINE_ASCII; /* marked cells are no plain text */
		for (int x = x0; x <= x1 && x < l->ncells; x++)
			l->cells[x].flags |= GRID_CELL_SELECTED;
	}
}

/* xterm's character classes, reduced to what a word selection tells apart: blanks (printed or never written,
 * one class as in xterm, so a double click on one takes the run around it), word characters, and each
 * punctuation character a class of its own (its code point: a run of "((((" goes together, "()" does not). */
enum { CLASS_BLANK = 0x110000, CLASS_WORD };

/* xterm 379's default classes from U+0080 up, as measured on it (a double click on each range's ends and on
 * neighbours, the selection pasted back): each range's code points are one class, or with IDENT each a class
 * of its own; a group's class is a code point inside it, so it meets no other's. Sorted; what no range holds
 * is a word character (letters of every script, Hebrew's, Arabic's and Indic punctuation, Braille, bopomofo,
 * Hangul jamo, Yi: words in xterm 379 too). */
#define IDENT 0
static const struct {
	uint32_t first, last, cls;
} classes[] = {
	{0x00a0, 0x00bf, IDENT},       /* Latin-1 punctuation and signs, NBSP, ª and º too */
	{0x00d7, 0x00d7, IDENT},       {0x00f7, 0x00f7, IDENT}, /* the signs × and ÷ */
	{0x037e, 0x037e, IDENT},       {0x0387, 0x0387, IDENT}, /* Greek question mark and ano teleia */
	{0x055a, 0x055f, IDENT},       {0x0589, 0x0589, IDENT}, /* Armenian punctuation */
	{0x2000, 0x200a, CLASS_BLANK}, /* the spaces */
	{0x200b, 0x206f, IDENT},       /* general punctuation */
	{0x2070, 0x207f, 0x2070},      /* superscripts */
	{0x2080, 0x208f, 0x2080},      /* subscripts */
	{0x2090, 0x27ff, IDENT},       /* currency, letterlike, arrows, operators, box drawing, shapes, dingbats */
	{0x3000, 0x3000, CLASS_BLANK}, /* the ideographic space */
	{0x3001, 0x3020, IDENT},       /* CJK punctuation */
	{0x3040, 0x309f, 0x3040},      /* hiragana */
	{0x30a0, 0x30ff, 0x30a0},      /* katakana */
	{0x3300, 0x9fff, 0x4e00},      /* CJK ideographs (and compatibility squares) */
	{0xac00, 0xd7a3, 0xac00},      /* Hangul syllables */
	{0xf900, 0xfaff, 0x4e00},      /* CJK compatibility ideographs: the ideographs' class */
	{0xfe30, 0xfe6b, IDENT},       /* CJK compatibility and small forms */
	{0xff00, 0xff0f, IDENT},       {0xff1a, 0xff20, IDENT}, /* fullwidth ASCII punctuation, not letters */
	{0xff3b, 0xff40, IDENT},       {0xff5b, 0xff64, IDENT}, /* or digits; halfwidth CJK punctuation */
	{0xffe0, 0x10ffff, IDENT},     /* fullwidth signs and every plane past the first (emoji, CJK ext. B) */
};

static uint32_t class_above_ascii(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]) && cp >= classes[i].first; i++)
		if (cp <= classes[i].last)
			return classes[i].cls == IDENT ? cp : classes[i].cls;
	return CLASS_WORD;
}

static uint32_t cell_class(const struct grid *g, const struct line *l, int x)
{
	if (x >= l->ncells)
		return CLASS_BLANK; /* past the cells a line holds: the blank rest of its row */
	struct grid_cell c = grid__line_cell(l, x);
	/* a wide character's right half is blank: it belongs to its left half's word */
	if (c.width == 0 && x > 0)
		c = grid__line_cell(l, x - 1);
	uint32_t cp = c.cp;
	if (cp & GRID_CP_CLUSTER) {
		/* a character with marks is of its base's class, as xterm classes a cell (a space or a bracket
		 * carrying a mark joined the words around it) */
		struct cluster tmp;
		const struct cluster *cl = grid__cluster(g, cp, &tmp);
		cp = cl && cl->n > 0 ? cl->cp[0] : 0x80;
	}
	if (cp == 0 || cp == ' ')
		return CLASS_BLANK; /* xterm's BLANK class, with U+2000..U+200A and U+3000 below (not U+00A0) */
	if (cp >= 0x80)
		return class_above_ascii(cp);
	return strchr("\"'`()[]{}<>|;,&", (int)cp) ? cp : CLASS_WORD;
}

/* Cell x of line l, which may lie past the cells it holds: a history line keeps its written cells only, and
 * the rest of its row is blank, as it is on the screen. */
static struct grid_cell cell_at(const struct line *l, int x)
{
	if (x < l->ncells)
		return grid__line_cell(l, x);
	return (struct grid_cell){.cp = 0, .style = 0, .link = 0, .width = 1, .flags = 0};
}

/* The last column line l shows: a double row's half (its other cells are not on display). */
static int line_last(const struct grid *g, const struct line *l)
{
	return l->flags & LINE_DBL_MASK ? grid__dbl_max(g) : g->cols - 1;
}

/* Whether soft-wrapped line l (absolute number a on s) ends in the blank a wide character left behind when it
 * did not fit there and went to the next row: no text of the line (the reflow drops it too). In the history
 * that blank was never written, so it lies past the line's cells. The row says it wrapped so
 * (LINE_WIDE_WRAP): a cell skipped by the cursor before a wide character, put at a row's end by a narrower
 * reflow, looks the same and is text ("abck" CUF "中" was copied as "abck中"). */
static bool wide_wrap_blank(const struct grid *g, const struct screen *s, const struct line *l, uint64_t a)
{
	const int x = line_last(g, l); /* a double row wraps at its half */
	if (x < 1 || !(l->flags & LINE_WIDE_WRAP))
		return false;
	const struct grid_cell c = cell_at(l, x);
	if (c.cp != 0 || c.width != 1)
		return false;
	const struct line *next = abs_line(g, s, a + 1);
	return next && next->ncells > 0 && grid__line_cell(next, 0).width == 2;
}

/* The word, the run of blanks or the run of one punctuation character under the selection's ends, on across
 * soft wraps: a URL or a path that wrapped is one word (as xterm.js and kitty select it); a wide character's
 * early wrap (wide_wrap_blank) does not end it. */
static void expand_word(struct grid *g)
{
	struct screen *s = sel_screen(g);
	struct line *l = abs_line(g, s, g->sel.y0);
	if (l) {
		const uint32_t k = cell_class(g, l, g->sel.x0);
		for (;;) {
			while (g->sel.x0 > 0 && cell_class(g, l, g->sel.x0 - 1) == k)
				g->sel.x0--;
			struct line *p = g->sel.x0 == 0 && g->sel.y0 > 0 ? abs_line(g, s, g->sel.y0 - 1) : NULL;
			if (!p || !(p->flags & LINE_WRAPPED))
				break;
			const int x = line_last(g, p) - wide_wrap_blank(g, s, p, g->sel.y0 - 1);
			if (cell_class(g, p, x) != k)
				break;
			g->sel.y0--;
			g->sel.x0 = x;
			l = p;
		}
	}
	l = abs_line(g, s, g->sel.y1);
	if (l) {
		const uint32_t k = cell_class(g, l, g->sel.x1);
		for (;;) {
			const bool wraps = l->flags & LINE_WRAPPED;
			const int last = line_last(g, l) - (wraps && wide_wrap_blank(g, s, l, g->sel.y1));
			while (g->sel.x1 < last && cell_class(g, l, g->sel.x1 + 1) == k)
				g->sel.x1++;
			struct line *n = wraps && g->sel.x1 >= last ? abs_line(g, s, g->sel.y1 + 1) : NULL;
			if (!n || cell_class(g, n, 0) != k)
				break;
			g->sel.y1++;
			g->sel.x1 = 0;
			l = n;
		}
	}
}

/* The whole rows of the selection's lines, soft-wrapped rows joined: a line that wrapped is one line. */
static void expand_line(struct grid *g)
{
	struct screen *s = sel_screen(g);
	const struct line *l;
	g->sel.x0 = 0;
	g->sel.x1 = g->cols - 1;
	while (g->sel.y0 > 0 && (l = abs_line(g, s, g->sel.y0 - 1)) && l->flags & LINE_WRAPPED)
		g->sel.y0--;
	while ((l = abs_line(g, s, g->sel.y1)) && l->flags & LINE_WRAPPED && abs_line(g, s, g->sel.y1 + 1))
		g->sel.y1++;
}

/* Whether cell x of line a lies past the cell just after its text, on a line above the screen's last: where
 * xterm takes a cell selection's end as the start of the next line (its okPosition). Written blanks are text
 * (xterm's LastTextCol counts them), cells never written are not. */
static bool past_text(const struct grid *g, const struct screen *s, uint64_t a, int x)
{
	const struct line *l = abs_line(g, s, a);
	if (!l || a >= s->abs_top + (uint64_t)g->rows - 1)
		return false;
	int text = grid__min(l->ncells - 1, line_last(g, l));
	while (text >= 0 && grid__line_cell(l, text).cp == 0)
		text--;
	return x > text + 1;
}

void grid__select_update(struct grid *g)
{
	bool fwd = g->sel.ay < g->sel.by || (g->sel.ay == g->sel.by && g->sel.ax <= g->sel.bx);
	g->sel.y0 = fwd ? g->sel.ay : g->sel.by;
	g->sel.x0 = fwd ? g->sel.ax : g->sel.bx;
	g->sel.y1 = fwd ? g->sel.by : g->sel.ay;
	g->sel.x1 = fwd ? g->sel.bx : g->sel.ax;
	if (g->sel.mode == GRID_SELECT_WORD) {
		expand_word(g);
	} else if (g->sel.mode == GRID_SELECT_LINE) {
		expand_line(g);
	}
	/* the right half of a wide character goes with its left half */
	struct line *l = abs_line(g, sel_screen(g), g->sel.y0);
	if (l && g->sel.x0 > 0 && g->sel.x0 < l->ncells && grid__line_cell(l, g->sel.x0).width == 0)
		g->sel.x0--;
	l = abs_line(g, sel_screen(g), g->sel.y1);
	if (l && g->sel.x1 < l->ncells - 1 && grid__line_cell(l, g->sel.x1).width == 2)
		g->sel.x1++;
	/* A drag past the end of a row's text, as xterm copies it (tests/grid/test-select.c
	 * test_drag_past_line_end): the later end there takes the row's line end (one that wrapped has none: the
	 * row joins the next), the earlier one nothing of its row (both there on one row: nothing at all); the
	 * highlight follows (marked_cells). Decided now, as xterm does while the drag goes on: output that scrolls
	 * the rows up later (the screen's last row no longer last) does not change what is copied. */
	const bool cell = g->sel.mode == GRID_SELECT_CELL;
	g->sel.skip_y0 = cell && past_text(g, sel_screen(g), g->sel.y0, g->sel.x0);
	g->sel.edge_y1 = cell && past_text(g, sel_screen(g), g->sel.y1, g->sel.x1);
	g->sel.eol_y1 = g->sel.edge_y1 && !(l->flags & LINE_WRAPPED) && !(g->sel.skip_y0 && g->sel.y0 == g->sel.y1);
	mark(g, true);
}

/* Display column x of display row y as a cell's column: on a double row each cell is two columns wide. */
static int display_col(const struct grid *g, int x, int y)
{
	x = grid__clamp(x, 0, g->cols - 1);
	return grid_row_size(g, y) != GRID_LINE_SINGLE ? x / 2 : x;
}

static void start_at(struct grid *g, uint64_t a, int col, enum grid_select_mode mode)
{
	grid_select_clear(g);
	g->sel.active = true;
	g->sel.on_alt = g->scr == &g->alt;
	g->sel.mode = mode;
	g->sel.ay = g->sel.by = a;
	g->sel.ax = g->sel.bx = col;
	grid__select_update(g);
}

void grid_select_start(struct grid *g, int x, int y, enum grid_select_mode mode)
{
	start_at(g, display_to_abs(g, y), display_col(g, x, y), mode);
}

/* grid_line_at's numbers of the alternate screen's lines: each screen counts its own lines from 0, so a number
 * alone could name a line of either (a press on the primary screen, then 1049h before the drag, selected the
 * alternate screen's row of that number). Line numbers stay far below it (one a line ever written). */
#define LINE_AT_ALT (UINT64_C(1) << 63)

uint64_t grid_line_at(const struct grid *g, int y)
{
	return display_to_abs(g, y) | (g->scr == &g->alt ? LINE_AT_ALT : 0);
}

void grid_select_start_line(struct grid *g, int x, uint64_t line, enum grid_select_mode mode)
{
	struct screen *s = g->scr;
	if (!(line & LINE_AT_ALT) != (s == &g->primary)) {
		/* the line is on the other screen, not on display: nothing of this one is selected */
		grid_select_clear(g);
		return;
	}
	line &= ~LINE_AT_ALT;
	const uint64_t oldest = s->abs_top - s->sb_n, last = s->abs_top + (uint64_t)g->rows - 1;
	/* a line that left the history: the oldest left from its column 0, as a selection is trimmed
	 * (grid__select_scrolled) */
	if (line < oldest)
		x = 0;
	line = line < oldest ? oldest : line > last ? last : line;
	const struct line *l = abs_line(g, s, line);
	x = grid__clamp(x, 0, g->cols - 1);
	start_at(g, line, l && (l->flags & LINE_DBL_MASK) ? x / 2 : x, mode);
}

void grid_select_extend(struct grid *g, int x, int y)
{
	if (!g->sel.active)
		return;
	mark(g, false);
	g->sel.by = display_to_abs(g, y);
	g->sel.bx = display_col(g, x, y);
	grid__select_update(g);
}

/* The end nearer to the new point moves and the other becomes the anchor, as xterm's and foot's extend do: the
 * anchor alone (the press of a drag) would drop the far end when the point is before it. The ends are the
 * expanded ones, so a word or line selection keeps its whole words or lines on the other side. */
void grid_select_adjust(struct grid *g, int x, int y)
{
	if (!g->sel.active)
		return;
	const uint64_t cols = (uint64_t)g->cols;
	const uint64_t a = display_to_abs(g, y), p = a * cols + (uint64_t)display_col(g, x, y);
	const uint64_t start = g->sel.y0 * cols + (uint64_t)g->sel.x0, end = g->sel.y1 * cols + (uint64_t)g->sel.x1;
	const bool keep_end = p < start || (p <= end && p - start < end - p);
	g->sel.ay = keep_end ? g->sel.y1 : g->sel.y0;
	g->sel.ax = keep_end ? g->sel.x1 : g->sel.x0;
	grid_select_extend(g, x, y);
}

void grid_select_clear(struct grid *g)
{
	if (!g->sel.active)
		return;
	mark(g, false);
	g->sel.active = false;
}

bool grid_has_selection(const struct grid *g)
{
	return g->sel.active;
}

void grid__select_touch(struct grid *g, int y0, int y1)
{
	if (!g->sel.active || sel_screen(g) != g->scr)
		return;
	uint64_t a0 = g->scr->abs_top + (uint64_t)y0, a1 = g->scr->abs_top + (uint64_t)y1;
	if (a1 < g->sel.y0 || a0 > g->sel.y1)
		return;
	grid_select_clear(g);
}

void grid__select_apply(const struct grid *g, uint64_t abs, struct grid_cell *cells, int n)
{
	int x0, x1;
	if (!g->sel.active || g->sel.on_alt || !marked_cells(g, abs, &x0, &x1))
		return;
	for (int x = x0; x <= x1 && x < n; x++)
		cells[x].flags |= GRID_CELL_SELECTED;
}

/* The history dropped its oldest lines: a selection that started on one keeps the part that is left, from column
 * 0 of the oldest line, as xterm 379 trims its own (tests/grid/test-select-track.c
 * test_history_drops_first_line); it goes once its last line has gone too. The anchor of a drag in progress is
 * trimmed alike, so the drag goes on from there (cleared, it copied nothing). The oldest line was one of the
 * selection's middle lines or its last, so its marks from column 0 are set already. */
void grid__select_scrolled(struct grid *g)
{
	struct screen *s = sel_screen(g);
	const uint64_t oldest = s->abs_top - s->sb_n;
	if (!g->sel.active || g->sel.y0 >= oldest)
		return;
	if (g->sel.y1 < oldest) {
		grid_select_clear(g);
		return;
	}
	g->sel.y0 = oldest;
	g->sel.x0 = 0;
	g->sel.skip_y0 = false; /* the row it skipped has gone: the oldest line starts the text */
	if (g->sel.ay < oldest) {
		g->sel.ay = oldest;
		g->sel.ax = 0;
	}
	if (g->sel.by < oldest) {
		g->sel.by = oldest;
		g->sel.bx = 0;
	}
}

/* ------------------------------------------------------------------------------------- extraction */

struct buf {
	char *p;
	size_t n, cap, max;
	bool failed;
	bool cut; /* a piece did not fit max: nothing more is taken */
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->failed || b->cut)
		return;
	if (n > b->max - b->n) {
		b->cut = true;
		return;
	}
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->n + n + 1)
			cap *= 2;
		if (b->max < SIZE_MAX && cap > b->max + 1)
			cap = b->max + 1; /* the most it will hold (n fits max, checked above) */
		char *p = realloc(b->p, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void put_utf8(struct buf *b, uint32_t cp)
{
	char s[4];
	put(b, s, vt_utf8_encode(cp, s));
}

char *grid_selection_text(const struct grid *g, size_t *len)
{
	return grid_selection_text_max(g, SIZE_MAX, len, NULL);
}

char *grid_selection_text_max(const struct grid *g, size_t max, size_t *len, bool *cut)
{
	if (cut)
		*cut = false;
	if (!g->sel.active)
		return NULL;
	const struct screen *s = g->sel.on_alt ? &g->alt : &g->primary;
	struct buf b = {.max = max};
	for (uint64_t a = g->sel.y0 + g->sel.skip_y0; a <= g->sel.y1 && !b.cut; a++) {
		const struct line *l = abs_line(g, s, a);
		if (!l)
			continue;
		int x0 = a == g->sel.y0 ? g->sel.x0 : 0;
		/* a double row's text is its half: the cells past it are kept but not shown */
		const int last = line_last(g, l);
		int x1 = a == g->sel.y1 ? grid__min(g->sel.x1, last) : last;
		bool joined = (l->flags & LINE_WRAPPED) && x1 == last && a != g->sel.y1;
		/* a row that wrapped goes on to its end: blanks past the cells a history line keeps are text of the
		 * line as those on the screen are (the reflow leaves a skipped cell there when the line wraps at it,
		 * and "x" CUF "y" copied as "xy" from the history) */
		int end = joined || x1 < l->ncells ? x1 : l->ncells - 1;
		if (!joined) {
			/* the blanks after the line's last text go, not those inside it (xterm keeps them) */
			int text = grid__min(l->ncells - 1, last);
			while (text > end && grid__line_cell(l, text).cp == 0)
				text--;
			if (text == end)
				while (end >= x0 && grid__line_cell(l, end).cp == 0)
					end--;
		} else if (end == last && wide_wrap_blank(g, s, l, a))
			end--;
		for (int x = x0; x <= end; x++) {
			const struct grid_cell c = cell_at(l, x);
			if (c.width == 0)
				continue;
			uint32_t cps[CLUSTER_MAX_CPS];
			size_t n = grid_cell_codepoints(g, &c, cps, CLUSTER_MAX_CPS);
			if (n == 0)
				put(&b, " ", 1);
			for (size_t i = 0; i < n && i < CLUSTER_MAX_CPS; i++)
				put_utf8(&b, cps[i]);
		}
		if (!joined && a != g->sel.y1)
			put(&b, "\n", 1);
	}
	/* A line selection takes its last line's end too, as xterm's does (cutNewline, true by default): pasted, the
	 * lines come back whole, Enter included. */
	const struct line *last = abs_line(g, s, g->sel.y1);
	if ((g->sel.mode == GRID_SELECT_LINE && last && !(last->flags & LINE_WRAPPED)) || g->sel.eol_y1)
		put(&b, "\n", 1);
	const bool was_cut = b.cut;
	b.cut = false;
	put(&b, "", 0); /* the buffer exists, with room for the NUL (max counts text only) */
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	b.p[b.n] = '\0';
	if (len)
		*len = b.n;
	if (cut)
		*cut = was_cut;
	return b.p;
}
