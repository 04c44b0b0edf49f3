/*
 * The randomized hotplug stress (stress=SECONDS, stress.seed=S): what the
 * sweep and the suites try one at a time with hand-picked timings, all at
 * once with random ones, in the manner of Linux's rcutorture with CPU
 * hotplug. In one boot, for SECONDS:
 *
 *   readers      of every kind: the lock-free walk, the long walk, one
 *                CPU's bit, a per-CPU snapshot, the design's lock
 *   writers      several, each taking random CPUs down and up
 *   gp           synchronize_rcu() and synchronize_rcu_expedited()
 *   flood        call_rcu() bursts, and rcu_barrier(), which must find
 *                every callback queued before it invoked
 *   switcher     run-time switches between the four reader designs
 *   chaos        fault events and pairs of them drawn at random, on one or
 *                two CPUs (stragglers on several CPUs at once), and the
 *                idle clusters regrouped
 *
 * Invariants are checked all the time and at checkpoints. All the time:
 * every per-CPU area a reader reaches through a set bit is that CPU's and
 * live (its generation tag, percpu_claim_valid()), every callback rcu_barrier() waited for has
 * run. At each checkpoint (every stress.check_ms), every thread pauses
 * at the top of its loop, faults are disarmed, and each CPU's phase must
 * agree with the masks and the firmware (hotplug_check_cpus(), the
 * sweep's checks). At the end every CPU must come back online and the
 * memory taken must be given back.
 *
 * The seed is printed first; stress.seed=S draws the same operations
 * (their interleaving still differs from boot to boot). On a violation
 * the last operations of every thread are printed, once.
 */
#define pr_fmt(fmt) "stress: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/cpuhp.h>
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/kunit.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <stdarg.h>
#include <string.h>
#include "helpers.h"
#include "hotplug_check.h"

static unsigned long stress_secs;
param_ulong("stress", stress_secs, 1, 86400,
	    "S: the randomized hotplug stress for S seconds (suite stress)");
static unsigned long stress_seed;
param_ulong("stress.seed", stress_seed, 1, 0xffffffffUL,
	    "S: the stress's random draws (default: from the clock)");
static unsigned long stress_check_ms = 3000;
param_ulong("stress.check_ms", stress_check_ms, 100, 600000,
	    "MS: between the stress's checkpoints (default 3000)");

static bool stress_no_faults;
param_flag("stress.no_faults", stress_no_faults,
	   "the stress arms no fault (its chaos thread only regroups idle "
	   "clusters)");

/* Short, so stragglers and withdrawn downs happen (as in the sweep). */
#define STRESS_TIMEOUT_MS 200
#define STRESS_MAGIC 0x57e55c0ffee5a11dULL
#define LOG_LEN 16
#define NR_STRESS_READERS 4
#define NR_STRESS_WRITERS 3

/* Every CPU's area starts as a copy of the template: STRESS_MAGIC. */
static DEFINE_PER_CPU(u64, stress_magic) = STRESS_MAGIC;

struct op_log {
	u64 ns;
	char what[44];
};

/* One stress thread: its role, its random state, its recent operations. */
struct actor {
	struct stress *st;
	char name[20];
	int (*fn)(struct actor *a);
	u32 seed;
	unsigned int idx; /* its number among its kind */
	u64 ops;
	struct op_log log[LOG_LEN];
	unsigned int log_next;
	struct completion done;
};

struct stress {
	struct kunit *test;
	volatile bool stop;
	/* The checkpoint's gate: see actor_enter(). */
	volatile bool pause;
	int inside; /* actors between actor_enter() and actor_leave() */
	struct actor *actors;
	unsigned int nr_actors;
	/* The flood's callbacks: queued by it, counted as they run. */
	u64 cbs_queued;
	u64 cbs_run;
	u64 violations, reads, cpus_seen, switches, faults, regroups;
	u64 downs, ups, gps, exp_gps, barriers;
	bool dumped;
	spinlock_t lock; /* violations' reporting */
};

__printf(2, 3) static void oplog(struct actor *a, const char *fmt, ...)
{
	struct op_log *l = &a->log[a->log_next++ % LOG_LEN];
	va_list ap;

	l->ns = ktime_get_ns();
	va_start(ap, fmt);
	vsnprintf(l->what, sizeof(l->what), fmt, ap);
	va_end(ap);
	a->ops++;
}

