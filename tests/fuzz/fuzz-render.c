/* tests/fuzz/fuzz-render.c: libFuzzer target over parser + grid + the painter (kmscon-felis/render/).
 *
 * Why: every frame paints what the child wrote, so a hostile stream reaches the painter's fills, its glyph and
 * composed-cell caches, decorations, wide and combining cells, the cursor and the pointer as surely as it
 * reaches the parser; fuzz-core stops at the grid.
 *
 * Input: byte 0 picks the font (the built-in 8x16 font, or DejaVu Sans Mono through FreeType at 16 or 9 px
 * when the file is there) and the pixel format (XRGB8888, RGB565); bytes 1-2 the grid's size (up to 64x24: two
 * paints a frame, so a small screen runs many more inputs in a CI minute); byte 3 the targets' geometry (the
 * cell grid exactly, cut short so that the painter clips, or with margins; padding past each row's pixels) and
 * how often a frame is painted (after every piece, or every 4, 16 or 64 bytes of it: two changes in one frame
 * hide each other's missing damage). The rest is a byte stream fed to grid_feed in pieces, split at "\xff\xfe"
 * followed by a command byte (0xff and 0xfe never occur in valid UTF-8, so real streams do not hold it):
 *   'R' c r  resize the grid to (1 + c % 64) x (1 + r % 24)
 *   'S' s    integer scale 1 + s % 3 (the cell size changes)
 *   'B'      flip the blink phase
 *   'P' x y  the pointer at pixel (4x, 2y), shown when x is odd
 *   'L' n    palette n % 10 of the kmscon names
 *   'V' d    scroll the view (int8_t)d lines into the history (negative: back towards the screen)
 *   'X' p m  start a selection (cell, word, line by m % 4) at column p, row p >> 3 (within the grid), or
 *            clear it when m % 4 is 3
 *   'E' x y  extend the selection to (x, y) (within the grid)
 *   'H' n    hold 1 + n % 4 frames (the one right after this command first): their damage is collected but
 *            not painted, and waits for the next frame that is
 *   other    a piece boundary only
 * After each frame's bytes the frame loop's sequence runs: kf_render_collect_damage, grid_damage_clear, and
 * kf_render_paint of that damage into a buffer kept from frame to frame; as in the frame loop, only when
 * grid_is_damaged says something changed or a command (all but 'H', and 'V' only when the view moved) asked
 * for a frame. Checked each time, abort() when not:
 * - the kept buffer equals a full repaint of the same grid (kf_render_paint_full), pixel for pixel: damage
 *   that misses a changed cell, or a paint outside its damage that leaves a stale cell, shows here;
 * - the rectangles the painter reports lie inside the target;
 * - the bytes between a row's last pixel and the stride keep their canary in both buffers (a write past the
 *   row's end inside the allocation, which AddressSanitizer cannot see);
 * - the paint writes every pixel of the damaged cells (the whole target when all are damaged): the frame loop
 *   promises the display code so much, and a buffer's catch-up copy skips them; they are inverted before it;
 * - every pixel the paint changed lies inside a rectangle it reported (the frame's damage for the display).
 * The targets keep the size they were made with, as a display's buffers do: a resize or a scale change leaves
 * the cell grid smaller (margins, which the frame after must repaint) or larger (clipped) than the target.
 * With FUZZ_RENDER_DEBUG set, a difference is described (first pixel, the frame's damage) before the abort. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kmscon-felis/render/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define CANARY 0xa5
#define GARBAGE 0x5c

static const char *const palettes[10] = {"default",	"legacy",	   "vga",	 "nord",	"solarized",
					 "solarized-black", "solarized-white", "soft-black", "base16-dark", "base16-light"};

/* The renderers, made once (a FreeType face and its glyph cache per input would cost most of the run):
 * [0] built-in, [1] DejaVu 16 px, [2] DejaVu 9 px (odd metrics). Their state left from the previous input
 * (scale, palette, blink, pointer) is set back at the start of each. */
static struct kf_render *renderers[3];
static bool tried[3];

static struct kf_render *renderer(unsigned which)
{
	if (which && access(DEJAVU, R_OK) != 0)
		which = 0;
	if (!tried[which]) {
		tried[which] = true;
		struct kf_render_config cfg = {.engine = which ? KF_RENDER_ENGINE_FREETYPE : KF_RENDER_ENGINE_BUILTIN,
					       .font_file = which ? DEJAVU : NULL,
					       .font_size = which == 2 ? 9 : 16};
		if (kf_render_create(&cfg, &renderers[which]) != 0)
			abort(); /* the font is there: failing to open it is a bug */
	}
	return renderers[which];
}

