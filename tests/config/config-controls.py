#!/usr/bin/env python3
"""tests/config/config-controls.py BINARY

Control characters in string values, through a real process reading a real file (BINARY is kf-config-cli, the
start-up path of main.c, or kmscon-felis itself). They were all accepted: a TERM with ESC in it, a font-name with a
C1 CSI, a path with DEL, a login with a lone CR. Each must exit 78 with "FILE:LINE:", the option and the byte as
\\xNN; stderr never carries the raw byte (an error echoed on the console must not drive it). What each option
legally holds is accepted: a tab between login's words, a font name in any script, a path with a byte that is no
UTF-8 (a Latin-1 file name).

Characters that show as nothing or reorder the text around them (zero-width ones, bidi marks, embeddings,
overrides and isolates, the byte order mark) are refused in every string value the same way, the code point
named as U+XXXX: a font-name of "DejaVu<U+200B> Sans Mono" read as DejaVu Sans Mono in an editor and in the
log's quotes, while fontconfig was asked for another name and fell back silently.
"""
import os
import re
import subprocess
import sys
import tempfile

binary = sys.argv[1]
failures = []
# C0 controls but tab and newline (the file's line breaks), DEL, and the C1 controls encoded in UTF-8.
RAW = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]')


def run(d, text, args=()):
    with open(os.path.join(d, 'kmscon-felis.conf'), 'wb') as f:
        f.write(text)
    p = subprocess.run([binary, '-c', d, '--backend=headless', '--oneshot'] + list(args) +
                       ['--login', '--', '/bin/true'], capture_output=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as d:
    conf = os.path.join(d, 'kmscon-felis.conf').encode()
    bad = [
        (b'term=xterm\x1b[31m\n', 1, b'term', b'\\x1b'),
        (b'# a comment\nterm=linux\x01\n', 2, b'term', b'\\x01'),
        (b'term=xterm 256color\n', 1, b'term', b"' '"),
        (b'term=../../tmp/evil\n', 1, b'term', b"'/'"),
        (b'font-name=DejaVu\xc2\x9b31m\n', 1, b'font-name', b'\\xc2\\x9b'),
        (b'font-name=DejaVu\rMono\n', 1, b'font-name', b'\\x0d'),
        (b'font-name=DejaVu\xff Mono\n', 1, b'font-name', b'\\xff'),
        (b'issue-path=/etc/issue\x7f\n', 1, b'issue-path', b'\\x7f'),
        (b'font-file=/usr/share/fonts/a\x1b.ttf\n', 1, b'font-file', b'\\x1b'),
        (b'xkb-layout=us\x1bde\n', 1, b'xkb-layout', b'\\x1b'),
        (b'xkb-options=ctrl:nocaps\xc2\x85\n', 1, b'xkb-options', b'\\xc2\\x85'),
        (b'xkb-keymap=/etc/\x07my.xkb\n', 1, b'xkb-keymap', b'\\x07'),
        (b'seat=seat\x1b1\n', 1, b'seat', b'\\x1b'),
        (b'login=/bin/echo a\x1bb\n', 1, b'login', b'\\x1b'),
        (b'login=/bin/echo "a\rb"\n', 1, b'login', b'\\x0d'),
        (b'font-name=DejaVu\xe2\x80\x8b Sans Mono\n', 1, b'font-name', b'U+200B'),
        (b'font-name=DejaVu Sans Mono\xe2\x80\x8f\n', 1, b'font-name', b'U+200F'),
        (b'# x\n\nfont-name=\xe2\x80\xaeonoM\n', 3, b'font-name', b'U+202E'),
        (b'font-name=Mono\xe2\x80\xaa\n', 1, b'font-name', b'U+202A'),
        (b'font-name=a\xe2\x81\xa6b\xe2\x81\xa9\n', 1, b'font-name', b'U+2066'),
        (b'font-name=Mono\xe2\x81\xa9\n', 1, b'font-name', b'U+2069'),
        (b'font-name=\xef\xbb\xbfMono\n', 1, b'font-name', b'U+FEFF'),
        (b'issue-path=/etc/\xe2\x80\xaeeussi\n', 1, b'issue-path', b'U+202E'),
        (b'login=/bin/echo a\xe2\x80\x8dz\n', 1, b'login', b'U+200D'),
        (b'font-file=/usr/share/fonts/\xe2\x80\x8ca.ttf\n', 1, b'font-file', b'U+200C'),
    ]
    for text, line, key, byte in bad:
        code, out, err = run(d, text)
        where = conf + b':%d:' % line
        if code != 78:
            failures.append('%r: exit %d, expected 78; stderr %r' % (text, code, err))
        elif where not in err or key not in err or byte not in err:
            failures.append('%r: stderr lacks %r, %r or %r: %r' % (text, where, key, byte, err))
        if RAW.search(err):
            failures.append('%r: stderr carries a raw control byte: %r' % (text, err))
        if out:
            failures.append('%r: something ran: %r' % (text, out))

    # (what the refused characters are in UTF-8: a message must quote them escaped, never raw)
    INVISIBLE = re.compile(rb'\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xef\xbb\xbf')
    for text, line, key, byte in bad:
        if INVISIBLE.search(text) and INVISIBLE.search(run(d, text)[2]):
            failures.append('%r: stderr carries the raw character' % text)

    # The command line is checked as the file is (no file:line there, the option's name).
    code, out, err = run(d, b'', ['--term=linux\x1b'])
    if code != 78 or b'--term' not in err or b'\\x1b' not in err or RAW.search(err):
        failures.append('--term=linux<ESC>: exit %d, stderr %r' % (code, err))
    code, out, err = run(d, b'', ['--font-name=Mono\u202e'.encode()])
    if code != 78 or b'--font-name' not in err or b'U+202E' not in err:
        failures.append('--font-name=Mono<U+202E>: exit %d, stderr %r' % (code, err))

    good = [
        b'term=xterm-256color\n',
        b'term=screen.xterm-256color\n',
        b'font-name=Noto Sans Mono CJK JP \xe6\x97\xa5\xe6\x9c\xac\n',
        # next to the refused ranges: a hair space U+200A, a hyphen U+2010, U+2030, U+2070, U+FEFE, U+FF10
        b'font-name=a\xe2\x80\x8ab\xe2\x80\x90c\xe2\x80\xb0d\xe2\x81\xb0e\xef\xbb\xbef\xef\xbc\x90\n',
        b'login=/bin/true\targ\t"two words"\n',
        b'issue-path=/etc/issue:/tmp/caf\xe9\n',
        b'dump-screen=' + d.encode() + b'/s\x9b\n',
        b'xkb-layout=us(intl),de\nxkb-options=grp:alt_shift_toggle,ctrl:nocaps\n',
    ]
    for text in good:
        code, out, err = run(d, text)
        if code != 0:
            failures.append('%r (legal) exit %d: %r' % (text, code, err))

for f in failures:
    print('FAIL:', f)
print('%d failures' % len(failures))
sys.exit(1 if failures else 0)
