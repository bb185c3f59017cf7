/* kmscon-felis/render/render.c: renderer set-up, fonts and scale, glyph lookup, damage bookkeeping.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

#define DEFAULT_SIZE 16
#define MAX_SIZE 512
#define MAX_SCALE 8
/* The glyph cache holds at most this many bytes of pixels: at large sizes it keeps fewer glyphs. */
#define CACHE_BUDGET (64u << 20)

struct render_priv {
	struct kf_render pub;
	size_t cache_glyphs; /* the configured capacity, before the memory budget */
	char *font_name, *font_file;
	int font_size;
};

/* The zoom the font's glyphs are magnified by: FreeType fonts are re-created at the zoomed size (but those
 * of bitmap strikes only, kf_font.fixed: at the strike open_font chose, magnified by its mag), bitmap fonts
 * are scaled pixel by pixel. */
static int pixel_scale(const struct kf_render *r)
{
	if (r->engine == KF_RENDER_ENGINE_FREETYPE)
		return !r->font->fixed ? 1 : r->font->mag ? r->font->mag : r->scale;
	return r->scale;
}

static void update_metrics(struct kf_render *r)
{
	int s = pixel_scale(r);
	r->cell_w = r->font->cell_w * s;
	r->cell_h = r->font->cell_h * s;
	r->ul_pos = r->font->ul_pos * s;
	r->ul_thick = r->font->ul_thick * s;
	/* A font's underline is a few per cent of its size; one whose post table says otherwise (thickness
	 * 32767 units: 256 pixels in a 19-pixel cell) had every line and the underline cursor painted far
	 * outside the cell, over other rows and past the target's first row. */
	if (r->ul_thick > r->cell_h / 4)
		r->ul_thick = r->cell_h / 4;
	if (r->ul_thick < 1)
		r->ul_thick = 1;
	if (r->ul_pos + r->ul_thick > r->cell_h)
		r->ul_pos = r->cell_h - r->ul_thick;
	if (r->ul_pos < 0)
		r->ul_pos = 0;
	r->line_thick = r->ul_thick;
	/* The double underline: the underline and one two lines lower. Where the cell ends before
	 * that (the bitmap fonts' 16 rows), the pair sits at the cell's bottom if the rows below
	 * the baseline hold it (the built-in font's upper line was drawn on the letters' bottom
	 * row), else as low as it fits, over the descenders. */
	int t = r->ul_thick, y = r->ul_pos, base = r->font->baseline * s;
	if (y + 3 * t > r->cell_h)
		y = base + 3 * t <= r->cell_h ? r->cell_h - 3 * t : r->ul_pos - 2 * t;
	if (y < 0)
		y = 0;
	r->ul_double[0] = y;
	r->ul_double[1] = y + 2 * t + t > r->cell_h ? r->ul_pos : y + 2 * t;
	/* The glyph scratch (kf_render_glyph) only grew: after a zoom or font-size back down from a huge
	 * font, megabytes of it stayed. Let it go when larger than a wide glyph at the new size; it grows
	 * again to what the new size needs (tests/render/test-font-open.c). */
	if (r->glyph_scratch_len > (size_t)r->cell_w * 2 * r->cell_h * 4) {
		free(r->glyph_scratch);
		r->glyph_scratch = NULL;
		r->glyph_scratch_len = 0;
	}
}

/* At least this many glyphs are kept whatever their size. A glyph is used before the next is looked up (a
 * cell's, then its marks'), so one would do; a few spare the cells of a huge font re-rasterising their
 * neighbours. The cap was 64: at font size 512 and zoom x2 (cells of 617x1194 pixels) that held 277 MiB. */
#define CACHE_MIN_GLYPHS 4

/* Every glyph slot may hold a wide colour glyph (2 cells x 4 bytes per pixel). */
static int make_cache(struct render_priv *p)
{
	struct kf_render *r = &p->pub;
	size_t per = (size_t)2 * r->cell_w * r->cell_h * 4, cap = CACHE_BUDGET / (per ? per : 1);
	if (cap > p->cache_glyphs)
		cap = p->cache_glyphs;
	if (cap < CACHE_MIN_GLYPHS)
		cap = CACHE_MIN_GLYPHS;
	struct kf_cache *c;
	int ret = kf_cache_create(cap, &c);
	if (ret)
		return ret;
	kf_cache_destroy(r->cache);
	r->cache = c;
	r->glyph_gen++;
	return 0;
}

