#!/usr/bin/env python3
"""The GDB walkthrough of docs/gdb.md, as a batch test.

Boots `./qemu.sh --smp 4 --gdb --gdb-port PORT` (a free port) with a pipe as
its stdin (the kernel shell reads the UART from it), then runs
`gdb-multiarch -q -batch -nx build/kernel.elf -x SCRIPT` where SCRIPT is the
GDB Python half of this file. It stops at each stage of taking CPU 3 down
(`off 3`) and bringing it back (`on 3`), down to the physical secondary
entry with the MMU off, and prints KTAP version 1 on stdout.

Usage: tests/gdb_walkthrough.py [--keep-logs] [--build DIR]
  --keep-logs   print the QEMU and GDB output tails even when all passed
  --build DIR   use DIR/Image and DIR/kernel.elf (default build), e.g. a
                `make B=DIR DEBUG=1` tree
Exit status 0 only when every check passed. QEMU is always killed.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter                # noqa: E402
from harness.qemu import qemu_sh_argv, stop        # noqa: E402
DEADLINE_S = 45  # the whole run; the test normally takes well under that
QEMU_TIMEOUT = 120  # qemu.sh's own, should this script die before killing it

# Kernel image layout: linked at KIMAGE_VADDR (linker.ld), and `qemu -kernel`
# loads an Image with text_offset 0 at RAM + 2 MiB (qemu.sh KERNEL_ADDR).
KIMAGE_VADDR = 0xFFFFFFC000000000
KERNEL_ADDR = 0x40200000

# The down path of kernel/hotplug/core.c, in the order the stops come: the steps
# run from the bottom of cpuhp_steps[] (on the CPU doing `off 3`), except
# the down callbacks of tick:starting, irqchip:starting and rcu:starting and
# psci_cpu_off, which CPU 3 runs itself from arch_cpu_idle_dead() once
# __cpu_teardown() asks it to go.
DOWN_STOPS = [
    ("online_down", "cpu:online, the online bit is cleared"),
    ("kthreads_park_cpu", "kthreads:park, its threads parked"),
    ("sched_cpu_deactivate", "sched:active, its active bit cleared"),
    ("rcu_sync_down", "rcu:sync, the grace period"),
    ("sched_cpu_drain", "sched:drain, threads moved off it"),
    ("irqchip_dying", "irqchip:starting's down, GIC CPU interface off (on CPU 3)"),
    ("psci_cpu_off", "PSCI CPU_OFF (on CPU 3)"),
    ("timers_down", "timers:dead, its timers migrated"),
    ("percpu_down", "percpu:area, its per-CPU area freed"),
]

# ---------------------------------------------------------------------------
# The GDB half: runs inside gdb-multiarch (`-x this file`), with WALK_FD (the
# write end of QEMU's stdin), WALK_QEMU_LOG, WALK_PORT in the environment.

GDB_SCRIPT = r'''
import os, re, time
import gdb

ROOT = os.environ["WALK_ROOT"]
FD = int(os.environ["WALK_FD"])
QEMU_LOG = os.environ["WALK_QEMU_LOG"]
KIMAGE_VADDR = int(os.environ["WALK_KIMAGE_VADDR"], 0)
KERNEL_ADDR = int(os.environ["WALK_KERNEL_ADDR"], 0)
DOWN_STOPS = [s.split(":", 1) for s in os.environ["WALK_DOWN"].split(";")]
results = []


def report(ok, name, diag=""):
    results.append((bool(ok), name))
    diag = " ".join(str(diag).split())
    gdb.write(f"WALK: {'ok' if ok else 'not ok'} {name} # {diag}\n")


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def type_line(line):
    os.write(FD, (line + "\n").encode())


def pc():
    return int(gdb.parse_and_eval("$pc")) & 0xFFFFFFFFFFFFFFFF


def func():
    f = gdb.selected_frame()
    return f.name() if f else None


def phys(symbol):
    va = int(gdb.parse_and_eval(f"(unsigned long)&{symbol}"))
    return va - KIMAGE_VADDR + KERNEL_ADDR


def sctlr():
    """SCTLR_EL1, or None: QEMU 7.2's gdbstub calls it $SCTLR."""
    for name in ("$SCTLR_EL1", "$SCTLR"):
        try:
            return int(gdb.parse_and_eval(name)) & 0xFFFFFFFFFFFFFFFF
        except gdb.error:
            continue
    return None


