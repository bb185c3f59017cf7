/* tests/kmscon-felis/test-issue-session.c: the issue banner in a session (session.c show_issue) with a real child:
 * what a banner's escape sequences may and may not do. The banner is text for the user, not a conversation with
 * the terminal: the answers to its queries never reach the child as typed input, while the answers to the
 * child's own queries and the keys typed after it still do. */
#include "kmscon-felis/session.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/loop.h"

#include "session-harness.h"

/* Writes the banner file and returns its path (static). */
static const char *banner_file(const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/banner", tmpdir);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	return path;
}

/* A child that asks DSR (CSI 5 n) itself, then hands the test, in hex, every byte it read up to a 'Z' typed by
 * the test after a key: the reply to its own query and the key, and nothing of the banner's. */
static void test_banner_queries_unanswered(void)
{
	char got_path[256], script[1200], got[4096];
	snprintf(got_path, sizeof(got_path), "%s/got", tmpdir);
	snprintf(script, sizeof(script),
		 "stty raw -echo; printf '\\033[5n'; echo READY; IFS= read -r -d Z x; "
		 "printf %%s \"$x\" | od -An -tx1 | tr -d ' \\n' > %s.part; mv %s.part %s; exec sleep 60",
		 got_path, got_path, got_path);
	const char *argv[] = {"bash", "-c", script, NULL};
	/* DA1, CPR, DECRQSS SGR, XTVERSION, an OSC 11 colour query, DECRQM, a kitty flags query */
	const char *banner = banner_file("BANNER\\e[c\\e[6n\\eP$qm\\e\\\\\\e[>q\\e]11;?\a\\e[?2004$p\\e[?u\n");
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 6, .issue = true,
					.issue_path = banner};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	for (int i = 0; i < 500 && !strstr(screen(s), "READY"); i++)
		run_for(c.loop, 10);
	CHECK(strstr(screen(s), "BANNER") && strstr(screen(s), "READY"));
	CHECK(kf_session_write(s, "kZ", 2) == 0);
	CHECK(run_until_file(c.loop, got_path, 3000));
	read_text(got_path, got, sizeof(got));
	/* ESC [ 0 n (the child's DSR answered), then the key */
	printf("bytes the child read after a banner of 7 queries, in hex: %s (%zu bytes; want 1b5b306e6b, 5)\n", got,
	       strlen(got) / 2);
	CHECK(!strcmp(got, "1b5b306e6b"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

static int clip_writes;

static void on_clipboard_count(void *ud, const char *targets, const uint8_t *data, size_t len)
{
	clip_writes++;
}

/* The modes that decide what keys, clicks and pastes send, or whether frames are shown, differ from a grid's
 * power-on state: prints each difference, returns how many. */
static int modes_differ(const struct grid_modes *m, const struct grid_modes *p, const char *what)
{
	int n = 0;
#define DIFF(f)                                                                              \
	if (m->f != p->f) {                                                                  \
		printf("%s: " #f " is %d, %d at power-on\n", what, (int)m->f, (int)p->f);  \
		n++;                                                                         \
	}
	DIFF(keys.cursor_keys_app) DIFF(keys.keypad_app) DIFF(keys.newline_mode) DIFF(keys.backspace_sends_bs)
	DIFF(keys.alt_sends_escape) DIFF(keys.modify_other_keys) DIFF(keys.kitty_flags) DIFF(mouse)
	DIFF(mouse_encoding) DIFF(alternate_scroll) DIFF(bracketed_paste) DIFF(focus_events) DIFF(synchronized)
#undef DIFF
	return n;
}

/* A banner that turns on every mode that changes what the login reads (cursor and keypad keys, LNM, DECBKM,
 * modifyOtherKeys, kitty flags, mouse reporting, focus reports, bracketed paste, alternate scroll), holds frames,
 * hides the cursor, selects the DEC graphics set, writes the clipboard (OSC 52) and ends inside an OSC string.
 * After it: those modes as at power-on, the clipboard untouched, "login: " readable; what it shows is kept
 * (reverse video, its colour). Once on the normal screen, once ending on the alternate screen with kitty flags
 * pushed on both (the normal screen's are found when the child leaves the alternate screen). */
static void test_banner_modes_reset(void)
{
	static const char *const banners[] = {
		"BANNER\\e[?5h\\e[31m\\e[?1h\\e=\\e[20h\\e[?67h\\e[>4;2m\\e[>1u\\e[?1002h\\e[?1006h\\e[?1004h"
		"\\e[?1007h\\e[?2004h\\e[?2026h\\e[?25l\\e[?1036l\\e(0\\e]52;c;aGVsbG8=\a\n\\e]0;open",
		"BANNER\\e[>5u\\e[?1049h\\e[>3uALT\\e[?1000h\n",
	};
	for (int b = 0; b < 2; b++) {
		char script[300];
		/* the second child leaves the alternate screen, as a program that ends does */
		snprintf(script, sizeof(script), "%sprintf 'login: '; exec sleep 60", b ? "printf '\\033[?1049l'; " : "");
		const char *argv[] = {"sh", "-c", script, NULL};
		struct ctx c = {.loop = kf_loop_create()};
		clip_writes = 0;
		struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 6, .issue = true,
						.issue_path = banner_file(banners[b])};
		struct kf_session_callbacks cb = {.clipboard = on_clipboard_count};
		struct kf_session *s = NULL;
		CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
		for (int i = 0; i < 500 && !strstr(screen(s), "login:"); i++)
			run_for(c.loop, 10);
		printf("banner %d, then the child:\n%s", b, screen(s));
		CHECK(strstr(screen(s), "login:"));
		struct grid *g = kf_session_grid(s);
		struct grid *fresh = grid_create(&(struct grid_config){.cols = 40, .rows = 6}, NULL, NULL);
		struct grid_modes m, p;
		struct grid_cursor cur;
		grid_get_modes(g, &m);
		grid_get_modes(fresh, &p);
		grid_get_cursor(g, &cur);
		char what[32];
		snprintf(what, sizeof(what), "banner %d", b);
		int n = modes_differ(&m, &p, what);
		printf("banner %d: %d modes left as the banner set them, %d clipboard writes, cursor %s\n", b, n,
		       clip_writes, cur.visible ? "shown" : "hidden");
		CHECK(n == 0 && clip_writes == 0 && cur.visible && !m.alt_screen);
		/* what it shows stays */
		CHECK(b || m.reverse_video);
		grid_destroy(fresh);
		kf_session_destroy(s);
		kf_loop_destroy(c.loop);
	}
}

/* A banner that ends with a single shift pending into DEC graphics (SS2 with G2 designated), with insert mode
 * (IRM) or with autowrap off: the login's first character is its own, its output replaces what it overwrites,
 * and its long lines wrap, as readline and getty expect of a terminal. The child prints 'qq login: ', then a Z
 * over the second q, then a line longer than the screen. */
static void test_banner_print_state(void)
{
	static const char *const banners[] = {"BANNER\n\\e*0\\eN", "BANNER\n\\e[4h", "BANNER\n\\e[?7l",
					      "BANNER\n\\e+0\\eO\\e[4h\\e[?7l"};
	const char *argv[] = {"sh", "-c",
			      "printf 'qq login: \033[2GZ\r\n0123456789012345678901234567890123456789wrapped'; "
			      "exec sleep 60",
			      NULL};
	for (int b = 0; b < 4; b++) {
		struct ctx c = {.loop = kf_loop_create()};
		struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 6, .issue = true,
						.issue_path = banner_file(banners[b])};
		struct kf_session *s = NULL;
		CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
		for (int i = 0; i < 300 && !strstr(screen(s), "pped"); i++)
			run_for(c.loop, 10);
		bool ok = strstr(screen(s), "\nqZ login:") && strstr(screen(s), "\nwrapped");
		printf("banner %d (%s), then the child:\n%s", b, b == 0 ? "SS2" : b == 1 ? "IRM" : b == 2 ? "DECAWM off" : "all",
		       screen(s));
		CHECK(ok);
		if (!ok)
			printf("FAIL: banner %d left its print state to the login\n", b);
		kf_session_destroy(s);
		kf_loop_destroy(c.loop);
	}
}

/* A banner of 3000 OSC 52 writes and 3000 DA queries (64 KiB): one line in the log for the writes, not one
 * per write, and the child still starts. */
static void test_banner_log_bounded(void)
{
	static char text[70000];
	char log[256], got[8192];
	size_t n = 0;
	for (int i = 0; i < 3000; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\\e]52;c;eA==\a\\e[c");
	snprintf(log, sizeof(log), "%s/stderr-banner", tmpdir);
	const char *argv[] = {"sh", "-c", "printf 'login: '; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 6, .issue = true,
					.issue_path = banner_file(text)};
	struct kf_session_callbacks cb = {.clipboard = on_clipboard_count};
	struct kf_session *s = NULL;
	clip_writes = 0;
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	CHECK(kf_session_create(c.loop, &cfg, &cb, &c, &s) == 0);
	for (int i = 0; i < 500 && !strstr(screen(s), "login:"); i++)
		run_for(c.loop, 10);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	read_text(log, got, sizeof(got));
	int lines = count_lines(log);
	printf("a banner of 3000 OSC 52 writes and 3000 queries: %d log lines (want 1), %d clipboard writes:\n%s",
	       lines, clip_writes, got);
	CHECK(lines == 1 && strstr(got, "3000 OSC 52") && clip_writes == 0);
	CHECK(strstr(screen(s), "login:"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_banner_queries_unanswered();
	test_banner_modes_reset();
	test_banner_log_bounded();
	test_banner_print_state();
	return session_tests_end();
}
