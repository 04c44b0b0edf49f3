/*
 * The scheduler core: per-CPU run queues, picking the next thread (least
 * CPU time used first), the context switch, wake-ups, preemption at the
 * tick, and CPU affinity.
 *
 * Wake-up protocol (as Linux's try_to_wake_up()): the waker holds the
 * thread's pi_lock; if the thread is still on a run queue (it set its
 * state but has not switched out yet), setting TASK_RUNNING under that
 * queue's lock is enough, because __schedule() reads the state under the
 * same lock. Otherwise the waker waits for on_cpu to drop (the switch
 * away has saved its registers), chooses a CPU and queues it there.
 *
 * Where it goes depends on the mode (kernel/sched/pack.c): spread, the
 * default, here; pack, by select_task_rq_pack().
 */
#define pr_fmt(fmt) "sched: " fmt
#include <asm/barrier.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/fault.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/smp.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
#include <kernel/trace.h>
#include <lib/printf.h>
#include "sched.h"

#define SCHED_SLICE_NS (4 * 1000 * 1000ULL)
#define WAKEUP_GRAN_NS (1 * 1000 * 1000ULL)
/*
 * A woken thread is placed this much below the queue's minimum CPU time
 * (Linux's sleeper credit, half of its 6 ms latency target there): more
 * than WAKEUP_GRAN_NS, so it preempts a CPU-bound thread at once instead
 * of at the next tick and slice end (up to 10 ms at HZ=100). Without it,
 * a thread that sleeps often, as cpu_down() does waiting for a grace
 * period, lost a tick per sleep to a busy CPU's thread: in the trace of
 * a hotplug cycle with a reader beside the writer, 5 ms of its 10 passed
 * between the grace period's end and the writer running.
 */
#define SLEEPER_CREDIT_NS (SCHED_SLICE_NS / 2)

DEFINE_CPU_ARRAY(struct rq, runqueues);

/*
 * When the running thread's slice began (rq clock): read and written only
 * by its own CPU, in __schedule() and the tick, with IRQs off. Not part of
 * the run queue, which outlives the CPU: it lives in the per-CPU area and
 * dies with it; init_rq() sets it afresh when the CPU comes back.
 */
static DEFINE_PER_CPU(u64, slice_start_ns);

/* When cpu switched to its current thread (rq clock); cpu not yet dead. */
u64 sched_curr_since_ns(unsigned int cpu)
{
	return READ_ONCE(*per_cpu_ptr(&slice_start_ns, cpu));
}

struct task_struct *cpu_switch_to(struct task_struct *prev,
				  struct task_struct *next);

static void clear_need_resched(struct task_struct *p)
{
	__atomic_fetch_and(&p->flags, ~(1UL << TIF_NEED_RESCHED),
			   __ATOMIC_RELAXED);
}

/* Make rq's CPU reschedule soon. Caller holds rq->lock. */
static void resched_curr(struct rq *rq)
{
	lockdep_assert_held(&rq->lock);
	set_tsk_need_resched(rq->curr);
	if (rq->cpu != smp_processor_id())
		smp_send_reschedule(rq->cpu);
}

/*
 * Make cpu reschedule soon, if a thread runs there at all. Linux checks
 * cpu_online() here; this kernel clears the online bit first in a down,
 * and the drain and an expedited grace period still reschedule the CPU
 * after that. A CPU whose down has passed sched:idle has no current
 * thread (idle_thread_release(), under rq->lock): nothing to do.
 */
void resched_cpu(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	if (rq->curr)
		resched_curr(rq);
	spin_unlock_irqrestore(&rq->lock, flags);
}

static unsigned int rq_nr_running(struct rq *rq)
{
	return rq->nr_queued + (rq->curr != rq->idle);
}

/*
 * Add nr_running x the time since the last change to the depth integral.
 * Called before nr_queued or curr changes (and at the tick), so each
 * interval is charged the depth it really had. Caller holds rq->lock.
 */
static void update_depth(struct rq *rq, u64 now)
{
	lockdep_assert_held(&rq->lock);
	rq->depth_ns += rq_nr_running(rq) * (now - rq->depth_stamp_ns);
	rq->depth_stamp_ns = now;
}

