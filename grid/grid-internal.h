/* grid/grid-internal.h: the grid's private state, shared by the grid-*.c files. Not a public header.
 *
 * Rows ("lines") live in a ring of line pointers shared by the screen and the scrollback: screen row y is
 * ring[(top + y) % cap], scrollback row i (0 = oldest) is ring[(top - sb_n + i) % cap]. Scrolling the whole
 * screen up advances top by one and recycles the slot after the screen (the oldest scrollback line once the
 * scrollback is full), so a scroll is an index rotation and a steady flood allocates nothing. The alternate
 * screen is a second ring with no scrollback (cap == rows).
 *
 * The stores of blank cells in bulk (SSE2/AVX, inlined into their callers) are in grid-fill.h, included here.
 */
#ifndef GRID_GRID_INTERNAL_H
#define GRID_GRID_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "grid/grid.h"
#include "grid/grid-fill.h"

#if defined(__GNUC__)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define likely(x) (x)
#define unlikely(x) (x)
#endif

/* The functions of one hot path kept in a 4 KiB page of their own, for emulators: QEMU's TCG (the VM guests
 * of issue 5) chains a jump from one translated block to the next only within the page the block starts
 * on; a jump or a call to another page (and every return) goes through a look-up helper of ~70
 * instructions. GRID_PAGE_BEGIN("name") once per file gives the section .text.kf_name its page alignment
 * (GCC outputs top-level asm before any function), GRID_PAGE("name") puts a function in it. A group that
 * outgrows the page only costs the guest those look-ups again (docs/benchmarks.md, issue 2, session 9). */
#if defined(__GNUC__) && defined(__ELF__) && defined(__x86_64__)
#define GRID_PAGE_BEGIN(name) __asm__(".section .text.kf_" name ",\"ax\",@progbits\n\t.p2align 12\n\t.previous")
#define GRID_PAGE(name) __attribute__((section(".text.kf_" name)))
#else
#define GRID_PAGE_BEGIN(name) struct grid_page_unused
#define GRID_PAGE(name)
#endif

#define REVERSE_WRAP 0x1u     /* grid.reverse_wrap: DECSET 45, back over soft wraps only */
#define REVERSE_WRAP_EXT 0x2u /* DECSET 1045: back to any row, from the top margin to the bottom one */
#define LINE_WRAPPED 0x1u /* the line continues on the next one (autowrap happened here) */
/* scrollback only (grid-history.c): the cells are one byte each, all ASCII (cp < 0x80) of width 1 in style
 * pstyle (or their own: LINE_STYLED), no link or flags; read them with grid__line_cell or grid__hist_expand */
#define LINE_PACKED 0x2u
/* a hint for grid__hist_copy: text other than ASCII was written into the line since it was cleared (by
 * grid__print_utf8), so it is not worth trying to pack */
#define LINE_UNPACKABLE 0x4u
/* screen lines only: cells [0, used) are all ASCII (cp < 0x80) of width 1 in style pstyle with no link or
 * flags (or are deferred: LINE_LAZY), and the line's text bytes (line.text) hold their code points, so that
 * the scrollback takes the line packed by a copy of those bytes instead of reading the cells back
 * (grid__hist_text). Set by print_ascii (grid-print.c), which keeps the bytes; every other writer of a line's
 * cells clears it. */
#define LINE_ASCII 0x8u
/* screen lines only, with LINE_ASCII: the cells [0, used) are deferred: text[0, used) in pstyle (width 1, no
 * link or flags) is the line's content, and ALL its cells [0, ncells) are default blanks (a line becomes lazy
 * only from used == 0, and nothing writes its cells while it stays so). A text flood's line then leaves the
 * screen without its cells ever being written or cleared (grid__hist_push_ascii): under QEMU's TCG each
 * 8-cell store was a vpermd helper call (docs/benchmarks.md, issue 2, session 12). Set by print_ascii_run
 * (grid-print.c); grid__line and every other way to a screen line's cells (view_line, abs_line, the
 * reflow, grid__ring_line, grid__text_gate) write them first (grid__line_materialise). Only the printer,
 * the push and the writers of whole rows or of flags take the line as it is (grid__line_raw). */
#define LINE_LAZY 0x10u
/* with LINE_LAZY, without LINE_ASCII: an erase's whole row deferred (grid__clear_rows). Every cell is a blank
 * in cell 0's style (cell 0 is stored: the only one); the other cells hold what was there before the erase.
 * used is ncells and pstyle GRID_STYLE_NONE, which no pen has, so that the printer's lazy_start and lazy_more
 * refuse the row and write it first (grid__line_materialise), as every other reader or writer of its cells
 * does; the push writes it before the copy. ED's rows were ~130 KB of stores each (~3 us at 212x82), about
 * half of them stored again before anything read them (docs/benchmarks.md, issue 2, session 16). */
#define LINE_STALE 0x40u
/* with LINE_PACKED: a style per cell, 16 bits each after the bytes rounded up to 16 (3 bytes a cell, not 12) */
#define LINE_STYLED 0x20u
/* with LINE_WRAPPED: the row wrapped early, before a wide character that did not fit in its last column, which
 * that wrap left blank: no text of the line (a copy and the reflow leave it out). Set by print_one
 * (grid-print.c) and the reflow when they wrap so; cleared with LINE_WRAPPED. A blank there without it is a
 * cell of the line (skipped by the cursor, or erased), which a narrower reflow can also put before a wide
 * character at a row's end. */
#define LINE_WIDE_WRAP 0x200u

