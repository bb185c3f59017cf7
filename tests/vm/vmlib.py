#!/usr/bin/env python3
"""QEMU end-to-end harness of kmscon-felis (Python 3 standard library only).

Builds a guest from Debian packages (kernel + modules, busybox-static, the shared libraries of our binaries,
fonts, xkb data, udev, seatd, kmscon), boots it under QEMU (TCG unless KF_VM_KVM=1) with a virtio-gpu or bochs
display on a hot-pluggable PCIe root port, virtio keyboard and mouse, and drives it over the serial port (a
command loop in the guest's /init) and QMP (keys, mouse, screendump, device_del/device_add).

    from vmlib import build_guest, VM, Image
    guest = build_guest()                       # cached in tests/vm/out/, debs in tests/vm/cache/
    with VM(guest, gpu="virtio") as vm:         # boots, waits for "KF-VM: BOOTED"
        print(vm.sh("ls /dev/dri"))             # run a shell script in the guest, get its output
        vm.sh("kmscon-felis --backend=drm >/tmp/kf.log 2>&1 &")
        img = vm.screendump()                   # an Image of the scanned-out frame
    # QEMU is killed on exit, whatever happened.

See tests/vm/README.md for the whole interface, the environment variables and the CLI (python3 vmlib.py --help).
"""

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = Path(os.environ.get("KF_VM_CACHE", HERE / "cache"))
OUT = Path(os.environ.get("KF_VM_OUT", HERE / "out"))
GUEST_SRC = HERE / "guest"

# Debian packages every guest gets, and the ones a feature adds. Their files are extracted with dpkg -x; the
# shared libraries any included ELF file needs are then found with ldd and taken from their own packages.
BASE_PACKAGES = ["busybox-static", "fonts-dejavu-core", "fontconfig-config", "xkb-data"]
FEATURE_PACKAGES = {
    "udev": ["udev", "libinput-bin"],
    "seatd": ["seatd"],
    "kmscon": ["kmscon"],
}
# Files taken from a package (glob patterns relative to its root); a package not listed gives all its files
# except documentation.
PACKAGE_FILES = {
    "udev": ["lib/systemd/systemd-udevd", "bin/udevadm", "lib/udev/*", "lib/udev/rules.d/*"],
    "libinput-bin": ["lib/udev/*", "lib/udev/rules.d/*", "usr/share/libinput/*"],
    "seatd": ["usr/sbin/seatd", "usr/bin/seatd-launch"],
    "kmscon": ["usr/bin/kmscon", "usr/libexec/kmscon/kmscon", "usr/lib/x86_64-linux-gnu/kmscon/*"],
    "busybox-static": ["bin/busybox"],
}
MODULES = ["virtio_pci", "virtio-gpu", "bochs", "virtio_input", "evdev", "xhci-pci", "usbhid", "hid-generic",
           "virtio_console", "uinput"]
KERNEL_CMDLINE = "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init i8042.nokbd i8042.noaux"
# Bump when build_guest() changes what goes into the initramfs (the cache key does not hash this file).
BUILDER_VERSION = "2"
DEFAULT_TIMEOUT = float(os.environ.get("KF_VM_TIMEOUT_SCALE", "1"))


class VMError(Exception):
    """A harness failure; str() carries the reason and, once a VM ran, the tail of its serial log."""


def log(msg):
    if os.environ.get("KF_VM_VERBOSE"):
        print("vmlib: " + msg, file=sys.stderr, flush=True)


def _run(cmd, **kw):
    kw.setdefault("check", True)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    try:
        return subprocess.run(cmd, **kw)
    except subprocess.CalledProcessError as e:
        raise VMError("command failed: %s\n%s%s" % (" ".join(map(str, cmd)), e.stdout or "", e.stderr or ""))


# ---------------------------------------------------------------------------------------------------------
# Debian packages

_apt_updated = False


