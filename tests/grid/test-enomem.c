/* tests/grid/test-enomem.c: the grid under memory pressure. A scripted session (text, wide characters,
 * combining marks and clusters, hundreds of styles, OSC 8 links, titles and their stack, palette and
 * clipboard replies, a long reply, a long string, a rectangle copy, scrollback filled, resizes that reflow,
 * the alternate screen, selections and their text, RIS), and 20000 clusters (the cluster table on the heap,
 * mapped, remapped), are run again and again with one allocation failing: the Nth only, and every one from
 * the Nth on, for every N (tests/kf-failalloc.h). Each run must end without a crash or a sanitizer report,
 * leak nothing (heap: LeakSanitizer in the ASan build; mappings: counted), keep the grid readable and
 * consistent after every step (and the debug build's LINE_ASCII and put_utf8 checks), text whose link could
 * not be made unlinked, and a resize or a selection's text whose allocation failed must say so (-ENOMEM,
 * NULL) and change nothing on the screen. After the failures stop the same grid must work: RIS and a line
 * of text give a fresh grid's screen. KF_FAILALLOC_VERBOSE=1 names each N not ok, with its output.
 */
#include <stdint.h>

#include "../kf-failalloc.h"
#include "harness.h"

/* ------------------------------------------------------------------------------------------ checks */


/* A grid's text (screen rows, then scrollback rows) as code points, a row's end as '\n' */
struct snap {
	uint32_t *cp;
	size_t n, cap;
};

static void snap_put(struct snap *s, uint32_t c)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->cp = __real_realloc(s->cp, s->cap * sizeof(*s->cp));
		if (!s->cp)
			abort();
	}
	s->cp[s->n++] = c;
}

static void snap_cells(struct snap *s, const struct grid *g, const struct grid_cell *c, int n)
{
	for (int x = 0; x < n; x++) {
		uint32_t cp[32];
		size_t k = grid_cell_codepoints(g, &c[x], cp, 32);
		for (size_t i = 0; i < k && i < 32; i++)
			snap_put(s, cp[i]);
		if (k == 0)
			snap_put(s, ' ');
	}
	snap_put(s, '\n');
}

static void snap_take(struct snap *s, const struct grid *g)
{
	s->n = 0;
	for (int y = 0; y < grid_rows(g); y++)
		snap_cells(s, g, grid_row(g, y), grid_cols(g));
	snap_put(s, '-');
	for (size_t i = 0; i < grid_scrollback_lines(g); i++) {
		int len = 0;
		const struct grid_cell *c = grid_scrollback_row(g, i, &len);
		snap_cells(s, g, c, c ? len : 0);
	}
}

static void snap_print(const struct snap *s)
{
	for (size_t i = 0; i < s->n; i++)
		fputc(s->cp[i] < 0x80 ? (int)s->cp[i] : '?', stderr);
}

/* (the two, when they differ, in the verbose run) */
static bool snap_same(const struct snap *a, const struct snap *b)
{
	bool same = a->n == b->n && memcmp(a->cp, b->cp, a->n * sizeof(*a->cp)) == 0;
	if (!same && getenv("KF_FAILALLOC_VERBOSE")) {
		snap_print(a);
		fputs("=====\n", stderr);
		snap_print(b);
		fputs("=====\n", stderr);
	}
	return same;
}

/* What a reader of the grid reads stays within the grid's own bounds and tables (ASan sees any stray read) */
static void check_readable(const struct grid *g, const char *step)
{
	CHECK(grid_cols(g) >= 1 && grid_cols(g) <= GRID_MAX_DIM && grid_rows(g) >= 1, "%s: size %dx%d", step,
	      grid_cols(g), grid_rows(g));
	struct grid_cursor cur;
	grid_get_cursor(g, &cur);
	/* (scrolled back, the cursor's row is below the display's) */
	CHECK(cur.x >= 0 && cur.x < grid_cols(g) && cur.y >= 0 && cur.y < grid_rows(g) + grid_view_offset(g),
	      "%s: cursor %d,%d", step, cur.x, cur.y);
	for (int y = 0; y < grid_rows(g); y++) {
		const struct grid_cell *c = grid_row(g, y);
		CHECK(c != NULL, "%s: row %d", step, y);
		for (int x = 0; c && x < grid_cols(g); x++) {
			uint32_t cp[8];
			CHECK(grid_style(g, c[x].style) != NULL, "%s: style %u at %d,%d", step, c[x].style, x, y);
			if (c[x].link)
				CHECK(grid_link_uri(g, c[x].link) != NULL, "%s: link %u at %d,%d", step, c[x].link,
				      x, y);
			if (c[x].cp & GRID_CP_CLUSTER)
				CHECK(grid_cell_codepoints(g, &c[x], cp, 8) > 0, "%s: cluster at %d,%d", step, x, y);
			CHECK(c[x].width <= 2, "%s: width %u at %d,%d", step, c[x].width, x, y);
		}
	}
	(void)grid_title(g);
}

