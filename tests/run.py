#!/usr/bin/env python3
"""The `make test` harness: boots the kernel in QEMU in every configuration of
tests/matrix.py, checks each console log (KTAP results, banner, expected
lines), runs the host-side checks of TOOL_CHECKS (host unit tests, the
Promela model, the GDB walkthrough, a bounded DTB fuzz run, the board
description over real boards' DTBs and the SD-card images, a smoke run of
`make bench`), and ends with one line
`N passed, N failed`. --only NAME selects boots and host checks by name.

Usage: tests/run.py [--only NAME] [--list] [--jobs N] [--timeout S] [--no-host]
                    [--image FILE] [--self-test] [--repeat N] [--hog]

--repeat N --hog runs boots N times each beside a busy loop that takes one
host core: a test that fails only on a busy host is a broken test.

A boot with a script types into the kernel's monitor shell through QEMU's
stdin (see "typing into the console" below).

Logs go to build/test-logs/NAME.log. Exit status 0 only when nothing failed.
"""

import argparse
import codecs
import concurrent.futures
import dataclasses
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True   # no tests/__pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matrix import (BOOTS, DEBUG_FORBID, SCALE_BOOTS, TRUNCATED_DTB_BYTES, Boot,   # noqa: E402
                    Group, Step, kernel_cmdline)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOG_DIR = "build/test-logs"
DTB_DIR = "build/test-dtbs"
DEFAULT_TIMEOUT = 150   # a hung boot is caught; a slow, loaded host is not failed
HOST_TIMEOUT = 600
HALTED = "System halted"     # the kernel's last words when it cannot power off
TAIL_LINES = 40              # log lines shown for a failure (all if <= 60)


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


# ---- console lines -------------------------------------------------------------

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")


def strip_timestamp(line):
    """Removes the printk timestamp `[    0.012345] ` and any CR."""
    return TIMESTAMP.sub("", line.replace("\r", ""), count=1)


# ---- KTAP ------------------------------------------------------------------------
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


# ---- what a boot must show ------------------------------------------------------

