#!/usr/bin/env python3
"""The GDB walkthrough through the firmware (docs/gdb.md, section 6), as a
batch test.

Boots `./qemu.sh --firmware tfa [--gic 3] --smp 4 --gdb` (TF-A's BL31 at EL3
as PSCI, tools/tfa/build-qemu.sh) and runs gdb-multiarch on build/kernel.elf
with BL31's symbols added by `hp-tfa`, as `make gdb` does. It follows CPU 3
from the kernel's CPU_OFF SMC into TF-A's CPU_OFF handler at EL3, to the
wait it never leaves by itself, and back in through CPU_ON: TF-A's warm
entry, then the kernel's physical secondary entry. KTAP version 1 on stdout;
one boot per GIC (GICv2, then a secure GICv3: the two BL31 builds differ).

Usage: tests/gdb_tfa_walkthrough.py [--gic 2|3] [--keep-logs] [--build DIR]
  --gic N       only that GIC's boot
  --keep-logs   print the QEMU and GDB output tails even when all passed
  --build DIR   use DIR/Image and DIR/kernel.elf (default build)
Skips (KTAP SKIP, exit status 0) where TF-A for virt is not built here.
Exit status 0 only when every check passed. QEMU is always killed.
"""

import os
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the work tree
from gdb_walkthrough import (KERNEL_ADDR, KIMAGE_VADDR, ROOT,   # noqa: E402
                             build_dir, report_walk, walk)
from harness.ktap import KtapWriter                             # noqa: E402
from harness.needs import missing                               # noqa: E402
DEADLINE_S = 45  # per boot; each normally takes a few seconds

# ---------------------------------------------------------------------------
# The GDB half: runs inside gdb-multiarch (`-x this text`), with WALK_FD (the
# write end of QEMU's stdin), WALK_PORT, WALK_BL31 (the build hp-tfa must
# pick) in the environment.

