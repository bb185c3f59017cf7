/* kmscon-felis/output.c: the display output and the frame loop; see output.h. */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LOG_TAG "output"
#include "kmscon-felis/log.h"

#include "drm/drm.h"
#include "grid/grid.h"
#include "kmscon-felis/blink.h"
#include "kmscon-felis/flash.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/notice.h"
#include "kmscon-felis/output.h"
#include "kmscon-felis/render/render.h"

/* How long synchronized output (DECSET 2026) may hold a frame. */
#define SYNC_TIMEOUT_NS (150ull * 1000000)
#define MAX_RECTS 16
/* A frame may start only FRAME_COST_FACTOR times its predecessor's CPU time after that one ended, so that under
 * a flood painting takes at most 1/(1 + FRAME_COST_FACTOR) of the time and the rest goes to draining the PTY.
 * On real hardware a full-screen frame costs a few ms and this never delays a frame past the next refresh; on a
 * slow machine (an emulated guest, where a full frame costs 30-80 ms) it trades frames for throughput. */
#define FRAME_COST_FACTOR 4
/* ... but a flood never waits more than 250 ms for its next frame, however slow the machine. */
#define MAX_FRAME_DELAY_NS (250ull * 1000000)
/* After a frame whose painting failed (paint_failed). */
#define PAINT_RETRY_NS (100ull * 1000000)
/* kf_output_claim_frame looks for a flip event the loop has not dispatched yet at most this often (flip_pending) */
#define FLIP_PEEK_NS (1000ull * 1000)

struct kf_output {
	struct kf_loop *loop;
	struct kf_render *render;
	struct drm_backend *drm;
	struct kf_source *drm_src, *stats_signal;
	struct kf_hook *hook;
	struct kf_timer *sync_timer;
	struct kf_timer *pace_timer;      /* wakes the loop when next_frame_ns comes */
	struct kf_timer *blink_timer;     /* flips the blink phase; armed only while something blinks */
	struct kf_timer *flash_timer;     /* ends a flash kept on past the bell's off (flash.h); armed then only */
	struct kf_timer *notice_timer;    /* the notice's next text or its end (notice.h); armed while one is shown */
	struct kf_output_config cfg;
	char *seat;
	struct kf_output_callbacks cb;
	void *ud;

	struct grid *grid;                /* not owned */
	struct kf_render_damage damage;   /* this frame's cells, sized to the grid */
	bool full;                        /* the next frame repaints everything (new canvas, new grid) */
	bool requested;                   /* something outside the grid's damage changed */
	bool activity;                    /* the next frame shows more than a blink phase (DPMS activity) */
	uint64_t sync_since_ns;           /* when the current 2026 hold started; 0 = not holding */
	uint64_t sync_ends;               /* grid_sync_ends when it started */
	uint64_t next_frame_ns;           /* no frame before this (FRAME_COST_FACTOR) */
	/* kf_output_claim_frame said yes and the frame is not rendered yet: the frame loop's runs left to render it (1,
	 * or 2 when the flip's event was still to be dispatched); 0 = none claimed */
	unsigned claim_runs;
	uint64_t peeked_ns;               /* when it last looked for an undispatched flip event (flip_pending) */
	uint64_t paced;                   /* frames put off by FRAME_COST_FACTOR */
	unsigned cost_factor;             /* FRAME_COST_FACTOR, or KMSCON_FELIS_FRAME_COST_FACTOR (benchmarks) */
	uint64_t frames;                  /* frames rendered */
	uint64_t render_ns, present_ns;   /* CLOCK_MONOTONIC time painting the canvas / in drm_backend_present */
	uint64_t render_cpu_ns, present_cpu_ns; /* the same in this thread's CPU time */
	bool profile;                     /* render_ns..present_cpu_ns measured (KMSCON_FELIS_PROFILE): 0 otherwise */
	uint64_t frame_cpu_ns;            /* frames' CPU time, painting and presenting (whenever it is read) */
	uint64_t pixels_painted;          /* canvas pixels repainted (the area of the rectangles painted) */
	uint64_t sync_holds;              /* 2026 holds started */
	uint64_t sync_timeouts;           /* 2026 holds ended by the timeout, not by the application */
	bool shown;                       /* first_frame was called */
	bool suspended;                   /* the seat took the display away (kf_output_suspend) */
	struct kf_flash flash;            /* the visual bell's: kf_output_set_flash, render_frame, flash_timer */
	struct kf_notice notice;          /* over the screen: kf_output_show_notice, notice_timer */

