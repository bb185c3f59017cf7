#!/usr/bin/env python3
"""tests/service/man-check.py BINARY MANDIR SCDDIR REPLAY

The man pages against the program:
- every page in MANDIR renders with `man --warnings -l` at 80 columns with nothing on stderr, and no
  @PLACEHOLDER@ is left;
- every option --help lists appears in kmscon-felis(1) as *--name*;
- every option that is a file key has an entry in kmscon-felis.conf(5) that says "Default: X." with the same
  default --help prints (both come from different places: the table in config.c and the hand-written page);
- kmscon-felis-replay's --help and kmscon-felis-replay(1) name the same options.
"""
import os
import re
import subprocess
import sys

binary, mandir, scddir, replay = sys.argv[1:5]
failures = []

pages = sorted(f for f in os.listdir(mandir) if re.match(r'.*\.[1-8]$', f))
for want in ('kmscon-felis.1', 'kmscon-felis.conf.5'):
    if want not in pages:
        failures.append('page %s was not built' % want)
for page in pages:
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8', MANPAGER='cat', PAGER='cat')
    r = subprocess.run(['man', '--warnings', '-l', os.path.join(mandir, page)], env=env,
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        failures.append('%s: man exit %d, stderr:\n%s' % (page, r.returncode, r.stderr))
    if len(r.stdout) < 500:
        failures.append('%s: rendered to almost nothing' % page)
    if re.search(r'@[A-Z]+@', r.stdout):
        failures.append('%s: placeholder left: %s' % (page, re.search(r'@[A-Z]+@', r.stdout).group(0)))

help_text = subprocess.run([binary, '--help'], capture_output=True, text=True, check=True).stdout
entries = []
for line in help_text.splitlines():
    if re.match(r'^  (-\w, |    )--', line):
        entries.append(line)
    elif entries and line.startswith(' ' * 20):
        entries[-1] += ' ' + line.strip()
    elif not line.strip() or line.endswith(':'):
        entries.append(None) if entries and entries[-1] is not None else None
options = []
for e in filter(None, entries):
    m = re.match(r'^  (?:-\w, |    )--(?:\[no-\])?([a-z0-9-]+)', e)
    d = re.search(r'\[([^\[\]]*)\]$', e)
    options.append((m.group(1), d.group(1) if d else None, 'command line only' in e))
if len(options) < 60:
    failures.append('--help lists only %d options' % len(options))

man1 = open(os.path.join(scddir, 'kmscon-felis.1.scd')).read()
man5 = open(os.path.join(scddir, 'kmscon-felis.conf.5.scd')).read()

# Entries of conf(5): a line starting with '*' followed by tab-indented lines.
blocks = {}
lines = man5.splitlines()
for i, l in enumerate(lines):
    if not l.startswith('*') or i + 1 >= len(lines) or not lines[i + 1].startswith('\t'):
        continue
    body = []
    for b in lines[i + 1:]:
        if not b.startswith('\t'):
            break
        body.append(b.strip())
    for key in re.findall(r'\*([a-z0-9-]+)\*', l):
        blocks[key] = ' '.join(body)

for name, default, cli_only in options:
    if '*--%s*' % name not in man1:
        failures.append('kmscon-felis(1) lacks *--%s*' % name)
    if cli_only:
        continue
    if name not in blocks:
        failures.append('kmscon-felis.conf(5) has no entry for key %s' % name)
    elif default is not None and 'Default: %s.' % default not in blocks[name]:
        failures.append('kmscon-felis.conf(5): %s: want "Default: %s." in: %s' % (name, default, blocks[name]))

# The replay's usage is hand-written, as is its page: every option in one is in the other.
usage = subprocess.run([replay, '--help'], capture_output=True, text=True, check=True).stdout
man_replay = open(os.path.join(scddir, 'kmscon-felis-replay.1.scd')).read()
in_usage = set(re.findall(r'--([a-z][a-z0-9-]*)', usage)) | {'help'}
in_page = set(re.findall(r'^\*--([a-z][a-z0-9-]*)\*', man_replay, re.M)) | \
    set(re.findall(r'^\*-h\*, \*--([a-z-]+)\*', man_replay, re.M))
for name in sorted(in_usage - in_page):
    failures.append('kmscon-felis-replay(1) has no entry for --%s, which its --help lists' % name)
for name in sorted(in_page - in_usage):
    failures.append('kmscon-felis-replay --help lacks --%s, which its page describes' % name)
if len(in_usage) < 10:
    failures.append('kmscon-felis-replay --help lists only %d options' % len(in_usage))

for f in failures:
    print('FAIL', f)
print('%d pages, %d options checked (replay: %d), %d failures' % (len(pages), len(options), len(in_usage),
                                                                 len(failures)))
sys.exit(1 if failures else 0)