GDB_SCRIPT = r'''
import os, re
import gdb

ROOT = os.environ["WALK_ROOT"]
FD = int(os.environ["WALK_FD"])
KIMAGE_VADDR = int(os.environ["WALK_KIMAGE_VADDR"], 0)
KERNEL_ADDR = int(os.environ["WALK_KERNEL_ADDR"], 0)
BL31 = os.environ["WALK_BL31"]
CPU_OFF = 0x84000002   # PSCI CPU_OFF's function ID (SMC32)
DYING = 4              # GDB thread of CPU 3 (vCPU 3)
AFF_STATE_OFF = 1      # TF-A's aff_info_state_t
results = []


def report(ok, name, diag=""):
    results.append((bool(ok), name))
    diag = " ".join(str(diag).split())
    gdb.write(f"WALK: {'ok' if ok else 'not ok'} {name} # {diag}\n")


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def type_line(line):
    os.write(FD, (line + "\n").encode())


def val(expr):
    return int(gdb.parse_and_eval(expr)) & 0xFFFFFFFFFFFFFFFF


def func():
    f = gdb.selected_frame()
    return f.name() if f else None


def thread():
    return gdb.selected_thread().num


def el():
    """CurrentEL of the selected vCPU: PSTATE (CPSR) bits 3:2."""
    return val("$cpsr") >> 2 & 3


def where():
    return f"thread {thread()}, EL{el()}, {func() or '??'} at {val('$pc'):#x}"


def stop_at(location, kind="break", shell=None):
    """Continue to a breakpoint at location, after typing the shell command
    shell if given; the breakpoint is deleted again (a wait loop would hit
    it over and over). A stop in cpu_fw_off_seen on the way is noted and
    continued from (see note_off_seen)."""
    run(f"{kind} {location}")
    bp = gdb.breakpoints()[-1]
    if shell:
        type_line(shell)
    run("continue")
    while func() == "cpu_fw_off_seen" and off_seen_pending():
        note_off_seen()
        run("continue")
    bp.delete()


# The kernel's side of CPU_OFF: the CPU doing `off 3` polls AFFINITY_INFO
# and calls cpu_fw_off_seen() when TF-A answers OFF. TF-A records CPU 3 off
# in psci_do_cpu_off(), before its last steps, so that stop may come between
# any two of CPU 3's stops after psci_cpu_off: stop_at() takes it whenever
# it comes.
off_seen = {}
off_seen_bp = None


def off_seen_pending():
    return off_seen_bp is not None and off_seen_bp.is_valid()


def note_off_seen():
    """At the stop in cpu_fw_off_seen: its CPU argument and thread, and
    where CPU 3 is and what TF-A records for it, read through CPU 3's vCPU
    (at EL3: TF-A's memory is secure)."""
    who = thread()
    off_seen.update(cpu=val("cpu"), thread=who, el=el())
    run(f"thread {DYING}")
    off_seen.update(cpu3_in=func(), cpu3_el=el(), aff_info=cpu3_aff_info())
    # hp-cpus with CPU 3's vCPU selected, at EL3: it reads the kernel
    # through another vCPU (this stop's, at EL1) and keeps the selection.
    off_seen.update(hp_cpus=hp_cpu3(), hp_cpus_left=thread())
    run(f"thread {who}")
    off_seen_bp.delete()


def cpu3_aff_info():
    """TF-A's own record of CPU 3 (core position 3 on virt): readable only
    through a vCPU at EL3 (secure RAM)."""
    return val("percpu_data[3].psci_svc_cpu_data.aff_info_state")


def hp_cpu3():
    """hp-cpus' row for CPU 3: (online bit, state)."""
    w = run("hp-cpus").splitlines()[4].split()
    return w[3], w[4]


def final_wait():
    """The instruction CPU 3 waits on for good after CPU_OFF. TF-A 2.8's
    qemu port has a pwr_domain_pwr_down_wfi hook: MMU off, then back into
    the hold pen of a cold boot (plat_secondary_cold_boot_setup), where it
    waits in WFE for its hold word to say GO; a port without that hook
    would end in psci_power_down_wfi's WFI."""
    for fn, insn in (("plat_secondary_cold_boot_setup", "wfe"),
                     ("psci_power_down_wfi", "wfi")):
        start = val(f"(unsigned long)&{fn}")
        for line in run(f"x/32i {start:#x}").splitlines():
            m = re.search(r"(0x[0-9a-f]+)\s*<[^>]*>:\s+(\w+)", line)
            if m and m.group(2) == insn:
                return fn, insn, int(m.group(1), 16)
    return None, None, None


try:
    run(f"source {ROOT}/tools/gdb/hotplug.py")
    run("set pagination off")
    run("set confirm off")
    run("set breakpoint pending off")  # a missing symbol fails at once
    run(f"target remote :{os.environ['WALK_PORT']}")
    # Reset: every vCPU at EL3 in BL1, in the flash at 0.
    report(el() == 3 and val("$pc") == 0, "reset_at_el3_in_bl1", where())
    # What `make gdb` does: hp-tfa picks the BL31 this target runs.
    said = run("hp-tfa")
    report(BL31 in said, "hp_tfa_loads_this_bl31", said.strip())

    stop_at("shell_thread")
    report(func() == "shell_thread" and el() == 1, "boot_complete", where())

    # Down: the dying CPU's CPU_OFF call, one instruction before EL3.
    stop_at(f"arm_smccc_smc if $x0 == {CPU_OFF:#x}", shell="off 3")
    bt = run("bt 4")
    insn = run("x/i $pc")
    report(thread() == DYING and el() == 1 and "smc" in insn and
           "psci_die_cpu" in bt, "cpu_off_smc_on_cpu3_at_el1",
           f"{where()}, {insn.strip()}")
    smc_return = val("$pc") + 4
    run("stepi")
    vector = val("$VBAR_EL3") + 0x400  # synchronous, lower EL, AArch64
    report(thread() == DYING and el() == 3 and val("$pc") == vector,
           "stepi_smc_enters_el3_vector",
           f"{where()}, VBAR_EL3 + 0x400 = {vector:#x}")

    wait_fn, _, wait_addr = final_wait()  # CPU 3's vCPU is at EL3: readable
    run("break cpu_fw_off_seen")
    off_seen_bp = gdb.breakpoints()[-1]

    stop_at("psci_main.c:psci_cpu_off")
    elr, spsr = val("$ELR_EL3"), val("$SPSR_EL3")
    report(func() == "psci_cpu_off" and thread() == DYING and el() == 3 and
           elr == smc_return and spsr >> 2 & 3 == 1,
           "tfa_psci_cpu_off_on_cpu3_at_el3",
           f"{where()}, ELR_EL3 {elr:#x} (after the kernel's smc: "
           f"{smc_return:#x}), SPSR_EL3 {spsr:#x}")
    stop_at("qemu_pwr_domain_off")
    report(func() == "qemu_pwr_domain_off" and thread() == DYING and
           el() == 3, "tfa_pwr_domain_off", where())
    stop_at("qemu_pwr_domain_pwr_down_wfi")
    state = cpu3_aff_info()
    report(func() == "qemu_pwr_domain_pwr_down_wfi" and thread() == DYING and
           state == AFF_STATE_OFF, "tfa_aff_info_off_before_final_wait",
           f"{where()}, aff_info_state {state}")

    stop_at(f"*{wait_addr:#x}" if wait_addr else "plat_secondary_cold_boot_setup")
    sctlr = val("$SCTLR_EL3")
    report(wait_addr and val("$pc") == wait_addr and thread() == DYING and
           el() == 3 and sctlr & 1 == 0, "cpu3_at_its_final_wait",
           f"{where()}: {run('x/i $pc').strip()} in {wait_fn}, SCTLR_EL3 "
           f"{sctlr:#x} (MMU off)")

    # The kernel's side: AFFINITY_INFO answers OFF to the CPU doing `off 3`.
    if off_seen_pending():
        run("continue")
        if func() == "cpu_fw_off_seen":
            note_off_seen()
    report(off_seen.get("cpu") == 3 and off_seen.get("thread") != DYING and
           off_seen.get("el") == 1 and off_seen.get("cpu3_el") == 3 and
           off_seen.get("aff_info") == AFF_STATE_OFF,
           "kernel_affinity_info_says_off", off_seen or where())
    # cpu_down() is still in its steps: offline, going down.
    report(off_seen.get("hp_cpus") == ("0", "going-down") and
           off_seen.get("hp_cpus_left") == DYING,
           "hp_cpus_from_a_vcpu_at_el3",
           f"CPU 3's row {off_seen.get('hp_cpus')}, thread "
           f"{off_seen.get('hp_cpus_left')} selected after it")
    stop_at("cmd_cpus", shell="cpus")
    row = hp_cpu3()
    report(row == ("0", "off"), "hp_cpus_cpu3_off", row)

    # Up: CPU_ON at EL3 on the CPU doing `on 3`, then CPU 3's way back.
    entry_pa = (val("(unsigned long)&secondary_entry") - KIMAGE_VADDR +
                KERNEL_ADDR)
    stop_at("psci_main.c:psci_cpu_on", shell="on 3")
    target, entry = val("target_cpu"), val("entrypoint")
    report(func() == "psci_cpu_on" and thread() != DYING and el() == 3 and
           target == 3 and entry == entry_pa, "tfa_psci_cpu_on_at_el3",
           f"{where()}, target_cpu {target:#x}, entrypoint {entry:#x} "
           f"(secondary_entry's PA {entry_pa:#x})")
    stop_at("bl31_warm_entrypoint")
    sctlr = val("$SCTLR_EL3")
    report(func() == "bl31_warm_entrypoint" and thread() == DYING and
           el() == 3 and sctlr & 1 == 0, "tfa_warm_entry_on_cpu3",
           f"{where()}, SCTLR_EL3 {sctlr:#x} (MMU off)")
    stop_at("psci_warmboot_entrypoint")
    report(func() == "psci_warmboot_entrypoint" and thread() == DYING and
           el() == 3, "tfa_psci_warmboot_entrypoint", where())
    # TF-A's ERET: the kernel's entry, physical, at EL1 with the MMU off,
    # x0 = the context ID the kernel passed (the logical CPU).
    stop_at(f"*{entry_pa:#x}", "hbreak")
    sctlr, x0 = val("$SCTLR"), val("$x0")
    report(val("$pc") == entry_pa and thread() == DYING and el() == 1 and
           sctlr & 1 == 0 and x0 == 3, "kernel_secondary_entry_at_el1",
           f"{where()}, SCTLR_EL1 {sctlr:#x}, x0 {x0}")
    stop_at("secondary_start_kernel")
    report(func() == "secondary_start_kernel" and thread() == DYING,
           "kernel_secondary_start_kernel", where())
    stop_at("cmd_cpus", shell="cpus")
    row = hp_cpu3()
    report(row == ("1", "online"), "hp_cpus_cpu3_online_again", row)
except Exception as e:  # noqa: BLE001 - any failure is a test failure
    report(False, "walkthrough_aborted", f"{type(e).__name__}: {e}")
finally:
    try:
        run("kill")
    except gdb.error:
        pass
'''


