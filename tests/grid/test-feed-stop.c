/* tests/grid/test-feed-stop.c: grid_feed_bounded, fed as the session feeds it, against one grid_feed.
 *
 * The session (kmscon-felis/session-feed.c) reads chunks of up to 4 KiB, feeds each with grid_feed_bounded
 * within a work budget per wake-up, keeps the rest of a chunk the budget stopped in a buffer of its own and feeds
 * it first in the next wake-up. The parser stops after the sequence that spent the budget (vt_parser_stop), and
 * while DECSLRM margins are set the grid hands it one line feed at a time. Whatever the stops, the screen must
 * be the one a single grid_feed of the stream leaves: random streams of the hostile kinds (UTF-8 cut anywhere,
 * strings with controls inside, controls inside CSIs at the bottom of margins, REP, DECALN, the rectangles,
 * DECTABSR, both screens, DECSTR and RIS, margins set and reset, autowrap at a right margin), chunked at random,
 * each chunk and each held rest in a buffer of its own with other sequences behind it (a path reading past its
 * feed shows), budgets of 0 to 300 cells, and resizes between wake-ups (the reference resized at the same byte).
 * Compared: every cell's text, width and style, the wrap flags, the scrollback, the cursor and its pending wrap,
 * the modes, the margins, the pen, the replies, the title, the bells and the palette, then again after a probe
 * (the parser's state). Not grid_work: a whole feed and a split one may count a REP differently (grid__rep's
 * clamp reads dbl_any, which a print recounts lazily, by a path the split decides), for the same cells. A bounded feed may return 0 bytes, but
 * only with the budget spent (the session's loop then ends the wake-up: no spin). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid-internal.h"
#include "harness.h"
#include "vt/vt.h"

static uint64_t seed = 0x5eed52;
static int rounds_x = 1;
static int trace_round = -1; /* KF_TRACE: that round's feeds on stderr (to reduce a failure) */

static uint32_t rnd(uint32_t n)
{
	return t_rnd(&seed, n);
}

static const char *const pieces[] = {
	/* text: ASCII, 2-, 3- and 4-byte UTF-8, wide, marks, invalid bytes, C1 bytes as text */
	"hello world ", "e\xcc\x81", "\xc3\xa9", "\xe4\xb8\x80\xe4\xba\x8c", "\xf0\x9f\x98\x80", "a\xcc\x88\xcc\x81",
	"\xff\xfe", "\xc3", "\x9b" "5m", "\xe2\x82", "\x85", "xyzzy",
	/* controls */
	"\r\n", "\n", "\v", "\f", "\t", "\b", "\r", "\x07", "\x0e", "\x0f", "\x18", "\x1a", "\x7f",
	/* the sequences that count work */
	"x\033[40b", "\xe4\xb8\x80\033[9b", "\033[65535b", "\033#8", "\033[2;2;5;9$z", "\033[66;1;1;4;20$x",
	"\033[1;1;3;30;1$r", "\033[2;2;4;9;1;1;1$v", "\033[1;1;5;8${", "\033[3;3;5;5;7;1$t", "\033[1;2;2;4;9*y",
	"\033[2$w", "\033[3S", "\033[2T", "\033[3L", "\033[2M", "\033[4@", "\033[3P", "\033[2'}", "\033[2'~",
	"\033[2 @", "\033[1 A", "\033[9X", "\033[?1049h", "\033[?1049l", "\033[?47h", "\033[?47l", "\033[?1047h",
	"\033[?1047l", "\033c", "\033[!p", "\033H", "\033[3g", "\033[0g",
	/* margins and the scrolls within them */
	"\033[?69h\033[3;12s", "\033[?69h\033[1;2s", "\033[?69h\033[5;20s\033[99;8H", "\033[s", "\033[?69l",
	"\033[2;6r", "\033[r", "\033D", "\033E", "\033M", "\033[99;1H", "\033[99;99H", "\033[H", "\033[?6h",
	"\033[?6l", "\033[?7l", "\033[?7h", "\033[4h", "\033[4l",
	/* controls and cuts inside sequences */
	"\033[2\nJ", "\033[3\vK", "\033[1;\n5H", "\033[\n\n\nA", "\033[2\030J", "\033[2\033[3C", "\033\033D",
	"\033[12\x7fH", "\033[\xc3\xa9H", "\033[4;\r\nm", "\033(0lqk\033(B", "\033#3", "\033#6", "\033#5",
	/* strings */
	"\033]2;title one\007", "\033]0;t\nwo\033\\", "\033]2;cut\030", "\033P$qm\033\\", "\033P$qr\033\\",
	"\033P$q\"p\033\\", "\033]4;1;rgb:10/20/30\007", "\033]104\007", "\033]10;?\007", "\033_apc\nstuff\033\\",
	"\033^pm\033\\", "\033Xsos\033\\", "\033]8;;http://x\033\\link\033]8;;\033\\", "\033P1$r0m\033\\",
	/* replies and modes */
	"\033[6n", "\033[c", "\033[>c", "\033[?7$p", "\033[?69$p", "\033[1;1;4;4$w", "\033[?2004h", "\033[?1000h",
	"\033[?1006h", "\033[?25l", "\033[?25h", "\033[3 q", "\033[1;31;42m", "\033[0m", "\033[38;5;200;48;2;1;2;3m",
	"\033[>4;2m", "\033[=5u", "\033[>1u", "\033[<u", "\0337", "\0338", "\033[18t", "\033[14t",
	/* synchronized updates: their end stops a bounded feed whatever the budget */
	"\033[?2026h", "\033[?2026l", "\033[?25;2026l", "\033[?2026h\033[?2026l",
	/* a sequence's head at a chunk's end, ESC alone */
	"\033[", "\033", "\033[?", "\033]", "\033P", "\033[1;2",
};

