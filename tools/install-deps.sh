#!/usr/bin/env bash
# Installs every Debian 12 package kmscon-felis needs to build, test, benchmark and run its QEMU guest.
# Safe to run again: it only calls apt-get when something is missing. Needs root (or sudo).
set -euo pipefail

PKGS=(
  # build
  build-essential meson ninja-build pkg-config python3 scdoc clang libclang-rt-14-dev
  # libraries
  libdrm-dev libinput-dev libudev-dev libxkbcommon-dev libseat-dev libfreetype-dev libfontconfig-dev
  libsystemd-dev libpng-dev zlib1g-dev libharfbuzz-dev
  # data: Unicode tables, keymaps, fonts
  unicode-data xkb-data fonts-dejavu-core fonts-noto-color-emoji console-setup-linux
  # tests: X11 bitmap fonts (PCF) for the render tests of bitmap-only FreeType fonts (bold, italic, zoom, curly),
  # Terminus's OTB (nine strikes) for the zoom to a font's own larger strike (test-font-open)
  xfonts-base fonts-terminus-otb
  # tests: peers for benchmarks, the VM guest, man page checks, unit verification
  libtsm-dev libvterm-dev qemu-system-x86 qemu-user qemu-utils busybox-static udev systemd seatd kmscon
  man-db valgrind imagemagick cpio kmod xz-utils zstd fontconfig python3-fonttools
  # tests: the issue banner against agetty and script (util-linux, bsdutils), its resolver test (ip, unshare),
  # \d in another locale (locales: the de_DE source for localedef)
  util-linux bsdutils iproute2 locales
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
