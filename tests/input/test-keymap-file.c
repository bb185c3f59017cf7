/* tests/input/test-keymap-file.c: --xkb-keymap with a hostile file. xkbcommon allocates every key up to the
 * highest keycode a keymap declares: 4294967294 made it abort() (its assertion in darray.h), the whole
 * program with it; 20000000 cost 1 GB and 9 s before the console had a keyboard. Each must give the 'us'
 * layout soon, with a warning naming the file, and leave no descriptor nor child behind; a good file and a
 * file with a syntax error behave as before. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon.h>

#include "input/input.h"
#include "tests/kf-check.h"
#include "tests/kf-log-capture.h"

static int failures;

static int count_fds(void)
{
	char path[64];
	int n = 0;
	for (int fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += access(path, F_OK) == 0;
	}
	return n;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The us keymap as text with ESC's keycode (and the maximum) changed to kc, or unchanged for kc 0. */
static char *us_keymap(const char *kc)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names us = {.layout = "us"};
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, &us, 0);
	char *text = xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
	if (!text || !kc)
		return text;
	char *out = malloc(strlen(text) + 64);
	char *max = strstr(text, "maximum = "), *esc = strstr(text, "<ESC>");
	char *esc_num = esc ? strchr(esc, '=') : NULL;
	if (!out || !max || !esc_num || esc_num < max)
		abort();
	/* text up to "maximum = ", kc, the rest of that line; up to ESC's "= ", kc, the rest */
	char *max_end = strchr(max, ';'), *esc_end = strchr(esc_num, ';');
	sprintf(out, "%.*s%s%.*s= %s%s", (int)(max + 10 - text), text, kc, (int)(esc_num - max_end), max_end, kc,
		esc_end);
	free(text);
	return out;
}

static const char *write_file(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/kf-test-keymap-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return path;
}

/* Loads text as the keymap file; returns whether the file's keymap is in use, and how long it took. */
static bool load(const char *text, double *took)
{
	const char *path = write_file(text);
	struct input_callbacks cb = {0};
	struct input_config cfg = {.keymap_file = path, .etc_default_keyboard = "/nonexistent",
				   .etc_vconsole = "/nonexistent", .no_environment = true, .locale = "C"};
	logbuf[0] = 0;
	double t0 = now_s();
	struct input *in = input_create(&cfg, &cb, NULL);
	*took = now_s() - t0;
	CHECK(in, "a keyboard whatever the file");
	bool from_file = in && !strncmp(input_keymap_name(in), "file:", 5);
	CHECK(from_file || (in && !strcmp(input_keymap_name(in), "us")), "%s", in ? input_keymap_name(in) : "");
	CHECK(from_file || strstr(logbuf, path), "the warning names the file: %s", logbuf);
	input_destroy(in);
	unlink(path);
	return from_file;
}

int main(void)
{
	double took;
	int fds = count_fds();
	char *good = us_keymap(NULL), *abort_kc = us_keymap("4294967294"), *big_kc = us_keymap("20000000");

	input_set_log_handler(on_log);
	CHECK(load(good, &took), "the us keymap from a file loads (%s)", logbuf);
	printf("a good keymap file: %.2f s\n", took);

	CHECK(!load("xkb_keymap { nonsense };", &took), "a syntax error falls back to us");
	CHECK(strstr(logbuf, "syntax error"), "xkbcommon's reason is logged: %s", logbuf);

	CHECK(!load(abort_kc, &took), "keycode 4294967294 falls back to us");
	printf("keycode 4294967294: us after %.2f s; log:\n%s", took, logbuf);

	CHECK(!load(big_kc, &took), "keycode 20000000 falls back to us");
	printf("keycode 20000000: us after %.2f s; log:\n%s", took, logbuf);
	CHECK(took < 5.0, "keycode 20000000 took %.2f s", took);

	/* keycode 300000 (~15 MB) fits the child's bounds, and was then compiled again here, holding the loop as long
	 * again (seconds at a million), for a key no keyboard sends: input/ takes evdev codes up to 0xffff, xkb's
	 * 65543. Refused by the child's verdict; 65543 itself still loads. */
	char *mid_kc = us_keymap("300000"), *edge_kc = us_keymap("65543");
	CHECK(!load(mid_kc, &took), "keycode 300000 falls back to us");
	printf("keycode 300000: us after %.2f s; log:\n%s", took, logbuf);
	CHECK(strstr(logbuf, "65543"), "the warning gives the highest keycode taken: %s", logbuf);
	CHECK(load(edge_kc, &took), "keycode 65543 loads (%s)", logbuf);
	free(mid_kc);
	free(edge_kc);

	CHECK(count_fds() == fds, "%d descriptors, %d before", count_fds(), fds);
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "no child left");
	free(good);
	free(abort_kc);
	free(big_kc);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("all keymap file checks passed\n");
	return failures ? 1 : 0;
}