/* The screen after each step of the run with memory to spare (taken before the children fork: theirs too),
 * for the comparison of the screen's text */
#define CPS 16
struct shot {
	int cols, rows, view;
	size_t sb;
	uint32_t (*cp)[CPS];
	uint8_t *n, *w;
};

static void shot_take(struct shot *s, const struct grid *g)
{
	s->cols = grid_cols(g);
	s->rows = grid_rows(g);
	s->view = grid_view_offset(g);
	s->sb = grid_scrollback_lines(g);
	size_t cells = (size_t)s->cols * (size_t)s->rows;
	s->cp = __real_calloc(cells, sizeof(*s->cp));
	s->n = __real_calloc(cells, 1);
	s->w = __real_calloc(cells, 1);
	if (!s->cp || !s->n || !s->w)
		abort();
	for (int y = 0; y < s->rows; y++) {
		const struct grid_cell *c = grid_row(g, y);
		for (int x = 0; x < s->cols; x++) {
			size_t i = (size_t)y * (size_t)s->cols + (size_t)x;
			size_t k = grid_cell_codepoints(g, &c[x], s->cp[i], CPS);
			s->n[i] = (uint8_t)(k < CPS ? k : CPS);
			s->w[i] = c[x].width;
		}
	}
}

/* Whether code points a[0..na) are b[0..nb) with some left out, the first kept: a cluster some of whose
 * joins were dropped, out of memory */
static bool joins_dropped(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	if (na == 0 || nb == 0 || a[0] != b[0] || na > nb)
		return na == nb && na == 0;
	size_t j = 1;
	for (size_t i = 1; i < na; i++) {
		while (j < nb && b[j] != a[i])
			j++;
		if (j == nb)
			return false;
		j++;
	}
	return true;
}

/* The screen's text is the one with memory to spare (ref) but for joins dropped from clusters: an allocation
 * that failed never loses what is on the screen. Compared while both show the same (not after a resize that
 * failed, nor when a scrollback line was lost: a resize pulls history lines back onto the screen). */
static bool screen_as_ref(const struct grid *g, const struct shot *ref, const char *step)
{
	struct shot now;
	shot_take(&now, g);
	const bool same = now.cols == ref->cols && now.rows == ref->rows && now.view == ref->view && now.sb == ref->sb;
	int bad = 0;
	for (size_t i = 0; same && i < (size_t)ref->cols * (size_t)ref->rows; i++)
		bad += now.w[i] != ref->w[i] || !joins_dropped(now.cp[i], now.n[i], ref->cp[i], ref->n[i]);
	CHECK(bad == 0, "%s: %d cells of the screen are not what they are with memory to spare", step, bad);
	free(now.cp);
	free(now.n);
	free(now.w);
	return same;
}

/* --------------------------------------------------------------------------------------- the session */

enum kind { FEED, RESIZE, SELECT, RESET, VIEW, LINKS, TITLES };

struct step {
	enum kind kind;
	const char *text; /* FEED: the bytes; else a name */
	int a, b, c, d;   /* RESIZE: cols, rows; SELECT: x0, y0, x1, y1 (c < 0: a word at a, b); VIEW: delta */
};

static char styles[16384], links[8192], lines[4096], longstr[6000], clusters[100000];
static char version[700]; /* XTVERSION's text: its reply passes the stack buffer (grid__reply) */

