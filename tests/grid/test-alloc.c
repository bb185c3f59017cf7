/* tests/grid/test-alloc.c: a line entering a full scrollback costs no heap or mapping call (issue 2's ring
 * rule: recycled storage, nothing allocated per line in steady state), and the recycled scrollback still
 * holds the right lines.
 *
 * The executable is linked with -Wl,--wrap for malloc, calloc, realloc, strdup, mmap and mmap64 (tests/grid/
 * meson.build), so every such call made by the statically linked grid and vt code lands in a counter here
 * before reaching the real function (the sanitizers' one in the ASan build).
 *
 * Also: lines of ASCII in many styles (an escape-heavy flood's) take a quarter of the scrollback memory of
 * their cells (LINE_STYLED, 3 bytes a cell instead of 12), counted in the scrollback's chunk mappings.
 * And a resize to a wide screen asks the heap for about its new screens, whatever the scrollback holds.
 */
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "harness.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__real_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void *__wrap_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__real_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off);
void *__wrap_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off);

static unsigned long n_alloc, n_map;
static bool fail_map; /* mmap answers ENOMEM (the machine out of memory) */
static size_t n_bytes; /* asked of malloc, calloc and realloc */

void *__wrap_malloc(size_t n)
{
	n_alloc++;
	n_bytes += n;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	n_alloc++;
	n_bytes += n * m;
	return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	n_alloc++;
	n_bytes += n;
	return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	n_alloc++;
	return __real_strdup(s);
}

void *__wrap_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	n_map++;
	if (fail_map)
		return MAP_FAILED;
	return __real_mmap(a, n, prot, flags, fd, off);
}

/* with _FILE_OFFSET_BITS=64 (meson's default) the grid's mmap calls are mmap64's */
void *__wrap_mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	n_map++;
	if (fail_map)
		return MAP_FAILED;
	return __real_mmap64(a, n, prot, flags, fd, off);
}

#define COLS 80
#define ROWS 24
#define SB 1000
#define LINES 30000

/* Line i: "L<i>" padded with a letter to a length that cycles through 0..COLS (full lines wrap-free: the
 * last column leaves a pending wrap that the CR LF clears), some of them coloured. */
static size_t make_flood(char *buf, size_t cap, unsigned first, unsigned n)
{
	size_t o = 0;
	for (unsigned i = first; i < first + n; i++) {
		int len = (int)(i * 7u % (COLS + 1));
		if (i % 5 == 0)
			o += (size_t)snprintf(buf + o, cap - o, "\033[3%um", i % 8);
		int k = snprintf(buf + o, cap - o, "L%u", i);
		o += (size_t)k;
		for (int x = k; x < len; x++)
			buf[o++] = (char)('a' + i % 26);
		o += (size_t)snprintf(buf + o, cap - o, "\033[m\r\n");
	}
	return o;
}

static unsigned line_number(const struct grid_cell *c, int len)
{
	unsigned v = 0;
	if (len < 2 || c[0].cp != 'L')
		return ~0u;
	for (int x = 1; x < len && c[x].cp >= '0' && c[x].cp <= '9'; x++)
		v = v * 10 + (c[x].cp - '0');
	return v;
}

/* 2000 lines of 80 cells in 8 styles, 10 cells each, through a scrollback of 2000 lines: whole, that is
 * 2000 * 976 bytes (four chunks of 512 KiB), styled and packed 2000 * 256 (one, or two). Every cell reads
 * back with its character and style. */
