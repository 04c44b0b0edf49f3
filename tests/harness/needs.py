"""What a boot needs from the host beyond the base tools (Boot.needs), and
why it is missing: such boots skip with that reason instead of failing, on
a machine where tools/setup.sh could not get them."""
import functools
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@functools.lru_cache(maxsize=None)
def _qemu_machines():
    try:
        out = subprocess.run(["qemu-system-aarch64", "-M", "help"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(line.split()[0] for line in out.splitlines()[1:] if line.strip())


def _raspi4b():
    if "raspi4b" in _qemu_machines():
        return None
    return "this QEMU has no raspi4b (QEMU >= 9; tools/setup.sh installs it from backports)"


@functools.lru_cache(maxsize=None)
def _tfa_virt():
    # Built once, before the boots, by make (tools/tfa/build-qemu.sh).
    for gic in ("gicv2", "gicv3"):
        if not os.path.exists(os.path.join(ROOT, "build", "tfa", f"qemu-{gic}", "flash.bin")):
            why = os.path.join(ROOT, "build", "tfa", "unavailable")
            reason = open(why).read().strip() if os.path.exists(why) else "not built"
            return f"no TF-A for QEMU virt ({reason})"
    return None


NEEDS = {"raspi4b": _raspi4b, "tfa-virt": _tfa_virt}


def missing(need):
    """None if the host offers need, else the reason it does not."""
    return NEEDS[need]()
