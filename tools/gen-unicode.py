#!/usr/bin/env python3
"""Generates vt/unicode-table.h from the Unicode Character Database (Debian package unicode-data).

Usage: tools/gen-unicode.py [UCD_DIR] > vt/unicode-table.h     (UCD_DIR default /usr/share/unicode)

One byte of properties per code point, looked up through a two-level table:
  bits 0-1  display width (0, 1 or 2)
  bits 2-5  Grapheme_Cluster_Break (enum below, UAX #29)
  bit  6    Extended_Pictographic (emoji-data.txt)
Also the table of grid/'s one-/two-byte text loop (vt_utf8_pairs in vt/vt.h), derived from the bytes above.
The generated header is committed so that building does not need unicode-data; rerun this script when the
package moves to a new Unicode version and commit the result.

Width rules (what terminals and applications agree on, close to the wcwidth() of glibc and of
Markus Kuhn, but from current data):
  0  C0/C1 controls and DEL; general categories Mn, Me, Cf (except U+00AD SOFT HYPHEN, shown as a hyphen,
     and the Prepended_Concatenation_Mark characters such as U+0600 ARABIC NUMBER SIGN, which have a glyph
     spanning the digits after them); U+200B; Hangul Jungseong/Jongseong (U+1160..U+11FF, U+D7B0..U+D7FF)
     which join the preceding Choseong; Default_Ignorable_Code_Point characters (variation selectors, tag
     characters, ...) other than letters (the Hangul fillers U+115F, U+3164, U+FFA0 take their East Asian
     width). The exceptions are glibc's wcwidth() and xterm's, which applications count with.
  2  East_Asian_Width W or F (including the unassigned CJK ranges UAX #11 defaults to W), or
     Emoji_Presentation=Yes; also U+3248..U+324F (circled numbers on black squares, A) and U+4DC0..U+4DFF
     (Yijing hexagrams, N; W from Unicode 16.0), wide in glibc's wcwidth() and in xterm 379 (its table is
     Markus Kuhn's, wide from U+2E80 to U+A4CF): drawn narrow, the rest of a line nano or readline laid out
     stood two columns off.
  1  everything else (including unassigned and private-use code points)
"""
import os
import re
import sys

GCB = ["Other", "CR", "LF", "Control", "Extend", "ZWJ", "Regional_Indicator", "Prepend", "SpacingMark",
       "L", "V", "T", "LV", "LVT"]
N = 0x110000
LOW = 0x800  # VT_UPROP_LOW in vt/vt.h


def ranges(path):
    """Yields (first, last, value) from a UCD 'XXXX..YYYY ; value # comment' file."""
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        cps, val = [f.strip() for f in line.split(";")[:2]]
        if ".." in cps:
            a, b = cps.split("..")
        else:
            a = b = cps
        yield int(a, 16), int(b, 16), val


