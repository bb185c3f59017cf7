#!/usr/bin/env python3
"""Live tests of the whole program: kmscon-felis --backend=headless with real children on real PTYs.

Usage: test-live.py PROGRAM TEST. Keys are injected through --input-fifo (the keystroke path); the screen is
read from --dump-screen. Exit status 0 = pass, 1 = fail.
"""
import base64
import ctypes
import os
import random
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time

PROG = os.path.abspath(sys.argv[1])
# The --timeout-multiplier of the stage that runs meson test (tests/run-all: 2 under ASan+UBSan; tests/kf-alarm.h):
# the waits sized for the slowest runs (flood_keys took 61 s of its 120 under ASan on a loaded host) grow with it.
try:
    SLOW = max(1, min(10, int(os.environ.get("KF_TEST_TIMEOUT_MULTIPLIER", "1"))))
except ValueError:
    SLOW = 1
TMP = tempfile.mkdtemp(prefix="kf-live-")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


STARTED = []  # every process popen() started: stop_all() ends those still running when the test ends


def popen(argv, **kw):
    """subprocess.Popen, and the process is stopped when the test ends, failed or not (stop_all)."""
    p = subprocess.Popen(argv, **kw)
    STARTED.append(p)
    return p


def stop_all():
    """A failure (fail() raises SystemExit) must not leave a program running until meson's timeout: SIGTERM
    (the program ends its child and exits), then SIGKILL after 5 s."""
    for p in STARTED:
        if p.poll() is not None:
            continue
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class Run:
    """One program run. args: extra options; cmd: the child argv."""

    def __init__(self, cmd, size="80x24", args=(), fifo=False, measure=False, stderr=None, preexec=None):
        """measure: the run's peak RSS is compared (MEASURE_ENV, no_thp); stderr: a file for the log; preexec: run
        in the program's process before its exec (not with measure)."""
        self.dump = os.path.join(TMP, "screen-%d.txt" % random.randrange(1 << 30))
        self.fifo = None
        argv = [PROG, "--backend=headless", "--size", size, "--dump-screen", self.dump]
        argv += list(args)
        if fifo:
            self.fifo = os.path.join(TMP, "keys-%d" % random.randrange(1 << 30))
            os.mkfifo(self.fifo)
            argv += ["--input-fifo", self.fifo]
        argv += ["--login", "--"] + list(cmd)
        self.proc = popen(argv, cwd=TMP, env=MEASURE_ENV if measure else None,
                                     preexec_fn=no_thp if measure else preexec, stderr=stderr)
        self.wfd = None
        self.status = None
        self.rusage = None

    def keys_fd(self):
        """Opens the FIFO for writing once the program holds it open (non-blocking writes)."""
        if self.wfd is None:
            end = time.time() + 10
            while True:
                try:
                    self.wfd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
                    break
                except OSError:
                    if time.time() > end:
                        fail("the program never opened its input FIFO")
                    time.sleep(0.01)
        return self.wfd

    def type(self, data, timeout=30):
        """Writes all of data into the FIFO, waiting while it is full (the program's back-pressure)."""
        fd = self.keys_fd()
        end = time.time() + timeout
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
                view = view[n:]
            except BlockingIOError:
                if time.time() > end:
                    fail("the program stopped taking input")
                time.sleep(0.001)

    def wait(self, timeout=30):
        end = time.time() + timeout
        while True:
            pid, st, ru = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
                self.rusage = ru
                self.proc.returncode = self.status
                break
            if time.time() > end:
                self.proc.kill()
                self.proc.wait()
                fail("the program did not exit within %d s" % timeout)
            time.sleep(0.01)
        if self.wfd is not None:
            os.close(self.wfd)
        return self.status

    def screen(self):
        with open(self.dump, encoding="utf-8") as f:
            return f.read().split("\n")[:-1]

    def proc_status(self, key):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0


def wait_file(path, timeout=10):
    end = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > end:
            fail("%s never appeared" % path)
        time.sleep(0.005)


def t_echo():
    r = Run(["sh", "-c", "read -r line; echo \"child got [$line]\""], fifo=True)
    r.type(b"hello world\n")
    if r.wait() != 0:
        fail("status %s" % r.status)
    s = r.screen()
    if len(s) != 24:
        fail("dump has %d lines, not 24" % len(s))
    if "child got [hello world]" not in s:
        fail("screen: %r" % s[:4])


def t_small_queue():
    """--input-fifo with a write queue smaller than one FIFO read (--write-queue-size takes 4K and up): the typed
    line still reaches the child, and five times what the queue holds goes through with back-pressure."""
    # The echo of what is typed scrolls the screen: clear it before the result.
    r = Run(["sh", "-c", "read -r line; n=$(head -c 20000 | wc -c); printf '\\033[H\\033[2J';"
             " echo \"child got [$line] $n\""], fifo=True, args=["--write-queue-size=4K", "--oneshot"])
    r.type(b"hello world\n", timeout=5)
    r.type((b"y" * 99 + b"\n") * 200, timeout=5)
    if r.wait(10) != 0:
        fail("status %s" % r.status)
    s = r.screen()
    if s[0] != "child got [hello world] 20000":
        fail("screen: %r" % s[:4])


