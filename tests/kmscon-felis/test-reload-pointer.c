/* tests/kmscon-felis/test-reload-pointer.c: a reload that turns the mouse off (mouse=off) takes the pointer off
 * the screen in its next frame, and forgets the buttons held. The real input glue (pointer events through the
 * real input/ module), the real configuration code (kf_config_reload, the struct replaced at the same address,
 * then what reload.c's reload_apply calls for the mouse key) and the real renderer: the glue's pointer goes to
 * the renderer as console.c's op_pointer sends it, and frames are painted as output.c paints them (the damage
 * collected, only the damaged cells painted into the buffer kept from the frame before).
 *
 * Before, the input code only read mouse per event (every pointer event ignored from then on) and nothing
 * took the arrow away: it stayed on the screen until the next key press. A button held for a selection drag
 * across the reload stayed held for ever (its release ignored), and the view no longer followed output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#include "glue-harness.h"
#include "kmscon-felis/render/render.h"
#include "tests/kf-alarm.h"

#define COLS 80
#define ROWS 24

static char dir[] = "/tmp/kf-reload-pointer-XXXXXX";
static char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};

/* The console: the harness's app (first: the harness's ops take ud as a struct app) and the screen. */
struct screen {
	struct app a;
	struct kf_render *r;
	uint32_t *px;	      /* the buffer shown, kept from frame to frame */
	int w, h;
	int frames_asked; /* kf_output_request_frame calls */
};

/* As console.c's op_pointer: the renderer's pointer, and a frame asked for. */
static void screen_pointer(void *ud, bool visible, int x, int y)
{
	struct screen *s = ud;
	op_pointer(ud, visible, x, y);
	kf_render_set_pointer(s->r, visible, x, y);
	s->frames_asked++;
}

/* A frame as output.c renders one into a buffer that showed the frame before: the damage since then, only
 * those cells painted. */
static void frame(struct screen *s)
{
	struct kf_render_source src;
	struct kf_render_damage d;
	struct kf_render_target t = {s->px, s->w, s->h, s->w * 4, KF_RENDER_XRGB8888};

	if (kf_render_damage_init(&d, COLS, ROWS) < 0)
		abort();
	kf_render_source_from_grid(&src, s->a.grid);
	kf_render_collect_damage(s->r, &src, &d);
	grid_damage_clear(s->a.grid);
	kf_render_paint(s->r, &src, &d, &t, NULL, 0);
	kf_render_damage_finish(&d);
}

/* How many pixels of the screen differ from the grid painted whole by a renderer that never drew a pointer. */
static int pointer_pixels(struct screen *s, struct kf_render *clean)
{
	struct kf_render_source src;
	uint32_t *want = calloc((size_t)s->w * s->h, 4);
	struct kf_render_target t = {want, s->w, s->h, s->w * 4, KF_RENDER_XRGB8888};
	int n = 0;

	if (!want)
		abort();
	kf_render_source_from_grid(&src, s->a.grid);
	kf_render_paint_full(clean, &src, &t, NULL, 0);
	for (int i = 0; i < s->w * s->h; i++)
		n += want[i] != s->px[i];
	free(want);
	return n;
}

/* The file becomes text and is reloaded as reload.c does it (kf_config_reload; the struct replaced at the same
 * address; reload_apply's step for the mouse key). Returns kf_config_reload's result. */
static int reload(struct kf_input_glue *g, struct kf_config *cfg, const char *text)
{
	struct kf_config next;
	char applied[512];

	conf_write(dir, text);
	int r = kf_config_reload(cfg, &next, 3, argv, applied, sizeof(applied));
	if (r == 0) {
		kf_config_finish(cfg);
		*cfg = next;
		if (!strcmp(applied, "mouse"))
			kf_input_glue_config_changed(g); /* reload_apply, through kf_console_config_changed */
	}
	return r;
}

/* The pointer at pixel (x, y) of the screen. */
static void point_px(struct input *in, struct screen *s, int x, int y)
{
	struct input_pointer_event pe = {.type = INPUT_POINTER_MOTION_ABSOLUTE, .x = (x + 0.5) / s->w,
					  .y = (y + 0.5) / s->h};
	input_inject_pointer(in, &pe);
}

