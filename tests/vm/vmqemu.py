"""QEMU control for the harness (tests/vm/): the QMP client, the VM (QEMU process, serial command channel,
guest files, GPU hot-unplug/re-plug) and the clean-up that kills every QEMU when the harness exits. The VM's
keys and pointer are vminput.InputMixin, its screendumps vmscreen.ScreenMixin."""

import atexit
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from vmbase import DEFAULT_TIMEOUT, OUT, VMError, log, temporary_files
from vmguest import KERNEL_CMDLINE
from vminput import InputMixin
from vmscreen import ScreenMixin

ACK_TIMEOUT = 10   # seconds (times KF_VM_TIMEOUT_SCALE) for the guest to acknowledge a command line
CMD_RESENDS = 2    # resends of a command line that got no acknowledgement


class QMP:
    """A QMP client on a unix socket: commands, and the asynchronous events kept in .events.

    Every timeout given to it is in seconds before the scale, as the harness's other waits (wait_serial,
    wait_file, wait_screen): it waits timeout times KF_VM_TIMEOUT_SCALE (vmbase.DEFAULT_TIMEOUT), and its errors
    say the wait it made. On a slow host a screendump or a device_del's event needs the same slack as the serial
    port: unscaled, the monitor failed first while every other wait of the run had room."""

    def __init__(self, path, timeout=30):
        wait = timeout * DEFAULT_TIMEOUT
        deadline = time.time() + wait
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise VMError("cannot connect to QMP socket %s in %.0f s" % (path, wait))
                time.sleep(0.05)
        self.buf = b""
        self.events = []
        self.next_id = 0  # the id of the last command sent (cmd)
        if self._recv(wait) is None:
            raise VMError("QMP: no greeting from QEMU in %.0f s" % wait)
        self.cmd("qmp_capabilities", timeout=timeout)

    def _recv(self, wait):
        """One message, or None when none came within WAIT seconds (already scaled: the public methods scale
        their timeout and say what did not come)."""
        deadline = time.time() + wait
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not d:
                raise VMError("QMP: QEMU closed the monitor")
            self.buf += d
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def cmd(self, name, timeout=60, **args):
        # Each command carries an id that QEMU echoes in its answer: an answer to an earlier command (one whose
        # wait timed out) is skipped, not taken for this one's. Without it one late answer shifts every later
        # command by one: a screendump "returns" before QEMU has written its file.
        self.next_id += 1
        msg = {"execute": name, "id": self.next_id}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        wait = timeout * DEFAULT_TIMEOUT
        deadline = time.time() + wait
        while True:
            # one deadline for the command: events and answers to earlier commands do not extend it
            r = self._recv(deadline - time.time())
            if r is None:
                raise VMError("QMP %s: no answer in %.0f s" % (name, wait))
            if "event" in r:
                self.events.append(r)
                continue
            if r.get("id") != self.next_id:
                print("QMP: skipped an answer to an earlier command: %s" % json.dumps(r)[:200], file=sys.stderr)
                continue
            if "error" in r:
                raise VMError("QMP %s %s: %s" % (name, args, r["error"].get("desc")))
            return r.get("return")

    def wait_event(self, name, timeout=30, match=None):
        wait = timeout * DEFAULT_TIMEOUT
        deadline = time.time() + wait
        while True:
            for i, ev in enumerate(self.events):
                if ev["event"] == name and (match is None or match(ev.get("data", {}))):
                    del self.events[i]
                    return ev
            left = deadline - time.time()
            if left <= 0:
                raise VMError("QMP: no %s event in %.0f s" % (name, wait))
            r = self._recv(left)
            if r is not None and "event" in r:
                self.events.append(r)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


GPUS = {
    # name: (QEMU device, DRM driver in the guest)
    "virtio": ("virtio-gpu-pci", "virtio_gpu"),
    "bochs": ("bochs-display", "bochs-drm"),
    "none": (None, None),
}

_live = set()  # the VMs whose QEMU may be running: killed at exit and on SIGTERM/SIGINT/SIGHUP


