#!/usr/bin/env python3
"""tests/tools/xterm-mouse.py: differential test of the mouse reports against a real xterm (a developer tool,
not part of the test suite; CI never runs it).

Each case is a set of modes (DECSET 9/1000/1002/1003, the encodings 1005/1006/1015/1016, 1007 and the
alternate screen) and a short list of pointer events: the pointer to a cell's centre (or a pixel inside it),
modifiers pressed and released, buttons pressed and released, wheel notches. Both sides get the same events:
  - xterm 379 under Xvfb, with a fixed font (-fn 6x13), no border and the window at +0+0, so that a cell is a
    known rectangle of the screen. A recorder runs inside it: it puts its tty in raw mode, writes each case's
    modes, and records what xterm sends until a marker key (F12, CSI 24 ~) that xdotool types after the
    case's events (X queues the fake key behind the fake pointer events, so every report is in by then).
    xdotool moves the pointer and presses buttons and keys through XTEST, as a real device would.
  - tests/tools/mouse-events (built by meson from tests/tools/mouse-events.c): the real input/ module and
    kmscon-felis/input-glue.c with its grid, fed the same events as libinput's would be on a console, with the
    same cell size in pixels (for SGR-Pixels).
The reports are compared byte for byte.

Families: buttons 1-3 press/release and the wheel (4/5, and 6/7 left/right) in X10 (9), normal (1000),
button-event (1002) and any-event (1003) tracking with each encoding; drags and motion without a button;
motion inside one cell (no duplicate reports); two buttons held in a drag; Shift, Alt and Ctrl held (xterm
keeps Shift for its own selection, as we do); positions past 95 and 223 columns in each encoding (the window
is 300x30 cells); the wheel with DECSET 1007 on the alternate screen and no mouse mode; clicks, drags, motion
and the wheel on a double-width (ESC # 6) and a double-height (ESC # 3, ESC # 4) row (dbl-).

Needs: apt-get install -y xterm xvfb xdotool (xterm 379). Run from the worktree after building:
  tests/tools/xterm-mouse.py                      # every case, differences printed
  tests/tools/xterm-mouse.py --only 1006          # the cases whose name matches
  tests/tools/xterm-mouse.py --json out.json      # every case with both sides' bytes, machine-readable
  tests/tools/xterm-mouse.py --size 2100x240 --only far   # past UTF-8's reach (2015) and row 223
Prints each difference (the case's name, modes, events and both sides' bytes, escaped) and a summary; exits 0
whatever it finds. Starts Xvfb on --display (:96) and stops it. docs/conformance.md lists the differences kept
on purpose.
"""
import argparse
import json
import os
import re
import select
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

COLS, ROWS = 300, 30  # the default --size; Xvfb gets a screen large enough for it in 6x13
FONT = "6x13"
# Every mouse mode off, the normal screen, the cursor keys normal; then RIS. (xterm's RIS keeps 1007, and
# a reset of 1000 must come after the encodings' for none to stay.)
RESET = (b"\x1b[?1016l\x1b[?1015l\x1b[?1006l\x1b[?1005l\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l"
         b"\x1b[?1007l\x1b[?1049l\x1b[?1l\x1bc")
MARKER = b"\x1b[24~"  # F12

# ---------------------------------------------------------------------------------------------------------
# The recorder: runs inside xterm. For each case the controller writes cmd.json ({"id", "modes"}: the modes
# of each of its parts); for each part the recorder writes its modes, says ready (ready.ID.PART) and reads
# until the marker; then it writes the case's bytes (out.ID).


