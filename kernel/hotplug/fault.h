/* Hotplug fault injection (fault.c), as the step table consults it. */
#ifndef KERNEL_HOTPLUG_FAULT_H
#define KERNEL_HOTPLUG_FAULT_H

#include <lib/types.h>

void hotplug_faults_init(void);
/* The allocation of the next cpu_up() that must fail (1 = first), 0 none. */
unsigned int hotplug_fault_take_alloc(void);
/* Must up step `name` fail this time? */
bool hotplug_fault_fail_step(const char *name);

#endif
