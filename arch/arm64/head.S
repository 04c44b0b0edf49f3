/*
 * Kernel entry: the arm64 Image header, the drop from EL2 to EL1, and the
 * MMU-on sequence that moves the boot CPU from wherever the loader put the
 * image to the kernel's fixed virtual address.
 *
 * The boot protocol (Linux's Documentation/arch/arm64/booting.rst, which
 * QEMU, U-Boot and the Raspberry Pi firmware follow): x0 = DTB physical
 * address, MMU off, D-cache off, image cleaned to PoC, at EL2 or EL1.
 * Nothing here assumes the load address: until the MMU is on, every
 * address is formed PC-relative.
 */
#include <asm/asm.h>
#include <asm/memory.h>
#include <asm/smp.h>
#include <asm/sysreg.h>

	.section ".head.text", "ax"
ENTRY(_head)
	b	primary_entry		/* code0 */
	.long	0			/* code1 */
	.quad	0			/* text_offset: any 4 KiB-aligned base */
	.quad	_kernel_size_le		/* image_size, bss included (linker.ld) */
	.quad	0xa			/* flags: LE, 4 KiB pages, anywhere in RAM */
	.quad	0, 0, 0			/* res2..res4 */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* res5 */
END(_head)

ENTRY(primary_entry)
	mov	x19, x0			/* DTB physical address */
	bl	el2_setup		/* now at EL1; w0 = the EL we came in at */
	mov	w20, w0
	adr_l	x21, _head		/* physical load address of the image */
	adr_l	x0, boot_stack_end
	mov	sp, x0
	mov	x0, x21
	bl	early_map_kernel	/* C, MMU off: kernel + identity tables */
	adr_l	x0, idmap_pg_dir
	adr_l	x1, swapper_pg_dir
	bl	__enable_mmu
	ldr	x8, =primary_switched	/* the link-time (virtual) address */
	br	x8
END(primary_entry)

/*
 * A secondary CPU's physical entry (PSCI CPU_ON or the spin-table
 * release), MMU off. x0 is not used: spin-table passes nothing there, so
 * the CPU learns who it is from secondary_data (arch/arm64/smp.c).
 *
 * Its first instruction reads the counter: where the firmware's share of
 * a bring-up ends (arch/arm64/smp.c, "firmware share"). Entered at EL2,
 * the count is offset by CNTVOFF_EL2, UNKNOWN out of reset, which
 * el2_setup zeroes for the kernel's clock: add it back. The value stays in
 * x21 until the MMU and caches are on (secondary_switched stores it).
 */
ENTRY(secondary_entry)
	mrs	x21, cntvct_el0
	mrs	x0, CurrentEL
	cmp	x0, #(2 << 2)
	b.ne	1f
	mrs	x0, cntvoff_el2
	add	x21, x21, x0
1:	bl	el2_setup
	adr_l	x0, idmap_pg_dir
	adr_l	x1, swapper_pg_dir
	bl	__enable_mmu
	ldr	x8, =secondary_switched
	br	x8
END(secondary_entry)

/* Fault injection (fail.cpu=): a CPU started here never arrives. */
ENTRY(secondary_lost)
1:	wfe
	b	1b
END(secondary_lost)

	.text
/*
 * The identity map served the MMU switch only: stop TTBR0 walks, so low
 * addresses fault. Where RAM starts at 0 (Raspberry Pi) its 1 GiB block
 * would otherwise let a NULL pointer read the start of RAM. Clobbers x0.
 */
ENTRY(idmap_off)
	mrs	x0, tcr_el1
	orr	x0, x0, #TCR_EPD0
	msr	tcr_el1, x0
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	ret
END(idmap_off)

/*
 * The start-slot handshake (arch/arm64/smp.c has the design note). The
 * CPU claims secondary_slot with a load/store-exclusive pair that empties
 * it, and only if the slot names its own MPIDR; __cpu_up() takes it back
 * with an exchange on timeout. Exactly one side wins, so a CPU uses the
 * idle thread and stack only if __cpu_up() still waits for it.
 *
 * x21: the counter at the physical entry (secondary_entry), 0 from the
 * pen. Written into the claimed secondary_data only here: with the MMU
 * off a store is non-cacheable, and the line of secondary_data that
 * __cpu_up() left in its cache would hide it, or overwrite it when
 * evicted. Now it is an ordinary coherent store, which the waiter reads
 * after complete(&cpu_running) (its lock orders it).
 */