/* Charge the time since the last update to curr. Caller holds rq->lock. */
void update_curr(struct rq *rq)
{
	u64 now = ktime_get_ns(), delta = now - rq->clock_ns;
	struct task_struct *curr = rq->curr;

	lockdep_assert_held(&rq->lock);
	update_depth(rq, now);
	rq->util_avg = util_project(rq->util_avg, curr != rq->idle, delta);
	rq->clock_ns = now;
	if (curr == rq->idle) {
		rq->idle_ns += delta;
		return;
	}
	rq->busy_ns += delta;
	rq->opp_busy_ns[rq->opp] += delta;
	curr->sum_exec_ns += delta;
	curr->vruntime_ns += delta;
	if (!rq->nr_queued) /* alone: the queue's minimum moves with it */
		rq->min_vruntime = max(rq->min_vruntime, curr->vruntime_ns);
}

/* The lowest CPU time a thread may be queued with on rq. */
static u64 vruntime_floor(struct rq *rq)
{
	return rq->min_vruntime > SLEEPER_CREDIT_NS
		       ? rq->min_vruntime - SLEEPER_CREDIT_NS
		       : 0;
}

static void enqueue(struct rq *rq, struct task_struct *p)
{
	/* A thread that slept long must not monopolise the CPU on return. */
	if (p->vruntime_ns < vruntime_floor(rq))
		p->vruntime_ns = vruntime_floor(rq);
	update_depth(rq, ktime_get_ns());
	list_add_tail(&p->run_list, &rq->queue);
	WRITE_ONCE(rq->nr_queued, rq->nr_queued + 1);
	p->on_rq = true;
}

static void dequeue(struct rq *rq, struct task_struct *p)
{
	update_depth(rq, ktime_get_ns());
	list_del_init(&p->run_list);
	WRITE_ONCE(rq->nr_queued, rq->nr_queued - 1);
}

/* The queued thread with the least CPU time, taken off the queue. */
static struct task_struct *pick_next(struct rq *rq)
{
	struct task_struct *p, *best = NULL;

	list_for_each_entry (p, &rq->queue, run_list)
		if (!best || p->vruntime_ns < best->vruntime_ns)
			best = p;
	if (!best)
		return rq->idle;
	dequeue(rq, best);
	rq->min_vruntime = max(rq->min_vruntime, best->vruntime_ns);
	return best;
}

void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a->cpu < b->cpu) {
		spin_lock(&a->lock);
		spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);
	} else {
		spin_lock(&b->lock);
		spin_lock_nested(&a->lock, SINGLE_DEPTH_NESTING);
	}
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	spin_unlock(&a->lock);
	if (a != b)
		spin_unlock(&b->lock);
}

void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	dequeue(src, p);
	p->vruntime_ns = p->vruntime_ns -
			 min(p->vruntime_ns, src->min_vruntime) +
			 dst->min_vruntime;
	p->cpu = dst->cpu;
	p->nr_migrations++;
	enqueue(dst, p);
	if (dst->curr == dst->idle)
		resched_curr(dst);
}

/*
 * The least loaded CPU p may run on, preferring its last CPU on a tie
 * (spread); in pack mode the first one not full (select_task_rq_pack()).
 * Either way one of p's allowed CPUs that is active. Loads are read
 * without locks: a placement hint, not a promise.
 */
static unsigned int select_task_rq(struct task_struct *p)
{
	unsigned int cpu, best = nr_cpu_ids, best_load = ~0U;
	struct cpumask allowed;

	cpumask_and(&allowed, &p->cpus_allowed, cpu_active_mask);
	if (cpumask_empty(&allowed)) /* its CPUs all went away */
		cpumask_copy(&allowed, cpu_active_mask);
	if (sched_packing())
		return select_task_rq_pack(&allowed);
	if (cpumask_test_cpu(p->cpu, &allowed)) {
		best = p->cpu;
		best_load =
			READ_ONCE(cpu_rq(best)->nr_queued) +
			(READ_ONCE(cpu_rq(best)->curr) != cpu_rq(best)->idle);
	}
	for_each_cpu (cpu, &allowed) {
		struct rq *rq = cpu_rq(cpu);
		unsigned int load = READ_ONCE(rq->nr_queued) +
				    (READ_ONCE(rq->curr) != rq->idle);

		if (load < best_load) {
			best = cpu;
			best_load = load;
		}
	}
	return best;
}

/*
 * fail.wakeup_delay=CPU: the next wake-up that queues a thread on CPU
 * (by delay_waker, when a test names one) waits until CPU is inactive.
 */
static const struct fault_field wakeup_delay_fields[] = {FAULT_FIELD_CPU, {}};
DEFINE_FAULT(wakeup_delay, wakeup_delay_fields, 1, 1, NULL,
	     "the next wake-up that queues a thread on CPU first waits, IRQs "
	     "off, until CPU is no longer active, and 20 ms more (at most "
	     "1 s): one that chose CPU before its active bit cleared lands "
	     "after that");
