/*
 * Tests of CPU hotplug when the firmware or the kernel fails it (fault
 * injected): CPU_ON errors, allocation failures, a CPU_OFF that lands
 * late or is never confirmed, a step failing after bring-up, PSCI 0.1,
 * a Trusted OS on the boot CPU. Each checks that the mask, the CPU's
 * per-CPU area and the memory counters are as the failure promises.
 */
#include <asm/barrier.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/fault.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>
#include "helpers.h"

/*
 * CPU_ON fails (fault injected) with each error PSCI defines for it: is
 * the up rolled back, its per-CPU area freed, the mask unchanged and
 * every memory counter as before?
 */
static void hotplug_failed_up_rolls_back(struct kunit *test)
{
	static const int errors[] = {
		PSCI_RET_INVALID_PARAMS,   PSCI_RET_DENIED,
		PSCI_RET_ALREADY_ON,	   PSCI_RET_ON_PENDING,
		PSCI_RET_INTERNAL_FAILURE, PSCI_RET_INVALID_ADDRESS,
	};
	char val[16];
	unsigned int cpu = nr_cpu_ids - 1;
	struct mem_stats before, after;
	struct cpumask mask;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	rcu_barrier(); /* what the down freed after a grace period */
	cpumask_copy(&mask, cpu_online_mask);
	mem_get_stats_drained(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(errors); i++) {
		snprintf(val, sizeof(val), "%u:%d", cpu, errors[i]);
		fault_inject("cpu_on", val);
		KUNIT_EXPECT_NE(test, cpu_up(cpu), 0);
		fault_clear("cpu_on");
		rcu_barrier();
		mem_get_stats_drained(&after);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(&mask, cpu_online_mask));
		KUNIT_EXPECT_NULL(test, percpu_area(cpu));
		KUNIT_EXPECT_EQ(test, after.free_pages, before.free_pages);
		KUNIT_EXPECT_EQ(test, after.kmalloc_objects,
				before.kmalloc_objects);
	}
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * Each allocation cpu_up() makes fails in turn: does every one give
 * -ENOMEM with the mask, the CPU's area and the memory counters as
 * before, until with none failing the CPU comes up?
 */
static void hotplug_up_survives_alloc_failures(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, n;
	struct mem_stats before, after;
	struct cpumask mask;
	int err = -ENOMEM;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	rcu_barrier();
	cpumask_copy(&mask, cpu_online_mask);
	mem_get_stats_drained(&before);
	for (n = 1; n < 100 && err; n++) {
		current->fail_nth = n;
		err = cpu_up(cpu);
		current->fail_nth = 0;
		if (!err)
			break;
		rcu_barrier();
		mem_get_stats_drained(&after);
		KUNIT_EXPECT_EQ(test, err, -ENOMEM);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(&mask, cpu_online_mask));
		KUNIT_EXPECT_NULL(test, percpu_area(cpu));
		KUNIT_EXPECT_EQ(test, after.free_pages, before.free_pages);
		KUNIT_EXPECT_EQ(test, after.kmalloc_objects,
				before.kmalloc_objects);
		if (test->failed) {
			kunit_info(test, "allocation %u failing broke it", n);
			break;
		}
	}
	kunit_info(test, "%u allocation(s) failed in turn, then up", n - 1);
	KUNIT_EXPECT_GT(test, n, 1); /* at least one failure was injected */
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	if (!cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * CPU_OFF lands late: AFFINITY_INFO says ON for a while (fault
 * injected). Does the down wait for OFF and then complete normally?
 */
static void hotplug_slow_off_waits(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	fault_inject("cpu_off", "220"); /* the fast polls, then a few sleeps */
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_off"), 0); /* all asked */
	fault_clear("cpu_off");
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_OFF);
	KUNIT_EXPECT_NULL(test, percpu_area(cpu));
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * CPU_OFF never confirmed: AFFINITY_INFO says ON for ever. Does the
 * down fail with the CPU out of the mask but its memory kept, a restart
 * be refused while the firmware still says ON, and succeed once it says
 * OFF, with every memory counter as before?
 */
static void hotplug_unconfirmed_off_kept(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	struct mem_stats before, after;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	rcu_barrier();
	mem_get_stats_drained(&before);
	fault_inject("cpu_off", "forever");
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -ETIMEDOUT);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_UNCONFIRMED);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu)); /* not freed */
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), -EBUSY);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	fault_clear("cpu_off");
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	rcu_barrier();
	mem_get_stats_drained(&after);
	/*
	 * Under KASAN a freed object is not the next one handed out (its
	 * quarantine), so the live objects may sit on fewer slab pages
	 * after: the objects count, not the pages.
	 */
	if (!kasan_built())
		KUNIT_EXPECT_EQ(test, after.free_pages, before.free_pages);
	KUNIT_EXPECT_EQ(test, after.kmalloc_objects, before.kmalloc_objects);
}

