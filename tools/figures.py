#!/usr/bin/env python3
"""The docs' figures, made from the benchmarks' JSON, never typed in.

docs/figures/ holds what the last `make figures` measured, one file per
tool: bench.json (tools/bench.py), scale.json (tools/bench_scale.py),
power.json (tools/power_strategies.py) and power_stats.json
(tools/power_stats.py), each stamped with the command that
made it and the QEMU it ran on; the tools themselves record the build each
boot ran (the banner's `hotplug kernel VERSION`, which git describe makes).
A doc marks each generated block:

    <!-- figures: bench.results -->
    Build: hotplug kernel VERSION; `make bench`; QEMU 7.2.22; 2 host cores.

    (the tables, made by the tool's own markdown function or a template here)

    <!-- /figures -->

and this script rewrites what lies between the markers. The text around
them is the doc's own: it points at a block's table rather than restate
its figures, so a new run cannot leave it behind. BLOCKS below lists
every block name, which JSON it reads and what makes it.

Usage: tools/figures.py                rewrite every block from docs/figures/
       tools/figures.py --take DIR [--sources bench,scale,power]
                                       first copy DIR's bench.json, scale.json
                                       and power_strategies.json (and the
                                       plots) into docs/figures/ and docs/,
                                       stamped (make figures)
       tools/figures.py --check        KTAP: every block is what this script
                                       makes and every JSON file is used
                                       (make test)
       tools/figures.py --self-test    KTAP: the rewrite and the check on a
                                       made-up JSON and doc
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from harness.ktap import KtapWriter   # noqa: E402
import bench                          # noqa: E402
import bench_scale                    # noqa: E402
import power_strategies               # noqa: E402
import power_stats                    # noqa: E402

FIGURES_DIR = os.path.join("docs", "figures")
OPEN = re.compile(r"^<!-- figures: ([\w.-]+) -->$")
CLOSE = "<!-- /figures -->"
# The one line of a block that may name a build by its hash: the docs check
# (tests/docs_check.py, BUILD_LINE) allows it inside a block and nowhere else.
BUILD_LINE = "Build: hotplug kernel {kernel}; `{command}`; QEMU {qemu}; {cores}."

# What --take copies: the tool's JSON in DIR -> docs/figures/NAME, and the
# plots drawn from the same runs -> docs/.
SOURCES = {
    "bench": ("bench.json", []),
    "scale": ("scale.json", ["scale.png"]),
    # power.png (tools/power_plot.py) is the policies' plot, beside their
    # table in docs/governor.md, which has no generated block: left as is.
    "power": ("power_strategies.json", ["power_strategies.png", "power_sweep.png",
                                        "power_breakeven.png"]),
    "power_stats": ("power_stats.json", []),
}
# bench.json's per-step medians are not in any doc; docs/figures/ leaves
# them out (build/bench.json keeps them).
DROP_KEYS = {"step_us"}

SHORT = {"smp3": "-smp 3", "smp4": "-smp 4", "smp8": "-smp 8",
         "raspi3b-tfa": "Pi 3, TF-A"}
DESIGN_LABELS = {"rwlock": "global rwlock (get_online_cpus)",
                 "percpu_rwsem": "percpu_rwsem (Linux since 4.13)",
                 "stop_machine": "stop_machine (free readers)",
                 "rcu": "per-bit RCU (this kernel)"}


# ---- formatting ------------------------------------------------------------------------

def ms(us):
    """Microseconds as milliseconds, to two or three significant digits."""
    v = us / 1000
    return f"{v:.2f}" if v < 1 else f"{v:.1f}" if v < 10 else f"{v:.0f}"


def span(lo, hi, fmt="{}"):
    """'lo-hi', or one value when they agree."""
    a, b = fmt.format(lo), fmt.format(hi)
    return a if a == b else f"{a}-{b}"


def md_table(head, rows):
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
                     ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


# ---- make bench ------------------------------------------------------------------------

def configs(data):
    """The configurations in the tool's own order (tools/bench.py CONFIGS)."""
    have = data["configs"]
    return [c for c in bench.CONFIGS if c in have] + \
        [c for c in have if c not in bench.CONFIGS]


