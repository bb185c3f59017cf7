/* tests/drm/test-drm-fbdev.c: the pure parts of the framebuffer fallback (drm/fbdev-format.c): the pixel layouts an
 * fbdev describes and the conversion of canvas pixels into them, the refresh rate from a mode's timings, and
 * which fbdev is chosen. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "drm/drm-internal.h"
#include "tests/kf-check-plain.h"

static int failures;

static struct fb_fix_screeninfo truecolour(void)
{
	struct fb_fix_screeninfo fix = {0};

	fix.type = FB_TYPE_PACKED_PIXELS;
	fix.visual = FB_VISUAL_TRUECOLOR;
	return fix;
}

static struct fb_var_screeninfo var(unsigned bpp, unsigned ro, unsigned rl, unsigned go, unsigned gl, unsigned bo,
				    unsigned bl)
{
	struct fb_var_screeninfo v = {0};

	v.xres = 1024, v.yres = 768, v.bits_per_pixel = bpp;
	v.red.offset = ro, v.red.length = rl;
	v.green.offset = go, v.green.length = gl;
	v.blue.offset = bo, v.blue.length = bl;
	return v;
}

static void test_formats(void)
{
	struct fb_fix_screeninfo fix = truecolour();
	struct fb_var_screeninfo v;
	struct drm_fb_format f;
	char why[128], name[64];

	/* vesafb and efifb at 32 bpp: the canvas' own layout */
	v = var(32, 16, 8, 8, 8, 0, 8);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0 && f.xrgb8888 && f.bytes == 4);
	drm_fb_format_name(&f, name, sizeof(name));
	CHECK(strcmp(name, "XRGB8888") == 0);
	/* BGR order at 32 bpp (XBGR8888): converted, red ends in the low byte */
	v = var(32, 0, 8, 8, 8, 16, 8);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0 && !f.xrgb8888);
	CHECK(drm_fb_pack(&f, 0x00123456) == 0x00563412);
	/* RGB565: the top bits of each channel */
	v = var(16, 11, 5, 5, 6, 0, 5);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0 && f.bytes == 2);
	drm_fb_format_name(&f, name, sizeof(name));
	CHECK(strcmp(name, "RGB565") == 0);
	CHECK(drm_fb_pack(&f, 0x00ffffff) == 0xffff);
	CHECK(drm_fb_pack(&f, 0x00ff0000) == 0xf800);
	CHECK(drm_fb_pack(&f, 0x0000ff00) == 0x07e0);
	CHECK(drm_fb_pack(&f, 0x000000ff) == 0x001f);
	/* 0x2850a0 (40, 80, 160): 5, 20, 20 */
	CHECK(drm_fb_pack(&f, 0x002850a0) == (5u << 11 | 20u << 5 | 20u));
	/* XRGB1555 */
	v = var(16, 10, 5, 5, 5, 0, 5);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0);
	CHECK(drm_fb_pack(&f, 0x00ffffff) == 0x7fff);
	/* 24 bpp: three bytes, little-endian */
	v = var(24, 16, 8, 8, 8, 0, 8);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0 && f.bytes == 3 && !f.xrgb8888);

	/* Anything else: a clear error naming what is wrong */
	v = var(8, 0, 8, 0, 8, 0, 8);
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP && strstr(why, "8 bits per pixel"));
	/* vesafb at 8 bpp: a palette */
	fix.visual = FB_VISUAL_PSEUDOCOLOR;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP &&
	      strcmp(why, "8 bpp palette (pseudocolour): only packed truecolour (16, 24 or 32 bpp) is supported") == 0);
	fix = truecolour();
	v = var(32, 16, 8, 8, 8, 0, 8);
	fix.visual = FB_VISUAL_PSEUDOCOLOR;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP &&
	      strstr(why, "32 bpp palette (pseudocolour): only packed truecolour"));
	fix = truecolour();
	fix.type = FB_TYPE_PLANES;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP);
	fix = truecolour();
	v = var(16, 12, 5, 5, 6, 0, 5); /* red past bit 15 */
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP && strstr(why, "unsupported"));
	v = var(32, 16, 10, 6, 10, 0, 6); /* 10-bit channels */
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP);
	v = var(32, 16, 8, 8, 8, 0, 8);
	v.nonstd = 1;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == -ENOTSUP);
	/* A driver's nonsense offset whose sum with the length wraps 32 bits (2^32 - 8 + 8 = 0 <= 32): it was taken,
	 * its low byte (248) became the shift of every pixel's red (undefined, garbage colours). */
	v = var(32, 0xfffffff8u, 8, 8, 8, 0, 8);
	int ret = drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why));
	printf("red at bit %u, 8 bits long, in 32 bpp: %s (want refused)\n", v.red.offset,
	       ret == -ENOTSUP ? "refused" : "taken");
	CHECK(ret == -ENOTSUP);
}

