/* vt/keys.c: the key encoder (key event + terminal modes -> the bytes an application reads).
 *
 * Specifications transcribed here:
 * - xterm, "Xterm Control Sequences", sections "PC-Style Function Keys" and "VT220-Style Function Keys"
 *   (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html): cursor keys CSI/SS3 A-D with DECCKM, Home/End
 *   CSI/SS3 H/F, CSI n ~ editing keys, F1-F4 SS3 P-S, F5-F12 CSI 15..24 ~, the modifier parameter 1+mods
 *   ("CSI 1 ; m A", "CSI n ; m ~"), the application keypad (DECKPAM: SS3 p..y, M, j, k, l, m, n, o, X;
 *   modified as "SS3 m final") and modifyOtherKeys ("CSI 27 ; m ; code ~").
 * - kitty's keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/): "CSI code:alternates ;
 *   mods:event ; text u", progressive enhancement flags 1 (disambiguate), 2 (event types), 4 (alternate
 *   keys), 8 (all keys as escape codes), 16 (associated text), and its functional-key number table.
 *
 * Deviations, on purpose:
 * - F13-F24 in the legacy encoding are Shift+F1..F12 (what xterm sends with a PC keyboard, "CSI 1;2P" for F13),
 *   with any further modifiers added to that Shift.
 * - Ctrl with a character outside kitty's "legacy ctrl mapping" table and X11's rule (Ctrl+1, Ctrl+é) sends
 *   the character itself, as xterm does; Ctrl+`, Ctrl+{, Ctrl+| and Ctrl+}, which kitty's table leaves out,
 *   send NUL, ESC, FS and GS as in xterm; a character of another script than Latin (vt_non_latin) falls back
 *   to its US-layout key (Ctrl+С sends ^C, Ctrl+Х ESC), a Latin layout's letters do not (German Ctrl+ü is ü).
 * - Keypad keys that type a character (NumLock on, or DECKPAM off) take Alt as the main keys do, with an ESC
 *   before it; xterm sends the character alone. While NumLock is on they send their characters whatever
 *   DECKPAM says, as xterm does with its default numLock resource (input.c forces keypad_mode off when the
 *   NumLock modifier is set).
 * - With kitty flag 2 but not 8, keys that are sent as plain text or as legacy Enter/Tab/Backspace bytes
 *   report no release event (the specification's wording; kitty itself has varied between versions). A key
 *   whose press keeps its legacy bytes for other reasons (Ctrl+c without flag 1) reports its release.
 * - F3 is "CSI 13 ~" in the kitty encoding ("CSI R" would be a cursor position report).
 * - Focus events are never sent (a console has no focus); that is grid/'s business, not this file's.
 */
#include "vt/vt.h"

#include <string.h>

#define FLAG_DISAMBIGUATE 1u
#define FLAG_EVENTS 2u
#define FLAG_ALTERNATES 4u
#define FLAG_ALL_KEYS 8u
#define FLAG_TEXT 16u

/* The modifiers xterm's legacy parameter carries (Shift, Alt, Ctrl, Meta=Super): bits 0..3. */
#define LEGACY_MODS (VT_MOD_SHIFT | VT_MOD_ALT | VT_MOD_CTRL | VT_MOD_SUPER)
#define LOCK_MODS (VT_MOD_CAPS | VT_MOD_NUM)

/* A bounded writer: every put checks the room left and marks overflow instead of writing past cap. */
struct out {
	uint8_t *buf;
	size_t cap;
	size_t n;
	bool overflow;
};

static void put_byte(struct out *o, uint8_t b)
{
	if (o->n >= o->cap) {
		o->overflow = true;
		return;
	}
	o->buf[o->n++] = b;
}

static void put_str(struct out *o, const char *s)
{
	while (*s)
		put_byte(o, (uint8_t)*s++);
}

static void put_num(struct out *o, uint32_t v)
{
	char tmp[10];
	int i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		put_byte(o, (uint8_t)tmp[--i]);
}

static void put_utf8(struct out *o, uint32_t cp)
{
	char u[4];
	unsigned n = vt_utf8_encode(cp, u);
	for (unsigned i = 0; i < n; i++)
		put_byte(o, (uint8_t)u[i]);
}

/* ---------------------------------------------------------------------------------- key tables */

