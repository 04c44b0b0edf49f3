#!/usr/bin/env bash
# Boots the kernel (build/Image) in QEMU, directly, through U-Boot, or through
# a boot shim that hands it a device tree of our choosing. Run ./qemu.sh --help.
set -euo pipefail

root=$(dirname "$0")            # the repository root: qemu.sh lives there
build=$root/build

# Boot loader and addresses. Kept here, in one place, because the boot shim
# (tests/boot-shim.S) is assembled with them.
UBOOT_BIN=/usr/lib/u-boot/qemu_arm64/u-boot.bin
DTBS=$build/dtbs                # Debian's Pi trees, fetched once
IDLE_STATES_DEFAULT=$root/tools/idle-states/qemu-default.dtsi
IDLE_STATES_TFA=$root/tools/idle-states/tfa-qemu.dtsi
TFA_QEMU=$build/tfa              # TF-A for virt (tools/tfa/build-qemu.sh)
# --bad-dtb memory map on virt (RAM starts at 0x40000000). QEMU itself puts
# its own DTB in the first MiB of RAM when it boots without -kernel (it does
# so for firmware), so the shim goes just above it.
SHIM_ADDR=0x40100000
# Where `qemu -kernel` puts an Image with text_offset 0 as well: RAM + 2 MiB
# (QEMU keeps the start of RAM for its own boot stub).
KERNEL_ADDR=0x40200000
DTB_ADDR=0x44000000             # 64 MiB above RAM start: clear of the kernel
# raspi3b/raspi4b --firmware tfa: the armstub at 0 (tools/tfa/), the Image
# where the Pi firmware puts it, the tree 48 MiB up, clear of kernel and TF-A.
TFA_KERNEL_ADDR=0x80000
TFA_DTB_ADDR=0x03000000
QEMU_CNT_FREQ=62500000          # QEMU's generic counter on every board

usage() {
  cat <<'EOF'
Usage: ./qemu.sh [options]

Boots build/Image in qemu-system-aarch64, console on stdio (-nographic,
-no-reboot). The kernel ends the run with PSCI SYSTEM_OFF (exit status 0;
raspi3b/raspi4b: a watchdog reset).
Quit by hand with Ctrl-A X.

  --machine virt|raspi3b|raspi4b
                          board (default virt). raspi3b has 1G and 4 CPUs,
                          raspi4b 2G (QEMU gives the kernel the first
                          960M) and 4 CPUs with a GIC-400 (QEMU >= 9);
                          both enter at EL2 and end by watchdog reset;
                          their DTBs, Debian's, are fetched once into
                          build/dtbs/
  --firmware tfa|tfa-card raspi3b/raspi4b: PSCI from Trusted Firmware-A
                          (Debian's rpi3 or rpi4 bl31.bin at EL3: the Pi 3
                          through our armstub, the Pi 4's is one itself,
                          tools/tfa/) instead of the spin table; the tree
                          gets a psci node and TF-A's memory reserved, the
                          armstub header is filled in as the Pi firmware
                          does. tfa-card: the SD card's armstub as is
                          (stock bl31.bin): boots, but a CPU that does
                          CPU_OFF never returns (QEMU ignores TF-A's
                          RMR_EL3 reset; tfa patches that one instruction).
                          virt: TF-A's qemu platform, built here from
                          Debian's source (tools/tfa/build-qemu.sh, once,
                          into build/tfa/), at EL3 with secure=on: real
                          firmware PSCI, a secure GIC (--gic 3: GICv3 with
                          GICD_CTLR.DS = 0), idle states tfa-qemu.dtsi
  --sdcard FILE           raspi3b/raspi4b: boot an SD-card image as a Pi
                          would (tools/mksdcard.sh writes them):
                          tools/pifirmware.py plays the firmware from the
                          card's own files (config.txt, cmdline.txt, the
                          tree, the kernel, the armstub); the console is
                          the UART the card's tree names
  --el1                   raspi3b --firmware tfa: TF-A enters the kernel at
                          EL1 (default EL2)
  --console pl011|miniuart
                          raspi3b/raspi4b's console (default pl011: the
                          DTB's stdout-path is changed to name it);
                          miniuart: Debian's DTB unmodified, its
                          stdout-path the mini UART as on a real Pi,
                          QEMU's second serial on stdio and the PL011's
                          output dropped
  --smp N                 number of CPUs (default 4; at most 8 with GICv2)
  --gic 2|3               virt interrupt controller version (default 2)
  --el2                   virt with virtualization=on: enter the kernel at
                          EL2, PSCI conduit becomes SMC
  --cpu NAME              CPU model (default cortex-a53)
  --mem SIZE              RAM size, e.g. 128M, 2G (default 256M)
  --append "ARGS"         kernel command line (/chosen/bootargs)
  --uboot                 boot through Debian's U-Boot: build a disk image with
                          the Image and a boot.scr (tools/mkdisk.sh) and
                          attach it as a virtio disk (virt only)
  --bad-dtb FILE|none     skip -kernel: a boot shim (tests/boot-shim.S) enters
                          the kernel with x0 = FILE loaded at 0x44000000, or
                          with x0 = 0 for `none` (virt only)
  --dtb FILE              give QEMU this device tree (-dtb), as is
  --idle-states default|none|FILE
                          virt: idle states added to QEMU's tree (which
                          has none) for every CPU: default is
                          tools/idle-states/qemu-default.dtsi, FILE a
                          fragment like it (its labelled states, in
                          order), none for QEMU's tree as is; ignored
                          with --dtb or --bad-dtb
  --dump-dtb FILE         write the device tree QEMU would pass to the kernel
                          (with the command line of --append) and exit
  --image FILE            kernel Image to boot (default build/Image)
  --gdb                   start halted, wait for GDB on port 1234
                          (-gdb tcp::1234 -S)
  --gdb-port N            with --gdb: the gdbstub's TCP port (default 1234)
  --timeout SECS          kill QEMU after SECS s: prints "qemu.sh: timeout
                          after SECS s" and exits 124
  --extra "QEMU ARGS"     more QEMU arguments (split on spaces)
  -h, --help              this text
