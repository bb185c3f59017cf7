#!/usr/bin/env python3
"""The framebuffer (fbdev) fallback: kmscon-felis on a guest with no DRM driver, only the firmware framebuffer.

The guest has QEMU's standard VGA (-vga std, no virtio-gpu or bochs-display) and boots with `nomodeset vga=0x3NN`:
QEMU's -kernel loader hands vga= to the kernel's real-mode setup, which sets that VESA mode through the VGA BIOS,
vesafb registers /dev/fb0 (Debian 12's 6.1 kernel: CONFIG_FB_VESA=y, no simpledrm) and nomodeset keeps the bochs
DRM driver off the card: /dev/fb0 is the only display, as on a machine booted with nomodeset. The expected image is
kmscon-felis-replay --png of the same bytes (built-in font, the grid the display holds), run in the same guest.
  fbdev-first-32     1024x768x32 (vga=0x344): kmscon-felis says it shows /dev/fb0, and the first frame equals
                     the replay pixel for pixel (the margin right and below the grid black); no error or warning
                     on the way (libseat's builtin backend refuses fb nodes: it is not asked); with
                     --display-wait=3 still running 4 s after the first frame (a framebuffer is a display)
  fbdev-updates-32   the program writes more (1 MB of ascii and csi, then a final screen): the screen equals the
                     replay of all the bytes (output keeps updating, no stale damage); frames were paced (flips
                     counted by the refresh timer, at most one frame per refresh)
  fbdev-vt-32        switched to tty1 (fbcon draws its text on the same framebuffer) and back: our screen again
  fbdev-dpms-32      --dpms-timeout=2: the screen goes black (vesafb has no FBIOBLANK above 8 bpp: painted black),
                     and a switch away and back shows the screen again
  fbdev-rotate-32    --rotate=right: the replay at the turned grid (96x64 cells), turned onto the panel as on DRM
                     (t-rotate.py's definition, vmscreen.panel)
  fbdev-rgb565       1024x768x16 (vga=0x317, RGB565): the first frame equals the replay reduced to 5/6/5 bits the
                     way the pixels were converted (top bits), widened back as QEMU's screendump does
  fbdev-rgb888-24    1024x768x24 (vga=0x318): three bytes a pixel, the replay exactly
  fbdev-8bpp-refused 1024x768x8 (vga=0x305, a palette): a clear error in the log, "no usable display", still
                     running, fb0 neither open nor mapped; 5 graphics uevents later the error was said once
  fbdev-to-drm       vga=0x344 without nomodeset, but the bochs module left out at boot: kmscon-felis starts on
                     vesafb; then bochs is loaded (it removes vesafb and registers card0): kmscon-felis moves to
                     DRM (fb0 closed on its udev "remove" before card0 opens: no fd or mapping of it left),
                     does not exit, and shows the
                     same screen (--mode=1024x768: bochs prefers 1280x800 there)
  fbdev-drm-first    vesafb (vga=0x344, bochs left out) and a virtio-gpu (not a VGA device: vesafb stays): DRM is
                     chosen, fb0 is not even opened
  fbdev-unplug-fallback  the virtio-gpu hot-unplugged: kmscon-felis shows the same screen on vesafb
  fbdev-replug-drm   plugged back: it leaves fb0 (closed, unmapped) for the DRM display, the same screen there
  fbdev-forced-none  no GPU at all with --no-drm: "drm=off and no framebuffer device", waiting, still running
  fbdev-forced-bochs the usual bochs-display guest with --no-drm: kmscon-felis shows bochs' fbdev emulation
                     (/dev/fb0, "bochs-drmdrmfb") instead of card0, and the screen equals the replay
  fbdev-fbset-bochs  then fb0's visible size set to 640x480 under it (kf-fbset: fbset -xres 640 -yres 480, which
                     bochs' emulation takes, its lines still 4096 bytes): at the next frame kmscon-felis says the
                     mode changed and opens fb0 again, and the screen's top-left 640x480 is the replay at the grid
                     that fits 640x480 (it kept drawing 1024x768 until a VT switch)
"""
# timeout: 1200
import os
import re
import subprocess
import sys
import time

import kftest
import vmguest
import vmlib
import vmscreen
from vmlib import Image

