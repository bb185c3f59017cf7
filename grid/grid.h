/* grid/grid.h: the screen model.
 *
 * A grid owns a vt parser, consumes the child's bytes (grid_feed) and keeps what xterm would show: cells in a
 * ring of rows shared with the scrollback, interned styles, cursor, modes, tab stops, charsets, scroll regions,
 * the alternate screen, the selection, and per-row damage for the renderer. Replies the terminal owes the child
 * (DA, CPR, DECRQM, ...) leave through the reply callback, in order; grid/ never writes to a file descriptor.
 *
 * Coordinates are 0-based; x is the column, y the row of the visible screen (0 = top). When the user scrolls
 * back (grid_view_scroll), grid_row() and the damage walk return what is on display, i.e. the viewport.
 */
#ifndef GRID_GRID_H
#define GRID_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt/vt.h"

/* Colours: the top byte says which kind, the low 24 bits the value. */
#define GRID_COLOR_DEFAULT 0x00000000u
#define GRID_COLOR_PALETTE(n) (0x01000000u | ((uint32_t)(n)&0xffu))
#define GRID_COLOR_RGB(r, g, b) \
	(0x02000000u | ((uint32_t)(r)&0xffu) << 16 | ((uint32_t)(g)&0xffu) << 8 | ((uint32_t)(b)&0xffu))
#define GRID_COLOR_KIND(c) ((c) >> 24)
#define GRID_COLOR_KIND_DEFAULT 0u
#define GRID_COLOR_KIND_PALETTE 1u
#define GRID_COLOR_KIND_RGB 2u

enum grid_attr {
	GRID_ATTR_BOLD = 1 << 0,
	GRID_ATTR_DIM = 1 << 1,
	GRID_ATTR_ITALIC = 1 << 2,
	GRID_ATTR_BLINK = 1 << 3,
	GRID_ATTR_REVERSE = 1 << 4,
	GRID_ATTR_INVISIBLE = 1 << 5,
	GRID_ATTR_STRIKE = 1 << 6,
	GRID_ATTR_OVERLINE = 1 << 7,
	GRID_ATTR_PROTECTED = 1 << 8, /* DECSCA: selective erase leaves it */
};

enum grid_underline {
	GRID_UNDERLINE_NONE = 0,
	GRID_UNDERLINE_SINGLE,
	GRID_UNDERLINE_DOUBLE,
	GRID_UNDERLINE_CURLY,
	GRID_UNDERLINE_DOTTED,
	GRID_UNDERLINE_DASHED,
};

/* An interned pen. Owned by the grid; valid until the next grid_feed/grid_resize/grid_reset. */
struct grid_style {
	uint32_t fg, bg, ul_color; /* GRID_COLOR_* */
	uint16_t attrs;            /* enum grid_attr */
	uint8_t underline;         /* enum grid_underline */
};

/* Set in grid_cell.cp when the cell holds a grapheme cluster (base + combining marks, ZWJ sequence, flag):
 * the low bits then refer to it (an index into the grid's cluster table, or the code points themselves for
 * some short clusters); read it with grid_cell_codepoints(). Equal clusters may have different values. */
#define GRID_CP_CLUSTER 0x80000000u

/* One cell: plain data, copied with memcpy. */
struct grid_cell {
	uint32_t cp;    /* code point (0 = never written, shown as a blank), or GRID_CP_CLUSTER | reference */
	uint16_t style; /* interned style id; 0 is the default style */
	uint16_t link;  /* hyperlink id (OSC 8), 0 = none */
	uint8_t width;  /* 1; 2 for the left half of a wide character; 0 for its right half */
	uint8_t flags;  /* GRID_CELL_* */
};

enum grid_cell_flags {
	GRID_CELL_SELECTED = 1 << 0, /* inside the selection (kept up to date for the renderer) */
};

