/*
 * Tests of CPU hotplug itself: what a down and an up do to the CPU, its
 * memory, and the threads, timers and interrupts that were on it;
 * refusals (the last CPU, a bound thread, a second down or up) leave
 * everything as it was. Firmware failures are in hotplug_fault_test.c,
 * readers of the online mask in hotplug_readers_test.c.
 */
#include <asm/vmap_stack.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include "helpers.h"

/* Is the last online CPU refused, leaving the mask as it was? */
static void hotplug_last_cpu_refused(struct kunit *test)
{
	unsigned int cpu, last = 0;
	struct cpumask here;

	if (!downs_allowed(test))
		return;
	/* Stay put, so the CPU we keep is the one we run on. */
	cpumask_clear(&here);
	cpumask_set_cpu(raw_smp_processor_id(), &here);
	set_cpus_allowed(current, &here);
	for_each_present_cpu (cpu)
		if (cpu != smp_processor_id() && cpu_online(cpu))
			KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), 1);
	last = cpumask_first(cpu_online_mask);
	KUNIT_EXPECT_EQ(test, cpu_down(last), -EBUSY);
	KUNIT_EXPECT_TRUE(test, cpu_online(last));
	KUNIT_EXPECT_EQ(test, num_online_cpus(), 1);
	cpu_up_all();
	set_cpus_allowed(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), nr_cpu_ids);
}

/* Are a second down and a second up clear errors, not hangs? */
static void hotplug_double_down_and_up(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -EALREADY);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), -EALREADY);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpu_down(nr_cpu_ids + 3), -EINVAL);
}

/* Is a CPU with a thread bound to it refused, until the thread is gone? */
static void hotplug_bound_thread_refuses(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	struct completion release;
	unsigned int threads = nr_threads();
	struct task_struct *t;

	if (!have_down_cpus(test, 2))
		return;
	init_completion(&release);
	t = kthread_create(wait_on, &release, "bound/%u", cpu);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -EBUSY);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_TRUE(test, cpu_active(cpu));
	complete(&release);
	KUNIT_ASSERT_TRUE(test, wait_threads_reaped(threads));
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * Does going down give the CPU's per-CPU area back (mem counters), and
 * keep its idle thread and stack for the next up, which makes none?
 */
static void hotplug_down_frees_memory(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, stacks;
	struct task_struct *idle = idle_thread_get(cpu);
	struct mem_stats on, off, back;

	if (!have_down_cpus(test, 2))
		return;
	mem_get_stats(&on);
	stacks = vmap_stacks_in_use();
	KUNIT_ASSERT_NOT_NULL(test, percpu_area(cpu));
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	mem_get_stats(&off);
	KUNIT_EXPECT_NULL(test, percpu_area(cpu));
	KUNIT_EXPECT_LT(test, off.kmalloc_bytes, on.kmalloc_bytes);
	KUNIT_EXPECT_LT(test, off.kmalloc_objects, on.kmalloc_objects);
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(), stacks);
	KUNIT_EXPECT_TRUE(test, idle_thread_get(cpu) == idle);
	KUNIT_ASSERT_EQ(test, cpu_up(cpu), 0);
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(), stacks);
	KUNIT_EXPECT_TRUE(test, idle_thread_get(cpu) == idle);
	rcu_barrier();
	mem_get_stats(&back);
	KUNIT_EXPECT_EQ(test, back.kmalloc_objects, on.kmalloc_objects);
}

/*
 * After a down and an up, are both operations' firmware shares recorded,
 * above 0 and below the operation's total? A timestamp not taken, read
 * through a stale cache line or taken on the wrong side of the firmware
 * call fails here.
 */
