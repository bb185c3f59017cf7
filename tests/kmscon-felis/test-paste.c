/* tests/kmscon-felis/test-paste.c: what the console sends to a real child through the session: pastes
 * (bracketed, refused past the write queue's bound with a notice that leaves the program's screen state alone,
 * streamed, the largest clipboard, filtered of the end marker, newlines as CR, controls), focus reports, and what
 * a child that exits leaves unread (logged). */
#include "kmscon-felis/session.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/clipboard.h"

#include "session-harness.h"

/* A session running argv (not copied: it must outlive the session), with a write queue of queue bytes (0: the
 * default), once the child has turned bracketed paste on. */
static struct kf_session *bracketed_child(struct ctx *c, const char *const *argv, size_t queue)
{
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 100, .rows = 10,
					.write_queue_max = queue};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c->loop, &cfg, &cb, c, &s) == 0);
	struct grid_modes m = {0};
	for (int i = 0; s && i < 50; i++) {
		run_for(c->loop, 50);
		grid_get_modes(kf_session_grid(s), &m);
		if (m.bracketed_paste)
			break;
	}
	CHECK(m.bracketed_paste);
	return s;
}

static void test_oneshot_and_paste(void)
{
	/* A child that reads nothing (after the first bytes typed): a paste bigger than the queue waits for it
	 * (test_paste_streamed), but one more than a clipboard's worth beyond what it has read is refused whole, with
	 * a notice. */
	char got[256], script[1024];
	snprintf(got, sizeof(got), "%s/pasted", tmpdir);
	snprintf(script, sizeof(script),
		 "stty raw -echo; printf '\\033[?2004h'; head -c 42 > %s.part; mv %s.part %s; exec sleep 60", got, got,
		 got);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 64u << 10);
	/* End marks inside a bracketed paste, even one that their removal would form from the bytes around it
	 * ("\033[20" + "1~"), end nothing: their ESCs go as spaces (kf_session_paste_filter, which would take
	 * them out, is tested alone below): the child reads one bracketed paste, then the typed z's. */
	CHECK(kf_session_paste(s, "ab\033[201~12\033[20\033[201~1~", 22) == 0);
	CHECK(kf_session_write(s, "zzzzzzzz", 8) == 0);
	CHECK(run_until_file(c.loop, got, 10000));
	char buf[64];
	read_text(got, buf, sizeof(buf));
	CHECK(!strcmp(buf, "\033[200~ab [201~12 [20 [201~1~\033[201~zzzzzzzz"));
	char *big = calloc(1, KF_CLIPBOARD_MAX);
	CHECK(big != NULL);
	if (big) {
		memset(big, 'p', KF_CLIPBOARD_MAX);
		CHECK(kf_session_paste(s, big, KF_CLIPBOARD_MAX) == 0);
		CHECK(kf_session_paste(s, big, 300000) == -ENOBUFS);
		/* Fits: accepted whole. */
		CHECK(kf_session_paste(s, big, 1000) == 0);
		/* Keys are refused once the queue and what waits behind it are full, never block. */
		int r = 0;
		for (int i = 0; i < 200 && r == 0; i++)
			r = kf_session_write(s, big, 4096);
		CHECK(r == -ENOBUFS);
		CHECK(kf_session_write_room(s) < 4096);
	}
	free(big);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* The largest clipboard (a selection is cut to KF_CLIPBOARD_MAX) pastes whole into the default write queue,
 * bracketed paste marks and all: the cap was the queue's size, so with the marks it could never fit, and the
 * paste was refused with "paste of 4194304 bytes refused: only 4194304 bytes fit". */
