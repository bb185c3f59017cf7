/* tests/render/test-font-metrics.c: a font whose metrics are absurd draws its lines inside the cell.
 *
 * DejaVu Sans Mono with its post table's underline thickness (or position) patched to the extremes of
 * its 16 bits: the underline then came out 256 pixels thick in a 19-pixel cell, placed 237 rows above
 * the cell's top; every underline, strikethrough, overline and the underline cursor painted the rows
 * above and below their row (the target's other rows, or memory before it for the first row). Each row
 * painted alone must leave the target's other rows as they were. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

#define MONO "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define SENTINEL 0x123456u

static char tmpdir[] = "/tmp/kf-font-metrics-XXXXXX";

/* DejaVu Sans Mono into path with the 16-bit field at offset off of its post table set to v. */
static bool patched_font(const char *path, size_t off, int16_t v)
{
	static uint8_t font[1 << 20];
	FILE *f = fopen(MONO, "rb");
	size_t n = f ? fread(font, 1, sizeof(font), f) : 0;
	if (f)
		fclose(f);
	if (n < 12)
		return false;
	unsigned tables = (unsigned)font[4] << 8 | font[5];
	for (unsigned i = 0; i < tables && 12 + 16 * (i + 1) <= n; i++) {
		const uint8_t *e = font + 12 + 16 * i;
		if (memcmp(e, "post", 4))
			continue;
		size_t at = ((size_t)e[8] << 24 | (size_t)e[9] << 16 | (size_t)e[10] << 8 | e[11]) + off;
		if (at + 2 > n)
			return false;
		font[at] = (uint8_t)((uint16_t)v >> 8);
		font[at + 1] = (uint8_t)v;
		f = fopen(path, "wb");
		bool ok = f && fwrite(font, 1, n, f) == n;
		if (f)
			ok = !fclose(f) && ok;
		return ok;
	}
	return false;
}

/* Row y of a 6 x 3 screen of lines (every underline style, strikethrough, overline) and the cursor in
 * shape on its last cell, painted alone into a target whose pixels are SENTINEL: the pixels of the other
 * rows that changed. */
static long paint_row_alone(struct kf_render *r, int y, enum grid_cursor_shape shape)
{
	enum { COLS = 6, ROWS = 3 };
	struct screen *s = screen_create(COLS, ROWS);
	for (int x = 0; x < COLS - 1; x++) {
		struct grid_style st = {.underline = (uint8_t)(GRID_UNDERLINE_SINGLE + x % 5),
					.attrs = x == 1 ? GRID_ATTR_STRIKE : x == 2 ? GRID_ATTR_OVERLINE : 0};
		screen_put(s, x, y, 'x', screen_style(s, st), 1);
	}
	s->src.cursor = (struct grid_cursor){.x = COLS - 1, .y = y, .visible = true, .shape = shape};
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	int w = COLS * cw, h = ROWS * ch;
	uint32_t *px = malloc((size_t)w * h * 4);
	struct kf_render_damage d;
	if (!px || kf_render_damage_init(&d, COLS, ROWS))
		abort();
	for (size_t i = 0; i < (size_t)w * h; i++)
		px[i] = SENTINEL;
	kf_render_damage_add(&d, y, 0, COLS);
	struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
	CHECK(kf_render_paint(r, &s->src, &d, &t, NULL, 0) >= 0);
	long changed = 0;
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			changed += j / ch != y && px[(size_t)j * w + i] != SENTINEL;
	kf_render_damage_finish(&d);
	free(px);
	screen_destroy(s);
	return changed;
}

static void test_lines(const char *what, size_t off, int16_t v)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/font.ttf", tmpdir);
	if (!patched_font(path, off, v)) {
		printf("FAIL %s: cannot write the font\n", what);
		failures++;
		return;
	}
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path, .font_size = 16};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	static const enum grid_cursor_shape shapes[] = {GRID_CURSOR_BLOCK, GRID_CURSOR_UNDERLINE, GRID_CURSOR_BAR};
	for (int y = 0; y < 3; y++)
		for (int k = 0; k < 3; k++) {
			long n = paint_row_alone(r, y, shapes[k]);
			if (n) {
				printf("FAIL %s: row %d (cursor shape %d) changed %ld pixels of the other rows\n", what,
				       y, (int)shapes[k], n);
				failures++;
			}
		}
	kf_render_destroy(r);
	unlink(path);
}

int main(void)
{
	if (access(MONO, R_OK)) {
		printf("SKIP: no %s\n", MONO);
		return 77;
	}
	if (!mkdtemp(tmpdir))
		return 1;
	/* post: version (4 bytes), italicAngle (4), underlinePosition (2), underlineThickness (2) */
	test_lines("underline thickness 32767", 10, 32767);
	test_lines("underline thickness -32768", 10, -32768);
	test_lines("underline position -32768", 8, -32768);
	test_lines("underline position 32767", 8, 32767);
	return check_finish(tmpdir);
}
