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
Session 51's areas (the count and the position of each edit drawn to land on wide characters' halves, the
margins' edges and a pending wrap):
  edit     ICH, DCH, IL, DL, ECH (and DECIC, DECDC) over wide characters and combining marks, at the top/bottom
           and left/right margins, with the cursor inside and outside them, at the last column with a wrap
           pending, insert mode and autowrap toggled
  erase    ED, EL, ECH, DECSED, DECSEL with a background (BCE: palette, 256 and direct colours, reverse
           video), DECSCA 0/1/2 and SPA/EPA protection, over wide characters, at a pending wrap, in origin
           mode and margins (with --attrs the erase style is compared)
  dbl      DECDWL/DECDHL/DECSWL rows with the cursor moves, erases, ICH/DCH, IL/DL, SU/SD, IND/RI, the
           top/bottom margins, tabs, DECSC/DECRC, REP, insert mode, origin mode, autowrap off; text one character a run (a NUL after each: xterm wraps a run at the width
           of the row it started on, a difference docs/conformance.md lists), DECALN left out (xterm's
           keeps the last row's size, listed too)
  sgr      SGR combinations (every attribute, the colour forms, the resets 22..29, 39, 49) with reverse
           video (SGR 7 and DECSCNM) and the erase, insert, delete and scroll functions (with --attrs)
  decrc    DECSC/DECRC and CSI s/u across charset designations and shifts, origin mode and margins set,
           changed and reset between the save and the restore, then moves, text, IND/RI and the editing
           functions from where the restore left the cursor (DECSTR left out: its pending-wrap quirk)
  history  what reaches the scrollback (run with --history): text wrapping and LF, IND, NEL, VT, FF at the
           bottom, SU, SD, IL, RI, REP past a screenful, with the top/bottom margins (from row 1 and not),
           the left/right margins, origin mode, the alternate screens, ED 0..3, DECALN, DECSTR, RIS,
           autowrap off (no DL: DL at the top row filling xterm's history now and then is a difference
           docs/conformance.md lists; no SU by a whole region's height, see xterm-diff.py's HISTORY; no
           double-width rows: the long runs of text meet xterm's run-width difference there); the case
           ends on the main screen (CSI ? 47 l), whose saved lines xterm prints
The 96-character sets are designated with Latin-1 Supplemental (the finals xterm 379 leaves as they were
are in the charset family); UK (ESC ( A) and DEL are left out, the differences docs/conformance.md lists.
To shrink a case that differs: tests/tools/xterm-minimise.py. Session 50's runs and what they showed are in
docs/conformance.md ("How it is checked").
"""

E = "\x1b"
CSI = E + "["
AREAS = ("charset", "tabs", "irm", "rep", "save", "nowrap", "scroll", "parser", "alt", "origin",
         "edit", "erase", "dbl", "sgr", "decrc", "history")
MARKS = ("\u0336", "\u20dd")


def random_case(rng, area, cols, rows, fill):
    """One stream (bytes) of the area: an optional prelude (fill) and 3 to 14 of its operations.
    A case with charsets either writes ASCII alone or keeps G2 as ASCII and leaves SS2/SS3 out: xterm 379
    with -u8 reads UTF-8's bytes through GR, which holds G2 (docs/conformance.md), and SS2/SS3 after a
    wide character print it again there (a quirk not followed)."""
    ascii_only = area in ("charset", "rep", "save", "decrc") and rng.random() < 0.5
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

    def count():
        return rng.choice(["", "1", "2", "3", str(cols // 2), str(cols - 1), str(cols), "99"])

    def half():
        # a column on a wide character's half in the usual texts, or the margins' and the screen's edges
        return CSI + "%d;%dH" % (row(), rng.choice([1, 2, 3, 4, 5, 6, 7, 8, cols - 3, cols - 2, cols - 1, cols]))

    def pending():
        return CSI + "%d;%dH" % (row(), cols - 1) + rng.choice(["ab", "中", "x中"] if not ascii_only else ["ab"])

    def wide_marked():
        base = rng.choice(["中文字", "a中b", "ＡＢＣ", "中x文", "abc"])
        if rng.random() < 0.4:
            base += rng.choice(MARKS)  # (right after a character: joined in both)
        return base

    def editop():
        return CSI + count() + rng.choice(["@", "P", "L", "M", "X", "'}", "'~"])

    def bg():
        return CSI + rng.choice(["41", "44", "48;5;21", "48;5;200", "48;2;10;200;30", "7", "41;7", "33;45",
                                 "0", "49", "27", "38;5;9;48;5;12", "1;44", "104", "4;42"]) + "m"

    def protect():
        return rng.choice([CSI + rng.choice("012") + '"q', CSI + rng.choice("012") + '"q', E + "V", E + "W"])

    def erase():
        return CSI + rng.choice(["", "?"]) + rng.choice(["", "0", "1", "2"]) + rng.choice("JK")

    def dbl_line():
        return E + "#" + rng.choice("34566")

    def one_by_one():
        # each character a run of its own: a NUL ends xterm's run (nothing here)
        t = rng.choice(["abcdefgh", "0123456789", "xy", "中文", "a中"])
        return "".join(ch + "\x00" for ch in t[:rng.randint(1, len(t))])

    def sgr():
        # (no 8: an invisible wide character overwrites one column in xterm, a quirk listed)
        parts = rng.sample(["1", "2", "3", "4", "5", "7", "9", "21", "22", "23", "24", "25", "27", "29",
                            "31", "39", "42", "49", "95", "103", "38;5;33", "48;5;52", "38;2;1;2;3",
                            "48;2;200;100;0", "0", ""], rng.randint(1, 4))
        return CSI + ";".join(parts) + "m"

    def scnm():
        return CSI + "?5" + rng.choice("hl")

    def scrollop():
        # (CSI 0 T is xterm's mouse-highlight reset, not SD: a quirk not followed)
        op = rng.choice("STLM")
        return CSI + (rng.choice(["", "1", "3", "99"]) if op == "T" else n()) + op

    def save_only():
        return rng.choice([E + "7", E + "8", E + "8", CSI + "s", CSI + "u"])

    def long_text():
        return rng.choice(["0123456789" * rng.randint(1, 5), "中文字" * rng.randint(1, 8), "ab\r\ncd\r\n",
                           "x\r\n" * rng.randint(1, 9)])

    def bottom():
        return CSI + "%d;%dH" % (rows - rng.randint(0, 1), rng.choice([1, 2, cols - 1, cols]))

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
        "edit": [editop, editop, editop, editop, half, half, pending, wide_marked, wide_marked, margins,
                 lambda: CSI + rng.choice(["4", "?7"]) + rng.choice("hl"), lambda: CSI + "?6" + rng.choice("hl")],
        "erase": [erase, erase, erase, lambda: CSI + count() + "X", bg, bg, protect, protect, half, pending,
                  wide_marked, margins, lambda: CSI + "?6" + rng.choice("hl"), editop],
        "dbl": [dbl_line, dbl_line, dbl_line, one_by_one, one_by_one, one_by_one, erase, editop, half,
                lambda: CSI + n() + rng.choice("ABCDGdaeHf`IZ"), scrollop,
                lambda: CSI + n() + ";" + n() + "r", lambda: "\t\x00", lambda: E + rng.choice("DME") + "\x00",
                save_only, tabs, lambda: rng.choice("xq中") + CSI + count() + "b" + "\x00",
                lambda: CSI + rng.choice(["4", "?6", "?7"]) + rng.choice("hl"), pen],
        "sgr": [sgr, sgr, sgr, bg, scnm, erase, erase, editop, wide_marked, lambda: CSI + count() + "X",
                scrollop, pending, margins],
        "decrc": [save_only, save_only, save_only, designate, designate, shift, lambda: CSI + "?6" + rng.choice("hl"),
                  margins, margins, lambda: CSI + n() + ";" + n() + rng.choice("Hf"),
                  lambda: CSI + n() + rng.choice("ABCD"), lambda: E + rng.choice("DME"), editop, pending,
                  lambda: "qxa" if ascii_only else rng.choice(["qxa", "中q"])],
        "history": [long_text, long_text, bottom, bottom, lambda: CSI + n() + "L",
                    lambda: CSI + rng.choice(["", "1"]) + "S",  # (a region is 2 rows at least: HISTORY)
                    lambda: CSI + rng.choice(["", "1", "3", "99"]) + "T", margins,
                    lambda: CSI + rng.choice(["1", "2", ""]) + ";" + rng.choice(["", str(rows - 1), str(rows), "3"]) + "r",
                    lambda: rng.choice(["\r\n", "\n", E + "D", E + "E", "\x0b", "\x0c", E + "M"]) * rng.randint(1, 4),
                    lambda: CSI + "?" + rng.choice(["47", "1047", "1049"]) + rng.choice("hl"), erase,
                    lambda: CSI + rng.choice(["3", "2", "0", "1"]) + "J", lambda: CSI + "?6" + rng.choice("hl"),
                    lambda: rng.choice(["x", "中"]) + CSI + rng.choice(["99", "300", "1000", "65535"]) + "b",
                    lambda: rng.choice([E + "#8", CSI + "!p", E + "c", CSI + "?7l", CSI + "?7h",
                                        E + "7", E + "8"])],
    }[area]
    if area == "dbl":
        common = [at, edge, moves]  # (no runs of text: see one_by_one)
    ops = common + per
    s = fill(cols, rows) if rng.random() < 0.5 else ""
    for _ in range(rng.randint(3, 14)):
        s += rng.choice(ops)()
    if area == "history":
        s += CSI + "?47l"  # (on the alternate screen xterm's print-everything leaves the saved lines out)
    return s.encode("utf-8")
