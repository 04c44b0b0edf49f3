/*
 * Tests of the scheduler's pack mode (kernel/sched/pack.c): light threads
 * land on the fewest CPUs, CPU-bound ones spill onto every CPU, a CPU
 * going down while threads are packed on it, and bad modes and
 * capacities refused. Each case sets the mode it tests and puts the old
 * one back, so the suite runs in any boot; judged by the CPUs the
 * threads ran on, with generous deadlines, not by time.
 */
#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include "helpers.h"

/* A light thread runs LIGHT_RUN_US in every LIGHT_SLEEP_MS + that. */
#define NR_LIGHT 6
#define LIGHT_RUN_US 1000
#define LIGHT_SLEEP_MS 19
/* Bursts of each thread: to settle after a change, then measured. */
#define SETTLE_BURSTS 5
#define MEASURE_BURSTS 20
#define DEADLINE_MS 20000
/*
 * The CPUs that carried this share of a window's bursts, busiest first,
 * are the ones the threads are packed on. Not every CPU any burst ran
 * on: a vCPU the host stops for a while looks busy to the guest (its
 * clock runs on), and its next wake-ups rightly spill for a moment.
 */
#define PACKED_SHARE 90

struct light {
	volatile bool stop;
	volatile unsigned int bursts;
	struct cpumask seen; /* CPUs it ran a burst on (atomic bit sets) */
	struct completion go, done;
};

static struct light lights[NR_LIGHT];
static unsigned int *bursts_on; /* per CPU, this window (atomic adds) */

static int light_fn(void *arg)
{
	struct light *l = arg;

	wait_for_completion(&l->go);
	while (!l->stop) {
		unsigned int cpu = raw_smp_processor_id();

		cpumask_set_cpu(cpu, &l->seen);
		__atomic_fetch_add(&bursts_on[cpu], 1, __ATOMIC_RELAXED);
		udelay(LIGHT_RUN_US);
		cpumask_set_cpu(raw_smp_processor_id(), &l->seen);
		l->bursts++;
		msleep(LIGHT_SLEEP_MS);
	}
	complete(&l->done);
	return 0;
}

/* Start the light threads; false if there is no memory for the counts. */
static bool lights_start(struct kunit *test)
{
	unsigned int i;

	bursts_on = kunit_kcalloc(test, nr_cpu_ids, sizeof(*bursts_on));
	if (!bursts_on)
		return false;

	for (i = 0; i < NR_LIGHT; i++) {
		lights[i] = (struct light){0};
		init_completion(&lights[i].go);
		init_completion(&lights[i].done);
		if (!KUNIT_EXPECT_NOT_NULL(
			    test,
			    kthread_run(light_fn, &lights[i], "light/%u", i)))
			lights[i].stop = true;
	}
	/* Woken together: each placement sees the ones before runnable. */
	for (i = 0; i < NR_LIGHT; i++)
		complete(&lights[i].go);
	return true;
}

/* Wait until every light thread ran `more` bursts from now; false if not. */
static bool lights_run(unsigned int more)
{
	unsigned int from[NR_LIGHT];
	u64 end = jiffies + msecs_to_jiffies(DEADLINE_MS);
	unsigned int i;

	for (i = 0; i < NR_LIGHT; i++)
		from[i] = lights[i].bursts;
	for (i = 0; i < NR_LIGHT;) {
		if (lights[i].stop || lights[i].bursts - from[i] >= more)
			i++;
		else if (jiffies > end)
			return false;
		else
			msleep(10);
	}
	return true;
}

/*
 * End a window: the CPUs the light threads ran on since the last call
 * into used; returns how many carried PACKED_SHARE of their bursts.
 */
