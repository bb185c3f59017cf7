/* tests/grid/test-bounds.c: memory stays bounded under hostile input, and the work stays bounded too:
 * huge REP counts, 10^6 SGRs with distinct RGB colours, endless combining marks on one cell, endless
 * distinct clusters and hyperlinks, resizes to 1x1 and to the maximum. */
#include <errno.h>
#include <sys/resource.h>
#include <time.h>

#include "harness.h"
#include "grid/grid-internal.h"
#include "grid/grid-intern.h"

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_rep(void)
{
	struct t_term *t = t_new(80, 24, 1000);
	double t0 = now();
	for (int i = 0; i < 2000; i++)
		t_feed(t, "x\033[2147483647b");
	CHECK(now() - t0 < 20.0, "2000 huge REPs took %.1f s", now() - t0);
	CHECK(grid_scrollback_lines(t->g) <= 1000, "scrollback bound");
	t_free(t);
}

static void test_sgr_flood(void)
{
	struct t_term *t = t_new(212, 82, 10000);
	for (int i = 0; i < 1000000; i++)
		t_feedf(t, "\033[38;2;%d;%d;%dm\033[48;2;%d;%d;%dmX", i & 255, (i >> 8) & 255, (i >> 16) & 255,
			(i >> 3) & 255, i & 255, (i >> 11) & 255);
	struct grid *g = t->g;
	CHECK(g->st.cap <= STYLE_MAX + 1, "style table %u", g->st.cap);
	CHECK(g->st.count <= STYLE_MAX + 1, "styles %u", g->st.count);
	/* every cell's style id resolves */
	for (int y = 0; y < grid_rows(g); y++) {
		const struct grid_cell *r = grid_row(g, y);
		for (int x = 0; x < grid_cols(g); x++)
			if (r[x].style >= g->st.cap || !g->st.used[r[x].style])
				CHECK(0, "dangling style %u at %d,%d", r[x].style, x, y);
	}
	/* after a clear and fresh output the dead styles are collected */
	t_feed(t, "\033[0m\033[3J\033[2J");
	for (int i = 0; i < 300; i++)
		t_feedf(t, "\033[38;2;%d;1;1mY", i & 255);
	CHECK(g->st.count < 70000, "styles after collection %u", g->st.count);
	t_free(t);
}

/* 10^6 distinct direct-colour pens, each a text run then an EL in its background, fed in the parser's bulk
 * path (the colour SGRs bypass their tables: pens and erase styles take ids without the style cache,
 * grid__cache_bypass): the table stays within its ids and its index within its size, the collections keep up
 * (a table full of live ids would make new pens fall back to the default style), and every cell has its own
 * colours: the run's, then the erase's background to the row's end. */
static void test_rgb_erase_flood(void)
{
	struct t_term *t = t_new(80, 24, 1000);
	struct grid *g = t->g;
	const uint32_t epoch = g->st.epoch;
	char buf[4096];
	uint32_t worst = 0;
	for (int i = 0; i < 1000000;) {
		int n = 0;
		for (int j = 0; j < 32; j++, i++)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n,
				      "\033[%d;%dH\033[38;2;%d;%d;%dm\033[48;2;%d;%d;%dmab\033[K", 1 + i % 24,
				      1 + i % 37, i & 255, i >> 8 & 255, i >> 16, i >> 16, i & 255, i >> 8 & 255);
		grid_feed(g, (const uint8_t *)buf, (size_t)n);
		worst = g->st.count > worst ? g->st.count : worst;
	}
	CHECK(g->sgr_color_misses >= 64, "the colour tables not bypassed: %u misses", g->sgr_color_misses);
	CHECK(worst <= g->st.cap && g->st.cap == STYLE_MAX + 1 && g->st.hash_cap <= 2 * g->st.cap,
	      "style table: %u ids at most of %u, index %u", worst, g->st.cap, g->st.hash_cap);
	CHECK(g->st.epoch - epoch >= 1000000 / 65536, "collections %u", g->st.epoch - epoch);
	int wrong = 0;
	for (int y = 0; y < 24; y++) {
		/* the row's last pen: i % 24 == y, the last 24 of the 10^6 */
		const int i = 1000000 - 24 + (y + 24 - (1000000 - 24) % 24) % 24, x0 = i % 37;
		const struct grid_cell *r = grid_row(g, y);
		for (int x = x0; x < 80; x++) {
			const struct grid_style *st = grid_style(g, r[x].style);
			const uint32_t bg = GRID_COLOR_RGB(i >> 16, i & 255, i >> 8 & 255);
			if (!g->st.used[r[x].style] || st->bg != bg ||
			    (x < x0 + 2 ? r[x].cp != (uint32_t)"ab"[x - x0] ||
						  st->fg != GRID_COLOR_RGB(i & 255, i >> 8 & 255, i >> 16)
					: r[x].cp != ' ' && r[x].cp != 0))
				wrong++;
		}
	}
	CHECK(wrong == 0, "%d cells with a wrong colour or text after the flood", wrong);
	t_feed(t, "\033[0m\033[3J\033[2J");
	grid__collect(g);
	CHECK(g->st.count < 16, "styles after a clear and a collection: %u", g->st.count);
	t_free(t);
}