_last_stop = [None]


def cont_to(expect):
    """Continue until a stop in function expect; the stop's function. A
    stop at the very breakpoint the same thread stood on is not a new one:
    GDB steps over a breakpoint before it continues, and on a busy host
    the vCPU may take an interrupt instead of that step and come back to
    the breakpoint: continue again, a few times at most. (No step of the
    walk stops twice in a row at one breakpoint of one thread.)"""
    for _ in range(4):
        run("continue")
        here = (gdb.selected_thread().num, pc())
        if here != _last_stop[0]:
            break
    _last_stop[0] = here
    return func()


def let_print_then_stop():
    """Let the command being run print, stop at the next one (`hotplug`);
    the console log so far."""
    run("break cmd_hotplug")
    type_line("hotplug")
    cont_to("cmd_hotplug")
    run("delete")
    time.sleep(0.2)
    return open(QEMU_LOG, errors="replace").read()


# Where an idle CPU waits (kernel/sched/idle.c; cpu_do_idle() may be inlined).
IDLE_LOOP = {"cpu_do_idle", "cpu_startup_entry"}


def bt_text(depth=12):
    """The selected thread's backtrace as GDB prints it."""
    try:
        return run(f"bt {depth}")
    except gdb.error as e:  # e.g. a frame in memory no longer mapped
        return str(e)


