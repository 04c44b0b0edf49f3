/*
 * The hotplug governor thread: every period it samples each CPU's average
 * run-queue depth and busy share, asks the policy how many CPUs should be
 * online, and moves one CPU at a time towards that, subject to the up and
 * down delays, the hysteresis, the floor, the ceiling and the CPUs pinned
 * off by hand. Every sample and every change goes into a trace ring that
 * the tests, `policy` and `make power` read.
 *
 * Who wins (docs/governor.md): a manual `off N` pins CPU N off until a
 * manual `on N`; the governor never brings a pinned CPU up and counts
 * around it. A manual `on N` unpins N and hands it back to the governor,
 * which may take it down again after its down delay. Governor actions and
 * manual ones are serialised by gov_action, so a pin can never be undone
 * by a decision taken before it; cpu_up()/cpu_down() serialise the rest.
 */
#define pr_fmt(fmt) "governor: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/mutex.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <kernel/power.h>

#define TRACE_LEN 4096 /* records kept: a whole make-power run per policy */

/* What the shell, the tests and the thread share; gov.lock guards it. */
static struct {
	spinlock_t lock;
	enum gov_policy policy;
	struct gov_tunables tun;
	bool reset; /* policy changed: the thread restarts its delays */
	struct cpumask pinned_off; /* manual offs */
	struct cpumask up_failed; /* skipped until a manual on */
	struct gov_record trace[TRACE_LEN];
	u64 next_seq;
	u64 samples;
	struct gov_record last;
} gov = {
	.lock = __SPIN_LOCK_UNLOCKED(
		gov.lock), /* tun: all zero until first read */
};

/* Held around a governor action and around a manual off/on (the pin and
 * the hotplug operation together). Lock order: gov_action, then the
 * hotplug lock inside cpu_up()/cpu_down(). */
static DEFINE_MUTEX(gov_action);
/* Serialises governor_set() (start and stop of the thread). */
static DEFINE_MUTEX(gov_ctl);
static struct task_struct *gov_task;
static bool gov_stopping;
static DECLARE_WAIT_QUEUE_HEAD(gov_wq);
static struct completion gov_exited;

/* The thread's own state: only gov_thread() touches it. */
struct gov_state {
	u64 prev_t;
	u64 up_since, down_since; /* when "want more/fewer" began; 0: not */
	u64 last_change; /* time of the last up or down (or failure) */
};

/* Each CPU's counters at the last sample: gov_thread()'s too. */
struct gov_prev {
	u64 busy, depth;
};
static DEFINE_CPU_ARRAY(struct gov_prev, gov_prev);

static void trace_add(struct gov_record *r)
{
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	r->seq = gov.next_seq++;
	gov.trace[r->seq % TRACE_LEN] = *r;
	if (r->event <= GOV_EV_DOWN_FAILED) {
		gov.samples++;
		gov.last = *r;
	}
	spin_unlock_irqrestore(&gov.lock, flags);
}

static void fill_mask(struct gov_record *r)
{
	r->mask = cpumask_bits(cpu_online_mask)[0];
	r->online = num_online_cpus();
}

/* An event outside the sampling (manual off/on, policy change). */
static void trace_event(enum gov_event ev, int cpu)
{
	struct gov_record r = {.t_ns = ktime_get_ns(), .cpu = cpu, .event = ev};
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	r.policy = gov.policy;
	r.depth = gov.last.depth;
	r.util = gov.last.util;
	r.want = gov.last.want;
	spin_unlock_irqrestore(&gov.lock, flags);
	fill_mask(&r);
	trace_add(&r);
}

/* Depth and busy share of every CPU since the last sample. */
static void sample(struct gov_state *st, struct gov_record *r)
{
	u64 now = ktime_get_ns(), dt = max(now - st->prev_t, 1ULL);
	struct sched_cpu_stats cs;

	r->t_ns = now;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		sched_cpu_stats(cpu, &cs);
		r->depth += (cs.depth_ns - gov_prev[cpu].depth) * 100 / dt;
		r->util += (cs.busy_ns - gov_prev[cpu].busy) * 100 / dt;
		gov_prev[cpu].depth = cs.depth_ns;
		gov_prev[cpu].busy = cs.busy_ns;
	}
	st->prev_t = now;
	fill_mask(r);
}

/* The CPU to bring up: the lowest offline one not pinned or failed. */
static int pick_up(void)
{
	unsigned int cpu;

	for_each_cpu (cpu, cpu_present_mask) {
		if (!cpu_online(cpu) &&
		    !cpumask_test_cpu(cpu, &gov.pinned_off) &&
		    !cpumask_test_cpu(cpu, &gov.up_failed))
			return cpu;
	}
	return -1;
}

/*
 * The CPU to take down: the highest-numbered online one that has no
 * bound thread (cpu_down() would refuse it), never the last online CPU.
 */
