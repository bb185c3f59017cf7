/* kmscon-felis/render/font-ft.c: fonts through fontconfig and FreeType.
 *
 * The main face comes from a fontconfig match of the name at the pixel size (or straight from a
 * file). Bold, italic and bold italic are matched the same way. A match with none of the style's
 * weight and slant is synthesised from the regular face's outline (FT_Outline_Embolden, a shear);
 * a bold-italic match with one of the two (DejaVu Sans Mono Bold where no Bold Oblique is
 * installed, as in Debian's fonts-dejavu-core) is that face with only the other synthesised: the
 * designer's bold glyphs, only slanted, rather than the regular ones emboldened. Characters
 * the main face lacks are looked up in the fontconfig sort list of the same pattern (fonts ordered
 * by closeness, each with its charset), opening at most MAX_FALLBACK faces lazily. Colour bitmaps
 * (FT_LOAD_COLOR, e.g. Noto Color Emoji's fixed strikes) are box-filtered down into the glyph's
 * cells and kept premultiplied; emoji sequences are shaped into one such glyph (font-color.c).
 *
 * Start-up: the four faces fontconfig matched are remembered across starts (font-cache.c); on a hit
 * fontconfig is not initialised at all before the first frame, and the fallback list (the only
 * other thing it gives) is sorted on first need or when the program calls
 * kf_render_prepare_fonts().
 */
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_OUTLINE_H

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

#define MAX_FALLBACK 16
#define MAX_FALLBACK_FAILED 48 /* candidates that did not open, remembered (fallback_face) */
#define PAGES (0x110000 / 256)

struct face {
	FT_Face ft;
	bool fake_bold, fake_italic;
	char *path; /* a cached choice's face not opened yet (ft NULL): opened on first use */
	int index;
	int same; /* 1 + the style whose face this is too (bold italic on the bold face), else 0 */
};

struct ft_font {
	struct kf_font base;
	FT_Library lib;
	int size;
	struct face
	    styles[4]; /* index: KF_GLYPH_BOLD | KF_GLYPH_ITALIC; ft may repeat the regular face */
	char *name;    /* the fontconfig pattern, for the fallback list */
	bool sort_pending; /* the fallback list is not sorted yet */
	FcFontSet *sorted; /* fallback candidates, or NULL */
	FcCharSet *coverage; /* union of the candidates' characters (NULL: unknown) */
	/* per candidate of sorted: its characters (NULL: none known) and whether it is a colour font, read from its
	 * pattern once (find_fallback looks at them in order for each character the styles lack) */
	struct fb_cand {
		FcCharSet *cs; /* the pattern's, not owned */
		bool color;
	} *cand;
	struct {
		FcPattern *pat; /* from sorted, not owned */
		FT_Face ft;
		unsigned long used; /* fb_clock at its last use (fallback_face) */
	} fb[MAX_FALLBACK + MAX_FALLBACK_FAILED];
	int nfb, nfb_failed; /* fb's entries, and those of them that did not open (ft NULL) */
	unsigned long fb_clock, fb_closed; /* fallback_face's uses, and faces it closed for others */
	/* The cell's ascent and descent for the bold letters too: measured (fit_known), or saved
	 * in the font cache (a floor for the regular face's own measurement), or 0. */
	int fit_asc, fit_desc;
	bool fit_known;
	/* Per style, pages of 256 code points known to hold no character of the style's face nor of
	 * any fallback candidate (a bit in page_known once looked at, in page_empty if so). */
	uint64_t page_known[4][PAGES / 64], page_empty[4][PAGES / 64];
	/* The hinted outlines of printable ASCII of the regular face ([0]) and of the face bold
	 * italic shares with bold or italic ([1]), kept when a style is synthesised on that face: an
	 * italic or bold-italic glyph starts from the very outline FT_Load_Glyph gave the face's own
	 * style, and needs only the shear, the emboldening and the rasterisation. */
	FT_Glyph ascii[2][0x7f - 0x21];
	/* render_kept's copy of an outline and its bitmap, reused from glyph to glyph */
	void *scratch, *bitmap;
	size_t scratch_cap, bitmap_cap;
	unsigned huge_logged; /* glyphs refused as larger than a cell can show (font-ft-bound.c) */
	struct kf_shaper *shaper; /* for emoji sequences, on the colour face (font-color.c) */
};

static int set_size(FT_Face f, int size)
{
	if (FT_IS_SCALABLE(f))
		return FT_Set_Pixel_Sizes(f, 0, (FT_UInt)size) ? -EINVAL : 0;
	if (f->num_fixed_sizes <= 0)
		return -EINVAL;
	/* bitmap-only faces (colour emoji): the strike closest to the size; scaling happens later
	 */
	int best = 0;
	for (int i = 1; i < f->num_fixed_sizes; i++)
		if (abs(f->available_sizes[i].height - size) <
		    abs(f->available_sizes[best].height - size))
			best = i;
	return FT_Select_Size(f, best) ? -EINVAL : 0;
}

