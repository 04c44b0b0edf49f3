/*
 * RCU figures: the read-side cost against an empty loop, and grace-period
 * latency, normal (in ticks) and expedited (in microseconds), on an
 * otherwise idle system.
 */
#include <kernel/bench.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
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
	for (int i = 0; i < GP_RUNS; i++) {
		u64 t0;

		msleep(5);
		t0 = ktime_get_ns();
		synchronize_rcu_expedited();
		lat[i] = ktime_get_ns() - t0;
	}
	sort_u64(lat, GP_RUNS);
	bench_report("rcu", "expedited_us_min_median_max", "%llu / %llu / %llu",
		     (unsigned long long)(lat[0] / 1000),
		     (unsigned long long)(lat[GP_RUNS / 2] / 1000),
		     (unsigned long long)(lat[GP_RUNS - 1] / 1000));
}
BENCH(rcu, "read-side cost and grace-period latency", rcu_bench);
