/* kmscon-felis/input-keymap.c: the configuration's keyboard keys for input/, at start and on a reload
 * (input-glue.h). Built into the input module with the glue. */
#define LOG_TAG "input"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "input/input.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-glue.h"
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

int kf_input_glue_keymap_prepare(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
				 struct input_keymap **out)
{
	char changed[512] = "", from[320];
	size_t len = 0;
	struct input_config ic;

	*out = NULL;
	for (size_t i = 0; i < sizeof(keymap_keys) / sizeof(keymap_keys[0]); i++) {
		if (!strcmp(key_value(old, i), key_value(next, i)))
			continue;
		/* "xkb-layout=de, xkb-variant=nodeadkeys" for the error; a value cut at 200 bytes */
		int n = snprintf(changed + len, sizeof(changed) - len, "%s%s=%.200s", len ? ", " : "",
				 keymap_keys[i].name, key_value(next, i));
		len = n > 0 && (size_t)n < sizeof(changed) - len ? len + (size_t)n : strlen(changed);
	}
	bool repeat = old->xkb_repeat_delay != next->xkb_repeat_delay || old->xkb_repeat_rate != next->xkb_repeat_rate;
	struct input *in = g ? kf_input_glue_input(g) : NULL;
	/* Compiled on every reload, also with no key changed: the keymap file, /etc/default/keyboard (or
	 * vconsole.conf) may have been edited in place, which is why `systemctl reload` was run. Input/ keeps it
	 * only when it differs from the one in use. */
	kf_input_config_of(next, &ic);
	int r = input_keymap_new(in, &ic, true, out);
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
		r = input_keymap_new(in, &ic, false, out);
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