/* The bytes put behind every fed buffer: sequences that change the screen if anything read them */
static const char poison[] = "\033[2J\033#8Z\033[1;1H\033[31mPOISON\r\n";

/* Fed to both after the stream: a parser left in another state takes it otherwise */
static const char probe[] = "\033\\\030\033[2;3HP\033[4mQ\033[6n\033[?69l\033[r\r\nprobe";

struct run {
	struct t_term *t;
	size_t bells;
};

static int stream(char *buf, int cap)
{
	int n = 0;
	while (n < cap - 200) {
		if (!rnd(12)) {
			/* a run of text long enough to wrap within margins */
			int k = 20 + (int)rnd(100);
			for (int i = 0; i < k; i++)
				buf[n++] = (char)('a' + rnd(26));
			continue;
		}
		if (!rnd(10)) {
			/* a run of line feeds (at the bottom of margins, each a scroll of the region) */
			for (int i = 1 + (int)rnd(30); i-- > 0;)
				buf[n++] = '\n';
			continue;
		}
		const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
		size_t l = strlen(p);
		memcpy(buf + n, p, l);
		n += (int)l;
	}
	return n;
}

/* data[0..n) fed bounded from a buffer of its own with the poison behind it; returns the bytes fed */
static size_t feed_alone(struct grid *g, const char *data, size_t n, uint64_t end)
{
	char *c = malloc(n + sizeof(poison));
	memcpy(c, data, n);
	memcpy(c + n, poison, sizeof(poison));
	const size_t r = grid_feed_bounded(g, (const uint8_t *)c, n, end);
	free(c);
	return r;
}

