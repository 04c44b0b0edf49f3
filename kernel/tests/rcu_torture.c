/*
 * RCU torture (torture=SECONDS), in the manner of Linux's rcutorture.
 *
 * A writer keeps replacing the object readers see and retires the old one
 * through call_rcu() (and, one round in eight, synchronize_rcu() first).
 * A retired object's pipe count starts at 1 and goes up by one at each
 * grace period after its removal; at PIPE_LEN it is freed. A reader that
 * picked an object up before its removal must be done before the first
 * of those grace periods ends, so it can see a count of 0 or 1, never 2:
 * any count past index 1 in the Reader Pipe histogram is a broken grace
 * period. Readers run on every CPU, with random short delays inside
 * their sections, while CPUs are taken down and up at random.
 *
 * torture.mutant=early_gp (for tests only) makes grace periods end as
 * soon as they start: the torture must then report FAILURE.
 */
#define pr_fmt(fmt) "rcu-torture: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/fault.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/kernel.h>
#include <lib/printf.h>
#include <stdlib.h>
#include <string.h>

static unsigned long onoff_ms = 20;
param_ulong("torture.onoff", onoff_ms, 0, 60000,
	    "MS: between the torture's random CPU downs/ups (default 20, 0: "
	    "none)");
static char goal_word[48];
param_string("torture.goal", goal_word,
	     "CYCLES,GPS: end the torture early once it has done that many "
	     "hotplug cycles and grace periods");
static const char *const mutant_names[] = {"none", "early_gp", NULL};
static enum { MUTANT_NONE, MUTANT_EARLY_GP } mutant;
param_enum("torture.mutant", mutant, mutant_names,
	   "early_gp: grace periods end at once, to show the torture "
	   "catches it (default none)");

#define PIPE_LEN 10
#define NR_OBJS 64

struct torture_obj {
	struct rcu_head rh;
	int pipe; /* 0: current; then 1 + grace periods since removal */
	bool in_use;
};

static struct torture_obj objs[NR_OBJS];
static struct torture_obj *torture_current;
static DEFINE_SPINLOCK(obj_lock);

struct reader {
	u64 pipe[PIPE_LEN + 1];
	u64 reads;
	u64 seed;
	struct completion done;
};

static DEFINE_CPU_ARRAY(struct reader, readers); /* one per CPU at most */
static u64 circulation[PIPE_LEN + 1]; /* objects that reached pipe i */
static u64 writes, syncs, alloc_waits, cbs_run;
static volatile bool stop;
static struct completion writer_done;

struct onoff {
	u64 on_try, on_ok, off_try, off_ok;
	u64 on_min, on_max, off_min, off_max; /* ns */
	u64 seed;
	unsigned long interval_ms;
	struct completion done;
};

static struct onoff onoff;

/* xorshift64: small, and reproducible from a seed. */
static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static struct torture_obj *obj_alloc(void)
{
	struct torture_obj *p = NULL;
	unsigned long flags;

	spin_lock_irqsave(&obj_lock, flags);
	for (int i = 0; i < NR_OBJS && !p; i++)
		if (!objs[i].in_use)
			p = &objs[i];
	if (p) {
		p->in_use = true;
		p->pipe = 0;
	}
	spin_unlock_irqrestore(&obj_lock, flags);
	return p;
}

/* One grace period more since p's removal: count it, free at the end. */
static void pipe_advance(struct rcu_head *rh)
{
	struct torture_obj *p = container_of(rh, struct torture_obj, rh);
	int pipe = READ_ONCE(p->pipe) + 1;
	unsigned long flags;

	WRITE_ONCE(p->pipe, pipe);
	cbs_run++; /* callbacks run one at a time per CPU; a rough count */
	circulation[min(pipe, PIPE_LEN)]++;
	if (pipe < PIPE_LEN) {
		call_rcu(&p->rh, pipe_advance);
		return;
	}
	spin_lock_irqsave(&obj_lock, flags);
	p->in_use = false;
	spin_unlock_irqrestore(&obj_lock, flags);
}

