#!/usr/bin/env python3
"""Checks the kernel's board description against real boards' DTBs.

For each board of BOARDS, board_dump (the kernel's dt_init() and
board_init(), its matching of drivers to nodes, and the PSCI and generic
timer drivers' node readers, built natively) reads the DTB, and this script
reads the same file on its own, from `dtc -I dtb -O dts`: CPUs and their
MPIDRs, enable-methods and release addresses, PSCI (the driver's), the root
interrupt controller and its register addresses as its driver gets them
(translated through the parent buses' ranges), the console UART, the timer
interrupts (the driver's), memory and reservations, and each CPU's idle
states with the table cpuidle-psci.c would register (the reader of
drivers/cpuidle/dt_idle_states.c). Every fact is one KTAP result.

Idle states: the boards below with them list them per CPU node
(cpu-idle-states -> arm,idle-state), some with one table for all CPUs
(Juno, HiKey, RK3399), some with one per cluster (HiKey 960, SDM845
Cheza: the kernel then takes WFI only). SDM845 boards of the
hierarchical PSCI layout (db845c: CPU nodes with power-domains, the
states in domain-idle-states of the PSCI node's power-domain-cpuN
children) list no cpu-idle-states: the reader, which does not follow
power-domains, returns none, and the kernel runs WFI only ("wfi-only no
listed state"). The malformed trees of tests/boards/idle-states/ are
checked the same way, and each against the reason and table written for
it in MALFORMED (--only idle-states.NAME for one).

The trees as Debian ships them have no usable memory: the Pi firmware fills
in the size-0 node, U-Boot adds a node to Rockchip and Allwinner trees. So
each board is checked twice: as shipped (the kernel must refuse it with a
message saying so), and as its boot loader hands it over (a copy with
memory written by fdtput), where every fact must agree.

Every check must be able to fail: for each board, each expected fact is
also altered on purpose, and the comparison must report it (the
"wrong_expectations_caught" result); --self-test runs only that. And
from the kernel's side: lib/fdt.c with its ranges translation taken out
fails the uart and irqchip.regs checks of the Pi boards (tried); the idle
states reader without its status check fails idle-states.disabled, and
without wakeup-latency-us the hikey cpuN.idle_states (tried); the table's
reader that looks up every CPU's states, not the first CPU's only, fails
idle_table_lookups of every board and idle-states tree whose CPUs list
states (tried).

Usage: tests/boards/check.py --dump BOARD_DUMP --rpi5 DTB --work DIR
                             [--self-test] [--only NAME]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter, print_failure   # noqa: E402

# MPIDR_EL1 as each core reads it: bit 31 is RES1; Cortex-A76 (Pi 5) sets
# MT (bit 24), its cores being numbered in Aff1. The kernel must mask both.
A53_A72 = 0x80000000
A76 = 0x81000000

GIB = 1 << 30


class Board:
    """dtb: under tools/debian-kernel.sh dtbs ("rpi5": the 6.12 kernel's Pi 5 tree).
    memory: the ranges the boot loader writes into /memory (base, size).
    mpidr_bits: what the CPUs' MPIDR_EL1 holds beyond the DTB's reg."""

    def __init__(self, name, dtb, memory, mpidr_bits):
        self.name, self.dtb, self.memory, self.mpidr_bits = name, dtb, memory, mpidr_bits


# Boards for their idle states (and every other fact as well).
IDLE_BOARDS = [
    # Memory as the trees have it (Juno, HiKey), or as the boot loader
    # writes it (HiKey 960: 3 GiB; SDM845: firmware fills 4 GiB).
    Board("juno", "arm/juno.dtb", [(0x80000000, 0x7f000000), (0x880000000, 0x180000000)],
          A53_A72),
    Board("hikey", "hisilicon/hi6220-hikey.dtb", None, A53_A72),
    Board("hikey960", "hisilicon/hi3660-hikey960.dtb", [(0, 3 * GIB)], A53_A72),
    Board("sdm845-cheza-r3", "qcom/sdm845-cheza-r3.dtb", [(0x80000000, 4 * GIB)], A76),
    Board("sdm845-db845c", "qcom/sdm845-db845c.dtb", [(0x80000000, 4 * GIB)], A76),
]


BOARDS = [
    # 1 GiB, of which the firmware keeps the top for the GPU (gpu_mem=64).
    Board("rpi3b", "broadcom/bcm2837-rpi-3-b.dtb", [(0, 0x3c000000)], A53_A72),
    Board("rpi3b-plus", "broadcom/bcm2837-rpi-3-b-plus.dtb", [(0, 0x3c000000)], A53_A72),
    # 4 GiB Pi 4: low RAM up to the GPU's share, then above the peripherals
    # ("#size-cells" is 1 there, so the firmware writes 2 GiB pieces).
    Board("rpi4b", "broadcom/bcm2711-rpi-4-b.dtb",
          [(0, 0x3b400000), (0x40000000, 0xbc000000), (0x100000000, 0x80000000),
           (0x180000000, 0x80000000)], A53_A72),
    Board("rpi5", "rpi5", [(0, 0x3fc00000), (0x40000000, 0xc0000000)], A76),
    # U-Boot gives RK3399 RAM from 2 MiB up (TF-A below), A64 from 1 GiB.
    Board("rk3399-rockpro64", "rockchip/rk3399-rockpro64.dtb", [(0x200000, 0xf7e00000)], A53_A72),
    Board("rk3399-firefly", "rockchip/rk3399-firefly.dtb", [(0x200000, 0x7fe00000)], A53_A72),
    Board("a64-pine64-plus", "allwinner/sun50i-a64-pine64-plus.dtb", [(0x40000000, 2 * GIB)],
          A53_A72),
]


# The malformed trees of tests/boards/idle-states/ (each base.dtsi with one
# thing broken) and what the kernel must make of them, written by hand: the
# reader's reason for CPU 0's states, and the table all CPUs get.
IDLE_TREES = os.path.join(ROOT, "tests", "boards", "idle-states")
GOOD = "cpu-sleep@0 100 300 500 0x10000 1"
DEEP = "cluster-off 300 900 2000 0x1010000 0"
MALFORMED = {
    "good": {"cpu0.idle_states": f"{GOOD}; {DEEP}",
             "idle_table": "common cpu-sleep@0 cluster-off"},
    "no-node": {"cpu0.idle_states": f"{GOOD}; bad 0x99 no node has this phandle",
                "idle_table": "common cpu-sleep@0"},
    "not-idle-state": {"cpu0.idle_states": f"{GOOD}; bad 0x2 not compatible with arm,idle-state",
                       "idle_table": "common cpu-sleep@0"},
    "no-min-residency": {"cpu0.idle_states": f"{GOOD}; bad 0x2 no min-residency-us",
                         "idle_table": "common cpu-sleep@0"},
    "no-psci-param": {"cpu0.idle_states": f"{GOOD}; bad 0x2 no arm,psci-suspend-param",
                      "idle_table": "common cpu-sleep@0"},
    "out-of-order": {"cpu0.idle_states":
                     f"{DEEP}; bad 0x1 min-residency-us below the state before it",
                     "idle_table": "common cluster-off"},
    "disabled": {"cpu0.idle_states": f"{GOOD}; bad 0x2 status is not okay",
                 "idle_table": "common cpu-sleep@0"},
    "odd-length": {"cpu0.idle_states": "bad 0 cpu-idle-states is not a whole number of cells",
                   "idle_table": "wfi-only no usable state"},
    "disagree": {"cpu1.idle_states": GOOD,
                 "idle_table": "wfi-only cpu@1 lists other states"},
    "twice": {"cpu0.idle_states": f"{GOOD}; bad 0x1 listed twice",
              "idle_table": "common cpu-sleep@0"},
    "empty": {"cpu0.idle_states": "none", "idle_table": "wfi-only no listed state"},
    "wakeup-wraps": {"cpu0.idle_states":
                     f"{GOOD}; cluster-off 4294967280 4294967295 2000 0x1010000 0",
                     "idle_table": "common cpu-sleep@0 cluster-off"},
    "bad-name": {"cpu0.idle_states":
                 f"{GOOD}; a-name-longer-than-the- 300 900 2000 0x1010000 0",
                 "idle_table": "common cpu-sleep@0 a-name-longer-than-the-"},
}


# ---- reading dtc's output -------------------------------------------------------

class Node:
    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.props = {}          # name -> raw value text ("" for a bare flag)
        self.children = []

    def path(self):
        if self.parent is None:
            return "/"
        up = self.parent.path()
        return (up if up != "/" else "") + "/" + self.name

    def cells(self, prop):
        """All <...> cells of prop as integers, or None if absent."""
        if prop not in self.props:
            return None
        return [int(c, 0) for group in re.findall(r"<([^>]*)>", self.props[prop])
                for c in group.split()]

    def strings(self, prop):
        if prop not in self.props:
            return None
        return [s for group in re.findall(r'"((?:[^"\\]|\\.)*)"', self.props[prop])
                for s in group.split("\\0")]

    def string(self, prop):
        s = self.strings(prop)
        return s[0] if s else None

    def u32(self, prop, default=None):
        c = self.cells(prop)
        return c[0] if c else default

    def available(self):
        status = self.string("status")
        return status in (None, "okay", "ok")


class Tree:
    def __init__(self, dts):
        self.memreserve = []
        self.root = None
        stack = []
        for line in dts.splitlines():
            line = line.strip()
            m = re.match(r"/memreserve/\s+(\S+)\s+(\S+);", line)
            if m:
                self.memreserve.append((int(m.group(1), 0), int(m.group(2), 0)))
            elif line.endswith("{"):
                name = line[:-1].strip()
                node = Node("" if name == "/" else name, stack[-1] if stack else None)
                if stack:
                    stack[-1].children.append(node)
                else:
                    self.root = node
                stack.append(node)
            elif line == "};":
                stack.pop()
            elif line.endswith(";") and stack:
                name, _, value = line[:-1].partition("=")
                stack[-1].props[name.strip()] = value.strip()
        self.by_phandle = {n.u32("phandle"): n for n in self.nodes() if "phandle" in n.props}

    def nodes(self, node=None):
        node = node or self.root
        yield node
        for child in node.children:
            yield from self.nodes(child)

    def find(self, path):
        node = self.root
        for part in filter(None, path.split("/")):
            node = next((c for c in node.children if c.name == part), None)
            if node is None:
                return None
        return node

    def compatible(self, compat):
        """The first available node with compat in its list (libfdt's order)."""
        return next((n for n in self.nodes()
                     if compat in (n.strings("compatible") or []) and n.available()), None)


def read_tree(dtb):
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", dtb], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return Tree(dts)


# ---- what the tree says, read independently ---------------------------------------

def address_cells(node):
    return node.u32("#address-cells", 2)


def size_cells(node):
    return node.u32("#size-cells", 1)


def number(cells):
    value = 0
    for c in cells:
        value = value << 32 | c
    return value


def translate(bus, addr):
    """A bus address of a child of bus as a CPU address, through the ranges
    of bus and every bus above it; None if some bus does not map it."""
    while bus.parent is not None:
        if "ranges" not in bus.props:
            return None
        ranges = bus.cells("ranges")
        if ranges:
            ac, pac, sc = address_cells(bus), address_cells(bus.parent), size_cells(bus)
            step = ac + pac + sc
            for i in range(0, len(ranges) - step + 1, step):
                child = number(ranges[i:i + ac])
                parent = number(ranges[i + ac:i + ac + pac])
                size = number(ranges[i + ac + pac:i + step])
                if child <= addr < child + size:
                    addr = parent + addr - child
                    break
            else:
                return None
        bus = bus.parent
    return addr


def regs(node):
    """[(CPU address, size)] of node's reg."""
    cells = node.cells("reg") or []
    ac, sc = address_cells(node.parent), size_cells(node.parent)
    out = []
    for i in range(0, len(cells) - (ac + sc) + 1, ac + sc):
        out.append((translate(node.parent, number(cells[i:i + ac])),
                    number(cells[i + ac:i + ac + sc])))
    return out


def interrupt_parent(tree, node):
    while node is not None and "interrupt-parent" not in node.props:
        node = node.parent
    return tree.by_phandle.get(node.u32("interrupt-parent")) if node else None


def top_irqchip(tree):
    """Follow interrupt-parent from the root to a controller whose parent is
    itself or that has none of its own (Pi 3: the BCM2836 local one)."""
    node = tree.root
    for _ in range(8):
        if "interrupt-parent" not in node.props:
            break
        parent = tree.by_phandle.get(node.u32("interrupt-parent"))
        if parent is None or parent is node:
            break
        node = parent
    return node if node is not tree.root else None


def stdout_node(tree):
    chosen = tree.find("/chosen")
    path = chosen and (chosen.string("stdout-path") or chosen.string("linux,stdout-path"))
    if not path:
        return None
    path = path.split(":")[0]
    if not path.startswith("/"):
        aliases = tree.find("/aliases")
        path = aliases and aliases.string(path)
    return tree.find(path) if path else None


def hexes(values):
    return " ".join(hex(v) for v in values)


def expected_facts(tree, board):
    """{check name: value as text} for the tree as the boot loader passes it."""
    facts = {}
    root = tree.root
    facts["model"] = root.string("model") or ""
    facts["compatible"] = root.string("compatible") or ""

    mem = []
    for node in tree.nodes():
        if node.string("device_type") == "memory" and node.available():
            mem += [(a, s) for a, s in regs(node) if s and a is not None]
    facts["memory"] = hexes(v for r in mem for v in r)
    rsv = [r for r in tree.memreserve if r[1]]
    rmem = tree.find("/reserved-memory")
    for child in (rmem.children if rmem else []):
        if child.available():
            rsv += [(a, s) for a, s in regs(child) if s and a is not None]
    facts["reserved"] = hexes(v for r in rsv for v in r)

    cpus = tree.find("/cpus")
    cpu_nodes = [n for n in cpus.children if n.string("device_type") == "cpu"]
    facts["cpus"] = str(len(cpu_nodes))
    ac = address_cells(cpus)
    for i, node in enumerate(cpu_nodes):
        mpidr = number(node.cells("reg")[:ac])
        method = node.string("enable-method") or "none"
        release = node.cells("cpu-release-addr")
        facts[f"cpu{i}.mpidr"] = hex(mpidr)
        facts[f"cpu{i}.enable_method"] = method if method in ("psci", "spin-table") else "none"
        facts[f"cpu{i}.release_addr"] = hex(number(release) if release else 0)
        # The core's MPIDR_EL1, bits above affinity included, must name it.
        facts[f"cpu{i}.boot_index"] = f"{board.mpidr_bits | mpidr:#x} {i}"

    psci = next((n for n in map(tree.compatible,
                                ("arm,psci-1.0", "arm,psci-0.2", "arm,psci")) if n), None)
    facts["psci"] = f"{psci.string('compatible')} {psci.string('method')}" if psci else "absent"

    chip = top_irqchip(tree)
    facts["irqchip"] = (chip.string("compatible") or "") if chip else ""
    facts["irqchip.regs"] = hexes(a for a, _ in regs(chip)[:8]) if chip else ""

    timer = tree.compatible("arm,armv8-timer") or tree.compatible("arm,armv7-timer")
    irqs = []
    if timer:
        n = interrupt_parent(tree, timer).u32("#interrupt-cells")
        cells = timer.cells("interrupts")
        irqs = [" ".join(map(str, cells[i:i + n])) for i in range(0, len(cells), n)][:4]
    facts["timer"] = "; ".join(irqs)

    uart = stdout_node(tree)
    facts["uart"] = f"{uart.string('compatible')} {hex(regs(uart)[0][0])} {uart.path()}" \
        if uart else ""
    facts.update(idle_facts(tree))
    return facts


# What the kernel keeps of idle states: CPUIDLE_STATE_MAX - 1 of them (state 0
# being WFI), names of CPUIDLE_NAME_LEN - 1 characters.
IDLE_MAX = 7
IDLE_NAME = 23
U32 = 0xffffffff


def idle_state(tree, phandle, seen, prev):
    """(text, min-residency or None) of one listed state: its line as
    board_dump prints it after "idle CPU INDEX", "bad PHANDLE REASON" if it
    cannot be used; prev: the last usable state's min-residency."""
    def bad(reason):
        return f"bad {phandle:#x} {reason}" if phandle else f"bad 0 {reason}", None
    if phandle in seen:
        return bad("listed twice")
    node = tree.by_phandle.get(phandle) if phandle not in (0, U32) else None
    if node is None:
        return bad("no node has this phandle")
    if "arm,idle-state" not in (node.strings("compatible") or []):
        return bad("not compatible with arm,idle-state")
    if not node.available():
        return bad("status is not okay")
    values = {}
    for prop in ("entry-latency-us", "exit-latency-us", "min-residency-us",
                 "arm,psci-suspend-param"):
        values[prop] = node.u32(prop)
        if values[prop] is None:
            return bad(f"no {prop}")
    entry, residency = values["entry-latency-us"], values["min-residency-us"]
    wakeup = node.u32("wakeup-latency-us",
                      min(entry + values["exit-latency-us"], U32))
    if prev is not None and residency < prev:
        return bad("min-residency-us below the state before it")
    name = (node.string("idle-state-name") or node.name)[:IDLE_NAME]
    timer_stop = int("local-timer-stop" in node.props)
    return (f"{name} {entry} {wakeup} {residency} "
            f"{values['arm,psci-suspend-param']:#x} {timer_stop}", residency)


def idle_list(node):
    """The phandles of node's cpu-idle-states, [0] for a list with a partial
    cell (the one bad entry the reader gives), [] if absent."""
    value = node.props.get("cpu-idle-states")
    if value is None:
        return []
    if value.startswith("["):      # dtc's bytes: not a whole number of cells
        size = len(value.strip("[]").split())
        return [0] if size % 4 else []
    return node.cells("cpu-idle-states")


def idle_facts(tree):
    """cpuN.idle_states: each CPU node's states ("; " between them),
    idle_table: what cpuidle-psci.c registers, and idle_table_lookups: the
    phandles its reading looks up, the first CPU's only, whatever the CPU
    count (each lookup walks the whole tree: one per state of every CPU
    took 3.5 s of a 512-CPU boot)."""
    facts, lists, first = {}, [], None
    facts["idle_table_lookups"] = "0"
    # Every CPU's cluster state read through the phandle table: the same
    # as through libfdt's lookups, and with none of those tree walks.
    facts["cluster_map"] = "same"
    facts["cluster_map_lookups"] = "0"
    cpus = tree.find("/cpus")
    for i, node in enumerate(n for n in (cpus.children if cpus else [])
                             if n.string("device_type") == "cpu"):
        phandles = idle_list(node)[:IDLE_MAX]
        lines, seen, prev = [], set(), None
        if phandles == [0]:
            lines = ["bad 0 cpu-idle-states is not a whole number of cells"]
        else:
            for ph in phandles:
                text, residency = idle_state(tree, ph, seen, prev)
                seen.add(ph)
                prev = residency if residency is not None else prev
                lines.append(text)
        facts[f"cpu{i}.idle_states"] = "; ".join(lines) or "none"
        lists.append(phandles)
        if first is None:
            first = lines
            # Each phandle once ("listed twice" is not looked up again).
            facts["idle_table_lookups"] = str(0 if phandles == [0] else len(set(phandles)))
    disagree = next((i for i, ph in enumerate(lists) if ph != lists[0]), None)
    if disagree is not None:
        name = [n for n in cpus.children if n.string("device_type") == "cpu"][disagree].name
        facts["idle_table"] = f"wfi-only {name} lists other states"
    elif not first:
        facts["idle_table"] = "wfi-only no listed state"
    else:
        usable = [t.split()[0] for t in first if not t.startswith("bad ")]
        facts["idle_table"] = " ".join(["common"] + usable) if usable else \
            "wfi-only no usable state"
    return facts


# ---- what the kernel's code says ---------------------------------------------------

def run_dump(dump, dtb, mpidrs=()):
    proc = subprocess.run([dump, dtb] + [hex(m) for m in mpidrs], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout.splitlines()


def kernel_facts(lines):
    """The same {name: text} from board_dump's lines."""
    facts, mem, rsv, timer, idle = {}, [], [], [], {}
    cpus, uart, stdout = 0, "", ""
    for line in lines:
        key, _, rest = line.partition(" ")
        words = rest.split()
        if key in ("model", "compatible", "psci"):
            facts[key] = rest
        elif key == "memory":
            mem += [int(w, 0) for w in words]
        elif key == "reserved":
            rsv += [int(w, 0) for w in words]
        elif key == "cpus":
            facts["cpus"] = rest
        elif key == "cpu":
            i = words[0]
            facts[f"cpu{i}.mpidr"] = hex(int(words[1], 0))
            facts[f"cpu{i}.enable_method"] = words[2]
            facts[f"cpu{i}.release_addr"] = hex(int(words[3], 0))
            cpus += 1
        elif key == "irqchip":
            facts["irqchip"] = words[0] if words else ""
            facts["irqchip.regs"] = hexes(int(w, 0) for w in words[1:])
        elif key == "timer":
            timer.append(rest)
        elif key == "uart":
            uart = f"{words[0]} {hex(int(words[1], 0))}" if len(words) > 1 else ""
        elif key == "stdout":
            stdout = rest
        elif key == "idle":
            cpu, _, text = rest.split(" ", 2)
            idle.setdefault(int(cpu), []).append(text)
        elif key == "idle-table":
            facts["idle_table"] = rest
        elif key == "idle-table-lookups":
            facts["idle_table_lookups"] = rest
        elif key == "cluster-map":
            facts["cluster_map"] = rest
        elif key == "cluster-map-lookups":
            facts["cluster_map_lookups"] = rest
        elif key == "boot-cpu":
            mpidr, index = int(words[0], 0), int(words[1])
            if 0 <= index < cpus:
                facts[f"cpu{index}.boot_index"] = f"{mpidr:#x} {index}"
    facts["memory"] = hexes(mem)
    facts["reserved"] = hexes(rsv)
    facts["timer"] = "; ".join(timer)
    facts["uart"] = f"{uart} {stdout}" if uart else ""
    for i in range(int(facts.get("cpus", 0))):
        facts[f"cpu{i}.idle_states"] = "; ".join(idle.get(i, [])) or "none"
    return facts


def compare(expected, actual):
    """[(name, ok, detail)] for every expected fact."""
    out = []
    for name, want in expected.items():
        got = actual.get(name)
        out.append((name, got == want, "" if got == want else f"kernel {got!r}, dtc {want!r}"))
    return out


def wrong_expectations_caught(expected, actual):
    """Alter each expected fact in turn: the comparison must fail on it.
    Returns the names of the facts whose alteration went unnoticed."""
    missed = []
    for name, want in expected.items():
        wrong = dict(expected)
        wrong[name] = want + " 0x1000" if want else "0x1000"
        if dict((n, ok) for n, ok, _ in compare(wrong, actual))[name]:
            missed.append(name)
    return missed


# ---- the boot loader's part --------------------------------------------------------

def fill_memory(src, dst, tree, ranges):
    """Copy src to dst with /memory as the boot loader writes it (None: as
    the tree has it)."""
    shutil.copyfile(src, dst)
    if ranges is None:
        return
    ac, sc = address_cells(tree.root), size_cells(tree.root)
    node = next((n for n in tree.nodes() if n.string("device_type") == "memory"), None)
    path = node.path() if node else f"/memory@{ranges[0][0]:x}"
    if node is None:
        subprocess.run(["fdtput", "-c", dst, path], check=True)
        subprocess.run(["fdtput", "-t", "s", dst, path, "device_type", "memory"], check=True)
    cells = []
    for base, size in ranges:
        assert base < 1 << (32 * ac) and 0 < size < 1 << (32 * sc), \
            f"{dst}: ({base:#x}, {size:#x}) does not fit {ac} + {sc} cells"
        cells += [(base >> (32 * i)) & 0xffffffff for i in reversed(range(ac))]
        cells += [(size >> (32 * i)) & 0xffffffff for i in reversed(range(sc))]
    subprocess.run(["fdtput", "-t", "x", dst, path, "reg"] + [f"{c:x}" for c in cells],
                   check=True)


def dtb_path(board, dtbs, rpi5):
    return rpi5 if board.dtb == "rpi5" else os.path.join(dtbs, board.dtb)


def check_board(board, path, args, ktap):
    name = board.name
    as_shipped = read_tree(path)
    status, lines = run_dump(args.dump, path)
    sanitizer = [line for line in lines if "Sanitizer" in line or "runtime error" in line]
    has_memory = any(s for n in as_shipped.nodes()
                     if n.string("device_type") == "memory" for _, s in regs(n))
    init = next((line.split()[1] for line in lines if line.startswith("board_init ")), None)
    if has_memory:
        ktap.result(f"{name}.as_shipped_accepted", status == 0 and init == "0" and not sanitizer,
                    f"exit {status}, board_init {init}")
    else:
        # The kernel must refuse it and say why: which of the two cases.
        absent = not any(n.string("device_type") == "memory" for n in as_shipped.nodes())
        want = r"has no memory node: the boot loader" if absent else \
            r"memory node \S+ has size 0: the boot firmware fills it in"
        said = any(re.search(want, line) for line in lines if line.startswith("log: "))
        ktap.result(f"{name}.as_shipped_memory_message",
                    status == 0 and init not in (None, "0") and said and not sanitizer,
                    f"exit {status}, board_init {init}, message /{want}/ " +
                    ("found" if said else "missing"))

    filled = os.path.join(args.work, f"{name}.dtb")
    fill_memory(path, filled, as_shipped, board.memory)
    tree = read_tree(filled)
    expected = expected_facts(tree, board)
    cpus = int(expected["cpus"])
    mpidrs = [board.mpidr_bits | int(expected[f"cpu{i}.mpidr"], 16) for i in range(cpus)]
    status, lines = run_dump(args.dump, filled, mpidrs)
    with open(os.path.join(args.work, f"{name}.log"), "w") as log:
        log.write("\n".join(lines) + "\n")
    sanitizer = [line for line in lines if "Sanitizer" in line or "runtime error" in line]
    ktap.result(f"{name}.board_init", status == 0 and "board_init 0" in lines and not sanitizer,
                f"exit {status}; " + "; ".join(sanitizer[:2]))
    actual = kernel_facts(lines)
    if not args.self_test:
        for fact, ok, detail in compare(expected, actual):
            ktap.result(f"{name}.{fact}", ok, detail or expected[fact])
    missed = wrong_expectations_caught(expected, actual)
    ktap.result(f"{name}.wrong_expectations_caught", not missed,
                f"{len(expected) - len(missed)} of {len(expected)} altered facts reported" +
                (f", not: {', '.join(missed)}" if missed else ""))


def check_malformed(name, want, args, ktap):
    """One tree of IDLE_TREES: the kernel's idle facts against dtc's (as for
    a board) and against MALFORMED's hand-written ones; no sanitizer report."""
    dtb = os.path.join(args.work, f"idle-{name}.dtb")
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtb,
                    os.path.join(IDLE_TREES, f"{name}.dts")], check=True)
    status, lines = run_dump(args.dump, dtb)
    with open(os.path.join(args.work, f"idle-{name}.log"), "w") as log:
        log.write("\n".join(lines) + "\n")
    sanitizer = [line for line in lines if "Sanitizer" in line or "runtime error" in line]
    ran = status == 0 and "board_init 0" in lines and not sanitizer
    actual = kernel_facts(lines)
    expected = idle_facts(read_tree(dtb))
    bad = [f"{fact}: {detail}" for fact, ok, detail in compare(expected, actual) if not ok]
    bad += [f"{fact}: kernel {actual.get(fact)!r}, expected {text!r}"
            for fact, text in want.items() if actual.get(fact) != text]
    bad += [f"{fact} not caught altered"
            for fact in wrong_expectations_caught(dict(expected, **want), actual)]
    ktap.result(f"idle-states.{name}", ran and not bad,
                f"exit {status}; " + "; ".join(sanitizer[:2] + bad) if not ran or bad
                else want["idle_table"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", required=True, help="board_dump program")
    parser.add_argument("--rpi5", required=True,
                        help="the Pi 5 tree (tools/debian-kernel.sh --series 6.12 dtbs)")
    parser.add_argument("--work", required=True, help="directory for the filled DTBs")
    parser.add_argument("--self-test", action="store_true",
                        help="only check that altered expectations are caught")
    parser.add_argument("--only", help="one board by name, or idle-states.NAME")
    args = parser.parse_args()

    try:
        dtbs = subprocess.run([os.path.join(ROOT, "tools/debian-kernel.sh"), "dtbs"],
                              check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    except subprocess.CalledProcessError:
        print_failure("fetch_dtbs", "tools/debian-kernel.sh dtbs failed")
        return 1
    os.makedirs(args.work, exist_ok=True)
    ktap = KtapWriter()
    for board in BOARDS + IDLE_BOARDS:
        if args.only and board.name != args.only:
            continue
        path = dtb_path(board, dtbs, args.rpi5)
        if not os.path.exists(path):
            ktap.result(f"{board.name}.dtb", False, f"{board.dtb} not in the package")
            continue
        check_board(board, path, args, ktap)
    for name, want in MALFORMED.items():
        if not args.only or args.only == f"idle-states.{name}":
            check_malformed(name, want, args, ktap)
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