static int compare(struct t_term *a, struct t_term *b, const char *what)
{
	int bad = 0;
	struct grid_cursor ca, cb;
	grid_get_cursor(a->g, &ca);
	grid_get_cursor(b->g, &cb);
	bool cur = t_same_cursor(a->g, b->g);
	CHECK(cur, "%s: cursor %d,%d vs %d,%d", what, ca.x, ca.y, cb.x, cb.y);
	bad |= !cur;
	CHECK(a->g->wrap_pending == b->g->wrap_pending, "%s: wrap pending %d vs %d", what, a->g->wrap_pending,
	      b->g->wrap_pending);
	bad |= a->g->wrap_pending != b->g->wrap_pending;
	bool pen = t_same_style_values(&a->g->pen, &b->g->pen);
	CHECK(pen, "%s: pen", what);
	bad |= !pen;
	bool modes = t_same_modes(a->g, b->g);
	CHECK(modes, "%s: modes", what);
	bad |= !modes;
	bool margins = a->g->left == b->g->left && a->g->right == b->g->right && a->g->top == b->g->top &&
		       a->g->bottom == b->g->bottom;
	CHECK(margins, "%s: margins %d..%d %d..%d vs %d..%d %d..%d", what, a->g->left, a->g->right, a->g->top,
	      a->g->bottom, b->g->left, b->g->right, b->g->top, b->g->bottom);
	bad |= !margins;
	CHECK(strcmp(a->reply, b->reply) == 0, "%s: replies differ (%zu and %zu bytes)", what, a->reply_len,
	      b->reply_len);
	bad |= strcmp(a->reply, b->reply) != 0;
	CHECK(strcmp(a->title, b->title) == 0, "%s: title \"%s\" vs \"%s\"", what, a->title, b->title);
	bad |= strcmp(a->title, b->title) != 0;
	CHECK(a->bells == b->bells, "%s: bells %d vs %d", what, a->bells, b->bells);
	bad |= a->bells != b->bells;
	CHECK(!memcmp(grid_palette(a->g), grid_palette(b->g), 256 * sizeof(uint32_t)), "%s: palette", what);
	const int cols = grid_cols(a->g), rows = grid_rows(a->g);
	CHECK(cols == grid_cols(b->g) && rows == grid_rows(b->g), "%s: size", what);
	if (bad || cols != grid_cols(b->g) || rows != grid_rows(b->g))
		return 1;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *ra = grid_row(a->g, y), *rb = grid_row(b->g, y);
		bool same = grid_row_wrapped(a->g, y) == grid_row_wrapped(b->g, y);
		for (int x = 0; x < cols && same; x++)
			same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width &&
			       t_same_style(a->g, &ra[x], b->g, &rb[x]);
		CHECK(same, "%s row %d: \"%s\"", what, y, t_row(a, y));
		if (!same) {
			fprintf(stderr, "  one feed: \"%s\"\n", t_row(b, y));
			return 1;
		}
	}
	const size_t sb = grid_scrollback_lines(a->g);
	CHECK(sb == grid_scrollback_lines(b->g), "%s: scrollback %zu vs %zu", what, sb, grid_scrollback_lines(b->g));
	if (sb != grid_scrollback_lines(b->g))
		return 1;
	for (size_t i = 0; i < sb; i++) {
		int la, lb;
		const struct grid_cell *ra = grid_scrollback_row(a->g, i, &la), *rb = grid_scrollback_row(b->g, i, &lb);
		bool same = la == lb;
		for (int x = 0; x < la && same; x++)
			same = t_same_cp(a->g, &ra[x], b->g, &rb[x]) && ra[x].width == rb[x].width;
		CHECK(same, "%s: scrollback line %zu", what, i);
		if (!same)
			return 1;
	}
	return 0;
}

/* One stream: the bounded feeds (a) as the session does them, the reference (b) one grid_feed between the
 * resizes a made. Returns the stops. */
