/* tests/kf-capture.h: what the code between capture_begin() and capture_end() writes to stderr (the program's
 * log goes there), for tests that check what is logged: capture_end() puts stderr back and returns the text
 * (NUL-terminated, at most 16 KiB; valid until the next capture_end). One capture at a time. */
#ifndef KF_TESTS_CAPTURE_H
#define KF_TESTS_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

static char kf_captured[16384];
static int kf_capture_saved = -1;
static FILE *kf_capture_file;

static inline void capture_begin(void)
{
	fflush(stderr);
	kf_capture_file = tmpfile();
	kf_capture_saved = dup(2);
	dup2(fileno(kf_capture_file), 2);
}

static inline const char *capture_end(void)
{
	fflush(stderr);
	dup2(kf_capture_saved, 2);
	close(kf_capture_saved);
	rewind(kf_capture_file);
	size_t n = fread(kf_captured, 1, sizeof(kf_captured) - 1, kf_capture_file);
	kf_captured[n] = '\0';
	fclose(kf_capture_file);
	return kf_captured;
}

#endif
