/* tests/fuzz/fuzz-core.c: libFuzzer target over the terminal core (vt/ parser + grid/), with resizes, view
 * scrolls and selections.
 *
 * Input: the first two bytes pick the initial size; the rest is a byte stream fed in pieces (the first half of
 * each by grid_feed, the second by grid_feed_bounded as the session feeds it: a small budget of work a round, the
 * bytes not taken fed first in the next, so the parser's stops land wherever a sequence spends work),
 * split at "\xff\xfe" and a command byte (0xff/0xfe are never valid UTF-8, so real streams do not contain the
 * marker by chance), each command followed by two bytes b0 b1:
 *   'R'    resize to (1 + b0 % 200) x (1 + b1 % 80)
 *   'V'    scroll the view (int8_t)b0 lines into the history; the pieces after it are fed while scrolled
 *          back, as the child's output arrives while the user reads the history
 *   'X'    start a selection (cell, word, line by b1 % 3) at column b0, row b0 >> 3 (within the grid)
 *   'E'    extend the selection to (b0, b1) (within the grid)
 *   other  a piece boundary only
 * After every piece the whole public read API is walked (rows, clusters, styles, damage, scrollback,
 * selection), so a corrupted grid shows up as a sanitizer report here rather than in the renderer. */
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "../kf-reply-safe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reply must be one sequence of printable ASCII whatever the input: one that echoed the stream's controls
 * would type them into the shell of the user who ran cat on a hostile file (tests/kf-reply-safe.h). */
static void on_reply(void *ud, const uint8_t *d, size_t n)
{
	(void)ud;
	if (!kf_reply_is_safe(d, n))
		abort();
}

/* OSC 52 reads answered (clipboard-read on) with a clipboard another program filled with controls */
static int on_clipboard_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	static const uint8_t hostile[] = "\r\nid\r\033[201~\x9b" "0c\a\033\\";
	(void)ud, (void)targets;
	*data = malloc(sizeof(hostile));
	if (!*data)
		return -1;
	memcpy(*data, hostile, sizeof(hostile));
	*len = sizeof(hostile);
	return 0;
}

static void walk(struct grid *g, unsigned seed)
{
	int cols = grid_cols(g), rows = grid_rows(g);
	uint32_t cps[64];
	/* with no selection no cell is marked as in one: the painter shows the mark, whatever the selection */
	const bool sel = grid_has_selection(g);
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *row = grid_row(g, y);
		for (int x = 0; x < cols; x++) {
			size_t n = grid_cell_codepoints(g, &row[x], cps, 64);
			(void)n;
			const struct grid_style *st = grid_style(g, row[x].style);
			if (!st || (!sel && (row[x].flags & GRID_CELL_SELECTED)))
				abort();
			/* a link's URI is freed only when no cell holds its id (the collection): never a dangling id */
			if (row[x].link && !grid_link_uri(g, row[x].link))
				abort();
		}
		int x0, x1;
		if (grid_row_damage(g, y, &x0, &x1) && (x0 < 0 || x1 > cols || x0 > x1))
			abort();
		(void)grid_row_wrapped(g, y);
	}
	struct grid_cursor cur;
	grid_get_cursor(g, &cur);
	/* y is a row of the display: while scrolled back the cursor's row may lie below it, and is not shown */
	if (cur.x < 0 || cur.x > cols || cur.y < 0 || cur.y >= rows + grid_view_offset(g) ||
	    (cur.visible && cur.y >= rows))
		abort();
	size_t sb = grid_scrollback_lines(g);
	if (sb) {
		int len;
		const struct grid_cell *row = grid_scrollback_row(g, seed % sb, &len);
		for (int x = 0; row && x < len; x++)
			if ((!sel && (row[x].flags & GRID_CELL_SELECTED)) || (row[x].link && !grid_link_uri(g, row[x].link)))
				abort();
	}
	if (seed & 1) {
		const int off = grid_view_offset(g);
		grid_view_scroll(g, (int)(seed % 7) - 3);
		grid_select_start(g, (int)(seed % (unsigned)cols), (int)(seed % (unsigned)rows),
				  (enum grid_select_mode)(seed % 3));
		grid_select_extend(g, (int)((seed >> 3) % (unsigned)cols), (int)((seed >> 5) % (unsigned)rows));
		size_t len;
		free(grid_selection_text(g, &len));
		grid_view_scroll(g, off - grid_view_offset(g)); /* back where the 'V' command left it */
	}
	grid_damage_clear(g);
}

/* n bytes through grid_feed_bounded, a budget of 1..512 cells a round as a session's wake-up (kmscon-felis/
 * session-feed.c) until all are taken. A call may take 0 bytes only when its budget is spent (grid.h), so every
 * round after such a one advances: more rounds than twice the bytes is a spin. */
static void feed_bounded(struct grid *g, const uint8_t *d, size_t n, unsigned seed)
{
	const uint64_t budget = 1 + seed % 512;
	size_t done = 0;
	for (size_t round = 0; done < n; round++) {
		if (round > 2 * n + 64)
			abort();
		done += grid_feed_bounded(g, d + done, n - done, grid_work(g) + budget);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	static const struct grid_callbacks cb = {.reply = on_reply, .clipboard_get = on_clipboard_get};
	struct grid_config cfg = {.cols = 1 + data[0] % 120, .rows = 1 + data[1] % 40, .scrollback = 50,
				  .allow_clipboard_read = true};
	struct grid *g = grid_create(&cfg, &cb, NULL);
	if (!g)
		return 0;
	data += 2, size -= 2;
	unsigned seed = 0;
	while (size) {
		const uint8_t *m = memmem(data, size, "\xff\xfe", 2);
		size_t n = m ? (size_t)(m - data) : size;
		/* Feed the piece in two parts so sequences are split across feeds too. */
		size_t half = n / 2;
		grid_feed(g, data, half);
		feed_bounded(g, data + half, n - half, seed);
		walk(g, seed += (unsigned)n);
		data += n, size -= n;
		if (size < 5)
			break;
		const int a = data[3], b = data[4];
		switch (data[2]) {
		case 'R':
			grid_resize(g, 1 + a % 200, 1 + b % 80);
			break;
		case 'V':
			grid_view_scroll(g, (int8_t)a);
			break;
		case 'X':
			grid_select_start(g, a % grid_cols(g), (a >> 3) % grid_rows(g), (enum grid_select_mode)(b % 3));
			break;
		case 'E':
			grid_select_extend(g, a % grid_cols(g), b % grid_rows(g));
			break;
		default:
			break;
		}
		walk(g, seed++);
		data += 5, size -= 5;
	}
	grid_destroy(g);
	return 0;
}
