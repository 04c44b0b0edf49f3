/*
 * The CPU masks, defined once (as in Linux's cpumask.h):
 *
 *   possible  CPUs the device tree describes (logical ids 0..nr_cpu_ids-1)
 *   present   possible CPUs that may be brought up
 *   online    CPUs running the kernel, taking interrupts and threads.
 *             Readers take no lock: inside rcu_read_lock() a set bit
 *             means that CPU's per-CPU data stays valid until
 *             rcu_read_unlock() (kernel/cpu.c has the rules). Outside
 *             such a section a read is only a momentary snapshot.
 *   active    online CPUs the scheduler may place threads on (cleared
 *             first on the way down, set last on the way up)
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <lib/cpumask.h>

extern struct cpumask __cpu_possible_mask, __cpu_present_mask,
	__cpu_online_mask, __cpu_active_mask;
extern unsigned int nr_cpu_ids;

#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask ((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
#define cpu_active_mask ((const struct cpumask *)&__cpu_active_mask)

#define for_each_possible_cpu(cpu) for_each_cpu (cpu, cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu (cpu, cpu_present_mask)
#define for_each_online_cpu(cpu) for_each_cpu (cpu, cpu_online_mask)

static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_online_mask);
}

static inline bool cpu_active(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_active_mask);
}

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(cpu_online_mask);
}

void set_cpu_online(unsigned int cpu, bool online);
void set_cpu_active(unsigned int cpu, bool active);

/* Logical CPU number <-> MPIDR affinity (from the device tree "reg"). */
#define MPIDR_HWID_MASK 0xff00ffffffUL
u64 cpu_logical_map(unsigned int cpu);
int get_logical_index(u64 mpidr);

#endif
