#!/usr/bin/env python3
"""Checks the SD-card images of tools/mksdcard.sh (make sdcard BOARD=...).

For each board it builds an image around a stand-in kernel (known bytes, so
the check needs no kernel build), then reads it back as the firmware would
find it: the MBR (sfdisk) has one bootable FAT partition at 1 MiB, the
partition holds exactly the expected files (mdir), and each file read back
(mtype) is byte for byte what went in: the kernel under the name that
board's firmware loads, the device trees, cmdline.txt; config.txt has the
settings the board needs. The Trusted Firmware-A cards (--firmware tfa)
carry the stock bl31.bin unpatched (the Pi 3's behind our armstub, whose
header the firmware fills in), and trees whose edits dtc's fdtget reads
back: PSCI over SMC, every CPU's enable-method psci with no release
address, TF-A's memory reserved. Every fact is one KTAP result; each is also
checked against a deliberately wrong expectation, which must be reported
("wrong_expectations_caught").

Usage: tests/boards/sdcard_check.py --work DIR
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter   # noqa: E402
PART_OFFSET = 1 << 20            # tools/mksdcard.sh: the partition starts at 1 MiB
APPEND = "test=all poweroff"

# Per board: the kernel's name, the device trees (under the Debian DTB
# directory, or "rpi5": the 6.12 kernel's Pi 5 tree), and config.txt
# settings as (section, key, value); section "" is before any [filter].
CARDS = {
    "rpi3": ("kernel8.img",
             ["broadcom/bcm2837-rpi-3-b.dtb", "broadcom/bcm2837-rpi-3-b-plus.dtb"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel8.img"),
              ("", "kernel_address", "0x80000"),
              ("pi3", "device_tree", "bcm2837-rpi-3-b.dtb"),
              ("pi3+", "device_tree", "bcm2837-rpi-3-b-plus.dtb"),
              ("all", "enable_uart", "1"), ("all", "core_freq", "250")]),
    "rpi4": ("kernel8.img", ["broadcom/bcm2711-rpi-4-b.dtb"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel8.img"),
              ("", "kernel_address", "0x80000"),
              ("", "device_tree", "bcm2711-rpi-4-b.dtb"), ("", "enable_gic", "1"),
              ("", "enable_uart", "1")]),
    "rpi5": ("kernel_2712.img", ["rpi5"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel_2712.img"),
              ("", "device_tree", "bcm2712-rpi-5-b.dtb"), ("", "uart_2ndstage", "1"),
              ("", "enable_uart", "1")]),
}
# The Pi firmware files each card carries (Debian's raspi-firmware).
FIRMWARE = {"rpi3": ["bootcode.bin", "start.elf", "fixup.dat"],
            "rpi4": ["start4.elf", "fixup4.dat"], "rpi5": []}
TFA_DIR = "/usr/lib/arm-trusted-firmware"
# The TF-A cards: the stock card's files and settings, plus the armstub.
# (card, board, armstub file, TF-A's reserved memory as fdtget prints it)
TFA_CARDS = [("rpi3-tfa", "rpi3", "armstub8-tfa.bin", "10000000 1000000"),
             ("rpi4-tfa", "rpi4", "bl31.bin", "0 0 80000")]
for _card, _board, _stub, _ in TFA_CARDS:
    CARDS[_card] = (CARDS[_board][0], CARDS[_board][1],
                    CARDS[_board][2] + [("all", "armstub", _stub)])
ARMSTUB_MAGIC = bytes.fromhex("0b57fe5a")    # 0x5afe570b, little-endian


def run(argv, **kw):
    return subprocess.run(argv, check=True, stdout=subprocess.PIPE,
                          env=dict(os.environ, MTOOLS_SKIP_CHECK="1"), **kw).stdout


def stand_in_kernel(path):
    """300 KiB of known bytes, an Image header's magic where arm64 has it."""
    data = bytearray()
    block = b"hotplug kernel stand-in"
    while len(data) < 300 * 1024:
        block = hashlib.sha256(block).digest()
        data += block
    data[0x38:0x3c] = b"ARM\x64"
    with open(path, "wb") as f:
        f.write(data)
    return bytes(data)


def config_settings(text):
    """{(section, key): value} of a config.txt."""
    settings, section = {}, ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        else:
            key, _, value = line.partition("=")
            settings[(section, key.strip())] = value.strip()
    return settings


