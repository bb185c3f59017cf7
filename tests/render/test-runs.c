/* tests/render/test-runs.c: the painter's runs (paint.c): runs of blanks filled in one go (they stop
 * at the cursor, a selection, a style change and a decorated blank) and runs of pre-composed cells
 * (paint_hits) and their planes, each compared with what painting cell by cell gives; a flood of
 * colours painted once each takes no pre-composed slot. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

/* Runs of blanks are filled in one go (paint.c): the run must stop at the cursor, at a selection
 * and at a style change, and a blank with a decoration is not a plain blank. */
static void test_blank_runs(void)
{
	struct kf_render *r;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	CHECK(kf_render_create(&cfg, &r) == 0);
	struct screen *s = screen_create(40, 2);
	uint16_t red = screen_style(s, (struct grid_style){.bg = GRID_COLOR_PALETTE(1)});
	uint16_t ul = screen_style(
	    s, (struct grid_style){.bg = GRID_COLOR_PALETTE(1), .underline = GRID_UNDERLINE_SINGLE});
	screen_text(s, 0, 0, "ab", 0);
	for (int x = 2; x < 40; x++)
		screen_put(s, x, 0, x % 2 ? ' ' : 0, 0, 1);
	for (int x = 20; x < 26; x++)
		s->cells[x].flags |= GRID_CELL_SELECTED;
	for (int x = 0; x < 40; x++)
		screen_put(s, x, 1, ' ', x >= 5 && x < 11 ? ul : red, 1);
	s->src.cursor =
	    (struct grid_cursor){.x = 10, .y = 0, .visible = true, .shape = GRID_CURSOR_BLOCK};
	int w, h, cw, ch;
	uint32_t *px = screen_render(r, s, &w, &h);
	const uint32_t *pal = kf_render_palette(r);
	kf_render_cell_size(r, &cw, &ch);
#define AT(cx, cy, dy) px[(size_t)((cy) * ch + (dy)) * w + (size_t)(cx) * cw + cw / 2]
	CHECK(px && AT(5, 0, ch / 2) == pal[257] && AT(9, 0, ch / 2) == pal[257]);
	CHECK(px && AT(10, 0, ch / 2) == pal[256] && AT(11, 0, ch / 2) == pal[257]);
	CHECK(px && AT(19, 0, ch / 2) == pal[257] && AT(20, 0, ch / 2) == pal[256]);
	CHECK(px && AT(25, 0, ch / 2) == pal[256] && AT(26, 0, ch / 2) == pal[257]);
	CHECK(px && AT(4, 1, r->ul_pos) == pal[1] && AT(5, 1, r->ul_pos) == pal[256]);
	CHECK(px && AT(10, 1, r->ul_pos) == pal[256] && AT(11, 1, r->ul_pos) == pal[1]);
	CHECK(px && AT(7, 1, 0) == pal[1] && AT(39, 1, ch / 2) == pal[1]);
#undef AT
	/* glyphs the font lacks take no glyph cache entry: they share one box */
	struct kf_render_stats st0, st1;
	kf_render_get_stats(r, &st0);
	for (uint32_t cp = 0x10f000; cp < 0x10f100; cp++)
		CHECK(kf_render_glyph(r, cp, 0, 1)->missing);
	kf_render_get_stats(r, &st1);
	CHECK(st0.glyphs > 0 && st1.glyphs == st0.glyphs && st1.evictions == st0.evictions);
	free(px);
	screen_destroy(s);
	kf_render_destroy(r);
}

/* A run of blanks is filled (with 32-byte stores above 16 pixels where the CPU has AVX); the same
 * blanks in runs of two (alternating with an italic style: the same look, another style) are
 * copied cell by cell. Runs of every length from 3 to 97 cells, starting at odd and even columns
 * and ending at the row's end, give the same pixels both ways, and the cells around them are
 * untouched. */
