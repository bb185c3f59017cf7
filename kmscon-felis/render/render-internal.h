/* kmscon-felis/render/render-internal.h: shared between the files of the renderer; not for other
 * modules. */
#ifndef KF_RENDER_INTERNAL_H
#define KF_RENDER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmscon-felis/render/render.h"

/* The code points of one cell the painter reads: at least as many as the grid keeps in a cluster (15, its
 * CLUSTER_MAX_CPS), so that RGI emoji sequences of 9-15 code points (a kiss or a couple with two skin tones,
 * 10) are shaped whole instead of showing their first emoji. */
#define KF_CELL_CPS 16

/* Style bits of a glyph (part of the cache key). */
enum kf_glyph_style {
	KF_GLYPH_BOLD = 1 << 0,
	KF_GLYPH_ITALIC = 1 << 1,
	KF_GLYPH_EMOJI =
	    1 << 2, /* emoji presentation asked for (VS16 in the cluster): prefer a colour font */
	KF_GLYPH_TEXT = 1 << 3, /* text presentation asked for (VS15 in the cluster): prefer a monochrome
				 * font, also for the emoji blocks */
};

enum kf_glyph_kind {
	KF_GLYPH_EMPTY = 0, /* nothing to draw (space) */
	KF_GLYPH_ALPHA,	    /* coverage, 1 byte per pixel */
	KF_GLYPH_COLOR,	    /* premultiplied 0xAARRGGBB, 4 bytes per pixel */
};

/* A rasterised glyph: always exactly cells * cell_w by cell_h pixels, so painting never touches a
 * neighbouring cell (that is what makes damage-only painting exact). */
struct kf_glyph {
	uint8_t kind;  /* enum kf_glyph_kind */
	uint8_t cells; /* 1 or 2 */
	bool missing;  /* the font has no such glyph: this is the replacement box */
	bool aa;       /* alpha glyph with partial coverage (else every pixel is 0 or 255) */
	uint16_t w, h;
	uint16_t y0, y1; /* rows [y0, y1) hold ink; the rest is empty */
	void *data;	 /* owned by the cache entry */
};

/* A font engine. render() writes a glyph into out->data, which the caller sized for kind COLOR
 * (w * h * 4 bytes) but did not clear: render() zeroes what it uses once it knows it has the glyph
 * (most look-ups of a script no font covers fail, and clearing a glyph for each cost more than the
 * look-up). It sets out->kind; returns 0, or -ENOENT when the font has no such glyph. */
struct kf_font {
	int cell_w, cell_h;   /* unscaled */
	int baseline;	      /* pixels from the cell top to the baseline, unscaled */
	int ul_pos, ul_thick; /* underline top and thickness, unscaled */
	int (*render)(struct kf_font *f, uint32_t cp, unsigned style, int scale,
		      struct kf_glyph *out);
	void (*destroy)(struct kf_font *f);
	/* Optional: does now what render() would otherwise do on first need (font-ft.c: fontconfig's
	 * fallback list). */
	void (*prepare)(struct kf_font *f);
	/* Optional: the one glyph the font draws for the sequence cps[0..n) (an emoji ZWJ sequence,
	 * a flag...: compose.c), as render() does; -ENOENT when it has none. */
	int (*render_seq)(struct kf_font *f, const uint32_t *cps, size_t n, struct kf_glyph *out);
	/* A FreeType font of bitmap strikes only (font-ft.c): opened at its size, not the zoomed one (which
	 * picks the same strike), and zoomed as the bitmap fonts are, its glyphs magnified (render's scale). */
	bool fixed;
	/* A fixed font opened for a zoom (render.c open_font): how many times its glyphs are magnified, the strike
	 * it was opened at times mag being as close as it gets to the x1 strike times the zoom (0: the zoom). */
	int mag;
};

