#!/bin/sh
# tests/kmscon-felis/issue-diff.sh KF-ISSUE-SHOW: the issue text of kmscon-felis (kf-issue-show) against this
# machine's agetty --show-issue -f FILE (util-linux 2.38 on Debian 12), file by file, both run on a terminal made by
# script(1) (agetty asks its standard input for its settings; \b is that terminal's speed). agetty's output passes
# the terminal's ONLCR, so its CR LF is compared as LF. Then the checks agetty cannot be compared on: the cases
# where kmscon-felis differs on purpose (issue.h), and the notice for a file that cannot be read.
show=$1
agetty=$(command -v agetty || echo /usr/sbin/agetty /sbin/agetty | tr ' ' '\n' | while read -r a; do [ -x "$a" ] && echo "$a" && break; done)
if [ -z "$agetty" ] || [ ! -x "$agetty" ] || ! command -v script >/dev/null; then
	echo "SKIP: no agetty or no script(1) on this machine (util-linux, bsdutils)"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
export LC_ALL=C TZ=UTC

# on_tty OUT CMD...: CMD's standard output, run with a terminal as its standard input, CR LF made LF.
on_tty() {
	out=$1
	shift
	script -qec "$*" /dev/null </dev/null | sed 's/\r$//' >"$out"
}

n=0
# case TEXT: one issue file holding TEXT (printf %b), both outputs byte for byte.
case_() {
	n=$((n + 1))
	printf '%b' "$1" >"$dir/f$n"
	on_tty "$dir/a$n" "$agetty" --show-issue -f "$dir/f$n"
	on_tty "$dir/k$n" "$show" "$dir/f$n"
	if ! cmp -s "$dir/a$n" "$dir/k$n"; then
		echo "FAIL: '$1': agetty and kmscon-felis differ:"
		od -c "$dir/a$n" | head -5
		od -c "$dir/k$n" | head -5
		fail=1
	fi
}

case_ 'Debian GNU/Linux 12 \\n \\l\n\n'
case_ '\\s \\n \\r \\v \\m\n'
case_ '[\\o] [\\O] [\\b]\n'
case_ '\\S|\\S{ID}|\\S{VERSION_CODENAME}|\\S{ANSI_COLOR}|\\S{NOPE}|\\S{PRETTY_NAME}\n'
case_ '\\e[1mbold\\e[0m \\e{red}r\\e{green}g\\e{blue}b\\e{reset} \\e{nosuch}x\n'
case_ '\\e{black}\\e{blink}\\e{bold}\\e{brown}\\e{cyan}\\e{darkgray}\\e{gray}\\e{halfbright}\n'
case_ '\\e{lightblue}\\e{lightcyan}\\e{lightgreen}\\e{lightmagenta}\\e{lightred}\\e{magenta}\\e{reverse}\\e{yellow}\n'
case_ '\\4 \\6 \\4{lo} \\6{lo} [\\4{nosuchif0}] [\\6{nosuchif0}]\n'
case_ '\\u|\\U\n'
case_ '\\d\n'
case_ '\\\\ \\q \\Z \\% \\{ \\}\n'
case_ 'unterminated \\S{ID and\nthe rest\n'
case_ 'unterminated \\e{red\n'
case_ 'cut \\S{AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA} end\n'
case_ 'no newline at the end'
case_ 'UTF-8 \303\251\342\202\254 and \\\303\251 and a tab\there\n'

# \d in the locale of the environment, as agetty sets its own from it (LANG from locale.conf under systemd): the
# German names, from a locale made here (this machine may have only C). Not vacuous: agetty's must differ from C's.
mkdir -p "$dir/loc"
if localedef -i de_DE -f UTF-8 "$dir/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	printf '\\d\n' >"$dir/dc"
	on_tty "$dir/adc" "$agetty" --show-issue -f "$dir/dc"
	unset LC_ALL
	export LOCPATH="$dir/loc" LANG=de_DE.UTF-8
	on_tty "$dir/ade" "$agetty" --show-issue -f "$dir/dc"
	# under ASan: glibc's newlocale loses 25 bytes when LOCPATH is set (lsan-locale.supp)
	export LSAN_OPTIONS="suppressions=$(dirname "$0")/lsan-locale.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
	case_ '\\d\n'
	unset LOCPATH LANG LSAN_OPTIONS
	export LC_ALL=C
	if cmp -s "$dir/adc" "$dir/ade"; then
		echo "FAIL: agetty's \\d is the same in de_DE.UTF-8 as in C: the locale was not taken"; fail=1
	fi
