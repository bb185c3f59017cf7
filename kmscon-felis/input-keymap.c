/* kmscon-felis/input-keymap.c: the configuration's keyboard keys for input/, at start and on a reload
 * (input-glue.h). Built into the input module with the glue. */
#define LOG_TAG "input"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "input/input.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-glue-internal.h"
#include "kmscon-felis/log.h"

void kf_input_config_of(const struct kf_config *cfg, struct input_config *ic)
{
	*ic = (struct input_config){
		.model = cfg->xkb_model, .layout = cfg->xkb_layout, .variant = cfg->xkb_variant,
		.options = cfg->xkb_options, .keymap_file = cfg->xkb_keymap,
		.compose_file = cfg->xkb_compose_file,
		/* A delay of 0 is no repeat, as in kmscon (a zero timer is a disarmed one); input/ reads 0 as
		 * "its default". */
		.repeat_delay_ms = cfg->xkb_repeat_delay ? cfg->xkb_repeat_delay : UINT32_MAX,
		.repeat_interval_ms = cfg->xkb_repeat_rate,
	};
}

/* The keys that make the keymap, as the configuration names them. */
static const struct {
	const char *name;
	size_t off;
} keymap_keys[] = {
	{"xkb-model", offsetof(struct kf_config, xkb_model)},
	{"xkb-layout", offsetof(struct kf_config, xkb_layout)},
	{"xkb-variant", offsetof(struct kf_config, xkb_variant)},
	{"xkb-options", offsetof(struct kf_config, xkb_options)},
	{"xkb-keymap", offsetof(struct kf_config, xkb_keymap)},
};

static const char *key_value(const struct kf_config *cfg, size_t i)
{
	const char *v = *(char *const *)((const char *)cfg + keymap_keys[i].off);
	return v ? v : "";
}

/* Where cfg's keymap comes from, for a message: its file, its names, or what input/ reads without them. */
static const char *source(const struct kf_config *cfg, char *buf, size_t cap)
{
	if (cfg->xkb_keymap && *cfg->xkb_keymap)
		snprintf(buf, cap, "xkb-keymap=%.300s", cfg->xkb_keymap);
	else if (*key_value(cfg, 0) || *key_value(cfg, 1) || *key_value(cfg, 2) || *key_value(cfg, 3))
		snprintf(buf, cap, "xkb-layout=%.200s", key_value(cfg, 1));
	else
		snprintf(buf, cap, "XKB_DEFAULT_*, /etc/default/keyboard or /etc/vconsole.conf");
	return buf;
}

/* The keymap keys next changes from old into changed ("xkb-layout=de, xkb-variant=nodeadkeys" for the error; a
 * value cut at 200 bytes; "" none); returns whether the repeat changes. */
static bool keys_changed(const struct kf_config *old, const struct kf_config *next, char changed[512])
{
	size_t len = 0;

	changed[0] = 0;
	for (size_t i = 0; i < sizeof(keymap_keys) / sizeof(keymap_keys[0]); i++) {
		if (!strcmp(key_value(old, i), key_value(next, i)))
			continue;
		int n = snprintf(changed + len, 512 - len, "%s%s=%.200s", len ? ", " : "", keymap_keys[i].name,
				 key_value(next, i));
		len = n > 0 && (size_t)n < 512 - len ? len + (size_t)n : strlen(changed);
	}
	return old->xkb_repeat_delay != next->xkb_repeat_delay || old->xkb_repeat_rate != next->xkb_repeat_rate;
}

/* What input_keymap_new (or its worker) returned, r and *out, made prepare's result. */
static int settle(struct kf_input_glue *g, const struct kf_config *next, const char *changed, bool repeat, int r,
		  struct input_keymap **out)
{
	char from[320];
	struct input_config ic;

