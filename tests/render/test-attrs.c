/* tests/render/test-attrs.c: what a user sees of text the real grid hands over, pixel by pixel.
 *
 * Each check feeds a byte stream to a grid, paints it the way the frame loop does
 * (kf_render_source_from_grid, kf_render_paint_full) and looks at the pixels of a cell: a
 * combining mark of any script is drawn over its base, not dropped (the cursor: test-cursor.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include <hb.h>
#include FT_FREETYPE_H

#include "check.h"
#include "grid-shot.h"
#include "kmscon-felis/render/render-internal.h"
#include "kmscon-felis/render/render.h"

#define MONO "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define EMOJI "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

/* Pixels of cell (x, y) of a and b that differ in the middle half of its columns (where a mark
 * over its base is), counted in the cell's upper and lower halves. */
static void cell_diff(const struct shot *a, const struct shot *b, int x, int y, int *upper,
		      int *lower)
{
	*upper = *lower = 0;
	for (int j = 0; j < a->ch; j++)
		for (int i = a->cw / 4; i < a->cw - a->cw / 4; i++) {
			size_t k = (size_t)(y * a->ch + j) * a->w + x * a->cw + i;
			if (a->px[k] != b->px[k])
				(j < a->ch / 2 ? upper : lower)[0]++;
		}
}

/* Combining marks of every script are drawn over their base: the Arabic fatha and kasra from DejaVu
 * Sans Mono itself, the Cyrillic titlo and the Hebrew qamats from its fallback DejaVu Sans, whose
 * marks have no advance and hang left of their origin (they were dropped: only a few Latin ranges
 * such as U+0300..036F counted as marks; and a mark from such a font, once drawn, lay outside the
 * cell). */
static void test_marks(void)
{
	static const struct kf_render_config cfg[2] = {
	    {.font_file = MONO, .font_size = 20},
	    {.font_name = "DejaVu Sans Mono", .font_size = 20},
	};
	static const struct {
		int cfg;
		const char *base, *marked, *what;
		bool above;
	} cases[] = {
	    {0, "a", "a\xcc\x81", "a + U+0301 acute", true},
	    {0, "\xd8\xa8", "\xd8\xa8\xd9\x8e", "beh + U+064E fatha", true},
	    {0, "\xd8\xa8", "\xd8\xa8\xd9\x90", "beh + U+0650 kasra", false},
	    {1, "\xd0\xb0", "\xd0\xb0\xd2\x83", "Cyrillic a + U+0483 titlo", true},
	    {1, "\xd7\xa9", "\xd7\xa9\xd6\xb8", "shin + U+05B8 qamats", false},
	};
	struct kf_render *r[2];
	for (int i = 0; i < 2; i++)
		if (kf_render_create(&cfg[i], &r[i]) ||
		    kf_render_get_engine(r[i]) != KF_RENDER_ENGINE_FREETYPE) {
			printf("SKIP marks: no DejaVu Sans Mono\n");
			return;
		}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_render *ri = r[cases[i].cfg];
		struct shot a = paint(ri, 3, 1, cases[i].base);
		struct shot b = paint(ri, 3, 1, cases[i].marked);
		int up, low;
		cell_diff(&a, &b, 0, 0, &up, &low);
		if (!(cases[i].above ? up > 3 && low == 0 : low > 3)) {
			printf("FAIL %s: %d pixels changed above the middle, %d below\n",
			       cases[i].what, up, low);
			failures++;
		}
		free(a.px);
		free(b.px);
	}
	for (int i = 0; i < 2; i++)
		kf_render_destroy(r[i]);
}

/* Whether the screens of a and b are the same, pixel for pixel. */
static bool same_shot(const struct shot *a, const struct shot *b)
{
	return a->w == b->w && a->h == b->h && !memcmp(a->px, b->px, (size_t)a->w * a->h * 4);
}

/* A base with combining marks that Unicode composes (NFC) shows the font's precomposed glyph when
 * the font has one: what files named on macOS (NFD) and decomposed text look like elsewhere. Before,
 * the marks were drawn over the base from the font's combining glyphs, where it has any: the
 * console fonts (built-in, PSF) have none, so e + U+0301 showed a bare e; and an accent for a small
 * letter over a capital ran into it. */
