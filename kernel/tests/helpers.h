/* What several in-kernel test suites share. */
#ifndef KERNEL_TESTS_HELPERS_H
#define KERNEL_TESTS_HELPERS_H

#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/timer.h>

/* False (and the case is skipped) with fewer than n CPUs online. */
static inline bool have_cpus(struct kunit *test, unsigned int n)
{
	if (num_online_cpus() >= n)
		return true;
	kunit_skip(test, "needs %u CPUs online", n);
	return false;
}

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

#endif
