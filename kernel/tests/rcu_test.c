/* Tests of RCU: grace periods wait for readers, callbacks, stalls. */
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/printf.h>
#include <string.h>

struct reader {
	u64 hold_ns;
	bool mark_idle; /* run as an idle task does (init_task at boot) */
	volatile bool inside;
	volatile bool left;
	u64 left_ns;
	unsigned long stall_reports; /* rcu_stall_reports as it left */
	/* Hold on (up to 10 s more) until rcu_stall_reports reaches this. */
	unsigned long until_reports;
	unsigned int cpu;
	volatile bool stop; /* leave now, whatever hold_ns says */
	struct completion done;
};

/* Enter a read-side section, hold it for hold_ns, leave, record when. */
static int reader_thread(void *p)
{
	struct reader *r = p;
	u64 end;

	current->idle = r->mark_idle;
	rcu_read_lock();
	r->cpu = smp_processor_id();
	r->inside = true;
	end = ktime_get_ns() + r->hold_ns;
	while (!r->stop && (ktime_get_ns() < end ||
			    (READ_ONCE(rcu_stall_reports) < r->until_reports &&
			     ktime_get_ns() < end + 10000 * 1000000ULL)))
		cpu_relax();
	r->left_ns = ktime_get_ns();
	r->stall_reports = READ_ONCE(rcu_stall_reports);
	smp_store_release(&r->left, true);
	rcu_read_unlock();
	current->idle = false;
	complete(&r->done);
	return 0;
}

/* Start a reader on another CPU and wait until it is inside. */
static void start_reader_until(struct reader *r, u64 hold_ms, bool mark_idle,
			       unsigned long until_reports)
{
	struct task_struct *t;
	unsigned int cpu = raw_smp_processor_id() == 0 ? 1 : 0;

	memset(r, 0, sizeof(*r));
	r->hold_ns = hold_ms * 1000000ULL;
	r->until_reports = until_reports;
	r->mark_idle = mark_idle;
	init_completion(&r->done);
	t = kthread_create(reader_thread, r, "reader");
	kthread_bind(t, cpu);
	wake_up_process(t);
	while (!READ_ONCE(r->inside))
		cpu_relax();
}

static void start_reader_on(struct reader *r, u64 hold_ms, bool mark_idle)
{
	start_reader_until(r, hold_ms, mark_idle, 0);
}

static void start_reader(struct reader *r, u64 hold_ms)
{
	start_reader_on(r, hold_ms, false);
}

static void check_waits_idle(struct kunit *test, void (*sync)(void),
			     bool mark_idle)
{
	static struct reader r;
	u64 returned;

	start_reader_on(&r, 100, mark_idle);
	sync();
	returned = ktime_get_ns();
	KUNIT_EXPECT_TRUE(test, smp_load_acquire(&r.left));
	KUNIT_EXPECT_GE(test, returned, r.left_ns);
	/* "Soon after": well within a second, even under emulation. */
	KUNIT_EXPECT_LT(test, returned - r.left_ns, 1000 * 1000000ULL);
	wait_for_completion(&r.done);
}

static void check_waits(struct kunit *test, void (*sync)(void))
{
	check_waits_idle(test, sync, false);
}

/* Does synchronize_rcu() wait for a reader on another CPU, and no longer? */
static void rcu_sync_waits_for_reader(struct kunit *test)
{
	if (have_cpus(test, 2))
		check_waits(test, synchronize_rcu);
}

/* Does the expedited form wait for it too? */
static void rcu_sync_expedited_waits_for_reader(struct kunit *test)
{
	if (have_cpus(test, 2))
		check_waits(test, synchronize_rcu_expedited);
}

/* With nothing to wait for, do both forms return (even on one CPU)? */
static void rcu_sync_returns(struct kunit *test)
{
	struct rcu_stats a, b;

	rcu_get_stats(&a);
	synchronize_rcu();
	synchronize_rcu_expedited();
	synchronize_rcu();
	rcu_get_stats(&b);
	KUNIT_EXPECT_GE(test, b.gp_completed - a.gp_completed, 2);
}

