"""The boots that `make test` runs (read by tests/run.py).

Each Boot is one run of ./qemu.sh. Everything a boot checks counts as one
passed or failed test in the final `N passed, N failed` line:

  - every KTAP test case the kernel prints (when ktap=True);
  - the banner lines (see banner_expectations in harness/boot.py),
    checked against the qemu.sh options: entry EL, `Memory: N MiB` =
    --mem, `CPUs: N` = --smp (the CPUs the device tree lists, not those
    that came online), PSCI conduit (smc with --el2, hvc otherwise);
  - each regex of `expect` (somewhere in the output), of `expect_in_order`
    (one after the other, same line allowed) and of `forbid` (nowhere);
  - no sanitizer report (SANITIZER_FORBID), unless sanitizer_report=True;
  - how the run ends: "poweroff" (QEMU exits 0 by itself: PSCI SYSTEM_OFF)
    or "halt" (the kernel prints `System halted`; the harness stops QEMU);
  - for a boot with a `script` (the monitor shell): each Step's wait, and
    each regex of its `expect` and its `check` on the reply (see Step).

Regexes are Python `re` patterns matched against each console line after its
printk timestamp `[    0.012345] ` is removed; use (?i) for case-insensitive.
To add a boot, copy an entry. Run one alone: `tests/run.py --only NAME`.
"""

import os
import random
import re
from dataclasses import dataclass


@dataclass
class Group:
    """Several regexes that together count as one check: each must match
    some line, in any order."""
    name: str
    regexes: list


@dataclass
class Step:
    """One exchange on the console (the monitor shell): wait until the
    console output matches `wait`, then type `send`.

    `wait` is searched in the raw output (CRs removed, timestamps kept, no
    line splitting: the prompt `hpk> ` ends no line) from the end of the
    previous step's match on; if it does not show up within `timeout`
    seconds the boot fails there. `send` (str, or bytes for binary) is typed
    as is: end a command with "\r", as a terminal's Enter does. The reply
    is what the console printed from this step's match to the next step's
    (its prompt), or to the end of the output for the last step; its lines,
    timestamps removed, must match each regex of `expect` (somewhere) and
    pass `check`, a function(lines) returning a list of problems."""
    wait: str
    send: object = ""            # what to type once `wait` matched
    expect: tuple = ()           # regexes (or Groups) the reply must match
    check: object = None         # function(reply lines) -> list of problems
    timeout: int = 30            # seconds for `wait` to match


@dataclass
class Boot:
    name: str
    qemu: list                   # ./qemu.sh options (not --append/--timeout)
    append: str = ""             # kernel command line
    ktap: bool = True            # the kernel prints KTAP results
    # KTAP cases (SUITE.CASE) that must report not ok: a mutant's, broken
    # on purpose; every other case must pass.
    ktap_must_fail: tuple = ()
    expect: tuple = ()           # regexes (or Groups) that must match
    expect_in_order: tuple = ()  # regexes that must match in this order
    forbid: tuple = ()           # regexes that must not match
    banner: tuple = ("el", "memory", "cpus", "psci")   # banner lines to check
    end: str = "poweroff"        # "poweroff" or "halt"
    # Boot through tests/boot-shim.S (qemu.sh --bad-dtb) with this DTB:
    #   "valid"     QEMU's own DTB for this machine, bootargs = append
    #   "truncated" its first TRUNCATED_DTB_BYTES bytes
    #   "none"      no DTB at all (x0 = 0)
    #   "psci-0.1"  "valid" with a PSCI 0.1 /psci node (QEMU rewrites /psci
    #               for -kernel boots, so only the shim keeps it)
    #   a path      that file
    shim_dtb: str = ""
    # MPIDRs: boot with QEMU's own DTB cut down to the CPU nodes with these
    # reg values (qemu.sh --dtb), e.g. a board numbered in Aff1 like Pi 5.
    dtb_cpus: tuple = ()
    timeout: int = 0             # seconds; 0 = the harness default (150)
    # Boot a build of its own for this many possible CPUs (run.py makes
    # build/nr-N with `make B=build/nr-N NR_CPUS=N`), not build/Image.
    nr_cpus: int = 0
    script: tuple = ()           # Steps typed into the console (see Step)
    # What the host must offer (tests/harness/needs.py): "raspi4b" (QEMU >= 9),
    # "tfa-virt" (TF-A built for QEMU virt); a boot without it skips.
    needs: str = ""
    # An SD card to build (tools/mksdcard.sh BOARD, "-tfa" for its
    # --firmware tfa) with the Image and the command line in cmdline.txt,
    # booted with qemu.sh --sdcard as the Pi firmware would.
    card: str = ""
    # Add DEBUG_WORDS to the command line and fail on their reports
    # (DEBUG_FORBID); a boot that tests a report itself says False.
    debug: bool = True
    # Provokes a sanitizer's report on purpose: SANITIZER_FORBID, which
    # fails every other boot, does not apply.
    sanitizer_report: bool = False


TRUNCATED_DTB_BYTES = 200

# The hotplug KTAP suites (kernel/tests/hotplug*_test.c): up/down
# behaviour, firmware and fault-injection failures, readers of the mask.
# A boot that tests a way of reaching the firmware runs all three.
HOTPLUG = "hotplug,hotplug_fault,hotplug_readers"
# A boot whose point is the readers under many cycles (a stress, a reader
# design, the GIC's redistributor, U-Boot's entry) runs the two that
# cycle CPUs: the failure paths (hotplug_fault, ~17 s of injected
# timeouts) depend on the firmware, which the HOTPLUG boots cover.
HOTPLUG_CYCLES = "hotplug,hotplug_readers"

# Debug checks every boot runs with: this_cpu_*()/smp_processor_id() where
# the thread may move to another CPU (kernel/debug/smp_processor_id.c). A boot
# whose command line comes from a DTB file (shim_dtb a path) cannot get them.
DEBUG_WORDS = "debug_preempt"
# lockdep's and PROVE_RCU's reports (kernel/debug/lockdep.c, make
# LOCKDEP=1), each opening as Linux's does; its tables running out
# (it turns itself off) fails a boot too.
LOCKDEP_REPORTS = (r"WARNING: (possible circular locking dependency detected|"
                   r"possible recursive locking detected|inconsistent lock state|"
                   r"possible irq lock inversion dependency detected|"
                   r"HARDIRQ-safe -> HARDIRQ-unsafe lock order detected|"
                   r"bad unlock balance detected!|suspicious RCU usage|"
                   r"lock not held)$")
DEBUG_FORBID = (r"BUG: using \w+\(\) in preemptible", LOCKDEP_REPORTS,
                r"BUG: sleeping function called from invalid context",
                r"^lockdep: out of entries",
                # the data-race detector (the KCSAN build only)
                r"^BUG: KCSAN: ")
# Lockdep and PROVE_RCU are in the sanitizing build (make SANITIZE=1) with
# KASAN and UBSAN; make LOCKDEP=1 builds them alone (build/lockdep/).
LOCKDEP_IMAGE = "build/sanitize/Image"

# A report of the sanitizing build's detectors (make SANITIZE=1,
# kernel/debug/kasan.c, ubsan.c): it fails any boot, of any build, that
# does not provoke it on purpose (Boot.sanitizer_report).
SANITIZER_FORBID = (r"^BUG: KASAN: ", r"^UBSAN: ")
SANITIZE_IMAGE = "build/sanitize/Image"


def kernel_cmdline(boot):
    """The command line boot runs with: its append, plus DEBUG_WORDS."""
    if not boot.debug:
        return boot.append
    return f"{boot.append} {DEBUG_WORDS}".strip()

# The register dump of a kernel panic: x0..x29 each printed as `xN: value`
# (or `xN : value`, `xN=value`).
REGISTERS = Group("registers x0..x29",
                  [rf"\bx{n}\s*[:=]\s*(0x)?[0-9a-fA-F]+" for n in range(30)])

# ---- the monitor shell ----------------------------------------------------------

PROMPT = r"hpk> "

HELP = Group("help lists the commands",
             [rf"^\s+{c}\s" for c in ("help", "cpus", "threads", "mem", "dt", "irqs",
                                     "log", "poweroff")])

# The `cpus` table: a header line naming the columns, then one row per CPU
# (more columns may come; thread names have no spaces). With tickless idle
# a TICK column says whether the CPU's tick runs ("on") or is "stopped".
CPUS_COLUMNS = ("CPU", "MPIDR", "STATE", "THREAD", "TICKS", "IDLE")


def cpus_table(mpidrs, every_cpu_ticked=False):
    """A Step check for the reply to `cpus` on a machine whose CPU n has
    MPIDR mpidrs[n]: one row per CPU, in order, each online with its MPIDR.
    every_cpu_ticked: each CPU has TICKS > 0 (after work ran on all).
    Ticks: with a periodic tick (no TICK column) every CPU has TICKS > 0;
    with tickless idle an idle CPU may have none (raspi3b: CPU3 stays idle
    from its bring-up to the first `cpus`, its tick stopped, 0 ticks), but
    the CPU that runs the shell (printing the table) must have its tick
    on, and the CPUs together must have taken ticks (the boot CPU's, at
    least: it ran the boot with its tick on)."""
    def check(lines):
        """table: every CPU online with its MPIDR, ticks taken"""
        header = next((line.split() for line in lines if line.split()[:2] == ["CPU", "MPIDR"]),
                      None)
        if header is None or not set(CPUS_COLUMNS) <= set(header):
            return [f"no header line with {' '.join(CPUS_COLUMNS)}"]
        rows = [dict(zip(header, words)) for words in map(str.split, lines)
                if len(words) == len(header) and words[0].isdigit()]
        problems = [] if len(rows) == len(mpidrs) else \
            [f"{len(rows)} rows for {len(mpidrs)} CPUs"]
        for want, row in enumerate(rows):
            cpu = row["CPU"]
            if int(cpu) != want:
                problems.append(f"row {want} is CPU{cpu}")
            if want < len(mpidrs) and int(row["MPIDR"], 16) != mpidrs[want]:
                problems.append(f"CPU{cpu} MPIDR {row['MPIDR']}, want {mpidrs[want]:#x}")
            if row["STATE"] != "online":
                problems.append(f"CPU{cpu} {row['STATE']}")
            if not row["TICKS"].isdigit():
                problems.append(f"CPU{cpu} TICKS {row['TICKS']}")
            elif ("TICK" not in row or every_cpu_ticked) and int(row["TICKS"]) <= 0:
                problems.append(f"CPU{cpu} TICKS {row['TICKS']}")
            elif row.get("TICK", "on") not in ("on", "stopped"):
                problems.append(f"CPU{cpu} TICK {row['TICK']}")
            elif row["THREAD"] == "shell" and row.get("TICK", "on") != "on":
                problems.append(f"CPU{cpu} runs the shell with its tick {row['TICK']}")
        if rows and sum(int(row["TICKS"]) for row in rows if row["TICKS"].isdigit()) <= 0:
            problems.append("no CPU has taken a tick (TICKS all 0)")
        return problems
    return check


# A line of the `threads` table (PID CPU ST SWITCHES RUN(ms) NAME) for a thread.
def thread_row(name):
    return rf"^\s*\d+\s+-?\d+\s+\S+\s+\d+\s+\d+ {re.escape(name)}\b"


LONG_LINE = "0123456789" * 20      # 200 characters: the shell takes 127

