/*
 * Tests of the per-bit RCU online mask under hotplug: readers never see a
 * gone CPU's data while CPUs go down and up at random, and the firmware
 * agrees with the mask; each of the four reader designs of 2013
 * (hotplug_sync=) keeps its readers off freed per-CPU data; a per-CPU
 * snapshot copes with CPUs that go down or come up while it grows.
 * Readers check what they read by the area's tag (struct percpu_claim),
 * which tells a freed area, and one allocated again in its place, from
 * the area they started on.
 */
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/kunit.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include "helpers.h"

static unsigned long hotplug_cycles = 200, hotplug_secs;
param_ulong("hotplug.cycles", hotplug_cycles, 1, 1000000,
	    "N: down/up cycles of the hotplug reader test (default 200)");
param_ulong("hotplug.secs", hotplug_secs, 1, 86400,
	    "S: the hotplug reader test stops its cycles after S seconds "
	    "(default: no limit)");

struct reader_stats {
	volatile bool stop;
	bool long_walk;
	bool snapshot; /* percpu_snapshot_take(), growing every walk */
	bool design_lock; /* cpus_read_lock() instead of rcu_read_lock() */
	u64 walks;
	u64 cpus_seen;
	u64 bad;
	u64 grows, vanished; /* the snapshot readers' windows */
	struct completion done;
};

static bool check_one(unsigned int cpu, void *p)
{
	struct reader_stats *r = p;
	struct percpu_claim claim = percpu_claim(cpu);

	if (!percpu_claim_valid(&claim, cpu))
		r->bad++;
	r->cpus_seen++;
	return true;
}

/* A snapshot's record of one CPU: what its area held when read. */
struct hp_rec {
	bool tag_ok; /* the area's tag is cpu's */
	unsigned int cpu_number;
	bool area_gone; /* the area was freed: not read */
};

static void hp_rec_fill(unsigned int cpu, void *p, void *arg)
{
	struct hp_rec *rec = p;
	struct percpu_claim claim;

	rec->area_gone = !percpu_area(cpu);
	if (rec->area_gone)
		return;
	claim = percpu_claim(cpu);
	rec->tag_ok = percpu_claim_valid(&claim, cpu);
	rec->cpu_number = READ_ONCE(per_cpu(cpu_number, cpu));
}

/* Records of CPUs whose area was gone or not theirs (0: all good). */
static u64 snapshot_bad_recs(const struct percpu_snapshot *snap)
{
	u64 bad = 0;

	for (unsigned int i = 0; i < snap->nr; i++) {
		const struct hp_rec *rec = percpu_snapshot_rec(snap, i);

		bad += rec->area_gone || !rec->tag_ok ||
		       rec->cpu_number != snap->cpus[i];
	}
	return bad;
}

/* Widen the window, so that the random downs and ups land in it. */
static void snapshot_reader_window(unsigned int cpu, void *arg)
{
	udelay(ktime_get_ns() % 200);
}

/* A snapshot that must grow (room for one CPU first), checked. */
static void snapshot_reader_walk(struct reader_stats *r)
{
	struct percpu_snapshot snap = {.rec_size = sizeof(struct hp_rec),
				       .fill = hp_rec_fill,
				       .room = 1,
				       .window = snapshot_reader_window};

	if (percpu_snapshot_take(&snap))
		return; /* no memory: nothing read, nothing to check */
	r->bad += snapshot_bad_recs(&snap);
	r->cpus_seen += snap.nr;
	r->grows += snap.grows;
	r->vanished += snap.vanished;
	percpu_snapshot_release(&snap);
}

/* A CPU a reader saw online, and its claim on the CPU's area. */
struct hp_seen {
	unsigned int cpu;
	struct percpu_claim claim;
};

/*
 * Walk the online mask and read every seen CPU's per-CPU data: lock-free,
 * odd readers in one read-side section, even ones with the long walk (a
 * section per CPU), every fourth through a per-CPU snapshot; or under
 * the design hotplug_sync= chose.
 */
