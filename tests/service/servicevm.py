#!/usr/bin/env python3
"""The systemd side of kmscon-felis in the QEMU guest of tests/vm (vmlib.py).

The guest has no systemd; kf-notify-run (tests/service/kf-notify-run.c) plays its part of Type=notify: it binds
a notify socket, starts the command line of the installed unit's ExecStart= (%I = tty1) with NOTIFY_SOCKET and
WATCHDOG_USEC set, and, when READY=1 arrives, freezes the sender (SIGSTOP) and reads the DRM state from debugfs,
so the state it prints is what was on screen when READY=1 was sent.

The test (tests/vm/t-service.py runs it in the test command):
  service-ready-virtio   READY=1 arrives; STATUS= names the output mode and the font; at that moment a
                         framebuffer is on an active CRTC; the scanned-out frame is not blank; WATCHDOG=1 pings
                         arrive from the event loop at half the WatchdogSec period.

Benchmark (--bench, not a test): exec to READY=1 (sent from the first page-flip handler, i.e. the first frame on
screen), median of 10 starts; PSS idle and after 200k lines of output with the default scrollback, kmscon
(Debian's package) measured in the same guest for comparison.

Floors (--floors, not a test): exec to READY=1 of small programs that do only part of our work (kf-floor.c: a
static do-nothing, a do-nothing linked with our libraries, a minimal modeset of one dumb buffer) next to ours.

Usage: tests/service/servicevm.py [--build-dir DIR] [--bench | --timeline | --floors [--compare BINARY]] [--runs N]
"""
import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, os.environ.get("KF_VMLIB_DIR", str(REPO / "tests" / "vm")))

from vmlib import VM, VMError, build_guest, default_build_dir  # noqa: E402


def report(ok, name, detail=""):
    print("%s %s" % ("PASS" if ok else "FAIL", name))
    for line in (detail or "").rstrip().splitlines():
        print("  " + line)
    sys.stdout.flush()


def unit_command(build_dir, vt="tty1"):
    """The ExecStart= command line of the configured unit, for instance %I, with the binary from /usr/bin."""
    unit = Path(build_dir) / "systemd" / "kmscon-felis@.service"
    for line in unit.read_text().splitlines():
        if line.startswith("ExecStart="):
            argv = line[len("ExecStart="):].split()
            argv[0] = os.path.basename(argv[0])
            return " ".join(a.replace("%I", vt).replace("%i", vt) for a in argv)
    raise VMError("no ExecStart= in %s" % unit)


def parse_run(out):
    """kf-notify-run's output: messages [(us, pid, payload)], state lines, PSS {when: kB}, exit status."""
    msgs, state, pss, code = [], [], {}, None
    for line in out.splitlines():
        if line.startswith("MSG "):
            _, us, pid, payload = (line.split(" ", 3) + [""])[:4]
            msgs.append((int(us), int(pid), payload.replace("|", "\n")))
        elif line.startswith("STATE "):
            state.append(line[6:])
        elif line.startswith("PSS "):
            _, kb, when = line.split()
            pss[when] = int(kb)
        elif line.startswith("EXIT "):
            code = int(line.split()[1])
    return msgs, state, pss, code


def helper_path(build_dir):
    helper = Path(build_dir) / "tests" / "service" / "kf-notify-run"
    if not helper.exists():
        raise VMError("%s not built" % helper)
    return str(helper)


def guest_for(build_dir, features=("udev",), floors=False, compare=None):
    files = {"/usr/bin/kf-notify-run": helper_path(build_dir)}
    if compare:
        files["/usr/bin/kmscon-felis-compare"] = str(compare)
    if floors:
        for name in ("kf-floor-static", "kf-floor-libdrm", "kf-floor-libseat", "kf-floor-freetype", "kf-floor-linked"):
            files["/usr/bin/" + name] = str(Path(build_dir) / "tests" / "service" / name)
    return build_guest(features=features, build_dir=build_dir).with_files(files, name="service")


def start_udev(vm):
    # libinput's udev backend needs a populated udev database (issue 6).
    vm.sh("(/lib/systemd/systemd-udevd --daemon && udevadm trigger --action=add && udevadm settle -t 20) >/dev/null 2>&1",
          timeout=120, check=False)


