/*
 * The idle loop each CPU runs when it has nothing else, and idle load
 * balancing: an idle CPU pulls a waiting thread from the busiest queue
 * (in pack mode only from a full one: find_busiest_pack(), pack.c).
 */
#include <asm/barrier.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/cpuidle.h>
#include <kernel/fault.h>
#include <kernel/rcupdate.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/printf.h>
#include "sched.h"

/* A queued thread of src that may run on dst->cpu, or NULL. */
static struct task_struct *find_movable(struct rq *src, struct rq *dst)
{
	struct task_struct *p;

	list_for_each_entry (p, &src->queue, run_list)
		if (cpumask_test_cpu(dst->cpu, &p->cpus_allowed))
			return p;
	return NULL;
}

static struct rq *find_busiest(struct rq *me)
{
	struct rq *busiest = NULL;
	unsigned int cpu, most = 0;

	if (sched_packing())
		return find_busiest_pack(me);
	for_each_cpu (cpu, cpu_active_mask) {
		struct rq *rq = cpu_rq(cpu);
		unsigned int queued = READ_ONCE(rq->nr_queued);

		if (rq != me && queued > most) {
			busiest = rq;
			most = queued;
		}
	}
	return busiest;
}

/* fail.idle_pull_delay=CPU: the race of an idle pull with a down. */
static const struct fault_field idle_pull_fields[] = {FAULT_FIELD_CPU, {}};
DEFINE_FAULT(idle_pull_delay, idle_pull_fields, 1, 1, NULL,
	     "CPU's idle thread, in idle_balance() after it found CPU active "
	     "and a queue to pull from, waits (IRQs on) until CPU is told to "
	     "die, or 2 s, before it takes the run-queue locks; once");

void sched_delay_idle_pull(int cpu)
{
	char val[16];

	if (cpu < 0) {
		fault_clear("idle_pull_delay");
		return;
	}
	snprintf(val, sizeof(val), "%d", cpu);
	fault_inject("idle_pull_delay", val);
	resched_cpu(cpu); /* out of a tickless WFI, into idle_balance() */
}

bool sched_delay_idle_pull_pending(void)
{
	return fault_armed(&fault_idle_pull_delay);
}

/*
 * The hook's wait, IRQs on and preempt_count zero, as the idle loop runs:
 * its ticks report quiescent states, so the grace period of rcu:sync ends
 * and the drain passes under it. The bound keeps a test gone wrong from
 * hanging.
 */
static void delay_idle_pull(void)
{
	u64 end = ktime_get_ns() + 2000000000ULL;

	while (!cpu_should_die() && ktime_get_ns() < end)
		cpu_relax();
}

/* Pull one waiting thread to this idle CPU; true if one came. */
bool idle_balance(struct rq *me)
{
	struct rq *busiest = find_busiest(me);
	struct task_struct *p = NULL;
	unsigned long flags;
	bool moved = false;

	if (!busiest || !cpu_active(me->cpu))
		return false;
	if (unlikely(fault_armed(&fault_idle_pull_delay)) &&
	    fault_arg(&fault_idle_pull_delay, 0) == (long)me->cpu &&
	    should_fail(&fault_idle_pull_delay))
		delay_idle_pull();
	/*
	 * Try the busiest queue's lock, never wait for it: every idle CPU
	 * that wakes picks the same busiest queue, and at 512 vCPUs they
	 * queued on its ticket lock with IRQs off, each waiting for the host
	 * to run the vCPU ahead of it, for seconds, while the queue's own
	 * CPU waited in its tick (an RCU stall). One that holds the lock is
	 * already pulling from or running that queue.
	 */
	local_irq_save(flags);
	spin_lock(&me->lock);
	if (!spin_trylock(&busiest->lock)) {
		spin_unlock(&me->lock);
		local_irq_restore(flags);
		return false;
	}
	/*
	 * Again under the lock (Linux checks cpu_active() in
	 * can_migrate_task() under both run-queue locks): the check above is
	 * no read-side section, since a tick in the idle loop at
	 * preempt_count zero reports a quiescent state. A CPU that loses its
	 * active bit in between could otherwise pull a thread after
	 * rcu:sync and sched:drain, with nothing left to move it off. With
	 * IRQs off from here to the enqueue, rcu:sync waits for this section
	 * or it sees the bit clear.
	 */
	if (cpu_active(me->cpu))
		p = find_movable(busiest, me);
	if (p) {
		move_queued_task(busiest, me, p);
		moved = true;
	}
	double_rq_unlock(me, busiest);
	local_irq_restore(flags);
	return moved;
}

/*
 * Sleep in WFI with interrupts masked: a pending interrupt still wakes
 * the CPU, and it is taken once they are unmasked, after the check of
 * need_resched() that it might have changed.
 */
static void cpu_do_idle(void)
{
	local_irq_disable();
	/* With IRQs off: a wake-up IPI from now on stays pending for WFI. */
	if (!need_resched() && !cpu_should_die()) {
		rcu_idle_enter();
		/*
		 * Its quiescent-state report may have ended an expedited GP
		 * and woken the caller onto this CPU: that only set the
		 * flag (no IPI to itself), and a tickless WFI would sleep
		 * on it until some other interrupt.
		 */
		if (!need_resched()) {
			tick_nohz_idle_enter();
			cpuidle_idle_call(); /* WFI, or a deeper state */
			tick_nohz_idle_exit();
		}
		rcu_idle_exit();
	}
	local_irq_enable();
	cpuidle_idle_exit_report();
}

/*
 * Asked to go down: give up hosting the tick broadcast first. The writer
 * waiting for this CPU's answer sleeps through its timeout, maybe in an
 * idle state whose timer stops; were this CPU its broadcast host, a stall
 * here with interrupts off (a vCPU its host does not run) would hold that
 * timeout back until the stall ended, and the writer could never withdraw
 * the request in time. hotplug_die_timeout_withdrawn shows it.
 */
static void cpu_idle_dead(void)
{
	local_irq_disable();
	tick_broadcast_offline(smp_processor_id());
	local_irq_enable();
	arch_cpu_idle_dead();
}

void cpu_startup_entry(void)
{
	struct rq *rq = this_rq();

	for (;;) {
		while (!need_resched() && !idle_balance(rq)) {
			if (unlikely(cpu_should_die()))
				cpu_idle_dead(); /* hotplug: going down */
			cpu_do_idle();
		}
		schedule();
	}
}
