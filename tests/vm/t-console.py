#!/usr/bin/env python3
# timeout: 900
"""The whole console in a QEMU guest (issue 6): kmscon-felis on DRM with libseat (builtin backend, root) and
libinput, a shell as the login; keys typed with QEMU's send-key, the pointer moved with a virtio tablet, and the
result looked for on the scanned-out screen (QEMU screendump).

Text on the screen is found by rendering the expected text with kmscon-felis-replay --png (same renderer, same
built-in font) and searching the screendump for those exact pixels at cell positions. Prints one line per
test: PASS name / FAIL name / SKIP name.

What a switch away does to an instance (input held or changed while away, instances stopped or unplugged
while away) is in t-console-away.py, the parts both use in vmconsole.py.

    tests/vm/t-console.py [--only NAME]... [--switches N] [--debug]
"""

import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kftest  # noqa: E402
from vmlib import DEFAULT_TIMEOUT, OUT, VMError  # noqa: E402
from vmconsole import (FONT, find_text, wait_text, DEBUG, start, boot, input_fds, key, fds, active_vt, wait_shown,
                       wait_hidden, mouse_on_marker, REPRESSED, switch, start_seatd, TABLET, tablet, button,
                       echo_and_select, start_pair, NOTIFY_GUEST, run_tests, parse_args)  # noqa: E402


