/* grid/grid-csi.c: C0 controls, ESC sequences and CSI dispatch.
 *
 * Reference: xterm ctlseqs (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html), ECMA-48 5th edition,
 * the VT510 reference manual. Dispatch is on (private marker, intermediate, final) packed into one key.
 * Sequences we do not implement are ignored, as xterm ignores them.
 */
#include <stdio.h>
#include <string.h>

#include "grid/grid-csi-num.h"
#include "grid/grid-internal.h"
#include "grid/grid-rect.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#define KEY(priv, inter, final) ((uint32_t)(priv) << 16 | (uint32_t)(inter) << 8 | (uint32_t)(final))

/* Parameter i, with 0 and omitted both meaning def (most cursor sequences: "a count of 0 means 1"). */
static int p1(const struct vt_csi *csi, unsigned i, int def)
{
	int v = i < csi->n_params ? csi->params[i] : VT_PARAM_DEFAULT;
	return v <= 0 ? def : v;
}

/* Parameter i, omitted meaning def (0 stays 0). */
static int p0(const struct vt_csi *csi, unsigned i, int def)
{
	int v = i < csi->n_params ? csi->params[i] : VT_PARAM_DEFAULT;
	return v < 0 ? def : v;
}

/* DA1's answer: a VT220 (GRID_CONFORMANCE_LEVEL) with ANSI colour (22). DECID (ESC Z) gets it too. */
static void primary_da(struct grid *g)
{
	grid__reply(g, "\033[?%d;22c", GRID_CONFORMANCE_LEVEL);
}

/* ---------------------------------------------------------------------------------------------- C0 */

void grid__nothing(void *ctx)
{
	struct grid *g = ctx;
	g->last_cp = 0; /* REP repeats nothing after it (ECMA-48 8.3.103; xterm 379) */
	if (g->link)
		grid__link_dropped(g);
}

void grid__execute_in_seq(void *ctx, uint8_t c)
{
	struct grid *g = ctx;
	uint32_t keep = g->last_cp;
	grid__execute_c0(g, c);
	/* the sequence goes on: REP at its end still repeats the character before it (xterm 379 forgets it only
	 * on bytes of the ground state; case rep-c0-inside) */
	g->last_cp = keep;
}

