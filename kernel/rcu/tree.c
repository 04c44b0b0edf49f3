/*
 * Classic RCU grace periods.
 *
 * Design note. A grace period (GP) is numbered: rcu_state.gp_seq is the
 * last one started, gp_completed the last one ended. Starting GP g puts
 * every CPU RCU waits on into its leaf's qsmask, except those idle right
 * now (their dynticks counter is even: an extended quiescent state). Each
 * CPU in a qsmask then reports one quiescent state (QS), at the first of:
 *   - a tick that interrupted code with preempt_count zero
 *     (rcu_sched_clock_irq()); the idle loop runs at zero, so its ticks
 *     count, but the idle thread's other code (boot, schedule()) is
 *     judged by its count like any thread's;
 *   - a tick after it switched threads (rcu_note_context_switch());
 *   - entering idle (rcu_idle_enter()).
 * A CPU whose second tick of the GP still finds it inside a section has
 * its thread switch when the section ends (rcu_urge_qs()).
 * The last report ends GP g; if callbacks already wait for g + 1, it
 * starts at once.
 *
 * Reports combine in a two-level tree (rcu.h, struct rcu_node): a CPU
 * clears its bit in its leaf's mask with an atomic AND; the one that
 * empties the leaf drops rcu_state.nodes_pending, and the one that drops
 * it to zero ends the GP. With one lock for every report, all CPUs busy
 * at 64 vCPUs on a 2-core host queued 44 s in total per GP behind lock
 * holders the host had descheduled; with a lock per leaf of 16, 1.4 s
 * (bench=scale, docs/benchmarks.md). An atomic AND has no holder to wait
 * for. Read-side sections are preemption-disabled sections,
 * so none can span any of those events.
 *
 * Idle CPUs are never woken for RCU: an idle CPU is left out of a new GP,
 * and a CPU going idle reports for itself. The two checks are ordered by
 * full barriers on both sides (Dekker): GP start writes qsmask, smp_mb(),
 * reads dynticks; idle entry writes dynticks, smp_mb(), reads qsmask.
 * At least one side sees the other, and a double report is harmless.
 *
 * Leaving a CPU out because it was idle is safe only if what the updater
 * did before call_rcu() is visible to that CPU's next reader, and the
 * idle CPU's last reader finished before its counter said idle. On a
 * weakly ordered CPU that takes a full barrier at each of four places,
 * as in Linux: call_rcu()'s request, before it reads which GP to wait
 * for (rcu_request_gp()); the GP start, after it publishes "GP g
 * begun" (gp_seq_begun) and before it reads any counter; idle entry,
 * before and after its increment; idle exit, after it. The updater that
 * read g - 1 then stored before g began, so g's sampler sees its store
 * if it sees the CPU idle, and that CPU's reader after the idle exit
 * sees it too (tools/model/gp_weak.pml checks it with store buffers).
 *
 * Hotplug: a CPU joins rcu_state.cpus when it arrives, so from the next
 * GP on; on its way down it leaves by itself (rcu_report_dead()), after
 * its last read-side section, reporting any QS the current GP still
 * wants from it. From the moment it is no longer online it hands its
 * callbacks to an online CPU (callbacks.c); what is left moves to a
 * surviving CPU after it is gone.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/fault.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/trace.h>
#include <lib/stats.h>
#include "rcu.h"

struct rcu_state rcu_state = {.lock = __SPIN_LOCK_UNLOCKED(rcu_state.lock)};
DEFINE_CPU_ARRAY(struct rcu_data, rcu_data);

static struct rcu_node *rcu_leaf(unsigned int cpu)
{
	return &rcu_state.nodes[cpu / RCU_FANOUT_LEAF];
}

static unsigned long rcu_leaf_bit(unsigned int cpu)
{
	return 1UL << (cpu % RCU_FANOUT_LEAF);
}

/* Does the current GP still want a QS from cpu? Lockless: a hint. */
static bool rcu_owes_qs(unsigned int cpu)
{
	return READ_ONCE(rcu_leaf(cpu)->qsmask) & rcu_leaf_bit(cpu);
}

/* The CPUs the current GP still waits on, gathered from the leaves. */
void rcu_qsmask_get(struct cpumask *mask)
{
	cpumask_clear(mask);
	for (unsigned int i = 0; i < rcu_state.nr_nodes; i++) {
		struct rcu_node *n = &rcu_state.nodes[i];
		unsigned long m = READ_ONCE(n->qsmask);

		for (unsigned int b = 0; m; b++, m >>= 1)
			if (m & 1)
				cpumask_set_cpu(n->grplo + b, mask);
	}
}

