#!/usr/bin/env python3
"""The guest half of tools/run-demo: boots the test guest with a VNC display on 127.0.0.1, runs kmscon-felis
with a shell on its virtio-gpu display (udevd running, so libinput sees the virtio keyboard and mouse), saves a
screenshot and keeps the guest up for you to watch and type until Enter, Ctrl+C or --time seconds.

    python3 tests/vm/demo.py [--vnc N] [--gpu virtio|bochs] [--time SECONDS] [--screenshot PATH]
"""
import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vmlib  # noqa: E402

WELCOME = (b"printf 'kmscon-felis demo in the QEMU test guest. Type away; Ctrl+D restarts the shell.\\n\\n'; "
           b"exec /bin/sh -l\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vnc", type=int, default=0, help="VNC display number: port 5900+N on 127.0.0.1")
    ap.add_argument("--gpu", default="virtio", choices=("virtio", "bochs"))
    ap.add_argument("--time", type=float, help="keep running this many seconds (default: until Enter)")
    ap.add_argument("--screenshot", default=str(vmlib.OUT / "demo.png"))
    a = ap.parse_args()
    if not vmlib.our_binaries(vmlib.default_build_dir()).get("kmscon-felis"):
        raise vmlib.VMError("kmscon-felis is not built in %s" % vmlib.default_build_dir())
    print("run-demo: building the guest (the first time downloads ~100 MB of Debian packages)...", flush=True)
    guest = vmlib.build_guest().with_files({"/usr/local/bin/demo-shell": WELCOME}, name="demo")
    vm = vmlib.VM(guest, gpu=a.gpu, vnc=a.vnc, name="demo")
    print("run-demo: booting QEMU (TCG: this takes 10-40 s)...", flush=True)
    with vm:
        vm.sh("/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1; udevadm trigger --action=add; "
              "udevadm settle -t 20", timeout=90)
        vm.sh("chmod 755 /usr/local/bin/demo-shell; cd /root; HOME=/root kmscon-felis --backend=drm --vt=2 "
              "--switchvt --login -- /bin/sh /usr/local/bin/demo-shell >/tmp/kmscon-felis.log 2>&1 &")
        blank = vm.screendump()
        try:
            img = vm.wait_screen(lambda i: i.data != blank.data and len(i.colours()) > 1, timeout=90,
                                 what="kmscon-felis's first frame")
        except vmlib.VMError:
            print(vm.sh("cat /tmp/kmscon-felis.log", check=False)[1])
            raise
        time.sleep(2)
        img = vm.screendump()
        img.save(a.screenshot)
        print("run-demo: kmscon-felis is running in the guest; screenshot saved to %s" % a.screenshot)
        print("run-demo: watch and type with a VNC viewer on 127.0.0.1:%d (display :%d), e.g. "
              "`vncviewer 127.0.0.1:%d`;" % (5900 + a.vnc, a.vnc, a.vnc))
        print("          from another machine: ssh -L %d:127.0.0.1:%d this-host, then connect to localhost:%d."
              % (5900 + a.vnc, 5900 + a.vnc, 5900 + a.vnc))
        if a.time is not None:
            time.sleep(a.time)
        elif sys.stdin.isatty():
            try:
                input("run-demo: press Enter to stop the guest... ")
            except (EOFError, KeyboardInterrupt):
                pass
        print("run-demo: kmscon-felis's log in the guest:")
        print(vm.sh("tail -20 /tmp/kmscon-felis.log", check=False)[1])
        print("run-demo: stopping the guest")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except vmlib.VMError as e:
        print("run-demo: error: %s" % e, file=sys.stderr)
        sys.exit(1)
