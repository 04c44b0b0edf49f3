#!/usr/bin/env python3
"""The kernel's event trace as a timeline: reads a console log holding a
trace dump (`trace=... trace.dump`, or the shell's `trace dump`) and writes
Chrome trace-event JSON, which ui.perfetto.dev and chrome://tracing open.

Tracks: process "CPUs" has one thread per CPU (what ran there: context
switches, RCU quiescent-state reports, expedited-GP IPIs, PSCI calls and
answers, governor decisions, the CPU's own hotplug steps); process
"hotplug" one per CPU brought up or down (the cpu_up/cpu_down slice and
the steps surviving CPUs ran for it); process "RCU" the grace periods and
the expedited ones. docs/trace.md has the dump format.

Usage: tools/trace.py LOG [--out build/trace.json]      convert a log
       tools/trace.py --check JSON [--log LOG] [--ktap] check a timeline
       tools/trace.py --run [--out build/trace.json] [--ktap]
                         boot QEMU (-smp 4 virt, CPUs going down and up
                         under the RCU torture's readers), convert, check
       tools/trace.py --cycles LOG [--from S] [--to S]   where down+up
                         cycles spend their time (below)
       tools/trace.py --self-test                       the checker's own test

--cycles: each cycle of a CPU (cpuhp_op_begin down to the cpuhp_op_end up
that follows) that begins between --from and --to seconds of the trace's
clock (the printk clock on virt and the Pi), and, between consecutive
events of a cycle (context switches left out), the time from one to the
next: its total and median over the cycles and how many had it. A
segment that starts on one CPU and ends on another is a hand-off: a vCPU
the host left waiting shows there (docs/benchmarks.md, "Under readers").
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.console import strip_timestamp           # noqa: E402
from harness.ktap import KtapWriter                   # noqa: E402
from harness.qemu import qemu_sh_argv, run_qemu       # noqa: E402

# The run: readers of the RCU torture busy on every CPU while its hotplug
# thread takes CPUs down and up; it ends after 3 cycles and 30 GPs.
RUN_APPEND = ("trace=all trace.dump torture=30 torture.goal=3,30 "
              "torture.onoff=100 poweroff")
RUN_QEMU = ["--smp", "4"]
RUN_TIMEOUT = 120

# Steps the CPU runs itself, interrupts off (on_cpu in kernel/hotplug/core.c):
# slices of its own CPU track, not of the hotplug track.
AP_STEPS = {"irqchip:starting", "tick:starting", "rcu:starting"}

PID_CPUS, PID_HOTPLUG, PID_RCU = 1, 2, 3
TID_GP, TID_EXP = 1, 2

EVENT = re.compile(r"^trace: (\d+) (\d+) (\w+)((?: \S+=\S*)*)$")
BEGIN = re.compile(r"^trace: begin freq=(\d+) cpus=(\d+) entries=(\d+) on=(\S+)$")
CPU_LINE = re.compile(r"^trace: cpu (\d+) events (\d+) lost (\d+)$")


# ---- the dump ------------------------------------------------------------------

def parse_dump(lines):
    """The last dump in the console lines: (header dict, events, lost per
    CPU). Each event: dict with cpu (recording CPU), ts (ticks), type and
    its key=value arguments."""
    start = None
    for i, line in enumerate(lines):
        if BEGIN.match(strip_timestamp(line)):
            start = i
    if start is None:
        raise ValueError("no 'trace: begin' line: was the trace dumped?")
    m = BEGIN.match(strip_timestamp(lines[start]))
    header = {"freq": int(m[1]), "cpus": int(m[2]), "entries": int(m[3]), "on": m[4]}
    events, lost, ended = [], {}, False
    for raw in lines[start + 1:]:
        line = strip_timestamp(raw)
        if line == "trace: end":
            ended = True
            break
        m = CPU_LINE.match(line)
        if m:
            lost[int(m[1])] = int(m[3])
            continue
        m = EVENT.match(line)
        if m:
            args = dict(kv.split("=", 1) for kv in m[4].split())
            events.append({"cpu": int(m[1]), "ts": int(m[2]), "type": m[3], "args": args})
    if not ended:
        raise ValueError("the dump has no 'trace: end' line: cut short?")
    return header, events, lost


# ---- the timeline -----------------------------------------------------------------

def to_us(ticks, freq):
    return round(ticks * 1e6 / freq, 3)


def slice_event(name, pid, tid, t0, t1, args):
    return {"name": name, "ph": "X", "pid": pid, "tid": tid, "ts": t0,
            "dur": round(t1 - t0, 3), "args": args}


def instant(name, cpu, ts, args):
    return {"name": name, "ph": "i", "s": "t", "pid": PID_CPUS, "tid": cpu + 1,
            "ts": ts, "args": args}


def metadata(ncpus, hotplug_cpus):
    meta = [{"name": "process_name", "ph": "M", "pid": PID_CPUS, "tid": 0,
             "args": {"name": "CPUs"}},
            {"name": "process_name", "ph": "M", "pid": PID_HOTPLUG, "tid": 0,
             "args": {"name": "hotplug"}},
            {"name": "process_name", "ph": "M", "pid": PID_RCU, "tid": 0,
             "args": {"name": "RCU"}},
            {"name": "thread_name", "ph": "M", "pid": PID_RCU, "tid": TID_GP,
             "args": {"name": "grace periods"}},
            {"name": "thread_name", "ph": "M", "pid": PID_RCU, "tid": TID_EXP,
             "args": {"name": "expedited grace periods"}}]
    for cpu in range(ncpus):
        meta.append({"name": "thread_name", "ph": "M", "pid": PID_CPUS, "tid": cpu + 1,
                     "args": {"name": f"CPU {cpu}"}})
    for cpu in sorted(hotplug_cpus):
        meta.append({"name": "thread_name", "ph": "M", "pid": PID_HOTPLUG, "tid": cpu + 1,
                     "args": {"name": f"CPU {cpu} up/down"}})
    return meta


def pair_slices(events, freq, last_ts):
    """X slices from begin/end pairs: hotplug operations and steps, grace
    periods. A begin without its end (still running at the dump) lasts to
    the end of the trace; an end whose begin was overwritten is dropped."""
    out, open_ = [], {}
    kinds = {"cpuhp_op_begin": ("op", True), "cpuhp_op_end": ("op", False),
             "cpuhp_step_begin": ("step", True), "cpuhp_step_end": ("step", False),
             "rcu_gp_start": ("gp", True), "rcu_gp_end": ("gp", False),
             "rcu_exp_start": ("exp", True), "rcu_exp_end": ("exp", False)}
    for e in events:
        kind = kinds.get(e["type"])
        if not kind:
            continue
        what, begins = kind
        key = {"op": lambda: ("op", e["target"], e["dir"]),
               "step": lambda: ("step", e["target"], e["step"], e["dir"]),
               "gp": lambda: ("gp", e["gp"]),
               "exp": lambda: ("exp", e["exp"])}[what]()
        if begins:
            open_[key] = e
            continue
        b = open_.pop(key, None)
        if b:
            out.append(make_slice(what, b, e, freq))
    for key, b in open_.items():
        out.append(make_slice(key[0], b, None, freq, last_ts))
    return out


def make_slice(what, b, e, freq, last_ts=None):
    t0 = to_us(b["ts"], freq)
    t1 = to_us(e["ts"] if e else last_ts, freq)
    args = {k: v for k, v in b.items() if k not in ("ts", "type")}
    if e is None:
        args["unfinished"] = True
    elif "err" in e:
        args["err"] = int(e["err"])
    if what == "op":
        name = f"cpu_{b['dir']} {b['target']}"
        return slice_event(name, PID_HOTPLUG, b["target"] + 1, t0, t1, args)
    if what == "step":
        if b["step"] in AP_STEPS:
            return slice_event(f"{b['step']} ({b['dir']})", PID_CPUS, b["cpu"] + 1, t0, t1,
                               args)
        return slice_event(b["step"], PID_HOTPLUG, b["target"] + 1, t0, t1, args)
    if what == "gp":
        return slice_event(f"GP {b['gp']}", PID_RCU, TID_GP, t0, t1, args)
    return slice_event(f"expedited GP {b['exp']}", PID_RCU, TID_EXP, t0, t1, args)


def instants(events, freq):
    out = []
    for e in events:
        ts, cpu, t = to_us(e["ts"], freq), e["cpu"], e["type"]
        args = {k: v for k, v in e.items() if k not in ("ts", "type", "cpu", "target")}
        if "target" in e:
            args["cpu"] = e["target"]
        if t == "sched_switch":
            out.append(instant(f"switch to {e['comm']} ({e['next']})", cpu, ts, args))
        elif t == "rcu_qs":
            out.append(instant(f"QS CPU{e['target']} GP {e['gp']}", cpu, ts, args))
        elif t == "rcu_exp_qs":
            out.append(instant(f"exp QS CPU{e['target']}", cpu, ts, args))
        elif t == "rcu_exp_ipi":
            out.append(instant(f"exp IPI: {e['action']}", cpu, ts, args))
        elif t == "psci_call":
            out.append(instant(f"PSCI {e['fn']} CPU{e['cpu_of']}", cpu, ts, args))
        elif t == "psci_ret":
            out.append(instant(f"PSCI {e['fn']} CPU{e['cpu_of']} -> {e['ret']}", cpu, ts,
                               args))
        elif t == "gov_decision":
            out.append(instant(f"gov: {e['action']} (want {e['want']})", cpu, ts, args))
    return out


def normalise(events):
    """Arguments typed; `cpu=` (the CPU an event is about) renamed target,
    apart from the recording CPU; PSCI's cpu= is cpu_of."""
    out = []
    for e in events:
        args = e["args"]
        n = {"cpu": e["cpu"], "ts": e["ts"], "type": e["type"]}
        for k, v in args.items():
            if k == "cpu":
                continue
            n[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
        if "cpu" in args:
            key = "cpu_of" if e["type"].startswith("psci") else "target"
            n[key] = int(args["cpu"])
        out.append(n)
    return out


def timeline(header, raw_events):
    """The Chrome trace-event JSON document (a dict) of a parsed dump."""
    freq = header["freq"]
    events = sorted(normalise(raw_events), key=lambda e: e["ts"])   # stable: ring order kept
    last_ts = events[-1]["ts"] if events else 0
    body = pair_slices(events, freq, last_ts) + instants(events, freq)
    body.sort(key=lambda e: (e["pid"], e["tid"], e["ts"], -e.get("dur", 0)))
    hotplug_cpus = {e["target"] for e in events if e["type"].startswith("cpuhp")}
    return {"traceEvents": metadata(header["cpus"], hotplug_cpus) + body,
            "displayTimeUnit": "ns",
            "otherData": {"clock_hz": freq, "entries_per_cpu": header["entries"],
                          "categories": header["on"]}}


# ---- the checks -------------------------------------------------------------------

EPS = 1e-6      # us: ts and dur are rounded to ns, their sums to float precision


def check_format(doc):
    """Problems with doc as trace-event JSON: fields each phase needs, B/E
    pairs on the same track, X slices nested, ts in order per track."""
    problems = []
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"]
    last, stacks, xstacks = {}, {}, {}
    for i, e in enumerate(events):
        where = f"event {i} ({e.get('name')!r})"
        missing = [f for f in ("name", "ph", "pid", "tid") if f not in e]
        if e.get("ph") != "M" and "ts" not in e:
            missing.append("ts")
        if missing:
            problems.append(f"{where}: no {', '.join(missing)}")
            continue
        ph, track = e["ph"], (e["pid"], e["tid"])
        if ph == "M":
            continue
        if ph not in ("B", "E", "X", "i", "I"):
            problems.append(f"{where}: phase {ph!r} not used here")
            continue
        if e["ts"] < last.get(track, e["ts"]):
            problems.append(f"{where}: ts {e['ts']} before {last[track]} on track {track}")
        last[track] = e["ts"]
        if ph == "B":
            stacks.setdefault(track, []).append(e["name"])
        elif ph == "E":
            stack = stacks.get(track, [])
            if not stack:
                problems.append(f"{where}: E without a B on track {track}")
            elif e.get("name", stack[-1]) != stack[-1]:
                problems.append(f"{where}: E closes {stack[-1]!r}, not properly nested")
                stack.pop()
            else:
                stack.pop()
        elif ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                problems.append(f"{where}: X without a duration >= 0")
                continue
            xs = xstacks.setdefault(track, [])
            while xs and xs[-1] <= e["ts"] + EPS and not (xs[-1] == e["ts"] and e["dur"] == 0):
                xs.pop()
            end = e["ts"] + e["dur"]
            if xs and end > xs[-1] + EPS:
                problems.append(f"{where}: slice [{e['ts']}, {end}] overlaps its parent"
                                f" ending at {xs[-1]} on track {track}")
            xs.append(end)
        elif e.get("s", "t") not in ("t", "p", "g"):
            problems.append(f"{where}: instant scope {e.get('s')!r}")
    for track, stack in stacks.items():
        if stack:
            problems.append(f"track {track}: B without E: {stack}")
    return problems


def slices(doc, pid, tid=None, name=None):
    return [e for e in doc["traceEvents"] if e.get("ph") == "X" and e["pid"] == pid
            and (tid is None or e["tid"] == tid) and (name is None or e["name"] == name)]


def inside(e, outer):
    return outer["ts"] - EPS <= e["ts"] and \
        e["ts"] + e.get("dur", 0) <= outer["ts"] + outer["dur"] + EPS


def check_down(doc, down):
    """Problems with one cpu_down slice: its steps, CPU_OFF before the
    waiter's AFFINITY_INFO OFF, a grace period inside rcu:sync, the CPU's
    own dying steps between."""
    cpu, problems = down["args"]["target"], []
    steps = {e["name"]: e for e in slices(doc, PID_HOTPLUG, cpu + 1) if inside(e, down)
             and e is not down}
    for name in ("cpu:online", "kthreads:park", "sched:active", "rcu:sync", "sched:drain",
                 "cpu:teardown", "cpu:bringup"):
        if name not in steps:
            problems.append(f"cpu_down {cpu}: no step {name}")
    if problems:
        return problems
    order = sorted(steps.values(), key=lambda e: e["ts"])
    names = [e["name"] for e in order]
    if names.index("rcu:sync") > names.index("sched:drain") or \
            names.index("cpu:online") != 0:
        problems.append(f"cpu_down {cpu}: steps out of order: {names}")
    sync, drain, power = steps["rcu:sync"], steps["sched:drain"], steps["cpu:bringup"]
    gps = slices(doc, PID_RCU)
    if not any(sync["ts"] <= g["ts"] + g["dur"] <= sync["ts"] + sync["dur"] + EPS
               for g in gps):
        problems.append(f"cpu_down {cpu}: no grace period ends inside rcu:sync")
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "i" and inside(e, down)]
    off = [e for e in ev if e["tid"] == cpu + 1 and e["name"] == f"PSCI CPU_OFF CPU{cpu}"]
    aff = [e for e in ev if e["tid"] != cpu + 1 and
           e["name"] == f"PSCI AFFINITY_INFO CPU{cpu} -> OFF" and inside(e, power)]
    if not off:
        problems.append(f"cpu_down {cpu}: no PSCI CPU_OFF on CPU {cpu}'s track")
    if not aff:
        problems.append(f"cpu_down {cpu}: no AFFINITY_INFO OFF inside cpu:bringup on"
                        " another CPU")
    if off and aff and not off[0]["ts"] <= aff[0]["ts"]:
        problems.append(f"cpu_down {cpu}: AFFINITY_INFO OFF at {aff[0]['ts']} before"
                        f" CPU_OFF at {off[0]['ts']}")
    dying = [e for e in slices(doc, PID_CPUS, cpu + 1) if inside(e, down)]
    if not dying:
        problems.append(f"cpu_down {cpu}: no dying steps on CPU {cpu}'s track")
    elif off and not all(drain["ts"] <= e["ts"] and e["ts"] + e["dur"] <= off[0]["ts"] + EPS
                         for e in dying):
        problems.append(f"cpu_down {cpu}: dying steps not between sched:drain and CPU_OFF")
    return problems