struct cb_probe {
	struct rcu_head head;
	struct reader *r;
	bool reader_had_left;
	volatile bool ran;
};

static void cb_probe_fn(struct rcu_head *head)
{
	struct cb_probe *p = container_of(head, struct cb_probe, head);

	p->reader_had_left = smp_load_acquire(&p->r->left);
	smp_store_release(&p->ran, true);
}

/* Does a callback queued during a reader's section run only after it? */
static void rcu_callback_after_grace_period(struct kunit *test)
{
	static struct reader r;
	static struct cb_probe p;

	if (!have_cpus(test, 2))
		return;
	start_reader(&r, 100);
	p = (struct cb_probe){.r = &r};
	call_rcu(&p.head, cb_probe_fn);
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, p.ran);
	KUNIT_EXPECT_TRUE(test, p.reader_had_left);
	wait_for_completion(&r.done);
}

struct counted {
	struct rcu_head head;
	int *count;
};

static void counted_free(struct rcu_head *head)
{
	struct counted *c = container_of(head, struct counted, head);

	__atomic_fetch_add(c->count, 1, __ATOMIC_RELAXED);
	kfree(c);
}

struct flood_arg {
	int per_cpu;
	int *count;
	int queued;
	struct completion done;
};

static int flood(void *p)
{
	struct flood_arg *a = p;

	for (int i = 0; i < a->per_cpu; i++) {
		struct counted *c = kmalloc(sizeof(*c));

		if (!c)
			break;
		c->count = a->count;
		call_rcu(&c->head, counted_free);
		a->queued++;
		cond_resched();
	}
	complete(&a->done);
	return 0;
}

/* Do thousands of callbacks queued on every CPU all run, freeing memory? */
static void rcu_many_callbacks_all_run(struct kunit *test)
{
	/*
	 * Thousands in all, spread over however many CPUs there are. Not
	 * more: with 8 vCPUs on 2 loaded host cores, threads queueing on
	 * kmalloc's ticket lock behind a descheduled vCPU made 12000 take
	 * 40 s (hung-task report) about one boot in twenty.
	 */
	unsigned int per_cpu = 4000 / num_online_cpus();
	struct flood_arg *args = kunit_kcalloc(test, nr_cpu_ids, sizeof(*args));
	static int count;
	struct mem_stats before, after;
	unsigned int cpu, total = 0, threads = nr_threads();

	KUNIT_ASSERT_NOT_NULL(test, args);
	rcu_barrier();
	mem_get_stats(&before);
	count = 0;
	for_each_online_cpu (cpu) {
		struct task_struct *t;

		args[cpu] =
			(struct flood_arg){.per_cpu = per_cpu, .count = &count};
		init_completion(&args[cpu].done);
		t = kthread_create(flood, &args[cpu], "flood/%u", cpu);
		KUNIT_ASSERT_NOT_NULL(test, t);
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
	for_each_online_cpu (cpu) {
		wait_for_completion(&args[cpu].done);
		total += args[cpu].queued;
	}
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, total, per_cpu * num_online_cpus());
	KUNIT_EXPECT_EQ(test, READ_ONCE(count), total);
	KUNIT_EXPECT_TRUE(test, wait_threads_reaped(threads));
	mem_get_stats(&after);
	KUNIT_EXPECT_EQ(test, after.kmalloc_objects, before.kmalloc_objects);
}

static int probes_ran;

static void count_probe(struct rcu_head *head)
{
	__atomic_fetch_add(&probes_ran, 1, __ATOMIC_RELAXED);
}

static void queue_probe(void *heads)
{
	call_rcu(&((struct rcu_head *)heads)[smp_processor_id()], count_probe);
}

/*
 * While a GP runs (a reader holds it open), every CPU asks for the next
 * one at once: none may take rcu_state.lock (at 512 CPUs that queue
 * stopped the guest for a minute), and the GP asked for without it must
 * still come: every callback runs.
 */
