/* tests/input/test-keymap-file.c: --xkb-keymap with a hostile file. xkbcommon allocates every key up to the
 * highest keycode a keymap declares: 4294967294 made it abort() (its assertion in darray.h), the whole
 * program with it; 20000000 cost 1 GB and 9 s before the console had a keyboard. Each must give the 'us'
 * layout soon, with a warning naming the file, and leave no descriptor nor child behind; a good file and a
 * file with a syntax error behave as before. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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

/* Whether a thread of this process has a child now (/proc/self/task/TID/children). */
static bool have_child(void)
{
	char path[300], buf[64];
	bool found = false;
	DIR *d = opendir("/proc/self/task");
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", e->d_name);
		FILE *f = fopen(path, "re");
		found = f && fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9';
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

static void *load_thread(void *path)
{
	struct input_callbacks cb = {0};
	struct input_config cfg = {.keymap_file = path, .etc_default_keyboard = "/nonexistent",
				   .etc_vconsole = "/nonexistent", .no_environment = true, .locale = "C"};
	input_destroy(input_create(&cfg, &cb, NULL));
	return NULL;
}

/* The child that tries the file holds no descriptor of ours: a fork without exec kept copies of them all, a
 * console's PTY master among them, for as long as it ran (up to INPUT_KEYMAP_TRY_MS; for good when stuck
 * reading a dead NFS mount), and a login whose master we closed then saw its hang-up only when the child went.
 * The keymap is one the child compiles for seconds (keycode 20000000) until it is killed. */
static void test_child_holds_no_fd(const char *slow_keymap)
{
	const char *path = write_file(slow_keymap);
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	CHECK(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0, "a PTY");
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, load_thread, (void *)path) == 0, "a thread");
	double t0 = now_s();
	while (!have_child() && now_s() - t0 < 2)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	bool child = have_child();
	nanosleep(&(struct timespec){0, 200000000}, NULL); /* the child's start */
	close(master);
	t0 = now_s();
	struct pollfd pfd = {.fd = slave, .events = POLLIN};
	int r = poll(&pfd, 1, 5000);
	double hup = now_s() - t0;
	pthread_join(t, NULL);
	printf("keymap child: %s; the slave saw the master's close after %.2f s (%s)\n", child ? "seen" : "not seen",
	       hup, r > 0 && pfd.revents & POLLHUP ? "POLLHUP" : "no hang-up");
	CHECK(child, "the child trying the keymap was seen");
	CHECK(r > 0 && pfd.revents & POLLHUP && hup < 1.0, "hang-up after %.2f s", hup);
	close(slave);
	unlink(path);
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

	test_child_holds_no_fd(big_kc);

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