def bt_funcs(depth=12, text=None):
    """The selected thread's backtrace, innermost first, as function names
    (inlined frames included)."""
    bt = bt_text(depth) if text is None else text
    return re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+) \(", bt, re.M)


# What GDB prints when a frame chain does not end in a zero frame record.
BAD_CHAIN = re.compile(r"^.*(?:corrupt stack|previous frame identical|"
                       r"Backtrace stopped).*$", re.M)


# Where every stack starts (arch/arm64/head.S, switch.S): outermost frames.
STACK_ENTRIES = ("primary_switched", "secondary_switched", "ret_from_fork")


def report_chain_ends(name, text):
    """The backtrace ends at a stack's entry, with no complaint from GDB
    (before the final frame records it said "previous frame identical to
    this frame (corrupt stack?)")."""
    bad = BAD_CHAIN.search(text)
    funcs = bt_funcs(text=text)
    report(not bad and funcs and funcs[-1] in STACK_ENTRIES, name,
           (bad.group(0) + ": " if bad else "") + " <- ".join(funcs))


def idle_backtraces(threads, exclude):
    """{thread: backtrace} of every halted (WFI) vCPU in the `info threads`
    text but the selected one and exclude; the selection is kept."""
    here = gdb.selected_thread().num
    out = {}
    for m in re.finditer(r"^\*?\s+(\d+)\s.*\[halted ?\]", threads, re.M):
        t = int(m.group(1))
        if t != here and t not in exclude:
            run(f"thread {t}")
            out[t] = bt_funcs()
    run(f"thread {here}")
    return out


def step_name(s):
    return re.sub(r"[^A-Za-z0-9_]+", "_", s).strip("_")


try:
    run(f"source {ROOT}/tools/gdb/hotplug.py")
    run("set pagination off")
    run("set confirm off")
    run("set breakpoint pending off")  # a missing symbol fails at once
    run(f"target remote :{os.environ['WALK_PORT']}")
    # QEMU starts every vCPU halted at its boot stub at the start of RAM,
    # which jumps to the Image: catch primary_entry there, MMU off.
    report(pc() < KERNEL_ADDR, "halted_in_qemu_boot_stub", f"pc {pc():#x}")
    run(f"hbreak *{KERNEL_ADDR:#x}")
    cont_to(None)
    s = sctlr()
    report(pc() == KERNEL_ADDR and (s is None or s & 1 == 0),
           "primary_entry_physical_mmu_off",
           f"pc {pc():#x} ({run('x/i $pc').strip()}), SCTLR_EL1 "
           f"{'not exposed' if s is None else hex(s)}")
    run("delete")

    # 1. Boot to the shell: its thread's first instruction.
    run("break shell_thread")
    fn = cont_to("shell_thread")
    online = int(gdb.parse_and_eval("__cpu_online_mask.bits[0]"))
    report(fn == "shell_thread" and online == 0xF, "boot_complete",
           f"stopped in {fn}, online mask {online:#x}")
    report_chain_ends("bt_thread_ends_at_ret_from_fork", bt_text(40))
    run("delete")

    # 2. `off 3`, one stop per stage of the down path.
    for f, _ in DOWN_STOPS:
        run(f"break {f}")
    type_line("off 3")
    for f, what in DOWN_STOPS:
        fn = cont_to(f)
        diag = f"{what}: stopped in {fn} at {pc():#x}"
        ok = fn == f
        if f == "online_down":
            ok = ok and int(gdb.parse_and_eval("cpu")) == 3
        if f == "kthreads_park_cpu":
            bit = int(gdb.parse_and_eval("__cpu_online_mask.bits[0]")) >> 3 & 1
            ok = ok and bit == 0
            diag += f", CPU3 online bit {bit}"
        if f == "psci_cpu_off":
            cpu = int(gdb.parse_and_eval("((struct task_struct *)$SP_EL0)->cpu"))
            ok = ok and cpu == 3
            diag += f", current task on CPU{cpu}"
            chain = bt_text(40)  # its stack is still mapped here
        report(ok, f"down_{f}", diag)
        if f == "psci_cpu_off":
            report_chain_ends("bt_psci_cpu_off_ends_at_secondary_entry",
                              chain)
    run("delete")

    # 3. After the down: the shell's next command, `cpus`, is the stop.
    run("break cmd_cpus")
    type_line("cpus")
    fn = cont_to("cmd_cpus")
    report(fn == "cmd_cpus", "down_complete", f"stopped in {fn}")
    threads = run("info threads")
    gdb.write(threads)
    # QEMU lists every vCPU; a powered-off one is "halted" (CPU 3 = thread 4).
    t4 = [l for l in threads.splitlines() if re.match(r"^\*?\s+4\s", l)]
    report(t4 and "halted" in t4[0], "info_threads_cpu3_halted",
           t4[0].strip() if t4 else "no thread 4")
    # "halted" only says WFI or off: an idle CPU is halted too. The frames
    # tell them apart: CPU 3 made its last call in psci_cpu_off() (inlined
    # into psci_die_cpu(), under psci_call() and arm_smccc_hvc()), an idle
    # online CPU sits in its idle loop.
    here = gdb.selected_thread().num
    run("thread 4")
    bt = bt_funcs()
    report("psci_cpu_off" in bt, "bt_cpu3_in_psci_cpu_off",
           " <- ".join(bt) or "no frames")
    run(f"thread {here}")
    # The idle CPUs at this stop; if all happened to be busy (a tick, an
    # RCU thread), the next stops of section 3 look again.
    idle_bt = idle_backtraces(threads, (4,))
    hp = run("hp-cpus")
    gdb.write(hp)
    hp_online = {}
    for line in hp.splitlines()[1:]:
        w = line.split()
        hp_online[int(w[0])] = (w[3] == "1", w[4])
    report(hp_online.get(3) == (False, "off") and
           all(hp_online.get(c) == (True, "online") for c in (0, 1, 2)),
           "hp_cpus_cpu3_offline", repr(hp_online))
    # Let cmd_cpus print, stop again at the next prompt's command.
    run("delete")
    log = let_print_then_stop()
    if not idle_bt:
        idle_bt = idle_backtraces(run("info threads"), (4,))
    shell = {}
    table = log[log.rfind("CPU        MPIDR STATE"):]
    for line in table.splitlines()[1:]:
        m = re.match(r"(?:\[\s*[0-9.]+\])?\s*(\d+)\s+0x[0-9a-f]+\s+(\S+)",
                     line)
        if not m:
            break
        shell[int(m.group(1))] = m.group(2)
    agree = shell and all(shell.get(c) == hp_online[c][1] and
                          (shell[c] == "online") == hp_online[c][0]
                          for c in hp_online)
    report(agree, "hp_cpus_agrees_with_shell_cpus",
           f"shell {shell}, hp-cpus {hp_online}")
    # The per-CPU areas: hp-cpus' last column against the shell's.
    shell_area, hp_area = {}, {}
    for line in table.splitlines()[1:]:
        m = re.match(r"(?:\[\s*[0-9.]+\])?\s*(\d+)\s+0x[0-9a-f]+\s+online\s.*\s(0x[0-9a-f]+)$",
                     line.strip())
        if m:
            shell_area[int(m.group(1))] = int(m.group(2), 16)
    for line in hp.splitlines()[1:]:
        w = line.split()
        if w[4] == "online":
            hp_area[int(w[0])] = int(w[-1], 16)
    report(shell_area and shell_area == hp_area, "hp_cpus_areas_agree_with_shell",
           f"shell {shell_area}, hp-cpus {hp_area}")
    # hp-rcu against the shell's `rcu` for the same moment: stop as the
    # command starts, read hp-rcu, let it print. Grace periods may move in
    # between (a callback of the down), so up to three tries must agree.
    def rcu_fields(text):
        gp = re.search(r"grace period (\d+), completed (\d+)", text)
        rows = re.findall(r"^(?:\[\s*[0-9.]+\])?\s*(\d+)\s+(\d+)\s+(\d+)\s",
                          text, re.M)
        return (gp.groups() if gp else None,
                [tuple(int(x) for x in r) for r in rows])
    rcu_agree, rcu_diag = False, ""
    for attempt in range(3):
        run("break cmd_rcu")
        type_line("rcu")
        cont_to("cmd_rcu")
        hp_rcu = run("hp-rcu")
        run("delete")
        log = let_print_then_stop()
        if not idle_bt:
            idle_bt = idle_backtraces(run("info threads"), (4,))
        shell_rcu = log[log.rfind("hpk> rcu"):log.rfind("hpk> hotplug")]
        mine, theirs = rcu_fields(hp_rcu), rcu_fields(shell_rcu)
        rcu_diag = f"hp-rcu {mine}, shell {theirs}"
        if mine[0] and mine[1] and mine == theirs:
            rcu_agree = True
            break
    report(rcu_agree, "hp_rcu_agrees_with_shell_rcu", rcu_diag)
    report(idle_bt and all(IDLE_LOOP & set(b) for b in idle_bt.values()),
           "bt_idle_cpus_in_idle_loop",
           "; ".join(f"thread {t}: {' <- '.join(b)}"
                     for t, b in idle_bt.items()) or "no halted online CPU")
    # hp-log reads the ring: it holds what the console printed.
    hplog = run("hp-log")
    report("CPU3 is down" in hplog and "Boot complete." in hplog,
           "hp_log_has_console_lines",
           f"{len(hplog.splitlines())} lines from the ring")

    # 4. `on 3`: CPU_ON, then the physical entry with the MMU off.
    entry_pa = phys("secondary_entry")
    run("break psci_cpu_on")
    type_line("on 3")
    fn = cont_to("psci_cpu_on")
    report(fn == "psci_cpu_on", "up_psci_cpu_on", f"stopped in {fn}")
    run("delete")
    # At -O2 psci_cpu_on() is inlined and its arguments optimized out: read
    # them at the firmware call itself (x0 = CPU_ON, x1 = MPIDR, x2 = entry).
    run("break *(unsigned long)psci.invoke if $x0 == 0xc4000003")
    cont_to(None)
    mpidr = int(gdb.parse_and_eval("$x1"))
    arg = int(gdb.parse_and_eval("$x2"))
    report(arg == entry_pa and mpidr == 3, "up_cpu_on_call_entry_is_physical",
           f"CPU_ON x1 (MPIDR) {mpidr:#x}, x2 (entry) {arg:#x}, "
           f"secondary_entry from the ELF {entry_pa:#x}")
    run("delete")
    run(f"hbreak *{entry_pa:#x}")
    cont_to(None)
    s = sctlr()
    thread = gdb.selected_thread().num
    report(pc() == entry_pa and (s is None or s & 1 == 0) and thread == 4,
           "up_secondary_entry_physical_mmu_off",
           f"pc {pc():#x}, thread {thread}, SCTLR_EL1 "
           f"{'not exposed' if s is None else hex(s)}")
    run("delete")
    # The instruction after `msr sctlr_el1, x2` in __enable_mmu (still the
    # identity map, so its physical address), then the jump to the VA.
    dis = run(f"x/48i {phys('__enable_mmu'):#x}")
    after = None
    lines = dis.splitlines()
    for i, l in enumerate(lines):
        if "msr" in l and "sctlr_el1" in l.lower():
            after = int(re.search(r"0x[0-9a-f]+", lines[i + 1]).group(0), 16)
            break
    run(f"hbreak *{after:#x}" if after else "hbreak __enable_mmu")
    cont_to(None)
    s = sctlr()
    report(after and pc() == after and (s is None or s & 1 == 1),
           "up_mmu_on_in___enable_mmu",
           f"pc {pc():#x}, SCTLR_EL1 {'not exposed' if s is None else hex(s)}")
    run("delete")
    run("hbreak secondary_switched")
    fn = cont_to("secondary_switched")
    report(fn == "secondary_switched" and pc() >= KIMAGE_VADDR,
           "up_secondary_switched_virtual", f"{fn} at {pc():#x}")
    run("delete")
    run("break secondary_start_kernel")
    fn = cont_to("secondary_start_kernel")
    report(fn == "secondary_start_kernel", "up_secondary_start_kernel",
           f"stopped in {fn}")
    run("delete")
    run("break cmd_cpus")
    type_line("cpus")
    cont_to("cmd_cpus")
    hp = run("hp-cpus")
    gdb.write(hp)
    w = hp.splitlines()[4].split()
    report(w[3] == "1" and w[4] == "online", "hp_cpus_cpu3_online_again",
           hp.splitlines()[4])
    run("delete")
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, until):
    while time.monotonic() < until and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def tail(path, n=60):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return "(no output)\n"