static void test_combining_flood(void)
{
	struct t_term *t = t_new(80, 24, 100);
	t_feed(t, "a");
	for (int i = 0; i < 200000; i++)
		t_feed(t, "\xcc\x81");
	const struct grid_cell *r = grid_row(t->g, 0);
	uint32_t cps[64];
	size_t n = grid_cell_codepoints(t->g, &r[0], cps, 64);
	CHECK(n >= 2 && n <= CLUSTER_MAX_CPS, "cluster length %zu", n);
	CHECK(cps[0] == 'a', "base kept");
	CHECK(t->g->cl.count < 64, "cluster entries %u", t->g->cl.count);
	/* distinct clusters everywhere: the table stays bounded */
	for (int i = 0; i < 300000; i++) {
		char buf[16];
		size_t k = vt_utf8_encode(0x4e00 + (uint32_t)(i % 20000), buf);
		k += vt_utf8_encode(0x300 + (uint32_t)(i % 100), buf + k);
		k += vt_utf8_encode(0x300 + (uint32_t)(i / 100 % 100), buf + k);
		grid_feed(t->g, (const uint8_t *)buf, k);
	}
	CHECK(t->g->cl.cap <= CLUSTER_MAX, "cluster table %u", t->g->cl.cap);
	t_free(t);
}

/* Feeds n distinct clusters (a letter and two combining marks; the marks' pair changes every 26), 10 to a
 * line, each cluster in its own grid_feed call. The letters are U+0100.. (Latin Extended-A): on an ASCII
 * letter the second mark would make a direct cluster, which takes no entry in the table these tests fill. */
#define DISTINCT_BASE 0x100u
static void feed_distinct_clusters(struct t_term *t, int n)
{
	char buf[64];
	for (int i = 0; i < n; i++) {
		size_t k = vt_utf8_encode(DISTINCT_BASE + (uint32_t)(i % 26), buf);
		k += vt_utf8_encode(0x300 + (uint32_t)(i / 26 % 112), buf + k);
		k += vt_utf8_encode(0x300 + (uint32_t)(i / 26 / 112 % 112), buf + k);
		if (i % 10 == 9)
			buf[k++] = '\r', buf[k++] = '\n';
		grid_feed(t->g, (const uint8_t *)buf, k);
	}
}

/* A long flood of distinct marked characters through a large scrollback: once the cluster table is full of
 * clusters that have left the scrollback, a collection makes room and new clusters keep all their marks
 * (they were dropped while the table waited for a headroom of cells / 4 attempts). */
static void test_cluster_turnover(void)
{
	struct t_term *t = t_new(200, 50, 2000);
	feed_distinct_clusters(t, 200000); /* 200000 distinct base + 2 marks, 10 a line */
	CHECK(t->g->cl.cap <= CLUSTER_MAX, "cluster table %u", t->g->cl.cap);
	t_feed(t, "\r\nq\xcc\x81\xcc\x82\xcc\x83\xcc\x84 z\xcd\x93\xcd\xae");
	int y = grid_rows(t->g) - 1;
	const struct grid_cell *r = grid_row(t->g, y);
	uint32_t cps[CLUSTER_MAX_CPS];
	size_t n = grid_cell_codepoints(t->g, &r[0], cps, CLUSTER_MAX_CPS);
	CHECK(n == 5 && cps[0] == 'q' && cps[4] == 0x304, "q and 4 marks: %zu code points", n);
	n = grid_cell_codepoints(t->g, &r[2], cps, CLUSTER_MAX_CPS);
	CHECK(n == 3 && cps[0] == 'z' && cps[2] == 0x36e, "z and 2 marks: %zu code points", n);
	t_free(t);
}

/* The cluster table grows past its heap block into mapped blocks (2, 4, then 6 MiB: grid__remap moves the
 * entries instead of copying them into a fresh block): every live cluster keeps its code points across the
 * growths. 50000 distinct clusters, 10 a line, all still in the scrollback. */
