/*
 * The kernel's parking pen, for CPUs taken offline where the firmware
 * cannot power them off (spin-table boards): the CPU waits in WFE with
 * interrupts masked and its GIC interface already off, touching no stack
 * and no per-CPU data (both are freed once it is parked), until released;
 * then it restarts like a CPU just started, from secondary_data.
 */
#include <asm/asm.h>

	.text
/* cpu_pen_enter(u32 *parked, u64 *release): does not return. */
ENTRY(cpu_pen_enter)
	msr	daifset, #0xf
	mov	w2, #1
	stlr	w2, [x0]		/* parked: paired with cpu_pen_wait() */
1:	wfe
	ldar	x3, [x1]		/* paired with cpu_pen_release() */
	cbz	x3, 1b
	str	xzr, [x1]
	str	wzr, [x0]
	mov	x21, #0			/* no firmware entry: no entry stamp */
	b	secondary_switched	/* MMU still on: start over */
END(cpu_pen_enter)