static void hotplug_firmware_share_timed(struct kunit *test)
{
	static struct cpuhp_stats before, after;
	unsigned int cpu = nr_cpu_ids - 1;
	struct cpuhp_op down, up;

	if (!have_down_cpus(test, 2))
		return;
	if (!psci_checkable()) {
		kunit_skip(test, "no firmware call to time (spin table, pen)");
		return;
	}
	hotplug_get_stats(&before);
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	KUNIT_ASSERT_EQ(test, cpu_up(cpu), 0);
	hotplug_last_ops(&down, &up);
	hotplug_get_stats(&after);
	kunit_info(test,
		   "CPU%u: down %lu us, firmware %lu us; up %lu us, "
		   "firmware %lu us",
		   cpu, down.ns / 1000, down.fw_ns / 1000, up.ns / 1000,
		   up.fw_ns / 1000);
	/* The samples exist, and the last ones are this test's. */
	KUNIT_EXPECT_EQ(test, after.fw_downs, before.fw_downs + 1);
	KUNIT_EXPECT_EQ(test, after.fw_ups, before.fw_ups + 1);
	KUNIT_EXPECT_EQ(test, down.seq, before.downs + 1);
	KUNIT_EXPECT_EQ(test, up.seq, before.ups + 1);
	KUNIT_EXPECT_EQ(test, down.cpu, cpu);
	KUNIT_EXPECT_EQ(test, up.cpu, cpu);
	/* Each a part of its own operation. */
	KUNIT_EXPECT_GT(test, down.fw_ns, 0);
	KUNIT_EXPECT_LT(test, down.fw_ns, down.ns);
	KUNIT_EXPECT_GT(test, up.fw_ns, 0);
	KUNIT_EXPECT_LT(test, up.fw_ns, up.ns);
	/* And summarised: every firmware sample so far is above 0. */
	KUNIT_EXPECT_GT(test, after.fw_down_ns[0], 0);
	KUNIT_EXPECT_GT(test, after.fw_up_ns[0], 0);
}

struct mover {
	volatile bool stop;
	struct cpumask seen;
	struct completion done;
};

static int keep_running(void *p)
{
	struct mover *m = p;

	while (!m->stop) {
		/* No preemption between reading the CPU and recording it. */
		preempt_disable();
		cpumask_set_cpu(smp_processor_id(), &m->seen);
		preempt_enable();
		cpu_relax();
	}
	complete(&m->done);
	return 0;
}

struct timer_probe {
	struct timer_list t;
	volatile bool down_done; /* set once cpu_down() returned */
	volatile bool fired_after_down;
	volatile int fired_on; /* CPU number + 1 */
};

static void timer_fired(struct timer_list *t)
{
	struct timer_probe *tp = container_of(t, struct timer_probe, t);

	tp->fired_after_down = tp->down_done;
	tp->fired_on = smp_processor_id() + 1;
}

/*
 * A busy thread on the CPU, a timer armed there and an interrupt routed
 * there: after the CPU goes down, do all three carry on elsewhere?
 */
static void hotplug_moves_threads_timers_irqs(struct kunit *test)
{
	static struct timer_probe tm;
	static struct mover m;
	unsigned int cpu = nr_cpu_ids - 1, spi = 0;
	struct task_struct *t;
	struct cpumask one;

	if (!have_down_cpus(test, 2))
		return;
	m = (struct mover){0};
	init_completion(&m.done);
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	t = kthread_create(keep_running, &m, "mover");
	KUNIT_ASSERT_NOT_NULL(test, t);
	set_cpus_allowed(t, &one); /* start it there... */
	wake_up_process(t);
	while (!cpumask_test_cpu(cpu, &m.seen))
		msleep(1);
	set_cpus_allowed(t, cpu_possible_mask); /* ...free to move after */
	tm = (struct timer_probe){0};
	timer_setup(&tm.t, timer_fired);
	/* Far enough out that it should still be pending after the down. */
	add_timer_on(&tm.t, jiffies + msecs_to_jiffies(1000), cpu);
	for (unsigned int irq = 32; irq < 1020 && !spi; irq++)
		if (irq_get_affinity(irq) >= 0)
			spi = irq;
	if (spi)
		irq_set_affinity(spi, cpu);
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	tm.down_done = true;
	if (timer_pending(&tm.t)) {
		KUNIT_EXPECT_NE(test, tm.t.cpu, (int)cpu);
		KUNIT_EXPECT_TRUE(test, cpu_online(tm.t.cpu));
	}
	cpumask_clear(&m.seen);
	/* Wait on outcomes, not a fixed time: a loaded host is slow. */
	for (int i = 0; i < 1000 && (!tm.fired_on || !cpumask_weight(&m.seen));
	     i++)
		msleep(10);
	KUNIT_EXPECT_GT(test, cpumask_weight(&m.seen), 0);
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(cpu, &m.seen));
	KUNIT_EXPECT_GT(test, tm.fired_on, 0);
	/* Fired on the old CPU before the down finished: proves nothing. */
	if (tm.fired_after_down)
		KUNIT_EXPECT_NE(test, tm.fired_on, cpu + 1);
	else
		kunit_info(test, "timer fired before the down completed (slow "
				 "host); move not checked");
	if (spi)
		KUNIT_EXPECT_NE(test, irq_get_affinity(spi), cpu);
	m.stop = true;
	wait_for_completion(&m.done);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * Does a CPU that went down and came back take ticks again? A thread bound
 * to it keeps it busy (an idle CPU stops its tick); its tick count must
 * advance by a few within a bounded wait, polled, not slept for.
 */
