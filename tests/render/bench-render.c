/* tests/render/bench-render.c: renderer benchmark (not a test).
 *
 * Usage: bench-render [DOOM_FIRE_FILE]
 *        bench-render --flood FILE [CHUNK_KB]
 * 1. Full repaint of a 1920x1080 XRGB8888 buffer filled with coloured text, with DejaVu Sans Mono
 * 16 px (monospace on Debian) and the built-in 8x16 font; also RGB565.
 * 2. One damaged row (a full-width line of text) painted through kf_render_paint.
 * 3. doom_fire frames (from /work/shared/bench/gen-workloads.py for the same grid size): per frame
 * grid_feed (parse) + collect damage + paint (render), through the real grid. Prints medians over
 * many runs, and a memset of the whole buffer as the memory-bandwidth floor.
 * --flood: the frame loop under a flood in the QEMU guest's screen (issue 5): FILE (a workload of
 * gen-workloads.py) fed into a 102x40 grid CHUNK_KB (default 64) at a time, the damage painted into a
 * 1024x768 buffer after each chunk. For the painter's instruction counts alone:
 *   valgrind --tool=callgrind --toggle-collect=paint_frame build/tests/render/bench-render --flood FILE 85
 * with FONTCONFIG_FILE set to the absolute path of a configuration naming only the DejaVu directory (the
 * guest's fonts; docs/benchmarks.md, issue 5). With KF_BENCH_FRAMES set it prints every frame's times,
 * with KF_BENCH_PASSES=2 it feeds the file twice (the second pass sees no glyph for the first time), and
 * with KF_BENCH_NOPAINT set it only parses (what a run costs without painting, e.g. under qemu-x86_64).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmscon-felis/render/render.h"

#define W 1920
#define H 1080

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A screen of coloured text like an editor or `ls --color`: SGR runs, some bold, mostly ASCII. */
static void fill_text(struct grid *g, int cols, int rows)
{
	static const char *const sgr[] = {"\x1b[0m",	"\x1b[1;34m",	  "\x1b[32m",
					  "\x1b[0;33m", "\x1b[38;5;208m", "\x1b[38;2;200;120;255m",
					  "\x1b[7m",	"\x1b[4m"};
	uint32_t seed = 1;
	char line[4096];
	grid_feed(g, (const uint8_t *)"\x1b[H\x1b[2J", 7);
	for (int y = 0; y < rows; y++) {
		size_t n = (size_t)snprintf(line, sizeof(line), "\x1b[%d;1H", y + 1);
		for (int x = 0; x < cols; x++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 9 == 0) {
				const char *s = sgr[(seed >> 8) % 8];
				memcpy(line + n, s, strlen(s));
				n += strlen(s);
			}
			line[n++] = (char)(' ' + 1 + (seed >> 20) % 94);
		}
		grid_feed(g, (const uint8_t *)line, n);
	}
}

static void bench_font(const char *label, const struct kf_render_config *cfg,
		       enum kf_render_format fmt)
{
	struct kf_render *r;
	if (kf_render_create(cfg, &r)) {
		printf("%s: no renderer\n", label);
		return;
	}
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int cols = W / cw, rows = H / ch, bpp = fmt == KF_RENDER_RGB565 ? 2 : 4;
	struct grid_config gc = {.cols = cols, .rows = rows, .scrollback = 0};
	struct grid *g = grid_create(&gc, NULL, NULL);
	fill_text(g, cols, rows);
	void *buf = malloc((size_t)W * H * 4);
	struct kf_render_target t = {buf, W, H, W * bpp, fmt};
	struct kf_render_source src;
	kf_render_source_from_grid(&src, g);
	kf_render_paint_full(r, &src, &t, NULL, 0); /* warm the glyph cache */
	enum { N = 60 };
	double full[N], row[N * 10], floor_ms[N];
	for (int i = 0; i < N; i++) {
		double t0 = now_ms();
		kf_render_paint_full(r, &src, &t, NULL, 0);
		full[i] = now_ms() - t0;
		t0 = now_ms();
		memset(buf, i, (size_t)W * H * bpp);
		floor_ms[i] = now_ms() - t0;
	}
	struct kf_render_damage d;
	kf_render_damage_init(&d, cols, rows);
	struct kf_render_rect rects[8];
	for (int i = 0; i < N * 10; i++) {
		kf_render_damage_clear(&d);
		kf_render_damage_add(&d, i % rows, 0, cols);
		double t0 = now_ms();
		kf_render_paint(r, &src, &d, &t, rects, 8);
		row[i] = now_ms() - t0;
	}
	printf("%-28s %3dx%-3d cells %2dx%-2d  full repaint %6.3f ms  one row %6.4f ms  (memset "
	       "floor %5.3f ms)\n",
	       label, cols, rows, cw, ch, median(full, N), median(row, N * 10),
	       median(floor_ms, N));
	kf_render_damage_finish(&d);
	free(buf);
	grid_destroy(g);
	kf_render_destroy(r);
}

