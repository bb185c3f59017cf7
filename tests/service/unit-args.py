#!/usr/bin/env python3
"""tests/service/unit-args.py BINARY CONFIG_CLI UNITDIR

The units' command lines against the program and against a configuration file the admin wrote for them:
- each unit's ExecStart= options (%I as tty2) pass kmscon-felis --check-config (exit 0);
- display-wait: with a kmscon-felis.conf that sets display-wait=20 (as for the getty units, the file is shared),
  a unit that restarts whatever the status and does not list 69 in RestartPreventExitStatus= must still wait
  for a display (display-wait 0 in force): the kiosk unit gave none on its command line, so the file's 20 made a
  kiosk started before the GPU driver bound exit 69 and start again every 2 s, for ever. A unit that does exit
  69 must list it (it then fails over, OnFailure=). CONFIG_CLI (tests/config/kf-config-cli) prints the
  configuration in force after the file and the command line.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

binary, config_cli, unitdir = sys.argv[1:4]
failures = []


def unit(name):
    with open(os.path.join(unitdir, name)) as f:
        text = f.read()
    execstart = re.search(r'^ExecStart=(.*)$', text, re.M).group(1)
    words = shlex.split(execstart.replace('%I', 'tty2').replace('%i', 'tty2'))
    if '--login' in words:
        words = words[:words.index('--login')]
    prevent = set()
    for m in re.finditer(r'^RestartPreventExitStatus=(.*)$', text, re.M):
        prevent |= {int(v) for v in m.group(1).split() if v.isdigit()}
    restart = re.search(r'^Restart=(.*)$', text, re.M)
    return words[1:], prevent, restart.group(1) if restart else 'no'


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, 'kmscon-felis.conf'), 'w') as f:
        f.write('display-wait=20\n')
    for name in ('kmscon-felis@.service', 'kmscon-felis-kiosk.service'):
        args, prevent, restart = unit(name)
        p = subprocess.run([binary, '-c', d, '--check-config'] + args, capture_output=True, text=True,
                           timeout=30)
        if p.returncode != 0:
            failures.append('%s: --check-config %s: exit %d: %s' % (name, ' '.join(args), p.returncode, p.stderr))
        p = subprocess.run([config_cli, '-c', d] + args, capture_output=True, text=True, timeout=30)
        m = re.search(r'^display-wait=(\d+)$', p.stdout, re.M)
        if p.returncode != 0 or not m:
            failures.append('%s: kf-config-cli %s: exit %d, %r' % (name, ' '.join(args), p.returncode, p.stderr))
            continue
        wait = int(m.group(1))
        print('%s: display-wait %d with display-wait=20 in the file; Restart=%s, RestartPreventExitStatus=%s'
              % (name, wait, restart, ' '.join(map(str, sorted(prevent)))))
        if wait and 69 not in prevent and restart in ('always', 'on-failure', 'on-abnormal'):
            failures.append('%s: exits 69 after %d s without a display and is restarted (Restart=%s, 69 not in '
                            'RestartPreventExitStatus=): a loop instead of waiting' % (name, wait, restart))

for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