static void test_convert(void)
{
	struct fb_fix_screeninfo fix = truecolour();
	struct fb_var_screeninfo v;
	struct drm_fb_format f;
	const uint32_t src[3] = {0x00ff0000, 0x0000ff00, 0x00123456};
	uint8_t dst[16];
	char why[128];

	v = var(16, 11, 5, 5, 6, 0, 5);
	drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why));
	memset(dst, 0xaa, sizeof(dst));
	drm_fb_convert_row(&f, dst, src, 3);
	/* little-endian 16-bit words; nothing past 3 pixels written */
	CHECK(dst[0] == 0x00 && dst[1] == 0xf8 && dst[2] == 0xe0 && dst[3] == 0x07);
	CHECK((dst[4] | dst[5] << 8) == (0x12 >> 3 << 11 | 0x34 >> 2 << 5 | 0x56 >> 3));
	CHECK(dst[6] == 0xaa);

	v = var(24, 16, 8, 8, 8, 0, 8);
	drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why));
	memset(dst, 0xaa, sizeof(dst));
	drm_fb_convert_row(&f, dst, src, 3);
	CHECK(dst[0] == 0 && dst[1] == 0 && dst[2] == 0xff && dst[6] == 0x56 && dst[7] == 0x34 && dst[8] == 0x12);
	CHECK(dst[9] == 0xaa);

	v = var(32, 16, 8, 8, 8, 0, 8);
	drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why));
	drm_fb_convert_row(&f, dst, src, 3);
	CHECK(memcmp(dst, src, 12) == 0);
	/* the padding byte of the canvas is not carried over into a converted layout */
	v = var(32, 0, 8, 8, 8, 16, 8);
	drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why));
	const uint32_t x = 0xff123456;
	drm_fb_convert_row(&f, dst, &x, 1);
	CHECK(dst[0] == 0x12 && dst[1] == 0x34 && dst[2] == 0x56 && dst[3] == 0);
	/* An alpha channel (var.transp: ARGB8888 from DRM's fbdev emulation at depth 32, RGBA5551 of some embedded
	 * controllers) is written opaque, all its bits set, as the kernel's drivers set it in fbcon's colours
	 * (drm_fb_helper's pseudo palette): with 0 there a display that honours alpha showed nothing. */
	v = var(32, 16, 8, 8, 8, 0, 8);
	v.transp.offset = 24, v.transp.length = 8;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0);
	memset(dst, 0xaa, sizeof(dst));
	drm_fb_convert_row(&f, dst, src + 2, 1);
	printf("ARGB8888: 0x00123456 written as %02x %02x %02x %02x (want 56 34 12 ff)\n", dst[0], dst[1], dst[2],
	       dst[3]);
	CHECK(dst[0] == 0x56 && dst[1] == 0x34 && dst[2] == 0x12 && dst[3] == 0xff);
	drm_fb_format_name(&f, why, sizeof(why));
	CHECK(strcmp(why, "ARGB8888") == 0);
	v = var(16, 11, 5, 6, 5, 1, 5);
	v.transp.offset = 0, v.transp.length = 1;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0);
	CHECK(drm_fb_pack(&f, 0) == 1 && drm_fb_pack(&f, 0x00ffffff) == 0xffff);
	/* a transp field a driver filled with nonsense (past the pixel) is not an alpha channel */
	v = var(32, 16, 8, 8, 8, 0, 8);
	v.transp.offset = 0xfffffff8u, v.transp.length = 8;
	CHECK(drm_fb_format_from_var(&v, &fix, &f, why, sizeof(why)) == 0 && f.xrgb8888);
	CHECK(drm_fb_pack(&f, 0x00123456) == 0x00123456);
}

