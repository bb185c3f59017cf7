/* kmscon-felis/render/font-bitmap.c: bitmap fonts: the built-in 8x16 font and Linux console PSF
 * fonts.
 *
 * PSF formats as documented by the kbd project
 * (https://www.win.tue.nl/~aeb/linux/kbd/font-formats-1.html): PSF1 (magic 36 04, 8 pixels wide,
 * 256 or 512 glyphs, optional UCS-2 table) and PSF2 (magic 72 b5 4a 86, any width, optional UTF-8
 * table). Deviations: Unicode sequences (several code points for one glyph) are skipped, only
 * single code points are mapped. Files may be gzip-compressed (zlib reads both forms). Bold and
 * italic are synthesised: bold ORs the glyph with itself shifted one pixel right, italic shears
 * rows by a quarter pixel per row above the baseline (moved left, or a glyph too wide for that
 * slope slanted less, to stay in the cell: italic_rows).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

#define PSF_MAX_FILE (8u << 20) /* the largest real console fonts are ~ 100 KiB */
#define PSF_MAX_W 64
#define PSF_MAX_H 128
#define PSF_MAX_GLYPHS 65536u

struct cp_map {
	uint32_t cp, idx;
};

struct bitmap_font {
	struct kf_font base;
	int w, h, row_bytes;
	unsigned count;
	const uint8_t *glyphs; /* count * h * row_bytes */
	uint8_t *owned;	       /* the PSF file contents (glyphs points into it) */
	struct cp_map *map;    /* sorted by cp */
	size_t map_n;
};

static int map_cmp(const void *a, const void *b)
{
	const struct cp_map *x = a, *y = b;
	return x->cp < y->cp ? -1 : x->cp > y->cp;
}

