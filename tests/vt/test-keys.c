/* tests/vt/test-keys.c: the key encoder against xterm's documented sequences (ctlseqs, "PC-Style Function
 * Keys") and kitty's keyboard protocol specification. Expected strings are written out from the documents,
 * not computed by the code under test. */
#include <stdio.h>
#include <string.h>

#include "vt/vt.h"

static int failures;
static int checks;

static void show(const char *label, const uint8_t *s, size_t n)
{
	fprintf(stderr, "  %s: \"", label);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 0x1b)
			fprintf(stderr, "\\e");
		else if (s[i] < 0x20 || s[i] >= 0x7f)
			fprintf(stderr, "\\x%02x", s[i]);
		else
			fputc(s[i], stderr);
	}
	fprintf(stderr, "\" (%zu bytes)\n", n);
}

static void check_n(const char *name, const struct vt_key_event *ev, const struct vt_key_modes *m,
		    const char *want, size_t want_len)
{
	uint8_t out[64];
	size_t n;

	memset(out, 0xaa, sizeof(out));
	n = vt_key_encode(ev, m, out, sizeof(out));
	checks++;
	if (n != want_len || memcmp(out, want, n) != 0) {
		failures++;
		fprintf(stderr, "FAIL %s\n", name);
		show("want", (const uint8_t *)want, want_len);
		show("got ", out, n);
	}
}

static void check(const char *name, const struct vt_key_event *ev, const struct vt_key_modes *m,
		  const char *want)
{
	check_n(name, ev, m, want, strlen(want));
}

static const struct vt_key_modes legacy = {.alt_sends_escape = true};

static struct vt_key_event key(enum vt_keysym k, unsigned mods)
{
	return (struct vt_key_event){.key = k, .action = VT_KEY_PRESS, .mods = mods};
}

/* A keypad key that types t (a digit under NumLock, an operator). */
static struct vt_key_event kp(enum vt_keysym k, uint32_t t, unsigned mods)
{
	return (struct vt_key_event){.key = k, .action = VT_KEY_PRESS, .mods = mods, .text = t};
}

static struct vt_key_event text(uint32_t t, uint32_t unshifted, unsigned mods)
{
	return (struct vt_key_event){.action = VT_KEY_PRESS, .mods = mods, .text = t, .unshifted = unshifted};
}

/* xterm: "CSI 1 ; m X" / "CSI n ; m ~" for every Shift/Alt/Ctrl/Meta combination (m = 1 + bits). */
static void test_function_keys(void)
{
	static const struct {
		enum vt_keysym k;
		const char *plain, *app, *modfmt;
	} rows[] = {
		{VT_KEY_UP, "\033[A", "\033OA", "\033[1;%dA"},
		{VT_KEY_DOWN, "\033[B", "\033OB", "\033[1;%dB"},
		{VT_KEY_RIGHT, "\033[C", "\033OC", "\033[1;%dC"},
		{VT_KEY_LEFT, "\033[D", "\033OD", "\033[1;%dD"},
		{VT_KEY_HOME, "\033[H", "\033OH", "\033[1;%dH"},
		{VT_KEY_END, "\033[F", "\033OF", "\033[1;%dF"},
		{VT_KEY_INSERT, "\033[2~", "\033[2~", "\033[2;%d~"},
		{VT_KEY_DELETE, "\033[3~", "\033[3~", "\033[3;%d~"},
		{VT_KEY_PAGE_UP, "\033[5~", "\033[5~", "\033[5;%d~"},
		{VT_KEY_PAGE_DOWN, "\033[6~", "\033[6~", "\033[6;%d~"},
		{VT_KEY_F1, "\033OP", "\033OP", "\033[1;%dP"},
		{VT_KEY_F1 + 1, "\033OQ", "\033OQ", "\033[1;%dQ"},
		{VT_KEY_F1 + 2, "\033OR", "\033OR", "\033[1;%dR"},
		{VT_KEY_F1 + 3, "\033OS", "\033OS", "\033[1;%dS"},
		{VT_KEY_F1 + 4, "\033[15~", "\033[15~", "\033[15;%d~"},
		{VT_KEY_F1 + 5, "\033[17~", "\033[17~", "\033[17;%d~"},
		{VT_KEY_F1 + 6, "\033[18~", "\033[18~", "\033[18;%d~"},
		{VT_KEY_F1 + 7, "\033[19~", "\033[19~", "\033[19;%d~"},
		{VT_KEY_F1 + 8, "\033[20~", "\033[20~", "\033[20;%d~"},
		{VT_KEY_F1 + 9, "\033[21~", "\033[21~", "\033[21;%d~"},
		{VT_KEY_F1 + 10, "\033[23~", "\033[23~", "\033[23;%d~"},
		{VT_KEY_F1 + 11, "\033[24~", "\033[24~", "\033[24;%d~"},
		{VT_KEY_KP_UP, "\033[A", "\033OA", "\033[1;%dA"},
		{VT_KEY_KP_HOME, "\033[H", "\033OH", "\033[1;%dH"},
		{VT_KEY_KP_DELETE, "\033[3~", "\033[3~", "\033[3;%d~"},
		{VT_KEY_KP_BEGIN, "\033[E", "\033OE", "\033[1;%dE"},
		{VT_KEY_MENU, "\033[29~", "\033[29~", "\033[29;%d~"},
	};
	struct vt_key_modes app = legacy;
	char name[64], want[32];

	app.cursor_keys_app = true;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct vt_key_event ev = key(rows[i].k, 0);
		snprintf(name, sizeof(name), "fkey %zu plain", i);
		check(name, &ev, &legacy, rows[i].plain);
		snprintf(name, sizeof(name), "fkey %zu DECCKM", i);
		check(name, &ev, &app, rows[i].app);
		/* Caps/Num Lock never change what these keys send. */
		ev.mods = VT_MOD_CAPS | VT_MOD_NUM;
		snprintf(name, sizeof(name), "fkey %zu locks", i);
		check(name, &ev, &legacy, rows[i].plain);
		for (unsigned mods = 1; mods < 16; mods++) {
			ev.mods = mods;
			snprintf(want, sizeof(want), rows[i].modfmt, (int)mods + 1);
			snprintf(name, sizeof(name), "fkey %zu mods %u", i, mods);
			check(name, &ev, &legacy, want);
			check(name, &ev, &app, want);
		}
	}
}

