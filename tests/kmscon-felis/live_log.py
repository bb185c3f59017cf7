"""Live tests of the log and of the files named on the command line (--dump-screen, --input-fifo)
(test-live.py runs them).
"""
import os
import random
import select
import signal
import subprocess
import time

from livelib import PROG, SLOW, TMP, fail, popen


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
            err += p.communicate(timeout=5 * SLOW)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            fail("dump into an unread FIFO: %s did not end the program within %d s" % (signal.Signals(sig).name, 5 * SLOW))
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
