/* tests/kf-check-plain.h: kf-check.h's assertion without a message of its own (the condition is the
 * message), for the tests of the event loop, the session, the PTY and the DRM logic, which print what they
 * compare themselves. Counts a failure and lets the test go on. Each test file defines "static int
 * failures;" and returns failures ? 1 : 0. Not with kf-check.h in one file: both define CHECK. */
#ifndef KF_TESTS_CHECK_PLAIN_H
#define KF_TESTS_CHECK_PLAIN_H

#include <stdio.h>

#define CHECK(cond)                                                                               \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                               \
		}                                                                                 \
	} while (0)

#endif
