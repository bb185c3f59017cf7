/* grid/grid-csi-num.h: the numbers of a CSI read from its bytes without loops (grid-csi.c's cursor moves and
 * erases, grid-erase.c's EL in the erase page). */
#ifndef GRID_CSI_NUM_H
#define GRID_CSI_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The bytes s[0..len) (len <= 4, s[0..4) readable) moved to the top of a 32-bit word (the last one in byte 3);
 * *keep marks the bytes they fill. By a multiply and a mask from tables: a shift by 32 - 8 * len (and the
 * keep mask's two) took the shift count through cl, three moves more per number. */
static inline uint64_t digits4(const uint8_t *s, unsigned len, uint64_t *keep)
{
	static const uint32_t to_top[5] = {0, 1u << 24, 1u << 16, 1u << 8, 1};
	static const uint32_t keeps[5] = {0, 0xff000000u, 0xffff0000u, 0xffffff00u, 0xffffffffu};
	uint32_t w;
	memcpy(&w, s, 4);
	*keep = keeps[len];
	return (uint32_t)(w * to_top[len]);
}

/* The two 4-digit numbers in the 32-bit halves of x (digits4's words, the bytes keep marks) into the low 16
 * bits of each half of *out; false when a byte keep marks is not a digit. Each byte less '0' must be below
 * 10 (a byte below '0' borrows and sets its top bit; one above '9' sets it once 0x76 is added), then the
 * digits are paired (d0 * 10 + d1) and the pairs joined (p0 * 100 + p1) by two multiplies, no loop. */
static inline bool digits_value(uint64_t x, uint64_t keep, uint64_t *out)
{
	const uint64_t d = x - (0x3030303030303030ull & keep);
	if ((d | (d + 0x7676767676767676ull)) & 0x8080808080808080ull & keep)
		return false;
	/* by multiplies: byte k + 1 of d * (10 << 8 | 1) is d[k] * 10 + d[k + 1], 16-bit lane k + 1 of
	 * y * (100 << 16 | 1) is y[k] * 100 + y[k + 1] (no sum carries: at most 99, then 9999); two multiplies,
	 * two shifts and two masks, where the shifts and adds (d * 10 + (d >> 8), y * 100 + (y >> 16)) took
	 * three more instructions (session 19) */
	const uint64_t y = (d * 0xa01u >> 8) & 0x00ff00ff00ff00ffull;
	*out = (y * 0x640001u >> 16) & 0x0000ffff0000ffffull;
	return true;
}

/* The one number of CUU..CUB, ED and EL, 0 when omitted, or -1: digits_value in one 32-bit word (no 64-bit
 * constants to load, and the value is the top half of the last product: no mask). */
static inline int num_one(const uint8_t *s, size_t n)
{
	uint64_t keep64;
	if (n > 5)
		return -1;
	const uint32_t x = (uint32_t)digits4(s, (unsigned)n - 1, &keep64), keep = (uint32_t)keep64;
	const uint32_t d = x - (0x30303030u & keep);
	if ((d | (d + 0x76767676u)) & 0x80808080u & keep)
		return -1;
	const uint32_t y = (d * 0xa01u >> 8) & 0x00ff00ffu;
	return (int)(y * 0x640001u >> 16);
}

#endif