/* A font file that is no regular file is refused before an engine opens it: a FIFO made open(2) wait for a writer
 * for ever (the console never started) and a directory was "cannot read PSF font: Bad message". One that does not
 * exist is left to the engine, which says so. */
static int check_font_file(const char *path)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || S_ISREG(st.st_mode))
		return 0;
	log_err("font file %s is %s, not a file", path,
		S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
	return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}

/* Opens the font of p at the zoom scale into *out, which is set only on success (kf_render_create opens into the
 * renderer's own font slot, which its cleanup destroys). */
static int open_font(struct render_priv *p, int scale, struct kf_font **out)
{
	struct kf_render *r = &p->pub;
	struct kf_font *f = NULL;
	int ret = check_font_file(p->font_file);
	if (ret < 0)
		return ret;
	switch (r->engine) {
	case KF_RENDER_ENGINE_PSF:
		return kf_font_psf_create(p->font_file, out);
	case KF_RENDER_ENGINE_BUILTIN:
		return kf_font_builtin_create(out);
	default:
		ret = kf_font_ft_create(p->font_name, p->font_file, p->font_size * scale, &f);
		if (!ret && scale > 1 && f->fixed) { /* zoomed as a bitmap font: at its own size */
			/* (f is opened again, each time into the local: a failed opening left *out naming the font
			 * destroyed before it, which kf_render_create's cleanup destroyed again: test-font-reopen) */
			f->destroy(f);
			ret = kf_font_ft_create(p->font_name, p->font_file, p->font_size, &f);
			/* or a larger strike of its own, magnified less (Terminus's 32-pixel one at 16 px x2, not the
			 * 16-pixel one doubled: tests/render/test-font-open.c) */
			int mag = scale, size = ret ? 0 : kf_font_ft_zoom_strike(f, scale, &mag);
			if (!ret && size != p->font_size) {
				f->destroy(f);
				ret = kf_font_ft_create(p->font_name, p->font_file, size, &f);
			}
			if (!ret)
				f->mag = mag;
		}
		if (!ret)
			*out = f;
		if (ret == -ENOENT && !p->font_file) {
			log_warn("no font found for \"%s\": using the built-in font", p->font_name);
			r->engine = KF_RENDER_ENGINE_BUILTIN;
			return kf_font_builtin_create(out);
		}
		return ret;
	}
}

void kf_render_prepare_fonts(struct kf_render *r)
{
	if (r->font->prepare)
		r->font->prepare(r->font);
	/* Printable ASCII in the regular and bold styles, the glyphs nearly every output starts with:
	 * rasterised now, while nothing waits, rather than during the first screens of output (with
	 * FreeType's hinting that is about 40 000 instructions a glyph, and far more where the CPU is
	 * emulated). Not when the cache holds fewer (a huge font): they would evict each other. */
	struct kf_render_stats st;
	kf_cache_stats(r->cache, &st);
	for (unsigned style = 0; st.capacity >= 2 * (0x7f - 0x21) && style <= KF_GLYPH_BOLD; style += KF_GLYPH_BOLD)
		for (uint32_t cp = 0x21; cp < 0x7f; cp++)
			kf_render_glyph(r, cp, style, 1);
}

int kf_render_create(const struct kf_render_config *cfg, struct kf_render **out)
{
	static const struct kf_render_config defaults = {0};
	if (!cfg)
		cfg = &defaults;
	int size = cfg->font_size ? cfg->font_size : DEFAULT_SIZE;
	int scale = cfg->scale ? cfg->scale : 1;
	/* the zoomed size bounded as kf_render_set_scale and kf_render_set_font bound it */
	if (size < 1 || size > MAX_SIZE || scale < 1 || scale > MAX_SCALE || (long)size * scale > MAX_SIZE * 2 ||
	    cfg->engine > KF_RENDER_ENGINE_BUILTIN) {
		log_err("invalid renderer configuration (font size %d px, scale %d, engine %d)",
			size, scale, (int)cfg->engine);
		return -EINVAL;
	}
	if (cfg->engine == KF_RENDER_ENGINE_PSF && !cfg->font_file) {
		log_err("the psf font engine needs a font file");
		return -EINVAL;
	}
	struct render_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	struct kf_render *r = &p->pub;
	int ret = -ENOMEM;
	p->font_size = size;
	p->font_name = strdup(cfg->font_name ? cfg->font_name : "monospace");
	p->font_file = cfg->font_file ? strdup(cfg->font_file) : NULL;
	if (!p->font_name || (cfg->font_file && !p->font_file))
		goto fail;
	ret = kf_palette_load(r->palette, cfg->palette);
	if (ret) {
		log_err("unknown palette \"%s\"", cfg->palette);
		goto fail;
	}
	r->engine = cfg->engine == KF_RENDER_ENGINE_AUTO ? KF_RENDER_ENGINE_FREETYPE : cfg->engine;
	r->scale = scale;
	r->blink_on = true;
	p->cache_glyphs = cfg->cache_glyphs ? cfg->cache_glyphs : 4096;
	ret = open_font(p, scale, &r->font);
	if (ret)
		goto fail;
	update_metrics(r);
	ret = make_cache(p);
	if (ret)
		goto fail;
	*out = r;
	return 0;
fail:
	kf_render_destroy(r);
	return ret;
}

