/* tests/kf-check.h: the one assertion macro of the unit tests: counts a failure, prints where and why, and
 * lets the test go on so one run shows every broken case. Each test file defines "static int failures;"
 * and returns failures ? 1 : 0. */
#ifndef KF_TESTS_CHECK_H
#define KF_TESTS_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                                                   \
	do {                                                                                               \
		if (!(cond)) {                                                                             \
			failures++;                                                                        \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                   \
			fprintf(stderr, __VA_ARGS__);                                                      \
			fputc('\n', stderr);                                                               \
		}                                                                                          \
	} while (0)

#endif