static void dump_logs(struct stress *st)
{
	pr_err("the last operations of every thread (oldest first):\n");
	for (unsigned int i = 0; i < st->nr_actors; i++) {
		struct actor *a = &st->actors[i];
		unsigned int n = min(a->log_next, (unsigned int)LOG_LEN);

		pr_err("  %s (%llu ops):\n", a->name,
		       (unsigned long long)a->ops);
		for (unsigned int k = a->log_next - n; k != a->log_next; k++) {
			struct op_log *l = &a->log[k % LOG_LEN];

			pr_err("    %llu.%06llu %s\n",
			       (unsigned long long)(l->ns / 1000000000),
			       (unsigned long long)(l->ns / 1000 % 1000000),
			       l->what);
		}
	}
}

/* One broken invariant: counted, reported; the logs on the first one. */
__printf(2, 3) static void stress_violated(void *p, const char *fmt, ...)
{
	struct stress *st = p;
	unsigned long flags;
	char what[160];
	bool dump;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	spin_lock_irqsave(&st->lock, flags);
	st->violations++;
	dump = !st->dumped;
	st->dumped = true;
	spin_unlock_irqrestore(&st->lock, flags);
	kunit_fail(st->test, __FILE__, __LINE__, "%s", what);
	if (dump)
		dump_logs(st);
}

/*
 * The checkpoint's gate, a Dekker pair: an actor announces itself in
 * ->inside, then looks at ->pause; the checkpoint sets ->pause, then
 * waits for ->inside to drain. The full barriers (seq_cst) pair with each
 * other, so either the actor sees the pause, or the checkpoint sees it
 * inside and waits. False: stopping.
 */
static bool actor_enter(struct stress *st)
{
	for (;;) {
		__atomic_add_fetch(&st->inside, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&st->pause, __ATOMIC_SEQ_CST))
			return !READ_ONCE(st->stop);
		__atomic_sub_fetch(&st->inside, 1, __ATOMIC_SEQ_CST);
		while (READ_ONCE(st->pause) && !READ_ONCE(st->stop))
			msleep(1);
		if (READ_ONCE(st->stop))
			return false;
	}
}

static void actor_leave(struct stress *st)
{
	__atomic_sub_fetch(&st->inside, 1, __ATOMIC_SEQ_CST);
}

static unsigned int rand_below(struct actor *a, unsigned int n)
{
	return n ? xorshift32(&a->seed) % n : 0;
}

/* --- readers ---------------------------------------------------------- */

/*
 * What a reader keeps of a CPU whose bit it saw set: a claim on its area
 * (a pointer into it and the area's generation tag), as real readers keep
 * pointers, valid until it leaves the section; and the template's magic.
 */
struct seen_area {
	unsigned int cpu;
	struct percpu_claim claim;
	const u64 *magic;
};

static void seen_area(struct seen_area *s, unsigned int cpu)
{
	s->cpu = cpu;
	s->claim = percpu_claim(cpu);
	s->magic = per_cpu_ptr(&stress_magic, cpu);
}

/* Is the area still live and its CPU's? A freed one reads as poison; one
 * freed and allocated again has another generation in its tag. */
static bool area_ok(const struct seen_area *s)
{
	return percpu_claim_valid(&s->claim, s->cpu) &&
	       READ_ONCE(*s->magic) == STRESS_MAGIC;
}

/*
 * What one read-side section saw: the first CPUs, kept to be checked
 * again after the reader lingered (an area freed under a reader shows
 * then, not at its first look).
 */
#define WALK_KEEP 8
struct walk {
	u64 seen;
	int bad; /* first CPU whose area was not its own, or -1 */
	unsigned int nr_kept;
	struct seen_area kept[WALK_KEEP];
};

static bool walk_one(unsigned int cpu, void *p)
{
	struct walk *w = p;
	struct seen_area s;

	seen_area(&s, cpu);
	w->seen++;
	if (!area_ok(&s) && w->bad < 0)
		w->bad = cpu;
	if (w->nr_kept < WALK_KEEP)
		w->kept[w->nr_kept++] = s;
	return true;
}

static void walk_all(struct walk *w)
{
	unsigned int cpu;

	for_each_online_cpu (cpu)
		walk_one(cpu, w);
}

