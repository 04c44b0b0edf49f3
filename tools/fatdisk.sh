#!/usr/bin/env bash
# Writes a disk image firmware can boot from: an MBR partition table
# (sfdisk) with one bootable FAT32 partition at 1 MiB (mtools: no root, no
# loop device), holding the files given. Shared by tools/mkdisk.sh (U-Boot)
# and tools/mksdcard.sh (Raspberry Pi).
#
# Usage: tools/fatdisk.sh OUTPUT SIZE_MIB LABEL FILE[:NAME]...
#   FILE is copied to the partition's root as NAME (default: its basename).
# SIZE_MIB of 64 or more makes a FAT32 every boot ROM reads (>= 65525
# clusters); the file is sparse, so size costs almost nothing on disk.
set -euo pipefail

die() { echo "fatdisk.sh: $*" >&2; exit 1; }
[ $# -ge 4 ] || die "usage: tools/fatdisk.sh OUTPUT SIZE_MIB LABEL FILE[:NAME]..."
out=$1 size=$2 label=$3
shift 3

PART_START=2048                 # sectors of 512 bytes: the partition starts at 1 MiB
export MTOOLS_SKIP_CHECK=1      # mtools: do not second-guess our geometry

rm -f "$out"
truncate -s "${size}M" "$out"
printf 'label: dos\nstart=%d, type=c, bootable\n' "$PART_START" | sfdisk -q "$out"
part="$out@@$((PART_START * 512))"
mformat -i "$part" -F -H "$PART_START" -v "$label" ::
for spec in "$@"; do
  src=${spec%%:*} name=${spec#*:}
  [ "$spec" != "$src" ] || name=$(basename "$src")
  [ -f "$src" ] || die "$src not found"
  mcopy -i "$part" "$src" "::$name"
done
