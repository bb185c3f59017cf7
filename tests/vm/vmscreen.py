"""Screens for the QEMU harness (tests/vm/): Image (PPM and 8-bit PNG, read and write, crop, diff), compare()
of an actual and an expected frame, and the VM's screendump()/wait_screen() (ScreenMixin)."""

import os
import struct
import sys
import tempfile
import time
import zlib

from vmbase import DEFAULT_TIMEOUT, OUT, VMError

class Image:
    """An RGB image: width, height and bytes of width*height*3."""

    def __init__(self, width, height, data):
        if len(data) != width * height * 3:
            raise ValueError("image data size %d != %dx%dx3" % (len(data), width, height))
        self.width, self.height, self.data = width, height, bytes(data)

    @staticmethod
    def load(path):
        with open(path, "rb") as f:
            head = f.read(8)
        if head.startswith(b"P6"):
            return Image._load_ppm(path)
        if head == b"\x89PNG\r\n\x1a\n":
            return Image._load_png(path)
        raise VMError("%s: neither PPM (P6) nor PNG" % path)

    @staticmethod
    def _load_ppm(path):
        data = open(path, "rb").read()
        fields = []
        pos = 2
        while len(fields) < 3:
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos) + 1
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(int(data[pos:end]))
            pos = end
        pos += 1
        w, h, maxval = fields
        if maxval != 255:
            raise VMError("%s: PPM maxval %d unsupported" % (path, maxval))
        return Image(w, h, data[pos:pos + w * h * 3])

    @staticmethod
    def _load_png(path):
        data = open(path, "rb").read()
        pos = 8
        idat = b""
        w = h = depth = ctype = interlace = None
        palette = None
        while pos < len(data):
            n, typ = struct.unpack(">I4s", data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + n]
            pos += 12 + n
            if typ == b"IHDR":
                w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            elif typ == b"PLTE":
                palette = chunk
            elif typ == b"IDAT":
                idat += chunk
            elif typ == b"IEND":
                break
        if depth != 8 or interlace or ctype not in (0, 2, 3, 4, 6):
            raise VMError("%s: PNG depth %s colour type %s interlace %s unsupported" % (path, depth, ctype, interlace))
        bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
        raw = zlib.decompress(idat)
        stride = w * bpp
        out = bytearray()
        prev = bytearray(stride)
        p = 0
        for _ in range(h):
            ft = raw[p]
            line = bytearray(raw[p + 1:p + 1 + stride])
            p += 1 + stride
            if ft == 1:
                for i in range(bpp, stride):
                    line[i] = (line[i] + line[i - bpp]) & 255
            elif ft == 2:
                for i in range(stride):
                    line[i] = (line[i] + prev[i]) & 255
            elif ft == 3:
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
            elif ft == 4:
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    line[i] = (line[i] + pr) & 255
            prev = line
            if ctype == 2:
                out += line
            elif ctype == 6:
                for i in range(0, stride, 4):
                    out += line[i:i + 3]
            elif ctype == 0:
                for v in line:
                    out += bytes((v, v, v))
            elif ctype == 4:
                for i in range(0, stride, 2):
                    out += bytes((line[i],) * 3)
            else:
                for v in line:
                    out += palette[v * 3:v * 3 + 3]
        return Image(w, h, bytes(out))

    def save(self, path):
        """Writes PNG when PATH ends in .png, PPM otherwise."""
        path = str(path)
        if path.endswith(".png"):
            stride = self.width * 3
            raw = b"".join(b"\0" + self.data[y * stride:(y + 1) * stride] for y in range(self.height))

            def chunk(t, d):
                return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)

            png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
            open(path, "wb").write(png)
        else:
            open(path, "wb").write(b"P6\n%d %d\n255\n" % (self.width, self.height) + self.data)
        return path

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])

    def crop(self, x, y, w, h):
        if x < 0 or y < 0 or x + w > self.width or y + h > self.height:
            raise VMError("crop %dx%d+%d+%d outside %dx%d image" % (w, h, x, y, self.width, self.height))
        stride = self.width * 3
        rows = [self.data[(y + r) * stride + x * 3:(y + r) * stride + (x + w) * 3] for r in range(h)]
        return Image(w, h, b"".join(rows))

    def colours(self):
        """The set of distinct RGB colours (handy to check 'not all black')."""
        return {self.data[i:i + 3] for i in range(0, len(self.data), 3)}

    def is_uniform(self):
        return self.data == self.data[:3] * (self.width * self.height)

    def diff(self, other, tolerance=0):
        """Compares with OTHER of the same size. Returns (number of pixels whose channels differ by more than
        TOLERANCE, the largest channel difference, bounding box (x0, y0, x1, y1) of those pixels or None)."""
        if (self.width, self.height) != (other.width, other.height):
            raise VMError("image sizes differ: %dx%d vs %dx%d" % (self.width, self.height, other.width, other.height))
        if self.data == other.data:
            return 0, 0, None
        a, b = self.data, other.data
        stride = self.width * 3
        bad = 0
        worst = 0
        box = None
        for y in range(self.height):
            ra, rb = a[y * stride:(y + 1) * stride], b[y * stride:(y + 1) * stride]
            if ra == rb:
                continue
            for x in range(self.width):
                i = x * 3
                d = max(abs(ra[i] - rb[i]), abs(ra[i + 1] - rb[i + 1]), abs(ra[i + 2] - rb[i + 2]))
                if d:
                    worst = max(worst, d)
                if d > tolerance:
                    bad += 1
                    box = (x, y, x, y) if box is None else (min(box[0], x), min(box[1], y),
                                                            max(box[2], x), max(box[3], y))
        return bad, worst, box

    def diff_image(self, other):
        """An image that is black where the pixels match and red where they differ."""
        out = bytearray(len(self.data))
        for i in range(0, len(self.data), 3):
            if self.data[i:i + 3] != other.data[i:i + 3]:
                out[i] = 255
        return Image(self.width, self.height, bytes(out))