static void test_styled_lines(void)
{
	enum { N = 2000, W = 80 };
	struct t_term *t = t_new(W, 4, N);
	t_feed(t, "warm-up\r\n");
	n_map = 0;
	for (int i = 0; i < N + 3; i++) {
		char line[W * 8 + 16];
		size_t o = 0;
		for (int x = 0; x < W; x++) {
			if (x % 10 == 0)
				o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[%d;3%dm", x % 20 ? 1 : 22, (i + x / 10) % 8);
			line[o++] = (char)('!' + (i + x) % 90);
		}
		o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[m\r\n");
		grid_feed(t->g, (const uint8_t *)line, o);
	}
	CHECK(n_map <= 2, "%lu scrollback chunks mapped for %d lines of 80 styled ASCII cells", n_map, N);
	CHECK(grid_scrollback_lines(t->g) == N, "scrollback %zu", grid_scrollback_lines(t->g));
	int bad = 0;
	for (size_t i = 0; i < N; i++) {
		int len, li = (int)i; /* 2001 lines scrolled out: the warm-up line left the scrollback */
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		for (int x = 0; c && x < W && x < len; x++) {
			const struct grid_style *st = grid_style(t->g, c[x].style);
			uint32_t want_fg = GRID_COLOR_PALETTE((uint32_t)((li + x / 10) % 8));
			bool bold = (st->attrs & GRID_ATTR_BOLD) != 0;
			if (c[x].cp != (uint32_t)('!' + (li + x) % 90) || st->fg != want_fg || bold != (x % 20 >= 10) ||
			    c[x].width != 1 || c[x].link || c[x].flags) {
				if (bad++ < 3)
					CHECK(0, "scrollback row %zu cell %d: cp %u fg %08x", i, x, c[x].cp, st->fg);
			}
		}
		if (!c || len != W)
			bad++;
	}
	CHECK(bad == 0, "%d styled scrollback cells wrong", bad);
	t_free(t);
}

/* The same with style ids above 0x7fff: a long-lived terminal's history of colours holds more than 32768
 * styles, and then every line of several styles was kept whole (12 bytes a cell, 4x the memory, and read
 * cell by cell at each collection of the styles): 38 % of csi's history after 12 passes of its workload.
 * 1000 lines of 40 truecolour styles each keep 40000 styles live; then 2000 lines of 80 ASCII cells in 8
 * new styles each take ids above 0x7fff and must be packed (2000 * 256 bytes: one chunk of 512 KiB, or
 * two; whole, four). Every cell of both reads back with its character and colour. */
static void test_styled_lines_high_ids(void)
{
	enum { N1 = 1000, N2 = 2000, W = 80 };
	struct t_term *t = t_new(W, 4, N1 + N2);
	char line[W * 24 + 16];
	for (int i = 0; i < N1; i++) {
		size_t o = 0;
		for (int j = 0; j < W / 2; j++) {
			int k = i * (W / 2) + j + 1;
			o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[38;2;%d;%d;%dmab", k >> 16, (k >> 8) & 255,
					      k & 255);
		}
		o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[m\r\n");
		grid_feed(t->g, (const uint8_t *)line, o);
	}
	n_map = 0;
	int high = 0;
	for (int i = 0; i < N2 + 3; i++) {
		size_t o = 0;
		for (int x = 0; x < W; x++) {
			if (x % 10 == 0) {
				int k = i * 8 + x / 10 + 1;
				o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[48;2;%d;%d;%dm", k >> 16,
						      (k >> 8) & 255, k & 255);
			}
			line[o++] = (char)('!' + (i + x) % 90);
		}
		o += (size_t)snprintf(line + o, sizeof(line) - o, "\033[m\r\n");
		grid_feed(t->g, (const uint8_t *)line, o);
		high += grid_row(t->g, 2)[0].style > 0x7fff;
	}
	CHECK(high > N2 / 2, "only %d of %d lines had a style id above 0x7fff: the test proves nothing", high, N2);
	CHECK(n_map <= 2, "%lu scrollback chunks mapped for %d lines of 80 ASCII cells in styles above 0x7fff",
	      n_map, N2);
	CHECK(grid_scrollback_lines(t->g) == N1 + N2, "scrollback %zu", grid_scrollback_lines(t->g));
	int bad = 0;
	for (size_t i = 0; i < N1 + N2; i++) {
		int len;
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		for (int x = 0; c && x < W && x < len; x++) {
			const struct grid_style *st = grid_style(t->g, c[x].style);
			int k = i < N1 ? (int)i * (W / 2) + x / 2 + 1 : ((int)i - N1) * 8 + x / 10 + 1;
			uint32_t want = GRID_COLOR_RGB(k >> 16, (k >> 8) & 255, k & 255);
			uint32_t cp = i < N1 ? (uint32_t)"ab"[x % 2] : (uint32_t)('!' + ((int)i - N1 + x) % 90);
			if (c[x].cp != cp || (i < N1 ? st->fg : st->bg) != want) {
				if (bad++ < 3)
					CHECK(0, "scrollback row %zu cell %d: cp %u fg %08x bg %08x want %08x", i, x,
					      c[x].cp, st->fg, st->bg, want);
			}
		}
		if (!c || len != W)
			bad++;
	}
	CHECK(bad == 0, "%d scrollback cells wrong", bad);
	t_free(t);
}

/* A resize to a wide screen (a rotation, a smaller font, a larger output) with a full scrollback of short
 * lines asks the heap for about the new screens, not for every history line at the new width: the reflow
 * built each of them as a row of the new width before copying its text into the scrollback, 1024 rows of
 * 4096 cells (48 MiB here, 490 MiB and 4 s for the default 10000 lines). The text comes through whole. */
static void test_wide_resize(void)
{
	enum { N = 1000, W = 4096, H = 24 };
	struct t_term *t = t_new(80, H, N);
	for (int i = 0; i < N + H; i++)
		t_feedf(t, "line %d\r\n", i);
	n_bytes = 0;
	CHECK(grid_resize(t->g, W, H) == 0, "resize to %dx%d", W, H);
	/* both screens and the view's buffer, H + 1 rows of W cells each, and as much again */
	size_t bound = 6 * (size_t)(H + 1) * W * sizeof(struct grid_cell);
	CHECK(n_bytes < bound, "%zu bytes asked of the heap by a resize to %dx%d (bound %zu)", n_bytes, W, H, bound);
	CHECK(grid_scrollback_lines(t->g) == N, "scrollback %zu", grid_scrollback_lines(t->g));
	int len;
	const struct grid_cell *c = grid_scrollback_row(t->g, 0, &len);
	CHECK(c && strcmp(t_cells_text(t->g, c, len), "line 1") == 0, "oldest scrollback row \"%s\"",
	      c ? t_cells_text(t->g, c, len) : "");
	CHECK_ROW(t, 0, "line 1001");
	CHECK_ROW(t, H - 2, "line 1023");
	grid_resize(t->g, 7, H);
	CHECK_ROW(t, H - 3, "line 10");
	CHECK_ROW(t, H - 2, "23");
	t_free(t);
}

/* Out of memory for the scrollback's next chunk, the history is forgotten (the screen kept): a view scrolled
 * back into it (a selection being dragged there keeps the view while output arrives) stayed where it was,
 * past the lines there were, on ring slots whose lines had died: the display showed whatever the recycled
 * chunk held there, read as lines. It goes down to what is left. */
static void test_oom_scrolled_back(void)
{
	enum { W = 80, N = 2000 };
	struct t_term *t = t_new(W, 4, N);
	char line[W * 2 + 8];
	size_t o = 0;
	for (int x = 0; x < W; x++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "\xc3\xa9"); /* whole lines, 976 bytes each */
	snprintf(line + o, sizeof(line) - o, "\r\n");
	for (int i = 0; i < 300; i++)
		t_feed(t, line);
	CHECK(grid_view_scroll(t->g, 200) == 200, "scrolled back");
	fail_map = true;
	/* past the first chunk of 512 KiB (537 such lines), and on into the one that is reused */
	for (int i = 0; i < 400; i++)
		t_feed(t, line);
	fail_map = false;
	CHECK((size_t)grid_view_offset(t->g) <= grid_scrollback_lines(t->g),
	      "the view %d lines back, past the %zu the history holds", grid_view_offset(t->g),
	      grid_scrollback_lines(t->g));
	for (int y = 0; y < 4; y++) {
		const char *r = t_row(t, y);
		CHECK(!*r || !strncmp(r, "\xc3\xa9\xc3\xa9", 4), "display row %d: \"%.20s\"", y, r);
	}
	t_free(t);
}

int main(void)
{
	test_oom_scrolled_back();
	test_styled_lines();
	test_styled_lines_high_ids();
	test_wide_resize();
	size_t cap = (size_t)LINES * (COLS + 16);
	char *warm = malloc(cap), *flood = malloc(cap);
	if (!warm || !flood)
		return 1;
	size_t nw = make_flood(warm, cap, 0, LINES);
	size_t nf = make_flood(flood, cap, LINES, LINES);
	struct t_term *t = t_new(COLS, ROWS, SB);

	/* the first pass fills the scrollback and whatever storage it settles on */
	grid_feed(t->g, (const uint8_t *)warm, nw);
	CHECK(grid_scrollback_lines(t->g) == SB, "scrollback after warm-up %zu", grid_scrollback_lines(t->g));

	n_alloc = n_map = 0;
	grid_feed(t->g, (const uint8_t *)flood, nf);
	CHECK(n_alloc == 0, "%lu heap allocations for %u lines in steady state", n_alloc, LINES);
	CHECK(n_map == 0, "%lu mappings for %u lines in steady state", n_map, LINES);

	/* the recycled storage holds the right lines: the screen shows the last ROWS - 1 lines (the cursor
	 * sits on a blank last row), the scrollback the SB before them, oldest first */
	CHECK(grid_scrollback_lines(t->g) == SB, "scrollback after flood %zu", grid_scrollback_lines(t->g));
	unsigned oldest = 2 * LINES - (ROWS - 1) - SB;
	int bad = 0;
	for (size_t i = 0; i < SB; i++) {
		int len;
		const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
		unsigned want = oldest + (unsigned)i;
		int want_len = (int)(want * 7u % (COLS + 1));
		char num[16];
		int k = snprintf(num, sizeof(num), "L%u", want);
		if (want_len < k)
			want_len = k;
		/* len may include trailing blanks; the text must match and nothing may follow it */
		if (!c || line_number(c, len) != want || len < want_len ||
		    (want_len > k && c[want_len - 1].cp != (uint32_t)('a' + want % 26)) ||
		    (len > want_len && c[want_len].cp != 0 && c[want_len].cp != ' ')) {
			if (bad++ < 3)
				CHECK(0, "scrollback row %zu: want line %u", i, want);
		}
	}
	CHECK(bad == 0, "%d scrollback rows wrong", bad);

	t_free(t);
	free(warm);
	free(flood);
	printf("%d checks, %d failures\n", t_checks, t_fails);
	return t_fails ? 1 : 0;
}