static void test_composed(void)
{
	static const struct kf_render_config cfg[2] = {
	    {.engine = KF_RENDER_ENGINE_BUILTIN},
	    {.font_file = MONO, .font_size = 20},
	};
	static const struct {
		int cfg;
		const char *decomposed, *composed, *what;
	} cases[] = {
	    {0, "e\xcc\x81", "\xc3\xa9", "builtin: e + U+0301 as U+00E9"},
	    {0, "A\xcc\x8a", "\xc3\x85", "builtin: A + U+030A as U+00C5"},
	    {0, "u\xcc\x88x", "\xc3\xbcx", "builtin: u + U+0308 as U+00FC"},
	    {1, "E\xcc\x81", "\xc3\x89", "DejaVu: E + U+0301 as U+00C9"},
	    {1, "a\xcc\xa3\xcc\x82", "\xe1\xba\xad", "DejaVu: a + U+0323 + U+0302 as U+1EAD"},
	    {1, "u\xcc\x88\xcc\x84", "\xc7\x96", "DejaVu: u + U+0308 + U+0304 as U+01D6"},
	    {1, "e\xcc\x81\xcc\xa3", "\xc3\xa9\xcc\xa3", "DejaVu: e + U+0301 + U+0323 as U+00E9 + U+0323"},
	};
	struct kf_render *r[2] = {NULL, NULL};
	for (int i = 0; i < 2; i++)
		if (kf_render_create(&cfg[i], &r[i]))
			r[i] = NULL;
		else if (kf_render_get_engine(r[i]) != (i ? KF_RENDER_ENGINE_FREETYPE : KF_RENDER_ENGINE_BUILTIN)) {
			kf_render_destroy(r[i]);
			r[i] = NULL;
		}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_render *ri = r[cases[i].cfg];
		if (!ri) {
			printf("SKIP %s: no such font\n", cases[i].what);
			continue;
		}
		struct shot a = paint(ri, 3, 1, cases[i].decomposed);
		struct shot b = paint(ri, 3, 1, cases[i].composed);
		if (!same_shot(&a, &b)) {
			printf("FAIL %s: %d pixels of the cell differ from the precomposed glyph's\n",
			       cases[i].what, cell_changed(&a, &b, 0, 0, 1));
			failures++;
		}
		free(a.px);
		free(b.px);
	}
	for (int i = 0; i < 2; i++)
		kf_render_destroy(r[i]);
}

/* Pixels of the two cells at x of s that are coloured (not grey: the default colours and their blends are). */
static int colored_pixels(const struct shot *s, int x)
{
	int n = 0;
	for (int j = 0; j < s->ch; j++)
		for (int i = 0; i < 2 * s->cw; i++) {
			uint32_t p = s->px[(size_t)j * s->w + x * s->cw + i];
			n += (p >> 16 & 0xff) != (p & 0xff) || (p >> 8 & 0xff) != (p & 0xff);
		}
	return n;
}

/* U+FE0E (VS15) asks for an emoji's text presentation: a monochrome glyph where a font has one (DejaVu Sans
 * has the emoticons), in the text's colour, as U+FE0F asks for the colour one. The emoji blocks were drawn
 * from the colour font whatever followed. */
static void test_text_presentation(void)
{
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 20}, &r))
		return;
	struct shot plain = paint(r, 4, 1, "\xf0\x9f\x98\x80");
	struct shot text = paint(r, 4, 1, "\xf0\x9f\x98\x80\xef\xb8\x8e");
	if (colored_pixels(&plain, 0) == 0) {
		printf("SKIP text presentation: no colour emoji font\n");
	} else {
		struct shot blank = paint(r, 4, 1, " ");
		int n = colored_pixels(&text, 0), ink = cell_changed(&text, &blank, 0, 0, 2);
		if (n != 0 || ink < 20) {
			printf("FAIL U+1F600 U+FE0E: %d coloured pixels (0: no colour emoji), %d drawn\n", n, ink);
			failures++;
		}
		free(blank.px);
	}
	free(plain.px);
	free(text.px);
	kf_render_destroy(r);
}

