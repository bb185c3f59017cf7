#!/usr/bin/env python3
"""Hotplug and DPMS. Connector hotplug on one virtio-gpu with two heads (max_outputs=2), one boot. QEMU 7.2 has no monitor command
that plugs a head: its VNC server forwards an RFB SetDesktopSize to the device (vmvnc.py), 800x600 connects the
second head with that preferred mode, 0x0 disconnects it, and the guest kernel sends a HOTPLUG=1 "change" uevent.
kmscon-felis runs on tty2 with a program that writes `stty size` to /tmp/sz at start and on each SIGWINCH.
  hotplug-clone-cycles   5 plug/unplug cycles: the grid goes to the smaller head (37x100 cells of the built-in
                         8x16 font on 800x600) and back (48x128 on 1024x768), the second head shows the console,
                         the fd count stays, RssAnon after the last unplug within 256 KiB
                         of the second's
  hotplug-while-blanked  blanked by --dpms-timeout, a head plugged: the grid follows while dark and the display
                         stays blanked (a hotplug is no input); a key wakes both heads, the new one showing the
                         console
  hotplug-while-away     tty1 in front, a head plugged and unplugged and plugged: back on tty2 (chvt), the grid is
                         the smaller head's and both heads show the console
  hotplug-card-cycles    the GPU removed (PCI hot-remove) and added 5 times under one instance: the console back on
                         it each time, the fd count as at start (lower without the card), RssAnon flat after the
                         first cycle
  hotplug-head-resized   the second head connected at 800x600, then its preferred mode 640x480 (another monitor,
                         no disconnect between): the head at 640x480 and the grid 30x80
  dpms-output-activity   --dpms-timeout=2 and a program printing a line every 0.5 s for 6 s: not blanked while it
                         prints (output is activity), blanked after it stops
"""
# timeout: 500
import argparse
import os
import re
import tempfile

import kftest
import vmlib
import vmvnc

PROG = ("trap 'stty size >/tmp/sz.tmp; mv /tmp/sz.tmp /tmp/sz' WINCH; stty size >/tmp/sz.tmp; mv /tmp/sz.tmp /tmp/sz; "
        "printf 'HOTPLUG TEST\\n'; while :; do sleep 0.2; done\n")
TICK = ("stty size >/tmp/sz.tmp; mv /tmp/sz.tmp /tmp/sz; i=0; while [ $i -lt 12 ]; do echo tick $i; i=$((i+1)); "
        "sleep 0.5; done; touch /tmp/ticks-done; exec sleep 100000\n")
BIG, SMALL = "48 128", "37 100"
NAMES = ["hotplug-clone-cycles", "hotplug-while-blanked", "hotplug-while-away", "hotplug-card-cycles", "hotplug-head-resized",
         "dpms-output-activity"]


def head_dump(vm, head):
    fd, tmp = tempfile.mkstemp(suffix=".ppm", dir=vm.tmpdir)
    os.close(fd)
    try:
        vm.qmp.cmd("screendump", filename=tmp, device="gpu0", head=head)
        return vmlib.Image.load(tmp)
    finally:
        os.unlink(tmp)


def wait_head_console(vm, head, size, what):
    """The console on HEAD: a SIZE picture that is not one colour (the program's text on it)."""
    vm.wait_until(lambda: (lambda i: (i.width, i.height) == size and not i.is_uniform())(head_dump(vm, head)),
                  60, what)


def grid(vm, rows_cols, what):
    vm.wait_file("/tmp/sz", 60, pattern="^%s$" % rows_cols)


def start(vm, dpms, script="/tmp/p.sh"):
    stop(vm)  # one a failed test left
    vm.sh("rm -f /tmp/sz /tmp/ticks-done; kmscon-felis --backend=drm --vt=2 --switchvt --verbose "
          "--font-engine=builtin --dpms-timeout=%d --login -- /bin/sh %s >/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid"
          % (dpms, script))
    grid(vm, BIG, "the first grid")


