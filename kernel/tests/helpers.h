/* What several in-kernel test suites share. */
#ifndef KERNEL_TESTS_HELPERS_H
#define KERNEL_TESTS_HELPERS_H

#include <kernel/cpu.h>
#include <kernel/kunit.h>

/* False (and the case is skipped) with fewer than n CPUs online. */
static inline bool have_cpus(struct kunit *test, unsigned int n)
{
	if (num_online_cpus() >= n)
		return true;
	kunit_skip(test, "needs %u CPUs online", n);
	return false;
}

#endif