int kf_font_ft_zoom_strike(struct kf_font *base, int scale, int *mag)
{
	const struct ft_font *f = (const struct ft_font *)base;
	const FT_Face face = f->styles[0].ft;
	int heights[64], n = face && !FT_IS_SCALABLE(face) ? face->num_fixed_sizes : 0;
	n = n < 64 ? n : 64;
	for (int i = 0; i < n; i++)
		heights[i] = face->available_sizes[i].height;
	return kf_strike_zoom(heights, n, f->size, scale, mag);
}

static FT_Face open_face(struct ft_font *f, const char *file, int index)
{
	FT_Face face;
	if (FT_New_Face(f->lib, file, index, &face))
		return NULL;
	if (set_size(face, f->size)) {
		FT_Done_Face(face);
		return NULL;
	}
	return face;
}

/* Matches the pattern with the weight and slant of style; the caller checks what it really got. */
static FcPattern *match_style(FcPattern *base, unsigned style)
{
	FcPattern *p = FcPatternDuplicate(base);
	if (!p)
		return NULL;
	if (style & KF_GLYPH_BOLD)
		FcPatternAddInteger(p, FC_WEIGHT, FC_WEIGHT_BOLD);
	if (style & KF_GLYPH_ITALIC)
		FcPatternAddInteger(p, FC_SLANT, FC_SLANT_ITALIC);
	FcConfigSubstitute(NULL, p, FcMatchPattern);
	FcDefaultSubstitute(p);
	FcResult res;
	FcPattern *m = FcFontMatch(NULL, p, &res);
	FcPatternDestroy(p);
	return m;
}

/* Fills f->styles from fontconfig's matches and records them in choice (for the cache). */
static int load_styles(struct ft_font *f, FcPattern *base, struct kf_font_choice *choice)
{
	for (unsigned s = 0; s < 4; s++) {
		FcPattern *m = match_style(base, s);
		FcChar8 *file;
		int index = 0, weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN;
		if (!m || FcPatternGetString(m, FC_FILE, 0, &file) != FcResultMatch) {
			if (m)
				FcPatternDestroy(m);
			if (!s)
				return -ENOENT;
			f->styles[s] = (struct face){.ft = f->styles[0].ft,
						     .fake_bold = s & KF_GLYPH_BOLD,
						     .fake_italic = s & KF_GLYPH_ITALIC};
			continue;
		}
		FcPatternGetInteger(m, FC_INDEX, 0, &index);
		FcPatternGetInteger(m, FC_WEIGHT, 0, &weight);
		FcPatternGetInteger(m, FC_SLANT, 0, &slant);
		bool fb = (s & KF_GLYPH_BOLD) && weight < FC_WEIGHT_DEMIBOLD;
		bool fi = (s & KF_GLYPH_ITALIC) && slant == FC_SLANT_ROMAN;
		/* The matched face when it has some of the style (all of it, or for bold italic the
		 * weight or the slant: the rest is synthesised on its outline), else the regular
		 * face synthesised. */
		bool some = !s || ((s & KF_GLYPH_BOLD) && !fb) || ((s & KF_GLYPH_ITALIC) && !fi);
		FT_Face face = NULL;
		int same = 0; /* bold italic on the face of bold (or italic): one FT_Face for both */
		for (unsigned t = 1; some && t < s; t++)
			if (!same && choice->face[t].path && !choice->face[t].fake &&
			    choice->face[t].index == index &&
			    !strcmp(choice->face[t].path, (const char *)file))
				same = (int)t + 1;
		if (some)
			face = same ? f->styles[same - 1].ft : open_face(f, (const char *)file, index);
		if (!s) {
			if (!face) {
				log_err("%s: FreeType cannot open the font", (const char *)file);
				FcPatternDestroy(m);
				return -EBADMSG;
			}
			log_info("font: %s (%d px)", (const char *)file, f->size);
		}
		if (face && !(choice->face[s].path = strdup((const char *)file))) {
			if (!same)
				FT_Done_Face(face);
			FcPatternDestroy(m);
			return -ENOMEM;
		}
		choice->face[s].index = index;
		choice->face[s].fake = face ? (fb ? KF_GLYPH_BOLD : 0) | (fi ? KF_GLYPH_ITALIC : 0) : 0;
		FcPatternDestroy(m);
		f->styles[s] = face ? (struct face){.ft = face,
						    .fake_bold = fb,
						    .fake_italic = fi,
						    .same = same}
				    : (struct face){.ft = f->styles[0].ft,
						    .fake_bold = s & KF_GLYPH_BOLD,
						    .fake_italic = s & KF_GLYPH_ITALIC};
	}
	return 0;
}