def stop(vm):
    """Ends the instance and waits for every kmscon-felis process to go: libseat's builtin seat server, a child,
    holds DRM master a moment longer, and an instance started meanwhile never gets it."""
    vm.sh("killall kmscon-felis 2>/dev/null; while pidof kmscon-felis >/dev/null; do sleep 0.1; done", timeout=30)


def proc_state(vm):
    """The fd count and RssAnon (KiB): the heap, not the dumb buffers' mappings, whose pages count in VmRSS as
    they are painted (one buffer more or less touched moved it by 3 MiB at 1024x768)."""
    out = vm.sh("p=$(cat /tmp/kf.pid); ls /proc/$p/fd | wc -l; grep RssAnon /proc/$p/status")
    fds, rss = re.search(r"(\d+)\s+RssAnon:\s+(\d+)", out).groups()
    return int(fds), int(rss)


def plug(vm, sock, on):
    vmvnc.set_head_size(sock, 800 if on else 0, 600 if on else 0)
    want = "connected" if on else "disconnected"
    vm.wait_until(lambda: vm.sh("cat /sys/class/drm/card0-Virtual-2/status").strip() == want, 30,
                  "Virtual-2 %s" % want)


def clone_cycles(vm, sock):
    start(vm, 0)
    fds0, _ = proc_state(vm)
    rss = []
    for cycle in range(5):
        plug(vm, sock, True)
        grid(vm, SMALL, "the grid of the 800x600 head, cycle %d" % cycle)
        wait_head_console(vm, 1, (800, 600), "the console on the second head, cycle %d" % cycle)
        plug(vm, sock, False)
        grid(vm, BIG, "the grid back at 1024x768, cycle %d" % cycle)
        # the modeset that drops the head (its buffers unmapped) after the start's and the cycles' before
        vm.wait_until(lambda: int(vm.sh("grep -c 'modeset with 1 output' /tmp/kf.log").strip()) >= cycle + 2, 30,
                      "the modeset without the second head, cycle %d" % cycle)
        fds, r = proc_state(vm)
        rss.append(r)
        print("cycle %d: fds %d (%d at start), RssAnon %d KiB" % (cycle, fds, fds0, r))
        kftest.check(fds == fds0, "fd count %d after cycle %d, %d at start" % (fds, cycle, fds0), vm)
    # After the first cycle: the 800x600 canvas freed there raises glibc's mmap threshold, so the next one comes
    # from the heap and stays in it (a step once, 2 MiB, not a growth per cycle).
    kftest.check(rss[-1] - rss[1] <= 256, "RssAnon grew from %d to %d KiB over cycles 1 to %d" % (
        rss[1], rss[-1], len(rss) - 1), vm)
    faults = kftest.log_faults(vm.sh("cat /tmp/kf.log"), warnings_ok=("input: warning: [keyboard.c",))
    kftest.check(not faults, "errors or warnings logged: %r" % faults, vm)
    stop(vm)


def while_blanked(vm, sock):
    start(vm, 2)
    vm.wait_file("/tmp/kf.log", 60, pattern="display blanked")
    plug(vm, sock, True)
    grid(vm, SMALL, "the grid of the 800x600 head while blanked")
    # A monitor plugged is no input: dark until a key, as the kernel's console stays
    kftest.check("display unblanked" not in vm.sh("cat /tmp/kf.log"), "the hotplug woke the display", vm)
    vm.sendkey("shift")
    vm.wait_file("/tmp/kf.log", 30, pattern="display unblanked")
    both_heads_then_unplug(vm, sock, "the head plugged while blanked", "after waking")


def both_heads_then_unplug(vm, sock, second, first_when):
    """The console on both heads (SECOND: which the 800x600 one is; FIRST_WHEN: when the first is looked at),
    then the second head unplugged: the grid back at 1024x768; the instance stopped."""
    wait_head_console(vm, 1, (800, 600), "the console on " + second)
    wait_head_console(vm, 0, (1024, 768), "the console on the first head " + first_when)
    plug(vm, sock, False)
    grid(vm, BIG, "the grid back at 1024x768")
    stop(vm)