def t_env_fds():
    # The shell's own descriptors, listed by a child while the shell does nothing else: with "ls | tr" the
    # shell still held the pipe's read end (fd 3) for tr while ls ran, and with "ls > file" dash keeps its
    # saved stdout (fd 10), both of which showed as leaks. ls writes to the terminal in columns.
    r = Run(["sh", "-c", "ls /proc/$$/fd; echo \"T=$TERM C=$COLORTERM\""],
            size="60x5", args=["--term", "kf-term-test"])
    if r.wait() != 0:
        fail("status %s" % r.status)
    s = r.screen()
    if s[0].split() != ["0", "1", "2"] or s[1] != "T=kf-term-test C=truecolor":
        fail("screen: %r" % s)
    r = Run(["sh", "-c", "echo \"S=$XDG_SEAT V=$XDG_VTNR\"; env | sort | tr '\\n' ' '"], size="200x5",
            args=["--seat", "seat7", "--vt", "5"])
    if r.wait() != 0:
        fail("status %s" % r.status)
    s = r.screen()
    if s[0] != "S=seat7 V=5" or "HOME=" in s[1] or "TERM=xterm-256color" not in s[1]:
        fail("screen: %r" % s)
    # seat0 without a known VT (--seat given, --vt auto) is not passed on: logind refuses seat=seat0 vtnr=0
    # (docs/seat.md), and pam_systemd then gave the user no session of their own. Another seat has no VTs
    # and is passed on alone.
    for seat, want in (("seat0", "S= V="), ("seat1", "S=seat1 V=")):
        r = Run(["sh", "-c", "echo \"S=$XDG_SEAT V=$XDG_VTNR\""], size="40x2", args=["--seat", seat])
        if r.wait() != 0 or r.screen()[0] != want:
            fail("--seat %s without --vt: status %s, screen %r" % (seat, r.status, r.screen()))


def t_last_line():
    for i in range(5):
        r = Run(["sh", "-c", "seq 1 20000; printf 'THE LAST LINE %d'" % i], size="40x10", args=["--oneshot"])
        if r.wait() != 0:
            fail("status %s" % r.status)
        s = r.screen()
        if "THE LAST LINE %d" % i not in s:
            fail("last line missing: %r" % s)


def t_oneshot_status():
    for cmd, want in ((["sh", "-c", "exit 7"], 7), (["true"], 0), (["sh", "-c", "kill -9 $$"], 137),
                      (["/nonexistent/program"], 127)):
        r = Run(cmd, args=["--oneshot"])
        if r.wait() != want:
            fail("%r: status %s, expected %d" % (cmd, r.status, want))
    s = r.screen()
    if not any("/nonexistent/program" in line for line in s):
        fail("exec failure not shown: %r" % s[:3])
    # ... and in the log: it said nothing (headless), or "exited with status 127" (a display).
    p = subprocess.run([PROG, "--backend=headless", "--login", "--", "/nonexistent/program"],
                       stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 127 or "cannot run /nonexistent/program: No such file or directory" not in err:
        fail("exec failure: status %d, log %r" % (p.returncode, err))


def t_nofile():
    """The program raises its soft limit of descriptors to the hard one (many input devices, PTY, DRM, timers),
    and gives its child the soft limit it was started with: programs that use select() (FD_SETSIZE 1024) under
    the login must not get descriptors above 1024."""
    soft, hard = 256, 4096
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < hard:
        fail("the hard limit of descriptors here is below %d: cannot test" % hard)
    r = Run(["sh", "-c", "echo \"child $(ulimit -Sn) $(ulimit -Hn)\"; grep 'open files' /proc/$PPID/limits"],
            size="80x3", preexec=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard)))
    if r.wait() != 0:
        fail("status %s" % r.status)
    s = r.screen()
    parent = s[1].split()[3:5] if len(s) > 1 else []
    if s[0] != "child %d %d" % (soft, hard) or parent != [str(hard), str(hard)]:
        fail("started with %d/%d: want the child's limit %d/%d and the program's %d/%d, screen %r"
             % (soft, hard, soft, hard, hard, hard, s))


def t_paste_deadlock():
    """16 MiB into a child that echoes everything (raw mode tee): completes, identical, memory bounded."""
    size = 16 << 20
    rnd = random.Random(3)
    line = bytes(rnd.randrange(32, 127) for _ in range(4096))
    data = bytearray()
    while len(data) < size:
        n = rnd.randrange(1, 200)
        off = rnd.randrange(0, 4096 - n)
        data += line[off:off + n] + b"\n"
    data = bytes(data[:size])
    out = os.path.join(TMP, "pasted")
    ready = os.path.join(TMP, "ready-paste")
    done = os.path.join(TMP, "done-paste")
    # The child waits after tee so that the program's peak RSS can be read while it still runs (see
    # baseline_rss: the rusage of a waited process also holds this script's RSS at the fork).
    r = Run(["sh", "-c", "stty raw -echo; touch %s; head -c %d | tee %s; touch %s; exec sleep 60"
             % (ready, size, out, done)], size="212x82", args=["--sb-size=0"], fifo=True,
            measure=True)
    wait_file(ready)
    t0 = time.time()
    r.type(data, timeout=60)
    wait_file(done, timeout=60)
    dt = time.time() - t0
    rss = r.proc_status("VmHWM")
    r.proc.send_signal(signal.SIGTERM)
    if r.wait(10) != 0:
        fail("status %s" % r.status)
    with open(out, "rb") as f:
        got = f.read()
    if got != data:
        fail("the child received %d bytes, not the %d typed (or different ones)" % (len(got), size))
    base = baseline_rss()
    print("16 MiB through the echo path in %.2f s; max RSS %d KiB (baseline %d KiB, queue 4096 KiB)"
          % (dt, rss, base))
    if rss > base + 4096 + 2048:
        fail("memory grew beyond the write queue: %d KiB" % rss)


_base = None

