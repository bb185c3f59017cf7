#!/usr/bin/env python3
"""tests/conformance/run-case.py REPLAY CASE: runs one conformance case through kmscon-felis-replay.

A case file (tests/conformance/cases/*.case) holds a byte stream and what the screen must show:

  # what is checked, and the spec section that says so (xterm ctlseqs, vt100.net, ECMA-48)
  size 10x3                 screen COLSxROWS (default 80x24)
  scrollback 100            lines of scrollback (default 0)
  in \\e[1mab\\r\\n          bytes to feed; several lines are concatenated. Escapes: \\e \\r \\n \\t \\a \\b
                            \\\\ \\xHH; other text is taken as UTF-8
  screen                    the text of every row (the tool's --format text), one '|' line per row
  |ab
  cursor 1,0                row,col (0-based) as vtproto's ?cursor
  cell 0 1 b B i:1 d        row col text attrs fg bg, as in the tool's JSON ('-' for an empty text or
                            attrs); text may use the escapes above
  sizes 0 double-width      row and its size (DECDWL, DECDHL) as the tool's JSON "sizes" has it
  scrollback-text           the scrollback rows' text, oldest first, one '|' line each
  output \\eP1!~FFBF\\e\\\\     the replies the whole stream gets (vtproto ?output), escapes as for 'in';
                            several lines are concatenated

The text is checked through the command line (--size --format text), the rest through --vtproto.
Prints the differences and exits 1 on a mismatch.
"""
import json
import re
import subprocess
import sys


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            simple = {"e": 0x1b, "r": 0x0d, "n": 0x0a, "t": 0x09, "a": 0x07, "b": 0x08, "\\": 0x5c, "s": 0x20}
            if n in simple:
                out.append(simple[n])
                i += 2
                continue
            if n == "x":
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            raise ValueError("bad escape \\%s" % n)
        out += c.encode("utf-8")
        i += 1
    return bytes(out)


def parse(path):
    case = {"size": (80, 24), "sb": 0, "in": b"", "screen": None, "cursor": None, "cells": [], "sbtext": None,
            "output": None, "sizes": []}
    block = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("|") and block is not None:
            block.append(line[1:])
            continue
        block = None
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "size":
            c, r = rest.split("x")
            case["size"] = (int(c), int(r))
        elif word == "scrollback":
            case["sb"] = int(rest)
        elif word == "in":
            case["in"] += unescape(rest)
        elif word == "screen":
            case["screen"] = block = []
        elif word == "scrollback-text":
            case["sbtext"] = block = []
        elif word == "output":
            case["output"] = (case["output"] or b"") + unescape(rest)
        elif word == "sizes":
            f = rest.split()
            case["sizes"].append((int(f[0]), f[1]))
        elif word == "cursor":
            case["cursor"] = rest.strip()
        elif word == "cell":
            f = rest.split()
            case["cells"].append((int(f[0]), int(f[1]), unescape(f[2]).decode() if f[2] != "-" else "",
                                  f[3] if f[3] != "-" else "", f[4], f[5]))
        else:
            raise ValueError("%s: unknown line %r" % (path, line))
    return case


def main():
    replay, path = sys.argv[1], sys.argv[2]
    case = parse(path)
    cols, rows = case["size"]
    errors = []

    if case["screen"] is not None:
        want = case["screen"] + [""] * (rows - len(case["screen"]))
        p = subprocess.run([replay, "--size", "%dx%d" % (cols, rows), "--scrollback", str(case["sb"]),
                            "--format", "text", "-"], input=case["in"], capture_output=True, timeout=60)
        if p.returncode != 0:
            errors.append("replay exited %d: %s" % (p.returncode, p.stderr.decode(errors="replace")))
        got = p.stdout.decode("utf-8", "replace").split("\n")
        if got and got[-1] == "":
            got.pop()
        if len(got) != rows:
            errors.append("text output has %d lines, want exactly %d" % (len(got), rows))
        for y in range(max(len(got), rows)):
            g = got[y] if y < len(got) else None
            w = want[y] if y < len(want) else None
            if g != w:
                errors.append("row %d: got %r want %r" % (y, g, w))

    if case["sizes"]:
        p = subprocess.run([replay, "--size", "%dx%d" % (cols, rows), "--scrollback", str(case["sb"]),
                            "--format", "json", "-"], input=case["in"], capture_output=True, timeout=60)
        sizes = json.loads(p.stdout)["sizes"] if p.returncode == 0 else []
        for (r, want) in case["sizes"]:
            got = sizes[r] if r < len(sizes) else None
            if got != want:
                errors.append("size of row %d: got %r want %r" % (r, got, want))

    cmds = ["INIT %d %d %d" % (rows, cols, case["sb"]), "PUSH " + case["in"].hex(), "?cursor", "?screen",
            "?scrollback", "?output"]
    p = subprocess.run([replay, "--vtproto"], input=("\n".join(cmds) + "\n").encode(), capture_output=True,
                       timeout=60)
    ans = p.stdout.decode("utf-8", "replace").split("\n")
    if p.returncode != 0 or len(ans) < 4:
        errors.append("vtproto failed (exit %d): %s" % (p.returncode, p.stderr.decode(errors="replace")))
    else:
        cursor, screen, sb = ans[0], json.loads(ans[1]), json.loads(ans[2])
        if case["output"] is not None and bytes.fromhex(ans[3]) != case["output"]:
            errors.append("output: got %r want %r" % (bytes.fromhex(ans[3]), case["output"]))
        if case["cursor"] and cursor != case["cursor"]:
            errors.append("cursor: got %s want %s" % (cursor, case["cursor"]))
        for (r, c, text, attrs, fg, bg) in case["cells"]:
            cell = screen["lines"][r][c]
            got = (cell[0], "".join(sorted(cell[2])), cell[3], cell[4])
            want = (text, "".join(sorted(attrs)), fg, bg)
            if got != want:
                errors.append("cell %d,%d: got %r want %r" % (r, c, got, want))
        if case["sbtext"] is not None:
            got = ["".join(x[0] if x[1] else "" for x in row).rstrip() for row in sb]
            if got != case["sbtext"]:
                errors.append("scrollback: got %r want %r" % (got, case["sbtext"]))

    if errors:
        print("%s: FAIL" % path)
        for e in errors:
            print("  " + e)
        return 1
    print("%s: ok" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
