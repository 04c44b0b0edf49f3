#!/usr/bin/env python3
"""The whole fault sweep (`make sweep`): every single fault event, every
event on two CPUs at once, and every pair of events (on one CPU and on
two), around CPU downs and ups with readers of the online mask running,
under each of the four reader designs (kernel/tests/hotplug_sweep_test.c),
one boot per design and configuration, two at a time. Prints each boot's coverage and
time, every violated invariant with the combination that broke it, and a
last line with the totals; exits 1 on any violation or failed boot.

Usage: tools/sweep.py [--pairs N] [--seed S] [--configs virt,pen] [--jobs J]
  --pairs N   N random pairs per design instead of all of them (a sample)
"""
import argparse
import concurrent.futures
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.qemu import qemu_sh_argv, run_qemu   # noqa: E402

DESIGNS = ("rwlock", "percpu_rwsem", "stop_machine", "rcu")
# The boards' ways of taking a CPU off: PSCI with QEMU's firmware, and the
# kernel's pen (as on spin-table boards; no firmware answers to fail).
CONFIGS = {
    "virt": ["--smp", "4", "--mem", "256M"],
    "pen": ["--smp", "4", "--mem", "256M"],
}
EXTRA = {"virt": "", "pen": "hotplug.pen "}
TIMEOUT = 3000

SUMMARY = re.compile(r"# hotplug_sweep_\w+: (\w+): (\d+) combinations \((\d+) singles, "
                     r"(\d+) doubles, (\d+) pairs\) of (\d+) events in (\d+) ms, "
                     r"(\d+) violation")
VIOLATION = re.compile(r"# hotplug_sweep_\w+: kernel/tests/hotplug_sweep_test\.c:\d+: (.*)")
SEED = re.compile(r"# hotplug_sweep_\w+: seed (\d+)")


def one(config, design, sweep, seed):
    """One boot: its summary, violations, seed and seconds (or a failure)."""
    append = (f"{EXTRA[config]}test=hotplug_sweep sweep={sweep} sweep.design={design}"
              f"{f' sweep.seed={seed}' if seed else ''} poweroff")
    log_path = os.path.join(ROOT, "build", f"sweep-{config}-{design}.log")
    with open(log_path, "w") as log:
        run = run_qemu(qemu_sh_argv(CONFIGS[config], TIMEOUT, append=append),
                       TIMEOUT, log, cwd=ROOT)
    text = "\n".join(run.stdout)
    summary = SUMMARY.search(text)
    return {
        "config": config, "design": design, "log": os.path.relpath(log_path, ROOT),
        "seconds": run.seconds, "ok": run.status == 0 and summary is not None,
        "summary": summary.groups() if summary else None,
        "violations": VIOLATION.findall(text),
        "seed": (SEED.search(text) or [None, None])[1],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--configs", default="virt,pen")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    sweep = str(args.pairs) if args.pairs else "full"
    runs = [(c, d) for c in args.configs.split(",") for d in DESIGNS]
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: one(*r, sweep, args.seed), runs))
    combos = violations = failed = 0
    for r in results:
        name = f"{r['config']}/{r['design']}"
        if not r["ok"]:
            failed += 1
            print(f"{name}: the boot failed or printed no summary (log: {r['log']})")
            continue
        _, n, singles, doubles, pairs, events, ms, v = r["summary"]
        combos += int(n)
        violations += int(v)
        print(f"{name}: {n} combinations ({singles} singles, {doubles} on two CPUs, "
              f"{pairs} pairs of {events} events), {int(ms) / 1000:.0f} s, "
              f"{v} violation(s), seed {r['seed']} (log: {r['log']})")
        for what in r["violations"]:
            print(f"  {name}: {what}")
    print(f"sweep: {combos} combinations in {len(results)} boots, "
          f"{time.monotonic() - t0:.0f} s wall, {violations} violation(s), "
          f"{failed} failed boot(s)")
    return 0 if not violations and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
