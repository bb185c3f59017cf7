/* tests/bench/harness-vterm.c: Debian's libvterm for bench-main.c: a VTermScreen with the alternate screen,
 * and a scrollback of sb lines kept the way a libvterm terminal must keep it (libvterm hands each line that
 * leaves the top to sb_pushline; we copy it into a ring). */
#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "bench.h"

struct vt {
	VTerm *vt;
	VTermScreenCell *ring; /* sb lines of cols cells */
	int cols, sb, next;
};

static int pushline(int cols, const VTermScreenCell *cells, void *user)
{
	struct vt *v = user;
	if (!v->sb)
		return 0;
	int n = cols < v->cols ? cols : v->cols;
	memcpy(&v->ring[(size_t)v->next * (size_t)v->cols], cells, (size_t)n * sizeof(*cells));
	v->next = (v->next + 1) % v->sb;
	return 1;
}

static const VTermScreenCallbacks callbacks = {.sb_pushline = pushline};

static void destroy(void *t)
{
	struct vt *v = t;
	if (!v)
		return;
	if (v->vt)
		vterm_free(v->vt);
	free(v->ring);
	free(v);
}

static void *create(int cols, int rows, int sb)
{
	struct vt *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->cols = cols;
	v->sb = sb;
	v->ring = calloc((size_t)cols * (size_t)(sb ? sb : 1), sizeof(VTermScreenCell));
	v->vt = vterm_new(rows, cols);
	if (!v->ring || !v->vt) {
		destroy(v);
		return NULL;
	}
	vterm_set_utf8(v->vt, 1);
	VTermScreen *s = vterm_obtain_screen(v->vt);
	vterm_screen_set_callbacks(s, &callbacks, v);
	vterm_screen_enable_altscreen(s, 1);
	vterm_screen_set_damage_merge(s, VTERM_DAMAGE_SCROLL);
	vterm_screen_reset(s, 1);
	return v;
}

static void feed(void *t, const uint8_t *d, size_t n)
{
	struct vt *v = t;
	vterm_input_write(v->vt, (const char *)d, n);
}

const struct bench_harness bench_harness = {"libvterm", create, feed, destroy};