#define TICKS_AGAIN 3
#define TICKS_AGAIN_WAIT_NS (5 * 1000000000ULL)

static void hotplug_up_cpu_ticks_again(struct kunit *test)
{
	static struct mover m;
	unsigned int cpu = nr_cpu_ids - 1;
	struct task_struct *t;
	u64 before, got, end;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	KUNIT_ASSERT_EQ(test, cpu_up(cpu), 0);
	m = (struct mover){0};
	init_completion(&m.done);
	t = kthread_create(keep_running, &m, "ticker/%u", cpu);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	before = tick_count_cpu(cpu);
	wake_up_process(t);
	end = ktime_get_ns() + TICKS_AGAIN_WAIT_NS;
	/* The ticks must come while it runs: wait until it ran, too. */
	while ((tick_count_cpu(cpu) < before + TICKS_AGAIN ||
		!cpumask_test_cpu(cpu, &m.seen)) &&
	       ktime_get_ns() < end)
		msleep(10);
	got = tick_count_cpu(cpu) - before;
	m.stop = true;
	wait_for_completion(&m.done);
	if (got < TICKS_AGAIN)
		kunit_info(test,
			   "CPU%u took %llu tick(s) in 5 s busy after "
			   "coming back, wanted %d",
			   cpu, (unsigned long long)got, TICKS_AGAIN);
	KUNIT_EXPECT_GE(test, got, TICKS_AGAIN);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(cpu, &m.seen));
}

/*
 * Wait (up to 5 s) until cpu's recent utilisation makes it full in the
 * scheduler's pack mode (kernel/sched/pack.c): from then on both modes
 * treat it as busy, in placement and in the idle balancer.
 */
static bool wait_cpu_full(unsigned int cpu)
{
	struct sched_cpu_stats st;
	u64 end = jiffies + msecs_to_jiffies(5000);

	do {
		sched_cpu_stats(cpu, &st);
		if (st.util_pct >= sched_pack_capacity())
			return true;
		msleep(5);
	} while (jiffies < end);
	return false;
}

struct cpu_hog {
	volatile bool stop;
	struct completion done;
};

static int cpu_hog_fn(void *p)
{
	struct cpu_hog *h = p;

	while (!h->stop)
		cpu_relax();
	complete(&h->done);
	return 0;
}

/* Keep cpu busy until cpu_hog_stop(): it becomes full (wait_cpu_full()). */
static bool cpu_hog_start(struct cpu_hog *h, unsigned int cpu)
{
	struct task_struct *t = kthread_create(cpu_hog_fn, h, "hog/%u", cpu);

	*h = (struct cpu_hog){0};
	init_completion(&h->done);
	if (!t)
		return false;
	kthread_bind(t, cpu);
	wake_up_process(t);
	return wait_cpu_full(cpu);
}

static void cpu_hog_stop(struct cpu_hog *h)
{
	h->stop = true;
	wait_for_completion(&h->done);
}

