#!/usr/bin/env python3
"""The layer check: the kernel's parts are ranked (tools/layers.toml); a
part may use those of a lower rank, and a use of the same or a higher rank
only where an [[up]] entry of the table names the symbol, with its reason.

Reads the symbols each object of the build defines and uses (nm), maps each
object to its part by its source file, and prints one KTAP line per part:
ok when every symbol it uses from another part is below it or declared,
else the uses and the symbols behind them; then one line saying whether
every [[up]] entry still matches a use (a stale one is refused). Exits 1
on any failure.

Usage: tests/layers_check.py [--build DIR] [--markdown] [--write] [--self-test]
  --markdown   print the diagram docs/architecture.md shows (the check
               fails when the doc's copy differs)
  --write      put it into docs/architecture.md, between its layers marks
  --self-test  made-up trees: a use below passes, an undeclared use up or
               sideways fails, a stale entry fails, an unplaced object fails
"""
import argparse
import fnmatch
import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter   # noqa: E402

TABLE = os.path.join(ROOT, "tools", "layers.toml")
DOC = os.path.join(ROOT, "docs", "architecture.md")
BEGIN, END = "<!-- layers: tests/layers_check.py --write -->\n", "<!-- /layers -->"
NM = os.environ.get("NM", "aarch64-linux-gnu-nm")
SOURCE_DIRS = ("arch", "drivers", "kernel", "lib")
DEFINED = set("TDBRGSVWC")


def load(path=TABLE):
    """(parts: [(name, rank, globs)], ups: [{from, to, symbols, why}])."""
    with open(path, "rb") as f:
        table = tomllib.load(f)
    parts = [(p["name"], p["rank"], p["files"]) for p in table["part"]]
    return parts, table.get("up", [])


def part_of(source, parts):
    for name, _, globs in parts:
        if any(fnmatch.fnmatch(source, g) for g in globs):
            return name
    return None


def declared(user, used, symbol, ups):
    """The index of the [[up]] entry that allows user -> used for symbol."""
    for i, u in enumerate(ups):
        if (u["from"] in ("*", user) and u["to"] == used and
                any(fnmatch.fnmatchcase(symbol, g) for g in u["symbols"])):
            return i
    return None


def objects(build):
    """(source path, object path) of every object built from the tree."""
    for top in SOURCE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(build, top)):
            for f in sorted(files):
                if not f.endswith(".o"):
                    continue
                obj = os.path.join(dirpath, f)
                rel = os.path.relpath(obj, build)[:-2]
                for ext in (".c", ".S"):
                    if os.path.exists(os.path.join(ROOT, rel + ext)):
                        yield rel + ext, obj
                        break


def symbols(obj):
    """The symbols obj defines and the ones it uses from elsewhere."""
    out = subprocess.run([NM, obj], capture_output=True, text=True, check=True).stdout
    defs, uses = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in DEFINED:
            defs.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            uses.add(f[1])
    return defs, uses


def arrows_used(units, parts):
    """{(user part, used part): {(file, symbol, owner), ...}} from units, a
    list of (source, defined symbols, used symbols)."""
    owner = {}
    for source, defs, _ in units:
        for s in defs:
            owner.setdefault(s, source)
    found = {}
    for source, _, uses in units:
        for s in uses:
            if s not in owner:
                continue
            a, b = part_of(source, parts), part_of(owner[s], parts)
            if a != b:
                found.setdefault((a, b), set()).add(
                    (os.path.basename(source), s, owner[s]))
    return found


def check(units, parts, ups, ktap):
    found = arrows_used(units, parts)
    rank = {name: r for name, r, _ in parts}
    sources = [u[0] for u in units]
    unplaced = [s for s in sources if part_of(s, parts) is None]
    ktap.result("layers: every object belongs to a part", not unplaced,
                ", ".join(unplaced) or f"{len(sources)} objects")
    ok = not unplaced
    matched = set()
    for name, r, _ in parts:
        bad = {}
        for (a, b), uses in found.items():
            if a != name or rank[b] < r:
                continue
            for f, sym, src in sorted(uses):
                i = declared(a, b, sym, ups)
                if i is None:
                    bad.setdefault(b, []).append(f"{f} -> {sym} ({src})")
                else:
                    matched.add(i)
        used = sorted(b for (a, b) in found if a == name)
        detail = "; ".join(
            f"{name} -> {b} (rank {rank[b]} >= {r}) not declared: "
            + ", ".join(v[:3]) + (f" and {len(v) - 3} more" if len(v) > 3 else "")
            for b, v in sorted(bad.items()))
        ktap.result(f"layers: {name}", not bad,
                    detail or f"uses {', '.join(used) or 'nothing else'}")
        ok &= not bad
    stale = [f"{u['from']} -> {u['to']} ({', '.join(u['symbols'])})"
             for i, u in enumerate(ups) if i not in matched]
    ktap.result("layers: every [[up]] entry matches a use", not stale,
                "stale: " + "; ".join(stale) if stale else f"{len(ups)} entries")
    return ok and not stale


