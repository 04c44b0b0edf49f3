/*
 * The comparisons of make power: power= runs the phased workload once per
 * policy and prints the energy table and the trace; power.strategies runs
 * every strategy (hotplug, pack, idle states...) on every workload
 * (strategy.c). Experiments on the governor, left out of a BENCH=0 build.
 */
#define pr_fmt(fmt) "power: " fmt
#include <kernel/cpu.h>
#include <kernel/governor.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/power.h>

static char power_word[64], only_word[256], workloads_word[64];
static bool strategies_flag;
param_string("power", power_word,
	     "all|NAME[,NAME]: compare governor policies on the phased "
	     "workload");
param_flag("power.strategies", strategies_flag,
	   "compare the power strategies (hotplug, pack, idle states...) on "
	   "every workload (make power)");
param_string("power.only", only_word,
	     "NAME[,NAME]: power.strategies runs only these strategies");
param_string("power.workloads", workloads_word,
	     "phased|phone|storm[,...]: power.strategies runs only these");
static char delays_word[64];
param_string("power.down_delays", delays_word,
	     "MS[,MS...]: power.strategies also runs hotplug+idle with each "
	     "fixed down delay (1-60000 ms, at most 8)");

/* power.down_delays= into ms; -EINVAL (none kept) with a message. */
static int parse_delays(char *word, unsigned int *out)
{
	char *w[POWER_MAX_WORDS], *end;
	int n = word[0] ? power_split_commas(word, w) : 0;

	if (n > POWER_MAX_DELAYS) {
		pr_err("power.down_delays: at most %d delays\n",
		       POWER_MAX_DELAYS);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		unsigned long v = strtoul(w[i], &end, 10);

		if (!w[i][0] || *end || v < 1 || v > 60000) {
			pr_err("power.down_delays: '%s' is not 1-60000 ms; no "
			       "sweep\n",
			       w[i]);
			return -EINVAL;
		}
		out[i] = v;
	}
	return n;
}

struct power_row {
	enum gov_policy policy;
	struct power_result pr;
	struct wl_result wl;
};

/* The phased workload once under policy p, from every CPU online. */
static void power_one(struct power_row *row, const struct gov_tunables *t,
		      unsigned int scale)
{
	const char *name = gov_policy_name(row->policy);
	struct power_meter m;
	u64 from, t0;

	governor_set(GOV_NONE, t);
	cpu_up_all();
	pr_info("policy %s: running the phased workload\n", name);
	from = gov_trace_next_seq();
	wl_reset();
	if (power_meter_start(&m)) {
		pr_err("policy %s: no memory for the meter\n", name);
		return;
	}
	t0 = m.t0_ns;
	governor_set(row->policy, t);
	for (unsigned int i = 0; i < wl_mix_len; i++) {
		printk(KERN_INFO "gov-phase,%s,%llu,%s\n", name,
		       (unsigned long long)((ktime_get_ns() - t0) / 1000000),
		       wl_mix[i].name);
		wl_run_phase(&wl_mix[i], scale, NULL, NULL);
	}
	power_meter_read(&m, &row->pr);
	power_meter_free(&m);
	wl_result(&row->wl);
	governor_set(GOV_NONE, t);
	gov_trace_dump(from, name, t0);
}

static void print_row(const struct power_row *r)
{
	u64 online100 = r->pr.wall_ns ? (r->pr.active_ns + r->pr.idle_ns) *
						100 / r->pr.wall_ns
				      : 0;

	pr_info("%-12s %10llu %12llu %11llu %8llu %8llu %8llu %8llu.%02llu\n",
		gov_policy_name(r->policy),
		(unsigned long long)(r->pr.energy_uj / 1000),
		(unsigned long long)r->wl.units,
		(unsigned long long)(r->wl.cpu_ns / 1000000),
		(unsigned long long)(r->wl.lat_p50_ns / 1000),
		(unsigned long long)(r->wl.lat_p99_ns / 1000),
		(unsigned long long)r->pr.transitions,
		(unsigned long long)online100 / 100,
		(unsigned long long)online100 % 100);
}

static void power_compare(char *which, unsigned int scale)
{
	static struct power_row rows[GOV_NR_POLICIES];
	char *names[POWER_MAX_WORDS];
	int n = 0, words = power_split_commas(which, names);
	struct gov_tunables t;
	enum gov_policy cur;

	governor_get(&cur, &t);
	if (!strcmp(which, "all")) {
		for (int p = GOV_PERFORMANCE; p < GOV_NR_POLICIES; p++)
			rows[n++].policy = p;
	} else {
		for (int i = 0; i < words && n < GOV_NR_POLICIES; i++)
			if (!gov_policy_parse(names[i], &rows[n].policy) &&
			    rows[n].policy != GOV_NONE)
				n++;
	}
	power_model_print();
	pr_info("phased workload at %u%%, %d policies\n", scale, n);
	printk(KERN_INFO "gov-trace,label,t_ms,policy,depth,util,online,want,"
			 "mask,event,cpu\n");
	for (int i = 0; i < n; i++)
		power_one(&rows[i], &t, scale);
	cpu_up_all();
	pr_info("%-12s %10s %12s %11s %8s %8s %8s %11s\n", "POLICY",
		"ENERGY-mJ", "WORK-UNITS", "WORK-CPU-ms", "P50-us", "P99-us",
		"HOTPLUG", "MEAN-ONLINE");
	for (int i = 0; i < n; i++)
		print_row(&rows[i]);
	pr_info("done\n");
}

void power_runs_boot(void)
{
	char arg[64];

	if (power_word[0]) {
		strlcpy(arg, power_word, sizeof(arg));
		power_compare(arg, power_scale ?: 100);
	}
	if (strategies_flag) {
		char only[256], wls[64], dl[64], *o[POWER_MAX_WORDS],
			*w[POWER_MAX_WORDS];
		unsigned int delays[POWER_MAX_DELAYS];
		int no, nw, nd;

		strlcpy(only, only_word, sizeof(only));
		strlcpy(wls, workloads_word, sizeof(wls));
		no = only[0] ? power_split_commas(only, o) : 0;
		nw = wls[0] ? power_split_commas(wls, w) : 0;
		strlcpy(dl, delays_word, sizeof(dl));
		nd = parse_delays(dl, delays);
		if (nd < 0)
			nd = 0;
		if (power_strategies(o, no, w, nw, power_scale ?: 100, delays,
				     nd))
			pr_warn("power.strategies: nothing run\n");
	}
}
