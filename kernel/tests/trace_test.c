/*
 * Tests of the event trace (kernel/trace/): the ring's wrap and lost
 * counts, a reader racing its writer, and what a CPU down and up under a
 * busy reader leave in the per-CPU rings: time order per CPU, the steps,
 * PSCI CPU_OFF before the waiting CPU's AFFINITY_INFO OFF, the grace
 * period inside rcu:sync. The live cases clear the trace (a trace.dump
 * at the end of the boot shows what they recorded).
 */
#include <asm/irqflags.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/psci.h>
#include <kernel/sched.h>
#include <kernel/trace.h>
#include <string.h>
#include "helpers.h"

#define SMALL 16

static struct trace_entry small_slots[SMALL];

static void small_ring(struct trace_ring *r)
{
	memset(r, 0, sizeof(*r));
	r->slots = small_slots;
	r->mask = SMALL - 1;
}

/* Entry i carries i in every field, so a torn copy shows. */
static void write_nth(struct trace_ring *r, u64 i)
{
	struct trace_entry e = {
		.ts = i, .type = TRACE_RCU_QS, .arg = (u32)i, .x = i, .y = i};
	unsigned long flags;

	local_irq_save(flags);
	trace_ring_write(r, &e);
	local_irq_restore(flags);
}

/* Does a full ring keep the newest entries, in order, and count the rest? */
static void trace_ring_wraps_and_counts_lost(struct kunit *test)
{
	static struct trace_entry out[SMALL];
	struct trace_ring r;
	unsigned int n;
	u64 lost;

	small_ring(&r);
	for (u64 i = 1; i <= 40; i++)
		write_nth(&r, i);
	n = trace_ring_read(&r, out, SMALL, &lost);
	/* One slot is the one the writer fills next: SMALL - 1 readable. */
	KUNIT_EXPECT_EQ(test, n, SMALL - 1);
	KUNIT_EXPECT_EQ(test, lost, 40 - (SMALL - 1));
	for (unsigned int i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, out[i].ts, 40 - SMALL + 2 + i);
	/* A reader that wants fewer gets the newest, the rest lost. */
	n = trace_ring_read(&r, out, 4, &lost);
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, lost, 36);
	KUNIT_EXPECT_EQ(test, out[0].ts, 37);
	/* After a clear (base moved to head): only what came since. */
	r.base = r.head;
	for (u64 i = 41; i <= 45; i++)
		write_nth(&r, i);
	n = trace_ring_read(&r, out, SMALL, &lost);
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, lost, 0);
	KUNIT_EXPECT_EQ(test, out[0].ts, 41);
	KUNIT_EXPECT_EQ(test, out[4].ts, 45);
}

struct ring_writer {
	struct trace_ring *r;
	u64 count, written;
	volatile bool started;
	volatile unsigned int reads; /* the reader's so far */
	struct completion done;
};

/* Reads the writer waits for, and how far past count it goes for them. */
#define RACE_READS 10
#define RACE_MAX 100

/*
 * count entries, and on until the reader has raced RACE_READS reads: on a
 * busy host the reader's vCPU can be held back while all count are
 * written, and the race would not be tested (seen: 0 reads).
 */
static int ring_writer_fn(void *p)
{
	struct ring_writer *w = p;
	u64 i;

	w->started = true;
	for (i = 1; i <= w->count || (READ_ONCE(w->reads) < RACE_READS &&
				      i <= RACE_MAX * w->count);
	     i++)
		write_nth(w->r, i);
	w->written = i - 1;
	complete(&w->done);
	return 0;
}

/* Is one read's run of entries whole and consecutive? */
static bool run_ok(const struct trace_entry *out, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (out[i].x != out[i].ts || out[i].y != out[i].ts ||
		    out[i].arg != (u32)out[i].ts || out[i].ts != out[0].ts + i)
			return false;
	return true;
}

/*
 * Does a reader on another CPU, racing the writer round a small ring,
 * only ever get whole entries in order, never one half overwritten?
 */
