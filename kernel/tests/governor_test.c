/*
 * Tests of the hotplug governor, judged from its own trace and the online
 * mask: delays, floor, hysteresis, the CPU it picks, manual off/on, bad
 * input. Waits are for outcomes (a CPU count, a number of samples) with
 * generous timeouts; times are compared between trace timestamps, never
 * against a sleep, so a slow, loaded host does not fail them.
 */
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/governor.h>
#include <kernel/kunit.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <string.h>
#include "helpers.h"
#include <kernel/power.h>

#define WAIT_MS 30000 /* for an outcome; on a 3x slower host too */
#define MAX_LOAD 8
#define NS_PER_MS 1000000ULL

static struct gov_record trace[2048];

/* Wait up to WAIT_MS until the online count is n; true if it got there. */
static bool wait_online(unsigned int n)
{
	u64 deadline = ktime_get_ns() + WAIT_MS * NS_PER_MS;

	while (num_online_cpus() != n && ktime_get_ns() < deadline)
		msleep(5);
	return num_online_cpus() == n;
}

/* Wait until the governor has taken n more samples. */
static bool wait_samples(u64 n)
{
	u64 want = governor_samples() + n;
	u64 deadline = ktime_get_ns() + WAIT_MS * NS_PER_MS;

	while (governor_samples() < want && ktime_get_ns() < deadline)
		msleep(5);
	return governor_samples() >= want;
}

/* The governor stopped, nothing pinned, every CPU back. */
static void gov_cleanup(void)
{
	struct gov_tunables t;
	struct cpumask pinned;
	unsigned int cpu;

	gov_default_tunables(&t);
	governor_set(GOV_NONE, &t);
	governor_pinned_off(&pinned);
	for_each_cpu (cpu, &pinned)
		governor_manual_on(cpu);
	cpu_up_all();
}

/* Down to CPU 0 alone, by hand (not pinned). */
static void only_cpu0(void)
{
	for (int cpu = nr_cpu_ids - 1; cpu > 0; cpu--)
		if (cpu_online(cpu))
			cpu_down(cpu);
}

/* Quick tunables for tests: a short period, at most 4 CPUs. */
static void test_tunables(struct gov_tunables *t)
{
	gov_default_tunables(t);
	t->period_ms = 20;
	t->up_delay_ms = 100;
	t->down_delay_ms = 300;
	t->hysteresis_ms = 60;
	t->max_cpus = 4;
}

static unsigned int ceiling4(void)
{
	return min(cpumask_weight(cpu_present_mask), 4U);
}

/* CPU-bound load threads, stopped by a flag. */
struct load {
	volatile bool stop;
	unsigned int n;
	struct completion done;
};

static int spin(void *arg)
{
	struct load *l = arg;

	while (!l->stop)
		cond_resched();
	complete(&l->done);
	return 0;
}

static void load_start(struct load *l, unsigned int n)
{
	*l = (struct load){.n = n};
	init_completion(&l->done);
	for (unsigned int i = 0; i < n; i++)
		if (!kthread_run(spin, l, "gload/%u", i))
			l->n--;
}

static void load_stop(struct load *l)
{
	l->stop = true;
	for (unsigned int i = 0; i < l->n; i++)
		wait_for_completion(&l->done);
}

static bool is_sample(const struct gov_record *r)
{
	return r->event <= GOV_EV_DOWN_FAILED;
}

static bool is_change(const struct gov_record *r)
{
	return r->event >= GOV_EV_UP && r->event <= GOV_EV_DOWN_FAILED;
}

/*
 * The first `ev` (up or down) in the trace: did it come when the demand
 * for it had lasted `delay` by the samples' clocks, neither before, nor
 * a sample later than that? (The thread starts with no change behind it,
 * so hysteresis does not hold the first one back.)
 */
static void check_first_change(struct kunit *test, unsigned int n,
			       enum gov_event ev, u64 delay_ms)
{
	bool up = ev == GOV_EV_UP;
	unsigned int i, start;

