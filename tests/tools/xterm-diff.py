#!/usr/bin/env python3
"""tests/tools/xterm-diff.py: differential test of the screen model against a real xterm (a developer tool,
not part of the test suite; CI never runs it).

Each case is a short byte stream. The real xterm (run under Xvfb) and kmscon-felis-replay --vtproto both get
  RIS, the case, CPR (CSI 6 n), '@'
and the tool compares the screen text (xterm's is read by media copy: DECSET 19 and CSI 0 i print the whole
screen to the printerCommand) and the CPR reply. The '@' shows where the next character goes, so a pending
wrap shows too. Attributes and colours are compared only with --attrs (xterm's printAttributes: 2; then also
the attribute families, pens in the random cases, and a sentinel '|' in every row's last column after the
case: tests/tools/xterm_diff_attrs.py tells what xterm's print shows and what it cannot).
The hand-written families and the --random cases are in tests/tools/xterm_diff_cases.py, the margin
families and --mrandom's cases in tests/tools/xterm_diff_margins.py. Two of xterm's
documented pen quirks (after DECSTR and DECALN) are undone on xterm's side (XTERM_SHIMS; --xterm-quirks
shows them).

Needs: apt-get install -y xterm xvfb (xterm 379 was used; its defaults are what we emulate: VT420 level for
DECSLRM and the rectangle functions, reverse wraparound off, autowrap on, UTF-8 with -u8).

Run from the worktree after building:
  tests/tools/xterm-diff.py                      # the hand-written families and 300 random cases
  tests/tools/xterm-diff.py --random 2000 --seed 7 --size 20x8
  tests/tools/xterm-diff.py --case '\\e[3;5r\\e[?6h\\e[2;3Hxx'   # one stream, escapes as in tests/conformance
  tests/tools/xterm-diff.py --json out.json     # every divergence, machine-readable
  tests/tools/xterm-diff.py --attrs --random 2000   # attributes and colours too, with a summary by kind
  tests/tools/xterm-diff.py --attrs --sgr-stack --random 500   # random cases that also push and pop the pen
  tests/tools/xterm-diff.py --no-families --hunt charset --random 500 --size 11x5   # one area's random cases
  tests/tools/xterm-diff.py --history --no-families --hunt history --random 500   # the saved lines too
  tests/tools/xterm-diff.py --size 80x24 --cuts 12 --stream vim.bin --stream htop.bin   # recorded programs
--stream FILE (repeatable) runs a recorded stream instead of the families and random cases: a real
program's output saved at --size (e.g. under `script`, or a pty recorder that sets TIOCSWINSZ and sends keys),
compared on its final screen and, with --cuts N, after N prefixes of it too (each cut before a CSI). A cut
file per moment of interest (the bytes written before each key sent) works as well. The stream's own CPR
requests and DECSET 40 are taken out (see stream_cases); only its last CPR is compared. DECCOLM, DECDWL,
96-character sets and the other differences docs/conformance.md lists show up there as well (vttest has them).
Prints each divergence (the case's bytes, escaped, and the rows and CPR that differ) and a summary. Exits 0
whatever it finds. Runs about 50 cases a second; xterm now and then stops printing, and the tool then starts
a new one (a case that fails twice is reported as NOPAGE). Starts Xvfb on --display (:99) and stops it.
Cases holding combining marks or emoji are out of scope (xterm's print drops the marks, and its width tables
differ from ours for some emoji). docs/conformance.md lists what it shows that is kept on purpose.
"""
import argparse
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "conformance"))
from importlib import import_module  # noqa: E402

unescape = import_module("run-case").unescape
sys.path.insert(0, HERE)
import xterm_diff_attrs as attrs  # noqa: E402
import xterm_diff_margins as margins  # noqa: E402,F401
import xterm_diff_hunt as hunt  # noqa: E402
from xterm_diff_cases import escape, fill, families, random_case, rect_ops, mark_ops, E, CSI  # noqa: E402,F401


# RIS before each case. xterm's RIS leaves the alternate screen's text and saved cursor in place (a later
# DECSET 47 would show the previous case's text, DECRC there its cursor), so the alternate screen is entered,
# erased, its cursor saved at home and left (1047 erases it on leaving) first. It keeps XTPUSHSGR's stack
# too (ours empties it): 40 XTPOPSGRs first empty xterm's after any case that pushed fewer than 40 pens more
# than it popped (the pens they restore, RIS resets).
RESET = b"\x1b[#}" * 40 + b"\x1bc\x1b[?1047h\x1b[2J\x1b[H\x1b7\x1b[?1047l\x1bc"

