#!/usr/bin/env python3
# timeout: 600
"""The seat switched away at start-up (tests/vm, virtio-gpu, libseat: builtin backend, and the seatd daemon).

  seat-away-display-wait  kmscon-felis --vt=2 --no-activate-vt --display-wait=W (the unit's way), tty1 in front;
                          chvt 2 and, as soon as the instance says the seat is enabled, chvt 1: the seat is
                          disabled before any frame reached the screen (checked in its log; tried again when the
                          frame won). Away for longer than W it must keep running: display-wait counts the time
                          its VT is in front. It exited 69 ("no usable display") with a working display, and the
                          unit then gave the VT to getty (OnFailure=). Back on tty2 the first frame comes and it
                          stays up.
  seat-away-wrong-vt      the same instance through the seatd daemon, which binds a client to the VT in front when
                          it joins the seat: VT 2 comes to the front, the instance goes to take the seat, and the
                          user goes on to VT 3 before seatd handles the request (seatd stopped with SIGSTOP until
                          then: a busy seatd). The instance must give VT 3 back (text mode, its keyboard on) and
                          wait for VT 2; it took VT 3 (graphics mode, keyboard off, its console drawn over VT 3's
                          text), while VT 2 stayed without it. Back on VT 2 it shows its first frame there.
  seat-away-master-held   another program holds the card's DRM master (kf-master, HOLD s: as the last instance's
                          seat helper, a child of libseat's builtin backend, does a moment after it exited, or a
                          compositor) when an instance starts on the VT in front: the seat enables it without
                          master ("Could not make device fd drm master: Device or resource busy"). It took the
                          refusal for a switch away and waited for a switch back that never came: dark for good.
                          It must say the hold once, and show its first frame within a few seconds of the holder's
                          exit, saying so once.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kftest  # noqa: E402

WAIT = 8  # --display-wait, seconds (the first frame after the switch back must come within it)
TRIES = 5
UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")


def log(vm):
    return vm.sh("cat /tmp/kf.log", check=False)[1]


def start(vm):
    vm.sh("chvt 1; rm -f /tmp/kf.log /tmp/kf.rc; (kmscon-felis --font-engine=builtin --debug --vt=2 --no-activate-vt "
          "--display-wait=%d --login -- /bin/sh >/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid; wait $!; "
          "echo $? >/tmp/kf.rc) &" % WAIT)
    vm.wait_file("/tmp/kf.log", timeout=60, pattern="waiting for VT 2")


def stop(vm):
    vm.sh("kill -TERM $(cat /tmp/kf.pid) 2>/dev/null; true")
    vm.wait_file("/tmp/kf.rc", timeout=60)


def away_before_first_frame(vm):
    """chvt 2, then chvt 1 as soon as the seat is ours. True when the log shows the disable before any frame."""
    # The shell loop only shortens the time on tty2; whether the disable beat the first frame is read from the log.
    vm.sh("chvt 2; i=0; until grep -q 'seat seat0 enabled' /tmp/kf.log || [ $i -ge 3000 ]; do i=$((i+1)); done; "
          "chvt 1", timeout=120)
    # the disable, or (the switch back came before the seat was opened) never an enable
    text = vm.wait_until(lambda: (lambda t: t if "seat seat0 disabled" in t or "seat seat0 enabled" not in t
                                  else None)(log(vm)), 60, "the seat disabled after chvt 1")
    disabled = text.find("seat seat0 disabled")
    frame = text.find("first frame on screen")
    return disabled >= 0 and (frame < 0 or frame > disabled)


def test(vm):
    for attempt in range(1, TRIES + 1):
        start(vm)
        if away_before_first_frame(vm):
            break
        print("  try %d: the first frame came before the switch away; again" % attempt)
        stop(vm)
    else:
        kftest.check(False, "in %d tries the first frame always came before the switch away" % TRIES, vm)
    print("  switched away before the first frame (try %d)" % attempt)
    t0 = time.time()
    time.sleep(WAIT + 4)  # longer than --display-wait, all of it away from tty2
    rc = vm.sh("cat /tmp/kf.rc 2>/dev/null || echo running").strip()
    print("  %.1f s away (--display-wait=%d): %s" % (time.time() - t0, WAIT,
                                                     "still running" if rc == "running" else "exit status " + rc))
    kftest.check(rc == "running", "it exited with status %s while its VT was away (display-wait counted the time "
                 "switched away):\n%s" % (rc, log(vm)), vm)
    kftest.check(vm.sh("cat /sys/class/tty/tty0/active").strip() == "tty1", "tty1 is not in front", vm)
    vm.sh("chvt 2")
    vm.wait_file("/tmp/kf.log", timeout=60, pattern="first frame on screen")
    time.sleep(WAIT + 2)  # the first frame ended the display-wait: nothing may end it now
    rc = vm.sh("cat /tmp/kf.rc 2>/dev/null || echo running").strip()
    kftest.check(rc == "running", "back on tty2 with its first frame, it exited with status %s:\n%s"
                 % (rc, log(vm)), vm)
    stop(vm)
    rc = vm.sh("cat /tmp/kf.rc").strip()
    kftest.check(rc == "0", "SIGTERM: exit status %s, not 0" % rc, vm)


def test_wrong_vt(vm):
    vm.sh("seatd -g root >/tmp/seatd.log 2>&1 & echo $! >/tmp/seatd.pid; i=0; "
          "while [ ! -S /run/seatd.sock ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; [ -S /run/seatd.sock ]")
    start(vm)
    vm.sh("kill -STOP $(cat /tmp/seatd.pid); chvt 2")
    # after this line the instance asks seatd for the seat, which answers once it runs again
    vm.wait_file("/tmp/kf.log", timeout=60, pattern="libseat backend seatd")
    vm.sh("chvt 3; kill -CONT $(cat /tmp/seatd.pid)")
    vm.wait_file("/tmp/kf.log", timeout=60, pattern="seat seat0 opened|VT 2 left the front")
    mode3 = vm.sh("kf-vtmode /dev/tty3").strip()
    active = vm.sh("cat /sys/class/tty/tty0/active").strip()
    print("  VT 3 in front (%s): %s" % (active, mode3))
    kftest.check(active == "tty3", "VT 3 is not in front: %s" % active, vm)
    kftest.check(mode3.startswith("kd=text") and "kb=off" not in mode3,
                 "VT 3 was taken by the instance that waits for VT 2 (%s):\n%s" % (mode3, log(vm)), vm)
    kftest.check("seat seat0 enabled" not in log(vm), "the instance was enabled on VT 3:\n" + log(vm), vm)
    vm.sh("chvt 2")
    vm.wait_file("/tmp/kf.log", timeout=60, pattern="first frame on screen")
    kftest.check(vm.sh("cat /sys/class/tty/tty0/active").strip() == "tty2", "VT 2 is not in front", vm)
    stop(vm)
    # seatd holds VT 2 in VT_PROCESS mode: a switch asked while it is exiting is never acknowledged and chvt
    # waits for good (ci-try156: the guest's shell hung here), so wait for it to be gone first
    vm.sh("p=$(cat /tmp/seatd.pid); kill $p; i=0; while kill -0 $p 2>/dev/null && [ $i -lt 100 ]; do "
          "sleep 0.1; i=$((i+1)); done; chvt 1")


HOLD = 8  # seconds kf-master holds the card (the instance must reach its first modeset within them)


def test_master_held(vm):
    vm.sh("chvt 1; rm -f /tmp/kf.log /tmp/kf.rc /tmp/master.ready /tmp/master.done; "
          "(kf-master /dev/dri/card0 %d /tmp/master.ready >/tmp/master.out 2>&1; touch /tmp/master.done) &" % HOLD)
    vm.wait_file("/tmp/master.ready", timeout=30)
    t0 = time.time()
    vm.sh("(kmscon-felis --font-engine=builtin --debug --vt=1 --login -- /bin/sh >/tmp/kf.log 2>&1 & "
          "echo $! >/tmp/kf.pid; wait $!; echo $? >/tmp/kf.rc) &")
    vm.wait_file("/tmp/master.done", timeout=HOLD + 60)
    held = vm.sh("grep -c 'not DRM master\\|drm master' /tmp/kf.log || true").strip()
    t_free = time.time()
    print("  kf-master let go after %.1f s; refusals of master in the log before that: %s" % (t_free - t0, held))
    kftest.check(held not in ("", "0"), "the instance got master while kf-master held it (the test raced):\n"
                 + log(vm), vm)
    rc, _ = vm.sh("i=0; until grep -q 'first frame on screen' /tmp/kf.log; do [ $i -ge 200 ] && exit 1; "
                  "i=$((i+1)); sleep 0.1; done", timeout=60, check=False)
    waited = time.time() - t_free
    text = log(vm)
    print("  first frame %s %.1f s after the holder let go; said held %d, obtained %d, switching away %d"
          % ("on screen" if rc == 0 else "NOT on screen", waited, text.count("held by another DRM master"),
             text.count("DRM master obtained"), text.count("seat is switching away")))
    kftest.check(rc == 0, "no first frame 20 s after the other DRM master let go:\n" + text, vm)
    kftest.check(text.count("held by another DRM master") == 1 and text.count("DRM master obtained") == 1,
                 "the hold and its end are not said once each:\n" + text, vm)
    stop(vm)


def main():
    if not kftest.binary_available():
        kftest.skip("kmscon-felis not built")
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", default=[], help="run only this test (repeatable)")
    args = ap.parse_args()
    tests = (("seat-away-display-wait", test), ("seat-away-wrong-vt", test_wrong_vt),
             ("seat-away-master-held", test_master_held))
    tests = [t for t in tests if not args.only or t[0] in args.only]
    names = [t[0] for t in tests]
    vm = kftest.boot(gpu="virtio", name="seat-away")
    vm.sh(UDEV, timeout=60)

    def run():
        for name, fn in tests:
            kftest.run_test(name, lambda: fn(vm), vm)
    kftest.scenario(vm, "seat-away", names, run)


if __name__ == "__main__":
    main()