struct target {
	struct kf_render_target t;
	int pad; /* bytes of canary after each row's pixels */
};

struct frame {
	struct kf_render *r;
	struct grid *g;
	enum kf_render_format fmt;
	uint8_t geom;
	struct target inc, full; /* the kept buffer, and the full repaint it is compared with */
	struct kf_render_damage d;
	/* 'H': frames that collect their damage but paint nothing, as the frame loop does when the display has no
	 * buffer to give (kmscon-felis/output.c render_frame): the damage waits in d and the next frame collects
	 * on top of it, with the renderer's memory of the cursor, blink and pointer already moved on */
	int hold;  /* frames still to hold */
	bool held; /* d holds the last frame's damage, not yet painted */
	/* a command after which the program asks for a frame (kf_output_request_frame: zoom, pointer, selection,
	 * a view scroll that moved, a resize); without one, a frame runs only when grid_is_damaged says so */
	bool requested;
	uint8_t *before; /* the kept buffer before the frame's paint (stride * height bytes) */
};

static int bpp_of(enum kf_render_format fmt)
{
	return fmt == KF_RENDER_RGB565 ? 2 : 4;
}

/* f->d sized to the source (a resize changes the grid's size between frames) */
static void damage_fit(struct frame *f, const struct kf_render_source *src)
{
	if (f->d.cols == src->cols && f->d.rows == src->rows)
		return;
	kf_render_damage_finish(&f->d);
	if (kf_render_damage_init(&f->d, src->cols, src->rows) != 0)
		abort();
}

static void target_free(struct target *t)
{
	free(t->t.data);
	t->t.data = NULL;
}

/* Makes a target for the grid's first size at the renderer's cell size, filled with a garbage pattern (the
 * first frame paints it whole): geom's bits 0-1 choose the margin (0: none, 1: cut short by k px each way, 2-3:
 * a margin of k px), bits 2-3 k (1, 3, 5 or 7), bits 4-5 the padding (0-3 words more). */
static void target_make(struct frame *f, struct target *t)
{
	int cw, ch;
	kf_render_cell_size(f->r, &cw, &ch);
	int w = grid_cols(f->g) * cw, h = grid_rows(f->g) * ch;
	const int k = 1 + (f->geom >> 2 & 3) * 2;
	switch (f->geom & 3) {
	case 0: break;
	case 1: w = w > k ? w - k : 1, h = h > k ? h - k : 1; break;
	default: w += k, h += k; break;
	}
	const int bpp = bpp_of(f->fmt);
	const int row = (w * bpp + 3) & ~3;
	t->pad = row - w * bpp + 4 * (f->geom >> 4 & 3);
	t->t = (struct kf_render_target){malloc((size_t)(w * bpp + t->pad) * (size_t)h), w, h, w * bpp + t->pad,
					 f->fmt};
	if (!t->t.data)
		abort();
	uint8_t *p = t->t.data;
	for (int y = 0; y < h; y++, p += t->t.stride) {
		memset(p, GARBAGE, (size_t)(w * bpp));
		memset(p + w * bpp, CANARY, (size_t)t->pad);
	}
}

static void check_canary(const struct target *t)
{
	const int bpp = bpp_of(t->t.format);
	const uint8_t *p = t->t.data;
	for (int y = 0; y < t->t.height; y++, p += t->t.stride)
		for (int i = 0; i < t->pad; i++)
			if (p[t->t.width * bpp + i] != CANARY)
				abort();
}

static void check_rects(const struct target *t, const struct kf_render_rect *rects, int n)
{
	if (n < 0)
		abort(); /* the targets are valid: -EINVAL would be a bug */
	for (int i = 0; i < n; i++) {
		const struct kf_render_rect *q = &rects[i];
		if (q->x < 0 || q->y < 0 || q->w < 0 || q->h < 0 || q->x + q->w > t->t.width ||
		    q->y + q->h > t->t.height)
			abort();
	}
}

/* The frame loop promises the display code (drm_backend_prepare_canvas) that the paint overwrites the damaged
 * cells' pixels, the whole target when every cell is damaged (kmscon-felis/output.c frame_cover), and the
 * catch-up of a buffer some frames old then skips them: they are spoiled here (each byte inverted), so that
 * a promised pixel the paint leaves alone differs from the full repaint. */
