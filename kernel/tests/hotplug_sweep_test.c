/*
 * The fault sweep: CPU hotplug after every failure the kernel can inject,
 * alone, on two CPUs and in pairs, under each of the four reader designs
 * with readers running, checked against the invariants a down and an up
 * must leave behind. Hand-picked timings found what the hand-written cases
 * missed; this walks the space.
 *
 * A combination is one or two fault events (sweep_events[]), one or two
 * target CPUs (each event on its own CPU: two stragglers at once, say)
 * and when a failed operation is retried: at once, or settled (after the
 * checks, which wait for a straggler to arrive and leave). Two events may
 * be on the same fault point: on two CPUs, or on one if the point takes
 * both values at once.
 * It runs twice: armed for a down of its CPUs (up events then fire only
 * in the down's way back), and armed for an up (down events then fire
 * only in the up's rollback). After the operations every fault is
 * disarmed and the invariants are checked; a failed operation is
 * retried, and must then succeed (a retry at once may find the CPU still
 * on from the armed attempt, -EBUSY: tried again once it had its time);
 * then every CPU but the boot CPU goes down and up once. Readers of the
 * online mask run all along, under the design's lock and under RCU, and
 * check each CPU they see by a claim on its area's generation tag.
 * The invariants (check_cpus()):
 *   - the phase agrees with the masks and with the firmware (PSCI
 *     AFFINITY_INFO, or the kernel's pen): online means online, active,
 *     ON and answering a call; off means neither bit, no area, and OFF
 *     (in the pen) once a late CPU had its time to park; no CPU is left
 *     between steps;
 *   - a CPU that answers runs on its own live area and stack: its own
 *     per-CPU offset, the area's CPU number (its ownership tag), the
 *     stack end magic of its thread;
 *   - no area of a CPU that is off is still published;
 *   - no thread is queued on an inactive CPU;
 *   - no cpu_up()/cpu_down() in progress, no design's lock held;
 *   - no reader saw an online CPU whose area is not its own;
 *   - a grace period ends, and after it the kmalloc objects are as many
 *     as before the combination (nothing leaked, nothing freed twice).
 *
 * Timeouts are short (hotplug.timeout_ms = SWEEP_TIMEOUT_MS) and each
 * injected delay straddles them; the invariants hold on either side, so a
 * busy host changes which side a combination lands on, not its verdict.
 *
 * sweep=full runs every single event, every event on two CPUs at once,
 * and every pair of events (one CPU, and two), under each design;
 * sweep=N, the sample, each single and each double under one design in
 * turn, and N random pairs per design (sweep.seed=S repeats a draw; the
 * seed is printed);
 * sweep.design=NAME runs one design only. Without sweep= the suite skips:
 * it is too long for every test=all boot. `make sweep` runs it all.
 */
#include <asm/arch_timer.h>
#include <asm/percpu.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/cpuhp.h>
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/kunit.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/task.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <stdarg.h>
#include <string.h>
#include "helpers.h"
#include "hotplug_check.h"

#define SWEEP_TIMEOUT_MS 200

static char sweep_word[16];
param_string("sweep", sweep_word,
	     "full|N: test=hotplug_sweep runs every fault pair, or every "
	     "single and N random pairs per design");
static unsigned long sweep_seed;
param_ulong("sweep.seed", sweep_seed, 1, 0xffffffffUL,
	    "S: the fault sweep's random draw (default: from the clock)");
static char sweep_design[16];
param_string("sweep.design", sweep_design,
	     "rwlock|percpu_rwsem|stop_machine|rcu: sweep one design only");

struct sweep_event {
	const char *name;
	const char *point; /* the fault point it arms */
	const char *value; /* its value; "%u" stands for the target CPU */
	bool psci; /* needs firmware answers: PSCI, CPUs not in the pen */
};

#define EV(_name, _point, _value)            \
	{                                    \
		_name, _point, _value, false \
	}
#define FW(_name, _point, _value)           \
	{                                   \
		_name, _point, _value, true \
	}

