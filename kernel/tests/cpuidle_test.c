/*
 * Tests of the idle states: the governor's choice on synthetic tables
 * (next event, latency limit, learnt early wake-ups, repeating idle
 * lengths), and, on the states the device tree offers, RCU grace periods
 * completing while CPUs sit in each state, timers firing across a state
 * that stops the local timer (the tick broadcast wakes the CPU), the
 * latency limit holding, and bad requests refused. The live cases skip
 * when the tree has no such state (qemu.sh gives virt a default table).
 */
#include <kernel/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/kunit.h>
#include <kernel/percpu.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>
#include "helpers.h"

#define US 1000ULL
#define MS 1000000ULL

/* WFI, then states paying off after 100 us, 1 ms and 10 ms. */
static const struct cpuidle_state table[] = {
	{"WFI", 1, 1, 1, 0, 0, false, 0},
	{"shallow", 10, 20, 100, 0, 1, false, 0},
	{"deep", 100, 200, 1000, 0, 2, false, 0},
	{"deepest", 1000, 2000, 10000, CPUIDLE_FLAG_TIMER_STOP, 3, false, 0},
};

static void cpuidle_governor_picks_by_next_event(struct kunit *test)
{
	struct cpuidle_state st[ARRAY_SIZE(table)];
	struct menu_device md;
	int n = ARRAY_SIZE(table);

	memcpy(st, table, sizeof(st));
	menu_device_init(&md);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * US, U32_MAX), 0);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 500 * US, U32_MAX), 1);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 5 * MS, U32_MAX), 2);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * MS, U32_MAX), 3);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, U64_MAX, U32_MAX), 3);
	/* The latency limit: never a state that wakes slower than it. */
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * MS, 1999), 2);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * MS, 199), 1);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * MS, 0), 0);
	/* A disabled state is skipped, not a stop for deeper ones. */
	st[2].disabled = true;
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 5 * MS, U32_MAX), 1);
	KUNIT_EXPECT_EQ(test, menu_select(st, n, &md, 50 * MS, U32_MAX), 3);
}

static void cpuidle_governor_learns(struct kunit *test)
{
	struct menu_device md;
	int n = ARRAY_SIZE(table);

	/* Woken at a tenth of the timer distance, again and again. */
	menu_device_init(&md);
	for (int i = 0; i < 40; i++) {
		menu_select(table, n, &md, 50 * MS, U32_MAX);
		menu_reflect(&md, 5 * MS + i * 10 * US);
	}
	kunit_info(test,
		   "after 40 wake-ups at 1/10 of 50 ms: correction %u/1024",
		   md.correction[md.bucket]);
	KUNIT_EXPECT_EQ(test, menu_select(table, n, &md, 50 * MS, U32_MAX), 2);
	/*
	 * Another range of distances has learnt nothing, but the idle
	 * lengths repeat (5 ms each): that caps the prediction.
	 */
	KUNIT_EXPECT_EQ(test, menu_select(table, n, &md, 500 * MS, U32_MAX), 2);

	/* A repeating 300 us idle length, far from any timer. */
	menu_device_init(&md);
	for (int i = 0; i < MENU_INTERVALS; i++) {
		menu_select(table, n, &md, 2000 * MS, U32_MAX);
		menu_reflect(&md, 300 * US + (i % 2) * 5 * US);
	}
	KUNIT_EXPECT_EQ(test, menu_select(table, n, &md, 2000 * MS, U32_MAX),
			1);
	/* Scattered lengths are no pattern: the timer decides. */
	menu_device_init(&md);
	for (int i = 0; i < MENU_INTERVALS; i++) {
		menu_select(table, n, &md, 2000 * MS, 0);
		menu_reflect(&md, (i % 2 ? 50 : 2000) * MS);
	}
	KUNIT_EXPECT_EQ(test, menu_select(table, n, &md, 20 * MS, U32_MAX), 3);
}