static void spoil_cover(struct frame *f)
{
	const struct kf_render_damage *d = &f->d;
	struct target *t = &f->inc;
	const int bpp = bpp_of(f->fmt);
	int cw, ch;
	kf_render_cell_size(f->r, &cw, &ch);
	bool all = true;
	for (int y = 0; y < d->rows && all; y++)
		all = d->x0[y] == 0 && d->x1[y] == d->cols;
	for (int py = 0; py < t->t.height; py++) {
		const int y = py / ch;
		int x0 = 0, x1 = t->t.width;
		if (!all) {
			if (y >= d->rows || d->x0[y] >= d->x1[y])
				continue;
			x0 = d->x0[y] * cw;
			x1 = d->x1[y] * cw < x1 ? d->x1[y] * cw : x1;
		}
		uint8_t *p = (uint8_t *)t->t.data + (size_t)py * (size_t)t->t.stride;
		for (int i = x0 * bpp; i < x1 * bpp; i++)
			p[i] = (uint8_t)~p[i];
	}
}

/* Every pixel the paint changed lies inside a rectangle it reported: the frame loop passes them on as the
 * frame's damage (drm_backend_present), and a buffer that missed the frame copies only those. */
static void check_touched(const struct frame *f, const struct kf_render_rect *rects, int n)
{
	const struct target *t = &f->inc;
	const int bpp = bpp_of(f->fmt);
	for (int y = 0; y < t->t.height; y++) {
		const size_t off = (size_t)y * (size_t)t->t.stride;
		const uint8_t *a = (const uint8_t *)t->t.data + off, *b = f->before + off;
		for (int x = 0; x < t->t.width; x++) {
			if (!memcmp(a + x * bpp, b + x * bpp, (size_t)bpp))
				continue;
			bool in = false;
			for (int i = 0; i < n && !in; i++)
				in = x >= rects[i].x && x < rects[i].x + rects[i].w && y >= rects[i].y &&
				     y < rects[i].y + rects[i].h;
			if (!in) {
				if (getenv("FUZZ_RENDER_DEBUG"))
					fprintf(stderr, "pixel %d,%d changed outside the %d rectangles reported\n", x, y, n);
				abort();
			}
		}
	}
}

