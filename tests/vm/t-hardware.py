#!/usr/bin/env python3
"""Runs the meson tests of the suite "hardware" (tests that need a DRM device or input devices; tests/run-all
leaves them out on the host) inside the guest, once with virtio-gpu and once with bochs. Each test executable
goes into the guest at its build path with its shared libraries; udevd runs and has been triggered; the test
gets its meson arguments, environment and timeout, plus KF_VM_GPU=virtio|bochs. Prints one line per test and
device: PASS/FAIL/SKIP hardware-<gpu>:<test>."""
# timeout: 600
import json
import shlex
import subprocess

import kftest
import vmlib


def hardware_tests():
    bdir = vmlib.default_build_dir()
    r = subprocess.run(["meson", "introspect", "--tests", str(bdir)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise kftest.VMError("meson introspect --tests %s failed: %s" % (bdir, r.stderr))
    return [t for t in json.loads(r.stdout) if any(s.split(":")[-1] == "hardware" for s in t["suite"])]


def run_on(gpu, tests):
    files = {}
    for t in tests:
        files[t["cmd"][0]] = t["cmd"][0]
    vm = kftest.boot(gpu=gpu, name="hardware-" + gpu, files=files)
    try:
        vm.sh("/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1; udevadm trigger --action=add; "
              "udevadm settle -t 20", timeout=90)
        for t in tests:
            env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted((t.get("env") or {}).items()))
            cmd = " ".join(shlex.quote(c) for c in t["cmd"])
            wd = t.get("workdir") or "/tmp"
            tmo = int(t.get("timeout") or 30) * 3  # TCG is slow
            rc, out = vm.sh("mkdir -p %s && cd %s && env KF_VM_GPU=%s %s timeout %d %s 2>&1" % (
                shlex.quote(wd), shlex.quote(wd), gpu, env, tmo, cmd), timeout=tmo + 30, check=False)
            for line in out.splitlines()[-30:]:
                print("  %s: %s" % (t["name"], line))
            tag = "PASS" if rc == 0 else "SKIP" if rc == 77 else "FAIL"
            print("%s hardware-%s:%s" % (tag, gpu, t["name"]))
    except kftest.VMError as e:
        print("hardware-%s: %s" % (gpu, e))
        print("FAIL hardware-%s" % gpu)
    finally:
        vm.shutdown()


def main():
    tests = hardware_tests()
    if not tests:
        print("no tests in the suite 'hardware'")
        return
    for gpu in ("virtio", "bochs"):
        run_on(gpu, tests)


kftest.main(main)
