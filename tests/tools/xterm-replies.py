#!/usr/bin/env python3
"""tests/tools/xterm-replies.py: differential test of the terminal's replies against a real xterm (a developer
tool, not part of the test suite; CI never runs it).

Each case is a short byte stream: a set-up (modes, margins, colours, the cursor's place) and one or more
queries. The real xterm (run under Xvfb, as tests/tools/xterm-diff.py runs it) and kmscon-felis-replay
--vtproto both get
  RIS (xterm-diff's reset), the case, DSR 5 (CSI 5 n), XTVERSION (CSI > q)
and the tool compares the bytes each sends back, exactly. The two trailing queries mark the end of the case's
replies (xterm's arrive on the driver's stdin in raw mode; the driver reads until DSR's and XTVERSION's answers
have come) and are cut off both sides before comparing.

Families: DA1/DA2/DA3 and DECID, DSR (5, 6, and the DEC forms), CPR with a pending wrap and in origin mode,
DECXCPR, DECRQM for every ANSI and DEC mode number xterm knows and some it does not (at power-on, set, reset,
after XTSAVE/XTRESTORE, DECSTR, RIS), DECRQSS (SGR combinations with colours and underline styles, DECSTBM,
DECSLRM, DECSLPP, DECSCUSR, DECSCL, DECSCA, DECSACE and invalid requests), XTVERSION, XTWINOPS reports
(CSI 11/13/14/15/16/18/19/20/21 t), OSC 4/10/11/12 queries ended by BEL and by ST (also colour specifications
read back, and under reverse video), OSC 52 queries, XTGETTCAP, XTQMODKEYS, DECREQTPARM, ENQ, DECRQPSR,
XTREPORTSGR and the kitty keyboard query (CSI ? u). Since session 46 (more_families) also: DSR and CPR with
several, zero-led, oversized and sub-parameters, controls inside the sequence, CPR after each function that
ends or keeps a pending wrap; DECRQM of modes set several at a time, through RIS, DECSTR and the alternate
screens; XTMODKEYS's set, reset and disable forms; OSC 10..19 chains and after other OSCs; OSC 4 with
several indices and OSC 104 with several; C1 and abandoned terminators; DECRQSS after the state it reports
(DECSCL, DECSCUSR, DECSCA, margins set wrong, XTPUSHSGR/XTPOPSGR); the palette stack, XTQALLOWED, XTGETXRES,
DECUDK's lock, DECRQCRA. Since session 48 (xtsgr_families): XTPUSHSGR/XTPOPSGR, the pen read back by
XTREPORTSGR, and XTREPORTSGR over cells and rectangles. --random N --seed S runs N random mode histories instead (random_cases);
--crandom N --seed S N random screens and DECRQCRA checksums of random rectangles (checksum_cases); --srandom N
random pens and XTREPORTSGR (sgr_report_cases): the random cases are in tests/tools/xterm_replies_random.py.

Needs: apt-get install -y xterm xvfb (xterm 379). xterm runs with xterm-diff's options (-u8, the size given,
its defaults otherwise) plus -fg/-bg set to our default colours (#e5e5e5 on black), so that OSC 10/11/12's
answers compare byte for byte. Options that change xterm's replies: decTerminalID (-ti; 420 by default: DA1
62 vs 64, DECRQSS " p, DA3, DECXCPR's page, the VT420 DSRs) -- --xterm-args '-ti 220' runs it as the VT220
our DA1 claims; disallowedWindowOps / allowWindowOps (the XTWINOPS reports); allowColumnMode; the colour
resources; the tcap entries xterm was built with (XTGETTCAP).

Run from the worktree after building:
  tests/tools/xterm-replies.py                         # every family, differences printed
  tests/tools/xterm-replies.py --only decrqss          # the cases whose name matches
  tests/tools/xterm-replies.py --case '\\e[?6h\\e[6n'   # one stream, escapes as in tests/conformance
  tests/tools/xterm-replies.py --xterm-args '-ti 220'  # xterm at a VT220's level
  tests/tools/xterm-replies.py --json out.json         # every difference, machine-readable
  tests/tools/xterm-replies.py --random 300 --seed 4646  # random DECSET/XTSAVE/DECSTR histories, DECRQM'd
  tests/tools/xterm-replies.py --size 20x8 --crandom 400 --seed 4848  # random screens, DECRQCRA of rectangles
Prints each difference (the case's bytes and both replies, escaped) and a summary; exits 0 whatever it
finds. Starts Xvfb on --display (:99) and stops it. docs/conformance.md lists the differences kept on purpose.
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
escape, unescape, Xvfb = xdiff.escape, xdiff.unescape, xdiff.Xvfb
from xterm_replies_random import checksum_cases, random_cases, sgr_report_cases  # noqa: E402
# xterm-diff's reset, and the colours back to their defaults: xterm's RIS keeps what OSC 4, 10, 11 and 12 set
# (ours does not: docs/conformance.md), and a case must not see the one before it
RESET = b"\x1b]104\x07\x1b]110\x07\x1b]111\x07\x1b]112\x07" + xdiff.RESET

# The end of every case: DSR 5 and XTVERSION. Their answers close the case's replies (a case never ends with
# both itself); TAIL_RE finds them, whichever version string the terminal sends.
TAIL = b"\x1b[5n\x1b[>q"
TAIL_RE = re.compile(rb"\x1b\[0n\x1bP>\|[^\x1b]*\x1b\\$")

# ---------------------------------------------------------------------------------------------------------
# The driver: runs inside xterm, writes each case to its tty and reads the replies in raw mode.


def driver(cases_path, result_path):
    import tty
    cases = json.load(open(cases_path))
    fd = os.open("/dev/tty", os.O_RDWR)
    tty.setraw(fd)
    with open(result_path, "a") as out:
        for c in cases:
            os.write(fd, RESET + bytes.fromhex(c) + TAIL)
            buf = b""
            deadline = time.time() + 4
            while not TAIL_RE.search(buf) and time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.2)
                if r:
                    buf += os.read(fd, 4096)
            if not TAIL_RE.search(buf):
                # xterm answers both tail queries whatever state a case left: something went wrong (a case
                # that switched xterm to VT52 or Tektronix mode). Give up on this xterm.
                out.write(json.dumps("TIMEOUT:" + buf.hex()) + "\n")
                break
            out.write(json.dumps(buf.hex()) + "\n")
            out.flush()


# ---------------------------------------------------------------------------------------------------------
# Running both sides.


def run_xterm(display, cases, cols, rows, tmp, extra):
    """Each case's reply bytes (the tail's answers cut off); None for a case xterm did not finish."""
    cpath, rpath = os.path.join(tmp, "cases.json"), os.path.join(tmp, "result.jsonl")
    replies = []
    while len(replies) < len(cases):
        if os.path.exists(rpath):
            os.unlink(rpath)
        rest = cases[len(replies):]
        json.dump([c.hex() for c in rest], open(cpath, "w"))
        cmd = (["xterm", "-display", display, "-u8", "-geometry", "%dx%d" % (cols, rows),
                "-fg", "#e5e5e5", "-bg", "#000000"] + extra +
               ["-e", sys.executable, os.path.abspath(__file__), "--driver", cpath, rpath])
        try:
            subprocess.run(cmd, timeout=30 + 5 * len(rest), check=False)
        except subprocess.TimeoutExpired:
            pass
        got = [json.loads(line) for line in open(rpath)] if os.path.exists(rpath) else []
        for r in got:
            if r.startswith("TIMEOUT:"):
                replies.append(None)
                break
            b = bytes.fromhex(r)
            replies.append(TAIL_RE.sub(b"", b))
        if not got:
            replies.append(None)  # xterm did not even start the case: skip it
    return replies


def run_ours(replay, cases, cols, rows):
    cmds = []
    for c in cases:
        cmds += ["INIT %d %d 0" % (rows, cols), "PUSH " + (RESET + c + TAIL).hex(), "?output"]
    p = subprocess.run([replay, "--vtproto"], input=("\n".join(cmds) + "\n").encode(), capture_output=True,
                       timeout=300)
    ans = p.stdout.decode().split("\n")
    return [TAIL_RE.sub(b"", bytes.fromhex(ans[i])) for i in range(len(cases))]


# ---------------------------------------------------------------------------------------------------------
# Cases.

E = "\x1b"
CSI = E + "["
ST = E + "\\"
DCS = E + "P"
OSC = E + "]"

# DEC private modes: every number xterm 379's DECSET knows, and some it does not. 2 (DECANM) is never reset
# (xterm would go to VT52 mode) and 38 (DECTEK) never set (xterm would open its Tektronix window).
DEC_MODES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 18, 19, 25, 30, 35, 38, 40, 41, 42, 44, 45, 46, 47, 66,
             67, 69, 80, 95, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1010, 1011, 1014, 1015, 1016, 1034,
             1035, 1036, 1037, 1039, 1040, 1041, 1042, 1043, 1044, 1045, 1046, 1047, 1048, 1049, 1050, 1051, 1052,
             1053, 1060, 1061, 2001, 2002, 2003, 2004, 2005, 2006, 2026, 2027, 2031, 7727, 8452,
             0, 11, 15, 16, 17, 20, 99, 100, 999, 1008, 1999, 9999, 65535]
DEC_NOSET = {38, 3}      # DECTEK; DECCOLM (with 40 set xterm might resize)
DEC_NORESET = {2}        # DECANM
ANSI_MODES = list(range(0, 25)) + [34, 99, 1000]


def families(cols, rows):
    """Hand-written cases: name, text (str, encoded as UTF-8)."""
    out = []

    def add(name, s):
        out.append((name, s))

    # device attributes
    for q in ("c", "0c", "1c", ">c", ">0c", ">1c", "=c", "=0c", "=1c", "?c"):
        add("da-" + q, CSI + q)
    add("decid", E + "Z")
    # DSR
    for q in ("5n", "6n", "?6n", "?15n", "?25n", "?26n", "?53n", "?55n", "?56n", "?62n", "?63n", "?75n",
              "?85n", "?5n", "0n", "1n", "?n", "n", "99n", "?99n", ">5n", "?996n"):
        add("dsr-" + q, CSI + q)
    add("dsr-6n-twice", CSI + "6n" + CSI + "3;4H" + CSI + "6n")
    # CPR with a pending wrap, in origin mode, with margins, DECXCPR
    for q in ("6n", "?6n"):
        t = q.replace("?", "x")
        add("cpr-%s-home" % t, CSI + q)
        add("cpr-%s-middle" % t, CSI + "7;11H" + CSI + q)
        add("cpr-%s-pending" % t, CSI + "1;%dH" % (cols - 1) + "ab" + CSI + q)
        add("cpr-%s-pending-bottom" % t, CSI + "%d;%dH" % (rows, cols - 1) + "ab" + CSI + q)
        add("cpr-%s-nowrap" % t, CSI + "?7l" + CSI + "1;%dH" % (cols - 1) + "abc" + CSI + q)
        add("cpr-%s-origin" % t, CSI + "5;10r" + CSI + "?6h" + CSI + "2;3H" + CSI + q)
        add("cpr-%s-origin-lr" % t, CSI + "5;10r" + CSI + "?69h" + CSI + "4;9s" + CSI + "?6h" + CSI + "2;3H" +
            CSI + q)
        add("cpr-%s-origin-clamp" % t, CSI + "5;10r" + CSI + "?6h" + CSI + "99;99H" + CSI + q)
        add("cpr-%s-origin-pending" % t, CSI + "?69h" + CSI + "4;9s" + CSI + "?6h" + CSI + "1;5H" + "ab" + CSI + q)
        add("cpr-%s-origin-decrc-above" % t, CSI + "2;2H" + E + "7" + CSI + "5;10r" + CSI + "?6h" + E + "8" + CSI + q)
        add("cpr-%s-lr-outside" % t, CSI + "?69h" + CSI + "4;9s" + CSI + "3;20H" + CSI + q)
        add("cpr-%s-wide" % t, "中" + CSI + q)
        add("cpr-%s-after-decstr" % t, CSI + "5;10r" + CSI + "?6h" + CSI + "2;3H" + CSI + "!p" + CSI + q)
    # DECRQM, ANSI modes
    for m in ANSI_MODES:
        add("decrqm-ansi-%d" % m, CSI + "%d$p" % m)
        add("decrqm-ansi-%d-set" % m, CSI + "%dh" % m + CSI + "%d$p" % m)
        add("decrqm-ansi-%d-reset" % m, CSI + "%dl" % m + CSI + "%d$p" % m)
    add("decrqm-ansi-none", CSI + "$p")
    add("decrqm-ansi-two", CSI + "4;20$p")
    # DECRQM, DEC modes
    for m in DEC_MODES:
        add("decrqm-dec-%d" % m, CSI + "?%d$p" % m)
        if m not in DEC_NOSET:
            add("decrqm-dec-%d-set" % m, CSI + "?%dh" % m + CSI + "?%d$p" % m)
        if m not in DEC_NORESET:
            add("decrqm-dec-%d-reset" % m, CSI + "?%dl" % m + CSI + "?%d$p" % m)
        if m not in DEC_NOSET | DEC_NORESET:
            # XTSAVE with the mode set, reset, XTRESTORE; and the other way round
            add("decrqm-dec-%d-xtrestore-set" % m, CSI + "?%dh" % m + CSI + "?%ds" % m + CSI + "?%dl" % m +
                CSI + "?%dr" % m + CSI + "?%d$p" % m)
            add("decrqm-dec-%d-xtrestore-reset" % m, CSI + "?%dl" % m + CSI + "?%ds" % m + CSI + "?%dh" % m +
                CSI + "?%dr" % m + CSI + "?%d$p" % m)
            add("decrqm-dec-%d-decstr" % m, CSI + "?%dh" % m + CSI + "!p" + CSI + "?%d$p" % m)
            add("decrqm-dec-%d-ris" % m, CSI + "?%dh" % m + E + "c" + CSI + "?%d$p" % m)
    add("decrqm-dec-none", CSI + "?$p")
    add("decrqm-dec-two", CSI + "?7;25$p")
    for m in (4, 20):
        add("decrqm-ansi-%d-decstr" % m, CSI + "%dh" % m + CSI + "!p" + CSI + "%d$p" % m)
    # DECRQSS
    sgrs = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "53", "1;2", "1;3;4;5;7;8;9",
            "31", "91", "41", "101", "38;5;17", "48;5;200", "38;5;3", "38;5;12", "38;2;1;2;3", "48;2;10;20;30",
            "38:2::1:2:3", "38:2:0:1:2:3", "48:5:9", "4:0", "4:1", "4:2", "4:3", "4:4", "4:5", "58;5;9",
            "58:2::1:2:3", "58;2;4;5;6", "4:3;58:5:9", "1;31;48:5:200", "39;49", "22", "2;1", "1;22",
            "7;27", "30;40", "97;107", "38;5;255;48;5;0", "1;4;31;42", "38;2;255;255;255", "4;24", "59",
            "4:3;4", "4;4:3", "53;55", "9;29", "3;23", "5;25", "8;28", "6", "5;6", "6;25", "10", "11", "51",
            "60", "73", "38;5;256", "38;2;256;0;0", "38;5", "38;2;1;2", "38:5", "38;3;1;2;3", "38;4;1;2;3;4"]
    for s in sgrs:
        add("decrqss-m-" + s, CSI + s + "m" + DCS + "$qm" + ST)
    add("decrqss-m-after-ris", CSI + "1;31m" + E + "c" + DCS + "$qm" + ST)
    add("decrqss-m-after-decstr", CSI + "1;31m" + CSI + "!p" + DCS + "$qm" + ST)
    add("decrqss-m-decsc", CSI + "1;31m" + E + "7" + CSI + "0m" + E + "8" + DCS + "$qm" + ST)
    for setup, tag in (("", "default"), (CSI + "3;20r", "3-20"), (CSI + "5r", "5-"), (CSI + ";7r", "-7"),
                       (CSI + "?69h" + CSI + "4;30s", "lr"), (CSI + "4;30s", "lr-off"),
                       (CSI + "?69h" + CSI + "4;30s" + CSI + "?69l", "lr-reset")):
        add("decrqss-r-" + tag, setup + DCS + "$qr" + ST)
        add("decrqss-s-" + tag, setup + DCS + "$qs" + ST)
    add("decrqss-t", DCS + "$qt" + ST)
    for v in ("", "0", "1", "2", "3", "4", "5", "6", "7"):
        add("decrqss-decscusr-" + (v or "def"), CSI + v + " q" + DCS + "$q q" + ST)
    add("decrqss-decscusr-blink-mode", CSI + "2 q" + CSI + "?12h" + DCS + "$q q" + ST)
    add("decrqss-decscusr-decstr", CSI + "4 q" + CSI + "!p" + DCS + "$q q" + ST)
    add("decrqss-decscusr-ris", CSI + "4 q" + E + "c" + DCS + "$q q" + ST)
    add("decrqss-decscusr-noblink-mode", CSI + "1 q" + CSI + "?12l" + DCS + "$q q" + ST)
    for v in ("", "0", "1", "2", "3"):
        add("decrqss-decsca-" + (v or "def"), CSI + v + '"q' + DCS + '$q"q' + ST)
    add("decrqss-decscl", DCS + '$q"p' + ST)
    add("decrqss-decscl-62", CSI + '62;1"p' + DCS + '$q"p' + ST)
    add("decrqss-decscl-61", CSI + '61"p' + DCS + '$q"p' + ST)
    for q in ("*x", "*|", "$|", "$}", "$~", "*{", ",|", ",}", "+p", "t", "u", "x", "", "mm", " m", "?m", "q",
              "\"", "$q", "0m", "1m", "rr", "r ", "m;", ">m", "'w", "*r", "+q", "'}", "p"):
        add("decrqss-q-" + escape(q.encode()), DCS + "$q" + q + ST)
    add("decrqss-param", DCS + "1$qm" + ST)
    add("decrqss-bel", DCS + "$qm\x07" + ST)
    add("decrqss-2", DCS + "$qm" + ST + DCS + "$qr" + ST)
    # XTVERSION
    for q in (">q", ">0q", ">1q"):
        add("xtversion-" + q, CSI + q + CSI + "5n")  # followed by DSR 5, so that the tail is not its twin
    # XTWINOPS reports
    for q in ("11", "13", "13;2", "14", "14;2", "15", "16", "18", "19", "20", "21", "22;0", "24"):
        add("xtwinops-" + q, CSI + q + "t")
    # XTQMODKEYS
    for q in ("?0m", "?1m", "?2m", "?3m", "?4m", "?5m", "?m"):
        add("xtqmodkeys-" + q, CSI + q)
        add("xtqmodkeys-" + q + "-set", CSI + ">4;2m" + CSI + ">1;3m" + CSI + q)
    # colour queries, BEL vs ST
    for end, tag in (("\x07", "bel"), (ST, "st")):
        for q in ("4;1;?", "4;0;?;15;?", "4;255;?", "4;256;?", "4;1;?;2;#ff0000;2;?", "10;?", "11;?", "12;?",
                  "10;?;?", "10;?;?;?", "11;?;?", "13;?", "17;?", "19;?", "5;0;?", "4;1;?x", "4;-1;?", "4;x;?",
                  "10;#102030" + end + OSC + "10;?", "12;#ff0000" + end + OSC + "12;?",
                  "4;1;rgb:12/34/56" + end + OSC + "4;1;?",
                  "4;1;#abc" + end + OSC + "104;1" + end + OSC + "4;1;?",
                  "52;c;?", "52;;?", "52;s;?", "52;p;?"):
            add("osc-%s-%s" % (tag, escape(q.encode())), OSC + q + end)
        add("osc-%s-after-ris" % tag, OSC + "11;#123456" + end + E + "c" + OSC + "11;?" + end)
        add("osc-%s-4-after-ris" % tag, OSC + "4;1;#123456" + end + E + "c" + OSC + "4;1;?" + end)
    # colour specifications, read back: X's forms and names (xterm parses them with XParseColor)
    for spec in ("red", "Red", "DarkSlateGray", "dark slate gray", "grey50", "gray100", "LightGoldenrod1",
                 "rgb:f/8/0", "rgb:fff/888/000", "rgb:ffff/8888/0000", "rgb:ff/88", "rgb:f/8/0/1", "rgb:1/22/333",
                 "rgb:12345/0/0", "RGB:ff/00/00", "#f80", "#ff8800", "#fff888000", "#ffff88880000", "#ff88",
                 "#ff880", "#FF8800", "rgbi:1/0.5/0", "rgbi:0.5/0/1e0", "rgbi:2/0/0", "nosuchcolour", "",
                 " red", "red ", "#", "rgb:", "CIEXYZ:0.5/0.5/0.5", "cieluv:50/0/0", "TekHVC:0/50/0", "none",
                 "#00000000000g", "rgb:0x/00/00", "rgb:-1/0/0"):
        add("colour-4-" + escape(spec.encode()), OSC + "4;3;" + spec + "\x07" + OSC + "4;3;?\x07")
        add("colour-10-" + escape(spec.encode()), OSC + "10;" + spec + "\x07" + OSC + "10;?\x07")
    for q in ("10;?;#ff0000", "11;#ff0000;?", "10;#010203;?;?", "12;#ff0000\x07\x1b]112\x07\x1b]12;?",
              "10;#ff0000\x07\x1b]12;?", "4;1;#ff0000\x07\x1b]104\x07\x1b]4;1;?", "4;1;?;1;#00ff00;1;?",
              "4;1;#ff0000;2;?", "11;?\x07\x1b[?5h\x1b]11;?"):
        add("colour-multi-" + escape(q.encode()), OSC + q + "\x07")
    add("colour-reverse-video", CSI + "?5h" + OSC + "10;?\x07" + OSC + "11;?\x07")
    # under reverse video OSC 4 and 104 name 0/7 and 8/15 as painted, each the other's (xterm's ReverseVideo)
    add("colour-reverse-video-4", CSI + "?5h" + OSC + "4;0;?;7;?;8;?;15;?;1;?\x07")
    add("colour-reverse-video-4-set", CSI + "?5h" + OSC + "4;0;#123456;8;#010203\x07" + CSI + "?5l" + OSC +
        "4;0;?;7;?;8;?;15;?\x07" + CSI + "?5h" + OSC + "104;0;15\x07" + CSI + "?5l" + OSC + "4;7;?;15;?\x07")
    # the X server's colour names that rgb.txt lacks, and rgb.txt's DebianRed that the server lacks
    for name in ("teal", "rebecca purple", "WebGray", "x11 maroon", "DebianRed"):
        add("colour-name-" + escape(name.encode()), OSC + "4;3;" + name + "\x07" + OSC + "4;3;?\x07")
    # XTGETTCAP
    for names in ("TN", "name", "Co", "colors", "RGB", "kcuu1", "km", "TN;Co", "Co;TN", "xx;Co", "Co;xx;TN",
                  "bce", "cols", "lines", "setrgbf", "Ss", "Se", "Ms", "Tc", "kf1", "ku", "k1", "@7"):
        hx = ";".join(n.encode().hex().upper() for n in names.split(";"))
        add("xtgettcap-" + names, DCS + "+q" + hx + ST)
    add("xtgettcap-lower-hex", DCS + "+q" + "544e" + ST)
    add("xtgettcap-odd", DCS + "+q" + "544" + ST)
    add("xtgettcap-nonhex", DCS + "+q" + "ZZ" + ST)
    add("xtgettcap-empty", DCS + "+q" + ST)
    # other reports xterm has: DECREQTPARM, ENQ (answerback), DECRQPSR (cursor information, tab stops),
    # DECRQTSR, DECRQUPSS, DECRQDE, XTREPORTSGR, XTSMGRAPHICS, XTQALLOWED-style queries, the colour scheme
    for q in ("x", "0x", "1x", "2x", "1$w", "2$w", "1$u", "&u", '"v', "1;1;2;3#|", "?1;1S", "?2;1S", "?3;1S",
              "?996n", ">0T", ">t"):
        add("misc-" + escape(q.encode()), CSI + q)
    add("misc-enq", "\x05")
    add("misc-deccir-state", CSI + "5;10r" + CSI + "?6h" + CSI + "2;3H" + CSI + "1;4;7m" + E + "(0" + CSI + "1$w")
    add("misc-dectabsr-set", CSI + "3g" + CSI + "1;5H" + E + "H" + CSI + "1;20H" + E + "H" + CSI + "2$w")
    # CPR and DECRQM through the alternate screen
    add("alt-cpr", CSI + "5;6H" + CSI + "?1049h" + CSI + "6n" + CSI + "?1049l" + CSI + "6n")
    add("alt-decrqm", CSI + "?1049h" + CSI + "?47$p" + CSI + "?1047$p" + CSI + "?1049$p" + CSI + "?1048$p")
    add("alt-decrqm-47", CSI + "?47h" + CSI + "?47$p" + CSI + "?1047$p" + CSI + "?1049$p")
    add("cpr-after-decstr-pending", CSI + "1;79Hab" + CSI + "!p" + CSI + "6n")
    add("cpr-after-decsc-pending", CSI + "1;79Hab" + E + "7" + CSI + "5;5H" + E + "8" + CSI + "6n")
    # kitty keyboard (xterm 379 does not know it)
    add("kitty-query", CSI + "?u")
    add("kitty-query-pushed", CSI + ">1u" + CSI + "?u")
    return ([(n, s.encode("utf-8")) for n, s in out] + more_families(cols, rows) + decstr_families() +
            checksum_variants() + xtsgr_families())


def more_families(cols, rows):
    """Session 46's cases: the queries above in the forms and states the first families did not reach."""
    out = []

    def add(name, s):
        out.append((name, s))

    # DSR and CPR: several parameters, leading zeros, values past 16 bits, sub-parameters, intermediates,
    # and controls inside the sequence (executed where they come: CR moves the cursor the CPR reports)
    for q in ("5;6n", "6;5n", "?6;5n", "?15;25n", "?25;26n", "0006n", "?0015n", "65542n", "4294967302n",
              "6:1n", "?6:1n", "=6n", "6 n", "6$n", ">6n", "?6;n", ";6n", "?;6n"):
        add("dsr2-" + escape(q.encode()), CSI + q)
    for c, tag in (("\r", "cr"), ("\b", "bs"), ("\n", "lf"), ("\t", "ht"), ("\x07", "bel"),
                   ("\x18", "can"), ("\x1a", "sub"), ("\x1b[5", "esc")):
        add("dsr2-ctl-" + tag, CSI + "3;10H" + CSI + "6" + c + "n" + CSI + "6n")
    # CPR after moves that end or keep a pending wrap
    pend = CSI + "1;%dH" % (cols - 1) + "ab"
    for op, tag in (("\x08", "bs"), ("\r", "cr"), (CSI + "D", "cub"), (CSI + "C", "cuf"), (CSI + "A", "cuu"),
                    (CSI + "B", "cud"), (CSI + "K", "el"), (CSI + "1K", "el1"), (CSI + "X", "ech"), (CSI + "@", "ich"),
                    (CSI + "P", "dch"), (CSI + "L", "il"), (CSI + "M", "dl"), (CSI + "S", "su"), (CSI + "T", "sd"),
                    ("\t", "ht"), (CSI + "Z", "cbt"), (CSI + "b", "rep"), ("\u0301", "combining"),
                    (E + "D", "ind"), (E + "M", "ri"), (CSI + "?7l", "decawm-off"), (CSI + "4h", "irm"),
                    (CSI + "%dG" % cols, "cha-last"), (CSI + "?5h", "decscnm"), (CSI + "J", "ed"),
                    (CSI + "!p", "decstr"), (E + "#8", "decaln"), (CSI + "?1049h", "alt")):
        add("cpr2-pending-" + tag, pend + op + CSI + "6n")
    add("cpr2-wide-last", CSI + "1;%dH" % cols + "中" + CSI + "6n")
    add("cpr2-wide-fits", CSI + "1;%dH" % (cols - 1) + "中" + CSI + "6n")
    add("cpr2-lnm", CSI + "20h" + CSI + "3;5H\n" + CSI + "6n")
    add("cpr2-decrc-unsaved", CSI + "5;5H" + E + "8" + CSI + "6n")
    add("cpr2-decrc-origin-unsaved", CSI + "5;10r" + CSI + "?6h" + E + "8" + CSI + "6n")
    add("cpr2-1048", CSI + "5;5H" + CSI + "?1048h" + CSI + "H" + CSI + "?1048l" + CSI + "6n")
    add("cpr2-47", CSI + "5;5H" + CSI + "?47h" + CSI + "6n" + CSI + "?47l" + CSI + "6n")
    add("cpr2-1047", CSI + "5;5H" + CSI + "?1047h" + CSI + "3;3H" + CSI + "?1047l" + CSI + "6n")
    add("cpr2-ris", CSI + "5;5H" + E + "c" + CSI + "6n")
    add("cpr2-decstbm-homes", CSI + "5;5H" + CSI + "3;9r" + CSI + "6n")
    add("cpr2-decslrm-homes", CSI + "5;5H" + CSI + "?69h" + CSI + "3;9s" + CSI + "6n")
    add("cpr2-decom-homes", CSI + "3;9r" + CSI + "5;5H" + CSI + "?6h" + CSI + "6n" + CSI + "?6l" + CSI + "6n")
    add("cpr2-decslrm-rejected", CSI + "5;5H" + CSI + "?69h" + CSI + "9;3s" + CSI + "6n")
    add("cpr2-decstbm-rejected", CSI + "5;5H" + CSI + "9;3r" + CSI + "6n")
    add("cpr2-vpa-origin", CSI + "3;9r" + CSI + "?6h" + CSI + "20d" + CSI + "6n")
    add("cpr2-hpa-origin-lr", CSI + "?69h" + CSI + "3;9s" + CSI + "?6h" + CSI + "20`" + CSI + "6n")
    # DECRQM: DEC modes ctlseqs names that the first list lacks, numbers past 16 bits, several modes set at
    # once, XTSAVE/XTRESTORE of several, and the ANSI modes through DECSTR and RIS
    for m in (43, 117, 1070, 2007, 1090, 2048, 65536, 65537, 4294967321):
        add("decrqm2-dec-%d" % m, CSI + "?%d$p" % m)
        if m < 65536:
            add("decrqm2-dec-%d-set" % m, CSI + "?%dh" % m + CSI + "?%d$p" % m)
    add("decrqm2-ansi-65540", CSI + "65540$p")
    add("decrqm2-dec-multi-set", CSI + "?1;7;25;1000;1006;2004l" + CSI + "?1;5;6;1000;1006;2004h" +
        "".join(CSI + "?%d$p" % m for m in (1, 5, 6, 7, 25, 1000, 1006, 2004)))
    add("decrqm2-dec-multi-xtsave", CSI + "?1;1004;2004h" + CSI + "?1;1004;2004s" + CSI + "?1;1004;2004l" +
        CSI + "?1;1004r" + "".join(CSI + "?%d$p" % m for m in (1, 1004, 2004)))
    add("decrqm2-ansi-multi", CSI + "4;20h" + CSI + "4$p" + CSI + "20$p" + CSI + "4;20l" + CSI + "4$p" +
        CSI + "20$p")
    for m in (2, 4, 12, 20):
        add("decrqm2-ansi-%d-ris" % m, CSI + "%dh" % m + E + "c" + CSI + "%d$p" % m)
        if m != 4 and m != 20:
            add("decrqm2-ansi-%d-decstr" % m, CSI + "%dh" % m + CSI + "!p" + CSI + "%d$p" % m)
    for m in (1, 6, 7, 25, 45, 66, 67, 69, 1000, 1004, 1006, 1007, 1036, 1039, 2004):
        add("decrqm2-dec-%d-decstr-reset" % m, CSI + "?%dl" % m + CSI + "!p" + CSI + "?%d$p" % m)
    add("decrqm2-dec-1049-alt-47", CSI + "?47h" + CSI + "?1049$p" + CSI + "?1047$p")
    add("decrqm2-dec-1049-off", CSI + "?1049h" + CSI + "?1049l" + CSI + "?1049$p" + CSI + "?47$p")
    add("decrqm2-dec-1047-1049", CSI + "?1047h" + CSI + "?1049h" + CSI + "?1049$p" + CSI + "?1047$p")
    add("decrqm2-dec-mouse-exclusive", CSI + "?1000h" + CSI + "?1002h" + CSI + "?1000$p" + CSI + "?1002$p")
    add("decrqm2-dec-encoding-exclusive", CSI + "?1006h" + CSI + "?1015h" + CSI + "?1006$p" + CSI + "?1015$p")
    add("decrqm2-dec-9-1000", CSI + "?9h" + CSI + "?1000h" + CSI + "?9$p" + CSI + "?1000$p")
    add("decrqm2-dec-1003-reset-1000", CSI + "?1003h" + CSI + "?1000l" + CSI + "?1003$p")
    add("decrqm2-dec-1001-reset", CSI + "?1000h" + CSI + "?1001l" + CSI + "?1000$p")
    add("decrqm2-sub", CSI + "?25:1$p")
    add("decrqm2-zero-lead", CSI + "?0025$p")
    # XTMODKEYS forms, then XTQMODKEYS
    for setq, tag in ((">4;1m", "4-1"), (">4;2m" + CSI + ">4m", "4-reset"), (">4;2m" + CSI + ">m", "all-reset"),
                      (">4;2m" + CSI + ">4n", "4-disable"), (">4;2m" + CSI + ">n", "disable-none"),
                      (">4;3m", "4-3"), (">4;0m", "4-0"), (">4;2m" + CSI + "!p", "decstr"),
                      (">4;2m" + E + "c", "ris"), (">4;2;1m", "three"), (">4:2m", "colon"),
                      (">0;1m", "0-1"), (">2;1m", "2-1"), (">2n", "2-disable"), (">1;-1m", "1-neg")):
        add("xtqmodkeys2-%s" % tag, CSI + setq + CSI + "?4m" + CSI + "?0m" + CSI + "?1m" + CSI + "?2m")
    # XTWINOPS: more parameters, and the reports after a title is set
    for q in ("11;0", "18;1", "19;1", "14;1", "16;1", "15;2", "t", "0", "22;0" + CSI + "23;0"):
        add("xtwinops2-" + escape(q.encode()), CSI + q + ("t" if not q.endswith("t") else ""))
    add("xtwinops2-title", OSC + "2;hello\x07" + CSI + "21t" + CSI + "20t")
    # OSC 10..19 queries, chained and after other OSCs
    for end, tag in (("\x07", "bel"), (ST, "st")):
        for q in ("10;?;?;?;?;?;?;?;?;?;?", "11;?;?", "12;?;?", "14;?", "15;?", "16;?", "18;?", "10;red;?",
                  "10;red;blue" + end + OSC + "11;?", "10;?;red" + end + OSC + "11;?", "11;;?", "10;?;",
                  "110" + end + OSC + "10;?", "10;?" + end + OSC + "10;?", "010;?", "10 ;?", "10;? ",
                  "10;?;?;?;?;?;?;?;?;?;?;?"):
            add("osc2-%s-%s" % (tag, escape(q.encode())), OSC + q + end)
        for pre in ("0;title", "2;title", "1;icon", "104", "112", "52;c;aGVsbG8=", "8;;http://x", "7;file:///",
                    "777;notify;a;b", "1337;x", "99", "4;1;#102030", "133;A", "50;?"):
            add("osc2-%s-pre-%s" % (tag, escape(pre.encode())), OSC + pre + end + OSC + "10;?;?" + end)
        # OSC 4 with several indices in one sequence
        for q in ("4;1;?;2;?;3;?", ";".join("4" if i < 0 else "%d;?" % i for i in range(-1, 16)),
                  "4;1;?;256;?;2;?", "4;1;?;x;?;2;?", "4;1;?;;?;2;?", "4;1;?;2", "4;1;?;2;", "4;255;?;0;?",
                  "4;1;red;2;?;1;?", "4;01;?", "4; 1;?", "4;1 ;?", "4;1;? ", "4;+1;?", "4;1;?;1;?",
                  "4;1;#ff0000" + end + OSC + "104;1;2" + end + OSC + "4;1;?;2;?",
                  "4;1;#ff0000;2;#00ff00" + end + OSC + "104;2" + end + OSC + "4;1;?;2;?",
                  "4;1;#ff0000" + end + OSC + "104;" + end + OSC + "4;1;?",
                  "4;1;#ff0000" + end + OSC + "104;x" + end + OSC + "4;1;?",
                  "4;1;#ff0000" + end + OSC + "104;1;x;2" + end + OSC + "4;1;?"):
            add("osc2-%s-%s" % (tag, escape(q.encode())), OSC + q + end)
    # the terminators: ST as an 8-bit C1 control (UTF-8 U+009C) and ESC then another byte; a colour
    # query interrupted by CAN or SUB; C0 controls inside
    add("osc2-c1-st", OSC + "11;?\u009c" + CSI + "5n")
    add("osc2-esc-other", OSC + "11;?" + E + "[6n")
    add("osc2-can", OSC + "11;?\x18" + CSI + "6n")
    add("osc2-sub", OSC + "11;?\x1a" + CSI + "6n")
    add("osc2-bs-inside", OSC + "11;\x08?\x07")
    add("osc2-cr-inside", OSC + "11;?\r\x07")
    add("dcs2-can", DCS + "$q\x18m" + ST + CSI + "6n")
    add("dcs2-c0-inside", DCS + "$q\rm" + ST)
    add("dcs2-esc-other", DCS + "$qm" + E + "[6n")
    # DECRQSS after the state it reports
    for setq, q, tag in (('63;1"p', '"p', "decscl-63-1"), ('64"p', '"p', "decscl-64"), ('65;2"p', '"p', "decscl-65"),
                         ('62;0"p', '"p', "decscl-62-0"), ('61;1"p', '"p', "decscl-61-1"), ('99"p', '"p', "decscl-99"),
                         ("5 q", " q", "decscusr-5"), ("6 q", " q", "decscusr-6"), ("7 q", " q", "decscusr-7"),
                         ('2"q', '"q', "decsca-2"), ('1"q' + CSI + '"q', '"q', "decsca-1-0"),
                         ("5;3r", "r", "decstbm-bad"), ("3;99r", "r", "decstbm-99"), ("r", "r", "decstbm-reset"),
                         ("3;9r" + CSI + "?6h", "r", "decstbm-origin"), ("?69h" + CSI + "9;3s", "s", "decslrm-bad"),
                         ("?69h" + CSI + "3s", "s", "decslrm-3"), ("?69h" + CSI + ";9s", "s", "decslrm--9"),
                         ("?69h" + CSI + "3;999s", "s", "decslrm-999"), ("1$}", "$}", "decsasd-1"),
                         ("2$~", "$~", "decssdt-2"), ("0$~", "$~", "decssdt-0"), ("80$|", "$|", "decscpp-80"),
                         ("2*x", "*x", "decsace-2"), ("#{" + CSI + "1;31m" + CSI + "#}", "m", "xtpopsgr"),
                         ("1;31m" + CSI + "#{" + CSI + "0;4m", "m", "xtpushsgr"),
                         ("1;31m" + CSI + "#{" + CSI + "0;4m" + CSI + "#}", "m", "xtpushpopsgr"),
                         ("1;31m" + CSI + "1#{" + CSI + "0;4;32m" + CSI + "#}", "m", "xtpushsgr-bold-only"),
                         ("1;31m" + CSI + "10#{" + CSI + "0;4;32m" + CSI + "#}", "m", "xtpushsgr-fg-only")):
        add("decrqss2-" + tag, CSI + setq + DCS + "$q" + q + ST)
    # the xterm reports the first list left out: the palette stack, the allowed features, resources, fonts
    for q, tag in ((CSI + "#R", "xtreportcolors"), (CSI + "#P" + CSI + "#R", "xtpushcolors"),
                   (CSI + "#P" + CSI + "#P" + CSI + "#Q" + CSI + "#R", "xtpushcolors-2"),
                   (OSC + "4;1;#ff0000\x07" + CSI + "#P" + OSC + "104\x07" + CSI + "#Q" + OSC + "4;1;?\x07",
                    "xtpopcolors-osc4"),
                   (OSC + "10;#ff0000\x07" + CSI + "#P" + OSC + "110\x07" + CSI + "#Q" + OSC + "10;?\x07",
                    "xtpopcolors-osc10"),
                   (OSC + "60\x07", "xtqallowed"), (OSC + "61;allowColorOps\x07", "xtqdisallowed"),
                   (DCS + "+Q" + "616C6C6F77436F6C6F724F7073" + ST, "xtgetxres"),
                   (DCS + "+Q" + "6E6F6E65" + ST, "xtgetxres-unknown"), (OSC + "50;?\x07", "font-query"),
                   (OSC + "50;#\x07", "font-query-hash"), (CSI + "?25;1;2;3#|", "xtreportsgr-q"),
                   (CSI + "1 t" + CSI + "11t", "xtwinops-after-decslpp"),
                   (DCS + "0;0|" + ST + CSI + "?25n", "decudk-lock"), (DCS + "1;1|" + ST + CSI + "?25n", "decudk-nolock"),
                   (DCS + "0;0|17/41" + ST + CSI + "?25n", "decudk-lock-key"),
                   (CSI + "1;1;1;1;1;1*y", "decrqcra-empty"), ("ab" + CSI + "1;1;1;1;1;2*y", "decrqcra-ab"),
                   (CSI + "2$u", "decrqtsr-2"), (CSI + "$u", "decrqtsr-none"), (CSI + "0$w", "decrqpsr-0"),
                   (CSI + "3$w", "decrqpsr-3"), (CSI + "?$w", "decrqpsr-private"), (CSI + "1;2$w", "decrqpsr-two"),
                   (CSI + "2;1$p", "decrqm-ansi-2-1"), (E + "[>0;1c", "da2-two"), (CSI + "?1;2c", "da1-private"),
                   (CSI + "1 c", "da-intermediate"), (E + " F" + CSI + "c", "s7c1t-da"),
                   (E + " F" + CSI + '62;2"p' + CSI + "c", "decscl-7bit-da"), ("\x05\x05", "enq-twice")):
        add("misc2-" + tag, q)
    return [(n, s.encode("utf-8")) for n, s in out]