/* F13-F24 are xterm's Shift+F1..F12 ("CSI 1;2P" for F13), with further modifiers added. */
static void test_f13_f24(void)
{
	static const char *const plain[12] = {
		"\033[1;2P", "\033[1;2Q", "\033[1;2R", "\033[1;2S", "\033[15;2~", "\033[17;2~",
		"\033[18;2~", "\033[19;2~", "\033[20;2~", "\033[21;2~", "\033[23;2~", "\033[24;2~",
	};
	static const char *const ctrl[12] = {
		"\033[1;6P", "\033[1;6Q", "\033[1;6R", "\033[1;6S", "\033[15;6~", "\033[17;6~",
		"\033[18;6~", "\033[19;6~", "\033[20;6~", "\033[21;6~", "\033[23;6~", "\033[24;6~",
	};
	for (int i = 0; i < 12; i++) {
		struct vt_key_event ev = key(VT_KEY_F1 + 12 + i, 0);
		check("F13+", &ev, &legacy, plain[i]);
		ev.mods = VT_MOD_CTRL;
		check("Ctrl+F13+", &ev, &legacy, ctrl[i]);
	}
}

static void test_keypad(void)
{
	static const char app_finals[] = "pqrstuvwxynojmkMXl";
	static const char chars[] = "0123456789./*-+\r=,";
	struct vt_key_modes app = legacy;

	app.keypad_app = true;
	for (int i = 0; i <= VT_KEY_KP_SEPARATOR - VT_KEY_KP_0; i++) {
		struct vt_key_event ev = key(VT_KEY_KP_0 + i, 0);
		char want[4] = {0x1b, 'O', app_finals[i], 0};
		char num[2] = {chars[i], 0};
		check("DECKPAM", &ev, &app, want);
		check("DECKPNM", &ev, &legacy, num);
		ev.mods = VT_MOD_ALT;
		char alt[3] = {0x1b, chars[i], 0};
		check("Alt+keypad", &ev, &legacy, alt);
	}
	/* Modifiers under DECKPAM go into SS3's parameter, Alt too (xterm 379 input.c appends the modifier to the
	 * keypad's SS3 for its default PC-style keyboard; tests/tools/xterm-keys.py). */
	static const struct {
		enum vt_keysym k;
		unsigned mods;
		const char *want;
	} app_mods[] = {
		{VT_KEY_KP_DIVIDE, VT_MOD_SHIFT, "\033O2o"},
		{VT_KEY_KP_MULTIPLY, VT_MOD_CTRL, "\033O5j"},
		{VT_KEY_KP_SUBTRACT, VT_MOD_ALT, "\033O3m"},
		{VT_KEY_KP_ADD, VT_MOD_SHIFT | VT_MOD_CTRL | VT_MOD_ALT, "\033O8k"},
		{VT_KEY_KP_ENTER, VT_MOD_SHIFT, "\033O2M"},
		{VT_KEY_KP_ENTER, VT_MOD_CTRL | VT_MOD_ALT, "\033O7M"},
	};
	for (size_t i = 0; i < sizeof(app_mods) / sizeof(app_mods[0]); i++) {
		struct vt_key_event mev = key(app_mods[i].k, app_mods[i].mods);
		check("DECKPAM with modifiers", &mev, &app, app_mods[i].want);
	}
	struct vt_key_modes lnm = legacy;
	lnm.newline_mode = true;
	struct vt_key_event ev = key(VT_KEY_KP_ENTER, 0);
	check("KP_Enter LNM", &ev, &lnm, "\r\n");
	/* The layout's own text wins (a keypad decimal that types ','). */
	ev = kp(VT_KEY_KP_DECIMAL, ',', 0);
	check("KP_Decimal comma", &ev, &legacy, ",");
	/* xterm (input.c, numLock resource on by default) forces DECKPNM for keypad keys while NumLock is on:
	 * with TERM=xterm-256color every curses program in keypad mode sets DECKPAM (smkx), and the number pad
	 * must still type numbers there. Without NumLock (Shift+KP_End gives KP_1) DECKPAM applies. */
	for (int i = 0; i <= VT_KEY_KP_SEPARATOR - VT_KEY_KP_0; i++) {
		char num[2] = {chars[i], 0};
		ev = key(VT_KEY_KP_0 + i, VT_MOD_NUM);
		check("DECKPAM NumLock", &ev, &app, num);
		ev.mods = VT_MOD_NUM | VT_MOD_ALT;
		char alt[3] = {0x1b, chars[i], 0};
		check("DECKPAM NumLock Alt", &ev, &app, alt);
		ev.mods = VT_MOD_SHIFT;
		char shifted[5] = {0x1b, 'O', '2', app_finals[i], 0};
		check("DECKPAM Shift no NumLock", &ev, &app, shifted);
	}
	ev = key(VT_KEY_KP_ENTER, VT_MOD_NUM);
	check("DECKPAM NumLock KP_Enter LNM", &ev, &(struct vt_key_modes){.keypad_app = true, .newline_mode = true,
									   .alt_sends_escape = true}, "\r\n");
	ev = key(VT_KEY_KP_HOME, VT_MOD_NUM);
	check("DECKPAM NumLock KP_Home", &ev, &app, "\033[H");
}

/* kitty's "C0 controls" table of the legacy encoding, which is xterm's default behaviour. */
static void test_c0_keys(void)
{
	static const struct {
		enum vt_keysym k;
		unsigned mods;
		const char *want;
		size_t len;
	} rows[] = {
		{VT_KEY_ENTER, 0, "\r", 1},
		{VT_KEY_ENTER, VT_MOD_CTRL, "\r", 1},
		{VT_KEY_ENTER, VT_MOD_ALT, "\033\r", 2},
		{VT_KEY_ENTER, VT_MOD_SHIFT, "\r", 1},
		{VT_KEY_ESCAPE, 0, "\033", 1},
		{VT_KEY_ESCAPE, VT_MOD_ALT, "\033\033", 2},
		{VT_KEY_ESCAPE, VT_MOD_CTRL | VT_MOD_SHIFT, "\033", 1},
		{VT_KEY_BACKSPACE, 0, "\x7f", 1},
		{VT_KEY_BACKSPACE, VT_MOD_CTRL, "\x08", 1},
		{VT_KEY_BACKSPACE, VT_MOD_ALT, "\033\x7f", 2},
		{VT_KEY_BACKSPACE, VT_MOD_SHIFT, "\x7f", 1},
		{VT_KEY_BACKSPACE, VT_MOD_CTRL | VT_MOD_ALT, "\033\x08", 2},
		{VT_KEY_TAB, 0, "\t", 1},
		{VT_KEY_TAB, VT_MOD_CTRL, "\t", 1},
		{VT_KEY_TAB, VT_MOD_ALT, "\033\t", 2},
		{VT_KEY_TAB, VT_MOD_SHIFT, "\033[Z", 3},
		{VT_KEY_TAB, VT_MOD_SHIFT | VT_MOD_CTRL, "\033[Z", 3},
		{VT_KEY_TAB, VT_MOD_SHIFT | VT_MOD_ALT, "\033[Z", 3},
		{VT_KEY_TAB, VT_MOD_CTRL | VT_MOD_ALT, "\033\t", 2},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct vt_key_event ev = key(rows[i].k, rows[i].mods);
		check_n("C0 key", &ev, &legacy, rows[i].want, rows[i].len);
	}
	/* --backspace-delete off: Backspace is ^H and Ctrl+Backspace DEL. */
	struct vt_key_modes bs = legacy;
	bs.backspace_sends_bs = true;
	struct vt_key_event ev = key(VT_KEY_BACKSPACE, 0);
	check("BS as ^H", &ev, &bs, "\x08");
	ev.mods = VT_MOD_CTRL;
	check("Ctrl+BS as DEL", &ev, &bs, "\x7f");
	struct vt_key_modes lnm = legacy;
	lnm.newline_mode = true;
	ev = key(VT_KEY_ENTER, 0);
	check("Enter LNM", &ev, &lnm, "\r\n");
}