/* font-bitmap.c: the built-in font and PSF fonts. */
int kf_font_builtin_create(struct kf_font **out);
int kf_font_psf_create(const char *path, struct kf_font **out);
/* font-ft.c: fontconfig + FreeType. file may be NULL (lookup by name). */
int kf_font_ft_create(const char *name, const char *file, int size_px, struct kf_font **out);
/* font-ft.c: for a font of bitmap strikes only (fixed) opened at its x1 size, the pixel size to open it at for a
 * zoom x scale and in *mag how many times to magnify that strike: the largest product of a strike's height and
 * a magnification not over the x1 strike's height times scale, with the larger strike of equal products. */
int kf_font_ft_zoom_strike(struct kf_font *f, int scale, int *mag);
/* font-ft.c, for tests: the style name of the FreeType face a style of a kf_font_ft_create() font
 * draws with, and what is synthesised on it. */
const char *kf_font_ft_style(struct kf_font *f, unsigned style, bool *fake_bold,
			     bool *fake_italic);
/* font-ft.c: the synthesised italic's shear of n outline points p (FreeType's FT_Vector) in place,
 * as FT_Outline_Transform computes it. */
struct FT_Vector_;
void kf_ft_shear(struct FT_Vector_ *p, int n);
struct FT_Bitmap_;
/* font-ft-bound.c: copies a grey or mono FreeType bitmap into out (zeroed) at left, top, clipped to out. */
void kf_ft_copy_gray(const struct FT_Bitmap_ *bm, int left, int top, struct kf_glyph *out);
/* font-ft-bound.c: grows *buf to n bytes (contents not kept); *buf or NULL. */
void *kf_ft_grow(void **buf, size_t *cap, size_t n);
/* font-ft-bound.c: rasterises outline o into a grey bitmap in *buf (grown as needed) as
 * FT_Glyph_To_Bitmap would (FT_RENDER_MODE_NORMAL, no origin), o translated; 0 or -ENOENT. */
struct FT_LibraryRec_;
struct FT_Outline_;
struct FT_Bitmap_;
int kf_ft_outline_bitmap(struct FT_LibraryRec_ *lib, struct FT_Outline_ *o, void **buf, size_t *cap,
			 struct FT_Bitmap_ *bm, int *left, int *top);

/* font-ft-bound.c: the largest side of a FreeType glyph's bitmap in cells of out_w x out_h pixels (a few
 * cells, with a hard cap), and whether a glyph fits: its outline o's box, or with o NULL the bitmap slot
 * holds (FreeType's FT_GlyphSlot: a bitmap strike, only the hard cap). A glyph that does not is logged
 * (font, glyph index, code point; *logged counts, the first few only) and is to be drawn as missing. */
struct FT_GlyphSlotRec_;
struct FT_FaceRec_;
int kf_ft_glyph_max_side(int out_w, int out_h);
bool kf_ft_glyph_fits(struct FT_FaceRec_ *face, const struct FT_GlyphSlotRec_ *slot,
		      const struct FT_Outline_ *o, uint32_t cp, int out_w, int out_h, unsigned *logged);

/* font-metrics.c: *asc and *desc (pixels above and below the baseline of face, FreeType's FT_Face,
 * at size px) grown to hold the hinted letters of Latin-1 (and '_' and '|' unless letters_only),
 * by at most size / 4 in all. Once per font and size (a zoom step), not per frame: ~30 glyphs
 * loaded. */
struct FT_FaceRec_;
void kf_ft_letters_fit(struct FT_FaceRec_ *face, int size, bool letters_only, int *asc, int *desc);
/* The same for the letters as a synthesised bold draws them too (the outline thickened by
 * kf_ft_bold_strength): asc and desc hold the plain face's letters and '_' and '|', and the
 * thickened letters. */
void kf_ft_letters_fit_bold(struct FT_FaceRec_ *face, int size, int *asc, int *desc);
/* The thickening of a synthesised bold in 26.6 (FT_Outline_Embolden): a twentieth of the size, at
 * least half a pixel. It grows a letter by all of it at the top and the right (FreeType keeps the
 * left and bottom edges; kf_ft_embolden keeps the width in the cell). */
static inline long kf_ft_bold_strength(int size)
{
	return size * 64 / 20 > 32 ? size * 64 / 20 : 32;
}
/* font-metrics.c: a synthesised bold's thickening of outline o (FreeType's FT_Outline) at size px,
 * kept within x from lo to hi (26.6, the glyph's cell from its origin). */