def qemu_option(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def mebibytes(size):
    size = size.upper()
    if size.endswith("G"):
        return int(size[:-1]) * 1024
    return int(size.rstrip("M"))


def banner_expectations(boot):
    """(what, regex, expected value) for the banner lines of this boot.
    `CPUs: N` counts the CPUs the device tree lists (on virt, --smp), not
    the ones that came online: a boot where one fails still lists them all."""
    raspi = qemu_option(boot.qemu, "--machine", "virt") == "raspi3b"
    el2 = "--el2" in boot.qemu or raspi
    # raspi3b: of its 1 GiB, QEMU keeps the top 64 MiB for the VideoCore
    # (vcram-size) and puts the rest in the DTB's /memory.
    mem = "960M" if raspi else qemu_option(boot.qemu, "--mem", "256M")
    cpus = "4" if raspi else qemu_option(boot.qemu, "--smp", "4")
    table = {
        "el": (r"\bEntered at EL(\d)\b", "2" if el2 else "1"),
        "memory": (r"\bMemory: (\d+) MiB\b", str(mebibytes(mem))),
        "cpus": (r"^CPUs: (\d+)\b", cpus),
        "psci": (r"\bPSCI: version \d+\.\d+, conduit (hvc|smc)\b", "smc" if el2 else "hvc"),
    }
    return [(what, *table[what]) for what in boot.banner
            if not (raspi and what == "psci")]      # raspi3b: spin table


def banner_checks(boot, lines):
    checks = []
    for what, regex, want in banner_expectations(boot):
        found = next((m for m in map(re.compile(regex).search, lines) if m), None)
        name = f"banner {what} = {want}"
        if found is None:
            checks.append(Check(name, False, f"no line matching /{regex}/"))
        else:
            checks.append(Check(name, found.group(1) == want, f"got {found.group(1)}"
                                if found.group(1) != want else ""))
    return checks


def first_match(regex, lines, start=0):
    pattern = re.compile(regex)
    return next((i for i in range(start, len(lines)) if pattern.search(lines[i])), None)


def match_check(item, lines, context=""):
    """One Check: the regex, or each regex of the Group, matches some line."""
    if isinstance(item, Group):
        missing = [r for r in item.regexes if first_match(r, lines) is None]
        detail = f"{len(missing)} of {len(item.regexes)} missing, first /{missing[0]}/" \
            if missing else ""
        return Check(context + item.name, not missing, detail)
    ok = first_match(item, lines) is not None
    return Check(f"{context}expect /{item}/", ok, "" if ok else "no such line")


def expect_checks(boot, lines):
    checks = [match_check(item, lines) for item in boot.expect]
    position = 0
    for regex in boot.expect_in_order:
        index = first_match(regex, lines, position)
        ok = index is not None
        checks.append(Check(f"expect in order /{regex}/", ok,
                            "" if ok else "not found after the previous one"))
        position = index if ok else position
    return checks


def forbid_checks(boot, lines):
    """A test run must not panic, nor any debug check report; a boot may
    forbid more."""
    checks = []
    forbid = list(boot.forbid) + ([r"Kernel panic"] if boot.ktap else [])
    forbid += list(DEBUG_FORBID) if boot.debug else []
    for regex in forbid:
        index = first_match(regex, lines)
        checks.append(Check(f"forbid /{regex}/", index is None,
                            "" if index is None else f"found: {lines[index].strip()}"))
    return checks


def shown(send):
    """A step's text as a check names it: 'help\\r', '0123456789...' (201 long)."""
    text = repr(send if isinstance(send, str) else send.decode("latin-1"))
    return text if len(text) <= 30 else f"{text[:20]}...' ({len(send)} long)"


def script_checks(boot, run):
    """Each step that ran: its wait matched (one check) and its reply shows
    what the step expects (one check per regex, Group and check function).
    The first step that did not match fails; the ones after it did not run."""
    script = run.script
    checks = []
    for index, step in enumerate(boot.script):
        name = f"step {index + 1} {shown(step.send)}" if step.send else f"step {index + 1}"
        if index == len(script.matches):
            why = script.failure or "the output ended before it"
            later = len(boot.script) - index - 1
            checks.append(Check(f"{name}: wait /{step.wait}/", False,
                                why + (f" ({later} later steps not run)" if later else "")))
            break
        checks.append(Check(f"{name}: wait /{step.wait}/", True))
        lines = [strip_timestamp(line) for line in script.reply(index).split("\n")]
        checks += [match_check(item, lines, f"{name}: ") for item in step.expect]
        if step.check:
            problems = step.check(lines)
            what = (step.check.__doc__ or step.check.__name__).strip().splitlines()[0]
            checks.append(Check(f"{name}: {what}", not problems, "; ".join(problems)))
    return checks


def end_check(boot, run):
    if run.timed_out:
        return Check(f"end: {boot.end}", False, f"timeout after {run.timeout} s (hung)")
    if run.script and run.script.failure:
        return Check(f"end: {boot.end}", False, "not reached: a script step failed, QEMU stopped")
    if boot.end == "halt":
        return Check("end: System halted", run.halted,
                     "" if run.halted else f"QEMU exited ({run.status}) without '{HALTED}'")
    if run.halted:
        return Check("end: poweroff", False, f"'{HALTED}' instead of powering off")
    return Check("end: poweroff", run.status == 0,
                 "" if run.status == 0 else f"qemu.sh exit status {run.status}")


def ktap_boot_checks(lines):
    documents = parse_ktap(lines)
    if not documents:
        return [Check("KTAP output", False, "no 'KTAP version 1' line")]
    checks = ktap_checks(documents)
    if documents[0].plan is None:
        checks.append(Check("KTAP plan", False, "no top-level 1..N plan"))
    return checks


def boot_checks(boot, run):
    lines = [strip_timestamp(line) for line in run.stdout]
    checks = [end_check(boot, run)]
    checks += banner_checks(boot, lines)
    checks += expect_checks(boot, lines)
    checks += forbid_checks(boot, lines)
    if boot.script:
        checks += script_checks(boot, run)
    if boot.ktap:
        checks += ktap_boot_checks(lines)
    else:
        ktap = first_match(KTAP_VERSION.pattern, lines) is not None
        checks.append(Check("no KTAP output", not ktap, "a negative test printed KTAP" if ktap else ""))
    return checks


# ---- typing into the console --------------------------------------------------------
#
# A boot's script types into the monitor shell through QEMU's stdin, a pipe
# (whatever the harness's own stdin is: /dev/null under CI). qemu.sh's
# `-serial mon:stdio` puts QEMU's mux between stdin and the UART: QEMU
# reads the pipe only as fast as the mux buffer and the UART's receive FIFO
# drain, so no byte is lost before the kernel has it. The kernel's receive
# ring fills, though, if its shell thread falls behind, so the text goes
# CHUNK bytes at a time, each chunk once the shell has echoed the previous
# one (no fixed sleeps). Bytes it does not echo (control bytes; a line past
# its limit) go at PACE instead: a chunk without printable bytes, or the
# rest of a step once an echo failed to come within the echo wait.
#
# Ctrl-A is the mux's escape key (Ctrl-A X quits QEMU, Ctrl-A C opens the
# monitor): a Ctrl-A in a script is typed as Ctrl-A Ctrl-A, which the mux
# passes on as one Ctrl-A, so a script never reaches the monitor.

CHUNK = 8            # bytes typed at once: well below the UART's receive FIFO
ECHO_WAIT = 1.0      # seconds to wait for a chunk's echo before typing blind
PACE = 0.02          # seconds between chunks typed blind
CTRL_A = b"\x01"


def echoed(chars, text, start):
    """True when chars appear in text[start:] in order; other console output
    may come between them."""
    rest = iter(text[start:])
    return all(c in rest for c in chars)


class Script:
    """Plays a boot's Steps on QEMU's stdin as its output comes in: give it
    the output (output()) and call advance() whenever something came or its
    deadline passed."""

    def __init__(self, steps, log, echo_wait=ECHO_WAIT):
        self.steps = steps
        self.log = log
        self.echo_wait = echo_wait
        self.stdin = None           # QEMU's stdin (a file descriptor), once it runs
        self.text = ""              # the console output so far, CRs removed
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.matches = []           # (start, end) in text of each step's wait match
        self.failure = None         # why the script stopped early
        self.deadline = None        # for the wait of the step being waited for
        self.typing = b""           # what the current step has yet to type
        self.echo = None            # (chars, from where in text) of the chunk typed last
        self.next_chunk = 0.0       # when to type the next chunk without the echo
        self.blind = False          # an echo did not come: the step types on at PACE

    def output(self, data):
        self.text += self.decoder.decode(data).replace("\r", "")

    def reply(self, index):
        """What the console printed after step index's match, up to the next
        step's match (the next prompt) or the end of the output."""
        end = self.matches[index + 1][0] if index + 1 < len(self.matches) else len(self.text)
        return self.text[self.matches[index][1]:end]

    def note(self, text):
        self.log.write(f"run.py: {text}\n")

    def advance(self, now):
        """Does what is due; returns when to be called again at the latest
        (None: only when output comes)."""
        while self.failure is None:
            if self.echo and echoed(self.echo[0], self.text, self.echo[1]):
                self.echo, self.next_chunk = None, now
            if self.typing or self.echo:
                if now < self.next_chunk:
                    return self.next_chunk
                if self.echo:
                    self.note(f"no echo of {self.echo[0]!r} within {self.echo_wait} s:"
                              " typing the rest of the step without waiting for it")
                    self.echo, self.blind = None, True
                if self.typing:
                    self.type_chunk(now)
                continue
            index = len(self.matches)
            if index == len(self.steps):
                return None
            step = self.steps[index]
            if self.deadline is None:
                self.deadline = now + step.timeout
            start = self.matches[-1][1] if self.matches else 0
            found = re.compile(step.wait).search(self.text, start)
            if found:
                self.matches.append(found.span())
                self.deadline, self.blind = None, False
                self.typing = step.send.encode() if isinstance(step.send, str) else step.send
                if self.typing:
                    self.note(f"step {index + 1}: typing {shown(step.send)}")
            elif now >= self.deadline:
                self.failure = f"not seen within {step.timeout} s"
                self.note(f"step {index + 1}: /{step.wait}/ {self.failure}: stopping QEMU")
            else:
                return self.deadline
        return None

    def type_chunk(self, now):
        chunk, self.typing = self.typing[:CHUNK], self.typing[CHUNK:]
        try:
            os.write(self.stdin, chunk.replace(CTRL_A, CTRL_A * 2))
        except OSError:             # QEMU is gone: the next wait fails
            self.typing = b""
            return
        printable = "".join(chr(b) for b in chunk if 0x20 <= b < 0x7f)
        if printable and not self.blind:
            self.echo = (printable, len(self.text))
            self.next_chunk = now + self.echo_wait
        else:
            self.next_chunk = now + PACE


# ---- running QEMU ------------------------------------------------------------------

class Run:
    """What one qemu.sh run produced."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.stdout = []        # console lines (QEMU's stdout)
        self.status = None
        self.halted = False     # saw HALTED and stopped QEMU
        self.timed_out = False
        self.seconds = 0.0
        self.script = None      # the Script typed into the console, if any


def stop(proc, sig):
    """Signals qemu.sh's whole process group (it, `timeout` and QEMU)."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass                    # already gone


def run_qemu(argv, timeout, log, script=None):
    """Runs qemu.sh, logging both streams; stops it at `System halted`.
    Plays the script, if any, on its stdin; stops it if a step fails."""
    run = Run(timeout)
    run.script = script
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if script else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    with RUNNING_LOCK:
        RUNNING.add(proc)
    if script:
        script.stdin = proc.stdin.fileno()
    sel = selectors.DefaultSelector()
    partial = {proc.stdout: b"", proc.stderr: b""}
    for stream in partial:
        sel.register(stream, selectors.EVENT_READ)
    try:
        stopped = False
        while sel.get_map():
            # qemu.sh --timeout normally ends a hung boot; this is the backstop.
            if time.monotonic() - start > timeout + 15 and not stopped:
                stop(proc, signal.SIGKILL)
                run.timed_out = stopped = True
            wait = 1.0
            if script and not stopped:
                due = script.advance(time.monotonic())
                if script.failure:
                    stop(proc, signal.SIGTERM)
                    stopped = True
                elif due is not None:
                    wait = min(wait, max(0.0, due - time.monotonic()))
            for key, _ in sel.select(timeout=wait):
                data = os.read(key.fd, 65536)
                if script and key.fileobj is proc.stdout:
                    script.output(data)
                if not data:
                    sel.unregister(key.fileobj)
                    data = b"\n" if partial[key.fileobj] else b""
                chunks = (partial[key.fileobj] + data).split(b"\n")
                partial[key.fileobj] = chunks.pop()
                text = [c.decode("utf-8", "replace").replace("\r", "") for c in chunks]
                for line in text:
                    log.write(line + "\n")
                if key.fileobj is proc.stdout:
                    run.stdout += text
                    pending = partial[proc.stdout].decode("utf-8", "replace")
                    if not stopped and (HALTED in pending or any(HALTED in t for t in text)):
                        run.halted = stopped = True
                        stop(proc, signal.SIGTERM)
    except BaseException:      # a harness bug must not leave QEMU running
        stop(proc, signal.SIGKILL)
        raise
    if partial[proc.stdout]:
        run.stdout.append(partial[proc.stdout].decode("utf-8", "replace"))
    run.status = proc.wait()
    if script:
        proc.stdin.close()
    with RUNNING_LOCK:
        RUNNING.discard(proc)
    run.timed_out = run.timed_out or (run.status == 124 and not run.halted)
    run.seconds = time.monotonic() - start
    return run


# QEMU's PSCI 0.1 function IDs (its base 0x95c1ba5e: SUSPEND, OFF, ON, MIGRATE).
PSCI_V01_IDS = {"cpu_suspend": 0x95c1ba5e, "cpu_off": 0x95c1ba5f,
                "cpu_on": 0x95c1ba60, "migrate": 0x95c1ba61}


def psci_v01(path):
    """Turns the DTB's /psci node into a PSCI 0.1 one: compatible "arm,psci"
    only, each function's ID a property (QEMU answers the 0.1 IDs too)."""
    subprocess.run(["fdtput", "-t", "s", path, "/psci", "compatible", "arm,psci"],
                   check=True)
    for prop, fn in PSCI_V01_IDS.items():
        subprocess.run(["fdtput", "-t", "x", path, "/psci", prop, f"{fn:x}"], check=True)


def prepare_dtb(boot, qemu, log):
    """Makes the DTB that boot.shim_dtb asks for; returns qemu.sh's --bad-dtb."""
    if boot.shim_dtb == "none" or boot.shim_dtb not in ("valid", "truncated",
                                                        "psci-0.1"):
        return boot.shim_dtb
    os.makedirs(DTB_DIR, exist_ok=True)
    path = os.path.join(DTB_DIR, boot.name + ".dtb")
    argv = ["./qemu.sh", *qemu, "--dump-dtb", path]
    if kernel_cmdline(boot):
        argv += ["--append", kernel_cmdline(boot)]
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, check=True)
    if boot.shim_dtb == "psci-0.1":
        psci_v01(path)
    if boot.shim_dtb == "truncated":
        with open(path, "rb") as f:
            data = f.read(TRUNCATED_DTB_BYTES)
        with open(path, "wb") as f:
            f.write(data)
    return path