static void build_streams(void)
{
	size_t n = 0;
	for (int i = 0; i < 300; i++) /* past the style table's first sizes */
		n += (size_t)snprintf(styles + n, sizeof(styles) - n, "\033[38;2;%d;%d;%dm%c", i & 255, i >> 8,
				      (i * 7) & 255, 'a' + i % 26);
	snprintf(styles + n, sizeof(styles) - n, "\033[m\r\n");
	n = 0;
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(links + n, sizeof(links) - n,
				      "\033]8;id=%d;https://example.org/%d\033\\L%d\033]8;;\033\\ ", i % 7, i, i % 10);
	snprintf(links + n, sizeof(links) - n, "\r\n");
	n = 0;
	for (int i = 0; i < 45; i++) /* the scrollback full: lines leave it */
		n += (size_t)snprintf(lines + n, sizeof(lines) - n, "line %d %s\r\n", i,
				      i % 3 ? "soft-wrapped text that runs past the forty columns of the screen" : "x");
	/* 20000 clusters of a Latin letter and one or two marks, each different: the cluster table grows on
	 * the heap, then to a mapping (1 MiB), then by moving its pages (grid__remap) */
	n = 0;
	for (unsigned i = 0; i < 20000; i++) {
		n += (size_t)vt_utf8_encode(0x100 + i % 128, clusters + n);
		n += (size_t)vt_utf8_encode(0x300 + i / 128 % 100, clusters + n);
		if (i >= 12800)
			n += (size_t)vt_utf8_encode(0x320 + i / 12800, clusters + n);
	}
	memset(version, 'v', sizeof(version) - 1);
	memcpy(longstr, "\033]2;", 4);
	memset(longstr + 4, 'T', sizeof(longstr) - 7);
	memcpy(longstr + sizeof(longstr) - 3, "\a", 2);
}

static const struct step session[] = {
	{FEED, "\033[>q", 0, 0, 0, 0}, /* XTVERSION: a reply on the heap */
	{FEED, "Hello, world\r\n", 0, 0, 0, 0},
	{FEED, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e wide \xef\xbc\xa1\xef\xbc\xa2\r\n", 0, 0, 0, 0},
	/* e + acute, a + diaeresis + dot below, thumbs up + skin tone, a family (ZWJ), a flag */
	{FEED,
	 "e\xcc\x81 a\xcc\x88\xcc\xa3 \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd "
	 "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 \xf0\x9f\x87\xab\xf0\x9f\x87\xb7\r\n",
	 0, 0, 0, 0},
	{FEED, styles, 0, 0, 0, 0},
	{FEED, links, 0, 0, 0, 0},
	{LINKS, "links", 0, 0, 0, 0},
	{TITLES, "title stack", 0, 0, 0, 0},
	{FEED, "\033]0;first title\a\033[22;0t\033]2;second\033\\\033[23;0t\033]1;icon\a", 0, 0, 0, 0},
	{FEED, "\033]4;1;rgb:12/34/56\a\033]4;1;?\a\033]10;?\a\033]11;?\a\033]104\a", 0, 0, 0, 0},
	{FEED, "\033]52;c;aGVsbG8gY2xpcGJvYXJk\a\033]52;c;?\a\033[>q\033P+q544e\033\\", 0, 0, 0, 0},
	{FEED, longstr, 0, 0, 0, 0},
	{FEED, "\033[1;1;3;20;1;5;10;1$v\033[5b\033#8\033[H\033[2J", 0, 0, 0, 0},
	{FEED, lines, 0, 0, 0, 0},
	{FEED, "e\xcc\x81\xe6\x97\xa5 \033[4:3;58;5;9mcurly\033[m \033]8;;https://x.test/\033\\link\033]8;;\033\\", 0, 0,
	 0, 0},
	{SELECT, "select cells", 0, 2, 30, 5},
	{VIEW, "view back", 12, 0, 0, 0},
	{SELECT, "select in the scrollback", 3, 0, 10, 6},
	{VIEW, "view bottom", -100, 0, 0, 0},
	{RESIZE, "narrower", 23, 6, 0, 0},
	{SELECT, "select a word", 2, 3, -1, 0},
	{RESIZE, "wider", 57, 11, 0, 0},
	{RESIZE, "back", 40, 8, 0, 0},
	{FEED, "\033[?1049h\033[44malternate \xe6\x97\xa5 e\xcc\x81\033[m\r\n", 0, 0, 0, 0},
	{RESIZE, "alt narrower", 31, 7, 0, 0},
	{SELECT, "select the alternate", 0, 0, 20, 2},
	{FEED, "\033[?1049l", 0, 0, 0, 0},
	{RESIZE, "alt back", 40, 8, 0, 0},
	{FEED, "\033c after RIS \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd\033[31mred\r\n", 0, 0, 0, 0},
	{RESET, "grid_reset", 0, 0, 0, 0},
	{FEED, styles, 0, 0, 0, 0},
};

/* On a larger screen (the clusters live, so that the table keeps them), then a resize that reflows them */
static const struct step many_clusters[] = {
	{FEED, clusters, 0, 0, 0, 0},
	{RESIZE, "reflow the clusters", 170, 60, 0, 0},
	{SELECT, "select clusters", 0, 0, 100, 3},
};

static const struct scenario {
	const char *name;
	int cols, rows;
	size_t sb;
	const struct step *steps;
	size_t n;
} scenarios[] = {
	{"the session", 40, 8, 30, session, sizeof(session) / sizeof(session[0])},
	{"many clusters", 200, 50, 60, many_clusters, sizeof(many_clusters) / sizeof(many_clusters[0])},
};
static const struct scenario *sc;

static struct t_term term;
static uint8_t clip[64];
static size_t clip_len;

static void on_clipboard(void *ud, const char *targets, const uint8_t *data, size_t len)
{
	(void)ud;
	(void)targets;
	clip_len = len < sizeof(clip) ? len : sizeof(clip);
	memcpy(clip, data, clip_len);
}

/* as the session's: a copy the grid frees, which may fail as well */
static int on_clipboard_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	(void)ud;
	(void)targets;
	*data = malloc(clip_len + 1);
	if (!*data)
		return -ENOMEM;
	memcpy(*data, clip, clip_len);
	*len = clip_len;
	return 0;
}