static struct task_struct *delay_waker;

void sched_delay_wakeup_onto(struct task_struct *waker, unsigned int cpu)
{
	char val[16];

	if (!waker) {
		fault_clear("wakeup_delay");
		return;
	}
	WRITE_ONCE(delay_waker, waker);
	snprintf(val, sizeof(val), "%u", cpu);
	fault_inject("wakeup_delay", val);
}

bool sched_delay_wakeup_pending(void)
{
	return fault_armed(&fault_wakeup_delay);
}

/* The hook's wait; the bound keeps a test that went wrong from hanging. */
static void delay_wakeup(unsigned int cpu)
{
	u64 end = ktime_get_ns() + 1000000000ULL;

	while (cpu_active(cpu) && ktime_get_ns() < end)
		cpu_relax();
	udelay(20000);
}

/* Queue a thread that is on no run queue onto a CPU it may use. */
static void activate_task(struct task_struct *p)
{
	unsigned int cpu = select_task_rq(p);
	struct rq *rq;
	struct task_struct *curr;

	/* Plain loads on this hot path: the point is armed before the
	 * waker is woken, and the wake-up orders it. */
	if (unlikely(fault_armed(&fault_wakeup_delay)) &&
	    fault_arg(&fault_wakeup_delay, 0) == (long)cpu &&
	    (!READ_ONCE(delay_waker) || READ_ONCE(delay_waker) == current) &&
	    should_fail(&fault_wakeup_delay))
		delay_wakeup(cpu);
	rq = cpu_rq(cpu);

	spin_lock(&rq->lock);
	if (p->cpu != (int)cpu)
		p->nr_migrations++;
	p->cpu = cpu;
	WRITE_ONCE(p->state, TASK_RUNNING);
	/*
	 * A thread that was not queued anywhere starts from this queue's
	 * minimum, less the sleeper credit: CPU time counts differ between
	 * CPUs, so a thread coming from a busier one would otherwise wait
	 * for the others to catch up.
	 */
	p->vruntime_ns = vruntime_floor(rq);
	enqueue(rq, p);
	curr = rq->curr;
	if (curr == rq->idle) {
		resched_curr(rq);
	} else if (p->vruntime_ns + WAKEUP_GRAN_NS < curr->vruntime_ns) {
		rq->nr_wakeup_preempts++;
		resched_curr(rq);
	}
	spin_unlock(&rq->lock);
}

/* Move a runnable thread that is on no queue to a CPU it may use. */
void migrate_task(struct task_struct *p)
{
	unsigned long flags;

	spin_lock_irqsave(&p->pi_lock, flags);
	/* A wake-up (a queued thread may be asleep-to-be) may have won. */
	if (!READ_ONCE(p->on_rq))
		activate_task(p);
	spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* Lock the run queue p is on (it may move while we wait). */
static struct rq *task_rq_lock(struct task_struct *p)
{
	for (;;) {
		struct rq *rq = cpu_rq(READ_ONCE(p->cpu));

		spin_lock(&rq->lock);
		if (rq->cpu == (unsigned int)READ_ONCE(p->cpu))
			return rq;
		spin_unlock(&rq->lock);
	}
}

static int try_to_wake_up(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	int woken = 0;

	spin_lock_irqsave(&p->pi_lock, flags);
	if (READ_ONCE(p->state) == TASK_RUNNING)
		goto out;
	woken = 1;
	rq = task_rq_lock(p);
	if (p->on_rq) { /* has not switched out yet: let it run on */
		WRITE_ONCE(p->state, TASK_RUNNING);
		spin_unlock(&rq->lock);
		goto out;
	}
	spin_unlock(&rq->lock);
	/* Paired with the store-release in finish_task_switch(). */
	while (smp_load_acquire(&p->on_cpu))
		cpu_relax();
	activate_task(p);
out:
	spin_unlock_irqrestore(&p->pi_lock, flags);
	return woken;
}

bool task_asleep_locked(struct task_struct *p)
{
	struct rq *rq = task_rq_lock(p);
	bool asleep = !p->on_rq && READ_ONCE(p->state) != TASK_RUNNING;

	spin_unlock(&rq->lock);
	return asleep;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p);
}

static void check_stack(struct task_struct *p)
{
	BUG_ON_MSG(p->stack && *(u64 *)p->stack != STACK_END_MAGIC,
		   "stack overflow in thread %s (pid %d)", p->comm, p->pid);
}

