/* tests/fuzz/fuzz-psf.c: libFuzzer target over the PSF console-font loader (kmscon-felis/render/font-bitmap.c)
 * and the painter with the font it made.
 *
 * Why: font-file= names a file the user (or a package) supplies; a truncated, corrupt or hostile PSF1/PSF2 file
 * must be refused with an error, and one that loads must paint whatever the screen holds without reading or
 * writing outside its glyphs.
 *
 * Input: the bytes of the font file (plain; a gzip stream is read through zlib, as the real loader does), given
 * to kf_render_create through a memfd's /proc path. A font that loads has its cell size checked against the PSF
 * limits (1-64 x 1-128 px), then paints the screens below into targets whose row padding carries a canary that
 * must survive. Crashes, sanitizer reports (a glyph read past the file's data among them) and leaks fail the
 * run. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAD 8
#define CANARY 0xa5

/* Box drawing, blocks, Braille, CJK, an emoji and a combining mark under every attribute, painted at scale 1
 * and 2 (12 x 4 cells) */
static const char styled[] = "\xe2\x94\x80\xe2\x94\xbc\xe2\x96\x92\xe2\xa3\xbf\r\n"
			     "\x1b[1;3;4;5;7;9;53m\xe6\xbc\xa2\xf0\x9f\x98\x80" "e\xcc\x81\x1b[0m\r\n"
			     "\x1b[4:3;38;5;196;48;2;1;2;3mcurly\x1b[0m\x1b[2;5H";

/* Every code point of 0x20-0x7e and 0xa0-0x1ff, painted at scale 1 (64 x 8 cells): a font without a Unicode
 * table maps code point i to glyph i, so glyphs up to 511 are read, as far as the font has them */
static uint8_t charset[2 * 512];
static size_t charset_len;

static void charset_init(void)
{
	for (unsigned cp = 0x20; cp < 0x200; cp++) {
		if (cp >= 0x7f && cp < 0xa0)
			continue;
		if (cp < 0x80) {
			charset[charset_len++] = (uint8_t)cp;
		} else {
			charset[charset_len++] = (uint8_t)(0xc0 | cp >> 6);
			charset[charset_len++] = (uint8_t)(0x80 | (cp & 0x3f));
		}
	}
}

/* Paints the screen s (cols x rows) with r whole, into a target whose row padding must keep its canary. */
static void paint(struct kf_render *r, const uint8_t *s, size_t len, int cols, int rows)
{
	struct grid_config gc = {.cols = cols, .rows = rows, .scrollback = 0};
	struct grid *g = grid_create(&gc, NULL, NULL);
	if (!g)
		abort();
	grid_feed(g, s, len);
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	const int w = cols * cw, h = rows * ch, stride = w * 4 + PAD;
	uint8_t *px = malloc((size_t)stride * (size_t)h);
	if (!px)
		abort();
	memset(px, CANARY, (size_t)stride * (size_t)h);
	struct kf_render_target t = {px, w, h, stride, KF_RENDER_XRGB8888};
	struct kf_render_source src;
	kf_render_source_from_grid(&src, g);
	if (kf_render_paint_full(r, &src, &t, NULL, 0) < 0)
		abort();
	for (int y = 0; y < h; y++)
		for (int i = 0; i < PAD; i++)
			if (px[(size_t)y * stride + (size_t)w * 4 + (size_t)i] != CANARY)
				abort();
	free(px);
	grid_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a refused font logs why, as it should; not on the fuzzer's output */
	kf_log_set_level(KF_LOG_ERR - 1);
	int fd = memfd_create("fuzz-psf", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF, .font_file = path, .cache_glyphs = 64};
	struct kf_render *r;
	if (kf_render_create(&cfg, &r) == 0) {
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		if (cw < 1 || cw > 64 || ch < 1 || ch > 128)
			abort();
		if (!charset_len)
			charset_init();
		paint(r, charset, charset_len, 64, 8);
		paint(r, (const uint8_t *)styled, sizeof(styled) - 1, 12, 4);
		if (kf_render_set_scale(r, 2) != 0)
			abort();
		paint(r, (const uint8_t *)styled, sizeof(styled) - 1, 12, 4);
		kf_render_destroy(r);
	}
	close(fd);
	return 0;
}
