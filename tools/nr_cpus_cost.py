#!/usr/bin/env python3
"""What NR_CPUS costs: two builds side by side, symbol by symbol, and booted.

Builds the kernel for NR_CPUS=256 and NR_CPUS=4096 (build/nr-256,
build/nr-4096), lists every symbol whose size changed, and prints the
image (text + data: every loaded section), the bss (every NOBITS section,
page tables included) and, from a boot of each on -smp 4, the free memory
once every CPU is up (the kernel's "Memory: N KiB free after boot" line:
that figure holds the image, the bss and every allocation of the boot).
Each cost is divided by the CPUs the larger build adds (4096 - 256): what
a possible CPU the device tree does not describe costs. The bar
(docs/scale.md): 64 bytes per CPU for each of the three.

Usage: tools/nr_cpus_cost.py [--small 256] [--large 4096] [--smp 4[,512]]
                             [--no-build] [--no-boot] [--top N] [--ktap]
                             [--max-per-cpu 64]
The checks end the output as KTAP (tests/harness/host.py runs it with
--ktap, which also fails the run when a check fails).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter                   # noqa: E402
from harness.qemu import qemu_sh_argv, run_qemu       # noqa: E402

CROSS = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
FREE_LINE = re.compile(r"Memory: (\d+) KiB free after boot, (\d+) KiB reserved, "
                       r"(\d+) bytes of CPU arrays \((\d+) CPUs, NR_CPUS (\d+)\)")
BOOT_TIMEOUT = 900      # -smp 512 under TCG on a loaded host takes minutes


def build_dir(nr_cpus):
    return os.path.join(ROOT, "build", f"nr-{nr_cpus}")


def build(nr_cpus):
    """make B=build/nr-N NR_CPUS=N; the output of a failure, or None."""
    argv = ["make", "-s", "-j2", f"B={os.path.relpath(build_dir(nr_cpus), ROOT)}",
            f"NR_CPUS={nr_cpus}"]
    proc = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return None if proc.returncode == 0 else proc.stdout[-3000:]


def symbols(elf):
    """{name: size} of every sized symbol (local names may repeat: summed)."""
    out = subprocess.run([CROSS + "nm", "-S", elf], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            name = f"{f[3]} ({f[2]})"
            sizes[name] = sizes.get(name, 0) + int(f[1], 16)
    return sizes


def sections(elf):
    """(image, bss) bytes: loaded PROGBITS sections, and NOBITS ones."""
    out = subprocess.run([CROSS + "readelf", "-SW", elf], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    image = bss = 0
    for m in re.finditer(r"\]\s+(\S+)\s+(PROGBITS|NOBITS)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(\S*A\S*)",
                         out):
        size = int(m.group(3), 16)
        if m.group(2) == "NOBITS":
            bss += size
        else:
            image += size
    return image, bss


def boot(nr_cpus, smp):
    """The boot's free-memory line as a dict, or a string saying why not."""
    options = ["--image", os.path.join(build_dir(nr_cpus), "Image"), "--smp", str(smp)]
    if smp > 8:
        options += ["--gic", "3", "--mem", "1G"]
    log_path = os.path.join(build_dir(nr_cpus), f"boot-smp{smp}.log")
    with open(log_path, "w") as log:
        run = run_qemu(qemu_sh_argv(options, BOOT_TIMEOUT, append="poweroff"),
                       BOOT_TIMEOUT, log, cwd=ROOT)
    for line in run.stdout:
        m = FREE_LINE.search(line)
        if m:
            keys = ("free_kib", "reserved_kib", "cpu_arrays", "cpus", "nr_cpus")
            return dict(zip(keys, map(int, m.groups())), seconds=run.seconds)
    return (f"no 'free after boot' line ({'timed out' if run.timed_out else run.status}); "
            f"see {os.path.relpath(log_path, ROOT)}")


