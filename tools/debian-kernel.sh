#!/usr/bin/env bash
# Fetches Debian's stock arm64 Linux (and busybox-static for an initramfs)
# at run time, never committed: its device trees are real boards' DTBs for
# raspi3b, the host DTB tests and `make sdcard`; its kernel is what
# `make bench-linux` compares against.
#
# Usage: tools/debian-kernel.sh [--series 6.12] dtbs|image|busybox|raspi-firmware|version
#   --series 6.12  the backports kernel (Linux 6.12; the suite that
#            tools/setup.sh adds), whose trees include the Pi 5's; without
#            it, the release's own (Linux 6.1)
#   dtbs     print the directory holding the DTBs (broadcom/, rockchip/, ...)
#   image    print the path of the kernel (vmlinuz, a gzip'd arm64 Image)
#   busybox  print the path of busybox-static for arm64
#   raspi-firmware
#            print the directory holding the Raspberry Pi boot firmware
#            (bootcode.bin, start*.elf, fixup*.dat: Debian's raspi-firmware,
#            in the non-free-firmware component tools/setup.sh adds)
#   version  print the kernel package's version string (e.g. 6.1.0-54-arm64)
#
# Everything lands under build/debian/ and is reused: the network is only
# needed the first time. Needs apt with the arm64 architecture added
# (tools/setup.sh adds it for libfdt-dev:arm64).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${DEBIAN_KERNEL_DIR:-$here/build/debian}

die() { echo "debian-kernel.sh: $*" >&2; exit 1; }

# The release's packages are linux-image-6.1.0-N-arm64-unsigned, the
# backports' linux-image-6.12.N+debM-arm64-unsigned.
series="" pattern='^linux-image-[0-9.]+-[0-9]+-arm64-unsigned$' linux_dir=linux
if [ "${1:-}" = --series ]; then
  [ "${2:-}" = 6.12 ] || die "--series wants 6.12, not '${2:-}'"
  series=$2 pattern='^linux-image-6\.12\.[0-9]+\+deb[0-9]+-arm64-unsigned$'
  linux_dir=linux-$series
  shift 2
fi

# The newest such package the archive offers.
newest_package() {
  apt-cache search --names-only "$pattern" | cut -d' ' -f1 | sort -V | tail -n1
}

# fetch PACKAGE DIR [all]: download PACKAGE:arm64 (or the
# architecture-independent PACKAGE) and unpack it into DIR.
fetch() {
  local pkg=$1 dir=$2 tmp name=$1:arm64
  [ "${3:-}" != all ] || name=$1
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && apt-get download -q "$name" >/dev/null 2>&1); then
    # A fresh machine or a superseded version: refresh the lists once.
    if [ "$(id -u)" = 0 ]; then
      apt-get update -q >/dev/null 2>&1 || true
    fi
    (cd "$tmp" && apt-get download -q "$name" >/dev/null) ||
      die "cannot download $name (is the arm64 architecture added, its" \
        "suite or component in apt's sources (tools/setup.sh) and the" \
        "network up?)"
  fi
  mkdir -p "$dir.part"
  dpkg-deb -x "$tmp"/*.deb "$dir.part"
  rm -rf "$tmp" "$dir"
  mv "$dir.part" "$dir"
}

linux() {
  if [ ! -e "$out/$linux_dir/.done" ]; then
    local pkg
    pkg=$(newest_package)
    [ -n "$pkg" ] || {
      [ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1
      pkg=$(newest_package)
    }
    [ -n "$pkg" ] || die "apt offers no linux-image-${series:-*}-arm64-unsigned" \
      "package (add the arm64 architecture: dpkg --add-architecture arm64;" \
      "for 6.12 the backports suite: tools/setup.sh)"
    echo "debian-kernel.sh: fetching $pkg:arm64 (once)" >&2
    # One download at a time: parallel boots and checks may all ask.
    mkdir -p "$out"
    exec 8>"$out/.$linux_dir.lock"
    flock 8
    if [ ! -e "$out/$linux_dir/.done" ]; then
      fetch "$pkg" "$out/$linux_dir"
      echo "$pkg" >"$out/$linux_dir/.done"
    fi
    exec 8>&-
  fi
}

case "${1:-}" in
  dtbs)
    linux
    d=$(echo "$out/$linux_dir"/usr/lib/linux-image-*)
    [ -d "$d/broadcom" ] || die "no DTBs under $d"
    echo "$d"
    ;;
  image)
    linux
    f=$(echo "$out/$linux_dir"/boot/vmlinuz-*)
    [ -f "$f" ] || die "no vmlinuz in the package"
    echo "$f"
    ;;
  version)
    linux
    f=$(echo "$out/$linux_dir"/boot/vmlinuz-*)
    echo "${f##*/vmlinuz-}"
    ;;
  busybox)
    if [ ! -e "$out/busybox/.done" ]; then
      echo "debian-kernel.sh: fetching busybox-static:arm64 (once)" >&2
      fetch busybox-static "$out/busybox"
      touch "$out/busybox/.done"
    fi
    echo "$out/busybox/bin/busybox"
    ;;
  raspi-firmware)
    if [ ! -e "$out/raspi-firmware/.done" ]; then
      echo "debian-kernel.sh: fetching raspi-firmware (once)" >&2
      mkdir -p "$out"
      exec 8>"$out/.raspi-firmware.lock"
      flock 8
      if [ ! -e "$out/raspi-firmware/.done" ]; then
        fetch raspi-firmware "$out/raspi-firmware" all
        touch "$out/raspi-firmware/.done"
      fi
      exec 8>&-
    fi
    echo "$out/raspi-firmware/usr/lib/raspi-firmware"
    ;;
  -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "usage: $0 [--series 6.12] dtbs|image|busybox|raspi-firmware|version (try --help)" ;;
esac
