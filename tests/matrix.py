"""The boots that `make test` runs (read by tests/run.py).

Each Boot is one run of ./qemu.sh. Everything a boot checks counts as one
passed or failed test in the final `N passed, N failed` line:

  - every KTAP test case the kernel prints (when ktap=True);
  - the banner lines (see BANNER in run.py), checked against the qemu.sh
    options: entry EL, `Memory: N MiB` = --mem, `CPUs: N` = --smp, PSCI
    conduit (smc with --el2, hvc otherwise);
  - each regex of `expect` (somewhere in the output), of `expect_in_order`
    (one after the other, same line allowed) and of `forbid` (nowhere);
  - how the run ends: "poweroff" (QEMU exits 0 by itself: PSCI SYSTEM_OFF)
    or "halt" (the kernel prints `System halted`; the harness stops QEMU);
  - for a boot with a `script` (the monitor shell): each Step's wait, and
    each regex of its `expect` and its `check` on the reply (see Step).

Regexes are Python `re` patterns matched against each console line after its
printk timestamp `[    0.012345] ` is removed; use (?i) for case-insensitive.
To add a boot, copy an entry. Run one alone: `tests/run.py --only NAME`.
"""

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
    expect: tuple = ()           # regexes (or Groups) that must match
    expect_in_order: tuple = ()  # regexes that must match in this order
    forbid: tuple = ()           # regexes that must not match
    banner: tuple = ("el", "memory", "cpus", "psci")   # banner lines to check
    end: str = "poweroff"        # "poweroff" or "halt"
    # Boot through tests/boot-shim.S (qemu.sh --bad-dtb) with this DTB:
    #   "valid"     QEMU's own DTB for this machine, bootargs = append
    #   "truncated" its first TRUNCATED_DTB_BYTES bytes
    #   "none"      no DTB at all (x0 = 0)
    #   a path      that file
    shim_dtb: str = ""
    timeout: int = 0             # seconds; 0 = the harness default (60)
    script: tuple = ()           # Steps typed into the console (see Step)


TRUNCATED_DTB_BYTES = 200

# The register dump of a kernel panic: x0..x29 each printed as `xN: value`
# (or `xN : value`, `xN=value`).
REGISTERS = Group("registers x0..x29",
                  [rf"\bx{n}\s*[:=]\s*(0x)?[0-9a-fA-F]+" for n in range(30)])

BOOTS = [
    # -- the in-kernel tests (KTAP) in several machine configurations --------
    Boot("virt-smp1-128M",
         ["--smp", "1", "--mem", "128M", "--cpu", "cortex-a53"],
         append="test=all poweroff"),
    Boot("virt-smp4-2G",
         ["--smp", "4", "--mem", "2G", "--cpu", "cortex-a53"],
         append="test=all poweroff"),
    Boot("virt-el2-smp4",
         ["--el2", "--smp", "4"],
         append="test=all poweroff"),
    Boot("virt-uboot-smp4",
         ["--uboot", "--smp", "4", "--mem", "256M"],
         append="test=all poweroff"),

    # -- negative tests: expected lines, no KTAP ------------------------------
    # A write to .rodata must end in a panic with a full report and a
    # symbolised call trace, then power off.
    Boot("fault-rodata",
         ["--smp", "2"],
         append="fault=rodata poweroff",
         ktap=False,
         expect=(r"Kernel panic", r"\bESR\b", r"\bFAR\b", r"\bELR\b", REGISTERS),
         expect_in_order=(r"Call trace:",
                          r"^\s+fault_inject\+0x[0-9a-f]+/0x[0-9a-f]+")),
    # A DTB cut short: the kernel must say so and stop (no PSCI to power off).
    Boot("dtb-truncated",
         ["--smp", "2"],
         shim_dtb="truncated",
         ktap=False,
         banner=(),
         expect=(r"(?i)device tree",),
         end="halt"),
    # No DTB at all (x0 = 0).
    Boot("dtb-missing",
         ["--smp", "2"],
         shim_dtb="none",
         ktap=False,
         banner=(),
         expect=(r"(?i)device tree",),
         end="halt"),
    # The shim with a good DTB at an address of its own (0x44000000): the
    # kernel must take the DTB from x0, wherever it is.
    Boot("dtb-via-shim",
         ["--smp", "2", "--mem", "128M"],
         shim_dtb="valid",
         append="poweroff",
         ktap=False),
]
