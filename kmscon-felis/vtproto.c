/* kmscon-felis/vtproto.c: kmscon-felis-replay --vtproto, the vtproto/1 line protocol of
 * ../shared/conformance/VTPROTO.md: commands on stdin, one answer line per '?' command on stdout. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/replay.h"

/* Replies collected between two ?output commands; more than this is dropped (a runaway test must not
 * grow memory without bound), and the ?output that misses them says so on stderr and counts as refused. */
#define OUTPUT_MAX (1u << 20)
/* INIT's scrollback bound, the one kmscon-felis's sb-size has */
#define SCROLLBACK_MAX 1000000
#define STR_(x) #x
#define STR(x) STR_(x)

struct vtproto {
	struct grid *g;
	uint8_t *out;
	size_t out_len;
	size_t out_dropped; /* bytes of replies on_reply dropped since the last ?output (or INIT) */
	uint8_t *feed; /* decoded PUSH bytes */
	size_t feed_cap;
	unsigned long refused; /* commands not carried out (bad_command): exit status 1 at the end */
};

static void on_reply(void *ud, const uint8_t *data, size_t len)
{
	struct vtproto *vp = ud;
	if (len > OUTPUT_MAX - vp->out_len) {
		vp->out_dropped += len; /* a whole reply: no answer holds half of one */
		return;
	}
	memcpy(vp->out + vp->out_len, data, len);
	vp->out_len += len;
}

