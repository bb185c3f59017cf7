/* kmscon-felis/input-keys.c: keysyms to the key encoder's keys, grabs, VT switch keys. */
#include "kmscon-felis/input-keys.h"

#include <xkbcommon/xkbcommon-keysyms.h>
#include <xkbcommon/xkbcommon.h>

/* input/ and vt/ share the modifier bit values (both follow the kitty protocol); the translation relies on it. */
_Static_assert((int)INPUT_MOD_SHIFT == (int)VT_MOD_SHIFT && (int)INPUT_MOD_ALT == (int)VT_MOD_ALT &&
		       (int)INPUT_MOD_CTRL == (int)VT_MOD_CTRL && (int)INPUT_MOD_SUPER == (int)VT_MOD_SUPER &&
		       (int)INPUT_MOD_HYPER == (int)VT_MOD_HYPER && (int)INPUT_MOD_META == (int)VT_MOD_META &&
		       (int)INPUT_MOD_CAPS == (int)VT_MOD_CAPS && (int)INPUT_MOD_NUM == (int)VT_MOD_NUM,
	       "input/ and vt/ modifier bits differ");
_Static_assert((int)INPUT_KEY_PRESS == (int)VT_KEY_PRESS && (int)INPUT_KEY_REPEAT == (int)VT_KEY_REPEAT &&
		       (int)INPUT_KEY_RELEASE == (int)VT_KEY_RELEASE,
	       "input/ and vt/ key actions differ");

struct sym_map {
	uint32_t sym;
	enum vt_keysym key;
};

static const struct sym_map syms[] = {
	{XKB_KEY_Return, VT_KEY_ENTER},
	{XKB_KEY_Tab, VT_KEY_TAB},
	{XKB_KEY_ISO_Left_Tab, VT_KEY_TAB},
	{XKB_KEY_BackSpace, VT_KEY_BACKSPACE},
	{XKB_KEY_Escape, VT_KEY_ESCAPE},
	{XKB_KEY_Up, VT_KEY_UP},
	{XKB_KEY_Down, VT_KEY_DOWN},
	{XKB_KEY_Right, VT_KEY_RIGHT},
	{XKB_KEY_Left, VT_KEY_LEFT},
	{XKB_KEY_Home, VT_KEY_HOME},
	{XKB_KEY_End, VT_KEY_END},
	{XKB_KEY_Insert, VT_KEY_INSERT},
	{XKB_KEY_Delete, VT_KEY_DELETE},
	{XKB_KEY_Prior, VT_KEY_PAGE_UP},
	{XKB_KEY_Next, VT_KEY_PAGE_DOWN},
	{XKB_KEY_KP_Decimal, VT_KEY_KP_DECIMAL},
	{XKB_KEY_KP_Divide, VT_KEY_KP_DIVIDE},
	{XKB_KEY_KP_Multiply, VT_KEY_KP_MULTIPLY},
	{XKB_KEY_KP_Subtract, VT_KEY_KP_SUBTRACT},
	{XKB_KEY_KP_Add, VT_KEY_KP_ADD},
	{XKB_KEY_KP_Enter, VT_KEY_KP_ENTER},
	{XKB_KEY_KP_Equal, VT_KEY_KP_EQUAL},
	{XKB_KEY_KP_Separator, VT_KEY_KP_SEPARATOR},
	{XKB_KEY_KP_Up, VT_KEY_KP_UP},
	{XKB_KEY_KP_Down, VT_KEY_KP_DOWN},
	{XKB_KEY_KP_Right, VT_KEY_KP_RIGHT},
	{XKB_KEY_KP_Left, VT_KEY_KP_LEFT},
	{XKB_KEY_KP_Home, VT_KEY_KP_HOME},
	{XKB_KEY_KP_End, VT_KEY_KP_END},
	{XKB_KEY_KP_Insert, VT_KEY_KP_INSERT},
	{XKB_KEY_KP_Delete, VT_KEY_KP_DELETE},
	{XKB_KEY_KP_Prior, VT_KEY_KP_PAGE_UP},
	{XKB_KEY_KP_Next, VT_KEY_KP_PAGE_DOWN},
	{XKB_KEY_KP_Begin, VT_KEY_KP_BEGIN},
	{XKB_KEY_Menu, VT_KEY_MENU},
	{XKB_KEY_Pause, VT_KEY_PAUSE},
	{XKB_KEY_Print, VT_KEY_PRINT},
	{XKB_KEY_Scroll_Lock, VT_KEY_SCROLL_LOCK},
	{XKB_KEY_Caps_Lock, VT_KEY_CAPS_LOCK},
	{XKB_KEY_Num_Lock, VT_KEY_NUM_LOCK},
	{XKB_KEY_Shift_L, VT_KEY_LEFT_SHIFT},
	{XKB_KEY_Shift_R, VT_KEY_RIGHT_SHIFT},
	{XKB_KEY_Control_L, VT_KEY_LEFT_CTRL},
	{XKB_KEY_Control_R, VT_KEY_RIGHT_CTRL},
	{XKB_KEY_Alt_L, VT_KEY_LEFT_ALT},
	{XKB_KEY_Alt_R, VT_KEY_RIGHT_ALT},
	{XKB_KEY_Meta_L, VT_KEY_LEFT_ALT},
	{XKB_KEY_Meta_R, VT_KEY_RIGHT_ALT},
	{XKB_KEY_Super_L, VT_KEY_LEFT_SUPER},
	{XKB_KEY_Super_R, VT_KEY_RIGHT_SUPER},
	{XKB_KEY_Hyper_L, VT_KEY_LEFT_HYPER},
	{XKB_KEY_Hyper_R, VT_KEY_RIGHT_HYPER},
	{XKB_KEY_ISO_Level3_Shift, VT_KEY_ISO_LEVEL3_SHIFT},
	{XKB_KEY_ISO_Level5_Shift, VT_KEY_ISO_LEVEL5_SHIFT},
	{XKB_KEY_XF86AudioPlay, VT_KEY_MEDIA_PLAY},
	{XKB_KEY_XF86AudioPause, VT_KEY_MEDIA_PAUSE},
	{XKB_KEY_XF86AudioStop, VT_KEY_MEDIA_STOP},
	{XKB_KEY_XF86AudioForward, VT_KEY_MEDIA_FAST_FORWARD},
	{XKB_KEY_XF86AudioRewind, VT_KEY_MEDIA_REWIND},
	{XKB_KEY_XF86AudioNext, VT_KEY_MEDIA_TRACK_NEXT},
	{XKB_KEY_XF86AudioPrev, VT_KEY_MEDIA_TRACK_PREVIOUS},
	{XKB_KEY_XF86AudioRecord, VT_KEY_MEDIA_RECORD},
	{XKB_KEY_XF86AudioLowerVolume, VT_KEY_LOWER_VOLUME},
	{XKB_KEY_XF86AudioRaiseVolume, VT_KEY_RAISE_VOLUME},
	{XKB_KEY_XF86AudioMute, VT_KEY_MUTE_VOLUME},
};

