#!/usr/bin/env python3
"""The systemd unit's ExecStart= command line on the virtio-gpu display sends READY=1 only once the first frame
is on screen, with STATUS= naming the mode and the font, and pings the watchdog from its event loop
(tests/service/servicevm.py; kf-notify-run plays systemd's part in the guest).
  service-no-display  a guest with no display it can drive (std VGA, booted with nomodeset: the VGA text console,
                      no DRM card, no /dev/fb0), the unit's command line on tty2 while tty1 is in front: READY=1
                      at once (waiting for VT 2); longer than the unit's --display-wait later it still waits (the
                      wait for the VT does not count); once switched to tty2 it exits with status 69 (no display)
                      after --display-wait seconds, so that the unit fails and OnFailure= starts getty there."""
# timeout: 480
import re
import sys
import time
from pathlib import Path

import kftest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))
import servicevm  # noqa: E402


def main():
    if not kftest.binary_available():
        kftest.skip("kmscon-felis not built")
    build_dir = kftest.vmlib.default_build_dir()
    cmd = servicevm.unit_command(build_dir)
    vm = kftest.boot(gpu="virtio", name="service",
                     files={"/usr/bin/kf-notify-run": servicevm.helper_path(build_dir)})
    servicevm.start_udev(vm)
    def screen(vm):
        # The first frame may be an empty screen (the login has not printed yet); its prompt follows.
        vm.wait_screen(lambda i: not i.is_uniform(), timeout=60, what="the login prompt on screen")
    print(servicevm.test_ready(vm, cmd, screen))
    print("PASS service-ready")
    vm.shutdown()
    vm = kftest.boot(gpu="none", name="service-nodisplay", extra_args=["-vga", "std"], append="nomodeset",
                     files={"/usr/bin/kf-notify-run": servicevm.helper_path(build_dir)})
    servicevm.start_udev(vm)
    kftest.scenario(vm, "service-nodisplay", ["service-no-display"],
                    lambda: kftest.run_test("service-no-display", lambda: no_display(vm, build_dir), vm))


def no_display(vm, build_dir):
    cmd = servicevm.unit_command(build_dir, "tty2")
    m = re.search(r"--display-wait=(\d+)", cmd)
    kftest.check(m is not None, "the unit's command line has no --display-wait: %s" % cmd)
    wait = int(m.group(1))
    print("  " + vm.sh("ls /dev/dri /dev/fb* 2>&1; cat /proc/fb; cat /sys/class/tty/tty0/active", check=False)[1].strip().replace("\n", " | "))
    vm.sh("chvt 1; (kf-notify-run -t 60 -- %s >/tmp/notify.out 2>/tmp/kf.log &)" % cmd)
    out = vm.wait_file("/tmp/notify.out", timeout=60, pattern="READY=1|EXIT|TIMEOUT")
    kftest.check("STATUS=waiting for VT 2 to become active" in out, "no READY=1 while waiting for VT 2:\n" + out, vm)
    time.sleep(wait + 5)
    out = vm.sh("cat /tmp/notify.out")
    kftest.check("EXIT" not in out, "it exited while waiting for its VT:\n" + out, vm)
    t0 = time.time()
    vm.sh("chvt 2")
    # Written to tty2 while the program holds it (KD_GRAPHICS: the text console draws nothing): 80x25 reverse-video
    # spaces, which the console draws once the VT is given back in text mode, as getty would need it.
    time.sleep(2)
    vm.sh("printf '\\033[H\\033[7m%2000s' '' >/dev/tty2")
    held = bright(vm.screendump())
    out = vm.wait_file("/tmp/notify.out", timeout=wait + 60, pattern="^EXIT")
    dt = time.time() - t0
    code = servicevm.parse_run(out)[3]
    log = vm.sh("cat /tmp/kf.log")
    print("  exit status %s %.1f s after the switch to tty2 (--display-wait=%d)" % (code, dt, wait))
    print("  " + "\n  ".join(x for x in log.splitlines() if "display" in x))
    kftest.check(code == 69, "exit status %s, not 69 (no display)" % code, vm)
    kftest.check(dt >= wait - 1, "exited %.1f s after the switch, before --display-wait=%d" % (dt, wait), vm)
    kftest.check("no usable display" in log and "display-wait" in log, "the log does not say why it exits", vm)
    after = vm.wait_screen(lambda i: bright(i) > 0.5, timeout=20, what="tty2's text drawn (the VT in text mode)")
    print("  screen lit by tty2's reverse-video text: %.2f while held, %.2f after the exit" % (held, bright(after)))
    kftest.check(held < 0.5, "tty2's text was drawn while the program held the VT", vm)


def bright(img):
    """The fraction of the screen's bytes above mid-grey."""
    return sum(1 for b in img.data if b > 100) / len(img.data)


kftest.main(main)
