/* tests/vt/trace.h: a vt_sink that writes the parser's events as text, for comparing how a stream is
 * parsed fed whole, byte by byte or through a fast path. */
#ifndef TESTS_VT_TRACE_H
#define TESTS_VT_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "vt/vt.h"

/* The events as text. Printed text is merged across calls (how a run is split is not behaviour) and
 * shown as T[...] in UTF-8, U+FFFD as "?"; controls X0a; escapes E[...]; CSI C[...]; strings S[...]. */
struct trace {
	char *s;
	size_t len, cap;
	bool in_text;
	size_t print_calls;
};

/* Appends printf-style text (at most 511 bytes a call) to t. */
void t_add(struct trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Opens or closes a T[...] run of printed text. */
void t_text(struct trace *t, bool on);
void on_print(void *ctx, const uint32_t *cp, size_t n);
void on_csi(void *ctx, const struct vt_csi *c);
/* A CSI's marker, parameters, intermediates and final as text. */
void csi_text(struct trace *t, const struct vt_csi *c);
/* Closes the trace and destroys p; the text is t->s, owned by the caller. */
char *finish(struct vt_parser *p, struct trace *t);

/* print_ascii, print, execute, esc, csi and string, each traced (ctx: a struct trace) */
extern const struct vt_sink sink;
/* failed checks, counted by every test of the executable */
extern int failures;

#define ESC "\x1b"
#define CSI ESC "["

#endif