# Every command on a 4-CPU virt, bad input, then the shell still works.
SHELL_SMP4 = (
    Step(PROMPT, "help\r", expect=(HELP,)),
    # Line editing: DEL (what a terminal's Backspace key sends) rubs out
    # the x, so "help" runs.
    Step(PROMPT, "helpx\x7f\r", expect=(HELP,)),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    # (\b, not ^: a line may start with its subsystem's prefix, `board: `)
    Step(PROMPT, "mem\r", expect=(r"\bpages: \d+ total, \d+ free, \d+ used",
                                 r"\bkmalloc: \d+ objects, \d+ bytes",
                                 r"\bkmalloc: CPU3\s+(\s+\d+){8} \(\d+ bytes\)$",
                                 r"\bstacks: \d+ of \d+ guarded slots in use")),
    Step(PROMPT, "dt\r", expect=(
        r"\bmodel: ",
        r"\bmemory: 0x40000000-0x4fffffff$",
        Group("dt lists cpu0..cpu3 with their MPIDRs",
              [rf"\bcpu{n}: mpidr (0x)?{n:x} enable-method psci$" for n in range(4)]),
        r"\bpsci: arm,psci\S*, method hvc$",
        r"\binterrupt controller: arm,cortex-a15-gic\b",
        r"\buart: arm,pl011 at 0x9000000\b")),
    Step(PROMPT, "threads\r", expect=(
        Group("threads lists the shell and swapper/0..3",
              [thread_row(f"swapper/{n}") for n in range(4)] + [thread_row("shell")]),)),
    Step(PROMPT, "frobnicate\r",
         expect=(r"^error: unknown command 'frobnicate' \(try 'help'\)$",)),
    Step(PROMPT, LONG_LINE + "\r",
         expect=(r"^error: line too long \(at most 127 characters\)$",)),
    # Binary bytes (Ctrl-A included: the harness gets it past QEMU's mux)
    # are counted and dropped; the printable rest of the line runs.
    Step(PROMPT, b"\x01\x02\x1b\xffhelp\r",
         expect=(r"^error: ignored 4 non-printable byte\(s\)$", HELP)),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    # Hotplug from the shell: off, shown off, refused twice, back on.
    Step(PROMPT, "off 2\r", expect=(r"\bCPU2 is down$",)),
    Step(PROMPT, "cpus\r", expect=(r"^\s*2\s+0x2\s+off\s+-\s",
                                   r"^\s*3\s+0x3\s+online\s")),
    Step(PROMPT, "off 2\r",
         expect=(r"\bCPU2: cannot take it down: it is not online$",)),
    Step(PROMPT, "off 9\r", expect=(r"^error: '9' is not a CPU \(0-3\)$",)),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: online, MPIDR 0x2$", r"^CPU2 is up$")),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: already online$",)),
    # With the firmware's share of the down and ups (QEMU's PSCI) and the
    # kernel's.
    Step(PROMPT, "hotplug\r", expect=(r"^downs 1 \(failed 0\), ups \d+ \(failed 0\)$",
                                      r"^down\s+latency min \d+ us",
                                      r"^firmware share: up median \d+ us, down median "
                                      r"\d+ us \(of \d+ ups, 1 downs\)$",
                                      r"^kernel share: up median \d+ us, down median \d+ us$")),
    # The log ring replays the lines the commands above printed.
    Step(PROMPT, "log\r", expect=(r"\bCPU2: online, MPIDR 0x2$", r"^CPU2 is up$",
                                  r"\bCPU2: already online$",
                                  r"^downs 1 \(failed 0\), ups \d+ \(failed 0\)$")),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    # The scheduler's mode by default (kernel/sched/pack.c).
    Step(PROMPT, "sched mode\r", expect=(r"^sched: mode spread$",)),
    Step(PROMPT, "poweroff\r"),
)


# Two stragglers (fail.cpu_late on CPUs 2 and 3, both given up on): each
# must report its late arrival by itself, with no command typed, and then,
# the fault disarmed, come back online with `on`.
STRAGGLER = r"\bCPU{0} \(MPIDR 0x{0}\): arrived [^\n]*: parked\n"
TWO_STRAGGLERS = (
    Step(STRAGGLER.format(2), ""),
    Step(STRAGGLER.format(3), "fail cpu_late off\r"),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: online, MPIDR 0x2$",)),
    Step(PROMPT, "on 3\r", expect=(r"\bCPU3: online, MPIDR 0x3$",)),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    Step(PROMPT, "poweroff\r"),
)


# raspi3b: CPUs 0-2 to the pen and back, the UART interrupt (GPU 57, our
# IRQ 89) following them.
RASPI3B_SHELL = (
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    Step(PROMPT, "irqs\r", expect=(r"^\s*89:.* uart-pl011 \(CPU[0-3]\)$",)),
    Step(PROMPT, "off 0\r", expect=(r"\bCPU0 is down$",)),
    Step(PROMPT, "off 1\r", expect=(r"\bCPU1 is down$",)),
    Step(PROMPT, "off 2\r", expect=(r"\bCPU2 is down$",)),
    Step(PROMPT, "irqs\r", expect=(r"^\s*89:.* uart-pl011 \(CPU3\)$",)),
    Step(PROMPT, "cpus\r", expect=(r"^\s*0\s+0x0\s+off\s", r"^\s*3\s+0x3\s+online\s")),
    Step(PROMPT, "on 0\r", expect=(r"\bCPU0: online, MPIDR 0x0$",)),
    Step(PROMPT, "on 1\r", expect=(r"\bCPU1: online, MPIDR 0x1$",)),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: online, MPIDR 0x2$",)),
    # Spin table up, the kernel's pen down: no firmware call to time.
    Step(PROMPT, "hotplug\r", expect=(r"^downs 3 \(failed 0\), ups \d+ \(failed 0\)$",
                                      r"^firmware share: not timed \(no firmware call: "
                                      r"spin table or the pen\)$")),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    Step(PROMPT, "poweroff\r"),
)


# raspi3b with Debian's tree as shipped: the console is the mini UART, its
# input by the aux interrupt (GPU 29, our IRQ 61). Output and input both
# work, a line longer than its 8-byte receive FIFO arrives whole, and the
# interrupt follows the armctrl's one route when the CPU it names goes down.
RASPI3B_MINIUART_SHELL = (
    Step(PROMPT, "dt\r", expect=(
        r"\buart: brcm,bcm2835-aux-uart at 0x3f215040 \(/soc/serial@7e215040\)$",)),
    Step(PROMPT, "irqs\r", expect=(r"^\s*61:.* uart-miniuart \(CPU[0-3]\)$",)),
    # Echoed whole and in order: no character lost or doubled on the way.
    Step(PROMPT, LONG_LINE + "\r",
         expect=(r"^(0123456789){12}0123456$",
                 r"^error: line too long \(at most 127 characters\)$")),
    Step(PROMPT, "off 0\r", expect=(r"\bCPU0 is down$",)),
    Step(PROMPT, "off 1\r", expect=(r"\bCPU1 is down$",)),
    Step(PROMPT, "off 2\r", expect=(r"\bCPU2 is down$",)),
    Step(PROMPT, "irqs\r", expect=(r"^\s*61:.* uart-miniuart \(CPU3\)$",)),
    Step(PROMPT, "on 0\r", expect=(r"\bCPU0: online, MPIDR 0x0$",)),
    Step(PROMPT, "on 1\r", expect=(r"\bCPU1: online, MPIDR 0x1$",)),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: online, MPIDR 0x2$",)),
    Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
    Step(PROMPT, "poweroff\r"),
)


def shell_fuzz_script(seed=2013, chunks=24, size=160):
    """Random bytes typed at the shell (a fixed seed, so a failure can be
    replayed; SHELL_FUZZ_SEED=N picks another), Enter after each chunk;
    then the shell must still answer. A chunk is one line (too long, or
    an unknown command, with its non-printable bytes counted)."""
    rng = random.Random(int(os.environ.get("SHELL_FUZZ_SEED", seed)))
    # Nothing inside a chunk that ends a line and prompts again (CR, LF,
    # ^C, ^U): one Enter, one prompt, so the steps stay in step.
    alphabet = [b for b in range(256) if b not in (0x0a, 0x0d, 0x03, 0x15)]
    steps = [Step(PROMPT, bytes(rng.choice(alphabet) for _ in range(size)) + b"\r")
             for _ in range(chunks)]
    return tuple(steps) + (
        Step(PROMPT, "help\r", expect=(HELP,)),
        Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1])),
        Step(PROMPT, "poweroff\r"),
    )


def sanitizer_boot(what, kind, *expect_in_order):
    """lkdtm=WHAT on the sanitizing build, 2 CPUs: its detector reports
    it (KIND: the report's first line) and the boot goes on."""
    return Boot(f"sanitize-lkdtm-{what}", ["--image", SANITIZE_IMAGE, "--smp", "2"],
                append=f"lkdtm={what} poweroff", ktap=False, sanitizer_report=True,
                expect=(rf"^lkdtm: '{what}': 1 (KASAN|UBSAN) report\(s\)$",),
                expect_in_order=(kind, *expect_in_order),
                forbid=(r"did not fault", r"Kernel panic", r"is not built"))


def fault_boot(what, *expect, expect_in_order=()):
    """lkdtm=WHAT on 2 CPUs: it must fault, with a panic report matching
    expect, then power off; never "did not fault"."""
    return Boot(f"fault-{what}", ["--smp", "2"], append=f"lkdtm={what} poweroff",
                ktap=False, expect=(r"Kernel panic", *expect),
                expect_in_order=expect_in_order, forbid=(r"did not fault",))


# A kernel WARNING; not TF-A's own log (raspi3b --firmware tfa), whose
# Debian build warns at every boot that it lacks an erratum workaround.
KERNEL_WARNING = r"^(?!WARNING: +BL31: ).*\bWARNING\b"


# The psci suite's answers where two firmwares differ (kernel/tests/
# psci_test.c; the table in docs/boards.md). QEMU's built-in PSCI, over HVC
# or SMC, refuses a misaligned entry point before it looks at the CPU (so
# an OFF CPU is offered one too) but not one past RAM, answers for every
# affinity level, reports no Trusted OS (2) and does not offer
# SMCCC_VERSION. TF-A 2.8's rpi3 port checks no entry point (its platform
# registers no validate_ns_entrypoint), rejects levels above 0, has no
# MIGRATE_INFO_TYPE (no Trusted OS dispatcher) and speaks SMCCC 1.2.
PSCI_QEMU = Group("psci: QEMU's own PSCI answers", [
    r"# psci_cpu_on_entry_misaligned: CPU\d+ \(off\), entry 0x[0-9a-f]+ "
    r"\(misaligned\) -> INVALID_PARAMS \(-2\)$",
    r"^ +ok \d+ psci_cpu_on_entry_outside_memory # SKIP entry not checked "
    r"\(ALREADY_ON for a CPU on\)",
    r"^ +ok \d+ psci_cpu_on_entry_below_memory # SKIP entry not checked "
    r"\(ALREADY_ON for a CPU on\)",
    r"# psci_affinity_info_above_level_0: MPIDR 0x[0-9a-f]+ level 1 -> ON \(0\)$",
    r"# psci_migrate_info_type: MIGRATE_INFO_TYPE -> no Trusted OS needs a "
    r"CPU \(2\)$",
    r"# psci_features_of_kernel_calls: SMCCC_VERSION \(0x80000000\) -> "
    r"NOT_SUPPORTED \(-1\)$",
    r"^ok \d+ psci$",
])
PSCI_TFA = Group("psci: TF-A 2.8 (rpi3, rpi4) answers", [
    r"# psci_cpu_on_entry_outside_memory: CPU\d \(on\), entry 0x3c000000 "
    r"\(past RAM\) -> ALREADY_ON \(-4\)$",
    r"# psci_cpu_on_entry_misaligned: CPU\d \(on\), entry 0x[0-9a-f]+ "
    r"\(misaligned\) -> ALREADY_ON \(-4\)$",
    r"^ +ok \d+ psci_cpu_on_entry_misaligned # SKIP entry not checked",
    r"# psci_affinity_info_above_level_0: MPIDR 0x[0-9a-f]+ level 1 -> "
    r"INVALID_PARAMS \(-2\)$",
    r"# psci_migrate_info_type: MIGRATE_INFO_TYPE -> NOT_SUPPORTED \(-1\)$",
    r"# psci_features_of_kernel_calls: SMCCC_VERSION -> 1\.2 \(0x10002\)$",
    r"^ok \d+ psci$",
])
# TF-A 2.8's qemu port: the rpi ports' answers, and an entry point
# outside its non-secure DRAM window refused before the CPU's state.
PSCI_TFA_QEMU = Group("psci: TF-A 2.8 (qemu) answers", [
    r"# psci_cpu_on_entry_below_memory: CPU\d+ \(off\), entry 0x3ffff000 "
    r"\(below RAM\) -> INVALID_ADDRESS \(-9\)$",
    r"# psci_cpu_on_entry_outside_memory: CPU\d \(on\), entry 0x[0-9a-f]+ "
    r"\(past RAM\) -> ALREADY_ON \(-4\)$",
    r"^ +ok \d+ psci_cpu_on_entry_misaligned # SKIP entry not checked",
    r"# psci_affinity_info_above_level_0: MPIDR 0x[0-9a-f]+ level 1 -> "
    r"INVALID_PARAMS \(-2\)$",
    r"# psci_migrate_info_type: MIGRATE_INFO_TYPE -> NOT_SUPPORTED \(-1\)$",
    r"# psci_features_of_kernel_calls: SMCCC_VERSION -> 1\.2 \(0x10002\)$",
    r"^ok \d+ psci$",
])
# The Pi 4's mini UART (Debian's tree as shipped): the console for the
# log, the shell's input and output, and through a hotplug round.
RASPI4B_MINIUART_SHELL = (
    Step(PROMPT, "dt\r", expect=(
        r"\buart: brcm,bcm2835-aux-uart at 0xfe215040 \(/soc/serial@7e215040\)$",)),
    Step(PROMPT, LONG_LINE + "\r",
         expect=(r"^(0123456789){12}0123456$",
                 r"^error: line too long \(at most 127 characters\)$")),
    Step(PROMPT, "off 0\r", expect=(r"\bCPU0 is down$",)),
    Step(PROMPT, "off 2\r", expect=(r"\bCPU2 is down$",)),
    Step(PROMPT, "on 0\r", expect=(r"\bCPU0: online, MPIDR 0x0$",)),
    Step(PROMPT, "on 2\r", expect=(r"\bCPU2: online, MPIDR 0x2$",)),
    Step(PROMPT, "poweroff\r"),
)
# A card's kernel speaks on the UART at its pins (GPIO 14/15): the mini
# UART, with or without TF-A (whose rpi4 port points stdout-path at serial0).
CARD_CONSOLE = r"^Console: /soc/serial@7e215040 \(brcm,bcm2835-aux-uart\)$"
CARD_TFA = (r"^PSCI: version 1\.1, conduit smc, SMCCC 1\.2, firmware "
            r"Trusted Firmware-A ")
