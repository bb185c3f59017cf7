/* kmscon-felis/output.h: the display output and the frame loop (--backend=drm).
 *
 * Wires drm/ (one canvas shown on every connected connector, or on a framebuffer device when there is no DRM
 * display or with no_drm), the renderer and the grid on the event loop:
 *  - output from the child only marks grid damage; a prepare hook renders once per loop iteration, and only
 *    when something is damaged and an output can take a frame (no flip in flight, at most one per refresh);
 *  - a page-flip event wakes the loop, and the hook renders again if damage came in meanwhile; under a flood the
 *    loop keeps draining the PTY and a frame is shown once per refresh;
 *  - synchronized output (DECSET 2026) holds the frame until it ends or 150 ms pass;
 *  - blinking text and cursors flip on a timer that runs only while something blinks on the lit display
 *    (blink.h); a flip requests a frame like any other change;
 *  - a notice (a paste or keys refused while a program runs) is drawn over the screen by the renderer for a few
 *    seconds, its text changed at most once a second (notice.h), never written to the grid;
 *  - the canvas keeps the whole picture, so a frame paints only the damaged cells; drm/ copies the union of
 *    damage over each scan-out buffer's age from it.
 * The grid size follows the canvas (the smallest connected display): the resize callback tells the session.
 */
#ifndef KF_OUTPUT_H
#define KF_OUTPUT_H

#include <signal.h>
#include <stdbool.h>

struct kf_loop;
struct kf_render;
struct grid;
struct kf_output;

struct kf_output_config {
	unsigned mode_width, mode_height; /* --mode WxH; 0x0: the preferred mode */
	bool use_original_mode;           /* --use-original-mode: keep each display's mode at start (mode wins) */
	unsigned dpms_timeout;            /* --dpms-timeout seconds; 0 = never */
	const char *seat;                 /* udev seat of the cards; NULL = seat0. Copied. */
	bool legacy;                      /* force the legacy KMS API (KMSCON_FELIS_DRM_LEGACY=1 does too) */
	bool no_drm;                      /* --no-drm: only a framebuffer device (/dev/fbN), no DRM card */
	int rotation;                     /* --rotate: 0 normal, 1 right, 2 inverted, 3 left (enum drm_rotation) */
	/* KMSCON_FELIS_PROFILE: also time each frame's painting and presenting apart (their wall and CPU times
	 * in the counters kf_output_log_stats prints); otherwise only the frame's CPU time, which paces frames. */
	bool profile;
	/* Device access through the seat (libseat): returns an fd or -errno; NULL = open(2)/close(2). */
	int (*open_device)(const char *path, void *ud);
	void (*close_device)(int fd, void *ud);
	/* The seat enabled us and our VT is in front (drm_backend_iface.display_ours): a card refusing DRM master is
	 * held by someone else then, and asked again. NULL: a refusal waits for the seat's next enable. */
	bool (*display_ours)(void *ud);
	void *device_ud;
};

struct kf_output_callbacks {
	/* The display size changed (hotplug, first display found): cols x rows cells of cell_w x cell_h pixels fit.
	 * The session resizes its grid; the output then repaints everything. May be NULL. */
	void (*resize)(void *ud, int cols, int rows, int cell_w, int cell_h);
	/* The first frame is on screen (its page flip completed), once per output: mode is "WxH@R.RRHz" (the
	 * canvas and the first output's refresh; not retained). The program sends READY=1 here. May be NULL. */
	void (*first_frame)(void *ud, const char *mode);
};

/* Starts the DRM backend and the frame loop on loop. render is not owned and must outlive the output. cfg and
 * cb are copied. No display is not an error (it waits for one through udev); an unsupported --mode is
 * (-EINVAL, logged with the modes available). Returns 0 and *out, or -errno. */
int kf_output_create(struct kf_loop *loop, struct kf_render *render, const struct kf_output_config *cfg,
		     const struct kf_output_callbacks *cb, void *ud, struct kf_output **out);
/* Accepts NULL. Logs the frame counters at info level. */
void kf_output_destroy(struct kf_output *o);