static struct grid *make(void)
{
	struct grid_config cfg = {.cols = sc->cols, .rows = sc->rows, .scrollback = sc->sb, .cell_width = 8,
				  .cell_height = 16, .xtversion = version, .allow_clipboard_read = true};
	struct grid_callbacks cb = {.reply = t_on_reply, .bell = t_on_bell, .title = t_on_title,
				    .clipboard = on_clipboard, .clipboard_get = on_clipboard_get};
	return grid_create(&cfg, &cb, &term);
}

/* Runs scenario sc (failing the allocations kf-failalloc.h's fa_at and fa_rest say); returns how many of its
 * checks failed */
static struct shot shots[2][64];

static int run(void)
{
	const int fails = t_fails;
	struct shot *ref = shots[sc - scenarios];
	bool same = true; /* the screen still compared with ref's */
	struct snap before = {0}, after = {0}, fresh = {0};
	term.reply_len = 0;
	long long fa_mapped0 = fa_mapped;
	fa_calls = fa_failed = 0;
	fa_armed = true;
	struct grid *g = make();
	if (!g) {
		fa_armed = false;
		CHECK(fa_failed > 0, "grid_create failed with no allocation failing");
		CHECK(fa_mapped == fa_mapped0, "grid_create failed: %lld bytes still mapped", fa_mapped - fa_mapped0);
		return t_fails - fails;
	}
	for (size_t i = 0; i < sc->n; i++) {
		const struct step *st = &sc->steps[i];
		const char *text = st->text;
		const char *name = st->kind == FEED ? "feed" : text;
		char where[64];
		snprintf(where, sizeof(where), "step %zu (%s)", i, name);
		fa_armed = false;
		snap_take(&before, g);
		int cols = grid_cols(g), rows = grid_rows(g);
		unsigned long failed = fa_failed;
		fa_armed = true;
		switch (st->kind) {
		case FEED:
			grid_feed(g, (const uint8_t *)text, strlen(text));
			break;
		case RESIZE: {
			int r = grid_resize(g, st->a, st->b);
			fa_armed = false;
			if (fa_failed > failed) {
				/* an allocation failed: retried, or the resize failed and says so */
				CHECK(r == 0 || r == -ENOMEM, "%s: %d", where, r);
			} else {
				CHECK(r == 0, "%s: %d", where, r);
			}
			if (r < 0) {
				snap_take(&after, g);
				CHECK(grid_cols(g) == cols && grid_rows(g) == rows, "%s: failed, %dx%d", where,
				      grid_cols(g), grid_rows(g));
				CHECK(snap_same(&before, &after), "%s: failed and the text changed", where);
			} else {
				CHECK(grid_cols(g) == st->a && grid_rows(g) == st->b, "%s: %dx%d", where, grid_cols(g),
				      grid_rows(g));
			}
			break;
		}
		case SELECT: {
			if (st->c < 0) {
				grid_select_start(g, st->a, st->b, GRID_SELECT_WORD);
			} else {
				grid_select_start(g, st->a, st->b, GRID_SELECT_CELL);
				grid_select_extend(g, st->c, st->d);
			}
			size_t len = 0;
			bool cut = false;
			char *s = grid_selection_text(g, &len);
			char *m = grid_selection_text_max(g, 16, &len, &cut);
			fa_armed = false;
			if (grid_has_selection(g) && fa_failed == failed)
				CHECK(s != NULL && m != NULL, "%s: no text", where);
			if (s)
				CHECK(strlen(s) == len || m, "%s", where);
			free(s);
			free(m);
			snap_take(&after, g);
			CHECK(snap_same(&before, &after), "%s: the text changed", where);
			fa_armed = true;
			grid_select_clear(g);
			break;
		}
		case VIEW:
			grid_view_scroll(g, st->a);
			break;
		case TITLES: {
			/* a push that could not copy its title still pairs with its pop, which leaves the title:
			 * each pop gives what its own push saw */
			static const char *const parts[] = {"\033]2;A\a", "\033[22;0t", "\033]2;B\a", "\033[22;0t",
							    "\033]2;C\a", "\033[23;0t", "\033[23;0t"};
			char seen[7][8];
			bool push_failed[7] = {false};
			for (int k = 0; k < 7; k++) {
				unsigned long f0 = fa_failed;
				fa_armed = true;
				grid_feed(g, (const uint8_t *)parts[k], strlen(parts[k]));
				fa_armed = false;
				push_failed[k] = fa_failed > f0;
				snprintf(seen[k], sizeof(seen[k]), "%s", grid_title(g));
			}
			/* the first pop undoes the second push, the second the first */
			const char *w5 = push_failed[3] ? seen[4] : seen[2], *w6 = push_failed[1] ? seen[5] : seen[0];
			CHECK(!strcmp(seen[5], w5), "%s: the first pop gave '%s', not '%s'", where, seen[5], w5);
			CHECK(!strcmp(seen[6], w6), "%s: the second pop gave '%s', not '%s'", where, seen[6], w6);
			break;
		}
		case LINKS: {
			/* a link whose entry could not be made leaves its text unlinked, not in the link before */
			static const char ab[] = "\r\n\033]8;;https://a.test/\033\\A\033]8;id=k;https://b.test/\033\\B"
						 "\033]8;;\033\\C";
			grid_feed(g, (const uint8_t *)ab, strlen(ab));
			fa_armed = false;
			struct grid_cursor cur;
			grid_get_cursor(g, &cur);
			const struct grid_cell *c = grid_row(g, cur.y);
			static const char *const want[] = {"https://a.test/", "https://b.test/", NULL};
			for (int x = 0; x < 3 && x < cur.x; x++) {
				const char *u = grid_link_uri(g, c[x].link);
				const bool ok = c[x].link == 0 || (u && want[x] && !strcmp(u, want[x]));
				CHECK(ok, "%s: cell %d in %s", where, x, u ? u : "(none)");
			}
			break;
		}
		case RESET:
			grid_reset(g);
			break;
		}
		fa_armed = false;
		if (!fa_at)
			shot_take(&ref[i], g);
		else if (same)
			same = screen_as_ref(g, &ref[i], where);
		check_readable(g, where);
		fa_armed = true;
	}
	fa_armed = false;
	/* memory is back: RIS and a line give what a fresh grid of its size shows for them (a resize may have
	 * failed) */
	static const char probe[] = "\033c\033[2;3Hprobe \xe6\x97\xa5 e\xcc\x81 \033[1mbold\033[m";
	grid_feed(g, (const uint8_t *)probe, strlen(probe));
	struct grid *f = make();
	if (!f || grid_resize(f, grid_cols(g), grid_rows(g)) < 0)
		abort();
	grid_feed(f, (const uint8_t *)probe, strlen(probe));
	snap_take(&after, g);
	snap_take(&fresh, f);
	CHECK(snap_same(&after, &fresh), "after RIS the screen is not a fresh grid's");
	check_readable(g, "after RIS");
	grid_destroy(f);
	grid_destroy(g);
	CHECK(fa_mapped == fa_mapped0, "%lld bytes still mapped", fa_mapped - fa_mapped0);
	free(before.cp);
	free(after.cp);
	free(fresh.cp);
	return t_fails - fails;
}

/* ------------------------------------------------------------------------------------------ the sweep */

int main(void)
{
	build_streams();
	for (size_t k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++) {
		sc = &scenarios[k];
		long bad = fa_sweep(sc->name, run);
		CHECK(bad == 0, "%s: %ld runs not ok", sc->name, bad);
	}
	printf("%d checks, %d failed\n", t_checks, t_fails);
	return t_fails ? 1 : 0;
}
