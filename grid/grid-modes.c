/* grid/grid-modes.c: SM/RM, DECSET/DECRST, DECRQM, XTSAVE/XTRESTORE, DECSC/DECRC, the alternate screen and the
 * kitty keyboard protocol's flag stack.
 *
 * References: xterm ctlseqs ("CSI ? Pm h", "CSI ? Ps $ p", "CSI ? Pm s", "CSI ? Pm r"), the kitty keyboard protocol
 * (https://sw.kovidgoyal.net/kitty/keyboard-protocol/). DECCOLM (3) changes no width but keeps DEC's side
 * effects (xterm without allowColumnMode ignores it whole: docs/conformance.md says why not here).
 */
#include <string.h>

#include "grid/grid-internal.h"

/* ---------------------------------------------------------------------------------- saved cursor */

void grid__save_cursor(struct grid *g)
{
	struct saved_cursor *s = &g->saved[g->scr == &g->alt];
	s->valid = true;
	s->x = g->cx;
	s->y = g->cy;
	s->wrap_pending = g->wrap_pending;
	s->origin = g->origin;
	s->pen = g->pen;
	if (g->protect)
		s->pen.attrs |= GRID_ATTR_PROTECTED;
	memcpy(s->charsets, g->charsets, sizeof(s->charsets));
	s->gl = g->gl;
	s->gr = g->gr;
}

void grid__restore_cursor(struct grid *g)
{
	struct saved_cursor *s = &g->saved[g->scr == &g->alt];
	if (!s->valid) {
		/* xterm: restoring without a save homes the cursor and resets the rendition */
		memset(&g->pen, 0, sizeof(g->pen));
		g->protect = false;
		g->origin = false;
		memset(g->charsets, CHARSET_ASCII, sizeof(g->charsets));
		g->gl = 0;
		g->gr = 2;
		grid__print_mode(g);
		grid__goto(g, 0, 0);
	} else {
		g->pen = s->pen;
		g->protect = (s->pen.attrs & GRID_ATTR_PROTECTED) != 0;
		g->pen.attrs &= (uint16_t)~GRID_ATTR_PROTECTED;
		g->origin = s->origin;
		memcpy(g->charsets, s->charsets, sizeof(g->charsets));
		g->gl = s->gl;
		g->gr = s->gr;
		grid__print_mode(g);
		grid__goto(g, s->x, s->y);
		if (g->origin) {
			/* placed as CUP in origin mode (xterm's CursorSet with the origin flag): margins set since the
			 * save stop it at the right and bottom ones; above or left of the region it stays */
			g->cx = grid__min(g->cx, g->right);
			g->cy = grid__min(g->cy, g->bottom);
		}
		/* the pending wrap comes back, after the move as in xterm's CursorRestore (do_wrap = wrap_flag); the
		 * VT510's DECSC saves the "wrap flag" too. Only where a wrap can pend (the printers assume it):
		 * xterm's wrap pending at the home position after DECSTR is not copied. xterm.js's t0060/t0061
		 * expect it dropped: recorded on an older xterm, see docs/conformance.md */
		g->wrap_pending = s->wrap_pending && g->cx == grid__right_limit(g);
	}
	g->pen_dirty = true;
	g->erase_dirty = true;
}

/* ------------------------------------------------------------------------------ alternate screen */

void grid__set_alt(struct grid *g, bool on, bool clear)
{
	struct screen *want = on ? &g->alt : &g->primary;
	if (g->scr == want)
		return;
	if (g->sel.active)
		grid_select_clear(g);
	g->scr = want;
	grid__text_gate(g);
	/* grid_work: a switch goes through every row (the clear, the gate, the damage), as an ED of the screen
	 * does: 256 KiB of 1049h/1049l took 7 ms at 212x82 and 70 ms at 1000x1000 uncounted */
	grid__work(g, (uint64_t)g->rows * (uint64_t)g->cols / 32u);
	g->view_offset = 0;
	/* kitty keeps a keyboard-flag stack per screen */
	int k = on ? 1 : 0;
	g->modes.keys.kitty_flags = g->kitty_depth[k] ? g->kitty_stack[k][g->kitty_depth[k] - 1] : 0;
	g->last_x = g->last_y = -1;
	if (on && clear) {
		uint16_t es = grid__erase_style(g);
		for (int y = 0; y < g->rows; y++) {
			grid__line_clear(grid__line(g, y), g->cols, es);
		}
	}
	grid_damage_all(g);
}