static void test_cluster_growth_keeps(void)
{
	struct t_term *t = t_new(20, 10, 6000);
	const int total = 50000;
	feed_distinct_clusters(t, total);
	CHECK(t->g->cl.cap == CLUSTER_MAX && t->g->cl.count >= (uint32_t)total, "cluster table %u, %u entries",
	      t->g->cl.cap, t->g->cl.count);
	size_t lines = grid_scrollback_lines(t->g);
	CHECK(lines == (size_t)total / 10 - 9, "scrollback %zu lines", lines); /* 9 full lines stay on screen */
	int bad = 0;
	for (size_t l = 0; l < lines && bad < 5; l++) {
		int len = 0;
		const struct grid_cell *r = grid_scrollback_row(t->g, l, &len);
		for (int x = 0; x < 10 && x < len; x++) {
			int i = (int)l * 10 + x;
			uint32_t cps[CLUSTER_MAX_CPS];
			size_t n = grid_cell_codepoints(t->g, &r[x], cps, CLUSTER_MAX_CPS);
			if (n != 3 || cps[0] != DISTINCT_BASE + (uint32_t)(i % 26) || cps[1] != 0x300 + (uint32_t)(i / 26 % 112) ||
			    cps[2] != 0x300 + (uint32_t)(i / 26 / 112 % 112)) {
				CHECK(0, "cluster %d (line %zu, cell %d): %zu code points, %x %x %x", i, l, x, n, cps[0],
				      n > 1 ? cps[1] : 0, n > 2 ? cps[2] : 0);
				bad++;
			}
		}
	}
	t_free(t);
}

/* A collection keeps what the cells in use hold, wherever they are in a line (a line is checked 4 cells at a
 * time, the last cells one by one): styles that change mid-line, clusters and links, on the screen and in
 * the scrollback, and frees what no cell holds any more. */
static void test_collect_keeps(void)
{
	struct t_term *t = t_new(22, 4, 100);
	/* clusters at cells 0, 5 and 21 (the tail); red from cell 6 on and blue at 21; a link on cells 9-10; their
	 * bases are not ASCII (e-circumflex, u-circumflex), which would make direct clusters, not entries */
	const char *line = "\xc3\xaa\xcc\x81" "bcdx\xc3\xaa\xcc\x82\033[31mfgh\033]8;;http://kf/c\033\\ij\033]8;;\033\\"
			   "klmnopqrst\033[34m\xc3\xbb\xcc\x83\033[m\r\n";
	/* and a line whose first 20 cells are in one style (not the default) with a cluster (c-cedilla) */
	t_feed(t, "\033[35mab" "\xc3\xa7\xcc\x87" "defghijklmnopqrst\033[muv\r\n");
	for (int i = 0; i < 8; i++)
		t_feed(t, line);
	t_feed(t, "\033[32mdea\xc3\xb0\xcc\x84\xcc\x85\033[m\r\033[K");
	struct grid *g = t->g;
	uint32_t styles = g->st.count, clusters = g->cl.count;
	grid__collect(g);
	CHECK(g->st.count < styles && g->cl.count < clusters, "dead style and cluster freed: %u/%u, %u/%u",
	      g->st.count, styles, g->cl.count, clusters);
	int len0 = 0;
	const struct grid_cell *r0 = grid_scrollback_row(g, 0, &len0);
	uint32_t cps0[CLUSTER_MAX_CPS];
	CHECK(len0 == 22 && grid_cell_codepoints(g, &r0[2], cps0, CLUSTER_MAX_CPS) == 2 && cps0[1] == 0x307 &&
		      g->st.used[r0[10].style] && grid_style(g, r0[10].style)->fg == GRID_COLOR_PALETTE(5),
	      "the line in one style");
	for (size_t i = 1; i < grid_scrollback_lines(g) + 3; i++) {
		int len = 22;
		const struct grid_cell *r = i < grid_scrollback_lines(g) ? grid_scrollback_row(g, i, &len)
									 : grid_row(g, (int)(i - grid_scrollback_lines(g)));
		CHECK(len == 22, "line %zu has %d cells", i, len);
		uint32_t cps[CLUSTER_MAX_CPS];
		size_t n = grid_cell_codepoints(g, &r[0], cps, CLUSTER_MAX_CPS);
		CHECK(n == 2 && cps[0] == 0xea && cps[1] == 0x301, "line %zu cell 0: %zu code points", i, n);
		n = grid_cell_codepoints(g, &r[5], cps, CLUSTER_MAX_CPS);
		CHECK(n == 2 && cps[0] == 0xea && cps[1] == 0x302, "line %zu cell 5: %zu code points", i, n);
		n = grid_cell_codepoints(g, &r[21], cps, CLUSTER_MAX_CPS);
		CHECK(n == 2 && cps[0] == 0xfb && cps[1] == 0x303, "line %zu cell 21: %zu code points", i, n);
		CHECK(r[5].style == 0 && grid_style(g, r[6].style)->fg == GRID_COLOR_PALETTE(1) &&
			      grid_style(g, r[20].style)->fg == GRID_COLOR_PALETTE(1) &&
			      grid_style(g, r[21].style)->fg == GRID_COLOR_PALETTE(4),
		      "line %zu styles", i);
		CHECK(g->st.used[r[6].style] && g->st.used[r[21].style], "line %zu styles live", i);
		const char *u = grid_link_uri(g, r[9].link);
		CHECK(u && strcmp(u, "http://kf/c") == 0 && r[10].link == r[9].link && r[11].link == 0,
		      "line %zu link", i);
	}
	t_free(t);
}

