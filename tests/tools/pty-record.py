#!/usr/bin/env python3
"""tests/tools/pty-record.py: record what a full-screen program writes to a terminal of a fixed size, for
tests/tools/xterm-diff.py --stream (a developer tool, not part of the test suite).

  tests/tools/pty-record.py --size 80x24 vim.bin 'vim -c "syntax on" file.c' @1 '\\x06' ':split\\r' ':qa!\\r'
  tests/tools/xterm-diff.py --size 80x24 --attrs --cuts 4 --stream vim.bin --stream vim.bin.k3

The command runs under sh -c on a new pty set to --size (TIOCSWINSZ before the program starts, so it never
sees another size), with TERM=xterm-256color and a UTF-8 locale unless the command sets its own. Each KEY
is written to the program and its output read for --settle seconds; KEY is text with the escapes \\e, \\r,
\\n, \\t and \\xHH (any other character, accents and CJK included, is sent as UTF-8); @SECONDS only waits.
OUT gets the whole stream; OUT.kN the bytes written before key N (the screen the user saw when typing it),
each a stream of its own for xterm-diff.py. The program is killed after the last key.

With --reply, the recorder answers the queries programs wait on or act on as xterm 379 does at its
defaults (DA1, DA2, XTVERSION; CPR as row 1 column 2, what vim's ambiguous-width probe expects): vim and
tmux then take the paths they take under a real xterm (tmux turns on DECLRMM and scrolls panes with
DECSLRM). The replies are not recorded (xterm-diff.py takes the stream's CPR requests out).
With --tty, the recorder runs inside a real terminal (`xterm -u8 -geometry 80x24 -e tests/tools/pty-record.py
--tty ...`; tests/tools/vttest-walk.py does the same for vttest's menus):
the program's output is also written to that terminal and what the terminal sends back (its replies to
every query: vttest asks for DA, CPR, DECRQSS, DECRQM and more) goes to the program, so the stream is the one
the program writes to that terminal. DECSET 40 is not passed on (recorded all the same), so that DECCOLM
does not resize the terminal: xterm-diff.py takes DECSET 40 out too, and we never switch to 132 columns.
Do not commit the recordings of third-party programs as tests: reduce a divergence to a hand-written case.
"""
import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

REPLIES = ((b"\x1b[>c", b"\x1b[>41;379;0c"), (b"\x1b[>0c", b"\x1b[>41;379;0c"),
           (b"\x1b[c", b"\x1b[?64;1;2;6;9;15;18;21;22c"), (b"\x1b[0c", b"\x1b[?64;1;2;6;9;15;18;21;22c"),
           (b"\x1b[>q", b"\x1bP>|XTerm(379)\x1b\\"), (b"\x1b[6n", b"\x1b[1;2R"), (b"\x1b[?6n", b"\x1b[?1;2;1R"))


def key_bytes(k):
    b = k.encode("utf-8")
    b = re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), b)
    return b.replace(rb"\e", b"\x1b").replace(rb"\r", b"\r").replace(rb"\n", b"\n").replace(rb"\t", b"\t")


def main():
    ap = argparse.ArgumentParser(description="record a program's output on a pty of a fixed size",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--size", default="80x24", help="COLSxROWS (default 80x24)")
    ap.add_argument("--settle", type=float, default=0.4, help="seconds read after each key (default 0.4)")
    ap.add_argument("--reply", action="store_true", help="answer DA1, DA2, XTVERSION and CPR as xterm does")
    ap.add_argument("--tty", action="store_true", help="run inside a terminal: show the output there and pass "
                    "its replies to the program")
    ap.add_argument("out")
    ap.add_argument("command")
    ap.add_argument("keys", nargs="*")
    a = ap.parse_args()
    cols, rows = map(int, a.size.split("x"))
    winsize = struct.pack("HHHH", rows, cols, 0, 0)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)
        fcntl.ioctl(0, termios.TIOCSWINSZ, winsize)
        os.execvp("sh", ["sh", "-c", a.command])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, winsize)
    buf = bytearray()
    watch = [fd]
    if a.tty:
        import tty
        tty.setraw(0)
        watch.append(0)

    def drain(t):
        """Reads for t seconds; False once the program has gone."""
        end = time.time() + t
        while time.time() < end:
            r, _, _ = select.select(watch, [], [], max(0, end - time.time()))
            if not r:
                continue
            if 0 in r and a.tty:
                os.write(fd, os.read(0, 4096))
                if fd not in r:
                    continue
            try:
                d = os.read(fd, 65536)
            except OSError:
                return False
            if not d:
                return False
            buf.extend(d)
            if a.tty:
                os.write(1, d.replace(b"\x1b[?40h", b""))
            # A query cut in two by the read is missed: the program then times out as with no reply.
            for q, ans in REPLIES if a.reply else ():
                for _ in range(d.count(q)):
                    os.write(fd, ans)
        return True

    alive = drain(1.0)
    n = 0
    for k in a.keys:
        if not alive:
            break
        if k.startswith("@"):
            alive = drain(float(k[1:]))
            continue
        with open("%s.k%d" % (a.out, n), "wb") as f:
            f.write(buf)
        n += 1
        b = key_bytes(k)
        # Small writes: a program reading its keys with a short escape timeout sees them as typed.
        for i in range(0, len(b), 64):
            os.write(fd, b[i:i + 64])
            time.sleep(0.01)
        alive = drain(a.settle)
    if alive:
        drain(0.8)
    with open(a.out, "wb") as f:
        f.write(buf)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    print("%s: %d bytes, %d keys" % (a.out, len(buf), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
