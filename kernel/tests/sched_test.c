/* Tests of threads, preemption, sleeping locks, affinity and balancing. */
#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>

struct hog_arg {
	volatile bool stop;
	volatile bool ran;
	volatile u64 count;
	struct completion done;
};

/* Spin without sleeping or yielding until told to stop. */
static int hog(void *p)
{
	struct hog_arg *a = p;

	while (!a->stop)
		a->count++;
	complete(&a->done);
	return 0;
}

static int note_ran(void *p)
{
	struct hog_arg *a = p;

	a->ran = true;
	complete(&a->done);
	return 0;
}

static struct task_struct *start_on(int (*fn)(void *), struct hog_arg *a,
				    unsigned int cpu)
{
	struct task_struct *t = kthread_create(fn, a, "hogtest/%u", cpu);

	if (t) {
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
	return t;
}

/*
 * A thread that never yields holds a CPU: does the tick still let another
 * thread bound to the same CPU run while the hog is mid-spin?
 */
static void sched_tick_preempts_cpu_hog(struct kunit *test)
{
	static struct hog_arg h, other;
	unsigned int cpu = nr_cpu_ids - 1;
	u64 seen;

	h = (struct hog_arg){0};
	other = (struct hog_arg){0};
	init_completion(&h.done);
	init_completion(&other.done);
	KUNIT_ASSERT_NOT_NULL(test, start_on(hog, &h, cpu));
	while (!h.count)
		msleep(1);
	KUNIT_ASSERT_NOT_NULL(test, start_on(note_ran, &other, cpu));
	/* Generous: only a starved thread waits this long. */
	KUNIT_EXPECT_NE(test,
			wait_for_completion_timeout(&other.done,
						    msecs_to_jiffies(5000)),
			0);
	seen = h.count;
	msleep(50);
	KUNIT_EXPECT_GT(test, h.count, seen); /* the hog was still running */
	h.stop = true;
	wait_for_completion(&h.done);
	KUNIT_EXPECT_TRUE(test, other.ran);
}

/* Read once each, so a failed expectation prints a plain name. */
static u64 switches_of(struct task_struct *t)
{
	return READ_ONCE(t->nr_switches);
}

static int state_of(struct task_struct *t)
{
	return READ_ONCE(t->state);
}

struct waker_arg {
	struct completion go, woke;
	volatile u64 tick_at_wake;
	unsigned int cpu;
	int same_tick, rounds;
};

/* Wait to be woken, rounds times; count wakes run before the next tick. */
static int wakee(void *p)
{
	struct waker_arg *w = p;

	for (int i = 0; i < w->rounds; i++) {
		wait_for_completion(&w->go);
		if (tick_count_cpu(w->cpu) == w->tick_at_wake)
			w->same_tick++;
		complete(&w->woke);
	}
	return 0;
}

/*
 * A thread woken on a CPU that a hog keeps busy: does its wake-up preempt
 * the hog (its sleeper credit), rather than wait for the hog's tick and
 * slice end? Judged by the decision the waker makes under the run
 * queue's lock (the queue's count of wake-up preemptions), which the
 * host's scheduling of vCPUs cannot change; when the woken thread then
 * runs is the host's too (an IPI and the tick pending together on a
 * descheduled vCPU are taken in one go), so that is only printed. The
 * first round of this test judged by the tick and failed on a busy host.
 */
static void sched_wakeup_preempts_cpu_hog(struct kunit *test)
{
	static struct hog_arg h;
	static struct waker_arg w;
	unsigned int cpu = nr_cpu_ids - 1;
	struct sched_cpu_stats before, after;
	struct task_struct *t;

	if (nr_cpu_ids < 2) {
		kunit_skip(test, "needs a second CPU for the hog");
		return;
	}
	h = (struct hog_arg){0};
	w = (struct waker_arg){.rounds = 20, .cpu = cpu};
	init_completion(&h.done);
	init_completion(&w.go);
	init_completion(&w.woke);
	t = kthread_create(wakee, &w, "wakee/%u", cpu);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	KUNIT_ASSERT_NOT_NULL(test, start_on(hog, &h, cpu));
	while (!h.count)
		msleep(1);
	sched_cpu_stats(cpu, &before);
	for (int i = 0; i < w.rounds; i++) {
		/* Asleep in wait_for_completion(), off its queue: a thread
		 * still switching out is let run on, with no decision. */
		do
			msleep(1);
		while (READ_ONCE(t->on_rq) || state_of(t) == TASK_RUNNING);
		w.tick_at_wake = tick_count_cpu(cpu);
		complete(&w.go);
		wait_for_completion(&w.woke);
	}
	sched_cpu_stats(cpu, &after);
	h.stop = true;
	wait_for_completion(&h.done);
	kunit_info(test,
		   "%llu of %d wakes preempted the hog; %d ran before its CPU "
		   "ticked",
		   (unsigned long long)(after.nr_wakeup_preempts -
					before.nr_wakeup_preempts),
		   w.rounds, w.same_tick);
	KUNIT_EXPECT_EQ(test,
			after.nr_wakeup_preempts - before.nr_wakeup_preempts,
			(u64)w.rounds);
}

struct mutex_arg {
	struct mutex *lock;
	u64 *counter;
	int loops;
	struct completion done;
};

/* Increment with a window: without the mutex, updates would be lost. */
static int mutex_hammer(void *p)
{
	struct mutex_arg *a = p;

	for (int i = 0; i < a->loops; i++) {
		mutex_lock(a->lock);
		u64 v = READ_ONCE(*a->counter);

		if (!(i % 64))
			yield();
		WRITE_ONCE(*a->counter, v + 1);
		mutex_unlock(a->lock);
	}
	complete(&a->done);
	return 0;
}

/*
 * With threads on every CPU hammering it, is a mutex-guarded count exact?
 * The same number of increments however many CPUs: each hand-off wakes a
 * sleeper on another CPU, so on 20 vCPUs a fixed count per thread would
 * turn the case into a long convoy without making it any stricter.
 */
static void sched_mutex_counter_exact(struct kunit *test)
{
	enum { PER_CPU = 2, TOTAL = 1600, MIN_LOOPS = 32 };
	struct mutex_arg *args =
		kunit_kcalloc(test, nr_cpu_ids * PER_CPU, sizeof(*args));
	int loops = max(TOTAL / (int)(num_online_cpus() * PER_CPU), MIN_LOOPS);
	static DEFINE_MUTEX(lock);
	static u64 counter;
	unsigned int n = 0, cpu;

	KUNIT_ASSERT_NOT_NULL(test, args);
	counter = 0;
	for_each_online_cpu (cpu) {
		for (int k = 0; k < PER_CPU; k++, n++) {
			struct task_struct *t;

			args[n] = (struct mutex_arg){.lock = &lock,
						     .counter = &counter,
						     .loops = loops};
			init_completion(&args[n].done);
			t = kthread_create(mutex_hammer, &args[n], "mutex/%u",
					   cpu);
			KUNIT_ASSERT_NOT_NULL(test, t);
			kthread_bind(t, cpu);
			wake_up_process(t);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		wait_for_completion(&args[i].done);
	KUNIT_EXPECT_EQ(test, counter, (u64)n * loops);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&lock));
}

struct hop_arg {
	struct kunit *test;
	bool ok;
	u64 migrations; /* the thread's count when it was done */
	struct completion done;
};

/* Move itself to each CPU in turn and check where it runs. */
static int hopper(void *p)
{
	struct hop_arg *a = p;
	struct cpumask one;
	unsigned int cpu;

	a->ok = true;
	for_each_online_cpu (cpu) {
		cpumask_clear(&one);
		cpumask_set_cpu(cpu, &one);
		if (set_cpus_allowed(current, &one) ||
		    smp_processor_id() != cpu) {
			kunit_info(a->test, "to CPU%u: on CPU%u", cpu,
				   smp_processor_id());
			a->ok = false;
		}
		for (int i = 0; i < 5; i++) {
			msleep(2);
			if (smp_processor_id() != cpu) {
				kunit_info(a->test, "CPU%u: woke on CPU%u", cpu,
					   smp_processor_id());
				a->ok = false;
			}
		}
	}
	/* Read here: the thread is freed once it returns. */
	a->migrations = current->nr_migrations;
	complete(&a->done);
	return 0;
}

/* Does a thread migrate when its affinity changes, and stay where bound? */
static void sched_affinity_migrates_and_holds(struct kunit *test)
{
	static struct hop_arg a;
	struct task_struct *t;
	u64 before;

	if (!have_cpus(test, 2))
		return;
	init_completion(&a.done);
	a.test = test;
	t = kthread_create(hopper, &a, "hopper");
	KUNIT_ASSERT_NOT_NULL(test, t);
	before = t->nr_migrations;
	wake_up_process(t);
	wait_for_completion(&a.done);
	KUNIT_EXPECT_TRUE(test, a.ok);
	KUNIT_EXPECT_GE(test, a.migrations - before, num_online_cpus() - 1);
}

struct spread_arg {
	volatile bool stop;
	struct cpumask seen; /* CPUs it ran on (atomic bit sets) */
	struct completion done;
};

static int spread_spinner(void *p)
{
	struct spread_arg *a = p;

	while (!a->stop)
		cpumask_set_cpu(raw_smp_processor_id(), &a->seen);
	complete(&a->done);
	return 0;
}

/*
 * As many CPU-bound threads as CPUs, all created from one CPU with no
 * affinity: does the load reach every CPU (placement at wake-up, idle
 * CPUs pulling from busy ones)?
 */
static void sched_load_spreads(struct kunit *test)
{
	struct spread_arg *a = kunit_kcalloc(test, nr_cpu_ids, sizeof(*a));
	unsigned int n = num_online_cpus(), i;
	struct cpumask used;

	if (!have_cpus(test, 2))
		return;
	KUNIT_ASSERT_NOT_NULL(test, a);
	for (i = 0; i < n; i++) {
		a[i] = (struct spread_arg){0};
		init_completion(&a[i].done);
		KUNIT_ASSERT_NOT_NULL(test, kthread_run(spread_spinner, &a[i],
							"spread/%u", i));
	}
	for (int tries = 0; tries < 500; tries++) {
		cpumask_clear(&used);
		for (i = 0; i < n; i++)
			cpumask_or(&used, &used, &a[i].seen);
		if (cpumask_weight(&used) == n)
			break;
		msleep(10);
	}
	for (i = 0; i < n; i++)
		a[i].stop = true;
	for (i = 0; i < n; i++)
		wait_for_completion(&a[i].done);
	KUNIT_EXPECT_EQ(test, cpumask_weight(&used), n);
}

/* Does msleep sleep at least as long as asked, and a timeout expire? */
static void sched_sleep_and_timeout(struct kunit *test)
{
	struct completion never;
	u64 t0 = ktime_get_ns();

	msleep(30);
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0, 30 * 1000000ULL);
	init_completion(&never);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(
		test, wait_for_completion_timeout(&never, msecs_to_jiffies(20)),
		0);
	/* A timeout of n jiffies ends in the n-th tick from now, as Linux's. */
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t0,
			20 * 1000000ULL - jiffies_to_nsecs(1));
}