EOF
}

die() { echo "qemu.sh: $*" >&2; exit 2; }

# Prints a command so that it can be pasted back into a shell.
print_cmd() {
  local word out=""
  for word in "$@"; do
    if [[ "$word" =~ ^[A-Za-z0-9_./,:=@%+-]+$ ]]; then
      out+="$word "
    else
      out+="'${word//\'/\'\\\'\'}' "
    fi
  done
  echo "${out% }"
}

# True when file $1 exists and is newer than every other argument.
up_to_date() {
  local out=$1 dep
  shift
  [ -e "$out" ] || return 1
  for dep; do
    [ "$out" -nt "$dep" ] || return 1
  done
}

# Debian's Raspberry Pi device tree for the board ($pi_dtb: the Pi 3 B's
# or the Pi 4 B's), as shipped (the real board's): fetched once into
# build/dtbs/ by tools/debian-kernel.sh. Its /chosen/stdout-path names
# serial1, the mini UART, the console a real Pi has on its pins (the PL011
# drives Bluetooth there). Prints its path. The lock: parallel boots (make
# test) must not both download and unpack.
raspi_stock_dtb() {
  local dir out=$DTBS/$pi_dtb
  mkdir -p "$DTBS"
  if [ ! -e "$out" ]; then
    exec 9>"$out.lock"
    flock 9
    if [ ! -e "$out" ]; then
      dir=$("$root/tools/debian-kernel.sh" dtbs) ||
        die "cannot fetch the Raspberry Pi device tree $pi_dtb (pass --dtb FILE)"
      cp "$dir/broadcom/$pi_dtb" "$out.tmp.$$"
      mv -f "$out.tmp.$$" "$out"
    fi
    exec 9>&-
  fi
  echo "$out"
}

# The same tree with one change made in a copy, for the default PL011
# console: /chosen/stdout-path names serial0, the PL011, which QEMU wires
# to its first -serial. Prints the copy's path.
raspi_dtb() {
  local stock out=$DTBS/${pi_dtb%.dtb}-qemu.dtb tmp
  stock=$(raspi_stock_dtb) || exit  # its die(), in our subshell
  if ! up_to_date "$out" "$stock" "$0"; then
    tmp="$out.tmp.$$"
    cp "$stock" "$tmp"
    fdtput -t s "$tmp" /chosen stdout-path "serial0:115200n8" ||
      die "cannot edit $tmp (fdtput, from device-tree-compiler)"
    mv -f "$tmp" "$out"
  fi
  echo "$out"
}

