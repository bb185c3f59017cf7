/* tests/grid/harness.h: tiny helpers shared by the grid tests (header-only, static). */
#ifndef TESTS_GRID_HARNESS_H
#define TESTS_GRID_HARNESS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"

static int t_fails;
static int t_checks;

#define CHECK(cond, ...)                                                                                   \
	do {                                                                                               \
		t_checks++;                                                                                \
		if (!(cond)) {                                                                             \
			t_fails++;                                                                         \
			fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond);                   \
			fprintf(stderr, __VA_ARGS__);                                                      \
			fputc('\n', stderr);                                                               \
		}                                                                                          \
	} while (0)

struct t_term {
	struct grid *g;
	char reply[4096];
	size_t reply_len;
	int bells;
	char title[256];
};

static inline void t_on_reply(void *ud, const uint8_t *d, size_t n)
{
	struct t_term *t = ud;
	if (t->reply_len + n < sizeof(t->reply)) {
		memcpy(t->reply + t->reply_len, d, n);
		t->reply_len += n;
		t->reply[t->reply_len] = '\0';
	}
}

static inline void t_on_bell(void *ud)
{
	((struct t_term *)ud)->bells++;
}

static inline void t_on_title(void *ud, const char *s)
{
	snprintf(((struct t_term *)ud)->title, sizeof(((struct t_term *)ud)->title), "%s", s);
}

static inline struct t_term *t_new(int cols, int rows, size_t sb)
{
	struct t_term *t = calloc(1, sizeof(*t));
	struct grid_config cfg = {.cols = cols, .rows = rows, .scrollback = sb, .cell_width = 8,
				  .cell_height = 16, .xtversion = "kf-test"};
	struct grid_callbacks cb = {.reply = t_on_reply, .bell = t_on_bell, .title = t_on_title};
	t->g = grid_create(&cfg, &cb, t);
	if (!t->g) {
		fprintf(stderr, "grid_create failed\n");
		exit(1);
	}
	return t;
}

static inline void t_free(struct t_term *t)
{
	grid_destroy(t->g);
	free(t);
}

static inline void t_feed(struct t_term *t, const char *s)
{
	grid_feed(t->g, (const uint8_t *)s, strlen(s));
}

static inline void t_feedf(struct t_term *t, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	grid_feed(t->g, (const uint8_t *)buf, (size_t)n);
}

/* Whether cell a of grid ga holds what cell b of grid gb does: the same code point, or clusters of the same
 * code points. A cluster's id depends on when its grid's collections ran, which follows the style ids it
 * took: a flood of fresh styles takes ids without looking for an equal style (grid__intern_fresh), and two
 * grids fed the same bytes by different paths may then take different numbers. */
static inline int t_same_cp(const struct grid *ga, const struct grid_cell *a, const struct grid *gb,
			    const struct grid_cell *b)
{
	if (!((a->cp | b->cp) & GRID_CP_CLUSTER))
		return a->cp == b->cp;
	uint32_t x[16], y[16];
	size_t n = grid_cell_codepoints(ga, a, x, 16), m = grid_cell_codepoints(gb, b, y, 16);
	return n == m && memcmp(x, y, (n < 16 ? n : 16) * sizeof(x[0])) == 0;
}

/* Whether two cells' styles resolve to the same colours and attributes: the ids themselves may differ when
 * two grids interned their styles in a different order (t_same_cp) */
static inline int t_same_style_values(const struct grid_style *s, const struct grid_style *t)
{
	return s->fg == t->fg && s->bg == t->bg && s->ul_color == t->ul_color && s->attrs == t->attrs &&
	       s->underline == t->underline;
}

static inline int t_same_style(const struct grid *ga, const struct grid_cell *a, const struct grid *gb,
			       const struct grid_cell *b)
{
	return t_same_style_values(grid_style(ga, a->style), grid_style(gb, b->style));
}

