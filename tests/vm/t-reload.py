#!/usr/bin/env python3
"""SIGHUP (systemctl reload) on a real display: one virtio-gpu boot (1024x768), kmscon-felis started with
--configdir=/tmp/kfconf, the font and palette only in that file (the command line would win over it). The program
prints coloured text, writes its pid, and on SIGWINCH writes `stty size` to /tmp/size. Every expected picture is
kmscon-felis-replay --png of the same bytes, with the same font, size and palette, run in the same guest.
  reload-palette  palette=nord in the file, SIGHUP: the screen equals the replay with --palette nord (the grid
                  region; the margin uniform; colour 2, which the program set by OSC 4, stays its own), the log says "applied palette", the program is the same process
  reload-font     font-size=16 -> 24, SIGHUP: the program gets SIGWINCH and its stty size is the cell count of
                  24 px cells on 1024x768, and the screen equals the replay at 24 px and that grid (the margin
                  the smaller grid leaves uniform: nothing of the old cells left); systemd is told RELOADING=1,
                  then STATUS= naming the 24 px font (it kept the 16 px one), then READY=1
  reload-bad      a line that is no key=value, SIGHUP: the log names the file and line and "kept the old
                  configuration", the screen stays as it was (identical screendump), no SIGWINCH, the program
                  alive
  reload-bad-font font-engine=psf with a font-file that does not exist (and the default palette and 16 px):
                  the log names the file and "kept the old configuration"; nothing of it applied (the screen
                  the same picture, still nord at 24 px), no SIGWINCH, the program alive
  reload-zoomed   zoomed in once (Ctrl+=, x2), font-size=16 and SIGHUP: the font is 16 px at the zoom in force
                  (32 px cells: the replay at 32 px, the program's stty size that grid); Ctrl+0 then goes back to
                  the reloaded 16 px, not to the 24 px of the start
  reload-too-big  zoomed in once (x2 of 16 px), font-size=400 and SIGHUP: a 400 px cell at x2 is higher than the
                  screen; refused like a font that does not open ("kept the old configuration", the screen the
                  same picture, no SIGWINCH); it was taken, the grid keeping its size under cells it did not
                  have. Ctrl+0 then goes back to 16 px
  reload-dpms     dpms-timeout=0 -> 2, SIGHUP: the display blanks (the log says so); dpms-timeout=0 again and a
                  key: the screen is back (the replay) and does not blank again
  reload-away     tty1 in front, font-size=24 and SIGHUP, then back to tty2: the 24 px grid (stty size) and
                  the replay at 24 px
  reload-storm    three times 200 SIGHUPs as fast as the guest's shell sends them (1.5-10 s; they coalesce into
                  7-13 reloads), the file alternating 16 and 24 px, while the program writes 3 MB (after a
                  first 3 MB filled the scrollback): both processes alive, no error in the log, the last font
                  (24 px) in force (stty size). A leak grows at every storm: the heap's bytes in use (glibc
                  mallinfo2, in the frame-counter line) grew by at most 16 KiB over the second or the third
                  storm (+1-10 kB here; a deliberate leak of 2 KiB a reload made +29/+23 kB and failed), and
                  the anonymous RSS (RssAnon, not the display buffers' shared pages) by at most 1 MiB over one
                  of them (a one-time step of 3.2 MB, the heap unchanged, came in some runs). Each is read once
                  three readings 1 s apart agree. Transparent huge pages are off in this guest: khugepaged
                  made the RSS step up 4-10 MB at a random moment
  reload-waiting  the program started again with --no-activate-vt while tty1 is in front: it waits for tty2 (the
                  seat is not ours yet); dpms-timeout=0 -> 2 and SIGHUP while it waits, then tty2 in front: the
                  display blanks. The display was set up with the dpms-timeout read before the wait, so the
                  reload said "applied dpms-timeout" and the display never blanked
"""
# timeout: 300
import sys
import time
from pathlib import Path