/* The font settings of a render_priv, moved as one (kf_render_set_font keeps the old ones until the new font
 * opened). */
struct font_params {
	char *name, *file;
	int size;
	enum kf_render_engine engine;
};

static void swap_params(struct render_priv *p, struct font_params *f)
{
	struct font_params old = {p->font_name, p->font_file, p->font_size, p->pub.engine};
	p->font_name = f->name;
	p->font_file = f->file;
	p->font_size = f->size;
	p->pub.engine = f->engine;
	*f = old;
}

int kf_render_set_font(struct kf_render *r, const struct kf_render_config *cfg)
{
	struct render_priv *p = (struct render_priv *)r;
	int size = cfg->font_size ? cfg->font_size : DEFAULT_SIZE;
	if (size < 1 || size > MAX_SIZE || (long)size * r->scale > MAX_SIZE * 2 ||
	    cfg->engine > KF_RENDER_ENGINE_BUILTIN || (cfg->engine == KF_RENDER_ENGINE_PSF && !cfg->font_file)) {
		log_err("invalid font (size %d px at zoom x%d, engine %d%s)", size, r->scale, (int)cfg->engine,
			cfg->engine == KF_RENDER_ENGINE_PSF && !cfg->font_file ? ", no font file" : "");
		return -EINVAL;
	}
	struct font_params f = {
		.name = strdup(cfg->font_name ? cfg->font_name : "monospace"),
		.file = cfg->font_file ? strdup(cfg->font_file) : NULL,
		.size = size,
		.engine = cfg->engine == KF_RENDER_ENGINE_AUTO ? KF_RENDER_ENGINE_FREETYPE : cfg->engine,
	};
	struct kf_font *font;
	int ret = -ENOMEM;
	if (!f.name || (cfg->font_file && !f.file))
		goto out;
	swap_params(p, &f); /* f: the old ones, from here on */
	ret = open_font(p, r->scale, &font);
	if (ret) {
		swap_params(p, &f); /* the old font stays, with the settings it was opened with */
		goto out;
	}
	r->font->destroy(r->font);
	r->font = font;
	update_metrics(r);
	if (r->missing_keys) /* another font: it may have other glyphs */
		memset(r->missing_keys, 0, KF_MISSING_SLOTS * sizeof(*r->missing_keys));
	if (make_cache(p) < 0) {
		kf_cache_flush(r->cache);
		r->glyph_gen++;
	}
	r->epoch++;
out:
	free(f.name);
	free(f.file);
	return ret;
}

static void missing_finish(struct kf_render *r);

void kf_render_destroy(struct kf_render *r)
{
	if (!r)
		return;
	struct render_priv *p = (struct render_priv *)r;
	if (r->font)
		r->font->destroy(r->font);
	kf_cache_destroy(r->cache);
	kf_render_cells_finish(r);
	missing_finish(r);
	free(r->glyph_scratch);
	free(r->curly.y);
	free(r->scratch);
	free(r->notice.cells);
	free(r->seqs);
	free(p->font_name);
	free(p->font_file);
	free(p);
}

void kf_render_cell_size(const struct kf_render *r, int *w, int *h)
{
	*w = r->cell_w;
	*h = r->cell_h;
}

enum kf_render_engine kf_render_get_engine(const struct kf_render *r)
{
	return r->engine;
}