enum grid_cursor_shape {
	GRID_CURSOR_BLOCK = 0,
	GRID_CURSOR_UNDERLINE,
	GRID_CURSOR_BAR,
};

struct grid_cursor {
	int x, y;      /* on the visible screen; y may be off the viewport while scrolled back */
	bool visible;  /* DECTCEM and not scrolled away */
	bool blink;    /* DECSCUSR odd values / DECSET 12 */
	enum grid_cursor_shape shape;
};

enum grid_mouse_mode {
	GRID_MOUSE_NONE = 0,
	GRID_MOUSE_X10 = 9,
	GRID_MOUSE_NORMAL = 1000,
	GRID_MOUSE_BUTTON = 1002,
	GRID_MOUSE_ANY = 1003,
};

enum grid_mouse_encoding {
	GRID_MOUSE_ENC_DEFAULT = 0,
	GRID_MOUSE_ENC_UTF8 = 1005,
	GRID_MOUSE_ENC_SGR = 1006,
	GRID_MOUSE_ENC_URXVT = 1015,
	GRID_MOUSE_ENC_SGR_PIXELS = 1016, /* SGR with the pointer's pixel for its cell */
};

/* Modes the rest of the program needs to read (input encoding, rendering, frame pacing). */
struct grid_modes {
	struct vt_key_modes keys;
	enum grid_mouse_mode mouse;
	enum grid_mouse_encoding mouse_encoding;
	bool alternate_scroll;  /* DECSET 1007 */
	bool bracketed_paste;   /* DECSET 2004 */
	bool focus_events;      /* DECSET 1004 (the session reports its VT leaving and coming back) */
	bool synchronized;      /* DECSET 2026 is active: hold frames */
	bool reverse_video;     /* DECSCNM */
	bool alt_screen;        /* the alternate screen is shown */
};

/* Callbacks; every one may be NULL. Pointers passed are valid only during the call. */
struct grid_callbacks {
	/* Bytes the terminal owes the child (DA, CPR, DECRQM, DECRQSS, colour queries, size reports). */
	void (*reply)(void *ud, const uint8_t *data, size_t len);
	void (*bell)(void *ud);
	void (*title)(void *ud, const char *utf8);
	/* OSC 52 set: selection names ("c", "p", "s"...), decoded data. */
	void (*clipboard)(void *ud, const char *targets, const uint8_t *data, size_t len);
	/* OSC 52 query, asked only when grid_config.allow_clipboard_read: the contents of the selections named
	 * (the first that has some). Returns 0 with *data malloc'ed (freed by grid/; NULL with *len 0 when
	 * empty), or -errno: no reply is sent then. */
	int (*clipboard_get)(void *ud, const char *targets, uint8_t **data, size_t *len);
	/* A synchronized update ended (DECRST 2026 while set) in grid_feed_bounded: whether that feed stops right
	 * after it (the caller's frame loop can show it now; kmscon-felis/session-feed.c). NULL: it always stops.
	 * Asked by grid_feed_bounded only, once per update's end; going on costs nothing (a stop refused after the
	 * fact cost the tiny updates of a flood a feed call each: +36 % of their instructions). */
	bool (*sync_end)(void *ud);
};

/* The bell's tone as the Linux console sets it (CSI 10 ; Pn ] pitch, CSI 11 ; Pn ] duration: setterm(1) --bfreq,
 * --blength); its defaults (drivers/tty/vt: DEFAULT_BELL_PITCH, DEFAULT_BELL_DURATION HZ/8), which RIS gives
 * back. A pitch or duration of 0 is a silent bell. */
#define GRID_BELL_PITCH_HZ 750
#define GRID_BELL_DURATION_MS 125

