/* kmscon-felis/render/render.h: fonts and the cell painter.
 *
 * A kf_render turns grid cells into pixels: it owns a font (fontconfig + FreeType with per-glyph
 *fallback, a PSF console font, or the built-in 8x16 bitmap font), a bounded glyph cache, the colour
 *palette and the painter. It never reads or clears the grid's damage by itself: the caller (the
 *frame loop) decides which rows to paint, typically the union of the damage since the target buffer
 *was last shown (buffer age), and clears the grid's damage after collecting it.
 *
 * Typical frame:
 *	kf_render_source_from_grid(&src, grid);
 *	kf_render_damage_clear(&frame);
 *	kf_render_collect_damage(r, &src, &frame);   // grid damage + cursor/blink/pointer changes
 *	grid_damage_clear(grid);
 *	... union frame with the damage of the frames the buffer missed (buffer age) into &d ...
 *	n = kf_render_paint(r, &src, &d, &target, rects, max);
 *
 * The renderer is single-threaded; none of its functions may be called concurrently on one
 *kf_render.
 */
#ifndef KF_RENDER_RENDER_H
#define KF_RENDER_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid/grid.h"

/* Characters that show nothing whatever the font (drawn as an empty glyph): the spaces (Zs but U+1680, which has
 * ink) and the Hangul fillers (U+115F, U+3164, U+FFA0: they take cells, and fonts without them drew the
 * missing-glyph box). Shared with what decides whether a blinking cell shows a change (blink.c). */
static inline bool kf_render_cp_blank(uint32_t cp)
{
	return cp == 0 || cp == ' ' || cp == 0xa0 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200b) ||
	       cp == 0x202f || cp == 0x205f || cp == 0x115f || cp == 0x3164 || cp == 0xffa0;
}

enum kf_render_engine { /* config.h's enum kf_font_engine maps onto this */
			KF_RENDER_ENGINE_AUTO = 0, /* fontconfig + FreeType; the built-in font when
						      that finds nothing */
			KF_RENDER_ENGINE_FREETYPE, /* same as AUTO (font_file, when set, is opened
						      directly) */
			KF_RENDER_ENGINE_PSF, /* font_file is a PSF1/PSF2 console font, optionally
						 gzip-compressed */
			KF_RENDER_ENGINE_BUILTIN, /* the built-in 8x16 font */
};

struct kf_render_config {
	enum kf_render_engine engine;
	const char *font_name; /* fontconfig pattern; NULL = "monospace" */
	const char *font_file; /* PSF file, or a font file for FreeType; NULL = none */
	int font_size;	       /* pixels, 0 = 16; 1..512 (bitmap fonts keep their own size) */
	int scale;	       /* integer zoom, 0 = 1; 1..8, font_size x scale at most 1024 */
	const char *palette;   /* kmscon palette name; NULL = "default" */
	size_t cache_glyphs;   /* glyph cache capacity in glyphs, 0 = 4096 */
};

struct kf_render;

/* Creates a renderer. cfg may be NULL (defaults); the strings in it are copied. Returns 0 and sets
 * *out, or -EINVAL (bad size, scale, engine or palette name), -ENOENT (font file missing), -EBADMSG
 * (font file is not a font of that engine), -ENOMEM. A fontconfig lookup that finds nothing falls
 * back to the built-in font with a warning instead of failing. The caller owns *out and frees it
 * with kf_render_destroy(). */
int kf_render_create(const struct kf_render_config *cfg, struct kf_render **out);
/* Accepts NULL. */
void kf_render_destroy(struct kf_render *r);

/* Cell size in pixels at the current scale. */
void kf_render_cell_size(const struct kf_render *r, int *w, int *h);
/* Which engine is in use after fallbacks (AUTO and FREETYPE report FREETYPE). */
enum kf_render_engine kf_render_get_engine(const struct kf_render *r);
/* Integer zoom 1..8: changes the cell size and flushes the glyph cache. Returns 0 or -EINVAL. The
 * caller resizes the grid and repaints everything afterwards. */
int kf_render_set_scale(struct kf_render *r, int scale);
int kf_render_get_scale(const struct kf_render *r);
/* A display of width x height pixels (> 0; 0: none, nothing to do) that a cell at the zoom and font in force
 * is wider or higher than (font-size=400 on a small screen, a smaller display plugged in, the first display
 * found after the font was set): the zoom goes back to x1, then a FreeType font larger than the default goes
 * to the default size (16 px), then the built-in 8x16 font, as far as needed, each step a warning. Returns 0
 * when the cells fit (changed or not; the caller resizes the grid and repaints, as after kf_render_set_scale),
 * -ERANGE (logged) when not even the built-in font's do. */