/* How a non-text key is written: CSI num ; mods final, where num == 1 with final != '~' is the
 * "CSI 1 ; m X" form whose 1 is omitted without modifiers. ss3 says whether the unmodified key uses SS3
 * (always for F1-F4; under DECCKM for the cursor keys, Home and End). kitty is its kitty number and final. */
struct fkey {
	uint16_t num;
	char final;
	uint8_t ss3; /* 0 never, 1 always, 2 under DECCKM */
	uint32_t kitty;
	char kitty_final;
};

static const struct fkey fkeys[VT_KEY_COUNT_] = {
	[VT_KEY_UP] = {1, 'A', 2, 1, 'A'},
	[VT_KEY_DOWN] = {1, 'B', 2, 1, 'B'},
	[VT_KEY_RIGHT] = {1, 'C', 2, 1, 'C'},
	[VT_KEY_LEFT] = {1, 'D', 2, 1, 'D'},
	[VT_KEY_HOME] = {1, 'H', 2, 1, 'H'},
	[VT_KEY_END] = {1, 'F', 2, 1, 'F'},
	[VT_KEY_INSERT] = {2, '~', 0, 2, '~'},
	[VT_KEY_DELETE] = {3, '~', 0, 3, '~'},
	[VT_KEY_PAGE_UP] = {5, '~', 0, 5, '~'},
	[VT_KEY_PAGE_DOWN] = {6, '~', 0, 6, '~'},
	[VT_KEY_F1] = {1, 'P', 1, 1, 'P'},
	[VT_KEY_F1 + 1] = {1, 'Q', 1, 1, 'Q'},
	[VT_KEY_F1 + 2] = {1, 'R', 1, 13, '~'},
	[VT_KEY_F1 + 3] = {1, 'S', 1, 1, 'S'},
	[VT_KEY_F1 + 4] = {15, '~', 0, 15, '~'},
	[VT_KEY_F1 + 5] = {17, '~', 0, 17, '~'},
	[VT_KEY_F1 + 6] = {18, '~', 0, 18, '~'},
	[VT_KEY_F1 + 7] = {19, '~', 0, 19, '~'},
	[VT_KEY_F1 + 8] = {20, '~', 0, 20, '~'},
	[VT_KEY_F1 + 9] = {21, '~', 0, 21, '~'},
	[VT_KEY_F1 + 10] = {23, '~', 0, 23, '~'},
	[VT_KEY_F1 + 11] = {24, '~', 0, 24, '~'},
	[VT_KEY_KP_BEGIN] = {1, 'E', 2, 1, 'E'},
	[VT_KEY_MENU] = {29, '~', 0, 57363, 'u'},
	[VT_KEY_PAUSE] = {0, 0, 0, 57362, 'u'},
	[VT_KEY_PRINT] = {0, 0, 0, 57361, 'u'},
	[VT_KEY_SCROLL_LOCK] = {0, 0, 0, 57359, 'u'},
	[VT_KEY_CAPS_LOCK] = {0, 0, 0, 57358, 'u'},
	[VT_KEY_NUM_LOCK] = {0, 0, 0, 57360, 'u'},
	[VT_KEY_LEFT_SHIFT] = {0, 0, 0, 57441, 'u'},
	[VT_KEY_LEFT_CTRL] = {0, 0, 0, 57442, 'u'},
	[VT_KEY_LEFT_ALT] = {0, 0, 0, 57443, 'u'},
	[VT_KEY_LEFT_SUPER] = {0, 0, 0, 57444, 'u'},
	[VT_KEY_RIGHT_SHIFT] = {0, 0, 0, 57447, 'u'},
	[VT_KEY_RIGHT_CTRL] = {0, 0, 0, 57448, 'u'},
	[VT_KEY_RIGHT_ALT] = {0, 0, 0, 57449, 'u'},
	[VT_KEY_RIGHT_SUPER] = {0, 0, 0, 57450, 'u'},
	[VT_KEY_LEFT_HYPER] = {0, 0, 0, 57445, 'u'},
	[VT_KEY_RIGHT_HYPER] = {0, 0, 0, 57451, 'u'},
	[VT_KEY_ISO_LEVEL3_SHIFT] = {0, 0, 0, 57453, 'u'},
	[VT_KEY_ISO_LEVEL5_SHIFT] = {0, 0, 0, 57454, 'u'},
	/* kitty's MEDIA_PLAY_PAUSE (57430) and MEDIA_REVERSE (57431) have no keysym of their own in xkb */
	[VT_KEY_MEDIA_PLAY] = {0, 0, 0, 57428, 'u'},
	[VT_KEY_MEDIA_PAUSE] = {0, 0, 0, 57429, 'u'},
	[VT_KEY_MEDIA_STOP] = {0, 0, 0, 57432, 'u'},
	[VT_KEY_MEDIA_FAST_FORWARD] = {0, 0, 0, 57433, 'u'},
	[VT_KEY_MEDIA_REWIND] = {0, 0, 0, 57434, 'u'},
	[VT_KEY_MEDIA_TRACK_NEXT] = {0, 0, 0, 57435, 'u'},
	[VT_KEY_MEDIA_TRACK_PREVIOUS] = {0, 0, 0, 57436, 'u'},
	[VT_KEY_MEDIA_RECORD] = {0, 0, 0, 57437, 'u'},
	[VT_KEY_LOWER_VOLUME] = {0, 0, 0, 57438, 'u'},
	[VT_KEY_RAISE_VOLUME] = {0, 0, 0, 57439, 'u'},
	[VT_KEY_MUTE_VOLUME] = {0, 0, 0, 57440, 'u'},
	[VT_KEY_ENTER] = {0, 0, 0, 13, 'u'},
	[VT_KEY_TAB] = {0, 0, 0, 9, 'u'},
	[VT_KEY_BACKSPACE] = {0, 0, 0, 127, 'u'},
	[VT_KEY_ESCAPE] = {0, 0, 0, 27, 'u'},
};

