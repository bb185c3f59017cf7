/* kmscon-felis/console.c: seat + input for --backend=drm (see console.h). */
#define LOG_TAG "console"

#include "kmscon-felis/console.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/input-glue.h"
#include "kmscon-felis/input-module.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/notify.h"
#include "kmscon-felis/output.h"
#include "kmscon-felis/render/render.h"
#include "kmscon-felis/seat.h"
#include "kmscon-felis/session.h"

/* kf_render_set_scale's range. */
#define SCALE_MAX 8

struct kf_console {
	struct kf_loop *loop;
	const struct kf_config *cfg;
	struct kf_session *session;
	struct kf_render *render;
	struct kf_output *output; /* set after the output exists; NULL before and during teardown */
	struct kf_seat *seat;
	const struct kf_input_module *mod; /* loaded with the keymap, after the first frame */
	struct kf_input_glue *input;
	/* A reload's keymap, compiled and not yet in use: set by kf_console_keymap_prepare, taken by
	 * kf_console_keymap_commit. */
	struct input_keymap *keymap_pending;
	/* kf_console_keymap_start's caller, told when the compile ends; keymap_compiling while it runs. */
	void (*keymap_ready)(void *ud, int r);
	void *keymap_ud;
	bool keymap_compiling;
	bool input_started;
	bool suspended;
	void (*front_fn)(void *ud, bool front); /* kf_console_set_front_fn */
	void *front_ud;
	int cols, rows, cell_w, cell_h;
};

static void seat_enable(void *ud)
{
	struct kf_console *c = ud;

	if (!c->input) {
		/* kf_console_start_input comes later and starts libinput itself. */
	} else if (!c->input_started) {
		c->input_started = true;
		if (c->mod->start(c->input, kf_seat_name(c->seat)) < 0)
			log_err("no keyboard or mouse: libinput did not start");
		kf_log_phase("libinput started");
	} else if (c->suspended) {
		c->mod->resume(c->input);
	}
	if (c->suspended && c->output) {
		kf_output_resume(c->output);
		kf_output_request_frame(c->output, true);
	}
	c->suspended = false;
	if (c->session)
		kf_session_set_focus(c->session, true);
	if (c->front_fn)
		c->front_fn(c->front_ud, true);
}

static void seat_disable(void *ud)
{
	struct kf_console *c = ud;

	/* Stop committing before the card's fd is revoked; held keys are released, repeat stops. */
	if (c->output)
		kf_output_suspend(c->output);
	if (c->input_started)
		c->mod->suspend(c->input);
	c->suspended = true;
	/* Switched away before the first frame: it comes when the VT is back, which may take any time. */
	kf_notify_waiting_vt(c->cfg->vt);
	/* our VT leaves the front: the focus a program asked to hear about (DECSET 1004) is gone */
	if (c->session)
		kf_session_set_focus(c->session, false);
	if (c->front_fn)
		c->front_fn(c->front_ud, false);
}

/* ------------------------------------------------------------------------------------- input ops */

static struct grid *op_grid(void *ud)
{
	struct kf_console *c = ud;
	return kf_session_grid(c->session);
}

static int op_write(void *ud, const void *data, size_t len)
{
	struct kf_console *c = ud;
	return kf_session_write(c->session, data, len);
}

static int op_paste(void *ud, const void *data, size_t len)
{
	struct kf_console *c = ud;
	return kf_session_paste(c->session, data, len);
}

static void op_activity(void *ud)
{
	struct kf_console *c = ud;
	if (c->output)
		kf_output_notify_input(c->output);
}

static void op_redraw(void *ud)
{
	struct kf_console *c = ud;
	if (c->output)
		kf_output_request_frame(c->output, false);
}

static void op_zoom(void *ud, int step)
{
	struct kf_console *c = ud;
	int scale = kf_render_get_scale(c->render), cols, rows, cw, ch;

	int w, h;

	scale = step ? scale + step : 1;
	if (scale < 1 || scale > SCALE_MAX || !c->output)
		return;
	kf_output_get_pixels(c->output, &w, &h);
	if (kf_console_rescale(c->render, c->session, scale, w, h, &cols, &rows, &cw, &ch) < 0)
		return;
	if (cols > 0 && rows > 0)
		kf_console_resized(c, cols, rows, cw, ch);
	kf_output_request_frame(c->output, true);
}

