#!/usr/bin/env python3
"""use-original-mode: the guest boots with video=Virtual-1:800x600 on the kernel command line, so fbcon drives the
display at 800x600 while the connector's preferred mode (QEMU's EDID) stays 1024x768. Every instance runs a
program that paints the whole grid blue and writes the size it sees (stty size) to a file. Tests, on virtio-gpu
(one boot), then on bochs (a second boot; fbcon honours video= there too):
  mode-original-*    --use-original-mode: the display stays at 800x600 (the screendump is 800x600, our blue grid
                     on it, black only in the margin the cells leave) and the program sees 800x600 in cells
  mode-preferred-*   without it: 1024x768 and the program sees that (the default: the preferred mode)
  mode-asked-wins-virtio  --use-original-mode --mode=1024x768: the explicit mode wins (1024x768)
  mode-vt-switch-virtio   --use-original-mode on tty2, then another instance without it takes tty3 at 1024x768;
                     switched back to tty2, the first shows 800x600 again (the mode chosen at start, not the one
                     the other master left)
Before each start the display is checked to be back at fbcon's 800x600 (fbcon restores its mode when a DRM
master leaves), so every instance starts from the mode video= set.
  mode-fit-virtio    a third boot, virtio-gpu at 1024x400 (no video=): started with DejaVu Sans Mono at
                     --font-size=400 (241x467 px cells: higher than the display; at 1024x768, or even 640x480, one
                     row of them fits and nothing comes down), the font comes down to 16 px at start (output.c
                     fit_font, kf_render_fit): the log's warning names both cell sizes and the display, the
                     program's stty size is the 16 px grid on 1024x400 and the screen is that grid painted
"""
# timeout: 900
import time

import kftest
import vmlib

FONT = ["--font-engine=builtin"]
ORIG, PREF = (800, 600), (1024, 768)
BLUE, RED, BLACK = (0, 0, 238), (205, 0, 0), (0, 0, 0)


def prog(colour, name):
    """Paints the grid with background COLOUR (an SGR number), then writes stty size to /tmp/NAME.size."""
    return ("printf '\\033[?25l\\033[%dm\\033[2J'; stty size >/tmp/%s.tmp; mv /tmp/%s.tmp /tmp/%s.size; "
            "exec sleep 100000\n" % (colour, name, name, name))


FILES = {"/tmp/blue.sh": prog(44, "blue"), "/tmp/red.sh": prog(41, "red")}


def cell_size(vm, font=FONT):
    """The cell of FONT (the built-in font), from kmscon-felis-replay's picture of a 10x2 grid."""
    vm.sh("kmscon-felis-replay --size 10x2 --format none --png /tmp/probe.png %s - </dev/null" % " ".join(font),
          timeout=120)
    path = vmlib.OUT / ("%s-probe.png" % vm.name)
    path.write_bytes(vm.get_file("/tmp/probe.png"))
    img = vmlib.Image.load(path)
    return img.width // 10, img.height // 2


def start(vm, n, args, script, vt, font=FONT):
    vm.sh("rm -f /tmp/*.size; kmscon-felis --backend=drm --vt=%d --switchvt --dpms-timeout=0 --verbose %s %s "
          "--login -- /bin/sh %s >/tmp/kf%d.log 2>&1 & echo $! >/tmp/kf%d.pid" % (vt, " ".join(font), args,
                                                                              script, n, n))


def stop(vm, n):
    vm.sh("p=$(cat /tmp/kf%d.pid); kill $p 2>/dev/null; for i in $(seq 50); do kill -0 $p 2>/dev/null || break; "
          "sleep 0.1; done; kill -9 $p 2>/dev/null; true" % n, check=False)


def wait_fbcon(vm):
    """The display back at fbcon's mode (video=800x600) before the next instance starts."""
    vm.sh("chvt 1", check=False)
    vm.wait_screen(lambda img: (img.width, img.height) == ORIG, timeout=30,
                   what="fbcon's %dx%d (video=) before the start" % ORIG)