static void test_text_keys(void)
{
	struct vt_key_event ev;
	char want[8];

	/* Ctrl+letter is the letter's C0 control, whatever the Shift and Caps state. */
	for (uint32_t c = 'a'; c <= 'z'; c++) {
		want[0] = (char)(c - 'a' + 1);
		ev = text(c, c, VT_MOD_CTRL);
		check_n("Ctrl+letter", &ev, &legacy, want, 1);
		ev = text(c - 32, c, VT_MOD_CTRL | VT_MOD_SHIFT);
		check_n("Ctrl+Shift+letter", &ev, &legacy, want, 1);
		ev = text(c - 32, c, VT_MOD_CTRL | VT_MOD_CAPS);
		check_n("Ctrl+letter Caps", &ev, &legacy, want, 1);
		want[0] = 0x1b;
		want[1] = (char)(c - 'a' + 1);
		ev = text(c, c, VT_MOD_CTRL | VT_MOD_ALT);
		check_n("Ctrl+Alt+letter", &ev, &legacy, want, 2);
		want[1] = (char)c;
		ev = text(c, c, VT_MOD_ALT);
		check_n("Alt+letter", &ev, &legacy, want, 2);
		want[1] = (char)(c - 32);
		ev = text(c - 32, c, VT_MOD_ALT | VT_MOD_SHIFT);
		check_n("Alt+Shift+letter", &ev, &legacy, want, 2);
	}
	/* Ctrl+symbols: kitty's legacy ctrl table (VT100 table 3-5 superset), plus the rest of X11's and
	 * xkbcommon's rule (every character from '@' to '~' gives its low five bits): xterm sends NUL for
	 * Ctrl+` (its input.c lists "control ` 0 NUL") and ESC, FS, GS for Ctrl+{, Ctrl+|, Ctrl+}. */
	static const struct {
		uint32_t c;
		char b;
	} syms[] = {
		{' ', 0x00}, {'@', 0x00}, {'2', 0x00}, {'[', 0x1b}, {'3', 0x1b}, {'\\', 0x1c}, {'4', 0x1c},
		{']', 0x1d}, {'5', 0x1d}, {'^', 0x1e}, {'6', 0x1e}, {'~', 0x1e}, {'_', 0x1f}, {'/', 0x1f},
		{'7', 0x1f}, {'?', 0x7f}, {'8', 0x7f}, {'1', '1'}, {'9', '9'}, {'0', '0'}, {';', ';'},
		{'`', 0x00}, {'{', 0x1b}, {'|', 0x1c}, {'}', 0x1d}, {'-', '-'}, {'=', '='},
	};
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		ev = text(syms[i].c, syms[i].c, VT_MOD_CTRL);
		check_n("Ctrl+symbol", &ev, &legacy, &syms[i].b, 1);
	}
	ev = text(' ', ' ', 0);
	check("Space", &ev, &legacy, " ");
	ev = text(0xe9, 0xe9, 0);
	check("e acute", &ev, &legacy, "\xc3\xa9");
	ev = text(0x1f600, 0, 0);
	check("4-byte UTF-8", &ev, &legacy, "\xf0\x9f\x98\x80");
	ev = text(0xe9, 0xe9, VT_MOD_ALT);
	check("Alt+e acute", &ev, &legacy, "\033\xc3\xa9");
	ev = text(0xe9, 0xe9, VT_MOD_CTRL);
	check("Ctrl+e acute", &ev, &legacy, "\xc3\xa9");
	/* Cyrillic layout: Ctrl+С (U+0441 on the C key) is ^C through the US-layout key. */
	ev = text(0x441, 0x441, VT_MOD_CTRL);
	ev.base = 'c';
	check("Ctrl+Cyrillic es", &ev, &legacy, "\x03");
	/* ... and Ctrl+Х (U+0445 on the [ key) ESC, Greek Ctrl+ψ (on the C key) ^C. A Latin layout's own letters
	 * are sent as they are, as xterm sends them (X11 has no control character for them): German Ctrl+ü (on the
	 * [ key) was ESC, French Ctrl+é (on the 2 key) NUL and Ctrl+è (on the 7 key) ^_. */
	static const struct {
		uint32_t c, base;
		const char *want, *what;
	} by_base[] = {
		{0x445, '[', "\033", "Ctrl+Cyrillic ha"},
		{0x3c8, 'c', "\x03", "Ctrl+Greek psi"},
		{0xfc, '[', "\xc3\xbc", "Ctrl+u diaeresis (de)"},
		{0xe9, '2', "\xc3\xa9", "Ctrl+e acute (fr)"},
		{0xe8, '7', "\xc3\xa8", "Ctrl+e grave (fr)"},
		{0x159, 'c', "\xc5\x99", "Ctrl+r caron (cz)"},
		/* symbols are no script: Ctrl+AltGr+e's euro sign (de) is sent as it is, as xterm sends it (it
		 * was ^E), an arrow too; a Glagolitic letter, past the symbols, stands for its key */
		{0x20ac, 'e', "\xe2\x82\xac", "Ctrl+euro sign (de)"},
		{0x2192, 'i', "\xe2\x86\x92", "Ctrl+rightwards arrow"},
		{0x3001, ',', "\xe3\x80\x81", "Ctrl+ideographic comma"},
		{0x2c30, 'a', "\x01", "Ctrl+Glagolitic azu"},
	};
	for (size_t i = 0; i < sizeof(by_base) / sizeof(by_base[0]); i++) {
		ev = text(by_base[i].c, by_base[i].c, VT_MOD_CTRL);
		ev.base = by_base[i].base;
		check(by_base[i].what, &ev, &legacy, by_base[i].want);
	}
	/* Alt without the ESC prefix: Alt is dropped for text. */
	struct vt_key_modes noesc = legacy;
	noesc.alt_sends_escape = false;
	ev = text('x', 'x', VT_MOD_ALT);
	check("Alt no-escape", &ev, &noesc, "x");
	/* Releases never send anything in the legacy encoding; repeats are presses; lone modifiers nothing. */
	ev = text('x', 'x', 0);
	ev.action = VT_KEY_RELEASE;
	check("release", &ev, &legacy, "");
	ev.action = VT_KEY_REPEAT;
	check("repeat", &ev, &legacy, "x");
	ev = key(VT_KEY_LEFT_SHIFT, VT_MOD_SHIFT);
	check("lone shift", &ev, &legacy, "");
	ev = key(VT_KEY_CAPS_LOCK, 0);
	check("caps lock", &ev, &legacy, "");
}

