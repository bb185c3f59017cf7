/* kmscon-felis/reload.c: a configuration reload (SIGHUP, systemctl reload) applied to the running program.
 *
 * kf_config_reload (config-reload.c) reads the configuration again and says which live keys changed; this
 * applies them: the keymap (compiled off the loop first, committed last), the font, the palette, the bell, the
 * blanking, and tells systemd RELOADING=1 then READY=1 (when the keymap's compile is done). Everything that can
 * fail is tried before anything changes, so a reload applies whole or not at all.
 */
#define LOG_TAG "main"
#include <errno.h>
#include <string.h>

#include "grid/grid.h"
#include "kmscon-felis/app.h"
#include "kmscon-felis/bell.h"
#include "kmscon-felis/console.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/notify.h"
#include "kmscon-felis/output.h"
#include "kmscon-felis/session.h"

/* The palette and colour keys again: the renderer's (display) and the grid's defaults (what OSC 4/10/11 report;
 * the colours the child set itself stay). Returns 0 or -errno (logged). */
static int reload_palette(struct kf_app *app)
{
	uint32_t colors[258];
	int r = kf_app_config_colors(&app->cfg, colors);
	if (r == 0 && app->render)
		r = kf_app_apply_palette(app->render, &app->cfg);
	if (r < 0) {
		log_err("reload: cannot load the palette: %s", strerror(-r));
		return r;
	}
	if (app->session)
		grid_set_palette_defaults(kf_session_grid(app->session), colors);
	if (app->output)
		kf_output_request_frame(app->output, true);
	return 0;
}

/* The font keys of next on the display, at the current zoom; the grid takes the new cell count and the program
 * gets SIGWINCH, as after a zoom. On failure the old font stays. Returns 0 or -errno (logged). */
static int reload_font(struct kf_app *app, const struct kf_config *next)
{
	struct kf_render_config rc = kf_app_render_config(next);
	int cols = 0, rows = 0, cw, ch, w = 0, h = 0;
	int r = kf_render_set_font(app->render, &rc);
	if (r < 0)
		return r;
	if (app->output)
		kf_output_get_pixels(app->output, &w, &h);
	if (app->session && w > 0 && h > 0) {
		r = kf_console_rescale(app->render, app->session, kf_render_get_scale(app->render), w, h, &cols,
				       &rows, &cw, &ch);
		if (r < 0) {
			/* The grid kept its size (logged): so does the font, or the two would disagree. */
			rc = kf_app_render_config(&app->cfg);
			if (kf_render_set_font(app->render, &rc) < 0)
				log_err("reload: the renderer cannot go back to the old font");
			return r;
		}
		if (cols > 0 && rows > 0 && app->console)
			kf_console_resized(app->console, cols, rows, cw, ch);
	}
	if (app->output)
		kf_output_request_frame(app->output, true);
	return 0;
}

/* Whether the comma-separated list has name (or, with a trailing '-', a word starting so). */
static bool has_key(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p; p += strspn(p, ", ")) {
		size_t w = strcspn(p, ",");
		if (name[n - 1] == '-' ? w >= n && !memcmp(p, name, n) : w == n && !memcmp(p, name, n))
			return true;
		p += w;
	}
	return false;
}

/* The rest of a reload once its keymap is compiled (r: kf_console_keymap_prepare's result, the keymap pending):
 * the font, which can still fail, then everything committed. */
static void reload_apply(struct kf_app *app, int r)
{
	struct kf_config *next = &app->reload_next;
	const char *applied = app->reload_applied;

	if (r < 0) {
		kf_config_reload_cancel(&app->cfg, next);
		log_err("reload: kept the old configuration (the new keymap %s%s)",
			r == -EINVAL ? "does not compile" : "cannot be loaded: ", r == -EINVAL ? "" : strerror(-r));
		return;
	}
	bool font = app->render && has_key(applied, "font-");
	if (font && (r = reload_font(app, next)) < 0) {
		kf_console_keymap_commit(app->console, false);
		kf_config_reload_cancel(&app->cfg, next);
		log_err("reload: kept the old configuration (the new font: %s)",
			r == -ERANGE ? "its cells are larger than the screen at the zoom in force" : strerror(-r));
		return;
	}
	kf_config_finish(&app->cfg);
	app->cfg = *next; /* same address: the console and input keep their pointer */
	kf_console_keymap_commit(app->console, true);
	if (font && app->ready) {
		/* systemctl status named the old font until a restart */
		char desc[160];
		kf_app_font_status(app, desc, sizeof(desc));
		kf_notify_first_frame(app->mode, desc);
	}
	if (has_key(applied, "palette") || has_key(applied, "palette-"))
		reload_palette(app);
	/* (no bell yet: kf_app_start_bell() reads app->cfg when the backend is up) */
	if (has_key(applied, "bell") && app->bell && kf_app_start_bell(app) == 0)
		kf_app_bell_flash(app, false); /* a flash that was showing: its timer went with the old bell */
	/* the input code reads mouse per event, but a pointer on the screen waits for no event to go */
	if (has_key(applied, "mouse"))
		kf_console_config_changed(app->console);
	if (has_key(applied, "dpms-timeout") && app->output)
		kf_output_set_dpms_timeout(app->output, app->cfg.dpms_timeout);
	/* The key Backspace sends and the tty's erase character go together, both given to a login as it starts: the
	 * one running keeps its pair (a ^H its tty does not erase with would be typed at its prompt). */
	if (has_key(applied, "backspace-delete") && app->session) {
		kf_session_set_backspace(app->session, !app->cfg.backspace_delete);
		log_notice("reload: backspace-delete=%s applies from the next login (the running one keeps its "
			   "Backspace and erase character)", app->cfg.backspace_delete ? "on" : "off");
	}
	log_notice("configuration reloaded: applied %s", applied[0] ? applied : "nothing (no live key to apply changed)");
}

