/* kmscon-felis/replay.c: kmscon-felis-replay, the terminal core without a display. It feeds a byte stream
 * (a file or stdin) to vt/ + grid/ and prints the final screen as text or JSON, or speaks vtproto/1 for the
 * conformance runner. See man/kmscon-felis-replay.1.scd; links vt/ and grid/ only (plus what an output
 * format needs). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/replay.h"
#include "kmscon-felis/screen-text.h"

#define PROG "kmscon-felis-replay"
#define SCROLLBACK_MAX 1000000

enum format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_NONE,
};

struct options {
	int cols, rows;
	size_t scrollback;
	enum format format;
	bool vtproto;
	bool format_given; /* --format, which --vtproto has no use for */
	const char *path; /* NULL or "-": stdin */
	FILE *out;        /* standard output, written through out_write (main's, owned by main) */
	/* --- output slots for other issues: the renderer (issue 4) adds --png FILE, --font-name,
	 * --font-size and --font-engine here, and handles them in output_grid(). --- */
	struct kf_replay_png png;
};

/* ------------------------------------------------------------------------------------------- output */

void kf_replay_put_utf8(FILE *f, uint32_t c)
{
	char u[4];
	fwrite(u, 1, vt_utf8_encode(c, u), f);
}

static void json_char(FILE *f, uint32_t c)
{
	if (c == '"' || c == '\\')
		fprintf(f, "\\%c", (int)c);
	else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) /* C1 too: some terminals still act on it when printed */
		fprintf(f, "\\u%04x", (unsigned)c);
	else
		kf_replay_put_utf8(f, c);
}

void kf_replay_json_string(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char b = (unsigned char)*s;
		if (b < 0x80)
			json_char(f, b);
		else if (b == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
			json_char(f, (unsigned char)*++s); /* U+0080-U+009F, a C1 control */
		else
			putc(b, f); /* other UTF-8 passes through as it is */
	}
	putc('"', f);
}

static void json_color(FILE *f, uint32_t c)
{
	switch (GRID_COLOR_KIND(c)) {
	case GRID_COLOR_KIND_PALETTE:
		fprintf(f, "\"i:%u\"", (unsigned)(c & 0xff));
		break;
	case GRID_COLOR_KIND_RGB:
		fprintf(f, "\"r:%06x\"", (unsigned)(c & 0xffffff));
		break;
	default:
		fputs("\"d\"", f);
		break;
	}
}

void kf_replay_json_cell(FILE *f, const struct grid *g, const struct grid_cell *c)
{
	uint32_t cps[32];
	size_t n = grid_cell_codepoints(g, c, cps, 32);
	if (n > 32)
		n = 32;
	putc('[', f);
	putc('"', f);
	if (c->width == 0)
		n = 0;
	else if (n == 0)
		putc(' ', f);
	for (size_t i = 0; i < n; i++)
		json_char(f, cps[i]);
	fprintf(f, "\",%u,\"", (unsigned)c->width);
	const struct grid_style *st = grid_style(g, c->style);
	struct grid_style none = {0};
	if (!st)
		st = &none;
	static const struct {
		uint16_t attr;
		char letter;
	} letters[] = {
		{GRID_ATTR_BOLD, 'B'}, {GRID_ATTR_DIM, 'D'}, {GRID_ATTR_ITALIC, 'I'}, {GRID_ATTR_BLINK, 'K'},
		{GRID_ATTR_REVERSE, 'R'}, {GRID_ATTR_INVISIBLE, 'H'}, {GRID_ATTR_STRIKE, 'S'},
		{GRID_ATTR_OVERLINE, 'O'},
	};
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (st->attrs & letters[i].attr)
			putc(letters[i].letter, f);
	if (st->underline != GRID_UNDERLINE_NONE)
		putc('U', f);
	fputs("\",", f);
	json_color(f, st->fg);
	putc(',', f);
	json_color(f, st->bg);
	putc(']', f);
}

void kf_replay_json_cells(FILE *f, const struct grid *g, const struct grid_cell *c, int n)
{
	putc('[', f);
	for (int x = 0; x < n; x++) {
		if (x)
			putc(',', f);
		kf_replay_json_cell(f, g, &c[x]);
	}
	putc(']', f);
}

/* A URI or link id as a JSON string: printable ASCII as it is, every other byte percent-encoded, as a URI
 * carries it (RFC 3986 2.1, 3987 3.1): the grid keeps the bytes a program sent, which need not be UTF-8, and
 * JSON text must be. */