/* The deepest state the tree gave with (or without) flag, or -1. */
static int find_state(u32 flag, bool with)
{
	for (int i = cpuidle_state_count() - 1; i > 0; i--)
		if (!cpuidle_get_state(i)->disabled &&
		    !!(cpuidle_get_state(i)->flags & flag) == with)
			return i;
	return -1;
}

static u64 usage_all(int idx)
{
	struct cpuidle_state_usage u[CPUIDLE_STATE_MAX];
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu (cpu) {
		cpuidle_get_usage(cpu, u, cpuidle_state_count());
		sum += u[idx].usage;
	}
	return sum;
}

static void cpuidle_rcu_gp_in_every_state(struct kunit *test)
{
	int n = cpuidle_state_count();

	if (n < 2) {
		kunit_skip(test, "the device tree has no idle states");
		return;
	}
	for (int idx = 0; idx < n; idx++) {
		const struct cpuidle_state *s = cpuidle_get_state(idx);
		u64 before, t0;

		if (s->disabled)
			continue;
		/* The broadcast's host never enters such a state. */
		if (s->flags & CPUIDLE_FLAG_TIMER_STOP &&
		    num_online_cpus() < 2) {
			kunit_info(test,
				   "%s: skipped, stops the timer and "
				   "no other CPU can host the broadcast",
				   s->name);
			continue;
		}
		KUNIT_ASSERT_EQ(test, cpuidle_force_state(idx), 0);
		before = usage_all(idx);
		msleep(30); /* every other CPU idles in the state */
		t0 = ktime_get_ns();
		synchronize_rcu();
		synchronize_rcu_expedited();
		cpuidle_kick_all_sync(); /* each counts the stay it ends */
		kunit_info(test,
			   "%s: %llu entries; synchronize_rcu() and "
			   "its expedited form took %llu us",
			   s->name,
			   (unsigned long long)(usage_all(idx) - before),
			   (unsigned long long)(ktime_get_ns() - t0) / 1000);
		KUNIT_EXPECT_GT(test, usage_all(idx), before);
	}
	cpuidle_force_state(-1);
}

struct stop_timer {
	struct timer_list t;
	volatile u64 fired_at; /* jiffies, 0 until it fires */
	volatile int cpu;
};

static void stop_timer_fn(struct timer_list *t)
{
	struct stop_timer *st = container_of(t, struct stop_timer, t);

	st->cpu = smp_processor_id();
	st->fired_at = jiffies;
}

/*
 * A CPU forced into a state that stops its timer has a timer due: only
 * the broadcast can wake it in time (the kernel stops the timer as the
 * hardware would). Each of ROUNDS timers must fire on its CPU within a
 * few jiffies (a late vCPU may add some; never seconds), and the
 * broadcast must have woken it at least once.
 */
#define ROUNDS 10
#define DUE_JIFFIES 5

static void cpuidle_timer_across_timer_stop(struct kunit *test)
{
	int idx = find_state(CPUIDLE_FLAG_TIMER_STOP, true);
	unsigned int cpu, target = nr_cpu_ids, me;
	static struct stop_timer st;
	u64 wakeups, worst = 0;
	struct cpumask one;

	if (idx < 0) {
		kunit_skip(test, "no idle state stops the local timer");
		return;
	}
	if (!have_cpus(test, 3))
		return;
	me = raw_smp_processor_id();
	cpumask_clear(&one);
	cpumask_set_cpu(me, &one);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &one), 0);
	KUNIT_ASSERT_EQ(test, cpuidle_force_state(idx), 0);
	msleep(20); /* a broadcast host is elected */
	for_each_online_cpu (cpu)
		if (cpu != me && (int)cpu != tick_broadcast_host()) {
			target = cpu;
			break;
		}
	KUNIT_ASSERT_TRUE(test, target < nr_cpu_ids);
	wakeups = tick_broadcast_wakeups(target);
	for (int i = 0; i < ROUNDS; i++) {
		u64 due, deadline = ktime_get_ns() + 2000 * MS;

		timer_setup(&st.t, stop_timer_fn);
		st.fired_at = 0;
		st.cpu = -1;
		msleep(10); /* target idles deep meanwhile */
		due = jiffies + DUE_JIFFIES;
		add_timer_on(&st.t, due, target);
		while (!st.fired_at && ktime_get_ns() < deadline)
			msleep(1);
		if (!KUNIT_EXPECT_TRUE(test, st.fired_at)) {
			del_timer_sync(&st.t);
			break;
		}
		KUNIT_EXPECT_EQ(test, st.cpu, (int)target);
		worst = max(worst, st.fired_at - due);
	}
	kunit_info(
		test,
		"%s on CPU%u (host CPU%d): worst lateness %llu "
		"jiffies; %llu broadcast wake-ups",
		cpuidle_get_state(idx)->name, target, tick_broadcast_host(),
		(unsigned long long)worst,
		(unsigned long long)(tick_broadcast_wakeups(target) - wakeups));
	KUNIT_EXPECT_GT(test, tick_broadcast_wakeups(target), wakeups);
	cpuidle_force_state(-1);
	set_cpus_allowed(current, cpu_possible_mask);
}

