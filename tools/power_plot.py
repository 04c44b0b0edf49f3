#!/usr/bin/env python3
"""Turns the console log of a `power=` boot (make power) into a CSV of the
governor's trace and a plot: one panel per policy, online CPUs and load
over time, the workload's phases marked, the policy's figures in the title.

Usage: tools/power_plot.py LOG [OUTDIR]   (OUTDIR defaults to build)
Writes OUTDIR/power.csv, OUTDIR/power.gp (the gnuplot script) and
OUTDIR/power.png (drawn with gnuplot). Exits 1 if the log has no trace or
no table (the boot did not finish).
"""

import os
import re
import subprocess
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s*")
FIELDS = ["label", "t_ms", "policy", "depth", "util", "online", "want",
          "mask", "event", "cpu"]
ROW = re.compile(r"^power: (\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+"
                 r"(\d+\.\d+)$")


def parse(lines):
    """Trace records, phase starts and table rows, by policy label."""
    trace, phases, table, order = {}, {}, {}, []
    for raw in lines:
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        if line.startswith("gov-trace,") and not line.startswith("gov-trace,label,"):
            rec = dict(zip(FIELDS, line.split(",")[1:]))
            if len(rec) != len(FIELDS):
                continue
            if rec["label"] not in trace:
                order.append(rec["label"])
            trace.setdefault(rec["label"], []).append(rec)
        elif line.startswith("gov-phase,"):
            _, label, t_ms, name = line.split(",", 3)
            phases.setdefault(label, []).append((int(t_ms), name))
        else:
            m = ROW.match(line)
            if m:
                table[m.group(1)] = {
                    "energy_mj": int(m.group(2)), "units": int(m.group(3)),
                    "cpu_ms": int(m.group(4)), "p50_us": int(m.group(5)),
                    "p99_us": int(m.group(6)), "hotplug": int(m.group(7)),
                    "mean_online": float(m.group(8))}
    return trace, phases, table, order


def write_csv(path, trace, order):
    with open(path, "w") as f:
        f.write(",".join(FIELDS) + "\n")
        for label in order:
            for rec in trace[label]:
                f.write(",".join(rec[k] for k in FIELDS) + "\n")


def title(label, row):
    if not row:
        return label
    return (f"{label}: {row['energy_mj']} mJ, work {row['cpu_ms']} CPU-ms, "
            f"wake-up p50 {row['p50_us']} us / p99 {row['p99_us'] / 1000:.1f} ms, "
            f"{row['hotplug']} hotplugs, {row['mean_online']:.2f} CPUs online on average")


def gnuplot_script(png, trace, phases, table, order):
    ymax = max(max(int(r["online"]) for r in trace[l]) for l in order)
    ymax = max(ymax, max(float(r["depth"]) for l in order for r in trace[l]))
    ymax = int(ymax) + 1
    xmax = max(int(r["t_ms"]) for l in order for r in trace[l]) / 1000.0
    out = [f'set terminal pngcairo size 1200,{230 * len(order) + 60} font "sans,10"',
           f'set output "{png}"',
           f"set multiplot layout {len(order)},1 title "
           '"Hotplug governor policies on the same phased workload (QEMU virt, 4 CPUs)"',
           f"set xrange [0:{xmax:.1f}]", f"set yrange [0:{ymax + 1}]",
           'set ylabel "CPUs / threads"', "set grid ytics",
           "set key outside right top vertical Left reverse font \",9\"",
           "set datafile separator \",\"", "set lmargin 10", "set rmargin 28"]
    for i, label in enumerate(order):
        name = f"$d{i}"
        out.append(f"{name} << EOD")
        for r in trace[label]:
            if r["event"] == "policy":
                continue
            out.append(f"{int(r['t_ms']) / 1000.0:.3f},{r['online']},{r['depth']},"
                       f"{int(r['util']) / 100.0:.2f}")
        out.append("EOD")
        out.append("unset label")
        out.append("unset arrow")
        for t_ms, phase in phases.get(label, []):
            x = t_ms / 1000.0
            out.append(f"set arrow from {x:.2f},0 to {x:.2f},{ymax + 1} nohead dt 3 "
                       "lc rgb 'gray60'")
            out.append(f"set label \"{phase}\" at {x + 0.1:.2f},{ymax + 0.55:.2f} "
                       "font \",8\" tc rgb 'gray40'")
        out.append(f'set title "{title(label, table.get(label))}"')
        out.append('set xlabel "seconds"' if i == len(order) - 1 else "unset xlabel")
        if i == 1:
            out.append("unset key")
        out.append(f"plot {name} using 1:3 with lines lw 1 lc rgb '#e08020' "
                   "title 'run-queue depth (threads)', "
                   f"{name} using 1:4 with lines lw 1 lc rgb '#60a060' "
                   "title 'busy (CPUs)', "
                   f"{name} using 1:2 with steps lw 3 lc rgb '#2050c0' "
                   "title 'online CPUs'")
    out.append("unset multiplot")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    log, outdir = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "build"
    with open(log, errors="replace") as f:
        trace, phases, table, order = parse(f)
    if not order:
        sys.exit(f"power_plot: no gov-trace lines in {log}: did the power= boot run?")
    missing = [label for label in order if label not in table]
    if missing:
        sys.exit(f"power_plot: no table row for {', '.join(missing)} in {log}")
    os.makedirs(outdir, exist_ok=True)
    csv, gp, png = (os.path.join(outdir, f"power.{ext}") for ext in ("csv", "gp", "png"))
    write_csv(csv, trace, order)
    with open(gp, "w") as f:
        f.write(gnuplot_script(png, trace, phases, table, order))
    subprocess.run(["gnuplot", gp], check=True)
    print(f"power_plot: wrote {csv} ({sum(len(v) for v in trace.values())} records) and {png}")


if __name__ == "__main__":
    main()