static int torture_writer(void *arg)
{
	struct torture_obj *old, *p;

	while (!stop) {
		p = obj_alloc();
		if (!p) { /* all in the pipe: let grace periods pass */
			alloc_waits++;
			msleep(1);
			continue;
		}
		old = torture_current;
		rcu_assign_pointer(torture_current, p);
		writes++;
		if (!old)
			continue;
		WRITE_ONCE(old->pipe, 1); /* removed */
		if (!(writes & 7)) {
			synchronize_rcu();
			syncs++;
		}
		call_rcu(&old->rh, pipe_advance);
		cond_resched();
	}
	complete(&writer_done);
	return 0;
}

static int torture_reader(void *arg)
{
	struct reader *r = arg;

	while (!stop) {
		struct torture_obj *p;
		u64 rnd = next_rand(&r->seed);

		rcu_read_lock();
		p = rcu_dereference(torture_current);
		if (p) {
			/* Sometimes linger, so grace periods must wait. */
			if (!(rnd & 0x3f))
				udelay(rnd >> 58); /* 0..63 us */
			r->pipe[min(READ_ONCE(p->pipe), PIPE_LEN)]++;
			r->reads++;
		}
		rcu_read_unlock();
		if (!(rnd & 0xff00))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

static void note_latency(u64 ns, u64 *lo, u64 *hi)
{
	if (!*lo || ns < *lo)
		*lo = ns;
	if (ns > *hi)
		*hi = ns;
}

/* Random CPU down or up every interval; any CPU, the boot CPU too, but
 * never the last one online. */
static int torture_onoff(void *arg)
{
	struct onoff *o = arg;

	while (!stop) {
		unsigned int cpu = next_rand(&o->seed) % nr_cpu_ids;
		u64 t0 = ktime_get_ns();

		if (cpu_online(cpu) && num_online_cpus() > 1) {
			o->off_try++;
			if (!cpu_down(cpu)) {
				o->off_ok++;
				note_latency(ktime_get_ns() - t0, &o->off_min,
					     &o->off_max);
			}
		} else if (!cpu_online(cpu) &&
			   cpumask_test_cpu(cpu, cpu_present_mask)) {
			o->on_try++;
			if (!cpu_up(cpu)) {
				o->on_ok++;
				note_latency(ktime_get_ns() - t0, &o->on_min,
					     &o->on_max);
			}
		}
		msleep(o->interval_ms);
	}
	complete(&o->done);
	return 0;
}

static u64 us(u64 ns)
{
	return ns / 1000;
}

static bool print_stats(long gps)
{
	u64 pipe[PIPE_LEN + 1] = {0}, reads = 0, bad = 0;
	char line[160];
	int n = 0;

	for (unsigned int r = 0; r < nr_cpu_ids; r++) {
		for (int i = 0; i <= PIPE_LEN; i++)
			pipe[i] += readers[r].pipe[i];
		reads += readers[r].reads;
	}
	for (int i = 2; i <= PIPE_LEN; i++)
		bad += pipe[i];
	pr_info("rtc: writes %lu, syncs %lu, alloc waits %lu, reads %lu, "
		"grace periods %ld, callbacks %lu\n",
		writes, syncs, alloc_waits, reads, gps, cbs_run);
	for (int i = 0; i <= PIPE_LEN; i++)
		n += snprintf(line + n, sizeof(line) - n, " %lu", pipe[i]);
	pr_info("Reader Pipe:%s\n", line);
	n = 0;
	for (int i = 0; i <= PIPE_LEN; i++)
		n += snprintf(line + n, sizeof(line) - n, " %lu",
			      circulation[i]);
	pr_info("Free-Block Circulation:%s\n", line);
	pr_info("onoff: onOK/onTry %lu/%lu offOK/offTry %lu/%lu, "
		"on us min/max %lu/%lu, off us min/max %lu/%lu\n",
		onoff.on_ok, onoff.on_try, onoff.off_ok, onoff.off_try,
		us(onoff.on_min), us(onoff.on_max), us(onoff.off_min),
		us(onoff.off_max));
	if (bad)
		pr_err("%lu reads saw an object a grace period after its "
		       "removal\n",
		       bad);
	return !bad;
}

static u64 hotplug_cycles(void)
{
	return min(READ_ONCE(onoff.on_ok), READ_ONCE(onoff.off_ok));
}

/*
 * Run for `seconds`, or less once the goal of torture.goal=CYCLES,GPS is
 * met, so that a long run on a slow host still reaches its targets and
 * one on a fast host stops when it has. A progress line every minute.
 */
static void torture_wait(unsigned long seconds, long gp_start)
{
	unsigned long goal_cycles = 0, goal_gps = 0;
	struct rcu_stats now;
	bool goal = false;
	const char *arg = goal_word;
	char *end;
	long gps;

	if (arg[0]) {
		goal_cycles = strtoul(arg, &end, 10);
		goal = *end == ',';
		if (goal)
			goal_gps = strtoul(end + 1, &end, 10);
		if (!goal || *end) {
			pr_err("torture.goal=%s: want CYCLES,GPS; running %lu "
			       "s\n",
			       arg, seconds);
			goal = false;
		}
	}
	for (unsigned long s = 1; s <= seconds; s++) {
		msleep(1000);
		rcu_get_stats(&now);
		gps = now.gp_completed - gp_start;
		if (s % 60 == 0)
			pr_info("%lu s: %ld grace periods, %lu hotplug "
				"cycles\n",
				s, gps, hotplug_cycles());
		if (goal && hotplug_cycles() >= goal_cycles &&
		    gps >= (long)goal_gps) {
			pr_info("goal of %lu hotplug cycles and %lu grace "
				"periods met after %lu s\n",
				goal_cycles, goal_gps, s);
			return;
		}
	}
	if (goal)
		pr_warn("goal of %lu hotplug cycles and %lu grace periods not "
			"met in %lu s\n",
			goal_cycles, goal_gps, seconds);
}

static unsigned long torture_secs;
param_ulong("torture", torture_secs, 1, 86400,
	    "S: RCU + hotplug torture for S seconds, then SUCCESS or FAILURE");

void rcu_torture_boot(void)
{
	if (torture_secs)
		rcu_torture_run(torture_secs);
}

void rcu_torture_run(unsigned long seconds)
{
	unsigned int nr_readers = 0, cpu;
	struct rcu_stats before, after;
	bool ok;

	if (mutant == MUTANT_EARLY_GP) {
		pr_warn("MUTANT: grace periods end as soon as they start\n");
		fault_inject("rcu_early_gp", "on");
	}
	onoff.interval_ms = onoff_ms;
	onoff.seed = 0x2013;
	init_completion(&onoff.done);
	rcu_get_stats(&before);
	pr_info("%lu s, %u readers, CPU down/up every %lu ms\n", seconds,
		num_online_cpus(), onoff.interval_ms);
	init_completion(&writer_done);
	if (!kthread_run(torture_writer, NULL, "rcu_torture_writer"))
		complete(&writer_done);
	for_each_online_cpu (cpu) {
		struct reader *r = &readers[nr_readers];

		r->seed = 0x9e3779b97f4a7c15ULL * (cpu + 1);
		init_completion(&r->done);
		if (!kthread_run(torture_reader, r, "rcu_torture_reader/%u",
				 cpu))
			break;
		nr_readers++;
	}
	if (onoff.interval_ms && nr_cpu_ids > 1)
		kthread_run(torture_onoff, &onoff, "rcu_torture_onoff");
	else
		complete(&onoff.done);
	torture_wait(seconds, before.gp_completed);
	stop = true;
	wait_for_completion(&onoff.done);
	wait_for_completion(&writer_done);
	for (unsigned int i = 0; i < nr_readers; i++)
		wait_for_completion(&readers[i].done);
	fault_clear("rcu_early_gp");
	rcu_barrier();
	cpu_up_all();
	rcu_get_stats(&after);
	ok = print_stats(after.gp_completed - before.gp_completed);
	pr_info("--- End of test: %s\n", ok ? "SUCCESS" : "FAILURE");
}