/* xterm modifyOtherKeys: "CSI 27 ; m ; code ~". */
static void test_modify_other_keys(void)
{
	struct vt_key_modes l2 = legacy, l1 = legacy;
	struct vt_key_event ev;

	l2.modify_other_keys = 2;
	l1.modify_other_keys = 1;
	ev = text('a', 'a', VT_MOD_CTRL);
	check("mok2 Ctrl+a", &ev, &l2, "\033[27;5;97~");
	check("mok1 Ctrl+a", &ev, &l1, "\x01");
	ev = text('a', 'a', VT_MOD_ALT);
	check("mok2 Alt+a", &ev, &l2, "\033[27;3;97~");
	check("mok1 Alt+a", &ev, &l1, "\033a");
	ev = text('A', 'a', VT_MOD_CTRL | VT_MOD_SHIFT);
	check("mok2 Ctrl+Shift+a", &ev, &l2, "\033[27;6;65~");
	check("mok1 Ctrl+Shift+a", &ev, &l1, "\033[27;6;65~");
	ev = text('A', 'a', VT_MOD_SHIFT);
	check("mok2 Shift+a", &ev, &l2, "A");
	ev = text('1', '1', VT_MOD_CTRL);
	check("mok1 Ctrl+1", &ev, &l1, "\033[27;5;49~");
	ev = text(' ', ' ', VT_MOD_SHIFT);
	check("mok2 Shift+Space", &ev, &l2, "\033[27;2;32~");
	ev = text(' ', ' ', VT_MOD_CTRL);
	check("mok2 Ctrl+Space", &ev, &l2, "\033[27;5;32~");
	ev = key(VT_KEY_TAB, VT_MOD_CTRL);
	check("mok2 Ctrl+Tab", &ev, &l2, "\033[27;5;9~");
	check("mok1 Ctrl+Tab", &ev, &l1, "\033[27;5;9~");
	ev = key(VT_KEY_TAB, VT_MOD_SHIFT);
	check("mok2 Shift+Tab", &ev, &l2, "\033[Z");
	ev = key(VT_KEY_ENTER, VT_MOD_SHIFT);
	check("mok2 Shift+Enter", &ev, &l2, "\033[27;2;13~");
	/* Level 1 reports Return with Shift too: its legacy CR loses the Shift (xterm 379 input.c, "case
	 * XK_Return"; tests/tools/xterm-keys.py). */
	check("mok1 Shift+Enter", &ev, &l1, "\033[27;2;13~");
	ev = key(VT_KEY_ENTER, VT_MOD_ALT);
	check("mok1 Alt+Enter", &ev, &l1, "\033\r");
	/* Backspace is one of the keys "with well-known behavior" that level 1 leaves alone; at level 2 Ctrl
	 * alone is still the DEL/BS toggle, and the code reported is the byte the key sends (xterm 379, input.c
	 * ModifyOtherKeys; tests/tools/xterm-keys.py). */
	ev = key(VT_KEY_BACKSPACE, VT_MOD_CTRL);
	check("mok2 Ctrl+BS", &ev, &l2, "\x08");
	check("mok1 Ctrl+BS", &ev, &l1, "\x08");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_CTRL | VT_MOD_SHIFT);
	check("mok2 Ctrl+Shift+BS", &ev, &l2, "\033[27;6;8~");
	check("mok1 Ctrl+Shift+BS", &ev, &l1, "\x08");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_CTRL | VT_MOD_ALT);
	check("mok2 Ctrl+Alt+BS", &ev, &l2, "\033[27;7;8~");
	check("mok1 Ctrl+Alt+BS", &ev, &l1, "\033\x08");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_SHIFT);
	check("mok2 Shift+BS", &ev, &l2, "\033[27;2;127~");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_ALT);
	check("mok2 Alt+BS", &ev, &l2, "\033[27;3;127~");
	check("mok1 Alt+BS", &ev, &l1, "\033\x7f");
	l2.backspace_sends_bs = true;
	ev = key(VT_KEY_BACKSPACE, VT_MOD_SHIFT);
	check("mok2 DECBKM Shift+BS", &ev, &l2, "\033[27;2;8~");
	l2.backspace_sends_bs = false;
	ev = key(VT_KEY_ESCAPE, VT_MOD_ALT);
	check("mok2 Alt+Esc", &ev, &l2, "\033[27;3;27~");
	/* Level 1: Shift+Alt+Esc's legacy ESC ESC is Alt+Esc's: reported, Alt in the parameter as with Ctrl
	 * (xterm 379: CSI 27 ; 4 ; 27 ~ at its metaSendsEscape false; Shift+Esc alone ESC in both). */
	ev = key(VT_KEY_ESCAPE, VT_MOD_SHIFT | VT_MOD_ALT);
	check("mok1 Shift+Alt+Esc", &ev, &l1, "\033[27;4;27~");
	/* Function keys already carry modifiers; modifyOtherKeys leaves them alone. */
	ev = key(VT_KEY_UP, VT_MOD_CTRL);
	check("mok2 Ctrl+Up", &ev, &l2, "\033[1;5A");
	ev = text('a', 'a', 0);
	check("mok2 a", &ev, &l2, "a");
}