/* The cell's ascent and descent that hold the letters of the regular face and of the bold face
 * when it is open (fontconfig opened it: a cache miss), and at least the saved ones (a hit, whose
 * bold face waits for the first bold glyph: opening and measuring it here would double the font's
 * start-up, mostly the auto-hinter's analysis of a second face). */
static void letters_extent(struct ft_font *f, int *asc, int *desc)
{
	FT_Face face = f->styles[0].ft;
	const struct face *bold = &f->styles[KF_GLYPH_BOLD];
	const FT_Size_Metrics *m = &face->size->metrics;
	*asc = (int)((m->ascender + 63) >> 6);
	*desc = (int)((-m->descender + 63) >> 6);
	/* A synthesised bold (no bold face installed: the regular face thickened) lifts the letters'
	 * tops by the thickening (FreeType's FT_Outline_Embolden): at 8-40 px in DejaVu Sans
	 * Mono the accents of bold capitals (and the tails of g, j, p, q, y) went a pixel past the
	 * cell's edge. Measured on the regular face, already loaded; a hit measures it again. */
	if (bold->fake_bold)
		kf_ft_letters_fit_bold(face, f->size, asc, desc);
	else
		kf_ft_letters_fit(face, f->size, false, asc, desc);
	if (bold->ft && bold->ft != face && !bold->fake_bold)
		kf_ft_letters_fit(bold->ft, f->size, true, asc, desc);
	if (*asc < f->fit_asc)
		*asc = f->fit_asc;
	if (*desc < f->fit_desc)
		*desc = f->fit_desc;
}

static void metrics(struct ft_font *f)
{
	int asc = f->fit_asc, desc = f->fit_desc;
	if (!f->fit_known)
		letters_extent(f, &asc, &desc);
	kf_ft_cell_metrics(f->styles[0].ft, f->size, asc, desc, &f->base);
}

/* The faces of a cached choice: the regular one now (-ESTALE when it no longer opens: then
 * fontconfig decides), bold and italic on first use (most screens never show them). */
static int open_choice(struct ft_font *f, struct kf_font_choice *c)
{
	f->styles[0] = (struct face){.ft = open_face(f, c->face[0].path, c->face[0].index),
				     .fake_bold = false,
				     .fake_italic = false};
	if (!f->styles[0].ft)
		return -ESTALE;
	for (unsigned s = 1; s < 4; s++) {
		f->styles[s] = (struct face){.ft = f->styles[0].ft,
					     .fake_bold = s & KF_GLYPH_BOLD,
					     .fake_italic = s & KF_GLYPH_ITALIC};
		for (unsigned t = 1; t < s && c->face[s].path; t++)
			if (f->styles[t].path && !c->face[t].fake &&
			    c->face[t].index == c->face[s].index &&
			    !strcmp(f->styles[t].path, c->face[s].path)) {
				/* as load_styles(): one FT_Face, opened with style t's */
				f->styles[s] = (struct face){
				    .same = (int)t + 1,
				    .fake_bold = c->face[s].fake & KF_GLYPH_BOLD,
				    .fake_italic = c->face[s].fake & KF_GLYPH_ITALIC};
				free(c->face[s].path);
				c->face[s].path = NULL;
			}
		if (c->face[s].path) {
			f->styles[s] = (struct face){.path = c->face[s].path,
						     .index = c->face[s].index,
						     .fake_bold = c->face[s].fake & KF_GLYPH_BOLD,
						     .fake_italic = c->face[s].fake & KF_GLYPH_ITALIC};
			c->face[s].path = NULL; /* now the style's */
		}
	}
	log_info("font: %s (%d px)", c->face[0].path, f->size);
	return 0;
}

/* Closes the faces of the four styles (a cached choice that failed half-way). */
static void close_styles(struct ft_font *f)
{
	for (int s = 1; s < 4; s++) {
		if (f->styles[s].ft && f->styles[s].ft != f->styles[0].ft && !f->styles[s].same)
			FT_Done_Face(f->styles[s].ft);
		free(f->styles[s].path);
	}
	if (f->styles[0].ft)
		FT_Done_Face(f->styles[0].ft);
	memset(f->styles, 0, sizeof(f->styles));
}

/* The fallback candidates: fontconfig's sort list of the same pattern. Without it a character the
 * main faces lack shows as the missing-glyph box. */
