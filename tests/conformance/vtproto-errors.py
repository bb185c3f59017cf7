#!/usr/bin/env python3
"""tests/conformance/vtproto-errors.py REPLAY

kmscon-felis-replay --vtproto given bad commands through a real pipe (VTPROTO.md: only '?' lines are answered,
so a bad INIT, RESIZE, PUSH or an unknown command has no answer of its own: it is said on stderr, one line
naming the input line, with no raw control byte, and changes nothing). They were all silent: INIT with a size
out of range or junk after it, RESIZE 0 0, RESIZE -3 5, RESIZE 99999999999 5 (an int overflow in sscanf), PUSH
with a byte that is no hex. Every query after them is still answered, the terminal keeps its size, and the
process neither crashes nor grows: it runs under a 1 GiB address-space limit. At the end of the input the exit
status is 1 when any command was refused (it was 0: a runner fed a broken stream heard nothing of it unless it
read stderr), 0 when none was.
"""
import json
import re
import resource
import subprocess
import sys

replay = sys.argv[1]
failures = []
RAW = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]')

bad = [
    "INIT 0 80", "INIT -1 80", "INIT 24 80 x", "INIT 24 80 -1", "INIT 99999999999 80", "INIT 5000 80",
    "INIT 24", "INIT 24 80 2000000", "INIT 24 80 5 junk", "INIT +24 80", "INIT 24 0x50",
    "RESIZE 0 0", "RESIZE -3 5", "RESIZE 4097 10", "RESIZE 10 4097", "RESIZE 99999999999 5",
    "RESIZE 2147483648 5", "RESIZE 5", "RESIZE 5 5 5", "RESIZE a b", "RESIZE 5\x1b[2J 5",
    "PUSH 6g", "PUSH 616", "FROB 1 2",
]


with open(replay, "rb") as exe:
    asan = b"__asan_init" in exe.read()  # (ASan reserves terabytes of address space: no limit there)


def limit():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def peak_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1))


lines = ["INIT 3 7 10"]
for b in bad:
    lines += [b, "?screen"]
