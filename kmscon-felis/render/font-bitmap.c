/* kmscon-felis/render/font-bitmap.c: bitmap fonts: the built-in 8x16 font and Linux console PSF
 * fonts.
 *
 * PSF formats as documented by the kbd project
 * (https://www.win.tue.nl/~aeb/linux/kbd/font-formats-1.html): PSF1 (magic 36 04, 8 pixels wide,
 * 256 or 512 glyphs, optional UCS-2 table) and PSF2 (magic 72 b5 4a 86, any width, optional UTF-8
 * table). Deviations: Unicode sequences (several code points for one glyph) are skipped, only
 * single code points are mapped. Files may be gzip-compressed (zlib reads both forms). Bold and
 * italic are synthesised: bold ORs the glyph with itself shifted one pixel right, italic shears
 * rows by a quarter pixel per row above the baseline (moved left to stay in the cell: italic_shift).
 */
#include <errno.h>
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

/* The columns a synthesised italic glyph moves left by to stay in its f->w columns. The shear moves a
 * row right by (baseline - y) / 4 pixels (bold one more), which cut the top right of the letters that
 * fill the width (J Ñ Æ © % in the built-in font); a glyph with room on its left moves there, as the
 * FreeType fonts' do (kf_ft_slant). One wider than the cell once slanted (M W) still loses its edge. */
static int italic_shift(const struct bitmap_font *f, const uint8_t *g, unsigned style)
{
	int lo = f->w, hi = -1;
	for (int y = 0; y < f->h; y++)
		for (int x = 0; x < f->w; x++) {
			int s = x + (f->base.baseline - y) / 4;
			if (bit_at(f, g, x, y) && s < lo)
				lo = s;
			if (bit_at(f, g, x, y) && s + !!(style & KF_GLYPH_BOLD) > hi)
				hi = s + !!(style & KF_GLYPH_BOLD);
		}
	int over = hi - (f->w - 1);
	return over <= 0 || lo <= 0 ? 0 : over < lo ? over : lo;
}

/* The synthesised style decides which source pixel lands on (x, y); dx: italic_shift's. */
static bool styled_bit(const struct bitmap_font *f, const uint8_t *g, int x, int y, unsigned style,
		       int dx)
{
	if (style & KF_GLYPH_ITALIC)
		x += dx - (f->base.baseline - y) / 4;
	if (bit_at(f, g, x, y))
		return true;
	return (style & KF_GLYPH_BOLD) && bit_at(f, g, x - 1, y);
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
	/* A wide character keeps its glyph centred across both cells. */
	int xoff = (out->w / scale - f->w) / 2;
	int dx = style & KF_GLYPH_ITALIC ? italic_shift(f, g, style) : 0;
	for (int y = 0; y < f->h; y++) {
		for (int x = 0; x < f->w; x++) {
			if (!styled_bit(f, g, x, y, style, dx))
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

/* Reads a whole (possibly gzip-compressed) file, at most PSF_MAX_FILE bytes. */
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
		if (n == cap) {
			if (cap >= PSF_MAX_FILE) {
				ret = -EFBIG;
				goto out_free;
			}
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