	/* Blinking (blink.h): the phase, and what the timer needs to know without scanning the screen on every
	 * wake-up. blink_rows is refreshed for the rows each frame paints (what the display shows), blink_cursor
	 * and blink_input by the prepare hook. */
	struct kf_blink blink;
	uint64_t blink_armed_ns;          /* the deadline blink_timer is armed for; 0 = disarmed */
	bool *blink_rows;                 /* per displayed row: a cell with the blink attribute (damage.rows) */
	int blink_count;                  /* rows set in blink_rows */
	struct grid_cursor blink_cursor;  /* the cursor at the last prepare: a blinking one that moved resets */
	bool blink_input;                 /* input came since the last prepare (kf_output_notify_input) */
	uint64_t flips_before_first;      /* flip events before the first frame we presented + 1; 0 = none yet */
	bool paint_failing;               /* the last frame's painting failed (paint_failed) */
};

static void drm_log_handler(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	enum kf_log_level level = prio <= 3 ? KF_LOG_ERR : (enum kf_log_level)prio;

	if (level > kf_log_get_level())
		return;
	kf_log_vmsg(level, "drm", file, line, fmt, ap);
}

static int open_device(const char *path, void *ud)
{
	struct kf_output *o = ud;

	return o->cfg.open_device(path, o->cfg.device_ud);
}

static void close_device(int fd, void *ud)
{
	struct kf_output *o = ud;

	o->cfg.close_device(fd, o->cfg.device_ud);
}

static bool display_ours(void *ud)
{
	struct kf_output *o = ud;

	return o->cfg.display_ours(o->cfg.device_ud);
}

void kf_output_get_pixels(const struct kf_output *o, int *width, int *height)
{
	uint32_t w, h;

	drm_backend_get_size(o->drm, &w, &h);
	*width = (int)w;
	*height = (int)h;
}

void kf_output_get_size(const struct kf_output *o, int *cols, int *rows)
{
	uint32_t w, h;
	int cw, ch;

	drm_backend_get_size(o->drm, &w, &h);
	kf_render_cell_size(o->render, &cw, &ch);
	*cols = cw > 0 ? (int)w / cw : 0;
	*rows = ch > 0 ? (int)h / ch : 0;
}

/* A display that a cell at the zoom and font in force does not fit (font-size=400 on a small screen, a
 * smaller display plugged in, the first one found after the font was set without one): the zoom, the size,
 * then the font come down until it does (kf_render_fit, said in a warning). Taken as they were, the display
 * had 0 columns: the grid was never resized to it and the renderer drew cut cells over it. */
static void fit_font(struct kf_output *o)
{
	int w, h;

	kf_output_get_pixels(o, &w, &h);
	kf_render_fit(o->render, w, h);
}

static void on_outputs_changed(void *ud)
{
	struct kf_output *o = ud;
	int cols, rows, cw, ch;

	fit_font(o);
	kf_output_get_size(o, &cols, &rows);
	kf_render_cell_size(o->render, &cw, &ch);
	log_info("display %dx%d cells of %dx%d pixels", cols, rows, cw, ch);
	o->full = true;
	if (cols > 0 && rows > 0 && o->cb.resize)
		o->cb.resize(o->ud, cols, rows, cw, ch);
}

static void on_drm(void *ud, int fd, uint32_t events)
{
	struct kf_output *o = ud;
	int ret = drm_backend_dispatch(o->drm);

	if (ret < 0)
		log_err("drm dispatch: %s", strerror(-ret));
	if (!o->shown && o->cb.first_frame) {
		struct drm_backend_stats s;
		uint32_t w, h;
		char mode[64];
		drm_backend_get_stats(o->drm, &s);
		/* Only the flip of a frame we painted counts, not one of an earlier modeset. */
		if (!o->flips_before_first || s.flips < o->flips_before_first)
			return;
		o->shown = true;
		kf_log_phase("first frame: flip event");
		drm_backend_get_size(o->drm, &w, &h);
		snprintf(mode, sizeof(mode), "%ux%u@%u.%02uHz", w, h, s.refresh_mhz / 1000,
			 s.refresh_mhz % 1000 / 10);
		o->cb.first_frame(o->ud, mode);
	}
}