lines += ["RESIZE 4 9", "?screen", "PUSH 41", "?cursor"]
p = subprocess.Popen([replay, "--vtproto"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, preexec_fn=limit)
out, err = p.communicate(("\n".join(lines) + "\n").encode(), timeout=60)
answers = out.decode().splitlines()
errs = err.splitlines()
if p.returncode != 1:
    failures.append("exit %d after refused commands, expected 1; stderr %r" % (p.returncode, err[-300:]))
if len(answers) != len(bad) + 2:
    failures.append("%d answers for %d queries: %r" % (len(answers), len(bad) + 2, answers[:4]))
else:
    for b, a in zip(bad, answers):
        s = json.loads(a)
        if (s["rows"], s["cols"]) != (3, 7):
            failures.append("%r changed the terminal to %dx%d rows x cols" % (b, s["rows"], s["cols"]))
    s = json.loads(answers[-2])
    if (s["rows"], s["cols"]) != (4, 9):
        failures.append("a good RESIZE after the bad ones: %dx%d" % (s["rows"], s["cols"]))
    if answers[-1] != "0,1":
        failures.append("a good PUSH after the bad ones: cursor %r" % answers[-1])
for i, b in enumerate(bad):
    lineno = 2 + 2 * i
    want = b"line %d:" % lineno
    hits = [e for e in errs if want in e]
    if len(hits) != 1:
        failures.append("%r (line %d): %d error lines on stderr, expected 1" % (b, lineno, len(hits)))
if len(errs) != len(bad):
    failures.append("%d stderr lines for %d bad commands: %r" % (len(errs), len(bad), errs[:3]))
if RAW.search(err):
    failures.append("stderr carries a raw control byte: %r" % err)

# One bad command among good ones, the first or the last line, a NUL byte, a lone refused PUSH: exit 1 after
# the rest was carried out (the queries after it answered); good lines alone, an empty input: exit 0.
for text, code, want in ((b"FROB\n?cursor\n", 1, "0,0"), (b"PUSH 41\n?cursor\nPUSH 4\n", 1, "0,1"),
                         (b"PUSH 4\x001\nPUSH 41\n?cursor\n", 1, "0,1"), (b"PUSH zz", 1, ""),
                         (b"PUSH 41\n?cursor\n", 0, "0,1"), (b"", 0, "")):
    p = subprocess.run([replay, "--vtproto"], input=text, capture_output=True, timeout=60, preexec_fn=limit)
    if p.returncode != code or p.stdout.decode().strip() != want or len(p.stderr.splitlines()) != code:
        failures.append("%r: exit %d (expected %d), stdout %r, stderr %r" % (text, p.returncode, code, p.stdout,
                                                                             p.stderr))

# A good INIT within its bounds still works, and the largest RESIZE the bounds allow is refused no sooner than
# asked (4096 is kmscon-felis-replay --size's bound too).
p = subprocess.run([replay, "--vtproto"], input=b"INIT 2 3 0\n?screen\nRESIZE 1 4096\n?screen\n",
                   capture_output=True, timeout=60, preexec_fn=limit)
a = p.stdout.decode().splitlines()
if p.returncode or len(a) != 2 or json.loads(a[1])["cols"] != 4096 or p.stderr:
    failures.append("INIT 2 3 0, RESIZE 1 4096: exit %d, %r, %r" % (p.returncode, [x[:40] for x in a], p.stderr))

# Replies past the 1 MiB ?output holds (200000 DA queries: 1.8 MB of replies) are dropped to bound memory, and the
# answer that misses them is said on stderr, exit 1: it was answered cut short with exit 0, as if it were all.
# Replies within the bound after that ?output are whole again.
text = ("PUSH " + (b"\x1b[c" * 200000).hex() + "\n?output\nPUSH 1b5b63\n?output\n").encode()
p = subprocess.run([replay, "--vtproto"], input=text, capture_output=True, timeout=60, preexec_fn=limit)
a = p.stdout.decode().splitlines()
err = p.stderr.decode()
if p.returncode != 1 or len(a) != 2 or len(a[0]) > 2 << 20 or len(a[0]) % 18 or a[1] != "1b5b3f36323b323263" or \
        len(err.splitlines()) != 1 or "line 2:" not in err:
    failures.append("replies past 1 MiB: exit %d, answers of %r hex digits, stderr %r" % (
        p.returncode, [len(x) for x in a], err[:300]))

# A line of 64 MiB (run_conformance.py sends 512 KiB): said and dropped, the next query answered, and the peak
# memory grows by less than half of it; getline() kept a buffer as long as the longest line, and PUSH another of
# half that. The peak is read while the process waits for its next command.
def peak_after(line):
    p = subprocess.Popen([replay, "--vtproto"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit)
    p.stdin.write(line + b"\n?cursor\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    kib = peak_kib(p.pid)
    out, err = p.communicate(b"", timeout=60)
    return answer, kib, p.returncode, err


a0, base, rc0, err0 = peak_after(b"PUSH 41")
if rc0 != 0 or a0 != b"0,1\n" or err0:
    failures.append("PUSH 41 alone: exit %d, answer %r, stderr %r" % (rc0, a0, err0[:200]))
a1, big, rc1, err = peak_after(b"PUSH " + b"41" * (32 << 20))
print("peak memory: %d KiB after a short line, %d KiB after a line of 64 MiB" % (base, big))
if rc1 != 1 or a1 != b"0,0\n" or b"line 1:" not in err or len(err.splitlines()) != 1:
    failures.append("a line of 64 MiB: exit %d, answer %r, stderr %r" % (rc1, a1, err[:200]))
# (ASan's quarantine keeps the buffers a growing line went through: 16 MiB more)
if big - base > (64 if asan else 32) << 10:
    failures.append("a line of 64 MiB grew the peak memory by %d KiB" % (big - base))

for f in failures:
    print("FAIL:", f)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
