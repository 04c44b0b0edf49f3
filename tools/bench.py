#!/usr/bin/env python3
"""Runs `bench=hotplug` in QEMU per configuration and reports the figures.

Each configuration is booted --boots times (default 3); the four reader
designs are measured side by side in each boot (kernel/bench/hotplug.c).
The tables give each figure's median over the boots with its spread
(lowest-highest), so a change can be told from QEMU's noise;
build/bench.json keeps every boot's figures and the medians. The kernel prints lines

    bench: hotplug: KEY = VALUE            (figures common to all designs)
    bench: hotplug: KEY = DESIGN VALUE     (per design)

which this script collects into build/bench.json and prints as a table.

Usage: tools/bench.py [--configs smp4,smp8,raspi3b-tfa] [--boots N]
                      [--cycles N] [--ms N]
                      [--out build/bench.json] [--smoke [--ktap]]
       tools/bench.py --parse LOG... [--markdown]
                                       (tables from saved console logs,
                                        bench-CONFIG.I.log of one CONFIG
                                        folded into medians)
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter, print_failure   # noqa: E402
from harness.qemu import BootFailed, bench_boot       # noqa: E402

DESIGNS = ("rwlock", "percpu_rwsem", "stop_machine", "rcu")
CONFIGS = {
    "smp4": ["--smp", "4", "--gic", "2"],
    "smp8": ["--smp", "8", "--gic", "3"],
    # The Pi 3 has 4 CPUs (no --smp) and one interrupt controller (no
    # --gic); TF-A 2.8 is its PSCI: a real firmware's share of each down
    # and up, beside QEMU's built-in PSCI on virt.
    "raspi3b-tfa": ["--machine", "raspi3b", "--firmware", "tfa"],
    # Under load, readers run on every CPU but the target: 3 on -smp 4,
    # 7 on -smp 8, more busy vCPUs than a 2-CPU host has, so the host's
    # scheduler decides when each runs. -smp 3 has 2, one per host CPU
    # there: the loaded figure with the host's time-slicing left out.
    "smp3": ["--smp", "3", "--gic", "2"],
    # Real EL3 firmware on virt: TF-A's qemu platform built from Debian's
    # source (make tfa-virt), with a GICv2 and with a secure GICv3; and
    # the Pi 4 with Debian's rpi4 BL31 (QEMU >= 9).
    "virt-tfa": ["--firmware", "tfa", "--smp", "4", "--gic", "2"],
    "virt-tfa-gic3": ["--firmware", "tfa", "--smp", "4", "--gic", "3"],
    "raspi4b-tfa": ["--machine", "raspi4b", "--firmware", "tfa"],
}
LABELS = {
    "smp4": "-smp 4 (virt, GICv2, QEMU's PSCI over HVC)",
    "smp8": "-smp 8 (virt, GICv3, QEMU's PSCI over HVC)",
    "raspi3b-tfa": "raspi3b, 4 CPUs (TF-A 2.8's PSCI over SMC)",
    "smp3": "-smp 3 (virt, GICv2, QEMU's PSCI over HVC; 2 readers under load)",
    "virt-tfa": "-smp 4 (virt, GICv2, TF-A 2.8's PSCI over SMC)",
    "virt-tfa-gic3": "-smp 4 (virt, secure GICv3, TF-A 2.8's PSCI over SMC)",
    "raspi4b-tfa": "raspi4b, 4 CPUs (TF-A 2.8's rpi4 PSCI over SMC)",
}
# make test's smoke run: virt, and the Pi 3 with TF-A, whose options
# (no --smp, a watchdog reset to end, PSCI over SMC) only this boot gives
# the bench; with 3 cycles and 40 ms phases it adds about 8 s.
SMOKE_CONFIGS = "smp4,raspi3b-tfa"
LINE = re.compile(r"bench: hotplug: (\S+) = (.*)$")
BANNER = re.compile(r"Timer: (\d+) Hz, HZ=(\d+)")
# The build a boot ran: the version string of its banner (git describe).
VERSION = re.compile(r"hotplug kernel (\S+)")


def number(text):
    try:
        return int(text)
    except ValueError:
        return float(text)


def kernel_version(log):
    """The banner's version string: the build the boot ran, or None."""
    m = VERSION.search(log)
    return m.group(1) if m else None