/* The cells at 0 of s as the emoji font's glyph for the sequence cps[0..n) would draw them over the
 * background of blank: HarfBuzz (straight from the font file) gives the glyph, FreeType its bitmap,
 * scaled into the cells like any colour glyph. false when the font makes no single glyph of it. */
static bool expect_sequence(const struct shot *blank, const uint32_t *cps, int n, int cells,
			    uint32_t *out)
{
	hb_blob_t *blob = hb_blob_create_from_file(EMOJI);
	hb_face_t *hf = hb_face_create(blob, 0);
	hb_font_t *hfont = hb_font_create(hf);
	hb_buffer_t *buf = hb_buffer_create();
	hb_buffer_set_flags(buf, HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES);
	hb_buffer_add_utf32(buf, cps, n, 0, n);
	hb_buffer_guess_segment_properties(buf);
	hb_shape(hfont, buf, NULL, 0);
	unsigned count;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &count);
	unsigned gi = count == 1 ? info[0].codepoint : 0;
	hb_buffer_destroy(buf);
	hb_font_destroy(hfont);
	hb_face_destroy(hf);
	hb_blob_destroy(blob);
	FT_Library lib;
	FT_Face face;
	if (count != 1 || FT_Init_FreeType(&lib))
		return false;
	bool ok = !FT_New_Face(lib, EMOJI, 0, &face);
	ok = ok && !FT_Select_Size(face, 0) && !FT_Load_Glyph(face, gi, FT_LOAD_COLOR) &&
	     face->glyph->bitmap.pixel_mode == FT_PIXEL_MODE_BGRA;
	int w = cells * blank->cw;
	struct kf_glyph g = {.w = (uint16_t)w, .h = (uint16_t)blank->ch};
	g.data = calloc((size_t)w * g.h, 4);
	if (ok && g.data) {
		kf_ft_copy_color(&face->glyph->bitmap, &g);
		for (int y = 0; y < g.h; y++) {
			memcpy(out + (size_t)y * w, blank->px + (size_t)y * blank->w,
			       (size_t)w * 4);
			kf_paint_blit_color_row(out + (size_t)y * w,
						(uint32_t *)g.data + (size_t)y * w, w);
		}
	}
	free(g.data);
	FT_Done_FreeType(lib);
	return ok;
}

/* An emoji ZWJ sequence, a flag, an emoji with a skin tone and a keycap are drawn as the colour
 * emoji font's own glyph for the whole sequence (its GSUB ligature), as in terminals that shape
 * text: they showed their first character only (U+1F469 U+200D U+1F4BB as U+1F469, a German flag as
 * a lone regional indicator D, a thumbs up without its tone). */