/* ------------------------------------------------------------------------------------ DECSET/SM */

/* The tracking modes are one setting, as in xterm (set_mousemode): a reset of any of them turns tracking off,
 * whichever was on (an application that went from 1000 to 1002 may leave with 1000's reset). */
static void set_mouse(struct grid *g, enum grid_mouse_mode m, bool set)
{
	g->modes.mouse = set ? m : GRID_MOUSE_NONE;
}

static void set_mouse_enc(struct grid *g, enum grid_mouse_encoding e, bool set)
{
	if (set)
		g->modes.mouse_encoding = e;
	else if (g->modes.mouse_encoding == e)
		g->modes.mouse_encoding = GRID_MOUSE_ENC_DEFAULT;
}

static void dec_mode(struct grid *g, int mode, bool set)
{
	switch (mode) {
	case 1: g->modes.keys.cursor_keys_app = set; break;
	case 3:
		/* DECCOLM: a console cannot change its width, but the side effects of the VT510 stay:
		 * margins reset, screen cleared, cursor home (xterm ignores the mode without allowColumnMode) */
		g->top = 0;
		g->bottom = g->rows - 1;
		g->left = 0;
		g->right = g->cols - 1;
		grid__text_gate(g);
		if (g->dbl_any)
			grid__dbl_erase(g, 2); /* as ED 2's, xterm's ClearScreen */
		grid__erase_display(g, 2, false);
		grid__goto(g, 0, 0);
		break;
	case 5:
		if (g->modes.reverse_video != set)
			grid_damage_all(g);
		g->modes.reverse_video = set;
		break;
	case 6:
		g->origin = set;
		grid__goto_origin(g, 0, 0);
		break;
	case 7:
		/* the pending wrap stays either way (xterm's do_wrap): set again, the next character wraps */
		g->autowrap = set;
		break;
	case 9: set_mouse(g, GRID_MOUSE_X10, set); break;
	case 12: g->cursor_blink = set; g->damaged = true; break;
	case 25: g->cursor_visible = set; break;
	case 45: g->reverse_wrap = (uint8_t)((g->reverse_wrap & ~REVERSE_WRAP) | (set ? REVERSE_WRAP : 0)); break;
	case 1045:
		g->reverse_wrap = (uint8_t)((g->reverse_wrap & ~REVERSE_WRAP_EXT) | (set ? REVERSE_WRAP_EXT : 0));
		break;
	case 66: g->modes.keys.keypad_app = set; break;
	case 67: g->modes.keys.backspace_sends_bs = set; break;
	case 69:
		g->lr_mode = set;
		if (set && g->dbl_any)
			grid__dbl_reset(g); /* xterm_ResetDouble: margins and double rows exclude each other */
		if (!set) {
			g->left = 0;
			g->right = g->cols - 1;
		}
		break;
	case 1000: set_mouse(g, GRID_MOUSE_NORMAL, set); break;
	case 1001: /* highlight tracking is not implemented; its reset still ends tracking */
		if (!set)
			set_mouse(g, GRID_MOUSE_NONE, false);
		break;
	case 1002: set_mouse(g, GRID_MOUSE_BUTTON, set); break;
	case 1003: set_mouse(g, GRID_MOUSE_ANY, set); break;
	case 1004: g->modes.focus_events = set; break;
	case 1005: set_mouse_enc(g, GRID_MOUSE_ENC_UTF8, set); break;
	case 1006: set_mouse_enc(g, GRID_MOUSE_ENC_SGR, set); break;
	case 1015: set_mouse_enc(g, GRID_MOUSE_ENC_URXVT, set); break;
	case 1016: set_mouse_enc(g, GRID_MOUSE_ENC_SGR_PIXELS, set); break;
	case 1007: g->modes.alternate_scroll = set; break;
	case 1036:
	case 1039: g->modes.keys.alt_sends_escape = set; break;
	case 2004: g->modes.bracketed_paste = set; break;
	case 2026:
		if (!set && g->modes.synchronized) {
			g->sync_ends++;
			/* The update is whole now: a bounded feed (the session's) stops after it, so that the frame loop
			 * can show it before the next update starts (grid_feed_bounded), if it can take a frame now */
			if (g->work_end != UINT64_MAX && (!g->cb.sync_end || g->cb.sync_end(g->ud))) {
				g->work_end = 0;
				vt_parser_stop(g->parser);
			}
		}
		g->modes.synchronized = set;
		if (!set)
			g->damaged = true;
		break;
	case 47:
		grid__set_alt(g, set, false);
		break;
	case 1047:
		if (!set && g->scr == &g->alt) {
			/* xterm clears the alternate screen when leaving it through 1047 */
			uint16_t es = grid__erase_style(g);
			for (int y = 0; y < g->rows; y++)
				grid__line_clear(grid__line(g, y), g->cols, es);
		}
		grid__set_alt(g, set, false);
		break;
	case 1048:
		if (set)
			grid__save_cursor(g);
		else
			grid__restore_cursor(g);
		break;
	case 1049:
		/* xterm does the save, the clear and the restore whichever screen is shown; only the switch
		 * depends on it (ToAlternate/FromAlternate): a repeated 1049h saves into the alternate screen's
		 * slot and clears it again, a 1049l on the normal screen restores as DECRC */
		if (set) {
			grid__save_cursor(g);
			if (g->scr == &g->alt) {
				if (g->dbl_any)
					grid__dbl_erase(g, 2);
				grid__erase_display(g, 2, false);
			}
			else
				grid__set_alt(g, true, true);
			/* the first character on the cleared screen goes where the cursor stands (xterm 379; 47
			 * and 1047 keep the wrap) */
			g->wrap_pending = false;
		} else {
			grid__set_alt(g, false, false);
			struct saved_cursor *s = &g->saved[0];
			grid__restore_cursor(g);
			/* leaving 1049 brings back a pending wrap, unlike DECRC (xterm 379: alacritty's
			 * wrapline_alt_toggle against xterm.js t0060) */
			g->wrap_pending = s->valid && s->wrap_pending && g->cx == grid__right_limit(g);
		}
		break;
	default: break;
	}
}

