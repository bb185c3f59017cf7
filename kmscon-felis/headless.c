/* kmscon-felis/headless.c: see headless.h. */
#define LOG_TAG "headless"
#include "kmscon-felis/headless.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/session.h"

/* One read from the FIFO; it is read only while at least this much fits in the write queue. */
#define FIFO_CHUNK (64u << 10)

struct kf_headless {
	struct kf_loop *loop;
	struct kf_session *session;
	int fifo;                 /* -1 without --input-fifo */
	struct kf_source *src;
	struct kf_hook *prepare;
	bool paused;              /* FIFO not watched: the write queue is too full */
	uint8_t buf[FIFO_CHUNK];
};

static void on_fifo(void *ud, int fd, uint32_t events)
{
	struct kf_headless *h = ud;
	size_t room = kf_session_write_room(h->session);
	if (room < FIFO_CHUNK) {
		h->paused = true;
		kf_source_set_events(h->src, 0);
		return;
	}
	ssize_t n = read(fd, h->buf, FIFO_CHUNK);
	if (n <= 0)
		return;
	int r = kf_session_write(h->session, h->buf, (size_t)n);
	if (r < 0)
		log_warn("dropping %zd input bytes: %s", n, strerror(-r));
}

/* Runs before every sleep: resume reading the FIFO once the child has taken enough. */
static void on_prepare(void *ud)
{
	struct kf_headless *h = ud;
	if (h->paused && kf_session_write_room(h->session) >= FIFO_CHUNK) {
		h->paused = false;
		kf_source_set_events(h->src, EPOLLIN);
	}
}

int kf_headless_create(struct kf_loop *loop, struct kf_session *session, const char *input_fifo,
		       struct kf_headless **out)
{
	int r;
	struct kf_headless *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->loop = loop;
	h->session = session;
	h->fifo = -1;
	if (input_fifo && input_fifo[0]) {
		/* Read-write: we hold a writer ourselves, so the FIFO never reports end-of-file (and never HUP)
		 * when a test's writer closes it; the next writer just continues the stream. */
		h->fifo = open(input_fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (h->fifo < 0) {
			r = -errno;
			log_err("cannot open the input FIFO %s: %s", input_fifo, strerror(-r));
			goto fail;
		}
		h->src = kf_loop_add_fd(loop, h->fifo, EPOLLIN, KF_PRIO_INPUT, on_fifo, h);
		h->prepare = kf_loop_add_prepare(loop, on_prepare, h);
		if (!h->src || !h->prepare) {
			r = -errno;
			log_err("cannot watch the input FIFO: %s", strerror(-r));
			goto fail;
		}
	}
	*out = h;
	return 0;

fail:
	kf_headless_destroy(h);
	return r;
}

void kf_headless_destroy(struct kf_headless *h)
{
	if (!h)
		return;
	kf_hook_remove(h->prepare);
	kf_source_remove(h->src);
	if (h->fifo >= 0)
		close(h->fifo);
	free(h);
}

static size_t utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18 & 0x07));
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int kf_headless_dump_text(const struct grid *g, FILE *out)
{
	int cols = grid_cols(g), rows = grid_rows(g);
	/* A cell holds at most a few dozen code points in practice; longer clusters are cut, not overrun. */
	uint32_t cps[32];
	size_t cap = (size_t)cols * sizeof(cps) / sizeof(cps[0]) * 4 + 2;
	char *line = malloc(cap);
	if (!line)
		return -ENOMEM;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *row = grid_row(g, y);
		size_t len = 0, trimmed = 0;
		for (int x = 0; x < cols; x++) {
			if (row[x].width == 0)
				continue; /* right half of a wide character */
			size_t n = grid_cell_codepoints(g, &row[x], cps, sizeof(cps) / sizeof(cps[0]));
			if (n > sizeof(cps) / sizeof(cps[0]))
				n = sizeof(cps) / sizeof(cps[0]);
			if (n == 0 || (n == 1 && cps[0] == ' ')) {
				line[len++] = ' ';
				continue;
			}
			for (size_t i = 0; i < n; i++)
				len += utf8_encode(cps[i], line + len);
			trimmed = len;
		}
		line[trimmed] = '\n';
		fwrite(line, 1, trimmed + 1, out);
	}
	free(line);
	return ferror(out) ? -EIO : 0;
}

int kf_headless_dump_file(const struct grid *g, const char *path)
{
	FILE *f = fopen(path, "we");
	if (!f) {
		int r = -errno;
		log_err("cannot write the screen to %s: %s", path, strerror(-r));
		return r;
	}
	int r = kf_headless_dump_text(g, f);
	if (fclose(f) != 0 && !r)
		r = -errno;
	if (r < 0)
		log_err("writing the screen to %s: %s", path, strerror(-r));
	return r;
}