# XTPUSHSGR/XTPOPSGR and XTREPORTSGR (session 48). The pen after the pushes and pops is read back by
# XTREPORTSGR of a cell written with it (an X at the top left), whose form is xterm's here too: the DECRQSS
# forms differ (docs/conformance.md). Kept out of the pens, as differences docs/conformance.md lists: SGR
# 30-37 with bold (xterm stores and reports them as 90-97; 38;5;N is used instead), invisible (8: xterm's
# report leaves it out) but in the cases named -invisible, underline styles and colours, overline.
def xtsgr_families():
    out = []
    X = CSI + "H" + "X" + CSI + "1;1;1;1#|"
    full = CSI + "1;2;3;4;5;7;9;38;5;1;42m"
    pushes = [("all", ""), ("0", "0"), ("empty2", ";"), ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4"),
              ("5", "5"), ("7", "7"), ("9", "9"), ("21", "21"), ("30", "30"), ("31", "31"), ("10", "10"),
              ("11", "11"), ("1-31", "1;31"), ("unnamed", "6;22;32;53;0"), ("huge", "99999;3"),
              ("empty-1", ";1"), ("1-empty", "1;"), ("29-3-30", "29;3;30")]
    for tag, ps in pushes:
        out.append(("xtsgr-push-%s" % tag, full + CSI + ps + "#{" + CSI + "0m" + CSI + "#}" + X))
        out.append(("xtsgr-push-%s-keep" % tag, full + CSI + ps + "#{" + CSI + "0;21;38;5;99;48;2;1;2;3m" +
                    CSI + "#}" + X))
        out.append(("xtsgr-alias-%s" % tag, full + CSI + ps + "#p" + CSI + "0m" + CSI + "#q" + X))
    for tag, s in (("colours", CSI + "38;2;1;2;3;48;5;200m" + CSI + "#{" + CSI + "0m" + CSI + "#}"),
                   ("colours-fg", CSI + "38;2;1;2;3;48;5;200m" + CSI + "30#{" + CSI + "0;1;33;44m" + CSI + "#}"),
                   ("colours-default", CSI + "m" + CSI + "30;31#{" + CSI + "33;44m" + CSI + "#}"),
                   ("underline-21-4", CSI + "21m" + CSI + "4#{" + CSI + "0m" + CSI + "#}"),
                   ("underline-4-21", CSI + "4m" + CSI + "21#{" + CSI + "0m" + CSI + "#}"),
                   ("underline-both", CSI + "4;21m" + CSI + "#{" + CSI + "0m" + CSI + "#}"),
                   ("nested", CSI + "1m" + CSI + "#{" + CSI + "0;3m" + CSI + "1#{" + CSI + "0;7m" + CSI + "#}"),
                   ("nested-2", CSI + "1m" + CSI + "#{" + CSI + "0;3m" + CSI + "1#{" + CSI + "0;7m" + CSI + "#}" +
                    CSI + "#}"),
                   ("empty-level", CSI + "1m" + CSI + "#{" + CSI + ";#{" + CSI + "0m" + CSI + "#}"),
                   ("empty-level-2", CSI + "1m" + CSI + "#{" + CSI + ";#{" + CSI + "0m" + CSI + "#}" + CSI + "#}"),
                   ("underflow", CSI + "1m" + CSI + "#}"),
                   ("underflow-2", CSI + "1m" + CSI + "#{" + CSI + "#}" + CSI + "0;3m" + CSI + "#}"),
                   ("pop-param", CSI + "1m" + CSI + "#{" + CSI + "0m" + CSI + "1#}"),
                   ("pop-sub", CSI + "1m" + CSI + "#{" + CSI + "0m" + CSI + "1:2#}"),
                   ("push-sub", CSI + "1m" + CSI + "1:2#{" + CSI + "0m" + CSI + "#}"),
                   ("push-private", CSI + "1m" + CSI + "?#{" + CSI + "0m" + CSI + "#}"),
                   ("pop-private", CSI + "1m" + CSI + "#{" + CSI + "0m" + CSI + "?#}"),
                   ("decstr", CSI + "1m" + CSI + "#{" + CSI + "!p" + CSI + "#}"),
                   ("decaln", CSI + "1m" + CSI + "#{" + CSI + "0m" + E + "#8" + CSI + "#}"),
                   ("decsc", CSI + "1m" + E + "7" + CSI + "#{" + CSI + "0;3m" + E + "8"),
                   ("decsc-pop", CSI + "1m" + E + "7" + CSI + "#{" + CSI + "0;3m" + E + "8" + CSI + "#}"),
                   ("decrc-after", CSI + "1m" + CSI + "#{" + CSI + "0;3m" + E + "7" + CSI + "#}" + CSI + "0m" +
                    E + "8"),
                   ("alt-1049", CSI + "1m" + CSI + "#{" + CSI + "?1049h" + CSI + "0m" + CSI + "#}" + X +
                    CSI + "?1049l"),
                   ("alt-1049-push", CSI + "1m" + CSI + "?1049h" + CSI + "#{" + CSI + "0;3m" + CSI + "?1049l" +
                    CSI + "#}"),
                   ("alt-47", CSI + "1m" + CSI + "?47h" + CSI + "#{" + CSI + "0m" + CSI + "?47l" + CSI + "#}"),
                   ("invisible", CSI + "8m" + CSI + "8#{" + CSI + "0;1m" + CSI + "#}"),
                   ("decsca", CSI + '1"q' + CSI + "#{" + CSI + '0"q' + CSI + "#}" + DCS + '$q"q' + ST)):
        out.append(("xtsgr-%s" % tag, s + X))
    # the stack's depth: N pushes of distinct pens, then N + 1 pops, the pen read after each
    for n in (9, 10, 11, 12, 15):
        s = "".join(CSI + "38;5;%dm" % (100 + i) + CSI + "#{" for i in range(n)) + CSI + "0m"
        out.append(("xtsgr-depth-%d" % n, s + (CSI + "#}" + X) * (n + 1)))
    out.append(("xtsgr-depth-10-selective", "".join(CSI + "38;5;%dm" % (100 + i) + CSI + "#{" for i in range(10)) +
                CSI + "38;5;99m" + CSI + "1#{" + CSI + "0m" + (CSI + "#}" + X) * 3))
    # XTREPORTSGR: each attribute and colour form on one cell, cells that differ, blanks, the rectangle
    for ps in ("1", "2", "3", "4", "5", "7", "9", "21", "31", "91", "41", "101", "38;5;200", "48;5;7",
               "38;5;3", "38;5;12", "38;2;10;20;30", "48;2;0;0;0", "1;2;3;4;5;7;9;38;5;1;42",
               "1;2;3;21;5;7;9;38;5;99;48;2;9;8;7", "1;38;5;1", "8", "8;7", "1;7;48;5;100"):
        out.append(("xtsgr-report-%s" % ps, CSI + ps + "mA" + CSI + "1;1;1;1#|"))
    for tag, s in (("none", CSI + "1;1;1;1#|"), ("pen-only", CSI + "31m" + CSI + "1;1;1;1#|"),
                   ("erased-bg", CSI + "41m" + CSI + "2J" + CSI + "1;1;1;1#|"),
                   ("erased-el", CSI + "1;4;7;42m" + CSI + "K" + CSI + "1;1;1;3#|"),
                   ("erased-ech", CSI + "4;7;48;5;100m" + CSI + "3X" + CSI + "1;1;1;3#|"),
                   ("ich", CSI + "4;7;42mABC" + CSI + "H" + CSI + "@" + CSI + "1;1;1;1#|"),
                   ("il", CSI + "4;7;42m" + CSI + "L" + CSI + "1;1;1;1#|"),
                   ("common-bold", CSI + "1;38;5;1mA" + CSI + "0;1;38;5;2mB" + CSI + "1;1;1;2#|"),
                   ("common-none", CSI + "1;38;5;1mA" + CSI + "0;38;5;2mB" + CSI + "1;1;1;2#|"),
                   ("common-7", CSI + "7mA" + CSI + "27mB" + CSI + "7mC" + CSI + "1;1;1;1#|" + CSI + "1;3;1;3#|" +
                    CSI + "1;1;1;3#|"),
                   ("common-fg-forms", CSI + "34mA" + CSI + "38;5;4mB" + CSI + "1;1;1;2#|"),
                   ("common-bright-forms", CSI + "94mA" + CSI + "38;5;12mB" + CSI + "1;1;1;2#|"),
                   ("common-direct-palette", CSI + "38;5;4mA" + CSI + "38;2;0;0;238mB" + CSI + "1;1;1;2#|"),
                   ("common-4-21", CSI + "4mA" + CSI + "21mB" + CSI + "1;1;1;2#|"),
                   ("wide-right", CSI + "7m中" + CSI + "1;2;1;2#|"), ("wide", CSI + "7m中" + CSI + "1;1;1;2#|"),
                   ("spaces", CSI + "7m  " + CSI + "1;1;1;2#|"), ("decsca", CSI + '1"qA' + CSI + "1;1;1;1#|"),
                   ("blank-after", CSI + "7mAB" + CSI + "1;1;1;3#|"), ("whole", CSI + "7mAB" + CSI + "#|"),
                   ("two-params", CSI + "7mAB" + CSI + "1;1#|"), ("empty-edges", CSI + "7mAB" + CSI + ";;1;2#|"),
                   ("zero-edges", CSI + "7mAB" + CSI + "0;0;1;2#|"), ("left-gt-right", CSI + "7mAB" + CSI + "1;2;1;1#|"),
                   ("top-gt-bottom", CSI + "7mAB" + CSI + "2;1;1;1#|"), ("right-999", CSI + "7mAB" + CSI + "1;1;1;999#|"),
                   ("bottom-999", CSI + "7mAB" + CSI + "1;1;999;2#|"), ("five", CSI + "7mAB" + CSI + "1;1;1;2;5#|"),
                   ("wrapped", CSI + "7m" + CSI + "1;%dHAB" % 80 + CSI + "2;1;2;1#|"),
                   ("origin", CSI + "7m" + CSI + "3;1HAB" + CSI + "3;10r" + CSI + "?6h" + CSI + "1;1;1;2#|"),
                   ("origin-above", CSI + "7m" + CSI + "2;1HAB" + CSI + "3;10r" + CSI + "?6h" + CSI + "1;1;1;2#|"),
                   ("origin-lr", CSI + "7m" + CSI + "3;6HAB" + CSI + "3;9r" + CSI + "?69h" + CSI + "5;10s" + CSI +
                    "?6h" + CSI + "1;2;1;3#|"),
                   ("decscnm", CSI + "1;7mA" + CSI + "?5h" + CSI + "1;1;1;1#|"),
                   ("alt-screen", CSI + "7mA" + CSI + "?1049h" + CSI + "1mB" + CSI + "1;1;1;1#|" + CSI + "?1049l" +
                    CSI + "1;1;1;1#|"),
                   ("sub", CSI + "7mA" + CSI + "1;1;1;1:1#|"), ("private", CSI + "7mA" + CSI + ">1;1;1;1#|"),
                   ("space", CSI + "7mA" + CSI + "1;1;1;1 #|"), ("twice", CSI + "7mAB" + CSI + "1;1;1;2#|" + CSI +
                                                               "1;1;1;2#|")):
        out.append(("xtsgr-report-%s" % tag, s))
    return [(n, s.encode("utf-8")) for n, s in out]