static bool gp_in_progress(void)
{
	return rcu_state.gp_seq != rcu_state.gp_completed;
}

void rcu_record_sample(u64 *ring, u64 *count, u64 ns)
{
	ring[(*count)++ % RCU_STAT_SAMPLES] = ns;
}

static void rcu_gp_end(void);

/*
 * fail.rcu_early_gp=on: every grace period ends at once, waiting for no
 * CPU. RCU broken on purpose, for torture.mutant=early_gp: the torture
 * must see readers' elements freed under them.
 */
static const char *const on_word[] = {"on", NULL};
static const struct fault_field rcu_early_gp_fields[] = {
	{"on", FAULT_WORD, .words = on_word}, {}};
DEFINE_FAULT(rcu_early_gp, rcu_early_gp_fields, 1, FAULT_FOREVER, NULL,
	     "every grace period ends at once, waiting for no CPU: RCU broken "
	     "on purpose, for the torture to catch");

/* The leaf's mask lost bits: true if this AND is the one that emptied it. */
static bool rcu_node_clear(struct rcu_node *n, unsigned long bits)
{
	unsigned long old =
		__atomic_fetch_and(&n->qsmask, ~bits, __ATOMIC_ACQ_REL);

	return old && !(old & ~bits) && (old & bits);
}

/*
 * Set a leaf's mask for a new GP: its CPUs RCU waits on, less the idle
 * ones. Caller holds rcu_state.lock. The leaf is counted before its mask
 * is published: a reporter may empty it at once and drop the count.
 */
static void rcu_node_start_gp(struct rcu_node *n)
{
	unsigned long mask = 0, idle = 0;
	unsigned int cpu;

	lockdep_assert_held(&rcu_state.lock);
	for (unsigned int b = 0; b < RCU_FANOUT_LEAF; b++) {
		cpu = n->grplo + b;
		if (cpu < nr_cpu_ids && cpumask_test_cpu(cpu, &rcu_state.cpus))
			mask |= 1UL << b;
	}
	if (unlikely(fault_armed(&fault_rcu_early_gp)))
		mask = 0; /* deliberately broken */
	if (!mask)
		return;
	__atomic_add_fetch(&rcu_state.nodes_pending, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&n->qsmask, mask, __ATOMIC_RELEASE);
	smp_mb(); /* qsmask before dynticks: paired with rcu_idle_enter() */
	for (unsigned int b = 0; b < RCU_FANOUT_LEAF; b++)
		if ((mask & (1UL << b)) &&
		    !(READ_ONCE(rcu_data[n->grplo + b].dynticks) & 1))
			idle |= 1UL << b;
	WRITE_ONCE(n->start_idle, idle);
	if (idle && rcu_node_clear(n, idle))
		__atomic_sub_fetch(&rcu_state.nodes_pending, 1,
				   __ATOMIC_ACQ_REL); /* our own count: > 0 */
}

/* Start the next grace period. Caller holds rcu_state.lock. */
static void rcu_gp_start(void)
{
	unsigned long first = 0; /* CPUs 0-63 it waits on, for the trace */

	lockdep_assert_held(&rcu_state.lock);
	/* Begun before any counter is read: paired with rcu_request_gp(). */
	WRITE_ONCE(rcu_state.gp_seq_begun, rcu_state.gp_seq + 1);
	smp_mb();
	rcu_state.gp_start_ns = ktime_get_ns();
	rcu_state.stall_next_ns =
		rcu_state.gp_start_ns + rcu_stall_timeout_ms * 1000000ULL;
	/* Its own count: no leaf's last report can end it half-started. */
	__atomic_store_n(&rcu_state.nodes_pending, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < rcu_state.nr_nodes; i++) {
		struct rcu_node *n = &rcu_state.nodes[i];

		rcu_node_start_gp(n);
		if (n->grplo < BITS_PER_LONG)
			first |= READ_ONCE(n->qsmask) << n->grplo;
	}
	/* Masks before the new number: paired with note_new_gp()'s acquire,
	 * so a CPU that sees the new GP sees whether it owes it a QS. */
	smp_store_release(&rcu_state.gp_seq, rcu_state.gp_seq + 1);
	trace_rcu_gp_start(rcu_state.gp_seq, first);
	if (!__atomic_sub_fetch(&rcu_state.nodes_pending, 1, __ATOMIC_ACQ_REL))
		rcu_gp_end();
}