static void test_emoji_sequences(void)
{
	static const struct {
		const char *seq, *first, *what;
		uint32_t cps[12];
		int n, cells;
	} cases[] = {
	    {"\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb",
	     "\xf0\x9f\x91\xa9",
	     "woman technologist (U+1F469 U+200D U+1F4BB)",
	     {0x1f469, 0x200d, 0x1f4bb},
	     3,
	     2},
	    {"\xf0\x9f\x87\xa9\xf0\x9f\x87\xaa",
	     "\xf0\x9f\x87\xa9",
	     "flag DE (U+1F1E9 U+1F1EA)",
	     {0x1f1e9, 0x1f1ea},
	     2,
	     2},
	    {"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",
	     "\xf0\x9f\x91\x8d",
	     "thumbs up, medium skin tone",
	     {0x1f44d, 0x1f3fd},
	     2,
	     2},
	    /* longer than 8 code points: showed its first emoji only */
	    {"\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbb\xe2\x80\x8d\xe2\x9d\xa4\xef\xb8\x8f\xe2\x80\x8d"
	     "\xf0\x9f\x92\x8b\xe2\x80\x8d\xf0\x9f\x91\xa8\xf0\x9f\x8f\xbc",
	     "\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbb",
	     "kiss: woman, man, light and medium-light skin tones (10 code points)",
	     {0x1f469, 0x1f3fb, 0x200d, 0x2764, 0xfe0f, 0x200d, 0x1f48b, 0x200d, 0x1f468, 0x1f3fc},
	     10,
	     2},
	    {"1\xef\xb8\x8f\xe2\x83\xa3",
	     "1\xef\xb8\x8f",
	     "keycap 1 (U+0031 U+FE0F U+20E3)",
	     {0x31, 0xfe0f, 0x20e3},
	     3,
	     1},
	};
	struct kf_render *r;
	FILE *font = fopen(EMOJI, "rb");
	if (!font ||
	    kf_render_create(
		&(struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 20}, &r)) {
		printf("SKIP emoji sequences: no Noto Color Emoji or no DejaVu Sans Mono\n");
		if (font)
			fclose(font);
		return;
	}
	fclose(font);
	struct shot blank = paint(r, 4, 1, " ");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct shot seq = paint(r, 4, 1, cases[i].seq),
			    first = paint(r, 4, 1, cases[i].first);
		int cells = cases[i].cells, w = cells * seq.cw, bad = 0;
		uint32_t *want = calloc((size_t)w * seq.ch, 4);
		if (!want)
			abort();
		if (!expect_sequence(&blank, cases[i].cps, cases[i].n, cells, want)) {
			printf("FAIL %s: the emoji font has no single glyph for it\n",
			       cases[i].what);
			failures++;
		} else {
			for (int y = 0; y < seq.ch; y++)
				for (int x = 0; x < w; x++)
					bad += seq.px[(size_t)y * seq.w + x] !=
					       want[(size_t)y * w + x];
			int firstdiff = cell_changed(&seq, &first, 0, 0, cells);
			if (bad || firstdiff < 20) {
				printf("FAIL %s: %d pixels differ from the font's glyph for the "
				       "sequence, %d "
				       "from its first character alone\n",
				       cases[i].what, bad, firstdiff);
				failures++;
			}
		}
		free(want);
		free(seq.px);
		free(first.px);
	}
	free(blank.px);
	kf_render_destroy(r);
}

/* A cell's colours after a byte stream: one case of test_decscnm_palette or test_bold_bright. */
struct color_case {
	const char *what, *sgr;
	uint32_t ink, bg; /* the legacy palette's */
};

/* For each case, paints prefix, its SGR and one character ('A', or a space for an underline case) into a 2x1
 * screen and checks the first cell's ink and background. */
static void check_all(const char *label, const char *prefix, const struct color_case *cases, size_t n)
{
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, &r))
		abort();
	for (const struct color_case *c = cases; c < cases + n; c++) {
		char bytes[128];
		bool ul = strstr(c->what, "underline") != NULL;
		snprintf(bytes, sizeof(bytes), "%s%s%s", prefix, c->sgr, ul ? " " : "A");
		struct shot a = paint(r, 2, 1, bytes);
		uint32_t bg, ink;
		cell_colors(&a, 0, 0, &bg, &ink);
		if (bg != c->bg || ink != c->ink) {
			printf("FAIL %s %s: ink %06x on %06x, want %06x on %06x\n", label, c->what, ink, bg, c->ink,
			       c->bg);
			failures++;
		}
		free(a.px);
	}
	kf_render_destroy(r);
}

/* DECSCNM shows the screen as xterm's ReverseVideo does: the default colours swap, and so do the
 * palette's black and white (0 and 7) and bright black and bright white (8 and 15), so that text
 * an application drew in white on black inverts with the rest of the screen (vim's visual bell over
 * an ncurses screen in explicit colours). Other colours and direct colours stay. */