def walk(gdb_script, qemu_options, env, build, until, append=""):
    """Boots `./qemu.sh --gdb --gdb-port PORT` (a free port) with qemu_options,
    a pipe as its stdin, and runs gdb_script in `gdb-multiarch -batch` on
    build/kernel.elf with env (plus WALK_ROOT, WALK_FD: the pipe's write
    end, WALK_QEMU_LOG, WALK_PORT) until the monotonic time until. The
    script's "WALK: ok|not ok NAME # DIAG" lines, as {name: (ok, diag)} in
    their order, and the tails of the QEMU and GDB output. QEMU and GDB are
    always killed."""
    tmp = tempfile.mkdtemp(prefix="gdb-walk-")
    qemu_log = os.path.join(tmp, "qemu.log")
    gdb_log = os.path.join(tmp, "gdb.log")
    script = os.path.join(tmp, "walk.py")
    with open(script, "w") as f:
        f.write(gdb_script)
    port = free_port()
    rfd, wfd = os.pipe()
    qemu = gdb = None
    results = {}
    try:
        with open(qemu_log, "w") as qlog:
            qemu = subprocess.Popen(
                qemu_sh_argv([*qemu_options, "--gdb", "--gdb-port", str(port),
                              "--image", os.path.join(build, "Image")], QEMU_TIMEOUT,
                             append=append),
                stdin=rfd, stdout=qlog, stderr=subprocess.STDOUT,
                start_new_session=True)
        os.close(rfd)
        rfd = -1
        if not wait_port(port, qemu, until):
            results["gdbstub_listening"] = (False, f"port {port}")
        else:
            env = dict(os.environ, WALK_ROOT=ROOT, WALK_FD=str(wfd),
                       WALK_QEMU_LOG=qemu_log, WALK_PORT=str(port), **env)
            with open(gdb_log, "w") as glog:
                gdb = subprocess.Popen(
                    ["gdb-multiarch", "-q", "-batch", "-nx",
                     os.path.join(build, "kernel.elf"), "-x", script],
                    stdin=subprocess.DEVNULL, stdout=glog,
                    stderr=subprocess.STDOUT, pass_fds=(wfd,), env=env,
                    start_new_session=True)
                try:
                    gdb.wait(timeout=max(1, until - time.monotonic()))
                except subprocess.TimeoutExpired:
                    results["finished_in_time"] = (
                        False, "GDB still running at the deadline")
        found = {}
        with open(gdb_log, errors="replace") if os.path.exists(gdb_log) \
                else open(os.devnull) as f:
            for line in f:
                m = re.match(r"WALK: (ok|not ok) (\S+) # (.*)", line)
                if m and m.group(2) not in found:
                    found[m.group(2)] = (m.group(1) == "ok", m.group(3))
        results = {**found, **results}
    finally:
        for p in (gdb, qemu):
            if p and p.poll() is None:
                stop(p, signal.SIGKILL)
                p.wait()
        if rfd >= 0:
            os.close(rfd)
        os.close(wfd)
    logs = (tail(qemu_log), tail(gdb_log, 80))
    shutil.rmtree(tmp, ignore_errors=True)
    return results, logs


