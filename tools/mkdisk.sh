#!/usr/bin/env bash
# Builds a disk image that U-Boot's distro boot can start the kernel from:
# an MBR partition table (sfdisk) with one bootable FAT32 partition (mtools,
# so no root and no loop device) holding the kernel Image and a boot.scr.
#
# Usage: tools/mkdisk.sh IMAGE "KERNEL COMMAND LINE" OUTPUT
#
# Distro boot scans virtio0:1, finds /boot.scr and runs it; the script loads
# the Image at ${kernel_addr_r} (0x40400000 on qemu_arm64, so not where
# `qemu -kernel` puts it), sets bootargs and boots it with U-Boot's own device
# tree (on qemu_arm64 the one QEMU generated):
#   booti ${kernel_addr_r} - ${fdtcontroladdr}
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: tools/mkdisk.sh IMAGE \"KERNEL COMMAND LINE\" OUTPUT" >&2
  exit 2
fi
image=$1 append=$2 out=$3

[ -f "$image" ] || { echo "mkdisk.sh: $image not found" >&2; exit 1; }
# The command line goes between single quotes in the U-Boot script.
case "$append" in
  *"'"*|*$'\n'*) echo "mkdisk.sh: the command line cannot hold a quote or newline" >&2; exit 1 ;;
esac

# Work next to the output so that the final mv is atomic (parallel boots).
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/boot.cmd" <<EOF
# boot.scr for U-Boot distro boot, made by tools/mkdisk.sh.
# Distro boot sets devtype, devnum and distro_bootpart to where it found us.
setenv bootargs '$append'
echo "boot.scr: loading Image at \${kernel_addr_r}, bootargs \${bootargs}"
load \${devtype} \${devnum}:\${distro_bootpart} \${kernel_addr_r} Image
booti \${kernel_addr_r} - \${fdtcontroladdr}
# Only reached when booti failed: end the run (qemu -no-reboot exits).
echo "boot.scr: booti failed"
reset
EOF
mkimage -A arm64 -O linux -T script -C none -n "kernel boot script" \
  -d "$work/boot.cmd" "$work/boot.scr" >/dev/null

# 64 MiB: a FAT32 (tools/fatdisk.sh); grow it for a huge Image.
image_mib=$(( ($(stat -c %s "$image") + (1 << 20) - 1) >> 20 ))
disk_mib=64
[ "$image_mib" -le 32 ] || disk_mib=$((image_mib + 32))

disk=$work/disk.img
"$(dirname "$0")/fatdisk.sh" "$disk" "$disk_mib" KBOOT "$image:Image" \
  "$work/boot.scr:boot.scr"

mv -f "$disk" "$out"
echo "mkdisk.sh: $out: Image + boot.scr, bootargs '$append'"