def test_typing(vm):
    """sendkey 'echo hello' Enter: the command and its output are on the scanned-out screen."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    vm.type_text("echo hello\n")
    hits = wait_text(vm, "hello", 2)
    if not any(col == 0 for col, _ in hits):
        vm.fail("'hello' output not at the start of a line: %s" % hits)


def test_layout_de(vm):
    """--xkb-layout=de: the Y and Z keys are swapped, and the semicolon key types an o-umlaut."""
    start(vm, 1, "--vt=1 --switchvt --xkb-layout=de")
    wait_text(vm, "/ #")
    for k in ("e", "c", "h", "o", "spc", "y", "z", "ret"):
        vm.sendkey(k)
        time.sleep(0.05)
    hits = wait_text(vm, "zy", 2)
    if not any(col == 0 for col, _ in hits):
        vm.fail("the output 'zy' is missing: %s" % hits)


def test_dead_key_respawn(vm):
    """us(intl) with a compose file of our own (the guest has no X11 locale tables): a dead acute then e types
    an e-acute; a dead acute left pending when the login dies (killed from outside) must not turn the next
    login's first e into one (f2fcb10: the keyboard's sequence ended at a new login; it typed 'echo' as
    e-acute-'cho')."""
    vm.sh("printf '<dead_acute> <e> : \"\\303\\251\"\\n' > /tmp/XCompose")
    start(vm, 1, "--vt=1 --switchvt --xkb-layout=us --xkb-variant=intl --xkb-compose-file=/tmp/XCompose")
    wait_text(vm, "/ #")
    for k in ("e", "c", "h", "o", "spc", "apostrophe", "e", "ret"):
        vm.sendkey(k)
        time.sleep(0.05)
    wait_text(vm, "echo \u00e9")  # the compose file is read and the dead key works here
    vm.sendkey("apostrophe")
    time.sleep(0.5)
    # the login (the instance's only child) killed; the respawned one's terminal starts blank
    vm.sh("kill -KILL $(cat /proc/$(cat /tmp/kf1.pid)/task/*/children)")
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "echo \u00e9"), timeout=30,
                   what="the respawned login's prompt on a cleared screen")
    for k in ("e", "c", "h", "o", "spc", "x", "y", "ret"):
        vm.sendkey(k)
        time.sleep(0.05)
    hits = wait_text(vm, "xy", 2)
    if not any(col == 0 for col, _ in hits) or find_text(vm.screendump(), "\u00e9"):
        vm.fail("the next login's keys after a pending dead key: 'xy' at %s, e-acute on the screen: %s"
                % (hits, bool(find_text(vm.screendump(), "\u00e9"))))


def test_vt_switch(vm, switches, seatd=False):
    """Two instances on tty1 and tty2; Ctrl+Alt+F1/F2 switch the display and each screen comes back; the open
    fds of both instances are the same after every round trip. With seatd: through the seatd daemon instead of
    libseat's builtin backend."""
    verbose = " --verbose" if seatd else ""  # the chosen backend is an info message
    if seatd:
        start_seatd(vm)
    start(vm, 1, "--vt=1 --switchvt" + verbose)
    wait_text(vm, "/ #")
    vm.type_text("echo ONE-ONE\n")
    wait_text(vm, "ONE-ONE", 2)
    enabled = {1: input_fds(vm, 1)}
    start(vm, 2, "--vt=2 --switchvt" + verbose)
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "ONE-ONE"), timeout=30,
                   what="the second instance's screen")
    if seatd and "backend seatd" not in vm.sh("cat /tmp/kf1.log /tmp/kf2.log"):
        vm.fail("seatd was not chosen:\n" + vm.sh("head -5 /tmp/kf1.log"))
    vm.type_text("echo TWO-TWO\n")
    wait_text(vm, "TWO-TWO", 2)
    enabled[2] = input_fds(vm, 2)
    shown_fds = {2: fds(vm, 2)}
    disabled = {1: wait_hidden(vm, 1, "instance 2 started")}
    t0 = time.time()
    for i in range(switches):
        target = 1 if i % 2 == 0 else 2
        switch(vm, target, enabled, i)
        if target not in shown_fds:
            shown_fds[target] = fds(vm, target)
        if 3 - target not in disabled:
            disabled[3 - target] = wait_hidden(vm, 3 - target, "switch %d" % i)
        # The screen after every switch: it is restored by a full modeset (a screendump and a search of it,
        # 0.1-0.3 s a switch).
        mine, other = ("ONE-ONE", "TWO-TWO") if target == 1 else ("TWO-TWO", "ONE-ONE")
        vm.wait_screen(lambda im: len(find_text(im, mine)) >= 2 and not find_text(im, other),
                       timeout=20, what="VT %d's screen after switch %d" % (target, i))
    elapsed = time.time() - t0
    shown = 1 if switches % 2 else 2
    final = {}

    def fds_back():
        final.update({shown: fds(vm, shown), 3 - shown: fds(vm, 3 - shown)})
        return final[shown] == shown_fds[shown] and final[3 - shown] == disabled[3 - shown]

    # A leaked fd stays: waiting for the counts to come back only lets an fd still being closed close.
    try:
        vm.wait_until(fds_back, timeout=10, what="the open fd counts of the first visits")
    except VMError as e:
        vm.fail("open fds changed over %d switches: shown %s hidden %s, now %s (%s)"
                % (switches, shown_fds, disabled, final, str(e).splitlines()[0]))
    # Ctrl+Alt held across a switch, as people do: Ctrl+Alt down, F<other>, then (Ctrl+Alt still down, the
    # other instance opened the keyboard meanwhile) F<back>: the other instance must see Ctrl+Alt+F<back>.
    other = 3 - shown
    key(vm, "ctrl", True)
    key(vm, "alt", True)
    key(vm, "f%d" % other, True)
    key(vm, "f%d" % other, False)
    wait_shown(vm, other, enabled[other], "Ctrl+Alt+F%d, Ctrl+Alt held" % other)
    # The instance reads the kernel's key state when it handles F<back>, so Ctrl and Alt must still be down
    # then (a faster sequence is the open race of docs/seat.md): they are let go only once the switch is
    # done, however long the instance takes. F<back> itself goes down and up at a person's pace.
    key(vm, "f%d" % shown, True)
    time.sleep(0.3)
    key(vm, "f%d" % shown, False)
    try:
        vm.wait_until(lambda: active_vt(vm) == "tty%d" % shown, timeout=20, what="the switch back")
    except VMError:
        vm.fail("Ctrl+Alt held from F%d, then F%d: no switch back\n%s" % (
            other, shown, vm.sh("tail -n 30 /tmp/kf1.log; echo ====; tail -n 30 /tmp/kf2.log")))
    key(vm, "alt", False)
    key(vm, "ctrl", False)
    wait_shown(vm, shown, enabled[shown], "Ctrl+Alt held from F%d, then F%d" % (other, shown))
    # A quick switch there and back (chvt, as another program or a fast hand does): the other instance is
    # disabled while its enable handler is still opening the input devices (300-600 ms under TCG). Its next
    # enable must give it its keyboard back (before the fix of docs/seat.md it believed itself enabled and
    # did not resume its input: its VT shown, no keyboard).
    for k in range(3):
        vm.sh("chvt %d; sleep 0.%d; chvt %d" % (other, k + 1, shown))
        # Both instances done with the quick pair: the one shown has its keyboard (it takes the next
        # Ctrl+Alt+Fn), the other has closed its devices again.
        wait_shown(vm, shown, enabled[shown], "quick switch %d" % k)
        wait_hidden(vm, other, "quick switch %d" % k)
        switch(vm, other, enabled, "quick-%d" % k, presses=1)
        switch(vm, shown, enabled, "quick-%d-back" % k, presses=1)
    # The instance shown takes the keys.
    vm.type_text("echo AFTER\n")
    wait_text(vm, "AFTER", 2)
    clipboard_across_vts(vm, shown, enabled)
    print("    %d switches in %.1f s, fds shown %s hidden %s" % (switches, elapsed, shown_fds, disabled))
    print("    %d of %d switches needed the keys pressed again (docs/seat.md): %s"
          % (len(REPRESSED), switches, REPRESSED[:20]))
    if REPRESSED:
        vm.fail("%d switch(es) needed Ctrl+Alt+Fn pressed again: %s (the logs are printed above; docs/seat.md)"
                % (len(REPRESSED), REPRESSED[:20]))
    if DEBUG:
        # A SYN_DROPPED right after a keyboard opens collapsed a whole Ctrl+Alt+Fn (the fifth cause of
        # docs/seat.md); libinput logs it at info level, so the count is there with --debug only.
        print("    libinput SYN_DROPPED in the logs: %s" % vm.sh("cat /tmp/kf1.log /tmp/kf2.log | grep -c SYN_DROPPED",
                                                              check=False)[1].strip())