def deb_download(pkg):
    """Returns the path of PKG's .deb in CACHE/debs, downloading it with apt-get download the first time."""
    global _apt_updated
    d = CACHE / "debs"
    d.mkdir(parents=True, exist_ok=True)
    found = sorted(d.glob(pkg + "_*.deb"))
    if found:
        return found[-1]
    log("apt-get download " + pkg)
    for attempt in range(2):
        r = subprocess.run(["apt-get", "download", "-q", pkg], cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        found = sorted(d.glob(pkg + "_*.deb"))
        if r.returncode == 0 and found:
            return found[-1]
        if attempt == 0 and not _apt_updated:
            _apt_updated = True
            subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    raise VMError("apt-get download %s failed:\n%s" % (pkg, r.stdout))


def deb_extract(pkg):
    """Returns the directory PKG is unpacked in (dpkg -x into CACHE/root/PKG, once)."""
    deb = deb_download(pkg)
    root = CACHE / "root" / pkg
    stamp = root / ".kf-extracted"
    if stamp.exists() and stamp.read_text() == deb.name:
        return root
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    _run(["dpkg-deb", "-x", str(deb), str(root)])
    stamp.write_text(deb.name)
    return root


def kernel_package():
    """The versioned kernel package linux-image-amd64 depends on, e.g. linux-image-6.1.0-57-amd64."""
    cached = CACHE / "kernel-package"
    if cached.exists():
        return cached.read_text().strip()
    r = _run(["apt-cache", "depends", "linux-image-amd64"])
    m = re.search(r"Depends: (linux-image-[0-9][^\s]*)", r.stdout)
    if not m:
        subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        r = _run(["apt-cache", "depends", "linux-image-amd64"])
        m = re.search(r"Depends: (linux-image-[0-9][^\s]*)", r.stdout)
    if not m:
        raise VMError("cannot find the kernel package linux-image-amd64 depends on:\n" + r.stdout)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(m.group(1))
    return m.group(1)


def kernel():
    """Returns (vmlinuz path, modules dir, version) of the Debian kernel, extracted and depmod'ed in the cache."""
    pkg = kernel_package()
    root = deb_extract(pkg)
    vmlinuz = sorted((root / "boot").glob("vmlinuz-*"))
    if not vmlinuz:
        raise VMError("no vmlinuz in " + pkg)
    kver = vmlinuz[-1].name[len("vmlinuz-"):]
    moddir = root / "lib/modules" / kver
    if not (moddir / "modules.dep").exists():
        _run(["depmod", "-b", str(root), kver])
    return vmlinuz[-1], moddir, kver


def module_closure(moddir, names):
    """Module paths (relative to moddir) for NAMES and their dependencies, each after its dependencies."""
    deps = {}
    byname = {}
    for line in (moddir / "modules.dep").read_text().splitlines():
        mod, _, rest = line.partition(":")
        deps[mod] = rest.split()
        base = os.path.basename(mod).split(".ko")[0]
        byname[base] = mod
        byname[base.replace("-", "_")] = mod
    order = []

    def visit(mod):
        if mod in order:
            return
        for d in reversed(deps.get(mod, [])):
            visit(d)
        order.append(mod)

    for n in names:
        mod = byname.get(n) or byname.get(n.replace("-", "_"))
        if mod is None:
            continue  # built into this kernel
        visit(mod)
    return order


_lib_pkg_cache = None


def lib_package(path):
    """The Debian package that ships the host library PATH (dpkg -S, trying the /usr-merged spellings), as
    (package, path as dpkg knows it). Remembered in CACHE/lib-packages.json: dpkg -S is slow."""
    global _lib_pkg_cache
    cache_file = CACHE / "lib-packages.json"
    if _lib_pkg_cache is None:
        try:
            _lib_pkg_cache = json.loads(cache_file.read_text())
        except (OSError, ValueError):
            _lib_pkg_cache = {}
    if path in _lib_pkg_cache:
        return tuple(_lib_pkg_cache[path])
    cands = [path, os.path.realpath(path)]
    for c in list(cands):
        if c.startswith("/usr/lib/"):
            cands.append(c[4:])
        elif c.startswith("/lib/") or c.startswith("/lib64/"):
            cands.append("/usr" + c)
    for c in cands:
        r = subprocess.run(["dpkg", "-S", c], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if r.returncode == 0:
            pkg = r.stdout.split(":")[0].strip()
            _lib_pkg_cache[path] = (pkg, c)
            CACHE.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(json.dumps(_lib_pkg_cache, indent=0))
            return pkg, c
    raise VMError("no Debian package ships %s (needed by a guest binary)" % path)


def resolve_in_root(root, path, depth=0):
    """Host path of guest PATH inside the extracted package ROOT, following symlinks within ROOT (an absolute
    link target means ROOT's own tree, never the host's); None if it is not there."""
    parts = [p for p in path.split("/") if p]
    cur = Path(root)
    for i, part in enumerate(parts):
        nxt = cur / part
        if nxt.is_symlink():
            if depth > 20:
                return None
            target = os.readlink(nxt)
            base = "/" if target.startswith("/") else "/" + str(cur.relative_to(root))
            rest = "/".join(parts[i + 1:])
            return resolve_in_root(root, os.path.normpath(os.path.join(base, target, rest)), depth + 1)
        if not nxt.exists():
            return None
        cur = nxt
    return cur


def is_elf(p):
    try:
        with open(p, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def ldd(p):
    """Host paths of the shared libraries ELF file P needs (ldd), loader included; [] for static files."""
    r = subprocess.run(["ldd", str(p)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    libs = []
    for line in r.stdout.splitlines():
        line = line.strip()
        m = re.match(r"\S+ => (/\S+)", line) or re.match(r"(/\S+) \(", line)
        if m:
            libs.append(m.group(1))
        elif "not found" in line:
            raise VMError("ldd %s: %s" % (p, line))
    return libs


# ---------------------------------------------------------------------------------------------------------
# cpio (newc) writer

class Cpio:
    def __init__(self, f):
        self.f = f
        self.ino = 1000
        self.dirs = set()

    def _hdr(self, name, mode, size, nlink=1, rdev=(0, 0)):
        self.ino += 1
        name_b = name.encode() + b"\0"
        hdr = b"070701" + b"".join(b"%08X" % v for v in (
            self.ino, mode, 0, 0, nlink, 0, size, 0, 0, rdev[0], rdev[1], len(name_b), 0))
        self.f.write(hdr + name_b)
        self._pad(110 + len(name_b))

    def _pad(self, n):
        if n % 4:
            self.f.write(b"\0" * (4 - n % 4))

    def mkdir(self, name, mode=0o755):
        name = name.strip("/")
        if not name or name in self.dirs:
            return
        parent = os.path.dirname(name)
        if parent:
            self.mkdir(parent)
        self.dirs.add(name)
        self._hdr(name, stat.S_IFDIR | mode, 0, nlink=2)

    def file(self, name, data, mode=0o644):
        name = name.strip("/")
        self.mkdir(os.path.dirname(name))
        self._hdr(name, stat.S_IFREG | mode, len(data))
        self.f.write(data)
        self._pad(len(data))

    def symlink(self, name, target):
        name = name.strip("/")
        self.mkdir(os.path.dirname(name))
        t = target.encode()
        self._hdr(name, stat.S_IFLNK | 0o777, len(t))
        self.f.write(t)
        self._pad(len(t))

    def trailer(self):
        self._hdr("TRAILER!!!", 0, 0)
        n = self.f.tell()
        if n % 512:
            self.f.write(b"\0" * (512 - n % 512))


def write_tree(cpio, entries):
    """Writes ENTRIES {guest path: ('file', host path, mode) | ('data', bytes, mode) | ('link', target)}."""
    for name in sorted(entries):
        e = entries[name]
        if e[0] == "link":
            cpio.symlink(name, e[1])
        elif e[0] == "dir":
            cpio.mkdir(name)
        elif e[0] == "data":
            cpio.file(name, e[1], e[2])
        else:
            with open(e[1], "rb") as f:
                cpio.file(name, f.read(), e[2])


# ---------------------------------------------------------------------------------------------------------
# Guest builder

class Guest:
    """A built guest: kernel image and initramfs paths, kernel version and the features it holds."""

    def __init__(self, kernel, initrd, kver, features, files=()):
        self.kernel, self.initrd, self.kver, self.features = kernel, initrd, kver, features
        self.lib_entries = set(files)  # guest paths already in the base initramfs

    def with_files(self, files, name="extra"):
        """A Guest whose initramfs also holds FILES {guest path: host path (str or Path) | bytes}: an extra cpio
        appended to the base one (the kernel unpacks both), so adding test files costs no rebuild. The shared
        libraries of added ELF files come along (from their Debian packages)."""
        OUT.mkdir(parents=True, exist_ok=True)
        entries = {}
        elves = []
        for gpath, src in files.items():
            gpath = gpath.lstrip("/")
            if isinstance(src, bytes) or (isinstance(src, str) and not os.path.exists(src)):
                data = src.encode() if isinstance(src, str) else src
                entries[gpath] = ("data", data, 0o755 if data.startswith(b"#!") else 0o644)
            else:
                mode = os.stat(src).st_mode & 0o777
                entries[gpath] = ("file", str(src), mode)
                if is_elf(src):
                    elves.append(src)
        if elves:
            libs = {}
            add_libraries(libs, elves)
            base = set(getattr(self, "lib_entries", ()))
            for k, v in libs.items():
                if k not in base:
                    entries[k] = v
        fd, path = tempfile.mkstemp(prefix="initrd-%s-" % name, suffix=".cpio", dir=OUT)
        with os.fdopen(fd, "wb") as f:
            with open(self.initrd, "rb") as base:
                shutil.copyfileobj(base, f)
            c = Cpio(f)
            write_tree(c, entries)
            c.trailer()
        g = Guest(self.kernel, Path(path), self.kver, self.features, self.lib_entries | set(entries))
        _temporary_files.append(path)
        return g


def default_build_dir():
    """The meson build tree whose binaries go into the guest: $KF_BUILD_DIR, else build-test (tests/run-all's),
    else build."""
    env = os.environ.get("KF_BUILD_DIR")
    if env:
        return Path(env).resolve()
    for d in ("build-test", "build"):
        if (REPO / d / "build.ninja").exists():
            return REPO / d
    return REPO / "build"


def our_binaries(build_dir):
    """Executables of the project to put in /usr/bin: kmscon-felis, kmscon-felis-replay, if built, and the input
    module kmscon-felis loads from next to itself (kmscon-felis/input-module.h)."""
    out = {}
    for name in ("kmscon-felis", "kmscon-felis-replay", "kmscon-felis-input.so"):
        p = Path(build_dir) / "kmscon-felis" / name
        if p.exists() and os.access(p, os.X_OK):
            out[name] = p
    return out


def guest_helpers():
    """Builds the small static C helpers in tests/vm/guest/*.c (pty-drain, notify-listen...) into OUT/helpers."""
    d = OUT / "helpers"
    d.mkdir(parents=True, exist_ok=True)
    out = {}
    for src in sorted(GUEST_SRC.glob("*.c")):
        exe = d / src.stem
        if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
            cc = os.environ.get("CC", "cc")
            _run([cc, "-std=c11", "-D_GNU_SOURCE", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o",
                  str(exe), str(src), "-lutil"])
        out[src.stem] = exe
    return out


def add_libraries(entries, elves):
    """Adds to ENTRIES the shared libraries the ELF files ELVES need, recursively: resolved with ldd on the
    host, each taken from its own Debian package's extracted tree (never the host's file)."""
    seen = set()
    todo = list(elves)
    while todo:
        e = todo.pop()
        for lib in ldd(e):
            if lib in seen:
                continue
            seen.add(lib)
            guest_path = lib.lstrip("/")
            if guest_path in entries:
                continue
            pkg, dpkg_path = lib_package(lib)
            root = deb_extract(pkg)
            real = resolve_in_root(root, dpkg_path) or resolve_in_root(root, os.path.realpath(lib))
            if real is None:
                raise VMError("%s not found in package %s" % (lib, pkg))
            entries[guest_path] = ("file", str(real), 0o755)
            todo.append(real)


def _select(pkg, root):
    """Files of the extracted package PKG to include: {path relative to root: host path}."""
    pats = PACKAGE_FILES.get(pkg)
    res = {}
    if pats is None:
        for dirpath, _, files in os.walk(root):
            for fn in files:
                full = Path(dirpath) / fn
                rel = str(full.relative_to(root))
                if rel.startswith(("usr/share/doc", "usr/share/man", "usr/share/lintian")) or fn.startswith(".kf"):
                    continue
                res[rel] = full
        return res
    for pat in pats:
        for full in root.glob(pat):
            if full.is_file() or full.is_symlink():
                res[str(full.relative_to(root))] = full
    return res


def font_cache(entries):
    """The fontconfig cache a Debian system has (the fontconfig package's trigger runs fc-cache): fc-cache --sysroot
    over a copy of the guest's /etc/fonts and font directories; returns {guest path: ('data', bytes, mode)} for
    /var/cache/fontconfig. The host's fc-cache is Debian's, the same version as the guest's libfontconfig1. Every
    directory in the initramfs has mtime 0 (Cpio), and so do the copies: fontconfig takes a cache as valid
    for a directory whose mtime is 0 (what reproducible images have), so the guest uses it instead of scanning."""
    prefixes = ("etc/fonts/", "usr/share/fontconfig/", "usr/share/fonts/")
    with tempfile.TemporaryDirectory(prefix="kf-fc-", dir=OUT) as stage:
        st = Path(stage)
        for name, e in entries.items():
            if not name.startswith(prefixes):
                continue
            dst = st / name
            dst.parent.mkdir(parents=True, exist_ok=True)
            if e[0] == "link":
                # Absolute links (conf.d -> /usr/share/fontconfig/...) must stay inside the sysroot.
                dst.symlink_to(str(st) + e[1] if e[1].startswith("/") else e[1])
            elif e[0] == "file":
                shutil.copyfile(e[1], dst)
            elif e[0] == "data":
                dst.write_bytes(e[1])
        for dirpath, _, _ in os.walk(stage):
            os.utime(dirpath, ns=(0, 0))
        r = subprocess.run(["fc-cache", "--sysroot", stage], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        caches = sorted((st / "var/cache/fontconfig").glob("*.cache-*"))
        if r.returncode != 0 or not caches:
            raise VMError("fc-cache --sysroot failed (apt-get install fontconfig):\n%s" % r.stdout)
        return {"var/cache/fontconfig/" + c.name: ("data", c.read_bytes(), 0o644) for c in caches}


def build_guest(features=("udev", "seatd", "kmscon"), build_dir=None, force=False):
    """Builds (or reuses) the guest initramfs with FEATURES (udev, seatd, kmscon) and this tree's binaries.

    The result is cached under OUT by a hash of every input's path, size and mtime; the Debian packages are
    downloaded once into CACHE. Returns a Guest."""
    features = tuple(sorted(set(features)))
    build_dir = Path(build_dir) if build_dir else default_build_dir()
    vmlinuz, moddir, kver = kernel()
    ours = our_binaries(build_dir)
    helpers = guest_helpers()
    pkgs = list(BASE_PACKAGES)
    for f in features:
        if f not in FEATURE_PACKAGES:
            raise VMError("unknown guest feature %r (known: %s)" % (f, ", ".join(FEATURE_PACKAGES)))
        pkgs += FEATURE_PACKAGES[f]

    key = hashlib.sha256()
    key.update(BUILDER_VERSION.encode())
    for p in [vmlinuz, GUEST_SRC / "init"] + list(ours.values()) + list(helpers.values()):
        st = os.stat(p)
        key.update(("%s %d %d\n" % (p, st.st_size, st.st_mtime_ns)).encode())
    key.update(repr((features, pkgs, MODULES, PACKAGE_FILES, KERNEL_CMDLINE)).encode())
    OUT.mkdir(parents=True, exist_ok=True)
    initrd = OUT / ("initrd-%s.cpio" % key.hexdigest()[:16])
    files_list = OUT / (initrd.name + ".files")
    if initrd.exists() and files_list.exists() and not force:
        return Guest(vmlinuz, initrd, kver, features, files_list.read_text().split())

    log("building guest initramfs " + initrd.name)
    entries = {}
    elves = []
    for pkg in pkgs:
        root = deb_extract(pkg)
        for rel, full in _select(pkg, root).items():
            if full.is_symlink():
                entries[rel] = ("link", os.readlink(full))
            else:
                entries[rel] = ("file", str(full), full.stat().st_mode & 0o777)
                if is_elf(full):
                    elves.append(full)
    for name, p in ours.items():
        entries["usr/bin/" + name] = ("file", str(p), 0o755)
        elves.append(p)
    for name, p in helpers.items():
        entries["usr/bin/" + name] = ("file", str(p), 0o755)

    add_libraries(entries, elves)
    entries.update(font_cache(entries))
    (OUT / (initrd.name + ".files")).write_text("\n".join(sorted(entries)) + "\n")

    for rel in module_closure(moddir, MODULES):
        entries["lib/modules/%s/%s" % (kver, rel)] = ("file", str(moddir / rel), 0o644)
    order = "\n".join(module_closure(moddir, MODULES)) + "\n"
    entries["etc/kf/modules"] = ("data", order.encode(), 0o644)
    entries["init"] = ("file", str(GUEST_SRC / "init"), 0o755)
    entries["etc/passwd"] = ("data", b"root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n", 0o644)
    entries["etc/group"] = ("data", b"root:x:0:\ntty:x:5:\ndisk:x:6:\nkmem:x:15:\ninput:x:101:\nvideo:x:44:\n"
                            b"render:x:105:\naudio:x:29:\nseat:x:106:\nnogroup:x:65534:\n", 0o644)
    entries["etc/shadow"] = ("data", b"root::19000:0:99999:7:::\n", 0o600)
    entries["etc/os-release"] = ("data", b"ID=kf-guest\nNAME=kmscon-felis test guest\n", 0o644)
    entries["etc/kf/features"] = ("data", (" ".join(features) + "\n").encode(), 0o644)
    for d in ("root", "proc", "sys", "dev", "run", "tmp", "var/tmp", "mnt", "usr/sbin", "sbin"):
        entries[d] = ("dir",)
    # /lib64 and the usr-merge links: the loader path in our ELF files is /lib64/ld-linux-x86-64.so.2.
    entries["bin/sh"] = ("link", "busybox")
    tmp = initrd.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        c = Cpio(f)
        write_tree(c, entries)
        c.trailer()
    os.replace(tmp, initrd)
    for old in OUT.glob("initrd-*.cpio"):
        if old != initrd and old.stat().st_mtime < time.time() - 3600:
            old.unlink()
            Path(str(old) + ".files").unlink(missing_ok=True)
    return Guest(vmlinuz, initrd, kver, features, sorted(entries))


# ---------------------------------------------------------------------------------------------------------
# Images (PPM and PNG, read and write) and comparison

class Image:
    """An RGB image: width, height and bytes of width*height*3."""

    def __init__(self, width, height, data):
        if len(data) != width * height * 3:
            raise ValueError("image data size %d != %dx%dx3" % (len(data), width, height))
        self.width, self.height, self.data = width, height, bytes(data)

    @staticmethod
    def load(path):
        with open(path, "rb") as f:
            head = f.read(8)
        if head.startswith(b"P6"):
            return Image._load_ppm(path)
        if head == b"\x89PNG\r\n\x1a\n":
            return Image._load_png(path)
        raise VMError("%s: neither PPM (P6) nor PNG" % path)

    @staticmethod
    def _load_ppm(path):
        data = open(path, "rb").read()
        fields = []
        pos = 2
        while len(fields) < 3:
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos) + 1
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(int(data[pos:end]))
            pos = end
        pos += 1
        w, h, maxval = fields
        if maxval != 255:
            raise VMError("%s: PPM maxval %d unsupported" % (path, maxval))
        return Image(w, h, data[pos:pos + w * h * 3])

    @staticmethod
    def _load_png(path):
        data = open(path, "rb").read()
        pos = 8
        idat = b""
        w = h = depth = ctype = interlace = None
        palette = None
        while pos < len(data):
            n, typ = struct.unpack(">I4s", data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + n]
            pos += 12 + n
            if typ == b"IHDR":
                w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            elif typ == b"PLTE":
                palette = chunk
            elif typ == b"IDAT":
                idat += chunk
            elif typ == b"IEND":
                break
        if depth != 8 or interlace or ctype not in (0, 2, 3, 4, 6):
            raise VMError("%s: PNG depth %s colour type %s interlace %s unsupported" % (path, depth, ctype, interlace))
        bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
        raw = zlib.decompress(idat)
        stride = w * bpp
        out = bytearray()
        prev = bytearray(stride)
        p = 0
        for _ in range(h):
            ft = raw[p]
            line = bytearray(raw[p + 1:p + 1 + stride])
            p += 1 + stride
            if ft == 1:
                for i in range(bpp, stride):
                    line[i] = (line[i] + line[i - bpp]) & 255
            elif ft == 2:
                for i in range(stride):
                    line[i] = (line[i] + prev[i]) & 255
            elif ft == 3:
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
            elif ft == 4:
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    line[i] = (line[i] + pr) & 255
            prev = line
            if ctype == 2:
                out += line
            elif ctype == 6:
                for i in range(0, stride, 4):
                    out += line[i:i + 3]
            elif ctype == 0:
                for v in line:
                    out += bytes((v, v, v))
            elif ctype == 4:
                for i in range(0, stride, 2):
                    out += bytes((line[i],) * 3)
            else:
                for v in line:
                    out += palette[v * 3:v * 3 + 3]
        return Image(w, h, bytes(out))

    def save(self, path):
        """Writes PNG when PATH ends in .png, PPM otherwise."""
        path = str(path)
        if path.endswith(".png"):
            stride = self.width * 3
            raw = b"".join(b"\0" + self.data[y * stride:(y + 1) * stride] for y in range(self.height))

            def chunk(t, d):
                return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)

            png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
            open(path, "wb").write(png)
        else:
            open(path, "wb").write(b"P6\n%d %d\n255\n" % (self.width, self.height) + self.data)
        return path

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])

    def crop(self, x, y, w, h):
        if x < 0 or y < 0 or x + w > self.width or y + h > self.height:
            raise VMError("crop %dx%d+%d+%d outside %dx%d image" % (w, h, x, y, self.width, self.height))
        stride = self.width * 3
        rows = [self.data[(y + r) * stride + x * 3:(y + r) * stride + (x + w) * 3] for r in range(h)]
        return Image(w, h, b"".join(rows))

    def colours(self):
        """The set of distinct RGB colours (handy to check 'not all black')."""
        return {self.data[i:i + 3] for i in range(0, len(self.data), 3)}

    def is_uniform(self):
        return self.data == self.data[:3] * (self.width * self.height)

    def diff(self, other, tolerance=0):
        """Compares with OTHER of the same size. Returns (number of pixels whose channels differ by more than
        TOLERANCE, the largest channel difference, bounding box (x0, y0, x1, y1) of those pixels or None)."""
        if (self.width, self.height) != (other.width, other.height):
            raise VMError("image sizes differ: %dx%d vs %dx%d" % (self.width, self.height, other.width, other.height))
        if self.data == other.data:
            return 0, 0, None
        a, b = self.data, other.data
        stride = self.width * 3
        bad = 0
        worst = 0
        box = None
        for y in range(self.height):
            ra, rb = a[y * stride:(y + 1) * stride], b[y * stride:(y + 1) * stride]
            if ra == rb:
                continue
            for x in range(self.width):
                i = x * 3
                d = max(abs(ra[i] - rb[i]), abs(ra[i + 1] - rb[i + 1]), abs(ra[i + 2] - rb[i + 2]))
                if d:
                    worst = max(worst, d)
                if d > tolerance:
                    bad += 1
                    box = (x, y, x, y) if box is None else (min(box[0], x), min(box[1], y),
                                                            max(box[2], x), max(box[3], y))
        return bad, worst, box

    def diff_image(self, other):
        """An image that is black where the pixels match and red where they differ."""
        out = bytearray(len(self.data))
        for i in range(0, len(self.data), 3):
            if self.data[i:i + 3] != other.data[i:i + 3]:
                out[i] = 255
        return Image(self.width, self.height, bytes(out))


def compare(actual, expected, tolerance=0, max_bad=0, region=None, save_prefix=None):
    """Asserts that image ACTUAL matches EXPECTED (Images or paths), both cropped to REGION (x, y, w, h) when
    given: at most MAX_BAD pixels may differ by more than TOLERANCE per channel. On a mismatch saves
    SAVE_PREFIX-{actual,expected,diff}.png when given and raises VMError describing the difference."""
    a = actual if isinstance(actual, Image) else Image.load(actual)
    e = expected if isinstance(expected, Image) else Image.load(expected)
    if region:
        a = a.crop(*region)
        e = e.crop(*region)
    bad, worst, box = a.diff(e, tolerance)
    if bad <= max_bad:
        return bad
    msg = "images differ: %d pixels beyond tolerance %d (largest difference %d) within box %s" % (
        bad, tolerance, worst, box)
    if save_prefix:
        a.save(str(save_prefix) + "-actual.png")
        e.save(str(save_prefix) + "-expected.png")
        a.diff_image(e).save(str(save_prefix) + "-diff.png")
        msg += "; saved %s-{actual,expected,diff}.png" % save_prefix
    raise VMError(msg)


# ---------------------------------------------------------------------------------------------------------
# QMP

class QMP:
    """A QMP client on a unix socket: commands, and the asynchronous events kept in .events."""

    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise VMError("cannot connect to QMP socket %s" % path)
                time.sleep(0.05)
        self.buf = b""
        self.events = []
        self._recv(timeout)  # greeting
        self.cmd("qmp_capabilities")

    def _recv(self, timeout):
        deadline = time.time() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise VMError("QMP: no answer in %.0f s" % timeout)
            self.sock.settimeout(left)
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not d:
                raise VMError("QMP: QEMU closed the monitor")
            self.buf += d
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def cmd(self, name, timeout=60, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            r = self._recv(timeout)
            if "event" in r:
                self.events.append(r)
                continue
            if "error" in r:
                raise VMError("QMP %s %s: %s" % (name, args, r["error"].get("desc")))
            return r.get("return")

    def wait_event(self, name, timeout=30, match=None):
        deadline = time.time() + timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev["event"] == name and (match is None or match(ev.get("data", {}))):
                    del self.events[i]
                    return ev
            left = deadline - time.time()
            if left <= 0:
                raise VMError("QMP: no %s event in %.0f s" % (name, timeout))
            try:
                r = self._recv(left)
            except VMError:
                continue
            if "event" in r:
                self.events.append(r)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------------------
# The VM

GPUS = {
    # name: (QEMU device, DRM driver in the guest)
    "virtio": ("virtio-gpu-pci", "virtio_gpu"),
    "bochs": ("bochs-display", "bochs-drm"),
    "none": (None, None),
}

_live = set()
_temporary_files = []  # extra initramfs files of Guest.with_files(), removed at exit


def _die_with_parent():
    """In the forked QEMU: get SIGKILL when the harness dies, however it dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


def _kill_all():
    for vm in list(_live):
        vm.kill()
    for p in _temporary_files:
        try:
            os.unlink(p)
        except OSError:
            pass


def _on_signal(signum, frame):
    _kill_all()
    sys.exit(128 + signum)


import atexit  # noqa: E402

atexit.register(_kill_all)
for _s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    try:
        if signal.getsignal(_s) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(_s, _on_signal)
    except (ValueError, OSError):
        pass


class VM:
    """One QEMU guest. Use as a context manager (or call start() and kill()); QEMU never outlives the harness.

    gpu: "virtio" (virtio-gpu-pci), "bochs" (bochs-display) or "none"; outputs: virtio-gpu heads; xres/yres:
    the preferred mode (EDID); usb: add an xHCI controller (for device_add usb-kbd); vnc: a VNC display number
    on 127.0.0.1 (None: no display); kvm: use KVM (default: $KF_VM_KVM=1); smp, mem: guest CPUs and memory;
    append: extra kernel command line; name: for the serial log file OUT/NAME-serial.log."""

    def __init__(self, guest, gpu="virtio", outputs=1, xres=1024, yres=768, usb=False, vnc=None, kvm=None,
                 smp=1, mem="1G", append="", name="vm", boot_timeout=None, extra_args=()):
        if gpu not in GPUS:
            raise VMError("unknown gpu %r (virtio, bochs, none)" % gpu)
        self.guest, self.gpu, self.outputs, self.xres, self.yres = guest, gpu, outputs, xres, yres
        self.usb, self.vnc, self.smp, self.mem, self.append, self.name = usb, vnc, smp, mem, append, name
        self.kvm = kvm if kvm is not None else os.environ.get("KF_VM_KVM") == "1"
        self.boot_timeout = boot_timeout or 120 * DEFAULT_TIMEOUT
        self.extra_args = list(extra_args)
        self.proc = None
        self.qmp = None
        self.serial = b""
        self.lock = threading.Condition()
        self.cmd_id = 0
        self.gpu_present = False
        self.tmpdir = None

    # -- lifecycle --
    def gpu_device_arg(self):
        dev = GPUS[self.gpu][0]
        arg = "%s,id=gpu0,bus=rp1,xres=%d,yres=%d" % (dev, self.xres, self.yres)
        if self.gpu == "virtio":
            arg += ",max_outputs=%d" % self.outputs
        else:
            arg += ",edid=on"
        return arg

    def command_line(self):
        accel = ["-accel", "kvm", "-cpu", "host"] if self.kvm else ["-accel", "tcg", "-cpu", "max"]
        args = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-machine", "q35"] + accel + [
            "-smp", str(self.smp), "-m", self.mem, "-no-reboot",
            "-kernel", str(self.guest.kernel), "-initrd", str(self.guest.initrd),
            "-append", "%s kf.gpu=%s %s" % (KERNEL_CMDLINE, self.gpu, self.append),
            "-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
            "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path,
            "-device", "pcie-root-port,id=rp1,chassis=1,slot=1,bus=pcie.0",
            "-device", "pcie-root-port,id=rp2,chassis=2,slot=2,bus=pcie.0",
            "-device", "virtio-keyboard-pci,id=kbd0,bus=pcie.0",
            "-device", "virtio-mouse-pci,id=mouse0,bus=pcie.0",
        ]
        if self.gpu != "none":
            args += ["-device", self.gpu_device_arg()]
        if self.usb:
            args += ["-device", "qemu-xhci,id=xhci,bus=rp2"]
        args += ["-vnc", "127.0.0.1:%d" % self.vnc] if self.vnc is not None else ["-display", "none"]
        return args + self.extra_args

    def start(self):
        OUT.mkdir(parents=True, exist_ok=True)
        self.tmpdir = tempfile.mkdtemp(prefix="kf-vm-")
        self.qmp_path = os.path.join(self.tmpdir, "qmp.sock")
        self.log_path = OUT / ("%s-serial.log" % self.name)
        self.logf = open(self.log_path, "wb")
        args = self.command_line()
        log(" ".join(args))
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_die_with_parent)
        _live.add(self)
        self.gpu_present = self.gpu != "none"
        threading.Thread(target=self._reader, args=(self.proc.stdout, True), daemon=True).start()
        threading.Thread(target=self._reader, args=(self.proc.stderr, False), daemon=True).start()
        self.qmp = QMP(self.qmp_path, timeout=30)
        return self

    def _reader(self, pipe, is_serial):
        while True:
            d = pipe.read1(65536) if hasattr(pipe, "read1") else os.read(pipe.fileno(), 65536)
            if not d:
                break
            with self.lock:
                if is_serial:
                    self.serial += d
                else:
                    self.serial += b"[qemu stderr] " + d
                self.logf.write(d)
                self.logf.flush()
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def boot(self):
        """Starts QEMU and waits for the guest's 'KF-VM: BOOTED' marker; returns the guest uptime at that point."""
        if self.proc is None:
            self.start()
        m = self.wait_serial(r"KF-VM: BOOTED ([0-9.]+)", timeout=self.boot_timeout)
        return float(m.group(1))

    def __enter__(self):
        try:
            self.boot()
        except BaseException:
            self.kill()
            raise
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def shutdown(self, timeout=20):
        """Asks the guest to power off, then kills QEMU if it has not exited within TIMEOUT seconds."""
        if self.alive():
            try:
                self.proc.stdin.write(b"KFPOWEROFF\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        if self.qmp:
            self.qmp.close()
            self.qmp = None
        _live.discard(self)
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None

    # -- serial --
    def serial_text(self):
        return self.serial.decode("utf-8", "replace")

    def tail(self, n=40):
        """The last N lines of the serial log (for failure messages)."""
        lines = self.serial_text().splitlines()[-n:]
        return "\n".join("    | " + l for l in lines)

    def fail(self, msg):
        """Raises VMError with MSG and the serial log tail."""
        raise VMError("%s\n  serial log tail (%s):\n%s" % (msg, self.log_path, self.tail()))

    def wait_serial(self, pattern, timeout=30, start=0):
        """Waits until regex PATTERN (str or bytes) matches the serial output from offset START; returns the
        match (on the decoded text). Fails with the serial tail on timeout or when QEMU exits."""
        rx = re.compile(pattern)
        deadline = time.time() + timeout * DEFAULT_TIMEOUT
        with self.lock:
            while True:
                m = rx.search(self.serial[start:].decode("utf-8", "replace"))
                if m:
                    return m
                if self.proc.poll() is not None:
                    break
                left = deadline - time.time()
                if left <= 0:
                    break
                self.lock.wait(min(left, 1.0))
        if self.proc.poll() is not None:
            self.fail("QEMU exited (status %s) while waiting for %r" % (self.proc.returncode, pattern))
        self.fail("timeout (%.0f s) waiting for %r on the serial port" % (timeout, pattern))

    def sh(self, script, timeout=60, check=True):
        """Runs SCRIPT with /bin/sh in the guest (stdin /dev/null, stderr into stdout) and returns its output.
        With check (default) a non-zero exit status raises; otherwise returns (status, output). Background
        jobs are fine ("cmd >/tmp/log 2>&1 &"). One command at a time."""
        self.cmd_id += 1
        cid = self.cmd_id
        start = len(self.serial)
        b64 = base64.b64encode(script.encode()).decode()
        try:
            self.proc.stdin.write(("KFCMD %d %s\n" % (cid, b64)).encode())
            self.proc.stdin.flush()
        except OSError:
            self.fail("cannot write to the guest serial port (QEMU gone?)")
        m = self.wait_serial(r"KFBEGIN %d\n((?:.|\n)*?)KFEND %d (\d+)\n" % (cid, cid), timeout, start)
        out, rc = m.group(1).replace("\r", ""), int(m.group(2))
        if check and rc != 0:
            self.fail("guest command failed (status %d): %s\n  output:\n%s" % (rc, script.strip()[:300], out))
        return out if check else (rc, out)

    def get_file(self, path, timeout=60):
        """The bytes of guest file PATH (base64 over the serial port: fine up to a few MB)."""
        out = self.sh("base64 '%s'" % path, timeout=timeout)
        return base64.b64decode("".join(out.split()))

    def dmesg(self):
        return self.sh("dmesg")

    def wait_file(self, path, timeout=30, pattern=None):
        """Waits until guest file PATH exists (and, with PATTERN, contains that extended regex); returns its
        contents (empty for a device node or directory)."""
        cond = "[ -e '%s' ]" % path
        if pattern:
            cond += " && grep -Eq '%s' '%s'" % (pattern.replace("'", "'\\''"), path)
        t = int(timeout * DEFAULT_TIMEOUT * 10)
        out = self.sh("i=0; until %s; do [ $i -ge %d ] && exit 1; i=$((i+1)); sleep 0.1; done; [ ! -f '%s' ] || cat '%s'"
                      % (cond, t, path, path), timeout=timeout + 30, check=False)
        if out[0] != 0:
            self.fail("timeout (%.0f s) waiting for guest file %s%s" % (
                timeout, path, " to match %r" % pattern if pattern else ""))
        return out[1]

    # -- monitor --
    def hmp(self, line):
        """Runs a human monitor command (e.g. "info pci") and returns its text."""
        return self.qmp.cmd("human-monitor-command", **{"command-line": line})

    def sendkey(self, keys, hold_ms=None):
        """Presses a key combination in QEMU's sendkey syntax: "a", "ret", "ctrl-alt-f2", "shift-a"."""
        args = {"keys": [{"type": "qcode", "data": k} for k in keys.split("-")]}
        if hold_ms:
            args["hold-time"] = hold_ms
        self.qmp.cmd("send-key", **args)

    KEYNAMES = {" ": "spc", "\n": "ret", "\t": "tab", "-": "minus", "=": "equal", "[": "bracket_left",
                "]": "bracket_right", ";": "semicolon", "'": "apostrophe", "`": "grave_accent", "\\": "backslash",
                ",": "comma", ".": "dot", "/": "slash"}
    SHIFTED = {"!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6", "&": "7", "*": "8", "(": "9", ")": "0",
               "_": "minus", "+": "equal", "{": "bracket_left", "}": "bracket_right", ":": "semicolon",
               "\"": "apostrophe", "~": "grave_accent", "|": "backslash", "<": "comma", ">": "dot", "?": "slash"}

    def type_text(self, text, delay=0.03):
        """Types TEXT (US layout) with send-key, one key at a time."""
        for ch in text:
            if ch in self.SHIFTED:
                k = "shift-" + self.KEYNAMES.get(self.SHIFTED[ch], self.SHIFTED[ch])
            elif ch.isupper():
                k = "shift-" + ch.lower()
            else:
                k = self.KEYNAMES.get(ch, ch)
            self.sendkey(k)
            time.sleep(delay)

    def mouse_move(self, dx, dy):
        self.qmp.cmd("input-send-event", events=[{"type": "rel", "data": {"axis": "x", "value": dx}},
                                                 {"type": "rel", "data": {"axis": "y", "value": dy}}])

    def mouse_button(self, button="left", down=True):
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"button": button, "down": down}}])

    def screendump(self, path=None):
        """Saves the scanned-out frame of the GPU (PNG if PATH ends in .png, else PPM) and returns an Image."""
        fd, tmp = tempfile.mkstemp(suffix=".ppm", dir=self.tmpdir)
        os.close(fd)
        args = {"filename": tmp}
        if self.gpu_present:
            args["device"] = "gpu0"
        self.qmp.cmd("screendump", **args)
        img = Image.load(tmp)
        os.unlink(tmp)
        if path:
            img.save(path)
        return img

    def wait_screen(self, predicate, timeout=30, interval=0.5, what="the screen to change"):
        """Takes screendumps until PREDICATE(Image) is true; returns that Image."""
        deadline = time.time() + timeout * DEFAULT_TIMEOUT
        img = None
        while time.time() < deadline:
            img = self.screendump()
            if predicate(img):
                return img
            time.sleep(interval)
        if img is not None:
            p = OUT / ("%s-timeout.png" % self.name)
            img.save(p)
            what += " (last frame saved to %s)" % p
        self.fail("timeout (%.0f s) waiting for %s" % (timeout, what))

    def gpu_sysfs(self):
        """The guest sysfs path of the GPU's PCI function (found from /sys/class/drm/card*/device)."""
        out = self.sh("for c in /sys/class/drm/card[0-9]; do readlink -f $c/device; done | sort -u | head -1")
        return out.strip()

    def unplug_gpu(self, method="guest", timeout=30):
        """Hot-unplugs the GPU and waits until the guest has no /dev/dri/card*.

        method "guest" (default): the kernel's PCI hot-remove path (echo 1 > /sys/bus/pci/devices/X/remove),
        what pciehp runs on a surprise removal; the DRM driver unplugs the device under its clients. Works for
        both GPUs. method "qemu": device_del on the q35 PCIe root port; QEMU 7.2 refuses it for virtio-gpu-pci
        ("does not support hotplugging") and never completes it for bochs-display (the guest powers the slot
        off, QEMU keeps the device), so it is only kept for newer QEMUs."""
        if method == "qemu":
            self.qmp.cmd("device_del", id="gpu0")
            self.qmp.wait_event("DEVICE_DELETED", timeout, match=lambda d: d.get("device") == "gpu0")
        else:
            dev = self.gpu_sysfs()
            if not dev.startswith("/sys/devices/pci"):
                self.fail("no GPU PCI device to unplug (got %r)" % dev)
            self._removed = dev
            self.sh("echo 1 > %s/remove" % dev, timeout=timeout)
        self.wait_file_gone("/dev/dri/card0", timeout)
        self.gpu_present = False

    def plug_gpu(self, method="guest", timeout=30):
        """Plugs the GPU back (a PCI rescan for method "guest", device_add on the root port for "qemu") and
        waits for /dev/dri/card0."""
        if method == "qemu":
            arg = self.gpu_device_arg()
            props = dict(kv.split("=", 1) for kv in arg.split(",")[1:])
            self.qmp.cmd("device_add", driver=GPUS[self.gpu][0], **props)
        else:
            self.sh("echo 1 > /sys/bus/pci/rescan", timeout=timeout)
        self.wait_file("/dev/dri/card0", timeout)
        self.gpu_present = True

    def wait_file_gone(self, path, timeout=30):
        t = int(timeout * DEFAULT_TIMEOUT * 10)
        rc, _ = self.sh("i=0; while [ -e '%s' ]; do [ $i -ge %d ] && exit 1; i=$((i+1)); sleep 0.1; done"
                        % (path, t), timeout=timeout + 30, check=False)
        if rc:
            self.fail("timeout (%.0f s) waiting for guest file %s to disappear" % (timeout, path))


