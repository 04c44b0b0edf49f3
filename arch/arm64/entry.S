/*
 * Exception vectors. Every exception taken to EL1 saves a struct pt_regs
 * on the current stack and calls C. From EL1 with SP_EL1 (EL1h) a sync
 * exception or an IRQ is handled; everything else (EL1t, EL0, FIQ,
 * SError) means a broken kernel and ends in bad_mode().
 */
#include <asm/asm.h>
#include <asm/ptrace.h>

.macro kernel_entry
	sub	sp, sp, #PT_REGS_SIZE
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
	ventry	el1h_sync		/* current EL, SP_EL1 */
	ventry	el1h_irq
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
	kernel_entry
	bl	el1_sync_handler
	kernel_exit

el1h_irq:
	kernel_entry
	bl	el1_irq_handler
	kernel_exit

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