static void test_paste_largest_clipboard(void)
{
	const char *argv[] = {"sh", "-c", "printf '\\033[?2004h'; exec sleep 60", NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 0);
	char *big = malloc(KF_CLIPBOARD_MAX);
	CHECK(big != NULL);
	if (big) {
		/* bytes of no character grow threefold (U+FFFD): the bound holds for what is sent, not what came */
		memset(big, 0xff, KF_CLIPBOARD_MAX);
		CHECK(kf_session_paste(s, big, KF_CLIPBOARD_MAX) == -ENOBUFS);
		CHECK(kf_session_write_pending(s) == 0);
		memset(big, 'q', KF_CLIPBOARD_MAX);
		int r = kf_session_paste(s, big, KF_CLIPBOARD_MAX);
		CHECK(r == 0);
		if (r)
			printf("largest clipboard paste: %d, screen: %s\n", r, screen(s));
		/* A length whose sum with the two marks wraps: refused, nothing read past the text (the bound was
		 * checked on the wrapped sum, 6 here, and the text copied into a 7-byte block). */
		CHECK(kf_session_paste(s, big, SIZE_MAX - 5) == -ENOBUFS);
	}
	free(big);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A paste bigger than the write queue (write-queue-size, 64 KiB here) is written out as the child reads it, in
 * order, the keys typed after it after it: it was refused whole ("paste of 300000 bytes refused: only 65536 bytes
 * fit"), though it was well within a clipboard's size. */
static void test_paste_streamed(void)
{
	enum { N = 300000, WANT = 6 + N + 6 + 2 };
	char got[64], script[512];
	snprintf(got, sizeof(got), "%s/streamed", tmpdir);
	snprintf(script, sizeof(script), "stty raw -echo; printf '\\033[?2004h'; head -c %d > %s.part; mv %s.part %s;"
		 " exec sleep 60", WANT, got, got, got);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 64u << 10);
	char *text = malloc(N), *buf = malloc(WANT + 1);
	for (int i = 0; i < N; i++)
		text[i] = (char)('a' + i % 26);
	int r = kf_session_paste(s, text, N);
	if (r)
		printf("a paste of %d bytes into a 64 KiB queue: %d, screen: %s\n", N, r, screen(s));
	CHECK(r == 0);
	CHECK(kf_session_write(s, "zz", 2) == 0);
	struct stat st;
	for (int i = 0; i < 100 && stat(got, &st) < 0; i++)
		run_for(c.loop, 50);
	read_text(got, buf, WANT + 1);
	CHECK(strlen(buf) == WANT && !memcmp(buf, "\033[200~", 6) && !memcmp(buf + 6, text, N) &&
	      !memcmp(buf + 6 + N, "\033[201~zz", 8));
	free(text);
	free(buf);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* kf_session_paste_filter over every string of up to 9 bytes from the end mark's bytes and one other (8^9 would
 * be too many: a random sample of 200,000, plus each length's all-mark and nested cases): the output never holds
 * an end mark, filtering it again changes nothing, and a string without a mark comes out as it went in. */
static bool has_mark(const uint8_t *p, size_t n)
{
	return memmem(p, n, "\033[201~", 6) != NULL;
}

static void test_paste_filter(void)
{
	static const uint8_t alpha[] = {0x1b, '[', '2', '0', '1', '~', 'x'};
	uint8_t in[64], out[64], again[64];
	uint32_t rng = 12345;
	int bad = 0;
	for (int k = 0; k < 200000; k++) {
		size_t len = 0;
		rng = rng * 1103515245u + 12345u;
		const size_t want = (rng >> 16) % 40;
		while (len < want) {
			rng = rng * 1103515245u + 12345u;
			/* mostly whole marks and parts of them, so that nesting is common */
			if ((rng >> 16) % 4 == 0 && len + 6 <= want) {
				memcpy(in + len, "\033[201~", 6);
				len += 6;
			} else {
				in[len++] = alpha[(rng >> 16) % sizeof(alpha)];
			}
		}
		const size_t n = kf_session_paste_filter(out, in, len);
		const size_t n2 = kf_session_paste_filter(again, out, n);
		bad += n > len || has_mark(out, n) || n2 != n || memcmp(again, out, n) != 0 ||
		       (!has_mark(in, len) && (n != len || memcmp(out, in, len) != 0));
	}
	CHECK(bad == 0);
	const uint8_t nested[] = "a\033[2\033[20\033[201~1~01~b";
	size_t n = kf_session_paste_filter(out, nested, sizeof(nested) - 1);
	CHECK(n == 2 && out[0] == 'a' && out[1] == 'b');
	/* in place */
	memcpy(in, "x\033[201~y", 8);
	CHECK(kf_session_paste_filter(in, in, 8) == 2 && in[0] == 'x' && in[1] == 'y');
}

/* A session whose child, in raw mode without echo and without bracketed paste, writes to path the first n bytes it
 * reads (stty first: in cooked mode the line discipline would turn "\r" back into "\n"), whole: path exists once
 * they are all there (run_until_file). argv is static. */
static struct kf_session *raw_reader(struct ctx *c, const char *path, int n)
{
	static char script[512];
	static const char *argv[] = {"sh", "-c", script, NULL};
	snprintf(script, sizeof(script), "stty raw -echo; printf RAW; head -c %d > %s.part; mv %s.part %s; exec sleep 60",
		 n, path, path, path);
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 80, .rows = 10};
	struct kf_session_callbacks cb = {.exited = on_exited};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(c->loop, &cfg, &cb, c, &s) == 0);
	for (int i = 0; s && i < 100 && !strstr(screen(s), "RAW"); i++)
		run_for(c->loop, 50);
	CHECK(s && strstr(screen(s), "RAW"));
	return s;
}

