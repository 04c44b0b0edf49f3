/*
 * Expedited grace periods: instead of waiting for ticks, IPI every CPU
 * that may be inside a read-side section and have it report as soon as it
 * is not. The caller's own CPU is at a quiescent state (it may sleep), and
 * idle CPUs (even dynticks) are left alone: never woken for RCU.
 *
 * An IPI that lands outside a read-side section reports at once; one that
 * lands inside sets exp_need_qs and asks for a reschedule, so the
 * rcu_read_unlock() that ends the section (preempt_enable()) enters
 * __schedule(), whose rcu_note_context_switch() reports.
 *
 * The IPI is only the fast path. Any CPU in exp_mask also reports at its
 * own next quiescent state whether or not an IPI reached it: a tick that
 * finds preempt_count zero, a context switch, entering idle (tree.c); a
 * tick inside a section asks for the switch, as the IPI does. That covers
 * the CPUs RCU still waits on but that are no longer online, which get no
 * IPI (their running thread is told to reschedule), and any IPI that goes
 * missing. Preemption stays off
 * from the choice of targets to the last IPI sent, so the caller cannot
 * move onto a CPU it has just chosen (and so not IPI itself there); a
 * CPU for which no IPI request could be allocated is called again with
 * one on the stack.
 *
 * fail.rcu_exp= (or a test) injects what this guards against: the caller
 * moved onto a chosen CPU at its first preemption point after the choice
 * (migrate), one chosen CPU never sent its IPI (miss_ipi), the first IPI
 * request failing to allocate (no_csd). fail.rcu_exp_hold= widens the
 * gap between the choice and the IPIs until a chosen CPU that was going
 * down is all the way off: its run queue then has no current thread,
 * which resched_cpu() must leave alone.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/mutex.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/trace.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <lib/stats.h>
#include <string.h>
#include "rcu.h"

/*
 * The caller spins this long for the reports before it sleeps. An
 * expedited GP with every target answering takes tens of microseconds;
 * sleeping for it put the caller's CPU into an idle state and back (a
 * PSCI CPU_SUSPEND on virt), which cost as much again (in a down's
 * rcu:sync step). The spin ends early when another thread wants
 * the CPU.
 */
#define EXP_SPIN_US 100

static DEFINE_MUTEX(exp_mutex); /* one expedited GP at a time */
static DEFINE_SPINLOCK(exp_lock); /* guards exp_mask */
static struct cpumask exp_mask; /* CPUs the expedited GP waits for */
static struct completion exp_done;
/*
 * The figures of the last expedited GPs, under their own spinlock, not
 * exp_mutex: rcu_get_stats() may be called inside a read-side section,
 * which must not sleep, least of all on the mutex of an expedited GP
 * that waits for that very reader.
 */
static DEFINE_SPINLOCK(exp_stats_lock);
static u64 exp_ns[RCU_STAT_SAMPLES], nr_exp_samples;
static u64 exp_seq; /* expedited GPs started, for the trace; exp_mutex */

/* Faults of fail.rcu_exp (arg[0]), met between the choice and the IPIs. */
#define EXP_FAULT_MIGRATE (1U << 0)
#define EXP_FAULT_MISS_IPI (1U << 1)
#define EXP_FAULT_NO_CSD (1U << 2)

static const char *const exp_fault_words[] = {"migrate", "miss_ipi", "no_csd",
					      NULL};
static const struct fault_field rcu_exp_fields[] = {
	{"WORD", FAULT_WORD, .words = exp_fault_words}, {}};
static unsigned int exp_faults; /* EXP_FAULT_*, from the words */

static int rcu_exp_armed(struct fault_point *fp)
{
	unsigned int faults = 0;
	char words[40];
	size_t n = 0;

	words[0] = '\0';
	for (unsigned int i = 0; i < fp->nr_items; i++) {
		faults |= 1U << fault_item_arg(fp, i, 0);
		n += scnprintf(words + n, sizeof(words) - n, "%s%s",
			       i ? "," : "",
			       exp_fault_words[fault_item_arg(fp, i, 0)]);
	}
	WRITE_ONCE(exp_faults, faults);
	pr_warn("fail.rcu_exp=%s: every expedited grace period meets it\n",
		words);
	return 0;
}
DEFINE_FAULT(rcu_exp, rcu_exp_fields, 3, FAULT_FOREVER, rcu_exp_armed,
	     "every expedited grace period meets each WORD: migrate (the "
	     "caller moves onto a CPU it waits for), miss_ipi (one CPU gets "
	     "no IPI), no_csd (the first IPI request fails to allocate)");