def parse(log):
    """The figures in one boot's console output."""
    common, designs, hz = {}, {d: {} for d in DESIGNS}, None
    for raw in log.splitlines():
        line = re.sub(r"^\[\s*\d+\.\d+\]\s*", "", raw.strip())
        m = BANNER.search(line)
        if m:
            hz = int(m.group(2))
        m = LINE.search(line)
        if not m:
            continue
        key, value = m.groups()
        parts = value.split()
        if parts[0] in DESIGNS:
            if key.startswith("step_us."):
                down, up = parts[1].split("/")
                designs[parts[0]].setdefault("step_us", {})[key[8:]] = {
                    "down": int(down), "up": int(up)}
            else:
                designs[parts[0]][key] = number(parts[1])
        else:
            common[key] = number(parts[0])
    if hz:
        common["hz"] = hz
    # The loaded goal's measure: the median cycle under readers as a
    # multiple of the idle median, per boot (then folded like the rest).
    for f in designs.values():
        if f.get("cycle_us_median") and "cycle_us_median_loaded" in f:
            f["cycle_loaded_idle_ratio"] = round(
                f["cycle_us_median_loaded"] / f["cycle_us_median"], 1)
    return common, designs


FIGURES = ("reader_ratio", "cycle_us_min", "cycle_us_median", "cycle_us_max",
           "cycle_us_p95", "cycle_us_median_loaded", "cycle_us_median_one_reader", "reader_walks_per_s_idle",
           "reader_walks_per_s_hotplug", "bystander_us_baseline",
           "bystander_us_max", "stop_us_max")
COMMON = ("boot_us_all_online", "sync_rcu_us_median",
          "sync_rcu_expedited_us_median", "affinity_info_ns_median",
          "image_bytes", "mem_per_cpu_bytes")
# The firmware's floor (PSCI firmware only): the same CPU cycled by CPU_ON
# to an entry that only calls CPU_OFF, and each design's cycle against it.
FLOOR = ("floor_cycle_us_median", "floor_cycle_us_min", "floor_on_us_median",
         "floor_off_us_median")
RATIOS = ("cycle_floor_ratio", "cycle_p95_floor_ratio")
# Medians of the idle cycles' downs and ups, each split into the
# firmware's share (PSCI CPU_OFF to the first AFFINITY_INFO answer OFF;
# CPU_ON to the CPU's first instruction) and the kernel's, the rest; the
# firmware's minimum (fw_off_us_min, fw_on_us_min) is printed beside.
SHARES = ("down_us_median", "fw_off_us_median", "kernel_down_us_median",
          "up_us_median", "fw_on_us_median", "kernel_up_us_median")


def ktap(results, out):
    """make test's smoke check: every figure there, and the ones that say
    something about the designs as they must be."""
    checks = KtapWriter()
    for name, r in results.items():
        common, designs = r["common"], r["designs"]
        missing = [k for k in COMMON + FLOOR if k not in common]
        checks.result(f"{name}: common figures {missing or ''}", not missing)
        if not missing:
            checks.result(f"{name}: floor: the fastest cycle <= the median, "
                          f"CPU_ON to entry and CPU_OFF to OFF each <= the "
                          f"median cycle ({common['floor_on_us_median']} + "
                          f"{common['floor_off_us_median']} of "
                          f"{common['floor_cycle_us_median']} us)",
                          common["floor_cycle_us_min"] <=
                          common["floor_cycle_us_median"] and
                          max(common["floor_on_us_median"],
                              common["floor_off_us_median"]) <=
                          common["floor_cycle_us_median"])
        for d in DESIGNS:
            f = designs.get(d, {})
            missing = [k for k in FIGURES + RATIOS if k not in f]
            checks.result(f"{name}: {d} figures {missing or ''}", not missing)
            if missing:
                continue
            checks.result(f"{name}: {d} cycle min <= median <= p95 <= max",
                          f["cycle_us_min"] <= f["cycle_us_median"] <=
                          f["cycle_us_p95"] <= f["cycle_us_max"])
            stopped = f["stop_us_max"] > 0
            checks.result(f"{name}: {d} {'stops' if d == 'stop_machine' else 'never stops'}"
                          f" the other CPUs (stop_us_max {f['stop_us_max']})",
                          stopped == (d == "stop_machine"))
            checks.result(f"{name}: {d} readers made progress during hotplug",
                          f["reader_walks_per_s_hotplug"] > 0)
            missing = [k for k in SHARES if k not in f]
            checks.result(f"{name}: {d} firmware and kernel shares {missing or ''}",
                          not missing)
            if missing:
                continue
            # Each operation's share is below its total, so the medians are.
            checks.result(f"{name}: {d} firmware share <= total (down "
                          f"{f['fw_off_us_median']}/{f['down_us_median']} us, up "
                          f"{f['fw_on_us_median']}/{f['up_us_median']} us)",
                          f["fw_off_us_median"] <= f["down_us_median"] and
                          f["fw_on_us_median"] <= f["up_us_median"])
    with open(out) as f:
        checks.result(f"{os.path.basename(out)} holds every configuration",
                      json.load(f)["configs"].keys() == results.keys())
    return checks.print()


