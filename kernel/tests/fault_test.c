/*
 * The fault points' one grammar (include/kernel/fault.h): every point
 * takes its own good value, refuses bad ones with nothing changed, and
 * fires as many times as its value says.
 */
#include <kernel/fault.h>
#include <kernel/kunit.h>
#include <lib/errno.h>
#include "helpers.h"

struct grammar_case {
	const char *point, *good;
	long times; /* after the good value */
	const char *bad[4];
};

/* CPU 1 exists wherever these run (have_cpus(test, 2)). */
static const struct grammar_case cases[] = {
	{"cpu", "1", FAULT_FOREVER, {"", "x", "1:2", "-1"}},
	{"cpu_late",
	 "1:100,1:200:claimed",
	 FAULT_FOREVER,
	 {"1", "1:0", "1:100:later",
	  "1:100,1:100,1:100,1:100,1:100,1:100,"
	  "1:100,1:100,1:100"}},
	{"cpu_die_late",
	 "1:100:claimed",
	 FAULT_FOREVER,
	 {"1:600001", "1:100,1:100", ":100", "1:100:claimed:x"}},
	{"cpu_on",
	 "1:ALREADY_ON:300",
	 FAULT_FOREVER,
	 {"1:HALT", "1", "1:-10", "1:DENIED:0"}},
	{"cpu_off", "forever", FAULT_FOREVER, {"0", "1000001", "never", "1:1"}},
	{"tos", "1:1", FAULT_FOREVER, {"3:1", "1", "1:x", ""}},
	{"cpu_suspend",
	 "lose_context:5",
	 5,
	 {"lose", "lose_context:0", "lose_context:forever", "5"}},
	{"alloc_up", "3", 1, {"0", "1001", "three", "3,4"}},
	{"up_step", "sched:active", 1, {"sched", "cpu:teardown", "x", ""}},
	{"down_step",
	 "sched:drain",
	 1,
	 {"percpu:area", "cpu:bringup", "sched:active:x", ""}},
	{"rcu_exp",
	 "migrate,no_csd",
	 FAULT_FOREVER,
	 {"migrate,bogus", "", ",", "migrate:1"}},
	{"rcu_exp_hold", "1:500", 1, {"1", "1:0", "1:60001", "1:5:5"}},
	{"call_ipi", "7", 7, {"0", "1001", "forever", "x"}},
	{"sched_drain", "2", 2, {"0", "101", "-1", "2:2"}},
	{"irq_affinity", "10", 1, {"0", "10001", "ms", "1:1"}},
	{"gic_waker", "ro", FAULT_FOREVER, {"rw", "", "ro:1", "ro,ro"}},
	{"wakeup_delay", "1", 1, {"x", "", "1:1", "-1"}},
	{"idle_pull_delay", "1", 1, {"x", "", "1:1", "-2"}},
	{"rcu_early_gp", "on", FAULT_FOREVER, {"off", "", "on:1", "1"}},
};

/*
 * Each point, through the one parser without arming it (fault_check():
 * arming some for real, even briefly, would break RCU or stall a CPU):
 * does its good value give the times it says, and is each bad value
 * refused? And through fault_inject(), is a bad value refused with the
 * point left off?
 */
static void fault_grammar_per_point(struct kunit *test)
{
	long times;

	if (!have_cpus(test, 2))
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct grammar_case *c = &cases[i];

		KUNIT_EXPECT_TRUE(test, fault_exists(c->point));
		for (unsigned int b = 0; b < ARRAY_SIZE(c->bad); b++) {
			if (!KUNIT_EXPECT_EQ(
				    test,
				    fault_check(c->point, c->bad[b], &times),
				    -EINVAL))
				kunit_info(test, "fail.%s=%s taken", c->point,
					   c->bad[b]);
		}
		times = 0;
		if (!KUNIT_EXPECT_EQ(test,
				     fault_check(c->point, c->good, &times), 0))
			kunit_info(test, "fail.%s=%s refused", c->point,
				   c->good);
		KUNIT_EXPECT_EQ(test, times, c->times);
		KUNIT_EXPECT_EQ(test, fault_inject(c->point, c->bad[0]),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, fault_times(c->point), 0);
	}
	KUNIT_EXPECT_EQ(test, fault_check("no_such_point", "1", &times),
			-ENOENT);
}

static const struct kunit_case fault_cases[] = {
	KUNIT_CASE(fault_grammar_per_point),
	{},
};

static const struct kunit_suite fault_suite = {"fault", fault_cases};
kunit_test_suite(fault_suite);