struct barrier_probe {
	struct rcu_head head;
	volatile bool ran;
	unsigned int target;
	int down_err;
	struct completion down_done;
	/* A reader on another CPU holds the callback's grace period. */
	u64 hold_ns;
	volatile bool inside;
	struct completion reader_done;
};

static void barrier_probe_fn(struct rcu_head *head)
{
	struct barrier_probe *p =
		container_of(head, struct barrier_probe, head);

	smp_store_release(&p->ran, true);
}

static void barrier_probe_queue(void *arg)
{
	struct barrier_probe *p = arg;

	call_rcu(&p->head, barrier_probe_fn);
}

static int barrier_probe_reader(void *arg)
{
	struct barrier_probe *p = arg;
	u64 end;

	rcu_read_lock();
	p->inside = true;
	end = ktime_get_ns() + p->hold_ns;
	while (ktime_get_ns() < end)
		cpu_relax();
	rcu_read_unlock();
	complete(&p->reader_done);
	return 0;
}

static int barrier_probe_down(void *arg)
{
	struct barrier_probe *p = arg;

	p->down_err = cpu_down(p->target);
	complete(&p->down_done);
	return 0;
}

/*
 * p's reader on other, holding a grace period for 200 ms, and p's
 * callback queued on cpu meanwhile from elsewhere: true once both are in
 * place (the reader still inside). The caller may run anywhere after.
 */
static bool barrier_probe_start(struct kunit *test, struct barrier_probe *p,
				unsigned int cpu, unsigned int other)
{
	struct task_struct *t;
	struct cpumask mask;
	bool ok;

	/* Off the reader's CPU while it spins, so as to queue meanwhile. */
	cpumask_copy(&mask, cpu_possible_mask);
	cpumask_clear_cpu(other, &mask);
	set_cpus_allowed(current, &mask);
	rcu_barrier();
	*p = (struct barrier_probe){.target = cpu, .hold_ns = 200000000ULL};
	init_completion(&p->reader_done);
	t = kthread_create(barrier_probe_reader, p, "bp_reader");
	ok = KUNIT_EXPECT_NOT_NULL(test, t);
	if (ok) {
		kthread_bind(t, other);
		wake_up_process(t);
		while (!p->inside)
			cpu_relax();
		ok = KUNIT_EXPECT_EQ(test,
				     smp_call_function_single(
					     cpu, barrier_probe_queue, p, true),
				     0);
		KUNIT_EXPECT_FALSE(test, completion_done(&p->reader_done));
	}
	set_cpus_allowed(current, cpu_possible_mask);
	return ok;
}

/*
 * A callback queued on a CPU that is going down: its online bit is clear
 * but its callbacks are not migrated yet (AFFINITY_INFO held at ON for a
 * while, fault injected). Does an rcu_barrier() started in that window
 * wait for the callback?
 */
static void hotplug_rcu_barrier_waits_for_going_down_cpu(struct kunit *test)
{
	static struct barrier_probe p;
	unsigned int cpu = nr_cpu_ids - 1, other;
	struct task_struct *t;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	other = cpumask_first(cpu_online_mask);
	if (other == cpu)
		other = cpumask_next(cpu, cpu_online_mask);
	/*
	 * The reader keeps the callback's grace period from ending until the
	 * down has parked the CPU's rcuc thread (the down's own grace period
	 * waits for it too), so the callback cannot run before the CPU dies:
	 * it must be migrated, and the barrier must wait for that.
	 */
	if (!barrier_probe_start(test, &p, cpu, other))
		return;
	init_completion(&p.down_done);
	/* The 200 fast polls, then about 30 sleeps of 10 ms: a hold well
	 * past the barrier's two grace periods, well short of the 1 s
	 * after which the down gives up. */
	fault_inject("cpu_off", "230");
	t = kthread_run(barrier_probe_down, &p, "bp_down");
	KUNIT_ASSERT_NOT_NULL(test, t);
	while (cpu_online(cpu))
		msleep(1);
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, smp_load_acquire(&p.ran));
	wait_for_completion(&p.down_done);
	wait_for_completion(&p.reader_done);
	fault_clear("cpu_off");
	KUNIT_EXPECT_EQ(test, p.down_err, 0);
	rcu_barrier(); /* the probe's callback is done with p */
	KUNIT_EXPECT_TRUE(test, p.ran);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