/* The cluster tables after a collection: a pair whose base cluster was freed must not answer for the cluster
 * that reuses its id (A + U+0301 dies, B + U+0303 takes its id; B + U+0303 + U+0302 is not A + ...), and A +
 * U+0301 printed again is not B + U+0303. With ASCII letters the clusters are direct (no entry, nothing
 * cached), with e-acute and e-grave in the table and the hashed cache. */
static void check_cluster_reuse(const char *a, const char *b, uint32_t a_cp, uint32_t b_cp, uint32_t want_cached,
				uint32_t want_entries)
{
	struct t_term *t = t_new(10, 2, 0);
	t_feedf(t, "x%s\xcc\x81\xcc\x82yz", a);
	uint32_t hits = 0;
	for (uint32_t i = 0; i < (1u << CLUSTER_CACHE_BITS); i++)
		hits += (t->g->cl.cache[i][0].id != 0) + (t->g->cl.cache[i][1].id != 0);
	CHECK(hits == want_cached && t->g->cl.count == want_entries, "%x: pairs cached %u, entries %u", a_cp, hits,
	      t->g->cl.count);
	grid__collect(t->g);
	t_feedf(t, "\r\n%s\xcc\x83 %s\xcc\x83\xcc\x82yz", b, b);
	const struct grid_cell *r = grid_row(t->g, 1);
	uint32_t cps[CLUSTER_MAX_CPS];
	size_t n = grid_cell_codepoints(t->g, &r[2], cps, CLUSTER_MAX_CPS);
	CHECK(n == 3 && cps[0] == b_cp && cps[1] == 0x303 && cps[2] == 0x302, "%x and 2 marks: %zu code points, %x",
	      b_cp, n, cps[0]);
	r = grid_row(t->g, 0);
	n = grid_cell_codepoints(t->g, &r[1], cps, CLUSTER_MAX_CPS);
	CHECK(n == 3 && cps[0] == a_cp && cps[1] == 0x301 && cps[2] == 0x302, "%x and 2 marks: %zu code points",
	      a_cp, n);
	t_feedf(t, "%s\xcc\x81", a);
	r = grid_row(t->g, 1);
	n = grid_cell_codepoints(t->g, &r[5], cps, CLUSTER_MAX_CPS);
	CHECK(n == 2 && cps[0] == a_cp && cps[1] == 0x301, "%x + U+0301 after the collection: %zu, %x", a_cp, n,
	      cps[0]);
	t_free(t);
}

static void test_cluster_cache_reuse(void)
{
	check_cluster_reuse("a", "b", 'a', 'b', 0, 0);
	check_cluster_reuse("\xc3\xa9", "\xc3\xa8", 0xe9, 0xe8, 2, 2);
}

/* A second mark makes a direct cluster only on a direct pair: marks outside the direct range (on e-acute, on a
 * wide character, U+0483) between direct pairs, each with a second mark. */
static void test_mark_bases(void)
{
	struct t_term *t = t_new(40, 2, 0);
	t_feed(t, "a\xcc\x81 \xc3\xa9\xcc\x82\xcc\x83 a\xcc\x81\xcc\x84 \xe4\xb8\xad\xcc\x81\xcc\x85"
		  " \xc3\xa9\xd2\x83\xcc\x86");
	static const uint32_t want[][4] = {
		{0, 'a', 0x301, 0}, {2, 0xe9, 0x302, 0x303}, {4, 'a', 0x301, 0x304}, {6, 0x4e2d, 0x301, 0x305},
		{9, 0xe9, 0x483, 0x306},
	};
	const struct grid_cell *r = grid_row(t->g, 0);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		uint32_t cps[CLUSTER_MAX_CPS];
		size_t n = grid_cell_codepoints(t->g, &r[want[k][0]], cps, CLUSTER_MAX_CPS);
		size_t wn = want[k][3] ? 3 : 2;
		CHECK(n == wn && cps[0] == want[k][1] && cps[1] == want[k][2] && (wn == 2 || cps[2] == want[k][3]),
		      "cell %u: %zu code points, %x %x %x", want[k][0], n, cps[0], n > 1 ? cps[1] : 0,
		      n > 2 ? cps[2] : 0);
	}
	t_free(t);
}

