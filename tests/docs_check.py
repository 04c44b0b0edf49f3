#!/usr/bin/env python3
"""Check that the docs describe the tree as it is, in the present tense.

Scans README.md, every docs/*.md and tests/README.md, and prints one KTAP
result per rule; a failure lists each offence as `file:line: text` (the
line is the checker's pointer into the doc, not something a doc may say).
A doc says how things are and why; the story of a change belongs in its
commit message. The rules:

- commit hashes: a word of 7 to 40 lowercase hex digits with at least one
  digit and one letter a-f. Not a hash: a 0x-prefixed number (MPIDRs,
  addresses); a UUID (8-4-4-4-12, the TF-A Standard Service UID); a word
  glued to a letter, digit, `_`, `-`, `/` or `.` on either side (part of a
  name, a path, a version such as v2.8); inside a code block (fenced, or
  indented by 4 spaces), a word of exactly 8 or 16 digits: a 32- or 64-bit
  register value or address in a dump, as the kernel prints them. One
  line may name a build by its hash: the build line tools/figures.py
  writes right after a `<!-- figures: NAME -->` marker ("Build: hotplug
  kernel VERSION; `COMMAND`; QEMU V; N host cores."), in a block closed by
  `<!-- /figures -->`: the build those generated figures ran on.
- dates: 2026-12-06, 06.12.2026, "December 2026", "6 December", "Dec 2026".
  A year alone ("the 2013 debate") is not a date of this project.
- line numbers: `file.c:123`, "line 123", "lines 184-927"; a number followed
  by a unit ("a console line 48 us") is a quantity, not a line.
- session and tracker stories: "this session", "(second session)",
  "issue 15", "finding 5", "Stop 31", "round 20". Name the mechanism and the
  test instead.
- paths that do not exist: a token, backticked or plain, that starts with a
  top directory of the tree (arch/ kernel/ drivers/ lib/ include/ tests/
  tools/ docs/ .ci/) or names a top-level file (linker.ld, qemu.sh,
  Makefile); and a backticked bare file name (`head.S`, `pack.c`), which
  must be some file's name in the tree. Allowed: build/ paths (products),
  a path with a glob or a placeholder (`*`, `<file>`, `{a,b}`, BOARD).
- identifiers that do not exist: a backticked `name()` must be defined or
  declared in the tree (a C function or function-like macro, an assembly
  label, a Python def or class, a shell function, a Promela proctype or
  inline); a backticked C-macro-like CONSTANT_NAME (capitals with an
  underscore), a `-DNAME` switch and a backticked snake_case name (a test
  case, a struct field, a figure's JSON key) must occur in the tree's
  sources. Names that are Linux's or a spec's, named as such in the docs,
  are in ALLOWED below with the reason.

Besides the docs, the code comments of arch/ kernel/ drivers/ lib/
include/ tests/ tools/ (.c .h .S .py .sh .pml) are scanned for tracker
references ("issue 15", "finding 5"), which mean nothing outside the
tracker. They are listed as diagnostics; --strict-comments makes them a
failure.

Every run first checks the rules themselves on made-up docs (--self-test
does only that): each doc with one kind of offence must be caught by its
rule alone, a clean one by none.

Usage: tests/docs_check.py [--strict-comments] [--self-test] [--root DIR]
Exit status 0 when every result passed.
"""
import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter   # noqa: E402

TOP_DIRS = ("arch", "kernel", "drivers", "lib", "include", "tests", "tools", "docs", ".ci")
TOP_FILES = ("linker.ld", "qemu.sh", "Makefile")
SOURCE_EXT = (".c", ".h", ".S", ".py", ".sh", ".pml")
COMMENT_DIRS = ("arch", "kernel", "drivers", "lib", "include", "tests", "tools")
SKIP_DIRS = {".git", "build", "__pycache__"}
SELF = os.path.join("tests", "docs_check.py")

