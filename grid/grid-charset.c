/* grid/grid-charset.c: the tables of DEC Special Graphics, DEC Supplemental and DEC Technical (grid__map_charset in
 * grid-print.h maps with them; out of grid-print.c, which keeps the printer's paths), and which set an SCS
 * designates (ESC ( and the others, DECRSPS's designators) and its name in DECCIR. */
#include <string.h>

#include "grid/grid-print.h"

/* DEC Special Graphics for 0x5f..0x7e (VT100 User Guide, table 3-9; xterm's mapping to Unicode). */
const uint16_t grid__dec_graphics[32] = {
	0x0020, 0x25c6, 0x2592, 0x2409, 0x240c, 0x240d, 0x240a, 0x00b0, 0x00b1, 0x2424, 0x240b,
	0x2518, 0x2510, 0x250c, 0x2514, 0x253c, 0x23ba, 0x23bb, 0x2500, 0x23bc, 0x23bd, 0x251c,
	0x2524, 0x2534, 0x252c, 0x2502, 0x2264, 0x2265, 0x03c0, 0x2260, 0x00a3, 0x00b7,
};

/* DEC Supplemental (ESC ( <, the VT220's; VT220 Programmer Reference Manual, figure 2-4), as xterm 379 maps it:
 * 0x21..0x7e are Latin-1's 0xa1..0xfe but for the few places DEC put other characters, and the positions
 * DEC left empty show U+2E2E (xterm's mark for a character the set lacks). */
uint32_t grid__dec_supplemental(uint32_t cp)
{
	if (cp == 0x20)
		return 0x00a0; /* xterm 379 shows NBSP, as in Latin-1 (measured: tests/tools/xterm-diff.py) */
	if (cp < 0x21 || cp > 0x7e)
		return cp;
	switch (cp) {
	case 0x24: case 0x26: case 0x2c: case 0x2d: case 0x2e: case 0x2f: case 0x34: case 0x38: case 0x3e:
	case 0x50: case 0x5e: case 0x70: case 0x7e:
		return 0x2e2e;
	case 0x28: return 0x00a4; /* currency sign */
	case 0x57: return 0x0152; /* OE */
	case 0x5d: return 0x0178; /* Y diaeresis */
	case 0x77: return 0x0153; /* oe */
	case 0x7d: return 0x00ff; /* y diaeresis */
	default: return cp + 0x80;
	}
}

/* DEC Technical (ESC ( >; VT330/VT340 Programmer Reference Manual) for 0x21..0x7e, as xterm 379 shows it
 * (measured with tests/tools/xterm-diff.py, case charset-dec-technical): the pieces of large brackets,
 * integrals and roots, then mathematical signs, Greek letters and arrows. U+2E2E (xterm's mark for a
 * character the set lacks) stands for the positions DEC left empty (0x38..0x3b, 0x52, 0x54, 0x55, 0x6d,
 * 0x75) and for the seven pieces of a large sigma (0x31..0x37), which Unicode has no character for. */
const uint16_t grid__dec_technical[94] = {
	/* 0x21 */ 0x23b7, 0x250c, 0x2500, 0x2320, 0x2321, 0x2502, 0x23a1, 0x23a3, 0x23a4, 0x23a6, 0x23a7,
	/* 0x2c */ 0x23a9, 0x23ab, 0x23ad, 0x23a8, 0x23ac, 0x2e2e, 0x2e2e, 0x2e2e, 0x2e2e, 0x2e2e, 0x2e2e,
	/* 0x37 */ 0x2e2e, 0x2e2e, 0x2e2e, 0x2e2e, 0x2e2e, 0x2264, 0x2260, 0x2265, 0x222b, 0x2234, 0x221d,
	/* 0x42 */ 0x221e, 0x00f7, 0x0394, 0x2207, 0x03a6, 0x0393, 0x223c, 0x2243, 0x0398, 0x00d7, 0x039b,
	/* 0x4d */ 0x21d4, 0x21d2, 0x2261, 0x03a0, 0x03a8, 0x2e2e, 0x03a3, 0x2e2e, 0x2e2e, 0x221a, 0x03a9,
	/* 0x58 */ 0x039e, 0x03a5, 0x2282, 0x2283, 0x2229, 0x222a, 0x2227, 0x2228, 0x00ac, 0x03b1, 0x03b2,
	/* 0x63 */ 0x03c7, 0x03b4, 0x03b5, 0x03c6, 0x03b3, 0x03b7, 0x03b9, 0x03b8, 0x03ba, 0x03bb, 0x2e2e,
	/* 0x6e */ 0x03bd, 0x2202, 0x03c0, 0x03c8, 0x03c1, 0x03c3, 0x03c4, 0x2e2e, 0x0192, 0x03c9, 0x03be,
	/* 0x79 */ 0x03c5, 0x03b6, 0x2190, 0x2191, 0x2192, 0x2193,
};

/* What an SCS designates, as xterm 379 at its VT420 level does (measured with tests/tools/xterm-replies.py:
 * DECCIR's designators after each ESC ( and ESC - final): the sets it maps; the national replacement sets
 * and the alternate ROM ones, which it honours only with DECNRCM (not implemented), designate ASCII; any
 * other final leaves the set as it was. Of the 96-character sets only ISO Latin-1 Supplemental (A) is known. */
uint8_t grid__charset_for(uint8_t prefix, uint8_t final, bool is96)
{
	if (is96)
		return prefix == 0 && final == 'A' ? CHARSET_LATIN1 : CHARSET_NONE;
	if (prefix == '%') {
		switch (final) {
		case '5': return CHARSET_DEC_SUPP_GRAPHIC;
		case '0': case '2': case '3': case '6': case '=': return CHARSET_ASCII;
		default: return CHARSET_NONE;
		}
	}
	if (prefix != 0)
		return CHARSET_NONE;
	switch (final) {
	case '0': return CHARSET_DEC_GRAPHICS;
	case 'A': return CHARSET_UK;
	case '<': return CHARSET_DEC_SUPPLEMENTAL;
	case '>': return CHARSET_DEC_TECHNICAL;
	case 'B':
	case '1': case '2': case '4': case '5': case '6': case '7': case '9': case '=':
	case 'C': case 'E': case 'H': case 'K': case 'Q': case 'R': case 'Y': case 'Z': case '`': case 'f':
		return CHARSET_ASCII;
	default:
		return CHARSET_NONE;
	}
}

/* In a 96-character set 0x7f is a graphic character too (Latin-1's is y diaeresis; xterm 379 prints it):
 * the parser passes DEL on to grid__execute while one is in GL or pending as a single shift, and ignores it
 * otherwise, as before (no cost on the text paths either way) */
void grid__del_mode(struct grid *g)
{
	g->del_prints = !g->del_prints;
	if (g->parser)
		vt_parser_set_del_exec(g->parser, g->del_prints);
}

void grid__charset_name(uint8_t cs, char out[3])
{
	static const char names[][3] = {
		[CHARSET_ASCII] = "B",		  [CHARSET_DEC_GRAPHICS] = "0",	 [CHARSET_UK] = "A",
		[CHARSET_DEC_SUPPLEMENTAL] = "<", [CHARSET_DEC_SUPP_GRAPHIC] = "%5", [CHARSET_LATIN1] = "A",
		[CHARSET_DEC_TECHNICAL] = ">",
	};
	memcpy(out, cs <= CHARSET_DEC_TECHNICAL ? names[cs] : "B", 3);
}