static void sort_fallbacks(struct ft_font *f)
{
	f->sort_pending = false;
	if (!FcInit())
		return;
	FcPattern *sp = FcNameParse((const FcChar8 *)f->name);
	if (!sp)
		return;
	FcResult res;
	FcPatternAddDouble(sp, FC_PIXEL_SIZE, f->size);
	FcConfigSubstitute(NULL, sp, FcMatchPattern);
	FcDefaultSubstitute(sp);
	f->sorted = FcFontSort(NULL, sp, FcTrue, &f->coverage, &res);
	FcPatternDestroy(sp);
	if (f->sorted && f->sorted->nfont > 0 && (f->cand = calloc((size_t)f->sorted->nfont, sizeof(*f->cand))))
		for (int i = 0; i < f->sorted->nfont; i++) {
			FcBool color = FcFalse;
			if (FcPatternGetCharSet(f->sorted->fonts[i], FC_CHARSET, 0, &f->cand[i].cs) != FcResultMatch)
				f->cand[i].cs = NULL;
			FcPatternGetBool(f->sorted->fonts[i], FC_COLOR, 0, &color);
			f->cand[i].color = color;
		}
	kf_log_phase("fallback fonts sorted");
}

static void ft_prepare(struct kf_font *base)
{
	struct ft_font *f = (struct ft_font *)base;
	if (f->sort_pending)
		sort_fallbacks(f);
}

/* Emoji blocks: prefer a colour font for them even when a monochrome fallback comes first in the
 * list. */
static bool wants_color(uint32_t cp)
{
	return cp >= 0x1f000 && cp <= 0x1faff;
}

/* Which fallbacks find_fallback() looks at. */
enum fb_want { FB_ANY, FB_COLOR, FB_MONO };

/* The face of fallback candidate p (of f->sorted), opened on its first use (NULL when it does not open: remembered
 * as such, not retried, MAX_FALLBACK_FAILED times at most). With MAX_FALLBACK open, the least recently used is
 * closed for it: its glyphs stay in the glyph cache, and it opens again when a glyph not there needs it. (The 16
 * first stayed open and no other opened: from the 17th font a screen of many scripts had used, its characters and
 * emoji were the missing-glyph box for the font's life; tests/render/test-font-fallbacks.c.) Failures do not
 * count toward MAX_FALLBACK (16 files removed since fontconfig's cache once turned off every later fallback:
 * test-font-open.c). */
static FT_Face fallback_face(struct ft_font *f, FcPattern *p)
{
	for (int j = 0; j < f->nfb; j++)
		if (f->fb[j].pat == p) {
			f->fb[j].used = ++f->fb_clock;
			return f->fb[j].ft;
		}
	FcChar8 *file;
	int index = 0, old = -1;
	if (f->nfb_failed >= MAX_FALLBACK_FAILED || FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch)
		return NULL;
	for (int j = 0; f->nfb - f->nfb_failed >= MAX_FALLBACK && j < f->nfb; j++)
		if (f->fb[j].ft && (old < 0 || f->fb[j].used < f->fb[old].used))
			old = j;
	if (old >= 0) {
		if (!f->fb_closed++)
			log_debug("more than %d fallback fonts in use: the least recently used closed for %s (and so on "
				  "as needed)", MAX_FALLBACK, (const char *)file);
		FT_Done_Face(f->fb[old].ft); /* (a shaper on it holds its own reference) */
		f->fb[old] = f->fb[--f->nfb];
	}
	FcPatternGetInteger(p, FC_INDEX, 0, &index);
	f->fb[f->nfb].pat = p;
	f->fb[f->nfb].ft = open_face(f, (const char *)file, index);
	f->fb[f->nfb].used = ++f->fb_clock;
	f->nfb_failed += !f->fb[f->nfb].ft;
	return f->fb[f->nfb++].ft;
}

/* Looks through the fallbacks in fontconfig's order, opening candidates lazily; want restricts to colour fonts or to
 * the others. In that order whatever is open already: the faces opened first were once looked at first, and a
 * character came from whichever earlier characters had happened to open (U+065A in italic from DejaVu Sans, not
 * from DejaVu Sans Mono, once U+01C4 had opened DejaVu Sans): its look depended on what the screen showed before. */
static FT_Face find_fallback(struct ft_font *f, uint32_t cp, enum fb_want want)
{
	if (f->sort_pending)
		sort_fallbacks(f);
	/* No candidate has it (CJK text without a CJK font: thousands of distinct characters, each
	 * looked up again whenever the glyph cache evicted it): one lookup instead of a pass over
	 * every candidate. */
	if (!f->cand || (f->coverage && !FcCharSetHasChar(f->coverage, cp)))
		return NULL;
	for (int i = 0; i < f->sorted->nfont; i++) {
		const struct fb_cand *c = &f->cand[i];
		if (!c->cs || (want != FB_ANY && c->color != (want == FB_COLOR)) || !FcCharSetHasChar(c->cs, cp))
			continue;
		FT_Face face = fallback_face(f, f->sorted->fonts[i]);
		if (face && FT_Get_Char_Index(face, cp))
			return face;
	}
	return NULL;
}

/* Whether face has a character in [base, base + 256). */
static bool face_has_page(FT_Face face, uint32_t base)
{
	FT_UInt gi = 0;
	FT_ULong c = base ? FT_Get_Next_Char(face, base - 1, &gi) : FT_Get_First_Char(face, &gi);
	return gi && c < base + 256;
}

