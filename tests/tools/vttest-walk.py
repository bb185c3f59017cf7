#!/usr/bin/env python3
"""tests/tools/vttest-walk.py: walk vttest's menus inside a real terminal and keep every screen vttest draws,
each as a stream for tests/tools/xterm-diff.py --stream (a developer tool, not part of the test suite).

  xterm -u8 -geometry 80x24 -e tests/tools/vttest-walk.py OUTDIR 11 --items 1   # menu 11.1 (VT220) and below
  tests/tools/vttest-compare.sh OUTDIR                     # every menu walked, then xterm-diff.py on each screen

vttest (apt-get install -y vttest) runs on a pty of --size (80x24) started by this script, which runs inside the
terminal: vttest's output is shown there and the terminal's replies (DA, CPR, DECRQSS, DECRQM...) go back to
vttest, so the stream is the one vttest writes to that terminal. DECSET 40 is not passed on (as in
pty-record.py --tty): the terminal keeps 80 columns. With --answer-from no terminal is needed: our core
answers, and the walk's screens differ from a walk in xterm where vttest got other replies.
The walk goes down the menu path given, then into every item of that menu (--items: only those): an item
whose answer is another menu is walked in turn (and left with 0); an item that draws a test is answered
with RETURN (each time vttest's output has been quiet for --quiet seconds) until vttest shows the menu
again. Before each key, the bytes written so far are saved as OUTDIR/PATH-N.bin (PATH the menu items
joined by dots, N the key's number in that item): the screen a person sees when pressing that key, one
comparison point. A menu's own screen is saved once, as PATH-0. Items that need other keys than RETURN,
change vttest's parameters or resize the window are skipped (SKIP, SKIP_TEXT).
Do not commit the recordings (vttest's output); docs/conformance.md summarises what was compared.
"""
import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import tty

# Items not walked: they need keys other than RETURN (keyboard tests, mouse, locator, user-defined keys),
# change vttest's own parameters or character-set choices for the later tests, ask for text, resize or
# move the window, or talk to Tektronix mode.
SKIP = {"3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.13", "4", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9", "7", "12",
        "11.1.7", "11.1.4", "11.3.4", "11.8.3", "11.8.4", "11.8.5", "11.8.6", "11.8.8",
        # the previous level's menu again (VT320's "Test VT220 features" and so on): walked once, as 11.1
        "11.2.1", "11.3.1", "11.4.1", "11.8.1"}
# Items that choose a character set or turn on a mode for the later tests (menu 3 and the DECCIR tests).
SKIP_TEXT = re.compile(r"(Specify G\d|Enable |Disable )")
PROMPT = re.compile(rb"Enter choice number \(0 - (\d+)\)")
ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|[ -/]*[0-~])")


def main():
    ap = argparse.ArgumentParser(description="walk vttest's menus inside a terminal",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--quiet", type=float, default=0.4, help="seconds without output that end a screen")
    ap.add_argument("--limit", type=int, default=40, help="RETURNs at most in one item")
    ap.add_argument("--size", default="80x24", help="COLSxROWS of vttest's pty, the terminal's size (default "
                    "80x24; 132x24 shows vttest's 132-column screens whole, DECCOLM changing no width)")
    ap.add_argument("--items", help="walk only these items of the first menu (e.g. 1,2,8)")
    ap.add_argument("--answer-from", metavar="REPLAY", help="run without a terminal: kmscon-felis-replay "
                    "--vtproto at this path answers vttest's queries (our replies, for comparing with xterm's)")
    ap.add_argument("outdir")
    ap.add_argument("path", nargs="*", help="menu items to go down first (e.g. 11 1)")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    cols, rows = (int(v) for v in a.size.split("x"))
    winsize = struct.pack("HHHH", rows, cols, 0, 0)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        fcntl.ioctl(0, termios.TIOCSWINSZ, winsize)
        os.execvp("vttest", ["vttest"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, winsize)
    core = None
    if a.answer_from:
        # No terminal: our core answers (kmscon-felis-replay --vtproto gets vttest's output and its replies
        # go back to vttest).
        core = subprocess.Popen([a.answer_from, "--vtproto"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        core.stdin.write(b"INIT %d %d 0\n" % (rows, cols))
    else:
        tty.setraw(0)
    buf = bytearray()
    tag = "-".join(a.path) or "main"
    if a.items:
        tag += "-" + a.items.replace(",", "-")
    log = open(os.path.join(a.outdir, "walk-%s.log" % tag), "w")

    def settle(longest=20.0):
        """Reads until vttest has been quiet for --quiet seconds; returns what it wrote."""
        start = len(buf)
        end = time.time() + longest
        last = time.time()
        while time.time() < end and time.time() - last < a.quiet:
            r, _, _ = select.select([fd] if core else [fd, 0], [], [], a.quiet)
            if 0 in r:
                os.write(fd, os.read(0, 4096))
            if fd in r:
                try:
                    d = os.read(fd, 65536)
                except OSError:
                    d = b""
                if not d:
                    raise SystemExit("vttest ended")
                buf.extend(d)
                if core:
                    core.stdin.write(b"PUSH %s\n?output\n" % d.hex().encode())
                    core.stdin.flush()
                    reply = bytes.fromhex(core.stdout.readline().decode().strip())
                    if reply:
                        os.write(fd, reply)
                else:
                    os.write(1, d.replace(b"\x1b[?40h", b""))
                last = time.time()
        return bytes(buf[start:])

    def send(k, name=None):
        if name:
            with open(os.path.join(a.outdir, name + ".bin"), "wb") as f:
                f.write(buf)
        os.write(fd, k.encode())
        out = settle()
        log.write("%s %r -> %d bytes\n" % (name, k, len(out)))
        log.flush()
        return out

    def menu_of(out):
        """The menu vttest shows at the end of out: its title and items, or None."""
        m = list(PROMPT.finditer(out))
        if not m:
            return None
        text = ANSI.sub(b"\n", out[:m[-1].start()]).decode("latin1")
        # A menu is told by its title and its number of items (menu 9 has no "Menu 9:" title).
        title = re.findall(r"Menu ([\d.]+):", text)
        last = int(m[-1].group(1))
        items = {k: (v, t) for k, v, t in re.findall(r"^\s*(\d+)([.*]) (.*)$", text, re.M) if int(k) <= last}
        return ((title[-1] if title else "") + "/" + m[-1].group(1).decode()), items

    def walk(path, menu, only=None):
        title, items = menu
        first = True
        for i in sorted(int(k) for k in items if k != "0"):
            p = ".".join(path + [str(i)])
            if items[str(i)][0] == "*" or p in SKIP or SKIP_TEXT.match(items[str(i)][1]) or \
                    (only and str(i) not in only) or len(path) > 5:
                continue
            out = send("%d\r" % i, (".".join(path) or "main") + "-0" if first else None)
            first = False
            n = 1
            while True:
                m = menu_of(out)
                if m and m[0] == title:
                    break
                if m:
                    walk(path + [str(i)], m)
                    out = send("0\r")
                    continue
                if n > a.limit:
                    log.write("%s: no menu after %d keys\n" % (p, n))
                    return
                out = send("\r", "%s-%d" % (p, n))
                n += 1

    out = settle(5.0)
    for step in a.path:
        out = send(step + "\r")
    menu = menu_of(out)
    if menu:
        walk(a.path, menu, a.items.split(",") if a.items else None)
    with open(os.path.join(a.outdir, "walk-%s.bin" % tag), "wb") as f:
        f.write(buf)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
