/* tests/kmscon-felis/test-input-module.c: the input module loader (kmscon-felis/input-module.h) with the
 * built kmscon-felis-input.so: a missing module is an error, not a crash; the built one loads with every
 * symbol resolved (RTLD_NOW) and gives the glue's table; a second load returns the same table.
 * argv[1]: the built module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "kmscon-felis/input-module.h"

static int failures;
#define CHECK(cond)                                                                                        \
	do {                                                                                               \
		if (!(cond)) {                                                                             \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                             \
			failures++;                                                                        \
		}                                                                                          \
	} while (0)

int main(int argc, char **argv)
{
	const struct kf_input_module *m = NULL, *m2 = NULL;

	if (argc < 2)
		return 2;
	setenv("KMSCON_FELIS_INPUT_MODULE", "/nonexistent/kmscon-felis-input.so", 1);
	CHECK(kf_input_module_load(&m) == -ENOENT && !m);
	/* Not a module: a shared object without the table. */
	setenv("KMSCON_FELIS_INPUT_MODULE", "libc.so.6", 1);
	CHECK(kf_input_module_load(&m) == -ENOENT && !m);

	setenv("KMSCON_FELIS_INPUT_MODULE", argv[1], 1);
	CHECK(kf_input_module_load(&m) == 0 && m);
	if (m) {
		CHECK(m->version == KF_INPUT_MODULE_VERSION);
		CHECK(m->create && m->destroy && m->start && m->suspend && m->resume && m->set_geometry &&
		      m->output);
	}
	setenv("KMSCON_FELIS_INPUT_MODULE", "/nonexistent/kmscon-felis-input.so", 1);
	CHECK(kf_input_module_load(&m2) == 0 && m2 == m);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
