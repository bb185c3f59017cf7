/* kmscon-felis/main.c: the program entry.
 *
 * Start-up is a straight line: parse the configuration, create the loop, the session (login on a PTY, grid),
 * then the backend that shows it (DRM + seat + input on a console, nothing when headless), run the loop, and
 * tear down in reverse order. On a display the session is made by start_drm() once the display's size is
 * known, and the login, the keymap and libinput start after the first frame (start_later). Each backend adds its own create/destroy pair to struct kf_app and one case to
 * start_backend()/stop_backend(). A configuration reload (SIGHUP) is reload.c's; struct kf_app is in app.h.
 */
#define LOG_TAG "main"
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "grid/grid.h"
#include "kmscon-felis/app.h"
#include "kmscon-felis/clipboard.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/console.h"
#include "kmscon-felis/bell.h"
#include "kmscon-felis/headless.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/notify.h"
#include "kmscon-felis/output.h"
#include "kmscon-felis/render/render.h"
#include "kmscon-felis/session.h"
#include "pty/pty.h"


/* How long start_later() waits for the first frame at most (a display that never shows one must not leave
 * us without a login and a keyboard to switch VTs with). */
#define LATER_TIMEOUT_NS (3000ull * 1000000)

static void on_quit_signal(void *ud, int signo)
{
	struct kf_app *app = ud;
	log_info("signal %d: shutting down", signo);
	kf_loop_quit(app->loop, 0);
}

/* With --oneshot (and headless) our exit status is the program's, except the two that are our own: the units'
 * RestartPreventExitStatus= lists them (config.h), and a program that happens to exit with one must not stop a
 * kiosk for good or send the VT to getty as if the configuration were bad. The log keeps the real status. */
static int oneshot_status(int code)
{
	if (code != KF_CONFIG_EXIT_USAGE && code != KF_EXIT_NO_DISPLAY)
		return code;
	log_notice("the program exited with status %d, which is kmscon-felis's own for %s: exiting with status 1",
		   code, code == KF_CONFIG_EXIT_USAGE ? "a bad configuration" : "no display");
	return EXIT_FAILURE;
}

static void on_child_exited(void *ud, int code)
{
	struct kf_app *app = ud;
	kf_loop_quit(app->loop, oneshot_status(code));
}

static void on_new_login(void *ud)
{
	struct kf_app *app = ud;
	kf_console_new_login(app->console);
}

static void on_session_output(void *ud)
{
	struct kf_app *app = ud;
	kf_console_output(app->console);
	/* once per batch parsed: the BELs in it (on_bell only noted them) sound once at most */
	kf_bell_flush(app->bell);
}

/* On the parser's path, per BEL: a flag, nothing more (bell.h). */
static void on_bell(void *ud)
{
	struct kf_app *app = ud;
	kf_bell_ring(app->bell);
}

static void bell_tone(void *ud, unsigned *hz, unsigned *ms)
{
	struct kf_app *app = ud;
	grid_bell_tone(kf_session_grid(app->session), hz, ms);
}

static bool bell_in_front(void *ud)
{
	struct kf_app *app = ud;
	return kf_console_in_front(app->console);
}

void kf_app_bell_flash(void *ud, bool on)
{
	struct kf_app *app = ud;
	if (app->output)
		kf_output_set_flash(app->output, on);
}

/* The bell, once the backend is up: on a display it asks the console whether our VT is in front and flashes
 * through the frame loop; headless there is neither a VT nor a display (said once, at the first BEL). */
int kf_app_start_bell(struct kf_app *app)
{
	struct kf_bell_config bc = {.mode = app->cfg.bell};
	struct kf_bell_ops ops = {.tone = bell_tone};
	const char *seat;

	if (app->headless) {
		bc.no_vt = "the headless backend has no VT";
	} else if (app->console) {
		ops.in_front = bell_in_front;
		ops.flash = kf_app_bell_flash;
		if (!kf_console_has_vt(app->console, &seat)) {
			snprintf(app->no_vt, sizeof(app->no_vt),
				 "seat %s has no VTs, only seat0 has (bell=visual flashes the screen)", seat);
			bc.no_vt = app->no_vt;
		}
	}
	int r = kf_bell_replace(&app->bell, app->loop, &bc, &ops, app);
	if (r < 0)
		log_err("cannot set up the bell: %s%s", strerror(-r), app->bell ? " (the old one stays)" : "");
	return r;
}