static void test_refresh(void)
{
	struct fb_var_screeninfo v = {0};

	/* No timings: 60 Hz */
	v.xres = 1024, v.yres = 768;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	/* VESA 1024x768@60 (65 MHz: 15385 ps; htotal 1344, vtotal 806): 60.00 Hz */
	v.pixclock = 15385;
	v.left_margin = 160, v.right_margin = 24, v.hsync_len = 136;
	v.upper_margin = 29, v.lower_margin = 3, v.vsync_len = 6;
	CHECK(drm_fb_refresh_mhz(&v) >= 59995 && drm_fb_refresh_mhz(&v) <= 60010);
	/* 1280x1024@75 (135 MHz: 7407 ps; htotal 1688, vtotal 1066): 75.03 Hz */
	v.xres = 1280, v.yres = 1024, v.pixclock = 7407;
	v.left_margin = 248, v.right_margin = 16, v.hsync_len = 144;
	v.upper_margin = 38, v.lower_margin = 1, v.vsync_len = 3;
	CHECK(drm_fb_refresh_mhz(&v) >= 75000 && drm_fb_refresh_mhz(&v) <= 75050);
	/* a pixel clock without margins (made up from the size): 60 Hz */
	v.left_margin = v.upper_margin = 0;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	/* timings giving something no display does (here 2.5 kHz): 60 Hz */
	v.xres = 100, v.yres = 100, v.pixclock = 15385;
	v.left_margin = 10, v.upper_margin = 10;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	/* interlaced: a field per vertical period (the 1024x768 timings, 2 x 60.00 Hz) */
	v.xres = 1024, v.yres = 768, v.pixclock = 15385;
	v.left_margin = 160, v.right_margin = 24, v.hsync_len = 136;
	v.upper_margin = 29, v.lower_margin = 3, v.vsync_len = 6;
	v.vmode = FB_VMODE_INTERLACED;
	CHECK(drm_fb_refresh_mhz(&v) >= 119990 && drm_fb_refresh_mhz(&v) <= 120020);

	/* Hostile timings (a driver bug, or whatever fbset stored in a driver without check_var): pixclock x htotal x
	 * vtotal is 2^31 x 2^16 x 2^17 = 2^64, 0 in 64 bits (main divided by it: SIGFPE), and (2^31 + 1) x 2^16 x 2^17
	 * wraps to 2^33 (main: 116.42 Hz, taken for real). The true rate is about 1e-4 Hz: no display, so 60 Hz. */
	v = (struct fb_var_screeninfo){0};
	v.xres = 1024, v.yres = 768, v.vmode = FB_VMODE_NONINTERLACED;
	v.pixclock = 0x80000000u;
	v.left_margin = 65536 - 1024, v.upper_margin = 131072 - 768;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	v.pixclock += 1;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	/* every field at its maximum: no overflow either */
	v.xres = v.yres = v.pixclock = v.left_margin = v.right_margin = v.hsync_len = UINT32_MAX;
	v.upper_margin = v.lower_margin = v.vsync_len = UINT32_MAX;
	v.vmode = FB_VMODE_DOUBLE;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
	/* a pixclock of 1 ps and small totals: 1e12 Hz computed, 60 Hz used */
	v = (struct fb_var_screeninfo){0};
	v.xres = 1, v.yres = 1, v.pixclock = 1, v.left_margin = 1, v.upper_margin = 1;
	CHECK(drm_fb_refresh_mhz(&v) == 60000);
}