	for (i = 0; i < n && trace[i].event != ev; i++)
		;
	if (!KUNIT_EXPECT_LT(test, i, n))
		return;
	start = i;
	while (start > 0 && is_sample(&trace[start - 1]) &&
	       (up ? trace[start - 1].want > trace[start - 1].online
		   : trace[start - 1].want < trace[start - 1].online))
		start--;
	kunit_info(test, "first %s %llu ms after the demand began (delay %llu)",
		   gov_event_name(ev),
		   (unsigned long long)((trace[i].t_ns - trace[start].t_ns) /
					NS_PER_MS),
		   (unsigned long long)delay_ms);
	KUNIT_EXPECT_GE(test, trace[i].t_ns - trace[start].t_ns,
			delay_ms * NS_PER_MS);
	for (unsigned int j = start; j < i; j++)
		KUNIT_EXPECT_LT(test, trace[j].t_ns - trace[start].t_ns,
				delay_ms * NS_PER_MS);
}

/* Any two changes at least hysteresis apart (their samples' times)? */
static unsigned int check_hysteresis(struct kunit *test, unsigned int n,
				     u64 hyst_ms)
{
	int prev = -1;
	unsigned int changes = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (!is_change(&trace[i]))
			continue;
		if (prev >= 0)
			KUNIT_EXPECT_GE(test, trace[i].t_ns - trace[prev].t_ns,
					hyst_ms * NS_PER_MS);
		prev = i;
		changes++;
	}
	return changes;
}

/*
 * From CPU 0 alone, CPU-bound threads appear: does the governor bring
 * CPUs up to its ceiling, the first one after exactly its up delay?
 */
static void governor_up_within_up_delay(struct kunit *test)
{
	struct gov_tunables t;
	struct load l;
	unsigned int n;
	u64 from;

	if (!have_cpus(test, 2))
		return;
	test_tunables(&t);
	only_cpu0();
	load_start(&l, ceiling4());
	from = gov_trace_next_seq();
	governor_set(GOV_RQDEPTH, &t);
	KUNIT_EXPECT_TRUE(test, wait_online(ceiling4()));
	load_stop(&l);
	governor_set(GOV_NONE, &t);
	n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
	check_first_change(test, n, GOV_EV_UP, t.up_delay_ms);
	gov_cleanup();
}

/*
 * All CPUs online and nothing to do: does the governor take them down,
 * the first after exactly its down delay, to the floor and never below?
 */
static void governor_down_within_down_delay_to_floor(struct kunit *test)
{
	struct gov_tunables t;
	unsigned int n;
	u64 from;

	if (!have_cpus(test, 3))
		return;
	test_tunables(&t);
	t.min_cpus = 2;
	from = gov_trace_next_seq();
	governor_set(GOV_RQDEPTH, &t);
	KUNIT_EXPECT_TRUE(test, wait_online(2));
	KUNIT_EXPECT_TRUE(test, wait_samples(10)); /* stays there? */
	KUNIT_EXPECT_EQ(test, num_online_cpus(), 2);
	governor_set(GOV_NONE, &t);
	n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
	check_first_change(test, n, GOV_EV_DOWN, t.down_delay_ms);
	for (unsigned int i = 0; i < n; i++)
		if (is_sample(&trace[i]) &&
		    !KUNIT_EXPECT_GE(test, trace[i].online, 2))
			break;
	gov_cleanup();
}

/*
 * The first down after this test's policy change (the trace's POLICY
 * record) came no sooner than delay_ms: the system was idle throughout,
 * so "want fewer" held from the governor's first sample on. Measured from
 * the policy record, not from samples: a record the previous run left
 * in the window cannot pass for this run's first. The thread may take
 * its first sample just before the record is written: one period of
 * slack.
 */