/* A refusal while the program runs (session.h): over the screen on a display; headless there is none to show it
 * on, and the session has logged it. */
static void on_notice(void *ud, const char *text)
{
	struct kf_app *app = ud;
	if (app->output)
		kf_output_show_notice(app->output, text);
}

/* The end of a synchronized update in the child's output: it ends the PTY's drain only when the frame loop can show
 * it now (session.h frame_ready); headless there are no frames (the callback is not set). */
static bool on_frame_ready(void *ud)
{
	struct kf_app *app = ud;
	return app->output && kf_output_claim_frame(app->output);
}

/* OSC 52: the application sets the clipboard every instance shares. */
static void on_osc52(void *ud, const char *targets, const uint8_t *data, size_t len)
{
	kf_clipboard_set(data, len);
}

/* An OSC 52 query (--clipboard-read): there is one clipboard, whichever selection is named. */
static int on_osc52_get(void *ud, const char *targets, uint8_t **data, size_t *len)
{
	(void)ud;
	(void)targets;
	char *d = NULL;
	int r = kf_clipboard_get(&d, len);
	*data = (uint8_t *)d;
	return r;
}

/* The configured palette's name, or NULL for "custom" (the --palette-<name> colours over the default palette).
 * Names follow enum kf_palette's order (config.h). Returns 0 or -EINVAL. */
static int palette_name(const struct kf_config *c, const char **name)
{
	static const char *const names[] = {
		[KF_PALETTE_DEFAULT] = "default",
		[KF_PALETTE_SOLARIZED] = "solarized",
		[KF_PALETTE_SOLARIZED_BLACK] = "solarized-black",
		[KF_PALETTE_SOLARIZED_WHITE] = "solarized-white",
		[KF_PALETTE_SOFT_BLACK] = "soft-black",
		[KF_PALETTE_BASE16_DARK] = "base16-dark",
		[KF_PALETTE_BASE16_LIGHT] = "base16-light",
		[KF_PALETTE_NORD] = "nord",
		[KF_PALETTE_VGA] = "vga",
	};
	*name = NULL;
	if (c->palette == KF_PALETTE_CUSTOM)
		return 0;
	if ((unsigned)c->palette >= sizeof(names) / sizeof(names[0]) || !names[c->palette])
		return -EINVAL;
	*name = names[c->palette];
	return 0;
}

static void custom_colors(const struct kf_config *c, uint32_t rgb[KF_COLOR_COUNT])
{
	for (int i = 0; i < KF_COLOR_COUNT; i++)
		rgb[i] = (uint32_t)c->palette_custom[i].r << 16 | (uint32_t)c->palette_custom[i].g << 8 |
			 c->palette_custom[i].b;
}

/* Hands the configured palette to the renderer: a named one, or the --palette-<name> colours for "custom". */
int kf_app_apply_palette(struct kf_render *r, const struct kf_config *c)
{
	const char *name;
	int ret = palette_name(c, &name);
	if (ret < 0 || name)
		return ret < 0 ? ret : kf_render_set_palette(r, name);
	uint32_t rgb[KF_COLOR_COUNT];
	custom_colors(c, rgb);
	kf_render_set_palette_colors(r, rgb);
	return 0;
}

/* The same colours as kf_app_apply_palette() gives the renderer (256 + foreground + background), for the
 * grid: what OSC 4/10/11 queries report, on every backend. */
int kf_app_config_colors(const struct kf_config *c, uint32_t pal[258])
{
	const char *name;
	int ret = palette_name(c, &name);
	if (ret < 0 || (ret = kf_render_palette_load(name ? name : "default", pal)) < 0 || name)
		return ret;
	uint32_t rgb[KF_COLOR_COUNT];
	custom_colors(c, rgb);
	for (int i = 0; i < 16; i++)
		pal[i] = rgb[i];
	pal[256] = rgb[KF_COLOR_FOREGROUND];
	pal[257] = rgb[KF_COLOR_BACKGROUND];
	return 0;
}

