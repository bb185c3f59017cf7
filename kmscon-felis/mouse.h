/* kmscon-felis/mouse.h: mouse reports for applications (xterm's mouse tracking) and click counting.
 * Pure functions and a small value type: no I/O.
 *
 * Reference: xterm ctlseqs, "Mouse Tracking": X10 (DECSET 9: presses only), normal (1000: presses and
 * releases), button-event (1002: also motion with a button held), any-event (1003: all motion); encodings:
 * the default "CSI M Cb Cx Cy" (values + 32, coordinates up to 223, beyond that a 0 byte as in xterm), UTF-8
 * (1005, up to 2015, beyond that 0 likewise), SGR (1006:
 * "CSI < Cb ; Cx ; Cy M" or "m" for a release), urxvt (1015: "CSI Cb+32 ; Cx ; Cy M") and SGR-Pixels (1016: SGR
 * with the pointer's pixel, 1-based as xterm sends it, for its cell).
 */
#ifndef KF_MOUSE_H
#define KF_MOUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid/grid.h"

enum kf_mouse_action {
	KF_MOUSE_PRESS,
	KF_MOUSE_RELEASE,
	KF_MOUSE_MOTION,
};

/* Buttons as xterm numbers them: 0 left, 1 middle, 2 right, 3 none (motion without a button), 4..7 wheel
 * up/down/left/right, 8..11 the extra buttons. */
struct kf_mouse_report {
	enum kf_mouse_action action;
	int button;
	int col, row;    /* 0-based cell */
	int x, y;        /* 0-based pixel on the text area, for SGR-Pixels */
	unsigned mods;   /* enum input_mod bits: Shift, Alt (Meta), Ctrl are reported */
	bool any_button_held; /* for motion: whether some button is down (mode 1002 reports only then) */
};

/* Writes the report the application asked for into out (cap >= 32 always suffices). Returns the length, or 0
 * when this mode does not report this event. */
size_t kf_mouse_encode(enum grid_mouse_mode mode, enum grid_mouse_encoding enc, const struct kf_mouse_report *r,
		       uint8_t *out, size_t cap);

/* The last 0-based cell (column or row) the encoding tells apart from the next: the legacy ones send every
 * place from there on as the same past-end marker (a 0 byte), so that motion there is no move (INT_MAX for
 * the others). */
int kf_mouse_last_cell(enum grid_mouse_encoding enc);

/* Double and triple clicks: presses of the same button within the interval, each near the one before (the same
 * cell, or a few pixels away: a press on a cell's edge may land in the next cell), with the pointer kept near
 * in between (a trip elsewhere or a drag starts again). A press of another button starts again too (xterm). */
#define KF_CLICK_INTERVAL_USEC 400000u
#define KF_CLICK_SLOP_PX 4
/* Where the pointer is: its cell and its pixel on the screen. */
struct kf_click_pos {
	int col, row;
	int x, y;
};
struct kf_clicks {
	uint64_t last_usec;
	struct kf_click_pos at; /* the last press */
	int button;
	int count;              /* 0 once the pointer left the last press */
};
/* Records a press; returns 1, 2 or 3 (a fourth click starts again at 1). */
int kf_clicks_press(struct kf_clicks *c, uint64_t time_usec, int button, struct kf_click_pos at);
/* The pointer moved: away from the last press, the next press is a first click. */
void kf_clicks_motion(struct kf_clicks *c, struct kf_click_pos at);

/* The pointer on a turned display (rotate=, numbered 0 normal, 1 right, 2 inverted, 3 left). The picture stands
 * upright for whoever looks at the panel as it is mounted, and the pointer lives in the picture's coordinates.
 * A device mapped onto the panel (a touchscreen, a tablet, a virtual machine's tablet) reports positions across
 * the panel as mounted, u and v from 0 to 1: *x and *y (0 to 1 across the picture) are where the picture shows
 * under that point. Relative motion (a mouse on a desk) needs no turning: moving it to the right moves the
 * pointer to the right of the upright picture, as the user sees it. */
void kf_pointer_unrotate(int rotation, double u, double v, double *x, double *y);

#endif