struct FT_Outline_;
void kf_ft_embolden(struct FT_Outline_ *o, int size, long lo, long hi);
/* font-metrics.c: a glyph whose advance (26.6) rounds to more than its cells' width w (a proportional
 * font's W, a fallback's ligature U+FB03 beside a monospace face) narrowed about its origin to advance w
 * (x only, which light hinting leaves on no grid); returns the advance to place it by. Centred and
 * clipped, it lost both sides (the i of U+FB03), where its synthesised italic was narrowed already
 * (kf_ft_slant). */
long kf_ft_narrow(struct FT_Outline_ *o, long advance, int w);
/* font-metrics.c: o of advance (26.6) narrowed to w by kf_ft_narrow, then, unless it is a combining mark,
 * its ink moved into its cells (w pixels, less place()'s centring of the advance) where it reaches more than
 * half a pixel past one side, and narrowed into them where it is wider: DejaVu Sans Mono's U+27F5 advances
 * one cell and hangs a pixel or two past both sides (its head's tip was cut off), a Greek capital with a
 * breathing hangs it up to half a cell left. Returns the advance to place it by. */
long kf_ft_fit_width(struct FT_Outline_ *o, long advance, int w, bool mark);
/* font-metrics.c: the columns place() moves a glyph of advance adv (pixels) right by to centre it in w. */
int kf_ft_centring(int adv, int w);
/* font-metrics.c: a glyph whose ink reaches more than half a pixel past the cell's top (above pixels over
 * the baseline) or its bottom (below under it), not both, scaled about the baseline into the cell on that
 * side: a fallback's Vietnamese capital with two marks (DejaVu Sans's U+1EA4, 3 or 4 pixels over DejaVu Sans
 * Mono's cell at 16 px) lost its upper mark to the cell's top, and Ấ Ầ Ẩ Ẫ all showed as Â. A glyph past
 * both (U+23AE, made to join the rows above and below) is left as the font sets it. */
void kf_ft_fit_height(struct FT_Outline_ *o, int above, int below);
/* font-metrics.c: a synthesised italic's slant of outline o (kf_ft_shear) turning about the height
 * yc above the baseline (26.6), kept within x from lo to hi as kf_ft_embolden keeps its bold. */
void kf_ft_slant(struct FT_Outline_ *o, long yc, long lo, long hi);
/* font-metrics.c: base's cell size, baseline and underline for face at size px whose letters need asc
 * pixels above the baseline and desc below (kf_ft_letters_fit); out-of-range values give defaults. */
void kf_ft_cell_metrics(struct FT_FaceRec_ *face, int size, int asc, int desc, struct kf_font *base);

/* font-strike.c: a glyph of a bitmap strike (bm, grey or mono) copied into out (zeroed) at left, top as
 * kf_ft_copy_gray does where its ink lies within out; else its ink moved into out as little as it can, and
 * box-filtered down to out's width or height where it is wider or taller: a fallback strike larger than the
 * cell (ClearlyU's 10-pixel U+13A0 in a 7-pixel cell) lost its side, a taller one its top. */
void kf_strike_place(const struct FT_Bitmap_ *bm, int left, int top, struct kf_glyph *out);
/* font-strike.c: bold and italic synthesised on glyph g (alpha, placed in its cells with the baseline at row
 * baseline) of a bitmap strike, which has no outline for kf_ft_embolden and kf_ft_slant. */
void kf_strike_synthesise(struct kf_glyph *g, int baseline, bool bold, bool italic);
/* font-strike.c: f's glyph of cp in style at zoom scale (> 1): f->render's at x1, each pixel magnified to
 * scale x scale into out (sized for the zoomed cells, as render's out); returns as render does. */
int kf_strike_render_scaled(struct kf_font *f, uint32_t cp, unsigned style, int scale, struct kf_glyph *out);
/* font-strike.c: of strikes heights[0..n), opened at size (the closest strike) and zoomed x scale: the height of
 * the strike to open and in *mag its magnification (see kf_font_ft_zoom_strike); size and scale if none fits. */
