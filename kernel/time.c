/* Busy-wait delays on the generic timer's counter. */
#include <kernel/time.h>
#include <asm/barrier.h>

void udelay(unsigned long us)
{
	u64 freq = arch_timer_get_freq();
	u64 start = arch_counter_get();
	u64 ticks = us * freq / 1000000 + 1;

	while (arch_counter_get() - start < ticks)
		cpu_relax();
}
