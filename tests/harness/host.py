"""The host-side checks `make test` runs after the boots: commands that print
KTAP (host unit tests, the Promela model, the GDB walkthrough, a bounded DTB
fuzz run, the board descriptions and SD-card images, the README's
command-line table against the declarations, `make trace`'s run and its
timeline's checks, smoke runs of `make bench` and `make bench-scale`), each counted as one group of Checks."""

import os
import signal
import subprocess
import sys
import time

from harness.console import strip_timestamp
from harness.ktap import Check, ktap_checks, parse_ktap
from harness.qemu import stop

HOST_TIMEOUT = 600

# Checks that run on the host and print KTAP: (name, argv, log file, prefix,
# needed file). Each is one group in the summary, after the boots.
TOOL_CHECKS = [
    ("host tests", ["make", "-C", "tests/host"], "host.log", "host.", "tests/host/Makefile"),
    ("model", ["tools/model/check.sh"], "model.log", "model.", "tools/model/check.sh"),
    ("gdb walkthrough", [sys.executable, "tests/gdb_walkthrough.py"], "gdb.log", "gdb.",
     "tests/gdb_walkthrough.py"),
    ("gdb walkthrough tfa", [sys.executable, "tests/gdb_tfa_walkthrough.py"], "gdb-tfa.log",
     "gdb.tfa.", "tests/gdb_tfa_walkthrough.py"),
    ("dtb fuzz", ["make", "-s", "-C", "tests/fuzz"], "fuzz.log", "fuzz.", "tests/fuzz/Makefile"),
    ("boards", ["make", "-s", "-C", "tests/boards"], "boards.log", "boards.",
     "tests/boards/Makefile"),
    ("params", [sys.executable, "tests/params_check.py"], "params.log", "params.",
     "tests/params_check.py"),
    ("layers", [sys.executable, "tests/layers_check.py"], "layers.log", "",
     "tests/layers_check.py"),
    ("layers self-test", [sys.executable, "tests/layers_check.py", "--self-test"],
     "layers-self.log", "layers ", "tests/layers_check.py"),
    ("lean", [sys.executable, "tests/lean_check.py"], "lean.log", "",
     "tests/lean_check.py"),
    ("docs", [sys.executable, "tests/docs_check.py", "--strict-comments"], "docs.log", "docs.",
     "tests/docs_check.py"),
    ("figures", [sys.executable, "tools/figures.py", "--check"], "figures.log", "figures.",
     "tools/figures.py"),
    ("tfa", [sys.executable, "tests/tfa_check.py"], "tfa.log", "tfa.",
     "tests/tfa_check.py"),
    ("trace", [sys.executable, "tools/trace.py", "--run", "--ktap",
               "--out", "build/trace-smoke.json"], "trace.log", "trace.", "tools/trace.py"),
    ("nr_cpus cost", [sys.executable, "tools/nr_cpus_cost.py", "--ktap"], "nr_cpus.log",
     "nr_cpus.", "tools/nr_cpus_cost.py"),
    ("bench smoke", [sys.executable, "tools/bench.py", "--smoke", "--ktap",
                     "--out", "build/bench-smoke.json"], "bench.log", "bench.",
     "tools/bench.py"),
    ("power strategies", [sys.executable, "tools/power_strategies.py", "--run", "--ktap"],
     "power.log", "power.", "tools/power_strategies.py"),
    ("power stats self-test", [sys.executable, "tools/power_stats.py", "--self-test"],
     "power_stats.log", "power_stats.", "tools/power_stats.py"),
    ("scale bench smoke", [sys.executable, "tools/bench_scale.py", "--smoke", "--ktap",
                           "--out", "build/scale-smoke.json"], "scale.log", "scale.",
     "tools/bench_scale.py"),
]

# The checks that boot no QEMU: make test runs them beside the boots (one
# at a time), where a host core is often idle, and the rest after them.
HOST_ONLY = {"host tests", "model", "dtb fuzz", "boards", "params", "layers",
             "layers self-test", "lean", "docs", "figures", "tfa"}
# The checks that boot QEMU on files of their own: they take a job of the
# boots' pool, as a boot does. The GDB walkthroughs (one GDB port) and the
# NR_CPUS cost (it builds build/nr-4096, which a boot runs) stay after.
IN_POOL = {"trace", "bench smoke", "power strategies", "scale bench smoke"}


def run_command(argv, timeout):
    """Runs argv in a session of its own; its output (both streams) and exit
    status, or "timeout" once it ran past timeout and its process group
    (make and what make started) was killed."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        stop(proc, signal.SIGKILL)
        output, _ = proc.communicate()
        status = "timeout"
    except BaseException:       # Ctrl-C: nothing of it may go on running
        stop(proc, signal.SIGKILL)
        raise
    return output.decode("utf-8", "replace"), status


def run_tool_check(log_dir, name, argv, log_name, prefix, needed, timeout=HOST_TIMEOUT):
    """Runs one KTAP-printing host command of TOOL_CHECKS, its output in
    log_dir/log_name; its checks, log path and time."""
    log_path = os.path.join(log_dir, log_name)
    if not os.path.exists(needed):
        return [Check(name, False, f"{needed} not found")], log_path, 0.0
    start = time.monotonic()
    output, status = run_command(argv, timeout)
    with open(log_path, "w") as log:
        log.write(output)
    lines = [strip_timestamp(line) for line in output.splitlines()]
    checks = ktap_checks(parse_ktap(lines), prefix)
    what = " ".join(argv)
    if status != 0 and all(c.ok for c in checks):
        checks.append(Check(what, False, f"exit status {status}"))
    elif not checks:
        checks.append(Check(what, False, "no test results printed"))
    return checks, log_path, time.monotonic() - start