# ---------------------------------------------------------------------------
# The driver.


def main():
    build = build_dir()
    start = time.monotonic()
    os.chdir(ROOT)
    gics = ["2", "3"]
    if "--gic" in sys.argv:
        gics = [sys.argv[sys.argv.index("--gic") + 1]]
    ktap = KtapWriter()
    why = missing("tfa-virt")
    failed = passed = 0
    for gic in gics:
        prefix = f"gicv{gic}." if len(gics) > 1 else ""
        bl31 = os.path.join("build", "tfa", f"qemu-gicv{gic}", "bl31.elf")
        if why or not os.path.exists(os.path.join(ROOT, bl31)):
            ktap.skip(prefix + "gdb_tfa_walkthrough", why or f"no {bl31}")
            continue
        env = dict(WALK_KIMAGE_VADDR=hex(KIMAGE_VADDR),
                   WALK_KERNEL_ADDR=hex(KERNEL_ADDR), WALK_BL31=bl31)
        results, logs = walk(GDB_SCRIPT,
                             ["--firmware", "tfa", "--gic", gic, "--smp", "4"],
                             env, build, time.monotonic() + DEADLINE_S)
        f = report_walk(ktap, results, logs, "--keep-logs" in sys.argv, prefix)
        failed, passed = failed + f, passed + max(0, len(results) - f)
    elapsed = time.monotonic() - start
    ktap.diag(f"{passed} passed, {failed} failed in {elapsed:.1f} s")
    ktap.print()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
