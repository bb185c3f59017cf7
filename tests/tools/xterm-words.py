#!/usr/bin/env python3
"""tests/tools/xterm-words.py: what a double click selects in a real xterm 379 (a developer tool, not a test).

CASES.json holds [[text, column], ...]. For each case xterm (under Xvfb on :58, -u8, font 6x13) shows the text on
its first row; xdotool double-clicks the cell of that column, then pastes the selection with the middle button
into a recorder running inside xterm (bracketed paste on), which writes what came. Prints one JSON line per
case: [text, column, selected text]. Used for xterm's default character classes (grid/grid-select.c classes[],
tests/grid/test-select.c test_word_classes). Needs xterm, Xvfb and xdotool. Usage:
  tests/tools/xterm-words.py CASES.json
"""
import json, os, re, select, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module
xdiff = import_module("xterm-diff")
MARK = b"\x1b[24~"

def recorder(tmp):
    import tty
    fd = os.open("/dev/tty", os.O_RDWR)
    tty.setraw(fd)
    os.write(fd, b"\x1b[16t")
    buf = b""
    while not re.search(rb"\x1b\[6;\d+;\d+t", buf):
        if select.select([fd], [], [], 3)[0]:
            buf += os.read(fd, 4096)
    open(tmp + "/cell.t", "wb").write(buf); os.rename(tmp + "/cell.t", tmp + "/cell")
    while True:
        cmd = tmp + "/cmd.json"
        if not os.path.exists(cmd):
            time.sleep(0.01); continue
        c = json.load(open(cmd)); os.unlink(cmd)
        if c["id"] < 0:
            return
        os.write(fd, b"\x1bc\x1b[?2004h" + c["text"].encode() + b"\r\n")
        time.sleep(0.05)
        open(tmp + "/ready.%d" % c["id"], "w").close()
        buf = b""
        dl = time.time() + 5
        while not buf.endswith(MARK) and time.time() < dl:
            if select.select([fd], [], [], 0.1)[0]:
                buf += os.read(fd, 4096)
        m = re.search(rb"\x1b\[200~(.*?)\x1b\[201~", buf, re.S)
        open(tmp + "/o.t", "wb").write(m.group(1) if m else b"<none>"); os.rename(tmp + "/o.t", tmp + "/out.%d" % c["id"])

def wait(p, s=8):
    dl = time.time() + s
    while not os.path.exists(p):
        if time.time() > dl:
            sys.exit("timeout " + p)
        time.sleep(0.01)

def start_xterm(display, geometry, script, tmp):
    """xterm (-u8, font 6x13, no border, at +0+0, geometry cells) on display, running script --recorder tmp;
    returns it, the environment for xdotool, and a cell's height and width in pixels."""
    env = dict(os.environ, DISPLAY=display)
    xt = subprocess.Popen(["xterm", "-display", display, "-u8", "-fn", "6x13", "-b", "0", "-bw", "0",
                           "-xrm", "XTerm*allowWindowOps: true", "-geometry", geometry + "+0+0", "-e",
                           sys.executable, os.path.abspath(script), "--recorder", tmp],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wait(tmp + "/cell", 15)
    m = re.search(rb"\x1b\[6;(\d+);(\d+)t", open(tmp + "/cell", "rb").read())
    return xt, env, int(m.group(1)), int(m.group(2))

def main():
    if sys.argv[1] == "--recorder":
        return recorder(sys.argv[2])
    cases = json.load(open(sys.argv[1]))  # [[text, col], ...]
    tmp = tempfile.mkdtemp()
    with xdiff.Xvfb(":58", "1900x400x24") as x:
        xt, env, ch, cw = start_xterm(x.display, "200x5", __file__, tmp)
        out = []
        for i, (text, col) in enumerate(cases):
            json.dump({"id": i, "text": text}, open(tmp + "/cmd.tmp", "w"))
            os.rename(tmp + "/cmd.tmp", tmp + "/cmd.json")
            wait(tmp + "/ready.%d" % i)
            px, py = col * cw + cw // 2, ch // 2
            subprocess.run(["xdotool", "mousemove", str(px), str(py), "sleep", "0.05", "click", "--repeat", "2",
                            "--delay", "40", "1", "sleep", "0.1", "click", "2", "sleep", "0.05", "key", "F12"],
                           env=env, check=True)
            wait(tmp + "/out.%d" % i)
            r = open(tmp + "/out.%d" % i, "rb").read().decode("utf-8", "replace")
            out.append([text, col, r])
            print(json.dumps([text, col, r], ensure_ascii=False), flush=True)
            subprocess.run(["xdotool", "click", "1", "sleep", "0.4"], env=env)  # drop the selection
        json.dump({"id": -1}, open(tmp + "/cmd.json", "w"))
        xt.wait(timeout=5)

if __name__ == "__main__":
    main()