/* T = SWEEP_TIMEOUT_MS: "before" is T/2, "after" 2T. */
static const struct sweep_event sweep_events[] = {
	EV("up_step:percpu:area", "up_step", "percpu:area"),
	EV("up_step:sched:idle", "up_step", "sched:idle"),
	EV("up_step:rcu:thread", "up_step", "rcu:thread"),
	EV("up_step:cpu:bringup", "up_step", "cpu:bringup"),
	EV("up_step:sched:active", "up_step", "sched:active"),
	EV("up_step:kthreads:park", "up_step", "kthreads:park"),
	EV("up_step:cpu:online", "up_step", "cpu:online"),
	EV("alloc_up:1", "alloc_up", "1"),
	EV("alloc_up:2", "alloc_up", "2"),
	EV("alloc_up:3", "alloc_up", "3"),
	FW("cpu_on:DENIED", "cpu_on", "%u:DENIED"),
	FW("cpu_on:ALREADY_ON", "cpu_on", "%u:ALREADY_ON"),
	FW("cpu_on:ON_PENDING", "cpu_on", "%u:ON_PENDING"),
	FW("cpu_on:INTERNAL_FAILURE", "cpu_on", "%u:INTERNAL_FAILURE"),
	FW("cpu_on:INVALID_ADDRESS", "cpu_on", "%u:INVALID_ADDRESS"),
	FW("cpu_on:slow_ALREADY_ON", "cpu_on", "%u:ALREADY_ON:300"),
	EV("cpu_late:before", "cpu_late", "%u:100"),
	EV("cpu_late:after", "cpu_late", "%u:400"),
	EV("cpu_late:claimed", "cpu_late", "%u:400:claimed"),
	EV("down_step:cpu:online", "down_step", "cpu:online"),
	EV("down_step:kthreads:park", "down_step", "kthreads:park"),
	EV("down_step:sched:active", "down_step", "sched:active"),
	EV("down_step:rcu:sync", "down_step", "rcu:sync"),
	EV("down_step:sched:drain", "down_step", "sched:drain"),
	EV("down_step:cpu:teardown", "down_step", "cpu:teardown"),
	EV("sched_drain:timeout", "sched_drain", "1"),
	FW("cpu_off:slow", "cpu_off", "20"),
	FW("cpu_off:never", "cpu_off", "forever"),
	EV("cpu_die_late:before", "cpu_die_late", "%u:100"),
	EV("cpu_die_late:after", "cpu_die_late", "%u:400"),
	EV("cpu_die_late:claimed", "cpu_die_late", "%u:400:claimed"),
	EV("rcu_exp:miss_ipi", "rcu_exp", "miss_ipi"),
	EV("cpu_suspend:lose_context", "cpu_suspend", "lose_context"),
};
#define NR_EVENTS ARRAY_SIZE(sweep_events)

/*
 * When a failed operation is retried: at once (a late CPU may still be
 * on its way, its slot or the borrowed stack not yet taken), or settled:
 * after the checks, which wait until each CPU that is off by its phase is
 * off for the firmware too (a late CPU has arrived and left).
 */
enum retry_when { RETRY_AT_ONCE, RETRY_SETTLED, NR_RETRY };
static const char *const retry_name[] = {"at once", "settled"};

struct combo {
	const struct sweep_event *ev[2];
	unsigned int n; /* events */
	unsigned int cpu[2]; /* ev[i] is on cpu[i] */
	unsigned int ncpus; /* CPUs operated on: cpu[0], and cpu[1] if 2 */
	enum retry_when retry;
	bool staged; /* same point, one value each: ev[1] for cpu[1]'s op */
};

/* Readers of the online mask, running through a design's sweep. */
struct sweep_reader {
	volatile bool stop;
	bool design_lock; /* cpus_read_lock(), else rcu_read_lock() */
	volatile u64 walks, bad;
	struct percpu_claim *seen; /* kept through a section, read again */
	unsigned int *seen_cpu; /* whose area each is */
	struct completion done;
};

#define NR_READERS 2

struct sweep {
	struct kunit *test;
	enum hotplug_sync design;
	unsigned int combos, violations;
	struct sweep_reader readers[NR_READERS];
	char label[128]; /* the combination being run, for each report */
};

/* One violated invariant: the combination, where, what. */
__printf(3, 4) static void violated(struct sweep *sw, const char *when,
				    const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sw->violations++;
	kunit_fail(sw->test, __FILE__, __LINE__, "%s: %s: %s", sw->label, when,
		   what);
}

static bool event_usable(const struct sweep_event *e)
{
	return !e->psci || psci_checkable();
}

