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

int kf_input_glue_keymap_prepare(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
				 struct input_keymap **out)
{
	char changed[512] = "";
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
	if (!changed[0] && old->xkb_repeat_delay == next->xkb_repeat_delay &&
	    old->xkb_repeat_rate == next->xkb_repeat_rate)
		return 0;
	kf_input_config_of(next, &ic);
	int r = input_keymap_new(kf_input_glue_input(g), &ic, changed[0] != 0, out);
	if (r == -EINVAL)
		log_err("reload: %s: the keymap does not compile (the reason is above); the old one stays", changed);
	else if (r < 0)
		log_err("reload: %s: the keymap cannot be loaded (%s); the old one stays", changed, strerror(-r));
	return r;
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