void grid__execute(void *ctx, uint8_t c)
{
	struct grid *g = ctx;
	g->last_cp = 0;
	/* CR and LF first, as branches: "\r\n" alternates them, which a switch's one indirect jump mispredicts
	 * every time */
	if (c == 0x0d) {
		g->cx = grid__cr_col(g);
		g->wrap_pending = false;
		return;
	}
	if (c == 0x0a) {
		grid__newline(g);
		return;
	}
	switch (c) {
	case 0x07: /* BEL */
		if (g->cb.bell)
			g->cb.bell(g->ud);
		break;
	case 0x08: /* BS */
		grid__backspace(g);
		break;
	case 0x09: /* HT */
		grid__tab(g, 1);
		break;
	/* (LF and CR returned above) */
	case 0x0b: /* VT */
	case 0x0c: /* FF */
		grid__newline(g);
		break;
	case 0x0e: /* SO: LS1 */
		g->gl = 1;
		grid__print_mode(g);
		break;
	case 0x0f: /* SI: LS0 */
		g->gl = 0;
		grid__print_mode(g);
		break;
	case 0x84: /* IND */
		g->wrap_pending = false;
		grid__index(g);
		break;
	case 0x85: /* NEL: the index from where the cursor is, then CR (xterm): right of the right margin at
		    * the bottom margin it scrolls nothing, as IND does there */
		g->wrap_pending = false;
		grid__index(g);
		g->cx = grid__cr_col(g);
		break;
	case 0x88: /* HTS */
		g->tabs[g->cx] = 1;
		break;
	case 0x8d: /* RI */
		g->wrap_pending = false;
		grid__reverse_index(g);
		break;
	case 0x8e: /* SS2 */
		g->single_shift = 2;
		grid__print_mode(g);
		break;
	case 0x8f: /* SS3 */
		g->single_shift = 3;
		grid__print_mode(g);
		break;
	case 0x96: /* SPA */
	case 0x97: /* EPA */
		grid__spa(g, c == 0x96);
		break;
	case 0x7f: /* DEL, passed on only while it prints (grid__del_mode): from a 96-character set, 0xff */
		if (g->single_shift) {
			g->single_shift = 0;
			grid__print_mode(g);
		}
		grid__print(g, &(const uint32_t){0xff}, 1);
		g->last_cp = 0; /* REP repeats nothing after it (xterm 379) */
		break;
	case 0x9a: /* DECID: the obsolete form of DA1 (xterm, the Linux console) */
		primary_da(g);
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------------------------------------------- ESC */

/* SCS: ESC ( ) * + designate G0..G3 with a 94-character set, ESC - . / G1..G3 with a 96-character one; a
 * second intermediate (% " &) is part of the set's name (ESC ( % 5) */
static void designate(struct grid *g, const struct vt_esc *esc)
{
	const uint8_t i = esc->intermediates[0];
	const bool is96 = i >= '-';
	const uint8_t prefix = esc->n_intermediates == 2 ? esc->intermediates[1] : 0;
	const uint8_t cs = grid__charset_for(prefix, esc->final, is96);
	if (cs == CHARSET_NONE)
		return;
	g->charsets[is96 ? i - ',' : i - '('] = cs;
	grid__print_mode(g);
}

/* DECBI (ESC 6, back) and DECFI (ESC 9, forward), VT420 (xterm's xtermColIndex): at the margin it moves
 * towards, with the cursor inside the margins, a shift of the region's columns by one the other way (a blank
 * column comes in at that margin); anywhere else a move by one column, as CUF and CUB move: outside the margins
 * up to the screen's edge (current xterm, util.c 1.957; older ones did nothing there). */
static void column_index(struct grid *g, bool forward)
{
	if (g->cx >= g->left && g->cx <= g->right && g->cx == (forward ? g->right : g->left)) {
		grid__shift_cols(g, g->left, 1, !forward);
		return;
	}
	int right = grid__right_limit(g);
	if (forward && g->dbl_any)
		right = grid__dbl_right(g, right); /* a double row's half, as CUF */
	if (forward && g->cx > right)
		g->cx = right; /* past a double row's half: back to it (xterm) */
	else if (forward ? g->cx < right : g->cx > grid__left_limit(g))
		g->cx += forward ? 1 : -1;
	g->wrap_pending = false;
}

void grid__esc(void *ctx, const struct vt_esc *esc)
{
	struct grid *g = ctx;
	g->last_cp = 0;
	if (esc->n_intermediates == 1) {
		uint8_t i = esc->intermediates[0];
		if (i == '#' && esc->final == '8') {
			grid__decaln(g);
		} else if (i == '#' && esc->final >= '3' && esc->final <= '6') {
			/* DECDHL top, bottom, DECSWL, DECDWL */
			static const uint8_t size[4] = {GRID_LINE_DOUBLE_TOP, GRID_LINE_DOUBLE_BOTTOM, GRID_LINE_SINGLE,
							GRID_LINE_DOUBLE_WIDTH};
			grid__line_size(g, size[esc->final - '3']);
		} else if ((i >= '(' && i <= '+') || (i >= '-' && i <= '/')) {
			designate(g, esc);
		}
		return;
	}
	if (esc->n_intermediates == 2 && esc->intermediates[0] >= '(' && esc->intermediates[0] <= '/' &&
	    esc->intermediates[0] != ',') {
		designate(g, esc);
		return;
	}
	if (esc->n_intermediates)
		return;
	switch (esc->final) {
	case 'D': grid__execute(g, 0x84); break;
	case 'E': grid__execute(g, 0x85); break;
	case 'H': grid__execute(g, 0x88); break;
	case 'M': grid__execute(g, 0x8d); break;
	case 'N': grid__execute(g, 0x8e); break;
	case 'O': grid__execute(g, 0x8f); break;
	case 'Z': grid__execute(g, 0x9a); break;
	case '6': column_index(g, false); break; /* DECBI */
	case '9': column_index(g, true); break;  /* DECFI */
	case '7': grid__save_cursor(g); break;
	case '8': grid__restore_cursor(g); break;
	case '=': g->modes.keys.keypad_app = true; break;
	case '>': g->modes.keys.keypad_app = false; break;
	case 'c': grid_reset(g); break;
	case 'n': g->gl = 2, grid__print_mode(g); break; /* LS2 */
	case 'o': g->gl = 3, grid__print_mode(g); break; /* LS3 */
	case 'V': grid__execute(g, 0x96); break;
	case 'W': grid__execute(g, 0x97); break;
	case '~': g->gr = 1; break; /* LS1R */
	case '}': g->gr = 2; break; /* LS2R */
	case '|': g->gr = 3; break; /* LS3R */
	default: break;
	}
}

/* --------------------------------------------------------------------------------------------- CSI */

static void cursor_up(struct grid *g, int n)
{
	int lim = g->cy >= g->top ? g->top : 0;
	g->cy = grid__max(g->cy - n, lim);
	g->wrap_pending = false;
}

static void cursor_down(struct grid *g, int n)
{
	int lim = g->cy <= g->bottom ? g->bottom : g->rows - 1;
	g->cy = grid__min(g->cy + n, lim);
	g->wrap_pending = false;
}

static void cursor_right(struct grid *g, int n)
{
	int lim = grid__right_limit(g);
	g->cx = grid__min(g->cx + n, lim);
	g->wrap_pending = false;
}

/* cursor_right while a row may be double (grid.dbl_any): on one, the half's last column (xterm's CursorForward:
 * LineMaxCol), which takes a cursor past the half back to it. The parser's CUF is bytes_cuf_dbl then
 * (grid__dbl_set), so that bytes_cuf tests nothing more (csi: +79 k instructions per 2 MiB with the test). */
/* ED (and DECSED) while a row may be double: the rows it erases become single first (grid__dbl_erase). In
 * bytes_ed's place as cursor_right_dbl is in bytes_cuf's. */
static void ed_dbl(struct grid *g, int mode, bool selective)
{
	if (g->dbl_any)
		grid__dbl_erase(g, mode);
	grid__erase_display(g, mode, selective);
}

static void cursor_right_dbl(struct grid *g, int n)
{
	const int lim = grid__dbl_right(g, grid__right_limit(g));
	g->cx = grid__min(g->cx + n, lim);
	g->wrap_pending = false;
}

static void cursor_left(struct grid *g, int n)
{
	if (unlikely(g->reverse_wrap)) {
		grid__cursor_back_rev(g, n);
		return;
	}
	int lim = grid__left_limit(g);
	g->cx = grid__max(g->cx - n, lim);
	g->wrap_pending = false;
}

/* DSR. The DEC forms (CSI ? Ps n) are answered as xterm answers them at a VT220's level (DA1's), with what a
 * console has: no printer, no DEC locator, no user-defined keys to lock. */
static void device_status(struct grid *g, const struct vt_csi *csi)
{
	int y = g->cy + 1, x = g->cx + 1;
	if (g->origin) {
		/* from the margins' corner, 1 at least: DECRC may bring the cursor back above or left of them
		 * (xterm 379 answers 0 or 65535 there: docs/conformance.md) */
		y = grid__max(y - g->top, 1);
		x = grid__max(x - g->left, 1);
	}
	const bool dec = csi->private_marker == '?';
	switch (p0(csi, 0, 0)) {
	case 5: /* the DEC form answered in that form, as xterm 379 answers it */
		if (!csi->private_marker)
			grid__reply(g, "\033[0n");
		else if (dec)
			grid__reply(g, "\033[?0n");
		break;
	case 6:
		if (dec)
			grid__reply(g, "\033[?%d;%dR", y, x); /* DECXCPR: a VT220 sends no page */
		else
			grid__reply(g, "\033[%d;%dR", y, x);
		break;
	case 15: /* printer: none */
		if (dec)
			grid__reply(g, "\033[?13n");
		break;
	case 25: /* user-defined keys: unlocked, as in xterm */
		if (dec)
			grid__reply(g, "\033[?20n");
		break;
	case 26: /* keyboard: North American (a VT220 adds no more) */
		if (dec)
			grid__reply(g, "\033[?27;1n");
		break;
	case 53: /* the VT340's name for 55, which xterm 379 answers alike */
	case 55: /* DEC locator (VT330): none */
		if (dec)
			grid__reply(g, "\033[?53n");
		break;
	case 56: /* its type: cannot identify */
		if (dec)
			grid__reply(g, "\033[?57;0n");
		break;
	default:
		break;
	}
}

/* XTWINOPS. The reports describe a console: a window that is the whole screen, at 0;0, never iconified, so the
 * screen's size (15, 19) is the text area's (14, 18), in the pixels the program gives the child (TIOCSWINSZ).
 * The title reports (20, 21) are refused, as xterm's default disallowedWindowOps refuses them; the
 * operations that would move or resize a window do nothing. */
static void window_ops(struct grid *g, const struct vt_csi *csi)
{
	switch (p0(csi, 0, 0)) {
	case 11:
		grid__reply(g, "\033[1t");
		break;
	case 13: /* 13 and 13;2 (the text area) */
		grid__reply(g, "\033[3;0;0t");
		break;
	case 14: /* 14 and 14;2 (the window) */
	case 15:
		grid__reply(g, "\033[%d;%d;%dt", p0(csi, 0, 0) - 10, g->rows * g->cell_height, g->cols * g->cell_width);
		break;
	case 16:
		grid__reply(g, "\033[6;%d;%dt", g->cell_height, g->cell_width);
		break;
	case 18:
	case 19:
		grid__reply(g, "\033[%d;%d;%dt", p0(csi, 0, 0) - 10, g->rows, g->cols);
		break;
	case 22:
		grid__title_push(g, p0(csi, 1, 0));
		break;
	case 23:
		grid__title_pop(g, p0(csi, 1, 0));
		break;
	default:
		break;
	}
}

static void set_margins(struct grid *g, const struct vt_csi *csi)
{
	int top = p1(csi, 0, 1) - 1;
	int bottom = p1(csi, 1, g->rows) - 1;
	if (bottom > g->rows - 1)
		bottom = g->rows - 1;
	if (top >= bottom)
		return;
	g->top = top;
	g->bottom = bottom;
	grid__text_gate(g);
	grid__goto_origin(g, 0, 0);
}

static void set_lr_margins(struct grid *g, const struct vt_csi *csi)
{
	int left = p1(csi, 0, 1) - 1;
	int right = p1(csi, 1, g->cols) - 1;
	if (right > g->cols - 1)
		right = g->cols - 1;
	if (left >= right)
		return;
	g->left = left;
	g->right = right;
	grid__goto_origin(g, 0, 0);
	/* grid_feed_bounded feeds one line feed at a time from here on (see there) */
	if (g->work_end != UINT64_MAX)
		vt_parser_stop(g->parser);
}

static void cursor_style(struct grid *g, int v)
{
	if (v > 6)
		return;
	static const enum grid_cursor_shape shapes[] = {
		GRID_CURSOR_BLOCK, GRID_CURSOR_BLOCK,     GRID_CURSOR_BLOCK, GRID_CURSOR_UNDERLINE,
		GRID_CURSOR_UNDERLINE, GRID_CURSOR_BAR, GRID_CURSOR_BAR,
	};
	g->cursor_shape = shapes[v];
	g->cursor_blink = v == 0 || v % 2 == 1;
	g->damaged = true;
}

static void soft_reset(struct grid *g)
{
	/* DECSTR (VT510): modes and the pen back to defaults; the screen stays, and so does a pending wrap (xterm
	 * 379: the next character goes to the next row, also when the right margin it was pending at is gone) */
	grid__reset_state(g, false);
}

static void tab_clear(struct grid *g, int mode)
{
	if (mode == 0)
		g->tabs[g->cx] = 0;
	else if (mode == 3)
		memset(g->tabs, 0, GRID_MAX_DIM);
}

/* XTQMODKEYS for resource which: modifyOtherKeys as set, the others as vt/keys.c encodes (xterm's defaults:
 * modifyKeyboard 0, modifyCursorKeys 2, modifyFunctionKeys 2, modifyKeypadKeys 0). Others get nothing. */
static void query_modkeys(struct grid *g, int which)
{
	static const int fixed[4] = {0, 2, 2, 0};
	if (which >= 0 && which < 4)
		grid__reply(g, "\033[>%d;%dm", which, fixed[which]);
	else if (which == 4)
		grid__reply(g, "\033[>4;%dm", g->modes.keys.modify_other_keys);
}

/* Sequences with a private marker or intermediates (grid__csi's key > 0xff; SM and RM, which have
 * neither, are in its switch). Returns false if not handled. */
static bool csi_special(struct grid *g, const struct vt_csi *csi, uint32_t key)
{
	switch (key) {
	case KEY('?', 0, 'h'): grid__set_mode(g, csi, true); return true;
	case KEY('?', 0, 'l'): grid__set_mode(g, csi, false); return true;
	case KEY('?', '$', 'p'):
	case KEY(0, '$', 'p'): grid__request_mode(g, csi); return true;
	case KEY('?', 0, 's'): grid__save_modes(g, csi, true); return true;  /* XTSAVE */
	case KEY('?', 0, 'r'): grid__save_modes(g, csi, false); return true; /* XTRESTORE */
	/* DECSED, DECSEL: with protection off (grid.protect_off) they erase everything, as ED and EL (xterm);
	 * DECSED 3 still erases no scrollback */
	case KEY('?', 0, 'J'): ed_dbl(g, p0(csi, 0, 0), !g->protect_off || p0(csi, 0, 0) > 2); return true;
	case KEY('?', 0, 'K'): grid__erase_line(g, p0(csi, 0, 0), !g->protect_off); return true;
	case KEY('?', 0, 'n'): device_status(g, csi); return true;
	case KEY('>', 0, 'c'):
		if (p0(csi, 0, 0) == 0)
			grid__reply(g, "\033[>1;10;0c");
		return true;
	case KEY('>', 0, 'q'):
		if (p0(csi, 0, 0) == 0)
			grid__reply(g, "\033P>|%s\033\\", g->xtversion);
		return true;
	case KEY(0, ' ', 'q'): cursor_style(g, p0(csi, 0, 0)); return true;
	case KEY(0, ' ', '@'): grid__shift_cols(g, g->left, p1(csi, 0, 1), false); return true; /* SL */
	case KEY(0, ' ', 'A'): grid__shift_cols(g, g->left, p1(csi, 0, 1), true); return true;  /* SR */
	case KEY(0, '\'', '}'): grid__shift_cols(g, g->cx, p1(csi, 0, 1), true); return true;  /* DECIC */
	case KEY(0, '\'', '~'): grid__shift_cols(g, g->cx, p1(csi, 0, 1), false); return true; /* DECDC */
	case KEY(0, '"', 'q'):
		/* (a Ps past 2 leaves the pen as it was) */
		if (p0(csi, 0, 0) <= 2) {
			g->protect = p0(csi, 0, 0) == 1;
			g->pen_dirty = true;
		}
		/* DEC's protection mode, and not ISO's, after any DECSCA: 0 and past 2 too (xterm 379, measured) */
		g->protect_off = false;
		grid__iso_protect_mode(g, false);
		return true;
	case KEY('?', 0, 'W'): /* DECST8C */
		if (p0(csi, 0, 0) == 5)
			grid__tabs_reset(g);
		return true;
	case KEY(0, '!', 'p'): soft_reset(g); return true;
	case KEY(0, '"', 'p'):
		/* DECSCL: to the level DA1 claims, a soft reset (xterm; the VT220 manual and DEC STD 070). The
		 * second parameter's 8-bit controls are not offered (replies are 7-bit), a higher level is refused,
		 * and a VT100 (61) is not emulated: both are ignored. */
		if (p0(csi, 0, 0) == GRID_CONFORMANCE_LEVEL)
			soft_reset(g);
		return true;
	case KEY(0, '*', 'y'): grid__request_checksum(g, csi); return true; /* DECRQCRA */
	case KEY(0, '$', 'w'): grid__request_pres(g, p0(csi, 0, 0)); return true; /* DECRQPSR */
	case KEY(0, '#', 'y'): grid__select_checksum(g, csi); return true;  /* XTCHECKSUM */
	case KEY('>', 0, 'm'):
		if (p0(csi, 0, 0) == 4)
			g->modes.keys.modify_other_keys = (uint8_t)grid__min(p0(csi, 1, 0), 2);
		return true;
	case KEY('?', 0, 'm'): /* XTQMODKEYS */
		for (unsigned i = 0; i < csi->n_params; i++)
			query_modkeys(g, csi->params[i]);
		return true;
	case KEY('>', 0, 'n'):
		if (p0(csi, 0, 0) == 4)
			g->modes.keys.modify_other_keys = 0;
		return true;
	case KEY('>', 0, 'u'):
	case KEY('<', 0, 'u'):
	case KEY('=', 0, 'u'):
	case KEY('?', 0, 'u'): grid__kitty_keys(g, csi); return true;
	default:
		if (csi->private_marker)
			return false;
		/* xterm's SGR stack and report (grid-xtsgr.c) */
		if ((uint8_t)(key >> 8) == '#')
			return grid__xtsgr_csi(g, csi);
		/* the VT420 rectangle functions (grid-rect-edit.c) */
		return grid__rect_csi(g, csi, (uint8_t)(key >> 8), csi->final);
	}
}

void grid__csi(void *ctx, const struct vt_csi *csi)
{
	struct grid *g = ctx;
	if (likely(csi->final == 'm' && !csi->private_marker && !csi->n_intermediates)) {
		/* SGR: most sequences of colourful output */
		grid__sgr(g, csi);
		g->last_cp = 0;
		return;
	}
	uint32_t key = KEY(csi->private_marker, csi->n_intermediates ? csi->intermediates[0] : 0, csi->final);
	if (csi->n_intermediates > 1)
		return;
	if (key > 0xff) {
		csi_special(g, csi, key);
		g->last_cp = 0;
		return;
	}
	int n = p1(csi, 0, 1);
	switch (csi->final) {
	case '@': grid__insert_chars(g, n); break;
	case 'A': cursor_up(g, n); break;
	case 'B': cursor_down(g, n); break;
	case 'C': cursor_right_dbl(g, n); break;
	case 'D': cursor_left(g, n); break;
	case 'E': cursor_down(g, n); g->cx = grid__cr_col(g); break;
	case 'F': cursor_up(g, n); g->cx = grid__cr_col(g); break;
	case 'G':
	case '`':
		/* in origin mode the row as CUP would place it (xterm: CursorSet with CursorRow, which counts from
		 * the top margin and clamps at it): a cursor above the margins (DECRC) goes down to the top one */
		if (g->origin)
			grid__goto_origin(g, n - 1, grid__max(g->cy - g->top, 0));
		else
			g->cx = grid__clamp(n - 1, 0, g->cols - 1);
		g->wrap_pending = false;
		break;
	case 'H':
	case 'f': grid__goto_origin(g, p1(csi, 1, 1) - 1, n - 1); break;
	case 'I': grid__tab(g, n); break;
	case 'J':
	case 'K':
		if (unlikely(g->iso_protect)) /* (its ED keeps the rows' sizes, as xterm 379's: measured) */
			grid__iso_erase(g, csi->final, p0(csi, 0, 0));
		else if (csi->final == 'J')
			ed_dbl(g, p0(csi, 0, 0), false);
		else
			grid__erase_line(g, p0(csi, 0, 0), false);
		break;
	case 'L': grid__insert_lines(g, n); break;
	case 'M': grid__delete_lines(g, n); break;
	case 'P': grid__delete_chars(g, n); break;
	case 'S':
		grid__scroll_work(g, g->top, g->bottom, n);
		grid__scroll_up(g, g->top, g->bottom, n);
		break;
	case 'T':
		if (csi->n_params <= 1) {
			grid__scroll_work(g, g->top, g->bottom, n);
			grid__scroll_down(g, g->top, g->bottom, n);
		}
		break;
	case 'X':
		if (unlikely(g->iso_protect))
			grid__iso_erase(g, 'X', n);
		else
			grid__erase_chars(g, n);
		break;
	case 'Z': grid__backtab(g, n); break;
	case 'a': /* HPR: clamped as CUP (xterm): the right margin in origin mode, else the screen's edge */
		if (g->origin)
			grid__goto_origin(g, grid__max(g->cx - g->left, 0) + n, grid__max(g->cy - g->top, 0));
		else
			grid__goto(g, g->cx + n, g->cy);
		break;
	case 'b': grid__rep(g, n); break; /* a REP right after it repeats nothing (xterm), as below */
	case 'c':
		if (p0(csi, 0, 0) == 0)
			primary_da(g);
		break;
	case 'd':
		/* the column likewise (CursorCol): left of the margins in origin mode to the left one */
		if (g->origin)
			grid__goto_origin(g, grid__max(g->cx - g->left, 0), n - 1);
		else
			g->cy = grid__clamp(n - 1, 0, g->rows - 1);
		g->wrap_pending = false;
		break;
	case 'e': /* VPR: as HPR, the bottom margin in origin mode, else the screen's edge (xterm.js t0079) */
		if (g->origin)
			grid__goto_origin(g, grid__max(g->cx - g->left, 0), grid__max(g->cy - g->top, 0) + n);
		else
			grid__goto(g, g->cx, g->cy + n);
		break;
	case 'g': tab_clear(g, p0(csi, 0, 0)); break;
	case 'h': grid__set_mode(g, csi, true); break;
	case 'l': grid__set_mode(g, csi, false); break;
	/* (SGR, 'm', returned at the top) */
	case 'n': device_status(g, csi); break;
	case 'r': set_margins(g, csi); break;
	case 's':
		if (g->lr_mode)
			set_lr_margins(g, csi);
		else
			grid__save_cursor(g);
		break;
	case 't': window_ops(g, csi); break;
	case 'u': grid__restore_cursor(g); break;
	default:
		if (csi->final == ']')
			grid__linux_private(g, csi);
		break;
	}
	/* REP repeats a character only right after it (xterm; xterm.js t0040) */
	g->last_cp = 0;
}

/* ------------------------------------------------------------------------------ CSI from its bytes */

/* The cursor moves (CUU, CUD, CUF, CUB, CUP) and erases (ED, EL) of vt_sink.csi_bytes_final (the SGRs are
 * grid__csi_bytes_sgr, grid-sgr-bytes.c): colourful full-screen output sends them per cell or per line, in no
 * predictable order, so the parser calls each kind's function through its table by the final byte, and
 * the number(s) are read without loops. Each does what grid__csi does with the parsed sequence and returns
 * n; anything else goes back to the parser (0): numbers of more than 4 digits (the parser clamps them),
 * more than two of them (CUP) or more than one (the others), ':', a private marker, intermediates,
 * controls. s[n - 1] is the final, s[0..32) readable. */

/* CUU..CUB and ED: one function each (the parser's table dispatches on the final byte), all from this one
 * body; final is a constant in each. EL's is grid__csi_bytes_el, in grid-erase.c's erase page. */
static inline __attribute__((always_inline)) size_t bytes_one(void *ctx, const uint8_t *s, size_t n, uint8_t final)
{
	struct grid *g = ctx;
	const int v = num_one(s, n), n1 = v ? v : 1;
	if (v < 0)
		return 0;
	switch (final) {
	case 'A': cursor_up(g, n1); break;
	case 'B': cursor_down(g, n1); break;
	case 'C': cursor_right(g, n1); break;
	case 'D': cursor_left(g, n1); break;
	default: grid__erase_display(g, v, false); break;
	}
	g->last_cp = 0;
	return n;
}

static size_t bytes_cuu(void *ctx, const uint8_t *s, size_t n) { return bytes_one(ctx, s, n, 'A'); }
static size_t bytes_cud(void *ctx, const uint8_t *s, size_t n) { return bytes_one(ctx, s, n, 'B'); }
static size_t bytes_cuf(void *ctx, const uint8_t *s, size_t n) { return bytes_one(ctx, s, n, 'C'); }
static size_t bytes_cub(void *ctx, const uint8_t *s, size_t n) { return bytes_one(ctx, s, n, 'D'); }
static size_t bytes_ed(void *ctx, const uint8_t *s, size_t n) { return bytes_one(ctx, s, n, 'J'); }

static size_t bytes_ed_dbl(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	const int v = num_one(s, n);
	if (v < 0)
		return 0;
	ed_dbl(g, v, false);
	g->last_cp = 0;
	return n;
}

static size_t bytes_cuf_dbl(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	const int v = num_one(s, n);
	if (v < 0)
		return 0;
	cursor_right_dbl(g, v ? v : 1);
	g->last_cp = 0;
	return n;
}

/* Declines every sequence: the parser then parses it and calls grid__csi */
static size_t bytes_decline(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx, (void)s, (void)n;
	return 0;
}

/* The parser's handlers of CUF, ED and EL from their bytes, by the two modes that take them off their bulk paths:
 * ISO protection (ED and EL through grid__csi, which sends them to grid-iso-protect.c) and a double row
 * (CUF stops at the half, ED makes rows single). One place for both, so that the end of one mode does not put
 * back a handler the other one still replaces. */
void grid__csi_bytes_update(struct grid *g)
{
	if (!g->parser)
		return;
	vt_parser_set_csi_bytes(g->parser, 'C', g->dbl_any ? bytes_cuf_dbl : bytes_cuf);
	vt_parser_set_csi_bytes(g->parser, 'J', g->iso_protect ? bytes_decline : g->dbl_any ? bytes_ed_dbl : bytes_ed);
	vt_parser_set_csi_bytes(g->parser, 'K', g->iso_protect ? bytes_decline : grid__csi_bytes_final['K' & 63]);
}

void grid__dbl_set(struct grid *g, bool any)
{
	const bool changed = g->dbl_any != any;
	g->dbl_any = any;
	if (changed)
		grid__csi_bytes_update(g);
	grid__print_mode(g);
}

/* bytes_cup in origin mode, reached by a jump: bytes_cup then keeps no frame for the call */
__attribute__((noinline)) static size_t cup_origin(struct grid *g, int x1, int y1, size_t n)
{
	grid__goto_origin(g, x1, y1);
	g->last_cp = 0;
	return n;
}

/* The bytes s[0..m - 1) of one of CUP's numbers at the top of a 32-bit word, as digits4 (grid-csi-num.h) with
 * len m - 1, for any m <= 10; m 0 is a number that is not there (the second of "r"). A number of 5+ bytes
 * comes out 0 with every byte kept, which digits_value declines (0 less '0' borrows), so that CUP tests no
 * length. s[0..4) readable. */
static inline uint64_t cup_digits(const uint8_t *s, unsigned m, uint64_t *keep)
{
	static const uint32_t to_top[11] = {0, 0, 1u << 24, 1u << 16, 1u << 8, 1};
	static const uint32_t keeps[11] = {
		0, 0, 0xff000000u, 0xffff0000u, 0xffffff00u, 0xffffffffu,
		0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
	};
	uint32_t w;
	memcpy(&w, s, 4);
	*keep = keeps[m];
	return (uint32_t)(w * to_top[m]);
}

/* CUP: "", "r", "r;c", ";c", "r;" with r and c of up to 4 digits; the ';' found by one vector compare,
 * both numbers converted at once (one in each half of a 64-bit word). No branch on the form: p is the
 * first ';' before the final (e when there is none: tzcnt of semi | 1 << e) and the e - p bytes from it
 * are the second number and its ';' (none when 0); a second ';' is among them and fails digits_value like
 * any other non-digit, and so does a number of 5+ bytes (cup_digits). The branches on the ';' and the
 * lengths took ~16 instructions a CUP more (docs/benchmarks.md, issue 2, session 26). */
static size_t bytes_cup(void *ctx, const uint8_t *s, size_t n)
{
	struct grid *g = ctx;
	const unsigned e = (unsigned)n - 1; /* bytes before the final */
	if (e > 9)
		return 0;
	unsigned semi;
#if defined(__SSE2__) && defined(__GNUC__)
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	semi = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
#else
	semi = 0;
	for (unsigned k = 0; k < e; k++)
		semi |= (unsigned)(s[k] == ';') << k;
#endif
	/* (a ';' at or past the final, in semi's bits above e, comes after bit e: never the first) */
	const size_t p = (unsigned)__builtin_ctz(semi | 1u << e);
	uint64_t k0, k1, rc;
	const uint64_t x = cup_digits(s, (unsigned)p + 1, &k0) | cup_digits(s + p + 1, e - (unsigned)p, &k1) << 32;
	if (!digits_value(x, k0 | k1 << 32, &rc))
		return 0;
	const int r = (int)(rc & 0xffff), c = (int)(rc >> 32), x1 = (c ? c : 1) - 1, y1 = (r ? r : 1) - 1;
	if (unlikely(g->origin))
		return cup_origin(g, x1, y1, n);
	/* grid__goto, without the call: x1 and y1 are >= 0 */
	g->cx = grid__min(x1, g->cols - 1);
	g->cy = grid__min(y1, g->rows - 1);
	g->wrap_pending = false;
	g->last_cp = 0;
	return n;
}

const vt_csi_bytes_fn grid__csi_bytes_final[64] = {
	['A' & 63] = bytes_cuu, ['B' & 63] = bytes_cud, ['C' & 63] = bytes_cuf, ['D' & 63] = bytes_cub,
	['H' & 63] = bytes_cup, ['J' & 63] = bytes_ed,
	['K' & 63] = grid__csi_bytes_el, ['m' & 63] = grid__csi_bytes_sgr,
};

size_t grid__csi_bytes_moves(struct grid *g, const uint8_t *s, size_t n)
{
	vt_csi_bytes_fn f = grid__csi_bytes_final[s[n - 1] & 63];
	if (f == bytes_cuf && g->dbl_any)
		f = bytes_cuf_dbl;
	else if (f == bytes_ed && g->dbl_any)
		f = bytes_ed_dbl;
	return f && f != grid__csi_bytes_sgr ? f(g, s, n) : 0;
}
