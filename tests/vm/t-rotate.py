#!/usr/bin/env python3
"""kmscon-felis --rotate on virtio-gpu: the scanned-out screen against kmscon-felis-replay --png turned, pixel for
pixel.

kmscon-felis (the built-in font) runs a program that writes a fixed byte stream. The expected picture is the
replay of the same bytes at the grid the turned display holds (1024x768 turned right or left is 768 wide and 1024
tall), black right of and below the grid, turned as the option says onto the 1024x768 panel: right puts the
picture's top-left at the panel's top-right (fbcon=rotate:1), left at the bottom-left, inverted at the
bottom-right. Tests:
  rotate-right, rotate-left, rotate-inverted   the first frame with --rotate=NAME
  rotate-grab                                  started normal, <Logo>= (grab-rotate-cw) turns it right at run
                                               time: the program sees the new size (stty size) and what it
                                               writes then is shown turned
  rotate-pointer                               turned right, a click of the virtio tablet (positions across the
                                               panel as mounted) is reported (SGR 1006) on the cell drawn under
                                               it, for two cells
  rotate-right-bochs, rotate-left-bochs        the first frame on bochs (a driver that prefers a shadow: its
                                               dumb buffers are VRAM, write-combined), in a second boot
"""
# timeout: 1200
import sys
import time

import kftest
import vmlib
import vmscreen
from vmlib import Image

FONT = ["--font-engine=builtin"]
W, H = 1024, 768
UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")

STREAM = ("\033[?25l\033[2J\033[H"
          "kmscon-felis turned \033[1mbold\033[0m \033[4munderline\033[0m \033[7mreverse\033[0m\r\n"
          + "".join("\033[38;5;%dm%02d\033[0m" % (c, c) for c in range(16)) + "\r\n"
          "\033[48;2;40;80;160m truecolour background \033[0m\r\n"
          "\033[10;20Hpositioned text at 10;20\033[20;1H\033[31;42m red on green \033[0m\r\n"
          "\033[40;5Hrow 40 (only on a tall screen)\033[H").encode()


def turned_size(rot):
    return vmscreen.turned_size(rot, W, H)


def panel(exp, rot):
    """The 1024x768 panel showing the picture EXP (the replay: the grid region) turned by ROT, black elsewhere."""
    return vmscreen.panel(exp, rot, W, H)


def replay(vm, cols, rows, name, stream="/tmp/stream.bin"):
    vm.sh("kmscon-felis-replay --size %dx%d --format none --png /tmp/%s.png %s - <%s"
          % (cols, rows, name, " ".join(FONT), stream), timeout=300)
    path = vmlib.OUT / ("rotate-%s.png" % name)
    path.write_bytes(vm.get_file("/tmp/%s.png" % name))
    return Image.load(path)


def expect(vm, want, what, timeout=120):
    last = [None]

    def ok(img):
        last[0] = img
        return img.width == want.width and img.height == want.height and img.data == want.data

    try:
        vm.wait_screen(ok, timeout=timeout, interval=1.0, what=what)
    except vmlib.VMError:
        if last[0] is not None and last[0].width == want.width and last[0].height == want.height:
            vmlib.compare(last[0], want, save_prefix=vmlib.OUT / ("rotate-%s" % what.split()[0]))
        raise


# An absolute pointer bound to the display (see tests/vm/README.md, "Pointer"): positions across the panel.
TABLET = ["-device", "virtio-tablet-pci,id=tablet0,bus=pcie.0,display=gpu0"]


def start(vm, args, prog="/tmp/prog.sh"):
    vm.sh("rm -f /tmp/go /tmp/size /tmp/reports; kmscon-felis --backend=drm --vt=2 --switchvt --dpms-timeout=0 "
          "%s %s --login -- /bin/sh %s >/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid" % (" ".join(FONT), args, prog))


def wait_input(vm):
    """The keyboard and pointers come with the input module, after the first frame: waits for libinput's
    devices (an info message: start with --verbose), logged once libinput has opened them all."""
    vm.wait_until(lambda: "keyboards" in vm.sh("cat /tmp/kf.log", check=False)[1], timeout=60, interval=0.5,
                  what="the input devices (\"N keyboards\" in the log)")


def stop(vm):
    """Ends the instance (SIGTERM, then SIGKILL after 5 s) before the next one takes the VT."""
    vm.sh("p=$(cat /tmp/kf.pid); kill $p 2>/dev/null; for i in $(seq 50); do kill -0 $p 2>/dev/null || break; "
          "sleep 0.1; done; kill -9 $p 2>/dev/null; true", check=False)


