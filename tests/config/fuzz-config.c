/* tests/config/fuzz-config.c: libFuzzer target for the configuration file parser (-Dfuzz=true, clang).
 * Input: the bytes of a configuration file. Checks that nothing crashes or leaks, and that whatever parsed
 * is written back by kf_config_write() as text that parses again without an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kf_config a, b;
	/* Warnings are expected for most inputs; keep them off the fuzzer's output. */
	kf_log_set_level(KF_LOG_ERR - 1);
	if (kf_config_init(&a) < 0)
		return 0;
	kf_config_parse_text(&a, "fuzz.conf", (const char *)data, size);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		kf_config_write(&a, f);
		fclose(f);
		if (kf_config_init(&b) == 0) {
			if (kf_config_parse_text(&b, "rewritten.conf", text, len) != 0)
				abort();
			kf_config_finish(&b);
		}
		free(text);
	}
	kf_config_finish(&a);
	return 0;
}
