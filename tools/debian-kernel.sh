#!/usr/bin/env bash
# Fetches Debian's stock arm64 Linux (and busybox-static for an initramfs)
# at run time, never committed: its device trees are real boards' DTBs for
# raspi3b, the host DTB tests and `make sdcard`; its kernel is what
# `make bench-linux` compares against.
#
# Usage: tools/debian-kernel.sh dtbs|image|busybox|version
#   dtbs     print the directory holding the DTBs (broadcom/, rockchip/, ...)
#   image    print the path of the kernel (vmlinuz, a gzip'd arm64 Image)
#   busybox  print the path of busybox-static for arm64
#   version  print the kernel package's version string (e.g. 6.1.0-54-arm64)
#
# Everything lands under build/debian/ and is reused: the network is only
# needed the first time. Needs apt with the arm64 architecture added
# (tools/setup.sh adds it for libfdt-dev:arm64).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${DEBIAN_KERNEL_DIR:-$here/build/debian}

die() { echo "debian-kernel.sh: $*" >&2; exit 1; }

# The newest linux-image-X-arm64-unsigned the archive offers.
newest_package() {
  apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-arm64-unsigned$' |
    cut -d' ' -f1 | sort -V | tail -n1
}

# fetch PACKAGE DIR: download PACKAGE:arm64 and unpack it into DIR.
fetch() {
  local pkg=$1 dir=$2 tmp
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && apt-get download -q "$pkg:arm64" >/dev/null 2>&1); then
    # A fresh machine or a superseded version: refresh the lists once.
    if [ "$(id -u)" = 0 ]; then
      apt-get update -q >/dev/null 2>&1 || true
    fi
    (cd "$tmp" && apt-get download -q "$pkg:arm64" >/dev/null) ||
      die "cannot download $pkg:arm64 (is the arm64 architecture added and" \
        "the network up? try: dpkg --add-architecture arm64 && apt-get update)"
  fi
  mkdir -p "$dir.part"
  dpkg-deb -x "$tmp"/*.deb "$dir.part"
  rm -rf "$tmp" "$dir"
  mv "$dir.part" "$dir"
}

linux() {
  if [ ! -e "$out/linux/.done" ]; then
    local pkg
    pkg=$(newest_package)
    [ -n "$pkg" ] || {
      [ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1
      pkg=$(newest_package)
    }
    [ -n "$pkg" ] || die "apt offers no linux-image-*-arm64-unsigned package" \
      "(add the arm64 architecture: dpkg --add-architecture arm64)"
    echo "debian-kernel.sh: fetching $pkg:arm64 (once)" >&2
    fetch "$pkg" "$out/linux"
    echo "$pkg" >"$out/linux/.done"
  fi
}

case "${1:-}" in
  dtbs)
    linux
    d=$(echo "$out"/linux/usr/lib/linux-image-*)
    [ -d "$d/broadcom" ] || die "no DTBs under $d"
    echo "$d"
    ;;
  image)
    linux
    f=$(echo "$out"/linux/boot/vmlinuz-*)
    [ -f "$f" ] || die "no vmlinuz in the package"
    echo "$f"
    ;;
  version)
    linux
    f=$(echo "$out"/linux/boot/vmlinuz-*)
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
  -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "usage: $0 dtbs|image|busybox|version (try --help)" ;;
esac
