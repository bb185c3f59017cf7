#!/bin/sh
# tests/tools/vttest-compare.sh: vttest's screens, recorded in a real xterm, compared with kmscon-felis's core
# (a developer tool, not part of the test suite; docs/conformance.md, "vttest 2.7 against xterm 379").
#
#   tests/tools/vttest-compare.sh OUTDIR [DISPLAY [DISPLAY2]]     (after ninja -C build-test)
#
# Needs vttest, xterm and Xvfb (apt-get install -y vttest xterm xvfb). Starts Xvfb on DISPLAY (:63) when no
# X server answers there, walks vttest's menus inside an 80x24 xterm 379 with tests/tools/vttest-walk.py
# (menus 1, 2, 3, 5, 6, 8, 9 and 10 in one vttest, each of menu 11's eight in a vttest of its own: what one
# test leaves behind, DECRSPS's restored modes for one, does not reach the others), then runs xterm-diff.py
# on every screen saved (--stream, --attrs, --deccolm) with its own Xvfb on DISPLAY2 (:64). Then the menus
# with 132-column screens (1, 2, 8, 9) again in a 132x24 xterm, into OUTDIR/132, compared at 132x24: DECCOLM
# changes no width on either side, so vttest's 132-column screens are seen whole there. Divergences go to
# OUTDIR/diff.txt and OUTDIR/diff.json (OUTDIR/132/ the same); the recordings stay in OUTDIR (vttest's
# output: do not commit them).
set -e
out=$1
dpy=${2:-:63}
dpy2=${3:-:64}
[ -n "$out" ] || { echo "usage: $0 OUTDIR [DISPLAY [DISPLAY2]]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
xvfb=
if ! xdpyinfo -display "$dpy" >/dev/null 2>&1; then
	Xvfb "$dpy" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
	xvfb=$!
	sleep 1
fi
for walk in "--items 1,2,3,5,6,8,9,10" "11 --items 1" "11 --items 2" "11 --items 3" "11 --items 4" \
	"11 --items 5" "11 --items 6" "11 --items 7" "11 --items 8"; do
	# shellcheck disable=SC2086 # the walk's arguments are two words
	xterm -display "$dpy" -u8 -geometry 80x24 -e python3 "$here/vttest-walk.py" "$out" $walk
done
mkdir -p "$out/132"
xterm -display "$dpy" -u8 -geometry 132x24 -e python3 "$here/vttest-walk.py" --size 132x24 "$out/132" --items 1,2,8,9
[ -z "$xvfb" ] || kill "$xvfb"
for size in 80x24 132x24; do
	dir=$out
	[ "$size" = 80x24 ] || dir=$out/132
	# shellcheck disable=SC2046,SC2010 # one --stream per file (the walk names them: no odd characters)
	set -- $(ls "$dir" | grep -E '^(main|[0-9]).*\.bin$' | sort -V | sed "s|^|--stream $dir/|")
	echo "$size: $(($# / 2)) screens"
	python3 "$here/xterm-diff.py" --display "$dpy2" --replay "$root/build-test/kmscon-felis/kmscon-felis-replay" \
		--size "$size" --attrs --deccolm --json "$dir/diff.json" "$@" >"$dir/diff.txt"
	tail -n 1 "$dir/diff.txt"
done
