#!/usr/bin/env python3
"""tests/tools/xterm-minimise.py: shrinks a stream that tests/tools/xterm-diff.py shows diverging from xterm to
a shorter one that still diverges (a developer tool, not part of the test suite; CI never runs it).

The stream is cut into tokens (an escape sequence, a C0 control, a character); each round runs every
stream with one token (then one run of two, three or four) left out, xterm's side and ours in one batch,
and keeps the first that still diverges in the screen text or the CPR, until none does. The fill prelude
of xterm-diff.py's cases (one letter a cell, CUP home) is one token, tried without and with a single row.

  tests/tools/xterm-minimise.py --size 20x8 '\\e[?7l\\e[1;20Hz\\e[mＡ\\e[?7h'
Needs what xterm-diff.py needs (xterm, Xvfb, a build). Prints each round's shortest stream and the last.
"""
import argparse
import os
import re
import sys
import tempfile
from importlib import import_module

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
xd = import_module("xterm-diff")

TOKEN = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]|[\x00-\x1f]|.", re.S)


def tokens(s, cols, rows):
    fill = xd.fill(cols, rows)
    head = []
    if s.startswith(fill):
        head, s = [fill], s[len(fill):]
    return head + TOKEN.findall(s)


def diverging(x, replay, streams, cols, rows, tmp):
    """The indices of the streams whose screen text or CPR differ from xterm's."""
    data = [t.encode("utf-8") for t in streams]
    xc, xp, _ = xd.run_xterm(x.display, data, cols, rows, tmp, False, False)
    oc, op, _, _ = xd.run_ours(replay, data, cols, rows, False)
    return [i for i in range(len(data)) if xp[i] is not None and (xc[i] != oc[i] or xp[i] != op[i])]


def main():
    ap = argparse.ArgumentParser(description="shrink a stream diverging from xterm")
    ap.add_argument("case", help="the stream, escaped as in tests/conformance")
    ap.add_argument("--size", default="20x8")
    ap.add_argument("--display", default=":98")
    ap.add_argument("--replay", default=os.path.join(xd.ROOT, "build", "kmscon-felis", "kmscon-felis-replay"))
    a = ap.parse_args()
    cols, rows = (int(v) for v in a.size.split("x"))
    toks = tokens(xd.unescape(a.case).decode("utf-8", "surrogateescape"), cols, rows)
    with xd.Xvfb(a.display) as x, tempfile.TemporaryDirectory(prefix="xterm-min-") as tmp:
        if not diverging(x, a.replay, ["".join(toks)], cols, rows, tmp):
            sys.exit("the stream does not diverge")
        while True:
            cands = []
            for k in (1, 2, 3, 4):
                cands += [toks[:i] + toks[i + k:] for i in range(len(toks) - k + 1)]
            if toks and toks[0] == xd.fill(cols, rows):
                cands.insert(0, [xd.fill(cols, 1)] + toks[1:])
            found = diverging(x, a.replay, ["".join(c) for c in cands], cols, rows, tmp)
            if not found:
                break
            toks = cands[found[0]]
            print("%3d tokens: %s" % (len(toks), xd.escape("".join(toks).encode("utf-8"))), flush=True)
    print("minimal: %s" % xd.escape("".join(toks).encode("utf-8")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