# A board without PSCI (spin table): every psci case skips, saying so.
PSCI_ABSENT = r"^ +ok \d+ psci_\w+ # SKIP no PSCI: the CPUs start by spin-table$"
PSCI_CASE_RAN = r"^ +ok \d+ psci_\w+$"


def torture_boot(name, qemu, append, expect=()):
    """An RCU + hotplug torture that must end in SUCCESS, with a clean Reader
    Pipe (nothing past index 1) and CPUs really going down and up."""
    return Boot(name, qemu, append=append + " poweroff", ktap=False, timeout=120,
                expect=expect + (r"rcu-torture: --- End of test: SUCCESS$",
                        r"rcu-torture: Reader Pipe: \d+ \d+ 0 0 0 0 0 0 0 0 0$",
                        r"rcu-torture: onoff: onOK/onTry [1-9]\d*/\d+ "
                        r"offOK/offTry [1-9]\d*/"),
                forbid=(r"Kernel panic", KERNEL_WARNING, r"FAILURE"))


def lockdep_boot(what, *expect_in_order, expect=()):
    """lkdtm=WHAT on the lockdep build (2 CPUs): lockdep must print its
    report, with the stacks and the held locks, and the boot go on."""
    return Boot(f"lockdep-{what}", ["--image", LOCKDEP_IMAGE, "--smp", "2"],
                append=f"lkdtm={what} poweroff", ktap=False, debug=False,
                expect=expect,
                expect_in_order=(rf"^lkdtm: injecting '{what}'$",
                                 r"^={20,}$", *expect_in_order,
                                 r"^stack backtrace:$",
                                 r"^CPU: \d+ PID: \d+ Comm: init$",
                                 rf"^lkdtm: '{what}' done$"),
                forbid=(r"Kernel panic", r"^lockdep: out of entries"))


# The suites whose outcome depends on how many CPUs there are and how the
# GIC numbers and routes them: what a boot with more CPUs than the usual
# four is for (the others run in the test=all boots of 4 CPUs).
SMP_SUITES = f"boot,smp,sched,rcu,irq,timer,{HOTPLUG_CYCLES}"

# The suites that reach the firmware or depend on how the kernel was
# entered (exception level, conduit, who set up the GIC): what a boot
# through other firmware, or at EL2, runs; the test=all boots of each
# machine run the rest (the scheduler's, RCU's, the governor's).
FIRMWARE_SUITES = f"boot,mmu,smp,psci,irq,timer,cpuidle,suspend,fault,{HOTPLUG}"


def smp_boot(name, qemu, expect=(), timeout=0, tests="all", words=""):
    """test=TESTS on an SMP virt machine: every CPU the DTB lists comes up."""
    cpus = int(qemu[qemu.index("--smp") + 1])
    return Boot(name, qemu, append=f"test={tests} {words}poweroff", timeout=timeout,
                expect=(rf"\bBrought up {cpus} of {cpus} CPUs$", *expect))


