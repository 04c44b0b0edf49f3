"""What `make test` prints for each boot and host check: one PASS or FAIL line
with its counts and, for a failure, the failed Checks, the log's own lines of
each failed KTAP case and the log's tail."""

import re

TAIL_LINES = 40              # log lines shown for a failure (all if <= 60)


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


def case_lines(path, checks, limit=60):
    """The log's lines of each failed KTAP case: everything from the
    result line before its own up to its `not ok` line, so the kernel's
    messages printed meanwhile (a hotplug step's error, a backtrace) come
    with the case's diagnostics. The log's tail often no longer holds them
    (a later case printed hundreds of lines). Past `limit` lines, the
    case's own `# case:` lines and the last ones are kept."""
    leaves = {c.name.rsplit(".", 1)[-1] for c in checks if not c.ok}
    leaves = {l for l in leaves if re.fullmatch(r"\w+", l)}
    if not leaves:
        return ""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    result = re.compile(r"\b(?:not )?ok \d+ ")
    out = []
    for leaf in sorted(leaves):
        end = next((i for i, l in enumerate(lines)
                    if re.search(rf"\bnot ok \d+ {leaf}\b", l)), None)
        if end is None:
            continue
        start = end
        while start > 0 and not result.search(lines[start - 1]):
            start -= 1
        mine = lines[start:end + 1]
        if len(mine) > limit:
            own = [l for l in mine[:-limit // 2] if re.search(rf"#\s*{leaf}:", l)]
            mine = own[:limit // 2] + ["[...]"] + mine[-limit // 2:]
        out.append(f"    --- lines of {leaf} (from the result before it) ---")
        out += ["    | " + l for l in mine]
    return "\n".join(out)


def report(name, checks, seconds, log_path, cpu=None):
    """Prints one boot's or check's line, [wall time, host CPU time if
    known], and the failed checks with the log's excerpt."""
    passed = sum(c.ok for c in checks)
    failed = len(checks) - passed
    skipped = sum(c.skipped for c in checks)
    text = f"{'PASS' if not failed else 'FAIL'}  {name:<22} {passed} passed, {failed} failed"
    if skipped:
        text += f" ({skipped} skipped)"
    text += f"  [{seconds:.1f} s" + (f", {cpu:.1f} s CPU]" if cpu is not None else "]")
    if failed:
        text += "\n" + "\n".join(f"    {c}" for c in checks if not c.ok)
        own = case_lines(log_path, checks)
        if own:
            text += "\n" + own
        text += "\n" + log_excerpt(log_path)
    print(text, flush=True)
    return passed, failed
