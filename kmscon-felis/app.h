/* kmscon-felis/app.h: the program's state (struct kf_app), shared by main.c and reload.c only.
 *
 * main.c starts and stops the program; reload.c applies a configuration reload (SIGHUP) to what runs. The
 * kf_app_ functions are main.c's, which the reload needs too: the same palette, font and bell as at start.
 * Not a module's header: nothing outside the program includes it.
 */
#ifndef KF_APP_H
#define KF_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/render/render.h"

struct kf_app {
	struct kf_config cfg;
	bool profile; /* KMSCON_FELIS_PROFILE: time the reading, parsing, painting and presenting (benchmarks) */
	struct kf_loop *loop;
	struct kf_session *session;
	struct kf_source *signals[2];
	struct kf_source *hup;        /* SIGHUP: read the configuration again (reload.c) */
	struct kf_timer *reload;      /* runs the reload after the signal batch: a SIGTERM in it wins */
	int argc;                     /* the command line, read again on reload */
	char **argv;
	bool ready;                   /* READY=1 was sent: a reload may say RELOADING=1 */
	char mode[64];                /* the display mode STATUS= named at the first frame (on_first_frame) */
	struct kf_source *stats_signal; /* KF_OUTPUT_STATS_SIGNAL: log the PTY counters */
	char vtnr[16];                /* XDG_VTNR for the child, "" when the VT is not known */
	char vtname[16];              /* the issue banner's \l: "ttyN", "" when the VT is not known (the PTY's) */
	char seatname[64];            /* XDG_SEAT for the child: the seat libseat opened (start_session) */
	struct kf_headless *headless; /* --backend=headless */
	struct kf_render *render;     /* --backend=drm */
	struct kf_output *output;     /* --backend=drm */
	struct kf_console *console;   /* --backend=drm: seat and input */
	struct kf_timer *later;       /* --backend=drm: the next step of start_later() */
	int later_step;               /* steps of start_later() done */
	struct kf_timer *display_wait; /* --backend=drm, display-wait: exit if no frame by then (on_display_wait) */
	struct kf_bell *bell;         /* what BEL does (bell=); NULL until the backend is up */
	char no_vt[128];              /* why there is no tone (kf_bell_config.no_vt) */
	bool config_error;            /* the start failed on the configuration (a font-file that cannot be
				       * opened): exit with KF_CONFIG_EXIT_USAGE, not 1 (start_drm) */
	/* A reload waiting for its keymap's compile (reload.c): the configuration read and what it applies;
	 * reload_again: a SIGHUP came meanwhile (one more reload when this one ends, with the newest file). */
	bool reload_waiting, reload_again;
	struct kf_config reload_next;
	char reload_applied[1024];
};

/* main.c: the bell from app->cfg once the backend is up (the old one stays on failure); 0 or -errno (logged). */
int kf_app_start_bell(struct kf_app *app);
/* main.c: the visual bell's flash on or off (bell.h kf_bell_ops.flash; ud is the app). */
void kf_app_bell_flash(void *ud, bool on);
/* main.c: the configured palette to the renderer; 0 or -errno. */
int kf_app_apply_palette(struct kf_render *r, const struct kf_config *c);
/* main.c: the same colours for the grid (256 + foreground + background); 0 or -errno. */
int kf_app_config_colors(const struct kf_config *c, uint32_t pal[258]);
/* main.c: the font for systemd's STATUS=, as the configuration names it. */
void kf_app_font_status(const struct kf_app *app, char *font, size_t size);
/* main.c: the font settings of c for the renderer (the strings are c's). */
struct kf_render_config kf_app_render_config(const struct kf_config *c);

/* reload.c: SIGHUP arms app->reload (ud is the app) ... */
void kf_reload_on_signal(void *ud, int signo);
/* ... whose timer reloads after the signal batch, so that a SIGTERM in the same batch wins. */
void kf_reload_on_timer(void *ud, struct kf_timer *t);
/* The shutdown: a reload waiting for its keymap is dropped (the worker waited for), before the console goes. */
void kf_reload_cancel(struct kf_app *app);

#endif