struct grid_config {
	int cols, rows;           /* >= 1 each; clamped to 1..GRID_MAX_DIM */
	size_t scrollback;        /* lines kept above the screen (default 10000 when the config is NULL) */
	const char *xtversion;    /* XTVERSION reply text; NULL = "kmscon-felis(VERSION)" */
	const char *term_name;    /* the child's TERM, XTGETTCAP's TN; NULL = "xterm-256color". Copied. */
	int cell_width, cell_height; /* pixel size of a cell, for CSI 14/15/16 t; 0 if unknown */
	bool allow_clipboard_read;   /* answer OSC 52 queries (clipboard_get); default false: no reply */
	bool backspace_sends_bs;     /* DECBKM at power-on and after RIS (--no-backspace-delete); default false */
	/* The default colours, 0xRRGGBB: 256 palette entries, then foreground (256) and background (257), i.e.
	 * the ones the display paints with (--palette). OSC 4/10/11 queries report them until the child changes
	 * them, and OSC 104/110/111 and RIS bring them back; the cursor colour (OSC 12) defaults to the
	 * foreground. Copied. NULL: xterm's colours. */
	const uint32_t *colors;
};

#define GRID_MAX_DIM 4096

struct grid;

/* Creates a grid in its power-on state. cfg may be NULL (80x24, 10000 lines). Returns NULL on failure. */
struct grid *grid_create(const struct grid_config *cfg, const struct grid_callbacks *cb, void *ud);
/* Accepts NULL. */
void grid_destroy(struct grid *g);

/* Feeds the child's bytes. Never fails; input of any content and size keeps memory bounded. */
void grid_feed(struct grid *g, const uint8_t *data, size_t len);
/* A counter of the work some sequences do out of proportion to their bytes, in cells of a fill (monotonic, never
 * reset): REP counts the characters it writes, DECALN and RIS the screen, DECFRA, DECERA, DECSERA, DECCRA,
 * DECCARA and DECRARA their rectangle, DECRQCRA four times its rectangle (a checksum costs about four stores a
 * cell), XTREPORTSGR twice its rectangle, an answered OSC 52 query twice the clipboard's bytes, SU, SD, IL and
 * DL an eighth of the rows they blank, any scroll within DECSLRM margins (the line feed,
 * IND and NEL at the bottom margin, a wrap there too) a third of the region's cells and 5 a row,
 * DECIC, DECDC, SL and SR an eighth of the cells they move, ED and a switch of screens (47, 1047, 1049) a
 * thirty-second of the screen's cells, DECTABSR 64 per stop it reports. Weighed by their measured cost, so that the counter
 * follows time. Only those: printed text, line feeds and the rest cost at most a few microseconds a sequence
 * (docs/architecture.md, the bounds), bounded by their bytes. A reader that must bound its time per call (the
 * session's read per wake-up) feeds with grid_feed_bounded. */
uint64_t grid_work(const struct grid *g);
/* grid_feed that stops once grid_work reaches work_end: after the sequence that took it there (so one sequence's
 * work at most past it: a DECRQCRA of the screen, four times its cells), at the start of the next generic event
 * (vt_parser_stop: not inside a run of text or of the cursor moves, SGRs, ED and EL of the parser's fast path,
 * whose own work per byte is small). Returns the bytes fed (len, or fewer after a stop; the rest are the
 * caller's to feed next, first): 0 only with grid_work at work_end (a UTF-8 sequence the last feed left open,
 * ended by this one's first byte, whose U+FFFD's wrap scrolled DECSLRM margins), so that a caller that stops once
 * the budget is spent always advances. A work_end at or below grid_work stops at the first counted sequence.
 * It also stops after the end of a synchronized update (DECRST 2026 while set; grid_sync_ends counts them), whatever
 * the work, unless grid_callbacks.sync_end says no, at the same place as a stop of the work (the text and fast-path
 * sequences right after it may go with it: they are outside any update, and the next update's DECSET 2026 is
 * not): the screen is whole there, and a frame loop that renders between two feeds can show it. */
