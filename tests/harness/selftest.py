"""The harness's self-tests (tests/run.py --self-test): the KTAP parser on
console texts, the KTAP writer read back by the parser, and the console
driver against a stand-in for QEMU and the shell. Run them after changing
any of these."""

import os
import sys
import tempfile
import time

from harness.boot import boot_checks, forbid_checks, ktap_boot_checks, must_fail_checks
from harness.console import Script, strip_timestamp
from harness.host import run_tool_check
from harness.ktap import Check, KtapWriter, ktap_checks, parse_ktap, result_name
from harness.qemu import run_qemu
from harness.report import case_lines
from matrix import Boot, Step

# (name, console text, passed, failed): run with --self-test after changing the parser.
SELF_TESTS = [
    ("nested, skip, interleaved output", """\
[    0.010000] KTAP version 1
[    0.010000] 1..2
[    0.010000]     KTAP version 1
[    0.010000]     # Subtest: rcu
[    0.010000]     1..3
[    0.010000]     ok 1 grace_period
[    0.010000] cpu1: online
[    0.010000]     not ok 2 call_rcu
[    0.010000]     ok 3 expedited # SKIP needs 2 CPUs
[    0.010000] not ok 1 rcu
[    0.010000]     KTAP version 1
[    0.010000]     # Subtest: hotplug
[    0.010000]     1..1
[    0.010000]         KTAP version 1
[    0.010000]         # Subtest: updown
[    0.010000]         1..2
[    0.010000]         ok 1 cpu1
[    0.010000]         ok 2 cpu2
[    0.010000]     ok 1 updown
[    0.010000] ok 2 hotplug
""", 4, 1),
    ("output ends inside a suite", """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: mm
    1..3
    ok 1 a
""", 1, 4),     # mm.#2, mm.#3, mm (no result line), top-level #2
    ("suite not ok although its cases pass", """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mm
    1..1
    ok 1 a
not ok 1 mm
""", 1, 1),
    ("more results than planned", "KTAP version 1\n1..1\nok 1 a\nok 2 b\n", 2, 1),
    ("several documents, no timestamps (host tests)", """\
make: Entering directory 'tests/host'
KTAP version 1
1..2
ok 1 fdt_cpus
not ok 2 fdt_psci
KTAP version 1
1..1
ok 1 bitmap
""", 2, 1),
    ("no KTAP at all", "Kernel panic - not syncing\n", 0, 0),
]


# A stand-in for QEMU and the shell, to test the Script machinery: the mux's
# Ctrl-A escape (Ctrl-A Ctrl-A is one Ctrl-A; anything else after Ctrl-A
# ends it badly), echo of printable bytes up to 20 per line, a count of the
# others, `echo WORDS` and `poweroff` (exit 0).
FAKE_CONSOLE = r"""
import os, sys
def out(text):
    os.write(1, text.encode("latin-1"))
out("[    0.000001] fake console\r\nfake> ")
line, control, escape = "", [], False
while True:
    byte = os.read(0, 1)
    if not byte:
        sys.exit(3)
    c = byte[0]
    if escape:
        escape = False
        if c != 1:
            out("\r\nQEMU: Ctrl-A %02x reached the mux\r\n" % c)
            sys.exit(4)
    elif c == 1:
        escape = True
        continue
    if c in (10, 13):
        out("\r\n")
        if control:
            out("[    0.000002] ignored %d control bytes: %s\r\n"
                % (len(control), " ".join("%02x" % b for b in control)))
        if len(line) > 20:
            out("[    0.000003] line too long\r\n")
        elif line == "poweroff":
            sys.exit(0)
        elif line.startswith("echo "):
            out("[    0.000004] %s\r\n" % line[5:])
        line, control = "", []
        out("fake> ")
    elif 0x20 <= c < 0x7f:
        if len(line) < 20:
            out(chr(c))
        line += chr(c)
    else:
        control.append(c)
"""

