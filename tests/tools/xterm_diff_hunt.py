"""tests/tools/xterm_diff_hunt.py: the area-focused random cases of tests/tools/xterm-diff.py --hunt AREA (a
developer tool, not part of the test suite; session 50's hunt).

Each area draws its streams from a few operations concentrated on one part of the screen model that the
earlier random cases (--random, --mrandom, --rect, --marks) reach only now and then:
  charset  designations into G0..G3 (94- and 96-character sets), SI/SO, LS2/LS3, SS2/SS3 (each followed by an
           ASCII character: with a wide one xterm prints a stray character, a quirk not followed), printing
           at the right edge and the margins, DECSC/DECRC, DECSTR, REP and insert mode with them
  tabs     HTS, TBC 0 and 3, CHT, CBT, HT with left/right margins, origin mode, a pending wrap, wide
           characters and DECSC/DECRC (no DECST8C: xterm 379 lacks it)
  irm      insert mode with wide characters and combining marks at the edges and margins, REP, ICH/DCH,
           autowrap on and off
  rep      REP after wide characters, combining marks and characters a charset mapped, at the edges
  save     DECSC/DECRC of the charsets, origin mode, a pending wrap, autowrap and the pen, with margins
  nowrap   autowrap off with wide characters at the last column and the right margin, insert mode, REP
  scroll   top/bottom and left/right margins with IL, DL, SU, SD, IND, RI, NEL, LF, VT, FF with the cursor
           inside and outside them, origin mode, LNM (mode 20)
  parser   the screen functions' sequences malformed: C0 controls (CAN, SUB, ESC, BS, CR, LF, DEL) inside
           them, empty, huge and surplus parameters (no ':', a difference docs/conformance.md lists), stray
           private markers and intermediates; finals that reply, resize or switch xterm's modes (DECCOLM, VT52, DECSCL,
           window operations) are never drawn
  alt      the alternate screens (47, 1047, 1048, 1049) entered and left with the charsets, origin mode,
           margins, a pending wrap and DECSC/DECRC in between
  origin   origin mode with both margins set, changed and reset, the absolute and relative moves (CUP, HVP,
           CHA, HPA, VPA, HPR, VPR, CNL, CPL), DECSC/DECRC across the changes
The 96-character sets are designated with Latin-1 Supplemental (the finals xterm 379 leaves as they were
are in the charset family); UK (ESC ( A) and DEL are left out, the differences docs/conformance.md lists.
To shrink a case that differs: tests/tools/xterm-minimise.py. Session 50's runs and what they showed are in
docs/conformance.md ("How it is checked").
"""

E = "\x1b"
CSI = E + "["
AREAS = ("charset", "tabs", "irm", "rep", "save", "nowrap", "scroll", "parser", "alt", "origin")
MARKS = ("\u0336", "\u20dd")