def turned_size(rot, w, h):
    """The size a W x H panel has for a picture turned by ROT (normal, right, inverted, left)."""
    return (h, w) if rot in ("right", "left") else (w, h)


def panel(exp, rot, w, h):
    """The W x H panel showing the picture EXP (a replay: the grid region, at the top-left of the turned size)
    turned by ROT, black elsewhere: picture pixel (x, y) lands where drm/rotate.c puts it (fbcon's rotate=N:
    right puts the top-left at the panel's top-right)."""
    lw, lh = turned_size(rot, w, h)
    logical = bytearray(lw * lh * 3)
    for y in range(exp.height):
        logical[y * lw * 3:(y * lw + exp.width) * 3] = exp.data[y * exp.width * 3:(y + 1) * exp.width * 3]
    out = bytearray(w * h * 3)
    for y in range(lh):
        row = logical[y * lw * 3:(y + 1) * lw * 3]
        for x in range(lw):
            if rot == "right":
                px, py = w - 1 - y, x
            elif rot == "left":
                px, py = y, h - 1 - x
            elif rot == "inverted":
                px, py = w - 1 - x, h - 1 - y
            else:
                px, py = x, y
            o = (py * w + px) * 3
            out[o:o + 3] = row[x * 3:x * 3 + 3]
    return Image(w, h, bytes(out))


def compare(actual, expected, tolerance=0, max_bad=0, region=None, save_prefix=None):
    """Asserts that image ACTUAL matches EXPECTED (Images or paths), both cropped to REGION (x, y, w, h) when
    given: at most MAX_BAD pixels may differ by more than TOLERANCE per channel. On a mismatch saves
    SAVE_PREFIX-{actual,expected,diff}.png when given and raises VMError describing the difference."""
    a = actual if isinstance(actual, Image) else Image.load(actual)
    e = expected if isinstance(expected, Image) else Image.load(expected)
    if region:
        a = a.crop(*region)
        e = e.crop(*region)
    bad, worst, box = a.diff(e, tolerance)
    if bad <= max_bad:
        return bad
    msg = "images differ: %d pixels beyond tolerance %d (largest difference %d) within box %s" % (
        bad, tolerance, worst, box)
    if save_prefix:
        a.save(str(save_prefix) + "-actual.png")
        e.save(str(save_prefix) + "-expected.png")
        a.diff_image(e).save(str(save_prefix) + "-diff.png")
        msg += "; saved %s-{actual,expected,diff}.png" % save_prefix
    raise VMError(msg)


class ScreenMixin:
    """The scanned-out frame of a VM (QMP screendump); needs self.qmp, self.tmpdir, self.gpu_present,
    self.name and self.fail() from vmqemu.VM."""

    def screendump(self, path=None):
        """Saves the scanned-out frame of the GPU (PNG if PATH ends in .png, else PPM) and returns an Image."""
        fd, tmp = tempfile.mkstemp(suffix=".ppm", dir=self.tmpdir)
        os.close(fd)
        args = {"filename": tmp}
        if self.gpu_present:
            args["device"] = "gpu0"
        self.qmp.cmd("screendump", **args)
        # Seen once in CI (three screendumps of one virtio guest; the other guests of that run fine): QEMU
        # answered without an error, yet the file read back was neither PPM nor PNG. Say what was there, read
        # it again after a pause (a file system slow to show another process's writes), then take it again.
        for attempt in range(3):
            try:
                img = Image.load(tmp)
                break
            except VMError as e:
                if attempt == 2:
                    raise
                print("screendump: %s (%d bytes); %s" % (e, os.path.getsize(tmp), (
                    "reading it again", "taking it again")[attempt]), file=sys.stderr)
                time.sleep(0.5)
                if attempt == 1:
                    self.qmp.cmd("screendump", **args)
        os.unlink(tmp)
        if path:
            img.save(path)
        return img

    def wait_screen(self, predicate, timeout=30, interval=0.5, what="the screen to change"):
        """Takes screendumps until PREDICATE(Image) is true; returns that Image."""
        deadline = time.time() + timeout * DEFAULT_TIMEOUT
        img = None
        while time.time() < deadline:
            img = self.screendump()
            if predicate(img):
                return img
            time.sleep(interval)
        if img is not None:
            p = OUT / ("%s-timeout.png" % self.name)
            img.save(p)
            what += " (last frame saved to %s)" % p
        self.fail("timeout (%.0f s) waiting for %s" % (timeout * DEFAULT_TIMEOUT, what))