def per_boot(r, design, fn):
    """fn(figures) of one design in each boot of a configuration (where
    it gives a value)."""
    vals = []
    for b in r.get("boots", []):
        f = b.get("designs", {}).get(design, {})
        try:
            vals.append(fn(f))
        except (KeyError, ZeroDivisionError, TypeError):
            pass
    return vals


def bench_results(data):
    """Every configuration's table, as tools/bench.py --markdown prints it."""
    return "\n\n".join(bench.markdown(c, data["configs"][c]) for c in configs(data))


def bench_rcu(data):
    """The default design at a glance, one column per configuration."""
    cs = configs(data)

    def row(label, fn):
        cells = []
        for c in cs:
            try:
                cells.append(fn(data["configs"][c]))
            except (KeyError, ZeroDivisionError, TypeError):
                cells.append("-")
        return [label] + cells

    def rcu(r):
        return r["designs"]["rcu"]

    def med(key, fmt=ms):
        def cell(r):
            lo, hi = r["spread"]["designs"]["rcu"].get(key, (None, None))
            text = fmt(rcu(r)[key])
            return text if lo is None or lo == hi else f"{text} [{fmt(lo)}-{fmt(hi)}]"
        return cell

    rows = [
        row("an online-mask walk under `rcu_read_lock()`, against the walk "
            "unprotected", med("reader_ratio", lambda v: f"{v:.3f}x")),
        row("`synchronize_rcu()`, the other CPUs idle, ms",
            lambda r: ms(r["common"]["sync_rcu_us_median"])),
        row("`synchronize_rcu_expedited()`, back to back, the other CPUs idle, us",
            lambda r: str(r["common"]["sync_rcu_expedited_us_median"])),
        row("CPU down + up (expedited grace period, CPU_OFF, AFFINITY_INFO, "
            "CPU_ON), ms", med("cycle_us_median")),
        row("the same as a multiple of the firmware's own cycle",
            med("cycle_floor_ratio", lambda v: f"{v:.1f}x")),
        row("the same with a reader on every other CPU, ms",
            med("cycle_us_median_loaded")),
        row("the same with one reader, ms", med("cycle_us_median_one_reader")),
    ]
    return md_table(["`rcu`, the default design"] + [SHORT.get(c, c) for c in cs], rows)


def bench_common(data):
    """The figures a boot measures once, whatever the design."""
    cs = configs(data)

    def row(label, key, fmt=str):
        cells = []
        for c in cs:
            r = data["configs"][c]
            v = r["common"].get(key)
            lo, hi = r["spread"]["common"].get(key, (v, v))
            cells.append("-" if v is None else fmt(v) if lo == hi else
                         f"{fmt(v)} [{fmt(lo)}-{fmt(hi)}]")
        return [label] + cells

    kib = lambda v: f"{v / 1024:.0f}"     # noqa: E731
    rows = [
        row("power-on to all CPUs online, ms", "boot_us_all_online", ms),
        row("image in memory, KiB", "image_bytes", kib),
        row("memory one online CPU costs (what its down gives back), bytes",
            "mem_per_cpu_bytes"),
        row("one PSCI AFFINITY_INFO call, ns", "affinity_info_ns_median"),
        row("AFFINITY_INFO answers OFF after a successful CPU_ON, before the CPU "
            "ran (`floor_early_off`), in the floor's cycles", "floor_early_off"),
        row("one console line (`printk_line_us_median`), us", "printk_line_us_median"),
    ]
    return md_table(["once per boot"] + [SHORT.get(c, c) for c in cs], rows)


def throughput_change(f):
    return f["reader_walks_per_s_hotplug"] / f["reader_walks_per_s_idle"] - 1


