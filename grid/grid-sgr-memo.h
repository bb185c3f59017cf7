/* grid/grid-sgr-memo.h: the SGR memos' entries, kept in struct grid (included by grid-internal.h): an SGR
 * sequence as a change of the pen, and the tables that find it again by its seq_id (grid-sgr.c) or its bytes
 * (grid-sgr-bytes.c, grid-sgr-long.c) with the pen it made last time. Apart so that grid-internal.h holds the
 * grid's state, not each cache's layout.
 */
#ifndef GRID_GRID_SGR_MEMO_H
#define GRID_GRID_SGR_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "grid/grid.h"

/* An SGR sequence as a change of the pen, as built from its parameters (grid-sgr.c, grid-sgr-bytes.c). */
struct sgr_xform {
	uint32_t fg, bg, ul_color;
	uint16_t attr_and, attr_or;
	uint8_t set; /* which of fg, bg, ul_color, underline the sequence sets */
	uint8_t underline;
};
/* The same as kept (sgr_change_of): the pen's two 8-byte words (fg | bg << 32, ul_color | attrs << 32 |
 * underline << 48) become (word & keep) | val. Applied a word at a time with no branch on the fields set. */
struct sgr_change {
	uint64_t keep[2], val[2];
};
#define SGR_MEMO_SIZE 512u
struct sgr_memo {
	uint64_t id; /* vt_csi.seq_id, 0 = empty */
	struct sgr_change c;
	/* the pen this SGR made last time and its style id, valid while epoch is the style table's (ids are
	 * only reused after a collection) and protect is the same: applied to an equal pen, the SGR gives an
	 * equal pen, whose id is then known without interning */
	struct grid_style pen;
	uint16_t pen_id;
	bool protect;
	bool sets_bg;   /* c sets the background (an erase's colour then changes); 64 bytes: indexed by a shift */
	uint32_t epoch; /* 0 = no pen recorded */
};

/* SGRs found by their bytes (grid__sgr_bytes): the bytes before 'm', zero after them, and what the SGR does
 * with the pen it made last time, as in sgr_memo (whose id here orders the entries by age, 0 = empty). 512
 * places: at 256, 7 % of doom_fire's 74 SGRs' lookups found theirs in the second place (a mispredicted first
 * compare each); 512 gave doom_fire +3 % MB/s (40 KiB, only the places used are touched). */
#define SGR_BYTES_SLOTS 512u
struct sgr_bytes_memo {
	uint64_t key[2];
	struct sgr_memo m;
};
/* The same for SGRs of 17 to 31 bytes before 'm' (such as "38;5;n;48;5;n;1;3;4"), with 32-byte keys. 512
 * places: at 256, dense_cells' 156 SGRs kept evicting each other (the older of a new SGR's two places goes),
 * 1.3 % of them missing (a decode and a new entry each). */
#define SGR_LONG_SLOTS 512u
struct sgr_long_memo {
	uint64_t key[4];
	struct sgr_memo m;
};

#endif
