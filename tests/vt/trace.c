/* tests/vt/trace.c: the parser's events as text (tests/vt/trace.h), shared by the parser's tests. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vt/trace.h"

int failures;

void t_add(struct trace *t, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	assert(n >= 0 && (size_t)n < sizeof(tmp));
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		assert(t->s);
	}
	memcpy(t->s + t->len, tmp, (size_t)n + 1);
	t->len += (size_t)n;
}

void t_text(struct trace *t, bool on)
{
	if (on && !t->in_text)
		t_add(t, "T[");
	else if (!on && t->in_text)
		t_add(t, "]");
	t->in_text = on;
}

static void on_print_ascii(void *ctx, const uint8_t *s, size_t n)
{
	struct trace *t = ctx;
	assert(n > 0);
	t->print_calls++;
	t_text(t, true);
	for (size_t i = 0; i < n; i++) {
		assert(s[i] >= 0x20 && s[i] < 0x7f);
		t_add(t, "%c", s[i]);
	}
}

void on_print(void *ctx, const uint32_t *cp, size_t n)
{
	struct trace *t = ctx;
	assert(n > 0);
	t->print_calls++;
	t_text(t, true);
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cp[i];
		assert(c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && c < 0x110000);
		if (c == 0xfffd)
			t_add(t, "?");
		else if (c < 0x80)
			t_add(t, "%c", (int)c);
		else if (c < 0x800)
			t_add(t, "%c%c", 0xc0 | c >> 6, 0x80 | (c & 0x3f));
		else if (c < 0x10000)
			t_add(t, "%c%c%c", 0xe0 | c >> 12, 0x80 | (c >> 6 & 0x3f), 0x80 | (c & 0x3f));
		else
			t_add(t, "%c%c%c%c", 0xf0 | c >> 18, 0x80 | (c >> 12 & 0x3f), 0x80 | (c >> 6 & 0x3f),
			      0x80 | (c & 0x3f));
	}
}

static void on_execute(void *ctx, uint8_t c)
{
	struct trace *t = ctx;
	t_text(t, false);
	t_add(t, "X%02x", c);
}

static void on_esc(void *ctx, const struct vt_esc *e)
{
	struct trace *t = ctx;
	t_text(t, false);
	t_add(t, "E[%.*s%c]", (int)e->n_intermediates, (const char *)e->intermediates, e->final);
}

void csi_text(struct trace *t, const struct vt_csi *c)
{
	if (c->private_marker)
		t_add(t, "%c", c->private_marker);
	for (unsigned i = 0; i < c->n_params; i++) {
		if (i)
			t_add(t, "%c", (c->sub_mask >> i & 1) ? ':' : ';');
		if (c->params[i] == VT_PARAM_DEFAULT)
			t_add(t, "-");
		else
			t_add(t, "%d", (int)c->params[i]);
	}
	/* final 0: a DCS header a control broke after its '$' (kept for the sink's CAN) */
	t_add(t, "%.*s", (int)c->n_intermediates, (const char *)c->intermediates);
	t_add(t, c->final ? "%c" : "<00>", c->final);
	t_add(t, "%s", c->overflow ? "!" : "");
}

void on_csi(void *ctx, const struct vt_csi *c)
{
	struct trace *t = ctx;
	t_text(t, false);
	t_add(t, "C[");
	csi_text(t, c);
	t_add(t, "]");
}

static void on_string(void *ctx, enum vt_string_kind kind, const struct vt_csi *hdr, const uint8_t *data,
		      size_t len)
{
	static const char *const names[] = {"OSC", "DCS", "APC", "PM", "SOS"};
	struct trace *t = ctx;
	t_text(t, false);
	assert(data[len] == 0);
	assert((kind == VT_STRING_DCS) == (hdr != NULL));
	t_add(t, "S[%s", names[kind]);
	if (hdr) {
		t_add(t, " ");
		csi_text(t, hdr);
	}
	t_add(t, "|");
	for (size_t i = 0; i < len && i < 100; i++)
		t_add(t, data[i] >= 0x20 && data[i] < 0x7f ? "%c" : "<%02x>", data[i]);
	if (len > 100)
		t_add(t, "...%zu", len);
	t_add(t, "]");
}

const struct vt_sink sink = {
	.print_ascii = on_print_ascii,
	.print = on_print,
	.execute = on_execute,
	.esc = on_esc,
	.csi = on_csi,
	.string = on_string,
};

char *finish(struct vt_parser *p, struct trace *t)
{
	t_text(t, false);
	vt_parser_destroy(p);
	return t->s;
}

