/* tests/grid/test-recycle.c: the line feeds of a UTF-8 text flood. grid__print_utf8 takes "CR LF" between
 * lines of non-ASCII text itself, and the screen row that the line feed recycles (row 0, pushed into the
 * scrollback) is not cleared there: the next line is written over it and only the cells it does not cover are
 * blanked (grid__newline_deferred), or all of them when the text after the line feed is not for that path.
 * Here each line must read on the screen as printed, with default blanks after it, whatever the row held
 * before, and the scrollback must hold the lines as printed.
 */
#include "harness.h"

#define COLS 48
#define ROWS 3

/* Lines of non-ASCII text (the path needs a byte >= 0x80 in the next line's first 16 bytes) of different
 * lengths: Greek (two bytes, width 1), CJK (three bytes, width 2), Latin with a combining mark. */
static const char *const lines[] = {
	"\xce\xb1\xce\xb2\xce\xb3\xce\xb4\xce\xb5\xce\xb6\xce\xb7\xce\xb8\xce\xb9\xce\xba\xce\xbb\xce\xbc"
	"\xce\xbd\xce\xbe\xce\xbf\xcf\x80\xcf\x81\xcf\x83\xcf\x84\xcf\x85\xcf\x86\xcf\x87\xcf\x88\xcf\x89"
	" end of the long one",
	"\xe6\xbc\xa2\xe5\xad\x97 x",
	"\xc3\xa9t\xc3\xa9 a\xcc\x81" "b",
	"\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6"
	"\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97",
	"\xce\xa9",
	"\xd0\x96\xd0\xb8\xd0\xb2 \xd0\xb8 \xd0\xb7\xd0\xb4\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb2",
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* Line s as a row of its own: printed alone on a fresh grid (no recycled row, nothing to blank) */
static struct t_term *reference(const char *s)
{
	struct t_term *t = t_new(COLS, ROWS, 0);
	t_feed(t, s);
	return t;
}

/* Whether cells a (of grid ga) read as cells b (of grid gb): code points (a cluster by its code points:
 * equal clusters may be stored differently), width, style and link. */
static bool same_cells(const struct grid *ga, const struct grid_cell *a, const struct grid *gb,
		       const struct grid_cell *b, int n, int *at)
{
	for (int x = 0; x < n; x++) {
		uint32_t ca[8], cb[8];
		const size_t na = grid_cell_codepoints(ga, &a[x], ca, 8), nb = grid_cell_codepoints(gb, &b[x], cb, 8);
		if (na != nb || memcmp(ca, cb, na * sizeof(*ca)) || a[x].width != b[x].width || a[x].style != b[x].style ||
		    a[x].link != b[x].link)
			return *at = x, false;
	}
	return true;
}

/* The lines from first on, each after CR LF, as one feed of n lines; then the screen's rows and every
 * scrollback line must read as their lines printed alone. tail: what follows the last line feed, or NULL
 * (then the last line is the last row). */
static void check_flood(const char *name, size_t first, size_t n, const char *tail)
{
	struct t_term *t = t_new(COLS, ROWS, 100);
	char buf[4096] = "";
	for (size_t i = 0; i < n; i++) {
		strcat(buf, lines[(first + i) % NLINES]);
		if (i + 1 < n || tail)
			strcat(buf, "\r\n");
	}
	if (tail)
		strcat(buf, tail);
	t_feed(t, buf);
	/* the rows on the screen, the last one the tail's (when given) */
	const size_t rows = tail ? ROWS - 1 : ROWS;
	const size_t shown0 = n - rows;
	CHECK(grid_scrollback_lines(t->g) == shown0, "%s: scrollback %zu, not %zu", name,
	      grid_scrollback_lines(t->g), shown0);
	for (size_t i = 0; i < n; i++) {
		struct t_term *r = reference(lines[(first + i) % NLINES]);
		const struct grid_cell *want = grid_row(r->g, 0);
		int at = -1;
		if (i < shown0) {
			int len = 0;
			const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
			/* the cells after len were trimmed as blanks (cp 0 in style 0, a wide character's second
			 * half too) */
			struct grid_cell got[COLS];
			for (int x = 0; x < COLS; x++)
				got[x] = c && x < len ? c[x] : (struct grid_cell){.width = want[x].cp ? 1 : want[x].width};
			CHECK(c && same_cells(t->g, got, r->g, want, COLS, &at), "%s: scrollback line %zu differs at cell %d",
			      name, i, at);
		} else {
			const int y = (int)(i - shown0);
			CHECK(same_cells(t->g, grid_row(t->g, y), r->g, want, COLS, &at),
			      "%s: row %d (line %zu) differs at cell %d", name, y, i, at);
		}
		t_free(r);
	}
	if (tail) {
		struct t_term *r = reference(tail);
		int at = -1;
		CHECK(same_cells(t->g, grid_row(t->g, ROWS - 1), r->g, grid_row(r->g, 0), COLS, &at),
		      "%s: the tail's row differs at cell %d", name, at);
		t_free(r);
	}
	t_free(t);
}

int main(void)
{
	/* every line on every recycled row: a short line on the long one's row, a long one on a short one's */
	for (size_t first = 0; first < NLINES; first++)
		for (size_t n = ROWS + 1; n <= ROWS + 2 * NLINES; n++)
			check_flood("flood", first, n, NULL);
	/* after the last line feed, text the path leaves to the parser (a control, a mark with nothing to join):
	 * the recycled row is blanked whole before the parser writes it (the path takes the line feed when the
	 * 16 bytes after it hold a byte >= 0x80); ROWS lines, so that the tail's row is the first line's (the
	 * long ones: 44 and 32 cells) */
	static const char *const tails[] = {
		"\a\xce\xa9 and more text",
		"\tx \xce\xb1\xce\xb2 and more text",
		"\xcc\x81x \xce\xb1\xce\xb2 and more text",
		"x \xce\xb1\xce\xb2 and more text",
		"",
	};
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		check_flood("after the line feed", 0, ROWS, tails[i]);
		check_flood("after the line feed", 3, ROWS, tails[i]);
	}
	printf("recycle: %d checks, %d failures\n", t_checks, t_fails);
	return t_fails != 0;
}
