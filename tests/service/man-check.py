#!/usr/bin/env python3
"""tests/service/man-check.py BINARY MANDIR SCDDIR REPLAY

The man pages against the program:
- every page in MANDIR renders with `man --warnings -l` at 80 columns with nothing on stderr, and no
  @PLACEHOLDER@ is left;
- every option --help lists appears in kmscon-felis(1) as *--name*;
- every option that is a file key has an entry in kmscon-felis.conf(5) that says "Default: X." with the same
  default --help prints (both come from different places: the table in config.c and the hand-written page);
- kmscon-felis-replay's --help and kmscon-felis-replay(1) name the same options;
- and the other way: every *--name* kmscon-felis(1) describes and every key kmscon-felis.conf(5) gives an entry
  is one --help lists (a page describing an option that is gone, or misspelt, went unseen); a short option
  --help gives (-h) is the one kmscon-felis(1) gives; a boolean's entry in kmscon-felis.conf(5) is written
  *key*, a value's *key*=_VALUE_; the range --help gives (MIN to MAX, from the option table) is the one
  kmscon-felis.conf(5) gives ("from MIN ... to MAX");
- the command-line-only options (--help says so) are those both pages list as such;
- README.md's kiosk command is the example unit's; every KMSCON_FELIS_* variable the program reads is in
  kmscon-felis(1); tests/vm/README.md has a row for every scenario t-*.py;
- kmscon-felis-replay's ranges (its errors) are its page's, and a bad command line exits 2;
- the configuration examples of kmscon-felis.conf(5) and README.md pass --check-config without a warning; a key
  ignored with a warning on a backend says so in its entry.
"""
import os
import re
import subprocess
import sys
import tempfile

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
shorts = {}
negatable = set()
ranges = {}
forms = {}
for e in filter(None, entries):
    m = re.match(r'^  (?:-(\w), |    )--(?:\[no-\])?([a-z0-9-]+)(\S*)', e)
    d = re.search(r'\[([^\[\]]*)\]$', e)
    options.append((m.group(2), d.group(1) if d else None, 'command line only' in e))
    if m.group(1):
        shorts[m.group(2)] = m.group(1)
    # '=VALUE' (a value), '[=VALUE]' (a boolean form that takes one too), '' (a boolean)
    forms[m.group(2)] = 'value' if m.group(3).startswith('=') or ' -- ' in e[:40] else \
        'both' if m.group(3) else 'bool'
    if '[no-]' in e[:40]:
        negatable.add(m.group(2))
    r = re.search(r'\((?:each side )?(\d+) to (\d+)(?:, or 0x0)?\) \[', e)
    if r:
        ranges[m.group(2)] = (int(r.group(1)), int(r.group(2)))
if len(options) < 60:
    failures.append('--help lists only %d options' % len(options))

man1 = open(os.path.join(scddir, 'kmscon-felis.1.scd')).read()
man5 = open(os.path.join(scddir, 'kmscon-felis.conf.5.scd')).read()

# Entries of conf(5): a line starting with '*' followed by tab-indented lines.
blocks = {}
heads = {}
lines = man5.splitlines()
for i, l in enumerate(lines):
    if not l.startswith('*') or i + 1 >= len(lines) or not lines[i + 1].startswith('\t'):
        continue
    body = []
    for b in lines[i + 1:]:
        if not b.startswith('\t'):
            break
        body.append(b.strip())
    for key, eq in re.findall(r'(?:^|, )\*([a-z0-9-]+)\*(=?)', l):
        blocks[key] = ' '.join(body)
        heads[key] = heads.get(key, '') + eq

for name, default, cli_only in options:
    if '*--%s*' % name not in man1:
        failures.append('kmscon-felis(1) lacks *--%s*' % name)
    if cli_only:
        continue
    if name not in blocks:
        failures.append('kmscon-felis.conf(5) has no entry for key %s' % name)
    elif default is not None and 'Default: %s.' % default not in blocks[name]:
        failures.append('kmscon-felis.conf(5): %s: want "Default: %s." in: %s' % (name, default, blocks[name]))

