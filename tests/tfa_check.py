#!/usr/bin/env python3
"""Host checks of the Trusted Firmware-A tooling (tools/tfa/, qemu.sh
--firmware, tools/mksdcard.sh --firmware): what goes into the armstubs, and
that bad input gets a clear message naming the file or the option, never a
half-built file. One KTAP result per check.

  - the QEMU armstub carries bl31.bin with exactly the one checked change
    (msr rmr_el3 -> b to the trampoline, the trampoline in zero padding);
    the card's carries it unchanged; both have the Pi firmware's header;
  - a bl31.bin other than the checked build is refused by name;
  - a missing bl31.bin, a file that is no device tree, a tree that is not
    a Pi 3 or 4, a stub without the armstub magic: refused with the reason;
  - qemu.sh and mksdcard.sh refuse --firmware where it cannot work.

Usage: tests/tfa_check.py
"""
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(ROOT, "tests"))
from harness.ktap import KtapWriter   # noqa: E402

TFA_DIR = "/usr/lib/arm-trusted-firmware"
TFA_SH = os.path.join(ROOT, "tools/tfa/tfa.sh")
PATCH = os.path.join(ROOT, "tools/tfa/patch_bl31_qemu.py")
RMR_SITE, TRAMPOLINE = 0x4E3C, 0x6800     # patch_bl31_qemu.py's KNOWN entry
BSP_OFF_STORE = 0x4E2C                    # core 0's BSP_OFF, a nop on QEMU
NOP = 0xD503201F
STUB_SIZE = 0x1000                        # rpi3-armstub.S's BL31_OFFSET
MAGIC = struct.pack("<I", 0x5AFE570B)


