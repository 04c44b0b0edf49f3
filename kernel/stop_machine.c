/*
 * stop_machine(): the calling CPU runs fn while every other running CPU
 * spins with interrupts off (include/kernel/stop_machine.h).
 *
 * There are no stopper threads. The caller marks each other CPU and asks
 * it to reschedule; the CPU joins from __schedule(), in the context of
 * whatever thread it was about to switch away from: a point outside any
 * preempt-disabled section, as a stopper thread's would be. The phases
 * follow Linux's multi_cpu_stop():
 *
 *   PREPARE  CPUs arrive with interrupts on, so a cross-CPU call another
 *            CPU is waiting on (with preemption off, unable to join yet)
 *            still runs here: waiting with interrupts off would deadlock
 *   DISABLE  all have arrived: each turns interrupts off and says so
 *   EXIT     fn has run on the caller: all leave, and the caller waits
 *            until they have, so the next call can reuse the state
 *
 * The caller keeps the CPU masks still (it holds the hotplug lock).
 */
#define pr_fmt(fmt) "stop_machine: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/mutex.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
#include <lib/errno.h>

enum stop_state { STOP_NONE, STOP_PREPARE, STOP_DISABLE, STOP_EXIT };

static DEFINE_MUTEX(stop_mutex);
static struct {
	int state;
	unsigned int nr_arrived, nr_disabled, nr_left;
} stop;
static DEFINE_CPU_ARRAY(bool, stop_asked);
/* The longest time each CPU was held. */
static DEFINE_CPU_ARRAY(u64, stopped_max_ns);
/* Every stop's length, summed: the bystanders' stall since boot. */
static DEFINE_CPU_ARRAY(u64, stopped_total_ns);

#define STOP_WARN_NS (1000 * 1000 * 1000ULL)

bool stop_machine_pending(void)
{
	return READ_ONCE(stop_asked[smp_processor_id()]);
}

static void count_in(unsigned int *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELEASE);
}

void stop_machine_join(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long flags;
	int state;
	u64 t0;

	if (!smp_load_acquire(&stop_asked[cpu]))
		return;
	WRITE_ONCE(stop_asked[cpu], false);
	t0 = ktime_get_ns();
	local_irq_save(flags);
	local_irq_enable();
	count_in(&stop.nr_arrived);
	while ((state = smp_load_acquire(&stop.state)) == STOP_PREPARE)
		cpu_relax();
	local_irq_disable();
	count_in(&stop.nr_disabled);
	while (smp_load_acquire(&stop.state) == STOP_DISABLE)
		cpu_relax();
	count_in(&stop.nr_left);
	local_irq_restore(flags);
	t0 = ktime_get_ns() - t0;
	if (t0 > stopped_max_ns[cpu])
		stopped_max_ns[cpu] = t0;
	WRITE_ONCE(stopped_total_ns[cpu], stopped_total_ns[cpu] + t0);
}

u64 stop_machine_total_stop_ns(void)
{
	u64 sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += READ_ONCE(stopped_total_ns[cpu]);
	return sum;
}

u64 stop_machine_max_stop_ns(bool reset)
{
	u64 max = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		max = max(max, READ_ONCE(stopped_max_ns[cpu]));
		if (reset)
			WRITE_ONCE(stopped_max_ns[cpu], 0);
	}
	return max;
}

/*
 * Spin until n CPUs have counted in. If it takes long, name the CPUs
 * still asked to join and show what they are doing.
 */
static void wait_for_cpus(unsigned int *counter, unsigned int n,
			  const char *what)
{
	u64 warn_at = ktime_get_ns() + STOP_WARN_NS;

	while (smp_load_acquire(counter) < n) {
		cpu_relax();
		if (warn_at && ktime_get_ns() > warn_at) {
			struct cpumask late;
			unsigned int cpu;
			char list[64];

			cpumask_clear(&late);
			for_each_possible_cpu (cpu)
				if (READ_ONCE(stop_asked[cpu]))
					cpumask_set_cpu(cpu, &late);
			cpumap_print_list(list, sizeof(list), &late);
			pr_warn("only %u of %u CPUs %s after 1 s (not yet: "
				"%s); still waiting\n",
				smp_load_acquire(counter), n, what, list);
			smp_send_backtrace(&late);
			warn_at = 0;
		}
	}
}

int stop_machine(int (*fn)(void *), void *arg, int *ret)
{
	struct cpumask cpus;
	unsigned long flags;
	unsigned int cpu, n;

	lockdep_assert_cpus_held();
	mutex_lock(&stop_mutex);
	preempt_disable();
	cpumask_or(&cpus, cpu_online_mask, cpu_active_mask);
	cpumask_clear_cpu(smp_processor_id(), &cpus);
	n = cpumask_weight(&cpus);
	stop.nr_arrived = stop.nr_disabled = stop.nr_left = 0;
	smp_store_release(&stop.state, STOP_PREPARE);
	for_each_cpu (cpu, &cpus) {
		smp_store_release(&stop_asked[cpu], true);
		resched_cpu(cpu);
	}
	wait_for_cpus(&stop.nr_arrived, n, "arrived");
	local_irq_save(flags);
	smp_store_release(&stop.state, STOP_DISABLE);
	wait_for_cpus(&stop.nr_disabled, n, "turned interrupts off");
	*ret = fn(arg);
	smp_store_release(&stop.state, STOP_EXIT);
	wait_for_cpus(&stop.nr_left, n, "left");
	smp_store_release(&stop.state, STOP_NONE);
	local_irq_restore(flags);
	preempt_enable();
	mutex_unlock(&stop_mutex);
	return 0;
}
