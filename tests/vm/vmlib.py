#!/usr/bin/env python3
"""QEMU end-to-end harness of kmscon-felis (Python 3 standard library only).

Builds a guest from Debian packages (kernel + modules, busybox-static, the shared libraries of our binaries,
fonts, xkb data, udev, seatd, kmscon), boots it under QEMU (TCG unless KF_VM_KVM=1) with a virtio-gpu or bochs
display on a hot-pluggable PCIe root port, virtio keyboard and mouse, and drives it over the serial port (a
command loop in the guest's /init) and QMP (keys, mouse, screendump, device_del/device_add).

    from vmlib import build_guest, VM, Image
    guest = build_guest()                       # cached in tests/vm/out/, debs in tests/vm/cache/
    with VM(guest, gpu="virtio") as vm:         # boots, waits for "KF-VM: BOOTED"
        print(vm.sh("ls /dev/dri"))             # run a shell script in the guest, get its output
        vm.sh("kmscon-felis --backend=drm >/tmp/kf.log 2>&1 &")
        img = vm.screendump()                   # an Image of the scanned-out frame
    # QEMU is killed on exit, whatever happened.

The harness is split by concern; this module re-exports them, so scenarios import only vmlib:

    vmbase.py    paths (OUT, CACHE, REPO), KF_VM_TIMEOUT_SCALE, VMError, log
    vmguest.py   Debian packages, shared libraries, the cpio writer, build_guest(), Guest
    vmqemu.py    QMP, VM (QEMU process, serial command channel, guest files, GPU hot-plug), exit clean-up
    vminput.py   VM.sendkey/type_text/mouse_move/mouse_button (QMP send-key, input-send-event)
    vmscreen.py  Image, compare(), VM.screendump/wait_screen

See tests/vm/README.md for the whole interface, the environment variables and the CLI (python3 vmlib.py --help).
"""

import argparse
import sys
import time

from vmbase import CACHE, DEFAULT_TIMEOUT, GUEST_SRC, HERE, OUT, REPO, VMError, log  # noqa: F401
from vmguest import (BASE_PACKAGES, BUILDER_VERSION, FEATURE_PACKAGES, KERNEL_CMDLINE, MODULES,  # noqa: F401
                     PACKAGE_FILES, Cpio, Guest, add_libraries, build_guest, deb_download, deb_extract,
                     default_build_dir, guest_helpers, kernel, kernel_package, ldd, lib_package, module_closure,
                     our_binaries, write_tree)
from vmqemu import GPUS, QMP, VM, _live  # noqa: F401
from vmscreen import Image, compare  # noqa: F401


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build and boot the kmscon-felis test guest.")
    ap.add_argument("--gpu", default="virtio", choices=sorted(GPUS))
    ap.add_argument("--features", default="udev,seatd,kmscon", help="comma list of udev, seatd, kmscon")
    ap.add_argument("--build-dir", help="meson build tree with our binaries (default: build-test or build)")
    ap.add_argument("--size", default="1024x768", help="preferred mode WxH")
    ap.add_argument("--vnc", type=int, help="VNC display number on 127.0.0.1 (5900+N)")
    ap.add_argument("--usb", action="store_true", help="add an xHCI controller")
    ap.add_argument("--file", action="append", default=[], metavar="GUEST=HOST", help="add a file to the guest")
    ap.add_argument("--run", action="append", default=[], help="shell command to run in the guest (repeatable)")
    ap.add_argument("--screendump", metavar="PATH", help="save a screendump after the commands")
    ap.add_argument("--build-only", action="store_true", help="only build the guest, print its paths")
    ap.add_argument("--interactive", action="store_true", help="after --run, read commands from stdin")
    a = ap.parse_args(argv)
    feats = [f for f in a.features.split(",") if f]
    t0 = time.time()
    guest = build_guest(feats, a.build_dir)
    print("guest: kernel %s, initrd %s (%.1f MB), built in %.1f s" % (
        guest.kernel, guest.initrd, guest.initrd.stat().st_size / 1e6, time.time() - t0))
    if a.build_only:
        return 0
    if a.file:
        guest = guest.with_files(dict(f.split("=", 1) for f in a.file))
    w, h = map(int, a.size.split("x"))
    vm = VM(guest, gpu=a.gpu, xres=w, yres=h, vnc=a.vnc, usb=a.usb, name="cli")
    with vm:
        print("booted in %.1f s (guest uptime at boot marker)" % (time.time() - t0))
        for c in a.run:
            rc, out = vm.sh(c, timeout=600, check=False)
            sys.stdout.write(out)
            print("[exit %d]" % rc)
        if a.screendump:
            vm.screendump(a.screendump)
            print("screendump: " + a.screendump)
        if a.interactive:
            print("guest shell (one command per line, EOF to power off):")
            for line in sys.stdin:
                rc, out = vm.sh(line, timeout=600, check=False)
                sys.stdout.write(out)
                print("[exit %d]" % rc)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except VMError as e:
        print("vmlib: error: %s" % e, file=sys.stderr)
        sys.exit(1)