/*
 * A waker chose the CPU going down while it was still active, and its
 * thread is queued only after sched:active cleared the bit (the hook
 * holds the waker, IRQs off, until then and 20 ms more). The thread then
 * spins without a switch. Drained before the grace period, the CPU would
 * get that thread after its drain and never reach its idle loop: the
 * down fails, or the thread runs on a CPU that is gone. Drained after it,
 * the thread is moved off. The waker starts before the down, or inside
 * it once the online bit is clear (a step hook): then no stop of the
 * online bit (hotplug.sync=stop_machine) covers it, only the grace
 * period before the drain does.
 *
 * The spinner may run on cpu and on CPU other, kept busy by a hog: both
 * scheduler modes then choose cpu, spread as the least loaded (and its
 * last CPU), pack as the only one not full.
 */
struct late_wake {
	struct task_struct *spinner;
	unsigned int cpu;
	struct cpumask allowed;
	volatile bool asleep, go, stop;
	volatile int ran_on; /* CPU number + 1, while spinning */
	struct completion spun, waker_done;
};

static int late_spinner(void *p)
{
	struct late_wake *lw = p;

	/* Ran on lw->cpu (bound there): it is where a wake-up looks first. */
	set_cpus_allowed(current, &lw->allowed);
	set_current_state(TASK_UNINTERRUPTIBLE);
	lw->asleep = true;
	schedule();
	while (!lw->stop)
		lw->ran_on = raw_smp_processor_id() + 1;
	complete(&lw->spun);
	return 0;
}

static int late_waker(void *p)
{
	struct late_wake *lw = p;

	while (!lw->go)
		cpu_relax();
	wake_up_process(lw->spinner);
	complete(&lw->waker_done);
	return 0;
}

static struct late_wake *waker_in_down;

/* Step hook: the online bit is clear now; let the waker go, wait for it
 * to reach the wake-up hook (it read the active bit set). */
static void start_waker_in_down(unsigned int cpu, const char *step, bool up)
{
	if (up || strcmp(step, "sched:active") || !waker_in_down)
		return;
	waker_in_down->go = true;
	waker_in_down = NULL;
	wait_for(!sched_delay_wakeup_pending(), 2000000);
}

static void late_waker_case(struct kunit *test, bool in_down)
{
	static struct late_wake lw;
	static struct cpu_hog hog;
	unsigned int cpu = nr_cpu_ids - 1, me = 0, other = 1;
	struct cpumask one;
	struct task_struct *w;
	u64 end;
	int err;

	if (!have_down_cpus(test, 3))
		return;
	/* This thread on CPU 0, the waker on CPU 1: it spins IRQs off. */
	cpumask_clear(&one);
	cpumask_set_cpu(me, &one);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &one), 0);
	lw = (struct late_wake){.cpu = cpu};
	cpumask_set_cpu(cpu, &lw.allowed);
	cpumask_set_cpu(other, &lw.allowed);
	KUNIT_EXPECT_TRUE(test, cpu_hog_start(&hog, other));
	init_completion(&lw.spun);
	init_completion(&lw.waker_done);
	lw.spinner = kthread_create(late_spinner, &lw, "late_spin");
	KUNIT_ASSERT_NOT_NULL(test, lw.spinner);
	kthread_bind(lw.spinner, cpu);
	wake_up_process(lw.spinner);
	while (!lw.asleep || READ_ONCE(lw.spinner->on_rq))
		msleep(1);
	w = kthread_create(late_waker, &lw, "late_wake");
	KUNIT_ASSERT_NOT_NULL(test, w);
	kthread_bind(w, other);
	sched_delay_wakeup_onto(w, cpu);
	wake_up_process(w);
	if (in_down) {
		waker_in_down = &lw;
		cpuhp_set_step_hook(start_waker_in_down);
	} else {
		lw.go = true;
	}
	/*
	 * The waker chose cpu (still active) and waits in the hook, IRQs
	 * off. Polled, not slept: if its CPU hosts the tick broadcast, a
	 * sleeper here would not wake until the waker let go.
	 */
	if (!in_down && !wait_for(!sched_delay_wakeup_pending(), 2000000))
		kunit_info(test, "the waker did not reach the hook in 2 s");
	err = cpu_down(cpu);
	cpuhp_set_step_hook(NULL);
	KUNIT_EXPECT_TRUE(test, lw.go);
	lw.go = true;
	sched_delay_wakeup_onto(NULL, 0);
	wait_for_completion(&lw.waker_done);
	/* Queued before the drain, so moved off: not left on cpu's queue. */
	KUNIT_EXPECT_NE(test, READ_ONCE(lw.spinner->cpu), (int)cpu);
	while (!lw.ran_on)
		msleep(1);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	/*
	 * Spinning still, and not on the CPU that went down: with that CPU
	 * off, another number in ran_on means it ran elsewhere. Judged by
	 * that event; the bound only keeps a thread that runs nowhere from
	 * hanging the test (20 ms fixed was too short on a busy host).
	 */
	end = ktime_get_ns() + 2000000000ULL;
	while (lw.ran_on == (int)cpu + 1 && ktime_get_ns() < end)
		msleep(1);
	KUNIT_EXPECT_NE(test, lw.ran_on, (int)cpu + 1);
	lw.stop = true;
	wait_for_completion(&lw.spun);
	cpu_hog_stop(&hog);
	if (!cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	set_cpus_allowed(current, cpu_possible_mask);
}

