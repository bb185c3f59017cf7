#!/usr/bin/env python3
"""tests/render/make-huge-glyph-font.py OUT.ttf: a TrueType font (fontTools) whose 'B' and 'C' ask for huge
bitmaps, for tests/render/test-font-huge.c. 16 units a pixel em, so at 16 pixels a unit is a pixel: 'A' is an
ordinary 8x12 box, 'B' an 8,000 x 8,000 square (a 64 MB bitmap), 'C' as large as a glyph's coordinates go,
-16,384 to 16,383 units on both axes (a point's step is at most 32,767): 32,767 pixels square, 1 GiB, and at 32
pixels 65,534 pixels square, 4 GiB, FreeType's own limit."""
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen


def square(x0, y0, x1, y1):
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()
    return pen.glyph()


names = [".notdef", "space", "A", "B", "C"]
fb = FontBuilder(16, isTTF=True)
fb.setupGlyphOrder(names)
fb.setupCharacterMap({0x20: "space", 0x41: "A", 0x42: "B", 0x43: "C"})
fb.setupGlyf({".notdef": square(1, 0, 8, 12), "space": TTGlyphPen(None).glyph(), "A": square(1, 0, 9, 12),
              "B": square(-4000, -4000, 4000, 4000), "C": square(-16384, -16384, 16383, 16383)})
fb.setupHorizontalMetrics({n: (10, 0) for n in names})
fb.setupHorizontalHeader(ascent=13, descent=-3)
fb.setupNameTable({"familyName": "Huge Glyph Test", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=13, sTypoDescender=-3, usWinAscent=13, usWinDescent=3)
fb.setupPost()
fb.save(sys.argv[1])
