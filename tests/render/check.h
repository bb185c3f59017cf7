/* tests/render/check.h: the failure counter and CHECK() of the renderer's unit tests (one counter per
 * test program). */
#ifndef KF_TEST_RENDER_CHECK_H
#define KF_TEST_RENDER_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#endif