def report_walk(ktap, results, logs, keep_logs, prefix=""):
    """results as KTAP results (names with prefix); the logs' tails after
    them when one failed or keep_logs. The number that failed."""
    failed = 0
    for name, (ok, diag) in results.items():
        ktap.result(prefix + name, ok, diag)
        failed += not ok
    if failed or keep_logs:
        ktap.diag(f"---- QEMU log (tail){' ' + prefix if prefix else ''} ----")
        ktap.diag(logs[0])
        ktap.diag(f"---- GDB output (tail){' ' + prefix if prefix else ''} ----")
        ktap.diag(logs[1])
    return failed if results else 1


def build_dir():
    build = "build"
    if "--build" in sys.argv:
        build = sys.argv[sys.argv.index("--build") + 1]
    return os.path.abspath(build)


def main():
    build = build_dir()
    start = time.monotonic()
    os.chdir(ROOT)
    env = dict(WALK_KIMAGE_VADDR=hex(KIMAGE_VADDR),
               WALK_KERNEL_ADDR=hex(KERNEL_ADDR),
               WALK_DOWN=";".join(f"{a}:{b}" for a, b in DOWN_STOPS))
    # A normal grace period in the down: hp-rcu then has non-zero numbers
    # to agree with the shell on.
    results, logs = walk(GDB_SCRIPT, ["--smp", "4"], env, build,
                         start + DEADLINE_S, append="hotplug.gp=normal")
    ktap = KtapWriter()
    failed = report_walk(ktap, results, logs, "--keep-logs" in sys.argv)
    elapsed = time.monotonic() - start
    ktap.diag(f"{len(results) - failed} passed, {failed} failed in {elapsed:.1f} s")
    ktap.print()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