static void on_sync_timeout(void *ud, struct kf_timer *t)
{
	/* Nothing to do: the wake-up runs the prepare hook, which sees that the hold expired (or, as the pace
	 * timer's callback, that the next frame may start). */
}

static void flash_end(struct kf_output *o)
{
	kf_render_set_flash(o->render, false);
	/* (no activity: see kf_output_set_flash) */
	o->requested = true;
}

static void on_flash_timer(void *ud, struct kf_timer *t)
{
	struct kf_output *o = ud;
	uint64_t now = kf_loop_now_ns();
	if (kf_flash_expire(&o->flash, now))
		flash_end(o);
	else if (o->flash.on && o->flash.due_ns)
		kf_timer_arm(t, o->flash.due_ns - now, 0);
}

/* The notice's text changed or it went: its row is repainted at the next frame (the renderer damages it), as
 * no activity (like the flash: a refusal comes from the user's own input, which woke the display already). */
static void notice_changed(struct kf_output *o, enum kf_notice_change c)
{
	if (c == KF_NOTICE_SAME)
		return;
	kf_render_set_notice(o->render, c == KF_NOTICE_TEXT ? o->notice.text : NULL);
	o->requested = true;
}

static void notice_arm(struct kf_output *o, uint64_t now)
{
	const uint64_t due = kf_notice_due(&o->notice);
	if (due)
		kf_timer_arm(o->notice_timer, due > now ? due - now : 1, 0);
	else
		kf_timer_disarm(o->notice_timer);
}

static void on_notice_timer(void *ud, struct kf_timer *t)
{
	struct kf_output *o = ud;
	uint64_t now = kf_loop_now_ns();
	notice_changed(o, kf_notice_expire(&o->notice, now));
	notice_arm(o, now);
}

static void on_stats_signal(void *ud, int signo)
{
	kf_output_log_stats(ud);
}

/* True while DECSET 2026 holds the frame; arms the timer that ends the hold. */
static bool sync_hold(struct kf_output *o)
{
	struct grid_modes m;
	uint64_t now;

	grid_get_modes(o->grid, &m);
	if (!m.synchronized) {
		if (o->sync_since_ns) {
			o->sync_since_ns = 0;
			kf_timer_disarm(o->sync_timer);
		}
		return false;
	}
	now = kf_loop_now_ns();
	/* A hold whose update ended since (the frame loop could not show it then: a flip in flight) and a new one
	 * began: that one gets its own time. Counted from the old one, its timeout showed it half drawn. */
	const uint64_t ends = grid_sync_ends(o->grid);
	if (!o->sync_since_ns || ends != o->sync_ends) {
		o->sync_since_ns = now;
		o->sync_ends = ends;
		o->sync_holds++;
		kf_timer_arm(o->sync_timer, SYNC_TIMEOUT_NS, 0);
		return true;
	}
	if (now - o->sync_since_ns < SYNC_TIMEOUT_NS)
		return true;
	/* The application did not end its update in time: show what there is, then hold again. */
	o->sync_since_ns = 0;
	o->sync_timeouts++;
	return false;
}

static int ensure_damage(struct kf_output *o, int cols, int rows)
{
	if (o->damage.cols == cols && o->damage.rows == rows)
		return 0;
	kf_render_damage_finish(&o->damage);
	memset(&o->damage, 0, sizeof(o->damage));
	free(o->blink_rows);
	o->blink_count = 0;
	o->full = true;
	if (!(o->blink_rows = calloc((size_t)(rows > 0 ? rows : 1), sizeof(*o->blink_rows))))
		return -ENOMEM;
	return kf_render_damage_init(&o->damage, cols, rows);
}

/* The rows this frame paints are what the display will show: note which hold blinking cells. One compare per
 * cell (runs of a style are looked up once), only for the damaged rows. */
static void scan_blinking(struct kf_output *o, bool full)
{
	for (int y = 0; y < o->damage.rows; y++) {
		if (!full && o->damage.x0[y] >= o->damage.x1[y])
			continue;
		bool b = kf_blink_row(o->grid, y);
		o->blink_count += (int)b - (int)o->blink_rows[y];
		o->blink_rows[y] = b;
	}
}

