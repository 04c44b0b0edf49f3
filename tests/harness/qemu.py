"""Running QEMU: the qemu.sh command line, and one run of it with an explicit
timeout, its process group killed when the time is up, its console output
logged, returned as lines, and typed into by a console Script if it has one."""

import os
import selectors
import signal
import subprocess
import sys
import threading
import time

QEMU_SH = "./qemu.sh"        # from the top of the tree
HALTED = "System halted"     # the kernel's last words when it cannot power off
BACKSTOP = 15                # seconds past qemu.sh --timeout before the kill

RUNNING = set()              # processes of run_qemu alive, to stop on Ctrl-C
RUNNING_LOCK = threading.Lock()


def qemu_sh_argv(options, timeout=None, dump_dtb=None, bad_dtb=None, dtb=None,
                 append=""):
    """qemu.sh with the options of a boot (tests/matrix.py Boot.qemu) and
    the harness's own: --timeout, the device tree, the kernel command line."""
    argv = [QEMU_SH, *options]
    if timeout is not None:
        argv += ["--timeout", str(timeout)]
    for option, value in (("--dump-dtb", dump_dtb), ("--bad-dtb", bad_dtb), ("--dtb", dtb),
                          ("--append", append)):
        if value:
            argv += [option, value]
    return argv


class Run:
    """What one qemu.sh run produced."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.stdout = []        # console lines (QEMU's stdout)
        self.status = None
        self.halted = False     # saw HALTED and stopped QEMU
        self.timed_out = False
        self.seconds = 0.0
        self.cpu_seconds = 0.0  # host CPU of qemu.sh and its QEMU
        self.script = None      # the Script typed into the console, if any


def stop(proc, sig):
    """Signals qemu.sh's whole process group (it, `timeout` and QEMU)."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass                    # already gone


def run_qemu(argv, timeout, log, script=None, cwd=None, backstop=BACKSTOP):
    """Runs qemu.sh (argv), logging both streams; stops it at `System halted`.
    Plays the script, if any, on its stdin; stops it if a step fails. Kills
    its process group backstop s after timeout, should qemu.sh's own
    --timeout not have ended it."""
    run = Run(timeout)
    run.script = script
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if script else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, cwd=cwd)
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
            if time.monotonic() - start > timeout + backstop and not stopped:
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
    # wait4, not wait: the host CPU the boot took (qemu.sh waits for its
    # QEMU), what make test's time on a 2-core machine is made of.
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = run.status = os.waitstatus_to_exitcode(status)
    run.cpu_seconds = usage.ru_utime + usage.ru_stime
    if script:
        proc.stdin.close()
    with RUNNING_LOCK:
        RUNNING.discard(proc)
    run.timed_out = run.timed_out or (run.status == 124 and not run.halted)
    run.seconds = time.monotonic() - start
    return run


def stop_all(sig=signal.SIGTERM):
    """Signals every run still going (Ctrl-C, SIGTERM)."""
    with RUNNING_LOCK:
        for proc in RUNNING:
            stop(proc, sig)


class BootFailed(Exception):
    pass


def bench_boot(options, append, timeout, log_path, what, root):
    """One benchmark boot (make bench, make bench-scale): its console
    output and seconds. A boot that does not end with 'bench: done' and
    power off raises BootFailed naming `what` and its log, after the log's
    end went to stderr."""
    with open(log_path, "w") as log:
        run = run_qemu(qemu_sh_argv(options, timeout, append=append),
                       timeout, log, cwd=root)
    output = "\n".join(run.stdout)
    if run.status != 0 or "bench: done" not in output:
        with open(log_path, errors="replace") as log:
            sys.stderr.write(log.read()[-4000:])
        why = "timed out" if run.timed_out else f"exit {run.status}"
        raise BootFailed(f"the {what} boot failed ({why}); its console is in "
                         f"{os.path.relpath(log_path, root)}")
    return output, run.seconds