/*
 * Put prev back (or not) after it stopped running. A runnable thread that
 * may no longer run here is left off every queue and moved by
 * finish_task_switch() once its registers are saved.
 */
static void put_prev(struct rq *rq, struct task_struct *prev, bool preempt)
{
	if (prev == rq->idle)
		return;
	if (!preempt && READ_ONCE(prev->state) != TASK_RUNNING) {
		prev->on_rq = false;
		return;
	}
	if (!cpumask_test_cpu(rq->cpu, &prev->cpus_allowed) ||
	    !cpu_active(rq->cpu)) {
		prev->on_rq = false;
		prev->migrate = true;
		return;
	}
	enqueue(rq, prev);
}

/*
 * A stop_machine() request that came after the hook in __schedule() had
 * its need-resched flag cleared with prev's: set it on the thread that
 * runs now, so its next scheduling point joins.
 */
static void stop_machine_recheck(void)
{
	if (unlikely(stop_machine_pending()))
		set_tsk_need_resched(current);
}

void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = this_rq();
	bool dead = READ_ONCE(prev->state) == TASK_DEAD;
	bool migrate = prev->migrate;

	prev->migrate = false;
	/* prev's registers are saved: others may now run it. */
	smp_store_release(&prev->on_cpu, false);
	lockdep_switch_in(&rq->lock.dep_map); /* taken by prev */
	spin_unlock(&rq->lock);
	local_irq_enable();
	if (dead)
		release_task(prev);
	else if (migrate)
		migrate_task(prev);
	stop_machine_recheck();
}

/*
 * Every caller of __schedule() disabled preemption exactly once: any more
 * is a read-side section, a spinlock or an interrupt handler, which a
 * context switch would end behind its back. Checked here, before the
 * switch is reported to RCU as a quiescent state (Linux's
 * __schedule_bug()); here it is fatal, not a warning.
 */
static void schedule_debug(struct task_struct *prev)
{
	unsigned int pc = preempt_count();

	BUG_ON_MSG(pc != PREEMPT_OFFSET,
		   "scheduling while atomic: %s/%d/%#010x", prev->comm,
		   prev->pid, pc - PREEMPT_OFFSET);
}

static void __schedule(bool preempt)
{
	struct task_struct *prev, *next;
	struct rq *rq;

	schedule_debug(current);

	/* A scheduling point is outside any preempt-disabled section: where
	 * a CPU joins a stop_machine() (kernel/stop_machine.c). */
	if (unlikely(stop_machine_pending()))
		stop_machine_join();
	/* Before the run-queue lock: an expedited report may wake a thread. */
	rcu_note_context_switch();
	local_irq_disable();
	rq = this_rq();
	spin_lock(&rq->lock);
	prev = rq->curr;
	check_stack(prev);
	update_curr(rq);
	clear_need_resched(prev);
	put_prev(rq, prev, preempt);
	next = pick_next(rq);
	if (next == prev) {
		spin_unlock(&rq->lock);
		local_irq_enable();
		stop_machine_recheck();
		return;
	}
	WRITE_ONCE(rq->curr, next);
	this_cpu_write(slice_start_ns, rq->clock_ns);
	rq->nr_switches++;
	next->on_cpu = true;
	next->cpu = rq->cpu;
	prev->nr_switches++;
	trace_sched_switch(prev->pid, next->pid, next->comm);
	/* next releases rq->lock in finish_task_switch(). */
	lockdep_switch_out(&rq->lock.dep_map);
	prev = cpu_switch_to(prev, next);
	finish_task_switch(prev);
}

/* The first thing a new thread runs (arch/arm64/switch.S). */
void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

void schedule(void)
{
	preempt_disable();
	__schedule(false);
	preempt_enable_no_resched();
}

void preempt_schedule(void)
{
	if (preempt_count() || irqs_disabled())
		return;
	preempt_disable();
	__schedule(true);
	preempt_enable_no_resched();
}

/* From the IRQ return path: interrupts off, preempt_count zero. */
void preempt_schedule_irq(void)
{
	while (need_resched()) {
		preempt_disable();
		__schedule(true);
		local_irq_disable();
		preempt_enable_no_resched();
	}
}

/* A long loop's scheduling point: in an atomic section, a no-op. */
void cond_resched(void)
{
	rcu_all_qs();
	if (need_resched() && !preempt_count())
		preempt_schedule();
}

