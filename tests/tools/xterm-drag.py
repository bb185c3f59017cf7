#!/usr/bin/env python3
"""tests/tools/xterm-drag.py: what a drag with the left button copies in a real xterm 379 (a developer tool, not a
test).

CASES.json holds [[lines, path], ...]: lines a list of strings xterm shows from its first row (joined by CR LF;
escape sequences work), path a list of [column, row] points (an integer is the cell's centre, a fraction that
place across it). The left button goes down at the first point, the pointer moves through the others and the
button comes up at the last; the selection is then pasted with the middle button into a recorder running inside
xterm (xterm-words.py's, bracketed paste on), which writes what came. Prints one JSON line per case: [lines,
path, copied text], its line ends as CR (xterm pastes a selection's line ends so). xterm runs under Xvfb on :57,
-u8, font 6x13, 200x8 cells, no border, at +0+0 (a cell is a known rectangle of the screen). Used for
grid/grid-select.c grid_selection_text (tests/grid/test-select.c test_drag_past_line_end, docs/conformance.md).
Needs xterm, Xvfb and xdotool. Usage:
  tests/tools/xterm-drag.py CASES.json
"""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module
xdiff = import_module("xterm-diff")
words = import_module("xterm-words")  # its recorder: text shown, a paste recorded up to F12


def point(p, cw, ch):
    """The pixel of [column, row]: an integer is the cell's centre, a fraction that place across it."""
    def at(v, size):
        return int(v) * size + (size // 2 if float(v).is_integer() else int((v - int(v)) * size))
    return str(at(p[0], cw)), str(at(p[1], ch))


def main():
    if sys.argv[1] == "--recorder":
        return words.recorder(sys.argv[2])
    cases = json.load(open(sys.argv[1]))
    tmp = tempfile.mkdtemp()
    with xdiff.Xvfb(":57", "1300x200x24") as x:
        xt, env, ch, cw = words.start_xterm(x.display, "200x8", __file__, tmp)
        for i, (lines, path) in enumerate(cases):
            json.dump({"id": i, "text": "\r\n".join(lines)}, open(tmp + "/cmd.tmp", "w"))
            os.rename(tmp + "/cmd.tmp", tmp + "/cmd.json")
            words.wait(tmp + "/ready.%d" % i)
            cmd = ["xdotool", "mousemove", *point(path[0], cw, ch), "sleep", "0.05", "mousedown", "1"]
            for p in path[1:]:
                cmd += ["sleep", "0.05", "mousemove", *point(p, cw, ch)]
            cmd += ["sleep", "0.05", "mouseup", "1", "sleep", "0.1", "click", "2", "sleep", "0.05", "key", "F12"]
            subprocess.run(cmd, env=env, check=True)
            words.wait(tmp + "/out.%d" % i)
            r = open(tmp + "/out.%d" % i, "rb").read().decode("utf-8", "replace")
            print(json.dumps([lines, path, r], ensure_ascii=False), flush=True)
            subprocess.run(["xdotool", "mousemove", "900", "97", "click", "1", "sleep", "0.4"], env=env)  # drop the selection
        json.dump({"id": -1}, open(tmp + "/cmd.json", "w"))
        xt.wait(timeout=5)


if __name__ == "__main__":
    main()
