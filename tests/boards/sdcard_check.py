#!/usr/bin/env python3
"""Checks the SD-card images of tools/mksdcard.sh (make sdcard BOARD=...).

For each board it builds an image around a stand-in kernel (known bytes, so
the check needs no kernel build), then reads it back as the firmware would
find it: the MBR (sfdisk) has one bootable FAT partition at 1 MiB, the
partition holds exactly the expected files (mdir), and each file read back
(mtype) is byte for byte what went in: the kernel under the name that
board's firmware loads, the device trees, cmdline.txt; config.txt has the
settings the board needs. Every fact is one KTAP result; each is also
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
# directory, or "rpi5": tests/boards/rpi5.dts compiled), and config.txt
# settings as (section, key, value); section "" is before any [filter].
CARDS = {
    "rpi3": ("kernel8.img",
             ["broadcom/bcm2837-rpi-3-b.dtb", "broadcom/bcm2837-rpi-3-b-plus.dtb"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel8.img"),
              ("pi3", "device_tree", "bcm2837-rpi-3-b.dtb"),
              ("pi3+", "device_tree", "bcm2837-rpi-3-b-plus.dtb"),
              ("all", "enable_uart", "1"), ("all", "core_freq", "250")]),
    "rpi4": ("kernel8.img", ["broadcom/bcm2711-rpi-4-b.dtb"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel8.img"),
              ("", "device_tree", "bcm2711-rpi-4-b.dtb"), ("", "enable_gic", "1"),
              ("", "enable_uart", "1")]),
    "rpi5": ("kernel_2712.img", ["rpi5"],
             [("", "arm_64bit", "1"), ("", "kernel", "kernel_2712.img"),
              ("", "device_tree", "bcm2712-rpi-5-b.dtb"), ("", "uart_2ndstage", "1"),
              ("", "enable_uart", "1")]),
}


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


def card_facts(image):
    """What the card holds: {fact: value}, values as bytes or text."""
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
        facts[f"file {name}"] = run(["mtype", "-i", fs, f"::{name}"])
    return facts


def expected_facts(board, kernel, dtb_dir, rpi5_dtb):
    kernel_name, dtbs, _ = CARDS[board]
    facts = {"partitions": "start=2048 type=c boot=True"}
    files = {kernel_name: kernel, "cmdline.txt": (APPEND + "\n").encode()}
    for dtb in dtbs:
        path = rpi5_dtb if dtb == "rpi5" else os.path.join(dtb_dir, dtb)
        with open(path, "rb") as f:
            files["bcm2712-rpi-5-b.dtb" if dtb == "rpi5" else os.path.basename(dtb)] = f.read()
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
        rpi5_dtb = os.path.join(work, "rpi5.dtb")
        run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", rpi5_dtb,
             os.path.join(ROOT, "tests/boards/rpi5.dts")])
    except subprocess.CalledProcessError as e:
        ktap.result("setup", False, str(e))
    kernel = stand_in_kernel(os.path.join(work, "Image"))
    for board in ([] if ktap.failed else CARDS):
        image = os.path.join(work, f"sdcard-{board}.img")
        try:
            run([os.path.join(ROOT, "tools/mksdcard.sh"), board, os.path.join(work, "Image"),
                 image, APPEND], stderr=subprocess.STDOUT)
            actual = card_facts(image)
        except subprocess.CalledProcessError as e:
            ktap.result(f"{board}.image", False,
                        (e.stdout or b"").decode(errors="replace").strip())
            continue
        expected = expected_facts(board, kernel, dtb_dir, rpi5_dtb)
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