static void trace_ring_read_races_writer(struct kunit *test)
{
	static struct trace_entry out[SMALL];
	struct ring_writer w = {.count = 200000};
	unsigned int me, other, n, reads = 0, bad = 0;
	struct cpumask here;
	struct trace_ring r;
	struct task_struct *t;
	u64 lost;

	if (!have_cpus(test, 2))
		return;
	small_ring(&r);
	w.r = &r;
	init_completion(&w.done);
	cpumask_clear(&here);
	cpumask_set_cpu(raw_smp_processor_id(), &here);
	set_cpus_allowed(current, &here);
	me = smp_processor_id();
	other = cpumask_first(cpu_online_mask) == me
			? cpumask_next(me, cpu_online_mask)
			: cpumask_first(cpu_online_mask);
	t = kthread_create(ring_writer_fn, &w, "ringwr/%u", other);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, other);
	wake_up_process(t);
	while (!w.started)
		cpu_relax();
	while (!completion_done(&w.done)) {
		n = trace_ring_read(&r, out, SMALL, &lost);
		WRITE_ONCE(w.reads, ++reads);
		/* n + lost: every entry written before the read. */
		bad += !run_ok(out, n) || (n && n + lost != out[n - 1].ts);
	}
	wait_for_completion(&w.done);
	set_cpus_allowed(current, cpu_possible_mask);
	kunit_info(test, "%u reads while the writer wrote", reads);
	KUNIT_EXPECT_GT(test, reads, 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	n = trace_ring_read(&r, out, SMALL, &lost);
	KUNIT_EXPECT_EQ(test, n, SMALL - 1);
	KUNIT_EXPECT_EQ(test, lost, w.written - (SMALL - 1));
	KUNIT_EXPECT_EQ(test, out[SMALL - 2].ts, w.written);
}

/* Every CPU's rings, read after the live cases paused tracing. */
struct snapshot {
	/* Each nr_cpu_ids entries, kmalloc'ed by snapshot_take(). */
	struct trace_entry **e;
	unsigned int *n;
	u64 *lost;
	unsigned int order;
};

static bool snapshot_take(struct snapshot *s)
{
	unsigned int entries = trace_entries();

	s->order = get_order((u64)entries * sizeof(struct trace_entry));
	s->e = kcalloc(nr_cpu_ids, sizeof(*s->e));
	s->n = kcalloc(nr_cpu_ids, sizeof(*s->n));
	s->lost = kcalloc(nr_cpu_ids, sizeof(*s->lost));
	if (!s->e || !s->n || !s->lost)
		return false;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		s->e[cpu] = __get_free_pages(s->order);
		if (!s->e[cpu])
			return false;
		s->n[cpu] =
			trace_read_cpu(cpu, s->e[cpu], entries, &s->lost[cpu]);
	}
	return true;
}

static void snapshot_free(struct snapshot *s)
{
	for (unsigned int cpu = 0; s->e && cpu < nr_cpu_ids; cpu++)
		if (s->e[cpu])
			free_pages(s->e[cpu], s->order);
	kfree(s->e);
	kfree(s->n);
	kfree(s->lost);
}

/*
 * The first entry at or after ts of the type, about cpu (TRACE_NO_CPU:
 * any), with arg (~0U: any), on ring `on` (NR_CPUS: any); NULL if none.
 */
static const struct trace_entry *find(const struct snapshot *s, u64 ts,
				      u16 type, unsigned int cpu, u32 arg,
				      unsigned int on)
{
	const struct trace_entry *best = NULL;

	for (unsigned int c = 0; c < nr_cpu_ids; c++) {
		if (on != NR_CPUS && c != on)
			continue;
		for (unsigned int i = 0; i < s->n[c]; i++) {
			const struct trace_entry *e = &s->e[c][i];

			if (e->ts < ts || e->type != type ||
			    (cpu != TRACE_NO_CPU && e->cpu != cpu) ||
			    (arg != ~0U && e->arg != arg))
				continue;
			if (!best || e->ts < best->ts)
				best = e;
			break;
		}
	}
	return best;
}

/* The step of that name's index: its begin entry's arg. */
static int step_index(const char *name)
{
	for (unsigned int i = 0; i < 32; i++)
		if (!strcmp(cpuhp_step_name(i), name))
			return (int)i;
	return -1;
}