def cpus_dtb(boot, qemu, log):
    """QEMU's DTB for this machine with only the CPU nodes whose reg is in
    boot.dtb_cpus (and no cpu-map, which names the others); its path."""
    os.makedirs(DTB_DIR, exist_ok=True)
    path = os.path.join(DTB_DIR, boot.name + ".dtb")
    subprocess.run(["./qemu.sh", *qemu, "--dump-dtb", path], stdin=subprocess.DEVNULL,
                   stdout=log, stderr=log, check=True)
    nodes = subprocess.run(["fdtget", "-l", path, "/cpus"], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.split()
    for node in nodes:
        reg = subprocess.run(["fdtget", "-t", "x", path, f"/cpus/{node}", "reg"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cells = reg.stdout.split() if reg.returncode == 0 else []
        mpidr = int("".join(c.zfill(8) for c in cells), 16) if cells else None
        if mpidr not in boot.dtb_cpus:
            subprocess.run(["fdtput", "-r", path, f"/cpus/{node}"], check=True)
    return path


def run_boot(boot, timeout, image):
    """Boots one configuration; returns (checks, Run or None, log path)."""
    log_path = os.path.join(LOG_DIR, boot.name + ".log")
    qemu = boot.qemu + (["--image", image] if image else [])
    with open(log_path, "w") as log:
        argv = ["./qemu.sh", *qemu, "--timeout", str(timeout)]
        try:
            if boot.shim_dtb:
                argv += ["--bad-dtb", prepare_dtb(boot, qemu, log)]
            else:
                if boot.dtb_cpus:
                    argv += ["--dtb", cpus_dtb(boot, qemu, log)]
                if kernel_cmdline(boot):
                    argv += ["--append", kernel_cmdline(boot)]
        except (OSError, subprocess.CalledProcessError) as e:
            log.write(f"run.py: could not make the DTB: {e}\n")
            return [Check("DTB for the boot shim", False, str(e))], None, log_path
        log.write("run.py: " + " ".join(argv) + "\n")
        log.flush()
        run = run_qemu(argv, timeout, log, Script(boot.script, log) if boot.script else None)
    return boot_checks(boot, run), run, log_path


# Checks that run on the host and print KTAP: (name, argv, log file, prefix,
# needed file). Each is one group in the summary, after the boots.
TOOL_CHECKS = [
    ("host tests", ["make", "-C", "tests/host"], "host.log", "host.", "tests/host/Makefile"),
    ("model", ["tools/model/check.sh"], "model.log", "model.", "tools/model/check.sh"),
    ("gdb walkthrough", [sys.executable, "tests/gdb_walkthrough.py"], "gdb.log", "gdb.",
     "tests/gdb_walkthrough.py"),
    ("dtb fuzz", ["make", "-s", "-C", "tests/fuzz"], "fuzz.log", "fuzz.", "tests/fuzz/Makefile"),
    ("boards", ["make", "-s", "-C", "tests/boards"], "boards.log", "boards.",
     "tests/boards/Makefile"),
    ("bench smoke", [sys.executable, "tools/bench.py", "--smoke", "--ktap",
                     "--out", "build/bench-smoke.json"], "bench.log", "bench.",
     "tools/bench.py"),
]


def run_tool_check(name, argv, log_name, prefix, needed):
    """Run one KTAP-printing host command; its checks, log path and time."""
    log_path = os.path.join(LOG_DIR, log_name)
    if not os.path.exists(needed):
        return [Check(name, False, f"{needed} not found")], log_path, 0.0
    start = time.monotonic()
    with open(log_path, "w") as log:
        try:
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=HOST_TIMEOUT)
            output, status = proc.stdout.decode("utf-8", "replace"), proc.returncode
        except subprocess.TimeoutExpired as e:
            output, status = (e.stdout or b"").decode("utf-8", "replace"), "timeout"
        log.write(output)
    lines = [strip_timestamp(line) for line in output.splitlines()]
    checks = ktap_checks(parse_ktap(lines), prefix)
    what = " ".join(argv)
    if status != 0 and all(c.ok for c in checks):
        checks.append(Check(what, False, f"exit status {status}"))
    elif not checks:
        checks.append(Check(what, False, "no test results printed"))
    return checks, log_path, time.monotonic() - start


# ---- reporting ----------------------------------------------------------------------

def log_excerpt(path):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    if len(lines) > 60:
        head = f"    --- last {TAIL_LINES} of {len(lines)} lines of {path} ---"
        lines = lines[-TAIL_LINES:]
    else:
        head = f"    --- {path} ---"
    return "\n".join([head] + ["    | " + line for line in lines])


def case_lines(path, checks, limit=20):
    """The log's own lines of each failed KTAP case: its `# case: ...`
    diagnostics and result line, which the log's tail often no longer
    holds (a later case printed hundreds of lines)."""
    leaves = {c.name.rsplit(".", 1)[-1] for c in checks if not c.ok}
    leaves = {l for l in leaves if re.fullmatch(r"\w+", l)}
    if not leaves:
        return ""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    out = []
    for leaf in sorted(leaves):
        mine = [l for l in lines
                if re.search(rf"#\s*{leaf}:|\bnot ok \d+ {leaf}\b", l)]
        if mine:
            out.append(f"    --- lines of {leaf} ---")
            out += ["    | " + l for l in mine[:limit]]
    return "\n".join(out)


def report(name, checks, seconds, log_path):
    passed = sum(c.ok for c in checks)
    failed = len(checks) - passed
    skipped = sum(c.skipped for c in checks)
    text = f"{'PASS' if not failed else 'FAIL'}  {name:<22} {passed} passed, {failed} failed"
    if skipped:
        text += f" ({skipped} skipped)"
    text += f"  [{seconds:.1f} s]"
    if failed:
        text += "\n" + "\n".join(f"    {c}" for c in checks if not c.ok)
        own = case_lines(log_path, checks)
        if own:
            text += "\n" + own
        text += "\n" + log_excerpt(log_path)
    print(text, flush=True)
    return passed, failed


# ---- self-tests: the KTAP parser, the console script ------------------------------------

# (name, console text, passed, failed): run with --self-test after changing the parser.
SELF_TESTS = [
    ("nested, skip, interleaved output", """\
[    0.010000] KTAP version 1
[    0.010000] 1..2
[    0.010000]     KTAP version 1
[    0.010000]     # Subtest: rcu
[    0.010000]     1..3
[    0.010000]     ok 1 grace_period
[    0.010000] cpu1: online
[    0.010000]     not ok 2 call_rcu
[    0.010000]     ok 3 expedited # SKIP needs 2 CPUs
[    0.010000] not ok 1 rcu
[    0.010000]     KTAP version 1
[    0.010000]     # Subtest: hotplug
[    0.010000]     1..1
[    0.010000]         KTAP version 1
[    0.010000]         # Subtest: updown
[    0.010000]         1..2
[    0.010000]         ok 1 cpu1
[    0.010000]         ok 2 cpu2
[    0.010000]     ok 1 updown
[    0.010000] ok 2 hotplug
""", 4, 1),
    ("output ends inside a suite", """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: mm
    1..3
    ok 1 a
""", 1, 4),     # mm.#2, mm.#3, mm (no result line), top-level #2
    ("suite not ok although its cases pass", """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mm
    1..1
    ok 1 a
not ok 1 mm
""", 1, 1),
    ("more results than planned", "KTAP version 1\n1..1\nok 1 a\nok 2 b\n", 2, 1),
    ("several documents, no timestamps (host tests)", """\
make: Entering directory 'tests/host'
KTAP version 1
1..2
ok 1 fdt_cpus
not ok 2 fdt_psci
KTAP version 1
1..1
ok 1 bitmap
""", 2, 1),
    ("no KTAP at all", "Kernel panic - not syncing\n", 0, 0),
]


# A stand-in for QEMU and the shell, to test the Script machinery: the mux's
# Ctrl-A escape (Ctrl-A Ctrl-A is one Ctrl-A; anything else after Ctrl-A
# ends it badly), echo of printable bytes up to 20 per line, a count of the
# others, `echo WORDS` and `poweroff` (exit 0).
FAKE_CONSOLE = r"""
import os, sys
def out(text):
    os.write(1, text.encode("latin-1"))
out("[    0.000001] fake console\r\nfake> ")
line, control, escape = "", [], False
while True:
    byte = os.read(0, 1)
    if not byte:
        sys.exit(3)
    c = byte[0]
    if escape:
        escape = False
        if c != 1:
            out("\r\nQEMU: Ctrl-A %02x reached the mux\r\n" % c)
            sys.exit(4)
    elif c == 1:
        escape = True
        continue
    if c in (10, 13):
        out("\r\n")
        if control:
            out("[    0.000002] ignored %d control bytes: %s\r\n"
                % (len(control), " ".join("%02x" % b for b in control)))
        if len(line) > 20:
            out("[    0.000003] line too long\r\n")
        elif line == "poweroff":
            sys.exit(0)
        elif line.startswith("echo "):
            out("[    0.000004] %s\r\n" % line[5:])
        line, control = "", []
        out("fake> ")
    elif 0x20 <= c < 0x7f:
        if len(line) < 20:
            out(chr(c))
        line += chr(c)
    else:
        control.append(c)
"""

# (name, steps, passed, failed) for a boot that runs FAKE_CONSOLE. Besides the
# steps' checks, each counts `end: poweroff` and `no KTAP output`.
SCRIPT_SELF_TESTS = [
    ("script: dialogue, Ctrl-A, a line past the echo", (
        Step("fake> ", "echo hello world\r", expect=(r"^hello world$",)),
        Step("fake> ", b"\x01\x02echo x\r",
             expect=(r"^ignored 2 control bytes: 01 02$", r"^x$")),
        Step("fake> ", "echo " + "y" * 40 + "\r", expect=(r"^line too long$",)),
        Step("fake> ", "poweroff\r")), 10, 0),
    ("script: a step that never matches stops the run", (
        Step("fake> ", "echo hi\r", expect=(r"^hi$",)),
        Step("never printed", "echo no\r", timeout=1),
        Step("fake> ", "poweroff\r")), 3, 2),     # step 2 and the end fail
]


def count(name, checks, want_passed, want_failed):
    """Prints a self-test's outcome; returns 1 if it is not as wanted."""
    passed = sum(c.ok for c in checks)
    failed = len(checks) - passed
    ok = (passed, failed) == (want_passed, want_failed)
    print(f"{'ok' if ok else 'FAIL'}  {name}: {passed} passed, {failed} failed"
          + ("" if ok else f" (want {want_passed}, {want_failed})"))
    if not ok:
        print("\n".join(f"    {c}" for c in checks))
    return 0 if ok else 1


def self_test():
    bad = 0
    for name, text, want_passed, want_failed in SELF_TESTS:
        lines = [strip_timestamp(line) for line in text.splitlines()]
        bad += count(name, ktap_checks(parse_ktap(lines)), want_passed, want_failed)
    for name, steps, want_passed, want_failed in SCRIPT_SELF_TESTS:
        boot = Boot("self-test", [], ktap=False, banner=(), script=steps, debug=False)
        with open(os.devnull, "w") as log:
            script = Script(steps, log, echo_wait=0.2)
            run = run_qemu([sys.executable, "-c", FAKE_CONSOLE], 10, log, script)
        checks = boot_checks(boot, run)
        if run.seconds > 5:
            checks.append(Check("the run ends within 5 s", False, f"{run.seconds:.1f} s"))
        bad += count(name, checks, want_passed, want_failed)
    return 1 if bad else 0


# ---- main ------------------------------------------------------------------------------

RUNNING = set()         # qemu.sh processes alive, to stop on Ctrl-C
RUNNING_LOCK = threading.Lock()


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="run only the boots whose name contains NAME (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the boots and exit")
    ap.add_argument("--jobs", type=int, default=2, help="boots run in parallel (2)")
    ap.add_argument("--timeout", type=int, default=0,
                    help=f"seconds per boot (default: the boot's own or {DEFAULT_TIMEOUT})")
    ap.add_argument("--no-host", action="store_true", help="skip the host-side checks (unit tests, model, GDB)")
    ap.add_argument("--scale", action="store_true",
                    help="boot the GICv3 scale matrix (64 and 256 CPUs) instead; no host checks")
    ap.add_argument("--image", help="kernel Image to boot (default build/Image)")
    ap.add_argument("--self-test", action="store_true",
                    help="test the KTAP parser and the console script, and exit")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="run each selected boot N times (logs NAME.1.log ...); no host checks")
    ap.add_argument("--hog", action="store_true",
                    help="keep one host core busy with a spinning process while the boots run")
    args = ap.parse_args()
    if args.image:
        args.image = os.path.abspath(args.image)
    return args