import kftest
import vmlib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))
import servicevm  # noqa: E402

W, H = 1024, 768
FONT = "--font-name='DejaVu Sans Mono' --font-size=%d"
CONF = "/tmp/kfconf/kmscon-felis.conf"
# Colour 2 set by the program (OSC 4): it stays through a palette reload (the replay sets it after its palette)
STREAM = ("\033[?25l\033]4;2;rgb:12/34/56\033\\\033[2J\033[H"
          "reload on SIGHUP \033[1mbold\033[0m \033[7mreverse\033[0m\r\n"
          + "".join("\033[%dm %d \033[0m" % (c, c) for c in range(30, 38)) + "\r\n"
          + "".join("\033[%dm %d \033[0m" % (c, c) for c in range(40, 48)) + "\r\n"
          + "".join("\033[38;5;%dm%02d\033[0m" % (c, c) for c in range(8, 16)) + "\r\n"
          "default colours on the last line").encode()
# The pid first (the test waits for it), then the text; SIGWINCH interrupts `wait` and runs the trap.
PROG = ("trap 'stty size >/tmp/size.tmp; mv /tmp/size.tmp /tmp/size' WINCH\n"
        "echo $$ >/tmp/child.pid\n"
        "cat /tmp/stream.bin\n"
        # reload-storm: output to parse while the reloads come (1 MiB as hex, about 3 MB)
        "while :; do if [ -e /tmp/flood ]; then rm /tmp/flood; head -c 1048576 /dev/urandom | od -An -tx1; "
        ": >/tmp/flood.done; fi; sleep 1 & wait $!; done\n")


def conf(size, palette="default", extra="", dpms=0):
    # dpms-timeout here, not on the command line (which would win over the file)
    return "font-name=DejaVu Sans Mono\nfont-size=%d\npalette=%s\ndpms-timeout=%d\n%s" % (size, palette, dpms,
                                                                                          extra)


def replay(vm, size, grid, palette, name):
    vm.sh("kmscon-felis-replay --size %dx%d --format none --png /tmp/%s.png %s --palette %s /tmp/stream.bin" % (
        grid[0], grid[1], name, FONT % size, palette), timeout=300)
    path = vmlib.OUT / ("reload-%s.png" % name)
    path.write_bytes(vm.get_file("/tmp/%s.png" % name))
    return vmlib.Image.load(path)


def grid_of(vm, size):
    """The cells of a SIZE px DejaVu Sans Mono that fit W x H (from a replay of 10x2 cells)."""
    vm.sh("kmscon-felis-replay --size 10x2 --format none --png /tmp/p%d.png %s - </dev/null" % (size, FONT % size),
          timeout=120)
    path = vmlib.OUT / ("reload-probe%d.png" % size)
    path.write_bytes(vm.get_file("/tmp/p%d.png" % size))
    img = vmlib.Image.load(path)
    return W // (img.width // 10), H // (img.height // 2)


def expect_screen(vm, exp, what, timeout=60):
    """Waits until the screen's top-left equals EXP and the rest of the W x H screen is one colour (the margin
    has the palette's background)."""
    return kftest.expect_grid(vm, exp, (W, H), what, margin=None, timeout=timeout,
                              prefix=vmlib.OUT / ("reload-%s" % what.split()[0]))


def pids(vm):
    return vm.sh("cat /tmp/kf.pid /tmp/child.pid").split()


def alive(vm, want):
    got = pids(vm)
    kftest.check(got == want, "the pids changed: %r -> %r" % (want, got), vm)
    out = vm.sh("kill -0 %s && echo alive" % " ".join(got), check=False)[1].strip()
    kftest.check(out == "alive", "kmscon-felis or its program exited (pids %s)" % " ".join(got), vm)


# The log's error lines, but libinput's lag message (kftest.log_faults says why).
LOG_ERRORS = "grep -v 'event processing lagging behind' /tmp/kf.log | grep -c error"


