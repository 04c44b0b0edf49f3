/*
 * The scheduler's modes and the power-aware one, "pack".
 *
 *   spread  (the default) a waking thread goes to the least loaded CPU it
 *           may use (runnable threads: the running one plus the queued);
 *           an idle CPU pulls a waiting thread from the busiest queue.
 *   pack    runnable threads are packed onto the fewest CPUs that can
 *           carry them, so the others stay idle (and later sleep deeper
 *           or go off): every CPU stays online.
 *
 * What "can carry" means. A CPU is full when its recent utilisation, the
 * share of time it ran a thread, decayed with a half-life of
 * PACK_HALFLIFE_NS (as Linux's PELT), is at least sched.pack_capacity
 * percent (default 80). Not the number of runnable threads: a thread that
 * runs 1 ms in 20 is not runnable most of the time, yet such threads,
 * woken by the same tick, are all runnable at once; counted instantly
 * they would look like a full CPU each, while together they keep one CPU
 * 5% busy apiece. 80% leaves a CPU room for the bursts of what it holds,
 * so they wait little behind each other.
 *
 * The rules, in pack mode:
 *   wake-up  (select_task_rq()): the lowest-numbered CPU the thread may
 *            use (cpus_allowed and cpu_active_mask, as in spread) that is
 *            not full, whichever CPU it last ran on (a warm cache matters
 *            less here than leaving the others idle); when all are full,
 *            spill: the least loaded, fewest runnable threads then lowest
 *            utilisation, so a CPU-bound phase still uses every core.
 *   balance  (idle_balance()): an idle CPU pulls a waiting thread only
 *            from a CPU that is full AND has a thread waiting (more than
 *            one runnable). A CPU under capacity idled recently, so its
 *            waiters run soon where they are: pulling them would undo the
 *            packing each time two packed threads wake together.
 *   tick     (scheduler_tick()): a CPU that is full with threads waiting
 *            wakes the lowest idle active CPU one of its waiters may use,
 *            which then pulls (idle CPUs sleep tickless, and in pack mode
 *            wake-ups do not reach them). Threads created in a burst all
 *            land on the first CPU; this is how they spread once its
 *            utilisation shows it is full: one more CPU per tick.
 *
 * Everything else is shared with spread: the active mask and the test
 * hook in activate_task(), the double checks under the run-queue locks in
 * idle_balance(), the hotplug drain. The mode changes at run time with a
 * plain store: each decision reads it once, and either answer is a valid
 * placement. The utilisation is kept in both modes (update_curr()), so
 * `sched` and the power work can read it whatever the mode
 * (sched_cpu_stats()'s util_pct: a CPU above 0 ran threads recently).
 */
#define pr_fmt(fmt) "sched: " fmt
#include <kernel/cpu.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <string.h>
#include "sched.h"

/*
 * Long enough that a CPU's figure does not swing with each 1 ms burst of
 * what it holds, short enough that a CPU-bound thread makes it full in
 * about 40 ms (0 to 80% is log2(5) half-lives).
 */
#define PACK_HALFLIFE_NS (16 * 1000 * 1000ULL)

static unsigned long pack_capacity = 80;
param_ulong("sched.pack_capacity", pack_capacity, 1, 100,
	    "PERCENT: pack mode: a CPU this busy recently is full (default "
	    "80)");

static const char *const mode_names[] = {
	[SCHED_MODE_SPREAD] = "spread",
	[SCHED_MODE_PACK] = "pack",
	NULL,
};

enum sched_mode sched_cur_mode = SCHED_MODE_SPREAD;
param_enum("sched.mode", sched_cur_mode, mode_names,
	   "the scheduler's placement (default spread)");

const char *sched_mode_name(enum sched_mode mode)
{
	return mode_names[mode];
}

int sched_mode_parse(const char *word, enum sched_mode *mode)
{
	for (unsigned int m = 0; mode_names[m]; m++)
		if (!strcmp(word, mode_names[m])) {
			*mode = m;
			return 0;
		}
	return -EINVAL;
}

enum sched_mode sched_get_mode(void)
{
	return READ_ONCE(sched_cur_mode);
}

void sched_set_mode(enum sched_mode mode)
{
	WRITE_ONCE(sched_cur_mode, mode);
}

unsigned int sched_pack_capacity(void)
{
	return READ_ONCE(pack_capacity);
}

int sched_set_pack_capacity(unsigned int percent)
{
	if (percent < 1 || percent > 100)
		return -EINVAL;
	WRITE_ONCE(pack_capacity, percent);
	return 0;
}

