#!/usr/bin/env python3
"""tests/conformance/cli-test.py REPLAY: the command-line contract of kmscon-felis-replay (its man page):
bad arguments give one line on stderr and exit 2; text gives exactly ROWS lines; json parses with the
documented fields and exactly COLS cells per row; none prints nothing; a missing file exits 1; --vtproto
answers its queries."""
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time

replay = os.path.abspath(sys.argv[1])  # some checks run in a directory of their own
errors = []


def run(args, data=b""):
    return subprocess.run([replay] + args, input=data, capture_output=True, timeout=30)


for bad in (["--size", "0x1"], ["--size", "80"], ["--size", "5000x10"], ["--size", "axb"], ["--format", "xml"],
            ["--scrollback", "-1"], ["--scrollback", "x"], ["--bogus"], ["a", "b"], ["--vtproto", "file"],
            # caught before the stream is read, not by the renderer after the text went out (exit 1)
            ["--palette", "rainbow"], ["--png", "/dev/null", "--font-engine", "psf"],
            # signs and blanks, which strtol skips, are refused as kmscon-felis --size and sb-size refuse them
            ["--size", " 80x24"], ["--size", "+80x24"], ["--size", "80x 24"], ["--size", "80x+24"],
            ["--scrollback", " 5"], ["--scrollback", "+5"], ["--png", "/dev/null", "--font-size", "+16"],
            # what --vtproto would ignore: a PNG asked for and never written, exit 0
            ["--vtproto", "--png", "/dev/null"], ["--vtproto", "--format", "json"]):
    p = run(bad)
    lines = p.stderr.decode().splitlines()
    if p.returncode != 2 or len(lines) != 1 or p.stdout:
        errors.append("%s: exit %d, stderr %r, stdout %r" % (bad, p.returncode, lines, p.stdout[:40]))

# An option given without its value names that option: it said "bad option '-\\0'", a control byte (for
# --palette a line end, two lines) in place of the name.
for opt in ("--size", "--scrollback", "--format", "--png", "--font-size", "--palette"):
    p = run([opt])
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 2 or "\0" in err or ("'%s' needs a value" % opt) not in err:
        errors.append("%s without a value: exit %d, stderr %r" % (opt, p.returncode, err))

# An option that takes no value, given one, says so: it said "needs a value", the opposite.
for arg in ("--vtproto=1", "--help=x", "--vtp=1"):
    p = run([arg])
    err = p.stderr.decode()
    if p.returncode != 2 or len(err.splitlines()) != 1 or "takes no value" not in err or p.stdout:
        errors.append("%s: exit %d, stderr %r" % (arg, p.returncode, err))

p = run(["/nonexistent/file"])
if p.returncode != 1:
    errors.append("missing file: exit %d" % p.returncode)

p = run(["--size", "7x3"], b"a\r\nb\xe4\xb8\xad\xcc\x81c   \r\n")
if p.returncode != 0 or p.stdout.decode() != "a\nb\u4e2d\u0301c\n\n":
    errors.append("text: exit %d, %r" % (p.returncode, p.stdout))

p = run(["--size", "6x2", "--format", "json", "-"], b"\x1b]2;t\"\\\x07\x1b[1;38;5;9mx\x1b[0m\xe4\xb8\xad")
try:
    j = json.loads(p.stdout)
    if (j["cols"], j["rows"], j["title"]) != (6, 2, 't"\\') or len(j["lines"]) != 2 or \
            any(len(r) != 6 for r in j["lines"]):
        errors.append("json shape: %r" % j)
    if j["lines"][0][0] != ["x", 1, "B", "i:9", "d"] or j["lines"][0][1][:2] != ["\u4e2d", 2] or \
            j["lines"][0][2][:2] != ["", 0] or j["lines"][1][0][0] != " ":
        errors.append("json cells: %r" % j["lines"][0][:3])
    if j["cursor"] != {"x": 3, "y": 0, "visible": True}:
        errors.append("json cursor: %r" % j["cursor"])