BOOTS = [
    # -- the in-kernel tests (KTAP) in several machine configurations --------
    Boot("virt-smp1-128M",
         ["--smp", "1", "--mem", "128M", "--cpu", "cortex-a53"],
         append="test=all poweroff"),
    # QEMU's -kernel puts the Image at 0x40200000 (U-Boot elsewhere, below).
    Boot("virt-smp4-2G",
         ["--smp", "4", "--mem", "2G", "--cpu", "cortex-a53"],
         append="test=all poweroff",
         expect=(r"^Kernel: physical 0x40200000, ", PSCI_QEMU,
                 # hotplug_drain_timeout_rolls_back's injected drain: the
                 # report, its interrupt sample, the rolled-back step.
                 r"^sched: CPU3: threads did not leave within 2000 ms "
                 r"\(running swapper/3, .* and [1-9]\d* resched IPIs there "
                 r"meanwhile; the drain's longest msleep\(1\) \d+ us; "
                 r"injected\)$",
                 r"^CPU3 took in the next 10 ms: .*in all; \d+ unhandled",
                 r"^hotplug: CPU3: step sched:drain failed going down: -110$")),
    # A build for 4096 possible CPUs on a machine with 4: the state sized by
    # CPUs is allocated for the 4 the tree describes (docs/scale.md); every
    # suite must pass on it as on the default build.
    Boot("virt-smp4-nr4096",
         ["--smp", "4"],
         append="test=all poweroff",
         nr_cpus=4096,
         expect=(r"\bBrought up 4 of 4 CPUs$",
                 r"^Memory: \d+ KiB free after boot, .*\(4 CPUs, NR_CPUS 4096\)$")),
    # The sanitizing build (make SANITIZE=1: KASAN, UBSAN, lockdep) over every suite
    # with a bounded stress on GICv2, GICv3 and raspi3b, the torture and a
    # sweep sample on GICv2: no report (SANITIZER_FORBID fails any).
    Boot("sanitize-virt-gicv2-smp4",
         ["--image", SANITIZE_IMAGE, "--smp", "4"],
         append="test=all stress=8 sweep=4 sweep.design=rcu torture=10 poweroff",
         timeout=600,
         expect=(r"^KASAN: shadow for 2 range\(s\), quarantine \d+ KiB$",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"rcu-torture: --- End of test: SUCCESS")),
    Boot("sanitize-virt-gicv3-smp4",
         ["--image", SANITIZE_IMAGE, "--gic", "3", "--smp", "4"],
         append="test=all stress=8 poweroff", timeout=600,
         expect=(r"\bBrought up 4 of 4 CPUs$",)),
    # raspi3b runs every suite but sched_pack: lockdep's and KASAN's cost
    # per lock and access makes its light threads too heavy to pack on 2
    # CPUs there; virt runs it.
    Boot("sanitize-raspi3b",
         ["--image", SANITIZE_IMAGE, "--machine", "raspi3b"],
         append="test=boot,mm,mmu,smp,sched,rcu,hotplug,hotplug_fault,"
                "hotplug_readers,hotplug_sweep,stress,irq,timer,governor,psci,"
                "trace,cpuidle,fault,suspend stress=6 poweroff", timeout=720,
         expect=(r"\bBrought up 4 of 4 CPUs$",)),
    # Each detector's lkdtm trigger: the report as Linux prints it, with
    # the stacks of the access, the allocation and the free.
    sanitizer_boot("ubsan_shift",
                   r"^UBSAN: shift-out-of-bounds in kernel/tests/lkdtm\.c:\d+:\d+$",
                   r"^shift exponent 40 is too large for 32-bit type 'int'$",
                   r"^Call trace:$", r"^\s+ubsan_shift\+0x", r"^\s+lkdtm_run\+0x"),
    sanitizer_boot("kasan_uaf",
                   r"^BUG: KASAN: slab-use-after-free in kasan_uaf\+0x[0-9a-f]+/0x[0-9a-f]+$",
                   r"^Read of size 4 at addr ffffff80[0-9a-f]{8} by task init/1$",
                   r"^Call trace:$", r"^\s+kasan_uaf\+0x",
                   r"^Allocated by task 1:$", r"^\s+kasan_uaf\+0x",
                   r"^Freed by task 1:$", r"^\s+kfree\+0x", r"^\s+kasan_uaf\+0x",
                   r"^The buggy address is located 12 bytes inside of$",
                   r"^ freed \d+-byte region \[",
                   r"^Memory state around the buggy address:$", r"^>ffffff80"),
    sanitizer_boot("kasan_oob",
                   r"^BUG: KASAN: slab-out-of-bounds in kasan_oob\+0x[0-9a-f]+/0x[0-9a-f]+$",
                   r"^Write of size 4 at addr ffffff80[0-9a-f]{8} by task init/1$",
                   r"^Allocated by task 1:$",
                   r"^The buggy address is located 0 bytes to the right of$",
                   r"^ allocated 20-byte region \["),
    # A per-CPU pointer kept past its CPU's down reads the freed area; the
    # report names where the area was allocated (the CPU's up) and freed
    # (its down).
    sanitizer_boot("kasan_percpu_uaf",
                   r"^BUG: KASAN: slab-use-after-free in kasan_percpu_uaf\+0x",
                   r"^Read of size 4 at addr ffffff80[0-9a-f]{8} by task init/1$",
                   r"^Allocated by task \d+:$", r"^\s+percpu_area_alloc\+0x",
                   r"^\s+cpu_up\+0x",
                   r"^Freed by task 1:$", r"^\s+kfree\+0x", r"^\s+percpu_down\+0x",
                   r"^\s+cpu_down\+0x", r"^\s+kasan_percpu_uaf\+0x"),
    # A pointer into the stack of a thread that exited: KASAN's stack
    # quarantine keeps the stack mapped, poisoned, with its two stacks.
    sanitizer_boot("kasan_stack_uaf",
                   r"^BUG: KASAN: use-after-free in kasan_stack_uaf\+0x",
                   r"^Read of size 4 at addr ffffffe0[0-9a-f]{8} by task init/1$",
                   r"^Allocated by task 1:$", r"^\s+kthread_create\+0x",
                   r"^Freed by task \d+:$", r"^\s+thread_stack_free\+0x",
                   r"^\s+release_task\+0x",
                   r"^The buggy address belongs to the thread stack "
                   r"\[ffffffe0[0-9a-f]{8}, ffffffe0[0-9a-f]{8}\), freed$"),
    # The normal build has no detectors: a trigger says so, never passes.
    Boot("sanitize-not-built",
         ["--smp", "2"],
         append="lkdtm=kasan_uaf poweroff",
         ktap=False,
         expect=(r"^lkdtm: 'kasan_uaf': KASAN is not built: make SANITIZE=1 builds it$",),
         forbid=(r"injecting", r"Kernel panic")),
    # The scheduler's pack mode (kernel/sched/pack.c): its own suite, and
    # the scheduler's and hotplug's suites, which must pass in either mode.
    Boot("virt-smp4-pack",
         ["--smp", "4"],
         append="sched.mode=pack test=sched,sched_pack,hotplug poweroff",
         expect=(r"^sched: mode pack$",)),
    Boot("virt-el2-smp4",
         ["--el2", "--smp", "4"],
         append=f"test={FIRMWARE_SUITES} poweroff",
         expect=(PSCI_QEMU,)),
    # CPU_SUSPEND (idle states): QEMU's WFI answer to a power-down
    # request, and a real power-down emulated by fail.cpu_suspend (the
    # suspend suite sets it): the CPU resumes at cpu_resume with its EL1
    # context lost, on each CPU, 1000 times each, on GICv2 and GICv3, with
    # HVC at EL1 and SMC from EL2.
    Boot("virt-smp4-suspend",
         ["--smp", "4"],
         append="test=suspend poweroff",
         expect=(r"# suspend_lose_context_cycles: 4000 power-down cycles on 4 CPUs$",)),
    Boot("virt-gic3-smp4-suspend",
         ["--smp", "4", "--gic", "3"],
         append="test=suspend poweroff",
         expect=(r"# suspend_lose_context_cycles: 4000 power-down cycles on 4 CPUs$",)),
    Boot("virt-el2-gic3-smp4-suspend",
         ["--el2", "--gic", "3", "--smp", "4"],
         append="test=suspend poweroff",
         expect=(r"# suspend_lose_context_cycles: 4000 power-down cycles on 4 CPUs$",)),
    # GICv3 as a board with secure firmware shows it to the kernel
    # (GICD_CTLR.DS=0): GICR_WAKER reads 0 and ignores writes
    # (fail.gic_waker=ro; QEMU lets it be written regardless). No down
    # may wait for a redistributor to sleep; interrupts work after each up.
    Boot("virt-gic3-waker-ro",
         ["--smp", "4", "--gic", "3"],
         append=f"fail.gic_waker=ro test=irq,{HOTPLUG_CYCLES} poweroff",
         forbid=(r"timeout waiting for redistributor",)),
    # A tick rate other than the default 100: the timer suite measures
    # against the HZ the command line set.
    Boot("virt-smp4-hz250",
         ["--smp", "4"],
         append="test=timer,smp,sched hz=250 poweroff",
         expect=(r"^Timer: \d+ Hz, HZ=250, ",
                 r"# tick_advances_at_hz: CPU\d+, HZ=250: \d+ ticks")),
    # Through U-Boot: booti loads the Image at ${kernel_addr_r}, 0x40400000
    # (tools/mkdisk.sh), not where -kernel does: it runs wherever it is put.
    # Where the Image runs and how PSCI is reached are what U-Boot changes:
    # the suites that bring CPUs up and down through it.
    Boot("virt-uboot-smp4",
         ["--uboot", "--smp", "4", "--mem", "256M"],
         append=f"test=boot,mmu,smp,psci,timer,irq,{HOTPLUG_CYCLES} poweroff",
         expect=(r"^Kernel: physical 0x40400000, ",)),
    # U-Boot and the kernel both at EL2 (virtualization=on): PSCI over SMC.
    Boot("virt-uboot-el2-smp4",
         ["--uboot", "--el2", "--smp", "4", "--mem", "256M"],
         append=f"test=boot,mmu,smp,psci,timer,irq,{HOTPLUG_CYCLES} poweroff",
         expect=(r"^Kernel: physical 0x40400000, ",)),

    # -- Raspberry Pi 3 B under QEMU (raspi3b): Debian's DTB, entry at EL2, --
    # -- spin table, BCM2836 local + armctrl interrupts, no PSCI; console: ---
    # -- the PL011 (stdout-path changed) or the mini UART (tree as shipped) --
    Boot("raspi3b-test-all",
         ["--machine", "raspi3b"],
         append="test=all poweroff",
         timeout=240,
         expect=(r"^Interrupts: BCM2836 local 0x40000000 .*armctrl 0x3f00b200",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"^bcm2835-wdt: watchdog reset", PSCI_ABSENT),
         forbid=(PSCI_CASE_RAN,)),
    # Offline CPUs park in the kernel pen (no PSCI CPU_OFF): many cycles.
    Boot("raspi3b-hotplug-pen",
         ["--machine", "raspi3b"],
         append=f"test={HOTPLUG} hotplug.cycles=200 poweroff",
         timeout=240,
         expect=(r"hotplug_readers_never_see_poison: \d{2,} downs",)),
    # RAM starts at 0 here: a NULL read must still fault (the identity map
    # is off after boot), and the panic powers off through the watchdog.
    Boot("raspi3b-fault-null",
         ["--machine", "raspi3b"],
         append="lkdtm=null poweroff",
         ktap=False,
         expect=(r"Unable to handle kernel read at virtual address 0+$",
                 r"Kernel panic", r"^bcm2835-wdt: watchdog reset"),
         forbid=(r"did not fault",)),
    # RCU + hotplug torture with mailbox IPIs and the pen.
    torture_boot("raspi3b-torture", ["--machine", "raspi3b"], "torture=10"),
    # The shell on the PL011, its receive interrupt on the armctrl's one
    # route: three CPUs (the boot CPU among them) go to the pen, so the
    # route must end on the last one and typing still work; back up; then
    # `poweroff` resets through the watchdog and QEMU (-no-reboot) exits.
    Boot("raspi3b-shell",
         ["--machine", "raspi3b"],
         ktap=False,
         script=RASPI3B_SHELL,
         expect=(r"^bcm2835-wdt: watchdog reset",),
         forbid=(r"Kernel panic", r"\bWARNING\b", r"no receive interrupt")),
    # The same board with Debian's tree unmodified (qemu.sh --console
    # miniuart): the console a real Pi 3 has, the mini UART, for the boot
    # log, the shell's input and output, and through a hotplug round.
    Boot("raspi3b-miniuart-shell",
         ["--machine", "raspi3b", "--console", "miniuart"],
         ktap=False,
         script=RASPI3B_MINIUART_SHELL,
         expect=(r"^Interrupts: BCM2836 local 0x40000000 .*armctrl 0x3f00b200",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"^bcm2835-wdt: watchdog reset"),
         forbid=(r"Kernel panic", r"\bWARNING\b", r"no receive interrupt",
                 r"bcm2835-aux-uart: was off")),

    # -- Raspberry Pi 3 B with Trusted Firmware-A as its PSCI (qemu.sh ------
    # -- --firmware tfa): Debian's rpi3 BL31 at EL3 through our armstub -----
    # -- (tools/tfa/), the Pi tree edited for PSCI over SMC -----------------
    Boot("raspi3b-tfa-suites",
         ["--machine", "raspi3b", "--firmware", "tfa"],
         append=f"test={FIRMWARE_SUITES} poweroff",
         timeout=240,
         expect=(r"^NOTICE:  BL31: v2\.8",
                 r"^PSCI: version 1\.1, conduit smc, SMCCC 1\.2, firmware "
                 r"Trusted Firmware-A \(Standard Service UID "
                 r"108d905b-f863-47e8-ae2d-c0fb5641f6e2\)$",
                 r"cpu0: MPIDR 0x0, enable-method psci$",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"^ +ok \d+ hotplug_boot_cpu$", PSCI_TFA)),
    # Every secondary and CPU 0 down and up many times through TF-A's
    # CPU_OFF (its warm reset back to the armstub's pen) and CPU_ON.
    Boot("raspi3b-tfa-hotplug-stress",
         ["--machine", "raspi3b", "--firmware", "tfa"],
         append=f"test={HOTPLUG_CYCLES} hotplug.cycles=2000 hotplug.secs=10 poweroff",
         timeout=240,
         expect=(r"hotplug_readers_never_see_poison: \d{3,} downs",)),
    # TF-A entering the kernel at EL1 (the kernel then has no EL2 to set up).
    Boot("raspi3b-tfa-el1",
         ["--machine", "raspi3b", "--firmware", "tfa", "--el1"],
         append=f"test=smp,{HOTPLUG} hotplug.cycles=100 poweroff",
         timeout=180,
         expect=(r"^INFO:    SPSR = 0x3c5$",)),
    torture_boot("raspi3b-tfa-torture",
                 ["--machine", "raspi3b", "--firmware", "tfa"], "torture=10"),
    # The SD card's armstub as is (qemu.sh --firmware tfa-card): the header
    # filled in as the Pi firmware does, the stock bl31.bin. Every CPU
    # comes up; a CPU that does CPU_OFF stays in TF-A (QEMU ignores the
    # RMR_EL3 reset it ends in), so its next CPU_ON must fail with the
    # firmware's view said, and the kernel go on.
    Boot("raspi3b-tfa-card-stuck-cpu",
         ["--machine", "raspi3b", "--firmware", "tfa-card"],
         ktap=False,
         script=(Step(PROMPT, "off 1\r", expect=(r"\bCPU1 is down$",)),
                 Step(PROMPT, "on 1\r", expect=(
                     r"CPU1 \(MPIDR 0x1\): failed to come online within \d+ ms",
                     r"CPU1: CPU_ON returned SUCCESS, the CPU never reached the "
                     r"kernel's entry; AFFINITY_INFO says ON_PENDING",)),
                 Step(PROMPT, "cpus\r", expect=(r"^\s*1\s+0x1\s+off\s",
                                                r"^\s*2\s+0x2\s+online\s")),
                 Step(PROMPT, "poweroff\r")),
         expect=(r"\bBrought up 4 of 4 CPUs$", r"^Timer: 62500000 Hz"),
         forbid=(r"Kernel panic",)),

    # -- Raspberry Pi 4 B under QEMU >= 9 (raspi4b): Debian's DTB, entry at --
    # -- EL2, spin table + the kernel's pen or TF-A's rpi4 BL31, GIC-400 ----
    # -- without security extensions (both groups enabled) -----------------
    Boot("raspi4b-test-all",
         ["--machine", "raspi4b"],
         append="test=all poweroff",
         timeout=240, needs="raspi4b",
         expect=(r"^GIC: v2, 192 SPIs, .*no security extensions: groups 0 "
                 r"and 1 enabled$",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"^bcm2835-wdt: watchdog reset", PSCI_ABSENT),
         forbid=(PSCI_CASE_RAN,)),
    # Debian's tree as shipped: the mini UART, as on a real Pi 4's pins.
    Boot("raspi4b-miniuart-shell",
         ["--machine", "raspi4b", "--console", "miniuart"],
         ktap=False, needs="raspi4b",
         script=RASPI4B_MINIUART_SHELL,
         expect=(r"\bBrought up 4 of 4 CPUs$", r"^bcm2835-wdt: watchdog reset"),
         forbid=(r"Kernel panic", r"\bWARNING\b", r"no receive interrupt",
                 r"bcm2835-aux-uart: was off")),
    # TF-A's rpi4 BL31 loaded at 0 with its header filled in as the Pi
    # firmware does; it puts every interrupt in group 1, which a GIC
    # without security extensions delivers only with both groups enabled.
    Boot("raspi4b-tfa-suites",
         ["--machine", "raspi4b", "--firmware", "tfa"],
         append=f"test={FIRMWARE_SUITES} poweroff",
         timeout=240, needs="raspi4b",
         expect=(r"^NOTICE:  BL31: v2\.8",
                 r"^PSCI: version 1\.1, conduit smc, SMCCC 1\.2, firmware "
                 r"Trusted Firmware-A ",
                 r"cpu0: MPIDR 0x0, enable-method psci$",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"^ +ok \d+ hotplug_boot_cpu$", PSCI_TFA,
                 # The readers' stress through TF-A's CPU_OFF and CPU_ON.
                 r"hotplug_readers_never_see_poison: [1-9]\d* downs"),
         forbid=(r"Stub magic failure",)),


    # -- The SD cards a user flashes (tools/mksdcard.sh), booted from their --
    # -- own files: tools/pifirmware.py reads config.txt, loads the tree ----
    # -- with cmdline.txt, the kernel, the armstub, as the Pi firmware does --
    Boot("card-rpi3",
         ["--machine", "raspi3b"], card="rpi3",
         append="test=smp,hotplug hotplug.cycles=100 poweroff",
         expect=(r"^Command line: test=smp,hotplug ", r"\bBrought up 4 of 4 CPUs$",
                 CARD_CONSOLE, r"^PSCI: not present$")),
    Boot("card-rpi3-tfa",
         ["--machine", "raspi3b"], card="rpi3-tfa",
         append="test=smp,hotplug,psci hotplug.cycles=100 poweroff",
         expect=(CARD_CONSOLE, CARD_TFA, r"cpu0: MPIDR 0x0, enable-method psci$",
                 r"^ +ok \d+ hotplug_boot_cpu$")),
    Boot("card-rpi4",
         ["--machine", "raspi4b"], card="rpi4", needs="raspi4b",
         append="test=smp,hotplug,irq hotplug.cycles=100 poweroff",
         expect=(r"^Command line: test=smp,hotplug,irq ", r"\bBrought up 4 of 4 CPUs$",
                 CARD_CONSOLE, r"^PSCI: not present$")),
    Boot("card-rpi4-tfa",
         ["--machine", "raspi4b"], card="rpi4-tfa", needs="raspi4b",
         append="test=smp,hotplug,psci hotplug.cycles=100 poweroff",
         expect=(CARD_CONSOLE, CARD_TFA, r"cpu0: MPIDR 0x0, enable-method psci$",
                 r"^ +ok \d+ hotplug_boot_cpu$")),

    # -- QEMU virt with TF-A as its PSCI (qemu.sh --firmware tfa): TF-A's ---
    # -- qemu platform built from Debian's source, secure=on: real EL3 -------
    # -- firmware and a GIC with a secure side (GICv3: GICD_CTLR.DS = 0) ----
    Boot("virt-tfa-gicv3-suites",
         ["--firmware", "tfa", "--gic", "3", "--smp", "4", "--mem", "256M"],
         append=f"test={FIRMWARE_SUITES} poweroff",
         timeout=240, needs="tfa-virt",
         expect=(r"^INFO:    ARM GICv3 driver initialized in EL3$",
                 r"^PSCI: version 1\.1, conduit smc, SMCCC 1\.2, firmware "
                 r"Trusted Firmware-A ",
                 r"^cpuidle: WFI \(1/1 us\), cpu-retention \(167/504 us\)$",
                 r"^ +ok \d+ irq_gicv3_waker_read_only_no_wait$", PSCI_TFA_QEMU,
                 r"\bBrought up 4 of 4 CPUs$")),
    # GICv2 with security extensions: the kernel enables group 1 only.
    Boot("virt-tfa-gicv2",
         ["--firmware", "tfa", "--gic", "2", "--smp", "4", "--mem", "256M"],
         append="test=smp,irq,psci,cpuidle,suspend,hotplug poweroff",
         timeout=180, needs="tfa-virt",
         expect=(r"^INFO:    ARM GICv2 driver initialized$",
                 r"^GIC: v2, .*security extensions: the non-secure group 1$",
                 r"^PSCI: version 1\.1, conduit smc, SMCCC 1\.2, firmware "
                 r"Trusted Firmware-A ",
                 r"^ +ok \d+ hotplug_boot_cpu$",
                 # CPU_SUSPEND through TF-A: its standby taken (also the
                 # idle state cpu-retention), a state it lacks refused.
                 r"^ +ok \d+ suspend_standby_returns$",
                 r"^ +ok \d+ suspend_invalid_state_refused$",
                 r"# cpuidle_rcu_gp_in_every_state: cpu-retention: [1-9]\d* entries")),

    # -- SMP: GICv2 up to its 8 CPUs, GICv3 past 16 (Aff1 = 1); GICv3 on 8 ---
    # -- CPUs is hotplug-stress-smp8's machine --------------------------------
    smp_boot("virt-smp2-gicv2", ["--smp", "2", "--gic", "2", "--mem", "256M"]),
    # 8 vCPUs on a loaded 2-core host: lock convoys make these slow.
    smp_boot("virt-smp8-gicv2", ["--smp", "8", "--gic", "2", "--mem", "256M"],
             timeout=240, tests=SMP_SUITES),
    # 20 vCPUs under TCG are slow: hence the longer timeout. On a loaded
    # 2-core host its kmalloc lock convoy once took it past 180 s.
    # 60 cycles, not 200: each walks 20 CPUs' areas on a 2-core host.
    smp_boot("virt-smp20-gicv3", ["--smp", "20", "--gic", "3", "--mem", "256M"],
             timeout=300, tests=SMP_SUITES, words="hotplug.cycles=60 ",
             expect=(Group("banner: cpu16..cpu19 have MPIDR 0x100..0x103",
                           [rf"^\s*cpu{16 + n}: MPIDR 0x10{n}, enable-method psci$"
                            for n in range(4)]),
                     Group("CPU16..CPU19 online with MPIDR 0x100..0x103",
                           [rf"\bCPU{16 + n}: online, MPIDR 0x10{n}$" for n in range(4)]))),
    # CPUs numbered in Aff1 as on the Raspberry Pi 5 (MPIDR 0x000, 0x100,
    # 0x200, 0x300): GICv3 virt with 64 vCPUs, its tree cut to CPUs 0, 16,
    # 32 and 48. Logical CPUs 0-3 must map to those MPIDRs through every
    # suite that uses them: SMP, interrupts, PSCI, idle (clusters), hotplug.
    Boot("virt-aff1-cpus-like-pi5",
         ["--smp", "64", "--gic", "3", "--mem", "256M"],
         append=f"test={SMP_SUITES},hotplug_fault,psci,cpuidle,suspend poweroff",
         dtb_cpus=(0x000, 0x100, 0x200, 0x300),
         banner=("el", "memory", "psci"),
         timeout=180,
         expect=(r"^CPUs: 4\b", r"\bBrought up 4 of 4 CPUs$",
                 Group("banner: cpu0..cpu3 have MPIDR 0x0, 0x100, 0x200, 0x300",
                       [rf"^\s*cpu{n}: MPIDR {m}, enable-method psci$"
                        for n, m in enumerate(("0x0", "0x100", "0x200", "0x300"))]),
                 Group("CPU1..CPU3 online with MPIDR 0x100..0x300",
                       [rf"\bCPU{n}: online, MPIDR 0x{n}00$" for n in range(1, 4)]))),
    # A CPU that never arrives (started at a dead end): the others go on.
    # Not the smp suite: its smp_all_cpus_online fails here by design.
    Boot("smp-cpu-never-arrives",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu=2 test=sched poweroff",
         expect=(r"\bCPU2 .*failed to come online", r"\bBrought up 3 of 4 CPUs$"),
         forbid=(r"\bCPU2: online\b",)),
    # A CPU that never comes up counts as off in its cluster's idle and
    # down counts, also across a regrouping (no tree grouping: no idle
    # states in the tree), drivers/cpuidle/cpuidle.c.
    Boot("cpuidle-cpu-never-up",
         ["--smp", "4", "--mem", "256M", "--idle-states", "none"],
         append="fail.cpu=3 test=cpuidle poweroff",
         expect=(r"\bBrought up 3 of 4 CPUs$",
                 r"ok \d+ cpuidle_regroup_keeps_counts$",
                 r"ok \d+ cpuidle_off_cpus_count_as_down$")),

    # The start-slot handshake (arch/arm64/smp.c, fail.cpu_late=): a CPU
    # that arrives late, before the 5 s timeout, comes online...
    Boot("smp-cpu-late-before-timeout",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_late=2:1500 test=sched poweroff",
         expect=(r"\bCPU2: fault injected, it waits 1500 ms before",
                 r"\bCPU2: online\b", r"\bBrought up 4 of 4 CPUs$")),
    # ...after it, it finds CPU3's bring-up under way (CPU3 is 3 s late
    # itself) and parks without taking CPU3's thread; CPU3 comes up...
    Boot("smp-cpu-late-after-timeout",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_late=2:7000,3:3000 test=sched poweroff",
         expect=(r"\bCPU2 .*failed to come online within 5000 ms",
                 r"\bCPU2 \(MPIDR 0x2\): arrived during the bring-up of "
                 r"MPIDR 0x3, not its own: parked$",
                 r"\bCPU3: online\b", r"\bBrought up 3 of 4 CPUs$"),
         forbid=(r"\bCPU2: online\b",)),
    # ...and one that took its slot but is slow is waited for, not rolled
    # back under its feet (its idle stack stays).
    Boot("smp-cpu-late-claimed",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_late=2:7000:claimed test=sched poweroff",
         expect=(r"\bCPU2: not online within 5000 ms but it claimed",
                 r"\bCPU2: came online late$",
                 r"\bBrought up 4 of 4 CPUs$"),
         forbid=(r"\bCPU2 .*failed to come online",)),

    # Two stragglers at once (hotplug.timeout_ms short, both 1 s late): they
    # share one borrowed stack (head.S late_stack) in turn, each says it
    # arrived late and leaves; neither is lost. Both come back on demand.
    Boot("smp-two-stragglers",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_late=2:1000,3:1000 hotplug.timeout_ms=300",
         ktap=False,
         script=TWO_STRAGGLERS,
         expect=(r"\bBrought up 2 of 4 CPUs$",),
         forbid=(r"Kernel panic", r"\bWARNING\b")),
    # The same on spin tables: a straggler leaves through the kernel's pen,
    # and the stack is free again only once it is there.
    Boot("raspi3b-two-stragglers",
         ["--machine", "raspi3b"],
         append="fail.cpu_late=2:1000,3:1000 hotplug.timeout_ms=300",
         ktap=False,
         script=TWO_STRAGGLERS,
         expect=(r"\bBrought up 2 of 4 CPUs$", r"^bcm2835-wdt: watchdog reset"),
         forbid=(r"Kernel panic", r"\bWARNING\b")),

    # Fault injection from the command line (fail.*, include/kernel/fault.h): each
    # gives a clear message, the mask stays consistent, the kernel goes on.
    Boot("fault-cpu-on-denied",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_on=2:DENIED test=sched poweroff",
         expect=(r"\bCPU_ON for CPU2 will answer DENIED \(-3\)$",
                 r"\bCPU2: CPU_ON failed: DENIED \(-3\)$",
                 r"\bBrought up 3 of 4 CPUs$"),
         forbid=(r"\bCPU2: online\b",)),
    Boot("fault-alloc-up",
         ["--smp", "4", "--mem", "256M"],
         append="fail.alloc_up=1 test=sched poweroff",
         expect=(r"\bCPU1: step percpu:area failed going up: -12$",
                 r"\bBrought up 3 of 4 CPUs$"),
         forbid=(r"\bCPU1: online\b",)),
    # The command line (kernel/params.c): a bad value, an unknown word, a
    # misspelt one and a fault point's bad value are each reported with
    # the word's help line; nothing else changes and the boot goes on.
    Boot("cmdline-bad-words",
         ["--smp", "4", "--mem", "256M"],
         append="hz=5000 fail_cpu_on=2:DENIED bogus loglevel=x "
                "hotplug.sync=foo fail.cpu_on=9:DENIED trace=rcu,bogus "
                "cpuidle.latency_us=soon power.strategies power.only=spread,turbo "
                "cpuidle.cluster_idle=2 power.down_delays=0,abc "
                "power.model=model=turbo,opp=1 test=boot poweroff",
         expect=(r"^cmdline: hz=5000 ignored: want N: timer tick rate in Hz",
                 r"^cmdline: unknown word 'fail_cpu_on' ignored: did you "
                 r"mean 'fail\.cpu_on'\?$",
                 r"^cmdline: unknown word 'bogus' ignored",
                 r"^cmdline: loglevel=x ignored: want N: console log level",
                 r"^cmdline: hotplug\.sync=foo ignored: want rwlock, "
                 r"percpu_rwsem, stop_machine or rcu: ",
                 r"^fault: fail\.cpu_on=9:DENIED ignored: want CPU:ERROR",
                 r"^trace: trace=rcu,bogus ignored: want on, all or ",
                 r"^cmdline: cpuidle\.latency_us=soon ignored: want US: wake-up latency",
                 r"^cmdline: cpuidle\.cluster_idle=2 ignored: want ",
                 r"^error: unknown power model 'turbo' \(juno-a53 invented\)$",
                 r"^error: unknown power model key 'opp'",
                 r"^power: power\.down_delays: '0' is not 1-60000 ms; no sweep$",
                 r"^power: unknown strategy 'turbo'$",
                 r"^power: power\.strategies: nothing run$",
                 r"\bBrought up 4 of 4 CPUs$",
                 r"\bTimer: \d+ Hz, HZ=100,")),
    # The shell's `params`: every word with the value the boot gave it,
    # every fault point armed or not.
    Boot("cmdline-params-shell",
         ["--smp", "2", "--mem", "256M"],
         append="hz=250 fail.cpu_off=7 hotplug.pen",
         ktap=False,
         script=(
             Step(PROMPT, "params\r", expect=(
                 r"^\s+hz\s+250\s+N: timer tick rate",
                 r"^\s+hotplug\.pen\s+on\s",
                 r"^\s+hotplug\.gp\s+expedited\s",
                 r"^\s+fail\.cpu_off\s+7\s+N\|forever",
                 r"^\s+fail\.cpu_on\s+off\s")),
             Step(PROMPT, "poweroff\r"),
         )),
    # The event trace (kernel/trace/, docs/trace.md): its suite with every
    # category on from boot, the dump at the end of the boot's work, then
    # the shell's `trace`: a bad category refused with nothing changed.
    Boot("trace-suite-shell",
         ["--smp", "4", "--mem", "256M"],
         append="trace=all trace.size=1024 test=trace trace.dump",
         expect=(r"^trace: on: all, 1024 events per CPU$",
                 r"^trace: begin freq=\d+ cpus=4 entries=1024 "
                 r"on=hotplug,psci,rcu,sched,gov$",
                 r"^trace: 3 \d+ cpuhp_step_begin cpu=3 step=rcu:starting dir=down$",
                 r"^trace: end$"),
         script=(
             Step(PROMPT, "trace on bogus\r",
                  expect=(r"^error: 'bogus': want all or hotplug,psci,rcu,sched,gov$",)),
             Step(PROMPT, "trace\r",
                  expect=(r"^trace: on: hotplug,psci,rcu,sched,gov; 1024 events per CPU$",)),
             Step(PROMPT, "trace on psci,gov\r",
                  expect=(r"^trace: on: psci,gov; 1024 events per CPU$",)),
             Step(PROMPT, "trace off\r"),
             Step(PROMPT, "trace\r", expect=(r"^trace: on: -; 1024 events per CPU$",)),
             Step(PROMPT, "poweroff\r"),
         )),
    Boot("fault-cpu-off-slow",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_off=210",  # 200 fast polls, then 10 slow ones
         ktap=False,
         script=(
             Step(PROMPT, "off 3\r", expect=(r"\bCPU3 is down$",)),
             Step(PROMPT, "on 3\r", expect=(r"\bCPU3 is up$",)),
             Step(PROMPT, "poweroff\r"),
         )),
    Boot("fault-cpu-off-forever",
         ["--smp", "4", "--mem", "256M"],
         append="fail.cpu_off=forever",
         ktap=False,
         script=(
             Step(PROMPT, "off 3\r", expect=(
                 r"\bCPU3: AFFINITY_INFO still says ON after \d+ ms$",
                 r"\bCPU3: not confirmed off \(-110\): keeping its stack and per-CPU area$",
                 r"\bCPU3: left the kernel: its callbacks and timers moved, its stack "
                 r"and per-CPU area wait for the firmware$")),
             Step(PROMPT, "on 3\r", expect=(
                 r"\bCPU3: still not confirmed off: not restarting it$",)),
             Step(PROMPT, "cpus\r", expect=(r"^\s*3\s+0x3 unconfirmed\b",
                                            r"^\s*2\s+0x2 online\b")),
             Step(PROMPT, "poweroff\r"),
         )),
    Boot("fault-stall",
         ["--smp", "2"],
         append="lkdtm=stall rcu.stall_timeout=1 poweroff",
         ktap=False,
         expect_in_order=(r"\bholding rcu_read_lock\(\) for 2000 ms",
                          # one CPU: the one the init thread holds it on
                          r"\brcu: INFO: rcu detected stalls on CPUs: \{ \d \}",
                          r"^\s*fault_stall\+",
                          r"\breader released; grace periods end again$")),

    # -- hotplug: thousands of random downs and ups under lock-free readers --
    # Every expedited grace period meets all three faults between choosing
    # its CPUs and IPI-ing them (the caller moves onto a chosen CPU, one
    # chosen CPU gets no IPI, the first IPI request fails to allocate):
    # the hotplug downs that wait for them must still end.
    Boot("virt-rcu-exp-fault",
         ["--smp", "4", "--mem", "256M"],
         append=f"test=smp,rcu,{HOTPLUG} fail.rcu_exp=migrate,miss_ipi,no_csd "
                "hotplug.cycles=150 poweroff",
         timeout=240,
         expect=(r"fail.rcu_exp=migrate,miss_ipi,no_csd: every expedited",)),
    # The cycles stop at the kernel's own 150 s deadline (hotplug_secs): a
    # busy host gets fewer downs, not a harness timeout; 2000 cycles take
    # ~45 s on a 2-core host running make test.
    Boot("hotplug-stress-smp4",
         ["--smp", "4", "--mem", "256M"],
         append=f"test={HOTPLUG_CYCLES} hotplug.cycles=2000 hotplug.secs=150 poweroff",
         timeout=240,
         expect=(r"hotplug_readers_never_see_poison: ([5-9]\d{2}|\d{4}) downs",)),
    # The same readers on 8 vCPUs (GICv3), where more CPUs read while one
    # goes: a cycle costs ~70 ms on a loaded 2-core host, so 300 cycles
    # (~150 downs) keep the boot near 30 s.
    Boot("hotplug-stress-smp8",
         ["--smp", "8", "--gic", "3", "--mem", "256M"],
         append=f"test={HOTPLUG_CYCLES} hotplug.cycles=300 hotplug.secs=150 poweroff",
         timeout=240,
         expect=(r"hotplug_readers_never_see_poison: [1-9]\d{2,} downs",)),
    # The same with a normal (tick-driven) grace period in cpu_down().
    Boot("hotplug-normal-gp-smp4",
         ["--smp", "4", "--mem", "256M", "--el2"],
         append=f"test={HOTPLUG_CYCLES} hotplug.gp=normal hotplug.cycles=100 poweroff",
         timeout=120),

    # The rival reader designs (hotplug.sync=): every hotplug and reader
    # suite under each (rcu is the default of every other boot).
    *[Boot(f"hotplug-sync-{design}",
           ["--smp", "4", "--mem", "256M"],
           append=f"hotplug.sync={design} test={HOTPLUG_CYCLES} hotplug.cycles=150 "
                  "poweroff",
           timeout=180,
           expect=(rf"online-mask readers use {design}$",
                   r"hotplug_readers_never_see_poison: \d{2,} downs"))
      for design in ("rwlock", "percpu_rwsem", "stop_machine")],

    # The data-race detector's build (make KCSAN=1, docs/reliability.md):
    # lkdtm's plain write against a plain read on two CPUs must be
    # reported, both accesses with their stacks, as Linux prints it; the
    # suites and the tortures on GICv2, GICv3 and raspi3b must report none
    # (DEBUG_FORBID).
    Boot("kcsan-lkdtm-data-race",
         ["--image", "build/kcsan/Image", "--smp", "4"],
         append="lkdtm=data_race poweroff",
         ktap=False, debug=False,
         expect_in_order=(r"^KCSAN: enabled, watching one access in ~\d+",
                          r"^BUG: KCSAN: data-race in data_race_read / data_race_write$",
                          r"^(read|write) to (0x[0-9a-f]{16}) of 8 bytes by task \d+ on cpu \d:$",
                          r"^ data_race_(read|write)\+0x[0-9a-f]+/0x[0-9a-f]+$",
                          r"^ data_race_(reader|writer)\+0x",
                          r"^(read|write) to (0x[0-9a-f]{16}) of 8 bytes by task \d+ on cpu \d:$",
                          r"^ data_race_(read|write)\+0x[0-9a-f]+/0x[0-9a-f]+$",
                          r"^ data_race_(reader|writer)\+0x",
                          r"^Reported by Kernel Concurrency Sanitizer on:$",
                          r"^CPU: \d PID: \d+ Comm: lkdtm-race/\d$",
                          r"^lkdtm: 'data_race': [1-9]\d* report",
                          r"^KCSAN: \d+ watchpoints, [1-9]\d* data races reported"),
         expect=(Group("both sides of the race",
                       [r"^read to 0x[0-9a-f]{16} of 8 bytes by task",
                        r"^write to 0x[0-9a-f]{16} of 8 bytes by task",
                        r"^ data_race_reader\+0x", r"^ data_race_writer\+0x"]),),
         forbid=(r"Kernel panic", r"did not fault")),
    # The suites where CPUs share data at once, and the stress.
    Boot("kcsan-virt-smp4",
         ["--image", "build/kcsan/Image", "--smp", "4"],
         append=f"test=smp,sched,rcu,irq,timer,{HOTPLUG},stress stress=8 poweroff",
         timeout=500,
         expect=(r"\bBrought up 4 of 4 CPUs$",
                 r"^KCSAN: [1-9]\d* watchpoints, 0 data races reported")),
    torture_boot("kcsan-torture-gicv3-smp4",
                 ["--image", "build/kcsan/Image", "--smp", "4", "--gic", "3"],
                 "torture=10",
                 expect=(r"^KCSAN: [1-9]\d* watchpoints, 0 data races reported",)),
    torture_boot("kcsan-raspi3b-torture",
                 ["--image", "build/kcsan/Image", "--machine", "raspi3b"],
                 "torture=10",
                 expect=(r"^KCSAN: [1-9]\d* watchpoints, 0 data races reported",)),
    Boot("kcsan-raspi3b-stress",
         ["--image", "build/kcsan/Image", "--machine", "raspi3b"],
         append="stress=10 poweroff", timeout=180,
         expect=(r"^KCSAN: [1-9]\d* watchpoints, 0 data races reported",)),

    # The lean build (make lean: no tests, benchmarks or experiments)
    # boots make run's demo; the words of the experiments are unknown to it.
    Boot("lean-demo",
         ["--image", "build/lean/Image", "--smp", "4"],
         append="policy=rqdepth demo power.scale=30 test=all fail.cpu_off=1 "
                "poweroff",
         ktap=False,
         expect=(r"^cmdline: unknown word 'test' ignored",
                 r"fail\.cpu_off=1 ignored: this build has no fault injection",
                 r"^demo: done; all 4 CPUs online",),
         forbid=(r"Kernel panic", r"\bWARNING\b")),
    # A sample of the fault sweep (make sweep runs all of it): every
    # fault event alone and on two CPUs at once (each under one design in
    # turn) and 5 random pairs per design (the seed is printed) around a
    # down and an up, readers of the online mask running, with PSCI and
    # with the pen (under the default design alone: the pen's handshake
    # does not depend on it); each violated invariant fails a case with
    # its combination.
    *[Boot(f"sweep-sample-{how}",
           ["--smp", "4", "--mem", "256M"],
           append=f"{words}test=hotplug_sweep sweep=5 poweroff",
           timeout=300,
           expect=(r"rcu: \d+ combinations \(\d+ singles, \d+ doubles, 5 pairs\) "
                   r"of \d+ events in \d+ ms, 0 violation",))
      for how, words in (("psci", ""),
                         ("pen", "hotplug.pen sweep.design=rcu "))],

    # Offline CPUs parked in the kernel pen, as on spin-table boards.
    Boot("hotplug-pen-smp4",
         ["--smp", "4", "--mem", "256M"],
         append=f"hotplug.pen test={HOTPLUG} hotplug.cycles=150 poweroff",
         timeout=120,
         expect=(r"hotplug_readers_never_see_poison: \d{2,} downs",)),

    # -- the monitor shell, driven through the console ------------------------
    Boot("shell-virt-smp4",
         ["--smp", "4", "--mem", "256M"],
         ktap=False,
         script=SHELL_SMP4,
         forbid=(r"Kernel panic", r"\bWARNING\b", r"unknown command '0123456789",
                 r"no receive interrupt")),

    # The scheduler's mode from the shell (kernel/sched/shell.c): bad words
    # at boot and at the prompt refused with a message, nothing changed.
    Boot("sched-mode-shell",
         ["--smp", "4", "--mem", "256M"],
         append="sched.mode=bogus sched.pack_capacity=0",
         ktap=False,
         expect=(r"^cmdline: sched\.mode=bogus ignored: want spread or pack: ",
                 r"^cmdline: sched\.pack_capacity=0 ignored: want PERCENT: "),
         script=(
             Step(PROMPT, "sched mode\r", expect=(r"^sched: mode spread$",)),
             Step(PROMPT, "sched mode bogus\r",
                  expect=(r"^error: 'bogus': want pack or spread$",)),
             Step(PROMPT, "sched mode pack spread\r",
                  expect=(r"^error: sched mode takes one word: pack or spread$",)),
             Step(PROMPT, "sched mode\r", expect=(r"^sched: mode spread$",)),
             Step(PROMPT, "sched capacity 0\r",
                  expect=(r"^error: '0': want a percentage, 1-100$",)),
             Step(PROMPT, "sched capacity 101\r",
                  expect=(r"^error: '101': want a percentage, 1-100$",)),
             Step(PROMPT, "sched capacity 5x\r",
                  expect=(r"^error: '5x': want a percentage, 1-100$",)),
             Step(PROMPT, "sched capacity\r", expect=(r"^sched: pack capacity 80%$",)),
             Step(PROMPT, "sched frob\r", expect=(r"^error: 'frob': want mode or capacity$",)),
             Step(PROMPT, "sched mode pack\r", expect=(r"^sched: mode pack$",)),
             Step(PROMPT, "sched capacity 60\r", expect=(r"^sched: pack capacity 60%$",)),
             Step(PROMPT, "sched\r", expect=(
                 r"^sched: mode pack, pack capacity 60%$",
                 r"^CPU RUNNABLE UTIL$",
                 r"^\s+3\s+\d+\s+\d+%$",
                 r"^sched: [1-4] of 4 online CPUs ran threads recently$")),
             Step(PROMPT, "sched mode spread\r", expect=(r"^sched: mode spread$",)),
             Step(PROMPT, "poweroff\r"),
         ),
         forbid=(r"Kernel panic", r"\bWARNING\b")),

    # -- the hotplug governor (docs/governor.md) ------------------------------
    # make power, short: the table has a row for every policy, and the trace
    # and the phases are there for tools/power_plot.py.
    Boot("power-smoke-smp4",
         ["--smp", "4", "--mem", "256M"],
         append="power=all power.scale=20 hz=250 poweroff",
         ktap=False, timeout=180,
         expect=(Group("a table row per policy",
                       [rf"^power: {p}\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d\.\d\d$"
                        for p in ("performance", "powersave", "rqdepth", "load", "fixed")]),
                 Group("a trace per policy",
                       [rf"^gov-trace,{p},\d+,{p},\d+\.\d\d,\d+,\d+,\d+,0x[0-9a-f]+,sample,-1$"
                        for p in ("performance", "powersave", "rqdepth", "load", "fixed")]),
                 r"^gov-phase,rqdepth,\d+,frames-2$",
                 r"^gov-trace,rqdepth,\d+,rqdepth,[0-9.]+,\d+,\d+,\d+,0x[0-9a-f]+,down,\d+$",
                 r"^power: done$"),
         forbid=(r"Kernel panic", r"\bWARNING\b", r"failed")),
    # make run, short: the status line each second, then every CPU back
    # online and the shell.
    Boot("governor-demo-smp4",
         ["--smp", "4", "--mem", "256M"],
         append="policy=rqdepth demo power.scale=25",
         ktap=False,
         expect=(r"^demo: rqdepth governor, phased workload",
                 # Printed at least a second apart, from the workload's
                 # phases: on a busy host the label may skip a second.
                 r"^\[demo +[1-9]\d*s\] \S+\s+load\s+\d+\.\d\d util\s+\d+%  online \S+\s+\(\d\)"
                 r"  grace periods \d+ \+ \d+ expedited  hotplug \d+$",
                 r"^demo: done: modelled energy \d+ mJ",
                 r"^demo: done; all 4 CPUs online \(governor stopped, policy none\); "
                 r"try 'cpus', 'policy rqdepth'$"),
         # The demo hands every CPU back and stops the governor: the shell
         # starts as after a plain boot (all CPUs online, ticking).
         script=(Step(r"Boot complete\.", ""),
                 Step(PROMPT, "policy\r", expect=(r"^policy: none \(governor stopped",
                                                   r"^state: online 0-3 \(4\)")),
                 # The workload ran on every CPU: each has taken ticks.
                 Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3],
                                                          every_cpu_ticked=True)),
                 Step(PROMPT, "poweroff\r")),
         forbid=(r"Kernel panic", r"\bWARNING\b")),
    # The governor from the shell: bad input refused, a manual off pinned
    # under performance (which wants every CPU), then given back.
    Boot("governor-shell-smp4",
         ["--smp", "4", "--mem", "256M"],
         ktap=False,
         script=(
             Step(PROMPT, "policy\r", expect=(r"^policy: none \(governor stopped",)),
             Step(PROMPT, "policy turbo\r",
                  expect=(r"^error: unknown policy 'turbo' \(performance powersave rqdepth "
                          r"load fixed none\)$",)),
             Step(PROMPT, "policy rqdepth bogus=1\r",
                  expect=(r"^error: unknown key 'bogus'$", r"^keys: period_ms ")),
             Step(PROMPT, "policy load up_util=abc\r",
                  expect=(r"^error: up_util wants a whole number in \[1, 100\], not 'abc'$",)),
             Step(PROMPT, "policy performance period_ms=20\r",
                  expect=(r"^policy: performance \(governor running",
                          r"^tunables: period_ms=20 ")),
             Step(PROMPT, "off 3\r", expect=(r"\bCPU3 is down$",)),
             Step(PROMPT, "policy\r", expect=(r"^state: online 0-2 \(3\).*pinned off by hand: 3$",)),
             Step(PROMPT, "on 3\r", expect=(r"^CPU3 is up$",)),
             Step(PROMPT, "policy none\r", expect=(r"^policy: none \(governor stopped",)),
             Step(PROMPT, "power wfi_mw=20\r", expect=(r"\bwfi_mw=20\b",
                                                     r"^since boot: \d+ mJ")),
             Step(PROMPT, "power frobs=2\r", expect=(r"^error: unknown power model key 'frobs'",)),
             Step(PROMPT, "power cluster_cpus=0\r",
                  expect=(r"^error: cluster_cpus wants a whole number in \[1, 4096\]$",)),
             Step(PROMPT, "power cluster_cpus=1\r",
                  expect=(r"^error: cluster_cpus=1: the device tree groups the CPUs",)),
             Step(PROMPT, "power model=turbo\r",
                  expect=(r"^error: unknown power model 'turbo' \(juno-a53 invented\)$",)),
             Step(PROMPT, "power idle2_mw=3\r",
                  expect=(r"^power: model juno-a53 \(published\): opp_khz=450000/575000/700000/"
                          r"775000/850000 opp_capacity=235/302/368/406/447 opp_cpu_mw=33/46/61/"
                          r"76/93 opp_cluster_mw=26/30/39/47/57 cpufreq=schedutil ",
                          r"\bidle2_mw=3 idle2_uj=\d+ .*\bcluster_mw=57 cluster_idle_mw=56 "
                          r"cluster_down_mw=17 cluster_uj=\d+ clusters=2$")),
             Step(PROMPT, "power model=invented\r",
                  expect=(r"^power: model invented \(illustrative\): opp_khz=1200000 ",)),
             Step(PROMPT, "policy rqdepth cost_aware=2\r",
                  expect=(r"^error: cost_aware wants a whole number in \[0, 1\], not '2'$",)),
             Step(PROMPT, "cpus\r", check=cpus_table([0x0, 0x1, 0x2, 0x3])),
             Step(PROMPT, "poweroff\r")),
         forbid=(r"Kernel panic", r"\bWARNING\b")),

    # Idle states (drivers/cpuidle/): a tree's bad states left out, each
    # with its reason, the good one used; a state the firmware refuses
    # disabled at its first use, once, and the suite passing without it;
    # the shell command's tunables, bad input refused with nothing changed.
    Boot("virt-smp4-idle-bad",
         ["--smp", "4", "--idle-states", "tests/idle-states/bad.dtsi"],
         append="test=cpuidle poweroff",
         expect=(r"^cpuidle: idle state 2 \(no-residency, phandle 0x\w+\) left out: "
                 r"no min-residency-us$",
                 r"^cpuidle: idle state 3 \(not-an-idle-state, phandle 0x\w+\) left out: "
                 r"not compatible with arm,idle-state$",
                 r"^cpuidle: idle state 4 \(no-param, phandle 0x\w+\) left out: "
                 r"no arm,psci-suspend-param$",
                 r"^cpuidle: idle state 5 \(shallower-than-before, phandle 0x\w+\) left "
                 r"out: min-residency-us below the state before it$",
                 r"^cpuidle: WFI \(1/1 us\), cpu-retention \(167/504 us\)$"),
         forbid=(r"Kernel panic", r"\bWARNING\b")),
    Boot("virt-smp4-idle-refused",
         ["--smp", "4", "--idle-states", "tests/idle-states/refused.dtsi"],
         append="test=cpuidle poweroff",
         expect=(r"^cpuidle: WFI \(1/1 us\), cpu-retention \(167/504 us\), "
                 r"cluster-sleep \(500/900 us, timer stops\)$",
                 r"^cpuidle: state 2 \(cluster-sleep, psci-suspend-param 0x1010004\) "
                 r"refused by the firmware: INVALID_PARAMS \(-2\); disabled on every CPU$"),
         forbid=(r"Kernel panic", r"\bWARNING\b")),
    Boot("cpuidle-shell-smp4",
         ["--smp", "4"],
         ktap=False,
         script=(
             Step(PROMPT, "cpuidle\r",
                  expect=(r"^state 0: WFI +exit 1 us, residency 1 us, psci 0$",
                          r"^state 1: cpu-retention +exit 167 us, residency 504 us, psci 0x2$",
                          r"^state 2: cpu-sleep +exit 305 us, residency 595 us, psci 0x10003, "
                          r"power-down, timer stops$",
                          r"^state 3: cluster-sleep +exit 4305 us, residency 6000 us, "
                          r"psci 0x10033, cluster, power-down, timer stops$",
                          r"^latency limit: none; forced state: none \(governor\); "
                          r"broadcast host: CPU\d$",
                          r"^CPU3: WFI \d+/\d+ms cpu-retention \d+/\d+ms cpu-sleep \d+/\d+ms "
                          r"cluster-sleep \d+/\d+ms; ",
                          r"^cluster 1 \(2 CPUs\): idle \d+ms, down \d+ms \(\d+ times\)$")),
             Step(PROMPT, "cpuidle latency 200\r", expect=(r"^latency limit: 200 us; ",)),
             Step(PROMPT, "cpuidle latency 2x\r",
                  expect=(r"^error: latency '2x' is not a number of us \(or none\)$",)),
             Step(PROMPT, "cpuidle force 4\r",
                  expect=(r"^error: no state '4' \(0\.\.3 or a name\)$",)),
             Step(PROMPT, "cpuidle disable WFI\r",
                  expect=(r"^error: state 0 cannot be disabled \(WFI always stays\)$",)),
             Step(PROMPT, "cpuidle nap 1\r", expect=(r"^error: usage: cpuidle ",)),
             # Nothing the refused lines asked for changed.
             Step(PROMPT, "cpuidle\r",
                  expect=(r"^latency limit: 200 us; forced state: none \(governor\)",
                          r"^state 1: cpu-retention .*psci 0x2$")),
             Step(PROMPT, "cpuidle disable cpu-sleep\r",
                  expect=(r"^state 2: cpu-sleep .*timer stops, disabled$",)),
             Step(PROMPT, "cpuidle force cpu-retention\r",
                  expect=(r"; forced state: cpu-retention;",)),
             Step(PROMPT, "cpuidle latency none\r", expect=(r"^latency limit: none;",)),
             Step(PROMPT, "poweroff\r")),
         forbid=(r"Kernel panic", r"\bWARNING\b")),

    # RCU + hotplug torture: no reader sees an object a grace period after
    # its removal while CPUs go down and up at random; and a mutant whose
    # grace periods end at once must be caught (no hotplug there: freeing
    # per-CPU areas early could crash the kernel before the verdict).
    # This one runs to a goal, as `make torture` does (at most 40 s; ~8 s
    # on a loaded 2-core host).
    torture_boot("torture-smp4", ["--smp", "4"], "torture=40 torture.goal=50,300",
                 expect=(r"rcu-torture: goal of 50 hotplug cycles and 300 grace "
                         r"periods met after \d+ s",)),
    torture_boot("torture-smp8-gicv3", ["--smp", "8", "--gic", "3"], "torture=10 hz=250"),
    Boot("torture-mutant-early-gp",
         ["--smp", "4"],
         append="torture=5 torture.mutant=early_gp torture.onoff=0 poweroff",
         ktap=False, timeout=120,
         expect=(r"rcu-torture: MUTANT: grace periods end as soon as they start",
                 r"rcu-torture: \d+ reads saw an object a grace period after its removal",
                 r"rcu-torture: --- End of test: FAILURE$"),
         forbid=(r"Kernel panic", r"SUCCESS")),

    # The randomized hotplug stress (kernel/tests/stress.c): readers of
    # every kind, three writers, both grace periods, call_rcu floods and
    # rcu_barrier, design switches, random faults and stragglers on two
    # CPUs at once, all together; a new seed each run (printed). Bounded
    # by the kernel's own clock (stress=S), not by the host's speed. The
    # mutant's grace periods end early: a reader must catch an area freed
    # under it, and the stress must print every thread's last operations.
    Boot("stress-smp4", ["--smp", "4"], append="stress=20 poweroff",
         timeout=180),
    Boot("stress-gic3-smp6", ["--smp", "6", "--gic", "3"],
         append="stress=15 poweroff", timeout=180),
    Boot("stress-raspi3b", ["--machine", "raspi3b"],
         append="stress=15 poweroff", timeout=180),
    Boot("stress-mutant-early-gp",
         ["--smp", "4"],
         append="stress=40 stress.no_faults fail.rcu_early_gp=on hotplug.gp=normal "
                "poweroff",
         ktap_must_fail=("stress.stress_run",), timeout=180,
         expect=(r"reader\d: a [a-z ]+ reader saw CPU\d's bit set but its area "
                 r"was not its own",
                 r"stress: the last operations of every thread",
                 r"stress:   writer0 \(\d+ ops\):"),
         forbid=(r"Kernel panic",)),

    # Random bytes on the UART: no crash, and the shell still answers.
    Boot("shell-fuzz-smp2",
         ["--smp", "2"],
         ktap=False,
         script=shell_fuzz_script(),
         forbid=(r"Kernel panic", r"\bWARNING\b", r"Unable to handle")),

    # -- negative tests: expected lines, no KTAP ------------------------------
    # A write to .rodata must end in a panic with a full report and a
    # symbolised call trace, then power off; die() names the CPU, and the
    # panic stops the other one (the stop IPI) and says so.
    fault_boot("rodata", r"\bESR\b", r"\bFAR\b", r"\bELR\b", REGISTERS,
               r"^Exception: ESR 0x[0-9a-f]{8}, EC 0x25: DABT \(current EL\), IL 32 bits$",
               r"^CPU: [01]$",
               expect_in_order=(r"Call trace:",
                                r"^\s+lkdtm_run\+0x[0-9a-f]+/0x[0-9a-f]+",
                                r"^Kernel panic - not syncing: Oops: Fatal exception$",
                                r"^smp: stopped 1 other CPU\(s\)$",
                                r"^---\[ end Kernel panic - not syncing: Oops \]---$")),
    # An undefined instruction (udf #0): EC 0 (printed with %#x: no 0x),
    # with the full report.
    fault_boot("undef",
               r"^Exception: ESR 0x02000000, EC 0: Unknown/Uncategorized, IL 32 bits$",
               r"^ESR: 0x0000000002000000  FAR: ", REGISTERS, r"^CPU: [01]$",
               r"^pc : fault_undef\+0x[0-9a-f]+/0x[0-9a-f]+$",
               expect_in_order=(r"Call trace:",
                                r"^\s+fault_undef\+0x[0-9a-f]+/0x[0-9a-f]+$",
                                r"^\s+lkdtm_run\+0x[0-9a-f]+/0x[0-9a-f]+$",
                                r"^smp: stopped 1 other CPU\(s\)$")),
    # Hardening: kernel text is not writable, data is not executable, and
    # a stack buffer overrun is caught by the per-boot canary.
    fault_boot("text", r"Unable to handle kernel write at virtual address ffffffc0",
               r"permission fault", r"pc : fault_write_text\+"),
    fault_boot("exec", r"Unable to handle kernel execute at virtual address",
               r"permission fault", r"lr : lkdtm_run\+"),
    fault_boot("stack",
               r"stackprotector: per-boot canary from the counter and the device tree's seed",
               r"Kernel panic - not syncing: stack-protector: kernel stack is "
               r"corrupted in fault_smash_stack\+",
               expect_in_order=(r"Call trace:", r"^\s+__stack_chk_fail\+",
                                r"^\s+fault_smash_stack\+", r"^\s+lkdtm_run\+")),
    # A thread that recurses without end runs into the guard under its
    # stack: the exception entry moves to the overflow stack and names it.
    fault_boot("overflow",
               r"Kernel stack overflow in thread init \(pid \d+\) on CPU\d+",
               r"stack ffffffe0[0-9a-f]{8}-ffffffe0[0-9a-f]{8}, guard ffffffe0",
               r"the fault address ffffffe0[0-9a-f]{8} is in the guard",
               r"translation fault, level 3",
               r"Kernel panic - not syncing: kernel stack overflow",
               expect_in_order=(r"Insufficient stack space", r"Call trace:",
                                r"^\s+fault_recurse\+", r"^\s+fault_overflow_stack\+",
                                r"^\s+lkdtm_run\+")),
    # A context switch inside a read-side section would be reported to RCU
    # as a quiescent state: __schedule() stops it.
    fault_boot("rcu_yield",
               r"^Kernel panic - not syncing: BUG at kernel/sched/core\.c:\d+: "
               r"scheduling while atomic: init/\d+/0x00000001$",
               expect_in_order=(r"yield\(\) inside rcu_read_lock\(\)", r"Call trace:",
                                r"^\s+yield\+", r"^\s+fault_rcu_yield\+",
                                r"^\s+lkdtm_run\+")),
    # debug_preempt reports this_cpu_*()/smp_processor_id() by a thread that
    # may move, each call site once, and the boot goes on. Every other
    # boot runs with it and fails on a report.
    Boot("debug-preempt-report",
         ["--smp", "2"],
         append="lkdtm=percpu_preemptible debug_preempt poweroff",
         ktap=False,
         debug=False,
         expect=(r"^lkdtm: CPU[01], CPU[01]: 2 report\(s\)$",),
         expect_in_order=(r"^BUG: using smp_processor_id\(\) in preemptible "
                          r"\[00000000\] code: init/\d+$",
                          r"^caller is fault_percpu_preemptible\+0x[0-9a-f]+/0x[0-9a-f]+$",
                          r"Call trace:", r"^\s+fault_percpu_preemptible\+",
                          r"^BUG: using this_cpu_read\(\) in preemptible "
                          r"\[00000000\] code: init/\d+$",
                          r"^caller is fault_percpu_preemptible\+0x"),
         forbid=(r"did not fault", r"Kernel panic", r"needs the debug_preempt")),
    # lockdep (make LOCKDEP=1): each detector reports its lkdtm misuse as
    # Linux prints it. Two locks taken A-B, then B-A:
    lockdep_boot("ab_ba",
                 r"^WARNING: possible circular locking dependency detected$",
                 r"^init/\d+ is trying to acquire lock:$",
                 r"^\(lkdtm_lock_a\)\{\+\.\.\.\}, at: lockdep_ab_ba\+0x",
                 r"^but task is already holding lock:$",
                 r"^\(lkdtm_lock_b\)\{\+\.\.\.\}, at: lockdep_ab_ba\+0x",
                 r"^the existing dependency chain \(in reverse order\) is:$",
                 r"^-> #1 \(lkdtm_lock_b\)", r"^\s+lockdep_ab_ba\+0x",
                 r"^-> #0 \(lkdtm_lock_a\)", r"^ \*\*\* DEADLOCK \*\*\*$",
                 r"^1 lock held by init/\d+:$", r"^ #0: \(lkdtm_lock_b\)"),
    # A lock an interrupt handler takes (hardirq-safe), ordered before
    # one taken with IRQs on (hardirq-unsafe):
    lockdep_boot("irq_inversion",
                 r"^WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected$",
                 r"^ \(lkdtm_lock_a\)\{-\.\.\.\} -> \(lkdtm_lock_b\)\{\+\.\.\.\}$",
                 r"^\.\.\. which became HARDIRQ-irq-safe at:$",
                 r"^\s+take_lock_a\+0x", r"^\s+gic_handle_irq\+0x",
                 r"^\.\.\. which became HARDIRQ-irq-unsafe at:$",
                 r"^\s+lockdep_irq_inversion\+0x", r"^  <Interrupt>$"),
    # A wait for a completion with a mutex held that its completer
    # (another thread) held when it completed one of the same class:
    lockdep_boot("wait_under_lock",
                 r"^WARNING: possible circular locking dependency detected$",
                 r"^\(done\)\{\.\.\.\.\}, at: lockdep_wait_under_lock\+0x",
                 r"^\(lkdtm_mutex\)\{\+\.\.\.\}, at: lockdep_wait_under_lock\+0x",
                 r"^-> #1 \(lkdtm_mutex\)", r"^\s+complete\+0x",
                 r"^\s+complete_pair\+0x", r"^-> #0 \(done\)"),
    # A mutex taken inside a read-side section (might_sleep()), free so
    # that nothing sleeps:
    Boot("lockdep-sleep_in_atomic", ["--image", LOCKDEP_IMAGE, "--smp", "2"],
         append="lkdtm=sleep_in_atomic poweroff", ktap=False, debug=False,
         expect_in_order=(r"^lkdtm: injecting 'sleep_in_atomic'$",
                          r"^BUG: sleeping function called from invalid context "
                          r"at kernel/sched/mutex\.c:\d+$",
                          r"^in_atomic\(\): 1, irqs_disabled\(\): 0, pid: \d+, name: init$",
                          r"^stack backtrace:$", r"^\s+mutex_lock\+0x",
                          r"^\s+lockdep_sleep_in_atomic\+0x",
                          r"^lkdtm: 'sleep_in_atomic' done$"),
         forbid=(r"Kernel panic", r"scheduling while atomic")),
    # PROVE_RCU: an RCU-protected pointer read outside a read-side section,
    # and another CPU's per-CPU area used outside one without the hotplug
    # lock.
    lockdep_boot("rcu_deref",
                 r"^WARNING: suspicious RCU usage$",
                 r"^kernel/tests/lkdtm\.c:\d+ suspicious rcu_dereference_check\(\) usage!$",
                 r"^no locks held by init/\d+\.$",
                 expect=(r"^\s+lockdep_rcu_deref\+0x",)),
    lockdep_boot("percpu_remote",
                 r"^WARNING: suspicious RCU usage$",
                 r"^kernel/tests/lkdtm\.c:\d+ per_cpu_ptr\(\) of another CPU used "
                 r"outside a read-side section and without the hotplug lock!$",
                 expect=(r"^\s+lockdep_percpu_remote\+0x",)),
    # A thread blocked forever is reported with its backtrace (then panics).
    Boot("hung-task",
         ["--smp", "2"],
         append="lkdtm=hang hung_task.timeout=2 hung_task.panic poweroff",
         ktap=False,
         expect=(r"INFO: task init \(pid \d+\) blocked for more than 2 seconds",
                 r"Kernel panic - not syncing: hung_task"),
         expect_in_order=(r"blocked for more than", r"^\s+wait_for_completion\+",
                          r"^\s+fault_hang\+")),
    # A DTB cut short: the kernel must say so and stop (no PSCI to power off).
    Boot("dtb-truncated",
         ["--smp", "2"],
         shim_dtb="truncated",
         ktap=False,
         banner=(),
         expect=(r"^dt: device tree at 0x44000000 is malformed: FDT_ERR_[A-Z]+$",
                 r"^Cannot boot: no valid device tree\.$"),
         forbid=(r"\bno device tree\b",),
         end="halt"),
    # No DTB at all (x0 = 0).
    Boot("dtb-missing",
         ["--smp", "2"],
         shim_dtb="none",
         ktap=False,
         banner=(),
         expect=(r"^dt: no device tree: the boot loader passed x0 = 0$",
                 r"^Cannot boot: no valid device tree\.$"),
         forbid=(r"\bis malformed\b",),
         end="halt"),
    # The shim with a good DTB at an address of its own (0x44000000): the
    # kernel must take the DTB from x0, wherever it is.
    Boot("dtb-via-shim",
         ["--smp", "2", "--mem", "128M"],
         shim_dtb="valid",
         append="poweroff",
         ktap=False),
    # PSCI 0.1 has no AFFINITY_INFO: no down can be confirmed, so none is
    # taken; nor SYSTEM_OFF, so the boot halts.
    Boot("psci-v01-via-shim",
         ["--smp", "4", "--mem", "256M"],
         shim_dtb="psci-0.1",
         append=f"test={HOTPLUG} poweroff",
         banner=("el", "memory", "cpus"),
         expect=(r"\bpsci: PSCI 0\.1: no AFFINITY_INFO to confirm a CPU off: CPU downs refused$",
                 r"\bCPU3: cannot take it down: the firmware cannot confirm a CPU off "
                 r"\(PSCI 0\.1 has no AFFINITY_INFO\)$",
                 r"\bok \d+ hotplug_psci01_refuses_downs$"),
         forbid=(r"\bnot confirmed off\b",),
         end="halt"),
    # PSCI 0.1's CPU_SUSPEND is the node's own ID: the same two outcomes.
    Boot("psci-v01-suspend-via-shim",
         ["--smp", "2", "--mem", "128M"],
         shim_dtb="psci-0.1",
         append="test=suspend poweroff",
         banner=("el", "memory", "cpus"),
         expect=(r"# suspend_lose_context_cycles: 2000 power-down cycles on 2 CPUs$",),
         end="halt"),
    # With hotplug.pen, PSCI 0.1 needs no AFFINITY_INFO: an offline CPU
    # parks in the kernel's pen, which confirms it, and downs work.
    Boot("psci-v01-pen-via-shim",
         ["--smp", "4", "--mem", "256M"],
         shim_dtb="psci-0.1",
         append=f"hotplug.pen test={HOTPLUG} hotplug.cycles=100 poweroff",
         banner=("el", "memory", "cpus"),
         expect=(r"\bpsci: PSCI 0\.1: offline CPUs park in the kernel's pen "
                 r"\(hotplug\.pen\)$",
                 r"hotplug_readers_never_see_poison: \d{2,} downs"),
         forbid=(r"\bnot confirmed off\b", r"\bCPU downs refused\b"),
         end="halt"),
]