static void rcu_gp_requests_while_one_runs_take_no_lock(struct kunit *test)
{
	struct rcu_head *heads =
		kunit_kcalloc(test, nr_cpu_ids + 1, sizeof(*heads));
	struct rcu_stats before, after;
	static struct reader r;

	KUNIT_ASSERT_NOT_NULL(test, heads);
	if (num_online_cpus() < 2) {
		kunit_skip(test, "needs 2 CPUs");
		return;
	}
	rcu_barrier();
	probes_ran = 0;
	start_reader(&r, 60000); /* until r.stop */
	call_rcu(&heads[nr_cpu_ids], count_probe); /* starts a GP */
	rcu_get_stats(&before);
	on_each_cpu(queue_probe, heads, true);
	rcu_get_stats(&after);
	KUNIT_EXPECT_NE(test, before.gp_seq, before.gp_completed);
	/* The reader held that GP throughout, so no request found none. */
	KUNIT_EXPECT_EQ(test, after.gp_completed, before.gp_completed);
	KUNIT_EXPECT_EQ(test, after.gp_requests_locked,
			before.gp_requests_locked);
	kunit_info(test,
		   "%u CPUs asked for GP %ld while %ld ran: %llu took "
		   "the lock",
		   num_online_cpus(), before.gp_seq + 1, before.gp_seq,
		   (unsigned long long)(after.gp_requests_locked -
					before.gp_requests_locked));
	WRITE_ONCE(r.stop, true);
	wait_for_completion(&r.done);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, READ_ONCE(probes_ran), num_online_cpus() + 1);
}

struct local_probe {
	struct rcu_head head;
	volatile bool ran;
};

static void local_probe_fn(struct rcu_head *head)
{
	smp_store_release(&container_of(head, struct local_probe, head)->ran,
			  true);
}

/* What a reader on this CPU saw, from inside its section. */
struct local_hold {
	struct rcu_stats entry, exit;
	u64 ticks;
	bool ran_inside;
	unsigned long stall_reports;
	u64 unlock_ns;
	unsigned int cpu;
};

static void spin_relax(void)
{
	cpu_relax();
}

/*
 * Hold a read-side section on this CPU for hold_ms and at least
 * min_ticks of its ticks (2 s more at most, then h->ticks says so), with
 * p's callback queued inside it, calling spin() as it waits. On one CPU
 * nothing else can run meanwhile, so the section itself records what RCU
 * did.
 */
static void hold_reader_here(struct local_hold *h, struct local_probe *p,
			     u64 hold_ms, u64 min_ticks,
			     unsigned long until_reports, void (*spin)(void))
{
	u64 t0, end, give_up;

	p->ran = false;
	rcu_read_lock();
	h->cpu = smp_processor_id();
	t0 = tick_count_cpu(h->cpu);
	rcu_get_stats(&h->entry);
	call_rcu(&p->head, local_probe_fn);
	end = ktime_get_ns() + hold_ms * 1000000ULL;
	give_up = end + (until_reports ? 10000 : 2000) * 1000000ULL;
	while (ktime_get_ns() < end ||
	       ((tick_count_cpu(h->cpu) - t0 < min_ticks ||
		 READ_ONCE(rcu_stall_reports) < until_reports) &&
		ktime_get_ns() < give_up))
		spin();
	h->ticks = tick_count_cpu(h->cpu) - t0;
	rcu_get_stats(&h->exit);
	h->ran_inside = smp_load_acquire(&p->ran);
	h->stall_reports = READ_ONCE(rcu_stall_reports);
	h->unlock_ns = ktime_get_ns();
	rcu_read_unlock();
}

/* Wait (up to 2 s) for p's callback; how long after h's unlock it ran. */
static u64 wait_local_probe(struct local_hold *h, struct local_probe *p)
{
	u64 give_up = h->unlock_ns + 2000 * 1000000ULL;

	while (!smp_load_acquire(&p->ran) && ktime_get_ns() < give_up)
		msleep(1);
	return ktime_get_ns() - h->unlock_ns;
}