int kf_render_set_scale(struct kf_render *r, int scale)
{
	struct render_priv *p = (struct render_priv *)r;
	if (scale < 1 || scale > MAX_SCALE || (long)p->font_size * scale > MAX_SIZE * 2)
		return -EINVAL;
	if (scale == r->scale)
		return 0;
	if (r->engine == KF_RENDER_ENGINE_FREETYPE) { /* a fixed font too: it may have a strike for the zoom */
		struct kf_font *f;
		int ret = open_font(p, scale, &f);
		if (ret)
			return ret;
		r->font->destroy(r->font);
		r->font = f;
	}
	r->scale = scale;
	update_metrics(r);
	if (r->missing_keys) /* another font size: it may have other glyphs */
		memset(r->missing_keys, 0, KF_MISSING_SLOTS * sizeof(*r->missing_keys));
	if (make_cache(p) < 0) {
		/* keep the old cache (flushed); glyphs are re-rasterised at the new size */
		kf_cache_flush(r->cache);
		r->glyph_gen++;
	}
	r->epoch++;
	return 0;
}

int kf_render_get_scale(const struct kf_render *r)
{
	return r->scale;
}

static bool cells_fit(const struct kf_render *r, int width, int height)
{
	return r->cell_w <= width && r->cell_h <= height;
}

int kf_render_fit(struct kf_render *r, int width, int height)
{
	struct render_priv *p = (struct render_priv *)r;
	int cw = r->cell_w, ch = r->cell_h, scale = r->scale;

	if (width <= 0 || height <= 0 || cells_fit(r, width, height))
		return 0;
	if (scale > 1 && kf_render_set_scale(r, 1) == 0) {
		log_warn("cells of %dx%d pixels at zoom x%d do not fit the %dx%d pixel display: zoom x1", cw, ch, scale,
			 width, height);
		if (cells_fit(r, width, height))
			return 0;
		cw = r->cell_w;
		ch = r->cell_h;
	}
	/* (the strings are p's own: kf_render_set_font copies them before it lets the old ones go) */
	struct kf_render_config c = {.engine = r->engine, .font_name = p->font_name, .font_file = p->font_file,
				     .font_size = DEFAULT_SIZE};
	/* said only when it changed the cells: a font of one bitmap strike (font-file= a BDF font) has the same
	 * cells at any size, and the warning told of a change that was none (tests/render/test-font-open.c) */
	if (r->engine == KF_RENDER_ENGINE_FREETYPE && p->font_size > DEFAULT_SIZE && kf_render_set_font(r, &c) == 0 &&
	    (r->cell_w != cw || r->cell_h != ch)) {
		log_warn("cells of %dx%d pixels do not fit the %dx%d pixel display: font-size %d (the default) "
			 "instead", cw, ch, width, height, DEFAULT_SIZE);
		if (cells_fit(r, width, height))
			return 0;
		cw = r->cell_w;
		ch = r->cell_h;
	}
	c = (struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN};
	if (r->engine != KF_RENDER_ENGINE_BUILTIN && kf_render_set_font(r, &c) == 0)
		log_warn("cells of %dx%d pixels do not fit the %dx%d pixel display: the built-in 8x16 font instead",
			 cw, ch, width, height);
	if (cells_fit(r, width, height))
		return 0;
	log_err("not one cell of %dx%d pixels fits the %dx%d pixel display", r->cell_w, r->cell_h, width, height);
	return -ERANGE;
}

int kf_render_set_palette(struct kf_render *r, const char *name)
{
	uint32_t pal[258];
	int ret = kf_palette_load(pal, name);
	if (ret)
		return ret;
	memcpy(r->palette, pal, sizeof(pal));
	r->epoch++;
	return 0;
}

int kf_render_palette_load(const char *name, uint32_t pal[258])
{
	return kf_palette_load(pal, name);
}

int kf_render_set_palette_color(struct kf_render *r, const char *name, const char *value)
{
	int ret = kf_palette_set(r->palette, name, value);
	if (!ret)
		r->epoch++;
	return ret;
}

void kf_render_set_palette_colors(struct kf_render *r, const uint32_t rgb[18])
{
	for (int i = 0; i < 16; i++)
		r->palette[i] = rgb[i] & 0xffffff;
	r->palette[256] = rgb[16] & 0xffffff;
	r->palette[257] = rgb[17] & 0xffffff;
	r->epoch++;
}