struct stranded_probe {
	struct barrier_probe cb; /* a call_rcu() callback held on the CPU */
	struct timer_list timer;
	volatile bool timer_fired;
	volatile bool sync_started, sync_done; /* synchronize_rcu() */
	volatile bool sleep_started, sleep_done; /* msleep() */
	unsigned int cpu;
};

static struct stranded_probe sp;

/* Starts on sp.cpu, free to move after: what it queues stays there. */
static void run_on_target(void)
{
	struct cpumask one;

	cpumask_clear(&one);
	cpumask_set_cpu(sp.cpu, &one);
	set_cpus_allowed(current, &one);
	set_cpus_allowed(current, cpu_possible_mask);
}

static int stranded_sync(void *arg)
{
	run_on_target();
	sp.sync_started = true;
	synchronize_rcu();
	sp.sync_done = true;
	return 0;
}

static int stranded_sleep(void *arg)
{
	run_on_target();
	sp.sleep_started = true;
	msleep(2000); /* its timer stays on sp.cpu while it waits */
	sp.sleep_done = true;
	return 0;
}

static void stranded_timer_fn(struct timer_list *t)
{
	sp.timer_fired = true;
}

/*
 * AFFINITY_INFO never confirms the CPU off while a call_rcu() callback, a
 * sleeping synchronize_rcu() caller, an msleep() and a timer sit on it.
 * The down stops at "not confirmed off": does rcu_barrier() still wait
 * for the callback, and do the sleepers return and the timer fire (the
 * CPU left the kernel, so its lists move), with its memory kept?
 */
static void hotplug_unconfirmed_off_moves_callbacks_timers(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, other;
	struct task_struct *t;
	u64 end;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	other = cpumask_first(cpu_online_mask);
	rcu_barrier();
	memset(&sp, 0, sizeof(sp));
	sp.cpu = cpu;
	sp.cb.hold_ns = 200000000ULL;
	init_completion(&sp.cb.reader_done);
	/* Holds the grace periods until the down parked the CPU's rcuc. */
	t = kthread_create(barrier_probe_reader, &sp.cb, "sp_reader");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, other);
	wake_up_process(t);
	while (!sp.cb.inside)
		cpu_relax();
	KUNIT_ASSERT_EQ(test,
			smp_call_function_single(cpu, barrier_probe_queue,
						 &sp.cb, true),
			0);
	KUNIT_ASSERT_NOT_NULL(test,
			      kthread_run(stranded_sync, NULL, "sp_sync"));
	KUNIT_ASSERT_NOT_NULL(test,
			      kthread_run(stranded_sleep, NULL, "sp_sleep"));
	while (!sp.sync_started || !sp.sleep_started)
		msleep(1);
	timer_setup(&sp.timer, stranded_timer_fn);
	add_timer_on(&sp.timer, jiffies + msecs_to_jiffies(2000), cpu);
	fault_inject("cpu_off", "forever");
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_UNCONFIRMED);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu)); /* kept */
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, smp_load_acquire(&sp.cb.ran));
	/* Events, not a fixed sleep: up to 20 s of kernel time. */
	end = ktime_get_ns() + 20000000000ULL;
	while ((!sp.sync_done || !sp.sleep_done || !sp.timer_fired) &&
	       ktime_get_ns() < end)
		msleep(10);
	KUNIT_EXPECT_TRUE(test, sp.sync_done);
	KUNIT_EXPECT_TRUE(test, sp.sleep_done);
	KUNIT_EXPECT_TRUE(test, sp.timer_fired);
	wait_for_completion(&sp.cb.reader_done);
	fault_clear("cpu_off");
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	cpu_up_all();
}

