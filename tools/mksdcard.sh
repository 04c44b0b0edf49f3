#!/usr/bin/env bash
# Builds an SD-card image for a Raspberry Pi: an MBR partition table
# (sfdisk) with one bootable FAT32 partition (mtools, so no root and no
# loop device) holding the kernel under the name the board's firmware
# loads, config.txt, cmdline.txt, the board's device tree and the Pi
# firmware files the board needs from the card, from Debian's
# raspi-firmware package (Pi 3: bootcode.bin, start.elf, fixup.dat; Pi 4:
# start4.elf, fixup4.dat, its first stage being in its EEPROM; Pi 5: none,
# its firmware is all in the EEPROM). The card boots as flashed;
# tools/pifirmware.py boots one in QEMU from its own files.
#
# Usage: tools/mksdcard.sh [--firmware tfa] rpi3|rpi4|rpi5 IMAGE OUTPUT
#                          ["KERNEL COMMAND LINE"]
#
# --firmware tfa (Pi 3 and 4): Trusted Firmware-A as the armstub, so the
# board has PSCI and reversible hotplug, which its stock firmware lacks
# (that parks cores in a spin table). Pi 3: tools/tfa/rpi3-armstub.S with
# Debian's rpi3 bl31.bin, unpatched, behind it; Pi 4: Debian's rpi4
# bl31.bin, itself an armstub. The trees get PSCI and TF-A's memory
# reserved (tools/tfa/tfa.sh dtb).
#
# Device trees: Pi 3 B, 3 B+ and 4 B from Debian's arm64 kernel package
# (tools/debian-kernel.sh), unmodified: their stdout-path names the mini
# UART, which the kernel drives as its console; the Pi 5's from Debian's
# backports kernel (Linux 6.12: 6.1 has none), whose stdout-path names the
# debug UART. The firmware fills in their memory.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "mksdcard.sh: $*" >&2; exit 1; }

firmware=""
if [ "${1:-}" = --firmware ]; then
  [ $# -ge 2 ] || die "--firmware needs an argument"
  firmware=$2
  shift 2
fi
[ $# -ge 3 ] && [ $# -le 4 ] ||
  { echo "usage: tools/mksdcard.sh [--firmware tfa] rpi3|rpi4|rpi5 IMAGE OUTPUT [\"CMDLINE\"]" >&2; exit 2; }
board=$1 image=$2 out=$3 append=${4:-}
[ -f "$image" ] || die "$image not found (run make first)"
[[ "$append" != *$'\n'* ]] || die "the command line must be one line"

# Settings every board shares. The firmware passes the device tree in x0
# and sets /chosen/bootargs from cmdline.txt.
common_config() {
  cat <<EOF
# Made by tools/mksdcard.sh for the hotplug kernel (docs/boards.md).
# 64-bit: the cores start in AArch64 (at EL2) in this Image.
arm_64bit=1
kernel=$1
EOF
}

# The Pi 3's and 4's kernel goes where their firmware has put a 64-bit
# kernel by default (newer firmware picks 2 MiB): said, not left to the
# firmware's version. TF-A's armstub keeps below it.
load_address() {
  echo "kernel_address=0x80000"
}

# Writes config.txt for $board into $1; sets kernel_name and dtbs.
board_files() {
  local config=$1 d
  case "$board" in
    rpi3)
      kernel_name=kernel8.img
      d=$("$here/tools/debian-kernel.sh" dtbs)/broadcom
      dtbs=("$d/bcm2837-rpi-3-b.dtb" "$d/bcm2837-rpi-3-b-plus.dtb")
      firmware_files=(bootcode.bin start.elf fixup.dat)
      { common_config "$kernel_name"
        load_address
        cat <<'EOF'
# Debian's trees (Linux 6.1 names): 3 B+ and 3 A+ match [pi3+] too.
[pi3]
device_tree=bcm2837-rpi-3-b.dtb
[pi3+]
device_tree=bcm2837-rpi-3-b-plus.dtb
[all]
# The console is the tree's stdout-path: the mini UART, the PL011 being
# Bluetooth's. enable_uart=1 turns it on at 115200 on GPIO 14/15 (header
# pins 8/10); the kernel keeps the firmware's divisor, which counts VPU
# core clock cycles, so the core clock must not move: enable_uart=1 fixes
# it at 250 MHz, and core_freq=250 says so for firmware that would not.
enable_uart=1
core_freq=250
EOF
      } >"$config"
      ;;
    rpi4)
      kernel_name=kernel8.img
      d=$("$here/tools/debian-kernel.sh" dtbs)/broadcom
      dtbs=("$d/bcm2711-rpi-4-b.dtb")
      firmware_files=(start4.elf fixup4.dat)
      { common_config "$kernel_name"
        load_address
        cat <<'EOF'
device_tree=bcm2711-rpi-4-b.dtb
# Interrupts through the GIC-400 (the firmware's default on the Pi 4; 0
# would leave the legacy BCM2836-style controller in charge).
enable_gic=1
# The console is the tree's stdout-path: the mini UART on GPIO 14/15
# (header pins 8/10), the PL011 being Bluetooth's; enable_uart=1 turns it
# on, routes it there and holds the core clock its baud rate comes from
# (the kernel keeps the firmware's divisor).
enable_uart=1
EOF
      } >"$config"
      ;;
    rpi5)
      # The Pi 5 firmware loads kernel_2712.img by default.
      kernel_name=kernel_2712.img
      d=$("$here/tools/debian-kernel.sh" --series 6.12 dtbs)/broadcom
      dtbs=("$d/bcm2712-rpi-5-b.dtb")
      firmware_files=()
      { common_config "$kernel_name"
        cat <<'EOF'
# Upstream Linux's tree (Debian's 6.12 kernel package), unmodified.
device_tree=bcm2712-rpi-5-b.dtb
# The console is the debug UART (uart10, a PL011) on the 3-pin connector
# between the HDMI ports. The firmware logs there too with uart_2ndstage=1,
# so it is set up (115200 8N1) before the kernel, which keeps the baud
# rate. enable_uart=1 is for GPIO 14/15 (RP1's UART0), not driven here.
uart_2ndstage=1
enable_uart=1
EOF
      } >"$config"
      ;;
    *) die "BOARD must be rpi3, rpi4 or rpi5, not '$board'" ;;
  esac
}

mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --firmware tfa: the armstub, its config.txt line, and the trees edited
# for PSCI (same names, so the device_tree= lines stand).
tfa_files() {
  local config=$1 stub f
  case "$board" in
    rpi3) stub=armstub8-tfa.bin ;;
    rpi4) stub=bl31.bin ;;
    *) die "--firmware tfa is for rpi3 and rpi4 (the Pi 5's own firmware has PSCI)" ;;
  esac
  "$here/tools/tfa/tfa.sh" armstub "$board" "$work/$stub"
  extra+=("$work/$stub:$stub")
  mkdir -p "$work/tfa-dtb"
  for f in "${dtbs[@]}"; do
    "$here/tools/tfa/tfa.sh" dtb "$f" "$work/tfa-dtb/$(basename "$f")"
  done
  dtbs=("$work"/tfa-dtb/*.dtb)
  cat >>"$config" <<EOF
[all]
# PSCI from Trusted Firmware-A (tools/mksdcard.sh --firmware tfa): the
# firmware loads this at 0 and starts every core there at EL3; TF-A
# enters the kernel at EL2. Its log comes first on the console UART.
armstub=$stub
EOF
}

extra=()
board_files "$work/config.txt"
for f in "${dtbs[@]}"; do
  [ -f "$f" ] || die "$f not found"
done
if [ "${#firmware_files[@]}" -gt 0 ]; then
  fw=$("$here/tools/debian-kernel.sh" raspi-firmware) ||
    die "cannot fetch Debian's raspi-firmware (the non-free-firmware component: tools/setup.sh)"
  for f in "${firmware_files[@]}"; do
    [ -f "$fw/$f" ] || die "$fw/$f not found"
    extra+=("$fw/$f:$f")
  done
fi
case "$firmware" in
  "") ;;
  tfa) tfa_files "$work/config.txt" ;;
  *) die "--firmware wants tfa, not '$firmware'" ;;
esac
printf '%s\n' "$append" >"$work/cmdline.txt"

# 64 MiB: a FAT32 the boot ROMs read (tools/fatdisk.sh).
disk=$work/disk.img
files=("$image:$kernel_name" "$work/config.txt:config.txt" \
  "$work/cmdline.txt:cmdline.txt" "${dtbs[@]}" "${extra[@]}")
"$(dirname "$0")/fatdisk.sh" "$disk" 64 HPBOOT "${files[@]}"

mv -f "$disk" "$out"
echo "mksdcard.sh: $out: $kernel_name, config.txt, cmdline.txt," \
  "$(for f in "${dtbs[@]}" "${extra[@]}"; do basename "${f%%:*}"; done | paste -sd' ')"
