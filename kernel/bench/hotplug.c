/*
 * The hotplug benchmark (bench=hotplug): the four reader designs of the
 * 2013 thread (include/kernel/hotplug_sync.h) measured side by side in
 * one boot, switching designs between phases. Per design:
 *
 *   reader cost    a walk of the online mask that reads each online
 *                  CPU's per-CPU counter, under the design's read lock,
 *                  as a ratio to the same walk with no protection
 *                  (interleaved on one CPU, so both see the same noise)
 *   throughput     walks per second by one reader per CPU, idle and
 *                  while a writer cycles the last CPU down and up
 *   cycle latency  down + up of the last CPU, min / median / p95 / max,
 *                  on an otherwise idle machine (and median under the
 *                  readers); median and p95 also as a multiple of the
 *                  firmware's floor (below);
 *                  the down's and the up's medians split into the
 *                  firmware's share (PSCI CPU_OFF to AFFINITY_INFO's OFF,
 *                  CPU_ON to the CPU's first instruction) and the kernel's
 *   bystanders     the longest time a thread spinning on a CPU that is
 *                  neither hot-plugged nor the writer's went without
 *                  running (a gap between two clock reads), during the
 *                  cycles and, as a baseline, without them; and the
 *                  longest a CPU spent stopped in stop_machine()
 *
 * Then the figures that do not depend on the design: boot time to all
 * CPUs online, synchronize_rcu() normal and expedited, one PSCI
 * AFFINITY_INFO call (the resolution of the firmware's share of a
 * down), the firmware's floor (the same CPU cycled by PSCI alone, with an
 * entry point that only calls CPU_OFF: drivers/firmware/psci_floor.c),
 * the kernel image size and the memory one online CPU costs.
 * Figures, never pass/fail: tools/bench.py turns the lines into
 * build/bench.json and a table.
 *
 * bench.cycles=N (default 40) and bench.ms=N (default 400) size it.
 */
#define pr_fmt(fmt) "bench: " fmt
#include <asm/sections.h>
#include <kernel/bench.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/hotplug_sync.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/printf.h>
#include <lib/stats.h>

#define MAX_CYCLES 256

static unsigned long bench_cycles = 40, bench_ms = 400;
param_ulong("bench.cycles", bench_cycles, 1, MAX_CYCLES,
	    "N: down+up cycles per design of bench=hotplug (default 40)");
param_ulong("bench.ms", bench_ms, 1, 600000,
	    "MS: each reader phase of bench=hotplug (default 400)");
#define RATIO_WALKS 2000
#define RATIO_ROUNDS 41

static DEFINE_PER_CPU(u64, bench_counter);

static struct {
	unsigned long cycles, phase_ms;
	unsigned int target; /* the CPU cycled down and up */
	unsigned int writer_cpu; /* where the bench thread runs */
	unsigned int one_reader_cpu; /* ONE_READER's, if any (nr_cpu_ids) */
	enum hotplug_sync design; /* the one being measured */
	bool stop; /* the phase's threads leave */
	struct completion left;
	u64 sink;
	u64 floor_ns; /* the firmware's median cycle, 0 if none */
} hb;

/* The walk every design protects: one per-CPU counter per online CPU. */
static noinline u64 walk_online(void)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_online_cpu (cpu)
		sum += READ_ONCE(*per_cpu_ptr(&bench_counter, cpu));
	return sum;
}

/*
 * One protected walk, as each design's reader is written: per-bit RCU and
 * stop_machine readers inline (that is their point), the lock-based ones
 * through cpus_read_lock(), an out-of-line call as get_online_cpus() and
 * Linux's cpus_read_lock() are.
 */
static inline u64 locked_walk(enum hotplug_sync d)
{
	u64 sum;
	int cookie;

	switch (d) {
	case HOTPLUG_SYNC_RCU:
		rcu_read_lock();
		sum = walk_online();
		rcu_read_unlock();
		return sum;
	case HOTPLUG_SYNC_STOP_MACHINE:
		preempt_disable();
		sum = walk_online();
		preempt_enable();
		return sum;
	default:
		cookie = cpus_read_lock();
		sum = walk_online();
		cpus_read_unlock(cookie);
		return sum;
	}
}