# -- GICv3 at scale (make test-scale: too slow for make test's budget) ------
# 64, 256 and 512 vCPUs on a 2-core host: each boot takes minutes.
SCALE_SHELL = (
    Step(PROMPT, "off 255\r", expect=(r"\bCPU255 is down$",), timeout=600),
    Step(PROMPT, "on 255\r", expect=(r"\bCPU255 is up$",), timeout=300),
    Step(PROMPT, "off 100\r", expect=(r"\bCPU100 is down$",), timeout=300),
    Step(PROMPT, "on 100\r", expect=(r"\bCPU100 is up$",), timeout=300),
    Step(PROMPT, "hotplug\r", expect=(r"\bdowns 2 \(failed 0\), ups 25\d \(failed 0\)",),
         timeout=300),
    Step(PROMPT, "poweroff\r", timeout=300),
)

# 512, QEMU virt's most: after the suites, the CPUs with the highest Aff1
# (CPU511 is MPIDR 0x1f0f, CPU300 0x120c) down and up from the shell.
SCALE_SHELL_512 = (
    Step(PROMPT, "off 511\r", expect=(r"\bCPU511 is down$",), timeout=600),
    Step(PROMPT, "on 511\r", expect=(r"\bCPU511: online, MPIDR 0x1f0f$",
                                     r"\bCPU511 is up$"), timeout=300),
    Step(PROMPT, "off 300\r", expect=(r"\bCPU300 is down$",), timeout=300),
    Step(PROMPT, "on 300\r", expect=(r"\bCPU300: online, MPIDR 0x120c$",
                                     r"\bCPU300 is up$"), timeout=300),
    Step(PROMPT, "poweroff\r", timeout=300),
)

SCALE_BOOTS = [
    Boot("virt-smp64-gicv3",
         ["--smp", "64", "--gic", "3", "--mem", "512M"],
         append=f"test=smp,{HOTPLUG} hotplug.cycles=100 poweroff",
         timeout=1500,
         expect=(r"\bBrought up 64 of 64 CPUs$",)),
    Boot("virt-smp256-gicv3",
         ["--smp", "256", "--gic", "3", "--mem", "1G"],
         ktap=False,
         timeout=1800,
         script=SCALE_SHELL,
         expect=(r"\bBrought up 256 of 256 CPUs$",),
         forbid=(r"Kernel panic", r"rcu detected stalls")),
    Boot("virt-smp512-gicv3",
         ["--smp", "512", "--gic", "3", "--mem", "1G"],
         # hotplug_readers leaves its stop_machine design out past 64 CPUs:
         # all 512 vCPUs spinning at once crawl on 2 host cores (docs/scale.md).
         append="test=smp,hotplug,hotplug_fault,hotplug_readers",
         timeout=1200,
         script=SCALE_SHELL_512,
         expect=(r"\bBrought up 512 of 512 CPUs$",),
         forbid=(r"Kernel panic", r"rcu detected stalls")),
]

