"""What the live tests share (test-live.py runs them): the program under test, one run of it (Run), failing a
test, and the processes a test started, stopped when it ends failed or not (stop_all).

PROG is test-live.py's first argument; TMP is this run's directory, removed by test-live.py at the end.
"""
import ctypes
import os
import random
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
        end = time.time() + timeout * SLOW  # hang guards: longer under ASan (SLOW)
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
        end = time.time() + timeout * SLOW  # hang guards: longer under ASan (SLOW)
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
                fail("the program did not exit within %d s" % (timeout * SLOW))
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
    end = time.time() + timeout * SLOW  # hang guards: longer under ASan (SLOW)
    while not os.path.exists(path):
        if time.time() > end:
            fail("%s never appeared" % path)
        time.sleep(0.005)


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
