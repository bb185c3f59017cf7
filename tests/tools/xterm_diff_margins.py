"""tests/tools/xterm_diff_margins.py: the margin cases of tests/tools/xterm-diff.py (a developer tool, not part
of the test suite): the hand-written families of the third round and the random cases of --mrandom.

They stress the cursor and the editing functions under left/right (DECSLRM) and top/bottom margins: origin
mode, a cursor left of or above the margins (where DECRC brings it back), tab stops, autowrap and reverse
wraparound at the margins, a pending wrap at the right margin, insert mode, and wide characters across the
margins (wide_fill's prelude). Apart from xterm-diff.py, which runs and compares the cases, to keep it under
~800 lines, as xterm_diff_attrs.py holds the attribute cases; the base tool passes its prelude (fill) and its
escaping of a stream (escape) in, as it does to xterm_diff_attrs.families.
"""

E = "\x1b"
CSI = E + "["


def wide_fill(cols, rows):
    """A prelude of wide characters: on odd rows (1-based) they start at column 1, on even ones at column 2
    after a letter, so that one of the two rows has a wide character across each margin; home at the end."""
    wides = "中文字ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ"
    s = ""
    for y in range(rows):
        row = "abcdefghijklmnopqrstuvwxyz"[y % 26] if y % 2 else ""
        w = len(row)
        for ch in wides[y % 3:] + wides:
            if w + 2 > cols:
                break
            row += ch
            w += 2
        if w < cols:
            row += "."
        s += CSI + "%d;1H" % (y + 1) + row
    return s + CSI + "H"


