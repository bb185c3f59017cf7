#!/usr/bin/env python3
"""drm/ on real kernel DRM drivers, in the QEMU guest of tests/vm (vmlib.py).

Prints one line per test (PASS/FAIL/SKIP name) for tests/vm/run. One boot per GPU (virtio-gpu, bochs):
  drm-smoke-GPU        first frame, then a 2 s flood of partial frames: flips never exceed one per refresh, the
                       display keeps updating (>= 5 flips/s), no watchdog (tests/drm/drm-test.c smoke)
  drm-legacy-GPU       the same through drmModeSetCrtc + drmModePageFlip (KMSCON_FELIS_DRM_LEGACY=1)
  drm-mode-GPU         --mode: an unsupported size is refused with the list of modes, a supported one is used
  drm-first-frame-GPU  the scanned-out frame (QEMU screendump) equals the pattern drm-test paints, pixel for pixel
  drm-hotplug-virtio   PCI hot-unplug and re-plug of the GPU under a running drm-test: the output goes away and
                       comes back with the same picture, no crash, no leaked fd
  drm-clone-virtio-bochs  two cards (virtio-gpu 1024x768 and bochs 800x600, --clone): both show the canvas, sized
                       to the smaller display
  drm-mode-one-lacks-virtio-bochs  the same two cards, --mode with a size only one display lists: that one shows it,
                       the other its preferred mode with a warning listing its modes (the start failed before)
  drm-dpms-virtio      blank after --dpms-timeout seconds without activity, wake on input
  drm-flood-virtio     kmscon-felis --backend=drm under an output flood: the screen keeps changing, flips per
                       second stay at or below the refresh rate (SIGRTMIN+1 counters), and the screen after the flood
                       equals kmscon-felis-replay --png of its final contents (no stale damage)

Usage: tests/drm/vm-drm.py [--build-dir DIR] [--gpu virtio|bochs ...]
"""
import argparse
import os
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, os.environ.get("KF_VMLIB_DIR", str(REPO / "tests" / "vm")))

from vmlib import VM, Image, VMError, build_guest, compare, default_build_dir  # noqa: E402

BARS = [0xffffff, 0xffff00, 0x00ffff, 0x00ff00, 0xff00ff, 0xff0000, 0x0000ff, 0x000000]