static void ansi_mode(struct grid *g, int mode, bool set)
{
	switch (mode) {
	case 4: g->insert = set, grid__print_mode(g); break;
	case 20: g->modes.keys.newline_mode = set; break;
	default: break;
	}
}

void grid__set_mode(struct grid *g, const struct vt_csi *csi, bool set)
{
	for (unsigned i = 0; i < csi->n_params; i++) {
		int m = csi->params[i];
		if (m < 0)
			continue;
		if (csi->private_marker == '?')
			dec_mode(g, m, set);
		else if (!csi->private_marker)
			ansi_mode(g, m, set);
	}
}

/* DECRQM: 1 set, 2 reset, 0 not recognised, 3/4 permanently set/reset (a mode a console has fixed). */
static int dec_mode_state(const struct grid *g, int mode)
{
	bool v;
	switch (mode) {
	case 1: v = g->modes.keys.cursor_keys_app; break;
	case 2: return 3; /* DECANM: there is no VT52 mode to leave to */
	case 3: return 4; /* DECCOLM is not supported: permanently reset */
	case 4: return 4; /* DECSCLM: scrolling is never smooth */
	case 5: v = g->modes.reverse_video; break;
	case 6: v = g->origin; break;
	case 7: v = g->autowrap; break;
	case 9: v = g->modes.mouse == GRID_MOUSE_X10; break;
	case 12: v = g->cursor_blink; break;
	case 25: v = g->cursor_visible; break;
	case 45: v = g->reverse_wrap & REVERSE_WRAP; break;
	case 1045: v = g->reverse_wrap & REVERSE_WRAP_EXT; break;
	case 47:
	case 1047:
	case 1049: v = g->scr == &g->alt; break;
	case 66: v = g->modes.keys.keypad_app; break;
	case 67: v = g->modes.keys.backspace_sends_bs; break;
	case 69: v = g->lr_mode; break;
	case 1000: v = g->modes.mouse == GRID_MOUSE_NORMAL; break;
	case 1002: v = g->modes.mouse == GRID_MOUSE_BUTTON; break;
	case 1003: v = g->modes.mouse == GRID_MOUSE_ANY; break;
	case 1004: v = g->modes.focus_events; break;
	case 1005: v = g->modes.mouse_encoding == GRID_MOUSE_ENC_UTF8; break;
	case 1006: v = g->modes.mouse_encoding == GRID_MOUSE_ENC_SGR; break;
	case 1015: v = g->modes.mouse_encoding == GRID_MOUSE_ENC_URXVT; break;
	case 1016: v = g->modes.mouse_encoding == GRID_MOUSE_ENC_SGR_PIXELS; break;
	case 1007: v = g->modes.alternate_scroll; break;
	case 1036:
	case 1039: v = g->modes.keys.alt_sends_escape; break;
	case 1048: v = g->saved[g->scr == &g->alt].valid; break;
	case 2004: v = g->modes.bracketed_paste; break;
	case 2026: v = g->modes.synchronized; break;
	default: return 0;
	}
	return v ? 1 : 2;
}

