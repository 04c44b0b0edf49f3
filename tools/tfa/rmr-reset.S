// QEMU-only stand-in for the warm reset TF-A's Raspberry Pi CPU_OFF
// requests with `msr rmr_el3` (QEMU ignores RMR_EL3, so the core would sit
// in WFI for ever). tools/tfa/patch_bl31_qemu.py puts this in the zero
// padding at the end of BL31's code and turns that one msr into a branch
// here. It does what the reset would: MMU and caches off, back to address
// 0 at EL3, where the armstub (the Pi 3: rpi3-armstub.S; the Pi 4: BL31
// itself) returns the core to its hold pen. BL31 maps itself flat
// (VA = PA), so fetching goes on unchanged once the MMU is off. Never on
// an SD card: real cores reset.
	.text
	.globl	_start
_start:
	mrs	x0, sctlr_el3
	mov	x1, #0x1005			// SCTLR.M, .C, .I
	bic	x0, x0, x1
	msr	sctlr_el3, x0
	isb
	ic	iallu
	dsb	sy
	isb
	mov	x0, xzr				// the reset vector (RVBAR_EL3)
	br	x0