/*
 * A step after bring-up fails coming up (fault injected): the CPU already
 * runs on its stack and per-CPU area. Is it taken down for real, its
 * memory freed only once the firmware says it is off, with a clear
 * message, and does the next up work?
 */
static void hotplug_failed_step_after_bringup(struct kunit *test)
{
	static const char *const steps[] = {"sched:active", "kthreads:park",
					    "cpu:online"};
	unsigned int cpu = nr_cpu_ids - 1;
	struct mem_stats before, after;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	rcu_barrier();
	mem_get_stats(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		fault_inject("up_step", steps[i]);
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), -EIO);
		KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
		KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_OFF);
		KUNIT_EXPECT_NULL(test, percpu_area(cpu));
		/* Freed, so it must be off: the firmware agrees. */
		KUNIT_EXPECT_EQ(test, psci_affinity_info(cpu_logical_map(cpu)),
				PSCI_AFFINITY_OFF);
		rcu_barrier();
		mem_get_stats(&after);
		KUNIT_EXPECT_EQ(test, after.kmalloc_objects,
				before.kmalloc_objects);
	}
	fault_clear("up_step");
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	cpu_up_all();
}

/*
 * A drain that never empties (fail.sched_drain): does the down fail with
 * -ETIMEDOUT after the drain's 2 s, leave the CPU online and active with
 * its area, a thread able to run there, and go down and up afterwards?
 * The report it prints (the run queue, two backtraces, the interrupts
 * taken between) is checked in the log by tests/matrix.py.
 */
static int note_cpu(void *p)
{
	*(volatile int *)p = raw_smp_processor_id() + 1;
	return 0;
}

static void hotplug_drain_timeout_rolls_back(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	static volatile int ran_on;
	struct task_struct *t;
	u64 t0, ms;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, fault_inject("sched_drain", "1"), 0);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -ETIMEDOUT);
	ms = (ktime_get_ns() - t0) / 1000000;
	KUNIT_EXPECT_EQ(test, fault_times("sched_drain"), 0);
	KUNIT_EXPECT_GE(test, ms, 2000);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_TRUE(test, cpu_active(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu));
	ran_on = 0;
	t = kthread_create(note_cpu, (void *)&ran_on, "drain_probe");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	for (int i = 0; i < 1000 && !ran_on; i++)
		msleep(1);
	KUNIT_EXPECT_EQ(test, ran_on, (int)cpu + 1);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * A count-valued point (fault_set_times(), shared by sched_drain,
 * call_ipi and cpu_off): 0, one past the bound and no number are refused
 * and leave it off; the bound itself arms it that many times.
 */
static void hotplug_fault_count_bounds(struct kunit *test)
{
	static const char *const bad[] = {"0", "101", "x", "", "5x"};

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ(test, fault_inject("sched_drain", bad[i]),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, fault_times("sched_drain"), 0);
	}
	KUNIT_EXPECT_EQ(test, fault_inject("sched_drain", "100"), 0);
	KUNIT_EXPECT_EQ(test, fault_times("sched_drain"), 100);
	fault_clear("sched_drain");
	KUNIT_EXPECT_EQ(test, fault_times("sched_drain"), 0);
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_off", "1000001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_off", "1000000"), 0);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_off"), 1000000);
	fault_clear("cpu_off");
}

/*
 * PSCI 0.1 has no AFFINITY_INFO: nothing can confirm a CPU off. Is a down
 * refused with the reason, the CPU online with its memory?
 */
static void hotplug_psci01_refuses_downs(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;

	if (!have_cpus(test, 2) || board.cpus[0].method != ENABLE_METHOD_PSCI ||
	    psci_version() != PSCI_VERSION(0, 1) || psci_offline_parks()) {
		kunit_skip(test,
			   "needs 2 CPUs and PSCI 0.1 (without hotplug.pen)");
		return;
	}
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -EBUSY);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu));
}

/*
 * The firmware reports a uniprocessor Trusted OS resident on the boot CPU
 * (MIGRATE_INFO_TYPE 0 or 1, fault injected; QEMU has none). Is that CPU
 * refused with -EBUSY and the reason in the log, the mask unchanged, while
 * another CPU still goes down and up? With type 2 (no Trusted OS needs a
 * CPU) may the boot CPU go again?
 */