static void check_down_after_policy(struct kunit *test, unsigned int n,
				    u64 delay_ms, u64 period_ms)
{
	unsigned int p, i;

	for (p = 0; p < n && trace[p].event != GOV_EV_POLICY; p++)
		;
	if (!KUNIT_EXPECT_LT(test, p, n))
		return;
	for (i = p + 1; i < n && trace[i].event != GOV_EV_DOWN; i++)
		;
	if (!KUNIT_EXPECT_LT(test, i, n))
		return;
	kunit_info(test,
		   "first down %llu ms after the policy was set "
		   "(break-even %llu ms)",
		   (unsigned long long)((trace[i].t_ns - trace[p].t_ns) /
					NS_PER_MS),
		   (unsigned long long)delay_ms);
	KUNIT_EXPECT_GE(test,
			trace[i].t_ns - trace[p].t_ns + period_ms * NS_PER_MS,
			delay_ms * NS_PER_MS);
}

/*
 * The break-even rule: a down and an up cost 2 x the transition energy,
 * an off core saves (P(its idle state) - P(off)) and more (the terms:
 * governor_break_even_terms); the cost-aware
 * governor waits that long, whatever down_delay_ms says. Fixed figures:
 * 1000 uJ per operation against WFI at 30 mW and off at 1 mW is
 * 2000 / 29 = 68 ms; against a 2 mW deep state, 2000 ms.
 */
static void governor_cost_aware_waits_break_even(struct kunit *test)
{
	struct power_model saved = power_model;
	struct gov_tunables t;
	unsigned int n, be;
	u64 from;

	KUNIT_ASSERT_EQ(test, power_model_set("transition_uj=1000"), 0);
	power_model.wfi_mw = 30;
	power_model.off_mw = 1;
	power_model.idle_mw[2] = 2;
	/* No wake-up or cluster term: the states' power alone. */
	power_model.idle_uj[0] = power_model.idle_uj[2] = 0;
	power_model.cluster_down_mw = power_model.cluster_idle_mw;
	cpuidle_force_state(0);
	be = power_break_even_ms();
	KUNIT_EXPECT_EQ(test, be, 2000U / 29);
	if (cpuidle_state_count() > 2 && !cpuidle_get_state(2)->disabled) {
		cpuidle_force_state(2);
		KUNIT_EXPECT_EQ(test, power_break_even_ms(), 2000U);
	}
	/* Off saves nothing against a state as cheap as off: never. */
	power_model.wfi_mw = 1;
	cpuidle_force_state(0);
	KUNIT_EXPECT_EQ(test, power_break_even_ms(), 60000U);
	power_model.wfi_mw = 30;

	/* The governor: a break-even of 400 ms against a 50 ms delay. */
	if (have_cpus(test, 3)) {
		KUNIT_ASSERT_EQ(test, power_model_set("transition_uj=5800"), 0);
		be = power_break_even_ms();
		KUNIT_EXPECT_EQ(test, be, 400U);
		test_tunables(&t);
		t.down_delay_ms = 50;
		t.cost_aware = 1;
		t.min_cpus = nr_cpu_ids - 1;
		from = gov_trace_next_seq();
		governor_set(GOV_RQDEPTH, &t);
		KUNIT_EXPECT_TRUE(test, wait_online(nr_cpu_ids - 1));
		governor_set(GOV_NONE, &t);
		n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
		check_down_after_policy(test, n, be, t.period_ms);
		gov_cleanup();
	}
	cpuidle_force_state(-1);
	power_model = saved;
}

/*
 * Load comes and goes with no delays: are two changes never closer than
 * the hysteresis, by the governor's own timestamps?
 */
static void governor_changes_respect_hysteresis(struct kunit *test)
{
	struct gov_tunables t;
	struct load l;
	unsigned int n;
	u64 from;

	if (!have_cpus(test, 2))
		return;
	test_tunables(&t);
	t.up_delay_ms = t.down_delay_ms = 0;
	t.hysteresis_ms = 150;
	only_cpu0();
	from = gov_trace_next_seq();
	load_start(&l, ceiling4());
	governor_set(GOV_RQDEPTH, &t);
	KUNIT_EXPECT_TRUE(test, wait_online(ceiling4()));
	load_stop(&l);
	KUNIT_EXPECT_TRUE(test, wait_online(1));
	governor_set(GOV_NONE, &t);
	n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
	KUNIT_EXPECT_GE(test, check_hysteresis(test, n, t.hysteresis_ms),
			2 * (ceiling4() - 1));
	gov_cleanup();
}