static int exits_with(void *p)
{
	complete(p);
	return 7;
}

/* Can many short-lived threads start and exit without leaking memory? */
static void sched_threads_exit_cleanly(struct kunit *test)
{
	struct completion done;
	unsigned int threads = nr_threads();
	struct mem_stats a, b;

	mem_get_stats_drained(&a);
	for (int i = 0; i < 50; i++) {
		init_completion(&done);
		KUNIT_ASSERT_NOT_NULL(
			test, kthread_run(exits_with, &done, "short/%d", i));
		wait_for_completion(&done);
	}
	KUNIT_EXPECT_TRUE(test, wait_threads_reaped(threads));
	mem_get_stats_drained(&b);
	KUNIT_EXPECT_EQ(test, b.free_pages, a.free_pages);
	KUNIT_EXPECT_EQ(test, b.kmalloc_objects, a.kmalloc_objects);
}

/*
 * Does smp_processor_id() still name this CPU while this CPU's per-CPU area
 * reads as freed memory? A thread that moved between reading TPIDR_EL1 and
 * loading through it sees exactly that once its old CPU has gone down: the
 * number must come from the thread, not from an area. (IRQs off: nothing
 * else on this CPU looks at the area meanwhile.)
 */
static void sched_cpu_id_not_from_percpu_area(struct kunit *test)
{
	unsigned int *slot, saved, cpu;
	unsigned long flags;

	local_irq_save(flags);
	slot = this_cpu_ptr(&cpu_number);
	saved = *slot;
	WRITE_ONCE(*slot, 0x6b6b6b6b); /* percpu.c's POISON_FREE bytes */
	cpu = smp_processor_id();
	WRITE_ONCE(*slot, saved);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, cpu, saved);
	KUNIT_EXPECT_EQ(test, cpu, (unsigned int)current->cpu);
}