/* The PSCI entry about cpu's MPIDR, of fn, at or after ts, on ring on. */
static const struct trace_entry *find_psci(const struct snapshot *s, u64 ts,
					   u16 type, u32 fn, unsigned int cpu,
					   unsigned int on, int ret)
{
	const struct trace_entry *e;

	for (e = find(s, ts, type, TRACE_NO_CPU, fn, on); e;
	     e = find(s, e->ts + 1, type, TRACE_NO_CPU, fn, on))
		if (e->x == cpu_logical_map(cpu) &&
		    (type == TRACE_PSCI_CALL || (int)e->y == ret))
			return e;
	return NULL;
}

/* Are the timestamps of every CPU's ring in order? */
static void expect_time_order(struct kunit *test, const struct snapshot *s)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		unsigned int back = 0;

		for (unsigned int i = 1; i < s->n[cpu]; i++)
			back += s->e[cpu][i].ts < s->e[cpu][i - 1].ts;
		if (!KUNIT_EXPECT_EQ(test, back, 0))
			kunit_info(test,
				   "CPU%u: %u entries earlier than the "
				   "one before",
				   cpu, back);
	}
}

/* The steps a surviving CPU runs for a down, in their order. */
static const char *const down_steps[] = {
	"cpu:online",  "kthreads:park", "sched:active", "rcu:sync",
	"sched:drain", "cpu:teardown",	"cpu:bringup",	"rcu:callbacks",
	"timers:dead", "sched:idle",	"percpu:area",
};

/*
 * A down and an up of the last CPU with a busy reader on it, traced:
 * does each CPU's ring run forward in time, and do the events come in
 * the order the design says (steps, CPU_OFF before the waiter's
 * AFFINITY_INFO OFF, a grace period ending inside rcu:sync, the CPU's
 * own starting steps after CPU_ON)?
 */
static void trace_cpu_down_up_in_order(struct kunit *test)
{
	struct busy_reader b = {.section_us = 200, .max_sections = 100000};
	unsigned int cpu = nr_cpu_ids - 1, saved = READ_ONCE(trace_mask);
	const struct trace_entry *op, *end, *sync, *sync_end, *off, *aff, *e;
	struct snapshot s = {0};
	int err;

	if (!have_down_cpus(test, 2))
		return;
	KUNIT_ASSERT_EQ(test, trace_set(TRACE_ALL), 0);
	trace_clear();
	if (!KUNIT_EXPECT_TRUE(test, busy_reader_start(&b, cpu)))
		goto out;
	err = cpu_down(cpu);
	if (!err)
		err = cpu_up(cpu);
	trace_set(0);
	b.stop = true;
	wait_for_completion(&b.done);
	if (!KUNIT_EXPECT_EQ(test, err, 0) ||
	    !KUNIT_EXPECT_TRUE(test, snapshot_take(&s)))
		goto out;
	expect_time_order(test, &s);
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		KUNIT_EXPECT_EQ(test, s.lost[c], 0);

	op = find(&s, 0, TRACE_CPUHP_OP_BEGIN, cpu, 0, NR_CPUS);
	end = op ? find(&s, op->ts, TRACE_CPUHP_OP_END, cpu, 0, NR_CPUS) : NULL;
	if (!KUNIT_EXPECT_NOT_NULL(test, end) ||
	    !KUNIT_EXPECT_EQ(test, (s64)end->x, 0))
		goto out;
	/* The controller's steps, from the top of the table down. */
	e = op;
	for (unsigned int i = 0; i < ARRAY_SIZE(down_steps); i++) {
		e = find(&s, e->ts, TRACE_CPUHP_STEP_BEGIN, cpu,
			 step_index(down_steps[i]), NR_CPUS);
		if (!KUNIT_EXPECT_TRUE(test, e && e->ts <= end->ts)) {
			kunit_info(test, "no step %s in order", down_steps[i]);
			goto out;
		}
	}
	/* The CPU's own dying steps, on its own ring. */
	KUNIT_EXPECT_NOT_NULL(test, find(&s, op->ts, TRACE_CPUHP_STEP_BEGIN,
					 cpu, step_index("rcu:starting"), cpu));
	/* The grace period that rcu:sync waits for ends inside it. */
	sync = find(&s, op->ts, TRACE_CPUHP_STEP_BEGIN, cpu,
		    step_index("rcu:sync"), NR_CPUS);
	sync_end = find(&s, sync->ts, TRACE_CPUHP_STEP_END, cpu,
			step_index("rcu:sync"), NR_CPUS);
	if (!KUNIT_EXPECT_NOT_NULL(test, sync_end))
		goto out;
	e = find(&s, sync->ts, TRACE_RCU_EXP_END, TRACE_NO_CPU, ~0U, NR_CPUS);
	if (!e || e->ts > sync_end->ts)
		e = find(&s, sync->ts, TRACE_RCU_GP_END, TRACE_NO_CPU, ~0U,
			 NR_CPUS);
	KUNIT_EXPECT_TRUE(test, e && e->ts <= sync_end->ts);
	if (!psci_checkable())
		goto out;
	/* CPU_OFF on the CPU itself, then AFFINITY_INFO OFF elsewhere. */
	off = find_psci(&s, op->ts, TRACE_PSCI_CALL, TRACE_PSCI_CPU_OFF, cpu,
			cpu, 0);
	aff = find_psci(&s, op->ts, TRACE_PSCI_RET, TRACE_PSCI_AFFINITY_INFO,
			cpu, NR_CPUS, PSCI_AFFINITY_OFF);
	if (!KUNIT_EXPECT_NOT_NULL(test, off) ||
	    !KUNIT_EXPECT_NOT_NULL(test, aff))
		goto out;
	KUNIT_EXPECT_LT(test, off->ts, aff->ts);
	KUNIT_EXPECT_TRUE(test, aff < s.e[cpu] || aff >= s.e[cpu] + s.n[cpu]);
	/*
	 * Up: CPU_ON answered SUCCESS, and the CPU ran its own starting steps
	 * after the call (maybe before the answer was stamped: it runs as
	 * soon as the firmware starts it).
	 */
	e = find_psci(&s, end->ts, TRACE_PSCI_CALL, TRACE_PSCI_CPU_ON, cpu,
		      NR_CPUS, 0);
	KUNIT_EXPECT_NOT_NULL(test,
			      find_psci(&s, end->ts, TRACE_PSCI_RET,
					TRACE_PSCI_CPU_ON, cpu, NR_CPUS, 0));
	if (KUNIT_EXPECT_NOT_NULL(test, e))
		KUNIT_EXPECT_NOT_NULL(
			test, find(&s, e->ts, TRACE_CPUHP_STEP_BEGIN, cpu,
				   step_index("rcu:starting"), cpu));
out:
	snapshot_free(&s);
	trace_set(saved);
	cpu_up_all();
}

