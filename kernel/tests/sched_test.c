/* Tests of threads, preemption, sleeping locks, affinity and balancing. */
#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>

/* False (and the case is skipped) with fewer than n CPUs online. */
static bool have_cpus(struct kunit *test, unsigned int n)
{
	if (num_online_cpus() >= n)
		return true;
	kunit_skip(test, "needs %u CPUs online", n);
	return false;
}

struct spin_arg {
	u64 until_ns;
	volatile u64 count;
	struct completion done;
	struct cpumask cpus_seen;
};

/* Burn CPU without ever sleeping or yielding; count work units. */
static int spinner(void *p)
{
	struct spin_arg *a = p;

	while (ktime_get_ns() < a->until_ns) {
		a->count++;
		cpumask_set_cpu(smp_processor_id(), &a->cpus_seen);
	}
	complete(&a->done);
	return 0;
}

static struct task_struct *start_spinner(struct spin_arg *a, u64 ms, int cpu)
{
	struct task_struct *t;

	a->until_ns = ktime_get_ns() + ms * 1000000ULL;
	a->count = 0;
	cpumask_clear(&a->cpus_seen);
	init_completion(&a->done);
	t = kthread_create(spinner, a, "spin/%d", cpu);
	if (t && cpu >= 0)
		kthread_bind(t, cpu);
	if (t)
		wake_up_process(t);
	return t;
}

/*
 * Two CPU-bound threads that never yield, bound to one CPU: does the
 * tick preempt each so that both make progress?
 */
static void sched_tick_preempts_cpu_hog(struct kunit *test)
{
	static struct spin_arg a, b;
	int cpu = nr_cpu_ids - 1;

	KUNIT_ASSERT_NOT_NULL(test, start_spinner(&a, 300, cpu));
	KUNIT_ASSERT_NOT_NULL(test, start_spinner(&b, 300, cpu));
	msleep(150);
	KUNIT_EXPECT_GT(test, a.count, 0);
	KUNIT_EXPECT_GT(test, b.count, 0);
	wait_for_completion(&a.done);
	wait_for_completion(&b.done);
	KUNIT_EXPECT_TRUE(test, cpumask_weight(&a.cpus_seen) == 1 &&
					cpumask_test_cpu(cpu, &a.cpus_seen));
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

/* With threads on every CPU hammering it, is a mutex-guarded count exact? */
static void sched_mutex_counter_exact(struct kunit *test)
{
	enum { PER_CPU = 2, LOOPS = 200 };
	static struct mutex_arg args[NR_CPUS * PER_CPU];
	static DEFINE_MUTEX(lock);
	static u64 counter;
	unsigned int n = 0, cpu;

	counter = 0;
	for_each_online_cpu (cpu) {
		for (int k = 0; k < PER_CPU; k++, n++) {
			struct task_struct *t;

			args[n] = (struct mutex_arg){.lock = &lock,
						     .counter = &counter,
						     .loops = LOOPS};
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
	KUNIT_EXPECT_EQ(test, counter, (u64)n * LOOPS);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&lock));
}

struct hop_arg {
	struct kunit *test;
	bool ok;
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
	KUNIT_EXPECT_GE(test, t->nr_migrations - before, num_online_cpus() - 1);
}

/*
 * Threads all created on one CPU: does the load spread over the others
 * (placement at wake-up and idle CPUs pulling from busy ones)?
 */
static void sched_load_spreads(struct kunit *test)
{
	static struct spin_arg a[NR_CPUS];
	struct cpumask used;
	unsigned int n = num_online_cpus();

	if (!have_cpus(test, 2))
		return;
	cpumask_clear(&used);
	for (unsigned int i = 0; i < n; i++)
		KUNIT_ASSERT_NOT_NULL(test, start_spinner(&a[i], 200, -1));
	for (unsigned int i = 0; i < n; i++) {
		wait_for_completion(&a[i].done);
		cpumask_or(&used, &used, &a[i].cpus_seen);
	}
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
	struct mem_stats a, b;

	msleep(20); /* let earlier tests' threads be reaped */
	mem_get_stats(&a);
	for (int i = 0; i < 50; i++) {
		init_completion(&done);
		KUNIT_ASSERT_NOT_NULL(
			test, kthread_run(exits_with, &done, "short/%d", i));
		wait_for_completion(&done);
	}
	msleep(20);
	mem_get_stats(&b);
	KUNIT_EXPECT_EQ(test, b.free_pages, a.free_pages);
	KUNIT_EXPECT_EQ(test, b.kmalloc_objects, a.kmalloc_objects);
}

static const struct kunit_case sched_cases[] = {
	KUNIT_CASE(sched_tick_preempts_cpu_hog),
	KUNIT_CASE(sched_mutex_counter_exact),
	KUNIT_CASE(sched_affinity_migrates_and_holds),
	KUNIT_CASE(sched_load_spreads),
	KUNIT_CASE(sched_sleep_and_timeout),
	KUNIT_CASE(sched_threads_exit_cleanly),
	{},
};

static const struct kunit_suite sched_suite = {"sched", sched_cases};
kunit_test_suite(sched_suite);