def _die_with_parent():
    """In the forked QEMU: get SIGKILL when the harness dies, however it dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


def _kill_all():
    for vm in list(_live):
        vm.kill()
    for p in temporary_files:
        try:
            os.unlink(p)
        except OSError:
            pass


def _on_signal(signum, frame):
    _kill_all()
    sys.exit(128 + signum)


atexit.register(_kill_all)
for _s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    try:
        if signal.getsignal(_s) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(_s, _on_signal)
    except (ValueError, OSError):
        pass


class VM(InputMixin, ScreenMixin):
    """One QEMU guest. Use as a context manager (or call start() and kill()); QEMU never outlives the harness.

    gpu: "virtio" (virtio-gpu-pci), "bochs" (bochs-display) or "none"; outputs: virtio-gpu heads; xres/yres:
    the preferred mode (EDID); usb: add an xHCI controller (for device_add usb-kbd); vnc: a VNC display number
    on 127.0.0.1 (None: no display); kvm: use KVM (default: $KF_VM_KVM=1); smp, mem: guest CPUs and memory;
    append: extra kernel command line; name: for the serial log file OUT/NAME-serial.log."""

    def __init__(self, guest, gpu="virtio", outputs=1, xres=1024, yres=768, usb=False, vnc=None, kvm=None,
                 smp=1, mem="1G", append="", name="vm", boot_timeout=None, extra_args=()):
        if gpu not in GPUS:
            raise VMError("unknown gpu %r (virtio, bochs, none)" % gpu)
        self.guest, self.gpu, self.outputs, self.xres, self.yres = guest, gpu, outputs, xres, yres
        self.usb, self.vnc, self.smp, self.mem, self.append, self.name = usb, vnc, smp, mem, append, name
        self.kvm = kvm if kvm is not None else os.environ.get("KF_VM_KVM") == "1"
        # seconds before the scale, as every timeout given to the waits below (wait_serial scales it: scaled
        # here too, a multiplier of 3 made the boot wait 1,080 s, not 360)
        self.boot_timeout = boot_timeout or 120
        self.extra_args = list(extra_args)
        self.proc = None
        self.qmp = None
        self.serial = b""
        self.lock = threading.Condition()
        self.cmd_id = 0
        self.gpu_present = False
        self.tmpdir = None

    # -- lifecycle --
    def gpu_device_arg(self):
        dev = GPUS[self.gpu][0]
        arg = "%s,id=gpu0,bus=rp1,xres=%d,yres=%d" % (dev, self.xres, self.yres)
        if self.gpu == "virtio":
            arg += ",max_outputs=%d" % self.outputs
        else:
            arg += ",edid=on"
        return arg

    def command_line(self):
        accel = ["-accel", "kvm", "-cpu", "host"] if self.kvm else ["-accel", "tcg", "-cpu", "max"]
        args = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-machine", "q35"] + accel + [
            "-smp", str(self.smp), "-m", self.mem, "-no-reboot",
            "-kernel", str(self.guest.kernel), "-initrd", str(self.guest.initrd),
            "-append", "%s kf.gpu=%s %s" % (KERNEL_CMDLINE, self.gpu, self.append),
            "-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
            "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path,
            "-device", "pcie-root-port,id=rp1,chassis=1,slot=1,bus=pcie.0",
            "-device", "pcie-root-port,id=rp2,chassis=2,slot=2,bus=pcie.0",
            "-device", "virtio-keyboard-pci,id=kbd0,bus=pcie.0",
            "-device", "virtio-mouse-pci,id=mouse0,bus=pcie.0",
        ]
        if self.gpu != "none":
            args += ["-device", self.gpu_device_arg()]
        if self.usb:
            args += ["-device", "qemu-xhci,id=xhci,bus=rp2"]
        args += ["-vnc", "127.0.0.1:%d" % self.vnc] if self.vnc is not None else ["-display", "none"]
        return args + self.extra_args

    def start(self):
        OUT.mkdir(parents=True, exist_ok=True)
        self.tmpdir = tempfile.mkdtemp(prefix="kf-vm-")
        self.qmp_path = os.path.join(self.tmpdir, "qmp.sock")
        self.log_path = OUT / ("%s-serial.log" % self.name)
        self.logf = open(self.log_path, "wb")
        args = self.command_line()
        log(" ".join(args))
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_die_with_parent)
        _live.add(self)
        self.gpu_present = self.gpu != "none"
        threading.Thread(target=self._reader, args=(self.proc.stdout, True), daemon=True).start()
        threading.Thread(target=self._reader, args=(self.proc.stderr, False), daemon=True).start()
        self.qmp = QMP(self.qmp_path, timeout=30)
        return self

    def _reader(self, pipe, is_serial):
        while True:
            d = pipe.read1(65536) if hasattr(pipe, "read1") else os.read(pipe.fileno(), 65536)
            if not d:
                break
            with self.lock:
                if is_serial:
                    self.serial += d
                else:
                    self.serial += b"[qemu stderr] " + d
                self.logf.write(d)
                self.logf.flush()
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def boot(self):
        """Starts QEMU and waits for the guest's 'KF-VM: BOOTED' marker; returns the guest uptime at that point."""
        if self.proc is None:
            self.start()
        m = self.wait_serial(r"KF-VM: BOOTED ([0-9.]+)", timeout=self.boot_timeout)
        return float(m.group(1))

    def __enter__(self):
        try:
            self.boot()
        except BaseException:
            self.kill()
            raise
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def shutdown(self, timeout=20):
        """Asks the guest to power off, then kills QEMU if it has not exited within TIMEOUT seconds."""
        if self.alive():
            try:
                self.proc.stdin.write(b"KFPOWEROFF\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        if self.qmp:
            self.qmp.close()
            self.qmp = None
        _live.discard(self)
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None

    # -- serial --
    def serial_text(self):
        return self.serial.decode("utf-8", "replace")

    def tail(self, n=40):
        """The last N lines of the serial log (for failure messages)."""
        lines = self.serial_text().splitlines()[-n:]
        return "\n".join("    | " + l for l in lines)

    def fail(self, msg):
        """Raises VMError with MSG and the serial log tail."""
        raise VMError("%s\n  serial log tail (%s):\n%s" % (msg, self.log_path, self.tail()))

    def wait_serial(self, pattern, timeout=30, start=0, fail=True):
        """Waits until regex PATTERN (str or bytes) matches the serial output from offset START; returns the
        match (on the decoded text). Fails with the serial tail on timeout or when QEMU exits; with fail=False a
        timeout returns None instead."""
        rx = re.compile(pattern)
        deadline = time.time() + timeout * DEFAULT_TIMEOUT
        with self.lock:
            while True:
                m = rx.search(self.serial[start:].decode("utf-8", "replace"))
                if m:
                    return m
                if self.proc.poll() is not None:
                    break
                left = deadline - time.time()
                if left <= 0:
                    break
                self.lock.wait(min(left, 1.0))
        if self.proc.poll() is not None:
            self.fail("QEMU exited (status %s) while waiting for %r" % (self.proc.returncode, pattern))
        if not fail:
            return None
        self.fail("timeout (%.0f s) waiting for %r on the serial port" % (timeout * DEFAULT_TIMEOUT, pattern))

    def wait_until(self, cond, timeout=30, what="a condition", interval=0.2):
        """Calls COND() (a host-side check, which may run guest commands) until it returns something true and
        returns that; fails naming WHAT after TIMEOUT seconds (times the timeout scale). The wait to use
        instead of a fixed sleep before a check: it ends as soon as the condition holds, however slow the
        host."""
        deadline = time.time() + timeout * DEFAULT_TIMEOUT
        while True:
            got = cond()
            if got:
                return got
            if time.time() > deadline:
                self.fail("timeout (%.0f s) waiting for %s" % (timeout * DEFAULT_TIMEOUT, what))
            time.sleep(interval)

    def sh(self, script, timeout=60, check=True):
        """Runs SCRIPT with /bin/sh in the guest (stdin /dev/null, stderr into stdout) and returns its output.
        With check (default) a non-zero exit status raises; otherwise returns (status, output). Background
        jobs are fine ("cmd >/tmp/log 2>&1 &"). One command at a time."""
        self.cmd_id += 1
        cid = self.cmd_id
        start = len(self.serial)
        line = ("KFCMD %d %s\n" % (cid, base64.b64encode(script.encode()).decode())).encode()
        # A command line now and then never reaches the guest's shell whole (seen under host load right after a
        # GPU re-plug or a DRM client's exit; the guest reports a mangled one as "KF-VM: bad line"). The guest
        # acknowledges each line before running it and runs an id only once, so a line without KFACK within
        # ACK_TIMEOUT is resent: safe even when only the acknowledgement was slow.
        for attempt in range(1 + CMD_RESENDS):
            try:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
            except OSError:
                self.fail("cannot write to the guest serial port (QEMU gone?)")
            if self.wait_serial(r"KF(?:ACK|BEGIN) %d\n" % cid, min(ACK_TIMEOUT, timeout), start, fail=False):
                break
            if attempt < CMD_RESENDS:
                print("  (guest command %d not acknowledged in %.0f s: resent)" % (cid, ACK_TIMEOUT * DEFAULT_TIMEOUT),
                      file=sys.stderr, flush=True)
        m = self.wait_serial(r"KFBEGIN %d\n((?:.|\n)*?)KFEND %d (\d+)\n" % (cid, cid), timeout, start)
        out, rc = m.group(1).replace("\r", ""), int(m.group(2))
        if check and rc != 0:
            self.fail("guest command failed (status %d): %s\n  output:\n%s" % (rc, script.strip()[:300], out))
        return out if check else (rc, out)

    def get_file(self, path, timeout=60):
        """The bytes of guest file PATH (base64 over the serial port: fine up to a few MB)."""
        out = self.sh("base64 '%s'" % path, timeout=timeout)
        return base64.b64decode("".join(out.split()))

    def dmesg(self):
        return self.sh("dmesg")

    def wait_file(self, path, timeout=30, pattern=None):
        """Waits until guest file PATH exists (and, with PATTERN, contains that extended regex); returns its
        contents (empty for a device node or directory)."""
        cond = "[ -e '%s' ]" % path
        if pattern:
            cond += " && grep -Eq '%s' '%s'" % (pattern.replace("'", "'\\''"), path)
        t = int(timeout * DEFAULT_TIMEOUT * 10)
        out = self.sh("i=0; until %s; do [ $i -ge %d ] && exit 1; i=$((i+1)); sleep 0.1; done; [ ! -f '%s' ] || cat '%s'"
                      % (cond, t, path, path), timeout=timeout + 30, check=False)
        if out[0] != 0:
            self.fail("timeout (%.0f s) waiting for guest file %s%s" % (
                timeout * DEFAULT_TIMEOUT, path, " to match %r" % pattern if pattern else ""))
        return out[1]

    # -- monitor --
    def hmp(self, line):
        """Runs a human monitor command (e.g. "info pci") and returns its text."""
        return self.qmp.cmd("human-monitor-command", **{"command-line": line})

    def gpu_sysfs(self):
        """The guest sysfs path of the GPU's PCI function (found from /sys/class/drm/card*/device)."""
        out = self.sh("for c in /sys/class/drm/card[0-9]; do readlink -f $c/device; done | sort -u | head -1")
        return out.strip()

    def unplug_gpu(self, method="guest", timeout=30):
        """Hot-unplugs the GPU and waits until the guest has no /dev/dri/card*.

        method "guest" (default): the kernel's PCI hot-remove path (echo 1 > /sys/bus/pci/devices/X/remove),
        what pciehp runs on a surprise removal; the DRM driver unplugs the device under its clients. Works for
        both GPUs. method "qemu": device_del on the q35 PCIe root port; QEMU 7.2 refuses it for virtio-gpu-pci
        ("does not support hotplugging") and never completes it for bochs-display (the guest powers the slot
        off, QEMU keeps the device), so it is only kept for newer QEMUs."""
        if method == "qemu":
            self.qmp.cmd("device_del", id="gpu0")
            self.qmp.wait_event("DEVICE_DELETED", timeout, match=lambda d: d.get("device") == "gpu0")
        else:
            dev = self.gpu_sysfs()
            if not dev.startswith("/sys/devices/pci"):
                self.fail("no GPU PCI device to unplug (got %r)" % dev)
            self._removed = dev
            self.sh("echo 1 > %s/remove" % dev, timeout=timeout)
        self.wait_file_gone("/dev/dri/card0", timeout)
        self.gpu_present = False

    def plug_gpu(self, method="guest", timeout=30):
        """Plugs the GPU back (a PCI rescan for method "guest", device_add on the root port for "qemu") and
        waits for /dev/dri/card0."""
        if method == "qemu":
            arg = self.gpu_device_arg()
            props = dict(kv.split("=", 1) for kv in arg.split(",")[1:])
            self.qmp.cmd("device_add", driver=GPUS[self.gpu][0], **props)
        else:
            self.sh("echo 1 > /sys/bus/pci/rescan", timeout=timeout)
        self.wait_file("/dev/dri/card0", timeout)
        self.gpu_present = True

    def wait_file_gone(self, path, timeout=30):
        t = int(timeout * DEFAULT_TIMEOUT * 10)
        rc, _ = self.sh("i=0; while [ -e '%s' ]; do [ $i -ge %d ] && exit 1; i=$((i+1)); sleep 0.1; done"
                        % (path, t), timeout=timeout + 30, check=False)
        if rc:
            self.fail("timeout (%.0f s) waiting for guest file %s to disappear" % (timeout * DEFAULT_TIMEOUT, path))