/*
 * A reader on this CPU (the only one, with -smp 1) spans several of its
 * ticks with a callback queued inside: does no grace period started
 * after it began end, and the callback not run, while it holds; and do
 * both happen soon after rcu_read_unlock()?
 */
static void check_local_reader_holds_gp(struct kunit *test, void (*spin)(void))
{
	static struct local_probe p;
	struct local_hold h;
	struct rcu_stats after;
	u64 took;

	rcu_barrier();
	hold_reader_here(&h, &p, 0, 5, 0, spin);
	KUNIT_EXPECT_GE(test, h.ticks, 5);
	KUNIT_EXPECT_FALSE(test, h.ran_inside);
	/* Whatever started after rcu_read_lock() is still running... */
	KUNIT_EXPECT_LE(test, h.exit.gp_completed, h.entry.gp_seq);
	/* ...and one is: the callback asked for it. */
	KUNIT_EXPECT_GT(test, h.exit.gp_seq, h.exit.gp_completed);
	took = wait_local_probe(&h, &p);
	KUNIT_EXPECT_TRUE(test, smp_load_acquire(&p.ran));
	/* "Soon after": well within a second, even under emulation. */
	KUNIT_EXPECT_LT(test, took, 1000 * 1000000ULL);
	rcu_get_stats(&after);
	KUNIT_EXPECT_GT(test, after.gp_completed, h.entry.gp_seq);
}

/* ...with a reader that only spins. */
static void rcu_local_reader_holds_gp(struct kunit *test)
{
	check_local_reader_holds_gp(test, spin_relax);
}

/*
 * The same reader, calling cond_resched() as a long loop does: is it
 * still no quiescent state, so that the grace period waits? (It once
 * recorded one whatever the preempt count, and the next tick ended the
 * grace period under the reader.)
 */
static void rcu_cond_resched_in_reader_holds_gp(struct kunit *test)
{
	check_local_reader_holds_gp(test, cond_resched);
}

/*
 * Does a reader held past the stall timeout get reported, by CPU, and
 * reported again while it persists? With one CPU the reader is this
 * thread, and its own tick reports it.
 */
static void rcu_stall_reported_and_stops(struct kunit *test)
{
	static struct local_probe p;
	static struct reader r;
	unsigned long saved = rcu_stall_timeout_ms, reports, held;
	static char log[8192];
	struct local_hold h;
	unsigned int cpu;
	char want[64];
	size_t n;

	rcu_barrier();
	rcu_stall_timeout_ms = 300;
	reports = rcu_stall_reports;
	/*
	 * 700 ms: reports due at about 300 and 600 ms; held on until there
	 * are two (or 10 s more), since a busy host may delay the ticks that
	 * report: the outcome is checked, not the timing.
	 */
	if (num_online_cpus() >= 2) {
		start_reader_until(&r, 700, false, reports + 2);
		synchronize_rcu(); /* a grace period the reader holds up */
		wait_for_completion(&r.done);
		held = r.stall_reports - reports;
		cpu = r.cpu;
	} else {
		hold_reader_here(&h, &p, 700, 0, reports + 2, spin_relax);
		wait_local_probe(&h, &p);
		KUNIT_EXPECT_TRUE(test, smp_load_acquire(&p.ran));
		held = h.stall_reports - reports;
		cpu = h.cpu;
	}
	KUNIT_EXPECT_GE(test, held, 2);
	n = log_read(log, sizeof(log) - 1);
	log[n] = '\0';
	snprintf(want, sizeof(want), "rcu detected stalls on CPUs: { %u }",
		 cpu);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, want));
	reports = rcu_stall_reports;
	msleep(800);
	synchronize_rcu();
	KUNIT_EXPECT_EQ(test, rcu_stall_reports, reports);
	rcu_stall_timeout_ms = saved;
}

/*
 * With every other CPU idle and tickless, do normal and expedited grace
 * periods complete without those CPUs taking a single tick? Except the
 * tick broadcast's host (kernel/time/tick_broadcast.c) when idle states stop
 * timers: its timer serves the ticks of this CPU while the caller sleeps
 * deep in synchronize_rcu(), which is this CPU's time, not RCU's.
 */
