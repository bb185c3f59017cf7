#!/usr/bin/env python3
"""tests/conformance/cli-test.py REPLAY: the command-line contract of kmscon-felis-replay (its man page):
bad arguments give one line on stderr and exit 2; text gives exactly ROWS lines; json parses with the
documented fields and exactly COLS cells per row; none prints nothing; a missing file exits 1; --vtproto
answers its queries."""
import json
import subprocess
import sys

replay = sys.argv[1]
errors = []


def run(args, data=b""):
    return subprocess.run([replay] + args, input=data, capture_output=True, timeout=30)


for bad in (["--size", "0x1"], ["--size", "80"], ["--size", "5000x10"], ["--size", "axb"], ["--format", "xml"],
            ["--scrollback", "-1"], ["--scrollback", "x"], ["--bogus"], ["a", "b"], ["--vtproto", "file"],
            # caught before the stream is read, not by the renderer after the text went out (exit 1)
            ["--palette", "rainbow"], ["--png", "/dev/null", "--font-engine", "psf"],
            # signs and blanks, which strtol skips, are refused as kmscon-felis --size and sb-size refuse them
            ["--size", " 80x24"], ["--size", "+80x24"], ["--size", "80x 24"], ["--size", "80x+24"],
            ["--scrollback", " 5"], ["--scrollback", "+5"], ["--png", "/dev/null", "--font-size", "+16"]):
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

for e in errors:
    print(e)
sys.exit(1 if errors else 0)
