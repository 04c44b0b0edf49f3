"""KTAP (the Linux kernel's test output format) for the whole harness: Check,
one counted result; the parser that turns console output into Checks; and
KtapWriter, which every Python tool that checks something prints its
results with."""

import re
import sys


class Check:
    """One counted result: a KTAP case, a banner line, an expected line..."""

    def __init__(self, name, ok, detail="", skipped=False):
        self.name, self.ok, self.detail, self.skipped = name, ok, detail, skipped

    def __str__(self):
        status = "ok" if self.ok else "not ok"
        text = f"{status} {self.name}"
        if self.skipped:
            text += " # SKIP"
        return text + (f": {self.detail}" if self.detail else "")


# ---- reading KTAP ----------------------------------------------------------------
#
# KTAP version 1 (Documentation/dev-tools/ktap.rst): a document is a version
# line, a plan `1..N` and N result lines `ok|not ok NUM name [# directive]`. A
# test with subtests puts its own KTAP document, indented by 4 more spaces,
# before its result line:
#
#   KTAP version 1
#   1..1
#       KTAP version 1
#       # Subtest: rcu
#       1..2
#       ok 1 grace_period
#       not ok 2 call_rcu
#   not ok 1 rcu
#
# The parser builds a tree of Nodes (one per document) from the indentation
# and ignores every line that is not KTAP (other console output interleaves).
# Counting: every leaf result is one check; a parent adds a failure only for
# what its leaves do not show (reported not ok, no result line); every result
# missing against a plan is a failure (the output ended early: crash or hang).

KTAP_VERSION = re.compile(r"^(\s*)(?:KTAP|TAP) version (\d+)\s*$")
KTAP_SUBTEST = re.compile(r"^(\s*)# Subtest: (.*?)\s*$")
KTAP_PLAN = re.compile(r"^(\s*)1\.\.(\d+)\b")
KTAP_RESULT = re.compile(r"^(\s*)(ok|not ok) (\d+)\b\s*(?:- )?([^#]*?)\s*(?:#\s*(.*?)\s*)?$")


def depth_of(indent):
    return len(indent.replace("\t", "    ")) // 4


class Node:
    """One KTAP document: the plan and results at one indentation depth."""

    def __init__(self, depth, name=None):
        self.depth = depth
        self.name = name
        self.plan = None
        self.items = []            # Results, in order
        self.pending_name = None   # `# Subtest:` seen at this depth (TAP14 style)

    def fresh(self):
        return self.plan is None and not self.items


class Result:
    def __init__(self, number, name, ok, skipped, child=None, complete=True):
        self.number, self.name, self.ok = number, name, ok
        self.skipped, self.child, self.complete = skipped, child, complete


class KtapParser:
    def __init__(self):
        self.documents = []     # top-level Nodes
        self.stack = []         # open Nodes, outermost first

    def feed(self, line):
        for regex, handler in ((KTAP_VERSION, self._version),
                               (KTAP_SUBTEST, self._subtest),
                               (KTAP_PLAN, self._plan),
                               (KTAP_RESULT, self._result)):
            m = regex.match(line)
            if m:
                handler(depth_of(m.group(1)), m)
                return

    def finish(self):
        """Closes what the output left open; returns the documents."""
        while len(self.stack) > 1:
            self._close_incomplete()
        self.stack = []
        return self.documents

    # -- tree building --

    def _new_document(self):
        self.finish()
        root = Node(0)
        self.documents.append(root)
        self.stack = [root]

    def _top(self):
        if not self.stack:
            self._new_document()
        return self.stack[-1]

    def _close_incomplete(self):
        """Pops a subtest that never got its result line (output ended)."""
        node = self.stack.pop()
        parent = self.stack[-1]
        number = len(parent.items) + 1
        parent.items.append(Result(number, node.name or f"subtest {number}",
                                   False, False, node, complete=False))

    def _close_deeper_than(self, depth):
        while len(self.stack) > 1 and self._top().depth > depth:
            self._close_incomplete()

    def _open_to(self, depth):
        while self._top().depth < depth:
            top = self._top()
            self.stack.append(Node(top.depth + 1, top.pending_name))
            top.pending_name = None

    def _version(self, depth, m):
        if depth == 0:
            self._new_document()
            return
        self._close_deeper_than(depth)
        if self._top().depth == depth and not self._top().fresh():
            self._close_incomplete()          # a new subtest starts
        self._open_to(depth)

    def _subtest(self, depth, m):
        name = m.group(2)
        self._close_deeper_than(depth)
        top = self._top()
        if top.depth < depth:                 # a subtest without version line
            self._open_to(depth)
            self._top().name = name
        elif top.fresh() and top.name is None and depth > 0:
            top.name = name                   # KTAP v1: right after the version line
        else:
            top.pending_name = name           # TAP14 style: names the next document

    def _plan(self, depth, m):
        self._close_deeper_than(depth)
        self._open_to(depth)
        if self._top().plan is None:
            self._top().plan = int(m.group(2))

    def _result(self, depth, m):
        self._close_deeper_than(depth + 1)
        top = self._top()
        directive = (m.group(5) or "").strip()
        skipped = directive.upper().startswith("SKIP")
        ok = m.group(2) == "ok"
        name = m.group(4) or f"test {m.group(3)}"
        child = None
        if top.depth == depth + 1:            # closes the nested document
            child = self.stack.pop()
        else:
            self._open_to(depth)
        self._top().items.append(Result(int(m.group(3)), name, ok, skipped, child))