static int op_rotation(void *ud)
{
	struct kf_console *c = ud;
	return c->output ? kf_output_get_rotation(c->output) : 0;
}

static void op_rotate(void *ud, int step)
{
	struct kf_console *c = ud;
	if (c->output)
		kf_output_rotate(c->output, step);
}

static void op_switch_vt(void *ud, int n)
{
	struct kf_console *c = ud;
	kf_seat_switch_vt(c->seat, n);
}

static void op_picture_size(void *ud, int *width, int *height)
{
	struct kf_console *c = ud;
	*width = *height = 0;
	if (c->output)
		kf_output_get_pixels(c->output, width, height);
}

static void op_pointer(void *ud, bool visible, int x, int y)
{
	struct kf_console *c = ud;

	kf_render_set_pointer(c->render, visible, x, y);
	if (c->output)
		kf_output_request_frame(c->output, false);
}

static int op_open(void *ud, const char *path, int flags)
{
	struct kf_console *c = ud;
	return kf_seat_open_device(c->seat, path);
}

static void op_close(void *ud, int fd)
{
	struct kf_console *c = ud;
	kf_seat_close_device(c->seat, fd);
}

static const struct kf_input_glue_ops input_ops = {
	.grid = op_grid, .write = op_write, .paste = op_paste, .activity = op_activity, .redraw = op_redraw,
	.zoom = op_zoom, .switch_vt = op_switch_vt, .pointer = op_pointer, .open_device = op_open,
	.close_device = op_close, .rotation = op_rotation, .rotate = op_rotate,
	.picture_size = op_picture_size,
};

/* ------------------------------------------------------------------------------------------ public */

int kf_console_create(struct kf_loop *loop, const struct kf_config *cfg, struct kf_session *session,
		      struct kf_render *render, struct kf_console **out)
{
	struct kf_console *c = calloc(1, sizeof(*c));
	struct kf_seat_config sc = {.vt = cfg->vt, .activate_vt = cfg->activate_vt, .switchvt = cfg->switchvt};
	struct kf_seat_iface si = {.enable = seat_enable, .disable = seat_disable};
	int r;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->loop = loop;
	c->cfg = cfg;
	c->session = session;
	c->render = render;
	r = kf_seat_create(loop, &sc, &si, c, &c->seat);
	if (r < 0)
		goto err;
	kf_log_phase("seat opened");
	/* The display is opened through the seat: wait until it is ours (--vt=N --no-activate-vt, another VT in
	 * front). That may last until the user switches there: systemd hears we are up now (notify.h). */
	if (!kf_seat_active(c->seat))
		kf_notify_waiting_vt(cfg->vt);
	while (!kf_seat_active(c->seat) && !kf_loop_quitting(loop)) {
		r = kf_loop_dispatch(loop, -1);
		if (r < 0)
			goto err;
	}
	*out = c;
	return 0;
err:
	kf_console_destroy(c);
	return r;
}

int kf_console_load_keymap(struct kf_console *c)
{
	int r;

	if (c->input)
		return 0;
	r = kf_input_module_load(&c->mod);
	if (r < 0)
		return r;
	kf_log_phase("input module loaded");
	r = c->mod->create(c->loop, c->cfg, &input_ops, c, &c->input);
	if (r < 0)
		return r;
	kf_log_phase("keymap compiled");
	if (c->cols > 0)
		c->mod->set_geometry(c->input, c->cols * c->cell_w, c->rows * c->cell_h, c->cell_w, c->cell_h);
	return 0;
}

int kf_console_start_input(struct kf_console *c)
{
	int r = kf_console_load_keymap(c);

	if (r < 0 || c->input_started)
		return r;
	/* While the seat is away, its next enable starts libinput. */
	if (kf_seat_active(c->seat) && !c->suspended) {
		c->input_started = true;
		if (c->mod->start(c->input, kf_seat_name(c->seat)) < 0)
			log_err("no keyboard or mouse: libinput did not start");
		kf_log_phase("libinput started");
	}
	return 0;
}