struct line {
	uint16_t flags;
	/* cells [used, ncells) are default blanks: clearing a line touches only [0, used). Print paths keep it
	 * exact; rarer writers just set it to ncells. */
	uint16_t used;
	/* cells present: cols for screen lines; scrollback lines keep only their written part (the cells after
	 * ncells read as blanks) */
	uint16_t ncells;
	uint16_t pstyle; /* LINE_PACKED, LINE_ASCII: the style of every cell */
	/* screen lines: their text bytes, after the cells (meaningful while LINE_ASCII is set: cells [0, used));
	 * room for ncells bytes rounded up to 16, so whole vectors may be stored and loaded up to there. NULL
	 * elsewhere. (Also the padding that makes the cells start 16-byte aligned.) */
	uint8_t *text;
	struct grid_cell cells[];
};

/* The styles of a LINE_STYLED line's cells. */
static inline const uint16_t *grid__line_styles(const struct line *l)
{
	return (const uint16_t *)(const void *)((const uint8_t *)(const void *)l->cells + ((l->ncells + 15) & ~15));
}

/* Cell x (< l->ncells) of a line in either form, by value. */
static inline struct grid_cell grid__line_cell(const struct line *l, int x)
{
	if (l->flags & LINE_PACKED)
		return (struct grid_cell){.cp = ((const uint8_t *)(const void *)l->cells)[x],
					  .style = l->flags & LINE_STYLED ? grid__line_styles(l)[x] : l->pstyle,
					  .link = 0, .width = 1, .flags = 0};
	return l->cells[x];
}

static inline void grid__line_touch(struct line *l, int x1)
{
	if (x1 > l->used)
		l->used = (uint16_t)x1;
}

struct screen {
	struct line **ring; /* cap slots; scrollback slots stay NULL until first used */
	size_t cap;         /* rows + sb_max */
	size_t top;         /* ring index of screen row 0 */
	size_t sb_n;        /* scrollback lines held */
	size_t sb_max;
	/* line memory: slabs carved into lines, handed out as the scrollback grows, freed with the screen */
	struct slab *slabs;
	/* scrollback line storage (grid-history.c) */
	struct hist_chunk *hist;
	size_t hist_n, hist_max, hist_head;
	size_t hist_chunk; /* bytes per chunk, fixed when the first is made */
	char *slab_next;    /* next free line in the newest slab */
	size_t slab_left;   /* lines left there */
	size_t allocated;   /* lines handed out */
	int line_cols;
	uint64_t abs_top; /* absolute number of screen row 0: lines pushed out of the screen, ever */
};

enum charset {
	CHARSET_ASCII = 0,
	CHARSET_DEC_GRAPHICS,
	CHARSET_UK,
	CHARSET_DEC_SUPPLEMENTAL,
	CHARSET_DEC_SUPP_GRAPHIC, /* ESC ( % 5: mapped as DEC Supplemental, reported by its own name (DECCIR) */
	CHARSET_LATIN1,           /* ESC - A: ISO Latin-1 Supplemental, a 96-character set */
	CHARSET_DEC_TECHNICAL,    /* ESC ( >: the VT330/VT340's mathematical and Greek set */
	CHARSET_NONE = 0xff,      /* grid__charset_for: a designation xterm 379 ignores (the set stays) */
};

/* What DECSC saves (xterm: position, rendition, charsets, pending wrap, origin mode, DECSCA). */
struct saved_cursor {
	bool valid;
	int x, y;
	bool wrap_pending;
	bool origin;
	struct grid_style pen;
	uint8_t charsets[4];
	uint8_t gl;
	uint8_t gr;
};

/* Interned styles: id -> style, with an open-addressing hash index and a direct-mapped cache in front. */
#define STYLE_MAX 65535u
/* an id never handed out (grid__styles_init keeps it taken): a row deferred by an erase (LINE_STALE) has it
 * as pstyle, which matches no pen */
#define GRID_STYLE_NONE STYLE_MAX
#define STYLE_INDEX_MIN 8192u /* the index's least size: twice the first threshold (4096) */
#define PEN_CACHE_SIZE 1024u
#define STYLE_FRESH_BYPASS 16u
/* colour SGRs not found in the SGR tables after which they bypass them (grid-sgr-bytes.c) */
#define SGR_BYPASS_AFTER 64u
struct style_table {
	struct grid_style *styles; /* [cap]; id 0 is the default style */
	uint8_t *used;             /* [cap]; 1 = live (0 is always live) */
	uint32_t *hash;            /* [hash_cap]: a tag of the hash << 16 | id (never 0), 0 = empty */
	uint32_t cap, hash_cap;
	uint32_t count;     /* live ids including 0 */
	uint32_t next_free; /* lowest id that may be free */
	uint32_t hw;        /* ids from hw on are free (none was taken since the last collection) */
	uint32_t gc_at;     /* run a collection when count reaches this */
	uint32_t gc_wait;   /* misses to let pass before the next collection (the table was full of live ids) */
	uint32_t epoch;     /* counts collections (from 1): an id remembered with an older epoch may be reused */
	uint8_t fresh;      /* the index's misses since its last hit, mod 256 (grid__intern_fresh) */
	uint32_t fresh_below; /* count below it: grid__intern_fresh's tests of count hold (0 by a collection) */
	struct {
		uint64_t a, b; /* the style's key (style_key in grid-style.c) */
		uint32_t id;   /* (the zeroed entry maps the default style's key to its id 0) */
	} cache[PEN_CACHE_SIZE];
};

#include "grid/grid-sgr-memo.h"

