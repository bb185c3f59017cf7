#!/usr/bin/env python3
# timeout: 900
"""The whole console in a QEMU guest (issue 6), what a switch away does to an instance (t-console.py has the
rest, vmconsole.py the parts both use): keys, buttons and lock LEDs held or changed while its VT is not shown
(libseat's builtin backend and chvt), and instances stopped, their GPU re-plugged or a keyboard unplugged while
away. Prints one line per test: PASS name / FAIL name / SKIP name.

    tests/vm/t-console-away.py [--only NAME]... [--debug]
"""

import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from vmlib import VMError  # noqa: E402
from vmconsole import (find_text, wait_text, start, boot, input_fds, key, fds, active_vt, wait_shown,
                       wait_hidden, mouse_on_marker, switch, TABLET, tablet, button, echo_and_select, start_pair,
                       run_tests, parse_args)  # noqa: E402


def test_mods_after_switch(vm):
    """Ctrl+Alt held from the Ctrl+Alt+F1 that brought instance 1 back, then let go before any other key: a
    click reported to the application (1000 + 1006) carries no modifier. libinput never reports the release
    of a key whose press it did not see (the instance counted Ctrl and Alt as held when it opened the
    keyboard), so only the kernel's key state tells they were let go."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    vm.type_text(mouse_on_marker())
    wait_text(vm, "MOUSE-ON")
    enabled = {1: input_fds(vm, 1)}
    start(vm, 2, "--vt=2 --switchvt")
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "MOUSE-ON"), timeout=30,
                   what="the second instance's screen")
    # The same input devices: instance 2 takes Ctrl+Alt+F1 once it has them all open.
    wait_shown(vm, 2, enabled[1], "instance 2 started")
    key(vm, "ctrl", True)
    key(vm, "alt", True)
    key(vm, "f1", True)
    key(vm, "f1", False)
    wait_shown(vm, 1, enabled[1], "Ctrl+Alt+F1")
    time.sleep(0.5)
    key(vm, "alt", False)
    key(vm, "ctrl", False)
    time.sleep(0.5)
    tablet(vm, 10, 10)
    button(vm, "left", True)
    button(vm, "left", False)
    time.sleep(0.5)
    wait_text(vm, "[<0;11;11M")
    if find_text(vm.screendump(), "[<24;"):
        vm.fail("the click after the switch carried Ctrl+Alt:\n%s" % vm.sh("tail -n 20 /tmp/kf1.log"))


def held_across_switch(vm, enabled, what, let_go):
    """VT 2 (no instance there) brought to the front with chvt while WHAT is held on instance 1, LET_GO called
    once instance 1 has closed its input devices, then VT 1 again until instance 1 has them all open."""
    vm.sh("chvt 2")
    wait_hidden(vm, 1, "chvt 2 with %s held" % what)
    let_go()
    vm.sh("chvt 1")
    wait_shown(vm, 1, enabled[1], "chvt 1")


def test_middle_away(vm):
    """The middle button held while the VT leaves and let go on the other VT: nothing is pasted. libinput
    releases the buttons held when the instance suspends it at the switch away, and that release, taken as the
    end of a middle click of ours, pasted the clipboard into the shell of a VT no longer shown."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    echo_and_select(vm, "mid789")
    enabled = {1: input_fds(vm, 1)}
    vm.type_text("echo MIDQ")
    tablet(vm, 40, 20)
    button(vm, "middle", True)
    time.sleep(0.3)
    held_across_switch(vm, enabled, "the middle button", lambda: button(vm, "middle", False))
    time.sleep(0.3)
    vm.type_text("\n")
    wait_text(vm, "MIDQ", 2)
    img = vm.screendump()
    if find_text(img, "MIDQmid"):
        img.save(os.path.join(os.environ.get("KF_VM_OUT", "/tmp"), "console-middle-away.png"))
        vm.fail("the middle button held across the switch away pasted the clipboard:\n%s"
                % vm.sh("grep -v 'libinput:\\|libseat:' /tmp/kf1.log | tail -n 40"))


def lock_leds(vm):
    """The brightness of every keyboard's Caps Lock and Num Lock LED: {"capslock": {...}, "numlock": {...}}."""
    out = vm.sh("for l in /sys/class/leds/input*::capslock /sys/class/leds/input*::numlock; do "
                "[ -e $l ] && echo $l $(cat $l/brightness); done; true")
    leds = {"capslock": {}, "numlock": {}}
    for line in out.splitlines():
        if line.strip():
            path, value = line.split()
            leds[path.rsplit("::", 1)[1]][path] = value
    return leds