def shown(vm, size, colour, cw, ch, what):
    """Waits for a SIZE screendump holding the grid painted COLOUR over the cells SIZE holds, black beyond."""
    w, h = size
    gw, gh = w // cw * cw, h // ch * ch

    def ok(img):
        if (img.width, img.height) != size:
            return False
        if img.pixel(w // 2, h // 2) != colour or img.pixel(gw - 1, gh - 1) != colour:
            return False
        return (gw == w or img.pixel(w - 1, h // 2) == BLACK) and (gh == h or img.pixel(w // 2, h - 1) == BLACK)

    vm.wait_screen(ok, timeout=60, interval=1.0, what=what)


def program_size(vm, name, size, cw, ch):
    got = vm.wait_until(lambda: vm.sh("cat /tmp/%s.size 2>/dev/null" % name, check=False)[1].strip(), 30,
                        "the program's stty size in /tmp/%s.size" % name, interval=0.5)
    want = "%d %d" % (size[1] // ch, size[0] // cw)
    kftest.check(got == want, "the program sees %r (stty size), expected %r for %dx%d" % (got, want, *size), vm)


def run(vm, name, fn, n=(1,)):
    def wrapped():
        try:
            fn()
        except vmlib.VMError:
            if vm.alive():
                for i in n:
                    print("  the end of instance %d's log:\n    " % i + vm.sh("tail -12 /tmp/kf%d.log" % i,
                                                                            check=False)[1].replace("\n", "\n    "))
            raise
        finally:
            if vm.alive():
                for i in n:
                    stop(vm, i)
    kftest.run_test(name, wrapped)


def one(vm, cw, ch, args, size, source):
    """An instance with ARGS shows SIZE; its log names where the mode came from (SOURCE)."""
    wait_fbcon(vm)
    start(vm, 1, args, "/tmp/blue.sh", 2)
    shown(vm, size, BLUE, cw, ch, "the grid at %dx%d with %r" % (size[0], size[1], args))
    program_size(vm, "blue", size, cw, ch)
    log = vm.sh("cat /tmp/kf1.log")
    kftest.check("mode %dx%d@" % size in log and "(%s)" % source in log,
                 "the log does not say mode %dx%d (%s)" % (size[0], size[1], source), vm)


def vt_switch(vm, cw, ch):
    wait_fbcon(vm)
    start(vm, 1, "--use-original-mode", "/tmp/blue.sh", 2)
    shown(vm, ORIG, BLUE, cw, ch, "tty2's instance at 800x600")
    start(vm, 2, "", "/tmp/red.sh", 3)
    shown(vm, PREF, RED, cw, ch, "tty3's instance at 1024x768")
    vm.sh("chvt 2")
    shown(vm, ORIG, BLUE, cw, ch, "tty2's instance at 800x600 again after the switch back")
    # and it stays so (no later modeset to what tty3's instance left): a negative check, 2 s without one
    time.sleep(2)
    shown(vm, ORIG, BLUE, cw, ch, "tty2's instance still at 800x600")


def suite(gpu, names):
    vm = kftest.boot(gpu=gpu, name="mode-" + gpu, files=FILES, append="video=Virtual-1:%dx%d" % ORIG)

    def tests():
        modes = vm.sh("cat /sys/class/drm/card0-Virtual-1/modes; cat /sys/class/graphics/fb0/virtual_size")
        print("%s: connector modes and fb0 size:\n  %s" % (gpu, modes.strip().replace("\n", " ")))
        cw, ch = cell_size(vm)
        run(vm, "mode-original-" + gpu, lambda: one(vm, cw, ch, "--use-original-mode", ORIG, "kept from start"))
        run(vm, "mode-preferred-" + gpu, lambda: one(vm, cw, ch, "", PREF, "preferred"))
        if gpu == "virtio":
            run(vm, "mode-asked-wins-virtio",
                lambda: one(vm, cw, ch, "--use-original-mode --mode=1024x768", PREF, "asked for"))
            run(vm, "mode-vt-switch-virtio", lambda: vt_switch(vm, cw, ch), n=(1, 2))

    kftest.scenario(vm, "mode-" + gpu, names, tests)


def fit():
    """mode-fit-virtio (its own boot: a display lower than a 400 px cell)."""
    size = (1024, 400)
    vm = kftest.boot(gpu="virtio", name="mode-fit", files=FILES, xres=size[0], yres=size[1])
    dejavu = "--font-name='DejaVu Sans Mono' --font-size=%d"

    def test():
        cw, ch = cell_size(vm, [dejavu % 16])
        bw, bh = cell_size(vm, [dejavu % 400])
        print("mode-fit: cells of %dx%d px at 400 px, %dx%d at 16 px, display %dx%d" % (bw, bh, cw, ch, *size))
        kftest.check(bh > size[1], "a 400 px cell (%dx%d) fits the %dx%d display: the test would prove nothing"
                     % (bw, bh, *size))
        start(vm, 1, "--font-engine=fontconfig " + dejavu % 400, "/tmp/blue.sh", 2, font=[])
        shown(vm, size, BLUE, cw, ch, "the grid of 16 px cells at %dx%d" % size)
        program_size(vm, "blue", size, cw, ch)
        log = vm.sh("cat /tmp/kf1.log")
        warn = ("cells of %dx%d pixels do not fit the %dx%d pixel display: font-size 16 (the default) instead"
                % (bw, bh, *size))
        print("  " + "\n  ".join(x for x in log.splitlines() if "do not fit" in x or "cells of" in x))
        kftest.check(warn in log and "warn" in log.split(warn)[0].splitlines()[-1],
                     "the log has no warning %r" % warn, vm)

    kftest.scenario(vm, "mode-fit", ["mode-fit-virtio"], lambda: run(vm, "mode-fit-virtio", test))


def main():
    if not (kftest.binary_available() and kftest.binary_available("kmscon-felis-replay")):
        kftest.skip("kmscon-felis or kmscon-felis-replay not built")
    suite("virtio", ["mode-original-virtio", "mode-preferred-virtio", "mode-asked-wins-virtio",
                     "mode-vt-switch-virtio"])
    suite("bochs", ["mode-original-bochs", "mode-preferred-bochs"])
    fit()


kftest.main(main)
