/* tests/bench/harness-parser.c: vt/'s parser alone, with a sink that only counts, to separate the
 * parser's share of the core's cost from grid/'s. */
#include "bench.h"
#include "vt/vt.h"

static size_t events;

static void on_ascii(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx, (void)s;
	events += n;
}

static void on_print(void *ctx, const uint32_t *cp, size_t n)
{
	(void)ctx, (void)cp;
	events += n;
}

static void on_execute(void *ctx, uint8_t c)
{
	(void)ctx, (void)c;
	events++;
}

static void on_csi(void *ctx, const struct vt_csi *c)
{
	(void)ctx;
	events += c->n_params;
}

static void on_esc(void *ctx, const struct vt_esc *e)
{
	(void)ctx, (void)e;
	events++;
}

static const struct vt_sink sink = {
	.print_ascii = on_ascii, .print = on_print, .execute = on_execute, .csi = on_csi, .esc = on_esc,
};

static void *create(int cols, int rows, int sb)
{
	(void)cols, (void)rows, (void)sb;
	return vt_parser_create(&sink, NULL, NULL);
}

static void feed(void *t, const uint8_t *d, size_t n)
{
	vt_parser_feed(t, d, n);
}

static void destroy(void *t)
{
	vt_parser_destroy(t);
}

const struct bench_harness bench_harness = {"vt-parser", create, feed, destroy};