static void fill_runs(struct kf_render *r)
{
	enum { COLS = 100, ROWS = 95 };
	struct screen *a = screen_create(COLS, ROWS), *b = screen_create(COLS, ROWS);
	struct grid_style bg = {.bg = GRID_COLOR_RGB(10, 200, 30)};
	struct grid_style it = bg;
	it.attrs = GRID_ATTR_ITALIC;
	uint16_t sa = screen_style(a, bg), sb[2] = {screen_style(b, bg), screen_style(b, it)};
	for (int y = 0; y < ROWS; y++) {
		int len = 3 + y, x0 = y % 2 ? 1 : COLS - len; /* odd rows: after one cell; even: to the end */
		if (x0 < 0)
			x0 = 0;
		if (x0 + len > COLS)
			len = COLS - x0;
		for (int x = 0; x < COLS; x++) {
			bool in = x >= x0 && x < x0 + len;
			screen_put(a, x, y, in ? ' ' : 'x', in ? sa : 0, 1);
			screen_put(b, x, y, in ? ' ' : 'x', in ? sb[(x - x0) / 2 % 2] : 0, 1);
		}
	}
	int wa, ha, wb, hb;
	uint32_t *pa = screen_render(r, a, &wa, &ha), *pb = screen_render(r, b, &wb, &hb);
	CHECK(pa && pb && wa == wb && ha == hb && !memcmp(pa, pb, (size_t)wa * ha * 4));
	free(pa);
	free(pb);
	screen_destroy(a);
	screen_destroy(b);
}

