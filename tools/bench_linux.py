#!/usr/bin/env python3
"""`make bench-linux`: Debian's stock arm64 Linux on the same QEMU machine
as `make bench`'s -smp 4 boot, measured the same way, side by side.

Two Linux kernels: the release's (6.1) and the backports' (6.12, the
suite tools/setup.sh adds); a series apt cannot offer is left out, said.
They (linux-image-*-arm64-unsigned) and busybox-static come from Debian at
run time (tools/debian-kernel.sh), never committed. The initramfs is built
here: busybox and an /init that reads /proc/uptime when it starts (boot to
init) and around CPU3 offline+online cycles through sysfs. /proc/uptime
has 10 ms steps, so each cycle is also timed as a group: the mean of N
cycles is exact to 10 ms / N.

Our kernel's figures come from build/bench.json (run `make bench` first;
this runs the -smp 4 part of it if the file is missing).

Usage: tools/bench_linux.py [--cycles N] [--timeout S] [--series 6.1,6.12]
"""
import argparse
import gzip
import io
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.qemu import run_qemu   # noqa: E402

INIT = """#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
read up idle < /proc/uptime
echo "BENCH init_uptime $up"
cpu=/sys/devices/system/cpu/cpu3/online
read up idle < /proc/uptime
echo "BENCH cycles_start $up"
i=0
while [ $i -lt {cycles} ]; do
    echo 0 > $cpu || echo "BENCH error offline"
    echo 1 > $cpu || echo "BENCH error online"
    read up idle < /proc/uptime
    echo "BENCH cycle $i $up"
    i=$((i + 1))
done
echo "BENCH online $(/bin/busybox cat /sys/devices/system/cpu/online)"
echo "BENCH done"
/bin/busybox poweroff -f
"""


def newc(entries):
    """A cpio archive in the newc format the kernel unpacks."""
    out = io.BytesIO()

    def put(name, mode, data=b""):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08x}" for v in (
            put.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
            len(name_b), 0))
        put.ino += 1
        out.write(hdr.encode() + name_b)
        out.write(b"\0" * (-(110 + len(name_b)) % 4))
        out.write(data)
        out.write(b"\0" * (-len(data) % 4))
    put.ino = 1
    for name, mode, data in entries:
        put(name, mode, data)
    put("TRAILER!!!", 0)
    return out.getvalue()


