"""What a boot of tests/matrix.py must show, turned into Checks: how the run
ended, the banner, the expected and forbidden lines, each shell step, and
the KTAP results the kernel printed."""

import re

from harness.console import shown, strip_timestamp
from harness.ktap import KTAP_VERSION, Check, ktap_checks, parse_ktap
from harness.qemu import HALTED
from matrix import DEBUG_FORBID, SANITIZER_FORBID, Group


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
    raspi = qemu_option(boot.qemu, "--machine", "virt") in ("raspi3b", "raspi4b")
    # raspi3b/raspi4b: spin table, or PSCI from TF-A at EL3 (--firmware tfa), over
    # SMC whichever EL TF-A enters the kernel at (--el1: EL1).
    tfa = qemu_option(boot.qemu, "--firmware", "") in ("tfa", "tfa-card")
    el2 = ("--el2" in boot.qemu or raspi) and "--el1" not in boot.qemu
    # raspi3b: of its 1 GiB, QEMU keeps the top 64 MiB for the VideoCore
    # (vcram-size) and puts the rest in the DTB's /memory; raspi4b: the
    # same 960 MiB below the VideoCore, the rest of its 2 GiB not given.
    mem = "960M" if raspi else qemu_option(boot.qemu, "--mem", "256M")
    cpus = "4" if raspi else qemu_option(boot.qemu, "--smp", "4")
    table = {
        "el": (r"\bEntered at EL(\d)\b", "2" if el2 else "1"),
        "memory": (r"\bMemory: (\d+) MiB\b", str(mebibytes(mem))),
        "cpus": (r"^CPUs: (\d+)\b", cpus),
        "psci": (r"\bPSCI: version \d+\.\d+, conduit (hvc|smc)\b",
                 "smc" if el2 or tfa else "hvc"),
    }
    return [(what, *table[what]) for what in boot.banner
            if not (raspi and not tfa and what == "psci")]


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
    """A test run must not panic, nor any debug check report, nor any
    sanitizer (but where the boot provokes one); a boot may forbid more."""
    checks = []
    forbid = list(boot.forbid) + ([r"Kernel panic"] if boot.ktap else [])
    forbid += list(DEBUG_FORBID) if boot.debug else []
    forbid += [] if boot.sanitizer_report else list(SANITIZER_FORBID)
    for regex in forbid:
        index = first_match(regex, lines)
        checks.append(Check(f"forbid /{regex}/", index is None,
                            "" if index is None else f"found: {lines[index].strip()}"))
    return checks


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


def must_fail_checks(boot, checks):
    """A mutant's cases (boot.ktap_must_fail) turned around: each must be
    there and report not ok; the boot's other checks stay as they are."""
    out = []
    for check in checks:
        if check.name in boot.ktap_must_fail:
            check = Check(check.name + " (must fail)", not check.ok and not check.skipped,
                          "" if not check.ok else "passed, but it is broken on purpose")
        out.append(check)
    names = {c.name for c in checks}
    return out + [Check(name + " (must fail)", False, "no such KTAP case")
                  for name in boot.ktap_must_fail if name not in names]


def boot_checks(boot, run):
    lines = [strip_timestamp(line) for line in run.stdout]
    checks = [end_check(boot, run)]
    checks += banner_checks(boot, lines)
    checks += expect_checks(boot, lines)
    checks += forbid_checks(boot, lines)
    if boot.script:
        checks += script_checks(boot, run)
    if boot.ktap:
        checks += must_fail_checks(boot, ktap_boot_checks(lines))
    else:
        ktap = first_match(KTAP_VERSION.pattern, lines) is not None
        checks.append(Check("no KTAP output", not ktap, "a negative test printed KTAP" if ktap else ""))
    return checks