/* The last QS came in. Caller holds rcu_state.lock. */
static void rcu_gp_end(void)
{
	lockdep_assert_held(&rcu_state.lock);
	rcu_record_sample(rcu_state.gp_ns, &rcu_state.nr_gp_samples,
			  ktime_get_ns() - rcu_state.gp_start_ns);
	/* Readers' sections came before their QS reports, hence before
	 * this; callbacks read gp_completed with acquire (callbacks.c). */
	smp_store_release(&rcu_state.gp_completed, rcu_state.gp_seq);
	trace_rcu_gp_end(rcu_state.gp_seq);
	smp_mb(); /* gp_completed before gp_seq_needed: see rcu_request_gp() */
	if (READ_ONCE(rcu_state.gp_seq_needed) > rcu_state.gp_seq)
		rcu_gp_start();
}

/*
 * cpu passed a QS for the current GP (or is gone). Any context. Its bit
 * set means the GP being started or running wants it, and a QS now is
 * after that GP began: no GP number is needed.
 */
void rcu_report_qs(unsigned int cpu)
{
	struct rcu_node *n = rcu_leaf(cpu);
	unsigned long bit = rcu_leaf_bit(cpu), flags;
	u64 t0, cycles;
	bool last;

	if (!(READ_ONCE(n->qsmask) & bit))
		return;
	t0 = arch_counter_get();
	last = rcu_node_clear(n, bit);
	cycles = arch_counter_get() - t0;
	__atomic_add_fetch(&n->qs_reports, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&n->qs_cycles, cycles, __ATOMIC_RELAXED);
	if (cycles > READ_ONCE(n->qs_cycles_max)) /* a racy max: a figure */
		WRITE_ONCE(n->qs_cycles_max, cycles);
	trace_rcu_qs(cpu, READ_ONCE(rcu_state.gp_seq));
	/* The leaf's last report; the GP's last leaf ends it. */
	if (last && !__atomic_sub_fetch(&rcu_state.nodes_pending, 1,
					__ATOMIC_ACQ_REL)) {
		spin_lock_irqsave(&rcu_state.lock, flags);
		rcu_gp_end();
		spin_unlock_irqrestore(&rcu_state.lock, flags);
	}
}

/*
 * rdp's next callbacks need a GP that starts after now: gp_seq + 1.
 * rcu_state.gp_seq_needed is the highest GP anyone needs (Linux's name):
 * the CPU that raises it makes sure that GP comes, every other one just
 * notes the number, without rcu_state.lock: rcu_barrier() calls
 * call_rcu() on every CPU at once, and a ticket lock taken by all of them
 * with IRQs off hands over one vCPU at a time, each waiting for the host
 * to run it.
 *
 * The raiser and the ender of the running GP are Dekker's: the raiser
 * writes gp_seq_needed, then (full barrier) reads whether a GP runs; the
 * ender writes gp_completed, then (full barrier) reads gp_seq_needed.
 * Either the ender sees the need and starts the next GP, or the raiser
 * sees none running and starts one under the lock. IRQs off.
 */