def recorder(tmp):
    import tty
    fd = os.open("/dev/tty", os.O_RDWR)
    tty.setraw(fd)
    # the cell's size in pixels (XTWINOPS 16), so that the controller can check the font
    os.write(fd, b"\x1b[16t")
    buf = b""
    deadline = time.time() + 3
    while not re.search(rb"\x1b\[6;\d+;\d+t", buf) and time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            buf += os.read(fd, 4096)
    open(os.path.join(tmp, "cell.tmp"), "wb").write(buf)
    os.rename(os.path.join(tmp, "cell.tmp"), os.path.join(tmp, "cell"))
    cmd = os.path.join(tmp, "cmd.json")
    while True:
        if not os.path.exists(cmd):
            time.sleep(0.01)
            continue
        c = json.load(open(cmd))
        os.unlink(cmd)
        if c["id"] < 0:
            return
        res = ""
        for part, modes in enumerate(c["modes"]):
            if part == 0:
                os.write(fd, RESET + bytes.fromhex(modes))
                # drain what the reset may have answered
                time.sleep(0.05)
                while select.select([fd], [], [], 0.05)[0]:
                    os.read(fd, 4096)
            else:
                os.write(fd, bytes.fromhex(modes))
            open(os.path.join(tmp, "ready.%d.%d" % (c["id"], part)), "w").close()
            buf = b""
            deadline = time.time() + 5
            while not buf.endswith(MARKER) and time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.1)
                if r:
                    buf += os.read(fd, 4096)
            if not buf.endswith(MARKER):
                res = "TIMEOUT:" + res + buf.hex()
                break
            res += buf[:-len(MARKER)].hex()
        path = os.path.join(tmp, "out.%d" % c["id"])
        open(path + ".tmp", "w").write(res)
        os.rename(path + ".tmp", path)


# ---------------------------------------------------------------------------------------------------------
# Events. ("at", col, row[, dx, dy]): the pointer to the cell's centre (moved by dx, dy pixels);
# ("key", "shift"|"alt"|"ctrl", 1|0); ("btn", n, 1|0); ("wheel", n): one notch, X button 4 up, 5 down,
# 6 left, 7 right; ("modes", str): the application changes modes there (in xterm, once the reports of the
# events before it are in).


def parts(modes, events):
    """The case as (modes, events) parts, split at its ("modes", ...) events."""
    out = [(modes, [])]
    for ev in events:
        if ev[0] == "modes":
            out.append((ev[1], []))
        else:
            out[-1][1].append(ev)
    return out


def pixel(ev, cw, ch):
    x = ev[1] * cw + cw // 2 + (ev[3] if len(ev) > 3 else 0)
    y = ev[2] * ch + ch // 2 + (ev[4] if len(ev) > 4 else 0)
    return x, y


def xdotool_args(events, cw, ch):
    a = []
    for ev in events:
        if ev[0] == "at":
            # a pause after each move: Xt compresses motion events queued together, and xterm would see
            # only the last of a quick series
            a += ["mousemove", "%d" % pixel(ev, cw, ch)[0], "%d" % pixel(ev, cw, ch)[1], "sleep", "0.03"]
        elif ev[0] == "key":
            a += ["keydown" if ev[2] else "keyup", {"shift": "Shift_L", "alt": "Alt_L", "ctrl": "Control_L"}[ev[1]]]
        elif ev[0] == "btn":
            a += ["mousedown" if ev[2] else "mouseup", str(ev[1])]
        elif ev[0] == "wheel":
            a += ["click", str(ev[1])]
    return a


def script_lines(events, cw, ch):
    s = []
    for ev in events:
        if ev[0] == "at":
            s.append("AT %d %d" % pixel(ev, cw, ch))
        elif ev[0] == "key":
            s.append("KEY %s %d" % (ev[1], ev[2]))
        elif ev[0] == "btn":
            s.append("BTN %d %d" % (ev[1], ev[2]))
        elif ev[0] == "wheel":
            s.append("WHEEL %d %d" % {4: (-1, 0), 5: (1, 0), 6: (0, -1), 7: (0, 1)}[ev[1]])
        elif ev[0] == "modes":
            s.append("FEED " + ev[1].encode().hex())
    return s


# ---------------------------------------------------------------------------------------------------------
# Cases: (name, modes, events).

MODES = [("x10", "\x1b[?9h"), ("1000", "\x1b[?1000h"), ("1002", "\x1b[?1002h"), ("1003", "\x1b[?1003h")]
ENCODINGS = [("def", ""), ("1005", "\x1b[?1005h"), ("1006", "\x1b[?1006h"), ("1015", "\x1b[?1015h")]


def click(b, col=10, row=5, mods=()):
    ev = [("at", col, row)] + [("key", m, 1) for m in mods]
    ev += [("btn", b, 1), ("btn", b, 0)]
    return ev + [("key", m, 0) for m in reversed(mods)]