def list_boots(boots):
    for b in boots:
        how = f" --bad-dtb {b.shim_dtb}" if b.shim_dtb else ""
        how += f" --dtb (CPUs {', '.join(map(hex, b.dtb_cpus))})" if b.dtb_cpus else ""
        steps = f"  script: {len(b.script)} steps" if b.script else ""
        print(f"{b.name:<22} ./qemu.sh {' '.join(b.qemu)}{how}  append='{kernel_cmdline(b)}'{steps}")


def run_boots(boots, args):
    """Runs the boots, reporting each as it completes; returns (passed, failed)."""
    lock = threading.Lock()
    totals = [0, 0]
    stopping = threading.Event()      # set on Ctrl-C: report nothing more

    def one(boot):
        try:
            timeout = args.timeout or boot.timeout or DEFAULT_TIMEOUT
            checks, run, log_path = run_boot(boot, timeout, args.image)
            seconds = run.seconds if run else 0.0
        except Exception as e:      # a harness bug must not hide the other boots
            checks, seconds = [Check("harness", False, f"{type(e).__name__}: {e}")], 0.0
            log_path = os.path.join(LOG_DIR, boot.name + ".log")
        with lock:
            if stopping.is_set():
                return
            passed, failed = report(boot.name, checks, seconds, log_path)
            totals[0] += passed
            totals[1] += failed

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        for future in [pool.submit(one, b) for b in boots]:
            future.result()
    except BaseException:
        stopping.set()
        raise
    finally:        # on Ctrl-C: start nothing more, stop what runs
        pool.shutdown(wait=False, cancel_futures=True)
        with RUNNING_LOCK:
            for proc in RUNNING:
                stop(proc, signal.SIGTERM)
    return tuple(totals)