/* The keymap's worker is done (kf_console_keymap_start): the reload goes on from where it waited. */
static void keymap_ready(void *ud, int r)
{
	struct kf_app *app = ud;

	app->reload_waiting = false;
	kf_config_reload_swap(&app->cfg, &app->reload_next); /* as kf_config_reload left them */
	reload_apply(app, r);
	kf_session_trim_soon(app->session); /* the compile's garbage, an old font's caches */
	if (app->ready)
		kf_notify_ready(NULL);
	if (app->reload_again) {
		app->reload_again = false;
		kf_timer_arm(app->reload, 1, 0);
	}
}

/* SIGHUP (systemctl reload): the configuration read again as at start; what can change live is applied, the
 * rest keeps its old value (kf_config_reload says which). A broken file changes nothing. Mouse, scrolling
 * and the grabs need nothing more: the input code reads them through &app->cfg per event (mouse=off also hides
 * the pointer at once, reload_apply). Backspace waits for the next login (reload_apply).
 *
 * The steps that can still fail, and then nothing has changed yet: the keymap is compiled (kept pending), then
 * the font is loaded (a file that will not open, cells larger than the screen). A failure undoes the reload
 * whole. The keymap compiles on the input module's worker while the loop runs on (keys with the old keymap, the
 * programs' output, frames): the reload waits in app->reload_next, app->cfg all in force meanwhile, and goes on
 * in keymap_ready. A SIGHUP while it waits makes one more reload after it, which reads the file again. */
void kf_reload_on_timer(void *ud, struct kf_timer *t)
{
	struct kf_app *app = ud;
	(void)t;
	if (kf_loop_quitting(app->loop))
		return; /* systemd's stop sends SIGHUP right after SIGTERM (SendSIGHUP=yes) */
	if (app->reload_waiting) {
		app->reload_again = true;
		return;
	}
	if (app->ready)
		kf_notify_reloading();
	/* Every live key, if all change at once: 46 names, about 800 bytes (has_key must not miss a cut one). */
	int r = kf_config_reload(&app->cfg, &app->reload_next, app->argc, app->argv, app->reload_applied,
				 sizeof(app->reload_applied));
	if (r < 0) {
		log_err("reload: kept the old configuration (%s)",
			r == -EINVAL ? "the error is above" : strerror(-r));
		goto out;
	}
	if (app->cfg.backend != KF_BACKEND_HEADLESS) {
		kf_config_reload_swap(&app->cfg, &app->reload_next); /* app->cfg whole while the keymap compiles */
		r = kf_console_keymap_start(app->console, &app->cfg, &app->reload_next, keymap_ready, app);
		if (r == 1) {
			app->reload_waiting = true;
			return; /* READY=1 when it ends */
		}
		kf_config_reload_swap(&app->cfg, &app->reload_next);
	}
	reload_apply(app, r);
	kf_session_trim_soon(app->session);
out:
	if (app->ready)
		kf_notify_ready(NULL);
}

void kf_reload_cancel(struct kf_app *app)
{
	if (!app->reload_waiting)
		return;
	kf_console_keymap_commit(app->console, false); /* waits for the worker */
	app->reload_waiting = app->reload_again = false;
	kf_config_reload_swap(&app->cfg, &app->reload_next);
	kf_config_reload_cancel(&app->cfg, &app->reload_next);
}

void kf_reload_on_signal(void *ud, int signo)
{
	struct kf_app *app = ud;
	(void)signo;
	kf_timer_arm(app->reload, 1, 0);
}
