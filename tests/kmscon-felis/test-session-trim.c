/* tests/kmscon-felis/test-session-trim.c: the heap's free pages given back after a burst of resizes (session.c
 * on_trim, kf_session_trim_soon). A resize to a new width reflows the whole scrollback into new lines and frees the old copy; without
 * the trim that copy stayed resident for good (a 10000-line history: megabytes per zoom or font reload). */
#include "kmscon-felis/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/loop.h"

#include "session-harness.h"

#ifdef __SANITIZE_ADDRESS__
#define ASAN_BUILD 1
#else
#define ASAN_BUILD 0
#endif

static long rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = atol(line + 6);
	fclose(f);
	return kb;
}

static void test_trim_after_resizes(void)
{
	/* 12000 lines of 64 characters: the 10000-line scrollback full, then a mark to wait for */
	const char *argv[] = {"sh", "-c",
			      "i=0; while [ $i -lt 12000 ]; do echo \"$i 0123456789abcdef0123456789abcdef0123456789abcdef\";"
			      " i=$((i + 1)); done; echo ALL-WRITTEN; exec sleep 60",
			      NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 73, .rows = 25,
					.scrollback = 10000};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	struct kf_session_stats st;
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	if (!s)
		return;
	for (int waited = 0; !strstr(screen(s), "ALL-WRITTEN") && waited < 50000; waited += 20)
		run_for(c.loop, 20);
	CHECK(strstr(screen(s), "ALL-WRITTEN") != NULL);

	/* A burst of zooms: every one reflows 10000 lines; none trims (the next one would fault the pages in again) */
	for (int i = 0; i < 4; i++)
		CHECK(kf_session_resize(s, i % 2 ? 73 : 102, i % 2 ? 25 : 40, 10, 20) == 0);
	CHECK(kf_session_resize(s, 102, 40, 10, 20) == 0);
	kf_session_stats(s, &st);
	CHECK(st.trims == 0);
	long before = rss_kb();
	/* The burst settled: one trim gives the freed copies back */
	for (int waited = 0; st.trims == 0 && waited < 20000; waited += 50) {
		run_for(c.loop, 50);
		kf_session_stats(s, &st);
	}
	long after = rss_kb();
	printf("after 5 resizes of a 10000-line history: RSS %ld kB, %ld kB after %llu trim(s)\n", before, after,
	       (unsigned long long)st.trims);
	CHECK(st.trims == 1);
	/* The dead copy is some 7 MB (10000 lines of 73 or 102 cells); the live one stays. glibc's heap only:
	 * ASan's allocator keeps freed blocks in quarantine and ignores malloc_trim (the build-asan run of the
	 * test command still checks the timer above and below). */
	if (!ASAN_BUILD)
		CHECK(after >= 0 && before - after >= 3000);
	else
		printf("(ASan build: the resident size is ASan's quarantine, not checked)\n");
	/* A resize to the same size reflows nothing and arms nothing */
	CHECK(kf_session_resize(s, 102, 40, 10, 20) == 0);
	run_for(c.loop, 1500);
	kf_session_stats(s, &st);
	CHECK(st.trims == 1);
	/* What a reload asks for (its keymap compile's garbage): one trim for a burst of calls */
	kf_session_trim_soon(s);
	kf_session_trim_soon(s);
	for (int waited = 0; st.trims == 1 && waited < 20000; waited += 50) {
		run_for(c.loop, 50);
		kf_session_stats(s, &st);
	}
	run_for(c.loop, 1500);
	kf_session_stats(s, &st);
	CHECK(st.trims == 2);
	kf_session_trim_soon(NULL);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_trim_after_resizes();
	return session_tests_end();
}