def fdtget(tree, node, prop):
    r = subprocess.run(["fdtget", "-t", "x" if prop == "reg" else "s", tree, node, prop],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return r.stdout.strip() if r.returncode == 0 else "none"


def tree_facts(name, data, work):
    """The TF-A edits of one device tree, read back with fdtget."""
    path = os.path.join(work, "card-" + name)
    with open(path, "wb") as f:
        f.write(data)
    cpus = [c for c in run(["fdtget", "-l", path, "/cpus"], text=True).split()
            if fdtget(path, "/cpus/" + c, "device_type") == "cpu"]
    mem = run(["fdtget", "-l", path, "/reserved-memory"], text=True).split()
    tfa = [m for m in mem if m.startswith("tf-a@")]
    return {
        f"tree {name} psci": fdtget(path, "/psci", "compatible") + " " +
        fdtget(path, "/psci", "method"),
        f"tree {name} enable-methods": " ".join(
            fdtget(path, "/cpus/" + c, "enable-method") for c in cpus),
        f"tree {name} release-addresses": " ".join(
            fdtget(path, "/cpus/" + c, "cpu-release-addr") for c in cpus),
        f"tree {name} tf-a reserved": " ".join(
            fdtget(path, "/reserved-memory/" + m, "reg") for m in tfa) or "none",
        f"tree {name} console": fdtget(path, "/chosen", "stdout-path").split(":")[0] + " " +
        fdtget(path, "/aliases", "serial0"),
    }


def card_facts(image, tfa_trees=False, work=""):
    """What the card holds: {fact: value}, values as bytes or text; with
    tfa_trees, the device trees as their TF-A edits instead of bytes."""
    facts = {}
    table = json.loads(run(["sfdisk", "--json", image]))["partitiontable"]
    parts = table["partitions"]
    facts["partitions"] = " ".join(
        f"start={p['start']} type={p['type']} boot={bool(p.get('bootable'))}" for p in parts)
    fs = f"{image}@@{PART_OFFSET}"
    names = run(["mdir", "-b", "-i", fs, "::"], text=True).split()
    facts["files"] = " ".join(sorted(n.split("/")[-1] for n in names))
    for name in names:
        name = name.split("/")[-1]
        data = run(["mtype", "-i", fs, f"::{name}"])
        if tfa_trees and name.endswith(".dtb"):
            facts.update(tree_facts(name, data, work))
        elif tfa_trees and name == "armstub8-tfa.bin":
            # Our armstub, the header for the firmware, then bl31.bin.
            facts["armstub header"] = data[0xf0:0x100].hex()
            facts["armstub bl31.bin"] = data[0x1000:]
        else:
            facts[f"file {name}"] = data
    return facts


def expected_tfa_facts(card, kernel, dtb_dir, fw_dir):
    """A TF-A card: the stock card's files, its trees as edited, and the
    unpatched bl31.bin (for the Pi 3 behind our armstub)."""
    _, board, stub, reserved = next(c for c in TFA_CARDS if c[0] == card)
    facts = expected_facts(board, kernel, dtb_dir, None, fw_dir)
    with open(os.path.join(TFA_DIR, board, "bl31.bin"), "rb") as f:
        bl31 = f.read()
    facts["files"] = " ".join(sorted(facts["files"].split() + [stub]))
    for name in [n for n in facts if n.endswith(".dtb")]:
        tree = name[len("file "):]
        del facts[name]
        ncpus = 4
        facts[f"tree {tree} psci"] = "arm,psci-1.0 arm,psci-0.2 arm,psci smc"
        facts[f"tree {tree} enable-methods"] = " ".join(["psci"] * ncpus)
        facts[f"tree {tree} release-addresses"] = " ".join(["none"] * ncpus)
        facts[f"tree {tree} tf-a reserved"] = reserved
        # serial0 made the console's UART, the mini UART at the pins.
        facts[f"tree {tree} console"] = "serial0 /soc/serial@7e215040"
    if board == "rpi3":
        # Magic, version 0, and the DTB and kernel addresses left for the
        # Pi firmware to fill in.
        facts["armstub header"] = (ARMSTUB_MAGIC + bytes(12)).hex()
        facts["armstub bl31.bin"] = bl31
    else:
        facts[f"file {stub}"] = bl31
    return facts


def expected_facts(board, kernel, dtb_dir, rpi5_dtb, fw_dir):
    if board in dict((c[0], c) for c in TFA_CARDS):
        return expected_tfa_facts(board, kernel, dtb_dir, fw_dir)
    kernel_name, dtbs, _ = CARDS[board]
    facts = {"partitions": "start=2048 type=c boot=True"}
    files = {kernel_name: kernel, "cmdline.txt": (APPEND + "\n").encode()}
    for dtb in dtbs:
        path = rpi5_dtb if dtb == "rpi5" else os.path.join(dtb_dir, dtb)
        with open(path, "rb") as f:
            files["bcm2712-rpi-5-b.dtb" if dtb == "rpi5" else os.path.basename(dtb)] = f.read()
    for name in FIRMWARE[board]:
        with open(os.path.join(fw_dir, name), "rb") as f:
            files[name] = f.read()
    facts["files"] = " ".join(sorted(list(files) + ["config.txt"]))
    for name, data in files.items():
        facts[f"file {name}"] = data
    return facts


def compare(expected, actual):
    out = []
    for name, want in expected.items():
        got = actual.get(name)
        ok = got == want
        if ok:
            detail = want if isinstance(want, str) else f"{len(want)} bytes"
        elif isinstance(want, bytes) and isinstance(got, bytes):
            detail = f"{len(got)} bytes on the card, {len(want)} put in, differ"
        else:
            detail = f"card {got!r}, want {want!r}"
        out.append((name, ok, detail))
    return out


def config_checks(board, settings):
    return [(f"config.txt [{section or '-'}] {key}={want}",
             settings.get((section, key)) == want,
             f"got {settings.get((section, key))!r}")
            for section, key, want in CARDS[board][2]]


def wrong_expectations_missed(board, expected, actual, settings):
    """Each expectation altered in turn must fail; returns those that did not."""
    missed = []
    for name, want in expected.items():
        wrong = dict(expected)
        wrong[name] = want + (b"\0" if isinstance(want, bytes) else " x")
        if dict((n, ok) for n, ok, _ in compare(wrong, actual))[name]:
            missed.append(name)
    for i, (section, key, want) in enumerate(CARDS[board][2]):
        altered = dict(settings)
        altered[(section, key)] = want + "0"
        if config_checks(board, altered)[i][1]:
            missed.append(f"config {key}")
    return missed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="directory for the images")
    args = parser.parse_args()
    work = os.path.join(args.work, "sdcard")
    os.makedirs(work, exist_ok=True)

    ktap = KtapWriter()
    try:
        dtb_dir = run([os.path.join(ROOT, "tools/debian-kernel.sh"), "dtbs"], text=True).strip()
        rpi5_dtb = os.path.join(run([os.path.join(ROOT, "tools/debian-kernel.sh"), "--series",
                                     "6.12", "dtbs"], text=True).strip(),
                                "broadcom", "bcm2712-rpi-5-b.dtb")
        fw_dir = run([os.path.join(ROOT, "tools/debian-kernel.sh"), "raspi-firmware"],
                     text=True).strip()
    except subprocess.CalledProcessError as e:
        ktap.result("setup", False, str(e))
    kernel = stand_in_kernel(os.path.join(work, "Image"))
    for board in ([] if ktap.failed else CARDS):
        image = os.path.join(work, f"sdcard-{board}.img")
        tfa = board.endswith("-tfa")
        try:
            run([os.path.join(ROOT, "tools/mksdcard.sh"),
                 *(["--firmware", "tfa", board[:-4]] if tfa else [board]),
                 os.path.join(work, "Image"), image, APPEND], stderr=subprocess.STDOUT)
            actual = card_facts(image, tfa, work)
        except subprocess.CalledProcessError as e:
            ktap.result(f"{board}.image", False,
                        (e.stdout or b"").decode(errors="replace").strip())
            continue
        expected = expected_facts(board, kernel, dtb_dir, rpi5_dtb, fw_dir)
        settings = config_settings(actual.get("file config.txt", b"").decode())
        for name, ok, detail in compare(expected, actual) + config_checks(board, settings):
            ktap.result(f"{board}.{name}", ok, detail)
        missed = wrong_expectations_missed(board, expected, actual, settings)
        total = len(expected) + len(CARDS[board][2])
        ktap.result(f"{board}.wrong_expectations_caught", not missed,
                    f"{total - len(missed)} of {total} altered expectations reported" +
                    (f", not: {', '.join(missed)}" if missed else ""))
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
