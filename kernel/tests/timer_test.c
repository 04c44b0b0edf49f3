/*
 * Tests of time on the tick: the tick's rate against the counter,
 * jiffies, and kernel timers (one-shot, periodic, deleted, ordered, on
 * another CPU). Time passes in udelay() with IRQs on; every bound on
 * time is generous, because TCG runs the guest at an uneven pace.
 */
#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <string.h>

#define USEC_PER_SEC 1000000UL
#define TICK_WAIT_JIFFIES 20 /* how long the rate test measures */
#define TIMEOUT_US 2000000 /* give up on an event after 2 s */
#define PERIODIC_N 5
#define PERIODIC_PERIOD 2 /* jiffies */
#define ORDER_N 5
#define MAX_FIRINGS 16

static void wait_jiffies(u64 n)
{
	udelay(n * USEC_PER_SEC / HZ);
}

struct test_timer {
	struct timer_list timer;
	unsigned int fired;
	int cpu;
	bool in_irq;
	u64 at[MAX_FIRINGS]; /* jiffies of each firing */
	unsigned int stop_after; /* del_timer() itself at this firing */
	unsigned int id;
	unsigned int *order, *order_len; /* where to log the firing order */
};

static void test_timer_fn(struct timer_list *t)
{
	struct test_timer *tt = container_of(t, struct test_timer, timer);
	unsigned int n = tt->fired;

	if (n < MAX_FIRINGS)
		tt->at[n] = jiffies;
	tt->cpu = smp_processor_id();
	tt->in_irq = in_irq();
	if (tt->order)
		tt->order[(*tt->order_len)++] = tt->id;
	if (tt->stop_after && n + 1 == tt->stop_after)
		del_timer(t);
	WRITE_ONCE(tt->fired, n + 1);
}

static void test_timer_init(struct test_timer *tt)
{
	memset(tt, 0, sizeof(*tt));
	timer_setup(&tt->timer, test_timer_fn);
}

/* Skips the case unless this CPU's tick runs. */
static bool need_tick(struct kunit *test)
{
	unsigned int cpu = raw_smp_processor_id();
	u64 before = tick_count_cpu(cpu);

	/* Reading another CPU's count after a migration is harmless: any
	 * ticking CPU shows the tick works. A whole second, not a few
	 * ticks: a vCPU of a loaded host can miss several. */
	if (wait_for(tick_count_cpu(cpu) != before, USEC_PER_SEC))
		return true;
	kunit_skip(test, "the tick does not run");
	return false;
}

/* Do the jiffies conversions agree with HZ and with the counter? */
static void jiffies_conversions_agree(struct kunit *test)
{
	u64 j = jiffies, from_ns = nsecs_to_jiffies(ktime_get_ns());

	KUNIT_EXPECT_EQ(test, msecs_to_jiffies(MSEC_PER_SEC), HZ);
	KUNIT_EXPECT_GE(test, msecs_to_jiffies(1), 1);
	KUNIT_EXPECT_EQ(test, nsecs_to_jiffies(NSEC_PER_SEC), HZ);
	KUNIT_EXPECT_EQ(test, jiffies_to_nsecs(HZ), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, jiffies_to_nsecs(3 * HZ), 3 * NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, from_ns > j ? from_ns - j : j - from_ns, 1);
}

/* The number of jiffies the counter says lie between c0 and c1. */
static u64 counter_jiffies(u64 c0, u64 c1)
{
	u64 freq = arch_timer_get_freq(), d = c1 - c0;

	return d / freq * HZ + d % freq * HZ / freq;
}

/*
 * Does the tick advance tick_count_cpu and jiffies at HZ, by the counter?
 * A tick the host delivers late is skipped, not doubled, so a starved
 * guest sees fewer ticks than jiffies: only "never more" is exact.
 */
static void tick_advances_at_hz(struct kunit *test)
{
	u64 c0, c1, t0, t1, j0, j1, expected;
	unsigned int cpu;

	if (!need_tick(test))
		return;
	preempt_disable();
	cpu = smp_processor_id();
	c0 = arch_counter_get();
	t0 = tick_count_cpu(cpu);
	j0 = jiffies;
	wait_jiffies(TICK_WAIT_JIFFIES);
	/* A starved guest may have had none yet: give it time for one. */
	wait_for(tick_count_cpu(cpu) != t0, TIMEOUT_US);
	c1 = arch_counter_get();
	t1 = tick_count_cpu(cpu);
	j1 = jiffies;
	preempt_enable();

	expected = counter_jiffies(c0, c1);
	kunit_info(test,
		   "CPU%u, HZ=%u: %llu ticks, %llu jiffies, counter says %llu",
		   cpu, HZ, (unsigned long long)(t1 - t0),
		   (unsigned long long)(j1 - j0), (unsigned long long)expected);
	KUNIT_EXPECT_GE(test, expected, TICK_WAIT_JIFFIES);
	KUNIT_EXPECT_GE(test, j1 - j0, expected - 1);
	KUNIT_EXPECT_LE(test, j1 - j0, expected + 1);
	KUNIT_EXPECT_GE(test, t1 - t0, 1);
	KUNIT_EXPECT_LE(test, t1 - t0, expected + 2);
}