const uint32_t *kf_render_palette(const struct kf_render *r)
{
	return r->palette;
}

void kf_render_set_blink(struct kf_render *r, bool on)
{
	r->blink_on = on;
}

void kf_render_set_flash(struct kf_render *r, bool on)
{
	r->flash = on;
}

void kf_render_set_pointer(struct kf_render *r, bool visible, int x, int y)
{
	r->pointer_visible = visible;
	r->pointer_x = x;
	r->pointer_y = y;
}

void kf_render_get_stats(const struct kf_render *r, struct kf_render_stats *out)
{
	kf_cache_stats(r->cache, out);
}

/* Whether the n bytes at p are all zero, read 8 at a time (a glyph's rows are a few dozen bytes;
 * a byte at a time cost as much as placing the bitmap). */
static bool zero_bytes(const uint8_t *p, size_t n)
{
	uint64_t acc = 0, v;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		memcpy(&v, p + i, 8);
		acc |= v;
	}
	for (; i < n; i++)
		acc |= p[i];
	return !acc;
}

/* Whether a byte of the n at p is neither 0 nor 255 (partial coverage). */
static bool partial_bytes(const uint8_t *p, size_t n)
{
	const uint64_t hi = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, p + i, 8);
		/* a byte is 0 or 255 exactly when it equals its own top bit spread: v ^ spread is
		 * zero in every such byte */
		uint64_t spread = ((v & hi) >> 7) * 0xff;
		if (v ^ spread)
			return true;
	}
	for (; i < n; i++)
		if (p[i] && p[i] != 255)
			return true;
	return false;
}

static void ink_rows(struct kf_glyph *g)
{
	size_t px = g->kind == KF_GLYPH_COLOR ? 4 : 1, row = (size_t)g->w * px;
	const uint8_t *d = g->data;
	int y0 = 0, y1 = g->h;
	while (y0 < y1 && zero_bytes(d + (size_t)y0 * row, row))
		y0++;
	while (y1 > y0 && zero_bytes(d + (size_t)(y1 - 1) * row, row))
		y1--;
	g->y0 = (uint16_t)y0;
	g->y1 = (uint16_t)y1;
	g->aa = g->kind == KF_GLYPH_ALPHA &&
		partial_bytes(d + (size_t)y0 * row, (size_t)(y1 - y0) * row);
	if (y0 == y1)
		g->kind = KF_GLYPH_EMPTY;
}

static struct kf_glyph missing_fallback;

bool kf_render_known_missing(const struct kf_render *r, uint64_t key)
{
	return r->missing_keys && r->missing_keys[kf_missing_slot(key)] == key;
}

static void missing_finish(struct kf_render *r)
{
	free(r->missing_keys);
	r->missing_keys = NULL;
	for (int i = 0; i < 2; i++) {
		free(r->missing_box[i].data);
		r->missing_box[i] = (struct kf_glyph){0};
	}
}

/* The shared box for a glyph the fonts lack (NULL when out of memory), built at the current cell
 * size. */
static const struct kf_glyph *missing_box(struct kf_render *r, int cells)
{
	struct kf_glyph *g = &r->missing_box[cells == 2];
	int w = r->cell_w * cells, h = r->cell_h;
	if (g->data && g->w == w && g->h == h)
		return g;
	free(g->data);
	*g = (struct kf_glyph){.kind = KF_GLYPH_ALPHA, .cells = (uint8_t)cells, .missing = true,
			       .w = (uint16_t)w, .h = (uint16_t)h};
	g->data = calloc((size_t)w * h, 1);
	if (!g->data)
		return NULL;
	kf_procedural_missing(g->data, w, h);
	ink_rows(g);
	return g;
}

static void remember_missing(struct kf_render *r, uint64_t key)
{
	if (!r->missing_keys)
		r->missing_keys = calloc(KF_MISSING_SLOTS, sizeof(*r->missing_keys));
	if (r->missing_keys)
		r->missing_keys[kf_missing_slot(key)] = key;
}

/* Rasterises cp into g (w x h, data large enough for a colour glyph, not cleared: what is drawn is
 * cleared first); false when the fonts lack it. */