static void test_fill_runs(void)
{
	/* 8-pixel cells (every run a whole number of 32-byte stores) and 10-pixel ones (DejaVu Sans
	 * Mono at 16 px, where most runs end in a partial store) */
	struct kf_render_config cfg[2] = {
	    {.engine = KF_RENDER_ENGINE_BUILTIN},
	    {.font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", .font_size = 16}};
	int done = 0;
	for (int i = 0; i < 2; i++) {
		struct kf_render *r;
		if (kf_render_create(&cfg[i], &r) != 0)
			continue;
		int cw, ch;
		kf_render_cell_size(r, &cw, &ch);
		done += i == 0 || cw % 8 != 0;
		fill_runs(r);
		kf_render_destroy(r);
	}
	CHECK(done == 2);
}

/* A screen of the edge cases of paint_hits (paint.c: runs of one-cell glyphs copied from the
 * pre-composed cells): styles changing mid-run, selection, the cursor, wide characters (one at the
 * right margin), glyphs the fonts lack, invisible text, single spaces, combining marks. */
static struct screen *hit_screen(void)
{
	struct screen *s = screen_create(24, 5);
	uint16_t red = screen_style(s, (struct grid_style){.fg = GRID_COLOR_PALETTE(1)});
	uint16_t bold = screen_style(s, (struct grid_style){.fg = GRID_COLOR_RGB(1, 2, 3),
							 .bg = GRID_COLOR_RGB(200, 190, 180),
							 .attrs = GRID_ATTR_BOLD});
	uint16_t hid = screen_style(s, (struct grid_style){.attrs = GRID_ATTR_INVISIBLE});
	int x = screen_text(s, 0, 0, "abc", 0);
	x = screen_text(s, x, 0, "abc", red);
	x = screen_text(s, x, 0, "ab c", bold);
	x = screen_text(s, x, 0, "xyz", hid);
	screen_text(s, x, 0, "a\xe4\xb8\x80" "b\xcc\x81" "cde", 0); /* a wide CJK, b with an acute */
	screen_text(s, 0, 1, "abcabcabcabcabcabcabcab\xe4\xb8\x80", 0); /* wide at the margin */
	screen_text(s, 0, 2, "ab", 0);
	screen_put(s, 2, 2, 0x10fff0, 0, 1); /* lacking */
	screen_put(s, 3, 2, 0x10fff1, red, 1);
	screen_text(s, 4, 2, "cab", red);
	screen_text(s, 0, 3, "abcabcabcabc", 0);
	for (int i = 5; i < 9; i++)
		s->cells[3 * 24 + i].flags |= GRID_CELL_SELECTED;
	/* lone blanks and pairs between glyphs are copied with them, runs of three are filled; the
	 * blank before the last glyph is never written (code point 0) */
	screen_text(s, 0, 4, "a b  c   d e f  g ", 0);
	screen_put(s, 19, 4, 'h', red, 1);
	screen_put(s, 21, 4, 'i', 0, 1);
	s->src.cursor =
	    (struct grid_cursor){.x = 2, .y = 3, .visible = true, .shape = GRID_CURSOR_BLOCK};
	return s;
}

/* Renders s once more with the pre-composed cells switched off (cells_ready() says no: every cell is composed
 * in place) and checks that both renderings a and b have exactly those pixels. */
static void check_as_composed(struct kf_render *r, struct screen *s, const uint32_t *a, const uint32_t *b)
{
	int w, h;
	unsigned bits = r->cells.bits;
	r->cells.bits = 0;
	uint32_t *composed = screen_render(r, s, &w, &h);
	r->cells.bits = bits;
	CHECK(!memcmp(a, composed, (size_t)w * h * 4));
	CHECK(!memcmp(b, composed, (size_t)w * h * 4));
	free(composed);
}

/* Cells painted by paint_hits (a repaint: every pre-composed cell is there) against the same cells
 * composed one by one (the pre-composed cells switched off): the same pixels, for cells of 8 and
 * 10 pixels (the copies of constant width) and 24 (the general copy). */
static void test_hit_runs(void)
{
	struct kf_render_config cfg[3] = {
	    {.engine = KF_RENDER_ENGINE_BUILTIN},
	    {.engine = KF_RENDER_ENGINE_BUILTIN, .scale = 3},
	    {.font_file = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", .font_size = 16}};
	int done = 0;
	for (int i = 0; i < 3; i++) {
		struct kf_render *r;
		if (kf_render_create(&cfg[i], &r) != 0)
			continue;
		struct screen *s = hit_screen();
		int w, h;
		uint32_t *first = screen_render(r, s, &w, &h);
		uint64_t hits = r->cells.hits;
		uint32_t *hit = screen_render(r, s, &w, &h);
		CHECK(r->cells.bits && r->cells.hits > hits + 40);
		check_as_composed(r, s, first, hit);
		done++;
		free(first);
		free(hit);
		screen_destroy(s);
		kf_render_destroy(r);
	}
	CHECK(done == 3);
}

/* The pre-composed cells keep one-cell glyphs in a plane of their own, cell_w * cell_h pixels a slot,
 * and wide glyphs in another: a screen without wide glyphs never writes the wide plane (a flood of
 * new colour pairs faults in only the narrow plane's pages), each narrow slot holds its cell's
 * pixels at that stride, and both kinds paint as when composed in place. A cell takes a slot on
 * its second miss: the first paint leaves every slot empty. */
static void test_cell_planes(void)
{
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	enum { COLS = 16, ROWS = 4 };
	struct screen *s = screen_create(COLS, ROWS);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < COLS; x++) {
			struct grid_style look = {.fg = GRID_COLOR_PALETTE(1 + (x + y) % 6)};
			uint16_t st = screen_style(s, look);
			screen_put(s, x, y, (uint32_t)('A' + y * COLS + x), st, 1);
		}
	int cw, ch, w, h;
	kf_render_cell_size(r, &cw, &ch);
	CHECK(kf_render_cells_ready(r));
	const size_t n = (size_t)1 << r->cells.bits, slot = r->cells.slot_px;
	CHECK(slot == (size_t)cw * ch);
	memset(r->cells.wide, 0xa5, n * 2 * slot * 4);
	uint32_t *first = screen_render(r, s, &w, &h);
	/* the cells were seen once: composed in place, no slot taken yet */
	int taken = 0;
	for (size_t i = 0; i < n; i++)
		taken += r->cells.tags[i].key != 0;
	CHECK(taken == 0);
	free(screen_render(r, s, &w, &h)); /* seen again: now they take slots */
	bool wide_untouched = true;
	for (size_t i = 0; i < n * 2 * slot; i++)
		wide_untouched &= r->cells.wide[i] == 0xa5a5a5a5u;
	CHECK(wide_untouched);
	/* every narrow cell's slot holds the pixels painted for it */
	int found = 0, same = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t key = r->cells.tags[i].key;
		uint32_t cp = (uint32_t)(key & 0x1fffff);
		if (!key || (key >> 36 & 3) != 1 || cp < 'A' || cp >= 'A' + 2 * COLS)
			continue;
		int x = (int)(cp - 'A') % COLS, y = (int)(cp - 'A') / COLS;
		found++;
		bool eq = true;
		for (int j = 0; j < ch; j++)
			eq &= !memcmp(r->cells.px + (size_t)(r->cells.px_at[i] - 1) * slot + (size_t)j * cw,
				      first + (size_t)(y * ch + j) * w + (size_t)x * cw,
				      (size_t)cw * 4);
		same += eq;
	}
	CHECK(found == 2 * COLS && same == found);
	/* wide glyphs (boxes: the built-in font has no CJK) go to the wide plane */
	for (int x = 0; x + 1 < COLS; x += 2) {
		struct grid_style look = {.fg = GRID_COLOR_PALETTE(1 + x % 6)};
		uint16_t st = screen_style(s, look);
		screen_put(s, x, 2, 0x4e00 + (uint32_t)x, st, 2);
		screen_put(s, x + 1, 2, 0, st, 0);
	}
	screen_text(s, 0, 3, "wide and narrow", 0);
	uint32_t *miss = screen_render(r, s, &w, &h);
	free(screen_render(r, s, &w, &h));
	uint64_t hits = r->cells.hits;
	uint32_t *hit = screen_render(r, s, &w, &h);
	CHECK(r->cells.hits > hits + 40);
	bool wide_used = false;
	for (size_t i = 0; i < n * 2 * slot; i++)
		wide_used |= r->cells.wide[i] != 0xa5a5a5a5u;
	CHECK(wide_used);
	check_as_composed(r, s, miss, hit);
	free(first);
	free(miss);
	free(hit);
	screen_destroy(s);
	kf_render_destroy(r);
}

static long minor_faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* A flood of text in colours that never come back (csi's truecolour runs, issue 5): each (glyph,
 * colours) is painted once, so it is composed in place and takes no pre-composed slot. The slots'
 * pages stay untouched (each costs a page fault and the kernel's zeroing on its first touch, ~10-20
 * us in the TCG guest: 190 pages for DejaVu's 10x19 cells), and no slot of use is evicted (those
 * frame 0's repeated cells took stay). Eight
 * frames of 256 fresh colour pairs each, after a first frame that loaded the glyphs and sized the
 * slots: when every miss took a slot, they took 936 more of the 1024 and 95 page faults (of the 128
 * pages of the built-in font's plane). The pixels are those composed in place. */
static void test_flood_slots(void)
{
	enum { COLS = 32, ROWS = 8, FRAMES = 8 };
	/* meson test sets MALLOC_PERTURB_, which writes every page malloc hands out: the slots' pages
	 * would be touched at allocation, whatever the painter does */
	const char *perturb = getenv("MALLOC_PERTURB_");
	mallopt(M_PERTURB, 0);
	/* and a huge page would fault in all of them at once: 4 KiB pages, as in the guest */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_BUILTIN};
	struct kf_render *r;
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	struct screen *s = screen_create(COLS, ROWS);
	for (int k = 0; k < COLS * ROWS; k++) {
		/* (the last cell in the first cell's style, with another glyph) */
		uint16_t id = screen_style(s, (struct grid_style){.fg = GRID_COLOR_RGB(k % 255, 0, 0)});
		screen_put(s, k % COLS, k / COLS, (uint32_t)('A' + k % 26), id, 1);
	}
	int cw, ch;
	kf_render_cell_size(r, &cw, &ch);
	const int w = cw * COLS, h = ch * ROWS;
	uint32_t *px = calloc((size_t)w * h, 4), *ref = calloc((size_t)w * h, 4);
	CHECK(px && ref);
	if (!px || !ref)
		return;
	memset(px, 1, (size_t)w * h * 4);
	struct kf_render_target t = {px, w, h, w * 4, KF_RENDER_XRGB8888};
	long faults = 0;
	int taken0 = 0; /* the slots frame 0's repeated cells took (26 letters in 256 cells) */
	/* frame 0 in the default colours: the glyphs are loaded and the slots sized */
	for (int f = 0; f <= FRAMES; f++) {
		for (int id = 1; id < s->nstyles; id++) {
			const unsigned v = (unsigned)(f * 256 + id);
			s->styles[id] = (struct grid_style){.fg = GRID_COLOR_RGB(v & 255, v >> 8, 77),
							    .bg = GRID_COLOR_RGB(255 - (v & 255), 3, v >> 8)};
			if (!f)
				s->styles[id] = (struct grid_style){0};
		}
		const long f0 = minor_faults();
		CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) == 0);
		if (f)
			faults += minor_faults() - f0;
		else
			for (size_t i = 0; r->cells.tags && i < (size_t)1 << r->cells.bits; i++)
				taken0 += r->cells.tags[i].key != 0;
	}
	int taken = 0;
	for (size_t i = 0; r->cells.tags && i < (size_t)1 << r->cells.bits; i++)
		taken += r->cells.tags[i].key != 0;
	CHECK(r->cells.bits && taken == taken0);
	CHECK(faults <= 4);
	if (taken != taken0 || faults > 4)
		fprintf(stderr, "flood of fresh colours: %d slots taken, %ld page faults in %d frames\n",
			taken - taken0, faults, FRAMES);
	const unsigned bits = r->cells.bits;
	r->cells.bits = 0;
	struct kf_render_target tr = {ref, w, h, w * 4, KF_RENDER_XRGB8888};
	CHECK(kf_render_paint_full(r, &s->src, &tr, NULL, 0) == 0);
	r->cells.bits = bits;
	CHECK(!memcmp(px, ref, (size_t)w * h * 4));
	/* Now each (glyph, colours) twice a frame: the second takes a slot. Two frames of 128 fresh
	 * pairs fill ~230 slots hashed all over the table (some twice), and their pixels go to the
	 * next places of the plane in order: ~29 pages of 4 KiB for 8x16 cells, where a place per slot
	 * index touched ~100 of the plane's 128. */
	for (int k = 0; k < COLS * ROWS; k++)
		screen_put(s, k % COLS, k / COLS, (uint32_t)('A' + k / 2 % 26), (uint16_t)(1 + k / 2), 1);
	const uint32_t used0 = r->cells.px_used;
	faults = 0;
	for (int f = FRAMES + 1; f <= FRAMES + 2; f++) {
		for (int id = 1; id < s->nstyles; id++) {
			const unsigned v = (unsigned)(f * 256 + id);
			s->styles[id] = (struct grid_style){.fg = GRID_COLOR_RGB(v & 255, v >> 8, 77),
							    .bg = GRID_COLOR_RGB(255 - (v & 255), 3, v >> 8)};
		}
		const long f0 = minor_faults();
		CHECK(kf_render_paint_full(r, &s->src, &t, NULL, 0) == 0);
		faults += minor_faults() - f0;
	}
	/* every slot filled so far has its own place, and only those have one */
	taken = 0;
	for (size_t i = 0; i < (size_t)1 << r->cells.bits; i++)
		taken += r->cells.tags[i].key != 0;
	const size_t place = (size_t)cw * ch * 4, pages = ((r->cells.px_used - used0) * place + 4095) / 4096;
	CHECK(r->cells.px_used == (uint32_t)taken && r->cells.px_used - used0 >= 200);
	CHECK(faults <= (long)pages + 4);
	if (faults > (long)pages + 4)
		fprintf(stderr, "256 slots filled: %ld page faults (%zu pages of places)\n", faults, pages);
	r->cells.bits = 0;
	CHECK(kf_render_paint_full(r, &s->src, &tr, NULL, 0) == 0);
	r->cells.bits = bits;
	CHECK(!memcmp(px, ref, (size_t)w * h * 4));
	free(px);
	free(ref);
	screen_destroy(s);
	kf_render_destroy(r);
	mallopt(M_PERTURB, perturb ? atoi(perturb) : 0);
}

int main(void)
{
	test_flood_slots(); /* first: the slots' memory must not be pages another test touched */
	test_blank_runs();
	test_fill_runs();
	test_hit_runs();
	test_cell_planes();
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
