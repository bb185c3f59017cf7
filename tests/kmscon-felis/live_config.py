"""Live tests of the configuration: the /etc/issue banner, the bell, a reload on SIGHUP (test-live.py runs
them).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

from livelib import PROG, SLOW, TMP, Run, children_of, fail, wait_file


def t_issue():
    """The /etc/issue banner (issue=, issue-path=) is on the screen above the program's first output, its line
    ends as CR LF, \\l the PTY's name without a VT; not there with --no-issue, nor by default before a program
    of one's own (issue=auto: only before the default login); its queries are not answered to the program."""
    banner = os.path.join(TMP, "banner.issue")
    with open(banner, "w") as f:
        f.write("Banner \\s on \\l\nsecond line\n\n")
    child = ["sh", "-c", "echo CHILD OUTPUT"]
    r = Run(child, args=["--issue", "--issue-path", banner])
    if r.wait() != 0:
        fail("--issue: status %s" % r.status)
    s = r.screen()
    tty = os.uname().sysname
    if not (s[0].startswith("Banner %s on pts/" % tty) and s[0][len("Banner %s on pts/" % tty):].strip().isdigit()
            and s[1] == "second line" and s[2] == "" and s[3] == "CHILD OUTPUT"):
        fail("--issue: screen %r" % s[:5])
    # \\l names the VT when --vt gives it (the unit's --vt=%I), as agetty on that VT would
    r = Run(child, args=["--issue", "--issue-path", banner, "--vt=5"])
    if r.wait() != 0 or r.screen()[0] != "Banner %s on tty5" % tty:
        fail("--vt=5: status %s, screen %r" % (r.status, r.screen()[:2]))
    for args in (["--no-issue", "--issue-path", banner], ["--issue-path", banner]):
        r = Run(child, args=args)
        if r.wait() != 0:
            fail("%s: status %s" % (args, r.status))
        s = r.screen()
        if s[0] != "CHILD OUTPUT" or any("Banner" in line for line in s):
            fail("%s: screen %r" % (args, s[:4]))
    # a banner's queries (DA1, CPR) go unanswered: nothing reaches the program as typed input, which the PTY's
    # echo showed at its prompt ("^[[?62;22c^[[1;8R" under the banner) before
    asking = os.path.join(TMP, "asking.issue")
    with open(asking, "w") as f:
        f.write("Asking \\e[c\\e[6n\n")
    r = Run(["sh", "-c", "sleep 0.5; echo DONE"], args=["--issue", "--issue-path", asking])
    s = r.screen() if r.wait() == 0 else []
    if "DONE" not in s or any("^[" in line for line in s):
        fail("a banner's queries: status %s, screen %r" % (r.status, s[:3]))