static void hotplug_trusted_os_cpu_refused(struct kunit *test)
{
	static const char why[] = "CPU0: cannot take it down: the firmware "
				  "does not allow it (PSCI MIGRATE_INFO_TYPE)";
	static char log[512];
	unsigned int other = nr_cpu_ids - 1;
	struct cpumask mask;

	if (!have_down_cpus(test, 2) ||
	    board.cpus[0].method != ENABLE_METHOD_PSCI || !psci_available()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	cpu_up_all();
	for (int type = 0; type <= 1; type++) {
		u64 head = READ_ONCE(log_head);
		size_t n;

		fault_inject("tos", type ? "1:0" : "0:0");
		cpumask_copy(&mask, cpu_online_mask);
		KUNIT_EXPECT_EQ(test, cpu_down(0), -EBUSY);
		/* Only what was printed since: not an earlier refusal. */
		n = log_read(log, min(sizeof(log) - 1,
				      (size_t)(READ_ONCE(log_head) - head)));
		log[n] = '\0';
		KUNIT_EXPECT_NOT_NULL(test, strstr(log, why));
		KUNIT_EXPECT_TRUE(test, cpu_online(0));
		KUNIT_EXPECT_TRUE(test, cpumask_equal(&mask, cpu_online_mask));
		KUNIT_EXPECT_EQ(test, cpu_down(other), 0);
		KUNIT_EXPECT_FALSE(test, cpu_online(other));
		KUNIT_EXPECT_EQ(test, cpu_up(other), 0);
	}
	fault_inject("tos", "2:0"); /* the CPU no longer matters */
	KUNIT_EXPECT_EQ(test, cpu_down(0), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(0), 0);
	fault_clear("tos");
	cpu_up_all();
}

/*
 * A CPU late from a bring-up that gave up on it (fail.cpu_late) is still
 * on when the retry's CPU_ON fails (ALREADY_ON, answered slowly:
 * fail.cpu_on=CPU:ALREADY_ON:MS), and it claims the retry's start slot
 * meanwhile. Does the retry wait for it and succeed, with the area and
 * stack it runs on kept, rather than free them under it?
 */
static void hotplug_retry_claimed_by_late_cpu(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	unsigned long old;
	char val[32];

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	/* Late by 2.5 timeouts; the retry's CPU_ON answers after 3. */
	old = cpuhp_set_timeout_ms(1000);
	snprintf(val, sizeof(val), "%u:2500", cpu);
	KUNIT_ASSERT_EQ(test, fault_inject("cpu_late", val), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), -EIO);
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_OFF);
	fault_clear("cpu_late");
	snprintf(val, sizeof(val), "%u:ALREADY_ON:3000", cpu);
	KUNIT_ASSERT_EQ(test, fault_inject("cpu_on", val), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	fault_clear("cpu_on");
	cpuhp_set_timeout_ms(old);
	expect_cpu_online(test, cpu);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	cpu_up_all();
}

/*
 * A CPU going down stalls, interrupts off, before it takes its down
 * request (fail.cpu_die_late): is the request withdrawn at the timeout,
 * the down undone (online, active, answering), and does the stalled CPU
 * stay when it wakes, rather than leave later as a straggler in the
 * middle of the next CPU's down, whose report it could fake?
 */
static void hotplug_die_timeout_withdrawn(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, next = nr_cpu_ids - 2;
	unsigned long old;
	char val[32];
	int host;
	u64 t0;

	if (!have_down_cpus(test, 3))
		return;
	/*
	 * The stalled CPU is the tick broadcast's host if one is not this
	 * CPU: the writer sleeps through its timeout in an idle state whose
	 * timer stops, and a host stalled with interrupts off would wake it
	 * only at the end of the stall.
	 */
	host = tick_broadcast_host();
	if (host > 0 && host != (int)raw_smp_processor_id()) {
		cpu = host;
		next = cpu == nr_cpu_ids - 1 ? nr_cpu_ids - 2 : nr_cpu_ids - 1;
	}
	kunit_info(test, "CPU%u stalls (broadcast host: CPU%d)", cpu, host);
	old = cpuhp_set_timeout_ms(300);
	snprintf(val, sizeof(val), "%u:1200", cpu);
	KUNIT_ASSERT_EQ(test, fault_inject("cpu_die_late", val), 0);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -ETIMEDOUT);
	fault_clear("cpu_die_late");
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	/*
	 * The next CPU's down, started while the stalled one still stalls
	 * (its grace period then waits for the stall to end): the old
	 * straggler left then, online in every mask, and its report could
	 * land in this down's.
	 */
	KUNIT_EXPECT_LT(test, (ktime_get_ns() - t0) / 1000000, 1200);
	KUNIT_EXPECT_EQ(test, cpu_down(next), 0);
	/* It woke past its stall (it takes a call) and stayed. */
	expect_cpu_online(test, cpu);
	KUNIT_EXPECT_EQ(test, cpu_up(next), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	cpuhp_set_timeout_ms(old);
	cpu_up_all();
}

