/* tests/grid/test-reply-safety.c: nothing the stream writes may come back to the child as bytes a shell or
 * readline would act on. The threat: a user cats a hostile file (views a log, ssh's to a hostile host) while a
 * shell reads the terminal, and a reply whose content the stream controls "types" a command (a title report
 * holding one: CVE-2003-0063; DECRQSS echoing its request: the mintty and iTerm2 CVEs; xterm's OSC 50 font
 * query, CVE-2022-45063). Every reply must be one whole sequence of printable ASCII between its introducer and
 * its terminator: no CR, LF, C0 or C1 control, no ESC that would end it early, no byte past 0x7e.
 *
 * Checked on each call of the reply callback: for crafted queries that put controls, terminators and long
 * text where a reply could echo them, and for random streams built from every query the grid answers cut
 * and spliced with hostile bytes (deterministic seed). The clipboard's own contents (OSC 52 reads, when
 * allowed) are hostile bytes too. And each reply echoed back as output (a raw-mode child copying its input)
 * asks nothing again, but for the two the terminals followed make so (test_replies_echoed). */
#include <errno.h>

#include "harness.h"
#include "../kf-reply-safe.h"

static unsigned replies, bad;
static char first_bad[160];

static void on_reply(void *ud, const uint8_t *d, size_t n)
{
	(void)ud;
	replies++;
	if (kf_reply_is_safe(d, n))
		return;
	if (bad++ == 0) {
		size_t k = 0;
		for (size_t i = 0; i < n && k + 5 < sizeof(first_bad); i++)
			k += (size_t)snprintf(first_bad + k, sizeof(first_bad) - k,
					      d[i] >= 0x20 && d[i] < 0x7f ? "%c" : "\\x%02x", d[i]);
	}
}

/* The clipboard a hostile program set (OSC 52 writes are allowed by default), read back by another */
static int on_clipboard_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	(void)ud, (void)targets;
	static const uint8_t hostile[] = "\r\nrm -rf ~\r\033[201~\x9b" "0c\x07\033\\\x00";
	*data = malloc(sizeof(hostile));
	if (!*data)
		return -ENOMEM;
	memcpy(*data, hostile, sizeof(hostile));
	*len = sizeof(hostile);
	return 0;
}

static struct grid *make(void)
{
	struct grid_config cfg = {.cols = 80, .rows = 24, .scrollback = 100, .cell_width = 8, .cell_height = 16,
				  .xtversion = "kf-test", .allow_clipboard_read = true};
	struct grid_callbacks cb = {.reply = on_reply, .clipboard_get = on_clipboard_get};
	struct grid *g = grid_create(&cfg, &cb, NULL);
	if (!g)
		exit(1);
	return g;
}

static void feed(struct grid *g, const char *s, size_t n)
{
	grid_feed(g, (const uint8_t *)s, n);
}

/* Queries whose reply could hold what the stream wrote, each with controls, terminators, C1 and text
 * where an echo would put them. */
static const char *const crafted[] = {
	"\033P$q\r\nid\r\033\\",            /* DECRQSS of a command: xterm answers DCS 0 $ r, no echo */
	"\033P$qm\rid\n\033\\",
	"\033P$q\033[c\033\\",
	"\033P$q\x9b" "6n\033\\",
	"\033P$qmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm\033\\",
	"\033P+q0d0a69640d\033\\",          /* XTGETTCAP of "\r\nid\r": the name comes back in hex alone */
	"\033P+q544E;0d0a;436f\033\\",
	"\033P+q\r\n\033\\",
	"\033P+q54\r4E\033\\",
	"\033P+q1b5b63\007",
	"\033]4;1;?\r\n\007",               /* colour queries with controls: malformed, no reply */
	"\033]4;1\r;?\033\\",
	"\033]10;?;\r\nid\r\007",
	"\033]11;?\x9c",
	"\033]4;1;?;2;?;3;?;255;?;256;?\007",
	"\033]4;-1;?\007\033]4; +7;?\007",
	"\033]52;c;?\007",                  /* the clipboard (hostile bytes) read back: base64 */
	"\033]52;\r\nc;?\033\\",
	"\033]52;cpqs01234567xyz;?\033\\",
	"\033]50;?\007\033]50;#+\007",      /* OSC 50 (font): no reply */
	"\033]2;\r\nid\r\007\033[21t\033[20t\033]1;x\nid\n\007\033[21;1t", /* title reports: refused */
	"\033[22t\033]2;\033[21t\007\033[23t\033[21t",
	"\033[?1;2$p\033[?99999999999$p\033[-1$p\033[?\x9b$p",
	"\033[6n\033[?6n\033[5n\033[?15n\033[?26n\033[c\033[>c\033[=c\033Z\033[>q\033[?u\033[?4m",
	"\033[1$w\033[2$w\033[11t\033[13t\033[14t\033[15t\033[16t\033[18t\033[19t",
	"\033[1;1;1;1;24;80*y\033[#|\033[1;1;24;80#|",
	"\033P$p\033\\\033P$t\033\\\033P$!q\033\\",
	"\033[>0;1000q\033[>\r\nq",
};

