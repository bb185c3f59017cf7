/* tests/grid/test-links.c: OSC 8 hyperlinks end to end in the grid: parameters, closing, limits, the cells
 * a link covers through edits, erases, scrolling, the scrollback, reflow, the alternate screen, RIS, wide
 * characters and combining marks, and the collection of links no cell uses any more.
 * Reference: https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda */
#include <sys/resource.h>

#include "grid/grid-internal.h"
#include "tests/grid/harness.h"

/* The URI of cell (x, y) of the screen, or "" when it has none. */
static const char *uri_at(const struct t_term *t, int x, int y)
{
	const char *u = grid_link_uri(t->g, grid_row(t->g, y)[x].link);
	return u ? u : "";
}

/* A string of the links of row y, one character a cell: '.' none, else 'a' + the order the row's distinct
 * link ids came in (so that tests compare the runs, not the ids). */
static const char *links_row(const struct t_term *t, int y)
{
	static char out[256];
	uint16_t seen[26] = {0};
	int ns = 0, cols = grid_cols(t->g);
	const struct grid_cell *r = grid_row(t->g, y);
	for (int x = 0; x < cols && x < 255; x++) {
		out[x] = '.';
		if (!r[x].link)
			continue;
		int k = 0;
		while (k < ns && seen[k] != r[x].link)
			k++;
		if (k == ns && ns < 26)
			seen[ns++] = r[x].link;
		out[x] = (char)('a' + k);
	}
	out[cols < 255 ? cols : 255] = '\0';
	return out;
}

#define ROW_IS(t, y, want) CHECK(!strcmp(links_row(t, y), want), "row %d links %s, want %s", y, links_row(t, y), want)

static void test_params(void)
{
	struct t_term *t = t_new(10, 3, 0);
	/* unknown keys and the id are params; ':' and ';' after the params' ';' are the URI's */
	t_feed(t, "\033]8;foo=bar:id=x:baz;http://h/a;b:c\033\\AB\033]8;;\033\\C");
	CHECK(!strcmp(uri_at(t, 0, 0), "http://h/a;b:c"), "uri %s", uri_at(t, 0, 0));
	ROW_IS(t, 0, "aa........");
	CHECK(t->g->links.key[grid_row(t->g, 0)[0].link] && !strcmp(t->g->links.key[grid_row(t->g, 0)[0].link], "x"),
	      "id x");
	/* an empty URI closes the link, params or not; BEL ends it as ST does */
	t_feed(t, "\r\n\033]8;;http://h/b\aD\033]8;id=q;\aE\033]8;;http://h/b\aF\033]8;;\aG");
	ROW_IS(t, 1, "a.a.......");
	/* the same id and URI across separate runs is one link; the same id with another URI is another */
	t_feed(t, "\r\n\033]8;id=1;http://h/c\033\\H\033]8;;\033\\I\033]8;id=1;http://h/c\033\\J"
		  "\033]8;id=1;http://h/d\033\\K\033]8;;\033\\");
	ROW_IS(t, 2, "a.ab......");
	t_free(t);
}

static void test_limits(void)
{
	struct t_term *t = t_new(10, 3, 0);
	static char big[LINK_URI_MAX + 64];
	/* a URI at the cap is applied, one past it is not, and it closes the open link rather than leave the
	 * text under the one before */
	memcpy(big, "\033]8;;http://h/", 14);
	memset(big + 14, 'u', LINK_URI_MAX - 8);
	big[14 + LINK_URI_MAX - 8] = '\0';
	t_feed(t, "\033]8;;http://h/open\033\\A");
	t_feed(t, big);
	t_feed(t, "\033\\B");
	CHECK(strlen(uri_at(t, 1, 0)) == 0, "URI of %zu bytes applied", strlen(uri_at(t, 1, 0)));
	big[14 + LINK_URI_MAX - 9] = '\0';
	t_feed(t, big);
	t_feed(t, "\033\\C\033]8;;\033\\");
	CHECK(strlen(uri_at(t, 2, 0)) == LINK_URI_MAX, "URI of %zu bytes, want %u", strlen(uri_at(t, 2, 0)),
	      LINK_URI_MAX);
	/* a control inside makes the OSC malformed (as xterm ignores it): nothing changes */
	t_feed(t, "\r\n\033]8;;http://h/x\033\\D\033]8;;http://h/\ty\033\\E\033]8;;\033\\F");
	ROW_IS(t, 1, "aa........");
	t_free(t);
}