static u64 time_walks(int design)
{
	u64 t0 = ktime_get_ns(), sum = 0;

	switch (design) {
	case HOTPLUG_SYNC_RCU:
		for (int i = 0; i < RATIO_WALKS; i++)
			sum += locked_walk(HOTPLUG_SYNC_RCU);
		break;
	case HOTPLUG_SYNC_STOP_MACHINE:
		for (int i = 0; i < RATIO_WALKS; i++)
			sum += locked_walk(HOTPLUG_SYNC_STOP_MACHINE);
		break;
	case HOTPLUG_SYNC_RWLOCK:
	case HOTPLUG_SYNC_PERCPU_RWSEM:
		for (int i = 0; i < RATIO_WALKS; i++)
			sum += locked_walk(design);
		break;
	default: /* no protection at all */
		for (int i = 0; i < RATIO_WALKS; i++)
			sum += walk_online();
	}
	hb.sink += sum;
	return ktime_get_ns() - t0;
}

/*
 * Locked over unprotected, x1000: the fastest of many interleaved rounds
 * of each, since a host that deschedules a vCPU only ever adds time.
 */
static u64 reader_ratio_milli(enum hotplug_sync d)
{
	u64 bare = ~0ULL, locked = ~0ULL;

	for (int round = 0; round < RATIO_ROUNDS; round++) {
		bare = min(bare, time_walks(-1));
		locked = min(locked, time_walks(d));
	}
	return bare ? locked * 1000 / bare : 0;
}

/* Threads of a phase, one per CPU that is neither target nor writer's. */
struct worker {
	struct task_struct *task;
	u64 walks; /* readers */
	u64 max_gap_ns; /* spinners */
};
static DEFINE_CPU_ARRAY(struct worker, workers);

static int reader_fn(void *arg)
{
	struct worker *w = arg;

	while (!READ_ONCE(hb.stop)) {
		hb.sink += locked_walk(hb.design);
		this_cpu_write(bench_counter, this_cpu_read(bench_counter) + 1);
		w->walks++;
	}
	complete(&hb.left);
	return 0;
}

static int spinner_fn(void *arg)
{
	struct worker *w = arg;
	u64 last = ktime_get_ns();

	while (!READ_ONCE(hb.stop)) {
		u64 now = ktime_get_ns();

		if (now - last > w->max_gap_ns)
			w->max_gap_ns = now - last;
		last = now;
	}
	complete(&hb.left);
	return 0;
}

/* Where a phase's threads run. */
enum workers {
	READERS, /* every CPU but the target (the writer's too) */
	ONE_READER, /* one CPU, neither the target nor the writer's */
	SPINNERS, /* every CPU but the target and the writer's */
};

static bool worker_cpu(unsigned int cpu, enum workers where)
{
	if (cpu == hb.target)
		return false;
	if (where == READERS)
		return true;
	if (cpu == hb.writer_cpu)
		return false;
	return where == SPINNERS || cpu == hb.one_reader_cpu;
}

/* Start fn on each CPU of the phase. */
static int start_workers(int (*fn)(void *), enum workers where)
{
	unsigned int cpu;
	int n = 0;

	WRITE_ONCE(hb.stop, false);
	init_completion(&hb.left);
	for_each_online_cpu (cpu) {
		struct worker *w = &workers[cpu];

		w->task = NULL;
		if (!worker_cpu(cpu, where))
			continue;
		w->walks = w->max_gap_ns = 0;
		w->task = kthread_create(fn, w, "bench/%u", cpu);
		if (!w->task)
			break;
		kthread_bind(w->task, cpu);
		wake_up_process(w->task);
		n++;
	}
	return n;
}

static void stop_workers(int n)
{
	WRITE_ONCE(hb.stop, true);
	for (int i = 0; i < n; i++)
		wait_for_completion(&hb.left);
}

/*
 * Each cycle's down and up split into the firmware's share and the
 * kernel's (struct cpuhp_op), in us; n cycles had a firmware figure.
 */
struct shares {
	u64 down[MAX_CYCLES], up[MAX_CYCLES];
	u64 fw_off[MAX_CYCLES], fw_on[MAX_CYCLES];
	u64 kernel_down[MAX_CYCLES], kernel_up[MAX_CYCLES];
	int n;
};

static void add_shares(struct shares *sh)
{
	struct cpuhp_op down, up;

	hotplug_last_ops(&down, &up);
	if (!down.fw_ns || !up.fw_ns)
		return; /* no firmware call to time: spin table, the pen */
	sh->down[sh->n] = down.ns / 1000;
	sh->up[sh->n] = up.ns / 1000;
	sh->fw_off[sh->n] = down.fw_ns / 1000;
	sh->fw_on[sh->n] = up.fw_ns / 1000;
	sh->kernel_down[sh->n] = (down.ns - down.fw_ns) / 1000;
	sh->kernel_up[sh->n] = (up.ns - up.fw_ns) / 1000;
	sh->n++;
}

