/* tests/render/screen.h: a hand-built screen for the renderer tests (no grid/ needed), and PNG
 * helpers. */
#ifndef TESTS_RENDER_SCREEN_H
#define TESTS_RENDER_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmscon-felis/render/render.h"

#define SCREEN_MAX_STYLES 256

struct screen {
	int cols, rows;
	struct grid_cell *cells;
	uint32_t *
	    marks; /* one combining mark per cell (0 = none), returned by the codepoints callback */
	struct grid_style styles[SCREEN_MAX_STYLES];
	int nstyles;
	int *dx0, *dx1; /* damage per row, like grid_row_damage */
	struct kf_render_source src;
};

/* Creates a blank screen with style 0 = default. Aborts on allocation failure (tests only). */
struct screen *screen_create(int cols, int rows);
void screen_destroy(struct screen *s);
/* Interns a style and returns its id. */
uint16_t screen_style(struct screen *s, struct grid_style st);
/* Writes UTF-8 text at (x, y) with style id; wide characters take two cells. Returns the next
 * column. */
int screen_text(struct screen *s, int x, int y, const char *utf8, uint16_t style);
/* Sets one cell and damages it. */
void screen_put(struct screen *s, int x, int y, uint32_t cp, uint16_t style, int width);
void screen_damage_clear(struct screen *s);
/* Whether cp is drawn two cells wide (a rough East Asian Wide / emoji table for tests). */
bool screen_wide(uint32_t cp);

/* Renders the whole screen with r into a new XRGB buffer (caller frees); w and h get its size. */
uint32_t *screen_render(struct kf_render *r, struct screen *s, int *w, int *h);
/* Reads a PNG into a new XRGB buffer (caller frees), NULL on failure. */
uint32_t *png_read_xrgb(const char *path, int *w, int *h);
/* The ink of n alpha pixels (a byte each): their sum. */
long alpha_ink(const uint8_t *p, size_t n);

/* What the code between the two calls writes to stderr (the program's log goes there): stderr_capture_begin
 * sends it to a temporary file (returns a token, -1 on failure), stderr_capture_end puts it back and the text
 * into buf (NUL-terminated, cut at n - 1 bytes). */
int stderr_capture_begin(void);
void stderr_capture_end(int token, char *buf, size_t n);

/* Writes an 8-pixel-wide BDF font (FreeType reads it as a font of one bitmap strike) of the n code points cps,
 * asc + desc rows high with its baseline asc rows down, in the encoding registry-encoding ("ISO10646", "1" is
 * Unicode; FreeType gives a font of any other but ISO8859-1 no Unicode map); row y of cp's glyph is the byte
 * bits(cp, y), its leftmost pixel the top bit. */
void bdf_write(const char *path, const char *registry, const char *encoding, int asc, int desc, const uint32_t *cps,
	       int n, uint8_t (*bits)(uint32_t cp, int y));

#endif
