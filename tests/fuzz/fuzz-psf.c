/* tests/fuzz/fuzz-psf.c: libFuzzer target over the PSF console-font loader (kmscon-felis/render/font-bitmap.c)
 * and the painter with the font it made.
 *
 * Why: font-file= names a file the user (or a package) supplies; a truncated, corrupt or hostile PSF1/PSF2 file
 * must be refused with an error, and one that loads must paint whatever the screen holds without reading or
 * writing outside its glyphs.
 *
 * Input: the bytes of the font file (plain; a gzip stream is read through zlib, as the real loader does), given
 * to kf_render_create through a memfd's /proc path. A font that loads has its cell size checked against the PSF
 * limits (1-64 x 1-128 px), then paints a screen (below) at scale 1 and 2 into a target whose row padding
 * carries a canary that must survive. Crashes, sanitizer reports and leaks fail the run. */
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

#define COLS 32
#define ROWS 6
#define PAD 8
#define CANARY 0xa5

/* every printable ASCII character (a table-less font maps code point i to glyph i: glyphs up to 126 are read),
 * then Latin-1, box drawing, blocks, Braille, CJK, an emoji and a combining mark under every attribute */
static const char screen[] = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
			     "abcdefghijklmnopqrstuvwxyz{|}~\r\n"
			     "\xc3\xa9\xc3\x9f\xc2\xb0\xe2\x94\x80\xe2\x94\xbc\xe2\x96\x92\xe2\xa3\xbf\r\n"
			     "\x1b[1;3;4;5;7;9;53m\xe6\xbc\xa2\xf0\x9f\x98\x80" "e\xcc\x81\x1b[0m\r\n"
			     "\x1b[4:3;38;5;196;48;2;1;2;3mcurly\x1b[0m\x1b[2;5H";

static void paint(struct kf_render *r, struct grid *g)
{
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	const int w = COLS * cw, h = ROWS * ch, stride = w * 4 + PAD;
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
		struct grid_config gc = {.cols = COLS, .rows = ROWS, .scrollback = 0};
		struct grid *g = grid_create(&gc, NULL, NULL);
		if (!g)
			abort();
		grid_feed(g, (const uint8_t *)screen, sizeof(screen) - 1);
		paint(r, g);
		if (kf_render_set_scale(r, 2) != 0)
			abort();
		paint(r, g);
		grid_destroy(g);
		kf_render_destroy(r);
	}
	close(fd);
	return 0;
}
