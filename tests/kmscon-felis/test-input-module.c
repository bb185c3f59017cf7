/* tests/kmscon-felis/test-input-module.c: the input module loader (kmscon-felis/input-module.h) with the
 * built kmscon-felis-input.so: a missing module is an error, not a crash; the built one loads with every
 * symbol resolved (RTLD_NOW) and gives the glue's table; a second load returns the same table. A reload's
 * keymap before the module was first loaded (kf_console_keymap_prepare with no console, or none with its
 * input yet) is checked through it: a layout that does not compile is refused, not taken silently.
 * argv[1]: the built module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/console.h"
#include "kmscon-felis/input-module.h"
#include "tests/kf-check.h"

static int failures;

int main(int argc, char **argv)
{
	const struct kf_input_module *m = NULL, *m2 = NULL;

	if (argc < 2)
		return 2;
	setenv("KMSCON_FELIS_INPUT_MODULE", "/nonexistent/kmscon-felis-input.so", 1);
	CHECK(kf_input_module_load(&m) == -ENOENT && !m, "a missing module must be -ENOENT");
	/* Not a module: a shared object without the table. */
	setenv("KMSCON_FELIS_INPUT_MODULE", "libc.so.6", 1);
	CHECK(kf_input_module_load(&m) == -ENOENT && !m, "a library without the table must be -ENOENT");

	setenv("KMSCON_FELIS_INPUT_MODULE", argv[1], 1);
	CHECK(kf_input_module_load(&m) == 0 && m, "the built module %s must load", argv[1]);
	if (m) {
		CHECK(m->version == KF_INPUT_MODULE_VERSION, "version %u", (unsigned)m->version);
		CHECK(m->create && m->destroy && m->start && m->suspend && m->resume && m->set_geometry &&
		      m->output && m->keymap_prepare && m->keymap_done && m->keymap_start && m->keymap_cancel &&
		      m->config_changed,
		      "every entry of the table must be set");
	}
	setenv("KMSCON_FELIS_INPUT_MODULE", "/nonexistent/kmscon-felis-input.so", 1);
	CHECK(kf_input_module_load(&m2) == 0 && m2 == m, "a second load must return the same table");

	/* Before the keymap step of the start: no console yet (it waits for its VT), or no glue in it. */
	char us[] = "us", de[] = "de", broken[] = "no-such-layout";
	struct kf_config cur = {.xkb_layout = us, .xkb_repeat_rate = 50}, next = cur;
	next.xkb_layout = broken;
	CHECK(kf_console_keymap_prepare(NULL, &cur, &next) == -EINVAL, "a layout that does not compile is refused "
	      "before the input module's step");
	next.xkb_layout = de;
	CHECK(kf_console_keymap_prepare(NULL, &cur, &next) == 0, "de is taken");
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
