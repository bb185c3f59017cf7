#!/usr/bin/env python3
"""bell=: BEL on a real console. The guest loads pcspkr (the "PC Speaker" input device, which the kernel console's
tone goes to: KDMKTONE -> kd_mksound -> EV_SND SND_TONE on every device with that bit), and kf-evsnd
(guest/kf-evsnd.c) logs its sound events. kmscon-felis runs on tty2 (virtio-gpu) with a program that writes BEL
when asked (a file appears). Tests, one boot:
  bell-audible    the default: one BEL gives SND_TONE 750 (Hz, the kernel console's pitch) and a stop (SND_TONE 0,
                  then SND_BELL 0) about 125 ms later, once; nothing in the log says there is no bell
  bell-flood      10000 BELs in one write give one tone (at most 2); 2 s of BELs as fast as the program can write
                  them give at most one tone per 200 ms (xterm's bellSuppressTime), never one per BEL
  bell-setterm    the Linux console's CSI 10 ; 1000 ] CSI 11 ; 50 ] (setterm --bfreq 1000 --blength 50) before a BEL:
                  SND_TONE 1000 for about 50 ms; CSI 10 ] CSI 11 ] after it: the next BEL 750 Hz again; with
                  CSI 11 ; 0 ] a BEL is silent, as on the kernel's console
  bell-vt-switch  with another VT in front (chvt 3), a BEL gives no tone (it would sound on the user's VT); back on
                  tty2, a BEL sounds again
  bell-none       --bell=none: no tone
  bell-visual     --bell=visual: no tone; a BEL costs two frames that repaint the whole screen (the flash and
                  its end), 10000 BELs one flash, 2 s of BELs at most one flash per 400 ms (frame counters)
"""
# timeout: 600
import re
import time

import kftest
import vmguest

SND_BELL, SND_TONE = 1, 2
PROG = r"""#!/bin/sh
# BEL on request: /tmp/ring one, /tmp/flood 10000 in one write, /tmp/stream 2 s of them as fast as they go,
# /tmp/tone one at 1000 Hz for 50 ms (the tone set back after it), /tmp/mute one with duration 0.
# /tmp/rung (and /tmp/bell-ready) only once kmscon-felis has parsed them and rung: drain asks for its status
# (DSR, answer CSI 0 n) twice; the second answer comes from a later batch, so the first one's bell flush is done.
stty -echo -icanon min 1 time 0
drain() { printf '\033[5n'; head -c 4 >/dev/null; printf '\033[5n'; head -c 4 >/dev/null; touch /tmp/$1; }
printf 'bell test\n'
drain bell-ready
while :; do
	if [ -e /tmp/ring ]; then rm -f /tmp/ring; printf '\007'; drain rung; fi
	if [ -e /tmp/tone ]; then rm -f /tmp/tone; printf '\033[10;1000]\033[11;50]\007\033[10]\033[11]'; drain rung; fi
	if [ -e /tmp/mute ]; then rm -f /tmp/mute; printf '\033[11;0]\007\033[11]'; drain rung; fi
	if [ -e /tmp/flood ]; then rm -f /tmp/flood; head -c 10000 /dev/zero | tr '\0' '\007'; drain rung; fi
	if [ -e /tmp/stream ]; then
		rm -f /tmp/stream
		end=$(($(cut -d. -f1 /proc/uptime) + 2))
		while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do head -c 1000 /dev/zero | tr '\0' '\007'; done
		drain rung
	fi
	sleep 0.05
done
"""


def start(vm, args=""):
    # --verbose: "display suspended" and "display resumed" (info messages) tell vt_switch() the seat changes
    vm.sh("rm -f /tmp/bell-ready /tmp/ring /tmp/rung; kmscon-felis --backend=drm --vt=2 --switchvt --verbose "
          "--dpms-timeout=0 --font-engine=builtin %s --login -- /bin/sh /tmp/bell.sh >/tmp/kf.log 2>&1 & "
          "echo $! >/tmp/kf.pid" % args)
    # the login runs after the first frame, so the seat is ours once the program is ready
    vm.wait_file("/tmp/bell-ready", timeout=90)


def stop(vm):
    vm.sh("p=$(cat /tmp/kf.pid); kill $p 2>/dev/null; for i in $(seq 50); do kill -0 $p 2>/dev/null || break; "
          "sleep 0.1; done; kill -9 $p 2>/dev/null; true", check=False)


def events(vm):
    """Every sound event kf-evsnd logged so far: (usec, code, value)."""
    out = vm.sh("cat /tmp/snd.log")
    return [tuple(int(x) for x in line.split()) for line in out.splitlines() if re.match(r"^\d+ \d+ -?\d+$", line)]