size_t grid_feed_bounded(struct grid *g, const uint8_t *data, size_t len, uint64_t work_end);
/* Synchronized updates ended so far (DECRST 2026 while DECSET 2026 was in force; monotonic, never reset): a change
 * tells the frame loop that a hold it started belongs to an update that is over. */
uint64_t grid_sync_ends(const struct grid *g);
/* Hard reset (RIS). */
void grid_reset(struct grid *g);
/* Resizes, reflowing soft-wrapped lines; the cursor stays on its character, a view scrolled back keeps its top
 * line at the top. Returns 0 or -EINVAL/-ENOMEM (the size as it was). */
int grid_resize(struct grid *g, int cols, int rows);
/* Cell pixel size for size reports (CSI 14/15/16 t). */
void grid_set_cell_size(struct grid *g, int cell_width, int cell_height);

int grid_cols(const struct grid *g);
int grid_rows(const struct grid *g);
void grid_get_cursor(const struct grid *g, struct grid_cursor *out);
/* The bell's tone now (GRID_BELL_PITCH_HZ and GRID_BELL_DURATION_MS until CSI 10/11 ] change them). */
void grid_bell_tone(const struct grid *g, unsigned *hz, unsigned *ms);
void grid_get_modes(const struct grid *g, struct grid_modes *out);
/* The 256-colour palette plus default fg (256), default bg (257) and cursor colour (258), as 0xRRGGBB.
 * OSC 4/10/11/12 change it. Owned by the grid. */
const uint32_t *grid_palette(const struct grid *g);
/* The colours grid_palette() starts from and OSC 104/110/111/112 and RIS restore (grid_config.colors), same
 * layout. Owned by the grid. An entry of grid_palette() that differs was set by the child. */
const uint32_t *grid_palette_defaults(const struct grid *g);
/* New default colours (same layout as grid_config.colors, 258 entries), e.g. a palette reloaded from the
 * configuration: the entries the child has not set (OSC 4/10/11/12, since their last reset) follow them, its own
 * stay, also one it set to the old default's value. */
void grid_set_palette_defaults(struct grid *g, const uint32_t *colors);
/* DECBKM's power-on state (grid_config.backspace_sends_bs), e.g. a reloaded backspace-delete: what the next hard
 * reset (RIS, grid_reset) sets. The mode in force now stays: it must go with the erase character of the child
 * that runs (kf_session_set_backspace). */
void grid_set_backspace_default(struct grid *g, bool sends_bs);
/* The window title (OSC 0/2), UTF-8, owned by the grid; "" if none. */
const char *grid_title(const struct grid *g);

/* Reading cells: row y (0..rows-1) of what is on display. Owned by the grid, valid until the next call that
 * changes the grid. Exactly grid_cols() cells. (A row printed as plain text has its cells written here, on
 * its first read: not safe against a concurrent call on the same grid, as none of these is.) */
const struct grid_cell *grid_row(const struct grid *g, int y);
/* Whether row y of the display ends in a soft wrap (continues on the next row). */
bool grid_row_wrapped(const struct grid *g, int y);
/* A row's size (DECDWL, DECDHL, DECSWL). A double row's cells [0, (cols - 1) / 2] are shown at twice the cell
 * width (each cell two columns of the display); its other cells are kept but not shown. A double-height row
 * shows the top or the bottom half of its characters at twice the height as well. */
enum grid_line_size {
	GRID_LINE_SINGLE = 0,
	GRID_LINE_DOUBLE_WIDTH,  /* ESC # 6 */
	GRID_LINE_DOUBLE_TOP,    /* ESC # 3 */
	GRID_LINE_DOUBLE_BOTTOM, /* ESC # 4 */
};
/* Row y of the display's size (GRID_LINE_SINGLE outside the display). */
enum grid_line_size grid_row_size(const struct grid *g, int y);
const struct grid_style *grid_style(const struct grid *g, uint16_t id);
/* The code points of a cell (base and combining marks, or a whole cluster): writes up to cap, returns how
 * many the cell has. A blank cell gives 0. */
