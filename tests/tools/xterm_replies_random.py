"""tests/tools/xterm_replies_random.py: the random cases of tests/tools/xterm-replies.py (a developer tool, not
part of the test suite): --random (random_cases: mode histories read back by DECRQM), --crandom (checksum_cases:
random screens and DECRQCRA of random rectangles) and --srandom (sgr_report_cases: random pens and the SGR stack
read back by XTREPORTSGR). Each returns a list of (name, bytes) cases, the same for the same seed; xterm-replies.py
runs them through xterm and kmscon-felis-replay and compares the replies. The hand-written families stay there.
"""
import random
from importlib import import_module

xdiff = import_module("xterm-diff")  # fill(): a screen of text; xterm-replies.py put tests/tools on sys.path

E = "\x1b"
CSI = E + "["


# Random mode histories (--random): the DEC private modes both terminals keep and restore alike, set, reset,
# saved and restored (XTSAVE/XTRESTORE), through DECSTR, DECSC/DECRC and the alternate screens, then all of
# them asked (DECRQM) with the cursor's place (CPR). Left out: the modes docs/conformance.md lists as answered
# apart (1036/1039, 1048), or restored apart (66, 67, 69 and the mouse encodings are set and reset only).
# Each starts with 1007 reset and every mode it may restore saved at power-on: xterm's RIS keeps both what
# XTSAVE saved and 1007 from the case before, where replay starts each case afresh.
RANDOM_MODES = [1, 5, 6, 7, 9, 12, 25, 45, 47, 1000, 1002, 1003, 1004, 1006, 1007, 1015, 1047, 1049, 2004]
RANDOM_NOSAVE = {1006, 1015, 1047, 1049, 47}
RANDOM_SETONLY = [66, 67, 69]


def random_cases(n, seed):
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        s = CSI + "?1007l" + CSI + "?" + ";".join(str(m) for m in RANDOM_MODES if m not in RANDOM_NOSAVE) + "s"
        s += CSI + "3;20r" if rnd.random() < 0.5 else ""
        for _ in range(rnd.randint(3, 12)):
            r = rnd.random()
            ms = rnd.sample(RANDOM_MODES + RANDOM_SETONLY, rnd.randint(1, 3))
            if r < 0.45:
                s += CSI + "?" + ";".join(map(str, ms)) + rnd.choice("hl")
            elif r < 0.6:
                ms = [m for m in ms if m not in RANDOM_NOSAVE and m not in RANDOM_SETONLY] or [1]
                s += CSI + "?" + ";".join(map(str, ms)) + rnd.choice("sr")
            elif r < 0.65:
                s += CSI + "!p"
            elif r < 0.75:
                s += E + rnd.choice("78")
            elif r < 0.85:
                s += CSI + "%d;%dH" % (rnd.randint(1, 24), rnd.randint(1, 80)) + rnd.choice(["", "ab", "中"])
            else:
                s += CSI + "%d%s" % (rnd.choice((4, 20)), rnd.choice("hl"))
        s += "".join(CSI + "?%d$p" % m for m in RANDOM_MODES + RANDOM_SETONLY)
        s += CSI + "4$p" + CSI + "20$p" + CSI + "6n"
        out.append(("random-%d" % i, s.encode("utf-8")))
    return out


# Random checksums (--crandom): a screen drawn by a random stream of the functions DECRQCRA's sum reads
# (narrow, Latin-1, Euro, DEC line-drawing and wide text, SGR 1/4/5/7/8/21, DECSCA, the erases the
# sum trims, DCH, IL/DL, SU/SD, SL, DECDC, the rectangle functions, insert mode, autowrap, both margins and
# origin mode, now and then XTCHECKSUM), then DECRQCRA of random rectangles, edges omitted, 0, past the
# screen or reversed. Left out, as differences docs/conformance.md lists ("Replies and DECRQCRA"): ECH, EL 1,
# ED 1, ICH, DECIC and SR (xterm sums the blanks they make as spaces), colours (xterm sums the blanks any erase
# makes with a colour in the pen as spaces), combining marks (xterm precomposes), a DECRQCRA without Pid or
# with fewer than six parameters, wide DECFRA characters. Still there: DECCRA's copies of blank cells (spaces
# in xterm's sum) and a wide character DECSCA protected, half overwritten (docs/conformance.md lists both).
def edge_numbers(seed, cols, rows):
    """A seeded random generator and a function drawing a rectangle's edge from it: omitted, 0, small, at the
    screen's last row or column or past it."""
    rnd = random.Random(seed)
    nums = ["", "0", "1", "2", "3", str(rows - 1), str(rows), str(cols - 1), str(cols), "99"]
    return rnd, lambda: rnd.choice(nums)


