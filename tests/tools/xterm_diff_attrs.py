"""tests/tools/xterm_diff_attrs.py: the attribute and colour comparison of tests/tools/xterm-diff.py --attrs
(a developer tool, not part of the test suite).

With the resource printAttributes: 2, xterm 379's media copy puts SGR sequences in the printed screen. What
it prints, found by trying (xterm 379, -u8):
- each row that holds a drawn cell starts with ESC # 5 ESC [ 0 m and ends with ESC [ 0 m CR LF; a row
  without one is a bare CR LF. Cells right of the last drawn one (erased, never written) are not printed at
  all, so their colours are invisible to the print: the tool writes a sentinel '|' in every row's last
  column after the case (sentinel()), which makes every other cell printable and that column meaningless.
  A wide character in the last two columns loses its right half to the sentinel, and xterm keeps its
  attributes on the blank it leaves (see compare()), so that column is only weak there.
- before a cell it prints an absolute SGR, ESC [ 0 ; ... m, when the cell has any attribute or its colours
  differ from the last SGR's; a cell with no attribute and the same colours gets none (so a plain cell after
  a bold one reads back as plain only by that rule: `read_row` applies it). A cell whose character xterm
  stores as 0 gets no SGR whatever it holds, and prints as a blank: the lines IL, DL and scrolling inside
  margins bring in (ScrnClearLines). Such a blank cannot be told from a plain
  one, so a difference on a blank printed without an SGR before it is only "weak" (counted apart, shown
  with --weak): e.g. xterm does fill IL's lines with the background (BCE), its print cannot show it.
- the foreground of an erased cell: xterm keeps the pen's foreground there (it shows nowhere); a blank's
  foreground is compared only where it shows (reverse, underline, strike-through).
- attributes: 1 bold, 2 dim, 3 italic, 4 underline, 21 double underline, 5 blink, 7 reverse, 9 strike.
  Overline (53) is not printed (xterm 379 lacks it); invisible (8) is not printed either: an invisible
  character prints as a blank with its other attributes.
- colours: 30-37/40-47 for 0-7, 90-97/100-107 for 8-15 (also when set by 38;5;N), 38:5:N/48:5:N for
  16-255, 38:2::R:G:B/48:2::R:G:B for direct colour. With bold (boldColors), SGR 30-37 store 8-15, and
  the print takes 8 off any bold foreground above 8, palette or direct: bold 31 and bold 91 print as 1,
  bold 38;5;100 as 92, bold 38;2;255;128;1 as ff7ff9, bold 30 as 8 (but bold 38;5;0 as 0).
- underline styles (4:3 and the like) are not taken by xterm 379 (4:3 reads as something else), so no case
  uses them.
The model compared is therefore, per cell: the attributes {B D I U K R S} (U for any underline), the
foreground and background as "d", "i:N" or "r:rrggbb", a bold foreground of ours taken as xterm prints it
(bold_fg), and our overline and invisible attributes dropped (our invisible characters compared as blanks).

What it finds besides (docs/conformance.md lists them too):
- xterm 379's quirks, not followed: DECSTR leaves dim, strike-through and double underline in the pen;
  DECRC and then SGR 7 or 27 (or an XTPUSHSGR and XTPOPSGR of the background) brings back the last
  background set before the DECRC; a truncated 38;5 or 38;2;R;G
  reads the missing values as 0 (we drop the colour); after DECALN the pen keeps bold's bright foreground
  (bold 31 then ESC # 8 writes in 91), and a direct colour (foreground or background) becomes a palette
  index; an invisible wide character overwrites one column only (the old right half stays, text and
  attributes); a narrow character written in the last column over a wide character's right half leaves
  the wide character's attributes and colours on the blank in the column before (mid-row the blank takes
  the erase style).
- the VT420 rectangle functions: a fill (DECFRA, DECERA) with a pen that has a colour over cells that have
  one: xterm keeps the cells' colour flags with the pen's colour pair, and prints the pen's default colour
  as -1 (3-1, 4-1), which it shows as its default colour: read here as the default, the cells compare equal.
"""
import re
import unicodedata

E = "\x1b"
CSI = E + "["

PRINTED = "BDIUKRS"