int main(void)
{
	struct kf_render_config rc = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct grid_config gc = {.cols = COLS, .rows = ROWS, .scrollback = 100};
	struct screen s = {0};
	struct kf_render *clean = NULL;
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	int cw, ch, n;

	kf_alarm(60);
	struct kf_loop *loop = kf_loop_create();
	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", dir, 1);
	if (kf_render_create(&rc, &s.r) < 0 || kf_render_create(&rc, &clean) < 0)
		return 1;
	kf_render_cell_size(s.r, &cw, &ch);
	s.w = COLS * cw;
	s.h = ROWS * ch;
	s.px = calloc((size_t)s.w * s.h, 4);
	s.a.grid = grid_create(&gc, NULL, NULL);
	conf_write(dir, "");
	CHECK(kf_config_parse(&cfg, 3, argv) == 0, "start");
	struct kf_input_glue_ops o = ops;
	o.pointer = screen_pointer;
	CHECK(kf_input_glue_create(loop, &cfg, &o, &s, &g) == 0, "glue");
	if (!g || !s.a.grid || !s.px)
		return 1;
	kf_input_glue_set_geometry(g, s.w, s.h, cw, ch);
	struct input *in = kf_input_glue_input(g);
	for (int i = 0; i < 60; i++) {
		char line[32];
		snprintf(line, sizeof(line), "line %d of the output\r\n", i);
		feed(&s.a, line);
	}
	struct kf_render_source src;
	struct kf_render_target t = {s.px, s.w, s.h, s.w * 4, KF_RENDER_XRGB8888};
	kf_render_source_from_grid(&src, s.a.grid);
	kf_render_paint_full(s.r, &src, &t, NULL, 0);
	frame(&s); /* the damage of the first paint collected */
	CHECK(pointer_pixels(&s, clean) == 0, "no pointer yet");

	/* over the text of rows 2 and 3 */
	point_px(in, &s, 3 * cw + 2, 2 * ch + 4);
	frame(&s);
	n = pointer_pixels(&s, clean);
	CHECK(n > 20, "the mouse moved: the pointer drawn (%d pixels)", n);

	int asked = s.frames_asked;
	CHECK(reload(g, &cfg, "mouse=off\n") == 0 && !cfg.mouse, "mouse=off reloaded");
	CHECK(s.frames_asked > asked, "the reload asks for a frame (%d, was %d)", s.frames_asked, asked);
	frame(&s);
	n = pointer_pixels(&s, clean);
	CHECK(n == 0, "the reload's next frame: no pointer left (%d pixels still differ)", n);
	point_px(in, &s, 30 * cw, 10 * ch);
	frame(&s);
	CHECK(pointer_pixels(&s, clean) == 0, "mouse off: a move shows none");

	CHECK(reload(g, &cfg, "mouse=on\n") == 0 && cfg.mouse, "mouse=on again");
	point_px(in, &s, 30 * cw, 10 * ch);
	frame(&s);
	CHECK(pointer_pixels(&s, clean) > 20, "mouse on again: the next move shows it");

	/* A selection dragged in the history, the mouse turned off before the release: the view follows output
	 * again (the release will never be seen). */
	wheel(in, -1);
	CHECK(grid_view_offset(s.a.grid) == 3, "a wheel step up: 3 lines back (%d)", grid_view_offset(s.a.grid));
	button(in, BTN_LEFT, true, 10);
	point_px(in, &s, 40 * cw, 12 * ch);
	kf_input_glue_output(g);
	CHECK(grid_view_offset(s.a.grid) == 3, "output while dragging: the view stays (%d)",
	      grid_view_offset(s.a.grid));
	CHECK(reload(g, &cfg, "mouse=off\n") == 0, "mouse=off while dragging");
	feed(&s.a, "more\r\n");
	kf_input_glue_output(g);
	CHECK(grid_view_offset(s.a.grid) == 0, "then output: the view back at the bottom (%d)",
	      grid_view_offset(s.a.grid));
	frame(&s);
	CHECK(pointer_pixels(&s, clean) == 0, "and no pointer");

	/* A button the application was told was pressed (mouse tracking, SGR form), the mouse turned off before its
	 * release: the application gets the release now, or it stays mid-drag for good (vim in a visual drag). */
	CHECK(reload(g, &cfg, "mouse=on\n") == 0 && cfg.mouse, "mouse=on for the application");
	feed(&s.a, "\033[?1002h\033[?1006h");
	s.a.n_out = 0;
	point_px(in, &s, 5 * cw + 1, 4 * ch + 1);
	s.a.n_out = 0;
	button(in, BTN_LEFT, true, 20);
	CHECK(sent(&s.a, "\033[<0;6;5M"), "the press reported to the application");
	button(in, BTN_RIGHT, true, 21);
	CHECK(sent(&s.a, "\033[<2;6;5M"), "a second button's press reported");
	CHECK(reload(g, &cfg, "mouse=off\n") == 0, "mouse=off with two buttons held by the application");
	CHECK(sent(&s.a, "\033[<0;6;5m\033[<2;6;5m"), "the reload reports both releases");
	button(in, BTN_LEFT, false, 22);
	button(in, BTN_RIGHT, false, 23);
	CHECK(sent(&s.a, ""), "the real releases later: nothing more");

	kf_input_glue_destroy(g);
	grid_destroy(s.a.grid);
	kf_render_destroy(s.r);
	kf_render_destroy(clean);
	free(s.px);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "reload-pointer");
}