/* A row of ten linked cells at row 0, the cursor at column 3, then seq: the links of row 0 after it. */
static void edit_case(const char *seq, const char *want)
{
	struct t_term *t = t_new(10, 3, 0);
	t_feed(t, "\033]8;;http://h/e\033\\0123456789\033]8;;\033\\\033[1;4H");
	t_feed(t, seq);
	CHECK(!strcmp(links_row(t, 0), want), "after %s: links %s, want %s", seq + 1, links_row(t, 0), want);
	t_free(t);
}

static void test_edits(void)
{
	edit_case("\033[2@", "aaa..aaaaa");  /* ICH: the blanks inserted are no link's */
	edit_case("\033[2P", "aaaaaaaa..");  /* DCH: the blanks shifted in at the margin neither */
	edit_case("\033[2X", "aaa..aaaaa");  /* ECH */
	edit_case("\033[K", "aaa.......");   /* EL 0 */
	edit_case("\033[1K", "....aaaaaa");  /* EL 1 */
	edit_case("\033[2K", "..........");  /* EL 2 */
	edit_case("\033[J", "aaa.......");   /* ED 0 */
	edit_case("\033[2J", "..........");  /* ED 2 */
	edit_case("xy", "aaa..aaaaa");       /* text outside a link overwrites the link's cells */
	edit_case("\033[4hxy", "aaa..aaaaa"); /* IRM: inserted text outside a link, the rest shifted */
	edit_case("\033]8;;http://h/f\033\\xy", "aaabbaaaaa"); /* another link over it */
	edit_case("\033[1;1H\033[2L", ".........."); /* IL moves the row down */
	edit_case("\033[2;1H\033[M", "aaaaaaaaaa");  /* DL below it leaves it */
	edit_case("\033[1;2;1;5$z", "a....aaaaa");  /* DECERA */
	edit_case("\033[?K", "aaa.......");          /* DECSEL */
	edit_case("\033[?J", "aaa.......");          /* DECSED */
	edit_case("\033[2'}", "aaa..aaaaa");         /* DECIC */
	edit_case("\033[2'~", "aaaaaaaa..");         /* DECDC */
	edit_case("\033[2;1;2;4;1;1;7;1$v", "aaaaaa....");          /* DECCRA: blanks copied over it */
	edit_case("\033[1;8H\033[3X\033[1;1;1;3;1;1;8;1$v", "aaaaaaaaaa"); /* and links copied back */
	edit_case("\033[!pxy", "aaa..aaaaa");         /* DECSTR ends the link */
	edit_case("\0337\033]8;;\033\\\0338xy", "aaa..aaaaa"); /* DECRC does not bring it back */
}

/* Wide characters: both halves are the link's. Combining marks join the cell with its link. A link runs
 * across a soft wrap as one link. */
static void test_wide_wrap(void)
{
	struct t_term *t = t_new(10, 3, 0);
	t_feed(t, "\033]8;;http://h/w\033\\\xe4\xb8\xad" "e\xcc\x81\033]8;;\033\\\xcc\x82x");
	ROW_IS(t, 0, "aaa.......");
	uint32_t cps[4];
	CHECK(grid_cell_codepoints(t->g, &grid_row(t->g, 0)[2], cps, 4) == 3, "e with two marks");
	t_feed(t, "\r\n\033]8;id=w;http://h/wrap\033\\0123456789abcde\033]8;;\033\\");
	ROW_IS(t, 1, "aaaaaaaaaa");
	CHECK(grid_row(t->g, 2)[0].link == grid_row(t->g, 1)[0].link, "the wrapped part is the same link");
	ROW_IS(t, 2, "aaaaa.....");
	/* a wide character that wraps: the padding cell left at the margin is no link's */
	t_feed(t, "\033[3;10H\033]8;;http://h/v\033\\\xe4\xb8\xad\033]8;;\033\\");
	CHECK(grid_row(t->g, 2)[9].link == 0 || grid_row(t->g, 2)[9].cp != 0, "padding cell linked");
	t_free(t);
}

