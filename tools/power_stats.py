#!/usr/bin/env python3
"""The power strategies over several boots (make power-stats): one boot's
table is one sample of a noisy machine (TCG time follows the host's
scheduling), so this boots the kernel N times, each running every strategy
in a shuffled order with an A/A control (one strategy, idle, run a second
time in the same boot as idle~2), and reports per workload and strategy
the median and interquartile range over the boots of:

  - the energy for the same work (tools/power_strategies.py's
    equal_work_uj(): modelled from the measured residencies);
  - its change against spread in the same boot (a paired comparison);
  - the wake-up p99 and the frames' deadline misses.

A change against spread is claimed only if its interquartile range
excludes zero and its median is larger than the largest A/A difference of
that workload (the noise between identical runs). Every boot's energies
are recomputed on the host first (power_strategies.check()).

Writes OUTDIR/power_stats.json (every boot's parsed rows, for
tools/figures.py) and OUTDIR/power_stats.md, and prints the tables.

Usage: tools/power_stats.py [--boots N] [--scale PCT] [--seed K] [OUTDIR]
       tools/power_stats.py --logs LOG [LOG...] [--out OUTDIR]
                                              tables from existing logs
       tools/power_stats.py --self-test       KTAP: the statistics on
                                              made-up rows
"""
import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from harness.ktap import KtapWriter   # noqa: E402
import power_strategies as ps         # noqa: E402

CONTROL = "idle"            # the A/A control: run twice in every boot
AGAIN = CONTROL + "~2"      # its second run's name (kernel/bench/power/strategy.c)


def quartiles(values):
    """(q1, median, q3) by linear interpolation; one value gives itself."""
    v = sorted(values)
    if not v:
        return (None, None, None)

    def at(p):
        x = p * (len(v) - 1)
        lo = int(x)
        hi = min(lo + 1, len(v) - 1)
        return v[lo] + (v[hi] - v[lo]) * (x - lo)
    return (at(0.25), at(0.5), at(0.75))


def boot_once(i, scale, order, outdir):
    """One boot running the strategies in order; its log's path."""
    log = os.path.join(outdir, f"power-stats-boot{i}.log")
    with open(log, "w") as f:
        subprocess.run([os.path.join(ROOT, "qemu.sh"), "--smp", "4", "--timeout", "3600",
                        "--append", f"power.strategies power.only={','.join(order)} "
                        f"power.scale={scale} hz=250 poweroff"],
                       stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                       cwd=ROOT, check=False)
    return log


def read_boot(log):
    """{model, cpus, rows, kernel, command_line} of one boot's log;
    SystemExit if the host's energies differ from the kernel's."""
    run = {}
    with open(log, errors="replace") as f:
        model, rows, cpus = ps.parse(f, run)
    if not rows:
        sys.exit(f"power_stats: {log}: no rows")
    bad = [name for name, ok, _ in ps.check(model, rows, cpus) if not ok]
    if bad:
        sys.exit(f"power_stats: {log}: the host's energy differs from the kernel's: "
                 + ", ".join(bad))
    return {"model": model, "cpus": cpus, "rows": rows, **run}


def samples(boots):
    """{(workload, strategy): {"mj": [...], "vs": [...], "p99": [...],
    "missed": [...]}} over the boots; vs: per-boot change against spread
    in percent, for the same work."""
    out = {}
    for b in boots:
        model, rows, cpus = b["model"], b["rows"], b["cpus"]
        for w in ps.workloads(rows):
            mine = [r for r in rows if r["workload"] == w]
            base = next((r for r in mine if r["strategy"] == "spread"), None)
            base_eq = ps.equal_work_uj(base, rows, model, cpus) if base else None
            for r in mine:
                eq = ps.equal_work_uj(r, rows, model, cpus)
                s = out.setdefault((w, r["strategy"]),
                                   {"mj": [], "vs": [], "p99": [], "missed": []})
                s["mj"].append(eq / 1000)
                if base_eq:
                    s["vs"].append(100.0 * eq / base_eq - 100)
                s["p99"].append(r["p99_us"])
                s["missed"].append(r.get("frame_misses", 0))
    return out


