/* kmscon-felis/input-keys.h: from input/'s key events to the key encoder's, and the keys the terminal keeps
 * (kmscon's --grab-* shortcuts, Ctrl+Alt+Fn). Pure functions: no state, no I/O. */
#ifndef KF_INPUT_KEYS_H
#define KF_INPUT_KEYS_H

#include <stdbool.h>

#include "input/input.h"
#include "kmscon-felis/config.h"
#include "vt/vt.h"

/* Fills out for the key encoder. Returns false for keys that send nothing in any encoding (dead keys, the key
 * that broke a compose sequence, media keys, AltGr itself). */
bool kf_key_translate(const struct input_key_event *ev, struct vt_key_event *out);

/* True when ev (a press or repeat) is one of grab's alternatives. Modifiers must be exactly the grab's,
 * ignoring Num Lock, and Caps Lock unless the grab names <Lock>; Shift consumed by the keysym may be left
 * out of the grab ("<Ctrl>plus" matches Ctrl+Shift+= on a US keyboard). Keysyms compare case-insensitively; a
 * letter of a non-Latin layout also matches as its key's US letter (ev->base: Ctrl+Shift+С is <Ctrl><Shift>c). */
bool kf_grab_match(const struct kf_grab *grab, const struct input_key_event *ev);

/* The VT that Ctrl+Alt+Fn (or the keymap's XF86Switch_VT_n keysym) asks for, or 0. */
int kf_key_vt_switch(const struct input_key_event *ev);

#endif