/* The phase changed: the renderer damages what blinks at the next frame. */
static void blink_changed(struct kf_output *o)
{
	kf_render_set_blink(o->render, o->blink.on);
	o->requested = true;
}

/* Before the frame: typing, or a blinking cursor that moved, shows the cursor again (in this frame already). */
static void blink_before(struct kf_output *o, uint64_t now)
{
	struct grid_cursor c;
	bool moved;

	grid_get_cursor(o->grid, &c);
	moved = c.x != o->blink_cursor.x || c.y != o->blink_cursor.y;
	o->blink_cursor = c;
	if ((moved || o->blink_input) && c.visible && c.blink && kf_blink_reset(&o->blink, now))
		blink_changed(o);
	o->blink_input = false;
}

/* After the frame (blink_rows is up to date): runs the phase only while something blinks on the lit display
 * and keeps the timer on its deadline. Stopping shows the phase without a wake-up of its own: nothing that
 * blinks is on screen then, or the screen is dark or gone (unblanking, resuming and a display plugged in paint
 * anyway). With no display at all (none connected: a server's GPU) the phase ran, 2.2 wake-ups a second. */
static void blink_after(struct kf_output *o, uint64_t now)
{
	int w, h;

	kf_output_get_pixels(o, &w, &h);
	bool lit = w > 0 && !o->suspended && !drm_backend_is_blanked(o->drm);
	bool cursor = o->blink_cursor.visible && o->blink_cursor.blink;

	if (kf_blink_update(&o->blink, lit && (cursor || o->blink_count > 0), now))
		blink_changed(o);
	if (o->blink.due_ns == o->blink_armed_ns)
		return;
	if (o->blink.due_ns)
		kf_timer_arm(o->blink_timer, o->blink.due_ns > now ? o->blink.due_ns - now : 0, 0);
	else
		kf_timer_disarm(o->blink_timer);
	o->blink_armed_ns = o->blink.due_ns;
}

static void on_blink_timer(void *ud, struct kf_timer *t)
{
	struct kf_output *o = ud;

	o->blink_armed_ns = 0; /* the loop disarmed it; blink_after arms the next deadline */
	if (kf_blink_expire(&o->blink, kf_loop_now_ns()))
		blink_changed(o);
}

/* What the frame about to be painted overwrites for certain, for drm_backend_prepare_canvas: everything for a full
 * repaint, else the damaged cell spans (the painter widens a span, never narrows it), equal spans of consecutive
 * rows merged. Spans past MAX_RECTS are left out: that only means more copying. Returns the number of boxes. */
static size_t frame_cover(const struct kf_output *o, bool full, struct drm_box *cover)
{
	const struct kf_render_damage *d = &o->damage;
	size_t n = 0;
	int cw, ch;

	if (full) {
		/* Boxes may reach past the canvas: only what lies inside counts. */
		cover[0] = (struct drm_box){0, 0, INT32_MAX / 2, INT32_MAX / 2};
		return 1;
	}
	kf_render_cell_size(o->render, &cw, &ch);
	for (int y = 0; y < d->rows; y++) {
		struct drm_box b = {d->x0[y] * cw, y * ch, (d->x1[y] - d->x0[y]) * cw, ch};

		if (d->x0[y] >= d->x1[y])
			continue;
		if (n && cover[n - 1].x == b.x && cover[n - 1].w == b.w && cover[n - 1].y + cover[n - 1].h == b.y)
			cover[n - 1].h += ch;
		else if (n < MAX_RECTS)
			cover[n++] = b;
	}
	return n;
}

static bool damage_all(const struct kf_render_damage *d)
{
	for (int y = 0; y < d->rows; y++)
		if (d->x0[y] != 0 || d->x1[y] != d->cols)
			return false;
	return true;
}

/* A frame whose painting failed (-ENOMEM: a glyph or a row buffer): nothing is presented. What it promised to
 * drm_backend_prepare_canvas was left out of the buffer's catch-up with the newest frame (drm.h), so presenting it
 * would show an older frame's pixels there, and in a shadow canvas a part of the frame; its damage was taken from
 * the grid. So the next frame repaints everything, after PAINT_RETRY_NS: no flip paces it (nothing was
 * presented), and memory that is short now is seldom back at once. Said once per run of failures. */
