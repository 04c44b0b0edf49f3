/*
 * The scheduler's hotplug steps: a CPU going down stops receiving threads
 * (its active bit); after a grace period, when no waker can still target
 * it, its queued threads move to active CPUs and its running one leaves
 * at the next switch (put_prev()); a CPU coming up is
 * made active again. Idle threads are made before a CPU starts and freed
 * once it is off.
 */
#define pr_fmt(fmt) "sched: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/errno.h>
#include "sched.h"

/*
 * A thread leaves at its next switch, which the resched IPI forces within
 * a tick. The drain runs after a grace period, so no waker that still saw
 * the active bit queues a thread after it: a thread that stays 2 s is a
 * bug, reported with its backtrace (a longer bound would only hide one).
 */
#define DRAIN_TIMEOUT_MS 2000
#define DRAIN_SPIN_US 2000

static DEFINE_CPU_ARRAY(struct task_struct *, idle_threads);
/* Its switch count when its last drain passed, for sched_report_stuck(). */
static DEFINE_CPU_ARRAY(u64, drained_switches);

int sched_cpu_activate(unsigned int cpu)
{
	set_cpu_active(cpu, true);
	return 0;
}

/* Move every queued thread off rq (whose CPU is no longer active). */
static void push_queued_tasks(struct rq *rq)
{
	LIST_HEAD(moving);
	struct task_struct *p, *n;
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	list_for_each_entry_safe (p, n, &rq->queue, run_list) {
		list_del_init(&p->run_list);
		WRITE_ONCE(rq->nr_queued, rq->nr_queued - 1);
		p->on_rq = false;
		p->migrate = true;
		list_add_tail(&p->run_list, &moving);
	}
	spin_unlock_irqrestore(&rq->lock, flags);
	list_for_each_entry_safe (p, n, &moving, run_list) {
		list_del_init(&p->run_list);
		p->migrate = false;
		migrate_task(p);
	}
}

static bool rq_drained(struct rq *rq)
{
	return READ_ONCE(rq->curr) == rq->idle && !READ_ONCE(rq->nr_queued);
}

bool sched_cpu_has_bound_threads(unsigned int cpu)
{
	return find_stranded_thread(cpu) != NULL;
}

int sched_cpu_deactivate(unsigned int cpu)
{
	struct task_struct *stuck = find_stranded_thread(cpu);

	if (stuck) {
		pr_err("CPU%u: thread '%s' (pid %d) can only run there: not "
		       "taking it down\n",
		       cpu, stuck->comm, stuck->pid);
		return -EBUSY;
	}
	set_cpu_active(cpu, false);
	/*
	 * The caller itself leaves now, before the drain: its grace-period
	 * wait in rcu:sync queues a callback on the CPU it runs on, and
	 * kthreads:park has parked that CPU's rcuc thread.
	 */
	if (raw_smp_processor_id() == cpu)
		yield();
	return 0;
}

static void backtrace_cpu(unsigned int cpu)
{
	struct cpumask one;

	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	smp_send_backtrace(&one);
}

/* What the CPU did since the drain began, for the report. */
struct drain_start {
	u64 switches, ticks, ipis;
	unsigned int max_queued;
	u64 longest_sleep_ns; /* the drain's own msleep(1)s, each loop */
	bool injected; /* fail.sched_drain: the queue is never seen empty */
};

/* fail.sched_drain=N: the next N drains time out, whatever the CPU runs. */
static const struct fault_field sched_drain_fields[] = {
	{"N", FAULT_TIMES, .min = 1, .max = 100}, {}};

static int sched_drain_armed(struct fault_point *fp)
{
	pr_warn("the next %ld drain(s) of a CPU going down will time out\n",
		fault_arg(fp, 0));
	return 0;
}
DEFINE_FAULT(sched_drain, sched_drain_fields, 1, 1, sched_drain_armed,
	     "the next N (1-100) drains of a CPU going down never see its run "
	     "queue empty: the report of a drain that timed out, and the down "
	     "rolled back");

/*
 * The report of a drain that timed out. Its run queue is read under the
 * lock __schedule() holds while it switches, so the running thread and
 * the time it has been running belong together; a lock not got within
 * 10 ms is itself news, and the fields are then read without it. Then
 * two backtraces of the CPU with the interrupts it took in between.
 */
static void drain_report(unsigned int cpu, struct rq *rq,
			 const struct drain_start *st)
{
	u64 end = ktime_get_ns() + 10000000ULL, since, switches;
	struct task_struct *curr;
	unsigned int queued;
	unsigned long flags;
	bool locked;

	local_irq_save(flags);
	while (!(locked = spin_trylock(&rq->lock)) && ktime_get_ns() < end)
		cpu_relax();
	curr = READ_ONCE(rq->curr);
	since = sched_curr_since_ns(cpu);
	switches = READ_ONCE(rq->nr_switches);
	queued = READ_ONCE(rq->nr_queued);
	if (locked)
		spin_unlock(&rq->lock);
	local_irq_restore(flags);
	pr_err("CPU%u: threads did not leave within %d ms (running %s, pid "
	       "%d, for %llu us, preempt_count %#x; %u queued, up to %u "
	       "meanwhile; %llu switches, %llu ticks and %llu resched IPIs "
	       "there meanwhile; the drain's longest msleep(1) %llu us%s%s)\n",
	       cpu, DRAIN_TIMEOUT_MS, curr->comm, curr->pid,
	       (unsigned long long)(ktime_get_ns() - since) / 1000,
	       READ_ONCE(curr->preempt_count), queued, st->max_queued,
	       (unsigned long long)(switches - st->switches),
	       (unsigned long long)(tick_count_cpu(cpu) - st->ticks),
	       (unsigned long long)(kstat_irqs_cpu(IPI_RESCHEDULE, cpu) -
				    st->ipis),
	       (unsigned long long)st->longest_sleep_ns / 1000,
	       locked ? ""
		      : "; its run-queue lock held for 10 ms, read without it",
	       st->injected ? "; injected" : "");
	backtrace_cpu(cpu);
	/* Still there, and taking what? A second sample. */
	irq_report_cpu_activity(cpu, 10);
	backtrace_cpu(cpu);
}

