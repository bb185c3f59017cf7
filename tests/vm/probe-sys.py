#!/usr/bin/env python3
"""Diagnostic (issue 5, session 10): where kmscon-felis's kernel time goes in the guest.

Boots the bench guest (same workloads and start command as tests/vm/bench) and for each workload prints the
terminal's counters around the 4 MiB cat: /proc/PID/stat (minflt, majflt, utime, stime), /proc/PID/status
(context switches), /proc/PID/schedstat, /proc/interrupts, /proc/vmstat (faults, THP) and the terminal's own
counter dumps (SIGRTMIN+1, signal 35 in the glibc guest; kmscon-felis/main.c log_stats_level, output.c
kf_output_log_stats) and what they counted during the cat. kmscon-felis runs with KMSCON_FELIS_PROFILE=1, so that
the dumps hold the read, parse, render and present times (without it they have none since session 51; --env
KMSCON_FELIS_PROFILE=0 runs it as the bench does, without the clocks). Options: --info (the guest's THP,
mitigations, CPU flags); --perf (the host's /usr/bin/perf in the guest: a `perf record -g -e cpu-clock` profile of
the terminal, its `perf script` saved gzipped in tests/vm/out/probe-perf-WORKLOAD-REP.txt.gz); --faults (`perf stat` of the system calls, page faults by
function and address, and by the mapping each faulted page lies in); --env (environment for kmscon-felis); --stty (settings the program applies to its
terminal before the cat, e.g. -opost: a diagnostic, not the bench's condition). See docs/benchmarks.md, issue 5, session 10.

    KF_BUILD_DIR=$PWD/build KF_VM_CACHE=/work/vm-cache SHARED_DIR=/work/shared tests/vm/probe-sys.py --info --perf
"""
import argparse
import importlib.machinery
import re
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
import vmlib  # noqa: E402

bench = importlib.machinery.SourceFileLoader("vmbench", str(here / "bench")).load_module()

# The two counters lines of a dump after the log's "TAG: level: [file:line] ": an exact start, as other lines may
# hold "pty: " (the pty/ module's own messages, a program's name)
DUMP = re.compile(r"\] (pty: \d+ bytes in |frames: rendered=)")
# What is compared around the cat: each is "name N" (pty:) or "name=N" (frames:); the times only with the profile
COUNTED = ("wakeups", "read_ms", "parse_ms", "read_cpu_ms", "parse_cpu_ms", "read_sys_cpu_ms", "rendered",
           "frame_cpu_ms", "render_ms", "present_ms", "render_cpu_ms", "present_cpu_ms")
COUNTED_RE = re.compile(r"\b(%s)[ =](\d+)\b" % "|".join(COUNTED))


def dumps(log):
    """The counters lines of the last two dumps in LOG (before and after the cat) and the difference of their
    COUNTED numbers; ([], {}) without two dumps."""
    lines = [ln.strip() for ln in log.splitlines() if DUMP.search(ln)]
    pty = [ln for ln in lines if "] pty: " in ln][-2:]
    frames = [ln for ln in lines if "] frames: " in ln][-2:]
    if len(pty) < 2:
        return [], {}
    frames = frames if len(frames) == 2 else ["", ""]
    before, after = (dict(COUNTED_RE.findall(p + " " + f)) for p, f in zip(pty, frames))
    return pty + [f for f in frames if f], {k: int(after[k]) - int(before.get(k, 0)) for k in COUNTED if k in after}


SNAP = ("cat /proc/%(pid)s/stat; grep ctxt /proc/%(pid)s/status; cat /proc/%(pid)s/schedstat; "
        "grep -E '^(pgfault|pgmajfault|thp_fault_alloc|thp_fault_fallback|pgalloc_normal|pgfree|thp_collapse_alloc)' "
        "/proc/vmstat; grep -E '^ *[0-9A-Z]+:' /proc/interrupts | awk '{print $1, $2}'")