def markdown(parts, ups):
    """The ranks as a ladder, top down; each part's files; the declared
    uses up or sideways."""
    ranks = {}
    for name, r, globs in parts:
        ranks.setdefault(r, []).append((name, globs))
    lines = ["```", "rank  part (uses any part on a lower rung)"]
    for r in sorted(ranks, reverse=True):
        lines.append(f"{r:4}  " + "   ".join(n for n, _ in ranks[r]))
    lines += ["```", "", "| part | files |", "|---|---|"]
    for r in sorted(ranks, reverse=True):
        for name, globs in ranks[r]:
            lines.append(f"| {name} | {', '.join(f'`{g}`' for g in globs)} |")
    lines += ["", "| uses up or sideways | symbols | why |", "|---|---|---|"]
    for u in ups:
        frm = "every part" if u["from"] == "*" else u["from"]
        lines.append(f"| {frm} -> {u['to']} | "
                     f"{', '.join(f'`{s}`' for s in u['symbols'])} | {u['why']} |")
    return "\n".join(lines)


def self_test():
    ktap = KtapWriter()
    parts = [("experiments", 4, ["kernel/tests/*"]), ("governor", 3, ["kernel/governor/*"]),
             ("hotplug", 2, ["kernel/hotplug/*"]), ("arch", 1, ["arch/*"]),
             ("lib", 0, ["lib/*"])]
    ups = [{"from": "arch", "to": "hotplug", "symbols": ["cpuhp_ap_*"], "why": "hooks"}]
    good = [("kernel/governor/governor.c", {"gov_run"}, {"cpu_down", "memcpy"}),
            ("kernel/hotplug/core.c", {"cpu_down", "cpuhp_ap_startup"}, {"memcpy", "arch_up"}),
            ("arch/smp.c", {"arch_up"}, {"cpuhp_ap_startup"}),
            ("kernel/tests/t.c", {"t"}, {"gov_run", "cpu_down"}),
            ("lib/string.c", {"memcpy"}, set())]
    up = good[:1] + [("kernel/hotplug/core.c", {"cpu_down"}, {"gov_run"})] + good[2:]
    side = good[:2] + [("arch/smp.c", {"arch_up"}, {"cpuhp_ap_startup", "cpu_down"})] + good[3:]
    stray = good + [("kernel/new/x.c", {"x"}, set())]
    stale = ups + [{"from": "lib", "to": "arch", "symbols": ["arch_up"], "why": "none"}]
    ktap.result("self-test: uses below and declared ones pass",
                check(good, parts, ups, KtapWriter()))
    ktap.result("self-test: mechanism -> policy (up) fails",
                not check(up, parts, ups, KtapWriter()))
    ktap.result("self-test: an undeclared symbol of a declared pair fails",
                not check(side, parts, ups, KtapWriter()))
    ktap.result("self-test: an [[up]] entry matching nothing fails",
                not check(good, parts, stale, KtapWriter()))
    ktap.result("self-test: an object of no part fails",
                not check(stray, parts, ups, KtapWriter()))
    ktap.result("self-test: the real table parses", bool(load()[0]))
    return ktap.print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return 0 if self_test() else 1
    parts, ups = load()
    if args.markdown:
        print(markdown(parts, ups))
        return 0
    if args.write:
        with open(DOC) as f:
            doc = f.read()
        a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        with open(DOC, "w") as f:
            f.write(doc[:a] + markdown(parts, ups) + "\n" + doc[b:])
        return 0
    units = [(src, *symbols(obj)) for src, obj in objects(args.build)]
    ktap = KtapWriter()
    with open(DOC) as f:
        shown = BEGIN + markdown(parts, ups) + "\n" + END in f.read()
    ktap.result("layers: docs/architecture.md shows this table", shown,
                "" if shown else "run tests/layers_check.py --write")
    if not units:
        ktap.result("layers: the build has objects", False, f"none in {args.build}")
        ok = False
    else:
        ok = check(units, parts, ups, ktap)
    ktap.print()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
