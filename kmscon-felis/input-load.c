/* kmscon-felis/input-load.c: finds and loads kmscon-felis-input.so (see input-module.h). */
#define LOG_TAG "console"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kf-config.h"
#include "kmscon-felis/input-module.h"
#include "kmscon-felis/log.h"

/* Where the module is looked for, in order; fills path. */
static int module_path(int which, char *path, size_t len)
{
	const char *env = getenv("KMSCON_FELIS_INPUT_MODULE");
	char exe[PATH_MAX];
	ssize_t n;

	switch (which) {
	case 0:
		return env && env[0] ? snprintf(path, len, "%s", env) : -1;
	case 1:
		if (env && env[0])
			return -1;
		/* Next to the executable: the build tree, and the VM guest's /usr/bin. */
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -1;
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = 0;
		snprintf(path, len, "%s/%s", exe, KF_INPUT_MODULE_NAME);
		return access(path, F_OK) == 0 ? 0 : -1;
	case 2:
		return env && env[0] ? -1 : snprintf(path, len, "%s/%s", KF_MODULEDIR, KF_INPUT_MODULE_NAME);
	}
	return -1;
}

int kf_input_module_load(const struct kf_input_module **out)
{
	static const struct kf_input_module *loaded;
	char path[PATH_MAX + 64];
	void *handle = NULL;

	if (loaded) {
		*out = loaded;
		return 0;
	}
	*out = NULL;
	for (int i = 0; i < 3 && !handle; i++) {
		if (module_path(i, path, sizeof(path)) < 0)
			continue;
		/* RTLD_NOW: a missing symbol is an error here, not a crash at the first key. */
		handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!handle) {
			log_err("cannot load the input module (keyboard and mouse): %s", dlerror());
			return -ENOENT;
		}
	}
	if (!handle) {
		log_err("no input module (keyboard and mouse): %s not found (KMSCON_FELIS_INPUT_MODULE, next to "
			"the executable, %s)", KF_INPUT_MODULE_NAME, KF_MODULEDIR);
		return -ENOENT;
	}
	const struct kf_input_module *m = dlsym(handle, KF_INPUT_MODULE_SYMBOL);
	if (!m || m->version != KF_INPUT_MODULE_VERSION) {
		log_err("%s: not an input module of this version (%s)", path,
			m ? "version mismatch" : "no " KF_INPUT_MODULE_SYMBOL);
		dlclose(handle);
		return -ENOENT;
	}
	log_debug("input module: %s", path);
	loaded = m;
	*out = m;
	return 0;
}