int kf_render_fit(struct kf_render *r, int width, int height);
/* Another font (a configuration reload): cfg's engine, font_name, font_file and font_size (copied; its scale,
 * palette and cache_glyphs are not used), at the current zoom. On failure (-EINVAL, -ENOENT, -EBADMSG,
 * -ENOMEM; logged) the old font stays in use, unchanged. The caller resizes the grid and repaints everything
 * afterwards, as after kf_render_set_scale. */
int kf_render_set_font(struct kf_render *r, const struct kf_render_config *cfg);
/* Does now the font work that output would otherwise wait for: fontconfig's fallback list (when the
 * faces came from the font cache) and the glyphs of printable ASCII in the regular and bold styles.
 * For after the first frame. */
void kf_render_prepare_fonts(struct kf_render *r);

/* Palettes: the kmscon names "default" (= "legacy"), "legacy", "vga", "nord", "solarized",
 * "solarized-black", "solarized-white", "soft-black", "base16-dark", "base16-light". Returns 0 or
 * -EINVAL (unknown name). */
int kf_render_set_palette(struct kf_render *r, const char *name);
/* The colours of palette name (same names), without a renderer: 256 entries, foreground (256) and background
 * (257), 0xRRGGBB, into pal. Returns 0 or -EINVAL (unknown name). */
int kf_render_palette_load(const char *name, uint32_t pal[258]);
/* Overrides one colour, as kmscon's --palette-<name>=R,G,B: name is one of black, red, green,
 * yellow, blue, magenta, cyan, light-grey, dark-grey, light-red, light-green, light-yellow,
 * light-blue, light-magenta, light-cyan, white, foreground, background; value is "R,G,B" (0..255
 * each). Returns 0 or -EINVAL. */
int kf_render_set_palette_color(struct kf_render *r, const char *name, const char *value);
/* Sets the 16 ANSI colours, foreground and background at once (0xRRGGBB, in that order: kmscon's
 * --palette-<name> order; the config module's palette_custom). */
void kf_render_set_palette_colors(struct kf_render *r, const uint32_t rgb[18]);
/* The effective colours: 256 entries plus foreground (256) and background (257), 0xRRGGBB. Owned by
 * r. */
const uint32_t *kf_render_palette(const struct kf_render *r);

/* Blink phase (on = visible), driven by the caller's timer; applies to SGR 5 text and blinking
 * cursors. */
void kf_render_set_blink(struct kf_render *r, bool on);
/* The visual bell: while on, frames are painted as with DECSCNM the other way round (the whole screen
 * inverted); turning it on or off damages everything at the next kf_render_collect_damage. */
void kf_render_set_flash(struct kf_render *r, bool on);
/* The mouse pointer: a small arrow with its tip at pixel (x, y); hidden by default. */
void kf_render_set_pointer(struct kf_render *r, bool visible, int x, int y);
/* A transient notice over the grid (kmscon-felis: a paste or keys refused while a program runs): text, cut at
 * KF_RENDER_NOTICE_MAX bytes, bytes other than printable ASCII drawn as '?', copied; drawn with a blank either
 * side in the screen's reverse colours (as SGR 7 over the default colours) from the left edge of the top row,
 * or of the bottom row when the cursor is on the top row as it first appears (the line being typed stays in
 * view); it keeps its row until it goes. NULL or "" removes it. It is drawn over the source's cells and never
 * changes them: its start, a change of its text and its end damage its cells at the next
 * kf_render_collect_damage, which then come back from the source as they are; a cursor under it is hidden.
 * With no notice a frame pays one test, nothing per row or cell. How long it stays is the caller's matter
 * (kmscon-felis/notice.h). */
#define KF_RENDER_NOTICE_MAX 200
void kf_render_set_notice(struct kf_render *r, const char *text);

/* What to paint. Rows are read through callbacks so that a grid or a hand-built screen can be
 * painted. */