def test_locks_after_switch(vm):
    """Caps Lock and Num Lock turned on in instance 1, then a VT without an instance (its kernel keyboard state
    has both off) shown and left: back on VT 1, the locks are instance 1's again, on the keyboards' LEDs and in
    what its keys type (the letters upper case, the keypad's 1 a digit)."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    enabled = {1: input_fds(vm, 1)}
    vm.sendkey("caps_lock")
    vm.sendkey("num_lock")
    lit = lambda: all(v == "1" for leds in lock_leds(vm).values() for v in leds.values())
    vm.wait_until(lambda: lock_leds(vm)["capslock"] and lit(), timeout=10,
                  what="Caps Lock and Num Lock LEDs lit (%s)" % lock_leds(vm))
    away = {}
    held_across_switch(vm, enabled, "nothing", lambda: away.update(lock_leds(vm)))
    try:
        vm.wait_until(lit, timeout=10, what="the LEDs lit again on VT 1")
    except VMError as e:
        raise VMError("%s: away %s, back %s" % (e, away, lock_leds(vm)))
    for k in ("e", "c", "h", "o", "spc", "q", "z", "kp_1", "ret"):
        vm.sendkey(k)
        time.sleep(0.05)
    wait_text(vm, "ECHO QZ1")


def test_kitty_release_away(vm):
    """Under the kitty keyboard protocol's event types (CSI > 2 u) a key held while the VT leaves and let go on
    the other VT: the application has its press and no release, as kitty drops the releases of a focus change
    (docs/seat.md). seatd and libseat's builtin backend revoke the evdev fds before the instance's disable
    handler runs, and libinput's releases of the keys held then came as the user's own."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    enabled = {1: input_fds(vm, 1)}
    vm.type_text("printf '\\033[>2uKITTY''-ON\\n'; cat\n")
    wait_text(vm, "KITTY-ON")
    key(vm, "up", True)
    time.sleep(0.1)
    held_across_switch(vm, enabled, "Up", lambda: key(vm, "up", False))
    vm.sendkey("down")
    time.sleep(0.3)
    wait_text(vm, "[1;1:3B")  # Down pressed and let go after the return: its release is sent
    img = vm.screendump()
    if not find_text(img, "[A"):
        vm.fail("the press of Up did not reach the application")
    if find_text(img, "[1;1:3A"):
        img.save(os.path.join(os.environ.get("KF_VM_OUT", "/tmp"), "console-kitty-release-away.png"))
        vm.fail("the release of a key held across the switch away was sent:\n%s"
                % vm.sh("grep -v 'libinput:\\|libseat:' /tmp/kf1.log | tail -n 30"))


def test_report_release_away(vm):
    """Mouse reporting on (1000 + 1006): the left button held while the VT leaves and let go on the other VT. The
    application had the press, so it gets the release (libinput's, as the seat takes the mouse back), once, at
    the press's cell: it is not left mid-drag. A click after the return is reported as usual."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    enabled = {1: input_fds(vm, 1)}
    vm.type_text(mouse_on_marker())
    wait_text(vm, "MOUSE-ON")
    tablet(vm, 10, 10)
    button(vm, "left", True)
    time.sleep(0.3)
    held_across_switch(vm, enabled, "the left button", lambda: button(vm, "left", False))
    tablet(vm, 20, 12)
    button(vm, "left", True)
    button(vm, "left", False)
    wait_text(vm, "[<0;21;13m")
    img = vm.screendump()
    if len(find_text(img, "[<0;11;11m")) != 1 or len(find_text(img, "[<0;11;11M")) != 1:
        vm.fail("the press and release at 11;11: %d presses, %d releases reported" % (
            len(find_text(img, "[<0;11;11M")), len(find_text(img, "[<0;11;11m"))))


def test_unplug_held(vm):
    """A USB keyboard unplugged while one of its keys is held (and repeats): the repeat stops at once, and the
    other keyboard types plain letters afterwards. libinput releases the keys of a device it removes; the key's
    press went to the application (cat), so that release is the user's and ends the repeat."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    base = input_fds(vm, 1)
    vm.qmp.cmd("device_add", driver="usb-kbd", id="usbkbd", bus="xhci.0", display="gpu0")
    vm.wait_until(lambda: input_fds(vm, 1) > base, timeout=30, what="instance 1 to open the USB keyboard")
    vm.type_text("cat >/dev/null\n")
    time.sleep(0.5)
    # to the USB keyboard: it is bound to gpu0's console, the virtio keyboard to none
    vm.qmp.cmd("input-send-event", device="gpu0", events=[
        {"type": "key", "data": {"down": True, "key": {"type": "qcode", "data": "x"}}}])
    time.sleep(1.0)
    held = vm.screendump()
    time.sleep(0.5)
    if held.data == vm.screendump().data:
        vm.fail("the key held on the USB keyboard does not repeat:\n%s" % vm.sh("tail -n 20 /tmp/kf1.log"))
    vm.qmp.cmd("device_del", id="usbkbd")
    vm.wait_until(lambda: input_fds(vm, 1) == base, timeout=30, what="instance 1 to close the unplugged keyboard")
    time.sleep(0.5)
    a = vm.screendump()
    time.sleep(2)
    if a.data != vm.screendump().data:
        vm.fail("the key held on the unplugged keyboard goes on repeating")
    vm.sendkey("ctrl-c")
    vm.type_text("echo UNPLUG''-DONE\n")
    wait_text(vm, "UNPLUG-DONE")