static void json_uri(FILE *f, const char *s)
{
	putc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "%%%02X", (unsigned)*p);
		else
			json_char(f, *p);
	}
	putc('"', f);
}

/* The hyperlinks (OSC 8) on the screen, as runs of cells of one link on one row: [y, x, n, uri, id], the id=
 * parameter null when the link had none. Not in the cells themselves, whose form is vtproto/1's. */
static void output_json_links(FILE *f, const struct grid *g)
{
	int cols = grid_cols(g), rows = grid_rows(g);
	bool first = true;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *r = grid_row(g, y);
		for (int x = 0; x < cols;) {
			uint16_t id = r[x].link;
			int x0 = x;
			while (x < cols && r[x].link == id)
				x++;
			const char *uri = grid_link_uri(g, id);
			if (!uri)
				continue;
			fprintf(f, "%s[%d,%d,%d,", first ? "\n" : ",\n", y, x0, x - x0);
			json_uri(f, uri);
			putc(',', f);
			const char *key = grid_link_id(g, id);
			if (key)
				json_uri(f, key);
			else
				fputs("null", f);
			putc(']', f);
			first = false;
		}
	}
}

static void output_json(FILE *f, const struct grid *g)
{
	struct grid_cursor cur;
	grid_get_cursor(g, &cur);
	int cols = grid_cols(g), rows = grid_rows(g);
	fprintf(f, "{\"cols\":%d,\"rows\":%d,\"cursor\":{\"x\":%d,\"y\":%d,\"visible\":%s},\"title\":", cols, rows,
		cur.x >= cols ? cols - 1 : cur.x, cur.y, cur.visible ? "true" : "false");
	kf_replay_json_string(f, grid_title(g));
	fputs(",\"lines\":[", f);
	for (int y = 0; y < rows; y++) {
		fputs(y ? ",\n" : "\n", f);
		kf_replay_json_cells(f, g, grid_row(g, y), cols);
	}
	/* each row's size (DECDWL, DECDHL, DECSWL) */
	static const char *const size_names[] = {"single", "double-width", "double-top", "double-bottom"};
	fputs("],\n\"sizes\":[", f);
	for (int y = 0; y < rows; y++)
		fprintf(f, "%s\"%s\"", y ? "," : "", size_names[grid_row_size(g, y) & 3]);
	fputs("],\n\"links\":[", f);
	output_json_links(f, g);
	fputs("]}\n", f);
}

