/* tests/render/test-font-fallbacks.c: more fallback fonts in use than may be open at once (font-ft.c
 * MAX_FALLBACK). A child's output chooses the characters, and so which fallback faces open: the bound must hold
 * the open faces without losing the characters of the fonts past it. */
#include <dirent.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/render/render-internal.h"
#include "kmscon-felis/render/render.h"
#include "bdf.h"
#include "check.h"

#define NFB 40		   /* fallback fonts, each with one character of its own */
#define FIRST_CP 0x4e00	   /* font k's character: FIRST_CP + k */
#define OPEN_MAX 16	   /* font-ft.c MAX_FALLBACK */

static char tmpdir[] = "/tmp/kf-font-fallbacks-XXXXXX";

/* Font k's glyph: row bits k + 1 (MSB the cell's column 0), which tells which font drew it. */
static uint8_t own_bits(uint32_t cp)
{
	return (uint8_t)(cp - FIRST_CP + 1);
}

/* The fallback fonts FreeType holds open: the files named "Fb*" mapped or open in this process (FreeType maps a
 * font file, or keeps it open where it cannot map it). */
static int open_fallbacks(const char *dir)
{
	char line[4096], pat[400];
	int n = 0;
	snprintf(pat, sizeof(pat), "%s/Fb", dir);
	FILE *m = fopen("/proc/self/maps", "re");
	while (m && fgets(line, sizeof(line), m))
		n += strstr(line, pat) != NULL;
	if (m)
		fclose(m);
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char link[300], to[4096];
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(link, to, sizeof(to) - 1);
		if (len > 0) {
			to[len] = 0;
			n += strstr(to, pat) != NULL;
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether f draws font k's character as font k's glyph. */
static bool drawn(struct kf_font *f, int k, uint8_t *buf)
{
	struct kf_glyph g = {.w = (uint16_t)f->cell_w, .h = (uint16_t)f->cell_h, .data = buf};
	const uint32_t cp = FIRST_CP + (uint32_t)k;
	if (f->render(f, cp, 0, 1, &g) != 0 || g.kind != KF_GLYPH_ALPHA)
		return false;
	for (int x = 0; x < 8; x++)
		if ((buf[2 * g.w + x] >= 128) != (own_bits(cp) >> (7 - x) & 1))
			return false;
	return true;
}

/* A primary family and NFB fallbacks, the characters of all of them shown in turn, forward, backward and forward
 * again (a screen of many scripts, redrawn as the glyph cache lets them go): each drawn by its own font, every
 * time, with at most OPEN_MAX fallback faces open. Before: the first 16 faces opened stayed open and no other
 * opened, so from the 17th font on every character was the missing-glyph box, for the rest of the font's life
 * (emoji too, once 16 scripts had been shown). */
static void test_many_fallbacks(void)
{
	char dir[300], path[400];
	if (!bdf_fonts_dir(tmpdir, dir, sizeof(dir)))
		return;
	for (int k = 0; k < NFB; k++) {
		const uint32_t cp = FIRST_CP + (uint32_t)k;
		char family[32];
		snprintf(family, sizeof(family), "Fb%02d", k);
		snprintf(path, sizeof(path), "%s/%s.bdf", dir, family);
		write_bdf(path, family, &cp, 1, own_bits, NULL);
	}
	if (!bdf_fontconfig_use(tmpdir, dir))
		return;
	struct kf_font *f = NULL;
	CHECK(kf_font_ft_create("Prim", NULL, 16, &f) == 0);
	if (!f)
		return;
	uint8_t *buf = calloc((size_t)f->cell_w * f->cell_h, 4);
	int peak = 0;
	for (int pass = 0; pass < 3 && buf; pass++) {
		int n = 0, first_missing = -1;
		for (int i = 0; i < NFB; i++) {
			const int k = pass == 1 ? NFB - 1 - i : i;
			if (drawn(f, k, buf))
				n++;
			else if (first_missing < 0)
				first_missing = k;
			const int open = open_fallbacks(dir);
			peak = open > peak ? open : peak;
		}
		printf("pass %d (%s): %d of %d fallback fonts' characters drawn by their font (first missing: %d)\n",
		       pass, pass == 1 ? "backward" : "forward", n, NFB, first_missing);
		CHECK(n == NFB);
	}
	printf("fallback fonts open at most: %d (bound %d)\n", peak, OPEN_MAX);
	CHECK(peak >= 1 && peak <= OPEN_MAX);
	free(buf);
	f->destroy(f);
	printf("after the font's end: %d open\n", open_fallbacks(dir));
	CHECK(open_fallbacks(dir) == 0);
	unsetenv("FONTCONFIG_FILE");
	FcInitReinitialize();
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_many_fallbacks();
	return check_finish(tmpdir);
}