/*
 * A thread bound to the highest CPU: does powersave take the others down
 * around it (highest first) and leave it online?
 */
static void governor_skips_cpu_with_bound_thread(struct kunit *test)
{
	unsigned int top = nr_cpu_ids - 1, threads = nr_threads();
	struct completion release;
	struct gov_tunables t;
	struct task_struct *b;
	unsigned int n;
	u64 from;

	if (!have_cpus(test, 3))
		return;
	test_tunables(&t);
	t.down_delay_ms = 0;
	t.max_cpus = 0;
	t.min_cpus = 2;
	init_completion(&release);
	b = kthread_create(wait_on, &release, "bound/%u", top);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kthread_bind(b, top);
	wake_up_process(b);
	from = gov_trace_next_seq();
	governor_set(GOV_POWERSAVE, &t);
	KUNIT_EXPECT_TRUE(test, wait_online(2));
	governor_set(GOV_NONE, &t);
	KUNIT_EXPECT_TRUE(test, cpu_online(top));
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
	n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
	for (unsigned int i = 0, last = top; i < n; i++) {
		if (trace[i].event != GOV_EV_DOWN)
			continue;
		KUNIT_EXPECT_NE(test, trace[i].cpu, top);
		KUNIT_EXPECT_LT(test, trace[i].cpu, last); /* highest first */
		last = trace[i].cpu;
	}
	complete(&release);
	KUNIT_EXPECT_TRUE(test, wait_threads_reaped(threads));
	gov_cleanup();
}

/* Did the governor never bring cpu up between a manual off and on? */
static void check_never_up_while_pinned(struct kunit *test, u64 from,
					unsigned int cpu)
{
	unsigned int n = gov_trace_read(from, trace, ARRAY_SIZE(trace));
	bool pinned = false;

	for (unsigned int i = 0; i < n; i++) {
		if (trace[i].cpu != (int)cpu)
			continue;
		if (trace[i].event == GOV_EV_MANUAL_OFF)
			pinned = true;
		else if (trace[i].event == GOV_EV_MANUAL_ON)
			pinned = false;
		else if (trace[i].event == GOV_EV_UP)
			KUNIT_EXPECT_FALSE(test, pinned);
	}
}

/*
 * Under performance (which wants every CPU), manual offs and ons of one
 * CPU: does a manual off hold (the governor never brings it back while
 * pinned, and runs the rest), do the masks agree, and does no operation
 * hang or fight?
 */
static void governor_manual_off_wins(struct kunit *test)
{
	unsigned int cpu = min(nr_cpu_ids - 1, 2U), present;
	struct gov_tunables t;
	struct cpumask pinned;
	u64 from;

	if (!have_cpus(test, 3))
		return;
	present = cpumask_weight(cpu_present_mask);
	test_tunables(&t);
	t.max_cpus = 0;
	t.up_delay_ms = 0;
	t.hysteresis_ms = 0;
	from = gov_trace_next_seq();
	governor_set(GOV_PERFORMANCE, &t);
	for (int round = 0; round < 10; round++) {
		if (!KUNIT_EXPECT_EQ(test, governor_manual_off(cpu), 0))
			break; /* not ASSERT: the governor must be stopped */
		KUNIT_EXPECT_TRUE(test, wait_samples(3));
		KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
		governor_pinned_off(&pinned);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(cpu, &pinned));
		KUNIT_EXPECT_TRUE(
			test, cpumask_equal(cpu_online_mask, cpu_active_mask));
		KUNIT_EXPECT_EQ(test, num_online_cpus(), present - 1);
		if (!KUNIT_EXPECT_EQ(test, governor_manual_on(cpu), 0))
			break;
		KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	}
	governor_set(GOV_NONE, &t);
	check_never_up_while_pinned(test, from, cpu);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), present);
	gov_cleanup();
}

/*
 * The governor changing CPUs every period (no delays, no hysteresis,
 * under load) while one CPU is taken off and on by hand: does every
 * manual off hold, every operation return, and the masks agree?
 */
