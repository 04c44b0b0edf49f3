/*
 * Between the step table (core.c) and its figures (stats.c), private to
 * kernel/hotplug/. Each record is made with the hotplug lock held.
 */
#ifndef KERNEL_HOTPLUG_HOTPLUG_H
#define KERNEL_HOTPLUG_HOTPLUG_H

#include <lib/types.h>

unsigned int cpuhp_nr_steps(void);
/* Step `step` of the operation in progress took ns. */
void cpuhp_stats_step(unsigned int step, bool up, u64 ns);
/* A successful down or up of cpu took ns; a failed one. */
void cpuhp_stats_op(unsigned int cpu, bool up, u64 ns);
void cpuhp_stats_failed(bool up);

#endif
