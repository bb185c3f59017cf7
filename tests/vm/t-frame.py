#!/usr/bin/env python3
"""kmscon-felis --backend=drm against kmscon-felis-replay --png, pixel for pixel, on virtio-gpu and bochs.

In one boot per GPU, kmscon-felis (DejaVu Sans Mono 16 px through fontconfig, the guest's only font) runs a
program that writes a fixed byte stream (colours, attributes, Unicode, wide and box-drawing characters, cursor
hidden). The expected image is kmscon-felis-replay --png of the same bytes with the same font and size and the
grid the display holds, run in the same guest (same fontconfig, same FreeType). Tests, per GPU:
  frame-first-GPU    the first frame equals the replay (the screendump cropped to the cell grid region, the
                     area right and below the grid black)
  frame-flood-GPU    after 1 MB of ascii and csi output and a final screen, the screen equals the replay of all
                     the bytes (no stale damage)
  frame-legacy-GPU   the same first frame through the legacy API (KMSCON_FELIS_DRM_LEGACY=1)
  frame-hotplug-GPU  the GPU hot-unplugged (PCI remove) and re-plugged (rescan) under kmscon-felis: it keeps
                     running and shows the same screen again
"""
# timeout: 900
import os
import subprocess
import sys

import kftest
import vmlib
from vmlib import Image

FONT = ["--font-name", "DejaVu Sans Mono", "--font-size", "16"]
W, H = 1024, 768

STREAM = ("\033[?25l\033[2J\033[H"
          "kmscon-felis first frame \033[1mbold\033[0m \033[4munderline\033[0m \033[7mreverse\033[0m\r\n"
          + "".join("\033[38;5;%dm%02d\033[0m" % (c, c) for c in range(16)) + "\r\n"
          + "\033[48;2;40;80;160m truecolour background \033[0m \033[38;2;255;128;0morange\033[0m\r\n"
          "Unicode: \u00e9\u00e8\u00e7 \u03b1\u03b2\u03b3 \u0436\u0443\u043a wide: \u65e5\u672c\u8a9e "
          "\u2500\u2502\u250c\u2510\u2514\u2518 \u2588\u2593\u2592\u2591\r\n"
          "\u250c\u2500\u2500\u2500\u2500\u2510\r\n\u2502 box\u2502\r\n\u2514\u2500\u2500\u2500\u2500\u2518\r\n"
          "\033[10;20Hpositioned text at 10;20\033[20;1H\033[31;42m red on green \033[0m\r\n").encode()
FINAL = ("\033[2J\033[H\033[?25lafter the flood: \033[32mgreen\033[0m \033[1;33mbold yellow\033[0m\r\n"
         "second line\033[15;40Hmiddle\r\n").encode()


def workloads():
    shared = os.environ.get("SHARED_DIR", str(vmlib.REPO.parent / "shared"))
    gen = os.path.join(shared, "bench", "gen-workloads.py")
    out = vmlib.OUT / "frame-wl"
    if not (out / "csi.bin").exists():
        subprocess.run([sys.executable, gen, "-o", str(out), "-s", "512K", "--cols", "102", "--rows", "40",
                        "ascii", "csi"], check=True, stdout=subprocess.DEVNULL)
    return (out / "ascii.bin").read_bytes() + (out / "csi.bin").read_bytes()


def replay(vm, stream_paths, cols, rows, name):
    """Runs kmscon-felis-replay --png in the guest on the concatenation of STREAM_PATHS; returns the Image."""
    vm.sh("cat %s | kmscon-felis-replay --size %dx%d --format none --png /tmp/%s.png %s -" % (
        " ".join(stream_paths), cols, rows, name, " ".join("'%s'" % f if " " in f else f for f in FONT)),
        timeout=300)
    path = vmlib.OUT / ("frame-%s-%s.png" % (vm.name, name))
    path.write_bytes(vm.get_file("/tmp/%s.png" % name))
    return Image.load(path)