/*
 * Still in the section: linger, then look at what was seen again. The
 * first reader's sections, and one in 32 of the others', linger for 10
 * to 25 ms, longer than a down takes from clearing the bit to freeing
 * the area when grace periods are broken (fail.rcu_early_gp: they still
 * end at a tick); the others' for up to 200 us.
 */
static void linger_recheck(struct actor *a, struct walk *w)
{
	bool long_one = !a->idx || !rand_below(a, 32);

	udelay(long_one ? 10000 + rand_below(a, 15000) : rand_below(a, 200));
	for (unsigned int i = 0; i < w->nr_kept && w->bad < 0; i++)
		if (!area_ok(&w->kept[i]))
			w->bad = w->kept[i].cpu;
}

struct rec {
	bool ok;
};

static void snap_fill(unsigned int cpu, void *p, void *arg)
{
	struct seen_area s;

	seen_area(&s, cpu);
	((struct rec *)p)->ok = area_ok(&s);
}

static void snapshot_read(struct walk *w)
{
	struct percpu_snapshot s = {.rec_size = sizeof(struct rec),
				    .fill = snap_fill};

	if (percpu_snapshot_take(&s))
		return; /* no memory: nothing read, nothing to check */
	for (unsigned int i = 0; i < s.nr; i++) {
		w->seen++;
		if (!((struct rec *)percpu_snapshot_rec(&s, i))->ok &&
		    w->bad < 0)
			w->bad = s.cpus[i];
	}
	percpu_snapshot_release(&s);
}

static const char *const reader_kinds[] = {"walk", "long walk", "one bit",
					   "snapshot", "design lock"};

static int reader(struct actor *a)
{
	unsigned int kind = rand_below(a, ARRAY_SIZE(reader_kinds));
	unsigned int cpu = rand_below(a, nr_cpu_ids);
	struct walk w = {.bad = -1};
	int cookie;

	switch (kind) {
	case 0:
		rcu_read_lock();
		walk_all(&w);
		linger_recheck(a, &w);
		rcu_read_unlock();
		break;
	case 1:
		online_cpus_walk(walk_one, &w);
		break;
	case 2:
		rcu_read_lock();
		if (cpu_online_rcu(cpu))
			walk_one(cpu, &w);
		linger_recheck(a, &w);
		rcu_read_unlock();
		break;
	case 3:
		snapshot_read(&w);
		break;
	default:
		cookie = cpus_read_lock();
		walk_all(&w);
		linger_recheck(a, &w);
		cpus_read_unlock(cookie);
		break;
	}
	if (!rand_below(a, 64) || w.bad >= 0)
		oplog(a, "%s: %llu CPUs", reader_kinds[kind],
		      (unsigned long long)w.seen);
	__atomic_add_fetch(&a->st->reads, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&a->st->cpus_seen, w.seen, __ATOMIC_RELAXED);
	if (w.bad >= 0)
		stress_violated(a->st,
				"%s: a %s reader saw CPU%d's bit set but its "
				"area was not its own (freed or reused)",
				a->name, reader_kinds[kind], w.bad);
	if (!rand_below(a, 8))
		cond_resched();
	return 0;
}

/* --- writers ---------------------------------------------------------- */

static int writer(struct actor *a)
{
	unsigned int cpu = rand_below(a, nr_cpu_ids);
	bool down = cpu_online(cpu);
	int err;

	if (down && num_online_cpus() <= 1)
		return 0;
	oplog(a, "%s CPU%u", down ? "down" : "up", cpu);
	err = down ? cpu_down(cpu) : cpu_up(cpu);
	oplog(a, "%s CPU%u: %d", down ? "down" : "up", cpu, err);
	if (!err)
		__atomic_add_fetch(down ? &a->st->downs : &a->st->ups, 1,
				   __ATOMIC_RELAXED);
	return rand_below(a, 20);
}

/* --- grace periods and callbacks --------------------------------------- */

static int gp(struct actor *a)
{
	bool exp = rand_below(a, 2);

	oplog(a, "synchronize_rcu%s", exp ? "_expedited" : "");
	if (exp)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
	__atomic_add_fetch(exp ? &a->st->exp_gps : &a->st->gps, 1,
			   __ATOMIC_RELAXED);
	return rand_below(a, 10);
}

