/*
 * stop_machine(): run a function on this CPU while every other running
 * CPU spins with interrupts off, as Linux's stop_machine(). Each other
 * CPU joins from its next scheduling point, so no CPU is stopped inside a
 * preempt-disabled section: when fn runs, every such section that began
 * before the call has ended. That makes it a grace period for readers
 * that only disable preemption (Ingo Molnar's hotplug design, and this
 * kernel's classic RCU readers).
 */
#ifndef KERNEL_STOP_MACHINE_H
#define KERNEL_STOP_MACHINE_H

#include <lib/kernel.h>

/*
 * May sleep; not from interrupts. 0 and fn's result in *ret, or
 * -ETIMEDOUT if a CPU never joined (printed; fn did not run).
 */
int stop_machine(int (*fn)(void *), void *arg, int *ret);

/* The scheduler's hook: join a stop_machine() this CPU is asked to. */
void stop_machine_join(void);
bool stop_machine_pending(void);
/* The longest any CPU was held stopped (since the last reset). */
u64 stop_machine_max_stop_ns(bool reset);
/* CPU time every CPU spent held stopped, summed over CPUs, since boot. */
u64 stop_machine_total_stop_ns(void);

#endif
