// Raspberry Pi 3 armstub that boots Trusted Firmware-A's BL31 in place of
// TF-A's BL1 and BL2: it owns what those two do on a Pi 3 and nothing more.
//
// Every core starts here, at address 0 in EL3 with the MMU off: on a real
// Pi 3 the GPU firmware loads this file (config.txt armstub=) and releases
// the cores into it; on QEMU raspi3b, qemu.sh loads it at 0 and the cores
// reset there. The file is this stub, padded to BL31_OFFSET, then bl31.bin.
//
//   core 0, first time:  copy bl31.bin to its link address (BL31_BASE),
//       clear TF-A's mailbox, release the other cores into the hold pen,
//       and enter BL31 with x0 = bl_params_t naming the kernel as BL33
//       (entry, SPSR, x0 = the device tree) and x1 = the rpi3 platform's
//       check value (TF-A asserts it in debug builds).
//   every other entry:   the hold pen of TF-A's rpi3 BL1. A core waits
//       until its hold word (TM_HOLD_BASE + 8 * core) reads GO, sets it
//       back to WAIT and jumps to the warm entry BL31 stored at
//       TM_ENTRYPOINT. TF-A's CPU_ON writes GO and sends an event; its
//       CPU_OFF ends in a warm reset (RMR_EL3), which lands here again.
//
// Consuming GO (instead of clearing the word on arrival, as TF-A's BL1
// does) keeps a CPU_ON that comes before the reset-to-pen has finished
// from being lost: the word holds GO until this core takes it.
//
// The header at 0xf0 is the Pi firmware's armstub contract: it recognises
// the magic and writes the device tree's address at 0xf8 and the kernel's
// entry at 0xfc. On QEMU the assembler fills them in (DTB_ADDR and
// KERNEL_ADDR), as no firmware does; 0 in KERNEL_ADDR means 0x80000.

	.equ	BL31_BASE,	0x100e0000	// the rpi3 build's link address
	.equ	BL31_OFFSET,	0x1000		// where bl31.bin sits in this file
	.equ	TM_ENTRYPOINT,	0x10000000	// TF-A's trusted mailbox
	.equ	TM_HOLD_BASE,	0x10000008
	.equ	HOLD_WAIT,	0
	.equ	HOLD_GO,	1
	.equ	PLAT_PARAM_VAL,	0x0f1e2d3c4b5a6978

	// TF-A's image-passing structures (include/common/ep_info.h,
	// bl_common.h), version 2: what BL2 hands BL31.
	.equ	PARAM_EP,	0x01
	.equ	PARAM_IMAGE_BINARY, 0x02
	.equ	PARAM_BL_PARAMS, 0x05
	.equ	VERSION_2,	0x02
	.equ	EP_NON_SECURE,	0x1
	.equ	EP_EXECUTABLE,	0x8
	.equ	BL33_IMAGE_ID,	5
	.equ	SPSR_EL2H,	0x3c9		// DAIF masked, EL2 with SP_EL2
	.equ	SPSR_EL1H,	0x3c5

	.ifndef	BL31_SIZE
	.error	"assemble with --defsym BL31_SIZE=<size of bl31.bin>"
	.endif
	.ifndef	DTB_ADDR
	.equ	DTB_ADDR, 0
	.endif
	.ifndef	KERNEL_ADDR
	.equ	KERNEL_ADDR, 0
	.endif
	// CNTFRQ_EL0 resets to an UNKNOWN value on a Cortex-A53: on a Pi 3
	// EL3 sets it to the 19.2 MHz crystal, as the Pi's own armstub does.
	// QEMU's reset value is already its counter's true rate (62.5 MHz),
	// so a QEMU build (CNT_FREQ=0) leaves it alone.
	.ifndef	CNT_FREQ
	.equ	CNT_FREQ, 19200000
	.endif
	// QEMU 7.2's WFE does not sleep (it is a yield): a core waiting in
	// the hold pen keeps its vCPU, so a host CPU, busy for as long as it
	// is off, and a busy host then runs the writer's or a reader's vCPU
	// late. A QEMU build (PEN_WFI) spins PEN_SPIN_TICKS after arriving,
	// so a CPU_ON soon after CPU_OFF (a hotplug cycle) is seen at once,
	// then sleeps in WFI, woken every PEN_POLL_TICKS by the secure
	// physical timer routed to this core's IRQ by the BCM2836 local
	// controller (core timer interrupt control, bit 0: CNTPS). A board
	// keeps WFE, which sleeps there until TF-A's CPU_ON sends its event.
	.equ	LOCAL_TIMER_CTRL, 0x40000040	// + 4 * core
	.equ	PEN_SPIN_TICKS,	12500		// 200 us at QEMU's 62.5 MHz
	.equ	PEN_POLL_TICKS,	6250		// 100 us

	.ifdef	ENTER_EL1
	.equ	BL33_SPSR, SPSR_EL1H
	.else
	.equ	BL33_SPSR, SPSR_EL2H
	.endif

	.text
	.globl	_start
_start:
	b	stub_main

	// The Pi firmware's armstub header (fixed offsets).
	.org	0xf0
stub_magic:
	.word	0x5afe570b
