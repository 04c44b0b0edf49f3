/*
 * Expedited grace periods: instead of waiting for ticks, IPI every CPU
 * that may be inside a read-side section and have it report as soon as it
 * is not. The caller's own CPU is at a quiescent state (it may sleep), and
 * idle CPUs (even dynticks) are left alone: never woken for RCU.
 *
 * An IPI that lands outside a read-side section reports at once; one that
 * lands inside sets exp_need_qs and asks for a reschedule, so the
 * rcu_read_unlock() that ends the section (preempt_enable()) enters
 * __schedule(), whose rcu_note_context_switch() reports. A CPU entering
 * idle reports too (rcu_idle_enter()): that covers CPUs RCU still waits
 * on but that are no longer online, which get no IPI.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include <kernel/cpu.h>
#include <kernel/mutex.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <lib/stats.h>
#include "rcu.h"

static DEFINE_MUTEX(exp_mutex); /* one expedited GP at a time */
static DEFINE_SPINLOCK(exp_lock); /* guards exp_mask */
static struct cpumask exp_mask; /* CPUs the expedited GP waits for */
static struct completion exp_done;
static u64 exp_ns[RCU_STAT_SAMPLES], nr_exp_samples;

/* Racy peek; a CPU entering idle double-checks under exp_lock. */
bool rcu_exp_waits_on(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, &exp_mask);
}

void rcu_exp_report(unsigned int cpu)
{
	unsigned long flags;

	spin_lock_irqsave(&exp_lock, flags);
	if (cpumask_test_cpu(cpu, &exp_mask)) {
		cpumask_clear_cpu(cpu, &exp_mask);
		if (cpumask_empty(&exp_mask))
			complete(&exp_done);
	}
	spin_unlock_irqrestore(&exp_lock, flags);
}

/* IPI handler, IRQs off: see the design note above. */
static void rcu_exp_handler(void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (preempt_count() == HARDIRQ_OFFSET || current->idle) {
		rcu_exp_report(cpu);
		return;
	}
	this_rdp()->exp_need_qs = true;
	__atomic_fetch_or(&current->flags, 1UL << TIF_NEED_RESCHED,
			  __ATOMIC_RELAXED);
}

/* The CPUs to wait for: RCU's CPUs, minus the caller and idle ones. */
static void exp_select_cpus(struct cpumask *targets)
{
	unsigned long flags;
	unsigned int cpu;

	spin_lock_irqsave(&exp_lock, flags);
	cpumask_copy(&exp_mask, &rcu_state.cpus);
	cpumask_clear_cpu(smp_processor_id(), &exp_mask);
	smp_mb(); /* exp_mask before dynticks: paired with rcu_idle_enter() */
	for_each_cpu (cpu, &exp_mask)
		if (!(READ_ONCE(rcu_data[cpu].dynticks) & 1))
			cpumask_clear_cpu(cpu, &exp_mask);
	cpumask_copy(targets, &exp_mask);
	if (cpumask_empty(&exp_mask))
		complete(&exp_done);
	spin_unlock_irqrestore(&exp_lock, flags);
}

void synchronize_rcu_expedited(void)
{
	struct cpumask targets;
	u64 t0;

	BUG_ON_MSG(preempt_count() || irqs_disabled(),
		   "synchronize_rcu_expedited() in an atomic section");
	mutex_lock(&exp_mutex);
	t0 = ktime_get_ns();
	init_completion(&exp_done);
	preempt_disable(); /* the caller's CPU must not change under us */
	exp_select_cpus(&targets);
	preempt_enable();
	/* Not waiting for the handlers: exp_mask says who reported. */
	smp_call_function_many(&targets, rcu_exp_handler, NULL, false);
	wait_for_completion(&exp_done);
	rcu_record_sample(exp_ns, &nr_exp_samples, ktime_get_ns() - t0);
	mutex_unlock(&exp_mutex);
}

void rcu_exp_stats(u64 out[3], u64 *count)
{
	mutex_lock(&exp_mutex);
	ring_summary(exp_ns, RCU_STAT_SAMPLES, nr_exp_samples, out);
	*count = nr_exp_samples;
	mutex_unlock(&exp_mutex);
}