static int mask_reader(void *p)
{
	struct reader_stats *r = p;
	/* Allocated before any read-side section, never inside one. */
	struct hp_seen *seen = kcalloc(nr_cpu_ids, sizeof(*seen));
	unsigned int cpu;

	while (!r->stop) {
		if (r->design_lock) {
			/*
			 * Keep a claim on each seen CPU's area, linger now
			 * and then, and check the claims again: the areas
			 * must stay until the section ends.
			 */
			int cookie;
			int n = 0;

			if (!seen) {
				r->bad++; /* no memory: counted as a failure */
				break;
			}
			cookie = cpus_read_lock();

			for_each_online_cpu (cpu) {
				check_one(cpu, r);
				seen[n++] = (struct hp_seen){cpu,
							     percpu_claim(cpu)};
			}
			udelay(ktime_get_ns() % 2000); /* often past a down */
			while (n--)
				r->bad += !percpu_claim_valid(&seen[n].claim,
							      seen[n].cpu);
			cpus_read_unlock(cookie);
		} else if (r->snapshot) {
			snapshot_reader_walk(r);
		} else if (r->long_walk) {
			online_cpus_walk(check_one, r);
		} else {
			rcu_read_lock();
			for_each_online_cpu (cpu)
				check_one(cpu, r);
			rcu_read_unlock();
		}
		/* The design test polls it while this runs (READ_ONCE()). */
		WRITE_ONCE(r->walks, r->walks + 1);
		if (!(r->walks % 64))
			yield();
	}
	kfree(seen);
	complete(&r->done);
	return 0;
}

#define READERS_MAX 32U

struct cycle_result {
	u64 downs, ups, fw_wrong, walks, bad;
	u64 grows, vanished; /* of the snapshot readers */
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
	struct reader_stats *r = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r));
	/*
	 * A reader per CPU, up to READERS_MAX: readers never sleep, and 512
	 * of them on 2 host cores leave each vCPU less time per tick period
	 * than its tick takes (make test-scale); 32 still walk every CPU.
	 */
	unsigned int n = min(num_online_cpus(), READERS_MAX), i;
	u32 seed = (u32)ktime_get_ns() | 1;
	struct cycle_result res = {0};

	if (!r)
		return res;
	for (i = 0; i < n; i++) {
		r[i] = (struct reader_stats){.long_walk = !(i & 1),
					     .snapshot = (i & 3) == 3,
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
		unsigned int cpu = xorshift32(&seed) % nr_cpu_ids;
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
	cpu_up_all();
	for (i = 0; i < n; i++)
		r[i].stop = true;
	for (i = 0; i < n; i++) {
		wait_for_completion(&r[i].done);
		res.walks += r[i].walks;
		res.bad += r[i].bad;
		res.grows += r[i].grows;
		res.vanished += r[i].vanished;
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
	kunit_info(test,
		   "%llu downs, %llu ups, %llu reader walks; snapshots grew "
		   "%llu times, %llu CPUs gone in the window",
		   (unsigned long long)res.downs, (unsigned long long)res.ups,
		   (unsigned long long)res.walks, (unsigned long long)res.grows,
		   (unsigned long long)res.vanished);
	KUNIT_EXPECT_EQ(test, res.bad, 0);
	KUNIT_EXPECT_EQ(test, res.fw_wrong, 0);
	KUNIT_EXPECT_GT(test, res.downs, 0);
	KUNIT_EXPECT_GT(test, res.walks, 0);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), nr_cpu_ids);
}

/*
 * The benchmark's four reader designs (hotplug_sync=): does each keep its
 * readers off freed per-CPU data? The writer runs alone on CPU0 and
 * cycles the last CPU; readers on the CPUs between linger in their
 * sections, so only the design stands between them and the free.
 * stop_machine's writer waits no grace period: there the stop must.
 */
#define DESIGN_CYCLES 12

static void hotplug_every_design_protects_readers(struct kunit *test)
{
	struct reader_stats *r = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r));
	enum hotplug_sync was = hotplug_sync_current();
	unsigned int last = nr_cpu_ids - 1;
	unsigned int nr_readers = min(last, 4U); /* readers on 1..3 at most */
	struct cpumask cpu0;

	if (!have_down_cpus(test, 3))
		return;
	KUNIT_ASSERT_NOT_NULL(test, r);
	cpumask_clear(&cpu0);
	cpumask_set_cpu(0, &cpu0);
	set_cpus_allowed(current, &cpu0);
	for (int d = 0; d < HOTPLUG_SYNC_NR; d++) {
		u64 bad = 0, walks = 0;
		int downs = 0;

		/*
		 * stop_machine() spins every CPU at once: hundreds of vCPUs on
		 * a 2-core host crawl for minutes (docs/scale.md). What it
		 * protects is shown at 64 CPUs and below.
		 */
		if (d == HOTPLUG_SYNC_STOP_MACHINE && nr_cpu_ids > 64) {
			kunit_info(test, "%s: not run on %u CPUs",
				   hotplug_sync_name(d), nr_cpu_ids);
			continue;
		}
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
	cpu_up_all();
}