def start_hog():
    """A busy loop on the host (--hog): boots must pass with one host core
    taken, as they must on a CI machine shared with other work."""
    print("run.py: --hog: a spinning process keeps one host core busy", flush=True)
    return subprocess.Popen([sys.executable, "-c", "while True: pass"],
                            start_new_session=True)


def interrupted(signum, frame):
    raise KeyboardInterrupt


def main():
    args = parse_args()
    os.chdir(ROOT)
    if args.self_test:
        return self_test()
    matrix = SCALE_BOOTS if args.scale else BOOTS
    boots = [b for b in matrix if not args.only or any(o in b.name for o in args.only)]
    if args.repeat > 1:
        boots = [dataclasses.replace(b, name=f"{b.name}.{i}")
                 for i in range(1, args.repeat + 1) for b in boots]
        args.no_host = True
    if args.list:
        list_boots(boots)
        return 0

    signal.signal(signal.SIGTERM, interrupted)
    os.makedirs(LOG_DIR, exist_ok=True)
    image = args.image or "build/Image"
    passed = failed = 0
    if boots and not os.path.exists(image):
        print(f"FAIL  {image} not found: run make first", flush=True)
        boots, failed = [], 1
    hog = start_hog() if args.hog else None
    try:
        p, f = run_boots(boots, args)
        passed, failed = passed + p, failed + f
        if not args.no_host and not args.scale:
            for name, *rest in TOOL_CHECKS:
                if args.only and not any(o in name for o in args.only):
                    continue
                checks, log_path, seconds = run_tool_check(name, *rest)
                p, f = report(name, checks, seconds, log_path)
                passed, failed = passed + p, failed + f
    except KeyboardInterrupt:
        print("run.py: interrupted", file=sys.stderr)
        return 130
    finally:
        if hog:
            stop(hog, signal.SIGKILL)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