int kf_strike_zoom(const int *heights, int n, int size, int scale, int *mag);

/* font-color.c: a colour bitmap (FreeType's FT_Bitmap, BGRA) box-filtered into out, keeping its
 * aspect ratio, centred. */
void kf_ft_copy_color(const struct FT_Bitmap_ *bm, struct kf_glyph *out);
/* font-color.c: the glyph index (*gi) of the one glyph HarfBuzz shapes cps[0..n) into with face
 * (FreeType's FT_Face), or -ENOENT when it gives more than one. *s keeps the shaping state of the
 * last face (NULL at first; kf_shaper_destroy). */
struct kf_shaper;
struct FT_FaceRec_;
int kf_shape_one(struct kf_shaper **s, struct FT_FaceRec_ *face, const uint32_t *cps, size_t n,
		 unsigned *gi);
void kf_shaper_destroy(struct kf_shaper *s);

/* font-cache.c: the faces fontconfig matched for a name and size, kept across starts. */
struct kf_font_choice {
	struct {
		char *path; /* owned; NULL: synthesised from face 0 */
		int index;
		unsigned fake; /* KF_GLYPH_BOLD, KF_GLYPH_ITALIC: synthesised on this face */
	} face[4]; /* index: KF_GLYPH_BOLD | KF_GLYPH_ITALIC */
	/* The cell's ascent and descent that the letters of the regular and bold faces need, as
	 * measured when fontconfig opened both (0: unknown): a hit then sizes the cell for the bold
	 * letters without opening the bold face before a bold glyph is drawn. */
	int fit_asc, fit_desc;
};
/* Fills out (owned by the caller: kf_font_choice_finish) with the saved choice when the fontconfig
 * configuration and the face files are unchanged since it was saved; 0, or a negative errno on a
 * miss (out is then empty). */
int kf_font_cache_load(const char *name, int size, struct kf_font_choice *out);
/* Saves c (not taken) for name and size; failures are silent (the cache is only a shortcut). */
void kf_font_cache_save(const char *name, int size, const struct kf_font_choice *c);
void kf_font_choice_finish(struct kf_font_choice *c);

/* procedural.c: box drawing, block elements, Braille, Powerline, and the missing-glyph box. */
bool kf_procedural_has(uint32_t cp);
/* The characters drawn by kf_procedural_draw only where the fonts lack them (Powerline's
 * U+E0A0-E0A3: branch, LN, padlock, CN). */
bool kf_procedural_stands_in(uint32_t cp);
/* Draws cp (kf_procedural_has or kf_procedural_stands_in) into a zeroed cells*cw x ch alpha mask. */
void kf_procedural_draw(uint32_t cp, uint8_t *mask, int w, int h);
void kf_procedural_missing(uint8_t *mask, int w, int h);
/* The arms ("URDL", each 0 none, 1 light, 2 heavy, 3 double) of a table-drawn box glyph, or NULL.
 */
const char *kf_procedural_box_arms(uint32_t cp);

/* cache.c: bounded glyph cache, clock eviction; lookups allocate nothing. */
struct kf_cache;
int kf_cache_create(size_t capacity, struct kf_cache **out);
void kf_cache_destroy(struct kf_cache *c);
/* Returns the glyph for key or NULL. */
struct kf_glyph *kf_cache_find(struct kf_cache *c, uint64_t key);
/* Makes room for key (evicting when full) and returns an entry whose data holds at least bytes
 * zeroed bytes; NULL on allocation failure. The caller fills the entry before the next cache call.
 */
struct kf_glyph *kf_cache_insert(struct kf_cache *c, uint64_t key, size_t bytes);
void kf_cache_flush(struct kf_cache *c);
void kf_cache_stats(const struct kf_cache *c, struct kf_render_stats *out);

/* palette.c */
int kf_palette_load(uint32_t pal[258], const char *name);
int kf_palette_set(uint32_t pal[258], const char *name, const char *value);
/* The palette as DECSCNM shows it: black and white (0 and 7), bright black and bright white (8 and
 * 15) swapped, as xterm's ReverseVideo swaps them with the default colours. */
