#!/bin/sh
# tests/config/config-cli.sh BINARY: a real process reading real files. Every kind of bad line exits 78 with an
# error naming file, line and the expected form, before anything starts; an unknown key only warns; --help and
# --version exit 0. BINARY is kf-config-cli (the start-up path of main.c) or kmscon-felis itself.
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
conf="$dir/kmscon-felis.conf"

# expect_bad LINE EXPECT TEXT: TEXT as the file must exit 78 and say "$conf:LINE:" and EXPECT.
expect_bad() {
	printf '%b' "$3" >"$conf"
	# --backend=headless --login -- /bin/false: should a broken binary start anyway, it ends at once.
	"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/false >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne 78 ]; then
		echo "FAIL: '$3' exited $rc, expected 78"; cat "$dir/err"; fail=1; return
	fi
	if ! grep -qF "$conf:$1:" "$dir/err" || ! grep -qF -- "$2" "$dir/err"; then
		echo "FAIL: '$3': stderr lacks '$conf:$1:' or '$2':"; cat "$dir/err"; fail=1; return
	fi
	if [ -s "$dir/out" ]; then
		echo "FAIL: '$3': something ran: $(cat "$dir/out")"; fail=1
	fi
}

expect_bad 1 "expected an integer" 'font-size=huge\n'
expect_bad 2 "expected an integer" '# comment\nsb-size=-1\n'
expect_bad 1 "malformed line" 'font size 12\n'
expect_bad 3 "malformed line" 'mouse\n\n= 12\n'
expect_bad 1 "expected KEY, no-KEY" 'mouse=sometimes\n'
expect_bad 1 "takes no value" 'no-mouse=off\n'
expect_bad 1 "needs a value" 'term\n'
expect_bad 1 "expected one of" 'font-engine=pangolin\n'
expect_bad 1 "expected R,G,B" 'palette-black=0,0\n'
expect_bad 1 "WIDTHxHEIGHT" 'mode=big\n'
expect_bad 2 "expected KEY, no-KEY" 'mode=800x600\nuse-original-mode=sometimes\n'
expect_bad 1 "keysym" 'grab-page-up=<Shift>Nope\n'
expect_bad 1 "unterminated" 'font-name="DejaVu\n'
expect_bad 2 "expected KEY, no-KEY or KEY=auto|on|off" 'login=/bin/sh\nissue=sometimes\n'

# A configuration file that is no file, or too large, is named with what is wrong with it (a directory was "not a
# regular file of at most 1048576 bytes", which left the user to guess which of the two).
rm -f "$conf"; mkdir "$conf"
"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/false >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF "$conf is a directory, not a file" "$dir/err"; then
	echo "FAIL: a directory as the file: exit $rc"; cat "$dir/err"; fail=1
fi
rmdir "$conf"
# A FIFO there (a named pipe nobody writes): the program waited in open(2) for a writer, for ever.
mkfifo "$conf"
timeout 10 "$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/false >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF "$conf is a device, FIFO or socket, not a file" "$dir/err"; then
	echo "FAIL: a FIFO as the file: exit $rc (124: hung)"; cat "$dir/err"; fail=1
fi
rm -f "$conf"
# One that cannot be opened for another reason than its absence (here a symlink to itself, ELOOP; root reads
# any mode) is an error with the reason, not the defaults of a missing file.
ln -s "$conf" "$conf"
"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/false >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF "cannot open configuration file $conf: Too many levels of symbolic links" "$dir/err"; then
	echo "FAIL: a file that cannot be opened: exit $rc"; cat "$dir/err"; fail=1
fi
rm -f "$conf"
head -c 1048577 /dev/zero | tr '\0' '#' >"$conf"
"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/false >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF "$conf is 1048577 bytes, more than the 1048576" "$dir/err"; then
	echo "FAIL: a file of 1 MiB + 1: exit $rc"; cat "$dir/err"; fail=1
fi

# A rotation without a display warns that it is ignored (headless has no picture to turn).
: >"$conf"
"$bin" -c "$dir" --backend=headless --rotate=left --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 0 ] || ! grep -qF "rotate only works with backend=drm, ignored" "$dir/err"; then
	echo "FAIL: rotate with backend=headless: exit $rc, no warning"; cat "$dir/err"; fail=1
fi

