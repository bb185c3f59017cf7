/* kmscon-felis/input-glue-internal.h: what input-glue.c (keys, the loop's plumbing) and input-pointer.c (the
 * pointer: reports, selection, wheel) share. Not a public header: input-glue.h is the module's. */
#ifndef KF_INPUT_GLUE_INTERNAL_H
#define KF_INPUT_GLUE_INTERNAL_H

#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/input.h"
#include "kmscon-felis/input-glue.h"
#include "kmscon-felis/loop.h"
#include "kmscon-felis/mouse.h"

struct grid;

/* A reload's keymap compiling on input/'s worker (kf_input_glue_keymap_start): set while it runs. */
struct kf_glue_keymap_job {
	struct input_keymap_job *job;
	struct kf_source *src;   /* the job's fd in the loop */
	const struct kf_config *next;
	char changed[512];       /* the keymap keys next changes, for the error ("" none) */
	bool repeat;             /* next changes the repeat */
	kf_keymap_ready_fn *done;
	void *ud;
};

struct kf_input_glue {
	struct kf_loop *loop;
	const struct kf_config *cfg;
	struct kf_input_glue_ops ops;
	void *ud;
	struct input *in;
	struct kf_source *src;
	struct kf_timer *repeat;
	unsigned dispatch_failures; /* libinput dispatches failed in a row, said at the first and its count after */
	struct kf_timer *edge;   /* armed while a selection is dragged against the top or bottom edge */
	unsigned edge_ticks;     /* edge scrolls since the drag reached the edge */
	/* Keys whose press the terminal kept (a grab, a VT switch), a bit per evdev code: set by that press,
	 * cleared by the release, which is kept too (the kitty protocol's event types would send it). */
	uint64_t grabbed[(KEY_MAX + 64) / 64];
	/* Keys whose press went to the application since the seat was last ours, a bit per evdev code: a release
	 * of any other key is dropped (see unpaired_release). */
	uint64_t down[(KEY_MAX + 64) / 64];

	int width, height, cell_w, cell_h;
	double px, py;           /* pointer position in pixels */
	bool pointer_shown;
	unsigned buttons_held;   /* bit per xterm button held: 0..2 and the extra ones, 8..11 */
	/* The buttons held whose press the application had: their drag and release are its own, Shift or not.
	 * Set by a press reported, cleared by any release of it and by a VT switch away. */
	unsigned app_held;
	bool selecting;          /* a button held for a selection drag: the left (select_button 0) or the right (2) */
	int select_button;
	/* A single click's cell: the drag's selection starts there once the pointer leaves it (a click without
	 * a drag selects nothing). Set by the press, cleared by the drag's start or the release. */
	bool drag_pending;
	int press_col, press_row;
	uint64_t press_line;     /* the line pressed (grid_line_at): output may scroll it before the drag starts */
	/* The middle button's press was ours (not reported): its release pastes, as xterm's <Btn2Up>. Set by
	 * that press, cleared by any release of it (reported or not) and by a VT switch away. */
	bool paste_armed;
	/* The right button's press was ours (xterm's start-extend, with a selection or not): its release is
	 * ours too, as the left button's, even once the application asks for reports. Set by that press,
	 * cleared by any press or release of it and by a VT switch away. */
	bool extend_armed;
	struct kf_clicks clicks;
	/* The last reported cell (its pixel under SGR-Pixels), to report motion only when it changes (xterm). */
	int last_col, last_row;
	struct kf_glue_keymap_job keymap; /* keymap.job NULL: none runs */
};

/* The session's grid, or NULL while there is none. */
struct grid *kf_glue_grid(struct kf_input_glue *g);
/* Bytes to the application (the PTY); a key dropped on a full write queue is logged at debug level. */
void kf_glue_send(struct kf_input_glue *g, const void *data, size_t len);
/* Asks the output for a frame (the view or the selection changed). */
void kf_glue_redraw(struct kf_input_glue *g);
/* Moves the scrollback view by delta lines (negative: toward the live screen), redrawing when it moved. */
void kf_glue_scroll_view(struct kf_input_glue *g, int delta);
/* Pastes the clipboard (bracketed as the application asked), the view back at the live screen first. */
void kf_glue_paste(struct kf_input_glue *g);

/* input-pointer.c: input_callbacks' pointer event, and the timer that scrolls a selection dragged against the
 * top or bottom edge (g->edge). */
void kf_glue_on_pointer(void *ud, const struct input_pointer_event *pe);
void kf_glue_edge_scroll(void *ud, struct kf_timer *t);
/* Keeps the pointer on the cells' area (width x height), drawn again there when it is shown: after a move, and
 * after the area changed under it (set_geometry). */
void kf_glue_clamp_pointer(struct kf_input_glue *g);
/* The buttons held are taken as let go, with nothing done for their releases (a selection being dragged stays
 * as it is, not copied): they come where the glue does not see them (another VT), or are ignored (mouse=off). */
void kf_glue_forget_buttons(struct kf_input_glue *g);

#endif