/* Keypad keys that NumLock does not turn into cursor keys: their DECKPAM final and their character. */
struct kpkey {
	char app_final;
	char ch;
};

static const struct kpkey kpkeys[] = {
	[0] = {'p', '0'}, [1] = {'q', '1'}, [2] = {'r', '2'}, [3] = {'s', '3'}, [4] = {'t', '4'},
	[5] = {'u', '5'}, [6] = {'v', '6'}, [7] = {'w', '7'}, [8] = {'x', '8'}, [9] = {'y', '9'},
	[VT_KEY_KP_DECIMAL - VT_KEY_KP_0] = {'n', '.'},
	[VT_KEY_KP_DIVIDE - VT_KEY_KP_0] = {'o', '/'},
	[VT_KEY_KP_MULTIPLY - VT_KEY_KP_0] = {'j', '*'},
	[VT_KEY_KP_SUBTRACT - VT_KEY_KP_0] = {'m', '-'},
	[VT_KEY_KP_ADD - VT_KEY_KP_0] = {'k', '+'},
	[VT_KEY_KP_ENTER - VT_KEY_KP_0] = {'M', '\r'},
	[VT_KEY_KP_EQUAL - VT_KEY_KP_0] = {'X', '='},
	[VT_KEY_KP_SEPARATOR - VT_KEY_KP_0] = {'l', ','},
};

static bool is_kp_char_key(enum vt_keysym k)
{
	return k >= VT_KEY_KP_0 && k <= VT_KEY_KP_SEPARATOR;
}

static bool is_kp_key(enum vt_keysym k)
{
	return k >= VT_KEY_KP_0 && k <= VT_KEY_KP_BEGIN;
}

/* NumLock-off keypad keys behave as the editing/cursor key they are labelled with (KP_BEGIN stays). */
static enum vt_keysym kp_to_main(enum vt_keysym k)
{
	switch (k) {
	case VT_KEY_KP_UP: return VT_KEY_UP;
	case VT_KEY_KP_DOWN: return VT_KEY_DOWN;
	case VT_KEY_KP_RIGHT: return VT_KEY_RIGHT;
	case VT_KEY_KP_LEFT: return VT_KEY_LEFT;
	case VT_KEY_KP_HOME: return VT_KEY_HOME;
	case VT_KEY_KP_END: return VT_KEY_END;
	case VT_KEY_KP_INSERT: return VT_KEY_INSERT;
	case VT_KEY_KP_DELETE: return VT_KEY_DELETE;
	case VT_KEY_KP_PAGE_UP: return VT_KEY_PAGE_UP;
	case VT_KEY_KP_PAGE_DOWN: return VT_KEY_PAGE_DOWN;
	case VT_KEY_KP_ENTER: return VT_KEY_ENTER;
	default: return k;
	}
}