/* The test thread stays on CPU0, out of the way of the CPUs it takes. */
static void pin_to_cpu0(bool pin)
{
	struct cpumask cpu0;

	cpumask_clear(&cpu0);
	cpumask_set_cpu(0, &cpu0);
	set_cpus_allowed(current, pin ? &cpu0 : cpu_possible_mask);
}

/*
 * A reader that straddles a design switch: it reads the design before the
 * switch and takes that design's lock, widened by fail.sync_read, then
 * keeps its claims on its CPUs' areas until the test has taken one of those
 * CPUs down (or a writer waits for it to leave).
 */
struct straddler {
	struct completion go, done;
	volatile bool stop, in_section, down_done;
	u64 sections, bad;
};

static int straddle_reader(void *p)
{
	struct straddler *s = p;
	struct hp_seen *seen = kcalloc(nr_cpu_ids, sizeof(*seen));

	for (;;) {
		unsigned int cpu;
		int cookie, n = 0;
		u64 end;

		wait_for_completion(&s->go);
		if (s->stop)
			break;
		if (!seen) {
			s->bad++; /* no memory: counted as a failure */
			complete(&s->done);
			continue;
		}
		cookie = cpus_read_lock();
		for_each_online_cpu (cpu) {
			seen[n] = (struct hp_seen){cpu, percpu_claim(cpu)};
			s->bad += !percpu_claim_valid(&seen[n++].claim, cpu);
		}
		WRITE_ONCE(s->in_section, true);
		/*
		 * Linger (preemptible: the old design may be a lock) until
		 * the test's down is over, or a switch still runs: its
		 * writer waits for this section, so no down can come.
		 */
		end = ktime_get_ns() + 2000000000ULL;
		while (!s->down_done && !(hotplug_sync_switches() & 1) &&
		       ktime_get_ns() < end)
			msleep(1);
		while (n--)
			s->bad += !percpu_claim_valid(&seen[n].claim,
						      seen[n].cpu);
		cpus_read_unlock(cookie);
		s->sections++;
		complete(&s->done);
	}
	kfree(seen);
	complete(&s->done);
	return 0;
}

/*
 * Is a design switch safe while readers of every design run? Readers on
 * the CPUs between CPU1 and the last walk under whatever design is in
 * force throughout; on CPU1, for each switch away from a lock design, a
 * reader reads the old design just before the switch and takes its lock
 * only once the switch is over, unless the switch waits for it (the
 * window fail.sync_read widens). Then the last CPU goes down: no reader
 * may read its freed area.
 */