def growth_table(small, large, top):
    """Lines of the symbols that grew (or shrank) most, and their sum."""
    rows = sorted(((large.get(n, 0) - small.get(n, 0), n) for n in set(small) | set(large)),
                  reverse=True)
    rows = [r for r in rows if r[0]]
    lines = [f"{'growth':>9} {'small':>8} {'large':>9}  symbol"]
    for d, n in rows[:top]:
        lines.append(f"{d:>9} {small.get(n, 0):>8} {large.get(n, 0):>9}  {n}")
    if len(rows) > top:
        rest = sum(d for d, _ in rows[top:])
        lines.append(f"{rest:>9} {'':>8} {'':>9}  ({len(rows) - top} more symbols)")
    return lines, sum(d for d, _ in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=256)
    ap.add_argument("--large", type=int, default=4096)
    ap.add_argument("--smp", default="4", help="CPUs of the boots, comma separated")
    ap.add_argument("--no-build", action="store_true", help="use build/nr-N as it is")
    ap.add_argument("--no-boot", action="store_true", help="image and bss only")
    ap.add_argument("--top", type=int, default=40, help="symbols listed")
    ap.add_argument("--max-per-cpu", type=int, default=64)
    ap.add_argument("--ktap", action="store_true", help="as the host checks run it")
    args = ap.parse_args()
    if args.large <= args.small:
        ap.error("--large must be above --small")
    try:
        smps = [int(s) for s in args.smp.split(",")]
    except ValueError:
        ap.error(f"--smp {args.smp}: want numbers, e.g. 4,512")
    ktap = KtapWriter()
    added = args.large - args.small

    for n in (args.small, args.large):
        err = None if args.no_build else build(n)
        ktap.result(f"build_nr_cpus_{n}", err is None,
                    err or os.path.relpath(build_dir(n), ROOT))
        if err:
            ktap.print()
            return 1
    elf = {n: os.path.join(build_dir(n), "kernel.elf") for n in (args.small, args.large)}
    lines, _ = growth_table(symbols(elf[args.small]), symbols(elf[args.large]), args.top)
    (img_s, bss_s), (img_l, bss_l) = sections(elf[args.small]), sections(elf[args.large])
    print(f"NR_CPUS {args.small} -> {args.large}: what each symbol grew by (bytes)")
    print("\n".join(lines))
    print()
    print(f"{'':24}{args.small:>12}{args.large:>12}{'growth':>10}{'per CPU':>9}")
    for name, s, large in (("image (text+data)", img_s, img_l), ("bss", bss_s, bss_l)):
        print(f"{name:24}{s:>12}{large:>12}{large - s:>10}{(large - s) / added:>9.1f}")
    static = (img_l - img_s) + (bss_l - bss_s)
    ktap.result("image_and_bss_per_cpu", static / added <= args.max_per_cpu,
                f"{static / added:.1f} bytes per CPU (at most {args.max_per_cpu}): "
                f"image {img_l - img_s:+}, bss {bss_l - bss_s:+}")

    for smp in [] if args.no_boot else smps:
        boots = {n: boot(n, smp) for n in (args.small, args.large)}
        for n, b in boots.items():
            ok = isinstance(b, dict) and b["nr_cpus"] == n
            what = (f"{b['free_kib']} KiB free, {b['cpus']} CPUs, CPU arrays "
                    f"{b['cpu_arrays']} B, {b['seconds']:.0f} s" if ok else b)
            ktap.result(f"boot_nr_cpus_{n}_smp{smp}", ok, what)
        if not all(isinstance(b, dict) for b in boots.values()):
            continue
        small, large = boots[args.small], boots[args.large]
        used = (small["free_kib"] - large["free_kib"]) * 1024
        print(f"-smp {smp}: free after boot {small['free_kib']} KiB (NR_CPUS {args.small}, "
              f"{small['cpus']} CPUs up) vs {large['free_kib']} KiB (NR_CPUS {args.large}, "
              f"{large['cpus']} CPUs up): {used} bytes", end="")
        if small["cpus"] == large["cpus"]:
            print(f", {used / added:.1f} per CPU; NR_CPUS-dependent at {args.large}, per CPU "
                  f"not described: {used * args.large / added / (args.large - large['cpus']):.1f}")
        else:
            print(f" (more CPUs up: not a cost of NR_CPUS)")
        if small["cpus"] == large["cpus"]:
            ktap.result(f"boot_memory_per_cpu_smp{smp}", used / added <= args.max_per_cpu,
                        f"{used / added:.1f} bytes per CPU (at most {args.max_per_cpu}; "
                        "image, bss and allocations, in whole pages)")
        else:   # the small build ran fewer CPUs: not the same machine
            ktap.diag(f"-smp {smp}: {small['cpus']} vs {large['cpus']} CPUs up, "
                      "not compared per CPU")
    print()
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
