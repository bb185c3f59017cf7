/* tests/render/bdf.h: BDF fonts the font tests write (FreeType and fontconfig read them as any font file). */
#ifndef KF_TEST_RENDER_BDF_H
#define KF_TEST_RENDER_BDF_H

#include <fontconfig/fontconfig.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"

/* Writes a BDF font of w x h cells (w 8 or 16; descent 4) of family at path: code points cps[0..n), each glyph's
 * first 8 columns drawn from bits(cp) in rows 1 to h - 5 at x offset xoff(cp). */
static inline void write_bdf_size(const char *path, const char *family, int w, int h, const uint32_t *cps,
				  int n, uint8_t (*bits)(uint32_t), int (*xoff)(uint32_t))
{
	FILE *f = fopen(path, "w");
	if (!f) {
		CHECK(!"a BDF font written");
		return;
	}
	fprintf(f, "STARTFONT 2.1\nFONT -test-%s-medium-r-normal--%d-%d-75-75-c-%d-ISO10646-1\nSIZE %d 75 75\n"
		   "FONTBOUNDINGBOX %d %d 0 -4\nSTARTPROPERTIES 5\nFAMILY_NAME \"%s\"\nCHARSET_REGISTRY \"ISO10646\"\n"
		   "CHARSET_ENCODING \"1\"\nFONT_ASCENT %d\nFONT_DESCENT 4\nENDPROPERTIES\nCHARS %d\n",
		family, h, h * 10, w * 10, h, w, h, family, h - 4, n);
	for (int i = 0; i < n; i++) {
		fprintf(f, "STARTCHAR c%04x\nENCODING %u\nSWIDTH 500 0\nDWIDTH %d 0\nBBX %d %d %d -4\nBITMAP\n",
			cps[i], cps[i], w, w, h, xoff ? xoff(cps[i]) : 0);
		for (int y = 0; y < h; y++)
			fprintf(f, w > 8 ? "%02X00\n" : "%02X\n", y >= 1 && y <= h - 5 ? bits(cps[i]) : 0);
		fputs("ENDCHAR\n", f);
	}
	fputs("ENDFONT\n", f);
	fclose(f);
}

static inline void write_bdf(const char *path, const char *family, const uint32_t *cps, int n,
			     uint8_t (*bits)(uint32_t), int (*xoff)(uint32_t))
{
	write_bdf_size(path, family, 8, 16, cps, n, bits, xoff);
}

/* A stem in column 2, for any character. */
static inline uint8_t bdf_stem(uint32_t cp)
{
	(void)cp;
	return 0x20;
}

/* The fonts of a fontconfig of the test's own: the directory tmp/fonts (its path into dir, size bytes) with the
 * family "Prim" of printable ASCII (stems), and tmp/fc for fontconfig's cache. False when not made. */
static inline bool bdf_fonts_dir(const char *tmp, char *dir, size_t size)
{
	char path[4200];
	uint32_t ascii[94];
	snprintf(path, sizeof(path), "%s/fc", tmp);
	snprintf(dir, size, "%s/fonts", tmp);
	if (mkdir(path, 0755) != 0 || mkdir(dir, 0755) != 0) {
		CHECK(!"font directories made");
		return false;
	}
	for (int i = 0; i < 94; i++)
		ascii[i] = 0x21 + (uint32_t)i;
	snprintf(path, sizeof(path), "%s/prim.bdf", dir);
	write_bdf(path, "Prim", ascii, 94, bdf_stem, NULL);
	return true;
}

/* fontconfig made to read the fonts of dir only (a fonts.conf in tmp, FONTCONFIG_FILE), and the program's font
 * cache kept in tmp. False when not done. */
static inline bool bdf_fontconfig_use(const char *tmp, const char *dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/fonts.conf", tmp);
	FILE *fc = fopen(path, "w");
	if (!fc) {
		CHECK(!"fonts.conf written");
		return false;
	}
	fprintf(fc, "<?xml version=\"1.0\"?><fontconfig><dir>%s</dir><cachedir>%s/fc</cachedir></fontconfig>\n", dir,
		tmp);
	fclose(fc);
	setenv("FONTCONFIG_FILE", path, 1);
	setenv("KMSCON_FELIS_FONT_CACHE", tmp, 1);
	CHECK(FcInitReinitialize());
	return true;
}

#endif