FONT = ["--font-engine=builtin"]
W, H = 1024, 768
STREAM = ("\033[?25l\033[2J\033[H"
          "kmscon-felis on a framebuffer \033[1mbold\033[0m \033[4munderline\033[0m \033[7mreverse\033[0m\r\n"
          + "".join("\033[38;5;%dm%02d\033[0m" % (c, c) for c in range(16)) + "\r\n"
          + "\033[48;2;40;80;160m truecolour background \033[0m \033[38;2;255;128;0morange\033[0m "
          "\033[48;2;3;130;250m odd bits \033[0m\r\n"
          "\u2500\u2502\u250c\u2510\u2514\u2518 \u2588\u2593\u2592\u2591\r\n"
          "\033[10;20Hpositioned text at 10;20\033[20;1H\033[31;42m red on green \033[0m\r\n").encode()
FINAL = ("\033[2J\033[H\033[?25lafter the flood: \033[32mgreen\033[0m \033[1;33mbold yellow\033[0m\r\n"
         "second line\033[15;40Hmiddle\r\n").encode()
PROG = ("cat /tmp/stream.bin; while [ ! -e /tmp/go2 ]; do sleep 0.1; done; "
        "cat /tmp/flood.bin /tmp/final.bin; exec sleep 100000\n")


def flood():
    shared = os.environ.get("SHARED_DIR", str(vmlib.REPO.parent / "shared"))
    out = vmlib.OUT / "frame-wl"
    if not (out / "csi.bin").exists():
        subprocess.run([sys.executable, os.path.join(shared, "bench", "gen-workloads.py"), "-o", str(out), "-s",
                        "512K", "--cols", "128", "--rows", "48", "ascii", "csi"], check=True,
                       stdout=subprocess.DEVNULL)
    return (out / "ascii.bin").read_bytes() + (out / "csi.bin").read_bytes()


def replay(vm, streams, size, name):
    """kmscon-felis-replay --png in the guest of the concatenated STREAMS with a grid of SIZE (cols, rows)."""
    vm.sh("cat %s | kmscon-felis-replay --size %dx%d --format none --png /tmp/%s.png %s -" % (
        " ".join(streams), size[0], size[1], name, " ".join(FONT)), timeout=300)
    path = vmlib.OUT / ("%s-%s.png" % (vm.name, name))
    path.write_bytes(vm.get_file("/tmp/%s.png" % name))
    return Image.load(path)