def pattern(w, h, cw=None, ch=None):
    """What drm-test's paint_pattern shows on a w x h output whose canvas is cw x ch (black outside)."""
    cw, ch = cw or w, ch or h
    rows = []
    black = b"\0\0\0" * (w - cw)
    for y in range(h):
        if y >= ch:
            rows.append(b"\0\0\0" * w)
            continue
        row = bytearray()
        for x in range(cw):
            border = x == 0 or y == 0 or x == cw - 1 or y == ch - 1
            c = 0xffffff if border else BARS[x * 8 // cw]
            row += bytes(((c >> 16) & 255, (c >> 8) & 255, c & 255))
        rows.append(bytes(row) + black)
    return Image(w, h, b"".join(rows))


def retry_lost(fn):
    """Runs FN again once when the guest never answered a serial command (seen right after a DRM client exits
    or a GPU is re-plugged: the command line is lost, the guest is fine)."""
    try:
        return fn()
    except VMError as e:
        if "waiting for 'KFBEGIN" not in str(e):
            raise
        print("  (a guest command was lost; retrying once)")
        return fn()


def report(ok, name, detail=""):
    print("%s %s" % ("PASS" if ok else "FAIL", name))
    if detail:
        for line in detail.rstrip().splitlines():
            print("  " + line)
    sys.stdout.flush()


ONLY = []


def run_test(name, fn):
    if ONLY and not any(w in name for w in ONLY):
        return
    try:
        detail = fn()
        report(True, name, detail or "")
    except (VMError, AssertionError) as e:
        report(False, name, str(e))


def smoke(vm, legacy):
    env = "KMSCON_FELIS_DRM_LEGACY=1 " if legacy else ""
    rc, out = vm.sh(env + "drm-test smoke 2>&1", timeout=120, check=False)
    if rc != 0:
        raise AssertionError("drm-test smoke exited %d:\n%s" % (rc, out))
    if legacy and "legacy=1" not in out:
        raise AssertionError("the legacy path was not used:\n%s" % out)
    m = re.search(r"drm-test: .*", out)
    return m.group(0) if m else out


def mode(vm):
    """--mode: an unsupported size is an error listing the modes; a supported one is used."""
    rc, out = vm.sh("DRM_TEST_MODE=1234x567 drm-test smoke 2>&1", timeout=120, check=False)
    if rc == 0 or "mode 1234x567 is not supported; available modes: " not in out or "1024x768" not in out:
        raise AssertionError("an unsupported --mode was not refused with the list of modes (rc %d):\n%s" % (rc, out))
    rc, out2 = vm.sh("DRM_TEST_MODE=800x600 drm-test smoke 2>&1", timeout=120, check=False)
    if rc != 0 or "mode 800x600@" not in out2 or "canvas 800x600" not in out2:
        raise AssertionError("--mode 800x600 was not used (rc %d):\n%s" % (rc, out2))
    return [l for l in out.splitlines() if "not supported" in l][0]


def first_frame(vm, w, h):
    vm.sh("drm-test run 600 >/tmp/run.log 2>&1 &")
    vm.wait_file("/tmp/run.log", 60, pattern="modeset with")
    expected = pattern(w, h)
    img = vm.wait_screen(lambda i: (i.width, i.height) == (w, h) and i.diff(expected)[0] == 0, timeout=30,
                         what="the drm-test pattern")
    compare(img, expected)
    return "screendump %dx%d equals the pattern" % (img.width, img.height)


def stop_drm_test(vm):
    """Ends a drm-test that a failed test before left running and waits until it is gone: while it lives it
    is DRM master, and the next test's commits would fail with EACCES."""
    rc, _ = vm.sh("for p in $(pidof drm-test); do kill $p; done; i=0; while pidof drm-test >/dev/null; do "
                  "[ $i -ge 100 ] && exit 1; i=$((i+1)); sleep 0.1; done", timeout=40, check=False)
    if rc:
        raise AssertionError("a drm-test left running did not exit in 10 s")


def dpms(vm, w, h):
    """DPMS: blank after 4 s without activity, wake on input (SIGUSR2 = what the input glue calls), blank
    again."""
    stop_drm_test(vm)
    vm.sh("DRM_TEST_DPMS=4 drm-test run 600 >/tmp/dpms.log 2>&1 &")
    expected = pattern(w, h)
    # The pattern may be up for only 4 s: a slow guest can miss it; what matters is blank, then wake.
    log = vm.wait_file("/tmp/dpms.log", 60, pattern="display blanked")
    if "modeset with 1 output" not in log:
        raise AssertionError("no modeset before blanking:\n" + log)
    vm.wait_screen(lambda i: i.data != expected.data, timeout=30, what="the display to blank")
    vm.sh("kill -USR2 $(pidof drm-test)")
    vm.wait_file("/tmp/dpms.log", 30, pattern="display unblanked")
    img = vm.wait_screen(lambda i: i.diff(expected)[0] == 0, timeout=30, what="the pattern after waking")
    compare(img, expected)
    wait_count(vm, "/tmp/dpms.log", "display blanked", 2)
    vm.sh("kill -TERM $(pidof drm-test)")
    log = retry_lost(lambda: vm.wait_file("/tmp/dpms.log", 30, pattern="END"))
    return "\n".join(l for l in log.splitlines() if "blanked" in l)


def wait_count(vm, path, regex, n, timeout=60):
    """Waits until guest file PATH has at least N lines matching extended REGEX."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        rc, out = vm.sh("grep -cE '%s' %s" % (regex, path), check=False)
        if out.strip().isdigit() and int(out.strip()) >= n:
            return
        time.sleep(0.5)
    raise AssertionError("timeout waiting for %d lines %r in %s:\n%s" % (n, regex, path, vm.sh("cat " + path)))


def hotplug(vm, w, h):
    log = vm.wait_file("/tmp/run.log", 10, pattern="START")
    start_fds = int(re.search(r"START .* fds=(\d+)", log).group(1))
    for cycle in range(1, 3):
        vm.unplug_gpu()
        wait_count(vm, "/tmp/run.log", "EVENT canvas=0x0", cycle)
        log = vm.wait_file("/tmp/run.log", 10, pattern="EVENT canvas=0x0")
        # The card is gone: so are its dumb buffers' mappings.
        maps = [int(x) for x in re.findall(r"EVENT canvas=0x0 .*maps=(\d+)", log)]
        if maps[-1] != 0:
            raise AssertionError("%d mappings of /dev/dri left after the unplug\n%s" % (maps[-1], log))
        vm.plug_gpu()
        wait_count(vm, "/tmp/run.log", "EVENT canvas=%dx%d" % (w, h), cycle)
        img = vm.wait_screen(lambda i: (i.width, i.height) == (w, h) and i.diff(pattern(w, h))[0] == 0,
                             timeout=30, what="the pattern after re-plug %d" % cycle)
        compare(img, pattern(w, h))
    vm.sh("kill -USR1 $(pidof drm-test)")
    log = vm.wait_file("/tmp/run.log", 10, pattern="STATS")
    fds = [int(x) for x in re.findall(r"STATS .* fds=(\d+)", log)]
    if fds[-1] != start_fds:
        raise AssertionError("fd leak: %d fds at start, %d after two unplug/plug cycles\n%s" % (
            start_fds, fds[-1], log))
    vm.sh("kill -TERM $(pidof drm-test)")
    log = retry_lost(lambda: vm.wait_file("/tmp/run.log", 30, pattern="END"))
    if "Segmentation" in log or "Aborted" in log:
        raise AssertionError(log)
    return "two unplug/re-plug cycles; fds %d at start and after" % start_fds


def screendump_device(vm, device):
    import tempfile
    fd, tmp = tempfile.mkstemp(suffix=".ppm")
    os.close(fd)
    try:
        vm.qmp.cmd("screendump", filename=tmp, device=device)
        return Image.load(tmp)
    finally:
        os.unlink(tmp)


def clone(vm, w, h):
    """Two cards (virtio-gpu w x h, bochs 800x600): both show the canvas, sized to the smaller one."""
    vm.sh("drm-test run 600 >/tmp/clone.log 2>&1 &")
    log = vm.wait_file("/tmp/clone.log", 60, pattern="canvas 800x600 on 2 output")
    big = pattern(w, h, 800, 600)
    img = vm.wait_screen(lambda i: i.diff(big)[0] == 0, timeout=30, what="the 800x600 pattern on the virtio head")
    compare(img, big)
    deadline = time.time() + 30
    small = pattern(800, 600)
    while True:
        img2 = screendump_device(vm, "gpu1")
        if (img2.width, img2.height) == (800, 600) and img2.diff(small)[0] == 0:
            break
        if time.time() > deadline:
            compare(img2, small)
        time.sleep(0.5)
    vm.sh("kill -TERM $(pidof drm-test)")
    retry_lost(lambda: vm.wait_file("/tmp/clone.log", 30, pattern="END"))
    return "\n".join(l for l in log.splitlines() if "CONNECTOR" in l or "canvas" in l)


def mode_one_lacks(vm):
    """Two cards, --mode WxH that one display lists and the other does not: the first shows WxH, the second its
    preferred mode with a warning listing its modes, the canvas the smaller; before, the start failed for both."""
    stop_drm_test(vm)
    lists = {}
    for path in vm.sh("ls -d /sys/class/drm/card*-*/modes").split():
        status = vm.sh("cat %s" % path.replace("/modes", "/status")).strip()
        if status == "connected":
            lists[path.split("/")[-2]] = vm.sh("cat " + path).split()
    if len(lists) != 2:
        raise AssertionError("want two connected displays, got %r" % lists)
    (a, ma), (b, mb) = sorted(lists.items(), key=lambda kv: -len(kv[1]))
    only = [m for m in ma if m not in mb]
    if not only:
        raise AssertionError("every mode of %s is also %s's: nothing to test (%r)" % (a, b, lists))
    mode = min(only, key=lambda m: int(m.split("x")[0]) * int(m.split("x")[1].rstrip("i")))
    vm.sh("DRM_TEST_MODE=%s drm-test run 600 >/tmp/lacks.log 2>&1 &" % mode)
    log = vm.wait_file("/tmp/lacks.log", 60, pattern="modeset with")
    vm.sh("kill -TERM $(pidof drm-test)")
    log = retry_lost(lambda: vm.wait_file("/tmp/lacks.log", 30, pattern="END"))
    lines = [l for l in log.splitlines() if "CONNECTOR" in l or "canvas" in l or "offered" in l]
    warn = [l for l in lines if "mode %s is not supported; available modes: " % mode in l and
            "its preferred mode" in l and l.startswith("drm<4>")]
    if "FAIL" in log or len(warn) != 1 or "(asked for)" not in log or "on 2 output(s)" not in log:
        raise AssertionError("--mode %s (only %s lists it): not both shown, or no warning:\n%s" % (mode, a, log))
    return "--mode %s, %s lists it, %s not:\n" % (mode, a, b) + "\n".join(lines)


FINAL = b"\033[2J\033[H\033[?25lFLOOD DONE\r\nsecond line \033[1;31mred\033[0m\r\n"
# The flood lasts until the test has measured it (/tmp/flood-stop), at most 60 s: a fixed duration could end
# before a loaded guest takes its screendumps.
FLOOD_SH = r"""
end=$(($(date +%s)+60))
while [ ! -e /tmp/flood-stop ] && [ $(date +%s) -lt $end ]; do seq 1 5000; done
printf '\033[2J\033[H\033[?25lFLOOD DONE\nsecond line \033[1;31mred\033[0m\n'
exec sleep 1000
"""


def frame_stats(vm, n):
    """Sends SIGRTMIN+1 (35) to kmscon-felis and returns (time, flips) of its n-th counters line."""
    vm.sh("kill -35 $(pidof kmscon-felis)")
    deadline = time.time() + 20
    while time.time() < deadline:
        log = vm.sh("cat /tmp/kf.log; cat /proc/uptime")
        lines = re.findall(r"frames: .*flips=(\d+).*fast_flips=(\d+).*refresh_mhz=(\d+)", log)
        if len(lines) >= n:
            up = float(log.strip().splitlines()[-1].split()[0])
            flips, fast, mhz = (int(x) for x in lines[n - 1])
            return up, flips, fast, mhz
        time.sleep(0.3)
    raise AssertionError("no frame counters from kmscon-felis:\n" + log)


def flood(vm, w, h, replay):
    import subprocess
    import tempfile
    stop_drm_test(vm)
    vm.sh("rm -f /tmp/flood-stop; cat > /tmp/flood.sh <<'EOF'\n%s\nEOF" % FLOOD_SH)
    vm.sh("kmscon-felis --verbose --backend=drm --font-engine=builtin --login -- /bin/sh /tmp/flood.sh "
          ">/tmp/kf.log 2>&1 &")
    vm.wait_file("/tmp/kf.log", 60, pattern="modeset with")
    t0, f0, _, _ = frame_stats(vm, 1)
    a = vm.screendump()
    time.sleep(1)
    b = vm.screendump()
    t1, f1, fast, mhz = frame_stats(vm, 2)
    vm.sh("touch /tmp/flood-stop")
    rate = (f1 - f0) / (t1 - t0)
    hz = mhz / 1000.0
    detail = "%.1f flips/s during the flood (%d flips in %.2f s) at %.3f Hz refresh, %d fast flips" % (
        rate, f1 - f0, t1 - t0, hz, fast)
    if a.data == b.data:
        raise AssertionError("the screen did not change during the flood; " + detail)
    if rate > hz * 1.02 + 1 or fast:
        raise AssertionError("more flips than refreshes; " + detail)
    if f1 - f0 < 2:
        raise AssertionError("the display stopped updating during the flood; " + detail)
    with tempfile.TemporaryDirectory() as d:
        png = os.path.join(d, "final.png")
        subprocess.run([str(replay), "--size", "%dx%d" % (w // 8, h // 16), "--font-engine", "builtin",
                        "--format", "none", "--png", png, "-"], input=FINAL, check=True)
        expected = Image.load(png)
    img = vm.wait_screen(lambda i: i.diff(expected)[0] == 0, timeout=60, what="the final screen after the flood")
    compare(img, expected)
    vm.sh("kill -TERM $(pidof kmscon-felis)")
    return detail + "; final screen equals kmscon-felis-replay --png"


def boot_and_test(base, exe, gpu, w, h, clone_card=False):
    build = exe.parent.parent.parent
    replay = build / "kmscon-felis" / "kmscon-felis-replay"
    # with_files makes a temporary initramfs that the VM deletes when it ends: one per boot.
    guest = base.with_files({"/usr/bin/drm-test": str(exe)}, name="drm")
    name = "drm-vm-%s%s" % (gpu, "-2cards" if clone_card else "")
    extra = ["-device", "bochs-display,id=gpu1,bus=rp2,xres=800,yres=600,edid=on"] if clone_card else []
    try:
        with VM(guest, gpu=gpu, xres=w, yres=h, name=name, extra_args=extra) as vm:
            if clone_card:
                run_test("drm-clone-%s-bochs" % gpu, lambda: clone(vm, w, h))
                run_test("drm-mode-one-lacks-%s-bochs" % gpu, lambda: mode_one_lacks(vm))
                return
            run_test("drm-smoke-%s" % gpu, lambda: smoke(vm, False))
            run_test("drm-legacy-%s" % gpu, lambda: smoke(vm, True))
            run_test("drm-mode-%s" % gpu, lambda: mode(vm))
            run_test("drm-first-frame-%s" % gpu, lambda: first_frame(vm, w, h))
            if gpu == "virtio":
                run_test("drm-hotplug-%s" % gpu, lambda: hotplug(vm, w, h))
                run_test("drm-dpms-%s" % gpu, lambda: dpms(vm, w, h))
                if ONLY and not any(w in "drm-flood-virtio" for w in ONLY):
                    pass
                elif replay.exists() and (build / "kmscon-felis" / "kmscon-felis").exists():
                    run_test("drm-flood-%s" % gpu, lambda: flood(vm, w, h, replay))
                else:
                    report(False, "drm-flood-%s" % gpu, "kmscon-felis or kmscon-felis-replay is not built")
    except VMError as e:
        report(False, name, str(e))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    ap.add_argument("--gpu", action="append")
    ap.add_argument("--clone", action="store_true", help="also boot a guest with two cards")
    ap.add_argument("--only", action="append", default=[], help="run only tests whose name contains this")
    a = ap.parse_args()
    ONLY.extend(a.only)
    build = Path(a.build_dir) if a.build_dir else default_build_dir()
    exe = build / "tests" / "drm" / "drm-test"
    if not exe.exists():
        report(False, "drm-vm", "%s is not built" % exe)
        return 1
    base = build_guest(build_dir=build)
    for gpu in a.gpu or ["virtio", "bochs"]:
        if gpu != "none":  # --gpu none: only the --clone boot
            boot_and_test(base, exe, gpu, 1024, 768)
    if a.clone:
        boot_and_test(base, exe, "virtio", 1024, 768, clone_card=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