static void paint_failed(struct kf_output *o, int err)
{
	if (!o->paint_failing)
		log_err("render: %s; the frame is not shown, everything is painted again", strerror(-err));
	o->paint_failing = true;
	o->full = true;
	o->requested = true;
	o->next_frame_ns = kf_loop_now_ns() + PAINT_RETRY_NS;
	kf_timer_arm(o->pace_timer, PAINT_RETRY_NS, 0);
	o->claim_runs = 0;
}

/* Collects the damage (kept in o->damage until it is painted), takes the buffer to paint into, paints and
 * presents. */
static void render_frame(struct kf_output *o)
{
	struct kf_render_source src;
	struct kf_render_rect rects[MAX_RECTS];
	struct drm_box boxes[MAX_RECTS];
	struct drm_canvas c;
	/* The frame's CPU time paces the next frame (FRAME_COST_FACTOR): two reads of the thread's CPU clock a
	 * frame. The split into painting and presenting, and their wall times, only when profiling. */
	const bool prof = o->profile;
	uint64_t t0 = prof ? kf_loop_now_ns() : 0, t1 = 0, cpu0 = o->cost_factor || prof ? kf_thread_cpu_ns() : 0;
	uint64_t cpu1 = 0, cpu2, cost;
	bool full;
	int n;

	if (!o->frames)
		kf_log_phase("first frame: painting");
	/* Kept until a frame is presented: a frame put off keeps the grid's damage in o->damage. */
	o->activity |= o->full || grid_is_damaged(o->grid);
	kf_render_source_from_grid(&src, o->grid);
	if (ensure_damage(o, src.cols, src.rows) < 0)
		return;
	kf_render_collect_damage(o->render, &src, &o->damage);
	grid_damage_clear(o->grid);
	/* kf_render_paint repaints everything when every cell is damaged, margins included. */
	full = o->full || damage_all(&o->damage);
	scan_blinking(o, full);
	n = (int)frame_cover(o, full, boxes);
	drm_backend_prepare_canvas(o->drm, &c, boxes, (size_t)n);
	if (!c.pixels) {
		o->requested = true; /* the damage waits in o->damage */
		return;
	}
	struct kf_render_target t = {c.pixels, (int)c.width, (int)c.height, (int)c.stride, KF_RENDER_XRGB8888};
	if (o->full)
		n = kf_render_paint_full(o->render, &src, &t, rects, MAX_RECTS);
	else if (kf_render_damage_empty(&o->damage))
		n = 0;
	else
		n = kf_render_paint(o->render, &src, &o->damage, &t, rects, MAX_RECTS);
	kf_render_damage_clear(&o->damage);
	if (n < 0) {
		paint_failed(o, n);
		return;
	}
	if (o->paint_failing)
		log_info("render: painting again");
	o->paint_failing = false;
	for (int i = 0; i < n; i++) {
		boxes[i] = (struct drm_box){rects[i].x, rects[i].y, rects[i].w, rects[i].h};
		o->pixels_painted += (uint64_t)rects[i].w * (uint64_t)rects[i].h;
	}
	if (prof) {
		t1 = kf_loop_now_ns();
		cpu1 = kf_thread_cpu_ns();
		o->render_ns += t1 - t0;
		o->render_cpu_ns += cpu1 - cpu0;
	}
	if (!o->frames)
		kf_log_phase("first frame: painted");
	if ((n > 0 || o->full) && !o->flips_before_first) {
		struct drm_backend_stats s;
		drm_backend_get_stats(o->drm, &s);
		o->flips_before_first = s.flips + 1;
	}
	/* A frame that only flips the blink phase is not activity: a blinking cursor would keep the display lit
	 * for ever (the kernel's VT blanks under one too). */
	if ((n > 0 || o->full) && o->activity)
		drm_backend_present(o->drm, boxes, (size_t)n, o->full);
	else if (n > 0)
		drm_backend_present_idle(o->drm, boxes, (size_t)n, false);
	o->activity = false;
	if (!o->frames)
		kf_log_phase("first frame: committed");
	uint64_t end = kf_loop_now_ns();
	/* the flash's time runs from the first frame that shows it (flash.h) */
	if (o->flash.on && (n > 0 || o->full) && kf_flash_shown(&o->flash, end))
		kf_timer_arm(o->flash_timer, o->flash.due_ns > end ? o->flash.due_ns - end : 1, 0);
	cpu2 = cpu0 ? kf_thread_cpu_ns() : 0;
	if (prof) {
		o->present_ns += end - t1;
		o->present_cpu_ns += cpu2 - cpu1;
	}
	o->frame_cpu_ns += cpu2 - cpu0;
	cost = o->cost_factor * (cpu2 - cpu0);
	o->next_frame_ns = end + (cost < MAX_FRAME_DELAY_NS ? cost : MAX_FRAME_DELAY_NS);
	o->full = false;
	o->requested = false;
	o->frames++;
	o->claim_runs = 0;
}