def test_no_switchvt(vm):
    """--no-switchvt (kiosks): Ctrl+Alt+F2 and F3 do nothing. The active VT stays tty1, the screen stays the
    same pixel for pixel, the instance does not ask libseat to switch (its "switching to VT" info message), and
    no byte reaches the application: the next command typed at the prompt runs with nothing before it on its
    line, and a cat reading the terminal in canonical mode gets exactly the line typed after the keys."""
    if vm.sh("cat /sys/class/tty/tty0/active").strip() != "tty1":
        vm.sh("chvt 1")
    start(vm, 1, "--vt=1 --no-switchvt --verbose")  # "switching to VT" is an info message
    wait_text(vm, "/ #")
    vm.type_text("echo ONE-ONE\n")
    wait_text(vm, "ONE-ONE", 2)
    # The frame to compare with: the prompt after the output drawn (the shell has nothing more to write), and
    # two screendumps in a row alike.
    wait_text(vm, "/ #", 2)
    prev = [None]

    def settled(img):
        same, prev[0] = img.data == prev[0], img.data
        return same
    before = vm.wait_screen(settled, timeout=20, what="the screen to settle after the prompt")
    # A negative check (nothing happens), so a fixed window: if the instance handled these keys only after it,
    # a switch or a stray byte would still show, in the active VT, the log and the command line checked once
    # AFTER (typed after these keys, so handled after them) is on the screen.
    for fn in ("f2", "f3", "f2"):
        vm.sendkey("ctrl-alt-" + fn)
        time.sleep(0.5)
    time.sleep(2)
    active = vm.sh("cat /sys/class/tty/tty0/active").strip()
    if active != "tty1":
        vm.fail("Ctrl+Alt+F2 with --no-switchvt: the active VT is %s, not tty1" % active)
    after = vm.screendump()
    bad, worst, box = after.diff(before, 0)
    if bad:
        after.save(OUT / "console-no-switchvt-after.png")
        before.save(OUT / "console-no-switchvt-before.png")
        vm.fail("Ctrl+Alt+F2 with --no-switchvt changed the screen: %d pixels in %s (saved in %s)"
                % (bad, box, OUT))
    # The next command: nothing stray between the prompt and it, and it runs.
    vm.type_text("echo AFTER\n")
    hits = wait_text(vm, "AFTER", 2)
    if not any(col == 0 for col, _ in hits):
        vm.fail("the output 'AFTER' is not at the start of a line: %s" % hits)
    if not find_text(vm.screendump(), "/ # echo AFTER"):
        vm.fail("the command line is not '/ # echo AFTER' (bytes reached the shell?)")
    log = vm.sh("cat /tmp/kf1.log")
    if "switching to VT" in log:
        vm.fail("Ctrl+Alt+F2 with --no-switchvt asked for a switch:\n" + log)
    if active_vt(vm) != "tty1":
        vm.fail("Ctrl+Alt+F2 with --no-switchvt: the active VT changed")
    # The bytes the application gets: Ctrl+Alt+F2 in the middle of a line read by cat (canonical mode, so any
    # escape sequence would be in the line it writes).
    vm.type_text("cat >/tmp/keys\n")
    # cat runs: the shell has put the terminal back in canonical mode before it started it.
    vm.wait_until(lambda: vm.sh("pidof cat", check=False)[0] == 0, timeout=20, what="cat to start")
    vm.type_text("A")
    for fn in ("f2", "f3"):
        vm.sendkey("ctrl-alt-" + fn)
        time.sleep(0.5)
    vm.type_text("B\n")
    vm.sendkey("ctrl-d")
    vm.wait_file("/tmp/keys", pattern="B")  # cat writes the line it reads, "AB\n", in one write
    got = vm.sh("od -An -c /tmp/keys")
    if got.split() != ["A", "B", "\\n"]:
        vm.fail("with --no-switchvt, Ctrl+Alt+F2 in a line gave the application other bytes than 'AB\\n':\n%s"
                % got)
    if vm.sh("cat /sys/class/tty/tty0/active").strip() != "tty1":
        vm.fail("the active VT changed")


