/* kmscon-felis/vtproto.c: kmscon-felis-replay --vtproto, the vtproto/1 line protocol of
 * ../shared/conformance/VTPROTO.md: commands on stdin, one answer line per '?' command on stdout. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/replay.h"

/* Replies collected between two ?output commands; more than this is dropped (a runaway test must not
 * grow memory without bound). */
#define OUTPUT_MAX (1u << 20)

struct vtproto {
	struct grid *g;
	uint8_t *out;
	size_t out_len;
	uint8_t *feed; /* decoded PUSH bytes */
	size_t feed_cap;
};

static void on_reply(void *ud, const uint8_t *data, size_t len)
{
	struct vtproto *vp = ud;
	if (len > OUTPUT_MAX - vp->out_len)
		return;
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

static void push(struct vtproto *vp, const char *hex)
{
	size_t n = strlen(hex) / 2;
	if (n > vp->feed_cap) {
		uint8_t *b = realloc(vp->feed, n);
		if (!b)
			return;
		vp->feed = b;
		vp->feed_cap = n;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			break;
		vp->feed[k++] = (uint8_t)(hi << 4 | lo);
	}
	grid_feed(vp->g, vp->feed, k);
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

static void answer_output(struct vtproto *vp, FILE *out)
{
	for (size_t i = 0; i < vp->out_len; i++)
		fprintf(out, "%02x", vp->out[i]);
	putc('\n', out);
	vp->out_len = 0;
}

/* One command line (without its newline). Returns false when the terminal could not be created. */
static bool command(struct vtproto *vp, char *line, FILE *out)
{
	int a = 0, b = 0;
	unsigned long long sb = 0;

	if (!strncmp(line, "PUSH ", 5)) {
		push(vp, line + 5);
	} else if (!strcmp(line, "PUSH")) {
		/* nothing to feed */
	} else if (sscanf(line, "INIT %d %d %llu", &a, &b, &sb) >= 2) {
		if (a < 1 || b < 1 || a > GRID_MAX_DIM || b > GRID_MAX_DIM || sb > 1000000)
			return true;
		return init_grid(vp, a, b, (size_t)sb);
	} else if (!strcmp(line, "RESET")) {
		grid_reset(vp->g);
	} else if (sscanf(line, "RESIZE %d %d", &a, &b) == 2) {
		grid_resize(vp->g, b, a);
	} else if (!strcmp(line, "?cursor")) {
		answer_cursor(vp, out);
	} else if (!strcmp(line, "?screen")) {
		answer_screen(vp, out);
	} else if (!strcmp(line, "?scrollback")) {
		answer_scrollback(vp, out);
	} else if (!strcmp(line, "?output")) {
		answer_output(vp, out);
	} else if (line[0] == '?') {
		fputs("!unknown\n", out);
	}
	if (line[0] == '?')
		fflush(out);
	return true;
}

int kf_vtproto_run(FILE *in, FILE *out, int cols, int rows, size_t scrollback)
{
	struct vtproto vp = {0};
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 1;

	vp.out = malloc(OUTPUT_MAX);
	if (!vp.out || !init_grid(&vp, rows, cols, scrollback)) {
		fputs("kmscon-felis-replay: cannot create the terminal\n", stderr);
		goto out;
	}
	for (;;) {
		errno = 0;
		n = getline(&line, &cap, in);
		if (n < 0 && ferror(in) && kf_replay_wait_input(fileno(in))) {
			clearerr(in);
			continue;
		}
		if (n < 0)
			break;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		errno = 0;
		if (!command(&vp, line, out)) {
			fputs("kmscon-felis-replay: cannot create the terminal\n", stderr);
			goto out;
		}
		/* a runner that went away (or a full disk) ends the session: its answers were lost with exit 0 */
		if (ferror(out)) {
			fprintf(stderr, "kmscon-felis-replay: writing the answers: %s\n", strerror(errno ? errno : EIO));
			goto out;
		}
	}
	/* a read error is no end of the commands: exit 0 said that every one was answered */
	if (ferror(in)) {
		fprintf(stderr, "kmscon-felis-replay: reading the commands: %s\n", strerror(errno ? errno : EIO));
		goto out;
	}
	ret = 0;
out:
	free(line);
	free(vp.feed);
	free(vp.out);
	grid_destroy(vp.g);
	return ret;
}