/* Without brackets a paste's line ends reach the child as Enter sends them: "\n" and "\r\n" as "\r", a lone
 * "\r" as it is; in place too. Then through a real PTY, to a child in raw mode that did not ask for brackets. */
static void test_paste_newlines(void)
{
	uint8_t out[32], in[32];
	const char *t = "a\nb\r\nc\rd\n\ne\r\r\n";
	size_t n = kf_session_paste_newlines(out, (const uint8_t *)t, strlen(t));
	CHECK(n == 12 && !memcmp(out, "a\rb\rc\rd\r\re\r\r", 12));
	memcpy(in, t, strlen(t));
	n = kf_session_paste_newlines(in, in, strlen(t));
	CHECK(n == 12 && !memcmp(in, "a\rb\rc\rd\r\re\r\r", 12));

	char got[256];
	snprintf(got, sizeof(got), "%s/pasted-nl", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 8);
	CHECK(kf_session_paste(s, "l1\nl2\r\nl3", 10) == 0);
	CHECK(run_until_file(c.loop, got, 10000));
	char buf[64];
	read_text(got, buf, sizeof(buf));
	CHECK(!strcmp(buf, "l1\rl2\rl3"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A pasted control character is sent as a space, as xterm sends the ones of its disallowedPasteControls default
 * (BS, DEL, ENQ, EOT, ESC, NUL and the line discipline's special characters, "STTY"), bracketed or not: a pasted
 * ESC would begin a key's sequence and a ^C interrupt the program as if typed. TAB and the line ends are the text's
 * own; other controls (^A) pass, as in xterm. In a bracketed paste the ESC of an end mark goes too, so the text
 * cannot end the paste. */
static void test_paste_controls(void)
{
	char got[256], script[1024], buf[64];
	snprintf(got, sizeof(got), "%s/pasted-ctl", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 16);
	CHECK(kf_session_paste(s, "a\003b\033[Ac\177\000d\te\001\010\032\n", 16) == 0);
	CHECK(run_until_file(c.loop, got, 10000));
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "a b [Ac  d\te\001  \r"))
		printf("unbracketed paste of controls reached the child as \"%s\"\n", buf);
	CHECK(!strcmp(buf, "a b [Ac  d\te\001  \r"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);

	/* the special characters are the terminal's, read when pasting: with the interrupt moved to q, a ^C is no
	 * key to fear and passes, and q, no control, is text as ever */
	snprintf(script, sizeof(script),
		 "stty raw -echo intr q; printf '\\033[?2004h'; head -c 22 > %s.part; mv %s.part %s; exec sleep 60", got,
		 got, got);
	unlink(got); /* the first child's */
	const char *argv2[] = {"sh", "-c", script, NULL};
	c = (struct ctx){.loop = kf_loop_create()};
	s = bracketed_child(&c, argv2, 0);
	CHECK(kf_session_paste(s, "x\033[201~\003yq", 10) == 0);
	CHECK(run_until_file(c.loop, got, 10000));
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "\033[200~x [201~\003yq\033[201~")) {
		printf("bracketed paste of controls reached the child as:");
		for (char *q = buf; *q; q++)
			printf(" %02x", (unsigned char)*q);
		printf("\n");
	}
	CHECK(!strcmp(buf, "\033[200~x [201~\003yq\033[201~"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* Waits for the reader's file at path and checks that it holds want, printing what it holds otherwise (what: the
 * paste's name). */
static void check_received(struct ctx *c, const char *path, const char *want, const char *what)
{
	char buf[128];
	CHECK(run_until_file(c->loop, path, 10000));
	read_text(path, buf, sizeof(buf));
	if (strcmp(buf, want)) {
		printf("%s reached the child as:", what);
		for (char *q = buf; *q; q++)
			printf(" %02x", (unsigned char)*q);
		printf("\n");
	}
	CHECK(!strcmp(buf, want));
}

/* raw_reader's child, once it has turned bracketed paste on. */
static struct kf_session *bracketed_reader(struct ctx *c, const char *path, int n)
{
	static char script[1024];
	static const char *argv[] = {"sh", "-c", script, NULL};
	snprintf(script, sizeof(script),
		 "stty raw -echo; printf '\\033[?2004h'; head -c %d > %s.part; mv %s.part %s; exec sleep 60", n, path,
		 path, path);
	return bracketed_child(c, argv, 0);
}

/* C1 controls are controls in a paste too: a raw byte 0x80..0x9F that no UTF-8 character holds (0x9B is the 8-bit
 * CSI, and "0x9B 201~" the 8-bit form of the end mark that a child parsing 8-bit controls takes for one) and a C1
 * code point written in UTF-8 (U+0080..U+009F) reach the child as one space each; the same bytes inside a
 * character (0x82 in the euro sign, 0xA9 in e acute) are text. */
static void test_paste_c1(void)
{
	static const char in[] = "a\x9b" "201~b\xc3\xa9\xe2\x82\xac\xc2\x9b\x85\xc3x\n";
	static const char want[] = "a 201~b\xc3\xa9\xe2\x82\xac  \xef\xbf\xbdx\r";
	static const char bwant[] = "\033[200~x 201~y \033[201~";
	char got[256];
	snprintf(got, sizeof(got), "%s/pasted-c1", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, (int)sizeof(want) - 1);
	CHECK(kf_session_paste(s, in, sizeof(in) - 1) == 0);
	check_received(&c, got, want, "a paste of C1 controls");
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
	unlink(got);

	/* inside brackets the 8-bit end mark stays text: the brackets hold the whole paste */
	c = (struct ctx){.loop = kf_loop_create()};
	s = bracketed_reader(&c, got, (int)sizeof(bwant) - 1);
	CHECK(kf_session_paste(s, "x\x9b" "201~y\xc2\x9b", 9) == 0);
	check_received(&c, got, bwant, "a bracketed paste of C1 controls");
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* Bytes of no UTF-8 character reach the child as U+FFFD, one per maximal subpart as vt/parser.c decodes output: a
 * lone byte from 0xA0 up, a lead byte cut short (by text, by the paste's end), an overlong form, a surrogate, a
 * byte that never starts a character; a lone 0x80..0x9F stays a C1 control's space (above), as after F4, which
 * ends at 0x90 (above U+10FFFF). They came raw before, and the child's decoder took them with what followed.
 * Inside brackets too, the end mark right after the cut character. After the paste come plain keys, so that the
 * reader always has its bytes to compare. */
static void test_paste_invalid_utf8(void)
{
#define R "\xef\xbf\xbd"
	static const char in[] = "A\xff" "B\xa9" "C\xe2\x82" "D\xc0\xaf" "E\xed\xa0\xbf" "F\xf4\x90\x80" "G\xf0\x9f\x98";
	static const char want[] = "A" R "B" R "C" R "D" R R "E" R R R "F" R "  G" R;
	static const char bwant[] = "\033[200~x" R "\033[201~";
#undef R
	static const char pad[] = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";
	char got[256];
	snprintf(got, sizeof(got), "%s/pasted-invalid", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, (int)sizeof(want) - 1);
	CHECK(kf_session_paste(s, in, sizeof(in) - 1) == 0);
	CHECK(kf_session_write(s, pad, sizeof(pad) - 1) == 0);
	check_received(&c, got, want, "a paste of invalid UTF-8");
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
	unlink(got);

	c = (struct ctx){.loop = kf_loop_create()};
	s = bracketed_reader(&c, got, (int)sizeof(bwant) - 1);
	CHECK(kf_session_paste(s, "x\xe2", 2) == 0);
	CHECK(kf_session_write(s, pad, sizeof(pad) - 1) == 0);
	check_received(&c, got, bwant, "a bracketed paste of invalid UTF-8");
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
	unlink(got);
}

/* Focus reports (DECSET 1004): a console's focus is its VT in front, so leaving it (the seat disabled) sends CSI O
 * and coming back CSI I, only while the child asked for them and only on a change. */
static void test_focus_reports(void)
{
	char got[256], buf[64];
	snprintf(got, sizeof(got), "%s/focus", tmpdir);
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = raw_reader(&c, got, 8);
	kf_session_set_focus(s, false); /* not asked for: nothing */
	kf_session_set_focus(s, true);
	grid_feed(kf_session_grid(s), (const uint8_t *)"\033[?1004h", 8);
	kf_session_set_focus(s, false);
	kf_session_set_focus(s, false); /* no change */
	kf_session_set_focus(s, true);
	CHECK(kf_session_write(s, "zz", 2) == 0);
	CHECK(run_until_file(c.loop, got, 10000));
	read_text(got, buf, sizeof(buf));
	if (strcmp(buf, "\033[O\033[Izz"))
		printf("focus changes reached the child as \"%s\"\n", buf + (buf[0] == '\033'));
	CHECK(!strcmp(buf, "\033[O\033[Izz"));
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* A child that exits with a paste and keys it never read still queued: they go nowhere (no program is left to
 * read them, and the next login must not get them), and the log says how many bytes were lost, as it does for
 * refused keys and replies; they vanished without a word. */
static void test_exit_unread_logged(void)
{
	char log[256], text[4096], go[256], cmd[512];
	snprintf(log, sizeof(log), "%s/stderr-exit", tmpdir);
	snprintf(go, sizeof(go), "%s/go-exit", tmpdir);
	snprintf(cmd, sizeof(cmd), "stty raw -echo; printf '\\033[?2004h'; while [ ! -e %s ]; do sleep 0.02; done; exit 0",
		 go);
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session *s = bracketed_child(&c, argv, 64u << 10);
	static char text_in[200000];
	memset(text_in, 'u', sizeof(text_in));
	CHECK(kf_session_paste(s, text_in, sizeof(text_in)) == 0 && kf_session_write(s, "typed", 5) == 0);
	const size_t pending = kf_session_write_pending(s);
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	FILE *f = fopen(go, "w");
	if (f)
		fclose(f);
	for (int i = 0; i < 500 && !c.exited; i++)
		run_for(c.loop, 10);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	read_text(log, text, sizeof(text));
	/* The count is what was still queued at the exit: the kernel can make room for a few KiB more meanwhile
	 * (its flush worker moves bytes on to the line discipline), so it is at most what was queued here. */
	const char *at = strstr(text, "the program exited with ");
	const unsigned long dropped = at ? strtoul(at + strlen("the program exited with "), NULL, 10) : 0;
	printf("exit with %zu bytes queued: exited %d, %zu pending after, %lu counted as dropped; log: %s", pending,
	       c.exited, kf_session_write_pending(s), dropped, text);
	CHECK(c.exited && pending > 0 && kf_session_write_pending(s) == 0);
	CHECK(at && strstr(at, " bytes for it still in the write queue: dropped") && dropped > 0 && dropped <= pending);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

/* What a refusal tells the user while a program runs is shown over the screen (the notice callback: the output
 * draws it, kf_render_set_notice), never fed to the program's grid: the notice used to be written there with a
 * line break and SGR 7/27, which moved the program's cursor (scrolling at the bottom), turned its reverse video
 * off, and vanished into a string the program had left open. Here the program puts its cursor at row 3, column
 * 10 with reverse video on and an OSC 0 open, the paste is refused, then the program ends its title and writes
 * "X": the X lands where the program put it, in reverse video, and the title is the program's alone. */
struct notices {
	int n;
	char last[256];
	char title[256];
};

static void on_notice(void *ud, const char *text)
{
	struct notices *nt = ud;
	nt->n++;
	snprintf(nt->last, sizeof(nt->last), "%s", text);
}

static void on_title(void *ud, const char *utf8)
{
	struct notices *nt = ud;
	snprintf(nt->title, sizeof(nt->title), "%s", utf8);
}

struct notice_ctx {
	struct ctx c; /* first: the harness's callbacks take it as their ud */
	struct notices nt;
};

static void notice_on_exited(void *ud, int code)
{
	on_exited(&((struct notice_ctx *)ud)->c, code);
}

static void notice_on_notice(void *ud, const char *text)
{
	on_notice(&((struct notice_ctx *)ud)->nt, text);
}

static void notice_on_title(void *ud, const char *utf8)
{
	on_title(&((struct notice_ctx *)ud)->nt, utf8);
}

static void test_refusal_leaves_program_state(void)
{
	char go[256], script[1024];
	snprintf(go, sizeof(go), "%s/go-notice", tmpdir);
	snprintf(script, sizeof(script),
		 "stty raw -echo; printf '\\033[?2004h\\033[4;11H\\033[7m\\033]0;mine'; "
		 "while [ ! -e %s ]; do sleep 0.02; done; printf '\\007X'; exec sleep 60", go);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct notice_ctx nc = {.c = {.loop = kf_loop_create()}};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 100, .rows = 10,
					.write_queue_max = 64u << 10};
	struct kf_session_callbacks cb = {.exited = notice_on_exited, .notice = notice_on_notice,
					  .title = notice_on_title};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(nc.c.loop, &cfg, &cb, &nc, &s) == 0);
	struct grid_cursor cur = {0};
	for (int i = 0; s && i < 100 && !(cur.x == 10 && cur.y == 3); i++) {
		run_for(nc.c.loop, 50);
		grid_get_cursor(kf_session_grid(s), &cur);
	}
	CHECK(cur.x == 10 && cur.y == 3);
	char *big = calloc(1, KF_CLIPBOARD_MAX);
	CHECK(big != NULL);
	if (s && big) {
		memset(big, 'p', KF_CLIPBOARD_MAX);
		CHECK(kf_session_paste(s, big, KF_CLIPBOARD_MAX) == 0);
		CHECK(kf_session_paste(s, big, 300000) == -ENOBUFS);
		CHECK(nc.nt.n == 1 && strstr(nc.nt.last, "paste of 300000 bytes refused"));
		grid_get_cursor(kf_session_grid(s), &cur);
		printf("after the refusal: cursor y=%d x=%d, notices %d: \"%s\"\n", cur.y, cur.x, nc.nt.n, nc.nt.last);
		CHECK(cur.x == 10 && cur.y == 3);
		/* the program's next output ends its OSC and writes X */
		FILE *f = fopen(go, "w");
		if (f)
			fclose(f);
		const struct grid_cell *row = NULL;
		int xy = -1;
		for (int i = 0; i < 200 && xy < 0; i++) {
			run_for(nc.c.loop, 20);
			for (int y = 0; y < 10 && xy < 0; y++) {
				row = grid_row(kf_session_grid(s), y);
				for (int x = 0; x < 100 && xy < 0; x++)
					if (row[x].cp == 'X')
						xy = y * 100 + x;
			}
		}
		const struct grid_style *st = xy >= 0 ? grid_style(kf_session_grid(s), row[xy % 100].style) : NULL;
		printf("the program's X: y=%d x=%d reverse=%d; title \"%s\"; screen has the notice: %d\n",
		       xy < 0 ? -1 : xy / 100, xy < 0 ? -1 : xy % 100, st && (st->attrs & GRID_ATTR_REVERSE),
		       nc.nt.title, strstr(screen(s), "refused") != NULL);
		CHECK(xy == 3 * 100 + 10);
		CHECK(st && (st->attrs & GRID_ATTR_REVERSE));
		CHECK(!strcmp(nc.nt.title, "mine"));
		CHECK(!strstr(screen(s), "refused"));
		/* Keys refused by the full queue: one notice for the burst, as one log line. */
		int r = 0, refused = 0;
		for (int i = 0; i < 400; i++) {
			r = kf_session_write(s, big, 4096);
			refused += r == -ENOBUFS;
		}
		printf("keys: %d writes refused, %d notices in all: \"%s\"\n", refused, nc.nt.n, nc.nt.last);
		CHECK(refused > 1 && nc.nt.n == 2 && strstr(nc.nt.last, "dropping keys"));
	}
	free(big);
	kf_session_destroy(s);
	kf_loop_destroy(nc.c.loop);
}

/* Between a child's exit and the next one (the back-off after a quick exit, up to 10 s), a paste has nowhere to go:
 * it is refused, and the user is told as of any refused paste (session.h, the notice callback). It vanished
 * without a word. */
static void test_paste_between_children(void)
{
	const char *argv[] = {"sh", "-c", "exit 1", NULL};
	struct notice_ctx nc = {.c = {.loop = kf_loop_create()}};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .respawn = true, .cols = 80, .rows = 5};
	struct kf_session_callbacks cb = {.exited = notice_on_exited, .notice = notice_on_notice};
	struct kf_session *s = NULL;
	CHECK(kf_session_create(nc.c.loop, &cfg, &cb, &nc, &s) == 0);
	for (int i = 0; s && i < 200 && kf_session_child_pid(s); i++)
		run_for(nc.c.loop, 5);
	CHECK(s && kf_session_child_pid(s) == 0); /* exited; the next one starts after 100 ms */
	if (s) {
		CHECK(kf_session_paste(s, "text", 4) == -ENOTCONN);
		printf("a paste between two children: notices %d: \"%s\"\n", nc.nt.n, nc.nt.last);
		CHECK(nc.nt.n == 1 && strstr(nc.nt.last, "paste of 4 bytes refused"));
	}
	kf_session_destroy(s);
	kf_loop_destroy(nc.c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	test_oneshot_and_paste();
	test_paste_largest_clipboard();
	test_paste_streamed();
	test_paste_filter();
	test_paste_newlines();
	test_paste_controls();
	test_paste_c1();
	test_paste_invalid_utf8();
	test_focus_reports();
	test_exit_unread_logged();
	test_refusal_leaves_program_state();
	test_paste_between_children();
	return session_tests_end();
}