def families(cols, rows, fill, escape):
    """The third round's families: the cursor and the editing functions under left/right margins with origin
    mode and wide characters across the margins, a cursor left of or above the margins in origin mode (where
    DECRC brings it back), tab stops with margins and wide characters, autowrap and reverse wraparound at the
    margins, a pending wrap at the right margin, insert mode at the margins. fill(cols, rows) and
    escape(bytes) are the base tool's prelude and its escaping of a stream (for the cases' names)."""
    R, C = rows, cols
    out = []

    def add(name, s, filled=True):
        out.append((name, (fill(cols, rows) if filled else "") + s))

    def addw(name, s):
        out.append((name, wide_fill(cols, rows) + s))

    lm, rm = 3, max(4, min(C - 2, 9))  # 1-based margins, narrower than the screen on both sides
    tm, bm = 2, max(3, R - 1)
    lr = CSI + "?69h" + CSI + "%d;%ds" % (lm, rm)
    tb = CSI + "%d;%dr" % (tm, bm)
    both = tb + lr
    mid = (tm + bm) // 2
    # a cursor outside the margins in origin mode: DECSC in origin mode before the margins are set, DECRC
    # after (xterm's CursorRestore leaves a position above or left of the margins where it is)
    outside = {
        "left": CSI + "?69h" + CSI + "?6h" + CSI + "%d;1H" % mid + E + "7" + both + E + "8",
        "corner": CSI + "?69h" + CSI + "?6h" + E + "7" + both + E + "8",
        "above": CSI + "?69h" + CSI + "?6h" + CSI + "1;%dH" % (lm + 1) + E + "7" + both + E + "8",
    }
    moves = ["\r", "\b", "\t", "\n", "\x0b", E + "D", E + "M", E + "E", E + "6", E + "9", E + "H",
             CSI + "D", CSI + "3D", CSI + "C", CSI + "3C", CSI + "A", CSI + "B", CSI + "3B", CSI + "G", CSI + "2G",
             CSI + "d", CSI + "2d", CSI + "`", CSI + "a", CSI + "e", CSI + "H", CSI + "2;2H", CSI + "I", CSI + "Z",
             CSI + "2I", CSI + "s" + CSI + "u", E + "7" + E + "8", CSI + "?45h\b", CSI + "?45h" + CSI + "?1045h\b"]
    edits = ["@", "2@", "P", "2P", "X", "3X", "K", "1K", "2K", "J", "1J", "L", "M", "2L", "2M", "S", "T",
             "'}", "'~", " @", " A", "b"]
    for tag, pre in outside.items():
        for mv in moves:
            add("org-out-%s-%s" % (tag, escape(mv.encode())), pre + mv + "x")
            add("org-out-%s-%s-wide" % (tag, escape(mv.encode())), pre + mv + "中", filled=False)
        for op in edits:
            add("org-out-%s-edit-%s" % (tag, op.replace(" ", "SP")), pre + "x" + E + "8" + CSI + op + "y")
        add("org-out-%s-text" % tag, pre + "abcdefghijklmnopqrstuvwxyz")
        add("org-out-%s-wide-text" % tag, pre + "中文字ＡＢＣＤＥＦＧＨＩ", filled=False)
        add("org-out-%s-irm" % tag, pre + CSI + "4h" + "xy")
    # the same moves with the cursor outside the margins without origin mode, on all four sides
    for tag, pos in (("left", "%d;1" % mid), ("right", "%d;%d" % (mid, C)), ("above", "1;%d" % (lm + 1)),
                     ("below", "%d;%d" % (R, lm + 1)), ("rightpend", "%d;%d" % (mid, C - 1))):
        text = "ab" if tag == "rightpend" else ""
        for mv in moves:
            add("out-%s-%s" % (tag, escape(mv.encode())), both + CSI + pos + "H" + text + mv + "x")
    # the editing functions with wide characters across the margins, on both alignments
    for row in (mid, mid + 1):
        for col in sorted({lm - 1, lm, lm + 1, rm - 1, rm, rm + 1}):
            for op in edits + ["3@", "3P", "9@", "9P", "9X", "2S", "2T", "3'}", "3'~", "3 @", "3 A", "3b"]:
                addw("wm-%s-%d;%d" % (op.replace(" ", "SP"), row, col),
                     both + CSI + "%d;%dH" % (row, col) + ("x" if op.endswith("b") else "") + CSI + op + "v")
            for mv in (E + "6", E + "9", "\n", E + "M", E + "E", "\b", CSI + "4h" + "v", CSI + "4h" + "中",
                       "中", "中文", "xy中", "\t", CSI + "Z", CSI + "?45h" + "\b\b\bv"):
                addw("wm-%s-%d;%d" % (escape(mv.encode()), row, col), both + CSI + "%d;%dH" % (row, col) + mv +
                     "v")
        for col in (lm, rm):
            addw("wm-origin-%d;%d" % (row, col), both + CSI + "?6h" + CSI + "%d;%dH" % (row - 1, col - 2) + "中x")
    # the region's scrolling functions with wide characters across the margins
    for seq in ("\n", E + "D", E + "E", E + "M", CSI + "S", CSI + "T", CSI + "3S", CSI + "3T", CSI + "L",
                CSI + "M", CSI + "3L", CSI + "3M"):
        for row, rtag in ((bm, "bottom"), (tm, "top"), (mid, "mid")):
            addw("wscroll-%s-%s" % (escape(seq.encode()), rtag), both + CSI + "%d;%dH" % (row, lm + 1) + seq + "q")
            addw("wscroll-lr-%s-%s" % (escape(seq.encode()), rtag), lr + CSI + "%d;%dH" % (row, lm + 1) + seq +
                 "q")
    # a wide character at the right margin: it wraps to the left margin (autowrap) or is dropped / put back
    for col in (rm - 2, rm - 1, rm):
        for wrap in ("", CSI + "?7l"):
            for irm in ("", CSI + "4h"):
                tag = "%d%s%s" % (col, "-nowrap" if wrap else "", "-irm" if irm else "")
                add("wrm-%s" % tag, both + wrap + irm + CSI + "%d;%dH" % (mid, col) + "中文x")
                add("wrm-bottom-%s" % tag, both + wrap + irm + CSI + "%d;%dH" % (bm, col) + "中文字x")
                add("wrm-origin-%s" % tag, both + wrap + irm + CSI + "?6h" + CSI + "1;%dH" % (col - lm + 1) +
                    "中文x")
                add("wrm-rep-%s" % tag, both + wrap + irm + CSI + "%d;%dH" % (mid, col) + "中" + CSI + "3bx")
    add("wrm-width2", tb + CSI + "?69h" + CSI + "3;4s" + CSI + "%d;3H" % mid + "中文字x")
    add("wrm-width2-odd", tb + CSI + "?69h" + CSI + "3;4s" + CSI + "%d;4H" % mid + "中文x")
    add("wrm-width2-nowrap", tb + CSI + "?69h" + CSI + "3;4s" + CSI + "?7l" + CSI + "%d;4H" % mid + "中文x")
    # a pending wrap at the right margin, then each function
    pend = both + CSI + "%d;%dH" % (mid, rm - 1) + "ab"
    for mv in moves + [CSI + e for e in edits] + [CSI + "?69l", CSI + "?6h", CSI + "4;6s", CSI + "r",
                                                   CSI + "?7l", "中", CSI + "4hc"]:
        add("pend-rm-%s" % escape(mv.encode()), pend + mv + "x")
    pendb = both + CSI + "%d;%dH" % (bm, rm - 1) + "ab"
    for mv in ("x", "中", "\n", E + "D", E + "E", CSI + "S", CSI + "@", "\t"):
        add("pend-rm-bottom-%s" % escape(mv.encode()), pendb + mv + "y")
    # reverse wraparound at the left margin, with and without origin mode and wide characters
    for mode in ("45", "1045"):
        rw = CSI + "?%sh" % mode
        add("rw-%s-margin" % mode, both + rw + CSI + "%d;%dH" % (mid, rm - 1) + "abcd" + "\b\b\b\bx")
        add("rw-%s-margin-cub" % mode, both + rw + CSI + "%d;%dH" % (mid, rm - 1) + "abcd" + CSI + "4Dx")
        add("rw-%s-margin-origin" % mode, both + rw + CSI + "?6h" + CSI + "2;%dH" % (rm - lm) + "abcd" +
            "\b\b\b\bx")
        add("rw-%s-top" % mode, both + rw + CSI + "%d;%dH" % (tm, lm) + "\b\bx")
        add("rw-%s-top-origin" % mode, both + rw + CSI + "?6h" + "\b\bx")
        add("rw-%s-left-out" % mode, both + rw + CSI + "%d;1H" % mid + "\b\bx")
        add("rw-%s-wide" % mode, both + rw + CSI + "%d;%dH" % (mid, rm - 2) + "中文" + "\b\b\bx", filled=False)
        add("rw-%s-wide-skip" % mode, both + rw + CSI + "%d;%dH" % (mid, rm) + "中文" + "\b\b\bx", filled=False)
        add("rw-%s-pending" % mode, both + rw + CSI + "%d;%dH" % (mid, rm - 1) + "ab" + "\b\bx")
        add("rw-%s-nowrap" % mode, both + rw + CSI + "?7l" + CSI + "%d;%dH" % (mid, rm - 1) + "abcd" + "\b\b\bx")
        add("rw-%s-screen" % mode, rw + CSI + "%d;%dH" % (mid, C - 1) + "abcd" + "\b\b\b\b\bx")
        add("rw-%s-screen-cub9" % mode, rw + CSI + "%d;%dH" % (mid, C - 1) + "abcd" + CSI + "9Dx")
        add("rw-%s-ht-cbt" % mode, rw + CSI + "%d;%dH" % (mid, C - 1) + "abcd" + CSI + "Zx")
    # tab stops with wide characters and margins
    for pre, ptag in (("", "none"), (lr, "lr"), (lr + CSI + "?6h", "lr-origin"), (CSI + "?7l", "nowrap"),
                      (CSI + "?69h" + CSI + "9;%ds" % max(10, C - 3), "lr-far")):
        for row in (1, 2):
            addw("wtab-ht-%s-%d" % (ptag, row), pre + CSI + "%d;1H" % row + "\tx\ty\tz")
            addw("wtab-cbt-%s-%d" % (ptag, row), pre + CSI + "%d;%dH" % (row, C) + CSI + "Zx" + CSI + "2Zy")
            addw("wtab-cht-%s-%d" % (ptag, row), pre + CSI + "%d;2H" % row + CSI + "9Ix")
            addw("wtab-hts-%s-%d" % (ptag, row), pre + CSI + "3g" + CSI + "%d;4H" % row + E + "H" + CSI + "%d;7H"
                 % row + E + "H" + CSI + "%d;1H" % row + "\tx\ty\tz" + CSI + "3Zw")
        add("tab-pend-%s" % ptag, pre + CSI + "1;%dH" % (rm - 1) + "ab\tc")
        add("tab-pend-screen-%s" % ptag, pre + CSI + "1;%dH" % (C - 1) + "ab\tc" + CSI + "Zd")
        add("tab-none-%s" % ptag, pre + CSI + "3g" + CSI + "1;2H\tx" + CSI + "Zy")
        add("tab-hts-margin-%s" % ptag, pre + CSI + "3g" + CSI + "1;%dH" % rm + E + "H" + CSI + "1;%dH" % lm +
            E + "H" + CSI + "1;1H\tx\ty\tz" + CSI + "9Zw")
        add("tab-tbc-margin-%s" % ptag, pre + CSI + "1;9H" + CSI + "g" + CSI + "1;%dH" % lm + "\tx\ty")
        add("tab-irm-%s" % ptag, pre + CSI + "4h" + CSI + "1;2H\tx\ty")
        add("tab-cht0-%s" % ptag, pre + CSI + "1;2H" + CSI + "0Ix" + CSI + "0Zy")
    # insert mode at the margins with wide characters
    irm = CSI + "4h"
    for col in (lm - 1, lm, lm + 1, rm - 2, rm - 1, rm, rm + 1):
        for row in (mid, mid + 1):
            addw("wirm-%d;%d" % (row, col), both + irm + CSI + "%d;%dH" % (row, col) + "x")
            addw("wirm-wide-%d;%d" % (row, col), both + irm + CSI + "%d;%dH" % (row, col) + "中")
            addw("wirm-two-%d;%d" % (row, col), both + irm + CSI + "%d;%dH" % (row, col) + "xy中z")
    # origin mode: the functions that set a position, and the margins set while it is on
    om = both + CSI + "?6h"
    for seq in ("G", "99G", "d", "99d", "a", "99a", "e", "99e", "`", "99`", "9;9H", "99;99f", "A", "99A",
                "99B", "99C", "99D", "99E", "99F", "0;0H"):
        add("om-%s" % seq, om + CSI + "2;2H" + CSI + seq + "x")
    for seq in (CSI + "1;%dr" % R, CSI + "2;4s", CSI + "s", CSI + "?69l", CSI + "?69h", CSI + "!p", E + "#8",
                CSI + "?6l", CSI + "?1049h", CSI + "?1049l"):
        add("om-then-%s" % escape(seq.encode()), om + CSI + "3;3H" + seq + "x")
    return out


