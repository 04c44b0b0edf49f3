/*
 * Thread context switch and the first return of a new thread.
 * Only callee-saved registers need saving: cpu_switch_to() is an ordinary
 * call as far as the compiler on either side is concerned.
 */
#include <asm/asm.h>

	.text
/*
 * struct task_struct *cpu_switch_to(prev, next): save prev's context in
 * prev->cpu_context (offset 0), load next's, make next `current` (SP_EL0)
 * and return prev in next's context.
 */
ENTRY(cpu_switch_to)
	stp	x19, x20, [x0, #16 * 0]
	stp	x21, x22, [x0, #16 * 1]
	stp	x23, x24, [x0, #16 * 2]
	stp	x25, x26, [x0, #16 * 3]
	stp	x27, x28, [x0, #16 * 4]
	mov	x9, sp
	stp	x29, x9, [x0, #16 * 5]
	str	x30, [x0, #16 * 6]
	ldp	x19, x20, [x1, #16 * 0]
	ldp	x21, x22, [x1, #16 * 1]
	ldp	x23, x24, [x1, #16 * 2]
	ldp	x25, x26, [x1, #16 * 3]
	ldp	x27, x28, [x1, #16 * 4]
	ldp	x29, x9, [x1, #16 * 5]
	ldr	x30, [x1, #16 * 6]
	mov	sp, x9
	msr	sp_el0, x1
	ret
END(cpu_switch_to)

/*
 * A new thread's first instructions: finish the switch that started it
 * (x0 = prev), then call fn(arg) from x19/x20 and exit with its result.
 */
ENTRY_OUTERMOST(ret_from_fork)
	final_frame_record		/* a new stack: its chain ends here */
	bl	schedule_tail
	mov	x0, x20
	blr	x19
	bl	do_exit
END_OUTERMOST(ret_from_fork)