# Two of xterm 379's pen quirks listed in docs/conformance.md (not followed) would fill every --attrs run
# with the same divergences; they are undone on xterm's side, so that what the tool shows is new
# (--xterm-quirks sends the cases unchanged):
# - DECSTR leaves dim, strike-through and double underline in the pen (its soft reset clears only the
#   older attributes): SGR 22;24;29 just before it clears them, as DEC's DECSTR does. They change nothing
#   else there: DECSTR then resets the rest of the pen and saves it.
# - DECALN resets the pen's attributes but keeps bold's bright foreground and turns a direct colour into a
#   palette index of the same value: XTPUSHSGR/XTPOPSGR of the two colours (10, 11) around it keep the
#   colours as they were, and DECALN's reset of the attributes stays.
XTERM_SHIMS = ((b"\x1b[!p", b"\x1b[22;24;29m\x1b[!p"), (b"\x1b#8", b"\x1b[10;11#{\x1b#8\x1b[#}"))


def xterm_side(case, quirks):
    """The bytes xterm gets for a case: the case with XTERM_SHIMS applied, or as it is with quirks."""
    if not quirks:
        for seq, shim in XTERM_SHIMS:
            case = case.replace(seq, shim)
    return case

# ---------------------------------------------------------------------------------------------------------
# The driver: runs inside xterm, writes each case to its own tty and waits for the print before the next.


# --history: each case starts with its saved lines erased (xterm's RIS keeps them) and is printed with its
# saved lines before the screen (CSI ? 11 i, xterm's print-everything); both keep xterm's default 1024 lines.
# xterm runs without jump scrolling (+j): with it (its default) the lines scrolled off join its saved lines
# only when the screen is next drawn, so that an ED 3 or a DECSLRM right after a scroll, in the same read,
# does not apply to them. Without it, xterm 379's SU by the whole region's height or more saves nothing
# (with jump scrolling it saves them, as we do): the history area does not send such an SU.
HISTORY = False
HISTORY_START = b"\x1b[3J"
HISTORY_LINES = 1024


def wait_reply(fd):
    """The bytes xterm answers up to a CPR's final R (5 s at most)."""
    buf = b""
    deadline = time.time() + 5
    while not buf.endswith(b"R") and time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.5)
        if r:
            buf += os.read(fd, 100)
    return buf


def driver(cases_path, result_path, rows, print_path, tail, history=False):
    """Runs inside xterm. Each case's CPR, and with history the number of lines printed so far after it
    (a case's print is then as long as its saved lines and screen: it has arrived once the file holds a
    screenful more and has stopped growing)."""
    import tty
    cases = json.load(open(cases_path))
    tail = bytes.fromhex(tail)
    fd = os.open("/dev/tty", os.O_RDWR)
    tty.setraw(fd)
    res, ends = [], []
    for i, c in enumerate(cases):
        os.write(fd, RESET + (HISTORY_START if history else b"") + bytes.fromhex(c) + b"\x1b[6n")
        res.append(wait_reply(fd).decode("latin1"))
        # RIS closes xterm's printer pipe and the next print opens a new one: wait until this case's
        # page has arrived, so that two printer processes never race on the file.
        if history:
            # a round trip first: the print is not sent in the same read as the '@' (which may scroll)
            os.write(fd, b"@" + tail + b"\x1b[6n")
            wait_reply(fd)
            os.write(fd, b"\x1b[?19h\x1b[?11i")
        else:
            os.write(fd, b"@" + tail + b"\x1b[?19h\x1b[0i")
        deadline = time.time() + 5
        arrived = False
        before = ends[-1] if ends else 0
        count, still = -1, 0
        while not arrived and time.time() < deadline:
            try:
                with open(print_path, "rb") as f:
                    now = f.read().count(b"\n")
                still = still + 1 if now == count else 0
                count = now
                arrived = now >= (before + rows if history else (i + 1) * rows) and (not history or still >= 50)
            except OSError:
                pass
            time.sleep(0.002)
        ends.append(count)
        if not arrived:
            # Now and then (more often on a loaded machine) xterm stops printing. Give up on this xterm;
            # the caller starts a new one from this case on.
            res.pop()
            ends.pop()
            break
    with open(result_path, "w") as f:
        json.dump([res, ends], f)