/*
 * The same stall after the CPU took its request (:claimed): it is on its
 * way out, so is it waited for past the timeout, and the down completed?
 */
static void hotplug_die_claimed_waited_for(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	unsigned long old;
	char val[32];

	if (!have_down_cpus(test, 2))
		return;
	old = cpuhp_set_timeout_ms(300);
	snprintf(val, sizeof(val), "%u:900:claimed", cpu);
	KUNIT_ASSERT_EQ(test, fault_inject("cpu_die_late", val), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	fault_clear("cpu_die_late");
	cpuhp_set_timeout_ms(old);
	expect_cpu_off(test, cpu);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/* An expedited grace period run beside a down, from its teardown on. */
struct exp_beside_down {
	unsigned int cpu; /* the CPU going down */
	char hold[32]; /* fail.rcu_exp_hold's value */
	volatile bool go, stop;
	unsigned int gps; /* expedited grace periods it ran */
	struct completion done;
};

static struct exp_beside_down ebd;

static int exp_beside_down_fn(void *arg)
{
	while (!ebd.stop) {
		if (!READ_ONCE(ebd.go)) {
			cpu_relax();
			continue;
		}
		synchronize_rcu_expedited();
		ebd.gps++;
	}
	complete(&ebd.done);
	return 0;
}

/*
 * The hook, at cpu:teardown: arm the hold and start the grace periods.
 * Not before: the down's own rcu:sync would meet the hold, and wait for
 * the end of the very down it is part of.
 */
static void exp_beside_teardown(unsigned int cpu, const char *step, bool up)
{
	if (up || cpu != ebd.cpu || strcmp(step, "cpu:teardown"))
		return;
	fault_inject("rcu_exp_hold", ebd.hold);
	WRITE_ONCE(ebd.go, true);
}

#define EXP_BESIDE_TRIES 3

/*
 * An expedited grace period chooses a CPU while it passes its teardown
 * (stalled there, interrupts off, after taking its request:
 * fail.cpu_die_late=CPU:MS:claimed), and the CPU then goes all the way
 * down before the IPIs are sent (fail.rcu_exp_hold): its idle thread is
 * released, nothing runs there. Does the grace period end, and the down,
 * rather than the reschedule of that CPU touching a run queue with no
 * current thread? Once the hold is armed, only the thread runs expedited
 * grace periods, so the hold used up says one chose the CPU. A host that
 * does not run the thread during the whole stall makes no race: the down
 * is tried again, a few times.
 */
static void hotplug_exp_gp_beside_teardown(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, other, tries = 0;
	struct task_struct *t;
	struct cpumask mask;
	bool raced = false;
	char val[32];
	int err;

	if (!have_down_cpus(test, 3))
		return;
	other = cpumask_first(cpu_online_mask);
	if (other == raw_smp_processor_id())
		other = cpumask_next(other, cpu_online_mask);
	KUNIT_ASSERT_TRUE(test, other < cpu);
	memset(&ebd, 0, sizeof(ebd));
	ebd.cpu = cpu;
	snprintf(ebd.hold, sizeof(ebd.hold), "%u:10000", cpu);
	init_completion(&ebd.done);
	t = kthread_create(exp_beside_down_fn, NULL, "exp_beside");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, other);
	wake_up_process(t);
	/* The writer stays off the CPU whose thread holds preemption off. */
	cpumask_copy(&mask, cpu_possible_mask);
	cpumask_clear_cpu(other, &mask);
	set_cpus_allowed(current, &mask);
	cpuhp_set_step_hook(exp_beside_teardown);
	while (!raced && tries++ < EXP_BESIDE_TRIES) {
		/* The stall is the window in which a grace period chooses
		 * the CPU; the hold keeps it until the down has ended. */
		snprintf(val, sizeof(val), "%u:300:claimed", cpu);
		KUNIT_ASSERT_EQ(test, fault_inject("cpu_die_late", val), 0);
		err = cpu_down(cpu);
		WRITE_ONCE(ebd.go, false);
		fault_clear("cpu_die_late");
		KUNIT_EXPECT_EQ(test, err, 0);
		raced = !err && !fault_times("rcu_exp_hold");
		fault_clear("rcu_exp_hold");
		if (raced || err)
			break;
		kunit_info(test, "try %u: no grace period chose CPU%u", tries,
			   cpu);
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	}
	cpuhp_set_step_hook(NULL);
	set_cpus_allowed(current, cpu_possible_mask);
	KUNIT_EXPECT_TRUE(test, raced);
	/* The held one ends once it sent its IPIs: well within 5 s. */
	ebd.stop = true;
	KUNIT_EXPECT_TRUE(test, wait_for(completion_done(&ebd.done), 5000000));
	wait_for_completion(&ebd.done);
	kunit_info(test, "%u expedited grace periods beside the teardown",
		   ebd.gps);
	expect_cpu_off(test, cpu);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	cpu_up_all();
}

/*
 * An up fails after bring-up (cpu:online), and the down that undoes it
 * fails too while the CPU still runs (its drain times out). Is the CPU
 * then brought up after all, its phase, masks and firmware agreeing,
 * rather than recorded off while it runs?
 */
static void hotplug_failed_rollback_turns_up(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	KUNIT_ASSERT_EQ(test, fault_inject("up_step", "cpu:online"), 0);
	KUNIT_ASSERT_EQ(test, fault_inject("sched_drain", "1"), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	KUNIT_EXPECT_EQ(test, fault_times("up_step"), 0);
	KUNIT_EXPECT_EQ(test, fault_times("sched_drain"), 0);
	expect_cpu_online(test, cpu);
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/* Re-arms the step fault each time, so every way fails (the hook). */
static void fail_every_way(unsigned int cpu, const char *step, bool up)
{
	if (up && !strcmp(step, "sched:active"))
		fault_inject("up_step", "sched:active");
	else if (!up && !strcmp(step, "sched:drain"))
		fault_inject("down_step", "sched:drain");
}

/*
 * Every way fails, up and back down, each time (a hook re-arms the
 * faults). Does the up stop after its turns with the CPU between steps,
 * said so (phase stopped, not online), and does a later cpu_up() resume
 * from there, with no second area?
 */
static void hotplug_stopped_cpu_resumes(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	void *area;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	cpuhp_set_step_hook(fail_every_way);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), -EIO);
	cpuhp_set_step_hook(NULL);
	fault_clear("up_step");
	fault_clear("down_step");
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_STOPPED);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -EALREADY);
	area = percpu_area(cpu);
	KUNIT_EXPECT_NOT_NULL(test, area);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	KUNIT_EXPECT_TRUE(test, percpu_area(cpu) == area);
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	KUNIT_EXPECT_TRUE(test, cpu_answers(cpu));
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
}

