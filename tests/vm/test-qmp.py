#!/usr/bin/env python3
"""The harness's QMP client (vmqemu.QMP) against a fake QEMU monitor on a unix socket, without QEMU: its waits are
scaled by KF_VM_TIMEOUT_SCALE as the harness's other waits are, and its errors say the wait it made.

The fake monitor greets (unless told not to), answers qmp_capabilities, and then answers nothing; it may send an
event every 0.2 s meanwhile. With the scale at 2, a 1 s timeout must wait 2 s and say "2 s". Exit status 0 = pass.
"""
import json
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ["KF_VM_TIMEOUT_SCALE"] = "2"
os.environ.pop("KF_TEST_TIMEOUT_MULTIPLIER", None)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from vmqemu import QMP  # noqa: E402
from vmbase import VMError  # noqa: E402

SCALE = 2.0
failed = False


def monitor(path, greet=True, events=False):
    """Listens on PATH and serves one client in a thread; returns the listening socket (close it to end)."""
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)

    def serve():
        try:
            c, _ = srv.accept()
        except OSError:
            return
        if greet:
            c.sendall(b'{"QMP": {"version": {}, "capabilities": []}}\n')
        buf = b""
        while True:
            c.settimeout(0.2)
            try:
                d = c.recv(4096)
                if not d:
                    return
                buf += d
            except socket.timeout:
                pass
            except OSError:
                return
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                msg = json.loads(line)
                if msg.get("execute") == "qmp_capabilities":
                    c.sendall(json.dumps({"return": {}, "id": msg["id"]}).encode() + b"\n")
            if events:
                try:
                    c.sendall(b'{"event": "RTC_CHANGE", "data": {"offset": 0}}\n')
                except OSError:
                    return

    threading.Thread(target=serve, daemon=True).start()
    return srv


def check(name, timeout, expect, fn):
    """Runs FN, which must raise VMError after timeout * SCALE seconds with EXPECT in its text."""
    global failed
    t0 = time.time()
    try:
        fn()
        err = "returned"
    except VMError as e:
        err = str(e)
    took = time.time() - t0
    want = timeout * SCALE
    ok = expect in err and want - 0.1 <= took <= want + 1.0
    print("%s %s: waited %.2f s (want %.1f), said %r (want %r)" % ("ok" if ok else "FAIL", name, took, want,
                                                                    err, expect))
    failed |= not ok


def main():
    # a client stuck on an unscaled wait of an older harness never returns: the alarm ends the test instead
    signal.alarm(60)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "qmp")

        srv = monitor(path)
        q = QMP(path, timeout=5)
        check("cmd", 1, "QMP query-status: no answer in 2 s", lambda: q.cmd("query-status", timeout=1))
        check("wait_event", 1, "QMP: no DEVICE_DELETED event in 2 s", lambda: q.wait_event("DEVICE_DELETED", 1))
        q.close()
        srv.close()
        os.unlink(path)

        # events do not extend a command's wait: a guest that keeps changing its clock must not hold a
        # screendump's failure off for good
        srv = monitor(path, events=True)
        q = QMP(path, timeout=5)
        check("cmd among events", 1, "QMP screendump: no answer in 2 s", lambda: q.cmd("screendump", timeout=1))
        q.close()
        srv.close()
        os.unlink(path)

        srv = monitor(path, greet=False)
        check("greeting", 1, "QMP: no greeting from QEMU in 2 s", lambda: QMP(path, timeout=1))
        srv.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