def hup(vm, text):
    """SIGHUP, then waits for the log's line count to grow by a line holding TEXT."""
    n = len(vm.sh("cat /tmp/kf.log").splitlines())
    vm.sh("kill -HUP $(cat /tmp/kf.pid)")

    def found():
        new = vm.sh("cat /tmp/kf.log").splitlines()[n:]
        return any(text in x for x in new) and "\n".join(new)
    # a hang guard (60 s times KF_VM_TIMEOUT_SCALE): a reload takes well under a second here
    return vm.wait_until(found, 60, "a log line %r after SIGHUP" % text, interval=0.5)


UDEV = ("/lib/systemd/systemd-udevd --daemon >/tmp/udevd.log 2>&1; "
        "udevadm trigger --action=add >/dev/null 2>&1; udevadm settle --timeout=20")


def wait_size(vm, grid, what):
    """Waits for the program's stty size (written on SIGWINCH) to be GRID (cols, rows)."""
    want, got = "%d %d" % (grid[1], grid[0]), ""
    # a hang guard (60 s times KF_VM_TIMEOUT_SCALE, not vm.wait_until: a wrong size is reported, not a timeout)
    deadline = time.time() + 60 * vmlib.DEFAULT_TIMEOUT
    while got != want and time.time() < deadline:
        time.sleep(0.5)
        got = vm.sh("cat /tmp/size 2>/dev/null", check=False)[1].strip()
    print("  the program's stty size %s: %r (expected %r)" % (what, got, want))
    kftest.check(got == want, "stty size %s: %r, expected %r" % (what, got, want), vm)


def start(vm, switchvt):
    """Starts kmscon-felis on tty2 under kf-notify-run (systemd's part: what STATUS= says after a reload); kf.pid is
    kmscon-felis itself (the shell execs it), not kf-notify-run."""
    vm.sh("kf-notify-run -t 60 -- /bin/sh -c 'echo $$ >/tmp/kf.pid; exec kmscon-felis --backend=drm --vt=2 "
          "%s --no-mouse --verbose --configdir=/tmp/kfconf --login -- /bin/sh /tmp/prog.sh' "
          ">/tmp/notify.log 2>/tmp/kf.log </dev/null &" % switchvt)