struct flood_obj {
	struct rcu_head rh;
	u64 magic;
	struct stress *st;
};

static void flood_cb(struct rcu_head *rh)
{
	struct flood_obj *o = container_of(rh, struct flood_obj, rh);
	struct stress *st = o->st;

	if (o->magic != STRESS_MAGIC)
		stress_violated(st, "a call_rcu() object ran with magic %#llx",
				(unsigned long long)o->magic);
	o->magic = 0;
	kfree(o);
	/* Pairs with the acquire load after rcu_barrier() in flood(). */
	__atomic_add_fetch(&st->cbs_run, 1, __ATOMIC_RELEASE);
}

static int flood(struct actor *a)
{
	struct stress *st = a->st;
	unsigned int n = 1 + rand_below(a, 64);
	u64 queued, run;

	for (unsigned int i = 0; i < n; i++) {
		struct flood_obj *o = kmalloc(sizeof(*o));

		if (!o)
			break;
		o->magic = STRESS_MAGIC;
		o->st = st;
		st->cbs_queued++; /* this thread alone queues */
		call_rcu(&o->rh, flood_cb);
	}
	oplog(a, "call_rcu x%u", n);
	if (rand_below(a, 4))
		return rand_below(a, 5);
	queued = st->cbs_queued;
	oplog(a, "rcu_barrier (%llu queued)", (unsigned long long)queued);
	rcu_barrier();
	run = __atomic_load_n(&st->cbs_run, __ATOMIC_ACQUIRE);
	st->barriers++;
	if (run < queued)
		stress_violated(st,
				"rcu_barrier() returned with %llu of %llu "
				"callbacks run",
				(unsigned long long)run,
				(unsigned long long)queued);
	return 0;
}

/* --- designs, faults, idle clusters ------------------------------------ */

static int switcher(struct actor *a)
{
	enum hotplug_sync to = rand_below(a, HOTPLUG_SYNC_NR);

	oplog(a, "design %s", hotplug_sync_name(to));
	if (!cpu_hotplug_set_sync(to))
		a->st->switches++;
	return 20 + rand_below(a, 200);
}

struct chaos_event {
	const char *point;
	const char *value; /* %u: a random CPU; a second %u: another one */
	bool psci; /* needs firmware answers (PSCI, not the pen) */
};

/* T = STRESS_TIMEOUT_MS: "before" is T/2, "after" 2T. */
static const struct chaos_event chaos_events[] = {
	{"cpu_late", "%u:100", false},
	{"cpu_late", "%u:400", false},
	{"cpu_late", "%u:400,%u:400", false}, /* stragglers on two CPUs */
	{"cpu_late", "%u:400:claimed", false},
	{"cpu_die_late", "%u:400", false},
	{"cpu_die_late", "%u:400:claimed", false},
	{"cpu_on", "%u:ALREADY_ON", true},
	{"cpu_on", "%u:DENIED", true},
	{"cpu_on", "%u:ALREADY_ON:300", true},
	{"cpu_off", "20", true},
	{"cpu_off", "forever", true},
	{"up_step", "sched:idle", false},
	{"up_step", "rcu:thread", false},
	{"up_step", "kthreads:park", false},
	{"down_step", "rcu:sync", false},
	{"down_step", "sched:drain", false},
	{"down_step", "cpu:teardown", false},
	{"alloc_up", "2", false},
	{"sched_drain", "1", false},
	{"rcu_exp", "miss_ipi", false},
	{"sync_read", "%u:300", false}, /* a reader across a design switch */
	{"rcu_exp_hold", "%u:500", false}, /* an expedited GP across a down */
	{"kthread_park", "1", false},
};

static void disarm_all(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(chaos_events); i++)
		fault_clear(chaos_events[i].point);
}

/* Arm a random event for CPUs c[0] and c[1] (events name one or two). */
static void chaos_arm(struct actor *a, const unsigned int *c)
{
	const struct chaos_event *e =
		&chaos_events[rand_below(a, ARRAY_SIZE(chaos_events))];
	char val[40];

	if (e->psci && !psci_checkable())
		return;
	snprintf(val, sizeof(val), e->value, c[0], c[1]);
	oplog(a, "fail.%s=%s", e->point, val);
	if (fault_inject(e->point, val))
		stress_violated(a->st, "fail.%s=%s refused", e->point, val);
	else
		a->st->faults++;
}