static void test_decscnm_palette(void)
{
	static const struct color_case cases[] = { /* under DECSCNM */
	    {"SGR 37;40", "\x1b[37;40m", 0x000000, 0xe5e5e5},
	    {"SGR 30;47", "\x1b[30;47m", 0xe5e5e5, 0x000000},
	    {"SGR 97;100", "\x1b[97;100m", 0x7f7f7f, 0xffffff},
	    {"SGR 38;5;0;48;5;15", "\x1b[38;5;0;48;5;15m", 0xe5e5e5, 0x7f7f7f},
	    {"SGR 58;5;7 underline", "\x1b[4;58;5;7;41m", 0x000000, 0xcd0000},
	    {"SGR 31;44", "\x1b[31;44m", 0xcd0000, 0x0000ee},
	    {"direct black on white", "\x1b[38;2;0;0;0;48;2;229;229;229m", 0x000000, 0xe5e5e5},
	    {"SGR 7 on 37", "\x1b[7;37m", 0xe5e5e5, 0x000000},
	    /* OSC 4 names the colour painted (grid-palette.c ansi_slot): 0 set while reversed is SGR 30's */
	    {"OSC 4;0 set, SGR 30", "\x1b]4;0;#00ff00\x07\x1b[30;41m", 0x00ff00, 0xcd0000},
	    {"OSC 4;0 set, SGR 37", "\x1b]4;0;#00ff00\x07\x1b[37;41m", 0x000000, 0xcd0000},
	    {"OSC 4;15 set, SGR 97", "\x1b]4;15;#0000ff\x07\x1b[97;41m", 0x0000ff, 0xcd0000},
	};
	check_all("DECSCNM", "\x1b[?5h", cases, sizeof(cases) / sizeof(cases[0]));
}

/* Bold text in one of the eight basic colours is drawn in its bright counterpart (palette 8-15), as the
 * kernel's console, kmscon (libtsm) and xterm (boldColors) draw it: `ls --color`'s directories (SGR 01;34) are
 * bright blue on every console a user comes from. The background, colours 8 and up, and direct colours stay. */
static void test_bold_bright(void)
{
	static const struct color_case cases[] = {
	    {"SGR 1;31", "\x1b[1;31;40m", 0xff0000, 0x000000},
	    {"SGR 01;34 (ls directories)", "\x1b[01;34;40m", 0x5c5cff, 0x000000},
	    {"SGR 1;38;5;4", "\x1b[1;38;5;4;40m", 0x5c5cff, 0x000000},
	    {"SGR 1;30 on white", "\x1b[1;30;47m", 0x7f7f7f, 0xe5e5e5},
	    {"SGR 1;91 (already bright)", "\x1b[1;91;40m", 0xff0000, 0x000000},
	    {"SGR 1;38;5;100", "\x1b[1;38;5;100;40m", 0x878700, 0x000000},
	    {"SGR 1;38;2;205;0;0 (direct)", "\x1b[1;38;2;205;0;0;40m", 0xcd0000, 0x000000},
	    {"SGR 1;32;41 (background kept)", "\x1b[1;32;41m", 0x00ff00, 0xcd0000},
	    {"SGR 1;7;31;42 (reverse)", "\x1b[1;7;31;42m", 0x00cd00, 0xff0000},
	    {"SGR 31 (not bold)", "\x1b[31;40m", 0xcd0000, 0x000000},
	    {"SGR 1;31 then 22", "\x1b[1;31;40m\x1b[22m", 0xcd0000, 0x000000},
	};
	check_all("bold", "", cases, sizeof(cases) / sizeof(cases[0]));
}

/* Concealed text (SGR 8) hides its characters, not its decorations: xterm writes concealed text as
 * blanks in the same attributes, so an underlined, struck-through or overlined concealed word shows
 * the lines of as many blanks (a password field drawn underlined stays a visible field). Each case
 * paints the same cell as blanks would, and neither shows the character. */