/* Whether two grids' cursors (place, visibility, blink, shape) are the same */
static inline bool t_same_cursor(const struct grid *a, const struct grid *b)
{
	struct grid_cursor ca, cb;
	grid_get_cursor(a, &ca);
	grid_get_cursor(b, &cb);
	return ca.x == cb.x && ca.y == cb.y && ca.visible == cb.visible && ca.blink == cb.blink && ca.shape == cb.shape;
}

/* Whether two grids' modes (grid_get_modes) are the same */
static inline bool t_same_modes(const struct grid *a, const struct grid *b)
{
	struct grid_modes ma, mb;
	grid_get_modes(a, &ma);
	grid_get_modes(b, &mb);
	return ma.mouse == mb.mouse && ma.mouse_encoding == mb.mouse_encoding &&
	       ma.alternate_scroll == mb.alternate_scroll && ma.bracketed_paste == mb.bracketed_paste &&
	       ma.synchronized == mb.synchronized && ma.reverse_video == mb.reverse_video &&
	       ma.alt_screen == mb.alt_screen && ma.keys.cursor_keys_app == mb.keys.cursor_keys_app &&
	       ma.keys.keypad_app == mb.keys.keypad_app && ma.keys.newline_mode == mb.keys.newline_mode &&
	       ma.keys.modify_other_keys == mb.keys.modify_other_keys && ma.keys.kitty_flags == mb.keys.kitty_flags;
}

/* buf[from..to) as one feed to g from a buffer of its own with after[0..after_len) behind it, so that a path
 * reading or taking bytes past the end of its feed shows (the random stream tests) */
static inline void t_feed_alone(struct grid *g, const char *buf, int from, int to, const char *after,
				size_t after_len)
{
	size_t n = (size_t)(to - from);
	char *c = malloc(n + after_len);
	memcpy(c, buf + from, n);
	memcpy(c + n, after, after_len);
	grid_feed(g, (const uint8_t *)c, n);
	free(c);
}

/* buf[0..n) fed to g a byte at a time (the parser's table machine for everything) */
static inline void t_feed_bytes(struct grid *g, const char *buf, size_t n)
{
	for (size_t k = 0; k < n; k++)
		grid_feed(g, (const uint8_t *)buf + k, 1);
}

/* Text of cells as UTF-8: blanks as ' ', right halves skipped, trailing blanks trimmed. */
static inline const char *t_cells_text(const struct grid *g, const struct grid_cell *c, int n)
{
	static char buf[16384];
	size_t k = 0, last = 0;
	for (int x = 0; x < n && k + 64 < sizeof(buf); x++) {
		if (c[x].width == 0)
			continue;
		uint32_t cps[16];
		size_t m = grid_cell_codepoints(g, &c[x], cps, 16);
		if (m == 0) {
			buf[k++] = ' ';
			continue;
		}
		for (size_t i = 0; i < m && i < 16; i++)
			k += vt_utf8_encode(cps[i], buf + k);
		last = k;
	}
	buf[last] = '\0';
	return buf;
}

static inline const char *t_row(struct t_term *t, int y)
{
	return t_cells_text(t->g, grid_row(t->g, y), grid_cols(t->g));
}

/* The selection's text (grid_selection_text) in a static buffer, "(null)" when there is none. */
static inline char *t_sel(struct t_term *t)
{
	static char buf[1024];
	size_t n = 0;
	char *s = grid_selection_text(t->g, &n);
	snprintf(buf, sizeof(buf), "%s", s ? s : "(null)");
	free(s);
	return buf;
}

/* Cells on display marked as selected (GRID_CELL_SELECTED). */
static inline int t_marks(struct t_term *t)
{
	int n = 0;
	for (int y = 0; y < grid_rows(t->g); y++)
		for (int x = 0; x < grid_cols(t->g); x++)
			n += !!(grid_row(t->g, y)[x].flags & GRID_CELL_SELECTED);
	return n;
}

#define CHECK_ROW(t, y, want)                                                                              \
	do {                                                                                               \
		const char *got_ = t_row(t, y);                                                            \
		CHECK(strcmp(got_, want) == 0, "row %d: got \"%s\" want \"%s\"", y, got_, want);          \
	} while (0)

