/* kmscon-felis/input-module.h: the input glue (input-glue.h) as a module loaded after the first frame.
 *
 * libinput brings glib, gobject, libwacom, libgudev, libevdev and mtdev with it: 11 of the program's 31
 * libraries. Dynamic linking is paid before main(), on the path to the first frame, for nothing the first
 * frame needs (250-330 ms of it in the TCG guest). So input-glue.c and input/ are built into a shared module,
 * kmscon-felis-input.so, that the console loads with dlopen() once the first frame is on screen; the
 * program's own functions it calls (logging, the loop, the clipboard, grid/: 23 functions, listed by
 * tests/kmscon-felis/module-symbols.py) resolve to the program's copies (the program is linked with
 * --export-dynamic), so state such as the log level and the clipboard is shared. The module is built from
 * their headers only and carries no copy of them (a second copy of grid/'s globals was an ODR violation under
 * ASan); of vt/ it carries keys.c, the key encoder, which the program does not use and which has no globals.
 *
 * The module is looked for in $KMSCON_FELIS_INPUT_MODULE (a path), next to the executable (the build tree,
 * the VM guest), then in the installed module directory.
 */
#ifndef KF_INPUT_MODULE_H
#define KF_INPUT_MODULE_H

#include "kmscon-felis/input-glue.h"

#define KF_INPUT_MODULE_NAME "kmscon-felis-input.so"
/* The one symbol the module exports for the program: a struct kf_input_module. */
#define KF_INPUT_MODULE_SYMBOL "kf_input_module"
/* Bumped when struct kf_input_module or input-glue.h changes: a stale module is refused. */
#define KF_INPUT_MODULE_VERSION 7

/* input-glue.h's functions, through the module. */
struct kf_input_module {
	int version; /* KF_INPUT_MODULE_VERSION */
	int (*create)(struct kf_loop *loop, const struct kf_config *cfg, const struct kf_input_glue_ops *ops,
		      void *ud, struct kf_input_glue **out);
	void (*destroy)(struct kf_input_glue *g);
	int (*start)(struct kf_input_glue *g, const char *seat);
	void (*suspend)(struct kf_input_glue *g);
	void (*resume)(struct kf_input_glue *g);
	void (*set_geometry)(struct kf_input_glue *g, int width, int height, int cell_width, int cell_height);
	void (*output)(struct kf_input_glue *g);
	int (*keymap_prepare)(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
			      struct input_keymap **out);
	void (*keymap_done)(struct kf_input_glue *g, struct input_keymap *km, bool use);
	int (*keymap_start)(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
			    kf_keymap_ready_fn *done, void *ud, struct input_keymap **out);
	void (*keymap_cancel)(struct kf_input_glue *g);
	void (*config_changed)(struct kf_input_glue *g);
	void (*new_login)(struct kf_input_glue *g);
};

/* Loads the module (once; later calls return the same table). Returns 0 and *out (owned by the program until
 * it exits: the module is never unloaded), or -ENOENT with the reason logged. */
int kf_input_module_load(const struct kf_input_module **out);

#endif