/*
 * A power-down state that really loses the core's context: the
 * injection (fail.cpu_suspend=lose_context) makes QEMU's CPU_SUSPEND
 * behave as real firmware would, so every idle entry into it comes back
 * through cpu_resume. Grace periods, a timer on another CPU and
 * cross-CPU calls must all keep working; the injection's count shows the
 * entries that did lose their context.
 */
#define LOSE_BUDGET 100000

static void cpuidle_context_lost_in_deep_state(struct kunit *test)
{
	int idx = find_state(CPUIDLE_FLAG_POWERDOWN, true);
	char val[32];
	u64 left;

	if (idx < 0) {
		kunit_skip(test, "no power-down idle state");
		return;
	}
	if (!have_cpus(test, 2))
		return;
	snprintf(val, sizeof(val), "lose_context:%d", LOSE_BUDGET);
	KUNIT_ASSERT_EQ(test, fault_inject("cpu_suspend", val), 0);
	KUNIT_ASSERT_EQ(test, cpuidle_force_state(idx), 0);
	for (int i = 0; i < 5; i++) {
		msleep(20);
		synchronize_rcu();
		synchronize_rcu_expedited();
		cpuidle_kick_all_sync(); /* every CPU leaves its state */
	}
	cpuidle_force_state(-1);
	left = fault_times("cpu_suspend");
	fault_clear("cpu_suspend");
	kunit_info(test, "%s: %llu idle entries came back through cpu_resume",
		   cpuidle_get_state(idx)->name,
		   (unsigned long long)(LOSE_BUDGET - left));
	KUNIT_EXPECT_LT(test, left, (u64)LOSE_BUDGET);
}

static void cpuidle_latency_limit_holds(struct kunit *test)
{
	static struct cpu_latency_req req;
	int n = cpuidle_state_count();
	u64 before[CPUIDLE_STATE_MAX];
	u32 limit;

	if (n < 2) {
		kunit_skip(test, "the device tree has no idle states");
		return;
	}
	/* Just below the deepest state's exit latency. */
	limit = cpuidle_get_state(n - 1)->exit_latency_us - 1;
	cpu_latency_qos_add_request(&req, limit);
	KUNIT_EXPECT_EQ(test, cpu_latency_qos_limit(), limit);
	cpuidle_kick_all_sync(); /* out of any state entered before */
	for (int i = 0; i < n; i++)
		before[i] = usage_all(i);
	KUNIT_ASSERT_EQ(test, cpuidle_force_state(n - 1), 0);
	msleep(50);
	cpuidle_force_state(-1);
	msleep(50);
	for (int i = 0; i < n; i++)
		if (cpuidle_get_state(i)->exit_latency_us > limit)
			KUNIT_EXPECT_EQ(test, usage_all(i), before[i]);
	cpu_latency_qos_remove_request(&req);
	KUNIT_EXPECT_EQ(test, cpu_latency_qos_limit(), U32_MAX);
}