def bench_designs(data, config="smp8"):
    """The four designs on one configuration, side by side."""
    r = data["configs"][config]
    rows = []
    for d in bench.DESIGNS:
        f = r["designs"].get(d)
        if not f:
            continue
        change = sorted(per_boot(r, d, throughput_change))
        change = change[(len(change) - 1) // 2] if change else throughput_change(f)
        stop = f.get("stop_us_max", 0)
        rows.append([DESIGN_LABELS[d], f"{f['reader_ratio']:.3f}x", f"{100 * change:+.0f}%",
                     ms(f["cycle_us_median"]), ms(f["cycle_us_median_loaded"]),
                     f"up to {ms(stop)} ms" if stop else "no"])
    n = len(r.get("boots", [])) or 1
    return (f"{bench.LABELS.get(config, config)}, medians of {n} boot{'s' * (n > 1)}:\n\n" +
            md_table(["design", "reader cost (walk under the read lock / unprotected)",
                      "reader throughput during hotplug", "down+up median, ms",
                      "under readers, ms", "other CPUs stopped"], rows))


def bench_throughput(data):
    """Reader walks per second while a CPU goes down and up, against idle:
    per design and configuration, the median of the boots' changes."""
    cs = configs(data)
    rows = []
    for d in bench.DESIGNS:
        cells = [d]
        for c in cs:
            vals = sorted(per_boot(data["configs"][c], d, throughput_change))
            if not vals:
                cells.append("-")
                continue
            mid = vals[(len(vals) - 1) // 2]
            lo, hi = vals[0], vals[-1]
            text = f"{100 * mid:+.0f}%"
            cells.append(text if len(vals) == 1 else
                         f"{text} [{100 * lo:+.0f} to {100 * hi:+.0f}]")
        rows.append(cells)
    return md_table(["design"] + [SHORT.get(c, c) for c in cs], rows)


def bench_loaded(data):
    """Under readers: each configuration's busy vCPUs against the host's
    cores, the loaded cycle per boot, and the host's own quantum."""
    cs = configs(data)
    host = data.get("host_cpus", "?")

    def cells(fn):
        out = []
        for c in cs:
            try:
                out.append(fn(data["configs"][c]))
            except (KeyError, ValueError, ZeroDivisionError, TypeError):
                out.append("-")
        return out

    def readers(r):
        """One per CPU but the target (the Pi 3 has 4 CPUs, no --smp)."""
        argv = r["qemu"].split()
        return str(int(argv[argv.index("--smp") + 1]) - 1 if "--smp" in argv else 3)

    def boots(design, key, fmt):
        def cell(r):
            vals = per_boot(r, design, lambda f: f[key])
            return ", ".join(fmt(v) for v in vals)
        return cell

    def baseline(r):
        vals = [f["bystander_us_baseline"] for b in r["boots"]
                for f in b["designs"].values() if "bystander_us_baseline" in f]
        return span(ms(min(vals)), ms(max(vals)))

    rows = [
        [f"readers under load (busy vCPUs) on {host} host cores"] + cells(readers),
        ["`rcu`: median cycle under readers, ms, each boot"] +
        cells(boots("rcu", "cycle_us_median_loaded", ms)),
        ["the same as a multiple of idle, each boot"] +
        cells(boots("rcu", "cycle_loaded_idle_ratio", lambda v: f"{v:.1f}x")),
        ["`rcu`: one reader, as a multiple of idle, each boot"] +
        cells(lambda r: ", ".join(
            f"{f['cycle_us_median_one_reader'] / f['cycle_us_median']:.1f}x"
            for f in (b["designs"]["rcu"] for b in r["boots"]))),
        ["`rwlock`, `percpu_rwsem`: median cycle under readers, ms"] +
        cells(lambda r: " / ".join(ms(r["designs"][d]["cycle_us_median_loaded"])
                                   for d in ("rwlock", "percpu_rwsem"))),
        ["`bystander_us_baseline`: no hotplug at all, ms, lowest-highest "
         "over boots and designs"] + cells(baseline),
    ]
    return md_table([""] + [SHORT.get(c, c) for c in cs], rows)


# ---- make bench-scale ------------------------------------------------------------------

def scale_runs(data):
    """{asked CPUs: run} as tools/bench_scale.py keeps them in memory."""
    return {int(k): v for k, v in data["runs"].items()}


def scale_tables(data):
    """The tables tools/bench_scale.py --markdown prints."""
    return bench_scale.table(scale_runs(data), md=True)


def scale_summary(data):
    """The figures the scale argument turns on, one column per CPU count."""
    runs = bench_scale.rows(scale_runs(data))

    def row(label, fn):
        out = [label]
        for r in runs:
            try:
                out.append(fn(r["figures"]))
            except (KeyError, TypeError):
                out.append("-")
        return out

    rows = [
        row("one read-side section around the walk: preemption off, median us",
            lambda f: bench_scale.us(f["one_section.preempt_off_ns_p50"])),
        row("a section per CPU (`online_cpus_walk()`): preemption off, median us",
            lambda f: bench_scale.us(f["per_cpu.preempt_off_ns_p50"])),
        row("a section per CPU: p99.9 us",
            lambda f: bench_scale.us(f["per_cpu.preempt_off_ns_p999"])),
        row("`synchronize_rcu()`, CPUs idle, ms",
            lambda f: ms(f["sync_rcu_us_median"])),
        row("`synchronize_rcu_expedited()`, us",
            lambda f: str(f["sync_rcu_expedited_us_median"])),
        row("down+up of the last CPU, ms", lambda f: ms(f["cycle_us_median"])),
        row("power-on to all CPUs online, s",
            lambda f: f"{f['boot_us_all_online'] / 1e6:.2f}"),
        row("of which the other CPUs' bring-up (`smp_init()`), s",
            lambda f: f"{f['boot_us_bringup'] / 1e6:.2f}"),
    ]
    return md_table(["CPUs"] + [bench_scale.cpus_cell(r) for r in runs], rows)


# ---- make power ------------------------------------------------------------------------

def power_args(data):
    return data["model"], data["rows"], data["cpus"]


def power_workloads(data):
    """Every workload's table, as tools/power_strategies.py writes them."""
    return "\n\n".join(power_strategies.markdown_workload(*power_args(data), w)
                       for w in power_strategies.workloads(data["rows"]))


def power_summary(data):
    """Each strategy's energy for the same work against spread, one column
    per workload: the tables' "vs spread" side by side."""
    model, rows, cpus = power_args(data)
    ws = power_strategies.workloads(rows)
    change = {}
    for w in ws:
        mine = [r for r in rows if r["workload"] == w]
        base = next((r for r in mine if r["strategy"] == "spread"), mine[0])
        base_eq = power_strategies.equal_work_uj(base, rows, model, cpus)
        for r in mine:
            eq = power_strategies.equal_work_uj(r, rows, model, cpus)
            change[(r["strategy"], w)] = f"{100.0 * eq / base_eq - 100:+.1f}%"
    strategies = []
    for r in rows:
        if r["strategy"] not in strategies:
            strategies.append(r["strategy"])
    return md_table(["same work, against spread"] + ws,
                    [[st] + [change.get((st, w), "-") for w in ws] for st in strategies])


def power_break_even(data):
    """The model's price of one hotplug operation in this run, and the
    break-even idle length it gives against each idle state."""
    m = data["model"]
    kernel_ms = (m["transition_uj"] - m["fw_uj"]) / m["active_mw"]
    return (f"One hotplug operation cost {m['transition_uj']} uJ in the strategies' "
            f"run: the kernel's {kernel_ms:.2f} ms (the mean of the boot's median down "
            f"and median up) at {m['active_mw']} mW, plus {m['fw_uj']} uJ of "
            f"firmware.\n\n" + power_strategies.markdown_break_even(m))


BLOCKS = {
    # name: (source, what makes it)
    "bench.rcu": ("bench", bench_rcu),
    "bench.designs": ("bench", bench_designs),
    "bench.results": ("bench", bench_results),
    "bench.common": ("bench", bench_common),
    "bench.throughput": ("bench", bench_throughput),
    "bench.loaded": ("bench", bench_loaded),
    "scale.summary": ("scale", scale_summary),
    "scale.tables": ("scale", scale_tables),
    "power.strategies": ("power", power_workloads),
    "power.summary": ("power", power_summary),
    "power.break-even": ("power", power_break_even),
    "power.crossover": ("power", lambda d: power_strategies.markdown_crossover(*power_args(d))),
    "power.stats": ("power_stats", power_stats.markdown),
    "power.delay-sweep": ("power", lambda d: power_strategies.markdown_delay_sweep(
        *power_args(d)) or "(no down-delay sweep in this run)"),
}


# ---- the build line and the command ------------------------------------------------------

def build_line(data):
    """The one line naming the build, the command and QEMU."""
    stamp = data.get("figures", {})
    kernels = data.get("kernel") or ["?"]
    cores = data.get("host_cpus") or stamp.get("host_cpus")
    return BUILD_LINE.format(kernel=", ".join(kernels), command=stamp.get("command", "?"),
                             qemu=stamp.get("qemu", "?"),
                             cores=f"{cores} host core{'s' * (cores != 1)}"
                             if isinstance(cores, int) else "host cores unknown")


def command_of(source, data):
    """The command that gives these figures again, from the settings the
    tool recorded: the make target where its defaults were used."""
    if source == "bench":
        names = list(data["configs"])
        default = (sorted(names) == sorted(bench.CONFIGS) and data.get("boots") == 3 and
                   data.get("cycles") == 40 and data.get("phase_ms") == 400)
        return "make bench" if default else (
            f"tools/bench.py --configs {','.join(configs(data))} --boots {data.get('boots')} "
            f"--cycles {data.get('cycles')} --ms {data.get('phase_ms')}")
    if source == "scale":
        cpus = ",".join(str(k) for k in sorted(scale_runs(data)))
        if data.get("phase_ms") == 1000:
            return f"make bench-scale SCALE_CPUS={cpus} SCALE_BOOTS={data.get('boots')}"
        return (f"tools/bench_scale.py --cpus {cpus} --boots {data.get('boots')} "
                f"--ms {data.get('phase_ms')}")
    if source == "power_stats":
        return (f"make power-stats POWER_BOOTS={data.get('nr_boots')} "
                f"POWER_STATS_SCALE={data.get('scale')}")
    line = data.get("command_line", "")
    m = re.fullmatch(r"power=all power\.strategies (?:power\.down_delays=(\S+) )?"
                     r"power\.scale=(\d+) hz=250 poweroff", line)
    if m and m.group(1):
        return f"make power POWER_DELAYS={m.group(1)} POWER_SCALE={m.group(2)}"
    return f"make power POWER_SCALE={m.group(2)}" if m else \
        f"./qemu.sh --smp 4 --append \"{line}\""


def qemu_version():
    out = subprocess.run(["qemu-system-aarch64", "--version"], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    m = re.search(r"version (\S+)", out)
    return m.group(1) if m else "?"


FLAT_LIST = re.compile(r"\[\s*\n[^\[\]{}]*?\]")


def dumps(data):
    """JSON as the tools write it (indent 1, sorted keys), a list of
    plain values (a [lowest, highest] spread) on one line."""
    text = json.dumps(data, indent=1, sort_keys=True)
    return FLAT_LIST.sub(lambda m: json.dumps(json.loads(m.group(0))), text) + "\n"


def drop(value):
    if isinstance(value, dict):
        return {k: drop(v) for k, v in value.items() if k not in DROP_KEYS}
    if isinstance(value, list):
        return [drop(v) for v in value]
    return value


def take(build_dir, root, sources):
    """Copies each source's JSON from build_dir into docs/figures/,
    stamped, and the plots of the same runs into docs/; what it took."""
    qemu, taken = qemu_version(), []
    os.makedirs(os.path.join(root, FIGURES_DIR), exist_ok=True)
    for source in sources:
        name, plots = SOURCES[source]
        path = os.path.join(build_dir, name)
        if not os.path.exists(path):
            sys.exit(f"figures.py: {path} not found: run the {source} benchmark first")
        with open(path) as f:
            data = drop(json.load(f))
        if len(data.get("kernel", [])) != 1:
            sys.exit(f"figures.py: {path}: the boots ran {data.get('kernel')}, "
                     "not one build: run the benchmark again")
        data["figures"] = {"command": command_of(source, data), "qemu": qemu,
                           "host_cpus": data.get("host_cpus", os.cpu_count())}
        with open(os.path.join(root, FIGURES_DIR, source + ".json"), "w") as f:
            f.write(dumps(data))
        for png in plots:
            shutil.copyfile(os.path.join(build_dir, png), os.path.join(root, "docs", png))
        taken.append(f"{source} ({data['figures']['command']})")
    return taken


# ---- the blocks in the docs --------------------------------------------------------------

class Problem(Exception):
    pass


def load(root):
    """{source: data} of every JSON file in docs/figures/."""
    out = {}
    folder = os.path.join(root, FIGURES_DIR)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                out[name[:-5]] = json.load(f)
    return out


def doc_files(root):
    docs = ["README.md"] + sorted(os.path.join("docs", f)
                                  for f in os.listdir(os.path.join(root, "docs"))
                                  if f.endswith(".md"))
    return [d for d in docs if os.path.exists(os.path.join(root, d))]


def regions(text):
    """(name, first line index, closing line index) of each block; Problem
    on a block left open or a closing marker without one."""
    lines, out, cur = text.split("\n"), [], None
    for i, line in enumerate(lines):
        m = OPEN.match(line.strip())
        if m:
            if cur:
                raise Problem(f"line {cur[1] + 1}: block {cur[0]} not closed before "
                              f"the next one opens")
            cur = (m.group(1), i)
        elif line.strip() == CLOSE:
            if not cur:
                raise Problem(f"line {i + 1}: {CLOSE} without a block")
            out.append((cur[0], cur[1], i))
            cur = None
    if cur:
        raise Problem(f"line {cur[1] + 1}: block {cur[0]} not closed")
    return out


def make_block(name, data, blocks):
    """The text between a block's markers."""
    if name not in blocks:
        raise Problem(f"no block named {name} (tools/figures.py BLOCKS)")
    source, fn = blocks[name]
    if source not in data:
        raise Problem(f"block {name} reads {FIGURES_DIR}/{source}.json, which is not there")
    return f"{build_line(data[source])}\n\n{fn(data[source]).rstrip()}\n"


def render(text, data, blocks):
    """The doc with every block made afresh, and the names of its blocks."""
    lines = text.split("\n")
    found = regions(text)
    for name, first, last in reversed(found):
        body = make_block(name, data, blocks).split("\n")
        lines[first + 1:last] = body
    return "\n".join(lines), [name for name, _, _ in found]


def check(root, data, blocks, ktap):
    """One result per doc with blocks, per block and per JSON file."""
    used = set()
    for doc in doc_files(root):
        with open(os.path.join(root, doc)) as f:
            text = f.read()
        try:
            found = regions(text)
        except Problem as e:
            ktap.result(f"{doc}: markers", False, str(e))
            continue
        lines = text.split("\n")
        for name, first, last in found:
            used.add(blocks.get(name, (None,))[0])
            have = "\n".join(lines[first + 1:last])
            try:
                want = make_block(name, data, blocks)
            except Problem as e:
                ktap.result(f"{doc}: {name}", False, str(e))
                continue
            if have == want:
                ktap.result(f"{doc}: {name} is what the JSON gives", True)
            else:
                diff = [f"doc:  {a}\nmade: {b}" for a, b in
                        zip(have.split("\n"), want.split("\n")) if a != b][:3]
                ktap.result(f"{doc}: {name} is what the JSON gives", False,
                            "edited by hand or made from other figures: run "
                            "tools/figures.py\n" + "\n".join(diff or ["(lengths differ)"]))
    for source in sorted(data):
        ktap.result(f"{FIGURES_DIR}/{source}.json is used by a block", source in used,
                    "" if source in used else "no doc has a block made from it")


def rewrite(root, data, blocks):
    """Rewrites every doc's blocks; the docs that changed."""
    changed = []
    for doc in doc_files(root):
        path = os.path.join(root, doc)
        with open(path) as f:
            text = f.read()
        try:
            new, _ = render(text, data, blocks)
        except Problem as e:
            sys.exit(f"figures.py: {doc}: {e}")
        if new != text:
            with open(path, "w") as f:
                f.write(new)
            changed.append(doc)
    return changed


# ---- self-test ---------------------------------------------------------------------------

DEMO_JSON = {"kernel": ["abc1234"], "host_cpus": 2,
             "figures": {"command": "make demo", "qemu": "7.2.22"},
             "rows": [["a", 1], ["b", 2]]}
DEMO_BLOCKS = {"demo.table": ("demo", lambda d: md_table(["name", "value"], d["rows"]))}
DEMO_DOC = """# Demo

Prose that quotes no figure.

<!-- figures: demo.table -->
stale text
<!-- /figures -->

More prose.
"""


def expect(ktap, name, checks, failed):
    """One self-test result: a check of the made-up doc failed as many of
    its results as it must; its own results listed when not."""
    ok = checks.failed == failed
    ktap.result(name, ok, f"{checks.failed} of {checks.results} failed"
                + ("" if ok else f" (want {failed}):\n" + checks.text()))


def self_test(ktap):
    """The rewrite and the check on a made-up doc, JSON and block."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, FIGURES_DIR))
        doc = os.path.join(tmp, "docs", "demo.md")

        def write(path, text):
            with open(path, "w") as f:
                f.write(text)

        def run_check():
            out = KtapWriter()
            check(tmp, load(tmp), DEMO_BLOCKS, out)
            return out

        write(os.path.join(tmp, FIGURES_DIR, "demo.json"), json.dumps(DEMO_JSON))
        write(doc, DEMO_DOC)
        stale = run_check()
        expect(ktap, "selftest.stale_block_fails", stale, 1)
        rewrite(tmp, load(tmp), DEMO_BLOCKS)
        with open(doc) as f:
            made = f.read()
        want = DEMO_DOC.replace("stale text\n", "Build: hotplug kernel abc1234; `make demo`; "
                                "QEMU 7.2.22; 2 host cores.\n\n| name | value |\n|---|---|\n"
                                "| a | 1 |\n| b | 2 |\n\n")
        ktap.result("selftest.rewrite_makes_the_block_and_keeps_the_prose", made == want,
                    "" if made == want else made)
        fresh = run_check()
        expect(ktap, "selftest.fresh_block_passes", fresh, 0)
        write(doc, made.replace("| b | 2 |", "| b | 3 |"))
        edited = run_check()
        expect(ktap, "selftest.hand_edited_figure_fails", edited, 1)
        write(doc, made)
        write(os.path.join(tmp, FIGURES_DIR, "orphan.json"), "{}")
        orphan = run_check()
        expect(ktap, "selftest.unused_json_fails", orphan, 1)
        os.remove(os.path.join(tmp, FIGURES_DIR, "orphan.json"))
        # the block and the JSON it no longer uses
        for what, text in (("unknown_block", made.replace("demo.table", "demo.nothing")),
                           ("unclosed_block", made.replace(CLOSE, ""))):
            write(doc, text)
            expect(ktap, f"selftest.{what}_fails", run_check(), 2)
    # The docs check allows a hash on this line alone: the two must agree.
    import docs_check
    line = build_line(DEMO_JSON)
    ktap.result("selftest.build_line_is_the_one_docs_check_allows",
                docs_check.BUILD_LINE.match(line) is not None, line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--take", metavar="DIR",
                    help="copy DIR's benchmark JSON and plots into docs/ first")
    ap.add_argument("--sources", default=",".join(SOURCES),
                    help="with --take: which runs to take (default: all)")
    ap.add_argument("--check", action="store_true",
                    help="KTAP: the blocks are what the JSON gives, every JSON used")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--root", default=ROOT, help="the tree (default: this one)")
    args = ap.parse_args()
    if args.self_test or args.check:
        ktap = KtapWriter()
        self_test(ktap)
        if args.check:
            check(args.root, load(args.root), BLOCKS, ktap)
        return 0 if ktap.print() else 1
    if args.take:
        sources = args.sources.split(",")
        unknown = [s for s in sources if s not in SOURCES]
        if unknown:
            sys.exit(f"figures.py: no source {unknown} (have: {', '.join(SOURCES)})")
        for what in take(args.take, args.root, sources):
            print(f"figures.py: took {what}")
    changed = rewrite(args.root, load(args.root), BLOCKS)
    print("figures.py: rewrote " + (", ".join(changed) if changed else "nothing: "
                                     "every block was up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