def checksum_cases(n, seed, cols, rows):
    rnd, num = edge_numbers(seed, cols, rows)

    def edges():
        return ";".join(num() for _ in range(4))

    def text():
        return rnd.choice(["x", "ab", "中", "a中b", "ＡＢ", "0123456789", "é€", "\u00a0\u00ff", "q",
                           E + "(0lqk" + E + "(B", E + ")0\x0eax\x0f", "  ", "中 文"])

    ops = [
        lambda: CSI + rnd.choice(["0", "1", "4", "5", "7", "8", "21", "22", "24", "27", "28", "1;7", "4;5",
                                  ""]) + "m",
        lambda: CSI + num() + ";" + num() + rnd.choice("Hf"),
        lambda: CSI + num() + ";" + num() + "r",
        lambda: CSI + "?69h" + CSI + num() + ";" + num() + "s",
        lambda: CSI + "?" + rnd.choice(["6", "7", "69"]) + rnd.choice("hl"),
        lambda: CSI + "4" + rnd.choice("hl"),
        lambda: CSI + rnd.choice(["", "0", "2", "?", "?0", "?2"]) + rnd.choice("JK"),
        lambda: CSI + num() + rnd.choice(["P", "L", "M", "S", "T", " @", "'~", "b", "C", "D", "A", "B"]),
        lambda: CSI + rnd.choice("012") + '"q',
        lambda: CSI + rnd.choice(["88", "32", "233", "8364", "113", ""]) + ";" + edges() + "$x",
        lambda: CSI + edges() + rnd.choice(["$z", "${"]),
        lambda: CSI + edges() + ";1;" + num() + ";" + num() + "$v",
        lambda: CSI + edges() + ";" + rnd.choice(["0", "1", "4", "5", "7", "1;7", "22", "24", "27"]) +
        rnd.choice(["$r", "$t"]),
        lambda: CSI + rnd.choice(["", "1", "2"]) + "*x",
        lambda: rnd.choice(["\r", "\n", "\b", "\t", E + "D", E + "M", E + "7", E + "8"]),
        text, text, text, text,
    ]
    out = []
    for i in range(n):
        s = xdiff.fill(cols, rows) if rnd.random() < 0.5 else ""
        if rnd.random() < 0.15:
            s += CSI + "%d#y" % rnd.randint(0, 31)
        for _ in range(rnd.randint(2, 12)):
            s += rnd.choice(ops)()
        for _ in range(rnd.randint(1, 3)):
            s += CSI + "%d;%s;%s*y" % (rnd.randint(1, 99), rnd.choice(["", "0", "1", "2"]), edges())
        out.append(("crandom-%d-%d" % (seed, i), s.encode("utf-8")))
    return out


