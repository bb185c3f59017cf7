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

With --highlight the screen is captured after the button comes up and before the paste (ImageMagick's import),
and each line also has, for every row with highlighted cells, [row, [[first, last], ...]] (cells inclusive):
xterm's default highlight is reverse video, so a highlighted cell is mostly the foreground colour (black), a
plain one mostly the background (white), whatever character it holds. The cursor is hidden (DECTCEM) first so
that its block is not taken for a highlight. Used for grid/grid-select.c mark().
Needs xterm, Xvfb and xdotool (and import with --highlight). Usage:
  tests/tools/xterm-drag.py [--highlight] CASES.json
"""
import json, os, re, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module
xdiff = import_module("xterm-diff")
words = import_module("xterm-words")  # its recorder: text shown, a paste recorded up to F12


def point(p, cw, ch):
    """The pixel of [column, row]: an integer is the cell's centre, a fraction that place across it."""
    def at(v, size):
        return int(v) * size + (size // 2 if float(v).is_integer() else int((v - int(v)) * size))
    return str(at(p[0], cw)), str(at(p[1], ch))


def highlight(env, cols, rows, cw, ch):
    """[[row, [[first, last], ...]], ...]: the highlighted cells of each row that has any, from a capture of
    the screen (xterm at +0+0, no border: cell (x, y) is the rectangle at x * cw, y * ch)."""
    ppm = subprocess.run(["import", "-display", env["DISPLAY"], "-window", "root", "ppm:-"], env=env,
                         check=True, capture_output=True).stdout
    # P6 header: magic, width, height, maxval, each after whitespace, then one byte of whitespace; a sample is
    # two bytes when maxval passes 255 (import's default depth may be 16)
    head = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", ppm)
    width, maxval, data = int(head.group(1)), int(head.group(3)), ppm[head.end():]
    bps = 2 if maxval > 255 else 1
    out = []
    for y in range(rows):
        lit = []
        for x in range(cols):
            dark = 0
            for py in range(y * ch, (y + 1) * ch):
                for px in range(x * cw, (x + 1) * cw):
                    o = (py * width + px) * 3 * bps  # the first byte of each sample is its high one
                    dark += data[o] + data[o + bps] + data[o + 2 * bps] < 384
            lit.append(dark * 2 > cw * ch)
        ranges = []
        for x, on in enumerate(lit):
            if on and ranges and ranges[-1][1] == x - 1:
                ranges[-1][1] = x
            elif on:
                ranges.append([x, x])
        if ranges:
            out.append([y, ranges])
    return out


def main():
    if sys.argv[1] == "--recorder":
        return words.recorder(sys.argv[2])
    hl = sys.argv[1] == "--highlight"
    cases = json.load(open(sys.argv[-1]))
    tmp = tempfile.mkdtemp()
    with xdiff.Xvfb(":57", "1300x200x24") as x:
        xt, env, ch, cw = words.start_xterm(x.display, "200x8", __file__, tmp)
        for i, (lines, path) in enumerate(cases):
            text = ("\x1b[?25l" if hl else "") + "\r\n".join(lines)
            json.dump({"id": i, "text": text}, open(tmp + "/cmd.tmp", "w"))
            os.rename(tmp + "/cmd.tmp", tmp + "/cmd.json")
            words.wait(tmp + "/ready.%d" % i)
            cmd = ["xdotool", "mousemove", *point(path[0], cw, ch), "sleep", "0.05", "mousedown", "1"]
            for p in path[1:]:
                cmd += ["sleep", "0.05", "mousemove", *point(p, cw, ch)]
            cmd += ["sleep", "0.05", "mouseup", "1", "sleep", "0.1"]
            subprocess.run(cmd, env=env, check=True)
            lit = highlight(env, 200, 8, cw, ch) if hl else None
            subprocess.run(["xdotool", "click", "2", "sleep", "0.05", "key", "F12"], env=env, check=True)
            words.wait(tmp + "/out.%d" % i)
            r = open(tmp + "/out.%d" % i, "rb").read().decode("utf-8", "replace")
            print(json.dumps([lines, path, r] + ([lit] if hl else []), ensure_ascii=False), flush=True)
            subprocess.run(["xdotool", "mousemove", "900", "97", "click", "1", "sleep", "0.4"], env=env)  # drop the selection
        json.dump({"id": -1}, open(tmp + "/cmd.json", "w"))
        xt.wait(timeout=5)


if __name__ == "__main__":
    main()