void kf_palette_reverse(uint32_t pal[16]);
/* The frame's colours into r->eff (and r->cursor_color): r's palette, the source's over it, reverse
 * video. */
void kf_palette_frame(struct kf_render *r, const struct kf_render_source *s);

/* builtin font data (generated) */
extern const unsigned kf_builtin_font_count;
extern const uint32_t kf_builtin_font_cps[];
extern const uint8_t kf_builtin_font_bits[][16];

/* The renderer state shared by render.c and paint.c. */
struct kf_render {
	struct kf_font *font;
	enum kf_render_engine engine;
	struct kf_cache *cache;
	int scale;
	int cell_w, cell_h;		  /* scaled */
	int ul_pos, ul_thick, line_thick; /* scaled decoration metrics */
	uint32_t palette[258];
	/* The colours of the current paint: palette with the source's overrides merged
	 * (merge_palette()); 258 is the cursor colour, valid when cursor_color is set. */
	uint32_t eff[259];
	bool cursor_color;
	unsigned epoch; /* bumped by palette/scale changes: collect_damage then damages all */

	bool blink_on;
	bool flash; /* the visual bell: frames painted inverted (kf_render_set_flash) */
	bool pointer_visible;
	int pointer_x, pointer_y;
	/* The notice drawn over the grid (kf_render_set_notice; notice.c). Set by kf_render_set_notice, which bumps
	 * gen; row placed by the first kf_render_notice_source after it, -1 until then. */
	struct {
		char text[KF_RENDER_NOTICE_MAX + 2]; /* with its blank either side; not NUL-terminated */
		int len;                             /* cells; 0 = no notice */
		int row;
		unsigned gen;
		struct grid_cell *cells; /* its row as painted (the source's, the notice over it); grows only */
		int cap;
	} notice;

	/* Blend tables: coverage -> colour for recent (fg, bg) pairs, so glyph pixels are one table
	 * load. */
	struct {
		bool valid;
		uint32_t fg, bg;
		uint32_t c[256];
	} lut[16];

	/* Pre-composed cells (paint.c): a cell that is only a glyph over its background is copied
	 * from here row by row; composing it again costs a table lookup per pixel. Two-way sets of
	 * slots; slot i holds a one-cell glyph at px + (px_at[i] - 1) * slot_px (slot_px = cell_w *
	 * cell_h: the places handed out in the order the slots are first used, so that the pages
	 * touched are those of the slots used, not of as many slots spread over the whole plane) or
	 * a wide one at wide + i * 2 * slot_px, so that text without wide glyphs touches only px.
	 * Sized when the cell size or epoch changes, never per frame. A cell takes a slot only when
	 * it misses a second time (seen): a flood of truecolour text, whose (glyph, colours) mostly
	 * come once each, composes those cells straight into the frame instead of into slots it
	 * never copies from again, each evicting one that was of use (a page of the plane costs a
	 * fault and the kernel's zeroing on first touch; docs/benchmarks.md, issue 5 session 44). */
	struct {
		uint32_t *px, *wide;
		struct kf_cell_tag {
			uint64_t key; /* glyph key (render.c), 0 = empty */
			uint32_t fg, bg;
		} *tags;
		uint8_t *mru; /* per pair of slots: which one was used last */
		uint32_t *seen; /* 1 << bits places: a check word of the last miss hashed there */
		uint16_t *px_at; /* per slot: its place in px + 1, 0 = none yet */
		uint32_t px_used; /* places of px handed out */
		unsigned bits; /* 1 << bits slots; 0 = none (allocation failed) */
		size_t slot_px;
		int cell_w, cell_h;
		unsigned epoch;
		uint64_t hits, misses;
	} cells;

	/* The one-cell ASCII glyphs (styles without emoji) the glyph cache held when last looked up,
	 * for paint.c's glyph_of: the cache's own look-up is two calls away (each return a look-up
	 * of the next block under an emulator) and reads its hash table and an entry (56 pages for
	 * 4096 glyphs). Valid while ascii_gen == glyph_gen; render.c bumps
	 * glyph_gen whenever a cached glyph may go (eviction, a new or flushed cache). */
	const struct kf_glyph *ascii_glyph[4][128];
	unsigned glyph_gen, ascii_gen;