# Names the docs may use that the tree does not define, each named in the
# docs as someone else's.
ALLOWED = {
    # Linux's, from the 2013 hotplug-locking debate and its designs
    "get_online_cpus": "Linux's reader lock of 2013, the rwlock design's model",
    "synchronize_sched": "Linux's RCU-sched wait that cpu_down() paid in 2013",
    "multi_cpu_stop": "Linux's stop_machine() worker, which ours follows",
    "__schedule_bug": "Linux's name for the scheduling-while-atomic report",
    "can_migrate_task": "Linux's balancer check that ours mirrors",
    "__preempt_count_dec_and_test": "Linux arm64's preempt_enable() core, compared",
    "CONFIG_DEBUG_PREEMPT": "Linux's option that debug_preempt mirrors",
    "fdt_check_full": "libfdt's whole-tree check",
    "assert": "Promela's assertion, in the model docs",
    "__atomic_exchange_n": "GCC's atomic builtin, which the C code calls",
}
# File names the docs may give that are not in the tree, with the reason.
ALLOWED_FILES = {
    "pan.c": "the verifier spin generates from a model",
}

WORD_GLUE = r"[\w./-]"


# ---- reading a doc -------------------------------------------------------------------

class Block:
    """A run of lines of one kind: prose (a paragraph, a list, a table) or code."""

    def __init__(self, first_line, lines, code):
        self.first_line, self.lines, self.code = first_line, lines, code
        self.text = "\n".join(lines)

    def line_of(self, offset):
        return self.first_line + self.text.count("\n", 0, offset)


def blocks_of(text):
    """Splits markdown into prose and code blocks (fenced, or indented by 4
    spaces after a blank line or another code line)."""
    blocks, cur, cur_code, start = [], [], False, 1
    fenced = False
    prev_blank = True

    def flush(next_start):
        nonlocal cur, start
        if cur:
            blocks.append(Block(start, cur, cur_code))
        cur, start = [], next_start

    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            flush(number + 1)
            fenced = not fenced
            cur_code = fenced
            prev_blank = False
            continue
        if fenced:
            cur.append(line)
            continue
        blank = not line.strip()
        is_code = (line.startswith("    ") or line.startswith("\t")) and \
            (prev_blank or cur_code) and not blank
        if blank:
            if not cur_code:
                flush(number + 1)
            else:
                cur.append(line)
        elif is_code != cur_code or not cur:
            flush(number)
            cur_code = is_code
            cur.append(line)
        else:
            cur.append(line)
        prev_blank = blank
    flush(0)
    for b in blocks:        # a code block does not end in blank lines
        while b.lines and not b.lines[-1].strip():
            b.lines.pop()
        b.text = "\n".join(b.lines)
    return [b for b in blocks if b.lines]


BACKTICK = re.compile(r"`([^`]+)`")


def spans(block):
    """(offset, text) of each backticked span of a prose block."""
    if block.code:
        return []
    return [(m.start(1), m.group(1)) for m in BACKTICK.finditer(block.text)]


# ---- the rules over docs ---------------------------------------------------------------