static struct vt_key_modes kitty(unsigned flags)
{
	struct vt_key_modes m = legacy;
	m.kitty_flags = (uint8_t)flags;
	return m;
}

static void test_kitty_disambiguate(void)
{
	struct vt_key_modes k1 = kitty(1), k1app = kitty(1);
	struct vt_key_event ev;

	k1app.cursor_keys_app = true;
	ev = key(VT_KEY_ESCAPE, 0);
	check("k1 Esc", &ev, &k1, "\033[27u");
	ev = text('a', 'a', 0);
	check("k1 a", &ev, &k1, "a");
	ev = text('A', 'a', VT_MOD_SHIFT);
	check("k1 Shift+a", &ev, &k1, "A");
	ev = text('A', 'a', VT_MOD_SHIFT | VT_MOD_CAPS);
	check("k1 Shift+a caps", &ev, &k1, "A");
	ev = text('c', 'c', VT_MOD_CTRL);
	check("k1 Ctrl+c", &ev, &k1, "\033[99;5u");
	ev = text('c', 'c', VT_MOD_CTRL | VT_MOD_NUM);
	check("k1 Ctrl+c numlock", &ev, &k1, "\033[99;5u");
	ev = text('i', 'i', VT_MOD_ALT);
	check("k1 Alt+i", &ev, &k1, "\033[105;3u");
	ev = text('I', 'i', VT_MOD_CTRL | VT_MOD_SHIFT);
	check("k1 Ctrl+Shift+i", &ev, &k1, "\033[105;6u");
	ev = text('[', '[', VT_MOD_ALT);
	check("k1 Alt+[", &ev, &k1, "\033[91;3u");
	ev = text(' ', ' ', VT_MOD_CTRL);
	check("k1 Ctrl+Space", &ev, &k1, "\033[32;5u");
	ev = key(VT_KEY_ENTER, 0);
	check("k1 Enter", &ev, &k1, "\r");
	ev = key(VT_KEY_TAB, 0);
	check("k1 Tab", &ev, &k1, "\t");
	ev = key(VT_KEY_BACKSPACE, 0);
	check("k1 BS", &ev, &k1, "\x7f");
	ev = key(VT_KEY_ENTER, VT_MOD_SHIFT);
	check("k1 Shift+Enter", &ev, &k1, "\033[13;2u");
	ev = key(VT_KEY_TAB, VT_MOD_SHIFT);
	check("k1 Shift+Tab", &ev, &k1, "\033[9;2u");
	ev = key(VT_KEY_TAB, VT_MOD_CTRL | VT_MOD_SHIFT);
	check("k1 Ctrl+Shift+Tab", &ev, &k1, "\033[9;6u");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_ALT);
	check("k1 Alt+BS", &ev, &k1, "\033[127;3u");
	ev = key(VT_KEY_UP, 0);
	check("k1 Up", &ev, &k1, "\033[A");
	check("k1 Up DECCKM", &ev, &k1app, "\033[A");
	ev = key(VT_KEY_UP, VT_MOD_CTRL);
	check("k1 Ctrl+Up", &ev, &k1, "\033[1;5A");
	ev = key(VT_KEY_F1, 0);
	check("k1 F1", &ev, &k1, "\033[P");
	ev = key(VT_KEY_F1 + 2, 0);
	check("k1 F3", &ev, &k1, "\033[13~");
	ev = key(VT_KEY_F1 + 2, VT_MOD_SHIFT);
	check("k1 Shift+F3", &ev, &k1, "\033[13;2~");
	ev = key(VT_KEY_F1 + 4, 0);
	check("k1 F5", &ev, &k1, "\033[15~");
	ev = key(VT_KEY_F1 + 12, 0);
	check("k1 F13", &ev, &k1, "\033[57376u");
	ev = key(VT_KEY_F24, VT_MOD_CTRL);
	check("k1 Ctrl+F24", &ev, &k1, "\033[57387;5u");
	ev = key(VT_KEY_PAGE_UP, VT_MOD_ALT);
	check("k1 Alt+PgUp", &ev, &k1, "\033[5;3~");
	ev = key(VT_KEY_KP_0, 0);
	check("k1 KP_0", &ev, &k1, "\033[57399u");
	ev = key(VT_KEY_KP_ENTER, 0);
	check("k1 KP_Enter", &ev, &k1, "\033[57414u");
	ev = key(VT_KEY_KP_UP, 0);
	check("k1 KP_Up", &ev, &k1, "\033[57419u");
	/* KP_Begin's row in the functional key table is "1 E or 57427 ~", never CSI 57427 u; kitty sends the
	 * CSI 1 E form under every flag */
	ev = key(VT_KEY_KP_BEGIN, 0);
	check("k1 KP_Begin", &ev, &k1, "\033[E");
	ev.mods = VT_MOD_CTRL;
	check("k1 Ctrl+KP_Begin", &ev, &k1, "\033[1;5E");
	struct vt_key_modes k31 = kitty(31);
	ev.action = VT_KEY_RELEASE;
	check("k31 Ctrl+KP_Begin release", &ev, &k31, "\033[1;5:3E");
	ev = key(VT_KEY_PAUSE, 0);
	check("k1 Pause", &ev, &k1, "\033[57362u");
	ev = key(VT_KEY_RAISE_VOLUME, VT_MOD_CTRL);
	check("k1 Ctrl+RaiseVolume", &ev, &k1, "\033[57439;5u");
	ev = key(VT_KEY_MEDIA_TRACK_PREVIOUS, 0);
	check("k1 MediaTrackPrevious", &ev, &k1, "\033[57436u");
	check("legacy MediaTrackPrevious", &ev, &legacy, "");
	/* "all non text keypad keys will be reported as separate keys": a keypad key that types a character
	 * (a digit under NumLock, an operator) is a text key, sent as its text unless a modifier other than
	 * Shift is held (kitty's encode_glfw_key_event sends the text of such a key to the child as is). */
	ev = kp(VT_KEY_KP_0, '0', VT_MOD_NUM);
	check("k1 NumLock KP_0", &ev, &k1, "0");
	ev.action = VT_KEY_REPEAT;
	check("k1 NumLock KP_0 repeat", &ev, &k1, "0");
	ev = kp(VT_KEY_KP_ADD, '+', 0);
	check("k1 KP_Add", &ev, &k1, "+");
	ev = kp(VT_KEY_KP_DECIMAL, ',', VT_MOD_NUM);
	check("k1 NumLock KP_Decimal (de: comma)", &ev, &k1, ",");
	ev = kp(VT_KEY_KP_0 + 1, '1', VT_MOD_SHIFT);
	check("k1 Shift+KP_1 (NumLock off)", &ev, &k1, "1");
	ev = kp(VT_KEY_KP_0 + 1, '1', VT_MOD_CTRL | VT_MOD_NUM);
	check("k1 Ctrl+KP_1", &ev, &k1, "\033[57400;5u");
	ev = kp(VT_KEY_KP_MULTIPLY, '*', VT_MOD_ALT);
	check("k1 Alt+KP_Multiply", &ev, &k1, "\033[57411;3u");
	struct vt_key_modes k3 = kitty(3);
	ev = kp(VT_KEY_KP_0 + 5, '5', VT_MOD_NUM);
	check("k3 NumLock KP_5", &ev, &k3, "5");
	ev.action = VT_KEY_RELEASE;
	check("k3 NumLock KP_5 release (sent as text: none)", &ev, &k3, "");
	ev = key(VT_KEY_LEFT_SHIFT, VT_MOD_SHIFT);
	check("k1 lone shift", &ev, &k1, "");
	/* Flag 1 alone reports no event types: a release sends nothing, a repeat is a press. */
	ev = key(VT_KEY_UP, 0);
	ev.action = VT_KEY_RELEASE;
	check("k1 release", &ev, &k1, "");
	ev.action = VT_KEY_REPEAT;
	check("k1 repeat", &ev, &k1, "\033[A");
}

