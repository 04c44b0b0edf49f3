/*
 * The 2013 power question, measured: each power strategy on the same
 * workloads under the same model (make power). A strategy is a hotplug
 * policy (or none), a scheduler mode (spread or pack) and whether idle
 * CPUs may use the idle states deeper than WFI:
 *
 *   spread             every CPU on, threads spread, WFI only (baseline)
 *   hotplug-rqdepth    Android-style hotplug on run-queue depth, WFI
 *   hotplug-load       hotplug on utilisation, WFI
 *   pack               every CPU on, threads packed (Ingo's answer), WFI
 *   idle               every CPU on, spread, the idle governor's states
 *   pack+idle          both of Ingo's: packing and idle states
 *   hotplug+idle       rqdepth hotplug with idle states
 *   cost-hotplug+idle  the same, its down delay the model's break-even
 *   hotplug+idle-2013, cost-hotplug+idle-2013
 *                      both again with hotplug.sync=stop_machine: each
 *                      operation stops every other CPU, as Linux's
 *                      cpu_down() did in 2013 (the stall is reported)
 *   idle-tegra3, hotplug+idle-tegra3
 *                      idle and hotplug+idle on firmware that powers a
 *                      cluster down only when all its cores are off
 *                      (Tegra 3, Exynos 4): no cluster idle state
 *
 * Each run starts from every CPU online with nothing of the others left
 * set, and prints one `power-row,...` line with the raw figures, which
 * tools/power_strategies.py turns into the table, the CSV, the plots and
 * the sensitivity sweep (the model recomputed on the host from the same
 * figures), and a table per workload here.
 */
#define pr_fmt(fmt) "power: " fmt
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/hotplug_sync.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <lib/kernel.h>
#include <lib/printf.h>
#include <string.h>
#include <kernel/power.h>

struct power_strategy {
	const char *name;
	enum gov_policy policy;
	bool cost_aware;
	enum sched_mode mode;
	bool idle_states;
	bool stop_machine; /* hotplug.sync=stop_machine for the run */
	unsigned int down_delay_ms; /* 0: the default tunables' */
	bool no_cluster_idle; /* cpuidle_set_cluster_idle(false) for the run */
};

#define SPREAD SCHED_MODE_SPREAD
#define PACK SCHED_MODE_PACK
static const struct power_strategy strategies[] = {
	{.name = "spread", .policy = GOV_NONE, .mode = SPREAD},
	{.name = "hotplug-rqdepth", .policy = GOV_RQDEPTH, .mode = SPREAD},
	{.name = "hotplug-load", .policy = GOV_LOAD, .mode = SPREAD},
	{.name = "pack", .policy = GOV_NONE, .mode = PACK},
	{.name = "idle", .policy = GOV_NONE, .mode = SPREAD, .idle_states = 1},
	{.name = "pack+idle",
	 .policy = GOV_NONE,
	 .mode = PACK,
	 .idle_states = 1},
	{.name = "hotplug+idle",
	 .policy = GOV_RQDEPTH,
	 .mode = SPREAD,
	 .idle_states = 1},
	{.name = "cost-hotplug+idle",
	 .policy = GOV_RQDEPTH,
	 .cost_aware = 1,
	 .mode = SPREAD,
	 .idle_states = 1},
	{.name = "hotplug+idle-2013",
	 .policy = GOV_RQDEPTH,
	 .mode = SPREAD,
	 .idle_states = 1,
	 .stop_machine = 1},
	{.name = "cost-hotplug+idle-2013",
	 .policy = GOV_RQDEPTH,
	 .cost_aware = 1,
	 .mode = SPREAD,
	 .idle_states = 1,
	 .stop_machine = 1},
	{.name = "idle-tegra3",
	 .policy = GOV_NONE,
	 .mode = SPREAD,
	 .idle_states = 1,
	 .no_cluster_idle = 1},
	{.name = "hotplug+idle-tegra3",
	 .policy = GOV_RQDEPTH,
	 .mode = SPREAD,
	 .idle_states = 1,
	 .no_cluster_idle = 1},
};
#undef SPREAD
#undef PACK

/* The boot's hotplug design and cluster idle setting, which every run
 * keeps but the 2013 and tegra3 ones. */
static enum hotplug_sync boot_sync;
static bool boot_cluster_idle;

#define NR_STRATEGIES ARRAY_SIZE(strategies)

struct strategy_row {
	const struct power_strategy *s;
	struct power_result pr;
	struct wl_result wl;
	unsigned int break_even_ms;
};

/* Everything a strategy sets, back to the default. */
static void strategy_reset(const struct gov_tunables *t)
{
	governor_set(GOV_NONE, t);
	cpu_up_all();
	sched_set_mode(SCHED_MODE_SPREAD);
	cpuidle_force_state(-1);
	if (hotplug_sync_current() != boot_sync)
		cpu_hotplug_set_sync(boot_sync);
	if (cpuidle_cluster_idle() != boot_cluster_idle)
		cpuidle_set_cluster_idle(boot_cluster_idle);
}

