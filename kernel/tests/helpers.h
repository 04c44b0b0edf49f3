/* What several in-kernel test suites share. */
#ifndef KERNEL_TESTS_HELPERS_H
#define KERNEL_TESTS_HELPERS_H

#include <asm/vmap_stack.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/kasan.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>

/* False (and the case is skipped) with fewer than n CPUs online. */
static inline bool have_cpus(struct kunit *test, unsigned int n)
{
	if (num_online_cpus() >= n)
		return true;
	kunit_skip(test, "needs %u CPUs online", n);
	return false;
}

/* Does the firmware take CPUs down at all (PSCI 0.1 cannot confirm)? */
static inline bool downs_allowed(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	if (!ops || !ops->cpu_refuses_disable || !ops->cpu_refuses_disable(cpu))
		return true;
	kunit_skip(test, "the firmware refuses CPU downs");
	return false;
}

/* n CPUs online, and downs allowed. */
static inline bool have_down_cpus(struct kunit *test, unsigned int n)
{
	return have_cpus(test, n) && downs_allowed(test);
}

/*
 * Can a test ask PSCI about each CPU (AFFINITY_INFO) and inject PSCI
 * faults: the CPUs start through PSCI and go off with CPU_OFF, not into
 * the kernel's pen?
 */
static inline bool psci_checkable(void)
{
	return board.cpus[0].method == ENABLE_METHOD_PSCI && psci_available() &&
	       !psci_offline_parks();
}