static void hotplug_design_switch_under_readers(struct kunit *test)
{
	static const enum hotplug_sync pairs[][2] = {
		{HOTPLUG_SYNC_RWLOCK, HOTPLUG_SYNC_RCU},
		{HOTPLUG_SYNC_RWLOCK, HOTPLUG_SYNC_STOP_MACHINE},
		{HOTPLUG_SYNC_RWLOCK, HOTPLUG_SYNC_PERCPU_RWSEM},
		{HOTPLUG_SYNC_PERCPU_RWSEM, HOTPLUG_SYNC_RCU},
		{HOTPLUG_SYNC_PERCPU_RWSEM, HOTPLUG_SYNC_STOP_MACHINE},
		{HOTPLUG_SYNC_PERCPU_RWSEM, HOTPLUG_SYNC_RWLOCK},
	};
	struct reader_stats *r = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r));
	struct straddler *s = kunit_kcalloc(test, 1, sizeof(*s));
	enum hotplug_sync was = hotplug_sync_current();
	unsigned int last = nr_cpu_ids - 1, i;
	unsigned int nr_readers = min(last, 8U); /* readers on 2..7 at most */
	struct task_struct *t;
	u64 bad = 0, walks = 0, missed = 0;
	int downs = 0;

	if (!have_down_cpus(test, 3))
		return;
	/* stop_machine() at hundreds of vCPUs crawls (docs/scale.md). */
	if (nr_cpu_ids > 64) {
		kunit_skip(test, "stop_machine on %u CPUs", nr_cpu_ids);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, s);
	pin_to_cpu0(true);
	init_completion(&s->go);
	init_completion(&s->done);
	t = kthread_create(straddle_reader, s, "straddler");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 1);
	wake_up_process(t);
	for (i = 2; i < nr_readers; i++) {
		r[i] = (struct reader_stats){.design_lock = true};
		init_completion(&r[i].done);
		t = kthread_create(mask_reader, &r[i], "reader/%u", i);
		KUNIT_ASSERT_NOT_NULL(test, t);
		kthread_bind(t, i);
		wake_up_process(t);
	}
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		KUNIT_EXPECT_EQ(test, cpu_hotplug_set_sync(pairs[i][0]), 0);
		KUNIT_EXPECT_EQ(test, fault_inject("sync_read", "1:300"), 0);
		s->in_section = false;
		s->down_done = false;
		complete(&s->go);
		/* The straddler has read the old design. */
		missed += !wait_for(fault_times("sync_read") == 0, 10000000);
		KUNIT_EXPECT_EQ(test, cpu_hotplug_set_sync(pairs[i][1]), 0);
		missed += !wait_for(s->in_section, 10000000);
		downs += !cpu_down(last);
		s->down_done = true;
		wait_for_completion(&s->done);
		KUNIT_EXPECT_EQ(test, cpu_up(last), 0);
		kunit_info(test, "%s -> %s: straddler bad %llu",
			   hotplug_sync_name(pairs[i][0]),
			   hotplug_sync_name(pairs[i][1]),
			   (unsigned long long)s->bad);
	}
	fault_clear("sync_read");
	s->stop = true;
	complete(&s->go);
	wait_for_completion(&s->done);
	bad += s->bad;
	for (i = 2; i < nr_readers; i++)
		r[i].stop = true;
	for (i = 2; i < nr_readers; i++) {
		wait_for_completion(&r[i].done);
		bad += r[i].bad;
		walks += r[i].walks;
	}
	kunit_info(test, "%d downs, %llu straddling sections, %llu walks",
		   downs, (unsigned long long)s->sections,
		   (unsigned long long)walks);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, missed, 0);
	KUNIT_EXPECT_EQ(test, s->sections, ARRAY_SIZE(pairs));
	KUNIT_EXPECT_EQ(test, downs, (int)ARRAY_SIZE(pairs));
	cpu_hotplug_set_sync(was);
	pin_to_cpu0(false);
	cpu_up_all();
}

/*
 * A reader keeps a pointer into a CPU's area past the end of its section
 * (the bug every reader check is there to catch); the CPU goes down, and
 * comes up with a new area in the same memory. Does the readers' check
 * see that the area it read is gone? A value of the template cannot (a
 * magic number, the CPU's number): the new area holds it too; the tag
 * can.
 */
static void hotplug_reused_area_fails_check(struct kunit *test)
{
	unsigned int last = nr_cpu_ids - 1;
	struct percpu_claim claim;
	const unsigned int *stale;
	void *area;
	int cycles = 0;
	bool reused = false;

	if (!have_down_cpus(test, 2))
		return;
	pin_to_cpu0(true);
	rcu_read_lock();
	claim = percpu_claim(last);
	stale = per_cpu_ptr(&cpu_number, last);
	area = percpu_area(last);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, percpu_claim_valid(&claim, last));
	/* The allocator hands the freed area out again, LIFO, on CPU0. */
	while (!reused && cycles++ < 16 &&
	       KUNIT_EXPECT_EQ(test, cpu_down(last), 0) &&
	       KUNIT_EXPECT_EQ(test, cpu_up(last), 0))
		reused = percpu_area(last) == area;
	pin_to_cpu0(false);
	if (!reused) {
		kunit_skip(test, "no freed area handed out again");
		return;
	}
	kunit_info(test, "the same memory back after %d cycle(s)", cycles);
	KUNIT_EXPECT_EQ(test, READ_ONCE(*stale), last); /* template value */
	KUNIT_EXPECT_FALSE(test, percpu_claim_valid(&claim, last));
	claim = percpu_claim(last); /* the new area's own claim holds */
	KUNIT_EXPECT_TRUE(test, percpu_claim_valid(&claim, last));
}

