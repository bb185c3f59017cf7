/* tests/config/test-config-enomem.c: the configuration parser under memory pressure. Its start-up and reload
 * paths (defaults, a file with string keys and a login command line, the command line, a SIGHUP reload and
 * its cancel) are run again and again with one allocation failing: the Nth only, and every one from the Nth
 * on, for every N (tests/kf-failalloc.h). Each call must give -ENOMEM or a configuration with every value it
 * asked for (a failure is never a default silently in force), leave cur as it was when a reload fails, and
 * leak nothing (LeakSanitizer, in the ASan build). KF_FAILALLOC_VERBOSE=1 names each N not ok.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kf-failalloc.h"
#include "kmscon-felis/config.h"

static int failures;

#include "../kf-check.h"

static char dir[] = "/tmp/kf-enomem-XXXXXX";
/* a value past the reload's 256-byte compare buffer (same_value's allocations), in every file written */
static char long_path[300];

static void write_conf(const char *text)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fprintf(f, "font-file=%s\n", long_path) < 0 || fclose(f) != 0) {
		printf("cannot write %s\n", path);
		exit(1);
	}
}

/* cfg as its file would be written (the values compared), not allocated through the wrappers */
static char *dump(const struct kf_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	kf_config_write(cfg, f);
	fclose(f);
	return buf;
}

static const char text[] = "font-name=\"DejaVu Sans Mono\"\nterm=vt220\nlogin=/bin/sh -c 'exec login -p'\n"
			   "xkb-layout=de\nxkb-variant=nodeadkeys\nissue-path=/etc/issue.kf\npalette=nord\n"
			   "font-name=Terminus\n";
static char *argv1[] = {"kmscon-felis", "--xkb-options=ctrl:nocaps", "--font-file=/usr/share/f.psf",
			"--login", "--", "/bin/bash", "-l", NULL};
static char *argv2[] = {"kmscon-felis", "--configdir", dir, "--silent", "--term=linux", NULL};

/* What each stage gives with memory to spare */
static char *want_text, *want_argv, *want_start, *want_reload;

/* A stage's result: 0 with the values wanted, or -ENOMEM when an allocation failed in it */
static void result(const char *stage, int ret, unsigned long failed, const struct kf_config *cfg, char **want)
{
	bool was_armed = fa_armed;
	fa_armed = false;
	if (ret == 0 || fa_failed == failed) {
		char *got = dump(cfg);
		if (!*want) {
			*want = got; /* (the run with memory to spare) */
		} else {
			CHECK(ret == 0, "%s: %d", stage, ret);
			CHECK(!strcmp(got, *want), "%s: 0 but the values differ:\n%s\n----- wanted:\n%s", stage, got,
			      *want);
			free(got);
		}
	} else {
		CHECK(ret == -ENOMEM, "%s: %d after an allocation failed", stage, ret);
	}
	fa_armed = was_armed;
}

static int run(void)
{
	const int fails = failures;
	struct kf_config c = {0}, cur = {0}, next = {0}; /* (next: a reload not reached) */
	char applied[128];
	fa_calls = fa_failed = 0;
	fa_armed = true;

	unsigned long f = fa_failed;
	int r = kf_config_init(&c);
	if (r == 0) {
		f = fa_failed;
		r = kf_config_parse_text(&c, "test.conf", text, sizeof(text) - 1);
		result("parse_text", r, f, &c, &want_text);
	}
	if (r == 0) {
		f = fa_failed;
		r = kf_config_parse_argv(&c, 7, argv1);
		result("parse_argv", r, f, &c, &want_argv);
	}
	kf_config_finish(&c);

	fa_armed = false;
	write_conf(text);
	fa_armed = true;
	f = fa_failed;
	r = kf_config_parse(&cur, 5, argv2);
	result("parse", r, f, &cur, &want_start);
	if (r == 0) {
		fa_armed = false;
		char *before = dump(&cur);
		write_conf("palette=solarized\nterm=xterm\nlogin=/bin/login\nbell=none\nfont-name=\"Go Mono\"\n");
		fa_armed = true;
		f = fa_failed;
		r = kf_config_reload(&cur, &next, 5, argv2, applied, sizeof(applied));
		result("reload", r, f, &next, &want_reload);
		fa_armed = false;
		if (r < 0) {
			char *after = dump(&cur);
			CHECK(!strcmp(before, after), "reload failed and changed cur");
			free(after);
		} else {
			/* the program cannot apply it (a font that does not open): cur as it was */
			kf_config_reload_cancel(&cur, &next);
			char *after = dump(&cur);
			CHECK(!strcmp(before, after), "reload cancelled and cur changed");
			free(after);
		}
		free(before);
	}
	fa_armed = false;
	kf_config_finish(&cur);
	kf_config_finish(&next);
	return failures - fails;
}

int main(void)
{
	memset(long_path, 'p', sizeof(long_path) - 1);
	long_path[0] = '/';
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	long bad = fa_sweep("the configuration", run);
	CHECK(bad == 0, "%ld runs not ok", bad);
	char path[64];
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	unlink(path);
	rmdir(dir);
	free(want_text);
	free(want_argv);
	free(want_start);
	free(want_reload);
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