stub_version:
	.word	0
dtb_ptr32:
	.word	DTB_ADDR
kernel_entry32:
	.word	KERNEL_ADDR

stub_main:
	msr	daifset, #0xf
	.if	CNT_FREQ
	ldr	x0, =CNT_FREQ			// EL3's to set
	msr	cntfrq_el0, x0
	.endif
	mrs	x19, mpidr_el1
	and	x19, x19, #0xff			// core number (Aff0)
	ldr	x20, =TM_HOLD_BASE
	add	x20, x20, x19, lsl #3		// this core's hold word
	adr	x21, released
	cbnz	x19, hold_pen
	// Core 0: a first boot until it has released the others once;
	// after that, core 0 here is back from CPU_OFF's warm reset.
	ldr	w0, [x21]
	cbnz	w0, hold_pen

cold_boot:
	// Copy bl31.bin to its link address (MMU and caches are off).
	adr	x0, _start
	add	x0, x0, #BL31_OFFSET
	ldr	x1, =BL31_BASE
	ldr	x2, =BL31_SIZE
1:	ldrb	w3, [x0], #1
	strb	w3, [x1], #1
	subs	x2, x2, #1
	b.ne	1b
	ic	iallu
	// The mailbox starts empty: no entry point, every core WAITing.
	ldr	x0, =TM_ENTRYPOINT
	str	xzr, [x0]
	str	xzr, [x0, #8]
	str	xzr, [x0, #16]
	str	xzr, [x0, #24]
	str	xzr, [x0, #32]
	mov	w0, #1
	str	w0, [x21]
	dsb	sy
	isb
	sev
	// BL33 = the kernel: entry, and its x0 = the device tree.
	adr	x0, bl33_ep
	ldr	w1, kernel_entry32
	cbnz	w1, 2f
	mov	w1, #0x80000
2:	str	x1, [x0, #8]			// entry_point_info_t.pc
	ldr	w1, dtb_ptr32
	str	x1, [x0, #24]			// .args.arg0
	dsb	sy
	adr	x0, bl_params
	ldr	x1, =PLAT_PARAM_VAL
	mov	x2, xzr
	mov	x3, xzr
	ldr	x4, =BL31_BASE
	br	x4

hold_pen:
	// A first boot waits for core 0 to have cleared the mailbox.
	ldr	w0, [x21]
	cbnz	w0, 3f
	wfe
	b	hold_pen
3:
	.ifdef	PEN_WFI
	mrs	x22, cntpct_el0			// arrival
	ldr	x23, =LOCAL_TIMER_CTRL
	add	x23, x23, x19, lsl #2		// this core's routing word
5:	ldr	x0, [x20]
	cmp	x0, #HOLD_GO
	b.eq	6f
	mrs	x1, cntpct_el0
	sub	x2, x1, x22
	ldr	x3, =PEN_SPIN_TICKS
	cmp	x2, x3
	b.lo	5b				// spinning, as WFE does here
	ldr	x3, =PEN_POLL_TICKS
	add	x1, x1, x3
	msr	cntps_cval_el1, x1
	mov	x1, #1				// enabled, not masked
	msr	cntps_ctl_el1, x1
	ldr	w1, [x23]
	orr	w1, w1, #1
	str	w1, [x23]
	dsb	sy
	wfi					// IRQs masked: wakes, not taken
	b	5b
6:	msr	cntps_ctl_el1, xzr		// off: its IRQ line drops
	ldr	w1, [x23]
	bic	w1, w1, #1
	str	w1, [x23]
	.else
	ldr	x0, [x20]
	cmp	x0, #HOLD_GO
	b.eq	4f
	wfe
	b	3b
	.endif
4:	mov	x0, #HOLD_WAIT
	str	x0, [x20]			// taken: the next CPU_OFF waits
	dsb	sy
	ldr	x0, =TM_ENTRYPOINT
	ldr	x1, [x0]
	br	x1

	.ltorg

	.balign	8
released:					// 1 once core 0 has booted
	.word	0
	.word	0

	// bl_params_t -> one bl_params_node_t (BL33) -> entry_point_info_t.
	// Header: type (8 bits), version (8), size (16), attributes (32).
bl_params:
	.byte	PARAM_BL_PARAMS, VERSION_2
	.hword	16
	.word	0
	.quad	bl33_node			// head
bl33_node:
	.word	BL33_IMAGE_ID
	.word	0
	.quad	bl33_image			// image_info
	.quad	bl33_ep				// ep_info
	.quad	0				// next_params_info
bl33_image:
	.byte	PARAM_IMAGE_BINARY, VERSION_2
	.hword	24
	.word	0
	.quad	0				// image_base (preloaded)
	.word	0				// image_size
	.word	0				// image_max_size
bl33_ep:
	.byte	PARAM_EP, VERSION_2
	.hword	88
	.word	EP_NON_SECURE | EP_EXECUTABLE
	.quad	0				// pc, set at boot
	.word	BL33_SPSR
	.word	0
	.quad	0, 0, 0, 0, 0, 0, 0, 0		// args: x0..x7

	// bl31.bin follows (gas refuses to move .org backwards: the stub
	// must fit below it).
	.org	BL31_OFFSET