/* "If a modifier is active when the key event occurs, i.e. if the key is pressed or the lock (for caps lock/num
 * lock) is enabled, the key event must have the bit for that modifier set"; only text producing keys leave the
 * lock bits out without flag 8 ("Lock modifiers are not reported for text producing keys"). kitty itself keeps
 * them for every escape code once any flag is set; Enter, Tab and Backspace with nothing but a lock keep their
 * legacy bytes, as in kitty. */
static void test_kitty_lock_mods(void)
{
	struct vt_key_modes k1 = kitty(1), k4 = kitty(4), k3 = kitty(3);
	struct vt_key_event ev;

	k4.cursor_keys_app = true;
	ev = key(VT_KEY_UP, VT_MOD_NUM);
	check("k1 Up NumLock", &ev, &k1, "\033[1;129A");
	check("k4 Up NumLock DECCKM", &ev, &k4, "\033[1;129A");
	ev.action = VT_KEY_RELEASE;
	check("k3 Up NumLock release", &ev, &k3, "\033[1;129:3A");
	ev = key(VT_KEY_F1 + 4, VT_MOD_CAPS);
	check("k1 F5 CapsLock", &ev, &k1, "\033[15;65~");
	ev = key(VT_KEY_PAGE_UP, VT_MOD_CTRL | VT_MOD_NUM | VT_MOD_CAPS);
	check("k1 Ctrl+PgUp both locks", &ev, &k1, "\033[5;197~");
	ev = key(VT_KEY_ESCAPE, VT_MOD_NUM);
	check("k1 Esc NumLock", &ev, &k1, "\033[27;129u");
	check("k4 Esc NumLock", &ev, &k4, "\033");
	ev = key(VT_KEY_KP_UP, VT_MOD_CAPS);
	check("k1 KP_Up CapsLock", &ev, &k1, "\033[57419;65u");
	ev = key(VT_KEY_F1 + 12, VT_MOD_NUM);
	check("k1 F13 NumLock", &ev, &k1, "\033[57376;129u");
	ev = key(VT_KEY_ENTER, VT_MOD_NUM);
	check("k1 Enter NumLock", &ev, &k1, "\r");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_NUM | VT_MOD_CAPS);
	check("k1 BS both locks", &ev, &k1, "\x7f");
	ev = key(VT_KEY_TAB, VT_MOD_SHIFT | VT_MOD_NUM);
	check("k4 Shift+Tab NumLock", &ev, &k4, "\033[Z");
	ev = key(VT_KEY_ENTER, VT_MOD_SHIFT | VT_MOD_NUM);
	check("k1 Shift+Enter NumLock", &ev, &k1, "\033[13;130u");
	/* text producing keys: no lock bits */
	ev = text('c', 'c', VT_MOD_CTRL | VT_MOD_CAPS);
	check("k1 Ctrl+c CapsLock", &ev, &k1, "\033[99;5u");
	check("k4 Ctrl+c CapsLock", &ev, &k4, "\x03");
}