/*
 * A down fails every way (the hook re-arms the faults) and stops between
 * steps: the CPU still runs the kernel but is not online, and its rcuc
 * thread is parked. A call_rcu() callback was queued there while it was
 * online, its grace period held (a reader) until the down parked that
 * thread. Is the callback invoked while the CPU stays stopped, and does
 * rcu_barrier() wait for it, rather than return with it stranded until
 * a cpu_up()?
 */
static void hotplug_stopped_cpu_callbacks_run(struct kunit *test)
{
	static struct barrier_probe p;
	unsigned int cpu = nr_cpu_ids - 1, other;
	int err;

	if (!have_down_cpus(test, 2))
		return;
	other = cpumask_first(cpu_online_mask);
	if (!barrier_probe_start(test, &p, cpu, other))
		return;
	cpuhp_set_step_hook(fail_every_way);
	err = cpu_down(cpu);
	cpuhp_set_step_hook(NULL);
	fault_clear("up_step");
	fault_clear("down_step");
	KUNIT_EXPECT_EQ(test, err, -EIO);
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_STOPPED);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	wait_for_completion(&p.reader_done);
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, smp_load_acquire(&p.ran));
	/* The up resumes it from where it stopped. */
	KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	rcu_barrier(); /* the callback is done with p */
	KUNIT_EXPECT_TRUE(test, p.ran);
	expect_cpu_online(test, cpu);
}