# ---- options ----------------------------------------------------------------

machine=virt smp=4 gic=2 el2=0 cpu=cortex-a53 mem=256M
append="" append_set=0 uboot=0 bad_dtb="" dtb="" dump_dtb="" firmware="" el1=0
sdcard="" console_set=0
idle_states=""
image=$build/Image gdb=0 gdb_port=1234 timeout_s="" extra=()
smp_set=0 mem_set=0 cpu_set=0 gic_set=0 console=pl011

need_arg() { [ $# -ge 2 ] || die "$1 needs an argument (try --help)"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --machine)  need_arg "$@"; machine=$2; shift ;;
    --console)  need_arg "$@"; console=$2; console_set=1; shift ;;
    --sdcard)   need_arg "$@"; sdcard=$2; shift ;;
    --smp)      need_arg "$@"; smp=$2; smp_set=1; shift ;;
    --gic)      need_arg "$@"; gic=$2; gic_set=1; shift ;;
    --el2)      el2=1 ;;
    --el1)      el1=1 ;;
    --firmware) need_arg "$@"; firmware=$2; shift ;;
    --cpu)      need_arg "$@"; cpu=$2; cpu_set=1; shift ;;
    --mem)      need_arg "$@"; mem=$2; mem_set=1; shift ;;
    --append)   need_arg "$@"; append=$2; append_set=1; shift ;;
    --uboot)    uboot=1 ;;
    --bad-dtb)  need_arg "$@"; bad_dtb=$2; shift ;;
    --dtb)      need_arg "$@"; dtb=$2; shift ;;
    --dump-dtb) need_arg "$@"; dump_dtb=$2; shift ;;
    --idle-states) need_arg "$@"; idle_states=$2; shift ;;
    --image)    need_arg "$@"; image=$2; shift ;;
    --gdb)      gdb=1 ;;
    --gdb-port) need_arg "$@"; gdb_port=$2; shift ;;
    --timeout)  need_arg "$@"; timeout_s=$2; shift ;;
    --extra)    need_arg "$@"; read -ra more <<<"$2"; extra+=("${more[@]}"); shift ;;
    -h|--help)  usage; exit 0 ;;
    *)          die "unknown option '$1' (try --help)" ;;
  esac
  shift
done

# ---- checks -----------------------------------------------------------------

[[ "$smp" =~ ^[1-9][0-9]*$ ]] || die "--smp wants a positive number, not '$smp'"
[[ "$mem" =~ ^[1-9][0-9]*[MG]?$ ]] || die "--mem wants a size like 256M or 2G, not '$mem'"
[[ "$gic" =~ ^[23]$ ]] || die "--gic wants 2 or 3, not '$gic'"
[ -z "$timeout_s" ] || [[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] ||
  die "--timeout wants whole seconds, not '$timeout_s'"
[ "$uboot" = 0 ] || [ -z "$bad_dtb" ] || die "--uboot and --bad-dtb exclude each other"
[ -z "$bad_dtb" ] || [ "$append_set" = 0 ] ||
  die "--bad-dtb boots without -kernel: the command line must come from the DTB's /chosen/bootargs, not --append"
[ -z "$bad_dtb" ] || [ -z "$dtb" ] || die "--bad-dtb and --dtb exclude each other"
[ -z "$dump_dtb" ] || { [ "$uboot" = 0 ] && [ -z "$bad_dtb" ]; } ||
  die "--dump-dtb shows what -kernel would pass; drop --uboot/--bad-dtb"
[[ "$append" != *$'\n'* ]] || die "--append must be one line"
[[ "$gdb_port" =~ ^[1-9][0-9]*$ ]] && [ "$gdb_port" -le 65535 ] ||
  die "--gdb-port wants a TCP port (1-65535), not '$gdb_port'"

case "$firmware" in
  "") [ "$el1" = 0 ] || die "--el1 goes with --firmware tfa" ;;
  tfa|tfa-card)
    if [ "$machine" = virt ]; then
      [ "$firmware" = tfa ] || die "--firmware tfa-card is for raspi3b/raspi4b"
      [ "$el2" = 0 ] || die "--firmware tfa on virt enters the kernel at EL1; drop --el2"
      [ "$uboot" = 0 ] && [ -z "$bad_dtb" ] || die "--firmware tfa boots the Image itself; drop --uboot/--bad-dtb"
    else
      [ -z "$dtb" ] || die "--firmware tfa edits the Pi tree itself; drop --dtb"
    fi ;;
  *) die "--firmware wants tfa or tfa-card, not '$firmware'" ;;
