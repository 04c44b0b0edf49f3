/*
 * The CPU-context save and restore of cpu_suspend() (arch/arm64/suspend.c
 * has the design note), the physical resume entry cpu_resume, and the
 * fault injection's emulated power-down.
 */
#include <asm/asm.h>
#include <asm/suspend.h>
#include <asm/sysreg.h>

/*
 * What the emulated power-down writes where the hardware would leave
 * UNKNOWN or reset values: not a kernel address (x19-x30, sp, the thread
 * and per-CPU pointers fault if used), and 2 KiB aligned for VBAR_EL1.
 */
#define SUSPEND_POISON 0x5a5a0000dead0000
#define MDSCR_EL1_TDCC (1 << 12)
#define CNTKCTL_EL0_ACCESS 3	/* EL0PCTEN | EL0VCTEN */

/* Save or restore the system registers in struct cpu_suspend_ctx order. */
.macro	suspend_sysregs, op, base
	\op	sp_el0, tpidr_el1, vbar_el1, tcr_el1, \base, 0
	\op	sctlr_el1, mair_el1, ttbr1_el1, cpacr_el1, \base, 32
	\op	mdscr_el1, cntkctl_el1, cntv_cval_el0, cntv_ctl_el0, \base, 64
	\op	contextidr_el1, tpidr_el0, tpidrro_el0, daif, \base, 96
.endm

.macro	save4, r0, r1, r2, r3, base, off
	mrs	x2, \r0
	mrs	x3, \r1
	stp	x2, x3, [\base, #\off]
	mrs	x2, \r2
	mrs	x3, \r3
	stp	x2, x3, [\base, #\off + 16]
.endm

.macro	restore4, r0, r1, r2, r3, base, off
	ldp	x2, x3, [\base, #\off]
	msr	\r0, x2
	msr	\r1, x3
	ldp	x2, x3, [\base, #\off + 16]
	msr	\r2, x2
	msr	\r3, x3
.endm

	.text
/*
 * __cpu_suspend_enter(ctx): save the callee-saved registers, sp and the
 * EL1 system registers into ctx and return 1. A CPU that resumes through
 * cpu_resume returns from here a second time, with 0 (like setjmp).
 */
ENTRY(__cpu_suspend_enter)
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	mov	x1, sp
	str	x1, [x0, #CPU_SUSPEND_CTX_SP]
	add	x1, x0, #CPU_SUSPEND_CTX_SYSREGS
	suspend_sysregs save4, x1
	mov	x0, #1
	ret
END(__cpu_suspend_enter)

/*
 * The firmware's restart point after a power-down: physical, MMU off, at
 * EL1 (or EL2: el2_setup drops), IRQs masked, x0 = the context id, the
 * saved context's virtual address, read only once the MMU is on. The
 * same MMU-on sequence as secondary_entry (head.S).
 */
ENTRY_OUTERMOST(cpu_resume)
	mov	x19, x0
	bl	el2_setup
	adr_l	x0, idmap_pg_dir
	adr_l	x1, swapper_pg_dir
	bl	__enable_mmu
	ldr	x8, =__cpu_resume_virt
	br	x8
END_OUTERMOST(cpu_resume)

/*
 * Virtual now. The saved TCR_EL1 has TTBR0 walks off again (idmap_off):
 * drop whatever the identity map left in the TLB. DAIF last.
 */
ENTRY(__cpu_resume_virt)
	add	x1, x19, #CPU_SUSPEND_CTX_SYSREGS
	suspend_sysregs restore4, x1
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	ldr	x1, [x19, #CPU_SUSPEND_CTX_SP]
	mov	sp, x1
	mov	x0, x19
	ldp	x19, x20, [x0, #0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	x29, x30, [x0, #80]
	mov	x0, #0			/* __cpu_suspend_enter()'s second return */
	ret
END(__cpu_resume_virt)

/*
 * __cpu_emulate_powerdown(entry, context_id): what firmware does once a
 * power-down has happened, from the kernel's virtual address. Lose the
 * EL1 state (poison or reset values), switch back to the identity map,
 * turn the MMU and D-cache off there, lose the translation state and the
 * TLB, poison the general registers and sp, and branch to entry with
 * x0 = context_id. Nothing is read with the MMU off but instructions, so
 * no data needs cleaning to the PoC for it. Does not return.
 */
ENTRY(__cpu_emulate_powerdown)
	msr	daifset, #0xf
	mov	x9, x0
	mov	x10, x1
	mov_q	x2, SUSPEND_POISON
	msr	sp_el0, x2
	msr	tpidr_el1, x2
	msr	tpidr_el0, x2
	msr	tpidrro_el0, x2
	msr	vbar_el1, x2
	/* Flipped, not zeroed: the kernel may hold the reset value. */
	mrs	x3, contextidr_el1
	eor	x3, x3, x2
	msr	contextidr_el1, x3
	mrs	x3, mdscr_el1
	eor	x3, x3, #MDSCR_EL1_TDCC	/* harmless at EL1: traps EL0's DCC */
	msr	mdscr_el1, x3
	mrs	x3, cntkctl_el1
	eor	x3, x3, #CNTKCTL_EL0_ACCESS
	msr	cntkctl_el1, x3
	msr	cntv_ctl_el0, xzr	/* timer off: no tick until restored */
	msr	cntv_cval_el0, x2
	isb
	/* TTBR0 walks back on (idmap_off stopped them): the identity map. */
	mrs	x3, tcr_el1
	bic	x3, x3, #TCR_EPD0
	msr	tcr_el1, x3
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	adr_l	x4, 1f
	adr_l	x5, kimage_voffset
	ldr	x5, [x5]
	sub	x4, x4, x5		/* 1f's physical address */
	br	x4
1:	mrs	x3, sctlr_el1
	mov	x4, #(SCTLR_EL1_M | SCTLR_EL1_C)
	bic	x3, x3, x4
	msr	sctlr_el1, x3
	isb
	ic	iallu
	dsb	nsh
	isb
	/* MMU off: the rest of EL1's state goes, as in a reset. */
	mov_q	x3, SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x3
	msr	ttbr0_el1, xzr
	msr	ttbr1_el1, xzr
	msr	tcr_el1, xzr
	msr	mair_el1, x2
	msr	cpacr_el1, xzr
	tlbi	vmalle1
	dsb	nsh
	isb
	mov	x19, x2
	mov	x20, x2
	mov	x21, x2
	mov	x22, x2
	mov	x23, x2
	mov	x24, x2
	mov	x25, x2
	mov	x26, x2
	mov	x27, x2
	mov	x28, x2
	mov	x29, x2
	mov	x30, x2
	mov	sp, x2
	mov	x0, x10
	br	x9
END(__cpu_emulate_powerdown)