# For the runs whose peak RSS is compared, two things that are not the program's memory are turned off:
# - ASan's quarantine (256 MiB by default): freed blocks wait there instead of being reused, so the write
#   queue's growth by doubling (64 KiB .. 4 MiB, each old block freed) showed as ~4.4 MiB more resident memory
#   than the program holds. Leak checking is unchanged; a normal build ignores the variable.
# - transparent huge pages (PR_SET_THP_DISABLE, inherited by the program): with THP "always" a run's peak
#   moved by up to 6 MiB from one run to the next depending on which regions got 2 MiB pages.
MEASURE_ENV = dict(os.environ)
MEASURE_ENV["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS", ""), "quarantine_size_mb=0"]))


def no_thp():
    PR_SET_THP_DISABLE = 41
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)


def baseline_rss():
    """The program's peak RSS (KiB) at 212x82 with an idle child, read from /proc while it runs: ru_maxrss of
    the waited process is no good here, since a child's high-water mark starts from its parent's (this
    script's) resident size at the fork."""
    global _base
    if _base is None:
        ready = os.path.join(TMP, "ready-base")
        r = Run(["sh", "-c", "touch %s; exec sleep 60" % ready], size="212x82", measure=True)
        wait_file(ready)
        time.sleep(0.3)
        _base = r.proc_status("VmHWM")
        r.proc.send_signal(signal.SIGTERM)
        r.wait(10)
    return _base


def t_flood_keys():
    """A child writes 256 MiB while keys are typed: every key arrives, in order."""
    size = int(os.environ.get("KF_FLOOD_MIB", "256")) << 20
    nkeys = 3000
    ready = os.path.join(TMP, "ready-flood")
    keys_out = os.path.join(TMP, "keys-got")
    script = ("stty raw -echo; touch %s; (head -c %d /dev/zero | tr '\\0' a) & head -c %d > %s; wait"
              % (ready, size, nkeys, keys_out))
    r = Run(["sh", "-c", script], size="212x82", fifo=True)
    wait_file(ready)
    rnd = random.Random(5)
    keys = bytes(rnd.randrange(33, 127) for _ in range(nkeys))
    t0 = time.time()
    for i in range(0, nkeys, 10):
        r.type(keys[i:i + 10])
        time.sleep(0.0005)
    if r.wait(120 * SLOW) != 0:
        fail("status %s" % r.status)
    with open(keys_out, "rb") as f:
        got = f.read()
    print("%d MiB flood with %d keys typed: %.2f s" % (size >> 20, nkeys, time.time() - t0))
    if got != keys:
        fail("keys: got %d, in order %s" % (len(got), got == keys[:len(got)]))


def t_idle():
    """Nothing to do: no wake-ups at all (context switches over 5 s)."""
    # The 5 s start once the program has settled: its child runs sleep (until then the program waits for the
    # exec's report) and the program's count has not moved for 0.3 s; not after a fixed 0.5 s, which took for
    # granted that the start is over by then (the FIFO opens first; the last switches of the start came up to
    # 0.15 s later here, under ASan with the CPUs 4x oversubscribed). A program that never settles (a timer every
    # 0.3 s or less) fails here, one woken less often in the 5 s.
    r = Run(["sleep", "60"], fifo=True)
    r.keys_fd()
    switches = lambda: r.proc_status("voluntary_ctxt_switches") + r.proc_status("nonvoluntary_ctxt_switches")
    end = time.time() + 10
    while not any(comm_of(pid) == "sleep" for pid in children_of(r.proc.pid)):
        if time.time() > end:
            r.proc.kill()
            fail("the child never ran sleep")
        time.sleep(0.01)
    c0 = first = switches()
    since = time.time()
    while time.time() - since < 0.3:
        if time.time() > end:
            r.proc.kill()
            fail("the program never went idle: %d context switches since its child ran sleep" % (switches() - first))
        time.sleep(0.01)
        if switches() != c0:
            c0, since = switches(), time.time()
    time.sleep(5)
    c1 = switches()
    print("context switches over 5 s idle: %d" % (c1 - c0))
    r.proc.send_signal(signal.SIGTERM)
    if r.wait() != 0:
        fail("SIGTERM: status %s" % r.status)
    if c1 - c0 > 2:
        fail("%d context switches while idle" % (c1 - c0))