# ---------------------------------------------------------------------------------------------------------
# CLI

def main(argv=None):
    ap = argparse.ArgumentParser(description="Build and boot the kmscon-felis test guest.")
    ap.add_argument("--gpu", default="virtio", choices=sorted(GPUS))
    ap.add_argument("--features", default="udev,seatd,kmscon", help="comma list of udev, seatd, kmscon")
    ap.add_argument("--build-dir", help="meson build tree with our binaries (default: build-test or build)")
    ap.add_argument("--size", default="1024x768", help="preferred mode WxH")
    ap.add_argument("--vnc", type=int, help="VNC display number on 127.0.0.1 (5900+N)")
    ap.add_argument("--usb", action="store_true", help="add an xHCI controller")
    ap.add_argument("--file", action="append", default=[], metavar="GUEST=HOST", help="add a file to the guest")
    ap.add_argument("--run", action="append", default=[], help="shell command to run in the guest (repeatable)")
    ap.add_argument("--screendump", metavar="PATH", help="save a screendump after the commands")
    ap.add_argument("--build-only", action="store_true", help="only build the guest, print its paths")
    ap.add_argument("--interactive", action="store_true", help="after --run, read commands from stdin")
    a = ap.parse_args(argv)
    feats = [f for f in a.features.split(",") if f]
    t0 = time.time()
    guest = build_guest(feats, a.build_dir)
    print("guest: kernel %s, initrd %s (%.1f MB), built in %.1f s" % (
        guest.kernel, guest.initrd, guest.initrd.stat().st_size / 1e6, time.time() - t0))
    if a.build_only:
        return 0
    if a.file:
        guest = guest.with_files(dict(f.split("=", 1) for f in a.file))
    w, h = map(int, a.size.split("x"))
    vm = VM(guest, gpu=a.gpu, xres=w, yres=h, vnc=a.vnc, usb=a.usb, name="cli")
    with vm:
        print("booted in %.1f s (guest uptime at boot marker)" % (time.time() - t0))
        for c in a.run:
            rc, out = vm.sh(c, timeout=600, check=False)
            sys.stdout.write(out)
            print("[exit %d]" % rc)
        if a.screendump:
            vm.screendump(a.screendump)
            print("screendump: " + a.screendump)
        if a.interactive:
            print("guest shell (one command per line, EOF to power off):")
            for line in sys.stdin:
                rc, out = vm.sh(line, timeout=600, check=False)
                sys.stdout.write(out)
                print("[exit %d]" % rc)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except VMError as e:
        print("vmlib: error: %s" % e, file=sys.stderr)
        sys.exit(1)