def sentinel(cols, rows):
    """After the case: leave origin mode, insert mode, the margins and a graphics charset, then write a plain
    '|' in every row's last column, so that xterm prints each row's cells up to there."""
    s = CSI + "?6l" + CSI + "4l" + CSI + "?69l" + CSI + "r" + E + "(B\x0f" + CSI + "0m"
    return (s + "".join(CSI + "%d;%dH|" % (y + 1, cols) for y in range(rows))).encode()


def _colour(parts, i):
    """The colour of 38/48 at parts[i] in xterm's printed form (38:5:N, 38:2::R:G:B)."""
    sub = parts[i].split(":")
    if len(sub) >= 3 and sub[1] == "5":
        return "i:%d" % int(sub[2])
    if len(sub) >= 6 and sub[1] == "2":
        return "r:%02x%02x%02x" % tuple(int(v) for v in sub[-3:])
    raise ValueError("unexpected colour form %r" % parts[i])


def parse_sgr(params):
    """The state one of xterm's printed SGRs (always starting from 0) gives: (attrs, fg, bg)."""
    attrs, fg, bg = set(), "d", "d"
    parts = params.split(";") if params else ["0"]
    for i, p in enumerate(parts):
        if ":" in p:
            if p.startswith("38"):
                fg = _colour(parts, i)
            elif p.startswith("48"):
                bg = _colour(parts, i)
            continue
        if p in ("3-1", "4-1"):
            # xterm's colour -1: its default, printed so where a fill (DECFRA, DECERA) gave a cell the
            # colour flag of the cell's old colour with the pen's default colour (xterm's ScrnFillRectangle
            # keeps the flags and takes the pen's pair): shown in the default colour
            if p[0] == "3":
                fg = "d"
            else:
                bg = "d"
            continue
        n = int(p or "0")
        if n == 0:
            attrs, fg, bg = set(), "d", "d"
        elif n in (1, 2, 3, 5, 7, 9):
            attrs.add({1: "B", 2: "D", 3: "I", 5: "K", 7: "R", 9: "S"}[n])
        elif n in (4, 21):
            attrs.add("U")
        elif n == 8:
            pass
        elif 30 <= n <= 37:
            fg = "i:%d" % (n - 30)
        elif 90 <= n <= 97:
            fg = "i:%d" % (n - 82)
        elif 40 <= n <= 47:
            bg = "i:%d" % (n - 40)
        elif 100 <= n <= 107:
            bg = "i:%d" % (n - 92)
        else:
            raise ValueError("unexpected SGR %d in %r" % (n, params))
    return frozenset(attrs), fg, bg


def read_row(line):
    """One printed row (without its CR LF): its text (one character a column, U+FFFF for the right half of a
    wide character, as xterm prints it), each column's (attrs, fg, bg) and the columns that are weak (a
    blank without an SGR before it)."""
    text, cells, weak = [], [], set()
    # every printed row starts so (its line attribute and a reset), before its first cell's own SGR
    if line.startswith("\x1b#5\x1b[0m"):
        line = line[7:]
    state = (frozenset(), "d", "d")
    fresh = False
    for m in re.finditer(r"\x1b#\d|\x1b\[([0-9;:-]*)m|.", line, re.S):
        tok = m.group(0)
        if tok.startswith("\x1b#"):
            continue
        if tok.startswith("\x1b["):
            state, fresh = parse_sgr(m.group(1)), True
            continue
        if tok == "\r":
            continue
        if text and unicodedata.category(tok) in ("Mn", "Me"):
            # a combining mark is printed after its cell's character and takes no column of its own
            text[-1] += tok
            continue
        if tok == " " and not fresh:
            weak.add(len(cells))
        text.append(tok)
        # no SGR before it: a cell without attributes, in the last SGR's colours
        cells.append(state if fresh else (frozenset(), state[1], state[2]))
        fresh = False
    return "".join(text), (cells, weak)


def bold_fg(fg):
    """A bold cell's foreground as xterm prints it (boldColors): 8 off above 8; 0 and 8 both read as 0."""
    kind, _, v = fg.partition(":")
    if kind == "d":
        return fg
    n = int(v, 16 if kind == "r" else 10)
    if kind == "i" and 1 <= n <= 7:
        n += 8
    if n > 8:
        n -= 8
    if kind == "i" and n == 8:
        n = 0
    return "%s:%s" % (kind, ("%06x" if kind == "r" else "%d") % n)


def our_cell(cell):
    """A vtproto cell [text, width, attrs, fg, bg] in the printed model."""
    attrs = frozenset(a for a in cell[2] if a in PRINTED)
    fg = bold_fg(cell[3]) if "B" in attrs else cell[3]
    return attrs, fg, cell[4]