/* The grid to show (not owned; NULL detaches). The next frame repaints everything. */
void kf_output_set_grid(struct kf_output *o, struct grid *g);
/* Cells that fit on the display now; 0x0 while there is none. */
void kf_output_get_size(const struct kf_output *o, int *cols, int *rows);
/* The display's size in pixels; 0x0 while there is none. */
void kf_output_get_pixels(const struct kf_output *o, int *width, int *height);
/* Whether the frame loop could render a frame at its next run, were the grid damaged and DECSET 2026 not in force:
 * a grid shown, the display present, lit (not DPMS-blanked) and ours (not suspended), no flip in flight and the
 * refresh's slot come (drm_backend_can_render; or the flip's event come, not yet dispatched: looked for at most
 * once a millisecond), the FRAME_COST_FACTOR pacing past; and no frame claimed since the last one rendered. True
 * claims it: the next true comes only after a frame is rendered (or after the frame loop's next run, the next two
 * when the flip's event was still to be dispatched, did not render one). The session's
 * frame_ready (session.h): the end of a synchronized update ends the PTY's drain only then, so that this frame
 * shows the update whole, once per frame; a flood of updates costs no loop iteration each while no frame can be
 * taken (a flip in flight, headless). */
bool kf_output_claim_frame(struct kf_output *o);
/* Something outside the grid's damage changed (blink phase, pointer, palette, zoom): render at the next
 * opportunity. all: repaint everything. */
void kf_output_request_frame(struct kf_output *o, bool all);
/* The visual bell (bell.h): the screen shown inverted (on) or normal again, at the next frame, through the
 * renderer's reverse-video path (kf_render_set_flash); a frame like any other change (one per refresh), but no
 * activity: it does not wake a blanked display. Off is put off until the flash has been on the screen as long
 * as it was asked for, from the first frame that showed it (flash.h: a DECSET 2026 hold may have kept every
 * frame back); the output's own timer ends it then. */
void kf_output_set_flash(struct kf_output *o, bool on);
/* A notice over the screen (session.h's notice callback: a paste or keys refused while a program runs): text
 * (not kept) drawn by the renderer over the top row, or the bottom one when the cursor is on the top row
 * (kf_render_set_notice), never written to the grid; its row is painted from the grid again when it goes,
 * KF_NOTICE_SHOW_NS after it was last asked for. Its text changes at most once per KF_NOTICE_GAP_NS and the
 * same text asked again changes nothing (notice.h), so a flood of refusals repaints one row at most once a
 * second. A frame like any other change, but no activity. */
void kf_output_show_notice(struct kf_output *o, const char *text);

/* Turns the display by step quarters (+1 clockwise, -1 counter-clockwise), as a hotplug would change it: the
 * grid takes the turned size through the resize callback (the program gets SIGWINCH) and the next frame repaints
 * everything. */
void kf_output_rotate(struct kf_output *o, int step);
/* The rotation now (0 normal, 1 right, 2 inverted, 3 left). */
int kf_output_get_rotation(const struct kf_output *o);

/* For after the first frame, when nothing waits: makes the display buffers later frames would otherwise make
 * (drm_backend_prepare_buffers). */
void kf_output_prepare(struct kf_output *o);

/* --dpms-timeout changed (a configuration reload): seconds, 0 = never, counted from now. */
void kf_output_set_dpms_timeout(struct kf_output *o, unsigned seconds);
/* Input activity: resets the DPMS timer and wakes a blanked display. Cheap: call it on every input event. */
void kf_output_notify_input(struct kf_output *o);
/* The seat took the display away / gave it back (VT switch). After resume the first commit is a full modeset
 * that also disables the CRTCs and planes we do not use. */
void kf_output_suspend(struct kf_output *o);
void kf_output_resume(struct kf_output *o);

/* Logs the frame counters (flips, modesets, presents, watchdog, DECSET 2026 holds and timeouts) and the
 * CLOCK_MONOTONIC time in ms at notice level: on KF_OUTPUT_STATS_SIGNAL (SIGRTMIN+1, signal 35 with glibc) and
 * at exit; tests read them from the log. */
#define KF_OUTPUT_STATS_SIGNAL (SIGRTMIN + 1)
void kf_output_log_stats(const struct kf_output *o);

#endif