static unsigned int lights_take(struct cpumask *used)
{
	unsigned int cpu, total = 0, taken = 0, n = 0;
	struct cpumask left;

	cpumask_clear(used);
	for (unsigned int i = 0; i < NR_LIGHT; i++) {
		cpumask_or(used, used, &lights[i].seen);
		cpumask_clear(&lights[i].seen);
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		total += READ_ONCE(bursts_on[cpu]);
	cpumask_copy(&left, cpu_possible_mask);
	while (taken * 100 < total * PACKED_SHARE) {
		unsigned int best = 0, most = 0;

		for_each_cpu (cpu, &left)
			if (READ_ONCE(bursts_on[cpu]) >= most)
				best = cpu, most = READ_ONCE(bursts_on[cpu]);
		cpumask_clear_cpu(best, &left);
		taken += most;
		n++;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(bursts_on[cpu], 0);
	return n;
}

static void lights_stop(void)
{
	bool started[NR_LIGHT];

	for (unsigned int i = 0; i < NR_LIGHT; i++) {
		started[i] = !lights[i].stop;
		lights[i].stop = true;
	}
	for (unsigned int i = 0; i < NR_LIGHT; i++)
		if (started[i])
			wait_for_completion(&lights[i].done);
}

static void info_cpus(struct kunit *test, const char *what,
		      const struct cpumask *m, unsigned int packed)
{
	struct sched_cpu_stats st;
	char list[64], util[80];
	unsigned int cpu;
	int len = 0;

	cpumap_print_list(list, sizeof(list), m);
	util[0] = '\0';
	for_each_online_cpu (cpu) {
		if (len >= (int)sizeof(util) - 16)
			break;
		sched_cpu_stats(cpu, &st);
		len += snprintf(util + len, sizeof(util) - len, " %u:%u/%u%%",
				cpu, st.nr_running, st.util_pct);
	}
	kunit_info(test,
		   "%s: ran on %u CPUs (%s), %d%% of bursts on %u; now "
		   "runnable/util%s",
		   what, cpumask_weight(m), list, PACKED_SHARE, packed, util);
}

/* The CPUs the light threads use once settled, in mode. */
static unsigned int lights_cpus_in(struct kunit *test, enum sched_mode mode)
{
	struct cpumask used;
	unsigned int packed;

	sched_set_mode(mode);
	if (!KUNIT_EXPECT_TRUE(test, lights_start(test)))
		return 0;
	KUNIT_EXPECT_TRUE(test, lights_run(SETTLE_BURSTS));
	lights_take(&used);
	KUNIT_EXPECT_TRUE(test, lights_run(MEASURE_BURSTS));
	packed = lights_take(&used);
	lights_stop();
	info_cpus(test, sched_mode_name(mode), &used, packed);
	return packed;
}

/*
 * Six threads that each run 1 ms in 20 (30% of one CPU together): does
 * pack mode keep them on one or two CPUs, where spread uses more? (The
 * CPUs that carried PACKED_SHARE of their bursts, by CPU number.)
 */
static void sched_pack_light_threads_packed(struct kunit *test)
{
	enum sched_mode was = sched_get_mode();
	unsigned int pack, spread;

	if (!have_cpus(test, 4))
		return;
	pack = lights_cpus_in(test, SCHED_MODE_PACK);
	spread = lights_cpus_in(test, SCHED_MODE_SPREAD);
	sched_set_mode(was);
	KUNIT_EXPECT_LE(test, pack, 2);
	KUNIT_EXPECT_GT(test, spread, pack);
}

struct spinner {
	volatile bool stop;
	volatile int last; /* CPU it last ran on, + 1 */
	struct completion done;
};

static int spinner_fn(void *arg)
{
	struct spinner *s = arg;

	while (!s->stop)
		s->last = raw_smp_processor_id() + 1;
	complete(&s->done);
	return 0;
}

/* How many different CPUs the spinners are on now. */
static unsigned int spinners_apart(struct spinner *s, unsigned int n)
{
	struct cpumask on;

	cpumask_clear(&on);
	for (unsigned int i = 0; i < n; i++)
		if (s[i].last)
			cpumask_set_cpu(s[i].last - 1, &on);
	return cpumask_weight(&on);
}

/*
 * As many CPU-bound threads as CPUs, started one after the other (pack
 * mode puts them on the first CPU until it shows full): do they spill until each runs
 * on a CPU of its own?
 */
static void sched_pack_cpu_bound_spill(struct kunit *test)
{
	unsigned int n = num_online_cpus(), apart = 0;
	struct spinner *s = kunit_kcalloc(test, n, sizeof(*s));
	enum sched_mode was = sched_get_mode();
	u64 end = jiffies + msecs_to_jiffies(DEADLINE_MS);

	if (!have_cpus(test, 2))
		return;
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (unsigned int i = 0; i < n; i++)
		init_completion(&s[i].done);
	sched_set_mode(SCHED_MODE_PACK);
	for (unsigned int i = 0; i < n; i++)
		if (!KUNIT_EXPECT_NOT_NULL(test, kthread_run(spinner_fn, &s[i],
							     "spinner/%u", i)))
			complete(&s[i].done); /* nothing to wait for */
	while ((apart = spinners_apart(s, n)) < n && jiffies < end)
		msleep(10);
	for (unsigned int i = 0; i < n; i++)
		s[i].stop = true;
	for (unsigned int i = 0; i < n; i++)
		wait_for_completion(&s[i].done);
	sched_set_mode(was);
	KUNIT_EXPECT_EQ(test, apart, n);
}

/*
 * Light threads packed in pack mode, then the CPU they are packed on goes
 * down and comes back: do they keep running on active CPUs only (none on
 * the CPU while it is down), still packed, and use it again once up?
 */
static void sched_pack_hotplug_packed_cpu(struct kunit *test)
{
	enum sched_mode was = sched_get_mode();
	struct cpumask used;
	unsigned int cpu, packed;

	if (!have_down_cpus(test, 3))
		return;
	sched_set_mode(SCHED_MODE_PACK);
	if (!KUNIT_EXPECT_TRUE(test, lights_start(test)))
		goto out;
	KUNIT_EXPECT_TRUE(test, lights_run(SETTLE_BURSTS));
	lights_take(&used);
	KUNIT_EXPECT_TRUE(test, lights_run(SETTLE_BURSTS));
	packed = lights_take(&used);
	info_cpus(test, "before", &used, packed);
	cpu = cpumask_first(&used);
	if (KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0)) {
		lights_take(&used); /* forget what ran during the down */
		KUNIT_EXPECT_TRUE(test, lights_run(MEASURE_BURSTS));
		packed = lights_take(&used);
		info_cpus(test, "CPU down", &used, packed);
		KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(cpu, &used));
		KUNIT_EXPECT_LE(test, packed, 2);
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
		KUNIT_EXPECT_TRUE(test, lights_run(SETTLE_BURSTS));
		lights_take(&used);
		KUNIT_EXPECT_TRUE(test, lights_run(MEASURE_BURSTS));
		packed = lights_take(&used);
		info_cpus(test, "CPU up", &used, packed);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(cpu, &used));
	}
	lights_stop();
