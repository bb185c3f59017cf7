#!/usr/bin/env python3
# timeout: 1200
"""VM tests of the seat and input stack (issue 6): real libinput over real evdev devices in a QEMU guest,
libseat's builtin backend (root, no daemon) and seatd, typed with QEMU's send-key.

They drive kf-input-probe (tests/kmscon-felis/input-probe.c): kf_seat + input/ + the key translation and
encoder, printing the bytes each key sends. Prints one line per test: PASS name / FAIL name / SKIP name.

    tests/vm/t-input.py [--only NAME]... [--switches N]   (tests/vm/run runs it)
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from vmlib import VM, VMError, build_guest, default_build_dir  # noqa: E402

PROBE_LOG = "/tmp/probe%d.log"


def probe_files(build_dir):
    """The probe and every shared library it needs that the base guest may lack (taken from this host, which
    runs the same Debian release as the guest)."""
    probe = Path(build_dir) / "tests" / "kmscon-felis" / "kf-input-probe"
    if not probe.exists():
        raise VMError("%s is not built" % probe)
    files = {"/usr/bin/kf-input-probe": str(probe)}
    out = subprocess.run(["ldd", str(probe)], stdout=subprocess.PIPE, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.search(r"=> (/\S+)", line)
        if m:
            files[m.group(1)] = os.path.realpath(m.group(1))
    return {k.lstrip("/"): v for k, v in files.items()}


UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")


def start_probe(vm, n, args="", env=""):
    vm.sh("%s kf-input-probe %s >%s 2>&1 &" % (env, args, PROBE_LOG % n))


def probe_log(vm, n):
    return vm.sh("cat %s" % (PROBE_LOG % n))


def wait_log(vm, n, pattern, timeout=30):
    return vm.wait_file(PROBE_LOG % n, timeout=timeout, pattern=pattern)


def keys_sent(vm, n):
    """The bytes of every KEY line of probe N, concatenated."""
    data = b""
    for m in re.finditer(r"^KEY ([0-9a-f]+)", probe_log(vm, n), re.M):
        data += bytes.fromhex(m.group(1))
    return data


def wait_keys(vm, n, want, timeout=20):
    deadline = time.time() + timeout
    got = b""
    while time.time() < deadline:
        got = keys_sent(vm, n)
        if len(got) >= len(want):
            break
        time.sleep(0.3)
    return got


def test_typing(guest, backend):
    """sendkey 'echo hello' Enter reaches the probe as the bytes a shell reads."""
    with VM(guest, gpu="virtio", name="input-typing-" + backend) as vm:
        vm.sh(UDEV, timeout=60)
        env = ""
        if backend == "seatd":
            vm.sh("seatd -g root >/tmp/seatd.log 2>&1 & i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 50 ]; "
                  "do sleep 0.1; i=$((i+1)); done; [ -S /run/seatd.sock ]")
        start_probe(vm, 1, "", env)
        log = wait_log(vm, 1, r"^DEVICES [1-9]")
        if "ENABLED" not in log:
            wait_log(vm, 1, r"^ENABLED")
        vm.type_text("echo hello\n")
        got = wait_keys(vm, 1, b"echo hello\r")
        if got != b"echo hello\r":
            vm.fail("typed %r, the probe saw %r" % (b"echo hello\r", got))
        # Caps Lock lights the keyboard's LED (virtio-input keyboards have one; the kernel shows it in sysfs).
        leds = vm.sh("ls -d /sys/class/leds/*capslock 2>/dev/null; true").split()
        if leds:
            vm.sendkey("caps_lock")
            time.sleep(0.5)
            lit = vm.sh("cat %s" % " ".join(l + "/brightness" for l in leds)).split()
            if "1" not in lit:
                vm.fail("Caps Lock LED not lit: %s %s" % (leds, lit))
            print("    Caps Lock LED lit: %s" % " ".join(leds))
            vm.sendkey("caps_lock")
        if backend == "seatd" and "backend seatd" not in probe_log(vm, 1):
            vm.fail("seatd was not chosen:\n" + probe_log(vm, 1))
        # Modifiers and special keys through real evdev: Ctrl+C, Up, Shift+Tab.
        vm.sendkey("ctrl-c")
        vm.sendkey("up")
        vm.sendkey("shift-tab")
        want = b"echo hello\r\x03\x1b[A\x1b[Z"
        got = wait_keys(vm, 1, want)
        if got != want:
            vm.fail("controls: %r" % got)


def test_layout_de(guest):
    """A German layout: y/z swapped, o-umlaut, Shift+7 '/', AltGr+q '@'."""
    with VM(guest, gpu="virtio", name="input-de") as vm:
        vm.sh(UDEV, timeout=60)
        start_probe(vm, 1, "--layout de")
        wait_log(vm, 1, r"^ENABLED")
        wait_log(vm, 1, r"^DEVICES [1-9]")
        for k in ("y", "z", "semicolon", "shift-7", "alt_r-q"):
            vm.sendkey(k)
            time.sleep(0.05)
        want = "zyö/@".encode()
        got = wait_keys(vm, 1, want)
        if got != want:
            vm.fail("de layout: got %r, want %r" % (got, want))


def test_usb_hotplug(guest):
    """A USB keyboard plugged in at run time is found at once and types."""
    with VM(guest, gpu="virtio", usb=True, name="input-usb") as vm:
        vm.sh(UDEV + "; (udevadm monitor --udev >/dev/null 2>&1 &)", timeout=60)
        start_probe(vm, 1)
        log = wait_log(vm, 1, r"^DEVICES [1-9]")
        before = int(re.findall(r"^DEVICES (\d+)", log, re.M)[-1])
        # display=gpu0 binds the keyboard to the GPU's console, so input-send-event can address it alone.
        vm.qmp.cmd("device_add", driver="usb-kbd", id="usbkbd", bus="xhci.0", display="gpu0")
        deadline = time.time() + 30
        while time.time() < deadline:
            counts = [int(x) for x in re.findall(r"^DEVICES (\d+)", probe_log(vm, 1), re.M)]
            if counts and counts[-1] > before:
                break
            time.sleep(0.5)
        else:
            vm.fail("the USB keyboard never appeared (keyboards stayed at %d)" % before)
        # Sent to the console of gpu0: QEMU routes them to the input handler bound to that console, the USB
        # keyboard only (the virtio keyboard is not bound to any console).
        for key in ("u", "s", "b"):
            for down in (True, False):
                vm.qmp.cmd("input-send-event", device="gpu0",
                           events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": key}}}])
            time.sleep(0.05)
        got = wait_keys(vm, 1, b"usb")
        if got != b"usb":
            vm.fail("the USB keyboard typed %r" % got)


def test_vt_switch(guest, switches):
    """Two probes on tty1 and tty2: Ctrl+Alt+F2 / Ctrl+Alt+F1 move the seat between them; no fd grows."""
    with VM(guest, gpu="virtio", name="input-vt") as vm:
        vm.sh(UDEV, timeout=60)
        vm.sh("chvt 1")
        start_probe(vm, 1, "--vt 1 --switchvt")
        wait_log(vm, 1, r"^ENABLED")
        wait_log(vm, 1, r"^DEVICES [1-9]")
        start_probe(vm, 2, "--vt 2 --switchvt", env="")
        # Probe 2 asked for VT 2 with --switchvt: it activates it, probe 1 releases.
        wait_log(vm, 2, r"^ENABLED")
        wait_log(vm, 1, r"^DISABLED")
        t0 = time.time()
        enabled = {1: 1, 2: 1}
        for i in range(switches):
            target = 1 if i % 2 == 0 else 2
            vm.sendkey("ctrl-alt-f%d" % target)
            # The switch is done when the target probe has the seat again (its next ENABLED line) and the
            # kernel shows its VT. The next switch waits for that: libseat's builtin backend (seatd 0.7)
            # can revert a switch requested within milliseconds of an enable (see docs/seat.md).
            deadline = time.time() + 20
            while time.time() < deadline:
                out = vm.sh("grep -c '^ENABLED' %s; cat /sys/class/tty/tty0/active" % (PROBE_LOG % target))
                count, active = out.split()
                if int(count) > enabled[target] and active == "tty%d" % target:
                    enabled[target] = int(count)
                    break
                time.sleep(0.05)
            else:
                vm.fail("switch %d to VT %d did not happen (active %s)\n%s\n%s" % (
                    i, target, active, probe_log(vm, 1)[-3000:], probe_log(vm, 2)[-3000:]))
        elapsed = time.time() - t0
        # Let the last enable land, then compare the fd counts each probe reported over the run.
        time.sleep(1)
        for n in (1, 2):
            fds = [int(x) for x in re.findall(r"^ENABLED (\d+)", probe_log(vm, n), re.M)]
            if len(fds) < 2:
                vm.fail("probe %d was enabled only %d times" % (n, len(fds)))
            if max(fds[1:]) > fds[1]:
                vm.fail("probe %d's open fds grew: %s" % (n, fds))
        # Typing goes to the probe whose VT is shown.
        active = vm.sh("cat /sys/class/tty/tty0/active").strip()
        holder = 1 if active == "tty1" else 2
        vm.type_text("ok")
        got = wait_keys(vm, holder, b"ok")
        if not got.endswith(b"ok"):
            vm.fail("after the switches probe %d got %r" % (holder, got))
        print("    %d switches in %.1f s" % (switches, elapsed))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--switches", type=int, default=int(os.environ.get("KF_VM_SWITCHES", "200")))
    args = ap.parse_args()
    tests = [
        ("input-typing-builtin", lambda g: test_typing(g, "builtin")),
        ("input-typing-seatd", lambda g: test_typing(g, "seatd")),
        ("input-layout-de", test_layout_de),
        ("input-usb-hotplug", test_usb_hotplug),
    ]
    # The probe-based VT switch test is run only on request (--only input-vt-switch): the same acceptance
    # point (two instances, 200 switches, screen restored, no fd growth) is covered by console-vt-switch in
    # t-console.py with the real program, strictly (one key press per switch).
    if "input-vt-switch" in args.only:
        tests.append(("input-vt-switch", lambda g: test_vt_switch(g, args.switches)))
    try:
        base = build_guest(("udev", "seatd"))
        files = probe_files(default_build_dir())
    except (VMError, OSError, subprocess.CalledProcessError) as e:
        for name, _ in tests:
            print("SKIP %s" % name)
        print("    cannot build the guest: %s" % e)
        return 0
    failed = 0
    for name, fn in tests:
        if args.only and name not in args.only:
            continue
        try:
            # Each VM deletes its temporary initramfs when it ends: one per test.
            fn(base.with_files(files, name="probe"))
            print("PASS %s" % name, flush=True)
        except VMError as e:
            failed += 1
            print("FAIL %s" % name, flush=True)
            for line in str(e).splitlines():
                print("    " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
