/* tests/render/test-underdraw-grid.c: no underdraw with the real grid.
 *
 * Random byte streams (biased towards text, UTF-8 incl. wide and combining characters, SGR with
 * every attribute and colour form, cursor movement, erase/insert/delete, scroll regions, DECSCUSR,
 * DECSCNM, the alternate screen) are fed to a grid in chunks, the view scrolled back and forth (a line, a page,
 * to the bottom) and selections made over what it shows now and then. After every chunk the frame loop's
 * sequence runs: kf_render_collect_damage, grid_damage_clear, kf_render_paint of that damage into a
 * persistent buffer; the buffer must equal a full repaint of the same grid, pixel for pixel. Between
 * chunks the blink phase, the mouse pointer, the visual bell and the notice change now and then, and the
 * target is a few pixels larger than the cells (margins). Every 97 steps the full repaint is compared with a
 * new renderer's too (in the same blink, pointer and bell state): what the long-lived renderer keeps (glyph
 * and pre-composed cell caches, open fallback faces) must not change what it draws. With the built-in font
 * and with FreeType (DejaVu Sans Mono and its fallbacks).
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
    "\x1b]4;1;rgb:ff/00/ff\x07",
    "\x1b]104\x07",
    "\x1b]10;rgb:10/20/30\x07",
    "\x1b]11;rgb:ee/ee/ee\x07",
    "\x1b]12;rgb:00/ff/00\x07",
    "\x1b]110\x07\x1b]111\x07\x1b]112\x07",
    "\x1b[6 q",
    "\x1b[3 q",
    "\x1b[0 q",
    "\x1b[?12h",
    "\x1b]8;;http://x\x07link\x1b]8;;\x07",
    "\xef\xbc\xa1\xef\xbc\xa2",
    "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb",
    "a\xcc\x88\xcc\x81",
    "\xc7\x84",
    "\xd8\xa8\xd9\x9a",
    "\x1b[3m",
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

/* What a renderer is told between frames besides the grid (kf_render_set_*). */
struct extras {
	bool blink, flash, pointer;
	int px, py;
};

/* Pixels in which a new renderer's full repaint of src in state x differs from full (w x h). */
static size_t fresh_diff(const struct kf_render_config *cfg, const struct kf_render_source *src,
			 const struct extras *x, const uint32_t *full, int w, int h)
{
	struct kf_render *f;
	uint32_t *px = calloc((size_t)w * h, 4);
	if (!px || kf_render_create(cfg, &f)) {
		free(px);
		return (size_t)w * h;
	}
	kf_render_set_blink(f, x->blink);
	kf_render_set_flash(f, x->flash);
	kf_render_set_pointer(f, x->pointer, x->px, x->py);
	struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
	kf_render_paint_full(f, src, &t, NULL, 0);
	size_t n = 0;
	for (size_t i = 0; i < (size_t)w * h; i++)
		n += px[i] != full[i];
	free(px);
	kf_render_destroy(f);
	return n;
}