/* What a snapshot's test window does, and what came of it. */
struct window_test {
	bool up; /* bring `cpu` up; else take the CPU being read down */
	unsigned int cpu;
	unsigned int calls;
	int ret;
};

static void window_hotplug(unsigned int cpu, void *arg)
{
	struct window_test *w = arg;

	if (w->calls++)
		return;
	if (w->up) {
		w->ret = cpu_up(w->cpu);
	} else {
		w->cpu = cpu;
		w->ret = cpu_down(cpu);
	}
}

static bool snapshot_has(const struct percpu_snapshot *snap, unsigned int cpu)
{
	for (unsigned int i = 0; i < snap->nr; i++)
		if (snap->cpus[i] == cpu)
			return true;
	return false;
}

/* Are the snapshot's CPUs the online mask now, each once, ascending? */
static bool snapshot_is_online_mask(const struct percpu_snapshot *snap)
{
	unsigned int cpu, i = 0;

	for_each_online_cpu (cpu)
		if (i >= snap->nr || snap->cpus[i++] != cpu)
			return false;
	return i == snap->nr;
}

/*
 * A CPU the snapshot saw online goes down in the window while it grows:
 * is it left out, counted as vanished, and was nothing of its freed area
 * read (every record's tag its CPU's)? And is it really off?
 */
static void hotplug_snapshot_cpu_down_in_window(struct kunit *test)
{
	struct window_test w = {0};
	struct percpu_snapshot snap = {.rec_size = sizeof(struct hp_rec),
				       .fill = hp_rec_fill,
				       .arg = &w,
				       .room = 1,
				       .window = window_hotplug};

	if (!have_down_cpus(test, 2))
		return;
	pin_to_cpu0(true);
	if (KUNIT_EXPECT_EQ(test, percpu_snapshot_take(&snap), 0)) {
		KUNIT_EXPECT_EQ(test, w.ret, 0);
		KUNIT_EXPECT_NE(test, w.cpu, 0); /* CPU0 took the first room */
		KUNIT_EXPECT_FALSE(test, cpu_online(w.cpu));
		if (psci_checkable())
			KUNIT_EXPECT_EQ(
				test,
				psci_affinity_info(cpu_logical_map(w.cpu)),
				PSCI_AFFINITY_OFF);
		KUNIT_EXPECT_FALSE(test, snapshot_has(&snap, w.cpu));
		KUNIT_EXPECT_TRUE(test, snapshot_is_online_mask(&snap));
		KUNIT_EXPECT_EQ(test, snap.vanished, 1);
		KUNIT_EXPECT_EQ(test, snap.grows, 1);
		KUNIT_EXPECT_EQ(test, snapshot_bad_recs(&snap), 0);
	}
	percpu_snapshot_release(&snap);
	pin_to_cpu0(false);
	KUNIT_EXPECT_EQ(test, cpu_up_all(), 0);
}

/*
 * A CPU comes up in the window while the snapshot grows: does the walk,
 * going on from the CPU it was at, find it, with its own area's data?
 */
static void hotplug_snapshot_cpu_up_in_window(struct kunit *test)
{
	struct window_test w = {.up = true, .cpu = nr_cpu_ids - 1};
	struct percpu_snapshot snap = {.rec_size = sizeof(struct hp_rec),
				       .fill = hp_rec_fill,
				       .arg = &w,
				       .room = 1,
				       .window = window_hotplug};

	/* CPU1 makes it grow; the last CPU comes up after it. */
	if (!have_down_cpus(test, 3))
		return;
	pin_to_cpu0(true);
	if (KUNIT_EXPECT_EQ(test, cpu_down(w.cpu), 0) &&
	    KUNIT_EXPECT_EQ(test, percpu_snapshot_take(&snap), 0)) {
		KUNIT_EXPECT_EQ(test, w.ret, 0);
		KUNIT_EXPECT_TRUE(test, cpu_online(w.cpu));
		if (psci_checkable())
			KUNIT_EXPECT_EQ(
				test,
				psci_affinity_info(cpu_logical_map(w.cpu)),
				PSCI_AFFINITY_ON);
		KUNIT_EXPECT_TRUE(test, snapshot_has(&snap, w.cpu));
		KUNIT_EXPECT_TRUE(test, snapshot_is_online_mask(&snap));
		KUNIT_EXPECT_EQ(test, snap.nr, num_online_cpus());
		KUNIT_EXPECT_EQ(test, snap.vanished, 0);
		KUNIT_EXPECT_GE(test, snap.grows, 1);
		KUNIT_EXPECT_EQ(test, snapshot_bad_recs(&snap), 0);
	}
	percpu_snapshot_release(&snap);
	pin_to_cpu0(false);
	KUNIT_EXPECT_EQ(test, cpu_up_all(), 0);
}

