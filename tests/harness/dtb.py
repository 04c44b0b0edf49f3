"""Device trees made for a boot: QEMU's own tree dumped by qemu.sh, then cut
down or altered with fdtput (a valid, a truncated or a PSCI 0.1 tree for the
boot shim; a tree with only some CPU nodes). They go to build/test-dtbs/."""

import os
import subprocess

from harness.qemu import qemu_sh_argv

DTB_DIR = "build/test-dtbs"
SHIM_KINDS = ("valid", "truncated", "psci-0.1")     # the ones made here

# QEMU's PSCI 0.1 function IDs (its base 0x95c1ba5e: SUSPEND, OFF, ON, MIGRATE).
PSCI_V01_IDS = {"cpu_suspend": 0x95c1ba5e, "cpu_off": 0x95c1ba5f,
                "cpu_on": 0x95c1ba60, "migrate": 0x95c1ba61}


def dump_dtb(name, qemu, log, append=""):
    """QEMU's tree for these qemu.sh options in DTB_DIR/name.dtb; its path."""
    os.makedirs(DTB_DIR, exist_ok=True)
    path = os.path.join(DTB_DIR, name + ".dtb")
    subprocess.run(qemu_sh_argv(qemu, dump_dtb=path, append=append),
                   stdin=subprocess.DEVNULL, stdout=log, stderr=log, check=True)
    return path


def psci_v01(path):
    """Turns the DTB's /psci node into a PSCI 0.1 one: compatible "arm,psci"
    only, each function's ID a property (QEMU answers the 0.1 IDs too)."""
    subprocess.run(["fdtput", "-t", "s", path, "/psci", "compatible", "arm,psci"],
                   check=True)
    for prop, fn in PSCI_V01_IDS.items():
        subprocess.run(["fdtput", "-t", "x", path, "/psci", prop, f"{fn:x}"], check=True)


def shim_dtb(kind, name, qemu, append, log, truncated_bytes):
    """Makes the DTB a boot's shim_dtb asks for; returns qemu.sh's --bad-dtb
    (kind itself when it names a file, or "none")."""
    if kind not in SHIM_KINDS:
        return kind
    path = dump_dtb(name, qemu, log, append)
    if kind == "psci-0.1":
        psci_v01(path)
    if kind == "truncated":
        with open(path, "rb") as f:
            data = f.read(truncated_bytes)
        with open(path, "wb") as f:
            f.write(data)
    return path


def cpus_dtb(name, qemu, mpidrs, log):
    """QEMU's DTB for this machine with only the CPU nodes whose reg is in
    mpidrs (and no cpu-map, which names the others); its path."""
    path = dump_dtb(name, qemu, log)
    nodes = subprocess.run(["fdtget", "-l", path, "/cpus"], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.split()
    for node in nodes:
        reg = subprocess.run(["fdtget", "-t", "x", path, f"/cpus/{node}", "reg"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        cells = reg.stdout.split() if reg.returncode == 0 else []
        mpidr = int("".join(c.zfill(8) for c in cells), 16) if cells else None
        if mpidr not in mpidrs:
            subprocess.run(["fdtput", "-r", path, f"/cpus/{node}"], check=True)
    return path