static int run(enum kf_render_engine engine, int steps)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = engine, .font_name = "DejaVu Sans Mono"};
	if (kf_render_create(&cfg, &r))
		return 1;
	if (kf_render_get_engine(r) != engine) {
		printf("SKIP engine %d: no DejaVu Sans Mono\n", (int)engine);
		kf_render_destroy(r);
		return 0;
	}
	struct grid_config gc = {.cols = 31, .rows = 11, .scrollback = 100};
	struct grid *g = grid_create(&gc, NULL, NULL);
	if (!g)
		return 1;
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int w = gc.cols * cw + 5, h = gc.rows * ch + 3;
	uint32_t *inc = calloc((size_t)w * h, 4), *full = calloc((size_t)w * h, 4);
	struct kf_render_target ti = {inc, w, h, w * 4, KF_RENDER_XRGB8888},
				tf = {full, w, h, w * 4, KF_RENDER_XRGB8888};
	struct kf_render_damage d;
	kf_render_damage_init(&d, gc.cols, gc.rows);
	struct kf_render_source src;
	struct extras x = {.blink = true};
	int mismatches = 0, fresh = 0, back = 0;
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
		/* the view scrolled back by a line or a page and forth, and selections over what it shows: each row
		 * shown anew is painted whole (as the frame loop sees it, output leaves the view where it is) */
		if (rnd(8) == 0) {
			const int page = grid_rows(g), moves[] = {1, -1, page, -page, 3, -1000};
			grid_view_scroll(g, moves[rnd(sizeof(moves) / sizeof(moves[0]))]);
		}
		if (rnd(12) == 0) {
			const int sx = (int)rnd((uint32_t)gc.cols), sy = (int)rnd((uint32_t)gc.rows);
			switch (rnd(3)) {
			case 0: grid_select_start(g, sx, sy, (enum grid_select_mode)rnd(3)); break;
			case 1: grid_select_extend(g, sx, sy); break;
			default: grid_select_clear(g); break;
			}
		}
		if (rnd(50) == 0)
			kf_render_set_blink(r, x.blink = rnd(2));
		if (rnd(60) == 0)
			kf_render_set_flash(r, x.flash = rnd(2));
		if (rnd(30) == 0) {
			x.pointer = rnd(2);
			x.px = (int)rnd((uint32_t)w + 20) - 10;
			x.py = (int)rnd((uint32_t)h + 20) - 10;
			kf_render_set_pointer(r, x.pointer, x.px, x.py);
		}
		/* (not compared with a new renderer: the notice's row is placed when it comes) */
		if (rnd(40) == 0)
			kf_render_set_notice(r, rnd(2) ? "" : rnd(2) ? "a notice" : "another, longer notice");
		back += grid_view_offset(g) > 0;
		kf_render_source_from_grid(&src, g);
		kf_render_damage_clear(&d);
		kf_render_collect_damage(r, &src, &d);
		grid_damage_clear(g);
		kf_render_paint(r, &src, &d, &ti, NULL, 0);
		kf_render_paint_full(r, &src, &tf, NULL, 0);
		if (step % 97 == 0) {
			kf_render_set_notice(r, "");
			kf_render_paint_full(r, &src, &tf, NULL, 0);
			size_t nd = fresh_diff(&cfg, &src, &x, full, w, h);
			if (nd && !fresh++)
				printf("FAIL: engine %d, step %d: %zu pixels differ from a new renderer's full repaint\n",
				       (int)engine, step, nd);
			kf_render_damage_clear(&d);
			kf_render_collect_damage(r, &src, &d);
			kf_render_paint(r, &src, &d, &ti, NULL, 0);
		}
		if (memcmp(inc, full, (size_t)w * h * 4)) {
			if (!mismatches) {
				printf("FAIL: engine %d, step %d: damage-only painting differs from a full "
				       "repaint\n",
				       (int)engine, step);
				for (int y = 0; y < gc.rows; y++)
					for (int xx = 0; xx < gc.cols; xx++) {
						bool diff = false;
						for (int j = 0; j < ch && !diff; j++)
							for (int i = 0; i < cw && !diff; i++)
								diff = inc[(y * ch + j) * w + xx * cw + i] !=
								       full[(y * ch + j) * w + xx * cw + i];
						if (diff)
							printf("  cell %d,%d differs (damage of the row: %d..%d)\n", xx, y,
							       d.x0[y], d.x1[y]);
					}
				printf("  input:");
				for (size_t i = 0; i < n; i++)
					printf(buf[i] >= 0x20 && buf[i] < 0x7f ? "%c" : "\\x%02x", buf[i]);
				printf("\n");
			}
			mismatches++;
			memcpy(inc, full, (size_t)w * h * 4);
		}
	}
	printf("%s: engine %d, %d steps (%d of them scrolled back), %d mismatches, %d differences from a new "
	       "renderer\n",
	       mismatches || fresh || !back ? "FAIL" : "ok", (int)engine, steps, back, mismatches, fresh);
	kf_render_damage_finish(&d);
	free(inc);
	free(full);
	grid_destroy(g);
	kf_render_destroy(r);
	return mismatches || fresh || !back;
}

int main(void)
{
	if (palette_test())
		return 1;
	int fails = run(KF_RENDER_ENGINE_BUILTIN, 20000);
	fails += run(KF_RENDER_ENGINE_FREETYPE, 20000);
	return fails ? 1 : 0;
}