/*
 * Does the debug_preempt check (check_preemption_disabled()) let through
 * exactly the uses where this thread cannot leave its CPU: preemption
 * off, IRQs off, or bound to this one CPU; and not an unbound thread
 * with preemption on?
 */
static void sched_preemption_check_rules(struct kunit *test)
{
	struct cpumask here, was;
	unsigned long flags;

	cpumask_copy(&was, &current->cpus_allowed);
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, preemption_check_passes());
	preempt_enable();
	local_irq_save(flags);
	KUNIT_EXPECT_TRUE(test, preemption_check_passes());
	local_irq_restore(flags);
	cpumask_clear(&here);
	cpumask_set_cpu(raw_smp_processor_id(), &here);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &here), 0);
	KUNIT_EXPECT_TRUE(test, preemption_check_passes());
	if (nr_cpu_ids > 1) {
		KUNIT_ASSERT_EQ(
			test, set_cpus_allowed(current, cpu_possible_mask), 0);
		KUNIT_EXPECT_FALSE(test, preemption_check_passes());
	}
	set_cpus_allowed(current, &was);
}

/*
 * Parking without a round trip: kthread_park() of a thread
 * asleep in wait_event_parkable() sets the flag and leaves it asleep, and
 * kthread_unpark() leaves it so; woken while parked, it parks in
 * kthread_parkme() without doing its work, and does it once unparked. A
 * thread away from its park point is woken to park itself, as before.
 */