UUID = re.compile(r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b")
HEXWORD = re.compile(r"(?<![\w./-])([0-9a-f]{7,40})(?![\w/-])(?!\.\w)")


# tools/figures.py's generated blocks, and the build line each starts with.
FIGURES_OPEN = re.compile(r"^<!-- figures: [\w.-]+ -->$")
FIGURES_CLOSE = "<!-- /figures -->"
BUILD_LINE = re.compile(r"^Build: hotplug kernel ([0-9a-f]{7,40})(?:-dirty)?; `[^`]+`; "
                        r"QEMU [\w.+~-]+; \d+ host cores?\.$")


def build_lines(text):
    """{line number: version} of the build line of each closed figures
    block: the line right after its opening marker, if it is one."""
    out, pending = {}, None
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if FIGURES_OPEN.match(line.strip()):
            m = BUILD_LINE.match(lines[number]) if number < len(lines) else None
            pending = (number + 1, m.group(1)) if m else None
        elif line.strip() == FIGURES_CLOSE and pending:
            out[pending[0]] = pending[1]
            pending = None
    return out


def rule_hashes(block):
    text = UUID.sub(lambda m: "-" * len(m.group(0)), block.text)
    for m in HEXWORD.finditer(text):
        word = m.group(1)
        if not re.search(r"[0-9]", word) or not re.search(r"[a-f]", word):
            continue
        if block.code and len(word) in (8, 16):
            continue
        yield m.start(1), word


MONTHS = ("January|February|March|April|May|June|July|August|September|October|"
          "November|December")
MONTHS_SHORT = "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
DATE = re.compile(
    r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b"                       # 2026-12-06
    r"|\b[0-3]?\d[./][01]?\d[./](?:19|20)\d\d\b"               # 06.12.2026
    rf"|\b(?:{MONTHS})\s+(?:[0-3]?\d(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d\b"  # December 2026
    rf"|\b[0-3]?\d(?:st|nd|rd|th)?\s+(?:{MONTHS})\b"           # 6 December
    rf"|\b(?:{MONTHS})\s+[0-3]?\d(?:st|nd|rd|th)?\b"           # December 6
    rf"|\b(?:{MONTHS_SHORT})\.?\s+(?:[0-3]?\d,?\s+)?(?:19|20)\d\d\b")  # Dec 2026


def rule_dates(block):
    for m in DATE.finditer(block.text):
        yield m.start(), m.group(0)


UNITS = r"(?:ns|us|µs|ms|s|sec|seconds?|minutes?|bytes?|KiB|MiB|GiB|KB|MB|%|x|times|CPUs?)"
LINE_NUMBER = re.compile(
    r"\b[\w./-]+\.(?:c|h|S|py|sh|pml|ld|dts|dtsi|md|txt|mk)(?::\d+)+\b"   # file.c:123
    r"|\b(?:Makefile|linker\.ld):\d+\b"
    rf"|\blines?\s+\d+\b(?:\s*(?:-|–|to|and)\s*\d+\b)?(?!\s*{UNITS}\b)")


def rule_line_numbers(block):
    for m in LINE_NUMBER.finditer(block.text):
        yield m.start(), m.group(0)


STORY = re.compile(
    r"\b(?:this|that|the|a|an|first|second|third|fourth|last|next|previous|earlier|"
    r"later|same|another|other)\s+session\b"
    r"|\bsession's\b"
    r"|\b(?:issue|finding|bug|ticket)s?[\s-]+#?\d+\b"
    r"|\bStops?\s+#?\d+\b"
    r"|\bround\s+#?\d+\b(?=\s*[),;.]|\s*$)", re.IGNORECASE)


def rule_stories(block):
    for m in STORY.finditer(block.text):
        yield m.start(), m.group(0)


PATH = re.compile(
    r"(?<![\w./@$-])((?:" + "|".join(re.escape(d) for d in TOP_DIRS) + r")/"
    r"[\w.*/<>{}\[\]?+-]*"
    r"|(?:" + "|".join(re.escape(f) for f in TOP_FILES) + r")(?![\w-])(?!\.\w))")
BARE_FILE = re.compile(r"^[\w.+-]+\.(?:c|h|S|py|sh|pml|ld|dts|dtsi)$")
PLACEHOLDER = re.compile(r"[*?<>{}\[\]]|(?<![A-Za-z])(?!README\b)[A-Z][A-Z0-9_]*(?![a-z])")


def placeholder(path):
    body = re.sub(r"\.S$", "", path)      # an assembly file's .S is no placeholder
    return PLACEHOLDER.search(body) is not None


def rule_paths(block, tree):
    for m in PATH.finditer(block.text):
        path = m.group(1).rstrip(".,;:)'\"")
        path = path.split(":", 1)[0]
        if not path or tree.exists(path) or placeholder(path):
            continue
        yield m.start(1), path
    for offset, span in spans(block):
        name = span.strip()
        if BARE_FILE.match(name) and name not in tree.basenames \
                and name not in ALLOWED_FILES and not placeholder(name):
            yield offset, name


CALL = re.compile(r"(?<![\w.>$:-])([A-Za-z_]\w*)\s?\(")
CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
DSWITCH = re.compile(r"(?<![\w-])-D([A-Z][A-Z0-9_]+)\b")
SNAKE = re.compile(r"^_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\[\])?$")
NOT_FUNCTIONS = {"if", "for", "while", "sizeof", "return", "switch"}


def rule_functions(block, tree):
    for offset, span in spans(block):
        if span.lstrip().startswith(("./", "make ", "python", "gdb", "(gdb)",
                                     "static ", "void ", "int ")):
            continue                       # a command line or a template, not a name
        for m in CALL.finditer(span):
            name = m.group(1)
            if name in NOT_FUNCTIONS or name in ALLOWED or "*" in span[m.start():m.end()]:
                continue
            if span[m.end(1):m.end(1) + 1] == " ":
                continue                   # "name (" is prose, not a call
            if name not in tree.defined:
                yield offset + m.start(1), name + "()"


def rule_names(block, tree):
    for offset, span in spans(block):
        name = span.strip()
        bare = name[:-2] if name.endswith("[]") else name
        if (CONSTANT.match(bare) or SNAKE.match(name)) and bare not in ALLOWED \
                and bare not in tree.words:
            yield offset, name
        for m in DSWITCH.finditer(span):
            if m.group(1) not in tree.words and m.group(1) not in ALLOWED:
                yield offset + m.start(), "-D" + m.group(1)


DOC_RULES = [
    ("no_commit_hashes", "commit hashes", lambda b, t: rule_hashes(b)),
    ("no_dates", "dates", lambda b, t: rule_dates(b)),
    ("no_line_numbers", "line numbers", lambda b, t: rule_line_numbers(b)),
    ("no_session_or_tracker_stories", "session and tracker stories",
     lambda b, t: rule_stories(b)),
    ("paths_exist", "paths not in the tree", rule_paths),
    ("functions_exist", "functions defined nowhere in the tree", rule_functions),
    ("names_exist", "names found nowhere in the tree", rule_names),
]


# ---- the tree ------------------------------------------------------------------------

DEF_PATTERNS = {
    ".c": [r"^[ \t]*#[ \t]*define[ \t]+(\w+)",
           r"^(?![ \t]*(?:return|if|else|while|for|switch|case|do|goto|sizeof|typeof)\b)"
           r"[ \t]*(?:[A-Za-z_]\w*[ \t\*]+)+\**(\w+)[ \t]*\(",
           r"^(\w+)\([^;]*$"],                       # a definition's name on its own line
    ".S": [r"^[ \t]*(\w+):", r"^[ \t]*#[ \t]*define[ \t]+(\w+)",
           r"\b(?:ENTRY\w*|END\w*|SYM_\w+|\.globl|\.global|\.type)[ \t(]+(\w+)"],
    ".py": [r"^[ \t]*def[ \t]+(\w+)", r"^[ \t]*class[ \t]+(\w+)"],
    ".sh": [r"^[ \t]*(?:function[ \t]+)?([\w-]+)[ \t]*\(\)"],
    ".pml": [r"\bproctype[ \t]+(\w+)", r"^[ \t]*inline[ \t]+(\w+)",
             r"^[ \t]*#[ \t]*define[ \t]+(\w+)", r"^[ \t]*ltl[ \t]+(\w+)"],
}
DEF_PATTERNS[".h"] = DEF_PATTERNS[".c"]
DEF_REGEX = {ext: [re.compile(p, re.MULTILINE) for p in pats]
             for ext, pats in DEF_PATTERNS.items()}


class Tree:
    """What the docs are checked against: the files of the tree (build
    products and git's own files left out), the names its sources define,
    and every word of every file but the docs."""

    def __init__(self, root):
        self.root = root
        self.paths, self.basenames = set(), set()
        self.defined, self.words = set(), set()
        self.sources = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir != ".":
                self.paths.add(rel_dir)
            for name in sorted(filenames):
                rel = os.path.normpath(os.path.join(rel_dir, name))
                self.paths.add(rel)
                self.basenames.add(name)
                if name.endswith(".md") or rel == SELF:
                    continue        # the docs, and this file's made-up names
                text = read_text(os.path.join(dirpath, name))
                if text is None:
                    continue
                self.words.update(re.findall(r"[A-Za-z_]\w*", text))
                self.words.update(re.findall(r"-D([A-Za-z_]\w*)", text))
                ext = os.path.splitext(name)[1]
                for regex in DEF_REGEX.get(ext, ()):
                    self.defined.update(regex.findall(text))
                if ext in SOURCE_EXT and rel.split(os.sep, 1)[0] in COMMENT_DIRS:
                    self.sources.append((rel, text))

    def exists(self, path):
        return os.path.normpath(path.rstrip("/")) in self.paths


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", "replace")


def doc_files(root):
    docs = ["README.md"]
    docs_dir = os.path.join(root, "docs")
    if os.path.isdir(docs_dir):
        docs += sorted(os.path.join("docs", f) for f in os.listdir(docs_dir) if f.endswith(".md"))
    docs.append(os.path.join("tests", "README.md"))
    return [d for d in docs if os.path.exists(os.path.join(root, d))]


def check_docs(root, tree, docs):
    """{rule: [(file, line, text)]} over the docs."""
    found = {rule: [] for rule, _, _ in DOC_RULES}
    for doc in docs:
        text = read_text(os.path.join(root, doc)) or ""
        builds = build_lines(text)
        for block in blocks_of(text):
            for rule, _, fn in DOC_RULES:
                for offset, what in fn(block, tree):
                    line = block.line_of(offset)
                    if rule == "no_commit_hashes" and builds.get(line) == what:
                        continue        # a figures block's build line
                    found[rule].append((doc, line, what))
    return found


# ---- code comments ---------------------------------------------------------------------

TRACKER = re.compile(r"\b(?:issue|finding)s?\s+#?\d+\b|\bthis\s+session\b", re.IGNORECASE)
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
HASH_COMMENT = re.compile(r"(?<![\w$\"'{])#(?![!{])[^\n]*")
C_HEAD = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?[ \t\*])?\**(\w+)\([^;]*$")
C_DECL = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?[ \t\*])?\**(\w+)\(")
C_VAR = re.compile(r"^(?:static[ \t]+)?(?:[A-Z_]+\((?:[^,()]*,[ \t]*)*(\w+)\)|"
                   r"[\w \t\*]+?[ \t\*](\w+)(?:\[[^\]]*\])*[ \t]*[=;])")
C_DEFINE = re.compile(r"^#[ \t]*define[ \t]+(\w+)")
C_AGGREGATE = re.compile(r"^(?:static[ \t]+|const[ \t]+)*((?:struct|union|enum)[ \t]+\w+)")
PY_HEAD = re.compile(r"^([ \t]*)(?:def|class)[ \t]+(\w+)")
PY_ASSIGN = re.compile(r"^(\w+)[ \t]*(?::[^=]*)?=")
SH_HEAD = re.compile(r"^[ \t]*(?:function[ \t]+)?([\w-]+)[ \t]*\(\)")
PML_HEAD = re.compile(r"^(?:active[ \t]+(?:\[\w+\][ \t]+)?)?(?:proctype|inline)[ \t]+(\w+)")
NAMED_CALL = re.compile(r"^[ \t]*(\w+)\([ \t]*\"([\w.-]+)\"")


def comments_of(rel, text):
    """(offset, comment text) of each comment of a source file."""
    regex = HASH_COMMENT if rel.endswith((".py", ".sh")) else C_COMMENT
    return [(m.start(), m.group(0)) for m in regex.finditer(text)]


def c_like_where(lines, first, last, head):
    """Where a comment on lines first..last of a C, assembly or Promela file
    stands: above or in a function, a macro or a struct, or at file scope."""
    def named(line, decl=False):
        forms = [(C_DEFINE, "#define {}"), (C_AGGREGATE, "{}"), (head, "{}()")]
        if decl:
            forms += [(C_VAR, "{}"), (C_DECL, "{}()")]
        for regex, form in forms:
            m = regex.match(line)
            if m:
                return form.format(next(g for g in m.groups() if g))
        return None

    if not any(l.strip() and not l.lstrip().startswith(("/*", "*", "//"))
               for l in lines[:first]):
        return "the file's first comment"
    after = next((l for l in lines[last + 1:] if l.strip()), "")
    if not after.startswith((" ", "\t", "}")) and named(after, True):
        return f"above {named(after, True)}"
    for i in range(first - 1, -1, -1):
        line = lines[i]
        if line.startswith("}") or line.rstrip().endswith(";") and \
                not line.startswith((" ", "\t")):
            break
        if line.strip() and not line.startswith((" ", "\t", "/*", " *", "*", "#")) \
                and named(line):
            return f"in {named(line)}"
    for line in lines[last + 1:]:
        if line.strip() and not line.startswith((" ", "\t", "/*", " *", "}", "#")) \
                and named(line):
            return f"file scope, before {named(line)}"
    return "file scope"


def py_where(lines, first, last, sh):
    """Where a comment of a Python or shell file stands: in a function or a
    class, or in a top-level statement (and above which named call)."""
    if not any(l.strip() and not l.lstrip().startswith("#") for l in lines[:first]):
        return "the file's first comment"
    indent = len(lines[first]) - len(lines[first].lstrip())
    where = "file scope"
    for i in range(first - 1, -1, -1):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        own = len(line) - len(line.lstrip())
        m = NAMED_CALL.match(line)
        if m and own < indent:
            return f'in {m.group(1)}("{m.group(2)}")'
        m = (SH_HEAD if sh else PY_HEAD).match(line)
        if m and (sh or own < indent or (own == 0 and indent == 0)):
            where = f"in {m.group(m.lastindex)}()"
            break
        if own == 0:
            m = PY_ASSIGN.match(line)
            where = f"in {m.group(1)}" if m else "file scope"
            break
    code_after = [l for l in lines[last + 1:] if l.strip() and not l.lstrip().startswith("#")]
    for line in code_after[:2]:
        m = NAMED_CALL.match(line)
        if m:
            return f'{where}, above {m.group(1)}("{m.group(2)}")'
    return where


def where_in(rel, text, offset, comment):
    """The function, macro, struct or table entry a comment is in or above."""
    lines = text.splitlines()
    first = text.count("\n", 0, offset)
    last = first + comment.count("\n")
    if rel.endswith((".py", ".sh")):
        return py_where(lines, first, last, rel.endswith(".sh"))
    return c_like_where(lines, first, last, PML_HEAD if rel.endswith(".pml") else C_HEAD)


def check_comments(tree):
    found = []
    for rel, text in tree.sources:
        for offset, comment in comments_of(rel, text):
            for m in TRACKER.finditer(comment):
                found.append((rel, where_in(rel, text, offset, comment),
                              " ".join(m.group(0).split())))
    return found


# ---- reporting -------------------------------------------------------------------------

def report(ktap, found, comments, strict_comments, prefix=""):
    ok_all = True
    for rule, what, _ in DOC_RULES:
        hits = found[rule]
        detail = "\n".join(f"{f}:{line}: {' '.join(text.split())}" for f, line, text in hits)
        ktap.result(prefix + rule, not hits, detail if hits else f"no {what}")
        ok_all &= not hits
    listing = "\n".join(f"{f}: {where}: {text}" for f, where, text in comments)
    name = prefix + "code_comments_without_tracker_refs"
    if strict_comments or not comments:
        ktap.result(name, not comments, listing or "no tracker references")
    else:
        ktap.diag(f"{len(comments)} tracker references in code comments "
                  "(reported, not failed without --strict-comments):\n" + listing)
        ktap.result(name, True, f"{len(comments)} listed above")
    return ok_all


# ---- self-test ---------------------------------------------------------------------------

SELF_TREE = {
    "kernel/core.c": "/* Owns the cores. */\n#define REAL_MAX 4\n"
                     "static int real_func(unsigned int cpu)\n{\n"
                     "\t/* finding 3 says why */\n\treturn other_call(cpu);\n}\n"
                     "struct s { int field_name; };\n",
    "include/kernel/core.h": "int real_func(unsigned int cpu);\n"
                             "#define real_macro(x) (x)\n",
    "arch/arm64/head.S": "ENTRY(secondary_entry)\nlabel_here:\n\tret\n",
    "tools/model/m.pml": "#ifdef NO_GP_WAIT\n#endif\nproctype cpu(byte c) { skip }\n",
    "tests/run.py": "def run_one():\n    # issue 12: tracked\n    pass\nclass Boot:\n    pass\n",
    "qemu.sh": "#!/bin/sh\nKERNEL_ADDR=0x40200000\n",
    "linker.ld": "SECTIONS { }\n",
}
GOOD_DOC = """# A clean doc

The kernel is the 2013 idea. `real_func()` (`kernel/core.c`) and
`include/kernel/core.h` say it; `REAL_MAX` bounds it, `real_macro(x)` wraps it,
`cpu(c)` is the model's process, `Boot("name", ...)` is a boot, `field_name`
a field. `get_online_cpus()` is Linux's. See `head.S`, qemu.sh and linker.ld.
`make sdcard BOARD=rpi3` writes `build/sdcard-BOARD.img`; tests go in
`tests/host/test_<file>.c` or `kernel/*/x.c`. `spin -DNO_GP_WAIT` runs it.
The UID is 108d905b-f863-47e8-ae2d-c0fb5641f6e2; MPIDR 0x1f0f; a console line
48 us; CPU 16 has MPIDR 0x100; bcm2837, msm8998, sha256, v2.8, cafe, 1234567.

    stack ffffffe000014000-ffffffe000018000, esr 96000045

| word | meaning |
|---|---|
| `real_func()` | the present |

<!-- figures: demo.table -->
Build: hotplug kernel 1a2b3c4; `make bench`; QEMU 7.2.22; 2 host cores.

| a | 1 |

<!-- /figures -->
"""
BAD_DOCS = {
    "no_commit_hashes": "Measured on the build of commit 507d16b.\n\n"
        # a build line outside a block, a second hash inside one, and the
        # build line of a block never closed
        "Build: hotplug kernel fe127bd; `make bench`; QEMU 7.2.22; 2 host cores.\n\n"
        "<!-- figures: demo.table -->\n"
        "Build: hotplug kernel 0123abc; `make bench`; QEMU 7.2.22; 2 host cores.\n"
        "Built from 4567def.\n<!-- /figures -->\n\n"
        "<!-- figures: demo.table -->\n"
        "Build: hotplug kernel 89abcde; `make bench`; QEMU 7.2.22; 2 host cores.\n",
    "no_dates": "On 2026-12-06 it came back; in December 2026 again.\n",
    "no_line_numbers": "See `kernel/core.c:123`, line 42 and lines 184-927.\n",
    "no_session_or_tracker_stories":
        "Found in this session (second session), issue 15, finding 5, Stop 31.\n",
    "paths_exist": "See `kernel/gone.c`, tools/missing.py and `gone.S`.\n",
    "functions_exist": "`gone_func()` and `real_func()` and `Gone()`.\n",
    "names_exist": "`DRAIN_SPINS`, `gone_test_case`, `-DNO_SUCH_MUTANT`.\n",
}


def self_test(ktap):
    """Runs the rules on made-up docs and a made-up tree: each violating doc
    must be caught by its rule alone, the clean doc by none."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in SELF_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)) or tmp, exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        os.makedirs(os.path.join(tmp, "docs"))
        with open(os.path.join(tmp, "README.md"), "w") as f:
            f.write(GOOD_DOC)
        for rule, text in BAD_DOCS.items():
            with open(os.path.join(tmp, "docs", rule + ".md"), "w") as f:
                f.write(text)
        tree = Tree(tmp)
        found = check_docs(tmp, tree, ["README.md"])
        clean = [f"{r}: {f}:{n}: {t}" for r in found for f, n, t in found[r]]
        ktap.result("selftest.clean_doc_passes", not clean, "\n".join(clean))
        for rule, text in BAD_DOCS.items():
            doc = os.path.join("docs", rule + ".md")
            hits = check_docs(tmp, tree, [doc])
            caught = [t for _, _, t in hits[rule]]
            others = [f"{r}: {t}" for r in hits if r != rule for _, _, t in hits[r]]
            want = {"no_commit_hashes": 4, "no_dates": 2, "no_line_numbers": 3,
                    "no_session_or_tracker_stories": 5, "paths_exist": 3,
                    "functions_exist": 2, "names_exist": 3}[rule]
            ok = len(caught) == want and not others
            ktap.result(f"selftest.{rule}_caught", ok,
                        f"{len(caught)} caught" if ok else
                        f"caught {caught} (want {want}); other rules: {others}")
        comments = check_comments(tree)
        where = sorted((f, w, t) for f, w, t in comments)
        want = [("kernel/core.c", "in real_func()", "finding 3"),
                ("tests/run.py", "in run_one()", "issue 12")]
        ktap.result("selftest.code_comment_refs_caught", where == want,
                    f"{len(where)} caught" if where == want else f"{where} (want {want})")
        out = KtapWriter()
        report(out, found, comments, True)
        ktap.result("selftest.strict_comments_fail", out.failed == 1,
                    f"{out.failed} failed with --strict-comments")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true",
                    help="only check the rules on made-up docs (every run does first)")
    ap.add_argument("--strict-comments", action="store_true",
                    help="fail on tracker references in code comments too")
    ap.add_argument("--root", default=ROOT, help="the tree to check (default: this one)")
    args = ap.parse_args()
    ktap = KtapWriter()
    self_test(ktap)             # the rules catch what they claim to
    if not args.self_test:
        tree = Tree(args.root)
        found = check_docs(args.root, tree, doc_files(args.root))
        report(ktap, found, check_comments(tree), args.strict_comments)
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
