#!/usr/bin/env python3
"""Whole-program soak: kmscon-felis --backend=headless (an ASan+UBSan build) with real children on real PTYs,
for --seconds of hostile output, unread replies, typed keys and pastes, and children that die.

Usage: soak.py PROGRAM [--seconds N] [--seed S] [--keep] [--keep-going]. Exit status 0 = pass, 1 = fail; the
last lines sum the run up (seed, RSS, fds, CPU, replies received and dropped, latencies).

The run is a chain of "lives": one program run each (headless, the program exits with its child: man page,
--backend), with options drawn at random (screen size, --write-queue-size, --sb-size, --clipboard-read). The
child (this script with --child) mixes at random, with the life's seed: hostile output (huge CSI parameter lists,
endless OSC/DCS strings, REP 2^31, invalid UTF-8, random bytes, the fuzz seeds mutated, OSC 52, mode churn,
styles, links, clusters), every kind of reply request, periods of not reading its input, bursts of reading, and
(in some lives) closing its terminal and opening it again, as login(1) does around vhangup(). Meanwhile this
script types keys and pastes (up to 8 MiB) into --input-fifo, non-blocking: a full FIFO is the program's
back-pressure, never a failure. A life ends in one of five ways:
  clean   the child has the typing stopped, the soak waits for the program to empty the FIFO, the child reads what
          is left and asks DSR 5, the fds are counted, the child writes a known block after RIS and exits;
  exit    the child writes RIS and a marker line, then exits at once with a random status, its input unread;
  signal  the child kills itself (SIGKILL or SIGTERM) in the middle of its output;
  orphan  the child leaves a grandchild that writes without end (ignoring SIGHUP or not), then exits;
  term    the soak sends the program SIGTERM while the child runs (ignoring SIGHUP or not).
Checked for every life: no sanitizer report (ASan, LeakSanitizer at exit, UBSan), the program's exit status is the
child's (0 after SIGTERM), it exits within EXIT_S of the child (5 s of SIGTERM), the child and grandchild are gone
after it (or the grandchild lost its terminal), VmRSS (sampled every 100 ms) stays under RSS_BOUND_KIB, the open fds
never exceed the count at the start by more than FD_SLACK and are back to it at a clean end, the program does not
spin while the child's terminal is closed; every byte typed reaches the child in order once the replies are taken
out of its input (the FIFO path never drops: it reads only what the write queue has room for), all of it at a clean
end, a prefix otherwise; every reply arrives whole (a cut one leaves bytes that are neither key nor reply; only the
last one may be cut, by the end of the session); at a clean end the FIFO is emptied and DSR 5 answered within
RESPONSE_S; the marker or block is on the dumped screen exactly.
"""
import argparse
import ctypes
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_DIRS = [os.path.join(HERE, "..", "fuzz", d) for d in ("seeds", "seeds-render")]

RESPONSE_S = 10      # DSR 5 answered within this, once the child has read what was queued
EXIT_S = 30          # the program exits within this after its child (its drain: at most 4 MiB, 256 budgets)
FD_SLACK = 2         # an OSC 52 clipboard file open for a moment
# ASan build with a 16 MiB quarantine: ~22 MiB idle; the largest life (212x82, 10000 lines of scrollback full, a
# 4 MiB write queue, a 1 MiB string, the clipboard) stays far under this; what input can grow must stay bounded.
RSS_BOUND_KIB = 160 << 10

# Reply requests: DA1-3, DSR (status, CPR, DECXCPR, printer, keyboard, locator, colour scheme), DECRQSS,
# OSC 4/10/11/12 and 52 queries, DECRQCRA, DECRQM, XTWINOPS reports, XTVERSION, kitty keyboard, DECREQTPARM,
# XTGETTCAP, DECRQPSR.
REQUESTS = [b"\033[c", b"\033[>c", b"\033[=c", b"\033[5n", b"\033[6n", b"\033[?6n", b"\033[?15n", b"\033[?26n",
            b"\033[?55n", b"\033[?996n", b"\033P$qm\033\\", b"\033P$qr\033\\", b"\033P$q\"p\033\\",
            b"\033P$q q\033\\", b"\033P$qs\033\\", b"\033]4;1;?\033\\", b"\033]4;255;?\007", b"\033]10;?\007",
            b"\033]11;?\033\\", b"\033]12;?\007", b"\033]52;c;?\007", b"\033[1;1;1;1;1;2*y", b"\033[*y",
            b"\033[?7$p", b"\033[4$p", b"\033[?1049$p", b"\033[18t", b"\033[14t", b"\033[16t", b"\033[19t",
            b"\033[21t", b"\033[20t", b"\033[11t", b"\033[13t", b"\033[>0q", b"\033[?u", b"\033[x",
            b"\033P+q544e;636f6c73\033\\", b"\033[1$w", b"\033[2$w"]

