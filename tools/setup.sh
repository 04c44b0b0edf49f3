#!/usr/bin/env bash
# Checks that the host has every tool the build, qemu.sh and `make test` need,
# and installs the missing Debian packages when it can (root + apt).
#
# Usage: tools/setup.sh [--quiet | --check-build]
#
# --check-build: only whether the kernel can be built (the cross
# toolchain, libfdt); says what is missing and exits 1, installs nothing
# (plain `make` runs it; `make setup`, `make run` and `make test` install).
#
# When everything is present this is a quick no-op: it never calls apt then.
# When something is missing and we are root on a Debian-like system, it adds the
# arm64 architecture if needed (for libfdt-dev:arm64), runs `apt-get update`
# once and installs the packages. Otherwise it prints what to install and
# exits 1.
#
# Then the firmware boots' extras: a QEMU with the Raspberry Pi 4 model
# (QEMU >= 9: on bookworm from its backports suite), and the apt entries the
# Pi firmware (non-free-firmware) and TF-A's source (deb-src) come from,
# derived from the machine's own entries by tools/apt_sources.py. Where they
# can't be had, it says so and the boots that need them skip with the reason.
set -euo pipefail

quiet=0
check_build=0
case "${1:-}" in
  "") ;;
  --quiet) quiet=1 ;;
  --check-build) check_build=1 ;;
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

say() { if [ "$quiet" = 0 ]; then echo "setup.sh: $*"; fi; }

# What we need, as "kind:thing:debian-package" triples. kind is `cmd` (a
# program on PATH) or `file` (a path that must exist). libfdt comes prebuilt
# for arm64 from Debian (see docs in design notes): the kernel links it.
# Trusted Firmware-A's Raspberry Pi BL31 (qemu.sh --firmware tfa, the TF-A
# SD cards) is packaged for arm64 only.
REQUIREMENTS=(
  "cmd:aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-as:binutils-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-ld:binutils-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-objcopy:binutils-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-nm:binutils-aarch64-linux-gnu"
  "cmd:qemu-system-aarch64:qemu-system-arm"
  "cmd:gdb-multiarch:gdb-multiarch"
  "file:/usr/lib/u-boot/qemu_arm64/u-boot.bin:u-boot-qemu"
  "cmd:mkimage:u-boot-tools"
  "cmd:dtc:device-tree-compiler"
  "cmd:mcopy:mtools"
  "cmd:mformat:mtools"
  "cmd:sfdisk:fdisk"
  "cmd:python3:python3"
  "cmd:gcc:gcc"
  "cmd:make:make"
  "file:/usr/lib/x86_64-linux-gnu/libtsan.so.2:libtsan2"
  "file:/usr/include/stdio.h:libc6-dev"
  "file:/usr/lib/aarch64-linux-gnu/libfdt.a:libfdt-dev:arm64"
  "file:/usr/include/libfdt.h:libfdt-dev:arm64"
  "cmd:clang:clang"
  "file:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev"
  "file:/usr/lib/x86_64-linux-gnu/libfdt.so.1:libfdt1"
  "cmd:timeout:coreutils"
  "cmd:spin:spin"
  "cmd:gnuplot:gnuplot-nox"
  "file:/usr/lib/arm-trusted-firmware/rpi3/bl31.bin:arm-trusted-firmware:arm64"
  "cmd:dpkg-source:dpkg-dev"
  "file:/usr/include/openssl/ssl.h:libssl-dev"
)

# What building the kernel alone needs (--check-build).
BUILD_REQUIREMENTS=(
  "cmd:aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-ld:binutils-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-objcopy:binutils-aarch64-linux-gnu"
  "cmd:aarch64-linux-gnu-nm:binutils-aarch64-linux-gnu"
  "cmd:python3:python3"
  "file:/usr/lib/aarch64-linux-gnu/libfdt.a:libfdt-dev:arm64"
  "file:/usr/include/libfdt.h:libfdt-dev:arm64"
)