/* Whether no face can have cp (not a colour character) in style s: CJK text without a CJK font
 * brings thousands of distinct characters, each looked up once in the style's face, then in the
 * fallbacks' charsets (~440 instructions a character, several times that where the CPU is
 * emulated); one look at their 256-character page answers for the whole page. */
static bool page_empty(struct ft_font *f, unsigned s, FT_Face face, uint32_t cp)
{
	uint32_t page = cp >> 8;
	if (page >= PAGES)
		return false;
	uint64_t bit = 1ull << (page % 64);
	if (f->page_known[s][page / 64] & bit)
		return f->page_empty[s][page / 64] & bit;
	bool empty = !face_has_page(face, page << 8);
	if (empty && f->sort_pending) /* as find_fallback() would now */
		sort_fallbacks(f);
	if (empty && f->coverage) {
		FcChar32 map[FC_CHARSET_MAP_SIZE], next = page << 8;
		if (FcCharSetNextPage(f->coverage, map, &next) == page << 8)
			for (int i = 0; i < FC_CHARSET_MAP_SIZE; i++)
				empty &= !map[i];
	} else if (empty) {
		/* no union of the candidates' charsets: only when there are no candidates */
		empty = !f->sorted && !f->nfb;
	}
	f->page_known[s][page / 64] |= bit;
	if (empty)
		f->page_empty[s][page / 64] |= bit;
	return empty;
}

/* Opens a cached choice's face of style s on its first use (or the face of the style it shares). */
static void open_style(struct ft_font *f, unsigned s)
{
	struct face *sf = &f->styles[s];
	if (sf->same && !sf->ft) {
		/* the face of another style: open that one; if it no longer opens, synthesise all */
		struct face *of = &f->styles[sf->same - 1];
		if (of->path)
			open_style(f, (unsigned)sf->same - 1);
		if (of->ft == f->styles[0].ft)
			*sf = (struct face){.ft = of->ft,
					    .fake_bold = s & KF_GLYPH_BOLD,
					    .fake_italic = s & KF_GLYPH_ITALIC};
		else
			sf->ft = of->ft;
	}
	if (sf->path) {
		/* A face that no longer opens is synthesised from the regular one, as load_styles()
		 * does; one that opens keeps what the choice synthesises on it. */
		sf->ft = open_face(f, sf->path, sf->index);
		if (!sf->ft)
			*sf = (struct face){.ft = f->styles[0].ft,
					    .fake_bold = s & KF_GLYPH_BOLD,
					    .fake_italic = s & KF_GLYPH_ITALIC,
					    .path = sf->path};
		free(sf->path);
		sf->path = NULL;
		for (int u = 1; u < 4; u++) /* the style sharing it: kept_outline() keeps for both */
			if (f->styles[u].same == (int)s + 1 && sf->ft != f->styles[0].ft)
				f->styles[u].ft = sf->ft;
	}
}

/* The face holding cp for style: the styled face, or the first fallback in fontconfig's order. */
static FT_Face face_for(struct ft_font *f, uint32_t cp, unsigned style, bool *fake_bold,
			bool *fake_italic)
{
	struct face *sf = &f->styles[style & 3];
	if (sf->path || !sf->ft)
		open_style(f, style & 3);
	const bool text = style & KF_GLYPH_TEXT;
	bool color = !text && (wants_color(cp) || (style & KF_GLYPH_EMOJI));
	*fake_bold = sf->fake_bold;
	*fake_italic = sf->fake_italic;
	if (!color && page_empty(f, style & 3, sf->ft, cp))
		return NULL;
	if (!color && FT_Get_Char_Index(sf->ft, cp))
		return sf->ft;
	*fake_bold = style & KF_GLYPH_BOLD;
	*fake_italic = style & KF_GLYPH_ITALIC;
	FT_Face face = color ? find_fallback(f, cp, FB_COLOR) : text ? find_fallback(f, cp, FB_MONO) : NULL;
	if (!face && color && FT_Get_Char_Index(sf->ft, cp)) {
		*fake_bold = sf->fake_bold;
		*fake_italic = sf->fake_italic;
		return sf->ft;
	}
	return face ? face : find_fallback(f, cp, FB_ANY);
}

const char *kf_font_ft_style(struct kf_font *base, unsigned style, bool *fake_bold,
			     bool *fake_italic)
{
	struct ft_font *f = (struct ft_font *)base;
	open_style(f, style & 3);
	const struct face *sf = &f->styles[style & 3];
	*fake_bold = sf->fake_bold;
	*fake_italic = sf->fake_italic;
	return sf->ft ? sf->ft->style_name : NULL;
}