def wheel(b, col=10, row=5, mods=()):
    return [("at", col, row)] + [("key", m, 1) for m in mods] + [("wheel", b)] + \
        [("key", m, 0) for m in reversed(mods)]


def cases():
    out = []
    for mname, mset in MODES:
        for ename, eset in ENCODINGS:
            modes = mset + eset
            pre = "%s-%s-" % (mname, ename)
            for b in (1, 2, 3, 8, 9, 10):  # 11 (BTN_BACK): Xvfb's pointer has 10 buttons
                out.append((pre + "click%d" % b, modes, click(b)))
            for b in (4, 5, 6, 7):
                out.append((pre + "wheel%d" % b, modes, wheel(b)))
            out.append((pre + "drag1", modes, [("at", 10, 5), ("btn", 1, 1), ("at", 11, 5), ("at", 12, 6),
                                                ("btn", 1, 0)]))
            out.append((pre + "drag3", modes, [("at", 10, 5), ("btn", 3, 1), ("at", 10, 6), ("btn", 3, 0)]))
            out.append((pre + "drag8", modes, [("at", 10, 5), ("btn", 8, 1), ("at", 10, 6), ("btn", 8, 0)]))
            out.append((pre + "motion", modes, [("at", 10, 5), ("at", 11, 5), ("at", 11, 6), ("at", 13, 6)]))
            # inside one cell: the pointer moves by pixels, then to the next cell
            out.append((pre + "incell", modes, [("at", 10, 5), ("at", 10, 5, 1, 0), ("at", 10, 5, 2, 3),
                                                 ("at", 11, 5)]))
            out.append((pre + "incell-drag", modes, [("at", 10, 5), ("btn", 1, 1), ("at", 10, 5, 1, 1),
                                                      ("at", 10, 5, -2, 2), ("at", 11, 5), ("at", 11, 5, 1, 0),
                                                      ("btn", 1, 0)]))
            out.append((pre + "two-buttons", modes, [("at", 10, 5), ("btn", 1, 1), ("btn", 3, 1), ("at", 11, 5),
                                                      ("btn", 1, 0), ("at", 12, 5), ("btn", 3, 0)]))
            for mod in ("shift", "alt", "ctrl"):
                for b in (1, 2, 3):
                    out.append((pre + "%s-click%d" % (mod, b), modes, click(b, mods=(mod,))))
                out.append((pre + "%s-wheel5" % mod, modes, wheel(5, mods=(mod,))))
                out.append((pre + "%s-drag" % mod, modes, [("at", 10, 5), ("key", mod, 1), ("btn", 1, 1),
                                                           ("at", 11, 5), ("btn", 1, 0), ("key", mod, 0)]))
                # the modifier pressed during a drag the application had (its press reported)
                out.append((pre + "%s-middrag" % mod, modes, [("at", 10, 5), ("btn", 1, 1), ("key", mod, 1),
                                                              ("at", 11, 5), ("btn", 1, 0), ("key", mod, 0)]))
            out.append((pre + "alt-ctrl-click1", modes, click(1, mods=("alt", "ctrl"))))
    # positions past what one byte carries: 95 (the printable range) and 223 (one byte), 1-based, and past
    # UTF-8's 2015 and rows past 223 with a --size large enough
    for ename, eset in ENCODINGS + [("1016", "\x1b[?1006h\x1b[?1016h")]:
        for col in (93, 94, 95, 96, 126, 127, 221, 222, 223, 224, 250, 2013, 2014, 2015, 2016, COLS - 1):
            if col < COLS:
                out.append(("far-1000-%s-col%d" % (ename, col), "\x1b[?1000h" + eset, click(1, col, ROWS - 1)))
        for row in (221, 222, 223, 224, ROWS - 1):
            if 224 < ROWS and row < ROWS:
                out.append(("far-1000-%s-row%d" % (ename, row), "\x1b[?1000h" + eset, click(1, 10, row)))
        if ROWS > 226:
            out.append(("far-1002-%s-drag-rows" % ename, "\x1b[?1002h" + eset,
                        [("at", 3, 221), ("btn", 1, 1), ("at", 3, 222), ("at", 3, 223), ("at", 3, 224),
                         ("at", 3, 226), ("btn", 1, 0)]))
        out.append(("far-1002-%s-drag" % ename, "\x1b[?1002h" + eset,
                    [("at", 221, 3), ("btn", 1, 1), ("at", 222, 3), ("at", 223, 3), ("at", 224, 3), ("at", 299, 3),
                     ("btn", 1, 0)]))
        out.append(("far-1003-%s-motion" % ename, "\x1b[?1003h" + eset,
                    [("at", 93, 0), ("at", 94, 0), ("at", 95, 0), ("at", 96, 0), ("at", 222, 0), ("at", 223, 0),
                     ("at", 224, 0)]))
    # the application changes modes between the events
    sgr = "\x1b[?1006h"
    out += [
        ("switch-1000-off-before-release", "\x1b[?1000h" + sgr, [("at", 10, 5), ("btn", 1, 1),
                                                                ("modes", "\x1b[?1000l"), ("btn", 1, 0)]),
    ]
    for b in (1, 2, 3, 8):
        out.append(("switch-1000-on-before-release%d" % b, sgr, [("at", 10, 5), ("btn", b, 1),
                                                                ("modes", "\x1b[?1000h"), ("btn", b, 0)]))
    out += [
        ("switch-x10-to-1000-before-release", "\x1b[?9h" + sgr, [("at", 10, 5), ("btn", 1, 1),
                                                                 ("modes", "\x1b[?1000h"), ("btn", 1, 0)]),
        ("switch-1002-to-1003-in-cell", "\x1b[?1002h" + sgr, [("at", 10, 5), ("at", 11, 6),
                                                              ("modes", "\x1b[?1003h"), ("at", 11, 6, 1, 0),
                                                              ("at", 11, 6, 2, 0)]),
        ("switch-1000-to-1002-mid-drag", "\x1b[?1000h" + sgr, [("at", 10, 5), ("btn", 1, 1), ("at", 11, 5),
                                                               ("modes", "\x1b[?1002h"), ("at", 11, 5, 1, 0),
                                                               ("at", 12, 5), ("btn", 1, 0)]),
        ("switch-encoding-mid-drag", "\x1b[?1002h", [("at", 10, 5), ("btn", 1, 1), ("at", 11, 5),
                                                     ("modes", sgr), ("at", 12, 5), ("btn", 1, 0)]),
        ("switch-1003-off-on", "\x1b[?1003h" + sgr, [("at", 10, 5), ("at", 11, 5), ("modes", "\x1b[?1003l"),
                                                     ("at", 12, 5), ("modes", "\x1b[?1003h"), ("at", 12, 5, 1, 0),
                                                     ("at", 13, 5)]),
        ("switch-1003-to-1000-hover", "\x1b[?1003h" + sgr, [("at", 10, 5), ("at", 11, 5),
                                                            ("modes", "\x1b[?1000h"), ("at", 12, 5),
                                                            ("btn", 1, 1), ("btn", 1, 0)]),
    ]
    # SGR-Pixels: pixels inside a cell are reported
    for mname, mset in MODES[1:]:
        modes = mset + "\x1b[?1006h\x1b[?1016h"
        out.append(("1016-%s-click1" % mname, modes, click(1)))
        out.append(("1016-%s-wheel4" % mname, modes, wheel(4)))
        out.append(("1016-%s-incell-drag" % mname, modes, [("at", 10, 5), ("btn", 1, 1), ("at", 10, 5, 1, 1),
                                                           ("at", 11, 5), ("btn", 1, 0)]))
        out.append(("1016-%s-motion" % mname, modes, [("at", 10, 5), ("at", 10, 5, 1, 0), ("at", 12, 7)]))
    # double-width and double-height rows (DECDWL, DECDHL): row 5 (0-based) made double, the pointer at
    # display columns of it (two a character) and across to the single rows around it
    for dname, dset in (("dwl", "\x1b[6;1H\x1b#6"), ("dhl", "\x1b[6;1H\x1b#3\x1b[7;1H\x1b#4")):
        for ename, eset in ENCODINGS + [("1016", "\x1b[?1006h\x1b[?1016h")]:
            pre = "dbl-%s-%s-" % (dname, ename)
            for col in (0, 1, 10, 11, 40, 41, 79):
                out.append((pre + "click1-col%d" % col, dset + "\x1b[?1000h" + eset, click(1, col, 5)))
            out.append((pre + "drag", dset + "\x1b[?1002h" + eset,
                        [("at", 10, 4), ("btn", 1, 1), ("at", 10, 5), ("at", 11, 5), ("at", 12, 5),
                         ("at", 13, 6), ("btn", 1, 0)]))
            out.append((pre + "motion", dset + "\x1b[?1003h" + eset,
                        [("at", 20, 5), ("at", 21, 5), ("at", 22, 5), ("at", 22, 6), ("at", 23, 6)]))
            out.append((pre + "wheel4", dset + "\x1b[?1000h" + eset, wheel(4, 31, 5)))
    # 1007: the wheel on the alternate screen without mouse reporting
    for name, modes in (("alt", "\x1b[?1049h\x1b[?1007h"), ("alt-decckm", "\x1b[?1049h\x1b[?1007h\x1b[?1h"),
                        ("normal-screen", "\x1b[?1007h"), ("alt-no1007", "\x1b[?1049h"),
                        ("alt-1000", "\x1b[?1049h\x1b[?1007h\x1b[?1000h")):
        for b in (4, 5, 6, 7):
            out.append(("1007-%s-wheel%d" % (name, b), modes, wheel(b)))
        for mod in ("shift", "alt", "ctrl"):
            out.append(("1007-%s-%s-wheel4" % (name, mod), modes, wheel(4, mods=(mod,))))
    # the view scrolled back (Shift and the wheel, which both keep for the terminal), then pointer events for
    # the application: the rows they report are the display's, the same whatever the view shows (xterm's
    # EditorButton counts rows from the window's top)
    lines = "".join("L%d\r\n" % i for i in range(2 * ROWS))
    back = [("at", 10, 5), ("key", "shift", 1), ("wheel", 4), ("wheel", 4), ("key", "shift", 0)]
    for ename, eset in (("def", ""), ("1006", "\x1b[?1006h")):
        out.append(("scrolled-1000-%s-click1" % ename, lines + "\x1b[?1000h" + eset, back + click(1, 10, 5)))
        out.append(("scrolled-1000-%s-wheel5" % ename, lines + "\x1b[?1000h" + eset, back + wheel(5, 10, 7)))
        out.append(("scrolled-1002-%s-drag" % ename, lines + "\x1b[?1002h" + eset,
                    back + [("at", 10, 5), ("btn", 1, 1), ("at", 11, 6), ("btn", 1, 0)]))
    return out


