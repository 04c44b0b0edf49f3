#!/usr/bin/env python3
"""Runs `bench=scale` in QEMU at growing CPU counts and reports the figures.

One boot per CPU count (virt, GICv3: -smp 4, 64, 256, 512 by default;
--boots N for N each, every figure then their median with its spread); the
kernel (kernel/bench/scale.c) prints lines

    bench: scale: KEY = VALUE

which this script collects into build/scale.json and build/scale.csv, prints
as a table (--markdown: as docs/benchmarks.md has it) and draws against the
CPU count in build/scale.png (gnuplot). The CPU count of each row is the one
the kernel reports online, not the one asked of QEMU: a kernel built with
fewer NR_CPUS than -smp brings up only its NR_CPUS.

Usage: tools/bench_scale.py [--cpus 4,64,256,512] [--boots N] [--ms N]
                            [--out FILE] [--smoke [--ktap]] [--markdown]
       tools/bench_scale.py --parse LOG... [--markdown]
                              (build/scale-N.I.log of earlier boots, those
                               of one N folded into medians)
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter, print_failure   # noqa: E402
from harness.qemu import BootFailed, bench_boot       # noqa: E402

READERS = ("one_section", "per_cpu", "percpu_rwsem", "rwlock")
HIST = ("p50", "p99", "p999", "max")
WAKE = ("p50", "p99", "max")
PER_READER = ([f"preempt_off_ns_{p}" for p in HIST] + ["spans"] +
              [f"walk_ns_{p}" for p in HIST] + ["walks"] +
              [f"wake_ns_{p}" for p in WAKE] + ["wakes"])
# boot_us_bringup: smp_init()'s bring-up of the other CPUs, the part of
# boot_us_all_online after the boot CPU's own setup (which once read the
# idle states of every CPU node: seconds at 512 CPUs).
COMMON = ("cpus", "possible", "boot_us_all_online", "boot_us_bringup",
          "sync_rcu_us_median",
          "sync_rcu_us_max", "sync_rcu_n", "sync_rcu_expedited_us_median",
          "sync_rcu_expedited_us_max", "sync_rcu_expedited_n", "cycle_cpu",
          "cycle_us_median", "cycle_us_max", "cycles", "down_us_median",
          "up_us_median", "down_slowest_step_us")
# With every CPU busy: up to BUSY_MAX CPUs only (kernel/bench/scale.c says why).
BUSY = ("busy_cpus", "sync_rcu_busy_us_median", "gp_qs_reports",
        "gp_qs_report_ns", "qs_report_max_ns")
# The Linux figure beside ours: a 2026 patch reports CPU hotplug on a
# 400-CPU machine dominated by synchronize_rcu(). SMT8 to SMT1 offlines 7
# of each 8 CPUs (350); the per-CPU figures are that division.
LINUX_ANCHOR = ("Linux (a 2026 patch, 400-CPU machine): SMT8 to SMT1, 350 CPUs "
                "offlined, in 74.8 s (~214 ms per CPU) with synchronize_rcu(), "
                "3.2 s (~9 ms per CPU) once expedited")
LINE = re.compile(r"bench: scale: (\S+) = (\S+)")
# The build a boot ran: the version string of its banner (git describe).
VERSION = re.compile(r"hotplug kernel (\S+)")
LOG = re.compile(r"scale-(\d+)(\.\d+)?\.log$")


def qemu_options(cpus):
    """virt with GICv3 (the only one past 8 CPUs); 1G from 256 CPUs on."""
    return ["--smp", str(cpus), "--gic", "3",
            "--mem", "1G" if cpus >= 256 else "256M"]


def timeout_for(cpus):
    """TCG on a few host cores: a 256-CPU boot alone takes minutes."""
    return 180 if cpus <= 8 else 900 if cpus <= 64 else 3600


def number(text):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse(log):
    """The figures of one boot: {key: value}, reader figures as
    'reader.key'; 'kernel' the build the boot ran."""
    figures = {}
    for line in log.splitlines():
        m = LINE.search(line)
        if m:
            figures[m.group(1)] = number(m.group(2))
        m = VERSION.search(line)
        if m and "kernel" not in figures:
            figures["kernel"] = m.group(1)
    return figures


def middle(vals):
    """The median (the lower of the middle two for an even count)."""
    vals = sorted(vals)
    return vals[(len(vals) - 1) // 2]


def aggregate(asked, boots):
    """A CPU count's boots folded: each number's median over the boots and
    its spread (lowest, highest); a word (a step's name) from the boot
    whose figure is the median, else the first."""
    figures, spread = {}, {}
    for k in sorted(set().union(*boots)):
        vals = [b[k] for b in boots if k in b]
        if all(isinstance(v, (int, float)) for v in vals):
            figures[k], spread[k] = middle(vals), (min(vals), max(vals))
        else:
            figures[k] = vals[0]
    # The slowest step's name from the boot whose time is the median.
    for b in boots:
        if b.get("down_slowest_step_us") == figures.get("down_slowest_step_us"):
            figures["down_slowest_step"] = b.get("down_slowest_step", "-")
            break
    return {"asked": asked, "boots": boots, "figures": figures, "spread": spread}


def boot(cpus, ms, i):
    """Boot i of bench=scale at cpus; its console output and seconds."""
    append = f"bench=scale bench.scale_ms={ms} poweroff"
    log_path = os.path.join(ROOT, "build", f"scale-{cpus}.{i}.log")
    return bench_boot(qemu_options(cpus), append, timeout_for(cpus), log_path,
                      f"-smp {cpus}", ROOT)


def ktap(runs):
    """make test's smoke check: every boot's figures there, numbers, in
    order. Never a timing: the figures are QEMU's and the host's."""
    checks = KtapWriter()
    for asked, r in runs.items():
        for i, f in enumerate(r["boots"]):
            name = f"-smp {asked}" + (f" boot {i + 1}" if len(r["boots"]) > 1 else "")
            check_boot(checks, name, asked, f)
    return checks.print()


def check_boot(checks, name, asked, f):
    """One boot's figures: there, numbers, p50 <= p99 <= max."""
    missing = [k for k in COMMON if not isinstance(f.get(k), int)]
    checks.result(f"{name}: common figures {missing or ''}", not missing)
    if missing:
        return
    checks.result(f"{name}: the kernel reports 1..{asked} CPUs online "
                  f"({f['cpus']} of {f['possible']})",
                  1 <= f["cpus"] <= min(asked, f["possible"]))
    checks.result(f"{name}: medians <= maxima (synchronize_rcu, expedited, "
                  f"down+up of CPU{f['cycle_cpu']})",
                  f["sync_rcu_us_median"] <= f["sync_rcu_us_max"] and
                  f["sync_rcu_expedited_us_median"] <=
                  f["sync_rcu_expedited_us_max"] and
                  f["cycle_us_median"] <= f["cycle_us_max"])
    checks.result(f"{name}: samples of every kind ({f['sync_rcu_n']} grace "
                  f"periods, {f['cycles']} cycles)",
                  min(f["sync_rcu_n"], f["sync_rcu_expedited_n"],
                      f["cycles"]) > 0)
    for rd in READERS:
        keys = [f"{rd}.{k}" for k in PER_READER]
        missing = [k for k in keys if not isinstance(f.get(k), int)]
        checks.result(f"{name}: {rd} figures {missing or ''}", not missing)
        if missing:
            continue
        g = {k: f[f"{rd}.{k}"] for k in PER_READER}
        checks.result(f"{name}: {rd}: spans, walks and wakes counted "
                      f"({g['spans']}, {g['walks']}, {g['wakes']}) and "
                      f"p50 <= p99 <= p99.9 <= max",
                      min(g["spans"], g["walks"], g["wakes"]) > 0 and
                      all([g[f"{w}_{p}"] for p in HIST] ==
                          sorted(g[f"{w}_{p}"] for p in HIST)
                          for w in ("preempt_off_ns", "walk_ns")) and
                      g["wake_ns_p50"] <= g["wake_ns_p99"] <= g["wake_ns_max"])
    checks.result(f"{name}: one section per CPU walks all CPUs in as "
                  f"many spans (per_cpu spans = CPUs x walks)",
                  f.get("per_cpu.spans") == f["cpus"] * f.get("per_cpu.walks", -1))


def boot_cell(r):
    """Power-on to all CPUs online, ms, [spread], and (the bring-up's
    part) where the boot reported it."""
    f, sp = r["figures"], r.get("spread", {})
    cell = f"{f.get('boot_us_all_online', 0) / 1000:.0f}"
    lo, hi = sp.get("boot_us_all_online", (0, 0))
    if lo != hi:
        cell += f" [{lo / 1000:.0f}-{hi / 1000:.0f}]"
    if "boot_us_bringup" in f:
        cell += f" ({f['boot_us_bringup'] / 1000:.0f})"
    return cell


def us(ns):
    return f"{ns / 1000:.1f}" if ns < 100000 else f"{ns / 1000:.0f}"


def rows(runs):
    """One row per run, by the CPU count the kernel reported."""
    return sorted(runs.values(), key=lambda r: r["figures"].get("cpus", 0))


def cpus_cell(r):
    """The CPUs the kernel brought up, and QEMU's count if it was more."""
    cpus = r["figures"].get("cpus", "?")
    return str(cpus) if cpus == r["asked"] else f"{cpus} (-smp {r['asked']})"


def table(runs, md=False):
    """Span, walk and wake-up tables, and the common figures; us."""
    out = []
    sep = (lambda cells: "| " + " | ".join(cells) + " |") if md else \
        (lambda cells: "  ".join(f"{c:>14}" for c in cells))

    def heading(what):
        """A table's title and its CPUs-and-readers header row."""
        out.append(f"**{what}**" if md else what)
        if md:
            out.append("")
        out.append(sep(["CPUs"] + list(READERS)))
        if md:
            out.append("|" + "---|" * (len(READERS) + 1))

    for what, key, pcts in (("preemption-off span, us (p50 / p99 / p99.9 / max)",
                             "preempt_off_ns", HIST),
                            ("whole walk, us (p50 / p99)", "walk_ns", ("p50", "p99")),
                            ("wake-up on the walking CPU, us (p50 / p99 / max)",
                             "wake_ns", WAKE)):
        heading(what)
        for r in rows(runs):
            f = r["figures"]
            cells = [cpus_cell(r)]
            for rd in READERS:
                vals = [f.get(f"{rd}.{key}_{p}") for p in pcts]
                cells.append(" / ".join(us(v) if isinstance(v, int) else "-"
                                        for v in vals))
            out.append(sep(cells))
        out.append("")
    nboots = max(len(r.get("boots", [])) for r in runs.values()) if runs else 0
    if nboots > 1:
        what = (f"preemption-off span p99 and p99.9, us: lowest-highest of "
                f"{nboots} boots")
        heading(what)
        for r in rows(runs):
            sp = r.get("spread", {})
            cells = [cpus_cell(r)]
            for rd in READERS:
                cells.append(", ".join(
                    "{}-{}".format(*(us(v) for v in sp[k])) if k in sp else "-"
                    for k in (f"{rd}.preempt_off_ns_p99", f"{rd}.preempt_off_ns_p999")))
            out.append(sep(cells))
        out.append("")
    out.append("**down+up, grace periods, boot**" if md else
               "down+up, grace periods, boot")
    if md:
        out.append("")
    head = ["CPUs", "down+up us (n)", "down / up us median", "slowest step of a down, us",
            "sync_rcu us (n)", "every CPU busy: sync_rcu us, QS reports / their time us per GP",
            "expedited us (n)", "boot to all online ms (of which bring-up)"]
    out.append(sep(head))
    if md:
        out.append("|" + "---|" * len(head))
    def spread(r, k):
        lo, hi = r.get("spread", {}).get(k, (0, 0))
        return f" [{lo}-{hi}]" if lo != hi else ""

    for r in rows(runs):
        f = r["figures"]
        out.append(sep([
            cpus_cell(r),
            f"{f.get('cycle_us_median', '-')}{spread(r, 'cycle_us_median')} "
            f"({f.get('cycles', 0)})",
            f"{f.get('down_us_median', '-')} / {f.get('up_us_median', '-')}",
            f"{f.get('down_slowest_step', '-')} {f.get('down_slowest_step_us', '')}",
            f"{f.get('sync_rcu_us_median', '-')} ({f.get('sync_rcu_n', 0)})",
            (f"{f['sync_rcu_busy_us_median']}, {f['gp_qs_reports']} / "
             f"{f['gp_qs_report_ns'] / 1000:.1f}"
             if "gp_qs_report_ns" in f else "- (past 128 CPUs)"),
            f"{f.get('sync_rcu_expedited_us_median', '-')} "
            f"({f.get('sync_rcu_expedited_n', 0)})",
            boot_cell(r)]))
    if not md:      # docs/benchmarks.md says it in its own words
        out += ["", LINUX_ANCHOR]
    return "\n".join(out)


CSV_KEYS = list(COMMON) + list(BUSY) + ["down_slowest_step"] + [f"{rd}.{k}" for rd in READERS for k in PER_READER]


def write_csv(runs, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["asked"] + CSV_KEYS)
        for r in rows(runs):
            w.writerow([r["asked"]] + [r["figures"].get(k, "") for k in CSV_KEYS])


def plot(runs, csv_path, png):
    """Four panels against the CPU count, from the CSV."""
    col = {k: i + 2 for i, k in enumerate(CSV_KEYS)}   # gnuplot counts from 1
    n = len(rows(runs))
    nb = max(len(r.get("boots", [])) for r in runs.values())
    boots = f"medians of {nb} boots per CPU count" if nb > 1 else "one boot per CPU count"
    pts = "linespoints pt 7" if n > 1 else "points pt 7"

    def lines(keys, scale, titles, style=""):
        return ", ".join(f"'{csv_path}' using {col['cpus']}:(${col[k]}/{scale}) "
                         f"with {pts}{style} title '{t}'" for k, t in zip(keys, titles))
    gp = [
        'set terminal pngcairo size 1200,900 font "sans,10" noenhanced',
        f'set output "{png}"',
        "set datafile separator ','",
        "set key autotitle columnhead",
        "set logscale x 2", "set logscale y", "set grid",
        "set xlabel 'CPUs online'",
        "set key top left",
        "set multiplot layout 2,2 title 'bench=scale (QEMU TCG virt, GICv3): "
        f"{boots}'",
        "set title 'preemption-off span, p99 (solid) and p99.9 (dashed), us'",
        "plot " + lines([f"{rd}.preempt_off_ns_p99" for rd in READERS], 1000,
                        READERS) + ", " +
        ", ".join(lines([f"{rd}.preempt_off_ns_p999"], 1000, [f"{rd} p99.9"],
                        f" dashtype 2 lc {i + 1}")
                  for i, rd in enumerate(READERS[:2])),
        "set title 'wake-up latency on the walking CPU, p50 (us)'",
        "plot " + lines([f"{rd}.wake_ns_p50" for rd in READERS], 1000, READERS),
        "set title 'down+up of one CPU and grace periods, median (us)'",
        "plot " + lines(["cycle_us_median", "sync_rcu_us_median",
                         "sync_rcu_expedited_us_median"], 1,
                        ["down+up", "synchronize_rcu", "expedited"]),
        "set title 'power-on to all CPUs online, and its bring-up part (ms)'",
        "plot " + lines(["boot_us_all_online", "boot_us_bringup"], 1000,
                        ["boot", "of which the bring-up"]),
        "unset multiplot",
    ]
    gp_path = os.path.splitext(png)[0] + ".gp"
    with open(gp_path, "w") as f:
        f.write("\n".join(gp) + "\n")
    run = subprocess.run(["gnuplot", gp_path], stderr=subprocess.PIPE, text=True)
    # One CPU count draws single points: gnuplot warns of an empty range.
    for line in run.stderr.splitlines():
        if "empty x range" not in line and "empty y range" not in line:
            print(line, file=sys.stderr)
    if run.returncode:
        sys.exit(f"bench_scale.py: gnuplot {gp_path} failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpus", default="4,64,256,512",
                    help="the -smp of each boot, comma-separated")
    ap.add_argument("--boots", type=int, default=1,
                    help="boots per CPU count (default 1); figures are their medians")
    ap.add_argument("--ms", type=int, default=1000,
                    help="each reader's phase in ms (bench.scale_ms)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "scale.json"))
    ap.add_argument("--smoke", action="store_true",
                    help="-smp 4 and 100 ms phases only (seconds)")
    ap.add_argument("--ktap", action="store_true",
                    help="check the figures are well formed, print KTAP (make test)")
    ap.add_argument("--parse", nargs="+", metavar="LOG",
                    help="scale-N.log files of earlier boots instead of booting")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()

    runs = {}
    if args.parse:
        by_count = {}
        for path in args.parse:
            m = LOG.search(path)
            if not m:
                sys.exit(f"bench_scale.py: {path}: not a scale-N.log or scale-N.I.log")
            with open(path, errors="replace") as f:
                by_count.setdefault(int(m.group(1)), []).append(parse(f.read()))
        runs = {c: aggregate(c, boots) for c, boots in by_count.items()}
    else:
        if args.smoke:
            args.cpus, args.ms = "4", 100
        try:
            counts = [int(c) for c in args.cpus.split(",")]
        except ValueError:
            sys.exit(f"bench_scale.py: --cpus wants numbers, got '{args.cpus}'")
        if any(not 2 <= c <= 512 for c in counts):
            sys.exit("bench_scale.py: each CPU count must be 2..512 (QEMU virt)")
        if args.boots < 1:
            sys.exit("bench_scale.py: --boots wants 1 or more")
        for c in counts:
            boots, seconds = [], []
            for i in range(args.boots):
                try:
                    log, secs = boot(c, args.ms, i)
                except BootFailed as e:
                    if args.ktap:
                        print_failure(str(e))
                    sys.exit(f"bench_scale.py: {e}")
                boots.append(parse(log))
                seconds.append(round(secs, 1))
                print(f"bench_scale.py: -smp {c} boot {i + 1}/{args.boots}: "
                      f"{boots[-1].get('cpus', '?')} CPUs online, {secs:.0f} s",
                      file=sys.stderr)
            runs[c] = {**aggregate(c, boots), "qemu": " ".join(qemu_options(c)),
                       "boot_seconds": seconds}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        kernels = sorted({b["kernel"] for r in runs.values()
                          for b in r["boots"] if "kernel" in b})
        json.dump({"runs": {str(k): v for k, v in runs.items()},
                   "phase_ms": args.ms, "boots": args.boots,
                   "kernel": kernels, "host_cpus": os.cpu_count(),
                   "linux_anchor": LINUX_ANCHOR},
                  f, indent=1, sort_keys=True)
    if args.ktap:
        sys.exit(0 if ktap(runs) else 1)
    base = os.path.splitext(args.out)[0]
    write_csv(runs, base + ".csv")
    print(table(runs, args.markdown))
    if not args.no_plot:
        plot(runs, base + ".csv", base + ".png")
        print(f"figures in {os.path.relpath(args.out, os.getcwd())}, "
              f"{os.path.relpath(base, os.getcwd())}.csv and .png")


if __name__ == "__main__":
    main()