static void rcu_gp_leaves_idle_cpus_alone(struct kunit *test)
{
	u64 *before = kunit_kcalloc(test, nr_cpu_ids, sizeof(*before));
	unsigned int cpu, me, woken = 0;
	struct cpumask here;

	if (!have_cpus(test, 2))
		return;
	KUNIT_ASSERT_NOT_NULL(test, before);
	rcu_barrier();
	/* Stay on one CPU: a wake-up elsewhere would give that one ticks. */
	me = raw_smp_processor_id();
	cpumask_clear(&here);
	cpumask_set_cpu(me, &here);
	set_cpus_allowed(current, &here);
	msleep(50); /* let the others settle into tickless idle */
	for_each_online_cpu (cpu)
		before[cpu] = tick_count_cpu(cpu);
	for (int i = 0; i < 3; i++) {
		synchronize_rcu();
		synchronize_rcu_expedited();
	}
	for_each_online_cpu (cpu) {
		if (cpu == me || (int)cpu == tick_broadcast_host())
			continue;
		if (tick_count_cpu(cpu) - before[cpu] > 1) {
			kunit_info(test, "CPU%u took %llu ticks", cpu,
				   (unsigned long long)(tick_count_cpu(cpu) -
							before[cpu]));
			woken++;
		}
	}
	set_cpus_allowed(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, woken, 0);
}

/*
 * A reader on a thread marked as its CPU's idle task, as init_task is
 * while it runs boot code with interrupts on: does a normal grace period
 * still wait for it? Only the idle loop's extended QS is quiescent.
 */
static void rcu_sync_waits_for_idle_task_reader(struct kunit *test)
{
	if (have_cpus(test, 2))
		check_waits_idle(test, synchronize_rcu, true);
}

/* And an expedited one, whose IPI lands inside that reader? */
static void rcu_sync_expedited_waits_for_idle_task_reader(struct kunit *test)
{
	if (have_cpus(test, 2))
		check_waits_idle(test, synchronize_rcu_expedited, true);
}

/* Busy threads on every CPU but 0: they never sleep nor go idle. */
struct exp_load {
	volatile bool stop;
	int left; /* spinners that have stopped */
	struct completion caller_done;
};

static int exp_spinner(void *p)
{
	struct exp_load *l = p;

	while (!l->stop)
		cond_resched();
	__atomic_fetch_add(&l->left, 1, __ATOMIC_RELEASE);
	return 0;
}

static int exp_caller(void *p)
{
	struct exp_load *l = p;

	synchronize_rcu_expedited();
	complete(&l->caller_done);
	return 0;
}

/*
 * With every CPU but the caller's busy, does an expedited grace period
 * that meets `fault` still end? A CPU the fault left without an IPI must
 * be asked again, or the grace period waits until that CPU goes idle,
 * here until the load stops.
 */
static void check_exp_ends(struct kunit *test, const char *fault)
{
	static struct exp_load l;
	struct task_struct *t;
	unsigned int cpu, n = 0;
	u64 deadline;
	bool ended;

	if (!have_cpus(test, 2))
		return;
	l = (struct exp_load){0};
	init_completion(&l.caller_done);
	for_each_online_cpu (cpu) {
		if (cpu == 0)
			continue;
		t = kthread_create(exp_spinner, &l, "expload/%u", cpu);
		KUNIT_ASSERT_NOT_NULL(test, t);
		kthread_bind(t, cpu);
		wake_up_process(t);
		n++;
	}
	t = kthread_create(exp_caller, &l, "expcaller");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 0); /* the caller leaves CPU 0 out of the targets */
	fault_inject("rcu_exp", fault);
	wake_up_process(t);
	/* A tick or two with the fix; for ever (while loaded) without. */
	ended = wait_for_completion_timeout(&l.caller_done,
					    msecs_to_jiffies(10000));
	l.stop = true;
	if (!ended) {
		kunit_info(test, "no end in 10 s with every CPU busy");
		wait_for_completion(&l.caller_done); /* CPUs go idle now */
	}
	fault_clear("rcu_exp");
	deadline = jiffies + msecs_to_jiffies(10000);
	while (__atomic_load_n(&l.left, __ATOMIC_ACQUIRE) < (int)n &&
	       jiffies < deadline)
		msleep(1);
	KUNIT_EXPECT_TRUE(test, ended);
}