static void frame(struct kf_output *o)
{
	if (!o->grid || !(o->full || o->requested || grid_is_damaged(o->grid)))
		return;
	/* A flip in flight, or too early for the next refresh: the flip event or drm/'s timer wakes us. */
	if (!drm_backend_can_render(o->drm))
		return;
	/* Before the 2026 hold: a hold that just timed out must not be put off into a new one. */
	if (kf_loop_now_ns() < o->next_frame_ns) {
		if (!kf_timer_armed(o->pace_timer)) {
			kf_timer_arm(o->pace_timer, o->next_frame_ns - kf_loop_now_ns(), 0);
			o->paced++;
		}
		return;
	}
	if (sync_hold(o))
		return;
	render_frame(o);
}

/* Whether drm/ has an event the loop has not dispatched yet, most often the completion of the flip in flight: the
 * loop dispatches it first at its next iteration, and the frame can be taken then (the session's next wake-up
 * feeds nothing meanwhile, session-feed.c kf_feed_begin). The drain under way would otherwise go on to its
 * budget's end before the loop saw it (in the test guest tens of ms: tests/vm/t-frameloop.py sync-flood had 75
 * frames against 144, ~157 with this). Looked at no more than once per FLIP_PEEK_NS: a poll(2) at every update's
 * end would cost a flood of tiny updates more than parsing them. */
static bool flip_pending(struct kf_output *o, uint64_t now)
{
	int w, h;

	kf_output_get_pixels(o, &w, &h);
	if (!w || drm_backend_is_blanked(o->drm) || now - o->peeked_ns < FLIP_PEEK_NS)
		return false;
	o->peeked_ns = now;
	struct pollfd p = {.fd = drm_backend_get_fd(o->drm), .events = POLLIN};
	return poll(&p, 1, 0) == 1;
}

bool kf_output_claim_frame(struct kf_output *o)
{
	/* frame()'s conditions but the damage (the update that just ended made some) and the 2026 hold (it ended) */
	if (o->claim_runs || !o->grid || o->suspended)
		return false;
	const uint64_t now = kf_loop_now_ns();
	if (now < o->next_frame_ns)
		return false;
	if (drm_backend_can_render(o->drm))
		o->claim_runs = 1;
	else if (flip_pending(o, now))
		o->claim_runs = 2;
	return o->claim_runs > 0;
}

/* The frame loop: runs before the loop sleeps, after everything that woke it was handled. The blink phase is
 * looked at only when something changed or it runs: an idle console with nothing blinking costs nothing. */
static void on_prepare(void *ud)
{
	struct kf_output *o = ud;
	bool blink = o->grid && (o->blink.due_ns || o->blink_input || o->full || o->requested ||
				 grid_is_damaged(o->grid));
	uint64_t now = blink ? kf_loop_now_ns() : 0;

	if (blink)
		blink_before(o, now);
	frame(o);
	/* A claimed frame not rendered in its runs (the event was not its flip's, a paint failed) is claimed no more:
	 * the next update's end may stop the drain again */
	if (o->claim_runs)
		o->claim_runs--;
	if (blink)
		blink_after(o, now);
}