# An unknown key warns with file and line but the rest applies.
printf 'font-size=20\nfrobnicate=1\n' >"$conf"
"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 0 ] || ! grep -qF "$conf:2: unknown key 'frobnicate'" "$dir/err"; then
	echo "FAIL: unknown key: exit $rc"; cat "$dir/err"; fail=1
fi

# A key set twice in the file: the last one wins, as before, and the repeat is said with both lines (a file
# edited over years had font-size twice, and the first one, the one being changed, did nothing without a word).
# The same key on the command line over the file is no repeat.
printf 'font-size=20\nsb-size=100\n# later\nfont-size=24\n' >"$conf"
"$bin" -c "$dir" --font-size=30 --backend=headless --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 0 ] || ! grep -qF "$conf:4: 'font-size' set again (the value of line 1 is replaced)" "$dir/err" ||
	[ "$(grep -c 'set again' "$dir/err")" -ne 1 ]; then
	echo "FAIL: a key set twice: exit $rc"; cat "$dir/err"; fail=1
fi

# The headless testing aids on another backend warn that they are ignored, all of them (--input-fifo and
# --size were ignored without a word: a display's grid is the display's size). Only with kf-config-cli: the program itself would start that backend.
case $bin in
*kf-config-cli)
	: >"$conf"
	"$bin" -c "$dir" --backend=drm --dump-screen="$dir/screen" --input-fifo="$dir/fifo" --size=132x43 >"$dir/out" 2>"$dir/err"
	rc=$?
	for key in dump-screen input-fifo size; do
		if [ $rc -ne 0 ] || ! grep -qF "$key only works with backend=headless, ignored" "$dir/err"; then
			echo "FAIL: $key with backend=drm: exit $rc, no warning:"; cat "$dir/err"; fail=1
		fi
	done
	# And the other way: display-wait has no display to wait for headless (kmscon-felis.conf(5): "Only with
	# backend=drm"), as rotate; it was ignored without a word.
	"$bin" -c "$dir" --backend=headless --display-wait=20 >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne 0 ] || ! grep -qF "display-wait only works with backend=drm, ignored" "$dir/err"; then
		echo "FAIL: display-wait with backend=headless: exit $rc, no warning:"; cat "$dir/err"; fail=1
	fi
	;;
esac

# A bad command line exits 78 as well.
"$bin" --font-size=0 >/dev/null 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF -- "--font-size: invalid value '0'" "$dir/err"; then
	echo "FAIL: bad option: exit $rc"; cat "$dir/err"; fail=1
fi

# And a bool given a value it does not take (use-original-mode was a kmscon key ignored whatever its value).
for arg in --use-original-mode=maybe --no-use-original-mode=on; do
	"$bin" $arg --backend=headless >/dev/null 2>"$dir/err"
	rc=$?
	if [ $rc -ne 78 ] || ! grep -qF -- "${arg%%=*}" "$dir/err"; then
		echo "FAIL: $arg: exit $rc"; cat "$dir/err"; fail=1
	fi
done

# So does a rotation that is none of the four (it was ignored with a warning before rotation was real).
"$bin" --rotate=sideways --backend=headless >/dev/null 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF -- "--rotate: invalid value 'sideways' (expected one of: normal, right, inverted" "$dir/err"; then
	echo "FAIL: bad --rotate: exit $rc"; cat "$dir/err"; fail=1
fi

# bell: a value that is none of its three (or kmscon's boolean forms) exits 78 with the expected form, in the file
# and on the command line (it was a kmscon key accepted and ignored whatever its value); the good forms run.
expect_bad 2 "bell: invalid value 'loud' (expected audible, visual or none" '# beeps\nbell=loud\n'
expect_bad 1 "takes no value" 'no-bell=visual\n'
for arg in --bell=loud "--bell loud" --no-bell=none; do
	"$bin" $arg --backend=headless >/dev/null 2>"$dir/err"
	rc=$?
	if [ $rc -ne 78 ] || ! grep -qF -- "--bell" "$dir/err"; then
		echo "FAIL: $arg: exit $rc"; cat "$dir/err"; fail=1
	fi
done
: >"$conf"
for arg in --bell=visual "--bell none" --bell --no-bell --bell=false; do
	"$bin" -c "$dir" $arg --backend=headless --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne 0 ] || grep -qF "no effect" "$dir/err"; then
		echo "FAIL: $arg: exit $rc"; cat "$dir/err"; fail=1
	fi