def our_text(cell):
    """The cell's text as xterm prints it: an invisible character is a blank."""
    if "H" in cell[2]:
        return " " * cell[1]
    return cell[0]


def show(c):
    return "%s fg=%s bg=%s" % ("".join(sorted(c[0])) or "-", c[1], c[2])


def compare(ours, xterm, cols, edge_wide=False):
    """Divergent runs of one row: [(first col, last col, ours, xterm, weak)], for the columns xterm printed
    except the sentinel's. edge_wide: the row's last two columns held a wide character before the sentinel.
    The sentinel's '|' then lands on its right half, and xterm 379 keeps the wide character's attributes
    and colours on the blank left in the last-but-one column (its DamagedCells() finds nothing to clear
    for a write in the last column; one column further left it clears the whole character, as we do): that
    column then tells nothing about the case and only counts as weak."""
    cells, weak = xterm
    if edge_wide:
        weak = weak | {cols - 2}
    runs = []
    for x in range(min(len(cells), cols - 1)):
        o, xc = our_cell(ours[x]), cells[x]
        if "B" in xc[0] and xc[1] == "i:8":
            xc = (xc[0], "i:0", xc[2])
        if our_text(ours[x]).strip() == "" and not (o[0] | xc[0]) & set("RUS"):
            o, xc = (o[0], "-", o[2]), (xc[0], "-", xc[2])
        if o == xc:
            continue
        w = x in weak
        if runs and runs[-1][1] == x - 1 and runs[-1][2:] == [o, xc, w]:
            runs[-1][1] = x
        else:
            runs.append([x, x, o, xc, w])
    return runs


def classes(o, x, weak):
    """What differs between two cells, abstracted for the summary: attributes by letter, colours by kind."""
    out = []
    for a in sorted(o[0] - x[0]):
        out.append("attr %s: ours only" % a)
    for a in sorted(x[0] - o[0]):
        out.append("attr %s: xterm only" % a)
    for i, name in ((1, "fg"), (2, "bg")):
        if o[i] != x[i]:
            out.append("%s: ours %s xterm %s" % (name, o[i][0], x[i][0]))
    return ["weak " + k for k in out] if weak else out


# ---------------------------------------------------------------------------------------------------------
# Cases.


# SGRs one by one and in combinations (the families' sgr-*, and --pens' random cases)
SGRS = [str(n) for n in list(range(0, 10)) + [21, 22, 23, 24, 25, 27, 28, 29, 39, 49, 53, 55]]
SGRS += [str(n) for n in list(range(30, 38)) + list(range(40, 48)) + list(range(90, 98)) + list(range(100, 108))]
for _n in (0, 1, 7, 8, 9, 15, 16, 100, 231, 232, 255, 256):
    SGRS += ["38;5;%d" % _n, "48;5;%d" % _n]
SGRS += ["38;2;0;0;0", "38;2;255;128;1", "48;2;10;20;30", "48;2;255;255;255", "38:2::1:2:3", "48:2::4:5:6",
         "38:2:1:2:3", "38:5:100", "48:5:200", "38;2;300;1;1", "38;5", "38;2;1;2", "48;5", "38;3;1",
         "38;5;1;1", "48;2;1;2;3;4", "1;;4", "1;0;4", ";1", "1;22", "2;22", "1;2;22", "4;24", "21;24",
         "7;27", "8;28", "9;29", "5;25", "3;23", "1;2", "31;39", "41;49", "7;31;42", "1;31", "1;91",
         "1;38;5;9", "2;31", "38;5;9;1", "1;97;107", "22;91", "7;38;2;1;2;3", "1;4;5;7;9;31;42;0;32",
         "38;5;1;48;5;2", "6", "26", "51", "60"]