/* The caller moved onto a CPU it chose, at its next preemption point. */
static void rcu_exp_ends_caller_migrates(struct kunit *test)
{
	check_exp_ends(test, "migrate");
}

/* One chosen CPU never got its IPI: its tick must report for it. */
static void rcu_exp_ends_ipi_missing(struct kunit *test)
{
	check_exp_ends(test, "miss_ipi");
}

/* No memory for the first IPI request: that CPU must still be called. */
static void rcu_exp_ends_no_csd(struct kunit *test)
{
	check_exp_ends(test, "no_csd");
}

/*
 * Does a grace period end while a thread on another CPU is nearly always
 * inside a read-side section (1 ms sections back to back, for 3 s)?
 * Before rcu_urge_qs() its CPU reported only when a tick landed between
 * two sections: the grace period waited for the thread to finish.
 */
static void rcu_sync_ends_under_busy_reader(struct kunit *test)
{
	static struct busy_reader b;
	bool finished;

	if (!have_cpus(test, 2))
		return;
	b = (struct busy_reader){.section_us = 1000, .max_sections = 3000};
	KUNIT_ASSERT_TRUE(test, busy_reader_start(&b, 1));
	synchronize_rcu();
	finished = completion_done(&b.done);
	b.stop = true;
	wait_for_completion(&b.done);
	if (finished)
		kunit_info(test, "the grace period waited for all %u sections",
			   b.sections);
	KUNIT_EXPECT_FALSE(test, finished);
}

/*
 * A polled grace period (get_state_synchronize_rcu()): is the cookie
 * not yet passed while the taker is still inside a read-side section,
 * and passed once synchronize_rcu() returned?
 */
static void rcu_polled_grace_period(struct kunit *test)
{
	unsigned long cookie;

	rcu_read_lock();
	cookie = get_state_synchronize_rcu();
	udelay(30000); /* ticks come, and GPs that may end without us */
	KUNIT_EXPECT_FALSE(test, poll_state_synchronize_rcu(cookie));
	rcu_read_unlock();
	synchronize_rcu();
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu(cookie));
}

static const struct kunit_case rcu_cases[] = {
	KUNIT_CASE(rcu_polled_grace_period),
	KUNIT_CASE(rcu_gp_leaves_idle_cpus_alone),
	KUNIT_CASE(rcu_sync_returns),
	KUNIT_CASE(rcu_local_reader_holds_gp),
	KUNIT_CASE(rcu_cond_resched_in_reader_holds_gp),
	KUNIT_CASE(rcu_sync_waits_for_reader),
	KUNIT_CASE(rcu_sync_expedited_waits_for_reader),
	KUNIT_CASE(rcu_sync_waits_for_idle_task_reader),
	KUNIT_CASE(rcu_sync_expedited_waits_for_idle_task_reader),
	KUNIT_CASE(rcu_exp_ends_caller_migrates),
	KUNIT_CASE(rcu_exp_ends_ipi_missing),
	KUNIT_CASE(rcu_exp_ends_no_csd),
	KUNIT_CASE(rcu_sync_ends_under_busy_reader),
	KUNIT_CASE(rcu_callback_after_grace_period),
	KUNIT_CASE(rcu_many_callbacks_all_run),
	KUNIT_CASE(rcu_gp_requests_while_one_runs_take_no_lock),
	KUNIT_CASE(rcu_stall_reported_and_stops),
	{},
};

static const struct kunit_suite rcu_suite = {"rcu", rcu_cases};
kunit_test_suite(rcu_suite);
