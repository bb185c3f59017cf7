/* kmscon-felis/console.h: the seat and the input of --backend=drm, wired to the session, the renderer and the
 * display output.
 *
 * Start-up order (main.c): kf_console_create (opens the seat, waiting for our VT if needed), then the output
 * with kf_console_open_device/kf_console_close_device as its device callbacks, then kf_console_set_output;
 * once the first frame is on screen, kf_console_load_keymap and kf_console_start_input (the keymap and
 * libinput are not needed for the first frame, and under a slow CPU they take as long as everything before it).
 * From then on a seat disable suspends the output and libinput and acknowledges; an enable resumes both
 * (full modeset, devices reopened). Keys and the mouse go through kmscon-felis/input-glue.
 */
#ifndef KF_CONSOLE_H
#define KF_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct kf_config;
struct kf_console;
struct kf_loop;
struct kf_output;
struct kf_render;
struct kf_session;

/* Opens the seat; returns once the seat is ours (or the loop is quitting). session may be NULL (see
 * kf_console_set_session). None of loop, cfg, session, render is owned; all must outlive the console. Returns 0 and *out, or -errno (logged). */
int kf_console_create(struct kf_loop *loop, const struct kf_config *cfg, struct kf_session *session,
		      struct kf_render *render, struct kf_console **out);
/* Compiles the keymap; nothing the second time. Returns 0 or -errno (logged). */
int kf_console_load_keymap(struct kf_console *c);
/* Compiles the keymap if not done yet and starts libinput (now if the seat is ours, else at its next enable);
 * nothing the second time. Returns 0 or -errno (logged). */
int kf_console_start_input(struct kf_console *c);
/* A reload's keyboard keys, in two steps (reload.c kf_reload_on_timer): prepare compiles next's keymap and repeat
 * (kept when they differ from those in use) and keeps them pending, changing nothing; returns 0, or
 * -errno with the keys, their values and the reason logged (the old keymap stays). cur is the configuration in
 * force. Before the keymap was first loaded (the first frame), or with c NULL (the console waits for its VT),
 * next's keymap is only checked (the input module loaded for it): it will be made from next then. commit puts
 * the pending keymap in use on every keyboard (use) or drops it; accepts NULL and nothing pending. next is not
 * kept. */
int kf_console_keymap_prepare(struct kf_console *c, const struct kf_config *cur, const struct kf_config *next);
void kf_console_keymap_commit(struct kf_console *c, bool use);
/* prepare with the compile off the loop (the input module's worker), while the keymap in use serves: returns 1
 * when it runs, and ready(ud, r) is called from the loop when it ends, with prepare's result (0: the keymap is
 * pending for commit). Else as prepare (no glue yet: prepare itself; nothing to compile): ready is not called.
 * commit, or another start, ends a compile that runs without calling ready. */
int kf_console_keymap_start(struct kf_console *c, const struct kf_config *cur, const struct kf_config *next,
			    void (*ready)(void *ud, int r), void *ud);
/* Accepts NULL. Closes the input devices and the seat (destroy the output first: it closes its cards through
 * the seat). */
void kf_console_destroy(struct kf_console *c);

/* The output to suspend/resume and to notify; not owned. NULL detaches (before destroying the output). */
void kf_console_set_output(struct kf_console *c, struct kf_output *o);
/* The session keys and the mouse go to, when kf_console_create was given NULL (main.c creates it once the
 * display's size is known); not owned; set before kf_console_load_keymap. */
void kf_console_set_session(struct kf_console *c, struct kf_session *s);

/* fn(ud, front) after every seat enable (true) and disable (false), once the console has acted on it; NULL
 * stops. main.c counts display-wait only while the VT is in front. */
void kf_console_set_front_fn(struct kf_console *c, void (*fn)(void *ud, bool front), void *ud);
/* Our VT is the one shown: the seat is ours and not switched away. Accepts NULL (false). */
bool kf_console_in_front(const struct kf_console *c);
/* Whether the seat has VTs (seat0, the only one logind gives VTs; docs/seat.md): a tone asked of /dev/tty0 from
 * another seat would sound on seat0's. Sets *name to the seat's name (NULL before libseat opened it). */
bool kf_console_has_vt(const struct kf_console *c, const char **name);

/* Device callbacks for kf_output_config (ud is the console). */
int kf_console_open_device(const char *path, void *ud);
void kf_console_close_device(int fd, void *ud);
/* The output's display_ours: the seat enabled us and our VT is in front (kf_seat_in_front). */
bool kf_console_display_ours(void *ud);

/* Zoom: sets render's scale and session's size for a display of width x height pixels, both or neither. When
 * the session cannot take the new size (the grid out of memory), or a cell is wider or higher than the display
 * (-ERANGE: not one column or row would fit), the old scale comes back and every part (the renderer, the grid,
 * the child's TIOCSWINSZ) keeps the old size: returns -errno (logged). Else 0 and the new size in *cols, *rows
 * cells of *cell_w x *cell_h pixels (0x0 cells without a display: the grid keeps its size until there is one).
 * Also how a reloaded font is fitted (reload.c reload_font): a font too big for the screen is refused there. */
int kf_console_rescale(struct kf_render *render, struct kf_session *session, int scale, int width, int height,
		       int *cols, int *rows, int *cell_w, int *cell_h);
/* The display now fits *cols x *rows cells of cell_w x cell_h pixels (a display plugged or unplugged, the first
 * one found): resizes the session to it. When the grid cannot take it (out of memory, past GRID_MAX_DIM), the
 * grid and the child keep the old size (logged). Sets *cols and *rows to the grid's size, the one to tell
 * kf_console_resized. */
void kf_console_fit_session(struct kf_session *session, int *cols, int *rows, int cell_w, int cell_h);
/* The grid was resized to cols x rows cells of cell_w x cell_h pixels (pointer positions follow). */
void kf_console_resized(struct kf_console *c, int cols, int rows, int cell_w, int cell_h);
/* The child wrote output: the view returns to the bottom of the scrollback. */
void kf_console_output(struct kf_console *c);
/* A reload replaced the configuration (kf_input_glue_config_changed): mouse=off hides the pointer now. */
void kf_console_config_changed(struct kf_console *c);
/* The session is about to start a new login (kf_input_glue_new_login): a half-typed compose sequence ends. */
void kf_console_new_login(struct kf_console *c);

#endif