def fetch(what, series="6.1"):
    """tools/debian-kernel.sh's answer; series 6.1 is the release's own."""
    extra = [] if series == "6.1" else ["--series", series]
    return subprocess.run([os.path.join(ROOT, "tools", "debian-kernel.sh"), *extra, what],
                          check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()


def initramfs(cycles):
    with open(fetch("busybox"), "rb") as f:
        busybox = f.read()
    archive = newc([
        ("bin", 0o040755, b""),
        ("bin/busybox", 0o100755, busybox),
        ("bin/sh", 0o120777, b"busybox"),
        ("init", 0o100755, INIT.format(cycles=cycles).encode()),
    ])
    path = os.path.join(BUILD, "bench-linux-initramfs.cpio.gz")
    with gzip.open(path, "wb") as f:
        f.write(archive)
    return path


def run_linux(cycles, timeout, series):
    raw = fetch("image", series)
    with open(raw, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    if gzipped:  # some releases gzip the Image; -kernel wants it plain
        plain = os.path.join(BUILD, f"bench-linux-{series}-Image")
        with gzip.open(raw, "rb") as src, open(plain, "wb") as dst:
            dst.write(src.read())
        raw = plain
    cmd = ["timeout", str(timeout), "qemu-system-aarch64",
           "-machine", "virt,gic-version=2", "-cpu", "cortex-a53", "-smp", "4",
           "-m", "512M", "-nographic", "-no-reboot", "-kernel", raw,
           "-initrd", initramfs(cycles),
           "-append", "console=ttyAMA0 quiet panic=-1"]
    log_path = os.path.join(BUILD, f"bench-linux-{series}.log")
    with open(log_path, "w") as f:
        log = "\n".join(run_qemu(cmd, timeout, f).stdout)
    if "BENCH done" not in log:
        with open(log_path, errors="replace") as f:
            sys.stderr.write(f.read()[-3000:])
        sys.exit(f"bench_linux.py: Linux {series} did not finish its cycles; its"
                 f" console is in {os.path.relpath(log_path, ROOT)}")
    values = dict(re.findall(r"BENCH (init_uptime|cycles_start) ([\d.]+)", log))
    stamps = [float(t) for t in re.findall(r"BENCH cycle \d+ ([\d.]+)", log)]
    errors = re.findall(r"BENCH error (\w+)", log)
    if errors or len(stamps) != cycles:
        sys.exit(f"bench_linux.py: {len(errors)} sysfs errors, {len(stamps)} of "
                 f"{cycles} cycles; see {os.path.relpath(log_path, ROOT)}")
    start = float(values["cycles_start"])
    steps = [b - a for a, b in zip([start] + stamps, stamps)]
    return {
        "version": fetch("version", series),
        "boot_to_init_ms": float(values["init_uptime"]) * 1000,
        "cycle_ms_mean": (stamps[-1] - start) * 1000 / cycles,
        "cycle_ms_median": statistics.median(steps) * 1000,
        "cycle_ms_min": min(steps) * 1000,
        "cycle_ms_max": max(steps) * 1000,
        "cycles": cycles,
    }


def ours():
    path = os.path.join(BUILD, "bench.json")
    if not os.path.exists(path) or "smp4" not in json.load(open(path))["configs"]:
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench.py"),
                        "--configs", "smp4"], check=True)
    r = json.load(open(path))["configs"]["smp4"]
    return r["common"], r["designs"]["rcu"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--series", default="6.1,6.12")
    args = ap.parse_args()
    os.makedirs(BUILD, exist_ok=True)
    common, rcu = ours()
    linux = {}
    for series in args.series.split(","):
        try:
            fetch("version", series)
        except subprocess.CalledProcessError:
            print(f"bench_linux.py: no Linux {series} from apt here: left out",
                  file=sys.stderr)
            continue
        linux[series] = run_linux(args.cycles, args.timeout, series)
    if not linux:
        sys.exit("bench_linux.py: no Debian kernel to compare with")
    with open(os.path.join(BUILD, "bench-linux.json"), "w") as f:
        json.dump(linux, f, indent=1, sort_keys=True)

    ours_cycle = rcu["cycle_us_median"] / 1000
    ours_boot = common["boot_us_all_online"] / 1000
    rows = [
        ("boot to init / all CPUs online (ms)", "boot_to_init_ms", ours_boot),
        ("CPU3 offline+online, median (ms)", "cycle_ms_median", ours_cycle),
        ("CPU3 offline+online, mean (ms)", "cycle_ms_mean", None),
        ("CPU3 offline+online, min (ms)", "cycle_ms_min", rcu["cycle_us_min"] / 1000),
        ("CPU3 offline+online, max (ms)", "cycle_ms_max", rcu["cycle_us_max"] / 1000),
    ]
    names = list(linux)
    print(f"QEMU virt, cortex-a53, -smp 4, TCG; Linux "
          f"{', '.join(linux[n]['version'] for n in names)} ({args.cycles} cycles "
          f"through sysfs) vs this kernel (per-bit RCU)")
    head = "".join(f"{'Linux ' + n:>12}" for n in names)
    ratios = "".join(f"{n + '/this':>11}" for n in names)
    print(f"{'':<38}{head} {'this':>10}{ratios}")
    for what, key, mine in rows:
        theirs = "".join(f"{linux[n][key]:>12.2f}" for n in names)
        if mine is None:
            print(f"{what:<38}{theirs}")
        else:
            ratio = "".join(f"{linux[n][key] / mine:>10.0f}x" if mine else f"{'-':>11}"
                            for n in names)
            print(f"{what:<38}{theirs} {mine:>10.2f}{ratio}")
    print("(Linux's cycle includes the shell's two sysfs writes; /proc/uptime"
          " ticks in 10 ms, so its median and min/max are coarse, the mean is"
          " not.) Figures in build/bench-linux.json")


if __name__ == "__main__":
    main()
