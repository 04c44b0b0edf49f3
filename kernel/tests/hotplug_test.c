/*
 * Tests of CPU hotplug and the per-bit RCU online mask: readers never see
 * a gone CPU's data, the firmware agrees with the mask, refusals and
 * rollbacks leave everything as it was.
 */
#include <asm/barrier.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/current.h>
#include <kernel/irq.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/mm.h>
#include <kernel/params.h>
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

#define HP_MAGIC 0x600dc0ffee15600dULL

/* Every CPU's area starts as a copy of the template: HP_MAGIC. */
static DEFINE_PER_CPU(u64, hp_magic) = HP_MAGIC;

static unsigned long hotplug_cycles = 200, hotplug_secs;
param_ulong("hotplug.cycles", hotplug_cycles, 1, 1000000,
	    "N: down/up cycles of the hotplug reader test (default 200)");
param_ulong("hotplug.secs", hotplug_secs, 1, 86400,
	    "S: the hotplug reader test stops its cycles after S seconds "
	    "(default: no limit)");

static bool psci_checkable(void)
{
	return board.cpus[0].method == ENABLE_METHOD_PSCI && psci_available() &&
	       !psci_offline_parks();
}

/* Does the firmware take CPUs down at all (PSCI 0.1 cannot confirm)? */
static bool downs_allowed(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	if (!ops || !ops->cpu_can_disable || ops->cpu_can_disable(cpu))
		return true;
	kunit_skip(test, "the firmware refuses CPU downs");
	return false;
}

/* n CPUs online, and downs allowed. */
static bool have_down_cpus(struct kunit *test, unsigned int n)
{
	return have_cpus(test, n) && downs_allowed(test);
}

/* Bring every present CPU back, whatever a test did. */
static void all_up(void)
{
	unsigned int cpu;

	for_each_present_cpu (cpu)
		if (!cpu_online(cpu))
			cpu_up(cpu);
}

struct reader_stats {
	volatile bool stop;
	bool long_walk;
	bool design_lock; /* cpus_read_lock() instead of rcu_read_lock() */
	u64 walks;
	u64 cpus_seen;
	u64 bad;
	struct completion done;
};

static bool check_one(unsigned int cpu, void *p)
{
	struct reader_stats *r = p;

	if (READ_ONCE(*per_cpu_ptr(&hp_magic, cpu)) != HP_MAGIC)
		r->bad++;
	r->cpus_seen++;
	return true;
}

/*
 * Walk the online mask and read every seen CPU's per-CPU data: lock-free,
 * odd readers in one read-side section, even ones with the long walk (a
 * section per CPU); or under the design hotplug.sync= chose.
 */
static int mask_reader(void *p)
{
	struct reader_stats *r = p;
	unsigned int cpu;

	while (!r->stop) {
		if (r->design_lock) {
			/*
			 * Keep each seen CPU's data pointer, linger now and
			 * then, and read through the pointers again: the data
			 * must stay until the section ends.
			 */
			int cookie = cpus_read_lock();
			u64 *seen[NR_CPUS];
			int n = 0;

			for_each_online_cpu (cpu) {
				check_one(cpu, r);
				seen[n++] = per_cpu_ptr(&hp_magic, cpu);
			}
			udelay(ktime_get_ns() % 2000); /* often past a down */
			while (n--)
				r->bad += READ_ONCE(*seen[n]) != HP_MAGIC;
			cpus_read_unlock(cookie);
		} else if (r->long_walk) {
			online_cpus_walk(check_one, r);
		} else {
			rcu_read_lock();
			for_each_online_cpu (cpu)
				check_one(cpu, r);
			rcu_read_unlock();
		}
		r->walks++;
		if (!(r->walks % 64))
			yield();
	}
	complete(&r->done);
	return 0;
}