int kf_console_keymap_prepare(struct kf_console *c, const struct kf_config *cur, const struct kf_config *next)
{
	const struct kf_input_module *mod;
	struct input_keymap *none = NULL;

	kf_console_keymap_commit(c, false);
	if (c && c->input)
		return c->mod->keymap_prepare(c->input, cur, next, &c->keymap_pending);
	/* No glue yet (the module loads after the first frame; no console while it waits for its VT): it will be
	 * made from next, where a keymap that does not compile falls back to "us" with a mere warning. Checked
	 * now, so that it is refused as later. A module that does not load is said when the keymap is made. */
	if (kf_input_module_load(&mod) < 0)
		return 0;
	return mod->keymap_prepare(NULL, cur, next, &none);
}

/* The module's worker is done: its keymap pending, as prepare leaves it. */
static void keymap_ready(void *ud, int r, struct input_keymap *km)
{
	struct kf_console *c = ud;

	c->keymap_compiling = false;
	c->keymap_pending = km;
	c->keymap_ready(c->keymap_ud, r);
}

int kf_console_keymap_start(struct kf_console *c, const struct kf_config *cur, const struct kf_config *next,
			    void (*ready)(void *ud, int r), void *ud)
{
	kf_console_keymap_commit(c, false);
	if (!c || !c->input)
		return kf_console_keymap_prepare(c, cur, next);
	int r = c->mod->keymap_start(c->input, cur, next, keymap_ready, c, &c->keymap_pending);
	if (r == 1) {
		c->keymap_compiling = true;
		c->keymap_ready = ready;
		c->keymap_ud = ud;
	}
	return r;
}

void kf_console_keymap_commit(struct kf_console *c, bool use)
{
	if (c && c->keymap_compiling) {
		c->mod->keymap_cancel(c->input);
		c->keymap_compiling = false;
	}
	if (!c || !c->keymap_pending)
		return;
	c->mod->keymap_done(c->input, c->keymap_pending, use);
	c->keymap_pending = NULL;
}

void kf_console_destroy(struct kf_console *c)
{
	if (!c)
		return;
	kf_console_keymap_commit(c, false);
	if (c->input)
		c->mod->destroy(c->input); /* closes the input devices through the seat */
	kf_seat_destroy(c->seat);
	free(c);
}

void kf_console_set_output(struct kf_console *c, struct kf_output *o)
{
	c->output = o;
}

void kf_console_set_session(struct kf_console *c, struct kf_session *s)
{
	c->session = s;
}

void kf_console_set_front_fn(struct kf_console *c, void (*fn)(void *ud, bool front), void *ud)
{
	c->front_fn = fn;
	c->front_ud = ud;
}

bool kf_console_in_front(const struct kf_console *c)
{
	return c && !c->suspended && kf_seat_active(c->seat);
}

bool kf_console_has_vt(const struct kf_console *c, const char **name)
{
	*name = kf_seat_name(c->seat);
	return !*name || !strcmp(*name, "seat0");
}

int kf_console_open_device(const char *path, void *ud)
{
	struct kf_console *c = ud;
	return kf_seat_open_device(c->seat, path);
}

void kf_console_close_device(int fd, void *ud)
{
	struct kf_console *c = ud;
	kf_seat_close_device(c->seat, fd);
}

bool kf_console_display_ours(void *ud)
{
	struct kf_console *c = ud;
	return c && !c->suspended && kf_seat_in_front(c->seat);
}

/* A refused zoom: the scale in force before it, and its cell size in *cell_w, *cell_h. */
static void restore_scale(struct kf_render *render, int old, int *cell_w, int *cell_h)
{
	if (kf_render_set_scale(render, old) < 0)
		log_err("zoom: the renderer cannot go back to x%d", old);
	kf_render_cell_size(render, cell_w, cell_h);
}

/* The last zoom refused for cells larger than the screen: the same one again (a held zoom key repeats 20 times
 * a second) is logged at debug level only. One console a process, so one record. */
