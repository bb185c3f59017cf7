/* grid/grid-rect.h: the VT420 rectangular area functions (grid-rect.c: DECRQCRA; grid-rect-edit.c: DECCRA,
 * DECFRA, DECERA, DECSERA, DECCARA, DECRARA, DECSACE). Not a public header. */
#ifndef GRID_GRID_RECT_H
#define GRID_GRID_RECT_H

#include <stdbool.h>

#include "grid/grid-internal.h"

/* A rectangle of the screen, 0-based and inclusive. */
struct grid_rect {
	int y0, x0, y1, x1;
};

/* The area rectangles are read in and clipped to: the margins in origin mode (DECOM), else the screen. */
void grid__rect_area(const struct grid *g, struct grid_rect *a);

/* The rectangle in parameters first..first+3 (Pt ; Pl ; Pb ; Pr) as DECFRA and the others read it: defaults
 * for omitted or 0 edges, origin mode, clipped to the screen or the margins. False when it is empty. */
bool grid__rect_parse(const struct grid *g, const struct vt_csi *csi, unsigned first, struct grid_rect *r);

/* CSI with intermediate inter and final byte final: DECSACE (* x) and the $ functions above. False when it
 * is none of them. */
bool grid__rect_csi(struct grid *g, const struct vt_csi *csi, uint8_t inter, uint8_t final);

#endif
