/* grid/grid-charset.c: the tables of DEC Special Graphics and DEC Supplemental (grid__map_charset in
 * grid-print.h maps with them; out of grid-print.c, which keeps the printer's paths). */
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
