#!/usr/bin/env python3
"""The systemd unit's ExecStart= command line on the virtio-gpu display sends READY=1 only once the first frame
is on screen, with STATUS= naming the mode and the font, and pings the watchdog from its event loop
(tests/service/servicevm.py; kf-notify-run plays systemd's part in the guest)."""
# timeout: 300
import sys
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


kftest.main(main)