def boot(config, cycles, ms, timeout, i):
    """Boot i of the configuration; its console output and seconds."""
    append = f"bench=hotplug bench.cycles={cycles} bench.ms={ms} poweroff"
    log_path = os.path.join(ROOT, "build", f"bench-{config}.{i}.log")
    return bench_boot(CONFIGS[config], append, timeout, log_path, config, ROOT)


def fmt_rate(v):
    return f"{v / 1e6:.2f}M" if v >= 1e6 else f"{v / 1e3:.0f}k"


def middle(vals):
    """The median (the lower of the middle two for an even count)."""
    vals = sorted(vals)
    return vals[(len(vals) - 1) // 2]


def aggregate(boots):
    """The median of each figure over the boots, and its spread: the
    lowest and highest value as (lo, hi)."""
    def fold(dicts):
        med, spread = {}, {}
        for k in sorted(set().union(*dicts)):
            vals = [d[k] for d in dicts if k in d]
            if isinstance(vals[0], dict):       # step_us: {step: {down, up}}
                med[k] = {step: {w: middle([v[step][w] for v in vals
                                            if step in v])
                                 for w in ("down", "up")}
                          for step in set().union(*vals)}
                continue
            med[k], spread[k] = middle(vals), (min(vals), max(vals))
        return med, spread

    common, common_spread = fold([b["common"] for b in boots])
    designs, spread = {}, {}
    for d in DESIGNS:
        designs[d], spread[d] = fold([b["designs"].get(d, {}) for b in boots])
    return {"common": common, "designs": designs,
            "spread": {"common": common_spread, "designs": spread}}


def cell(f, spread, key, fmt="{}"):
    """A figure's median, and its spread over the boots if there was one."""
    if key not in f:
        return "-"
    lo, hi = spread.get(key, (f[key], f[key]))
    text = fmt.format(f[key])
    return text if lo == hi else f"{text} [{fmt.format(lo)}-{fmt.format(hi)}]"


def heading(name, r):
    """A configuration's spread (none for one log) and its label with the
    number of boots, as both kinds of table start."""
    spread = r.get("spread", {"common": {}, "designs": {}})
    n = len(r.get("boots", [])) or 1
    return spread, f"{LABELS.get(name, name)}, {n} boot{'s' * (n > 1)}"


def table(name, r):
    common, designs = r["common"], r["designs"]
    spread, label = heading(name, r)
    out = [f"{label}: boot to all "
           f"CPUs online {common.get('boot_us_all_online', 0) / 1000:.1f} ms, "
           f"synchronize_rcu {common.get('sync_rcu_us_median', 0)} us "
           f"(HZ={common.get('hz', '?')}), expedited "
           f"{common.get('sync_rcu_expedited_us_median', 0)} us, image "
           f"{common.get('image_bytes', 0) // 1024} KiB, "
           f"{common.get('mem_per_cpu_bytes', 0) / 1024:.1f} KiB per online CPU"]
    if "floor_cycle_us_median" in common:
        out.append(
            f"firmware floor (CPU_ON to an entry that only calls CPU_OFF, "
            f"to AFFINITY_INFO OFF): cycle "
            f"{cell(common, spread['common'], 'floor_cycle_us_median')} us "
            f"(min {common.get('floor_cycle_us_min', '?')}; CPU_ON to entry "
            f"{common.get('floor_on_us_median', '?')}, CPU_OFF to OFF "
            f"{common.get('floor_off_us_median', '?')})")
    out.append(f"{'design':<13} {'reader ratio':>22} {'walks/s':>8} {'walks/s':>8}"
               f" {'cycle us':>26} {'p95':>6} {'x floor':>20} {'under readers':>24} {'1 reader':>8}"
               f" {'bystander us':>14} {'stopped':>8}")
    out.append(f"{'':<13} {'':>22} {'idle':>8} {'hotplug':>8}"
               f" {'median [boots lo-hi]':>26} {'':>6} {'median, p95':>20}"
               f" {'median':>24} {'median':>8} {'max (base)':>14} {'us max':>8}")
    for d in DESIGNS:
        f, sp = designs.get(d, {}), spread["designs"].get(d, {})
        if not f:
            continue
        bys = (f"{f.get('bystander_us_max', 0)} "
               f"({f.get('bystander_us_baseline', 0)})")
        ratio = (f"{cell(f, sp, 'cycle_floor_ratio', '{:.2f}')}, "
                 f"{f.get('cycle_p95_floor_ratio', '-')}")
        out.append(
            f"{d:<13} {cell(f, sp, 'reader_ratio', '{:.3f}'):>22} "
            f"{fmt_rate(f.get('reader_walks_per_s_idle', 0)):>8} "
            f"{fmt_rate(f.get('reader_walks_per_s_hotplug', 0)):>8} "
            f"{cell(f, sp, 'cycle_us_median'):>26} "
            f"{f.get('cycle_us_p95', '-'):>6} {ratio:>20} "
            f"{cell(f, sp, 'cycle_us_median_loaded'):>24} "
            f"{f.get('cycle_us_median_one_reader', '-'):>8} {bys:>14} "
            f"{f.get('stop_us_max', 0):>8}")
    return "\n".join(out)


def markdown(name, r):
    """The tables of docs/benchmarks.md for one configuration: each figure
    the median over the boots, [lowest-highest] where they differed."""
    c = r["common"]
    sp, label = heading(name, r)
    out = [f"**{label}**: all CPUs "
           f"online {c.get('boot_us_all_online', 0) / 1000:.0f} ms after "
           f"power-on; firmware floor "
           f"{cell(c, sp['common'], 'floor_cycle_us_median')} us per cycle "
           f"(CPU_ON to entry {c.get('floor_on_us_median', '-')}, CPU_OFF to "
           f"OFF {c.get('floor_off_us_median', '-')}); a console line "
           f"{c.get('printk_line_us_median', '-')} us.", ""]
    out.append("| design | reader ratio | cycle us median | p95 | "
               "median / floor | p95 / floor | under readers | one reader | "
               "down (fw) | up (fw) | longest stop us |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for d in DESIGNS:
        f, dsp = r["designs"].get(d, {}), sp["designs"].get(d, {})
        if not f:
            continue
        out.append(
            f"| {d} | {cell(f, dsp, 'reader_ratio', '{:.3f}')} | "
            f"{cell(f, dsp, 'cycle_us_median')} | {cell(f, dsp, 'cycle_us_p95')} | "
            f"{cell(f, dsp, 'cycle_floor_ratio', '{:.1f}')} | "
            f"{cell(f, dsp, 'cycle_p95_floor_ratio', '{:.1f}')} | "
            f"{cell(f, dsp, 'cycle_us_median_loaded')}; "
            f"{cell(f, dsp, 'cycle_loaded_idle_ratio', '{:.1f}')}x idle | "
            f"{cell(f, dsp, 'cycle_us_median_one_reader')} | "
            f"{f.get('down_us_median', '-')} ({f.get('fw_off_us_median', '-')}) | "
            f"{f.get('up_us_median', '-')} ({f.get('fw_on_us_median', '-')}) | "
            f"{f.get('stop_us_max', '-')} |")
    return "\n".join(out)


def shares_table(common, designs):
    """Where a down's and an up's time goes: the firmware's share and the
    kernel's, medians over the idle cycles (each a median of its own, so
    firmware + kernel need not add up to the total exactly)."""
    out = [f"firmware share: CPU_OFF to the first AFFINITY_INFO answer OFF "
           f"(one call {common.get('affinity_info_ns_median', '?')} ns), "
           f"CPU_ON to the CPU's first instruction; medians in us"]
    out.append(f"{'design':<13} {'down':>8} {'firmware (min)':>16} {'kernel':>8}"
               f" {'up':>8} {'firmware (min)':>16} {'kernel':>8}")
    for d in DESIGNS:
        f = designs.get(d, {})
        if not all(k in f for k in SHARES):
            continue
        fw_off = f"{f['fw_off_us_median']} ({f.get('fw_off_us_min', '?')})"
        fw_on = f"{f['fw_on_us_median']} ({f.get('fw_on_us_min', '?')})"
        out.append(f"{d:<13} {f['down_us_median']:>8} {fw_off:>16} "
                   f"{f['kernel_down_us_median']:>8} {f['up_us_median']:>8} "
                   f"{fw_on:>16} {f['kernel_up_us_median']:>8}")
    return "\n".join(out) if len(out) > 2 else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--boots", type=int, default=3,
                    help="boots per configuration; figures are their medians")
    ap.add_argument("--cycles", type=int, default=40)
    ap.add_argument("--ms", type=int, default=400)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench.json"))
    ap.add_argument("--smoke", action="store_true",
                    help=f"a few cycles and short phases (seconds), "
                         f"{SMOKE_CONFIGS} only")
    ap.add_argument("--ktap", action="store_true",
                    help="check the figures and print KTAP (make test)")
    ap.add_argument("--parse", nargs="+", metavar="LOG")
    ap.add_argument("--markdown", action="store_true",
                    help="print the tables as docs/benchmarks.md has them")
    args = ap.parse_args()

    results = {}
    if args.parse:
        # bench-CONFIG.I.log: the boots of one configuration fold together.
        by_config = {}
        for path in args.parse:
            with open(path) as f:
                log = f.read()
            common, designs = parse(log)
            name = os.path.basename(path).replace("bench-", "").split(".")[0]
            by_config.setdefault(name, []).append(
                {"common": common, "designs": designs,
                 "kernel": kernel_version(log)})
        for name, boots in by_config.items():
            results[name] = {"boots": boots, **aggregate(boots)}
    else:
        if args.smoke:
            args.configs, args.cycles, args.ms = SMOKE_CONFIGS, 3, 40
            args.boots = 1
        for config in args.configs.split(","):
            if config not in CONFIGS:
                sys.exit(f"bench.py: unknown configuration '{config}' "
                         f"(have: {', '.join(CONFIGS)})")
        for config in args.configs.split(","):
            boots = []
            for i in range(args.boots):
                try:
                    log, secs = boot(config, args.cycles, args.ms,
                                     args.timeout, i)
                except BootFailed as e:
                    if args.ktap:
                        print_failure(str(e))
                    sys.exit(f"bench.py: {e}")
                common, designs = parse(log)
                missing = [d for d in DESIGNS
                           if "cycle_us_median" not in designs[d]]
                if missing and not args.ktap:
                    sys.exit(f"bench.py: {config}: no figures for {missing}; "
                             f"see build/bench-{config}.{i}.log")
                boots.append({"boot_seconds": round(secs, 1),
                              "kernel": kernel_version(log),
                              "common": common, "designs": designs})
            results[config] = {"qemu": " ".join(CONFIGS[config]),
                               "boots": boots, **aggregate(boots)}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        kernels = sorted({b["kernel"] for r in results.values()
                          for b in r["boots"] if b.get("kernel")})
        json.dump({"configs": results, "cycles": args.cycles,
                   "kernel": kernels, "host_cpus": os.cpu_count(),
                   "boots": args.boots,
                   "phase_ms": args.ms}, f, indent=1, sort_keys=True)
    if args.ktap:
        sys.exit(0 if ktap(results, args.out) else 1)
    for name, r in results.items():
        if args.markdown:
            print(markdown(name, r) + "\n")
            continue
        print(table(name, r))
        shares = shares_table(r["common"], r["designs"])
        if shares:
            print(shares)
        print()
    print(f"figures in {os.path.relpath(args.out, os.getcwd())}")


if __name__ == "__main__":
    main()