# The other way round: what the pages describe is an option.
names = {n for n, _, _ in options}
for key in sorted(set(blocks) - names):
    failures.append('kmscon-felis.conf(5) has an entry for %s, which --help does not list' % key)
# (*--format text* is kmscon-felis-replay's, named in kmscon-felis(1); *--option* is the general form; *--no-help*
# is named as an error)
for name in sorted(set(re.findall(r'\*--([a-z][a-z0-9-]*)\*', man1)) - names - {'no-' + n for n in negatable} -
                   {'format', 'option', 'no-help'}):
    failures.append('kmscon-felis(1) describes *--%s*, which --help does not list' % name)
# An option's entry (a line starting with *--name* or *-x*, *--name*) stands under OPTIONS, where a reader looks
# for it (--display-wait's was under SIGNALS).
section = None
man1_lines = man1.splitlines()
for i, l in enumerate(man1_lines):
    if l.startswith('# '):
        section = l[2:].strip()
    m = re.match(r'^\*(?:-\w\*, \*)?--([a-z][a-z0-9-]*)\*', l)
    entry = i + 1 < len(man1_lines) and man1_lines[i + 1].startswith('\t')
    if m and entry and section != 'OPTIONS':
        failures.append('kmscon-felis(1): the entry of --%s is under %s, not OPTIONS' % (m.group(1), section))
for name, letter in sorted(shorts.items()):
    if '*-%s*, *--%s' % (letter, name) not in man1:
        failures.append('kmscon-felis(1) lacks *-%s*, *--%s* (--help gives -%s)' % (letter, name, letter))
for name in sorted(set(re.findall(r'^\*-([a-zA-Z])\*, \*--([a-z-]+)', man1, re.M)) -
                   {(v, k) for k, v in shorts.items()}):
    failures.append('kmscon-felis(1) gives -%s for --%s, --help does not' % name)
for name, form in sorted(forms.items()):
    if name not in heads:
        continue
    if form == 'value' and '=' not in heads[name]:
        failures.append('kmscon-felis.conf(5): %s takes a value, its entry is not written *%s*=' % (name, name))
    if form == 'bool' and '=' in heads[name]:
        failures.append('kmscon-felis.conf(5): %s is a boolean, its entry is written *%s*=' % (name, name))
for name, (lo, hi) in sorted(ranges.items()):
    if name in blocks and not re.search(r'\bfrom %d\b.*?\bto %d\b' % (lo, hi), blocks[name], re.I):
        failures.append('kmscon-felis.conf(5): %s: want "from %d ... to %d" (--help) in: %s' %
                        (name, lo, hi, blocks[name][:300]))
if len(ranges) < 8:
    failures.append('--help gives only %d ranges' % len(ranges))

# The units' command lines where the docs show them: kmscon-felis(1)'s kiosk example is the example unit's
# ExecStart= (it ran the application as root, the unit as the user kiosk), and a drop-in that README.md shows
# keeps the template's options (--debug dropped --no-activate-vt and --display-wait=20: the VT was taken at
# every start, and no getty came without a display).
src = os.path.dirname(os.path.abspath(scddir))
def unit_exec(name):
    text = open(os.path.join(src, 'systemd', name)).read()
    return re.search(r'^ExecStart=@BINDIR@/(.*)$', text, re.M).group(1)
kiosk = unit_exec('kmscon-felis-kiosk.service.in')
for line in re.findall(r'^ExecStart=(\S.*)$', man1, re.M):
    if 'oneshot' in line and line != kiosk:
        failures.append('kmscon-felis(1): kiosk example "ExecStart=%s", the example unit has "ExecStart=%s"' %
                        (line, kiosk))
