/*
 * What the command line asks of the governor at boot: policy= starts it,
 * power= runs the phased workload once per policy and prints the energy
 * table and the trace (make power), demo runs it under the governor with
 * a live status line each second, then stops the governor and brings
 * every CPU back (make run).
 */
#define pr_fmt(fmt) "power: " fmt
#include <kernel/cpu.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <string.h>
#include "power.h"

static char policy_word[256], power_word[64], model_word[128];
static char only_word[128], workloads_word[64];
static unsigned long power_scale;
static bool demo, strategies_flag;
param_string("policy", policy_word,
	     "NAME[,key=value...]: start the hotplug governor");
param_string("power", power_word,
	     "all|NAME[,NAME]: compare governor policies on the phased "
	     "workload");
param_ulong("power.scale", power_scale, 1, 1000,
	    "N: length of the phased workload of power= and demo, percent "
	    "(default 100; demo 200)");
param_string("power.model", model_word,
	     "active_mw=N,wfi_mw=N,off_mw=N,transition_uj=N: the power model");
param_flag("power.strategies", strategies_flag,
	   "compare the power strategies (hotplug, pack, idle states...) on "
	   "every workload (make power)");
param_string("power.only", only_word,
	     "NAME[,NAME]: power.strategies runs only these strategies");
param_string("power.workloads", workloads_word,
	     "phased|phone|storm[,...]: power.strategies runs only these");
param_flag("demo", demo,
	   "the phased workload under the governor with a status line each "
	   "second, then the shell");

#define MAX_WORDS 16

/* Split s at commas, in place. */
static int split_commas(char *s, char **argv)
{
	int n = 0;

	while (*s && n < MAX_WORDS) {
		argv[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static struct power_meter boot_meter;

/* Energy and figures since boot, for the shell's `power`. */
void power_since_boot(struct power_result *r)
{
	power_meter_read(&boot_meter, r);
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
	char *names[MAX_WORDS];
	int n = 0, words = split_commas(which, names);
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

struct demo {
	u64 t0, last;
};

static void demo_status(const char *phase, void *arg)
{
	struct demo *d = arg;
	u64 now = ktime_get_ns();
	struct cpuhp_stats hs;
	struct rcu_stats rs;
	struct gov_record r;
	char mask[64];

	if (now - d->last < NSEC_PER_SEC)
		return;
	d->last = now;
	governor_last(&r);
	rcu_get_stats(&rs);
	hotplug_get_stats(&hs);
	cpumap_print_list(mask, sizeof(mask), cpu_online_mask);
	printk(KERN_INFO
	       "[demo %2llus] %-9s load %2u.%02u util %3u%%  online "
	       "%-8s (%u)  grace periods %ld + %llu expedited  hotplug "
	       "%llu\n",
	       (unsigned long long)((now - d->t0) / NSEC_PER_SEC), phase,
	       r.depth / 100, r.depth % 100, r.util, mask, num_online_cpus(),
	       rs.gp_completed, (unsigned long long)rs.nr_exp_samples,
	       (unsigned long long)(hs.ups + hs.downs));
}

static void demo_run(unsigned int scale)
{
	struct demo d = {.t0 = ktime_get_ns()};
	struct gov_tunables t;
	enum gov_policy p;
	struct power_meter m;
	struct power_result pr;
	struct wl_result wl;

	governor_get(&p, &t);
	if (p == GOV_NONE)
		governor_set(GOV_RQDEPTH, &t);
	governor_get(&p, &t);
	printk(KERN_INFO "demo: %s governor, phased workload (idle, 4 "
			 "CPU-bound threads, frames, bursts, 1 thread, idle)\n",
	       gov_policy_name(p));
	wl_reset();
	if (power_meter_start(&m)) {
		pr_err("demo: no memory for the meter\n");
		return;
	}
	for (unsigned int i = 0; i < wl_mix_len; i++)
		wl_run_phase(&wl_mix[i], scale, demo_status, &d);
	power_meter_read(&m, &pr);
	power_meter_free(&m);
	wl_result(&wl);
	printk(KERN_INFO "demo: done: modelled energy %llu mJ, %llu work "
			 "units, wake-up p50 %llu us p99 %llu us, %llu hotplug "
			 "operations\n",
	       (unsigned long long)(pr.energy_uj / 1000),
	       (unsigned long long)wl.units,
	       (unsigned long long)(wl.lat_p50_ns / 1000),
	       (unsigned long long)(wl.lat_p99_ns / 1000),
	       (unsigned long long)pr.transitions);
	/* The shell starts as a plain boot would: every CPU online and no
	 * governor taking them down behind the user's back. */
	governor_set(GOV_NONE, &t);
	cpu_up_all();
	if (num_online_cpus() == cpumask_weight(cpu_present_mask))
		printk(KERN_INFO "demo: done; all %u CPUs online (governor "
				 "stopped, policy none); try 'cpus', 'policy "
				 "rqdepth'\n",
		       num_online_cpus());
	else
		pr_warn("demo: done; only %u of %u CPUs came back online "
			"(governor stopped); see 'cpus'\n",
			num_online_cpus(), cpumask_weight(cpu_present_mask));
}

/* policy=NAME[,key=value...] */
static void policy_from_cmdline(char *arg)
{
	char *words[MAX_WORDS];
	int n = split_commas(arg, words);
	struct gov_tunables t;
	enum gov_policy p;

	gov_default_tunables(&t);
	if (!n || gov_policy_parse(words[0], &p) ||
	    gov_parse_args(n - 1, words + 1, &t)) {
		pr_warn("policy= ignored\n");
		return;
	}
	governor_set(p, &t);
}

static void model_from_cmdline(char *arg)
{
	char *words[MAX_WORDS];
	int n = split_commas(arg, words);

	for (int i = 0; i < n; i++)
		if (power_model_set(words[i]))
			pr_warn("power_model: '%s' ignored\n", words[i]);
}

void governor_boot(void)
{
	char arg[256]; /* split in place: the words keep their values */

	if (power_meter_start(&boot_meter))
		pr_err("power: no memory for the boot meter\n");
	if (model_word[0]) {
		strlcpy(arg, model_word, sizeof(arg));
		model_from_cmdline(arg);
	}
	if (policy_word[0]) {
		strlcpy(arg, policy_word, sizeof(arg));
		policy_from_cmdline(arg);
	}
	if (power_word[0]) {
		strlcpy(arg, power_word, sizeof(arg));
		power_compare(arg, power_scale ?: 100);
	}
	if (strategies_flag) {
		char only[128], wls[64], *o[MAX_WORDS], *w[MAX_WORDS];
		int no, nw;

		strlcpy(only, only_word, sizeof(only));
		strlcpy(wls, workloads_word, sizeof(wls));
		no = only[0] ? split_commas(only, o) : 0;
		nw = wls[0] ? split_commas(wls, w) : 0;
		if (power_strategies(o, no, w, nw, power_scale ?: 100))
			pr_warn("power.strategies: nothing run\n");
	}
	if (demo)
		demo_run(power_scale ?: 200);
}
