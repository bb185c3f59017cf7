/* tests/render/test-curly.c: the curly underline (SGR 4:3) waves in every font, also where the font's
 * underline is on the cell's last row.
 *
 * The wave was drawn from the underline's row down, as far as the cell goes: with the underline on the
 * last row (X11's 7x14 font, a font whose descent is one pixel) there was no row below it, and the curly
 * underline was a straight line, the single underline's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static char tmpdir[] = "/tmp/kf-render-test-XXXXXX";

/* The glyphs of the test's BDF fonts (ascent 12): a box from row 2 to the baseline, the space blank. */
static uint8_t box_bits(uint32_t c, int y)
{
	return c == ' ' || y < 2 || y >= 12 ? 0 : 0x7e;
}

/* The rows of ink of 8 blank cells underlined in kind, per pixel column: the top one of each, in top
 * (w entries); returns the image (caller frees). */
static uint32_t *underline(struct kf_render *r, uint8_t kind, int **top, int *w, int *h)
{
	struct screen *s = screen_create(8, 1);
	const uint16_t st = screen_style(s, (struct grid_style){.underline = kind});
	for (int x = 0; x < 8; x++)
		screen_put(s, x, 0, ' ', st, 1);
	s->src.cursor.visible = false;
	uint32_t *px = screen_render(r, s, w, h);
	screen_destroy(s);
	*top = calloc((size_t)*w, sizeof(**top));
	const uint32_t bg = kf_render_palette(r)[257];
	for (int x = 0; x < *w; x++) {
		(*top)[x] = -1;
		for (int y = 0; y < *h && (*top)[x] < 0; y++)
			if (px[(size_t)y * *w + x] != bg)
				(*top)[x] = y;
	}
	return px;
}

/* The curly underline of r's font: its top rows take at least two values (it waves), every column has ink,
 * and it is not the single underline. */
static void check(struct kf_render *r, const char *what)
{
	int *ct, *st, w, h, cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	uint32_t *curly = underline(r, GRID_UNDERLINE_CURLY, &ct, &w, &h),
		 *single = underline(r, GRID_UNDERLINE_SINGLE, &st, &w, &h);
	int lo = h, hi = -1, bare = 0;
	for (int x = 0; x < 8 * cw; x++) {
		bare += ct[x] < 0;
		lo = ct[x] >= 0 && ct[x] < lo ? ct[x] : lo;
		hi = ct[x] > hi ? ct[x] : hi;
	}
	const bool same = !memcmp(curly, single, (size_t)w * h * 4);
	const bool ok = hi > lo && !bare && !same;
	if (!ok || getenv("KF_TEST_VERBOSE"))
		printf("%s (%dx%d cells, underline rows %d-%d): curly underline's top rows %d-%d, %d columns bare%s\n",
		       what, cw, ch, r->ul_pos, r->ul_pos + r->ul_thick - 1, lo, hi, bare,
		       same ? ", the single underline's pixels" : "");
	CHECK(ok);
	free(curly);
	free(single);
	free(ct);
	free(st);
}

static void check_config(struct kf_render_config cfg, const char *what)
{
	struct kf_render *r = NULL;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (r)
		check(r, what);
	kf_render_destroy(r);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	check_config((struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, "built-in");
	check_config((struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN, .scale = 3}, "built-in x3");
	check_config((struct kf_render_config){.engine = KF_RENDER_ENGINE_PSF,
					       .font_file = "/usr/share/consolefonts/Lat2-Terminus16.psf.gz"},
		     "Lat2-Terminus16");
	char what[64];
	for (int size = 6; size <= 40; size++) {
		snprintf(what, sizeof(what), "DejaVu Sans Mono %d px", size);
		check_config((struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = size}, what);
	}
	/* bitmap fonts whose underline FreeType puts below the letters: on the last row for a descent of 1 */
	for (int desc = 1; desc <= 4; desc++) {
		char path[300];
		snprintf(path, sizeof(path), "%s/d%d.bdf", tmpdir, desc);
		uint32_t ascii[95];
		for (int i = 0; i < 95; i++)
			ascii[i] = 0x20 + (uint32_t)i;
		bdf_write(path, "ISO10646", "1", 12, desc, ascii, 95, box_bits);
		snprintf(what, sizeof(what), "BDF ascent 12 descent %d", desc);
		check_config((struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = path}, what);
	}
	if (access("/usr/share/fonts/X11/misc/7x14.pcf.gz", R_OK) == 0)
		check_config((struct kf_render_config){.engine = KF_RENDER_ENGINE_FREETYPE,
						       .font_file = "/usr/share/fonts/X11/misc/7x14.pcf.gz"},
			     "X11 7x14");
	return check_finish(tmpdir);
}
