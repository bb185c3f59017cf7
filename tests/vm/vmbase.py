"""What the modules of the QEMU harness (tests/vm/) share: paths, environment, the error type, logging and a
checked subprocess run. Python 3 standard library only; the scenarios import vmlib, which re-exports all this."""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = Path(os.environ.get("KF_VM_CACHE", HERE / "cache"))
OUT = Path(os.environ.get("KF_VM_OUT", HERE / "out"))
GUEST_SRC = HERE / "guest"
# Every wait of the harness is multiplied by this: KF_VM_TIMEOUT_SCALE, else the unit tests' multiplier
# (KF_TEST_TIMEOUT_MULTIPLIER, which tests/run-all raises for slow builds), else 1.
DEFAULT_TIMEOUT = float(os.environ.get("KF_VM_TIMEOUT_SCALE") or os.environ.get("KF_TEST_TIMEOUT_MULTIPLIER") or "1")

# Files to remove when the harness exits (the extra initramfs of Guest.with_files()); vmqemu's exit handler does.
temporary_files = []


class VMError(Exception):
    """A harness failure; str() carries the reason and, once a VM ran, the tail of its serial log."""


def log(msg):
    if os.environ.get("KF_VM_VERBOSE"):
        print("vmlib: " + msg, file=sys.stderr, flush=True)


def run_checked(cmd, **kw):
    kw.setdefault("check", True)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    try:
        return subprocess.run(cmd, **kw)
    except subprocess.CalledProcessError as e:
        raise VMError("command failed: %s\n%s%s" % (" ".join(map(str, cmd)), e.stdout or "", e.stderr or ""))