/*
 * fail.rcu_exp_hold=CPU:MS: an expedited GP that chose CPU while it was
 * no longer online (its down under way) waits, preemption off, between
 * the choice and the IPIs, until that down has ended or MS ms passed:
 * the CPU goes all the way down inside that window, on purpose.
 */
static const struct fault_field rcu_exp_hold_fields[] = {
	FAULT_FIELD_CPU, {"MS", FAULT_NUM, .min = 1, .max = 60000}, {}};
DEFINE_FAULT(rcu_exp_hold, rcu_exp_hold_fields, 1, 1, NULL,
	     "the next expedited grace period that chooses CPU while it goes "
	     "down waits, before its IPIs, until that down has ended (at most "
	     "MS ms, 1-60000); once");

static void exp_hold(const struct cpumask *targets)
{
	unsigned int cpu = fault_arg(&fault_rcu_exp_hold, 0);
	u64 end;

	if (!cpumask_test_cpu(cpu, targets) || cpu_online(cpu) ||
	    !should_fail(&fault_rcu_exp_hold))
		return;
	end = ktime_get_ns() + fault_arg(&fault_rcu_exp_hold, 1) * 1000000ULL;
	while (cpuhp_phase(cpu) == CPUHP_PHASE_GOING_DOWN &&
	       ktime_get_ns() < end)
		cpu_relax();
}

/* Racy peek; the report double-checks under exp_lock. */
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
		trace_rcu_exp(TRACE_RCU_EXP_QS, cpu, 0, exp_seq, 0);
		if (cpumask_empty(&exp_mask))
			complete(&exp_done);
	}
	spin_unlock_irqrestore(&exp_lock, flags);
}

/* IPI handler, IRQs off: see the design note above. */
static void rcu_exp_handler(void *unused)
{
	unsigned int cpu = smp_processor_id();

	bool quiet = preempt_count() == HARDIRQ_OFFSET;

	trace_rcu_exp(TRACE_RCU_EXP_IPI, TRACE_NO_CPU, quiet, exp_seq, 0);
	if (quiet) {
		rcu_exp_report(cpu);
		return;
	}
	rcu_urge_qs(this_rdp(), true);
}

/*
 * The CPUs to wait for: RCU's CPUs, minus the caller and idle ones.
 *
 * rcu_state.cpus is read under rcu_state.lock, the lock its writers
 * (rcu_cpu_starting(), rcu_report_dead()) hold: the critical sections
 * are then ordered one way or the other. If the arriving CPU's comes
 * first, this copy sees its bit; if this one comes first, the CPU's
 * lock acquisition comes after this unlock, and so after the caller's
 * updates, which its readers then see. Likewise a dying CPU's last
 * reader precedes the unlock that clears its bit. exp_lock alone orders
 * nothing with those writers (tools/model/exp_cpus.pml). Lock order:
 * exp_lock, then rcu_state.lock.
 */
static void exp_select_cpus(struct cpumask *targets)
{
	unsigned long flags;
	unsigned int cpu;

	spin_lock_irqsave(&exp_lock, flags);
	spin_lock(&rcu_state.lock);
	cpumask_copy(&exp_mask, &rcu_state.cpus);
	spin_unlock(&rcu_state.lock);
	cpumask_clear_cpu(smp_processor_id(), &exp_mask);
	smp_mb(); /* exp_mask before dynticks: paired with rcu_idle_enter() */
	for_each_cpu (cpu, &exp_mask)
		if (!(READ_ONCE(rcu_data[cpu].dynticks) & 1))
			cpumask_clear_cpu(cpu, &exp_mask);
	cpumask_copy(targets, &exp_mask);
	/* Under exp_lock: before any report of this GP is traced. */
	trace_rcu_exp(TRACE_RCU_EXP_START, TRACE_NO_CPU, 0, exp_seq,
		      cpumask_bits(targets)[0]);
	if (cpumask_empty(&exp_mask))
		complete(&exp_done);
	spin_unlock_irqrestore(&exp_lock, flags);
}

