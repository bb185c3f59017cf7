#!/usr/bin/env python3
"""tests/service/unit-vt.py BINARY UNITDIR

Whatever way kmscon-felis ends on its VT, the unit must leave the VT with something on it: systemd either starts
the console again (Restart=) or the unit fails and OnFailure= starts getty there. Between the two, the VT is
dead: a frozen screen, no login, until someone runs systemctl by hand from elsewhere.

- The ways it ends are those of the real program, run on the headless backend (the exit path is the same on a
  display): a login that exits 0 with oneshot set (the user logs out: kmscon-felis@'s own comment allows oneshot
  in the file), a login that exits 1, a SIGTERM from someone other than systemd (kill, a script: systemctl stop is
  systemd's own doing, never restarted), and the statuses that are our own (78, 69).
- What systemd makes of each: systemd.service(5), Restart=, "Table 2. Exit causes and the effect of the Restart=
  settings" (an exit code of 0 and the signals SIGHUP, SIGINT, SIGTERM, SIGPIPE are a clean exit), minus
  RestartPreventExitStatus=; a unit not restarted enters "failed" only for an unclean exit (systemd.unit(5),
  OnFailure=: "activated when this unit enters the failed state").
- Conflicts= with getty on the same VT comes with an ordering (After= or Before=): systemd.unit(5), Conflicts=:
  "this setting does not imply an ordering dependency ... to ensure that the conflicting unit is stopped before
  the other unit is started, an After= or Before= dependency must be declared". Without one, starting either
  unit while the other runs starts it while the other still holds the VT (getty's start-up vhangup of the tty
  hits the console's VT descriptor, which then cannot give the VT back in text mode).
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

binary, unitdir = sys.argv[1:3]
failures = []

# systemd.service(5), Table 2: which exit causes each Restart= value restarts.
RESTARTS = {
    'no': set(),
    'always': {'clean', 'unclean-code', 'unclean-signal', 'timeout', 'watchdog'},
    'on-success': {'clean'},
    'on-failure': {'unclean-code', 'unclean-signal', 'timeout', 'watchdog'},
    'on-abnormal': {'unclean-signal', 'timeout', 'watchdog'},
    'on-abort': {'unclean-signal'},
    'on-watchdog': {'watchdog'},
}
CLEAN_SIGNALS = {signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE}


def parse(name):
    with open(os.path.join(unitdir, name)) as f:
        text = f.read()

    def values(key):
        out = []
        for m in re.finditer(r'^%s=(.*)$' % key, text, re.M):
            out += m.group(1).split()
        return out
    restart = values('Restart')
    return {
        'restart': restart[-1] if restart else 'no',
        'prevent': {int(v) for v in values('RestartPreventExitStatus') if v.isdigit()},
        'onfailure': values('OnFailure'),
        'conflicts': values('Conflicts'),
        'ordered': set(values('After')) | set(values('Before')),
    }


def cause(returncode):
    """systemd's name for how the main process ended (subprocess: a negative code is the signal)."""
    if returncode < 0:
        return 'clean' if -returncode in CLEAN_SIGNALS else 'unclean-signal'
    return 'clean' if returncode == 0 else 'unclean-code'


def run_login(code):
    p = subprocess.run([binary, '--backend=headless', '--oneshot', '--login', '--', '/bin/sh', '-c',
                        'exit %d' % code], env=env, capture_output=True, text=True, timeout=60)
    return p.returncode


def run_killed():
    """The program with a login that keeps running, sent SIGTERM once the login runs."""
    with tempfile.TemporaryDirectory() as d:
        mark = os.path.join(d, 'running')
        p = subprocess.Popen([binary, '--backend=headless', '--login', '--', '/bin/sh', '-c',
                              'touch %s; exec sleep 60' % mark], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        # a hang guard only: the login touches the file as soon as it runs
        deadline = time.monotonic() + 30
        while not os.path.exists(mark) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            failures.append('SIGTERM: the program did not exit within 30 s')
        return p.returncode


env = dict(os.environ)
env.pop('NOTIFY_SOCKET', None)
outcomes = [('the login exits 0 with oneshot (logout)', run_login(0)),
            ('the login exits 1 with oneshot', run_login(1)),
            ('SIGTERM from kill, not from systemctl stop', run_killed()),
            ('a bad configuration (78)', 78),
            ('no display after display-wait (69)', 69)]

for name in ('kmscon-felis@.service', 'kmscon-felis-kiosk.service'):
    u = parse(name)
    getty = 'getty@%i.service' if name.endswith('@.service') else 'getty@tty1.service'
    print('%s: Restart=%s RestartPreventExitStatus=%s OnFailure=%s' % (
        name, u['restart'], ' '.join(map(str, sorted(u['prevent']))), ' '.join(u['onfailure']) or '-'))
    for what, code in outcomes:
        c = cause(code)
        prevented = code in u['prevent']
        restarted = c in RESTARTS[u['restart']] and not prevented
        failed = not restarted and c != 'clean'
        then = 'restarted' if restarted else 'fails: %s' % (' '.join(u['onfailure']) or 'nothing') if failed \
            else 'inactive'
        print('  %-45s status %4d (%s): %s' % (what, code, c, then))
        # The kiosk's own choice: a bad configuration stops it for good (getty@tty1 is disabled there).
        kiosk_stop = prevented and not name.endswith('@.service')
        if not restarted and not (failed and u['onfailure']) and not kiosk_stop:
            failures.append('%s: %s (status %d, %s exit): neither restarted nor failed over to getty (Restart=%s): '
                            'the VT is left dead' % (name, what, code, c, u['restart']))
    for conflict in u['conflicts']:
        if conflict.startswith('getty@') and conflict not in u['ordered']:
            failures.append('%s: Conflicts=%s without After= or Before= it: systemd starts one while the other '
                            'still holds the VT' % (name, conflict))
    if getty not in u['conflicts']:
        failures.append('%s: no Conflicts=%s' % (name, getty))

for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
