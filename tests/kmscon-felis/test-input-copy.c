/* tests/kmscon-felis/test-input-copy.c: a copy made with the pointer (a line selection extended with
 * Shift+click over the whole history) is taken only as far as the clipboard holds: the clipboard gets
 * KF_CLIPBOARD_MAX bytes at most, ending on a whole character, the cut is logged, and the copy's memory stays
 * near that bound whatever the selection holds (the text was built whole and cut afterwards: 12,000 lines of 80
 * marked letters, 27.9 MB; under ASan its allocator keeps the freed blocks of the doubling, 9 MiB for 4). */
#include <sys/resource.h>

static int failures;

#include "glue-harness.h"

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

int main(void)
{
	enum { COLS = 80, ROWS = 24, SB = 12000 };
	char dir[] = "/tmp/kf-glue-copy-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = COLS, .rows = ROWS, .scrollback = SB};
	struct kf_input_glue *g = glue_setup(loop, dir, &cfg, &a, &gc);
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);

	/* every cell a letter and 14 combining marks (U+0301..U+030E): 29 bytes of text */
	static const char cell[] = "a\xcc\x81\xcc\x82\xcc\x83\xcc\x84\xcc\x85\xcc\x86\xcc\x87\xcc\x88\xcc\x89\xcc\x8a"
				   "\xcc\x8b\xcc\x8c\xcc\x8d\xcc\x8e";
	static char line[COLS * (sizeof(cell) - 1) + 3];
	size_t k = 0;
	for (int x = 0; x < COLS; x++, k += sizeof(cell) - 1)
		memcpy(line + k, cell, sizeof(cell) - 1);
	memcpy(line + k, "\r\n", 3);
	k += 2;
	for (int i = 0; i < SB + ROWS; i++)
		feed(&a, line);

	/* a triple click on the oldest line, then Shift+click on the last row once back at the bottom */
	grid_view_scroll(a.grid, SB);
	click(in, BTN_LEFT, 0, 0, 1000000);
	click(in, BTN_LEFT, 0, 0, 1100000);
	click(in, BTN_LEFT, 0, 0, 1200000);
	grid_view_scroll(a.grid, -SB);
	char log[300], text[4096] = "";
	snprintf(log, sizeof(log), "%s/stderr", dir);
	int saved = stderr_to(log);
	const long before = peak_kb();
	input_inject_key(in, KEY_LEFTSHIFT, true, 1);
	click(in, BTN_LEFT, COLS - 1, ROWS - 1, 9000000);
	input_inject_key(in, KEY_LEFTSHIFT, false, 1);
	const long grew = peak_kb() - before;
	stderr_back(saved, log, text, sizeof(text));

	char *d = NULL;
	size_t len = 0;
	CHECK(kf_clipboard_get(&d, &len) == 0 && d, "clipboard read");
	printf("copy of %d lines of %zu bytes: clipboard %zu bytes, peak grew %ld KiB; log: %s", SB + ROWS, k - 2,
	       len, grew, text);
	CHECK(len <= KF_CLIPBOARD_MAX && len > KF_CLIPBOARD_MAX - 64, "clipboard of %zu bytes", len);
	CHECK(d && !memcmp(d, line, k - 2) && (d[len - 1] & 0xc0) != 0xc0, "the copy's text, cut on a character");
	CHECK(strstr(text, "selection longer than the clipboard's") != NULL, "the cut logged: %s", text);
	/* the bound's worth, not the selection's 27.9 MB */
	CHECK(grew < 12 * 1024, "peak grew by %ld KiB", grew);
	free(d);

	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input copy");
}