esac

if [ -n "$sdcard" ]; then
  [ "$machine" = raspi3b ] || [ "$machine" = raspi4b ] ||
    die "--sdcard boots a Pi card: --machine raspi3b or raspi4b"
  [ -e "$sdcard" ] || die "$sdcard not found"
  [ -z "$firmware" ] && [ -z "$dtb" ] && [ "$append_set" = 0 ] && [ "$console_set" = 0 ] &&
    [ -z "$dump_dtb" ] ||
    die "--sdcard takes the firmware, tree, command line and console from the card;" \
      "drop --firmware/--dtb/--append/--console/--dump-dtb"
fi

case "$machine" in
  virt)
    [ "$console" = pl011 ] || die "--console $console is raspi3b/raspi4b only (virt has a PL011)"
    if [ "$gic" = 2 ] && [ "$smp" -gt 8 ]; then
      die "GICv2 supports at most 8 CPUs; use --gic 3 for --smp $smp"
    fi
    machine_opts="virt,gic-version=$gic"
    [ "$el2" = 0 ] || machine_opts+=",virtualization=on"
    # EL3 for TF-A; QEMU's own PSCI is then off.
    [ -z "$firmware" ] || machine_opts+=",secure=on"
    case "$idle_states" in
      ""|default)
        idle_states=$IDLE_STATES_DEFAULT
        [ -z "$firmware" ] || idle_states=$IDLE_STATES_TFA ;;
      none) ;;
      *) [ -e "$idle_states" ] || die "--idle-states: $idle_states not found" ;;
    esac
    if [ "$idle_states" != none ] && { [ -n "$dtb" ] || [ -n "$bad_dtb" ]; }; then
      # A tree given as is keeps what it has.
      idle_states=none
    fi
    ;;
  raspi3b|raspi4b)
    # The board is fixed: its memory, 4 cores, entry at EL2, no GIC option.
    if [ "$machine" = raspi3b ]; then
      pi_mem=1G pi_dtb=bcm2837-rpi-3-b.dtb pi_cpu=Cortex-A53
      pi_gic="has no GIC (BCM2836 local interrupt controller)"
    else
      qemu-system-aarch64 -M help 2>/dev/null | grep -q '^raspi4b ' ||
        die "this QEMU has no raspi4b (QEMU >= 9; tools/setup.sh installs it)"
      pi_mem=2G pi_dtb=bcm2711-rpi-4-b.dtb pi_cpu=Cortex-A72
      pi_gic="has a fixed GIC-400"
    fi
    [ "$smp_set" = 0 ] || [ "$smp" = 4 ] || die "$machine always has 4 CPUs"
    [ "$mem_set" = 0 ] || [ "$mem" = "$pi_mem" ] ||
      die "$machine always has $pi_mem of memory"
    [ "$cpu_set" = 0 ] || die "$machine has fixed $pi_cpu cores; drop --cpu"
    [ "$gic_set" = 0 ] || die "$machine $pi_gic"
    [ "$uboot" = 0 ] || die "--uboot is only wired up for virt"
    [ -z "$bad_dtb" ] || die "--bad-dtb uses virt's memory map; it is virt only"
    [ "$el2" = 0 ] || echo "qemu.sh: note: $machine always enters at EL2" >&2
    [ -z "$idle_states" ] || die "--idle-states is virt only (the Pi's tree is Debian's)"
    [ "$machine" = raspi3b ] || [ "$el1" = 0 ] || die "--el1 is raspi3b only"
    [ -n "$firmware" ] || [ "$el1" = 0 ] || die "--el1 goes with --firmware tfa"
    smp=4 mem=$pi_mem machine_opts=$machine
    case "$console" in
      pl011)    [ -n "$dtb" ] || [ -n "$sdcard" ] || dtb=$(raspi_dtb) ;;
      miniuart) [ -n "$dtb" ] || dtb=$(raspi_stock_dtb) ;;
      *)        die "--console wants pl011 or miniuart, not '$console'" ;;
    esac
    ;;
  *) die "--machine wants virt, raspi3b or raspi4b, not '$machine'" ;;
