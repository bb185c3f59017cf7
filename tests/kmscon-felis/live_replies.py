"""Live tests of what the program answers to its child: terminal reports, colours, the clipboard (OSC 52)
(test-live.py runs them).
"""
import base64
import os
import random
import signal
import sys
import time

from livelib import TMP, Run, fail, wait_file


REPLY_CHILD = r"""
import os, select, sys, time, tty
tty.setraw(0)
os.write(1, sys.argv[2].encode("latin-1") + b"\033[5n")
buf = b""
end = time.time() + 20
while not buf.endswith(b"\033[0n") and time.time() < end:
    if select.select([0], [], [], 1)[0]:
        buf += os.read(0, 4096)
with open(sys.argv[1], "wb") as f:
    f.write(buf)
"""


def replies(queries, size="20x5", args=()):
    """The bytes the program answers to queries written by a child in raw mode (up to DSR 5's answer)."""
    out = os.path.join(TMP, "replies-%d" % random.randrange(1 << 30))
    r = Run([sys.executable, "-c", REPLY_CHILD, out, queries], size=size, args=list(args) + ["--oneshot"])
    if r.wait() != 0:
        fail("reply child: status %s" % r.status)
    with open(out, "rb") as f:
        got = f.read()
    if not got.endswith(b"\033[0n"):
        fail("no answer to DSR 5 within 20 s: %r" % got)
    return got[:-4]


def t_replies():
    """The replies the conformance suites need (issue 3): DA1, DA2, CPR, DECRQM, DECRQSS, CSI 18 t, DECRQCRA,
    through the whole program: grid -> reply callback -> PTY write queue -> the child."""
    q = ("Hi\033[c\033[>c\033[6n\033[?7$p\033P$qm\033\\\033[18t"
         "\033[1;1;1;1;1;2*y\033[2;1;1;1;1;1*y\033[*y")
    want = (b"\033[?62;22c\033[>1;10;0c\033[1;3R\033[?7;1$y\033P1$r0m\033\\\033[8;5;20t"
            b"\033P1!~FF4F\033\\\033P2!~FFB8\033\\\033P0!~FF4F\033\\")
    got = replies(q)
    if got != want:
        fail("replies: got %r want %r" % (got, want))


def t_colors():
    """OSC 4/10/11/12 queries report the colours the display paints with (--palette, --palette-<name>), and
    OSC 104/110 go back to them: the program gives the grid the renderer's palette (main.c config_colors)."""
    q = "\033]4;1;?\033\\\033]10;?\033\\\033]11;?\033\\\033]12;?\033\\\033]4;1;#000001\033\\\033]104\033\\\033]4;1;?\033\\"
    got = replies(q, args=["--palette", "solarized"])
    want = (b"\033]4;1;rgb:dcdc/3232/2f2f\033\\\033]10;rgb:eeee/e8e8/d5d5\033\\\033]11;rgb:0707/3636/4242\033\\"
            b"\033]12;rgb:eeee/e8e8/d5d5\033\\\033]4;1;rgb:dcdc/3232/2f2f\033\\")
    if got != want:
        fail("solarized: got %r want %r" % (got, want))
    q = "\033]4;1;?\033\\\033]4;2;?\033\\\033]4;100;?\033\\\033]11;?\033\\"
    got = replies(q, args=["--palette", "custom", "--palette-red=1,2,3", "--palette-background=4,5,6"])
    want = (b"\033]4;1;rgb:0101/0202/0303\033\\\033]4;2;rgb:0000/cdcd/0000\033\\\033]4;100;rgb:8787/8787/0000\033\\"
            b"\033]11;rgb:0404/0505/0606\033\\")
    if got != want:
        fail("custom: got %r want %r" % (got, want))


