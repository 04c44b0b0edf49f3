"""GDB helpers for the hotplug kernel, in the spirit of Linux's scripts/gdb.

Loaded by `make gdb` (or `source tools/gdb/hotplug.py`):

  hp-log          the kernel log ring (log_buf), readable even after a hang
  hp-cpus         logical CPU, GDB thread, MPIDR, online bit, hotplug state,
                  per-CPU area, for every CPU the kernel knows
  hp-rcu          grace-period state, CPUs owing, callbacks per CPU
  $hp_per_cpu(var, cpu)   the address of cpu's copy of a per-CPU variable

GDB threads are matched to logical CPUs by MPIDR (each vCPU's MPIDR_EL1
register), never by thread order.
"""
import gdb

PHASES = ["off", "coming-up", "online", "going-down", "unconfirmed"]


def sym(name):
    return gdb.parse_and_eval(name)


def mask_test(mask, cpu):
    bits = mask["bits"]
    return bool(int(bits[cpu // 64]) >> (cpu % 64) & 1)


def nr_cpu_ids():
    return int(sym("nr_cpu_ids"))


def vcpu_mpidr():
    """The selected vCPU's MPIDR: its MPIDR_EL1 where the gdbstub shows it;
    QEMU 7.2's does not, so else the MPIDR of the logical CPU its current
    thread (SP_EL0) last ran on."""
    try:
        return int(gdb.parse_and_eval("$MPIDR_EL1")) & 0xff00ffffff
    except gdb.error:
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

    def invoke(self, var, cpu):
        off = int(sym(f"__per_cpu_offset[{int(cpu)}]"))
        addr = (int(var.address) + off) & 0xffffffffffffffff
        return gdb.Value(addr).cast(var.type.pointer())


HpLog()
HpCpus()
HpRcu()
HpPerCpu()
