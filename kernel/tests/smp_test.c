/* Tests of SMP bring-up, ticks on every CPU and cross-CPU calls. */
#include <asm/pgtable.h>
#include <asm/sysreg.h>
#include <kernel/board.h>
#include <kernel/cpu_ops.h>
#include <kernel/cpu.h>
#include <kernel/irq.h>
#include <kernel/fault.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>

/* Is every CPU the device tree lists online, each with its own MPIDR? */
static void smp_all_cpus_online(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, num_online_cpus(), nr_cpu_ids);
	for (unsigned int a = 0; a < nr_cpu_ids; a++)
		for (unsigned int b = a + 1; b < nr_cpu_ids; b++)
			KUNIT_EXPECT_NE(test, cpu_logical_map(a),
					cpu_logical_map(b));
}

static void record_cpu(void *info)
{
	unsigned int *where = info;

	where[smp_processor_id()] =
		(read_sysreg(mpidr_el1) & MPIDR_HWID_MASK) + 1;
}

/* Does a call to each CPU run there, on the CPU with that CPU's MPIDR? */
static void smp_call_function_single_runs_on_target(struct kunit *test)
{
	unsigned int *seen = kunit_kcalloc(test, nr_cpu_ids, sizeof(*seen));
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	for_each_online_cpu (cpu) {
		seen[cpu] = 0;
		KUNIT_EXPECT_EQ(
			test,
			smp_call_function_single(cpu, record_cpu, seen, true),
			0);
		KUNIT_EXPECT_EQ(test, seen[cpu], cpu_logical_map(cpu) + 1);
	}
	KUNIT_EXPECT_NE(
		test,
		smp_call_function_single(NR_CPUS + 1, record_cpu, seen, true),
		0);
}

/*
 * A call whose IPI never went (fail.call_ipi): the waiting caller does not
 * wait for ever, it names the CPU and sends the IPI again, and the call
 * runs there.
 */
