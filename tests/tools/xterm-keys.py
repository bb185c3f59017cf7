#!/usr/bin/env python3
"""tests/tools/xterm-keys.py: differential test of the key encoder against a real xterm (a developer tool, not
part of the test suite; CI never runs it).

A case is a key with modifiers, xdotool's way ("ctrl+shift+Up"), under a set of input modes. xterm (under
Xvfb, as tests/tools/xterm-replies.py runs it) runs a recorder that puts its tty in raw mode, writes the
modes' sequences once (DECCKM `CSI ? 1 h`, DECKPAM `ESC =`, DECBKM `CSI ? 67 h`, modifyOtherKeys
`CSI > 4 ; 1 m` / `CSI > 4 ; 2 m`, LNM `CSI 20 h`, metaSendsEscape `CSI ? 1036 l`), and records what each key
sends; xdotool types the keys through XTEST (real key events, with the X server's NumLock state), each
followed by a plain `z` that closes its bytes. Our side is tests/tools/key-bytes (built with the project): the
same key through input/ (xkbcommon, US layout), kf_key_translate and vt_key_encode, as the program does.
Both sides start from the same keysym and modifiers, and the bytes are compared exactly.

xterm runs with -u8 (UTF-8), metaSendsEscape (Alt prefixes ESC, as here at power-on), its other resources
at their defaults, and with translations that send every key to the terminal (`--xterm-translations` keeps
xterm's own, which take Shift+PageUp/PageDown/Insert, Shift+keypad +/-, Alt+Return for themselves). On
Debian, xterm's Backspace sends the tty's erase character (ptyInitialErase, backarrowKeyIsErase), DEL, which
is our default too.

Families: arrows, Home, End, Insert, Delete, PageUp, PageDown, F1..F24 with every combination of Shift, Ctrl
and Alt (normal and DECCKM); the keypad with and without DECKPAM and NumLock; Tab, BackSpace, Return, Escape
and space with modifiers (and DECBKM, LNM); Ctrl with letters, digits and punctuation; Alt with letters; the
text keys again under modifyOtherKeys 1 and 2; and German and French letters (ü, é, ...) with modifiers, which
only a layout that has them types (--layout de, --layout fr).

Run from the worktree after building:
  tests/tools/xterm-keys.py                          # every family, differences printed
  tests/tools/xterm-keys.py --only 'mok2'            # the cases whose name matches
  tests/tools/xterm-keys.py --case 'ckm ctrl+Up'     # one case: modes (or -) and the key
  tests/tools/xterm-keys.py --json out.json          # every difference, machine-readable
  tests/tools/xterm-keys.py --layout de --only latin # Ctrl and Alt with German letters, both sides on de
  tests/tools/xterm-keys.py --xterm-args "-xrm 'XTerm*metaSendsEscape: false'"   # xterm's Alt default
Prints each difference and a summary by class; exits 0 whatever it finds. Starts Xvfb on --display (:99) and
stops it. docs/conformance.md lists the differences kept on purpose.
"""
import argparse
import json
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import import_module

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
xdiff = import_module("xterm-diff")
escape, Xvfb = xdiff.escape, xdiff.Xvfb

# The sequences each mode word writes in xterm (key-bytes takes the same words).
MODES = {
    "ckm": b"\x1b[?1h",
    "kpam": b"\x1b=",
    "bs": b"\x1b[?67h",
    "mok1": b"\x1b[>4;1m",
    "mok2": b"\x1b[>4;2m",
    "lnm": b"\x1b[20h",
    "numlock": b"",  # the X server's NumLock, toggled with xdotool
}

# Every key goes to insert-seven-bit (xterm's key handler, which encodes it): the translations xterm has
# beyond that bind keys to its own actions (scrolling, font size, paste, fullscreen) that a console does
# through its --grab-* shortcuts.
TRANSLATIONS = "#replace\\n<KeyPress>: insert-seven-bit()"

MARK = b"z"  # typed after each key: ends its bytes (no case uses the z key)

# ---------------------------------------------------------------------------------------------------------
# The recorder: runs inside xterm, sets the modes, and writes each key's bytes as a line of hex.


def recorder(setup_hex, result_path):
    import tty
    fd = os.open("/dev/tty", os.O_RDWR)
    tty.setraw(fd)
    os.write(fd, bytes.fromhex(setup_hex))
    with open(result_path, "a") as out:
        out.write(json.dumps({"ready": os.environ.get("WINDOWID", "")}) + "\n")
        out.flush()
        buf = b""
        idle = time.time()
        while time.time() - idle < 20:
            r, _, _ = select.select([fd], [], [], 0.2)
            if not r:
                continue
            idle = time.time()
            buf += os.read(fd, 4096)
            while MARK in buf:
                i = buf.index(MARK)
                out.write(json.dumps(buf[:i].hex()) + "\n")
                out.flush()
                buf = buf[i + 1:]


# ---------------------------------------------------------------------------------------------------------
# Running both sides.


def lines(path):
    try:
        return [json.loads(line) for line in open(path)]
    except (OSError, ValueError):
        return []