size_t grid_cell_codepoints(const struct grid *g, const struct grid_cell *c, uint32_t *out, size_t cap);
/* The URI of hyperlink id (OSC 8), or NULL. */
const char *grid_link_uri(const struct grid *g, uint16_t link);
/* The id= parameter the hyperlink was opened with, or NULL when it had none (or link is no link). Owned by the
 * grid, as grid_link_uri's URI: valid until the next call that changes the grid. */
const char *grid_link_id(const struct grid *g, uint16_t link);

/* Damage: the rows changed since the last grid_damage_clear(), each with a dirty column span [x0, x1).
 * Returns false when row y is clean. Scrolling moves damage with the rows; anything that changes the whole
 * display (scrolling the view, resize, reverse video) damages everything. */
bool grid_row_damage(const struct grid *g, int y, int *x0, int *x1);
void grid_damage_clear(struct grid *g);
void grid_damage_all(struct grid *g);
/* True when something is damaged or the cursor moved/changed since the last clear. */
bool grid_is_damaged(const struct grid *g);

/* Scrollback viewport: delta > 0 scrolls back into history, < 0 towards the bottom; clamped. Returns the
 * new offset (0 = at the bottom). */
int grid_view_scroll(struct grid *g, int delta);
int grid_view_offset(const struct grid *g);
/* Lines currently held in the scrollback. */
size_t grid_scrollback_lines(const struct grid *g);
/* Row i of the scrollback, 0 = oldest; *len gets its length in cells (trailing blanks may be
 * trimmed; the right half of a wide character at the end is kept).
 * Owned by the grid, valid until the next grid_scrollback_row() or the next call that changes the grid. */
const struct grid_cell *grid_scrollback_row(const struct grid *g, size_t i, int *len);

/* Selection, in display coordinates (the grid tracks it through scrolling). */
enum grid_select_mode {
	GRID_SELECT_CELL,
	GRID_SELECT_WORD,
	GRID_SELECT_LINE,
};
void grid_select_start(struct grid *g, int x, int y, enum grid_select_mode mode);
void grid_select_extend(struct grid *g, int x, int y);
/* The line shown on display row y now, as a number that stays with that line while the screen scrolls and the
 * view moves: a selection begun later can start where the press was (grid_select_start_line). */
uint64_t grid_line_at(const struct grid *g, int y);
/* grid_select_start at column x (a display column) of the line numbered line (grid_line_at), on display or not:
 * a line no longer held (scrolled out of the history) gives the oldest held, one past the screen the last; a
 * line of the other screen (the alternate screen entered or left since) selects nothing. */
void grid_select_start_line(struct grid *g, int x, uint64_t line, enum grid_select_mode mode);
/* Shift+click, right click: moves whichever end of the selection is nearer to (x, y) there (before the start
 * or after the end: that end), keeping the other and the mode. */
void grid_select_adjust(struct grid *g, int x, int y);
void grid_select_clear(struct grid *g);
bool grid_has_selection(const struct grid *g);
/* The selected text as UTF-8, soft-wrapped lines joined, hard line ends as '\n' (a line selection's last one
 * included, as xterm's cutNewline; a cell selection's too when its end lies past the cell after its row's text,
 * and nothing of its first row when its start does, as xterm copies a drag past a row's end: not on the screen's
 * last row, as it was when the selection was made or extended), trailing blanks trimmed.
 * Caller owns the returned buffer (free()). NULL when nothing is selected. */
char *grid_selection_text(const struct grid *g, size_t *len);
/* The same, at most max bytes of text (a copy bound for a clipboard of that size): the text stops before the
 * first code point that would pass it, and *cut (when not NULL) says whether it did. The memory taken stays
 * within about max, whatever the selection holds. */
char *grid_selection_text_max(const struct grid *g, size_t max, size_t *len, bool *cut);

#endif
