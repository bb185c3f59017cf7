/* tests/render/test-font-huge.c: a FreeType font is input too (font-file=, or whatever fontconfig
 * picks), and a glyph's outline sets the size of its bitmap: up to 65,535 x 65,535 pixels (4 GiB)
 * before FreeType itself refuses. A glyph larger than a cell can show (font-ft-bound.c) is refused,
 * logged with the font and the glyph, and drawn as the missing-glyph box, without the memory. The
 * font is made here (make-huge-glyph-font.py, python3-fonttools: tools/install-deps.sh). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static char tmpdir[] = "/tmp/kf-font-huge-XXXXXX";
static char logged[4096];

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* The glyph for cp in style, what was logged to stderr meanwhile in logged. */
static const struct kf_glyph *glyph_logged(struct kf_render *r, uint32_t cp, unsigned style)
{
	const int token = stderr_capture_begin();
	const struct kf_glyph *g = kf_render_glyph(r, cp, style, 1);
	stderr_capture_end(token, logged, sizeof(logged));
	return g;
}

/* Whether g is the missing-glyph box: marked missing, the very pixels of a code point no font has.
 */
static bool is_box(struct kf_render *r, const struct kf_glyph *g)
{
	const struct kf_glyph *box = kf_render_glyph(r, 0x10fffd, 0, 1);
	return g->missing && box->missing && g->kind == KF_GLYPH_ALPHA && g->w == box->w &&
	       g->h == box->h && !memcmp(g->data, box->data, (size_t)g->w * g->h);
}

static void test_huge(const char *font, int size)
{
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {
	    .engine = KF_RENDER_ENGINE_FREETYPE, .font_file = font, .font_size = size};
	CHECK(kf_render_create(&cfg, &r) == 0);
	if (!r)
		return;
	/* the font works: an ordinary glyph is drawn */
	const struct kf_glyph *g = kf_render_glyph(r, 'A', 0, 1);
	CHECK(!g->missing && g->kind == KF_GLYPH_ALPHA);
	long before = peak_kb();
	/* 'B' (8,000 pixels square at 16) and 'C' (32,767 at 16, 65,534 at 32): the regular style
	 * is FreeType's own rendering of the slot, the synthesised ones rasterise a kept outline
	 * (render_kept) */
	for (uint32_t cp = 'B'; cp <= 'C'; cp++)
		for (unsigned style = 0; style < 4; style++) {
			g = glyph_logged(r, cp, style);
			CHECK(is_box(r, g));
			char want[64];
			snprintf(want, sizeof(want), "U+%04X", (unsigned)cp);
			if (!style) {
				printf("size %d, %c: %s", size, (char)cp,
				       logged[0] ? logged : "(nothing logged)\n");
				CHECK(strstr(logged, "Huge Glyph Test") && strstr(logged, want) &&
				      strstr(logged, "pixels, more than"));
			}
		}
	long grew = peak_kb() - before;
	printf("size %d: peak grew %ld KiB\n", size, grew);
	CHECK(grew < 8 * 1024);
	kf_render_destroy(r);
}

/* Real fonts keep inside the bound: every glyph of DejaVu Sans (proportional: its widest glyphs,
 * such as U+FDFD, span several cells) and of the colour emoji font, in one cell, at a small and a
 * large size. */
static void test_real_fonts(void)
{
	static const char *const files[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
					    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (int size = 8; size <= 64; size *= 8) {
			struct kf_render *r = NULL;
			struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_FREETYPE,
						       .font_file = files[i],
						       .font_size = size};
			if (kf_render_create(&cfg, &r)) {
				printf("%s: not installed\n", files[i]);
				CHECK(i > 0);
				continue;
			}
			/* stderr captured once for the whole font: a capture per glyph (a temporary file each)
			 * made this test 500,000 file creations, 24 s of a 30 s timeout on an idle CI machine */
			static char all[1 << 20];
			int refused = 0, drawn = 0;
			const int token = stderr_capture_begin();
			for (uint32_t cp = 0x20; cp < 0x20000; cp++)
				drawn += !kf_render_glyph(r, cp, 0, 1)->missing;
			stderr_capture_end(token, all, sizeof(all));
			CHECK(token >= 0 && strlen(all) < sizeof(all) - 1); /* nothing cut off unread */
			for (const char *at = all; (at = strstr(at, "pixels, more than")); at++)
				if (!refused++)
					printf("%s", all);
			printf("%s at %d: %d glyphs drawn, %d refused\n", files[i], size, drawn,
			       refused);
			CHECK(refused == 0 && drawn > 1000);
			kf_render_destroy(r);
		}
}

int main(int argc, char **argv)
{
	if (argc < 2 || !mkdtemp(tmpdir))
		return 1;
	char font[300];
	snprintf(font, sizeof(font), "%s/huge.ttf", tmpdir);
	if (!make_test_font(argv[1], font)) {
		rmdir(tmpdir);
		return 77;
	}
#ifndef __SANITIZE_ADDRESS__
	/* should a regression allocate the 1 or 4 GiB, let it fail rather than take the machine's
	 * memory (AddressSanitizer reserves its shadow as address space: no limit there) */
	struct rlimit lim = {1ul << 30, 1ul << 30};
	setrlimit(RLIMIT_AS, &lim);
#endif
	test_huge(font, 16); /* first: the peak it measures is the process's */
	test_huge(font, 32);
	test_real_fonts();
	unlink(font);
	rmdir(tmpdir);
	printf("font-huge: %d failures\n", failures);
	return failures ? 1 : 0;
}