# Random SGR reports (--srandom, session 48): a screen drawn by a random stream of pens (every attribute
# xterm 379 has, palette, 256-colour and direct colours), XTPUSHSGR/XTPOPSGR, DECSC/DECRC, DECSTR, the
# alternate screens, erases and the editing functions, text (narrow and wide) and moves, then XTREPORTSGR
# of random rectangles, edges omitted, 0, past the screen or reversed, now and then in origin mode. Left
# out or worked around, as differences docs/conformance.md lists: SGR 30-37 with bold (xterm stores 30-37 as
# 90-97 when bold is on; 38;5;N is drawn instead), invisible (8), single and double underline at once (one
# underline here: 4 and 21 come after 24, and pushes name neither), underline styles, overline, the erases
# with a foreground in the pen (xterm keeps it in the blanks: SGR 39 before each erase and DECSET 1049),
# DECSTR's dim, strike-through and double underline (xterm keeps them: SGR 22;24;29 before DECSTR). Left in:
# DECRC followed by SGR 7 or 27, or by a push and pop of the background, which brings back in xterm the last
# background set before the DECRC (a few cases in a run; docs/conformance.md).
def sgr_report_cases(n, seed, cols, rows, rect=False):
    rnd, num = edge_numbers(seed, cols, rows)

    def pen():
        codes = ["0", "1", "2", "3", "24;4", "5", "7", "9", "24;21", "22", "23", "24", "25", "27", "29", "49",
                 "92", "105", "38;5;%d" % rnd.randint(0, 255), "48;5;%d" % rnd.randint(0, 255),
                 "38;2;%d;%d;%d" % (rnd.randint(0, 255), rnd.randint(0, 255), rnd.randint(0, 255)),
                 "48;2;%d;%d;%d" % (rnd.randint(0, 255), rnd.randint(0, 255), rnd.randint(0, 255)),
                 "4%d" % rnd.randint(0, 7), ""]
        return CSI + ";".join(rnd.choice(codes) for _ in range(rnd.randint(1, 3))) + "m"

    def erase():
        # with the foreground cleared first: xterm keeps a foreground in the blanks it makes
        return CSI + "39m" + CSI + rnd.choice(["J", "1J", "2J", "K", "1K", "2K", "X", "3X", "P", "2P", "@",
                                                "L", "M", "S", "T", "2 @", "'}", "'~"])

    ops = [pen, pen, pen,
           lambda: CSI + rnd.choice(["", "", "1", "2", "3", "5", "7", "9", "30", "31", "1;30;31",
                                     "10;11", "0", ";"]) + rnd.choice(["#{", "#p"]),
           lambda: CSI + rnd.choice(["#}", "#q"]),
           lambda: CSI + num() + ";" + num() + rnd.choice("Hf"),
           lambda: rnd.choice([E + "7", E + "8", CSI + "22;24;29m" + CSI + "!p", CSI + "39m" + CSI + "?1049h",
                               CSI + "?1049l", CSI + "?47h",
                               CSI + "?47l", "\r", "\n", "\b", "\t"]),
           erase,
           lambda: rnd.choice(["x", "ab", "中", "a中b", "0123456789", "  ", "ＡＢ"]),
           lambda: rnd.choice(["x", "ab", "wxyz", "q"])]
    if rect:
        # the VT420 rectangle functions that change or copy renditions (with SGR 39 first: xterm's fills keep a
        # foreground as its erases do)
        ops += [lambda: CSI + ";".join(num() for _ in range(4)) + ";" + rnd.choice(["0", "1", "4", "5", "7",
                                                                                   "1;7", "22", "24", "25", "27",
                                                                                   "8", "31", "0;4"]) +
                rnd.choice(["$r", "$t"]),
                lambda: CSI + rnd.choice(["", "1", "2"]) + "*x",
                lambda: CSI + ";".join(num() for _ in range(4)) + ";1;" + num() + ";" + num() + "$v",
                lambda: CSI + "39m" + CSI + rnd.choice(["88;", "120;", ""]) + ";".join(num() for _ in range(4)) +
                rnd.choice(["$x", "$z", "${"])]
    out = []
    for i in range(n):
        s = ""
        for _ in range(rnd.randint(3, 16)):
            s += rnd.choice(ops)()
        if rnd.random() < 0.15:
            s += CSI + "%s;%sr" % (num(), num()) + CSI + "?6h"
        for _ in range(rnd.randint(1, 4)):
            s += CSI + ";".join(num() for _ in range(4)) + "#|"
        # the pen, on a cell of its own, as the stack left it
        s += CSI + "?6l" + CSI + "r" + CSI + "%d;%dHZ" % (rows, cols) + CSI + "%d;%d;%d;%d#|" % (rows, cols, rows,
                                                                                               cols)
        out.append(("srandom-%d-%d" % (seed, i), s.encode("utf-8")))
    return out