def check_against_log(doc, lines, writer):
    """The downs the kernel logged ("CPUn is down") against the timeline's
    cpu_down slices, and each of those slices' inner order."""
    logged = {}
    for line in lines:
        m = re.search(r"\bhotplug: CPU(\d+) is down$", strip_timestamp(line))
        if m:
            logged[int(m[1])] = logged.get(int(m[1]), 0) + 1
    downs = [e for e in slices(doc, PID_HOTPLUG) if e["name"].startswith("cpu_down ")
             and e["args"].get("err") == 0]
    traced = {}
    for d in downs:
        traced[d["args"]["target"]] = traced.get(d["args"]["target"], 0) + 1
    complete = all(v == 0 for v in doc["otherData"].get("lost", {}).values())
    writer.result("timeline: the kernel's downs are the trace's",
                  traced == logged if complete else
                  all(traced.get(c, 0) <= n for c, n in logged.items()),
                  f"log {logged}, trace {traced}")
    writer.result("timeline: at least one cpu_down traced", bool(downs))
    for d in downs:
        problems = check_down(doc, d)
        writer.result(f"timeline: {d['name']} at {d['ts']} us in order", not problems,
                      "\n".join(problems))


# ---- the checker's own test ---------------------------------------------------------

def bad_documents():
    """Documents the checker must refuse, each with why."""
    x = {"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 5}
    return [
        ("B without E", [{"name": "a", "ph": "B", "pid": 1, "tid": 1, "ts": 1}]),
        ("E on another track", [{"name": "a", "ph": "B", "pid": 1, "tid": 1, "ts": 1},
                                {"name": "a", "ph": "E", "pid": 1, "tid": 2, "ts": 2}]),
        ("B/E crossed", [{"name": "a", "ph": "B", "pid": 1, "tid": 1, "ts": 1},
                         {"name": "b", "ph": "B", "pid": 1, "tid": 1, "ts": 2},
                         {"name": "a", "ph": "E", "pid": 1, "tid": 1, "ts": 3},
                         {"name": "b", "ph": "E", "pid": 1, "tid": 1, "ts": 4}]),
        ("X overlapping", [x, dict(x, ts=12, dur=5)]),
        ("ts backwards", [x, dict(x, ts=9, dur=0)]),
        ("no ts", [{"name": "a", "ph": "i", "pid": 1, "tid": 1}]),
        ("X without dur", [{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 1}]),
    ]


def self_test(writer):
    for why, events in bad_documents():
        writer.result(f"checker refuses: {why}", bool(check_format({"traceEvents": events})))
    good = [{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
            {"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
            {"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 15, "dur": 0},
            {"name": "d", "ph": "i", "s": "t", "pid": 1, "tid": 2, "ts": 3}]
    problems = check_format({"traceEvents": good})
    writer.result("checker takes nested slices and instants", not problems,
                  "\n".join(problems))


# ---- where cycles spend their time ------------------------------------------------

# Arguments that name an event's place in a cycle; the others (errors,
# answers, sequence numbers, masks) vary from cycle to cycle.
CYCLE_KEYS = ("cpu", "step", "dir", "fn", "action")


def event_key(e):
    args = " ".join(f"{k}={e['args'][k]}" for k in CYCLE_KEYS if k in e["args"])
    return f"cpu{e['cpu']} {e['type']} {args}".rstrip()


def cycles(header, events, t_from=0.0, t_to=float("inf")):
    """Each cycle in the window: (total us, [(segment, us), ...])."""
    freq = header["freq"]
    events = sorted(events, key=lambda e: e["ts"])
    found = []
    for i, e in enumerate(events):
        if (e["type"] != "cpuhp_op_begin" or e["args"].get("dir") != "down"
                or not t_from <= e["ts"] / freq <= t_to):
            continue
        cpu, segs, prev = e["args"].get("cpu"), [], e
        for f in events[i + 1:]:
            if f["type"] == "sched_switch":
                continue
            segs.append((f"{event_key(prev)}  ->  {event_key(f)}",
                         (f["ts"] - prev["ts"]) * 1e6 / freq))
            prev = f
            if (f["type"] == "cpuhp_op_end" and f["args"].get("dir") == "up"
                    and f["args"].get("cpu") == cpu):
                found.append(((f["ts"] - e["ts"]) * 1e6 / freq, segs))
                break
    return found


def median(v):
    v = sorted(v)
    return v[(len(v) - 1) // 2]


def cycles_report(found, top=25):
    """The lines --cycles prints."""
    if not found:
        return ["no complete down+up cycle in the window"]
    totals = [t for t, _ in found]
    out = [f"{len(found)} cycles, median {median(totals):.1f} us: "
           + " ".join(f"{t:.0f}" for t in sorted(totals)),
           "   total us  median us   n  segment"]
    by_seg = {}
    for _, segs in found:
        for name, us in segs:
            by_seg.setdefault(name, []).append(us)
    for name, v in sorted(by_seg.items(), key=lambda kv: -sum(kv[1]))[:top]:
        out.append(f"{sum(v):11.1f} {median(v):10.1f} {len(v):3d}  {name}")
    return out


def cycles_self_test(writer):
    """Two cycles of CPU3 at 1 MHz: segments, totals, the window."""
    def ev(ts, rec, typ, **args):
        return {"cpu": rec, "ts": ts, "type": typ, "args": {k: str(v) for k, v in args.items()}}
    evs = []
    for base, on in ((1000, 30), (5000, 4000)):
        evs += [ev(base, 0, "cpuhp_op_begin", cpu=3, dir="down"),
                ev(base + 5, 3, "psci_call", fn="CPU_OFF", cpu=3),
                ev(base + 7, 0, "sched_switch", prev=1, next=2),
                ev(base + 20, 0, "cpuhp_op_end", cpu=3, dir="down", err=0),
                ev(base + 21, 0, "cpuhp_op_begin", cpu=3, dir="up"),
                ev(base + 21 + on, 3, "cpuhp_step_begin", cpu=3, step="irqchip:starting", dir="up"),
                ev(base + 25 + on, 0, "cpuhp_op_end", cpu=3, dir="up", err=0)]
    header = {"freq": 1000000}
    found = cycles(header, evs)
    totals = [round(t) for t, _ in found]
    writer.result("cycles: both found, totals end minus begin", totals == [55, 4025],
                  "" if totals == [55, 4025] else str(totals))
    segs = dict(found[1][1]) if len(found) == 2 else {}
    key = ("cpu0 cpuhp_op_begin cpu=3 dir=up  ->  "
           "cpu3 cpuhp_step_begin cpu=3 step=irqchip:starting dir=up")
    handoff = round(segs.get(key, -1))
    writer.result("cycles: a hand-off segment keyed without varying args", handoff == 4000,
                  "" if handoff == 4000 else str(sorted(segs)))
    writer.result("cycles: context switches left out",
                  not any("sched_switch" in k for k in segs))
    writer.result("cycles: the window selects by the down's start",
                  len(cycles(header, evs, 0.004, 1.0)) == 1)


# ---- main ------------------------------------------------------------------------

def convert(lines, out):
    header, events, lost = parse_dump(lines)
    doc = timeline(header, events)
    doc["otherData"]["lost"] = {str(c): n for c, n in lost.items()}
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
    print(f"trace.py: {len(events)} events, lost {sum(lost.values())}: {out}"
          " (open it in ui.perfetto.dev or chrome://tracing)", file=sys.stderr)
    return doc


def run(out):
    """Boot QEMU with the trace on under load; its console lines."""
    log_path = os.path.join(ROOT, "build", "trace.log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, "w") as log:
        r = run_qemu(qemu_sh_argv(RUN_QEMU, RUN_TIMEOUT, append=RUN_APPEND), RUN_TIMEOUT,
                     log, cwd=ROOT)
    if r.status != 0:
        why = "timed out" if r.timed_out else f"exit {r.status}"
        raise SystemExit(f"trace.py: the boot failed ({why}): see {log_path}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", nargs="?", help="console log holding a trace dump")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "trace.json"))
    ap.add_argument("--check", metavar="JSON", help="check a timeline")
    ap.add_argument("--log", dest="check_log", help="with --check: the kernel's log")
    ap.add_argument("--run", action="store_true", help="boot QEMU, convert, check")
    ap.add_argument("--ktap", action="store_true", help="print the checks as KTAP")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--cycles", metavar="LOG", help="where down+up cycles spend their time")
    ap.add_argument("--from", dest="t_from", type=float, default=0.0, metavar="S")
    ap.add_argument("--to", dest="t_to", type=float, default=float("inf"), metavar="S")
    args = ap.parse_args()
    writer = KtapWriter()
    if args.self_test:
        self_test(writer)
        cycles_self_test(writer)
        return 0 if writer.print() else 1
    if args.cycles:
        header, events, _ = parse_dump(open(args.cycles, errors="replace").read().splitlines())
        print("\n".join(cycles_report(cycles(header, events, args.t_from, args.t_to))))
        return 0
    if args.check:
        with open(args.check) as f:
            doc = json.load(f)
        lines = open(args.check_log, errors="replace").read().splitlines() \
            if args.check_log else None
    elif args.run or args.log:
        lines = run(args.out) if args.run else \
            open(args.log, errors="replace").read().splitlines()
        doc = convert(lines, args.out)
        if not args.run and not args.ktap:
            return 0
    else:
        ap.error("a LOG, --check JSON or --run")
    problems = check_format(doc)
    writer.result("timeline: trace-event format (fields, nesting, time order)", not problems,
                  "\n".join(problems[:20]))
    if lines is not None:
        check_against_log(doc, lines, writer)
    if args.run and args.ktap:
        self_test(writer)
        cycles_self_test(writer)
    ok = writer.print() if args.ktap or args.check else writer.failed == 0
    if not args.ktap and not args.check and not ok:
        writer.print()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