static void cpuidle_refuses_bad_requests(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cpuidle_force_state(CPUIDLE_STATE_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpuidle_force_state(-2), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpuidle_set_disabled(0, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpuidle_set_disabled(cpuidle_state_count(), true),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, cpuidle_get_state(0)->disabled);
	KUNIT_EXPECT_NULL(test, cpuidle_get_state(cpuidle_state_count()));
}

/* A CPU kept busy until stop: the cluster it is in cannot go down. */
struct spinner {
	volatile bool stop;
	volatile int ran_on; /* + 1 */
	struct completion done;
};

static int spinner_fn(void *p)
{
	struct spinner *sp = p;

	while (!sp->stop) {
		sp->ran_on = raw_smp_processor_id() + 1;
		udelay(100);
		cond_resched();
	}
	complete(&sp->done);
	return 0;
}

/* A cluster none of whose CPUs is me or the broadcast host; -1 if none. */
static int quiet_cluster(unsigned int me)
{
	int host = tick_broadcast_host();

	for (unsigned int c = 0; c < cpuidle_nr_clusters(); c++) {
		bool ok = true;
		unsigned int cpu;

		for_each_possible_cpu (cpu)
			if (cpuidle_cpu_cluster(cpu) == c &&
			    (cpu == me || (int)cpu == host || !cpu_online(cpu)))
				ok = false;
		if (ok)
			return c;
	}
	return -1;
}

/* The cluster state's entries, exits paying the cluster's part, exit
 * time: summed over cluster c's CPUs. */
struct cluster_exits {
	u64 usage, cluster_exits, exit_ns;
};

static void cluster_exits(unsigned int c, int idx, struct cluster_exits *ce)
{
	struct cpuidle_state_usage u[CPUIDLE_STATE_MAX];
	unsigned int cpu;

	*ce = (struct cluster_exits){0};
	for_each_possible_cpu (cpu)
		if (cpuidle_cpu_cluster(cpu) == c) {
			cpuidle_get_usage(cpu, u, idx + 1);
			ce->usage += u[idx].usage;
			ce->cluster_exits += u[idx].cluster_exits;
			ce->exit_ns += u[idx].exit_ns;
		}
}

/*
 * Between a and b: each emulated exit waited at least the CPU's part of
 * the state's exit latency, those that paid the cluster's part all of
 * it (lower bounds: a busy host only lengthens them).
 */
static void expect_exits_paid(struct kunit *test, int idx,
			      const struct cluster_exits *a,
			      const struct cluster_exits *b)
{
	const struct cpuidle_state *st = cpuidle_get_state(idx);
	u64 full = b->cluster_exits - a->cluster_exits;
	u64 part = b->usage - a->usage - full;

	if (!cpuidle_exit_emulated())
		return;
	KUNIT_EXPECT_GE(
		test, b->exit_ns - a->exit_ns,
		full * st->exit_latency_us * US +
			part * (st->exit_latency_us - st->cluster_exit_us) *
				US);
}

static u64 cluster_down_ns(unsigned int c, u64 *downs)
{
	struct cpuidle_cluster_stats st;

	cpuidle_cluster_stats(c, &st);
	*downs = st.downs;
	return st.down_ns;
}

/*
 * Does a cluster power down when, and only when, all its CPUs idle long
 * enough? With nothing to do for 300 ms, every CPU of a cluster that
 * neither runs this test nor hosts the tick broadcast enters the cluster
 * state and the cluster goes down; with one of its CPUs kept busy it
 * stays up for as long, though its other CPU still asks for the state
 * (platform-coordinated: the firmware waits for the last CPU). Where the
 * exits are emulated, only exits from a cluster that went down pay the
 * cluster's part: some in the first phase, none in the second.
 */
static void cpuidle_cluster_down_only_when_all_idle(struct kunit *test)
{
	int idx = find_state(CPUIDLE_FLAG_CLUSTER, true), c;
	unsigned int me, first = nr_cpu_ids, cpu;
	static struct spinner sp;
	struct cluster_exits e0, e1;
	struct task_struct *t;
	u64 d0, d1, n0, n1;
	struct cpumask one;

	if (idx < 0) {
		kunit_skip(test, "the tree offers no cluster idle state");
		return;
	}
	if (!have_cpus(test, 4))
		return;
	me = raw_smp_processor_id();
	cpumask_clear(&one);
	cpumask_set_cpu(me, &one);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &one), 0);
	msleep(20); /* a broadcast host is elected */
	c = quiet_cluster(me);
	if (c < 0) {
		kunit_skip(test, "every cluster has this test's CPU or the "
				 "broadcast host");
		goto out;
	}
	/* The kick brings every cluster up; counted from before it, the
	 * quiet cluster must have gone down again at least once. */
	cluster_down_ns(c, &n0);
	cpuidle_kick_all_sync();
	d0 = cluster_down_ns(c, &n1);
	cluster_exits(c, idx, &e0);
	msleep(300);
	cpuidle_kick_all_sync(); /* the stays going end, their exits paid */
	d1 = cluster_down_ns(c, &n1);
	cluster_exits(c, idx, &e1);
	kunit_info(test,
		   "cluster %d all idle: down %llu of 300 ms, %llu times; %llu "
		   "of %llu exits paid the cluster's part",
		   c, (unsigned long long)((d1 - d0) / MS),
		   (unsigned long long)(n1 - n0),
		   (unsigned long long)(e1.cluster_exits - e0.cluster_exits),
		   (unsigned long long)(e1.usage - e0.usage));
	KUNIT_EXPECT_GT(test, n1, n0);
	KUNIT_EXPECT_GT(test, d1 - d0, 100 * MS);
	if (cpuidle_exit_emulated())
		KUNIT_EXPECT_GT(test, e1.cluster_exits, e0.cluster_exits);
	expect_exits_paid(test, idx, &e0, &e1);

	for_each_possible_cpu (cpu)
		if (cpuidle_cpu_cluster(cpu) == (unsigned int)c) {
			first = cpu;
			break;
		}
	sp = (struct spinner){0};
	init_completion(&sp.done);
	t = kthread_create(spinner_fn, &sp, "spin/%u", first);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, first);
	wake_up_process(t);
	while (sp.ran_on != (int)first + 1)
		msleep(1);
	/* Stays begun before the spinner end now; those after, at the end. */
	cpuidle_kick_all_sync();
	d0 = cluster_down_ns(c, &n0);
	cluster_exits(c, idx, &e0);
	msleep(300);
	cpuidle_kick_all_sync();
	d1 = cluster_down_ns(c, &n1);
	cluster_exits(c, idx, &e1);
	sp.stop = true;
	wait_for_completion(&sp.done);
	kunit_info(test,
		   "cluster %d with CPU%u busy: down %llu ms, %llu times; %llu "
		   "cluster-state exits, %llu paid the cluster's part",
		   c, first, (unsigned long long)((d1 - d0) / MS),
		   (unsigned long long)(n1 - n0),
		   (unsigned long long)(e1.usage - e0.usage),
		   (unsigned long long)(e1.cluster_exits - e0.cluster_exits));
	KUNIT_EXPECT_EQ(test, n1, n0);
	KUNIT_EXPECT_EQ(test, d1, d0);
	KUNIT_EXPECT_GT(test, e1.usage, e0.usage); /* asked, not granted */
	KUNIT_EXPECT_EQ(test, e1.cluster_exits, e0.cluster_exits);
	expect_exits_paid(test, idx, &e0, &e1);
