/* kf-sync: the program a terminal runs in tests/vm/t-frameloop.py (synchronized output, DECSET 2026, and the
 * flip watchdog). It paints a block of rows in one colour at a time (red, green, blue: easy to tell apart in a
 * screendump), asks its parent terminal for its frame counters (SIGRTMIN+1, kmscon-felis logs them) at chosen
 * moments, and writes what it did, with CLOCK_MONOTONIC times in ms, to RESULT.
 *
 *   kf-sync RESULT GO hold CYCLES MS [nosync]
 *       Waits for the file GO, then CYCLES times: ESC[?2026h + red block, sleep MS, green block + ESC[?2026l,
 *       sleep MS (with "nosync" the same without the 2026 sequences: the control). Then a blue block. Signals
 *       the parent before the first cycle and after the blue block. RESULT: "max_gap_ms N" (the longest time
 *       between a red and its green write) and "t_start/t_end".
 *   kf-sync RESULT GO timeout HOLD_MS
 *       Waits for GO, signals the parent (s0), ESC[?2026h + red block (t_red), after 60 ms signals (s1), after
 *       1500 ms signals (s2), at HOLD_MS (> 1500) writes green + ESC[?2026l, then a blue block.
 *   kf-sync RESULT GO flood MS
 *       Waits for GO, signals the parent, then for MS ms writes update after update without a pause (the PTY
 *       kept full, as a TUI redrawing under load): ESC[?2026h + red block + green block + ESC[?2026l, so that
 *       red shows only in a frame of an update half drawn. Then a blue block, then signals the parent.
 *   kf-sync RESULT GO tiny N
 *       Waits for GO, signals the parent, then writes N tiny updates (ESC[?2026h X ESC[?2026l, 17 bytes) in
 *       writes of 64 KiB, "t_tiny_ms" in RESULT: how long the terminal took to take them; then a blue block, then
 *       signals the parent.
 *   kf-sync RESULT GO anim MS
 *       Waits for GO, signals the parent, then alternates red and green blocks every 20 ms for MS ms ("t_anim"
 *       in RESULT), then a blue block, then signals the parent.
 * Every mode hides the cursor first (no cursor blink frames) and ends by sleeping until killed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_TOP 3
#define BLOCK_ROWS 10

static char block[3][16384];
static size_t block_len[3];
static FILE *result;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void out(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);

		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			exit(1);
		}
		p += w;
		n -= (size_t)w;
	}
}

static void outs(const char *s)
{
	out(s, strlen(s));
}

/* Colour c (0 red, 1 green, 2 blue) over BLOCK_ROWS full rows, as one string, so one write paints it. */
static void make_blocks(void)
{
	struct winsize ws = {0};
	int cols;

	ioctl(1, TIOCGWINSZ, &ws);
	cols = ws.ws_col > 0 && ws.ws_col < 400 ? ws.ws_col : 80;
	for (int c = 0; c < 3; c++) {
		char *p = block[c];

		p += sprintf(p, "\033[%d;1H\033[4%dm", BLOCK_TOP, c == 0 ? 1 : c == 1 ? 2 : 4);
		for (int r = 0; r < BLOCK_ROWS; r++) {
			memset(p, ' ', (size_t)cols);
			p += cols;
			if (r + 1 < BLOCK_ROWS)
				p += sprintf(p, "\033[%d;1H", BLOCK_TOP + r + 1);
		}
		p += sprintf(p, "\033[0m");
		block_len[c] = (size_t)(p - block[c]);
	}
}

static void stats(const char *name)
{
	fprintf(result, "%s %lld\n", name, now_ms());
	fflush(result);
	kill(getppid(), SIGRTMIN + 1);
}

