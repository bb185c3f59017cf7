/* grid/grid-palette.h: what grid-palette.c gives grid-osc.c, internal to grid/: the palette's OSC functions,
 * which grid-osc.c's dispatcher calls with the string after the code's ';' (s[0..len), not terminated), and the
 * hex digit both read. */
#ifndef GRID_GRID_PALETTE_H
#define GRID_GRID_PALETTE_H

#include <stddef.h>

struct grid;

/* OSC 4 ; c ; spec [; c ; spec ...]: sets or ("?") queries palette entries. */
void grid__osc_palette(struct grid *g, const char *s, size_t len);
/* OSC 104 [; c ...]: resets the entries listed, all 256 when none is. */
void grid__osc_palette_reset(struct grid *g, const char *s, size_t len);
/* OSC 10/11/12 (which) ; spec [; spec ...]: sets or queries the default foreground, background, cursor. */
void grid__osc_dynamic(struct grid *g, int which, const char *s, size_t len);
/* OSC 110/111/112: resets the colour OSC which (10, 11, 12) sets. */
void grid__osc_dynamic_reset(struct grid *g, int which);
/* The value of the hex digit c, or -1. */
int grid__hexval(char c);

#endif