def main():
    if not (kftest.binary_available() and kftest.binary_available("kmscon-felis-replay")):
        kftest.skip("kmscon-felis or kmscon-felis-replay not built")
    # kf-notify-run plays systemd's part of Type=notify: what STATUS= says after a reload
    helper = servicevm.helper_path(vmlib.default_build_dir())
    vm = kftest.boot(gpu="virtio", name="reload", files={"/tmp/stream.bin": STREAM, "/tmp/prog.sh": PROG,
                                                         CONF: conf(16), "/usr/bin/kf-notify-run": helper})
    names = ["reload-palette", "reload-font", "reload-bad", "reload-bad-font", "reload-zoomed", "reload-too-big",
             "reload-dpms", "reload-away", "reload-storm", "reload-waiting"]

    def run():
        g16, g24 = grid_of(vm, 16), grid_of(vm, 24)
        print("reload: %dx%d cells at 16 px, %dx%d at 24 px" % (g16 + g24))
        first = replay(vm, 16, g16, "default", "first")
        nord16 = replay(vm, 16, g16, "nord", "nord16")
        nord24 = replay(vm, 24, g24, "nord", "nord24")
        g32, g48 = grid_of(vm, 32), grid_of(vm, 48)
        nord32 = replay(vm, 32, g32, "nord", "nord32")
        # udev for the keyboard (Ctrl+= and Ctrl+0 of reload-zoomed)
        vm.sh(UDEV, timeout=60)
        kftest.check(first.data != nord16.data, "the palettes give the same picture: the test would prove nothing")
        own = bytes((0x12, 0x34, 0x56))
        kftest.check(all(any(img.data[i:i + 3] == own for i in range(0, len(img.data), 3)) for img in (first, nord16)),
                     "the replay does not show colour 2 as the program set it (OSC 4)")
        # reload-storm measures the RSS: with transparent huge pages ("always" in this kernel) khugepaged, every
        # 10 s, collapses the heap's 2 MB ranges that have any page resident into whole huge pages, and the RSS
        # stepped up by 4-10 MB at a random moment after a storm, the heap's bytes in use unchanged
        vm.sh("t=/sys/kernel/mm/transparent_hugepage/enabled; if [ -e $t ]; then echo never >$t; fi")
        start(vm, "--switchvt")
        vm.wait_file("/tmp/child.pid", timeout=60)
        expect_screen(vm, first, "the first screen (default palette, 16 px)")
        want = pids(vm)

        def palette():
            vm.sh("printf '%s' >%s" % (conf(16, "nord"), CONF))
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            kftest.check("applied palette" in log, "the reload did not apply the palette", vm)
            expect_screen(vm, nord16, "the screen in the nord palette")
            alive(vm, want)

        def font():
            vm.sh("rm -f /tmp/size; printf '%s' >%s" % (conf(24, "nord"), CONF))
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            wait_size(vm, g24, "after the reload to 24 px")
            expect_screen(vm, nord24, "the screen at 24 px")
            msgs = [x for x in vm.sh("cat /tmp/notify.log").splitlines() if x.startswith("MSG ")]
            last = [x for x in msgs if "RELOADING=1" in x][-1:]
            after = msgs[msgs.index(last[0]):] if last else []
            print("  systemd was told: " + "\n    ".join(after))
            kftest.check(len(after) >= 3 and "STATUS=" in after[1] and "DejaVu Sans Mono 24px" in after[1]
                         and after[-1].endswith(" READY=1|"),
                         "not RELOADING=1, STATUS= with the 24 px font, READY=1: %r" % after, vm)
            alive(vm, want)

        def refused(text, extra, what):
            """A reload of a file with EXTRA (and 16 px, the default palette) refused: the log has TEXT and WHAT,
            the screen is the same picture, no SIGWINCH, the same processes."""
            before = vm.screendump()
            vm.sh("rm -f /tmp/size; printf '%s' >%s" % (conf(16, "default", extra), CONF))
            log = hup(vm, "kept the old configuration")
            print("  " + log.replace("\n", "\n  "))
            kftest.check(text in log, "the log does not name %s" % what, vm)
            time.sleep(2)
            after = vm.screendump()
            kftest.check(after.data == before.data, "the screen changed after a refused reload", vm)
            kftest.check(not vm.sh("ls /tmp/size 2>/dev/null", check=False)[1].strip(),
                         "the program got SIGWINCH after a refused reload", vm)
            alive(vm, want)

        def bad():
            refused("%s:5" % CONF, "this line has no value\n", "%s:5" % CONF)

        def bad_font():
            refused("/tmp/nofont.psf", "font-engine=psf\nfont-file=/tmp/nofont.psf\n", "the font file")

        def zoomed():
            vm.wait_file("/tmp/kf.log", pattern="[1-9] keyboards", timeout=30)
            vm.sendkey("ctrl-equal")
            wait_size(vm, g48, "after Ctrl+= (x2 of 24 px)")
            vm.sh("rm -f /tmp/size; printf '%s' >%s" % (conf(16, "nord"), CONF))
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            wait_size(vm, g32, "after the reload to 16 px at zoom x2")
            expect_screen(vm, nord32, "the screen at 16 px zoomed x2")
            vm.sh("rm -f /tmp/size")
            vm.sendkey("ctrl-0")
            wait_size(vm, g16, "after Ctrl+0 (the reloaded 16 px)")
            expect_screen(vm, nord16, "the screen at 16 px after Ctrl+0")
            alive(vm, want)

        def too_big():
            vm.sh("rm -f /tmp/size")
            vm.sendkey("ctrl-equal")
            wait_size(vm, g32, "after Ctrl+= (x2 of 16 px)")
            expect_screen(vm, nord32, "the screen at 16 px zoomed x2 again")
            refused("larger than the screen", "font-size=400\n", "the font too big for the screen")
            vm.sendkey("ctrl-0")
            wait_size(vm, g16, "after Ctrl+0 (16 px)")
            expect_screen(vm, nord16, "the screen at 16 px after Ctrl+0")

        def dpms():
            vm.sh("printf '%s' >%s" % (conf(16, "nord", dpms=2), CONF))
            t0 = time.time()
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            kftest.check("applied dpms-timeout" in log, "the reload did not apply dpms-timeout", vm)
            vm.wait_file("/tmp/kf.log", pattern="display blanked", timeout=20)
            print("  blanked %.1f s after the SIGHUP" % (time.time() - t0))
            vm.sh("printf '%s' >%s" % (conf(16, "nord"), CONF))
            hup(vm, "configuration reloaded")
            vm.sendkey("shift")
            expect_screen(vm, nord16, "the screen back after a key (and dpms-timeout=0 again)")
            time.sleep(4)
            kftest.check(vm.sh("grep -c 'display blanked' /tmp/kf.log").strip() == "1",
                         "blanked again after dpms-timeout=0 was reloaded", vm)
            alive(vm, want)

        def away():
            vm.sh("chvt 1")
            vm.sh("rm -f /tmp/size; printf '%s' >%s" % (conf(24, "nord"), CONF))
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            vm.sh("chvt 2")
            wait_size(vm, g24, "after the reload to 24 px on another VT")
            expect_screen(vm, nord24, "the screen at 24 px back on tty2")
            alive(vm, want)

        def storm():
            pid = pids(vm)[0]
            errors = vm.sh(LOG_ERRORS, check=False)[1].strip()
            # The file written whole (rename), as an editor does: one read half written is another case (a short
            # read is refused).
            script = ("i=0; while [ $i -lt 200 ]; do printf 'font-name=DejaVu Sans Mono\\nfont-size=%%d\\n"
                      "palette=nord\\n' $((16 + i %% 2 * 8)) >%s.new; mv %s.new %s; kill -HUP %s; i=$((i + 1)); done"
                      % (CONF, CONF, CONF, pid))

            def flood(storm):
                # the program's loop looks for /tmp/flood every second
                vm.sh("rm -f /tmp/size /tmp/flood.done; : >/tmp/flood; sleep 1.5")
                if storm:
                    t0 = time.time()
                    vm.sh(script, timeout=120)
                    print("  200 SIGHUPs sent in %.1f s" % (time.time() - t0))
                vm.wait_file("/tmp/flood.done", timeout=240)

            def settled(what):
                """The heap's bytes in use (the frame-counter line) and the anonymous RSS, once three readings 1 s
                apart agree: the free pages of the reflows are given back 1 s after the last resize (session.c
                on_trim), later on a slow guest, and before that the RSS depends on where the live lines fell.
                Not VmRSS: it also counts the display buffers' shared pages (RssShmem), which are not the
                program's heap."""
                seen = []

                def still():
                    rss = dict(ln.split()[:2] for ln in vm.sh("grep -E '^Rss(Anon|Shmem):' /proc/%s/status"
                                                               % pid).splitlines())
                    seen.append((kftest.frame_counters(vm)["heap_bytes"], int(rss["RssAnon:"]),
                                 int(rss["RssShmem:"])))
                    return len(seen) >= 3 and seen[-1][:2] == seen[-2][:2] == seen[-3][:2] and seen[-1]
                got = vm.wait_until(still, 60, "the heap and the RSS to hold still %s" % what, interval=1.0)
                print("  %s: heap %d bytes in use, RssAnon %d kB (RssShmem %d kB; %d readings)" % (
                    (what,) + got + (len(seen),)))
                return got[:2]

            def reloads():
                return int(vm.sh("grep -c 'configuration reloaded' /tmp/kf.log").strip())

            # The first round fills the scrollback (10000 lines) and the second font's caches: what it takes
            # stays (flat over 4 rounds, 22.6 MB, by hand); the second round must take nothing more.
            flood(False)
            flood(True)
            # settled as after the second storm: the storm's last reloads done (one more SIGHUP's log line)
            hup(vm, "configuration reloaded")
            wait_size(vm, g24, "after the first storm (24 px last)")
            heap, rss = settled("after the first storm")
            grew = []
            for k in ("second", "third"):
                n0 = reloads()
                flood(True)
                log = hup(vm, "configuration reloaded")
                print("  %d reloads in the %s storm; the last: %s" % (reloads() - n0, k, log.splitlines()[-1]))
                wait_size(vm, g24, "after the %s storm (24 px last)" % k)
                heap1, rss1 = settled("after the %s storm" % k)
                grew.append((heap1 - heap, rss1 - rss))
                heap, rss = heap1, rss1
                print("  over the %s storm: heap %+d bytes, RssAnon %+d kB" % ((k,) + grew[-1]))
            # A leak grows at every storm; a one-time step does not: the anonymous RSS kept 3.2 MB more after
            # the first storm than after the second in 1 run of 6 (and VmRSS in 2 of 6), the heap in use
            # unchanged, so a bound on one storm's RSS growth fails when that step comes later. The heap's bytes
            # in use are exact: +1-10 kB a storm here, where a deliberate leak of 2 KiB a reload made +23.9 kB
            # (10 reloads). The anonymous RSS also counts what is mapped outside malloc (the scrollback's
            # chunks): a leaked reflow or font is megabytes a storm.
            least = min(g[0] for g in grew), min(g[1] for g in grew)
            kftest.check(least[0] <= 16384, "the heap in use grew by %d and %d bytes over the second and third "
                         "storms" % (grew[0][0], grew[1][0]), vm)
            kftest.check(least[1] <= 1024, "the anonymous RSS grew by %d and %d kB over the second and third "
                         "storms" % (grew[0][1], grew[1][1]), vm)
            now = vm.sh(LOG_ERRORS, check=False)[1].strip()
            kftest.check(now == errors, "errors in the log during the storm: %s" % vm.sh(
                "grep error /tmp/kf.log | tail -5", check=False)[1], vm)
            alive(vm, want)

        def waiting():
            vm.sh("kill $(cat /tmp/kf.pid); while kill -0 $(cat /tmp/kf.pid) 2>/dev/null; do sleep 0.2; done")
            vm.sh("chvt 1; rm -f /tmp/kf.pid; printf '%s' >%s" % (conf(16, "nord"), CONF))
            start(vm, "--no-activate-vt")
            vm.wait_file("/tmp/kf.log", pattern="waiting for VT 2 to become active", timeout=30)
            vm.sh("printf '%s' >%s" % (conf(16, "nord", dpms=2), CONF))
            log = hup(vm, "configuration reloaded")
            print("  " + log.replace("\n", "\n  "))
            kftest.check("applied dpms-timeout" in log, "the reload did not apply dpms-timeout", vm)
            t0 = time.time()
            vm.sh("chvt 2")
            vm.wait_file("/tmp/kf.log", pattern="display blanked", timeout=20)
            print("  blanked %.1f s after tty2 came to the front" % (time.time() - t0))

        for name, fn in zip(names, (palette, font, bad, bad_font, zoomed, too_big, dpms, away, storm, waiting)):
            kftest.run_test(name, fn, vm)

    kftest.scenario(vm, "reload", names, run)


kftest.main(main)