def vt_modes(vm, n):
    """kf-vtmode's line for /dev/ttyN: "kd=text kb=unicode switch=auto" on a VT no program holds."""
    return vm.sh("kf-vtmode /dev/tty%d" % n).strip()


def test_stop_switched_away(vm):
    """Stopped while switched away, and stopped in front: each instance gives its VT back as it found it (text
    mode, the keyboard mode it had), or the VT shows nothing and takes no keys once the user comes back to it.
    Instance 1 on tty1 is reloaded (SIGHUP) then stopped (SIGTERM) while instance 2 on tty2 is in front; then
    instance 2, in front, is stopped. libseat leaves VT_PROCESS behind (docs/seat.md): after a chvt to each VT
    (the kernel resets a VT whose switching process is gone) all three modes are as before."""
    if active_vt(vm) != "tty1":
        vm.sh("chvt 1")
    before = {1: vt_modes(vm, 1), 2: vt_modes(vm, 2)}
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    vm.type_text("echo ONE-ONE\n")
    wait_text(vm, "ONE-ONE", 2)
    held = vt_modes(vm, 1)
    start(vm, 2, "--vt=2 --switchvt")
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "ONE-ONE"), timeout=30,
                   what="the second instance's screen")
    wait_hidden(vm, 1, "instance 2 started")
    vm.sh("kill -HUP $(cat /tmp/kf1.pid)")
    vm.wait_file("/tmp/kf1.log", pattern="reload", timeout=20)
    vm.sh("kill -TERM $(cat /tmp/kf1.pid)")
    vm.wait_until(lambda: vm.sh("kill -0 $(cat /tmp/kf1.pid)", check=False)[0] != 0, timeout=20,
                  what="instance 1 to stop")
    after1 = vt_modes(vm, 1)
    vm.sh("kill -TERM $(cat /tmp/kf2.pid)")
    vm.wait_until(lambda: vm.sh("kill -0 $(cat /tmp/kf2.pid)", check=False)[0] != 0, timeout=20,
                  what="instance 2 to stop")
    after2 = vt_modes(vm, 2)
    print("    tty1 %r, held %r, stopped away %r; tty2 %r, stopped in front %r"
          % (before[1], held, after1, before[2], after2))

    def text_kb(m):  # libseat (seatd's vt_close) leaves VT_PROCESS: the kernel resets it at the next switch
        return m.split()[:2]
    if text_kb(after1) != text_kb(before[1]) or text_kb(after2) != text_kb(before[2]):
        vm.fail("a VT left in another mode than found: tty1 %r -> %r (stopped switched away), tty2 %r -> %r "
                "(stopped in front)\n%s" % (before[1], after1, before[2], after2,
                                             vm.sh("tail -n 20 /tmp/kf1.log; echo ====; tail -n 20 /tmp/kf2.log")))
    # Both VTs switch as before, back to VT_AUTO: the user can go to either and use it.
    for n in (1, 2):
        vm.sh("chvt %d" % n)
        vm.wait_until(lambda: active_vt(vm) == "tty%d" % n, timeout=10, what="chvt %d after both stopped" % n)
    for n in (1, 2):
        if vt_modes(vm, n) != before[n]:
            vm.fail("tty%d after a switch: %r, not %r as before" % (n, vt_modes(vm, n), before[n]))