out:
	set_cpus_allowed(current, cpu_possible_mask);
}

/*
 * Does the emulated exit's wait sleep through an interrupt already
 * pending, as the one that woke an idle CPU is, and leave it pending?
 * With a reschedule IPI sent to this CPU, IRQs off: the wait lasts its
 * time in a few WFIs (a WFI ended by the pending IPI would make it a
 * spin of thousands), then the IPI is taken once IRQs are on, and the
 * timer that ended the wait never is.
 */
static void cpuidle_exit_wait_sleeps_through_pending_irq(struct kunit *test)
{
	unsigned int me;
	unsigned long flags;
	u64 ipis, t0, t1;
	int wfis;

	if (!cpuidle_exit_emulated()) {
		kunit_skip(test, "exits are not emulated here");
		return;
	}
	preempt_disable();
	me = smp_processor_id();
	ipis = kstat_irqs_cpu(IPI_RESCHEDULE, me);
	local_irq_save(flags);
	smp_send_reschedule(me);
	udelay(100); /* the SGI is pending at the interface */
	t0 = ktime_get_ns();
	wfis = arch_timer_wait_masked(2000);
	t1 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(IPI_RESCHEDULE, me), ipis);
	local_irq_restore(flags);
	udelay(100);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(IPI_RESCHEDULE, me), ipis + 1);
	preempt_enable();
	kunit_info(test, "waited %llu us in %d WFI(s)",
		   (unsigned long long)(t1 - t0) / 1000, wfis);
	KUNIT_EXPECT_GE(test, t1 - t0, 2000 * US);
	KUNIT_EXPECT_GE(test, wfis, 1);
	KUNIT_EXPECT_LE(test, wfis, 10);
}

