#!/usr/bin/env bash
# Trusted Firmware-A (Debian's arm-trusted-firmware) as the Raspberry Pi's
# PSCI firmware: builds the armstub a Pi's GPU firmware (or qemu.sh) loads
# at address 0, and edits a Pi device tree so the kernel uses PSCI and
# keeps off TF-A's memory. Used by qemu.sh --firmware tfa and by
# tools/mksdcard.sh FIRMWARE=tfa; docs/boards.md tells the story.
#
# Usage:
#   tools/tfa/tfa.sh armstub rpi3|rpi4 OUT [--qemu] [--el1] [--dtb-addr A]
#       rpi3: tools/tfa/rpi3-armstub.S + bl31.bin in one file (with --qemu,
#       bl31.bin carries the checked QEMU-only RMR_EL3 workaround, the
#       hold pen sleeps in WFI (QEMU's WFE does not), and the device tree
#       address A and the kernel entry 0x80000 are built in);
#       rpi4: Debian's rpi4 bl31.bin, which is an armstub itself (with
#       --qemu, carrying the same checked RMR_EL3 workaround).
#   tools/tfa/tfa.sh trampoline OUT
#       rmr-reset.S assembled (patch_bl31_qemu.py's input)
#   tools/tfa/tfa.sh header STUB OUT DTB_ADDR KERNEL_ADDR
#       a copy of an armstub with its header filled in, as the Pi's GPU
#       firmware does: the DTB and kernel addresses written, the magic
#       cleared (qemu.sh --firmware tfa-card, raspi4b --firmware tfa,
#       tools/pifirmware.py).
#   tools/tfa/tfa.sh dtb IN OUT [BOOTARGS]
#       IN with PSCI (method smc) as every CPU's enable-method, TF-A's
#       memory reserved, and /chosen/bootargs = BOOTARGS if given.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
TFA_DIR=${TFA_DIR:-/usr/lib/arm-trusted-firmware}
# TF-A's memory on the Pi 3 (plat/rpi/rpi3 platform_def.h: 16 MiB at
# 256 MiB, secure "SRAM" then secure DRAM) and on the Pi 4 (BL31 in the
# first 512 KiB, which the stock tree's /memreserve/ 0 0x1000 does not
# cover).
RPI3_TFA_MEM="0x10000000 0x1000000"
RPI4_TFA_MEM="0x0 0x80000"

die() { echo "tfa.sh: $*" >&2; exit 1; }
# Outputs are written as $out.tmp.$$* and renamed when whole; a failure
# leaves none of them behind.
tmpbase=""
trap '[ -z "$tmpbase" ] || rm -f "$tmpbase"*' EXIT

need_bl31() {
  local f=$TFA_DIR/$1/bl31.bin
  [ -f "$f" ] || die "$f not found: install Debian's arm-trusted-firmware (tools/setup.sh does)"
  echo "$f"
}

# trampoline OUT: rmr-reset.S as raw code.
trampoline() {
  local out=$1
  aarch64-linux-gnu-as -o "$out.o" "$here/rmr-reset.S" &&
    aarch64-linux-gnu-objcopy -O binary "$out.o" "$out" ||
    { rm -f "$out.o" "$out"; die "cannot assemble $here/rmr-reset.S"; }
  rm -f "$out.o"
}