def random_case(rng, area, cols, rows, fill):
    """One stream (bytes) of the area: an optional prelude (fill) and 3 to 14 of its operations.
    A case with charsets either writes ASCII alone or keeps G2 as ASCII and leaves SS2/SS3 out: xterm 379
    with -u8 reads UTF-8's bytes through GR, which holds G2 (docs/conformance.md), and SS2/SS3 after a
    wide character print it again there (a quirk not followed)."""
    ascii_only = area in ("charset", "rep", "save") and rng.random() < 0.5
    nums = ["", "0", "1", "2", "3", str(rows - 1), str(rows), str(cols - 1), str(cols), "99"]

    def n():
        return rng.choice(nums)

    def col():
        return rng.choice([1, 2, 3, cols // 2, cols - 3, cols - 2, cols - 1, cols])

    def row():
        return rng.choice([1, 2, 3, rows // 2, rows - 1, rows])

    def at():
        return CSI + "%d;%dH" % (row(), col())

    def edge():
        # the last columns of a row, or of the left/right margins
        return CSI + "%d;%dH" % (row(), rng.choice([cols - 2, cols - 1, cols, 5, 6, 7]))

    def ascii_text():
        return "".join(rng.choice("qxlkjmntuvw`afg_~#$@[\\]{|}AZaz09 ") for _ in range(rng.randint(1, 5)))

    def text():
        if ascii_only:
            return rng.choice(["x", "ab", "wxyz", "0123456789", ascii_text()])
        return rng.choice(["x", "ab", "wxyz", "中", "a中b", "ＡＢ", "0123456789", ascii_text()])

    def marked():
        if ascii_only:
            return rng.choice(["q", "ab", "x", "`"])
        return rng.choice(["q", "中", "ab", "Ａ", ""]) + rng.choice(MARKS) * rng.randint(1, 2)

    def wide():
        return rng.choice(["x", "ab", "q"] if ascii_only else ["中", "中文", "ＡＢ", "x中", "中x", "Ａ"])

    def margins():
        return rng.choice([
            CSI + n() + ";" + n() + "r",
            CSI + "?69h" + CSI + "%d;%ds" % (rng.randint(1, cols // 2), rng.randint(cols // 2, cols)),
            CSI + "?69h" + CSI + n() + ";" + n() + "s",
            CSI + "?69l", CSI + "r",
        ])

    def designate():
        g = rng.choice("()*+" if ascii_only else "()+")
        return rng.choice([E + g + rng.choice(["B", "0", "<", ">", "K", "%5", "%6"]),
                           E + rng.choice("-./" if ascii_only else "-/") + "A"])

    def shift():
        return rng.choice(["\x0e", "\x0f", E + "n", E + "o"])

    def single():
        return E + rng.choice("NO") + rng.choice("qxa#`}~j ") if ascii_only else rng.choice(["\x0e", "\x0f"])

    def tabs():
        return rng.choice([E + "H", CSI + "g", CSI + "0g", CSI + "3g", CSI + n() + "I", CSI + n() + "Z", "\t",
                           "\t\t", CSI + "%dG" % col() + E + "H"])

    def modes():
        return CSI + rng.choice(["?6", "?7", "4"]) + rng.choice("hl")

    def save():
        return rng.choice([E + "7", E + "8", E + "7", E + "8", CSI + "s", CSI + "u"])

    def pen():
        return CSI + rng.choice(["1", "4", "7", "31", "42", "0", "1;4;7", "22", "27", ""]) + "m"

    def rep():
        return CSI + rng.choice(["", "1", "2", "3", str(cols - 1), str(cols), "99"]) + "b"

    def edits():
        # (CSI 0 T is xterm's mouse-highlight reset, not SD: a quirk not followed)
        op = rng.choice(["@", "P", "X", "L", "M", "S", "T", "K", "1K", " @", " A", "'}", "'~"])
        return CSI + (rng.choice(["", "1", "3", "99"]) if op == "T" else n()) + op

    def moves():
        return rng.choice(["\r", "\b", "\n", E + "D", E + "M", E + "E", CSI + n() + rng.choice("ABCDGd`ae")])

    def malformed():
        """A screen function's sequence with a C0 control, a bad parameter or a stray byte in it."""
        final = rng.choice(["@", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "P", "S", "X",
                            "Z", "`", "a", "b", "d", "e", "f", "g", "r", "s", "m", "h", "l", "T"])
        params = [rng.choice(["", "0", "1", "2", "3", "5", "99", "65535", "65536", "4294967297",
                              "1;", "0;0"]) for _ in range(rng.randint(0, 3))]
        if final in "hl":
            params = [rng.choice(["4", "20", "?6", "?7", "?69", "?1047", "?1049", "6", "7", "?4", "?20"])]
        if final == "T" and (not params or params[0].strip("0") == ""):
            params = ["1"]  # (CSI 0 T and CSI T with 5 parameters are xterm's mouse highlight)
        body = ";".join(params)
        if final == "T":
            body = body.replace(";", "")
        # (no byte >= 0x80: it cancels a sequence here and is printed, a difference docs/conformance.md lists)
        inner = rng.choice(["", "", "\x18", "\x1a", "\x1b", "\b", "\r", "\n", "\x7f", "\x00", " ", "!",
                            "?", ">", "=", "<", "$", "\x0b", "\t", "\x07"])
        if inner == "?" and final in "mS":
            inner = ""  # (XTQMODKEYS, XTSMGRAPHICS: replies)
        pos = rng.randint(0, len(body))
        tail = body[pos:] + final
        if inner == "\x1b" and tail[:1] in ("Z", "P", "X", "]", "^", "_", "c"):
            inner = ""  # (DECID replies; a string would swallow the rest)
        return CSI + body[:pos] + inner + tail + rng.choice(["", "x", "中"])

    common = [at, edge, text, text, moves]  # (wide characters in all but the ascii_only cases)
    per = {
        "charset": [designate, designate, shift, shift, single, lambda: ascii_text(), lambda: ascii_text(),
                    save, rep, modes, lambda: CSI + "!p", margins],
        "tabs": [tabs, tabs, tabs, tabs, margins, margins, modes, save, lambda: CSI + "!p",
                 lambda: CSI + "%dC" % rng.randint(1, cols) + E + "H"],
        "irm": [lambda: CSI + "4h", lambda: CSI + "4h", marked, marked, rep, edits, modes, margins,
                lambda: CSI + "4h" + wide()],
        "rep": [marked, rep, rep, rep, designate, shift, modes, margins,
                lambda: wide() + rep()],
        "save": [save, save, save, designate, shift, modes, pen, margins, lambda: CSI + "!p",
                 lambda: CSI + "%d;%dH" % (row(), cols - 1) + "ab" + E + "7"],
        "nowrap": [lambda: CSI + "?7l", lambda: CSI + "?7l", lambda: CSI + "?7h", margins, rep,
                   lambda: CSI + "4" + rng.choice("hl"), edits,
                   lambda: CSI + "%d;%dH" % (row(), cols - rng.randint(0, 2)) + wide()],
        "scroll": [margins, margins, edits, edits, moves, moves, lambda: CSI + "?6" + rng.choice("hl"),
                   lambda: CSI + rng.choice(["", "2", "9"]) + rng.choice("LMST"), save,
                   lambda: CSI + "20" + rng.choice("hl"), lambda: rng.choice(["\n", "\x0b", "\x0c"])],
        "parser": [malformed, malformed, malformed, malformed, margins, modes],
        "alt": [lambda: CSI + "?" + rng.choice(["47", "1047", "1048", "1049"]) + rng.choice("hl"),
                lambda: CSI + "?" + rng.choice(["47", "1047", "1048", "1049"]) + rng.choice("hl"),
                save, save, designate, shift, modes, margins, lambda: CSI + "!p",
                lambda: CSI + "%d;%dH" % (row(), cols - 1) + "ab"],
        "origin": [margins, margins, lambda: CSI + "?6" + rng.choice("hl"), lambda: CSI + "?6h", save,
                   lambda: CSI + n() + ";" + n() + rng.choice("Hf"),
                   lambda: CSI + n() + rng.choice("GdaeEF`"), lambda: CSI + "?69" + rng.choice("hl")],
    }[area]
    ops = common + per
    s = fill(cols, rows) if rng.random() < 0.5 else ""
    for _ in range(rng.randint(3, 14)):
        s += rng.choice(ops)()
    return s.encode("utf-8")