static enum vt_keysym map_sym(uint32_t sym)
{
	if (sym >= XKB_KEY_F1 && sym <= XKB_KEY_F24)
		return (enum vt_keysym)(VT_KEY_F1 + (sym - XKB_KEY_F1));
	if (sym >= XKB_KEY_KP_0 && sym <= XKB_KEY_KP_9)
		return (enum vt_keysym)(VT_KEY_KP_0 + (sym - XKB_KEY_KP_0));
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (syms[i].sym == sym)
			return syms[i].key;
	}
	return VT_KEY_NONE;
}

bool kf_key_translate(const struct input_key_event *ev, struct vt_key_event *out)
{
	*out = (struct vt_key_event){
		.key = map_sym(ev->keysym),
		.action = (enum vt_key_action)ev->action,
		.mods = ev->mods,
		.text = ev->cp,
		.unshifted = ev->unshifted,
		.base = ev->base,
	};
	/* a dead key, or any key that broke a compose sequence, types nothing (as in libX11's compose filter) */
	if (ev->composing)
		return false;
	return out->key != VT_KEY_NONE || ev->cp != 0;
}

/* enum kf_mod bits of an input event. */
static uint32_t grab_mods(unsigned mods)
{
	uint32_t m = 0;

	if (mods & INPUT_MOD_SHIFT)
		m |= KF_MOD_SHIFT;
	if (mods & INPUT_MOD_CAPS)
		m |= KF_MOD_LOCK;
	if (mods & INPUT_MOD_CTRL)
		m |= KF_MOD_CTRL;
	if (mods & (INPUT_MOD_ALT | INPUT_MOD_META))
		m |= KF_MOD_ALT;
	if (mods & INPUT_MOD_SUPER)
		m |= KF_MOD_LOGO;
	return m;
}

bool kf_grab_match(const struct kf_grab *grab, const struct input_key_event *ev)
{
	uint32_t mods = grab_mods(ev->mods);
	uint32_t sym = xkb_keysym_to_lower(ev->keysym);
	/* Shortcuts name Latin letters: under a layout of another script, such a letter is its key on a US keyboard
	 * (Ctrl+Shift+С is <Ctrl><Shift>c), as the key encoder sends Ctrl+С as ^C. A Latin layout keeps its own
	 * letters (German Ctrl+Z is the key marked Z). The ASCII letters' keysyms are their code points. */
	uint32_t b = ev->base | 0x20;
	uint32_t alt = vt_non_latin(ev->cp) && b >= 'a' && b <= 'z' ? b : XKB_KEY_NoSymbol;
	/* Shift was used up to produce the character ('+' is Shift+'=' on a US keyboard). */
	bool shift_consumed = (mods & KF_MOD_SHIFT) && ev->cp && ev->unshifted && ev->cp != ev->unshifted;

	if (ev->action == INPUT_KEY_RELEASE)
		return false;
	for (unsigned i = 0; i < grab->n && i < KF_GRAB_MAX; i++) {
		uint32_t want = grab->keys[i].mods;
		uint32_t have = (want & KF_MOD_LOCK) ? mods : mods & ~(uint32_t)KF_MOD_LOCK;
		uint32_t want_sym = xkb_keysym_to_lower(grab->keys[i].keysym);
		if (want_sym != sym && (alt == XKB_KEY_NoSymbol || want_sym != alt))
			continue;
		if (have == want || (shift_consumed && (have & ~(uint32_t)KF_MOD_SHIFT) == want))
			return true;
	}
	return false;
}

int kf_key_vt_switch(const struct input_key_event *ev)
{
	unsigned m = ev->mods & (INPUT_MOD_CTRL | INPUT_MOD_ALT | INPUT_MOD_SHIFT | INPUT_MOD_SUPER);

	if (ev->action != INPUT_KEY_PRESS)
		return 0;
	if (ev->keysym >= XKB_KEY_XF86Switch_VT_1 && ev->keysym <= XKB_KEY_XF86Switch_VT_12)
		return (int)(ev->keysym - XKB_KEY_XF86Switch_VT_1) + 1;
	/* Keymaps without the "srvrkeys" levels still give F1..F12 with Ctrl+Alt held. */
	if (m == (INPUT_MOD_CTRL | INPUT_MOD_ALT) && ev->keysym >= XKB_KEY_F1 && ev->keysym <= XKB_KEY_F12)
		return (int)(ev->keysym - XKB_KEY_F1) + 1;
	return 0;
}
