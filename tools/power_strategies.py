#!/usr/bin/env python3
"""The power strategies compared (make power): reads the console log of a
`power.strategies` boot, recomputes each run's energy from its raw figures
with the kernel's model (kernel/governor/model.c) and checks it against the
kernel's own, then writes:

  OUTDIR/power_strategies.csv   one row per (workload, strategy): figures
                                and energy
  OUTDIR/power_strategies.png   energy and wake-up latency p99 per strategy,
                                one panel per workload
  OUTDIR/power_sweep.csv        the sensitivity sweep: for each workload,
                                transition energy x0.1..x10 and deep-state
                                power x0.5..x10, each strategy's energy and
                                the winner
  OUTDIR/power_sweep.png        hotplug+idle against idle (and the best
                                hotplug without idle states) as the
                                transition energy grows, per workload
  OUTDIR/power_breakeven.png    the break-even idle length of each state
                                against the transition energy
  OUTDIR/power_strategies.md    the tables docs/power.md quotes
  OUTDIR/power_strategies.json  the parsed figures (model, CPUs, rows) and
                                the build and command line of the boot:
                                what tools/figures.py makes the tables from
and prints the tables, the break-even idle length of each state, and where
in the sweep hotplug beats idle states.

Usage: tools/power_strategies.py LOG [OUTDIR]     (OUTDIR: build)
       tools/power_strategies.py --ktap LOG       checks only, as KTAP
       tools/power_strategies.py --run --ktap     boot a short run first
                                                  (make test's smoke)
Exits 1 if the log has no rows, or a recomputed energy differs from the
kernel's by more than rounding.
"""

import json
import os
import re
import subprocess
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s*")
MODEL = re.compile(r"^power: model (\S+) \(.*?\): (.*)$")
CPUS = re.compile(r"^power: strategies at \d+% of each workload on (\d+) CPUs")
# The build the boot ran (its banner's git describe) and its command line.
VERSION = re.compile(r"^hotplug kernel (\S+)")
CMDLINE = re.compile(r"^Command line: (.*)$")
FIELDS = ["workload", "strategy", "wall_us", "active_us", "idle_us", "off_us",
          "state0_us", "state1_us", "state2_us", "state3_us", "entries0",
          "entries1", "entries2", "entries3", "clusters", "clusters_idle_us",
          "clusters_down_us", "cluster_downs", "cluster_uj", "transitions",
          "transition_uj", "energy_uj", "units", "cpu_ms", "wakeups", "p50_us",
          "p99_us", "break_even_ms", "opp_busy_us", "stall_us", "frames",
          "frame_misses"]
LISTS = ("opp_busy_us", "opp_khz", "opp_capacity", "opp_cpu_mw", "opp_cluster_mw")
TRANSITION_SCALES = [0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000]
DEEP_POWER_SCALES = [0.5, 1, 2, 5, 10]
CLUSTER_MW = [0, 10, 40, 80]


def parse(lines, run=None):
    """The model (the last model line: the strategies' run), the rows and
    the CPU count; the build and command line into run, if given."""
    model, rows, cpus = {}, [], None
    for raw in lines:
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        for key, regex in (("kernel", VERSION), ("command_line", CMDLINE)):
            m = regex.match(line)
            if m and run is not None:
                run.setdefault(key, m.group(1))
        m = MODEL.match(line)
        if m:
            model = {"name": m.group(1)}
            for word in m.group(2).split():
                if "=" in word:
                    k, v = word.split("=", 1)
                    model[k] = ([int(x) for x in v.split("/")] if k in LISTS
                                else v if k == "cpufreq" else int(v))
            continue
        m = CPUS.match(line)
        if m:
            cpus = int(m.group(1))
            continue
        if line.startswith("power-row,") and not line.startswith("power-row,workload,"):
            values = line.split(",")[1:]
            if len(values) != len(FIELDS):
                continue
            row = dict(zip(FIELDS, values))
            for k in FIELDS[2:]:
                row[k] = [int(x) for x in row[k].split("/")] if k in LISTS else int(row[k])
            rows.append(row)
    return model, rows, cpus


def entries(r):
    """Idle entries per state, WFI first (3 states in older logs)."""
    return "/".join(str(r[f"entries{i}"]) for i in range(4) if f"entries{i}" in r)


