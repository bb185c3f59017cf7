/* kmscon-felis/input-glue.h: keyboards and mice wired to a terminal session.
 *
 * Owns the input/ object on the event loop (libinput's fd, the repeat timer) and decides what each event
 * does: the keys the terminal keeps (Ctrl+Alt+Fn, kmscon's --grab-* shortcuts for scrollback, zoom, VT
 * switching, paste, rotation), the rest encoded with the application's modes and written to the PTY; the pointer
 * (a cursor shown while the mouse moves, hidden when typing), selection (press-drag, double-click word,
 * triple-click line, Shift+click or right click extends and a right drag takes the end along as in xterm, a
 * drag against the top or bottom edge scrolls the history, copy on select into the shared clipboard), paste
 * with the middle button, mouse reports when the application asks (Shift bypasses them), and the wheel
 * (scrollback, or arrow keys on the alternate screen with DECSET 1007).
 *
 * Everything the glue needs from the rest of the program comes through kf_input_glue_ops, so that main.c
 * decides how the session, the renderer, the display and the seat are reached.
 */
#ifndef KF_INPUT_GLUE_H
#define KF_INPUT_GLUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct grid;
struct input;
struct input_config;
struct input_keymap;
struct kf_config;
struct kf_loop;

struct kf_input_glue_ops {
	/* The session's grid, or NULL while there is none. */
	struct grid *(*grid)(void *ud);
	/* Encoded keys and mouse reports for the child (kf_session_write). */
	int (*write)(void *ud, const void *data, size_t len);
	/* A paste (kf_session_paste: bracketed when the child asked). */
	int (*paste)(void *ud, const void *data, size_t len);
	/* Any input: wake the display (drm_backend_notify_input). May be NULL. */
	void (*activity)(void *ud);
	/* The view (scrollback offset, selection) changed: a frame is needed. May be NULL. */
	void (*redraw)(void *ud);
	/* Font size: +1 larger, -1 smaller, 0 back to the configured size. May be NULL. */
	void (*zoom)(void *ud, int step);
	/* Ctrl+Alt+Fn and the session grabs: switch to VT n (kf_seat_switch_vt). May be NULL. */
	void (*switch_vt)(void *ud, int n);
	/* The display's rotation (0 normal, 1 right, 2 inverted, 3 left; kf_pointer_unrotate), for positions from
	 * devices mapped onto the panel. May be NULL (normal). */
	int (*rotation)(void *ud);
	/* The picture's size in pixels (the display as rotation turns it), which devices mapped onto the panel span:
	 * the cells may cover less of it (a strip narrower than a cell right and below them, or a grid that could
	 * not take the display's size), and the pointer stays on the cells. May be NULL, or give 0: the cells'. */
	void (*picture_size)(void *ud, int *width, int *height);
	/* --grab-rotate-cw (+1) / --grab-rotate-ccw (-1): turn the display a quarter. May be NULL. */
	void (*rotate)(void *ud, int step);
	/* Draw (visible) or remove the pointer cursor at pixel x, y of the screen. May be NULL. */
	void (*pointer)(void *ud, bool visible, int x, int y);
	/* Device fds through the seat (kf_seat_open_device / kf_seat_close_device). */
	int (*open_device)(void *ud, const char *path, int flags);
	void (*close_device)(void *ud, int fd);
};

struct kf_input_glue;

/* Compiles the keymap and sets up repeat; no devices yet. cfg (not owned) must outlive the glue: its grabs,
 * xkb, mouse, natural-scrolling and backspace options are read. loop is not owned. Returns 0 and *out, or
 * -errno (logged). */
int kf_input_glue_create(struct kf_loop *loop, const struct kf_config *cfg, const struct kf_input_glue_ops *ops,
			 void *ud, struct kf_input_glue **out);
/* Accepts NULL. */
void kf_input_glue_destroy(struct kf_input_glue *g);