	/* Glyph keys the fonts lack, direct-mapped (KF_MISSING_SLOTS, allocated at the first missing
	 * glyph, cleared when the font changes), and the one box (1 and 2 cells) drawn for all of
	 * them: CJK text without a CJK font has thousands of distinct characters, far more than the
	 * glyph cache holds, and each would go through the fonts again. */
	uint64_t *missing_keys;
	struct kf_glyph missing_box[2];

	/* The curly underline's top row per pixel column (paint.c curly_y), for these metrics; entries
	 * UINT16_MAX are not computed yet. */
	struct {
		uint16_t *y; /* KF_CURLY_COLS entries, or NULL */
		int cell_w, cell_h, thick, amp, top;
	} curly;

	/* The emoji sequence kf_shape_cluster is drawing: rasterise() draws code point cp as it. */
	struct {
		uint32_t cps[KF_CELL_CPS];
		size_t n;
		uint32_t cp;
	} seq;

	/* a glyph being rasterised (render.c); grows only, to one wide colour glyph */
	void *glyph_scratch;
	size_t glyph_scratch_len;
	uint32_t *scratch; /* strip for clipped or RGB565 painting; grows only */
	size_t scratch_len;

	/* What the previous kf_render_collect_damage saw, to damage what changed since. */
	struct {
		bool valid;
		int cols, rows;
		unsigned epoch;
		struct grid_cursor cursor;
		bool blink_on, reverse_video;
		bool pointer_visible;
		int pointer_x, pointer_y;
		unsigned notice_gen;
		int notice_row, notice_cells; /* where the notice was drawn: row -1 or 0 cells for none */
		const uint32_t *palette_ptr;
		uint32_t palette_hash;
	} seen;
	int ul_double[2]; /* the double underline's lines, top rows (render.c update_metrics) */

	/* The emoji sequences met, whose glyphs are cached under KF_SEQ_CP | id (compose.c seq_key):
	 * KF_SEQ_SLOTS of them, allocated at the first; seq_next the last id handed out. */
	struct kf_seq {
		uint32_t id; /* 0: none */
		uint8_t n;
		uint32_t cps[KF_CELL_CPS];
	} *seqs;
	uint32_t seq_next;
};

/* render.c: the glyph for a cell content (cached). Never NULL: falls back to the missing-glyph box.
 */
const struct kf_glyph *kf_render_glyph(struct kf_render *r, uint32_t cp, unsigned style, int cells);
#define KF_MISSING_SLOTS (1u << 14)
#define KF_CURLY_COLS 8192
/* The glyph key under which every missing glyph of `cells` cells is pre-composed (paint.c). */
#define KF_MISSING_KEY(cells) kf_glyph_key(0x110000, 0, cells)
/* render.c: whether kf_render_glyph knows the fonts lack the glyph of key. */
bool kf_render_known_missing(const struct kf_render *r, uint64_t key);
/* The slot of key in r->missing_keys. */
static inline size_t kf_missing_slot(uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (KF_MISSING_SLOTS - 1);
}
/* Above Unicode: a code point that stands for the emoji sequence r->seq (compose.c). */
#define KF_SEQ_SLOTS 1024
#define KF_SEQ_CP 0x80000000u
/* The glyph cache's key of a cell content. */
static inline uint64_t kf_glyph_key(uint32_t cp, unsigned style, int cells)
{
	return cp | (uint64_t)(style & 15) << 32 | (uint64_t)(cells & 3) << 36;
}
/* A span of pixels being painted (paint.c, decor.c). */
struct kf_strip {
	uint32_t *px; /* top-left pixel of the span */
	size_t pitch; /* in pixels */
};
/* paint.c: fills w x h pixels at (x, y) of o with c. */
void kf_paint_fill_rect(struct kf_strip *o, int x, int y, int w, int h, uint32_t c);
/* decor.c: the underline of kind (enum grid_underline) in colour c over the cell pixels [x, x + w)
 * of o, which lie at pixel column absx of the screen (patterns continue across cells). */