/* Whether face's outline of cp is kept (see ascii[] in struct ft_font). */
static FT_Glyph *kept_outline(struct ft_font *f, FT_Face face, uint32_t cp)
{
	int k = face == f->styles[0].ft ? 0 : face == f->styles[3].ft && f->styles[3].same ? 1 : -1;
	if (cp < 0x21 || cp >= 0x7f || k < 0 || FT_HAS_COLOR(face))
		return NULL;
	for (int s = 1; s < 4; s++)
		if (!f->styles[s].path && f->styles[s].ft == face &&
		    (f->styles[s].fake_bold || f->styles[s].fake_italic))
			return &f->ascii[k][cp - 0x21];
	return NULL;
}

/* advance: the glyph's (26.6), w: its cells' width, which the thickening keeps to. */
static void synthesise(const struct ft_font *f, FT_Outline *o, bool fb, bool fi, FT_Pos advance,
		       int w)
{
	long off = kf_ft_centring((int)((advance + 32) >> 6), w);
	if (fb)
		kf_ft_embolden(o, f->size, -off * 64, (w - off) * 64);
	/* about the middle of the face's line (kf_ft_slant), not the cell's (a fake bold's taller) */
	const FT_Size_Metrics *m = &f->styles[0].ft->size->metrics;
	if (fi)
		kf_ft_slant(o, (m->ascender + m->descender) / 2, -off * 64, (w - off) * 64);
}

/* Outline o of advance adv (26.6) fitted into out's cells (kf_ft_fit_height, kf_ft_fit_width; mark: a
 * combining mark, which place() centres); its advance. */
static FT_Pos fit(const struct ft_font *f, FT_Outline *o, FT_Pos adv, bool mark, const struct kf_glyph *out)
{
	kf_ft_fit_height(o, f->base.baseline, f->base.cell_h - f->base.baseline);
	return kf_ft_fit_width(o, adv, out->w, mark);
}

/* Puts a rasterised glyph (bitmap, bearings, advance in 26.6; mark: a combining mark; strike: a bitmap
 * strike's glyph, not an outline's, which fit() kept within the cells) into out. */
static int place(const struct ft_font *f, const FT_Bitmap *bm, int bm_left, int bm_top,
		 FT_Pos advance, bool mark, bool strike, struct kf_glyph *out)
{
	if (bm->pixel_mode == FT_PIXEL_MODE_BGRA) {
		memset(out->data, 0, (size_t)out->w * out->h * 4);
		kf_ft_copy_color(bm, out);
		return 0;
	}
	if (bm->pixel_mode != FT_PIXEL_MODE_GRAY && bm->pixel_mode != FT_PIXEL_MODE_MONO)
		return -ENOENT;
	/* centre the advance in the glyph's cells (wide characters, slightly narrow fallbacks) */
	int left = bm_left + kf_ft_centring((int)((advance + 32) >> 6), out->w);
	/* a mark hangs left of its origin over the glyph before it in most fonts: centred instead */
	if (mark && (left < 0 || left + (int)bm->width > out->w))
		left = (out->w - (int)bm->width) / 2;
	memset(out->data, 0, (size_t)out->w * out->h);
	(strike ? kf_strike_place : kf_ft_copy_gray)(bm, left, f->base.baseline - bm_top, out);
	return 0;
}

/* Whether the glyph loaded in face's slot is small enough to rasterise (font-ft-bound.c). */
static bool glyph_fits(struct ft_font *f, FT_Face face, uint32_t cp, const struct kf_glyph *out)
{
	const FT_GlyphSlot slot = face->glyph;
	const bool outline = slot->format == FT_GLYPH_FORMAT_OUTLINE;
	return kf_ft_glyph_fits(face, slot, outline ? &slot->outline : NULL, cp, out->w, out->h,
				&f->huge_logged);
}

/* A synthesised style from a kept outline: a copy of its points in f->scratch, synthesised and
 * rasterised there (kf_ft_outline_bitmap), the pixels of FT_Glyph_To_Bitmap on a copy of the
 * glyph, which renders through the same renderer as FT_Render_Glyph on the slot: a fresh load's. */