/* Links scrolled into the scrollback keep their URIs there and when scrolled back into view, as do the
 * screen's links through a resize's reflow. */
static void test_scroll_reflow(void)
{
	struct t_term *t = t_new(10, 3, 100);
	for (int i = 0; i < 8; i++)
		t_feedf(t, "\033]8;;http://h/%d\033\\L%d\033]8;;\033\\ plain\r\n", i, i);
	int len = 0;
	const struct grid_cell *r = grid_scrollback_row(t->g, 0, &len);
	const char *u = r ? grid_link_uri(t->g, r[0].link) : NULL;
	CHECK(u && !strcmp(u, "http://h/0"), "scrollback row 0: %s", u ? u : "(none)");
	CHECK(r && r[1].link == r[0].link && r[2].link == 0, "scrollback row 0's run");
	grid_view_scroll(t->g, 6);
	CHECK(!strcmp(uri_at(t, 0, 0), "http://h/0"), "in view: %s", uri_at(t, 0, 0));
	ROW_IS(t, 0, "aa........");
	grid_view_scroll(t->g, -6);
	/* reflow: narrower, the linked run split over rows, then back */
	t_feed(t, "\033[2J\033[H\033]8;;http://h/r\033\\0123456789ABCD\033]8;;\033\\");
	CHECK(grid_resize(t->g, 5, 4) == 0, "resize");
	int linked = 0, rows = grid_rows(t->g);
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < 5; x++)
			linked += !strcmp(uri_at(t, x, y), "http://h/r");
	CHECK(linked == 14, "%d cells linked after reflow to 5 columns, want 14", linked);
	CHECK(grid_resize(t->g, 20, 3) == 0, "resize");
	linked = 0;
	for (int y = 0; y < grid_rows(t->g); y++)
		for (int x = 0; x < 20; x++)
			linked += !strcmp(uri_at(t, x, y), "http://h/r");
	CHECK(linked == 14, "%d cells linked after reflow to 20 columns, want 14", linked);
	t_free(t);
}

/* The open link is the terminal's, not a screen's (VTE): text on the alternate screen is linked too, and
 * the primary screen's links are there again after it. RIS closes the link (the URIs no cell holds any more
 * go at the next collection, as styles do). */
static void test_alt_ris(void)
{
	struct t_term *t = t_new(10, 3, 10);
	t_feed(t, "\033]8;;http://h/p\033\\P\033[?1049h\033[HA\033]8;;\033\\B");
	ROW_IS(t, 0, "a.........");
	CHECK(!strcmp(uri_at(t, 0, 0), "http://h/p"), "alt: %s", uri_at(t, 0, 0));
	t_feed(t, "\033[?1049l");
	ROW_IS(t, 0, "a.........");
	t_feed(t, "\033]8;;http://h/q\033\\Q\033cR");
	ROW_IS(t, 0, "..........");
	CHECK(t->g->link == 0, "after RIS: link %u open", t->g->link);
	t_free(t);
}

/* A link still on the screen is found again after collections freed others around it (the index made again
 * by each sweep): the same id, one entry for its URI. Then the memory bound: the table holds at most LINK_MAX
 * - 1 links of LINK_URI_MAX bytes, whatever comes. */
static void test_refind(void)
{
	struct t_term *t = t_new(40, 10, 50);
	t_feed(t, "\033]8;id=keep;http://h/keep\033\\K\033]8;;\033\\\r\n");
	uint16_t keep = grid_row(t->g, 0)[0].link;
	for (int i = 0; i < 5000; i++)
		t_feedf(t, "\033[2;1H\033]8;;http://h/%d\033\\L\033]8;;\033\\", i);
	t_feed(t, "\033[3;1H\033]8;id=keep;http://h/keep\033\\K\033]8;;\033\\");
	CHECK(keep && grid_row(t->g, 2)[0].link == keep, "found again: %u, was %u", grid_row(t->g, 2)[0].link, keep);
	int n = 0;
	for (uint32_t i = 1; i < LINK_MAX; i++)
		n += t->g->links.uri[i] && !strcmp(t->g->links.uri[i], "http://h/keep");
	CHECK(n == 1, "%d entries for one link", n);
	CHECK(t->g->links.count < LINK_MAX, "%u links", t->g->links.count);
	t_free(t);
}

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* A hostile stream of distinct links each at the caps (URI and id of LINK_URI_MAX bytes), one a cell over a
 * full history: the table's bytes stay within LINK_MAX entries of both caps (4 MiB), and the peak resident size
 * grows by the history and that, not by the stream (40,000 links: 160 MiB of URIs and ids). */
