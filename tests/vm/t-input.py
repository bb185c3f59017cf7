#!/usr/bin/env python3
# timeout: 1200
"""VM tests of the seat and input stack (issue 6): real libinput over real evdev devices in a QEMU guest,
libseat's builtin backend (root, no daemon) and seatd, typed with QEMU's send-key.

They drive kf-input-probe (tests/kmscon-felis/input-probe.c): kf_seat + input/ + the key translation and
encoder, printing the bytes each key sends. Prints one line per test: PASS name / FAIL name / SKIP name.

    tests/vm/t-input.py [--only NAME]... [--switches N]   (tests/vm/run runs it)
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from vmlib import DEFAULT_TIMEOUT, VM, VMError, build_guest, default_build_dir  # noqa: E402

PROBE_LOG = "/tmp/probe%d.log"


def probe_files(build_dir):
    """The probe and every shared library it needs that the base guest may lack (taken from this host, which
    runs the same Debian release as the guest)."""
    probe = Path(build_dir) / "tests" / "kmscon-felis" / "kf-input-probe"
    if not probe.exists():
        raise VMError("%s is not built" % probe)
    files = {"/usr/bin/kf-input-probe": str(probe)}
    out = subprocess.run(["ldd", str(probe)], stdout=subprocess.PIPE, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.search(r"=> (/\S+)", line)
        if m:
            files[m.group(1)] = os.path.realpath(m.group(1))
    files["/tmp/mouse-app.sh"] = MOUSE_APP
    files["/tmp/zoom-app.sh"] = ZOOM_APP
    files["/tmp/typed-app.sh"] = TYPED_APP
    return {k.lstrip("/"): v for k, v in files.items()}


UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")


def start_probe(vm, n, args="", env=""):
    vm.sh("%s kf-input-probe %s >%s 2>&1 &" % (env, args, PROBE_LOG % n))


def probe_log(vm, n):
    return vm.sh("cat %s" % (PROBE_LOG % n))


def wait_log(vm, n, pattern, timeout=30):
    return vm.wait_file(PROBE_LOG % n, timeout=timeout, pattern=pattern)


def keys_sent(vm, n):
    """The bytes of every KEY line of probe N, concatenated."""
    data = b""
    for m in re.finditer(r"^KEY ([0-9a-f]+)", probe_log(vm, n), re.M):
        data += bytes.fromhex(m.group(1))
    return data


def wait_keys(vm, n, want, timeout=20):
    deadline = time.time() + timeout * DEFAULT_TIMEOUT
    got = b""
    while time.time() < deadline:
        got = keys_sent(vm, n)
        if len(got) >= len(want):
            break
        time.sleep(0.3)
    return got


def led_values(vm, name):
    """The brightness of every keyboard LED called NAME in sysfs; fails when the guest has none."""
    out = vm.sh("for l in /sys/class/leds/input*::%s; do [ -e $l ] && echo $l $(cat $l/brightness); done; true"
                % name)
    leds = dict(line.split() for line in out.splitlines() if line.strip())
    if not leds:
        vm.fail("no %s LED in /sys/class/leds (%s); keyboards:\n%s" % (
            name, vm.sh("ls /sys/class/leds; true").split(),
            vm.sh("grep -E '^N:|LED=' /proc/bus/input/devices; true")))
    return leds


def wait_led(vm, name, want, timeout=10):
    deadline = time.time() + timeout * DEFAULT_TIMEOUT
    while True:
        leds = led_values(vm, name)
        if all(v == want for v in leds.values()) or time.time() > deadline:
            return leds
        time.sleep(0.2)


def check_led(vm, qcode, name, toggles=True):
    """QCODE pressed twice: the LED NAME goes 0 -> 1 -> 0 (or stays 0 if not TOGGLES)."""
    leds = wait_led(vm, name, "0", timeout=2)
    if set(leds.values()) != {"0"}:
        vm.fail("%s LED lit before %s was pressed: %s" % (name, qcode, leds))
    for want in (("1", "0") if toggles else ("0",)):
        vm.sendkey(qcode)
        if not toggles:
            time.sleep(1)
        leds = wait_led(vm, name, want)
        if set(leds.values()) != {want}:
            vm.fail("after %s the %s LED is %s, want %s" % (qcode, name, leds, want))
    print("    %s LED %s: %s" % (name, "0 -> 1 -> 0" if toggles else "stays 0", " ".join(leds)))


def test_typing(guest, backend):
    """sendkey 'echo hello' Enter reaches the probe as the bytes a shell reads."""
    with VM(guest, gpu="virtio", name="input-typing-" + backend) as vm:
        vm.sh(UDEV, timeout=60)
        env = ""
        if backend == "seatd":
            vm.sh("seatd -g root >/tmp/seatd.log 2>&1 & i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 50 ]; "
                  "do sleep 0.1; i=$((i+1)); done; [ -S /run/seatd.sock ]")
        start_probe(vm, 1, "", env)
        log = wait_log(vm, 1, r"^DEVICES [1-9]")
        if "ENABLED" not in log:
            wait_log(vm, 1, r"^ENABLED")
        vm.type_text("echo hello\n")
        got = wait_keys(vm, 1, b"echo hello\r")
        if got != b"echo hello\r":
            vm.fail("typed %r, the probe saw %r" % (b"echo hello\r", got))
        # The lock keys light the keyboard's LEDs: the virtio keyboard has all three (EV_LED, LED=7) and the
        # kernel's input-leds (built in) shows them as /sys/class/leds/input*::{capslock,numlock,scrolllock}.
        # The program sets them: seatd's VT setup turns the kernel's own keyboard handler off (K_OFF), which
        # the Scroll Lock check shows (the kernel would light it; the US keymap binds no Scroll Lock LED).
        check_led(vm, "caps_lock", "capslock")
        check_led(vm, "num_lock", "numlock")
        check_led(vm, "scroll_lock", "scrolllock", toggles=False)
        if backend == "seatd" and "backend seatd" not in probe_log(vm, 1):
            vm.fail("seatd was not chosen:\n" + probe_log(vm, 1))
        # Modifiers and special keys through real evdev: Ctrl+C, Up, Shift+Tab.
        vm.sendkey("ctrl-c")
        vm.sendkey("up")
        vm.sendkey("shift-tab")
        want = b"echo hello\r\x03\x1b[A\x1b[Z"
        got = wait_keys(vm, 1, want)
        if got != want:
            vm.fail("controls: %r" % got)


def test_layout_de(guest):
    """A German layout: y/z swapped, o-umlaut, Shift+7 '/', AltGr+q '@'."""
    with VM(guest, gpu="virtio", name="input-de") as vm:
        vm.sh(UDEV, timeout=60)
        start_probe(vm, 1, "--layout de")
        wait_log(vm, 1, r"^ENABLED")
        wait_log(vm, 1, r"^DEVICES [1-9]")
        for k in ("y", "z", "semicolon", "shift-7", "alt_r-q"):
            vm.sendkey(k)
            time.sleep(0.05)
        want = "zyö/@".encode()
        got = wait_keys(vm, 1, want)
        if got != want:
            vm.fail("de layout: got %r, want %r" % (got, want))


def plug_usb_keyboard(vm):
    """Starts the probe, plugs a USB keyboard in and waits until the probe counts it; returns the count of
    keyboards before it. display=gpu0 binds the keyboard to the GPU's console, so that input-send-event can
    address it alone."""
    vm.sh(UDEV + "; (udevadm monitor --udev >/dev/null 2>&1 &)", timeout=60)
    start_probe(vm, 1)
    log = wait_log(vm, 1, r"^DEVICES [1-9]")
    before = int(re.findall(r"^DEVICES (\d+)", log, re.M)[-1])
    vm.qmp.cmd("device_add", driver="usb-kbd", id="usbkbd", bus="xhci.0", display="gpu0")
    deadline = time.time() + 30 * DEFAULT_TIMEOUT
    while time.time() < deadline:
        counts = [int(x) for x in re.findall(r"^DEVICES (\d+)", probe_log(vm, 1), re.M)]
        if counts and counts[-1] > before:
            return before
        time.sleep(0.5)
    vm.fail("the USB keyboard never appeared (keyboards stayed at %d)" % before)


def test_usb_hotplug(guest):
    """A USB keyboard plugged in at run time is found at once and types."""
    with VM(guest, gpu="virtio", usb=True, name="input-usb") as vm:
        plug_usb_keyboard(vm)
        # Sent to the console of gpu0: QEMU routes them to the input handler bound to that console, the USB
        # keyboard only (the virtio keyboard is not bound to any console).
        for key in ("u", "s", "b"):
            for down in (True, False):
                vm.qmp.cmd("input-send-event", device="gpu0",
                           events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": key}}}])
            time.sleep(0.05)
        got = wait_keys(vm, 1, b"usb")
        if got != b"usb":
            vm.fail("the USB keyboard typed %r" % got)


def test_usb_unplug_held(guest):
    """A key held down on a USB keyboard that is then unplugged: it repeats while held, and its repeat stops with
    the device (libinput releases the keys of a device removed); the virtio keyboard types on after."""
    with VM(guest, gpu="virtio", usb=True, name="input-unplug") as vm:
        before = plug_usb_keyboard(vm)
        vm.qmp.cmd("input-send-event", device="gpu0",
                   events=[{"type": "key", "data": {"down": True, "key": {"type": "qcode", "data": "x"}}}])
        got = wait_keys(vm, 1, b"xxxx")
        if not got.startswith(b"xxxx") or set(got) != {ord("x")}:
            vm.fail("x held on the USB keyboard: %r, want it repeating" % got)
        vm.qmp.cmd("device_del", id="usbkbd")
        deadline = time.time() + 30 * DEFAULT_TIMEOUT
        while time.time() < deadline:
            counts = [int(x) for x in re.findall(r"^DEVICES (\d+)", probe_log(vm, 1), re.M)]
            if counts and counts[-1] == before:
                break
            time.sleep(0.5)
        else:
            vm.fail("the USB keyboard never went away")
        time.sleep(0.5)
        n_gone = len(keys_sent(vm, 1))
        time.sleep(2)
        n_later = len(keys_sent(vm, 1))
        if n_later != n_gone:
            vm.fail("x went on repeating after its keyboard was unplugged: %d more" % (n_later - n_gone))
        vm.sendkey("y")
        got = wait_keys(vm, 1, b"x" * n_later + b"y")
        if not got.endswith(b"y") or len(got) != n_later + 1:
            vm.fail("the virtio keyboard after the unplug typed %r" % got[n_later:])
        print("    %d x while held, none after the unplug" % n_gone)


def test_vt_switch(guest, switches):
    """Two probes on tty1 and tty2: Ctrl+Alt+F2 / Ctrl+Alt+F1 move the seat between them; no fd grows."""
    with VM(guest, gpu="virtio", name="input-vt") as vm:
        vm.sh(UDEV, timeout=60)
        vm.sh("chvt 1")
        start_probe(vm, 1, "--vt 1 --switchvt")
        wait_log(vm, 1, r"^ENABLED")
        wait_log(vm, 1, r"^DEVICES [1-9]")
        start_probe(vm, 2, "--vt 2 --switchvt", env="")
        # Probe 2 asked for VT 2 with --switchvt: it activates it, probe 1 releases.
        wait_log(vm, 2, r"^ENABLED")
        wait_log(vm, 1, r"^DISABLED")
        t0 = time.time()
        enabled = {1: 1, 2: 1}
        for i in range(switches):
            target = 1 if i % 2 == 0 else 2
            vm.sendkey("ctrl-alt-f%d" % target)
            # The switch is done when the target probe has the seat again (its next ENABLED line) and the
            # kernel shows its VT. The next switch waits for that: libseat's builtin backend (seatd 0.7)
            # can revert a switch requested within milliseconds of an enable (see docs/seat.md).
            deadline = time.time() + 20 * DEFAULT_TIMEOUT
            while time.time() < deadline:
                out = vm.sh("grep -c '^ENABLED' %s; cat /sys/class/tty/tty0/active" % (PROBE_LOG % target))
                count, active = out.split()
                if int(count) > enabled[target] and active == "tty%d" % target:
                    enabled[target] = int(count)
                    break
                time.sleep(0.05)
            else:
                vm.fail("switch %d to VT %d did not happen (active %s)\n%s\n%s" % (
                    i, target, active, probe_log(vm, 1)[-3000:], probe_log(vm, 2)[-3000:]))
        elapsed = time.time() - t0
        # Let the last enable land, then compare the fd counts each probe reported over the run.
        time.sleep(1)
        for n in (1, 2):
            fds = [int(x) for x in re.findall(r"^ENABLED (\d+)", probe_log(vm, n), re.M)]
            if len(fds) < 2:
                vm.fail("probe %d was enabled only %d times" % (n, len(fds)))
            if max(fds[1:]) > fds[1]:
                vm.fail("probe %d's open fds grew: %s" % (n, fds))
        # Typing goes to the probe whose VT is shown.
        active = vm.sh("cat /sys/class/tty/tty0/active").strip()
        holder = 1 if active == "tty1" else 2
        vm.type_text("ok")
        got = wait_keys(vm, holder, b"ok")
        if not got.endswith(b"ok"):
            vm.fail("after the switches probe %d got %r" % (holder, got))
        print("    %d switches in %.1f s" % (switches, elapsed))


# The application of input-rel-mouse: 200 lines of scrollback, then (when the test creates /tmp/go) the PTY in
# raw mode, any-motion mouse reports (1003) in SGR form (1006), every byte the terminal sends logged to a file.
MOUSE_APP = (b"seq 1 200\ntouch /tmp/seq-ready\nwhile [ ! -e /tmp/go ]; do sleep 0.1; done\n"
             b"stty raw -echo\nprintf '\\033[?1003h\\033[?1006h'\ntouch /tmp/app-ready\n"
             b"exec cat >/tmp/mouse.log\n")
SGR = re.compile(r"\[<(\d+);(\d+);(\d+)([Mm])")


def mouse_reports(vm):
    """Every SGR report the application read so far: (button, col, row, 'M' or 'm')."""
    return [(int(b), int(c), int(r), a) for b, c, r, a in SGR.findall(vm.sh("cat -v /tmp/mouse.log 2>/dev/null; true"))]


def wait_reports(vm, count, what, motion=False, timeout=20):
    """Waits for COUNT reports (not counting motion reports, button 35, unless MOTION); returns them."""
    deadline = time.time() + timeout * DEFAULT_TIMEOUT
    while True:
        got = [r for r in mouse_reports(vm) if motion or r[0] != 35]
        if len(got) >= count:
            return got
        if time.time() > deadline:
            vm.fail("%s: %d SGR report(s) of %d: %s\n%s" % (what, len(got), count, got,
                                                             vm.sh("tail -20 /tmp/kf.log")))
        time.sleep(0.3)


def click(vm):
    """A left click with the virtio mouse; waits for its press and release reports; returns its cell."""
    n = len(wait_reports(vm, 0, "reports"))
    vm.mouse_button("left", True)
    vm.mouse_button("left", False)
    got = wait_reports(vm, n + 2, "a click")[n:]
    if [(b, a) for b, _, _, a in got] != [(0, "M"), (0, "m")] or got[0][1:3] != got[1][1:3]:
        vm.fail("a click sent %s" % got)
    return got[0][1:3]


def wheel(vm, button):
    vm.pointer_events([{"type": "btn", "data": {"button": button, "down": True}}])
    vm.pointer_events([{"type": "btn", "data": {"button": button, "down": False}}])


def check_wheel_scrollback(vm, rows, ch, lines=3):
    """Without mouse reporting a wheel notch up scrolls the view LINES (WHEEL_LINES) back: the screen's rows
    move down by that many, earlier lines above them; a notch down brings the screen back. The last row (the
    cursor's) is left out."""
    # The frame that shows all of seq's output: two screendumps 0.5 s apart alike.
    prev = [None]

    def settled(img):
        same, prev[0] = img.data == prev[0], img.data
        return same
    before = vm.wait_screen(settled, timeout=20, what="the screen to settle after seq")
    width = before.width
    kept = before.crop(0, 0, width, (rows - 1 - lines) * ch)
    if kept.is_uniform():
        vm.fail("no text on the screen before the wheel")
    wheel(vm, "wheel-up")
    after = vm.wait_screen(lambda i: i.crop(0, lines * ch, width, (rows - 1 - lines) * ch).data == kept.data,
                           timeout=20, what="the screen scrolled back %d lines by a wheel notch" % lines)
    if after.crop(0, 0, width, lines * ch).is_uniform():
        vm.fail("no earlier lines above the scrolled screen")
    wheel(vm, "wheel-down")
    top = before.crop(0, 0, width, (rows - 1) * ch)
    vm.wait_screen(lambda i: i.crop(0, 0, width, (rows - 1) * ch).data == top.data, timeout=20,
                   what="the screen back after a wheel notch down")
    print("    wheel without mouse reporting: %d lines back and forth" % lines)


def start_console(vm, app, ready, args=""):
    """Starts udev and kmscon-felis (built-in font, --verbose, ARGS) on tty1 running the shell script APP, waits
    for its log to match READY (e.g. its input devices counted); returns (width, height, cell width, cell
    height) of its first frame."""
    vm.sh(UDEV, timeout=60)
    vm.sh("kmscon-felis --font-engine=builtin --verbose --vt=1 --switchvt %s --login -- /bin/sh %s "
          ">/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid" % (args, app))
    try:
        log = vm.wait_file("/tmp/kf.log", pattern=ready, timeout=60)
    except VMError as e:
        raise VMError("%s\n  kmscon-felis's log:\n%s" % (e, vm.sh("tail -20 /tmp/kf.log; true")))
    return tuple(map(int, re.search(r"first frame on screen \((\d+)x(\d+)@.*built-in (\d+)x(\d+)", log).groups()))


def test_rel_mouse(guest):
    """kmscon-felis with the relative virtio mouse (libinput's pointer acceleration, the position clamped to the
    screen) and an application that enables any-motion SGR reports (1003 + 1006): a click after moving far up
    and left is at cell 1;1, one after moving far down and right at the last cell, one after a move in
    between, preceded by motion reports (35) at its cell; wheel notches are reports 64 (up) and 65 (down).
    Before the application enables reporting the wheel scrolls the view back through the scrollback."""
    with VM(guest, gpu="virtio", name="input-rel-mouse") as vm:
        w, h, cw, ch = start_console(vm, "/tmp/mouse-app.sh", "[1-9] pointers")
        cols, rows = w // cw, h // ch
        vm.wait_file("/tmp/seq-ready", timeout=30)
        check_wheel_scrollback(vm, rows, ch)
        vm.sh("touch /tmp/go")
        vm.wait_file("/tmp/app-ready", timeout=30)
        # The DECSETs go through the PTY to the parser: reporting is on once a move gives a motion report (the
        # moves go back and forth, so that each one changes the cell the pointer is on).
        step = [60]

        def reporting():
            step[0] = -step[0]
            vm.mouse_move(step[0], step[0])
            return mouse_reports(vm)
        vm.wait_until(reporting, timeout=20, interval=0.3, what="a motion report (any-motion reporting on)")
        for _ in range(10):
            vm.mouse_move(-300, -300)
        if click(vm) != (1, 1):
            vm.fail("far up and left is not cell 1;1: %s" % mouse_reports(vm))
        for _ in range(10):
            vm.mouse_move(400, 400)
        if click(vm) != (cols, rows):
            vm.fail("far down and right is not cell %d;%d: %s" % (cols, rows, mouse_reports(vm)))
        for _ in range(10):
            vm.mouse_move(-300, -300)
        vm.mouse_move(200, 150)  # 60x45 pixels at the slowest acceleration, 700x525 at the fastest
        time.sleep(0.5)
        col, row = click(vm)
        if not (1 < col < cols and 1 < row < rows):
            vm.fail("a move from 1;1 clicked at %d;%d of %dx%d" % (col, row, cols, rows))
        motion = [r for r in mouse_reports(vm) if r[0] == 35]
        if not motion or motion[-1][1:4] != (col, row, "M"):
            vm.fail("no motion report at the click's cell %d;%d: %s" % (col, row, mouse_reports(vm)))
        n = len(wait_reports(vm, 0, "reports"))
        for b in ("wheel-up", "wheel-up", "wheel-down"):
            wheel(vm, b)
            time.sleep(0.2)
        got = wait_reports(vm, n + 3, "three wheel notches")[n:]
        if got != [(64, col, row, "M"), (64, col, row, "M"), (65, col, row, "M")]:
            vm.fail("wheel up, up, down at %d;%d sent %s" % (col, row, got))
        print("    clicks at 1;1, %d;%d and %d;%d; %d motion reports; wheel 64 64 65"
              % (cols, rows, col, row, len(motion)))


# The application of input-zoom: on each request (/tmp/q) it writes the window size its PTY has (stty size:
# "ROWS COLS", from TIOCGWINSZ) to /tmp/size.
ZOOM_APP = (b"while :; do if [ -e /tmp/q ]; then stty size >/tmp/size.new; rm -f /tmp/q; mv /tmp/size.new /tmp/size; "
            b"fi; sleep 0.1; done\n")


def pty_size(vm):
    """(rows, cols) of the application's PTY, asked now."""
    vm.sh("rm -f /tmp/size; touch /tmp/q")
    out = vm.wait_file("/tmp/size", pattern="^[0-9]+ [0-9]+$", timeout=20)
    rows, cols = map(int, out.split())
    return rows, cols


def wait_pty_size(vm, want, what, timeout=20):
    deadline = time.time() + timeout * DEFAULT_TIMEOUT
    while True:
        got = pty_size(vm)
        if got == want:
            return
        if time.time() > deadline:
            vm.fail("%s: the PTY is %dx%d (rows x cols), not %dx%d\n%s"
                    % (what, got[0], got[1], want[0], want[1], vm.sh("tail -20 /tmp/kf.log")))
        time.sleep(0.3)


def test_zoom(guest):
    """Ctrl+plus (Ctrl+=), Ctrl+minus and Ctrl+0 change the font size and resize the grid and the PTY: with the
    built-in 8x16 font the screen is W/8 x H/16 cells; zoomed in once the cells are twice as large, so the
    application's PTY (TIOCGWINSZ, read with stty size) has half the columns and rows; Ctrl+minus and Ctrl+0
    bring the size back."""
    with VM(guest, gpu="virtio", name="input-zoom") as vm:
        w, h, cw, ch = start_console(vm, "/tmp/zoom-app.sh", "[1-9] keyboards")
        full = (h // ch, w // cw)
        wait_pty_size(vm, full, "at start")
        vm.sendkey("ctrl-equal")
        wait_pty_size(vm, (h // (2 * ch), w // (2 * cw)), "after Ctrl+=")
        vm.sendkey("ctrl-equal")
        wait_pty_size(vm, (h // (3 * ch), w // (3 * cw)), "after Ctrl+= twice")
        vm.sendkey("ctrl-minus")
        wait_pty_size(vm, (h // (2 * ch), w // (2 * cw)), "after Ctrl+minus")
        vm.sendkey("ctrl-0")
        wait_pty_size(vm, full, "after Ctrl+0")
        print("    PTY %dx%d, zoomed x2 %dx%d, x3 %dx%d, back %dx%d"
              % (full + (h // (2 * ch), w // (2 * cw), h // (3 * ch), w // (3 * cw)) + full))


# The application of input-reload-layout: every byte typed, as it comes, into /tmp/typed.
TYPED_APP = b"stty raw -echo; touch /tmp/typed-ready; exec cat >/tmp/typed\n"


def reload_with(vm, conf, text):
    """Writes CONF as the configuration file, sends SIGHUP and waits for a new log line holding TEXT."""
    n = int(vm.sh("grep -c %r /tmp/kf.log; true" % text).strip() or 0)
    vm.sh("printf '%s' >/tmp/kfconf/kmscon-felis.conf; kill -HUP $(cat /tmp/kf.pid)" % conf)
    vm.wait_until(lambda: int(vm.sh("grep -c %r /tmp/kf.log; true" % text).strip() or 0) > n, timeout=20,
                  interval=0.2, what="%r in the log after SIGHUP" % text)


def wait_typed(vm, want):
    """Waits for the application to have received WANT in all."""
    last = [None]

    def typed():
        last[0] = vm.sh("cat /tmp/typed; true")
        return last[0] == want
    try:
        vm.wait_until(typed, timeout=20, interval=0.2, what="the application to have %r" % want)
    except VMError as e:
        raise VMError("%s; it has %r\n%s" % (e, last[0], vm.sh("tail -8 /tmp/kf.log; true")))


def typed_after(vm, qcode, want):
    """Presses QCODE and waits for the application to have received WANT in all."""
    vm.sendkey(qcode)
    wait_typed(vm, want)


def caps_led_on(vm, only=""):
    """Waits for the Caps Lock LED of every keyboard whose name has ONLY to be lit."""
    def lit():
        out = vm.sh("for l in /sys/class/leds/input*::capslock; do echo $(cat $l/brightness) $(cat $l/device/name);"
                    " done; true")
        leds = [line.split(" ", 1) for line in out.splitlines() if only in line]
        return leds if leds and all(v == "1" for v, _ in leds) else None
    try:
        vm.wait_until(lit, timeout=10, interval=0.2, what="the Caps Lock LED on (%s)" % (only or "all"))
    except VMError as e:
        raise VMError("%s: %s" % (e, led_values(vm, "capslock")))


def test_reload_layout(guest):
    """xkb-layout changed by a reload (SIGHUP, as systemctl reload) while the session runs: the same key types y
    with us and z once xkb-layout=de is reloaded, the same application still reading; Caps Lock on before a
    reload stays on (Z) with its LED; a layout that does not compile is refused (the log names the key and the
    value, "kept the old configuration") and the keyboard stays de; a USB keyboard plugged in after the reload
    types with the new keymap and lights its Caps Lock LED; /etc/default/keyboard edited in place is taken by a
    reload that changes no key."""
    with VM(guest, gpu="virtio", usb=True, name="input-reload-layout") as vm:
        vm.sh("mkdir -p /tmp/kfconf; printf 'xkb-layout=us\\n' >/tmp/kfconf/kmscon-felis.conf")
        start_console(vm, "/tmp/typed-app.sh", "[1-9] keyboards", "--configdir=/tmp/kfconf")
        vm.wait_file("/tmp/typed-ready", timeout=30)
        typed_after(vm, "y", "y")
        reload_with(vm, "xkb-layout=de\\n", "configuration reloaded")
        if "applied xkb-layout" not in vm.sh("cat /tmp/kf.log"):
            vm.fail("the reload does not name xkb-layout: %s" % vm.sh("tail -5 /tmp/kf.log"))
        typed_after(vm, "y", "yz")
        vm.sendkey("caps_lock")
        caps_led_on(vm)
        typed_after(vm, "y", "yzZ")
        reload_with(vm, "xkb-layout=no-such-layout\\n", "kept the old configuration")
        if "xkb-layout=no-such-layout" not in vm.sh("cat /tmp/kf.log"):
            vm.fail("the refusal does not name the key and value: %s" % vm.sh("tail -8 /tmp/kf.log"))
        typed_after(vm, "y", "yzZZ")
        kbds = vm.sh("grep -c '(keyboard)' /tmp/kf.log; true").strip()
        vm.qmp.cmd("device_add", driver="usb-kbd", id="usbkbd", bus="xhci.0", display="gpu0")
        vm.wait_until(lambda: vm.sh("grep -c '(keyboard)' /tmp/kf.log; true").strip() != kbds, timeout=30,
                      interval=0.5, what="the USB keyboard added")
        for down in (True, False):  # to gpu0's console: the USB keyboard only (see test_usb_hotplug)
            vm.qmp.cmd("input-send-event", device="gpu0",
                       events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": "y"}}}])
        wait_typed(vm, "yzZZZ")
        # The new keyboard's LED only: the virtio keyboard's went off when the USB one was plugged, with or
        # without a reload (seen with QEMU 7.2, whose keyboards share one LED state).
        caps_led_on(vm, "USB")
        reload_with(vm, "xkb-layout=us\\n", "configuration reloaded")
        caps_led_on(vm, "USB")
        typed_after(vm, "y", "yzZZZY")
        vm.sendkey("caps_lock")
        typed_after(vm, "y", "yzZZZYy")
        # No xkb key: /etc/default/keyboard, edited in place and reloaded with the configuration unchanged
        # (systemctl reload after editing it), is taken; before, only a changed xkb key compiled anything.
        vm.sh("mkdir -p /etc/default; printf 'XKBLAYOUT=us\\n' >/etc/default/keyboard")
        reload_with(vm, "", "configuration reloaded")
        typed_after(vm, "y", "yzZZZYyy")
        vm.sh("printf 'XKBLAYOUT=de\\n' >/etc/default/keyboard")
        reload_with(vm, "", "configuration reloaded")
        if "the keymap changed" not in vm.sh("cat /tmp/kf.log"):
            vm.fail("the edited /etc/default/keyboard is not said: %s" % vm.sh("tail -5 /tmp/kf.log"))
        typed_after(vm, "y", "yzZZZYyyz")
        print("    us y, de z, Caps Z kept across two reloads, a broken layout refused, a USB keyboard plugged "
              "after the reload types Z (LED on), us y; /etc/default/keyboard edited to de and reloaded: z")


def test_reload_early(guest):
    """A reload while the console waits for its VT (--vt=5 --no-activate-vt: no console and no keymap yet) is
    checked as later: a layout that does not compile is refused, its key and value named; before, it was taken,
    and the keymap made from it when the VT came fell back to us with a mere warning. Then the VT comes, and the
    keyboard has the layout in force (us: y)."""
    with VM(guest, gpu="virtio", usb=False, name="input-reload-early") as vm:
        vm.sh("mkdir -p /tmp/kfconf; printf 'xkb-layout=us\\n' >/tmp/kfconf/kmscon-felis.conf")
        vm.sh(UDEV, timeout=60)
        vm.sh("kmscon-felis --font-engine=builtin --verbose --vt=5 --no-activate-vt --configdir=/tmp/kfconf --login "
              "-- /bin/sh /tmp/typed-app.sh >/tmp/kf.log 2>&1 & echo $! >/tmp/kf.pid")
        vm.wait_file("/tmp/kf.log", pattern="waiting for VT 5", timeout=30)
        reload_with(vm, "xkb-layout=no-such-layout\\n", "reload")
        vm.wait_until(lambda: "kept the old configuration" in vm.sh("cat /tmp/kf.log") or
                      "configuration reloaded" in vm.sh("cat /tmp/kf.log"), timeout=20, interval=0.2,
                      what="the reload's outcome")
        log = vm.sh("cat /tmp/kf.log")
        if "kept the old configuration" not in log or "xkb-layout=no-such-layout" not in log:
            vm.fail("a broken layout reloaded before the console has its VT is not refused:\n%s" %
                    vm.sh("tail -8 /tmp/kf.log"))
        vm.sh("chvt 5")
        vm.wait_file("/tmp/typed-ready", timeout=30)
        vm.wait_file("/tmp/kf.log", pattern="[1-9] keyboards", timeout=30)
        typed_after(vm, "y", "y")
        if "using the 'us' layout" in vm.sh("cat /tmp/kf.log"):
            vm.fail("the keymap fell back to us: %s" % vm.sh("tail -8 /tmp/kf.log"))
        print("    a broken layout reloaded while waiting for VT 5 refused; on VT 5 the Y key types y")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--switches", type=int, default=int(os.environ.get("KF_VM_SWITCHES", "200")))
    args = ap.parse_args()
    tests = [
        ("input-typing-builtin", lambda g: test_typing(g, "builtin")),
        ("input-typing-seatd", lambda g: test_typing(g, "seatd")),
        ("input-layout-de", test_layout_de),
        ("input-usb-hotplug", test_usb_hotplug),
        ("input-usb-unplug-held", test_usb_unplug_held),
        ("input-rel-mouse", test_rel_mouse),
        ("input-zoom", test_zoom),
        ("input-reload-layout", test_reload_layout),
        ("input-reload-early", test_reload_early),
    ]
    # The probe-based VT switch test is run only on request (--only input-vt-switch): the same acceptance
    # point (two instances, 200 switches, screen restored, no fd growth) is covered by console-vt-switch in
    # t-console.py with the real program, strictly (one key press per switch).
    if "input-vt-switch" in args.only:
        tests.append(("input-vt-switch", lambda g: test_vt_switch(g, args.switches)))
    try:
        base = build_guest(("udev", "seatd"))
        files = probe_files(default_build_dir())
    except (VMError, OSError, subprocess.CalledProcessError) as e:
        for name, _ in tests:
            print("SKIP %s" % name)
        print("    cannot build the guest: %s" % e)
        return 0
    failed = 0
    for name, fn in tests:
        if args.only and name not in args.only:
            continue
        try:
            # Each VM deletes its temporary initramfs when it ends: one per test.
            fn(base.with_files(files, name="probe"))
            print("PASS %s" % name, flush=True)
        except VMError as e:
            failed += 1
            print("FAIL %s" % name, flush=True)
            for line in str(e).splitlines():
                print("    " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