def wait_lines(path, n, timeout):
    end = time.time() + timeout
    while time.time() < end:
        got = lines(path)
        if len(got) >= n:
            return got
        time.sleep(0.02)
    return lines(path)


def xdo(display, *args):
    subprocess.run(["xdotool"] + list(args), env=dict(os.environ, DISPLAY=display), check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)


def numlock_on(display):
    out = subprocess.run(["xset", "q"], env=dict(os.environ, DISPLAY=display), capture_output=True,
                         text=True).stdout if shutil.which("xset") else ""
    m = re.search(r"Num Lock:\s+(on|off)", out)
    return m and m.group(1) == "on"


def run_xterm(display, modes, combos, tmp, extra):
    """The bytes xterm sends for each combo under modes (None where it did not get through)."""
    rpath = os.path.join(tmp, "result.jsonl")
    if os.path.exists(rpath):
        os.unlink(rpath)
    words = [] if modes == "-" else modes.split(",")
    setup = b"".join(MODES[w] for w in words)
    cmd = (["xterm", "-display", display, "-u8", "-geometry", "80x24",
            "-xrm", "XTerm*metaSendsEscape: true"] + extra +
           ["-e", sys.executable, os.path.abspath(__file__), "--recorder", setup.hex(), rpath])
    proc = subprocess.Popen(cmd, env=dict(os.environ, LC_ALL="C.UTF-8"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    out = []
    try:
        got = wait_lines(rpath, 1, 15)
        if not got:
            return [None] * len(combos)
        wid = got[0]["ready"]
        xdo(display, "mousemove", "100", "100")
        xdo(display, "windowfocus", "--sync", wid)
        want_num = "numlock" in words
        if bool(numlock_on(display)) != want_num:
            xdo(display, "key", "Num_Lock")
        for i, combo in enumerate(combos):
            xdo(display, "key", combo, "z")
            got = wait_lines(rpath, i + 2, 3)
            if len(got) < i + 2:
                out += [None] * (len(combos) - i)
                break
            out.append(bytes.fromhex(got[i + 1]))
        if want_num:
            xdo(display, "key", "Num_Lock")
    finally:
        proc.terminate()
        proc.wait()
    return out


def run_ours(tool, cases, layout):
    inp = "".join("%s %s\n" % (m, c) for _, m, c in cases)
    p = subprocess.run([tool, layout], input=inp.encode(), capture_output=True, timeout=60)
    res = []
    for line in p.stdout.decode().split("\n")[:len(cases)]:
        res.append(line if line.startswith(("vt ", "unknown")) else bytes.fromhex(line))
    return res


# ---------------------------------------------------------------------------------------------------------
# Cases: (name, modes, combo).

MOD_SETS = [[], ["shift"], ["ctrl"], ["alt"], ["shift", "ctrl"], ["shift", "alt"], ["ctrl", "alt"],
            ["shift", "ctrl", "alt"]]
EDIT_KEYS = ["Up", "Down", "Right", "Left", "Home", "End", "Insert", "Delete", "Prior", "Next"]
FKEYS = ["F%d" % i for i in range(1, 25)]
# The keypad's keys by their keysym with NumLock off (the same key gives KP_7 etc. with NumLock on).
KP_KEYS = ["KP_Insert", "KP_End", "KP_Down", "KP_Next", "KP_Left", "KP_Begin", "KP_Right", "KP_Home", "KP_Up",
           "KP_Prior", "KP_Delete", "KP_Divide", "KP_Multiply", "KP_Subtract", "KP_Add", "KP_Enter"]
C0_KEYS = ["Tab", "BackSpace", "Return", "Escape", "space"]
LETTERS = ["a", "c", "h", "i", "m", "q", "s", "x", "y"]
DIGITS = [str(d) for d in range(10)]
# The letters of a Latin layout that ASCII has not, by layout (xdotool types another layout's with a spare key
# code, which key-bytes has not).
LATIN = {"de": ["udiaeresis", "odiaeresis", "adiaeresis", "ssharp"],
         "fr": ["eacute", "egrave", "ccedilla", "agrave", "ugrave"]}
PUNCT = ["grave", "minus", "equal", "bracketleft", "bracketright", "backslash", "semicolon", "apostrophe",
         "comma", "period", "slash"]


def combo(mods, key):
    return "+".join(mods + [key])


def families(layout):
    out = []

    def add(name, modes, c):
        out.append((name, modes, c))

    for modes in ("-", "ckm"):
        for k in EDIT_KEYS + FKEYS:
            for ms in MOD_SETS:
                add("edit-%s-%s" % (modes, combo(ms, k)), modes, combo(ms, k))
    for modes in ("-", "kpam", "numlock", "kpam,numlock", "ckm", "ckm,kpam"):
        for k in KP_KEYS:
            for ms in MOD_SETS:
                add("keypad-%s-%s" % (modes, combo(ms, k)), modes, combo(ms, k))
    text_keys = C0_KEYS + LETTERS + DIGITS + PUNCT
    for modes in ("-", "mok1", "mok2"):
        for k in text_keys:
            for ms in MOD_SETS:
                if modes == "-" and not ms and k not in C0_KEYS:
                    continue  # a plain letter: no encoding to compare
                add("text-%s-%s" % (modes, combo(ms, k)), modes, combo(ms, k))
    # A Latin layout's own letters (--layout de or fr): Ctrl and Alt with them, which X11 leaves alone. Not Shift:
    # the real key gives another character with it (Shift+é is 2 on fr), where xdotool types the capital.
    for k in LATIN.get(layout, []):
        for ms in ([], ["ctrl"], ["alt"], ["ctrl", "alt"]):
            add("latin---%s" % combo(ms, k), "-", combo(ms, k))
    for modes in ("bs", "lnm"):
        for k in ("BackSpace", "Return", "KP_Enter"):
            for ms in MOD_SETS:
                add("c0-%s-%s" % (modes, combo(ms, k)), modes, combo(ms, k))
    return out


def classify(name, combo):
    """A difference's class: the family, its modes and the key, without the modifiers."""
    return "%s-%s/%s" % (name.split("-")[0], name.split("-")[1] or "-", combo.split("+")[-1])


# ---------------------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--recorder":
        recorder(sys.argv[2], sys.argv[3])
        return 0
    ap = argparse.ArgumentParser(description="compare the key encoder with a real xterm's keys")
    ap.add_argument("--key-bytes", default=os.path.join(ROOT, "build", "tests", "tools", "key-bytes"))
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--case", action="append", default=[], help="'MODES COMBO', e.g. 'ckm,kpam ctrl+KP_Home'")
    ap.add_argument("--display", default=":99", help="the Xvfb display to start (default :99); with "
                    "XDIFF_DISPLAY set, an X server already running there is used instead")
    ap.add_argument("--xterm-translations", action="store_true", help="keep xterm's default translations")
    ap.add_argument("--xterm-args", default="", help="more xterm options, e.g. "
                    "\"-xrm 'XTerm*metaSendsEscape: false'\" (xterm's own default)")
    ap.add_argument("--json", help="write every difference to this file")
    ap.add_argument("--layout", default="us", help="the XKB layout of both sides (setxkbmap on the X server; "
                    "key-bytes' keymap): 'de' or 'fr' with --only latin compares Ctrl with their own letters")
    a = ap.parse_args()
    for tool in ("xterm", "Xvfb", "xdotool"):
        if not shutil.which(tool) and not (tool == "Xvfb" and os.environ.get("XDIFF_DISPLAY")):
            sys.exit("%s not found: apt-get install -y xterm xvfb xdotool" % tool)
    if not os.path.exists(a.key_bytes):
        sys.exit("%s not found: build the project first (ninja -C build)" % a.key_bytes)
    cases = [("case-%d" % i,) + tuple(c.split(None, 1)) for i, c in enumerate(a.case)] or families(a.layout)
    if a.only:
        cases = [c for c in cases if re.search(a.only, c[0])]
    extra = [] if a.xterm_translations else ["-xrm", "XTerm*VT100.translations: " + TRANSLATIONS]
    extra += shlex.split(a.xterm_args)

    ours = run_ours(a.key_bytes, cases, a.layout)
    diffs, lost = [], 0
    by_modes = {}
    for i, c in enumerate(cases):
        by_modes.setdefault(c[1], []).append(i)
    with Xvfb(a.display) as x, tempfile.TemporaryDirectory(prefix="xterm-keys-") as tmp:
        if a.layout != "us" and subprocess.run(["setxkbmap", "-display", x.display, a.layout]).returncode:
            sys.exit("setxkbmap %s failed (apt-get install -y x11-xkb-utils)" % a.layout)
        for modes, idx in by_modes.items():
            xr = run_xterm(x.display, modes, [cases[i][2] for i in idx], tmp, extra)
            for i, xx in zip(idx, xr):
                name, m, c = cases[i]
                oo = ours[i]
                if xx is None:
                    print("LOST %s (xterm did not answer)" % name)
                    lost += 1
                    continue
                if isinstance(oo, str):
                    if oo.startswith("vt "):
                        continue  # Ctrl+Alt+Fn switches VTs here: the program keeps it
                    oo = oo.encode()
                if xx == oo:
                    continue
                d = {"name": name, "modes": m, "key": c, "ours": escape(oo), "xterm": escape(xx),
                     "class": classify(name, c)}
                diffs.append(d)
                print("DIFF %-40s ours %-22s xterm %s" % (name, d["ours"], d["xterm"]))
    if a.json:
        json.dump(diffs, open(a.json, "w"), indent=1, ensure_ascii=False)
    classes = {}
    for d in diffs:
        classes[d["class"]] = classes.get(d["class"], 0) + 1
    for k in sorted(classes):
        print("  %-30s %d" % (k, classes[k]))
    print("%d cases, %d differ from xterm%s" % (len(cases), len(diffs), ", %d lost" % lost if lost else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
