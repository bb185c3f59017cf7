#!/usr/bin/env python3
"""The input module's symbols against the program's (kmscon-felis/input-module.h): the module carries no second
copy of anything the program has (a second copy of grid/'s globals was an ODR violation under ASan, and every
copy is code loaded twice), and everything of ours it calls (grid_, vt_, kf_, pty_...) is exported by the
program, or dlopen(RTLD_NOW) refuses the module on a display, after the first frame.

Usage: module-symbols.py NM PROGRAM MODULE. Exit status 0 = pass, 1 = fail.
"""
import subprocess
import sys

OURS = ("grid_", "vt_", "kf_", "pty_", "drm_", "input_")
# gcc's coverage runtime (libgcov), which -Db_coverage=true (tools/coverage's build-cov/) links into the program and
# into the module alike, each object writing its own counters: the compiler's, not a second copy of ours (this
# test failed in every tools/coverage run, one failure hiding any other in its summary).
GCOV = ("__gcov_",)
GCOV_NAMES = {"mangle_path"}


def symbols(nm, path, which):
    out = subprocess.run([nm, "-D", which, path], stdout=subprocess.PIPE, check=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    nm, program, module = sys.argv[1:4]
    exported = symbols(nm, program, "--defined-only")
    defined = symbols(nm, module, "--defined-only")
    needed = {s for s in symbols(nm, module, "--undefined-only") if s.startswith(OURS)}
    failed = False
    twice = sorted(s for s in defined & exported if not s.startswith(GCOV) and s not in GCOV_NAMES)
    if twice:
        print("FAIL: the module carries a second copy of %d of the program's symbols: %s"
              % (len(twice), " ".join(twice[:12])))
        failed = True
    missing = sorted(needed - exported)
    if missing:
        print("FAIL: the module calls %d symbols the program does not export: %s" % (len(missing), " ".join(missing)))
        failed = True
    if not needed:
        print("FAIL: the module calls nothing of the program's: is it linked with its own copies?")
        failed = True
    if not failed:
        print("ok: the module calls %d of the program's symbols, defines %d of its own, none twice"
              % (len(needed), len(defined)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