static void event_value(const struct sweep_event *e, unsigned int cpu,
			char *val, size_t len)
{
	snprintf(val, len, e->value, cpu);
}

static void arm_value(struct sweep *sw, const char *point, const char *val)
{
	if (fault_inject(point, val))
		violated(sw, "arming", "fail.%s=%s refused", point, val);
}

/*
 * Two events on one point go in as one value, both items, if the point
 * takes that ("2:400,3:400"); c->staged if not. False if they cannot.
 */
static bool combo_compose(struct combo *c, char *val, size_t len)
{
	char a[48], b[48];
	long times;

	c->staged = false;
	if (c->n < 2 || strcmp(c->ev[0]->point, c->ev[1]->point))
		return true;
	event_value(c->ev[0], c->cpu[0], a, sizeof(a));
	event_value(c->ev[1], c->cpu[1], b, sizeof(b));
	snprintf(val, len, "%s,%s", a, b);
	if (!fault_check(c->ev[0]->point, val, &times))
		return true;
	/* One value at a time: the second for the second CPU's op. */
	c->staged = c->ncpus == 2;
	return c->staged;
}

/* Arm the combination before its first operation. */
static void arm_combo(struct sweep *sw, struct combo *c)
{
	char val[112];

	if (c->n == 2 && !strcmp(c->ev[0]->point, c->ev[1]->point) &&
	    !c->staged) {
		combo_compose(c, val, sizeof(val));
		arm_value(sw, c->ev[0]->point, val);
		return;
	}
	for (unsigned int i = 0; i < c->n; i++) {
		if (i == 1 && c->staged)
			break;
		event_value(c->ev[i], c->cpu[i], val, sizeof(val));
		arm_value(sw, c->ev[i]->point, val);
	}
}

/* Before the operation on the combination's CPU k. */
static void arm_for(struct sweep *sw, struct combo *c, unsigned int k)
{
	char val[48];

	if (k != 1 || !c->staged)
		return;
	event_value(c->ev[1], c->cpu[1], val, sizeof(val));
	arm_value(sw, c->ev[1]->point, val);
}

static void disarm_all(void)
{
	for (unsigned int i = 0; i < NR_EVENTS; i++)
		fault_clear(sweep_events[i].point);
}

/* One violated invariant of hotplug_check_cpus(). */
__printf(2, 3) static void sweep_violated(void *p, const char *fmt, ...)
{
	struct sweep *sw = p;
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sw->violations++;
	kunit_fail(sw->test, __FILE__, __LINE__, "%s: %s", sw->label, what);
}

static void check_cpus(struct sweep *sw, const char *when)
{
	hotplug_check_cpus(sweep_violated, sw, when);
}

/* An operation that must work now (a retry, or the plain one between
 * the two armed ones), and the checks after it. */
static void must_work(struct sweep *sw, const char *what, unsigned int cpu,
		      bool down)
{
	int err = down ? cpu_down(cpu) : cpu_up(cpu);

	if (err)
		violated(sw, what, "CPU%u: %d", cpu, err);
	check_cpus(sw, what);
}

/*
 * The retry of a failed operation on cpu. An up retried at once may find
 * the CPU still on from the armed attempt (-EBUSY, said by the kernel):
 * then once more after it had its time to arrive and leave.
 */
static void retry(struct sweep *sw, const char *what, unsigned int cpu,
		  bool down)
{
	int err = down ? cpu_down(cpu) : cpu_up(cpu);

	if (err == -EBUSY && !down) {
		hotplug_cpu_settled_off(cpu);
		err = cpu_up(cpu);
	}
	if (err)
		violated(sw, what, "CPU%u: %d", cpu, err);
}

/*
 * Retry each operation that failed and left its CPU as it was (online
 * after a down, off after an up): at once, then the checks; or settled,
 * the checks first.
 */
static void retry_failed(struct sweep *sw, const struct combo *c,
			 const int *err, bool down, const char *when)
{
	bool any = false;

	for (unsigned int k = 0; k < c->ncpus; k++)
		any |= err[k] && cpu_online(c->cpu[k]) == down;
	if (c->retry == RETRY_SETTLED || !any)
		check_cpus(sw, when);
	if (!any)
		return;
	for (unsigned int k = 0; k < c->ncpus; k++)
		if (err[k] && cpu_online(c->cpu[k]) == down)
			retry(sw, down ? "the retried down" : "the retried up",
			      c->cpu[k], down);
	check_cpus(sw,
		   down ? "after the retried down" : "after the retried up");
}