/* An ASCII character with one or two marks U+0300..U+036F is a direct cluster (CLUSTER_DIRECT): no entry in the
 * table, and the same code points as an interned cluster wherever they are read: a third mark by the run path
 * (b) and by the code-point path in a feed of its own (c), DECRQCRA's checksum. */
static void test_direct_clusters(void)
{
	struct t_term *t = t_new(40, 2, 0);
	t_feed(t, "a\xcc\x81\xcc\x82 b\xcd\xaf\xcc\x80\xcc\x83 c\xcc\x81\xcc\x82\033[0m");
	const struct grid_cell *r = grid_row(t->g, 0);
	CHECK(r[0].cp & CLUSTER_DIRECT && r[4].cp & CLUSTER_DIRECT, "direct clusters %x %x", r[0].cp, r[4].cp);
	/* b's cluster of four alone */
	CHECK(t->g->cl.count == 1, "cluster entries %u", t->g->cl.count);
	t_feed(t, "\xcc\x84");
	static const uint32_t want[][6] = {
		{0, 3, 'a', 0x301, 0x302, 0}, {2, 4, 'b', 0x36f, 0x300, 0x303}, {4, 4, 'c', 0x301, 0x302, 0x304}};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		uint32_t cps[CLUSTER_MAX_CPS] = {0};
		size_t n = grid_cell_codepoints(t->g, &r[want[k][0]], cps, CLUSTER_MAX_CPS);
		CHECK(n == want[k][1] && memcmp(cps, &want[k][2], n * sizeof(cps[0])) == 0,
		      "cell %u: %zu code points, %x %x %x %x", want[k][0], n, cps[0], cps[1], cps[2], cps[3]);
	}
	/* checksum extension 5 (marks count, not negated): 0x61 + 0x301 + 0x302 */
	t->reply_len = 0;
	t_feed(t, "\033[5#y\033[1;1;1;1;1;1*y");
	CHECK(strcmp(t->reply, "\033P1!~0664\033\\") == 0, "DECRQCRA reply %s", t->reply + 1);
	t_free(t);
}

static void test_links(void)
{
	struct t_term *t = t_new(80, 24, 100);
	for (int i = 0; i < 20000; i++)
		t_feedf(t, "\033]8;;http://example.com/%d\033\\L\033]8;;\033\\", i);
	CHECK(t->g->links.count < LINK_MAX, "links %u", t->g->links.count);
	/* after a hard reset the old links are gone and new ones work again */
	t_feed(t, "\033c\033[H\033]8;id=a;http://kf/x\033\\AB\033]8;;\033\\C");
	const struct grid_cell *r = grid_row(t->g, 0);
	const char *u = grid_link_uri(t->g, r[0].link);
	CHECK(u && strcmp(u, "http://kf/x") == 0, "link uri %s", u ? u : "(null)");
	CHECK(r[1].link == r[0].link && r[2].link == 0, "link run");
	/* ids are bounded as URIs are: 1,100 links with 64 KiB ids each keep no more than LINK_URI_MAX bytes of
	 * id per link (a longer id is not applied, as a longer URI is not) */
	static char buf[(64 << 10) + 64];
	for (int i = 0; i < 1100; i++) {
		int n = snprintf(buf, sizeof(buf), "\033]8;id=%d", i);
		memset(buf + n, 'k', 64 << 10);
		snprintf(buf + n + (64 << 10), sizeof(buf) - (size_t)n - (64 << 10), ";http://kf/\033\\L\033]8;;\033\\");
		t_feed(t, buf);
	}
	size_t keys = 0;
	for (uint32_t i = 0; i < LINK_MAX; i++)
		keys += t->g->links.key && t->g->links.key[i] ? strlen(t->g->links.key[i]) : 0;
	CHECK(keys <= (size_t)LINK_MAX * LINK_URI_MAX, "link ids hold %zu bytes", keys);
	t_free(t);
}

static void test_resize_extremes(void)
{
	struct t_term *t = t_new(80, 24, 1000);
	for (int i = 0; i < 3000; i++)
		t_feedf(t, "line %d with some text\xe4\xb8\xad that wraps around the screen edge a bit\r\n", i);
	CHECK(grid_resize(t->g, 1, 1) == 0, "1x1");
	t_feed(t, "abc\xe4\xb8\xad\033[5;5H\033[10L");
	CHECK(grid_resize(t->g, 1000, 1000) == 0, "1000x1000");
	t_feed(t, "xyz\033[999;999H\033[2J");
	CHECK(grid_resize(t->g, 0, 5) == -EINVAL, "0 cols");
	CHECK(grid_resize(t->g, 5000, 5) == -EINVAL, "too wide");
	CHECK(grid_resize(t->g, 80, 24) == 0, "back");
	CHECK(grid_scrollback_lines(t->g) <= 1000, "scrollback bound after resizes");
	t_free(t);
}