def test_stop_waiting_for_vt(vm):
    """SIGTERM while the instance waits for its VT (--vt=2 --no-activate-vt, tty1 in front): it stops there, with
    status 0 as any stop does, without opening the display through a seat it does not hold (a "no usable
    display" warning) or starting anything after the signal."""
    if vm.sh("cat /sys/class/tty/tty0/active").strip() != "tty1":
        vm.sh("chvt 1")
    vm.sh("(kmscon-felis %s --vt=2 --no-activate-vt --login -- /bin/sh >/tmp/kf2.log 2>&1 & echo $! >/tmp/kf2.pid;"
          " wait $!; echo $? >/tmp/kf2.rc) &" % " ".join(FONT + DEBUG))
    deadline = time.time() + 30 * DEFAULT_TIMEOUT
    while "waiting for VT 2" not in vm.sh("cat /tmp/kf2.log", check=False)[1]:
        if time.time() > deadline:
            vm.fail("the instance does not say it waits for VT 2:\n" + vm.sh("cat /tmp/kf2.log", check=False)[1])
        time.sleep(0.2)
    time.sleep(1)
    vm.sh("kill -TERM $(cat /tmp/kf2.pid)")
    vm.wait_file("/tmp/kf2.rc", timeout=30)
    rc = vm.sh("cat /tmp/kf2.rc").strip()
    log = vm.sh("cat /tmp/kf2.log")
    if rc != "0":
        vm.fail("SIGTERM while waiting for the VT: exit status %s, not 0:\n%s" % (rc, log))
    for bad in ("no usable display", "warning", "error"):
        if bad in log:
            vm.fail("SIGTERM while waiting for the VT logged %r:\n%s" % (bad, log))
    if vm.sh("cat /sys/class/tty/tty0/active").strip() != "tty1":
        vm.fail("the active VT changed")