static long find_glyph(const struct bitmap_font *f, uint32_t cp)
{
	size_t lo = 0, hi = f->map_n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->map[mid].cp == cp)
			return f->map[mid].idx;
		if (f->map[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static bool bit_at(const struct bitmap_font *f, const uint8_t *g, int x, int y)
{
	if (x < 0 || x >= f->w || y < 0 || y >= f->h)
		return false;
	return g[y * f->row_bytes + x / 8] & (0x80 >> (x % 8));
}

/* The columns [*x0, *x1] of row y's ink in the upright glyph as its room [.., hi) shows it (bold:
 * each pixel and the one right of it, but the cell cuts bold's column past a glyph that fills its
 * width: the Fixed fonts' letters, Terminus's ©); false for an empty row. */
static bool row_ink(const struct bitmap_font *f, const uint8_t *g, int y, bool bold, int hi,
		    int *x0, int *x1)
{
	*x0 = INT_MAX;
	*x1 = INT_MIN;
	for (int x = 0; x < f->w; x++)
		if (bit_at(f, g, x, y)) {
			*x0 = x < *x0 ? x : *x0;
			*x1 = x + bold < hi ? x + bold : x;
		}
	return *x1 >= 0;
}

#define FULL_SHEAR (-1)

/* Fills shift[0, f->h) with the columns each row of g moves right by: the full shear (FULL_SHEAR),
 * a pixel every four rows above the baseline (the descenders of tall fonts lean left), or steps
 * pixels spread evenly over the glyph's own rows above the baseline, [top, bottom], the others
 * staying (steps 0: upright). Returns the slanted glyph's width, its first column in *x0. */
static int slant(const struct bitmap_font *f, const uint8_t *g, bool bold, int hi, int steps,
		 int top, int bottom, int *shift, int *x0)
{
	int x1 = INT_MIN;
	*x0 = INT_MAX;
	for (int y = 0; y < f->h; y++) {
		int a, b;
		shift[y] = steps == FULL_SHEAR ? (f->base.baseline - y) / 4
			   : steps == 0 || y > bottom
			       ? 0
			       : (bottom - y) * (steps + 1) / (bottom - top + 1);
		if (row_ink(f, g, y, bold, hi, &a, &b)) {
			*x0 = a + shift[y] < *x0 ? a + shift[y] : *x0;
			x1 = b + shift[y] > x1 ? b + shift[y] : x1;
		}
	}
	if (x1 < 0) /* no ink (a blank glyph) */
		*x0 = x1 = 0;
	return x1 - *x0 + 1;
}

/* The columns each row of the italic of glyph g moves right by (shift[0, f->h)), for the room
 * [lo, hi) of the glyph's columns (a cell: [0, f->w); a wide character's has half its neighbour's
 * each side). Each row moves whole: every pixel of the upright (bold) glyph is drawn, none outside
 * the room.
 *
 * Where the full shear's rows fit the room it is the slant, moved left (right) where the room lies
 * there: J Ñ Æ © % fill the width and lost their top right; the FreeType fonts' do the same
 * (kf_ft_slant). A glyph too wide for it (M W Æ, and with bold's extra column most capitals of
 * Terminus) leans by fewer pixels, the most that fit, spread evenly over its own rows (M leans a
 * pixel: its upper half moved), so it still reads as slanted. Keeping a slope from the baseline
 * instead (a pixel every p rows, p raised until the glyph fits) moved only the top row of some
 * (Terminus's © and bold $ @ m): a misdrawn row, not a slant; spread over the glyph's rows, a step
 * moves half of them at least. A glyph too wide even for a pixel's lean stays upright (bold M W:
 * both stems fill the 8-pixel cell from top to bottom). */
static void italic_rows(const struct bitmap_font *f, const uint8_t *g, bool bold, int lo, int hi,
			int *shift)
{
	const int base = f->base.baseline;
	int top = -1, bottom = -1, a, b, x0;
	for (int y = 0; y < f->h && y < base; y++)
		if (row_ink(f, g, y, bold, hi, &a, &b))
			top = top < 0 ? y : top, bottom = y;
	int w = slant(f, g, bold, hi, FULL_SHEAR, top, bottom, shift, &x0);
	/* no more steps than the full shear has, nor than rows to spread them over */
	int steps = top < 0 ? 0 : (base - top) / 4 < bottom - top ? (base - top) / 4 : bottom - top;
	for (; w > hi - lo && steps >= 0; steps--)
		w = slant(f, g, bold, hi, steps, top, bottom, shift, &x0);
	/* into the room: left as far as the right edge needs and the left allows (or right) */
	int x1 = x0 + w - 1, dx = 0;
	if (x0 < lo)
		dx = x0 - lo;
	else if (x1 >= hi)
		dx = x1 - hi + 1 < x0 - lo ? x1 - hi + 1 : x0 - lo;
	for (int y = 0; y < f->h; y++)
		shift[y] -= dx;
}

static int bitmap_render(struct kf_font *base, uint32_t cp, unsigned style, int scale,
			 struct kf_glyph *out)
{
	struct bitmap_font *f = (struct bitmap_font *)base;
	long idx = find_glyph(f, cp);
	if (idx < 0)
		return -ENOENT;
	const uint8_t *g = f->glyphs + (size_t)idx * f->h * f->row_bytes;
	uint8_t *mask = out->data;
	memset(mask, 0, (size_t)out->w * out->h);
	/* A wide character's glyph is centred across both cells; its italic may use them. */
	const int xoff = (out->w / scale - f->w) / 2, lo = -xoff, hi = out->w / scale - xoff;
	const bool bold = style & KF_GLYPH_BOLD;
	int shift[PSF_MAX_H] = {0};
	if (style & KF_GLYPH_ITALIC)
		italic_rows(f, g, bold, lo, hi, shift);
	for (int y = 0; y < f->h; y++) {
		for (int x = lo; x < hi; x++) {
			int sx = x - shift[y];
			/* (bold's column past the room is not drawn upright: nor is it slanted) */
			if (!bit_at(f, g, sx, y) && !(bold && sx < hi && bit_at(f, g, sx - 1, y)))
				continue;
			for (int sy = 0; sy < scale; sy++) {
				uint8_t *p = mask + (size_t)(y * scale + sy) * out->w +
					     (size_t)(x + xoff) * scale;
				memset(p, 0xff, scale);
			}
		}
	}
	out->kind = KF_GLYPH_ALPHA;
	return 0;
}

static void bitmap_destroy(struct kf_font *base)
{
	struct bitmap_font *f = (struct bitmap_font *)base;
	free(f->map);
	free(f->owned);
	free(f);
}

static struct bitmap_font *bitmap_new(int w, int h)
{
	struct bitmap_font *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->w = w;
	f->h = h;
	f->row_bytes = (w + 7) / 8;
	f->base.cell_w = w;
	f->base.cell_h = h;
	f->base.baseline = h * 13 / 16;
	f->base.ul_pos = h - h / 8;
	f->base.ul_thick = h >= 24 ? 2 : 1;
	f->base.render = bitmap_render;
	f->base.destroy = bitmap_destroy;
	return f;
}

int kf_font_builtin_create(struct kf_font **out)
{
	struct bitmap_font *f = bitmap_new(8, 16);
	if (!f)
		return -ENOMEM;
	f->count = kf_builtin_font_count;
	f->glyphs = &kf_builtin_font_bits[0][0];
	f->map = calloc(f->count, sizeof(*f->map));
	if (!f->map) {
		free(f);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < f->count; i++)
		f->map[i] = (struct cp_map){kf_builtin_font_cps[i], i};
	f->map_n = f->count;
	f->base.baseline = 13; /* art row 9 is cell row 12, the last row on the baseline */
	f->base.ul_pos = 14;
	*out = &f->base;
	return 0;
}

/* Reads a whole (possibly gzip-compressed) file, at most PSF_MAX_FILE bytes (unpacked): a file or content of
 * exactly that size is read, one byte more refused with -EFBIG, logged here as what was too large (a small
 * gzip'ed file that unpacks past the bound is not "too large" itself). */
static int read_file(const char *path, uint8_t **data, size_t *len)
{
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	size_t cap = 64 * 1024, n = 0;
	uint8_t *buf = malloc(cap);
	int ret = -ENOMEM;
	if (!buf)
		goto out_close;
	for (;;) {
		if (n == cap && cap >= PSF_MAX_FILE) {
			/* a full buffer at the bound: only the end of the file may follow */
			uint8_t more;
			const int got = gzread(gz, &more, 1);
			if (got == 0)
				break;
			ret = got < 0 ? -EBADMSG : -EFBIG;
			if (got > 0)
				log_err("%s: %s than %u MiB", path,
					gzdirect(gz) ? "larger" : "unpacks to more", PSF_MAX_FILE >> 20);
			goto out_free;
		}
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb)
				goto out_free;
			buf = nb;
			cap *= 2;
		}
		int got = gzread(gz, buf + n, (unsigned)(cap - n));
		if (got < 0) {
			ret = -EBADMSG;
			goto out_free;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	gzclose(gz);
	/* The font keeps these bytes for its lifetime: no doubling's slack (up to half), and a glyph read past
	 * the file's end is past the block, where AddressSanitizer sees it (tests/fuzz/fuzz-psf.c) */
	uint8_t *fit = realloc(buf, n ? n : 1);
	*data = fit ? fit : buf;
	*len = n;
	return 0;
out_free:
	free(buf);
out_close:
	gzclose(gz);
	return ret;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static int add_map(struct bitmap_font *f, size_t *cap, uint32_t cp, uint32_t idx)
{
	if (f->map_n == *cap) {
		size_t nc = *cap ? *cap * 2 : 512;
		struct cp_map *nm = realloc(f->map, nc * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
		f->map = nm;
		*cap = nc;
	}
	f->map[f->map_n++] = (struct cp_map){cp, idx};
	return 0;
}

/* Decodes one UTF-8 code point from the PSF2 table; returns bytes used, 0 when malformed. */
static size_t utf8_one(const uint8_t *p, size_t n, uint32_t *cp)
{
	unsigned len = p[0] < 0x80	       ? 1
		       : (p[0] & 0xe0) == 0xc0 ? 2
		       : (p[0] & 0xf0) == 0xe0 ? 3
		       : (p[0] & 0xf8) == 0xf0 ? 4
					       : 0;
	if (!len || len > n)
		return 0;
	uint32_t v = len == 1 ? p[0] : p[0] & (0x7f >> len);
	for (unsigned i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	*cp = v;
	return len;
}

static int parse_psf2_table(struct bitmap_font *f, const uint8_t *p, size_t n)
{
	size_t cap = 0;
	uint32_t idx = 0;
	bool in_seq = false;
	while (n && idx < f->count) {
		uint32_t cp;
		size_t used;
		if (p[0] == 0xff) {
			idx++;
			in_seq = false;
			used = 1;
		} else if (p[0] == 0xfe) {
			in_seq = true;
			used = 1;
		} else if (!(used = utf8_one(p, n, &cp))) {
			used = 1; /* skip a malformed byte rather than reject the font */
		} else if (!in_seq && add_map(f, &cap, cp, idx) < 0) {
			return -ENOMEM;
		}
		p += used;
		n -= used;
	}
	return 0;
}

static int parse_psf1_table(struct bitmap_font *f, const uint8_t *p, size_t n)
{
	size_t cap = 0;
	uint32_t idx = 0;
	bool in_seq = false;
	for (; n >= 2 && idx < f->count; p += 2, n -= 2) {
		uint32_t v = p[0] | p[1] << 8;
		if (v == 0xffff) {
			idx++;
			in_seq = false;
		} else if (v == 0xfffe) {
			in_seq = true;
		} else if (!in_seq && add_map(f, &cap, v, idx) < 0) {
			return -ENOMEM;
		}
	}
	return 0;
}

static int identity_map(struct bitmap_font *f)
{
	f->map = calloc(f->count, sizeof(*f->map));
	if (!f->map)
		return -ENOMEM;
	for (unsigned i = 0; i < f->count; i++)
		f->map[i] = (struct cp_map){i, i};
	f->map_n = f->count;
	return 0;
}

/* Validates the header, sets up f from the file data. Returns 0 or -EBADMSG/-ENOMEM. */
static int parse_psf(const char *path, uint8_t *d, size_t n, struct bitmap_font **out)
{
	uint32_t w, h, count, charsize, hdr;
	bool table, psf1 = false;
	if (n >= 4 && d[0] == 0x36 && d[1] == 0x04) {
		psf1 = true;
		w = 8;
		h = d[3];
		count = d[2] & 0x01 ? 512 : 256;
		charsize = h;
		hdr = 4;
		table = d[2] & 0x06;
	} else if (n >= 32 && le32(d) == 0x864ab572u) {
		hdr = le32(d + 8);
		table = le32(d + 12) & 1;
		count = le32(d + 16);
		charsize = le32(d + 20);
		h = le32(d + 24);
		w = le32(d + 28);
	} else {
		log_err("%s: not a PSF1 or PSF2 font", path);
		return -EBADMSG;
	}
	if (!w || !h || w > PSF_MAX_W || h > PSF_MAX_H || !count || count > PSF_MAX_GLYPHS ||
	    charsize != h * ((w + 7) / 8) || hdr < (psf1 ? 4u : 32u) || hdr > n ||
	    (uint64_t)count * charsize > n - hdr) {
		log_err(
		    "%s: PSF header out of range (%ux%u, %u glyphs, %u bytes each, file %zu bytes)",
		    path, w, h, count, charsize, n);
		return -EBADMSG;
	}
	struct bitmap_font *f = bitmap_new((int)w, (int)h);
	if (!f)
		return -ENOMEM;
	f->count = count;
	f->glyphs = d + hdr;
	const uint8_t *tab = d + hdr + (size_t)count * charsize;
	size_t tab_n = n - hdr - (size_t)count * charsize;
	int ret =
	    table ? (psf1 ? parse_psf1_table(f, tab, tab_n) : parse_psf2_table(f, tab, tab_n)) : 0;
	if (!ret && !f->map_n)
		ret = identity_map(f);
	if (ret) {
		free(f->map);
		free(f);
		return ret;
	}
	qsort(f->map, f->map_n, sizeof(*f->map), map_cmp);
	/* A Unicode table that maps no letter of ASCII (a font of symbols or box drawing) made every letter
	 * of the console the missing-glyph box: refused, as FreeType's fonts are (font-ft.c, from_file). */
	bool letter = false;
	for (uint32_t c = 'A'; c <= 'z' && !letter; c++)
		letter = (c <= 'Z' || c >= 'a') && find_glyph(f, c) >= 0;
	if (!letter) {
		log_err("%s: no letter of ASCII in the font (its Unicode table maps none of A-Z, a-z): not usable "
			"as the console's font",
			path);
		free(f->map);
		free(f);
		return -EBADMSG;
	}
	*out = f;
	return 0;
}

int kf_font_psf_create(const char *path, struct kf_font **out)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (!path)
		return -EINVAL;
	int ret = read_file(path, &data, &len);
	if (ret) {
		if (ret != -EFBIG) /* read_file said what was too large */
			log_err("%s: cannot read PSF font: %s", path, strerror(-ret));
		return ret;
	}
	struct bitmap_font *f;
	ret = parse_psf(path, data, len, &f);
	if (ret) {
		free(data);
		return ret;
	}
	f->owned = data;
	*out = &f->base;
	return 0;
}