static void hotplug_late_waker_drained(struct kunit *test)
{
	late_waker_case(test, false);
}

static void hotplug_late_waker_after_online_cleared(struct kunit *test)
{
	late_waker_case(test, true);
}

/*
 * An idle CPU that checks its active bit in idle_balance() only before
 * taking the run-queue locks would race the down: that check is no
 * read-side section (a tick in the idle loop is a quiescent state). The
 * hook holds CPU cpu's idle thread between the check and the locks until
 * cpu is told to die, after rcu:sync and sched:drain; threads that may
 * run on cpu wait on another CPU's queue meanwhile (a full one, so pack
 * mode's balancer looks at it too). Pulled then, a
 * spinner would keep cpu from its idle loop and the down would fail.
 */
#define PULL_SPINNERS 3

struct idle_pull {
	struct cpumask home;
	volatile bool stop;
	volatile int ran_on[PULL_SPINNERS]; /* CPU number + 1 */
	volatile bool on_cpu_after; /* ran on the CPU after its down */
	unsigned int cpu;
	volatile bool downed;
	struct completion done;
};

static struct idle_pull ip;

static int pull_spinner(void *arg)
{
	int i = (int)(long)arg;

	set_cpus_allowed(current, &ip.home);
	while (!ip.stop) {
		unsigned int me = raw_smp_processor_id();

		ip.ran_on[i] = me + 1;
		if (ip.downed && me == ip.cpu)
			ip.on_cpu_after = true;
	}
	complete(&ip.done);
	return 0;
}

static void hotplug_idle_pull_after_drain(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, me = 0, other = 1;
	struct task_struct *t[PULL_SPINNERS];
	struct cpumask one, both;
	u64 end;
	int err, i;

	if (!have_down_cpus(test, 3))
		return;
	cpumask_clear(&one);
	cpumask_set_cpu(me, &one);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &one), 0);
	ip = (struct idle_pull){.cpu = cpu};
	init_completion(&ip.done);
	cpumask_set_cpu(other, &ip.home);
	/* Three on CPU other: two wait on its queue, the busiest. */
	for (i = 0; i < PULL_SPINNERS; i++) {
		t[i] = kthread_run(pull_spinner, (void *)(long)i, "pull/%d", i);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
	}
	for (i = 0; i < PULL_SPINNERS; i++)
		while (ip.ran_on[i] != (int)other + 1)
			msleep(1);
	/* In pack mode an idle CPU looks only at a full queue. */
	KUNIT_EXPECT_TRUE(test, wait_cpu_full(other));
	sched_delay_idle_pull(cpu);
	end = ktime_get_ns() + 2000000000ULL;
	while (sched_delay_idle_pull_pending() && ktime_get_ns() < end)
		msleep(1);
	if (sched_delay_idle_pull_pending())
		kunit_info(test, "CPU%u's idle thread did not reach the hook",
			   cpu);
	/* Movable to cpu now: its idle thread decides in the hook. */
	cpumask_copy(&both, &ip.home);
	cpumask_set_cpu(cpu, &both);
	for (i = 0; i < PULL_SPINNERS; i++)
		set_cpus_allowed(t[i], &both);
	err = cpu_down(cpu);
	ip.downed = true;
	sched_delay_idle_pull(-1);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	msleep(20);
	KUNIT_EXPECT_FALSE(test, ip.on_cpu_after);
	ip.stop = true;
	for (i = 0; i < PULL_SPINNERS; i++)
		wait_for_completion(&ip.done);
	if (!cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	set_cpus_allowed(current, cpu_possible_mask);
}