/*
 * Injected faults between the choice and the IPIs. Preemption is off:
 * a migration asked for here happens at the caller's next preempt_enable().
 */
static void exp_inject(unsigned int fault, struct cpumask *targets,
		       struct cpumask *saved)
{
	unsigned int cpu = cpumask_first(targets);

	if (cpu >= nr_cpu_ids)
		return;
	if (fault & EXP_FAULT_MIGRATE) {
		struct cpumask to;

		cpumask_copy(saved, &current->cpus_allowed);
		cpumask_clear(&to);
		cpumask_set_cpu(cpu, &to);
		set_cpus_allowed(current, &to);
	}
	if (fault & EXP_FAULT_MISS_IPI)
		cpumask_clear_cpu(cpu, targets);
	if (fault & EXP_FAULT_NO_CSD)
		current->fail_nth = 1;
}

/*
 * IPI each target; none is lost for want of memory. A target no longer
 * online (going down, RCU still waits on it) gets no call: its running
 * thread is asked to reschedule instead, whose next preempt_enable()
 * switches and reports, or whose tick does. One that reported already
 * (it may be off by now) is left alone. Preemption off.
 */
static void exp_send_ipis(const struct cpumask *targets)
{
	struct cpumask missed;
	unsigned int cpu;

	for_each_cpu (cpu, targets)
		if (!cpu_online(cpu) && rcu_exp_waits_on(cpu))
			resched_cpu(cpu);
	if (!smp_call_function_many(targets, rcu_exp_handler, NULL, false,
				    &missed))
		return;
	/* With wait the request lives on the stack: nothing to allocate. */
	for_each_cpu (cpu, &missed)
		smp_call_function_single(cpu, rcu_exp_handler, NULL, true);
}

void synchronize_rcu_expedited(void)
{
	struct cpumask targets, saved;
	unsigned long flags;
	unsigned int fault;
	u64 t0;

	BUG_ON_MSG(preempt_count() || irqs_disabled(),
		   "synchronize_rcu_expedited() in an atomic section");
	mutex_lock(&exp_mutex);
	fault = should_fail(&fault_rcu_exp) ? READ_ONCE(exp_faults) : 0;
	t0 = ktime_get_ns();
	exp_seq++;
	init_completion(&exp_done);
	/* Completed by the last CPU's quiescent state, from a context
	 * switch, tick or IPI: not by a thread that holds something. */
	lockdep_cpu_event(&exp_done.dep_map);
	cpumask_clear(&saved);
	/* The caller's CPU, left out of the targets, must stay its CPU
	 * until every target has its IPI: see the design note. */
	preempt_disable();
	exp_select_cpus(&targets);
	if (unlikely(fault))
		exp_inject(fault, &targets, &saved);
	if (unlikely(fault_armed(&fault_rcu_exp_hold)))
		exp_hold(&targets);
	exp_send_ipis(&targets);
	if (unlikely(fault & EXP_FAULT_NO_CSD))
		current->fail_nth = 0; /* if no request used it up */
	preempt_enable();
	/* Not waiting for the handlers: exp_mask says who reported. */
	wait_for_completion_spin(&exp_done, EXP_SPIN_US);
	trace_rcu_exp(TRACE_RCU_EXP_END, TRACE_NO_CPU, 0, exp_seq, 0);
	if (unlikely(!cpumask_empty(&saved)))
		set_cpus_allowed(current, &saved);
	spin_lock_irqsave(&exp_stats_lock, flags);
	rcu_record_sample(exp_ns, &nr_exp_samples, ktime_get_ns() - t0);
	spin_unlock_irqrestore(&exp_stats_lock, flags);
	mutex_unlock(&exp_mutex);
}

void rcu_exp_stats(u64 out[3], u64 *count)
{
	unsigned long flags;

	spin_lock_irqsave(&exp_stats_lock, flags);
	ring_summary(exp_ns, RCU_STAT_SAMPLES, nr_exp_samples, out);
	*count = nr_exp_samples;
	spin_unlock_irqrestore(&exp_stats_lock, flags);
}
