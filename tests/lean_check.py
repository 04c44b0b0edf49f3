#!/usr/bin/env python3
"""The lean build (make lean: TESTS=0 BENCH=0) against the full one: both
images exist, the lean one is smaller, and it holds none of the
experiments (no test suite, no benchmark, no torture, no lkdtm, no power
comparison, no rival reader design: the mechanism's per-bit RCU alone)
and no fault injection (no fault point either). Each name looked for is in the full image, so a
renamed one cannot pass unseen. Prints both sizes; KTAP, one line per check. The lean image
booting make run's demo is a boot of tests/matrix.py (lean-demo).
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter   # noqa: E402

NM = os.environ.get("NM", "aarch64-linux-gnu-nm")
FULL, LEAN = "build", os.path.join("build", "lean")
# Functions only the experiments define.
EXPERIMENTS = ("kunit_run_tests", "bench_run", "rcu_torture_run", "lkdtm_run",
               "power_strategies", "psci_floor_cycle")
# The 2013 thread's other reader designs and the readers that name one.
DESIGNS = ("rwlock_design", "percpu_rwsem_design", "stop_machine_design",
           "cpus_read_lock", "cpu_hotplug_set_sync")
# Linker-section tables the experiments fill: empty in the lean image.
TABLES = ("ktest_suites", "benches", "fault_points")


def symbols(elf):
    out = subprocess.run([NM, elf], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16)
    return syms


def main():
    ktap = KtapWriter()
    images = [os.path.join(ROOT, d, "Image") for d in (FULL, LEAN)]
    missing = [os.path.relpath(i, ROOT) for i in images if not os.path.exists(i)]
    ktap.result("lean: both images built", not missing,
                ", ".join(missing) + " missing" if missing else "")
    if missing:
        return 0 if ktap.print() else 1
    full, lean = (os.path.getsize(i) for i in images)
    ktap.result("lean: smaller than the full build", lean < full,
                f"full {full} bytes, lean {lean} bytes ({100 * lean // full}%)")
    syms = symbols(os.path.join(ROOT, LEAN, "kernel.elf"))
    full_syms = symbols(os.path.join(ROOT, FULL, "kernel.elf"))
    unknown = [s for s in EXPERIMENTS + DESIGNS if s not in full_syms]
    ktap.result("lean: the names looked for are in the full image", not unknown,
                ", ".join(unknown) + " not found" if unknown else "")
    left = [s for s in EXPERIMENTS if s in syms]
    ktap.result("lean: no experiment linked in", not left,
                ", ".join(left) or f"none of {len(EXPERIMENTS)} names")
    left = [s for s in DESIGNS if s in syms]
    ktap.result("lean: no rival reader design linked in", not left,
                ", ".join(left) or f"none of {len(DESIGNS)} names")
    ktap.result("lean: fault injection compiled out (no should_fail())",
                "should_fail" not in syms)
    full_tables = [t for t in TABLES
                   if syms.get(f"__{t}_start") != syms.get(f"__{t}_end")]
    ktap.result("lean: no test suite, benchmark or fault point registered",
                not full_tables,
                ", ".join(full_tables) or "tables empty")
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
