/* tests/kmscon-felis/glue-harness.h: what the input glue's tests share: an application standing in for the
 * console (its writes, pastes, redraws and the grid it shows), the glue's ops, and helpers that inject keys,
 * pointer motion, buttons and the wheel through the real input/ module. Include after "static int
 * failures;" (tests/kf-check.h). */
#ifndef KF_TESTS_GLUE_HARNESS_H
#define KF_TESTS_GLUE_HARNESS_H

#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <xkbcommon/xkbcommon.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid/grid.h"
#include "input/input.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-glue.h"
#include "kmscon-felis/loop.h"
#include "tests/kf-check.h"

struct app {
	struct grid *grid;
	char out[4096];
	size_t n_out;
	char pasted[256];
	int redraws, zoom, vt, activity;
	bool pointer_visible;
	int pointer_x, pointer_y; /* where ops.pointer last drew it */
};

static inline struct grid *op_grid(void *ud)
{
	return ((struct app *)ud)->grid;
}

static inline int op_write(void *ud, const void *data, size_t len)
{
	struct app *a = ud;
	if (a->n_out + len > sizeof(a->out))
		return -1;
	memcpy(a->out + a->n_out, data, len);
	a->n_out += len;
	return 0;
}

static inline int op_paste(void *ud, const void *data, size_t len)
{
	struct app *a = ud;
	snprintf(a->pasted, sizeof(a->pasted), "%.*s", (int)len, (const char *)data);
	return 0;
}

static inline void op_activity(void *ud)
{
	((struct app *)ud)->activity++;
}

static inline void op_redraw(void *ud)
{
	((struct app *)ud)->redraws++;
}

static inline void op_zoom(void *ud, int step)
{
	((struct app *)ud)->zoom = step ? step : 99;
}

static inline void op_switch(void *ud, int n)
{
	((struct app *)ud)->vt = n;
}

static inline void op_pointer(void *ud, bool visible, int x, int y)
{
	struct app *a = ud;
	a->pointer_visible = visible;
	a->pointer_x = x;
	a->pointer_y = y;
}

static const struct kf_input_glue_ops ops = {
	.grid = op_grid, .write = op_write, .paste = op_paste, .activity = op_activity, .redraw = op_redraw,
	.zoom = op_zoom, .switch_vt = op_switch, .pointer = op_pointer,
};

static inline void feed(struct app *a, const char *s)
{
	grid_feed(a->grid, (const uint8_t *)s, strlen(s));
}

static inline bool sent(struct app *a, const char *want)
{
	bool ok = a->n_out == strlen(want) && !memcmp(a->out, want, a->n_out);
	if (!ok)
		fprintf(stderr, "  sent %zu bytes: '%.*s'\n", a->n_out, (int)a->n_out, a->out);
	a->n_out = 0;
	return ok;
}

static inline void key(struct input *in, uint32_t code)
{
	input_inject_key(in, code, true, 1);
	input_inject_key(in, code, false, 2);
}

static inline void with(struct input *in, uint32_t mod, uint32_t code)
{
	input_inject_key(in, mod, true, 1);
	key(in, code);
	input_inject_key(in, mod, false, 3);
}

/* The pointer at the centre of cell (col, row): cells are 10x20 pixels on an 800x480 screen. */
static inline void point(struct input *in, int col, int row)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = (col * 10 + 5) / 800.0,
					  .y = (row * 20 + 10) / 480.0};
	input_inject_pointer(in, &pe);
}

static inline void button(struct input *in, uint32_t b, bool pressed, uint64_t t)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_BUTTON, .button = b, .pressed = pressed,
					  .time_usec = t};
	input_inject_pointer(in, &pe);
}

static inline void click(struct input *in, uint32_t b, int col, int row, uint64_t t)
{
	point(in, col, row);
	button(in, b, true, t);
	button(in, b, false, t + 1000);
}

static inline void wheel(struct input *in, int steps)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_SCROLL, .steps_v = steps};
	input_inject_pointer(in, &pe);
}

static inline void hwheel(struct input *in, int steps)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_SCROLL, .steps_h = steps};
	input_inject_pointer(in, &pe);
}

static inline char *clipboard(void)
{
	static char buf[256];
	char *d;
	size_t n;

	buf[0] = 0;
	if (kf_clipboard_get(&d, &n) == 0 && d)
		snprintf(buf, sizeof(buf), "%s", d);
	free(d);
	return buf;
}

/* stderr into the file at path (a log to read back) until stderr_back(the returned descriptor). */
static inline int stderr_to(const char *path)
{
	fflush(stderr);
	int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	dup2(fd, 2);
	close(fd);
	return saved;
}

/* stderr back from stderr_to, and what was written meanwhile in text (cap bytes with its NUL). */
static inline void stderr_back(int saved, const char *path, char *text, size_t cap)
{
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, cap - 1, f) : 0;
	text[n] = 0;
	if (f)
		fclose(f);
}

/* The clipboard's directory (dir, made here) and a glue on the app's new grid of gc, 800x480 pixels of 10x20
 * cells, as the console would make them; NULL on failure. */
static inline struct kf_input_glue *glue_setup(struct kf_loop *loop, char *dir, struct kf_config *cfg,
					       struct app *a, const struct grid_config *gc)
{
	struct kf_input_glue *g = NULL;
	if (!loop || !mkdtemp(dir))
		return NULL;
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", dir, 1);
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	kf_config_init(cfg);
	a->grid = grid_create(gc, NULL, NULL);
	CHECK(kf_input_glue_create(loop, cfg, &ops, a, &g) == 0, "create");
	if (!g || !a->grid)
		return NULL;
	kf_input_glue_set_geometry(g, 800, 480, 10, 20);
	return g;
}

/* A keymap file at path: layout's as xkbcommon writes it, with ESC's keycode (and the maximum) changed to kc
 * unless kc is NULL (a keycode of millions is a keymap xkbcommon takes seconds and hundreds of MB for). Aborts
 * on failure. */
static inline void write_keymap_file(const char *path, const char *layout, const char *kc)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names names = {.layout = layout};
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	char *text = km ? xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	FILE *f = fopen(path, "w");
	if (!text || !f)
		abort();
	char *max = strstr(text, "maximum = "), *esc = strstr(text, "<ESC>");
	char *esc_num = esc ? strchr(esc, '=') : NULL;
	if (!kc) {
		fputs(text, f);
	} else {
		if (!max || !esc_num || esc_num < max)
			abort();
		/* text up to "maximum = ", kc, the rest of that line; up to ESC's "= ", kc, the rest */
		char *max_end = strchr(max, ';'), *esc_end = strchr(esc_num, ';');
		fprintf(f, "%.*s%s%.*s= %s%s", (int)(max + 10 - text), text, kc, (int)(esc_num - max_end), max_end,
			kc, esc_end);
	}
	if (fclose(f) != 0)
		abort();
	free(text);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
}

/* dir/kmscon-felis.conf becomes text (a reload's file); aborts on failure. */
static inline void conf_write(const char *dir, const char *text)
{
	char path[96];
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0)
		abort();
}

/* Removes the test's directory (clipboard, compose file) and reports: the exit status of main. */
static inline int t_finish(const char *dir, const char *what)
{
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("all %s checks passed\n", what);
	return failures ? 1 : 0;
}

#endif