void kf_paint_underline(struct kf_render *r, struct kf_strip *o, int x, int w, int absx,
			uint8_t kind, uint32_t c);
/* decor.c: the colour of the cursor (the block, the bar or the underline) over a cell whose text is
 * fg over bg (reversed: swapped by SGR 7 or the selection): the cursor colour (OSC 12), else xterm's
 * default (see there); never bg, so that the cursor shows. */
uint32_t kf_cursor_color(const struct kf_render *r, const struct kf_render_source *s, uint32_t fg,
			 uint32_t bg, bool reversed);
/* decor.c: the underline or bar cursor of s over cell pixels [x, x + w) of o, in colour c. */
void kf_paint_cursor(struct kf_render *r, const struct kf_render_source *s, struct kf_strip *o,
		     int x, int w, uint32_t c);
/* decor.c: the part of the mouse pointer inside pixels [sx0, sx0 + sw) x [sy0, sy0 + cell_h)
 * of the screen, drawn into o (whose first pixel is (sx0, sy0)). */
void kf_paint_pointer(struct kf_render *r, struct kf_strip *o, int sx0, int sy0, int sw);
/* paint-out.c: the rectangles a paint changed (max 0: not collected), at most max of them. */
struct kf_paint_rects {
	struct kf_render_rect *r;
	int n, max;
};
void kf_paint_add_rect(struct kf_paint_rects *rs, int x, int y, int w, int h);
/* paint.c: paints cells [x0, x1) of row y of s into t (its paint_row). */
int kf_paint_row_cells(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		       int y, int x0, int x1, struct kf_paint_rects *rs);
/* paint-dbl.c: row y of s, of size (enum grid_line_size, not single), painted whole into t. Uses r's scratch
 * strip. Returns 0 or -ENOMEM. */
int kf_paint_row_dbl(struct kf_render *r, const struct kf_render_source *s, const struct kf_render_target *t,
		     int y, int size, struct kf_paint_rects *rs);
/* paint-out.c: r's scratch strip of at least pixels pixels, or NULL when it cannot grow. */
uint32_t *kf_paint_scratch(struct kf_render *r, size_t pixels);
/* Whether a target can be painted (data, size, stride and format agree); a rectangle of it filled with c
 * (paint-out.c) */
bool kf_paint_target_ok(const struct kf_render_target *t);
void kf_paint_fill_target(const struct kf_render_target *t, int x, int y, int w, int h, uint32_t c);
/* paint-out.c: cw x ch pixels of o into t at (px, py), converted to t's format. */
void kf_paint_copy_out(const struct kf_render_target *t, const struct kf_strip *o, int px, int py,
		       int cw, int ch);
static inline uint16_t kf_to565(uint32_t c)
{
	return (uint16_t)((c >> 8 & 0xf800) | (c >> 5 & 0x07e0) | (c >> 3 & 0x001f));
}
/* decor.c: a premultiplied colour row (w pixels of m) over p. */
void kf_paint_blit_color_row(uint32_t *p, const uint32_t *m, int w);
/* decor.c: the combining marks cps[1..n) of a cluster in style over its cell pixels at x of o. */
void kf_paint_marks(struct kf_render *r, struct kf_strip *o, int x, const uint32_t *cps, size_t n,
		    unsigned style, int cells, uint32_t fg);
/* compose.c: the letter a composite of UAX #15 composes from (é: e; ệ: ẹ), or 0. */
uint32_t kf_compose_base(uint32_t c);
/* compose.c: replaces the base cps[0] and the marks after it with their precomposed character
 * (canonical composition, UAX #15) when the fonts have its glyph in style and cells; returns the
 * code points left in cps (n when nothing composed). */