def run(argv, env=None):
    """(exit status, stdout + stderr) of argv."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=dict(os.environ, **(env or {})), cwd=ROOT)
    return p.returncode, p.stdout.strip()


def refused(ktap, name, argv, want, env=None, out=None):
    """argv must fail, say `want`, and leave no `out` behind."""
    status, text = run(argv, env)
    left = out is not None and os.path.exists(out)
    ok = status != 0 and want in text and not left
    ktap.result(name, ok, (text.splitlines() or ["(nothing printed)"])[-1] +
                (f"; {out} was left behind" if left else "") +
                (" (exit 0)" if status == 0 else ""))


def main():
    ktap = KtapWriter()
    bl31_path = os.path.join(TFA_DIR, "rpi3", "bl31.bin")
    with open(bl31_path, "rb") as f:
        bl31 = f.read()
    with tempfile.TemporaryDirectory() as work:
        path = lambda name: os.path.join(work, name)    # noqa: E731

        # The two armstubs and what they carry.
        status, text = run([TFA_SH, "armstub", "rpi3", path("qemu.bin"), "--qemu",
                            "--dtb-addr", "0x03000000"])
        ktap.result("armstub_qemu_builds", status == 0, text.splitlines()[-1] if text else "")
        status, text = run([TFA_SH, "armstub", "rpi3", path("card.bin")])
        ktap.result("armstub_card_builds", status == 0, text)
        qemu = open(path("qemu.bin"), "rb").read() if os.path.exists(path("qemu.bin")) else b""
        card = open(path("card.bin"), "rb").read() if os.path.exists(path("card.bin")) else b""
        ktap.result("armstub_card_carries_bl31_unchanged", card[STUB_SIZE:] == bl31,
                    f"{len(card) - STUB_SIZE} bytes after the stub, bl31.bin {len(bl31)}")
        ktap.result("armstub_headers", qemu[0xF0:0xF4] == MAGIC and card[0xF0:0xF4] == MAGIC
                    and qemu[0xF8:0x100] == struct.pack("<II", 0x03000000, 0x80000)
                    and card[0xF8:0x100] == bytes(8),
                    f"qemu {qemu[0xF0:0x100].hex()}, card {card[0xF0:0x100].hex()}")
        patched = qemu[STUB_SIZE:]
        diff = [i for i in range(min(len(bl31), len(patched))) if bl31[i] != patched[i]]
        branch = struct.unpack_from("<I", patched, RMR_SITE)[0] if len(patched) > RMR_SITE else 0
        want_branch = 0x14000000 | ((TRAMPOLINE - RMR_SITE) >> 2)
        store = (struct.unpack_from("<I", patched, BSP_OFF_STORE)[0]
                 if len(patched) > BSP_OFF_STORE else 0)
        ok = (len(patched) == len(bl31) and branch == want_branch and diff and
              store == NOP and
              all(RMR_SITE <= i < RMR_SITE + 4 or TRAMPOLINE <= i < TRAMPOLINE + 0x40
                  or BSP_OFF_STORE <= i < BSP_OFF_STORE + 4 for i in diff))
        ktap.result("armstub_qemu_patch_is_the_branch_the_nop_and_the_trampoline", ok,
                    f"{len(diff)} bytes differ, at {RMR_SITE:#x}: {branch:#010x} "
                    f"(want {want_branch:#010x}), at {BSP_OFF_STORE:#x}: {store:#010x}")

        # The Pi 4's: Debian's rpi4 bl31.bin with the same change, its hold
        # pen taking GO as it leaves (the clear on arrival a nop, a branch
        # after the wait), and its header filled in as the firmware does.
        rpi4 = open(os.path.join(TFA_DIR, "rpi4", "bl31.bin"), "rb").read()
        run([TFA_SH, "armstub", "rpi4", path("rpi4.bin"), "--qemu"])
        run([TFA_SH, "header", path("rpi4.bin"), path("rpi4h.bin"), "0x03000000", "0x80000"])
        got = open(path("rpi4h.bin"), "rb").read() if os.path.exists(path("rpi4h.bin")) else b""
        diff = [i for i in range(min(len(rpi4), len(got))) if rpi4[i] != got[i]]
        ok = (len(got) == len(rpi4) and
              got[0xF0:0x100] == struct.pack("<IIII", 0, struct.unpack_from("<I", rpi4, 0xF4)[0],
                                             0x03000000, 0x80000) and
              struct.unpack_from("<I", got, 0x231C)[0] == 0xD503201F and
              struct.unpack_from("<I", got, 0x2330)[0] >> 26 == 0x5 and
              all(0x889C <= i < 0x88A0 or 0xB800 <= i < 0xB880 or 0xF0 <= i < 0x100
                  or 0x231C <= i < 0x2320 or 0x2330 <= i < 0x2334 for i in diff))
        ktap.result("armstub_rpi4_patch_and_header", ok,
                    f"{len(diff)} bytes differ; header {got[0xF0:0x100].hex()}")
        # The console stays where the tree says once TF-A's rpi4 port sets
        # stdout-path to serial0.
        pi4 = os.path.join(ROOT, "build/dtbs/bcm2711-rpi-4-b.dtb")
        if os.path.exists(pi4):
            run([TFA_SH, "dtb", pi4, path("pi4.dtb")])
            get = lambda node, prop: run(["fdtget", "-t", "s", path("pi4.dtb"), node, prop])[1]  # noqa: E731
            s0, sp = get("/aliases", "serial0"), get("/chosen", "stdout-path")
            ktap.result("dtb_console_is_serial0", s0 == "/soc/serial@7e215040" and
                        sp.startswith("serial0"), f"serial0 {s0}, stdout-path {sp}")
        else:
            ktap.skip("dtb_console_is_serial0", "no Pi 4 tree fetched yet")

        # Bad input.
        other = bytearray(bl31)
        other[0x100] ^= 1
        open(path("other.bin"), "wb").write(other)
        refused(ktap, "patch_refuses_another_bl31",
                [sys.executable, PATCH, path("other.bin"), path("other.bin"), path("x.bin")],
                "is not the TF-A build this workaround was checked against", out=path("x.bin"))
        refused(ktap, "armstub_without_bl31_names_the_file",
                [TFA_SH, "armstub", "rpi3", path("none.bin")],
                "nowhere/rpi3/bl31.bin not found: install Debian's arm-trusted-firmware",
                env={"TFA_DIR": path("nowhere")}, out=path("none.bin"))
        open(path("junk.dtb"), "wb").write(b"not a tree\n" * 8)
        refused(ktap, "dtb_refuses_a_non_tree", [TFA_SH, "dtb", path("junk.dtb"), path("o.dtb")],
                "is not a device tree", out=path("o.dtb"))
        run([os.path.join(ROOT, "qemu.sh"), "--dump-dtb", path("virt.dtb")])
        refused(ktap, "dtb_refuses_a_non_pi_tree", [TFA_SH, "dtb", path("virt.dtb"), path("o.dtb")],
                "is neither a Pi 3 (bcm2837) nor a Pi 4 (bcm2711) tree", out=path("o.dtb"))
        refused(ktap, "header_refuses_a_non_armstub",
                [TFA_SH, "header", path("junk.dtb"), path("h.bin"), "0x3000000", "0x80000"],
                "has no armstub magic (0x5afe570b) at 0xf0", out=path("h.bin"))
        refused(ktap, "qemu_sh_tfa_card_is_for_the_pis",
                [os.path.join(ROOT, "qemu.sh"), "--firmware", "tfa-card", "--timeout", "5"],
                "--firmware tfa-card is for raspi3b/raspi4b")
        refused(ktap, "qemu_sh_unknown_firmware",
                [os.path.join(ROOT, "qemu.sh"), "--machine", "raspi3b", "--firmware", "uefi"],
                "--firmware wants tfa or tfa-card, not 'uefi'")
        refused(ktap, "mksdcard_tfa_not_for_pi5",
                [os.path.join(ROOT, "tools/mksdcard.sh"), "--firmware", "tfa", "rpi5",
                 bl31_path, path("card.img")],
                "--firmware tfa is for rpi3 and rpi4", out=path("card.img"))
    return 0 if ktap.print() else 1


if __name__ == "__main__":
    sys.exit(main())