def random_case(rng, cols, rows, fill, extra=()):
    """A random stream concentrated on margins, origin mode, tabs, wrap and the editing functions, over a
    screen of narrow or wide characters (fill(cols, rows): the base tool's prelude); extra: more operations
    (the base tool's rectangle functions with --rect, its pens with --attrs)."""
    nums = ["", "0", "1", "2", "3", "4", str(rows - 1), str(rows), str(cols - 1), str(cols), "99"]

    def n():
        return rng.choice(nums)

    def text():
        return rng.choice(["x", "ab", "中", "a中", "中文字", "ＡＢ", "0123456789", "x中y"])

    ops = [
        lambda: CSI + "?69h" + CSI + n() + ";" + n() + "s",
        lambda: CSI + n() + ";" + n() + "r",
        lambda: CSI + n() + ";" + n() + rng.choice("Hf"),
        lambda: CSI + "?" + rng.choice(["6", "7", "45", "1045", "69"]) + rng.choice("hl"),
        lambda: CSI + "4" + rng.choice("hl"),
        # (not CSI 0 T: xterm's mouse-highlight reset, as in random_case)
        lambda: CSI + (n().lstrip("0") or "1") + rng.choice(["@", "P", "X", "L", "M", "S", "T", "'}", "'~", " @", " A",
                                                             "b", "I", "Z", "C", "D", "G", "a", "`", "d", "e", "E",
                                                             "F"]),
        lambda: CSI + rng.choice(["", "0", "3"]) + "g",
        lambda: rng.choice(["\b", "\r", "\n", "\t", "\b\b\b"]),
        lambda: E + rng.choice(["D", "M", "E", "7", "8", "6", "9", "H"]),
        lambda: CSI + rng.choice(["0", "1", "2", ""]) + rng.choice("JK"),
        text, text, text,
    ] + list(extra)
    r = rng.random()
    s = fill(cols, rows) if r < 0.4 else wide_fill(cols, rows) if r < 0.8 else ""
    for _ in range(rng.randint(3, 12)):
        s += rng.choice(ops)()
    return s.encode("utf-8")