/*
 * The downs with the events armed (up events fire only in their way
 * back): the checks; a retry of each that failed; then the CPUs up again.
 */
static void armed_down(struct sweep *sw, struct combo *c)
{
	int err[2] = {0, 0};

	arm_combo(sw, c);
	for (unsigned int k = 0; k < c->ncpus; k++) {
		arm_for(sw, c, k);
		err[k] = cpu_down(c->cpu[k]);
	}
	disarm_all();
	retry_failed(sw, c, err, true, "after the armed down");
	for (unsigned int k = 0; k < c->ncpus; k++)
		must_work(sw, "the up after the armed down", c->cpu[k], false);
}

/* The ups with the events armed (down events fire only in rollbacks). */
static void armed_up(struct sweep *sw, struct combo *c)
{
	int err[2] = {0, 0};

	for (unsigned int k = 0; k < c->ncpus; k++)
		must_work(sw, "the down before the armed up", c->cpu[k], true);
	arm_combo(sw, c);
	for (unsigned int k = 0; k < c->ncpus; k++) {
		arm_for(sw, c, k);
		err[k] = cpu_up(c->cpu[k]);
	}
	disarm_all();
	retry_failed(sw, c, err, false, "after the armed up");
}

/* Every CPU but the boot CPU down and up once: the house is in order. */
static void plain_cycles(struct sweep *sw)
{
	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++) {
		int d = cpu_down(cpu), u = cpu_up(cpu);

		if (d || u)
			violated(sw, "in the plain cycles",
				 "CPU%u down %d "
				 "up %d",
				 cpu, d, u);
	}
}

static u64 readers_bad(struct sweep *sw)
{
	u64 bad = 0;

	for (unsigned int i = 0; i < NR_READERS; i++)
		bad += sw->readers[i].bad;
	return bad;
}

static void run_combo(struct sweep *sw, struct combo *c)
{
	struct mem_stats before, after;
	u64 bad = readers_bad(sw);
	int len;

	len = snprintf(sw->label, sizeof(sw->label), "%s CPU%u",
		       hotplug_sync_name(sw->design), c->cpu[0]);
	if (c->ncpus == 2)
		len += snprintf(sw->label + len, sizeof(sw->label) - len,
				"+CPU%u", c->cpu[1]);
	snprintf(sw->label + len, sizeof(sw->label) - len, " %s%s%s, retry %s",
		 c->ev[0]->name, c->n == 2 ? " + " : "",
		 c->n == 2 ? c->ev[1]->name : "", retry_name[c->retry]);
	sw->combos++;
	mem_get_stats_drained(&before);
	armed_down(sw, c);
	armed_up(sw, c);
	plain_cycles(sw);
	mem_get_stats_drained(&after); /* a grace period ends */
	if (after.kmalloc_objects != before.kmalloc_objects)
		violated(sw, "at the end", "kmalloc objects %llu, %llu before",
			 (unsigned long long)after.kmalloc_objects,
			 (unsigned long long)before.kmalloc_objects);
	if (readers_bad(sw) != bad)
		violated(sw, "a reader",
			 "%llu read(s) of an online CPU's area not its own",
			 (unsigned long long)(readers_bad(sw) - bad));
}

/* The CPU after cpu among 1 .. nr_cpu_ids - 1 (the boot CPU stays). */
static unsigned int next_cpu(unsigned int cpu)
{
	return cpu % (nr_cpu_ids - 1) + 1;
}

/*
 * Fill c: events a (on cpu) and b (or NULL; on cpu, or on the next CPU
 * if ncpus is 2). False if the combination cannot be run: an event
 * needs PSCI, one event twice on one CPU, or two values on one point
 * that takes one and only one CPU to put them on.
 */
static bool combo_make(struct combo *c, const struct sweep_event *a,
		       const struct sweep_event *b, unsigned int cpu,
		       unsigned int ncpus, enum retry_when retry)
{
	char val[112];

	*c = (struct combo){.ev = {a, b},
			    .n = b ? 2 : 1,
			    .cpu = {cpu, ncpus == 2 ? next_cpu(cpu) : cpu},
			    .ncpus = nr_cpu_ids > 2 ? ncpus : 1,
			    .retry = retry};
	if (c->ncpus == 1)
		c->cpu[1] = cpu;
	if (!event_usable(a) || (b && !event_usable(b)))
		return false;
	if (b && a == b && c->ncpus == 1)
		return false;
	return combo_compose(c, val, sizeof(val));
}