# ---------------------------------------------------------------------------------------------------------
# Running both sides.


def wait_for(path, secs):
    deadline = time.time() + secs
    while not os.path.exists(path):
        if time.time() > deadline:
            return False
        time.sleep(0.01)
    return True


def run_xterm(display, todo, tmp, extra):
    """Each case's bytes from xterm (None for one that timed out) and the cell size."""
    env = dict(os.environ, DISPLAY=display)
    cmd = (["xterm", "-display", display, "-u8", "-fn", FONT, "-b", "0", "-bw", "0",
            "-xrm", "XTerm*allowWindowOps: true", "-geometry", "%dx%d+0+0" % (COLS, ROWS)] + extra +
           ["-e", sys.executable, os.path.abspath(__file__), "--recorder", tmp])
    xt = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    results = []
    try:
        if not wait_for(os.path.join(tmp, "cell"), 15):
            sys.exit("xterm did not start")
        m = re.search(rb"\x1b\[6;(\d+);(\d+)t", open(os.path.join(tmp, "cell"), "rb").read())
        if not m:
            sys.exit("xterm did not report its cell size (XTWINOPS 16)")
        ch, cw = int(m.group(1)), int(m.group(2))
        for i, (name, modes, events) in enumerate(todo):
            # the pointer to where the case starts before its modes, as in ours
            subprocess.run(["xdotool"] + xdotool_args(events[:1], cw, ch), env=env, check=True)
            split = parts(modes, events)
            json.dump({"id": i, "modes": [m.encode().hex() for m, _ in split]},
                      open(os.path.join(tmp, "cmd.tmp"), "w"))
            os.rename(os.path.join(tmp, "cmd.tmp"), os.path.join(tmp, "cmd.json"))
            for part, (_, evs) in enumerate(split):
                if not wait_for(os.path.join(tmp, "ready.%d.%d" % (i, part)), 5):
                    sys.exit("the recorder did not take case %s" % name)
                subprocess.run(["xdotool"] + xdotool_args(evs, cw, ch) + ["key", "F12"], env=env, check=True)
            if not wait_for(os.path.join(tmp, "out.%d" % i), 8):
                sys.exit("the recorder did not finish case %s" % name)
            r = open(os.path.join(tmp, "out.%d" % i)).read()
            results.append(None if r.startswith("TIMEOUT:") else bytes.fromhex(r))
            if r.startswith("TIMEOUT:"):
                # a popup menu (Ctrl+button) may hold the pointer: Escape closes it
                subprocess.run(["xdotool", "key", "Escape"], env=env, check=False)
        json.dump({"id": -1}, open(os.path.join(tmp, "cmd.json"), "w"))
        xt.wait(timeout=5)
    finally:
        if xt.poll() is None:
            xt.terminate()
            xt.wait()
    return results, cw, ch