struct kf_render_source {
	int cols, rows;
	void *ud;
	/* Row y: exactly cols cells, valid during the paint call. Required. */
	const struct grid_cell *(*row)(void *ud, int y);
	/* Style id -> style; NULL or a NULL result means the default style. */
	const struct grid_style *(*style)(void *ud, uint16_t id);
	/* Code points of a cell (see grid_cell_codepoints); NULL: c->cp is the only one. */
	size_t (*codepoints)(void *ud, const struct grid_cell *c, uint32_t *out, size_t cap);
	/* Grid damage of row y ([x0, x1)); NULL: every row is damaged. Only
	 * kf_render_collect_damage calls it. */
	bool (*row_damage)(void *ud, int y, int *x0, int *x1);
	/* 259 colours (grid_palette: 256 + foreground, background, cursor) or NULL for the
	 * renderer's palette. With palette_base (the colours the grid started with) set, only the
	 * entries that differ from it (set by OSC 4/10/11/12) override the renderer's palette, so
	 * --palette and OSC colours both work. */
	const uint32_t *palette;
	const uint32_t *palette_base;
	struct grid_cursor cursor;
	bool reverse_video; /* DECSCNM */
	/* Row y's size (enum grid_line_size: DECDWL, DECDHL); NULL: every row is single. A double row shows
	 * its cells [0, (cols - 1) / 2] at twice the width, a double-height one the top or bottom half of its
	 * characters at twice the height as well (kmscon-felis/render/paint-dbl.c). */
	int (*row_size)(void *ud, int y);
};

/* Fills src to read grid g (which must outlive the paint), with the grid's palette over a base
 * snapshot so that the configured --palette applies except where the child changed colours (OSC
 * 4/10/11/12). Does not take ownership of g. */
void kf_render_source_from_grid(struct kf_render_source *src, const struct grid *g);

/* Damage: one dirty column span [x0, x1) per row; x0 >= x1 means clean. */
struct kf_render_damage {
	int cols, rows;
	int *x0, *x1;
};
/* Returns 0 or -ENOMEM/-EINVAL. The damage starts clean. kf_render_damage_finish accepts a zeroed
 * struct. */
int kf_render_damage_init(struct kf_render_damage *d, int cols, int rows);
void kf_render_damage_finish(struct kf_render_damage *d);
void kf_render_damage_clear(struct kf_render_damage *d);
/* Adds [x0, x1) on row y (clamped to the size). */
void kf_render_damage_add(struct kf_render_damage *d, int y, int x0, int x1);
void kf_render_damage_all(struct kf_render_damage *d);
/* d |= o (sizes must match, else d becomes all-damaged). */
void kf_render_damage_union(struct kf_render_damage *d, const struct kf_render_damage *o);
bool kf_render_damage_empty(const struct kf_render_damage *d);

/* Adds to d what changed since the previous call: the source's row damage, the cells the cursor
 * left and entered (or whose shape/visibility/blink phase changed), every blinking cell when the
 * blink phase flipped, the cells under the old and new pointer, and everything after a
 * palette/scale/size change. Does not clear the grid's damage. "Since the previous call" is
 * tracked per kf_render: with several outputs showing one grid, call it once per frame and give
 * each output's buffers the union of these frame damages (by buffer age). */
void kf_render_collect_damage(struct kf_render *r, const struct kf_render_source *s,
			      struct kf_render_damage *d);

enum kf_render_format {
	KF_RENDER_XRGB8888 = 0, /* 32 bits per pixel, native-endian 0x00RRGGBB */
	KF_RENDER_RGB565,	/* 16 bits per pixel, native-endian */
};

struct kf_render_target {
	void *data; /* not owned; at least stride * height bytes */
	int width, height;
	int stride; /* bytes per line */
	enum kf_render_format format;
};

struct kf_render_rect {
	int x, y, w, h;
};

/* Paints the damaged cells of s (the cell grid at the top left of t, clipped to t). Writes at most
 * max_rects rectangles of touched pixels to rects (rects may be NULL when max_rects is 0); when
 * more would be needed the last one is grown to cover the rest. Returns the number written, or
 * -EINVAL (bad target or damage size). */
int kf_render_paint(struct kf_render *r, const struct kf_render_source *s,
		    const struct kf_render_damage *d, const struct kf_render_target *t,
		    struct kf_render_rect *rects, int max_rects);
/* Paints every cell and fills the margin right of and below the cell grid with the background
 * colour. Returns like kf_render_paint (one rectangle: the whole target). */
int kf_render_paint_full(struct kf_render *r, const struct kf_render_source *s,
			 const struct kf_render_target *t, struct kf_render_rect *rects,
			 int max_rects);

/* Writes an XRGB8888 image (stride in bytes) to path as an 8-bit RGB PNG. Returns 0 or -errno/-EIO.
 */
int kf_render_write_png(const char *path, const uint32_t *pixels, int width, int height,
			int stride);

/* Glyph cache counters, for tests and benchmarks. */
struct kf_render_stats {
	size_t glyphs, capacity;
	uint64_t hits, misses, evictions;
};
void kf_render_get_stats(const struct kf_render *r, struct kf_render_stats *out);

#endif
