/*
 * The scale benchmark (bench=scale): what a walk of every online CPU costs
 * the CPU it runs on as the CPU count grows, the objection of the 2013
 * thread ("walking every CPU with preemption disabled gets to be less and
 * less sane"), and the figures that grow with the CPU count. In one boot:
 *
 *   spans     the longest time preemption stays off in four readers that
 *             each read every online CPU's per-CPU data (a cache line):
 *               one_section   rcu_read_lock() around the whole walk
 *               per_cpu       online_cpus_walk(): one section per CPU
 *               percpu_rwsem  cpus_read_lock() under that design
 *               rwlock        cpus_read_lock() under that design
 *             (the last two walk preemptible: their spans are the lock
 *             and unlock calls, timed whole, an upper bound); p50, p99,
 *             p99.9, max and the number of spans (every span of the
 *             phase, in a histogram); the same of the whole walk
 *   wake-up   while each reader walks on one CPU, a thread bound there is
 *             woken from another CPU, which also asks the walking CPU to
 *             reschedule (as waking a higher-priority thread would):
 *             wake-to-run latency p50, p99, max, and how many wakes
 *   hotplug   down + up of the last CPU (the highest Aff1 on a big
 *             machine): median and max, the down's and the up's medians,
 *             and the down's slowest step
 *   RCU       synchronize_rcu() and synchronize_rcu_expedited()
 *   boot      power-on to all CPUs online
 *
 * Sample counts shrink as CPUs grow (TCG runs 512 vCPUs on a few host
 * cores); each figure says how many samples it has. Nothing here calls
 * rcu_barrier() or on_each_cpu(), which wait for every CPU at once.
 * Figures, never pass/fail: tools/bench_scale.py collects them.
 *
 * bench.scale_ms=N (default 1000) sizes each reader's phase.
 */
#define pr_fmt(fmt) "bench: " fmt
#include <kernel/bench.h>
#include <kernel/cpu.h>
#include <kernel/hotplug_sync.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/printf.h>
#include <lib/stats.h>
#include <string.h>

static unsigned long scale_ms = 1000;
param_ulong("bench.scale_ms", scale_ms, 10, 600000,
	    "MS: each reader's phase of bench=scale (default 1000)");

#define WAKE_MAX 500
/*
 * Every span goes into a log-linear histogram (millions per phase): below
 * 16 ticks one bucket per tick, above 16 buckets per power of two, so a
 * percentile is within 6% (a tick is 16 ns at QEMU's 62.5 MHz).
 */
#define HIST_SUB_BITS 4
#define HIST_SUB (1U << HIST_SUB_BITS)
#define HIST_BUCKETS (HIST_SUB + 40 * HIST_SUB)
struct hist {
	u64 count[HIST_BUCKETS];
	u64 n, max;
};
#define CYCLES_MAX 40
#define GP_MAX 11

/* Each CPU's data the walks read: one cache line. */
struct scale_data {
	u64 v[8];
} __aligned(64);
static DEFINE_PER_CPU(struct scale_data, scale_data);

enum reader { ONE_SECTION, PER_CPU, PERCPU_RWSEM, RWLOCK, NR_READERS };
static const char *const reader_names[NR_READERS] = {"one_section", "per_cpu",
						     "percpu_rwsem", "rwlock"};

static struct {
	enum reader reader;
	unsigned int walk_cpu, waker_cpu;
	bool stop;
	struct completion walker_left;
	u64 sink;
	/* Spans and whole walks in counter ticks, every one of them. */
	struct hist spans, walks;
	/* online_cpus_walk()'s state between two sections. */
	u64 prev_exit, prev_switches;
	bool first;
	/* The wake-up pair. */
	struct completion go, ran;
	u64 wake_t0;
	u64 wake[WAKE_MAX];
	bool wakee_stop;
} sb;

static u64 ticks_to_ns(u64 ticks)
{
	return cycles_to_ns(ticks, arch_timer_get_freq());
}

