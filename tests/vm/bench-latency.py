#!/usr/bin/env python3
"""Key-to-screen latency of kmscon-felis in the QEMU guest (a benchmark, not a test).

For each of N keys typed with QEMU's send-key into a shell on kmscon-felis (alternately 'a' and Backspace,
so the line never grows), the latency is the time from the key's evdev timestamp (the kernel's, read by
kf-evtime from the same event node libinput reads) to the first page-flip event delivered after it (ftrace
drm:drm_vblank_event_delivered with trace_clock=mono: the page-flip event of the frame that shows the echo;
nothing else changes on the screen between keys, and the flip count is checked against the key count).
Prints p50, p90, p99 and max in milliseconds.

With --breakdown, ftrace also records the system calls of kmscon-felis and of the shell on its PTY (syscall
tracepoints, same clock) and the median time of each step is printed: key event -> our epoll_wait returns ->
our write of the key to the PTY -> the shell's read -> the shell's echo write -> our read of the echo -> our
atomic commit ioctl (entry, return) -> the page-flip event.

With --compare BINARY, another build of kmscon-felis (put in the guest as kmscon-felis-base) is measured too,
alternately with ours (--rounds times each, a fresh guest each time), so that a change is judged under the same
machine load.

    tests/vm/bench-latency.py [--keys 200] [--gpu virtio|bochs] [--kvm] [--peer] [--breakdown]
                              [--compare BINARY [--rounds N]]
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
    ap.add_argument("--breakdown", action="store_true", help="trace our and the shell's system calls and print "
                    "the median time of each step (kmscon-felis only)")
    ap.add_argument("--compare", help="another kmscon-felis binary, measured alternately with ours")
    ap.add_argument("--rounds", type=int, default=2, help="with --compare: runs of each")
    args = ap.parse_args()
    guest = build_guest(("udev", "seatd", "kmscon"))
    ours = "kmscon-felis --vt=1 --switchvt --font-engine=builtin --login -- /bin/sh"
    if args.compare:
        guest = guest.with_files({"/usr/bin/kmscon-felis-base": args.compare}, name="latency-base")
        rc = 0
        for _ in range(args.rounds):
            rc |= measure(guest, args, ours)
            rc |= measure(guest, args, ours.replace("kmscon-felis", "kmscon-felis-base", 1))
        return rc
    rc = measure(guest, args, ours)
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
        # The trace is read once at the end, not through trace_pipe: a trace_pipe reader is woken for every
        # event traced (every system call with --breakdown), on the guest's one CPU, inside the measurement.
        vm.sh("echo mono > %s/trace_clock && echo 32768 > %s/buffer_size_kb && "
              "echo 1 > %s/events/drm/drm_vblank_event_delivered/enable && echo > %s/trace"
              % (TRACE, TRACE, TRACE, TRACE))
        if args.breakdown and command.startswith("kmscon-felis"):
            enable_syscall_trace(vm, command.split()[0])
        vm.sh("(kf-evtime /dev/input/%s > /tmp/keys &)" % kbd)
        time.sleep(1)
        for i in range(args.keys):
            vm.sendkey("a" if i % 2 == 0 else "backspace")
            time.sleep(args.interval)
        time.sleep(1)
        vm.sh("echo 0 > %s/tracing_on && cat %s/trace > /tmp/flips" % (TRACE, TRACE), timeout=120)
        keys_txt = vm.sh("cat /tmp/keys")
        flips_txt = vm.sh("cat /tmp/flips", timeout=300)
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
    if args.breakdown and command.startswith("kmscon-felis"):
        breakdown(presses, flips_txt)
    return 0


SYSCALLS = ("sys_exit_epoll_wait", "sys_exit_epoll_pwait", "sys_enter_write", "sys_exit_read", "sys_enter_ioctl",
            "sys_exit_ioctl")
ATOMIC = "c03864bc"  # DRM_IOCTL_MODE_ATOMIC


def enable_syscall_trace(vm, prog):
    """Syscall tracepoints for PROG (kmscon-felis) and the shell it runs (its child), filtered by pid."""
    # pidof gives our process and the builtin libseat server it forked; the shell is a child of ours.
    pids = vm.sh("p=\" $(pidof %s) \"; echo $p; ps -o pid,ppid,comm | "
                 "awk -v p=\"$p\" 'index(p, \" \" $2 \" \") && $3 != \"%s\" {print $1}'" % (prog, prog[:15])).split()
    filt = " || ".join("common_pid == %s" % p for p in pids)
    script = "".join("echo '%s' > %s/events/syscalls/%s/filter && echo 1 > %s/events/syscalls/%s/enable && "
                     % (filt, TRACE, ev, TRACE, ev) for ev in SYSCALLS)
    # Every context switch and interrupt of the guest's CPU too: they say who had the CPU in a slow key.
    script += "echo 1 > %s/events/sched/sched_switch/enable && echo 1 > %s/events/irq/irq_handler_entry/enable && " \
        % (TRACE, TRACE)
    vm.sh(script + "echo > %s/trace" % TRACE)
    print("tracing the system calls of pids %s (kmscon-felis, its shell)" % " ".join(pids))


def breakdown(presses, trace):
    """Median time of each step between a key and its page flip, from the syscall trace."""
    line_re = re.compile(r"^\s*(\S+)-(\d+)\s+\[\d+\].*?\s(\d+\.\d+): (\w+)(.*)$")
    evs = []
    for line in trace.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        comm, t, what, rest = m.group(1), int(float(m.group(3)) * 1e6), m.group(4), m.group(5)
        me = comm.startswith("kmscon")
        if what == "drm_vblank_event_delivered":
            evs.append((t, "flip"))
        elif what in ("sys_epoll_wait", "sys_epoll_pwait") and me:
            evs.append((t, "wake"))
        elif what == "sys_write" and rest.startswith("("):
            evs.append((t, "kwrite" if me else "shwrite"))
        elif what == "sys_read" and "->" in rest:
            ret = int(rest.split("->")[1].strip(), 16)
            if ret > 0 and ret < 1 << 63:
                evs.append((t, "kread" if me else "shread"))
        elif what == "sys_ioctl" and me and ATOMIC in rest and rest.startswith("("):
            evs.append((t, "commit"))
        elif what == "sys_ioctl" and me and "->" in rest:
            evs.append((t, "ioctl_ret"))
    evs.sort()
    steps = ("wake", "kwrite", "shread", "shwrite", "kread", "commit", "ioctl_ret", "flip")
    deltas = {s: [] for s in steps}
    per_key = []  # (key-to-flip ms, [ms of each step]) of the keys whose every step was found
    for i, t in enumerate(presses):
        nxt = presses[i + 1] if i + 1 < len(presses) else t + 10**6
        prev, k, row = t, 0, []
        for st in steps:
            found = next((e for e in evs[k:] if e[0] >= prev and e[0] < nxt and e[1] == st), None)
            if not found:
                break
            k = evs.index(found)
            row.append((found[0] - prev) / 1000.0)
            prev = found[0]
        if len(row) < len(steps):
            continue
        for st, ms in zip(steps, row):
            deltas[st].append(ms)
        per_key.append((sum(row), row, t))
    names = {"wake": "key event -> our epoll_wait returns", "kwrite": "-> key written to the PTY",
             "shread": "-> the shell reads it", "shwrite": "-> the shell writes the echo",
             "kread": "-> we read the echo", "commit": "-> atomic commit ioctl (parse + render)",
             "ioctl_ret": "-> the commit ioctl returns", "flip": "-> page-flip event"}
    print("breakdown over %d keys (median, p90 in ms):" % len(deltas["flip"]))
    for st in steps:
        if deltas[st]:
            print("  %-42s %6.2f %6.2f" % (names[st], pct(deltas[st], 50), pct(deltas[st], 90)))
    # The tail is where the p99 comes from: which step made the slowest keys slow.
    print("slowest keys, ms per step (%s):" % " ".join(steps))
    for total, row, t0 in sorted(per_key, reverse=True)[:5]:
        print("  %6.2f = %s" % (total, " ".join("%.2f" % ms for ms in row)))
    # Who ran in the slowest keys' windows: the context switches and interrupts between the key and its flip.
    sw_re = re.compile(r"\s(\d+\.\d+): (sched_switch|irq_handler_entry): (.*)$")
    for total, row, t0 in sorted(per_key, reverse=True)[:3]:
        print("  key at %.6f (%.2f ms):" % (t0 / 1e6, total))
        for line in trace.splitlines():
            m = sw_re.search(line)
            if m and t0 <= float(m.group(1)) * 1e6 <= t0 + total * 1000:
                print("    +%7.3f %s %s" % ((float(m.group(1)) * 1e6 - t0) / 1000, m.group(2), m.group(3)[:110]))


if __name__ == "__main__":
    sys.exit(main())