/* The whole file, malloc'd (the caller frees it), or NULL. */
static uint8_t *read_file(const char *path, long *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("cannot open %s (generate it, see docs/benchmarks.md)\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *data = malloc(*size > 0 ? (size_t)*size : 1);
	if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size) {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

/* Not static and not inlined: callgrind's --toggle-collect=paint_frame names it. */
__attribute__((noinline)) void paint_frame(struct kf_render *r, struct grid *g, struct kf_render_damage *d,
					   const struct kf_render_target *t);
__attribute__((noinline)) void paint_frame(struct kf_render *r, struct grid *g, struct kf_render_damage *d,
					   const struct kf_render_target *t)
{
	struct kf_render_source src;

	kf_render_source_from_grid(&src, g);
	kf_render_damage_clear(d);
	kf_render_collect_damage(r, &src, d);
	grid_damage_clear(g);
	kf_render_paint(r, &src, d, t, NULL, 0);
}

/* The frame loop under a flood in the QEMU guest (issue 5): a 102x40 grid (DejaVu Sans Mono 16 px on
 * 1024x768), chunk bytes of the workload, then one frame, and again. */
static void bench_flood(const char *path, size_t chunk)
{
	enum { FW = 1024, FH = 768, MAXF = 4096 };
	static double parse[MAXF], paint[MAXF];
	struct kf_render_config cfg = {.font_name = "DejaVu Sans Mono", .font_size = 16};
	struct kf_render *r;
	struct kf_render_damage d;
	long size;
	int cw, ch, nf = 0;
	uint8_t *data = read_file(path, &size);
	if (!data || !chunk || kf_render_create(&cfg, &r) < 0)
		return;
	/* as kmscon-felis does once its login is started, before the flood arrives */
	kf_render_prepare_fonts(r);
	kf_render_cell_size(r, &cw, &ch);
	struct grid_config gc = {.cols = FW / cw, .rows = FH / ch, .scrollback = 1000};
	struct grid *g = grid_create(&gc, NULL, NULL);
	uint32_t *buf = calloc((size_t)FW * FH, 4);
	struct kf_render_target t = {buf, FW, FH, FW * 4, KF_RENDER_XRGB8888};
	if (g && buf && kf_render_damage_init(&d, gc.cols, gc.rows) == 0) {
		int passes = getenv("KF_BENCH_PASSES") ? atoi(getenv("KF_BENCH_PASSES")) : 1;
		for (int pass = 0; pass < passes; pass++)
		for (size_t pos = 0; pos < (size_t)size && nf < MAXF; pos += chunk, nf++) {
			size_t n = (size_t)size - pos < chunk ? (size_t)size - pos : chunk;
			double t0 = now_ms();
			grid_feed(g, data + pos, n);
			double t1 = now_ms();
			if (getenv("KF_BENCH_NOPAINT"))
				grid_damage_clear(g);
			else
				paint_frame(r, g, &d, &t);
			parse[nf] = t1 - t0;
			paint[nf] = now_ms() - t1;
			if (getenv("KF_BENCH_FRAMES"))
				printf("frame %d: parse %.3f ms, paint %.3f ms\n", nf, parse[nf], paint[nf]);
		}
		kf_render_damage_finish(&d);
	}
	if (nf > 1)
		printf("%s: %dx%d, %d frames of %zu KB: parse %.3f ms + paint %.3f ms per frame (medians)\n",
		       path, gc.cols, gc.rows, nf - 1, chunk / 1024, median(parse + 1, nf - 1),
		       median(paint + 1, nf - 1));
	free(buf);
	free(data);
	grid_destroy(g);
	kf_render_destroy(r);
}

static void bench_doom(const char *path)
{
	long size;
	uint8_t *data = read_file(path, &size);
	if (!data)
		return;
	struct kf_render *r;
	struct kf_render_config cfg = {.font_name = "monospace", .font_size = 16};
	kf_render_create(&cfg, &r);
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int cols = W / cw, rows = H / ch;
	struct grid_config gc = {.cols = cols, .rows = rows, .scrollback = 0};
	struct grid *g = grid_create(&gc, NULL, NULL);
	uint32_t *buf = calloc((size_t)W * H, 4);
	struct kf_render_target t = {buf, W, H, W * 4, KF_RENDER_XRGB8888};
	struct kf_render_damage d;
	kf_render_damage_init(&d, cols, rows);
	struct kf_render_source src;
	enum { MAXF = 512 };
	double parse[MAXF], render[MAXF], total[MAXF];
	int nf = 0;
	long pos = 0;
	while (pos < size && nf < MAXF) {
		/* a frame starts at CSI H; it ends where the next one starts */
		long end = pos + 3;
		while (end + 2 < size &&
		       !(data[end] == 0x1b && data[end + 1] == '[' && data[end + 2] == 'H'))
			end++;
		if (end + 2 >= size)
			break; /* the last frame is cut off by the file size */
		double t0 = now_ms();
		grid_feed(g, data + pos, (size_t)(end - pos));
		double t1 = now_ms();
		kf_render_source_from_grid(&src, g);
		kf_render_damage_clear(&d);
		kf_render_collect_damage(r, &src, &d);
		grid_damage_clear(g);
		kf_render_paint(r, &src, &d, &t, NULL, 0);
		double t2 = now_ms();
		parse[nf] = t1 - t0;
		render[nf] = t2 - t1;
		total[nf] = t2 - t0;
		if (getenv("KF_BENCH_FRAMES"))
			printf("frame %d: parse %.3f ms, render %.3f ms\n", nf, parse[nf],
			       render[nf]);
		nf++;
		pos = end;
	}
	if (nf > 1) {
		/* the first frame warms caches and the style table; leave it out */
		double mp = median(parse + 1, nf - 1), mr = median(render + 1, nf - 1),
		       mt = median(total + 1, nf - 1);
		printf("doom_fire %dx%d (%d frames, %.0f KB each): parse %.3f ms + render %.3f ms "
		       "= %.3f ms/frame "
		       "(%.0f frames/s)\n",
		       cols, rows, nf - 1, (double)pos / nf / 1024, mp, mr, mt, 1000 / mt);
	}
	kf_render_damage_finish(&d);
	free(buf);
	free(data);
	grid_destroy(g);
	kf_render_destroy(r);
}

int main(int argc, char **argv)
{
	const char *fc = getenv("FONTCONFIG_FILE");
	/* fontconfig looks a relative name up in its own directory (/etc/fonts): the figures would be
	 * those of the system's fonts, not of the file meant */
	if (fc && fc[0] != '/')
		printf("warning: FONTCONFIG_FILE=%s is relative: fontconfig reads /etc/fonts/%s instead\n",
		       fc, fc);
	if (argc > 2 && strcmp(argv[1], "--flood") == 0) {
		bench_flood(argv[2], (size_t)(argc > 3 ? atoi(argv[3]) : 64) * 1024);
		return 0;
	}
	struct kf_render_config dejavu = {.font_name = "DejaVu Sans Mono", .font_size = 16};
	struct kf_render_config builtin = {.engine = KF_RENDER_ENGINE_BUILTIN};
	bench_font("DejaVu Sans Mono 16px XRGB", &dejavu, KF_RENDER_XRGB8888);
	bench_font("built-in 8x16 XRGB", &builtin, KF_RENDER_XRGB8888);
	bench_font("DejaVu Sans Mono 16px RGB565", &dejavu, KF_RENDER_RGB565);
	if (argc > 1)
		bench_doom(argv[1]);
	return 0;
}
