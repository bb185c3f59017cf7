#!/usr/bin/env python3
"""tools/tcg-lookups.py BINARY LOG [BASE] [N]: where QEMU's TCG looks up the next translated block.

Under TCG (QEMU 7.2) a direct jump or call within one 4 KiB page is chained to the next block for free, but
every indirect branch (ret, call *reg, jmp *reg, a PLT jump) ends in helper_lookup_tb_ptr, tens of host
instructions each (docs/benchmarks.md, issue 5, session 29). `qemu-x86_64 -cpu max -d exec -D LOG BINARY ...`
logs one "Trace" line per such look-up (and per entry from the main loop); this prints the N (30) functions of
BINARY most looked up, by `nm -n` symbols, for a PIE loaded at BASE (qemu-user's 0x4000000000 by default). A
name with "+0" is an indirect call's target; without, return addresses and jump-table targets inside it.
"""
import bisect
import collections
import re
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, log = sys.argv[1], sys.argv[2]
    base = int(sys.argv[3], 16) if len(sys.argv) > 3 else 0x4000000000
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    out = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True,
                         check=True).stdout
    syms = [(int(a, 16), n) for a, t, n in (l.split() for l in out.splitlines() if len(l.split()) == 3)
            if t in "tTwW"]
    addrs = [a for a, _ in syms]
    pcs = collections.Counter()
    with open(log) as f:
        for line in f:
            m = re.match(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", line)
            if m:
                pcs[int(m.group(1), 16)] += 1
    names = collections.Counter()
    for pc, c in pcs.items():
        off = pc - base
        if addrs and 0 <= off < addrs[-1] + 65536:
            i = bisect.bisect_right(addrs, off) - 1
            names[syms[i][1] + ("+0" if off == syms[i][0] else "")] += c
        else:
            names["(outside the binary: libraries, the loader)"] += c
    print("%d look-ups" % sum(pcs.values()))
    for n, c in names.most_common(top):
        print("%9d %s" % (c, n))


if __name__ == "__main__":
    main()
