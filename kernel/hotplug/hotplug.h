/*
 * Between the step table (core.c), its figures (stats.c) and its fault
 * points (core_faults.c), private to kernel/hotplug/. Each record is made
 * with the hotplug lock held.
 */
#ifndef KERNEL_HOTPLUG_HOTPLUG_H
#define KERNEL_HOTPLUG_HOTPLUG_H

#include <lib/types.h>

unsigned int cpuhp_nr_steps(void);
/* May step fail on purpose that way (fail.up_step, fail.down_step)? */
bool cpuhp_step_may_fail(unsigned int step, bool up);

#ifdef CONFIG_FAULT_INJECTION
/* Before step of cpu runs that way: the tests' hook, then -EIO if the
 * step is to fail (said), else 0. */
int cpuhp_step_fault(unsigned int cpu, unsigned int step, bool up);
/* fail.alloc_up: which allocation of this cpu_up() fails, or 0. */
unsigned int cpuhp_alloc_up_fault(void);
#else
static inline int cpuhp_step_fault(unsigned int cpu, unsigned int step, bool up)
{
	return 0;
}

static inline unsigned int cpuhp_alloc_up_fault(void)
{
	return 0;
}
#endif
/* Step `step` of the operation in progress took ns. */
void cpuhp_stats_step(unsigned int step, bool up, u64 ns);
/* A successful down or up of cpu took ns; a failed one. */
void cpuhp_stats_op(unsigned int cpu, bool up, u64 ns);
void cpuhp_stats_failed(bool up);

#endif