def expect_screen(vm, exp, what, timeout=120):
    """Waits until the screen's grid region equals EXP and the rest is black; fails with saved images."""
    black = Image(W - exp.width, exp.height, b"\0" * (3 * (W - exp.width) * exp.height)) if exp.width < W else None
    last = [None]

    def ok(img):
        last[0] = img
        if img.crop(0, 0, exp.width, exp.height).data != exp.data:
            return False
        if black is not None and img.crop(exp.width, 0, W - exp.width, exp.height).data != black.data:
            return False
        below = img.crop(0, exp.height, W, H - exp.height) if exp.height < H else None
        return below is None or below.is_uniform() and below.pixel(0, 0) == (0, 0, 0)

    try:
        vm.wait_screen(ok, timeout=timeout, interval=1.0, what=what)
    except vmlib.VMError:
        img = last[0]
        if img is None:
            raise
        vmlib.compare(img.crop(0, 0, exp.width, exp.height), exp,
                      save_prefix=vmlib.OUT / ("%s-%s" % (vm.name, what.split()[0])))
        raise vmlib.VMError("%s: the grid region matches but the margin is not black" % what)


def start(vm, legacy=False):
    env = "KMSCON_FELIS_DRM_LEGACY=1 " if legacy else ""
    # --verbose: "/dev/dri/cardN: removed" (an informational message) tells the hotplug test the unplug was handled
    vm.sh("rm -f /tmp/go2; %skmscon-felis --backend=drm --vt=2 --switchvt --dpms-timeout=0 --no-mouse --verbose "
          "--font-name='DejaVu Sans Mono' --font-size=16 --login -- /bin/sh /tmp/prog.sh "
          ">/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid" % env)


def stop(vm):
    vm.sh("kill $(cat /tmp/kf.pid) 2>/dev/null; i=0; while kill -0 $(cat /tmp/kf.pid) 2>/dev/null && "
          "[ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -9 $(cat /tmp/kf.pid) 2>/dev/null; true",
          check=False)


def run_gpu(gpu, flood):
    prog = ("cat /tmp/stream.bin; while [ ! -e /tmp/go2 ]; do sleep 0.1; done; "
            "cat /tmp/flood.bin /tmp/final.bin; exec sleep 100000\n")
    vm = kftest.boot(gpu=gpu, name="frame-" + gpu, files={
        "/tmp/stream.bin": STREAM, "/tmp/flood.bin": flood, "/tmp/final.bin": FINAL, "/tmp/prog.sh": prog})
    names = ["frame-%s-%s" % (t, gpu) for t in ("first", "flood", "legacy", "hotplug")]

    def run():
        probe = replay(vm, ["/tmp/stream.bin"], 10, 2, "probe")
        cw, ch = probe.width // 10, probe.height // 2
        cols, rows = W // cw, H // ch
        print("frame-%s: cell %dx%d, grid %dx%d" % (gpu, cw, ch, cols, rows))
        exp1 = replay(vm, ["/tmp/stream.bin"], cols, rows, "first")
        exp2 = replay(vm, ["/tmp/stream.bin", "/tmp/flood.bin", "/tmp/final.bin"], cols, rows, "final")
        start(vm)
        kftest.run_test(names[0], lambda: expect_screen(vm, exp1, "first frame"), vm)

        def flood_test():
            vm.sh("touch /tmp/go2")
            expect_screen(vm, exp2, "final screen after the flood", timeout=300)

        kftest.run_test(names[1], flood_test, vm)

        def hotplug_test():
            vm.unplug_gpu()
            vm.wait_file("/tmp/kf.log", pattern="/dev/dri/card[0-9]+: removed", timeout=60)
            kftest.check(vm.sh("kill -0 $(cat /tmp/kf.pid) && echo alive", check=False)[1].strip() == "alive",
                         "kmscon-felis exited when the GPU went away", vm)
            vm.plug_gpu()
            expect_screen(vm, exp2, "screen after the GPU came back", timeout=120)

        kftest.run_test(names[3], hotplug_test, vm)
        stop(vm)
        start(vm, legacy=True)
        kftest.run_test(names[2], lambda: expect_screen(vm, exp1, "first frame (legacy)"), vm)
        stop(vm)

    kftest.scenario(vm, "frame-" + gpu, names, run)


def main():
    if not (kftest.binary_available() and kftest.binary_available("kmscon-felis-replay")):
        kftest.skip("kmscon-felis or kmscon-felis-replay not built")
    flood = workloads()
    for gpu in ("virtio", "bochs"):
        run_gpu(gpu, flood)


kftest.main(main)