def while_away(vm, sock):
    start(vm, 0)
    vm.sh("chvt 1")
    vm.wait_file("/tmp/kf.log", 30, pattern="display suspended")
    plug(vm, sock, True)
    plug(vm, sock, False)
    plug(vm, sock, True)
    vm.sh("chvt 2")
    vm.wait_file("/tmp/kf.log", 30, pattern="display resumed")
    grid(vm, SMALL, "the grid of the head plugged while away")
    both_heads_then_unplug(vm, sock, "the head plugged while away", "after the switch back")


def card_cycles(vm, sock):
    """The whole card removed and added (the kernel's PCI hot-remove, then a rescan) 5 times under one instance."""
    start(vm, 0)
    fds0, _ = proc_state(vm)
    rss = []
    for cycle in range(5):
        vm.unplug_gpu()
        vm.wait_until(lambda: int(vm.sh("grep -c 'card0: removed' /tmp/kf.log").strip()) > cycle, 30,
                      "the card's removal seen, cycle %d" % cycle)
        gone = proc_state(vm)[0]
        vm.plug_gpu()
        vm.wait_until(lambda: int(vm.sh("grep -c 'modeset with 1 output' /tmp/kf.log").strip()) >= cycle + 2, 60,
                      "the modeset on the card added again, cycle %d" % cycle)
        wait_head_console(vm, 0, (1024, 768), "the console on the card added again, cycle %d" % cycle)
        fds, r = proc_state(vm)
        rss.append(r)
        print("card cycle %d: fds %d (%d at start, %d without the card), RssAnon %d KiB" % (cycle, fds, fds0, gone, r))
        kftest.check(fds == fds0 and gone < fds0, "fd count %d (%d without the card) after cycle %d, %d at start" % (
            fds, gone, cycle, fds0), vm)
    kftest.check(rss[-1] - rss[1] <= 256, "RssAnon grew from %d to %d KiB over cycles 1 to %d" % (
        rss[1], rss[-1], len(rss) - 1), vm)
    stop(vm)


def head_resized(vm, sock):
    """A connected head whose preferred mode changes (another monitor on the same connector, no disconnect in
    between: QEMU resizes the head): the head goes to the new mode and the grid with it."""
    start(vm, 0)
    plug(vm, sock, True)
    grid(vm, SMALL, "the grid of the 800x600 head")
    vmvnc.set_head_size(sock, 640, 480)
    grid(vm, "30 80", "the grid of the head at 640x480")
    wait_head_console(vm, 1, (640, 480), "the console on the head at 640x480")
    plug(vm, sock, False)
    grid(vm, BIG, "the grid back at 1024x768")
    stop(vm)


def output_activity(vm, sock):
    """Output from the program is activity: printing every 0.5 s for 6 s keeps a 2 s timeout from blanking; once
    it stops, the display blanks."""
    start(vm, 2, "/tmp/tick.sh")
    vm.wait_file("/tmp/ticks-done", 60)
    kftest.check("display blanked" not in vm.sh("cat /tmp/kf.log"), "blanked while the program was printing", vm)
    vm.wait_file("/tmp/kf.log", 30, pattern="display blanked")
    stop(vm)


def main():
    if not kftest.binary_available():
        kftest.skip("kmscon-felis not built")
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", default=[], help="run only tests whose name contains this")
    only = ap.parse_args().only
    sock = os.path.join(tempfile.mkdtemp(prefix="kf-vnc-"), "head1.sock")
    vm = kftest.boot(gpu="virtio", outputs=2, files={"/tmp/p.sh": PROG, "/tmp/tick.sh": TICK},
                     extra_args=["-vnc", "unix:%s,display=gpu0,head=1" % sock])
    # udevd: libinput finds the keyboard that wakes the display through it
    vm.sh("/lib/systemd/systemd-udevd --daemon; udevadm trigger --action=add; udevadm settle", timeout=120)

    def run():
        for name, fn in zip(NAMES, (clone_cycles, while_blanked, while_away, card_cycles, head_resized,
                                   output_activity)):
            if not only or any(o in name for o in only):
                kftest.run_test(name, lambda: fn(vm, sock), vm)

    kftest.scenario(vm, "hotplug", NAMES, run)


kftest.main(main)