def read_clipboard(d):
    try:
        with open(os.path.join(d, "clipboard"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def t_osc52():
    """OSC 52 from an application sets the clipboard every instance shares (issue 6, main.c on_osc52 ->
    clipboard.c); an OSC 52 over the parser's string cap (1 MiB) is dropped whole, memory stays bounded, and
    the output after it is still shown."""
    clip = os.path.join(TMP, "clip")
    os.environ["KMSCON_FELIS_CLIPBOARD_DIR"] = clip
    r = Run(["printf", "\\033]52;c;aGk=\\007"], args=["--oneshot"])
    if r.wait() != 0:
        fail("status %s" % r.status)
    got = read_clipboard(clip)
    if got != b"hi":
        fail("clipboard after OSC 52 'aGk=': %r, not b'hi'" % got)
    # 24 MiB of base64 in one OSC 52 ('QUFB' = 'AAA'), then a visible line; written in pieces so that this
    # script stays small (a child's max RSS starts at its parent's at fork).
    big = os.path.join(TMP, "big-osc52")
    with open(big, "wb") as f:
        f.write(b"\033]52;c;")
        for _ in range(24):
            f.write(b"QUFB" * (1 << 18))
        f.write(b"\007AFTER THE BIG ONE")
    small = os.path.join(TMP, "small-osc52")
    with open(small, "wb") as f:
        f.write(b"\033]52;c;aGk=\007AFTER THE BIG ONE")
    base, _, _ = hwm_run(small)
    hwm, got, s = hwm_run(big)
    print("24 MiB OSC 52: clipboard %r, peak RSS %d KiB (%d KiB with a 4-byte one)"
          % (got if got is None or len(got) < 16 else got[:16] + b"...", hwm, base))
    if got != b"hi":
        fail("an oversized OSC 52 changed the clipboard (%s bytes)" % (None if got is None else len(got)))
    if not any("AFTER THE BIG ONE" in line for line in s):
        fail("the output after the oversized OSC 52 is missing: %r" % s[:3])
    if hwm > base + 4096:
        fail("memory grew with the oversized OSC 52: %d KiB, %d KiB with a small one" % (hwm, base))


def t_osc52_read():
    """With --clipboard-read, an OSC 52 query gets the shared clipboard back in base64, ending as the query did
    (main.c on_osc52_get -> clipboard.c); without it, no answer at all (the default: any program on the
    terminal could read what was copied)."""
    clip = os.path.join(TMP, "clip-read")
    os.environ["KMSCON_FELIS_CLIPBOARD_DIR"] = clip
    r = Run(["printf", "\\033]52;c;aMOpdMOpIQo=\\007"], args=["--oneshot"])
    if r.wait() != 0 or read_clipboard(clip) != "hété!\n".encode():
        fail("setting the clipboard: status %s, %r" % (r.status, read_clipboard(clip)))
    got = replies("\033]52;c;?\033\\\033]52;;?\007", args=["--clipboard-read"])
    want = b"\033]52;c;aMOpdMOpIQo=\033\\\033]52;s0;aMOpdMOpIQo=\007"
    if got != want:
        fail("--clipboard-read: got %r want %r" % (got, want))
    got = replies("\033]52;c;?\033\\")
    if got != b"":
        fail("without --clipboard-read: got %r, want no answer" % got)
    # A clipboard whose reply does not fit the write queue (a selection copied on another VT can reach 4 MiB):
    # the reply is dropped whole, never cut, and the terminal goes on answering (the DSR after it); one that
    # fits comes whole.
    for size, fits in ((40000, True), (100000, False)):
        data = bytes(random.Random(size).choice(b"abc\xc3\xa9\n") for _ in range(size))
        with open(os.path.join(clip, "clipboard"), "wb") as f:
            f.write(data)
        got = replies("\033]52;c;?\007", args=["--clipboard-read", "--write-queue-size=64K"])
        want = b"\033]52;c;" + base64.b64encode(data) + b"\007" if fits else b""
        if got != want:
            fail("a %d-byte clipboard, 64 KiB write queue: a %d-byte reply, want %d" % (size, len(got), len(want)))


def hwm_run(path):
    """Shows the file path, then reads the program's peak RSS (VmHWM, KiB), the clipboard and the screen."""
    done = os.path.join(TMP, "done-%d" % random.randrange(1 << 30))
    r = Run(["sh", "-c", "cat %s; touch %s; exec sleep 60" % (path, done)], size="212x82")
    wait_file(done, 60)
    # The last PTY buffer's worth may still be parsed: wait until the program's CPU time stops moving.
    last, end = None, time.time() + 30
    while time.time() < end:
        with open("/proc/%d/stat" % r.proc.pid) as f:
            cpu = f.read().split(")")[1].split()[11:13]
        if cpu == last:
            break
        last = cpu
        time.sleep(0.2)
    hwm = r.proc_status("VmHWM")
    r.proc.send_signal(signal.SIGTERM)
    if r.wait() != 0:
        fail("status %s" % r.status)
    return hwm, read_clipboard(os.environ["KMSCON_FELIS_CLIPBOARD_DIR"]), r.screen()
