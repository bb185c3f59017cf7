#!/usr/bin/env python3
"""tests/service/exit-status.py BINARY UNITDIR

The exit statuses against the units that act on them. Both units list in RestartPreventExitStatus= the statuses
after which restarting cannot help (kmscon-felis's own: a bad configuration, no display); so
- a bad configuration file and a bad command line must exit with a status both units list (the kiosk unit
  listed none: a bad file restarted the kiosk every 2 s for ever);
- with --oneshot (and headless) the program's own exit status is passed on, but never as one of those: a
  kiosk application or a login that exits with 2 made kmscon-felis@ fail over to getty as if its
  configuration were bad. Every status from 0 to 255 a real child exits with is tried, through the real
  program on the headless backend;
- a font-file that cannot be opened (found on a display only, before the seat is opened) is such an error too.
"""
import os
import re
import subprocess
import sys
import tempfile

binary, unitdir = sys.argv[1:3]
failures = []


def prevent(unit):
    with open(os.path.join(unitdir, unit)) as f:
        text = f.read()
    values = set()
    for m in re.finditer(r'^RestartPreventExitStatus=(.*)$', text, re.M):
        values |= {int(v) for v in m.group(1).split() if v.isdigit()}
    return values


units = {u: prevent(u) for u in ('kmscon-felis@.service', 'kmscon-felis-kiosk.service')}
reserved = set().union(*units.values())


def run(args, confdir=None):
    env = dict(os.environ)
    env.pop('NOTIFY_SOCKET', None)
    p = subprocess.run([binary] + (['-c', confdir] if confdir else []) + args, env=env,
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stderr


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, 'kmscon-felis.conf'), 'w') as f:
        f.write('sb-size=-1\n')
    bad_file, err = run(['--backend=headless', '--oneshot', '--login', '--', '/bin/true'], d)
    if 'expected an integer' not in err:
        failures.append('bad file: no error said: %r' % err)
bad_cli, _ = run(['--no-such-option', '--backend=headless', '--oneshot', '--login', '--', '/bin/true'])
print('bad configuration file: status %d; bad command line: status %d' % (bad_file, bad_cli))
for unit, values in sorted(units.items()):
    print('%s: RestartPreventExitStatus=%s' % (unit, ' '.join(map(str, sorted(values)))))
    for what, code in (('bad configuration file', bad_file), ('bad command line', bad_cli)):
        if code == 0 or code not in values:
            failures.append('%s: %s exits %d, not in RestartPreventExitStatus= (restarted for ever)'
                            % (unit, what, code))

# A font-file that cannot be opened is a configuration error too, found on a display only: it exited 1, which the
# kiosk restarted every 2 s for ever and kmscon-felis@ five times before getty. The font is opened before the
# seat and the display, so this needs neither.
with tempfile.TemporaryDirectory() as d:
    for args in (['--font-engine=psf', '--font-file=%s/none.psf' % d], ['--font-file=%s/none.ttf' % d],
                 ['--font-engine=psf', '--font-file=%s' % d]):
        code, err = run(['--backend=drm', '--vt=63', '--no-activate-vt'] + args, d)
        print('%s on a display: status %d' % (' '.join(a.replace(d, 'DIR') for a in args), code))
        if 'cannot set up the font' not in err:
            failures.append('%s: the log does not say the font cannot be set up: %r' % (args, err))
        for unit, values in sorted(units.items()):
            if code not in values:
                failures.append('%s: %s exits %d, not in RestartPreventExitStatus= (restarted)'
                                % (unit, ' '.join(args), code))

passed = 0
for n in range(256):
    code, err = run(['--backend=headless', '--oneshot', '--login', '--', '/bin/sh', '-c', 'exit %d' % n])
    if code in reserved:
        failures.append('the program exited %d: kmscon-felis exited %d, which a unit takes for its own '
                        '(RestartPreventExitStatus=)' % (n, code))
    elif n not in reserved and code != n:
        failures.append('the program exited %d: kmscon-felis exited %d, not the same' % (n, code))
    elif n in reserved and ('status %d' % n) not in err:
        failures.append('the program exited %d (reported as %d): the log does not say %d: %r' % (n, code, n, err))
    else:
        passed += 1
print('child statuses 0..255: %d of 256 right' % passed)

for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
