"""GDB helpers for the hotplug kernel, in the spirit of Linux's scripts/gdb.

Loaded by `make gdb` (or `source tools/gdb/hotplug.py`):

  hp-log          the kernel log ring (log_buf), readable even after a hang
  hp-cpus         logical CPU, GDB thread, MPIDR, online bit, hotplug state,
                  per-CPU area, for every CPU the kernel knows
  hp-rcu          grace-period state, CPUs owing, callbacks per CPU
  $hp_per_cpu(var, cpu)   the address of cpu's copy of a per-CPU variable
  hp-tfa [FILE]   on a TF-A boot (./qemu.sh --firmware tfa), BL31's symbols
                  too: FILE, or the build under build/tfa/ whose BL31 the
                  target runs

GDB threads are matched to logical CPUs by MPIDR (each vCPU's MPIDR_EL1
register), never by thread order.
"""
import functools
import os
import struct

import gdb

PHASES = ["off", "coming-up", "online", "going-down", "unconfirmed"]


def sym(name):
    return gdb.parse_and_eval(name)


def register(name):
    """The selected vCPU's register name as an int, or None where the
    gdbstub has no such register ($NAME would be a void convenience
    variable then)."""
    try:
        return int(gdb.selected_frame().read_register(name)) & (2**64 - 1)
    except ValueError:
        return None


def current_el():
    """The selected vCPU's exception level, from PSTATE (CPSR) bits 3:2."""
    return int(gdb.parse_and_eval("$cpsr")) >> 2 & 3


def sees_kernel():
    """Can the selected vCPU read the kernel's addresses? The gdbstub reads
    through its current translation regime: at EL3 (in TF-A: an idle CPU in
    its standby, a CPU in a PSCI call) that is the firmware's flat map of
    secure memory, and at EL1 with the MMU off (a CPU entering) none."""
    el = current_el()
    sctlr = register("SCTLR") if el == 1 else None
    return el < 3 and (sctlr is None or sctlr & 1 == 1)


def kernel_view():
    """Select a vCPU that sees the kernel, for reading its memory; the one
    selected before, to switch back to afterwards."""
    current = gdb.selected_thread()
    if current is None or sees_kernel():
        return current
    for thread in gdb.selected_inferior().threads():
        thread.switch()
        if sees_kernel():
            return current
    current.switch()
    raise gdb.GdbError("no vCPU sees the kernel's memory now (each is at "
                       "EL3, in the firmware, or has its MMU off): stop in "
                       "the kernel first")


def in_kernel_view(invoke):
    """A helper's invoke, run with kernel_view()'s vCPU selected."""
    @functools.wraps(invoke)
    def run(*args):
        before = kernel_view()
        try:
            return invoke(*args)
        finally:
            if before is not None:
                before.switch()
    return run