struct parkable {
	struct wait_queue_head wq;
	volatile bool work, spin, stop;
	volatile unsigned int done;
	struct completion exited;
};

static int parkable_fn(void *p)
{
	struct parkable *pk = p;

	for (;;) {
		while (pk->spin && !kthread_should_park())
			cpu_relax(); /* away from its park point */
		wait_event_parkable(pk->wq, pk->work || pk->stop);
		if (kthread_should_park()) {
			kthread_parkme();
			continue;
		}
		if (pk->stop)
			break;
		pk->work = false;
		pk->done++;
	}
	complete(&pk->exited);
	return 0;
}

/* Wait up to 2 s for t to be off its queue in state, with done works. */
static bool parkable_settles(struct task_struct *t, struct parkable *pk,
			     int state, unsigned int done)
{
	u64 end = ktime_get_ns() + 2000000000ULL;

	while (ktime_get_ns() < end)
		if (READ_ONCE(t->state) == state && !READ_ONCE(t->on_rq) &&
		    pk->done == done)
			return true;
		else
			msleep(1);
	return false;
}

static void sched_kthread_parks_asleep_without_wakeup(struct kunit *test)
{
	static struct parkable pk;
	unsigned int cpu = nr_cpu_ids - 1;
	struct task_struct *t;
	u64 switches;

	pk = (struct parkable){0};
	init_waitqueue_head(&pk.wq);
	init_completion(&pk.exited);
	t = kthread_create(parkable_fn, &pk, "parkable");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	t->parkable = true;
	wake_up_process(t);
	KUNIT_ASSERT_TRUE(test,
			  parkable_settles(t, &pk, TASK_INTERRUPTIBLE, 0));

	switches = switches_of(t);
	KUNIT_EXPECT_EQ(test, kthread_park(t), 0);
	KUNIT_EXPECT_EQ(test, switches_of(t), switches);
	KUNIT_EXPECT_EQ(test, state_of(t), TASK_PARKED);
	/* Its work comes while it is parked: it wakes and parks for real. */
	pk.work = true;
	wake_up(&pk.wq);
	KUNIT_EXPECT_TRUE(test, parkable_settles(t, &pk, TASK_PARKED, 0));
	KUNIT_EXPECT_GT(test, switches_of(t), switches);
	kthread_unpark(t);
	KUNIT_EXPECT_TRUE(test,
			  parkable_settles(t, &pk, TASK_INTERRUPTIBLE, 1));

	/* Asleep at its park point again: a park and an unpark, no run. */
	switches = switches_of(t);
	kthread_park(t);
	kthread_unpark(t);
	KUNIT_EXPECT_EQ(test, switches_of(t), switches);
	KUNIT_EXPECT_EQ(test, state_of(t), TASK_INTERRUPTIBLE);
	pk.work = true;
	wake_up(&pk.wq);
	KUNIT_EXPECT_TRUE(test,
			  parkable_settles(t, &pk, TASK_INTERRUPTIBLE, 2));

	/* Spinning, away from it: woken to see the ask, it parks itself. */
	pk.spin = true;
	pk.work = true;
	wake_up(&pk.wq);
	while (pk.done != 3)
		msleep(1);
	KUNIT_EXPECT_EQ(test, kthread_park(t), 0);
	KUNIT_EXPECT_TRUE(test, parkable_settles(t, &pk, TASK_PARKED, 3));
	pk.spin = false;
	kthread_unpark(t);
	KUNIT_EXPECT_TRUE(test,
			  parkable_settles(t, &pk, TASK_INTERRUPTIBLE, 3));

	pk.stop = true;
	wake_up(&pk.wq);
	wait_for_completion(&pk.exited);
}

static const struct kunit_case sched_cases[] = {
	KUNIT_CASE(sched_tick_preempts_cpu_hog),
	KUNIT_CASE(sched_wakeup_preempts_cpu_hog),
	KUNIT_CASE(sched_mutex_counter_exact),
	KUNIT_CASE(sched_affinity_migrates_and_holds),
	KUNIT_CASE(sched_load_spreads),
	KUNIT_CASE(sched_sleep_and_timeout),
	KUNIT_CASE(sched_threads_exit_cleanly),
	KUNIT_CASE(sched_cpu_id_not_from_percpu_area),
	KUNIT_CASE(sched_preemption_check_rules),
	KUNIT_CASE(sched_kthread_parks_asleep_without_wakeup),
	{},
};

static const struct kunit_suite sched_suite = {"sched", sched_cases};
kunit_test_suite(sched_suite);
