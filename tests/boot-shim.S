// Boot shim for qemu.sh --bad-dtb: enters the kernel the way a boot loader
// would, but with a device tree of our choosing (or none).
//
// QEMU loads this shim raw at SHIM_ADDR and starts CPU 0 on it; the kernel
// Image is loaded raw at KERNEL_ADDR and the DTB file under test at
// 0x44000000. The arm64 boot protocol (Documentation/arch/arm64/booting.rst)
// wants x0 = physical address of the DTB, x1 = x2 = x3 = 0, then a jump to the
// start of the Image. The address put in x0 comes from the assembler:
//
//   aarch64-linux-gnu-as --defsym DTB_ADDR=0x44000000 ...   (a DTB to test)
//   aarch64-linux-gnu-as --defsym DTB_ADDR=0 ...            (no DTB at all)
//
// The shim runs at whatever exception level the CPU resets into (EL1 on
// virt, EL2 with virtualization=on) and touches no system register, so the
// kernel sees the same entry state as under `qemu -kernel`. The secondary
// CPUs stay powered off until the kernel starts them through PSCI.
//
// Position independent except for the two literal addresses below.

	.text
	.globl	_start
_start:
	ldr	x0, =DTB_ADDR		// device tree (0 = none)
	mov	x1, xzr			// reserved, must be zero
	mov	x2, xzr
	mov	x3, xzr
	ldr	x4, =KERNEL_ADDR
	br	x4			// never returns

	.ltorg