/*
 * The console at warnings and worse while cycles run: each down and up
 * prints a line ("CPU3 is down", "CPU3: online"), and a line written to
 * the UART costs more than the rest of the cycle (printk_line_us). The
 * lines still go to the log buffer. Returns the level to restore.
 */
static int console_quiet(void)
{
	int was = console_loglevel;

	console_loglevel = min(was, 5); /* KERN_WARNING (4) and worse */
	return was;
}

/*
 * Cycle the target down and up for ms (or cycles times); sorted us. With
 * sh, each cycle's shares too.
 */
static int cycle_target(u64 *us, unsigned long max, unsigned long ms,
			struct shares *sh)
{
	u64 end = ktime_get_ns() + ms * 1000000ULL;
	unsigned long n = 0;

	int was = console_quiet();

	if (sh)
		sh->n = 0;
	while (n < max && (!ms || ktime_get_ns() < end)) {
		u64 t0 = ktime_get_ns();

		if (cpu_down(hb.target) || cpu_up(hb.target))
			break;
		us[n++] = (ktime_get_ns() - t0) / 1000;
		if (sh)
			add_shares(sh);
	}
	console_loglevel = was;
	sort_u64(us, n);
	return n;
}

static u64 total_walks(void)
{
	u64 sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (workers[cpu].task)
			sum += workers[cpu].walks;
	return sum;
}

static u64 max_gap_us(void)
{
	u64 max = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (workers[cpu].task && workers[cpu].max_gap_ns > max)
			max = workers[cpu].max_gap_ns;
	return max / 1000;
}