/* Turned off, does a trace point record nothing at all? */
static void trace_off_records_nothing(struct kunit *test)
{
	unsigned int saved = READ_ONCE(trace_mask), cpu, n;
	static struct trace_entry out[4];
	u64 lost;

	KUNIT_ASSERT_EQ(test, trace_set(TRACE_ALL), 0);
	trace_set(0);
	trace_clear();
	preempt_disable();
	cpu = smp_processor_id();
	for (int i = 0; i < 100; i++)
		trace_rcu_qs(cpu, i);
	preempt_enable();
	n = trace_read_cpu(cpu, out, ARRAY_SIZE(out), &lost);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, lost, 0);
	/* And on again, it does. */
	trace_set(TRACE_RCU);
	preempt_disable();
	trace_rcu_qs(cpu, 7);
	n = trace_read_cpu(cpu, out, ARRAY_SIZE(out), &lost);
	preempt_enable();
	trace_set(saved);
	KUNIT_EXPECT_GE(test, n, 1);
	/* A tick's own report may come first; ours is the newest. */
	KUNIT_EXPECT_EQ(test, out[n ? n - 1 : 0].type, TRACE_RCU_QS);
	KUNIT_EXPECT_EQ(test, out[n ? n - 1 : 0].x, 7);
}

static const struct kunit_case trace_cases[] = {
	KUNIT_CASE(trace_ring_wraps_and_counts_lost),
	KUNIT_CASE(trace_ring_read_races_writer),
	KUNIT_CASE(trace_off_records_nothing),
	KUNIT_CASE(trace_cpu_down_up_in_order),
	{},
};

static const struct kunit_suite trace_suite = {"trace", trace_cases};
kunit_test_suite(trace_suite);
