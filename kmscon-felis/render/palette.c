/* kmscon-felis/render/palette.c: colour palettes.
 *
 * The 16 ANSI colours plus default foreground/background of kmscon's named palettes (the names and
 * values kmscon documents for --palette; "default" is kmscon's "legacy"), and the xterm 256-colour
 * extension: a 6x6x6 cube with levels 0, 95, 135, 175, 215, 255 and a 24-step grey ramp 8 + 10 * i.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/render/render-internal.h"

struct named_palette {
	const char *name;
	uint32_t c[18]; /* 0-15, foreground, background */
};

static const struct named_palette palettes[] = {
    {"legacy",
     {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f,
      0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff, 0xe5e5e5, 0x000000}},
    {"vga",
     {0x000000, 0xaa0000, 0x00aa00, 0xaa5500, 0x0000aa, 0xaa00aa, 0x00aaaa, 0xaaaaaa, 0x555555,
      0xff5555, 0x55ff55, 0xffff55, 0x5555ff, 0xff55ff, 0x55ffff, 0xffffff, 0xaaaaaa, 0x000000}},
    {"nord",
     {0x3b4252, 0xbf616a, 0xa3be8c, 0xebcb8b, 0x81a1c1, 0xb48ead, 0x88c0d0, 0xe5e9f0, 0x4c566a,
      0xbf616a, 0xa3be8c, 0xebcb8b, 0x81a1c1, 0xb48ead, 0x8fbcbb, 0xeceff4, 0xd8dee9, 0x2e3440}},
    {"solarized",
     {0x073642, 0xdc322f, 0x859900, 0xb58900, 0x268bd2, 0xd33682, 0x2aa198, 0xeee8d5, 0x002b36,
      0xcb4b16, 0x586e75, 0x657b83, 0x839496, 0x6c71c4, 0x93a1a1, 0xfdf6e3, 0xeee8d5, 0x073642}},
    {"solarized-black",
     {0x000000, 0xdc322f, 0x859900, 0xb58900, 0x268bd2, 0xd33682, 0x2aa198, 0xeee8d5, 0x002b36,
      0xcb4b16, 0x586e75, 0x657b83, 0x839496, 0x6c71c4, 0x93a1a1, 0xfdf6e3, 0xeee8d5, 0x000000}},
    {"solarized-white",
     {0x073642, 0xdc322f, 0x859900, 0xb58900, 0x268bd2, 0xd33682, 0x2aa198, 0xeee8d5, 0x002b36,
      0xcb4b16, 0x586e75, 0x657b83, 0x839496, 0x6c71c4, 0x93a1a1, 0xfdf6e3, 0x073642, 0xeee8d5}},
    {"soft-black",
     {0x3f3f3f, 0x705050, 0x60b48a, 0xdfaf8f, 0x9ab8d7, 0xdc8cc3, 0x8cd0d3, 0xffffff, 0x709080,
      0xdca3a3, 0x72d5a3, 0xf0dfaf, 0x94bff3, 0xec93d3, 0x93e0e3, 0xdcdccc, 0xdcdccc, 0x2c2c2c}},
    {"base16-dark",
     {0x000000, 0xab4642, 0xa1b56c, 0xf7ca88, 0x7cafc2, 0xba8baf, 0x86c1b9, 0xaaaaaa, 0x555555,
      0xab4642, 0xa1b56c, 0xf7ca88, 0x7cafc2, 0xba8baf, 0x86c1b9, 0xffffff, 0xd8d8d8, 0x181818}},
    {"base16-light",
     {0x000000, 0xab4642, 0xa1b56c, 0xf7ca88, 0x7cafc2, 0xba8baf, 0x86c1b9, 0xaaaaaa, 0x555555,
      0xab4642, 0xa1b56c, 0xf7ca88, 0x7cafc2, 0xba8baf, 0x86c1b9, 0xffffff, 0x181818, 0xd8d8d8}},
};

/* kmscon's --palette-<name> colour names, in palette order, then foreground and background. */
static const char *const color_names[18] = {
    "black",	  "red",	   "green",	 "yellow",    "blue",	     "magenta",
    "cyan",	  "light-grey",	   "dark-grey",	 "light-red", "light-green", "light-yellow",
    "light-blue", "light-magenta", "light-cyan", "white",     "foreground",  "background",
};

int kf_palette_load(uint32_t pal[258], const char *name)
{
	const struct named_palette *p = NULL;
	if (!name || !strcmp(name, "default"))
		name = "legacy";
	for (size_t i = 0; i < sizeof(palettes) / sizeof(palettes[0]); i++)
		if (!strcmp(palettes[i].name, name))
			p = &palettes[i];
	if (!p)
		return -EINVAL;
	static const uint8_t level[6] = {0, 95, 135, 175, 215, 255};
	for (int i = 0; i < 16; i++)
		pal[i] = p->c[i];
	for (int i = 0; i < 216; i++)
		pal[16 + i] =
		    (uint32_t)level[i / 36] << 16 | (uint32_t)level[i / 6 % 6] << 8 | level[i % 6];
	for (int i = 0; i < 24; i++) {
		uint32_t v = 8 + 10 * (uint32_t)i;
		pal[232 + i] = v << 16 | v << 8 | v;
	}
	pal[256] = p->c[16];
	pal[257] = p->c[17];
	return 0;
}

/* Parses "R,G,B" with each part 0..255 and nothing else. */
static int parse_rgb(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	for (int i = 0; i < 3; i++) {
		char *end;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		long n = strtol(s, &end, 10);
		if (n > 255 || end == s || *end != (i < 2 ? ',' : '\0'))
			return -EINVAL;
		v = v << 8 | (uint32_t)n;
		s = end + 1;
	}
	*out = v;
	return 0;
}

int kf_palette_set(uint32_t pal[258], const char *name, const char *value)
{
	uint32_t rgb;
	if (!name || !value || parse_rgb(value, &rgb))
		return -EINVAL;
	for (int i = 0; i < 18; i++) {
		if (!strcmp(color_names[i], name)) {
			pal[i < 16 ? i : 256 + (i - 16)] = rgb;
			return 0;
		}
	}
	return -EINVAL;
}

/* xterm's ReverseVideo (misc.c) swaps these with the default foreground and background, so that text
 * an application drew in explicit black and white inverts with the rest of the screen: vim's visual
 * bell over a screen in SGR 37;40 flashes. The default colours are swapped by the painter (paint.c,
 * resolve), colours 1-6, 9-14, 16-255 and direct colours stay. */
void kf_palette_reverse(uint32_t pal[16])
{
	for (int i = 0; i < 16; i += 8) {
		uint32_t t = pal[i];
		pal[i] = pal[i + 7];
		pal[i + 7] = t;
	}
}

/* The colours of a frame (kf_render_paint, kf_render_paint_full): the renderer's palette, overridden by
 * the source's (all of it, or with a base only the entries the child changed), then under DECSCNM black
 * and white swapped. Out of paint.c (where paint_row was inlined into both entries), still called once
 * a frame. */
void kf_palette_frame(struct kf_render *r, const struct kf_render_source *s)
{
	memcpy(r->eff, r->palette, sizeof(r->palette));
	r->cursor_color = false;
	if (s->palette) {
		for (int i = 0; i < 259; i++) {
			if (s->palette_base && s->palette[i] == s->palette_base[i])
				continue;
			r->eff[i] = s->palette[i] & 0xffffff;
			if (i == 258)
				r->cursor_color = true;
		}
	}
	if (s->reverse_video)
		kf_palette_reverse(r->eff);
}