esac

[ -e "$image" ] || die "$image not found: run make first (or pass --image FILE)"
[ -z "$dtb" ] || [ -e "$dtb" ] || die "$dtb not found"
if [ -n "$bad_dtb" ] && [ "$bad_dtb" != none ] && [ ! -e "$bad_dtb" ]; then
  die "$bad_dtb not found"
fi
if [ "$uboot" = 1 ]; then
  [ -e "$UBOOT_BIN" ] || die "$UBOOT_BIN not found: run tools/setup.sh (u-boot-qemu)"
  [[ "$append" != *"'"* ]] || die "--append with --uboot cannot contain a single quote"
fi

# ---- boot helpers -----------------------------------------------------------

# Assembles tests/boot-shim.S into $1 with x0 = $2 (rebuilt when stale).
build_shim() {
  local out=$1 dtb_addr=$2 tmp="$1.tmp.$$"
  up_to_date "$out" "$root/tests/boot-shim.S" "$0" && return
  mkdir -p "$build"
  aarch64-linux-gnu-as --defsym DTB_ADDR="$dtb_addr" --defsym KERNEL_ADDR="$KERNEL_ADDR" \
    -o "$tmp.o" "$root/tests/boot-shim.S"
  aarch64-linux-gnu-ld -Ttext="$SHIM_ADDR" -e _start -o "$tmp.elf" "$tmp.o"
  aarch64-linux-gnu-objcopy -O binary "$tmp.elf" "$tmp"
  rm -f "$tmp.o" "$tmp.elf"
  mv -f "$tmp" "$out"           # atomic: parallel runs may race here
}

