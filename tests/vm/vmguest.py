"""The guest of the QEMU harness (tests/vm/): Debian packages (apt-get download, dpkg -x) for the kernel, its
modules and the userland, the shared libraries of every included ELF file, a newc cpio writer, and
build_guest(), which writes the initramfs (cached by a hash of its inputs). See tests/vm/README.md."""

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from vmbase import CACHE, GUEST_SRC, OUT, REPO, VMError, log, run_checked, temporary_files

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
    run_checked(["dpkg-deb", "-x", str(deb), str(root)])
    stamp.write_text(deb.name)
    return root


def kernel_package():
    """The versioned kernel package linux-image-amd64 depends on, e.g. linux-image-6.1.0-57-amd64."""
    cached = CACHE / "kernel-package"
    if cached.exists():
        return cached.read_text().strip()
    r = run_checked(["apt-cache", "depends", "linux-image-amd64"])
    m = re.search(r"Depends: (linux-image-[0-9][^\s]*)", r.stdout)
    if not m:
        subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        r = run_checked(["apt-cache", "depends", "linux-image-amd64"])
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
        run_checked(["depmod", "-b", str(root), kver])
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
        temporary_files.append(path)
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
            run_checked([cc, "-std=c11", "-D_GNU_SOURCE", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o",
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