def mask_test(mask, cpu):
    bits = mask["bits"]
    return bool(int(bits[cpu // 64]) >> (cpu % 64) & 1)


def nr_cpu_ids():
    return int(sym("nr_cpu_ids"))


def vcpu_mpidr():
    """The selected vCPU's MPIDR: its MPIDR_EL1 where the gdbstub shows it
    (QEMU 7.2's and 10's do not); else VMPIDR_EL2, which resets to the
    MPIDR and which only a hypervisor changes, where there is one (a vCPU
    with EL3, whose SP_EL0 is the firmware's while it runs there); else the
    MPIDR of the logical CPU its current thread (SP_EL0) last ran on."""
    for name in ("MPIDR_EL1", "VMPIDR_EL2"):
        value = register(name)
        if value is not None:
            return value & 0xff00ffffff
    task = gdb.parse_and_eval("(struct task_struct *)$SP_EL0")
    cpu = int(task["cpu"])
    return int(sym(f"board.cpus[{cpu}].mpidr"))


def thread_mpidrs():
    """{mpidr: gdb thread number} over every vCPU."""
    found = {}
    current = gdb.selected_thread()
    for thread in gdb.selected_inferior().threads():
        thread.switch()
        try:
            found[vcpu_mpidr()] = thread.num
        except gdb.error:
            continue
    if current is not None:
        current.switch()
    return found


class HpLog(gdb.Command):
    """Print the kernel log ring: hp-log [BYTES]."""

    def __init__(self):
        super().__init__("hp-log", gdb.COMMAND_DATA)

    @in_kernel_view
    def invoke(self, arg, from_tty):
        size = int(sym("sizeof(log_buf)"))
        head = int(sym("log_head"))
        want = int(arg) if arg.strip() else size
        n = min(want, head, size)
        start = (head - n) % size
        buf = bytes(gdb.selected_inferior().read_memory(
            int(sym("(unsigned long)&log_buf")), size))
        text = buf[start:] + buf[:start] if start + n > size else buf[start:start + n]
        gdb.write(text[-n:].decode("ascii", "replace"))


class HpCpus(gdb.Command):
    """Logical CPUs: GDB thread, MPIDR, online bit, hotplug state, area."""

    def __init__(self):
        super().__init__("hp-cpus", gdb.COMMAND_DATA)

    @in_kernel_view
    def invoke(self, arg, from_tty):
        threads = thread_mpidrs()
        online = sym("__cpu_online_mask")
        gdb.write("CPU THREAD      MPIDR ONLINE STATE      PERCPU-AREA\n")
        for cpu in range(nr_cpu_ids()):
            mpidr = int(sym(f"board.cpus[{cpu}].mpidr"))
            phase = int(sym(f"cpu_phase[{cpu}]"))
            off = int(sym(f"__per_cpu_offset[{cpu}]"))
            base = int(sym("(unsigned long)__per_cpu_start"))
            area = (off + base) & 0xffffffffffffffff
            area_s = "-" if area == 0xdead000000000000 else f"{area:#x}"
            gdb.write(f"{cpu:3} {threads.get(mpidr, '-')!s:>6} {mpidr:#10x} "
                      f"{int(mask_test(online, cpu)):6} {PHASES[phase]:<10} {area_s}\n")


class HpRcu(gdb.Command):
    """RCU: grace period, CPUs owing a quiescent state, callbacks."""

    def __init__(self):
        super().__init__("hp-rcu", gdb.COMMAND_DATA)

    @in_kernel_view
    def invoke(self, arg, from_tty):
        rs = sym("rcu_state")
        seq, done = int(rs["gp_seq"]), int(rs["gp_completed"])
        # Each leaf of the combining tree holds the bits of the CPUs from
        # its grplo on (rcu.h); leaf 1 starts where leaf 0's CPUs end.
        nodes = rs["nodes"]
        fanout = (int(nodes[1]["grplo"]) if int(rs["nr_nodes"]) > 1
                  else nr_cpu_ids())
        owing = [c for c in range(nr_cpu_ids())
                 if int(nodes[c // fanout]["qsmask"]) >> (c % fanout) & 1]
        gdb.write(f"grace period {seq}, completed {done}, CPUs owing: "
                  f"{owing if seq != done else []}\n")
        gdb.write("CPU   QUEUED  INVOKED   DONE   WAIT   NEXT\n")
        for cpu in range(nr_cpu_ids()):
            rdp = sym(f"rcu_data[{cpu}]")
            gdb.write(f"{cpu:3} {int(rdp['queued']):8} {int(rdp['invoked']):8} "
                      f"{int(rdp['done']['len']):6} {int(rdp['wait']['len']):6} "
                      f"{int(rdp['next']['len']):6}\n")


class HpPerCpu(gdb.Function):
    """$hp_per_cpu(var, cpu): pointer to cpu's copy of per-CPU var."""

    def __init__(self):
        super().__init__("hp_per_cpu")

    @in_kernel_view
    def invoke(self, var, cpu):
        off = int(sym(f"__per_cpu_offset[{int(cpu)}]"))
        addr = (int(var.address) + off) & 0xffffffffffffffff
        return gdb.Value(addr).cast(var.type.pointer())


# TF-A for QEMU virt as tools/tfa/build-qemu.sh leaves it: one build per GIC,
# each a flash image (BL1, then the FIP with BL31 in it) and BL31's ELF,
# linked at its run address in secure RAM. The tree's root is found from this
# file's own name as its code knows it: __file__ is the outer script's when
# a script sources this one.
TFA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(sym.__code__.co_filename)))), "build", "tfa")
TFA_BUILDS = ("qemu-gicv2", "qemu-gicv3")


def has_el3():
    """Does the target have EL3 at all (virt with secure=on, the Pis)?"""
    return register("SCTLR_EL3") is not None


def elf_text(path):
    """(address, bytes) of an ELF64 file's .text section."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)

    def section(i):
        # name, type, flags, addr, offset, size
        return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    strtab = section(shstrndx)
    for i in range(shnum):
        name, _, _, addr, off, size = section(i)
        end = data.index(b"\0", strtab[4] + name)
        if data[strtab[4] + name:end] == b".text":
            return addr, data[off:off + size]
    raise gdb.GdbError(f"{path}: no .text section")


def read_or_none(addr, size):
    try:
        return bytes(gdb.selected_inferior().read_memory(addr, size))
    except gdb.MemoryError:
        return None


def tfa_runs(build):
    """Is build's BL31 the one on the target? Its .text is compared where a
    vCPU at EL3 sees it: in secure RAM at its run address (once BL2 has
    loaded it) or in the flash at address 0 (before: the reset state that
    ./qemu.sh --gdb stops in). Only EL3 sees either. None: no vCPU at EL3."""
    elf = os.path.join(TFA_DIR, build, "bl31.elf")
    flash = os.path.join(TFA_DIR, build, "flash.bin")
    if not (os.path.exists(elf) and os.path.exists(flash)):
        return False
    addr, text = elf_text(elf)
    with open(flash, "rb") as f:
        in_flash = f.read().find(text)
    places = [addr] + ([in_flash] if in_flash >= 0 else [])
    seen_el3 = False
    current = gdb.selected_thread()
    try:
        for thread in gdb.selected_inferior().threads():
            thread.switch()
            if current_el() != 3:
                continue
            seen_el3 = True
            if any(read_or_none(a, len(text)) == text for a in places):
                return True
    finally:
        current.switch()
    return False if seen_el3 else None


class HpTfa(gdb.Command):
    """Load BL31's symbols (TF-A at EL3): hp-tfa [FILE].

With no FILE, the build under build/tfa/ (tools/tfa/build-qemu.sh) whose
BL31 the target runs; it is linked at its run address, so the symbols need
no offset. BL31 runs at EL3 in secure RAM, flat-mapped: its breakpoints
are hit, and its memory is readable, only through a vCPU that is at EL3
(CPSR bits 3:2 = 3); the kernel's, only through one at EL1. Names that
both define (psci_cpu_off, psci_cpu_on) want the file: break
psci_main.c:psci_cpu_off."""

    def __init__(self):
        super().__init__("hp-tfa", gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        path = arg.strip()
        if not path:
            if not has_el3():
                gdb.write("hp-tfa: no EL3 on this target, no firmware "
                          "symbols to load\n")
                return
            found = {b: tfa_runs(b) for b in TFA_BUILDS}
            if None in found.values():
                gdb.write("hp-tfa: no vCPU is at EL3 now, none can read "
                          "the firmware; name it: hp-tfa FILE\n")
                return
            match = [b for b, ok in found.items() if ok]
            if not match:
                gdb.write(f"hp-tfa: no BL31 under {TFA_DIR} is the one "
                          "this target runs (tools/tfa/build-qemu.sh)\n")
                return
            path = os.path.join(TFA_DIR, match[0], "bl31.elf")
        if not os.path.exists(path):
            raise gdb.GdbError(f"hp-tfa: {path} not found")
        if any(o.filename == os.path.abspath(path) for o in gdb.objfiles()):
            gdb.write(f"hp-tfa: {path} is loaded already\n")
            return
        gdb.execute(f"add-symbol-file {path}", to_string=True)
        # Its sources, for `list`, wherever it was built (build-qemu.sh
        # keeps them beside the builds).
        if os.path.isdir(os.path.join(TFA_DIR, "src")):
            gdb.execute(f"directory {os.path.join(TFA_DIR, 'src')}",
                        to_string=True)
        gdb.write(f"hp-tfa: BL31 symbols from {os.path.relpath(path)}\n")


HpLog()
HpCpus()
HpRcu()
HpPerCpu()
HpTfa()
