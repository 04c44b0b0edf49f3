#!/usr/bin/env python3
"""Writes a copy of Debian's rpi3 or rpi4 bl31.bin that can power a core off on QEMU.

TF-A's Raspberry Pi CPU_OFF ends in `msr rmr_el3` (a warm reset request),
which QEMU (7.2 and 10) does not implement: the core would never come back. This named,
checked emulator workaround replaces that one instruction with a branch to
tools/tfa/rmr-reset.S (assembled, placed in the zero padding after BL31's
exception vectors, inside its executable mapping), which does what the
reset would. Only the one build whose bytes were checked is accepted;
anything else is refused with the reason. The output is for QEMU only:
SD cards get the stock file.

Usage: patch_bl31_qemu.py BL31_IN TRAMPOLINE_BIN OUT
"""
import hashlib
import struct
import sys

# sha256 of the build -> (its load address, offset of `msr rmr_el3, x0`,
# offset and size of zero padding at the end of its code, mapped
# executable).
KNOWN = {
    # arm-trusted-firmware 2.8.0+dfsg-1 (Debian 12), rpi3, debug build
    "e1d2705661e45366461cb745ee0131a2bddfa19b4339ce78948ecef93fab84f7":
        (0x100E0000, 0x4E3C, 0x6800, 0x800),
    # the same package's rpi4 build: the armstub itself, loaded at 0
    "2033f257de495cf2d31c81704811bf1bab955e24d4d1823900a7615cadc15ccb":
        (0x0, 0x889C, 0xB800, 0x800),
}
MSR_RMR_EL3_X0 = 0xD51EC040


def fail(msg):
    sys.exit(f"patch_bl31_qemu.py: {msg}")


def branch(frm, to):
    """The A64 `b` from offset frm to offset to."""
    return 0x14000000 | (((to - frm) >> 2) & 0x3FFFFFF)


def main():
    if len(sys.argv) != 4:
        fail("usage: patch_bl31_qemu.py BL31_IN TRAMPOLINE_BIN OUT")
    src, tramp_path, out = sys.argv[1:]
    try:
        data = bytearray(open(src, "rb").read())
        tramp = open(tramp_path, "rb").read()
    except OSError as e:
        fail(f"cannot read {e.filename}: {e.strerror}")
    digest = hashlib.sha256(data).hexdigest()
    if digest not in KNOWN:
        fail(f"{src} is not the TF-A build this workaround was checked "
             f"against (sha256 {digest}); refusing to patch it. Debian 12's "
             "arm-trusted-firmware 2.8.0+dfsg-1 rpi3/ and rpi4/bl31.bin are.")
    base, site, space, room = KNOWN[digest]
    word = struct.unpack_from("<I", data, site)[0]
    if word != MSR_RMR_EL3_X0:
        fail(f"{src}: offset {site:#x} holds {word:#010x}, not msr rmr_el3")
    if len(tramp) > room or any(data[space:space + len(tramp)]):
        fail(f"{src}: no free room for the trampoline at {space:#x}")
    data[space:space + len(tramp)] = tramp
    struct.pack_into("<I", data, site, branch(site, space))
    with open(out, "wb") as f:
        f.write(data)
    print(f"patch_bl31_qemu.py: {out}: msr rmr_el3 at "
          f"{base + site:#x} -> b {base + space:#x} (QEMU only)")


if __name__ == "__main__":
    main()