static void test_kitty_legacy_paths(void)
{
	/* Flags without "disambiguate": text keys with kitty's legacy modifiers keep their legacy bytes, keypad keys
	 * are the keys they stand for, DECCKM still applies. */
	struct vt_key_modes k4 = kitty(4), k2 = kitty(2);
	struct vt_key_event ev;

	k4.cursor_keys_app = true;
	ev = text('c', 'c', VT_MOD_CTRL);
	check("k4 Ctrl+c", &ev, &k4, "\x03");
	ev = kp(VT_KEY_KP_0 + 1, '1', 0);
	check("k4 KP_1", &ev, &k4, "1");
	ev = key(VT_KEY_UP, 0);
	check("k4 Up DECCKM", &ev, &k4, "\033OA");
	ev = key(VT_KEY_ESCAPE, 0);
	check("k4 Esc", &ev, &k4, "\033");
	ev = key(VT_KEY_TAB, VT_MOD_SHIFT);
	check("k4 Shift+Tab", &ev, &k4, "\033[Z");
	ev = key(VT_KEY_BACKSPACE, VT_MOD_CTRL);
	check("k4 Ctrl+BS", &ev, &k4, "\x08");
	ev = key(VT_KEY_ENTER, VT_MOD_ALT);
	check("k4 Alt+Enter", &ev, &k4, "\033\r");
	ev = key(VT_KEY_KP_HOME, 0);
	check("k2 KP_Home", &ev, &k2, "\033[H");
	ev = text('c', 'c', VT_MOD_CTRL);
	ev.action = VT_KEY_REPEAT;
	check("k2 Ctrl+c repeat", &ev, &k2, "\033[99;5:2u");
	/* kitty's "Legacy text keys": only Shift, Alt, Ctrl, Shift+Alt and Ctrl+Alt keep the legacy bytes; "any
	 * other combination of modifiers with these keys is output as the appropriate CSI u escape code"
	 * (its example: ctrl+shift+i is "CSI 105; 6 u"), flag 1 or not. Such a press has its release (flag 2). */
	ev = text('A', 'a', VT_MOD_CTRL | VT_MOD_SHIFT);
	check("k2 Ctrl+Shift+a", &ev, &k2, "\033[97;6u");
	ev.action = VT_KEY_RELEASE;
	check("k2 Ctrl+Shift+a release", &ev, &k2, "\033[97;6:3u");
	ev = text('#', '3', VT_MOD_CTRL | VT_MOD_SHIFT);
	check("k4 Ctrl+Shift+3 (with its shifted key)", &ev, &k4, "\033[51:35;6u");
	ev = text('a', 'a', VT_MOD_SUPER);
	check("k2 Super+a", &ev, &k2, "\033[97;9u");
	ev = text('a', 'a', VT_MOD_CTRL | VT_MOD_ALT | VT_MOD_SHIFT);
	check("k2 Ctrl+Alt+Shift+a", &ev, &k2, "\033[97;8u");
	/* the kept combinations, and Space's own C0 table (Ctrl+Shift+Space is NUL) */
	ev = text('a', 'a', VT_MOD_CTRL | VT_MOD_ALT);
	check("k2 Ctrl+Alt+a", &ev, &k2, "\033\x01");
	ev.action = VT_KEY_RELEASE;
	/* Its release is an event like any other non-text key's (flag 2 "causes the terminal to report key repeat
	 * and key release events"; only text and Enter/Tab/Backspace have none): kitty sends it as CSI u. */
	check("k2 Ctrl+Alt+a release", &ev, &k2, "\033[97;7:3u");
	ev = text('c', 'c', VT_MOD_CTRL);
	ev.action = VT_KEY_RELEASE;
	check("k2 Ctrl+c release", &ev, &k2, "\033[99;5:3u");
	ev = text('A', 'a', VT_MOD_ALT | VT_MOD_SHIFT);
	ev.action = VT_KEY_RELEASE;
	check("k2 Alt+Shift+a release", &ev, &k2, "\033[97;4:3u");
	check("k4 Alt+Shift+a release (no flag 2)", &ev, &k4, "");
	ev = text('A', 'a', VT_MOD_SHIFT);
	ev.action = VT_KEY_RELEASE;
	check("k2 Shift+a release (text)", &ev, &k2, "");
	ev = text('A', 'a', VT_MOD_ALT | VT_MOD_SHIFT);
	check("k2 Alt+Shift+a", &ev, &k2, "\033A");
	ev = text(' ', ' ', VT_MOD_CTRL | VT_MOD_SHIFT);
	check_n("k2 Ctrl+Shift+Space", &ev, &k2, "", 1);
}

static void test_kitty_events(void)
{
	struct vt_key_modes k3 = kitty(3), k11 = kitty(11);
	struct vt_key_event ev;

	ev = key(VT_KEY_UP, 0);
	ev.action = VT_KEY_RELEASE;
	check("k3 Up release", &ev, &k3, "\033[1;1:3A");
	ev.action = VT_KEY_REPEAT;
	check("k3 Up repeat", &ev, &k3, "\033[1;1:2A");
	ev.action = VT_KEY_PRESS;
	check("k3 Up press", &ev, &k3, "\033[A");
	ev = key(VT_KEY_PAGE_DOWN, VT_MOD_SHIFT);
	ev.action = VT_KEY_RELEASE;
	check("k3 Shift+PgDn release", &ev, &k3, "\033[6;2:3~");
	ev = text('c', 'c', VT_MOD_CTRL);
	ev.action = VT_KEY_RELEASE;
	check("k3 Ctrl+c release", &ev, &k3, "\033[99;5:3u");
	/* Text keys sent as text, and Enter/Tab/Backspace, report no release without flag 8. */
	ev = text('a', 'a', 0);
	ev.action = VT_KEY_RELEASE;
	check("k3 a release", &ev, &k3, "");
	ev.action = VT_KEY_REPEAT;
	check("k3 a repeat", &ev, &k3, "a");
	ev = key(VT_KEY_ENTER, 0);
	ev.action = VT_KEY_RELEASE;
	check("k3 Enter release", &ev, &k3, "");
	ev = key(VT_KEY_ESCAPE, 0);
	ev.action = VT_KEY_RELEASE;
	check("k3 Esc release", &ev, &k3, "\033[27;1:3u");
	/* Flag 8: every key is an escape code, with releases, lock modifiers and modifier keys. */
	ev = text('a', 'a', 0);
	check("k11 a", &ev, &k11, "\033[97u");
	ev.action = VT_KEY_RELEASE;
	check("k11 a release", &ev, &k11, "\033[97;1:3u");
	ev = key(VT_KEY_ENTER, 0);
	check("k11 Enter", &ev, &k11, "\033[13u");
	ev.action = VT_KEY_RELEASE;
	check("k11 Enter release", &ev, &k11, "\033[13;1:3u");
	ev = key(VT_KEY_TAB, 0);
	check("k11 Tab", &ev, &k11, "\033[9u");
	ev = key(VT_KEY_BACKSPACE, 0);
	check("k11 BS", &ev, &k11, "\033[127u");
	ev = key(VT_KEY_LEFT_SHIFT, VT_MOD_SHIFT);
	check("k11 LeftShift", &ev, &k11, "\033[57441;2u");
	ev = key(VT_KEY_RIGHT_CTRL, 0);
	ev.action = VT_KEY_RELEASE;
	check("k11 RightCtrl release", &ev, &k11, "\033[57448;1:3u");
	ev = key(VT_KEY_CAPS_LOCK, VT_MOD_CAPS);
	check("k11 CapsLock", &ev, &k11, "\033[57358;65u");
	ev = key(VT_KEY_ISO_LEVEL3_SHIFT, 0);
	check("k11 ISO_Level3_Shift", &ev, &k11, "\033[57453u");
	check("k3 ISO_Level3_Shift", &ev, &k3, "");
	ev = key(VT_KEY_RIGHT_HYPER, VT_MOD_HYPER);
	check("k11 RightHyper", &ev, &k11, "\033[57451;17u");
	ev = key(VT_KEY_ISO_LEVEL5_SHIFT, 0);
	check("legacy ISO_Level5_Shift", &ev, &legacy, "");
	ev = text('A', 'a', VT_MOD_CAPS);
	check("k11 a caps", &ev, &k11, "\033[97;65u");
	struct vt_key_modes k8 = kitty(8);
	ev = text('a', 'a', 0);
	ev.action = VT_KEY_RELEASE;
	check("k8 a release", &ev, &k8, "");
}