def notify_messages(out):
    """kf-notify-run's MSG lines: [(microseconds, payload with its newlines back)]."""
    msgs = []
    for line in out.splitlines():
        if line.startswith("MSG "):
            _, us, _, payload = (line.split(" ", 3) + [""])[:4]
            msgs.append((int(us), payload.replace("|", "\n")))
    return msgs


def test_activate_vt(vm):
    """The unit's way (--no-activate-vt, as getty): started on tty2 while tty1 is in front, the instance leaves
    the screen alone (tty1 stays active, its screen unchanged), and says READY=1 with STATUS=waiting for VT 2 to
    become active within a few seconds (under kf-notify-run, systemd's part), pinging the watchdog meanwhile:
    before, it sent nothing until its first frame, and the unit's TimeoutStartSec killed it every 31 s; with
    --no-switchvt, the only way not to take the screen, Ctrl+Alt+Fn were locked too. chvt 2 then shows its
    console, STATUS= turns to the mode and font, and Ctrl+Alt+F1 still switches back. Without the option (the
    default) an instance started on tty3 brings tty3 to the front."""
    if active_vt(vm) != "tty1":
        vm.sh("chvt 1")
    start(vm, 1, "--vt=1")
    wait_text(vm, "/ #")
    vm.type_text("echo ONE-ONE\n")
    wait_text(vm, "ONE-ONE", 2)
    vm.sh("(kf-notify-run -t 60 -w 2000000 -- kmscon-felis %s --vt=2 --no-activate-vt --login -- /bin/sh "
          ">/tmp/notify.out 2>/tmp/kf2.log &)" % " ".join(FONT + DEBUG))
    try:
        out = vm.wait_file("/tmp/notify.out", timeout=10, pattern="READY=1|EXIT|TIMEOUT")
    except VMError as e:
        vm.fail("%s\nkf-notify-run:\n%s\nlog:\n%s" % (str(e).splitlines()[0],
                vm.sh("cat /tmp/notify.out", check=False)[1], vm.sh("tail -20 /tmp/kf2.log", check=False)[1]))
    ready = [m for m in notify_messages(out) if "READY=1" in m[1]]
    if not ready or "STATUS=waiting for VT 2 to become active" not in ready[0][1]:
        vm.fail("no READY=1 with STATUS=waiting for VT 2 to become active:\n%s\nlog:\n%s"
                % (out, vm.sh("tail -20 /tmp/kf2.log", check=False)[1]))
    print("    READY=1 %.0f ms after exec: %r" % (ready[0][0] / 1000, ready[0][1]))
    time.sleep(2.5)
    if active_vt(vm) != "tty1":
        vm.fail("--no-activate-vt: the active VT became %s, not tty1" % active_vt(vm))
    if len(find_text(vm.screendump(), "ONE-ONE")) < 2:
        vm.fail("--no-activate-vt: tty1's screen is gone")
    out = vm.sh("cat /tmp/notify.out")
    pings = [m for m in notify_messages(out) if "WATCHDOG=1" in m[1] and m[0] > ready[0][0]]
    if len(pings) < 2:
        vm.fail("%d WATCHDOG=1 pings in 2.5 s while waiting (WatchdogSec=2):\n%s" % (len(pings), out))
    vm.sh("chvt 2")
    vm.wait_screen(lambda im: find_text(im, "/ #") and not find_text(im, "ONE-ONE"), timeout=30,
                   what="tty2's console after chvt 2")
    vm.type_text("echo TWO-TWO\n")
    wait_text(vm, "TWO-TWO", 2)
    out = vm.wait_file("/tmp/notify.out", timeout=10, pattern="STATUS=[0-9]+x[0-9]+.*font")
    after = [m[1] for m in notify_messages(out) if m[0] > ready[0][0] and "WATCHDOG" not in m[1]]
    if any("READY=1" in m for m in after):
        vm.fail("READY=1 sent twice:\n%s" % out)
    # The keys still switch (--no-switchvt would have locked them).
    vm.sendkey("ctrl-alt-f1")
    vm.wait_until(lambda: active_vt(vm) == "tty1", timeout=10, what="Ctrl+Alt+F1 from tty2 to tty1")
    start(vm, 3, "--vt=3")
    vm.wait_until(lambda: active_vt(vm) == "tty3", timeout=30, what="the default (--activate-vt) bringing tty3 "
                  "to the front")