int kf_output_create(struct kf_loop *loop, struct kf_render *render, const struct kf_output_config *cfg,
		     const struct kf_output_callbacks *cb, void *ud, struct kf_output **out)
{
	struct kf_output *o = calloc(1, sizeof(*o));
	struct drm_backend_config dc = {0};
	struct drm_backend_iface di = {.outputs_changed = on_outputs_changed};
	int ret = -ENOMEM;

	if (!o)
		return -ENOMEM;
	o->loop = loop;
	o->render = render;
	o->cfg = *cfg;
	if (cb)
		o->cb = *cb;
	o->ud = ud;
	o->full = true;
	kf_blink_init(&o->blink);
	o->profile = cfg->profile;
	o->cost_factor = FRAME_COST_FACTOR;
	if (getenv("KMSCON_FELIS_FRAME_COST_FACTOR"))
		o->cost_factor = (unsigned)strtoul(getenv("KMSCON_FELIS_FRAME_COST_FACTOR"), NULL, 10) % 1000;
	if (cfg->seat && !(o->seat = strdup(cfg->seat)))
		goto err;
	drm_set_log_handler(drm_log_handler);
	if (cfg->open_device && cfg->close_device) {
		di.open_device = open_device;
		di.close_device = close_device;
	}
	if (cfg->display_ours)
		di.display_ours = display_ours;
	dc.mode_width = cfg->mode_width;
	dc.mode_height = cfg->mode_height;
	dc.use_original_mode = cfg->use_original_mode;
	dc.dpms_timeout_s = cfg->dpms_timeout;
	dc.force_legacy = cfg->legacy;
	dc.force_fbdev = cfg->no_drm;
	dc.rotation = (enum drm_rotation)(cfg->rotation & 3);
	dc.seat = o->seat;
	ret = drm_backend_create(&o->drm, &dc, &di, o);
	if (ret < 0) {
		log_err("cannot start the display: %s", strerror(-ret));
		goto err;
	}
	o->drm_src = kf_loop_add_fd(loop, drm_backend_get_fd(o->drm), EPOLLIN, KF_PRIO_FLIP, on_drm, o);
	o->hook = kf_loop_add_prepare(loop, on_prepare, o);
	o->sync_timer = kf_loop_add_timer(loop, on_sync_timeout, o);
	o->pace_timer = kf_loop_add_timer(loop, on_sync_timeout, o);
	o->blink_timer = kf_loop_add_timer(loop, on_blink_timer, o);
	o->flash_timer = kf_loop_add_timer(loop, on_flash_timer, o);
	o->notice_timer = kf_loop_add_timer(loop, on_notice_timer, o);
	/* Not SIGUSR1/SIGUSR2: libseat's VT handling (its builtin seatd) takes those. */
	o->stats_signal = kf_loop_add_signal(loop, KF_OUTPUT_STATS_SIGNAL, on_stats_signal, o);
	if (!o->drm_src || !o->hook || !o->sync_timer || !o->pace_timer || !o->blink_timer || !o->flash_timer ||
	    !o->notice_timer || !o->stats_signal) {
		ret = errno ? -errno : -ENOMEM;
		log_err("cannot add the display to the event loop: %s", strerror(-ret));
		goto err;
	}
	fit_font(o); /* before the caller reads the size (kf_output_get_size) and makes the grid at it */
	*out = o;
	return 0;
err:
	kf_output_destroy(o);
	return ret;
}

void kf_output_destroy(struct kf_output *o)
{
	if (!o)
		return;
	if (o->drm)
		kf_output_log_stats(o);
	kf_source_remove(o->stats_signal);
	kf_timer_remove(o->sync_timer);
	kf_timer_remove(o->pace_timer);
	kf_timer_remove(o->blink_timer);
	kf_timer_remove(o->flash_timer);
	kf_timer_remove(o->notice_timer);
	kf_hook_remove(o->hook);
	kf_source_remove(o->drm_src);
	drm_backend_destroy(o->drm);
	kf_render_damage_finish(&o->damage);
	free(o->blink_rows);
	free(o->seat);
	free(o);
}

void kf_output_set_grid(struct kf_output *o, struct grid *g)
{
	o->grid = g;
	o->full = true;
}

void kf_output_request_frame(struct kf_output *o, bool all)
{
	o->requested = true;
	o->activity = true;
	o->full |= all;
}

void kf_output_set_flash(struct kf_output *o, bool on)
{
	uint64_t now = kf_loop_now_ns();
	if (on) {
		kf_flash_on(&o->flash, now);
		kf_timer_disarm(o->flash_timer);
	} else {
		/* A hold in force (or about to start: the mode is set, the frame loop has not run yet) may keep
		 * back every frame until the flash is asked off: then it stays on for a frame to show it. */
		struct grid_modes m = {0};
		if (o->grid)
			grid_get_modes(o->grid, &m);
		bool held = o->sync_since_ns || m.synchronized;
		if (!kf_flash_off(&o->flash, now, held ? SYNC_TIMEOUT_NS : 0)) {
			kf_timer_arm(o->flash_timer, o->flash.due_ns - now, 0);
			return;
		}
		kf_timer_disarm(o->flash_timer);
	}
	kf_render_set_flash(o->render, on);
	/* everything is repainted (kf_render_collect_damage sees reverse video change), but as no activity: like a
	 * blink phase it does not wake a blanked display (nor does the kernel console's bell), and a program that
	 * rings now and then does not keep the display lit */
	o->requested = true;
}