static void hist_add(struct hist *h, u64 v)
{
	unsigned int i = v;

	if (v >= HIST_SUB) {
		unsigned int e = 63 - __builtin_clzll(v) - HIST_SUB_BITS;

		i = HIST_SUB + e * HIST_SUB + ((v >> e) & (HIST_SUB - 1));
		if (i >= HIST_BUCKETS)
			i = HIST_BUCKETS - 1;
	}
	h->count[i]++;
	h->n++;
	if (v > h->max)
		h->max = v;
}

/* The lowest value of bucket i: within 1/HIST_SUB of any value in it. */
static u64 hist_low(unsigned int i)
{
	unsigned int e;

	if (i < HIST_SUB)
		return i;
	e = (i - HIST_SUB) / HIST_SUB;
	return (u64)(HIST_SUB + i % HIST_SUB) << e;
}

/* The value below which per_10k in 10000 of the samples lie. */
static u64 hist_pct(const struct hist *h, u64 per_10k)
{
	u64 want = h->n * per_10k / 10000, seen = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen > want)
			return min(hist_low(i), h->max);
	}
	return h->max;
}

static void add_span(u64 ticks)
{
	hist_add(&sb.spans, ticks);
}

static inline u64 read_cpu(unsigned int cpu)
{
	struct scale_data *d = per_cpu_ptr(&scale_data, cpu);
	u64 sum = 0;

	for (int i = 0; i < 8; i++)
		sum += READ_ONCE(d->v[i]);
	return sum;
}

static u64 walk_one_section(void)
{
	unsigned int cpu;
	u64 t0, sum = 0;

	rcu_read_lock();
	t0 = arch_counter_get();
	for_each_online_cpu (cpu)
		sum += read_cpu(cpu);
	add_span(arch_counter_get() - t0);
	rcu_read_unlock();
	return sum;
}

/*
 * One CPU's section of online_cpus_walk(): from the end of the previous
 * section's work (so the unlock, the lock and the search for the next
 * bit count too) to the end of this one's; afresh from entry when the
 * walker was switched out in between, which only a preemption point
 * between sections allows.
 */
static bool walk_one_cpu(unsigned int cpu, void *arg)
{
	u64 start = arch_counter_get(), *sum = arg;

	if (!sb.first && current->nr_switches == sb.prev_switches)
		start = sb.prev_exit;
	*sum += read_cpu(cpu);
	sb.prev_exit = arch_counter_get();
	sb.prev_switches = current->nr_switches;
	sb.first = false;
	add_span(sb.prev_exit - start);
	return true;
}

static u64 walk_per_cpu(void)
{
	u64 sum = 0;

	sb.first = true;
	online_cpus_walk(walk_one_cpu, &sum);
	return sum;
}

/* The lock-based readers walk preemptible; only the calls hold it off. */
static u64 walk_locked(void)
{
	unsigned int cpu;
	u64 t0, sum = 0;
	int cookie;

	t0 = arch_counter_get();
	cookie = cpus_read_lock();
	add_span(arch_counter_get() - t0);
	for_each_online_cpu (cpu)
		sum += read_cpu(cpu);
	t0 = arch_counter_get();
	cpus_read_unlock(cookie);
	add_span(arch_counter_get() - t0);
	return sum;
}

static int walker_fn(void *arg)
{
	do { /* at least one walk, however late the walker first runs */
		u64 t0 = arch_counter_get();

		switch (sb.reader) {
		case ONE_SECTION:
			sb.sink += walk_one_section();
			break;
		case PER_CPU:
			sb.sink += walk_per_cpu();
			break;
		default:
			sb.sink += walk_locked();
		}
		hist_add(&sb.walks, arch_counter_get() - t0);
	} while (!READ_ONCE(sb.stop));
	complete(&sb.walker_left);
	return 0;
}

static int wakee_fn(void *arg)
{
	for (;;) {
		wait_for_completion(&sb.go);
		if (READ_ONCE(sb.wakee_stop))
			break;
		*(u64 *)arg = arch_counter_get() - READ_ONCE(sb.wake_t0);
		complete(&sb.ran);
	}
	complete(&sb.ran);
	return 0;
}

static void report(const char *key, u64 ticks)
{
	char k[48];

	snprintf(k, sizeof(k), "%s.%s", reader_names[sb.reader], key);
	bench_report("scale", k, "%lu", ticks_to_ns(ticks));
}

