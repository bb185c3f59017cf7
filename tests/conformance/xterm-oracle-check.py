#!/usr/bin/env python3
"""tests/conformance/xterm-oracle-check.py REPLAY SHARED_DIR: compares our screen text for every alacritty
ref case with what a real xterm 379 showed for the same recording (xterm379-expected-text.json in the
alacritty data, combining marks excluded from xterm's dump), to tell deliberate xterm fidelity from
alacritty-specific expectations. Prints one line per case that differs and a summary. Not a test."""
import glob
import json
import os
import sys
import unicodedata

replay, shared = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(shared, "conformance"))
import run_conformance as rc  # noqa: E402

data = os.path.join(shared, "conformance-data", "alacritty-ref")
oracle = json.load(open(os.path.join(data, "xterm379-expected-text.json")))["cases"]
ad = rc.Adapter(replay + " --vtproto")
same = total = 0
for rec in sorted(glob.glob(os.path.join(data, "*", "alacritty.recording"))):
    name = os.path.basename(os.path.dirname(rec))
    if name not in oracle:
        continue
    size = json.load(open(os.path.join(os.path.dirname(rec), "size.json")))
    cfg = json.load(open(os.path.join(os.path.dirname(rec), "config.json")))
    ad.init(size["screen_lines"], size["columns"], cfg.get("history_size", 0))
    ad.push(open(rec, "rb").read())
    got = ["".join(ch for ch in rc.row_text(r) if not unicodedata.combining(ch)) for r in ad.screen()["lines"]]
    want = [r.rstrip() for r in oracle[name]]
    total += 1
    if got[:len(want)] == want[:len(got)]:
        same += 1
    else:
        diff = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
        print("%-28s differs from xterm in rows %s" % (name, diff[:8]))
ad.close()
print("screen text equal to xterm 379's in %d/%d alacritty cases" % (same, total))