# DECSTR's reset set (session 47): each piece of state DECSTR resets or keeps, set alone (and all together),
# then DECSTR, then everything read back: DECRQSS of SGR, the margins, DECSCA, DECSCUSR, DECSACE; DECRQM of the
# modes DECSTR touches or must leave; CPR (the cursor stays); DECTABSR (the tab stops stay); DECRC of a cursor
# saved before DECSTR (xterm saves home there). Left out, as listed in docs/conformance.md: KAM (reported
# permanently reset here), DECSCL and its DECRQSS (one level here; xterm at VT200 level drops DECLRMM and the
# VT420 reports), DECCIR (its Scss: xterm 379 always answers O; the character sets after DECSTR are in
# xterm-diff.py's charset-decstr).
DECSTR_SETUPS = (("sgr", CSI + "1;4;5;7;8m"), ("sgr-colour", CSI + "31;44m"), ("decsca", CSI + '1"q'),
                 ("stbm", CSI + "3;10r"), ("slrm", CSI + "?69h" + CSI + "5;30s"), ("decom", CSI + "?6h"),
                 ("irm", CSI + "4h"), ("kam", CSI + "2h"), ("lnm", CSI + "20h"), ("nowrap", CSI + "?7l"),
                 ("cursor-hidden", CSI + "?25l"), ("decckm", CSI + "?1h"), ("deckpam", E + "="),
                 ("g0-graphics", E + "(0"), ("g1-so", E + ")0\x0e"), ("ls2", E + "*0" + E + "n"),
                 ("ls1r", E + ")0" + E + "~"), ("decscusr", CSI + "4 q"), ("decsace", CSI + "2*x"),
                 ("revwrap", CSI + "?45h"), ("decnkm", CSI + "?66h"), ("decbkm", CSI + "?67h"),
                 ("decsc", CSI + "5;7H" + E + "7" + CSI + "2;2H"), ("pending-wrap", CSI + "1;%dHab"),
                 ("spa", E + "V"), ("mouse", CSI + "?1000h" + CSI + "?1006h"),
                 ("bracketed", CSI + "?2004h"), ("alt-screen", CSI + "?1049h"), ("xtchecksum", CSI + "5#y"))