/* Grapheme clusters: fixed-size entries (base + marks), interned, collected with the styles. */
#define CLUSTER_MAX_CPS 15
#define CLUSTER_MAX 65536u
struct cluster {
	uint32_t n;
	uint32_t cp[CLUSTER_MAX_CPS];
};
#define CLUSTER_CACHE_BITS 12
/* Direct clusters: a character U+0020..U+007F with one or two combining marks U+0300..U+036F, written by the
 * run path (grid-utf8.c), is held in the cell itself, not in the table: the pair's slot is (character -
 * CLUSTER_AM_BASE) * CLUSTER_AM_MARKS + (mark - CLUSTER_AM_MARK); a pair is GRID_CP_CLUSTER | CLUSTER_DIRECT |
 * CLUSTER_DIRECT_PAIR | slot, a triple GRID_CP_CLUSTER | CLUSTER_DIRECT | (slot * CLUSTER_AM_MARKS + the second
 * mark - CLUSTER_AM_MARK). Both lie above every table id, so the collection and the caches, which check an id
 * against the table's cap, pass over them. Interned, the triples (which hardly recur: the unicode workload's
 * 26 x 112 x 112) each took a new entry and missed the caches on the hash's tags, ~10 % of that workload's time
 * with the collections they caused; the pairs were found in a 21 KiB table, out of the L1 cache between two. */
#define CLUSTER_AM_BASE 0x20u
#define CLUSTER_AM_MARK 0x300u
#define CLUSTER_AM_MARKS 0x70u
#define CLUSTER_AM_SLOTS (0x60u * CLUSTER_AM_MARKS)
#define CLUSTER_DIRECT 0x40000000u
#define CLUSTER_DIRECT_PAIR 0x200000u
_Static_assert(CLUSTER_AM_SLOTS * CLUSTER_AM_MARKS <= CLUSTER_DIRECT_PAIR && CLUSTER_MAX <= CLUSTER_DIRECT,
	       "direct triples below the pair bit, direct clusters above the table's ids");
struct cluster_table {
	struct cluster *c; /* [cap] */
	uint8_t *used;
	uint8_t *tag;  /* [hash_cap]: 0 = empty slot, else the top byte of the entry's hash (never 0) */
	uint16_t *idx; /* [hash_cap]: the entry of a slot whose tag is set */
	uint32_t cap, hash_cap, count, next_free, gc_at, gc_wait;
	/* two-way set-associative: (cell content, combining mark) -> id+1 of the cluster of both
	 * (grid-utf8.c; the pair found or made last on a character first); a collection, which may free and
	 * reuse ids, empties the entries whose cluster or base cluster it freed */
	struct cluster_cache_entry {
		uint32_t base, mark, id;
	} cache[1u << CLUSTER_CACHE_BITS][2];
};

/* Hyperlinks (OSC 8, grid-link.c): id -> URI; interned by (params id, uri), bounded. */
#define LINK_MAX 1024u
#define LINK_URI_MAX 2048u
#define LINK_INDEX (2 * LINK_MAX) /* the index's slots: at most half full */
struct link_table {
	char **uri;    /* [LINK_MAX]; index 0 unused */
	char **key;    /* the id= parameter or NULL */
	uint8_t *used; /* mark bits during a collection */
	uint32_t *hash; /* of uri and key, to skip most comparisons */
	uint16_t *index; /* [LINK_INDEX] live ids by hash, open addressing, 0 = empty; the sweep remakes it */
	uint32_t next_free; /* ids below it are taken (the sweep, the only one to free ids, sets it to 1) */
	uint32_t count;
	uint32_t gc_wait; /* new links to refuse before collecting again (the table was full of live links) */
};

#define TITLE_MAX 1024u
#define TITLE_STACK_MAX 10
#define KITTY_STACK_MAX 16
#define GRID_XTSAVE_SLOTS 21 /* grid-modes.c's enum xtsave_slot */
#define SGR_STACK_MAX 10 /* XTPUSHSGR's levels (ctlseqs, xterm 379) */

struct grid {
	/* grid_callbacks grew by clipboard_get, then by sync_end: xtversion and term_name (cold) moved to the end
	 * so that the fields below keep their offsets (see spare; with term_name here, sync_end cost doom_fire
	 * +0.57 % of instructions in grid__csi_bytes_sgr) */
	struct grid_callbacks cb;
	void *ud;
	struct vt_parser *parser;

	int cols, rows;
	struct screen primary, alt;
	struct screen *scr; /* the one shown: &primary or &alt */

	/* cursor and the pen */
	int cx, cy;
	/* set by a write that reaches the right margin, with or without DECAWM (xterm's do_wrap), and kept by
	 * DECAWM: the next character wraps first only with DECAWM set, otherwise it overwrites the last column */
	bool wrap_pending;
	struct grid_style pen;
	uint16_t pen_id;     /* valid when !pen_dirty */
	bool pen_dirty;
	struct sgr_memo *pen_from; /* the memoized SGR applied last (its entry learns the pen's id), or NULL */
	uint16_t erase_id;   /* style of erased cells: the pen's background only (xterm BCE) */
	bool erase_dirty;
	uint16_t link;       /* current OSC 8 link id */
	bool protect;        /* DECSCA */
	uint8_t spare;       /* unused: keeps the offsets below, which grid__csi_bytes_sgr's code is tuned to (one
			      * instruction more per SGR without it, doom_fire +0.6 %) */
	uint8_t checksum_ext; /* XTCHECKSUM: DECRQCRA's variant, 0 = DEC's (grid-rect.c) */

	/* REP: the last graphic character printed, 0 when none since the last control */
	uint32_t last_cp;
	/* where the last character went, for combining marks (-1 = nowhere) */
	int last_x, last_y, last_w;
	uint32_t gb_prev;  /* the last code point of that cell's cluster */
	uint32_t gb_state; /* vt_grapheme_break state of the cluster ending at last_x/last_y */

	/* charsets */
	uint8_t charsets[4];
	uint8_t gl, gr;
	int8_t single_shift; /* 2, 3 or 0 */
	/* printable ASCII goes the general way: a charset mapped into GL, a single shift or insert mode
	 * (grid__print_mode keeps it; the text paths test this one byte) */
	bool print_mapped;