static void governor_manual_ops_race_governor(struct kunit *test)
{
	struct gov_tunables t;
	struct load l;
	u64 from;

	if (!have_cpus(test, 3))
		return;
	test_tunables(&t);
	t.period_ms = 10;
	t.up_delay_ms = t.down_delay_ms = t.hysteresis_ms = 0;
	load_start(&l, 2);
	from = gov_trace_next_seq();
	governor_set(GOV_RQDEPTH, &t);
	for (int round = 0; round < 30; round++) {
		int err = governor_manual_off(1);

		/* The governor may have taken it down first. */
		KUNIT_EXPECT_TRUE(test, err == 0 || err == -EALREADY);
		KUNIT_EXPECT_TRUE(test, wait_samples(round % 3));
		KUNIT_EXPECT_FALSE(test, cpu_online(1));
		/* Not ASSERT: the governor and the load must be stopped. */
		if (!KUNIT_EXPECT_EQ(test, governor_manual_on(1), 0))
			break;
	}
	governor_set(GOV_NONE, &t);
	load_stop(&l);
	KUNIT_EXPECT_TRUE(test,
			  cpumask_equal(cpu_online_mask, cpu_active_mask));
	check_never_up_while_pinned(test, from, 1);
	gov_cleanup();
}

/* Are an unknown policy, an unknown key and bad values refused, with
 * nothing changed? */
static void governor_rejects_bad_input(struct kunit *test)
{
	static const char *const bad[] = {
		"up_delay_ms=abc", "bogus=1",  "period_ms=1",
		"up_util=101",	   "min_cpus", "cpus=",
	};
	struct gov_tunables t, before;
	enum gov_policy p, cur;
	char line[64];

	gov_default_tunables(&t);
	KUNIT_EXPECT_EQ(test, gov_policy_parse("turbo", &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, gov_policy_parse("rqdepth", &p), 0);
	KUNIT_EXPECT_EQ(test, p, GOV_RQDEPTH);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		before = t;
		KUNIT_EXPECT_EQ(test, gov_tunable_set(&t, bad[i]), -EINVAL);
		KUNIT_EXPECT_EQ(test, memcmp(&t, &before, sizeof(t)), 0);
	}
	KUNIT_EXPECT_EQ(test, gov_tunable_set(&t, "up_delay_ms=10"), 0);
	KUNIT_EXPECT_EQ(test, t.up_delay_ms, 10);
	/* Through the shell: the whole line or nothing. */
	governor_get(&cur, &before);
	strlcpy(line, "policy turbo", sizeof(line));
	KUNIT_EXPECT_LT(test, shell_run_line(line), 0);
	strlcpy(line, "policy load min_cpus=3 max_cpus=2", sizeof(line));
	KUNIT_EXPECT_LT(test, shell_run_line(line), 0);
	strlcpy(line, "policy load up_util=20 down_util=30", sizeof(line));
	KUNIT_EXPECT_LT(test, shell_run_line(line), 0);
	governor_get(&p, &t);
	KUNIT_EXPECT_EQ(test, p, cur);
	KUNIT_EXPECT_EQ(test, memcmp(&t, &before, sizeof(t)), 0);
}

/*
 * Schedutil's choice: the lowest OPP whose capacity covers util x 1.25.
 * Juno's A53 capacities (235 302 368 406 447): idle wants the lowest; a
 * CPU half busy at top speed wants 279 of capacity, so 302; 60 % wants
 * 335, so 368; 80 % or more wants all 447. Bad tables are refused.
 */