/* The session (grid, PTY; the login is started later on a display) with a grid of cols x rows cells, or 80x24
 * when they are 0 (headless: the configured size). */
static int start_session(struct kf_app *app, int cols, int rows)
{
	const struct kf_config *c = &app->cfg;
	bool headless = c->backend == KF_BACKEND_HEADLESS;
	const char *seat = c->seat;
	/* seat0, the seat with VTs, without a VT number makes logind refuse the login's session (kmscon#232,
	 * docs/seat.md): name it only when the VT is known, also when --seat names it. Other seats have no VTs
	 * (logind wants none there) and are named alone. */
	const char *opened = NULL;
	if (app->console)
		kf_console_has_vt(app->console, &opened);
	if (opened) /* (a copy: the session outlives the seat at exit) */
		snprintf(app->seatname, sizeof(app->seatname), "%s", opened);
	if (!seat && !headless && app->seatname[0])
		seat = app->seatname;
	else if (!seat && !headless && c->vt > 0)
		seat = getenv("XDG_SEAT") ? getenv("XDG_SEAT") : "seat0"; /* what libseat picks */
	if (seat && !strcmp(seat, "seat0") && c->vt <= 0)
		seat = NULL;
	if (c->vt > 0) {
		snprintf(app->vtnr, sizeof(app->vtnr), "%d", c->vt);
		snprintf(app->vtname, sizeof(app->vtname), "tty%d", c->vt);
	}
	uint32_t colors[258];
	int r = kf_app_config_colors(c, colors);
	if (r < 0) {
		log_err("cannot load the palette: %s", strerror(-r));
		/* a palette name the renderer does not know: the configuration's fault, which a restart cannot mend */
		app->config_error = r != -ENOMEM;
		return r;
	}
	struct kf_session_config sc = {
		.argv = (const char *const *)c->login_argv,
		.term = c->term,
		.seat = seat,
		.vtnr = app->vtnr[0] ? app->vtnr : NULL,
		.reset_env = c->reset_env,
		/* Headless there is nobody to log in again: the program ends with its child. */
		.respawn = !c->oneshot && !headless,
		.write_queue_max = c->write_queue_size,
		.scrollback = c->sb_size,
		.cols = headless ? (int)c->size.w : cols > 0 ? cols : 80,
		.rows = headless ? (int)c->size.h : rows > 0 ? rows : 24,
		.colors = colors,
		.backspace_sends_bs = !c->backspace_delete,
		.clipboard_read = c->clipboard_read,
		/* On a display the login starts after the first frame (start_later), at the display's grid size;
		 * headless once the backend is open (main), so that a bad --input-fifo runs no child. */
		.defer_start = true,
		/* agetty's banner before the default login (issue=auto), or as issue= says */
		.issue = kf_config_show_issue(c),
		.issue_path = c->issue_path,
		.issue_tty = app->vtname[0] ? app->vtname : NULL,
	};
	/* For comparisons in benchmarks (tests/vm/bench kmscon-felis-pN): the read pause in microseconds, 0 = none. */
	const char *pause = getenv("KMSCON_FELIS_READ_PAUSE_US");
	if (pause && *pause && kf_session_parse_read_pause(pause, &sc.read_pause_ns) < 0)
		log_warn("KMSCON_FELIS_READ_PAUSE_US=%s ignored: want 0 to %u (microseconds)", pause,
			 KF_SESSION_READ_PAUSE_MAX_US);
	sc.profile = app->profile;
	struct kf_session_callbacks cb = {.exited = on_child_exited, .output = on_session_output, .bell = on_bell,
					  .clipboard = on_osc52, .clipboard_get = on_osc52_get, .notice = on_notice,
					  .new_login = on_new_login, .frame_ready = headless ? NULL : on_frame_ready};
	return kf_session_create(app->loop, &sc, &cb, app, &app->session);
}

/* Milliseconds this thread spent runnable but waiting for a CPU (the second field of /proc/self/schedstat):
 * the machine's load, not our work. -1 when the kernel does not say. */
static long runqueue_ms(void)
{
	unsigned long long run_ns, wait_ns;
	FILE *f = fopen("/proc/self/schedstat", "re");
	int n = f ? fscanf(f, "%llu %llu", &run_ns, &wait_ns) : 0;
	if (f)
		fclose(f);
	return n == 2 ? (long)(wait_ns / 1000000) : -1;
}

