#!/usr/bin/env python3
"""Plays the Raspberry Pi firmware's part for QEMU, from an SD card's own files.

A Pi's GPU firmware reads the card's boot partition: it checks that its
own files are there, reads config.txt (the sections for the board, then
[all]), loads the device tree it names with cmdline.txt as its
/chosen/bootargs and the memory filled in, the kernel at kernel_address,
and an armstub at 0 with its header filled in (the tree's address at
0xf8, the kernel's at 0xfc, the magic at 0xf0 cleared); without an
armstub, its own spin table starts the kernel. This tool does the same
with the card image `tools/mksdcard.sh` writes, so that qemu.sh
--sdcard boots the files a user flashes, not files made for QEMU.

What QEMU needs beyond the card, each named where it is done: the
memory QEMU's raspi machines have (960 MiB below the VideoCore), the
counter rate QEMU's timer runs at when TF-A sets another (a
clock-frequency in the tree's timer node), and TF-A's RMR_EL3 warm
reset, which QEMU ignores (the checked one-instruction patch of
tools/tfa/patch_bl31_qemu.py, applied to the loaded copy). Without an
armstub, QEMU's own loader plays the firmware's spin table (-kernel).

Usage: pifirmware.py --machine raspi3b|raspi4b --out DIR CARD
Writes DIR/qemu.args (QEMU arguments, one per line) and prints the
console UART the card's kernel uses: "pl011" or "miniuart".
"""
import argparse
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTOR = 512
# Where the firmware's files go (as qemu.sh's TFA_* addresses).
DTB_ADDR = 0x03000000
ARMSTUB_MAGIC = 0x5AFE570B
QEMU_CNT_FREQ = 62500000
BOARDS = {
    # machine: (config.txt sections that match, firmware files it reads
    # from the card, /memory reg cells as fdtput -t x takes them)
    "raspi3b": (("pi3",), ("bootcode.bin", "start.elf", "fixup.dat"), ["0", "3c000000"]),
    "raspi4b": (("pi4",), ("start4.elf", "fixup4.dat"), ["0", "0", "3c000000"]),
}
UARTS = {"brcm,bcm2835-aux-uart": "miniuart", "arm,pl011": "pl011"}


def fail(msg):
    sys.exit(f"pifirmware.py: {msg}")


def run(argv, **kw):
    try:
        return subprocess.run(argv, check=True, capture_output=True, text=True, **kw).stdout
    except subprocess.CalledProcessError as e:
        fail(f"{' '.join(argv)}: {(e.stderr or e.stdout).strip()}")


def boot_partition(card):
    """Byte offset of the first FAT partition in the card's MBR."""
    with open(card, "rb") as f:
        mbr = f.read(SECTOR)
    if len(mbr) < SECTOR or mbr[510:512] != b"\x55\xaa":
        fail(f"{card}: no MBR partition table (not an SD-card image)")
    for i in range(4):
        entry = mbr[446 + 16 * i:446 + 16 * (i + 1)]
        if entry[4] in (0x0B, 0x0C, 0x0E):
            return struct.unpack_from("<I", entry, 8)[0] * SECTOR
    fail(f"{card}: no FAT partition, which is where a Pi's firmware looks")


def card_files(card, out):
    """Copies the boot partition's files into out/card; returns their names."""
    offset = boot_partition(card)
    dest = os.path.join(out, "card")
    os.makedirs(dest, exist_ok=True)
    names = run(["mdir", "-b", "-i", f"{card}@@{offset}", "::"]).split()
    names = [n.lstrip(":/") for n in names]
    for name in names:
        run(["mcopy", "-n", "-o", "-i", f"{card}@@{offset}", f"::{name}",
             os.path.join(dest, name)])
    return dest, set(names)


def config(text, sections):
    """config.txt's settings for a board: lines before any filter and in
    matching sections ([all] matches again, [none] nothing)."""
    settings, active = {}, True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower()
            active = name == "all" or name in sections
            continue
        key, sep, value = line.partition("=")
        if sep and active:
            settings[key.strip()] = value.strip()
    return settings


def put(dtb, *args):
    run(["fdtput", dtb, *args])


def console(dtb):
    """Which UART the tree's stdout-path names, as QEMU's serials go."""
    path = run(["fdtget", "-t", "s", dtb, "/chosen", "stdout-path"]).strip().split(":")[0]
    if not path.startswith("/"):
        path = run(["fdtget", "-t", "s", dtb, "/aliases", path]).strip()
    compatible = run(["fdtget", "-t", "s", dtb, path, "compatible"]).split()
    for c in compatible:
        if c in UARTS:
            return UARTS[c]
    fail(f"{dtb}: stdout-path names {path}, neither the PL011 nor the mini UART")


