/* Monotonic time from the generic timer's counter. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <asm/arch_timer.h>

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_USEC 1000ULL
#define MSEC_PER_SEC 1000ULL

/* Counter ticks to nanoseconds without overflowing 64 bits. */
static inline u64 cycles_to_ns(u64 cyc, u64 freq)
{
	return cyc / freq * NSEC_PER_SEC + cyc % freq * NSEC_PER_SEC / freq;
}

static inline u64 ktime_get_ns(void)
{
	u64 freq = arch_timer_get_freq();

	return freq ? cycles_to_ns(arch_counter_get(), freq) : 0;
}

void udelay(unsigned long us);

#endif