/* One frame: the damage since the last one painted into the kept buffer, then compared with a full repaint. */
static void frame_run(struct frame *f)
{
	struct kf_render_source src;
	struct kf_render_rect rects[8];
	int n = -1; /* rectangles the damage-only paint reported; -1: no paint this frame */
	kf_render_source_from_grid(&src, f->g);
	/* the frame loop's gate (kmscon-felis/output.c on_prepare): no frame is painted when the grid reports no
	 * change and none was asked for, so a change grid_is_damaged misses stays off the display; the kept
	 * buffer is then compared as it is */
	const bool paint = f->requested || f->held || grid_is_damaged(f->g);
	f->requested = false;
	if (paint) {
		damage_fit(f, &src);
		if (!f->held)
			kf_render_damage_clear(&f->d);
		kf_render_collect_damage(f->r, &src, &f->d);
		grid_damage_clear(f->g);
		f->held = f->hold > 0;
		if (f->held) {
			f->hold--;
			return;
		}
		memcpy(f->before, f->inc.t.data, (size_t)f->inc.t.stride * (size_t)f->inc.t.height);
		spoil_cover(f);
		n = kf_render_paint(f->r, &src, &f->d, &f->inc.t, rects, 8);
		check_rects(&f->inc, rects, n);
	}
	struct kf_render_rect full_rects[8];
	check_rects(&f->full, full_rects, kf_render_paint_full(f->r, &src, &f->full.t, full_rects, 8));
	check_canary(&f->inc);
	check_canary(&f->full);
	const int bpp = bpp_of(f->fmt);
	const uint8_t *a = f->inc.t.data, *b = f->full.t.data;
	for (int y = 0; y < f->inc.t.height; y++, a += f->inc.t.stride, b += f->full.t.stride)
		if (memcmp(a, b, (size_t)(f->inc.t.width * bpp)) != 0) {
			if (getenv("FUZZ_RENDER_DEBUG")) {
				int x = 0;
				while (!memcmp(a + x * bpp, b + x * bpp, (size_t)bpp))
					x++;
				int cw, ch;
				kf_render_cell_size(f->r, &cw, &ch);
				fprintf(stderr, "differs at pixel %d,%d (cell %d,%d) of %dx%d, grid %dx%d, cell %dx%d\n", x, y,
					x / cw, y / ch, f->inc.t.width, f->inc.t.height, grid_cols(f->g), grid_rows(f->g),
					cw, ch);
				for (int yy = 0; yy < f->d.rows; yy++)
					fprintf(stderr, "  damage row %d: %d..%d\n", yy, f->d.x0[yy], f->d.x1[yy]);
			}
			abort();
		}
	if (n >= 0)
		check_touched(f, rects, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	struct frame f = {.r = renderer(data[0] % 3), .fmt = data[0] & 4 ? KF_RENDER_RGB565 : KF_RENDER_XRGB8888,
			  .geom = data[3]};
	if (kf_render_get_scale(f.r) != 1)
		kf_render_set_scale(f.r, 1);
	kf_render_set_palette(f.r, "default");
	kf_render_set_blink(f.r, true);
	kf_render_set_pointer(f.r, false, 0, 0);
	struct grid_config cfg = {.cols = 1 + data[1] % 64, .rows = 1 + data[2] % 24, .scrollback = 50};
	f.g = grid_create(&cfg, NULL, NULL);
	if (!f.g)
		return 0;
	target_make(&f, &f.inc);
	target_make(&f, &f.full);
	f.before = malloc((size_t)f.inc.t.stride * (size_t)f.inc.t.height);
	if (!f.before)
		abort();
	/* the renderer's memory of the last frame (cursor, size) is from another input: this first frame's
	 * damage is discarded and the kept buffer painted whole, as a new output's first frame is */
	struct kf_render_source src;
	kf_render_source_from_grid(&src, f.g);
	damage_fit(&f, &src);
	kf_render_collect_damage(f.r, &src, &f.d);
	grid_damage_clear(f.g);
	check_rects(&f.inc, NULL, kf_render_paint_full(f.r, &src, &f.inc.t, NULL, 0));
	bool blink = true;
	static const size_t everies[4] = {SIZE_MAX, 4, 16, 64};
	const size_t every = everies[f.geom >> 6];
	data += 4, size -= 4;
	while (size) {
		const uint8_t *m = memmem(data, size, "\xff\xfe", 2);
		size_t n = m ? (size_t)(m - data) : size;
		/* in frames of `every` bytes (the last one shorter), each fed in two parts so that sequences are
		 * split across feeds too */
		for (size_t i = 0; i < n;) {
			const size_t k = n - i < every ? n - i : every;
			grid_feed(f.g, data + i, k / 2);
			grid_feed(f.g, data + i + k / 2, k - k / 2);
			frame_run(&f);
			i += k;
		}
		if (!n)
			frame_run(&f);
		data += n, size -= n;
		if (size < 3)
			break;
		const uint8_t cmd = data[2], a = size > 3 ? data[3] : 0, b = size > 4 ? data[4] : 0;
		size_t used = 3;
		/* the program asks for a frame after these; after 'V' only when the view moved */
		f.requested = cmd && strchr("RSBPLXE", cmd);
		switch (cmd) {
		case 'R':
			grid_resize(f.g, 1 + a % 64, 1 + b % 24);
			used = 5;
			break;
		case 'S':
			kf_render_set_scale(f.r, 1 + a % 3);
			used = 4;
			break;
		case 'B':
			kf_render_set_blink(f.r, blink = !blink);
			break;
		case 'H':
			f.hold = 1 + a % 4;
			used = 4;
			break;
		case 'P':
			kf_render_set_pointer(f.r, a & 1, 4 * a, 2 * b);
			used = 5;
			break;
		case 'L':
			kf_render_set_palette(f.r, palettes[a % 10]);
			used = 4;
			break;
		case 'V': {
			const int before = grid_view_offset(f.g);
			f.requested = grid_view_scroll(f.g, (int8_t)a) != before;
			used = 4;
			break;
		}
		case 'X':
			if (b % 4 == 3)
				grid_select_clear(f.g);
			else
				grid_select_start(f.g, a % grid_cols(f.g), (a >> 3) % grid_rows(f.g),
						  (enum grid_select_mode)(b % 4));
			used = 5;
			break;
		case 'E':
			grid_select_extend(f.g, a % grid_cols(f.g), b % grid_rows(f.g));
			used = 5;
			break;
		default:
			break;
		}
		used = used < size ? used : size;
		data += used, size -= used;
		frame_run(&f);
	}
	/* damage still held is painted and checked */
	f.hold = 0;
	if (f.held)
		frame_run(&f);
	kf_render_damage_finish(&f.d);
	target_free(&f.inc);
	target_free(&f.full);
	free(f.before);
	grid_destroy(f.g);
	return 0;
}