void yield(void)
{
	set_tsk_need_resched(current);
	preempt_disable();
	__schedule(true);
	preempt_enable_no_resched();
}

void scheduler_tick(void)
{
	struct rq *rq = this_rq();
	int kick = -1;

	spin_lock(&rq->lock);
	update_curr(rq);
	sched_cpufreq_update(rq, rq->clock_ns);
	if (rq->curr != rq->idle && rq->nr_queued &&
	    rq->clock_ns - this_cpu_read(slice_start_ns) >= SCHED_SLICE_NS)
		set_tsk_need_resched(rq->curr);
	if (sched_packing())
		kick = pack_balance_kick(rq);
	spin_unlock(&rq->lock);
	if (kick >= 0) /* out of its tickless WFI, into idle_balance() */
		resched_cpu(kick);
}

/*
 * Change where p may run. A queued thread is moved at once; a running one
 * is asked to reschedule and moves itself (put_prev()); when p is the
 * caller, it runs on an allowed CPU by the time this returns, or, called
 * with preemption disabled, from its next preempt_enable() on.
 */
int set_cpus_allowed(struct task_struct *p, const struct cpumask *mask)
{
	unsigned long flags;
	struct rq *rq;
	bool running, move = false;

	if (!cpumask_intersects(mask, cpu_active_mask))
		return -22; /* -EINVAL: no CPU to run on */
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = task_rq_lock(p);
	cpumask_copy(&p->cpus_allowed, mask);
	running = rq->curr == p;
	if (!cpumask_test_cpu(rq->cpu, mask)) {
		if (running)
			resched_curr(rq);
		else if (p->on_rq)
			move = true, dequeue(rq, p), p->on_rq = false;
	}
	spin_unlock(&rq->lock);
	if (move)
		activate_task(p);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	if (running && p == current && !preempt_count() &&
	    !cpumask_test_cpu(raw_smp_processor_id(), mask))
		schedule();
	return 0;
}

void sched_cpu_stats(unsigned int cpu, struct sched_cpu_stats *st)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	/* A tickless idle CPU has not accounted its time itself. */
	if (rq->curr)
		update_curr(rq);
	st->curr = rq->curr;
	st->nr_running = rq_nr_running(rq);
	st->idle_ns = rq->idle_ns;
	st->busy_ns = rq->busy_ns;
	memcpy(st->opp_busy_ns, rq->opp_busy_ns, sizeof(st->opp_busy_ns));
	st->depth_ns = rq->depth_ns;
	st->util_pct = rq->util_avg * 100 / UTIL_SCALE;
	st->nr_wakeup_preempts = rq->nr_wakeup_preempts;
	spin_unlock_irqrestore(&rq->lock, flags);
}

u64 task_sched_runtime(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	u64 ns;

	if (p != current)
		return READ_ONCE(p->sum_exec_ns);
	local_irq_save(flags);
	rq = this_rq();
	spin_lock(&rq->lock);
	update_curr(rq);
	ns = p->sum_exec_ns;
	spin_unlock(&rq->lock);
	local_irq_restore(flags);
	return ns;
}

/* Every queue exists from boot, so wake-ups may lock any CPU's. */
void sched_init_runqueues(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		spin_lock_init(&cpu_rq(cpu)->lock);
		INIT_LIST_HEAD(&cpu_rq(cpu)->queue);
		cpu_rq(cpu)->cpu = cpu;
	}
}

/* The CPU coming up takes its queue, with its idle thread running; on
 * that CPU (its per-CPU area is set up). */
static void init_rq(unsigned int cpu, struct task_struct *idle)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	rq->curr = rq->idle = idle;
	rq->clock_ns = ktime_get_ns();
	this_cpu_write(slice_start_ns, rq->clock_ns);
	rq->depth_stamp_ns = rq->clock_ns;
	rq->util_avg = 0; /* it was off: nothing ran */
	idle->cpu = cpu;
	idle->on_cpu = true;
	idle->idle = true;
	cpumask_clear(&idle->cpus_allowed);
	cpumask_set_cpu(cpu, &idle->cpus_allowed);
	spin_unlock_irqrestore(&rq->lock, flags);
}

/* The calling CPU's `current` (its idle thread) starts scheduling. */
void sched_init_cpu(unsigned int cpu)
{
	init_rq(cpu, current);
}

/* The last switch away from an exiting thread (do_exit()). */
void __noreturn schedule_dead(void)
{
	__schedule(false);
	BUG(); /* a dead thread is never switched back to */
}