out:
	sched_set_mode(was);
}

/* Are a bad mode and a bad capacity refused, leaving both as they were? */
static void sched_pack_bad_settings_refused(struct kunit *test)
{
	enum sched_mode was = sched_get_mode(), mode = was;
	unsigned int cap = sched_pack_capacity();

	KUNIT_EXPECT_EQ(test, sched_mode_parse("bogus", &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_mode_parse("", &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_mode_parse("PACK", &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, mode, was);
	KUNIT_EXPECT_EQ(test, sched_set_pack_capacity(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_set_pack_capacity(101), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_pack_capacity(), cap);
	KUNIT_EXPECT_EQ(test, sched_mode_parse("pack", &mode), 0);
	KUNIT_EXPECT_EQ(test, mode, SCHED_MODE_PACK);
	KUNIT_EXPECT_EQ(test, sched_mode_parse("spread", &mode), 0);
	KUNIT_EXPECT_EQ(test, mode, SCHED_MODE_SPREAD);
	KUNIT_EXPECT_EQ(test, sched_get_mode(), was);
}

static const struct kunit_case sched_pack_cases[] = {
	KUNIT_CASE(sched_pack_bad_settings_refused),
	KUNIT_CASE(sched_pack_light_threads_packed),
	KUNIT_CASE(sched_pack_cpu_bound_spill),
	KUNIT_CASE(sched_pack_hotplug_packed_cpu),
	{},
};

static const struct kunit_suite sched_pack_suite = {"sched_pack",
						    sched_pack_cases};
kunit_test_suite(sched_pack_suite);
