/*
 * The CPU maps: the possible, present, online and active masks,
 * nr_cpu_ids, logical CPU numbers and each CPU's enable method's
 * operations. Below hotplug, which changes them, and every part that
 * reads them.
 *
 * A logical CPU number is an index into board.cpus[] (the device tree's
 * CPU nodes, in order), except that the boot CPU is always CPU 0: its
 * entry is swapped to the front. MPIDRs come only from the tree's "reg".
 */
#define pr_fmt(fmt) "smp: " fmt
#include <asm/cputype.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/devicetree.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <string.h>

struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask,
	__cpu_active_mask;
unsigned int nr_cpu_ids = 1;

extern const struct cpu_operations *const __cpu_ops_start[],
	*const __cpu_ops_end[];

/*
 * Setting the bit is a release: the CPU's per-CPU area, published before,
 * is visible to a reader whose acquire load sees the bit (cpu_online_next()).
 */
void set_cpu_online(unsigned int cpu, bool online)
{
	unsigned long *word =
		&cpumask_bits(&__cpu_online_mask)[cpu / BITS_PER_LONG];
	unsigned long bit = 1UL << (cpu % BITS_PER_LONG);

	if (online)
		__atomic_fetch_or(word, bit, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(word, ~bit, __ATOMIC_RELAXED);
}

void set_cpu_active(unsigned int cpu, bool active)
{
	if (active)
		cpumask_set_cpu(cpu, &__cpu_active_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_active_mask);
}

u64 cpu_logical_map(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? board.cpus[cpu].mpidr : ~0UL;
}

int get_logical_index(u64 mpidr)
{
	mpidr &= MPIDR_HWID_MASK;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (board.cpus[cpu].mpidr == mpidr)
			return cpu;
	return -1;
}

const struct cpu_operations *get_cpu_ops(unsigned int cpu)
{
	const char *name = enable_method_name(board.cpus[cpu].method);
	const struct cpu_operations *const *ops;

	for (ops = __cpu_ops_start; ops < __cpu_ops_end; ops++)
		if (!strcmp((*ops)->name, name))
			return *ops;
	return NULL;
}

/* Make the boot CPU logical CPU 0 and fill the possible/present masks. */
void smp_setup_cpu_maps(void)
{
	u64 me = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	struct board_cpu *cpus = kcalloc(board.nr_cpus, sizeof(*cpus));
	int idx = -1;

	if (!cpus)
		panic("no memory for %d CPUs' descriptions", board.nr_cpus);
	board_read_cpus(initial_boot_params, cpus);
	for (int i = 0; i < board.nr_cpus; i++)
		if (board.cpus[i].mpidr == me)
			idx = i;
	if (idx < 0) {
		pr_err("boot CPU (MPIDR 0x%llx) is not in the device tree: "
		       "running on it alone\n",
		       (unsigned long long)me);
		board.cpus[0].mpidr = me;
		board.cpus[0].method = ENABLE_METHOD_NONE;
		board.nr_cpus = 1;
	} else if (idx > 0) {
		struct board_cpu tmp = board.cpus[0];

		board.cpus[0] = board.cpus[idx];
		board.cpus[idx] = tmp;
	}
	nr_cpu_ids = board.nr_cpus;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
		cpumask_set_cpu(cpu, &__cpu_present_mask);
	}
	set_cpu_online(0, true);
	set_cpu_active(0, true);
}

void online_cpus_walk(bool (*fn)(unsigned int cpu, void *arg), void *arg)
{
	int cpu = -1;

	for (;;) {
		bool more;

		rcu_read_lock();
		cpu = cpu_online_next(cpu);
		more = (unsigned int)cpu < nr_cpu_ids && fn(cpu, arg);
		rcu_read_unlock();
		if (!more)
			return;
	}
}