/* Is the next tick set for the start of the next jiffy, no later? */
static void tick_programmed_on_jiffy_boundary(struct kunit *test)
{
	u64 next, now, period = arch_timer_get_freq() / HZ;
	unsigned long flags;

	if (!need_tick(test))
		return;
	/* IRQs off: no tick moves `next` between the two reads. */
	local_irq_save(flags);
	next = tick_next_event(smp_processor_id());
	now = arch_counter_get();
	local_irq_restore(flags);

	/* A jiffy begins at next: the cycle before it is in the previous. */
	KUNIT_EXPECT_EQ(test, counter_jiffies(0, next),
			counter_jiffies(0, next - 1) + 1);
	/* At most one period ahead; it may be behind, its tick pending. */
	KUNIT_EXPECT_LE(test, next, now + period + 1);
}

/* Does a one-shot timer fire once, on this CPU, not before it expires? */
static void timer_one_shot_fires_once_here(struct kunit *test)
{
	static struct test_timer tt;
	unsigned int cpu;
	u64 expires;

	if (!need_tick(test))
		return;
	test_timer_init(&tt);
	preempt_disable();
	cpu = smp_processor_id();
	expires = jiffies + 2;
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, expires), 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&tt.timer));
	wait_for(READ_ONCE(tt.fired) >= 1, TIMEOUT_US);
	wait_jiffies(3);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, tt.fired, 1);
	KUNIT_EXPECT_EQ(test, tt.cpu, cpu);
	KUNIT_EXPECT_TRUE(test, tt.in_irq);
	KUNIT_EXPECT_GE(test, tt.at[0], expires);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 0);
}

/* Does a periodic timer fire N times, a period apart, until deleted? */
static void timer_periodic_fires_until_deleted(struct kunit *test)
{
	static struct test_timer tt;
	unsigned int n;
	u64 start;

	if (!need_tick(test))
		return;
	test_timer_init(&tt);
	start = jiffies;
	mod_timer_periodic(&tt.timer, PERIODIC_PERIOD);
	wait_for(READ_ONCE(tt.fired) >= PERIODIC_N, TIMEOUT_US);
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 1);
	n = READ_ONCE(tt.fired);
	wait_jiffies(3 * PERIODIC_PERIOD);

	KUNIT_EXPECT_GE(test, n, PERIODIC_N);
	KUNIT_EXPECT_EQ(test, tt.fired, n);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
	/* Firing i comes no earlier than i + 1 periods after arming. */
	for (unsigned int i = 0; i < min(n, (unsigned int)MAX_FIRINGS); i++)
		KUNIT_EXPECT_GE(test, tt.at[i],
				start + (i + 1) * PERIODIC_PERIOD);
}

/* Can a periodic timer stop itself with del_timer() from its callback? */
static void timer_periodic_stops_itself(struct kunit *test)
{
	static struct test_timer tt;

	if (!need_tick(test))
		return;
	test_timer_init(&tt);
	tt.stop_after = 3;
	mod_timer_periodic(&tt.timer, 1);
	wait_for(READ_ONCE(tt.fired) >= 3, TIMEOUT_US);
	wait_jiffies(4);

	KUNIT_EXPECT_EQ(test, tt.fired, 3);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
}

/* Does del_timer() disarm a pending timer so that it never fires? */
static void timer_del_stops_pending(struct kunit *test)
{
	static struct test_timer tt;

	if (!need_tick(test))
		return;
	test_timer_init(&tt);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, jiffies + 3), 0);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, jiffies + 3), 1);
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 1);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
	wait_jiffies(6);
	KUNIT_EXPECT_EQ(test, tt.fired, 0);
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 0);
	KUNIT_EXPECT_EQ(test, del_timer_sync(&tt.timer), 0);
}