ENTRY_OUTERMOST(secondary_switched)
	bl	idmap_off
	mov	x0, #0
	bl	secondary_late_delay	/* fail.cpu_late=CPU:MS */
	mrs	x3, mpidr_el1
	ldr	x4, =SECONDARY_MPIDR_MASK
	and	x3, x3, x4
	adr_l	x0, secondary_slot
1:	ldaxr	x1, [x0]		/* pairs with smp_store_release() */
	mov	x19, #SECONDARY_LATE_NO_SLOT
	cbz	x1, 2f			/* __cpu_up() gave up on us */
	ldr	x2, [x1, #SECONDARY_DATA_MPIDR]
	mov	x19, #SECONDARY_LATE_NOT_MINE
	cmp	x2, x3
	b.ne	2f			/* another CPU's bring-up */
	stxr	w2, xzr, [x0]		/* claim: empty the slot */
	cbnz	w2, 1b
	mov	x20, x1
	str	x21, [x20, #SECONDARY_DATA_ENTRY_TICKS]
	mov	x0, #1
	bl	secondary_late_delay	/* fail.cpu_late=CPU:MS:claimed */
	ldp	x1, x2, [x20]		/* task, stack */
	msr	sp_el0, x1
	mov	sp, x2
	final_frame_record
	bl	secondary_start_kernel
	b	.
	/*
	 * Not ours: never touch the slot's thread or stack. Borrow the one
	 * late stack (arch/arm64/smp.c, "the borrowed stack"): claim it
	 * with an exclusive pair, as a new generation; while another
	 * straggler holds it, wait and try again. The kernel frees it once
	 * the firmware (or the pen) says its holder runs no code any more.
	 */
2:	clrex
	adr_l	x0, late_stack_owner
3:	ldaxr	x1, [x0]		/* pairs with late_stack_release() */
	tbz	x1, #LATE_STACK_BUSY_BIT, 4f
	wfe				/* its release writes here: an event */
	b	3b
4:	mov	x2, #(1 << LATE_STACK_GEN_SHIFT)
	add	x4, x1, x2
	and	x4, x4, #LATE_STACK_GEN_MASK
	orr	x4, x4, x3
	orr	x4, x4, #(1 << LATE_STACK_BUSY_BIT)
	stlxr	w2, x4, [x0]		/* owner: us, after pen.S's stores */
	cbnz	w2, 3b
	adr_l	x0, late_task
	msr	sp_el0, x0
	msr	tpidr_el1, xzr
	adr_l	x0, late_stack_end
	mov	sp, x0
	final_frame_record
	mov	x0, x19
	bl	secondary_too_late	/* off or into the pen; back if refused */
	/*
	 * The firmware refused CPU_OFF: this CPU leaves the stack for
	 * secondary_lost, which needs none, and frees it itself (nobody
	 * else does while the CPU is on).
	 */
	adr_l	x0, late_stack_owner
	ldr	x1, [x0]
	and	x1, x1, #LATE_STACK_GEN_MASK
	stlr	x1, [x0]		/* done with the stack: next one may */
	sev
	b	secondary_lost
END_OUTERMOST(secondary_switched)

/*
 * Fault injection (fail.cpu_late=): spin while this CPU's entry in
 * secondary_late[] asks for a delay at phase x0 (0: before the claim,
 * 1: after it). No stack; clobbers x0-x7.
 */
ENTRY(secondary_late_delay)
	mrs	x1, mpidr_el1
	ldr	x2, =SECONDARY_MPIDR_MASK
	and	x1, x1, x2
	adr_l	x2, secondary_late
	adr_l	x3, secondary_late_nr
	ldr	x3, [x3]
1:	cbz	x3, 3f
	ldp	x4, x5, [x2], #16	/* mpidr, ticks | phase << 63 */
	sub	x3, x3, #1
	cmp	x4, x1
	b.ne	1b
	lsr	x6, x5, #63
	cmp	x6, x0
	b.ne	1b
	and	x5, x5, #~(1 << 63)
	isb
	mrs	x6, cntvct_el0
2:	isb
	mrs	x7, cntvct_el0
	sub	x7, x7, x6
	cmp	x7, x5
	b.lo	2b
3:	ret
END(secondary_late_delay)

/* Runs at the kernel's virtual address with the MMU and caches on. */
ENTRY_OUTERMOST(primary_switched)
	bl	idmap_off
	adr_l	x0, boot_stack_end
	mov	sp, x0
	adr_l	x0, init_task		/* current = init_task (SP_EL0) */
	msr	sp_el0, x0
	msr	tpidr_el1, xzr		/* per-CPU offset 0: the template */
	final_frame_record		/* end of the chain for backtraces */
	adr_l	x0, __bss_start
	adr_l	x1, __bss_stop
1:	cmp	x0, x1
	b.hs	2f
	stp	xzr, xzr, [x0], #16
	b	1b
2:	mov	x0, x19
	mov	w1, w20
	mov	x2, x21
	bl	start_kernel
	b	.			/* start_kernel does not return */
END_OUTERMOST(primary_switched)

/*
 * Leave the CPU at EL1 with a known SCTLR_EL1 and FP/SIMD usable.
 * From EL2: EL1 is AArch64, may use the physical timer and counter, sees
 * the real MIDR/MPIDR, is not trapped for FP, and (GICv3) may use the
 * ICC_* system registers. Returns the entry EL in w0. Clobbers x0, x1.
 */
	.section ".head.text", "ax"
ENTRY(el2_setup)
	mov_q	x1, SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x1
	mov	x1, #CPACR_EL1_FPEN
	msr	cpacr_el1, x1
	mrs	x0, CurrentEL
	ubfx	x0, x0, #2, #2
	cmp	x0, #2
	b.eq	1f
	isb
	ret
1:	mov_q	x1, HCR_EL2_RW
	msr	hcr_el2, x1
	mrs	x1, cnthctl_el2
	orr	x1, x1, #(CNTHCTL_EL2_EL1PCTEN | CNTHCTL_EL2_EL1PCEN)
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	mrs	x1, midr_el1
	msr	vpidr_el2, x1
	mrs	x1, mpidr_el1
	msr	vmpidr_el2, x1
	mov	x1, #CPTR_EL2_RES1
	msr	cptr_el2, x1
	msr	hstr_el2, xzr
	msr	vttbr_el2, xzr
	mrs	x1, id_aa64pfr0_el1	/* GIC field: system registers? */
	ubfx	x1, x1, #24, #4
	cbz	x1, 2f
	mrs	x1, S3_4_C12_C9_5	/* ICC_SRE_EL2 */
	mov	x0, #(ICC_SRE_EL2_SRE | ICC_SRE_EL2_ENABLE)
	orr	x1, x1, x0
	msr	S3_4_C12_C9_5, x1
	isb
2:	mov	x0, #2
	mov	x1, #SPSR_EL1H_DAIF
	msr	spsr_el2, x1
	msr	elr_el2, x30
	eret
END(el2_setup)

/*
 * Turn the MMU on. x0 = identity map (TTBR0), x1 = kernel tables (TTBR1),
 * both physical. Must run from the identity map; returns there.
 */
ENTRY(__enable_mmu)
	mov_q	x2, MAIR_EL1_VALUE
	msr	mair_el1, x2
	mov_q	x2, TCR_EL1_VALUE
	mrs	x3, id_aa64mmfr0_el1	/* PARange -> IPS, at most 48 bits */
	ubfx	x3, x3, #0, #4
	cmp	x3, #5
	mov	x4, #5
	csel	x3, x4, x3, hi
	bfi	x2, x3, #TCR_IPS_SHIFT, #3
	msr	tcr_el1, x2
	msr	ttbr0_el1, x0
	msr	ttbr1_el1, x1
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	mov_q	x2, SCTLR_EL1_MMU_ON
	msr	sctlr_el1, x2
	isb
	ic	iallu			/* drop instructions fetched MMU-off */
	dsb	nsh
	isb
	ret
END(__enable_mmu)

	.bss
	.balign	16
late_stack:
	.space	4096
late_stack_end:
	.globl	late_stack_owner
late_stack_owner:			/* busy bit, generation, MPIDR: asm/smp.h */
	.quad	0
/*
 * The boot CPU's stack (later its idle thread's), laid out as a vmap
 * stack slot (arch/arm64/vmap_stack.c): a guard half, unmapped once
 * paging is up, under the stack half.
 */
	.balign	STACK_SLOT_SIZE
	.globl	boot_stack_guard
boot_stack_guard:
	.space	1 << THREAD_SHIFT
	.globl	boot_stack
boot_stack:
	.space	1 << THREAD_SHIFT
	.globl	boot_stack_end
boot_stack_end:
