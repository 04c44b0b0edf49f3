/*
 * Exception vectors. Every exception taken to EL1 saves a struct pt_regs
 * on the current stack and calls C. From EL1 with SP_EL1 (EL1h) a sync
 * exception or an IRQ is handled; everything else (EL1t, EL0, FIQ,
 * SError) means a broken kernel and ends in bad_mode().
 *
 * EL1h sync and IRQ first check that the pt_regs fit on the stack: a
 * stack that ran into its guard would otherwise fault again on every
 * attempt to save them (see arch/arm64/vmap_stack.c).
 */
#include <asm/asm.h>
#include <asm/memory.h>
#include <asm/ptrace.h>

/* sub_sp=0: the vector already made room for the pt_regs. */
.macro kernel_entry, sub_sp=1
	.if	\sub_sp
	sub	sp, sp, #PT_REGS_SIZE
	.endif
	stp	x0, x1, [sp, #16 * 0]
	stp	x2, x3, [sp, #16 * 1]
	stp	x4, x5, [sp, #16 * 2]
	stp	x6, x7, [sp, #16 * 3]
	stp	x8, x9, [sp, #16 * 4]
	stp	x10, x11, [sp, #16 * 5]
	stp	x12, x13, [sp, #16 * 6]
	stp	x14, x15, [sp, #16 * 7]
	stp	x16, x17, [sp, #16 * 8]
	stp	x18, x19, [sp, #16 * 9]
	stp	x20, x21, [sp, #16 * 10]
	stp	x22, x23, [sp, #16 * 11]
	stp	x24, x25, [sp, #16 * 12]
	stp	x26, x27, [sp, #16 * 13]
	stp	x28, x29, [sp, #16 * 14]
	add	x21, sp, #PT_REGS_SIZE	/* the interrupted sp */
	stp	x30, x21, [sp, #S_X30]
	mrs	x22, elr_el1
	mrs	x23, spsr_el1
	stp	x22, x23, [sp, #S_PC]
	mrs	x24, esr_el1
	mrs	x25, far_el1
	stp	x24, x25, [sp, #S_ESR]
	/* A frame record linking the interrupted code, for backtraces. */
	stp	x29, x22, [sp, #-16]!
	mov	x29, sp
	add	x0, sp, #16		/* struct pt_regs * */
.endm

.macro kernel_exit
	add	sp, sp, #16		/* the frame record */
	ldp	x22, x23, [sp, #S_PC]
	msr	elr_el1, x22
	msr	spsr_el1, x23
	ldp	x0, x1, [sp, #16 * 0]
	ldp	x2, x3, [sp, #16 * 1]
	ldp	x4, x5, [sp, #16 * 2]
	ldp	x6, x7, [sp, #16 * 3]
	ldp	x8, x9, [sp, #16 * 4]
	ldp	x10, x11, [sp, #16 * 5]
	ldp	x12, x13, [sp, #16 * 6]
	ldp	x14, x15, [sp, #16 * 7]
	ldp	x16, x17, [sp, #16 * 8]
	ldp	x18, x19, [sp, #16 * 9]
	ldp	x20, x21, [sp, #16 * 10]
	ldp	x22, x23, [sp, #16 * 11]
	ldp	x24, x25, [sp, #16 * 12]
	ldp	x26, x27, [sp, #16 * 13]
	ldp	x28, x29, [sp, #16 * 14]
	ldr	x30, [sp, #S_X30]
	add	sp, sp, #PT_REGS_SIZE
	eret
.endm

.macro ventry, label
	.balign	128
	b	\label
.endm

/*
 * Room for the pt_regs, then the stack check: every stack in use has bit
 * THREAD_SHIFT of its addresses set, a guard has it clear. No register
 * is free yet, so x0 trades places with sp (as in Linux's entry code).
 */
.macro ventry_checked, label
	.balign	128
	sub	sp, sp, #PT_REGS_SIZE
	add	sp, sp, x0		/* sp = sp' + x0 */
	sub	x0, sp, x0		/* x0 = sp' */
	tbz	x0, #THREAD_SHIFT, 1f
	sub	x0, sp, x0		/* x0 = x0 */
	sub	sp, sp, x0		/* sp = sp' */
	b	\label
1:	msr	tpidr_el0, x0		/* sp': for handle_bad_stack() */
	sub	x0, sp, x0		/* x0 = x0 */
	b	el1h_overflow
.endm

.macro bad_vector, name, reason
\name:
	kernel_entry
	mov	w1, #\reason
	bl	bad_mode
	b	.
.endm

	.section ".text.vectors", "ax"
	.balign	2048
ENTRY(vectors)
	ventry	el1t_sync		/* current EL, SP_EL0 */
	ventry	el1t_irq
	ventry	el1t_fiq
	ventry	el1t_error
	ventry_checked el1h_sync	/* current EL, SP_EL1 */
	ventry_checked el1h_irq
	ventry	el1h_fiq
	ventry	el1h_error
	ventry	el0_sync		/* lower EL, AArch64 */
	ventry	el0_irq
	ventry	el0_fiq
	ventry	el0_error
	ventry	el0_sync		/* lower EL, AArch32 */
	ventry	el0_irq
	ventry	el0_fiq
	ventry	el0_error
END(vectors)

el1h_sync:
	kernel_entry 0
	bl	el1_sync_handler
	kernel_exit

el1h_irq:
	kernel_entry 0
	bl	el1_irq_handler
	kernel_exit

/*
 * The stack overflowed: go on on this CPU's overflow stack,
 * overflow_stack_top[cpu_number] (a CPU array: a pointer). EL0's thread registers (EL0 never runs)
 * hold x0 and the bad sp meanwhile, and sp holds x1: nothing accesses
 * memory through sp until it is the overflow stack.
 */
el1h_overflow:
	msr	tpidrro_el0, x0
	mov	sp, x1
	mrs	x0, tpidr_el1		/* this CPU's per-CPU offset */
	adr_l	x1, cpu_number
	ldr	w1, [x1, x0]
	adr_l	x0, overflow_stack_top
	ldr	x0, [x0]
	ldr	x0, [x0, x1, lsl #3]
	mov	x1, sp
	mov	sp, x0
	mrs	x0, tpidrro_el0
	kernel_entry
	mrs	x1, tpidr_el0		/* the sp that did not fit */
	bl	handle_bad_stack	/* does not return */
	b	.

	bad_vector el1t_sync, 0
	bad_vector el1t_irq, 1
	bad_vector el1t_fiq, 2
	bad_vector el1t_error, 3
	bad_vector el1h_fiq, 6
	bad_vector el1h_error, 7
	bad_vector el0_sync, 8
	bad_vector el0_irq, 9
	bad_vector el0_fiq, 10
	bad_vector el0_error, 11
