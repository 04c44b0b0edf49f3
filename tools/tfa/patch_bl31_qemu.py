#!/usr/bin/env python3
"""Writes a copy of Debian's rpi3 or rpi4 bl31.bin that can power a core
off and on again on QEMU.

TF-A's Raspberry Pi CPU_OFF ends in `msr rmr_el3` (a warm reset request),
which QEMU (7.2 and 10) does not implement: the core would never come
back. This named, checked emulator workaround replaces that one
instruction with a branch to tools/tfa/rmr-reset.S (assembled, placed in
the zero padding at the end of BL31's code, inside its executable
mapping), which does what the reset would.

The rpi4 build is the armstub itself, so its cores go back to TF-A's own
hold pen, which clears the core's hold word when the core arrives: a
CPU_ON that wrote GO before the core got there (TF-A has marked the core
OFF before its reset) is lost, and the core waits for ever while the
kernel sees ON_PENDING. QEMU runs the path from CPU_OFF to the pen slowly
enough for that to happen (a board, in microseconds, far less often). So
the rpi4 copy also has the pen take GO as it leaves (clear the word then)
instead of clearing it on arrival, as tools/tfa/rpi3-armstub.S's pen does
for the Pi 3: two more words, each checked, and four instructions after
the trampoline.

Core 0 of either build, going off, writes BSP_OFF over its hold word
before the reset, so that TF-A's own pen can tell its warm boot from a
cold one; TF-A has marked it OFF before that, so a CPU_ON that wrote GO
in between is overwritten, and core 0 is lost the same way (one
raspi3b-tfa hotplug stress boot in 30 with a busy host). The Pi 3's
armstub tells core 0's cold boot by its own flag, so the rpi3 copy drops
that store. The rpi4's pen needs it: there the race stays (docs/boards.md).

Only the builds whose bytes were checked are accepted; anything else is
refused with the reason. The output is for QEMU only: SD cards get the
stock file.

Usage: patch_bl31_qemu.py BL31_IN TRAMPOLINE_BIN OUT
       patch_bl31_qemu.py --which BL31_IN   (prints rpi3 or rpi4, the build
                                             it is, or exits 1)
"""
import hashlib
import struct
import sys

MSR_RMR_EL3_X0 = 0xD51EC040
NOP = 0xD503201F
STR_X1_X0 = 0xF9000001       # str x1, [x0]: the pen's clear on arrival,
                             # and core 0's BSP_OFF before its reset
STR_XZR_X0 = 0xF900001F      # str xzr, [x0]
DSB_SY = 0xD5033F9F
MOV_X0_0X100 = 0xD2802000    # mov x0, #0x100: the warm entry point's word

# sha256 of the build -> its board, load address, offset of `msr rmr_el3,
# x0`, offset and size of zero padding at the end of its code (mapped
# executable), for the rpi4 the pen: (offset of its clear on arrival,
# offset of the `mov x0, #0x100` after its wait), and for the rpi3 the
# offset of core 0's BSP_OFF store in rpi3_pwr_down_wfi().
KNOWN = {
    # arm-trusted-firmware 2.8.0+dfsg-1 (Debian 12), rpi3, debug build
    "e1d2705661e45366461cb745ee0131a2bddfa19b4339ce78948ecef93fab84f7":
        ("rpi3", 0x100E0000, 0x4E3C, 0x6800, 0x800, None, 0x4E2C),
    # the same package's rpi4 build: the armstub itself, loaded at 0
    "2033f257de495cf2d31c81704811bf1bab955e24d4d1823900a7615cadc15ccb":
        ("rpi4", 0x0, 0x889C, 0xB800, 0x800, (0x231C, 0x2330), None),
}


def fail(msg):
    sys.exit(f"patch_bl31_qemu.py: {msg}")


def branch(frm, to):
    """The A64 `b` from offset frm to offset to."""
    return 0x14000000 | (((to - frm) >> 2) & 0x3FFFFFF)


def word(data, at, want, what):
    got = struct.unpack_from("<I", data, at)[0]
    if got != want:
        fail(f"offset {at:#x} holds {got:#010x}, not {what}")


def take_go(data, pen, code_at):
    """The pen takes GO as it leaves: its clear on arrival becomes a nop,
    and the instruction after its wait branches to code that clears the
    word, then does that instruction and branches back."""
    clear, leave = pen
    word(data, clear, STR_X1_X0, "the pen's str x1, [x0]")
    word(data, leave, MOV_X0_0X100, "the pen's mov x0, #0x100")
    code = [STR_XZR_X0, DSB_SY, MOV_X0_0X100, branch(code_at + 12, leave + 4)]
    if any(data[code_at:code_at + 4 * len(code)]):
        fail(f"no free room for the pen's code at {code_at:#x}")
    struct.pack_into("<I", data, clear, NOP)
    struct.pack_into("<I", data, leave, branch(leave, code_at))
    struct.pack_into(f"<{len(code)}I", data, code_at, *code)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--which":
        try:
            data = open(sys.argv[2], "rb").read()
        except OSError as e:
            fail(f"cannot read {e.filename}: {e.strerror}")
        known = KNOWN.get(hashlib.sha256(data).hexdigest())
        if not known:
            return 1
        print(known[0])
        return 0
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
    _, base, site, space, room, pen, bsp_off = KNOWN[digest]
    word(data, site, MSR_RMR_EL3_X0, "msr rmr_el3")
    if bsp_off:
        word(data, bsp_off, STR_X1_X0, "core 0's BSP_OFF str x1, [x0]")
        struct.pack_into("<I", data, bsp_off, NOP)
    if len(tramp) + (16 if pen else 0) > room or any(data[space:space + len(tramp)]):
        fail(f"{src}: no free room for the trampoline at {space:#x}")
    data[space:space + len(tramp)] = tramp
    struct.pack_into("<I", data, site, branch(site, space))
    if pen:
        take_go(data, pen, (space + len(tramp) + 15) & ~15)
    with open(out, "wb") as f:
        f.write(data)
    print(f"patch_bl31_qemu.py: {out}: msr rmr_el3 at "
          f"{base + site:#x} -> b {base + space:#x}"
          f"{'; the hold pen takes GO as it leaves' if pen else ''}"
          f"{'; core 0 keeps its hold word going off' if bsp_off else ''}"
          " (QEMU only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