def t_bell():
    """bell= headless, where there is no VT to sound a tone on and no display to flash: a flood of BELs (30000,
    in many reads) says so once, at notice level; bell=none says nothing; the output after the flood is shown."""
    flood = "i=0; while [ $i -lt 30 ]; do printf '%01000d' 0 | tr 0 '\\a'; i=$((i+1)); done; echo done"
    for args, says in ((["--bell=audible"], "no audible bell: the headless backend has no VT"),
                       (["--bell"], "no audible bell: the headless backend has no VT"),
                       (["--bell=visual"], "no visual bell: there is no display to flash"),
                       (["--no-bell"], None), (["--bell=none"], None)):
        p = subprocess.run([PROG, "--backend=headless", "--size=20x3", "--dump-screen=" + os.path.join(TMP, "b.txt")]
                           + args + ["--login", "--", "sh", "-c", flood], stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode(errors="replace")
        with open(os.path.join(TMP, "b.txt")) as f:
            screen = f.read()
        if p.returncode != 0 or "done" not in screen:
            fail("%s: status %d, screen %r, log %r" % (args, p.returncode, screen, err))
        if says is None and "bell" in err:
            fail("%s: the log speaks of a bell: %r" % (args, err))
        if says is not None and (err.count(says) != 1 or err.count("\n") != 1 or "notice" not in err):
            fail("%s: want one notice %r, log %r" % (args, says, err))


def write_conf(conf, text):
    """The configuration file becomes text at once (renamed over it, as an editor does)."""
    with open(conf + ".new", "w") as f:
        f.write(text)
    os.rename(conf + ".new", conf)


def read_log(path):
    with open(path, errors="replace") as f:
        return f.read()


def sighup(r, logpath, want):
    """SIGHUP to the program, then waits for one more want in its log (fails if it exits or 10 s pass)."""
    n = read_log(logpath).count(want)
    r.proc.send_signal(signal.SIGHUP)
    end = time.time() + 10 * SLOW
    while read_log(logpath).count(want) <= n:
        if time.time() > end or r.proc.poll() is not None:
            fail("no %r in the log after SIGHUP (status %s): %r" % (want, r.proc.poll(), read_log(logpath)))
        time.sleep(0.01)


RELOAD_CHILD = r"""
import os, sys, tty
tty.setraw(0)
open(sys.argv[1] + ".ready", "w").close()
n = 0
while True:
    c = os.read(0, 1)
    if c in (b"x", b""):
        break
    if c not in b"qb":
        continue
    # q: colour 1 asked (OSC 4), b: a BEL; each followed by DSR, whose answer ends what is kept
    os.write(1, (b"\a" if c == b"b" else b"\033]4;1;?\033\\") + b"\033[5n")
    buf = b""
    while not buf.endswith(b"\033[0n"):
        buf += os.read(0, 1)
    n += 1
    with open(sys.argv[1] + ".%d.part" % n, "wb") as f:
        f.write(buf[:-4])
    os.rename(sys.argv[1] + ".%d.part" % n, sys.argv[1] + ".%d" % n)
"""


def t_reload():
    """SIGHUP (systemctl reload) reads the configuration again and applies what can change live, with the same
    child running: a new palette is what OSC 4 reports; a broken file changes nothing and says file and line,
    and so does a directory, a FIFO, /dev/zero or a 100 MiB file in its place; a key that needs a restart keeps
    its old value and says so."""
    d = tempfile.mkdtemp(dir=TMP)
    conf = os.path.join(d, "kmscon-felis.conf")
    logpath = os.path.join(TMP, "reload.log")
    out = os.path.join(TMP, "osc")

    def log_text():
        return read_log(logpath)

    def reload(want):
        sighup(r, logpath, want)

    queries = [0]

    def red():
        queries[0] += 1
        r.type(b"q")
        wait_file(out + ".%d" % queries[0], 10 * SLOW)
        time.sleep(0.05)
        with open(out + ".%d" % queries[0], "rb") as f:
            return f.read()

    write_conf(conf, "palette=default\nterm=xterm-256color\n")
    with open(logpath, "w") as log:
        r = Run([sys.executable, "-c", RELOAD_CHILD, out], size="20x5", args=["--configdir", d, "--oneshot"],
                fifo=True, stderr=log)
    wait_file(out + ".ready", 10 * SLOW)
    got = red()
    if got != b"\033]4;1;rgb:cdcd/0000/0000\033\\":
        fail("default palette: got %r" % got)
    child = children_of(r.proc.pid)
    if len(child) != 1:
        fail("want one child, got %r" % child)

    write_conf(conf, "palette=solarized\nterm=xterm-256color\n")
    reload("configuration reloaded")
    got = red()
    if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
        fail("after reload to solarized: got %r, log %r" % (got, log_text()))
    if "applied palette" not in log_text():
        fail("the reload line does not name the palette: %r" % log_text())
    if children_of(r.proc.pid) != child:
        fail("the child changed across the reload: %r then %r" % (child, children_of(r.proc.pid)))

    write_conf(conf, "# broken\npalette=nosuch\nbell=none\n")
    reload("kept the old configuration")
    if (conf + ":2") not in log_text():
        fail("the error does not name the file and line 2: %r" % log_text())
    got = red()
    if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
        fail("a broken file changed the palette: got %r" % got)

    # The file replaced by what is no configuration: each refused with its reason, nothing changed, and the
    # FIFO (no writer) and /dev/zero read neither blocking the loop nor without end.
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    big = os.path.join(d, "big")
    with open(big, "wb") as f:
        f.truncate(100 << 20)  # 100 MiB, sparse
    for what, make, why in (("a directory", lambda: os.mkdir(conf), "is a directory"),
                            ("a FIFO", lambda: os.symlink(fifo, conf), "a device, FIFO or socket"),
                            ("/dev/zero", lambda: os.symlink("/dev/zero", conf), "a device, FIFO or socket"),
                            ("a 100 MiB file", lambda: os.symlink(big, conf), "more than the 1048576")):
        if os.path.isdir(conf) and not os.path.islink(conf):
            os.rmdir(conf)
        else:
            os.unlink(conf)
        make()
        reload("kept the old configuration")
        if why not in log_text().split("kept the old configuration")[-2]:
            fail("%s: the refusal does not say %r: %r" % (what, why, log_text()))
        got = red()
        if got != b"\033]4;1;rgb:dcdc/3232/2f2f\033\\":
            fail("%s changed the palette: got %r" % (what, got))
    os.unlink(conf)

    # The keyboard keys are live (headless has no keyboard: taken, nothing to compile; the keymap itself is
    # tested in test-input-reload.c and, on a display, tests/vm/t-input.py input-reload-layout).
    write_conf(conf, "palette=solarized\nxkb-layout=de\nxkb-repeat-rate=30\n")
    reload("applied xkb-layout, xkb-repeat-rate")

    # The font and the blanking are the display's: headless they are not reported as applied, but named as
    # having nothing to apply to.
    write_conf(conf, "palette=solarized\nxkb-layout=de\nxkb-repeat-rate=30\nfont-size=30\ndpms-timeout=5\n")
    before = len(log_text())
    reload("configuration reloaded")
    new = log_text()[before:]
    done = [line for line in new.split("\n") if "configuration reloaded" in line]
    if not done or "font-size" in done[0] or "dpms-timeout" in done[0]:
        fail("headless, the display's keys reported as applied: %r" % new)
    if "dpms-timeout, font-size: nothing to apply them to without a display" not in new:
        fail("headless, the display's keys not named as not applicable: %r" % new)

    write_conf(conf, "palette=solarized\nterm=vt100\n")
    reload("needs a restart")
    if "term" not in log_text().split("needs a restart")[-2].split("\n")[-1]:
        fail("the notice does not name term: %r" % log_text())
    if children_of(r.proc.pid) != child or r.proc.poll() is not None:
        fail("the child or the program did not survive the reloads: %r" % log_text())
    r.type(b"x")
    if r.wait() != 0:
        fail("status %s after the reloads, log %r" % (r.status, log_text()))


def t_reload_backspace():
    """backspace-delete reloaded (SIGHUP) applies from the next login (tests/kmscon-felis/test-reload-live.c: the
    respawned login's stty erase and the key's byte). Headless the program ends with its login, so there is no
    next one: the reload says so instead of "applied backspace-delete" (which it said while nothing changed), and
    the login that runs keeps its erase character, not restarted."""
    d = tempfile.mkdtemp(dir=TMP)
    conf = os.path.join(d, "kmscon-felis.conf")
    logpath = os.path.join(TMP, "reload-bs.log")
    out = os.path.join(TMP, "erase")
    # writes its erase character whole each time a line is typed, until it reads x
    script = ("while :; do stty -a | tr ';' '\\n' | sed -n 's/^ *erase = //p' > %s.part; mv %s.part %s; "
              "read x; [ \"$x\" = x ] && exit 0; done" % (out, out, out))
    write_conf(conf, "backspace-delete=on\n")

    def log_text():
        return read_log(logpath)

    def erase():
        wait_file(out, 10 * SLOW)
        with open(out) as f:
            return f.read().strip()

    with open(logpath, "w") as log:
        r = Run(["sh", "-c", script], args=["--configdir", d], fifo=True, stderr=log)
    if erase() != "^?":
        fail("the login: erase %r" % erase())
    child = children_of(r.proc.pid)
    write_conf(conf, "backspace-delete=off\n")
    sighup(r, logpath, "configuration reloaded")
    text = log_text()
    if ("backspace-delete: applies from the next login, and none follows this one (headless)" not in text
            or "applied backspace-delete" in text):
        fail("the reload does not say backspace-delete has nothing to apply to: %r" % text)
    os.unlink(out)
    r.type(b"\n")
    if erase() != "^?" or children_of(r.proc.pid) != child:
        fail("the running login after the reload: erase %r, children %r then %r"
             % (erase(), child, children_of(r.proc.pid)))
    r.type(b"x\n")
    if r.wait() != 0:
        fail("status %s, log %r" % (r.status, log_text()))


def t_reload_keys():
    """The live keys reload.c applies that t_reload does not cover, through the whole program: a palette-
    colour key (palette-red, with palette=custom) is what OSC 4 reports after the reload; bell=none then
    bell=audible rings where it did not (headless: the notice that no VT can sound it, at the first BEL after
    the reload)."""
    d = tempfile.mkdtemp(dir=TMP)
    conf = os.path.join(d, "kmscon-felis.conf")
    logpath = os.path.join(TMP, "reload-keys.log")
    out = os.path.join(TMP, "rk")
    n = [0]

    def log_text():
        return read_log(logpath)

    def ask(c):
        n[0] += 1
        r.type(c)
        wait_file("%s.%d" % (out, n[0]), 10 * SLOW)
        with open("%s.%d" % (out, n[0]), "rb") as f:
            return f.read()

    def reload(want):
        sighup(r, logpath, "configuration reloaded")
        if "applied " + want not in log_text().split("\n")[-2]:
            fail("the reload does not name %s: %r" % (want, log_text()))

    write_conf(conf, "bell=none\npalette=custom\n")
    with open(logpath, "w") as log:
        r = Run([sys.executable, "-c", RELOAD_CHILD, out], size="20x5", args=["--configdir", d, "--oneshot"],
                fifo=True, stderr=log)
    wait_file(out + ".ready", 10 * SLOW)
    if ask(b"q") != b"\033]4;1;rgb:cdcd/0000/0000\033\\":
        fail("default red")
    write_conf(conf, "bell=none\npalette=custom\npalette-red=10,20,30\n")
    reload("palette-red")
    got = ask(b"q")
    if got != b"\033]4;1;rgb:0a0a/1414/1e1e\033\\":
        fail("palette-red=10,20,30 after the reload: OSC 4 says %r" % got)
    ask(b"b")
    if "bell" in log_text():
        fail("bell=none: the log speaks of a bell: %r" % log_text())
    write_conf(conf, "bell=audible\npalette=custom\npalette-red=10,20,30\n")
    reload("bell")
    ask(b"b")
    if "no audible bell: the headless backend has no VT" not in log_text():
        fail("bell=audible after the reload: the BEL was not rung: %r" % log_text())
    r.type(b"x")
    if r.wait() != 0:
        fail("status %s, log %r" % (r.status, log_text()))
