/* tests/input/test-keymap-async.c: a reload's keymap compiled on input/'s worker thread (keymap-async.c), with
 * real xkbcommon and xkb-data, looked at from the loop's side.
 *
 * - Where its messages say they come from: the worker's messages are kept and logged by the loop's thread at
 *   input_keymap_finish, and each one named input.c:45 (the replay's own input_log) instead of the line that
 *   made it. The same refusal compiled on the loop's thread (input_keymap_new) gives the place to expect.
 * - getenv off the loop's thread: input_load_keymap read XKB_DEFAULT_* on the worker, where a setenv of the
 *   loop's thread at the same time is undefined behaviour. This file's getenv and secure_getenv stand in for
 *   libc's (they read environ the same way) and count the calls that come from this executable's code (input/
 *   is linked in statically) on another thread than main's; libxkbcommon's own calls (its context reads
 *   XKB_* and HOME) come from its shared object and are not counted. The environment's layout still names the
 *   keymap it gave.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <poll.h>

#include "input/input.h"
#include "tests/kf-check.h"

static int failures;

extern char **environ;
extern char __executable_start, etext; /* this executable's code, from the GNU linker */

static pthread_t main_thread;
static int off_main;	      /* our code's getenv calls on another thread (written by the worker, read after join) */
static char off_main_name[64]; /* the first of them */

static char *lookup(const char *name, void *caller)
{
	uintptr_t at = (uintptr_t)caller;
	if (!pthread_equal(pthread_self(), main_thread) && at >= (uintptr_t)&__executable_start &&
	    at < (uintptr_t)&etext && !off_main++)
		snprintf(off_main_name, sizeof(off_main_name), "%s", name);
	size_t n = strlen(name);
	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

char *getenv(const char *name)
{
	return lookup(name, __builtin_return_address(0));
}

char *secure_getenv(const char *name)
{
	return lookup(name, __builtin_return_address(0));
}

struct logged {
	char text[512];
	char file[128];
	int line;
};
static struct logged logged[32];
static int n_logged;

static void on_log(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)prio;
	if (n_logged >= 32)
		return;
	struct logged *l = &logged[n_logged++];
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	const char *base = strrchr(file, '/');
	snprintf(l->file, sizeof(l->file), "%s", base ? base + 1 : file);
	l->line = line;
}

/* The first message holding what since message from on. */
static const struct logged *find(int from, const char *what)
{
	for (int i = from; i < n_logged; i++)
		if (strstr(logged[i].text, what))
			return &logged[i];
	return NULL;
}

/* input_keymap_start and, once its fd is readable, input_keymap_finish: its result and *out. */
static int compile_async(struct input *in, const struct input_config *cfg, struct input_keymap **out)
{
	struct input_keymap_job *job = NULL;
	int r = input_keymap_start(in, cfg, &job, out);
	if (r != 0 || !job)
		return r;
	/* (the worker's compile takes milliseconds; a hang is the meson timeout's) */
	struct pollfd p = {.fd = input_keymap_job_fd(job), .events = POLLIN};
	while (poll(&p, 1, -1) < 0)
		;
	return input_keymap_finish(in, job, out);
}

static const struct input_callbacks cbs = {0};

int main(void)
{
	main_thread = pthread_self();
	input_set_log_handler(on_log);
	struct input_config base = {.layout = "us", .etc_default_keyboard = "/nonexistent",
				    .etc_vconsole = "/nonexistent", .no_environment = true, .locale = "C"};
	struct input *in = input_create(&base, &cbs, NULL);
	if (!in) {
		fprintf(stderr, "SKIP: no us keymap (xkb-data missing)\n");
		return 77;
	}

	/* A keymap file that cannot be opened: refused with a warning, on the loop's thread and on the worker. */
	struct input_config missing = base;
	missing.keymap_file = "/nonexistent/kf-async.xkb";
	struct input_keymap *km = NULL;
	int from = n_logged;
	int r = input_keymap_new(in, &missing, true, &km);
	const struct logged *sync = find(from, "cannot open keymap file");
	CHECK(r < 0 && !km, "input_keymap_new of a missing file: %d", r);
	CHECK(sync && !strcmp(sync->file, "keymap-load.c"), "on the loop: %s:%d", sync ? sync->file : "-",
	      sync ? sync->line : 0);
	from = n_logged;
	r = compile_async(in, &missing, &km);
	const struct logged *async = find(from, "cannot open keymap file");
	CHECK(r < 0 && !km, "the worker's compile of a missing file: %d", r);
	CHECK(async && sync && !strcmp(async->file, sync->file) && async->line == sync->line,
	      "the worker's message says %s:%d, made at %s:%d ('%s')", async ? async->file : "-",
	      async ? async->line : 0, sync ? sync->file : "-", sync ? sync->line : 0, async ? async->text : "");
	CHECK(async && !strcmp(async->text, sync ? sync->text : ""), "the text changed: '%s'",
	      async ? async->text : "");
	input_keymap_free(km);

	/* Names from the environment (no layout given, no /etc file): read on the loop's thread. */
	setenv("XKB_DEFAULT_LAYOUT", "de", 1);
	struct input_config env = base;
	env.layout = NULL;
	env.no_environment = false;
	km = NULL;
	off_main = 0;
	r = compile_async(in, &env, &km);
	CHECK(r == 0 && km, "the environment's keymap: %d", r);
	CHECK(off_main == 0, "%d getenv calls of input/ on the worker thread, the first for %s", off_main,
	      off_main_name);
	if (km) {
		input_keymap_use(in, km);
		CHECK(!strcmp(input_keymap_name(in), "de"), "the keymap from XKB_DEFAULT_LAYOUT=de is named '%s'",
		      input_keymap_name(in));
	}
	unsetenv("XKB_DEFAULT_LAYOUT");

	input_destroy(in);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
