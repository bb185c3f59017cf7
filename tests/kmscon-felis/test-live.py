#!/usr/bin/env python3
"""Live tests of the whole program: kmscon-felis --backend=headless with real children on real PTYs.

Usage: test-live.py PROGRAM TEST. Keys are injected through --input-fifo (the keystroke path); the screen is
read from --dump-screen. Exit status 0 = pass, 1 = fail. The tests are the t_ functions of live_session.py,
live_replies.py, live_log.py, live_config.py and this file (what they share: livelib.py).
"""
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import live_config  # noqa: E402
import live_log  # noqa: E402
import live_replies  # noqa: E402
import live_session  # noqa: E402
from livelib import PROG, SLOW, TMP, Run, children_of, comm_of, fail, stop_all  # noqa: E402


def t_selftest_fail():
    """Not a test of its own (t_fail_stops runs it): a failure while the program runs. It fails only once the
    program's child runs: the program is then past its start-up checks (its dump file's directory, which the
    cleanup removes), so that only the cleanup's signal can end it, not an error of its own."""
    r = Run(["sleep", "1000"])
    end = time.time() + 10 * SLOW
    while not any(comm_of(c) == "sleep" for c in children_of(r.proc.pid)) and time.time() < end:
        time.sleep(0.01)
    with open(sys.argv[3], "w") as f:
        f.write("%d\n" % r.proc.pid)
    fail("on purpose, with the program running")


def t_fail_stops():
    """A test that fails stops the programs it started: left running, each one waited for meson's timeout
    (120 s) and its child went on after the test."""
    pidfile, outfile = os.path.join(TMP, "selftest.pid"), os.path.join(TMP, "selftest.out")
    # its output to a file, not a pipe: a program left running would hold a pipe open and the wait would end
    # only at the timeout, not at the failing test's exit
    with open(outfile, "wb") as out:
        p = subprocess.run([sys.executable, __file__, PROG, "selftest_fail", pidfile], stdout=out,
                           timeout=30 * SLOW)
    with open(outfile, "rb") as f:
        p.stdout = f.read()
    with open(pidfile) as f:
        pid = int(f.read())
    alive = os.path.exists("/proc/%d" % pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    if p.returncode != 1 or b"FAIL: on purpose" not in p.stdout:
        fail("the failing test: status %d, output %r" % (p.returncode, p.stdout))
    if alive:
        fail("the program %d was still running after its test failed" % pid)


TESTS = {name[2:]: fn for mod in (live_session, live_replies, live_log, live_config, sys.modules[__name__])
         for name, fn in vars(mod).items() if name.startswith("t_")}

if __name__ == "__main__":
    try:
        TESTS[sys.argv[2]]()
    finally:
        stop_all()
        subprocess.run(["rm", "-rf", TMP])
    print("ok")
