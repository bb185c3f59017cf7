/* tests/grid/test-hist-memory.c: the scrollback's memory, populated as its lines need it and given back when
 * it is cleared. A console that once held 10,000 long lines kept their chunks (grid-history.c) mapped after
 * ED 3 (CSI 3 J, which `clear` sends) and after a hard reset (RIS), tens of megabytes for good. Measured as the process's resident memory
 * (/proc/self/statm) around a real stream: 10,100 lines of 212 columns with accented letters (stored whole,
 * 12 bytes a cell), then ED 3 or RIS; the scrollback must then fill again and read back as written. */
#include <unistd.h>

#include "harness.h"

enum { COLS = 212, ROWS = 82, SB = 10000 };

static long rss_kib(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	if (f)
		fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* n lines of COLS cells: "line N " then accented letters, so that no line is packed */
static void flood(struct t_term *t, int first, int n)
{
	char buf[COLS * 2 + 16];
	for (int i = first; i < first + n; i++) {
		int k = snprintf(buf, sizeof(buf), "line %d ", i), cells = k;
		for (; cells < COLS; cells++) {
			buf[k++] = (char)0xc3;
			buf[k++] = (char)0xa9; /* é */
		}
		buf[k++] = '\r';
		buf[k++] = '\n';
		buf[k] = '\0';
		t_feed(t, buf);
	}
}

static const char *sb_text(struct t_term *t, size_t i)
{
	int len = 0;
	const struct grid_cell *c = grid_scrollback_row(t->g, i, &len);
	static char out[64];
	int k = 0;
	for (int x = 0; c && x < len && k < 20; x++)
		if (c[x].cp < 0x80)
			out[k++] = (char)c[x].cp;
	out[k] = '\0';
	return c ? out : "(null)";
}

static void check_release(const char *name, const char *clear)
{
	struct t_term *t = t_new(COLS, ROWS, SB);
	flood(t, 0, 100); /* the screen's rows and a first chunk: not what is measured */
	long before = rss_kib();
	flood(t, 100, SB + ROWS);
	long full = rss_kib();
	CHECK(grid_scrollback_lines(t->g) == SB, "%s: %zu lines of scrollback", name,
	      grid_scrollback_lines(t->g));
	t_feed(t, clear);
	long after = rss_kib();
	CHECK(grid_scrollback_lines(t->g) == 0, "%s: %zu lines left", name, grid_scrollback_lines(t->g));
	/* the flood took ~25 MB; all but a chunk (2 MiB) comes back */
	CHECK(full - before > 20000 && after - before < 3 * 1024,
	      "%s: resident %ld KiB before the flood, %ld KiB full, %ld KiB after it", name, before, full, after);
	printf("%s: resident %ld KiB, %ld KiB with %d lines of scrollback, %ld KiB after\n", name, before, full,
	       SB, after);
	/* the scrollback works as before: it fills again and reads back */
	t_feed(t, "\033[H\033[2J");
	flood(t, 50000, SB + ROWS + 10);
	CHECK(grid_scrollback_lines(t->g) == SB, "%s: %zu lines of scrollback again", name,
	      grid_scrollback_lines(t->g));
	/* lines 50000..60091, the last 81 on the screen over its blank last row */
	char first[64];
	snprintf(first, sizeof(first), "%s", sb_text(t, 0));
	const char *last = sb_text(t, SB - 1);
	CHECK(!strncmp(first, "line 50011 ", 11), "%s: oldest line again '%s'", name, first);
	CHECK(!strncmp(last, "line 60010 ", 11), "%s: newest line again '%s'", name, last);
	long refilled = rss_kib();
	CHECK(refilled - before < (full - before) + 3 * 1024, "%s: %ld KiB filled again, %ld KiB the first time",
	      name, refilled, full);
	/* `clear` after a few lines, many times: the memory stays about a chunk */
	for (int i = 0; i < 200; i++) {
		flood(t, i * 10, 100);
		t_feed(t, clear);
	}
	CHECK(grid_scrollback_lines(t->g) == 0, "%s: a clear leaves %zu lines", name, grid_scrollback_lines(t->g));
	long cycled = rss_kib();
	CHECK(cycled - before < 3 * 1024, "%s: %ld KiB after 200 clears (before %ld)", name, cycled, before);
	t_free(t);
}

/* A scrollback holds memory for the lines it holds, not a whole chunk from its first line on: a chunk (512
 * KiB below 8 huge pages of scrollback) was populated whole when its first line came, which a TCG guest's
 * kernel zeroes a byte at a time (csi's 4 MB in the guest's bench used 50 KB of its third chunk:
 * docs/benchmarks.md, issue 5, session 45). 80 columns, 1000 lines: small chunks. */
static void check_populated(void)
{
	struct t_term *t = t_new(80, 24, 1000);
	t_feed(t, "\033[H");
	/* the screen's rows first: not what is measured */
	for (int i = 0; i < 23; i++)
		t_feed(t, "x\r\n");
	/* the first reading's own stdio buffers (up to ~150 KiB more resident) are not the scrollback's */
	rss_kib();
	long before = rss_kib();
	for (int i = 0; i < 10; i++)
		t_feed(t, "y\r\n");
	long after = rss_kib();
	/* the ten rows pushed out (the short ones of the screen's first rows): a few KB */
	CHECK(grid_scrollback_lines(t->g) == 10, "%zu lines of scrollback", grid_scrollback_lines(t->g));
	CHECK(after - before < 256, "10 lines of scrollback took %ld KiB (resident %ld KiB before them)", after - before,
	      before);
	printf("10 lines of scrollback: %ld KiB more resident\n", after - before);
	t_free(t);
}

int main(void)
{
	check_populated();
	check_release("ED 3", "\033[3J");
	check_release("RIS", "\033c");
	/* ED 3 from the alternate screen erases the primary screen's saved lines as well */
	check_release("ED 3 on the alternate screen", "\033[?1049h\033[3J\033[?1049l");
	printf("%d checks, %d failures\n", t_checks, t_fails);
	return t_fails ? 1 : 0;
}
