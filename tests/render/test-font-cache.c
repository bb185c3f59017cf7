/* tests/render/test-font-cache.c: the font cache (kmscon-felis/render/font-cache.c) against real
 * fontconfig and FreeType: a hit gives the same pixels as fontconfig, a hit is really taken, and a
 * stale, foreign or corrupted cache file is a miss that fontconfig answers and overwrites. Skips
 * (77) when fontconfig finds no scalable monospace font. */
#include <dirent.h>
#include <ft2build.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include FT_FREETYPE_H

#include "kmscon-felis/render/render-internal.h"
#include "screen.h"
#include "tests/kf-check.h"

static int failures;

static char dir[] = "/tmp/kf-font-cache-XXXXXX";
static char file[4096];

/* Renders a line with every style and a character DejaVu Sans Mono lacks (the fallback list). */
static uint32_t *render_once(int *w, int *h, enum kf_render_engine *engine)
{
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_AUTO, .font_size = 16};
	struct kf_render *r;
	if (kf_render_create(&cfg, &r) < 0)
		return NULL;
	*engine = kf_render_get_engine(r);
	struct screen *s = screen_create(24, 2);
	struct grid_style st = {0};
	int x = screen_text(s, 0, 0, "Ag ", 0);
	st.attrs = GRID_ATTR_BOLD;
	x = screen_text(s, x, 0, "Ag ", screen_style(s, st));
	st.attrs = GRID_ATTR_ITALIC;
	x = screen_text(s, x, 0, "Ag ", screen_style(s, st));
	st.attrs = GRID_ATTR_BOLD | GRID_ATTR_ITALIC;
	screen_text(s, x, 0, "Ag", screen_style(s, st));
	screen_text(s, 0, 1, "\xe4\xb8\xad \xe2\x98\x83 \xd0\xb6", 0);
	uint32_t *px = screen_render(r, s, w, h);
	screen_destroy(s);
	kf_render_destroy(r);
	return px;
}

/* The one cache file in dir (NULL when there is none), read into a new string. */
static char *read_cache(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *text = NULL;
	file[0] = 0;
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "font-", 5))
			snprintf(file, sizeof(file), "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	FILE *f = file[0] ? fopen(file, "r") : NULL;
	if (f) {
		text = calloc(1, 8192);
		if (fread(text, 1, 8191, f) == 0)
			text[0] = 0;
		fclose(f);
	}
	return text;
}

static void write_cache(const char *text)
{
	FILE *f = fopen(file, "w");
	CHECK(f && fputs(text, f) >= 0, "cannot write %s", file);
	if (f)
		fclose(f);
}

static bool same(const uint32_t *a, const uint32_t *b, int w, int h)
{
	return a && b && !memcmp(a, b, (size_t)w * h * 4);
}

/* A copy of the cache text with line n ("face 0 ...", "stamp ...") replaced by repl. */
static char *replace_line(const char *text, const char *start, const char *repl)
{
	char *out = calloc(1, 8192);
	const char *p = strstr(text, start), *end = p ? strchr(p, '\n') : NULL;
	if (!p || !end)
		return out;
	snprintf(out, 8192, "%.*s%s%s", (int)(p - text), text, repl, end);
	return out;
}

/* Every Latin-1 letter of the bold face fits the cell at every size, on a cache miss (fontconfig
 * opened the bold face) and on a hit (it is opened only when a bold glyph is drawn) alike: the
 * cell was measured on the regular face only, and DejaVu Sans Mono Bold's accented capitals reach
 * a pixel higher at 10, 17, 18, 26 and 40 px, where the cell's top cut off their accents. */