static void strategy_apply(const struct power_strategy *s,
			   const struct gov_tunables *base)
{
	struct gov_tunables t = *base;

	sched_set_mode(s->mode);
	if (s->stop_machine)
		cpu_hotplug_set_sync(HOTPLUG_SYNC_STOP_MACHINE);
	if (s->no_cluster_idle)
		cpuidle_set_cluster_idle(false);
	/* Without idle states, WFI only: state 0 forced. */
	cpuidle_force_state(s->idle_states ? -1 : 0);
	t.cost_aware = s->cost_aware;
	if (s->down_delay_ms)
		t.down_delay_ms = s->down_delay_ms;
	governor_set(s->policy, &t);
}

static void run_one(struct strategy_row *row, const struct wl_workload *w,
		    const struct gov_tunables *t, unsigned int scale)
{
	struct power_meter m;

	strategy_reset(t);
	wl_reset();
	if (power_meter_start(&m)) {
		pr_err("%s/%s: no memory for the meter\n", w->name,
		       row->s->name);
		return;
	}
	strategy_apply(row->s, t);
	row->break_even_ms = power_break_even_ms();
	for (unsigned int i = 0; i < w->nr_phases; i++)
		wl_run_phase(&w->phases[i], scale, NULL, NULL);
	power_meter_read(&m, &row->pr);
	power_meter_free(&m);
	wl_result(&row->wl);
	strategy_reset(t);
}

static unsigned long long us(u64 ns)
{
	return ns / 1000;
}

/* The raw figures, for the host tool: one line per run. */
static void print_raw(const char *workload, const struct strategy_row *r)
{
	const struct power_result *p = &r->pr;
	char opp[128];
	int len = 0;

	for (int k = 0; k < POWER_OPP_MAX; k++)
		len += snprintf(opp + len, sizeof(opp) - len, "%s%llu",
				k ? "/" : "", us(p->opp_busy_ns[k]));

	printk(KERN_INFO
	       "power-row,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
	       "%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu,"
	       "%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,%u,%s,%llu,%llu,"
	       "%llu\n",
	       workload, r->s->name, us(p->wall_ns), us(p->active_ns),
	       us(p->idle_ns), us(p->off_ns), us(p->state_ns[0]),
	       us(p->state_ns[1]), us(p->state_ns[2]), us(p->state_ns[3]),
	       (unsigned long long)p->state_entries[0],
	       (unsigned long long)p->state_entries[1],
	       (unsigned long long)p->state_entries[2],
	       (unsigned long long)p->state_entries[3], p->nr_clusters,
	       us(p->clusters_idle_ns), us(p->clusters_down_ns),
	       (unsigned long long)p->cluster_downs,
	       (unsigned long long)p->cluster_uj,
	       (unsigned long long)p->transitions,
	       (unsigned long long)p->transition_uj,
	       (unsigned long long)p->energy_uj,
	       (unsigned long long)r->wl.units,
	       (unsigned long long)(r->wl.cpu_ns / 1000000), r->wl.wakeups,
	       us(r->wl.lat_p50_ns), us(r->wl.lat_p99_ns), r->break_even_ms,
	       opp, us(p->stall_ns), (unsigned long long)r->wl.frames,
	       (unsigned long long)r->wl.frame_misses);
}

static void print_table(const char *workload, const struct strategy_row *rows,
			int n)
{
	pr_info("%s: %-22s %9s %10s %9s %8s %8s %9s %7s %8s %8s %s\n", workload,
		"STRATEGY", "ENERGY-mJ", "WORK-UNITS", "CPU-ms", "P50-us",
		"P99-us", "MISSED", "HOTPLUG", "STALL-us", "CL-DOWN",
		"IDLE ENTRIES (per state)");
	for (int i = 0; i < n; i++) {
		const struct strategy_row *r = &rows[i];

		pr_info("%s: %-22s %9llu %10llu %9llu %8llu %8llu %4llu/%-4llu "
			"%7llu %8llu %6llums %llu/%llu/%llu/%llu\n",
			workload, r->s->name,
			(unsigned long long)(r->pr.energy_uj / 1000),
			(unsigned long long)r->wl.units,
			(unsigned long long)(r->wl.cpu_ns / 1000000),
			us(r->wl.lat_p50_ns), us(r->wl.lat_p99_ns),
			(unsigned long long)r->wl.frame_misses,
			(unsigned long long)r->wl.frames,
			(unsigned long long)r->pr.transitions,
			us(r->pr.stall_ns),
			(unsigned long long)(r->pr.clusters_down_ns / 1000000),
			(unsigned long long)r->pr.state_entries[0],
			(unsigned long long)r->pr.state_entries[1],
			(unsigned long long)r->pr.state_entries[2],
			(unsigned long long)r->pr.state_entries[3]);
	}
}