armstub() {
  local board=$1 out=$2 qemu=0 el1=0 dtb_addr=0 bl31 tmp
  shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      --qemu) qemu=1 ;;
      --el1) el1=1 ;;
      --dtb-addr) dtb_addr=$2; shift ;;
      *) die "armstub: unknown option '$1'" ;;
    esac
    shift
  done
  bl31=$(need_bl31 "$board")
  tmp=$out.tmp.$$ tmpbase=$out.tmp.$$
  mkdir -p "$(dirname "$out")"
  case "$board" in
    rpi4)
      if [ "$qemu" = 1 ]; then
        trampoline "$tmp.r.bin"
        python3 "$here/patch_bl31_qemu.py" "$bl31" "$tmp.r.bin" "$tmp" >&2 ||
          { rm -f "$tmp".*; exit 1; }
        rm -f "$tmp".r.bin
      else
        cp "$bl31" "$tmp"
      fi ;;
    rpi3)
      local blob=$bl31 defs=(--defsym "BL31_SIZE=$(stat -c %s "$bl31")")
      if [ "$qemu" = 1 ]; then
        trampoline "$tmp.r.bin"
        python3 "$here/patch_bl31_qemu.py" "$bl31" "$tmp.r.bin" "$tmp.bl31" >&2 ||
          { rm -f "$tmp".*; exit 1; }
        blob=$tmp.bl31
        defs+=(--defsym "DTB_ADDR=$dtb_addr" --defsym KERNEL_ADDR=0x80000 --defsym CNT_FREQ=0
              --defsym PEN_WFI=1)
      fi
      [ "$el1" = 0 ] || defs+=(--defsym ENTER_EL1=1)
      aarch64-linux-gnu-as "${defs[@]}" -o "$tmp.o" "$here/rpi3-armstub.S"
      aarch64-linux-gnu-ld -Ttext=0 -e _start -o "$tmp.elf" "$tmp.o"
      aarch64-linux-gnu-objcopy -O binary "$tmp.elf" "$tmp.stub"
      cat "$tmp.stub" "$blob" >"$tmp"
      rm -f "$tmp".r.bin "$tmp".bl31 "$tmp".o "$tmp".elf "$tmp".stub ;;
    *) die "armstub: board rpi3 or rpi4, not '$board'" ;;
  esac
  mv -f "$tmp" "$out"
}

# fdtput with the failing call named.
put() { fdtput "$@" || die "cannot edit $tree: fdtput $*"; }

# A value below 4 GiB as N cells (hex words, most significant first).
in_cells() {
  case "$2" in
    1) echo "$1" ;;
    2) echo "0 $1" ;;
    *) die "$in: /reserved-memory has $2 cells per value" ;;
  esac
}