def families(cols, rows, fill):
    """Cases that stress attributes and colours: name, text. fill(cols, rows) is the base tool's prelude."""
    R, C = rows, cols
    out = []

    def add(name, s, filled=True):
        out.append((name, (fill(cols, rows) if filled else "") + s))

    # SGR one by one and in combinations, from the default pen and from a pen with everything set
    full = CSI + "1;2;3;4;5;7;9;31;42m"
    for s in SGRS:
        add("sgr-%s" % s, "a" + CSI + s + "mbc" + CSI + "mde", filled=False)
        add("sgr-on-full-%s" % s, full + "a" + CSI + s + "mbc" + CSI + "mde", filled=False)
    # every palette index, foreground and background, and some direct colours
    for base in range(0, 256, 32):
        add("palette-fg-%d" % base, "".join(CSI + "38;5;%dm%s" % (n, "x") for n in range(base, base + 32)),
            filled=False)
        add("palette-bg-%d" % base, "".join(CSI + "48;5;%dm%s" % (n, "x") for n in range(base, base + 32)),
            filled=False)
        add("palette-bold-%d" % base, CSI + "1m" + "".join(CSI + "38;5;%dmx" % n for n in range(base, base + 32)),
            filled=False)
    add("direct", "".join(CSI + "38;2;%d;%d;%dm" % (v, 255 - v, v // 2) + CSI + "48;2;%d;%d;%dmx" % (v // 3, v, 7)
                          for v in range(0, 256, 17)), filled=False)
    # erasing and the other functions that make blanks, with a pen (BCE: the blanks take the background)
    pens = [("bg", CSI + "44m"), ("bg256", CSI + "48;5;100m"), ("bgrgb", CSI + "48;2;10;20;30m"),
            ("fg", CSI + "31m"), ("all", CSI + "1;4;5;7;9;31;42m"), ("rev", CSI + "7m"),
            ("revbg", CSI + "7;44m")]
    ops = ["J", "1J", "2J", "K", "1K", "2K", "X", "3X", "99X", "@", "3@", "99@", "P", "3P", "99P", "L", "3L",
           "M", "3M", "S", "2S", "T", "2T", " @", " A", "'}", "'~", "?J", "?K", "?2K", "2;2;4;6$z",
           "2;2;4;6${", "65;2;2;4;6$x", "1;1;2;5;1;4;3;1$v"]
    where = [("", CSI + "3;4H"), ("tb", CSI + "2;5r" + CSI + "3;4H"),
             ("lr", CSI + "2;5r" + CSI + "?69h" + CSI + "3;8s" + CSI + "3;4H")]
    for pname, pen in pens:
        for op in ops:
            for wname, pos in where:
                if wname and pname not in ("bg", "all"):
                    continue
                add("bce-%s-%s%s" % (pname, op.replace(" ", "SP"), "-" + wname if wname else ""),
                    pos + pen + CSI + op + CSI + "m")
        for name, s in (("lf-bottom", CSI + "%d;1H\n" % R), ("ind-bottom", CSI + "%d;1H" % R + E + "D"),
                        ("nel-bottom", CSI + "%d;1H" % R + E + "E"), ("ri-top", CSI + "1;1H" + E + "M"),
                        ("lf-tb", CSI + "2;5r" + CSI + "5;1H\n"), ("ri-tb", CSI + "2;5r" + CSI + "2;1H" + E + "M"),
                        ("lf-lr", CSI + "2;5r" + CSI + "?69h" + CSI + "3;8s" + CSI + "5;4H\n"),
                        ("wrap-scroll", CSI + "%d;%dHxyz" % (R, C - 1)),
                        ("decaln", E + "#8"), ("ris", E + "c"), ("decstr", CSI + "!p"),
                        ("alt1049", CSI + "?1049h"), ("alt47", CSI + "?47h" + CSI + "2J"),
                        ("alt1047-leave", CSI + "?1047h" + CSI + "2J" + CSI + "?1047l")):
            add("bce-%s-%s" % (pname, name), pen + s)
    # erasing wide characters, and writing over their halves, with a pen
    for op in ("X", "2X", "K", "1K", "@", "P", "2P", "L"):
        for col in ("2", "3"):
            add("wide-bce-%s-col%s" % (op, col), "中文字" + CSI + "44m" + CSI + "1;" + col + "H" + CSI + op +
                CSI + "m", filled=False)
    for col in ("1", "2", "3"):
        add("wide-overwrite-col%s" % col, CSI + "1;31m" + "中文字" + CSI + "0;44m" + CSI + "1;" + col + "Hx",
            filled=False)
    add("wide-attrs", CSI + "1;4;7;38;5;100;48;2;1;2;3m" + "中a文", filled=False)
    add("wide-wrap-pad", CSI + "44m" + CSI + "1;%dH" % C + "中", filled=False)
    add("wide-nowrap-pad", CSI + "44m" + CSI + "?7l" + CSI + "1;%dH" % (C - 2) + "中文", filled=False)
    # DECSC/DECRC and the other saves of the pen
    pen = CSI + "1;4;31;48;5;100m"
    for name, s in (("decsc", pen + E + "7" + CSI + "0;44m" + "x" + E + "8" + "y"),
                    ("decrc-nothing-saved", pen + E + "8" + "y"),
                    ("decsc-decstr", pen + E + "7" + CSI + "!p" + E + "8" + "y"),
                    ("decsc-ris", pen + E + "7" + E + "c" + E + "8" + "y"),
                    ("decsc-sgr0", pen + E + "7" + CSI + "m" + "x" + E + "8" + "y" + CSI + "m" + "z"),
                    ("csi-s-u", pen + CSI + "s" + CSI + "m" + "x" + CSI + "u" + "y"),
                    ("1048", pen + CSI + "?1048h" + CSI + "m" + "x" + CSI + "?1048l" + "y"),
                    ("1049", pen + CSI + "?1049h" + CSI + "m" + "x" + CSI + "?1049l" + "y"),
                    ("1049-in", CSI + "?1049h" + pen + "x" + CSI + "?1049l" + "y"),
                    ("decsc-alt", pen + E + "7" + CSI + "?1047h" + CSI + "m" + E + "8" + "x" + CSI + "?1047l"),
                    ("decsc-twice", pen + E + "7" + CSI + "0;7m" + E + "7" + CSI + "m" + E + "8" + "y")):
        add("save-%s" % name, CSI + "3;3H" + s, filled=False)
    # the pen through writing: wrap, insert mode, REP, tabs, charsets, backspace and CR
    add("wrap-pen", CSI + "44m" + CSI + "1;%dH" % (C - 1) + "abcd", filled=False)
    add("wrap-sgr-between", CSI + "1;%dH" % C + "a" + CSI + "44m" + "b", filled=False)
    add("irm-pen", CSI + "44m" + CSI + "4h" + CSI + "1;3H" + "xy")
    add("irm-pen-margins", CSI + "44m" + CSI + "4h" + CSI + "?69h" + CSI + "2;8s" + CSI + "1;3H" + "xy")
    add("rep-pen", "x" + CSI + "1;44m" + CSI + "3b", filled=False)
    add("rep-pen2", CSI + "1mx" + CSI + "m" + CSI + "3b", filled=False)
    add("rep-pen-wide", CSI + "7m" + "中" + CSI + "0;41m" + CSI + "3b", filled=False)
    add("rep-pen-wrap", CSI + "1;%dH" % (C - 1) + CSI + "42m" + "x" + CSI + "4b", filled=False)
    add("tab-pen", "ab" + CSI + "44m" + "\tx" + CSI + "m\ty")
    add("tab-pen-empty", CSI + "44m" + "\tx", filled=False)
    add("cub-pen", CSI + "44m" + CSI + "5Cx" + CSI + "3Dy", filled=False)
    add("charset-pen", CSI + "1;32m" + E + "(0" + "lqk" + E + "(B" + "x", filled=False)
    add("invisible", CSI + "8mabc" + CSI + "28mdef" + CSI + "8;1;44mgh", filled=False)
    add("invisible-wide", CSI + "8m中" + CSI + "m文", filled=False)
    add("invisible-erase", "abc" + CSI + "8m" + CSI + "1;1H" + CSI + "2X", filled=False)
    add("reverse-erase", CSI + "7mabc" + CSI + "1;2H" + CSI + "K", filled=False)
    add("reverse-decscnm", CSI + "7mab" + CSI + "?5h" + CSI + "27mcd", filled=False)
    # DECCARA and DECRARA (VT420 attribute rectangles), in both extents
    for ext in ("", CSI + "2*x"):
        for ps in ("1", "4", "5", "7", "8", "0", "1;4;5;7", "22", "31", "1;0"):
            add("deccara-%s%s" % (ps, "-rect" if ext else ""), ext + CSI + "2;3;4;8;" + ps + "$r")
        add("decrara-%s" % ("rect" if ext else "stream"), ext + CSI + "1;7m" + CSI + "2;3;4;8;7$t")
    # XTPUSHSGR/XTPOPSGR (session 48): the pen popped, whole or in the parts pushed, written with; through
    # DECSC/DECRC, the screens, DECSTR; pushes past the 10 levels; the aliases
    pen = CSI + "1;3;4;9;38;5;100;48;2;1;2;3m"
    for parts in ("", "1", "2", "3", "4", "5", "7", "8", "9", "21", "30", "31", "10;11", "1;30", "3;4;31", "0",
                  ";", "6;22"):
        add("xtsgr-push-%s" % (parts or "all"), CSI + "3;3H" + pen + CSI + parts + "#{" + "a" + CSI +
            "0;2;5;7;21;32;44m" + "b" + CSI + "#}" + "c" + CSI + "m" + "d", filled=False)
    for name, s in (("nested", CSI + "1m" + CSI + "#{" + CSI + "0;3;44m" + CSI + "1;31#{" + CSI + "0;7mx" +
                     CSI + "#}y" + CSI + "#}z"),
                    ("aliases", pen + CSI + "#p" + CSI + "0mx" + CSI + "#qy"),
                    ("underflow", pen + CSI + "#}x" + CSI + "m" + CSI + "#}y"),
                    ("overflow", "".join(CSI + "38;5;%dm" % (100 + i) + CSI + "#{" for i in range(13)) +
                     CSI + "m" + "".join(CSI + "#}%d" % (i % 10) for i in range(14))),
                    ("decsc", pen + E + "7" + CSI + "#{" + CSI + "0;41m" + E + "8x" + CSI + "m" + CSI + "#}y"),
                    ("decrc-after", pen + CSI + "#{" + CSI + "0;41m" + E + "7" + CSI + "#}x" + E + "8y"),
                    ("alt", pen + CSI + "#{" + CSI + "?1049h" + CSI + "0;41m" + CSI + "#}x" + CSI + "?1049l" +
                     "y"),
                    ("alt-push", CSI + "?1049h" + pen + CSI + "#{" + CSI + "?1049l" + CSI + "m" + CSI + "#}x"),
                    ("decstr", pen + CSI + "#{" + CSI + "!p" + CSI + "#}x"),
                    ("decaln", pen + CSI + "#{" + CSI + "m" + E + "#8" + CSI + "#}" + CSI + "2;2Hx"),
                    ("erase", CSI + "44m" + CSI + "#{" + CSI + "m" + CSI + "#}" + CSI + "2K" + CSI + "m"),
                    ("erase-bg-only", CSI + "44m" + CSI + "31#{" + CSI + "m" + CSI + "#}" + CSI + "2K" +
                     CSI + "m"),
                    ("wide", pen + CSI + "#{" + CSI + "m中" + CSI + "#}文")):
        add("xtsgr-%s" % name, CSI + "3;3H" + s, filled=False)
    return [(n, s.encode("utf-8")) for n, s in out]


def stack_ops(rng):
    """Operations the random cases add with --sgr-stack: XTPUSHSGR (all, or some parts) and XTPOPSGR."""
    parts = ["", "", "1", "2", "3", "4", "5", "7", "9", "21", "30", "31", "1;30;31", "10", "0"]
    return [lambda: CSI + rng.choice(parts) + rng.choice(["#{", "#{", "#p"]),
            lambda: CSI + rng.choice(["#}", "#}", "#q"])]


def pen_ops(rng):
    """Operations the random cases add with --pens: any of SGRS, one to three at a time, and the functions
    that save, restore or reset the pen (DECSC, DECRC, DECSTR, RIS, DECALN, the alternate screens)."""
    return [lambda: "".join(CSI + rng.choice(SGRS) + "m" for _ in range(rng.randint(1, 3))),
            lambda: "".join(CSI + rng.choice(SGRS) + "m" for _ in range(rng.randint(1, 3))),
            lambda: rng.choice([E + "7", E + "8", CSI + "!p", E + "#8", CSI + "s", CSI + "u", CSI + "?1048h",
                                CSI + "?1048l", CSI + "?1049h", CSI + "?1049l", CSI + "?1047h", CSI + "?1047l"])]


def random_ops(rng):
    """Operations the random cases add in --attrs mode: pens and resets."""
    codes = ["0", "1", "2", "3", "4", "5", "7", "8", "9", "21", "22", "24", "27", "39", "49", "31", "42", "93",
             "104", "38;5;100", "48;5;9", "38;2;1;2;3", "48;2;200;100;0", ""]

    def sgr():
        return CSI + ";".join(rng.choice(codes) for _ in range(rng.randint(1, 3))) + "m"
    return [sgr, sgr, sgr, lambda: E + rng.choice("78"), lambda: CSI + "!p"]
