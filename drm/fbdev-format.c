/* drm/fbdev-format.c: the pure parts of the framebuffer (fbdev) fallback: the pixel layout an fbdev describes
 * (struct fb_var_screeninfo), the conversion of canvas rows (XRGB8888) into it, the refresh rate its timings
 * give, which fbdev to use, and which refusals were said. No system calls: tests/drm/test-drm-fbdev.c runs all
 * of it.
 *
 * Kernel ABI: include/uapi/linux/fb.h. A pixel of bits_per_pixel bits holds each channel's top `length` bits at
 * bit `offset` (msb_right = 0; nothing sets it for packed truecolour), stored little-endian in 2, 3 or 4 bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drm/drm-internal.h"

static bool channel_ok(const struct fb_bitfield *c, unsigned bpp)
{
	/* offset compared alone first: a driver's nonsense offset plus the length wrapped 32 bits into range */
	return c->length >= 1 && c->length <= 8 && c->offset < bpp && c->offset + c->length <= bpp && !c->msb_right;
}

int drm_fb_format_from_var(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *fix,
			   struct drm_fb_format *f, char *why, size_t why_size)
{
	unsigned bpp = v->bits_per_pixel;

	memset(f, 0, sizeof(*f));
	if (fix->type != FB_TYPE_PACKED_PIXELS || fix->visual != FB_VISUAL_TRUECOLOR || v->nonstd) {
		/* Planar, interleaved, palette (PSEUDOCOLOR) and DIRECTCOLOR layouts need a colour map or bit
		 * planes: a terminal's 256 colours and anti-aliased glyphs do not fit them. */
		static const char *const visuals[] = {"monochrome", "monochrome", "truecolour", "palette (pseudocolour)",
						      "directcolour", "static palette"};
		snprintf(why, why_size, "%u bpp %s%s%s: only packed truecolour (16, 24 or 32 bpp) is supported", bpp,
			 fix->visual < 6 ? visuals[fix->visual] : "unknown visual",
			 fix->type != FB_TYPE_PACKED_PIXELS ? ", not packed pixels" : "", v->nonstd ? ", nonstd" : "");
		return -ENOTSUP;
	}
	if (bpp != 16 && bpp != 24 && bpp != 32) {
		snprintf(why, why_size, "%u bits per pixel: only 16, 24 and 32 are supported", bpp);
		return -ENOTSUP;
	}
	if (!channel_ok(&v->red, bpp) || !channel_ok(&v->green, bpp) || !channel_ok(&v->blue, bpp)) {
		snprintf(why, why_size, "%u bpp with channels r%u@%u g%u@%u b%u@%u: unsupported", bpp, v->red.length,
			 v->red.offset, v->green.length, v->green.offset, v->blue.length, v->blue.offset);
		return -ENOTSUP;
	}
	f->bytes = (uint8_t)(bpp / 8);
	f->r_off = (uint8_t)v->red.offset, f->r_len = (uint8_t)v->red.length;
	f->g_off = (uint8_t)v->green.offset, f->g_len = (uint8_t)v->green.length;
	f->b_off = (uint8_t)v->blue.offset, f->b_len = (uint8_t)v->blue.length;
	/* An alpha channel only where it is one: within the pixel and clear of the colours (a driver that does not
	 * have one leaves transp zeroed, one with nonsense there is not believed) */
	if (v->transp.length && channel_ok(&v->transp, bpp)) {
		uint32_t a = ((1u << v->transp.length) - 1) << v->transp.offset;
		uint32_t rgb = drm_fb_pack(f, 0xffffff);
		f->opaque = a & rgb ? 0 : a;
	}
	/* The canvas' own layout: rows go in with memcpy. */
	f->xrgb8888 = bpp == 32 && f->r_off == 16 && f->g_off == 8 && f->b_off == 0 && f->r_len == 8 &&
		      f->g_len == 8 && f->b_len == 8 && !f->opaque;
	return 0;
}

void drm_fb_format_name(const struct drm_fb_format *f, char *buf, size_t size)
{
	if (f->xrgb8888)
		snprintf(buf, size, "XRGB8888");
	else if (f->bytes == 4 && f->r_off == 16 && f->g_off == 8 && f->b_off == 0 && f->r_len == 8 && f->g_len == 8 &&
		 f->b_len == 8 && f->opaque == 0xff000000u)
		snprintf(buf, size, "ARGB8888");
	else if (f->bytes == 2 && f->r_off == 11 && f->r_len == 5 && f->g_off == 5 && f->g_len == 6 &&
		 f->b_off == 0 && f->b_len == 5)
		snprintf(buf, size, "RGB565");
	else
		snprintf(buf, size, "%u bpp r%u@%u g%u@%u b%u@%u%s", f->bytes * 8u, f->r_len, f->r_off, f->g_len,
			 f->g_off, f->b_len, f->b_off, f->opaque ? " with alpha" : "");
}

uint32_t drm_fb_pack(const struct drm_fb_format *f, uint32_t xrgb)
{
	uint32_t r = (xrgb >> 16) & 0xff, g = (xrgb >> 8) & 0xff, b = xrgb & 0xff;

	/* The top bits of each channel (truncation, as the kernel's own conversions do: drm_format_helper.c's
	 * xrgb8888 to rgb565). */
	return (r >> (8 - f->r_len)) << f->r_off | (g >> (8 - f->g_len)) << f->g_off |
	       (b >> (8 - f->b_len)) << f->b_off | f->opaque;
}

