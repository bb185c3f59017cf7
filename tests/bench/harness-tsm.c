/* tests/bench/harness-tsm.c: Debian's libtsm (kmscon's core) for bench-main.c, set up as kmscon does:
 * one screen with scrollback and a VTE parser in front of it. */
#include <stdlib.h>

#include <libtsm.h>

#include "bench.h"

struct tsm {
	struct tsm_screen *screen;
	struct tsm_vte *vte;
};

static void on_write(struct tsm_vte *vte, const char *u8, size_t len, void *data)
{
	(void)vte, (void)u8, (void)len, (void)data; /* replies are dropped, as in the other harnesses */
}

static void destroy(void *t)
{
	struct tsm *s = t;
	if (!s)
		return;
	if (s->vte)
		tsm_vte_unref(s->vte);
	if (s->screen)
		tsm_screen_unref(s->screen);
	free(s);
}

static void *create(int cols, int rows, int sb)
{
	struct tsm *s = calloc(1, sizeof(*s));
	if (!s || tsm_screen_new(&s->screen, NULL, NULL) < 0)
		goto fail;
	tsm_screen_set_max_sb(s->screen, (unsigned)sb);
	if (tsm_screen_resize(s->screen, (unsigned)cols, (unsigned)rows) < 0)
		goto fail;
	if (tsm_vte_new(&s->vte, s->screen, on_write, NULL, NULL, NULL) < 0)
		goto fail;
	return s;
fail:
	destroy(s);
	return NULL;
}

static void feed(void *t, const uint8_t *d, size_t n)
{
	struct tsm *s = t;
	tsm_vte_input(s->vte, (const char *)d, n);
}

const struct bench_harness bench_harness = {"libtsm", create, feed, destroy};