static void smp_call_without_ipi_sent_again(struct kunit *test)
{
	unsigned int *seen = kunit_kcalloc(test, nr_cpu_ids, sizeof(*seen));
	unsigned long warn_ms = smp_call_warn_ms, resends = smp_call_resends;
	unsigned int cpu =
		cpumask_next(raw_smp_processor_id(), cpu_online_mask);

	KUNIT_ASSERT_NOT_NULL(test, seen);
	if (num_online_cpus() < 2) {
		kunit_skip(test, "needs 2 CPUs");
		return;
	}
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	smp_call_warn_ms = 200;
	KUNIT_ASSERT_EQ(test, fault_inject("call_ipi", "1"), 0);
	KUNIT_EXPECT_EQ(
		test, smp_call_function_single(cpu, record_cpu, seen, true), 0);
	KUNIT_EXPECT_EQ(test, seen[cpu], cpu_logical_map(cpu) + 1);
	KUNIT_EXPECT_EQ(test, smp_call_resends, resends + 1);
	KUNIT_EXPECT_EQ(test, fault_times("call_ipi"), 0);
	fault_clear("call_ipi");
	smp_call_warn_ms = warn_ms;
	/* A bad value is refused and arms nothing. */
	KUNIT_EXPECT_EQ(test, fault_inject("call_ipi", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("call_ipi", "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_times("call_ipi"), 0);
}

static void count_call(void *info)
{
	__atomic_fetch_add((int *)info, 1, __ATOMIC_RELAXED);
}

/* Does an IPI reach every other CPU, and on_each_cpu all of them? */
static void smp_ipis_reach_every_cpu(struct kunit *test)
{
	int hits = 0;
	u64 before = 0, after = 0;
	unsigned int cpu;

	if (!have_cpus(test, 2))
		return;
	for_each_online_cpu (cpu)
		before += ipi_count(IPI_CALL_FUNC, cpu);
	smp_call_function_many(cpu_online_mask, count_call, &hits, true, NULL);
	KUNIT_EXPECT_EQ(test, hits, num_online_cpus() - 1);
	hits = 0;
	on_each_cpu(count_call, &hits, true);
	KUNIT_EXPECT_EQ(test, hits, num_online_cpus());
	for_each_online_cpu (cpu)
		after += ipi_count(IPI_CALL_FUNC, cpu);
	KUNIT_EXPECT_GE(test, after - before, 2 * (num_online_cpus() - 1));
}

/* Does an asynchronous call run too (the caller does not wait for it)? */
static void smp_call_function_async(struct kunit *test)
{
	static int hits;
	unsigned int cpu = cpumask_next(0, cpu_online_mask);

	if (!have_cpus(test, 2))
		return;
	hits = 0;
	KUNIT_EXPECT_EQ(test,
			smp_call_function_single(cpu, count_call, &hits, false),
			0);
	for (int i = 0; i < 100 && !READ_ONCE(hits); i++)
		msleep(5);
	KUNIT_EXPECT_EQ(test, READ_ONCE(hits), 1);
}

/*
 * A call that keeps its target busy until the caller's CPU ran another
 * thread (at most 2 s): an event, not a fixed time, for a busy host may
 * not run the caller's vCPU at all in any fixed window.
 */
struct slow_call {
	struct cpumask target;
	bool in_call, ran, stop;
	bool ran_first; /* the caller returned after the call ran */
	volatile unsigned long bystander_runs; /* while the call ran */
	struct completion caller_done, bystander_done;
};

static void slow_call_fn(void *p)
{
	struct slow_call *s = p;
	u64 end = ktime_get_ns() + 2000000000ULL;

	WRITE_ONCE(s->in_call, true);
	while (!READ_ONCE(s->bystander_runs) && ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(s->ran, true);
}

static int slow_call_caller(void *p)
{
	struct slow_call *s = p;

	smp_call_function_many(&s->target, slow_call_fn, s, true, NULL);
	s->ran_first = READ_ONCE(s->ran);
	complete(&s->caller_done);
	return 0;
}

static int slow_call_bystander(void *p)
{
	struct slow_call *s = p;

	while (!READ_ONCE(s->stop)) {
		if (READ_ONCE(s->in_call) && !READ_ONCE(s->ran))
			s->bystander_runs++;
		cpu_relax();
	}
	complete(&s->bystander_done);
	return 0;
}

/*
 * Does a caller waiting for a slow cross-CPU call give its CPU away? A
 * thread bound to the caller's CPU must run while the call runs; a
 * caller spinning with preemption off (as before) left it no time, and
 * with hundreds of targets on an oversubscribed host spun for minutes.
 */
static void smp_call_wait_sleeps(struct kunit *test)
{
	static struct slow_call s;
	struct task_struct *caller, *bystander;
	unsigned int here = 0, there = cpumask_next(0, cpu_online_mask);

	if (!have_cpus(test, 2))
		return;
	s = (struct slow_call){};
	init_completion(&s.caller_done);
	init_completion(&s.bystander_done);
	cpumask_set_cpu(there, &s.target);
	bystander = kthread_create(slow_call_bystander, &s, "bystander");
	caller = kthread_create(slow_call_caller, &s, "caller");
	KUNIT_ASSERT_NOT_NULL(test, bystander);
	KUNIT_ASSERT_NOT_NULL(test, caller);
	kthread_bind(bystander, here);
	kthread_bind(caller, here);
	wake_up_process(bystander);
	wake_up_process(caller);
	wait_for_completion(&s.caller_done);
	WRITE_ONCE(s.stop, true);
	wait_for_completion(&s.bystander_done);
	KUNIT_EXPECT_TRUE(test, s.ran_first);
	KUNIT_EXPECT_GT(test, s.bystander_runs, 0);
}

static volatile bool busy_stop;

static int busy(void *done)
{
	while (!busy_stop)
		cpu_relax();
	complete(done);
	return 0;
}

/* CPUs kept busy at once: 512 busy vCPUs on 2 host cores do little
 * but take ticks, each getting less host time than its tick needs. */
#define TICK_BATCH 16

/* Busy threads on the CPUs of batch; adds how many of them ticked 3 times. */
static void batch_ticks(struct kunit *test, const struct cpumask *batch,
			struct completion *done, u64 *before, unsigned int *sum)
{
	unsigned int cpu, ticking = 0, n = cpumask_weight(batch);

	busy_stop = false;
	for_each_cpu (cpu, batch) {
		struct task_struct *t =
			kthread_create(busy, &done[cpu], "busy/%u", cpu);

		KUNIT_ASSERT_NOT_NULL(test, t);
		init_completion(&done[cpu]);
		kthread_bind(t, cpu);
		before[cpu] = tick_count_cpu(cpu);
		wake_up_process(t);
	}
	for (int tries = 0; tries < 500 && ticking < n; tries++) {
		msleep(10);
		ticking = 0;
		for_each_cpu (cpu, batch)
			ticking += tick_count_cpu(cpu) >= before[cpu] + 3;
	}
	busy_stop = true;
	for_each_cpu (cpu, batch)
		wait_for_completion(&done[cpu]);
	*sum += ticking;
}

/*
 * Does every online CPU take timer ticks while it has work? (Idle CPUs
 * stop their tick: that is tested with RCU.) TICK_BATCH CPUs at a time.
 */
static void smp_every_cpu_ticks(struct kunit *test)
{
	struct completion *done =
		kunit_kcalloc(test, nr_cpu_ids, sizeof(*done));
	u64 *before = kunit_kcalloc(test, nr_cpu_ids, sizeof(*before));
	struct cpumask *batch = kunit_kcalloc(test, 1, sizeof(*batch));
	unsigned int cpu, ticking = 0, online = num_online_cpus();

	KUNIT_ASSERT_TRUE(test, done && before && batch);
	for_each_online_cpu (cpu) {
		cpumask_set_cpu(cpu, batch);
		if (cpumask_weight(batch) == TICK_BATCH) {
			batch_ticks(test, batch, done, before, &ticking);
			cpumask_clear(batch);
		}
	}
	if (!cpumask_empty(batch))
		batch_ticks(test, batch, done, before, &ticking);
	KUNIT_EXPECT_EQ(test, ticking, online);
}

/*
 * When a thread on every CPU exits at once, are all their stacks kept for
 * the next threads, none unmapped? An unmap is a broadcast TLB
 * invalidation per page under mmu_lock with IRQs off: CPUs exiting
 * together queued there for seconds at 64 CPUs while an expedited grace
 * period waited for them to take its IPI (arch/arm64/vmap_stack.c).
 * Counted in stack slots, kept or given back, not timed. On the first
 * EXIT_CPUS CPUs: more than a shared cache of 32 held, and not 512,
 * whose exits at once also meet on the locks every exit takes
 * (tasklist_lock in release_task()), with IRQs off, each vCPU waiting
 * for the host to run the one ahead of it.
 */
#define EXIT_CPUS 64

static void smp_thread_per_cpu_exits_keep_stacks(struct kunit *test)
{
	/* One completion each: 64 waiters on one wait queue's lock crawl. */
	struct completion *go = kunit_kcalloc(test, nr_cpu_ids, sizeof(*go));
	struct cpumask *started = kunit_kcalloc(test, 1, sizeof(*started));
	unsigned int cpu, slots, threads = nr_threads();

	KUNIT_ASSERT_TRUE(test, go && started);
	thread_stack_cache_drain(); /* each thread below gets a new stack */
	slots = vmap_stacks_in_use();
	for_each_online_cpu (cpu) {
		struct task_struct *t;

		if (cpumask_weight(started) == EXIT_CPUS)
			break;
		t = kthread_create(wait_on, &go[cpu], "exit/%u", cpu);
		if (!t)
			break;
		init_completion(&go[cpu]);
		kthread_bind(t, cpu);
		wake_up_process(t);
		cpumask_set_cpu(cpu, started);
	}
	KUNIT_EXPECT_EQ(test, cpumask_weight(started),
			min(num_online_cpus(), EXIT_CPUS));
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(),
			slots + cpumask_weight(started));
	for_each_cpu (cpu, started)
		complete(&go[cpu]); /* they exit together */
	KUNIT_ASSERT_TRUE(test, wait_threads_reaped(threads));
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(),
			slots + cpumask_weight(started));
}

/*
 * spin-table: is each release address written
 * through the linear map's Normal cacheable mapping, not a Device alias of
 * the same RAM, and does that mapping read back an entry point (the CPU
 * was released)? Before, the write went through ioremap(): Device-nGnRE.
 */
static void smp_spin_table_release_cacheable(struct kunit *test)
{
	unsigned int checked = 0;

	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++) {
		phys_addr_t release = board.cpus[cpu].release_addr;
		u64 *slot;
		pte_t *pte;
		int level;

		/* A psci CPU may keep the property (TF-A's rpi4 port does). */
		if (board.cpus[cpu].method != ENABLE_METHOD_SPIN_TABLE ||
		    !release)
			continue;
		slot = spin_table_release_slot(release);
		KUNIT_ASSERT_NOT_NULL(test, slot);
		pte = lookup_pte((u64)slot, &level);
		KUNIT_ASSERT_NOT_NULL(test, pte);
		KUNIT_EXPECT_EQ(test, *pte & PTE_ATTRINDX_MASK,
				PTE_ATTRINDX(MT_NORMAL));
		KUNIT_EXPECT_TRUE(test, slot == (u64 *)__va(release));
		KUNIT_EXPECT_NE(test, READ_ONCE(*slot), 0);
		checked++;
	}
	if (!checked)
		kunit_skip(test, "no spin-table CPU");
}

static const struct kunit_case smp_cases[] = {
	KUNIT_CASE(smp_all_cpus_online),
	KUNIT_CASE(smp_call_function_single_runs_on_target),
	KUNIT_CASE(smp_ipis_reach_every_cpu),
	KUNIT_CASE(smp_call_function_async),
	KUNIT_CASE(smp_call_wait_sleeps),
	KUNIT_CASE(smp_call_without_ipi_sent_again),
	KUNIT_CASE(smp_every_cpu_ticks),
	KUNIT_CASE(smp_thread_per_cpu_exits_keep_stacks),
	KUNIT_CASE(smp_spin_table_release_cacheable),
	{},
};

static const struct kunit_suite smp_suite = {"smp", smp_cases};
kunit_test_suite(smp_suite);