/* Where the visible area is in the mapping, and what must be mapped, for hostile geometries. */
static void test_layout(void)
{
	struct fb_fix_screeninfo fix = truecolour();
	struct fb_var_screeninfo v = var(32, 16, 8, 8, 8, 0, 8);
	struct drm_fb_layout l;
	char why[160];

	/* vesafb 1024x768x32, lines of 4096 bytes, 3 MiB: the whole memory, from offset 0 */
	v.xres_virtual = 1024, v.yres_virtual = 768;
	fix.line_length = 4096, fix.smem_len = 3 << 20, fix.smem_start = 0xe0000000;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0);
	CHECK(l.offset == 0 && l.size == 3 << 20 && l.visible == 0 && l.first == 0 && l.line == 4096);
	/* panned to the second screen (yoffset 768) and 8 pixels right: yoffset x line + xoffset x 4 */
	v.yres_virtual = 1536, v.xres_virtual = 1032, v.yoffset = 768, v.xoffset = 8;
	fix.line_length = 4128, fix.smem_len = 7 << 20;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0);
	CHECK(l.first == 768u * 4128 + 32 && l.offset == (768u * 4128 + 32) / 4096 * 4096);
	CHECK(l.visible == (768u * 4128 + 32) % 4096 && l.visible + 767u * 4128 + 4096 == l.size);
	/* memory that does not start on a page (simplefb regions of some boards): the kernel maps from the page
	 * holding smem_start, so byte 0 of the fb is 0x100 into the mapping (main put the picture 256 bytes early,
	 * and mapped 256 bytes short of its end) */
	v.yoffset = v.xoffset = 0, v.xres_virtual = 1024, v.yres_virtual = 768;
	fix.line_length = 4096, fix.smem_len = 3 << 20, fix.smem_start = 0x9f000100;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0);
	CHECK(l.offset == 0 && l.visible == 0x100 && l.size == (3u << 20) + 0x100 && l.first == 0);
	v.yoffset = 1, v.yres_virtual = 769, fix.smem_len = (3 << 20) + 4096;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0);
	CHECK(l.offset == 4096 && l.visible == 0x100 && l.size == (3u << 20) + 0x100);
	fix.smem_start = 0xe0000000;

	/* line_length 0: xres_virtual x bytes; both 0, or a line shorter than a row: refused */
	v = var(32, 16, 8, 8, 8, 0, 8);
	v.xres_virtual = 1024, fix.line_length = 0, fix.smem_len = 3 << 20;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0 && l.line == 4096);
	v.xres_virtual = 0;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL && strstr(why, "line 0 bytes"));
	fix.line_length = 4092;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL);
	/* a row that runs past its line (xoffset + xres > the line): refused, not wrapped into the next line */
	fix.line_length = 4096, v.xoffset = 1;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL);
	v.xoffset = 0;
	/* more rows than the memory holds */
	fix.smem_len = (3 << 20) - 1;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL && strstr(why, "3145727 bytes"));
	/* every offset at its maximum: no overflow into a small, accepted size */
	fix.smem_len = UINT32_MAX, fix.line_length = UINT32_MAX, fix.smem_start = UINT64_MAX;
	v.yoffset = v.xoffset = UINT32_MAX, v.yres = 16384;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL);
	v.yoffset = v.xoffset = 0, v.yres = 2;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == -EINVAL);
	v.yres = 1;
	CHECK(drm_fb_layout(&v, &fix, 4, 4096, &l, why, sizeof(why)) == 0 && l.visible == 4095 && l.size == 4095 + 4096);
}

static void test_choice(void)
{
	struct drm_fb_candidate c[4] = {
		{.num = 1, .id = "bochs-drmdrmfb"},
		{.num = 2, .id = "VESA VGA"},
		{.num = 0, .id = "virtio_gpudrmf", .drm_dir = true}, /* id cut at 15: the directory tells */
		{.num = 3, .id = "EFI VGA"},
	};

	CHECK(drm_fb_is_drm_emulation("bochs-drmdrmfb", false));
	CHECK(drm_fb_is_drm_emulation("simpledrmdrmfb", false));
	CHECK(drm_fb_is_drm_emulation("virtio_gpudrmf", true));
	CHECK(!drm_fb_is_drm_emulation("VESA VGA", false));
	CHECK(!drm_fb_is_drm_emulation("EFI VGA", false));
	CHECK(!drm_fb_is_drm_emulation("", false) && !drm_fb_is_drm_emulation(NULL, false));
	/* DRM on: the lowest fbN that is not an emulation */
	CHECK(drm_fb_pick(c, 4, false) == 1);
	/* drm=off: the lowest of all */
	CHECK(drm_fb_pick(c, 4, true) == 2);
	/* only emulations: none while DRM is on */
	CHECK(drm_fb_pick(c, 1, false) == -1);
	CHECK(drm_fb_pick(c, 0, true) == -1);
}