/* The final grid goes out in every requested form. Returns the exit status. */
static int output_grid(struct grid *g, const struct options *o)
{
	int err = 0; /* -errno of a failed write */
	switch (o->format) {
	case FORMAT_TEXT:
		err = kf_screen_text(g, o->out);
		break;
	case FORMAT_JSON:
		output_json(o->out, g);
		break;
	case FORMAT_NONE:
		break;
	}
	/* --- the renderer (issue 4) writes --png here --- */
	if (o->png.path && kf_replay_write_png(g, &o->png))
		return 1;
	/* A write that failed before the flush left stdout's buffer empty: the flush then succeeds, so its
	 * error flag counts too (a screen larger than the buffer to a full disk exited 0, nothing written). */
	if (!err && fflush(o->out) != 0)
		err = -errno;
	if (!err && ferror(o->out))
		err = -EIO;
	if (err) {
		fprintf(stderr, PROG ": writing the output: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

/* ----------------------------------------------------------------------------------------- input */

bool kf_replay_wait_input(int fd)
{
	if (errno == EINTR)
		return true;
	if (errno != EAGAIN)
		return false;
	/* O_NONBLOCK belongs to the open file, which another program may share and have set (a tty, a pipe):
	 * wait for the data instead of taking a pause for an error */
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	return poll(&pfd, 1, -1) >= 0 || errno == EINTR;
}

/* Standard output's writes (a fopencookie write function; cookie: the int fd). The open file may be non-blocking,
 * set by a program that shares it (a tty, a pipe): stdio took EAGAIN for a write error and dropped the rest, so
 * this waits for room instead. Returns the bytes written, 0 on an error (errno set, the stream's error flag then
 * set by stdio). */
static ssize_t out_write(void *cookie, const char *buf, size_t size)
{
	int fd = *(const int *)cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, buf + done, size - done);
		if (n >= 0) {
			done += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		if (errno != EAGAIN || (poll(&pfd, 1, -1) < 0 && errno != EINTR))
			break;
	}
	return (ssize_t)done;
}

static int replay_file(struct options *o)
{
	int fd = STDIN_FILENO, ret = 1;
	struct grid *g = NULL;
	uint8_t *buf = NULL;

	if (o->path && strcmp(o->path, "-") != 0) {
		fd = open(o->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, PROG ": %s: %s\n", o->path, strerror(errno));
			return 1;
		}
	}
	if (o->png.path && (ret = kf_replay_png_open(&o->png, o->cols, o->rows)) != 0)
		goto out;
	ret = 1;
	struct grid_config cfg = {.cols = o->cols, .rows = o->rows, .scrollback = o->scrollback};
	g = grid_create(&cfg, NULL, NULL);
	buf = malloc(65536);
	if (!g || !buf) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf, 65536);
		if (n < 0 && kf_replay_wait_input(fd))
			continue;
		if (n < 0) {
			fprintf(stderr, PROG ": reading %s: %s\n", o->path ? o->path : "stdin", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		grid_feed(g, buf, (size_t)n);
	}
	ret = output_grid(g, o);
out:
	kf_replay_png_close(&o->png);
	free(buf);
	grid_destroy(g);
	if (fd != STDIN_FILENO)
		close(fd);
	return ret;
}

/* ------------------------------------------------------------------------------------ command line */

static void usage(FILE *f)
{
	fputs("usage: " PROG " [--size COLSxROWS] [--scrollback N] [--format text|json|none]\n"
	      "           [--png FILE [--font-name NAME] [--font-size PX] [--font-engine fontconfig|psf|builtin]\n"
	      "            [--font-file PATH] [--palette NAME]] [FILE|-]\n"
	      "       " PROG " --vtproto [--size COLSxROWS] [--scrollback N]\n",
	      f);
}

/* Whether s starts with a decimal digit: strtol and strtoull would skip blanks and take a sign first, and
 * kmscon-felis's own --size and sb-size refuse those. */
static bool starts_digit(const char *s)
{
	return *s >= '0' && *s <= '9';
}

static bool parse_size(const char *s, int *cols, int *rows)
{
	char *end;
	errno = 0;
	if (!starts_digit(s))
		return false;
	long c = strtol(s, &end, 10);
	if (end == s || *end != 'x' || errno)
		return false;
	const char *r0 = end + 1;
	if (!starts_digit(r0))
		return false;
	long r = strtol(r0, &end, 10);
	if (end == r0 || *end || errno)
		return false;
	if (c < 1 || r < 1 || c > GRID_MAX_DIM || r > GRID_MAX_DIM)
		return false;
	*cols = (int)c;
	*rows = (int)r;
	return true;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_SIZE = 256, OPT_SCROLLBACK, OPT_FORMAT, OPT_VTPROTO, OPT_HELP, OPT_PNG, OPT_FONT_NAME,
	       OPT_FONT_SIZE, OPT_FONT_ENGINE, OPT_FONT_FILE, OPT_PALETTE };
	static const struct option longopts[] = {
		{"size", required_argument, NULL, OPT_SIZE},
		{"scrollback", required_argument, NULL, OPT_SCROLLBACK},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"vtproto", no_argument, NULL, OPT_VTPROTO},
		{"help", no_argument, NULL, OPT_HELP},
		/* --- the renderer's options (issue 4) go here --- */
		{"png", required_argument, NULL, OPT_PNG},
		{"font-name", required_argument, NULL, OPT_FONT_NAME},
		{"font-size", required_argument, NULL, OPT_FONT_SIZE},
		{"font-engine", required_argument, NULL, OPT_FONT_ENGINE},
		{"font-file", required_argument, NULL, OPT_FONT_FILE},
		{"palette", required_argument, NULL, OPT_PALETTE},
		{NULL, 0, NULL, 0},
	};
	char *end;
	unsigned long long v;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SIZE:
			if (!parse_size(optarg, &o->cols, &o->rows)) {
				fprintf(stderr, PROG ": bad --size '%s' (want COLSxROWS, each 1..%d)\n", optarg,
					GRID_MAX_DIM);
				return 2;
			}
			break;
		case OPT_SCROLLBACK:
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || !starts_digit(optarg) || v > SCROLLBACK_MAX) {
				fprintf(stderr, PROG ": bad --scrollback '%s' (want 0..%d lines)\n", optarg,
					SCROLLBACK_MAX);
				return 2;
			}
			o->scrollback = (size_t)v;
			break;
		case OPT_FORMAT:
			o->format_given = true;
			if (!strcmp(optarg, "text")) {
				o->format = FORMAT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				o->format = FORMAT_JSON;
			} else if (!strcmp(optarg, "none")) {
				o->format = FORMAT_NONE;
			} else {
				fprintf(stderr, PROG ": bad --format '%s' (want text, json or none)\n", optarg);
				return 2;
			}
			break;
		case OPT_VTPROTO:
			o->vtproto = true;
			break;
		case OPT_PNG:
			o->png.path = optarg;
			break;
		case OPT_FONT_NAME:
			o->png.font_name = optarg;
			break;
		case OPT_FONT_FILE:
			o->png.font_file = optarg;
			break;
		case OPT_PALETTE:
			o->png.palette = optarg;
			break;
		case OPT_FONT_SIZE:
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || !starts_digit(optarg) || v < 1 || v > 512) {
				fprintf(stderr, PROG ": bad --font-size '%s' (want 1..512 pixels)\n", optarg);
				return 2;
			}
			o->png.font_size = (int)v;
			break;
		case OPT_FONT_ENGINE:
			if (kf_replay_parse_engine(optarg, &o->png.engine)) {
				fprintf(stderr, PROG ": bad --font-engine '%s' (want fontconfig, psf or builtin)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
		case OPT_HELP:
			/* the usage is output like a screen: one lost to a full disk is no success */
			errno = 0;
			usage(o->out);
			if (fflush(o->out) != 0 || ferror(o->out)) {
				fprintf(stderr, PROG ": writing the usage: %s\n", strerror(errno ? errno : EIO));
				return 1;
			}
			return 0;
		default:
			/* A long option without its value, or one that takes none given one ("--vtproto=1"),
			 * comes back with optopt set to its OPT_* code, which is no character to print
			 * (OPT_PALETTE is 266, '\n' as a char). */
			if (optopt == OPT_VTPROTO || optopt == OPT_HELP)
				fprintf(stderr, PROG ": option '%s' takes no value (see --help)\n", argv[optind - 1]);
			else if (optopt >= OPT_SIZE)
				fprintf(stderr, PROG ": option '%s' needs a value (see --help)\n", argv[optind - 1]);
			else if (optopt)
				fprintf(stderr, PROG ": bad option '-%c' (see --help)\n", optopt);
			else
				fprintf(stderr, PROG ": bad option '%s' (see --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	char why[256];
	if (kf_replay_png_check(&o->png, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 2;
	}
	if (o->vtproto && (o->format_given || o->png.path)) {
		/* they would be ignored: a PNG asked for and never written, with exit status 0 */
		fprintf(stderr, PROG ": --vtproto answers on stdout only (no --format, no --png)\n");
		return 2;
	}
	if (o->png.path && strcmp(o->png.path, "-") == 0) {
		/* "-" is standard output, as it is standard input for FILE (a file named "-" is "./-"); the
		 * screen's text would go out on the same stream, before the image */
		if (o->format_given && o->format != FORMAT_NONE) {
			fprintf(stderr, PROG ": --png - writes the image to stdout: no --format text or json with it\n");
			return 2;
		}
		o->format = FORMAT_NONE;
		o->png.path = "/dev/stdout";
	}
	if (argc - optind > 1) {
		fprintf(stderr, PROG ": more than one input file given\n");
		return 2;
	}
	if (argc - optind == 1) {
		if (o->vtproto) {
			fprintf(stderr, PROG ": --vtproto reads its commands from stdin, not from a file\n");
			return 2;
		}
		o->path = argv[optind];
	}
	/* an output that cannot be written is found before the stream is read (stdin would be gone), and before the
	 * text goes out */
	int r = o->png.path ? kf_screen_text_path_check(o->png.path) : 0;
	if (r < 0) {
		fprintf(stderr, PROG ": %s: %s\n", o->png.path, strerror(-r));
		return 1;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = {.cols = 80, .rows = 24, .scrollback = 10000, .format = FORMAT_TEXT};
	kf_log_set_tool(PROG); /* the renderer's messages (--png's font) read as this tool's own */
	static int out_fd = STDOUT_FILENO;
	o.out = fopencookie(&out_fd, "w", (cookie_io_functions_t){.write = out_write});
	if (!o.out) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		return 1;
	}
	int ret = parse_args(argc, argv, &o);
	if (ret >= 0) {
		fclose(o.out);
		return ret;
	}
	if (o.vtproto)
		ret = kf_vtproto_run(stdin, o.out, o.cols, o.rows, o.scrollback);
	else
		ret = replay_file(&o);
	fclose(o.out); /* (flushed by each writer, its errors said) */
	return ret;
}