#define CHECK_CURSOR(t, wx, wy)                                                                            \
	do {                                                                                               \
		struct grid_cursor c_;                                                                     \
		grid_get_cursor(t->g, &c_);                                                                \
		CHECK(c_.x == (wx) && c_.y == (wy), "cursor %d,%d want %d,%d", c_.x, c_.y, wx, wy);        \
	} while (0)

#define CHECK_REPLY(t, want)                                                                               \
	do {                                                                                               \
		CHECK(strcmp(t->reply, want) == 0, "reply \"%s\" want \"%s\"", t->reply + (t->reply[0] == 27), \
		      (want) + ((want)[0] == 27));                                                         \
		t->reply_len = 0;                                                                          \
		t->reply[0] = '\0';                                                                        \
	} while (0)

/* A failing input on stderr: printable ASCII as is, every other byte as \xNN (for the random-stream tests) */
static inline void t_dump(const char *buf, int len)
{
	fprintf(stderr, "  input:");
	for (int k = 0; k < len; k++)
		fprintf(stderr, (unsigned char)buf[k] >= 0x20 && buf[k] < 0x7f ? "%c" : "\\x%02x", (unsigned char)buf[k]);
	fputc('\n', stderr);
}

/* What a split-feed test needs besides the stream: the bytes put behind each feed (t_feed_alone), a probe fed to
 * both terminals after the stream (a parser left in another state takes it otherwise), the test's own comparison
 * of two terminals (nonzero when they differ), and whether a whole feed (cut < 0) goes from its own buffer with
 * the poison behind it or from buf itself. */
struct t_split {
	const char *poison, *probe;
	size_t poison_len, probe_len;
	int (*compare)(struct t_term *a, struct t_term *b, const char *what);
	bool whole_alone;
};

/* buf fed to a whole (cut < 0) or in two feeds cut at cut, to b a byte at a time, then the probe to both;
 * nonzero (and the input on stderr) when they differ */
static inline int t_split_vs_bytes(const struct t_split *sp, struct t_term *a, struct t_term *b, const char *buf,
				   int len, int cut)
{
	if (cut >= 0) {
		t_feed_alone(a->g, buf, 0, cut, sp->poison, sp->poison_len);
		t_feed_alone(a->g, buf, cut, len, sp->poison, sp->poison_len);
	} else if (sp->whole_alone) {
		t_feed_alone(a->g, buf, 0, len, sp->poison, sp->poison_len);
	} else {
		grid_feed(a->g, (const uint8_t *)buf, (size_t)len);
	}
	t_feed_bytes(b->g, buf, (size_t)len);
	char what[40];
	snprintf(what, sizeof(what), "cut %d", cut);
	int bad = sp->compare(a, b, what);
	if (!bad) {
		grid_feed(a->g, (const uint8_t *)sp->probe, sp->probe_len);
		t_feed_bytes(b->g, sp->probe, sp->probe_len);
		snprintf(what, sizeof(what), "cut %d, probe after", cut);
		bad = sp->compare(a, b, what);
	}
	if (bad)
		t_dump(buf, len);
	return bad;
}

/* A number below n from the xorshift state *x (the random tests' own sequences, reproducible) */
static inline uint32_t t_rnd(uint64_t *x, uint32_t n)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint32_t)(*x >> 11) % n;
}

static inline int t_done(const char *name)
{
	fprintf(stderr, "%s: %d checks, %d failed\n", name, t_checks, t_fails);
	return t_fails ? 1 : 0;
}

/* A copy of the rows on display (grid_row), to find the cells changed since it was taken (t_snap) */
struct t_shadow {
	struct grid_cell *c;
	int cols, rows;
};

static inline void t_snap(struct t_shadow *s, const struct grid *g)
{
	s->cols = grid_cols(g);
	s->rows = grid_rows(g);
	free(s->c);
	s->c = malloc(sizeof(*s->c) * (size_t)s->cols * (size_t)s->rows);
	for (int y = 0; y < s->rows; y++)
		memcpy(&s->c[(size_t)y * (size_t)s->cols], grid_row(g, y), sizeof(*s->c) * (size_t)s->cols);
}

#endif