def noise(s, w):
    """The largest A/A difference of workload w over the boots (percent of
    the control's energy), or None without a control."""
    a, b = s.get((w, CONTROL)), s.get((w, AGAIN))
    if not a or not b:
        return None
    return max(abs(100.0 * y / x - 100) for x, y in zip(a["mj"], b["mj"]))


def claim(vs, aa):
    """Is a change against spread larger than the noise? Its IQR must
    exclude zero and its median exceed the A/A difference."""
    q1, med, q3 = quartiles(vs)
    if med is None or aa is None:
        return False
    return (q1 > 0 or q3 < 0) and abs(med) > aa


def fmt_q(values, f="{:.0f}"):
    q1, med, q3 = quartiles(values)
    if med is None:
        return "-"
    return f"{f.format(med)} ({f.format(q1)} to {f.format(q3)})"


def markdown(data):
    """Per workload: each strategy's medians and IQRs, and whether its
    change against spread exceeds the noise."""
    boots = data["boots"]
    s = samples(boots)
    strategies = []
    for b in boots:
        for r in b["rows"]:
            if r["strategy"] not in strategies:
                strategies.append(r["strategy"])
    order = [st for st in ps.STRATEGIES if st in strategies] + \
        [st for st in strategies if st not in ps.STRATEGIES]
    parts = []
    for w in ps.workloads(boots[0]["rows"]):
        aa = noise(s, w)
        lines = [f"**{w}** ({len(boots)} boots; A/A difference of {CONTROL}: "
                 + (f"up to {aa:.1f}%" if aa is not None else "none") + ")", "",
                 "| strategy | same work, mJ | vs spread, % | beyond noise | p99 us | "
                 "missed frames |", "|---|---|---|---|---|---|"]
        for st in order:
            x = s.get((w, st))
            if not x:
                continue
            beyond = "-" if st in ("spread", AGAIN) else \
                ("yes" if claim(x["vs"], aa) else "no")
            lines.append(f"| {st} | {fmt_q(x['mj'])} | {fmt_q(x['vs'], '{:+.1f}')} | "
                         f"{beyond} | {fmt_q(x['p99'])} | {fmt_q(x['missed'])} |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def self_test():
    ktap = KtapWriter()
    ktap.result("quartiles of 1..5", quartiles([5, 1, 3, 2, 4]) == (2, 3, 4),
                str(quartiles([5, 1, 3, 2, 4])))
    ktap.result("quartiles of one value", quartiles([7]) == (7, 7, 7), "")
    ktap.result("a change inside the noise is not claimed", not claim([-5, -4, -6], 8), "")
    ktap.result("a change beyond the noise is claimed", claim([-20, -18, -22], 8), "")
    ktap.result("an IQR across zero is not claimed", not claim([-20, 5, -30, 10], 1), "")
    ktap.result("no control, no claim", not claim([-20, -21, -22], None), "")
    return ktap.print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boots", type=int, default=5)
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--logs", nargs="+")
    ap.add_argument("--out", default=None)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("outdir", nargs="?", default="build")
    a = ap.parse_args()
    if a.self_test:
        sys.exit(0 if self_test() else 1)
    if a.boots < 1 or a.boots > 50 or a.scale < 1 or a.scale > 1000:
        sys.exit("power_stats: --boots wants 1-50, --scale 1-1000 (percent)")
    outdir = a.out or a.outdir
    os.makedirs(outdir, exist_ok=True)
    logs = a.logs
    if not logs:
        rng = random.Random(a.seed)
        logs = []
        for i in range(a.boots):
            order = ps.STRATEGIES + [CONTROL]
            rng.shuffle(order)
            print(f"power_stats: boot {i + 1}/{a.boots}: {','.join(order)}", flush=True)
            logs.append(boot_once(i, a.scale, order, outdir))
    boots = [read_boot(log) for log in logs]
    data = {"boots": boots, "kernel": sorted({b.get("kernel", "?") for b in boots}),
            "scale": a.scale, "seed": a.seed, "nr_boots": len(boots),
            "host_cpus": os.cpu_count()}
    with open(os.path.join(outdir, "power_stats.json"), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    md = markdown(data)
    with open(os.path.join(outdir, "power_stats.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