/* Make the armed events fire: c down (if online) and up again. */
static void chaos_fire(struct actor *a, unsigned int c)
{
	int err;

	if (cpu_online(c) && num_online_cpus() > 1) {
		err = cpu_down(c);
		oplog(a, "down CPU%u: %d", c, err);
	}
	err = cpu_up(c);
	oplog(a, "up CPU%u: %d", c, err);
}

/*
 * One event or a pair, on one or two random CPUs; half of the time the
 * chaos thread itself takes those CPUs down and up while they are armed
 * (so two stragglers meet), else the writers run into them, or not.
 */
static int chaos(struct actor *a)
{
	unsigned int c[2], n;
	int err;

	if (stress_no_faults || !rand_below(a, 8)) {
		n = 1 + rand_below(a, nr_cpu_ids);
		err = cpuidle_set_cluster_cpus(n);
		oplog(a, "clusters of %u: %d", n, err);
		a->st->regroups += !err;
		return rand_below(a, 50);
	}
	c[0] = rand_below(a, nr_cpu_ids);
	c[1] = (c[0] + 1 + rand_below(a, nr_cpu_ids - 1)) % nr_cpu_ids;
	n = 1 + rand_below(a, 2);
	for (unsigned int i = 0; i < n; i++)
		chaos_arm(a, c);
	if (rand_below(a, 2)) {
		chaos_fire(a, c[0]);
		chaos_fire(a, c[1]);
	} else {
		msleep(10 + rand_below(a, 300));
	}
	disarm_all();
	oplog(a, "disarmed");
	return rand_below(a, 100);
}

/* --- the run ---------------------------------------------------------- */

static int actor_thread(void *p)
{
	struct actor *a = p;
	int sleep_ms;

	while (actor_enter(a->st)) {
		sleep_ms = a->fn(a);
		actor_leave(a->st);
		if (sleep_ms)
			msleep(sleep_ms);
	}
	complete(&a->done);
	return 0;
}

/* Pause every actor, then check the house. */
static void checkpoint(struct stress *st, const char *when)
{
	u64 deadline = ktime_get_ns() + 60ULL * 1000000000;

	__atomic_store_n(&st->pause, true, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&st->inside, __ATOMIC_SEQ_CST)) {
		if (ktime_get_ns() > deadline) {
			stress_violated(st,
					"%s: %d thread(s) still inside their "
					"operation after 60 s",
					when, READ_ONCE(st->inside));
			break;
		}
		msleep(1);
	}
	disarm_all();
	hotplug_check_cpus(stress_violated, st, when);
	__atomic_store_n(&st->pause, false, __ATOMIC_SEQ_CST);
}

static void add_actors(struct stress *st, unsigned int n, const char *kind,
		       int (*fn)(struct actor *), u32 *seed)
{
	for (unsigned int i = 0; i < n; i++) {
		struct actor *a = &st->actors[st->nr_actors++];

		a->st = st;
		a->fn = fn;
		a->idx = i;
		a->seed = xorshift32(seed) | 1;
		snprintf(a->name, sizeof(a->name), "%s%u", kind, i);
		init_completion(&a->done);
	}
}

static void stop_actors(struct stress *st, unsigned int started)
{
	st->stop = true;
	for (unsigned int i = 0; i < started; i++)
		wait_for_completion(&st->actors[i].done);
}

/* After the run: every CPU back, every callback run, nothing leaked. */
static void final_checks(struct stress *st, const struct mem_stats *before,
			 unsigned int cluster_cpus, unsigned int threads)
{
	struct mem_stats after;
	int err;

	disarm_all();
	err = cpu_up_all();
	if (err || num_online_cpus() != cpumask_weight(cpu_present_mask))
		stress_violated(st, "at the end: %u of %u CPUs came back (%d)",
				num_online_cpus(),
				cpumask_weight(cpu_present_mask), err);
	if (cluster_cpus)
		cpuidle_set_cluster_cpus(cluster_cpus);
	hotplug_check_cpus(stress_violated, st, "at the end");
	if (!wait_threads_reaped(threads))
		stress_violated(st, "at the end: threads not reaped");
	if (st->cbs_run != st->cbs_queued)
		stress_violated(st, "at the end: %llu of %llu callbacks run",
				(unsigned long long)st->cbs_run,
				(unsigned long long)st->cbs_queued);
	mem_get_stats_drained(&after);
	if (after.kmalloc_objects != before->kmalloc_objects)
		stress_violated(st, "kmalloc objects %llu, %llu before",
				(unsigned long long)after.kmalloc_objects,
				(unsigned long long)before->kmalloc_objects);
}

