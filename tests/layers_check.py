#!/usr/bin/env python3
"""The layer check: every arrow between the kernel's parts, as the objects
of a build use each other's symbols, must be one tools/layers.toml allows.

Reads the symbols each object of the build defines and uses (nm), maps each
object to its part by its source file, and prints one KTAP line per part:
ok when every symbol it uses from another part is an allowed arrow, else
the arrows and the symbols behind them. Exits 1 on any forbidden arrow.

Usage: tests/layers_check.py [--build DIR] [--markdown] [--self-test]
  --markdown   print the table as docs/architecture.md shows it (the
               check fails when the doc's copy differs)
  --self-test  a made-up tree: an allowed arrow passes, a forbidden fails
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
NM = os.environ.get("NM", "aarch64-linux-gnu-nm")
SOURCE_DIRS = ("arch", "drivers", "kernel", "lib")
# Every part may use these, as it may use lib: they are services.
SERVICES = ("lib", "base", "debug")
DEFINED = set("TDBRGSVWC")


def load(path=TABLE):
    with open(path, "rb") as f:
        table = tomllib.load(f)
    parts = [(p["name"], p["files"]) for p in table["part"]]
    return parts, table["arrows"]


def part_of(source, parts):
    for name, globs in parts:
        if any(fnmatch.fnmatch(source, g) for g in globs):
            return name
    return None


def allowed(user, used, arrows):
    if user == used or used in SERVICES:
        return True
    targets = arrows.get(user, [])
    return "*" in targets or used in targets


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
    """{(user part, used part): {"file: symbol", ...}} from units, a list
    of (source, defined symbols, used symbols)."""
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
                    f"{os.path.basename(source)} -> {s} ({owner[s]})")
    return found


def check(units, parts, arrows, ktap):
    found = arrows_used(units, parts)
    sources = [u[0] for u in units]
    unplaced = [s for s in sources if part_of(s, parts) is None]
    ktap.result("layers: every object belongs to a part", not unplaced,
                ", ".join(unplaced) or f"{len(sources)} objects")
    ok = not unplaced
    for name, _ in parts:
        bad = {k: v for k, v in found.items() if k[0] == name and
               not allowed(k[0], k[1], arrows)}
        used = sorted(b for (a, b) in found if a == name)
        detail = "; ".join(f"{a} -> {b} not allowed: {', '.join(sorted(v)[:3])}"
                           + (f" and {len(v) - 3} more" if len(v) > 3 else "")
                           for (a, b), v in sorted(bad.items()))
        ktap.result(f"layers: {name}", not bad,
                    detail or f"uses {', '.join(used) or 'nothing else'}")
        ok &= not bad
    return ok


def markdown(parts, arrows):
    lines = ["| part | files | may use (besides lib, base, debug) |",
             "|---|---|---|"]
    for name, globs in parts:
        targets = arrows.get(name, [])
        use = "everything" if "*" in targets else ", ".join(targets) or "nothing"
        lines.append(f"| {name} | {', '.join(f'`{g}`' for g in globs)} | {use} |")
    return "\n".join(lines)


def self_test():
    ktap = KtapWriter()
    parts = [("experiments", ["kernel/tests/*"]), ("governor", ["kernel/governor/*"]),
             ("hotplug", ["kernel/hotplug/*"]), ("lib", ["lib/*"])]
    arrows = {"hotplug": [], "governor": ["hotplug"], "experiments": ["*"], "lib": []}
    good = [("kernel/governor/governor.c", {"gov_run"}, {"cpu_down", "memcpy"}),
            ("kernel/hotplug/core.c", {"cpu_down"}, {"memcpy"}),
            ("kernel/tests/t.c", {"t"}, {"gov_run", "cpu_down"}),
            ("lib/string.c", {"memcpy"}, set())]
    bad = good[:1] + [("kernel/hotplug/core.c", {"cpu_down"}, {"gov_run"})] + good[2:]
    stray = good + [("kernel/new/x.c", {"x"}, set())]
    ktap.result("self-test: allowed arrows pass", check(good, parts, arrows, KtapWriter()))
    ktap.result("self-test: mechanism -> policy fails",
                not check(bad, parts, arrows, KtapWriter()))
    ktap.result("self-test: an object of no part fails",
                not check(stray, parts, arrows, KtapWriter()))
    ktap.result("self-test: the real table parses", bool(load()[0]))
    return ktap.print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return 0 if self_test() else 1
    parts, arrows = load()
    if args.markdown:
        print(markdown(parts, arrows))
        return 0
    units = [(src, *symbols(obj)) for src, obj in objects(args.build)]
    ktap = KtapWriter()
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        shown = markdown(parts, arrows) in f.read()
    ktap.result("layers: docs/architecture.md shows this table", shown,
                "" if shown else "paste tests/layers_check.py --markdown into it")
    if not units:
        ktap.result("layers: the build has objects", False, f"none in {args.build}")
        ok = False
    else:
        ok = check(units, parts, arrows, ktap)
    ktap.print()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