/* After rcu:sync: no waker still chooses cpu; move its threads off. */
int sched_cpu_drain(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	u64 deadline = ktime_get_ns() + DRAIN_TIMEOUT_MS * 1000000ULL, t0;
	/*
	 * For the report: was the CPU switching, ticking, taking resched
	 * IPIs meanwhile? Those counted in irq_desc: ipi_count() reads 0
	 * for a CPU no longer online, as this one is.
	 */
	struct drain_start st = {
		.switches = READ_ONCE(rq->nr_switches),
		.ticks = tick_count_cpu(cpu),
		.ipis = kstat_irqs_cpu(IPI_RESCHEDULE, cpu),
		.injected = should_fail(&fault_sched_drain),
	};

	/*
	 * Each loop takes cpu's run-queue lock and sends it an IPI, a
	 * handshake with a vCPU that a busy host may not run for a whole
	 * time slice: 100 such loops can take the whole 2 s (a drain report
	 * then says "the drain's longest msleep(1) 0 us"). So the fast
	 * phase is bounded by time, not by a count, and the deadline is
	 * a verdict only if the queue is still not drained then.
	 */
	u64 spin_end = ktime_get_ns() + DRAIN_SPIN_US * 1000ULL;

	while (st.injected || !rq_drained(rq)) {
		st.max_queued = max(st.max_queued, READ_ONCE(rq->nr_queued));
		push_queued_tasks(rq);
		resched_cpu(cpu); /* its running thread leaves at the switch */
		/* Usually done in microseconds: spin first, then sleep. */
		if (ktime_get_ns() < spin_end) {
			udelay(20);
			continue;
		}
		if (ktime_get_ns() > deadline &&
		    (st.injected || !rq_drained(rq))) {
			drain_report(cpu, rq, &st);
			return -ETIMEDOUT; /* sched:active's up undoes the bit */
		}
		t0 = ktime_get_ns();
		msleep(1);
		st.longest_sleep_ns =
			max(st.longest_sleep_ns, ktime_get_ns() - t0);
	}
	drained_switches[cpu] = READ_ONCE(rq->nr_switches);
	return 0;
}

/*
 * A drained CPU that never took its down request (__cpu_teardown()):
 * what does it run, and did that thread arrive after the drain (a
 * switch since)? Then its backtrace. Read without the lock: a report.
 */
void sched_report_stuck(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr = READ_ONCE(rq->curr);

	pr_err("CPU%u: runs %s (pid %d) for %llu us, preempt_count %#x; %u "
	       "queued and %llu switches since its drain\n",
	       cpu, curr->comm, curr->pid,
	       (unsigned long long)(ktime_get_ns() - sched_curr_since_ns(cpu)) /
		       1000,
	       READ_ONCE(curr->preempt_count), READ_ONCE(rq->nr_queued),
	       (unsigned long long)(READ_ONCE(rq->nr_switches) -
				    drained_switches[cpu]));
	backtrace_cpu(cpu);
}

/*
 * Before cpu starts: its idle thread. Made at its first up and kept
 * across downs, as Linux keeps idle threads: freeing the stack unmaps it,
 * and that TLB invalidation, broadcast to every CPU, was the largest part
 * of a down (80-140 us on QEMU, where each vCPU must stop to take it).
 * What readers of the online mask may hold, the per-CPU area, is still
 * freed. A kept thread starts afresh: head.S puts its stack pointer at
 * the top, sched_init_cpu() makes it the CPU's current again.
 */
int idle_thread_prepare(unsigned int cpu)
{
	struct task_struct *idle = idle_threads[cpu];

	if (!idle)
		idle = idle_threads[cpu] = fork_idle(cpu);
	if (!idle)
		return -ENOMEM;
	idle->preempt_count = 0; /* as fork_idle() left it */
	idle->flags = 0;
	idle->state = TASK_RUNNING;
	return 0;
}

struct task_struct *idle_thread_get(unsigned int cpu)
{
	return idle_threads[cpu];
}

/* After cpu is off: its idle thread no longer runs (kept for its next up). */
int idle_thread_release(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	WRITE_ONCE(rq->curr, NULL); /* nothing runs there any more */
	rq->idle = NULL;
	spin_unlock_irqrestore(&rq->lock, flags);
	if (idle_threads[cpu])
		WRITE_ONCE(idle_threads[cpu]->on_cpu, false);
	return 0;
}

/* The boot CPU's idle thread is init_task (its stack, the boot stack). */
void idle_thread_set_boot(struct task_struct *idle)
{
	idle_threads[smp_processor_id()] = idle;
}