static struct {
	int scale, width, height;
} refused;

int kf_console_rescale(struct kf_render *render, struct kf_session *session, int scale, int width, int height,
		       int *cols, int *rows, int *cell_w, int *cell_h)
{
	struct grid *g = kf_session_grid(session);
	int old = kf_render_get_scale(render), r;

	r = kf_render_set_scale(render, scale);
	if (r < 0)
		return r;
	kf_render_cell_size(render, cell_w, cell_h);
	*cols = *cell_w > 0 ? width / *cell_w : 0;
	*rows = *cell_h > 0 ? height / *cell_h : 0;
	if (width > 0 && height > 0 && (*cols <= 0 || *rows <= 0)) {
		/* Taken, the renderer drew cells the grid did not have over the old grid (cut at the screen's edge),
		 * and the pointer and a zoom out started from a size nothing showed. */
		const bool again = refused.scale == scale && refused.width == width && refused.height == height;
		kf_log_msg(again ? KF_LOG_DEBUG : KF_LOG_ERR, LOG_TAG, __FILE__, __LINE__,
			   "zoom x%d: cells of %dx%d pixels do not fit the %dx%d pixel screen, staying at x%d", scale,
			   *cell_w, *cell_h, width, height, old);
		refused.scale = scale;
		refused.width = width;
		refused.height = height;
		restore_scale(render, old, cell_w, cell_h);
		return -ERANGE;
	}
	refused.scale = 0;
	log_info("zoom x%d: %dx%d cells of %dx%d pixels", scale, *cols, *rows, *cell_w, *cell_h);
	if (*cols <= 0 || *rows <= 0)
		return 0; /* no display: the session keeps its size until there is one */
	r = kf_session_resize(session, *cols, *rows, *cell_w, *cell_h);
	if (r < 0 && grid_cols(g) == *cols && grid_rows(g) == *rows) {
		/* the grid took it, TIOCSWINSZ did not (a PTY hung up): the screen is right as it is */
		log_warn("zoom x%d: the program was not told its new size (%s)", scale, strerror(-r));
	} else if (r < 0) {
		/* The grid kept its size: so do the renderer and the child, or they would disagree with it. */
		log_err("zoom x%d: the screen cannot take %dx%d cells (%s), back to x%d", scale, *cols, *rows,
			strerror(-r), old);
		restore_scale(render, old, cell_w, cell_h);
		return r;
	}
	return 0;
}

void kf_console_fit_session(struct kf_session *session, int *cols, int *rows, int cell_w, int cell_h)
{
	struct grid *g = kf_session_grid(session);
	int r = kf_session_resize(session, *cols, *rows, cell_w, cell_h);

	if (r < 0 && grid_cols(g) == *cols && grid_rows(g) == *rows) {
		/* the grid took it, TIOCSWINSZ did not (a PTY hung up): the screen is right as it is */
		log_warn("the program was not told its new size %dx%d (%s)", *cols, *rows, strerror(-r));
	} else if (r < 0) {
		/* The grid and the child keep the old size: the pointer must stay on the cells there are, not on
		 * ones the grid does not have (the display shows a margin, or the grid cut, until the next change). */
		log_err("the display fits %dx%d cells, but the screen cannot take them (%s): it stays at %dx%d", *cols,
			*rows, strerror(-r), grid_cols(g), grid_rows(g));
	}
	*cols = grid_cols(g);
	*rows = grid_rows(g);
}

void kf_console_resized(struct kf_console *c, int cols, int rows, int cell_w, int cell_h)
{
	c->cols = cols;
	c->rows = rows;
	c->cell_w = cell_w;
	c->cell_h = cell_h;
	if (c->input)
		c->mod->set_geometry(c->input, cols * cell_w, rows * cell_h, cell_w, cell_h);
}

void kf_console_output(struct kf_console *c)
{
	if (c && c->input)
		c->mod->output(c->input);
}

void kf_console_config_changed(struct kf_console *c)
{
	if (c && c->input)
		c->mod->config_changed(c->input);
}

void kf_console_new_login(struct kf_console *c)
{
	if (c && c->input)
		c->mod->new_login(c->input);
}
