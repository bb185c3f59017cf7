#!/bin/sh
# tests/config/check-config.sh BINARY: kmscon-felis --check-config with real files. It reads the command line and
# the configuration file as a start does, says every problem as a start says it, and exits 0 when there is none
# and 78 on a bad configuration (a font-file that cannot be opened included, which a start finds only on a
# display); it opens no seat, no VT, no DRM device and no PTY, and runs no program.
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
conf="$dir/kmscon-felis.conf"
marker="$dir/ran"

# check RC GREP: --check-config with $conf (and "$@" after the two) must exit RC, say GREP on stderr (unless
# empty), print nothing on stdout, run nothing and open no device.
check() {
	want=$1 text=$2
	shift 2
	rm -f "$marker"
	# (the default backend is drm: a start would open the seat and a VT; LeakSanitizer cannot run under ptrace)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=openat,open -o "$dir/trace" \
		timeout 20 "$bin" -c "$dir" --check-config "$@" --login -- /bin/sh -c "touch $marker" \
		>"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: --check-config $* ($(head -c 60 "$conf" | tr '\n' ' ')): exit $rc, expected $want"
		cat "$dir/err"; fail=1
	fi
	if [ -n "$text" ] && ! grep -qF -- "$text" "$dir/err"; then
		echo "FAIL: --check-config $*: stderr lacks '$text':"; cat "$dir/err"; fail=1
	fi
	if [ -s "$dir/out" ] || [ -e "$marker" ]; then
		echo "FAIL: --check-config $*: something ran or printed: $(cat "$dir/out")"; fail=1
	fi
	if grep -E '"/dev/(tty|dri|fb|ptmx|pts|input)' "$dir/trace"; then
		echo "FAIL: --check-config $*: opened a device"; fail=1
	fi
}

printf 'font-size=20\nterm=linux\n' >"$conf"
check 0 "" --vt=63
# a warning is no error: said, exit 0
printf 'font-size=20\nfrobnicate=1\n' >"$conf"
check 0 "$conf:2: unknown key 'frobnicate'"
# every bad line is said, exit 78
printf 'font-size=huge\nsb-size=-1\n' >"$conf"
check 78 "$conf:1: font-size: invalid value 'huge'"
grep -qF "$conf:2: sb-size" "$dir/err" || { echo "FAIL: the second bad line is not said"; cat "$dir/err"; fail=1; }
# the command line is checked too
: >"$conf"
check 78 "--font-size: invalid value '0'" --font-size=0
# a font-file that cannot be opened: 78, as the start on a display exits (tests/service/exit-status.py)
check 78 "cannot set up the font" --font-engine=psf --font-file="$dir/none.psf"
check 78 "cannot set up the font" --font-file="$dir/none.ttf"
# headless too: the same checks, and nothing started either
check 0 "" --backend=headless
# Every palette the configuration accepts is one the renderer loads, on both backends: a start that could not load
# it exited 1 (now 78, main.c), and --check-config loads it as a start does. The names come from the error that
# lists them, so a palette added to the option table is tried too.
: >"$conf"
names=$("$bin" --palette=nosuch 2>&1 | sed -n 's/.*expected one of: \([^)]*\)).*/\1/p' | tr -d ',')
[ -n "$names" ] || { echo "FAIL: no palette names in the error of --palette=nosuch"; fail=1; }
for p in $names; do
	check 0 "" --palette="$p"
	check 0 "" --palette="$p" --backend=headless
done
# --check-config takes no value
"$bin" --check-config=yes >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF -- "--check-config takes no value" "$dir/err"; then
	echo "FAIL: --check-config=yes: exit $rc"; cat "$dir/err"; fail=1
fi
# it is no key of the file
printf 'check-config\n' >"$conf"
check 0 "'check-config' is a command-line option, ignored in a file"

[ $fail -eq 0 ] && echo "all check-config checks passed"
exit $fail