# Fills the global arrays `missing` (what is absent) and `packages` (the
# Debian packages that provide it, without duplicates).
check_requirements() {
  missing=()
  packages=()
  local req kind thing pkg
  for req in "${REQUIREMENTS[@]}"; do
    kind=${req%%:*}
    thing=${req#*:}; thing=${thing%%:*}
    pkg=${req#*:*:}
    case "$kind" in
      cmd)  command -v "$thing" >/dev/null 2>&1 && continue ;;
      file) [ -e "$thing" ] && continue ;;
    esac
    missing+=("$thing")
    case " ${packages[*]-} " in
      *" $pkg "*) ;;
      *) packages+=("$pkg") ;;
    esac
  done
}

can_apt=0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && command -v dpkg >/dev/null; then
  can_apt=1
fi

qemu_has_raspi4b() {
  qemu-system-aarch64 -M help 2>/dev/null | grep -q '^raspi4b '
}

# The extras (see the top): apt entries first, then QEMU >= 9.
extras() {
  local here codename
  here=$(cd "$(dirname "$0")" && pwd)
  if ! python3 "$here/apt_sources.py" check >/dev/null 2>&1; then
    if [ "$can_apt" = 1 ] && python3 "$here/apt_sources.py" write; then
      apt-get update -q >/dev/null || say "apt-get update failed"
    else
      echo "setup.sh: without the apt entries above, the Pi firmware and" \
        "TF-A's source cannot be fetched: their boots skip" >&2
    fi
  fi
  qemu_has_raspi4b && return 0
  codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  if [ "$can_apt" = 1 ] && [ -n "$codename" ]; then
    say "QEMU $(qemu-system-aarch64 --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p')" \
      "has no raspi4b: installing qemu-system-arm from $codename-backports"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q -o Dpkg::Use-Pty=0 --no-install-recommends \
      -t "$codename-backports" qemu-system-arm >/dev/null ||
      say "cannot install it from $codename-backports"
  fi
  qemu_has_raspi4b ||
    echo "setup.sh: this QEMU has no raspi4b (needs QEMU >= 9): the Pi 4 boots skip" >&2
}

if [ "$check_build" = 1 ]; then
  REQUIREMENTS=("${BUILD_REQUIREMENTS[@]}")
  check_requirements
  [ "${#missing[@]}" -eq 0 ] && exit 0
  echo "setup.sh: cannot build: missing ${missing[*]}" >&2
  echo "setup.sh: run 'make setup' (as root: installs them with apt-get), or" \
    "install the packages ${packages[*]}" >&2
  exit 1
fi

check_requirements
if [ "${#missing[@]}" -eq 0 ]; then
  extras
  say "all tools present"
  exit 0
fi

echo "setup.sh: missing: ${missing[*]}" >&2

if [ "$can_apt" = 0 ]; then
  cat >&2 <<EOF
setup.sh: cannot install them here (needs root and apt-get). On Debian 12, run:
  sudo dpkg --add-architecture arm64     # for the :arm64 packages
  sudo apt-get update
  sudo apt-get install ${packages[*]}
EOF
  exit 1
fi

# libfdt-dev:arm64 and arm-trusted-firmware:arm64 (architecture-specific
# packages of target files) need the arm64 architecture unless we are arm64.
native_arch=$(dpkg --print-architecture)
case " ${packages[*]} " in
  *":arm64 "*)
    if [ "$native_arch" != arm64 ] &&
       ! dpkg --print-foreign-architectures | grep -qx arm64; then
      say "adding the arm64 architecture to dpkg"
      dpkg --add-architecture arm64
    fi ;;
esac

say "installing: ${packages[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q -o Dpkg::Use-Pty=0 "${packages[@]}"

check_requirements
if [ "${#missing[@]}" -ne 0 ]; then
  echo "setup.sh: still missing after install: ${missing[*]}" >&2
  exit 1
fi
extras
say "all tools present"