/* The style index is sized for the next collection's threshold (index_rebuild): across collections that
 * resize it, a style still on the screen is found again (the same id, not a duplicate), every cell keeps
 * its colour, and the index always has room for the threshold. Then a table full of live styles (more
 * distinct colours than ids on one screen): the index is at its full size and nothing dangles. */
static void check_index(const struct grid *g, const char *when)
{
	const struct style_table *st = &g->st;
	CHECK(st->hash_cap >= 2 * st->gc_at || (st->gc_wait && st->hash_cap >= st->cap), "%s: index %u, threshold %u",
	      when, st->hash_cap, st->gc_at);
	CHECK(st->count < st->hash_cap && st->hash_cap <= 2 * st->cap, "%s: index %u, %u styles", when, st->hash_cap,
	      st->count);
}

static void test_style_index(void)
{
	struct t_term *t = t_new(80, 24, 2000);
	struct grid *g = t->g;
	t_feed(t, "\033[38;2;1;2;3mA\033[0m");
	const uint16_t id = grid_row(g, 0)[0].style;
	uint32_t epoch = g->st.epoch, sizes = 0, last = g->st.hash_cap;
	for (int i = 0; i < 200000; i++) {
		t_feedf(t, "\033[%d;1H\033[48;2;%d;%d;%dmx", 2 + i % 23, i & 255, (i >> 8) & 255, (i >> 16) & 255);
		if ((i & 127) == 0)
			t_feed(t, "\033[24;1H\r\n"); /* a line into the scrollback: more cells, larger headroom */
		if (g->st.hash_cap != last) {
			sizes++;
			last = g->st.hash_cap;
			check_index(g, "flood");
		}
	}
	CHECK(g->st.epoch > epoch + 3 && sizes >= 2, "collections %u, index sizes %u", g->st.epoch - epoch, sizes);
	check_index(g, "after the flood");
	/* the first cell scrolled away: its colour again, on the screen (found: output whose styles come back
	 * probes the index, test_style_fresh; the flood's fresh colours may have stopped the probes) */
	g->st.fresh = 0;
	t_feed(t, "\033[0m\033[2J\033[1;1H\033[38;2;1;2;3mB\033[38;2;1;2;3mC\033[0m");
	const struct grid_cell *r = grid_row(g, 0);
	CHECK(r[0].style == id && r[1].style == id && grid_style(g, id)->fg == GRID_COLOR_RGB(1, 2, 3),
	      "one id for one style: %u %u (first %u)", r[0].style, r[1].style, id);
	grid__collect(g);
	check_index(g, "collected");
	t_feed(t, "\033[38;2;1;2;3mD\033[48;2;9;9;9m\033[49mE");
	CHECK(r[2].style == r[0].style && r[3].style == r[0].style, "found after a rebuild: %u %u %u", r[0].style,
	      r[2].style, r[3].style);
	t_free(t);

	/* 300 x 250 cells of distinct colours: more than the ids */
	t = t_new(300, 250, 0);
	g = t->g;
	for (int i = 0; i < 300 * 250; i++)
		t_feedf(t, "\033[38;2;%d;%d;%dmz", i & 255, (i >> 8) & 255, (i >> 16) & 255);
	check_index(g, "full");
	CHECK(g->st.count == g->st.cap && g->st.hash_cap == 2 * g->st.cap, "full table: %u of %u, index %u",
	      g->st.count, g->st.cap, g->st.hash_cap);
	int wrong = 0;
	for (int y = 0; y < 250; y++) {
		r = grid_row(g, y);
		for (int x = 0; x < 300; x++) {
			int i = y * 300 + x;
			const struct grid_style *s = grid_style(g, r[x].style);
			if (!g->st.used[r[x].style] ||
			    (r[x].style && s->fg != GRID_COLOR_RGB(i & 255, (i >> 8) & 255, (i >> 16) & 255)))
				wrong++;
		}
	}
	CHECK(wrong == 0, "%d cells with a wrong or dangling style", wrong);
	/* a style of the full table is found, not added */
	uint16_t known = grid_row(g, 10)[10].style;
	t_feedf(t, "\033[1;1H\033[38;2;%d;%d;%dmq", 3010 & 255, 3010 >> 8, 0);
	CHECK(known && grid_row(g, 0)[0].style == known, "found in the full table: %u %u", grid_row(g, 0)[0].style,
	      known);
	t_free(t);
}

