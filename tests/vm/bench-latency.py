#!/usr/bin/env python3
"""Key-to-screen latency of kmscon-felis in the QEMU guest (a benchmark, not a test).

For each of N keys typed with QEMU's send-key into a shell on kmscon-felis (alternately 'a' and Backspace,
so the line never grows), the latency is the time from the key's evdev timestamp (the kernel's, read by
kf-evtime from the same event node libinput reads) to the first page-flip event delivered after it (ftrace
drm:drm_vblank_event_delivered with trace_clock=mono: the page-flip event of the frame that shows the echo;
nothing else changes on the screen between keys, and the flip count is checked against the key count).
Prints p50, p90, p99 and max in milliseconds.

    tests/vm/bench-latency.py [--keys 200] [--gpu virtio|bochs] [--kvm]
"""

import argparse
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from vmlib import VM, build_guest  # noqa: E402

UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")
TRACE = "/sys/kernel/debug/tracing"


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=200)
    ap.add_argument("--gpu", default="virtio")
    ap.add_argument("--kvm", action="store_true")
    ap.add_argument("--interval", type=float, default=0.15, help="seconds between keys")
    ap.add_argument("--peer", action="store_true", help="measure Debian's kmscon in the same guest too")
    args = ap.parse_args()
    guest = build_guest(("udev", "seatd", "kmscon"))
    rc = measure(guest, args, "kmscon-felis --vt=1 --switchvt --font-engine=builtin --login -- /bin/sh")
    if args.peer:
        rc |= measure(guest, args, "kmscon --vt=1 --switchvt --no-reset-env --login -- /bin/sh")
    return rc


def measure(guest, args, command):
    print(command)
    with VM(guest, gpu=args.gpu, kvm=args.kvm or None, name="bench-latency") as vm:
        vm.sh(UDEV, timeout=60)
        kbd = vm.sh("grep -A4 'Virtio Keyboard' /proc/bus/input/devices | grep -o 'event[0-9]*'").strip()
        vm.sh("%s >/tmp/kf.log 2>&1 &" % command)
        time.sleep(8)
        vm.sh("echo mono > %s/trace_clock && echo 1 > %s/events/drm/drm_vblank_event_delivered/enable && "
              "echo > %s/trace" % (TRACE, TRACE, TRACE))
        vm.sh("(cat %s/trace_pipe > /tmp/flips &) ; (kf-evtime /dev/input/%s > /tmp/keys &)" % (TRACE, kbd))
        time.sleep(1)
        for i in range(args.keys):
            vm.sendkey("a" if i % 2 == 0 else "backspace")
            time.sleep(args.interval)
        time.sleep(1)
        keys_txt = vm.sh("cat /tmp/keys")
        flips_txt = vm.sh("cat /tmp/flips")
        refresh = vm.sh("cat /sys/class/drm/card0-*/modes 2>/dev/null | head -1; true").strip()
    presses = [int(m.group(1)) for m in re.finditer(r"^(\d+) (\d+) 1$", keys_txt, re.M)]
    flips = sorted(int(float(m.group(1)) * 1e6) for m in
                   re.finditer(r"\s(\d+\.\d+): drm_vblank_event_delivered", flips_txt))
    lat = []
    for i, t in enumerate(presses):
        nxt = presses[i + 1] if i + 1 < len(presses) else t + 10**6
        after = [f for f in flips if t < f < nxt]
        if after:
            lat.append((after[0] - t) / 1000.0)
    window = [f for f in flips if presses and presses[0] <= f <= presses[-1] + 10**6]
    print("keys pressed: %d, page flips in the run: %d, keys with a flip before the next key: %d"
          % (len(presses), len(window), len(lat)))
    if not lat:
        print("no latency sample (is ftrace available in the guest kernel?)")
        return 1
    print("key-to-flip latency (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (mode %s, gpu %s, %s)"
          % (pct(lat, 50), pct(lat, 90), pct(lat, 99), max(lat), refresh or "?", args.gpu,
             "KVM" if args.kvm else "TCG"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
