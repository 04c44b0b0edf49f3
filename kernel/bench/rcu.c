/*
 * RCU figures: the read-side cost against an empty loop, and grace-period
 * latency, normal (in ticks) and expedited (in microseconds), on an
 * otherwise idle system; expedited also with every other CPU busy
 * running readers, so that its IPIs are really sent.
 */
#include <kernel/bench.h>
#include <kernel/cpu.h>
#include <kernel/irq.h>
#include <kernel/rcupdate.h>
#include <kernel/smp.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/stats.h>

#define READ_LOOPS 2000000
#define GP_RUNS 21

static u64 time_loop(bool with_rcu)
{
	u64 t0 = ktime_get_ns();

	for (int i = 0; i < READ_LOOPS; i++) {
		if (with_rcu) {
			rcu_read_lock();
			barrier();
			rcu_read_unlock();
		} else {
			barrier();
		}
	}
	return ktime_get_ns() - t0;
}

struct busy_cpus {
	volatile bool stop;
	int running;
	struct completion done;
};

/* Short read-side sections back to back: some IPIs land inside one. */
static int busy_reader(void *arg)
{
	struct busy_cpus *b = arg;

	__atomic_add_fetch(&b->running, 1, __ATOMIC_RELAXED);
	while (!b->stop) {
		rcu_read_lock();
		for (int i = 0; i < 100; i++)
			barrier();
		rcu_read_unlock();
	}
	if (__atomic_sub_fetch(&b->running, 1, __ATOMIC_RELAXED) == 0)
		complete(&b->done);
	return 0;
}

/* GP_RUNS expedited grace periods, msleep(5) apart; median etc. in us. */
static void time_expedited(const char *key)
{
	u64 lat[GP_RUNS];

	for (int i = 0; i < GP_RUNS; i++) {
		u64 t0;

		msleep(5);
		t0 = ktime_get_ns();
		synchronize_rcu_expedited();
		lat[i] = ktime_get_ns() - t0;
	}
	sort_u64(lat, GP_RUNS);
	bench_report("rcu", key, "%llu / %llu / %llu",
		     (unsigned long long)(lat[0] / 1000),
		     (unsigned long long)(lat[GP_RUNS / 2] / 1000),
		     (unsigned long long)(lat[GP_RUNS - 1] / 1000));
}

/*
 * The same with a reader thread spinning on `want` other CPUs (all of
 * them for NR_CPUS): those are not idle, so each grace period IPIs them
 * and waits for their reports. Under TCG each busy vCPU is a busy host
 * thread: with more of them than host cores, an IPI waits for its target
 * to be scheduled by the host, which the one-CPU figure avoids.
 */
static void time_expedited_busy(unsigned int want, const char *key,
				const char *ipi_key)
{
	static struct busy_cpus b;
	unsigned int me, cpu, n = 0;
	struct cpumask here;
	u64 ipis = 0;

	if (num_online_cpus() < 2)
		return;
	b = (struct busy_cpus){0};
	init_completion(&b.done);
	me = raw_smp_processor_id();
	cpumask_clear(&here);
	cpumask_set_cpu(me, &here);
	set_cpus_allowed(current, &here); /* the spinners have the others */
	for_each_online_cpu (cpu) {
		struct task_struct *t;

		if (cpu == me || n == want)
			continue;
		t = kthread_create(busy_reader, &b, "rcu_busy/%u", cpu);
		if (!t)
			break;
		kthread_bind(t, cpu);
		wake_up_process(t);
		n++;
	}
	while (READ_ONCE(b.running) < (int)n)
		msleep(1);
	for_each_online_cpu (cpu)
		ipis -= ipi_count(IPI_CALL_FUNC, cpu);
	time_expedited(key);
	for_each_online_cpu (cpu)
		ipis += ipi_count(IPI_CALL_FUNC, cpu);
	b.stop = true;
	if (n)
		wait_for_completion(&b.done);
	set_cpus_allowed(current, cpu_possible_mask);
	bench_report("rcu", ipi_key, "%u / %llu", n, (unsigned long long)ipis);
}

static void rcu_bench(void)
{
	u64 empty = 0, rcu = 0, lat[GP_RUNS];

	/* Interleaved, so both loops see the same host noise. */
	for (int round = 0; round < 5; round++) {
		empty += time_loop(false);
		rcu += time_loop(true);
	}
	bench_report(
		"rcu", "read_lock_unlock_ns", "%llu.%02llu",
		(unsigned long long)(rcu / (5ULL * READ_LOOPS)),
		(unsigned long long)(rcu * 100 / (5ULL * READ_LOOPS) % 100));
	bench_report(
		"rcu", "empty_loop_ns", "%llu.%02llu",
		(unsigned long long)(empty / (5ULL * READ_LOOPS)),
		(unsigned long long)(empty * 100 / (5ULL * READ_LOOPS) % 100));
	bench_report("rcu", "read_side_ratio", "%llu.%02llu",
		     (unsigned long long)(rcu / empty),
		     (unsigned long long)(rcu * 100 / empty % 100));

	for (int i = 0; i < GP_RUNS; i++) {
		u64 t0;

		msleep(5); /* start from an idle system each time */
		t0 = ktime_get_ns();
		synchronize_rcu();
		lat[i] = ktime_get_ns() - t0;
	}
	sort_u64(lat, GP_RUNS);
	bench_report(
		"rcu", "sync_ticks_median", "%llu.%02llu",
		(unsigned long long)(lat[GP_RUNS / 2] / jiffies_to_nsecs(1)),
		(unsigned long long)(lat[GP_RUNS / 2] * 100 /
				     jiffies_to_nsecs(1) % 100));
	bench_report("rcu", "sync_us_min_median_max", "%llu / %llu / %llu",
		     (unsigned long long)(lat[0] / 1000),
		     (unsigned long long)(lat[GP_RUNS / 2] / 1000),
		     (unsigned long long)(lat[GP_RUNS - 1] / 1000));
	time_expedited("expedited_us_min_median_max");
	time_expedited_busy(1, "expedited_1busy_us_min_median_max",
			    "expedited_1busy_cpus_ipis");
	time_expedited_busy(NR_CPUS, "expedited_busy_us_min_median_max",
			    "expedited_busy_cpus_ipis");
}
BENCH(rcu, "read-side cost and grace-period latency", rcu_bench);