/* An fbdev that cannot be shown is tried again at every drm or graphics uevent while no DRM output exists; its
 * refusal is logged once (it was logged at each: 11 errors after 5 uevents in the VM, t-fbdev fbdev-8bpp-refused),
 * again when the reason changes, or once it was removed (forgotten) or shown. The table is bounded: a ninth
 * device forgets the oldest. */
static void test_refusals(void)
{
	struct drm_fb_refusals r = {0};
	const char *bpp8 = "/dev/fb0 (VESA VGA): cannot show this framebuffer: 8 bpp palette";

	CHECK(drm_fb_refusal_new(&r, makedev(29, 0), bpp8));
	for (int i = 0; i < 100; i++)
		CHECK(!drm_fb_refusal_new(&r, makedev(29, 0), bpp8));
	CHECK(drm_fb_refusal_new(&r, makedev(29, 1), bpp8)); /* another device */
	CHECK(drm_fb_refusal_new(&r, makedev(29, 0), "/dev/fb0: cannot open: Permission denied"));
	CHECK(!drm_fb_refusal_new(&r, makedev(29, 0), "/dev/fb0: cannot open: Permission denied"));
	CHECK(r.n == 2);
	drm_fb_refusal_forget(&r, makedev(29, 0));
	CHECK(drm_fb_refusal_new(&r, makedev(29, 0), "/dev/fb0: cannot open: Permission denied"));
	drm_fb_refusal_forget(&r, makedev(29, 7)); /* not there: nothing happens */
	CHECK(r.n == 2);
	for (unsigned i = 0; i < 3 * DRM_FB_REFUSALS_MAX; i++)
		CHECK(drm_fb_refusal_new(&r, makedev(29, 100 + i), bpp8));
	CHECK(r.n == DRM_FB_REFUSALS_MAX);
	/* the most recent ones are remembered */
	CHECK(!drm_fb_refusal_new(&r, makedev(29, 100 + 3 * DRM_FB_REFUSALS_MAX - 1), bpp8));
}

/* drm_fbdev_copy into a fake fb in ordinary memory (4x3 pixels, RGB565, lines of 12 bytes: 4 bytes of padding
 * past each row): only the damage is written, converted, at line_length stride; turned right the canvas is 3x4. */
static void test_copy(void)
{
	struct fb_fix_screeninfo fix = truecolour();
	struct fb_var_screeninfo v = var(16, 11, 5, 5, 6, 0, 5);
	uint8_t mem[3 * 12];
	uint32_t px[12];
	struct drm_fbdev fb = {.width = 4, .height = 3, .line_length = 12, .period_ns = 16666667};
	struct drm_canvas c = {px, 4, 3, 16};
	char why[128];

	CHECK(drm_fb_format_from_var(&v, &fix, &fb.format, why, sizeof(why)) == 0);
	fb.visible = mem;
	fb.row = malloc(16);
	for (int i = 0; i < 12; i++)
		px[i] = 0x00ffffff; /* white: 0xffff */
	memset(mem, 0x11, sizeof(mem));
	drm_region_clear(&fb.damage);
	drm_region_add(&fb.damage, (struct drm_box){1, 1, 2, 1});
	fb.dirty = true;
	CHECK(drm_fbdev_copy(&fb, &c, DRM_ROTATE_NORMAL, 1000) == 2);
	/* row 1, pixels 1 and 2 (bytes 14..17) written; nothing else */
	for (int i = 0; i < (int)sizeof(mem); i++)
		CHECK(mem[i] == (i >= 14 && i < 18 ? 0xff : 0x11));
	/* the frame waits for its refresh; the damage is consumed */
	CHECK(fb.inflight && fb.flip_ns == 1000 + 16666667 && !fb.dirty && drm_region_empty(&fb.damage));

	/* Turned right: the canvas is 3 wide and 4 tall; its pixel (0, 0) lands at the fb's top-right (3, 0). */
	struct drm_canvas t = {px, 3, 4, 12};
	for (int i = 0; i < 12; i++)
		px[i] = 0;
	px[0] = 0x00ff0000; /* red: 0xf800 */
	memset(mem, 0x11, sizeof(mem));
	drm_region_clear(&fb.damage);
	drm_region_add(&fb.damage, (struct drm_box){0, 0, 1, 1});
	CHECK(drm_fbdev_copy(&fb, &t, DRM_ROTATE_RIGHT, 2000) == 1);
	CHECK(mem[6] == 0x00 && mem[7] == 0xf8);
	for (int i = 0; i < (int)sizeof(mem); i++)
		CHECK(i == 6 || i == 7 || mem[i] == 0x11);
	/* a full frame turned: every visible pixel, none of the padding */
	drm_region_set_full(&fb.damage);
	memset(mem, 0x11, sizeof(mem));
	CHECK(drm_fbdev_copy(&fb, &t, DRM_ROTATE_RIGHT, 3000) == 12);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 12; x++)
			CHECK((x < 8) == (mem[y * 12 + x] != 0x11));
	free(fb.row);
	free(fb.turned);
}