def comm_of(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return None


def children_of(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def t_hostile():
    """A child that never reads while we type: the queue bound is hit, nothing blocks, shutdown is clean."""
    # Raw mode: the kernel's own buffer fills and stays full (in canonical mode it would discard input
    # beyond 4095 bytes per line and keep accepting).
    # Typing starts once the child has set raw mode (it says so with a file): after a fixed 0.2 s, a child
    # started late on a busy machine was still in canonical mode, which takes any amount.
    ready = os.path.join(TMP, "ready-hostile")
    r = Run(["sh", "-c", "trap '' HUP; stty raw -echo; touch %s; exec sleep 60" % ready], fifo=True,
            measure=True)
    fd = r.keys_fd()
    wait_file(ready)
    child = children_of(r.proc.pid)
    chunk = b"x" * 65536
    written = 0
    end = time.time() + 5
    while time.time() < end and written < (64 << 20):
        try:
            written += os.write(fd, chunk)
        except BlockingIOError:
            time.sleep(0.01)
    rss = r.proc_status("VmHWM")
    # The program is still responsive: SIGTERM ends it at once, and the child that ignores SIGHUP is killed.
    t0 = time.time()
    r.proc.send_signal(signal.SIGTERM)
    if r.wait(5) != 0:
        fail("status %s" % r.status)
    print("hostile child: %d KiB typed before back-pressure, max RSS %d KiB, exit in %.2f s"
          % (written >> 10, rss, time.time() - t0))
    # What fits: the FIFO (64 KiB), one read in flight, the write queue (4 MiB), the kernel's PTY buffers.
    if written > (4 << 20) + (1 << 20):
        fail("no back-pressure: %d bytes accepted" % written)
    if rss > baseline_rss() + 4096 + 2048:
        fail("memory grew beyond the write queue: %d KiB" % rss)
    for pid in child:
        if os.path.exists("/proc/%d" % pid):
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(")")[1].split()[0] != "Z":
                    fail("child %d survived the shutdown" % pid)


REPLY_CHILD = r"""
import os, select, sys, time, tty
tty.setraw(0)
os.write(1, sys.argv[2].encode("latin-1") + b"\033[5n")
buf = b""
end = time.time() + 20
while not buf.endswith(b"\033[0n") and time.time() < end:
    if select.select([0], [], [], 1)[0]:
        buf += os.read(0, 4096)
with open(sys.argv[1], "wb") as f:
    f.write(buf)
"""


def replies(queries, size="20x5", args=()):
    """The bytes the program answers to queries written by a child in raw mode (up to DSR 5's answer)."""
    out = os.path.join(TMP, "replies-%d" % random.randrange(1 << 30))
    r = Run([sys.executable, "-c", REPLY_CHILD, out, queries], size=size, args=list(args) + ["--oneshot"])
    if r.wait() != 0:
        fail("reply child: status %s" % r.status)
    with open(out, "rb") as f:
        got = f.read()
    if not got.endswith(b"\033[0n"):
        fail("no answer to DSR 5 within 20 s: %r" % got)
    return got[:-4]


def t_replies():
    """The replies the conformance suites need (issue 3): DA1, DA2, CPR, DECRQM, DECRQSS, CSI 18 t, DECRQCRA,
    through the whole program: grid -> reply callback -> PTY write queue -> the child."""
    q = ("Hi\033[c\033[>c\033[6n\033[?7$p\033P$qm\033\\\033[18t"
         "\033[1;1;1;1;1;2*y\033[2;1;1;1;1;1*y\033[*y")
    want = (b"\033[?62;22c\033[>1;10;0c\033[1;3R\033[?7;1$y\033P1$r0m\033\\\033[8;5;20t"
            b"\033P1!~FF4F\033\\\033P2!~FFB8\033\\\033P0!~FF4F\033\\")
    got = replies(q)
    if got != want:
        fail("replies: got %r want %r" % (got, want))


def t_colors():
    """OSC 4/10/11/12 queries report the colours the display paints with (--palette, --palette-<name>), and
    OSC 104/110 go back to them: the program gives the grid the renderer's palette (main.c config_colors)."""
    q = "\033]4;1;?\033\\\033]10;?\033\\\033]11;?\033\\\033]12;?\033\\\033]4;1;#000001\033\\\033]104\033\\\033]4;1;?\033\\"
    got = replies(q, args=["--palette", "solarized"])
    want = (b"\033]4;1;rgb:dcdc/3232/2f2f\033\\\033]10;rgb:eeee/e8e8/d5d5\033\\\033]11;rgb:0707/3636/4242\033\\"
            b"\033]12;rgb:eeee/e8e8/d5d5\033\\\033]4;1;rgb:dcdc/3232/2f2f\033\\")
    if got != want:
        fail("solarized: got %r want %r" % (got, want))
    q = "\033]4;1;?\033\\\033]4;2;?\033\\\033]4;100;?\033\\\033]11;?\033\\"
    got = replies(q, args=["--palette", "custom", "--palette-red=1,2,3", "--palette-background=4,5,6"])
    want = (b"\033]4;1;rgb:0101/0202/0303\033\\\033]4;2;rgb:0000/cdcd/0000\033\\\033]4;100;rgb:8787/8787/0000\033\\"
            b"\033]11;rgb:0404/0505/0606\033\\")
    if got != want:
        fail("custom: got %r want %r" % (got, want))


def read_clipboard(d):
    try:
        with open(os.path.join(d, "clipboard"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def t_osc52():
    """OSC 52 from an application sets the clipboard every instance shares (issue 6, main.c on_osc52 ->
    clipboard.c); an OSC 52 over the parser's string cap (1 MiB) is dropped whole, memory stays bounded, and
    the output after it is still shown."""
    clip = os.path.join(TMP, "clip")
    os.environ["KMSCON_FELIS_CLIPBOARD_DIR"] = clip
    r = Run(["printf", "\\033]52;c;aGk=\\007"], args=["--oneshot"])
    if r.wait() != 0:
        fail("status %s" % r.status)
    got = read_clipboard(clip)
    if got != b"hi":
        fail("clipboard after OSC 52 'aGk=': %r, not b'hi'" % got)
    # 24 MiB of base64 in one OSC 52 ('QUFB' = 'AAA'), then a visible line; written in pieces so that this
    # script stays small (a child's max RSS starts at its parent's at fork).
    big = os.path.join(TMP, "big-osc52")
    with open(big, "wb") as f:
        f.write(b"\033]52;c;")
        for _ in range(24):
            f.write(b"QUFB" * (1 << 18))
        f.write(b"\007AFTER THE BIG ONE")
    small = os.path.join(TMP, "small-osc52")
    with open(small, "wb") as f:
        f.write(b"\033]52;c;aGk=\007AFTER THE BIG ONE")
    base, _, _ = hwm_run(small)
    hwm, got, s = hwm_run(big)
    print("24 MiB OSC 52: clipboard %r, peak RSS %d KiB (%d KiB with a 4-byte one)"
          % (got if got is None or len(got) < 16 else got[:16] + b"...", hwm, base))
    if got != b"hi":
        fail("an oversized OSC 52 changed the clipboard (%s bytes)" % (None if got is None else len(got)))
    if not any("AFTER THE BIG ONE" in line for line in s):
        fail("the output after the oversized OSC 52 is missing: %r" % s[:3])
    if hwm > base + 4096:
        fail("memory grew with the oversized OSC 52: %d KiB, %d KiB with a small one" % (hwm, base))


def t_osc52_read():
    """With --clipboard-read, an OSC 52 query gets the shared clipboard back in base64, ending as the query did
    (main.c on_osc52_get -> clipboard.c); without it, no answer at all (the default: any program on the
    terminal could read what was copied)."""
    clip = os.path.join(TMP, "clip-read")
    os.environ["KMSCON_FELIS_CLIPBOARD_DIR"] = clip
    r = Run(["printf", "\\033]52;c;aMOpdMOpIQo=\\007"], args=["--oneshot"])
    if r.wait() != 0 or read_clipboard(clip) != "hété!\n".encode():
        fail("setting the clipboard: status %s, %r" % (r.status, read_clipboard(clip)))
    got = replies("\033]52;c;?\033\\\033]52;;?\007", args=["--clipboard-read"])
    want = b"\033]52;c;aMOpdMOpIQo=\033\\\033]52;s0;aMOpdMOpIQo=\007"
    if got != want:
        fail("--clipboard-read: got %r want %r" % (got, want))
    got = replies("\033]52;c;?\033\\")
    if got != b"":
        fail("without --clipboard-read: got %r, want no answer" % got)
    # A clipboard whose reply does not fit the write queue (a selection copied on another VT can reach 4 MiB):
    # the reply is dropped whole, never cut, and the terminal goes on answering (the DSR after it); one that
    # fits comes whole.
    for size, fits in ((40000, True), (100000, False)):
        data = bytes(random.Random(size).choice(b"abc\xc3\xa9\n") for _ in range(size))
        with open(os.path.join(clip, "clipboard"), "wb") as f:
            f.write(data)
        got = replies("\033]52;c;?\007", args=["--clipboard-read", "--write-queue-size=64K"])
        want = b"\033]52;c;" + base64.b64encode(data) + b"\007" if fits else b""
        if got != want:
            fail("a %d-byte clipboard, 64 KiB write queue: a %d-byte reply, want %d" % (size, len(got), len(want)))


def hwm_run(path):
    """Shows the file path, then reads the program's peak RSS (VmHWM, KiB), the clipboard and the screen."""
    done = os.path.join(TMP, "done-%d" % random.randrange(1 << 30))
    r = Run(["sh", "-c", "cat %s; touch %s; exec sleep 60" % (path, done)], size="212x82")
    wait_file(done, 60)
    # The last PTY buffer's worth may still be parsed: wait until the program's CPU time stops moving.
    last, end = None, time.time() + 30
    while time.time() < end:
        with open("/proc/%d/stat" % r.proc.pid) as f:
            cpu = f.read().split(")")[1].split()[11:13]
        if cpu == last:
            break
        last = cpu
        time.sleep(0.2)
    hwm = r.proc_status("VmHWM")
    r.proc.send_signal(signal.SIGTERM)
    if r.wait() != 0:
        fail("status %s" % r.status)
    return hwm, read_clipboard(os.environ["KMSCON_FELIS_CLIPBOARD_DIR"]), r.screen()


def stderr_lines(env_js):
    """The stderr lines of a --verbose run, with JOURNAL_STREAM set by env_js(stat of the stderr file)."""
    path = os.path.join(TMP, "stderr-%d" % random.randrange(1 << 30))
    with open(path, "wb") as err:
        env = dict(os.environ)
        env.pop("JOURNAL_STREAM", None)
        js = env_js(os.fstat(err.fileno()))
        if js is not None:
            env["JOURNAL_STREAM"] = js
        argv = [PROG, "--backend=headless", "--size", "40x5", "--verbose", "--oneshot", "--login", "--", "true"]
        st = subprocess.run(argv, cwd=TMP, stderr=err, env=env, timeout=30).returncode
    if st != 0:
        fail("status %s" % st)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line for line in f.read().split("\n") if line]
    if not lines:
        fail("--verbose logged nothing")
    return lines


def t_journal():
    """Issue 7: with JOURNAL_STREAM naming stderr (dev:ino), every log line starts with a syslog <N> priority
    (the journal's level); without it, or when it names another stream, the lines are plain."""
    import re
    prio = re.compile(r"^<[0-7]>")
    lines = stderr_lines(lambda st: "%d:%d" % (st.st_dev, st.st_ino))
    bad = [line for line in lines if not prio.match(line)]
    if bad:
        fail("journal stream: lines without a <N> prefix: %r" % bad[:3])
    if not any(line.startswith("<6>") for line in lines):
        fail("journal stream: no info line <6> with --verbose: %r" % lines[:3])
    for name, js in (("unset", lambda st: None), ("another stream", lambda st: "%d:%d" % (st.st_dev, st.st_ino + 1))):
        lines = stderr_lines(js)
        bad = [line for line in lines if prio.match(line)]
        if bad:
            fail("JOURNAL_STREAM %s: prefixed lines: %r" % (name, bad[:3]))
        if not any(": info: " in line for line in lines):
            fail("JOURNAL_STREAM %s: no plain info line: %r" % (name, lines[:3]))
    print("journal: %d lines prefixed; plain otherwise" % len(lines))


def t_log_origin():
    """A message of pty/ names the place in pty/ that logged it ("[pty.c:N] started true ..."), as every other
    line names its own: it named session.c's log handler, the same line for all of them."""
    lines = stderr_lines(lambda st: None)
    started = [line for line in lines if "started true (pid" in line]
    if not started or "[pty.c:" not in started[0]:
        fail("pty's messages do not name pty.c: %r" % (started or lines[:5]))


def t_dump_unwritable():
    """--dump-screen to a file that cannot be written: said at once, before the program runs, with status 1; and
    a dump that fails at exit (the directory gone meanwhile) makes the status 1, not the child's 0. Both were
    logged only at exit, with the child's status: a script read success and found no screen."""
    marker = os.path.join(TMP, "child-ran")
    p = subprocess.run([PROG, "--backend=headless", "--dump-screen=/nonexistent/x", "--login", "--",
                        "touch", marker], stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 1 or os.path.exists(marker):
        fail("unwritable dump: status %d, child %s (want 1, not run): %r"
             % (p.returncode, "ran" if os.path.exists(marker) else "not run", err))
    if "/nonexistent/x" not in err or "No such file or directory" not in err:
        fail("unwritable dump: the reason is not logged: %r" % err)
    gone = os.path.join(TMP, "gone")
    os.mkdir(gone)
    dump = os.path.join(gone, "screen.txt")
    p = subprocess.run([PROG, "--backend=headless", "--dump-screen=" + dump, "--login", "--",
                        "rmdir", gone], stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode(errors="replace")
    if os.path.exists(gone) or p.returncode != 1 or dump not in err:
        fail("dump failing at exit: status %d (want 1), log %r" % (p.returncode, err))
    # A FIFO is not opened before the dump: a reader waiting on it would get the probe's end of file.
    fifo = os.path.join(TMP, "screen-fifo")
    os.mkfifo(fifo)
    reader = popen(["cat", fifo], stdout=subprocess.PIPE)
    time.sleep(0.2)
    try:
        p = subprocess.run([PROG, "--backend=headless", "--size=20x3", "--dump-screen=" + fifo, "--login", "--",
                            "echo", "via fifo"], stderr=subprocess.PIPE, timeout=15)
    except subprocess.TimeoutExpired:
        reader.kill()
        fail("dump into a FIFO: no exit within 15 s; the reader got %r" % reader.communicate()[0].decode())
    try:
        out = reader.communicate(timeout=10)[0].decode()
    except subprocess.TimeoutExpired:
        reader.kill()
        out = reader.communicate()[0].decode()
    if p.returncode != 0 or out != "via fifo\n\n\n":
        fail("dump into a FIFO: status %d, the reader got %r" % (p.returncode, out))
    # A disk that fills while the dump is written (more than stdio's buffer: 100 rows of 200 characters) is
    # reported as such: the log said "Input/output error", which sends a user looking for a broken disk.
    p = subprocess.run([PROG, "--backend=headless", "--size=200x100", "--dump-screen=/dev/full", "--login", "--",
                        "sh", "-c", "i=0; while [ $i -lt 100 ]; do printf '%0200d' $i; i=$((i+1)); done"],
                       stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 1 or "No space left on device" not in err:
        fail("dump to a full disk: status %d (want 1), log %r" % (p.returncode, err))


def wait_stderr(p, what, timeout):
    """What p (a Popen with stderr=PIPE) logs until a line holds what, or p exits, or timeout s pass."""
    buf = b""
    end = time.time() + timeout
    while what not in buf and time.time() < end:
        if not select.select([p.stderr], [], [], 0.1)[0]:
            continue
        chunk = os.read(p.stderr.fileno(), 4096)
        if not chunk:
            break
        buf += chunk
    return buf.decode(errors="replace")


def t_dump_fifo_no_reader():
    """--dump-screen naming a FIFO that nobody reads at exit: the program says it waits for a reader, and a stop
    signal (SIGTERM, SIGINT) still ends it, with status 1 and the reason. It blocked in open(2) with its stop
    signals blocked (they are read from a signalfd): SIGTERM did nothing, only SIGKILL ended it."""
    fifo = os.path.join(TMP, "screen-fifo-unread")
    os.mkfifo(fifo)
    for sig in (signal.SIGTERM, signal.SIGINT):
        p = popen([PROG, "--backend=headless", "--size=20x3", "--dump-screen=" + fifo, "--login", "--",
                              "echo", "never read"], stderr=subprocess.PIPE)
        # The signal goes once the program says it waits (a fixed second was a guess: a program late on a busy
        # machine got it before the dump, while it still ran).
        err = wait_stderr(p, b"waiting for a reader", 30)
        if p.poll() is not None:
            fail("dump into an unread FIFO: exited with %d before anyone read it" % p.returncode)
        p.send_signal(sig)
        try:
            err += p.communicate(timeout=5)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            fail("dump into an unread FIFO: %s did not end the program within 5 s" % signal.Signals(sig).name)
        if p.returncode != 1 or "waiting for a reader" not in err or fifo not in err:
            fail("dump into an unread FIFO, %s: status %d (want 1), log %r"
                 % (signal.Signals(sig).name, p.returncode, err))


def t_fifo_not_fifo():
    """--input-fifo naming a file that is no FIFO (a regular file, /dev/null): said so at once, status 1, the
    child not run. The log said "cannot watch the input FIFO: Operation not permitted" (epoll's EPERM),
    which names no file and no cause. The child was started before the FIFO was opened, and killed when it
    failed: usually before it could run, but not always (this test failed once in a loaded suite). --verbose logs
    every start ("started touch (pid N)"), so that a start is seen even when the kill comes first."""
    plain = os.path.join(TMP, "keys.txt")
    with open(plain, "w") as f:
        f.write("ls\n")
    marker = os.path.join(TMP, "child-ran")
    for path in (plain, "/dev/null"):
        p = subprocess.run([PROG, "--backend=headless", "--verbose", "--input-fifo=" + path, "--login", "--",
                            "touch", marker], stderr=subprocess.PIPE, timeout=30)
        err = p.stderr.decode(errors="replace")
        if "started touch" in err:
            fail("--input-fifo=%s: the child was started: %r" % (path, err))
        if p.returncode != 1 or os.path.exists(marker) or path not in err or "not a FIFO" not in err:
            fail("--input-fifo=%s: status %d, child %s (want 1, not run): %r"
                 % (path, p.returncode, "ran" if os.path.exists(marker) else "not run", err))


def t_issue():
    """The /etc/issue banner (issue=, issue-path=) is on the screen above the program's first output, its line
    ends as CR LF, \\l the PTY's name without a VT; not there with --no-issue, nor by default before a program
    of one's own (issue=auto: only before the default login); its queries are not answered to the program."""
    banner = os.path.join(TMP, "banner.issue")
    with open(banner, "w") as f:
        f.write("Banner \\s on \\l\nsecond line\n\n")
    child = ["sh", "-c", "echo CHILD OUTPUT"]
    r = Run(child, args=["--issue", "--issue-path", banner])
    if r.wait() != 0:
        fail("--issue: status %s" % r.status)
    s = r.screen()
    tty = os.uname().sysname
    if not (s[0].startswith("Banner %s on pts/" % tty) and s[0][len("Banner %s on pts/" % tty):].strip().isdigit()
            and s[1] == "second line" and s[2] == "" and s[3] == "CHILD OUTPUT"):
        fail("--issue: screen %r" % s[:5])
    # \\l names the VT when --vt gives it (the unit's --vt=%I), as agetty on that VT would
    r = Run(child, args=["--issue", "--issue-path", banner, "--vt=5"])
    if r.wait() != 0 or r.screen()[0] != "Banner %s on tty5" % tty:
        fail("--vt=5: status %s, screen %r" % (r.status, r.screen()[:2]))
    for args in (["--no-issue", "--issue-path", banner], ["--issue-path", banner]):
        r = Run(child, args=args)
        if r.wait() != 0:
            fail("%s: status %s" % (args, r.status))
        s = r.screen()
        if s[0] != "CHILD OUTPUT" or any("Banner" in line for line in s):
            fail("%s: screen %r" % (args, s[:4]))
    # a banner's queries (DA1, CPR) go unanswered: nothing reaches the program as typed input, which the PTY's
    # echo showed at its prompt ("^[[?62;22c^[[1;8R" under the banner) before
    asking = os.path.join(TMP, "asking.issue")
    with open(asking, "w") as f:
        f.write("Asking \\e[c\\e[6n\n")
    r = Run(["sh", "-c", "sleep 0.5; echo DONE"], args=["--issue", "--issue-path", asking])
    s = r.screen() if r.wait() == 0 else []
    if "DONE" not in s or any("^[" in line for line in s):
        fail("a banner's queries: status %s, screen %r" % (r.status, s[:3]))


def t_bell():
    """bell= headless, where there is no VT to sound a tone on and no display to flash: a flood of BELs (30000,
    in many reads) says so once, at notice level; bell=none says nothing; the output after the flood is shown."""
    flood = "i=0; while [ $i -lt 30 ]; do printf '%01000d' 0 | tr 0 '\\a'; i=$((i+1)); done; echo done"
    for args, says in ((["--bell=audible"], "no audible bell: the headless backend has no VT"),
                       (["--bell"], "no audible bell: the headless backend has no VT"),
                       (["--bell=visual"], "no visual bell: there is no display to flash"),
                       (["--no-bell"], None), (["--bell=none"], None)):
        p = subprocess.run([PROG, "--backend=headless", "--size=20x3", "--dump-screen=" + os.path.join(TMP, "b.txt")]
                           + args + ["--login", "--", "sh", "-c", flood], stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode(errors="replace")
        with open(os.path.join(TMP, "b.txt")) as f:
            screen = f.read()
        if p.returncode != 0 or "done" not in screen:
            fail("%s: status %d, screen %r, log %r" % (args, p.returncode, screen, err))
        if says is None and "bell" in err:
            fail("%s: the log speaks of a bell: %r" % (args, err))
        if says is not None and (err.count(says) != 1 or err.count("\n") != 1 or "notice" not in err):
            fail("%s: want one notice %r, log %r" % (args, says, err))


RELOAD_CHILD = r"""
import os, sys, tty
tty.setraw(0)
open(sys.argv[1] + ".ready", "w").close()
n = 0
while True:
    c = os.read(0, 1)
    if c in (b"x", b""):
        break
    if c != b"q":
        continue
    os.write(1, b"\033]4;1;?\033\\\033[5n")
    buf = b""
    while not buf.endswith(b"\033[0n"):
        buf += os.read(0, 1)
    n += 1
    with open(sys.argv[1] + ".%d" % n, "wb") as f:
        f.write(buf[:-4])
"""


def t_selftest_fail():
    """Not a test of its own (t_fail_stops runs it): a failure while the program runs."""
    r = Run(["sleep", "1000"])
    with open(sys.argv[3], "w") as f:
        f.write("%d\n" % r.proc.pid)
    fail("on purpose, with the program running")


def t_fail_stops():
    """A test that fails stops the programs it started: left running, each one waited for meson's timeout
    (120 s) and its child went on after the test."""
    pidfile = os.path.join(TMP, "selftest.pid")
    p = subprocess.run([sys.executable, __file__, PROG, "selftest_fail", pidfile], stdout=subprocess.PIPE,
                       timeout=30 * SLOW)
    with open(pidfile) as f:
        pid = int(f.read())
    alive = os.path.exists("/proc/%d" % pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    if p.returncode != 1 or b"FAIL: on purpose" not in p.stdout:
        fail("the failing test: status %d, output %r" % (p.returncode, p.stdout))
    if alive:
        fail("the program %d was still running after its test failed" % pid)


def t_reload():
    """SIGHUP (systemctl reload) reads the configuration again and applies what can change live, with the same
    child running: a new palette is what OSC 4 reports; a broken file changes nothing and says file and line,
    and so does a directory, a FIFO, /dev/zero or a 100 MiB file in its place; a key that needs a restart keeps
    its old value and says so."""
    d = tempfile.mkdtemp(dir=TMP)
    conf = os.path.join(d, "kmscon-felis.conf")
    logpath = os.path.join(TMP, "reload.log")
    out = os.path.join(TMP, "osc")

    def write_conf(text):
        with open(conf + ".new", "w") as f:
            f.write(text)
        os.rename(conf + ".new", conf)

    def log_text():
        with open(logpath, errors="replace") as f:
            return f.read()

    def reload(want):
        n = log_text().count(want)
        r.proc.send_signal(signal.SIGHUP)
        end = time.time() + 10 * SLOW
        while log_text().count(want) <= n:
            if time.time() > end or r.proc.poll() is not None:
                fail("no %r in the log after SIGHUP (status %s): %r" % (want, r.proc.poll(), log_text()))
            time.sleep(0.01)

    queries = [0]

    def red():
        queries[0] += 1
        r.type(b"q")
        wait_file(out + ".%d" % queries[0], 10 * SLOW)
        time.sleep(0.05)
        with open(out + ".%d" % queries[0], "rb") as f:
            return f.read()

    write_conf("palette=default\nterm=xterm-256color\n")
    with open(logpath, "w") as log:
        r = Run([sys.executable, "-c", RELOAD_CHILD, out], size="20x5", args=["--configdir", d, "--oneshot"],
                fifo=True, stderr=log)
    wait_file(out + ".ready", 10 * SLOW)
    got = red()
    if got != b"\033]4;1;rgb:cdcd/0000/0000\033\\":
        fail("default palette: got %r" % got)
    child = children_of(r.proc.pid)
    if len(child) != 1:
        fail("want one child, got %r" % child)

    write_conf("palette=solarized\nterm=xterm-256color\n")
    reload("configuration reloaded")
    got = red()
    if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
        fail("after reload to solarized: got %r, log %r" % (got, log_text()))
    if "applied palette" not in log_text():
        fail("the reload line does not name the palette: %r" % log_text())
    if children_of(r.proc.pid) != child:
        fail("the child changed across the reload: %r then %r" % (child, children_of(r.proc.pid)))

    write_conf("# broken\npalette=nosuch\nbell=none\n")
    reload("kept the old configuration")
    if (conf + ":2") not in log_text():
        fail("the error does not name the file and line 2: %r" % log_text())
    got = red()
    if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
        fail("a broken file changed the palette: got %r" % got)

    # The file replaced by what is no configuration: each refused with its reason, nothing changed, and the
    # FIFO (no writer) and /dev/zero read neither blocking the loop nor without end.
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    big = os.path.join(d, "big")
    with open(big, "wb") as f:
        f.truncate(100 << 20)  # 100 MiB, sparse
    for what, make, why in (("a directory", lambda: os.mkdir(conf), "is a directory"),
                            ("a FIFO", lambda: os.symlink(fifo, conf), "a device, FIFO or socket"),
                            ("/dev/zero", lambda: os.symlink("/dev/zero", conf), "a device, FIFO or socket"),
                            ("a 100 MiB file", lambda: os.symlink(big, conf), "more than the 1048576")):
        if os.path.isdir(conf) and not os.path.islink(conf):
            os.rmdir(conf)
        else:
            os.unlink(conf)
        make()
        reload("kept the old configuration")
        if why not in log_text().split("kept the old configuration")[-2]:
            fail("%s: the refusal does not say %r: %r" % (what, why, log_text()))
        got = red()
        if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
            fail("%s changed the palette: got %r" % (what, got))
    os.unlink(conf)

    # The keyboard keys are live (headless has no keyboard: taken, nothing to compile; the keymap itself is
    # tested in test-input-reload.c and, on a display, tests/vm/t-input.py input-reload-layout).
    write_conf("palette=solarized\nxkb-layout=de\nxkb-repeat-rate=30\n")
    reload("applied xkb-layout, xkb-repeat-rate")

    # The font and the blanking are the display's: headless they are not reported as applied, but named as
    # having nothing to apply to.
    write_conf("palette=solarized\nxkb-layout=de\nxkb-repeat-rate=30\nfont-size=30\ndpms-timeout=5\n")
    before = len(log_text())
    reload("configuration reloaded")
    new = log_text()[before:]
    done = [line for line in new.split("\n") if "configuration reloaded" in line]
    if not done or "font-size" in done[0] or "dpms-timeout" in done[0]:
        fail("headless, the display's keys reported as applied: %r" % new)
    if "dpms-timeout, font-size: nothing to apply them to without a display" not in new:
        fail("headless, the display's keys not named as not applicable: %r" % new)

    write_conf("palette=solarized\nterm=vt100\n")
    reload("needs a restart")
    if "term" not in log_text().split("needs a restart")[-2].split("\n")[-1]:
        fail("the notice does not name term: %r" % log_text())
    if children_of(r.proc.pid) != child or r.proc.poll() is not None:
        fail("the child or the program did not survive the reloads: %r" % log_text())
    r.type(b"x")
    if r.wait() != 0:
        fail("status %s after the reloads, log %r" % (r.status, log_text()))


TESTS = {name[2:]: fn for name, fn in globals().items() if name.startswith("t_")}

if __name__ == "__main__":
    try:
        TESTS[sys.argv[2]]()
    finally:
        stop_all()
        subprocess.run(["rm", "-rf", TMP])
    print("ok")