	/* margins (inclusive) */
	int top, bottom, left, right;

	/* modes */
	bool autowrap, origin, insert;
	/* reverse wraparound: REVERSE_WRAP (DECSET 45) | REVERSE_WRAP_EXT (DECSET 1045); one byte, so that CUB's
	 * bytes path and BS test both with one load */
	uint8_t reverse_wrap;
	bool lr_mode, cursor_visible, cursor_blink;
	enum grid_cursor_shape cursor_shape;
	struct grid_modes modes;
	uint8_t kitty_stack[2][KITTY_STACK_MAX]; /* per screen (kitty keeps one per screen) */
	uint8_t kitty_depth[2];

	struct saved_cursor saved[2]; /* per screen, xterm-style */

	/* [GRID_MAX_DIM]: the stops do not depend on the width, as xterm's (a fixed array of columns), so those in
	 * columns a narrower screen cut are there again when it grows back */
	uint8_t *tabs;

	/* damage: per screen row, [x0, x1); x1 == 0 = clean */
	uint16_t *dmg_x0, *dmg_x1;
	/* display rows [dmg_y0, dmg_y1] are wholly damaged on top of the per-row spans (empty: dmg_y1 < dmg_y0):
	 * a scroll of a region damages all its rows once per line, which is one range update, not a loop */
	int dmg_y0, dmg_y1;
	/* [(rows + 1) * cols]: scrollback lines expanded for grid_row(), and in the last row for
	 * grid_scrollback_row() */
	struct grid_cell *view_buf;
	bool damage_all;
	bool damaged;
	int dmg_cx, dmg_cy; /* cursor at the last clear */
	bool dmg_cvis;

	/* viewport */
	size_t view_offset;

	/* selection in absolute coordinates (line = abs number, see abs_top) */
	struct {
		bool active, on_alt;
		/* a cell selection's ends past their rows' text, set by grid__select_update: the earlier end's row
		 * is neither copied nor highlighted (skip_y0), the later end's is highlighted to its right edge
		 * (edge_y1) and copied with its line end (eol_y1, unless it wrapped or it is skip_y0's row) */
		bool skip_y0, edge_y1, eol_y1;
		enum grid_select_mode mode;
		uint64_t ay, by; /* anchor and extent lines */
		int ax, bx;
		uint64_t y0, y1; /* normalised marked range, inclusive lines */
		int x0, x1;      /* first cell of y0, last cell of y1 (inclusive) */
	} sel;

	struct style_table st;
	struct sgr_memo sgr_memo[SGR_MEMO_SIZE];
	struct sgr_bytes_memo sgr_bytes[SGR_BYTES_SLOTS];
	struct sgr_long_memo sgr_long[SGR_LONG_SLOTS];
	/* grid.sgr_long's guess of the next SGR: the place of the one found last, and for each place the place
	 * of the one found after it last time (colour-per-cell output repeats its order of SGRs) */
	uint16_t sgr_long_last;
	uint16_t sgr_long_next[SGR_LONG_SLOTS];
	uint64_t sgr_bytes_ids; /* entries made, the id of the newest (its m.id; 0 = empty) */
	uint32_t sgr_color_misses; /* colour SGRs not found in grid.sgr_bytes/sgr_long (see grid__csi_bytes_sgr) */
	uint32_t sgr_long_misses;  /* plain SGRs of 17 bytes or more not found in grid.sgr_long (the same) */
	struct cluster_table cl;
	struct link_table links;
	/* grid.primary.abs_top at the last collection: a table waiting (gc_wait) after it found itself full of
	 * live entries stops waiting once the history has turned over since (grid__gc_stale) */
	uint64_t gc_abs;

	uint32_t palette[259];
	uint32_t palette_defaults[259]; /* grid_config.colors, or xterm's */
	/* A bit an entry of palette: set by the child's OSC 4/10/11/12, cleared by the entry's reset (OSC 104/110-112,
	 * RIS). New defaults (grid_set_palette_defaults) leave these entries, whatever their value: one the child set
	 * to the old default is its own as much as any other. */
	uint8_t palette_set[(259 + 7) / 8];
	char title[TITLE_MAX];
	char *title_stack[TITLE_STACK_MAX];
	int title_depth;