size_t kf_compose_cluster(struct kf_render *r, uint32_t *cps, size_t n, unsigned style, int cells);
/* compose.c: replaces an emoji sequence in cps (a ZWJ sequence, a flag, an emoji with a skin tone,
 * a keycap) by one code point KF_SEQ_CP | id (its own), whose glyph (kf_render_glyph) is the one the font's
 * render_seq draws for it, when the font has one; returns the code points left in cps (1, or n). */
size_t kf_shape_cluster(struct kf_render *r, uint32_t *cps, size_t n, unsigned style, int cells);
/* compose.c: cell c's code points (a cluster: s->codepoints) into cps, shaped and composed as it is drawn
 * (kf_shape_cluster, kf_compose_cluster), *gs with the emoji or text style asked for; returns their count. */
size_t kf_cluster_cps(struct kf_render *r, const struct kf_render_source *s, const struct grid_cell *c,
		      uint32_t *cps, unsigned *gs, int cells);
/* decor.c: strikethrough and overline (GRID_ATTR_STRIKE, GRID_ATTR_OVERLINE of attrs) over [x, x + w). */
void kf_paint_lines(struct kf_render *r, struct kf_strip *o, int x, int w, uint16_t attrs, uint32_t fg);
/* a over b by coverage a (0..255) per channel, rounded: (d * (255 - a) + s * a + 128) >> 8 */
static inline uint32_t kf_blend(uint32_t d, uint32_t s, unsigned a)
{
	unsigned na = 255 - a;
	uint32_t rb = ((d & 0xff00ff) * na + (s & 0xff00ff) * a + 0x800080) >> 8 & 0xff00ff;
	uint32_t g = ((d & 0x00ff00) * na + (s & 0x00ff00) * a + 0x008000) >> 8 & 0x00ff00;
	return rb | g;
}
/* paint.c: the mouse pointer's box in pixels (its tip at x, y). */
void kf_render_pointer_box(const struct kf_render *r, int *x, int *y, int *w, int *h);
/* cache.c: frees the pre-composed cells. */
void kf_render_cells_finish(struct kf_render *r);
/* cache.c: (re)sizes the pre-composed cells for the current cell size and epoch; false when there are
 * none (out of memory). */
bool kf_render_cells_ready(struct kf_render *r);

/* The source a frame paints: s, or while the visual bell flashes (r->flash) a copy of it with DECSCNM the other
 * way round, so that the flash takes the reverse-video path (the palette swapped once per frame, nothing per
 * cell) and its start and end damage everything as DECSCNM does. tmp holds the copy. */
static inline const struct kf_render_source *kf_render_flash_source(const struct kf_render *r,
								    const struct kf_render_source *s,
								    struct kf_render_source *tmp)
{
	if (!r->flash)
		return s;
	*tmp = *s;
	tmp->reverse_video = !s->reverse_video;
	return tmp;
}

/* notice.c: the source a frame paints while a notice is shown: s with the notice over its cells (tmp holds the
 * copy and what its callbacks need; valid while s and tmp are), or s when the notice's row cannot be had
 * (out of memory: not drawn). Places the notice's row the first time. */
struct kf_notice_source {
	struct kf_render_source s;
	const struct kf_render_source *in;
	struct kf_render *r;
	int row, n; /* the row it covers, and its first n cells */
};
const struct kf_render_source *kf_render_notice_source(struct kf_render *r, const struct kf_render_source *s,
						       struct kf_notice_source *tmp);
/* notice.c: the cells the notice covers in a frame of s (0 for none), on *row. */
int kf_render_notice_cells(const struct kf_render *r, const struct kf_render_source *s, int *row);

/* The source a frame paints (collect_damage, paint): the notice over s when one is shown (nothing but a test
 * when not), then the visual bell's reverse video (kf_render_flash_source). */
struct kf_frame_source {
	struct kf_notice_source notice;
	struct kf_render_source flash;
};
static inline const struct kf_render_source *kf_render_frame_source(struct kf_render *r,
								    const struct kf_render_source *s,
								    struct kf_frame_source *tmp)
{
	if (__builtin_expect(r->notice.len != 0, 0))
		s = kf_render_notice_source(r, s, &tmp->notice);
	return kf_render_flash_source(r, s, &tmp->flash);
}

#endif