void drm_fb_convert_row(const struct drm_fb_format *f, uint8_t *dst, const uint32_t *src, uint32_t n)
{
	switch (f->bytes) {
	case 4:
		if (f->xrgb8888) {
			memcpy(dst, src, (size_t)n * 4);
			return;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = drm_fb_pack(f, src[i]);
			memcpy(dst + 4 * i, &p, 4); /* little-endian hosts: the fb's byte order */
		}
		return;
	case 3:
		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = drm_fb_pack(f, src[i]);
			dst[3 * i] = (uint8_t)p;
			dst[3 * i + 1] = (uint8_t)(p >> 8);
			dst[3 * i + 2] = (uint8_t)(p >> 16);
		}
		return;
	case 2:
		for (uint32_t i = 0; i < n; i++) {
			uint16_t p = (uint16_t)drm_fb_pack(f, src[i]);
			memcpy(dst + 2 * i, &p, 2);
		}
		return;
	}
}

uint32_t drm_fb_refresh_mhz(const struct fb_var_screeninfo *v)
{
	/* In double: the product of three 32-bit-range numbers (pixclock, htotal up to 2^34, vtotal) overflows 64
	 * bits, where it wrapped to any rate (or to 0, a division by zero) for a driver's nonsense timings. */
	double htotal = (double)v->xres + v->left_margin + v->right_margin + v->hsync_len;
	double vtotal = (double)v->yres + v->upper_margin + v->lower_margin + v->vsync_len;
	double mhz;

	/* pixclock is in picoseconds; 0 (and margins of 0) when the driver does not know its timings. */
	if (!v->pixclock || !v->left_margin || !v->upper_margin)
		return DRM_FB_DEFAULT_MHZ;
	if ((v->vmode & FB_VMODE_MASK) == FB_VMODE_DOUBLE)
		vtotal *= 2;
	mhz = 1e15 / ((double)v->pixclock * htotal * vtotal);
	if ((v->vmode & FB_VMODE_MASK) == FB_VMODE_INTERLACED)
		mhz *= 2; /* a field per vertical period */
	/* Made-up timings (vesafb and efifb invent a pixclock from the size) can give anything: keep what a
	 * display could do. */
	return mhz >= 20000 && mhz <= 300000 ? (uint32_t)mhz : DRM_FB_DEFAULT_MHZ;
}

int drm_fb_layout(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *fix, unsigned bytes,
		  uint64_t page, struct drm_fb_layout *l, char *why, size_t why_size)
{
	/* All in 64 bits: line_length x yoffset overflows 32 (and a 32-bit size_t). */
	uint64_t line = fix->line_length ? fix->line_length : (uint64_t)v->xres_virtual * bytes;
	uint64_t row = (uint64_t)v->xres * bytes, first = (uint64_t)v->yoffset * line + (uint64_t)v->xoffset * bytes;
	uint64_t end = first + (uint64_t)(v->yres ? v->yres - 1 : 0) * line + row;
	/* The fb's generic mmap (fb_io_mmap: vm_iomap_memory) maps from the page holding smem_start: the fb's byte 0
	 * is smem_start's offset in its page into the mapping (fbi and DirectFB add it too). */
	uint64_t in_page = fix->smem_start & (page - 1);

	memset(l, 0, sizeof(*l));
	if (line < row || (uint64_t)v->xoffset * bytes + row > line || line > UINT32_MAX ||
	    (fix->smem_len && end > fix->smem_len) || end + in_page > SIZE_MAX) {
		snprintf(why, why_size,
			 "the visible %ux%u area (line %llu bytes, offset %u,%u) does not fit its %u bytes of memory",
			 v->xres, v->yres, (unsigned long long)line, v->xoffset, v->yoffset, fix->smem_len);
		return -EINVAL;
	}
	l->offset = (in_page + first) & ~(page - 1);
	l->visible = in_page + first - l->offset;
	l->size = in_page + end - l->offset;
	l->first = first;
	l->line = (uint32_t)line;
	return 0;
}

bool drm_fb_is_drm_emulation(const char *id, bool has_drm_dir)
{
	size_t n = id ? strlen(id) : 0;

	/* A DRM driver's fbdev emulation: its parent device has a drm/ directory (the card), and its id ends in
	 * "drmfb" (drm_fb_helper appends it to the driver's name: "bochs-drmdrmfb", "simpledrmdrmfb"; fix.id holds
	 * 15 chars, so a long driver name cuts it, "virtio_gpudrmf": the directory is the reliable sign). */
	return has_drm_dir || (n >= 5 && strcmp(id + n - 5, "drmfb") == 0);
}

int drm_fb_pick(const struct drm_fb_candidate *c, size_t n, bool allow_emulation)
{
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if (!allow_emulation && drm_fb_is_drm_emulation(c[i].id, c[i].drm_dir))
			continue;
		if (best < 0 || c[i].num < c[best].num)
			best = (int)i;
	}
	return best;
}

/* FNV-1a: two different messages of one device colliding would only keep the second quiet. */
static uint32_t text_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

bool drm_fb_refusal_new(struct drm_fb_refusals *r, dev_t dev, const char *why)
{
	uint32_t h = text_hash(why);

	for (unsigned i = 0; i < r->n; i++) {
		if (r->e[i].dev != dev)
			continue;
		if (r->e[i].hash == h)
			return false;
		r->e[i].hash = h;
		return true;
	}
	if (r->n == DRM_FB_REFUSALS_MAX) {
		memmove(&r->e[0], &r->e[1], (DRM_FB_REFUSALS_MAX - 1) * sizeof(r->e[0]));
		r->n--;
	}
	r->e[r->n].dev = dev;
	r->e[r->n++].hash = h;
	return true;
}

void drm_fb_refusal_forget(struct drm_fb_refusals *r, dev_t dev)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (r->e[i].dev != dev)
			continue;
		memmove(&r->e[i], &r->e[i + 1], (r->n - i - 1) * sizeof(r->e[0]));
		r->n--;
		return;
	}
}