static bool rasterise(struct kf_render *r, uint32_t cp, unsigned style, struct kf_glyph *g)
{
	if (kf_render_cp_blank(cp)) {
		g->kind = KF_GLYPH_EMPTY;
		return true;
	}
	/* drawn by code: always (box drawing, blocks, Powerline's separators), or where the font lacks the
	 * glyph (Powerline's symbols U+E0A0-E0A3: a font that has them keeps its design) */
	bool procedural = !(cp & KF_SEQ_CP) && kf_procedural_has(cp);
	if (cp & KF_SEQ_CP) {
		if (cp != r->seq.cp || r->font->render_seq(r->font, r->seq.cps, r->seq.n, g) < 0)
			return false;
	} else if (!procedural) {
		if (r->font->render(r->font, cp, style, pixel_scale(r), g) < 0) {
			if (!kf_procedural_stands_in(cp))
				return false;
			procedural = true;
		}
	}
	if (procedural) {
		g->kind = KF_GLYPH_ALPHA; /* (a failed render may have left another) */
		memset(g->data, 0, (size_t)g->w * g->h);
		kf_procedural_draw(cp, g->data, g->w, g->h);
	}
	if (g->kind != KF_GLYPH_EMPTY)
		ink_rows(g);
	return true;
}

const struct kf_glyph *kf_render_glyph(struct kf_render *r, uint32_t cp, unsigned style, int cells)
{
	uint64_t key = kf_glyph_key(cp, style, cells);
	struct kf_glyph *g = kf_cache_find(r->cache, key);
	if (g) {
		if (cells == 1 && cp < 128 && style < 4) {
			if (r->ascii_gen != r->glyph_gen) {
				memset(r->ascii_glyph, 0, sizeof(r->ascii_glyph));
				r->ascii_gen = r->glyph_gen;
			}
			r->ascii_glyph[style][cp] = g;
		}
		return g;
	}
	const struct kf_glyph *box = NULL;
	bool boxed = cells == 1 || cells == 2;
	if (boxed && kf_render_known_missing(r, key) && (box = missing_box(r, cells)))
		return box;
	int w = r->cell_w * cells, h = r->cell_h;
	size_t bytes = (size_t)w * h * 4;
	/* Rasterised aside, and cached only when the fonts have it: a glyph they lack shows the
	 * shared box and must not evict one they have (CJK text without a CJK font brings thousands
	 * of distinct characters, most seen once: each cost a re-rasterised Latin or Greek glyph). */
	if (r->glyph_scratch_len < bytes) {
		void *n = realloc(r->glyph_scratch, bytes);
		if (n) {
			r->glyph_scratch = n;
			r->glyph_scratch_len = bytes;
		}
	}
	struct kf_glyph tmp = {.kind = KF_GLYPH_ALPHA, .cells = (uint8_t)cells, .w = (uint16_t)w,
			       .h = (uint16_t)h, .data = r->glyph_scratch};
	bool have = false;
	if (tmp.data && r->glyph_scratch_len >= bytes) {
		have = rasterise(r, cp, style, &tmp);
		if (!have) {
			remember_missing(r, key);
			if (boxed && (box = missing_box(r, cells)))
				return box;
		}
	}
	struct kf_render_stats st0, st1;
	kf_cache_stats(r->cache, &st0);
	g = kf_cache_insert(r->cache, key, bytes);
	kf_cache_stats(r->cache, &st1);
	if (st1.evictions != st0.evictions) /* an entry ascii_glyph may name was reused */
		r->glyph_gen++;
	if (!g) {
		missing_fallback.kind = KF_GLYPH_EMPTY;
		return &missing_fallback;
	}
	void *data = g->data;
	if (have) {
		*g = tmp;
		g->data = data;
		if (tmp.kind != KF_GLYPH_EMPTY)
			memcpy(data, tmp.data, tmp.kind == KF_GLYPH_COLOR ? bytes : (size_t)w * h);
		return g;
	}
	/* Out of memory for the scratch glyph, or for the shared box: render in place. */
	*g = (struct kf_glyph){.kind = KF_GLYPH_ALPHA, .cells = (uint8_t)cells, .w = (uint16_t)w,
			       .h = (uint16_t)h, .data = data};
	if (!rasterise(r, cp, style, g)) {
		remember_missing(r, key);
		memset(data, 0, bytes);
		g->kind = KF_GLYPH_ALPHA;
		g->missing = true;
		kf_procedural_missing(data, w, h);
		ink_rows(g);
	}
	return g;
}