/* Every pair (full), or `pairs` drawn from the seed; one CPU or two. */
static void run_pairs(struct sweep *sw, bool full, unsigned long pairs,
		      u32 *seed, unsigned int *cpu)
{
	struct combo c;
	unsigned int r = 0;

	if (full) {
		for (unsigned int i = 0; i < NR_EVENTS; i++)
			for (unsigned int j = i + 1; j < NR_EVENTS; j++)
				for (unsigned int n = 1; n <= 2; n++) {
					r = (r + 1) % NR_RETRY;
					if (!combo_make(&c, &sweep_events[i],
							&sweep_events[j], *cpu,
							n, r))
						continue;
					run_combo(sw, &c);
					*cpu = next_cpu(*cpu);
				}
		return;
	}
	for (unsigned long k = 0; k < pairs;) {
		const struct sweep_event *a, *b;
		unsigned int n;

		a = &sweep_events[xorshift32(seed) % NR_EVENTS];
		b = &sweep_events[xorshift32(seed) % NR_EVENTS];
		n = 1 + xorshift32(seed) % 2;
		r = xorshift32(seed) % NR_RETRY;
		if (!combo_make(&c, a, b, *cpu, n, r))
			continue;
		run_combo(sw, &c);
		*cpu = next_cpu(*cpu);
		k++;
	}
}

/*
 * A reader of the online mask: each CPU it sees online must have its own
 * area (the area's CPU number, which an area freed, poisoned or reused
 * for another CPU does not hold), read again through the kept pointers
 * after lingering, still inside the section.
 */
static int sweep_reader_fn(void *p)
{
	struct sweep_reader *r = p;
	unsigned int cpu, n;
	int cookie = 0;

	while (!r->stop) {
		n = 0;
		if (r->design_lock)
			cookie = cpus_read_lock();
		else
			rcu_read_lock();
		for_each_online_cpu (cpu) {
			if (n == nr_cpu_ids)
				break;
			r->seen[n] = percpu_claim(cpu);
			r->seen_cpu[n] = cpu;
			r->bad += !percpu_claim_valid(&r->seen[n], cpu);
			n++;
		}
		udelay(ktime_get_ns() %
		       200); /* now and then past a down's start */
		while (n--)
			r->bad += !percpu_claim_valid(&r->seen[n],
						      r->seen_cpu[n]);
		if (r->design_lock)
			cpus_read_unlock(cookie);
		else
			rcu_read_unlock();
		r->walks++;
		msleep(1);
	}
	complete(&r->done);
	return 0;
}

static bool readers_start(struct sweep *sw)
{
	for (unsigned int i = 0; i < NR_READERS; i++) {
		struct sweep_reader *r = &sw->readers[i];
		struct task_struct *t;

		r->design_lock = i % 2 == 0;
		r->seen = kunit_kcalloc(sw->test, nr_cpu_ids, sizeof(*r->seen));
		r->seen_cpu = kunit_kcalloc(sw->test, nr_cpu_ids,
					    sizeof(*r->seen_cpu));
		init_completion(&r->done);
		t = r->seen && r->seen_cpu ? kthread_create(sweep_reader_fn, r,
							    "sweeprd/%u", i)
					   : NULL;
		if (!t) {
			kunit_fail(sw->test, __FILE__, __LINE__,
				   "no reader thread");
			while (i--) {
				sw->readers[i].stop = true;
				wait_for_completion(&sw->readers[i].done);
			}
			return false;
		}
		wake_up_process(t);
	}
	return true;
}

/* Stop them; each must have walked the mask. */
static void readers_stop(struct sweep *sw)
{
	for (unsigned int i = 0; i < NR_READERS; i++)
		sw->readers[i].stop = true;
	for (unsigned int i = 0; i < NR_READERS; i++) {
		wait_for_completion(&sw->readers[i].done);
		KUNIT_EXPECT_GT(sw->test, sw->readers[i].walks, 0ULL);
	}
}