def energy_uj_hotplug_only(row, model, cpus, transition_scale, deep_scale):
    """Logs of the kernel whose model dropped a cluster's power only while
    all its cores were off (rows with clusters_off_us): its formula."""
    def uj(mw, us):
        return mw * us / 1000.0
    clusters = -(-cpus // model["cluster_cpus"])
    e = uj(model["active_mw"], row["active_us"]) + uj(model["off_mw"], row["off_us"])
    e += row["transitions"] * row["transition_uj"] * transition_scale
    e += uj(model["cluster_mw"], max(row["wall_us"] * clusters - row["clusters_off_us"], 0))
    e += uj(model["wfi_mw"], row["state0_us"])
    for i in (1, 2):
        if f"idle{i}_mw" in model:
            mw = model[f"idle{i}_mw"] * (deep_scale if i == 2 else 1)
            e += uj(mw, row[f"state{i}_us"]) + row[f"entries{i}"] * model[f"idle{i}_uj"]
    return e


def opp_energy_uj(row, model, cluster_busy_us, cluster_mw=None):
    """Busy time per OPP at capacity-scaled length, the displaced idle
    priced at WFI's and the cluster's idle power (model.c's
    opp_energy_uj()); the sweep's cluster_mw replaces every OPP's."""
    caps = model["opp_capacity"]
    top = caps[-1]
    e = 0
    for k, cap in enumerate(caps):
        t_us = row["opp_busy_us"][k]
        c_us = cluster_busy_us * t_us // row["active_us"] if row["active_us"] else 0
        cl_mw = model["opp_cluster_mw"][k] if cluster_mw is None else cluster_mw
        e += t_us * (model["opp_cpu_mw"][k] * top - model["wfi_mw"] * (top - cap)) // cap
        e += c_us * (cl_mw * top - model["cluster_idle_mw"] * (top - cap)) // cap
    return max(e / 1000.0, 0)


def energy_uj(row, model, cpus, transition_scale=1.0, deep_scale=1.0, cluster_mw=None):
    """The kernel's model, term by term (kernel/governor/model.c): us x mW = nJ.
    cluster_mw, if given, replaces the cluster's awake power (active and
    idle alike) for the sweep."""
    if cluster_mw is not None:
        model = dict(model, cluster_mw=cluster_mw, cluster_idle_mw=cluster_mw)
    def uj(mw, us):
        return mw * us / 1000.0
    if "clusters_off_us" in row:
        return energy_uj_hotplug_only(row, model, cpus, transition_scale, deep_scale)
    e = uj(model["off_mw"], row["off_us"])
    e += row["transitions"] * row["transition_uj"] * transition_scale
    e += uj(model["active_mw"] - min(model["active_mw"], model["wfi_mw"]), row["stall_us"])
    cluster_wall = row["wall_us"] * row["clusters"]
    idle = min(row["clusters_idle_us"], cluster_wall)
    down = min(row["clusters_down_us"], idle)
    e += opp_energy_uj(row, model, cluster_wall - idle, cluster_mw)
    e += uj(model["cluster_idle_mw"], idle - down) + uj(model["cluster_down_mw"], down)
    e += row["cluster_downs"] * row["cluster_uj"]
    e += uj(model["wfi_mw"], row["state0_us"])
    for i in (1, 2, 3):
        if f"idle{i}_mw" not in model:
            continue
        mw = model[f"idle{i}_mw"] * (deep_scale if i == 2 else 1)
        e += uj(mw, row[f"state{i}_us"]) + row[f"entries{i}"] * model[f"idle{i}_uj"]
    return e


def reference_cpu_ms(rows, workload):
    """The most CPU time any strategy gave the workload's threads."""
    return max(r["cpu_ms"] for r in rows if r["workload"] == workload)


def equal_work_uj(row, rows, model, cpus, *scales):
    """Energy for the same work: a strategy that gave the threads less CPU
    time (a CPU-bound phase squeezed onto fewer cores, frames missed) is
    charged the shortfall at active power, as if another core did it.
    Without this, doing less would count as saving energy."""
    short_ms = reference_cpu_ms(rows, row["workload"]) - row["cpu_ms"]
    return energy_uj(row, model, cpus, *scales) + short_ms * model["active_mw"]


def check(model, rows, cpus):
    """(name, ok, detail) per row: the host's energy is the kernel's."""
    out = []
    for r in rows:
        mine = energy_uj(r, model, cpus)
        # The kernel rounds each term down to whole uJ (and us): a few uJ.
        ok = abs(mine - r["energy_uj"]) <= 20 + r["energy_uj"] * 0.001
        out.append((f"energy {r['workload']}/{r['strategy']}", ok,
                    f"kernel {r['energy_uj']} uJ, host {mine:.0f} uJ"))
    return out


def break_even(model):
    """ms an off core must stay off to repay a down and an up, per state it
    would otherwise idle in (the cluster's share left out)."""
    per_op = model["transition_uj"]
    out = [("WFI", model["wfi_mw"])]
    for i in (1, 2, 3):
        if f"idle{i}_mw" in model:
            out.append((f"idle state {i}", model[f"idle{i}_mw"]))
    return [(name, mw, 2 * per_op / (mw - model["off_mw"]) if mw > model["off_mw"] else None)
            for name, mw in out]


def workloads(rows):
    seen = []
    for r in rows:
        if r["workload"] not in seen:
            seen.append(r["workload"])
    return seen


def sweep(model, rows, cpus):
    out = []
    for w in workloads(rows):
        mine = [r for r in rows if r["workload"] == w]
        for cl in CLUSTER_MW:
            for ts in TRANSITION_SCALES:
                for ds in DEEP_POWER_SCALES:
                    energies = {r["strategy"]: equal_work_uj(r, rows, model, cpus,
                                                              ts, ds, cl)
                                for r in mine}
                    winner = min(energies, key=energies.get)
                    out.append((w, cl, ts, ds, energies, winner))
    return out


def crossover(model, rows, cpus, w, a, b, ds, cl):
    """The transition-energy multiplier at which strategy a stops beating b
    on workload w (energy is linear in it): None if a never beats b, inf
    if it always does."""
    ra = next((r for r in rows if r["workload"] == w and r["strategy"] == a), None)
    rb = next((r for r in rows if r["workload"] == w and r["strategy"] == b), None)
    if not ra or not rb:
        return None
    a0, a1 = (equal_work_uj(ra, rows, model, cpus, t, ds, cl) for t in (0, 1))
    b0, b1 = (equal_work_uj(rb, rows, model, cpus, t, ds, cl) for t in (0, 1))
    da, db = a1 - a0, b1 - b0
    if a0 >= b0 and da >= db:
        return None
    if da <= db:
        return float("inf")
    return (b0 - a0) / (da - db)


def write_csv(path, rows, model, cpus):
    with open(path, "w") as f:
        f.write(",".join(FIELDS + ["host_energy_uj", "equal_work_uj"]) + "\n")
        for r in rows:
            f.write(",".join(str(r[k]) for k in FIELDS)
                    + f",{energy_uj(r, model, cpus):.0f}"
                    + f",{equal_work_uj(r, rows, model, cpus):.0f}\n")


def write_sweep_csv(path, sw):
    strategies = list(sw[0][4]) if sw else []
    with open(path, "w") as f:
        f.write("workload,cluster_mw,transition_scale,deep_power_scale,"
                + ",".join(f"{s}_mj" for s in strategies) + ",winner\n")
        for w, cl, ts, ds, e, win in sw:
            f.write(f"{w},{cl},{ts},{ds},"
                    + ",".join(f"{e[s] / 1000:.1f}" for s in strategies) + f",{win}\n")


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def plot_strategies(png, rows):
    ws = workloads(rows)
    lines = [f'set terminal pngcairo size 1200,{300 * len(ws) + 60} font "sans,10"',
             f'set output "{png}"',
             f'set multiplot layout {len(ws)},1 title "Power strategies on the same workloads '
             '(QEMU virt, 4 CPUs; modelled energy, bars; wake-up p99, points)"',
             "set style fill solid 0.8 border -1", "set boxwidth 0.6",
             "set xrange [-0.6:*]",
             "set xtics rotate by -20 font \",9\"", "set ylabel \"energy (mJ)\"",
             "set y2label \"wake-up p99 (ms)\"", "set y2tics", "set ytics nomirror",
             "set grid ytics", "set key outside right top", "set yrange [0:*]", "set y2range [0:*]"]
    for i, w in enumerate(ws):
        lines.append(f"$d{i} << EOD")
        for r in rows:
            if r["workload"] == w:
                lines.append(f"\"{r['strategy']}\" {r['energy_uj'] / 1000:.1f} "
                             f"{r['p99_us'] / 1000:.3f}")
        lines.append("EOD")
        lines.append(f'set title "{w}"')
        lines.append(f"plot $d{i} using 0:2:xtic(1) with boxes title 'energy' "
                     "lc rgb '#2050c0', "
                     f"$d{i} using 0:3 axes x1y2 with points pt 7 ps 1.4 lc rgb '#e04020' "
                     "title 'wake-up p99'")
    lines.append("unset multiplot")
    gnuplot("\n".join(lines) + "\n")


def plot_sweep(png, sw):
    ws = []
    for w, *_ in sw:
        if w not in ws:
            ws.append(w)
    lines = [f'set terminal pngcairo size 1200,{280 * len(ws) + 60} font "sans,10"',
             f'set output "{png}"',
             f'set multiplot layout {len(ws)},1 title "When does hotplug beat idle states? '
             'Energy against the transition energy (model defaults otherwise; dashed: '
             'no cluster power)"',
             "set logscale x", 'set xlabel "hotplug transition energy (x the measured)"',
             'set ylabel "energy (mJ)"', "set grid", "set key outside right"]
    for i, w in enumerate(ws):
        names = ["idle", "hotplug+idle", "pack+idle", "hotplug-rqdepth"]
        series = []
        for cl, dash in ((CLUSTER_MW[2], 1), (0, 2)):
            pts = [(ts, e) for ww, c, ts, ds, e, _ in sw if ww == w and ds == 1 and c == cl]
            names = [n for n in names if n in pts[0][1]]
            lines.append(f"$s{i}c{cl} << EOD")
            for ts, e in pts:
                lines.append(f"{ts} " + " ".join(f"{e[n] / 1000:.1f}" for n in names))
            lines.append("EOD")
            series += [f"$s{i}c{cl} using 1:{j + 2} with linespoints lw 2 dt {dash} lc {j + 1} "
                       f"title '{n}" + (" (no cluster power)'" if cl == 0 else "'")
                       for j, n in enumerate(names)]
        lines.append(f'set title "{w}"')
        lines.append("plot " + ", ".join(series))
    lines.append("unset multiplot")
    gnuplot("\n".join(lines) + "\n")


SMOKE_LOG = "build/power-strategies-smoke.log"
STRATEGIES = ["spread", "hotplug-rqdepth", "hotplug-load", "pack", "idle", "pack+idle",
              "hotplug+idle", "cost-hotplug+idle", "hotplug+idle-2013",
              "cost-hotplug+idle-2013", "idle-tegra3", "hotplug+idle-tegra3"]
WORKLOADS = ["phased", "phone", "storm"]


def smoke_boot():
    """Every strategy on every workload at 5 %: the pipeline runs end to end."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, SMOKE_LOG), "w") as log:
        subprocess.run([os.path.join(root, "qemu.sh"), "--smp", "4", "--timeout", "300",
                        "--append", "power.strategies power.scale=5 hz=250 poweroff"],
                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                       cwd=root, check=False)
    return os.path.join(root, SMOKE_LOG)


def plot_breakeven(png, model):
    """Break-even idle length (ms) per state against the energy of one
    hotplug operation: 2 x E / (P(state) - P(off))."""
    states = [(n, mw) for n, mw, _ in break_even(model) if mw > model["off_mw"]]
    lines = [f'set terminal pngcairo size 900,420 font "sans,10"', f'set output "{png}"',
             'set title "Break-even idle length: how long a core must stay off to repay '
             'a down and an up"', "set logscale xy", "set grid",
             'set xlabel "energy of one hotplug operation (uJ)"',
             'set ylabel "break-even (ms)"', "set key top left",
             f"set arrow from {model['transition_uj']},graph 0 to "
             f"{model['transition_uj']},graph 1 nohead dt 3",
             f"set label \"measured\" at {model['transition_uj']},graph 0.95 offset 0.5,0"]
    lines.append("$b << EOD")
    for e in (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000):
        lines.append(f"{e} " + " ".join(f"{2 * e / (mw - model['off_mw']):.3f}"
                                        for _, mw in states))
    lines.append("EOD")
    lines.append("plot " + ", ".join(f"$b using 1:{i + 2} with linespoints lw 2 "
                                     f"title 'against {n} ({mw} mW)'"
                                     for i, (n, mw) in enumerate(states)))
    gnuplot("\n".join(lines) + "\n")


def markdown_workload(model, rows, cpus, w):
    """One workload's table: every strategy's energy, the same work's, and
    its latencies."""
    mine = [r for r in rows if r["workload"] == w]
    base = next((r for r in mine if r["strategy"] == "spread"), mine[0])
    base_eq = equal_work_uj(base, rows, model, cpus)
    new = "frames" in base    # logs with frames, stall and cluster figures
    out = [f"**{w}**", "",
           "| strategy | energy | same work | vs spread | CPU-ms | p50 us | p99 us "
           + ("| missed frames | hotplugs | stall ms | cluster down s | idle entries |"
              if new else "| hotplugs | idle entries |"),
           "|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if new else "")]
    for r in mine:
        eq = equal_work_uj(r, rows, model, cpus)
        extra = (f"| {r['frame_misses']}/{r['frames']} | {r['transitions']} "
                 f"| {r['stall_us'] / 1000:.0f} | {r['clusters_down_us'] / 1e6:.1f} "
                 if new else f"| {r['transitions']} ")
        out.append(f"| {r['strategy']} | {r['energy_uj'] / 1000:.0f} | {eq / 1000:.0f} "
                   f"| {100.0 * eq / base_eq - 100:+.1f}% | {r['cpu_ms']} | {r['p50_us']} "
                   f"| {r['p99_us']} " + extra + f"| {entries(r)} |")
    return "\n".join(out)


def markdown_crossover(model, rows, cpus):
    """Where in the sweep hotplug+idle stops beating idle, per workload
    and cluster power."""
    out = ["| hotplug+idle beats idle (same work) while the transition energy is below "
           "| cluster 0 mW | 10 mW | 40 mW | 80 mW |", "|---|---|---|---|---|"]
    for w in workloads(rows):
        cells = []
        for cl in CLUSTER_MW:
            x = crossover(model, rows, cpus, w, "hotplug+idle", "idle", 1, cl)
            cells.append("never" if x is None else "always" if x == float("inf")
                         else f"x{x:.0f}")
        out.append(f"| {w} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def break_even_cluster(model, mw):
    """ms for a cluster's last online core when the cluster cannot go
    down from idle: it also saves cluster idle - cluster down power
    (model.c's power_break_even_calc(), no wake-up term)."""
    if "cluster_idle_mw" not in model:
        return None
    saved = max(mw - model["off_mw"], 0) + model["cluster_idle_mw"] - model["cluster_down_mw"]
    return 2 * model["transition_uj"] / saved if saved > 0 else None


def markdown_break_even(model):
    cl = "cluster_idle_mw" in model
    out = ["| idle state the off core would otherwise be in | power | break-even |"
           + (" its cluster's last core |" if cl else ""),
           "|---|---|---|" + ("---|" if cl else "")]
    for name, mw, ms in break_even(model):
        line = f"| {name} | {mw} mW | " + (f"{ms:.1f} ms" if ms else "never") + " |"
        if cl:
            c = break_even_cluster(model, mw)
            line += (f" {c:.1f} ms |" if c else " never |")
        out.append(line)
    return "\n".join(out)


def markdown_delay_sweep(model, rows, cpus):
    """hotplug+idle with each fixed down delay (power.down_delays=), per
    workload: energy for the same work, against the break-even."""
    swept = [r for r in rows if re.match(r"^hotplug\+idle/\d+ms$", r["strategy"])]
    if not swept:
        return ""
    delays = sorted({int(r["strategy"].split("/")[1][:-2]) for r in swept})
    out = ["| down delay | " + " | ".join(f"{d} ms" for d in delays) + " |",
           "|---|" + "---|" * len(delays)]
    for w in workloads(swept):
        cells = []
        for d in delays:
            r = next((x for x in swept if x["workload"] == w
                      and x["strategy"] == f"hotplug+idle/{d}ms"), None)
            cells.append(f"{equal_work_uj(r, rows, model, cpus) / 1000:.0f}" if r else "")
        out.append(f"| {w} (mJ, same work) | " + " | ".join(cells) + " |")
    return "\n".join(out)


def markdown(model, rows, cpus):
    """The tables docs/power.md quotes, from the same figures."""
    parts = [markdown_workload(model, rows, cpus, w) for w in workloads(rows)]
    parts += [markdown_crossover(model, rows, cpus), markdown_break_even(model)]
    parts += [p for p in [markdown_delay_sweep(model, rows, cpus)] if p]
    return "\n\n".join(parts) + "\n"


def main():
    args = sys.argv[1:]
    run = "--run" in args
    ktap = "--ktap" in args
    args = [a for a in args if a not in ("--run", "--ktap")]
    if run:
        args = [smoke_boot()]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    log, outdir = args[0], args[1] if len(args) == 2 else "build"
    run = {}
    with open(log, errors="replace") as f:
        model, rows, cpus = parse(f, run)
    have = {(r["workload"], r["strategy"]) for r in rows}
    checks = [("rows in the log", bool(rows), f"{len(rows)} rows"),
              ("model line in the log", bool(model) and cpus is not None, str(model))]
    if run:
        missing = [f"{w}/{s}" for w in WORKLOADS for s in STRATEGIES if (w, s) not in have]
        checks.append(("a row per workload and strategy", not missing,
                       "missing: " + ", ".join(missing)))
    if rows and model and cpus:
        checks += check(model, rows, cpus)
    if ktap:
        print("KTAP version 1")
        print(f"1..{len(checks)}")
        for i, (name, ok, detail) in enumerate(checks, 1):
            print(f"{'ok' if ok else 'not ok'} {i} {name}")
            if not ok:
                print(f"# {detail}")
        return 0 if all(ok for _, ok, _ in checks) else 1
    bad = [c for c in checks if not c[1]]
    for name, _, detail in bad:
        print(f"power_strategies: {name}: {detail}", file=sys.stderr)
    if bad:
        return 1
    os.makedirs(outdir, exist_ok=True)
    write_csv(os.path.join(outdir, "power_strategies.csv"), rows, model, cpus)
    sw = sweep(model, rows, cpus)
    write_sweep_csv(os.path.join(outdir, "power_sweep.csv"), sw)
    plot_strategies(os.path.join(outdir, "power_strategies.png"), rows)
    plot_sweep(os.path.join(outdir, "power_sweep.png"), sw)
    plot_breakeven(os.path.join(outdir, "power_breakeven.png"), model)
    with open(os.path.join(outdir, "power_strategies.md"), "w") as f:
        f.write(markdown(model, rows, cpus))
    with open(os.path.join(outdir, "power_strategies.json"), "w") as f:
        json.dump({"kernel": [run["kernel"]] if "kernel" in run else [],
                   "command_line": run.get("command_line", ""),
                   "host_cpus": os.cpu_count(), "model": model, "cpus": cpus,
                   "rows": rows}, f, indent=1, sort_keys=True)
        f.write("\n")

    print("Break-even idle length (a core off repays a down and an up, "
          f"{model['transition_uj']} uJ each, after):")
    for name, mw, ms in break_even(model):
        print(f"  against {name:<13} ({mw:>3} mW): "
              + (f"{ms:8.1f} ms" if ms is not None else "never"))
    for w in workloads(rows):
        mine = [r for r in rows if r["workload"] == w]
        base = next((r for r in mine if r["strategy"] == "spread"), mine[0])
        base_eq = equal_work_uj(base, rows, model, cpus)
        print(f"\n{w}: {'STRATEGY':<18} {'ENERGY-mJ':>9} {'SAME-WORK':>9} {'vs spread':>9} "
              f"{'CPU-ms':>7} {'P50-us':>7} {'P99-us':>7} {'HOTPLUG':>7}  "
              "ENTRIES WFI/1/2")
        for r in mine:
            eq = equal_work_uj(r, rows, model, cpus)
            print(f"{w}: {r['strategy']:<18} {r['energy_uj'] / 1000:9.0f} {eq / 1000:9.0f} "
                  f"{100.0 * eq / base_eq - 100:+8.1f}% "
                  f"{r['cpu_ms']:7} {r['p50_us']:7} {r['p99_us']:7} {r['transitions']:7}  "
                  f"{entries(r)}")
        for cl in CLUSTER_MW:
            cells = []
            for ds in DEEP_POWER_SCALES:
                x = crossover(model, rows, cpus, w, "hotplug+idle", "idle", ds, cl)
                cells.append("never" if x is None else "always" if x == float("inf")
                             else f"< x{x:.1f}")
            print(f"{w}: cluster {cl:>2} mW: hotplug+idle beats idle, same work, when the "
                  "transition energy is (deep-state power x" + "/x".join(f"{d:g}" for d in
                                                           DEEP_POWER_SCALES)
                  + "): " + ", ".join(cells))
    print(f"\npower_strategies: wrote {outdir}/power_strategies.csv, power_strategies.png, "
          "power_sweep.csv, power_sweep.png, power_breakeven.png, power_strategies.md "
          "and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