/* p50, p99, p99.9 and max of a histogram, in ns. */
static void report_hist(const char *key, const struct hist *h)
{
	static const struct {
		const char *name;
		u64 x10;
	} pct[] = {{"p50", 5000}, {"p99", 9900}, {"p999", 9990}};
	char k[48];

	if (!h->n)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(pct); i++) {
		snprintf(k, sizeof(k), "%s_%s", key, pct[i].name);
		report(k, hist_pct(h, pct[i].x10));
	}
	snprintf(k, sizeof(k), "%s_max", key);
	report(k, h->max);
}

static void report_n(const char *key, u64 n)
{
	char k[48];

	snprintf(k, sizeof(k), "%s.%s", reader_names[sb.reader], key);
	bench_report("scale", k, "%lu", n);
}

/*
 * One reader: a walker on walk_cpu for the phase, while this thread (on
 * waker_cpu) wakes a thread bound to walk_cpu every 0.2-0.8 ms and asks
 * walk_cpu to reschedule, as waking a higher-priority thread would: a
 * thread woken here starts at its queue's minimum CPU time, which does
 * not preempt a thread alone on its CPU before the tick.
 */
static void bench_reader(enum reader r, unsigned int wakes_max)
{
	static u64 latency;
	struct task_struct *walker, *wakee;
	unsigned int wakes = 0;
	u64 end;

	sb.reader = r;
	sb.stop = false;
	memset(&sb.spans, 0, sizeof(sb.spans));
	memset(&sb.walks, 0, sizeof(sb.walks));
	init_completion(&sb.walker_left);
	init_completion(&sb.go);
	init_completion(&sb.ran);
	sb.wakee_stop = false;
	wakee = kthread_create(wakee_fn, &latency, "scale_wakee");
	walker = kthread_create(walker_fn, NULL, "scale_walker");
	if (!wakee || !walker) {
		pr_err("scale: no memory for the threads\n");
		return; /* (a created one never runs: leaked, not started) */
	}
	kthread_bind(wakee, sb.walk_cpu);
	kthread_bind(walker, sb.walk_cpu);
	wake_up_process(wakee);
	msleep(2); /* the wakee asleep in its completion */
	wake_up_process(walker);

	end = ktime_get_ns() + scale_ms * 1000000ULL;
	while (wakes < wakes_max && ktime_get_ns() < end) {
		udelay(200 + wakes % 7 * 100); /* not in step with the tick */
		WRITE_ONCE(sb.wake_t0, arch_counter_get());
		complete(&sb.go);
		resched_cpu(sb.walk_cpu);
		wait_for_completion(&sb.ran);
		sb.wake[wakes++] = latency;
	}
	WRITE_ONCE(sb.wakee_stop, true);
	complete(&sb.go);
	wait_for_completion(&sb.ran);
	WRITE_ONCE(sb.stop, true);
	wait_for_completion(&sb.walker_left);

	report_hist("preempt_off_ns", &sb.spans);
	report_n("spans", sb.spans.n);
	report_hist("walk_ns", &sb.walks);
	report_n("walks", sb.walks.n);
	sort_u64(sb.wake, wakes);
	if (wakes) {
		report("wake_ns_p50", sb.wake[wakes / 2]);
		report("wake_ns_p99", sb.wake[wakes * 99 / 100]);
		report("wake_ns_max", sb.wake[wakes - 1]);
	}
	report_n("wakes", wakes);
}

/*
 * Down + up of cpu, n times, with the console quiet (a line per step):
 * the cycle, its down and its up; and the down's slowest step (the step
 * medians cover the last 64 downs, all of them these: the boot only ups).
 */
