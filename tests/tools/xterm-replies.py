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
XTREPORTSGR and the kitty keyboard query (CSI ? u).

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
    a = ap.parse_args()
    for tool in ("xterm", "Xvfb"):
        if not shutil.which(tool) and not (tool == "Xvfb" and os.environ.get("XDIFF_DISPLAY")):
            sys.exit("%s not found: apt-get install -y xterm xvfb" % tool)
    cols, rows = (int(x) for x in a.size.split("x"))
    cases = [("case-%d" % i, unescape(s)) for i, s in enumerate(a.case)] or families(cols, rows)
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