def test_gpu_replug_away(vm):
    """The GPU unplugged and plugged again while instance 1 is switched away (instance 2 in front): both
    instances show their screens and take keys again, instance 2 at once, instance 1 when Ctrl+Alt+F1 brings it
    back."""
    enabled = start_pair(vm)
    enabled[2] = enabled[1]
    vm.type_text("echo TWO-TWO\n")
    wait_text(vm, "TWO-TWO", 2)
    wait_hidden(vm, 1, "instance 2 started")
    vm.unplug_gpu()
    time.sleep(1)
    vm.plug_gpu()
    vm.type_text("echo TWO-BACK\n")
    vm.wait_screen(lambda im: len(find_text(im, "TWO-BACK")) >= 2, timeout=30,
                   what="instance 2's screen after the GPU came back")
    switch(vm, 1, enabled, "to-1 after the replug")
    vm.type_text("echo ONE-BACK\n")
    vm.wait_screen(lambda im: len(find_text(im, "ONE-BACK")) >= 2 and len(find_text(im, "ONE-ONE")) >= 2
                   and not find_text(im, "TWO-TWO"), timeout=30, what="instance 1's screen after the replug")
    for n in (1, 2):
        if vm.sh("kill -0 $(cat /tmp/kf%d.pid)" % n, check=False)[0]:
            vm.fail("instance %d died:\n%s" % (n, vm.sh("tail -n 30 /tmp/kf%d.log" % n)))


def test_keyboard_unplug_away(vm):
    """A USB keyboard unplugged while instance 1 is switched away: back on VT 1, instance 1 holds exactly the
    fds it had before that keyboard was plugged in (nothing stale, nothing leaked) and types with the virtio
    keyboard."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    vm.type_text("echo ONE-ONE\n")
    wait_text(vm, "ONE-ONE", 2)
    base_inputs, base_fds = input_fds(vm, 1), fds(vm, 1)
    vm.qmp.cmd("device_add", driver="usb-kbd", id="usbkbd", bus="xhci.0", display="gpu0")
    vm.wait_until(lambda: input_fds(vm, 1) > base_inputs, timeout=30, what="instance 1 to open the USB keyboard")
    enabled = {1: input_fds(vm, 1)}
    start(vm, 2, "--vt=2 --switchvt")
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "ONE-ONE"), timeout=30,
                   what="the second instance's screen")
    wait_shown(vm, 2, enabled[1], "instance 2 started")
    wait_hidden(vm, 1, "instance 2 started")
    vm.qmp.cmd("device_del", id="usbkbd")
    vm.wait_until(lambda: input_fds(vm, 2) == base_inputs, timeout=30,
                  what="instance 2 to close the unplugged keyboard")
    vm.sendkey("ctrl-alt-f1")
    vm.wait_until(lambda: active_vt(vm) == "tty1" and input_fds(vm, 1) == base_inputs, timeout=30,
                  what="VT 1 back with instance 1's %d evdev fds" % base_inputs)
    vm.type_text("echo ONE-BACK\n")
    wait_text(vm, "ONE-BACK", 2)
    vm.wait_until(lambda: fds(vm, 1) == base_fds, timeout=10,
                  what="instance 1's fd count back to %d (now %d)" % (base_fds, fds(vm, 1)))


def main():
    args = parse_args()
    tests = [
        ("console-stop-switched-away", lambda: test_stop_switched_away(boot("console-stop-away"))),
        ("console-gpu-replug-away", lambda: test_gpu_replug_away(boot("console-replug"))),
        ("console-keyboard-unplug-away",
         lambda: test_keyboard_unplug_away(boot("console-kbd-unplug", usb=True))),
        ("console-mods-after-switch", lambda: test_mods_after_switch(boot("console-mods", extra_args=TABLET))),
        ("console-middle-away", lambda: test_middle_away(boot("console-middle-away", extra_args=TABLET))),
        ("console-locks-after-switch", lambda: test_locks_after_switch(boot("console-locks"))),
        ("console-kitty-release-away", lambda: test_kitty_release_away(boot("console-kitty-away"))),
        ("console-unplug-held", lambda: test_unplug_held(boot("console-unplug-held", usb=True))),
        ("console-report-release-away",
         lambda: test_report_release_away(boot("console-report-away", extra_args=TABLET))),
    ]
    return run_tests(tests, args.only)


if __name__ == "__main__":
    sys.exit(main())