static void bench_cycles(unsigned int cpu, unsigned int max)
{
	static u64 us[CYCLES_MAX], down[CYCLES_MAX], up[CYCLES_MAX];
	static struct cpuhp_stats st;
	int was = console_loglevel, slow = -1;
	unsigned int n = 0;

	console_loglevel = min(was, 5);
	while (n < max) {
		struct cpuhp_op d, u;
		u64 t0 = ktime_get_ns();

		if (cpu_down(cpu) || cpu_up(cpu))
			break;
		us[n] = (ktime_get_ns() - t0) / 1000;
		hotplug_last_ops(&d, &u);
		down[n] = d.ns / 1000;
		up[n++] = u.ns / 1000;
	}
	console_loglevel = was;
	if (!cpu_online(cpu))
		pr_err("scale: CPU%u did not come back\n", cpu);
	bench_report("scale", "cycle_cpu", "%u", cpu);
	bench_report("scale", "cycle_mpidr", "0x%lx", cpu_logical_map(cpu));
	bench_report("scale", "cycles", "%u", n);
	if (!n)
		return;
	sort_u64(us, n);
	sort_u64(down, n);
	sort_u64(up, n);
	bench_report("scale", "cycle_us_median", "%lu", us[n / 2]);
	bench_report("scale", "cycle_us_max", "%lu", us[n - 1]);
	bench_report("scale", "down_us_median", "%lu", down[n / 2]);
	bench_report("scale", "up_us_median", "%lu", up[n / 2]);
	hotplug_get_stats(&st);
	for (int i = 0; i < st.nr_steps; i++)
		if (slow < 0 || st.step_down_ns[i] > st.step_down_ns[slow])
			slow = i;
	if (slow >= 0) {
		bench_report("scale", "down_slowest_step", "%s",
			     st.step_name[slow]);
		bench_report("scale", "down_slowest_step_us", "%lu",
			     st.step_down_ns[slow] / 1000);
	}
}

static void bench_gp(const char *key, void (*sync)(void), unsigned int n)
{
	u64 us[GP_MAX];
	char k[48];

	for (unsigned int i = 0; i < n; i++) {
		u64 t0 = ktime_get_ns();

		sync();
		us[i] = (ktime_get_ns() - t0) / 1000;
	}
	sort_u64(us, n);
	snprintf(k, sizeof(k), "%s_us_median", key);
	bench_report("scale", k, "%lu", us[n / 2]);
	snprintf(k, sizeof(k), "%s_us_max", key);
	bench_report("scale", k, "%lu", us[n - 1]);
	snprintf(k, sizeof(k), "%s_n", key);
	bench_report("scale", k, "%u", n);
}

/* A thread that keeps its CPU busy outside any read-side section. */
struct qs_busy {
	bool stop;
	int running; /* threads not yet finished */
	struct completion done;
};

static int qs_busy_fn(void *arg)
{
	struct qs_busy *b = arg;

	while (!READ_ONCE(b->stop))
		cpu_relax();
	if (!__atomic_sub_fetch(&b->running, 1, __ATOMIC_ACQ_REL))
		complete(&b->done);
	return 0;
}

/*
 * Quiescent-state reports as CPUs grow. Idle CPUs are left out of a grace
 * period, so the figure that matters is with every CPU busy (a thread
 * spinning outside read-side sections on each): then every CPU reports
 * at its tick. The reports per grace period and the time they took in
 * total, against the CPU count, show what reporting costs: one lock for
 * every report (before the combining tree) made reports queue behind
 * lock holders the host had descheduled, far worse than linear.
 *
 * Only up to BUSY_MAX CPUs: with every one of 256 or 512 vCPUs busy on a
 * 2-core host, each vCPU gets less host time per tick period than its
 * tick handler takes, and the machine does little but take ticks.
 */
#define BUSY_MAX 128

