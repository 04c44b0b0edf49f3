/*
 * Cross-CPU calls and the other inter-processor interrupts, and bringing
 * the secondary CPUs up at boot.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/percpu.h>
#include <lib/cpumask.h>

typedef void (*smp_call_func_t)(void *info);

/*
 * Run func(info) on cpu, with interrupts off there. With wait, return
 * once it has run. 0, -ENXIO if cpu is not online, or -ENOMEM (only
 * without wait: no request could be allocated, func was not called).
 * Must not be called with interrupts off when waiting (two CPUs could
 * wait on each other).
 */
int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info,
			     bool wait);
/*
 * The same on every online CPU in mask except the caller. Without wait
 * each call needs a request allocated for it; a CPU none could be
 * allocated for is not called: it is put in missed (if not NULL) and
 * counted in the return value, so the caller can reach it another way
 * (smp_call_function_single() with wait needs no allocation). With wait
 * every CPU is called and 0 is returned.
 */
int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			   void *info, bool wait, struct cpumask *missed);
/* ... and on every online CPU including the caller. */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);

void smp_send_reschedule(unsigned int cpu);
/* Stop every other online CPU (panic, power-off). */
void smp_send_stop(void);
/* Ask each CPU in mask to print its backtrace (stall reports). */
void smp_send_backtrace(const struct cpumask *mask);

/* Boot: IPI handlers, then bring up every CPU the device tree lists. */
void smp_prepare_boot_cpu(void);
void smp_init_ipis(void);
void smp_init(void);

/* How many IPIs of a type cpu has taken since it last came up (0: offline). */
u64 ipi_count(unsigned int ipi, unsigned int cpu);

/*
 * A caller waiting for cross-CPU calls that have not all run after
 * smp_call_warn_ms names the CPUs that owe one and sends their IPI again
 * (smp_call_resends counts those reports); tests shorten the wait.
 */
extern unsigned long smp_call_warn_ms;
extern unsigned long smp_call_resends;

/*
 * Whether a CPU going down has left the kernel for good (it ran its own
 * down steps and is on its way into the firmware), confirmed off or not.
 */
bool arch_cpu_left_kernel(unsigned int cpu);

/* Run queued cross-CPU calls on this CPU (the IPI handler). */
void flush_smp_call_function_queue(void);
/* ... on a CPU going down, after the last call could be queued to it. */
void smpcfd_dying_cpu(void);

#endif