def expected(vm):
    """The replays of the first screen and of the final one, for the grid that fills W x H."""
    probe = replay(vm, ["/tmp/stream.bin"], (10, 2), "probe")
    cw, ch = probe.width // 10, probe.height // 2
    grid = (W // cw, H // ch)
    return (replay(vm, ["/tmp/stream.bin"], grid, "first"),
            replay(vm, ["/tmp/stream.bin", "/tmp/flood.bin", "/tmp/final.bin"], grid, "final"))


def rgb565(img):
    """IMG as RGB565 shows it: each channel's top 5/6/5 bits, widened to 8 by repeating the top bits (pixman's
    expansion, which QEMU's screendump uses for a 16 bpp console)."""
    out = bytearray(img.data)
    for i in range(0, len(out), 3):
        r, g, b = out[i] >> 3, out[i + 1] >> 2, out[i + 2] >> 3
        out[i], out[i + 1], out[i + 2] = r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2
    return Image(img.width, img.height, bytes(out))


def expect_screen(vm, exp, what, timeout=120):
    """Waits until the screen's top-left equals EXP and the rest of the W x H screen is black."""
    kftest.expect_grid(vm, exp, (W, H), what, timeout=timeout)


def start(vm, args="", dpms=0):
    vm.sh("rm -f /tmp/go2; kmscon-felis --vt=2 --switchvt --dpms-timeout=%d --no-mouse --verbose %s %s "
          "--login -- /bin/sh /tmp/prog.sh >/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid" % (dpms, " ".join(FONT), args))


def stop(vm):
    vm.sh("kill $(cat /tmp/kf.pid) 2>/dev/null; i=0; while kill -0 $(cat /tmp/kf.pid) 2>/dev/null && "
          "[ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -9 $(cat /tmp/kf.pid) 2>/dev/null; true",
          check=False)


def log_has(vm, text, what):
    log = vm.sh("cat /tmp/kf.log")
    kftest.check(text in log, "the log does not say %s (%r)" % (what, text), vm)
    return log


def alive(vm):
    kftest.check(vm.sh("kill -0 $(cat /tmp/kf.pid) && echo alive", check=False)[1].strip() == "alive",
                 "kmscon-felis exited", vm)


def stats(vm):
    """The frame counters kmscon-felis logs on SIGRTMIN+1, as a dict (a line logged after the signal)."""
    return kftest.frame_counters(vm)


def boot(name, files, **kw):
    base = {"/tmp/stream.bin": STREAM, "/tmp/final.bin": FINAL, "/tmp/prog.sh": PROG}
    base.update(files)
    return kftest.boot(gpu=kw.pop("gpu", "none"), name=name, files=base, **kw)


VGA = ["-vga", "std"]
SHOWS = "no usable DRM display: showing the framebuffer /dev/fb0 (VESA VGA)"


def vesa32(fl):
    vm = boot("fbdev-32", {"/tmp/flood.bin": fl}, extra_args=VGA, append="nomodeset vga=0x344")
    names = ["fbdev-first-32", "fbdev-updates-32", "fbdev-vt-32", "fbdev-dpms-32", "fbdev-rotate-32"]

    def run():
        print("fbdev-32: " + vm.sh("cat /proc/fb; cat /sys/class/graphics/fb0/bits_per_pixel; ls /dev/dri 2>&1",
                                   check=False)[1].strip().replace("\n", " | "))
        exp1, exp2 = expected(vm)
        # --display-wait=3 (the unit passes 20): a console on the framebuffer is a display shown, no exit
        start(vm, "--display-wait=3")

        def first():
            expect_screen(vm, exp1, "first frame on vesafb")
            time.sleep(4)
            alive(vm)
            log = log_has(vm, SHOWS, "that it shows /dev/fb0")
            print("  " + "\n  ".join(x for x in log.splitlines() if "fb0" in x or "first frame" in x))
            # libseat (builtin here, as seatd) hands out DRM and evdev nodes only: asking it for fb0 logged its
            # error and our warning on every start of a working console.
            loud = [x for x in log.splitlines() if ("fb0" in x or "seat" in x) and
                    (": error: " in x or ": warning: " in x)]
            kftest.check(not loud, "errors or warnings on the expected path: %r" % loud, vm)

        kftest.run_test(names[0], first, vm)

        def updates():
            before = stats(vm)
            t0 = time.time()
            vm.sh("touch /tmp/go2")
            expect_screen(vm, exp2, "final screen after the flood", timeout=300)
            after = stats(vm)
            secs = time.time() - t0
            print("  %d frames, %d flips in %.1f s; refresh %d mHz" % (
                after["rendered"] - before["rendered"], after["flips"] - before["flips"], secs,
                after["refresh_mhz"]))
            kftest.check(after["flips"] > before["flips"] and after["rendered"] > before["rendered"],
                         "no frames counted: %r -> %r" % (before, after), vm)
            # one frame per refresh at most: flips over the whole run never outpace the refresh
            kftest.check(after["flips"] <= after["mono_ms"] * after["refresh_mhz"] / 1e6 + 1,
                         "more flips than refreshes: %r" % after, vm)
            kftest.check(after["fast_flips"] == 0, "fast flips: %r" % after, vm)

        kftest.run_test(names[1], updates, vm)

        def vt():
            vm.sh("chvt 1")
            vm.wait_screen(lambda img: img.crop(0, 0, exp2.width, exp2.height).data != exp2.data, timeout=30,
                           what="fbcon's tty1 on the framebuffer")
            vm.sh("chvt 2")
            expect_screen(vm, exp2, "our screen again after the switch back")
            alive(vm)

        kftest.run_test(names[2], vt, vm)
        stop(vm)

        def dpms():
            start(vm, dpms=2)
            expect_screen(vm, exp1, "first frame before blanking")
            vm.wait_screen(lambda img: img.is_uniform() and img.pixel(0, 0) == (0, 0, 0), timeout=60,
                           what="the screen blanked (black) after the DPMS timeout")
            log_has(vm, "display blanked", "that it blanked")
            vm.sh("chvt 1; sleep 1; chvt 2")
            expect_screen(vm, exp1, "the screen back after a switch away and back")
            stop(vm)

        kftest.run_test(names[3], dpms, vm)

        def rotate():
            probe = Image.load(vmlib.OUT / ("%s-probe.png" % vm.name))
            cw, ch = probe.width // 10, probe.height // 2
            want = vmscreen.panel(replay(vm, ["/tmp/stream.bin"], (H // cw, W // ch), "right"), "right", W, H)
            start(vm, "--rotate=right")
            vm.wait_screen(lambda img: img.data == want.data, timeout=120, interval=1.0,
                           what="the first frame turned right")
            stop(vm)

        kftest.run_test(names[4], rotate, vm)

    kftest.scenario(vm, "fbdev-32", names, run)


def one_test(name, test, fn, boot_kw, args=""):
    """Boots a guest (BOOT_KW), starts kmscon-felis with ARGS and runs FN(vm, exp1) as the test TEST."""
    vm = boot(name, {"/tmp/flood.bin": b""}, **boot_kw)

    def run():
        exp1, _ = expected(vm)
        start(vm, args)
        kftest.run_test(test, lambda: fn(vm, exp1), vm)
        stop(vm)

    kftest.scenario(vm, name, [test], run)


def first_565(vm, exp1):
    print("  fb0: " + vm.sh("cat /sys/class/graphics/fb0/bits_per_pixel").strip() + " bpp")
    expect_screen(vm, rgb565(exp1), "first frame on vesafb in RGB565")
    log_has(vm, "RGB565", "the RGB565 layout")


def first_24(vm, exp1):
    print("  fb0: " + vm.sh("cat /sys/class/graphics/fb0/bits_per_pixel").strip() + " bpp")
    expect_screen(vm, exp1, "first frame on vesafb at 24 bpp")
    log_has(vm, "24 bpp r8@16 g8@8 b8@0", "the 24 bpp layout")


def refused_8(vm, exp1):
    """8 bpp (a palette): a clear error, no display, still running, nothing of fb0 held."""
    vm.wait_file("/tmp/kf.log", pattern="no usable display", timeout=60)
    log = log_has(vm, "cannot show this framebuffer: ", "why fb0 cannot be shown")
    print("  " + "\n  ".join(x for x in log.splitlines() if "fb0" in x or "usable" in x))
    kftest.check("8 bpp palette (pseudocolour): only packed truecolour" in log,
                 "the reason names neither the layout nor the depth", vm)
    # Each graphics or drm uevent looks for a framebuffer again: the same refusal is said once, not each time.
    for _ in range(5):
        vm.sh("udevadm trigger --action=change --subsystem-match=graphics; udevadm settle; sleep 0.2")
    time.sleep(1)
    said = [x for x in vm.sh("cat /tmp/kf.log").splitlines() if "cannot show this framebuffer: " in x]
    print("  after 5 uevents: the refusal said %d times (%d at error level)" % (
        len(said), len([x for x in said if ": error: " in x])))
    kftest.check(len([x for x in said if ": error: " in x]) == 1,
                 "the refusal logged %d times as an error after 5 uevents" % len(said), vm)
    time.sleep(2)
    alive(vm)
    kftest.check(not holds_fb(vm), "fb0 still open or mapped: %r" % holds_fb(vm), vm)


def forced_none(vm, exp1):
    """--no-drm without any fbdev: it says so and waits (as for a missing DRM card), nothing crashes."""
    vm.wait_file("/tmp/kf.log", pattern="no usable display", timeout=60)
    log = log_has(vm, "no usable display: drm=off and no framebuffer device; waiting", "why it waits")
    kftest.check("drm=off: no usable framebuffer device (/dev/fbN)" in log, "no word on the missing fbdev", vm)
    time.sleep(2)
    alive(vm)


def first_forced(vm, exp1):
    expect_screen(vm, exp1, "first frame on bochs-drmfb")
    log = log_has(vm, "drm=off: showing the framebuffer /dev/fb0 (bochs-drmdrmfb)", "that it shows fb0")
    kftest.check("card0" not in log, "card0 was used with --no-drm", vm)


def fbset_forced(vm):
    """fbdev-fbset-bochs (see the top)."""
    mode = vm.sh("kf-fbset /dev/fb0 640 480", check=False)[1].strip()
    print("  kf-fbset /dev/fb0 640 480: " + mode)
    kftest.check(mode.startswith("640x480 "), "the driver did not take 640x480: %r" % mode, vm)
    # The final output only once the change is followed, or what the child wrote at 1024x768 is reflowed into
    # 640x480 as on any resize (the corner mark wrapped to column 48 of the last row, the rest gone into the
    # history: a loaded host lost that race). The mode is read again when a frame is drawn, so a clear written
    # to the child's terminal (the final screen clears it anyway) makes one.
    pts = vm.sh("for p in /proc/[0-9]*; do readlink $p/fd/1; done | grep '^/dev/pts/' | sort -u", check=False)[1]
    pts = pts.strip()
    kftest.check(pts.startswith("/dev/pts/") and "\n" not in pts, "the child's terminal was not found: %r" % pts, vm)
    vm.sh("printf '\\033[2J' > " + pts)
    deadline = time.time() + 60
    while "its mode changed while shown" not in vm.sh("cat /tmp/kf.log") and time.time() < deadline:
        time.sleep(0.5)
    print("  the change followed %.1f s after the clear" % (time.time() + 60 - deadline))
    # the final screen with a mark in the grid's last cell: where it lands says the grid's size (the rest of the
    # final screen fits 640x480 at either size; bochs' emulation keeps scanning out 1024x768 at 4096 bytes a line)
    vm.sh("cat /tmp/corner.bin >> /tmp/final.bin; touch /tmp/go2")
    probe = replay(vm, ["/tmp/stream.bin"], (10, 2), "probe")
    cw, ch = probe.width // 10, probe.height // 2
    exp = replay(vm, ["/tmp/stream.bin", "/tmp/final.bin"], (640 // cw, 480 // ch), "fbset")

    def ok(img):
        inside = img.crop(0, 0, 640, 480)
        return (img.crop(0, 0, exp.width, exp.height).data == exp.data and
                inside.crop(exp.width, 0, 640 - exp.width, 480).is_uniform() and
                inside.crop(0, exp.height, 640, 480 - exp.height).is_uniform())

    vm.wait_screen(ok, timeout=120, interval=1.0, what="the final screen at 640x480 on the top-left")
    # the formats follow each size (XRGB8888, or ARGB8888 where the emulation reports an alpha channel)
    log = log_has(vm, "/dev/fb0: its mode changed while shown (1024x768 ", "that it followed the mode change")
    kftest.check(re.search(r"changed while shown \(1024x768 [^,]+, now 640x480 [^)]+\): opened again", log),
                 "the log does not say that it followed the mode change to 640x480", vm)
    alive(vm)


def forced_bochs():
    """fbdev-forced-bochs and fbdev-fbset-bochs, in one boot."""
    names = ["fbdev-forced-bochs", "fbdev-fbset-bochs"]
    vm = boot("fbdev-forced", {"/tmp/flood.bin": b"", "/tmp/corner.bin": b"\033[999;999H#"}, gpu="bochs")

    def run():
        exp1, _ = expected(vm)
        start(vm, "--no-drm")
        kftest.run_test(names[0], lambda: first_forced(vm, exp1), vm)
        kftest.run_test(names[1], lambda: fbset_forced(vm), vm)
        stop(vm)

    kftest.scenario(vm, "fbdev-forced", names, run)


def without_bochs():
    """/etc/kf/modules without bochs (std VGA keeps vesafb), and the paths that load bochs later."""
    _, moddir, _ = vmguest.kernel()
    keep = [m for m in vmguest.MODULES if m != "bochs"]
    mods = "\n".join(vmguest.module_closure(moddir, keep)) + "\n"
    return mods, " ".join("/lib/modules/$(uname -r)/%s" % m for m in vmguest.module_closure(moddir, ["bochs"]))


def holds_fb(vm):
    """What of /dev/fbN kmscon-felis has open or mapped ('' when nothing)."""
    return vm.sh("p=$(cat /tmp/kf.pid); ls -l /proc/$p/fd | grep /dev/fb; grep /dev/fb /proc/$p/maps",
                 check=False)[1].strip()


def drm_first():
    """vesafb on std VGA and a virtio-gpu (not a VGA device: it leaves vesafb alone) at once."""
    mods, _ = without_bochs()
    vm = boot("fbdev-virtio", {"/tmp/flood.bin": b"", "/etc/kf/modules": mods}, gpu="virtio", extra_args=VGA,
              append="vga=0x344")
    names = ["fbdev-drm-first", "fbdev-unplug-fallback", "fbdev-replug-drm"]

    def run():
        print("fbdev-virtio: " + vm.sh("cat /proc/fb; ls /dev/dri").strip().replace("\n", " | "))
        exp1, _ = expected(vm)
        start(vm)

        def first():
            expect_screen(vm, exp1, "first frame on virtio-gpu")
            log = vm.sh("cat /tmp/kf.log")
            kftest.check("showing the framebuffer" not in log and not holds_fb(vm),
                         "a framebuffer was used while DRM drives a display", vm)

        def unplug():
            vm.unplug_gpu()
            vm.wait_file("/tmp/kf.log", pattern="no usable DRM display: showing the framebuffer /dev/fb0", timeout=60)
            alive(vm)
            expect_screen(vm, exp1, "the same screen on vesafb after the GPU went away")

        def replug():
            vm.plug_gpu()
            vm.wait_file("/tmp/kf.log", pattern="a DRM display appeared: leaving the framebuffer /dev/fb0",
                         timeout=60)
            expect_screen(vm, exp1, "the same screen on virtio-gpu again")
            kftest.check(not holds_fb(vm), "fb0 still open or mapped: %r" % holds_fb(vm), vm)
            log = vm.sh("cat /tmp/kf.log")
            print("  " + "\n  ".join(x for x in log.splitlines() if "fb0" in x or "card0" in x or "canvas" in x))

        for name, fn in zip(names, (first, unplug, replug)):
            kftest.run_test(name, fn, vm)
        stop(vm)

    kftest.scenario(vm, "fbdev-virtio", names, run)


def to_drm():
    mods, load = without_bochs()
    vm = boot("fbdev-drm", {"/tmp/flood.bin": b"", "/etc/kf/modules": mods}, extra_args=VGA,
              append="vga=0x344")
    names = ["fbdev-to-drm"]

    def run():
        exp1, _ = expected(vm)
        # bochs' preferred mode on std VGA is 1280x800: the same size on both, so the same picture is expected
        start(vm, "--mode=1024x768")

        def move():
            expect_screen(vm, exp1, "first frame on vesafb")
            log_has(vm, SHOWS, "that it shows /dev/fb0")
            vm.sh("for m in %s; do insmod $m 2>/dev/null; done; true" % load, timeout=120)
            vm.wait_file("/dev/dri/card0", timeout=60)
            vm.wait_file("/tmp/kf.log", pattern="modeset with 1 output", timeout=60)
            time.sleep(2)
            alive(vm)
            # bochs removes vesafb before it registers card0: the fbdev is closed on its udev "remove"
            log = log_has(vm, "/dev/fb0: removed: closing it", "that it closed fb0")
            kftest.check(log.index("removed: closing it") < log.index("/dev/dri/card0:"),
                         "card0 was opened before fb0 was closed", vm)
            kftest.check(not holds_fb(vm), "fb0 still open or mapped: %r" % holds_fb(vm), vm)
            print("  " + "\n  ".join(x for x in log.splitlines() if "fb0" in x or "card0" in x or "canvas" in x))
            expect_screen(vm, exp1, "the same screen on bochs DRM")

        kftest.run_test(names[0], move, vm)
        stop(vm)

    kftest.scenario(vm, "fbdev-drm", names, run)


def main():
    if not (kftest.binary_available() and kftest.binary_available("kmscon-felis-replay")):
        kftest.skip("kmscon-felis or kmscon-felis-replay not built")
    only = os.environ.get("KF_FBDEV_ONLY", "32,16,24,8,drm,none,virtio,forced").split(",")
    if "32" in only:
        vesa32(flood())
    if "16" in only:
        one_test("fbdev-16", "fbdev-rgb565", first_565, {"extra_args": VGA, "append": "nomodeset vga=0x317"})
    if "drm" in only:
        to_drm()
    if "24" in only:
        one_test("fbdev-24", "fbdev-rgb888-24", first_24, {"extra_args": VGA, "append": "nomodeset vga=0x318"})
    if "8" in only:
        one_test("fbdev-8", "fbdev-8bpp-refused", refused_8, {"extra_args": VGA, "append": "nomodeset vga=0x305"})
    if "none" in only:
        one_test("fbdev-none", "fbdev-forced-none", forced_none, {}, "--no-drm")
    if "virtio" in only:
        drm_first()
    if "forced" in only:
        forced_bochs()


kftest.main(main)