def test_ready(vm, cmd, screen_check=None):
    """Runs CMD under kf-notify-run with WatchdogSec=2; returns a summary or raises AssertionError.
    SCREEN_CHECK(vm) runs once READY=1 has arrived, while the console still runs."""
    vm.sh("(kf-notify-run -t 90 -p 5000 -w 2000000 -k -- %s >/tmp/notify.out 2>/tmp/kf.err &)" % cmd)
    try:
        vm.wait_file("/tmp/notify.out", timeout=120, pattern="READY=1|EXIT|TIMEOUT")
        if screen_check:
            screen_check(vm)
        out = vm.wait_file("/tmp/notify.out", timeout=60, pattern="^(EXIT|TIMEOUT)")
    except VMError as e:
        _, err = vm.sh("cat /tmp/notify.out; tail -30 /tmp/kf.err", check=False)
        raise AssertionError("%s\n%s" % (str(e).splitlines()[0], err))
    msgs, state, pss, code = parse_run(out)
    ready = [m for m in msgs if "READY=1" in m[2]]
    if not ready:
        _, err = vm.sh("tail -30 /tmp/kf.err", check=False)
        raise AssertionError("no READY=1 from `%s`:\n%s\nstderr:\n%s" % (cmd, out, err))
    us, pid, payload = ready[0]
    status = re.search(r"STATUS=(.*)", payload)
    if not status or not re.search(r"\d+x\d+", status.group(1)) or "font" not in status.group(1):
        raise AssertionError("STATUS= does not name the mode and the font: %r" % payload)
    # The atomic state at READY=1: an active CRTC and a plane with a framebuffer kmscon-felis allocated.
    text = "\n".join(state)
    if "active=1" not in text or not re.search(r"fb=[1-9]", text):
        raise AssertionError("no framebuffer on an active CRTC when READY=1 arrived:\n%s" % text)
    if "kmscon-felis" not in text:
        raise AssertionError("the framebuffer on screen at READY=1 is not ours:\n%s" % text)
    pings = [m for m in msgs if "WATCHDOG=1" in m[2] and m[0] > us]
    if len(pings) < 2:
        raise AssertionError("%d WATCHDOG=1 pings in 5 s after READY=1 (WatchdogSec=2):\n%s" % (len(pings), out))
    return "READY=1 after %.1f ms: %s; %d watchdog pings in 5 s; PSS %s kB" % (
        us / 1000, status.group(1), len(pings), pss.get("ready"))


def pss_of(vm, name):
    _, out = vm.sh("for p in $(pidof %s); do grep '^Pss:' /proc/$p/smaps_rollup; done" % name, timeout=300,
                   check=False)
    return sum(int(x) for x in re.findall(r"Pss:\s+(\d+)", out))


def flood_pss(vm, name, start):
    """START runs a terminal whose child says /tmp/up, idles 5 s, prints 200k lines and says /tmp/flood-done:
    the terminal's PSS when idle and after the flood."""
    child = "sh -c 'touch /tmp/up; sleep 5; seq 1 200000; touch /tmp/flood-done; exec sleep 1000'"
    vm.sh("rm -f /tmp/up /tmp/flood-done; (%s --login -- %s >/tmp/%s.log 2>&1 &)" % (start, child, name),
          timeout=300, check=False)
    t0 = time.time()
    try:
        vm.wait_file("/tmp/up", timeout=300)
        time.sleep(3)
        idle = pss_of(vm, name)
        vm.wait_file("/tmp/flood-done", timeout=300)
        dt = time.time() - t0
        time.sleep(2)
        return "%s: PSS idle %d kB, after 200k lines (seq 1 200000) %d kB (%.0f s wall)" % (
            name, idle, pss_of(vm, name), dt)
    except VMError as e:
        return "%s: did not finish: %s" % (name, str(e).splitlines()[0])
    finally:
        vm.sh("killall %s; sleep 1; killall -9 %s sleep" % (name, name), timeout=300, check=False)


def frame_times(vm, comm, cmd, runs):
    """Exec to the first frame on screen (kf-notify-run -f COMM: a framebuffer COMM allocated is scanned out,
    found by polling the DRM state every 5 ms), RUNS starts of CMD."""
    times = []
    for _ in range(runs):
        rc, out = vm.sh("kf-notify-run -t 60 -p 0 -k -f %s -- %s >/tmp/frame.out 2>/dev/null; cat /tmp/frame.out; "
                        "sleep 1" % (comm, cmd), timeout=180, check=False)
        m = re.search(r"^FRAME (\d+)", out, re.M)
        if m:
            times.append(int(m.group(1)) / 1000)
    label = "`%s`: exec -> first frame on screen (DRM state polled every 5 ms)" % cmd
    if not times:
        return "%s: no frame in %d starts" % (label, runs)
    return "%s, %d runs: median %.0f ms, min %.0f, max %.0f" % (label, len(times), statistics.median(times),
                                                                min(times), max(times))