def test_seat_mismatch(vm):
    """--seat names a seat libseat did not open (libseat opens the seat of the session it runs in: seat0 for a
    service, with its builtin backend or seatd; it has no way to ask for another): the instance says which
    seat it asked for and which it got, and exits with status 78 (EX_CONFIG, a bad configuration, as every
    other; it was 1 until session 56) before anything starts. It showed no error,
    looked for --seat's cards while libinput read seat0's keyboards, started the login although no display
    of seat1 existed, and so typed seat0's keys into a shell nobody could see."""
    if vm.sh("cat /sys/class/tty/tty0/active").strip() != "tty1":
        vm.sh("chvt 1")
    vm.sh("(kmscon-felis %s --vt=1 --seat=seat1 --login -- /bin/sh -c 'echo started >/tmp/kf1.child; sleep 600'"
          " >/tmp/kf1.log 2>&1 & echo $! >/tmp/kf1.pid; wait $!; echo $? >/tmp/kf1.rc) &" % " ".join(FONT + DEBUG))
    try:
        vm.wait_file("/tmp/kf1.rc", timeout=30)
    except VMError:
        log = vm.sh("cat /tmp/kf1.log", check=False)[1]
        vm.sh("kill -TERM $(cat /tmp/kf1.pid)", check=False)
        vm.fail("--seat=seat1 with libseat on seat0 did not exit within 30 s:\n" + log)
    rc = vm.sh("cat /tmp/kf1.rc").strip()
    log = vm.sh("cat /tmp/kf1.log")
    if rc != "78":
        vm.fail("--seat=seat1 with libseat on seat0: exit status %s, not 78:\n%s" % (rc, log))
    if not re.search(r"error: .*seat1.*seat0", log):
        vm.fail("--seat=seat1 with libseat on seat0: no error naming both seats:\n%s" % log)
    if vm.sh("cat /tmp/kf1.child", check=False)[0] == 0:
        vm.fail("--seat=seat1 with libseat on seat0: the login was started:\n%s" % log)


def clipboard_across_vts(vm, shown, enabled):
    """The clipboard is shared by the instances: text drag-selected with the tablet on tty1's instance is pasted
    with Shift+Insert by tty2's instance on its command line."""
    if shown != 1:
        switch(vm, 1, enabled, "clipboard-1", presses=1)
    echo_and_select(vm, "clip9876")
    time.sleep(0.2)
    switch(vm, 2, enabled, "clipboard-2", presses=1)
    vm.type_text("echo Y")
    vm.sendkey("shift-insert")
    time.sleep(0.3)
    vm.type_text("\n")
    try:
        wait_text(vm, "Yclip9876", 2)
    except VMError as e:
        raise VMError("%s\n  the end of tty2's instance's log:\n%s" % (e, vm.sh("tail -n 20 /tmp/kf2.log")))


def test_mouse(vm):
    """Drag-select a word with the mouse (copy on select), then middle-click pastes it on the command line."""
    start(vm, 1, "--vt=1 --switchvt")
    wait_text(vm, "/ #")
    echo_and_select(vm, "abc123")
    vm.type_text("echo X")
    tablet(vm, 40, 20)
    button(vm, "middle", True)
    button(vm, "middle", False)
    time.sleep(0.3)
    vm.type_text("\n")
    try:
        wait_text(vm, "Xabc123", 2)
    except VMError as e:
        # A lost key shows as a mangled command ("cho Xabc123: not found"); with --debug the instance logs every
        # key it got, with its evdev time, which tells whether the key reached it.
        raise VMError("%s\n  the end of the instance's log:\n%s" % (e, vm.sh("tail -n 40 /tmp/kf1.log")))