done
"$bin" --help >"$dir/out" 2>&1 && grep -qF -- "--[no-]bell[=MODE]" "$dir/out" || { echo "FAIL: --help lacks --[no-]bell[=MODE]"; fail=1; }

# An empty directory is a bad argument: it used to read ./kmscon-felis.conf from wherever the program was
# started. The bad file in the current directory must not be read.
printf 'font-size=huge\n' >"$conf"
for flag in --configdir -c; do
	(cd "$dir" && "$bin" $flag "" --backend=headless --oneshot --login -- /bin/false) >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne 78 ] || ! grep -qF -- "--configdir: empty directory" "$dir/err" ||
		grep -qF "kmscon-felis.conf:" "$dir/err" || [ -s "$dir/out" ]; then
		echo "FAIL: $flag '': exit $rc"; cat "$dir/err"; fail=1
	fi
done

# A --configdir given by hand where there is no kmscon-felis.conf (a typo, or kmscon's /etc/kmscon with its
# kmscon.conf): said with the path, as every setting of the file the admin meant is silently not in force. It
# started with the defaults and nothing above debug level. Still no error: the defaults are a configuration.
for where in "$dir/nosuch" "$dir/empty"; do
	mkdir -p "$dir/empty"
	"$bin" -c "$where" --backend=headless --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc -ne 0 ] || ! grep -qF "warning" "$dir/err" || ! grep -qF "$where/kmscon-felis.conf" "$dir/err"; then
		echo "FAIL: -c $where (no kmscon-felis.conf there): exit $rc, no warning naming the file:"
		cat "$dir/err"; fail=1
	fi
done

# issue and issue-path are keys now, not kmscon keys ignored with a warning; issue takes auto, on or off.
printf 'issue=off\nissue-path=/etc/issue:/run/issue.d\n' >"$conf"
"$bin" -c "$dir" --backend=headless --oneshot --login -- /bin/true >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 0 ] || grep -qF "has no effect" "$dir/err"; then
	echo "FAIL: issue keys in the file: exit $rc"; cat "$dir/err"; fail=1
fi
"$bin" --issue=maybe --backend=headless >/dev/null 2>"$dir/err"
rc=$?
if [ $rc -ne 78 ] || ! grep -qF -- "--issue: invalid value 'maybe' (expected KEY, no-KEY or KEY=auto|on|off" "$dir/err"; then
	echo "FAIL: --issue=maybe: exit $rc"; cat "$dir/err"; fail=1
fi
case $bin in
*kf-config-cli)
	: >"$conf"
	"$bin" -c "$dir" >"$dir/out" 2>"$dir/err"
	grep -qx 'issue=auto' "$dir/out" && grep -qx 'issue-path=' "$dir/out" ||
		{ echo "FAIL: issue defaults:"; grep issue "$dir/out"; fail=1; }
	"$bin" -c "$dir" --no-issue --issue-path=/x:/y >"$dir/out" 2>"$dir/err"
	grep -qx 'no-issue' "$dir/out" && grep -qx 'issue-path=/x:/y' "$dir/out" ||
		{ echo "FAIL: --no-issue --issue-path:"; grep issue "$dir/out"; fail=1; }
	;;
esac

# --help and --version exit 0 and print.
"$bin" --help >"$dir/out" 2>&1 && grep -q -- "--font-size" "$dir/out" || { echo "FAIL: --help"; fail=1; }
"$bin" --version >"$dir/out" 2>&1 && grep -q "^kmscon-felis [0-9]" "$dir/out" || { echo "FAIL: --version"; fail=1; }
# Output that cannot be written (a full disk) is a failure with a word, as in coreutils: it exited 0 with
# nothing written, and a script saving --version or --help got an empty file it took for the answer.
for flag in --help --version; do
	"$bin" $flag >/dev/full 2>"$dir/err"
	rc=$?
	if [ $rc -ne 1 ] || ! grep -qF "No space left on device" "$dir/err"; then
		echo "FAIL: $flag >/dev/full: exit $rc, stderr: $(cat "$dir/err")"; fail=1
	fi
done
[ $fail -eq 0 ] && echo "all config-cli checks passed"
exit $fail