def armstub(src, dst, kernel_addr, out):
    """The armstub as the firmware leaves it at 0: header filled in; for
    QEMU, TF-A's msr rmr_el3 patched wherever a checked bl31.bin sits."""
    data = bytearray(open(src, "rb").read())
    patch = os.path.join(HERE, "tfa", "patch_bl31_qemu.py")
    # bl31.bin sits at 0 (the Pi 4's armstub is BL31) or after our Pi 3
    # stub, page-aligned: try each page for a build the patch knows.
    patched = False
    for base in range(0, min(len(data), 0x10000), 0x1000):
        piece = os.path.join(out, "bl31.piece")
        with open(piece, "wb") as f:
            f.write(data[base:])
        which = subprocess.run([sys.executable, patch, "--which", piece],
                               capture_output=True, text=True)
        if which.returncode != 0:
            continue
        tramp = os.path.join(out, "rmr-reset.bin")
        run([os.path.join(HERE, "tfa", "tfa.sh"), "trampoline", tramp])
        p = subprocess.run([sys.executable, patch, piece, tramp, piece + ".patched"],
                           capture_output=True, text=True)
        if p.returncode == 0:
            data[base:] = open(piece + ".patched", "rb").read()
            print(p.stdout.strip(), file=sys.stderr)
            patched = True
            break
    if not patched:
        print("pifirmware.py: no checked bl31.bin in the armstub: a CPU that does "
              "CPU_OFF will not come back on QEMU", file=sys.stderr)
    # The firmware's own part, after the patch (which checks the bytes).
    if len(data) >= 0x100 and struct.unpack_from("<I", data, 0xF0)[0] == ARMSTUB_MAGIC:
        struct.pack_into("<I", data, 0xF0, 0)
        struct.pack_into("<II", data, 0xF8, DTB_ADDR, kernel_addr)
    with open(dst, "wb") as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True, choices=sorted(BOARDS))
    ap.add_argument("--out", required=True)
    ap.add_argument("card")
    args = ap.parse_args()
    if not os.path.isfile(args.card):
        fail(f"{args.card} not found")
    sections, needed, memreg = BOARDS[args.machine]
    os.makedirs(args.out, exist_ok=True)
    src, names = card_files(args.card, args.out)
    lower = {n.lower(): n for n in names}

    def card_file(name, what):
        if name.lower() not in lower:
            fail(f"{args.card}: {what} {name} is not on the card")
        return os.path.join(src, lower[name.lower()])

    for name in needed:
        card_file(name, "the firmware file")
    text = open(card_file("config.txt", "the settings file"), errors="replace").read()
    settings = config(text, sections)
    if settings.get("arm_64bit") != "1":
        fail(f"{args.card}: config.txt lacks arm_64bit=1: the cores would start in AArch32")
    if args.machine == "raspi4b" and settings.get("enable_gic", "1") != "1":
        fail(f"{args.card}: enable_gic=0 leaves the legacy interrupt controller, which "
             "neither QEMU's Pi 4 nor this kernel drives")
    kernel = card_file(settings.get("kernel", "kernel8.img"), "the kernel")
    kernel_addr = int(settings.get("kernel_address", "0x80000"), 0)
    if "device_tree" not in settings:
        fail(f"{args.card}: config.txt names no device_tree for {args.machine}")
    tree = card_file(settings["device_tree"], "the device tree")
    cmdline = ""
    if "cmdline.txt" in lower:
        cmdline = open(card_file("cmdline.txt", ""), errors="replace").readline().strip()

    # The tree as the firmware hands it over.
    dtb = os.path.join(args.out, "firmware.dtb")
    with open(tree, "rb") as f, open(dtb, "wb") as g:
        g.write(f.read())
    put(dtb, "-t", "s", "/chosen", "bootargs", cmdline)
    put(dtb, "-t", "x", "/memory@0", "reg", *memreg)
    qemu = []
    if "armstub" in settings:
        stub = os.path.join(args.out, "armstub.bin")
        armstub(card_file(settings["armstub"], "the armstub"), stub, kernel_addr, args.out)
        # QEMU only: TF-A sets CNTFRQ to the board's crystal.
        put(dtb, "-t", "u", "/timer", "clock-frequency", str(QEMU_CNT_FREQ))
        qemu += ["-device", f"loader,file={stub},addr=0,force-raw=on",
                 "-device", f"loader,file={kernel},addr={kernel_addr:#x},force-raw=on",
                 "-device", f"loader,file={dtb},addr={DTB_ADDR:#x},force-raw=on"]
    else:
        if kernel_addr != 0x80000:
            fail(f"{args.card}: kernel_address={kernel_addr:#x}: QEMU's spin-table "
                 "loader (-kernel) puts the kernel at 0x80000")
        qemu += ["-kernel", kernel, "-dtb", dtb]
    if settings.get("enable_uart") != "1" and console(dtb) == "miniuart":
        print(f"pifirmware.py: {args.card}: enable_uart is not 1: on a board the "
              "mini UART would stay off", file=sys.stderr)
    with open(os.path.join(args.out, "qemu.args"), "w") as f:
        f.write("\n".join(qemu) + "\n")
    print(console(dtb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