# What the child's input may hold besides the keys: the program's replies, 7-bit or 8-bit (after S8C1T).
REPLY = re.compile(rb"(?:\033\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"
                   rb"|(?:\033P|\x90)[^\033\x9c]*(?:\033\\|\x9c)"
                   rb"|(?:\033\]|\x9d)[^\007\033\x9c]*(?:\007|\033\\|\x9c)")

REPLY_CUT = re.compile(rb"(?:(?:\033\[|\x9b)[\x20-\x3f]*|(?:\033[P\]]|[\x90\x9d])[^\007\033\x9c]*\033?|\033)\Z")

# ---------------------------------------------------------------------------------------------- the child

class Child:
    def __init__(self, a):
        self.a = a
        self.rnd = random.Random(a.seed)
        self.d = a.dir
        self.inp = os.open(os.path.join(self.d, "input.bin"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.stats = {"requests": 0, "out_bytes": 0, "in_bytes": 0, "quiet_s": 0.0}
        self.seeds = []
        self.orphaned = False  # an orphan was forked (fork_orphan)
        for d in SEED_DIRS:
            for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                with open(os.path.join(d, n), "rb") as f:
                    self.seeds.append(f.read())

    def path(self, name):
        return os.path.join(self.d, name)

    def touch(self, name, text=""):
        with open(self.path(name) + ".tmp", "w") as f:
            f.write(text)
        os.rename(self.path(name) + ".tmp", self.path(name))

    def out(self, data):
        self.stats["out_bytes"] += len(data)
        view = memoryview(data)
        while view:
            view = view[os.write(1, view[:65536]):]

    def read_for(self, secs, until=None):
        """Reads the input for secs (or until bytes ending the wanted answer were read); True if it came."""
        end = time.time() + secs
        tail = b""
        while True:
            left = end - time.time()
            if left <= 0:
                return False
            if select.select([0], [], [], min(left, 0.05))[0]:
                b = os.read(0, 1 << 20)
                os.write(self.inp, b)
                self.stats["in_bytes"] += len(b)
                if until is not None:
                    # (an answer followed by keys in the same read is still found)
                    if any(u in tail + b for u in until):
                        return True
                    tail = (tail + b)[-8:]

    def _read_some(self, quiet):
        """Reads what comes within quiet seconds; False if nothing came."""
        if not select.select([0], [], [], quiet)[0]:
            return False
        b = os.read(0, 1 << 20)
        os.write(self.inp, b)
        self.stats["in_bytes"] += len(b)
        return True

    # hostile output
    def hostile(self):
        r = self.rnd
        k = r.randrange(14)
        n = int(2 ** r.uniform(4, 22))  # 16 B .. 4 MiB
        if k == 0:
            return b"\033[" + b"1;" * (n // 2) + b"m"
        if k == 1:
            return b"\033[38:2:" + b"9:" * (n // 2) + b"mx"
        if k == 2:
            return b"\033]" + r.choice([b"0;", b"2;", b"8;;", b"52;c;", b"4;1;", b"1337;"]) + b"t" * n + \
                r.choice([b"\007", b"\033\\", b"\030", b""])
        if k == 3:
            return b"\033P" + r.choice([b"$q", b"q", b"1$t", b"+q", b"2$u"]) + b"m" * n + \
                r.choice([b"\033\\", b"\030", b""])
        if k == 4:
            return b"x\033[2147483647b\033[2147483648b\033[99999999999b" * r.randrange(1, 4)
        if k == 5:  # invalid UTF-8: stray continuations, overlongs, surrogates, F5-FF, cut sequences
            bad = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5",
                   b"\xff", b"\xe4\xb8", b"\xf0\x9f", b"a\xcc", b"\xe4\xb8\xad"]
            return b"".join(r.choice(bad) for _ in range(n // 4 + 1))
        if k == 6:
            return r.randbytes(min(n, 1 << 20))
        if k == 7 and self.seeds:  # a fuzz seed, some bytes changed
            s = bytearray(r.choice(self.seeds))
            for _ in range(r.randrange(0, 8)):
                if s:
                    s[r.randrange(len(s))] = r.randrange(256)
            return bytes(s) * r.randrange(1, 20)
        if k == 8:  # OSC 52 sets, small and over the parser's string cap
            body = b"QUFB" * (n // 4 + 1)
            return b"\033]52;c;" + body + r.choice([b"\007", b"\033\\"])
        if k == 9:  # modes and regions churn
            parts = [b"\033[?1049h", b"\033[?1049l", b"\033[?47h", b"\033[?1047l", b"\033[%d;%dr" % (
                r.randrange(0, 300), r.randrange(0, 300)), b"\033[?69h\033[%d;%ds" % (r.randrange(99), r.randrange(99)),
                b"\033[?6h", b"\033[?6l", b"\033[?40h\033[?3h", b"\033[?3l", b"\033[8;%d;%dt" % (r.randrange(1000), r.randrange(1000)),
                b"\0337", b"\0338", b"\033#8", b"\033[2J", b"\033[3J", b"\033[?2004h", b"\033[?1000h",
                b"\033[22;0t", b"\033[23;0t", b"\033 G", b"\033 F", b"\033(0", b"\033(B", b"\033[4h", b"\033[4l"]
            return b"".join(r.choice(parts) + b"line\r\n" for _ in range(n // 16 + 1))
        if k == 10:  # distinct styles, links, clusters: the tables input can grow
            out = []
            for i in range(n // 32 + 1):
                c = r.randrange(1 << 24)
                out.append(b"\033[38;2;%d;%d;%dm\033]8;id=%d;http://x/%d\033\\\xe4\xb8\xad e\xcc\x81\xcc\x81"
                           b"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x92\xbb" % (c >> 16, c >> 8 & 255, c & 255, i, c))
            return b"".join(out) + b"\033]8;;\033\\\033[m"
        if k == 11:
            return b"e" + b"\xcc\x81" * (n // 2)
        if k == 12:  # plain lines, scrolling the history
            return b"".join(b"%08d the quick brown fox\r\n" % i for i in range(n // 30 + 1))
        reqs = [r.choice(REQUESTS) for _ in range(r.randrange(1, 3000))]
        self.stats["requests"] += len(reqs)
        return b"".join(reqs)

    def phase(self):
        r = self.rnd
        p = r.random()
        if p < 0.03:
            # (not once an orphan writes: it holds the terminal open, so the program rightly parses its
            # output while this child has closed its own descriptors; CI, seed 344155537, life 4: 1.08 s
            # of CPU in 1.18 s, the orphan's OSC 8 floods, taken for a spin)
            if self.a.reopen and not self.orphaned:
                self.reopen()
        elif p < 0.55:
            self.out(self.hostile())
        elif p < 0.7:  # replies asked for while not reading: the write queue fills
            reqs = [r.choice(REQUESTS) for _ in range(r.randrange(1, 5000))]
            self.stats["requests"] += len(reqs)
            self.out(b"".join(reqs))
        elif p < 0.8:  # not reading at all
            t = r.uniform(0.05, 1.5)
            self.stats["quiet_s"] += t
            time.sleep(t)
        else:
            self.read_for(r.uniform(0.02, 1.0))

    def reopen(self):
        """Closes the terminal and opens it again a moment later, as login(1) does around vhangup(): the
        program sees every slave closed (EIO), must not spin on it, and must show what comes after. What the
        kernel held for the closed terminal is discarded by it (the soak then allows gaps in the keys)."""
        import tty
        # The typing pauses first, and what was typed is read: the kernel would discard what the closed
        # terminal held, and the soak checks that every typed byte arrives.
        self.touch("pause")
        t0 = time.time()
        while not os.path.exists(self.path("paused")) and time.time() - t0 < 30:
            self.read_for(0.05)
        while self._read_some(0.3):
            pass
        # and the program has parsed what came before: the reply to a request no other one makes (DECRQM of
        # mode 4747, after a CAN that ends any string or sequence a hostile output left open) comes only after
        # the output before it. Without it the window below measured the parse of the last hostile chunk
        # still in the PTY (under ASan a hostile chunk can take a second), not a closed terminal.
        self.out(b"\030\033[?4747$p")
        self.read_for(30, until=[b"4747;0$y"])
        t0 = time.time()
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(self.rnd.uniform(0.3, 1.5))
        fd = os.open("/dev/tty", os.O_RDWR)
        for k in (1, 2):
            os.dup2(fd, k)
        tty.setraw(0)
        self.stats.setdefault("closed", []).append((t0, time.time()))
        os.unlink(self.path("paused"))
        os.unlink(self.path("pause"))

    def run(self):
        import tty
        tty.setraw(0)
        for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP):  # typed while the terminal is reopened
            signal.signal(sig, signal.SIG_IGN)
        a = self.a
        if a.end == "term" and self.rnd.random() < 0.5:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)  # then the program's SIGKILL after 500 ms ends it
        if a.end == "orphan":
            self.orphan_at = time.time() + a.life * self.rnd.uniform(0.3, 0.9)
        self.touch("started", str(os.getpid()))
        end = time.time() + a.life
        kill_at = time.time() + a.life * self.rnd.uniform(0.1, 1.0)
        orphan = None
        while time.time() < end:
            self.phase()
            if a.end == "signal" and time.time() >= kill_at:
                self.save()
                os.kill(os.getpid(), a.status)
            if a.end == "orphan" and orphan is None and time.time() >= self.orphan_at:
                orphan = self.fork_orphan()
            self.save()
        self.save()
        if a.end == "clean":
            self.clean_end()
        if a.end == "exit":
            self.out(b"\030\033 F\033c" + a.marker.encode())
        if a.end == "signal":
            os.kill(os.getpid(), a.status)
        os._exit(a.status)

    def fork_orphan(self):
        nohup = self.rnd.random() < 0.5
        pid = os.fork()
        if pid == 0:
            # Left behind by its parent, writing without end: as nohup, it survives the SIGHUP the program
            # sends the group, but loses the terminal (EIO) once the program hangs up.
            if nohup:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
            r = random.Random(self.a.seed + 1)
            while True:
                try:
                    os.write(1, self.hostile() if r.random() < 0.5 else b"orphan output\r\n" * 100)
                except OSError as e:
                    self.touch("orphan-lost", str(e.errno))
                    os._exit(0)
        self.touch("orphan.pid", "%d %d" % (pid, nohup))
        self.orphaned = True
        return pid

    def save(self):
        self.touch("child.json", json.dumps(self.stats))

    def clean_end(self):
        a = self.a
        self.touch("final-start")
        t0 = time.time()
        while not os.path.exists(self.path("keys-stopped")):
            self.read_for(0.05)
            if time.time() - t0 > 60:
                self.stats["error"] = "the soak never stopped typing"
                self.save()
                os._exit(99)
        while self._read_some(0.5):
            pass
        # CAN ends any string the hostile output left open, S7C1T asks for 7-bit replies.
        t0 = time.time()
        self.out(b"\030\033 F\033[5n")
        got = self.read_for(RESPONSE_S, until=[b"\033[0n", b"\x9b0n"])
        self.stats["dsr_s"] = time.time() - t0
        if not got:
            self.stats["error"] = "DSR 5 not answered within %d s" % RESPONSE_S
            self.save()
            os._exit(99)
        while self._read_some(0.2):
            pass
        self.save()
        self.touch("final-ready")
        t0 = time.time()
        while not os.path.exists(self.path("final-go")) and time.time() - t0 < 30:
            self._read_some(0.02)
        self.out(b"\033c" + "\r\n".join(final_block(a.seed)).encode())


def final_block(seed):
    r = random.Random(seed ^ 0x5eed)
    chars = "abcdefghijklmnopqrstuvwxyz0123456789 .,:;!?-+=()[]{}<>/"
    # at most 39 columns, so that no line wraps on the smallest screen (40x10); the dump has no trailing blanks
    return [("FINAL %d line %d: %s" % (seed, i, "".join(r.choice(chars) for _ in range(r.randrange(0, 14))))).rstrip()
            for i in range(8)]


# ----------------------------------------------------------------------------------------- the soak side

# Keys: every byte but ESC and the C1 range (0x80-0x9f), so that the replies can be told apart in the child's
# input; UTF-8 only of characters without such bytes. The FIFO path passes bytes through opaque, so what they
# are does not matter to the program.
KEY_TABLE = bytes((b if b != 0x1b else 0x0d) for b in range(128)) * 2
UTF8_KEYS = ["é".encode(), "中".encode(), "ü".encode(), "\u2ea0".encode()]


def make_keys(r, n):
    data = bytearray(r.randbytes(n).translate(KEY_TABLE))
    for _ in range(n // 50):
        i = r.randrange(len(data) + 1)
        data[i:i] = r.choice(UTF8_KEYS)
    return bytes(data)


def make_paste(r, n):
    lines = []
    size = 0
    while size < n:
        line = "".join(r.choice("abcdefghij klmnopqrstuvwxyz0123456789éü中") for _ in range(r.randrange(0, 120)))
        lines.append(line)
        size += len(line) + 1
    return ("\n".join(lines)).encode()[:n]


def no_thp():
    ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0)  # PR_SET_THP_DISABLE: RSS without 2 MiB pages


def proc_kib(pid, key):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def fifo_pending(fd):
    """Bytes in the FIFO that the program has not read yet (FIONREAD)."""
    import fcntl
    import struct
    import termios
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]


def proc_cpu(pid):
    """utime + stime in clock ticks."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            v = f.read().split(")")[1].split()
        return int(v[11]) + int(v[12])
    except (OSError, IndexError, ValueError):
        return None


# fds the program holds for a moment only: an OSC 52 clipboard file written (.clipboard.PID) or read
# (--clipboard-read), its run-queue statistics (/proc/self/schedstat). A count at the start or the end of a life
# that catches one differs by one from the other (seed 1604265517, life 5: 10 at the start, 9 at the end).
TRANSIENT_FD = re.compile(r"/\.?clipboard(\.\d+)?( \(deleted\))?$|/schedstat$")


def count_fds(pid, lasting=False):
    """The program's open fds; with LASTING, those that are not TRANSIENT_FD (the start and end counts, which
    must be equal; the growth bound counts every fd, with FD_SLACK for the transient ones)."""
    d = "/proc/%d/fd" % pid
    try:
        fds = os.listdir(d)
    except OSError:
        return None
    if not lasting:
        return len(fds)
    n = 0
    for fd in fds:
        try:
            if TRANSIENT_FD.search(os.readlink(os.path.join(d, fd))):
                continue
        except OSError:
            continue  # closed meanwhile: not lasting either
        n += 1
    return n


SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|Sanitizer")


class Soak:
    def __init__(self, a):
        self.a = a
        self.prog = os.path.abspath(a.program)
        self.tmp = tempfile.mkdtemp(prefix="kf-soak-")
        self.failures = []
        self.tot = {"lives": 0, "ends": {}, "rss_min": None, "rss_max": 0, "cpu_s": 0.0, "typed": 0, "pasted": 0,
                    "replies": 0, "requests": 0, "dropped_replies": 0, "dropped_reply_bursts": 0,
                    "dropped_keys": 0, "fd_start": [], "fd_end": [], "fd_max": 0,
                    "dsr_max_s": 0.0, "exit_max_s": 0.0, "closed_s": 0.0, "fifo_empty_max_s": 0.0, "closed_cpu_s": 0.0}

    def fail(self, life, msg):
        self.failures.append("life %d (seed %d): %s" % (life["n"], life["seed"], msg))
        print("FAIL life %d: %s" % (life["n"], msg), flush=True)

    def run(self):
        a = self.a
        rnd = random.Random(a.seed)
        start = time.time()
        n = 0
        while True:
            left = a.seconds - (time.time() - start)
            if left < 3 and n > 0:
                break
            n += 1
            span = rnd.uniform(5, 15) if a.seconds <= 120 else rnd.uniform(10, 90)
            last = left - span < 8
            life = {"n": n, "seed": rnd.randrange(1 << 31), "life": max(2.0, left if last else span)}
            life["end"] = "clean" if last else rnd.choice(["clean", "clean", "exit", "signal", "orphan", "term"])
            self.life(life)
            if self.failures and not a.keep_going:
                break
        return not self.failures

    def life(self, L):
        r = random.Random(L["seed"])
        d = os.path.join(self.tmp, "life-%d" % L["n"])
        os.mkdir(d)
        fifo = os.path.join(d, "keys")
        os.mkfifo(fifo)
        dump = os.path.join(d, "screen.txt")
        size = r.choice(["80x24", "132x43", "40x10", "212x82"])
        wq = r.choice(["4K", "64K", "1M", "4M", "4M"])
        opts = ["--size", size, "--write-queue-size=" + wq, "--sb-size=%d" % r.choice([0, 500, 10000])]
        if r.random() < 0.5:
            opts.append("--clipboard-read")
        end = L["end"]
        status = {"clean": r.randrange(3, 120), "exit": r.randrange(3, 120), "orphan": r.randrange(3, 120),
                  "signal": r.choice([signal.SIGKILL, signal.SIGTERM]), "term": 0}[end]
        want = 128 + status if end == "signal" else status
        # term: the program is stopped (SIGTERM) while its child still runs: status 0 (man page, EXIT STATUS)
        term_at = t_term = None
        if end == "term":
            term_at = L["life"] * r.uniform(0.3, 1.0)
        reopen = r.random() < 0.4
        marker = "DIED %d status %d" % (L["seed"], status)
        child = [sys.executable, "-S", os.path.abspath(__file__), "--child", "--dir", d, "--seed", str(L["seed"]),
                 "--life", "%.2f" % (L["life"] * (3 if end == "term" else 1)), "--end", end, "--status", str(int(status)), "--marker", marker] + (["--reopen"] if reopen else [])
        env = dict(os.environ)
        env["KMSCON_FELIS_CLIPBOARD_DIR"] = os.path.join(d, "clip")
        # abort_on_error: a report is a SIGABRT status besides the text; a 16 MiB quarantine still finds a use
        # after free of anything recent without counting 256 MiB of freed blocks as the program's RSS.
        env["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "abort_on_error=1",
                                                     "detect_leaks=1", "quarantine_size_mb=16"]))
        env["UBSAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("UBSAN_OPTIONS", ""), "halt_on_error=1",
                                                      "abort_on_error=1", "print_stacktrace=1"]))
        argv = [self.prog, "--backend=headless", "--dump-screen", dump, "--input-fifo", fifo] + opts
        argv += ["--login", "--"] + child
        print("life %d: seed %d, %.0f s, end %s (status %d), %s%s" % (L["n"], L["seed"], L["life"], end, want,
                                                                       " ".join(opts), ", reopening" if reopen else ""),
              flush=True)
        errf = open(os.path.join(d, "stderr"), "wb")
        proc = subprocess.Popen(argv, cwd=d, env=env, stderr=errf, preexec_fn=no_thp)
        pid = proc.pid
        wfd = None
        typed = bytearray()
        paste = None
        pasted = 0
        stop_keys = None
        keys_stopped = False
        fd_start = fd_end = None
        fd_max = 0
        rss_min, rss_max = None, 0
        cpu = []
        next_sample = 0
        t_start = time.time()
        deadline = t_start + L["life"] + 120
        st = ru = None
        while True:
            p, s, ru_ = os.wait4(pid, os.WNOHANG)
            if p:
                st, ru = os.waitstatus_to_exitcode(s), ru_
                break
            now = time.time()
            if now > deadline:
                proc.kill()
                proc.wait()
                self.fail(L, "the program did not exit within %d s of its child's end" % (now - t_start - L["life"]))
                errf.close()
                return
            if now >= next_sample:
                next_sample = now + 0.1
                v = proc_kib(pid, "VmRSS") if fd_start is not None else None
                if v:
                    rss_min = v if rss_min is None else min(rss_min, v)
                    rss_max = max(rss_max, v)
                c = proc_cpu(pid)
                if c is not None:
                    cpu.append((now, c))
                c = count_fds(pid)
                if c and fd_start is not None:
                    fd_max = max(fd_max, c)
            if wfd is None:
                try:
                    wfd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    time.sleep(0.01)
                    continue
            if term_at is not None and t_term is None and fd_start is not None and now - t_start >= term_at:
                t_term = time.time()
                proc.send_signal(signal.SIGTERM)
            if fd_start is None and os.path.exists(os.path.join(d, "started")):
                time.sleep(0.3)
                fd_start = count_fds(pid, lasting=True)
                fd_max = count_fds(pid) or 0
            if not stop_keys and os.path.exists(os.path.join(d, "final-start")):
                stop_keys = now  # whatever is left of a paste is not typed: the child reads all the rest
            if stop_keys and not keys_stopped:
                # the program has taken every byte out of the FIFO while the child reads (responsiveness)
                if fifo_pending(wfd) == 0:
                    keys_stopped = True
                    self.tot["fifo_empty_max_s"] = max(self.tot["fifo_empty_max_s"], now - stop_keys)
                    open(os.path.join(d, "keys-stopped"), "w").close()
                elif now - stop_keys > RESPONSE_S:
                    keys_stopped = True
                    self.fail(L, "the FIFO still holds %d bytes %d s after the typing stopped, the child reading"
                              % (fifo_pending(wfd), RESPONSE_S))
                    open(os.path.join(d, "keys-stopped"), "w").close()
            if fd_end is None and os.path.exists(os.path.join(d, "final-ready")):
                fd_end = count_fds(pid, lasting=True)
                open(os.path.join(d, "final-go"), "w").close()
            pause = os.path.exists(os.path.join(d, "pause"))
            if pause and not os.path.exists(os.path.join(d, "paused")) and fifo_pending(wfd) == 0:
                open(os.path.join(d, "paused"), "w").close()
            if stop_keys is None and fd_start is not None and not pause:
                # (not before the child is in raw mode: a ^C would be SIGINT) typing, a paste in pieces, or nothing; a full FIFO keeps the rest for the next turn
                if paste is None and r.random() < 0.01:
                    paste = memoryview(make_paste(r, int(2 ** r.uniform(10, 23))))
                    pasted += len(paste)
                data = paste if paste is not None else (make_keys(r, r.randrange(1, 64))
                                                         if r.random() < 0.5 else b"")
                if data:
                    try:
                        k = os.write(wfd, data)
                    except (BlockingIOError, BrokenPipeError):  # full; or the program is gone
                        k = 0
                    typed += data[:k]
                    if paste is not None:
                        paste = paste[k:] if k < len(paste) else None
            time.sleep(r.uniform(0.001, 0.02))
        t_exit = time.time()
        errf.close()
        if wfd is not None:
            os.close(wfd)
        self.check(L, d, st, want, ru, bytes(typed), dump, marker, t_exit, reopen, cpu, t_term)
        self.tot["lives"] += 1
        self.tot["ends"][end] = self.tot["ends"].get(end, 0) + 1
        self.tot["rss_min"] = rss_min if self.tot["rss_min"] is None else min(self.tot["rss_min"], rss_min or 1e12)
        self.tot["rss_max"] = max(self.tot["rss_max"], rss_max)
        self.tot["typed"] += len(typed)
        self.tot["pasted"] += pasted
        self.tot["fd_max"] = max(self.tot["fd_max"], fd_max)
        if fd_start is not None:
            self.tot["fd_start"].append(fd_start)
        if fd_end is not None:
            self.tot["fd_end"].append(fd_end)
        print("  exit %s after %.1f s; RSS %s..%s KiB; fds %s..%s, %s at the end; cpu %.1f s; typed %d KiB"
              % (st, t_exit - t_start, rss_min, rss_max, fd_start, fd_max, fd_end,
                 ru.ru_utime + ru.ru_stime if ru else 0, len(typed) >> 10), flush=True)
        if rss_max > RSS_BOUND_KIB:
            self.fail(L, "VmRSS %d KiB over the bound %d KiB" % (rss_max, RSS_BOUND_KIB))
        if fd_start is None:
            self.fail(L, "the child never started")
        elif fd_max > fd_start + FD_SLACK:
            self.fail(L, "open fds grew from %d to %d" % (fd_start, fd_max))
        if end == "clean" and fd_end != fd_start:
            self.fail(L, "open fds: %s at the start, %s at the end" % (fd_start, fd_end))
        if not self.failures and not self.a.keep:
            subprocess.run(["rm", "-rf", d])

    def check(self, L, d, st, want, ru, typed, dump, marker, t_exit, reopen, cpu, t_term):
        end = L["end"]
        self.tot["cpu_s"] += ru.ru_utime + ru.ru_stime if ru else 0
        with open(os.path.join(d, "stderr"), encoding="utf-8", errors="replace") as f:
            err = f.read()
        m = SANITIZER.search(err)
        if m:
            i = err.rfind("\n", 0, m.start()) + 1
            self.fail(L, "sanitizer report:\n" + err[i:i + 3000])
        for m in re.finditer(r"write queue: (\d+) replies to the child were dropped", err):
            self.tot["dropped_replies"] += int(m.group(1))
        self.tot["dropped_reply_bursts"] += err.count("write queue full: dropping a")
        for m in re.finditer(r"write queue: (\d+) key writes were dropped", err):
            self.tot["dropped_keys"] += int(m.group(1))
        if "dropping keys until it reads" in err or re.search(r"dropping \d+ input bytes", err):
            self.fail(L, "typed bytes dropped (the FIFO path has back-pressure): %s"
                      % [x for x in err.splitlines() if "dropping" in x][:3])
        if st != want:
            self.fail(L, "exit status %s, the child's was %d; log tail: %r" % (st, want, err[-600:]))
        try:
            with open(os.path.join(d, "child.json")) as f:
                cs = json.load(f)
        except (OSError, ValueError):
            cs = {}
        if t_term is not None:
            self.tot["exit_max_s"] = max(self.tot["exit_max_s"], t_exit - t_term)
            if t_exit - t_term > 5:
                self.fail(L, "the program took %.1f s to stop after SIGTERM" % (t_exit - t_term))
            with open(os.path.join(d, "started")) as f:
                cpid = int(f.read())
            if os.path.exists("/proc/%d" % cpid):
                self.fail(L, "the child %d survived the program's SIGTERM" % cpid)
                os.kill(cpid, signal.SIGKILL)
        # a closed terminal (reopen): the program waits for the child, it does not spin
        for t0, t1 in cs.get("closed", []):
            inside = [c for c in cpu if t0 + 0.1 <= c[0] <= t1]
            if len(inside) >= 3:
                used = (inside[-1][1] - inside[0][1]) / os.sysconf("SC_CLK_TCK")
                wall = inside[-1][0] - inside[0][0]
                self.tot["closed_s"] += wall
                self.tot["closed_cpu_s"] += used
                if used > 0.5 * wall:
                    self.fail(L, "%.2f s of CPU in %.2f s while the child's terminal was closed" % (used, wall))
        if cs.get("error"):
            self.fail(L, "child: " + cs["error"])
        self.tot["requests"] += cs.get("requests", 0)
        if "dsr_s" in cs:
            self.tot["dsr_max_s"] = max(self.tot["dsr_max_s"], cs["dsr_s"])
        died = os.path.getmtime(os.path.join(d, "child.json")) if cs else None
        if died and end != "term":
            self.tot["exit_max_s"] = max(self.tot["exit_max_s"], t_exit - died)
            if t_exit - died > EXIT_S:
                self.fail(L, "the program exited %.1f s after its child" % (t_exit - died))
        if os.path.exists(os.path.join(d, "orphan.pid")):
            with open(os.path.join(d, "orphan.pid")) as f:
                opid, nohup = map(int, f.read().split())
            # Without nohup it dies of the SIGHUP; with it, its next write fails (the terminal is gone) and it
            # exits: either way it is gone soon after the program.
            t0 = time.time()
            while os.path.exists("/proc/%d" % opid) and time.time() - t0 < 5:
                time.sleep(0.05)
            if os.path.exists("/proc/%d" % opid):
                self.fail(L, "the grandchild %d (nohup %d) still runs 5 s after the program: the terminal was "
                          "not hung up" % (opid, nohup))
                os.kill(opid, signal.SIGKILL)
            lost = os.path.exists(os.path.join(d, "orphan-lost"))
            if lost != bool(nohup):
                self.fail(L, "the grandchild (nohup %d) %s its terminal" % (nohup, "lost" if lost else "never lost"))
        # the keys, in order, once the replies are taken out
        try:
            with open(os.path.join(d, "input.bin"), "rb") as f:
                got = f.read()
        except OSError:
            got = b""
        replies = REPLY.findall(got)
        self.tot["replies"] += len(replies)
        keys = REPLY.sub(b"", got)
        if end != "clean":
            # the end of the session cuts what was on its way: the last reply may have come in part
            keys = REPLY_CUT.sub(b"", keys)
        ok = keys == typed if end == "clean" else typed.startswith(keys)
        if not ok:
            i = next((i for i in range(min(len(keys), len(typed))) if keys[i] != typed[i]), min(len(keys), len(typed)))
            self.fail(L, "the child's input is not what was typed%s: %d key bytes received, %d typed, first "
                      "difference at %d: got %r, typed %r" % (" (all of it)" if end == "clean" else " (a prefix)",
                                                              len(keys), len(typed), i, keys[i - 20:i + 40],
                                                              typed[i - 20:i + 40]))
        try:
            with open(dump, encoding="utf-8", errors="replace") as f:
                screen = f.read().split("\n")[:-1]
        except OSError as e:
            self.fail(L, "no screen dump: %s" % e)
            return
        if end == "clean":
            block = final_block(L["seed"])
            if screen[:len(block)] != block or any(x.strip() for x in screen[len(block):]):
                self.fail(L, "the final block is not on the screen exactly: %r" % screen[:len(block) + 2])
        if end == "exit" and (not screen or screen[0] != marker):
            self.fail(L, "the marker written before the exit is not on the screen: %r" % screen[:2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("program", nargs="?")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep every life's files (in /tmp/kf-soak-*)")
    ap.add_argument("--keep-going", action="store_true", help="go on after a failed life")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    ap.add_argument("--life", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--end", help=argparse.SUPPRESS)
    ap.add_argument("--status", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--marker", help=argparse.SUPPRESS)
    ap.add_argument("--reopen", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        Child(a).run()
        return 0
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 31)
    print("soak: seed %d, %g s (again: %s %s --seed %d --seconds %g)"
          % (a.seed, a.seconds, sys.argv[0], a.program, a.seed, a.seconds), flush=True)
    s = Soak(a)
    t0 = time.time()
    ok = s.run()
    t = s.tot
    print("soak: seed %d, %.0f s, %d lives %s; program RSS %s..%s KiB (bound %d); fds at start %s, at a clean "
          "end %s, max %d; CPU %.1f s; typed %d KiB (pastes %d KiB); replies %d received for %d own requests, "
          "%d dropped in %d bursts (log); key writes dropped %d; the FIFO emptied within %.2f s of the typing's end, DSR answered within %.3f s; exit after the "
          "child (or SIGTERM) within %.2f s; terminal closed %.1f s, program CPU meanwhile %.2f s" % (a.seed, time.time() - t0, t["lives"], json.dumps(t["ends"], sort_keys=True),
                                    t["rss_min"], t["rss_max"], RSS_BOUND_KIB, sorted(set(t["fd_start"])),
                                    sorted(set(t["fd_end"])), t["fd_max"], t["cpu_s"], t["typed"] >> 10,
                                    t["pasted"] >> 10, t["replies"], t["requests"], t["dropped_replies"],
                                    t["dropped_reply_bursts"], t["dropped_keys"], t["fifo_empty_max_s"], t["dsr_max_s"],
                                    t["exit_max_s"], t["closed_s"], t["closed_cpu_s"]), flush=True)
    if ok:
        subprocess.run(["rm", "-rf", s.tmp])
        print("ok")
        return 0
    print("soak FAILED (files in %s):" % s.tmp)
    for f in s.failures:
        print("  " + f)
    return 1


if __name__ == "__main__":
    sys.exit(main())