def main():
    ucd = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
    version = "?"
    m = re.search(r"EastAsianWidth-([\d.]+)\.txt", open(os.path.join(ucd, "EastAsianWidth.txt")).read(300))
    if m:
        version = m.group(1)

    gc = ["Cn"] * N
    for a, b, v in ranges(os.path.join(ucd, "extracted", "DerivedGeneralCategory.txt")):
        for c in range(a, b + 1):
            gc[c] = v
    eaw = ["N"] * N
    # UAX #11: unassigned code points in these blocks default to W.
    for a, b in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)):
        for c in range(a, b + 1):
            eaw[c] = "W"
    for a, b, v in ranges(os.path.join(ucd, "EastAsianWidth.txt")):
        for c in range(a, b + 1):
            eaw[c] = v
    emoji_pres = bytearray(N)
    ext_pict = bytearray(N)
    for a, b, v in ranges(os.path.join(ucd, "emoji", "emoji-data.txt")):
        arr = {"Emoji_Presentation": emoji_pres, "Extended_Pictographic": ext_pict}.get(v)
        if arr is not None:
            for c in range(a, b + 1):
                arr[c] = 1
    ignorable = bytearray(N)
    for a, b, v in ranges(os.path.join(ucd, "DerivedCoreProperties.txt")):
        if v == "Default_Ignorable_Code_Point":
            for c in range(a, b + 1):
                ignorable[c] = 1
    pcm = bytearray(N)
    for a, b, v in ranges(os.path.join(ucd, "PropList.txt")):
        if v == "Prepended_Concatenation_Mark":
            for c in range(a, b + 1):
                pcm[c] = 1
    gcb = [0] * N
    for a, b, v in ranges(os.path.join(ucd, "auxiliary", "GraphemeBreakProperty.txt")):
        for c in range(a, b + 1):
            gcb[c] = GCB.index(v)

    props = bytearray(N)
    for c in range(N):
        if c < 0x20 or 0x7F <= c <= 0x9F:
            w = 0
        elif c == 0xAD or pcm[c]:
            w = 1
        elif gc[c] in ("Mn", "Me", "Cf") or c == 0x200B or 0x1160 <= c <= 0x11FF or 0xD7B0 <= c <= 0xD7FF \
                or (ignorable[c] and gc[c] != "Lo"):
            w = 0
        elif eaw[c] in ("W", "F") or emoji_pres[c] or 0x3248 <= c <= 0x324F or 0x4DC0 <= c <= 0x4DFF:
            w = 2
        else:
            w = 1
        props[c] = w | gcb[c] << 2 | ext_pict[c] << 6

    # Blocks of 128 code points (the smallest tables for this data, and what the inline lookup in vt/vt.h,
    # vt_char_plain_width(), is written for: keep VT_UPROP_SHIFT there in step).
    best = None
    for shift in (7,):
        size = 1 << shift
        blocks, index = {}, []
        for start in range(0, N, size):
            blk = bytes(props[start:start + size])
            index.append(blocks.setdefault(blk, len(blocks)))
        total = len(blocks) * size + len(index) * (1 if len(blocks) <= 256 else 2)
        if best is None or total < best[0]:
            best = (total, shift, blocks, index)
    total, shift, blocks, index = best
    if len(blocks) > 256:
        sys.exit("gen-unicode.py: more than 256 distinct blocks: vt_uprop_index needs uint16_t (vt/vt.h)")
    itype = "uint8_t"

    out = sys.stdout
    out.write("/* vt/unicode-table.h: GENERATED by tools/gen-unicode.py from the Unicode %s data files of Debian's\n"
              " * unicode-data package. Do not edit; rerun the script. %d bytes. */\n" % (version, total))
    out.write("#ifndef VT_UNICODE_TABLE_H\n#define VT_UNICODE_TABLE_H\n\n#include <stdint.h>\n\n")
    out.write('#define VT_UNICODE_VERSION "%s"\n' % version)
    out.write("#define UPROP_SHIFT %d\n" % shift)
    out.write("#define UPROP_WIDTH(p) ((p)&3u)\n#define UPROP_GCB(p) (((p) >> 2) & 15u)\n"
              "#define UPROP_EXTPICT(p) (((p) >> 6) & 1u)\n\n")
    out.write("enum uprop_gcb {\n")
    for i, n in enumerate(GCB):
        out.write("\tGCB_%s = %d,\n" % (n.upper(), i))
    out.write("};\n\n")
    out.write("/* Not static: vt/vt.h declares them for its inline lookup. Include this header once (vt/unicode.c). */\n")
    out.write("const %s vt_uprop_index[%d] = {\n" % (itype, len(index)))
    for i in range(0, len(index), 16):
        out.write("\t" + ", ".join(str(x) for x in index[i:i + 16]) + ",\n")
    out.write("};\n\n")
    out.write("/* U+0000..U+07FF again, flat: one load for ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic and their\n"
              " * combining marks in vt_char_props(). */\n")
    out.write("const uint8_t vt_uprop_low[%d] = {\n" % LOW)
    for i in range(0, LOW, 16):
        out.write("\t" + ", ".join("0x%02x" % x for x in props[i:i + 16]) + ",\n")
    out.write("};\n\n")
    # The one-/two-byte text loop's table (vt_utf8_pairs in vt/vt.h): row 0 single bytes, row b - 0xc0 the lead
    # byte b, the next byte the column. Leads 0xe0..0xff (rows 0x20..0x3f) and whatever is not listed: 0.
    pairs = [0] * 0x2000
    for b in range(0x20, 0x7f):
        if props[b] == 1:
            pairs[b] = b
    for b in range(0xc2, 0xe0):
        for t in range(0x80, 0xc0):
            cp = (b & 0x1f) << 6 | (t & 0x3f)
            if props[cp] == 1:
                pairs[(b - 0xc0) << 8 | t] = cp
            elif props[cp] == 0x10:
                pairs[(b - 0xc0) << 8 | t] = cp - 0x8000
    out.write("/* vt_utf8_pairs (vt/vt.h): rows 0x00..0x1f; the rest is 0. */\n")
    out.write("const int16_t vt_utf8_pairs[0x4000] = {\n")
    for i in range(0, 0x2000, 16):
        out.write("\t" + ", ".join(("%d" % x) if -10 < x < 10 else ("-0x%x" % -x if x < 0 else "0x%x" % x)
                                     for x in pairs[i:i + 16]) + ",\n")
    out.write("};\n\n")
    out.write("const uint8_t vt_uprop_blocks[%d][%d] = {\n" % (len(blocks), 1 << shift))
    for blk in blocks:
        out.write("\t{\n")
        for i in range(0, len(blk), 16):
            out.write("\t\t" + ", ".join("0x%02x" % x for x in blk[i:i + 16]) + ",\n")
        out.write("\t},\n")
    out.write("};\n\n#endif\n")


if __name__ == "__main__":
    main()