static bool is_modifier_key(enum vt_keysym k)
{
	return k >= VT_KEY_LEFT_SHIFT && k <= VT_KEY_LAST_MODIFIER_;
}

static bool is_lock_key(enum vt_keysym k)
{
	return k == VT_KEY_CAPS_LOCK || k == VT_KEY_NUM_LOCK || k == VT_KEY_SCROLL_LOCK;
}

/* The C0 control Ctrl turns an ASCII character into (kitty's "legacy ctrl mapping", a superset of the
 * VT100's table 3-5, with X11's and xkbcommon's `, {, | and } that xterm and the xkb-based terminals send),
 * or -1 when Ctrl leaves the character alone. */
static int ctrl_char(uint32_t c)
{
	if (c >= 'a' && c <= 'z')
		return (int)(c - 'a' + 1);
	if (c >= 'A' && c <= 'Z')
		return (int)(c - 'A' + 1);
	switch (c) {
	case ' ': case '@': case '`': case '2': return 0x00;
	case '[': case '{': case '3': return 0x1b;
	case '\\': case '|': case '4': return 0x1c;
	case ']': case '}': case '5': return 0x1d;
	case '^': case '~': case '6': return 0x1e;
	case '_': case '/': case '7': return 0x1f;
	case '?': case '8': return 0x7f;
	default: return -1;
	}
}