# (name, steps, passed, failed) for a boot that runs FAKE_CONSOLE. Besides the
# steps' checks, each counts `end: poweroff`, `no KTAP output` and the two
# forbidden sanitizer reports (SANITIZER_FORBID).
SCRIPT_SELF_TESTS = [
    ("script: dialogue, Ctrl-A, a line past the echo", (
        Step("fake> ", "echo hello world\r", expect=(r"^hello world$",)),
        Step("fake> ", b"\x01\x02echo x\r",
             expect=(r"^ignored 2 control bytes: 01 02$", r"^x$")),
        Step("fake> ", "echo " + "y" * 40 + "\r", expect=(r"^line too long$",)),
        Step("fake> ", "poweroff\r")), 12, 0),
    ("script: a step that never matches stops the run", (
        Step("fake> ", "echo hi\r", expect=(r"^hi$",)),
        Step("never printed", "echo no\r", timeout=1),
        Step("fake> ", "poweroff\r")), 5, 2),     # step 2 and the end fail
]


# The writer read back by the parser: (name, results as (name, ok, detail),
# ok None for a skip, passed, failed). A failure's detail must not read as a
# directive, nor a `#` in a name cut it short.
WRITER_SELF_TESTS = [
    ("writer: details, skips, diagnostics", (
        ("rpi4.cpus", True, "4"), ("rpi4.psci", False, "conduit hvc, want smc"),
        ("rpi4.uart", None, "no console"), ("rpi4.memory", True, "")), 3, 1),
    ("writer: a detail that looks like a directive", (
        ("boot", False, "SKIP: not really"), ("mem", True, "todo list: empty")), 1, 1),
    ("writer: a # in a name", (("card #1 partition", False, "none"),), 0, 1),
]

# A process that outlives the harness's timeout, and a child of its own
# that holds the output open: both must go, within a few seconds.
HANGS = ("import subprocess, sys, time\n"
         "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
         "print('child', child.pid, flush=True)\n"
         "time.sleep(60)\n")


def gone(lines):
    """True when the child that HANGS printed is no longer running."""
    pid = next((int(l.split()[1]) for l in lines if l.startswith("child ")), None)
    for _ in range(20):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except (OSError, TypeError):
            return pid is not None
        time.sleep(0.1)
    return False


def writer_checks(results):
    ktap = KtapWriter()
    for name, ok, detail in results:
        if ok is None:
            ktap.skip(name, detail)
        else:
            ktap.result(name, ok, detail)
    checks = ktap_checks(parse_ktap(ktap.text().splitlines()))
    names = [result_name(name) for name, _, _ in results]
    if [c.name for c in checks] != names:
        checks.append(Check("names read back", False, f"{[c.name for c in checks]}"))
    return checks


def timeout_checks():
    with open(os.devnull, "w") as log:
        run = run_qemu([sys.executable, "-c", HANGS], 1, log, backstop=0)
    return [Check("timed out", run.timed_out),
            Check("ended within 5 s", run.seconds < 5, f"{run.seconds:.1f} s"),
            Check("its child killed", gone(run.stdout))]


def host_timeout_checks():
    """A host check past its timeout: killed with what it started, and one
    failed Check that says so."""
    argv = [sys.executable, "-c", HANGS]
    with tempfile.TemporaryDirectory() as log_dir:
        checks, log_path, seconds = run_tool_check(log_dir, "hangs", argv, "hangs.log", "",
                                                   sys.executable, timeout=1)
        with open(log_path) as log:
            lines = log.read().splitlines()
    return [Check("one failed Check", [c.ok for c in checks] == [False],
                  "; ".join(map(str, checks))),
            Check("ended within 5 s", seconds < 5, f"{seconds:.1f} s"),
            Check("its child killed", gone(lines))]