/*
 * With nothing changing, is the pre-allocated room enough: no grow, no
 * window, every online CPU recorded from its own area?
 */
static void hotplug_snapshot_preallocated_needs_no_retry(struct kunit *test)
{
	struct window_test w = {0};
	struct percpu_snapshot snap = {.rec_size = sizeof(struct hp_rec),
				       .fill = hp_rec_fill,
				       .arg = &w,
				       .window = window_hotplug};

	KUNIT_ASSERT_EQ(test, percpu_snapshot_take(&snap), 0);
	KUNIT_EXPECT_EQ(test, snap.grows, 0);
	KUNIT_EXPECT_EQ(test, w.calls, 0);
	KUNIT_EXPECT_EQ(test, snap.vanished, 0);
	KUNIT_EXPECT_EQ(
		test, snap.capacity,
		min(num_online_cpus() + PERCPU_SNAPSHOT_SLACK, nr_cpu_ids));
	KUNIT_EXPECT_TRUE(test, snapshot_is_online_mask(&snap));
	KUNIT_EXPECT_EQ(test, snapshot_bad_recs(&snap), 0);
	percpu_snapshot_release(&snap);
}

/*
 * The grow fails (records so big that two exceed kmalloc's largest
 * block): -ENOMEM, nothing kept, and the walk has left its read-side
 * section (the caller is preemptible again)?
 */
static void hotplug_snapshot_failed_grow_keeps_nothing(struct kunit *test)
{
	size_t max = PAGE_SIZE << (MAX_ORDER - 1);
	struct percpu_snapshot snap = {
		.rec_size = max / 2 + max / 8, .fill = hp_rec_fill, .room = 1};

	if (!have_cpus(test, 2))
		return;
	KUNIT_EXPECT_EQ(test, percpu_snapshot_take(&snap), -ENOMEM);
	KUNIT_EXPECT_NULL(test, snap.recs);
	KUNIT_EXPECT_EQ(test, snap.nr, 0);
	KUNIT_EXPECT_EQ(test, snap.grows, 1);
	KUNIT_EXPECT_TRUE(test, preemptible());
	percpu_snapshot_release(&snap); /* a no-op after the error */
}

/* Bad requests are refused, with nothing allocated. */
static void hotplug_snapshot_refuses_bad_request(struct kunit *test)
{
	struct percpu_snapshot no_fill = {.rec_size = 8};
	struct percpu_snapshot no_size = {.fill = hp_rec_fill};

	KUNIT_EXPECT_EQ(test, percpu_snapshot_take(&no_fill), -EINVAL);
	KUNIT_EXPECT_NULL(test, no_fill.recs);
	KUNIT_EXPECT_EQ(test, percpu_snapshot_take(&no_size), -EINVAL);
	KUNIT_EXPECT_NULL(test, no_size.recs);
}

static const struct kunit_case hotplug_readers_cases[] = {
	KUNIT_CASE(hotplug_readers_never_see_poison),
	KUNIT_CASE(hotplug_every_design_protects_readers),
	KUNIT_CASE(hotplug_design_switch_under_readers),
	KUNIT_CASE(hotplug_reused_area_fails_check),
	KUNIT_CASE(hotplug_snapshot_cpu_down_in_window),
	KUNIT_CASE(hotplug_snapshot_cpu_up_in_window),
	KUNIT_CASE(hotplug_snapshot_preallocated_needs_no_retry),
	KUNIT_CASE(hotplug_snapshot_failed_grow_keeps_nothing),
	KUNIT_CASE(hotplug_snapshot_refuses_bad_request),
	{},
};

static const struct kunit_suite hotplug_readers_suite = {"hotplug_readers",
							 hotplug_readers_cases};
kunit_test_suite(hotplug_readers_suite);