static bool is_control_cp(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/* ------------------------------------------------------------------------- xterm (legacy) encoding */

/* CSI num ; m final, or the unmodified short forms (SS3 X, CSI X, CSI num ~). */
static void put_fkey(struct out *o, const struct fkey *f, unsigned mods, bool decckm)
{
	unsigned m = 1 + (mods & LEGACY_MODS);

	if (m == 1 && f->final != '~' && (f->ss3 == 1 || (f->ss3 == 2 && decckm))) {
		put_str(o, "\033O");
		put_byte(o, (uint8_t)f->final);
		return;
	}
	put_str(o, "\033[");
	if (f->final == '~' || m > 1)
		put_num(o, f->num);
	if (m > 1) {
		put_byte(o, ';');
		put_num(o, m);
	}
	put_byte(o, (uint8_t)f->final);
}

static void put_modify_other(struct out *o, unsigned mods, uint32_t code)
{
	put_str(o, "\033[27;");
	put_num(o, 1 + (mods & LEGACY_MODS));
	put_byte(o, ';');
	put_num(o, code);
	put_byte(o, '~');
}

static bool alt_prefix(unsigned mods, const struct vt_key_modes *m)
{
	return (mods & VT_MOD_ALT) && m->alt_sends_escape;
}

/* Enter, Tab, Backspace, Escape: the C0 table of kitty's legacy section, which is also xterm's default.
 * modifyOtherKeys turns their modified forms into CSI 27 ; m ; code ~ (level 1: with Ctrl, Enter also
 * with Shift and Escape with Shift and Alt, as in xterm; Shift+Tab keeps its CSI Z back-tab). Backspace is as in xterm's input.c: level 1
 * leaves it alone (a key "with well-known behavior"), at level 2 Ctrl alone stays the DEL/BS toggle, and
 * its code is the byte the key sends. */
static void legacy_c0_key(struct out *o, enum vt_keysym key, unsigned mods,
			  const struct vt_key_modes *m)
{
	static const uint8_t codes[] = {[VT_KEY_ENTER] = 13, [VT_KEY_TAB] = 9, [VT_KEY_ESCAPE] = 27};
	unsigned level = m->modify_other_keys;
	bool shift_tab = key == VT_KEY_TAB && (mods & LEGACY_MODS) == VT_MOD_SHIFT;
	unsigned level1 = key == VT_KEY_ENTER ? VT_MOD_CTRL | VT_MOD_SHIFT : VT_MOD_CTRL;
	/* level 1 and Escape with Shift and Alt: its legacy ESC ESC would be Alt+Escape's (xterm 379 reports
	 * it too; Shift+Escape alone stays ESC there) */
	if (key == VT_KEY_ESCAPE && (mods & (VT_MOD_SHIFT | VT_MOD_ALT)) == (VT_MOD_SHIFT | VT_MOD_ALT))
		level1 |= VT_MOD_SHIFT;
	/* Ctrl swaps the two erase characters, so both stay reachable whatever the setting. */
	uint8_t erase = (m->backspace_sends_bs != !!(mods & VT_MOD_CTRL)) ? 0x08 : 0x7f;

	if (key == VT_KEY_BACKSPACE) {
		if (level >= 2 && (mods & LEGACY_MODS & ~(unsigned)VT_MOD_CTRL)) {
			put_modify_other(o, mods, erase);
			return;
		}
	} else if (!shift_tab && ((level >= 2 && (mods & LEGACY_MODS)) || (level == 1 && (mods & level1)))) {
		put_modify_other(o, mods, codes[key]);
		return;
	}
	/* Not before the back-tab, as xterm 379: readline took ESC CSI Z as M-ESC (complete) and typed "[Z". */
	if (alt_prefix(mods, m) && !(key == VT_KEY_TAB && (mods & VT_MOD_SHIFT)))
		put_byte(o, 0x1b);
	switch (key) {
	case VT_KEY_ENTER:
		put_str(o, m->newline_mode ? "\r\n" : "\r");
		break;
	case VT_KEY_TAB:
		put_str(o, (mods & VT_MOD_SHIFT) ? "\033[Z" : "\t");
		break;
	case VT_KEY_BACKSPACE:
		put_byte(o, erase);
		break;
	default:
		put_byte(o, 0x1b);
		break;
	}
}

/* A key that produces a character. */
static void legacy_text_key(struct out *o, const struct vt_key_event *ev, unsigned mods,
			    const struct vt_key_modes *m)
{
	uint32_t c = ev->text ? ev->text : ev->unshifted;
	unsigned level = m->modify_other_keys;
	bool ctrl = mods & VT_MOD_CTRL;
	int cc = -1;

	if (!c)
		return;
	if (ctrl) {
		cc = ctrl_char(c);
		/* a letter of another script than Latin stands for its US key (Ctrl+С is ^C); a Latin layout's own
		 * letters (German ü on the [ key, French é on the 2 key) are sent as they are, as in xterm */
		if (cc < 0 && vt_non_latin(c) && ev->base)
			cc = ctrl_char(ev->base);
	}
	/* modifyOtherKeys level 2 reports every modified key but plain Shift+character; level 1 only those whose
	 * legacy form loses the modifier (Ctrl+1, Ctrl+Shift+letter). */
	if ((level >= 2 && (mods & (VT_MOD_ALT | VT_MOD_CTRL | VT_MOD_SUPER))) ||
	    (level >= 2 && c == ' ' && (mods & VT_MOD_SHIFT)) ||
	    (level == 1 && ctrl && (cc < 0 || (mods & VT_MOD_SHIFT)))) {
		put_modify_other(o, mods, c);
		return;
	}
	if (alt_prefix(mods, m))
		put_byte(o, 0x1b);
	if (cc >= 0)
		put_byte(o, (uint8_t)cc);
	else
		put_utf8(o, c);
}

static void legacy_keypad_key(struct out *o, const struct vt_key_event *ev, unsigned mods,
			      const struct vt_key_modes *m)
{
	const struct kpkey *k = &kpkeys[ev->key - VT_KEY_KP_0];
	unsigned mod_param = 1 + (mods & LEGACY_MODS);

	/* NumLock wins over DECKPAM, as in xterm: curses programs set DECKPAM with every smkx, and the number
	 * pad must still type numbers in them. Modifiers, Alt among them, go into SS3's parameter, as xterm's
	 * input.c writes them for its default (PC-style) keyboard. */
	if (m->keypad_app && !(ev->mods & VT_MOD_NUM)) {
		put_str(o, "\033O");
		if (mod_param > 1)
			put_num(o, mod_param);
		put_byte(o, (uint8_t)k->app_final);
		return;
	}
	if (alt_prefix(mods, m))
		put_byte(o, 0x1b);
	if (ev->key == VT_KEY_KP_ENTER) {
		put_str(o, m->newline_mode ? "\r\n" : "\r");
	} else {
		put_utf8(o, ev->text ? ev->text : (uint32_t)k->ch);
	}
}

static void encode_legacy(struct out *o, const struct vt_key_event *ev, const struct vt_key_modes *m)
{
	unsigned mods = ev->mods & ~LOCK_MODS;
	enum vt_keysym key = ev->key;

	if (mods & VT_MOD_META)
		mods = (mods & ~VT_MOD_META) | VT_MOD_ALT;
	if (ev->action == VT_KEY_RELEASE)
		return;
	if (is_kp_char_key(key)) {
		legacy_keypad_key(o, ev, mods, m);
		return;
	}
	key = kp_to_main(key);
	if (key >= VT_KEY_F1 + 12 && key <= VT_KEY_F24) {
		key -= 12;
		mods |= VT_MOD_SHIFT;
	}
	switch (key) {
	case VT_KEY_NONE:
		legacy_text_key(o, ev, mods, m);
		return;
	case VT_KEY_ENTER: case VT_KEY_TAB: case VT_KEY_BACKSPACE: case VT_KEY_ESCAPE:
		legacy_c0_key(o, key, mods, m);
		return;
	default:
		if (key < VT_KEY_COUNT_ && fkeys[key].final)
			put_fkey(o, &fkeys[key], mods, m->cursor_keys_app);
		return;
	}
}

/* ------------------------------------------------------------------------------------ kitty encoding */

/* The fields of "CSI key:shifted:base ; mods:event ; text final". Zero fields are left out. */
struct kitty_csi {
	uint32_t key;
	uint32_t shifted;
	uint32_t base;
	unsigned mods;  /* kitty bits, without the +1 */
	unsigned event; /* 0 (press, not reported), 2 repeat, 3 release */
	uint32_t text;
	char final;
};

static void put_kitty_csi(struct out *o, const struct kitty_csi *k)
{
	bool second = k->mods || k->event;
	bool alternates = k->shifted || k->base;

	put_str(o, "\033[");
	if (k->key != 1 || k->final == 'u' || k->final == '~' || alternates || second || k->text)
		put_num(o, k->key);
	if (alternates) {
		put_byte(o, ':');
		if (k->shifted)
			put_num(o, k->shifted);
		if (k->base) {
			put_byte(o, ':');
			put_num(o, k->base);
		}
	}
	if (second || k->text)
		put_byte(o, ';');
	if (second)
		put_num(o, k->mods + 1);
	if (k->event) {
		put_byte(o, ':');
		put_num(o, k->event);
	}
	if (k->text) {
		put_byte(o, ';');
		put_num(o, k->text);
	}
	put_byte(o, (uint8_t)k->final);
}

static uint32_t ascii_lower(uint32_t c)
{
	return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* Flag 16's text field (with flag 8, which alone makes a key with text an escape code): the character the
 * key types, 0 for none, a release, or a Ctrl, Alt or Super that makes it a shortcut rather than typing. */
static uint32_t associated_text(const struct vt_key_event *ev, unsigned mods, unsigned flags)
{
	if ((flags & (FLAG_TEXT | FLAG_ALL_KEYS)) != (FLAG_TEXT | FLAG_ALL_KEYS) || ev->action == VT_KEY_RELEASE ||
	    !ev->text || is_control_cp(ev->text) || (mods & (VT_MOD_CTRL | VT_MOD_ALT | VT_MOD_SUPER)))
		return 0;
	return ev->text;
}

/* kitty's "Legacy text keys": without flag 1 a key keeps its legacy bytes only with Shift, Alt, Ctrl,
 * Shift+Alt or Ctrl+Alt (and Space, by the C0 table, also with Ctrl+Shift); any other combination (Ctrl+Shift,
 * Super, Ctrl+Alt+Shift) would lose modifiers there, so it is a CSI u escape code. */
static bool kitty_legacy_mods(uint32_t key, unsigned mods)
{
	switch (mods) {
	case VT_MOD_SHIFT: case VT_MOD_ALT: case VT_MOD_CTRL:
	case VT_MOD_SHIFT | VT_MOD_ALT: case VT_MOD_CTRL | VT_MOD_ALT:
		return true;
	case VT_MOD_CTRL | VT_MOD_SHIFT:
		return key == ' ';
	default:
		return false;
	}
}

/* A key with a character: plain text when nothing but Shift is held (and flag 8 is off), otherwise
 * CSI code u, or the legacy bytes when flag 1 is off and the modifiers allow them. */
static void kitty_text_key(struct out *o, const struct vt_key_event *ev, unsigned mods, unsigned flags,
			   const struct vt_key_modes *m)
{
	uint32_t c = ev->text ? ev->text : ev->unshifted;
	bool all = flags & FLAG_ALL_KEYS;
	struct kitty_csi k = {.final = 'u', .mods = mods};

	if (!c || (ev->action == VT_KEY_RELEASE && !(flags & FLAG_EVENTS)))
		return;
	k.key = ev->unshifted ? ev->unshifted : ascii_lower(c);
	if (!all) {
		if (!(mods & ~(unsigned)VT_MOD_SHIFT) && !is_control_cp(c)) {
			if (ev->action != VT_KEY_RELEASE)
				put_utf8(o, c);
			return;
		}
		/* Only the press keeps the legacy bytes: with flag 2 a repeat or a release is an event, sent as
		 * CSI u as kitty does (without flag 2 a release never gets here and a repeat is a press). */
		if (!(flags & FLAG_DISAMBIGUATE) && kitty_legacy_mods(k.key, mods) &&
		    (ev->action == VT_KEY_PRESS || !(flags & FLAG_EVENTS))) {
			legacy_text_key(o, ev, mods, m);
			return;
		}
	}
	if (flags & FLAG_ALTERNATES) {
		if ((mods & VT_MOD_SHIFT) && ev->text && ev->text != k.key)
			k.shifted = ev->text;
		if (ev->base && ev->base != k.key)
			k.base = ev->base;
	}
	if ((flags & FLAG_EVENTS) && ev->action != VT_KEY_PRESS)
		k.event = ev->action;
	k.text = associated_text(ev, mods, flags);
	put_kitty_csi(o, &k);
}

/* Legacy bytes kitty keeps for Enter, Tab and Backspace (unmodified always; Alt, Shift+Tab and
 * Ctrl+Backspace without flag 1) and for a plain Escape without flag 1. Returns false when the key must be
 * sent as CSI u instead. */
static bool kitty_c0_legacy(struct out *o, enum vt_keysym key, unsigned mods, unsigned flags,
			    const struct vt_key_modes *m)
{
	bool dis = flags & FLAG_DISAMBIGUATE;
	struct vt_key_modes legacy = *m;

	if (flags & FLAG_ALL_KEYS)
		return false;
	if (key == VT_KEY_ESCAPE) {
		if (dis || mods)
			return false;
	} else if (mods) {
		bool keep = !dis && (mods == VT_MOD_ALT || (mods == VT_MOD_SHIFT && key == VT_KEY_TAB) ||
				     (mods == VT_MOD_CTRL && key == VT_KEY_BACKSPACE));
		if (!keep)
			return false;
	}
	legacy.modify_other_keys = 0;
	legacy.alt_sends_escape = true;
	legacy_c0_key(o, key, mods, &legacy);
	return true;
}

/* kitty's numbers for the keypad keys, in enum order from VT_KEY_KP_0. */
static uint32_t kitty_kp_number(enum vt_keysym k)
{
	switch (k) {
	case VT_KEY_KP_LEFT: return 57417;
	case VT_KEY_KP_RIGHT: return 57418;
	case VT_KEY_KP_UP: return 57419;
	case VT_KEY_KP_DOWN: return 57420;
	case VT_KEY_KP_PAGE_UP: return 57421;
	case VT_KEY_KP_PAGE_DOWN: return 57422;
	case VT_KEY_KP_HOME: return 57423;
	case VT_KEY_KP_END: return 57424;
	case VT_KEY_KP_INSERT: return 57425;
	case VT_KEY_KP_DELETE: return 57426;
	default: return 57399 + (uint32_t)(k - VT_KEY_KP_0); /* KP_0..KP_SEPARATOR are in kitty's order */
	}
}

static void kitty_functional_key(struct out *o, const struct vt_key_event *ev, enum vt_keysym key,
				 unsigned mods, unsigned flags, const struct vt_key_modes *m)
{
	bool dis = flags & FLAG_DISAMBIGUATE, all = flags & FLAG_ALL_KEYS;
	unsigned held = mods & ~LOCK_MODS; /* a lock never turns a legacy Enter/Tab/Backspace/Esc into CSI u */
	bool is_c0 = key == VT_KEY_ENTER || key == VT_KEY_TAB || key == VT_KEY_BACKSPACE ||
		     key == VT_KEY_ESCAPE;
	const struct fkey *f;
	struct kitty_csi k = {.mods = mods};

	if ((is_modifier_key(key) || is_lock_key(key)) && !all)
		return;
	/* Enter, Tab, Backspace (and Escape without flag 1) are sent as legacy bytes on press: their
	 * releases are reported only in "all keys" mode. */
	if (ev->action == VT_KEY_RELEASE &&
	    (!(flags & FLAG_EVENTS) || (is_c0 && !all && !(key == VT_KEY_ESCAPE && dis))))
		return;
	if (is_c0 && ev->action != VT_KEY_RELEASE && kitty_c0_legacy(o, key, held, flags, m))
		return;
	if (key >= VT_KEY_F1 + 12 && key <= VT_KEY_F24) {
		k.key = 57376 + (uint32_t)(key - VT_KEY_F1 - 12);
		k.final = 'u';
	} else if (is_kp_key(key) && key != VT_KEY_KP_BEGIN && dis) {
		/* KP_Begin keeps CSI 1 E (its table row is "1 E or 57427 ~", and kitty sends the first) */
		k.key = kitty_kp_number(key);
		k.final = 'u';
		/* a digit or an operator of the keypad types it: flag 16 reports it as for the main keys */
		if (is_kp_char_key(key))
			k.text = associated_text(ev, mods, flags);
	} else {
		if (key >= VT_KEY_COUNT_ || !fkeys[key].kitty_final)
			return;
		f = &fkeys[key];
		/* Without flags 1 and 2 the unmodified press keeps its legacy (terminfo) form. */
		if (!dis && !(flags & FLAG_EVENTS) && !mods && f->final && f->final != '~' && f->ss3 &&
		    (f->ss3 == 1 || m->cursor_keys_app)) {
			put_fkey(o, f, 0, m->cursor_keys_app);
			return;
		}
		k.key = f->kitty;
		k.final = f->kitty_final;
	}
	if ((flags & FLAG_EVENTS) && ev->action != VT_KEY_PRESS)
		k.event = ev->action;
	put_kitty_csi(o, &k);
}

static void encode_kitty(struct out *o, const struct vt_key_event *ev, const struct vt_key_modes *m)
{
	unsigned flags = m->kitty_flags;
	unsigned mods = ev->mods;
	enum vt_keysym key = ev->key;
	struct vt_key_event plain;

	/* "Lock modifiers are not reported for text producing keys" without "all keys" mode, so they stay usable
	 * for legacy programs; every other key reports an active lock as the modifier it is, as kitty does. */
	if (!(flags & FLAG_ALL_KEYS) &&
	    (key == VT_KEY_NONE || (is_kp_char_key(key) && ev->text && !is_control_cp(ev->text))))
		mods &= ~LOCK_MODS;
	if (is_kp_key(key) && !(flags & FLAG_DISAMBIGUATE)) {
		if (is_kp_char_key(key) && key != VT_KEY_KP_ENTER) {
			plain = *ev;
			plain.key = VT_KEY_NONE;
			if (!plain.text)
				plain.text = (uint32_t)kpkeys[key - VT_KEY_KP_0].ch;
			plain.unshifted = plain.text;
			kitty_text_key(o, &plain, mods, flags, m);
			return;
		}
		key = kp_to_main(key);
	} else if (is_kp_char_key(key) && !(flags & FLAG_ALL_KEYS) && ev->text && !is_control_cp(ev->text) &&
		   !(mods & ~(unsigned)VT_MOD_SHIFT)) {
		/* Flag 1 reports "all non text keypad keys" as CSI u: one that types a character (a digit
		 * under NumLock, an operator) types it, as a main key does, and reports no release. */
		if (ev->action != VT_KEY_RELEASE)
			put_utf8(o, ev->text);
		return;
	}
	if (key == VT_KEY_NONE)
		kitty_text_key(o, ev, mods, flags, m);
	else
		kitty_functional_key(o, ev, key, mods, flags, m);
}

size_t vt_key_encode(const struct vt_key_event *ev, const struct vt_key_modes *modes, uint8_t *out,
		     size_t cap)
{
	struct out o = {.buf = out, .cap = cap};

	if ((unsigned)ev->key >= VT_KEY_COUNT_)
		return 0;
	if (modes->kitty_flags & 31)
		encode_kitty(&o, ev, modes);
	else
		encode_legacy(&o, ev, modes);
	return o.overflow ? 0 : o.n;
}