else
	echo "(no localedef or no de_DE source: \\d in another locale not compared)"
	# CI installs them (tools/install-deps.sh: locales): there, the comparison not made is a failure
	if [ "${CI:-}" = true ]; then
		echo "FAIL: CI must compare \\d in de_DE.UTF-8 (is the locales package installed?)"; fail=1
	fi
fi

# A directory and a list: issue.d's version order and filter, a missing entry skipped.
mkdir -p "$dir/d"
printf 'ten\n' >"$dir/d/10.issue"
printf 'nine \\l\n' >"$dir/d/9.issue"
printf 'txt\n' >"$dir/d/x.txt"
printf 'hidden\n' >"$dir/d/.h.issue"
printf 'one\n' >"$dir/one"
list="$dir/one:$dir/missing::$dir/d:$dir/one"
on_tty "$dir/al" "$agetty" --show-issue -f "$list"
on_tty "$dir/kl" "$show" "$list"
if ! cmp -s "$dir/al" "$dir/kl"; then
	echo "FAIL: the list $list differs:"; cat "$dir/al"; echo ---; cat "$dir/kl"; fail=1
fi
# The default search (this machine's /etc/issue), when there is one.
if [ -e /etc/issue ] || [ -e /run/issue ] || [ -e /usr/lib/issue ]; then
	on_tty "$dir/ad" "$agetty" --show-issue
	on_tty "$dir/kd" "$show"
	if ! cmp -s "$dir/ad" "$dir/kd"; then
		echo "FAIL: the default files differ:"; od -c "$dir/ad" | head; od -c "$dir/kd" | head; fail=1
	fi
fi
echo "compared $n files, a list and the default files with $agetty"

# On purpose not agetty's (issue.h): a trailing backslash (agetty writes 0xff), \e{lightgray} and \e{white}
# (agetty 2.38 writes nothing: its name table is not sorted for its binary search), \S{} (agetty loops for ever).
printf 'end\\' >"$dir/t1"
printf '\\e{lightgray}\\e{white}' >"$dir/t2"
printf 'a\\S{}b' >"$dir/t3"
for t in "t1:end" "t2:$(printf '\033[37m\033[1;37m')" "t3:ab"; do
	f=${t%%:*}
	want=${t#*:}
	got=$(timeout 10 "$show" "$dir/$f")
	if [ "$got" != "$want" ]; then
		echo "FAIL: $f: '$(printf %s "$got" | od -c)' want '$want'"; fail=1
	fi
done
# A FIFO, a directory where a file is expected and a file that cannot be read are skipped; one notice names the
# first (the rest at debug level); nothing waits for the FIFO.
mkfifo "$dir/fifo"
mkdir -p "$dir/root/etc/issue" "$dir/root/run" && printf 'run\n' >"$dir/root/run/issue"
got=$(timeout 10 "$show" "$dir/fifo:$dir/one:/dev/null" 2>"$dir/err")
rc=$?
if [ $rc -ne 0 ] || [ "$got" != one ] || [ "$(grep -c 'skipped' "$dir/err")" -ne 1 ] ||
	! grep -qF "issue file $dir/fifo skipped: not a regular file" "$dir/err"; then
	echo "FAIL: FIFO in the list: rc $rc, '$got'"; cat "$dir/err"; fail=1
fi
got=$(timeout 10 "$show" --root "$dir/root" 2>"$dir/err")
if [ -n "$got" ] || ! grep -qF "issue file $dir/root/etc/issue skipped: a directory" "$dir/err"; then
	echo "FAIL: /etc/issue a directory: '$got'"; cat "$dir/err"; fail=1
fi
[ $fail -eq 0 ] && echo "all issue-diff checks passed"
exit $fail
