/*
 * The fault sweep: CPU hotplug after every failure the kernel can inject,
 * alone and in pairs, under each of the four reader designs, checked
 * against the invariants a down and an up must leave behind. Hand-picked
 * timings found what the hand-written cases missed; this walks the space.
 *
 * A combination is one or two fault events (sweep_events[]) and a target
 * CPU. It runs twice: armed for a down (up events then fire only in the
 * down's way back), and armed for an up (down events then fire only in
 * the up's rollback). After each operation every fault is disarmed and
 * the invariants are checked; a failed operation is retried, and must
 * then succeed; then every CPU but the boot CPU goes down and up once.
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
 *   - a grace period ends, and after it the kmalloc objects are as many
 *     as before the combination (nothing leaked, nothing freed twice).
 *
 * Timeouts are short (hotplug.timeout_ms = SWEEP_TIMEOUT_MS) and each
 * injected delay straddles them; the invariants hold on either side, so a
 * busy host changes which side a combination lands on, not its verdict.
 *
 * sweep=full runs every single event and every pair of events on two
 * different fault points; sweep=N every single and N random pairs per
 * design (sweep.seed=S repeats a draw; the seed is printed);
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

struct sweep {
	struct kunit *test;
	enum hotplug_sync design;
	unsigned int combos, violations;
	char label[96]; /* the combination being run, for each report */
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

static void arm(struct sweep *sw, const struct sweep_event *e, unsigned int cpu)
{
	char val[48];

	snprintf(val, sizeof(val), e->value, cpu);
	if (fault_inject(e->point, val))
		violated(sw, "arming", "fail.%s=%s refused", e->point, val);
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
 * The down with the events armed (up events fire only in its way back):
 * the checks; a retry if it failed; then the CPU up again.
 */
static void armed_down(struct sweep *sw, const struct sweep_event *const *ev,
		       unsigned int n, unsigned int cpu)
{
	int err;

	for (unsigned int i = 0; i < n; i++)
		arm(sw, ev[i], cpu);
	err = cpu_down(cpu);
	disarm_all();
	check_cpus(sw, "after the armed down");
	if (err && cpu_online(cpu))
		must_work(sw, "the retried down", cpu, true);
	must_work(sw, "the up after the armed down", cpu, false);
}

/* The up with the events armed (down events fire only in its rollback). */
static void armed_up(struct sweep *sw, const struct sweep_event *const *ev,
		     unsigned int n, unsigned int cpu)
{
	int err;

	must_work(sw, "the down before the armed up", cpu, true);
	for (unsigned int i = 0; i < n; i++)
		arm(sw, ev[i], cpu);
	err = cpu_up(cpu);
	disarm_all();
	check_cpus(sw, "after the armed up");
	if (err && !cpu_online(cpu))
		must_work(sw, "the retried up", cpu, false);
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

static void run_combo(struct sweep *sw, const struct sweep_event *a,
		      const struct sweep_event *b, unsigned int cpu)
{
	const struct sweep_event *ev[2] = {a, b};
	unsigned int n = b ? 2 : 1;
	struct mem_stats before, after;

	snprintf(sw->label, sizeof(sw->label), "%s CPU%u %s%s%s",
		 hotplug_sync_name(sw->design), cpu, a->name, b ? " + " : "",
		 b ? b->name : "");
	sw->combos++;
	mem_get_stats_drained(&before);
	armed_down(sw, ev, n, cpu);
	armed_up(sw, ev, n, cpu);
	plain_cycles(sw);
	mem_get_stats_drained(&after); /* a grace period ends */
	if (after.kmalloc_objects != before.kmalloc_objects)
		violated(sw, "at the end", "kmalloc objects %llu, %llu before",
			 (unsigned long long)after.kmalloc_objects,
			 (unsigned long long)before.kmalloc_objects);
}

static bool pair_allowed(const struct sweep_event *a,
			 const struct sweep_event *b)
{
	return a != b && strcmp(a->point, b->point) && event_usable(a) &&
	       event_usable(b);
}

/* Every pair (full), or `pairs` drawn from the seed. */
static void run_pairs(struct sweep *sw, bool full, unsigned long pairs,
		      u32 *seed, unsigned int *cpu)
{
	const struct sweep_event *a, *b;

	if (full) {
		for (unsigned int i = 0; i < NR_EVENTS; i++)
			for (unsigned int j = i + 1; j < NR_EVENTS; j++) {
				a = &sweep_events[i];
				b = &sweep_events[j];
				if (pair_allowed(a, b))
					run_combo(sw, a, b, *cpu);
				*cpu = *cpu % (nr_cpu_ids - 1) + 1;
			}
		return;
	}
	for (unsigned long k = 0; k < pairs;) {
		a = &sweep_events[xorshift32(seed) % NR_EVENTS];
		b = &sweep_events[xorshift32(seed) % NR_EVENTS];
		if (!pair_allowed(a, b))
			continue;
		run_combo(sw, a, b, *cpu);
		*cpu = *cpu % (nr_cpu_ids - 1) + 1;
		k++;
	}
}

static void sweep_design_case(struct kunit *test, enum hotplug_sync design)
{
	struct sweep sw = {.test = test, .design = design};
	enum hotplug_sync saved = hotplug_sync_current();
	bool full = !strcmp(sweep_word, "full");
	unsigned long pairs = 0, old_timeout;
	unsigned int cpu = 1, singles = 0;
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
	for (unsigned int i = 0; i < NR_EVENTS; i++) {
		if (!event_usable(&sweep_events[i]))
			continue;
		run_combo(&sw, &sweep_events[i], NULL, cpu);
		cpu = cpu % (nr_cpu_ids - 1) + 1;
		singles++;
	}
	run_pairs(&sw, full, pairs, &seed, &cpu);
	cpu_hotplug_set_sync(saved);
	cpuhp_set_timeout_ms(old_timeout);
	cpu_up_all();
	kunit_info(test,
		   "%s: %u combinations (%u singles, %u pairs) of %u "
		   "events in %llu ms, %u violation(s)",
		   hotplug_sync_name(design), sw.combos, singles,
		   sw.combos - singles, (unsigned int)NR_EVENTS,
		   (unsigned long long)(ktime_get_ns() - t0) / 1000000,
		   sw.violations);
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