/*
 * Can a thread take down the CPU it runs on? Its grace-period wait must
 * not queue on that CPU, whose rcuc thread is parked by then (with
 * hotplug.gp=normal, synchronize_rcu()'s callback would never run).
 */
static void hotplug_down_own_cpu(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	struct cpumask one;

	if (!have_down_cpus(test, 2))
		return;
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, &one), 0);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed(current, cpu_possible_mask), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_NE(test, raw_smp_processor_id(), cpu);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/* Can the boot CPU go down (when the firmware allows) and come back? */
static void hotplug_boot_cpu(struct kunit *test)
{
	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, cpu_down(0), 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(0));
	KUNIT_EXPECT_NE(test, raw_smp_processor_id(), 0);
	/* The firmware agrees (TF-A's core 0 goes to its own hold state). */
	if (psci_checkable())
		KUNIT_EXPECT_EQ(test, psci_affinity_info(cpu_logical_map(0)),
				PSCI_AFFINITY_OFF);
	KUNIT_EXPECT_EQ(test, cpu_up(0), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
}

/*
 * The grace period of a down waits for the CPU going down, which is no
 * longer online (no IPI reaches it) and, until sched:drain, still runs
 * its threads. Does it end while that CPU's thread is nearly always inside a
 * read-side section? Before rcu_urge_qs() and the reschedule of such
 * CPUs (rcu/expedited.c), it ended when a tick happened to land between
 * two sections: under rcutorture up to half a second, here the 3 s the
 * thread runs.
 */