/* Out of line: inlined, it cost ft_render's other paths a few instructions a call. */
__attribute__((noinline)) static int render_kept(struct ft_font *f, FT_Face face, uint32_t cp,
						 FT_Glyph kept, bool fb, bool fi, struct kf_glyph *out)
{
	const FT_Outline *src = &((FT_OutlineGlyph)kept)->outline;
	size_t np = (size_t)src->n_points, nc = (size_t)src->n_contours;
	size_t pb = np * sizeof(*src->points), cbytes = nc * sizeof(*src->contours);
	size_t need = pb + cbytes + np;
	if (!(src->flags & FT_OUTLINE_OVERLAP) && kf_ft_grow(&f->scratch, &f->scratch_cap, need)) {
		FT_Outline o = *src;
		/* points, contours, tags: each part stays aligned for its type */
		o.points = f->scratch;
		o.contours = (void *)((char *)f->scratch + pb);
		o.tags = (char *)f->scratch + pb + cbytes;
		memcpy(o.points, src->points, pb);
		memcpy(o.contours, src->contours, cbytes);
		memcpy(o.tags, src->tags, np);
		/* FT_Get_Glyph kept the slot's advance in 16.16 */
		const FT_Pos adv = fit(f, &o, kept->advance.x >> 10, false, out);
		synthesise(f, &o, fb, fi, adv, out->w);
		if (!kf_ft_glyph_fits(face, NULL, &o, cp, out->w, out->h, &f->huge_logged))
			return -ENOENT;
		FT_Bitmap bm;
		int left, top;
		if (!kf_ft_outline_bitmap(f->lib, &o, &f->bitmap, &f->bitmap_cap, &bm, &left, &top))
			return place(f, &bm, left, top, adv, false, false, out);
	}
	FT_Glyph g;
	if (FT_Glyph_Copy(kept, &g))
		return -ENOENT;
	const FT_Pos adv = fit(f, &((FT_OutlineGlyph)g)->outline, kept->advance.x >> 10, false, out);
	synthesise(f, &((FT_OutlineGlyph)g)->outline, fb, fi, adv, out->w);
	int ret = -ENOENT;
	if (kf_ft_glyph_fits(face, NULL, &((FT_OutlineGlyph)g)->outline, cp, out->w, out->h,
			     &f->huge_logged) &&
	    !FT_Glyph_To_Bitmap(&g, FT_RENDER_MODE_NORMAL, NULL, 1)) {
		FT_BitmapGlyph bg = (FT_BitmapGlyph)g;
		ret = place(f, &bg->bitmap, bg->left, bg->top, adv, false, false, out);
	}
	FT_Done_Glyph(g);
	return ret;
}

static int ft_render(struct kf_font *base, uint32_t cp, unsigned style, int scale,
		     struct kf_glyph *out)
{
	struct ft_font *f = (struct ft_font *)base;
	bool fb, fi;
	if (scale > 1 && base->fixed)
		return kf_strike_render_scaled(base, cp, style, scale, out);
	FT_Face face = face_for(f, cp, style, &fb, &fi);
	if (!face)
		return -ENOENT;
	FT_Glyph *kept = kept_outline(f, face, cp);
	if (kept && *kept && (fb || fi))
		return render_kept(f, face, cp, *kept, fb, fi, out);
	FT_UInt gi = FT_Get_Char_Index(face, cp);
	FT_Int32 flags = FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT;
	if (FT_HAS_COLOR(face))
		flags |= FT_LOAD_COLOR;
	if (FT_Load_Glyph(face, gi, flags))
		return -ENOENT;
	FT_GlyphSlot slot = face->glyph;
	/* a bitmap strike has no outline for synthesise(): its bold and italic are made on the placed glyph
	 * (asked before FT_Render_Glyph, which makes an outline's slot a bitmap) */
	const bool bitmap = slot->format == FT_GLYPH_FORMAT_BITMAP, strike = bitmap && (fb || fi);
	const bool mark = vt_char_props(cp) == VT_PROP_MARK;
	FT_Pos adv = slot->advance.x;
	if (slot->format == FT_GLYPH_FORMAT_OUTLINE) {
		if (kept && !*kept && FT_Get_Glyph(slot, kept))
			*kept = NULL;
		adv = fit(f, &slot->outline, adv, mark, out);
		synthesise(f, &slot->outline, fb, fi, adv, out->w);
	}
	if (!glyph_fits(f, face, cp, out) ||
	    (slot->format != FT_GLYPH_FORMAT_BITMAP && FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)))
		return -ENOENT;
	int ret = place(f, &slot->bitmap, slot->bitmap_left, slot->bitmap_top, adv, mark, bitmap, out);
	if (!ret && strike)
		kf_strike_synthesise(out, f->base.baseline, fb, fi);
	return ret;
}

/* kf_font.render_seq: the one glyph the first colour font holding cps[0] makes of the sequence. */
static int ft_render_seq(struct kf_font *base, const uint32_t *cps, size_t n, struct kf_glyph *out)
{
	struct ft_font *f = (struct ft_font *)base;
	FT_Face face = find_fallback(f, cps[0], FB_COLOR);
	unsigned gi;
	if (!face || kf_shape_one(&f->shaper, face, cps, n, &gi) ||
	    FT_Load_Glyph(face, gi, FT_LOAD_DEFAULT | FT_LOAD_COLOR))
		return -ENOENT;
	FT_GlyphSlot slot = face->glyph;
	if (!glyph_fits(f, face, cps[0], out) ||
	    (slot->format != FT_GLYPH_FORMAT_BITMAP && FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)))
		return -ENOENT;
	return place(f, &slot->bitmap, slot->bitmap_left, slot->bitmap_top, slot->advance.x, false, false,
		     out);
}

