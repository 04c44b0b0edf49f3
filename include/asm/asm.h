/* Assembler macros shared by the .S files. */
#ifndef ASM_ASM_H
#define ASM_ASM_H

#ifdef __ASSEMBLER__
/* Assembler, which clang-format would mangle: */
/* clang-format off */

	.cfi_sections	.debug_frame

/* Address of a symbol, PC-relative: the physical one while the MMU is off. */
.macro	adr_l, dst, sym
	adrp	\dst, \sym
	add	\dst, \dst, :lo12:\sym
.endm

/* Load a 64-bit constant without a literal pool. */
.macro	mov_q, reg, val
	movz	\reg, :abs_g3:\val
	movk	\reg, :abs_g2_nc:\val
	movk	\reg, :abs_g1_nc:\val
	movk	\reg, :abs_g0_nc:\val
.endm

/*
 * The last frame record of a stack: {fp 0, lr 0} at its base, x29 at it.
 * The kernel's unwinder stops at fp 0; GDB stops at a zero return address.
 * With x29 merely zeroed, GDB unwinds an assembly entry (no CFI) by its
 * own lr and reports "previous frame identical to this frame".
 */
.macro	final_frame_record
	stp	xzr, xzr, [sp, #-16]!
	mov	x29, sp
	mov	x30, xzr
.endm

#define ENTRY(name)			\
	.globl name;			\
	.type name, %function;		\
	.balign 4;			\
	name:
#define END(name) .size name, . - name

/*
 * A function nothing calls (a stack's first code): its call frame
 * information says the return address is undefined, which is how DWARF
 * marks the outermost frame, so GDB ends a backtrace there without a
 * complaint. The frame information goes in .debug_frame (.eh_frame is
 * discarded at link time); C code has none, GDB reads its prologues.
 */
#define ENTRY_OUTERMOST(name)		\
	ENTRY(name)			\
	.cfi_startproc;			\
	.cfi_undefined x30;
#define END_OUTERMOST(name)		\
	.cfi_endproc;			\
	END(name)

/* clang-format on */
#endif

#endif
