/* The Arm generic timer's counter (the virtual count, CNTVOFF = 0 at EL2). */
#ifndef ASM_ARCH_TIMER_H
#define ASM_ARCH_TIMER_H

#include <asm/sysreg.h>
#include <lib/kernel.h>

static inline u64 arch_counter_get(void)
{
	isb(); /* do not read the counter early, ahead of older instructions */
	return read_sysreg(cntvct_el0);
}

/*
 * The counter's rate: CNTFRQ_EL0, which firmware sets, unless the timer's
 * device-tree node gives a clock-frequency (the binding's override for
 * firmware that sets it wrong), which the driver puts here at probe.
 * Defined with the time base, in kernel/time/timekeeping.c.
 */
extern u64 arch_timer_rate;

static inline u64 arch_timer_get_freq(void)
{
	u64 rate = READ_ONCE(arch_timer_rate);

	return rate ? rate : read_sysreg(cntfrq_el0);
}

#endif
