/* input/keymap-async.c: a reload's keymap compiled on a worker thread, so that the event loop keeps reading keys
 * and the programs' output meanwhile.
 *
 * Compiling a layout by name held the loop 35-80 ms (xkb-data's rules and files read and compiled), a keymap file
 * up to the bounded child's time and a second compile here (seconds): tests/kmscon-felis/test-reload-stall.c. The
 * worker has an xkb context of its own (xkbcommon's are not thread-safe) and its copy of the configuration's
 * strings; its messages (ours and xkbcommon's) are kept in a buffer and logged by the loop's thread at
 * input_keymap_finish, with the file and line that made them, since the program's log handler is not
 * thread-safe. Everything that reads or changes struct input (the memo of keymap files, the comparison with the
 * keymap in use) stays on the loop's thread, and so does our reading of the environment (input_keymap_env_read,
 * in input_keymap_start).
 *
 * xkbcommon's context, made on the worker, reads the environment itself (getenv, secure_getenv: XKB_CONFIG_ROOT,
 * XKB_CONFIG_EXTRA_PATH, XKB_DEFAULT_*, XKB_LOG_*, XDG_CONFIG_HOME, HOME): safe, since no thread changes the
 * environment while a worker runs. The program changes its own only before the console exists (notify.c's
 * NOTIFY_SOCKET at start, seat.c's LIBSEAT_BACKEND while the seat opens, kf_console_create waiting for the VT at
 * the latest), and a reload meanwhile compiles on the loop (kf_console_keymap_start without a console); the
 * child's environment is built before its fork (pty/spawn.c). A setenv added later must keep to that.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "input/input-internal.h"

struct input_keymap_job {
	pthread_t thread;
	int fd; /* eventfd: readable once the worker is done */
	struct input_config cfg;
	char *strings[7]; /* cfg's model, layout, variant, options, keymap_file and /etc files: copies */
	struct input_keymap_env env; /* read on the loop's thread */
	struct input_keymap *km; /* from input_keymap_begin */
	/* the worker's results, read after pthread_join */
	struct xkb_keymap *compiled;
	char name[256];
	struct input_file_id file;
	int err;
	struct input_log_buf log;
};

static void *worker(void *arg)
{
	struct input_keymap_job *j = arg;
	uint64_t one = 1;

	input_log_capture(&j->log);
	j->err = -ENOMEM;
	struct xkb_context *ctx = input_keymap_context(&j->cfg);
	j->compiled = ctx ? input_load_keymap(ctx, &j->cfg, &j->env, j->name, true, &j->err, &j->file) : NULL;
	xkb_context_unref(ctx); /* the keymap holds its own reference */
	input_log_capture(NULL);
	/* an eventfd's counter cannot be full after one write, and no signal interrupts it (all blocked) */
	while (write(j->fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
	return NULL;
}

static void job_free(struct input_keymap_job *j)
{
	if (j->fd >= 0)
		close(j->fd);
	for (size_t i = 0; i < 7; i++)
		free(j->strings[i]);
	input_keymap_free(j->km);
	free(j);
}

static int copy(struct input_keymap_job *j, size_t i, const char *s, const char **to)
{
	if (!s)
		return 0;
	j->strings[i] = strdup(s);
	*to = j->strings[i];
	return j->strings[i] ? 0 : -ENOMEM;
}

int input_keymap_start(struct input *in, const struct input_config *cfg, struct input_keymap_job **job,
		       struct input_keymap **out)
{
	struct input_keymap_job *j;
	sigset_t all, saved;
	int r = input_keymap_begin(in, cfg, true, out);

	*job = NULL;
	if (r != 0)
		return r < 0 ? r : 1;
	j = calloc(1, sizeof(*j));
	if (!j) {
		input_keymap_free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	j->km = *out;
	*out = NULL;
	j->cfg = *cfg;
	j->cfg.compose_file = j->cfg.locale = NULL; /* not read by a keymap's compile */
	input_keymap_env_read(cfg, &j->env);
	j->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (j->fd < 0 || copy(j, 0, cfg->model, &j->cfg.model) < 0 || copy(j, 1, cfg->layout, &j->cfg.layout) < 0 ||
	    copy(j, 2, cfg->variant, &j->cfg.variant) < 0 || copy(j, 3, cfg->options, &j->cfg.options) < 0 ||
	    copy(j, 4, cfg->keymap_file, &j->cfg.keymap_file) < 0 ||
	    copy(j, 5, cfg->etc_default_keyboard, &j->cfg.etc_default_keyboard) < 0 ||
	    copy(j, 6, cfg->etc_vconsole, &j->cfg.etc_vconsole) < 0) {
		r = j->fd < 0 ? -errno : -ENOMEM;
		job_free(j);
		return r;
	}
	/* No signal for the worker: the loop takes them from a signalfd, which misses one a thread took. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	r = -pthread_create(&j->thread, NULL, worker, j);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r < 0) {
		job_free(j);
		return r;
	}
	*job = j;
	return 0;
}

int input_keymap_job_fd(const struct input_keymap_job *job)
{
	return job->fd;
}

int input_keymap_finish(struct input *in, struct input_keymap_job *j, struct input_keymap **out)
{
	pthread_join(j->thread, NULL);
	input_log_replay(&j->log);
	struct input_keymap *km = j->km;
	j->km = NULL;
	int r = input_keymap_end(in, km, j->compiled, j->name, &j->file, j->err, out);
	job_free(j);
	return r;
}