def ring(vm, what="ring", sound=True):
    """Asks the program for BELs (WHAT: ring, flood, stream, tone or mute) and returns the sound events they gave:
    with SOUND, once the last tone has stopped; without, after a second of nothing."""
    before = len(events(vm))
    vm.sh("rm -f /tmp/rung; touch /tmp/%s" % what)
    vm.wait_file("/tmp/rung", timeout=60)  # kmscon-felis has parsed the BELs and rung (the program's drain)
    if not sound:
        # A negative check: a tone would be in kf-evsnd's log within ms (it flushes every 5 ms); none in 1 s.
        time.sleep(1)
        return events(vm)[before:]

    def stopped():
        # the stop is SND_TONE 0 then SND_BELL 0, about 125 ms after the start (kd_sound_helper)
        evs = events(vm)[before:]
        return evs if tones(evs) and evs[-1][1:] == (SND_BELL, 0) else None

    return vm.wait_until(stopped, 10, "a tone and its stop after /tmp/%s" % what, interval=0.05)


def tones(evs):
    return [e for e in evs if e[1] == SND_TONE and e[2] != 0]


# The bell's rate limit (kmscon-felis/bell.h): a BEL within 200 ms of the last tone's (KF_BELL_SUPPRESS_NS, or the
# tone's length when longer) is suppressed, not sounded; flashes are 400 ms apart (KF_BELL_FLASH_INTERVAL_NS).
TONE_LIMIT_S = 0.2


def past_tone_limit():
    """Lets the last tone's rate limit run out, so that the next BEL sounds, or, in a negative check, is silent for
    its own reason and not the limit's. What is awaited is time itself on kmscon-felis' clock, so a pause is the
    wait, and no host load makes it short: it starts once ring() saw the tone stop, after kmscon-felis took the
    limit (just before the tone began), and the guest's clock follows the host's. The window and 100 ms more."""
    time.sleep(TONE_LIMIT_S + 0.1)


def check_tone(vm, evs, what, hz=750, low=60, high=400):
    # LOW is loose: the events carry kf-evsnd's flush times, and a flush late by tens of ms on a loaded guest
    # shortens the tone as seen here (the kernel times the tone itself)
    # the stop is SND_TONE 0 and, as the device has SND_BELL too, SND_BELL 0 (kd_sound_helper)
    kftest.check(all(e[1] == SND_TONE or e[1:] == (SND_BELL, 0) for e in evs), "%s: other events: %r" % (what, evs),
                 vm)
    evs = [e for e in evs if e[1] == SND_TONE]
    kftest.check(len(evs) == 2 and evs[0][1:] == (SND_TONE, hz) and evs[1][1:] == (SND_TONE, 0),
                 "%s: want SND_TONE %d then 0, got %r" % (what, hz, evs), vm)
    ms = (evs[1][0] - evs[0][0]) / 1000
    kftest.check(low <= ms <= high, "%s: the tone lasted %.0f ms (want %d to %d)" % (what, ms, low, high), vm)
    return ms


def audible(vm):
    ms = check_tone(vm, ring(vm), "one BEL")
    print("  one BEL: SND_TONE 750 for %.0f ms" % ms)
    log = vm.sh("cat /tmp/kf.log")
    kftest.check("no audible bell" not in log, "the log says there is no bell:\n" + log, vm)