def bench(vm, cmd, runs=10):
    """Start-up (exec to READY=1) median of RUNS, PSS idle and after 200k lines; kmscon's start-up and PSS
    alongside (measured first: Debian's kmscon 9 does not come up on a VT a previous DRM master used). kmscon's
    binary is started directly (/usr/bin/kmscon is a shell wrapper asking D-Bus for the keyboard layout)."""
    lines = [frame_times(vm, "kmscon", "/usr/libexec/kmscon/kmscon --vt=tty2 --switchvt --no-reset-env", runs)]
    print(lines[-1], flush=True)
    if os.environ.get("KF_BENCH_KMSCON_FLOOD"):
        # Twice (07:35 and 10:55 UTC) the guest's command channel stopped answering during this step.
        lines.append(flood_pss(vm, "kmscon", "kmscon --vt=tty2 --switchvt --no-reset-env"))
        print(lines[-1], flush=True)
    lines.append(frame_times(vm, "kmscon-felis", cmd, runs))
    print(lines[-1], flush=True)
    for extra in ("", " --font-engine=builtin"):
        times, idle = [], []
        for _ in range(runs):
            rc, out = vm.sh("kf-notify-run -t 90 -p 2000 -k -- %s%s 2>/dev/null" % (cmd, extra), timeout=180,
                            check=False)
            msgs, _, pss, _ = parse_run(out)
            ready = [m for m in msgs if "READY=1" in m[2]]
            if ready:
                times.append(ready[0][0] / 1000)
            if "later" in pss:
                idle.append(pss["later"])
        label = "`%s%s`" % (cmd, extra)
        lines.append("%s: exec -> READY=1 (= first page flip), %d runs: median %.0f ms, min %.0f, max %.0f; "
                     "PSS 2 s after READY=1: median %d kB" % (
                         label, len(times), statistics.median(times), min(times), max(times),
                         statistics.median(idle)) if times else "%s: no READY=1" % label)
        print(lines[-1], flush=True)
    lines.append(flood_pss(vm, "kmscon-felis", cmd))
    print(lines[-1], flush=True)
    lines += timeline(vm, cmd, 5)
    return lines


def floors(vm, cmd, runs=10, compare=False):
    """The floors of exec -> READY=1 (kf-floor.c) next to ours, RUNS starts of each, interleaved (one start of
    every program per round) so that a change of the host's load hits them all alike. COMPARE: also the binary
    given with --compare (e.g. an older build), started the same way as /usr/bin/kmscon-felis-compare."""
    progs = [
        ("static do-nothing (exec alone)", "kf-floor-static"),
        ("do-nothing, dynamic: libc + libdrm", "kf-floor-libdrm"),
        ("do-nothing, dynamic: libc + libdrm + libseat (+ libsystemd and 6 more)", "kf-floor-libseat"),
        ("do-nothing, dynamic: libc + libdrm + FreeType (+ libpng, zlib, brotli)", "kf-floor-freetype"),
        ("do-nothing with our DT_NEEDED (exec + dynamic linking)", "kf-floor-linked"),
        ("static: card, one dumb buffer, TEST_ONLY + modeset commit, flip event", "kf-floor-static modeset"),
        ("static: the same, plane-only commit when the CRTC shows the mode", "kf-floor-static flip"),
        ("libc + libdrm + libseat: seat opened, card through libseat, modeset commit", "kf-floor-libseat seat"),
        ("our DT_NEEDED + modeset commit", "kf-floor-linked modeset"),
        ("our DT_NEEDED + plane-only commit", "kf-floor-linked flip"),
        ("kmscon-felis (unit's ExecStart=)", cmd),
        ("kmscon-felis --font-engine=builtin", cmd + " --font-engine=builtin"),
    ]
    if compare:
        progs.append(("--compare binary, same command line", cmd.replace("kmscon-felis", "kmscon-felis-compare", 1)))
    times = {p[1]: [] for p in progs}
    status = {}
    for _ in range(runs):
        for _label, prog in progs:
            rc, out = vm.sh("kf-notify-run -t 60 -k -- %s 2>/tmp/floor.err; sleep 0.3" % prog, timeout=180,
                            check=False)
            msgs, _, _, _ = parse_run(out)
            ready = [m for m in msgs if "READY=1" in m[2]]
            if ready:
                times[prog].append(ready[0][0] / 1000)
                st = re.search(r"STATUS=(.*)", ready[0][2])
                status[prog] = st.group(1) if st else ""
            else:
                _, err = vm.sh("cat /tmp/floor.err", check=False)
                print("no READY=1 from %s:\n%s\n%s" % (prog, out, err), flush=True)
    lines = ["exec -> READY=1, %d interleaved starts each: median ms (min-max)" % runs]
    for label, prog in progs:
        t = times[prog]
        lines.append("  %-72s %s" % (label + " [" + status.get(prog, "") + "]",
                                     "%7.1f (%.0f-%.0f)" % (statistics.median(t), min(t), max(t)) if t
                                     else "no READY=1"))
    print("\n".join(lines), flush=True)
    return lines


