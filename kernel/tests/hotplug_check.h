/*
 * The invariants a CPU down or up must leave behind, checked CPU by CPU
 * (kernel/tests/hotplug_check.c): the fault sweep checks them after every
 * operation, the stress at each checkpoint.
 */
#ifndef KERNEL_TESTS_HOTPLUG_CHECK_H
#define KERNEL_TESTS_HOTPLUG_CHECK_H

#include <lib/kernel.h>

/* Told of each violated invariant; the text names the check's `when`. */
typedef void (*hotplug_violated_fn)(void *ctx, const char *fmt, ...)
	__printf(2, 3);

/*
 * Check every CPU and the hotplug lock; with no operation in progress.
 * May wait (up to HOTPLUG_SETTLE_US) for a late CPU to park and go off.
 */
void hotplug_check_cpus(hotplug_violated_fn violated, void *ctx,
			const char *when);

/*
 * Off: AFFINITY_INFO says OFF, or the kernel's pen holds it (hotplug.pen,
 * spin-table), waiting up to HOTPLUG_SETTLE_US for a late CPU to get there.
 */
bool hotplug_cpu_settled_off(unsigned int cpu);

/* How long a late CPU may take to park and power off after an up gave
 * up on it: its injected delay and a margin for a busy host. */
#define HOTPLUG_SETTLE_US 5000000

#endif
