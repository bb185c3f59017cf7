/* tests/vt/test-keys-kitty.c: the key encoder against kitty's keyboard protocol specification
 * (https://sw.kovidgoyal.net/kitty/keyboard-protocol/): each flag of CSI > flags u, the lock modifiers, the
 * keys kept on their legacy encodings, press/repeat/release events, alternate keys and associated text. Out of
 * test-keys.c (xterm's encodings), past 800 lines with these. Expected strings are written out from the
 * documents, not computed by the code under test. */
#include "tests/vt/keys-check.h"

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
int main(void)
{
	test_kitty_disambiguate();
	test_kitty_lock_mods();
	test_kitty_legacy_paths();
	test_kitty_events();
	test_kitty_alternates_text();
	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
