#!/usr/bin/env python3
"""The `make test` harness: boots the kernel in QEMU in every configuration of
tests/matrix.py, checks each console log (KTAP results, banner, expected
lines), runs the host-side checks of TOOL_CHECKS (host unit tests, the
Promela model, the GDB walkthrough, a bounded DTB fuzz run, the board
description over real boards' DTBs and the SD-card images, smoke runs of
`make bench` and `make bench-scale`), and ends with one line
`N passed, N failed`. --only NAME selects boots and host checks by name.

Usage: tests/run.py [--only NAME] [--list] [--jobs N] [--timeout S] [--no-host]
                    [--image FILE] [--self-test] [--repeat N] [--hog]

--repeat N --hog runs boots N times each beside a busy loop that takes one
host core: a test that fails only on a busy host is a broken test.

A boot with a script types into the kernel's monitor shell through QEMU's
stdin (see "typing into the console" in harness/console.py).

This file is the command line: the options, which boots and checks run, in
how many parallel jobs, and the summary. The work is done by the harness
package beside it (tests/harness/: KTAP, QEMU, the console, device trees,
the checks of a boot, the host checks, self-tests; its __init__.py lists
them).

Logs go to build/test-logs/NAME.log. Exit status 0 only when nothing failed.
"""

import argparse
import concurrent.futures
import dataclasses
import os
import signal
import subprocess
import sys
import threading

sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness.boot import boot_checks                                   # noqa: E402
from harness.console import Script                                     # noqa: E402
from harness.dtb import cpus_dtb, shim_dtb                             # noqa: E402
from harness.needs import missing                                     # noqa: E402
from harness.host import HOST_ONLY, IN_POOL, TOOL_CHECKS, run_tool_check  # noqa: E402
from harness.ktap import Check                                         # noqa: E402
from harness.qemu import qemu_sh_argv, run_qemu, stop, stop_all      # noqa: E402
from harness.report import report                                      # noqa: E402
from harness.selftest import self_test                                 # noqa: E402
from matrix import BOOTS, SCALE_BOOTS, TRUNCATED_DTB_BYTES, kernel_cmdline  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOG_DIR = "build/test-logs"
DEFAULT_TIMEOUT = 150   # a hung boot is caught; a slow, loaded host is not failed


# ---- one boot --------------------------------------------------------------------------

BUILD_LOCK = threading.Lock()   # one make at a time into build/nr-N