def case_lines_checks():
    """A failed case's excerpt holds the kernel's lines printed during
    it (not only its `# case:` lines), and nothing of the case before."""
    log = ("    # before: not mine\n    ok 1 before\n"
           "sched: CPU3: threads did not leave within 2000 ms\n"
           "    # late: expected err == 0\n    not ok 2 late\n    ok 3 after\n")
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(log)
    try:
        text = case_lines(f.name, [Check("hotplug.late", False)])
    finally:
        os.unlink(f.name)
    return [Check("the kernel's line is shown", "did not leave" in text, text),
            Check("the case's lines are shown", "expected err" in text, text),
            Check("the case before is not", "not mine" not in text, text)]


MUTANT_KTAP = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: stress
    1..2
    {} 1 stress_run
    ok 2 other
{} 1 stress
"""


def must_fail_self_tests():
    """(name, checks, passed, failed): a mutant's case must report not ok."""
    boot = Boot("self-test", [], ktap_must_fail=("stress.stress_run",))
    absent = Boot("self-test", [], ktap_must_fail=("stress.nothing",))
    fails = MUTANT_KTAP.format("not ok", "not ok").splitlines()
    passes = MUTANT_KTAP.format("ok", "ok").splitlines()
    return [
        ("must fail: the mutant's case fails", must_fail_checks(boot, ktap_boot_checks(fails)),
         2, 0),
        ("must fail: the mutant's case passes", must_fail_checks(boot, ktap_boot_checks(passes)),
         1, 1),
        ("must fail: no such case", must_fail_checks(absent, ktap_boot_checks(fails)), 1, 2),
    ]


def sanitizer_forbid_checks(provoked):
    """Forbid checks of a boot whose console shows a KASAN and a UBSAN
    report, which provoked them on purpose or not."""
    lines = ["BUG: KASAN: slab-use-after-free in f+0x8/0x10",
             "UBSAN: shift-out-of-bounds in kernel/f.c:1:2"]
    boot = Boot("self-test", [], ktap=False, debug=False, sanitizer_report=provoked)
    return forbid_checks(boot, lines)


def count(name, checks, want_passed, want_failed):
    """Prints a self-test's outcome; returns 1 if it is not as wanted."""
    passed = sum(c.ok for c in checks)
    failed = len(checks) - passed
    ok = (passed, failed) == (want_passed, want_failed)
    print(f"{'ok' if ok else 'FAIL'}  {name}: {passed} passed, {failed} failed"
          + ("" if ok else f" (want {want_passed}, {want_failed})"))
    if not ok:
        print("\n".join(f"    {c}" for c in checks))
    return 0 if ok else 1


def self_test():
    bad = 0
    for name, text, want_passed, want_failed in SELF_TESTS:
        lines = [strip_timestamp(line) for line in text.splitlines()]
        bad += count(name, ktap_checks(parse_ktap(lines)), want_passed, want_failed)
    for name, steps, want_passed, want_failed in SCRIPT_SELF_TESTS:
        boot = Boot("self-test", [], ktap=False, banner=(), script=steps, debug=False)
        with open(os.devnull, "w") as log:
            script = Script(steps, log, echo_wait=0.2)
            run = run_qemu([sys.executable, "-c", FAKE_CONSOLE], 10, log, script)
        checks = boot_checks(boot, run)
        if run.seconds > 5:
            checks.append(Check("the run ends within 5 s", False, f"{run.seconds:.1f} s"))
        bad += count(name, checks, want_passed, want_failed)
    for name, checks, want_passed, want_failed in must_fail_self_tests():
        bad += count(name, checks, want_passed, want_failed)
    for name, results, want_passed, want_failed in WRITER_SELF_TESTS:
        bad += count(name, writer_checks(results), want_passed, want_failed)
    bad += count("run_qemu: a run past its timeout is killed", timeout_checks(), 3, 0)
    bad += count("report: a failed case's lines", case_lines_checks(), 3, 0)
    bad += count("forbid: a sanitizer report fails a boot", sanitizer_forbid_checks(False),
                 0, 2)
    bad += count("forbid: unless the boot provokes it", sanitizer_forbid_checks(True), 0, 0)
    bad += count("host check: a command past its timeout is killed", host_timeout_checks(),
                 3, 0)
    return 1 if bad else 0