static void test_concealed_decorations(void)
{
	static const struct {
		const char *what, *sgr;
	} cases[] = {
	    {"plain", ""},
	    {"underline", "4;"},
	    {"double underline", "4:2;"},
	    {"curly underline", "4:3;"},
	    {"coloured underline", "4;58;5;1;"},
	    {"strike", "9;"},
	    {"overline", "53;"},
	};
	struct kf_render *r;
	if (kf_render_create(&(struct kf_render_config){.engine = KF_RENDER_ENGINE_BUILTIN}, &r))
		abort();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char hidden[64], blanks[64];
		snprintf(hidden, sizeof(hidden), "\x1b[%s8mAB", cases[i].sgr);
		snprintf(blanks, sizeof(blanks), "\x1b[%s28m  ", cases[i].sgr);
		struct shot a = paint(r, 3, 1, hidden), b = paint(r, 3, 1, blanks);
		int n = cell_changed(&a, &b, 0, 0, 2);
		if (n)
			printf("FAIL concealed %s: %d pixels of \"AB\" differ from two blanks in its "
			       "attributes\n",
			       cases[i].what, n),
			    failures++;
		free(a.px);
		free(b.px);
	}
	kf_render_destroy(r);
}

/* A double underline (SGR 21, 4:2) lies below the text, in two lines with a row between them,
 * inside the cell, in the fonts with the room for it below the baseline: in the built-in font's
 * 16-pixel cells its upper line was drawn on the letters' bottom row, so the text stood on a bar.
 * (Lat15-Fixed16's letters reach the row above its last two: its lines cross the letters' foot.)
 * Compared with the plain text: the rows the underline changes, and the plain text's lowest row of
 * ink. */
static void test_double_underline(void)
{
	static const struct kf_render_config fonts[] = {
	    {.engine = KF_RENDER_ENGINE_BUILTIN},
	    {.engine = KF_RENDER_ENGINE_PSF,
	     .font_file = "/usr/share/consolefonts/Lat2-Terminus16.psf.gz"},
	    {.engine = KF_RENDER_ENGINE_BUILTIN, .scale = 2},
	    {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = MONO, .font_size = 16},
	    {.engine = KF_RENDER_ENGINE_FREETYPE, .font_file = MONO, .font_size = 9},
	};
	for (size_t f = 0; f < sizeof(fonts) / sizeof(fonts[0]); f++) {
		struct kf_render *r;
		if (kf_render_create(&fonts[f], &r)) {
			printf("FAIL double underline: font %zu does not open\n", f);
			failures++;
			continue;
		}
		struct shot a = paint(r, 2, 1, "\x1b[21mD"), b = paint(r, 2, 1, "D");
		int ink = -1, lines[8], n = 0;
		for (int y = 0; y < a.ch; y++) {
			bool inked = false, changed = false;
			for (int x = 0; x < a.cw; x++) {
				inked |= b.px[y * b.w + x] != b.px[0];
				changed |= a.px[y * a.w + x] != b.px[y * b.w + x];
			}
			if (inked)
				ink = y;
			if (changed && n < 8)
				lines[n++] = y;
		}
		/* two lines with a gap (of one row: two at zoom 2, where the lines are two thick)
		 */
		int t = fonts[f].scale > 1 ? fonts[f].scale : 1;
		bool ok = n == 2 * t && lines[0] > ink && lines[t] > lines[t - 1] + 1;
		if (!ok)
			printf("FAIL double underline, font %zu: %d rows changed (first %d, second "
			       "%d), "
			       "the text's ink ends at row %d\n",
			       f, n, n ? lines[0] : -1, n > 1 ? lines[1] : -1, ink),
			    failures++;
		free(a.px);
		free(b.px);
		kf_render_destroy(r);
	}
}

/* Characters that are blank by definition show nothing, whatever font is used: the Hangul fillers
 * (U+115F and U+3164 two cells, U+FFA0 one), which Korean input methods leave in text, the Mongolian
 * vowel separator and the narrow no-break and medium mathematical spaces. Fonts without them showed
 * the missing-glyph box. Compared with as many spaces. */