	int cell_width, cell_height;
	bool allow_clipboard_read;
	bool backspace_bs_default; /* grid_config.backspace_sends_bs: DECBKM at power-on and after RIS */
	/* 0 while print_ascii keeps rows' text bytes (LINE_ASCII), where a row may reach the scrollback (the
	 * primary screen with one, and no top margin); else INT_MAX, and then no row of the active screen is
	 * LINE_ASCII, so that the printer neither copies a region's or the alternate screen's text for
	 * nothing nor clears the flag (print_ascii's test: x >= text_from). See grid__text_gate. */
	int text_from;
	/* tests only: an erase's rows deferred (LINE_STALE) on screens below GRID_STALE_MIN_CELLS too */
	bool stale_any_size;
	/* XTSAVE's values (grid-modes.c), one per mode or group, as xterm's save_modes: zero until saved (an
	 * XTRESTORE without a save resets the mode, as in xterm) and kept through RIS. Here at the end: the
	 * hot fields' offsets, and so the printers' and SGR's code, stay as they were. */
	uint16_t xtsave[GRID_XTSAVE_SLOTS]; /* the tracking modes and encodings hold their numbers */
#if !defined(NDEBUG)
	unsigned text_checks; /* grid_feed calls, for grid__text_check */
	unsigned joins_dropped; /* code points grid__attach_mark could not join, out of memory */
#endif
	char *xtversion;
	char *term_name; /* XTGETTCAP's TN (grid_config.term_name) */
	uint8_t decsace; /* DECSACE: DECCARA/DECRARA's extent, 2 the rectangle, else a stream (grid-rect-edit.c) */
	bool dbl_any; /* a row of either screen may be double (grid-dbl.h): part of print_mapped */
	/* ISO protection's mode (SPA; DECSCA 1, DECSTR and RIS end it): ED, EL and ECH keep the protected
	 * characters (grid-iso-protect.c) */
	bool iso_protect;
	/* xterm's "protection off" (OFF_PROTECT): neither DEC's protection (any DECSCA) nor ISO's (SPA) set since
	 * power-on, DECSTR, RIS or a DECRSPS whose Satt was @; DECSED and DECSEL then erase protected characters
	 * too. DECCIR's Satt reports DEC's mode (xterm 379, measured) */
	bool protect_off;
	/* DEL prints (ÿ): the set it would come from (GL's, or a pending single shift's) is a 96-character one;
	 * the parser passes DEL on only then (grid__del_mode) */
	bool del_prints;
	/* XTPUSHSGR's stack (grid-xtsgr.c): the pens pushed and what each push named; sgr_depth counts the pushes
	 * not popped, also those past the stack's room, which save nothing (xterm 379). Emptied by RIS only. */
	struct sgr_saved {
		struct grid_style pen;
		uint32_t parts; /* bit n: SGR n's part (1 bold ... 30 foreground, 31 background) */
	} sgr_stack[SGR_STACK_MAX];
	uint32_t sgr_depth;
	/* The bell's tone, CSI 10 ; Pn ] and CSI 11 ; Pn ] (grid-linux.c); RIS gives the defaults back */
	uint16_t bell_hz, bell_ms;
	/* grid_work: cells the sequences whose work is out of proportion to their bytes went through (REP,
	 * DECALN, the rectangle functions, DECRQCRA, RIS). Counted there only, never per printed character. */
	uint64_t work;
	/* grid_feed_bounded's work_end during that call, else UINT64_MAX: once work reaches it the parser is
	 * stopped after the sequence being done (grid__work) */
	uint64_t work_end;
	/* grid_sync_ends: synchronized updates ended (DECRST 2026 while set) */
	uint64_t sync_ends;
};

/* Adds n cells to grid_work; at grid_feed_bounded's end the feed stops after the sequence doing it. ED's erase_rows
 * adds its own without the stop: its test made erase_rows a call of its own, +0.02 % on csi (callgrind), for
 * a sequence of the parser's fast path, which the stop does not break anyway (ED's work per byte is small). */
static inline void grid__work(struct grid *g, uint64_t n)
{
	g->work += n;
	if (unlikely(g->work >= g->work_end))
		vt_parser_stop(g->parser);
}

/* An ED's whole rows are deferred (LINE_STALE) on screens of this many cells or more. On smaller ones the
 * eager fill is cheap and most rows are written again before the next erase anyway: at 102x40 csi's fills
 * were ~2 % of its time and 3 in 4 deferred rows were written later, so the deferral's later writes cost as
 * much as it saved (and an emulated guest +0.5 % in TB look-ups); at 212x82 the fills were ~9 % (each ED
 * 130 KB of stores, past the caches' reach) and half of the rows were never read (docs/benchmarks.md,
 * issue 2, session 16). */
#define GRID_STALE_MIN_CELLS 8192

/* grid.c: lines and the ring */
struct line *grid__ring_line(const struct screen *s, size_t slot);
/* Rows [y0, y1) of the screen blanked whole in style (not 0: their used marks become cols), their soft wraps
 * cleared and damage marked: an erase's whole rows with a coloured background. */