except (ValueError, KeyError) as e:
    errors.append("json: %s: %r" % (e, p.stdout[:200]))

# Hyperlinks (OSC 8) are listed as runs of cells, one a row: [y, x, n, uri, id]. A link across a soft wrap is
# a run on each row, the same URI and id; a wide character's two cells are both in it; the text outside a link
# is in none; a URI's quote and backslash are escaped, its bytes past ASCII percent-encoded (JSON is UTF-8,
# a URI need not be).
p = run(["--size", "6x3", "--format", "json", "-"],
        b"\x1b]8;id=k:x=y;http://h/a;b\x1b\\abcdefgh\x1b]8;;\x1b\\ i\r\n\x1b]8;;file://h/\"\\\xe9\x07\xe4\xb8\xad"
        b"\x1b]8;;\x07z")
try:
    links = json.loads(p.stdout)["links"]
    want = [[0, 0, 6, "http://h/a;b", "k"], [1, 0, 2, "http://h/a;b", "k"], [2, 0, 2, "file://h/\"\\%E9", None]]
    if links != want:
        errors.append("json links: %r, want %r" % (links, want))
except (ValueError, KeyError) as e:
    errors.append("json links: %s: %r" % (e, p.stdout[-300:]))

# A title's UTF-8 goes into the JSON as it is, its invalid bytes and controls shown as '?' (as xterm's ChangeGroup
# shows them): the JSON still parses (found unreached by tools/coverage, session 54: only ASCII titles were written).
p = run(["--size", "6x2", "--format", "json", "-"], b"\x1b]2;h\xc3\xa9 \xe2\x82\xac\xff\x7f\xed\xa0\x80!\x07")
try:
    if json.loads(p.stdout)["title"] != "h\u00e9 \u20ac?????!":
        errors.append("json title: %r" % json.loads(p.stdout)["title"])
except (ValueError, KeyError) as e:
    errors.append("json title: %s: %r" % (e, p.stdout[:200]))

p = run(["--format", "none"], b"abc")
if p.returncode != 0 or p.stdout:
    errors.append("none: exit %d, %r" % (p.returncode, p.stdout))

# Output that cannot be written is an error (exit 1, the reason on stderr), in both formats and whatever the
# screen's size: a screen larger than stdio's buffer to a full disk exited 0 with nothing written.
for size, fmt in (("20x2", "text"), ("200x100", "text"), ("20x2", "json"), ("200x100", "json")):
    with open("/dev/full", "wb") as full:
        p = subprocess.run([replay, "--size", size, "--format", fmt], input=b"x" * 20000, stdout=full,
                           stderr=subprocess.PIPE, timeout=30)
    if p.returncode != 1 or b"No space left on device" not in p.stderr:
        errors.append("%s %s to /dev/full: exit %d, stderr %r" % (size, fmt, p.returncode, p.stderr))

# --help's usage is output too: to a full disk it exited 0 with nothing written.
for args in (["--help"], ["-h"]):
    with open("/dev/full", "wb") as full:
        p = subprocess.run([replay] + args, stdout=full, stderr=subprocess.PIPE, timeout=30)
    if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or b"No space left on device" not in p.stderr:
        errors.append("%r to /dev/full: exit %d, stderr %r" % (args, p.returncode, p.stderr))

# Input that is no stream: a directory is a read error (exit 1, one line, nothing printed); a FIFO is read
# to its end like a pipe.
p = run(["/"])
if p.returncode != 1 or len(p.stderr.decode().splitlines()) != 1 or p.stdout:
    errors.append("directory: exit %d, stderr %r, stdout %r" % (p.returncode, p.stderr, p.stdout[:40]))
