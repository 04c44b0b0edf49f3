/*
 * The time base: the generic timer's counter, its rate (CNTFRQ_EL0 or the
 * tree's override, which the clocksource driver stores here at probe),
 * monotonic time from it (<kernel/time.h>) and busy-wait delays. One home
 * for all of it: every part of the kernel reads time, none reaches into a
 * driver for it.
 */
#include <kernel/time.h>
#include <asm/barrier.h>

u64 arch_timer_rate;

void udelay(unsigned long us)
{
	u64 freq = arch_timer_get_freq();
	u64 start = arch_counter_get();
	u64 ticks = us * freq / 1000000 + 1;

	while (arch_counter_get() - start < ticks)
		cpu_relax();
}