static void test_crafted(void)
{
	struct grid *g = make();
	for (size_t i = 0; i < sizeof(crafted) / sizeof(crafted[0]); i++) {
		const unsigned before = bad;
		feed(g, crafted[i], strlen(crafted[i]));
		/* a query ended by ST, a string after it: nothing left open for the next case */
		feed(g, "\030\033\\", 3);
		CHECK(bad == before, "case %zu: unsafe reply \"%s\"", i, first_bad);
	}
	printf("crafted: %zu cases, %u replies, %u unsafe\n", sizeof(crafted) / sizeof(crafted[0]), replies, bad);
	grid_destroy(g);
}

/* Every query the grid answers (and some setters whose state replies report), as pieces a random stream
 * splices with hostile bytes: a reply must stay safe whatever state and text came before. */
static const char *const pieces[] = {
	"\033[c", "\033[>c", "\033Z", "\033[5n", "\033[6n", "\033[?6n", "\033[?15n", "\033[?25n",
	"\033[?26n", "\033[?55n", "\033[?56n", "\033[", "\033[?", "\033[>", "$p", "\033[?2004$p", "\033[4$p",
	"\033P$q", "\033P+q", "\033P", "\033]", "\033]4;", "\033]10;", "\033]11;", "\033]12;", "\033]52;c;",
	"?", ";", "$", "q", "m", "r", " q", "\"p", "\"q", "t", "$|", "*|", "\033\\", "\007", "\x9c", "\x9b",
	"\x90", "\x9d", "\r", "\n", "\033", "\030", "\032", "\0", "\x7f", "\xc2\x9b", "\xe2\x80\xa8", "1", "2",
	"5", "9999999", "-1", ":", "544E", "0d0a", "436f", "\033[>q", "\033[?u", "\033[>1u", "\033[?4m",
	"\033[1$w", "\033[2$w", "\033[18t", "\033[14t", "\033[21t", "\033[20t", "\033]2;", "\033[1;31;4:3m",
	"\033[38:2::1:2:3m", "\033[3;20r", "\033[?69h\033[5;30s", "\033[1;1;1;1;4;8*y", "\033[#|", "\033P$p",
	"\033[?1004h", "\033[5 q", "\033[1\"q", "\033(0", "\033*%5", "\033[?6h", "\033#8", "\033[?1049h",
	"\033c", "\033[!p", "\033[64;1\"p",
};