static void stress_print(struct stress *st, u64 ms)
{
	pr_info("%lu ms: %lu reads (%lu CPUs seen), %lu downs, %lu ups, "
		"%lu+%lu GPs (normal+expedited), %lu callbacks, %lu "
		"barriers, %lu design switches, %lu faults, %lu regroups, "
		"%lu violation(s)\n",
		ms, st->reads, st->cpus_seen, st->downs, st->ups, st->gps,
		st->exp_gps, st->cbs_run, st->barriers, st->switches,
		st->faults, st->regroups, st->violations);
}

static void stress_run(struct kunit *test)
{
	struct stress st = {.test = test};
	enum hotplug_sync saved = hotplug_sync_current();
	unsigned int cluster_cpus = 0, started = 0, threads;
	unsigned long old_timeout;
	struct mem_stats before;
	u64 t0, end, next_check;
	u32 seed, seed0;

	if (!stress_secs) {
		kunit_skip(test, "stress=SECONDS not given");
		return;
	}
	if (!have_down_cpus(test, 2))
		return;
	spin_lock_init(&st.lock);
	seed = stress_seed ? stress_seed : (u32)(arch_counter_get() | 1);
	seed0 = seed;
	pr_info("seed %u (stress.seed=%u draws the same operations), %lu s\n",
		seed, seed, stress_secs);
	st.actors =
		kunit_kcalloc(test, NR_STRESS_READERS + NR_STRESS_WRITERS + 4,
			      sizeof(*st.actors));
	if (!st.actors)
		return;
	if (cpuidle_nr_clusters())
		cluster_cpus = nr_cpu_ids / cpuidle_nr_clusters();
	mem_get_stats_drained(&before);
	threads = nr_threads();
	add_actors(&st, NR_STRESS_READERS, "reader", reader, &seed);
	add_actors(&st, NR_STRESS_WRITERS, "writer", writer, &seed);
	add_actors(&st, 1, "gp", gp, &seed);
	add_actors(&st, 1, "flood", flood, &seed);
	add_actors(&st, 1, "switcher", switcher, &seed);
	add_actors(&st, 1, "chaos", chaos, &seed);
	old_timeout = cpuhp_set_timeout_ms(STRESS_TIMEOUT_MS);
	for (; started < st.nr_actors; started++)
		if (!kthread_run(actor_thread, &st.actors[started], "stress_%s",
				 st.actors[started].name))
			break;
	t0 = ktime_get_ns();
	end = t0 + stress_secs * 1000000000ULL;
	next_check = t0 + stress_check_ms * 1000000ULL;
	/* Until the time is up, or the first violation: the state after
	 * one may be too broken to go on safely. */
	while (ktime_get_ns() < end && started == st.nr_actors &&
	       !READ_ONCE(st.violations)) {
		msleep(10);
		if (ktime_get_ns() < next_check)
			continue;
		checkpoint(&st, "at a checkpoint");
		stress_print(&st, (ktime_get_ns() - t0) / 1000000);
		next_check = ktime_get_ns() + stress_check_ms * 1000000ULL;
	}
	if (started != st.nr_actors)
		stress_violated(&st, "could not start thread %u", started);
	stop_actors(&st, started);
	cpuhp_set_timeout_ms(old_timeout);
	cpu_hotplug_set_sync(saved);
	rcu_barrier();
	final_checks(&st, &before, cluster_cpus, threads);
	stress_print(&st, (ktime_get_ns() - t0) / 1000000);
	kunit_info(test, "seed %u: %lu violation(s)", seed0, st.violations);
}

static const struct kunit_case stress_cases[] = {
	KUNIT_CASE(stress_run),
	{},
};

static const struct kunit_suite stress_suite = {"stress", stress_cases};
kunit_test_suite(stress_suite);

/* stress= alone runs the suite, unless test= runs it already. */
void stress_boot(void)
{
	if (stress_secs && !kunit_boot_selects("stress"))
		kunit_run_tests("stress");
}