static uint32_t indexed(const struct grid *g)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->st.hash_cap; i++)
		n += g->st.hash[i] != 0;
	return n;
}

/* 3000 fresh colours, cell (i % 1920) of 80x24 in RGB(i & 255, i >> 8, 7) (from first, a pass from i = first) */
static void fresh_pass(struct t_term *t, int first)
{
	for (int i = first; i < 3000; i++)
		t_feedf(t, "\033[%d;%dH\033[38;2;%d;%d;7mx", 1 + i % 1920 / 80, 1 + i % 80, i & 255, i >> 8);
}

static int fresh_wrong(struct grid *g)
{
	int wrong = 0;
	for (int c = 0; c < 1920; c++) {
		const int i = c < 1080 ? c + 1920 : c;
		const struct grid_cell *cell = &grid_row(g, c / 80)[c % 80];
		wrong += cell->cp != 'x' || !g->st.used[cell->style] ||
			 grid_style(g, cell->style)->fg != GRID_COLOR_RGB(i & 255, i >> 8, 7);
	}
	return wrong;
}

/* Output that makes a fresh style per run of text takes their ids without the index's probe
 * (grid__intern_fresh): after STYLE_FRESH_BYPASS misses in a row only one insertion in 256 probes and indexes
 * its style. A collection indexes every live style and probes again; once styles come back (a probe hits),
 * every miss of the cache probes, so that output cycling through more styles than the cache holds takes no
 * second ids. The cells keep their colours throughout. */
static void test_style_fresh(void)
{
	struct t_term *t = t_new(80, 24, 0);
	struct grid *g = t->g;
	fresh_pass(t, 0);
	const uint32_t count = g->st.count, epoch = g->st.epoch;
	CHECK(g->st.fresh >= STYLE_FRESH_BYPASS && count >= 3000 && indexed(g) < STYLE_FRESH_BYPASS + 3000 / 128,
	      "fresh styles: %u misses in a row, %u ids, %u indexed", g->st.fresh, count, indexed(g));
	CHECK(fresh_wrong(g) == 0, "fresh styles: %d cells wrong", fresh_wrong(g));
	grid__collect(g);
	/* (every live id indexed but 0 and the reserved GRID_STYLE_NONE) */
	CHECK(g->st.fresh == 0 && indexed(g) == g->st.count - 2, "collected: %u misses, %u indexed of %u", g->st.fresh,
	      indexed(g), g->st.count);
	/* the screen's 1920 styles again, twice, each at its cell: found (the cache holds 1024) */
	const uint32_t live = g->st.count;
	fresh_pass(t, 1080);
	fresh_pass(t, 1080);
	CHECK(g->st.count == live && fresh_wrong(g) == 0, "styles again: %u ids (%u before), %d wrong", g->st.count,
	      live, fresh_wrong(g));
	/* fresh again, then the screen's styles again: the first hit makes the probes resume */
	for (int i = 0; i < 200; i++)
		t_feedf(t, "\033[1;1H\033[48;2;%d;%d;9mx", i, i);
	t_feed(t, "\033[49m");
	const uint32_t before = g->st.count;
	CHECK(g->st.fresh >= STYLE_FRESH_BYPASS, "fresh again: %u misses", g->st.fresh);
	fresh_pass(t, 1080);
	fresh_pass(t, 1080);
	CHECK(g->st.count - before < 256 && g->st.fresh < STYLE_FRESH_BYPASS && fresh_wrong(g) == 0,
	      "styles back: %u ids more, %u misses, %d wrong", g->st.count - before, g->st.fresh, fresh_wrong(g));
	CHECK(g->st.epoch == epoch + 1, "collections %u", g->st.epoch - epoch);
	t_free(t);
}

/* grid__intern_fresh_run (text runs after a fresh colour: its bound on count) answers as grid__intern_fresh's
 * four tests after every run: through the bypass (colour SGRs past their tables), the one insertion in 256
 * that probes, collections (the bound zeroed: count and gc_at new) and styles that come back. */