static void ft_destroy(struct kf_font *base)
{
	struct ft_font *f = (struct ft_font *)base;
	kf_shaper_destroy(f->shaper);
	for (size_t i = 0; i < sizeof(f->ascii) / sizeof(f->ascii[0][0]); i++)
		if (f->ascii[i / 94][i % 94])
			FT_Done_Glyph(f->ascii[i / 94][i % 94]);
	free(f->scratch);
	free(f->bitmap);
	close_styles(f);
	for (int i = 0; i < f->nfb; i++)
		if (f->fb[i].ft)
			FT_Done_Face(f->fb[i].ft);
	if (f->sorted)
		FcFontSetDestroy(f->sorted);
	free(f->cand);
	if (f->coverage)
		FcCharSetDestroy(f->coverage);
	if (f->lib)
		FT_Done_FreeType(f->lib);
	free(f->name);
	free(f);
}

static int from_file(struct ft_font *f, const char *file)
{
	FT_Face face = open_face(f, file, 0);
	if (!face) {
		FILE *probe = fopen(file, "rb");
		int ret = probe ? -EBADMSG : -ENOENT;
		if (probe)
			fclose(probe);
		log_err("%s: %s", file,
			ret == -ENOENT ? "cannot open the font file" : "not a font FreeType reads");
		return ret;
	}
	/* A font FreeType reads that draws no letter of ASCII showed the console as a screen of missing-glyph
	 * boxes, nothing logged: an X11 bitmap font in an encoding other than Unicode (FreeType maps no
	 * character of an ISO8859-2 one), a colour emoji font (its digits only), a font of symbols. Refused
	 * like a file that is no font. (A font by name takes what it lacks from the fallbacks; this one has
	 * none.) */
	bool letter = false;
	for (FT_ULong c = 'A'; c <= 'z' && !letter; c++)
		letter = (c <= 'Z' || c >= 'a') && FT_Get_Char_Index(face, c);
	if (!letter) {
		log_err("%s: no letter of ASCII in the font (%s): not usable as the console's font", file,
			face->charmap ? "no glyph for A-Z, a-z"
				      : "no Unicode character map: a font for another encoding");
		FT_Done_Face(face);
		return -EBADMSG;
	}
	for (int s = 0; s < 4; s++)
		f->styles[s] = (struct face){
		    .ft = face, .fake_bold = s & KF_GLYPH_BOLD, .fake_italic = s & KF_GLYPH_ITALIC};
	return 0;
}

/* The faces by name: from the cache, else from fontconfig (and then into the cache). */
static int from_name(struct ft_font *f)
{
	struct kf_font_choice choice;
	int ret = kf_font_cache_load(f->name, f->size, &choice);
	if (!ret && !(ret = open_choice(f, &choice))) {
		f->fit_asc = choice.fit_asc;
		f->fit_desc = choice.fit_desc;
		kf_font_choice_finish(&choice);
		f->sort_pending = true;
		kf_log_phase("font faces loaded (cached choice)");
		return 0;
	}
	close_styles(f);
	kf_font_choice_finish(&choice);
	if (!FcInit())
		return -ENOENT;
	kf_log_phase("fontconfig initialised");
	FcPattern *pat = FcNameParse((const FcChar8 *)f->name);
	if (!pat)
		return -ENOENT;
	FcPatternAddDouble(pat, FC_PIXEL_SIZE, f->size);
	ret = load_styles(f, pat, &choice);
	FcPatternDestroy(pat);
	if (!ret) {
		kf_log_phase("font faces loaded");
		letters_extent(f, &f->fit_asc, &f->fit_desc);
		f->fit_known = true;
		choice.fit_asc = f->fit_asc;
		choice.fit_desc = f->fit_desc;
		kf_font_cache_save(f->name, f->size, &choice);
		sort_fallbacks(f);
	}
	kf_font_choice_finish(&choice);
	return ret;
}

int kf_font_ft_create(const char *name, const char *file, int size_px, struct kf_font **out)
{
	struct ft_font *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->size = size_px;
	f->base.render = ft_render;
	f->base.destroy = ft_destroy;
	f->base.prepare = ft_prepare;
	f->base.render_seq = ft_render_seq;
	int ret = -ENOMEM;
	if (FT_Init_FreeType(&f->lib)) {
		f->lib = NULL;
		goto fail;
	}
	if (file) {
		ret = from_file(f, file);
	} else {
		f->name = strdup(name ? name : "monospace");
		ret = f->name ? from_name(f) : -ENOMEM;
	}
	if (ret)
		goto fail;
	metrics(f);
	f->base.fixed = !FT_IS_SCALABLE(f->styles[0].ft);
	*out = &f->base;
	return 0;
fail:
	ft_destroy(&f->base);
	return ret;
}