static void governor_opp_from_utilisation(struct kunit *test)
{
	static const unsigned int caps[] = {235, 302, 368, 406, 447};
	static const unsigned int down[] = {447, 235}, zero[] = {0, 235};
	unsigned int n = ARRAY_SIZE(caps);

	KUNIT_EXPECT_EQ(test, sugov_next_opp(0, caps, n), 0U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024 * 40 / 100, caps, n), 0U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024 / 2, caps, n), 1U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024 * 60 / 100, caps, n), 2U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024 * 70 / 100, caps, n), 3U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024 * 80 / 100, caps, n), 4U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024, caps, n), 4U);
	KUNIT_EXPECT_EQ(test, sugov_next_opp(1024, caps, 1), 0U);
	KUNIT_EXPECT_EQ(test, sched_cpufreq_set_opps(down, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_cpufreq_set_opps(zero, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_cpufreq_set_opps(caps, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_cpufreq_set_opps(caps, SCHED_OPP_MAX + 1),
			-EINVAL);
}

/*
 * A frame is due at the next release. Finished in time: no miss; late:
 * one; so late that a later release passed too: that frame is dropped,
 * one more miss, and the thread serves the release after it.
 */
static void governor_frame_deadline_misses(struct kunit *test)
{
	const u64 ms = 1000000, period = 16 * ms;
	u64 next;

	KUNIT_EXPECT_EQ(test, wl_frame_misses(0, period, 10 * ms, &next), 0U);
	KUNIT_EXPECT_EQ(test, next, period);
	KUNIT_EXPECT_EQ(test, wl_frame_misses(0, period, period, &next), 0U);
	KUNIT_EXPECT_EQ(test, wl_frame_misses(0, period, 20 * ms, &next), 1U);
	KUNIT_EXPECT_EQ(test, next, period);
	KUNIT_EXPECT_EQ(test, wl_frame_misses(0, period, 40 * ms, &next), 2U);
	KUNIT_EXPECT_EQ(test, next, 2 * period);
	KUNIT_EXPECT_EQ(test,
			wl_frame_misses(100 * ms, period, 200 * ms, &next), 6U);
	KUNIT_EXPECT_EQ(test, next, 100 * ms + 6 * period);
}

/*
 * The break-even terms, Juno's figures, 1000 uJ per operation: against
 * cpu-sleep (0 mW, like off) an off core saves nothing; its cluster's last
 * core, with the cluster unable to go down from idle, saves 56 - 17 mW:
 * 2000 / 39 = 51 ms; 100 wake-ups a second at 28 uJ each are 2.8 mW:
 * 714 ms alone, 47 ms with the cluster.
 */
static void governor_break_even_terms(struct kunit *test)
{
	struct power_break_even be = {
		.transition_uj = 1000,
		.state_mw = 0,
		.off_mw = 0,
		.entry_uj = 28,
		.cluster_idle_mw = 56,
		.cluster_down_mw = 17,
	};

	KUNIT_EXPECT_EQ(test, power_break_even_calc(&be), 60000U);
	be.cluster_term = true;
	KUNIT_EXPECT_EQ(test, power_break_even_calc(&be), 2000U / 39);
	be.rate_hz = 100;
	KUNIT_EXPECT_EQ(test, power_break_even_calc(&be), 2000000U / 41800);
	be.cluster_term = false;
	KUNIT_EXPECT_EQ(test, power_break_even_calc(&be), 2000000U / 2800);
	/* WFI at 6 mW against off at 0: 2000 / 6. */
	be = (struct power_break_even){.transition_uj = 1000, .state_mw = 6};
	KUNIT_EXPECT_EQ(test, power_break_even_calc(&be), 2000U / 6);
}

static const struct kunit_case governor_cases[] = {
	KUNIT_CASE(governor_rejects_bad_input),
	KUNIT_CASE(governor_up_within_up_delay),
	KUNIT_CASE(governor_down_within_down_delay_to_floor),
	KUNIT_CASE(governor_changes_respect_hysteresis),
	KUNIT_CASE(governor_skips_cpu_with_bound_thread),
	KUNIT_CASE(governor_manual_off_wins),
	KUNIT_CASE(governor_manual_ops_race_governor),
	KUNIT_CASE(governor_cost_aware_waits_break_even),
	KUNIT_CASE(governor_opp_from_utilisation),
	KUNIT_CASE(governor_frame_deadline_misses),
	KUNIT_CASE(governor_break_even_terms),
	{},
};

static const struct kunit_suite governor_suite = {"governor", governor_cases};
kunit_test_suite(governor_suite);