/* sched.mode= (sched_init(), once the console prints). */
void sched_mode_init(void)
{
	if (sched_get_mode() != SCHED_MODE_SPREAD)
		pr_info("mode %s\n", sched_mode_name(sched_get_mode()));
}

/*
 * v decayed over delta: halved each half-life, and linearly within one
 * (2^-x ~ 1 - x/2 on [0, 1), 4% at worst: a hint needs no more).
 */
static u32 util_decay(u32 v, u64 delta)
{
	u64 halvings = delta / PACK_HALFLIFE_NS;

	if (halvings >= 32)
		return 0;
	v >>= halvings;
	return v - (u32)((u64)v * (delta % PACK_HALFLIFE_NS) /
			 (2 * PACK_HALFLIFE_NS));
}

/* util moved towards UTIL_SCALE (busy) or 0 (idle) for delta ns. */
u32 util_project(u32 util, bool busy, u64 delta)
{
	if (busy)
		return UTIL_SCALE - util_decay(UTIL_SCALE - util, delta);
	return util_decay(util, delta);
}

/*
 * rq's utilisation now, 0..UTIL_SCALE, without its lock: the figure of
 * its last update_curr() carried forward to now, as an idle CPU with its
 * tick stopped updates nothing. A hint (fields may be read mid-update).
 */
u32 cpu_util(struct rq *rq, u64 now)
{
	u32 util = READ_ONCE(rq->util_avg);
	u64 stamp = READ_ONCE(rq->clock_ns);
	bool busy = READ_ONCE(rq->curr) != rq->idle;

	return util_project(util, busy, now > stamp ? now - stamp : 0);
}

static bool cpu_full(struct rq *rq, u64 now)
{
	return cpu_util(rq, now) * 100 >= sched_pack_capacity() * UTIL_SCALE;
}

static unsigned int rq_load(struct rq *rq)
{
	return READ_ONCE(rq->nr_queued) + (READ_ONCE(rq->curr) != rq->idle);
}

/* The pack rule at wake-up, among allowed (active CPUs p may use). */
unsigned int select_task_rq_pack(const struct cpumask *allowed)
{
	unsigned int cpu, best = nr_cpu_ids, best_load = ~0U;
	u32 best_util = ~0U;
	u64 now = ktime_get_ns();

	for_each_cpu (cpu, allowed)
		if (!cpu_full(cpu_rq(cpu), now))
			return cpu;
	for_each_cpu (cpu, allowed) { /* spill */
		struct rq *rq = cpu_rq(cpu);
		unsigned int load = rq_load(rq);
		u32 util = cpu_util(rq, now);

		if (load < best_load ||
		    (load == best_load && util < best_util)) {
			best = cpu;
			best_load = load;
			best_util = util;
		}
	}
	return best;
}

/* The queue an idle CPU (me) pulls from in pack mode, or NULL. */
struct rq *find_busiest_pack(struct rq *me)
{
	struct rq *busiest = NULL;
	u64 now = ktime_get_ns();
	unsigned int cpu, most = 0;

	for_each_cpu (cpu, cpu_active_mask) {
		struct rq *rq = cpu_rq(cpu);
		unsigned int queued = READ_ONCE(rq->nr_queued);

		if (rq == me || !queued || !cpu_full(rq, now))
			continue;
		if (!busiest || queued > most) {
			busiest = rq;
			most = queued;
		}
	}
	return busiest;
}

/* Could a thread waiting on rq run on cpu? Caller holds rq->lock. */
static bool waiter_allows(struct rq *rq, unsigned int cpu)
{
	struct task_struct *p;

	lockdep_assert_held(&rq->lock);
	list_for_each_entry (p, &rq->queue, run_list)
		if (cpumask_test_cpu(cpu, &p->cpus_allowed))
			return true;
	return false;
}

/*
 * From the tick, rq->lock held: the idle CPU to wake so it pulls from rq,
 * or -1 when rq is not full, has no waiter, or no idle CPU may take one.
 * The caller wakes it after dropping the lock (resched_cpu()).
 */
int pack_balance_kick(struct rq *rq)
{
	u64 now = ktime_get_ns();
	unsigned int cpu;

	if (!rq->nr_queued || !cpu_full(rq, now))
		return -1;
	for_each_cpu (cpu, cpu_active_mask) {
		struct rq *idle = cpu_rq(cpu);

		if (idle == rq || READ_ONCE(idle->curr) != idle->idle ||
		    READ_ONCE(idle->nr_queued))
			continue;
		if (waiter_allows(rq, cpu))
			return cpu;
	}
	return -1;
}