/* Starts libinput on the seat (devices open through ops->open_device). Returns 0 or -errno. */
int kf_input_glue_start(struct kf_input_glue *g, const char *seat);
/* The seat went away / came back. */
void kf_input_glue_suspend(struct kf_input_glue *g);
void kf_input_glue_resume(struct kf_input_glue *g);

/* The cells' area in pixels, where the pointer stays, and the cell size (after a mode set or a zoom); a device
 * mapped onto the panel spans the whole picture (ops.picture_size). A pointer past a smaller area is moved onto
 * its edge at once (drawn there through ops.pointer when shown). */
void kf_input_glue_set_geometry(struct kf_input_glue *g, int width, int height, int cell_width, int cell_height);
/* The child wrote something: the view returns to the bottom of the scrollback (not while the left button of a
 * selection is held: a press or a drag in the history). */
void kf_input_glue_output(struct kf_input_glue *g);

/* A configuration reload, in two steps so that nothing changes unless all of it can (reload.c kf_reload_on_timer):
 * prepare compiles next's keymap (on every reload: its file or /etc/default/keyboard may have been edited; kept
 * only when it differs from the keymap in use) and takes its repeat, changing nothing; done then puts it in use
 * on every keyboard (use) or drops it. See input_keymap_use for held keys, locks, compose and repeat. Neither
 * old nor next is kept. Returns 0 and *out (NULL when neither keymap nor repeat changes; owned by the caller
 * until done, which takes it and accepts NULL), or -errno with the keys, their values and the reason logged
 * when an xkb-model, -layout, -variant, -options or -keymap value changed and the keymap does not compile. With
 * none changed, a keymap that no longer compiles is logged and the one in use stays: 0, the repeat only. g may
 * be NULL (no glue yet: before the first frame): the keymap is only checked, *out stays NULL. */
int kf_input_glue_keymap_prepare(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
				 struct input_keymap **out);
void kf_input_glue_keymap_done(struct kf_input_glue *g, struct input_keymap *km, bool use);
/* prepare with the keymap's compile off the loop (input_keymap_start): the loop runs meanwhile with the keymap in
 * use. Returns 1 when the compile runs: done(ud, r, km) is called from the loop when it ends, with what prepare
 * would have returned (r, and km for keymap_done); next must stay valid until then. Else as prepare: 0 and *out
 * (nothing to compile: done is not called) or -errno. One at a time per glue (-EBUSY); g not NULL. */
typedef void kf_keymap_ready_fn(void *ud, int r, struct input_keymap *km);
int kf_input_glue_keymap_start(struct kf_input_glue *g, const struct kf_config *old, const struct kf_config *next,
			       kf_keymap_ready_fn *done, void *ud, struct input_keymap **out);
/* Ends a compile that runs (waits for the worker), without calling done; nothing to do when none runs. */
void kf_input_glue_keymap_cancel(struct kf_input_glue *g);

/* The configuration the glue reads (kf_input_glue_create's cfg, replaced at the same address by a reload) has
 * new values: what must change before the next event does. mouse=off takes the pointer from the screen at once
 * (ops.pointer, hidden) and forgets the buttons held, as a VT switch away does: their releases will not be
 * seen (a selection's drag would otherwise keep the view from following output). Nothing to do otherwise. */
void kf_input_glue_config_changed(struct kf_input_glue *g);
/* A new login is about to start (the session respawns its child): a dead-key or compose sequence the last one
 * left half typed ends (input_end_sequence), so that the new login's first key is itself. */
void kf_input_glue_new_login(struct kf_input_glue *g);

/* cfg's keyboard keys as input/ takes them (strings not copied: valid while cfg is). */
void kf_input_config_of(const struct kf_config *cfg, struct input_config *ic);

/* The input/ object, owned by the glue (tests inject keys through it). */
struct input *kf_input_glue_input(struct kf_input_glue *g);

#endif