static unsigned run_stream(int round, const char *buf, size_t len, int margins_only)
{
	struct t_term *a = t_new(24, 8, 40), *b = t_new(24, 8, 40);
	size_t done = 0, ref_done = 0, read_at = 0;
	char *held = malloc(4096);
	size_t held_len = 0;
	unsigned stops = 0, wakeups = 0;
	if (round == trace_round) {
		FILE *f = fopen("/tmp/feed-stop-stream.bin", "wb");
		fwrite(buf, 1, len, f);
		fclose(f);
	}
	while ((read_at < len || held_len) && wakeups++ < 1000000) {
		/* a wake-up: a budget of 0..300 cells (0: stops at the first counted sequence) */
		const uint64_t budget = rnd(4) ? rnd(301) : 0, end = grid_work(a->g) + budget;
		bool spent = false;
		if (held_len) {
			const size_t r = feed_alone(a->g, held, held_len, end);
			if (round == trace_round)
				fprintf(stderr, "held %zu at %zu: %zu, work %llu end %llu\n", held_len, done, r,
					(unsigned long long)grid_work(a->g), (unsigned long long)end);
			/* none only when the budget is spent (the session's loop then ends its wake-up): else a spin */
			CHECK((r > 0 || grid_work(a->g) >= end) && r <= held_len, "round %d: the held bytes: %zu of %zu fed",
			      round, r, held_len);
			if ((r == 0 && grid_work(a->g) < end) || r > held_len)
				break;
			memmove(held, held + r, held_len - r);
			held_len -= r;
			done += r;
			stops += held_len != 0;
			spent = held_len != 0 || grid_work(a->g) >= end;
		}
		while (!spent && read_at < len) {
			/* a read: 1..4096 bytes, fed in slices of at most 4096 (or fewer, as a small read) */
			size_t k = 1 + rnd(rnd(4) ? 64 : 4096);
			k = k < len - read_at ? k : len - read_at;
			size_t off = 0;
			while (off < k && grid_work(a->g) < end) {
				const size_t r = feed_alone(a->g, buf + read_at + off, k - off, end);
				if (round == trace_round)
					fprintf(stderr, "read %zu at %zu: %zu, work %llu end %llu\n", k - off, read_at + off,
						r, (unsigned long long)grid_work(a->g), (unsigned long long)end);
				CHECK((r > 0 || grid_work(a->g) >= end) && r <= k - off, "round %d: %zu of %zu fed", round, r,
				      k - off);
				if ((r == 0 && grid_work(a->g) < end) || r > k - off)
					goto out;
				off += r;
			}
			done += off;
			if (off < k) {
				memcpy(held, buf + read_at + off, k - off);
				held_len = k - off;
				stops++;
			}
			read_at += k;
			spent = off < k || grid_work(a->g) >= end;
		}
		/* between wake-ups, sometimes a resize: the reference takes the bytes up to here whole first */
		/* (not after a byte of UTF-8: a stop after an invalid sequence's bytes has printed its U+FFFD, seeing
		 * the byte that ends it, where the reference, fed up to the same byte, still waits for more) */
		if (!margins_only && !rnd(40) && (done == 0 || (uint8_t)buf[done - 1] < 0x80)) {
			grid_feed(b->g, (const uint8_t *)buf + ref_done, done - ref_done);
			ref_done = done;
			char at[64];
			snprintf(at, sizeof(at), "round %d, before the resize at %zu", round, done);
			if (compare(a, b, at))
				break;
			const int cols = 2 + (int)rnd(40), rows = 1 + (int)rnd(14);
			grid_resize(a->g, cols, rows);
			if (round == trace_round)
				fprintf(stderr, "resize %dx%d at %zu\n", cols, rows, done);
			grid_resize(b->g, cols, rows);
		}
	}
out:
	CHECK(done == len && !held_len, "round %d: %zu of %zu bytes fed, %zu held", round, done, len, held_len);
	grid_feed(b->g, (const uint8_t *)buf + ref_done, len - ref_done);
	char what[64];
	snprintf(what, sizeof(what), "round %d", round);
	if (round == trace_round) {
		size_t i = 0;
		while (a->reply[i] && a->reply[i] == b->reply[i])
			i++;
		fprintf(stderr, "replies differ at %zu: bounded ", i);
		t_dump(a->reply + i, (int)strlen(a->reply + i) < 60 ? (int)strlen(a->reply + i) : 60);
		fprintf(stderr, "  one feed ");
		t_dump(b->reply + i, (int)strlen(b->reply + i) < 60 ? (int)strlen(b->reply + i) : 60);
	}
	if (!compare(a, b, what)) {
		grid_feed(a->g, (const uint8_t *)probe, sizeof(probe) - 1);
		grid_feed(b->g, (const uint8_t *)probe, sizeof(probe) - 1);
		snprintf(what, sizeof(what), "round %d, probe after", round);
		compare(a, b, what);
	}
	free(held);
	t_free(a);
	t_free(b);
	return stops;
}

/* Random streams of every piece */
static void test_random(void)
{
	static char buf[40000];
	unsigned stops = 0;
	for (int round = 0; round < 60 * rounds_x; round++) {
		const int len = stream(buf, 4000 + (int)rnd(30000));
		stops += run_stream(round, buf, (size_t)len, 0);
	}
	CHECK(stops > 5000, "only %u stops", stops);
	fprintf(stderr, "random streams: %u stops\n", stops);
}

/* Margins set at the start and line feeds, text and the sequences within them: each stop between line feeds */
static void test_margins(void)
{
	static char buf[40000];
	unsigned stops = 0;
	for (int round = 0; round < 30; round++) {
		int n = sprintf(buf, "\033[?69h\033[%u;%us\033[99;1H", 1 + rnd(4), 8 + rnd(16));
		n += stream(buf + n, 8000 + (int)rnd(8000));
		stops += run_stream(1000 + round, buf, (size_t)n, 1);
	}
	CHECK(stops > 1000, "only %u stops", stops);
	fprintf(stderr, "margin streams: %u stops\n", stops);
}