static void mode_hold(int cycles, long ms, int sync)
{
	long long max_gap = 0;

	stats("s_start");
	sleep_ms(100);
	for (int i = 0; i < cycles; i++) {
		long long t;

		if (sync)
			outs("\033[?2026h");
		out(block[0], block_len[0]);
		t = now_ms();
		sleep_ms(ms);
		out(block[1], block_len[1]);
		if (sync)
			outs("\033[?2026l");
		t = now_ms() - t;
		max_gap = t > max_gap ? t : max_gap;
		sleep_ms(ms);
	}
	out(block[2], block_len[2]);
	sleep_ms(300);
	stats("s_end");
	fprintf(result, "max_gap_ms %lld\n", max_gap);
}

static void mode_timeout(long hold_ms)
{
	long long t_red;

	stats("s0");
	sleep_ms(100);
	t_red = now_ms();
	outs("\033[?2026h");
	out(block[0], block_len[0]);
	fprintf(result, "t_red %lld\n", t_red);
	sleep_ms(60);
	stats("s1");
	sleep_ms(1500 - 60);
	stats("s2");
	sleep_ms(hold_ms - 1500);
	out(block[1], block_len[1]);
	outs("\033[?2026l");
	fprintf(result, "t_green %lld\n", now_ms());
	sleep_ms(300);
	out(block[2], block_len[2]);
}

static void mode_flood(long ms)
{
	long long end;
	long n = 0;

	stats("s_start");
	sleep_ms(100);
	end = now_ms() + ms;
	while (now_ms() < end) {
		outs("\033[?2026h");
		out(block[0], block_len[0]);
		out(block[1], block_len[1]);
		outs("\033[?2026l");
		n++;
	}
	fprintf(result, "updates %ld\n", n);
	out(block[2], block_len[2]);
	sleep_ms(300);
	stats("s_end");
}

static void mode_tiny(long n)
{
	static const char one[] = "\033[?2026hX\033[?2026l";
	static char buf[65536];
	const size_t each = sizeof(one) - 1, per = sizeof(buf) / each;
	long long t;

	for (size_t i = 0; i < per; i++)
		memcpy(buf + i * each, one, each);
	stats("s_start");
	sleep_ms(100);
	t = now_ms();
	for (long left = n; left > 0; left -= (long)per)
		out(buf, (left < (long)per ? (size_t)left : per) * each);
	fprintf(result, "t_tiny_ms %lld\n", now_ms() - t);
	fprintf(result, "updates %ld\n", n);
	out(block[2], block_len[2]);
	sleep_ms(300);
	stats("s_end");
}

static void mode_anim(long ms)
{
	long long end;

	stats("s_start");
	sleep_ms(100);
	end = now_ms() + ms;
	for (int i = 0; now_ms() < end; i++) {
		out(block[i & 1], block_len[i & 1]);
		sleep_ms(20);
	}
	fprintf(result, "t_anim %ld\n", ms);
	out(block[2], block_len[2]);
	sleep_ms(300);
	stats("s_end");
}

int main(int argc, char **argv)
{
	char tmp[4096];

	if (argc < 4) {
		fprintf(stderr, "usage: kf-sync RESULT GO hold|timeout|flood|tiny|anim ARGS...\n");
		return 2;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	result = fopen(tmp, "w");
	if (!result)
		return 1;
	make_blocks();
	outs("\033[?25l\033[2J\033[H");
	while (access(argv[2], F_OK) != 0)
		sleep_ms(10);
	if (strcmp(argv[3], "hold") == 0 && argc >= 6)
		mode_hold(atoi(argv[4]), atol(argv[5]), !(argc >= 7 && strcmp(argv[6], "nosync") == 0));
	else if (strcmp(argv[3], "timeout") == 0 && argc >= 5 && atol(argv[4]) > 1500)
		mode_timeout(atol(argv[4]));
	else if (strcmp(argv[3], "flood") == 0 && argc >= 5)
		mode_flood(atol(argv[4]));
	else if (strcmp(argv[3], "tiny") == 0 && argc >= 5)
		mode_tiny(atol(argv[4]));
	else if (strcmp(argv[3], "anim") == 0 && argc >= 5)
		mode_anim(atol(argv[4]));
	else
		return 2;
	fclose(result);
	rename(tmp, argv[1]);
	for (;;)
		pause();
}