DECSTR_QUERIES = ("".join(DCS + "$q" + q + ST for q in ("m", "r", "s", '"q', " q", "*x")) +
                  "".join(CSI + "?%d$p" % m for m in (1, 6, 7, 25, 45, 66, 67, 69, 1000, 1006, 1049, 2004)) +
                  "".join(CSI + "%d$p" % m for m in (4, 20)) + CSI + "6n" + CSI + "2$w" +
                  E + "8" + CSI + "6n")


def decstr_families():
    out = []
    for tag, setup in DECSTR_SETUPS:
        setup = setup.replace("%d", "80")
        out.append(("decstr-" + tag, setup + CSI + "!p" + DECSTR_QUERIES))
        out.append(("decstr-twice-" + tag, setup + CSI + "!p" + CSI + "!p" + DECSTR_QUERIES))
    every = "".join(s.replace("%d", "80") for t, s in DECSTR_SETUPS if t not in ("alt-screen", "pending-wrap"))
    out.append(("decstr-all", every + CSI + "!p" + DECSTR_QUERIES))
    out.append(("decstr-all-alt", every + CSI + "?1049h" + every + CSI + "!p" + DECSTR_QUERIES))
    return [(n, s.encode("utf-8")) for n, s in out]


# XTCHECKSUM's 32 variants (session 47) over one screen holding each kind of cell the sum tells apart: text
# after cells never written, video attributes, an invisible character, wide characters (one invisible),
# Latin-1, the Euro sign, DEC line drawing, a mark xterm cannot precompose, a printed space, cells EL erased (not
# ECH: xterm sums its blanks as spaces, docs/conformance.md);
# each variant then three rectangles (a row with blanks first, the whole screen, a blank one).
CHECKSUM_SCREEN = ("a" + CSI + "C" + CSI + "1;4mb" + CSI + "m" + CSI + "2C" + CSI + "5;7mc" + CSI + "8md" + CSI +
                   "m" + "\r\n" + "\u4e2d" + CSI + "8m\u6587" + CSI + "m\u00e9\u20ac" + E + "(0q" + E + "(B" +
                   "q\u0336 x" + "\r\n" + "wxyz" + CSI + "3;2H" + CSI + "K")