/* Bad cluster settings are refused and change nothing. */
static void cpuidle_cluster_settings_refused(struct kunit *test)
{
	unsigned int nr = cpuidle_nr_clusters();
	bool on = cpuidle_cluster_idle();

	KUNIT_EXPECT_EQ(test, cpuidle_set_cluster_cpus(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpuidle_set_cluster_cpus(nr_cpu_ids + 1),
			-EINVAL);
	if (find_state(CPUIDLE_FLAG_CLUSTER, true) >= 0)
		KUNIT_EXPECT_EQ(test, cpuidle_set_cluster_cpus(1), -EBUSY);
	KUNIT_EXPECT_EQ(test, cpuidle_nr_clusters(), nr);
	KUNIT_EXPECT_EQ(test, cpuidle_cluster_idle(), on);
}

/* The test thread stays on the CPU it runs on. */
static void pin_to_self(void)
{
	struct cpumask here;

	cpumask_clear(&here);
	cpumask_set_cpu(raw_smp_processor_id(), &here);
	set_cpus_allowed(current, &here);
}

/*
 * Wait (2 s at most) until cluster c counts every CPU but me as idle or
 * off, as it must with nothing to do and CPUs left in WFI; and until its
 * CPUs in a cluster state or off are those off (WFI forced). True then.
 */
static bool cluster_counts_settle(unsigned int c, unsigned int me)
{
	struct cpuidle_cluster_stats st;
	unsigned int cpu, mine = 0, off = 0;

	for_each_possible_cpu (cpu)
		if (cpuidle_cpu_cluster(cpu) == c) {
			mine += cpu == me;
			off += !cpu_online(cpu); /* no down or up runs */
		}
	return wait_for((cpuidle_cluster_stats(c, &st),
			 st.idle_cpus == st.cpus - mine && st.down_cpus == off),
			2000000);
}

/* Every cluster's counts, as cluster_counts_settle(). */
static bool clusters_settle(struct kunit *test, unsigned int me)
{
	bool ok = true;

	for (unsigned int c = 0; c < cpuidle_nr_clusters(); c++)
		if (!cluster_counts_settle(c, me)) {
			struct cpuidle_cluster_stats st;

			cpuidle_cluster_stats(c, &st);
			kunit_info(test,
				   "cluster %u: %u CPUs, %u idle, %u down", c,
				   st.cpus, st.idle_cpus, st.down_cpus);
			ok = false;
		}
	return ok;
}

/*
 * CPUs are regrouped while they idle: does each cluster's count of idle
 * CPUs stay the CPUs it has (no CPU leaving idle takes one off a count
 * of its new cluster that it never added to)?
 */
static void cpuidle_regroup_keeps_counts(struct kunit *test)
{
	unsigned int me, size;

	if (!have_cpus(test, 3))
		return;
	size = DIV_ROUND_UP(nr_cpu_ids, cpuidle_nr_clusters());
	if (size * 2 > nr_cpu_ids) {
		kunit_skip(test, "%u CPUs: one cluster", nr_cpu_ids);
		return;
	}
	/* A regrouping stops every CPU: hundreds crawl (docs/scale.md). */
	if (nr_cpu_ids > 64) {
		kunit_skip(test, "stop_machine on %u CPUs", nr_cpu_ids);
		return;
	}
	if (cpuidle_set_cluster_cpus(size) == -EBUSY) {
		kunit_skip(test, "the device tree groups the CPUs");
		return;
	}
	pin_to_self();
	me = raw_smp_processor_id();
	cpuidle_force_state(0);
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	/* Twice the size, then back: CPUs idle meanwhile change cluster. */
	KUNIT_EXPECT_EQ(test, cpuidle_set_cluster_cpus(size * 2), 0);
	cpuidle_kick_all_sync(); /* each leaves the idle it was in */
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	KUNIT_EXPECT_EQ(test, cpuidle_set_cluster_cpus(size), 0);
	cpuidle_kick_all_sync();
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	cpuidle_force_state(-1);
	set_cpus_allowed(current, cpu_possible_mask);
}

/*
 * Does a CPU count as off (idle and down) in its cluster whenever it does
 * not run the kernel: never brought up (a boot with fail.cpu), taken
 * down, or left unconfirmed by the firmware; and no more once it is up?
 */
static void cpuidle_off_cpus_count_as_down(struct kunit *test)
{
	unsigned int me, last = nr_cpu_ids - 1;

	if (!have_cpus(test, 2))
		return;
	pin_to_self();
	me = raw_smp_processor_id();
	cpuidle_force_state(0); /* down counts only CPUs off */
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	if (!downs_allowed(test) || !psci_checkable() || last == me ||
	    !cpu_online(last))
		goto out;
	KUNIT_EXPECT_EQ(test, cpu_down(last), 0);
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	KUNIT_EXPECT_EQ(test, cpu_up(last), 0);
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	/* Never confirmed off: it left the kernel all the same. */
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_off", "forever"), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(last), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cpuhp_phase(last), CPUHP_PHASE_UNCONFIRMED);
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
	fault_clear("cpu_off");
	KUNIT_EXPECT_EQ(test, cpu_up(last), 0);
	KUNIT_EXPECT_TRUE(test, clusters_settle(test, me));
out:
	cpuidle_force_state(-1);
	set_cpus_allowed(current, cpu_possible_mask);
}

static const struct kunit_case cpuidle_cases[] = {
	KUNIT_CASE(cpuidle_governor_picks_by_next_event),
	KUNIT_CASE(cpuidle_governor_learns),
	KUNIT_CASE(cpuidle_rcu_gp_in_every_state),
	KUNIT_CASE(cpuidle_timer_across_timer_stop),
	KUNIT_CASE(cpuidle_context_lost_in_deep_state),
	KUNIT_CASE(cpuidle_latency_limit_holds),
	KUNIT_CASE(cpuidle_refuses_bad_requests),
	KUNIT_CASE(cpuidle_cluster_down_only_when_all_idle),
	KUNIT_CASE(cpuidle_cluster_settings_refused),
	KUNIT_CASE(cpuidle_exit_wait_sleeps_through_pending_irq),
	KUNIT_CASE(cpuidle_regroup_keeps_counts),
	KUNIT_CASE(cpuidle_off_cpus_count_as_down),
	{},
};

static const struct kunit_suite cpuidle_suite = {"cpuidle", cpuidle_cases};
kunit_test_suite(cpuidle_suite);
