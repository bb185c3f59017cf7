#!/bin/sh
# tests/service/install-check.sh BUILDDIR PREFIX BINDIR MANDIR UNITDIR DOCDIR [EXTRA_FILE...]
# `meson install --destdir` puts every file where it belongs, and the installed units pass
# `systemd-analyze verify` (its own checks: syntax, dependencies, executables, Documentation= man pages).
# The units name installed paths (/usr/local/bin/kmscon-felis), which exist only under the destdir here, so
# they are verified as copies pointing into the destdir; MANPATH points man at the installed pages.
set -u
build=$1 prefix=$2 bindir=$3 mandir=$4 unitdir=$5 docdir=$6
shift 6
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail=0

meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$dest.log" 2>&1 || {
	echo "FAIL: meson install"; cat "$dest.log"; rm -f "$dest.log"; exit 1; }
rm -f "$dest.log"
for f in "$bindir/kmscon-felis" "$unitdir/kmscon-felis@.service" "$mandir/man1/kmscon-felis.1" \
	"$mandir/man5/kmscon-felis.conf.5" "$docdir/examples/kmscon-felis-kiosk.service" "$@"; do
	if [ -f "$dest$f" ]; then
		echo "installed $f"
	else
		echo "FAIL: $f not installed"; fail=1
	fi
done
[ -x "$dest$bindir/kmscon-felis" ] || { echo "FAIL: binary not executable"; fail=1; }

if ! command -v systemd-analyze >/dev/null; then
	echo "systemd-analyze missing"; exit 77
fi
mkdir "$dest/verify"
# The template as one instance, and the kiosk example with an application that exists.
sed "s|$bindir/kmscon-felis|$dest$bindir/kmscon-felis|" "$dest$unitdir/kmscon-felis@.service" \
	>"$dest/verify/kmscon-felis@tty2.service"
sed -e "s|$bindir/kmscon-felis|$dest$bindir/kmscon-felis|" -e "s|/usr/bin/app|/bin/true|" \
	"$dest$docdir/examples/kmscon-felis-kiosk.service" >"$dest/verify/kmscon-felis-kiosk.service"
for u in "$dest/verify/"*.service; do
	if MANPATH="$dest$mandir" SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$u" >"$dest/out" 2>&1 &&
		! grep -v "^$" "$dest/out" | grep -q .; then
		echo "verified $(basename "$u")"
	else
		echo "FAIL: systemd-analyze verify $(basename "$u"):"; cat "$dest/out"; fail=1
	fi
done
# The unit must really replace getty: these lines are the contract with systemd.
for want in "Conflicts=getty@%i.service" "OnFailure=getty@%i.service" "Type=notify" "WatchdogSec=" \
	"Restart=always" "After=getty@%i.service" "Before=getty.target" "ExecStart=$bindir/kmscon-felis --vt=%I --no-activate-vt"; do
	grep -qxF -- "$want" "$dest$unitdir/kmscon-felis@.service" ||
		grep -q -- "^$want" "$dest$unitdir/kmscon-felis@.service" || { echo "FAIL: unit lacks $want"; fail=1; }
done
# The getty replacement never takes the screen (getty@ does not switch VTs), the kiosk does, and locks it.
grep -q -- "^ExecStart=.*--vt=1 --activate-vt --no-switchvt" "$dest$docdir/examples/kmscon-felis-kiosk.service" ||
	{ echo "FAIL: the kiosk example does not activate tty1 and lock it"; fail=1; }
# docs/seat.md: no PAMName= in any installed unit (the user's login keeps its own logind session).
for u in $(find "$dest" -name "*.service" ! -path "$dest/verify/*"); do
	if grep -n "^[[:space:]]*PAMName[[:space:]]*=" "$u"; then
		echo "FAIL: ${u#"$dest"} sets PAMName="; fail=1
	else
		echo "no PAMName= in ${u#"$dest"}"
	fi
done
exit $fail
