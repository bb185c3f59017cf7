/* tests/render/screen.c: see screen.h. */
#include "screen.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p)
		abort();
	return p;
}

static const struct grid_cell *row_cb(void *ud, int y)
{
	struct screen *s = ud;
	return s->cells + (size_t)y * s->cols;
}

static const struct grid_style *style_cb(void *ud, uint16_t id)
{
	struct screen *s = ud;
	return id < s->nstyles ? &s->styles[id] : NULL;
}

static size_t cps_cb(void *ud, const struct grid_cell *c, uint32_t *out, size_t cap)
{
	struct screen *s = ud;
	uint32_t mark = s->marks[c - s->cells];
	if (!c->cp)
		return 0;
	if (cap)
		out[0] = c->cp;
	if (mark && cap > 1)
		out[1] = mark;
	return mark ? 2 : 1;
}

static bool damage_cb(void *ud, int y, int *x0, int *x1)
{
	struct screen *s = ud;
	*x0 = s->dx0[y];
	*x1 = s->dx1[y];
	return *x0 < *x1;
}

struct screen *screen_create(int cols, int rows)
{
	struct screen *s = xcalloc(1, sizeof(*s));
	s->cols = cols;
	s->rows = rows;
	s->cells = xcalloc((size_t)cols * rows, sizeof(*s->cells));
	for (int i = 0; i < cols * rows; i++)
		s->cells[i].width = 1;
	s->marks = xcalloc((size_t)cols * rows, sizeof(*s->marks));
	s->dx0 = xcalloc((size_t)rows, sizeof(int));
	s->dx1 = xcalloc((size_t)rows, sizeof(int));
	s->nstyles = 1;
	s->src = (struct kf_render_source){
	    .cols = cols,
	    .rows = rows,
	    .ud = s,
	    .row = row_cb,
	    .style = style_cb,
	    .row_damage = damage_cb,
	    .codepoints = cps_cb,
	};
	s->src.cursor.visible = false;
	return s;
}

void screen_destroy(struct screen *s)
{
	if (!s)
		return;
	free(s->cells);
	free(s->marks);
	free(s->dx0);
	free(s->dx1);
	free(s);
}

uint16_t screen_style(struct screen *s, struct grid_style st)
{
	for (int i = 0; i < s->nstyles; i++)
		if (!memcmp(&s->styles[i], &st, sizeof(st)))
			return (uint16_t)i;
	if (s->nstyles == SCREEN_MAX_STYLES)
		abort();
	s->styles[s->nstyles] = st;
	return (uint16_t)s->nstyles++;
}

static void damage(struct screen *s, int y, int x0, int x1)
{
	if (s->dx0[y] >= s->dx1[y]) {
		s->dx0[y] = x0;
		s->dx1[y] = x1;
	} else {
		if (x0 < s->dx0[y])
			s->dx0[y] = x0;
		if (x1 > s->dx1[y])
			s->dx1[y] = x1;
	}
}

void screen_put(struct screen *s, int x, int y, uint32_t cp, uint16_t style, int width)
{
	if (x < 0 || y < 0 || x >= s->cols || y >= s->rows)
		return;
	struct grid_cell *c = &s->cells[(size_t)y * s->cols + x];
	c->cp = cp;
	c->style = style;
	c->width = (uint8_t)width;
	s->marks[c - s->cells] = 0;
	damage(s, y, x, x + 1);
}

void screen_damage_clear(struct screen *s)
{
	for (int y = 0; y < s->rows; y++)
		s->dx0[y] = s->dx1[y] = 0;
}