def flood(vm):
    past_tone_limit()  # bell-audible's tone, which may have begun less than 200 ms ago
    evs = ring(vm, "flood")
    print("  10000 BELs in one write: %d tones" % len(tones(evs)))
    kftest.check(1 <= len(tones(evs)) <= 2 and all(e[2] in (0, 750) for e in evs),
                 "10000 BELs: want 1 tone (2 at most), got %r" % evs, vm)
    past_tone_limit()  # the stream's first BEL sounds: its tones and their gaps are the stream's own
    evs = ring(vm, "stream")
    starts = [e[0] for e in tones(evs)]
    gaps = [(b - a) / 1000 for a, b in zip(starts, starts[1:])]
    print("  2 s of BELs: %d tones, gaps %s ms" % (len(starts), [round(g) for g in gaps]))
    kftest.check(1 <= len(starts) <= 12, "2 s of BELs: %d tones (want at most one per 200 ms)" % len(starts), vm)
    # kf-evsnd's times are its flushes' (every 5 ms): a gap may look 5 ms short, and on a loaded guest, where the
    # helper can be descheduled for tens of ms before one flush and not the next, far shorter. So each gap must
    # be well above a batch's (no tone per read: a few ms apart) and the median near the 200 ms limit.
    gaps_sorted = sorted(gaps)
    median = gaps_sorted[len(gaps) // 2] if gaps else 200
    kftest.check(all(g >= 100 for g in gaps) and median >= 180,
                 "2 s of BELs: tones closer than the 200 ms limit allows: %r" % gaps, vm)


def setterm(vm):
    past_tone_limit()  # bell-flood's stream's last tone
    ms = check_tone(vm, ring(vm, "tone"), "CSI 10;1000] CSI 11;50] BEL", hz=1000, low=15, high=250)
    print("  CSI 10;1000] 11;50]: SND_TONE 1000 for %.0f ms" % ms)
    past_tone_limit()  # the 50 ms tone still holds the limit for 200 ms: the next BEL would be dropped
    check_tone(vm, ring(vm), "a BEL after CSI 10] CSI 11] (the defaults back)")
    past_tone_limit()  # else the muted BEL would be silent because of the limit, proving nothing about CSI 11;0]
    evs = ring(vm, "mute", sound=False)
    kftest.check(not evs, "CSI 11;0] BEL sounded: %r" % evs, vm)


def frames(vm):
    """kmscon-felis' frame counters now (SIGRTMIN+1 makes it log them)."""
    return kftest.frame_counters(vm)


def settled(vm):
    """Waits until the frame the program's "bell test" line asked for is counted: two counter readings at least
    100 ms apart on kmscon-felis' clock (several refreshes) with no frame between them. Returns the last."""
    last = [frames(vm)]

    def same():
        now = frames(vm)
        prev, last[0] = last[0], now
        return now if now["rendered"] == prev["rendered"] and now["mono_ms"] - prev["mono_ms"] >= 100 else None

    return vm.wait_until(same, 20, "no new frame for 100 ms after the program's start")


def visual(vm):
    """--bell=visual: a BEL costs two full frames (inverted, normal again 100 ms later) and nothing else, a flood
    one flash, 2 s of BELs one flash per 400 ms at most; never a tone."""
    stop(vm)
    start(vm, "--bell=visual")
    settled(vm)  # its "bell test" frame is not a flash's
    full = 1024 * 768
    for what, most in (("ring", 1), ("flood", 1), ("stream", 6)):
        a = frames(vm)
        evs = ring(vm, what, sound=False)  # its second without sound covers the flash's end (100 ms)
        b = frames(vm)
        n, px = b["rendered"] - a["rendered"], b["pixels_painted"] - a["pixels_painted"]
        print("  --bell=visual, %s: %d frames, %.1f screens painted" % (what, n, px / full))
        kftest.check(not evs, "--bell=visual, %s: sound events %r" % (what, evs), vm)
        kftest.check(n % 2 == 0 and 2 <= n <= 2 * most and px == n * full,
                     "--bell=visual, %s: %d frames painting %d pixels (want 2 full frames per flash, %d flashes "
                     "at most)" % (what, n, px, most), vm)
        # no pause before the next: ring()'s second without sound, after the last BEL was parsed, is past both
        # the 400 ms between flashes and the 100 ms flash's end


def log_count(vm, what):
    return vm.sh("cat /tmp/kf.log", check=False)[1].count(what)


def vt_switch(vm):
    # The seat goes away: kmscon-felis is told and suspends (its disable handler runs before libseat lets the
    # switch complete, so chvt, which waits for it, returns after it; the log line says so all the same).
    n = log_count(vm, "display suspended")
    vm.sh("chvt 3")
    vm.wait_until(lambda: log_count(vm, "display suspended") > n, what="'display suspended' after chvt 3")
    evs = ring(vm, sound=False)
    kftest.check(not evs, "a BEL with tty3 in front sounded: %r" % evs, vm)
    # Back: chvt returns once the kernel switched; kmscon-felis takes the seat back after that.
    n = log_count(vm, "display resumed")
    vm.sh("chvt 2")
    vm.wait_until(lambda: log_count(vm, "display resumed") > n, what="'display resumed' after chvt 2")
    check_tone(vm, ring(vm), "a BEL back on tty2")


def silent(vm, args):
    stop(vm)
    start(vm, args)
    evs = ring(vm, sound=False) + ring(vm, "flood", sound=False)
    kftest.check(not evs, "%s: BELs sounded: %r" % (args, evs), vm)


def main():
    if not kftest.binary_available():
        kftest.skip("kmscon-felis not built")
    moddir = vmguest.kernel()[1]
    files = {"/tmp/bell.sh": PROG, "/tmp/pcspkr.ko": str(moddir / "kernel/drivers/input/misc/pcspkr.ko")}
    vm = kftest.boot(gpu="virtio", name="bell", files=files)
    names = ["bell-audible", "bell-flood", "bell-setterm", "bell-vt-switch", "bell-none", "bell-visual"]

    def tests():
        out = vm.sh("insmod /tmp/pcspkr.ko; grep -B1 -A4 'PC Speaker' /proc/bus/input/devices", check=False)[1]
        if "PC Speaker" not in out:
            kftest.check(False, "no PC Speaker input device after insmod pcspkr:\n%s\ndmesg:\n%s"
                         % (out, "\n".join(vm.dmesg().splitlines()[-20:])), vm)
        print("bell: " + " | ".join(line for line in out.splitlines() if line[:2] in ("N:", "H:", "B:")))
        vm.sh("kf-evsnd >/tmp/snd.log 2>&1 &")
        node = vm.wait_file("/tmp/snd.log", timeout=30, pattern="^node ")
        print("bell: kf-evsnd reads " + node.strip())
        start(vm)
        kftest.run_test("bell-audible", lambda: audible(vm), vm)
        kftest.run_test("bell-flood", lambda: flood(vm), vm)
        kftest.run_test("bell-setterm", lambda: setterm(vm), vm)
        kftest.run_test("bell-vt-switch", lambda: vt_switch(vm), vm)
        kftest.run_test("bell-none", lambda: silent(vm, "--bell=none"), vm)
        kftest.run_test("bell-visual", lambda: visual(vm), vm)
        stop(vm)

    kftest.scenario(vm, "bell", names, tests)


kftest.main(main)
