#!/usr/bin/env python3
"""Derives the apt entries the project needs from the machine's own sources.

QEMU 10 (bookworm-backports), the Raspberry Pi firmware (the
non-free-firmware component) and Trusted Firmware-A's source (a deb-src
entry) come from the Debian archive this machine already uses. Nothing
here names an archive host: each entry is made from the existing entry
whose suite is the release itself (its URIs and Signed-By kept), and
only what is missing is added, in one deb822 file of its own.

Usage: apt_sources.py check|write [--sources-dir DIR] [--os-release FILE]
  check  print each missing (type, suite, component) and exit 1 if any
  write  add the missing ones to DIR/hotplug-kernel.sources (root), and
         print what was added

Exit status 0: nothing missing (check) or written (write); 1: missing
(check); 2: cannot derive (no Debian entry for the release, not Debian).
"""
import argparse
import glob
import os
import sys

OUT_NAME = "hotplug-kernel.sources"


def fail(msg, code=2):
    print(f"apt_sources.py: {msg}", file=sys.stderr)
    sys.exit(code)


def os_release(path):
    info = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, val = line.strip().partition("=")
                if sep:
                    info[key] = val.strip('"')
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    return info


def parse_one_line(text):
    """Entries of a sources.list-style file: `deb [opts] URI SUITE COMP...`."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        typ, rest = words[0], words[1:]
        opts = {}
        if rest and rest[0].startswith("["):
            opt_words = []
            while rest:
                w = rest.pop(0)
                opt_words.append(w.strip("[]"))
                if w.endswith("]"):
                    break
            for o in " ".join(opt_words).split():
                k, _, v = o.partition("=")
                opts[k.lower()] = v
        if typ not in ("deb", "deb-src") or len(rest) < 2:
            continue
        out.append({
            "types": [typ], "uris": [rest[0]], "suites": [rest[1]],
            "components": rest[2:], "signed-by": opts.get("signed-by", ""),
            "enabled": True,
        })
    return out


def parse_deb822(text):
    """Entries of a .sources file: paragraphs of `Field: value` lines."""
    out = []
    for para in text.split("\n\n"):
        fields, key = {}, None
        for line in para.splitlines():
            if line.startswith("#"):
                continue
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()
                continue
            key, sep, val = line.partition(":")
            if not sep:
                key = None
                continue
            key = key.strip().lower()
            fields[key] = val.strip()
        if "types" not in fields or "uris" not in fields:
            continue
        out.append({
            "types": fields["types"].split(),
            "uris": fields["uris"].split(),
            "suites": fields.get("suites", "").split(),
            "components": fields.get("components", "").split(),
            "signed-by": fields.get("signed-by", ""),
            "enabled": fields.get("enabled", "yes").lower() != "no",
        })
    return out


def read_entries(sources_dir, skip_own=False):
    """Every enabled entry of the machine, and where it came from."""
    entries = []
    files = [os.path.join(os.path.dirname(sources_dir), "sources.list")]
    files += sorted(glob.glob(os.path.join(sources_dir, "*.list")))
    files += sorted(glob.glob(os.path.join(sources_dir, "*.sources")))
    for path in files:
        if skip_own and os.path.basename(path) == OUT_NAME:
            continue
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        parse = parse_deb822 if path.endswith(".sources") else parse_one_line
        entries += [e for e in parse(text) if e["enabled"]]
    return entries


def needed(codename):
    """(type, suite, component) the project's tools use."""
    return [
        ("deb", f"{codename}-backports", "main"),  # QEMU >= 9 on bookworm
        ("deb", codename, "non-free-firmware"),  # raspi-firmware
        ("deb-src", codename, "main"),  # arm-trusted-firmware's source
    ]


def has(entries, typ, suite, comp):
    return any(typ in e["types"] and suite in e["suites"] and
               comp in e["components"] for e in entries)


def release_entry(entries, codename):
    """The entry for the release itself (not -security, -updates)."""
    for e in entries:
        if "deb" in e["types"] and codename in e["suites"]:
            return e
    fail(f"no apt entry for the suite '{codename}' to derive from: add the "
         "backports suite, the non-free-firmware component and a deb-src "
         "line for it by hand (docs/boards.md)")


def render(base, missing):
    """One deb822 paragraph per type, suites and components merged."""
    paras = []
    for typ in ("deb", "deb-src"):
        mine = [(s, c) for t, s, c in missing if t == typ]
        if not mine:
            continue
        for suite in sorted({s for s, _ in mine}):
            comps = sorted({c for s, c in mine if s == suite})
            lines = [f"Types: {typ}", f"URIs: {' '.join(base['uris'])}",
                     f"Suites: {suite}", f"Components: {' '.join(comps)}"]
            if base["signed-by"]:
                lines.append(f"Signed-By: {base['signed-by']}")
            paras.append("\n".join(lines))
    return "\n\n".join(paras) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("check", "write"))
    ap.add_argument("--sources-dir", default="/etc/apt/sources.list.d")
    ap.add_argument("--os-release", default="/etc/os-release")
    args = ap.parse_args()

    info = os_release(args.os_release)
    codename = info.get("VERSION_CODENAME", "")
    if info.get("ID") != "debian" or not codename:
        fail(f"not a Debian release ({info.get('ID', '?')} "
             f"{codename or '?'}): install QEMU >= 9 and TF-A's source "
             "from your distribution")
    entries = read_entries(args.sources_dir)
    missing = [n for n in needed(codename) if not has(entries, *n)]
    if args.action == "check":
        for typ, suite, comp in missing:
            print(f"missing: {typ} {suite} {comp}")
        return 1 if missing else 0
    if not missing:
        return 0
    # Re-derive from the machine's own entries only, then rewrite ours
    # whole: it holds exactly what those lack.
    own = read_entries(args.sources_dir, skip_own=True)
    base = release_entry(own, codename)
    missing = [n for n in needed(codename) if not has(own, *n)]
    out = os.path.join(args.sources_dir, OUT_NAME)
    text = ("# Made by tools/apt_sources.py from this machine's own "
            f"{codename} entry:\n# what the hotplug kernel's tools need and "
            "the other entries lack.\n" + render(base, missing))
    try:
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror} (run as root)")
    for typ, suite, comp in missing:
        print(f"apt_sources.py: added {typ} {suite} {comp} to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
