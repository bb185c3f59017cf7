/* tests/input/test-compose-include.c: `include` lines of an xkb-compose-file with real xkbcommon: the 16 MiB
 * bound counts every file the compose file pulls in (as many times as it is read), an included FIFO or device is
 * refused, and an include loop stops with a message. Each refused file leaves the locale's table in use. */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/kf-alarm.h"
#include "tests/kf-check.h"
#include "input/input.h"

static int failures;
static char logbuf[16384];
static struct input_key_event last;

static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)prio, (void)file, (void)line;
	size_t n = strlen(logbuf);
	if (n + 2 >= sizeof(logbuf))
		return;
	vsnprintf(logbuf + n, sizeof(logbuf) - n - 1, fmt, ap);
	strcat(logbuf, "\n");
}

static void on_key(void *ctx, const struct input_key_event *ev)
{
	(void)ctx;
	last = *ev;
}

static void on_arm(void *ctx, uint64_t deadline)
{
	(void)ctx, (void)deadline;
}

static const struct input_callbacks cbs = {.key = on_key, .arm_timer = on_arm};
static char dir[64];

/* Writes dir/name: head, then filler comment lines up to size bytes, then tail. */
static const char *put(const char *name, const char *head, size_t size, const char *tail)
{
	static char paths[8][128];
	static int n;
	char *p = paths[n++ % 8];
	static const char fill[] = "# a filler line of a compose file, long enough to fill fast............\n";

	snprintf(p, 128, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		abort();
	size_t len = fputs(head, f) >= 0 ? strlen(head) : 0;
	for (; len + sizeof(fill) - 1 <= size; len += sizeof(fill) - 1)
		fputs(fill, f);
	fputs(tail, f);
	fclose(f);
	return p;
}

/* de's dead_acute then e, through a keyboard made with compose_file; returns the code point typed. */
static uint32_t acute_e(const char *compose_file, double *secs)
{
	struct input_config cfg = {.etc_default_keyboard = "/nonexistent", .etc_vconsole = "/nonexistent",
				   .no_environment = true, .locale = "en_US.UTF-8", .layout = "de",
				   .compose_file = compose_file};
	struct timespec a, b;

	logbuf[0] = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct input *in = input_create(&cfg, &cbs, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (secs)
		*secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	if (!in)
		return 0;
	input_inject_key(in, KEY_EQUAL, true, 1000);
	input_inject_key(in, KEY_EQUAL, false, 1001);
	input_inject_key(in, KEY_E, true, 1002);
	uint32_t cp = last.cp;
	input_inject_key(in, KEY_E, false, 1003);
	input_destroy(in);
	return cp;
}

static const char euro[] = "<dead_acute> <e> : \"\xe2\x82\xac\"\n";

int main(void)
{
	char line[600];
	double secs;

	kf_alarm(60);
	input_set_log_handler(on_log);
	snprintf(dir, sizeof(dir), "/tmp/kf-test-compose-XXXXXX");
	if (!mkdtemp(dir))
		abort();

	/* An include that fits: its sequences are in use, as xkbcommon reads them. */
	const char *small = put("small", euro, 0, "");
	snprintf(line, sizeof(line), "# top\ninclude \"%s\"\n<dead_grave> <e> : \"x\"\n", small);
	uint32_t cp = acute_e(put("top-small", line, 0, ""), NULL);
	CHECK(cp == 0x20ac, "a small included file: its sequence (U+%04X)", cp);

	/* A small top file that includes a 24 MiB one: it was compiled whole (the bound measured the top file
	 * only); now refused like a top file past 16 MiB, the log naming the included file. */
	const char *huge = put("huge", euro, 24u << 20, "");
	snprintf(line, sizeof(line), "include \"%s\" # the rest\n", huge);
	cp = acute_e(put("top-huge", line, 0, ""), &secs);
	CHECK(cp == 0xe9, "a 24 MiB include: the locale's dead_acute e (U+%04X, %.2f s)", cp, secs);
	CHECK(strstr(logbuf, "16 MiB") && strstr(logbuf, "huge"), "the log names the bound and the file: %s",
	      logbuf);
	printf("24 MiB include: %.2f s\n", secs);

	/* A chain of three 7 MiB files (top, a, b): 21 MiB read in all, each under the bound. */
	const char *b = put("b", euro, 7u << 20, "");
	snprintf(line, sizeof(line), "include \"%s\"\n", b);
	const char *a = put("a", line, 7u << 20, "");
	snprintf(line, sizeof(line), "  include  \"%s\"\n", a);
	cp = acute_e(put("top-chain", line, 7u << 20, ""), NULL);
	CHECK(cp == 0xe9, "a chain of 3 x 7 MiB: the locale's dead_acute e (U+%04X)", cp);
	CHECK(strstr(logbuf, "16 MiB"), "the chain: the log names the bound: %s", logbuf);

	/* A file that includes itself (twice): xkbcommon stops at its include depth; the log says a loop. */
	char self[128];
	snprintf(self, sizeof(self), "%s/self", dir);
	snprintf(line, sizeof(line), "%sinclude \"%s\"\ninclude \"%s\"\n", euro, self, self);
	cp = acute_e(put("self", line, 0, ""), NULL);
	CHECK(cp == 0xe9, "a file that includes itself: the locale's dead_acute e (U+%04X)", cp);
	CHECK(strstr(logbuf, "include loop"), "an include loop is named: %s", logbuf);

	/* A missing included file: xkbcommon refuses the whole file, as before. */
	snprintf(line, sizeof(line), "include \"%s/none\"\n%s", dir, euro);
	cp = acute_e(put("top-missing", line, 0, ""), NULL);
	CHECK(cp == 0xe9, "a missing include: the locale's (U+%04X)", cp);

	/* %% in a path is one '%'; a commented include is none. */
	const char *pct = put("p%c", euro, 0, "");
	(void)pct;
	snprintf(line, sizeof(line), "# include \"/nonexistent\"\ninclude \"%s/p%%%%c\"\n", dir);
	cp = acute_e(put("top-pct", line, 0, ""), NULL);
	CHECK(cp == 0x20ac, "include \"p%%%%c\" is the file p%%c (U+%04X)", cp);

	/* An included FIFO nobody writes: opening it waited for a writer for ever, the console with no keys. */
	char fifo[128];
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	snprintf(line, sizeof(line), "include \"%s\"\n%s", fifo, euro);
	cp = acute_e(put("top-fifo", line, 0, ""), &secs);
	CHECK(cp == 0xe9 && secs < 5, "an included FIFO: the locale's dead_acute e (U+%04X, %.2f s)", cp, secs);
	CHECK(strstr(logbuf, "not a file"), "an included FIFO: the log says so: %s", logbuf);

	/* %H is $HOME, as xkbcommon expands it; unset, the line is left to xkbcommon, which skips it. */
	setenv("HOME", dir, 1);
	cp = acute_e(put("top-home", "include \"%H/small\"\n", 0, ""), NULL);
	CHECK(cp == 0x20ac, "include \"%%H/small\": its sequence (U+%04X)", cp);
	unsetenv("HOME");
	cp = acute_e(put("top-nohome", "include \"%H/small\"\n", 0, ""), NULL);
	CHECK(cp != 0x20ac, "%%H with no HOME: the file is not read (U+%04X)", cp);

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	input_set_log_handler(NULL);
	printf("%s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
