/*
 * Between the hotplug step table (kernel/hotplug/core.c), the boot path
 * and the architecture (arch/arm64/smp.c): who calls whom to bring a CPU
 * up or take it down. Users of hotplug want <kernel/cpu.h> instead.
 */
#ifndef KERNEL_CPUHP_H
#define KERNEL_CPUHP_H

#include <lib/types.h>

/* Boot: the boot CPU is online, as the step table counts it (after
 * smp_setup_cpu_maps(), <kernel/cpu.h>). */
void cpuhp_boot_cpu_online(void);

/* The step table, on the CPU itself, interrupts off: its own up steps
 * once it runs, its own down steps before it leaves the kernel. */
void cpuhp_ap_startup(unsigned int cpu);
void cpuhp_ap_teardown(unsigned int cpu);
/* A step's name in the table ("cpu:bringup"), for the trace's dump. */
const char *cpuhp_step_name(unsigned int step);
/*
 * For tests and the fault sweep: hook is called, on the writer, before
 * each step that a surviving CPU runs for cpu (NULL: none). It may
 * sleep, and must not take CPUs up or down.
 */
void cpuhp_set_step_hook(void (*hook)(unsigned int cpu, const char *step,
				      bool up));

/*
 * The architecture: power cpu on and wait until it ran its steps; ask it
 * to leave and wait for its report (-ETIMEDOUT: it did not take the
 * request, which is withdrawn: it is still there); wait until the
 * firmware says it is off. 0, or <0 with the reason printed.
 */
int __cpu_up(unsigned int cpu);
/* How long a CPU may take to come up or to take its down request
 * (hotplug.timeout_ms); set for the next operations, returns the old. */
unsigned long cpuhp_set_timeout_ms(unsigned long ms);
int __cpu_teardown(unsigned int cpu);
int __cpu_die(unsigned int cpu);
/*
 * The firmware's share (ns) of cpu's last successful __cpu_up() (CPU_ON
 * to its first instruction) and __cpu_die() (CPU_OFF to the first
 * AFFINITY_INFO answer OFF); 0 if its enable method called no firmware.
 */
u64 arch_cpu_fw_up_ns(unsigned int cpu);
u64 arch_cpu_fw_down_ns(unsigned int cpu);
/* The idle loop of a CPU going down: time to leave? Then leave (this
 * returns only if the request was withdrawn meanwhile). */
bool cpu_should_die(void);
void arch_cpu_idle_dead(void);

#endif