template = unit_exec('kmscon-felis@.service.in')
readme = open(os.path.join(src, 'README.md')).read()
for line in re.findall(r'ExecStart=/usr/bin/(kmscon-felis --vt=%I.*)$', readme, re.M):
    if not line.startswith(template):
        failures.append('README.md: a drop-in "ExecStart=/usr/bin/%s" drops the unit\'s options: "%s"' %
                        (line, template))

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

# The command-line-only options, as --help marks them, are the ones both pages name as such: kmscon-felis(1)'s
# "Every long option but ..." and kmscon-felis.conf(5)'s "Every long command-line option but ..." (the file's
# list left out check-config, which a file line is ignored for with a warning as the others are).
cli_only = {n for n, _, c in options if c}
for page, text, pattern, fmt in (
        ('kmscon-felis(1)', man1, r'Every long option but (.*?) is also a key', r'\*--([a-z-]+)\*'),
        ('kmscon-felis.conf(5)', man5, r'Every long command-line option but (.*?) \(ignored', r'\*([a-z-]+)\*')):
    m = re.search(pattern, text, re.S)
    named = set(re.findall(fmt, m.group(1))) if m else set()
    if not m:
        failures.append('%s: no sentence naming the command-line-only options' % page)
    for name in sorted(cli_only - named):
        failures.append('%s does not name %s among the command-line-only options' % (page, name))
    for name in sorted(named - cli_only):
        failures.append('%s names %s as command-line only, --help does not' % (page, name))

# README.md's kiosk command is the example unit's ExecStart= (it left out --display-wait=0), the application
# being the one the README's sed puts in.
m = re.search(r'The unit runs `([^`]*)`', readme)
if not m:
    failures.append('README.md: no "The unit runs `...`" line for the kiosk')
else:
    shown = ' '.join(m.group(1).split()).replace('/usr/bin/YOUR-APP', '/usr/bin/app')
    if shown != kiosk:
        failures.append('README.md: kiosk "%s", the example unit has "%s"' % (shown, kiosk))

# Every KMSCON_FELIS_* variable the program reads is in kmscon-felis(1) (the clipboard's directory was in none).
read = set()
for folder in ('kmscon-felis', 'drm', 'input', 'pty', 'grid', 'vt'):
    for dirpath, _, files in os.walk(os.path.join(src, folder)):
        for f in files:
            if f.endswith('.c'):
                read |= set(re.findall(r'getenv\("(KMSCON_FELIS_[A-Z0-9_]+)"\)',
                                       open(os.path.join(dirpath, f), errors='replace').read()))
for var in sorted(read):
    if '*%s*' % var not in man1:
        failures.append('kmscon-felis(1) does not name *%s*, which the program reads' % var)
if len(read) < 8:
    failures.append('only %d KMSCON_FELIS_* variables found in the sources' % len(read))

# The configuration examples kmscon-felis.conf(5) and README.md give are read without an error or a warning (the
# check of a start: --check-config), each in a directory of its own.
examples = re.findall(r'```\n(.*?)```', man5.split('\n# EXAMPLES')[-1].split('\n# MIGRATING')[0], re.S)
m = re.search(r'For example:\n\n((?:    \S.*\n)+)', readme)
examples += [re.sub(r'^    ', '', m.group(1), flags=re.M)] if m else []
if len(examples) < 4:
    failures.append('only %d configuration examples found in kmscon-felis.conf(5) and README.md' % len(examples))
for text in examples:
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'kmscon-felis.conf'), 'w') as f:
            f.write(text)
        r = subprocess.run([binary, '-c', d, '--check-config'], capture_output=True, text=True)
        if r.returncode != 0 or re.search(r': (warning|error):', r.stderr):
            failures.append('example configuration %r: exit %d, %s' % (text, r.returncode, r.stderr.strip()))