static int pick_down(void)
{
	if (num_online_cpus() <= 1)
		return -1;
	for (int cpu = nr_cpu_ids - 1; cpu >= 0; cpu--)
		if (cpu_online(cpu) && cpuhp_phase(cpu) == CPUHP_PHASE_ONLINE &&
		    !sched_cpu_has_bound_threads(cpu))
			return cpu;
	return -1;
}

/* One CPU up or down; the record gets the event and the new mask. */
static void act(struct gov_record *r, bool up)
{
	int cpu, err;

	mutex_lock(&gov_action);
	/* Re-checked under gov_action: a manual off may have just pinned. */
	cpu = up ? pick_up() : pick_down();
	if (cpu >= 0) {
		err = up ? cpu_up(cpu) : cpu_down(cpu);
		r->cpu = cpu;
		if (up)
			r->event = err ? GOV_EV_UP_FAILED : GOV_EV_UP;
		else
			r->event = err ? GOV_EV_DOWN_FAILED : GOV_EV_DOWN;
		if (up && err)
			cpumask_set_cpu(cpu, &gov.up_failed);
	}
	mutex_unlock(&gov_action);
	fill_mask(r);
}

/* How many CPUs the governor may have online: the ceiling, less pins.
 * Caller holds gov.lock. */
static unsigned int ceiling(const struct gov_tunables *t)
{
	unsigned int present = cpumask_weight(cpu_present_mask);
	unsigned int pinned = cpumask_weight(&gov.pinned_off);
	unsigned int n = pinned < present ? present - pinned : 1;

	lockdep_assert_held(&gov.lock);
	return t->max_cpus ? max(min(n, t->max_cpus), 1U) : n;
}

/* The time "want fewer" must hold: fixed, or the model's break-even. */
static u64 down_delay_ns(const struct gov_tunables *t)
{
	return (t->cost_aware ? power_break_even_ms() : t->down_delay_ms) *
	       1000000ULL;
}

/*
 * One period: sample, decide, maybe act. "Want more" must hold for
 * up_delay and "want fewer" for down_delay, both measured between
 * samples' timestamps; two changes are at least hysteresis apart.
 */
static void gov_step(struct gov_state *st)
{
	struct gov_record r = {.cpu = -1, .event = GOV_EV_SAMPLE};
	struct gov_tunables t;
	unsigned long flags;
	unsigned int hi, lo, want;
	bool reset;
	u64 now;

	spin_lock_irqsave(&gov.lock, flags);
	r.policy = gov.policy;
	t = gov.tun;
	reset = gov.reset;
	gov.reset = false;
	hi = ceiling(&t);
	spin_unlock_irqrestore(&gov.lock, flags);
	if (reset)
		st->up_since = st->down_since = 0;
	sample(st, &r);
	now = r.t_ns;
	lo = min(t.min_cpus, hi);
	want = clamp(gov_policy_want(r.policy, &t, &r, hi), lo, hi);
	r.want = want;
	if (want > r.online) {
		st->down_since = 0;
		st->up_since = st->up_since ?: now;
		if (now - st->up_since >= t.up_delay_ms * 1000000ULL &&
		    now - st->last_change >= t.hysteresis_ms * 1000000ULL)
			act(&r, true);
	} else if (want < r.online) {
		st->up_since = 0;
		st->down_since = st->down_since ?: now;
		if (now - st->down_since >= down_delay_ns(&t) &&
		    now - st->last_change >= t.hysteresis_ms * 1000000ULL)
			act(&r, false);
	} else {
		st->up_since = st->down_since = 0;
	}
	if (r.event != GOV_EV_SAMPLE)
		st->last_change = now;
	trace_gov_decision(r.cpu, r.event,
			   TRACE_GOV_X(r.policy, r.online, r.want));
	trace_add(&r);
}

static unsigned int period_ms(void)
{
	return READ_ONCE(gov.tun.period_ms);
}

/* Static: one governor thread at most (gov_ctl). */
static struct gov_state gov_state;

static int gov_thread(void *unused)
{
	struct gov_state *st = &gov_state;
	struct gov_record first = {0};

	*st = (struct gov_state){0};
	memset(gov_prev, 0, nr_cpu_ids * sizeof(*gov_prev));
	sample(st, &first); /* the baseline the first period is measured from */
	while (!READ_ONCE(gov_stopping)) {
		wait_event_timeout(gov_wq, READ_ONCE(gov_stopping),
				   msecs_to_jiffies(period_ms()));
		if (READ_ONCE(gov_stopping))
			break;
		gov_step(st);
	}
	complete(&gov_exited);
	return 0;
}