static void bold_fits(void)
{
	const char *path = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf";
	char sub[300];
	FT_Library lib;
	FT_Face face;
	snprintf(sub, sizeof(sub), "%s/bold", dir);
	if (access(path, R_OK) || mkdir(sub, 0755) < 0 || FT_Init_FreeType(&lib)) {
		printf("SKIP bold fits: no DejaVu Sans Mono Bold\n");
		return;
	}
	CHECK(FT_New_Face(lib, path, 0, &face) == 0, "%s does not open", path);
	setenv("KMSCON_FELIS_FONT_CACHE", sub, 1);
	int bad = 0;
	for (int size = 8; size <= 40 && face; size++) {
		struct kf_font *f[2] = {NULL, NULL}; /* a miss, then a hit */
		bool fake_bold = true, fake_italic;
		for (int i = 0; i < 2; i++)
			CHECK(kf_font_ft_create("DejaVu Sans Mono", NULL, size, &f[i]) == 0,
			      "DejaVu Sans Mono at %d px", size);
		const char *style =
		    f[0] ? kf_font_ft_style(f[0], KF_GLYPH_BOLD, &fake_bold, &fake_italic) : NULL;
		if (!f[1] || !style || strcmp(style, "Bold") || fake_bold) {
			printf("SKIP bold fits: fontconfig's bold is not DejaVu Sans Mono Bold\n");
		} else {
			CHECK(f[0]->cell_h == f[1]->cell_h && f[0]->baseline == f[1]->baseline,
			      "%d px: a %d-pixel cell (baseline %d) on a miss, %d (%d) on a hit",
			      size, f[0]->cell_h, f[0]->baseline, f[1]->cell_h, f[1]->baseline);
			FT_Set_Pixel_Sizes(face, 0, (FT_UInt)size);
			for (uint32_t cp = 'A'; cp <= 0xff; cp++) {
				bool letter = (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
				if (!letter && (cp < 0xc0 || cp == 0xd7 || cp == 0xf7))
					continue;
				if (FT_Load_Char(face, cp,
						 FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT) ||
				    FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
					continue;
				for (int i = 0; i < 2; i++) {
					int top = f[i]->baseline - face->glyph->bitmap_top;
					int bottom = top + (int)face->glyph->bitmap.rows;
					if (top < 0 || bottom > f[i]->cell_h)
						CHECK(bad++ > 8,
						      "bold U+%04X at %d px (%s): rows %d..%d of a "
						      "%d-pixel cell",
						      cp, size, i ? "hit" : "miss", top, bottom - 1,
						      f[i]->cell_h);
				}
			}
		}
		for (int i = 0; i < 2; i++)
			if (f[i])
				f[i]->destroy(f[i]);
		if (!style)
			break;
	}
	CHECK(bad == 0, "%d bold letters clipped", bad);
	FT_Done_Face(face);
	FT_Done_FreeType(lib);
	DIR *d = opendir(sub);
	struct dirent *e;
	char name[600];
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    snprintf(name, sizeof(name), "%s/%s", sub, e->d_name) > 0)
			unlink(name);
	if (d)
		closedir(d);
	rmdir(sub);
	setenv("KMSCON_FELIS_FONT_CACHE", dir, 1);
}

int main(void)
{
	int w, h, w2, h2;
	enum kf_render_engine engine;
	if (!mkdtemp(dir))
		return 1;
	setenv("KMSCON_FELIS_FONT_CACHE", dir, 1);
	unsetenv("FONTCONFIG_FILE");

	/* A miss: fontconfig decides and the answer is saved. */
	uint32_t *ref = render_once(&w, &h, &engine);
	char *text = read_cache();
	if (!ref || engine != KF_RENDER_ENGINE_FREETYPE || !text) {
		printf("SKIP: no fontconfig font (engine %d, cache file %s)\n", (int)engine, file);
		free(ref);
		free(text);
		return 77;
	}
	CHECK(strstr(text, "\nface 0 0 "), "the saved cache has no regular face:\n%s", text);

	/* A hit: the same pixels, bold, italic and fallbacks included. */
	uint32_t *px = render_once(&w2, &h2, &engine);
	CHECK(w == w2 && h == h2 && same(ref, px, w, h), "a hit must give fontconfig's pixels");
	free(px);

	/* A hit is taken: the bold face saved as the regular one changes the regular glyphs. */
	char *bold = strstr(text, "\nface 1 "), *swapped = NULL;
	if (bold) {
		char line[4096];
		snprintf(line, sizeof(line), "face 0%.*s", (int)strcspn(bold + 7, "\n"), bold + 7);
		char *t = replace_line(text, "face 0 ", line);
		swapped = strdup(t);
		write_cache(t);
		px = render_once(&w2, &h2, &engine);
		/* the bold face's cell may be taller (its | reaches a pixel lower at 16 px) */
		CHECK(w != w2 || h != h2 || !same(ref, px, w, h),
		      "the swapped faces in the cache were not used");
		free(px);
		free(t);
	}

	/* A hit's FAKE is used: the bold face saved as bold italic with the italic synthesised on it
	 * (fontconfig's choice where no bold italic face is installed) is not the bold face upright. */
	if (bold) {
		char line[2][4096], *after = strchr(bold + 7, ' ');
		after = after ? strchr(after + 1, ' ') : NULL; /* past STYLE and INDEX */
		uint32_t *slanted[2] = {NULL, NULL};
		for (int i = 0; after && i < 2; i++) {
			snprintf(line[i], sizeof(line[i]), "face 3 0 %d%.*s", i ? 0 : 2,
				 (int)strcspn(after + 2, "\n"), after + 2);
			char *t = replace_line(text, "face 3 ", line[i]);
			write_cache(t);
			slanted[i] = render_once(&w2, &h2, &engine);
			free(t);
		}
		CHECK(after && slanted[0] && slanted[1] && !same(slanted[0], slanted[1], w, h) &&
			  !same(slanted[0], ref, w, h),
		      "FAKE in the cache was not used:\n%s\n%s", line[0], line[1]);
		free(slanted[0]);
		free(slanted[1]);
	}

	/* Misses that fontconfig must answer (same pixels as the reference) and overwrite. */
	const char *stale[][2] = {
	    {"stamp ", "stamp 0000000000000001"}, /* configuration changed */
	    {"face 0 ", "face 0 0 0 1 1 /usr/share/fonts/nonexistent.ttf"}, /* face gone */
	    {"face 0 ", "face 0 0 0 0 0 /etc/passwd"},			    /* face file changed */
	    {"kmscon-felis-font-cache", "kmscon-felis-font-cache 1"}, /* the format before FAKE */
	    {"kmscon-felis-font-cache", "kmscon-felis-font-cache 2"}, /* before the bold fit */
	    {"font ", "font 16 sans"},				      /* another name, same hash */
	    {"kmscon-felis-font-cache", "garbage"},
	};
	for (size_t i = 0; i < sizeof(stale) / sizeof(stale[0]); i++) {
		/* a stale stamp over the swapped faces: they must not be used */
		char *t =
		    replace_line(i == 0 && swapped ? swapped : text, stale[i][0], stale[i][1]);
		write_cache(t);
		px = render_once(&w2, &h2, &engine);
		CHECK(w == w2 && h == h2 && same(ref, px, w, h), "stale cache case %zu was used", i);
		char *now = read_cache();
		CHECK(now && !strcmp(now, text), "stale cache case %zu was not overwritten", i);
		free(now);
		free(px);
		free(t);
	}
	/* A file that is too big, or empty: a miss too. */
	char *big = calloc(1, 6000);
	memset(big, 'x', 5999);
	write_cache(big);
	free(big);
	px = render_once(&w2, &h2, &engine);
	CHECK(same(ref, px, w, h), "an oversized cache file must be a miss");
	free(px);
	write_cache("");
	px = render_once(&w2, &h2, &engine);
	CHECK(same(ref, px, w, h), "an empty cache file must be a miss");
	free(px);

	/* A FIFO in its place is a miss too: open(2) waited for a writer for ever, before the first frame. */
	char fifo[sizeof(file)];
	snprintf(fifo, sizeof(fifo), "%s", file);
	unlink(fifo);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
	px = render_once(&w2, &h2, &engine);
	CHECK(px && same(ref, px, w, h), "a FIFO as the cache file must be a miss");
	free(px);

	/* No cache directory: fontconfig every time, nothing written. */
	setenv("KMSCON_FELIS_FONT_CACHE", "", 1);
	unlink(file);
	px = render_once(&w2, &h2, &engine);
	CHECK(same(ref, px, w, h), "without a cache directory the pixels must not change");
	free(px);
	free(read_cache());
	CHECK(!file[0], "a cache file was written with the cache off: %s", file);

	/* A fontconfig configuration named in the environment turns the cache off as well (kmscon-felis(1),
	 * ENVIRONMENT): the stamp covers only the files the default configuration reads. */
	setenv("KMSCON_FELIS_FONT_CACHE", dir, 1);
	static const char *const fc_env[][2] = {
	    {"FONTCONFIG_FILE", "/etc/fonts/fonts.conf"},
	    {"FONTCONFIG_PATH", "/etc/fonts"},
	    {"FONTCONFIG_SYSROOT", "/"},
	};
	for (size_t i = 0; i < sizeof(fc_env) / sizeof(fc_env[0]); i++) {
		setenv(fc_env[i][0], fc_env[i][1], 1);
		free(render_once(&w2, &h2, &engine));
		free(read_cache());
		CHECK(!file[0], "a cache file was written with %s set: %s", fc_env[i][0], file);
		if (file[0])
			unlink(file);
		unsetenv(fc_env[i][0]);
	}

	/* Without KMSCON_FELIS_FONT_CACHE the cache is in the unit's CacheDirectory= (CACHE_DIRECTORY). */
	unsetenv("KMSCON_FELIS_FONT_CACHE");
	setenv("CACHE_DIRECTORY", dir, 1);
	free(render_once(&w2, &h2, &engine));
	char *in_unit_dir = read_cache();
	CHECK(in_unit_dir && !strcmp(in_unit_dir, text), "no cache file in CACHE_DIRECTORY (%s)", dir);
	free(in_unit_dir);
	if (file[0])
		unlink(file);
	unsetenv("CACHE_DIRECTORY");

	bold_fits();

	free(ref);
	free(text);
	free(swapped);
	rmdir(dir);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