def test_touchpad(vm):
    """A multi-touch clickpad made with uinput in the guest (kf-touchpad: QEMU has no touchpad device),
    hot-plugged while the console runs: a one-finger tap is a left click and a two-finger drag scrolls, seen as
    the SGR mouse reports (1000 + 1006) the terminal sends to the application, which the PTY echoes."""
    start(vm, 1, "--vt=1 --switchvt --verbose")  # "device added" is an info message
    wait_text(vm, "/ #")
    vm.type_text(mouse_on_marker())
    wait_text(vm, "MOUSE-ON")
    # The clickpad acts once the instance's libinput has taken it (its log says so), not after a fixed time.
    vm.sh("rm -f /tmp/tp-go; kf-touchpad --go /tmp/tp-go tap scroll-down 20 scroll-up 20 >/tmp/tp.out 2>&1 &")
    try:
        vm.wait_file("/tmp/kf1.log", pattern="device is a touchpad", timeout=60)
    except VMError:
        vm.fail("libinput did not take the device as a touchpad:\n%s" % vm.sh("tail -20 /tmp/kf1.log; cat /tmp/tp.out"))
    vm.sh("touch /tmp/tp-go")
    out = vm.wait_file("/tmp/tp.out", pattern="ok|kf-touchpad", timeout=120)
    if "ok" not in out:
        vm.fail("kf-touchpad: %s" % out)
    wait_text(vm, "[<0;")    # tap: button 1 press (and release, "m")
    wait_text(vm, "[<65;")   # fingers moving down: wheel down
    wait_text(vm, "[<64;")   # fingers moving up: wheel up


def test_switch_storm(vm, seatd=False):
    """What can be in progress at a switch: a key held down (its repeat) when the VT leaves, 20 switches in
    2 s, and switches during an instance's start-up. Afterwards each instance shows its own screen again, takes
    keys, has the fds it had, and no key repeats on its own. With seatd: through the seatd daemon, which drops
    DRM master from its own process before the instance hears of the switch."""
    if seatd:
        start_seatd(vm)
    enabled = start_pair(vm)
    vm.type_text("echo TWO-TWO\n")
    wait_text(vm, "TWO-TWO", 2)
    # Instance 2 paints all the time from now on: a commit of it can come at any moment of a switch.
    vm.type_text("while :; do echo busy; sleep 0.02; done\n")
    switch(vm, 1, enabled, "to-1")
    base = {1: fds(vm, 1), 2: wait_hidden(vm, 2, "to-1")}
    # A held key: it repeats, then the VT leaves (chvt, so the key is still down), then it is let go on the
    # other VT. Back on VT 1 the line must not grow any more.
    vm.type_text("cat >/dev/null\n")
    key(vm, "x", True)
    time.sleep(1.5)
    vm.sh("chvt 2")
    key(vm, "x", False)
    wait_hidden(vm, 1, "held key")
    vm.sh("chvt 1")
    wait_shown(vm, 1, enabled[1], "back from the held key")
    time.sleep(1)
    a = vm.screendump()
    time.sleep(2)
    b = vm.screendump()
    if a.data != b.data:
        vm.fail("a key held across a switch away goes on repeating after the switch back")
    vm.sendkey("ctrl-c")
    # 20 switches in about 2 s, ending on VT 1.
    vm.sh("i=0; while [ $i -lt 10 ]; do chvt 2; sleep 0.1; chvt 1; sleep 0.1; i=$((i+1)); done")
    wait_shown(vm, 1, enabled[1], "after 20 quick switches")
    wait_hidden(vm, 2, "after 20 quick switches")
    vm.type_text("echo STORM-ONE\n")
    vm.wait_screen(lambda im: len(find_text(im, "STORM-ONE")) >= 2 and not find_text(im, "TWO-TWO"),
                   timeout=20, what="VT 1 after the quick switches")
    now = {1: fds(vm, 1), 2: fds(vm, 2)}
    if now != base:
        vm.fail("open fds changed over 20 quick switches: %s, now %s" % (base, now))
    # Switches while instance 3 starts: VT 3 comes to the front (--activate-vt), the switches go on.
    start(vm, 3, "--vt=3 --switchvt")
    rc, out = vm.sh("i=0; while [ $i -lt 15 ]; do timeout 10 chvt 1 || exit 1; sleep 0.1; timeout 10 chvt 3 || "
                    "exit 3; sleep 0.1; i=$((i+1)); done", check=False, timeout=300)
    if rc:
        vm.fail("a switch to VT %d during instance 3's start-up never completed (chvt waited 10 s; active %s):\n%s"
                % (rc, active_vt(vm), vm.sh("tail -n 25 /tmp/kf1.log; echo ====; tail -n 25 /tmp/kf3.log; echo ===="
                                            "; tail -n 25 /tmp/seatd.log", check=False)[1]))
    vm.wait_until(lambda: active_vt(vm) == "tty3", timeout=10, what="VT 3 in front")
    vm.wait_until(lambda: input_fds(vm, 3) == enabled[1] and input_fds(vm, 1) == 0, timeout=30,
                  what="instance 3 with its input devices, instance 1 without")
    vm.type_text("echo THREE-THREE\n")
    vm.wait_screen(lambda im: len(find_text(im, "THREE-THREE")) >= 2 and not find_text(im, "STORM-ONE"),
                   timeout=30, what="instance 3's screen after switches during its start")
    # What a switch does in its windows is no failure, so no warning or error (the keymap's Compose warning
    # aside): a commit between the seat taking DRM master away and the disable handler (before: "the kernel
    # rejected our modeset in a test commit: Permission denied", an error, or "flip failed: Permission
    # denied"), and the seat refusing the input devices the enable handler reopens once it has disabled us
    # (before: libseat's "client is not active" errors and "cannot open /dev/input/eventN through the seat:
    # Operation not permitted" warnings).
    for n in (1, 2, 3):
        log = vm.sh("cat /tmp/kf%d.log" % n)
        for line in kftest.log_faults(log, warnings_ok=("input: warning: [keyboard.c",)):
            vm.fail("instance %d: %s\n%s" % (n, line, log[-3000:]))