# ---------------------------------------------------------------------------------------------------------
# Running both sides.


class Xvfb:
    def __init__(self, display, screen="1024x768x24"):
        self.display = display
        self.screen = screen
        self.proc = None

    def __enter__(self):
        if os.environ.get("XDIFF_DISPLAY"):
            self.display = os.environ["XDIFF_DISPLAY"]
            return self
        self.proc = subprocess.Popen(["Xvfb", self.display, "-screen", "0", self.screen, "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        if self.proc.poll() is not None:
            sys.exit("Xvfb %s did not start (another server on that display? try --display)" % self.display)
        return self

    def __exit__(self, *exc):
        if self.proc:
            self.proc.terminate()
            self.proc.wait()


def run_xterm_once(display, cases, cols, rows, tmp, attr, quirks):
    """Runs the cases in one xterm; returns the CPRs and pages of those it got through (a prefix), and with
    attr each page's cells (attrs, fg, bg) row by row."""
    cpath, rpath, ppath = (os.path.join(tmp, n) for n in ("cases.json", "result.json", "print.txt"))
    for p in (rpath, ppath):
        if os.path.exists(p):
            os.unlink(p)
    json.dump([xterm_side(c, quirks).hex() for c in cases], open(cpath, "w"))
    cmd = ["xterm", "-display", display, "-u8"] + (["+j", "-sl", str(HISTORY_LINES)] if HISTORY else []) + [
           "-geometry", "%dx%d" % (cols, rows),
           "-xrm", "XTerm*printerCommand: cat >> " + ppath, "-xrm", "XTerm*printAttributes: %d" % (2 if attr else 0),
           "-e", sys.executable, os.path.abspath(__file__), "--driver", cpath, rpath, str(rows), ppath,
           attrs.sentinel(cols, rows).hex() if attr else "", "h" if HISTORY else ""]
    subprocess.run(cmd, timeout=30 + 10 * len(cases), check=False)
    try:
        cprs, ends = json.load(open(rpath))
        text = open(ppath, "rb").read().decode("utf-8", "replace").split("\n")
    except OSError:
        return [], [], []
    pages, cells = [], []
    for i in range(len(cprs)):
        page = text[i * rows:(i + 1) * rows]
        if HISTORY:
            # the saved lines, oldest first, then the screen
            page = text[(ends[i - 1] if i else 0):ends[i]]
            hist = len(page) - rows
        if attr:
            read = [attrs.read_row(r.rstrip("\r")) for r in page]
            page = [r[0] for r in read]
            cells.append([r[1] for r in read] + [([], set())] * (rows - len(read)))
        # xterm prints a wide character's right half as U+FFFF, and a right half left alone (its left half
        # overwritten) too, where it shows a blank.
        # (U+3248..U+324F and U+4DC0..U+4DFF are wide in xterm and here, narrow in Python's table.)
        page = [re.sub("([\u1100-\U0003ffff])\uffff", lambda m: m.group(1) if
                       unicodedata.east_asian_width(m.group(1)) in "WF" or
                       "\u3248" <= m.group(1) <= "\u324f" or "\u4dc0" <= m.group(1) <= "\u4dff" else m.group(0), r)
                for r in page]
        page = [r.replace("\uffff", " ").rstrip() for r in page]
        if HISTORY:
            page = ["history| " + r for r in page[:hist]] + page[hist:]
        pages.append(page + [""] * (rows - len(page)))
    return cprs, pages, cells


def run_xterm(display, cases, cols, rows, tmp, attr, quirks):
    """All the cases' CPRs, pages and cells; None for a case xterm failed to print twice."""
    cprs, pages, cells, failed = [], [], [], 0
    while len(cprs) < len(cases):
        c, p, a = run_xterm_once(display, cases[len(cprs):], cols, rows, tmp, attr, quirks)
        cprs += c
        pages += p
        cells += a
        failed = failed + 1 if not c else 0
        if failed == 2:
            cprs.append(None)
            pages.append(None)
            cells.append(None)
            failed = 0
    return cprs, pages, cells


def run_ours(replay, cases, cols, rows, attr):
    """Our CPRs, pages, (with attr) screens' rows of vtproto cells, and (with attr) for each case the rows
    whose last-but-one column held a wide character's left half before the sentinel."""
    cmds = []
    tail = attrs.sentinel(cols, rows) if attr else b""
    for c in cases:
        stream = RESET + c + b"\x1b[6n@"
        if HISTORY:
            stream = RESET + HISTORY_START + c + b"\x1b[6n@"
        cmds += ["INIT %d %d %d" % (rows, cols, HISTORY_LINES if HISTORY else 0), "PUSH " + stream.hex()]
        if attr:
            cmds += ["?screen", "PUSH " + tail.hex()]
        cmds += ["?screen", "?output"] + (["?scrollback"] if HISTORY else [])
    p = subprocess.run([replay, "--vtproto"], input=("\n".join(cmds) + "\n").encode(), capture_output=True,
                       timeout=300)
    ans = p.stdout.decode("utf-8").split("\n")
    cprs, pages, cells, edges = [], [], [], []
    text = attrs.our_text if attr else (lambda cell: cell[0])
    n = (3 if attr else 2) + HISTORY
    for i in range(len(cases)):
        if attr:
            before = json.loads(ans[n * i])["lines"]
            edges.append({y for y, line in enumerate(before) if line[cols - 2][1] == 2})
        screen = json.loads(ans[n * i + n - 2 - HISTORY])
        cprs.append(bytes.fromhex(ans[n * i + n - 1 - HISTORY]).decode("latin1"))
        hist = json.loads(ans[n * i + n - 1]) if HISTORY else []
        # (a wide character's right half is an empty cell here: "" in the text as in xterm's print)
        pages.append(["history| " + "".join(cell[0] for cell in line).rstrip() for line in hist] +
                     ["".join(text(cell) for cell in line).rstrip() for line in screen["lines"]])
        cells.append(screen["lines"])
    return cprs, pages, cells, edges


# ---------------------------------------------------------------------------------------------------------
# Recorded streams.

STREAM = "stream:"


# DECCOLM (CSI ? 3 h/l) resets the margins, erases the screen and homes the cursor on a VT510 and in xterm
# with 80/132-column switching; we do that without changing the width, and an xterm without switching (the
# streams' DECSET 40 is taken out) ignores DECCOLM whole (docs/conformance.md). With --deccolm those side
# effects are spelled out after each DECCOLM, for both sides alike (ours does them twice, to no effect), so
# that a stream that uses it (vttest's 132-column screens) shows the other differences.
DECCOLM_SIDE_EFFECTS = b"\x1b[r\x1b[2J\x1b[H"


def stream_cases(path, cuts, deccolm=False):
    """A recorded stream and, with cuts, its prefixes: name, bytes. The program's own cursor position
    requests (vim sends one) are taken out: the driver takes the first CPR for the case's own, and a second
    one would be read as the next case's. DECSET 40 (vttest sends it) is taken out too: it would let xterm
    switch to 132 columns, which RIS does not undo (we have no 80/132-column switching). A prefix ends just before an ESC [, so that it does not cut a
    sequence (or a UTF-8 character) in two; an OSC or DCS string holding ESC [ could still be cut."""
    data = re.sub(rb"\x1b\[\??6n|\x1b\[\?40h", b"", open(path, "rb").read())
    if deccolm:
        data = re.sub(rb"\x1b\[\?3[hl]", lambda m: m.group(0) + DECCOLM_SIDE_EFFECTS, data)
    name = STREAM + os.path.basename(path)
    out = []
    for k in range(1, cuts + 1):
        at = data.find(b"\x1b[", len(data) * k // (cuts + 1))
        if at > 0 and (not out or at > out[-1][2]):
            out.append(("%s@%d" % (name, at), data[:at], at))
    return [(n, d) for n, d, _ in out] + [(name, data)]


def row_at(page, y):
    """A page's row y, blank past its end (with --history the pages' lengths may differ)."""
    return page[y] if y < len(page) else ""


def last_cpr(reply):
    """The last CPR in a reply: a stream's queries (DA, DECRQM and the like) get their replies first."""
    m = re.findall(r"\x1b\[\d+;\d+R", reply)
    return m[-1] if m else reply


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        driver(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7] == "h")
        return 0
    ap = argparse.ArgumentParser(description="compare the screen model with a real xterm")
    ap.add_argument("--replay", default=os.path.join(ROOT, "build", "kmscon-felis", "kmscon-felis-replay"))
    ap.add_argument("--size", default="20x8", help="COLSxROWS (default 20x8: small cases, readable diffs)")
    ap.add_argument("--random", type=int, default=300, help="random cases (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mrandom", type=int, default=0, help="random cases concentrated on margins, tabs and wrap "
                    "(seeded by --seed too)")
    ap.add_argument("--hunt", action="append", default=[], choices=hunt.AREAS, help="N random cases (--random's "
                    "N, seeded by --seed) concentrated on one area (tests/tools/xterm_diff_hunt.py); repeatable")
    ap.add_argument("--no-families", action="store_true", help="skip the hand-written cases")
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--case", action="append", default=[], help="a stream, escaped as in tests/conformance")
    ap.add_argument("--stream", action="append", default=[], help="a file holding a recorded stream (a real "
                    "program's output, recorded at --size); repeatable; only the streams are run then")
    ap.add_argument("--cuts", type=int, default=0, help="with --stream, also compare the screens after N "
                    "prefixes of each stream (cut before a CSI, at evenly spaced points)")
    ap.add_argument("--deccolm", action="store_true", help="with --stream, spell out DECCOLM's side effects "
                    "(margins reset, screen erased, cursor home) after it for both sides: xterm without "
                    "80/132-column switching ignores it whole (DECCOLM_SIDE_EFFECTS)")
    ap.add_argument("--display", default=":99", help="the Xvfb display to start (default :99); with "
                    "XDIFF_DISPLAY set, an X server already running there is used instead")
    ap.add_argument("--batch", type=int, default=200, help="cases per xterm process")
    ap.add_argument("--full", action="store_true", help="show every row of a divergent case")
    ap.add_argument("--json", help="write every divergence to this file")
    ap.add_argument("--rect", action="store_true", help="the random cases also use the VT420 rectangle "
                    "functions (DECCRA, DECFRA, DECERA, DECSERA, DECCARA, DECRARA, DECSACE); --mrandom's too, "
                    "over its margins, origin mode and wide characters (and with --attrs its pens)")
    ap.add_argument("--attrs", action="store_true", help="also compare each cell's attributes and colours "
                    "(xterm's printAttributes: 2; adds the attribute families and pens in the random cases; "
                    "the last column holds a sentinel, see tests/tools/xterm_diff_attrs.py)")
    ap.add_argument("--xterm-quirks", action="store_true", help="send xterm the cases unchanged (by default two "
                    "of its documented pen quirks, after DECSTR and DECALN, are undone on its side: XTERM_SHIMS)")
    ap.add_argument("--marks", action="store_true", help="the random cases also write combining marks (ones "
                    "xterm cannot precompose), REP after them too")
    ap.add_argument("--pens", action="store_true", help="the random cases also set pens from every SGR form "
                    "the attribute families use, and save, restore or reset them (with --attrs to be seen)")
    ap.add_argument("--sgr-stack", action="store_true", help="the random cases also push and pop the pen "
                    "(XTPUSHSGR with or without parts named, XTPOPSGR; with --attrs to be seen)")
    ap.add_argument("--history", action="store_true", help="also compare the saved lines (the scrollback), "
                    "oldest first, shown as rows 'history| ...' before the screen's (not with --attrs; "
                    "see HISTORY)")
    ap.add_argument("--weak", action="store_true", help="with --attrs, also show the weak differences (blanks "
                    "xterm's print cannot tell apart; only counted otherwise)")
    a = ap.parse_args()
    for tool in ("xterm", "Xvfb"):
        if not shutil.which(tool) and not (tool == "Xvfb" and os.environ.get("XDIFF_DISPLAY")):
            sys.exit("%s not found: apt-get install -y xterm xvfb" % tool)
    cols, rows = (int(x) for x in a.size.split("x"))
    global HISTORY
    HISTORY = a.history
    if a.history and a.attrs:
        sys.exit("--history does not go with --attrs")

    cases = [("case-%d" % i, unescape(s)) for i, s in enumerate(a.case)]
    for path in a.stream:
        cases += stream_cases(path, a.cuts, a.deccolm)
    if not a.case and not a.stream:
        if not a.no_families:
            cases += families(cols, rows)
            if a.attrs:
                cases += attrs.families(cols, rows, fill)
        rng = random.Random(a.seed)
        extra = attrs.random_ops(rng) if a.attrs else ()
        if a.rect:
            extra = tuple(extra) + rect_ops(rng, cols, rows)
        if a.marks:
            extra = tuple(extra) + mark_ops(rng)
        if a.pens:
            extra = tuple(extra) + tuple(attrs.pen_ops(rng))
        if a.sgr_stack:
            extra = tuple(extra) + tuple(attrs.stack_ops(rng))
        if not a.hunt:
            cases += [("random-%d-%d" % (a.seed, i), random_case(rng, cols, rows, extra)) for i in range(a.random)]
        for area in a.hunt:
            hrng = random.Random("%s-%d" % (area, a.seed))
            cases += [("%s-%d-%d" % (area, a.seed, i), hunt.random_case(hrng, area, cols, rows, fill))
                      for i in range(a.random)]
        mrng = random.Random(a.seed)
        # (with --rect or --attrs its own draws of them, so that the cases without stay as they were)
        mextra = tuple(attrs.random_ops(mrng)) if a.attrs and a.rect else ()
        mextra += rect_ops(mrng, cols, rows) if a.rect else ()
        cases += [("mrandom-%d-%d" % (a.seed, i), margins.random_case(mrng, cols, rows, fill, mextra))
                  for i in range(a.mrandom)]
    if a.only:
        cases = [c for c in cases if re.search(a.only, c[0])]

    diverged = []
    lost = 0
    kinds = {}
    with Xvfb(a.display) as x, tempfile.TemporaryDirectory(prefix="xterm-diff-") as tmp:
        for at in range(0, len(cases), a.batch):
            chunk = cases[at:at + a.batch]
            xc, xp, xa = run_xterm(x.display, [c[1] for c in chunk], cols, rows, tmp, a.attrs, a.xterm_quirks)
            oc, op, oa, oe = run_ours(a.replay, [c[1] for c in chunk], cols, rows, a.attrs)
            for i, ((name, data), xcpr, xpage, ocpr, opage) in enumerate(zip(chunk, xc, xp, oc, op)):
                if xpage is None:
                    print("NOPAGE %s (xterm printed nothing, twice)\n  in   %s" % (name, escape(data)))
                    lost += 1
                    continue
                cells = []
                if a.attrs:
                    for y in range(rows):
                        cells += [[y] + r for r in attrs.compare(oa[i][y], xa[i][y], cols, y in oe[i])]
                    for k in sorted({k for c in cells for k in attrs.classes(c[3], c[4], c[5])}):
                        kinds.setdefault(k, []).append(name)
                    if not a.weak:
                        cells = [c for c in cells if not c[5]]
                if name.startswith(STREAM):
                    xcpr, ocpr = last_cpr(xcpr), last_cpr(ocpr)
                if xcpr == ocpr and xpage == opage and not cells:
                    continue
                shown = escape(data)
                if name.startswith(STREAM) and len(shown) > 300:
                    shown = "..." + shown[-300:]
                d = {"name": name, "in": shown, "cpr": [escape(ocpr.encode("latin1")),
                                                                escape(xcpr.encode("latin1"))],
                     "rows": [[y, row_at(opage, y), row_at(xpage, y)] for y in range(max(len(opage), len(xpage)))
                              if row_at(opage, y) != row_at(xpage, y) or a.full],
                     "cells": [[y, x0, x1, attrs.show(o), attrs.show(xx), w] for y, x0, x1, o, xx, w in cells]}
                diverged.append(d)
                print("DIFF %s\n  in   %s" % (name, d["in"]))
                if xcpr != ocpr:
                    print("  cpr  ours %s  xterm %s" % tuple(d["cpr"]))
                for y, o, xx in d["rows"]:
                    print("  row %d\n    ours  |%s\n    xterm |%s" % (y, o, xx))
                for y, x0, x1, o, xx, w in cells:
                    print("  row %d col %s  ours %s  xterm %s%s" % (y, x0 if x0 == x1 else "%d-%d" % (x0, x1),
                                                                   attrs.show(o), attrs.show(xx),
                                                                   "  (weak)" if w else ""))
    if a.json:
        json.dump(diverged, open(a.json, "w"), indent=1, ensure_ascii=False)
    for k, names in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        print("  %5d cases: %s (e.g. %s)" % (len(names), k, ", ".join(names[:3])))
    print("%d cases, %d diverged from xterm%s" % (len(cases), len(diverged),
                                                  ", %d not printed by xterm" % lost if lost else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
