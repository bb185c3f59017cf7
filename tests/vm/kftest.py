"""Helpers for tests/vm/t-*.py scenario scripts (see README.md): the shared guest, skip/fail conventions.

    import kftest
    vm = kftest.boot(gpu="virtio", name="my-test")   # a booted VM (killed at exit whatever happens)
    kftest.check(cond, "what went wrong")            # fail with the serial log tail
    kftest.skip("why")                                # exit 77 (a failure under CI)
"""
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vmlib  # noqa: E402
from vmlib import VM, VMError, Image, compare  # noqa: E402,F401

_guest = None
_vms = []
OUT = vmlib.OUT


def guest(features=("udev", "seatd", "kmscon")):
    """The guest built from this tree (cached; built once per process)."""
    global _guest
    if _guest is None:
        _guest = vmlib.build_guest(features)
    return _guest


def binary_available(name="kmscon-felis"):
    return name in vmlib.our_binaries(vmlib.default_build_dir())


def boot(gpu="virtio", name=None, files=None, **kw):
    """Boots a VM of guest() (plus FILES {guest path: host path | bytes | str}) and returns it, booted."""
    g = guest()
    if files:
        g = g.with_files(files)
    vm = VM(g, gpu=gpu, name=name or Path(sys.argv[0]).stem, **kw)
    _vms.append(vm)
    t0 = time.time()
    try:
        vm.boot()
    except BaseException:
        vm.kill()
        raise
    print("%s: %s guest booted in %.1f s" % (vm.name, gpu, time.time() - t0))
    return vm


def skip(reason):
    print("skip: " + reason)
    sys.exit(77)


def check(cond, msg, vm=None):
    if not cond:
        if vm is not None:
            vm.fail(msg)
        raise VMError(msg)


def log_faults(log, warnings_ok=()):
    """The error and warning lines of kmscon-felis' log LOG, but warnings starting with one of WARNINGS_OK and
    libinput's "event processing lagging behind by N ms, your system is too slow" (an error, ratelimited): an
    event read over 20 ms after the kernel stamped it, which says how fast the guest ran on a loaded host, not
    what the program did (a CI run's console-switch-storm failed on one of 24 ms, during a held key)."""
    return [ln for ln in log.splitlines() if "event processing lagging behind" not in ln and
            (" error:" in ln or (" warning:" in ln and not ln.startswith(tuple(warnings_ok))))]


def frame_counters(vm, log="/tmp/kf.log", pidfile="/tmp/kf.pid", timeout=20):
    """kmscon-felis' frame counters now, as a dict: sends SIGRTMIN+1 (it logs a "frames: rendered=..." line) and
    waits for a line newer than those already in LOG. Reading the last line after a fixed pause could return a
    stale one from before the signal on a slow host."""
    n = int(vm.sh("grep -c 'frames: rendered=' %s" % log, check=False)[1].strip() or 0)
    vm.sh("kill -35 $(cat %s)" % pidfile)

    def new_line():
        lines = [ln for ln in vm.sh("cat %s" % log).splitlines() if "frames: rendered=" in ln]
        return lines[-1] if len(lines) > n else None

    line = vm.wait_until(new_line, timeout, "a new frame-counter line in %s" % log)
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line.split("frames: ", 1)[1])}


_reported = set()  # the names run_test and scenario have printed PASS or FAIL for


def run_test(name, fn, vm=None):
    """Runs FN() as one test of a scenario that reports several: prints PASS NAME, or the reason and FAIL NAME
    (with the end of kmscon-felis' log in VM, /tmp/kf.log, when VM is given and alive)."""
    _reported.add(name)
    ok = False
    try:
        fn()
        ok = True
    except VMError as e:
        print("%s: %s" % (name, e))
        try:
            log = vm.sh("tail -15 /tmp/kf.log", check=False)[1] if vm is not None and vm.alive() else ""
        except VMError as e2:
            # a wedged guest: this raised past the FAIL line, and the test was counted nowhere (ci-try156)
            log = "(the log could not be read: %s)" % e2
        for line in log.splitlines():
            print("  kmscon-felis: " + line)
    finally:
        # whatever ends the test, its name gets its one line
        print(("PASS " if ok else "FAIL ") + name)
        sys.stdout.flush()


def scenario(vm, label, names, fn):
    """Runs FN(), the tests NAMES on VM (each through run_test), and shuts VM down. A VMError outside the tests
    (a replay, a boot step) fails every one of NAMES not reported yet: each name gets exactly one line."""
    try:
        fn()
    except VMError as e:
        print("%s: %s" % (label, e))
        for n in names:
            if n not in _reported:
                _reported.add(n)
                print("FAIL " + n)
    finally:
        vm.shutdown()


def expect_grid(vm, exp, size, what, margin=(0, 0, 0), timeout=120, prefix=None):
    """Waits until a SIZE (w, h) screendump holds EXP at its top-left and, in the margin right and below it, one
    colour: MARGIN, or any one colour when MARGIN is None (a palette's background). Returns that screendump; on
    a timeout with a differing grid region the actual, expected and diff images are saved under PREFIX."""
    w, h = size
    last = [None]

    def ok(img):
        last[0] = img
        if (img.width, img.height) != size or img.crop(0, 0, exp.width, exp.height).data != exp.data:
            return False
        right = img.crop(exp.width, 0, w - exp.width, h) if exp.width < w else None
        below = img.crop(0, exp.height, w, h - exp.height) if exp.height < h else None
        return all(r is None or r.is_uniform() and (margin is None or r.pixel(0, 0) == margin)
                   for r in (right, below))

    try:
        vm.wait_screen(ok, timeout=timeout, interval=1.0, what=what)
    except VMError:
        img = last[0]
        if img is None or (img.width, img.height) != size:
            raise
        compare(img.crop(0, 0, exp.width, exp.height), exp,
                save_prefix=prefix or OUT / ("%s-%s" % (vm.name, what.split()[0])))
        raise VMError("%s: the grid region matches but the margin is not %s" % (
            what, "one colour" if margin is None else "%r" % (margin,)))
    return last[0]


def main(fn):
    """Runs FN(); a VMError or assertion prints the reason and exits 1; VMs are always killed."""
    try:
        fn()
    except (VMError, AssertionError) as e:
        print("error: %s" % e)
        sys.exit(1)
    finally:
        for vm in _vms:
            vm.kill()