/*
 * fail.down_step refuses the steps below cpu:teardown (they must not
 * fail) and unknown names, and arms the others once.
 */
static void hotplug_down_step_fault_bounds(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fault_inject("down_step", "percpu:area"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("down_step", "cpu:bringup"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("down_step", "nosuch"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_times("down_step"), 0);
	KUNIT_EXPECT_EQ(test, fault_inject("down_step", "cpu:teardown"), 0);
	KUNIT_EXPECT_EQ(test, fault_times("down_step"), 1);
	fault_clear("down_step");
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_on", "1:DENIED:0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_on", "1:DENIED:60001"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_die_late", "1:0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fault_inject("cpu_die_late", "1:5:later"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_on"), 0);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_die_late"), 0);
}

/*
 * Asking one of a CPU's threads to park fails (fail.kthread_park): is the
 * down refused with that error, the CPU left online, and every thread of
 * the CPU running again, none left parked?
 */
static void hotplug_park_failure_refuses_down(struct kunit *test)
{
	struct park_pack *pp = kunit_kcalloc(test, 1, sizeof(*pp));
	unsigned int last = nr_cpu_ids - 1;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_TRUE(test, park_pack_start(pp, 4, last));
	KUNIT_ASSERT_EQ(test, fault_inject("kthread_park", "1"), 0);
	KUNIT_EXPECT_EQ(test, cpu_down(last), -EAGAIN);
	KUNIT_EXPECT_EQ(test, fault_times("kthread_park"), 0);
	fault_clear("kthread_park");
	expect_cpu_online(test, last);
	KUNIT_EXPECT_EQ(test, park_pack_parked(pp), 0);
	/* And the next down parks them all. */
	if (KUNIT_EXPECT_EQ(test, cpu_down(last), 0))
		KUNIT_EXPECT_EQ(test, park_pack_parked(pp), 4);
	KUNIT_EXPECT_EQ(test, cpu_up_all(), 0);
	park_pack_stop(pp);
}

static const struct kunit_case hotplug_fault_cases[] = {
	KUNIT_CASE(hotplug_failed_up_rolls_back),
	KUNIT_CASE(hotplug_up_survives_alloc_failures),
	KUNIT_CASE(hotplug_slow_off_waits),
	KUNIT_CASE(hotplug_unconfirmed_off_kept),
	KUNIT_CASE(hotplug_rcu_barrier_waits_for_going_down_cpu),
	KUNIT_CASE(hotplug_unconfirmed_off_moves_callbacks_timers),
	KUNIT_CASE(hotplug_failed_step_after_bringup),
	KUNIT_CASE(hotplug_drain_timeout_rolls_back),
	KUNIT_CASE(hotplug_fault_count_bounds),
	KUNIT_CASE(hotplug_psci01_refuses_downs),
	KUNIT_CASE(hotplug_trusted_os_cpu_refused),
	KUNIT_CASE(hotplug_retry_claimed_by_late_cpu),
	KUNIT_CASE(hotplug_die_timeout_withdrawn),
	KUNIT_CASE(hotplug_die_claimed_waited_for),
	KUNIT_CASE(hotplug_exp_gp_beside_teardown),
	KUNIT_CASE(hotplug_failed_rollback_turns_up),
	KUNIT_CASE(hotplug_stopped_cpu_resumes),
	KUNIT_CASE(hotplug_stopped_cpu_callbacks_run),
	KUNIT_CASE(hotplug_down_step_fault_bounds),
	KUNIT_CASE(hotplug_park_failure_refuses_down),
	{},
};

static const struct kunit_suite hotplug_fault_suite = {"hotplug_fault",
						       hotplug_fault_cases};
kunit_test_suite(hotplug_fault_suite);