static u32 xorshift(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

struct cycle_result {
	u64 downs, ups, fw_wrong, walks, bad;
	u64 cut_short; /* cycles done when the deadline came, or 0 */
};

/*
 * Readers on every CPU walk the mask while CPUs go down and up at random,
 * `cycles` times or until `deadline` (ns, 0: none); all CPUs are back up
 * at the end.
 */
static struct cycle_result readers_under_hotplug(struct kunit *test,
						 unsigned long cycles,
						 u64 deadline, bool design_lock)
{
	static struct reader_stats r[NR_CPUS];
	unsigned int n = num_online_cpus(), i;
	u32 seed = (u32)ktime_get_ns() | 1;
	struct cycle_result res = {0};

	for (i = 0; i < n; i++) {
		r[i] = (struct reader_stats){.long_walk = !(i & 1),
					     .design_lock = design_lock};
		init_completion(&r[i].done);
		if (!KUNIT_EXPECT_NOT_NULL(test, kthread_run(mask_reader, &r[i],
							     "reader/%u", i))) {
			n = i; /* stop the ones started; no cycles */
			cycles = 0;
			break;
		}
	}
	for (unsigned long c = 0; c < cycles; c++) {
		unsigned int cpu = xorshift(&seed) % nr_cpu_ids;
		u64 mpidr = cpu_logical_map(cpu);

		if (deadline && ktime_get_ns() > deadline) {
			res.cut_short = c;
			break;
		}
		if (cpu_online(cpu) && num_online_cpus() > 1) {
			if (cpu_down(cpu))
				continue;
			res.downs++;
			res.fw_wrong +=
				psci_checkable() &&
				psci_affinity_info(mpidr) != PSCI_AFFINITY_OFF;
		} else if (!cpu_online(cpu)) {
			KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
			res.ups++;
			res.fw_wrong +=
				psci_checkable() &&
				psci_affinity_info(mpidr) != PSCI_AFFINITY_ON;
		}
	}
	all_up();
	for (i = 0; i < n; i++)
		r[i].stop = true;
	for (i = 0; i < n; i++) {
		wait_for_completion(&r[i].done);
		res.walks += r[i].walks;
		res.bad += r[i].bad;
	}
	return res;
}

/*
 * Does no reader ever see a freed (poisoned) area, and does the firmware
 * say OFF after each down and ON after each up?
 */
static void hotplug_readers_never_see_poison(struct kunit *test)
{
	struct cycle_result res;

	if (!have_down_cpus(test, 2))
		return;
	/*
	 * A busy host slows the cycles, not the outcome: the boot gives
	 * them a deadline of the kernel's own, and its log says how many
	 * downs it wants by then, instead of the harness timing out.
	 */
	res = readers_under_hotplug(
		test, hotplug_cycles,
		hotplug_secs ? ktime_get_ns() + hotplug_secs * 1000000000ULL
			     : 0,
		false);
	if (res.cut_short)
		kunit_info(test,
			   "hotplug.secs=%lu reached after %llu of %lu "
			   "cycles",
			   hotplug_secs, (unsigned long long)res.cut_short,
			   hotplug_cycles);
	kunit_info(test, "%llu downs, %llu ups, %llu reader walks",
		   (unsigned long long)res.downs, (unsigned long long)res.ups,
		   (unsigned long long)res.walks);
	KUNIT_EXPECT_EQ(test, res.bad, 0);
	KUNIT_EXPECT_EQ(test, res.fw_wrong, 0);
	KUNIT_EXPECT_GT(test, res.downs, 0);
	KUNIT_EXPECT_GT(test, res.walks, 0);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), nr_cpu_ids);
}

/*
 * The benchmark's four reader designs (hotplug.sync=): does each keep its
 * readers off freed per-CPU data? The writer runs alone on CPU0 and
 * cycles the last CPU; readers on the CPUs between linger in their
 * sections, so only the design stands between them and the free.
 * stop_machine's writer waits no grace period: there the stop must.
 */
#define DESIGN_CYCLES 12

static void hotplug_every_design_protects_readers(struct kunit *test)
{
	static struct reader_stats r[NR_CPUS];
	enum hotplug_sync was = hotplug_sync_current();
	unsigned int last = nr_cpu_ids - 1;
	unsigned int nr_readers = min(last, 4U); /* readers on 1..3 at most */
	struct cpumask cpu0;

	if (!have_down_cpus(test, 3))
		return;
	cpumask_clear(&cpu0);
	cpumask_set_cpu(0, &cpu0);
	set_cpus_allowed(current, &cpu0);
	for (int d = 0; d < HOTPLUG_SYNC_NR; d++) {
		u64 bad = 0, walks = 0;
		int downs = 0;

		KUNIT_ASSERT_EQ(test, cpu_hotplug_set_sync(d), 0);
		for (unsigned int i = 1; i < nr_readers; i++) {
			struct task_struct *t;

			r[i] = (struct reader_stats){.design_lock = true};
			init_completion(&r[i].done);
			t = kthread_create(mask_reader, &r[i], "reader/%u", i);
			KUNIT_ASSERT_NOT_NULL(test, t);
			kthread_bind(t, i);
			wake_up_process(t);
		}
		for (int c = 0; c < DESIGN_CYCLES; c++) {
			if (cpu_down(last))
				continue;
			downs++;
			/* Every reader section open at the down ends before
			 * the up can hand the freed memory out again. */
			for (unsigned int i = 1; i < nr_readers; i++) {
				u64 seen = READ_ONCE(r[i].walks) + 1;
				u64 end = ktime_get_ns() + 1000000000ULL;

				while (READ_ONCE(r[i].walks) <= seen &&
				       ktime_get_ns() < end)
					cpu_relax();
			}
			KUNIT_EXPECT_EQ(test, cpu_up(last), 0);
		}
		for (unsigned int i = 1; i < nr_readers; i++)
			r[i].stop = true;
		for (unsigned int i = 1; i < nr_readers; i++) {
			wait_for_completion(&r[i].done);
			bad += r[i].bad;
			walks += r[i].walks;
		}
		kunit_info(test, "%s: %d downs, %llu walks, %llu bad",
			   hotplug_sync_name(d), downs,
			   (unsigned long long)walks, (unsigned long long)bad);
		KUNIT_EXPECT_EQ(test, bad, 0);
		KUNIT_EXPECT_EQ(test, downs, DESIGN_CYCLES);
	}
	cpu_hotplug_set_sync(was);
	set_cpus_allowed(current, cpu_possible_mask);
	all_up();
}

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
	all_up();
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