void grid__request_mode(struct grid *g, const struct vt_csi *csi)
{
	int mode = csi->n_params ? csi->params[0] : VT_PARAM_DEFAULT;
	if (mode < 0)
		mode = 0;
	if (csi->private_marker == '?') {
		grid__reply(g, "\033[?%d;%d$y", mode, dec_mode_state(g, mode));
		return;
	}
	int st;
	switch (mode) {
	case 4: st = g->insert ? 1 : 2; break;
	case 20: st = g->modes.keys.newline_mode ? 1 : 2; break;
	case 2: st = 4; break;  /* KAM: the keyboard is never locked */
	case 12: st = 3; break; /* SRM: set, no local echo (VT510 SRM) */
	/* GATM, CRM, SRTM, VEM, HEM, PUM, FEAM..TSM, EBM: ECMA-48 modes a console has reset, as xterm reports */
	case 1: case 3: case 5: case 7: case 10: case 11:
	case 13: case 14: case 15: case 16: case 17: case 18: case 19: st = 4; break;
	default: st = 0; break;
	}
	grid__reply(g, "\033[%d;%d$y", mode, st);
}

/* ---------------------------------------------------------------------------- XTSAVE/XTRESTORE */

/* One saved value per mode, as xterm's save_modes (charproc.c savemodes/restoremodes): the tracking modes
 * 1000-1003 share one slot holding the whole tracking mode (9 has its own, holding the same), the encodings one,
 * the alternate screen modes one (which screen is shown). xterm 379 saves fewer modes than DECSET sets (not 12,
 * 1004, 1036/1039, 1045, 2004 or 2026); ctlseqs says the values are those of DECSET, so all are saved here. */
enum xtsave_slot {
	XS_DECCKM, XS_DECSCNM, XS_DECOM, XS_DECAWM, XS_X10_MOUSE, XS_BLINK, XS_DECTCEM, XS_REVWRAP, XS_REVWRAP_EXT,
	XS_DECNKM, XS_DECBKM, XS_DECLRMM, XS_MOUSE, XS_FOCUS, XS_MOUSE_ENC, XS_ALT_SCROLL, XS_META_ESC, XS_ALT_ESC,
	XS_PASTE, XS_SYNC, XS_ALT_SCREEN, XS_COUNT
};
_Static_assert(XS_COUNT == GRID_XTSAVE_SLOTS, "GRID_XTSAVE_SLOTS out of step");