void grid__clear_rows(struct grid *g, int y0, int y1, uint16_t style);
/* Blanks a whole line (cols cells) with style, and its flags. */
void grid__line_clear(struct line *l, int cols, uint16_t style);
uint16_t grid__erase_style(struct grid *g);
/* The id of style s, interned (grid-style.c; 0, the default, when the table is full of live styles) */
uint16_t grid__style_intern(struct grid *g, const struct grid_style *s);
void grid__damage(struct grid *g, int y, int x0, int x1);
void grid__damage_rows(struct grid *g, int y0, int y1);
void grid__reply(struct grid *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The conformance level the terminal claims, DA1's first parameter (62: a VT220). DECRQSS for DECSCL reports
 * the same, so that an application reading either finds one terminal. */
#define GRID_CONFORMANCE_LEVEL 62
void grid__reset_state(struct grid *g, bool hard);
int grid__screen_init(struct screen *s, int rows, int cols, size_t sb_max);
/* A new line (cleared to blanks) from s's slabs; owned by s until grid__screen_finish. NULL on failure. */
struct line *grid__screen_line(struct screen *s);
void grid__screen_finish(struct screen *s);

#include "grid/grid-hist.h"

/* grid-print.c */
void grid__print_ascii(void *ctx, const uint8_t *s, size_t n);
void grid__print(void *ctx, const uint32_t *cp, size_t n);
size_t grid__print_utf8(void *ctx, const uint8_t *s, size_t n);
void grid__rep(struct grid *g, int count);
/* The id of the cluster of code points cp[0..n), interned (or -1); cp has CLUSTER_MAX_CPS entries, all read. */
int grid__cluster_intern(struct grid *g, const uint32_t *cp, uint32_t n);
/* Appends cp to the cluster in the cell printed last (grid-print.c's join); returns false when there is no
 * such cell (the cursor has left it), true when cp was taken or dropped. */
bool grid__cluster_attach(struct grid *g, uint32_t cp);
/* grid-cluster.c: the character REP repeats when the last code point printed has no width (a combining mark,
 * VS16: no graphic character of its own): the last code point with a width of the cell printed last, on the
 * cursor's row, as xterm repeats the character the marks are on; 0 when there is none. */
uint32_t grid__cluster_rep_base(const struct grid *g);
/* The cluster of cell content cp (GRID_CP_CLUSTER set), or NULL when it is not live: the table's entry (owned by
 * the table, valid until the next interning), or for a direct cluster (CLUSTER_DIRECT) *tmp, filled in (owned
 * by the caller; its code points past n are zero). */
const struct cluster *grid__cluster(const struct grid *g, uint32_t cp, struct cluster *tmp);
/* Rebuilds the cluster table's hash index from its live entries (after a collection; grid-print.c). */
void grid__cluster_reindex(struct grid *g);
/* Frees the cluster table (grid-print.c). */
void grid__cluster_finish(struct grid *g);

/* grid-sgr.c: SGR changes the pen */
void grid__sgr(struct grid *g, const struct vt_csi *csi);
/* vt_sink.csi_bytes_final's entry for 'm' (an SGR from its bytes); the other finals' are in grid-csi.c.
 * The sink has no csi_bytes: the parser takes csi_bytes_final in its place whenever it is set. */
size_t grid__csi_bytes_sgr(void *ctx, const uint8_t *s, size_t n);
int grid__sgr_string(const struct grid *g, char *buf, size_t cap);

/* grid-style.c: the pen as a style id, the collection of unused styles, clusters and links */
#include "grid/grid-pen.h"

int grid__styles_init(struct grid *g);
void grid__styles_finish(struct grid *g);
void grid__collect(struct grid *g);
/* grid-evict.c: a table mostly live after a collection's sweep (styles or clusters more than 7/8 of the ids,
 * links more than 3/4): the oldest history lines give up their entries beyond the newest `budget` (3/4 of the
 * ids, links 1/2); true when a line changed (sweep again) */
enum grid_evict { EVICT_STYLES, EVICT_CLUSTERS, EVICT_LINKS };
bool grid__evict(struct grid *g, enum grid_evict k, uint32_t budget);
/* Whether a table's wait (gc_wait) is stale: the entries that were live at the last collection may all be
 * dead, because every line the screen and the history held then has left them (or ED 3 / RIS cleared the
 * history: grid__gc_unwait). */
bool grid__gc_stale(const struct grid *g);
/* Ends the tables' waits (the history was cleared: what made them full is gone). */
void grid__gc_unwait(struct grid *g);

/* grid-edit.c: cursor motion, insert/delete of lines, scrolling */
/* Counts a scroll's grid_work: the sequences that scroll by a count (SU, SD, IL, DL), not the line feed. Within
 * left and right margins grid__scroll_up and grid__scroll_down count their own (the line feed's too). */
void grid__scroll_work(struct grid *g, int top, int bottom, int n);
void grid__scroll_up(struct grid *g, int top, int bottom, int n);
void grid__scroll_down(struct grid *g, int top, int bottom, int n);
void grid__index(struct grid *g);
void grid__reverse_index(struct grid *g);
void grid__newline(struct grid *g);
/* grid__newline for grid__print_utf8's CR LF; returns the cells of the new bottom row it left for the caller to
 * blank (grid-edit.c) */
size_t grid__newline_deferred(struct grid *g);
void grid__goto(struct grid *g, int x, int y);
void grid__goto_origin(struct grid *g, int x, int y);
void grid__insert_lines(struct grid *g, int n);
void grid__delete_lines(struct grid *g, int n);
/* grid-erase.c: ED, EL, ECH and their selective forms (DECSED, DECSEL) */
void grid__erase_display(struct grid *g, int mode, bool selective);
void grid__erase_line(struct grid *g, int mode, bool selective);
/* vt_sink.csi_bytes_final's EL ("CSI Ps K", Ps of up to 4 digits; anything else 0, back to the parser) */
size_t grid__csi_bytes_el(void *ctx, const uint8_t *s, size_t n);
void grid__erase_cells(struct grid *g, int y, int x0, int x1, bool selective);
void grid__erase_chars(struct grid *g, int n);
/* grid-shift.c: ICH, DCH; DECIC/DECDC (x0 = cursor column) and SL/SR (x0 = left margin) */
void grid__insert_chars(struct grid *g, int n);
void grid__delete_chars(struct grid *g, int n);
void grid__shift_cols(struct grid *g, int x0, int n, bool right);
/* grid-tabs.c: a stop every 8 columns from column 1 (RIS, DECST8C) */
void grid__tabs_reset(struct grid *g);
void grid__tab(struct grid *g, int n);
void grid__backtab(struct grid *g, int n);
void grid__backspace(struct grid *g);
void grid__cursor_back_rev(struct grid *g, int n);
void grid__decaln(struct grid *g);

/* grid-charset.c: the set an SCS designates: final (0x30..0x7e) with an optional prefix ('%', '"', '&'; 0 for
 * none), as a 94-character set (ESC ( ) * +) or a 96-character one (ESC - . /); CHARSET_NONE when xterm 379
 * ignores the designation. grid__charset_name writes the designator DECCIR reports (1-2 bytes + NUL). */
uint8_t grid__charset_for(uint8_t prefix, uint8_t final, bool is96);
void grid__charset_name(uint8_t cs, char out[3]);

/* grid-pres.c: DECRQPSR (CSI Ps $ w: 1 DECCIR, 2 DECTABSR) and DECRSPS (DCS Ps $ t data ST) */
void grid__request_pres(struct grid *g, int ps);
void grid__restore_pres(struct grid *g, int ps, const char *s, size_t len);

/* grid-xtsgr.c: XTPUSHSGR (CSI Pm # { and # p), XTPOPSGR (CSI # } and # q), XTREPORTSGR (CSI Pt;Pl;Pb;Pr # |);
 * false when the sequence (no private marker, intermediate '#') is none of them */
bool grid__xtsgr_csi(struct grid *g, const struct vt_csi *csi);

/* grid-csi.c */
void grid__execute(void *ctx, uint8_t c);
/* vt_sink.nothing: input that did nothing went by (DEL, CAN, SUB, a malformed sequence) */
void grid__nothing(void *ctx);
/* vt_sink.execute_in_seq: a C0 control inside a sequence, executed keeping REP's character */
void grid__execute_in_seq(void *ctx, uint8_t c);
/* grid-edit.c: the sink's execute: CR and LF in the line feed's page, the rest through grid__execute */
void grid__execute_c0(void *ctx, uint8_t c);
void grid__esc(void *ctx, const struct vt_esc *esc);
void grid__csi(void *ctx, const struct vt_csi *csi);
/* grid-linux.c: CSI Ps ; Pn ] (the Linux console's private sequences), cold */
void grid__linux_private(struct grid *g, const struct vt_csi *csi);
/* The handler of grid__csi_bytes_final for s's final byte, as the parser would call it (none for SGR: 0);
 * tests/grid/test-csi-num.c drives bytes_cup through it */
size_t grid__csi_bytes_moves(struct grid *g, const uint8_t *s, size_t n);

/* grid-iso-protect.c: ISO protection. SPA (start true) and EPA; the mode on or off (SPA turns it on; DECSCA
 * 1, DECSTR and RIS off); ED, EL (final 'J', 'K', v the mode) or ECH ('X', v the count) in the mode. */
void grid__spa(struct grid *g, bool start);
void grid__iso_protect_mode(struct grid *g, bool on);
void grid__iso_erase(struct grid *g, uint8_t final, int v);
/* The parser's CUF, ED and EL byte handlers set again after ISO protection or a double row came or went */
void grid__csi_bytes_update(struct grid *g);
/* vt_sink.csi_bytes_final: the moves and erases above, and grid__csi_bytes_sgr for SGR */
extern const vt_csi_bytes_fn grid__csi_bytes_final[64];

/* grid-rect.c: DECRQCRA (CSI Pid ; Pp ; Pt ; Pl ; Pb ; Pr * y), answered through the reply callback */
void grid__request_checksum(struct grid *g, const struct vt_csi *csi);
/* XTCHECKSUM (CSI Ps # y): selects the variant DECRQCRA computes. */
void grid__select_checksum(struct grid *g, const struct vt_csi *csi);

/* grid-modes.c */
void grid__set_mode(struct grid *g, const struct vt_csi *csi, bool set);
void grid__request_mode(struct grid *g, const struct vt_csi *csi);
/* XTSAVE (CSI ? Pm s) when save, else XTRESTORE (CSI ? Pm r) */
void grid__save_modes(struct grid *g, const struct vt_csi *csi, bool save);
void grid__save_cursor(struct grid *g);
void grid__restore_cursor(struct grid *g);
void grid__kitty_keys(struct grid *g, const struct vt_csi *csi);
void grid__set_alt(struct grid *g, bool on, bool clear);

/* grid-osc.c */
void grid__string(void *ctx, enum vt_string_kind kind, const struct vt_csi *hdr, const uint8_t *data,
		  size_t len);
void grid__links_finish(struct grid *g);
/* grid-link.c: OSC 8 (s[0..len) the text after "8;"); the sweep of the links the collection left unmarked
 * (links.used) but the open one; within the sink's nothing, the open link ended if an OSC 8 was dropped */
void grid__osc_link(struct grid *g, const char *s, size_t len);
void grid__links_sweep(struct grid *g);
void grid__link_dropped(struct grid *g);
void grid__titles_finish(struct grid *g);
/* grid-palette.c (its OSC functions for grid-osc.c: grid-palette.h). Sets the default colours
 * (grid_config.colors: 258 entries, or NULL for xterm's). */
void grid__palette_init(struct grid *g, const uint32_t *colors);
/* Entry idx (0-255, 256-258 the default foreground, background, cursor) back to its default; -1: all. */
void grid__palette_reset(struct grid *g, int idx);
/* grid-colornames.c: the X11 colour name s[0..len) (any case, spaces ignored) as 0xRRGGBB. */
bool grid__color_name(const char *s, size_t len, uint32_t *out);
void grid__title_push(struct grid *g, int which);
void grid__title_pop(struct grid *g, int which);

/* grid-select.c */
void grid__select_update(struct grid *g);
void grid__select_touch(struct grid *g, int y0, int y1);
void grid__select_scrolled(struct grid *g);
/* Marks cells [0, n) of primary-screen line abs as the selection would: packed scrollback lines carry no
 * marks of their own. */
void grid__select_apply(const struct grid *g, uint64_t abs, struct grid_cell *cells, int n);

/* grid-reflow.c */
int grid__reflow(struct grid *g, int cols, int rows);

/* Recomputes grid.text_from after a change of the screen, its scrollback or the top margin (grid.c). */
void grid__text_gate(struct grid *g);

/* grid-print.c: writes the deferred cells of a LINE_LAZY line (from its text) and drops the flag. */
void grid__line_materialise(struct line *l);
/* grid-fill.c, out of the erase page: cells [x0, x1) of a LINE_STALE row erased in style (not selectively),
 * the row's other cells stored, each cell once. The caller clears the soft wrap and marks the damage.
 * Returns ret (EL's handler ends in a jump to it). */
size_t grid__stale_erase(struct grid *g, struct line *l, int x0, int x1, uint16_t style, size_t ret);

/* Line l with its cells written (LINE_LAZY: see there), for any reader or writer of its cells. */
static inline struct line *grid__line_ready(struct line *l)
{
	if (unlikely(l->flags & LINE_LAZY))
		grid__line_materialise(l);
	return l;
}

/* Screen row y of the active screen as it is: LINE_LAZY lines' cells not written. Only for the printer
 * and the push, which know that state, and for the flags. */
static inline struct line *grid__line_raw(const struct grid *g, int y)
{
	const struct screen *s = g->scr;
	size_t i = s->top + (size_t)y;
	if (i >= s->cap)
		i -= s->cap;
	return s->ring[i];
}

/* Screen row y of the active screen, its cells written. */
static inline struct line *grid__line(const struct grid *g, int y)
{
	return grid__line_ready(grid__line_raw(g, y));
}

/* grid__push_row's ring step, row 0 (l) copied to c for the scrollback (sb: it has one, the caller's test;
 * c NULL: out of memory) */
static inline __attribute__((always_inline)) void grid__push_ring(struct grid *g, struct line *l, struct line *c,
								  bool sb)
{
	struct screen *s = g->scr;
	size_t slot = s->top + (size_t)g->rows;
	if (slot >= s->cap)
		slot -= s->cap;
	if (sb)
		grid__hist_take(s, l, slot, c);
	s->top = s->top + 1 == s->cap ? 0 : s->top + 1;
	s->abs_top++;
}

/* Moves screen row 0 into the scrollback (or drops it when there is none): one index rotation. Returns the
 * row, now the slot after the screen, its cells as they were, for the caller to blank or reset (push_line
 * in grid-edit.c, grid__newline_deferred in grid-history.c). ready: a deferred row's cells written for the
 * copy (an erase's deferred row, LINE_STALE, too: grid__newline_deferred leaves such rows to push_line). */
static inline __attribute__((always_inline)) struct line *grid__push_row(struct grid *g, bool ready)
{
	struct screen *s = g->scr;
	struct line *l = s->ring[s->top];
	if (s->sb_max > 0) {
		/* the slot after the screen holds the oldest scrollback line once it is full: it dies */
		if (s->sb_n == s->sb_max)
			s->sb_n--;
		struct line *c = l->flags & LINE_ASCII ? grid__hist_text(s, l, g->cols, s->abs_top)
						       : grid__hist_copy(s, ready ? grid__line_ready(l) : l, g->cols, s->abs_top);
		grid__push_ring(g, l, c, true);
	} else {
		grid__push_ring(g, l, NULL, false);
	}
	return l;
}

/* a push's end: a view scrolled back stays on the lines it shows, or comes down to the history there is when
 * a push out of memory forgot it (grid__hist_take) */
static inline void grid__push_view(struct grid *g)
{
	if (g->view_offset && g->scr == &g->primary) {
		if (g->view_offset < g->scr->sb_n)
			g->view_offset++;
		else if (g->view_offset > g->scr->sb_n)
			g->view_offset = g->scr->sb_n;
	}
}

/* grid__damage_inline where the caller knows that x1 <= cols (put_one's cell and the one after it: three
 * instructions fewer on the path of a cell per SGR). */
static inline __attribute__((always_inline)) void grid__damage_within(struct grid *g, int y, int x0, int x1)
{
	if (x0 < 0)
		x0 = 0;
	g->damaged = true;
	/* damage is kept per row of the display: while scrolled back, screen row y shows further down */
	y += (int)g->view_offset;
	if (g->damage_all || y >= g->rows)
		return;
	if (g->dmg_x1[y] == 0) {
		g->dmg_x0[y] = (uint16_t)x0;
		g->dmg_x1[y] = (uint16_t)x1;
		return;
	}
	if (x0 < g->dmg_x0[y])
		g->dmg_x0[y] = (uint16_t)x0;
	if (x1 > g->dmg_x1[y])
		g->dmg_x1[y] = (uint16_t)x1;
}

/* g->print_mapped again, after a change of the charsets, GL, the single shift or insert mode: one byte for
 * the text paths' entries to test instead of three fields (csi: ~9 instructions a text run) */
void grid__del_mode(struct grid *g);
static inline void grid__print_mode(struct grid *g)
{
	g->print_mapped = g->charsets[g->gl] != CHARSET_ASCII || g->single_shift || g->insert || g->dbl_any;
	if (unlikely((g->charsets[g->single_shift ? g->single_shift : g->gl] == CHARSET_LATIN1) != g->del_prints))
		grid__del_mode(g);
}

/* grid__damage (grid.c) for the print paths, inlined. */
static inline void grid__damage_inline(struct grid *g, int y, int x0, int x1)
{
	/* callers pass one cell more on each side: grid__fix_wide may blank a neighbour */
	if (x1 > g->cols)
		x1 = g->cols;
	grid__damage_within(g, y, x0, x1);
}

#include "grid/grid-dbl.h"

/* wide characters cut in half: grid__inner_col, grid__fix_wide, grid__split_wide, grid__fix_wide_edges */
#include "grid/grid-internal-wide.h"

static inline int grid__min(int a, int b)
{
	return a < b ? a : b;
}
static inline int grid__max(int a, int b)
{
	return a > b ? a : b;
}
static inline int grid__clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
/* The right edge the cursor writes up to: the right margin when inside it, else the screen edge. */
static inline int grid__right_limit(const struct grid *g)
{
	return g->cx <= g->right ? g->right : g->cols - 1;
}
static inline int grid__left_limit(const struct grid *g)
{
	return g->cx >= g->left ? g->left : 0;
}
/* The cursor inside the left/right margins: where ICH, DCH, IL and DL act (xterm's InsertChar and the rest
 * do nothing outside them). */
static inline bool grid__in_lr_margins(const struct grid *g)
{
	return g->cx >= g->left && g->cx <= g->right;
}
/* Where CR takes the cursor (xterm's CarriageReturn): the left margin, or column 1 from left of it, except in
 * origin mode, whose positions count from the left margin (DECRC can bring the cursor back left of it). */
static inline int grid__cr_col(const struct grid *g)
{
	return g->cx >= g->left || g->origin ? g->left : 0;
}

#endif