/* 24 and 16 bpp at an odd width (5x3, lines padded to 17 and 11 bytes), in each rotation, full and partial
 * damage: every fb pixel is its canvas pixel converted, the padding untouched. */
static void test_copy_odd(void)
{
	static const unsigned bpps[2] = {24, 16};
	for (int b = 0; b < 2; b++) {
		for (int r = 0; r < 4; r++) {
			struct fb_fix_screeninfo fix = truecolour();
			struct fb_var_screeninfo v = bpps[b] == 24 ? var(24, 16, 8, 8, 8, 0, 8) : var(16, 11, 5, 5, 6, 0, 5);
			const uint32_t W = 5, H = 3, bytes = bpps[b] / 8, line = W * bytes + 2;
			uint8_t mem[3 * 17];
			uint32_t px[15];
			struct drm_fbdev fb = {.width = W, .height = H, .line_length = line, .period_ns = 1};
			bool turned = r == DRM_ROTATE_RIGHT || r == DRM_ROTATE_LEFT;
			struct drm_canvas c = {px, turned ? H : W, turned ? W : H, (turned ? H : W) * 4};
			char why[128];
			int bad = 0;

			CHECK(drm_fb_format_from_var(&v, &fix, &fb.format, why, sizeof(why)) == 0);
			fb.visible = mem;
			fb.row = malloc(W * 4);
			for (int i = 0; i < 15; i++)
				px[i] = 0x00010203u * (uint32_t)(i + 1) * 13u;
			for (int pass = 0; pass < 2; pass++) {
				memset(mem, 0x5a, sizeof(mem));
				drm_region_clear(&fb.damage);
				if (pass == 0)
					drm_region_set_full(&fb.damage);
				else /* one canvas pixel at an odd place */
					drm_region_add(&fb.damage, (struct drm_box){1, 1, 1, 1});
				drm_fbdev_copy(&fb, &c, (enum drm_rotation)r, 0);
				for (uint32_t y = 0; y < H; y++) {
					for (uint32_t x = 0; x < line; x++) {
						/* the canvas pixel that lands on fb pixel (x / bytes, y) */
						uint32_t X = x / bytes, cx, cy;
						if (r == DRM_ROTATE_NORMAL)
							cx = X, cy = y;
						else if (r == DRM_ROTATE_RIGHT)
							cx = y, cy = W - 1 - X;
						else if (r == DRM_ROTATE_INVERTED)
							cx = W - 1 - X, cy = H - 1 - y;
						else
							cx = H - 1 - y, cy = X;
						bool shown = X < W && (pass == 0 || (cx == 1 && cy == 1));
						uint32_t p = X < W ? drm_fb_pack(&fb.format, px[cy * c.width + cx]) : 0;
						uint8_t want = shown ? (uint8_t)(p >> (8 * (x % bytes))) : 0x5a;
						bad += mem[y * line + x] != want;
					}
				}
			}
			CHECK(bad == 0);
			if (bad)
				printf("%u bpp, rotation %d: %d bytes wrong\n", bpps[b], r, bad);
			free(fb.row);
			free(fb.turned);
		}
	}
}

int main(void)
{
	test_formats();
	test_convert();
	test_refresh();
	test_layout();
	test_choice();
	test_refusals();
	test_copy();
	test_copy_odd();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
