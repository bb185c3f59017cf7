/* tests/render/test-underdraw-grid.c: no underdraw with the real grid.
 *
 * Random byte streams (biased towards text, UTF-8 incl. wide and combining characters, SGR with
 * every attribute and colour form, cursor movement, erase/insert/delete, scroll regions, DECSCUSR,
 * DECSCNM, the alternate screen) are fed to a grid in chunks. After every chunk the frame loop's
 * sequence runs: kf_render_collect_damage, grid_damage_clear, kf_render_paint of that damage into a
 * persistent buffer; the buffer must equal a full repaint of the same grid, pixel for pixel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render.h"

static uint32_t rng = 777;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

static const char *const pieces[] = {
    "hello ",
    "wrap-me-please-",
    "\r\n",
    "\n",
    "\b",
    "\t",
    "\xe6\xbc\xa2\xe5\xad\x97",
    "\xf0\x9f\x98\x80",
    "e\xcc\x81",
    "\xe2\x94\x80\xe2\x94\xbc",
    "\xe2\x96\x88",
    "\x1b[1m",
    "\x1b[2;3;4m",
    "\x1b[4:3m",
    "\x1b[5m",
    "\x1b[7m",
    "\x1b[8m",
    "\x1b[9;53m",
    "\x1b[0m",
    "\x1b[38;5;196m",
    "\x1b[48;2;10;200;30m",
    "\x1b[58;5;4m",
    "\x1b[H",
    "\x1b[5;10H",
    "\x1b[2J",
    "\x1b[K",
    "\x1b[1K",
    "\x1b[3@",
    "\x1b[2P",
    "\x1b[2L",
    "\x1b[M",
    "\x1b[3;7r",
    "\x1b[r",
    "\x1bM",
    "\x1b[S",
    "\x1b[T",
    "\x1b[2 q",
    "\x1b[5 q",
    "\x1b[4 q",
    "\x1b[?25l",
    "\x1b[?25h",
    "\x1b[?5h",
    "\x1b[?5l",
    "\x1b[?1049h",
    "\x1b[?1049l",
    "\x1b[10X",
    "\x1b[3b",
    "\x1b[?7l",
    "\x1b[?7h",
    "\x1b#8",
    "\x1b#6",
    "\x1b#3",
    "\x1b#4",
    "\x1b#5",
    "\x1b[A",
    "\x1b[20C",
    "\x1b[B",
    "\x1b[D",
};

/* --palette applies to a grid's colours, and OSC 4/11 from the child override single entries. */
static int palette_test(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN, .palette = "solarized"};
	if (kf_render_create(&cfg, &r))
		return 1;
	struct grid_config gc = {.cols = 4, .rows = 1, .scrollback = 0};
	struct grid *g = grid_create(&gc, NULL, NULL);
	uint32_t px[4 * 8 * 16];
	struct kf_render_target t = {px, 32, 16, 32 * 4, KF_RENDER_XRGB8888};
	struct kf_render_source src;
	const char *in = "\x1b[?25l\x1b[41m \x1b[42m \x1b[0m";
	grid_feed(g, (const uint8_t *)in, strlen(in));
	kf_render_source_from_grid(&src, g);
	kf_render_paint_full(r, &src, &t, NULL, 0);
	int fails = 0;
	/* red and green from solarized, the default background from solarized */
	fails += px[0] != 0xdc322f || px[8] != 0x859900 || px[16] != 0x073642;
	in = "\x1b]4;2;rgb:12/34/56\x1b\\\x1b]11;rgb:01/02/03\x07";
	grid_feed(g, (const uint8_t *)in, strlen(in));
	kf_render_source_from_grid(&src, g);
	kf_render_paint_full(r, &src, &t, NULL, 0);
	/* OSC 4 changed green, OSC 11 the background; red stays solarized */
	fails += px[0] != 0xdc322f || px[8] != 0x123456 || px[16] != 0x010203;
	in = "\x1b]104\x07\x1b]111\x07";
	grid_feed(g, (const uint8_t *)in, strlen(in));
	kf_render_source_from_grid(&src, g);
	kf_render_paint_full(r, &src, &t, NULL, 0);
	fails += px[8] != 0x859900 || px[16] != 0x073642;
	printf("%s palette: --palette with OSC 4/11/104/111 overrides (pixels %06x %06x %06x)\n",
	       fails ? "FAIL" : "ok", px[0], px[8], px[16]);
	grid_destroy(g);
	kf_render_destroy(r);
	return fails;
}

