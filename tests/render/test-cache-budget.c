/* tests/render/test-cache-budget.c: the glyph cache keeps within its memory budget (render.c CACHE_BUDGET,
 * 64 MiB of glyph pixels) at every font size and zoom a user can set, however many distinct glyphs the
 * output brings. */
#include <stdio.h>
#include <sys/resource.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* A flood of distinct one-cell and wide glyphs (Braille and block elements: drawn by code, the same
 * at any size, no font needed) at font size px and zoom scale. */
static void test_flood(int px, int scale)
{
	struct kf_render_config cfg = {.font_name = "DejaVu Sans Mono", .font_size = px};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	CHECK(kf_render_set_scale(r, scale) == 0);
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	long before = peak_kb();
	for (uint32_t cp = 0x2801; cp < 0x2900; cp++)
		kf_render_glyph(r, cp, 0, 1 + (cp & 1));
	long grew = peak_kb() - before;
	struct kf_render_stats st;
	kf_render_get_stats(r, &st);
	printf("font size %d x%d: cells %dx%d, %zu glyphs kept (capacity %zu), peak grew %ld KiB\n", px, scale, cw,
	       ch, st.glyphs, st.capacity, grew);
	CHECK(grew <= 70 * 1024);
	kf_render_destroy(r);
}

int main(void)
{
	test_flood(400, 2); /* font-size= at its largest, zoomed x2; first: the peak it measures is the process's */
	test_flood(16, 1);
	return check_finish(NULL);
}
