/* kmscon-felis/replay-png.c: kmscon-felis-replay --png: the final screen through the real renderer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render.h"
#include "kmscon-felis/replay.h"

int kf_replay_parse_engine(const char *s, int *engine)
{
	if (!strcmp(s, "fontconfig") || !strcmp(s, "freetype"))
		*engine = KF_RENDER_ENGINE_FREETYPE;
	else if (!strcmp(s, "psf"))
		*engine = KF_RENDER_ENGINE_PSF;
	else if (!strcmp(s, "builtin"))
		*engine = KF_RENDER_ENGINE_BUILTIN;
	else
		return -EINVAL;
	return 0;
}

const char *kf_replay_png_check(const struct kf_replay_png *p, char *why, size_t size)
{
	uint32_t pal[258];
	if (p->palette && kf_render_palette_load(p->palette, pal) < 0) {
		snprintf(why, size,
			 "bad --palette '%s' (want default, legacy, vga, nord, solarized, solarized-black, "
			 "solarized-white, soft-black, base16-dark or base16-light)",
			 p->palette);
		return why;
	}
	if (p->path && p->engine == KF_RENDER_ENGINE_PSF && !p->font_file) {
		snprintf(why, size, "--font-engine psf needs --font-file PATH (a PSF1 or PSF2 font)");
		return why;
	}
	return NULL;
}

/* The largest image: libpng's own limit on a side (PNG_USER_WIDTH_MAX, refused only once the pixels had been
 * painted), and 1 GiB of pixels in memory (4096x4096 cells of the built-in font were 8 GiB). */
#define PNG_SIDE_MAX 1000000
#define PNG_PIXELS_MAX (1ull << 28)

int kf_replay_png_open(struct kf_replay_png *p, int cols, int rows)
{
	struct kf_render_config cfg = {
	    .engine = (enum kf_render_engine)p->engine,
	    .font_name = p->font_name,
	    .font_file = p->font_file,
	    .font_size = p->font_size,
	    .palette = p->palette,
	};
	unsigned errors = kf_log_error_count();
	int ret = kf_render_create(&cfg, &p->render);
	if (ret) {
		p->render = NULL;
		/* the renderer said what failed ("F: not a PSF1 or PSF2 font"); "Bad message" would add nothing */
		if (kf_log_error_count() == errors)
			fprintf(stderr, "kmscon-felis-replay: cannot set up the renderer: %s\n", strerror(-ret));
		return 1;
	}
	int cw, ch;
	kf_render_cell_size(p->render, &cw, &ch);
	unsigned long long w = (unsigned long long)cols * cw, h = (unsigned long long)rows * ch;
	if (w > PNG_SIDE_MAX || h > PNG_SIDE_MAX || w * h > PNG_PIXELS_MAX) {
		fprintf(stderr,
			"kmscon-felis-replay: --png of %dx%d cells of %dx%d pixels would be %llux%llu pixels, more "
			"than %llu pixels or %d a side (a smaller --size or --font-size)\n",
			cols, rows, cw, ch, w, h, PNG_PIXELS_MAX, PNG_SIDE_MAX);
		return 2;
	}
	return 0;
}

void kf_replay_png_close(struct kf_replay_png *p)
{
	kf_render_destroy(p->render);
	p->render = NULL;
}

int kf_replay_write_png(const struct grid *g, const struct kf_replay_png *p)
{
	int cw, ch;
	kf_render_cell_size(p->render, &cw, &ch);
	struct kf_render_source src;
	kf_render_source_from_grid(&src, g);
	int w = src.cols * cw, h = src.rows * ch;
	uint32_t *px = calloc((size_t)w * h, 4);
	int ret = -ENOMEM;
	if (px) {
		struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
		ret = kf_render_paint_full(p->render, &src, &t, NULL, 0);
		if (ret >= 0)
			ret = kf_render_write_png(p->path, px, w, h, w * 4);
	}
	if (ret)
		fprintf(stderr, "kmscon-felis-replay: %s: %s\n", p->path, strerror(-ret));
	free(px);
	return ret ? 1 : 0;
}