void rcu_request_gp(struct rcu_data *rdp)
{
	long want, needed;

	/*
	 * The updates before call_rcu() before the GP number: paired with
	 * the smp_mb() in rcu_gp_start(). A GP that began after this read
	 * sees them in every CPU it leaves out as idle.
	 */
	smp_mb();
	want = READ_ONCE(rcu_state.gp_seq_begun) + 1;
	needed = READ_ONCE(rcu_state.gp_seq_needed);

	rdp->wait_gp = want;
	do {
		if (needed >= want)
			return; /* asked for already: its raiser sees to it */
	} while (!__atomic_compare_exchange_n(&rcu_state.gp_seq_needed, &needed,
					      want, false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	smp_mb(); /* gp_seq_needed before the GP state: see above */
	if (READ_ONCE(rcu_state.gp_completed) != READ_ONCE(rcu_state.gp_seq))
		return; /* its end starts ours */
	spin_lock(&rcu_state.lock);
	rcu_state.gp_requests_locked++;
	if (!gp_in_progress() && rcu_state.gp_seq_needed > rcu_state.gp_seq)
		rcu_gp_start();
	spin_unlock(&rcu_state.lock);
}

/*
 * Linux's polled grace periods: a cookie naming the GP after any that
 * may have begun by now, so once that GP has ended, a full grace period
 * has passed since the call. Any context.
 */
unsigned long get_state_synchronize_rcu(void)
{
	smp_mb(); /* the caller's accesses first: as rcu_request_gp() */
	return READ_ONCE(rcu_state.gp_seq_begun) + 1;
}

/* Has the GP that cookie names ended? Any context. */
bool poll_state_synchronize_rcu(unsigned long cookie)
{
	/* Paired with the store-release in rcu_gp_end(). */
	long completed = smp_load_acquire(&rcu_state.gp_completed);

	return completed - (long)cookie >= 0;
}

/* Notice a new GP: from now on this CPU owes it a quiescent state. */
static void note_new_gp(struct rcu_data *rdp, unsigned int cpu)
{
	long seq = smp_load_acquire(&rcu_state.gp_seq);

	if (rdp->gp_seq_seen == seq)
		return;
	rdp->gp_seq_seen = seq;
	rdp->qs_pending = rcu_owes_qs(cpu);
	rdp->passed_qs = false;
	rdp->qs_ticks = 0;
}

/*
 * This CPU owes a QS but its thread is inside a read-side section: have
 * the thread schedule when the section ends. Its rcu_read_unlock()
 * (preempt_enable()) then enters __schedule(), which reports (Linux's
 * "urgent QS"). Without it, a thread that spends nearly all its time in
 * sections is seen at count zero only by luck, as a tick landing between
 * two of them: rcutorture's readers on a CPU going down held the hotplug
 * grace period for up to half a second. This CPU, IRQs off.
 */
void rcu_urge_qs(struct rcu_data *rdp, bool exp)
{
	if (exp)
		rdp->exp_need_qs = true;
	set_tsk_need_resched(current);
}

/*
 * From the tick, IRQs off. preempt_count() is HARDIRQ_OFFSET exactly when
 * the interrupted code had it at zero: outside any read-side section.
 * Not the task's identity: init_task is the idle task while it still
 * runs boot code with interrupts on. The idle loop's own quiescent state
 * is its extended one (rcu_idle_enter()). An expedited GP that waits on
 * this CPU takes the QS too, IPI or not (expedited.c).
 */
void rcu_sched_clock_irq(void)
{
	unsigned int cpu = smp_processor_id();
	struct rcu_data *rdp = this_rdp();
	bool quiet = preempt_count() == HARDIRQ_OFFSET;

	note_new_gp(rdp, cpu);
	if (rdp->qs_pending && (quiet || rdp->passed_qs)) {
		rdp->qs_pending = false;
		rcu_report_qs(cpu);
	} else if (rdp->qs_pending && ++rdp->qs_ticks >= 2) {
		rcu_urge_qs(rdp, false); /* a normal GP waits a tick first */
	}
	if (quiet && (rdp->exp_need_qs || rcu_exp_waits_on(cpu))) {
		rdp->exp_need_qs = false;
		rcu_exp_report(cpu);
	} else if (rcu_exp_waits_on(cpu)) {
		rcu_urge_qs(rdp, true);
	}
	rcu_advance_cbs(rdp);
	rcu_check_stall();
}

/*
 * A long-running thread says it is outside any read-side section. Needed
 * because a tick that arrives while interrupts are off is taken at
 * local_irq_restore(), before the preempt_enable() that follows it: a
 * thread forever freeing memory under spin_lock_irqsave() would
 * otherwise never be seen at preempt_count zero. Only believed when true:
 * with preemption (or IRQs) off the caller may be inside a section, and
 * a QS recorded there would let the grace period end under it.
 */
void rcu_all_qs(void)
{
	if (preempt_count() || irqs_disabled())
		return;
	preempt_disable();
	this_rdp()->passed_qs = true;
	preempt_enable();
}

/*
 * From __schedule(): a context switch is a quiescent state, for an
 * expedited GP that waits on this CPU too, IPI or not (expedited.c).
 */
void rcu_note_context_switch(void)
{
	struct rcu_data *rdp = this_rdp();

	rdp->passed_qs = true;
	if (rdp->exp_need_qs || rcu_exp_waits_on(smp_processor_id())) {
		rdp->exp_need_qs = false;
		rcu_exp_report(smp_processor_id());
	}
}

/* Idle loop, IRQs off, just before WFI: enter the extended QS. */
void rcu_idle_enter(void)
{
	struct rcu_data *rdp = this_rdp();
	unsigned int cpu = smp_processor_id();

	/*
	 * The read-side sections before the counter says idle: a GP that
	 * sees it even frees what they read. Paired with the smp_mb() in
	 * rcu_node_start_gp() and exp_select_cpus().
	 */
	smp_mb();
	WRITE_ONCE(rdp->dynticks, rdp->dynticks + 1);
	WRITE_ONCE(rdp->idle_stamp, arch_counter_get());
	smp_mb(); /* dynticks before qsmask: paired with rcu_node_start_gp() */
	if (rcu_owes_qs(cpu))
		rcu_report_qs(cpu);
	rdp->qs_pending = false;
	/*
	 * The same for an expedited GP, which may wait on this CPU without
	 * having IPI'd it (a CPU no longer online, still going down).
	 */
	rdp->exp_need_qs = false;
	if (rcu_exp_waits_on(cpu))
		rcu_exp_report(cpu);
}

/* Idle loop, IRQs off, right after WFI: readers may run again. */
void rcu_idle_exit(void)
{
	struct rcu_data *rdp = this_rdp();

	WRITE_ONCE(rdp->dynticks, rdp->dynticks + 1);
	WRITE_ONCE(rdp->idle_stamp, arch_counter_get());
	smp_mb(); /* leave the EQS before any read-side section begins */
}

/* May this CPU stop its tick? Not while it owes RCU or has callbacks. */
bool rcu_needs_cpu(void)
{
	struct rcu_data *rdp = this_rdp();

	return rcu_has_cbs(rdp) || rcu_owes_qs(smp_processor_id());
}

/*
 * A CPU arrives (on itself, IRQs off): RCU waits on it from the next GP,
 * normal or expedited. Both read rcu_state.cpus under rcu_state.lock
 * (rcu_gp_start(), exp_select_cpus()): the lock orders this bit against
 * them, and this CPU's readers after the unlock against their updaters.
 */
void rcu_cpu_starting(unsigned int cpu)
{
	struct rcu_data *rdp = (&rcu_data[cpu]);
	unsigned long flags;

	rdp->dynticks |= 1; /* running */
	spin_lock_irqsave(&rcu_state.lock, flags);
	cpumask_set_cpu(cpu, &rcu_state.cpus);
	rdp->gp_seq_seen = rcu_state.gp_seq; /* not part of the current GP */
	rdp->qs_pending = false;
	spin_unlock_irqrestore(&rcu_state.lock, flags);
}

/*
 * The dying CPU, after its last read-side section: RCU stops waiting on
 * it, and the current GP gets its QS if it still wanted one. A GP whose
 * choice under rcu_state.lock comes after this unlock leaves the CPU
 * out, and its readers were done before the unlock.
 */
void rcu_report_dead(unsigned int cpu)
{
	unsigned long flags;

	spin_lock_irqsave(&rcu_state.lock, flags);
	cpumask_clear_cpu(cpu, &rcu_state.cpus);
	spin_unlock_irqrestore(&rcu_state.lock, flags);
	rcu_report_qs(cpu);
	rcu_exp_report(cpu);
}

/* The leaves' report figures, summed (max: the longest report). */
static void rcu_node_stats(struct rcu_stats *st)
{
	u64 cycles = 0, max = 0, freq = arch_timer_get_freq();

	st->qs_reports = 0;
	for (unsigned int i = 0; i < rcu_state.nr_nodes; i++) {
		struct rcu_node *n = &rcu_state.nodes[i];

		st->qs_reports += READ_ONCE(n->qs_reports);
		cycles += READ_ONCE(n->qs_cycles);
		if (READ_ONCE(n->qs_cycles_max) > max)
			max = READ_ONCE(n->qs_cycles_max);
	}
	st->qs_report_ns = cycles_to_ns(cycles, freq);
	st->qs_report_max_ns = cycles_to_ns(max, freq);
}

void rcu_get_stats(struct rcu_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&rcu_state.lock, flags);
	st->gp_seq = rcu_state.gp_seq;
	st->gp_completed = rcu_state.gp_completed;
	rcu_qsmask_get(&st->waiting);
	ring_summary(rcu_state.gp_ns, RCU_STAT_SAMPLES, rcu_state.nr_gp_samples,
		     st->gp_ns);
	st->nr_gp_samples = rcu_state.nr_gp_samples;
	st->gp_requests_locked = rcu_state.gp_requests_locked;
	spin_unlock_irqrestore(&rcu_state.lock, flags);
	rcu_node_stats(st);
	rcu_exp_stats(st->exp_ns, &st->nr_exp_samples);
}

void rcu_init(void)
{
	rcu_state.nr_nodes = DIV_ROUND_UP(nr_cpu_ids, RCU_FANOUT_LEAF);
	rcu_state.nodes = kcalloc(rcu_state.nr_nodes, sizeof(*rcu_state.nodes));
	if (!rcu_state.nodes)
		panic("no memory for RCU's %u leaves", rcu_state.nr_nodes);
	for (unsigned int i = 0; i < rcu_state.nr_nodes; i++)
		rcu_state.nodes[i].grplo = i * RCU_FANOUT_LEAF;
	rcu_callbacks_init();
	rcu_cpu_starting(smp_processor_id());
}