static void test_blank_fillers(void)
{
	static const struct {
		const char *what, *text, *spaces;
		int cells;
	} cases[] = {
	    {"U+115F HANGUL CHOSEONG FILLER", "\xe1\x85\x9f", "  ", 2},
	    {"U+3164 HANGUL FILLER", "\xe3\x85\xa4", "  ", 2},
	    {"U+FFA0 HALFWIDTH HANGUL FILLER", "\xef\xbe\xa0", " ", 1},
	    {"U+202F NARROW NO-BREAK SPACE", "\xe2\x80\xaf", " ", 1},
	    {"U+205F MEDIUM MATHEMATICAL SPACE", "\xe2\x81\x9f", " ", 1},
	};
	static const struct kf_render_config cfg[2] = {
	    {.engine = KF_RENDER_ENGINE_BUILTIN},
	    {.font_file = MONO, .font_size = 20},
	};
	for (int f = 0; f < 2; f++) {
		struct kf_render *r;
		if (kf_render_create(&cfg[f], &r))
			abort();
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char a_in[32], b_in[32];
			snprintf(a_in, sizeof(a_in), "%s|", cases[i].text);
			snprintf(b_in, sizeof(b_in), "%s|", cases[i].spaces);
			struct shot a = paint(r, 4, 1, a_in), b = paint(r, 4, 1, b_in);
			int n = cell_changed(&a, &b, 0, 0, cases[i].cells + 1);
			if (n)
				printf("FAIL %s %s: %d pixels differ from %d blank cell(s) and '|'\n",
				       f ? "dejavu" : "builtin", cases[i].what, n, cases[i].cells),
				    failures++;
			free(a.px);
			free(b.px);
		}
		kf_render_destroy(r);
	}
}

/* Hostile emoji clusters on the shaping path: a ZWJ chain of 300 emoji, 101 regional indicators, an emoji
 * with 300 skin tones, 2000 distinct ZWJ pairs (each a new sequence key). Each paints without a crash (ASan
 * in the test command), and the long ZWJ chain and the skin tones draw nothing outside their two cells: the
 * '|' after them looks as it does without the cluster. */