static void hotplug_down_ends_under_busy_reader(struct kunit *test)
{
	static struct busy_reader b;
	unsigned int cpu = nr_cpu_ids - 1, sections;
	bool finished;
	int err, ran_on;
	u64 end;

	if (!have_down_cpus(test, 2))
		return;
	b = (struct busy_reader){.section_us = 1000, .max_sections = 3000};
	KUNIT_ASSERT_TRUE(test, busy_reader_start(&b, cpu));
	err = cpu_down(cpu);
	finished = completion_done(&b.done);
	/* It goes on elsewhere: a section begun after the down ended. */
	sections = b.sections;
	end = ktime_get_ns() + 2000000000ULL;
	while (b.sections < sections + 2 && !completion_done(&b.done) &&
	       ktime_get_ns() < end)
		msleep(1);
	ran_on = b.ran_on;
	b.stop = true;
	wait_for_completion(&b.done);
	KUNIT_EXPECT_EQ(test, err, 0);
	if (finished)
		kunit_info(test, "CPU%u's down waited for all %u sections", cpu,
			   b.sections);
	KUNIT_EXPECT_FALSE(test, finished);
	KUNIT_EXPECT_NE(test, ran_on, (int)cpu + 1);
	if (!cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * What a cross-CPU call saw, run by a CPU on its way down: its pending
 * calls run in irqchip:starting's down step, on the dying CPU.
 */
struct dying_call {
	unsigned int cpu;
	volatile int ran_on; /* CPU number + 1 */
	volatile bool gp_passed, stop;
	struct completion called;
};

/* A read-side section 100 ms long: may a grace period end inside it? */
static void dying_call_fn(void *p)
{
	struct dying_call *dc = p;
	unsigned long cookie;

	rcu_read_lock();
	cookie = get_state_synchronize_rcu();
	udelay(100000);
	dc->gp_passed = poll_state_synchronize_rcu(cookie);
	rcu_read_unlock();
	dc->ran_on = raw_smp_processor_id() + 1;
}

static int dying_caller(void *p)
{
	struct dying_call *dc = p;

	smp_call_function_single(dc->cpu, dying_call_fn, dc, true);
	complete(&dc->called);
	return 0;
}

static int gp_driver(void *p)
{
	struct dying_call *dc = p;

	while (!dc->stop)
		synchronize_rcu();
	return 0;
}

/*
 * A call is pending on the CPU going down (fail.call_ipi: queued without
 * its IPI), so the CPU runs it among its own down steps, while grace
 * periods keep coming. RCU must still wait for that CPU then: it leaves
 * RCU as its very last step. Does no grace period end inside the call's
 * read-side section?
 */
static void hotplug_dying_cpu_calls_are_readers(struct kunit *test)
{
	static struct dying_call dc;
	unsigned int cpu = nr_cpu_ids - 1;
	struct task_struct *caller, *driver;

	if (!have_down_cpus(test, 3))
		return;
	dc = (struct dying_call){.cpu = cpu};
	init_completion(&dc.called);
	KUNIT_ASSERT_EQ(test, fault_inject("call_ipi", "1"), 0);
	caller = kthread_create(dying_caller, &dc, "dying_call");
	driver = kthread_create(gp_driver, &dc, "gp_driver");
	KUNIT_ASSERT_NOT_NULL(test, caller);
	KUNIT_ASSERT_NOT_NULL(test, driver);
	kthread_bind(caller, 1);
	kthread_bind(driver, 1);
	wake_up_process(caller);
	/* Queued (its IPI withheld) once the point fired. */
	KUNIT_EXPECT_TRUE(test, wait_for(!fault_times("call_ipi"), 2000000));
	wake_up_process(driver);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	wait_for_completion(&dc.called);
	dc.stop = true;
	KUNIT_EXPECT_EQ(test, dc.ran_on, (int)cpu + 1);
	KUNIT_EXPECT_FALSE(test, dc.gp_passed);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * A CPU with more per-CPU threads than the park step once took at a time
 * (8): does a down park every one of them, and an up let them all run?
 */
static void hotplug_down_parks_every_thread(struct kunit *test)
{
	struct park_pack *pp = kunit_kcalloc(test, 1, sizeof(*pp));
	unsigned int last = nr_cpu_ids - 1;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_TRUE(test, park_pack_start(pp, 12, last));
	if (KUNIT_EXPECT_EQ(test, cpu_down(last), 0)) {
		KUNIT_EXPECT_EQ(test, park_pack_parked(pp), 12);
		KUNIT_EXPECT_EQ(test, cpu_up(last), 0);
	}
	KUNIT_EXPECT_EQ(test, park_pack_parked(pp), 0);
	park_pack_stop(pp);
	cpu_up_all();
}

static const struct kunit_case hotplug_cases[] = {
	KUNIT_CASE(hotplug_double_down_and_up),
	KUNIT_CASE(hotplug_last_cpu_refused),
	KUNIT_CASE(hotplug_bound_thread_refuses),
	KUNIT_CASE(hotplug_down_frees_memory),
	KUNIT_CASE(hotplug_firmware_share_timed),
	KUNIT_CASE(hotplug_moves_threads_timers_irqs),
	KUNIT_CASE(hotplug_up_cpu_ticks_again),
	KUNIT_CASE(hotplug_late_waker_drained),
	KUNIT_CASE(hotplug_late_waker_after_online_cleared),
	KUNIT_CASE(hotplug_dying_cpu_calls_are_readers),
	KUNIT_CASE(hotplug_idle_pull_after_drain),
	KUNIT_CASE(hotplug_down_own_cpu),
	KUNIT_CASE(hotplug_down_ends_under_busy_reader),
	KUNIT_CASE(hotplug_boot_cpu),
	KUNIT_CASE(hotplug_down_parks_every_thread),
	{},
};

static const struct kunit_suite hotplug_suite = {"hotplug", hotplug_cases};
kunit_test_suite(hotplug_suite);