static void test_kitty_alternates_text(void)
{
	struct vt_key_modes k5 = kitty(5), k24 = kitty(24), k28 = kitty(28), k16 = kitty(16);
	struct vt_key_event ev;

	ev = text('A', 'a', VT_MOD_SHIFT | VT_MOD_CTRL);
	check("k5 Ctrl+Shift+a", &ev, &k5, "\033[97:65;6u");
	ev = text('a', 'a', VT_MOD_CTRL);
	check("k5 Ctrl+a", &ev, &k5, "\033[97;5u");
	ev = text(0x441, 0x441, VT_MOD_CTRL);
	ev.base = 'c';
	check("k5 Ctrl+Cyrillic", &ev, &k5, "\033[1089::99;5u");
	ev = text(0x421, 0x441, VT_MOD_CTRL | VT_MOD_SHIFT);
	ev.base = 'c';
	check("k5 Ctrl+Shift+Cyrillic", &ev, &k5, "\033[1089:1057:99;6u");
	/* Associated text (spec examples: "shift+a -> CSI 97 ; 2 ; 65 u"). */
	ev = text('A', 'a', VT_MOD_SHIFT);
	check("k24 Shift+a", &ev, &k24, "\033[97;2;65u");
	ev = text('a', 'a', 0);
	check("k24 a", &ev, &k24, "\033[97;;97u");
	ev.action = VT_KEY_RELEASE;
	check("k24 a release (no flag 2)", &ev, &k24, "");
	struct vt_key_modes k26 = kitty(26);
	check("k26 a release (no text)", &ev, &k26, "\033[97;1:3u");
	ev = text('a', 'a', VT_MOD_CTRL);
	check("k24 Ctrl+a (no text)", &ev, &k24, "\033[97;5u");
	ev = text('A', 'a', VT_MOD_SHIFT);
	check("k28 Shift+a", &ev, &k28, "\033[97:65;2;65u");
	ev = key(VT_KEY_ENTER, 0);
	check("k24 Enter (no text)", &ev, &k24, "\033[13u");
	/* DEL is a control, no associated text: Backspace, KP_Delete on the KP_Decimal key and a key xkb gives
	 * only the text DEL (session 55's mutation audit, K09: counting DEL as text reported the last two as
	 * "CSI 127 ; ; 127 u" and passed every test) */
	ev = key(VT_KEY_BACKSPACE, 0);
	ev.text = 0x7f;
	check("k24 Backspace, text DEL (no text)", &ev, &k24, "\033[127u");
	ev = kp(VT_KEY_KP_DECIMAL, 0x7f, 0);
	check("k24 KP_Decimal, text DEL (no text)", &ev, &k24, "\033[127u");
	ev = text(0x7f, 0x7f, 0);
	check("k24 text DEL (no text)", &ev, &k24, "\033[127u");
	/* A keypad key's text is associated text too: an application that takes its typing from it (all
	 * flags, as Terminal.Gui asks) must get the digits of the number pad. Without flag 1 the keypad keys
	 * are the main keys they stand for (kitty's convert_kp_key_to_normal_key). */
	struct vt_key_modes k25 = kitty(25), k27 = kitty(27);
	ev = kp(VT_KEY_KP_0 + 1, '1', VT_MOD_NUM);
	check("k25 NumLock KP_1", &ev, &k25, "\033[57400;129;49u");
	check("k24 NumLock KP_1", &ev, &k24, "\033[49;129;49u");
	ev = kp(VT_KEY_KP_ADD, '+', 0);
	check("k25 KP_Add", &ev, &k25, "\033[57413;;43u");
	ev.mods = VT_MOD_CTRL;
	check("k25 Ctrl+KP_Add (no text)", &ev, &k25, "\033[57413;5u");
	ev = kp(VT_KEY_KP_ADD, '+', 0);
	ev.action = VT_KEY_RELEASE;
	check("k27 KP_Add release (no text)", &ev, &k27, "\033[57413;1:3u");
	ev = key(VT_KEY_KP_END, VT_MOD_SHIFT);
	check("k25 Shift+KP_End (no text)", &ev, &k25, "\033[57424;2u");
	/* Flag 16 without 8: text keys are still plain text. */
	ev = text('a', 'a', 0);
	check("k16 a", &ev, &k16, "a");
}

/* Hostile or odd input: out-of-range keys, a tiny buffer, surrogate code points, all flag values. */
static void test_robustness(void)
{
	struct vt_key_event ev = key(VT_KEY_COUNT_, 0);
	uint8_t small[3];
	uint8_t big[64];

	check("out of range key", &ev, &legacy, "");
	ev = key((enum vt_keysym)-1, 0);
	check("negative key", &ev, &legacy, "");
	ev = key(VT_KEY_F1 + 4, VT_MOD_CTRL);
	checks++;
	if (vt_key_encode(&ev, &legacy, small, sizeof(small)) != 0) {
		failures++;
		fprintf(stderr, "FAIL small buffer must give 0\n");
	}
	ev = text(0xd800, 0, 0);
	check("surrogate", &ev, &legacy, "\xef\xbf\xbd");
	ev = text(0x110000, 0, 0);
	check("beyond unicode", &ev, &legacy, "\xef\xbf\xbd");
	/* Every key, every modifier set, every action under every flag value: never more than 64 bytes. */
	for (unsigned flags = 0; flags < 256; flags++) {
		struct vt_key_modes m = kitty(flags);
		m.modify_other_keys = (uint8_t)(flags % 3);
		for (int k = 0; k < VT_KEY_COUNT_; k++) {
			for (unsigned mods = 0; mods < 256; mods += 7) {
				for (int a = 1; a <= 3; a++) {
					ev = (struct vt_key_event){.key = k, .action = a, .mods = mods,
								   .text = k ? 0 : 0x10ffff,
								   .unshifted = 0x10ffff, .base = 0x10ffff};
					size_t n = vt_key_encode(&ev, &m, big, sizeof(big));
					uint8_t exact[64];
					checks++;
					/* The bounded writer: exactly n bytes of room suffice, n - 1 give 0. */
					if (n > 48 || (n && (vt_key_encode(&ev, &m, exact, n) != n ||
							     memcmp(exact, big, n) != 0 ||
							     vt_key_encode(&ev, &m, exact, n - 1) != 0))) {
						failures++;
						fprintf(stderr, "FAIL bound %u %d %u %d: %zu\n", flags, k, mods, a, n);
					}
				}
			}
		}
	}
}

int main(void)
{
	test_function_keys();
	test_f13_f24();
	test_keypad();
	test_c0_keys();
	test_text_keys();
	test_modify_other_keys();
	test_kitty_disambiguate();
	test_kitty_lock_mods();
	test_kitty_legacy_paths();
	test_kitty_events();
	test_kitty_alternates_text();
	test_robustness();
	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