/* Do timers fire in expiry order, equal expiries in arming order? */
static void timers_fire_in_expiry_order(struct kunit *test)
{
	static const unsigned int offset[ORDER_N] = {5, 2, 4, 2, 3};
	static const unsigned int want[ORDER_N] = {1, 3, 4, 2, 0};
	static struct test_timer tt[ORDER_N];
	static unsigned int order[ORDER_N], order_len;
	unsigned int i;
	u64 now;

	if (!need_tick(test))
		return;
	order_len = 0;
	/* IRQs off while arming: all in one go, against one jiffies. */
	local_irq_disable();
	now = jiffies;
	for (i = 0; i < ORDER_N; i++) {
		test_timer_init(&tt[i]);
		tt[i].id = i;
		tt[i].order = order;
		tt[i].order_len = &order_len;
		mod_timer(&tt[i].timer, now + offset[i]);
	}
	local_irq_enable();
	wait_for(READ_ONCE(order_len) >= ORDER_N, TIMEOUT_US);

	KUNIT_ASSERT_EQ(test, order_len, ORDER_N);
	for (i = 0; i < ORDER_N; i++)
		KUNIT_EXPECT_EQ(test, order[i], want[i]);
}

/* Does add_timer_on() run the timer on the CPU it names? */
static void timer_add_on_other_cpu(struct kunit *test)
{
	static struct test_timer tt;
	unsigned int me, target = NR_CPUS, cpu;

	if (!need_tick(test) || !have_cpus(test, 2))
		return;
	test_timer_init(&tt);
	preempt_disable();
	me = smp_processor_id();
	for_each_online_cpu (cpu)
		if (cpu != me)
			target = cpu;
	add_timer_on(&tt.timer, jiffies + 2, target);
	preempt_enable();
	wait_for(READ_ONCE(tt.fired) >= 1, TIMEOUT_US);

	KUNIT_EXPECT_EQ(test, tt.fired, 1);
	KUNIT_EXPECT_EQ(test, tt.cpu, target);
}

/* Does a timer for a CPU that is not running go to the caller instead? */
static void timer_add_on_offline_cpu_runs_here(struct kunit *test)
{
	static struct test_timer tt;
	unsigned int me, offline = NR_CPUS - 1;

	if (!need_tick(test))
		return;
	if (cpu_online(offline)) {
		kunit_skip(test, "every CPU is online");
		return;
	}
	test_timer_init(&tt);
	preempt_disable();
	me = smp_processor_id();
	add_timer_on(&tt.timer, jiffies + 1, offline);
	wait_for(READ_ONCE(tt.fired) >= 1, TIMEOUT_US);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, tt.fired, 1);
	KUNIT_EXPECT_EQ(test, tt.cpu, me);
}

static struct test_timer slow_tt;
static unsigned int slow_started, slow_finished;

static void slow_timer_fn(struct timer_list *t)
{
	WRITE_ONCE(slow_started, 1);
	udelay(USEC_PER_SEC / 20); /* long enough to be caught running */
	WRITE_ONCE(slow_finished, 1);
}

/* Does del_timer_sync() wait for a callback running on another CPU? */
static void timer_del_sync_waits_for_callback(struct kunit *test)
{
	unsigned int me, target = NR_CPUS, cpu;
	bool started, finished;

	if (!need_tick(test) || !have_cpus(test, 2))
		return;
	memset(&slow_tt, 0, sizeof(slow_tt));
	timer_setup(&slow_tt.timer, slow_timer_fn);
	slow_started = slow_finished = 0;
	preempt_disable();
	me = smp_processor_id();
	for_each_online_cpu (cpu)
		if (cpu != me)
			target = cpu;
	add_timer_on(&slow_tt.timer, jiffies + 1, target);
	started = wait_for(READ_ONCE(slow_started), TIMEOUT_US);
	del_timer_sync(&slow_tt.timer);
	finished = READ_ONCE(slow_finished);
	preempt_enable();

	KUNIT_EXPECT_TRUE(test, started);
	KUNIT_EXPECT_TRUE(test, finished);
}

static const struct kunit_case timer_cases[] = {
	KUNIT_CASE(jiffies_conversions_agree),
	KUNIT_CASE(tick_advances_at_hz),
	KUNIT_CASE(tick_programmed_on_jiffy_boundary),
	KUNIT_CASE(timer_one_shot_fires_once_here),
	KUNIT_CASE(timer_periodic_fires_until_deleted),
	KUNIT_CASE(timer_periodic_stops_itself),
	KUNIT_CASE(timer_del_stops_pending),
	KUNIT_CASE(timers_fire_in_expiry_order),
	KUNIT_CASE(timer_add_on_other_cpu),
	KUNIT_CASE(timer_add_on_offline_cpu_runs_here),
	KUNIT_CASE(timer_del_sync_waits_for_callback),
	{},
};

static const struct kunit_suite timer_suite = {"timer", timer_cases};
kunit_test_suite(timer_suite);
