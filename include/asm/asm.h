/* Assembler macros shared by the .S files. */
#ifndef ASM_ASM_H
#define ASM_ASM_H

#ifdef __ASSEMBLER__
/* Assembler, which clang-format would mangle: */
/* clang-format off */

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

#define ENTRY(name)			\
	.globl name;			\
	.type name, %function;		\
	.balign 4;			\
	name:
#define END(name) .size name, . - name

/* clang-format on */
#endif

#endif
