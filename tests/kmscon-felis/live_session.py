"""Live tests of the session: keys in, output out, the child's start and end, back-pressure, memory and
idleness (test-live.py runs them).
"""
import os
import random
import re
import resource
import signal
import subprocess
import time

from livelib import PROG, SLOW, TMP, Run, baseline_rss, children_of, comm_of, fail, wait_file


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


def t_sigchld_ignored():
    """Started with SIGCHLD ignored (a disposition exec keeps: a launcher that does not wait for its children passes
    it on), the program still gets its child's exit and status: the kernel reaped the child at once, waitpid said
    ECHILD for ever, and the program spun on the child's pidfd at 100 % CPU instead of exiting (headless) or
    starting the login again (a display)."""
    r = Run(["sh", "-c", "printf 'last line'; exit 3"], size="40x3",
            preexec=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN))
    if r.wait(10 * SLOW) != 3:
        fail("status %s, want the child's 3" % r.status)
    cpu = r.rusage.ru_utime + r.rusage.ru_stime
    if r.screen()[0] != "last line" or cpu > 2 * SLOW:
        fail("screen %r, %.2f s of CPU" % (r.screen(), cpu))


def t_traced_exit():
    """The child exits while a tracer (strace -p, gdb) holds it: its pidfd is readable from the exit on, but the
    zombie is the tracer's to take first and waitid finds nothing. The program waits without using the CPU
    (it spun on the readable pidfd at 100 % until the tracer let go), and takes the status once it does."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    go = os.path.join(TMP, "traced-go")
    os.mkfifo(go)
    # no child of its own: a SIGCHLD would stop the traced shell (a signal-delivery stop its tracer never ends)
    r = Run(["sh", "-c", "read x < %s; printf 'last line'; exit 5" % go], size="40x3")
    end = time.time() + 10 * SLOW
    kids = []
    while not kids and time.time() < end:
        kids = [c for c in children_of(r.proc.pid) if comm_of(c) == "sh"]
        time.sleep(0.02)
    if not kids:
        fail("the child did not start")
    rd, wr = os.pipe()
    tracer = os.fork()
    if tracer == 0:  # the tracer: seizes the child, then holds it without waiting until told to go
        os.close(wr)
        ok = libc.ptrace(0x4206, kids[0], None, None) == 0  # PTRACE_SEIZE: no stop, no signal
        os.write(1, b"seized\n" if ok else b"seize failed\n")
        os.read(rd, 1)
        os._exit(0)  # exiting releases the zombie to its parent, which is then told (SIGCHLD)
    os.close(rd)
    time.sleep(0.2)
    with open(go, "w") as f:
        f.write("go\n")
    def state(pid):
        try:
            with open("/proc/%d/stat" % pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return "gone"
    while state(kids[0]) not in ("Z", "gone") and time.time() < end:
        time.sleep(0.02)
    if state(kids[0]) != "Z":
        fail("the traced child is %s, want a zombie its tracer holds" % state(kids[0]))
    time.sleep(0.2)  # the child gone, the tracer still holding its zombie
    def cpu():
        with open("/proc/%d/stat" % r.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    c0 = cpu()
    time.sleep(1.0)
    used = cpu() - c0
    os.write(wr, b"x")
    os.close(wr)
    os.waitpid(tracer, 0)
    status = r.wait(10 * SLOW)
    print("%.2f s of CPU in the 1 s the tracer held the exited child" % used)
    if used > 0.2:
        fail("%.2f s of CPU in the 1 s the tracer held the exited child, want about 0" % used)
    if status != 5 or r.screen()[0] != "last line":
        fail("status %s (want 5), screen %r" % (status, r.screen()))


def t_stop_then_hup():
    """A SIGHUP during the shutdown that a SIGTERM started (systemd's stop sends both; here the child ignores
    SIGHUP, so the shutdown waits 0.5 s for it) is not acted on (kmscon-felis(1), SIGNALS): it came after the
    loop's last read of its signals and was taken with its default action once they were unblocked at the end, the
    program killed by it (status 129, not 0)."""
    ready = os.path.join(TMP, "ready-hup")
    r = Run(["sh", "-c", "trap '' HUP; touch %s; exec sleep 60" % ready])
    wait_file(ready)
    r.proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    r.proc.send_signal(signal.SIGHUP)
    if r.wait(10 * SLOW) != 0:
        fail("SIGTERM, then SIGHUP during the shutdown: status %s, want 0" % r.status)


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


def t_start_fails():
    """The child cannot be started (no descriptor left for the PTY): a clear error, exit status 1, and
    everything set up before it freed (the bell was leaked: LeakSanitizer in the sanitizer build). The limit at
    which the PTY's master is the first thing refused is searched for, so a descriptor more or fewer opened
    before it does not blind the test."""
    sanitizer = re.compile(r"Sanitizer|runtime error:")
    found = None
    for n in range(3, 40):
        p = subprocess.run([PROG, "--backend=headless", "--oneshot", "--bell=visual", "--login", "--", "true"],
                           preexec_fn=lambda n=n: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30 * SLOW)
        err = p.stderr.decode(errors="replace")
        if sanitizer.search(err):
            fail("with %d descriptors: a sanitizer report:\n%s" % (n, err))
        if "cannot start" in err:
            found = n
            if p.returncode != 1 or "cannot open a PTY master" not in err:
                fail("with %d descriptors: status %d, want 1 and the PTY named; stderr:\n%s"
                     % (n, p.returncode, err))
            break
    if found is None:
        fail("no descriptor limit from 3 to 39 made the child's start fail: cannot test")


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