def nr_cpus_image(nr_cpus, log):
    """The Image of a boot with a build of its own (Boot.nr_cpus), made if
    out of date; raises CalledProcessError if make fails (output in log)."""
    build = f"build/nr-{nr_cpus}"
    log.write(f"run.py: make B={build} NR_CPUS={nr_cpus}\n")
    log.flush()
    with BUILD_LOCK:
        subprocess.run(["make", "-s", "-j2", f"B={build}", f"NR_CPUS={nr_cpus}"], check=True,
                       stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    return os.path.join(ROOT, build, "Image")


def sd_card(boot, image, log):
    """The card of a boot (Boot.card) made with tools/mksdcard.sh from the
    Image and the boot's command line; returns its path."""
    board, tfa = boot.card.removesuffix("-tfa"), boot.card.endswith("-tfa")
    path = os.path.join(ROOT, "build", "cards", boot.name + ".img")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run([os.path.join(ROOT, "tools", "mksdcard.sh"),
                    *(["--firmware", "tfa"] if tfa else []), board,
                    image or os.path.join(ROOT, "build", "Image"), path, kernel_cmdline(boot)],
                   check=True, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    return path


def run_boot(boot, timeout, image):
    """Boots one configuration; returns (checks, Run or None, log path)."""
    log_path = os.path.join(LOG_DIR, boot.name + ".log")
    with open(log_path, "w") as log:
        try:
            if boot.nr_cpus:    # its own build, whatever --image says
                image = nr_cpus_image(boot.nr_cpus, log)
        except subprocess.CalledProcessError:
            return [Check(f"make NR_CPUS={boot.nr_cpus}", False, f"see {log_path}")], None, \
                log_path
        qemu = boot.qemu + (["--image", image] if image else [])
        try:
            if boot.card:
                argv = qemu_sh_argv(boot.qemu + ["--sdcard", sd_card(boot, image, log)],
                                    timeout)
            elif boot.shim_dtb:
                bad_dtb = shim_dtb(boot.shim_dtb, boot.name, qemu, kernel_cmdline(boot), log,
                                   TRUNCATED_DTB_BYTES)
                argv = qemu_sh_argv(qemu, timeout, bad_dtb=bad_dtb)
            else:
                dtb = cpus_dtb(boot.name, qemu, boot.dtb_cpus, log) if boot.dtb_cpus else None
                argv = qemu_sh_argv(qemu, timeout, dtb=dtb, append=kernel_cmdline(boot))
        except (OSError, subprocess.CalledProcessError) as e:
            log.write(f"run.py: could not make the DTB: {e}\n")
            return [Check("DTB for the boot shim", False, str(e))], None, log_path
        log.write("run.py: " + " ".join(argv) + "\n")
        log.flush()
        run = run_qemu(argv, timeout, log, Script(boot.script, log) if boot.script else None)
    return boot_checks(boot, run), run, log_path


# ---- main ------------------------------------------------------------------------------

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
                    help="boot the GICv3 scale matrix (64, 256 and 512 CPUs) instead; no host checks")
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
        how += f" --image build/nr-{b.nr_cpus}/Image" if b.nr_cpus else ""
        steps = f"  script: {len(b.script)} steps" if b.script else ""
        print(f"{b.name:<22} ./qemu.sh {' '.join(b.qemu)}{how}  append='{kernel_cmdline(b)}'{steps}")


def run_boots(boots, args, pooled=()):
    """Runs the boots and the pooled host checks, args.jobs at a time,
    reporting each as it completes; returns (passed, failed)."""
    lock = threading.Lock()
    totals = [0, 0]
    stopping = threading.Event()      # set on Ctrl-C: report nothing more

    def one(boot):
        reason = missing(boot.needs) if boot.needs else None
        if reason:
            with lock:
                print(f"SKIP  {boot.name:<22} {reason}", flush=True)
            return
        try:
            timeout = args.timeout or boot.timeout or DEFAULT_TIMEOUT
            checks, run, log_path = run_boot(boot, timeout, args.image)
            seconds = run.seconds if run else 0.0
            cpu = run.cpu_seconds if run else None
        except Exception as e:      # a harness bug must not hide the other boots
            checks, seconds = [Check("harness", False, f"{type(e).__name__}: {e}")], 0.0
            cpu = None
            log_path = os.path.join(LOG_DIR, boot.name + ".log")
        with lock:
            if stopping.is_set():
                return
            passed, failed = report(boot.name, checks, seconds, log_path, cpu)
            totals[0] += passed
            totals[1] += failed

    def one_check(c):
        results, log_path, seconds = run_tool_check(LOG_DIR, *c)
        with lock:
            if stopping.is_set():
                return
            passed, failed = report(c[0], results, seconds, log_path)
            totals[0] += passed
            totals[1] += failed

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        futures = [pool.submit(one, b) for b in boots]
        futures += [pool.submit(one_check, c) for c in pooled]
        for future in futures:
            future.result()
    except BaseException:
        stopping.set()
        raise
    finally:        # on Ctrl-C: start nothing more, stop what runs
        pool.shutdown(wait=False, cancel_futures=True)
        stop_all(signal.SIGTERM)
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
    checks = [] if args.no_host or args.scale else \
        [c for c in TOOL_CHECKS if not args.only or any(o in c[0] for o in args.only)]
    # The checks that boot nothing run beside the boots, in a thread of
    # their own; their results are reported after the boots'.
    early = [c for c in checks if c[0] in HOST_ONLY]
    pooled = [c for c in checks if c[0] in IN_POOL]
    done = []
    beside = threading.Thread(
        target=lambda: done.extend((c[0], *run_tool_check(LOG_DIR, *c)) for c in early),
        daemon=True)
    try:
        beside.start()
        p, f = run_boots(boots, args, pooled)
        passed, failed = passed + p, failed + f
        beside.join()
        for name, results, log_path, seconds in done:
            p, f = report(name, results, seconds, log_path)
            passed, failed = passed + p, failed + f
        for c in (c for c in checks if c not in early and c not in pooled):
            results, log_path, seconds = run_tool_check(LOG_DIR, *c)
            p, f = report(c[0], results, seconds, log_path)
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
