/* The Arm generic timer's counter (the virtual count, CNTVOFF = 0 at EL2). */
#ifndef ASM_ARCH_TIMER_H
#define ASM_ARCH_TIMER_H

#include <asm/sysreg.h>

static inline u64 arch_counter_get(void)
{
	isb(); /* do not read the counter early, ahead of older instructions */
	return read_sysreg(cntvct_el0);
}

static inline u64 arch_timer_get_freq(void)
{
	return read_sysreg(cntfrq_el0);
}

#endif