/* What the PTY path cost: one line at exit with --verbose (tests/bench/run-pty-bench reads it), and at notice
 * level on KF_OUTPUT_STATS_SIGNAL with the frame counters (tests/vm/bench reads both). The context switches
 * and the run-queue wait tell waiting for the child or the kernel's tty worker (voluntary) from being
 * pushed off the CPU by other work (involuntary, runq_ms). */
static void log_stats_level(struct kf_app *app, enum kf_log_level level)
{
	struct rusage ru;
	struct kf_session_stats st;
	if (!app->session)
		return; /* a display start-up that has not got that far */
	char wall[64] = "", cpu[96] = "";
	kf_session_stats(app->session, &st);
	getrusage(RUSAGE_SELF, &ru);
	if (app->profile) { /* the times are measured only then (kf_session_config.profile) */
		snprintf(wall, sizeof(wall), " read_ms %llu parse_ms %llu", (unsigned long long)(st.read_ns / 1000000),
			 (unsigned long long)(st.parse_ns / 1000000));
		snprintf(cpu, sizeof(cpu), " read_cpu_ms %llu parse_cpu_ms %llu read_sys_cpu_ms %llu;",
			 (unsigned long long)(st.read_cpu_ns / 1000000), (unsigned long long)(st.parse_cpu_ns / 1000000),
			 (unsigned long long)(st.read_sys_cpu_ns / 1000000));
	}
	kf_log_msg(level, LOG_TAG, __FILE__, __LINE__,
		   "pty: %llu bytes in %llu reads, %llu chunks parsed; cpu user %ld.%06ld s sys %ld.%06ld s; "
		   "wakeups %llu%s; csw voluntary %ld involuntary %ld; runq_ms %ld;%s minflt %ld majflt %ld; "
		   "read_pauses %llu work_stops %llu update_stops %llu",
		   (unsigned long long)st.bytes, (unsigned long long)st.reads, (unsigned long long)st.outputs,
		   (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
		   (long)ru.ru_stime.tv_usec, (unsigned long long)st.wakeups, wall, ru.ru_nvcsw, ru.ru_nivcsw,
		   runqueue_ms(), cpu, ru.ru_minflt, ru.ru_majflt, (unsigned long long)st.pauses,
		   (unsigned long long)st.work_stops, (unsigned long long)st.update_stops);
}

static void log_stats(struct kf_app *app)
{
	log_stats_level(app, KF_LOG_INFO);
}

static void on_stats_signal(void *ud, int signo)
{
	log_stats_level(ud, KF_LOG_NOTICE);
}

static void on_output_resize(void *ud, int cols, int rows, int cell_w, int cell_h)
{
	struct kf_app *app = ud;
	/* the console is told the size the grid has: the old one when it cannot take the new one */
	if (app->session) /* else start_drm() creates it at this size */
		kf_console_fit_session(app->session, &cols, &rows, cell_w, cell_h);
	if (app->console)
		kf_console_resized(app->console, cols, rows, cell_w, cell_h);
}

/* What the first frame does not need: the keymap, libinput, the login (its start competes for the CPU),
 * fontconfig's fallback list (the faces came from the font cache; see render/font-cache.c) with the glyphs of
 * printable ASCII, and the display buffers after the first.
 * Started once the first frame is on screen, or when there is no display to show one; one step per loop
 * iteration, so the loop (flips, the watchdog) runs between them even on a slow CPU. */
static void start_later(struct kf_app *app)
{
	int r = 0;

	/* The keyboard before the login: once its prompt is on screen, keys typed at it must not be lost. */
	switch (app->later_step++) {
	case 0:
		r = kf_console_load_keymap(app->console);
		break;
	case 1:
		r = kf_console_start_input(app->console);
		break;
	case 2:
		r = kf_session_start(app->session);
		kf_log_phase("login spawned");
		break;
	case 3:
		kf_render_prepare_fonts(app->render);
		kf_log_phase_end();
		break;
	case 4:
		if (app->output)
			kf_output_prepare(app->output);
		break;
	default:
		return;
	}
	if (r < 0)
		kf_loop_quit(app->loop, EXIT_FAILURE);
	else if (app->later_step < 5)
		kf_timer_arm(app->later, 1, 0);
}

static void on_later(void *ud, struct kf_timer *t)
{
	struct kf_app *app = ud;
	if (app->later_step == 0)
		log_warn("no frame on screen after %llu ms: starting the login and input anyway",
			 LATER_TIMEOUT_NS / 1000000);
	start_later(app);
}

/* The font for systemd's STATUS= (systemctl status): the renderer's, named as the configuration names it. */
void kf_app_font_status(const struct kf_app *app, char *font, size_t size)
{
	const struct kf_config *c = &app->cfg;
	int cw, ch;
	kf_render_cell_size(app->render, &cw, &ch);
	switch (kf_render_get_engine(app->render)) {
	case KF_RENDER_ENGINE_BUILTIN:
		snprintf(font, size, "built-in %dx%d", cw, ch);
		break;
	case KF_RENDER_ENGINE_PSF:
		snprintf(font, size, "%s %dx%d", c->font_file ? c->font_file : "psf", cw, ch);
		break;
	default:
		snprintf(font, size, "%s %upx", c->font_name ? c->font_name : "monospace", c->font_size);
		break;
	}
}

/* systemd's READY=1 (Type=notify) waits for this: the first frame is on screen. */
static void on_first_frame(void *ud, const char *mode)
{
	struct kf_app *app = ud;
	char font[160];
	kf_app_font_status(app, font, sizeof(font));
	snprintf(app->mode, sizeof(app->mode), "%s", mode ? mode : "no mode");
	kf_notify_first_frame(mode, font);
	app->ready = true;
	kf_timer_remove(app->display_wait);
	app->display_wait = NULL;
	kf_log_phase("READY=1 sent");
	if (app->later_step == 0)
		start_later(app);
}

/* display-wait passed since the VT became ours and nothing was ever shown (no DRM card drives a display, no
 * framebuffer device: a kernel booted with nomodeset on a VGA text console). Waiting on would leave the VT dead
 * under systemd, where READY=1 went out while waiting for the VT: the dedicated status makes the unit fail at
 * once and give the VT to getty (OnFailure=). The loop's end releases the seat and the VT as on any stop. */
static void on_display_wait(void *ud, struct kf_timer *t)
{
	struct kf_app *app = ud;
	(void)t;
	log_err("no usable display %u s after getting the VT (display-wait): exiting with status %d",
		app->cfg.display_wait, KF_EXIT_NO_DISPLAY);
	kf_loop_quit(app->loop, KF_EXIT_NO_DISPLAY);
}

/* display-wait counts the time our VT is in front: switched away before the first frame (which cannot come
 * then), it exited 69 with a working display, and the unit gave the VT to getty. Each return starts it again. */
static void on_front(void *ud, bool front)
{
	struct kf_app *app = ud;
	if (!app->display_wait)
		return;
	if (front)
		kf_timer_arm(app->display_wait, (uint64_t)app->cfg.display_wait * 1000000000u, 0);
	else
		kf_timer_disarm(app->display_wait);
}

static void stop_drm(struct kf_app *app)
{
	kf_reload_cancel(app); /* a reload waiting for the keymap's worker: its pending keymap is the console's */
	if (app->console) {
		kf_console_set_output(app->console, NULL);
		kf_console_set_front_fn(app->console, NULL, NULL);
	}
	kf_output_destroy(app->output); /* closes its cards through the seat: before the console */
	kf_console_destroy(app->console);
	kf_render_destroy(app->render);
	kf_timer_remove(app->later);
	kf_timer_remove(app->display_wait);
	app->later = NULL;
	app->display_wait = NULL;
	app->output = NULL;
	app->console = NULL;
	app->render = NULL;
}

/* The font settings of c for the renderer (the strings are c's). */
struct kf_render_config kf_app_render_config(const struct kf_config *c)
{
	static const enum kf_render_engine engines[] = {
		[KF_FONT_ENGINE_FONTCONFIG] = KF_RENDER_ENGINE_AUTO,
		[KF_FONT_ENGINE_PSF] = KF_RENDER_ENGINE_PSF,
		[KF_FONT_ENGINE_BUILTIN] = KF_RENDER_ENGINE_BUILTIN,
	};
	return (struct kf_render_config){
		.engine = engines[c->font_engine],
		.font_name = c->font_name,
		.font_file = c->font_file,
		.font_size = (int)c->font_size,
	};
}

/* The seat and input (console.h), then the display and frame loop (output.h) with the renderer; the display's
 * devices are opened through the seat. The session comes last, with its grid at the display's size: resizing
 * a grid made at 80x24 cost 100-250 ms in the TCG guest, before the first frame. */
static int start_drm(struct kf_app *app)
{
	const struct kf_config *c = &app->cfg;
	struct kf_render_config rc = kf_app_render_config(c);
	struct kf_output_config oc = {
		.mode_width = c->mode.w,
		.mode_height = c->mode.h,
		.use_original_mode = c->use_original_mode,
		.no_drm = !c->drm,
		.rotation = (int)c->rotate,
		.profile = app->profile,
		.seat = c->seat,
		.open_device = kf_console_open_device,
		.close_device = kf_console_close_device,
		.display_ours = kf_console_display_ours,
	};
	struct kf_output_callbacks ocb = {.resize = on_output_resize, .first_frame = on_first_frame};
	int cols, rows, cw, ch, r;

	r = kf_render_create(&rc, &app->render);
	if (r < 0) {
		log_err("cannot set up the font: %s", strerror(-r));
		/* A font-file that is missing, unreadable or no font: the configuration's fault, which restarting
		 * cannot mend (the kiosk unit restarted it every 2 s for ever); a font-name that matches nothing
		 * already fell back to the built-in font. */
		app->config_error = r != -ENOMEM;
		return r;
	}
	kf_log_phase("renderer and font ready");
	r = kf_app_apply_palette(app->render, c);
	if (r < 0) {
		log_err("cannot load the palette: %s", strerror(-r));
		app->config_error = r != -ENOMEM;
		stop_drm(app);
		return r;
	}
	r = kf_console_create(app->loop, c, NULL, app->render, &app->console);
	if (r < 0) {
		stop_drm(app);
		return r;
	}
	/* A stop signal while it waited for the VT (--vt=N --no-activate-vt, another VT in front): the seat is not
	 * ours, so opening the display through it would only fail ("no usable display"); the loop's run ends at
	 * once with the signal's status, and stop_drm() closes what is open. */
	if (kf_loop_quitting(app->loop))
		return 0;
	kf_log_phase("seat and input open");
	/* The seat is the one libseat opened (the session's; seat0 for a service, builtin or seatd), which --seat
	 * cannot choose: the display's cards are looked for there, where libinput reads the keyboards. Another
	 * seat named was a console on one seat's display (or on none, waiting for it) typed at from another's
	 * keyboards; and the session (start_session) says this seat to logind. */
	const char *opened = NULL;
	kf_console_has_vt(app->console, &opened);
	if (c->seat && opened && strcmp(c->seat, opened)) {
		log_err("seat %s asked for (--seat), but libseat opened %s: it opens the seat of the session it runs in "
			"(seat0 outside one; kmscon-felis.conf(5), seat)", c->seat, opened);
		app->config_error = true; /* the same seat at every restart */
		stop_drm(app);
		return -EINVAL;
	}
	oc.seat = opened ? opened : c->seat;
	/* Read after the wait for the VT: a reload in it (SIGHUP) may have changed it, and the output does not
	 * exist yet for the reload (reload.c) to tell (the display never blanked). The other live keys are the
	 * renderer's, which the reload reached. */
	oc.dpms_timeout = c->dpms_timeout;
	oc.device_ud = app->console;
	r = kf_output_create(app->loop, app->render, &oc, &ocb, app, &app->output);
	if (r < 0) {
		stop_drm(app);
		return r;
	}
	kf_log_phase("display open");
	/* Counted from here, where the VT is ours (kf_console_create waited for it), and only while it stays in front
	 * (on_front): a console waiting for the user to switch there is not without a display. The first frame
	 * removes it (on_first_frame). */
	if (c->display_wait && !app->ready) {
		app->display_wait = kf_loop_add_timer(app->loop, on_display_wait, app);
		if (!app->display_wait) {
			stop_drm(app);
			return -ENOMEM;
		}
		if (kf_console_in_front(app->console))
			on_front(app, true);
		kf_console_set_front_fn(app->console, on_front, app);
	}
	kf_console_set_output(app->console, app->output);
	kf_output_get_size(app->output, &cols, &rows);
	kf_render_cell_size(app->render, &cw, &ch);
	r = start_session(app, cols, rows);
	if (r < 0) {
		stop_drm(app);
		return r;
	}
	kf_log_phase("session created");
	kf_console_set_session(app->console, app->session);
	if (cols > 0 && rows > 0)
		on_output_resize(app, cols, rows, cw, ch); /* the cell size; the grid has the size already */
	kf_output_set_grid(app->output, kf_session_grid(app->session));
	app->later = kf_loop_add_timer(app->loop, on_later, app);
	if (!app->later) {
		stop_drm(app);
		return -ENOMEM;
	}
	if (cols > 0 && rows > 0)
		kf_timer_arm(app->later, LATER_TIMEOUT_NS, 0);
	else
		start_later(app); /* no display yet: nothing to wait for */
	return 0;
}

static int start_backend(struct kf_app *app)
{
	switch (app->cfg.backend) {
	case KF_BACKEND_HEADLESS:
		return kf_headless_create(app->loop, app->session, app->cfg.input_fifo, &app->headless);
	case KF_BACKEND_DRM:
		return start_drm(app);
	}
	return -ENOTSUP;
}

static bool want_dump(const struct kf_config *c)
{
	return c->backend == KF_BACKEND_HEADLESS && c->dump_screen && c->dump_screen[0];
}

/* Returns 0, or -errno when the screen could not be written (--dump-screen; logged). */
static int stop_backend(struct kf_app *app)
{
	int r = 0;
	/* before the output its flash paints through */
	kf_bell_destroy(app->bell);
	app->bell = NULL;
	if (app->headless && want_dump(&app->cfg))
		r = kf_headless_dump_file(kf_session_grid(app->session), app->cfg.dump_screen);
	kf_headless_destroy(app->headless);
	app->headless = NULL;
	stop_drm(app);
	return r;
}

/* --check-config: what a start finds wrong in the configuration without opening anything (no seat, VT, DRM
 * device or PTY): the palette, and on a display the font (a font-file that cannot be opened is found only
 * there, and a start exits 78 for it). Returns the exit status, 0 or KF_CONFIG_EXIT_USAGE. */
static int check_config(const struct kf_config *c)
{
	uint32_t colors[258];
	int r = kf_app_config_colors(c, colors);
	if (r < 0) {
		log_err("cannot load the palette: %s", strerror(-r));
		return r == -ENOMEM ? EXIT_FAILURE : KF_CONFIG_EXIT_USAGE;
	}
	if (c->backend == KF_BACKEND_DRM) {
		struct kf_render_config rc = kf_app_render_config(c);
		struct kf_render *render = NULL;
		r = kf_render_create(&rc, &render);
		kf_render_destroy(render);
		if (r < 0) {
			log_err("cannot set up the font: %s", strerror(-r));
			return r == -ENOMEM ? EXIT_FAILURE : KF_CONFIG_EXIT_USAGE;
		}
	}
	log_notice("configuration checked: no errors");
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	static const int quit_signals[] = {SIGTERM, SIGINT};
	struct kf_app app = {.argc = argc, .argv = argv};
	int code = EXIT_FAILURE;

	/* One malloc arena for every thread: the keymap's worker (input/keymap-async.c) would otherwise get an arena
	 * of its own, and the keymaps it allocates there and the loop frees later leave that arena's pages resident
	 * (VM test reload-storm: RSS +1.5 MiB over a second storm of 200 reloads, bound 1 MiB). The worker does one
	 * compile at a time, so the shared arena's lock is never contended. */
	mallopt(M_ARENA_MAX, 1);
	kf_log_init();
	int r = kf_config_parse(&app.cfg, argc, argv);
	if (r == KF_CONFIG_EXIT) {
		code = EXIT_SUCCESS;
		goto out_config;
	}
	if (r < 0) {
		code = r == -EINVAL ? KF_CONFIG_EXIT_USAGE : EXIT_FAILURE;
		goto out_config;
	}
	if (app.cfg.check_config) {
		code = check_config(&app.cfg);
		goto out_config;
	}
	kf_log_phase("configuration parsed");
	/* A dump that cannot be written is said before the child runs, not after a whole test run. */
	if (want_dump(&app.cfg) && kf_headless_dump_check(app.cfg.dump_screen) < 0)
		goto out_config;
	/* Before anything is spawned: the child must not inherit NOTIFY_SOCKET (notify.h). */
	kf_notify_init();
	/* Before any descriptor of ours and any child: many input devices pass 1024 (pty.h). */
	pty_raise_fd_limit();
	/* A child that closes its end must not kill us; write errors come back as EPIPE/EIO instead. */
	signal(SIGPIPE, SIG_IGN);

	const char *prof = getenv("KMSCON_FELIS_PROFILE");
	app.profile = prof && *prof && strcmp(prof, "0");
	app.loop = kf_loop_create();
	if (!app.loop) {
		log_err("cannot create the event loop: %s", strerror(errno));
		goto out_config;
	}
	for (size_t i = 0; i < sizeof(quit_signals) / sizeof(quit_signals[0]); i++)
		app.signals[i] = kf_loop_add_signal(app.loop, quit_signals[i], on_quit_signal, &app);
	/* SIGHUP reloads, also in the foreground: the program does not use its controlling terminal (it serves its
	 * own PTY), so a hang-up of the terminal it was started from is no reason to end the console it shows;
	 * SIGTERM and SIGINT stop it. */
	app.reload = kf_loop_add_timer(app.loop, kf_reload_on_timer, &app);
	app.hup = app.reload ? kf_loop_add_signal(app.loop, SIGHUP, kf_reload_on_signal, &app) : NULL;
	if (!app.hup) {
		log_err("cannot watch SIGHUP: %s", strerror(errno ? errno : ENOMEM));
		goto out_loop;
	}
	/* WatchdogSec=: pinged from a loop timer, so a hung loop gets us restarted. */
	kf_notify_watchdog_start(app.loop);
	/* On a display the session is created once the display's size is known (start_drm). */
	if (app.cfg.backend == KF_BACKEND_HEADLESS && start_session(&app, 0, 0) < 0) {
		if (app.config_error)
			code = KF_CONFIG_EXIT_USAGE;
		goto out_loop;
	}
	app.stats_signal = kf_loop_add_signal(app.loop, KF_OUTPUT_STATS_SIGNAL, on_stats_signal, &app);
	if (start_backend(&app) < 0 || kf_app_start_bell(&app) < 0) {
		stop_backend(&app);
		if (app.config_error)
			code = KF_CONFIG_EXIT_USAGE;
		goto out_session;
	}
	/* Headless, the child starts now: started before the FIFO was opened, it ran (and could act) although the
	 * program was failing (tests/kmscon-felis/test-live.py fifo_not_fifo). */
	if (app.headless && kf_session_start(app.session) < 0) {
		/* The bell too, not only the headless backend (it leaked); no dump: no screen was made. */
		kf_bell_destroy(app.bell);
		app.bell = NULL;
		kf_headless_destroy(app.headless);
		app.headless = NULL;
		goto out_session;
	}

	/* Headless has no frame to wait for; the DRM frame loop sends READY=1 after its first page flip
	 * (kf_notify_first_frame). */
	if (app.headless) {
		kf_notify_ready("headless");
		app.ready = true;
	}

	kf_log_phase("event loop started");
	code = kf_loop_run(app.loop);
	kf_notify_stopping();
	if (code < 0) {
		log_err("event loop: %s", strerror(-code));
		code = EXIT_FAILURE;
	}

	/* A script reads the screen and the status: a screen that is not there (or old) is a failure. */
	if (stop_backend(&app) < 0)
		code = EXIT_FAILURE;
	log_stats(&app);
out_session:
	kf_session_destroy(app.session);
out_loop:
	kf_loop_destroy(app.loop);
out_config:
	kf_notify_finish();
	kf_config_finish(&app.cfg);
	return code;
}