static int xtsave_slot(int mode)
{
	switch (mode) {
	case 1: return XS_DECCKM;
	case 5: return XS_DECSCNM;
	case 6: return XS_DECOM;
	case 7: return XS_DECAWM;
	case 9: return XS_X10_MOUSE;
	case 12: return XS_BLINK;
	case 25: return XS_DECTCEM;
	case 45: return XS_REVWRAP;
	case 1045: return XS_REVWRAP_EXT;
	case 66: return XS_DECNKM;
	case 67: return XS_DECBKM;
	case 69: return XS_DECLRMM;
	case 1000: case 1001: case 1002: case 1003: return XS_MOUSE;
	case 1004: return XS_FOCUS;
	case 1005: case 1006: case 1015: case 1016: return XS_MOUSE_ENC;
	case 1007: return XS_ALT_SCROLL;
	case 1036: return XS_META_ESC;
	case 1039: return XS_ALT_ESC;
	case 2004: return XS_PASTE;
	case 2026: return XS_SYNC;
	case 47: case 1047: case 1049: return XS_ALT_SCREEN;
	default: return -1;
	}
}

static void save_mode(struct grid *g, int mode)
{
	if (mode == 1048) {
		grid__save_cursor(g); /* xterm: CursorSave, as DECSET 1048 */
		return;
	}
	int s = xtsave_slot(mode);
	if (s == XS_X10_MOUSE || s == XS_MOUSE)
		g->xtsave[s] = (uint16_t)g->modes.mouse;
	else if (s == XS_MOUSE_ENC)
		g->xtsave[s] = (uint16_t)g->modes.mouse_encoding;
	else if (s >= 0)
		g->xtsave[s] = dec_mode_state(g, mode) == 1;
}

static void restore_mode(struct grid *g, int mode)
{
	if (mode == 1048) {
		grid__restore_cursor(g);
		return;
	}
	int s = xtsave_slot(mode);
	if (s < 0)
		return;
	uint16_t v = g->xtsave[s];
	switch (s) {
	case XS_X10_MOUSE:
	case XS_MOUSE: g->modes.mouse = (enum grid_mouse_mode)v; break;
	case XS_MOUSE_ENC: g->modes.mouse_encoding = (enum grid_mouse_encoding)v; break;
	/* only the switch (xterm's ToAlternate without a clear, FromAlternate): no clear, no cursor restore,
	 * whichever of the three modes */
	case XS_ALT_SCREEN: grid__set_alt(g, v, false); break;
	/* the rest as DECSET/DECRST would (DECOM homes the cursor, as xterm's restore does) */
	default: dec_mode(g, mode, v); break;
	}
}

void grid__save_modes(struct grid *g, const struct vt_csi *csi, bool save)
{
	for (unsigned i = 0; i < csi->n_params; i++) {
		if (save)
			save_mode(g, csi->params[i]);
		else
			restore_mode(g, csi->params[i]);
	}
}

/* ------------------------------------------------------------------------------ kitty keyboard */

void grid__kitty_keys(struct grid *g, const struct vt_csi *csi)
{
	int s = g->scr == &g->alt;
	uint8_t *stack = g->kitty_stack[s];
	uint8_t *depth = &g->kitty_depth[s];
	uint8_t cur = *depth ? stack[*depth - 1] : 0;
	int v = csi->n_params ? csi->params[0] : VT_PARAM_DEFAULT;
	switch (csi->private_marker) {
	case '?':
		grid__reply(g, "\033[?%uu", cur);
		return;
	case '>':
		if (*depth == KITTY_STACK_MAX) {
			/* full: the oldest entry goes, as kitty does */
			memmove(stack, stack + 1, KITTY_STACK_MAX - 1);
			(*depth)--;
		}
		stack[(*depth)++] = (uint8_t)((v < 0 ? 0 : v) & 0x1f);
		break;
	case '<': {
		int n = v <= 0 ? 1 : v;
		*depth = n >= *depth ? 0 : (uint8_t)(*depth - n);
		break;
	}
	case '=': {
		uint8_t flags = (uint8_t)((v < 0 ? 0 : v) & 0x1f);
		int how = csi->n_params > 1 && csi->params[1] > 0 ? csi->params[1] : 1;
		if (how > 3)
			return; /* no such mode: the flags stay, as in kitty and foot */
		if (how == 2)
			flags |= cur;
		else if (how == 3)
			flags = cur & (uint8_t)~flags;
		if (*depth == 0)
			stack[(*depth)++] = flags;
		else
			stack[*depth - 1] = flags;
		break;
	}
	default:
		return;
	}
	g->modes.keys.kitty_flags = *depth ? stack[*depth - 1] : 0;
}