bool screen_wide(uint32_t cp)
{
	return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	       (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	       (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0x1f300 && cp <= 0x1faff);
}

static uint32_t utf8_next(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	uint32_t cp;
	int n;
	if (s[0] < 0x80) {
		cp = s[0];
		n = 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		n = 2;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		n = 3;
	} else {
		cp = s[0] & 0x07;
		n = 4;
	}
	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	*p += n;
	return cp;
}

int screen_text(struct screen *s, int x, int y, const char *utf8, uint16_t style)
{
	while (*utf8 && x < s->cols) {
		uint32_t cp = utf8_next(&utf8);
		if (((cp >= 0x300 && cp <= 0x36f) || cp == 0xfe0f) && x > 0) {
			s->marks[(size_t)y * s->cols + x - 1] = cp;
			damage(s, y, x - 1, x);
			continue;
		}
		if (screen_wide(cp) && x + 1 < s->cols) {
			screen_put(s, x, y, cp, style, 2);
			screen_put(s, x + 1, y, 0, style, 0);
			x += 2;
		} else {
			screen_put(s, x, y, cp, style, 1);
			x++;
		}
	}
	return x;
}

uint32_t *screen_render(struct kf_render *r, struct screen *s, int *w, int *h)
{
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	*w = cw * s->cols;
	*h = ch * s->rows;
	uint32_t *px = xcalloc((size_t)*w * *h, 4);
	struct kf_render_target t = {px, *w, *h, *w * 4, KF_RENDER_XRGB8888};
	if (kf_render_paint_full(r, &s->src, &t, NULL, 0) < 0)
		abort();
	return px;
}

uint32_t *png_read_xrgb(const char *path, int *w, int *h)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path))
		return NULL;
	img.format = PNG_FORMAT_BGRA; /* little-endian bytes B,G,R,A = 0xAARRGGBB */
	uint32_t *px = malloc(PNG_IMAGE_SIZE(img));
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		free(px);
		png_image_free(&img);
		return NULL;
	}
	*w = (int)img.width;
	*h = (int)img.height;
	for (size_t i = 0; i < (size_t)*w * *h; i++)
		px[i] &= 0xffffff;
	return px;
}

long alpha_ink(const uint8_t *p, size_t n)
{
	long s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* Two descriptors in one token: the saved stderr in the low 16 bits, the file above. */
int stderr_capture_begin(void)
{
	fflush(stderr);
	FILE *f = tmpfile();
	const int saved = f ? dup(2) : -1, fd = f ? dup(fileno(f)) : -1;
	if (f)
		fclose(f);
	if (saved < 0 || fd < 0 || saved > 0xffff || dup2(fd, 2) < 0) {
		if (saved >= 0)
			close(saved);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd << 16 | saved;
}

void stderr_capture_end(int token, char *buf, size_t n)
{
	buf[0] = 0;
	if (token < 0)
		return;
	const int saved = token & 0xffff, fd = token >> 16;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	const ssize_t got = pread(fd, buf, n - 1, 0);
	buf[got > 0 ? got : 0] = 0;
	close(fd);
}

void bdf_write(const char *path, const char *registry, const char *encoding, int asc, int desc, const uint32_t *cps,
	       int n, uint8_t (*bits)(uint32_t cp, int y))
{
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	const int h = asc + desc;
	fprintf(f, "STARTFONT 2.1\nFONT -test-bdf-medium-r-normal--%d-160-75-75-c-80-%s-%s\nSIZE %d 75 75\n"
		   "FONTBOUNDINGBOX 8 %d 0 %d\nSTARTPROPERTIES 4\nCHARSET_REGISTRY \"%s\"\nCHARSET_ENCODING \"%s\"\n"
		   "FONT_ASCENT %d\nFONT_DESCENT %d\nENDPROPERTIES\nCHARS %d\n",
		h, registry, encoding, h, h, -desc, registry, encoding, asc, desc, n);
	for (int i = 0; i < n; i++) {
		fprintf(f, "STARTCHAR c%04x\nENCODING %u\nSWIDTH 500 0\nDWIDTH 8 0\nBBX 8 %d 0 %d\nBITMAP\n", cps[i],
			cps[i], h, -desc);
		for (int y = 0; y < h; y++)
			fprintf(f, "%02X\n", bits(cps[i], y));
		fputs("ENDCHAR\n", f);
	}
	fputs("ENDFONT\n", f);
	fclose(f);
}
