"""Keyboard and pointer input for the QEMU harness (tests/vm/): QMP send-key (keys with QEMU's own press/release
timing, text in the US layout) and input-send-event (relative mouse motion, buttons)."""

import time


class InputMixin:
    """Keys and pointer of a VM; needs self.qmp from vmqemu.VM."""

    def sendkey(self, keys, hold_ms=None):
        """Presses a key combination in QEMU's sendkey syntax: "a", "ret", "ctrl-alt-f2", "shift-a"."""
        args = {"keys": [{"type": "qcode", "data": k} for k in keys.split("-")]}
        if hold_ms:
            args["hold-time"] = hold_ms
        self.qmp.cmd("send-key", **args)

    KEYNAMES = {" ": "spc", "\n": "ret", "\t": "tab", "-": "minus", "=": "equal", "[": "bracket_left",
                "]": "bracket_right", ";": "semicolon", "'": "apostrophe", "`": "grave_accent", "\\": "backslash",
                ",": "comma", ".": "dot", "/": "slash"}
    SHIFTED = {"!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6", "&": "7", "*": "8", "(": "9", ")": "0",
               "_": "minus", "+": "equal", "{": "bracket_left", "}": "bracket_right", ":": "semicolon",
               "\"": "apostrophe", "~": "grave_accent", "|": "backslash", "<": "comma", ">": "dot", "?": "slash"}

    def type_text(self, text, delay=0.03):
        """Types TEXT (US layout) with send-key, one key at a time."""
        for ch in text:
            if ch in self.SHIFTED:
                k = "shift-" + self.KEYNAMES.get(self.SHIFTED[ch], self.SHIFTED[ch])
            elif ch.isupper():
                k = "shift-" + ch.lower()
            else:
                k = self.KEYNAMES.get(ch, ch)
            self.sendkey(k)
            time.sleep(delay)

    # Pointer events go to the input device QEMU routes them to: with device=None the last activated one that
    # takes them (the virtio mouse, or a tablet added later); with device="gpu0" one bound to that console
    # (-device virtio-tablet-pci,display=gpu0). See README.md, "Pointer".
    def pointer_events(self, events, device=None):
        args = {"events": events}
        if device:
            args["device"] = device
        self.qmp.cmd("input-send-event", **args)

    def mouse_move(self, dx, dy, device=None):
        self.pointer_events([{"type": "rel", "data": {"axis": "x", "value": dx}},
                             {"type": "rel", "data": {"axis": "y", "value": dy}}], device)

    def tablet_move(self, x, y, device=None):
        """Moves an absolute pointer (a tablet) to X, Y in 0..32767 across the screen."""
        self.pointer_events([{"type": "abs", "data": {"axis": "x", "value": x}},
                             {"type": "abs", "data": {"axis": "y", "value": y}}], device)

    def mouse_button(self, button="left", down=True, device=None):
        self.pointer_events([{"type": "btn", "data": {"button": button, "down": down}}], device)