/* The end of a synchronized update (DECRST 2026 while set) stops a bounded feed right after it (and the text that
 * follows it, before the next sequence of the parser's table machine: the start of the next update), whatever the
 * budget, and counts (grid_sync_ends); a reset without a set, a repeated set and an unbounded feed do not stop, nor
 * does a bounded feed whose grid_callbacks.sync_end says no. */
static bool sync_end_no(void *ud)
{
	(*(unsigned *)ud)++;
	return false;
}

static void test_sync_end(void)
{
	struct grid_config cfg = {.cols = 20, .rows = 5};
	struct grid *g = grid_create(&cfg, NULL, NULL);
	static const char a[] = "\033[?2026lx\033[?2026hAB\033[?2026hC\033[?25;2026lDE\033[?2026hF";
	const size_t first = strlen("\033[?2026lx\033[?2026hAB\033[?2026hC\033[?25;2026l");
	size_t r = grid_feed_bounded(g, (const uint8_t *)a, sizeof(a) - 1, UINT64_MAX - 1);
	/* (the text right after it, "DE", may go with it: a run of text is not broken, and it is outside the update) */
	CHECK(r >= first && r <= first + 2, "the feed stopped after %zu bytes, not at the update's end (%zu)", r, first);
	CHECK(grid_sync_ends(g) == 1, "%llu update ends counted", (unsigned long long)grid_sync_ends(g));
	const size_t rest = sizeof(a) - 1 - r;
	r = grid_feed_bounded(g, (const uint8_t *)a + r, rest, UINT64_MAX - 1);
	CHECK(r == rest, "the rest: %zu of %zu fed", r, rest);
	grid_feed(g, (const uint8_t *)"\033[?2026lG\033[?2026hH\033[?2026lI", 27);
	CHECK(grid_sync_ends(g) == 3, "%llu update ends counted", (unsigned long long)grid_sync_ends(g));
	const struct grid_cell *row = grid_row(g, 0);
	CHECK(row[0].cp == 'x' && row[3].cp == 'C' && row[5].cp == 'E' && row[9].cp == 'I', "the text fed");
	grid_destroy(g);
	/* grid_callbacks.sync_end saying no (no frame can show it now): the feed goes on, each end asked once */
	struct grid_callbacks cb = {.sync_end = sync_end_no};
	unsigned asked = 0;
	g = grid_create(&cfg, &cb, &asked);
	r = grid_feed_bounded(g, (const uint8_t *)a, sizeof(a) - 1, UINT64_MAX - 1);
	CHECK(r == sizeof(a) - 1 && asked == 1, "said no: %zu of %zu bytes fed, asked %u times", r, sizeof(a) - 1,
	      asked);
	grid_feed(g, (const uint8_t *)"\033[?2026lG\033[?2026hH\033[?2026lI", 27);
	CHECK(grid_sync_ends(g) == 3 && asked == 1, "%llu ends, asked %u times (grid_feed does not ask)",
	      (unsigned long long)grid_sync_ends(g), asked);
	grid_destroy(g);
}

int main(void)
{
	/* KF_ROUNDS multiplies the random rounds, KF_SEED starts another sequence, KF_TRACE=N prints round N's feeds
	 * and writes its stream to /tmp/feed-stop-stream.bin (to reduce a failure) */
	if (getenv("KF_ROUNDS"))
		rounds_x = atoi(getenv("KF_ROUNDS"));
	if (getenv("KF_TRACE"))
		trace_round = atoi(getenv("KF_TRACE"));
	if (getenv("KF_SEED"))
		seed = strtoull(getenv("KF_SEED"), NULL, 0);
	const uint64_t seed0 = seed;
	/* both copies of the parser's feed loop (the AVX2 one where the CPU has it) */
	test_sync_end();
	for (int copy = 0; copy < 2; copy++) {
		vt__no_avx2 = copy == 1;
		seed = seed0 + (uint64_t)copy;
		test_random();
		test_margins();
	}
	return t_done("grid-feed-stop");
}