def checksum_variants():
    out = []
    for v in range(32):
        q = "".join(CSI + "%d;1;%s*y" % (i + 1, r) for i, r in enumerate(("1;2;1;12", "1;1;4;20", "4;1;4;20")))
        out.append(("xtchecksum-%d" % v, CHECKSUM_SCREEN + CSI + "%d#y" % v + q))
    return [(n, s.encode("utf-8")) for n, s in out]


# ---------------------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        driver(sys.argv[2], sys.argv[3])
        return 0
    ap = argparse.ArgumentParser(description="compare the terminal's replies with a real xterm's")
    ap.add_argument("--replay", default=os.path.join(ROOT, "build", "kmscon-felis", "kmscon-felis-replay"))
    ap.add_argument("--size", default="80x24", help="COLSxROWS (default 80x24)")
    ap.add_argument("--only", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--case", action="append", default=[], help="a stream, escaped as in tests/conformance")
    ap.add_argument("--display", default=":99", help="the Xvfb display to start (default :99); with "
                    "XDIFF_DISPLAY set, an X server already running there is used instead")
    ap.add_argument("--xterm-args", default="", help="more xterm options, e.g. '-ti 220'")
    ap.add_argument("--batch", type=int, default=300, help="cases per xterm process")
    ap.add_argument("--json", help="write every difference to this file")
    ap.add_argument("--random", type=int, default=0, help="only N random mode histories (random_cases)")
    ap.add_argument("--crandom", type=int, default=0, help="only N random screens and DECRQCRA checksums of "
                    "random rectangles (checksum_cases; --size 20x8 makes them dense)")
    ap.add_argument("--srandom", type=int, default=0, help="only N random screens drawn with random pens and "
                    "the SGR stack, and XTREPORTSGR of random rectangles (sgr_report_cases)")
    ap.add_argument("--rect", action="store_true", help="with --srandom, the screens are also drawn with the "
                    "VT420 rectangle functions (DECCARA, DECRARA, DECSACE, DECCRA, DECFRA, DECERA, DECSERA)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    for tool in ("xterm", "Xvfb"):
        if not shutil.which(tool) and not (tool == "Xvfb" and os.environ.get("XDIFF_DISPLAY")):
            sys.exit("%s not found: apt-get install -y xterm xvfb" % tool)
    cols, rows = (int(x) for x in a.size.split("x"))
    cases = [("case-%d" % i, unescape(s)) for i, s in enumerate(a.case)] or (
        random_cases(a.random, a.seed) if a.random else
        checksum_cases(a.crandom, a.seed, cols, rows) if a.crandom else
        sgr_report_cases(a.srandom, a.seed, cols, rows, a.rect) if a.srandom else families(cols, rows))
    if a.only:
        cases = [c for c in cases if re.search(a.only, c[0])]

    diffs, lost = [], 0
    with Xvfb(a.display) as x, tempfile.TemporaryDirectory(prefix="xterm-replies-") as tmp:
        for at in range(0, len(cases), a.batch):
            chunk = cases[at:at + a.batch]
            xr = run_xterm(x.display, [c[1] for c in chunk], cols, rows, tmp, shlex.split(a.xterm_args))
            orr = run_ours(a.replay, [c[1] for c in chunk], cols, rows)
            for (name, data), xx, oo in zip(chunk, xr, orr):
                if xx is None:
                    print("LOST %s (xterm did not answer the tail)\n  in    %s" % (name, escape(data)))
                    lost += 1
                    continue
                if xx == oo:
                    continue
                d = {"name": name, "in": escape(data), "ours": escape(oo), "xterm": escape(xx)}
                diffs.append(d)
                print("DIFF %s\n  in    %s\n  ours  %s\n  xterm %s" % (name, d["in"], d["ours"], d["xterm"]))
    if a.json:
        json.dump(diffs, open(a.json, "w"), indent=1, ensure_ascii=False)
    print("%d cases, %d differ from xterm%s" % (len(cases), len(diffs), ", %d lost" % lost if lost else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