def expected(vm, rots):
    """The replays of the stream at the grid of each rotation of ROTS, by name; and the cell size."""
    probe = replay(vm, 10, 2, "probe")
    cw, ch = probe.width // 10, probe.height // 2
    exp = {}
    for rot in rots:
        lw, lh = turned_size(rot)
        exp[rot] = replay(vm, lw // cw, lh // ch, rot)
    return exp, cw, ch


def first_frames(vm, exp, rots, suffix=""):
    for rot in rots:
        start(vm, "--rotate=" + rot)
        kftest.run_test("rotate-" + rot + suffix,
                        lambda: expect(vm, panel(exp[rot], rot), "first frame turned " + rot), vm)
        stop(vm)


def bochs():
    vm = kftest.boot(gpu="bochs", name="rotate-bochs", files={"/tmp/stream.bin": STREAM,
                                                                "/tmp/prog.sh": "cat /tmp/stream.bin; exec sleep 100000\n"})

    def run():
        exp, _, _ = expected(vm, ("right", "left"))
        first_frames(vm, exp, ("right", "left"), "-bochs")

    kftest.scenario(vm, "rotate-bochs", ("rotate-right-bochs", "rotate-left-bochs"), run)


def main():
    if not (kftest.binary_available() and kftest.binary_available("kmscon-felis-replay")):
        kftest.skip("kmscon-felis or kmscon-felis-replay not built")
    virtio()
    bochs()


def virtio():
    # The stream, then (after /tmp/go) the size the program sees and the stream again at that size.
    prog = ("cat /tmp/stream.bin; while [ ! -e /tmp/go ]; do sleep 0.1; done; stty size >/tmp/size; "
            "cat /tmp/stream.bin; exec sleep 100000\n")
    # Mouse reports (1000 + SGR 1006) asked for, then every byte the terminal sends written to /tmp/reports.
    mouse = "printf '\\033[?25l\\033[?1000h\\033[?1006h'; stty raw -echo; exec cat >/tmp/reports\n"
    vm = kftest.boot(gpu="virtio", name="rotate", files={"/tmp/stream.bin": STREAM, "/tmp/prog.sh": prog,
                                                         "/tmp/mouse.sh": mouse, "/tmp/blank.bin": b"\033[?25l"},
                     extra_args=TABLET)
    names = ["rotate-right", "rotate-left", "rotate-inverted", "rotate-grab", "rotate-pointer"]

    def run():
        exp, cw, ch = expected(vm, ("normal", "right", "left", "inverted"))
        lw, lh = turned_size("right")
        exp["blank-right"] = replay(vm, lw // cw, lh // ch, "blank-right", "/tmp/blank.bin")
        first_frames(vm, exp, ("right", "left", "inverted"))

        def grab():
            vm.sh(UDEV, timeout=120)
            start(vm, "--verbose")
            expect(vm, panel(exp["normal"], "normal"), "first frame normal")
            wait_input(vm)
            vm.sendkey("meta_l-equal")
            lw, lh = turned_size("right")
            vm.wait_until(lambda: "turned right" in vm.sh("cat /tmp/kf.log", check=False)[1], timeout=30,
                          interval=0.5, what="\"turned right\" in the log after <Logo>=")
            vm.sh("touch /tmp/go")
            size = vm.wait_file("/tmp/size", timeout=30, pattern="^[0-9]+ [0-9]+$").strip()
            kftest.check(size == "%d %d" % (lh // ch, lw // cw),
                         "the program sees %r after <Logo>=, expected '%d %d'" % (size, lh // ch, lw // cw), vm)
            expect(vm, panel(exp["right"], "right"), "screen after grab-rotate-cw")

        kftest.run_test(names[3], grab, vm)
        stop(vm)

        def pointer():
            start(vm, "--verbose --rotate=right", "/tmp/mouse.sh")
            expect(vm, panel(exp["blank-right"], "right"), "first frame turned right (blank)")
            wait_input(vm)
            want = ""
            for col, row in ((10, 20), (90, 3)):
                # the cell's centre in the picture, where turned right puts it on the panel
                x, y = col * cw + cw // 2, row * ch + ch // 2
                px, py = W - 1 - y, x
                vm.tablet_move(int((px + 0.5) * 32767 / W), int((py + 0.5) * 32767 / H), device="gpu0")
                time.sleep(0.2)
                vm.mouse_button("left", True, device="gpu0")
                vm.mouse_button("left", False, device="gpu0")
                want += "\033[<0;%d;%dM\033[<0;%d;%dm" % (col + 1, row + 1, col + 1, row + 1)
                time.sleep(0.5)
            got = ""
            deadline = time.time() + 20
            while got != want and time.time() < deadline:
                time.sleep(0.5)
                got = vm.sh("cat /tmp/reports 2>/dev/null", check=False)[1]
            kftest.check(got == want, "mouse reports %r, expected %r" % (got, want), vm)

        kftest.run_test(names[4], pointer, vm)
        stop(vm)

    kftest.scenario(vm, "rotate", names, run)


kftest.main(main)