static void test_random(void)
{
	struct grid *g = make();
	const size_t np = sizeof(pieces) / sizeof(pieces[0]);
	uint32_t seed = 4242;
	char buf[4096];
	const unsigned before_r = replies, before_b = bad;
	for (int round = 0; round < 3000; round++) {
		size_t n = 0;
		while (n < sizeof(buf) - 64) {
			seed = seed * 1103515245u + 12345u;
			const uint32_t r = seed >> 8;
			if (r % 8 == 0) {
				buf[n++] = (char)(r >> 3); /* any byte */
			} else {
				const char *p = pieces[(r >> 3) % np];
				/* "\0" is a piece of one NUL byte */
				const size_t l = p[0] ? strlen(p) : 1;
				memcpy(buf + n, p, l);
				n += l;
			}
		}
		feed(g, buf, n);
	}
	printf("random: %u replies, %u unsafe%s%s\n", replies - before_r, bad - before_b,
	       bad > before_b ? ", the first: " : "", bad > before_b ? first_bad : "");
	CHECK(replies - before_r > 10000, "the random streams asked too little: %u replies", replies - before_r);
	CHECK(bad == before_b, "unsafe reply \"%s\"", first_bad);
	grid_destroy(g);
}

/* A reply that a program echoes back (a raw-mode child copying its input to its output) must not be a query
 * itself, or the two answer each other for ever once a stream asked once. Two are, as in the terminals they
 * follow: the DEC locator's "none" (CSI ? 53 n: xterm 379 takes 53 as the VT340's name for the query 55 and
 * answers it so) and the kitty keyboard flags (CSI ? flags u: kitty answers CSI ? with any parameter). Any
 * other reply that asks again is a new loop. */
static const char *const answered[] = {
	"\033[c", "\033[>c", "\033Z", "\033[5n", "\033[6n", "\033[?6n", "\033[?15n", "\033[?25n",
	"\033[?26n", "\033[?55n", "\033[?56n", "\033[?2004$p", "\033[4$p", "\033P$qm\033\\", "\033P$qr\033\\",
	"\033P$q q\033\\", "\033P$q\"p\033\\", "\033P$qx\033\\", "\033P+q544E\033\\", "\033P+q436f\033\\",
	"\033P+q78\033\\", "\033]4;1;?\007", "\033]10;?\007", "\033]11;?\033\\", "\033]12;?\007", "\033]52;c;?\007",
	"\033[>q", "\033[?u", "\033[?4m", "\033[?1m", "\033[1$w", "\033[2$w", "\033[11t", "\033[13t", "\033[14t",
	"\033[15t", "\033[16t", "\033[18t", "\033[19t", "\033[1;1;1;1;4;8*y", "\033[#|", "\033[1;1;4;8#|", "\033P$p\033\\",
};

static uint8_t echo_buf[8192];
static size_t echo_len;

static void on_echo(void *ud, const uint8_t *d, size_t n)
{
	(void)ud;
	if (echo_len + n <= sizeof(echo_buf)) {
		memcpy(echo_buf + echo_len, d, n);
		echo_len += n;
	}
}

static void test_replies_echoed(void)
{
	struct grid_config cfg = {.cols = 80, .rows = 24, .cell_width = 8, .cell_height = 16, .xtversion = "kf-test",
				  .allow_clipboard_read = true};
	struct grid_callbacks cb = {.reply = on_echo, .clipboard_get = on_clipboard_get};
	struct grid *g = grid_create(&cfg, &cb, NULL);
	if (!g)
		exit(1);
	int loops = 0;
	for (size_t i = 0; i < sizeof(answered) / sizeof(answered[0]); i++) {
		echo_len = 0;
		feed(g, answered[i], strlen(answered[i]));
		uint8_t first[sizeof(echo_buf)];
		const size_t n = echo_len;
		memcpy(first, echo_buf, n);
		CHECK(n > 0, "query %zu got no reply", i);
		echo_len = 0;
		grid_feed(g, first, n);
		const bool known = !strcmp(answered[i], "\033[?55n") || !strcmp(answered[i], "\033[?u");
		loops += echo_len > 0;
		CHECK((echo_len > 0) == known, "query %zu: its reply echoed back %s", i,
		      echo_len ? "asks again" : "no longer asks");
	}
	printf("replies echoed back: %zu queries, %d of their replies ask again (CSI ? 53 n, CSI ? 0 u)\n",
	       sizeof(answered) / sizeof(answered[0]), loops);
	grid_destroy(g);
}

int main(void)
{
	test_crafted();
	test_random();
	test_replies_echoed();
	return t_done("reply-safety");
}