with tempfile.TemporaryDirectory() as tmp:
    fifo = os.path.join(tmp, "in")
    os.mkfifo(fifo)
    proc = subprocess.Popen([replay, "--size", "4x1", fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(fifo, "wb") as w:
        w.write(b"fifo")
    out, err = proc.communicate(timeout=30)
    if proc.returncode != 0 or out != b"fifo\n":
        errors.append("FIFO: exit %d, %r %r" % (proc.returncode, out, err))

    # A --png that cannot be written is said before the stream is read, with nothing printed: it was found
    # after the whole stream (stdin gone, a long recording replayed for nothing) and the text had gone out.
    for bad in (os.path.join(tmp, "no", "such.png"), tmp):
        p = run(["--png", bad, "--font-engine", "builtin"], b"text")
        if p.returncode != 1 or len(p.stderr.decode().splitlines()) != 1 or p.stdout:
            errors.append("--png %s: exit %d, stderr %r, stdout %r" % (bad, p.returncode, p.stderr, p.stdout))
    # So is a font the renderer cannot load (it was loaded after the stream, the text printed first), in one
    # line of this tool's (it was the renderer's log line, then "cannot set up the renderer: Bad message").
    for engine, font in (("psf", "/nonexistent.psf"), ("psf", "/etc/hostname"), ("fontconfig", "/etc/hostname")):
        p = run(["--png", os.path.join(tmp, "f.png"), "--font-engine", engine, "--font-file", font], b"text")
        lines = p.stderr.decode().splitlines()
        if (p.returncode != 1 or len(lines) != 1 or font not in lines[0] or p.stdout or
                not lines[0].startswith("kmscon-felis-replay: ")):
            errors.append("--font-file %s: exit %d, stderr %r, stdout %r" % (font, p.returncode, p.stderr, p.stdout))
    # A PNG whose writing fails half-way (a file size limit standing in for a full disk) is not left behind
    # truncated, exit 1; a device that refuses it (/dev/full) is left alone.
    cut = os.path.join(tmp, "cut.png")

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
    p = subprocess.run([replay, "--png", cut, "--font-engine", "builtin", "--size", "40x4"], input=b"x" * 160,
                       capture_output=True, timeout=30, preexec_fn=small_files)
    if p.returncode != 1 or os.path.exists(cut):
        errors.append("--png past the file size limit: exit %d, %r, left %r" % (
            p.returncode, p.stderr, os.path.exists(cut) and os.path.getsize(cut)))
    # Through a symbolic link (/dev/stdout to a file is one) the link is not removed, and the file it names is not
    # left cut short either: the link went, and the file stayed with the first 200 bytes of the image.
    real, link = os.path.join(tmp, "real.png"), os.path.join(tmp, "link.png")
    with open(real, "wb") as f:
        f.write(b"an older image")
    os.symlink("real.png", link)
    p = subprocess.run([replay, "--png", link, "--font-engine", "builtin", "--size", "40x4"], input=b"x" * 160,
                       capture_output=True, timeout=30, preexec_fn=small_files)
    if p.returncode != 1 or not os.path.islink(link) or os.path.getsize(real) != 0:
        errors.append("--png through a link past the file size limit: exit %d, %r, link kept %r, file of %r bytes" % (
            p.returncode, p.stderr, os.path.islink(link), os.path.exists(real) and os.path.getsize(real)))
    for f in (real, link):
        if os.path.lexists(f):
            os.unlink(f)
    # A link to a file not there yet is written through, as fopen() writes it (the checks before the stream took
    # it for an existing file: exit 1 "File exists"); a link in a chain of them too.
    os.symlink("real.png", link)
    os.symlink("link.png", os.path.join(tmp, "link2.png"))
    for name in (link, os.path.join(tmp, "link2.png")):
        p = run(["--png", name, "--font-engine", "builtin", "--size", "4x1", "--format", "none"], b"ok")
        if p.returncode != 0 or not os.path.islink(name) or not os.path.getsize(real):
            errors.append("--png %s to a file not there yet: exit %d, %r" % (os.path.basename(name), p.returncode,
                                                                              p.stderr))
        if os.path.exists(real):
            os.unlink(real)
    # The check itself leaves nothing behind when the stream cannot be read.
    p = run(["--png", link, "--font-engine", "builtin", os.path.join(tmp, "no-such-input")])
    if p.returncode != 1 or os.path.exists(real):
        errors.append("--png through a link with no input: exit %d, left %r" % (p.returncode, os.path.exists(real)))
    for f in (link, os.path.join(tmp, "link2.png")):
        os.unlink(f)
    p = run(["--png", "/dev/full", "--font-engine", "builtin", "--format", "none"], b"x")
    if p.returncode != 1 or not os.path.exists("/dev/full"):
        errors.append("--png /dev/full: exit %d, %r" % (p.returncode, p.stderr))
    # A PNG too large to hold is a bad command line, said before the stream is read: 4096x4096 cells of the
    # built-in font (32768x65536 pixels) allocated 8 GiB after the stream, or failed with the text out (here
    # under a 2 GiB address-space limit).
    # An ASan build cannot start under that limit (its shadow memory); its allocator refuses 8 GiB by itself.
    def small_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    with open(replay, "rb") as exe:
        asan = b"__asan_init" in exe.read()
    for size in ("4096x4096", "2048x1025"):
        big = os.path.join(tmp, "big.png")
        p = subprocess.run([replay, "--png", big, "--font-engine", "builtin", "--size", size], input=b"x",
                           capture_output=True, timeout=60, preexec_fn=None if asan else small_memory)
        if p.returncode != 2 or len(p.stderr.splitlines()) != 1 or p.stdout or os.path.exists(big):
            errors.append("--png of %s cells: exit %d, %r, stdout %d bytes" % (size, p.returncode, p.stderr,
                                                                               len(p.stdout)))
    good = os.path.join(tmp, "ok.png")
    p = run(["--png", good, "--font-engine", "builtin", "--size", "4x1"], b"ok")
    if p.returncode != 0 or p.stdout != b"ok\n" or not os.path.getsize(good):
        errors.append("--png to a new file: exit %d, %r %r" % (p.returncode, p.stdout, p.stderr))
    if os.listdir(tmp) != ["in", "ok.png"] and sorted(os.listdir(tmp)) != ["in", "ok.png"]:
        errors.append("the --png checks left files: %r" % os.listdir(tmp))

# "--png -" is standard output, as "-" is standard input: it wrote a file named "-" in the working
# directory. The text would share stdout with the image, so the format is none unless one is asked for,
# and asking for text or json with it is a bad command line.
with tempfile.TemporaryDirectory() as tmp:
    p = subprocess.run([replay, "--png", "-", "--font-engine", "builtin", "--size", "4x1"], input=b"ok",
                       capture_output=True, timeout=30, cwd=tmp)
    if p.returncode != 0 or not p.stdout.startswith(b"\x89PNG\r\n\x1a\n") or os.listdir(tmp):
        errors.append("--png -: exit %d, stdout %r, %r, left %r" % (p.returncode, p.stdout[:8], p.stderr,
                                                                    os.listdir(tmp)))
    elif p.stdout != subprocess.run([replay, "--png", "/dev/stdout", "--font-engine", "builtin", "--size", "4x1",
                                     "--format", "none"], input=b"ok", capture_output=True, timeout=30).stdout:
        errors.append("--png - differs from --png /dev/stdout")
    for fmt in ("text", "json"):
        p = subprocess.run([replay, "--png", "-", "--format", fmt, "--font-engine", "builtin"], input=b"ok",
                           capture_output=True, timeout=30, cwd=tmp)
        if p.returncode != 2 or p.stdout or len(p.stderr.splitlines()) != 1 or os.listdir(tmp):
            errors.append("--png - --format %s: exit %d, %r %r" % (fmt, p.returncode, p.stdout[:20], p.stderr))
    p = subprocess.run([replay, "--png", "-", "--format", "none", "--font-engine", "builtin"], input=b"ok",
                       capture_output=True, timeout=30, cwd=tmp)
    if p.returncode != 0 or not p.stdout.startswith(b"\x89PNG"):
        errors.append("--png - --format none: exit %d, %r" % (p.returncode, p.stderr))

# A stdin left non-blocking (O_NONBLOCK is the open file's, shared with whoever set it: a shell's other tool)
# is waited for, not a read error: it exited 1 with "Resource temporarily unavailable" at the first pause
# (--vtproto: exit 0, the commands after the pause never read).
def slow_stdin(args, first, second, want):
    r_fd, w_fd = os.pipe()
    os.set_blocking(r_fd, False)
    proc = subprocess.Popen([replay] + args, stdin=r_fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(r_fd)
    try:
        os.write(w_fd, first)
        time.sleep(0.3)
        os.write(w_fd, second)
    except BrokenPipeError:
        pass
    os.close(w_fd)
    out, err = proc.communicate(timeout=30)
    if proc.returncode != 0 or out != want:
        errors.append("%r, non-blocking stdin: exit %d, %r %r" % (args, proc.returncode, out, err))


slow_stdin(["--size", "6x2"], b"slow\r\n", b"reader", b"slow\nreader\n")
slow_stdin(["--vtproto", "--size", "4x1"], b"PUSH 6869\n", b"?cursor\n", b"0,2\n")

# So is a standard output left non-blocking (a pipe here, whose 64 KiB fill before the reader reads): stdio took
# EAGAIN for a write error, and the text, JSON and vtproto answers past the pipe's first 64 KiB were lost, exit 1
# "Resource temporarily unavailable".
def slow_stdout(args, data):
    r_fd, w_fd = os.pipe()
    os.set_blocking(w_fd, False)
    proc = subprocess.Popen([replay] + args, stdin=subprocess.PIPE, stdout=w_fd, stderr=subprocess.PIPE)
    os.close(w_fd)
    proc.stdin.write(data)
    proc.stdin.close()
    time.sleep(0.3)
    chunks = []
    while True:
        b = os.read(r_fd, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r_fd)
    err = proc.stderr.read()
    proc.wait(timeout=30)
    return proc.returncode, b"".join(chunks), err


for fmt in ("text", "json"):
    want = run(["--size", "200x400", "--format", fmt], b"x" * 80000).stdout
    rc, out, err = slow_stdout(["--size", "200x400", "--format", fmt], b"x" * 80000)
    if rc != 0 or out != want or err:
        errors.append("--format %s to a non-blocking stdout: exit %d, %d of %d bytes, %r" % (fmt, rc, len(out),
                                                                                           len(want), err))
rc, out, err = slow_stdout(["--vtproto", "--size", "200x400"], b"PUSH " + (b"x" * 80000).hex().encode() + b"\n?screen\n")
try:
    rows = len(json.loads(out)["lines"])
except ValueError:
    rows = None
if rc != 0 or rows != 400 or err:
    errors.append("--vtproto to a non-blocking stdout: exit %d, %d bytes, %r" % (rc, len(out), err))

# A read error after some of the stream (a PTY's master once its other side is closed: EIO) exits 1 with one
# line and prints no screen: the screen of part of a stream would pass for the whole one's.
master, slave = os.openpty()
os.write(slave, b"part of a stream\r\n")
os.close(slave)
p = subprocess.run([replay], stdin=master, capture_output=True, timeout=30)
os.close(master)
if p.returncode != 1 or p.stdout or b"Input/output error" not in p.stderr or len(p.stderr.splitlines()) != 1:
    errors.append("a read error mid-stream: exit %d, stderr %r, stdout %r" % (p.returncode, p.stderr, p.stdout[:40]))

# --vtproto: answers that cannot be written and commands that cannot be read are errors (exit 1, one line):
# both exited 0, every answer lost or the commands cut short unsaid.
with open("/dev/full", "wb") as full:
    p = subprocess.run([replay, "--vtproto"], input=b"?screen\n?cursor\n", stdout=full, stderr=subprocess.PIPE,
                       timeout=30)
if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or b"No space left" not in p.stderr:
    errors.append("--vtproto to /dev/full: exit %d, %r" % (p.returncode, p.stderr))
for args in (["--vtproto"], []):
    d = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
    p = subprocess.run([replay] + args, stdin=d, capture_output=True, timeout=30)
    os.close(d)
    if p.returncode != 1 or len(p.stderr.splitlines()) != 1 or p.stdout:
        errors.append("%r with a directory for stdin: exit %d, %r %r" % (args, p.returncode, p.stderr, p.stdout))

# JSON for every cell and title content: C0 and C1 controls (U+0080-U+009F, which some terminals still take
# for CSI and OSC when printed) escaped as \u00XX as the man page says, whatever else the stream holds
# (invalid UTF-8, surrogates' encodings, clusters, marks, links with quotes and backslashes), and the shape.
p = run(["--size", "8x1", "--format", "json"], b"\x1b]2;a\xc2\x85b\xc2\x9b1m\"\\\x1b\\x")
try:
    j = json.loads(p.stdout)
    raw = p.stdout.decode()
    if j["title"] != "a\x85b\x9b1m\"\\" or "\x85" in raw or "\x9b" in raw:
        errors.append("json C1 in the title: %r" % raw[:120])
except (ValueError, KeyError) as e:
    errors.append("json C1: %s: %r" % (e, p.stdout[:120]))
rnd = random.Random(19)
pieces = [b"\x1b]2;", b"\x1b]0;", b"\x07", b"\x1b\\", b"\x1b]8;;", b"\x1b]8;id=\"\\;http://a\"\\\x01/", b"\xc2\x9c",
          b"\xc2\x85", b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xcc\x81", b"\xe2\x80\x8d",
          b"\xf0\x9f\x91\xa8", b"\xf0\x9f\x87\xaf", b"\x1b[", b"m", b"\r\n", b"\xe4\xb8\xad", b"\"", b"\\", b"\x7f",
          b"\x1b#6", b"\x1b#3", b"\x1b[?25l", b"\xef\xbf\xbd", b"\xe2\x80\xa8", b"\x1b(0", b"q", b"a"]
for it in range(60):
    data = b"".join(rnd.choice(pieces) if rnd.random() < 0.8 else bytes([rnd.randrange(256)])
                    for _ in range(rnd.randrange(1, 200)))
    cols, rows = rnd.choice([(1, 1), (2, 2), (5, 3), (80, 4)])
    size = ["--size", "%dx%d" % (cols, rows)]
    p = run(size + ["--format", "json"], data)
    try:
        raw = p.stdout.decode()
        j = json.loads(raw)
        if len(j["lines"]) != rows or any(len(r) != cols for r in j["lines"]) or len(j["sizes"]) != rows:
            raise ValueError("shape")
        if any(0x80 <= ord(ch) <= 0x9f or ord(ch) < 0x20 and ch != "\n" for ch in raw):
            raise ValueError("a raw control character")
    except (ValueError, KeyError) as e:
        errors.append("json fuzz %r: %s: %r" % (data, e, p.stdout[:200]))
        break
    p = run(size, data)
    text = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0 or text.count("\n") != rows or any(l != l.rstrip(" ") for l in text.split("\n")):
        errors.append("text fuzz %r: exit %d, %r" % (data, p.returncode, p.stdout[:200]))
        break

# --vtproto (the man page's commands): one answer line per query, !unknown for any other query; the grid of
# --size until INIT makes a new one.
cmds = ["?screen", "INIT 2 4 5", "PUSH " + b"a\r\nb\r\nc\x1b[c".hex(), "?cursor", "?scrollback", "?output",
        "?output", "?nosuch", "RESIZE 3 6", "?screen", "RESET", "?screen"]
p = run(["--vtproto", "--size", "3x1"], ("\n".join(cmds) + "\n").encode())
out = p.stdout.decode().split("\n")
try:
    first, scr_resized, scr_reset = json.loads(out[0]), json.loads(out[6]), json.loads(out[7])
    sb = json.loads(out[2])
    if p.returncode != 0 or len(out) != 9 or out[8] != "":
        errors.append("vtproto: exit %d, %d lines" % (p.returncode, len(out)))
    if (first["rows"], first["cols"]) != (1, 3):
        errors.append("vtproto before INIT: %r" % out[0])
    if out[1] != "1,1" or len(sb) != 1 or sb[0][0][0] != "a":
        errors.append("vtproto INIT/PUSH: cursor %r, scrollback %r" % (out[1], out[2]))
    if not out[3].startswith("1b5b3f") or out[4] != "" or out[5] != "!unknown":
        errors.append("vtproto replies: ?output %r then %r, ?nosuch %r" % (out[3], out[4], out[6]))
    if (scr_resized["rows"], scr_resized["cols"]) != (3, 6):
        errors.append("vtproto RESIZE: %r" % out[6])
    if scr_reset["cursor"] != [0, 0] or any(c[0] != " " for row in scr_reset["lines"] for c in row):
        errors.append("vtproto RESET: %r" % out[7])
except (ValueError, KeyError, IndexError) as e:
    errors.append("vtproto: %s: %r" % (e, out))

# The man page's EXAMPLES, run verbatim by sh in a folder holding a session.typescript as script(1) (util-linux
# 2.38) writes it: a line of its own before the session and, after a newline, one after it, none of it the
# session's. The recorded session's screen is the screen of the session's own bytes: the example fed script's
# lines too, its header the first row and the session one row down, as far right as the header is long, and the last line
# 'Script done'.
man = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man", "kmscon-felis-replay.1.scd")
with open(man) as f:
    examples = f.read().split("# EXAMPLES", 1)[1].split("# SEE ALSO", 1)[0]
commands = [l.strip().replace("\\\\", "\\") for l in examples.splitlines() if l.startswith("\t")]
session = b"\x1b[1mhello\x1b[0m\r\nsecond\r\n$ "
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "session.typescript"), "wb") as f:
        f.write(b'Script started on 2026-12-07 22:40:45+00:00 [COMMAND="sh" <not executed on terminal>]\n' + session +
                b'\nScript done on 2026-12-07 22:40:45+00:00 [COMMAND_EXIT_CODE="0"]\n')
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(replay)) + os.pathsep + os.environ["PATH"])
    results = [subprocess.run(["sh", "-c", c], cwd=tmp, env=env, capture_output=True, timeout=30) for c in commands]
if len(commands) != 2 or any(r.returncode or r.stderr for r in results):
    errors.append("man EXAMPLES: %r: %r" % (commands, [(r.returncode, r.stderr) for r in results]))
else:
    want = run(["--size", "120x40"], session).stdout
    if results[0].stdout != want:
        errors.append("man EXAMPLES %r: %r, the session alone gives %r" % (commands[0], results[0].stdout[:300],
                                                                          want[:40]))
    try:
        j = json.loads(results[1].stdout)
        if j["cursor"] != {"x": 4, "y": 1, "visible": True} or j["lines"][1][0] != ["b", 1, "B", "d", "d"]:
            errors.append("man EXAMPLES %r: %r" % (commands[1], results[1].stdout[:300]))
    except (ValueError, KeyError, IndexError) as e:
        errors.append("man EXAMPLES %r: %s: %r" % (commands[1], e, results[1].stdout[:300]))

for e in errors:
    print(e)
sys.exit(1 if errors else 0)