static void bench_qs_reports(unsigned int n)
{
	struct rcu_stats *a = kmalloc(sizeof(*a)), *z = kmalloc(sizeof(*z));
	struct qs_busy busy = {.running = 1};
	u64 us[GP_MAX];
	unsigned int cpu;
	long gps;

	init_completion(&busy.done);
	if (num_online_cpus() > BUSY_MAX) {
		pr_info("scale: QS reports with every CPU busy: not past %u "
			"CPUs (the host cannot run them all)\n",
			BUSY_MAX);
		goto out;
	}
	if (!a || !z) {
		pr_err("scale: no memory for the RCU figures\n");
		goto out;
	}
	for_each_online_cpu (cpu) {
		struct task_struct *t =
			kthread_create(qs_busy_fn, &busy, "scale_busy/%u", cpu);

		if (!t) {
			pr_err("scale: no memory for CPU%u's busy thread\n",
			       cpu);
			break;
		}
		kthread_bind(t, cpu);
		__atomic_add_fetch(&busy.running, 1, __ATOMIC_ACQ_REL);
		wake_up_process(t);
	}
	bench_report("scale", "busy_cpus", "%u", busy.running - 1);
	rcu_get_stats(a);
	for (unsigned int i = 0; i < n; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		us[i] = (ktime_get_ns() - t0) / 1000;
	}
	rcu_get_stats(z);
	gps = z->gp_completed - a->gp_completed;
	sort_u64(us, n);
	bench_report("scale", "sync_rcu_busy_us_median", "%lu", us[n / 2]);
	if (gps > 0) {
		bench_report("scale", "gp_qs_reports", "%lu",
			     (z->qs_reports - a->qs_reports) / gps);
		bench_report("scale", "gp_qs_report_ns", "%lu",
			     (z->qs_report_ns - a->qs_report_ns) / gps);
	}
	bench_report("scale", "qs_report_max_ns", "%lu", z->qs_report_max_ns);
out:
	WRITE_ONCE(busy.stop, true);
	if (__atomic_sub_fetch(&busy.running, 1, __ATOMIC_ACQ_REL))
		wait_for_completion(&busy.done);
	kfree(a);
	kfree(z);
}

static int scale_thread(void *arg)
{
	enum hotplug_sync was = hotplug_sync_current();
	unsigned int cpus = num_online_cpus();
	/* Fewer samples as CPUs grow: a walk of 512 under TCG is slow. */
	unsigned int wakes = cpus <= 8 ? 500 : cpus <= 64 ? 300 : 200;
	unsigned int cycles = cpus <= 8 ? 20 : cpus <= 64 ? 7 : 3;
	unsigned int gps = cpus <= 8 ? 11 : cpus <= 64 ? 7 : 5;

	bench_report("scale", "cpus", "%u", cpus);
	bench_report("scale", "possible", "%u", nr_cpu_ids);
	bench_report("scale", "boot_us_all_online", "%lu",
		     smp_boot_done_ns / 1000);
	bench_report("scale", "boot_us_bringup", "%lu",
		     (smp_boot_done_ns - smp_boot_start_ns) / 1000);
	printk(KERN_INFO "bench: scale: walking on CPU%u, waking from CPU%u, "
			 "%lu ms per reader\n",
	       sb.walk_cpu, sb.waker_cpu, scale_ms);
	for (int r = 0; r < NR_READERS; r++) {
		if (r == PERCPU_RWSEM)
			cpu_hotplug_set_sync(HOTPLUG_SYNC_PERCPU_RWSEM);
		else if (r == RWLOCK)
			cpu_hotplug_set_sync(HOTPLUG_SYNC_RWLOCK);
		bench_reader(r, wakes);
	}
	cpu_hotplug_set_sync(was);

	bench_gp("sync_rcu", synchronize_rcu, gps);
	bench_qs_reports(gps);
	bench_gp("sync_rcu_expedited", synchronize_rcu_expedited, gps);
	bench_cycles(sb.walk_cpu, cycles); /* the last CPU: highest Aff1 */
	complete(arg);
	return 0;
}

static void scale_bench(void)
{
	struct completion done;
	struct task_struct *t;
	unsigned int cpu;

	sb.waker_cpu = cpu_online_next(-1);
	sb.walk_cpu = nr_cpu_ids;
	for_each_online_cpu (cpu)
		if (cpu != sb.waker_cpu)
			sb.walk_cpu = cpu;
	if (sb.walk_cpu >= nr_cpu_ids) {
		pr_err("scale: needs two online CPUs\n");
		return;
	}
	init_completion(&done);
	t = kthread_create(scale_thread, &done, "bench");
	if (!t) {
		pr_err("scale: no memory for the bench thread\n");
		return;
	}
	kthread_bind(t, sb.waker_cpu);
	wake_up_process(t);
	wait_for_completion(&done);
}
BENCH(scale, "walks of every CPU, wake-ups, hotplug and RCU as CPUs grow",
      scale_bench);