# raspi3b/raspi4b --firmware tfa: the armstub (the Pi 3's is our stub +
# bl31.bin, the Pi 4's bl31.bin itself; with tfa, carrying the checked
# QEMU-only RMR_EL3 workaround) and the Pi tree edited for PSCI with the
# command line in it, rebuilt when stale; one tree per (tree, command line)
# pair so parallel boots do not collide. Sets tfa_stub and tfa_dtb.
tfa_files() {
  local key el=el2 tfa=$root/tools/tfa/tfa.sh board=rpi3 kind=qemu
  local memreg="0 3c000000"
  [ "$el1" = 0 ] || el=el1
  [ "$machine" = raspi3b ] || board=rpi4 memreg="0 0 3c000000"
  [ "$firmware" = tfa ] || kind=card
  tfa_stub=$build/tfa/armstub-$board-$kind-$el.bin
  if ! up_to_date "$tfa_stub" "$root"/tools/tfa/* "$0"; then
    if [ "$board" = rpi3 ] && [ "$kind" = qemu ]; then
      # Our stub has the addresses built in, as the header would say.
      "$tfa" armstub rpi3 "$tfa_stub" --qemu \
        --dtb-addr "$TFA_DTB_ADDR" $([ "$el1" = 0 ] || echo --el1) >&2 ||
        die "cannot build the TF-A armstub (tools/tfa/tfa.sh)"
    else
      "$tfa" armstub "$board" "$tfa_stub.stub" $([ "$el1" = 0 ] || echo --el1) \
        $([ "$kind" = card ] || echo --qemu) >&2 &&
        "$tfa" header "$tfa_stub.stub" "$tfa_stub" "$TFA_DTB_ADDR" "$TFA_KERNEL_ADDR" ||
        die "cannot build the TF-A armstub (tools/tfa/tfa.sh)"
      rm -f "$tfa_stub.stub"
    fi
  fi
  key=$(printf '%s\n%s' "$dtb" "$append" | cksum | cut -d' ' -f1)
  tfa_dtb=$build/tfa/$board-psci-$key.dtb
  if ! up_to_date "$tfa_dtb" "$dtb" "$root/tools/tfa/tfa.sh" "$0"; then
    "$root/tools/tfa/tfa.sh" dtb "$dtb" "$tfa_dtb.tmp.$$" "$append" ||
      die "cannot edit $dtb for TF-A (tools/tfa/tfa.sh)"
    # TF-A writes the board's crystal (Pi 3: 19.2 MHz, Pi 4: 54 MHz) into
    # CNTFRQ_EL0, but QEMU's counter runs at QEMU's 62.5 MHz whatever
    # CNTFRQ says: the timer binding's clock-frequency tells the kernel
    # the rate it really has.
    fdtput -t u "$tfa_dtb.tmp.$$" /timer clock-frequency "$QEMU_CNT_FREQ" ||
      die "cannot set /timer clock-frequency in $tfa_dtb"
    # The memory the GPU firmware would fill in (QEMU's own loader does
    # so for -kernel): the first GiB less the 64 MiB the VideoCore keeps.
    fdtput -t x "$tfa_dtb.tmp.$$" /memory@0 reg $memreg ||
      die "cannot set /memory@0 reg in $tfa_dtb"
    mv -f "$tfa_dtb.tmp.$$" "$tfa_dtb"
  fi
}

# Builds, if stale, the U-Boot disk for $image + $append; prints its path.
# One file per (image, command line) pair so parallel boots do not collide.
uboot_disk() {
  local key disk
  key=$(printf '%s\n%s' "$image" "$append" | cksum | cut -d' ' -f1)
  disk=$build/uboot/disk-$key.img
  if ! up_to_date "$disk" "$image" "$root/tools/mkdisk.sh" "$root/tools/fatdisk.sh"; then
    mkdir -p "$build/uboot"
    "$root/tools/mkdisk.sh" "$image" "$append" "$disk" >&2
  fi
  echo "$disk"
}

# U-Boot's control device tree on qemu_arm64 is the one QEMU hands it, and
# U-Boot passes it on to the kernel. We give QEMU that same tree (dumped from
# the same machine options, or --dtb) plus a /config node with bootdelay = 0,
# so that the autoboot countdown does not wait 2 s. --extra options go into
# the dump too: a device they add must be in the tree. Prints the file's path.
uboot_dtb() {
  local key out tmp
  key=$(print_cmd "${machine_args[@]}" "${extra[@]}" "$dtb" | cksum | cut -d' ' -f1)
  out=$build/uboot/qemu-$key.dtb
  tmp="$out.tmp.$$"
  mkdir -p "$build/uboot"
  if [ -n "$dtb" ]; then
    cp "$dtb" "$tmp.in"
  else
    qemu-system-aarch64 -machine "$machine_opts,dumpdtb=$tmp.in" \
      "${machine_args[@]:2}" -nographic "${extra[@]}" >/dev/null 2>&1 ||
      die "could not dump QEMU's device tree"
  fi
  { dtc -q -I dtb -O dts "$tmp.in"; echo '/ { config { bootdelay = <0>; }; };'; } |
    dtc -q -I dts -O dtb -o "$tmp"
  rm -f "$tmp.in"
  mv -f "$tmp" "$out"
  echo "$out"
}

# The tree QEMU generates for the machine (and --extra devices), with the
# idle states of the fragment $idle_states added: the fragment's labelled
# states, in its order, become every CPU node's cpu-idle-states, and the
# labelled states of its domain-idle-states those of a PSCI power domain
# per cluster of 2 CPUs (each CPU's own domain under it). One file
# per (machine, fragment) pair, rebuilt when the fragment changes.
idle_dtb() {
  local key out tmp syms labels domain refs cpu n
  key=$(print_cmd "${machine_args[@]}" "${extra[@]}" | cat - "$idle_states" | cksum | cut -d' ' -f1)
  out=$build/idle/virt-$key.dtb
  if up_to_date "$out" "$idle_states" "$0"; then
    echo "$out"
    return
  fi
  tmp="$out.tmp.$$"
  mkdir -p "$build/idle"
  qemu-system-aarch64 -machine "$machine_opts,dumpdtb=$tmp.in" \
    "${machine_args[@]:2}" -nographic "${extra[@]}" >/dev/null 2>&1 ||
    die "could not dump QEMU's device tree"
  # Labels under a domain-idle-states node are cluster states, the others
  # CPU states: read from the fragment's own symbols.
  syms=$({ echo '/dts-v1/;'; cat "$idle_states"; } | dtc -q -@ -I dts -O dts - 2>/dev/null |
    sed -n '/__symbols__ {/,/};/ s/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\) = "\(.*\)";$/\1 \2/p')
  labels=$(echo "$syms" | awk '$2 !~ /domain-idle-states/ {print $1}')
  domain=$(echo "$syms" | awk '$2 ~ /domain-idle-states\// {print $1}')
  [ -n "$labels" ] || die "--idle-states: $idle_states labels no state (LABEL: node { ... })"
  refs=$(for l in $labels; do printf '&%s ' "$l"; done)
  {
    dtc -q -I dtb -O dts "$tmp.in"
    cat "$idle_states"
    n=0
    for cpu in $(fdtget -l "$tmp.in" /cpus | grep '^cpu@'); do
      echo "&{/cpus/$cpu} { cpu-idle-states = <${refs% }>; };"
      # Cluster states: PSCI power domains, clusters of 2 CPUs in order;
      # not under /psci, which QEMU replaces with its own when it boots.
      [ -n "$domain" ] || continue
      [ $((n % 2)) = 1 ] || echo "/ { psci-domains { CLUSTER_PD$((n / 2)): power-domain-cluster$((n / 2)) {
        #power-domain-cells = <0>; domain-idle-states = <$(printf '&%s ' $domain)>; }; }; };"
      echo "/ { psci-domains { CPU_PD$n: power-domain-cpu$n {
        #power-domain-cells = <0>; power-domains = <&CLUSTER_PD$((n / 2))>; }; }; };
        &{/cpus/$cpu} { power-domains = <&CPU_PD$n>; power-domain-names = \"psci\"; };"
      n=$((n + 1))
    done
  } | dtc -q -I dts -O dtb -o "$tmp" - ||
    die "--idle-states: dtc refused $idle_states merged into QEMU's tree"
  rm -f "$tmp.in"
  mv -f "$tmp" "$out"
  echo "$out"
}

# ---- the command line -------------------------------------------------------

# The machine: what decides the device tree QEMU generates.
machine_args=(-machine "$machine_opts")
[ "$machine" != virt ] || machine_args+=(-cpu "$cpu")
machine_args+=(-smp "$smp" -m "$mem")

cmd=(qemu-system-aarch64 "${machine_args[@]}" -nographic -no-reboot)

# virt's idle states: the tree with them is given as --dtb would be.
if [ "$machine" = virt ] && [ "$idle_states" != none ]; then
  dtb=$(idle_dtb) || exit
fi

# --sdcard: the firmware's part played from the card's files; its tree
# names the console.
if [ -n "$sdcard" ]; then
  key=$(printf '%s\n%s' "$(cd "$(dirname "$sdcard")" && pwd)/$(basename "$sdcard")" "$machine" |
        cksum | cut -d' ' -f1)
  card_dir=$build/sdcard-boot/$key
  rm -rf "$card_dir"
  console=$("$root/tools/pifirmware.py" --machine "$machine" --out "$card_dir" "$sdcard") ||
    die "cannot boot $sdcard (tools/pifirmware.py said why above)"
  mapfile -t card_args <"$card_dir/qemu.args"
fi

# Console on stdio, muxed with the QEMU monitor (Ctrl-A C). Works without a
# tty, e.g. with stdin from /dev/null under CI. On raspi3b that is the PL011
# (the DTB copy names it) and not also the mini-UART: a mux gives its input
# to the frontend attached last, which would then take every keystroke.
# With --console miniuart it is the mini UART alone, QEMU's second serial
# (the first is always the PL011, here sent nowhere).
if [ "$console" = miniuart ]; then
  cmd+=(-serial null -serial mon:stdio)
else
  cmd+=(-serial mon:stdio)
fi

if [ -n "$dump_dtb" ] && [ -n "$firmware" ]; then
  tfa_files
  mkdir -p "$(dirname "$dump_dtb")"
  cp "$tfa_dtb" "$dump_dtb"
  exit 0
elif [ -n "$dump_dtb" ]; then
  mkdir -p "$(dirname "$dump_dtb")"
  cmd=(qemu-system-aarch64 -machine "$machine_opts,dumpdtb=$dump_dtb"
       "${machine_args[@]:2}" -nographic -kernel "$image")
  [ "$append_set" = 0 ] || cmd+=(-append "$append")
  [ -z "$dtb" ] || cmd+=(-dtb "$dtb")
  echo "qemu.sh: $(print_cmd "${cmd[@]}")" >&2
  exec "${cmd[@]}"
elif [ "$uboot" = 1 ]; then
  disk=$(uboot_disk)
  uboot_fdt=$(uboot_dtb)
  # Read-only: U-Boot only loads from it, and QEMU then takes a shared
  # lock, so boots with the same disk (EL1 and EL2, same command line) can
  # run in parallel instead of failing on the write lock.
  cmd+=(-bios "$UBOOT_BIN" -dtb "$uboot_fdt"
        -drive "if=none,format=raw,file=$disk,id=bootdisk,readonly=on"
        -device "virtio-blk-device,drive=bootdisk")
elif [ -n "$sdcard" ]; then
  cmd+=("${card_args[@]}")
elif [ -n "$firmware" ] && [ "$machine" = virt ]; then
  # TF-A from flash: BL1, BL2, then BL31 enters the Image the loader puts
  # at its PRELOADED_BL33_BASE, with x0 = the tree QEMU leaves at the start
  # of RAM. -kernel (passed to firmware through fw_cfg, unused) is what
  # lets -append reach that tree's /chosen/bootargs.
  tfa_flash=$TFA_QEMU/qemu-gicv$gic/flash.bin
  [ -e "$tfa_flash" ] || "$root/tools/tfa/build-qemu.sh" "$TFA_QEMU" >&2
  [ -e "$tfa_flash" ] || die "no TF-A for QEMU virt: $(cat "$TFA_QEMU/unavailable" 2>/dev/null)"
  cmd+=(-bios "$tfa_flash" -kernel "$image"
        -device "loader,file=$image,addr=$KERNEL_ADDR,force-raw=on")
  [ "$append_set" = 0 ] || cmd+=(-append "$append")
  [ -z "$dtb" ] || cmd+=(-dtb "$dtb")
elif [ -n "$firmware" ]; then
  # No -kernel: every core resets at 0 in EL3, as on a Pi with an armstub.
  tfa_files
  cmd+=(-device "loader,file=$tfa_stub,addr=0,force-raw=on"
        -device "loader,file=$image,addr=$TFA_KERNEL_ADDR,force-raw=on"
        -device "loader,file=$tfa_dtb,addr=$TFA_DTB_ADDR,force-raw=on")
elif [ -n "$bad_dtb" ]; then
  if [ "$bad_dtb" = none ]; then
    shim=$build/boot-shim-nodtb.bin
    build_shim "$shim" 0
  else
    shim=$build/boot-shim.bin
    build_shim "$shim" "$DTB_ADDR"
  fi
  cmd+=(-device "loader,file=$shim,addr=$SHIM_ADDR,cpu-num=0"
        -device "loader,file=$image,addr=$KERNEL_ADDR,force-raw=on")
  [ "$bad_dtb" = none ] ||
    cmd+=(-device "loader,file=$bad_dtb,addr=$DTB_ADDR,force-raw=on")
else
  cmd+=(-kernel "$image")
  [ "$append_set" = 0 ] || cmd+=(-append "$append")
  [ -z "$dtb" ] || cmd+=(-dtb "$dtb")
fi

[ "$gdb" = 0 ] || cmd+=(-gdb "tcp::$gdb_port" -S)
cmd+=("${extra[@]}")

echo "qemu.sh: $(print_cmd "${cmd[@]}")" >&2
if [ "$gdb" = 1 ]; then
  kelf=$(dirname "$image")/kernel.elf
  echo "qemu.sh: waiting for GDB; attach with:" >&2
  echo "  gdb-multiarch $kelf -ex 'target remote :$gdb_port'" >&2
fi

if [ -z "$timeout_s" ]; then
  exec "${cmd[@]}"
fi

# --foreground keeps QEMU in our process group (a harness that stops us stops
# QEMU too) and lets it use the terminal; -k: SIGKILL if SIGTERM is ignored.
start=$SECONDS
status=0
timeout --foreground -k 5 "$timeout_s" "${cmd[@]}" || status=$?
if [ "$status" = 124 ] || { [ "$status" = 137 ] && [ $((SECONDS - start)) -ge "$timeout_s" ]; }; then
  echo "qemu.sh: timeout after $timeout_s s" >&2
  exit 124
fi
exit "$status"