# Every default shortcut (--help's grab-* defaults) is in kmscon-felis(1)'s KEYS table, written as there
# (<Ctrl>plus as Ctrl+plus, Prior as PageUp): the rotation keys and Ctrl+equal were missing.
keys_table = man1.split('\n# KEYS')[-1].split('\n# ')[0]
keysym_shown = {'Prior': 'PageUp', 'Next': 'PageDown'}
for name, default, _ in options:
    if not name.startswith('grab-') or not default:
        continue
    for alt in default.split(','):
        mods = re.findall(r'<(\w+)>', alt)
        key = re.sub(r'<\w+>', '', alt)
        shown = '+'.join(mods + [keysym_shown.get(key, key)])
        if shown not in keys_table:
            failures.append('kmscon-felis(1) KEYS lacks %s (--%s=%s)' % (shown, name, default))

# A key that works with one backend only is ignored on the others with a warning (config.c check()), and its
# entry says so (rotate's did not).
config_c = open(os.path.join(src, 'kmscon-felis', 'config.c')).read()
only = re.findall(r'configuration: ([a-z-]+) only works with backend=([a-z]+)', config_c)
for key, backend in only:
    if key in blocks and 'warning' not in blocks[key]:
        failures.append('kmscon-felis.conf(5): %s is ignored with a warning without backend=%s; its entry does '
                        'not say so: %s' % (key, backend, blocks[key][-300:]))
if len(only) < 5:
    failures.append('config.c: only %d "only works with backend=" warnings found' % len(only))

# tests/vm/README.md's table of scenarios names every tests/vm/t-*.py (t-seat-away.py was missing).
vm_readme = open(os.path.join(src, 'tests', 'vm', 'README.md')).read()
for f in sorted(os.listdir(os.path.join(src, 'tests', 'vm'))):
    if re.match(r't-.*\.py$', f) and '| `%s`' % f not in vm_readme and ', `%s`' % f not in vm_readme:
        failures.append('tests/vm/README.md: no row for the scenario %s' % f)

# ... and every KF_* variable the harness reads is in its table (KF_VM_SWITCHES was not).
vm_vars = set()
for f in os.listdir(os.path.join(src, 'tests', 'vm')):
    if f.endswith('.py') or f in ('run', 'bench'):
        vm_vars |= set(re.findall(r'environ(?:\.get\(|\[)"(KF_[A-Z0-9_]+)"',
                                  open(os.path.join(src, 'tests', 'vm', f), errors='replace').read()))
for var in sorted(vm_vars):
    if '`%s' % var not in vm_readme:
        failures.append('tests/vm/README.md does not name %s, which the harness reads' % var)
if len(vm_vars) < 6:
    failures.append('only %d KF_* variables found in tests/vm' % len(vm_vars))

# The replay's ranges, as its errors give them, are the page's; a bad command line exits 2 as the page says.
for opt, bad in (('--size', '0x1'), ('--scrollback', '-1'), ('--font-size', '0')):
    r = subprocess.run([replay, opt, bad], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    rng = re.search(r'(\d+)\.\.(\d+)', r.stderr)
    if r.returncode != 2 or not rng:
        failures.append('kmscon-felis-replay %s %s: exit %d (page: 2), stderr %r' % (opt, bad, r.returncode,
                                                                                   r.stderr))
        continue
    lo, hi = rng.groups()
    entry = re.search(r'^\*%s\* .*?\n((?:\t.*\n)+)' % opt, man_replay, re.M)
    body = ' '.join(entry.group(1).split()) if entry else ''
    if not re.search(r'\b%s to %s\b' % (lo, hi), body) and not (lo == '0' and 'at most %s' % hi in body):
        failures.append('kmscon-felis-replay(1): %s: want "%s to %s" (its error) in: %s' % (opt, lo, hi, body))

for f in failures:
    print('FAIL', f)
print('%d pages, %d options checked (replay: %d), %d failures' % (len(pages), len(options), len(in_usage),
                                                                 len(failures)))
sys.exit(1 if failures else 0)