static void test_hostile_memory(void)
{
	long before = peak_kb();
	struct t_term *t = t_new(80, 24, 1000);
	static char buf[2 * LINK_URI_MAX + 64];
	for (int i = 0; i < 40000; i++) {
		int n = snprintf(buf, sizeof(buf), "\033]8;id=%08d", i);
		memset(buf + n, 'k', LINK_URI_MAX - 8);
		n += LINK_URI_MAX - 8;
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, ";http://h/%08d", i);
		memset(buf + n, 'u', LINK_URI_MAX - 17);
		n += LINK_URI_MAX - 17;
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\033\\L");
		grid_feed(t->g, (const uint8_t *)buf, (size_t)n);
	}
	size_t bytes = 0;
	int at_cap = 0;
	for (uint32_t i = 1; i < LINK_MAX; i++) {
		if (!t->g->links.uri[i])
			continue;
		size_t u = strlen(t->g->links.uri[i]), k = t->g->links.key[i] ? strlen(t->g->links.key[i]) : 0;
		bytes += u + k;
		at_cap += u == LINK_URI_MAX && k == LINK_URI_MAX;
	}
	CHECK(at_cap > 0, "no link at the caps was applied");
	CHECK(bytes <= (size_t)(LINK_MAX - 1) * 2 * LINK_URI_MAX, "links hold %zu bytes", bytes);
	/* 80 x 1,024 lines of 12-byte cells is 1 MB; the table at most 4 MiB and malloc's rounding */
	long grew = peak_kb() - before;
#ifndef __SANITIZE_ADDRESS__
	CHECK(grew < 16 * 1024, "peak resident size grew by %ld kB", grew);
#else
	/* ASan's allocator keeps the freed URIs in its quarantine (up to 256 MiB): the resident size is that
	 * (62-85 MB here); the table's bytes above are checked in both builds, the size in the plain one */
	printf("(ASan build: peak resident size grew by %ld kB, the quarantine's; not checked)\n", grew);
#endif
	t_free(t);
}

/* An OSC 8 over the parser's string cap (1 MiB) is dropped unseen, but ends the open link as one whose URI is
 * over LINK_URI_MAX does: the text after it is not the link's before. Fed whole (the parser's first run of the
 * string is over the cap) and in pieces. Another OSC over the cap, or an OSC 8 cut by CAN, leaves the link. */
static void test_over_cap(void)
{
	const size_t big = (1u << 20) + 16;
	char *s = malloc(big + 32);
	for (int piece = 0; piece < 2; piece++) {
		for (int kind = 0; kind < 3; kind++) {
			struct t_term *t = t_new(10, 2, 0);
			t_feed(t, "\033]8;;http://h/open\033\\A");
			size_t n = (size_t)sprintf(s, "\033]%s;http://h/", kind == 1 ? "2" : "8;");
			memset(s + n, 'u', big);
			n += big;
			n += (size_t)sprintf(s + n, "%s", kind == 2 ? "\030B" : "\033\\B");
			for (size_t i = 0, step = piece ? 4096 : n; i < n; i += step)
				grid_feed(t->g, (const uint8_t *)s + i, n - i < step ? n - i : step);
			CHECK(!strcmp(links_row(t, 0), kind == 0 ? "a........." : "aa........"),
			      "%s %s: %s", kind == 0 ? "OSC 8" : kind == 1 ? "OSC 2" : "OSC 8 cut by CAN",
			      piece ? "in pieces" : "whole", links_row(t, 0));
			t_free(t);
		}
	}
	free(s);
}

int main(void)
{
	test_hostile_memory(); /* first: the peak is the process's */
	test_params();
	test_limits();
	test_edits();
	test_wide_wrap();
	test_scroll_reflow();
	test_alt_ris();
	test_refind();
	test_over_cap();
	return t_done("grid-links");
}