def ktap_checks(documents, prefix=""):
    """Turns parsed KTAP documents into Checks (see the counting rule above)."""
    checks = []
    for doc in documents:
        _node_checks(doc, prefix, checks)
    return checks


def _node_checks(node, prefix, checks):
    for item in node.items:
        name = prefix + item.name
        child = item.child
        if child is None or (child.fresh() and item.complete):
            if item.skipped:
                checks.append(Check(name, True, skipped=True))
            else:
                checks.append(Check(name, item.ok))
            continue
        before = len(checks)
        _node_checks(child, name + ".", checks)
        leaves_failed = any(not c.ok for c in checks[before:])
        if not item.complete:
            checks.append(Check(name, False, "no result line: output ended inside it?"))
        elif not item.ok and not item.skipped and not leaves_failed:
            checks.append(Check(name, False, "reported not ok"))
        elif item.skipped and len(checks) == before:
            checks.append(Check(name, True, skipped=True))
    if node.plan is not None:
        for number in range(len(node.items) + 1, node.plan + 1):
            checks.append(Check(f"{prefix}#{number}", False,
                                f"no result (plan 1..{node.plan}): output ended early?"))
        if len(node.items) > node.plan:
            checks.append(Check(prefix + "plan", False,
                                f"{len(node.items)} results for plan 1..{node.plan}"))


def parse_ktap(lines):
    parser = KtapParser()
    for line in lines:
        parser.feed(line)
    return parser.finish()


# ---- writing KTAP ------------------------------------------------------------------
#
# A tool collects its results, then prints one document: the version line,
# the plan (so a tool need not know its number of checks in advance) and the
# result lines. A result line is `ok N name` or `not ok N name`; a detail
# follows an ok result as `# detail` on its line, and a failed one as a
# diagnostic line of its own, so that no detail is ever read as a directive
# (`# SKIP` counts as skipped, not as passed or failed).

DIRECTIVE = re.compile(r"^\s*(SKIP|TODO)\b", re.IGNORECASE)


def one_line(text):
    return " ".join(str(text).split())


def result_name(name):
    """A name as a result line can hold it: one line, no `#`."""
    return one_line(str(name).replace("#", ""))


class KtapWriter:
    """One KTAP document, printed once its last result is known:

        ktap = KtapWriter()
        ktap.result("rpi4.cpus", ok, "4 CPUs")
        ktap.skip("rpi4.psci", "no PSCI node")
        ktap.diag("2 boards")
        all_passed = ktap.print()
    """

    def __init__(self):
        self.body = []          # the lines after the plan, in order
        self.results = 0
        self.failed = 0

    def result(self, name, ok, detail=""):
        """One result, numbered in order (the arguments of a Check)."""
        self.results += 1
        self.failed += not ok
        line = f"{'ok' if ok else 'not ok'} {self.results} {result_name(name)}"
        inline = one_line(detail)
        if ok and inline and not DIRECTIVE.match(inline):
            self.body.append(f"{line} # {inline}")
        else:
            self.body.append(line)
            if str(detail).strip():
                self.diag(str(detail).strip())

    def skip(self, name, reason=""):
        self.results += 1
        self.body.append(f"ok {self.results} {result_name(name)} # SKIP {one_line(reason)}"
                         .rstrip())

    def diag(self, text):
        """Diagnostic lines (`# text`), printed where they were added."""
        self.body += [f"# {line}".rstrip() for line in str(text).splitlines() or [""]]

    def text(self):
        return "\n".join(["KTAP version 1", f"1..{self.results}"] + self.body) + "\n"

    def print(self, out=None):
        """Prints the document; True when no result failed."""
        (out or sys.stdout).write(self.text())
        (out or sys.stdout).flush()
        return self.failed == 0


def print_failure(name, detail=""):
    """A document of one failed result, for a tool that could not get as far
    as its checks."""
    ktap = KtapWriter()
    ktap.result(name, False, detail)
    ktap.print()