def timeline(vm, cmd, runs=5, extra=""):
    """Start-up phases: CMD --debug under kf-notify-run RUNS times; the median time of each "startup:" line
    (kf_log_phase, on CLOCK_MONOTONIC) from just before exec (kf-notify-run's T0), and of READY=1's arrival."""
    phases = {}
    order = []
    for _ in range(runs):
        rc, out = vm.sh("kf-notify-run -t 90 -k -- %s%s --debug 2>/tmp/kf-debug.log; grep startup: /tmp/kf-debug.log"
                        % (cmd, extra), timeout=180, check=False)
        t0 = re.search(r"^T0 (\d+)", out, re.M)
        if not t0:
            print("no T0 in:\n" + out)
            continue
        t0 = int(t0.group(1)) / 1000.0
        rows = [("exec", t0), ]
        rows += [(m.group(1), float(m.group(2)))
                 for m in re.finditer(r"\] (.*?) at (\d+\.\d+) ms \(\+", out)]
        main_ms = re.search(r"\(\+(\d+\.\d+) ms since main\)", out)
        if main_ms and len(rows) > 1:
            rows.insert(1, ("main", rows[1][1] - float(main_ms.group(1))))
        msgs, _, _, _ = parse_run(out)
        ready = [m for m in msgs if "READY=1" in m[2]]
        if ready:
            rows.append(("READY=1 received", t0 + ready[0][0] / 1000.0))
        for name, t in rows:
            if name not in phases:
                order.append(name)
            phases.setdefault(name, []).append(t - t0)
    lines = ["`%s%s --debug`, %d starts: median ms after exec (step from the previous phase)" % (cmd, extra, runs)]
    prev = 0.0
    for name in order:
        med = statistics.median(phases[name])
        lines.append("  %-28s %8.1f  (+%.1f)  [%s]" % (name, med, med - prev,
                                                       " ".join("%.0f" % v for v in phases[name])))
        prev = med
    print("\n".join(lines), flush=True)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--timeline", action="store_true", help="only the start-up phases (--debug timestamps)")
    ap.add_argument("--floors", action="store_true",
                    help="exec -> READY=1 of the floors (kf-floor.c) next to ours")
    ap.add_argument("--compare", metavar="BINARY",
                    help="with --floors: also time this kmscon-felis binary (e.g. one built from an older commit)")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    build_dir = Path(args.build_dir) if args.build_dir else default_build_dir()
    try:
        cmd = unit_command(build_dir)
        guest = guest_for(build_dir, ("udev", "kmscon") if args.bench else ("udev",), floors=args.floors,
                          compare=args.compare)
        with VM(guest, gpu="virtio", name="service") as vm:
            start_udev(vm)
            if args.floors:
                floors(vm, cmd, args.runs, compare=bool(args.compare))
                return
            if args.timeline:
                timeline(vm, cmd, args.runs)
                timeline(vm, cmd, args.runs, " --font-engine=builtin")
                return
            if args.bench:
                bench(vm, cmd)
                return
            def screen(vm):
                vm.wait_screen(lambda i: not i.is_uniform(), timeout=60, what="the login prompt on screen")
            try:
                report(True, "service-ready-virtio", test_ready(vm, cmd, screen))
            except (AssertionError, VMError) as e:
                report(False, "service-ready-virtio", str(e))
    except VMError as e:
        if args.bench:
            print("bench failed: %s" % e)
        else:
            report(False, "service-ready-virtio", str(e))


if __name__ == "__main__":
    main()
