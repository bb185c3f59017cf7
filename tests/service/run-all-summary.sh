#!/bin/sh
# tests/service/run-all-summary.sh SRCDIR: README.md's second command, tests/run-all, "ends with
# `N passed, N failed, N skipped`", the line a reader or a CI log parser looks for. The copy of the script runs
# with a dependency installer that fails (the first thing it does): its last line must still have that form (it
# was "0 passed, 1 failed", which a parser of the three counts missed).
src=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/tests" "$dir/tools"
cp "$src/tests/run-all" "$dir/tests/run-all"
printf '#!/bin/sh\necho "install-deps: refused (test)" >&2\nexit 1\n' >"$dir/tools/install-deps.sh"
chmod +x "$dir/tests/run-all" "$dir/tools/install-deps.sh"
out=$("$dir/tests/run-all" 2>/dev/null)
rc=$?
last=$(printf '%s\n' "$out" | tail -n 1)
fail=0
if ! printf '%s\n' "$last" | grep -Eq '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'; then
	echo "FAIL: the last line is '$last', not 'N passed, N failed, N skipped'"
	fail=1
fi
if [ "$rc" -eq 0 ]; then
	echo "FAIL: run-all exited 0 after the dependency installer failed"
	fail=1
fi
# The same form in every summary line the script can print (one per way it ends).
grep -n 'passed, ' "$src/tests/run-all" | grep -v '^[0-9]*:#' |
	grep -v 'passed, [^ ]* failed, [^ ]* skipped"' | while read -r l; do
	echo "FAIL: tests/run-all prints a summary without the three counts: $l"
	exit 1
done || fail=1
[ $fail -eq 0 ] && echo "PASS: '$last'"
exit $fail
