/* tests/render/check.h: the failure counter and CHECK() of the renderer's unit tests (one counter per
 * test program). */
#ifndef KF_TEST_RENDER_CHECK_H
#define KF_TEST_RENDER_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* The end of a test program: its temporary directory (dir, when not NULL) removed, the count of failures
 * printed, and main's exit status. */
static inline int check_finish(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir ? dir : "");
	if (dir && system(cmd))
		printf("warning: could not remove %s\n", dir);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}

/* Makes the font out with the fontTools script script (tests/render/make-*-font.py); false, said as a SKIP,
 * when there is no python3 with fontTools (tools/install-deps.sh installs python3-fonttools). */
static inline bool make_test_font(const char *script, const char *out)
{
	char cmd[2048];
	/* Debian's python3 has fontTools; a python3 of one's own (pyenv) first on PATH may not */
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 '%s' '%s' 2>/dev/null || python3 '%s' '%s' 2>/dev/null",
		 script, out, script, out);
	if (!system(cmd))
		return true;
	printf("SKIP: no python3 with fontTools (tools/install-deps.sh installs python3-fonttools)\n");
	return false;
}

#endif
