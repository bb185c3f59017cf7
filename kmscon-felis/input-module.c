/* kmscon-felis/input-module.c: the table kmscon-felis-input.so exports (see input-module.h). Built into the
 * module only. */
#include "kmscon-felis/input-module.h"

/* The loader looks this up by name: it must stay visible. */
extern const struct kf_input_module kf_input_module;
const struct kf_input_module kf_input_module = {
	.version = KF_INPUT_MODULE_VERSION,
	.create = kf_input_glue_create,
	.destroy = kf_input_glue_destroy,
	.start = kf_input_glue_start,
	.suspend = kf_input_glue_suspend,
	.resume = kf_input_glue_resume,
	.set_geometry = kf_input_glue_set_geometry,
	.output = kf_input_glue_output,
	.keymap_prepare = kf_input_glue_keymap_prepare,
	.keymap_done = kf_input_glue_keymap_done,
	.keymap_start = kf_input_glue_keymap_start,
	.keymap_cancel = kf_input_glue_keymap_cancel,
	.config_changed = kf_input_glue_config_changed,
	.new_login = kf_input_glue_new_login,
};