	if (r < 0 && changed[0]) {
		if (r == -EINVAL)
			log_err("reload: %s: the keymap does not compile (the reason is above); the old one stays",
				changed);
		else
			log_err("reload: %s: the keymap cannot be loaded (%s); the old one stays", changed,
				strerror(-r));
		return r;
	}
	if (r < 0) {
		/* No key changed: what they point to broke (or was broken at start, where "us" was taken). The
		 * rest of the reload still applies. */
		log_err("reload: the keymap (%s) %s%s%s; the one in use stays", source(next, from, sizeof(from)),
			r == -EINVAL ? "does not compile (the reason is above" : "cannot be loaded (",
			r == -EINVAL ? "" : strerror(-r), ")");
		kf_input_config_of(next, &ic);
		r = input_keymap_new(g ? kf_input_glue_input(g) : NULL, &ic, false, out);
		if (r < 0)
			return r;
	} else if (g && !changed[0] && input_keymap_changes(*out)) {
		log_notice("reload: the keymap changed (%s)", source(next, from, sizeof(from)));
	}
	if (!g || (!changed[0] && !repeat && !input_keymap_changes(*out))) {
		input_keymap_free(*out);
		*out = NULL;
	}
	return 0;
}

int kf_input_glue_keymap_prepare(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
				 struct input_keymap **out)
{
	char changed[512];
	struct input_config ic;
	bool repeat = keys_changed(old, next, changed);

	*out = NULL;
	/* Compiled on every reload, also with no key changed: the keymap file, /etc/default/keyboard (or
	 * vconsole.conf) may have been edited in place, which is why `systemctl reload` was run. Input/ keeps it
	 * only when it differs from the one in use. */
	kf_input_config_of(next, &ic);
	int r = input_keymap_new(g ? kf_input_glue_input(g) : NULL, &ic, true, out);
	return settle(g, next, changed, repeat, r, out);
}

/* The worker is done: the job's result through settle, to the caller's done. */
static void keymap_ready(void *ud, int fd, uint32_t events)
{
	struct kf_input_glue *g = ud;
	struct kf_glue_keymap_job j = g->keymap;
	struct input_keymap *km = NULL;

	(void)fd;
	(void)events;
	kf_source_remove(j.src);
	g->keymap = (struct kf_glue_keymap_job){0};
	int r = input_keymap_finish(kf_input_glue_input(g), j.job, &km);
	r = settle(g, j.next, j.changed, j.repeat, r, &km);
	j.done(j.ud, r, r < 0 ? NULL : km);
}

int kf_input_glue_keymap_start(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
			       kf_keymap_ready_fn *done, void *ud, struct input_keymap **out)
{
	struct kf_glue_keymap_job *j = &g->keymap;
	struct input_config ic;

	*out = NULL;
	if (j->job)
		return -EBUSY;
	j->repeat = keys_changed(old, next, j->changed);
	kf_input_config_of(next, &ic);
	int r = input_keymap_start(kf_input_glue_input(g), &ic, &j->job, out);
	if (r != 0)
		return settle(g, next, j->changed, j->repeat, r < 0 ? r : 0, out);
	j->src = kf_loop_add_fd(g->loop, input_keymap_job_fd(j->job), EPOLLIN, KF_PRIO_INPUT, keymap_ready, g);
	if (!j->src) {
		/* no way to hear from the worker: its result is waited for here, as before the worker */
		struct kf_glue_keymap_job was = *j;
		*j = (struct kf_glue_keymap_job){0};
		r = input_keymap_finish(kf_input_glue_input(g), was.job, out);
		return settle(g, next, was.changed, was.repeat, r, out);
	}
	j->next = next;
	j->done = done;
	j->ud = ud;
	return 1;
}

void kf_input_glue_keymap_cancel(struct kf_input_glue *g)
{
	struct input_keymap *km = NULL;

	if (!g || !g->keymap.job)
		return;
	kf_source_remove(g->keymap.src);
	input_keymap_finish(kf_input_glue_input(g), g->keymap.job, &km);
	input_keymap_free(km);
	g->keymap = (struct kf_glue_keymap_job){0};
}

void kf_input_glue_keymap_done(struct kf_input_glue *g, struct input_keymap *km, bool use)
{
	if (!km)
		return;
	if (!use) {
		input_keymap_free(km);
		return;
	}
	input_keymap_use(kf_input_glue_input(g), km);
	log_notice("keymap %s", input_keymap_name(kf_input_glue_input(g)));
}
