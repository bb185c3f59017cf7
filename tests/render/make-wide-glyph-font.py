#!/usr/bin/env python3
"""tests/render/make-wide-glyph-font.py OUT.ttf: a TrueType font (fontTools) with a glyph wider than its cell,
for tests/render/test-font-wide.c. 16 units an em, so at 16 pixels a unit is a pixel: 'M' (the cell's width)
and 'A' advance 10, 'W' advances 20 and is a frame from x 1 to 19, its side bars 2 wide, from the baseline
up 12: a proportional font's W, or a fallback's ligature (U+FB03) beside a monospace face. The cell is 13 pixels
above the baseline and 3 below: U+1EA4 (a Vietnamese capital with two marks, which DejaVu Sans Mono lacks and
DejaVu Sans draws taller than its cell) is a letter 10 high and a mark from 14 to 17 above the baseline, and
U+23AE (integral extension, which joins the rows above and below) a bar from 5 below to 18 above. U+27F5 and
U+27F6 (long arrows: DejaVu Sans Mono's hang a pixel or two past both sides of the advance) advance 10 and
reach from x -3 to 13: a shaft 2 high on rows 5-6 and, for a head, a bar 2 wide from 2 to 10 at the far left
(U+27F5) or right (U+27F6) end."""
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen


def glyph(*contours):
    """A glyph of the closed contours given as lists of points."""
    pen = TTGlyphPen(None)
    for pts in contours:
        pen.moveTo(pts[0])
        for p in pts[1:]:
            pen.lineTo(p)
        pen.closePath()
    return pen.glyph()


def rect(x0, y0, x1, y1, hole=False):
    """A rectangle's contour: clockwise (ink), or anticlockwise (a hole in the ink around it)."""
    pts = [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]
    return pts[::-1] if hole else pts


names = [".notdef", "space", "A", "M", "W", "tall", "join", "larrow", "rarrow"]
fb = FontBuilder(16, isTTF=True)
fb.setupGlyphOrder(names)
fb.setupCharacterMap({0x20: "space", 0x41: "A", 0x4D: "M", 0x57: "W", 0x1EA4: "tall", 0x23AE: "join",
                         0x27F5: "larrow", 0x27F6: "rarrow"})
fb.setupGlyf({".notdef": glyph(rect(1, 0, 8, 12)), "space": glyph(), "A": glyph(rect(1, 0, 9, 12)),
              "M": glyph(rect(1, 0, 9, 12)), "W": glyph(rect(1, 0, 19, 12), rect(3, 2, 17, 10, hole=True)),
              "tall": glyph(rect(1, 0, 9, 10), rect(3, 14, 7, 17)), "join": glyph(rect(4, -5, 6, 18)),
              "larrow": glyph(rect(-3, 2, -1, 10), rect(-1, 5, 13, 7)),
              "rarrow": glyph(rect(-3, 5, 11, 7), rect(11, 2, 13, 10))})
fb.setupHorizontalMetrics({".notdef": (10, 1), "space": (10, 0), "A": (10, 1), "M": (10, 1), "W": (20, 1), "tall": (10, 1),
                          "join": (10, 4), "larrow": (10, -3), "rarrow": (10, -3)})
fb.setupHorizontalHeader(ascent=13, descent=-3)
fb.setupNameTable({"familyName": "Wide Glyph Test", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=13, sTypoDescender=-3, usWinAscent=13, usWinDescent=3)
fb.setupPost()
fb.save(sys.argv[1])