def snap(vm, pid):
    out = vm.sh(SNAP % {"pid": pid})
    lines = out.splitlines()
    st = lines[0].split(")")[-1].split()
    d = {"minflt": int(st[7]), "majflt": int(st[9]), "utime": int(st[11]), "stime": int(st[12])}
    for ln in lines[1:]:
        m = re.match(r"(\w+_ctxt_switches):\s+(\d+)", ln)
        if m:
            d[m.group(1)] = int(m.group(2))
            continue
        m = re.match(r"^(\d+) (\d+) (\d+)$", ln)
        if m:
            d["exec_ns"], d["runq_ns"], d["slices"] = map(int, m.groups())
            continue
        m = re.match(r"^(\w+) (\d+)$", ln)
        if m:
            d["vm." + m.group(1)] = int(m.group(2))
            continue
        m = re.match(r"^\s*(\w+): (\d+)", ln)
        if m:
            d["irq." + m.group(1)] = int(m.group(2))
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf", action="store_true")
    ap.add_argument("--workloads", default="ascii,unicode,csi")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--env", default="", help="environment for kmscon-felis, e.g. KF_X=1")
    ap.add_argument("--stty", default="", help="stty settings the program applies to its terminal first, e.g. -opost")
    ap.add_argument("--faults", action="store_true", help="perf: page faults by function, syscall counts")
    ap.add_argument("--info", action="store_true", help="print the guest's THP, mitigations, cpu flags")
    a = ap.parse_args()
    wls = a.workloads.split(",")
    wdir = bench.gen_workloads(4 << 20)
    files = {"/bench/%s.bin" % w: (wdir / (w + ".bin")).read_bytes() for w in wls}
    if a.perf or a.faults:
        files["/usr/bin/perf"] = "/usr/bin/perf"
    guest = vmlib.build_guest().with_files(files, name="probe")
    with vmlib.VM(guest, gpu="virtio", name="probe") as vm:
        if a.info:
            print(vm.sh("cat /proc/cmdline; grep . /sys/kernel/mm/transparent_hugepage/enabled "
                        "/sys/kernel/mm/transparent_hugepage/defrag /sys/devices/system/cpu/vulnerabilities/*; "
                        "cat /sys/devices/system/clocksource/clocksource0/current_clocksource; "
                        "grep -m1 flags /proc/cpuinfo | tr ' ' '\\n' | grep -E '^(erms|fsrm|pcid|invpcid|avx2|smap|smep)$' | tr '\\n' ' '",
                        check=False)[1])
        for rep in range(a.reps):
            for w in wls:
                prog = "/usr/bin/kf-bench run /bench/%s.bin /tmp/result /tmp/go" % w
                if a.stty:
                    prog = "/bin/sh -c 'stty %s; exec %s'" % (a.stty, prog)
                cmd = "KMSCON_FELIS_PROFILE=1 %s kmscon-felis --backend=drm --vt=2 --switchvt --login -- %s" % (a.env, prog)
                vm.sh("rm -f /tmp/result /tmp/go; (%s) >/tmp/term.log 2>&1 & echo $! >/tmp/term.pid" % cmd)
                vm.sh("i=0; until ps -o pid,args | grep -q '^ *[0-9]* /usr/bin/kf-bench run'; do i=$((i+1)); "
                      "[ $i -gt 600 ] && exit 1; sleep 0.1; done; sleep 2", timeout=120)
                pid = vm.sh("cat /tmp/term.pid").strip()
                vm.sh("kill -35 %s; sleep 0.5" % pid, check=False)
                if a.perf:
                    vm.sh("perf record -q -g -e cpu-clock -F 2999 -p %s -o /tmp/perf.data >/tmp/perf.log 2>&1 & "
                          "echo $! >/tmp/perf.pid; sleep 1" % pid)
                if a.faults:
                    vm.sh("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; "
                          "perf record -q -d -e page-faults -c 1 -p %s -o /tmp/pf.data >/tmp/pf.log 2>&1 & echo $! >/tmp/pf.pid; "
                          "perf stat -e raw_syscalls:sys_enter,context-switches,page-faults,syscalls:sys_enter_read,"
                          "syscalls:sys_enter_ioctl,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_mmap,"
                          "syscalls:sys_enter_munmap,syscalls:sys_enter_madvise,syscalls:sys_enter_clock_gettime,"
                          "syscalls:sys_enter_timerfd_settime,syscalls:sys_enter_brk,syscalls:sys_enter_mremap "
                          "-p %s -o /tmp/stat.txt >/dev/null 2>&1 & echo $! >/tmp/stat.pid; sleep 8" % (pid, pid))
                s0 = snap(vm, pid)
                vm.sh("touch /tmp/go")
                vm.wait_file("/tmp/result", timeout=900)
                vm.sh("sleep 0.3")
                s1 = snap(vm, pid)
                vm.sh("kill -35 %s; sleep 0.5" % pid, check=False)
                d = {k: s1[k] - s0.get(k, 0) for k in s1}
                print("== rep %d %s: minflt %d majflt %d utime %d stime %d (ticks 10ms) exec %.3f s runq %.3f s "
                      "slices %d csw vol %d invol %d" % (
                          rep + 1, w, d["minflt"], d["majflt"], d["utime"], d["stime"], d["exec_ns"] / 1e9,
                          d["runq_ns"] / 1e9, d["slices"], d.get("voluntary_ctxt_switches", 0),
                          d.get("nonvoluntary_ctxt_switches", 0)), flush=True)
                print("   vm: " + " ".join("%s %d" % (k[3:], v) for k, v in sorted(d.items()) if k.startswith("vm.")))
                print("   irq: " + " ".join("%s %d" % (k[4:], v) for k, v in sorted(d.items())
                                            if k.startswith("irq.") and v))
                log = vm.sh("cat /tmp/term.log", check=False)[1]
                lines, diff = dumps(log)
                for ln in lines:
                    print("   " + ln[:400])
                print("   during the cat: " + (", ".join("%s %d" % kv for kv in diff.items()) if diff else
                                               "(no two counter dumps in the log)"))
                if a.faults:
                    vm.sh("kill -INT $(cat /tmp/pf.pid) $(cat /tmp/stat.pid); sleep 3", check=False)
                    print(vm.sh("cat /tmp/stat.txt; perf report -i /tmp/pf.data --stdio --sort sym,dso 2>/dev/null | "
                                "grep -v '^#' | grep -v '^$' | head -25; perf script -i /tmp/pf.data -F ip,sym,addr 2>/dev/null | "
                                "awk '{print substr($1,1,9), $3}' | sort | uniq -c | sort -rn | head -20; "
                                "cat /proc/%s/maps | grep -v '\.so' | head -40" % pid, timeout=300, check=False)[1])
                    # each fault's mapping (from the terminal's maps) and the functions that took it
                    maps = vm.sh("cat /proc/%s/maps" % pid, check=False)[1].splitlines()
                    ranges = []
                    for ln in maps:
                        f = ln.split()
                        lo, hi = (int(x, 16) for x in f[0].split("-"))
                        ranges.append((lo, hi, f[0] + " " + (f[5] if len(f) > 5 else "[anon]")))
                    per = {}
                    vm.sh("perf script -i /tmp/pf.data -F ip,sym,addr >/tmp/pf.txt 2>/dev/null", timeout=300,
                          check=False)
                    raw = vm.get_file("/tmp/pf.txt", timeout=300).decode(errors="replace")
                    for ln in raw.splitlines():
                        f = ln.split()
                        if not f:
                            continue
                        try:
                            addr = int(f[0], 16)
                        except ValueError:
                            continue
                        name = next((r[2] for r in ranges if r[0] <= addr < r[1]), "?")
                        e = per.setdefault(name, {})
                        sym = f[-1] if len(f) > 2 else "?"  # addr [addr-sym] ip ip-sym
                        e[sym] = e.get(sym, 0) + 1
                    for name, e in sorted(per.items(), key=lambda kv: -sum(kv[1].values())):
                        print("   faults %4d in %s: %s" % (sum(e.values()), name, ", ".join(
                            "%s %d" % kv for kv in sorted(e.items(), key=lambda kv: -kv[1])[:6])))
                if a.perf:
                    vm.sh("kill -INT $(cat /tmp/perf.pid); sleep 2", check=False)
                    rep_txt = vm.sh("perf report -i /tmp/perf.data --stdio --sort dso,sym 2>/dev/null | "
                                    "grep -v '^#' | grep -v '^$' | head -60", timeout=300, check=False)[1]
                    print(rep_txt)
                    vm.sh("perf script -i /tmp/perf.data -F comm,tid,ip,sym,dso 2>/dev/null | gzip -1 >/tmp/perf.txt.gz",
                          timeout=600, check=False)
                    out = vmlib.OUT / ("probe-perf-%s-%d.txt.gz" % (w, rep + 1))
                    out.write_bytes(vm.get_file("/tmp/perf.txt.gz", timeout=600))
                    print("   perf script: %s" % out)
                bench.Bench(vm, 2.0).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