static bool init_grid(struct vtproto *vp, int rows, int cols, size_t sb)
{
	static const struct grid_callbacks cb = {.reply = on_reply};
	struct grid_config cfg = {.cols = cols, .rows = rows, .scrollback = sb};
	struct grid *g = grid_create(&cfg, &cb, vp);
	if (!g)
		return false;
	grid_destroy(vp->g);
	vp->g = g;
	vp->out_len = 0;
	vp->out_dropped = 0;
	return true;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Says on stderr why the command on line ln was not carried out, or (tail "") was answered short (VTPROTO.md
 * answers '?' lines only, so a bad command has no answer of its own; one on stdout would be taken for the next
 * query's), and counts it: the commands after it are still carried out, and the exit status says at the end that
 * some were not. The line is
 * quoted as text that drives no terminal: control bytes and bytes past ASCII as \xNN, at most
 * KF_VTPROTO_QUOTE_MAX of them. */
#define KF_VTPROTO_QUOTE_MAX 80
static void say_refused(struct vtproto *vp, unsigned long ln, const char *line, const char *why, const char *tail)
{
	vp->refused++;
	fprintf(stderr, "kmscon-felis-replay: line %lu: '", ln);
	size_t len = strlen(line), i;
	for (i = 0; i < len && i < KF_VTPROTO_QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c < 0x20 || c >= 0x7f)
			fprintf(stderr, "\\x%02x", c);
		else
			putc(c, stderr);
	}
	fprintf(stderr, "'%s: %s%s\n", i < len ? "..." : "", why, tail);
}

static void bad_command(struct vtproto *vp, unsigned long ln, const char *line, const char *why)
{
	say_refused(vp, ln, line, why, "; ignored");
}

/* Feeds hex's bytes: 0, or (feeding nothing) -EINVAL unless hex is pairs of hex digits, -ENOMEM. */
static int push(struct vtproto *vp, const char *hex)
{
	size_t len = strlen(hex), n = len / 2;
	if (len % 2)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (hexval(hex[i]) < 0)
			return -EINVAL;
	if (n > vp->feed_cap) {
		uint8_t *b = realloc(vp->feed, n);
		if (!b)
			return -ENOMEM;
		vp->feed = b;
		vp->feed_cap = n;
	}
	for (size_t i = 0; i < n; i++)
		vp->feed[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
	grid_feed(vp->g, vp->feed, n);
	return 0;
}

/* Reads up to max numbers (at least min) separated by single spaces after the command word: strict decimal, no
 * sign, each at most limit[i], nothing after. sscanf's %d took "24 80 x" for INIT 24 80, "5 5 5" for RESIZE 5 5,
 * and overflowed on 99999999999. */
static bool numbers(const char *s, int min, int max, const unsigned long long *limit, unsigned long long *v)
{
	int k = 0;
	while (*s == ' ' && k < max) {
		s++;
		if (*s < '0' || *s > '9')
			return false;
		unsigned long long x = 0;
		for (; *s >= '0' && *s <= '9'; s++) {
			x = x * 10 + (unsigned)(*s - '0');
			if (x > limit[k])
				return false;
		}
		v[k++] = x;
	}
	return !*s && k >= min;
}

static void answer_cursor(struct vtproto *vp, FILE *out)
{
	struct grid_cursor c;
	grid_get_cursor(vp->g, &c);
	int cols = grid_cols(vp->g);
	fprintf(out, "%d,%d\n", c.y, c.x >= cols ? cols - 1 : c.x);
}

static void answer_screen(struct vtproto *vp, FILE *out)
{
	struct grid_cursor c;
	grid_get_cursor(vp->g, &c);
	int cols = grid_cols(vp->g), rows = grid_rows(vp->g);
	fprintf(out, "{\"rows\":%d,\"cols\":%d,\"cursor\":[%d,%d],\"lines\":[", rows, cols, c.y,
		c.x >= cols ? cols - 1 : c.x);
	for (int y = 0; y < rows; y++) {
		if (y)
			putc(',', out);
		kf_replay_json_cells(out, vp->g, grid_row(vp->g, y), cols);
	}
	fputs("]}\n", out);
}

static void answer_scrollback(struct vtproto *vp, FILE *out)
{
	size_t n = grid_scrollback_lines(vp->g);
	putc('[', out);
	for (size_t i = 0; i < n; i++) {
		int len = 0;
		const struct grid_cell *row = grid_scrollback_row(vp->g, i, &len);
		if (i)
			putc(',', out);
		kf_replay_json_cells(out, vp->g, row, row ? len : 0);
	}
	fputs("]\n", out);
}

/* The answer holds the replies kept; those past OUTPUT_MAX are missing from it, which only stderr and the exit
 * status can say (the answer is one line of hex). */
static void answer_output(struct vtproto *vp, unsigned long ln, const char *line, FILE *out)
{
	for (size_t i = 0; i < vp->out_len; i++)
		fprintf(out, "%02x", vp->out[i]);
	putc('\n', out);
	if (vp->out_dropped) {
		char why[128];
		snprintf(why, sizeof(why), "answered without the last %zu bytes of replies (it holds %u)",
			 vp->out_dropped, OUTPUT_MAX);
		say_refused(vp, ln, line, why, "");
	}
	vp->out_len = 0;
	vp->out_dropped = 0;
}

/* One command line ln (without its newline). Returns false when the terminal could not be created. */
static bool command(struct vtproto *vp, char *line, unsigned long ln, FILE *out)
{
	/* the sizes --size takes (GRID_MAX_DIM each: grid_resize's own bound), and kmscon-felis's sb-size bound */
	static const unsigned long long lim[] = {GRID_MAX_DIM, GRID_MAX_DIM, SCROLLBACK_MAX};
	unsigned long long v[3] = {0, 0, 0};

	if (!strncmp(line, "PUSH ", 5)) {
		int r = push(vp, line + 5);
		if (r < 0)
			bad_command(vp, ln, line, r == -ENOMEM ? "out of memory" : "expected PUSH and pairs of hex digits");
	} else if (!strcmp(line, "PUSH")) {
		/* nothing to feed */
	} else if (!strncmp(line, "INIT", 4) && (line[4] == ' ' || !line[4])) {
		if (!numbers(line + 4, 2, 3, lim, v) || !v[0] || !v[1]) {
			bad_command(vp, ln, line, "expected INIT rows cols [scrollback], rows and cols from 1 to "
					      STR(GRID_MAX_DIM) ", scrollback from 0 to " STR(SCROLLBACK_MAX));
			return true;
		}
		return init_grid(vp, (int)v[0], (int)v[1], (size_t)v[2]);
	} else if (!strcmp(line, "RESET")) {
		grid_reset(vp->g);
	} else if (!strncmp(line, "RESIZE", 6) && (line[6] == ' ' || !line[6])) {
		if (!numbers(line + 6, 2, 2, lim, v) || !v[0] || !v[1])
			bad_command(vp, ln, line, "expected RESIZE rows cols, each from 1 to " STR(GRID_MAX_DIM));
		else if (grid_resize(vp->g, (int)v[1], (int)v[0]) < 0)
			bad_command(vp, ln, line, "out of memory");
	} else if (line[0] != '?') {
		bad_command(vp, ln, line, "unknown command (expected INIT, RESET, RESIZE, PUSH or a ?query)");
	} else if (!strcmp(line, "?cursor")) {
		answer_cursor(vp, out);
	} else if (!strcmp(line, "?screen")) {
		answer_screen(vp, out);
	} else if (!strcmp(line, "?scrollback")) {
		answer_scrollback(vp, out);
	} else if (!strcmp(line, "?output")) {
		answer_output(vp, ln, line, out);
	} else if (line[0] == '?') {
		fputs("!unknown\n", out);
	}
	if (line[0] == '?')
		fflush(out);
	return true;
}

/* A command line is at most this long: run_conformance.py sends PUSH lines of 256 KiB of bytes (512 KiB of hex),
 * and getline() grew its buffer to the longest line given, a line of gigabytes too. */
#define LINE_MAX_BYTES (16u << 20) /* (said as "16 MiB" in bad_command's reason) */

struct line_reader {
	char *buf;
	size_t len, cap;
	bool too_long; /* the line being read passed LINE_MAX_BYTES: the rest is read and dropped */
};

/* Reads the next line into r->buf (r->cap bytes, at least 2; NUL-terminated, without its newline). Returns 1 for a line (also a last one
 * without a newline), 0 at the end, -1 on a read error (errno). A line cut by EAGAIN or EINTR is kept and read
 * on when the input is ready again. */
static int read_line(FILE *in, struct line_reader *r)
{
	for (;;) {
		errno = 0;
		int c = getc_unlocked(in);
		if (c == EOF && ferror(in) && kf_replay_wait_input(fileno(in))) {
			clearerr(in);
			continue;
		}
		if (c == EOF && ferror(in))
			return -1;
		if (c == EOF && !r->len && !r->too_long)
			return 0;
		if (c == EOF || c == '\n')
			break;
		if (r->len >= LINE_MAX_BYTES) {
			r->too_long = true;
			continue;
		}
		if (r->len + 1 >= r->cap) {
			size_t cap = 2 * r->cap;
			char *b = realloc(r->buf, cap > LINE_MAX_BYTES + 1 ? LINE_MAX_BYTES + 1 : cap);
			if (!b)
				return -1;
			r->buf = b;
			r->cap = cap > LINE_MAX_BYTES + 1 ? LINE_MAX_BYTES + 1 : cap;
		}
		r->buf[r->len++] = (char)c;
	}
	r->buf[r->len] = '\0'; /* (room for it: the buffer grows while len + 1 would reach cap) */
	return 1;
}

int kf_vtproto_run(FILE *in, FILE *out, int cols, int rows, size_t scrollback)
{
	struct vtproto vp = {0};
	struct line_reader r = {0};
	unsigned long ln = 0;
	int ret = 1, n;

	vp.out = malloc(OUTPUT_MAX);
	r.cap = 4096;
	r.buf = malloc(r.cap);
	if (!vp.out || !r.buf || !init_grid(&vp, rows, cols, scrollback)) {
		fputs("kmscon-felis-replay: cannot create the terminal\n", stderr);
		goto out;
	}
	while ((n = read_line(in, &r)) > 0) {
		char *line = r.buf;
		size_t len = r.len;
		ln++;
		while (len > 0 && line[len - 1] == '\r')
			line[--len] = 0;
		errno = 0;
		if (r.too_long) {
			bad_command(&vp, ln, line, "longer than 16 MiB");
		} else if (strlen(line) != len) {
			bad_command(&vp, ln, line, "a NUL byte in the line");
		} else if (!command(&vp, line, ln, out)) {
			fputs("kmscon-felis-replay: cannot create the terminal\n", stderr);
			goto out;
		}
		r.len = 0;
		r.too_long = false;
		/* a runner that went away (or a full disk) ends the session: its answers were lost with exit 0 */
		if (ferror(out)) {
			fprintf(stderr, "kmscon-felis-replay: writing the answers: %s\n", strerror(errno ? errno : EIO));
			goto out;
		}
	}
	/* a read error is no end of the commands: exit 0 said that every one was answered */
	if (n < 0) {
		fprintf(stderr, "kmscon-felis-replay: reading the commands: %s\n", strerror(errno ? errno : EIO));
		goto out;
	}
	/* each refused command was said on its own line when it came: exit 0 says there was none */
	ret = vp.refused ? 1 : 0;
out:
	free(r.buf);
	free(vp.feed);
	free(vp.out);
	grid_destroy(vp.g);
	return ret;
}