# TF-A's rpi4 port sets /chosen/stdout-path to "serial0" at boot, and in
# the upstream trees serial0 is the PL011, which a Pi wires to Bluetooth:
# the console would leave the pins. So the tree's serial0 becomes the UART
# its stdout-path names (the Pi 3's and 4's: the mini UART, on GPIO 14/15
# with enable_uart=1), the other serial1, and stdout-path says serial0:
# TF-A's rewrite then changes nothing.
console_is_serial0() {
  local path alias opts target old
  path=$(fdtget -t s "$tree" /chosen stdout-path 2>/dev/null) || return 0
  alias=${path%%:*}
  opts=${path#"$alias"}
  case "$alias" in
    /*) target=$alias ;;
    *) target=$(fdtget -t s "$tree" /aliases "$alias" 2>/dev/null) ||
         die "$in: stdout-path names '$alias', which /aliases lacks" ;;
  esac
  old=$(fdtget -t s "$tree" /aliases serial0 2>/dev/null || true)
  [ "$old" = "$target" ] && return 0
  put -t s "$tree" /aliases serial0 "$target"
  [ -z "$old" ] || put -t s "$tree" /aliases serial1 "$old"
  put -t s "$tree" /chosen stdout-path "serial0$opts"
}

edit_dtb() {
  local in=$1 out=$2 bootargs=${3-} mem node cpu
  tree=$out.tmp.$$ tmpbase=$out.tmp.$$
  [ -f "$in" ] || die "$in not found"
  fdtget "$in" / compatible >/dev/null 2>&1 || die "$in is not a device tree fdtget can read"
  case "$(fdtget "$in" / compatible)" in
    *brcm,bcm2837*) mem=$RPI3_TFA_MEM ;;
    *brcm,bcm2711*) mem=$RPI4_TFA_MEM ;;
    *) die "$in is neither a Pi 3 (bcm2837) nor a Pi 4 (bcm2711) tree" ;;
  esac
  cp "$in" "$tree"
  # PSCI over SMC: the kernel runs at EL2 or EL1, TF-A at EL3.
  fdtget "$tree" /psci compatible >/dev/null 2>&1 || put -c "$tree" /psci
  put -t s "$tree" /psci compatible "arm,psci-1.0" "arm,psci-0.2" "arm,psci"
  put -t s "$tree" /psci method smc
  # The Pi 3 tree also names the spin table on /cpus itself (Linux's
  # arm32 SMP operations); PSCI is per CPU.
  fdtput -d "$tree" /cpus enable-method 2>/dev/null || true
  for cpu in $(fdtget -l "$tree" /cpus); do
    node=/cpus/$cpu
    [ "$(fdtget -t s "$tree" "$node" device_type 2>/dev/null)" = cpu ] || continue
    put -t s "$tree" "$node" enable-method psci
    fdtput -d "$tree" "$node" cpu-release-addr 2>/dev/null || true
  done
  # TF-A's memory, a no-map child of /reserved-memory (made with the
  # root's cells if the tree has none), in that node's cells.
  fdtget "$tree" /reserved-memory '#size-cells' >/dev/null 2>&1 || {
    put -c "$tree" /reserved-memory
    put -t u "$tree" /reserved-memory '#address-cells' \
      "$(fdtget -t u "$tree" / '#address-cells')"
    put -t u "$tree" /reserved-memory '#size-cells' \
      "$(fdtget -t u "$tree" / '#size-cells')"
    put -t x "$tree" /reserved-memory ranges
  }
  set -- $mem
  node=/reserved-memory/tf-a@${1#0x}
  put -c "$tree" "$node"
  put -t x "$tree" "$node" reg \
    $(in_cells "$1" "$(fdtget -t u "$tree" /reserved-memory '#address-cells')") \
    $(in_cells "$2" "$(fdtget -t u "$tree" /reserved-memory '#size-cells')")
  put "$tree" "$node" no-map
  console_is_serial0
  [ -z "$bootargs" ] || put -t s "$tree" /chosen bootargs "$bootargs"
  mv -f "$tree" "$out"
}

# $1 as 4 bytes, little-endian.
le32() {
  local v=$(($1)) i
  for i in 0 8 16 24; do
    printf "\\$(printf %03o $(((v >> i) & 255)))"
  done
}

# The Pi firmware's part of the armstub contract: magic at 0xf0 checked,
# the DTB address written at 0xf8 and the kernel's entry at 0xfc, and the
# magic cleared to say they are valid (TF-A's rpi4 port reads them only
# then: "Stub magic failure" otherwise).
fill_header() {
  local stub=$1 out=$2
  [ "$(od -An -tx4 -j 240 -N 4 "$stub" | tr -d ' ')" = 5afe570b ] ||
    die "$stub has no armstub magic (0x5afe570b) at 0xf0"
  tmpbase=$out.tmp.$$
  cp "$stub" "$out.tmp.$$"
  le32 0 | dd of="$out.tmp.$$" bs=1 seek=240 conv=notrunc status=none
  { le32 "$3"; le32 "$4"; } |
    dd of="$out.tmp.$$" bs=1 seek=248 conv=notrunc status=none
  mv -f "$out.tmp.$$" "$out"
}

case "${1:-}" in
  trampoline) [ $# = 2 ] || die "usage: tfa.sh trampoline OUT"
           trampoline "$2" ;;
  header)  [ $# = 5 ] || die "usage: tfa.sh header STUB OUT DTB_ADDR KERNEL_ADDR"
           shift; fill_header "$@" ;;
  armstub) [ $# -ge 3 ] || die "usage: tfa.sh armstub rpi3|rpi4 OUT [--qemu] [--el1] [--dtb-addr A]"
           shift; armstub "$@" ;;
  dtb)     [ $# -ge 3 ] && [ $# -le 4 ] || die "usage: tfa.sh dtb IN OUT [BOOTARGS]"
           shift; edit_dtb "$@" ;;
  *)       sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