static int wait_on(void *p)
{
	wait_for_completion(p);
	return 0;
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
	mem_get_stats(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(errors); i++) {
		snprintf(val, sizeof(val), "%u:%d", cpu, errors[i]);
		fault_inject("cpu_on", val);
		KUNIT_EXPECT_NE(test, cpu_up(cpu), 0);
		fault_clear("cpu_on");
		rcu_barrier();
		mem_get_stats(&after);
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
	mem_get_stats(&before);
	for (n = 1; n < 100 && err; n++) {
		current->fail_nth = n;
		err = cpu_up(cpu);
		current->fail_nth = 0;
		if (!err)
			break;
		rcu_barrier();
		mem_get_stats(&after);
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
	mem_get_stats(&before);
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
	mem_get_stats(&after);
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
	struct cpumask mask;

	if (!have_down_cpus(test, 2) || !psci_checkable()) {
		kunit_skip(test, "needs 2 CPUs and PSCI");
		return;
	}
	other = cpumask_first(cpu_online_mask);
	if (other == cpu)
		other = cpumask_next(cpu, cpu_online_mask);
	/* Off the reader's CPU while it spins, so as to queue meanwhile. */
	cpumask_copy(&mask, cpu_possible_mask);
	cpumask_clear_cpu(other, &mask);
	set_cpus_allowed(current, &mask);
	rcu_barrier();
	p = (struct barrier_probe){.target = cpu, .hold_ns = 200000000ULL};
	init_completion(&p.down_done);
	init_completion(&p.reader_done);
	/*
	 * The reader keeps the callback's grace period from ending until the
	 * down has parked the CPU's rcuc thread (the down's own grace period
	 * waits for it too), so the callback cannot run before the CPU dies:
	 * it must be migrated, and the barrier must wait for that.
	 */
	t = kthread_create(barrier_probe_reader, &p, "bp_reader");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, other);
	wake_up_process(t);
	while (!p.inside)
		cpu_relax();
	KUNIT_ASSERT_EQ(
		test,
		smp_call_function_single(cpu, barrier_probe_queue, &p, true),
		0);
	KUNIT_EXPECT_FALSE(test, completion_done(&p.reader_done));
	set_cpus_allowed(current, cpu_possible_mask);
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
	all_up();
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
	all_up();
}

/*
 * PSCI 0.1 has no AFFINITY_INFO: nothing can confirm a CPU off. Is a down
 * refused with the reason, the CPU online with its memory?
 */
static void hotplug_psci01_refuses_downs(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;

	if (!have_cpus(test, 2) || board.cpus[0].method != ENABLE_METHOD_PSCI ||
	    board.psci.version != 1 || psci_offline_parks()) {
		kunit_skip(test,
			   "needs 2 CPUs and PSCI 0.1 (without hotplug.pen)");
		return;
	}
	KUNIT_EXPECT_EQ(test, cpu_down(cpu), -EBUSY);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
	KUNIT_EXPECT_NOT_NULL(test, percpu_area(cpu));
}

/* Does going down give the CPU's area and idle stack back (mem counters)? */
static void hotplug_down_frees_memory(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1;
	struct mem_stats on, off, back;

	if (!have_down_cpus(test, 2))
		return;
	mem_get_stats(&on);
	KUNIT_ASSERT_NOT_NULL(test, percpu_area(cpu));
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	mem_get_stats(&off);
	KUNIT_EXPECT_NULL(test, percpu_area(cpu));
	KUNIT_EXPECT_GT(test, off.free_pages, on.free_pages);
	KUNIT_EXPECT_LT(test, off.kmalloc_objects, on.kmalloc_objects);
	KUNIT_ASSERT_EQ(test, cpu_up(cpu), 0);
	rcu_barrier();
	mem_get_stats(&back);
	KUNIT_EXPECT_EQ(test, back.kmalloc_objects, on.kmalloc_objects);
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
 * Issue 15 finding 5: a waker chose the CPU going down while it was still
 * active, and its thread is queued only after sched:active cleared the bit
 * (the hook holds the waker, IRQs off, until then and 20 ms more). The
 * thread then spins without a switch. Drained before the grace period,
 * the CPU would get that thread after its drain and never reach its idle
 * loop: the down fails. Drained after it, the thread is moved off.
 */
struct late_wake {
	struct task_struct *spinner;
	unsigned int cpu;
	volatile bool asleep, go, stop;
	volatile int ran_on; /* CPU number + 1, while spinning */
	struct completion spun, waker_done;
};

static int late_spinner(void *p)
{
	struct late_wake *lw = p;

	/* Ran on lw->cpu (bound there): it is where a wake-up looks first. */
	set_cpus_allowed(current, cpu_possible_mask);
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

static void hotplug_late_waker_drained(struct kunit *test)
{
	static struct late_wake lw;
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
	lw.go = true;
	/* The waker chose cpu (still active) and waits in the hook. */
	end = ktime_get_ns() + 2000000000ULL;
	while (sched_delay_wakeup_pending() && ktime_get_ns() < end)
		msleep(1);
	if (sched_delay_wakeup_pending())
		kunit_info(test, "the waker did not reach the hook in 2 s");
	err = cpu_down(cpu);
	sched_delay_wakeup_onto(NULL, 0);
	wait_for_completion(&lw.waker_done);
	while (!lw.ran_on)
		msleep(1);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	/* Spinning still, and not on the CPU that went down. */
	msleep(20);
	KUNIT_EXPECT_NE(test, lw.ran_on, (int)cpu + 1);
	lw.stop = true;
	wait_for_completion(&lw.spun);
	if (!cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
	set_cpus_allowed(current, cpu_possible_mask);
}

/*
 * Found while verifying issue 15: an idle CPU checked its active bit in
 * idle_balance() before taking the run-queue locks, and that check is no
 * read-side section (a tick in the idle loop is a quiescent state). The
 * hook holds CPU cpu's idle thread between the check and the locks until
 * cpu is told to die, after rcu:sync and sched:drain; threads that may
 * run on cpu wait on another CPU's queue meanwhile. Pulled then, a
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
	KUNIT_EXPECT_EQ(test, cpu_up(0), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
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
	all_up();
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
	all_up();
}

/*
 * The grace period of a down waits for the CPU going down, which is no
 * longer online (no IPI reaches it) and, since finding 5, still runs its
 * threads. Does it end while that CPU's thread is nearly always inside a
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

static const struct kunit_case hotplug_cases[] = {
	KUNIT_CASE(hotplug_double_down_and_up),
	KUNIT_CASE(hotplug_last_cpu_refused),
	KUNIT_CASE(hotplug_bound_thread_refuses),
	KUNIT_CASE(hotplug_down_frees_memory),
	KUNIT_CASE(hotplug_failed_up_rolls_back),
	KUNIT_CASE(hotplug_up_survives_alloc_failures),
	KUNIT_CASE(hotplug_slow_off_waits),
	KUNIT_CASE(hotplug_unconfirmed_off_kept),
	KUNIT_CASE(hotplug_rcu_barrier_waits_for_going_down_cpu),
	KUNIT_CASE(hotplug_unconfirmed_off_moves_callbacks_timers),
	KUNIT_CASE(hotplug_failed_step_after_bringup),
	KUNIT_CASE(hotplug_psci01_refuses_downs),
	KUNIT_CASE(hotplug_moves_threads_timers_irqs),
	KUNIT_CASE(hotplug_up_cpu_ticks_again),
	KUNIT_CASE(hotplug_late_waker_drained),
	KUNIT_CASE(hotplug_idle_pull_after_drain),
	KUNIT_CASE(hotplug_down_own_cpu),
	KUNIT_CASE(hotplug_down_ends_under_busy_reader),
	KUNIT_CASE(hotplug_boot_cpu),
	KUNIT_CASE(hotplug_trusted_os_cpu_refused),
	KUNIT_CASE(hotplug_readers_never_see_poison),
	KUNIT_CASE(hotplug_every_design_protects_readers),
	{},
};

static const struct kunit_suite hotplug_suite = {"hotplug", hotplug_cases};
kunit_test_suite(hotplug_suite);