def main():
    args = parse_args(switches=True)
    tests = [
        ("console-typing", lambda: test_typing(boot("console-typing"))),
        ("console-layout-de", lambda: test_layout_de(boot("console-de"))),
        ("console-dead-key-respawn", lambda: test_dead_key_respawn(boot("console-dead-key"))),
        ("console-vt-switch", lambda: test_vt_switch(boot("console-vt", extra_args=TABLET), args.switches)),
        ("console-mouse", lambda: test_mouse(boot("console-mouse", extra_args=TABLET))),
        ("console-no-switchvt", lambda: test_no_switchvt(boot("console-no-switchvt"))),
        ("console-stop-waiting-for-vt", lambda: test_stop_waiting_for_vt(boot("console-stop-wait"))),
        ("console-activate-vt", lambda: test_activate_vt(boot("console-activate-vt", guest=NOTIFY_GUEST()))),
        ("console-seat-mismatch", lambda: test_seat_mismatch(boot("console-seat-mismatch"))),
        ("console-switch-storm", lambda: test_switch_storm(boot("console-storm"))),
    ]
    # The same through the seatd daemon: only on request (--only console-vt-switch-seatd), it doubles the time.
    if "console-vt-switch-seatd" in args.only:
        tests.append(("console-vt-switch-seatd",
                      lambda: test_vt_switch(boot("console-vt-seatd", extra_args=TABLET), args.switches,
                                             seatd=True)))
    if "console-switch-storm-seatd" in args.only:
        tests.append(("console-switch-storm-seatd",
                      lambda: test_switch_storm(boot("console-storm-seatd"), seatd=True)))
    tests.append(("console-touchpad", lambda: test_touchpad(boot("console-touchpad"))))
    return run_tests(tests, args.only)


if __name__ == "__main__":
    sys.exit(main())