static void test_style_fresh_run(void)
{
	struct t_term *t = t_new(80, 24, 0);
	struct grid *g = t->g;
	int differ = 0, fresh = 0;
	for (int i = 0; i < 6000; i++) {
		const int c = i % 960;
		if (i == 2500 || i == 4100)
			grid__collect(g);
		/* from i = 5000 on, the colours of 4000.. again (a probe's hit resets fresh) */
		const int k = i < 5000 ? i : i - 1000;
		t_feedf(t, "\033[%d;%dH\033[38;2;%d;%d;7mxy", 1 + c / 40, 1 + c % 40 * 2, k & 255, k >> 8);
		const bool run = grid__intern_fresh_run(&g->st, 1, 0);
		differ += run != grid__intern_fresh(&g->st, 1, 0);
		fresh += run;
	}
	CHECK(differ == 0 && fresh > 3000, "the bound differs from the tests %d times (%d fresh)", differ, fresh);
	CHECK(grid__intern_fresh_run(&g->st, 0, 0) == false, "the default style is not fresh");
	int wrong = 0;
	for (int c = 0; c < 960; c++) {
		const int i = 5999 - (5999 - c) % 960, k = i - 1000; /* the last run at c */
		const struct grid_cell *r = grid_row(g, c / 40);
		wrong += r[c % 40 * 2].style != r[c % 40 * 2 + 1].style ||
			 grid_style(g, r[c % 40 * 2].style)->fg != GRID_COLOR_RGB(k & 255, k >> 8, 7);
	}
	CHECK(wrong == 0, "%d runs without their colour", wrong);
	t_free(t);
}

/* Fresh colours with a full history (212 x 82 and 10000 lines: ~2.1 M cells, a headroom of ~133 k styles,
 * more than the table's ids) but few live styles: once the ids are used up, the collection runs and frees
 * them; the table never waits (new pens falling back to the default style) while most of it is dead. */
static void test_style_full_history(void)
{
	struct t_term *t = t_new(212, 82, 10000);
	struct grid *g = t->g;
	for (int i = 0; i < 10100; i++)
		t_feed(t, "plain line\r\n");
	const int n = 212 * 82, total = 200000;
	for (int i = 0; i < total; i++) {
		const int c = i % n;
		t_feedf(t, "\033[%d;%dH\033[38;2;%d;%d;7mx", 1 + c / 212, 1 + c % 212, i & 255, (i >> 8) & 255);
	}
	int wrong = 0;
	for (int c = 0; c < n; c++) {
		/* the last i that wrote cell c */
		const int i = total - 1 - ((total - 1 - c) % n);
		const struct grid_cell *cell = &grid_row(g, c / 212)[c % 212];
		wrong += cell->style == 0 || grid_style(g, cell->style)->fg != GRID_COLOR_RGB(i & 255, (i >> 8) & 255, 7);
	}
	CHECK(wrong == 0 && g->st.gc_wait == 0, "%d of %d cells without their colour (%u styles, waiting %u)", wrong, n,
	      g->st.count, g->st.gc_wait);
	t_free(t);
}

/* The cluster table finds what it holds: 30000 clusters interned twice (through the growth of the table and
 * its hash index, tag bytes probed before the entries' indexes) give the same ids and no new entries the second
 * time, and a third time after the index is rebuilt from the entries (as after a collection). Among 30000
 * hashes ~120 have a top byte of 0, the empty slot's tag: those must still be found. */
static void test_cluster_lookup(void)
{
	struct t_term *t = t_new(80, 24, 0);
	static int ids[30000];
	t->g->cl.gc_at = CLUSTER_MAX; /* no collection: these clusters are in no cell */
	for (int pass = 0; pass < 3; pass++) {
		uint32_t count = t->g->cl.count;
		if (pass == 2)
			grid__cluster_reindex(t->g);
		for (uint32_t i = 0; i < 30000; i++) {
			/* the buffer of a full cluster: intern copies that many */
			const uint32_t cps[CLUSTER_MAX_CPS] = {0x4e00 + i % 10000, 0x300 + i / 10000, 0x301 + i % 7};
			int id = grid__cluster_intern(t->g, cps, 3);
			if (pass == 0)
				ids[i] = id;
			else if (id != ids[i]) {
				CHECK(id == ids[i], "cluster %u: id %d, first %d", (unsigned)i, id, ids[i]);
				break;
			}
		}
		if (pass > 0)
			CHECK(t->g->cl.count == count, "entries %u after pass %d, %u before", t->g->cl.count, pass, count);
	}
	t_free(t);
}

int main(void)
{
	long before = peak_kb();
	test_cluster_lookup();
	test_rep();
	test_combining_flood();
	test_cluster_turnover();
	test_cluster_growth_keeps();
	test_collect_keeps();
	test_cluster_cache_reuse();
	test_mark_bases();
	test_direct_clusters();
	test_links();
	test_resize_extremes();
	test_sgr_flood();
	test_rgb_erase_flood();
	test_style_index();
	test_style_fresh();
	test_style_fresh_run();
	test_style_full_history();
	long used = peak_kb() - before;
	/* 10000 lines x 212 cells x 12 bytes is ~25 MB; 1000x1000 cells with 1000 lines of scrollback ~24 MB;
	 * tables at their caps a few MB more */
	CHECK(used < 200 * 1024, "peak memory grew by %ld kB", used);
	return t_done("grid-bounds");
}
