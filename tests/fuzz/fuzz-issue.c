/* tests/fuzz/fuzz-issue.c: libFuzzer target over the issue banner (kmscon-felis/issue.c, issue-expand.c):
 * the files of issue-path= and os-release read and their agetty escapes expanded.
 *
 * Why: /etc/issue, /etc/issue.d/ *.issue and os-release come from packages and admins' scripts, and their text
 * is expanded in the main loop before every login: an escape's argument ({...} cut at agetty's buffer sizes,
 * unterminated, empty), \S{NAME} over a hostile os-release, the text's cap, NUL bytes and a backslash at a
 * file's end must neither read past a buffer nor loop nor grow without bound.
 *
 * Input: up to three parts separated by the two bytes 0xff 0x00: the issue file, os-release (under the build's
 * root) and a file of an issue.d directory named after it on issue-path=. The first byte, when the input has a
 * separator, picks the text's cap (0: KF_ISSUE_MAX, else 1-255 times 8 bytes). The time is fixed; \b reads a
 * PTY's speed. Checked besides the sanitizers: the build succeeds, its text is within its cap and
 * NUL-terminated, and kf_issue_crlf makes every LF a CR LF and nothing else. */
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/issue.h"
#include "kmscon-felis/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char issue_path[128], osrel_path[128], dfile_path[128], path_list[300];
static int pty = -1;

static void put_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		abort();
	}
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void setup(void)
{
	strcpy(dir, "/tmp/fuzz-issue-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
	char d[128];
	snprintf(d, sizeof(d), "%s/etc", dir);
	mkdir(d, 0700);
	snprintf(d, sizeof(d), "%s/issue.d", dir);
	mkdir(d, 0700);
	snprintf(issue_path, sizeof(issue_path), "%s/issue", dir);
	snprintf(osrel_path, sizeof(osrel_path), "%s/etc/os-release", dir);
	snprintf(dfile_path, sizeof(dfile_path), "%s/issue.d/10-motd.issue", dir);
	snprintf(path_list, sizeof(path_list), "%s:%s/missing:%s", issue_path, dir, d);
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	/* only the messages of a real problem: every unreadable file is a notice otherwise */
	kf_log_set_level(KF_LOG_ERR);
}

/* The next part of the input up to the separator 0xff 0x00, or to its end. */
static size_t part(const uint8_t **p, size_t *n, const uint8_t **start)
{
	*start = *p;
	for (size_t i = 0; i + 1 < *n; i++) {
		if ((*p)[i] == 0xff && (*p)[i + 1] == 0x00) {
			*p += i + 2;
			*n -= i + 2;
			return i;
		}
	}
	const size_t all = *n;
	*p += all;
	*n = 0;
	return all;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	size_t max = 0;
	if (size && memchr(data, 0xff, size)) {
		max = (size_t)data[0] * 8;
		data++;
		size--;
	}
	const uint8_t *s;
	size_t n = part(&data, &size, &s);
	put_file(issue_path, s, n);
	n = part(&data, &size, &s);
	put_file(osrel_path, s, n);
	n = part(&data, &size, &s);
	put_file(dfile_path, s, n);

	const struct kf_issue_opts o = {
		.path = path_list,
		.root = dir,
		.tty = "tty7",
		.tty_fd = pty,
		.now = 1700000000,
		.max = max,
	};
	char *text = NULL;
	size_t len = 0;
	if (kf_issue_build(&o, &text, &len) != 0) {
		fprintf(stderr, "kf_issue_build failed\n");
		abort();
	}
	if (len > (max ? max : KF_ISSUE_MAX) || (text && text[len]) || (!text && len)) {
		fprintf(stderr, "issue text of %zu bytes (cap %zu)\n", len, max ? max : (size_t)KF_ISSUE_MAX);
		abort();
	}
	if (text) {
		size_t crlf_len;
		char *crlf = kf_issue_crlf(text, len, &crlf_len);
		if (!crlf)
			abort();
		size_t j = 0;
		for (size_t i = 0; i < len; i++) {
			if (text[i] == '\n' && (j >= crlf_len || crlf[j++] != '\r'))
				abort();
			if (j >= crlf_len || crlf[j++] != text[i])
				abort();
		}
		if (j != crlf_len || crlf[j])
			abort();
		free(crlf);
	}
	free(text);
	return 0;
}