int main(void)
{
	if (palette_test())
		return 1;
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	if (kf_render_create(&cfg, &r))
		return 1;
	struct grid_config gc = {.cols = 31, .rows = 11, .scrollback = 100};
	struct grid *g = grid_create(&gc, NULL, NULL);
	if (!g)
		return 1;
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int w = gc.cols * cw, h = gc.rows * ch;
	uint32_t *inc = calloc((size_t)w * h, 4), *full = calloc((size_t)w * h, 4);
	struct kf_render_target ti = {inc, w, h, w * 4, KF_RENDER_XRGB8888},
				tf = {full, w, h, w * 4, KF_RENDER_XRGB8888};
	struct kf_render_damage d;
	kf_render_damage_init(&d, gc.cols, gc.rows);
	struct kf_render_source src;
	int mismatches = 0, steps = 20000;
	uint8_t buf[512];
	for (int step = 0; step < steps; step++) {
		size_t n = 0;
		int parts = 1 + (int)rnd(8);
		for (int k = 0; k < parts; k++) {
			if (rnd(10) == 0) { /* raw random bytes */
				for (int b = (int)rnd(16); b > 0 && n < sizeof(buf); b--)
					buf[n++] = (uint8_t)rnd(256);
				continue;
			}
			const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
			size_t l = strlen(p);
			if (n + l > sizeof(buf))
				break;
			memcpy(buf + n, p, l);
			n += l;
		}
		grid_feed(g, buf, n);
		if (rnd(50) == 0)
			kf_render_set_blink(r, rnd(2));
		kf_render_source_from_grid(&src, g);
		kf_render_damage_clear(&d);
		kf_render_collect_damage(r, &src, &d);
		grid_damage_clear(g);
		kf_render_paint(r, &src, &d, &ti, NULL, 0);
		kf_render_paint_full(r, &src, &tf, NULL, 0);
		if (memcmp(inc, full, (size_t)w * h * 4)) {
			if (!mismatches) {
				printf("FAIL: step %d: damage-only painting differs from a full "
				       "repaint\n",
				       step);
				for (int y = 0; y < gc.rows; y++)
					for (int x = 0; x < gc.cols; x++) {
						bool diff = false;
						for (int j = 0; j < ch && !diff; j++)
							for (int i = 0; i < cw && !diff; i++)
								diff = inc[(y * ch + j) * w +
									   x * cw + i] !=
								       full[(y * ch + j) * w +
									    x * cw + i];
						if (diff)
							printf("  cell %d,%d differs (damage of "
							       "the row: %d..%d)\n",
							       x, y, d.x0[y], d.x1[y]);
					}
				printf("  input:");
				for (size_t i = 0; i < n; i++)
					printf(buf[i] >= 0x20 && buf[i] < 0x7f ? "%c" : "\\x%02x",
					       buf[i]);
				printf("\n");
			}
			mismatches++;
			memcpy(inc, full, (size_t)w * h * 4);
		}
	}
	printf("%s: %d steps, %d mismatches\n", mismatches ? "FAIL" : "ok", steps, mismatches);
	kf_render_damage_finish(&d);
	free(inc);
	free(full);
	grid_destroy(g);
	kf_render_destroy(r);
	return mismatches ? 1 : 0;
}
