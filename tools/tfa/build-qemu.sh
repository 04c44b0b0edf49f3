#!/usr/bin/env bash
# Trusted Firmware-A for QEMU virt, built here from Debian's own source
# package (arm-trusted-firmware, the one whose rpi3/rpi4 builds the Pi
# boots use): real EL3 firmware as virt's PSCI instead of QEMU's host-code
# emulation, with a GICv2 or a secure GICv3. qemu.sh --machine virt
# --firmware tfa boots it; `make gdb` loads its BL31 symbols.
#
# Usage: tools/tfa/build-qemu.sh OUTDIR
#   OUTDIR/src/          the unpacked source (apt-get source: a deb-src
#                        entry, which tools/setup.sh adds)
#   OUTDIR/qemu-gicv2/   flash.bin (BL1 at 0, the FIP at 256 KiB) and
#   OUTDIR/qemu-gicv3/   bl31.elf (symbols), built with DEBUG=1
#   OUTDIR/unavailable   why, when it cannot be had (its boots skip)
#
# Reused once built. The kernel is not in the flash image: TF-A enters it
# at PRELOADED_BL33_BASE (qemu.sh puts the Image there) with x0 = the
# device tree QEMU leaves at the start of RAM.
set -euo pipefail

out=${1:?usage: tools/tfa/build-qemu.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# qemu.sh's KERNEL_ADDR: where -kernel and the loader put the Image.
BL33_BASE=0x40200000

unavailable() {
  echo "$*" >"$out/unavailable"
  echo "build-qemu.sh: TF-A for QEMU virt unavailable: $*" >&2
  exit 0
}

built() {
  [ -f "$out/qemu-gicv2/flash.bin" ] && [ -f "$out/qemu-gicv3/flash.bin" ]
}
built && exit 0

exec 9>"$out/.lock"
flock 9
built && exit 0
rm -f "$out/unavailable"

command -v dpkg-source >/dev/null || unavailable "no dpkg-source (dpkg-dev)"
if [ ! -e "$out/src/.done" ]; then
  rm -rf "$out/src" "$out/dl"
  mkdir -p "$out/dl"
  echo "build-qemu.sh: fetching Debian's arm-trusted-firmware source (once)" >&2
  (cd "$out/dl" && apt-get source --download-only -q arm-trusted-firmware \
    >/dev/null 2>"$out/dl/log") ||
    unavailable "apt-get source arm-trusted-firmware failed (a deb-src entry" \
      "is needed: tools/setup.sh adds one): $(tail -1 "$out/dl/log")"
  dpkg-source -x "$out"/dl/arm-trusted-firmware_*.dsc "$out/src.part" \
    >/dev/null 2>&1 || unavailable "dpkg-source -x failed"
  mv "$out/src.part" "$out/src"
  rm -rf "$out/dl"
  touch "$out/src/.done"
fi

# build NAME [MAKE ARGS]: one platform build, its flash image and symbols.
build() {
  local name=$1 dir=$out/$1 start=$SECONDS
  shift
  rm -rf "$dir" "$out/obj-$name"
  mkdir -p "$dir"
  # binutils 2.40 warns of TF-A's RWX segments (fatal with its -Werror):
  # Debian's rules pass the flag in the environment, so that the
  # Makefile's own TF_LDFLAGS (--gc-sections...) are kept.
  if ! TF_LDFLAGS=--no-warn-rwx-segments make -C "$out/src" -j2 \
    CROSS_COMPILE=aarch64-linux-gnu- PLAT=qemu DEBUG=1 \
    ARM_LINUX_KERNEL_AS_BL33=1 PRELOADED_BL33_BASE=$BL33_BASE \
    BUILD_BASE="$out/obj-$name" "$@" all fip >"$dir/build.log" 2>&1; then
    tail -5 "$dir/build.log" >&2
    unavailable "the $name build failed (see $dir/build.log)"
  fi
  local o=$out/obj-$name/qemu/debug
  dd if="$o/bl1.bin" of="$dir/flash.bin.part" bs=4096 conv=notrunc status=none
  dd if="$o/fip.bin" of="$dir/flash.bin.part" seek=64 bs=4096 conv=notrunc status=none
  cp "$o/bl31/bl31.elf" "$dir/bl31.elf"
  mv "$dir/flash.bin.part" "$dir/flash.bin"
  rm -rf "$out/obj-$name"
  echo "build-qemu.sh: $dir/flash.bin in $((SECONDS - start)) s" >&2
}

build qemu-gicv2
build qemu-gicv3 QEMU_USE_GIC_DRIVER=QEMU_GICV3
