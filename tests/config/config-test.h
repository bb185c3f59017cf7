/* tests/config/config-test.h: what test-config.c and test-config-options.c share: CHECK, which prints to
 * stdout (a check made while stderr is captured must still show), and the check of a bad configuration
 * file. Included after kf-capture.h and the file's "static int failures;". */
#ifndef KF_TESTS_CONFIG_TEST_H
#define KF_TESTS_CONFIG_TEST_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kmscon-felis/config.h"

#define CHECK(cond, ...)                                                                                   \
	do {                                                                                               \
		if (!(cond)) {                                                                             \
			fprintf(stdout, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
			fprintf(stdout, __VA_ARGS__);                                                      \
			fputc('\n', stdout);                                                               \
			failures++;                                                                        \
		}                                                                                          \
	} while (0)

/* A bad file: parse returns -EINVAL and the log names the file, the line and contains the expected form. */
static void bad_n(const char *text, size_t len, unsigned int line, const char *expect)
{
	struct kf_config c;
	char where[64];
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "test.conf", text, len);
	const char *log = capture_end();
	snprintf(where, sizeof(where), "test.conf:%u:", line);
	CHECK(ret == -EINVAL, "'%s' is an error (ret %d)", text, ret);
	CHECK(strstr(log, where) != NULL, "'%s': log names %s: %s", text, where, log);
	CHECK(strstr(log, expect) != NULL, "'%s': log says '%s': %s", text, expect, log);
	kf_config_finish(&c);
}

static void bad(const char *text, unsigned int line, const char *expect)
{
	bad_n(text, strlen(text), line, expect);
}

#endif
