/* tests/config/fuzz-config.c: libFuzzer target for the configuration file parser (-Dfuzz=true, clang; run by
 * tests/fuzz/run). Input: the bytes of a configuration file. Checks that nothing crashes or leaks, and that
 * whatever parsed is written back by kf_config_write() as text that parses again without an error into a
 * configuration that writes the same text (the round trip kf_config_write promises). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* kf_config_write's text of c (the caller frees it), or NULL when memory ran out. */
static char *written(const struct kf_config *c, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		return NULL;
	kf_config_write(c, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kf_config a, b;
	/* Warnings are expected for most inputs; keep them off the fuzzer's output. */
	kf_log_set_level(KF_LOG_ERR - 1);
	if (kf_config_init(&a) < 0)
		return 0;
	kf_config_parse_text(&a, "fuzz.conf", (const char *)data, size);
	size_t len, len2;
	char *text = written(&a, &len);
	if (text && kf_config_init(&b) == 0) {
		if (kf_config_parse_text(&b, "rewritten.conf", text, len) != 0) {
			/* FUZZ_CONFIG_DEBUG=1: the written text, and the parser's errors about it */
			if (getenv("FUZZ_CONFIG_DEBUG")) {
				struct kf_config d;
				fwrite(text, 1, len, stderr);
				kf_log_set_level(KF_LOG_DEBUG);
				if (kf_config_init(&d) == 0) {
					kf_config_parse_text(&d, "rewritten.conf", text, len);
					kf_config_finish(&d);
				}
			}
			abort();
		}
		char *again = written(&b, &len2);
		if (again && (len2 != len || memcmp(again, text, len) != 0)) {
			if (getenv("FUZZ_CONFIG_DEBUG")) {
				fprintf(stderr, "written:\n");
				fwrite(text, 1, len, stderr);
				fprintf(stderr, "written again:\n");
				fwrite(again, 1, len2, stderr);
			}
			abort();
		}
		free(again);
		kf_config_finish(&b);
	}
	free(text);
	kf_config_finish(&a);
	return 0;
}