def run_ours(tool, todo, cw, ch):
    lines = ["INIT %d %d %d %d" % (COLS, ROWS, cw, ch)]
    for name, modes, events in todo:
        lines.append(script_lines(events[:1], cw, ch)[0])
        lines.append("FEED " + (RESET + modes.encode()).hex())
        lines.append("OUT")
        lines += script_lines(events, cw, ch)
        lines.append("OUT")
    p = subprocess.run([tool], input=("\n".join(lines) + "\n").encode(), capture_output=True, timeout=120)
    if p.returncode:
        sys.exit("mouse-events failed: " + p.stderr.decode())
    outs = p.stdout.decode().split("\n")
    return [b"" if o == "-" else bytes.fromhex(o) for o in outs[1:2 * len(todo):2]]


def main():
    global COLS, ROWS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--recorder", help=argparse.SUPPRESS)
    ap.add_argument("--display", default=":96")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", help="only the cases whose name contains this")
    ap.add_argument("--json", help="write every case with both sides' bytes here")
    ap.add_argument("--xterm-args", default="", help="more options for xterm")
    ap.add_argument("--size", default="%dx%d" % (COLS, ROWS),
                    help="COLSxROWS of both (2100x240 reaches past UTF-8's 2015 and rows past 223)")
    args = ap.parse_args()
    COLS, ROWS = (int(v) for v in args.size.split("x"))
    if args.recorder:
        recorder(args.recorder)
        return
    for prog in ("xterm", "Xvfb", "xdotool"):
        if not shutil.which(prog):
            sys.exit("needs %s (apt-get install -y xterm xvfb xdotool)" % prog)
    tool = os.path.join(args.build, "tests", "tools", "mouse-events")
    if not os.path.exists(tool):
        sys.exit("build %s first (ninja -C %s)" % (tool, args.build))
    todo = [c for c in cases() if not args.only or args.only in c[0]]
    with Xvfb(args.display, "%dx%dx24" % (max(1920, COLS * 6 + 64), max(1080, ROWS * 13 + 64))) as x, tempfile.TemporaryDirectory() as tmp:
        theirs, cw, ch = run_xterm(x.display, todo, tmp, args.xterm_args.split())
    ours = run_ours(tool, todo, cw, ch)
    diffs, skipped, report = 0, 0, []
    for (name, modes, events), t, o in zip(todo, theirs, ours):
        report.append({"name": name, "modes": escape(modes.encode()), "events": events,
                       "xterm": None if t is None else escape(t), "ours": escape(o)})
        if t is None:
            skipped += 1
            print("%s: xterm timed out" % name)
            continue
        if t != o:
            diffs += 1
            print("%s  modes %s\n  events %s\n  xterm: %s\n  ours:  %s" %
                  (name, escape(modes.encode()), " ".join(str(e) for e in events), escape(t), escape(o)))
    if args.json:
        json.dump(report, open(args.json, "w"), indent=1)
    print("%d cases, %d differ, %d not finished by xterm (cell %dx%d)" % (len(todo), diffs, skipped, cw, ch))


if __name__ == "__main__":
    main()