static bool listed(const char *name, char *const *names, int n)
{
	if (!n)
		return true;
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Names that are not strategies or workloads: refused, nothing runs. */
static int check_names(char *const *names, int n, bool strategy)
{
	for (int i = 0; i < n; i++) {
		bool found = false;

		for (unsigned int j = 0;
		     j < (strategy ? NR_STRATEGIES : wl_nr_workloads); j++)
			found |= !strcmp(names[i],
					 strategy ? strategies[j].name
						  : wl_workloads[j].name);
		if (!found) {
			pr_err("unknown %s '%s'\n",
			       strategy ? "strategy" : "workload", names[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The runs in order: power.only's (shuffled by tools/power_stats.py, so
 * no strategy always runs first or after the same one), else the table's.
 * A name listed again is an A/A control: the same strategy run again,
 * its row named NAME~2 (~3...), so the noise between identical runs shows.
 */
static struct power_strategy repeats[POWER_MAX_WORDS];
static char repeat_names[POWER_MAX_WORDS][40];

static int run_order(char *const *only, int nr_only,
		     const struct power_strategy **runs)
{
	int n = 0;

	if (!nr_only) {
		for (unsigned int i = 0; i < NR_STRATEGIES; i++)
			runs[n++] = &strategies[i];
		return n;
	}
	for (int i = 0; i < nr_only && n < POWER_MAX_WORDS; i++) {
		unsigned int j = 0, seen = 1;

		while (j < NR_STRATEGIES - 1 &&
		       strcmp(strategies[j].name, only[i]))
			j++; /* check_names() found each */
		for (int k = 0; k < i; k++)
			seen += !strcmp(only[k], only[i]);
		runs[n] = &strategies[j];
		if (seen > 1) {
			repeats[i] = strategies[j];
			snprintf(repeat_names[i], sizeof(repeat_names[i]),
				 "%s~%u", strategies[j].name, seen);
			repeats[i].name = repeat_names[i];
			runs[n] = &repeats[i];
		}
		n++;
	}
	return n;
}

/*
 * The down-delay sweep: hotplug+idle once per fixed down delay, after the
 * strategies, so the energy minimum can be held against the break-even
 * the cost-aware governor computes (power.down_delays=).
 */
static struct power_strategy swept[POWER_MAX_DELAYS];
static char swept_names[POWER_MAX_DELAYS][32];

static int make_sweep(const unsigned int *delays, int nr_delays)
{
	for (int i = 0; i < nr_delays; i++) {
		swept[i] = strategies[6]; /* hotplug+idle */
		swept[i].down_delay_ms = delays[i];
		snprintf(swept_names[i], sizeof(swept_names[i]), "%s/%ums",
			 strategies[6].name, delays[i]);
		swept[i].name = swept_names[i];
	}
	return nr_delays;
}

int power_strategies(char *const *only, int nr_only, char *const *wls,
		     int nr_wls, unsigned int scale, const unsigned int *delays,
		     int nr_delays)
{
	static struct strategy_row rows[POWER_MAX_WORDS + POWER_MAX_DELAYS];
	const struct power_strategy *runs[POWER_MAX_WORDS];
	int nr_swept = make_sweep(delays, min(nr_delays, POWER_MAX_DELAYS));
	int nr_runs;
	struct gov_tunables t;
	enum gov_policy cur;
	int cpus = cpuidle_state_count();

	if (check_names(only, nr_only, true) || check_names(wls, nr_wls, false))
		return -EINVAL;
	nr_runs = run_order(only, nr_only, runs);
	governor_get(&cur, &t);
	gov_default_tunables(&t);
	boot_sync = hotplug_sync_current();
	boot_cluster_idle = cpuidle_cluster_idle();
	power_model_print();
	pr_info("strategies at %u%% of each workload on %u CPUs; idle "
		"states: %d (%s%s%s)\n",
		scale, nr_cpu_ids, cpus, cpuidle_get_state(0)->name,
		cpus > 1 ? ", ..., " : "",
		cpus > 1 ? cpuidle_get_state(cpus - 1)->name : "");
	printk(KERN_INFO
	       "power-row,workload,strategy,wall_us,active_us,idle_us,"
	       "off_us,state0_us,state1_us,state2_us,state3_us,entries0,"
	       "entries1,entries2,entries3,clusters,clusters_idle_us,"
	       "clusters_down_us,cluster_downs,cluster_uj,transitions,"
	       "transition_uj,energy_uj,units,cpu_ms,wakeups,p50_us,"
	       "p99_us,break_even_ms,opp_busy_us,stall_us,frames,"
	       "frame_misses\n");
	for (unsigned int w = 0; w < wl_nr_workloads; w++) {
		const struct wl_workload *wl = &wl_workloads[w];
		int n = 0;

		if (!listed(wl->name, wls, nr_wls))
			continue;
		for (int i = 0; i < nr_runs; i++) {
			rows[n].s = runs[i];
			pr_info("%s: %s\n", wl->name, runs[i]->name);
			run_one(&rows[n], wl, &t, scale);
			print_raw(wl->name, &rows[n]);
			n++;
		}
		for (int i = 0; i < nr_swept; i++) {
			rows[n].s = &swept[i];
			pr_info("%s: %s\n", wl->name, swept[i].name);
			run_one(&rows[n], wl, &t, scale);
			print_raw(wl->name, &rows[n]);
			n++;
		}
		print_table(wl->name, rows, n);
	}
	pr_info("done\n");
	return 0;
}