static void test_emoji_hostile(void)
{
	static const char woman[] = "\xf0\x9f\x91\xa9", zwj[] = "\xe2\x80\x8d",
			  ri_d[] = "\xf0\x9f\x87\xa9", tone[] = "\xf0\x9f\x8f\xbd";
	struct kf_render *r;
	FILE *font = fopen(EMOJI, "rb");
	if (!font ||
	    kf_render_create(
		&(struct kf_render_config){.font_name = "DejaVu Sans Mono", .font_size = 20}, &r)) {
		printf("SKIP hostile emoji clusters: no Noto Color Emoji or no DejaVu Sans Mono\n");
		if (font)
			fclose(font);
		return;
	}
	fclose(font);
	size_t cap = 64 << 10, len;
	char *buf = malloc(cap);
	if (!buf)
		abort();
	struct shot ref = paint(r, 8, 1, "  |");
	for (int kind = 0; kind < 3; kind++) {
		static const char *const what[] = {"300 emoji joined by ZWJ", "101 regional indicators",
						   "an emoji with 300 skin tones"};
		len = 0;
		for (int i = 0; i < (kind == 1 ? 101 : 300); i++) {
			const char *a = kind == 1 ? ri_d : i == 0 || kind == 0 ? woman : tone;
			if (kind == 0 && i) {
				memcpy(buf + len, zwj, 3);
				len += 3;
			}
			memcpy(buf + len, a, 4);
			len += 4;
		}
		buf[len] = 0;
		char line[64 << 10];
		snprintf(line, sizeof(line), "%s\r\x1b[2C|", buf);
		struct shot s = paint(r, 8, 1, line);
		if (kind == 1) { /* 50 flags and a lone one wrap over many rows: painted, nothing more */
			free(s.px);
			continue;
		}
		int n = 0;
		for (int y = 0; y < s.ch; y++)
			for (int x = 2 * s.cw; x < s.w; x++)
				n += s.px[(size_t)y * s.w + x] != ref.px[(size_t)y * s.w + x];
		if (n)
			printf("FAIL %s: %d pixels right of its two cells differ\n", what[kind], n),
			    failures++;
		free(s.px);
	}
	/* 2000 distinct sequences: the glyph cache stays bounded (ASan/valgrind see a leak or overrun).
	 * One grid, reset between them; every 250th is painted on a new grid too and must look the same
	 * (the reset leaves nothing of the sequence before). */
	struct grid *g = new_grid(4, 1);
	for (int i = 0; i < 2000; i++) {
		char line[32];
		uint32_t b = 0x1f400 + (uint32_t)(i % 500), c = 0x1f680 + (uint32_t)(i / 500);
		snprintf(line, sizeof(line), "\xf0\x9f%c%c%s\xf0\x9f%c%c", 0x80 | ((b >> 6) & 0x3f),
			 0x80 | (b & 0x3f), zwj, 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
		struct shot s = paint_in(r, g, line);
		if (i % 250 == 249) {
			struct shot fresh = paint(r, 4, 1, line);
			if (memcmp(s.px, fresh.px, (size_t)s.w * s.h * 4))
				printf("FAIL sequence %d: the reused grid paints otherwise than a new one\n", i),
				    failures++;
			free(fresh.px);
		}
		free(s.px);
	}
	grid_destroy(g);
	free(ref.px);
	free(buf);
	kf_render_destroy(r);
}

/* The top and bottom rows of cell 0 that differ from the background (bottom -1: none), and the
 * lowest row where a and b differ (-1: none). */
static void ink_rows(const struct shot *a, int *top, int *bottom)
{
	*top = a->ch, *bottom = -1;
	for (int j = 0; j < a->ch; j++)
		for (int i = 0; i < a->cw; i++)
			if (a->px[(size_t)j * a->w + i] != a->px[(size_t)j * a->w + a->cw * 2]) {
				*top = j < *top ? j : *top;
				*bottom = j;
			}
}

static int lowest_change(const struct shot *a, const struct shot *b)
{
	int low = -1;
	for (int j = 0; j < a->ch; j++)
		for (int i = 0; i < a->cw; i++)
			if (a->px[(size_t)j * a->w + i] != b->px[(size_t)j * a->w + i])
				low = j;
	return low;
}

/* Two marks above a letter are stacked, not drawn on each other: the second one's ink lies above
 * the first's (the two share at most one row where the cell's top leaves no room for a blank one).
 * a + U+0301 + U+0308 is á (composed) with the diaeresis, x + U+0302 + U+0301 the circumflex with
 * the acute; DejaVu Sans Mono has no mark-to-mark positioning of its own. Before, the second mark
 * sat where it sits over a bare letter, across the first. */
static void test_stacked_marks(void)
{
	static const struct {
		const char *letter, *one, *two, *what;
	} cases[] = {
	    {"a", "a\xcc\x81", "a\xcc\x81\xcc\x88", "a + U+0301 + U+0308"},
	    {"x", "x\xcc\x82", "x\xcc\x82\xcc\x81", "x + U+0302 + U+0301"},
	};
	for (int size = 12; size <= 32; size += 2) {
		struct kf_render *r;
		struct kf_render_config cfg = {.font_file = MONO, .font_size = size};
		if (kf_render_create(&cfg, &r)) {
			printf("SKIP stacked marks: no DejaVu Sans Mono\n");
			return;
		}
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct shot l = paint(r, 3, 1, cases[i].letter);
			struct shot a = paint(r, 3, 1, cases[i].one);
			struct shot b = paint(r, 3, 1, cases[i].two);
			int lt, lb, at, ab;
			ink_rows(&l, &lt, &lb);
			ink_rows(&a, &at, &ab);
			int low = lowest_change(&a, &b);
			/* the first mark: rows at..lt-1; the second's visible ink ends by row at */
			if (at >= lt || low < 0 || low > at) {
				printf("FAIL %s at %d px: the first mark in rows %d..%d, the second's ink "
				       "down to row %d\n",
				       cases[i].what, size, at, lt - 1, low);
				failures++;
			}
			free(l.px);
			free(a.px);
			free(b.px);
		}
		kf_render_destroy(r);
	}
}

int main(void)
{
	test_marks();
	test_stacked_marks();
	test_composed();
	test_text_presentation();
	test_emoji_sequences();
	test_emoji_hostile();
	test_decscnm_palette();
	test_bold_bright();
	test_concealed_decorations();
	test_blank_fillers();
	test_double_underline();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