void kf_output_show_notice(struct kf_output *o, const char *text)
{
	uint64_t now = kf_loop_now_ns();
	notice_changed(o, kf_notice_ask(&o->notice, text, now));
	notice_arm(o, now);
}

void kf_output_rotate(struct kf_output *o, int step)
{
	int r = (kf_output_get_rotation(o) + step) & 3;

	log_info("display turned %s", (const char *const[]){"normal", "right", "inverted", "left"}[r]);
	/* calls on_outputs_changed: the new size to the session, everything repainted */
	drm_backend_set_rotation(o->drm, (enum drm_rotation)r);
	o->activity = true;
}

int kf_output_get_rotation(const struct kf_output *o)
{
	return (int)drm_backend_get_rotation(o->drm);
}

void kf_output_prepare(struct kf_output *o)
{
	drm_backend_prepare_buffers(o->drm);
}

void kf_output_set_dpms_timeout(struct kf_output *o, unsigned seconds)
{
	drm_backend_set_dpms_timeout(o->drm, seconds);
}

void kf_output_notify_input(struct kf_output *o)
{
	drm_backend_notify_input(o->drm);
	o->blink_input = true;
}

void kf_output_suspend(struct kf_output *o)
{
	drm_backend_suspend(o->drm);
	o->suspended = true;
	/* a flash kept on for a frame that can no longer come must not greet the user coming back */
	if (o->flash.on) {
		kf_flash_init(&o->flash);
		kf_timer_disarm(o->flash_timer);
		flash_end(o);
	}
}

void kf_output_resume(struct kf_output *o)
{
	drm_backend_resume(o->drm);
	o->suspended = false;
	o->full = true;
}

void kf_output_log_stats(const struct kf_output *o)
{
	struct drm_backend_stats s;
	char split[160] = "";

	drm_backend_get_stats(o->drm, &s);
	/* The heap's bytes in use (one arena: main's M_ARENA_MAX): a leak check on it is exact, where the RSS also
	 * counts free pages that stay resident (tests/vm/t-reload.py reload-storm). */
	struct mallinfo2 mi = mallinfo2();
	if (o->profile)
		snprintf(split, sizeof(split), " render_ms=%llu present_ms=%llu render_cpu_ms=%llu present_cpu_ms=%llu",
			 (unsigned long long)(o->render_ns / 1000000), (unsigned long long)(o->present_ns / 1000000),
			 (unsigned long long)(o->render_cpu_ns / 1000000),
			 (unsigned long long)(o->present_cpu_ns / 1000000));
	log_notice("frames: rendered=%llu presents=%llu commits=%llu flips=%llu modesets=%llu watchdog=%llu "
		   "fast_flips=%llu pixels_copied=%llu outputs=%u cards=%u refresh_mhz=%u sync_holds=%llu "
		   "sync_timeouts=%llu pixels_painted=%llu paced=%llu mono_ms=%llu frame_cpu_ms=%llu "
		   "heap_bytes=%zu%s%s%s",
		   (unsigned long long)o->frames, (unsigned long long)s.presents, (unsigned long long)s.commits,
		   (unsigned long long)s.flips, (unsigned long long)s.modesets,
		   (unsigned long long)s.watchdog_fires, (unsigned long long)s.fast_flips,
		   (unsigned long long)s.pixels_copied, s.outputs, s.cards, s.refresh_mhz,
		   (unsigned long long)o->sync_holds, (unsigned long long)o->sync_timeouts,
		   (unsigned long long)o->pixels_painted, (unsigned long long)o->paced,
		   (unsigned long long)(kf_loop_now_ns() / 1000000), (unsigned long long)(o->frame_cpu_ns / 1000000),
		   mi.uordblks + mi.hblkhd, split, s.legacy ? " legacy" : "", s.fbdev ? " fbdev" : "");
}