#define REPORT(d, key, fmt, ...)                                      \
	bench_report("hotplug", key, "%s " fmt, hotplug_sync_name(d), \
		     ##__VA_ARGS__)

/* Where a cycle's time went: each step's median, down and up. */
static void report_steps(enum hotplug_sync d)
{
	static struct cpuhp_stats st;
	char key[48];

	hotplug_get_stats(&st);
	for (int i = 0; i < st.nr_steps; i++) {
		if (st.step_down_ns[i] < 1000 && st.step_up_ns[i] < 1000)
			continue;
		snprintf(key, sizeof(key), "step_us.%s", st.step_name[i]);
		REPORT(d, key, "%lu/%lu", st.step_down_ns[i] / 1000,
		       st.step_up_ns[i] / 1000);
	}
}

/* Sorts v: v[0] is then the minimum. */
static u64 median(u64 *v, int n)
{
	sort_u64(v, n);
	return v[n / 2];
}

/*
 * The medians of the cycles' shares (each a median of its own, not a
 * difference of medians); and the firmware's fastest, its own work when
 * its vCPU had a host core at once.
 */
static void report_shares(enum hotplug_sync d, struct shares *sh)
{
	if (!sh->n)
		return;
	REPORT(d, "down_us_median", "%lu", median(sh->down, sh->n));
	REPORT(d, "up_us_median", "%lu", median(sh->up, sh->n));
	REPORT(d, "fw_off_us_median", "%lu", median(sh->fw_off, sh->n));
	REPORT(d, "fw_off_us_min", "%lu", sh->fw_off[0]);
	REPORT(d, "fw_on_us_median", "%lu", median(sh->fw_on, sh->n));
	REPORT(d, "fw_on_us_min", "%lu", sh->fw_on[0]);
	REPORT(d, "kernel_down_us_median", "%lu",
	       median(sh->kernel_down, sh->n));
	REPORT(d, "kernel_up_us_median", "%lu", median(sh->kernel_up, sh->n));
}

/* A cycle's time as a multiple of the firmware's floor, 2 decimals. */
static void report_floor_ratio(enum hotplug_sync d, const char *key, u64 us)
{
	u64 r;

	if (!hb.floor_ns)
		return;
	r = (us * 100000 + hb.floor_ns / 2) / hb.floor_ns;
	REPORT(d, key, "%lu.%02lu", r / 100, r % 100);
}

static void bench_design(enum hotplug_sync d)
{
	static u64 us[MAX_CYCLES];
	static struct shares sh;
	u64 ratio, walks, t0;
	int n, readers;

	cpu_hotplug_set_sync(d);
	hb.design = d;

	ratio = reader_ratio_milli(d);
	REPORT(d, "reader_ratio", "%lu.%03lu", ratio / 1000, ratio % 1000);

	n = cycle_target(us, hb.cycles, 0, &sh);
	if (n) {
		REPORT(d, "cycle_us_min", "%lu", us[0]);
		REPORT(d, "cycle_us_median", "%lu", us[n / 2]);
		REPORT(d, "cycle_us_max", "%lu", us[n - 1]);
		REPORT(d, "cycle_us_p95", "%lu", us[n * 95 / 100]);
		report_floor_ratio(d, "cycle_floor_ratio", us[n / 2]);
		report_floor_ratio(d, "cycle_p95_floor_ratio",
				   us[n * 95 / 100]);
		report_steps(d);
		report_shares(d, &sh);
	}

	readers = start_workers(reader_fn, READERS);
	t0 = ktime_get_ns();
	msleep(hb.phase_ms);
	stop_workers(readers);
	walks = total_walks() * 1000000000ULL / (ktime_get_ns() - t0);
	REPORT(d, "reader_walks_per_s_idle", "%lu", walks);

	readers = start_workers(reader_fn, READERS);
	t0 = ktime_get_ns();
	n = cycle_target(us, MAX_CYCLES, hb.phase_ms, NULL);
	stop_workers(readers);
	walks = total_walks() * 1000000000ULL / (ktime_get_ns() - t0);
	REPORT(d, "reader_walks_per_s_hotplug", "%lu", walks);
	if (n)
		REPORT(d, "cycle_us_median_loaded", "%lu", us[n / 2]);

	/*
	 * The same with one reader: fewer busy vCPUs than the host has
	 * cores (2 here) when the target and the writer run too. Beside
	 * the figure above, it tells the host's time-slicing of vCPUs from
	 * what the readers cost the writer in the kernel.
	 */
	if (hb.one_reader_cpu < nr_cpu_ids) {
		readers = start_workers(reader_fn, ONE_READER);
		n = cycle_target(us, MAX_CYCLES, hb.phase_ms / 2, NULL);
		stop_workers(readers);
		if (n)
			REPORT(d, "cycle_us_median_one_reader", "%lu",
			       us[n / 2]);
	}

	readers = start_workers(spinner_fn, SPINNERS);
	msleep(hb.phase_ms / 2);
	stop_workers(readers);
	REPORT(d, "bystander_us_baseline", "%lu", max_gap_us());

	stop_machine_max_stop_ns(true);
	readers = start_workers(spinner_fn, SPINNERS);
	cycle_target(us, hb.cycles, hb.phase_ms / 2, NULL);
	stop_workers(readers);
	REPORT(d, "bystander_us_max", "%lu", max_gap_us());
	REPORT(d, "stop_us_max", "%lu", stop_machine_max_stop_ns(false) / 1000);
}

/*
 * How long one AFFINITY_INFO call takes (about the target, online): while
 * the kill path polls back to back, how late it may see the firmware's
 * OFF, so the resolution of the firmware's share of a down.
 */
static void report_affinity_info(void)
{
	u64 mpidr = cpu_logical_map(hb.target), lat[11];

	if (psci_version() < PSCI_VERSION(0, 2))
		return; /* none (PSCI 0.1, or no PSCI: spin table) */
	for (int i = 0; i < 11; i++) {
		u64 t0 = ktime_get_ns();

		psci_affinity_info(mpidr);
		lat[i] = ktime_get_ns() - t0;
	}
	bench_report("hotplug", "affinity_info_ns_median", "%lu",
		     median(lat, 11));
}

/*
 * The floor: the same CPU cycled by the firmware alone (psci_floor.c),
 * hb.cycles times with the kernel's hotplug held off, the CPU offline in
 * the kernel's eyes throughout. Medians of CPU_ON to the first
 * instruction, CPU_OFF to OFF, and the whole cycle; and the fastest.
 */
static void report_floor(void)
{
	static u64 on[MAX_CYCLES], off[MAX_CYCLES], cyc[MAX_CYCLES];
	u64 mpidr = cpu_logical_map(hb.target);
	struct psci_floor f;
	int n = 0, err = 0, early_off = 0;

	if (psci_version() < PSCI_VERSION(0, 2) || psci_offline_parks())
		return; /* no firmware cycle to measure: spin table, the pen */
	if (cpu_down(hb.target))
		return;
	cpu_maps_update_begin();
	while (n < (int)hb.cycles && !err) {
		err = psci_floor_cycle(mpidr, &f);
		if (!err) {
			early_off += f.early_off;
			on[n] = f.on_ns / 1000;
			off[n] = f.off_ns / 1000;
			cyc[n++] = f.cycle_ns;
		}
	}
	cpu_maps_update_done();
	if (cpu_up(hb.target))
		pr_err("hotplug: CPU%u did not come back after the floor\n",
		       hb.target);
	if (!n)
		return;
	hb.floor_ns = median(cyc, n);
	bench_report("hotplug", "floor_cycle_us_median", "%lu",
		     hb.floor_ns / 1000);
	bench_report("hotplug", "floor_cycle_us_min", "%lu", cyc[0] / 1000);
	bench_report("hotplug", "floor_on_us_median", "%lu", median(on, n));
	bench_report("hotplug", "floor_off_us_median", "%lu", median(off, n));
	bench_report("hotplug", "floor_early_off", "%d of %d", early_off, n);
}

/*
 * What one console line costs, of the length a down or an up prints: the
 * reason the cycles run with the console quiet (console_quiet()).
 */
static void report_printk_line(void)
{
	u64 lat[11];

	for (int i = 0; i < 11; i++) {
		u64 t0 = ktime_get_ns();

		pr_info("hotplug: console line %d of 11, for its cost\n",
			i + 1);
		lat[i] = ktime_get_ns() - t0;
	}
	bench_report("hotplug", "printk_line_us_median", "%lu",
		     median(lat, 11) / 1000);
}

static void bench_common(void)
{
	struct mem_stats before, after;
	u64 lat[11];
	long pages;

	bench_report("hotplug", "boot_us_all_online", "%lu",
		     smp_boot_done_ns / 1000);
	for (int i = 0; i < 11; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		lat[i] = ktime_get_ns() - t0;
	}
	sort_u64(lat, 11);
	bench_report("hotplug", "sync_rcu_us_median", "%lu", lat[5] / 1000);
	for (int i = 0; i < 11; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu_expedited();
		lat[i] = ktime_get_ns() - t0;
	}
	sort_u64(lat, 11);
	bench_report("hotplug", "sync_rcu_expedited_us_median", "%lu",
		     lat[5] / 1000);
	report_affinity_info();
	report_printk_line();
	report_floor();
	bench_report("hotplug", "image_bytes", "%lu",
		     (unsigned long)(_end - _head));

	/* What one CPU costs: the memory its down gives back. */
	rcu_barrier();
	kmalloc_drain_caches(); /* cached objects would hide freed pages */
	mem_get_stats(&before);
	if (!cpu_down(hb.target)) {
		rcu_barrier();
		kmalloc_drain_caches();
		mem_get_stats(&after);
		cpu_up(hb.target);
		/*
		 * Pages outside kmalloc's slabs, plus the bytes callers hold
		 * from kmalloc: a slab page emptied by the down and given
		 * back is not counted on top of the object that was in it.
		 * Signed: a page taken meanwhile can make the balance
		 * negative, which is a figure, not a wrap.
		 */
		pages = (long)after.free_pages - (long)before.free_pages +
			(long)after.slab_pages - (long)before.slab_pages;
		bench_report("hotplug", "mem_per_cpu_bytes", "%ld",
			     pages * (long)PAGE_SIZE -
				     ((long)after.kmalloc_bytes -
				      (long)before.kmalloc_bytes));
	}
}

static int bench_thread(void *arg)
{
	enum hotplug_sync was = hotplug_sync_current();

	printk(KERN_INFO "bench: hotplug: %u CPUs online, cycling CPU%u, "
			 "%lu cycles, %lu ms phases\n",
	       num_online_cpus(), hb.target, hb.cycles, hb.phase_ms);
	bench_common();
	for (int d = 0; d < HOTPLUG_SYNC_NR; d++)
		bench_design(d);
	cpu_hotplug_set_sync(was);
	complete(arg);
	return 0;
}

static void hotplug_bench(void)
{
	struct completion done;
	struct task_struct *t;
	unsigned int cpu;

	hb.cycles = bench_cycles;
	hb.phase_ms = bench_ms;
	hb.writer_cpu = cpu_online_next(-1);
	hb.target = hb.one_reader_cpu = nr_cpu_ids;
	for_each_online_cpu (cpu)
		hb.target = cpu;
	for_each_online_cpu (cpu)
		if (cpu != hb.target && cpu != hb.writer_cpu) {
			hb.one_reader_cpu = cpu;
			break;
		}
	if (num_online_cpus() < 2 || hb.target == hb.writer_cpu) {
		pr_err("hotplug: needs two online CPUs\n");
		return;
	}
	init_completion(&done);
	t = kthread_create(bench_thread, &done, "bench");
	if (!t) {
		pr_err("hotplug: no memory for the bench thread\n");
		return;
	}
	kthread_bind(t, hb.writer_cpu);
	wake_up_process(t);
	wait_for_completion(&done);
}
BENCH(hotplug, "the four hotplug reader designs side by side", hotplug_bench);