static void sweep_design_case(struct kunit *test, enum hotplug_sync design)
{
	struct sweep sw = {.test = test, .design = design};
	enum hotplug_sync saved = hotplug_sync_current();
	bool full = !strcmp(sweep_word, "full");
	unsigned long pairs = 0, old_timeout;
	unsigned int cpu = 1, singles = 0, doubles = 0;
	u32 seed;
	u64 t0;

	if (!sweep_word[0]) {
		kunit_skip(test, "sweep=full|N not given");
		return;
	}
	if (!full &&
	    (cmdline_parse_ulong(sweep_word, &pairs) || pairs > 100000)) {
		kunit_skip(test, "sweep=%s: want full or N", sweep_word);
		return;
	}
	if (sweep_design[0] &&
	    strcmp(sweep_design, hotplug_sync_name(design))) {
		kunit_skip(test, "sweep.design=%s", sweep_design);
		return;
	}
	if (!have_down_cpus(test, 2))
		return;
	seed = sweep_seed ? sweep_seed : (u32)(arch_counter_get() | 1);
	kunit_info(test, "seed %u (sweep.seed=%u draws the same pairs)", seed,
		   seed);
	t0 = ktime_get_ns();
	old_timeout = cpuhp_set_timeout_ms(SWEEP_TIMEOUT_MS);
	cpu_hotplug_set_sync(design);
	if (!readers_start(&sw))
		goto out;
	/*
	 * Each event alone, then on two CPUs at once, each retried at once
	 * and settled; the sample runs each under one design in turn, with
	 * one way of retrying (the other one for its double).
	 */
	for (unsigned int i = 0; i < 2 * NR_EVENTS * NR_RETRY; i++) {
		unsigned int k = i % (2 * NR_EVENTS), ev = k % NR_EVENTS;
		unsigned int n = k < NR_EVENTS ? 1 : 2;
		enum retry_when r = i / (2 * NR_EVENTS);
		struct combo c;

		if (!full &&
		    (k % HOTPLUG_SYNC_NR != design ||
		     r != (ev / HOTPLUG_SYNC_NR + (n == 2)) % NR_RETRY))
			continue;
		if (!combo_make(&c, &sweep_events[ev],
				n == 2 ? &sweep_events[ev] : NULL, cpu, n, r))
			continue;
		run_combo(&sw, &c);
		cpu = next_cpu(cpu);
		if (n == 1)
			singles++;
		else
			doubles++;
	}
	run_pairs(&sw, full, pairs, &seed, &cpu);
	readers_stop(&sw);
out:
	cpu_hotplug_set_sync(saved);
	cpuhp_set_timeout_ms(old_timeout);
	cpu_up_all();
	kunit_info(test,
		   "%s: %u combinations (%u singles, %u doubles, %u pairs) of "
		   "%u events in %llu ms, %u violation(s)",
		   hotplug_sync_name(design), sw.combos, singles, doubles,
		   sw.combos - singles - doubles, (unsigned int)NR_EVENTS,
		   (unsigned long long)(ktime_get_ns() - t0) / 1000000,
		   sw.violations);
	kunit_info(test, "%s: readers walked the online mask %llu times",
		   hotplug_sync_name(design),
		   (unsigned long long)(sw.readers[0].walks +
					sw.readers[1].walks));
}

static void hotplug_sweep_rwlock(struct kunit *test)
{
	sweep_design_case(test, HOTPLUG_SYNC_RWLOCK);
}

static void hotplug_sweep_percpu_rwsem(struct kunit *test)
{
	sweep_design_case(test, HOTPLUG_SYNC_PERCPU_RWSEM);
}

static void hotplug_sweep_stop_machine(struct kunit *test)
{
	sweep_design_case(test, HOTPLUG_SYNC_STOP_MACHINE);
}

static void hotplug_sweep_rcu(struct kunit *test)
{
	sweep_design_case(test, HOTPLUG_SYNC_RCU);
}

static const struct kunit_case hotplug_sweep_cases[] = {
	KUNIT_CASE(hotplug_sweep_rwlock),
	KUNIT_CASE(hotplug_sweep_percpu_rwsem),
	KUNIT_CASE(hotplug_sweep_stop_machine),
	KUNIT_CASE(hotplug_sweep_rcu),
	{},
};

static const struct kunit_suite hotplug_sweep_suite = {"hotplug_sweep",
						       hotplug_sweep_cases};
kunit_test_suite(hotplug_sweep_suite);