/* Start or stop the thread to match the policy. Caller holds gov_ctl. */
static void gov_thread_sync(enum gov_policy p)
{
	lockdep_assert_held(&gov_ctl);
	if (p == GOV_NONE && gov_task) {
		WRITE_ONCE(gov_stopping, true);
		wake_up(&gov_wq);
		wait_for_completion(&gov_exited);
		gov_task = NULL;
		WRITE_ONCE(gov_stopping, false);
	} else if (p != GOV_NONE && !gov_task) {
		init_completion(&gov_exited);
		gov_task = kthread_run(gov_thread, NULL, "governor");
		if (!gov_task)
			pr_err("cannot start the governor thread\n");
	} else {
		wake_up(&gov_wq); /* a new period applies at once */
	}
}

void governor_set(enum gov_policy p, const struct gov_tunables *t)
{
	unsigned long flags;

	mutex_lock(&gov_ctl);
	spin_lock_irqsave(&gov.lock, flags);
	gov.policy = p;
	gov.tun = *t;
	gov.reset = true;
	spin_unlock_irqrestore(&gov.lock, flags);
	trace_event(GOV_EV_POLICY, -1);
	gov_thread_sync(p);
	mutex_unlock(&gov_ctl);
}

void governor_get(enum gov_policy *p, struct gov_tunables *t)
{
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	if (!gov.tun.period_ms) /* never set: the defaults (policy.c) */
		gov_default_tunables(&gov.tun);
	*p = gov.policy;
	*t = gov.tun;
	spin_unlock_irqrestore(&gov.lock, flags);
}

static void set_pin(unsigned int cpu, bool pinned)
{
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	if (pinned)
		cpumask_set_cpu(cpu, &gov.pinned_off);
	else
		cpumask_clear_cpu(cpu, &gov.pinned_off);
	cpumask_clear_cpu(cpu, &gov.up_failed);
	spin_unlock_irqrestore(&gov.lock, flags);
}

/*
 * `off N`: pin N off, then take it down. A CPU that stays online (the
 * down was refused) is not left pinned; one already off stays pinned.
 */
int governor_manual_off(unsigned int cpu)
{
	int err;

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&gov_action);
	set_pin(cpu, true);
	err = cpu_down(cpu);
	if (err && cpu_online(cpu))
		set_pin(cpu, false);
	else
		trace_event(GOV_EV_MANUAL_OFF, cpu);
	mutex_unlock(&gov_action);
	return err;
}

/* `on N`: unpin N (the governor's again) and bring it up. */
int governor_manual_on(unsigned int cpu)
{
	int err;

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&gov_action);
	set_pin(cpu, false);
	err = cpu_up(cpu);
	if (!err)
		trace_event(GOV_EV_MANUAL_ON, cpu);
	mutex_unlock(&gov_action);
	return err;
}

void governor_pinned_off(struct cpumask *out)
{
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	cpumask_copy(out, &gov.pinned_off);
	spin_unlock_irqrestore(&gov.lock, flags);
}

unsigned int gov_trace_read(u64 from, struct gov_record *out, unsigned int n)
{
	unsigned long flags;
	unsigned int got = 0;

	spin_lock_irqsave(&gov.lock, flags);
	if (gov.next_seq > TRACE_LEN && from < gov.next_seq - TRACE_LEN)
		from = gov.next_seq - TRACE_LEN; /* older ones are gone */
	for (u64 s = from; s < gov.next_seq && got < n; s++)
		out[got++] = gov.trace[s % TRACE_LEN];
	spin_unlock_irqrestore(&gov.lock, flags);
	return got;
}

u64 gov_trace_next_seq(void)
{
	return READ_ONCE(gov.next_seq);
}

u64 governor_samples(void)
{
	return READ_ONCE(gov.samples);
}

void governor_last(struct gov_record *r)
{
	unsigned long flags;

	spin_lock_irqsave(&gov.lock, flags);
	*r = gov.last;
	spin_unlock_irqrestore(&gov.lock, flags);
}

/*
 * The trace as CSV on the console, for tools/power_plot.py:
 * gov-trace,LABEL,t_ms,policy,depth,util,online,want,mask,event,cpu
 * (t_ms from t0_ns; depth in threads, util in percent of one CPU).
 */
void gov_trace_dump(u64 from, const char *label, u64 t0_ns)
{
	static struct gov_record buf[64];
	unsigned int n;

	while ((n = gov_trace_read(from, buf, ARRAY_SIZE(buf)))) {
		for (unsigned int i = 0; i < n; i++) {
			struct gov_record *r = &buf[i];
			u64 t = r->t_ns > t0_ns ? r->t_ns - t0_ns : 0;

			printk(KERN_INFO
			       "gov-trace,%s,%llu,%s,%u.%02u,%u,%u,%u,%#llx,%s,"
			       "%d\n",
			       label, (unsigned long long)(t / 1000000),
			       gov_policy_name(r->policy), r->depth / 100,
			       r->depth % 100, r->util, r->online, r->want,
			       (unsigned long long)r->mask,
			       gov_event_name(r->event), r->cpu);
		}
		from = buf[n - 1].seq + 1;
	}
}
