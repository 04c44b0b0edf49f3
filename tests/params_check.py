#!/usr/bin/env python3
"""Check the README's command-line table against the declarations.

Every word a param_flag()/param_ulong()/param_string()/param_enum() declares, and every
fault point DEFINE_FAULT() declares (as fail.NAME), must be in the table of
README.md's "Kernel command line" section, and every word the table names
must be declared: the table is what users read, the declarations are what
the kernel parses. Prints one KTAP line per direction; exits 1 on a miss.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness.ktap import KtapWriter   # noqa: E402

SOURCES = ("arch", "drivers", "kernel", "lib")
DECL = re.compile(r'\bparam_(?:flag|ulong|string|enum)\(\s*"([^"]+)"')
FAULT = re.compile(r'\bDEFINE_FAULT(?:_CLEAR)?\(\s*(\w+)')
# A table word: `name`, `name=...`, `name.sub=...` at the start of a
# backticked span in the first column.
WORD = re.compile(r'`([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)?)(?:=|`)')


def declared():
    words = set()
    for top in SOURCES:
        for path in (ROOT / top).rglob("*.c"):
            text = path.read_text()
            words.update(DECL.findall(text))
            words.update("fail." + n for n in FAULT.findall(text))
    return words


def documented():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Kernel command line", 1)[1].split("\n## ", 1)[0]
    words = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split(" | ", 1)[0]
            words.update(WORD.findall(first))
    return words


def main():
    decl, doc = declared(), documented()
    ktap = KtapWriter()
    ktap.result("params.declared_words_in_readme", not decl - doc,
                " ".join(sorted(decl - doc)) or f"{len(decl)} words")
    ktap.result("params.readme_words_declared", not doc - decl,
                " ".join(sorted(doc - decl)) or f"{len(doc)} words")
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