/* xorshift32: small, and reproducible from a seed (not 0). */
static inline u32 xorshift32(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A thread that waits on the completion p, e.g. bound to a CPU. */
static inline int wait_on(void *p)
{
	wait_for_completion(p);
	return 0;
}

#define WAIT_FOR_POLL_US 100

/*
 * Poll cond with IRQs on, every WAIT_FOR_POLL_US, for up to max_us
 * (busy: the thread stays on its CPU): true if it was seen true. The
 * value that ended the loop, not a read after it: a condition that comes
 * and goes (no reader holds a lock) may be false again by then.
 */
#define wait_for(cond, max_us)                              \
	({                                                  \
		bool __seen;                                \
		for (unsigned long __us = 0;                \
		     !(__seen = (cond)) && __us < (max_us); \
		     __us += WAIT_FOR_POLL_US)              \
			udelay(WAIT_FOR_POLL_US);           \
		__seen;                                     \
	})

/*
 * Wait (up to 10 s) until no more than `n` threads exist, then for every
 * queued RCU callback: what exited and what was freed after a grace
 * period is then really gone. Tests that compare memory counters use
 * this, not a fixed sleep, so a slow host does not fail them.
 */
static inline bool wait_threads_reaped(unsigned int n)
{
	u64 deadline = jiffies + msecs_to_jiffies(10000);

	while (nr_threads() > n && jiffies < deadline)
		msleep(1);
	rcu_barrier();
	return nr_threads() <= n;
}

/*
 * The memory counters with every online CPU's kmalloc caches and the
 * cached thread stacks given back first: a slab page that only cached
 * objects keep is then free again, so free pages compare exactly across
 * an operation that used kmalloc or made threads.
 */
static inline void mem_get_stats_drained(struct mem_stats *st)
{
	thread_stack_cache_drain();
	kmalloc_drain_caches();
	mem_get_stats(st);
}

/*
 * A thread that spends nearly all its time in read-side sections of
 * section_us each, with no scheduling point between them, until stopped
 * or after max_sections: a tick finds it at preempt_count zero only by
 * luck, between two sections. Started bound to a CPU, it frees its
 * affinity itself (still running there) so that CPU may go down.
 */
struct busy_reader {
	unsigned int section_us, max_sections;
	volatile bool stop;
	volatile unsigned int sections;
	volatile int ran_on; /* CPU of its latest section, + 1 */
	struct completion done;
};

static inline int busy_reader_fn(void *p)
{
	struct busy_reader *b = p;

	set_cpus_allowed(current, cpu_possible_mask);
	while (!b->stop && b->sections < b->max_sections) {
		rcu_read_lock();
		b->ran_on = raw_smp_processor_id() + 1;
		udelay(b->section_us);
		rcu_read_unlock();
		b->sections++;
	}
	complete(&b->done);
	return 0;
}

/* Start b (already filled in) on cpu; wait until it runs there. */
static inline bool busy_reader_start(struct busy_reader *b, unsigned int cpu)
{
	struct task_struct *t =
		kthread_create(busy_reader_fn, b, "busyrd/%u", cpu);

	if (!t)
		return false;
	init_completion(&b->done);
	kthread_bind(t, cpu);
	wake_up_process(t);
	while (b->ran_on != (int)cpu + 1 && !completion_done(&b->done))
		msleep(1);
	return true;
}

static inline void note_cpu_call(void *p)
{
	*(volatile int *)p = raw_smp_processor_id() + 1;
}

/* Does cpu run the kernel, online: does it answer a cross-CPU call? */
static inline bool cpu_answers(unsigned int cpu)
{
	int ran = 0;

	return !smp_call_function_single(cpu, note_cpu_call, &ran, true) &&
	       ran == (int)cpu + 1;
}

/*
 * cpu is online by every account: its bits, its phase, its area, the
 * firmware (where it can be asked), and it takes a call. Not with CPUs
 * that park in the pen, for which the firmware says ON either way.
 */
static inline void expect_cpu_online(struct kunit *test, unsigned int cpu)
{
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_TRUE(test, cpu_active(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu));
	if (psci_checkable())
		KUNIT_EXPECT_EQ(test, psci_affinity_info(cpu_logical_map(cpu)),
				PSCI_AFFINITY_ON);
	if (!test->failed) /* a call to a CPU that is gone would hang */
		KUNIT_EXPECT_TRUE(test, cpu_answers(cpu));
}

/* ... and off by every account: no bit, phase off, no area, OFF. */
static inline void expect_cpu_off(struct kunit *test, unsigned int cpu)
{
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_FALSE(test, cpu_active(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_OFF);
	KUNIT_EXPECT_NULL(test, percpu_area(cpu));
	if (psci_checkable())
		KUNIT_EXPECT_EQ(test, psci_affinity_info(cpu_logical_map(cpu)),
				PSCI_AFFINITY_OFF);
}

/*
 * A pack of parkable threads bound to one CPU, as per-CPU threads are:
 * each waits at its park point until stopped, parking when asked.
 */
#define PARK_PACK_MAX 16
struct park_pack {
	unsigned int n;
	struct task_struct *t[PARK_PACK_MAX];
	struct wait_queue_head wq;
	volatile bool stop;
	struct completion exited; /* once per thread */
};

static inline int park_pack_fn(void *p)
{
	struct park_pack *pp = p;

	for (;;) {
		wait_event_parkable(pp->wq, pp->stop);
		if (kthread_should_park())
			kthread_parkme();
		else if (pp->stop)
			break;
	}
	complete(&pp->exited);
	return 0;
}

/* How many of its threads are parked. */
static inline unsigned int park_pack_parked(const struct park_pack *pp)
{
	unsigned int parked = 0;

	for (unsigned int i = 0; i < pp->n; i++)
		parked += READ_ONCE(pp->t[i]->state) == TASK_PARKED;
	return parked;
}

/* Start n threads on cpu; true once all wait at their park point. */
static inline bool park_pack_start(struct park_pack *pp, unsigned int n,
				   unsigned int cpu)
{
	*pp = (struct park_pack){0};
	init_waitqueue_head(&pp->wq);
	init_completion(&pp->exited);
	for (; pp->n < n; pp->n++) {
		struct task_struct *t =
			kthread_create(park_pack_fn, pp, "pack/%u", pp->n);

		if (!t)
			return false;
		kthread_bind(t, cpu);
		t->parkable = true;
		pp->t[pp->n] = t;
		wake_up_process(t);
	}
	for (unsigned int i = 0; i < n; i++)
		if (!wait_for(READ_ONCE(pp->t[i]->state) ==
					      TASK_INTERRUPTIBLE &&
				      !READ_ONCE(pp->t[i]->on_rq),
			      2000000))
			return false;
	return true;
}

/* Its CPU online: stop the threads and wait until each has left. */
static inline void park_pack_stop(struct park_pack *pp)
{
	pp->stop = true;
	wake_up(&pp->wq);
	for (unsigned int i = 0; i < pp->n; i++)
		wait_for_completion(&pp->exited);
}

/*
 * On the sanitizing build, KASAN's quarantine holds freed memory back
 * (kernel/debug/kasan.c): counts of free pages and the reuse of a freed
 * object are no longer the allocator's alone. Such a case skips there
 * (true), saying why; the normal build runs it.
 */
static inline bool skip_under_kasan(struct kunit *test)
{
	if (!kasan_built())
		return false;
	kunit_skip(test, "KASAN's quarantine holds freed memory back");
	return true;
}

#endif
